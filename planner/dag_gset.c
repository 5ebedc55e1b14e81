/*
** planner/dag_gset.c — grouping sets of a star query (GROUP BY ROLLUP
** (d_year, c_nation), CUBE, GROUPING SETS, grouping()): the device groups
** by the finest grouping, every column the sets name, and the host rolls
** its groups up (they are few). The query is split in its parse tree, as
** if it had been written
**
**   SELECT "?g0" AS d_year, "?g1" AS c_nation, sum("?g2") AS sum,
**          coalesce(sum("?g3"), 0) AS count
**   FROM (SELECT d_year AS "?g0", c_nation AS "?g1", sum(lo_revenue) AS "?g2",
**                count(*) AS "?g3"
**         FROM ... WHERE ... GROUP BY d_year, c_nation) AS "?gstar"
**   GROUP BY ROLLUP ("?g0", "?g1") HAVING ... ORDER BY ...
**
** Each aggregate is computed in two steps, a partial one per finest
** group on the device and its combination over a set's groups on the host:
** sum, min and max of themselves; count as the sum of the counts (0 for a
** set over no group, as count says); avg as the sum of its sums over the
** sum of its counts, in avg's type (double precision). A column read
** outside aggregates is one column of the star query however often it is
** written (qualified or not), so that the SELECT over it sees the same
** expression in GROUP BY, the select list, grouping() and ORDER BY.
** HAVING, windows, DISTINCT, ORDER BY and LIMIT are the host's.
**
** The same split takes over, on the host, what the star core cannot run:
** WHERE's conjuncts holding subqueries (dag_semi.c decorrelates them
** first) or reading a decorrelated scalar subquery's derived table, and
** conditions between two dimensions (dag_snow.c): the star query then
** also groups by the columns they read, and they filter the SELECT over
** it; tables LEFT, RIGHT or FULL joined after the star's inner joins,
** read whole by pipelines of their own and joined on the host to the
** star query, grouped by the columns their ON conditions read. A query
** that does not aggregate is split without grouping (its rows), its *
** written out as the columns the binder expands it to.
**
** What does not split so is refused (0A000): DISTINCT aggregates, other
** aggregates, aggregates of an outer-joined table's columns, subqueries
** outside WHERE, a GROUP BY item naming an output column by a name of
** its own, a fact table on the outer side of a join.
**
** INTERFACE ROUTINES (dagInt.h)
**   dag__has_group_sets, dag__needs_split, dag__lift_split
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dagInt.h"

/* The derived table's name: not a name SQL text can write unquoted. */
#define DG_STAR "?gstar"

static int dg_is_syntax(const sql_expr *e) {
  return e->eKind == SQL_EXPR_ROW || e->eKind == SQL_EXPR_ROLLUP || e->eKind == SQL_EXPR_CUBE ||
         e->eKind == SQL_EXPR_GROUPING_SETS;
}

static int dg_is_grouping_call(const sql_expr *e) {
  return e->eKind == SQL_EXPR_FUNC && e->pWin == NULL && e->zName != NULL && strcmp(e->zName, "grouping") == 0 &&
         (e->zSchema == NULL || strcmp(e->zSchema, "pg_catalog") == 0);
}

static int dg_expr_has_grouping(const sql_expr *e) {
  if (e == NULL) return 0;
  if (dg_is_grouping_call(e)) return 1;
  if (dg_expr_has_grouping(e->pLeft) || dg_expr_has_grouping(e->pRight)) return 1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (dg_expr_has_grouping(e->pList->a[i].pExpr)) return 1;
  }
  return 0;
}

static int dg_list_has_grouping(const sql_expr_list *l) {
  for (int i = 0; l != NULL && i < l->n; i++) {
    if (dg_expr_has_grouping(l->a[i].pExpr)) return 1;
  }
  return 0;
}

int dag__has_group_sets(const sql_select *s) {
  if (s->eOp != SQL_SELECT_SIMPLE) return 0;
  for (int i = 0; s->pGroupBy != NULL && i < s->pGroupBy->n; i++) {
    if (dg_is_syntax(s->pGroupBy->a[i].pExpr)) return 1;
  }
  return dg_list_has_grouping(s->pItems) || dg_list_has_grouping(s->pOrderBy) ||
         dg_expr_has_grouping(s->pHaving);
}

/* What the split carries. */
typedef struct dag_gsplit dag_gsplit;
struct dag_gsplit {
  dag_ctx *c;
  sql_expr_list *pBase;    /* the star query's items */
  sql_expr_list *pKey;     /* its GROUP BY: the columns among them */
  int bWhere;              /* walking WHERE's subquery conjuncts: their
                           ** subqueries stay as written, the host's */
  const sql_src_list *pCore;   /* the FROM items the device joins, and */
  cat_table **apCore;      /* their tables (dag__tables_get) */
  const sql_src_list *pOuter;  /* those outer-joined to them: the host's */
  cat_table **apOuter;
  int bNullExtend;         /* a RIGHT or FULL join: rows of no core row */
};

