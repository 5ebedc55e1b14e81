/*
** planner/predorder.h — the order and grouping of a star query's fact-table
** conditions, and their split into kernels, by the cost model and dynamic
** program of Sitaridi & Ross, "Optimizing Select Conditions on GPUs"
** (DaMoN 2013; papers/004, cited below as [004 §x]).
**
** The planner hands this module every condition the SCAN kernel applies to
** a fact row: local predicates on fact columns, and dimension probes (a
** probe is a condition like any other: its selectivity is the fraction of
** fact rows whose key survives the dimension's filter; its cost is a
** random access into the dimension's lookup structure rather than a
** coalesced column read). It gets back the plan codegen follows. The module
** is pure: no catalog, no I/O, no global state.
**
** The plan, in the notation predorder_plan_format() prints for EXPLAIN:
**
**     (c2 & c0) && c1 | c3
**
**   - Conditions appear in evaluation order, named by their index in the
**     caller's array (or by names the caller gives).
**   - `&`  no-branch AND: every row that reaches the group evaluates all of
**          the group's conditions and the flags are combined with a bitwise
**          AND; the group's column loads are branch-free, so the GPU
**          overlaps them [004 §3.1, plan S3].
**   - `&&` branching AND: a row goes on to the next group only if it passed
**          the groups before, so later columns are read (and probes made)
**          only for surviving rows — but a warp pays for a later group as
**          soon as one of its threads survives [004 §3.1, plan S111].
**          As in C, `&` binds tighter than `&&`; a group of two or more is
**          parenthesised when its kernel has more than one group.
**   - `|`  kernel boundary: the kernel on the left writes the record ids of
**          its surviving rows to device memory; the kernel on the right
**          reads them and evaluates its conditions on those rows only, with
**          every thread busy [004 §3.2, plan K21 = `c0 & c1 | c2`].
**          It is not a logical OR: all conditions are conjuncts.
**
** The dynamic program chooses the grouping over one order of the
** conditions, in O(n^3) for one kernel [004 §4, Algorithm 1]. Rank order
** [004 §2, §3.2, after Hellerstein's rank (sel - 1) / cost-per-row] is
** what the paper searches; with the warp-granular costs below it is not
** always the cheapest order, and the paper says so too (§4: enumerate
** orders when attributes are correlated). So up to PREDORDER_PERMUTE_MAX
** conditions the program runs on every order and the cheapest plan wins
** (the rank order first, so it wins ties); above, on the rank order.
**
** Costs are estimated seconds for one pass over nRow fact rows.
**
** Lifetime: a predorder_plan filled by predorder_plan_choose() owns its
** arrays until predorder_plan_free(). Nothing else is allocated.
**
** INTERFACE ROUTINES
**   predorder_model_default  H100-class constants
**   predorder_rank           the rank metric of one condition
**   predorder_plan_choose    orders + dynamic program -> plan
**   predorder_plan_force     a plan spelled out, costed (measuring)
**   predorder_plan_cost      the model's cost of any plan (tests, EXPLAIN)
**   predorder_plan_format    the one-line EXPLAIN notation above
**   predorder_plan_free
*/
#ifndef STARQ_PREDORDER_H
#define STARQ_PREDORDER_H

#include <stddef.h>
#include <stdint.h>

/* The dynamic program runs on at most this many conditions. A plan for more
** is the fallback: rank order, one kernel, every join `&&` (bFallback set).
** Its cost is still estimated by the same model. */
#define PREDORDER_MAX_DP 32

/* Conditions up to which every order is searched, not only the rank
** order: 5! orders of an O(n^3) search each is nothing beside a compile.
** Why: the paper's search keeps the rank order [004 §4], which is optimal
** for conditions evaluated one by one, but a no-branch group's r_k
** discount can make a worse-ranked condition worth pulling ahead. SSB
** Q1.3 on resident columns, defaults: rank order (lo_quantity &
** lo_discount) && join(date) at 5.4 us per SF 0.05 pass against
** join(date) && (lo_discount & lo_quantity) at 5.0 (the date probe passes
** 0.27 % of rows, so the two columns are read for few sectors). */
#define PREDORDER_PERMUTE_MAX 5

