/*
** planner/bind_agg.c — aggregates and the clauses that depend on them:
** aggregate calls (sum, count, min, max, avg) and their result types,
** GROUP BY and ORDER BY with their references to the select list,
** DISTINCT's rule for ORDER BY, and the check that an aggregating query
** uses ungrouped columns only inside aggregates.
**
** References to the select list (ordinals, output names) are resolved by
** pointing the GROUP BY or ORDER BY item at the select item's expression
** itself, so the planner can tell by pointer that a sort key is an output
** column. Expressions written out again are matched structurally
** (bind__expr_equal), as PostgreSQL's equal() does.
**
** INTERFACE ROUTINES
**   bind__func, bind__expr_equal, bind__first_agg,
**   bind__order_by, bind__group_by, bind__distinct,
**   bind__grouping_check (bindInt.h)
*/
#include <stdio.h>
#include <string.h>

#include "bindInt.h"

/* ---- structural equality -------------------------------------------------- */

static int bind_str_eq(const char *a, const char *b) {
  if (a == NULL || b == NULL) return a == b;
  return strcmp(a, b) == 0;
}

static int bind_type_eq(coltype a, coltype b) {
  return a.eId == b.eId && a.nLength == b.nLength && a.nPrecision == b.nPrecision &&
         a.nScale == b.nScale;
}

static int bind_list_equal(const sql_expr_list *a, const sql_expr_list *b) {
  int na = a != NULL ? a->n : 0, nb = b != NULL ? b->n : 0;
  if (na != nb) return 0;
  for (int i = 0; i < na; i++) {
    if (!bind__expr_equal(a->a[i].pExpr, b->a[i].pExpr)) return 0;
  }
  return 1;
}

int bind__expr_equal(const sql_expr *a, const sql_expr *b) {
  if (a == b) return 1;
  if (a == NULL || b == NULL) return 0;
  if (a->eKind != b->eKind || a->eOp != b->eOp || a->bNot != b->bNot ||
      a->bDistinct != b->bDistinct || a->bStar != b->bStar || !bind_type_eq(a->b.type, b->b.type)) {
    return 0;
  }
  switch (a->eKind) {
    case SQL_EXPR_COLUMN:
      return a->b.iSource == b->b.iSource && a->b.iColumn == b->b.iColumn;
    case SQL_EXPR_INTEGER:
    case SQL_EXPR_DECIMAL:
    case SQL_EXPR_STRING:
    case SQL_EXPR_DATE:
      return bind_str_eq(a->zText, b->zText);
    case SQL_EXPR_BOOL:
      return a->bValue == b->bValue;
    case SQL_EXPR_CAST:
      if (!bind_type_eq(a->castType, b->castType)) return 0;
      break;
    case SQL_EXPR_FUNC:
      if (!bind_str_eq(a->zName, b->zName)) return 0;
      break;
    default:
      break;
  }
  return bind__expr_equal(a->pLeft, b->pLeft) && bind__expr_equal(a->pRight, b->pRight) &&
         bind_list_equal(a->pList, b->pList);
}

sql_expr *bind__first_agg(sql_expr *e) {
  sql_expr *r;
  if (e == NULL || !e->b.bHasAgg) return NULL;
  if (e->eKind == SQL_EXPR_FUNC && e->b.iAgg >= 0) return e;
  if ((r = bind__first_agg(e->pLeft)) != NULL) return r;
  if ((r = bind__first_agg(e->pRight)) != NULL) return r;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if ((r = bind__first_agg(e->pList->a[i].pExpr)) != NULL) return r;
  }
  return NULL;
}

/* ---- aggregate calls ------------------------------------------------------ */