/* Returns 1 if column reference e reads an outer-joined table: qualified
** by its name (and no core item's), or unqualified and a column of it
** only. */
static int dg_is_outer_col(const dag_gsplit *g, const sql_expr *e) {
  if (g->pOuter == NULL || g->pOuter->n == 0 || e->eKind != SQL_EXPR_COLUMN || e->zSchema != NULL) return 0;
  if (e->zTable != NULL) return dag__from_names(g->pOuter, e->zTable) && !dag__from_names(g->pCore, e->zTable);
  return dag__from_has_column(g->pOuter, g->apOuter, e->zName) == 1 &&
         dag__from_has_column(g->pCore, g->apCore, e->zName) == 0;
}

static int dg_refers_outer(const dag_gsplit *g, const sql_expr *e) {
  if (e == NULL) return 0;
  if (dg_is_outer_col(g, e)) return 1;
  if (dg_refers_outer(g, e->pLeft) || dg_refers_outer(g, e->pRight)) return 1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (dg_refers_outer(g, e->pList->a[i].pExpr)) return 1;
  }
  return 0;
}

static int dg_list_add(dag_ctx *c, sql_expr_list *l, sql_expr *e, const char *zAlias) {
  if (l->n == l->nAlloc) {
    int nNew = l->nAlloc ? 2 * l->nAlloc : 8;
    sql_expr_item *a = arena_alloc(c->pArena, sizeof(sql_expr_item) * (size_t)nNew);
    if (a == NULL) return dag__oom(c);
    if (l->n > 0) memcpy(a, l->a, sizeof(sql_expr_item) * (size_t)l->n);
    l->a = a;
    l->nAlloc = nNew;
  }
  memset(&l->a[l->n], 0, sizeof(sql_expr_item));
  l->a[l->n].pExpr = e;
  l->a[l->n].zAlias = zAlias;
  l->n++;
  return 0;
}

/* Adds pCopy as the star query's next item and returns a reference to
** its column ("?gstar"."?gN"), or NULL. */
static sql_expr *dg_base(dag_gsplit *g, sql_expr *pCopy) {
  char zName[16], *z;
  sql_expr *r;
  snprintf(zName, sizeof(zName), "?g%d", g->pBase->n);
  if ((z = arena_alloc(g->c->pArena, strlen(zName) + 1)) == NULL) {
    dag__oom(g->c);
    return NULL;
  }
  memcpy(z, zName, strlen(zName) + 1);
  if (dg_list_add(g->c, g->pBase, pCopy, z) != 0) return NULL;
  if ((r = dag__expr_new(g->c, SQL_EXPR_COLUMN, pCopy->iOffset)) == NULL) return NULL;
  r->zTable = DG_STAR;
  r->zName = z;
  r->bQuoted = 1;
  return r;
}

/* A call zName(pArg) of the SELECT over the star query, at iOffset. */
static sql_expr *dg_call(dag_ctx *c, const char *zName, sql_expr *pArg, int iOffset) {
  sql_expr *e = dag__expr_new(c, SQL_EXPR_FUNC, iOffset);
  sql_expr_list *l = arena_alloc(c->pArena, sizeof(sql_expr_list));
  if (e == NULL || l == NULL) return l == NULL ? (dag__oom(c), NULL) : NULL;
  memset(l, 0, sizeof(*l));
  if (dg_list_add(c, l, pArg, NULL) != 0) return NULL;
  e->zName = zName;
  e->pList = l;
  e->nHeight = pArg->nHeight + 1;
  return e;
}

static sql_expr *dg_cast_double(dag_ctx *c, sql_expr *a) {
  sql_expr *e = dag__expr_new(c, SQL_EXPR_CAST, a->iOffset);
  if (e == NULL) return NULL;
  e->pLeft = a;
  e->castType = (coltype){COLTYPE_DOUBLE, 0, 0, 0};
  e->nHeight = a->nHeight + 1;
  return e;
}

