/*
** parser/walk.c — visiting the nodes of a parse tree, for the stages that
** read expressions after the parse: the planner (which columns a
** predicate reads, how many bytes a row of them takes, their runs) and
** codegen (the column loads a kernel needs before an expression).
**
** A walk follows the tree as ast.h builds it (pLeft, pRight, then pList
** in order), so every node below an expression of the kinds the binder
** binds is reached, whatever its kind: a new kind with children in those
** fields needs nothing here. It does not enter what only the kinds the
** binder refuses hold (a subquery, a window, a FILTER, an aggregate's
** ORDER BY): the planner and codegen never see those. It recurses: a tree
** is never deeper than SQL_DEPTH_MAX (ast.h, nHeight).
**
** INTERFACE ROUTINES
**   sql_expr_walk_columns   calls back for every COLUMN node of a tree
*/
#include "parser.h"

void sql_expr_walk_columns(const sql_expr *e, sql_column_cb xColumn, void *pArg) {
  if (e == NULL) return;
  if (e->eKind == SQL_EXPR_COLUMN) {
    xColumn(pArg, e);
    return;
  }
  sql_expr_walk_columns(e->pLeft, xColumn, pArg);
  sql_expr_walk_columns(e->pRight, xColumn, pArg);
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    sql_expr_walk_columns(e->pList->a[i].pExpr, xColumn, pArg);
  }
}