/* Records 42883 "function name(types) does not exist" for call e. */
static int bind_no_function(bind_ctx *p, const sql_expr *e, const char *zWhy) {
  char zArgs[256];
  size_t k = 0;
  zArgs[0] = 0;
  if (e->bStar) snprintf(zArgs, sizeof(zArgs), "*");
  for (int i = 0; !e->bStar && e->pList != NULL && i < e->pList->n && k < sizeof(zArgs); i++) {
    int m = snprintf(zArgs + k, sizeof(zArgs) - k, "%s%s", i > 0 ? ", " : "",
                     bind__type_name(e->pList->a[i].pExpr));
    if (m < 0) break;
    k += (size_t)m;
  }
  sql_error_set(p->pErr, zWhy, e->iOffset, "function %s%s%s(%s) %s", e->zSchema ? e->zSchema : "",
                e->zSchema ? "." : "", e->zName, zArgs,
                strcmp(zWhy, SQLSTATE_AMBIGUOUS_FUNCTION) == 0 ? "is not unique"
                                                                : "does not exist");
  return -1;
}

/* Returns what PostgreSQL calls clause e in "aggregate functions are not
** allowed in ...", or NULL where aggregates are allowed. */
static const char *bind_agg_refused_in(bind_clause e) {
  switch (e) {
    case BIND_CLAUSE_WHERE: return "WHERE";
    case BIND_CLAUSE_ON: return "JOIN conditions";
    case BIND_CLAUSE_GROUP_BY: return "GROUP BY";
    case BIND_CLAUSE_LIMIT: return "LIMIT";
    case BIND_CLAUSE_OFFSET: return "OFFSET";
    default: return NULL;
  }
}

/* Appends aggregate e to the query's list, or finds an equal one there,
** and sets e->b.iAgg. */
static int bind_agg_register(bind_ctx *p, sql_expr *e) {
  bound_select *pOut = p->pOut;
  for (int i = 0; i < pOut->nAgg; i++) {
    if (bind__expr_equal(pOut->apAgg[i], e)) {
      e->b.iAgg = i;
      return 0;
    }
  }
  if (pOut->nAgg == p->nAggAlloc) {
    int nNew = p->nAggAlloc > 0 ? 2 * p->nAggAlloc : 8;
    sql_expr **aNew = arena_alloc(p->pArena, sizeof(sql_expr *) * (size_t)nNew);
    if (aNew == NULL) return bind__oom(p);
    if (pOut->nAgg > 0) memcpy(aNew, pOut->apAgg, sizeof(sql_expr *) * (size_t)pOut->nAgg);
    pOut->apAgg = aNew;
    p->nAggAlloc = nNew;
  }
  e->b.iAgg = pOut->nAgg;
  pOut->apAgg[pOut->nAgg++] = e;
  return 0;
}

/* agg(x) FILTER (WHERE f) is agg(CASE WHEN f THEN x END), and count(*)
** FILTER (WHERE f) count(CASE WHEN f THEN 1 END): every aggregate starq
** runs skips NULL arguments, so the rows f does not pass reach none, and
** CASE computes x only for those it passes (its errors only then), as
** PostgreSQL's FILTER does. Returns 0 or -1 (53200). */
static int bind_filter_fold(bind_ctx *p, sql_expr *e) {
  sql_expr *pCase = arena_alloc(p->pArena, sizeof(sql_expr));
  sql_expr_list *pWhen = arena_alloc(p->pArena, sizeof(sql_expr_list));
  sql_expr_item *aItem = arena_alloc(p->pArena, sizeof(sql_expr_item) * 2);
  sql_expr *pThen;
  if (pCase == NULL || pWhen == NULL || aItem == NULL) return bind__oom(p);
  if (e->bStar) {
    sql_expr_list *pArgs = arena_alloc(p->pArena, sizeof(sql_expr_list));
    sql_expr_item *aArg = arena_alloc(p->pArena, sizeof(sql_expr_item));
    if ((pThen = arena_alloc(p->pArena, sizeof(sql_expr))) == NULL || pArgs == NULL || aArg == NULL) {
      return bind__oom(p);
    }
    memset(pThen, 0, sizeof(*pThen));
    pThen->eKind = SQL_EXPR_INTEGER;
    pThen->zText = "1";
    pThen->iOffset = e->iOffset;
    pThen->nHeight = 1;
    pThen->b.type = (coltype){COLTYPE_INTEGER, 0, 0, 0};
    pThen->b.iSource = pThen->b.iColumn = pThen->b.iAgg = -1;
    pThen->b.bConstant = 1;
    memset(aArg, 0, sizeof(*aArg));
    pArgs->n = pArgs->nAlloc = 1;
    pArgs->a = aArg;
    e->pList = pArgs;
    e->bStar = 0;
  } else {
    pThen = e->pList->a[0].pExpr;
  }
  memset(pCase, 0, sizeof(*pCase));
  memset(aItem, 0, sizeof(sql_expr_item) * 2);
  aItem[0].pExpr = e->pFilter;
  aItem[1].pExpr = pThen;
  pWhen->n = pWhen->nAlloc = 2;
  pWhen->a = aItem;
  pCase->eKind = SQL_EXPR_CASE;
  pCase->iOffset = e->pFilter->iOffset;
  pCase->pList = pWhen;
  pCase->nHeight = 1 + (e->pFilter->nHeight > pThen->nHeight ? e->pFilter->nHeight : pThen->nHeight);
  pCase->b = pThen->b;
  pCase->b.iSource = pCase->b.iColumn = pCase->b.iAgg = -1;
  pCase->b.bConstant = pThen->b.bConstant && e->pFilter->b.bConstant;
  e->pList->a[0].pExpr = pCase;
  e->pFilter = NULL;
  return 0;
}

