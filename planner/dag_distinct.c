/*
** planner/dag_distinct.c — the aggregates a star query's device pipeline
** does not finish, finished on the host: those over DISTINCT arguments
** (SELECT d_year, count(DISTINCT lo_custkey), sum(lo_revenue) FROM ...
** GROUP BY d_year), the variances and standard deviations, bit_and,
** bit_or, string_agg and array_agg. The device's group table is keyed by the query's groups and,
** besides them, by each such aggregate's argument, so that every (group,
** value) pair is one row of the star query's result; the host then folds
** those rows per group. In the parse tree the query becomes
**
**   SELECT "?g0" AS d_year, count(DISTINCT "?d1") AS count,
**          CAST(sum("?p2") AS bigint) AS sum
**   FROM (SELECT d_year AS "?g0", lo_custkey AS "?d1", sum(lo_revenue) AS "?p2"
**         FROM ... WHERE ... GROUP BY d_year, lo_custkey) AS "?star"
**   GROUP BY "?g0" HAVING ... ORDER BY ...
**
** A DISTINCT aggregate folds its column (a value of a group appears once
** per other key's value, and DISTINCT sees it once); a FILTER on it makes
** its key CASE WHEN filter THEN x END (the rows it drops key NULL, which
** the aggregate skips). A variance folds each value with its count, the
** device's count(x) of the pair's rows (FILTER kept): var_samp("?d1",
** "?w2"), a form only such a split makes (bind_agg.c); bit_and and bit_or
** fold each value once, or with its count under a FILTER; string_agg
** and array_agg key the value and their ORDER BY expressions and count
** each pair's rows (count(*), FILTER kept), which the host collects,
** sorts and joins (host/aggcollect.c). Every other
** aggregate is computed per pair on the device and combined on the host:
** count as the sum of counts, sum as the sum of sums, avg as the sum of
** sums over the sum of counts, min, max, bool_and and bool_or as
** themselves. Result types are the original query's: it is bound first
** (a copy of it, so that the binder's errors are the query's own), and
** each combined aggregate is cast back to its type where the combination
** would change it.
**
** The pairs are as many as the (group, value) combinations: few for the
** usual dimension keys and small-domain measures; the device refuses
** keys it cannot combine (wider than 64 bits together, DOUBLE
** PRECISION, NUMERIC expressions) with 0A000.
**
** INTERFACE ROUTINES (dagInt.h)
**   dag__has_host_agg, dag__lift_distinct
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dagInt.h"

/* The derived table's name: not a name SQL text can write unquoted. */
#define DD_STAR "?star"
/* String values of the keys the star query makes for the host (a select
** item like substr(d_yearmonth, 1, 5) beside GROUP BY d_yearmonth). */
#define DD_EXTRA_MAX 16

static int dd_is_agg_name(const char *z) {
  static const char *const az[] = {"sum",      "count",    "min",        "max",         "avg",
                                   "bool_and", "bool_or",  "every",      "var_pop",     "var_samp",
                                   "variance", "stddev",   "stddev_pop", "stddev_samp", "bit_and",
                                   "bit_or",   "string_agg", "array_agg"};
  for (size_t i = 0; i < sizeof(az) / sizeof(az[0]); i++) {
    if (strcmp(z, az[i]) == 0) return 1;
  }
  return 0;
}

/* Is zName an aggregate the host folds over values with their counts? */
static int dd_is_weighted(const char *zName) {
  return strncmp(zName, "var", 3) == 0 || strncmp(zName, "stddev", 6) == 0;
}

/* Is zName an aggregate the host collects every row's value of? */
static int dd_is_collect(const char *zName) {
  return strcmp(zName, "string_agg") == 0 || strcmp(zName, "array_agg") == 0;
}

/* Is e a call of one of the aggregates starq computes? */
static int dd_is_agg(const sql_expr *e) {
  return e != NULL && e->eKind == SQL_EXPR_FUNC && e->pWin == NULL && e->zName != NULL &&
         (e->zSchema == NULL || strcmp(e->zSchema, "pg_catalog") == 0) && dd_is_agg_name(e->zName);
}

/* Is e an aggregate the host finishes: over DISTINCT arguments, or one
** the device does not compute (the variances, bit_and, bit_or)? */
static int dd_is_host_agg(const sql_expr *e) {
  return dd_is_agg(e) && (e->bDistinct || dd_is_weighted(e->zName) || strncmp(e->zName, "bit_", 4) == 0 ||
                          dd_is_collect(e->zName));
}

static int dd_expr_has_host_agg(const sql_expr *e) {
  if (e == NULL) return 0;
  if (dd_is_host_agg(e)) return 1;
  if (e->eKind == SQL_EXPR_SUBQUERY || e->eKind == SQL_EXPR_EXISTS) return 0;
  if (dd_expr_has_host_agg(e->pLeft) || dd_expr_has_host_agg(e->pRight)) return 1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (dd_expr_has_host_agg(e->pList->a[i].pExpr)) return 1;
  }
  return 0;
}

