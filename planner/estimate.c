/*
** planner/estimate.c — the selectivity of a predicate on one table from
** the catalog's statistics (storage/stats.h): exact minimum and maximum,
** NULL count, distinct count (HyperLogLog for numbers).
**
** Values are assumed uniform between min and max, in the units a range
** really spans: days for DATE (yyyymmdd is not a linear scale: 19940131 and
** 19940201 are one day apart), the decimal value for DECIMAL. An equality
** outside [min, max] is known to match nothing; inside, it matches
** 1/distinct of the non-NULL rows. AND multiplies, OR adds less the
** overlap, NOT complements: independence, as every textbook optimizer
** assumes. Predicates on dictionary columns do not come here when the
** dictionary can answer them exactly (codeset.c).
**
** With nothing to go on, PostgreSQL's defaults (selfuncs.h): 0.005 for an
** equality, 1/3 for an inequality or anything else.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/value.h"
#include "planInt.h"

#define EST_DEFAULT_EQ 0.005
#define EST_DEFAULT_INEQ (1.0 / 3.0)
#define EST_DEFAULT_LIKE 0.1

static double est_clamp(double r) {
  if (!(r >= 0)) return 0;    /* NaN too */
  return r > 1 ? 1 : r;
}

/* Days since 1970-01-01 of a yyyymmdd (H. Hinnant's days_from_civil). */
static double est_days(int64_t ymd) {
  int64_t y = ymd / 10000, m = ymd / 100 % 100, d = ymd % 100;
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return (double)(era * 146097 + doe - 719468);
}

/* A column's statistic value in the units ranges span. */
static double est_stat_value(coltype t, const col_stats *st, int bMax) {
  int64_t i = bMax ? st->max.i : st->min.i;
  switch (t.eId) {
    case COLTYPE_DOUBLE: return bMax ? st->max.r : st->min.r;
    case COLTYPE_DECIMAL: return (double)i / pow(10, t.nScale);
    case COLTYPE_DATE: return est_days(i);
    default: return (double)i;
  }
}

/* The value of a constant e (a literal, negated or cast) in the units of
** column type t. Returns 0 and sets *pv, or -1 if e is no such constant. */
static int est_const_value(const sql_expr *e, coltype t, double *pv) {
  const char *z;
  char *zEnd;
  if (e == NULL) return -1;
  if (e->eKind == SQL_EXPR_UNARY && e->eOp == SQL_OP_NEG) {
    if (est_const_value(e->pLeft, t, pv) != 0) return -1;
    *pv = -*pv;
    return 0;
  }
  if (e->eKind == SQL_EXPR_CAST) return est_const_value(e->pLeft, t, pv);
  z = e->zText;
  if (z == NULL) return -1;
  if (e->eKind == SQL_EXPR_DATE) {
    coltype td = {COLTYPE_DATE, 0, 0, 0};
    int32_t ymd;
    char zWhy[128];
    if (value_parse(td, z, strlen(z), &ymd, zWhy, sizeof(zWhy)) != 0) return -1;
    *pv = est_days(ymd);
    return 0;
  }
  if (e->eKind != SQL_EXPR_INTEGER && e->eKind != SQL_EXPR_DECIMAL) return -1;
  *pv = strtod(z, &zEnd);
  return zEnd != z ? 0 : -1;
}

/* The statistics e's column has if e is a column of FROM item s, else NULL. */
static const col_stats *est_column(plan_ctx *c, int s, const sql_expr *e, coltype *pt) {
  if (e == NULL || e->eKind != SQL_EXPR_COLUMN || e->b.iSource != s) return NULL;
  *pt = c->p->aSource[s].pTable->aCol[e->b.iColumn].type;
  if (coltype_is_string(*pt)) return NULL;
  return plan__stats(c, s, e->b.iColumn);
}

static double est_nonnull(const col_stats *st) {
  return st->nRow > 0 ? (double)(st->nRow - st->nNull) / (double)st->nRow : 0;
}

/* Fraction of non-NULL values below v (bInclusive: at or below). */
static double est_below(coltype t, const col_stats *st, double v, int bInclusive) {
  double lo = est_stat_value(t, st, 0), hi = est_stat_value(t, st, 1);
  double w = t.eId == COLTYPE_DOUBLE ? 0 : t.eId == COLTYPE_DECIMAL ? pow(10, -t.nScale) : 1;
  if (!st->bMinMax) return 0;
  if (w == 0 && hi <= lo) return v > lo || (bInclusive && v == lo) ? 1 : 0;
  if (bInclusive) v += w;
  return est_clamp((v - lo) / (hi + w - lo));
}

static double est_eq(coltype t, const col_stats *st, double v) {
  if (!st->bMinMax || v < est_stat_value(t, st, 0) || v > est_stat_value(t, st, 1)) return 0;
  return st->nDistinct > 0 ? 1.0 / (double)st->nDistinct : EST_DEFAULT_EQ;
}

static sql_op est_flip(sql_op e) {
  switch (e) {
    case SQL_OP_LT: return SQL_OP_GT;
    case SQL_OP_LE: return SQL_OP_GE;
    case SQL_OP_GT: return SQL_OP_LT;
    case SQL_OP_GE: return SQL_OP_LE;
    default: return e;
  }
}

