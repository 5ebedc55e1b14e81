/*
** planner/bind.h — the binder: parse trees checked against the catalog.
**
** Binding resolves every name (tables, aliases, columns, select-list
** aliases in GROUP BY and ORDER BY, ordinals) and types every expression
** by PostgreSQL's rules, writing what it finds into each node's sql_bound
** (ast.h). A statement that binds is one the planner can plan; one that
** does not gets a PostgreSQL SQLSTATE and the position of the offending
** token, never a crash and never a silently different query.
**
** Typing rules (PostgreSQL's, with starq's fixed-width storage):
**   - SMALLINT, INTEGER, BIGINT widen to the wider operand; integer / and
**     % truncate toward zero. Integer op DECIMAL gives DECIMAL; anything
**     op DOUBLE gives DOUBLE. DECIMAL results keep precision <= 18
**     (+ - : max scale; * : sum of scales), or the expression is refused
**     with 0A000 rather than silently rounded.
**   - SUM of SMALLINT/INTEGER/BIGINT is BIGINT (PostgreSQL: BIGINT, and
**     NUMERIC for BIGINT; starq checks overflow at run time, 22003), SUM of
**     DECIMAL(p,s) is DECIMAL(18,s), SUM of DOUBLE is DOUBLE; AVG of
**     integers and DECIMAL is DOUBLE (PostgreSQL: NUMERIC); COUNT is
**     BIGINT; MIN and MAX keep their argument's type.
**   - Comparison needs comparable operands: numbers with numbers, strings
**     with strings, dates with dates; a string literal next to a DATE is
**     read as a date (22007/22008 if it is not one), as PostgreSQL reads
**     an unknown-typed literal. Anything else is 42883 ("operator does
**     not exist"), as PostgreSQL's operator resolution says.
**   - WHERE, HAVING, ON and CASE WHEN take BOOLEAN (42804 otherwise); LIKE
**     takes strings; aggregates are refused in WHERE, ON, GROUP BY and
**     inside other aggregates (42803); with GROUP BY or an aggregate, every
**     column outside an aggregate must be grouped (42803).
**
** INTERFACE ROUTINES
**   bind_select        bind a SELECT (also the one inside EXPLAIN)
**   bind_limits        a set operation's LIMIT and OFFSET
**   bind_select_env    bind a SELECT over derived tables and CTEs too
**   bind_create_table  a CREATE TABLE as a catalog definition
**   bind_copy          a COPY as a table and a checked file path
**   bind_math_func_name  is this a numeric function codegen computes?
*/
#ifndef STARQ_BIND_H
#define STARQ_BIND_H

#include "../catalog/catalog.h"
#include "../common/arena.h"
#include "../common/sqlerr.h"
#include "../parser/ast.h"

/* One table of a bound FROM clause. */
typedef struct bind_source bind_source;
struct bind_source {
  cat_table *pTable;       /* owned by the bound_select; freed by bind_select_free */
  const char *zAlias;      /* the name it is referred to by (alias or table name) */
};

/* An output column of a bound SELECT. */
typedef struct bind_output bind_output;
struct bind_output {
  const char *zName;       /* as PostgreSQL names it: alias, column name, or
                           ** the function name ("sum"), else "?column?" */
  coltype type;
};

/* A SELECT after binding: the AST (annotated in place) plus what the
** planner needs about it. Arrays live in the arena given to bind_select;
** the cat_tables are the bound_select's and freed by bind_select_free. */
typedef struct bound_select bound_select;
struct bound_select {
  sql_select *pSelect;
  int nSource;
  bind_source *aSource;    /* FROM items, in order */
  int nOutput;
  bind_output *aOutput;    /* after * expansion */
  sql_expr_list *pItems;   /* the select list with * expanded to columns */
  int nAgg;
  sql_expr **apAgg;        /* every aggregate call, sql_bound.iAgg indexes it */
  int bAggregate;          /* GROUP BY or an aggregate: one row per group */
  int64_t nLimit;          /* -1: none */
  int64_t nOffset;         /* 0: none */
};