/* Aggregate e: its partials become base values; e itself, in place, the
** combination of them over a set's groups. */
static int dg_aggregate(dag_gsplit *g, sql_expr *e) {
  dag_ctx *c = g->c;
  sql_expr *pPart, *r, *x = NULL;
  if (e->bDistinct) {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "DISTINCT aggregates beside grouping sets of a star query are not supported yet");
    return -1;
  }
  if (dg_refers_outer(g, e)) {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "an aggregate of an outer-joined table's columns in a star query is not supported yet");
    return -1;
  }
  if ((pPart = arena_alloc(c->pArena, sizeof(sql_expr))) == NULL) return dag__oom(c);
  *pPart = *e;
  if (strcmp(e->zName, "avg") == 0) {
    /* avg: sum(x) and count(x) per group; the sums over the counts. */
    sql_expr *pCount = arena_alloc(c->pArena, sizeof(sql_expr)), *rc, *pNum, *pDen;
    if (pCount == NULL) return dag__oom(c);
    *pCount = *e;
    pPart->zName = "sum";
    pCount->zName = "count";
    if ((r = dg_base(g, pPart)) == NULL || (rc = dg_base(g, pCount)) == NULL) return -1;
    if ((pNum = dg_call(c, "sum", r, e->iOffset)) == NULL || (pNum = dg_cast_double(c, pNum)) == NULL ||
        (pDen = dg_call(c, "sum", rc, e->iOffset)) == NULL || (pDen = dg_cast_double(c, pDen)) == NULL ||
        (x = dag__expr_new(c, SQL_EXPR_BINARY, e->iOffset)) == NULL) {
      return -1;
    }
    x->eOp = SQL_OP_DIV;
    x->pLeft = pNum;
    x->pRight = pDen;
    x->nHeight = pNum->nHeight + 1;
  } else if (strcmp(e->zName, "count") == 0) {
    /* count: the sum of the counts, 0 over no group. */
    sql_expr *pSum, *pZero;
    sql_expr_list *l = arena_alloc(c->pArena, sizeof(sql_expr_list));
    if (l == NULL) return dag__oom(c);
    memset(l, 0, sizeof(*l));
    if ((r = dg_base(g, pPart)) == NULL) return -1;
    if (g->bNullExtend && e->bStar) {
      /* A row a RIGHT or FULL join adds has no core row: it counts 1. */
      sql_expr *pOne = dag__expr_new(c, SQL_EXPR_INTEGER, e->iOffset), *pCo;
      sql_expr_list *l1 = arena_alloc(c->pArena, sizeof(sql_expr_list));
      if (pOne == NULL || l1 == NULL || (pCo = dag__expr_new(c, SQL_EXPR_FUNC, e->iOffset)) == NULL) {
        return dag__oom(c);
      }
      memset(l1, 0, sizeof(*l1));
      pOne->zText = "1";
      if (dg_list_add(c, l1, r, NULL) != 0 || dg_list_add(c, l1, pOne, NULL) != 0) return -1;
      pCo->zName = "coalesce";
      pCo->pList = l1;
      pCo->nHeight = 2;
      r = pCo;
    }
    if ((pSum = dg_call(c, "sum", r, e->iOffset)) == NULL ||
        (pZero = dag__expr_new(c, SQL_EXPR_INTEGER, e->iOffset)) == NULL ||
        (x = dag__expr_new(c, SQL_EXPR_FUNC, e->iOffset)) == NULL) {
      return -1;
    }
    pZero->zText = "0";
    if (dg_list_add(c, l, pSum, NULL) != 0 || dg_list_add(c, l, pZero, NULL) != 0) return -1;
    x->zName = "coalesce";
    x->pList = l;
    x->nHeight = pSum->nHeight + 1;
  } else {
    /* sum, min, max: of themselves. */
    if ((r = dg_base(g, pPart)) == NULL || (x = dg_call(c, e->zName, r, e->iOffset)) == NULL) return -1;
  }
  *e = *x;
  return 0;
}

static int dg_same_column(const sql_expr *a, const sql_expr *b) {
  if (strcmp(a->zName, b->zName) != 0) return 0;
  if (a->zTable == NULL || b->zTable == NULL) return 1;
  return strcmp(a->zTable, b->zTable) == 0;
}

/* Column reference e: one base value per column, also a key of the star
** query's GROUP BY. */
static int dg_column(dag_gsplit *g, sql_expr *e) {
  sql_expr *r, *pCopy;
  for (int i = 0; i < g->pBase->n; i++) {
    sql_expr *b = g->pBase->a[i].pExpr;
    if (b->eKind == SQL_EXPR_COLUMN && dg_same_column(b, e)) {
      if ((r = dag__expr_new(g->c, SQL_EXPR_COLUMN, e->iOffset)) == NULL) return -1;
      r->zTable = DG_STAR;
      r->zName = g->pBase->a[i].zAlias;
      r->bQuoted = 1;
      *e = *r;
      return 0;
    }
  }
  if ((pCopy = arena_alloc(g->c->pArena, sizeof(sql_expr))) == NULL) return dag__oom(g->c);
  *pCopy = *e;
  if ((r = dg_base(g, pCopy)) == NULL) return -1;
  if ((pCopy = arena_alloc(g->c->pArena, sizeof(sql_expr))) == NULL) return dag__oom(g->c);
  *pCopy = *e;
  if (dg_list_add(g->c, g->pKey, pCopy, NULL) != 0) return -1;
  *e = *r;
  return 0;
}

