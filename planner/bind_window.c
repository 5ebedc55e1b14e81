/*
** planner/bind_window.c — window function calls, f(...) OVER (PARTITION
** BY ... ORDER BY ... [frame]), in a SELECT whose clauses the host runs
** (one bound with a bind_env: over derived tables and CTEs). Elsewhere
** they stay refused (0A000) by bind_unsupported.c.
**
** A window call is typed like PostgreSQL types it, with starq's result
** types for the aggregates (bind.h: sum of integers bigint, avg double
** precision): row_number, rank, dense_rank and count bigint;
** percent_rank and cume_dist double precision; ntile integer; lag, lead,
** first_value, last_value, nth_value their argument's type. It is not an
** aggregate of the query (no slot in apAgg): its arguments may be, as in
** sum(sum(x)) OVER (...), evaluated after grouping.
**
** INTERFACE ROUTINES (bindInt.h)
**   bind__window
*/
#include <string.h>

#include "bindInt.h"

static const coltype bw_tBig = {COLTYPE_BIGINT, 0, 0, 0};

/* What PostgreSQL calls clause e in "window functions are not allowed in
** ...", or NULL where they are allowed (the select list, ORDER BY). */
static const char *bw_refused_in(bind_clause e) {
  switch (e) {
    case BIND_CLAUSE_WHERE: return "WHERE";
    case BIND_CLAUSE_ON: return "JOIN conditions";
    case BIND_CLAUSE_GROUP_BY: return "GROUP BY";
    case BIND_CLAUSE_HAVING: return "HAVING";
    case BIND_CLAUSE_LIMIT: return "LIMIT";
    case BIND_CLAUSE_OFFSET: return "OFFSET";
    default: return NULL;
  }
}

static int bw_no_function(bind_ctx *p, const sql_expr *e) {
  sql_error_set(p->pErr, SQLSTATE_UNDEFINED_FUNCTION, e->iOffset,
                "function %s with %d arguments does not exist as a window function", e->zName,
                e->pList != NULL ? e->pList->n : 0);
  return -1;
}

static int bw_refuse(bind_ctx *p, int iOffset, const char *zWhat) {
  sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, iOffset, "%s not supported yet", zWhat);
  return -1;
}

/* The result type of aggregate zName over an argument of type a (count:
** a unused), by bind.h's rules; -1 where there is none. */
static int bw_agg_type(const char *zName, coltype a, coltype *pt) {
  *pt = bw_tBig;
  if (strcmp(zName, "count") == 0) return 0;
  if (strcmp(zName, "min") == 0 || strcmp(zName, "max") == 0) {
    *pt = a;
    return a.eId == COLTYPE_BOOLEAN || a.eId == COLTYPE_UNKNOWN ? -1 : 0;
  }
  if (strcmp(zName, "avg") == 0 || strcmp(zName, "sum") == 0) {
    int bInt = a.eId == COLTYPE_SMALLINT || a.eId == COLTYPE_INTEGER || a.eId == COLTYPE_BIGINT;
    if (!bInt && a.eId != COLTYPE_DECIMAL && a.eId != COLTYPE_DOUBLE) return -1;
    if (zName[0] == 'a' || a.eId == COLTYPE_DOUBLE) pt->eId = COLTYPE_DOUBLE;
    else if (a.eId == COLTYPE_DECIMAL) {
      pt->eId = COLTYPE_DECIMAL;
      pt->nPrecision = COLTYPE_DECIMAL_PRECISION_MAX;
      pt->nScale = a.nScale;
    }
    return 0;
  }
  return -1;
}

