/*
** planner/dag_lift.c — window calls on a star query's own rows or groups
** (SELECT d_year, sum(x), rank() OVER (ORDER BY sum(x) DESC) FROM ...
** GROUP BY d_year): the query is split, in its parse tree, into a star
** query the device runs and a SELECT over it the host runs, as if it had
** been written
**
**   SELECT d_year AS d_year, "?b1" AS sum, rank() OVER (ORDER BY "?b2" DESC)
**   FROM (SELECT d_year AS "?b0", sum(x) AS "?b1", sum(x) AS "?b2"
**         FROM ... WHERE ... GROUP BY d_year HAVING ...) AS "?star"
**
** The star query keeps FROM, WHERE, GROUP BY and HAVING, and computes the
** query's base values: each aggregate call outside a window and each
** column reference outside an aggregate, wherever they stand in the
** select list, the ORDER BY or a window's arguments, PARTITION BY and
** ORDER BY. Each of those nodes becomes a column of the derived table in
** place; the SELECT over it (dag_query.c) computes the windows, the
** select list, DISTINCT, ORDER BY and LIMIT. Output names are fixed
** first, so the columns are named as PostgreSQL names the original.
**
** INTERFACE ROUTINES (dagInt.h)
**   dag__has_window, dag__lift_windows, dag__expr_copy, dag__order_output,
**   dag__lift_star
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dagInt.h"

/* The derived table's name: not a name SQL text can write unquoted. */
#define DL_STAR "?star"

static int dl_expr_has_window(const sql_expr *e) {
  if (e == NULL) return 0;
  if (e->eKind == SQL_EXPR_FUNC && e->pWin != NULL) return 1;
  if (dl_expr_has_window(e->pLeft) || dl_expr_has_window(e->pRight)) return 1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (dl_expr_has_window(e->pList->a[i].pExpr)) return 1;
  }
  return 0;
}

int dag__has_window(const sql_select *s) {
  if (s->eOp != SQL_SELECT_SIMPLE) return 0;
  for (int i = 0; s->pItems != NULL && i < s->pItems->n; i++) {
    if (dl_expr_has_window(s->pItems->a[i].pExpr)) return 1;
  }
  for (int i = 0; s->pOrderBy != NULL && i < s->pOrderBy->n; i++) {
    if (dl_expr_has_window(s->pOrderBy->a[i].pExpr)) return 1;
  }
  return 0;
}

/* What the split carries: the star query's select list being built. */
typedef struct dag_lift dag_lift;
struct dag_lift {
  dag_ctx *c;
  sql_expr_list *pBase;    /* the star query's items */
  int nAlloc;
};

static int dl_is_aggregate(const sql_expr *e) {
  static const char *const azAgg[] = {"sum", "count", "min", "max", "avg"};
  if (e->eKind != SQL_EXPR_FUNC || e->pWin != NULL || e->zName == NULL) return 0;
  for (size_t i = 0; i < sizeof(azAgg) / sizeof(azAgg[0]); i++) {
    if (strcmp(e->zName, azAgg[i]) == 0) return 1;
  }
  return 0;
}

/* Makes node e a base value: its copy becomes the star query's next item,
** e itself a reference to that item's column. */
static int dl_base(dag_lift *l, sql_expr *e) {
  sql_expr *pCopy = arena_alloc(l->c->pArena, sizeof(sql_expr));
  char zName[16], *z;
  int n = l->pBase->n;
  if (pCopy == NULL) return dag__oom(l->c);
  if (n == l->nAlloc) {
    int nNew = l->nAlloc ? 2 * l->nAlloc : 8;
    sql_expr_item *a = arena_alloc(l->c->pArena, sizeof(sql_expr_item) * (size_t)nNew);
    if (a == NULL) return dag__oom(l->c);
    if (n > 0) memcpy(a, l->pBase->a, sizeof(sql_expr_item) * (size_t)n);
    l->pBase->a = a;
    l->pBase->nAlloc = l->nAlloc = nNew;
  }
  snprintf(zName, sizeof(zName), "?b%d", n);
  if ((z = arena_alloc(l->c->pArena, strlen(zName) + 1)) == NULL) return dag__oom(l->c);
  memcpy(z, zName, strlen(zName) + 1);
  *pCopy = *e;
  memset(&l->pBase->a[n], 0, sizeof(sql_expr_item));
  l->pBase->a[n].pExpr = pCopy;
  l->pBase->a[n].zAlias = z;
  l->pBase->n = n + 1;
  /* e, in place: "?star"."?bN", where it was written. */
  memset(e, 0, sizeof(*e));
  e->eKind = SQL_EXPR_COLUMN;
  e->iOffset = pCopy->iOffset;
  e->zTable = DL_STAR;
  e->zName = z;
  e->bQuoted = 1;
  e->nHeight = 1;
  return 0;
}