int dag__has_host_agg(const sql_select *s) {
  if (s->eOp != SQL_SELECT_SIMPLE || s->pFrom == NULL) return 0;
  for (int i = 0; s->pItems != NULL && i < s->pItems->n; i++) {
    if (dd_expr_has_host_agg(s->pItems->a[i].pExpr)) return 1;
  }
  for (int i = 0; s->pOrderBy != NULL && i < s->pOrderBy->n; i++) {
    if (dd_expr_has_host_agg(s->pOrderBy->a[i].pExpr)) return 1;
  }
  return dd_expr_has_host_agg(s->pHaving);
}

/* ---- copies, and what binding the copy found -------------------------------- */

/* A node of the query and its copy, which the binder typed. */
typedef struct dd_pair dd_pair;
struct dd_pair {
  const sql_expr *pOrig;
  const sql_expr *pCopy;
};

/* What the split carries. */
typedef struct dag_dist dag_dist;
struct dag_dist {
  dag_ctx *c;
  int nPair, nPairAlloc;
  dd_pair *aPair;          /* every node copied for the binder */
  sql_select *pCopy;       /* the bound copy of the query */
  sql_expr_list *pGroup;   /* the query's GROUP BY, ordinals resolved */
  sql_expr_list *pBase;    /* the star query's items */
  int nBaseAlloc;
  int nKey;                /* the star query's GROUP BY: the query's keys, then */
  int nKeyAlloc;           /* each DISTINCT argument */
  sql_expr **apKey;
  int *aiKeyItem;          /* [k]: the base item that is key k */
  int nDistinct, nDistinctAlloc;
  sql_expr **apDistinct;   /* the host's DISTINCT calls made */
  int nExtra;              /* keys the star query computes for the SELECT
                           ** over it (dd_walk_string), after the query's */
  const char *azExtra[DD_EXTRA_MAX];
};

static sql_expr *dd_copy(dag_dist *d, const sql_expr *e);

static sql_expr_list *dd_copy_list(dag_dist *d, const sql_expr_list *p) {
  sql_expr_list *l;
  if (p == NULL) return NULL;
  if ((l = arena_alloc(d->c->pArena, sizeof(sql_expr_list))) == NULL) return NULL;
  *l = *p;
  if ((l->a = arena_alloc(d->c->pArena, sizeof(sql_expr_item) * (size_t)(p->n + 1))) == NULL) return NULL;
  for (int i = 0; i < p->n; i++) {
    l->a[i] = p->a[i];
    if (p->a[i].pExpr != NULL && (l->a[i].pExpr = dd_copy(d, p->a[i].pExpr)) == NULL) return NULL;
  }
  l->nAlloc = p->n;
  return l;
}

/* A deep copy of e (subqueries shared: the star query refuses them), each
** node paired with its original, or NULL out of memory. */
static sql_expr *dd_copy(dag_dist *d, const sql_expr *e) {
  sql_expr *x;
  if (e == NULL) return NULL;
  if ((x = arena_alloc(d->c->pArena, sizeof(sql_expr))) == NULL) return NULL;
  *x = *e;
  if ((e->pLeft != NULL && (x->pLeft = dd_copy(d, e->pLeft)) == NULL) ||
      (e->pRight != NULL && (x->pRight = dd_copy(d, e->pRight)) == NULL) ||
      (e->pFilter != NULL && (x->pFilter = dd_copy(d, e->pFilter)) == NULL) ||
      (e->pList != NULL && (x->pList = dd_copy_list(d, e->pList)) == NULL)) {
    return NULL;
  }
  if (d->nPair == d->nPairAlloc) {
    int nNew = d->nPairAlloc ? 2 * d->nPairAlloc : 64;
    dd_pair *a = arena_alloc(d->c->pArena, sizeof(dd_pair) * (size_t)nNew);
    if (a == NULL) return NULL;
    if (d->nPair > 0) memcpy(a, d->aPair, sizeof(dd_pair) * (size_t)d->nPair);
    d->aPair = a;
    d->nPairAlloc = nNew;
  }
  d->aPair[d->nPair].pOrig = e;
  d->aPair[d->nPair++].pCopy = x;
  return x;
}

/* The bound copy of node e, or NULL if e was not copied. */
static const sql_expr *dd_bound(const dag_dist *d, const sql_expr *e) {
  for (int i = d->nPair - 1; i >= 0; i--) {
    if (d->aPair[i].pOrig == e) return d->aPair[i].pCopy;
  }
  return NULL;
}

