/*
** planner/grouping.c — what the aggregation works on: the group key's
** columns and their code domains, each aggregate's accumulator in a
** group's state, and the strategy groupby.h chooses from them.
**
** Keys are columns: a dictionary column groups by its code, an integer or
** DATE column by its value less the column's minimum, so every key has a
** known domain and the combined code of groupby.h fits 64 bits. A key
** may also be an expression whose range the planner can bound from its
** columns' statistics (grp_range: integer arithmetic on columns and
** literals, division and modulo by constants, CASE, comparisons, casts
** between integers, a CASE of string literals — an index into the
** plan's string table); the kernels compute it, FINAL reads it back from
** the group's code, and every equal expression above the grouping (the
** select list, HAVING, ORDER BY) is that key (plan_key_find). A column
** the select list uses ungrouped (allowed when its table's primary key is
** grouped) is carried as one more key: it does not split any group.
** SELECT DISTINCT without aggregates groups by its select list.
**
** State layout, 8-byte fields: [row count][accumulators...]. The row
** count tells a dense slot that no row reached from a group, and a scalar
** aggregate over no rows (SUM NULL, COUNT 0) from one over some. A
** nullable argument gets its own non-NULL count; otherwise the row count
** is the count.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bindInt.h"
#include "planInt.h"

/* An expression key's range may span at most this many values: beyond it
** the combined code of several keys would not fit 64 bits anyway. */
#define GRP_RANGE_MAX ((int64_t)1 << 40)

/* Returns 1 if e can be NULL: a nullable column, a NULL literal or a CASE
** below it. Conservative: a wrong 1 costs 8 bytes of state, a wrong 0 a
** wrong answer. */
static int grp_nullable(const plan *p, const sql_expr *e) {
  if (e == NULL) return 0;
  if (e->eKind == SQL_EXPR_NULL || e->eKind == SQL_EXPR_CASE) return 1;
  if (e->eKind == SQL_EXPR_COLUMN) {
    return !p->aSource[e->b.iSource].pTable->aCol[e->b.iColumn].bNotNull;
  }
  if (grp_nullable(p, e->pLeft) || grp_nullable(p, e->pRight)) return 1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (grp_nullable(p, e->pList->a[i].pExpr)) return 1;
  }
  return 0;
}

static int grp_key_index(const plan *p, const sql_expr *e) {
  for (int i = 0; i < p->nKey; i++) {
    if (p->aKey[i].bExpr ? bind__expr_equal(p->aKey[i].pExpr, e)
                         : e->eKind == SQL_EXPR_COLUMN && p->aKey[i].iSource == e->b.iSource &&
                               p->aKey[i].iColumn == e->b.iColumn) {
      return i;
    }
  }
  return -1;
}

int plan_key_find(const plan *p, const sql_expr *e) {
  for (int i = 0; i < p->nKey; i++) {
    if (p->aKey[i].bExpr && bind__expr_equal(p->aKey[i].pExpr, e)) return i;
  }
  return -1;
}

static int grp_is_int(coltype t) {
  return t.eId == COLTYPE_SMALLINT || t.eId == COLTYPE_INTEGER || t.eId == COLTYPE_BIGINT;
}

/* 1 if e is round, floor, ceil, ceiling or trunc of one argument. */
static int grp_is_rounding(const sql_expr *e) {
  static const char *const azName[] = {"round", "floor", "ceil", "ceiling", "trunc"};
  if (e->eKind != SQL_EXPR_FUNC || e->b.iAgg >= 0 || e->zName == NULL || e->pList == NULL ||
      e->pList->n != 1) {
    return 0;
  }
  for (size_t i = 0; i < sizeof(azName) / sizeof(azName[0]); i++) {
    if (strcmp(e->zName, azName[i]) == 0) return 1;
  }
  return 0;
}

static int grp_range(plan_ctx *c, const sql_expr *e, __int128 *pLo, __int128 *pHi);