static int dg_is_aggregate(const sql_expr *e) {
  static const char *const azAgg[] = {"sum", "count", "min", "max", "avg"};
  if (e->eKind != SQL_EXPR_FUNC || e->pWin != NULL || e->zName == NULL) return 0;
  if (e->zSchema != NULL && strcmp(e->zSchema, "pg_catalog") != 0) return 0;
  for (size_t i = 0; i < sizeof(azAgg) / sizeof(azAgg[0]); i++) {
    if (strcmp(e->zName, azAgg[i]) == 0) return 1;
  }
  return 0;
}

/* Splits e: aggregates into partials, columns into base values. */
static int dg_walk(dag_gsplit *g, sql_expr *e) {
  if (e == NULL) return 0;
  if (dg_is_aggregate(e)) return dg_aggregate(g, e);
  if (e->eKind == SQL_EXPR_COLUMN && g->bWhere && dag__is_sq_column(e)) return 0;
  if (dg_is_outer_col(g, e)) return 0;
  if (e->eKind == SQL_EXPR_COLUMN) return dg_column(g, e);
  if (g->bWhere && (e->eKind == SQL_EXPR_SUBQUERY || e->eKind == SQL_EXPR_EXISTS)) return 0;
  if (g->bWhere && e->eKind == SQL_EXPR_IN && e->bSelect) return dg_walk(g, e->pLeft);
  if (dag__is_subquery_expr(e) && (e->eKind == SQL_EXPR_SUBQUERY || e->eKind == SQL_EXPR_EXISTS ||
                                   e->eKind == SQL_EXPR_IN || e->eKind == SQL_EXPR_ANY ||
                                   e->eKind == SQL_EXPR_ARRAY)) {
    sql_error_set(g->c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "a subquery outside WHERE of a star query is not supported yet");
    return -1;
  }
  if (e->eKind == SQL_EXPR_FUNC && e->pWin != NULL) {
    sql_window *w = e->pWin;
    for (int i = 0; w->pPartition != NULL && i < w->pPartition->n; i++) {
      if (dg_walk(g, w->pPartition->a[i].pExpr) != 0) return -1;
    }
    for (int i = 0; w->pOrderBy != NULL && i < w->pOrderBy->n; i++) {
      if (dg_walk(g, w->pOrderBy->a[i].pExpr) != 0) return -1;
    }
  }
  if (dg_walk(g, e->pLeft) != 0 || dg_walk(g, e->pRight) != 0) return -1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (dg_walk(g, e->pList->a[i].pExpr) != 0) return -1;
  }
  return 0;
}

/* Returns 1 if bare name e is the output name of a select item that is
** not that very column (which the SELECT over the star query cannot
** tell apart from an input column of the name). */
static int dg_names_other_output(const sql_select *s, const sql_expr *e) {
  if (e->eKind != SQL_EXPR_COLUMN || e->zTable != NULL) return 0;
  for (int i = 0; i < s->pItems->n; i++) {
    const sql_expr_item *it = &s->pItems->a[i];
    if (it->zAlias == NULL || strcmp(it->zAlias, e->zName) != 0) continue;
    if (it->pExpr->eKind != SQL_EXPR_COLUMN || strcmp(it->pExpr->zName, e->zName) != 0) return 1;
  }
  return 0;
}

/* GROUP BY's leaves: an ordinal becomes a copy of the select item it
** names; then each is split like any expression. */
static int dg_group_leaf(dag_gsplit *g, sql_select *s, sql_expr_item *it) {
  sql_expr *e = it->pExpr;
  if (e->eKind == SQL_EXPR_ROW || e->eKind == SQL_EXPR_ROLLUP || e->eKind == SQL_EXPR_CUBE ||
      e->eKind == SQL_EXPR_GROUPING_SETS) {
    for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
      if (dg_group_leaf(g, s, &e->pList->a[i]) != 0) return -1;
    }
    return 0;
  }
  if (e->eKind == SQL_EXPR_INTEGER) {
    long v = strtol(e->zText, NULL, 10);
    if (v < 1 || v > s->pItems->n) {
      sql_error_set(g->c->pErr, SQLSTATE_INVALID_COLUMN_REF, e->iOffset,
                    "GROUP BY position %ld is not in select list", v);
      return -1;
    }
    if ((it->pExpr = dag__expr_copy(g->c, s->pItems->a[v - 1].pExpr)) == NULL) return dag__oom(g->c);
    return 0;
  }
  if (dg_names_other_output(s, e)) {
    sql_error_set(g->c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "GROUP BY an output name beside grouping sets is not supported yet");
    return -1;
  }
  return 0;
}

static int dg_group_walk(dag_gsplit *g, sql_expr_item *it) {
  sql_expr *e = it->pExpr;
  if (dg_is_syntax(e)) {
    for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
      if (dg_group_walk(g, &e->pList->a[i]) != 0) return -1;
    }
    return 0;
  }
  return dg_walk(g, e);
}