/* Binds a copy of s, as the pipeline would bind s, so that its errors are
** reported before any split and every node's type is known. */
static int dd_bind_copy(dag_dist *d, const sql_select *s) {
  sql_select *pCopy = arena_alloc(d->c->pArena, sizeof(sql_select));
  bound_select b;
  int rc;
  if (pCopy == NULL) return dag__oom(d->c);
  *pCopy = *s;
  if ((pCopy->pItems = dd_copy_list(d, s->pItems)) == NULL ||
      (s->pWhere != NULL && (pCopy->pWhere = dd_copy(d, s->pWhere)) == NULL) ||
      (s->pGroupBy != NULL && (pCopy->pGroupBy = dd_copy_list(d, s->pGroupBy)) == NULL) ||
      (s->pHaving != NULL && (pCopy->pHaving = dd_copy(d, s->pHaving)) == NULL) ||
      (s->pOrderBy != NULL && (pCopy->pOrderBy = dd_copy_list(d, s->pOrderBy)) == NULL)) {
    return dag__oom(d->c);
  }
  if (s->pFrom != NULL) {
    sql_src_list *f = arena_alloc(d->c->pArena, sizeof(sql_src_list));
    if (f == NULL) return dag__oom(d->c);
    *f = *s->pFrom;
    if ((f->a = arena_alloc(d->c->pArena, sizeof(sql_src_item) * (size_t)(f->n + 1))) == NULL) {
      return dag__oom(d->c);
    }
    for (int i = 0; i < f->n; i++) {
      f->a[i] = s->pFrom->a[i];
      if (f->a[i].pOn != NULL && (f->a[i].pOn = dd_copy(d, s->pFrom->a[i].pOn)) == NULL) {
        return dag__oom(d->c);
      }
    }
    pCopy->pFrom = f;
  }
  d->pCopy = pCopy;
  memset(&b, 0, sizeof(b));
  rc = bind_select(d->c->pCat, pCopy, d->c->pArena, &b, d->c->pErr);
  bind_select_free(&b);
  return rc;
}

/* ---- keys -------------------------------------------------------------------- */

/* Are a and b (nodes of the query) the same expression? Columns compare
** by what they were bound to, so that d_year and date.d_year are equal. */
static int dd_equal(const dag_dist *d, const sql_expr *a, const sql_expr *b) {
  if (a == b) return 1;
  if (a == NULL || b == NULL) return 0;
  if (a->eKind == SQL_EXPR_COLUMN && b->eKind == SQL_EXPR_COLUMN) {
    const sql_expr *x = dd_bound(d, a), *y = dd_bound(d, b);
    if (x != NULL && y != NULL) {
      return x->b.iSource == y->b.iSource && x->b.iColumn == y->b.iColumn && x->b.iSource >= 0;
    }
  }
  if (a->eKind != b->eKind || a->eOp != b->eOp || a->bNot != b->bNot ||
      a->bDistinct != b->bDistinct || a->bStar != b->bStar) {
    return 0;
  }
  if ((a->zText == NULL) != (b->zText == NULL) || (a->zText && strcmp(a->zText, b->zText) != 0) ||
      (a->zName == NULL) != (b->zName == NULL) || (a->zName && strcmp(a->zName, b->zName) != 0) ||
      (a->zTable == NULL) != (b->zTable == NULL) || (a->zTable && strcmp(a->zTable, b->zTable) != 0)) {
    return 0;
  }
  if (a->eKind == SQL_EXPR_CAST && (a->castType.eId != b->castType.eId || a->castType.nScale != b->castType.nScale ||
                                    a->castType.nPrecision != b->castType.nPrecision)) {
    return 0;
  }
  if (!dd_equal(d, a->pLeft, b->pLeft) || !dd_equal(d, a->pRight, b->pRight) ||
      !dd_equal(d, a->pFilter, b->pFilter)) {
    return 0;
  }
  if ((a->pList ? a->pList->n : 0) != (b->pList ? b->pList->n : 0)) return 0;
  for (int i = 0; a->pList != NULL && i < a->pList->n; i++) {
    if (!dd_equal(d, a->pList->a[i].pExpr, b->pList->a[i].pExpr)) return 0;
  }
  return 1;
}

/* A fresh, unbound node. */
static sql_expr *dd_node(dag_dist *d, sql_expr_kind eKind, int iOffset) {
  sql_expr *e = arena_alloc(d->c->pArena, sizeof(sql_expr));
  if (e == NULL) return NULL;
  memset(e, 0, sizeof(*e));
  e->eKind = eKind;
  e->iOffset = iOffset;
  e->nHeight = 1;
  return e;
}

/* A reference to the star query's column zName. */
static sql_expr *dd_ref(dag_dist *d, const char *zName, int iOffset) {
  sql_expr *e = dd_node(d, SQL_EXPR_COLUMN, iOffset);
  if (e == NULL) return NULL;
  e->zTable = DD_STAR;
  e->zName = zName;
  e->bQuoted = 1;
  return e;
}

