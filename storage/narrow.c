/*
** storage/narrow.c — the width of a FOR-bitpacked column's resident copy
** (store.h, "narrow resident copies"): one rule that both the code
** generator (the load it emits, codegen/emit.c) and the column cache (the
** copy it builds, runtime/colmem.c) follow, so the bytes a SCAN reads a
** row are the fewest that hold the column's range, and the load's type
** is fixed in the source rather than chosen a row at a time.
**
** The range comes from the catalog's statistics (min and max of the
** values a load wrote), which planning reads anyway. They can be wrong
** only if the catalog and the files disagree; store_narrow_put() is the
** check that catches it, row by row, where the copy is built.
**
** INTERFACE ROUTINES
**   store_narrow_of    the narrow form of a column from its statistics
**   store_narrow_put   one value in that form, or -1 if it does not fit
*/
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "store.h"

/* The value as narrow copies count it: a FOR-date column's day slot
** (a copy of day slots needs 2 bytes for 176 years of dates), else the
** value; -1 with *pbOk 0 where a DATE value has no slot. */
static int64_t narrow_key(store_enc eEnc, int64_t v, int *pbOk) {
  if (eEnc != STORE_ENC_FOR_DATE) return v;
  v = store_for_day_slot(v);
  if (v < 0) *pbOk = 0;
  return v;
}

/* Narrow copies are made only with STARQ_NARROW=on (one process sees one
** value, so the planner and the column cache still agree). Off by
** default: on the H100 they read 2-2.6x fewer bytes but did not run
** faster — the SSB SCANs there are bound by their chain of dependent
** loads per tile, not by bytes — and their pricing moved Q2.2 / Q2.3 to
** a slower probe order (bench/RESULTS.md, "narrow resident copies"). */
static int narrow_enabled(void) {
  const char *z = getenv("STARQ_NARROW");
  return z != NULL && strcmp(z, "on") == 0;
}

void store_narrow_of(coltype_id t, store_enc eEnc, int bNullable, const struct col_stats *st,
                     store_narrow *p) {
  int64_t lo, hi;
  uint64_t nRange;
  int bOk = 1, nType;
  memset(p, 0, sizeof(*p));
  if (!store_enc_packed(eEnc) || st == NULL || !st->bMinMax || !narrow_enabled()) return;
  switch (t) {
    case COLTYPE_SMALLINT: nType = 2; break;
    case COLTYPE_INTEGER: case COLTYPE_DATE: nType = 4; break;
    default: return;                   /* 64-bit columns stay plain */
  }
  lo = narrow_key(eEnc, st->min.i, &bOk);
  hi = narrow_key(eEnc, st->max.i, &bOk);
  if (!bOk || hi < lo) return;
  if (bNullable || st->nNull > 0) {    /* a NULL row stores 0 (slot 0) */
    if (lo > 0) lo = 0;
    if (hi < 0) hi = 0;
  }
  nRange = (uint64_t)hi - (uint64_t)lo;
  p->nByte = nRange <= 0xffu ? 1 : nRange <= 0xffffu ? 2 : 4;
  if (p->nByte >= nType) {
    memset(p, 0, sizeof(*p));
    return;
  }
  p->iRef = lo;
}

int store_narrow_put(const store_narrow *n, store_enc eEnc, int64_t v, uint32_t *px) {
  int bOk = 1;
  uint64_t x, nMax = n->nByte == 1 ? 0xffu : n->nByte == 2 ? 0xffffu : 0xffffffffu;
  v = narrow_key(eEnc, v, &bOk);
  if (!bOk || v < n->iRef) return -1;
  x = (uint64_t)v - (uint64_t)n->iRef;
  if (x > nMax) return -1;
  *px = (uint32_t)x;
  return 0;
}
