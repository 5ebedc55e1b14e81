/*
** planner/plan.h — the physical plan of a SELECT: what code generation
** turns into BUILD, INIT, SCAN and FINALIZER kernels (DESIGN decision 8),
** and what EXPLAIN prints.
**
** plan_build() takes a bound SELECT (bind.h) and decides:
**
**   shape      which FROM item is scanned (the fact table of a star, the
**              only table, or the larger side of a join without declared
**              keys) and which are built into lookup structures
**              (dimensions). Declared FK -> PK constraints decide first;
**              without them, row counts (build on the smaller side).
**   predicates every WHERE / ON conjunct, classified: a join equality, a
**              local predicate of one table (pushed into that table's
**              BUILD, or evaluated by the SCAN for the scanned table), or a
**              residual that reads several tables (evaluated after every
**              probe). A predicate on a single dictionary-encoded column
**              is resolved against the dictionary into the set of codes
**              that pass (plan_codeset): kernels never see a string, and
**              its selectivity is exact from the code frequencies.
**   lookups    per dimension: a direct array over the key range when the
**              keys are dense, a yyyymmdd offset map for DATE keys, else an
**              open-addressing hash table (papers 001/002).
**   order      the SCAN's conditions (fact predicates and dimension
**              probes) ordered by rank and grouped into `&&` / `&` / `|`
**              by paper 004's dynamic program (predorder.h).
**   group-by   keys, aggregates and their state layout, and the strategy
**              of groupby.h (scalar, dense array, hash table placement).
**
** What starq cannot run gets 0A000 with the position of what caused it.
**
** Lifetime: everything a plan points to lives in the arena given to
** plan_build() or in the bound_select (expressions, tables), except the
** predorder plan's arrays, which plan_free() releases. The plan records
** each table's generation: the kernels must read that generation's files
** (codes in a plan_codeset are codes of that generation's dictionary).
**
** INTERFACE ROUTINES
**   plan_build     bound SELECT + catalog -> plan
**   plan_explain   the plan as EXPLAIN's text tree
**   plan_free
**   plan_exprset_find  a subtree answered over its dictionary
**   plan_strlist_expr, plan_str_index  the string table (strtab.c)
*/
#ifndef STARQ_PLAN_H
#define STARQ_PLAN_H

#include <stdint.h>

#include "../common/strbuf.h"
#include "../storage/stats.h"
#include "../storage/store.h"
#include "bind.h"
#include "groupby.h"
#include "model.h"
#include "predorder.h"

typedef enum plan_kind {
  PLAN_VALUES = 1,         /* no FROM: one row of constants */
  PLAN_SCAN,               /* one table */
  PLAN_STAR,               /* a fact table and dimensions joined by declared
                           ** FK -> PK constraints */
  PLAN_JOIN                /* some join follows no declared key: hash joins,
                           ** built on the smaller side */
} plan_kind;

/* The codes of a dictionary column that pass a predicate. Rows whose value
** is NULL never pass (the predicate is NULL there). */
typedef struct plan_codeset plan_codeset;
struct plan_codeset {
  uint64_t nCode;          /* codes in the dictionary */
  uint64_t nPass;          /* codes that pass */
  int bRange;              /* they are exactly iLo..iHi (or none: nPass 0) */
  uint32_t iLo, iHi;       /* first and last passing code, when nPass > 0 */
  uint64_t *aBit;          /* !bRange: bit i set = code i passes; ceil(nCode/64) words */
};

/* How a selectivity was found (EXPLAIN says which). */
typedef enum plan_est {
  PLAN_EST_DICT = 1,       /* exact: code frequencies of the dictionary */
  PLAN_EST_RANGE,          /* min/max, values assumed uniform */
  PLAN_EST_DISTINCT,       /* 1 / distinct count per value */
  PLAN_EST_NULLS,          /* NULL count */
  PLAN_EST_CONST,          /* the predicate is constant */
  PLAN_EST_COMBINED,       /* AND / OR / NOT of the above, independence assumed */
  PLAN_EST_DEFAULT         /* nothing known: PostgreSQL's default guesses */
} plan_est;

/* One conjunct of WHERE and ON. */
typedef struct plan_pred plan_pred;
struct plan_pred {
  sql_expr *pExpr;
  int iSource;             /* the FROM item it reads; -1 for a residual */
  double rSel;             /* fraction of that table's rows passing */
  plan_est eEst;
  int nByte;               /* bytes per row of the columns it reads */
  int iDictCol;            /* >= 0: it reads only this dictionary column of
                           ** iSource and pCodes holds the codes that pass */
  plan_codeset *pCodes;
};

