/*
** host/host.h — the host executor: relational operators over rows of
** datums (common/datum.h), for what the device pipelines do not run —
** queries over virtual relations (catalog/vrel.h) and VALUES, and the
** host tail of a plan whose device pipelines' results are small: joins of
** every kind, aggregation with grouping sets, window functions, sorting,
** DISTINCT, set operations, subqueries.
**
** A host plan is a tree of host_nodes (a DAG where a CTE is read twice:
** HOST_SHARED) built by the planner (planner/hplan.h); each node makes its
** whole result before its parent reads it (materialising: these results
** are small, and every operator is then a loop over an array). A node's
** expressions (host_expr) read the columns of its input row by position:
** the planner has resolved names, types and casts. Leaves are VALUES,
** a virtual relation's scan, generate_series, or an input: the result of
** a device pipeline, which the caller produces when the executor asks for
** it (host_config.xInput), so that this folder knows nothing of kernels.
**
** Layering: host/ sits above common/, func/ and catalog/ (vrel.h) and
** below planner/ (which builds host plans) and engine/ (which runs them).
**
** Semantics are PostgreSQL 15's: three-valued logic, NULLs sort last
** ascending and first descending by default, NULL join keys never match,
** NOT IN over a set holding NULL is NULL, aggregates skip NULLs, a
** scalar subquery of more than one row is 21000.
**
** Lifetimes: a host_plan and everything it points to live in the arena
** the planner built it in; it is only read by host_run, so any number of
** runs may share it. A run's rows live in the arena the caller gives
** host_run and die with it.
**
** INTERFACE ROUTINES
**   host_run            run a plan: its root's rows
**   host_datum_cmp      PostgreSQL's order of two values of one family
**   host_datum_text     a value as PostgreSQL's text output
**   host_explain        the plan as EXPLAIN's lines
*/
#ifndef STARQ_HOST_H
#define STARQ_HOST_H

#include <stdint.h>

#include "../catalog/vrel.h"
#include "../common/arena.h"
#include "../common/datum.h"
#include "../common/sqlerr.h"
#include "../common/strbuf.h"
#include "../func/func.h"

typedef struct host_node host_node;
typedef struct host_expr host_expr;
typedef struct host_subplan host_subplan;

/* ---- expressions ----------------------------------------------------------- */

typedef enum host_expr_kind {
  HX_CONST = 1,            /* v */
  HX_COL,                  /* the input row's column iCol */
  HX_PARAM,                /* parameter iCol of the subplan being run (an
                           ** outer query's value: a correlated reference) */
  HX_ARITH,                /* apArg[0] eOp apArg[1]: + - * / % (eOp sql_op),
                           ** or unary minus (nArg 1) */
  HX_CMP,                  /* apArg[0] eOp apArg[1]: = <> < <= > >= */
  HX_AND,                  /* apArg[0..nArg) */
  HX_OR,
  HX_NOT,
  HX_IS_NULL,              /* bNot: IS NOT NULL */
  HX_IS_DISTINCT,          /* bNot: IS NOT DISTINCT FROM */
  HX_IS_BOOL,              /* IS [NOT] TRUE|FALSE|UNKNOWN: eOp sql_op */
  HX_CASE,                 /* apArg: when0, then0, when1, then1, ..., else
                           ** (NULL: none); a simple CASE is compiled as
                           ** searched CASE by the planner */
  HX_CAST,                 /* apArg[0] to type */
  HX_IN_LIST,              /* apArg[0] [NOT] IN (apArg[1..nArg)) */
  HX_LIKE,                 /* apArg[0] [NOT] LIKE|ILIKE apArg[1]: eOp */
  HX_FUNC,                 /* pFunc->xHost(apArg) */
  HX_SUBPLAN,              /* pSub */
  HX_COALESCE,             /* first non-NULL of apArg */
  HX_NULLIF,               /* apArg[0], NULL where it equals apArg[1] */
  HX_SUBSCRIPT,            /* apArg[0][apArg[1]]: an array from 1, an
                           ** int2vector or oidvector from 0 */
  HX_ANY_ARRAY             /* apArg[0] eOp ANY (apArg[1]), ALL when bAll */
} host_expr_kind;