/* Is zName one of PostgreSQL's aggregates that starq does not compute
** yet? (Refused with 0A000, where an unknown name is 42883.) */
static int bind_agg_not_yet(const char *zName) {
  static const char *const az[] = {"stddev", "stddev_samp", "stddev_pop", "variance", "var_samp",
                                   "var_pop", "string_agg", "array_agg", "bit_and", "bit_or",
                                   "corr", "covar_pop", "covar_samp", "json_agg", "jsonb_agg"};
  for (size_t i = 0; i < sizeof(az) / sizeof(az[0]); i++) {
    if (strcmp(az[i], zName) == 0) return 1;
  }
  return 0;
}

int bind__func(bind_ctx *p, sql_expr *e) {
  static const char *const azAgg[] = {"sum", "count", "min", "max", "avg", "bool_and", "bool_or",
                                      "every"};
  int nArg = e->pList != NULL ? e->pList->n : 0, bAgg = 0, bCount;
  const char *zWhere;
  sql_expr *a, *pInner;
  coltype t = {COLTYPE_BIGINT, 0, 0, 0};

  if (e->zName == NULL) {
    sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "function call without a name");
    return -1;
  }
  for (size_t i = 0; i < sizeof(azAgg) / sizeof(azAgg[0]); i++) {
    if (strcmp(e->zName, azAgg[i]) == 0) bAgg = 1;
  }
  /* The aggregates are pg_catalog's; no other schema has functions. */
  if (e->zSchema != NULL && strcmp(e->zSchema, "pg_catalog") != 0) bAgg = 0;
  if (!bAgg && (e->zSchema == NULL || strcmp(e->zSchema, "pg_catalog") == 0) &&
      bind_agg_not_yet(e->zName)) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "aggregate %s is not supported yet", e->zName);
    return -1;
  }
  if (!bAgg) {
    int bHost = p->pEnv != NULL && p->pEnv->bHostFuncs, rc = 1;
    /* The host runs the registry's string functions, not the binder's
    ** own (those are answered over a GPU column's dictionary). */
    if (bHost && bind__string_func_name(e->zName)) rc = bind__registry_func(p, e);
    if (rc > 0) rc = bind__scalar_func(p, e);
    if (rc > 0 && bHost) rc = bind__registry_func(p, e);
    else if (rc > 0 && bind_func_is_registry_only(e->zName)) {
      /* PostgreSQL has it; starq calls it only where the host executor
      ** runs the whole query (no FROM yet). */
      sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                    "function %s is not supported in this query yet", e->zName);
      return -1;
    }
    return rc <= 0 ? rc : bind_no_function(p, e, SQLSTATE_UNDEFINED_FUNCTION);
  }
  bCount = strcmp(e->zName, "count") == 0;
  if (e->pFilter != NULL && !e->bStar && nArg != 1) return bind_no_function(p, e, SQLSTATE_UNDEFINED_FUNCTION);
  if (e->pFilter != NULL && bind_filter_fold(p, e) != 0) return -1;
  nArg = e->pList != NULL ? e->pList->n : 0;

  /* Which aggregate, and its type (bind.h's table). */
  if (e->bStar) {
    if (!bCount || nArg != 0) return bind_no_function(p, e, SQLSTATE_UNDEFINED_FUNCTION);
    a = NULL;
  } else {
    if (nArg != 1) return bind_no_function(p, e, SQLSTATE_UNDEFINED_FUNCTION);
    a = e->pList->a[0].pExpr;
    if (!bCount) {
      coltype_id eArg = a->b.type.eId;
      if (a->eKind == SQL_EXPR_STRING || eArg == COLTYPE_UNKNOWN) {
        return bind_no_function(p, e, SQLSTATE_AMBIGUOUS_FUNCTION);
      }
      if (e->zName[0] == 's') {                 /* sum */
        if (eArg == COLTYPE_DECIMAL) {
          t.eId = COLTYPE_DECIMAL;
          t.nPrecision = COLTYPE_DECIMAL_PRECISION_MAX;
          t.nScale = a->b.type.nScale;
        } else if (eArg == COLTYPE_DOUBLE) {
          t.eId = COLTYPE_DOUBLE;
        } else if (eArg != COLTYPE_SMALLINT && eArg != COLTYPE_INTEGER && eArg != COLTYPE_BIGINT) {
          return bind_no_function(p, e, SQLSTATE_UNDEFINED_FUNCTION);
        }
      } else if (e->zName[0] == 'a') {          /* avg */
        if (eArg != COLTYPE_SMALLINT && eArg != COLTYPE_INTEGER && eArg != COLTYPE_BIGINT &&
            eArg != COLTYPE_DECIMAL && eArg != COLTYPE_DOUBLE) {
          return bind_no_function(p, e, SQLSTATE_UNDEFINED_FUNCTION);
        }
        t.eId = COLTYPE_DOUBLE;
      } else if (e->zName[0] == 'b' || e->zName[0] == 'e') {   /* bool_and, bool_or, every */
        if (eArg != COLTYPE_BOOLEAN) return bind_no_function(p, e, SQLSTATE_UNDEFINED_FUNCTION);
        t = a->b.type;
      } else {                                  /* min, max */
        if (eArg == COLTYPE_BOOLEAN) return bind_no_function(p, e, SQLSTATE_UNDEFINED_FUNCTION);
        t = a->b.type;
      }
    }
  }

  /* Then where it stands, in PostgreSQL's order: nesting, then clause. */
  if (a != NULL && a->b.bHasAgg && (pInner = bind__first_agg(a)) != NULL) {
    sql_error_set(p->pErr, SQLSTATE_GROUPING_ERROR, pInner->iOffset,
                  "aggregate function calls cannot be nested");
    return -1;
  }
  if ((zWhere = bind_agg_refused_in(p->eClause)) != NULL) {
    sql_error_set(p->pErr, SQLSTATE_GROUPING_ERROR, e->iOffset,
                  "aggregate functions are not allowed in %s", zWhere);
    return -1;
  }
  e->b.type = t;
  e->b.bConstant = 0;
  e->b.bHasAgg = 1;
  return bind_agg_register(p, e);
}

