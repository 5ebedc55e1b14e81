/*
** host/agg.c — hash aggregation: rows grouped by their key values (NULLs
** in one group, as GROUP BY does), each group's aggregates folded row by
** row, and with grouping sets one pass per set, the keys a set does not
** group by NULL in its rows and a last column holding the mask of those
** keys (what grouping() reads). Without keys, or for the empty grouping
** set, there is one group even over no rows, as in PostgreSQL.
**
** Aggregates follow PostgreSQL: NULL arguments are skipped, FILTER rows
** that fail are skipped, DISTINCT folds each distinct argument once, SUM
** and AVG over no rows are NULL and COUNT is 0. SUM accumulates in its
** result type (the binder's: BIGINT for integers, with 22003 past its
** range; DECIMAL; DOUBLE), AVG in numeric (or double over doubles).
**
** INTERFACE ROUTINES (hostInt.h)
**   host__agg, host__agg_step, host__agg_final
*/
#include <string.h>

#include "../parser/ast.h"
#include "hostInt.h"

/* Appends z[0..n) to a STRING_AGG state's text. */
static int host_str_append(host_run_ctx *x, host_agg_state *s, const char *z, uint32_t n) {
  if (s->nStr + n > s->nStrAlloc) {
    uint32_t nNew = s->nStrAlloc ? s->nStrAlloc * 2 : 64;
    char *zNew;
    while (nNew < s->nStr + n) nNew *= 2;
    if ((zNew = arena_alloc(x->pArena, nNew)) == NULL) return host__oom(x);
    if (s->nStr > 0) memcpy(zNew, s->zStr, s->nStr);
    s->zStr = zNew;
    s->nStrAlloc = nNew;
  }
  if (n > 0) memcpy(s->zStr + s->nStr, z, n);
  s->nStr += n;
  return 0;
}

int host__agg_step(host_run_ctx *x, const host_agg *a, host_agg_state *s, const datum *aRow) {
  datum v, w;
  if (a->pFilter != NULL) {
    int b;
    if (host__eval_true(x, a->pFilter, aRow, &b) != 0) return -1;
    if (!b) return 0;
  }
  if (a->eFunc == HOST_AGG_COUNT_STAR) {
    s->nCount++;
    return 0;
  }
  if (a->bCollect) return host__agg_collect_step(x, a, s, aRow);
  if (host__eval(x, a->apArg[0], aRow, &v) != 0) return -1;
  if (v.bNull) return 0;
  if (a->bDistinct) {
    void **pp;
    int bNew;
    if (s->pSeen == NULL && (s->pSeen = host__hash_new(x, 1)) == NULL) return -1;
    if (host__hash_find(x, s->pSeen, &v, 1, &pp, &bNew) != 0) return -1;
    if (!bNew) return 0;
  }
  switch (a->eFunc) {
    case HOST_AGG_COUNT:
      s->nCount++;
      return 0;
    case HOST_AGG_SUM:
      if (!s->bHave) {
        if (host__cast(x, &v, a->type, &s->acc) != 0) return -1;
        s->bHave = 1;
        return 0;
      }
      if (host__add(x, &s->acc, &v, a->type, &w) != 0) return -1;
      s->acc = w;
      return 0;
    case HOST_AGG_AVG:
      s->nCount++;
      if (v.type.eId == COLTYPE_DOUBLE || v.type.eId == COLTYPE_FLOAT4) {
        s->rSum += v.u.r;
        return 0;
      } else {
        coltype tNum = {COLTYPE_NUMERIC, 0, 0, 0};
        if (!s->bHave) {
          if (host__cast(x, &v, tNum, &s->acc) != 0) return -1;
          s->bHave = 1;
          return 0;
        }
        if (host__add(x, &s->acc, &v, tNum, &w) != 0) return -1;
        s->acc = w;
        return 0;
      }
    case HOST_AGG_MIN:
    case HOST_AGG_MAX: {
      int c;
      if (!s->bHave) {
        s->acc = v;
        s->bHave = 1;
        return host__datum_own(x, &s->acc);
      }
      c = host_datum_cmp(&v, &s->acc);
      if (a->eFunc == HOST_AGG_MIN ? c < 0 : c > 0) {
        s->acc = v;
        return host__datum_own(x, &s->acc);
      }
      return 0;
    }
    case HOST_AGG_BOOL_AND:
    case HOST_AGG_BOOL_OR:
      if (!s->bHave) {
        s->acc = v;
        s->bHave = 1;
      } else if (a->eFunc == HOST_AGG_BOOL_AND) {
        s->acc.u.i = s->acc.u.i && v.u.i;
      } else {
        s->acc.u.i = s->acc.u.i || v.u.i;
      }
      return 0;
    case HOST_AGG_STRING_AGG:
      if (s->bHave) {
        if (host__eval(x, a->apArg[1], aRow, &w) != 0) return -1;
        if (!w.bNull && host_str_append(x, s, w.u.s.z, w.u.s.n) != 0) return -1;
      }
      s->bHave = 1;
      return host_str_append(x, s, v.u.s.z, v.u.s.n);
    case HOST_AGG_VAR_POP:
    case HOST_AGG_VAR_SAMP:
    case HOST_AGG_STDDEV_POP:
    case HOST_AGG_STDDEV_SAMP:
    case HOST_AGG_BIT_AND:
    case HOST_AGG_BIT_OR: {
      int64_t nTimes = 1;
      if (a->nArg == 2 && !a->bDistinct) {
        if (host__eval(x, a->apArg[1], aRow, &w) != 0) return -1;
        if (w.bNull || w.u.i <= 0) return 0;
        nTimes = w.u.i;
      }
      return host__agg_var_step(x, a, s, &v, nTimes);
    }
    case HOST_AGG_ARRAY_AGG:             /* always collected */
    case HOST_AGG_COUNT_STAR:
      break;
  }
  return 0;
}

