/*
** tests/test-predorder.c — predicate order, `&&`/`&` grouping and kernel
** split (planner/predorder.c): the rank metric, the dynamic program's
** choices across selectivities as paper 004's Figure 2 shows them, probes,
** multi-kernel plans, a brute-force proof of the search for n <= 6 (every
** order up to PREDORDER_PERMUTE_MAX), plans spelled out, the fallback
** above PREDORDER_MAX_DP, and the EXPLAIN notation.
*/
#include <errno.h>
#include <math.h>

#include "../planner/predorder.h"
#include "test.h"

#define PO_ROWS 128e6              /* the paper's table: 128 million rows */

/* A 4-byte column compared against a range: the paper's condition. */
static predorder_cond po_int(double rSel) {
  predorder_cond c;
  memset(&c, 0, sizeof(c));
  c.rSel = rSel;
  c.nByte = 4;
  return c;
}

/* Chooses a plan for aCond and returns its EXPLAIN text in zOut. */
static void po_choose(const predorder_cond *aCond, int n, double nRow, unsigned mFlag,
                      predorder_plan *pPlan, char *zOut, size_t nOut) {
  predorder_model m;
  predorder_model_default(&m);
  ASSERT_EQ(predorder_plan_choose(&m, aCond, n, nRow, mFlag, pPlan), 0);
  ASSERT(predorder_plan_format(pPlan, NULL, zOut, nOut) < nOut);
}

/* Returns whether a and b agree to a relative 1e-9. */
static int po_close(double a, double b) {
  return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-300;
}

TEST_IMPL(predorder_rank) {
  predorder_model m;
  predorder_cond a[4];
  predorder_plan plan;
  char z[128];
  double rOp, rRow;

  predorder_model_default(&m);

  /* The metric itself: (sel - 1) / cost per row, the cost being one
  ** 128-byte transaction per warp at the scan bandwidth plus three ALU
  ** operations for the whole warp. */
  rOp = 1.0 / (132.0 * 4.0 * 1.98e9);
  rRow = (128.0 / 50.7e9 + 3.0 * rOp) / 32.0;
  a[0] = po_int(0.25);
  ASSERT(po_close(predorder_rank(&m, &a[0]), -0.75 / rRow));
  a[0] = po_int(1.0);
  ASSERT(predorder_rank(&m, &a[0]) == 0.0);
  a[0].nByte = 0;
  a[0].rSel = 0.5;
  a[0].nOp = 0;
  m.nBranchOp = 0;
  ASSERT(predorder_rank(&m, &a[0]) < -1e9);

  /* Same cost: the more selective first. Same selectivity: the cheaper
  ** first (8 bytes read is twice the cost of 4). Equal ranks keep the
  ** caller's order; a condition passing everything goes last. */
  a[0] = po_int(1.0);
  a[1] = po_int(0.5);
  a[1].nByte = 8;
  a[2] = po_int(0.5);
  a[3] = po_int(0.1);
  po_choose(a, 4, PO_ROWS, 0, &plan, z, sizeof(z));
  ASSERT_EQ(plan.aOrder[0], 3);
  ASSERT_EQ(plan.aOrder[1], 2);
  ASSERT_EQ(plan.aOrder[2], 1);
  ASSERT_EQ(plan.aOrder[3], 0);
  predorder_plan_free(&plan);

  a[0] = po_int(0.3);
  a[1] = po_int(0.3);
  po_choose(a, 2, PO_ROWS, 0, &plan, z, sizeof(z));
  ASSERT_EQ(plan.aOrder[0], 0);
  ASSERT_EQ(plan.aOrder[1], 1);
  predorder_plan_free(&plan);

  /* An expensive predicate (a substring match: thousands of operations)
  ** goes after a cheap one of the same selectivity, whatever the input
  ** order. */
  a[0] = po_int(0.3);
  a[0].nOp = 4000;
  a[1] = po_int(0.3);
  po_choose(a, 2, PO_ROWS, 0, &plan, z, sizeof(z));
  ASSERT_EQ(plan.aOrder[0], 1);
  ASSERT_EQ(plan.aOrder[1], 0);
  predorder_plan_free(&plan);
  return 0;
}

