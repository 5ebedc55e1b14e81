/*
** planner/dag_window.c — the window calls of a SELECT the host runs
** (dag_query.c), after its grouping and HAVING and before its select
** list: one HN_WINDOW node per call, each appending the call's value to
** the row, so that the select list and ORDER BY read it as a column.
** PARTITION BY, ORDER BY, the arguments and the frame's offsets are read
** from the row as it stands there (the groups' keys and aggregates after
** a GROUP BY: sum(sum(x)) OVER (...) is a window over an aggregate).
**
** INTERFACE ROUTINES (dagInt.h)
**   dag__windows
*/
#include <string.h>

#include "dagInt.h"

/* Which host function window call e is. */
static host_win_func dw_func(const sql_expr *e) {
  static const struct {
    const char *zName;
    host_win_func e;
  } aFunc[] = {{"row_number", HOST_WIN_ROW_NUMBER}, {"rank", HOST_WIN_RANK},
               {"dense_rank", HOST_WIN_DENSE_RANK}, {"percent_rank", HOST_WIN_PERCENT_RANK},
               {"cume_dist", HOST_WIN_CUME_DIST},   {"ntile", HOST_WIN_NTILE},
               {"lag", HOST_WIN_LAG},               {"lead", HOST_WIN_LEAD},
               {"first_value", HOST_WIN_FIRST_VALUE}, {"last_value", HOST_WIN_LAST_VALUE},
               {"nth_value", HOST_WIN_NTH_VALUE}};
  for (size_t i = 0; i < sizeof(aFunc) / sizeof(aFunc[0]); i++) {
    if (strcmp(e->zName, aFunc[i].zName) == 0) return aFunc[i].e;
  }
  return HOST_WIN_AGG;
}

static host_agg_func dw_agg(const sql_expr *e) {
  if (e->bStar) return HOST_AGG_COUNT_STAR;
  switch (e->zName[0]) {
    case 'c': return HOST_AGG_COUNT;
    case 's': return HOST_AGG_SUM;
    case 'a': return HOST_AGG_AVG;
    default: return strcmp(e->zName, "min") == 0 ? HOST_AGG_MIN : HOST_AGG_MAX;
  }
}

static host_frame_bound dw_bound(sql_frame_bound e) {
  switch (e) {
    case SQL_BOUND_UNBOUNDED_PRECEDING: return HOST_BOUND_UNBOUNDED_PRECEDING;
    case SQL_BOUND_PRECEDING: return HOST_BOUND_PRECEDING;
    case SQL_BOUND_FOLLOWING: return HOST_BOUND_FOLLOWING;
    case SQL_BOUND_UNBOUNDED_FOLLOWING: return HOST_BOUND_UNBOUNDED_FOLLOWING;
    default: return HOST_BOUND_CURRENT_ROW;
  }
}

