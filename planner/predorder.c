/*
** planner/predorder.c — predicate order, `&&`/`&` grouping and kernel split
** for a fact scan (predorder.h), by the cost model and dynamic program of
** Sitaridi & Ross, DaMoN 2013 (papers/004, cited as [004 §x]).
**
** This file owns the cost model, the orders searched and the search; it knows
** nothing of SQL, the catalog or CUDA. Where selectivities come from is the
** planner's business, and turning the plan into kernel text is codegen's.
**
** The cost model, per warp of w consecutive rows of a kernel's input
** (every formula below is the paper's, generalised only where starq's
** inputs are wider than the paper's 4-byte integer columns):
**
**   - A group of k conditions evaluated with no-branch `&` reads its k
**     columns branch-free, which the GPU schedules better than k separate
**     scans: its transactions are weighted by r_k = scan_k / (k scan_1)
**     [004 §3.1, the r_k equation; §4 "Model Calibration"].
**   - A warp reaches a group when at least one of its threads passed every
**     earlier group. The paper charges the group's column reads
**     min(sel! * w, 1) transactions per 4-byte column, sel! being the
**     product of the earlier selectivities [004 §3.1, cost of
**     (C1 & C2 & C3) && C4]. For a column of b bytes a warp spans w*b/T
**     transactions of T bytes, each holding T/b rows, so the charge is
**     min(P*w, w*b/T): the same expression, per transaction. In a kernel
**     fed by a record-id list whose rows survive with density D in the
**     table, the warp's rows are spread over w*b/(D*T) transactions, and
**     the charge is min(P*w, w*b/(D*T)): the random-access read the paper
**     prescribes for rid-list kernels [004 §3.2, last paragraph].
**   - starq's departure where the statistics say how the fact rows cluster
**     (predorder_cond.rRun: rows per run of equal values in storage
**     order): in a kernel that scans the table, a group reached by a
**     fraction P of rows in runs of L (the least run of the conditions
**     before it) is charged the sectors holding such a row, 1 - (1 - P)^(
**     rows a sector / L) of each column (predorder_sector_frac).
**   - A probe makes one random access of a sector per evaluating thread,
**     at L1 speed for the part of the lookup structure that fits in an
**     SM's L1, at L2 speed for the part that fits in L2 and
**     at device-memory speed for the rest (starq's addition: the paper has
**     no probes, but its §3.2 rule "adjust the read cost by using the
**     random access memory bandwidth" is the one applied).
**   - ALU work: a warp that reaches a group issues the group's operations
**     for all its threads, active or not (divergence [004 §1]); a `&&`
**     adds nBranchOp instructions per warp that reaches it.
**   - A multi-kernel plan costs the sum of its kernels, plus per kernel a
**     launch, and the record ids written by every kernel but the last and
**     read by every kernel but the first [004 §3.2, write cost_rid].
**
** Per-warp costs times the kernel's warps give seconds per pass.
**
** INTERFACE ROUTINES
**   predorder_model_default, predorder_rank, predorder_plan_choose,
**   predorder_plan_cost, predorder_plan_format, predorder_plan_free
*/
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "predorder.h"

/* ---- the model ------------------------------------------------------------ */