TEST_IMPL(predorder_probe_order) {
  predorder_model m;
  predorder_cond a[3];
  predorder_plan plan;
  char z[128];
  double rSmall, rBig;

  predorder_model_default(&m);
  /* A probe reads its 4-byte key and makes a random access. */
  a[0] = po_int(0.2);
  a[0].bProbe = 1;
  a[0].nLookupByte = 4ull << 30;            /* 4 GB: misses L2 */
  a[1] = po_int(0.2);                       /* a plain predicate */
  a[2] = po_int(0.2);
  a[2].bProbe = 1;
  a[2].nLookupByte = 1ull << 20;            /* 1 MB: L2-resident */

  /* An L2-resident structure is cheaper to probe, so it ranks lower. */
  rSmall = predorder_rank(&m, &a[2]);
  rBig = predorder_rank(&m, &a[0]);
  ASSERT(rSmall < rBig);
  ASSERT(predorder_rank(&m, &a[1]) < rSmall);

  po_choose(a, 3, PO_ROWS, 0, &plan, z, sizeof(z));
  ASSERT_EQ(plan.aOrder[0], 1);             /* predicate before both probes */
  ASSERT_EQ(plan.aOrder[1], 2);
  ASSERT_EQ(plan.aOrder[2], 0);
  predorder_plan_free(&plan);

  /* A probe of a structure in device memory goes after a plain predicate
  ** that filters a little less but costs less: per warp the probe costs
  ** its key's transaction (2.52 ns at 50.7 GB/s) plus 32 random sectors
  ** (0.37 ns at 2.78 TB/s), so it loses to 0.55 but would win against
  ** 0.6. */
  a[0].rSel = 0.5;
  a[1].rSel = 0.55;
  po_choose(a, 2, PO_ROWS, 0, &plan, z, sizeof(z));
  ASSERT_EQ(plan.aOrder[0], 1);
  predorder_plan_free(&plan);
  a[1].rSel = 0.6;
  po_choose(a, 2, PO_ROWS, 0, &plan, z, sizeof(z));
  ASSERT_EQ(plan.aOrder[0], 0);
  predorder_plan_free(&plan);
  /* Equal selectivity: the plain predicate always first. */
  a[1].rSel = 0.5;
  po_choose(a, 2, PO_ROWS, 0, &plan, z, sizeof(z));
  ASSERT_EQ(plan.aOrder[0], 1);
  predorder_plan_free(&plan);
  return 0;
}

TEST_IMPL(predorder_pair_sweep) {
  /* Two 4-byte conditions, same selectivity s. Branching costs
  ** 1 + min(32 s, 1) transactions per warp, no-branch 2 r_2 = 1.5
  ** [004 §3.1, §4]: `&&` wins below s = 1/64, `&` from there on,
  ** high selectivities included (Figure 2: no-branch from 0.4 up). */
  static const double aLow[] = {0.0, 0.001, 0.005, 0.01, 0.015};
  static const double aHigh[] = {0.017, 0.05, 0.2, 0.5, 0.9, 1.0};
  predorder_cond a[2];
  predorder_plan plan;
  char z[128];

  for (size_t i = 0; i < sizeof(aLow) / sizeof(aLow[0]); i++) {
    a[0] = a[1] = po_int(aLow[i]);
    po_choose(a, 2, PO_ROWS, 0, &plan, z, sizeof(z));
    ASSERT_STR_EQ(z, "c0 && c1");
    predorder_plan_free(&plan);
  }
  for (size_t i = 0; i < sizeof(aHigh) / sizeof(aHigh[0]); i++) {
    a[0] = a[1] = po_int(aHigh[i]);
    po_choose(a, 2, PO_ROWS, 0, &plan, z, sizeof(z));
    ASSERT_STR_EQ(z, "c0 & c1");
    predorder_plan_free(&plan);
  }

  /* Unequal: the second condition sits behind the first; a selective first
  ** condition puts a branch before an expensive second one. */
  a[0] = po_int(0.01);
  a[1] = po_int(0.5);
  po_choose(a, 2, PO_ROWS, 0, &plan, z, sizeof(z));
  ASSERT_STR_EQ(z, "c0 && c1");
  predorder_plan_free(&plan);
  a[0] = po_int(0.1);
  po_choose(a, 2, PO_ROWS, 0, &plan, z, sizeof(z));
  ASSERT_STR_EQ(z, "c0 & c1");
  predorder_plan_free(&plan);
  return 0;
}

