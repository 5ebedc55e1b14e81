/*
** tests/pgdiff.c — cases evaluated in PostgreSQL and compared with a
** library's answers (pgdiff.h).
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strbuf.h"
#include "pgdiff.h"
#include "test.h"

struct pgdiff {
  int n, nAlloc;
  char **azExpr;           /* owned */
  char **azWant;           /* owned; NULL for SQL NULL */
};

pgdiff *pgdiff_new(void) {
  pgdiff *d = calloc(1, sizeof(*d));
  ASSERT(d != NULL);
  return d;
}

static void pgdiff_clear(pgdiff *d) {
  for (int i = 0; i < d->n; i++) {
    free(d->azExpr[i]);
    free(d->azWant[i]);
  }
  d->n = 0;
}

void pgdiff_free(pgdiff *d) {
  if (d == NULL) return;
  pgdiff_clear(d);
  free(d->azExpr);
  free(d->azWant);
  free(d);
}

void pgdiff_add(pgdiff *d, const char *zExpr, const char *zWant) {
  if (d->n == d->nAlloc) {
    d->nAlloc = d->nAlloc ? 2 * d->nAlloc : 256;
    d->azExpr = realloc(d->azExpr, sizeof(char *) * (size_t)d->nAlloc);
    d->azWant = realloc(d->azWant, sizeof(char *) * (size_t)d->nAlloc);
    ASSERT(d->azExpr != NULL && d->azWant != NULL);
  }
  d->azExpr[d->n] = strdup(zExpr);
  d->azWant[d->n] = zWant ? strdup(zWant) : NULL;
  ASSERT(d->azExpr[d->n] != NULL && (zWant == NULL || d->azWant[d->n] != NULL));
  d->n++;
}

void pgdiff_addf(pgdiff *d, const char *zWant, const char *zFmt, ...) {
  strbuf s;
  va_list ap;
  strbuf_init(&s);
  va_start(ap, zFmt);
  strbuf_vprintf(&s, zFmt, ap);
  va_end(ap);
  ASSERT(!strbuf_error(&s));
  pgdiff_add(d, strbuf_str(&s), zWant);
  strbuf_free(&s);
}

int pgdiff_run(pgdiff *d, pgref *p, const char *zLabel, pgdiff_accept_fn xAccept) {
  char **azGot, zErr[1024];
  int nDiff = 0, nAccepted = 0, n = d->n;
  strbuf s;
  CALL_OK(pgref_eval(p, d->n, (const char *const *)d->azExpr, &azGot, zErr, sizeof(zErr)));
  strbuf_init(&s);
  for (int i = 0; i < d->n; i++) {
    const char *zWant = d->azWant[i], *zGot = azGot[i];
    if ((zWant == NULL) == (zGot == NULL) && (zWant == NULL || strcmp(zWant, zGot) == 0)) continue;
    if (xAccept != NULL && zWant != NULL && zGot != NULL && xAccept(d->azExpr[i], zWant, zGot)) {
      nAccepted++;
      continue;
    }
    if (++nDiff <= 20) {
      strbuf_printf(&s, "  %s\n    PostgreSQL: %s\n    library:    %s\n", d->azExpr[i],
                    zGot ? zGot : "NULL", zWant ? zWant : "NULL");
    }
  }
  printf("%s: %d cases, %d PostgreSQL has beyond starq's limits\n", zLabel, d->n, nAccepted);
  {
    /* Also in the scratch directory, which STARQ_TEST_KEEP keeps. */
    FILE *f = fopen("pgdiff.txt", "a");
    if (f != NULL) {
      fprintf(f, "%s: %d cases, %d differ, %d beyond starq's limits\n", zLabel, d->n, nDiff,
              nAccepted);
      fclose(f);
    }
  }
  free(azGot);
  pgdiff_clear(d);
  if (nDiff > 0) FAIL("%s: %d of %d cases differ from PostgreSQL:\n%s", zLabel, nDiff, n, s.z);
  strbuf_free(&s);
  return n;
}

uint64_t pgdiff_rand(uint64_t *pState) {
  uint64_t z = (*pState += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int64_t pgdiff_below(uint64_t *pState, int64_t n) {
  return (int64_t)(pgdiff_rand(pState) % (uint64_t)n);
}