/* A boolean expression inside another (a comparison in a CASE, one side
** of an OR across tables, an output, an aggregate's argument) that reads
** one dictionary column and constants only: answered over the dictionary
** as a predicate is (codeset.c), so the kernels test the row's code. */
typedef enum plan_nullrow {
  PLAN_NULLROW_FALSE = 0,  /* where the column is NULL, the expression is FALSE */
  PLAN_NULLROW_TRUE,       /* ... TRUE (c = 'x' OR TRUE) */
  PLAN_NULLROW_NULL        /* ... NULL (a comparison of NULL) */
} plan_nullrow;

typedef struct plan_exprset plan_exprset;
struct plan_exprset {
  const sql_expr *pExpr;   /* the subtree (the bound_select's) */
  int iSource, iColumn;    /* the dictionary column it reads */
  plan_codeset codes;      /* the codes for which it is TRUE; no string
                           ** makes it NULL (else it is not here) */
  plan_nullrow eNullRow;
};

/* A function of one DATE column computed on the host for every day the
** column spans (valmap.c): extract, date_part. The kernels read
** aValue[days since 1970 of the row's date - iMinDay]. */
/*
** A string map (bStr, strval.c) is a string-valued expression of up to
** PLAN_MAP_IN columns of small domains (dictionary codes, integers of a
** bounded range) computed on the host for every combination of their
** values: entry sum over inputs of (slot of input i) * nStride, where the
** slot is value - iLo, or nDom where the input is NULL; the entry is the
** result's index in the plan's string table, or -1 for NULL.
*/
#define PLAN_MAP_IN 4
typedef struct plan_mapin plan_mapin;
struct plan_mapin {
  const sql_expr *pCol;    /* the column (the bound_select's) */
  int64_t iLo;             /* its least value (0 for codes) */
  uint64_t nDom;           /* its values: iLo .. iLo + nDom - 1 */
  uint64_t nStride;        /* entries between two of its slots */
};

typedef struct plan_valmap plan_valmap;
struct plan_valmap {
  const sql_expr *pExpr;   /* the call (the bound_select's) */
  const sql_expr *pCol;    /* the DATE column it reads (not bStr) */
  int bFloat;              /* values are doubles' bits (date_part), else integers */
  int bStr;                /* a string map: aIn, string-table indexes */
  int nIn;
  plan_mapin aIn[PLAN_MAP_IN];
  int64_t iMinDay;         /* days since 1970-01-01 of entry 0 */
  uint64_t nEntry;
  int64_t *aValue;         /* nEntry values (the plan's arena) */
};

typedef enum plan_lookup_kind {
  PLAN_LOOKUP_ARRAY = 1,   /* slot = key - iMin */
  PLAN_LOOKUP_DATE,        /* slot = (y - iYearMin) * 372 + (m - 1) * 31 + d - 1
                           ** of the yyyymmdd key */
  PLAN_LOOKUP_HASH         /* open addressing, linear probing, Murmur3 finaliser */
} plan_lookup_kind;

/* A dimension's lookup structure, filled by its BUILD kernel with the rows
** that pass its predicates. A slot holds the dimension row's index + 1 (0:
** no row), so the SCAN reads payload columns by row index; a HASH slot
** also holds the key.
**
** Semi-join bits (bBits): a dimension with filters and an ARRAY lookup
** also gets a bitset over the same slots, 1 bit a slot, set iff the
** slot's row passes the filters. The SCAN's probe tests that bit (an SF 100
** part lookup of 5.6 MB is 175 KB of bits: L1 rather than L2), and reads
** the slot's row index only for the rows that passed every condition and
** need the dimension's payload. bDense: the keys are expected to be the
** row indexes + iMin (an ARRAY over exactly nRow slots of a NOT NULL key,
** as SSB's dimensions are): the SCAN then takes key - iMin as the row
** index and never reads the slots, unless the BUILD saw a row whose key is
** not its index + iMin (it sets the word at nMovedOff, and the SCAN reads
** the slots, which the BUILD fills either way). The buffer holds the slots
** (nByte), then the bits at nBitOff (nBitByte: 32-bit words), then that
** word: nAllocByte in all. The bits cover the keys iBitMin ..
** iBitMin + nBitSlot - 1: an ARRAY's slots; a DATE map's raw yyyymmdd
** keys (61,131 bits for SSB's seven years: 7.6 KB), so that its probe
** subtracts and tests a bit instead of splitting yyyymmdd — only where
** the date supplies no payload (shape.c says why), so a DATE map's slots
** are never read after its bits. HASH lookups get no bits:
** their keys are not dense enough for a bitset over the key range to be
** small. */
typedef struct plan_lookup plan_lookup;
struct plan_lookup {
  plan_lookup_kind eKind;
  int64_t iMin, iMax;      /* key range from the catalog (exact) */
  int iYearMin;            /* DATE */
  uint64_t nSlot;          /* ARRAY/DATE: the key range's slots; HASH: a power of two */
  int nKeyByte;            /* HASH: 4 or 8 */
  int nSlotByte;
  uint64_t nByte;          /* nSlot * nSlotByte */
  int bBits;               /* a bitset of the rows that pass (see above) */
  int bDense;              /* bBits, and key - iMin is expected to be the row index */
  uint64_t nBitOff;        /* bBits: where the bits start in the buffer */
  uint64_t nBitByte;       /* bBits: bytes of bits, whole 32-bit words */
  int64_t iBitMin;         /* bBits: the key of bit 0 */
  uint64_t nBitSlot;       /* bBits: keys the bits cover */
  uint64_t nMovedOff;      /* bDense: the BUILD's "a key is out of place" word */
  uint64_t nAllocByte;     /* the whole buffer (the runtime allocates and zeroes it) */
};

