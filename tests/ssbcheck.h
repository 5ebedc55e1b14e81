/*
** tests/ssbcheck.h — private to the SSB data checker (test-ssb-data.c and
** ssbcheck-dims.c): a cursor over one .tbl file, field parsers that fail
** with file, line, column, the text found and what was expected, and the
** checker of each table.
**
** Nothing here comes from the generator: every expected value is derived
** from ../shared/SSB.md, and the calendar from libc, so that the checker
** is an independent witness of what starq-gen writes.
*/
#ifndef STARQ_SSBCHECK_H
#define STARQ_SSBCHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <time.h>

#include "test.h"

#define SSBCHECK_MAXCOL 17          /* lineorder and date have the most */
#define SSBCHECK_DAYS 2557          /* 1992-01-01 .. 1998-12-31 */
#define SSBCHECK_KEY0 19920101      /* yyyymmdd of day 0 */
#define SSBCHECK_KEYSPAN (19981231 - SSBCHECK_KEY0 + 1)

/* What SSB.md's rules say the files of one scale factor must hold. */
typedef struct ssbcheck_expect ssbcheck_expect;
struct ssbcheck_expect {
  double rSf;
  int64_t nOrder;
  int64_t nCustomer;
  int64_t nSupplier;
  int64_t nPart;
  int64_t nPartKeyMax;      /* lo_partkey is drawn from 1..this */
};

/* The real calendar of the date table's days, from libc in UTC. */
typedef struct ssbcheck_cal ssbcheck_cal;
struct ssbcheck_cal {
  struct tm aTm[SSBCHECK_DAYS];          /* day i after 1992-01-01 */
  int32_t aKey[SSBCHECK_DAYS];           /* its yyyymmdd */
  int16_t aDay[SSBCHECK_KEYSPAN];        /* yyyymmdd - KEY0 -> i, or -1 */
};

/* One .tbl file, mapped, and the fields of its current line. */
typedef struct ssbcheck_tbl ssbcheck_tbl;
struct ssbcheck_tbl {
  const char *zPath;                     /* "data/part.tbl" */
  const char *const *azCol;              /* column names, for messages */
  int nCol;
  const char *zMap;                      /* the whole file */
  size_t nMap;
  const char *zLine;                     /* where the current line starts */
  const char *zNext;                     /* where the next line starts */
  int64_t iLine;                         /* 1-based, of the current line */
  const char *az[SSBCHECK_MAXCOL];       /* fields of the current line */
  int an[SSBCHECK_MAXCOL];               /* their lengths */
};

void ssbcheck_open(ssbcheck_tbl *t, const char *zPath,
                   const char *const *azCol, int nCol);
int ssbcheck_next(ssbcheck_tbl *t);      /* 0 at the end of the file */
void ssbcheck_close(ssbcheck_tbl *t);

/* Fail the test: "PATH:LINE: COLUMN: found "TEXT", expected <fmt...>".
** ssbcheck_fail takes column iCol of t's current line (iCol < 0: the line
** as a whole); ssbcheck_fail_at names everything explicitly. */
_Noreturn void ssbcheck_fail(const ssbcheck_tbl *t, int iCol,
                             const char *zFmt, ...)
    __attribute__((format(printf, 3, 4)));
_Noreturn void ssbcheck_fail_at(const char *zPath, int64_t iLine,
                                const char *zCol, const char *zFound,
                                int nFound, const char *zFmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Field iCol as a plain decimal integer (digits only, no leading zero) in
** [iMin, iMax]; fails otherwise. */
int64_t ssbcheck_int(const ssbcheck_tbl *t, int iCol, int64_t iMin,
                     int64_t iMax);
/* Index of field iCol in az[0..n-1]; fails if it is none of them. */
int ssbcheck_word(const ssbcheck_tbl *t, int iCol, const char *const *az,
                  int n);
/* Whether the n bytes at z spell the string zWord exactly. */
int ssbcheck_eqn(const char *z, int n, const char *zWord);
/* Fails unless field iCol is exactly zWant. */
void ssbcheck_text(const ssbcheck_tbl *t, int iCol, const char *zWant);
/* Index of the n bytes at z in az[0..nWord-1], or -1. */
int ssbcheck_find(const char *z, int n, const char *const *az, int nWord);

/* Checks counts of a uniform draw: aCount[v] of value v (0..nVal-1) over
** nDraw rows that each hold nPer distinct values, so each count is
** binomial(nDraw, nPer/nVal). Each must lie within 6 sigma of its mean; the
** check is skipped when the mean is under 100, where that says little.
** Labels: azLabel[v] if given, else the number iFirst + v. */
void ssbcheck_uniform(const char *zPath, const char *zCol,
                      const int64_t *aCount, int nVal, int64_t nDraw,
                      int nPer, const char *const *azLabel, int iFirst);

/* The day number of a yyyymmdd, or -1 if it is not a date of the table. */
int ssbcheck_day(const ssbcheck_cal *c, int64_t iKey);

/* The dimension tables (ssbcheck-dims.c). */
void ssbcheck_date(const ssbcheck_cal *c);
void ssbcheck_customer(const ssbcheck_expect *e);
void ssbcheck_supplier(const ssbcheck_expect *e);
void ssbcheck_part(const ssbcheck_expect *e);

#endif /* STARQ_SSBCHECK_H */