void predorder_model_default(predorder_model *p) {
  memset(p, 0, sizeof(*p));

  /* CUDA's warp size on every NVIDIA GPU, Hopper included [004 §1]. */
  p->nWarp = 32;
  /* A warp's coalesced load of 32 4-byte values is one 128-byte line: the
  ** paper's unit, r/w transactions for a 4-byte column [004 §3.1]. */
  p->nTxnByte = 128;
  /* The paper's measured rates, Tesla C2070, 4-byte integers, 1024-thread
  ** blocks: r_1 = 1 by definition, r_2 = 0.75, r_3 = r_4 = 0.68 [004 §4],
  ** flat beyond. They are ratios, so they are kept unscaled; on starq the
  ** columns come over PCIe, where branch-free overlap of loads may gain
  ** more or less. A calibration run on the H100 would replace them. */
  p->aRate[0] = 0.0;
  p->aRate[1] = 1.0;
  p->aRate[2] = 0.75;
  for (int k = 3; k <= PREDORDER_RATE_MAX; k++) p->aRate[k] = 0.68;
  /* Fact columns stream from pinned host memory by zero-copy (DESIGN
  ** decision 7): 50.7 GB/s measured on the target machine. A pass over
  ** columns cached in device memory should use rDevBw here instead. */
  p->rScanBw = 50.7e9;

  /* Random accesses move one 32-byte sector (L2 and DRAM granularity of
  ** NVIDIA GPUs since Maxwell). */
  p->nSectorByte = 32;
  /* H100: 50 MB of L2; 2.78 TB/s device memory (machine facts). The L2's
  ** bandwidth is not among them: assumed 2.5x device memory, the ratio
  ** that published H100 microbenchmarks report, until calibration. */
  p->nL2Byte = 50ull << 20;
  p->rDevBw = 2.78e12;
  p->rL2Bw = 2.5 * 2.78e12;
  /* Each SM has 256 KB of L1 and shared memory together; kernels without
  ** shared tables leave most of it to L1, and each SM caches what its own
  ** probes touch: a lookup of a few hundred KB is largely an L1 hit. Its
  ** bandwidth is 128 B per clock per SM: 132 * 128 * 1.98e9 = 33 TB/s. */
  p->nL1Byte = 200ull << 10;
  p->rL1Bw = 132.0 * 128.0 * 1.98e9;

  /* H100 SXM5: 132 SMs (machine fact), 4 warp schedulers per SM each
  ** issuing one warp instruction per cycle, 1.98 GHz boost clock (NVIDIA's
  ** specifications). One warp instruction thus costs 1/(132*4*1.98e9) s,
  ** about 0.96 ps, of the whole GPU's time. */
  p->nSM = 132;
  p->nIssuePerSM = 4;
  p->rClockHz = 1.98e9;
  /* The paper does not price a branch on its own (its r_k absorbs the lost
  ** overlap). What remains is the instructions: a compare, the branch, and
  ** the BSSY/BSYNC reconvergence pair Volta and later GPUs emit. */
  p->nBranchOp = 4;

  /* Launch-to-launch latency of dependent kernels in one stream, the few
  ** microseconds launch microbenchmarks report (the paper does not measure
  ** it: its tables are large enough to hide it). Record ids are 32-bit
  ** row numbers within a pass, as the paper writes them [004 §3.2]. */
  p->rLaunchSec = 4e-6;
  p->nRidByte = 4;
}

/* Returns whether every field of model p is usable. */
static int predorder_model_ok(const predorder_model *p) {
  if (p->nWarp < 1 || p->nTxnByte < 1 || p->nSectorByte < 1) return 0;
  if (p->nSM < 1 || p->nIssuePerSM < 1 || p->nBranchOp < 0 || p->nRidByte < 0) return 0;
  if (!(p->rScanBw > 0) || !(p->rL2Bw > 0) || !(p->rDevBw > 0) || !(p->rL1Bw > 0)) return 0;
  if (!(p->rClockHz > 0) || !(p->rLaunchSec >= 0)) return 0;
  for (int k = 1; k <= PREDORDER_RATE_MAX; k++) {
    if (!(p->aRate[k] > 0)) return 0;
  }
  return 1;
}

/* Returns the seconds of GPU time one warp instruction takes when the
** whole GPU issues at full rate. */
static double predorder_op_sec(const predorder_model *p) {
  return 1.0 / ((double)p->nSM * (double)p->nIssuePerSM * p->rClockHz);
}

/* Returns the seconds one probe of c costs: a sector, from an SM's L1 for
** the fraction of the lookup structure that fits there, from L2 for the
** fraction that fits there and not in L1, from device memory for the rest
** (a uniformly probed structure hits each level with that probability).
** The L1 tier is why, of two probes that filter alike, the one into the
** smaller structure goes first (H100, SSB Q3.1: supplier before customer). */
static double predorder_lookup_sec(const predorder_model *p, const predorder_cond *c) {
  double rL1 = 1.0, rL2 = 1.0, n = (double)c->nLookupByte;
  if (n > (double)p->nL1Byte) rL1 = (double)p->nL1Byte / n;
  if (n > (double)p->nL2Byte) rL2 = (double)p->nL2Byte / n;
  return (double)p->nSectorByte *
         (rL1 / p->rL1Bw + (rL2 - rL1) / p->rL2Bw + (1.0 - rL2) / p->rDevBw);
}