/* A copy of list l (its expressions copied), or NULL out of memory. */
static sql_expr_list *dg_list_copy(dag_ctx *c, const sql_expr_list *l) {
  sql_expr_list *x;
  if (l == NULL) return NULL;
  if ((x = arena_alloc(c->pArena, sizeof(sql_expr_list))) == NULL) return NULL;
  memset(x, 0, sizeof(*x));
  for (int i = 0; i < l->n; i++) {
    sql_expr *e = dag__expr_copy(c, l->a[i].pExpr);
    if (e == NULL || dg_list_add(c, x, e, l->a[i].zAlias) != 0) return NULL;
    x->a[i] = l->a[i];
    x->a[i].pExpr = e;
  }
  return x;
}

/* Binds a copy of s as the query it is, grouping sets and all, so that
** what is wrong with it gets PostgreSQL's error in PostgreSQL's words
** (an ungrouped column named as the user wrote it, not as the split
** query's column). Returns 0 or -1 with the binder's error. */
static int dg_check(dag_ctx *c, const sql_select *s, sql_expr *pPure, bound_select **ppB) {
  sql_select *x = arena_alloc(c->pArena, sizeof(sql_select));
  bound_select *b = dag__bound_new(c);
  bind_env env;
  if (x == NULL || b == NULL) return dag__oom(c);
  *ppB = b;
  *x = *s;
  if ((s->pItems != NULL && (x->pItems = dg_list_copy(c, s->pItems)) == NULL) ||
      (s->pGroupBy != NULL && (x->pGroupBy = dg_list_copy(c, s->pGroupBy)) == NULL) ||
      (s->pOrderBy != NULL && (x->pOrderBy = dg_list_copy(c, s->pOrderBy)) == NULL) ||
      (s->pHaving != NULL && (x->pHaving = dag__expr_copy(c, s->pHaving)) == NULL) ||
      (pPure != NULL && (x->pWhere = dag__expr_copy(c, pPure)) == NULL)) {
    return dag__oom(c);
  }
  if (pPure == NULL) x->pWhere = NULL;
  memset(&env, 0, sizeof(env));
  return bind_select_env(c->pCat, x, c->pArena, &env, b, c->pErr);
}

/* A copy of z in the arena, or NULL (53200 recorded). */
static char *dg_strdup(dag_ctx *c, const char *z) {
  size_t n = strlen(z) + 1;
  char *r = arena_alloc(c->pArena, n);
  if (r == NULL) {
    dag__oom(c);
    return NULL;
  }
  memcpy(r, z, n);
  return r;
}

/* Writes the one * of s's select list (of a query that does not group)
** out as the columns the check's binding b expanded it to, each
** qualified by its FROM item, so that the split sees plain columns.
** Returns 0 or -1 (0A000 for more than one *). */
static int dg_star_expand(dag_ctx *c, sql_select *s, const bound_select *b) {
  sql_expr_list *l = arena_alloc(c->pArena, sizeof(sql_expr_list));
  int nStar = 0, iStar = -1, nWidth;
  for (int i = 0; i < s->pItems->n; i++) {
    if (s->pItems->a[i].pExpr->eKind == SQL_EXPR_STAR) nStar++, iStar = i;
  }
  if (nStar == 0) return 0;
  if (nStar > 1) {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, s->pItems->a[iStar].pExpr->iOffset,
                  "a second * beside a subquery or an outer join of a star query is not supported yet");
    return -1;
  }
  nWidth = b->nOutput - (s->pItems->n - 1);
  if (l == NULL || (l->a = arena_alloc(c->pArena, sizeof(sql_expr_item) * (size_t)(b->nOutput + 1))) == NULL) {
    return dag__oom(c);
  }
  l->n = 0;
  l->nAlloc = b->nOutput + 1;
  for (int i = 0; i < s->pItems->n; i++) {
    if (i != iStar) {
      l->a[l->n++] = s->pItems->a[i];
      continue;
    }
    for (int k = iStar; k < iStar + nWidth; k++) {
      const sql_expr *x = b->pItems->a[k].pExpr;
      sql_expr *e;
      if (x->eKind != SQL_EXPR_COLUMN || x->b.iSource < 0) return dag__oom(c);
      if ((e = dag__expr_new(c, SQL_EXPR_COLUMN, s->pItems->a[iStar].pExpr->iOffset)) == NULL) return -1;
      /* Copies: the binding's tables are freed before the parse tree. */
      if ((e->zTable = dg_strdup(c, b->aSource[x->b.iSource].zAlias)) == NULL ||
          (e->zName = dg_strdup(c, b->aSource[x->b.iSource].pTable->aCol[x->b.iColumn].zName)) == NULL) {
        return -1;
      }
      e->bQuoted = 1;
      memset(&l->a[l->n], 0, sizeof(sql_expr_item));
      l->a[l->n].pExpr = e;
      if ((l->a[l->n].zAlias = dg_strdup(c, b->aOutput[k].zName)) == NULL) return -1;
      l->n++;
    }
  }
  s->pItems = l;
  return 0;
}