/* A table the SCAN does not scan: filtered and built by a BUILD kernel,
** probed by the SCAN with the scanned table's join column. */
typedef struct plan_dim plan_dim;
struct plan_dim {
  int iSource;             /* its FROM item */
  int iFactCol;            /* the scanned table's join column */
  int iKeyCol;             /* its own join column */
  int bDeclared;           /* the join follows a declared FK -> PK */
  int bUnique;             /* its join column is its primary key: at most one
                           ** match per scanned row; else probes loop over
                           ** every match */
  int nPred;
  plan_pred *aPred;        /* local predicates, applied by its BUILD */
  double rSel;             /* fraction of its rows passing them */
  plan_est eEst;
  int bPayload;            /* supplies columns to the group keys, the
                           ** aggregates, the output or a residual */
  plan_lookup lookup;
  int iCond;               /* its probe's index in plan.aCond */
};

/* One column of a group key. A dictionary column groups by its code; an
** expression (bExpr) by its value, within the range the planner bounded. */
typedef struct plan_key plan_key;
struct plan_key {
  sql_expr *pExpr;         /* a COLUMN, or with bExpr any expression */
  int iSource, iColumn;    /* a COLUMN's; -1 with bExpr */
  int bExpr;               /* an expression, computed by the SCAN */
  int64_t iMin;            /* bExpr: its least value (a string CASE: index 0) */
  uint64_t nDomain;        /* bExpr: values from iMin on, NULL not counted */
  coltype type;
  int bDict;
  int bNullable;
  int bDependent;          /* not in GROUP BY: functionally dependent on a
                           ** grouped primary key, grouped by to carry it */
};

typedef enum plan_agg_func {
  PLAN_AGG_COUNT_STAR = 1,
  PLAN_AGG_COUNT,
  PLAN_AGG_SUM,
  PLAN_AGG_MIN,
  PLAN_AGG_MAX,
  PLAN_AGG_AVG
} plan_agg_func;

/* An aggregate and its place in a group's state. Every state starts with
** the group's row count (8 bytes at offset 0): a dense slot with count 0
** is no group, and a scalar aggregate over no rows is NULL — except where
** plan.bCountInSum: there the word at offset 0 is the one aggregate's sum,
** which is non-zero exactly when the group has a row. */
typedef struct plan_agg plan_agg;
struct plan_agg {
  sql_expr *pCall;         /* the FUNC node (bound_select.apAgg[i]) */
  plan_agg_func eFunc;
  sql_expr *pArg;          /* NULL for COUNT(*) */
  coltype argType;
  coltype resultType;
  int bFloat;              /* accumulates in double (DOUBLE arguments) */
  int iValueOffset;        /* 8-byte accumulator: int64 or double; -1 for COUNT(*) */
  int iCountOffset;        /* 8-byte count of non-NULL arguments, or -1 when
                           ** the argument cannot be NULL and the row count
                           ** serves (AVG, COUNT(x) and nullable arguments) */
};

/* Why a FROM item's column is read (bits of plan_source.aUse). */
#define PLAN_USE_PRED    0x01   /* a local predicate */
#define PLAN_USE_JOIN    0x02   /* a join column */
#define PLAN_USE_PAYLOAD 0x04   /* keys, aggregates, output, residual, HAVING, ORDER BY */

/* One FROM item. Statistics and dictionaries are read from the catalog
** the first time planning needs them; the runtime reads pTable (its
** generation and row count) and aUse. */
typedef struct plan_source plan_source;
struct plan_source {
  cat_table *pTable;       /* the bound_select's */
  const char *zAlias;
  double nRow;
  uint8_t *aUse;           /* per column: PLAN_USE_* */
  col_stats *aStats;       /* per column, valid where abStats[i] */
  uint8_t *abStats;
  store_dict *aDict;       /* per column, valid where abDict[i] */
  uint8_t *abDict;
  uint8_t *aEnc;           /* per column: STORE_ENC_* of its values file, for
                           ** the columns the query uses (PLAIN elsewhere) */
  uint64_t *anStored;      /* per column: bytes of its values file's payload
                           ** (what a scan moves); 0: not known */
  double rSel;             /* its local predicates together */
};