TEST_IMPL(predorder_fig2_four) {
  /* Figure 2 of [004]: four conditions of equal selectivity on a 128M-row
  ** table. As selectivity grows the best plan goes S1111 -> S211 -> S31
  ** -> S4, each for one range, never coming back; S4 for >= 0.4. */
  static const char *const azExpect[] = {
    "c0 && c1 && c2 && c3",                 /* S1111 */
    "(c0 & c1) && c2 && c3",                /* S211 */
    "(c0 & c1 & c2) && c3",                 /* S31 */
    "c0 & c1 & c2 & c3",                    /* S4 */
  };
  predorder_cond a[4];
  predorder_plan plan;
  char z[128];
  int iSeen = 0;
  double aFirst[4] = {0, 0, 0, 0};

  for (int iStep = 0; iStep <= 1000; iStep++) {
    double s = iStep / 1000.0;
    for (int i = 0; i < 4; i++) a[i] = po_int(s);
    po_choose(a, 4, PO_ROWS, 0, &plan, z, sizeof(z));
    if (strcmp(z, azExpect[iSeen]) != 0) {
      ASSERT(iSeen < 3);
      iSeen++;
      ASSERT_STR_EQ(z, azExpect[iSeen]);
      aFirst[iSeen] = s;
    }
    predorder_plan_free(&plan);
  }
  ASSERT_EQ(iSeen, 3);
  /* Crossovers the model computes: 32 s = 0.5 (S1111/S211), 32 s^2 =
  ** 0.54 (S211/S31), 32 s^3 = 0.68 (S31/S4); the paper measured about
  ** 0.05, 0.2 and 0.4 on its GPU. */
  ASSERT(aFirst[1] > 0.01 && aFirst[1] < 0.02);
  ASSERT(aFirst[2] > 0.11 && aFirst[2] < 0.15);
  ASSERT(aFirst[3] > 0.25 && aFirst[3] <= 0.4);
  return 0;
}

TEST_IMPL(predorder_multi_kernel) {
  /* Figure 3 of [004], middle: two cheap conditions then an expensive
  ** substring match, selectivity 0.5 each; the first condition selective.
  ** Compacting the survivors before the expensive condition (K21) beats
  ** making idle threads wait in a fused kernel. */
  predorder_cond a[3];
  predorder_plan plan;
  char z[128];

  a[0] = po_int(0.1);
  a[1] = po_int(0.5);
  a[2] = po_int(0.5);
  a[2].nByte = 16;
  a[2].nOp = 40000;
  po_choose(a, 3, PO_ROWS, PREDORDER_MULTI_KERNEL, &plan, z, sizeof(z));
  ASSERT_EQ(plan.nKernel, 2);
  ASSERT_EQ(plan.aJoin[2], PREDORDER_JOIN_KERNEL);
  predorder_plan_free(&plan);

  /* Without the flag the plan is one fused kernel. */
  po_choose(a, 3, PO_ROWS, 0, &plan, z, sizeof(z));
  ASSERT_EQ(plan.nKernel, 1);
  ASSERT(strchr(z, '|') == NULL);
  predorder_plan_free(&plan);

  /* On a tiny table the launch outweighs it all: one kernel. */
  po_choose(a, 3, 1000, PREDORDER_MULTI_KERNEL, &plan, z, sizeof(z));
  ASSERT_EQ(plan.nKernel, 1);
  predorder_plan_free(&plan);

  /* Cheap, unselective conditions: fuse-only is fastest (Figure 7). */
  a[0] = po_int(0.5);
  a[1] = po_int(0.5);
  a[2] = po_int(0.5);
  po_choose(a, 3, PO_ROWS, PREDORDER_MULTI_KERNEL, &plan, z, sizeof(z));
  ASSERT_STR_EQ(z, "c0 & c1 & c2");
  predorder_plan_free(&plan);
  return 0;
}

