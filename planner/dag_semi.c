/*
** planner/dag_semi.c — subqueries in a SELECT's WHERE: semi and anti joins.
**
** A correlated [NOT] EXISTS whose only reference to the outer query is
** one equality between a column of it and an expression of the
** subquery's own rows,
**
**   EXISTS (SELECT 1 FROM lineorder WHERE lo_custkey = c.c_custkey AND p)
**
** is decorrelated in the parse tree into the uncorrelated IN it means (a
** semi join), its key set computed once by one pipeline:
**
**   c.c_custkey IN (SELECT DISTINCT lo_custkey FROM lineorder WHERE p)
**
** and NOT EXISTS into the anti join, keeping NOT EXISTS's NULLs (a NULL
** outer key has no match; a NULL inner key matches nothing):
**
**   (c.c_custkey IS NULL OR c.c_custkey NOT IN
**      (SELECT DISTINCT lo_custkey FROM lineorder WHERE p AND lo_custkey IS NOT NULL))
**
** An uncorrelated IN subquery's rows become DISTINCT too: IN means the
** same over the set, and the set is what the host hashes. Outer
** references are recognised by their qualifier (an alias or table name of
** the outer FROM that the subquery's FROM does not also have); any other
** correlation is left as written, and the binder refuses it (0A000).
**
** The WHERE's conjuncts holding subqueries are then the host's
** (dag_gset.c splits the query around them).
**
** INTERFACE ROUTINES (dagInt.h)
**   dag__has_where_subquery, dag__is_subquery_expr, dag__decorrelate,
**   dag__and, dag__conjuncts, dag__is_sq_column, dag__expr_new,
**   dag__from_names, dag__tables_get, dag__tables_free, dag__from_has_column
*/
#include <stdio.h>
#include <string.h>

#include "dagInt.h"

int dag__is_subquery_expr(const sql_expr *e) {
  if (e == NULL) return 0;
  if (e->eKind == SQL_EXPR_SUBQUERY || e->eKind == SQL_EXPR_EXISTS) return 1;
  if ((e->eKind == SQL_EXPR_IN || e->eKind == SQL_EXPR_ANY || e->eKind == SQL_EXPR_ARRAY) && e->bSelect) return 1;
  if (dag__is_subquery_expr(e->pLeft) || dag__is_subquery_expr(e->pRight)) return 1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (dag__is_subquery_expr(e->pList->a[i].pExpr)) return 1;
  }
  return 0;
}

int dag__is_sq_column(const sql_expr *e) {
  if (e == NULL) return 0;
  if (e->eKind == SQL_EXPR_COLUMN && e->zTable != NULL && strncmp(e->zTable, DAG_SQ_PREFIX, 3) == 0) return 1;
  if (dag__is_sq_column(e->pLeft) || dag__is_sq_column(e->pRight)) return 1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (dag__is_sq_column(e->pList->a[i].pExpr)) return 1;
  }
  return 0;
}

int dag__has_where_subquery(const sql_select *s) {
  return s->eOp == SQL_SELECT_SIMPLE && dag__is_subquery_expr(s->pWhere);
}

/* ---- names ---------------------------------------------------------------------- */

/* Returns 1 if FROM list f has an item named z (its alias, or its table's
** name where it has none). */
int dag__from_names(const sql_src_list *f, const char *z) {
  for (int i = 0; f != NULL && i < f->n; i++) {
    const sql_src_item *it = &f->a[i];
    const char *zName = it->zAlias != NULL ? it->zAlias : it->zName;
    if (zName != NULL && strcmp(zName, z) == 0) return 1;
    if (it->eKind == SQL_SRC_JOIN && dag__from_names(it->pNested, z)) return 1;
  }
  return 0;
}

/* What a walk of a subquery's conjunct looks for: the two FROM lists and
** the catalog's definitions of their tables (NULL where an item is not a
** table of the catalog), read once, for the unqualified names. */
typedef struct ds_scope ds_scope;
struct ds_scope {
  const sql_src_list *pOuter;
  const sql_src_list *pInner;
  cat_table **apOuter;
  cat_table **apInner;
};