/* Appends e to the star query's items as "?<c><n>"; returns its name. */
static const char *dd_base(dag_dist *d, sql_expr *e, char c) {
  char zName[16], *z;
  int n = d->pBase->n;
  if (n == d->nBaseAlloc) {
    int nNew = d->nBaseAlloc ? 2 * d->nBaseAlloc : 8;
    sql_expr_item *a = arena_alloc(d->c->pArena, sizeof(sql_expr_item) * (size_t)nNew);
    if (a == NULL) return NULL;
    if (n > 0) memcpy(a, d->pBase->a, sizeof(sql_expr_item) * (size_t)n);
    d->pBase->a = a;
    d->pBase->nAlloc = d->nBaseAlloc = nNew;
  }
  snprintf(zName, sizeof(zName), "?%c%d", c, n);
  if ((z = arena_alloc(d->c->pArena, strlen(zName) + 1)) == NULL) return NULL;
  memcpy(z, zName, strlen(zName) + 1);
  memset(&d->pBase->a[n], 0, sizeof(sql_expr_item));
  d->pBase->a[n].pExpr = e;
  d->pBase->a[n].zAlias = z;
  d->pBase->n = n + 1;
  return z;
}

/* Adds key e (a node of the query, or one built over its nodes) to the
** star query's GROUP BY, once; returns the base column holding it. */
static const char *dd_key(dag_dist *d, sql_expr *e, char c) {
  const char *z;
  for (int k = 0; k < d->nKey; k++) {
    if (dd_equal(d, d->apKey[k], e)) return d->pBase->a[d->aiKeyItem[k]].zAlias;
  }
  if (d->nKey == d->nKeyAlloc) {
    int nNew = d->nKeyAlloc ? 2 * d->nKeyAlloc : 8;
    sql_expr **ap = arena_alloc(d->c->pArena, sizeof(sql_expr *) * (size_t)nNew);
    int *ai = arena_alloc(d->c->pArena, sizeof(int) * (size_t)nNew);
    if (ap == NULL || ai == NULL) return NULL;
    if (d->nKey > 0) {
      memcpy(ap, d->apKey, sizeof(sql_expr *) * (size_t)d->nKey);
      memcpy(ai, d->aiKeyItem, sizeof(int) * (size_t)d->nKey);
    }
    d->apKey = ap;
    d->aiKeyItem = ai;
    d->nKeyAlloc = nNew;
  }
  d->apKey[d->nKey] = e;
  d->aiKeyItem[d->nKey++] = d->pBase->n;
  if ((z = dd_base(d, e, c)) == NULL) return NULL;
  return z;
}

/* ---- the SELECT over the star query ------------------------------------------ */

/* A call of aggregate zName over column zCol of the star query. */
static sql_expr *dd_call(dag_dist *d, const char *zName, const char *zCol, int bDistinct, int iOffset) {
  sql_expr *e = dd_node(d, SQL_EXPR_FUNC, iOffset), *r = dd_ref(d, zCol, iOffset);
  sql_expr_list *l = arena_alloc(d->c->pArena, sizeof(sql_expr_list));
  sql_expr_item *a = arena_alloc(d->c->pArena, sizeof(sql_expr_item));
  if (e == NULL || r == NULL || l == NULL || a == NULL) return NULL;
  memset(a, 0, sizeof(*a));
  a->pExpr = r;
  l->n = l->nAlloc = 1;
  l->a = a;
  e->zName = zName;
  e->pList = l;
  e->bDistinct = bDistinct;
  e->nHeight = 2;
  return e;
}

/* Appends the star query's column zCol to call e's arguments. */
static int dd_arg_add(dag_dist *d, sql_expr *e, const char *zCol) {
  sql_expr_item *a = arena_alloc(d->c->pArena, sizeof(sql_expr_item) * 2);
  if (a == NULL) return -1;
  memset(a, 0, sizeof(sql_expr_item) * 2);
  a[0] = e->pList->a[0];
  if ((a[1].pExpr = dd_ref(d, zCol, e->iOffset)) == NULL) return -1;
  e->pList->a = a;
  e->pList->n = e->pList->nAlloc = 2;
  return 0;
}

static sql_expr *dd_cast(dag_dist *d, sql_expr *x, coltype_id eId) {
  sql_expr *e;
  if (x == NULL || (e = dd_node(d, SQL_EXPR_CAST, x->iOffset)) == NULL) return NULL;
  e->pLeft = x;
  e->castType = (coltype){eId, 0, 0, 0};
  e->nHeight = x->nHeight + 1;
  return e;
}

/* The device's part of aggregate call e (not DISTINCT): a copy of it
** named zName, its filter kept. */
static sql_expr *dd_partial(dag_dist *d, const sql_expr *e, const char *zName) {
  int nPair = d->nPair;
  sql_expr *x = dd_copy(d, e);
  d->nPair = nPair;                    /* a copy of its own, not the bound one */
  if (x == NULL) return NULL;
  x->zName = zName;
  return x;
}