/* The window call e as a node over pIn. */
static host_node *dw_node(dag_xlate *t, const sql_expr *e, host_node *pIn) {
  dag_ctx *c = t->c;
  const sql_window *w = e->pWin;
  int nPart = w->pPartition != NULL ? w->pPartition->n : 0;
  int nOrder = w->pOrderBy != NULL ? w->pOrderBy->n : 0;
  int nArg = e->pList != NULL ? e->pList->n : 0;
  host_node *n = dag__node_new(c, HN_WINDOW, pIn->nCol + 1);
  host_win *f;
  if (n == NULL || (f = arena_alloc(c->pArena, sizeof(host_win))) == NULL ||
      (n->apKey = arena_alloc(c->pArena, sizeof(host_expr *) * (size_t)(nPart + 1))) == NULL ||
      (n->aSort = arena_alloc(c->pArena, sizeof(host_sort) * (size_t)(nOrder + 1))) == NULL) {
    dag__oom(c);
    return NULL;
  }
  memcpy(n->aType, pIn->aType, sizeof(coltype) * (size_t)pIn->nCol);
  n->aType[pIn->nCol] = e->b.type;
  n->pLeft = pIn;
  n->rEst = pIn->rEst;
  n->nKey = nPart;
  n->nSort = nOrder;
  n->nWin = 1;
  n->aWin = f;
  memset(f, 0, sizeof(*f));
  memset(n->aSort, 0, sizeof(host_sort) * (size_t)(nOrder + 1));
  for (int i = 0; i < nPart; i++) {
    if ((n->apKey[i] = dag__expr(t, w->pPartition->a[i].pExpr)) == NULL) return NULL;
  }
  for (int i = 0; i < nOrder; i++) {
    const sql_expr_item *it = &w->pOrderBy->a[i];
    if ((n->aSort[i].pExpr = dag__expr(t, it->pExpr)) == NULL) return NULL;
    n->aSort[i].bDesc = it->bDesc;
    n->aSort[i].bNullsFirst = it->eNulls == SQL_NULLS_DEFAULT ? it->bDesc : it->eNulls == SQL_NULLS_FIRST;
  }
  f->eFunc = dw_func(e);
  f->type = e->b.type;
  f->nArg = nArg < 3 ? nArg : 3;
  for (int i = 0; i < f->nArg; i++) {
    if ((f->apArg[i] = dag__expr(t, e->pList->a[i].pExpr)) == NULL) return NULL;
  }
  if (f->eFunc == HOST_WIN_AGG) {
    f->agg.eFunc = dw_agg(e);
    f->agg.type = e->b.type;
    f->agg.nArg = f->nArg;
    f->agg.apArg[0] = f->apArg[0];
  }
  /* No frame clause: RANGE UNBOUNDED PRECEDING to CURRENT ROW. */
  f->eUnit = w->eUnit == SQL_FRAME_ROWS ? HOST_FRAME_ROWS : w->eUnit == SQL_FRAME_GROUPS ? HOST_FRAME_GROUPS
                                                                                       : HOST_FRAME_RANGE;
  f->eStart = w->eUnit == SQL_FRAME_NONE ? HOST_BOUND_UNBOUNDED_PRECEDING : dw_bound(w->eStart);
  f->eEnd = w->eUnit == SQL_FRAME_NONE ? HOST_BOUND_CURRENT_ROW : dw_bound(w->eEnd);
  if (w->pStart != NULL && (f->pStartOffset = dag__expr(t, w->pStart)) == NULL) return NULL;
  if (w->pEnd != NULL && (f->pEndOffset = dag__expr(t, w->pEnd)) == NULL) return NULL;
  return n;
}

/* Appends the window calls at or below e to t's list, each once. */
static int dw_collect(dag_xlate *t, const sql_expr *e, const sql_expr **ap, int nMax) {
  if (e == NULL) return 0;
  if (e->eKind == SQL_EXPR_FUNC && e->pWin != NULL) {
    for (int i = 0; i < t->nWin; i++) {
      if (ap[i] == e) return 0;
    }
    if (t->nWin == nMax) {
      sql_error_set(t->c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                    "more than %d window functions in one SELECT are not supported yet", nMax);
      return -1;
    }
    ap[t->nWin++] = e;
    return 0;
  }
  if (dw_collect(t, e->pLeft, ap, nMax) != 0 || dw_collect(t, e->pRight, ap, nMax) != 0) return -1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (dw_collect(t, e->pList->a[i].pExpr, ap, nMax) != 0) return -1;
  }
  return 0;
}

int dag__windows(dag_xlate *t, const bound_select *b, host_node **ppNode) {
  enum { DW_MAX = 64 };
  const sql_expr **ap = arena_alloc(t->c->pArena, sizeof(sql_expr *) * DW_MAX);
  int *aiCol = arena_alloc(t->c->pArena, sizeof(int) * DW_MAX);
  const sql_expr_list *o = b->pSelect->pOrderBy;
  int nFound;
  if (ap == NULL || aiCol == NULL) return dag__oom(t->c);
  t->nWin = 0;
  for (int i = 0; i < b->nOutput; i++) {
    if (dw_collect(t, b->pItems->a[i].pExpr, ap, DW_MAX) != 0) return -1;
  }
  for (int i = 0; o != NULL && i < o->n; i++) {
    if (dw_collect(t, o->a[i].pExpr, ap, DW_MAX) != 0) return -1;
  }
  nFound = t->nWin;
  /* Each node reads the row as it stands below it: the calls before it
  ** are not visible to it (a window call's arguments hold none). */
  t->nWin = 0;
  t->apWin = ap;
  t->aiWinCol = aiCol;
  for (int i = 0; i < nFound; i++) {
    host_node *n = dw_node(t, ap[i], *ppNode);
    if (n == NULL) return -1;
    aiCol[i] = (*ppNode)->nCol;
    *ppNode = n;
    t->nWin = i + 1;
  }
  return 0;
}
