/*
** planner/bindInt.h — what the binder's files share and nothing outside
** planner/ may use: the binding context, the name table of a FROM clause,
** and the routines one file of the binder calls in another.
**
** Files of the binder:
**   bind.c       bind_select: FROM (tables, aliases, ON), name resolution,
**                * expansion, the select list and its output names,
**                LIMIT/OFFSET
**   bind_expr.c  typing every expression kind; comparisons and coercion
**                of unknown-typed literals
**   bind_lit.c   literals: numbers, dates, booleans checked and typed;
**                constant folding for LIMIT and division by zero
**   bind_agg.c   aggregate calls, GROUP BY, ORDER BY, DISTINCT, and the
**                check that the select list, ORDER BY and HAVING use
**                ungrouped columns only inside aggregates
**   bind_ddl.c   bind_create_table, bind_copy
**   bind_func.c  scalar functions that are CASE or an operator in disguise
**   bind_unsupported.c  what the parser reads and starq does not run yet:
**                refused with 0A000 where the binder first meets it
**
** Error discipline: every routine that can fail records the first error on
** the context's sql_error (sql_error_set keeps the first) and returns -1;
** callers return -1 at once, so nothing after the first error is bound.
*/
#ifndef STARQ_BIND_INT_H
#define STARQ_BIND_INT_H

#include <stdint.h>

#include "bind.h"

/* The clause an expression is bound in. It decides whether aggregates are
** allowed there, and names the clause in 42803's message (bind_agg.c). */
typedef enum bind_clause {
  BIND_CLAUSE_SELECT = 1,
  BIND_CLAUSE_ON,
  BIND_CLAUSE_WHERE,
  BIND_CLAUSE_GROUP_BY,
  BIND_CLAUSE_HAVING,
  BIND_CLAUSE_ORDER_BY,
  BIND_CLAUSE_LIMIT,
  BIND_CLAUSE_OFFSET,
} bind_clause;

/* One column of a FROM table in the name table: columns are found by name
** through a small hash so that resolving a name costs one bucket walk, not
** a string compare against every column of every table. */
typedef struct bind_name bind_name;
struct bind_name {
  const char *zName;       /* the column's name; owned by its cat_table */
  uint32_t h;              /* bind__name_hash(zName) */
  int iSource;             /* FROM item */
  int iColumn;             /* ordinal in that item's table */
  int bUsingRight;         /* the right side's column of JOIN ... USING: found
                           ** qualified only (unqualified, the left's) */
  bind_name *pNext;        /* next entry of the same bucket */
};

#define BIND_NAME_BUCKETS 128   /* power of two; SSB's widest FROM has 58 columns */

/* Expressions nested deeper than this are refused (54001) rather than
** recursed into: the parser bounds nesting by SQL_DEPTH_MAX, and this is
** the binder's own guard against running off its stack. */
#define BIND_DEPTH_MAX 4000

/* The state of one bind_select(). Everything it allocates comes from
** pArena; the cat_tables it loads go into pOut->aSource at once, so that
** bind_select_free() releases them whatever happens. */
typedef struct bind_ctx bind_ctx;
struct bind_ctx {
  cat *pCat;
  arena *pArena;
  sql_error *pErr;
  bound_select *pOut;
  bind_name *apBucket[BIND_NAME_BUCKETS];
  int iScopeFirst;         /* FROM items a name may resolve to: */
  int iScopeLast;          /* [iScopeFirst, iScopeLast]; narrower in ON */
  bind_clause eClause;     /* the clause being bound */
  int nDepth;              /* bind__expr recursion depth */
  int nAggAlloc;           /* slots of pOut->apAgg */
  const bind_env *pEnv;    /* relations besides the catalog's, or NULL */
};

/* ---- bind.c ---------------------------------------------------------------- */
/* Returns the case-insensitive hash of a name. */
uint32_t bind__name_hash(const char *z);
/* Resolves column reference e (SQL_EXPR_COLUMN) against the FROM items in
** scope and sets e->b. Returns 0 or -1 (42703, 42702, 42P01). */
int bind__column(bind_ctx *p, sql_expr *e);
/* Returns 1 if an unqualified zName names a column of some FROM item. */
int bind__is_input_column(bind_ctx *p, const char *zName);
/* Names an output column as PostgreSQL's FigureColnameInternal does:
** sets *pzName and returns 2 for a column or function name, 1 for a type
** name or "case", 0 for nothing ("?column?"). */
int bind__colname(const sql_expr *e, const char **pzName);
/* Returns a copy of z in the arena, or NULL after recording 53200. */
char *bind__strdup(bind_ctx *p, const char *z);
/* Records 53200 and returns -1. */
int bind__oom(bind_ctx *p);