/* string_agg(x, delimiter ORDER BY ...) or array_agg(x ORDER BY ...)
** call e: the value and each sort key are keys, the pair's rows counted
** (count(*), FILTER kept); the host collects, sorts and joins them. A
** delimiter must be a literal. Returns 0, 1 where it cannot, or -1. */
static int dd_collect(dag_dist *d, sql_expr *e, sql_expr **pOut) {
  int bString = e->zName[0] == 's', nArg = bString ? 2 : 1;
  sql_expr *pCount, *r;
  sql_expr_item *a;
  const char *z, *zWeight;
  if (e->bDistinct || e->pList == NULL || e->pList->n != nArg) return 1;
  if (bString && e->pList->a[1].pExpr->eKind != SQL_EXPR_STRING) return 1;
  if ((pCount = dd_node(d, SQL_EXPR_FUNC, e->iOffset)) == NULL) return dag__oom(d->c);
  pCount->zName = "count";
  pCount->bStar = 1;
  pCount->pFilter = e->pFilter;
  pCount->nHeight = e->pFilter != NULL ? e->pFilter->nHeight + 1 : 1;
  if ((zWeight = dd_base(d, pCount, 'w')) == NULL) return dag__oom(d->c);
  if ((z = dd_key(d, e->pList->a[0].pExpr, 'd')) == NULL) return dag__oom(d->c);
  if ((r = dd_call(d, e->zName, z, 0, e->iOffset)) == NULL) return dag__oom(d->c);
  if ((a = arena_alloc(d->c->pArena, sizeof(sql_expr_item) * 3)) == NULL) return dag__oom(d->c);
  memset(a, 0, sizeof(sql_expr_item) * 3);
  a[0] = r->pList->a[0];
  if (bString) a[1].pExpr = e->pList->a[1].pExpr;
  if ((a[nArg].pExpr = dd_ref(d, zWeight, e->iOffset)) == NULL) return dag__oom(d->c);
  r->pList->a = a;
  r->pList->n = r->pList->nAlloc = nArg + 1;
  if (e->pOrderBy != NULL) {
    sql_expr_list *o = arena_alloc(d->c->pArena, sizeof(sql_expr_list));
    if (o == NULL) return dag__oom(d->c);
    *o = *e->pOrderBy;
    if ((o->a = arena_alloc(d->c->pArena, sizeof(sql_expr_item) * (size_t)(o->n + 1))) == NULL) {
      return dag__oom(d->c);
    }
    for (int k = 0; k < o->n; k++) {
      o->a[k] = e->pOrderBy->a[k];
      if ((z = dd_key(d, e->pOrderBy->a[k].pExpr, 'd')) == NULL ||
          (o->a[k].pExpr = dd_ref(d, z, e->pOrderBy->a[k].pExpr->iOffset)) == NULL) {
        return dag__oom(d->c);
      }
    }
    r->pOrderBy = o;
  }
  *pOut = r;
  return 0;
}