static double est_compare(plan_ctx *c, int s, const sql_expr *e, plan_est *pe) {
  const sql_expr *pCol = e->pLeft, *pVal = e->pRight;
  sql_op eOp = e->eOp;
  coltype t;
  const col_stats *st = est_column(c, s, pCol, &t);
  double v, r;
  if (st == NULL) {
    pCol = e->pRight;
    pVal = e->pLeft;
    eOp = est_flip(eOp);
    st = est_column(c, s, pCol, &t);
  }
  if (st == NULL || est_const_value(pVal, t, &v) != 0) {
    *pe = PLAN_EST_DEFAULT;
    return eOp == SQL_OP_EQ ? EST_DEFAULT_EQ : EST_DEFAULT_INEQ;
  }
  switch (eOp) {
    case SQL_OP_EQ: r = est_eq(t, st, v); *pe = PLAN_EST_DISTINCT; break;
    case SQL_OP_NE: r = 1 - est_eq(t, st, v); *pe = PLAN_EST_DISTINCT; break;
    case SQL_OP_LT: r = est_below(t, st, v, 0); *pe = PLAN_EST_RANGE; break;
    case SQL_OP_LE: r = est_below(t, st, v, 1); *pe = PLAN_EST_RANGE; break;
    case SQL_OP_GT: r = 1 - est_below(t, st, v, 1); *pe = PLAN_EST_RANGE; break;
    case SQL_OP_GE: r = 1 - est_below(t, st, v, 0); *pe = PLAN_EST_RANGE; break;
    default: *pe = PLAN_EST_DEFAULT; return EST_DEFAULT_INEQ;
  }
  return est_clamp(r) * est_nonnull(st);
}

static double est_between(plan_ctx *c, int s, const sql_expr *e, plan_est *pe) {
  coltype t;
  const col_stats *st = est_column(c, s, e->pLeft, &t);
  double lo, hi, r;
  if (st == NULL || e->pList == NULL || e->pList->n != 2 ||
      est_const_value(e->pList->a[0].pExpr, t, &lo) != 0 ||
      est_const_value(e->pList->a[1].pExpr, t, &hi) != 0) {
    *pe = PLAN_EST_DEFAULT;
    return e->bNot ? 1 - EST_DEFAULT_INEQ * EST_DEFAULT_INEQ : EST_DEFAULT_INEQ * EST_DEFAULT_INEQ;
  }
  *pe = PLAN_EST_RANGE;
  r = hi < lo ? 0 : est_clamp(est_below(t, st, hi, 1) - est_below(t, st, lo, 0));
  return (e->bNot ? 1 - r : r) * est_nonnull(st);
}

static double est_in(plan_ctx *c, int s, const sql_expr *e, plan_est *pe) {
  coltype t;
  const col_stats *st = est_column(c, s, e->pLeft, &t);
  double r = 0, v;
  if (st == NULL || e->pList == NULL) {
    *pe = PLAN_EST_DEFAULT;
    return e->bNot ? 1 - EST_DEFAULT_EQ : EST_DEFAULT_EQ;
  }
  *pe = PLAN_EST_DISTINCT;
  for (int i = 0; i < e->pList->n; i++) {
    if (est_const_value(e->pList->a[i].pExpr, t, &v) == 0) r += est_eq(t, st, v);
    else r += EST_DEFAULT_EQ;
  }
  r = est_clamp(r);
  return (e->bNot ? 1 - r : r) * est_nonnull(st);
}

static double est_is_null(plan_ctx *c, int s, const sql_expr *e, plan_est *pe) {
  const col_stats *st = e->pLeft != NULL && e->pLeft->eKind == SQL_EXPR_COLUMN &&
                                e->pLeft->b.iSource == s
                            ? plan__stats(c, s, e->pLeft->b.iColumn)
                            : NULL;
  if (st == NULL || st->nRow == 0) {
    *pe = PLAN_EST_DEFAULT;
    return e->bNot ? 1 - EST_DEFAULT_EQ : EST_DEFAULT_EQ;
  }
  *pe = PLAN_EST_NULLS;
  double r = (double)st->nNull / (double)st->nRow;
  return e->bNot ? 1 - r : r;
}

double plan__selectivity(plan_ctx *c, int s, const sql_expr *e, plan_est *pe) {
  plan_est a, b;
  double r;
  *pe = PLAN_EST_DEFAULT;
  if (e == NULL) return EST_DEFAULT_INEQ;
  switch (e->eKind) {
    case SQL_EXPR_BOOL:
      *pe = PLAN_EST_CONST;
      return e->bValue ? 1 : 0;
    case SQL_EXPR_NULL:
      *pe = PLAN_EST_CONST;
      return 0;
    case SQL_EXPR_UNARY:
      if (e->eOp != SQL_OP_NOT) break;
      r = 1 - plan__selectivity(c, s, e->pLeft, &a);
      *pe = a == PLAN_EST_DEFAULT ? a : PLAN_EST_COMBINED;
      return est_clamp(r);
    case SQL_EXPR_BINARY:
      if (e->eOp == SQL_OP_AND || e->eOp == SQL_OP_OR) {
        double x = plan__selectivity(c, s, e->pLeft, &a);
        double y = plan__selectivity(c, s, e->pRight, &b);
        *pe = a == PLAN_EST_DEFAULT && b == PLAN_EST_DEFAULT ? a : PLAN_EST_COMBINED;
        return est_clamp(e->eOp == SQL_OP_AND ? x * y : x + y - x * y);
      }
      return est_compare(c, s, e, pe);
    case SQL_EXPR_BETWEEN:
      return est_between(c, s, e, pe);
    case SQL_EXPR_IN:
      return est_in(c, s, e, pe);
    case SQL_EXPR_IS_NULL:
      return est_is_null(c, s, e, pe);
    case SQL_EXPR_LIKE:
      return e->bNot ? 1 - EST_DEFAULT_LIKE : EST_DEFAULT_LIKE;
    default:
      break;
  }
  return EST_DEFAULT_INEQ;
}