/* Returns 1 if e calls an aggregate outside windows and subqueries. */
static int dg_has_aggregate(const sql_expr *e) {
  if (e == NULL) return 0;
  if (dg_is_aggregate(e)) return 1;
  if (dg_has_aggregate(e->pLeft) || dg_has_aggregate(e->pRight)) return 1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (dg_has_aggregate(e->pList->a[i].pExpr)) return 1;
  }
  return 0;
}

/* Returns 1 if s groups: GROUP BY, HAVING, or an aggregate call. */
static int dg_is_grouped(const sql_select *s) {
  if (s->pGroupBy != NULL || s->pHaving != NULL) return 1;
  for (int i = 0; i < s->pItems->n; i++) {
    if (dg_has_aggregate(s->pItems->a[i].pExpr)) return 1;
  }
  for (int i = 0; s->pOrderBy != NULL && i < s->pOrderBy->n; i++) {
    if (dg_has_aggregate(s->pOrderBy->a[i].pExpr)) return 1;
  }
  return 0;
}

/* Returns 1 if FROM item it is a table outer-joined to those before it. */
static int dg_is_outer_item(const sql_src_item *it) {
  return it->eKind == SQL_SRC_TABLE &&
         (it->eJoin == SQL_JOIN_LEFT || it->eJoin == SQL_JOIN_RIGHT || it->eJoin == SQL_JOIN_FULL);
}

/* Returns 1 if FROM item it is a decorrelated scalar subquery (dag_semi.c). */
static int dg_is_sq_item(const sql_src_item *it) {
  return it->zAlias != NULL && strncmp(it->zAlias, DAG_SQ_PREFIX, 3) == 0;
}

int dag__needs_split(const sql_select *s) {
  if (dag__has_group_sets(s) || dag__has_where_subquery(s)) return 1;
  for (int i = 0; s->pFrom != NULL && i < s->pFrom->n; i++) {
    if (dg_is_sq_item(&s->pFrom->a[i]) || dg_is_outer_item(&s->pFrom->a[i])) return 1;
  }
  return 0;
}

/* Sorts s's FROM items into the core the device joins, the tables
** outer-joined to it and the decorrelated subqueries (both the host's).
** Returns 0 or -1 (0A000 for what the host cannot take over). */
static int dg_from_split(dag_ctx *c, const sql_select *s, sql_src_list *pCore, sql_src_list *pOuter,
                         sql_src_list *pSq) {
  int n = s->pFrom->n;
  if ((pCore->a = arena_alloc(c->pArena, sizeof(sql_src_item) * (size_t)(n + 1))) == NULL ||
      (pOuter->a = arena_alloc(c->pArena, sizeof(sql_src_item) * (size_t)(n + 1))) == NULL ||
      (pSq->a = arena_alloc(c->pArena, sizeof(sql_src_item) * (size_t)(n + 1))) == NULL) {
    return dag__oom(c);
  }
  for (int i = 0; i < n; i++) {
    const sql_src_item *it = &s->pFrom->a[i];
    if (dg_is_sq_item(it)) {
      pSq->a[pSq->n++] = *it;
    } else if (dg_is_outer_item(it)) {
      pOuter->a[pOuter->n++] = *it;
    } else if (pOuter->n > 0) {
      sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, it->iOffset,
                    "a join after an outer join in a star query is not supported yet");
      return -1;
    } else {
      pCore->a[pCore->n++] = *it;
    }
  }
  pCore->nAlloc = pOuter->nAlloc = pSq->nAlloc = n + 1;
  return 0;
}

/* The FROM of the SELECT over the star query: it, then the outer joins
** (their ON conditions' core columns its columns now), then the
** subqueries' derived tables. */
static sql_src_list *dg_host_from(dag_ctx *c, const sql_src_item *pStar, const sql_src_list *pOuter,
                                  const sql_src_list *pSq) {
  sql_src_list *l = arena_alloc(c->pArena, sizeof(sql_src_list));
  int n = 1 + pOuter->n + pSq->n;
  if (l == NULL || (l->a = arena_alloc(c->pArena, sizeof(sql_src_item) * (size_t)n)) == NULL) {
    dag__oom(c);
    return NULL;
  }
  l->n = l->nAlloc = n;
  l->a[0] = *pStar;
  for (int i = 0; i < pOuter->n; i++) l->a[1 + i] = pOuter->a[i];
  for (int i = 0; i < pSq->n; i++) {
    l->a[1 + pOuter->n + i] = pSq->a[i];
    l->a[1 + pOuter->n + i].eJoin = SQL_JOIN_COMMA;
  }
  return l;
}

static int dg_split(dag_ctx *c, sql_select *s, dag_gsplit *pg, const sql_src_list *pOuter,
                    const sql_src_list *pSq);