/* Splits e: its aggregates and column references become base values. */
static int dl_walk(dag_lift *l, sql_expr *e) {
  if (e == NULL) return 0;
  if (dl_is_aggregate(e) || e->eKind == SQL_EXPR_COLUMN) return dl_base(l, e);
  if (e->eKind == SQL_EXPR_FUNC && e->pWin != NULL) {
    sql_window *w = e->pWin;
    for (int i = 0; w->pPartition != NULL && i < w->pPartition->n; i++) {
      if (dl_walk(l, w->pPartition->a[i].pExpr) != 0) return -1;
    }
    for (int i = 0; w->pOrderBy != NULL && i < w->pOrderBy->n; i++) {
      if (dl_walk(l, w->pOrderBy->a[i].pExpr) != 0) return -1;
    }
  }
  if (e->eKind == SQL_EXPR_SUBQUERY || e->eKind == SQL_EXPR_EXISTS || (e->eKind == SQL_EXPR_IN && e->bSelect)) {
    sql_error_set(l->c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "a subquery beside window functions of a star query is not supported yet");
    return -1;
  }
  if (dl_walk(l, e->pLeft) != 0 || dl_walk(l, e->pRight) != 0) return -1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (dl_walk(l, e->pList->a[i].pExpr) != 0) return -1;
  }
  return 0;
}

/* Returns 1 if ORDER BY item e names an output column (an ordinal or an
** output name), which the SELECT over the star query resolves itself. */
int dag__order_output(const sql_select *s, const sql_expr *e) {
  if (e->eKind == SQL_EXPR_INTEGER) return 1;
  if (e->eKind != SQL_EXPR_COLUMN || e->zTable != NULL) return 0;
  for (int i = 0; i < s->pItems->n; i++) {
    if (s->pItems->a[i].zAlias != NULL && strcmp(s->pItems->a[i].zAlias, e->zName) == 0) return 1;
  }
  return 0;
}

sql_expr *dag__expr_copy(dag_ctx *c, const sql_expr *e) {
  sql_expr *x;
  if (e == NULL) return NULL;
  if ((x = arena_alloc(c->pArena, sizeof(sql_expr))) == NULL) return NULL;
  *x = *e;
  if ((e->pLeft != NULL && (x->pLeft = dag__expr_copy(c, e->pLeft)) == NULL) ||
      (e->pRight != NULL && (x->pRight = dag__expr_copy(c, e->pRight)) == NULL)) {
    return NULL;
  }
  if (e->pList != NULL) {
    sql_expr_list *l = arena_alloc(c->pArena, sizeof(sql_expr_list));
    if (l == NULL) return NULL;
    *l = *e->pList;
    if ((l->a = arena_alloc(c->pArena, sizeof(sql_expr_item) * (size_t)(l->n + 1))) == NULL) return NULL;
    for (int i = 0; i < l->n; i++) {
      l->a[i] = e->pList->a[i];
      if (e->pList->a[i].pExpr != NULL && (l->a[i].pExpr = dag__expr_copy(c, e->pList->a[i].pExpr)) == NULL) {
        return NULL;
      }
    }
    x->pList = l;
  }
  return x;
}