struct host_expr {
  host_expr_kind eKind;
  int eOp;                 /* sql_op: ARITH, CMP, LIKE, IS_BOOL */
  coltype type;            /* the result's type */
  int iCol;                /* COL, PARAM */
  unsigned bNot : 1;
  unsigned bAll : 1;       /* ANY_ARRAY: ALL rather than ANY */
  datum v;                 /* CONST (payload in the plan's arena) */
  int nArg;
  host_expr **apArg;
  const func_def *pFunc;   /* FUNC */
  host_subplan *pSub;      /* SUBPLAN */
};

/* What a subquery expression computes from its plan's rows. */
typedef enum host_sub_kind {
  HOST_SUB_SCALAR = 1,     /* its one column's one value, NULL for no row,
                           ** 21000 for more than one */
  HOST_SUB_EXISTS,         /* any row */
  HOST_SUB_ANY,            /* apTest eOp ANY (rows): IN is = ANY */
  HOST_SUB_ALL,            /* apTest eOp ALL (rows): NOT IN is <> ALL */
  HOST_SUB_ARRAY           /* later: ARRAY(subquery) */
} host_sub_kind;

/* A subquery used as an expression. Its plan reads the outer row through
** parameters: apParam[i], evaluated on the outer row, is the inner plan's
** HX_PARAM i. Without parameters it is run once per statement; with
** them, once per distinct parameter tuple (the run remembers each). An
** ANY/ALL with an equality (IN, NOT IN) over an uncorrelated plan is
** answered by a hash set of its rows. */
struct host_subplan {
  int iId;                 /* 0..host_plan.nSubplan: the run's state for it */
  host_sub_kind eKind;
  int eOp;                 /* ANY, ALL: the comparison (sql_op) */
  host_node *pPlan;
  int nParam;
  host_expr **apParam;
  int nTest;               /* ANY, ALL: the left operands, one per column */
  host_expr **apTest;
  coltype type;            /* SCALAR: the value's type */
};

/* ---- nodes ------------------------------------------------------------------ */

typedef enum host_node_kind {
  HN_VALUES = 1,           /* nRow rows of expressions (apValues: nRow * nCol) */
  HN_VREL,                 /* pVrel's rows */
  HN_INPUT,                /* input iInput: a device pipeline's result */
  HN_SERIES,               /* generate_series(apExpr[0], apExpr[1][, apExpr[2]]) */
  HN_FILTER,               /* pLeft's rows where pPred is true */
  HN_PROJECT,              /* apExpr over each of pLeft's rows */
  HN_JOIN,                 /* pLeft eJoin pRight: rows left ++ right (SEMI,
                           ** ANTI: left's alone) */
  HN_AGG,                  /* groups of pLeft by apKey: keys ++ aggregates
                           ** (++ the grouping set's mask when nSet > 0) */
  HN_WINDOW,               /* pLeft's rows ++ each window function's value */
  HN_SORT,                 /* pLeft ordered by aSort */
  HN_LIMIT,                /* pLeft from nOffset, at most nLimit (-1: all) */
  HN_DISTINCT,             /* pLeft without duplicates (nOn > 0: DISTINCT ON
                           ** the first row of each apExpr[0..nOn) tuple, in
                           ** pLeft's order) */
  HN_SETOP,                /* pLeft eSetOp pRight */
  HN_SHARED                /* pLeft made once per run, read by every parent
                           ** (a CTE used more than once) */
} host_node_kind;

typedef enum host_join_kind {
  HOST_JOIN_INNER = 1,
  HOST_JOIN_LEFT,
  HOST_JOIN_RIGHT,
  HOST_JOIN_FULL,
  HOST_JOIN_SEMI,          /* left rows with a match */
  HOST_JOIN_ANTI           /* left rows without one */
} host_join_kind;

typedef enum host_setop_kind {
  HOST_SETOP_UNION = 1,
  HOST_SETOP_INTERSECT,
  HOST_SETOP_EXCEPT
} host_setop_kind;