/* Replaces aggregate call e (of the query) by what the host computes
** over the star query's columns; *pOut is set to the replacement. */
static int dd_agg(dag_dist *d, sql_expr *e, sql_expr **pOut) {
  const sql_expr *pBound = dd_bound(d, e);
  coltype t = pBound != NULL ? pBound->b.type : (coltype){COLTYPE_UNKNOWN, 0, 0, 0};
  const char *z, *zCount;
  sql_expr *r;
  if (dd_is_collect(e->zName)) return dd_collect(d, e, pOut);
  if (e->bDistinct || dd_is_weighted(e->zName) || strncmp(e->zName, "bit_", 4) == 0) {
    sql_expr *x = e->pList != NULL && e->pList->n == 1 ? e->pList->a[0].pExpr : NULL;
    const char *zWeight = NULL;
    if (x == NULL || e->pOrderBy != NULL) return 1;
    if (e->bDistinct && e->pFilter != NULL) {   /* CASE WHEN filter THEN x END */
      sql_expr *c = dd_node(d, SQL_EXPR_CASE, e->pFilter->iOffset);
      sql_expr_list *l = arena_alloc(d->c->pArena, sizeof(sql_expr_list));
      sql_expr_item *a = arena_alloc(d->c->pArena, sizeof(sql_expr_item) * 2);
      if (c == NULL || l == NULL || a == NULL) return dag__oom(d->c);
      memset(a, 0, sizeof(sql_expr_item) * 2);
      a[0].pExpr = e->pFilter;
      a[1].pExpr = x;
      l->n = l->nAlloc = 2;
      l->a = a;
      c->pList = l;
      c->nHeight = 1 + (x->nHeight > e->pFilter->nHeight ? x->nHeight : e->pFilter->nHeight);
      x = c;
    }
    /* Otherwise each value comes with its count (of the rows FILTER
    ** passes): the keys stay few where aggregates share an argument. */
    if (!e->bDistinct && (dd_is_weighted(e->zName) || e->pFilter != NULL)) {
      sql_expr *pCount = dd_partial(d, e, "count");
      if (pCount == NULL || (zWeight = dd_base(d, pCount, 'w')) == NULL) return dag__oom(d->c);
    }
    if ((z = dd_key(d, x, 'd')) == NULL) return dag__oom(d->c);
    if ((*pOut = dd_call(d, e->zName, z, e->bDistinct, e->iOffset)) == NULL) return dag__oom(d->c);
    if (e->bDistinct) {
      if (d->nDistinct == d->nDistinctAlloc) {
        int nNew = d->nDistinctAlloc ? 2 * d->nDistinctAlloc : 8;
        sql_expr **ap = arena_alloc(d->c->pArena, sizeof(sql_expr *) * (size_t)nNew);
        if (ap == NULL) return dag__oom(d->c);
        if (d->nDistinct > 0) memcpy(ap, d->apDistinct, sizeof(sql_expr *) * (size_t)d->nDistinct);
        d->apDistinct = ap;
        d->nDistinctAlloc = nNew;
      }
      d->apDistinct[d->nDistinct++] = *pOut;
    }
    if (zWeight != NULL && dd_arg_add(d, *pOut, zWeight) != 0) return dag__oom(d->c);
    return 0;
  }
  switch (e->zName[0]) {
    case 'c':                          /* count: the sum of counts, 0 if none */
      if ((z = dd_base(d, dd_partial(d, e, "count"), 'p')) == NULL) return dag__oom(d->c);
      if ((r = dd_call(d, "sum", z, 0, e->iOffset)) == NULL) return dag__oom(d->c);
      {
        sql_expr *f = dd_node(d, SQL_EXPR_FUNC, e->iOffset), *zero = dd_node(d, SQL_EXPR_INTEGER, e->iOffset);
        sql_expr_list *l = arena_alloc(d->c->pArena, sizeof(sql_expr_list));
        sql_expr_item *a = arena_alloc(d->c->pArena, sizeof(sql_expr_item) * 2);
        if (f == NULL || zero == NULL || l == NULL || a == NULL) return dag__oom(d->c);
        memset(a, 0, sizeof(sql_expr_item) * 2);
        zero->zText = "0";
        a[0].pExpr = r;
        a[1].pExpr = zero;
        l->n = l->nAlloc = 2;
        l->a = a;
        f->zName = "coalesce";
        f->pList = l;
        f->nHeight = r->nHeight + 1;
        r = dd_cast(d, f, COLTYPE_BIGINT);
      }
      break;
    case 's':                          /* sum: the sum of sums, in its type */
      if ((z = dd_base(d, dd_partial(d, e, "sum"), 'p')) == NULL) return dag__oom(d->c);
      r = dd_call(d, "sum", z, 0, e->iOffset);
      if (r != NULL && t.eId == COLTYPE_BIGINT) r = dd_cast(d, r, COLTYPE_BIGINT);
      break;
    case 'a':                          /* avg: the sum of sums / the sum of counts */
      if (t.eId != COLTYPE_DOUBLE) return 1;
      if ((z = dd_base(d, dd_partial(d, e, "sum"), 'p')) == NULL ||
          (zCount = dd_base(d, dd_partial(d, e, "count"), 'p')) == NULL) {
        return dag__oom(d->c);
      }
      if ((r = dd_node(d, SQL_EXPR_BINARY, e->iOffset)) == NULL) return dag__oom(d->c);
      r->eOp = SQL_OP_DIV;
      r->pLeft = dd_cast(d, dd_call(d, "sum", z, 0, e->iOffset), COLTYPE_DOUBLE);
      r->pRight = dd_cast(d, dd_call(d, "sum", zCount, 0, e->iOffset), COLTYPE_DOUBLE);
      if (r->pLeft == NULL || r->pRight == NULL) return dag__oom(d->c);
      r->nHeight = 4;
      break;
    default:                           /* min, max, bool_and, bool_or, every */
      if ((z = dd_base(d, dd_partial(d, e, e->zName), 'p')) == NULL) return dag__oom(d->c);
      r = dd_call(d, e->zName, z, 0, e->iOffset);
      break;
  }
  if (r == NULL) return dag__oom(d->c);
  *pOut = r;
  return 0;
}

/* 1 if e holds an aggregate or a window call anywhere. */
static int dd_has_agg(const sql_expr *e) {
  if (e == NULL) return 0;
  if (dd_is_agg(e) || (e->eKind == SQL_EXPR_FUNC && e->pWin != NULL)) return 1;
  if (dd_has_agg(e->pLeft) || dd_has_agg(e->pRight)) return 1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (dd_has_agg(e->pList->a[i].pExpr)) return 1;
  }
  return 0;
}