/* The fraction of a column's 32-byte sectors that hold a row reaching a
** group, when a fraction P of a scanned table's rows reach it in runs of L
** rows (the earlier conditions' clustering): a sector of R rows holds
** about R / L independent runs, each reaching the group with chance P.
** The paper's charge, one 128-byte transaction per reaching thread up to
** the warp's span, reads every column in full once P > 1/32; rows that
** pass a filter on a clustered column (SSB: lo_orderdate, one value for
** an order's ~4 consecutive lines) leave most sectors untouched, and a
** plan that filters on such a column first reads fewer bytes (H100, SF 20
** Q1.1, date first: 0.40 against 0.52 ms; bench/RESULTS.md). */
static double predorder_sector_frac(const predorder_model *p, double b, double P, double L) {
  double R = fmax((double)p->nSectorByte / b, 1.0);
  if (P >= 1.0) return 1.0;
  return 1.0 - pow(1.0 - P, fmax(R / L, 1.0));
}

/* The run length of the rows reaching condition s of aOrder in a kernel
** that scans the table from condition i on: the least rRun of conditions
** i..s-1 (a condition on an unclustered column breaks the runs up); 0
** when s == i or any is unknown. */
static double predorder_run_before(const predorder_cond *aCond, const int *aOrder, int i,
                                   int s) {
  double L = 0.0;
  for (int t = i; t < s; t++) {
    double r = aCond[aOrder[t]].rRun;
    if (!(r >= 1.0)) return 0.0;
    if (L == 0.0 || r < L) L = r;
  }
  return L;
}

/* Returns the cost in seconds, per warp of a kernel's input rows, of the
** group of conditions aCond[aOrder[s..e]] evaluated with no-branch `&`.
** D is the density of the kernel's input rows in the table (1 for a
** kernel that scans the table, the product of all earlier selectivities
** for one fed by record ids); P is the fraction of the kernel's input rows
** that reach the group; bBranch says whether a `&&` leads into it. L is
** the run length of the rows that reach it (predorder_run_before) in a
** kernel that scans the table (D = 1), or 0: then the paper's charge. */
static double predorder_group_sec(const predorder_model *p, const predorder_cond *aCond,
                                  const int *aOrder, int s, int e, double D,
                                  double P, int bBranch, double L) {
  const double w = (double)p->nWarp, T = (double)p->nTxnByte;
  double nTxn = 0.0, rProbe = 0.0, nOp = bBranch ? p->nBranchOp : 0;
  int k = e - s + 1;

  for (int t = s; t <= e; t++) {
    const predorder_cond *c = &aCond[aOrder[t]];
    if (c->nByte > 0) {
      double b = (double)c->nByte;
      if (L >= 1.0) {
        /* The sectors that hold a reaching row, of the warp's span. */
        nTxn += w * b / T * predorder_sector_frac(p, b, P, L);
      } else {
        /* Transactions an active thread needs, and those the warp's rows
        ** span: min(P*w, w*b/(D*T)) [004 §3.1, §3.2], see the file header. */
        double nNeed = P * w * ceil(b / T);
        double nSpan = D > 0.0 ? w * b / (D * T) : nNeed;
        nTxn += fmin(nNeed, nSpan);
      }
    }
    if (c->bProbe) rProbe += P * w * predorder_lookup_sec(p, c);
    nOp += c->nOp > 0 ? c->nOp : PREDORDER_OP_DEFAULT;
  }
  /* r_k weights a branch-free group's loads [004 §3.1]. */
  nTxn *= p->aRate[k < PREDORDER_RATE_MAX ? k : PREDORDER_RATE_MAX];
  /* A warp issues the group's instructions if any thread reaches it. */
  return nTxn * T / p->rScanBw + rProbe + fmin(P * w, 1.0) * nOp * predorder_op_sec(p);
}