/* Reads the catalog's definition of each plain table of f into a[i]. */
void dag__tables_get(cat *pCat, const sql_src_list *f, cat_table **a) {
  char zErr[256];
  for (int i = 0; i < f->n; i++) {
    const sql_src_item *it = &f->a[i];
    a[i] = NULL;
    if (it->eKind != SQL_SRC_TABLE || (it->zSchema != NULL && strcmp(it->zSchema, "public") != 0)) continue;
    if (cat_table_get(pCat, it->zName, &a[i], zErr, sizeof(zErr)) != 0) a[i] = NULL;
  }
}

void dag__tables_free(const sql_src_list *f, cat_table **a) {
  for (int i = 0; a != NULL && i < f->n; i++) cat_table_free(a[i]);
}

/* Returns 1 if FROM list f (its tables a) has a column named z, -1 if
** that cannot be told (an item that is not a table of the catalog). */
int dag__from_has_column(const sql_src_list *f, cat_table **a, const char *z) {
  int r = 0;
  for (int i = 0; i < f->n; i++) {
    if (a[i] == NULL) r = -1;
    else if (cat_table_column(a[i], z) >= 0) return 1;
  }
  return r;
}

/* Returns 1 if e (a column reference) belongs to the outer query: it is
** qualified by a name of the outer FROM only, or, unqualified, no table of
** the subquery's FROM has its name and one of the outer FROM has. */
static int ds_is_outer_col(const ds_scope *d, const sql_expr *e) {
  if (e->eKind != SQL_EXPR_COLUMN || e->zSchema != NULL) return 0;
  if (e->zTable != NULL) return dag__from_names(d->pOuter, e->zTable) && !dag__from_names(d->pInner, e->zTable);
  return dag__from_has_column(d->pInner, d->apInner, e->zName) == 0 &&
         dag__from_has_column(d->pOuter, d->apOuter, e->zName) == 1;
}

/* Returns 1 if e refers to the outer query anywhere (or holds a subquery,
** whose references this walk cannot see). */
static int ds_refers_outer(const ds_scope *d, const sql_expr *e) {
  if (e == NULL) return 0;
  if (ds_is_outer_col(d, e)) return 1;
  if (e->pSelect != NULL || e->pWin != NULL) return 1;
  if (ds_refers_outer(d, e->pLeft) || ds_refers_outer(d, e->pRight)) return 1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (ds_refers_outer(d, e->pList->a[i].pExpr)) return 1;
  }
  return 0;
}

/* ---- building nodes -------------------------------------------------------------- */

sql_expr *dag__expr_new(dag_ctx *c, sql_expr_kind eKind, int iOffset) {
  sql_expr *e = arena_alloc(c->pArena, sizeof(sql_expr));
  if (e == NULL) {
    dag__oom(c);
    return NULL;
  }
  memset(e, 0, sizeof(*e));
  e->eKind = eKind;
  e->iOffset = iOffset;
  e->nHeight = 1;
  return e;
}

static sql_expr *ds_node(dag_ctx *c, sql_expr_kind eKind, int iOffset, sql_expr *pLeft, sql_expr *pRight) {
  sql_expr *e = dag__expr_new(c, eKind, iOffset);
  if (e == NULL) return NULL;
  e->pLeft = pLeft;
  e->pRight = pRight;
  e->nHeight = 1 + (pLeft != NULL ? pLeft->nHeight : 0) + (pRight != NULL ? pRight->nHeight : 0);
  return e;
}

sql_expr *dag__and(dag_ctx *c, sql_expr *a, sql_expr *b) {
  sql_expr *e;
  if (a == NULL) return b;
  if (b == NULL) return a;
  if ((e = ds_node(c, SQL_EXPR_BINARY, b->iOffset, a, b)) == NULL) return NULL;
  e->eOp = SQL_OP_AND;
  return e;
}