typedef struct plan plan;
struct plan {
  plan_kind eKind;
  const bound_select *pBound;
  sql_select *pSelect;

  int nSource;
  plan_source *aSource;    /* per FROM item */
  int iFact;               /* the scanned FROM item; -1 for PLAN_VALUES */
  double nFactRow;         /* its rows */
  int nDim;
  plan_dim *aDim;
  int *aiDimOf;            /* per FROM item: its index in aDim, -1 for iFact */

  int nFactPred;
  plan_pred *aFactPred;    /* conditions on the scanned table alone */
  int nResidual;
  plan_pred *aResidual;    /* conditions over several tables, after every probe */
  int bFalse;              /* a constant condition is false or NULL: no row passes */
  int nStr;
  const char **azStr;      /* the string table (strtab.c): literals that
                           ** string values other than columns take, sorted */
  int nValMap, nValMapAlloc;
  plan_valmap *aValMap;    /* value maps of date functions (plan_valmap_find) */
  int nExprSet, nExprSetAlloc;
  plan_exprset *aExprSet;  /* code sets of subtrees (plan_exprset_find) */

  /* The SCAN's conditions: aCond[i] is fact predicate aCondWhat[i] when
  ** that is >= 0, else the probe of dimension -1 - aCondWhat[i]. */
  int nCond;
  predorder_cond *aCond;
  int *aCondWhat;
  predorder_plan order;    /* evaluation order and grouping; nCond 0: none */
  planner_model model;     /* the cost model's constants, and their origin */

  /* Aggregation */
  int bAggregate;          /* one row per group */
  int nKey;
  plan_key *aKey;
  int nAgg;
  plan_agg *aAgg;
  int nStateByte;          /* per group, row count included */
  int bCountInSum;         /* no row count: a GROUP BY's one aggregate is
                           ** SUM of a NOT NULL integer column whose every
                           ** value is > 0 (its statistics' minimum), so
                           ** its sum, at offset 0, marks the groups that
                           ** exist; half the state of a SUM with a count
                           ** (SSB Q2.x, Q3.x: a shared table's atomics and
                           ** footprint halve) */
  groupby_plan group;      /* bAggregate only */

  /* Estimates */
  double rScanSel;         /* fraction of scanned rows passing everything */
  double nRowOut;          /* rows reaching aggregation or output */
  double nGroup;           /* estimated groups */
  uint64_t nScanByte;      /* bytes of scanned columns one pass touches */
  uint64_t nBuildByte;     /* bytes the BUILD kernels read */
  double rScanCost;        /* predorder's estimate, seconds */
  double rBuildCost;       /* seconds to read the dimensions' columns */
};

/* Plans pBound (bound against pCat) into *pPlan for the device pModel
** describes (NULL: the defaults of model.h), allocating from pArena.
** Returns 0, or -1 with *pErr set: 0A000 for what starq does not run
** (positioned at the construct), XX000/58030 when statistics or a
** dictionary cannot be read, 53200 when memory runs out, 22023 when
** pModel->zPredOrder spells an order that does not fit the query. Call
** plan_free() either way. */
int plan_build(cat *pCat, const bound_select *pBound, const planner_model *pModel,
               arena *pArena, plan *pPlan, sql_error *pErr);
void plan_free(plan *pPlan);

/* The value map of call e, or NULL. */
const plan_valmap *plan_valmap_find(const plan *pPlan, const sql_expr *e);
/* The string map of string-valued expression e (strval.c), or NULL. */
const plan_valmap *plan_strmap_find(const plan *pPlan, const sql_expr *e);

/* The expression key (plan_key.bExpr) e is equal to, or -1. */
int plan_key_find(const plan *pPlan, const sql_expr *e);

/* 1 if e is a string value the plan's string table holds (strtab.c): a
** string literal, NULL, or a CASE whose every result is one. */
int plan_strlist_expr(const sql_expr *e);
/* The column e's values are codes of when e is a CASE whose every result
** is that one dictionary column or NULL (FILTER's rewrite of max(c_nation)),
** else NULL. */
const sql_expr *plan_dictcase_column(const sql_expr *e);
/* The index of z in pPlan's string table, or -1. */
int plan_str_index(const plan *pPlan, const char *z);

/* The code set that answers subtree e of pPlan's query, or NULL. */
const plan_exprset *plan_exprset_find(const plan *pPlan, const sql_expr *e);

/* Appends the plan as EXPLAIN's indented tree to s (one line per row of
** EXPLAIN's output, '\n'-separated). Every estimate names its source;
** EXPLAIN VERBOSE adds the generated kernels (runtime/explain.h). */
void plan_explain(const plan *pPlan, strbuf *s);

#endif /* STARQ_PLAN_H */