/* Returns the seconds a kernel over conditions i..j of n adds beyond its
** per-warp work: its launch, reading the record ids of rows that reached
** it (not the first kernel) and writing those of rows that pass it (not
** the last) [004 §3.2, write cost_rid]. Di and Do are the fractions of the
** table's nRow rows entering and leaving it. */
static double predorder_kernel_extra_sec(const predorder_model *p, int i, int j, int n,
                                         double nRow, double Di, double Do) {
  double r = p->rLaunchSec;
  if (i > 0) r += nRow * Di * (double)p->nRidByte / p->rDevBw;
  if (j < n - 1) r += nRow * Do * (double)p->nRidByte / p->rDevBw;
  return r;
}

double predorder_rank(const predorder_model *p, const predorder_cond *c) {
  int i = 0;
  /* Stand-alone cost per row: the condition as the only group of a kernel
  ** scanning the table. */
  double rCost = predorder_group_sec(p, c, &i, 0, 0, 1.0, 1.0, 0, 0.0) / (double)p->nWarp;
  if (c->rSel >= 1.0) return 0.0;
  if (!(rCost > 0.0)) return -HUGE_VAL;
  return (c->rSel - 1.0) / rCost;
}

/* ---- plan cost, walked plan by plan ----------------------------------------- */

double predorder_plan_cost(const predorder_model *p, const predorder_cond *aCond,
                           double nRow, const predorder_plan *pPlan) {
  const int n = pPlan->nCond;
  const int *aOrder = pPlan->aOrder;
  double rTotal = 0.0, D = 1.0;
  int i = 0;

  while (i < n) {
    int j = i, s = i;
    double P = 1.0, rWarp = 0.0;
    while (j + 1 < n && pPlan->aJoin[j + 1] != PREDORDER_JOIN_KERNEL) j++;
    /* Kernel i..j: its groups, each reached by the rows passing the ones
    ** before it in this kernel. */
    while (s <= j) {
      int e = s;
      while (e + 1 <= j && pPlan->aJoin[e + 1] == PREDORDER_JOIN_NOBRANCH) e++;
      double L = D >= 1.0 ? predorder_run_before(aCond, aOrder, i, s) : 0.0;
      rWarp += predorder_group_sec(p, aCond, aOrder, s, e, D, P, s > i, L);
      for (int t = s; t <= e; t++) P *= aCond[aOrder[t]].rSel;
      s = e + 1;
    }
    rTotal += nRow * D / (double)p->nWarp * rWarp;
    rTotal += predorder_kernel_extra_sec(p, i, j, n, nRow, D, D * P);
    D *= P;
    i = j + 1;
  }
  return rTotal;
}

/* ---- the dynamic program [004 §4] ----------------------------------------- */

/* What the search shares: conditions in rank order and their prefix
** products, aPre[t] = product of the selectivities of aOrder[0..t-1]. */
typedef struct predorder_search predorder_search;
struct predorder_search {
  const predorder_model *p;
  const predorder_cond *aCond;     /* the caller's conditions */
  const int *aOrder;               /* the order searched (rank order, or one
                                   ** of every order: PREDORDER_PERMUTE_MAX) */
  int nCond;
  double nRow;
  double aPre[PREDORDER_MAX_DP + 1];
};