TEST_IMPL(predorder_cost_formula) {
  /* The model against the paper's own equations, in units of r/w
  ** transactions: ALU time and launches made negligible, record ids read
  ** and written at the scan bandwidth, so only transactions count. */
  predorder_model m;
  predorder_cond a[4];
  predorder_plan plan;
  int aOrder[4] = {0, 1, 2, 3};
  uint8_t aJoin[4];
  double rUnit, s = 0.02;

  predorder_model_default(&m);
  m.rClockHz = 1e30;
  m.rLaunchSec = 0.0;
  m.rDevBw = m.rScanBw;
  rUnit = PO_ROWS / 32.0 * 128.0 / m.rScanBw;    /* r/w transactions */
  for (int i = 0; i < 4; i++) a[i] = po_int(s);
  memset(&plan, 0, sizeof(plan));
  plan.aOrder = aOrder;
  plan.aJoin = aJoin;

  /* (C1 & C2 & C3) && C4 = r_3 * 3r/w + min(s^3 w, 1) * r/w [004 §3.1]. */
  plan.nCond = 4;
  aJoin[0] = PREDORDER_JOIN_FIRST;
  aJoin[1] = aJoin[2] = PREDORDER_JOIN_NOBRANCH;
  aJoin[3] = PREDORDER_JOIN_BRANCH;
  ASSERT(po_close(predorder_plan_cost(&m, a, PO_ROWS, &plan) / rUnit,
                  0.68 * 3 + fmin(s * s * s * 32, 1.0)));
  /* C1 && C2 && C3 && C4: each column for the warps still alive. */
  aJoin[1] = aJoin[2] = PREDORDER_JOIN_BRANCH;
  ASSERT(po_close(predorder_plan_cost(&m, a, PO_ROWS, &plan) / rUnit,
                  1.0 + fmin(s * 32, 1.0) + fmin(s * s * 32, 1.0) + fmin(s * s * s * 32, 1.0)));

  /* K111 with record ids [004 §3.2]: write cost_rid = sum sel_i! r/w, the
  ** list read back r/w sel_{i-1}!, and the gathered column: a warp of
  ** survivors at density D spans 32*4/(D*128) lines, at most 32. */
  plan.nCond = 3;
  for (int i = 0; i < 3; i++) a[i] = po_int(0.1);
  aJoin[1] = aJoin[2] = PREDORDER_JOIN_KERNEL;
  ASSERT(po_close(predorder_plan_cost(&m, a, PO_ROWS, &plan) / rUnit,
                  1.0 + 0.1                              /* scan c0, write */
                  + 0.1 + 0.1 * fmin(32, 10) + 0.01     /* read, gather c1, write */
                  + 0.01 + 0.01 * fmin(32, 100)));       /* read, gather c2 */
  return 0;
}

/* ---- brute force ---------------------------------------------------------- */

static uint64_t po_rand_state;

static uint32_t po_rand(void) {
  po_rand_state = po_rand_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(po_rand_state >> 33);
}

/* A random condition: selectivities on a log scale down to 1e-4 (and
** exact 0 and 1), widths 1..16 bytes, cheap to very expensive, some
** probes of L2-resident and of large structures. */
static predorder_cond po_random_cond(void) {
  static const int aByte[] = {0, 1, 2, 4, 4, 8, 16};
  static const int aOp[] = {0, 3, 20, 500, 50000};
  predorder_cond c;
  uint32_t r = po_rand() % 20;
  memset(&c, 0, sizeof(c));
  c.rSel = r == 0 ? 0.0 : r == 1 ? 1.0 : pow(10.0, -4.0 * (po_rand() % 1000) / 1000.0);
  c.nByte = aByte[po_rand() % 7];
  c.nOp = aOp[po_rand() % 5];
  c.bProbe = po_rand() % 3 == 0;
  if (c.bProbe) c.nLookupByte = (uint64_t)1 << (16 + po_rand() % 20);
  return c;
}

/* Returns the least predorder_plan_cost() over every plan on the order
** aOrder: each of the n-1 gaps is `&`, `&&`, or (with bMulti) `|`. Sets
** *pmShape to the OR of 1 (some `&` group), 2 (a `&&`), 4 (a `|`) of the
** best plan. */
static double po_brute(const predorder_model *m, const predorder_cond *aCond,
                       int *aOrder, int n, double nRow, int bMulti, int *pmShape) {
  int nChoice = bMulti ? 3 : 2, nPlan = 1;
  uint8_t aJoin[8];
  predorder_plan plan;
  double rBest = HUGE_VAL;

  for (int i = 1; i < n; i++) nPlan *= nChoice;
  memset(&plan, 0, sizeof(plan));
  plan.nCond = n;
  plan.aOrder = aOrder;
  plan.aJoin = aJoin;
  for (int iPlan = 0; iPlan < nPlan; iPlan++) {
    int x = iPlan, mShape = 0;
    double r;
    aJoin[0] = PREDORDER_JOIN_FIRST;
    for (int i = 1; i < n; i++) {
      aJoin[i] = (uint8_t)(PREDORDER_JOIN_NOBRANCH + x % nChoice);
      mShape |= 1 << (x % nChoice);
      x /= nChoice;
    }
    r = predorder_plan_cost(m, aCond, nRow, &plan);
    if (r < rBest) {
      rBest = r;
      *pmShape = mShape;
    }
  }
  return rBest;
}