/* r_k is calibrated for k = 1..PREDORDER_RATE_MAX columns; a no-branch
** group of more columns uses r_PREDORDER_RATE_MAX (the paper's rates have
** flattened by k = 3: 0.68 for both 3 and 4 columns, [004 §4]). */
#define PREDORDER_RATE_MAX 8

/* ALU operations a condition costs per row when nOp is 0: a range test is
** two compares and a predicate AND (setp.ge, setp.lt, and.pred in the PTX
** of [004 App. B]). */
#define PREDORDER_OP_DEFAULT 3

/* One fact-table condition, as the planner estimates it. */
typedef struct predorder_cond predorder_cond;
struct predorder_cond {
  double rSel;            /* estimated fraction of rows that pass, 0..1 */
  int nByte;              /* bytes of fact column data read per row (all
                          ** columns it reads; for a probe, its key column);
                          ** 0 = reads no fact column */
  int nOp;                /* ALU operations per evaluated row; 0 means
                          ** PREDORDER_OP_DEFAULT */
  int bProbe;             /* a dimension probe: one random access into a
                          ** lookup structure per evaluated row */
  uint64_t nLookupByte;   /* probe only: size of the lookup structure, so
                          ** the model can tell L2-resident from not */
  double rRun;            /* rows per run of equal values, in storage order,
                          ** of the fact column(s) it reads (the least, for
                          ** several): how clustered the rows it passes are;
                          ** 0 = unknown */
};

/* The machine, as the cost model sees it [004 §3.1, §3.2, §4 "Model
** Calibration"]. predorder_model_default() documents each default; a
** calibration run (short scans of 1..k columns, as [004 §4] prescribes)
** would measure these. planner/model.c names each field and checks its
** range: a new field needs its row in model.c's table. All fields are
** public. */
typedef struct predorder_model predorder_model;
struct predorder_model {
  /* Warps and transactions [004 §3.1] */
  int nWarp;                  /* threads per warp, w */
  int nTxnByte;               /* bytes of one coalesced transaction, T */
  double aRate[PREDORDER_RATE_MAX + 1];
                              /* r_k = scan_k / (k * scan_1), k >= 1;
                              ** aRate[0] unused */
  double rScanBw;             /* bytes/s at which fact columns are read */

  /* Probes: random accesses into lookup structures */
  int nSectorByte;            /* bytes one random access moves */
  uint64_t nL1Byte;           /* L1 data cache per SM */
  double rL1Bw;               /* bytes/s of random sectors hitting L1, all SMs */
  uint64_t nL2Byte;           /* L2 capacity */
  double rL2Bw;               /* bytes/s of random sectors hitting L2 */
  double rDevBw;              /* bytes/s of device memory (probes missing L2,
                              ** record-id lists) */

  /* Instructions */
  int nSM;                    /* streaming multiprocessors */
  int nIssuePerSM;            /* warp instructions issued per SM per cycle */
  double rClockHz;            /* SM clock */
  int nBranchOp;              /* warp instructions a `&&` adds for each warp
                              ** that reaches it (compare, branch, and the
                              ** reconvergence barrier pair) */

  /* Multi-kernel plans [004 §3.2] */
  double rLaunchSec;          /* fixed cost of one kernel launch */
  int nRidByte;               /* bytes of one materialised record id */
};

/* How condition i of a plan attaches to condition i-1. */
typedef enum predorder_join {
  PREDORDER_JOIN_FIRST = 0,   /* condition 0: attaches to nothing */
  PREDORDER_JOIN_NOBRANCH,    /* `&`: same group */
  PREDORDER_JOIN_BRANCH,      /* `&&`: starts a group in the same kernel */
  PREDORDER_JOIN_KERNEL       /* `|`: starts a kernel (and a group) */
} predorder_join;

/* Flags for predorder_plan_choose(). */
#define PREDORDER_MULTI_KERNEL 0x1  /* may split into several kernels; without
                                    ** it the plan is one fused SCAN kernel
                                    ** (DESIGN decision 8) */