int host__agg_final(host_run_ctx *x, const host_agg *a, const host_agg_state *s, datum *pOut) {
  if (a->bCollect) return host__agg_collect_final(x, a, s, pOut);
  *pOut = datum_null(a->type.eId);
  pOut->type = a->type;
  switch (a->eFunc) {
    case HOST_AGG_COUNT_STAR:
    case HOST_AGG_COUNT:
      *pOut = datum_int(COLTYPE_BIGINT, s->nCount);
      pOut->type = a->type;
      return 0;
    case HOST_AGG_AVG: {
      datum sum, cnt, q;
      coltype tNum = {COLTYPE_NUMERIC, 0, 0, 0};
      if (s->nCount == 0) return 0;
      if (!s->bHave) {                        /* doubles */
        *pOut = datum_float(s->rSum / (double)s->nCount);
        if (a->type.eId != COLTYPE_DOUBLE) return host__cast(x, pOut, a->type, pOut);
        return 0;
      }
      sum = s->acc;
      cnt = datum_int(COLTYPE_BIGINT, s->nCount);
      if (host__cast(x, &cnt, tNum, &cnt) != 0) return -1;
      q = sum;
      {
        int rc = numeric_div(&sum.u.n, &cnt.u.n, &q.u.n);
        if (rc != NUMERIC_OK) {
          numeric_error(rc, "numeric", x->pErr);
          return -1;
        }
      }
      if (a->type.eId == COLTYPE_NUMERIC && a->type.nPrecision == 0) {
        *pOut = q;
        pOut->type = a->type;
        return 0;
      }
      return host__cast(x, &q, a->type, pOut);
    }
    case HOST_AGG_VAR_POP:
    case HOST_AGG_VAR_SAMP:
    case HOST_AGG_STDDEV_POP:
    case HOST_AGG_STDDEV_SAMP:
    case HOST_AGG_BIT_AND:
    case HOST_AGG_BIT_OR:
      return host__agg_var_final(x, a, s, pOut);
    case HOST_AGG_ARRAY_AGG:             /* always collected */
      return 0;
    case HOST_AGG_STRING_AGG:
      if (!s->bHave) return 0;
      *pOut = datum_text(COLTYPE_TEXT, s->zStr, s->nStr);
      pOut->type = a->type;
      return 0;
    default:
      if (!s->bHave) return 0;
      *pOut = s->acc;
      if (a->eFunc == HOST_AGG_SUM && s->acc.type.eId != a->type.eId) {
        return host__cast(x, &s->acc, a->type, pOut);
      }
      pOut->type = a->type;
      return 0;
  }
}

/* ---- grouping --------------------------------------------------------------- */

/* One group: its aggregates' states (its keys are the hash table's). */
typedef struct host_group host_group;
struct host_group {
  host_agg_state *aState;
};

