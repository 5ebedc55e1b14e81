/*
** planner/dag_wname.c — named windows: the WINDOW clause (WINDOW w AS
** (PARTITION BY ...), v AS (w ORDER BY ...)) and the calls that name its
** windows (OVER w, OVER (w ORDER BY ... ROWS ...)).
**
** Each reference is replaced in the parse tree by the window it means, by
** PostgreSQL's rules (transformWindowDefinitions): OVER w is w itself;
** OVER (w ...) and AS (w ...) copy w's PARTITION BY and ORDER BY and add
** their own ORDER BY and frame, and may not override w's PARTITION BY,
** add an ORDER BY where w has one, or copy a w that has a frame. Then the
** clause is dropped, and the windows are the anonymous ones every later
** stage knows (bind_window.c, dag_window.c, dag_lift.c).
**
** INTERFACE ROUTINES (dagInt.h)
**   dag__name_windows
*/
#include <string.h>

#include "dagInt.h"

/* The window of s's WINDOW clause named zName among its first n, or NULL. */
static sql_window *dw_find(const sql_select *s, int n, const char *zName) {
  for (int i = 0; i < n; i++) {
    if (strcmp(s->pWindows->a[i]->zName, zName) == 0) return s->pWindows->a[i];
  }
  return NULL;
}

/* Resolves window w (a call's, or definition n of the clause) against
** the first n definitions, in place. Returns 0 or -1. */
static int dw_resolve(dag_ctx *c, const sql_select *s, int n, sql_window *w) {
  const char *zName = w->zRef != NULL ? w->zRef : w->zBase;
  const sql_window *b;
  if (zName == NULL) return 0;
  if ((b = dw_find(s, n, zName)) == NULL) {
    sql_error_set(c->pErr, "42704", w->iOffset, "window \"%s\" does not exist", zName);
    return -1;
  }
  if (w->zRef != NULL) {
    /* OVER w: w as defined (its own name aside). */
    int iOffset = w->iOffset;
    *w = *b;
    w->zName = NULL;
    w->iOffset = iOffset;
    return 0;
  }
  if (w->pPartition != NULL) {
    sql_error_set(c->pErr, "42P20", w->iOffset,
                  "cannot override PARTITION BY clause of window \"%s\"", zName);
    return -1;
  }
  if (w->pOrderBy != NULL && b->pOrderBy != NULL) {
    sql_error_set(c->pErr, "42P20", w->iOffset,
                  "cannot override ORDER BY clause of window \"%s\"", zName);
    return -1;
  }
  if (b->eUnit != SQL_FRAME_NONE) {
    sql_error_set(c->pErr, "42P20", w->iOffset, "cannot copy window \"%s\" because it has a frame clause",
                  zName);
    return -1;
  }
  w->pPartition = b->pPartition;
  if (w->pOrderBy == NULL) w->pOrderBy = b->pOrderBy;
  w->zBase = NULL;
  return 0;
}

static int dw_walk(dag_ctx *c, const sql_select *s, sql_expr *e) {
  if (e == NULL) return 0;
  if (e->eKind == SQL_EXPR_FUNC && e->pWin != NULL) {
    if (e->pWin->zRef != NULL || e->pWin->zBase != NULL) {
      /* A copy: a definition is shared by every call naming it. */
      sql_window *w = arena_alloc(c->pArena, sizeof(sql_window));
      if (w == NULL) return dag__oom(c);
      *w = *e->pWin;
      e->pWin = w;
      if (dw_resolve(c, s, s->pWindows != NULL ? s->pWindows->n : 0, w) != 0) return -1;
    }
  }
  if (dw_walk(c, s, e->pLeft) != 0 || dw_walk(c, s, e->pRight) != 0) return -1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (dw_walk(c, s, e->pList->a[i].pExpr) != 0) return -1;
  }
  return 0;
}

int dag__name_windows(dag_ctx *c, sql_select *s) {
  int n = s->pWindows != NULL ? s->pWindows->n : 0;
  for (int i = 0; i < n; i++) {
    sql_window *w = s->pWindows->a[i];
    if (dw_find(s, i, w->zName) != NULL) {
      sql_error_set(c->pErr, "42P20", w->iOffset, "window \"%s\" is already defined", w->zName);
      return -1;
    }
    if (dw_resolve(c, s, i, w) != 0) return -1;
  }
  for (int i = 0; i < s->pItems->n; i++) {
    if (dw_walk(c, s, s->pItems->a[i].pExpr) != 0) return -1;
  }
  for (int i = 0; s->pOrderBy != NULL && i < s->pOrderBy->n; i++) {
    if (dw_walk(c, s, s->pOrderBy->a[i].pExpr) != 0) return -1;
  }
  s->pWindows = NULL;
  return 0;
}