/* A string-valued function of the query's keys (the binder checked that
** it reads grouped columns only) is a key of the star query too: the
** device makes string values (planner/strval.c), which the host executor
** has no functions for, and being a function of the keys it adds no
** groups. Returns 0 done (*pp a reference), 1 not such an expression, -1. */
static int dd_walk_string(dag_dist *d, sql_expr **pp) {
  sql_expr *e = *pp;
  const sql_expr *b = dd_bound(d, e);
  const char *z;
  int bString = e->eKind == SQL_EXPR_FUNC ||
                (e->eKind == SQL_EXPR_BINARY && e->eOp == SQL_OP_CONCAT);
  if (!bString || b == NULL || !coltype_is_string(b->b.type) || dd_has_agg(e) ||
      d->nExtra == DD_EXTRA_MAX) {
    return 1;
  }
  if ((z = dd_key(d, e, 'g')) == NULL) return dag__oom(d->c);
  for (int k = 0; k < d->nExtra && z != NULL; k++) {
    if (strcmp(d->azExtra[k], z) == 0) z = NULL;
  }
  if (z != NULL) d->azExtra[d->nExtra++] = z;
  for (int k = 0; k < d->nKey; k++) {
    if (dd_equal(d, d->apKey[k], e)) {
      *pp = dd_ref(d, d->pBase->a[d->aiKeyItem[k]].zAlias, e->iOffset);
      return *pp == NULL ? dag__oom(d->c) : 0;
    }
  }
  return 1;
}

/* Rewrites *pp (a node of the query outside aggregates) over the star
** query's columns: a GROUP BY key becomes its column, an aggregate what
** dd_agg makes of it. Returns 0, 1 for what cannot be split, or -1. */
static int dd_walk(dag_dist *d, sql_expr **pp) {
  sql_expr *e = *pp;
  int rc;
  if (e == NULL) return 0;
  for (int k = 0; d->pGroup != NULL && k < d->pGroup->n; k++) {
    if (dd_equal(d, d->pGroup->a[k].pExpr, e)) {
      *pp = dd_ref(d, d->pBase->a[d->aiKeyItem[k]].zAlias, e->iOffset);
      return *pp == NULL ? dag__oom(d->c) : 0;
    }
  }
  if (dd_is_agg(e)) return dd_agg(d, e, pp);
  if (e->eKind == SQL_EXPR_FUNC && e->pWin != NULL) return 1;
  if ((rc = dd_walk_string(d, pp)) <= 0) return rc;
  if (e->eKind == SQL_EXPR_SUBQUERY || e->eKind == SQL_EXPR_EXISTS || (e->eKind == SQL_EXPR_IN && e->bSelect)) {
    return 1;
  }
  if ((rc = dd_walk(d, &e->pLeft)) != 0 || (rc = dd_walk(d, &e->pRight)) != 0) return rc;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if ((rc = dd_walk(d, &e->pList->a[i].pExpr)) != 0) return rc;
  }
  return 0;
}

/* The query's GROUP BY with ordinals and output names as the select
** items they name (as the binder resolved them in the copy). */
static int dd_group_by(dag_dist *d, sql_select *s) {
  sql_expr_list *g = s->pGroupBy;
  if (g == NULL) return 0;
  if ((d->pGroup = arena_alloc(d->c->pArena, sizeof(sql_expr_list))) == NULL) return dag__oom(d->c);
  *d->pGroup = *g;
  if ((d->pGroup->a = arena_alloc(d->c->pArena, sizeof(sql_expr_item) * (size_t)(g->n + 1))) == NULL) {
    return dag__oom(d->c);
  }
  for (int i = 0; i < g->n; i++) {
    sql_expr *e = g->a[i].pExpr;
    const sql_expr *pBound = d->pCopy->pGroupBy->a[i].pExpr;
    d->pGroup->a[i] = g->a[i];
    if (e->eKind == SQL_EXPR_ROW || dd_is_agg(e)) return 1;
    if (pBound != dd_bound(d, e)) {     /* an ordinal or an output name */
      int j = 0;
      while (j < s->pItems->n && d->pCopy->pItems->a[j].pExpr != pBound) j++;
      if (j == s->pItems->n) return 1;
      d->pGroup->a[i].pExpr = s->pItems->a[j].pExpr;
    }
    if (dd_key(d, d->pGroup->a[i].pExpr, 'g') == NULL) return dag__oom(d->c);
  }
  return 0;
}