/* One run of Algorithm 1 [004 §4] for a kernel that starts at condition i
** and may extend to condition m-1. On return aA[s][e] (i <= s <= e < m)
** holds the least cost per warp of the kernel's input of conditions s..e
** evaluated within that kernel, and aSplit[s][e] how it was reached: -1 for
** one no-branch group, else the first condition of the right part of
** `l && r`.
**
** The paper's loop: "for all r in P in increasing order, for all l in P in
** increasing order such that rank(l.last)+1 = rank(r.first): A[l u r] =
** min(A[l u r], (l && r).cost)". Its order must put every subset before
** its supersets and l before r's use of it; here r = s..e runs by last
** condition e ascending, then by size ascending (s descending), so every
** A[l] (l ends before e) and A[r] (its own splits have shorter right
** parts) is final when used. (l && r).cost = A[l] + A[r]: the costs are
** per warp of the same kernel input, and A[r] already charges r for the
** rows that reach it and for the `&&` leading into it. O(n^3). */
static void predorder_dp_kernel(const predorder_search *q, int i, int m,
                                double aA[][PREDORDER_MAX_DP],
                                signed char aSplit[][PREDORDER_MAX_DP]) {
  double aRel[PREDORDER_MAX_DP + 1];   /* rows of the kernel's input reaching s */
  double D = q->aPre[i];

  aRel[i] = 1.0;
  for (int s = i; s < m; s++) aRel[s + 1] = aRel[s] * q->aCond[q->aOrder[s]].rSel;

  /* "Generate all no-branch plans for subsets p in P". */
  for (int s = i; s < m; s++) {
    double L = D >= 1.0 ? predorder_run_before(q->aCond, q->aOrder, i, s) : 0.0;
    for (int e = s; e < m; e++) {
      aA[s][e] = predorder_group_sec(q->p, q->aCond, q->aOrder, s, e, D, aRel[s], s > i, L);
      aSplit[s][e] = -1;
    }
  }
  for (int e = i; e < m; e++) {
    for (int s = e; s > i; s--) {            /* r = s..e */
      for (int t = i; t < s; t++) {          /* l = t..s-1 */
        double rCost = aA[t][s - 1] + aA[s][e];
        if (rCost < aA[t][e]) {
          aA[t][e] = rCost;
          aSplit[t][e] = (signed char)s;
        }
      }
    }
  }
}

/* Writes the joins of conditions s..e, in a kernel starting at iKernel,
** from the split table of predorder_dp_kernel(). */
static void predorder_emit_groups(signed char aSplit[][PREDORDER_MAX_DP], int iKernel,
                                  int s, int e, uint8_t *aJoin) {
  int iMid = aSplit[s][e];
  if (iMid < 0) {
    if (s > iKernel) aJoin[s] = PREDORDER_JOIN_BRANCH;
    for (int t = s + 1; t <= e; t++) aJoin[t] = PREDORDER_JOIN_NOBRANCH;
    return;
  }
  predorder_emit_groups(aSplit, iKernel, s, iMid - 1, aJoin);
  predorder_emit_groups(aSplit, iKernel, iMid, e, aJoin);
}

/* Returns the seconds of conditions i..j as one kernel, given aA of the
** run of predorder_dp_kernel() that started at i. */
static double predorder_fused_sec(const predorder_search *q, int i, int j,
                                  double aA[][PREDORDER_MAX_DP]) {
  double Di = q->aPre[i], Do = q->aPre[j + 1];
  return q->nRow * Di / (double)q->p->nWarp * aA[i][j] +
         predorder_kernel_extra_sec(q->p, i, j, q->nCond, q->nRow, Di, Do);
}