/* The least po_brute() over every order of the n conditions. */
static double po_brute_orders(const predorder_model *m, const predorder_cond *aCond, int n,
                              double nRow, int bMulti, int *pmShape) {
  int aOrder[8], aCount[8] = {0}, i = 1;
  double rBest;
  for (int k = 0; k < n; k++) aOrder[k] = k;
  rBest = po_brute(m, aCond, aOrder, n, nRow, bMulti, pmShape);
  while (i < n) {                                     /* Heap's algorithm */
    if (aCount[i] < i) {
      int j = i % 2 ? aCount[i] : 0, t = aOrder[j], mShape = 0;
      double r;
      aOrder[j] = aOrder[i];
      aOrder[i] = t;
      r = po_brute(m, aCond, aOrder, n, nRow, bMulti, &mShape);
      if (r < rBest) {
        rBest = r;
        *pmShape = mShape;
      }
      aCount[i]++;
      i = 1;
    } else {
      aCount[i++] = 0;
    }
  }
  return rBest;
}

TEST_IMPL(predorder_dp_brute) {
  /* For n <= PREDORDER_PERMUTE_MAX the plan costs exactly the least of
  ** every order's 2^(n-1) groupings (single kernel) or 3^(n-1) groupings
  ** and splits (multi-kernel); for n = 6 the least of the rank order's
  ** (Algorithm 1's space, which it searches whole). The optima across the
  ** trials must include every shape, or the test would prove little. */
  predorder_model m;
  predorder_cond a[6];
  predorder_plan plan;
  int mSeen[2] = {0, 0}, nTrial = 0;

  predorder_model_default(&m);
  po_rand_state = 20130624;                 /* DaMoN'13 */
  for (int n = 1; n <= 6; n++) {
    for (int iTrial = 0; iTrial < 300; iTrial++) {
      double nRow = iTrial % 10 == 0 ? 1e5 : PO_ROWS;
      for (int i = 0; i < n; i++) a[i] = po_random_cond();
      for (int bMulti = 0; bMulti <= 1; bMulti++) {
        int mShape = 0;
        double rBrute;
        ASSERT_EQ(predorder_plan_choose(&m, a, n, nRow,
                                        bMulti ? PREDORDER_MULTI_KERNEL : 0, &plan), 0);
        if (n <= PREDORDER_PERMUTE_MAX) {
          rBrute = po_brute_orders(&m, a, n, nRow, bMulti, &mShape);
        } else {
          for (int i = 1; i < n; i++) {          /* rank order, ascending */
            ASSERT(predorder_rank(&m, &a[plan.aOrder[i - 1]]) <=
                   predorder_rank(&m, &a[plan.aOrder[i]]));
          }
          rBrute = po_brute(&m, a, plan.aOrder, n, nRow, bMulti, &mShape);
        }
        if (!po_close(plan.rCost, rBrute) ||
            !po_close(plan.rCost, predorder_plan_cost(&m, a, nRow, &plan))) {
          char z[128];
          predorder_plan_format(&plan, NULL, z, sizeof(z));
          FAIL("n=%d trial %d multi %d: DP %s costs %.9g (walked %.9g), brute %.9g",
               n, iTrial, bMulti, z, plan.rCost,
               predorder_plan_cost(&m, a, nRow, &plan), rBrute);
        }
        if (!bMulti) ASSERT_EQ(plan.nKernel, 1);
        mSeen[bMulti] |= mShape;
        predorder_plan_free(&plan);
        nTrial++;
      }
    }
  }
  ASSERT_EQ(mSeen[0], 3);
  ASSERT_EQ(mSeen[1], 7);
  ASSERT_EQ(nTrial, 3600);
  return 0;
}