/* [lo, hi] of the real values of integer or DECIMAL expression e: 1 if
** bounded, 0 if not, -1 on an error reading statistics. Doubles are
** wide enough for a bound that is loosened by one on each side. */
static int grp_real_range(plan_ctx *c, const sql_expr *e, double *pLo, double *pHi) {
  double a0, a1, b0, b1, v[4];
  __int128 i0, i1;
  int r = 0;
  if (grp_is_int(e->b.type)) {
    if ((r = grp_range(c, e, &i0, &i1)) != 1) return r;
    if (i0 > i1) return 0;
    *pLo = (double)i0;
    *pHi = (double)i1;
    return 1;
  }
  if (e->b.type.eId != COLTYPE_DECIMAL && e->b.type.eId != COLTYPE_NUMERIC) return 0;
  switch (e->eKind) {
    case SQL_EXPR_DECIMAL:
    case SQL_EXPR_INTEGER:
      *pLo = *pHi = strtod(e->zText, NULL);
      return 1;
    case SQL_EXPR_CAST:
      return grp_real_range(c, e->pLeft, pLo, pHi);
    case SQL_EXPR_COLUMN: {
      const col_stats *st = plan__stats(c, e->b.iSource, e->b.iColumn);
      double p = 1;
      if (st == NULL) return -1;
      if (!st->bMinMax || e->b.type.eId != COLTYPE_DECIMAL) return 0;
      for (int i = 0; i < e->b.type.nScale; i++) p *= 10;
      *pLo = (double)st->min.i / p;
      *pHi = (double)st->max.i / p;
      return 1;
    }
    case SQL_EXPR_UNARY:
      if (e->eOp != SQL_OP_NEG || (r = grp_real_range(c, e->pLeft, &a0, &a1)) != 1) return r;
      *pLo = -a1;
      *pHi = -a0;
      return 1;
    case SQL_EXPR_BINARY:
      break;
    default:
      return 0;
  }
  if ((r = grp_real_range(c, e->pLeft, &a0, &a1)) != 1 ||
      (r = grp_real_range(c, e->pRight, &b0, &b1)) != 1) {
    return r;
  }
  switch (e->eOp) {
    case SQL_OP_ADD: *pLo = a0 + b0; *pHi = a1 + b1; return 1;
    case SQL_OP_SUB: *pLo = a0 - b1; *pHi = a1 - b0; return 1;
    case SQL_OP_MUL: v[0] = a0 * b0; v[1] = a0 * b1; v[2] = a1 * b0; v[3] = a1 * b1; break;
    case SQL_OP_DIV:
      if (b0 != b1 || b0 == 0) return 0;  /* by a constant */
      v[0] = v[2] = a0 / b0;
      v[1] = v[3] = a1 / b0;
      break;
    default:
      return 0;
  }
  *pLo = *pHi = v[0];
  for (int i = 1; i < 4; i++) {
    if (v[i] < *pLo) *pLo = v[i];
    if (v[i] > *pHi) *pHi = v[i];
  }
  return 1;
}