/* Relations a SELECT's FROM may name besides the catalog's tables: the
** derived tables and CTEs that a statement's plan (dag.h) makes into
** pipelines or host results of their own. */
/* e->b.iSource of a column of an enclosing query's row (a correlated
** reference): e->b.iColumn is the subquery's parameter. */
#define BIND_SOURCE_OUTER (-2)

typedef struct bind_env bind_env;
struct bind_env {
  /* Called for each FROM item before the catalog is asked: returns 1 and
  ** sets *ppTable to the item's columns (a definition from
  ** cat_table_new, which the bound_select then owns) when the item is
  ** one of these relations; 0 when it is not (a subquery is then
  ** refused, a name looked up in the catalog); -1 with *pErr. */
  int (*xRelation)(void *pArg, const sql_src_item *pItem, cat_table **ppTable, sql_error *pErr);
  /* Called for a subquery used as an expression (scalar, EXISTS, IN):
  ** builds it, sets *pnCol to its width and aType[0..min(*pnCol, 8)) to
  ** its columns' types. NULL: such subqueries are refused (0A000).
  ** Returns 0, or -1 with *pErr. */
  int (*xSubquery)(void *pArg, sql_expr *e, int *pnCol, coltype *aType, sql_error *pErr);
  /* Called for a column name this SELECT's FROM does not have (NULL:
  ** none): returns 1 after binding e as a value of the enclosing query's
  ** row (e->b.iSource BIND_SOURCE_OUTER, e->b.iColumn its parameter), 0
  ** when the enclosing query lacks it too, -1 with *pErr. */
  int (*xOuter)(void *pArg, sql_expr *e, sql_error *pErr);
  void *pArg;
  int bOwnWith;            /* the SELECT's WITH is the caller's (its CTEs
                           ** are xRelation's): not refused */
  int bHostFuncs;          /* the host executor runs the query: a call the
                           ** binder's own functions lack is resolved in
                           ** func/'s registry (func_candidates) */
};

/* Binds pSelect against pCat, allocating from pArena. Returns 0, or -1 with
** *pErr set (42P01, 42703, 42702, 42712, 42804, 42803, 42P10, 42883,
** 22P02/22008 for literals, 0A000). Call bind_select_free() either way. */
int bind_select(cat *pCat, sql_select *pSelect, arena *pArena, bound_select *pOut,
                sql_error *pErr);
void bind_select_free(bound_select *p);

/* bind_select with the relations pEnv adds to the catalog's. FROM items
** pEnv resolves may be joined by LEFT, RIGHT and FULL JOIN ... ON as well
** (the host runs their joins). */
int bind_select_env(cat *pCat, sql_select *pSelect, arena *pArena, const bind_env *pEnv,
                    bound_select *pOut, sql_error *pErr);

/* Binds the LIMIT and OFFSET written on pSelect alone (a set operation's,
** over its whole result) into *pnLimit (-1: none) and *pnOffset (0:
** none). Returns 0, or -1 with *pErr as bind_select for those clauses. */
int bind_limits(cat *pCat, sql_select *pSelect, arena *pArena, int64_t *pnLimit, int64_t *pnOffset,
                sql_error *pErr);

/* Builds the catalog definition of a CREATE TABLE (the caller creates it
** with cat_table_create and frees it). Checks names (42701 duplicate
** column), types (42704 unknown, 22023 bad modifiers), keys (42P16) and
** references (42P01 unknown table, 42830 not its primary key, 42804 type
** differs). 42P07 if the table exists (unless IF NOT EXISTS: then *ppDef
** is NULL and 0 is returned). */
int bind_create_table(cat *pCat, const sql_create *pCreate, cat_table **ppDef,
                      sql_error *pErr);

/* Checks a COPY: the table exists (42P01), the options are valid (22023,
** 42601), and the path, resolved with realpath, lies inside zImportDir
** (42501 "must be below the import directory" otherwise, 58P01 if it does
** not exist). On success sets zPath (PATH_MAX bytes) to the resolved path. */
int bind_copy(cat *pCat, const sql_copy *pCopy, const char *zImportDir, char *zPath,
              sql_error *pErr);

/* 1 if zName is round, ceil, ceiling, floor, trunc, sqrt, power or pow:
** a bound call of one stays a call, which codegen computes. */
int bind_math_func_name(const char *zName);

#endif /* STARQ_BIND_H */