int dag__conjuncts(dag_ctx *c, sql_expr *e, sql_expr ***papOut, int *pn) {
  sql_expr **a;
  if (e == NULL) return 0;
  if (e->eKind == SQL_EXPR_BINARY && e->eOp == SQL_OP_AND) {
    if (dag__conjuncts(c, e->pLeft, papOut, pn) != 0) return -1;
    return dag__conjuncts(c, e->pRight, papOut, pn);
  }
  if ((a = arena_alloc(c->pArena, sizeof(sql_expr *) * (size_t)(*pn + 1))) == NULL) return dag__oom(c);
  if (*pn > 0) memcpy(a, *papOut, sizeof(sql_expr *) * (size_t)*pn);
  a[(*pn)++] = e;
  *papOut = a;
  return 0;
}

/* The subquery's one item becomes DISTINCT where that changes nothing IN
** sees: a plain SELECT of one column (a pipeline groups by columns; a
** CASE of strings or NULLs it may not). */
static void ds_distinct(sql_select *q) {
  if (q->eOp != SQL_SELECT_SIMPLE || q->pItems == NULL || q->pItems->n != 1 ||
      q->pItems->a[0].pExpr->eKind != SQL_EXPR_COLUMN || q->pGroupBy != NULL ||
      q->pHaving != NULL || q->pLimit != NULL || q->pOffset != NULL || q->pOrderBy != NULL ||
      q->pDistinctOn != NULL || q->pWith != NULL) {
    return;
  }
  q->bDistinct = 1;
}

/* Finds q's correlation: its WHERE's one conjunct that refers to the outer
** query, an equality between an outer column (*ppOuter) and an
** expression of q's own rows (*ppInner); *ppRest is the AND of the other
** conjuncts. Returns 1 if q has exactly such a correlation, 0 if not (no
** correlation, or another kind), -1 out of memory. */
static int ds_correlation(dag_ctx *c, const ds_scope *d, const sql_select *q, sql_expr **ppInner,
                          sql_expr **ppOuter, sql_expr **ppRest) {
  sql_expr **a = NULL, *pEq;
  int n = 0, iEq = -1;
  *ppRest = NULL;
  if (dag__conjuncts(c, q->pWhere, &a, &n) != 0) return -1;
  for (int i = 0; i < n; i++) {
    if (!ds_refers_outer(d, a[i])) continue;
    if (iEq >= 0) return 0;                  /* more than one: left as written */
    iEq = i;
  }
  if (iEq < 0) return 0;
  pEq = a[iEq];
  if (pEq->eKind != SQL_EXPR_BINARY || pEq->eOp != SQL_OP_EQ) return 0;
  if (ds_is_outer_col(d, pEq->pRight) && !ds_refers_outer(d, pEq->pLeft)) {
    *ppInner = pEq->pLeft;
    *ppOuter = pEq->pRight;
  } else if (ds_is_outer_col(d, pEq->pLeft) && !ds_refers_outer(d, pEq->pRight)) {
    *ppInner = pEq->pRight;
    *ppOuter = pEq->pLeft;
  } else {
    return 0;
  }
  for (int i = 0; i < n; i++) {
    if (i != iEq && (*ppRest = dag__and(c, *ppRest, a[i])) == NULL) return -1;
  }
  return 1;
}

/* A select list of items a[0..n) named az[i] (NULL: as written). */
static sql_expr_list *ds_items(dag_ctx *c, int n, sql_expr **a, const char *const *az) {
  sql_expr_list *l = arena_alloc(c->pArena, sizeof(sql_expr_list));
  if (l == NULL || (l->a = arena_alloc(c->pArena, sizeof(sql_expr_item) * (size_t)n)) == NULL) {
    dag__oom(c);
    return NULL;
  }
  l->n = l->nAlloc = n;
  memset(l->a, 0, sizeof(sql_expr_item) * (size_t)n);
  for (int i = 0; i < n; i++) {
    l->a[i].pExpr = a[i];
    l->a[i].zAlias = az != NULL ? az[i] : NULL;
  }
  return l;
}

