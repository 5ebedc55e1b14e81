/*
** loader/loadInt.h — what the loader's own files share and nobody else
** may use: the parse context that text.c hands to the per-format parsers
** (text-tbl.c, text-csv.c).
*/
#ifndef STARQ_LOAD_INT_H
#define STARQ_LOAD_INT_H

#include <stddef.h>
#include <stdint.h>

#include "batch.h"
#include "text.h"

/* ---- the parse context ---------------------------------------------------
** One load_text_parse() call. The per-column plan caches what the hot loops
** test on every field, so they never chase cat_table or load_col pointers.
** aValue pointers change whenever the batch grows: load__parse_grow()
** refreshes them. */

/* How a column's fields are parsed on the fast path. */
typedef enum load__kind {
  LOAD__I16 = 1,           /* SMALLINT */
  LOAD__I32,               /* INTEGER */
  LOAD__I64,               /* BIGINT */
  LOAD__DATE,              /* DATE */
  LOAD__STR,               /* CHAR, VARCHAR, TEXT */
  LOAD__OTHER,             /* DECIMAL, DOUBLE: always value_parse() */
} load__kind;

/* A tiny cache of recently interned strings of one column, so a column of
** a handful of distinct values (SSB's priorities, ship modes, nations)
** skips the string set's hash most of the time. Entries hold strings of
** at most LOAD__STRCACHE_LEN bytes. */
#define LOAD__STRCACHE_N 64
#define LOAD__STRCACHE_LEN 16
typedef struct load__strcache_ent load__strcache_ent;
struct load__strcache_ent {
  uint32_t n;              /* length + 1; 0 = empty slot */
  uint32_t iCode;          /* the batch code */
  char a[LOAD__STRCACHE_LEN];
};

typedef struct load__plan load__plan;
struct load__plan {
  load__kind eKind;
  int bNotNull;
  int32_t nLength;         /* CHAR/VARCHAR limit in characters; 0: none */
  coltype type;
  void *aValue;            /* the batch's vector (refreshed on growth) */
  load__strcache_ent *aCache; /* LOAD__STRCACHE_N entries, strings only */
};

typedef struct load__parse load__parse;
struct load__parse {
  const char *z;           /* the whole input; offsets count from here */
  size_t iBegin, iEnd;     /* the piece being parsed */
  const load_text_opts *pOpt;
  const cat_table *t;
  load_batch *b;
  load_text_error *pErr;
  int nCol;
  load__plan *aPlan;       /* nCol entries; owned by text.c */
  int nField;              /* csv: fields a record has (nCol, or pOpt's) */
  const int *aiField;      /* csv: their columns (pOpt's), or NULL: in order */
  const char *zNull;       /* unquoted text meaning NULL; NULL: none (tbl) */
  size_t nNull;
  char cDelim, cQuote;
  char *zScratch;          /* csv: unquoted copies of fields; owned */
  size_t nScratch;
};

/* Makes room for row b->nRow and a guess at the rows still to come,
** judging by the bytes left after iPos. Returns 0, or -1 (out of memory,
** with *pErr filled). */
int load__parse_grow(load__parse *x, size_t iPos);

/* Stores field zField[0..nField) (text as it reads after unquoting) in row
** iRow of column iCol: NULL if it is the NULL text (and unquoted), else
** checked and converted. Returns 0, or -1 with zWhy saying what was
** expected (nothing is reported into *pErr: the caller first checks the
** record's shape, which takes precedence). */
int load__field_store(load__parse *x, int iCol, int64_t iRow, const char *zField,
                      size_t nField, int bQuoted, char *zWhy, size_t nWhy);

/* Interns a string for a column through its cache and stores its code.
** Returns 0, or -1 if memory ran out. */
int load__str_store(load__parse *x, int iCol, int64_t iRow, const char *zField,
                    size_t nField);

/* Returns the cache slot a short string goes to: cheap, and different for
** SSB's small vocabularies (lengths and first and last letters differ). */
static inline unsigned load__strcache_hash(const char *z, size_t n) {
  unsigned h = (unsigned)n * 0x9e3779b1u;
  if (n > 0) {
    h ^= (unsigned char)z[0] * 0x85ebca6bu;
    h ^= (unsigned char)z[n - 1] * 0xc2b2ae35u;
    h ^= (unsigned char)z[n / 2] * 0x27d4eb2fu;
  }
  return (h >> 16) & (LOAD__STRCACHE_N - 1);
}

/* The hot loops' first try: stores the code of a cached string and
** returns 1, or returns 0 if the string is not in the column's cache. The
** byte loop beats a call to memcmp for strings this short. */
static inline int load__str_cached(load__plan *pl, int64_t iRow, const char *z, size_t n) {
  const load__strcache_ent *pEnt;
  size_t k = 0;
  if (n > LOAD__STRCACHE_LEN) return 0;
  pEnt = &pl->aCache[load__strcache_hash(z, n)];
  if (pEnt->n != n + 1) return 0;
  while (k < n && pEnt->a[k] == z[k]) k++;
  if (k < n) return 0;
  ((uint32_t *)pl->aValue)[iRow] = pEnt->iCode;
  return 1;
}

/* Fills *pErr: iOffset and iCol as given, zFound from zText[0..nText)
** escaped and cut, zExpected from the printf-style format. */
void load__error_set(load__parse *x, size_t iOffset, int iCol, const char *zText,
                     size_t nText, const char *zFormat, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Writes z[0..n) into zOut (size nOut) for a message: control bytes and
** invalid UTF-8 escaped, '"' and '\\' escaped, cut with "..." to fit. */
void load__escape(const char *z, size_t n, char *zOut, size_t nOut);

/* Clears the NULL marks a failed record may have left in row iRow, so the
** slot is clean for whoever appends next. */
void load__row_unwind(load__parse *x, int64_t iRow);

/* The format parsers. Each parses x->z[x->iBegin..x->iEnd). */
int load__tbl_parse(load__parse *x);
int load__csv_parse(load__parse *x);

#endif /* STARQ_LOAD_INT_H */