/* Builds the split of s; returns 0, 1 where it cannot, or -1. */
static int dd_split(dag_dist *d, sql_select *s) {
  sql_select *pStar = arena_alloc(d->c->pArena, sizeof(sql_select));
  sql_src_list *pFrom = arena_alloc(d->c->pArena, sizeof(sql_src_list));
  sql_src_item *pItem = arena_alloc(d->c->pArena, sizeof(sql_src_item));
  sql_expr_list *pKeys = arena_alloc(d->c->pArena, sizeof(sql_expr_list));
  sql_expr_list *pOuter = arena_alloc(d->c->pArena, sizeof(sql_expr_list));
  int rc, nGroup;
  if (pStar == NULL || pFrom == NULL || pItem == NULL || pKeys == NULL || pOuter == NULL) {
    return dag__oom(d->c);
  }
  for (int i = 0; i < s->pItems->n; i++) {
    if (s->pItems->a[i].pExpr->eKind == SQL_EXPR_STAR) return 1;
  }
  if ((rc = dd_group_by(d, s)) != 0) return rc;
  nGroup = d->nKey;
  /* Names first: the columns replacing keys and aggregates keep them. */
  for (int i = 0; i < s->pItems->n; i++) {
    sql_expr_item *it = &s->pItems->a[i];
    if (it->zAlias == NULL && bind__colname(it->pExpr, &it->zAlias) == 0) it->zAlias = "?column?";
  }
  for (int i = 0; i < s->pItems->n; i++) {
    if ((rc = dd_walk(d, &s->pItems->a[i].pExpr)) != 0) return rc;
  }
  for (int i = 0; s->pOrderBy != NULL && i < s->pOrderBy->n; i++) {
    if (!dag__order_output(s, s->pOrderBy->a[i].pExpr) && (rc = dd_walk(d, &s->pOrderBy->a[i].pExpr)) != 0) {
      return rc;
    }
  }
  if ((rc = dd_walk(d, &s->pHaving)) != 0) return rc;
  /* With one key besides the groups, each (group, value) pair is one row
  ** already: DISTINCT over it is the identity, and the host folds the
  ** rows without a set of the values seen per group. */
  if (d->nKey - d->nExtra == nGroup + 1) {
    for (int i = 0; i < d->nDistinct; i++) d->apDistinct[i]->bDistinct = 0;
  }
  /* The star query: FROM, WHERE, the keys and the device's aggregates. */
  memset(pKeys, 0, sizeof(*pKeys));
  if ((pKeys->a = arena_alloc(d->c->pArena, sizeof(sql_expr_item) * (size_t)(d->nKey + 1))) == NULL) {
    return dag__oom(d->c);
  }
  for (int k = 0; k < d->nKey; k++) {
    memset(&pKeys->a[k], 0, sizeof(sql_expr_item));
    pKeys->a[k].pExpr = d->apKey[k];
  }
  pKeys->n = pKeys->nAlloc = d->nKey;
  memset(pStar, 0, sizeof(*pStar));
  pStar->eOp = SQL_SELECT_SIMPLE;
  pStar->iOffset = s->iOffset;
  pStar->pItems = d->pBase;
  pStar->pFrom = s->pFrom;
  pStar->pWhere = s->pWhere;
  pStar->pGroupBy = pKeys;
  pStar->nHeight = s->nHeight;
  /* The SELECT over it groups by the query's keys' columns. */
  memset(pOuter, 0, sizeof(*pOuter));
  if (nGroup > 0) {
    if ((pOuter->a = arena_alloc(d->c->pArena, sizeof(sql_expr_item) * (size_t)nGroup)) == NULL) {
      return dag__oom(d->c);
    }
    for (int k = 0; k < nGroup; k++) {
      memset(&pOuter->a[k], 0, sizeof(sql_expr_item));
      pOuter->a[k].pExpr = dd_ref(d, d->pBase->a[d->aiKeyItem[k]].zAlias, d->apKey[k]->iOffset);
      if (pOuter->a[k].pExpr == NULL) return dag__oom(d->c);
    }
    pOuter->n = pOuter->nAlloc = nGroup;
  }
  if (d->nExtra > 0) {
    sql_expr_item *a = arena_alloc(d->c->pArena, sizeof(sql_expr_item) * (size_t)(nGroup + d->nExtra));
    if (a == NULL) return dag__oom(d->c);
    if (nGroup > 0) memcpy(a, pOuter->a, sizeof(sql_expr_item) * (size_t)nGroup);
    for (int k = 0; k < d->nExtra; k++) {
      memset(&a[nGroup + k], 0, sizeof(sql_expr_item));
      if ((a[nGroup + k].pExpr = dd_ref(d, d->azExtra[k], s->iOffset)) == NULL) return dag__oom(d->c);
    }
    pOuter->a = a;
    pOuter->n = pOuter->nAlloc = nGroup + d->nExtra;
  }
  memset(pItem, 0, sizeof(*pItem));
  pItem->eKind = SQL_SRC_SUBQUERY;
  pItem->pSelect = pStar;
  pItem->zAlias = DD_STAR;
  pItem->iOffset = s->pFrom->n > 0 ? s->pFrom->a[0].iOffset : s->iOffset;
  pFrom->n = pFrom->nAlloc = 1;
  pFrom->a = pItem;
  s->pFrom = pFrom;
  s->pWhere = NULL;
  s->pGroupBy = nGroup + d->nExtra > 0 ? pOuter : NULL;
  return 0;
}

int dag__lift_distinct(dag_ctx *c, sql_select *s) {
  dag_dist d;
  int rc;
  memset(&d, 0, sizeof(d));
  d.c = c;
  if ((d.pBase = arena_alloc(c->pArena, sizeof(sql_expr_list))) == NULL) return dag__oom(c);
  memset(d.pBase, 0, sizeof(*d.pBase));
  if (dd_bind_copy(&d, s) != 0) return -1;
  if ((rc = dd_split(&d, s)) > 0) {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, s->iOffset,
                  "DISTINCT inside an aggregate is not supported in this query yet");
    return -1;
  }
  return rc;
}