/* ---- references to the select list ---------------------------------------- */

/* Returns the select-list position (1-based) bare integer literal e
** names, or 0 if e is not one that fits an int (PostgreSQL treats only
** those as ordinals; a longer one is a constant). */
static int bind_ordinal(const sql_expr *e, int *pn) {
  int64_t v = 0;
  const char *z = e->zText;
  if (e->eKind != SQL_EXPR_INTEGER || z == NULL || *z == 0) return 0;
  for (; *z; z++) {
    if (*z < '0' || *z > '9') return 0;
    v = v * 10 + (*z - '0');
    if (v > INT32_MAX) return 0;
  }
  *pn = (int)v;
  return 1;
}

/* Finds the select item whose output name is e's bare name (zWhat names
** the clause for 42702). Sets *ppTarget to it, or NULL if none. */
static int bind_output_named(bind_ctx *p, const sql_expr *e, const char *zWhat,
                             sql_expr **ppTarget) {
  const bound_select *pOut = p->pOut;
  *ppTarget = NULL;
  for (int i = 0; i < pOut->nOutput; i++) {
    sql_expr *x = pOut->pItems->a[i].pExpr;
    if (strcmp(pOut->aOutput[i].zName, e->zName) != 0) continue;
    if (*ppTarget != NULL && !bind__expr_equal(*ppTarget, x)) {
      sql_error_set(p->pErr, SQLSTATE_AMBIGUOUS_COLUMN, e->iOffset, "%s \"%s\" is ambiguous",
                    zWhat, e->zName);
      return -1;
    }
    if (*ppTarget == NULL) *ppTarget = x;
  }
  return 0;
}