/* [NOT] EXISTS (q) (node e; bNot) with q correlated by one equality:
** rewritten in place into the IN (semi join) or NOT IN (anti join) it
** means. Returns 0 (rewritten or left) or -1. */
static int ds_exists(dag_ctx *c, const ds_scope *d, sql_expr *e, int bNot) {
  sql_select *q = e->pSelect;
  sql_expr *pInner, *pOuterCol, *pRest, *pIn, *x;
  int rc;
  for (int i = 0; i < q->pItems->n; i++) {
    if (dag__is_subquery_expr(q->pItems->a[i].pExpr)) return 0;
  }
  if ((rc = ds_correlation(c, d, q, &pInner, &pOuterCol, &pRest)) <= 0) return rc;
  if (bNot) {
    sql_expr *pNotNull = ds_node(c, SQL_EXPR_IS_NULL, pInner->iOffset, dag__expr_copy(c, pInner), NULL);
    if (pNotNull == NULL || pNotNull->pLeft == NULL) return dag__oom(c);
    pNotNull->bNot = 1;
    if ((pRest = dag__and(c, pRest, pNotNull)) == NULL) return -1;
  }
  /* The items of the select list no longer matter (EXISTS reads none). */
  if ((q->pItems = ds_items(c, 1, &pInner, NULL)) == NULL) return -1;
  q->pWhere = pRest;
  q->bDistinct = 0;
  q->pOrderBy = NULL;
  ds_distinct(q);
  /* outer IN (q), NOT: outer IS NULL OR NOT (outer IN (q)). */
  if ((pIn = ds_node(c, SQL_EXPR_IN, e->iOffset, pOuterCol, NULL)) == NULL) return -1;
  pIn->bSelect = 1;
  pIn->pSelect = q;
  pIn->nHeight = e->nHeight + 1;
  if (!bNot) {
    *e = *pIn;
    return 0;
  }
  pIn->bNot = 1;
  {
    sql_expr *pNull = ds_node(c, SQL_EXPR_IS_NULL, e->iOffset, dag__expr_copy(c, pOuterCol), NULL);
    if (pNull == NULL || pNull->pLeft == NULL) return dag__oom(c);
    if ((x = ds_node(c, SQL_EXPR_BINARY, e->iOffset, pNull, pIn)) == NULL) return -1;
  }
  x->eOp = SQL_OP_OR;
  *e = *x;
  return 0;
}

/* ---- correlated scalar subqueries ------------------------------------------------ */

/* Returns 1 if e is NULL over no row as a whole: arithmetic, casts and
** literals over sum, avg, min and max (not count, which is 0 there). */
static int ds_null_over_none(const sql_expr *e) {
  if (e == NULL) return 0;
  switch (e->eKind) {
    case SQL_EXPR_INTEGER:
    case SQL_EXPR_DECIMAL: return 1;
    case SQL_EXPR_CAST: return ds_null_over_none(e->pLeft) || e->pLeft->eKind == SQL_EXPR_INTEGER;
    case SQL_EXPR_UNARY: return e->eOp == SQL_OP_NEG && ds_null_over_none(e->pLeft);
    case SQL_EXPR_BINARY:
      if (e->eOp != SQL_OP_ADD && e->eOp != SQL_OP_SUB && e->eOp != SQL_OP_MUL && e->eOp != SQL_OP_DIV) return 0;
      return ds_null_over_none(e->pLeft) && ds_null_over_none(e->pRight);
    case SQL_EXPR_FUNC:
      return e->pWin == NULL && e->pFilter == NULL && e->zName != NULL &&
             (strcmp(e->zName, "sum") == 0 || strcmp(e->zName, "avg") == 0 || strcmp(e->zName, "min") == 0 ||
              strcmp(e->zName, "max") == 0);
    default: return 0;
  }
}