/* One key of a sort, a window's ORDER BY, or a DISTINCT ON. */
typedef struct host_sort host_sort;
struct host_sort {
  host_expr *pExpr;        /* over the node's input row */
  unsigned bDesc : 1;
  unsigned bNullsFirst : 1; /* PostgreSQL's default: bDesc */
};

typedef enum host_agg_func {
  HOST_AGG_COUNT_STAR = 1,
  HOST_AGG_COUNT,
  HOST_AGG_SUM,
  HOST_AGG_AVG,
  HOST_AGG_MIN,
  HOST_AGG_MAX,
  HOST_AGG_BOOL_AND,
  HOST_AGG_BOOL_OR,
  HOST_AGG_STRING_AGG      /* apArg[0] joined by apArg[1] */
} host_agg_func;

/* One aggregate of an HN_AGG, or one aggregate window function. */
typedef struct host_agg host_agg;
struct host_agg {
  host_agg_func eFunc;
  int nArg;
  host_expr *apArg[2];     /* over the input row; none for COUNT(*) */
  host_expr *pFilter;      /* FILTER (WHERE ...), or NULL */
  unsigned bDistinct : 1;  /* over the distinct argument values */
  coltype type;            /* the result's type */
};

typedef enum host_win_func {
  HOST_WIN_ROW_NUMBER = 1,
  HOST_WIN_RANK,
  HOST_WIN_DENSE_RANK,
  HOST_WIN_PERCENT_RANK,
  HOST_WIN_CUME_DIST,
  HOST_WIN_NTILE,          /* apArg[0] buckets */
  HOST_WIN_LAG,            /* apArg[0] [offset apArg[1] [default apArg[2]]] */
  HOST_WIN_LEAD,
  HOST_WIN_FIRST_VALUE,
  HOST_WIN_LAST_VALUE,
  HOST_WIN_NTH_VALUE,
  HOST_WIN_AGG             /* agg over the frame */
} host_win_func;

typedef enum host_frame_unit {
  HOST_FRAME_RANGE = 0,    /* the default: RANGE UNBOUNDED PRECEDING to
                           ** CURRENT ROW (its peers included) */
  HOST_FRAME_ROWS,
  HOST_FRAME_GROUPS
} host_frame_unit;

typedef enum host_frame_bound {
  HOST_BOUND_UNBOUNDED_PRECEDING = 1,
  HOST_BOUND_PRECEDING,    /* pOffset PRECEDING */
  HOST_BOUND_CURRENT_ROW,
  HOST_BOUND_FOLLOWING,
  HOST_BOUND_UNBOUNDED_FOLLOWING
} host_frame_bound;

/* One window function; functions sharing PARTITION BY and ORDER BY share a
** node (the planner groups them). */
typedef struct host_win host_win;
struct host_win {
  host_win_func eFunc;
  int nArg;
  host_expr *apArg[3];
  host_agg agg;            /* HOST_WIN_AGG */
  host_frame_unit eUnit;
  host_frame_bound eStart, eEnd;
  host_expr *pStartOffset, *pEndOffset;
  unsigned bExcludeCurrent : 1;
  coltype type;
};

struct host_node {
  host_node_kind eKind;
  int iId;                 /* 0..host_plan.nNode: its figures in a run */
  int nCol;
  coltype *aType;          /* the output row's column types */
  double rEst;             /* estimated rows (EXPLAIN) */
  const char *zLabel;      /* EXPLAIN's words for it: the relation, the
                           ** pipeline, the CTE (or NULL) */
  host_node *pLeft;
  host_node *pRight;

  /* VALUES: nRow rows, apExpr[r * nCol + c]. PROJECT: apExpr[0..nExpr).
  ** SERIES: start, stop[, step]. DISTINCT ON: the first nOn. */
  int nRow;
  int nExpr;
  host_expr **apExpr;
  const vrel *pVrel;       /* VREL */
  int iInput;              /* INPUT */
  host_expr *pPred;        /* FILTER; JOIN: the condition beyond the keys */

  /* JOIN: left key i equals right key i (hashed when nKey > 0, else a
  ** nested loop); both of one type, cast by the planner. */
  host_join_kind eJoin;
  int nKey;
  host_expr **apLeftKey;   /* over pLeft's row */
  host_expr **apRightKey;  /* over pRight's row */