/* [lo, hi] of the non-NULL values e can take, into *pLo, *pHi, from its
** columns' statistics: 1 if bounded, 0 if not (or e takes no value but
** NULL: then *pLo > *pHi), -1 on an error reading statistics. */
static int grp_range(plan_ctx *c, const sql_expr *e, __int128 *pLo, __int128 *pHi) {
  __int128 a0, a1, b0, b1;
  int r;
  if (e->b.type.eId == COLTYPE_BOOLEAN) {
    *pLo = 0;
    *pHi = 1;
    return 1;
  }
  if (coltype_is_string(e->b.type) && e->eKind != SQL_EXPR_COLUMN && plan_strlist_expr(e)) {
    *pLo = 0;
    *pHi = (__int128)c->p->nStr - 1;
    return 1;
  }
  if (coltype_is_string(e->b.type) && e->eKind != SQL_EXPR_COLUMN) {
    const plan_valmap *m = plan_strmap_find(c->p, e);   /* a string map's indexes */
    int bAny = 0;
    if (m == NULL) return 0;
    for (uint64_t i = 0; i < m->nEntry; i++) {
      if (m->aValue[i] < 0) continue;
      if (!bAny || m->aValue[i] < *pLo) *pLo = m->aValue[i];
      if (!bAny || m->aValue[i] > *pHi) *pHi = m->aValue[i];
      bAny = 1;
    }
    if (!bAny) *pLo = 1, *pHi = 0;
    return 1;
  }
  if (grp_is_rounding(e) && e->b.type.eId == COLTYPE_DECIMAL && e->b.type.nScale == 0) {
    /* a whole NUMERIC of a bounded one: one more on each side for rounding */
    double lo, hi;
    if ((r = grp_real_range(c, e->pList->a[0].pExpr, &lo, &hi)) != 1) return r;
    if (!(lo > -1e15 && hi < 1e15)) return 0;
    *pLo = (__int128)floor(lo) - 1;
    *pHi = (__int128)ceil(hi) + 1;
    return 1;
  }
  if (e->eKind == SQL_EXPR_FUNC) {        /* a value map's least and greatest */
    const plan_valmap *m = plan_valmap_find(c->p, e);
    if (m == NULL || m->bFloat) return 0;
    *pLo = *pHi = m->aValue[0];
    for (uint64_t i = 1; i < m->nEntry; i++) {
      if (m->aValue[i] < *pLo) *pLo = m->aValue[i];
      if (m->aValue[i] > *pHi) *pHi = m->aValue[i];
    }
    return 1;
  }
  if (!grp_is_int(e->b.type)) return 0;
  switch (e->eKind) {
    case SQL_EXPR_INTEGER:
      *pLo = *pHi = strtoll(e->zText, NULL, 10);
      return 1;
    case SQL_EXPR_NULL:
      *pLo = 1;
      *pHi = 0;
      return 1;
    case SQL_EXPR_COLUMN: {
      const col_stats *st = plan__stats(c, e->b.iSource, e->b.iColumn);
      if (st == NULL) return -1;
      if (!st->bMinMax) {
        *pLo = 1;
        *pHi = 0;
        return 1;
      }
      *pLo = st->min.i;
      *pHi = st->max.i;
      return 1;
    }
    case SQL_EXPR_CAST:
      if (!grp_is_int(e->pLeft->b.type) && e->pLeft->b.type.eId != COLTYPE_BOOLEAN) return 0;
      return grp_range(c, e->pLeft, pLo, pHi);
    case SQL_EXPR_UNARY:
      if ((r = grp_range(c, e->pLeft, &a0, &a1)) != 1) return r;
      *pLo = e->eOp == SQL_OP_NEG ? -a1 : a0;
      *pHi = e->eOp == SQL_OP_NEG ? -a0 : a1;
      return 1;
    case SQL_EXPR_CASE: {
      int bAny = 0;
      for (int i = 0; i <= (e->pList != NULL ? e->pList->n / 2 : 0); i++) {
        const sql_expr *v = i < e->pList->n / 2 ? e->pList->a[2 * i + 1].pExpr : e->pRight;
        if (v == NULL) continue;
        if ((r = grp_range(c, v, &a0, &a1)) != 1) return r;
        if (a0 > a1) continue;
        if (!bAny || a0 < *pLo) *pLo = a0;
        if (!bAny || a1 > *pHi) *pHi = a1;
        bAny = 1;
      }
      if (!bAny) *pLo = 1, *pHi = 0;
      return 1;
    }
    case SQL_EXPR_BINARY:
      break;
    default:
      return 0;
  }
  if ((r = grp_range(c, e->pLeft, &a0, &a1)) != 1 || (r = grp_range(c, e->pRight, &b0, &b1)) != 1) {
    return r;
  }
  if (a0 > a1 || b0 > b1) {
    *pLo = 1;
    *pHi = 0;
    return 1;
  }
  switch (e->eOp) {
    case SQL_OP_ADD: *pLo = a0 + b0; *pHi = a1 + b1; return 1;
    case SQL_OP_SUB: *pLo = a0 - b1; *pHi = a1 - b0; return 1;
    case SQL_OP_MUL: {
      __int128 v[4] = {a0 * b0, a0 * b1, a1 * b0, a1 * b1};
      *pLo = *pHi = v[0];
      for (int i = 1; i < 4; i++) {
        if (v[i] < *pLo) *pLo = v[i];
        if (v[i] > *pHi) *pHi = v[i];
      }
      return 1;
    }
    case SQL_OP_DIV:
      /* by a constant: truncation is monotonic */
      if (b0 != b1 || b0 == 0) return 0;
      *pLo = (b0 > 0 ? a0 : a1) / b0;
      *pHi = (b0 > 0 ? a1 : a0) / b0;
      return 1;
    case SQL_OP_MOD: {
      __int128 m = b0 < 0 ? -b0 : b0, m1 = b1 < 0 ? -b1 : b1;
      if (m1 > m) m = m1;
      if (m == 0) return 0;
      *pLo = a0 >= 0 ? 0 : a0 > -(m - 1) ? a0 : -(m - 1);
      *pHi = a1 <= 0 ? 0 : a1 < m - 1 ? a1 : m - 1;
      return 1;
    }
    default:
      return 0;
  }
}

