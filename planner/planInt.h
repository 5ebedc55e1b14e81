/*
** planner/planInt.h — what the planner's files share: the per-table state
** of one plan_build() and the routines one file calls in another.
**
** Files of the planner (after the binder):
**   plan.c      plan_build: the steps in order, the SCAN's conditions and
**               the estimates that tie them together
**   shape.c     conjuncts, join edges, the star (or hash-join) shape and
**               each dimension's lookup structure
**   estimate.c  selectivity of a predicate from catalog statistics
**   codeset.c   a predicate on a dictionary column evaluated over the
**               dictionary: the codes that pass, exact selectivity
**   grouping.c  group keys, aggregates, state layout, groupby_input
**   explain.c   plan_explain
**   predorder.c, groupby.c  the pure decision modules they feed
*/
#ifndef STARQ_PLAN_INT_H
#define STARQ_PLAN_INT_H

#include "../storage/stats.h"
#include "../storage/store.h"
#include "plan.h"

/* The state of one plan_build(). */
typedef struct plan_ctx plan_ctx;
struct plan_ctx {
  cat *pCat;
  arena *pArena;
  sql_error *pErr;
  plan *p;
};

/* Records 53200 and returns -1, for `return plan__oom(c);`. */
int plan__oom(plan_ctx *c);

/* Statistics of column iCol of FROM item s, or NULL with *pErr set. */
const col_stats *plan__stats(plan_ctx *c, int s, int iCol);

/* The dictionary of string column iCol of FROM item s, or NULL with *pErr set. */
const store_dict *plan__dict(plan_ctx *c, int s, int iCol);

/* The FROM items the columns below e read, one bit each (plan_build
** refuses more than 64 items first). */
typedef uint64_t plan_mask;
plan_mask plan__sources(const sql_expr *e);

/* Calls xVisit(c, e) for every expression the kernels compute (select
** list, ORDER BY, GROUP BY, HAVING, conditions; with bSkipCoded not the
** conditions a code set answers whole); stops at a nonzero return and
** returns it. e may be NULL (no HAVING). */
int plan__each_expr(plan_ctx *c, int bSkipCoded, int (*xVisit)(plan_ctx *, const sql_expr *));

/* ---- shape.c ---- */
int plan__shape(plan_ctx *c);
/* Gives each dimension's lookup its semi-join bits or none, once the
** columns' uses are known (a date map's bits depend on its payload). */
void plan__shape_bits(plan *p);

/* ---- estimate.c ---- */
/* Estimates the fraction of FROM item s's rows for which predicate e (it
** reads s only) is true. Never fails: unknowns get default guesses. */
double plan__selectivity(plan_ctx *c, int s, const sql_expr *e, plan_est *peEst);

/* ---- codeset.c ---- */
/* If pred reads one dictionary column and nothing else but constants, in
** forms the dictionary can answer (comparisons, BETWEEN, IN, LIKE, AND, OR,
** NOT), fills pred->pCodes and pred->iDictCol, sets its exact selectivity
** and returns 1; returns 0 if the form does not apply, -1 on error. */
int plan__codeset(plan_ctx *c, plan_pred *pred);
/* Fills plan.aExprSet: every largest boolean subtree of the query's other
** expressions (outputs, HAVING, ORDER BY, GROUP BY, conditions without a
** code set) that reads one dictionary column and constants only, in the
** forms plan__codeset takes. Returns 0 or -1. */
int plan__exprsets(plan_ctx *c);

/* ---- dictfunc.c ---- */
/* A term's value for one dictionary string: a string (s) or, with bInt, an
** integer (i); bNull: NULL. The caller owns s (strbuf_init/free). */
typedef struct plan_term plan_term;
struct plan_term {
  int bNull;
  int bInt;
  int64_t i;
  strbuf s;
};
/* 1 if e is a term: string column (s, col) (set from the first column
** seen; -1 before) or a string function of a term with constant
** arguments, which the host evaluates per dictionary string. */
int plan__term_ok(const sql_expr *e, int *ps, int *pcol);
/* Sets *o to term e's value where its column holds z[0..n) (NULL where z
** is NULL). Returns 0, or -1 when memory ran out. */
int plan__term_eval(const sql_expr *e, const char *z, size_t n, plan_term *o);
/* 1 if call e is a function plan__term_apply computes. */
int plan__term_known(const sql_expr *e);
/* Appends to o (reset by the caller) call e's function of the string
** z[0..n), its other arguments e's constants. */
void plan__term_apply(const sql_expr *e, const char *z, size_t n, plan_term *o);
/* Bytes of the UTF-8 character at z (at most n); the byte offset of
** character k (0-based, clamped to n) of z[0..n). */
size_t plan__utf8_len(const char *z, size_t n);
size_t plan__utf8_offset(const char *z, size_t n, int64_t k);

/* ---- strval.c ---- */
/* Makes the string maps of the select list, ORDER BY and GROUP BY; their
** entries point at their strings until plan__strmaps_resolve. */
int plan__strmaps(plan_ctx *c);
/* The maps' strings into az (NULL: only counted); returns their count. */
int plan__strmaps_strings(const plan *p, const char **az);
/* Turns the maps' entries into indexes of the (built) string table. */
void plan__strmaps_resolve(plan *p);

/* ---- valmap.c ---- */
/* Fills plan.aValMap for the date functions of the query's expressions. */
int plan__valmaps(plan_ctx *c);
/* A zeroed place for a new map at plan.aValMap[nValMap], which the caller
** increments once it is filled; NULL (53200 set) when memory ran out. */
plan_valmap *plan__valmap_slot(plan_ctx *c);

/* ---- strtab.c ---- */
/* Builds plan.azStr from the select list, ORDER BY and GROUP BY. */
int plan__strtab(plan_ctx *c);

/* ---- grouping.c ---- */
int plan__grouping(plan_ctx *c);

/* Bytes per row a predicate's columns take in the kernels. */
int plan__pred_bytes(plan_ctx *c, const sql_expr *e);

/* Bytes a row of column iCol of FROM item s moves when scanned: its type's
** width, or less for a FOR-bitpacked column (rounded up). */
int plan__col_row_bytes(const plan *p, int s, int iCol);

#endif /* STARQ_PLAN_INT_H */