  /* AGG: nKey keys (apKey, over the input), nAgg aggregates; with grouping
  ** sets, nSet masks of the keys each set groups by (bit k: key k), the
  ** others NULL in its rows, and a last column: the set's mask of keys
  ** NOT grouped (what grouping() reads). */
  host_expr **apKey;
  int nAgg;
  host_agg *aAgg;
  int nSet;
  uint32_t *amSet;

  /* WINDOW: PARTITION BY apKey[0..nKey), ORDER BY aSort[0..nSort), the
  ** functions. SORT: aSort. DISTINCT ON: apExpr[0..nOn), the rows already
  ** sorted by them. */
  int nSort;
  host_sort *aSort;
  int nWin;
  host_win *aWin;
  int nOn;

  /* LIMIT */
  int64_t nLimit;          /* -1: none */
  int64_t nOffset;

  /* SETOP */
  host_setop_kind eSetOp;
  unsigned bAll : 1;

  /* SHARED: which of the run's shared results */
  int iShared;
};

/* A plan: its root and how many of each thing a run keeps state for. */
typedef struct host_plan host_plan;
struct host_plan {
  host_node *pRoot;
  int nNode;
  int nSubplan;
  host_subplan **apSub;    /* nSubplan: each subplan by iId (EXPLAIN) */
  int nShared;
  int nInput;
};

/* ---- a run ------------------------------------------------------------------ */

/* Rows made by a run: nRow arrays of nCol datums. */
typedef struct host_rel host_rel;
struct host_rel {
  int nCol;
  int64_t nRow;
  int64_t nAlloc;
  datum **apRow;
};

/* What a run may call on and how much it may hold. */
typedef struct host_config host_config;
struct host_config {
  func_ctx *pFunc;         /* functions' and virtual relations' context
                           ** (pArena: set by host_run to its own) */
  /* Produces input iInput (a device pipeline's result) into *pOut, rows
  ** of datums allocated from pArena. Called at most once per input and
  ** run. Returns 0, or -1 with *pErr. */
  int (*xInput)(void *pArg, int iInput, arena *pArena, host_rel *pOut, sql_error *pErr);
  void *pInputArg;
  uint64_t nMemoryBudget;  /* bytes a run's rows may take (0: no limit);
                           ** past it 53200 names the size */
  const _Atomic int *pbCancel;  /* or NULL: once nonzero, 57014 */
};

/* What a run measured, per node (EXPLAIN ANALYZE). */
typedef struct host_node_stats host_node_stats;
struct host_node_stats {
  int64_t nRow;            /* rows it made (summed over reruns) */
  int nLoop;               /* times it ran (a correlated subplan's: many) */
  double rSeconds;         /* its own and its inputs' time */
};

/* Runs plan p into *pOut, whose rows live in pArena. aStats, when not
** NULL, has p->nNode entries, filled. Returns 0, or -1 with *pErr:
** 22003, 22012, 21000 and the other errors of evaluation, 53200 past the
** memory budget, 57014 when cancelled. */
int host_run(const host_plan *p, const host_config *pConfig, arena *pArena, host_rel *pOut,
             host_node_stats *aStats, sql_error *pErr);

/* Compares two non-NULL values of one type family as PostgreSQL orders
** them: numbers by value (across integer, numeric and floating types;
** NaN above every number), strings by bytes (the C collation), dates and
** times by time, booleans false first. Returns <0, 0, >0. */
int host_datum_cmp(const datum *a, const datum *b);

/* Appends non-NULL value d as PostgreSQL's text output of its type. */
void host_datum_text(const datum *d, strbuf *s);

/* Appends the plan as EXPLAIN's indented lines; with aStats (a run's),
** each node's actual rows, loops and time. An input's lines are xInput's
** (the device pipeline it is), called with the indent its lines take. */
typedef void (*host_explain_input_fn)(void *pArg, int iInput, int nIndent, strbuf *s);
void host_explain(const host_plan *p, const host_node_stats *aStats, host_explain_input_fn xInput,
                  void *pArg, strbuf *s);

#endif /* STARQ_HOST_H */