/* Chooses the groups and kernels of q's conditions into aJoin and returns
** the plan's cost. Single kernel: one run of Algorithm 1. Multi-kernel:
** the same skeleton over kernels, where combining l and r costs the sum
** of the two (each already charged its launch and record ids) [004 §4
** "Multi-kernel Optimization"]; the fused cost of a kernel i..j is
** Algorithm 1's, run once per first condition i because a kernel fed by
** record ids sees its rows compacted (P = 1 at its start). That makes the
** multi-kernel search O(n^4) in all, not the paper's O(n^3), which holds
** only if a range's fused cost did not depend on where its kernel starts;
** at n <= 32 it is a few tens of thousands of steps. */
static double predorder_search_run(const predorder_search *q, int bMulti, uint8_t *aJoin) {
  double aA[PREDORDER_MAX_DP][PREDORDER_MAX_DP];
  signed char aSplit[PREDORDER_MAX_DP][PREDORDER_MAX_DP];
  double aK[PREDORDER_MAX_DP][PREDORDER_MAX_DP];
  signed char aKSplit[PREDORDER_MAX_DP][PREDORDER_MAX_DP];
  const int n = q->nCond;
  double rCost;

  if (!bMulti) {
    predorder_dp_kernel(q, 0, n, aA, aSplit);
    aJoin[0] = PREDORDER_JOIN_FIRST;
    predorder_emit_groups(aSplit, 0, 0, n - 1, aJoin);
    return predorder_fused_sec(q, 0, n - 1, aA);
  }

  for (int i = 0; i < n; i++) {
    predorder_dp_kernel(q, i, n, aA, aSplit);
    for (int j = i; j < n; j++) {
      aK[i][j] = predorder_fused_sec(q, i, j, aA);
      aKSplit[i][j] = -1;
    }
  }
  for (int e = 0; e < n; e++) {
    for (int s = e; s > 0; s--) {
      for (int t = 0; t < s; t++) {
        double rSum = aK[t][s - 1] + aK[s][e];
        if (rSum < aK[t][e]) {
          aK[t][e] = rSum;
          aKSplit[t][e] = (signed char)s;
        }
      }
    }
  }
  rCost = aK[0][n - 1];

  /* Kernel boundaries from aKSplit (iteratively: a kernel-level split
  ** tree's leaves, left to right), then each kernel's groups. */
  {
    int aStack[PREDORDER_MAX_DP][2], nStack = 0;
    aStack[nStack][0] = 0;
    aStack[nStack++][1] = n - 1;
    while (nStack > 0) {
      int s = aStack[nStack - 1][0], e = aStack[nStack - 1][1], iMid;
      nStack--;
      iMid = aKSplit[s][e];
      if (iMid >= 0) {
        /* Right part pushed first, so the left one is taken first. */
        aStack[nStack][0] = iMid;
        aStack[nStack++][1] = e;
        aStack[nStack][0] = s;
        aStack[nStack++][1] = iMid - 1;
        continue;
      }
      predorder_dp_kernel(q, s, e + 1, aA, aSplit);
      aJoin[s] = s == 0 ? PREDORDER_JOIN_FIRST : PREDORDER_JOIN_KERNEL;
      predorder_emit_groups(aSplit, s, s, e, aJoin);
    }
  }
  return rCost;
}

/* ---- choosing a plan ------------------------------------------------------ */

/* Returns whether condition c is in range. */
static int predorder_cond_ok(const predorder_cond *c) {
  return c->rSel >= 0.0 && c->rSel <= 1.0 && c->nByte >= 0 && c->nOp >= 0;
}

/* Sets pPlan's kernel and group counts from its joins. */
static void predorder_plan_count(predorder_plan *pPlan) {
  pPlan->nKernel = pPlan->nGroup = 1;
  for (int i = 1; i < pPlan->nCond; i++) {
    pPlan->nKernel += pPlan->aJoin[i] == PREDORDER_JOIN_KERNEL;
    pPlan->nGroup += pPlan->aJoin[i] != PREDORDER_JOIN_NOBRANCH;
  }
}

/* Next permutation of a[0..n-1] in lexicographic order of positions;
** returns 0 after the last. */
static int predorder_next_perm(int *a, int n) {
  int i = n - 2, j = n - 1, t;
  while (i >= 0 && a[i] >= a[i + 1]) i--;
  if (i < 0) return 0;
  while (a[j] <= a[i]) j--;
  t = a[i];
  a[i] = a[j];
  a[j] = t;
  for (int l = i + 1, r = n - 1; l < r; l++, r--) {
    t = a[l];
    a[l] = a[r];
    a[r] = t;
  }
  return 1;
}

/* Runs the search on every order of the conditions (positions into the
** rank order aRankOrder, so that the rank order comes first and wins
** ties), leaving the cheapest order in pPlan->aOrder and its joins in
** pPlan->aJoin. Returns the cost. */
static double predorder_search_orders(predorder_search *q, const int *aRankOrder, int bMulti,
                                      predorder_plan *pPlan) {
  int aPos[PREDORDER_PERMUTE_MAX], aTry[PREDORDER_PERMUTE_MAX];
  uint8_t aJoin[PREDORDER_PERMUTE_MAX];
  double rBest = HUGE_VAL;
  const int n = q->nCond;
  for (int i = 0; i < n; i++) aPos[i] = i;
  q->aOrder = aTry;
  do {
    double r;
    for (int i = 0; i < n; i++) aTry[i] = aRankOrder[aPos[i]];
    for (int i = 0; i < n; i++) q->aPre[i + 1] = q->aPre[i] * q->aCond[aTry[i]].rSel;
    r = predorder_search_run(q, bMulti, aJoin);
    if (r < rBest) {
      rBest = r;
      memcpy(pPlan->aOrder, aTry, sizeof(int) * (size_t)n);
      memcpy(pPlan->aJoin, aJoin, (size_t)n);
    }
  } while (predorder_next_perm(aPos, n));
  q->aOrder = pPlan->aOrder;
  return rBest;
}