/* ---- bind_subquery.c ------------------------------------------------------- */
/* Binds subquery expression e (scalar, EXISTS, IN (SELECT ...)) through
** the environment's xSubquery, or refuses it (0A000) without one.
** Returns 0 or -1. */
int bind__subquery(bind_ctx *p, sql_expr *e);

/* ---- bind_window.c --------------------------------------------------------- */
/* Binds and types window call e (e->pWin set, its arguments bound), in a
** SELECT bound with an environment. Returns 0 or -1. */
int bind__window(bind_ctx *p, sql_expr *e);

/* ---- bind_expr.c ----------------------------------------------------------- */
/* Returns 1 if values of types a and b compare with = (one family). */
int bind__comparable(coltype a, coltype b);
/* Binds and types e and everything below it. Returns 0 or -1. */
int bind__expr(bind_ctx *p, sql_expr *e);
/* Binds e as a condition of clause zWhat ("WHERE", "HAVING", "JOIN/ON"):
** it must be BOOLEAN (an unknown literal becomes one). Returns 0 or -1. */
int bind__condition(bind_ctx *p, sql_expr *e, const char *zWhat);
/* Types binary operator node e whose operands are bound (comparisons,
** arithmetic, AND, OR). Returns 0 or -1. */
int bind__binary_typed(bind_ctx *p, sql_expr *e);
/* Returns PostgreSQL's name of e's type ("integer", "character varying"),
** "unknown" for a string or NULL literal. */
const char *bind__type_name(const sql_expr *e);
/* PostgreSQL's name of type t, without modifiers. */
const char *bind__coltype_name(coltype t);
/* Unifies the types of a[0..n) (NULL entries skipped) as CASE does, into
** *pt, coercing unknown literals to the result. zWhat names the construct
** in "CASE types integer and text cannot be matched". Returns 0 or -1. */
int bind__unify(bind_ctx *p, sql_expr **a, int n, const char *zWhat, coltype *pt);

/* ---- bind_lit.c ------------------------------------------------------------ */
/* Types a numeric literal (SQL_EXPR_INTEGER or SQL_EXPR_DECIMAL). */
int bind__number(bind_ctx *p, sql_expr *e);
/* Checks DATE 'text' and rewrites its text as YYYY-MM-DD. */
int bind__date(bind_ctx *p, sql_expr *e);
/* Gives unknown literal e (a string or NULL literal) type t, checking a
** string's text against t and rewriting the node as a literal of t (a
** DATE, INTEGER, DECIMAL or BOOL node). Returns 0 or -1 (22P02, 22007,
** 22008, 22003). */
int bind__literal_coerce(bind_ctx *p, sql_expr *e, coltype t);
/* Returns 1 if e is a literal whose type is still open: a string or NULL. */
int bind__is_unknown(const sql_expr *e);

/* ---- bind_array.c ---------------------------------------------------------- */
/* Binds x[i] (bind__subscript) and a op ANY|ALL (array) (bind__any_array)
** in a host query: the element's type, or boolean. Elsewhere, or for a
** slice, a subquery or an array written as a string, 0A000. Returns 0 or
** -1 (42804 no array or no integer subscript, 42809, 42883). */
int bind__subscript(bind_ctx *p, sql_expr *e);
int bind__any_array(bind_ctx *p, sql_expr *e);

/* bind_reg.c: 1 for oid and the object identifier types; bind__reg_cast
** binds cast e (its operand bound) to one of them in a host query: 0, or
** -1 with the error set; 1 when e is no such cast, which bind_cast binds. */
int bind__is_oid_type(coltype_id e);
/* Reads string literal a as a value of oid type t in a host query, now
** (an unknown name fails at a's position), and leaves it the oid's digits
** of type t. Returns 0 (also for what is no such literal), or -1. */
int bind__reg_literal(bind_ctx *p, sql_expr *a, coltype t);
int bind__reg_cast(bind_ctx *p, sql_expr *e);
/* Evaluates constant numeric expression e as a double. Returns 1 and sets
** *pr if it can (a NULL anywhere, a non-number: 0). */
int bind__const_double(const sql_expr *e, double *pr);
/* Evaluates constant integer expression e (literals, + - * / %, unary
** minus, casts). Returns 1 and sets *pv, 0 if it is NULL, or -1 with 22003
** (overflow), 22012 or 0A000 (a construct it does not evaluate) recorded. */
int bind__const_int(bind_ctx *p, const sql_expr *e, int64_t *pv);

