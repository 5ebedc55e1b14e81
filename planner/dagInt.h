/*
** planner/dagInt.h — what the DAG's files share (dag.h):
**
**   dag.c        the interface, pipelines, set operations, ORDER BY and
**                LIMIT over them, estimates
**   dag_query.c  a SELECT over derived tables and CTEs: its host tail
**   dag_expr.c   a bound expression as a host expression
*/
#ifndef STARQ_PLAN_DAG_INT_H
#define STARQ_PLAN_DAG_INT_H

#include "bindInt.h"
#include "dag.h"

typedef struct dag_scope dag_scope;

/* What building a DAG carries. */
/* The enclosing query of a subquery being built, whose columns the
** subquery may name (a correlated reference): apParam[i] is the column
** bound in the enclosing query, the subplan's parameter i. */
typedef struct dag_outer dag_outer;
struct dag_outer {
  const void *pFrom;       /* the enclosing SELECT's FROM (dag_query.c) */
  int nParam;
  sql_expr **apParam;
};

typedef struct dag_ctx dag_ctx;
struct dag_ctx {
  cat *pCat;
  arena *pArena;
  sql_error *pErr;
  plan_dag *pDag;
  int nPipeAlloc;
  host_plan *pTail;
  dag_scope *pScope;       /* the CTEs in scope, innermost first */
  int nSub;                /* subqueries used as expressions, built */
  const sql_expr **apSubExpr;  /* [i]: the expression (SUBQUERY, EXISTS,
                           ** IN) of subplan pTail->apSub[i] */
  dag_outer **apSubOuter;  /* [i]: its parameters, or NULL */
  dag_outer *pOuter;       /* the query enclosing the one being built */
};

/* What a subtree of the tail makes: its node and its columns' names. */
typedef struct dag_rel dag_rel;
struct dag_rel {
  host_node *pNode;
  bind_output *aOut;       /* names (the leftmost operand's) and types */
  sql_select *pFirst;      /* its leftmost SIMPLE SELECT (error positions) */
};

/* Records 53200 and returns -1. */
int dag__oom(dag_ctx *c);
/* A new node of the tail (its aType allocated, unset), or NULL. */
host_node *dag__node_new(dag_ctx *c, host_node_kind e, int nCol);
/* Column iCol of the input row, of type t, or NULL. */
host_expr *dag__expr_col(dag_ctx *c, int iCol, coltype t);
/* Builds query s (any kind) into *pOut. Returns 0 or -1. */
int dag__rel_build(dag_ctx *c, sql_select *s, dag_rel *pOut);
/* A bound_select for a host query, freed with the DAG, or NULL (53200). */
bound_select *dag__bound_new(dag_ctx *c);
/* Where e starts as PostgreSQL's exprLocation places it. */
int dag__expr_start(const sql_expr *e);

/* ---- dag_query.c ---------------------------------------------------------------- */
/* 1 if SIMPLE SELECT s reads a derived table or a CTE, or has a WITH: the
** host runs its own clauses. */
int dag__is_host_query(const dag_ctx *c, const sql_select *s);
/* Builds such a SELECT into *pOut. Returns 0 or -1. */
int dag__host_query(dag_ctx *c, sql_select *s, dag_rel *pOut);
/* Builds set operation s, whose WITH's CTEs its operands may read, into
** *pOut. Returns 0 or -1. */
int dag__with_setop(dag_ctx *c, sql_select *s, dag_rel *pOut);

/* ---- dag_lift.c ----------------------------------------------------------------- */
/* 1 if SIMPLE SELECT s calls a window function in its select list or
** ORDER BY. */
int dag__has_window(const sql_select *s);
/* Splits s, which reads only tables, into a star query (a derived table
** in its FROM) and the windows and the rest over it. Returns 0 or -1. */
int dag__lift_windows(dag_ctx *c, sql_select *s);

/* ---- dag_expr.c ----------------------------------------------------------------- */
/* The subplan built for subquery expression e, or NULL. */
host_subplan *dag__subplan_of(const dag_ctx *c, const sql_expr *e);
/* How a bound expression's columns reach the host row. Before grouping, a
** column of FROM item i is column aOff[i] + its ordinal; after it (bPost),
** an expression equal to GROUP BY item k is column k and aggregate j is
** column nKey + j. */
typedef struct dag_xlate dag_xlate;
struct dag_xlate {
  dag_ctx *c;
  const bound_select *b;
  const int *aOff;
  int bPost;
  const sql_expr_list *pGroup;
  int nKey;
  int nWin;                /* window calls computed: apWin[i] is column */
  const sql_expr **apWin;  /* aiWinCol[i] of the row */
  int *aiWinCol;
};
/* e as a host expression, or NULL with the error recorded. */
host_expr *dag__expr(dag_xlate *t, const sql_expr *e);

/* ---- dag_series.c --------------------------------------------------------------- */
/* 1 if FROM item it is generate_series(...), which the host runs. */
int dag__is_series(const sql_src_item *it);
/* Builds it into *pOut (one column). Returns 0 or -1. */
int dag__series_build(dag_ctx *c, const sql_src_item *it, dag_rel *pOut);

/* ---- dag_window.c --------------------------------------------------------------- */
/* Computes the window calls of b's select list and ORDER BY over *ppNode
** (one HN_WINDOW node each, their values appended to the row), records
** their columns in t, and sets *ppNode to the last. Returns 0 or -1. */
int dag__windows(dag_xlate *t, const bound_select *b, host_node **ppNode);

#endif /* STARQ_PLAN_DAG_INT_H */