/* ---- fallback, EXPLAIN, errors --------------------------------------------- */

TEST_IMPL(predorder_fallback) {
  predorder_model m;
  predorder_cond a[PREDORDER_MAX_DP + 8];
  predorder_plan plan;
  const int nBig = PREDORDER_MAX_DP + 8;

  predorder_model_default(&m);
  for (int i = 0; i < nBig; i++) a[i] = po_int(0.3 + 0.6 * ((i * 7) % nBig) / nBig);

  /* At the cap: searched. The first conditions pass too many rows for a
  ** branch to skip a transaction, so the DP groups them and beats the
  ** fallback's shape on the same order. */
  ASSERT_EQ(predorder_plan_choose(&m, a, PREDORDER_MAX_DP, PO_ROWS, PREDORDER_MULTI_KERNEL,
                                  &plan), 0);
  ASSERT_EQ(plan.bFallback, 0);
  ASSERT_EQ(plan.aJoin[1], PREDORDER_JOIN_NOBRANCH);
  {
    double rSearched = plan.rCost;
    for (int i = 1; i < PREDORDER_MAX_DP; i++) plan.aJoin[i] = PREDORDER_JOIN_BRANCH;
    ASSERT(rSearched < predorder_plan_cost(&m, a, PO_ROWS, &plan));
  }
  predorder_plan_free(&plan);

  /* Above it: rank order, all `&&`, one kernel, costed by the model. */
  ASSERT_EQ(predorder_plan_choose(&m, a, nBig, PO_ROWS, PREDORDER_MULTI_KERNEL, &plan), 0);
  ASSERT_EQ(plan.bFallback, 1);
  ASSERT_EQ(plan.nCond, nBig);
  ASSERT_EQ(plan.nKernel, 1);
  ASSERT_EQ(plan.nGroup, nBig);
  ASSERT_EQ(plan.aJoin[0], PREDORDER_JOIN_FIRST);
  for (int i = 1; i < nBig; i++) {
    ASSERT_EQ(plan.aJoin[i], PREDORDER_JOIN_BRANCH);
    ASSERT(a[plan.aOrder[i - 1]].rSel <= a[plan.aOrder[i]].rSel);
  }
  ASSERT(plan.rCost > 0.0);
  ASSERT(po_close(plan.rCost, predorder_plan_cost(&m, a, PO_ROWS, &plan)));
  predorder_plan_free(&plan);
  return 0;
}

TEST_IMPL(predorder_explain) {
  static const char *const azName[] = {"lo_discount", "d_year", "lo_quantity", "p_brand1"};
  int aOrder[5] = {2, 0, 1, 3, 4};
  uint8_t aJoin[5] = {PREDORDER_JOIN_FIRST, PREDORDER_JOIN_NOBRANCH, PREDORDER_JOIN_BRANCH,
                      PREDORDER_JOIN_KERNEL, PREDORDER_JOIN_NOBRANCH};
  predorder_plan plan;
  char z[128];

  memset(&plan, 0, sizeof(plan));
  plan.aOrder = aOrder;
  plan.aJoin = aJoin;
  plan.nCond = 4;
  ASSERT_EQ(predorder_plan_format(&plan, NULL, z, sizeof(z)), 20);
  ASSERT_STR_EQ(z, "(c2 & c0) && c1 | c3");
  predorder_plan_format(&plan, azName, z, sizeof(z));
  ASSERT_STR_EQ(z, "(lo_quantity & lo_discount) && d_year | p_brand1");

  /* A kernel of one group needs no parentheses; each kernel decides for
  ** itself. */
  plan.nCond = 5;
  predorder_plan_format(&plan, NULL, z, sizeof(z));
  ASSERT_STR_EQ(z, "(c2 & c0) && c1 | c3 & c4");
  aJoin[2] = PREDORDER_JOIN_NOBRANCH;
  aJoin[3] = PREDORDER_JOIN_BRANCH;
  aJoin[4] = PREDORDER_JOIN_KERNEL;
  predorder_plan_format(&plan, NULL, z, sizeof(z));
  ASSERT_STR_EQ(z, "(c2 & c0 & c1) && c3 | c4");
  plan.nCond = 1;
  predorder_plan_format(&plan, NULL, z, sizeof(z));
  ASSERT_STR_EQ(z, "c2");

  /* Truncation: snprintf's contract. */
  plan.nCond = 5;
  ASSERT_EQ(predorder_plan_format(&plan, NULL, z, 6), 25);
  ASSERT_STR_EQ(z, "(c2 &");
  ASSERT_EQ(predorder_plan_format(&plan, NULL, NULL, 0), 25);
  return 0;
}