#define PREDORDER_RANK_ONLY 0x2     /* search the rank order alone, as the
                                    ** paper does (every order otherwise,
                                    ** up to PREDORDER_PERMUTE_MAX) */

/* An evaluation plan. Filled by predorder_plan_choose(), which allocates
** aOrder and aJoin (owned by the plan; predorder_plan_free() releases
** them). A caller may also build one over its own arrays to have it costed
** by predorder_plan_cost() or printed; it then owns them itself. */
typedef struct predorder_plan predorder_plan;
struct predorder_plan {
  int nCond;                  /* conditions in the plan */
  int *aOrder;                /* aOrder[i]: caller's index of the i-th
                              ** condition evaluated */
  uint8_t *aJoin;             /* aJoin[i]: a predorder_join, how the i-th
                              ** attaches to the (i-1)-th */
  int nKernel;                /* kernels (1 + number of `|`) */
  int nGroup;                 /* groups (1 + number of `&&` and `|`) */
  int bFallback;              /* nCond > PREDORDER_MAX_DP: no search done */
  double rCost;               /* the model's estimate, seconds per pass */
  double rSel;                /* estimated fraction of rows passing all */
};

/* Fills *p with defaults for an H100-class GPU whose fact columns stream
** from pinned host memory (DESIGN decisions 7 and 8). */
void predorder_model_default(predorder_model *p);

/* Returns the rank of condition c under model p: (rSel - 1) / cost, where
** cost is the condition's stand-alone cost per row (its column read,
** operations and probe) [004 §2, §3.1]. Lower ranks are evaluated first:
** cheap, selective conditions. A condition that passes every row ranks 0;
** one that costs nothing and filters ranks -HUGE_VAL. */
double predorder_rank(const predorder_model *p, const predorder_cond *c);

/* Chooses the plan for the nCond conditions of aCond over a pass of nRow
** rows: for each order searched (every one up to PREDORDER_PERMUTE_MAX
** conditions, else the rank order; stable: ties keep the caller's order)
** the dynamic program of [004 §4] for the groups, and with
** PREDORDER_MULTI_KERNEL in mFlag for the kernels too. Above
** PREDORDER_MAX_DP conditions it returns the fallback plan. Returns 0;
** -EINVAL if the model or a condition is out of range (nCond < 1, a
** selectivity outside 0..1 or NaN, a negative byte or op count, nRow < 0
** or NaN); -ENOMEM if the plan's arrays cannot be allocated. On error
** *pPlan is left empty (safe to free). */
int predorder_plan_choose(const predorder_model *p, const predorder_cond *aCond,
                          int nCond, double nRow, unsigned mFlag,
                          predorder_plan *pPlan);

/* Returns the model's estimated seconds for plan pPlan over nRow rows of
** the conditions aCond (the array pPlan's indices refer to). This is the
** function the dynamic program minimises, evaluated plan by plan. */
double predorder_plan_cost(const predorder_model *p, const predorder_cond *aCond,
                           double nRow, const predorder_plan *pPlan);

/* Writes the plan in the notation above into zBuf (always NUL-terminated
** when nBuf > 0), naming condition i azName[i], or "c<i>" if azName is
** NULL. Returns the length the whole text needs, as snprintf() does. */
size_t predorder_plan_format(const predorder_plan *pPlan,
                             const char *const *azName, char *zBuf, size_t nBuf);

/* Replaces the order and joins of pPlan (of nCond conditions, chosen by
** predorder_plan_choose) with the ones zText spells: condition numbers
** 1..nCond, the caller's order, each once, joined by "&", "&&" or "|"
** ("3&&1&2"), and costs it. A way to measure plans the model would not
** choose (planner_model.zPredOrder: bench/query --predorder); not for
** serving. Returns 0, or -1 (pPlan unchanged) if zText is not a plan of
** these conditions. */
int predorder_plan_force(const predorder_model *p, const predorder_cond *aCond, double nRow,
                         const char *zText, predorder_plan *pPlan);

void predorder_plan_free(predorder_plan *pPlan);

#endif /* STARQ_PREDORDER_H */