/* Adds expression e as a key, its range bounded by grp_range. */
static int grp_key_add_expr(plan_ctx *c, sql_expr *e) {
  plan *p = c->p;
  plan_key *k;
  __int128 lo, hi;
  int r = grp_range(c, e, &lo, &hi);
  if (r < 0) return -1;
  if (r == 0 || (lo <= hi && hi - lo >= GRP_RANGE_MAX)) {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  r == 0 ? "grouping by this expression is not supported yet: group by columns, "
                           "integer arithmetic on them or a CASE"
                         : "grouping by this expression is not supported yet: its values span "
                           "more than 2^40");
    return -1;
  }
  if (lo > hi) lo = hi = 0;              /* NULL alone */
  k = &p->aKey[p->nKey++];
  memset(k, 0, sizeof(*k));
  k->pExpr = e;
  k->iSource = k->iColumn = -1;
  k->type = e->b.type;
  k->bExpr = 1;
  k->iMin = (int64_t)lo;
  k->nDomain = (uint64_t)(hi - lo) + 1;
  k->bNullable = grp_nullable(p, e);
  return 0;
}

static int grp_key_add(plan_ctx *c, sql_expr *e, int bDependent) {
  plan *p = c->p;
  const cat_column *col;
  plan_key *k;
  /* round(x) of an integer x is x as a double: group on x */
  if (grp_is_rounding(e) && grp_is_int(e->pList->a[0].pExpr->b.type)) {
    return grp_key_add(c, e->pList->a[0].pExpr, bDependent);
  }
  if (grp_key_index(p, e) >= 0) return 0;
  if (p->nKey == GROUPBY_MAX_KEY) {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "grouping by more than %d columns is not supported", GROUPBY_MAX_KEY);
    return -1;
  }
  if (e->eKind != SQL_EXPR_COLUMN) return grp_key_add_expr(c, e);
  col = &p->aSource[e->b.iSource].pTable->aCol[e->b.iColumn];
  if (col->type.eId == COLTYPE_DOUBLE) {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "grouping by a DOUBLE PRECISION column is not supported");
    return -1;
  }
  k = &p->aKey[p->nKey++];
  memset(k, 0, sizeof(*k));
  k->pExpr = e;
  k->iSource = e->b.iSource;
  k->iColumn = e->b.iColumn;
  k->type = col->type;
  k->bDict = coltype_is_string(col->type);
  k->bNullable = !col->bNotNull;
  k->bDependent = bDependent;
  p->aSource[k->iSource].aUse[k->iColumn] |= PLAN_USE_PAYLOAD;
  return 0;
}

/* Adds every column outside aggregates below e that is not a key yet. */
static int grp_dependent(plan_ctx *c, sql_expr *e) {
  if (e == NULL || e->b.bConstant) return 0;
  if (e->eKind == SQL_EXPR_FUNC && e->b.iAgg >= 0) return 0;
  if (plan_key_find(c->p, e) >= 0) return 0;   /* an expression key: computed */
  if (e->eKind == SQL_EXPR_COLUMN) return grp_key_index(c->p, e) >= 0 ? 0 : grp_key_add(c, e, 1);
  if (grp_dependent(c, e->pLeft) != 0 || grp_dependent(c, e->pRight) != 0) return -1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (grp_dependent(c, e->pList->a[i].pExpr) != 0) return -1;
  }
  return 0;
}

static int grp_keys(plan_ctx *c) {
  plan *p = c->p;
  const sql_select *pSel = p->pSelect;
  const bound_select *b = p->pBound;
  p->aKey = arena_alloc(c->pArena, sizeof(plan_key) * GROUPBY_MAX_KEY);
  if (p->aKey == NULL) return plan__oom(c);
  if (!b->bAggregate) {                 /* SELECT DISTINCT */
    for (int i = 0; i < b->pItems->n; i++) {
      if (grp_key_add(c, b->pItems->a[i].pExpr, 0) != 0) return -1;
    }
    return 0;
  }
  for (int i = 0; pSel->pGroupBy != NULL && i < pSel->pGroupBy->n; i++) {
    if (grp_key_add(c, pSel->pGroupBy->a[i].pExpr, 0) != 0) return -1;
  }
  for (int i = 0; i < b->pItems->n; i++) {
    if (grp_dependent(c, b->pItems->a[i].pExpr) != 0) return -1;
  }
  if (grp_dependent(c, pSel->pHaving) != 0) return -1;
  for (int i = 0; pSel->pOrderBy != NULL && i < pSel->pOrderBy->n; i++) {
    if (grp_dependent(c, pSel->pOrderBy->a[i].pExpr) != 0) return -1;
  }
  return 0;
}