/* What the output walk needs. */
typedef struct host_agg_out host_agg_out;
struct host_agg_out {
  host_run_ctx *x;
  const host_node *n;
  uint32_t mNull;          /* keys not grouped in this set */
  host_rel *pOut;
};

static int host_agg_emit(void *pArg, const datum *aKey, void *pVal) {
  host_agg_out *o = pArg;
  const host_node *n = o->n;
  host_group *g = pVal;
  datum *a = host__row_new(o->x, n->nCol);
  if (a == NULL) return -1;
  for (int k = 0; k < n->nKey; k++) a[k] = aKey[k];
  for (int i = 0; i < n->nAgg; i++) {
    if (host__agg_final(o->x, &n->aAgg[i], &g->aState[i], &a[n->nKey + i]) != 0) return -1;
  }
  if (n->nSet > 0) a[n->nKey + n->nAgg] = datum_int(COLTYPE_INTEGER, (int64_t)o->mNull);
  return host__rel_add(o->x, o->pOut, a);
}

/* Groups pIn by the keys in mask mSet (the others NULL). */
static int host_agg_set(host_run_ctx *x, const host_node *n, const host_rel *pIn, uint32_t mSet,
                        host_rel *pOut) {
  host_hash *h = host__hash_new(x, n->nKey);
  datum *aKey = host__row_new(x, n->nKey);
  host_agg_out o;
  if (h == NULL || aKey == NULL) return -1;
  for (int64_t i = 0; i < pIn->nRow; i++) {
    const datum *aRow = pIn->apRow[i];
    void **pp;
    int bNew;
    host_group *g;
    for (int k = 0; k < n->nKey; k++) {
      if (mSet & (1u << k)) {
        if (host__eval(x, n->apKey[k], aRow, &aKey[k]) != 0) return -1;
      } else {
        aKey[k] = datum_null(n->aType[k].eId);
      }
      aKey[k].type = n->aType[k];
    }
    if (host__hash_find(x, h, aKey, 1, &pp, &bNew) != 0) return -1;
    if (bNew) {
      if ((g = arena_alloc(x->pArena, sizeof(*g))) == NULL) return host__oom(x);
      g->aState = arena_alloc(x->pArena, sizeof(host_agg_state) * (size_t)(n->nAgg + 1));
      if (g->aState == NULL) return host__oom(x);
      memset(g->aState, 0, sizeof(host_agg_state) * (size_t)(n->nAgg + 1));
      *pp = g;
    }
    g = *pp;
    for (int a = 0; a < n->nAgg; a++) {
      if (host__agg_step(x, &n->aAgg[a], &g->aState[a], aRow) != 0) return -1;
    }
    if ((i & 1023) == 0 && host__check(x) != 0) return -1;
  }
  /* No keys grouped: one row even over no input. */
  if (mSet == 0 && host__hash_count(h) == 0) {
    void **pp;
    host_group *g;
    for (int k = 0; k < n->nKey; k++) {
      aKey[k] = datum_null(n->aType[k].eId);
      aKey[k].type = n->aType[k];
    }
    if (host__hash_find(x, h, aKey, 1, &pp, NULL) != 0) return -1;
    if ((g = arena_alloc(x->pArena, sizeof(*g))) == NULL) return host__oom(x);
    g->aState = arena_alloc(x->pArena, sizeof(host_agg_state) * (size_t)(n->nAgg + 1));
    if (g->aState == NULL) return host__oom(x);
    memset(g->aState, 0, sizeof(host_agg_state) * (size_t)(n->nAgg + 1));
    *pp = g;
  }
  o.x = x;
  o.n = n;
  o.mNull = ~mSet & (n->nKey >= 32 ? 0xffffffffu : ((1u << n->nKey) - 1));
  o.pOut = pOut;
  return host__hash_each(h, host_agg_emit, &o);
}

int host__agg(host_run_ctx *x, const host_node *n, const host_rel *pIn, host_rel *pOut) {
  uint32_t mAll = n->nKey >= 32 ? 0xffffffffu : ((1u << n->nKey) - 1);
  if (n->nSet == 0) return host_agg_set(x, n, pIn, mAll, pOut);
  for (int s = 0; s < n->nSet; s++) {
    if (host_agg_set(x, n, pIn, n->amSet[s], pOut) != 0) return -1;
  }
  return 0;
}