/* ---- bind_agg.c ------------------------------------------------------------ */
/* Binds a function call whose arguments are bound: an aggregate (sum,
** count, min, max, avg) or 42883. Returns 0 or -1. */
int bind__func(bind_ctx *p, sql_expr *e);
/* bind_chain.c: rewrites e, a long OR chain of column = literal (AND of
** column <> literal) on one column, as column [NOT] IN (literals), not yet
** bound. Returns 1 if it did, 0 if e is no such chain, -1 (53200). */
int bind__chain_to_in(bind_ctx *p, sql_expr *e);
/* Returns 1 if a and b are the same expression (as PostgreSQL's equal()
** sees bound trees: positions ignored). */
int bind__expr_equal(const sql_expr *a, const sql_expr *b);
/* Returns the first aggregate call at or below e, or NULL. */
sql_expr *bind__first_agg(sql_expr *e);
/* Binds ORDER BY: ordinals and output-column names refer to the select
** list (PostgreSQL's SQL92 rules), anything else is an expression that
** may hold aggregates. Returns 0 or -1. */
int bind__order_by(bind_ctx *p, sql_select *pSel);
/* Binds GROUP BY: ordinals, then input columns before output names,
** then expressions; no aggregates. Returns 0 or -1. */
int bind__group_by(bind_ctx *p, sql_select *pSel);
/* For SELECT DISTINCT, checks that each ORDER BY expression is in the
** select list (42P10). Returns 0 or -1. */
int bind__distinct(bind_ctx *p, sql_select *pSel);
/* Checks that the select list, ORDER BY and HAVING of an aggregating
** query use columns only inside aggregates or as (parts of) GROUP BY
** expressions, or columns of a table whose primary key is grouped
** (42803). Returns 0 or -1. */
int bind__grouping_check(bind_ctx *p, sql_select *pSel);

/* ---- bind_func.c ----------------------------------------------------------- */
/* Rewrites call e (arguments bound) of coalesce, nullif, greatest, least,
** abs or mod in place into the CASE or operator it means, or types a call
** of a string function (bind__string_func_name). Returns 0, -1 with the
** error set, or 1 if e is none of them. */
int bind__scalar_func(bind_ctx *p, sql_expr *e);
/* 1 if zName is a string function bind__scalar_func types (upper,
** substring, btrim, position ...), which the planner answers over a
** dictionary (dictfunc.c). */
int bind__string_func_name(const char *zName);
/* Binds call e against func/'s registry (func_candidates): the first
** scalar overload whose arguments are e's types or unknown literals
** (which take the overload's type); sets e->b.pFunc. For a host query
** only (bind_env.bHostFuncs). Returns 0, -1 with the error set (0A000
** for an overload the host cannot call), or 1 if none fits. */
int bind__registry_func(bind_ctx *p, sql_expr *e);
/* 1 if a call to zName can only be a host query's (bind__registry_func):
** the registry has a scalar of that name the host can call, and the
** binder's own functions (string, math, aggregates ...) do not. */
int bind_func_is_registry_only(const char *zName);

/* ---- bind_unsupported.c ---------------------------------------------------- */
/* Each returns 0 if what it is given is something the binder binds, or -1
** with 0A000 "... is not supported yet" (or PostgreSQL's error for a
** schema that has no such operator) recorded at the construct. */
/* Set operations, VALUES, WITH, DISTINCT ON, WINDOW, WITH TIES. */
int bind__refuse_query(bind_ctx *p, const sql_select *s);
/* Subqueries, functions and joins in FROM, outer, CROSS and NATURAL joins,
** USING, column alias lists. */
int bind__refuse_source(bind_ctx *p, const sql_src_item *pItem);
/* The expression kinds, operators, casts and call clauses starq does not
** run; called by bind_expr.c as it meets each node. */
int bind__refuse_expr(bind_ctx *p, const sql_expr *e);
/* Writes PostgreSQL's name of type t (with [] when nArrayDim > 0) into
** z[0..n) and returns z. */
const char *bind__type_text(coltype t, int nArrayDim, char *z, size_t n);

#endif /* STARQ_BIND_INT_H */