/* Resolves item pItem of GROUP BY or ORDER BY (bGroup says which) by
** PostgreSQL's rules: an integer is a select-list position; a bare name
** is an output name (in GROUP BY only if no input column has it); else
** the item is an expression bound here. */
static int bind_sort_item(bind_ctx *p, sql_expr_item *pItem, int bGroup) {
  const char *zWhat = bGroup ? "GROUP BY" : "ORDER BY";
  sql_expr *e = pItem->pExpr, *pTarget = NULL;
  int n;

  if (e == NULL) {
    sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, -1, "%s item without an expression", zWhat);
    return -1;
  }
  if (bind_ordinal(e, &n)) {
    if (n < 1 || n > p->pOut->nOutput) {
      sql_error_set(p->pErr, SQLSTATE_INVALID_COLUMN_REF, e->iOffset,
                    "%s position %d is not in select list", zWhat, n);
      return -1;
    }
    pTarget = p->pOut->pItems->a[n - 1].pExpr;
  } else if (e->eKind == SQL_EXPR_COLUMN && e->zTable == NULL && e->zName != NULL &&
             !(bGroup && bind__is_input_column(p, e->zName))) {
    if (bind_output_named(p, e, zWhat, &pTarget) != 0) return -1;
  }
  if (pTarget == NULL) return bind__expr(p, e);
  if (bGroup && pTarget->b.bHasAgg) {
    sql_error_set(p->pErr, SQLSTATE_GROUPING_ERROR, bind__first_agg(pTarget)->iOffset,
                  "aggregate functions are not allowed in GROUP BY");
    return -1;
  }
  pItem->pExpr = pTarget;
  return 0;
}

int bind__order_by(bind_ctx *p, sql_select *pSel) {
  p->eClause = BIND_CLAUSE_ORDER_BY;
  for (int i = 0; pSel->pOrderBy != NULL && i < pSel->pOrderBy->n; i++) {
    if (bind_sort_item(p, &pSel->pOrderBy->a[i], 0) != 0) return -1;
  }
  return 0;
}

int bind__group_by(bind_ctx *p, sql_select *pSel) {
  p->eClause = BIND_CLAUSE_GROUP_BY;
  for (int i = 0; pSel->pGroupBy != NULL && i < pSel->pGroupBy->n; i++) {
    if (bind_sort_item(p, &pSel->pGroupBy->a[i], 1) != 0) return -1;
  }
  return 0;
}

/* Returns 1 if e is (equal to) an item of the select list. */
static int bind_in_select_list(const bind_ctx *p, const sql_expr *e) {
  const sql_expr_list *pItems = p->pOut->pItems;
  for (int i = 0; i < pItems->n; i++) {
    if (bind__expr_equal(pItems->a[i].pExpr, e)) return 1;
  }
  return 0;
}

int bind__distinct(bind_ctx *p, sql_select *pSel) {
  if (!pSel->bDistinct) return 0;
  for (int i = 0; pSel->pOrderBy != NULL && i < pSel->pOrderBy->n; i++) {
    const sql_expr *e = pSel->pOrderBy->a[i].pExpr;
    if (!bind_in_select_list(p, e)) {
      sql_error_set(p->pErr, SQLSTATE_INVALID_COLUMN_REF, e->iOffset,
                    "for SELECT DISTINCT, ORDER BY expressions must appear in select list");
      return -1;
    }
  }
  return 0;
}

