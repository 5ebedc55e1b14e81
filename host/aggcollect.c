/*
** host/aggcollect.c — string_agg and array_agg with ORDER BY, or over a
** star query's rows grouped by value (each with its count): the rows'
** values are collected per group, sorted by their ORDER BY keys (stable:
** ties keep the order the rows came in, as PostgreSQL's sort leaves ties
** unspecified), and joined. string_agg skips NULL values and puts each
** value's own row's delimiter before it (the first's dropped), as
** PostgreSQL does; array_agg keeps NULLs and prints PostgreSQL's array
** text ({1,2}, {"a b",NULL}).
**
** INTERFACE ROUTINES (hostInt.h)
**   host__agg_collect_step, host__agg_collect_final
*/
#include <stdlib.h>
#include <string.h>

#include "hostInt.h"

/* One row's part: its value, delimiter, sort keys and count. */
struct host_collected {
  datum value;
  datum delim;             /* STRING_AGG */
  datum *aKey;             /* nOrder sort keys */
  int64_t nTimes;
  uint32_t iSeq;           /* arrival: ties keep it */
};

int host__agg_collect_step(host_run_ctx *x, const host_agg *a, host_agg_state *s, const datum *aRow) {
  struct host_collected c;
  int bArray = a->eFunc == HOST_AGG_ARRAY_AGG, iCount = bArray ? 1 : 2;
  memset(&c, 0, sizeof(c));
  c.nTimes = 1;
  if (host__eval(x, a->apArg[0], aRow, &c.value) != 0) return -1;
  if (!bArray && c.value.bNull) return 0;
  if (a->nArg > iCount) {
    datum w;
    if (host__eval(x, a->apArg[iCount], aRow, &w) != 0) return -1;
    if (w.bNull || w.u.i <= 0) return 0;
    c.nTimes = w.u.i;
  }
  if (!bArray && host__eval(x, a->apArg[1], aRow, &c.delim) != 0) return -1;
  if (host__datum_own(x, &c.value) != 0 || host__datum_own(x, &c.delim) != 0) return -1;
  if (a->nOrder > 0) {
    if ((c.aKey = arena_alloc(x->pArena, sizeof(datum) * (size_t)a->nOrder)) == NULL) return host__oom(x);
    for (int k = 0; k < a->nOrder; k++) {
      if (host__eval(x, a->apOrder[k], aRow, &c.aKey[k]) != 0 || host__datum_own(x, &c.aKey[k]) != 0) {
        return -1;
      }
    }
  }
  if (s->nColl == s->nCollAlloc) {
    uint32_t nNew = s->nCollAlloc ? 2 * s->nCollAlloc : 16;
    struct host_collected *aNew = arena_alloc(x->pArena, sizeof(*aNew) * nNew);
    if (aNew == NULL) return host__oom(x);
    if (s->nColl > 0) memcpy(aNew, s->aColl, sizeof(*aNew) * s->nColl);
    s->aColl = aNew;
    s->nCollAlloc = nNew;
  }
  c.iSeq = s->nColl;
  s->aColl[s->nColl++] = c;
  s->bHave = 1;
  return 0;
}

/* qsort's comparison needs the sort's description: one sort at a time
** per thread. */
static _Thread_local const host_agg *host_coll_pAgg;

static int host_coll_cmp(const void *pa, const void *pb) {
  const struct host_collected *a = pa, *b = pb;
  const host_agg *g = host_coll_pAgg;
  for (int k = 0; k < g->nOrder; k++) {
    int c = host__sort_cmp(&a->aKey[k], &b->aKey[k], g->abDesc[k], g->abNullsFirst[k]);
    if (c != 0) return c;
  }
  return a->iSeq < b->iSeq ? -1 : a->iSeq > b->iSeq;
}

int host__agg_collect_final(host_run_ctx *x, const host_agg *a, const host_agg_state *s, datum *pOut) {
  strbuf out;
  int bFirst = 1;
  char *z;
  *pOut = datum_null(a->type.eId);
  pOut->type = a->type;
  if (!s->bHave || s->nColl == 0) return 0;
  if (a->nOrder > 0) {
    host_coll_pAgg = a;
    qsort(s->aColl, s->nColl, sizeof(s->aColl[0]), host_coll_cmp);
  }
  strbuf_init(&out);
  if (a->eFunc == HOST_AGG_ARRAY_AGG) strbuf_puts(&out, "{");
  for (uint32_t i = 0; i < s->nColl; i++) {
    const struct host_collected *c = &s->aColl[i];
    for (int64_t k = 0; k < c->nTimes; k++) {
      if (a->eFunc == HOST_AGG_ARRAY_AGG) {
        if (!bFirst) strbuf_puts(&out, ",");
        host__array_elem_text(&c->value, &out);
      } else {
        if (!bFirst && !c->delim.bNull) host_datum_text(&c->delim, &out);
        host_datum_text(&c->value, &out);
      }
      bFirst = 0;
    }
  }
  if (a->eFunc == HOST_AGG_ARRAY_AGG) strbuf_puts(&out, "}");
  if (strbuf_error(&out) || (z = arena_alloc(x->pArena, out.n + 1)) == NULL) {
    strbuf_free(&out);
    return host__oom(x);
  }
  memcpy(z, out.z, out.n);
  z[out.n] = 0;
  *pOut = datum_text(COLTYPE_TEXT, z, (uint32_t)out.n);
  strbuf_free(&out);
  return 0;
}