int predorder_plan_choose(const predorder_model *p, const predorder_cond *aCond,
                          int nCond, double nRow, unsigned mFlag,
                          predorder_plan *pPlan) {
  predorder_search q;
  double *aRank;

  memset(pPlan, 0, sizeof(*pPlan));
  if (nCond < 1 || !(nRow >= 0.0) || !predorder_model_ok(p)) return -EINVAL;
  for (int i = 0; i < nCond; i++) {
    if (!predorder_cond_ok(&aCond[i])) return -EINVAL;
  }

  pPlan->aOrder = malloc(sizeof(int) * (size_t)nCond);
  pPlan->aJoin = malloc((size_t)nCond);
  aRank = malloc(sizeof(double) * (size_t)nCond);
  if (pPlan->aOrder == NULL || pPlan->aJoin == NULL || aRank == NULL) {
    free(aRank);
    predorder_plan_free(pPlan);
    return -ENOMEM;
  }
  pPlan->nCond = nCond;

  /* Rank order, ascending (Hellerstein's metric [004 §2]); insertion sort
  ** is stable, so equal ranks keep the caller's order. */
  for (int i = 0; i < nCond; i++) {
    double r = predorder_rank(p, &aCond[i]);
    int j = i;
    while (j > 0 && aRank[j - 1] > r) {
      aRank[j] = aRank[j - 1];
      pPlan->aOrder[j] = pPlan->aOrder[j - 1];
      j--;
    }
    aRank[j] = r;
    pPlan->aOrder[j] = i;
  }
  free(aRank);

  pPlan->rSel = 1.0;
  for (int i = 0; i < nCond; i++) pPlan->rSel *= aCond[i].rSel;

  if (nCond > PREDORDER_MAX_DP) {
    /* Fallback: every condition behind a branch, so each is read only for
    ** warps that still have a surviving row — never far from the best plan
    ** at low selectivity, and at most the r_k overlap worse elsewhere. */
    pPlan->bFallback = 1;
    pPlan->aJoin[0] = PREDORDER_JOIN_FIRST;
    for (int i = 1; i < nCond; i++) pPlan->aJoin[i] = PREDORDER_JOIN_BRANCH;
    pPlan->rCost = predorder_plan_cost(p, aCond, nRow, pPlan);
  } else {
    q.p = p;
    q.aCond = aCond;
    q.aOrder = pPlan->aOrder;
    q.nCond = nCond;
    q.nRow = nRow;
    q.aPre[0] = 1.0;
    if (nCond <= PREDORDER_PERMUTE_MAX && !(mFlag & PREDORDER_RANK_ONLY)) {
      int aRankOrder[PREDORDER_PERMUTE_MAX];
      memcpy(aRankOrder, pPlan->aOrder, sizeof(int) * (size_t)nCond);
      pPlan->rCost = predorder_search_orders(&q, aRankOrder,
                                             (mFlag & PREDORDER_MULTI_KERNEL) != 0, pPlan);
    } else {
      for (int i = 0; i < nCond; i++) q.aPre[i + 1] = q.aPre[i] * aCond[pPlan->aOrder[i]].rSel;
      pPlan->rCost = predorder_search_run(&q, (mFlag & PREDORDER_MULTI_KERNEL) != 0,
                                          pPlan->aJoin);
    }
  }

  predorder_plan_count(pPlan);
  return 0;
}