/* Moves the conditions between dimensions out of the core's inner joins'
** ON into *papConj (WHERE's conjuncts, the host's), where some condition
** stays in the ON. Returns 0 or -1. */
static int dg_on_cross_dim(dag_ctx *c, const dag_gsplit *g, sql_expr ***papConj, int *pnConj) {
  for (int i = 1; i < g->pCore->n; i++) {
    sql_src_item *it = &g->pCore->a[i];
    sql_expr **ap = NULL, *pKeep = NULL;
    int n = 0, nMove = 0;
    if (it->eJoin != SQL_JOIN_INNER || it->pOn == NULL) continue;
    if (dag__conjuncts(c, it->pOn, &ap, &n) != 0) return -1;
    for (int k = 0; k < n; k++) nMove += dag__is_cross_dim(c, g->pCore, g->apCore, ap[k]) == 1;
    if (nMove == 0 || nMove == n) continue;
    for (int k = 0; k < n; k++) {
      if (dag__is_cross_dim(c, g->pCore, g->apCore, ap[k]) == 1) {
        sql_expr **a = arena_alloc(c->pArena, sizeof(sql_expr *) * (size_t)(*pnConj + 1));
        if (a == NULL) return dag__oom(c);
        if (*pnConj > 0) memcpy(a, *papConj, sizeof(sql_expr *) * (size_t)*pnConj);
        a[(*pnConj)++] = ap[k];
        *papConj = a;
      } else if ((pKeep = dag__and(c, pKeep, ap[k])) == NULL) {
        return -1;
      }
    }
    it->pOn = pKeep;
  }
  return 0;
}

int dag__lift_split(dag_ctx *c, sql_select *s) {
  /* In the arena: the star query keeps the core as its FROM. */
  sql_src_list *pCore = arena_alloc(c->pArena, sizeof(sql_src_list));
  sql_src_list *pOuter = arena_alloc(c->pArena, sizeof(sql_src_list));
  sql_src_list *pSq = arena_alloc(c->pArena, sizeof(sql_src_list));
  dag_gsplit g;
  int rc;
  /* No FROM: nothing for the device; the binder refuses what it cannot run. */
  if (s->pFrom == NULL || s->pFrom->n == 0) return 0;
  if (pCore == NULL || pOuter == NULL || pSq == NULL) return dag__oom(c);
  memset(pCore, 0, sizeof(*pCore));
  memset(pOuter, 0, sizeof(*pOuter));
  memset(pSq, 0, sizeof(*pSq));
  if (dg_from_split(c, s, pCore, pOuter, pSq) != 0) return -1;
  memset(&g, 0, sizeof(g));
  g.c = c;
  g.pCore = pCore;
  g.pOuter = pOuter;
  if ((g.apCore = arena_alloc(c->pArena, sizeof(cat_table *) * (size_t)(pCore->n + 1))) == NULL ||
      (g.apOuter = arena_alloc(c->pArena, sizeof(cat_table *) * (size_t)(pOuter->n + 1))) == NULL) {
    return dag__oom(c);
  }
  dag__tables_get(c->pCat, pCore, g.apCore);
  dag__tables_get(c->pCat, pOuter, g.apOuter);
  rc = dg_split(c, s, &g, pOuter, pSq);
  dag__tables_free(pCore, g.apCore);
  dag__tables_free(pOuter, g.apOuter);
  return rc;
}