TEST_IMPL(predorder_errors) {
  predorder_model m, mBad;
  predorder_cond a[2];
  predorder_plan plan;

  predorder_model_default(&m);
  a[0] = po_int(0.5);
  a[1] = po_int(0.5);
  ASSERT_EQ(predorder_plan_choose(&m, a, 0, PO_ROWS, 0, &plan), -EINVAL);
  ASSERT_EQ(predorder_plan_choose(&m, a, 2, -1.0, 0, &plan), -EINVAL);
  ASSERT_EQ(predorder_plan_choose(&m, a, 2, NAN, 0, &plan), -EINVAL);
  a[1].rSel = 1.5;
  ASSERT_EQ(predorder_plan_choose(&m, a, 2, PO_ROWS, 0, &plan), -EINVAL);
  a[1].rSel = NAN;
  ASSERT_EQ(predorder_plan_choose(&m, a, 2, PO_ROWS, 0, &plan), -EINVAL);
  a[1].rSel = -0.1;
  ASSERT_EQ(predorder_plan_choose(&m, a, 2, PO_ROWS, 0, &plan), -EINVAL);
  a[1] = po_int(0.5);
  a[1].nByte = -4;
  ASSERT_EQ(predorder_plan_choose(&m, a, 2, PO_ROWS, 0, &plan), -EINVAL);
  ASSERT(plan.aOrder == NULL);
  predorder_plan_free(&plan);                 /* an empty plan frees safely */
  a[1] = po_int(0.5);
  mBad = m;
  mBad.aRate[3] = 0.0;
  ASSERT_EQ(predorder_plan_choose(&mBad, a, 2, PO_ROWS, 0, &plan), -EINVAL);
  mBad = m;
  mBad.nWarp = 0;
  ASSERT_EQ(predorder_plan_choose(&mBad, a, 2, PO_ROWS, 0, &plan), -EINVAL);
  ASSERT_EQ(predorder_plan_choose(&m, a, 2, PO_ROWS, 0, &plan), 0);
  ASSERT_EQ(plan.nCond, 2);
  predorder_plan_free(&plan);
  return 0;
}

/* Every order searched: SSB Q1.3 on resident columns (the scan at device
** bandwidth), the date probe (0.27 % of rows) put ahead of the two columns
** the rank order puts first, because behind it they are read for few
** sectors; and a plan spelled out (predorder_plan_force) costs what the
** model says, while text that is not a plan of these conditions changes
** nothing. */
TEST_IMPL(predorder_orders) {
  static const char *const azBad[] = {"", "1&2", "1&2&3&3", "1&2&4", "0&1&2", "1&&2&", "1 & 2 & 3",
                                      "1|2||3", "3&&1&2x", "1&&&2&3"};
  predorder_model m;
  predorder_cond a[3];
  predorder_plan plan;
  int aOrder[3];
  uint8_t aJoin[3];
  char z[128];

  predorder_model_default(&m);
  m.rScanBw = m.rDevBw;
  a[0] = po_int(0.2);                      /* lo_quantity BETWEEN 26 AND 35 */
  a[1] = po_int(0.2727);                   /* lo_discount BETWEEN 5 AND 7 */
  a[2] = po_int(0.002695);                 /* probe date: a 10 KB map in L1 */
  a[2].bProbe = 1;
  a[2].nLookupByte = 10416;
  a[2].nOp = 24;
  ASSERT(predorder_rank(&m, &a[2]) > predorder_rank(&m, &a[0]));   /* ranked last */
  ASSERT_EQ(predorder_plan_choose(&m, a, 3, PO_ROWS, 0, &plan), 0);
  predorder_plan_format(&plan, NULL, z, sizeof(z));
  ASSERT_EQ(plan.aOrder[0], 2);
  memcpy(aOrder, plan.aOrder, sizeof(aOrder));
  memcpy(aJoin, plan.aJoin, sizeof(aJoin));

  /* The rank order's best plan costs more. */
  ASSERT_EQ(predorder_plan_force(&m, a, PO_ROWS, "1&2&&3", &plan), 0);
  ASSERT_STR_EQ((predorder_plan_format(&plan, NULL, z, sizeof(z)), z), "(c0 & c1) && c2");
  ASSERT(po_close(plan.rCost, predorder_plan_cost(&m, a, PO_ROWS, &plan)));
  {
    predorder_plan best = plan;
    best.aOrder = aOrder;
    best.aJoin = aJoin;
    ASSERT(predorder_plan_cost(&m, a, PO_ROWS, &best) < plan.rCost);
  }
  ASSERT_EQ(predorder_plan_force(&m, a, PO_ROWS, "3|2&&1", &plan), 0);
  ASSERT_EQ(plan.nKernel, 2);
  ASSERT_EQ(plan.nGroup, 3);
  for (size_t i = 0; i < sizeof(azBad) / sizeof(azBad[0]); i++) {
    ASSERT_EQ(predorder_plan_force(&m, a, PO_ROWS, azBad[i], &plan), -1);
    predorder_plan_format(&plan, NULL, z, sizeof(z));
    ASSERT_STR_EQ(z, "c2 | c1 && c0");
  }
  ASSERT_EQ(predorder_plan_force(&m, a, PO_ROWS, NULL, &plan), -1);
  predorder_plan_free(&plan);
  return 0;
}