/* Whether the row count can be left out of the state (plan.bCountInSum):
** one aggregate, a SUM of a NOT NULL integer column that the statistics
** say holds no value below 1, in a GROUP BY over resident columns. A sum
** of such values is 0 only for a group with no row, so the sum marks the
** groups as the count did. The statistics are the catalog's for the data
** the plan reads (a load merges them; a plan is made again for data that
** changed). Resident only, as measured on the H100 (bench/RESULTS.md):
** SSB Q3.1 at SF 100 went 7.33 -> 5.16 ms resident, server-side, but its
** streamed kernels 64 -> 107 ms, for a cause not yet found. Returns 1 or
** 0, or -1 if the statistics could not be read. */
static int grp_count_in_sum(plan_ctx *c) {
  plan *p = c->p;
  const plan_agg *a = &p->aAgg[0];
  const col_stats *st;
  if (!p->model.bResident) return 0;
  if (p->nKey == 0 || p->nAgg != 1 || a->eFunc != PLAN_AGG_SUM || a->bFloat) return 0;
  if (a->pArg == NULL || a->pArg->eKind != SQL_EXPR_COLUMN || a->iCountOffset >= 0) return 0;
  switch (a->argType.eId) {
    case COLTYPE_SMALLINT: case COLTYPE_INTEGER: case COLTYPE_BIGINT: case COLTYPE_DECIMAL: break;
    default: return 0;
  }
  if ((st = plan__stats(c, a->pArg->b.iSource, a->pArg->b.iColumn)) == NULL) return -1;
  return st->bMinMax && st->nNull == 0 && st->min.i > 0;
}

/* bool_and and every are MIN of 0/1, bool_or MAX: NULLs skipped alike. */
static plan_agg_func grp_func(const sql_expr *e) {
  switch (e->zName[0]) {
    case 'c': return e->bStar ? PLAN_AGG_COUNT_STAR : PLAN_AGG_COUNT;
    case 's': return PLAN_AGG_SUM;
    case 'a': return PLAN_AGG_AVG;
    case 'e': return PLAN_AGG_MIN;
    case 'b': return strcmp(e->zName, "bool_and") == 0 ? PLAN_AGG_MIN : PLAN_AGG_MAX;
    default: return strcmp(e->zName, "min") == 0 ? PLAN_AGG_MIN : PLAN_AGG_MAX;
  }
}

static int grp_aggs(plan_ctx *c) {
  plan *p = c->p;
  const bound_select *b = p->pBound;
  int iOff = 8;                          /* the row count */
  p->nAgg = b->nAgg;
  p->aAgg = arena_alloc(c->pArena, sizeof(plan_agg) * (size_t)(b->nAgg + 1));
  if (p->aAgg == NULL) return plan__oom(c);
  for (int i = 0; i < b->nAgg; i++) {
    sql_expr *e = b->apAgg[i];
    plan_agg *a = &p->aAgg[i];
    if (e->bDistinct) {
      sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                    "DISTINCT inside an aggregate is not supported");
      return -1;
    }
    a->pCall = e;
    a->eFunc = grp_func(e);
    a->pArg = e->bStar ? NULL : e->pList->a[0].pExpr;
    a->argType = a->pArg != NULL ? a->pArg->b.type : e->b.type;
    a->resultType = e->b.type;
    a->bFloat = a->argType.eId == COLTYPE_DOUBLE;
    a->iValueOffset = -1;
    a->iCountOffset = -1;
    if (a->eFunc != PLAN_AGG_COUNT_STAR && a->eFunc != PLAN_AGG_COUNT) {
      a->iValueOffset = iOff;
      iOff += 8;
    }
    if (a->pArg != NULL && grp_nullable(p, a->pArg)) {
      a->iCountOffset = iOff;
      iOff += 8;
    }
  }
  p->nStateByte = iOff;
  switch (grp_count_in_sum(c)) {
    case -1: return -1;
    case 1:
      p->bCountInSum = 1;
      p->aAgg[0].iValueOffset = 0;
      p->nStateByte = 8;
      break;
    default: break;
  }
  return 0;
}