/* dag__lift_split with the FROM sorted and its tables read. */
static int dg_split(dag_ctx *c, sql_select *s, dag_gsplit *pg, const sql_src_list *pOuter,
                    const sql_src_list *pSq) {
  sql_expr_list *pBase = arena_alloc(c->pArena, sizeof(sql_expr_list));
  sql_expr_list *pKey = arena_alloc(c->pArena, sizeof(sql_expr_list));
  sql_expr **apConj = NULL, *pPure = NULL, *pSub = NULL;
  sql_src_list *pCheck;
  bound_select *pBound = NULL;
  int nConj = 0, bGrouped = dg_is_grouped(s);
  dag_gsplit g = *pg;
  if (pBase == NULL || pKey == NULL) return dag__oom(c);
  memset(pBase, 0, sizeof(*pBase));
  memset(pKey, 0, sizeof(*pKey));
  for (int i = 0; i < pOuter->n; i++) {
    const cat_table *t = g.apOuter[i];
    if (pOuter->a[i].eJoin != SQL_JOIN_LEFT) g.bNullExtend = 1;
    if (t != NULL && t->nFkey > 0) {
      sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, pOuter->a[i].iOffset,
                    "a fact table on the outer side of a join is not supported yet");
      return -1;
    }
  }
  /* WHERE's conjuncts: those the device can run before the joins (no
  ** subquery, no outer-joined column, no RIGHT or FULL join to keep rows
  ** for) its, the rest the host's. */
  if (dag__conjuncts(c, s->pWhere, &apConj, &nConj) != 0) return -1;
  if (dg_on_cross_dim(c, &g, &apConj, &nConj) != 0) return -1;
  for (int i = 0; i < nConj; i++) {
    int bHost = g.bNullExtend || dag__is_subquery_expr(apConj[i]) || dag__is_sq_column(apConj[i]) ||
                dg_refers_outer(&g, apConj[i]) || dag__is_cross_dim(c, g.pCore, g.apCore, apConj[i]) == 1;
    if (bHost ? (pSub = dag__and(c, pSub, apConj[i])) == NULL : (pPure = dag__and(c, pPure, apConj[i])) == NULL) {
      return -1;
    }
  }
  /* The query as written but for WHERE's subqueries, bound to check it. */
  if ((pCheck = arena_alloc(c->pArena, sizeof(sql_src_list))) == NULL ||
      (pCheck->a = arena_alloc(c->pArena, sizeof(sql_src_item) * (size_t)(g.pCore->n + pOuter->n + 1))) == NULL) {
    return dag__oom(c);
  }
  memcpy(pCheck->a, g.pCore->a, sizeof(sql_src_item) * (size_t)g.pCore->n);
  if (pOuter->n > 0) memcpy(pCheck->a + g.pCore->n, pOuter->a, sizeof(sql_src_item) * (size_t)pOuter->n);
  pCheck->n = pCheck->nAlloc = g.pCore->n + pOuter->n;
  s->pFrom = pCheck;
  if (dg_check(c, s, pPure, &pBound) != 0) return -1;
  if (!bGrouped && dg_star_expand(c, s, pBound) != 0) return -1;
  s->pFrom = (sql_src_list *)g.pCore;
  g.pBase = pBase;
  g.pKey = pKey;
  for (int i = 0; i < s->pItems->n; i++) {
    if (s->pItems->a[i].pExpr->eKind == SQL_EXPR_STAR) {
      sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, s->pItems->a[i].pExpr->iOffset,
                    "* beside grouping sets of a star query is not supported yet");
      return -1;
    }
  }
  for (int i = 0; s->pGroupBy != NULL && i < s->pGroupBy->n; i++) {
    if (dg_group_leaf(&g, s, &s->pGroupBy->a[i]) != 0) return -1;
  }
  /* Names first: the columns replacing base values must not rename them. */
  for (int i = 0; i < s->pItems->n; i++) {
    sql_expr_item *it = &s->pItems->a[i];
    if (it->zAlias == NULL && bind__colname(it->pExpr, &it->zAlias) == 0) it->zAlias = "?column?";
  }
  for (int i = 0; i < s->pItems->n; i++) {
    if (dg_walk(&g, s->pItems->a[i].pExpr) != 0) return -1;
  }
  for (int i = 0; s->pGroupBy != NULL && i < s->pGroupBy->n; i++) {
    if (dg_group_walk(&g, &s->pGroupBy->a[i]) != 0) return -1;
  }
  if (dg_walk(&g, s->pHaving) != 0) return -1;
  for (int i = 0; s->pOrderBy != NULL && i < s->pOrderBy->n; i++) {
    if (!dag__order_output(s, s->pOrderBy->a[i].pExpr) && dg_walk(&g, s->pOrderBy->a[i].pExpr) != 0) return -1;
  }
  g.bWhere = 1;
  if (dg_walk(&g, pSub) != 0) return -1;
  for (int i = 0; i < pOuter->n; i++) {
    if (dg_walk(&g, pOuter->a[i].pOn) != 0) return -1;
  }
  if (pBase->n == 0) {
    /* Nothing read: the star query counts its rows (one row however
    ** many), or gives a constant per row. */
    sql_expr *pOne = dag__expr_new(c, bGrouped ? SQL_EXPR_FUNC : SQL_EXPR_INTEGER, s->iOffset);
    if (pOne == NULL) return -1;
    pOne->zName = bGrouped ? "count" : NULL;
    pOne->bStar = bGrouped;
    pOne->zText = bGrouped ? NULL : "1";
    if (dg_base(&g, pOne) == NULL) return -1;
  }
  /* The star query: FROM, WHERE without subqueries, the finest grouping
  ** (none for a query that does not group), the base values; WHERE's
  ** subqueries the host's. */
  s->pWhere = pPure;
  if (dag__lift_star(c, s, pBase, bGrouped && pKey->n > 0 ? pKey : NULL, NULL, DG_STAR) != 0) return -1;
  s->pWhere = pSub;
  /* The star query first, then the outer joins and the subqueries, those
  ** comma-joined (WHERE's equalities hash the joins). */
  if (pOuter->n + pSq->n > 0 && (s->pFrom = dg_host_from(c, &s->pFrom->a[0], pOuter, pSq)) == NULL) return -1;
  return 0;
}