int predorder_plan_force(const predorder_model *p, const predorder_cond *aCond, double nRow,
                         const char *zText, predorder_plan *pPlan) {
  int aOrder[PREDORDER_MAX_DP], n = 0;
  uint8_t aJoin[PREDORDER_MAX_DP], aSeen[PREDORDER_MAX_DP] = {0};
  const char *z = zText;
  if (z == NULL || pPlan->nCond < 1 || pPlan->nCond > PREDORDER_MAX_DP) return -1;
  for (;;) {
    char *zEnd;
    long i = strtol(z, &zEnd, 10);
    if (zEnd == z || i < 1 || i > pPlan->nCond || aSeen[i - 1] || n == pPlan->nCond) return -1;
    aSeen[i - 1] = 1;
    aOrder[n] = (int)i - 1;
    z = zEnd;
    n++;
    if (*z == 0) break;
    if (z[0] == '&' && z[1] == '&') {
      aJoin[n] = PREDORDER_JOIN_BRANCH;
      z += 2;
    } else if (*z == '&' || *z == '|') {
      aJoin[n] = *z == '&' ? PREDORDER_JOIN_NOBRANCH : PREDORDER_JOIN_KERNEL;
      z++;
    } else {
      return -1;
    }
  }
  if (n != pPlan->nCond) return -1;
  aJoin[0] = PREDORDER_JOIN_FIRST;
  memcpy(pPlan->aOrder, aOrder, sizeof(int) * (size_t)n);
  memcpy(pPlan->aJoin, aJoin, (size_t)n);
  predorder_plan_count(pPlan);
  pPlan->rCost = predorder_plan_cost(p, aCond, nRow, pPlan);
  return 0;
}

void predorder_plan_free(predorder_plan *pPlan) {
  free(pPlan->aOrder);
  free(pPlan->aJoin);
  memset(pPlan, 0, sizeof(*pPlan));
}

/* ---- EXPLAIN -------------------------------------------------------------- */

/* An output buffer that counts what it could not hold, as snprintf does. */
typedef struct predorder_out predorder_out;
struct predorder_out {
  char *z;
  size_t nAlloc;
  size_t n;               /* length the text needs so far */
};

static void predorder_out_put(predorder_out *o, const char *zFmt, ...)
    __attribute__((format(printf, 2, 3)));
static void predorder_out_put(predorder_out *o, const char *zFmt, ...) {
  va_list ap;
  int nAdd;
  char *zAt = o->n < o->nAlloc ? o->z + o->n : NULL;
  size_t nRoom = o->n < o->nAlloc ? o->nAlloc - o->n : 0;
  va_start(ap, zFmt);
  nAdd = vsnprintf(zAt, nRoom, zFmt, ap);
  va_end(ap);
  if (nAdd > 0) o->n += (size_t)nAdd;
}

size_t predorder_plan_format(const predorder_plan *pPlan,
                             const char *const *azName, char *zBuf, size_t nBuf) {
  predorder_out o = {zBuf, nBuf, 0};
  const int n = pPlan->nCond;
  int bParen = 0;                 /* the current kernel has several groups */

  if (nBuf > 0) zBuf[0] = 0;
  for (int i = 0; i < n; i++) {
    int iCond = pPlan->aOrder[i];
    int bGroupStart = i == 0 || pPlan->aJoin[i] != PREDORDER_JOIN_NOBRANCH;
    int bGroupMulti = i + 1 < n && pPlan->aJoin[i + 1] == PREDORDER_JOIN_NOBRANCH;
    if (i == 0 || pPlan->aJoin[i] == PREDORDER_JOIN_KERNEL) {
      bParen = 0;
      for (int j = i + 1; j < n && pPlan->aJoin[j] != PREDORDER_JOIN_KERNEL; j++) {
        if (pPlan->aJoin[j] == PREDORDER_JOIN_BRANCH) bParen = 1;
      }
    }
    if (i > 0) {
      static const char *const azJoin[] = {"", " & ", " && ", " | "};
      int eJoin = pPlan->aJoin[i] <= PREDORDER_JOIN_KERNEL ? pPlan->aJoin[i] : 0;
      predorder_out_put(&o, "%s", azJoin[eJoin]);
    }
    if (bParen && bGroupStart && bGroupMulti) predorder_out_put(&o, "(");
    if (azName != NULL) predorder_out_put(&o, "%s", azName[iCond]);
    else predorder_out_put(&o, "c%d", iCond);
    if (bParen && !bGroupStart && !bGroupMulti) predorder_out_put(&o, ")");
  }
  return o.n;
}