/* ---- the grouping check ---------------------------------------------------- */

/* What the check walks with: the grouped expressions, and which FROM items
** have their whole primary key grouped (so any of their columns is
** functionally dependent on the groups, as PostgreSQL allows). */
typedef struct bind_grouping bind_grouping;
struct bind_grouping {
  const sql_expr_list *pGroupBy;
  unsigned char *abKeyGrouped;   /* per FROM item */
};

static int bind_is_grouped(const bind_grouping *g, const sql_expr *e) {
  for (int i = 0; g->pGroupBy != NULL && i < g->pGroupBy->n; i++) {
    if (bind__expr_equal(g->pGroupBy->a[i].pExpr, e)) return 1;
  }
  return 0;
}

/* Returns 1 if every primary key column of FROM item s is a GROUP BY item. */
static int bind_key_grouped(const bind_ctx *p, const sql_expr_list *pGroupBy, int s) {
  const cat_table *t = p->pOut->aSource[s].pTable;
  if (t->nPkey == 0) return 0;
  for (int k = 0; k < t->nPkey; k++) {
    int bFound = 0;
    for (int i = 0; pGroupBy != NULL && i < pGroupBy->n && !bFound; i++) {
      const sql_expr *x = pGroupBy->a[i].pExpr;
      bFound = x->eKind == SQL_EXPR_COLUMN && x->b.iSource == s && x->b.iColumn == t->aiPkey[k];
    }
    if (!bFound) return 0;
  }
  return 1;
}

static int bind_check_ungrouped(bind_ctx *p, const bind_grouping *g, const sql_expr *e) {
  if (e == NULL || e->b.bConstant) return 0;
  if (e->eKind == SQL_EXPR_FUNC && e->b.iAgg >= 0) return 0;
  if (bind_is_grouped(g, e)) return 0;
  if (e->eKind == SQL_EXPR_COLUMN && e->b.iSource == BIND_SOURCE_OUTER) return 0;  /* one value */
  if (e->eKind == SQL_EXPR_COLUMN) {
    const bind_source *s = &p->pOut->aSource[e->b.iSource];
    if (g->abKeyGrouped[e->b.iSource]) return 0;
    sql_error_set(p->pErr, SQLSTATE_GROUPING_ERROR, e->iOffset,
                  "column \"%s.%s\" must appear in the GROUP BY clause or be used in an"
                  " aggregate function", s->zAlias, s->pTable->aCol[e->b.iColumn].zName);
    return -1;
  }
  if (bind_check_ungrouped(p, g, e->pLeft) != 0) return -1;
  if (bind_check_ungrouped(p, g, e->pRight) != 0) return -1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (bind_check_ungrouped(p, g, e->pList->a[i].pExpr) != 0) return -1;
  }
  return 0;
}

int bind__grouping_check(bind_ctx *p, sql_select *pSel) {
  bound_select *pOut = p->pOut;
  bind_grouping g;
  g.pGroupBy = pSel->pGroupBy;
  g.abKeyGrouped = arena_alloc(p->pArena, (size_t)(pOut->nSource > 0 ? pOut->nSource : 1));
  if (g.abKeyGrouped == NULL) return bind__oom(p);
  for (int s = 0; s < pOut->nSource; s++) {
    g.abKeyGrouped[s] = (unsigned char)bind_key_grouped(p, pSel->pGroupBy, s);
  }
  /* PostgreSQL's order: the target list (select items, then ORDER BY
  ** items it added), then HAVING. */
  for (int i = 0; i < pOut->pItems->n; i++) {
    if (bind_check_ungrouped(p, &g, pOut->pItems->a[i].pExpr) != 0) return -1;
  }
  for (int i = 0; pSel->pOrderBy != NULL && i < pSel->pOrderBy->n; i++) {
    if (bind_check_ungrouped(p, &g, pSel->pOrderBy->a[i].pExpr) != 0) return -1;
  }
  return bind_check_ungrouped(p, &g, pSel->pHaving);
}
