/*
** tests/pgdiff.h — differential tests of a library against PostgreSQL 15,
** value by value: a test adds cases (an SQL expression and the text the
** library computed for it), then one pgdiff_run evaluates them all in the
** reference server (pgref_eval: one statement per few thousand, errors
** caught one by one) and compares each exactly.
**
** A case's expected text is the library's answer spelled as PostgreSQL's
** expr::text would spell it, or "ERROR SQLSTATE: message" when the
** library refused it, or NULL for SQL NULL. A test may pass an acceptor
** that allows a known, documented difference (say, a starq limit that
** PostgreSQL does not have), which is then counted apart.
**
** INTERFACE ROUTINES
**   pgdiff_new, pgdiff_free     a list of cases
**   pgdiff_add, pgdiff_addf     one case
**   pgdiff_run                  evaluate, compare, report
**   pgdiff_rand, pgdiff_below   splitmix64 random numbers from a seed
*/
#ifndef STARQ_TEST_PGDIFF_H
#define STARQ_TEST_PGDIFF_H

#include <stdint.h>

#include "pgref.h"

typedef struct pgdiff pgdiff;

/* Returns 1 if zGot (PostgreSQL's) may stand for zWant (the library's)
** in case zExpr though they differ: a documented limit. */
typedef int (*pgdiff_accept_fn)(const char *zExpr, const char *zWant, const char *zGot);

pgdiff *pgdiff_new(void);
void pgdiff_free(pgdiff *d);

/* Adds a case: expression zExpr should give zWant (copied; NULL: SQL
** NULL). */
void pgdiff_add(pgdiff *d, const char *zExpr, const char *zWant);

/* The same with the expression made by printf. */
void pgdiff_addf(pgdiff *d, const char *zWant, const char *zFmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Evaluates every case in PostgreSQL and compares. Prints one line:
** zLabel, the cases, the accepted differences (and appends it to
** ./pgdiff.txt, which STARQ_TEST_KEEP keeps). Fails the test, listing
** up to 20 differing cases (expression, PostgreSQL's text, the
** library's), if any differs. Returns the number of cases. The cases are
** cleared afterwards, so d can collect the next batch. */
int pgdiff_run(pgdiff *d, pgref *p, const char *zLabel, pgdiff_accept_fn xAccept);

/* splitmix64: the next number of the stream *pState. */
uint64_t pgdiff_rand(uint64_t *pState);

/* A number in [0, n) (n > 0). */
int64_t pgdiff_below(uint64_t *pState, int64_t n);

#endif /* STARQ_TEST_PGDIFF_H */