/* Runs (predorder_cond.rRun): SSB Q1.1 resident at SF 20. The date probe
** passes 1/7 of the rows in runs of ~4 (one date an order), the discount
** and quantity filters pass theirs row by row. Without runs the model
** charges every later column a full read (P x 32 >= 1 line a warp) and
** puts the cheap-to-evaluate fact filters first; with them, the columns
** read after the date touch ~27 % of their sectors, and the date goes
** first, as measured (H100: 0.40 against 0.52 ms; bench/RESULTS.md,
** seventh pass). A condition of unknown runs (rRun 0) anywhere before a
** group leaves the paper's charge. */
TEST_IMPL(predorder_runs) {
  predorder_model m;
  predorder_cond a[3];
  predorder_plan plan;

  predorder_model_default(&m);
  m.rScanBw = m.rDevBw;
  a[0] = po_int(0.2727);                   /* lo_discount BETWEEN 1 AND 3 */
  a[1] = po_int(0.48);                     /* lo_quantity < 25 */
  a[2] = po_int(1.0 / 7.0);                /* probe date: 7.6 KB of bits */
  a[2].bProbe = 1;
  a[2].nLookupByte = 7642;
  a[2].nOp = 8;
  ASSERT_EQ(predorder_plan_choose(&m, a, 3, PO_ROWS, 0, &plan), 0);
  ASSERT(plan.aOrder[0] != 2);             /* the paper's charge: filters first */
  predorder_plan_free(&plan);

  a[0].rRun = 1.1;
  a[1].rRun = 1.02;
  a[2].rRun = 4.0;
  ASSERT_EQ(predorder_plan_choose(&m, a, 3, PO_ROWS, 0, &plan), 0);
  ASSERT_EQ(plan.aOrder[0], 2);            /* the clustered date first */
  ASSERT(po_close(plan.rCost, predorder_plan_cost(&m, a, PO_ROWS, &plan)));
  predorder_plan_free(&plan);

  /* Unclustered dates (runs of 1): the filters go first again. */
  a[2].rRun = 1.0;
  ASSERT_EQ(predorder_plan_choose(&m, a, 3, PO_ROWS, 0, &plan), 0);
  ASSERT(plan.aOrder[0] != 2);
  predorder_plan_free(&plan);

  /* A plan's cost with runs never exceeds the paper's: partial reads are
  ** charged by the sectors they touch. */
  a[2].rRun = 4.0;
  ASSERT_EQ(predorder_plan_choose(&m, a, 3, PO_ROWS, 0, &plan), 0);
  ASSERT_EQ(predorder_plan_force(&m, a, PO_ROWS, "3&&1&2", &plan), 0);
  {
    double rRuns = plan.rCost;
    a[0].rRun = a[1].rRun = a[2].rRun = 0.0;
    ASSERT(rRuns < predorder_plan_cost(&m, a, PO_ROWS, &plan));
  }
  predorder_plan_free(&plan);
  return 0;
}