/* Returns 1 if e holds one of the aggregates ds_null_over_none allows. */
static int ds_has_call(const sql_expr *e) {
  if (e == NULL) return 0;
  if (e->eKind == SQL_EXPR_FUNC) return 1;
  return ds_has_call(e->pLeft) || ds_has_call(e->pRight);
}

/* Comparison e (a WHERE conjunct of s) between an expression and a scalar
** subquery correlated by one equality, whose value is NULL over no row:
** the subquery becomes a derived table "?sqN" grouped by its correlated
** expression ("?k", the value "?v"), joined to the outer query on it, and
** e compares with its "?v". A row of the outer query without a group
** there is one where the subquery was NULL and e not true: the join
** drops it as WHERE did. Returns 0 (rewritten or left) or -1. */
static int ds_scalar(dag_ctx *c, const ds_scope *d, sql_select *s, sql_expr *e, sql_expr *pSub) {
  static const char *const azName[] = {"?k", "?v"};
  sql_select *q = pSub->pSelect;
  sql_expr *pInner, *pOuterCol, *pRest, *a[2], *pEq, *pRef;
  sql_src_item *pNew;
  char zAlias[16], *z;
  int rc, nSq = 0;
  if (q->pItems->n != 1 || q->bDistinct || q->pOrderBy != NULL || !ds_null_over_none(q->pItems->a[0].pExpr) ||
      !ds_has_call(q->pItems->a[0].pExpr)) {
    return 0;
  }
  if ((rc = ds_correlation(c, d, q, &pInner, &pOuterCol, &pRest)) <= 0) return rc;
  a[0] = pInner;
  a[1] = q->pItems->a[0].pExpr;
  if ((q->pItems = ds_items(c, 2, a, azName)) == NULL) return -1;
  if ((a[0] = dag__expr_copy(c, pInner)) == NULL) return dag__oom(c);
  if ((q->pGroupBy = ds_items(c, 1, a, NULL)) == NULL) return -1;
  q->pWhere = pRest;
  /* The derived table, after the outer FROM's items. */
  for (int i = 0; i < s->pFrom->n; i++) {
    if (s->pFrom->a[i].zAlias != NULL && strncmp(s->pFrom->a[i].zAlias, DAG_SQ_PREFIX, 3) == 0) nSq++;
  }
  snprintf(zAlias, sizeof(zAlias), DAG_SQ_PREFIX "%d", nSq);
  if ((z = arena_alloc(c->pArena, strlen(zAlias) + 1)) == NULL) return dag__oom(c);
  memcpy(z, zAlias, strlen(zAlias) + 1);
  if (s->pFrom->n == s->pFrom->nAlloc) {
    int nNew = 2 * s->pFrom->n + 1;
    sql_src_item *aNew = arena_alloc(c->pArena, sizeof(sql_src_item) * (size_t)nNew);
    if (aNew == NULL) return dag__oom(c);
    memcpy(aNew, s->pFrom->a, sizeof(sql_src_item) * (size_t)s->pFrom->n);
    s->pFrom->a = aNew;
    s->pFrom->nAlloc = nNew;
  }
  pNew = &s->pFrom->a[s->pFrom->n++];
  memset(pNew, 0, sizeof(*pNew));
  pNew->eKind = SQL_SRC_SUBQUERY;
  pNew->pSelect = q;
  pNew->zAlias = z;
  pNew->iOffset = pSub->iOffset;
  /* e compares with "?sqN"."?v"; outer = "?sqN"."?k" joins it. */
  if ((pRef = ds_node(c, SQL_EXPR_COLUMN, pSub->iOffset, NULL, NULL)) == NULL) return -1;
  pRef->zTable = z;
  pRef->zName = azName[1];
  pRef->bQuoted = 1;
  *pSub = *pRef;
  if ((pRef = ds_node(c, SQL_EXPR_COLUMN, pOuterCol->iOffset, NULL, NULL)) == NULL) return -1;
  pRef->zTable = z;
  pRef->zName = azName[0];
  pRef->bQuoted = 1;
  if ((pEq = ds_node(c, SQL_EXPR_BINARY, pOuterCol->iOffset, dag__expr_copy(c, pOuterCol), pRef)) == NULL) {
    return -1;
  }
  pEq->eOp = SQL_OP_EQ;
  (void)e;
  return (s->pWhere = dag__and(c, s->pWhere, pEq)) == NULL ? -1 : 0;
}