/* Distinct values key k can take among the rows that reach aggregation. */
static double grp_key_distinct(plan_ctx *c, const plan_key *k, const col_stats *st) {
  plan *p = c->p;
  double n = st->nDistinct > 0 ? (double)st->nDistinct : 1;
  int iDim = p->aiDimOf != NULL ? p->aiDimOf[k->iSource] : -1;
  const plan_pred *a = iDim >= 0 ? p->aDim[iDim].aPred : p->aFactPred;
  int nPred = iDim >= 0 ? p->aDim[iDim].nPred : p->nFactPred;
  for (int i = 0; i < nPred; i++) {     /* a filter on the key itself */
    if (a[i].pCodes != NULL && a[i].iSource == k->iSource && a[i].iDictCol == k->iColumn &&
        (double)a[i].pCodes->nPass < n) {
      n = (double)a[i].pCodes->nPass;
    }
  }
  return n + (k->bNullable && st->nNull > 0);
}

/* The most frequent groups of a one-column key, from the catalog's code
** frequencies (dictionary columns: exact counts per code; NULL's count
** for a nullable key, whose code is the last), for groupby.h's hot-group
** replication. A multi-column key or an integer key has no frequencies:
** the list stays empty. Shares are of the column's rows, assumed to hold
** among the rows that pass the query's filters. */
static void grp_hot(const plan_key *k, const col_stats *st, uint64_t nDomain, groupby_input *in) {
  if (in->nKey != 1 || !k->bDict || st->aFreq == NULL || st->nRow <= 0) return;
  for (uint64_t i = 0; i < st->nFreq && i < nDomain; i++) {
    groupby_hot_add(in, i, (double)st->aFreq[i] / (double)st->nRow);
  }
  if (k->bNullable) groupby_hot_add(in, nDomain - 1, (double)st->nNull / (double)st->nRow);
}

static int grp_strategy(plan_ctx *c) {
  plan *p = c->p;
  groupby_input in;
  char zErr[256];
  double nGroup = 1;
  memset(&in, 0, sizeof(in));
  in.nKey = p->nKey;
  for (int i = 0; i < p->nKey; i++) {
    const plan_key *k = &p->aKey[i];
    const col_stats *st;
    if (k->bExpr) {
      in.aKey[i].iMin = k->iMin;
      in.aKey[i].nDomain = k->nDomain + k->bNullable;
      nGroup *= (double)in.aKey[i].nDomain;
      continue;
    }
    if ((st = plan__stats(c, k->iSource, k->iColumn)) == NULL) return -1;
    if (k->bDict) {
      const store_dict *d = plan__dict(c, k->iSource, k->iColumn);
      if (d == NULL) return -1;
      in.aKey[i].iMin = 0;
      in.aKey[i].nDomain = d->n;
    } else if (st->bMinMax) {
      in.aKey[i].iMin = st->min.i;
      in.aKey[i].nDomain = (uint64_t)(st->max.i - st->min.i) + 1;
    } else {
      in.aKey[i].nDomain = 1;            /* no value at all: NULLs or nothing */
    }
    in.aKey[i].nDomain += k->bNullable;  /* the last code is NULL's */
    grp_hot(k, st, in.aKey[i].nDomain, &in);
    nGroup *= grp_key_distinct(c, k, st);
  }
  p->nGroup = p->nKey == 0 ? 1 : nGroup < p->nRowOut ? nGroup : p->nRowOut > 1 ? p->nRowOut : 1;
  in.nStateByte = p->nStateByte;
  in.nStateAlign = 8;
  in.nGroupEst = p->nGroup;
  in.nRowEst = p->nRowOut;
  if (groupby_plan_choose(&in, &p->model.dev, &p->group, zErr, sizeof(zErr)) != 0) {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED,
                  p->nKey > 0 ? p->aKey[0].pExpr->iOffset : -1, "cannot group: %s", zErr);
    return -1;
  }
  return 0;
}

int plan__grouping(plan_ctx *c) {
  plan *p = c->p;
  const bound_select *b = p->pBound;
  p->bAggregate = b->bAggregate || p->pSelect->bDistinct;
  if (!p->bAggregate) return 0;
  if (grp_keys(c) != 0 || grp_aggs(c) != 0) return -1;
  return grp_strategy(c);
}