/* GROUP BY's ordinals and output names as the select items they name, so
** that the star query, whose select list differs, groups by the same. */
static int dl_group_by(dag_ctx *c, sql_select *s) {
  for (int i = 0; s->pGroupBy != NULL && i < s->pGroupBy->n; i++) {
    sql_expr *e = s->pGroupBy->a[i].pExpr;
    if (e->eKind == SQL_EXPR_INTEGER) {
      long v = strtol(e->zText, NULL, 10);
      if (v < 1 || v > s->pItems->n) {
        sql_error_set(c->pErr, SQLSTATE_INVALID_COLUMN_REF, e->iOffset,
                      "GROUP BY position %ld is not in select list", v);
        return -1;
      }
      if (dl_expr_has_window(s->pItems->a[v - 1].pExpr)) {
        sql_error_set(c->pErr, "42P20", e->iOffset, "window functions are not allowed in GROUP BY");
        return -1;
      }
      /* A copy: the select item's own nodes become the star's columns. */
      if ((s->pGroupBy->a[i].pExpr = dag__expr_copy(c, s->pItems->a[v - 1].pExpr)) == NULL) return dag__oom(c);
    } else if (e->eKind == SQL_EXPR_COLUMN && e->zTable == NULL && dag__order_output(s, e)) {
      sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                    "GROUP BY an output name beside window functions is not supported yet");
      return -1;
    }
  }
  return 0;
}

int dag__lift_windows(dag_ctx *c, sql_select *s) {
  sql_expr_list *pBase = arena_alloc(c->pArena, sizeof(sql_expr_list));
  dag_lift l;
  if (pBase == NULL) return dag__oom(c);
  memset(pBase, 0, sizeof(*pBase));
  memset(&l, 0, sizeof(l));
  l.c = c;
  l.pBase = pBase;
  for (int i = 0; i < s->pItems->n; i++) {
    if (s->pItems->a[i].pExpr->eKind == SQL_EXPR_STAR) {
      sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, s->pItems->a[i].pExpr->iOffset,
                    "* beside window functions of a star query is not supported yet");
      return -1;
    }
  }
  if (dl_group_by(c, s) != 0) return -1;
  /* Names first: the columns replacing base values must not rename them. */
  for (int i = 0; i < s->pItems->n; i++) {
    sql_expr_item *it = &s->pItems->a[i];
    if (it->zAlias == NULL && bind__colname(it->pExpr, &it->zAlias) == 0) it->zAlias = "?column?";
  }
  for (int i = 0; i < s->pItems->n; i++) {
    if (dl_walk(&l, s->pItems->a[i].pExpr) != 0) return -1;
  }
  for (int i = 0; s->pOrderBy != NULL && i < s->pOrderBy->n; i++) {
    if (!dag__order_output(s, s->pOrderBy->a[i].pExpr) && dl_walk(&l, s->pOrderBy->a[i].pExpr) != 0) {
      return -1;
    }
  }
  if (pBase->n == 0) {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, s->iOffset,
                  "window functions over no column of a star query are not supported yet");
    return -1;
  }
  /* The star query: FROM, WHERE, GROUP BY, HAVING and the base values. */
  if (dag__lift_star(c, s, pBase, s->pGroupBy, s->pHaving, DL_STAR) != 0) return -1;
  s->pGroupBy = NULL;
  s->pHaving = NULL;
  return 0;
}

int dag__lift_star(dag_ctx *c, sql_select *s, sql_expr_list *pItems, sql_expr_list *pGroupBy,
                   sql_expr *pHaving, const char *zAlias) {
  sql_select *pStar = arena_alloc(c->pArena, sizeof(sql_select));
  sql_src_list *pFrom = arena_alloc(c->pArena, sizeof(sql_src_list));
  sql_src_item *pItem = arena_alloc(c->pArena, sizeof(sql_src_item));
  if (pStar == NULL || pFrom == NULL || pItem == NULL) return dag__oom(c);
  memset(pStar, 0, sizeof(*pStar));
  pStar->eOp = SQL_SELECT_SIMPLE;
  pStar->iOffset = s->iOffset;
  pStar->pItems = pItems;
  pStar->pFrom = s->pFrom;
  pStar->pWhere = s->pWhere;
  pStar->pGroupBy = pGroupBy;
  pStar->pHaving = pHaving;
  pStar->nHeight = s->nHeight;
  /* The SELECT over it: the rest. */
  memset(pItem, 0, sizeof(*pItem));
  pItem->eKind = SQL_SRC_SUBQUERY;
  pItem->pSelect = pStar;
  pItem->zAlias = zAlias;
  pItem->iOffset = s->pFrom != NULL && s->pFrom->n > 0 ? s->pFrom->a[0].iOffset : s->iOffset;
  pFrom->n = pFrom->nAlloc = 1;
  pFrom->a = pItem;
  s->pFrom = pFrom;
  s->pWhere = NULL;
  return 0;
}
