/*
** planner/valmap.c — value maps: a function of one DATE column computed on
** the host for every day its statistics say the column spans, so that
** the kernels read the value from a table indexed by the row's day
** instead of computing it. extract(field FROM d) and date_part('field', d)
** are answered this way by common/datetime-field.c, PostgreSQL's own
** rules for every field and spelling, and a day range of SSB's seven
** years is 2,557 entries.
**
** A map exists for a call whose argument is a DATE column with statistics
** (min and max) spanning at most PLAN_VALMAP_MAX days, and whose unit is a
** literal; otherwise codegen refuses the call (0A000). extract's values
** for a date are integers (its NUMERIC has scale 0), date_part's doubles
** (their bits in the map). The binder checked the unit (22023 / 0A000
** as PostgreSQL).
**
** INTERFACE ROUTINES
**   plan__valmaps     the maps of every such call of the query (plan_build)
**   plan_valmap_find  the map of a call, for codegen
**   plan__valmap_slot a new map's place (counted once filled)
*/
#include <string.h>

#include "../common/datetime.h"
#include "planInt.h"

/* The most days a map spans: 8 MB of values. */
#define PLAN_VALMAP_MAX (1 << 20)

static int vm_is_date_func(const sql_expr *e) {
  return e->eKind == SQL_EXPR_FUNC && e->b.iAgg < 0 && e->zName != NULL && e->pList != NULL &&
         e->pList->n == 2 && (strcmp(e->zName, "extract") == 0 || strcmp(e->zName, "date_part") == 0);
}

/* Days since 2000-01-01 of yyyymmdd v. */
static int32_t vm_days(int64_t v) {
  return dt_date_from_ymd((int)(v / 10000), (int)(v / 100 % 100), (int)(v % 100));
}

/* Builds the map of call e, if its argument is a DATE column of a small
** enough range. Returns 0 or -1. */
static int vm_add(plan_ctx *c, const sql_expr *e) {
  plan *p = c->p;
  const sql_expr *pUnit = e->pList->a[0].pExpr, *pCol = e->pList->a[1].pExpr;
  const col_stats *st;
  plan_valmap *m;
  int32_t d0, d1;
  int bFloat = strcmp(e->zName, "date_part") == 0;
  if (pCol->eKind != SQL_EXPR_COLUMN || pCol->b.type.eId != COLTYPE_DATE ||
      pUnit->eKind != SQL_EXPR_STRING) {
    return 0;
  }
  if ((st = plan__stats(c, pCol->b.iSource, pCol->b.iColumn)) == NULL) return -1;
  if (!st->bMinMax) return 0;
  d0 = vm_days(st->min.i);
  d1 = vm_days(st->max.i);
  if (d1 < d0 || (int64_t)d1 - d0 >= PLAN_VALMAP_MAX) return 0;
  if ((m = plan__valmap_slot(c)) == NULL) return -1;
  m->pExpr = e;
  m->pCol = pCol;
  m->bFloat = bFloat;
  m->iMinDay = (int64_t)d0 + 10957;     /* 2000-01-01 is day 10957 of 1970 */
  m->nEntry = (uint64_t)(d1 - d0) + 1;
  m->aValue = arena_alloc(c->pArena, sizeof(int64_t) * (size_t)m->nEntry);
  if (m->aValue == NULL) return plan__oom(c);
  for (uint64_t i = 0; i < m->nEntry; i++) {
    int32_t d = d0 + (int32_t)i;
    int bNull = 0;
    if (bFloat) {
      double r;
      if (dt_date_part(DT_TYPE_DATE, pUnit->zText, &d, NULL, &r, &bNull, c->pErr) != 0) return -1;
      memcpy(&m->aValue[i], &r, sizeof(r));
    } else {
      numeric v;
      int64_t iv;
      if (dt_extract(DT_TYPE_DATE, pUnit->zText, &d, NULL, &v, &bNull, c->pErr) != 0) return -1;
      if (v.scale != 0 || numeric_to_int64(&v, INT64_MIN, INT64_MAX, &iv) != NUMERIC_OK) return 0;
      m->aValue[i] = iv;
    }
    if (bNull) return 0;                 /* no field of a finite date is NULL */
  }
  p->nValMap++;
  return 0;
}

plan_valmap *plan__valmap_slot(plan_ctx *c) {
  plan *p = c->p;
  if (p->nValMap == p->nValMapAlloc) {
    int nNew = p->nValMapAlloc ? 2 * p->nValMapAlloc : 4;
    plan_valmap *aNew = arena_alloc(c->pArena, sizeof(plan_valmap) * (size_t)nNew);
    if (aNew == NULL) {
      plan__oom(c);
      return NULL;
    }
    if (p->nValMap > 0) memcpy(aNew, p->aValMap, sizeof(plan_valmap) * (size_t)p->nValMap);
    p->aValMap = aNew;
    p->nValMapAlloc = nNew;
  }
  memset(&p->aValMap[p->nValMap], 0, sizeof(plan_valmap));
  return &p->aValMap[p->nValMap];
}

static int vm_walk(plan_ctx *c, const sql_expr *e) {
  if (e == NULL) return 0;
  if (vm_is_date_func(e)) return vm_add(c, e);
  if (vm_walk(c, e->pLeft) != 0 || vm_walk(c, e->pRight) != 0) return -1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (vm_walk(c, e->pList->a[i].pExpr) != 0) return -1;
  }
  return 0;
}

int plan__valmaps(plan_ctx *c) { return plan__each_expr(c, 0, vm_walk); }

const plan_valmap *plan_valmap_find(const plan *p, const sql_expr *e) {
  for (int i = 0; i < p->nValMap; i++) {
    if (!p->aValMap[i].bStr && p->aValMap[i].pExpr == e) return &p->aValMap[i];
  }
  return NULL;
}
