/*
** host/hostInt.h — what the host executor's files share: the state of one
** run, and the routines one file calls in another.
**
**   run.c      host_run: the dispatcher over nodes, memory, shared
**              results, subplans and their parameters
**   value.c    values: order, equality, hashing, text out and in, casts
**   expr.c     evaluating a host_expr over a row
**   scan.c     VALUES, virtual relations, inputs, generate_series
**   join.c     hash and nested-loop joins of every kind
**   agg.c      hash aggregation, grouping sets, the aggregates' states
**   sort.c     sort, limit, DISTINCT [ON], set operations
**   window.c   window functions
**   explain.c  host_explain
**
** Error discipline: every routine that can fail sets the run's sql_error
** (the first one stays) and returns -1; callers return -1 at once.
*/
#ifndef STARQ_HOST_INT_H
#define STARQ_HOST_INT_H

#include "host.h"

typedef struct host_sub_state host_sub_state;

/* The state of one host_run. */
typedef struct host_run_ctx host_run_ctx;
struct host_run_ctx {
  const host_plan *pPlan;
  const host_config *pConfig;
  arena *pArena;           /* rows and values of the run */
  func_ctx fc;             /* pConfig->pFunc with pArena */
  sql_error *pErr;
  host_node_stats *aStats; /* or NULL */
  host_rel *aShared;       /* nShared results, made on first use */
  uint8_t *abShared;
  host_rel *aInput;        /* nInput results, made on first use */
  uint8_t *abInput;
  host_sub_state *aSub;    /* nSubplan */
  const datum *aParam;     /* the parameters of the subplan being run */
  uint64_t nBaseBytes;     /* the arena's size when the run began */
  struct host_hash *pHashes; /* every hash table the run made (freed at its end) */
};

/* ---- run.c ------------------------------------------------------------------ */
/* Runs node n into *pOut. */
int host__node_run(host_run_ctx *x, const host_node *n, host_rel *pOut);
/* Appends a row (the pointer is kept) to r, growing it. */
int host__rel_add(host_run_ctx *x, host_rel *r, datum *aRow);
/* A new row of n datums from the run's arena, or NULL with 53200. */
datum *host__row_new(host_run_ctx *x, int n);
/* Checks the memory budget and the cancel flag. Returns 0 or -1. */
int host__check(host_run_ctx *x);
/* Records 53200 and returns -1. */
int host__oom(host_run_ctx *x);
/* Evaluates subplan s on row aRow into *pOut. */
int host__subplan_eval(host_run_ctx *x, const host_subplan *s, const datum *aRow, datum *pOut);

/* ---- value.c ---------------------------------------------------------------- */
/* 1 if a and b (not NULL) are equal as grouping sees them (1.0 = 1.00). */
int host__datum_eq(const datum *a, const datum *b);
/* A hash of non-NULL d, equal for values host__datum_eq calls equal
** within one type. */
uint64_t host__datum_hash(const datum *d);
/* Compares a and b with NULLs placed as a sort key says. */
int host__sort_cmp(const datum *a, const datum *b, int bDesc, int bNullsFirst);
/* Copies d's variable-length payload into the run's arena (so that it
** outlives the buffer it came from). Returns 0 or -1. */
int host__datum_own(host_run_ctx *x, datum *d);
/* Converts non-NULL d to type t (a cast: PostgreSQL's rules, its errors).
** Returns 0 or -1. */
int host__cast(host_run_ctx *x, const datum *d, coltype t, datum *pOut);
/* 1 for the integer types (SMALLINT, INTEGER, BIGINT, OID and friends). */
int host__is_int(coltype_id e);
/* 1 for DECIMAL and NUMERIC. */
int host__is_numeric(coltype_id e);
/* 1 for the string types. */
int host__is_text(coltype_id e);

/* ---- expr.c ----------------------------------------------------------------- */
/* Evaluates e over row aRow into *pOut. */
int host__eval(host_run_ctx *x, const host_expr *e, const datum *aRow, datum *pOut);
/* Evaluates condition e: sets *pb to 1 only where it is true. */
int host__eval_true(host_run_ctx *x, const host_expr *e, const datum *aRow, int *pb);
/* Evaluates a op b for a comparison op (sql_op) of non-NULL values. */
int host__compare_op(int eOp, const datum *a, const datum *b);
/* Adds numbers a + b into *pOut of type t (SUM's step). */
int host__add(host_run_ctx *x, const datum *a, const datum *b, coltype t, datum *pOut);

