/*
** planner/dagInt.h — what the DAG's files share (dag.h):
**
**   dag.c        the interface, pipelines, set operations, ORDER BY and
**                LIMIT over them, estimates
**   dag_query.c  a SELECT over derived tables and CTEs: its host tail
**   dag_expr.c   a bound expression as a host expression
**   dag_distinct.c  aggregates of DISTINCT arguments: a star query keyed by
**                them too, folded on the host
**   dag_lift.c   a star query's windows split off to the host
**   dag_gset.c   a star query split around grouping sets and WHERE's
**                subqueries: the finest grouping on the device
**   dag_semi.c   WHERE's subqueries decorrelated (semi, anti, grouped joins)
**   dag_window.c window calls as HN_WINDOW nodes
**   dag_wname.c  named windows (WINDOW w AS ...) resolved in the parse tree
**   dag_snow.c   conditions between two dimensions (snowflakes): the host's
**                joins
**   dag_series.c generate_series in a host query's FROM
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
/* A copy of tree e (its operands and lists; windows and subqueries are
** not copied: GROUP BY has none), or NULL out of memory. */
sql_expr *dag__expr_copy(dag_ctx *c, const sql_expr *e);
/* Returns 1 if ORDER BY item e of s names an output column (an ordinal or
** an output name), which a SELECT over a lifted star query resolves
** itself. */
int dag__order_output(const sql_select *s, const sql_expr *e);
/* Makes s's FROM and WHERE, with pItems, pGroupBy and pHaving, a star
** query read by s as derived table zAlias (s's FROM; its WHERE gone).
** Returns 0 or -1. */
int dag__lift_star(dag_ctx *c, sql_select *s, sql_expr_list *pItems, sql_expr_list *pGroupBy,
                   sql_expr *pHaving, const char *zAlias);

/* ---- dag_gset.c ----------------------------------------------------------------- */
/* 1 if SIMPLE SELECT s groups by sets (ROLLUP, CUBE, GROUPING SETS, (a, b),
** ()) or calls grouping(). */
int dag__has_group_sets(const sql_select *s);
/* 1 if SIMPLE SELECT s groups by sets, has a subquery in WHERE or a
** decorrelated scalar subquery in FROM. */
int dag__needs_split(const sql_select *s);
/* Splits s, which reads only tables, into a star query grouping by the
** finest set (a derived table in its FROM) and, over it, the sets rolled
** up and WHERE's subquery conjuncts. Returns 0 or -1. */
int dag__lift_split(dag_ctx *c, sql_select *s);

/* ---- dag_semi.c ----------------------------------------------------------------- */
/* The names of the derived tables a correlated scalar subquery becomes
** ("?sq0", ...): not names SQL text can write unquoted. */
#define DAG_SQ_PREFIX "?sq"
/* 1 if e reads a column of such a derived table. */
int dag__is_sq_column(const sql_expr *e);
/* 1 if e holds a subquery (scalar, EXISTS, IN, ANY, ARRAY). */
int dag__is_subquery_expr(const sql_expr *e);
/* 1 if SIMPLE SELECT s has a subquery in its WHERE. */
int dag__has_where_subquery(const sql_select *s);
/* Rewrites s's WHERE conjuncts [NOT] EXISTS with one correlating equality
** into [NOT] IN of an uncorrelated DISTINCT subquery (semi and anti
** joins), makes IN subqueries DISTINCT, and joins a correlated scalar
** subquery compared with as a grouped derived table ("?sqN", appended to
** s's FROM). Returns 0 or -1. */
int dag__decorrelate(dag_ctx *c, sql_select *s);
/* 1 if FROM list f has an item named z (its alias, or its table's name). */
int dag__from_names(const sql_src_list *f, const char *z);
/* Reads the catalog's definition of each plain table of f into a[i]
** (NULL for an item that is not one); dag__tables_free frees them. */
void dag__tables_get(cat *pCat, const sql_src_list *f, cat_table **a);
void dag__tables_free(const sql_src_list *f, cat_table **a);
/* 1 if FROM list f (its tables a) has a column named z, 0 if not, -1 if
** that cannot be told (an item that is not a table of the catalog). */
int dag__from_has_column(const sql_src_list *f, cat_table **a, const char *z);
/* A new node of kind eKind at iOffset, all else zero, or NULL (53200). */
sql_expr *dag__expr_new(dag_ctx *c, sql_expr_kind eKind, int iOffset);
/* a AND b (either may be NULL), or NULL out of memory (recorded). */
sql_expr *dag__and(dag_ctx *c, sql_expr *a, sql_expr *b);
/* Appends the conjuncts of e (its top-level ANDs) to *papOut. */
int dag__conjuncts(dag_ctx *c, sql_expr *e, sql_expr ***papOut, int *pn);

/* ---- dag_distinct.c ------------------------------------------------------------- */
/* 1 if SIMPLE SELECT s, reading tables, has an aggregate the host
** finishes (over DISTINCT arguments; a variance, stddev, bit_and or
** bit_or) in its select list, HAVING or ORDER BY. */
int dag__has_host_agg(const sql_select *s);
/* Splits such an s into a star query grouped by its keys and each
** DISTINCT argument (a derived table in its FROM) and the aggregation
** over it. Returns 0 or -1 (the binder's errors; 0A000). */
int dag__lift_distinct(dag_ctx *c, sql_select *s);

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

/* ---- dag_snow.c ----------------------------------------------------------------- */
/* 1 if SIMPLE SELECT s has a condition between two of its dimensions (in
** WHERE or an inner join's ON), which the star core cannot run. */
int dag__has_cross_dim(dag_ctx *c, const sql_select *s);
/* 1 if conjunct e reads columns of two or more items of f (tables a),
** none a fact table; 0 if not; -1 out of memory. */
int dag__is_cross_dim(dag_ctx *c, const sql_src_list *f, cat_table **a, const sql_expr *e);

/* ---- dag_wname.c ---------------------------------------------------------------- */
/* Replaces SIMPLE SELECT s's references to named windows (OVER w, OVER (w
** ...)) by the windows they mean and drops its WINDOW clause. Returns 0,
** or -1 with PostgreSQL's 42704 / 42P20. */
int dag__name_windows(dag_ctx *c, sql_select *s);

/* ---- dag_window.c --------------------------------------------------------------- */
/* Computes the window calls of b's select list and ORDER BY over *ppNode
** (one HN_WINDOW node each, their values appended to the row), records
** their columns in t, and sets *ppNode to the last. Returns 0 or -1. */
int dag__windows(dag_xlate *t, const bound_select *b, host_node **ppNode);

#endif /* STARQ_PLAN_DAG_INT_H */