/* Runs the rewrite of conjunct e (its subquery q) with the scope's tables
** read from the catalog. */
static int ds_rewrite(dag_ctx *c, sql_select *s, sql_expr *e, sql_expr *pSub, int eWhat) {
  sql_select *q = pSub->pSelect;
  ds_scope d;
  int rc;
  if (s->pFrom == NULL || q == NULL || q->eOp != SQL_SELECT_SIMPLE || q->pGroupBy != NULL ||
      q->pHaving != NULL || q->pWith != NULL || q->pLimit != NULL || q->pOffset != NULL || q->pFrom == NULL ||
      q->pDistinctOn != NULL) {
    return 0;
  }
  d.pOuter = s->pFrom;
  d.pInner = q->pFrom;
  d.apOuter = arena_alloc(c->pArena, sizeof(cat_table *) * (size_t)(s->pFrom->n + 1));
  d.apInner = arena_alloc(c->pArena, sizeof(cat_table *) * (size_t)(q->pFrom->n + 1));
  if (d.apOuter == NULL || d.apInner == NULL) return dag__oom(c);
  dag__tables_get(c->pCat, s->pFrom, d.apOuter);
  dag__tables_get(c->pCat, q->pFrom, d.apInner);
  rc = eWhat == 2 ? ds_scalar(c, &d, s, e, pSub) : ds_exists(c, &d, pSub, eWhat);
  dag__tables_free(d.pOuter, d.apOuter);
  dag__tables_free(d.pInner, d.apInner);
  return rc;
}

int dag__decorrelate(dag_ctx *c, sql_select *s) {
  sql_expr **a = NULL;
  int n = 0;
  if (dag__conjuncts(c, s->pWhere, &a, &n) != 0) return -1;
  for (int i = 0; i < n; i++) {
    sql_expr *e = a[i];
    if (e->eKind == SQL_EXPR_EXISTS) {
      if (ds_rewrite(c, s, e, e, 0) != 0) return -1;
    } else if (e->eKind == SQL_EXPR_UNARY && e->eOp == SQL_OP_NOT && e->pLeft != NULL &&
               e->pLeft->eKind == SQL_EXPR_EXISTS) {
      sql_expr *pExists = e->pLeft;
      if (ds_rewrite(c, s, pExists, pExists, 1) != 0) return -1;
      if (pExists->eKind != SQL_EXPR_EXISTS) *e = *pExists;
    } else if (e->eKind == SQL_EXPR_IN && e->bSelect && e->pSelect != NULL) {
      ds_distinct(e->pSelect);
    } else if (e->eKind == SQL_EXPR_BINARY && e->eOp >= SQL_OP_EQ && e->eOp <= SQL_OP_GE) {
      /* x op (SELECT agg ...), either side: a scalar subquery joined. */
      sql_expr *pSub = e->pRight != NULL && e->pRight->eKind == SQL_EXPR_SUBQUERY ? e->pRight
                       : e->pLeft != NULL && e->pLeft->eKind == SQL_EXPR_SUBQUERY ? e->pLeft : NULL;
      sql_expr *pOther = pSub == e->pRight ? e->pLeft : e->pRight;
      if (pSub != NULL && !dag__is_subquery_expr(pOther) && ds_rewrite(c, s, e, pSub, 2) != 0) return -1;
    }
  }
  return 0;
}