/* ---- the operators ------------------------------------------------------------ */
int host__scan_values(host_run_ctx *x, const host_node *n, host_rel *pOut);
int host__scan_vrel(host_run_ctx *x, const host_node *n, host_rel *pOut);
int host__scan_series(host_run_ctx *x, const host_node *n, host_rel *pOut);
int host__join(host_run_ctx *x, const host_node *n, const host_rel *pL, const host_rel *pR,
               host_rel *pOut);
int host__agg(host_run_ctx *x, const host_node *n, const host_rel *pIn, host_rel *pOut);
int host__window(host_run_ctx *x, const host_node *n, const host_rel *pIn, host_rel *pOut);
int host__sort(host_run_ctx *x, const host_node *n, const host_rel *pIn, host_rel *pOut);
int host__distinct(host_run_ctx *x, const host_node *n, const host_rel *pIn, host_rel *pOut);
int host__setop(host_run_ctx *x, const host_node *n, const host_rel *pL, const host_rel *pR,
                host_rel *pOut);

/* ---- agg.c: aggregate states, for window.c too --------------------------------- */
typedef struct host_agg_state host_agg_state;
struct host_agg_state {
  datum acc;               /* SUM, MIN, MAX, BOOL_*: the value so far */
  int bHave;               /* acc holds a value */
  int64_t nCount;          /* COUNT, AVG's count */
  double rSum;             /* AVG over doubles */
  numeric sumX, sumX2;     /* VAR_*, STDDEV_* of numbers: exact sums of
                           ** the values and their squares (nCount values) */
  double rN, rSx, rSxx;    /* ... of doubles: PostgreSQL's float8_accum */
  char *zStr;              /* STRING_AGG: the text so far (run's arena) */
  uint32_t nStr, nStrAlloc;
  struct host_hash *pSeen; /* DISTINCT: the values seen */
  struct host_collected *aColl;  /* bCollect: the rows' values, nColl of */
  uint32_t nColl, nCollAlloc;    /* them (run's arena) */
};
/* Folds row aRow into state s of aggregate a. */
int host__agg_step(host_run_ctx *x, const host_agg *a, host_agg_state *s, const datum *aRow);
/* aggvar.c: folds v (not NULL) counted w times into a variance or bit
** aggregate's state; its value from the state. */
int host__agg_var_step(host_run_ctx *x, const host_agg *a, host_agg_state *s, const datum *v, int64_t w);
int host__agg_var_final(host_run_ctx *x, const host_agg *a, const host_agg_state *s, datum *pOut);
/* aggcollect.c: collects a STRING_AGG or ARRAY_AGG row (bCollect);
** sorts and joins the values. */
int host__agg_collect_step(host_run_ctx *x, const host_agg *a, host_agg_state *s, const datum *aRow);
int host__agg_collect_final(host_run_ctx *x, const host_agg *a, const host_agg_state *s, datum *pOut);
/* The aggregate's value from its state. */
int host__agg_final(host_run_ctx *x, const host_agg *a, const host_agg_state *s, datum *pOut);

/* ---- a hash table of rows, keyed by some of their values (join, agg, setop) --- */
typedef struct host_hash host_hash;
/* Makes a table of keys of nKey values. */
host_hash *host__hash_new(host_run_ctx *x, int nKey);
/* Finds the entry whose key equals aKey (nKey values, none NULL unless
** bNullEq), or adds one when bAdd; sets *ppVal to its value slot (NULL
** when absent and not added) and *pbNew. Returns 0 or -1. */
int host__hash_find(host_run_ctx *x, host_hash *h, const datum *aKey, int bAdd, void ***ppVal,
                    int *pbNew);
/* Every entry's value slot, in insertion order: calls x(pArg, key, val). */
int host__hash_each(host_hash *h, int (*xEach)(void *pArg, const datum *aKey, void *pVal),
                    void *pArg);
int64_t host__hash_count(const host_hash *h);
/* Frees every table the run made. */
void host__hash_free_all(host_run_ctx *x);

/* Appends array element e as PostgreSQL's array_out writes it (value.c). */
void host__array_elem_text(const datum *e, strbuf *s);

#endif /* STARQ_HOST_INT_H */