/* Types window call e (its arguments bound) into e->b.type. */
static int bw_type(bind_ctx *p, sql_expr *e) {
  static const char *const azRank[] = {"row_number", "rank", "dense_rank", "percent_rank", "cume_dist"};
  static const char *const azValue[] = {"first_value", "last_value", "lag", "lead", "nth_value"};
  int nArg = e->pList != NULL ? e->pList->n : 0;
  sql_expr *a0 = nArg > 0 ? e->pList->a[0].pExpr : NULL;
  for (size_t i = 0; i < sizeof(azRank) / sizeof(azRank[0]); i++) {
    if (strcmp(e->zName, azRank[i]) != 0) continue;
    if (nArg != 0 || e->bStar) return bw_no_function(p, e);
    e->b.type = bw_tBig;
    if (i >= 3) e->b.type.eId = COLTYPE_DOUBLE;
    return 0;
  }
  if (strcmp(e->zName, "ntile") == 0) {
    if (nArg != 1 || !bind__comparable(a0->b.type, bw_tBig)) return bw_no_function(p, e);
    e->b.type.eId = COLTYPE_INTEGER;
    return 0;
  }
  for (size_t i = 0; i < sizeof(azValue) / sizeof(azValue[0]); i++) {
    if (strcmp(e->zName, azValue[i]) != 0) continue;
    if (nArg < 1 || nArg > (i < 2 ? 1 : i == 4 ? 2 : 3)) return bw_no_function(p, e);
    if (nArg >= 2 && !bind__comparable(e->pList->a[1].pExpr->b.type, bw_tBig)) return bw_no_function(p, e);
    if (nArg == 3) {
      sql_expr *d = e->pList->a[2].pExpr;
      if (bind__is_unknown(d) && bind__literal_coerce(p, d, a0->b.type) != 0) return -1;
      if (!bind__is_unknown(d) && !bind__comparable(d->b.type, a0->b.type)) return bw_no_function(p, e);
    }
    if (bind__is_unknown(a0)) return bw_no_function(p, e);
    e->b.type = a0->b.type;
    return 0;
  }
  if (e->bStar) {
    if (strcmp(e->zName, "count") != 0 || nArg != 0) return bw_no_function(p, e);
    e->b.type = bw_tBig;
    return 0;
  }
  if (nArg != 1 || bw_agg_type(e->zName, a0->b.type, &e->b.type) != 0) return bw_no_function(p, e);
  return 0;
}

/* Binds a window's PARTITION BY, ORDER BY and frame offsets. */
static int bw_spec(bind_ctx *p, sql_window *w) {
  for (int i = 0; w->pPartition != NULL && i < w->pPartition->n; i++) {
    if (bind__expr(p, w->pPartition->a[i].pExpr) != 0) return -1;
  }
  for (int i = 0; w->pOrderBy != NULL && i < w->pOrderBy->n; i++) {
    if (bind__expr(p, w->pOrderBy->a[i].pExpr) != 0) return -1;
  }
  for (int i = 0; i < 2; i++) {
    sql_expr *o = i == 0 ? w->pStart : w->pEnd;
    if (o == NULL) continue;
    if (bind__expr(p, o) != 0) return -1;
    if (!o->b.bConstant || (w->eUnit != SQL_FRAME_RANGE && !bind__comparable(o->b.type, bw_tBig))) {
      return bw_refuse(p, o->iOffset, "a frame offset other than a constant integer is");
    }
  }
  return 0;
}

int bind__window(bind_ctx *p, sql_expr *e) {
  sql_window *w = e->pWin;
  const char *zWhere = bw_refused_in(p->eClause);
  if (zWhere != NULL) {
    sql_error_set(p->pErr, "42P20", e->iOffset, "window functions are not allowed in %s", zWhere);
    return -1;
  }
  if (w->zRef != NULL || w->zBase != NULL) return bw_refuse(p, w->iOffset, "a named window is");
  if (w->eExclude != SQL_EXCLUDE_NO_OTHERS) return bw_refuse(p, w->iFrameOffset, "EXCLUDE is");
  if (e->bDistinct) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "DISTINCT is not implemented for window functions");
    return -1;
  }
  if (e->pFilter != NULL) return bw_refuse(p, e->iClauseOffset, "FILTER in a window function is");
  if (e->pOrderBy != NULL || e->bWithinGroup || e->bSqlSyntax || e->zSchema != NULL) {
    return bw_refuse(p, e->iOffset, "this window function call is");
  }
  if (bw_type(p, e) != 0 || bw_spec(p, w) != 0) return -1;
  e->b.iAgg = -1;
  e->b.bConstant = 0;
  return 0;
}
