/*
** planner/groupby.c — the group-by strategy (groupby.h): dense array,
** hash table placement, table size, fill factor and grid, computed from
** the device facts by the rules of paper 003 (Karnagel, Mueller, Lohman,
** "Optimizing GPU-accelerated Group-By and Aggregation", ADMS 2015).
**
** It decides; it does not estimate (the planner brings the group and row
** counts) and it does not generate code (codegen reads the plan). Every
** threshold below names the section or figure it comes from. Where the
** paper measured a GTX Titan (14 SMs, 1.5 MB L2), the rule is restated in
** terms of groupby_device so that it scales to the GPU we run on.
**
** INTERFACE ROUTINES
**   groupby_device_default, groupby_plan_choose, groupby_slots_next,
**   groupby_plan_grow, groupby_plan_explain, groupby_kind_name,
**   groupby_place_name
*/
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "groupby.h"

/* ---- the rules' constants ---------------------------------------------------- */

/* Thread-private tables for at most this many groups. The issue says
** "<= ~6 groups"; paper 003 §5.1 says "a cardinality of <= 6" and §7
** "a small number (< 6)". We follow the issue (and §5.1): 6 is in. */
#define GROUPBY_THREAD_MAX_GROUPS 6

/* Fill factors of §4 ("Hash Table Size and Fill Factor", Fig. 7): 50% is
** the default and what §5.1 used for thread-private and shared tables;
** 83% (1.2x #groups) once a 50% table would pass the TLB reach. */
#define GROUPBY_FILL 0.5
#define GROUPBY_FILL_HIGH 0.83

/* §4 grid rules: a global table below this many L2s runs with the full
** grid ("Use 14 x 1024 if the hash table is smaller than 4 times the L2"). */
#define GROUPBY_GRID_L2_FACTOR 4

/* §4, Fig. 8(a): "a minimum of 64 threads per block"; the Region III
** configuration 112 x 64 uses exactly that. */
#define GROUPBY_GRID_MIN_THREADS 64

/* §4, Fig. 8(c) and 9: past the TLB reach, 112 x 8 on 14 SMs, that is 8
** blocks of 8 threads per SM. Measured on a Titan; nothing in the device
** facts lets us recompute it, so it is taken as is. */
#define GROUPBY_GRID_TLB_BLOCKS_PER_SM 8
#define GROUPBY_GRID_TLB_THREADS 8

/* ---- the device -------------------------------------------------------------- */

groupby_device groupby_device_default(void) {
  groupby_device d;
  memset(&d, 0, sizeof(d));
  d.nSm = 132;                           /* H100 SXM5 */
  d.nThreadPerSm = 2048;
  d.nThreadPerBlock = 1024;
  d.nBlockPerSm = 32;
  d.nSharedPerSm = 228 * 1024;
  d.nSharedPerBlock = 227 * 1024;
  d.nSharedReserved = 1024;
  d.nL2 = 50ull * 1024 * 1024;
  d.nCacheLine = 128;
  d.nGlobal = 80ull * 1024 * 1024 * 1024;
  d.nTlbReach = 2ull * 1024 * 1024 * 1024;
  return d;
}

/* ---- small arithmetic -------------------------------------------------------- */

/* Returns the smallest power of two >= x (x >= 1), or 0 past 2^63. */
static uint64_t groupby_pow2_ceil(double x) {
  uint64_t n = 1;
  while ((double)n < x) {
    if (n >> 63) return 0;
    n <<= 1;
  }
  return n;
}

/* Returns the largest power of two <= n (n >= 1). */
static uint64_t groupby_pow2_floor(uint64_t n) {
  uint64_t p = 1;
  while ((p << 1) != 0 && (p << 1) <= n) p <<= 1;
  return p;
}

static uint64_t groupby_round_up(uint64_t n, uint64_t m) {
  return (n + m - 1) / m * m;
}

/* The most a shared-memory table may take: a block's opt-in limit, and
** what an SM has once the system's per-block share is set aside. */
static uint64_t groupby_shared_max(const groupby_device *d) {
  uint64_t nSm = d->nSharedPerSm > d->nSharedReserved
                     ? d->nSharedPerSm - d->nSharedReserved : 0;
  return d->nSharedPerBlock < nSm ? d->nSharedPerBlock : nSm;
}

/* ---- grids ------------------------------------------------------------------- */

static void groupby_grid_set(groupby_plan *p, const groupby_device *d,
                             int nBlockPerSm, int nThread) {
  if (nBlockPerSm > d->nBlockPerSm) nBlockPerSm = d->nBlockPerSm;
  if (nBlockPerSm < 1) nBlockPerSm = 1;
  p->nBlockPerSm = nBlockPerSm;
  p->nBlock = d->nSm * nBlockPerSm;
  p->nThread = nThread;
}

/* The full grid: blocks of the largest size, as many per SM as stay
** resident. Paper 003 uses 14 x 1024 on a 14-SM Titan (§3, §4 grid rule
** 1, §5.1), one block per SM, the low edge of Fig. 8(a)'s best band of
** 1x to 16x that many threads. An H100 SM holds 2048 threads, so filling
** it takes two such blocks; that is still inside the band. */
static void groupby_grid_full(groupby_plan *p, const groupby_device *d) {
  groupby_grid_set(p, d, d->nThreadPerSm / d->nThreadPerBlock, d->nThreadPerBlock);
}

/* The grid for a table in global memory, by §4's grid rules, first that
** applies:
**   1. below 4 x L2: the full grid;
**   2. below the TLB reach: as many threads as keep each thread's probe
**      line in L2 together (threads x cache line <= L2; Fig. 8(b) found
**      7,168 on the Titan because 14,336 x 128 B = 1.75 MB > 1.5 MB
**      L2), in blocks of 64 threads;
**   3. beyond: 8 blocks of 8 threads per SM (Fig. 8(c)). */
static void groupby_grid_global(groupby_plan *p, const groupby_device *d) {
  uint64_t nByte = p->nTableByte;
  if (nByte < GROUPBY_GRID_L2_FACTOR * d->nL2) {
    groupby_grid_full(p, d);
  } else if (nByte < d->nTlbReach) {
    uint64_t nPerSm = d->nL2 / d->nCacheLine / (uint64_t)d->nSm;
    if (nPerSm > (uint64_t)d->nThreadPerSm) nPerSm = (uint64_t)d->nThreadPerSm;
    nPerSm = groupby_pow2_floor(nPerSm > 0 ? nPerSm : 1);
    if (nPerSm >= GROUPBY_GRID_MIN_THREADS) {
      groupby_grid_set(p, d, (int)(nPerSm / GROUPBY_GRID_MIN_THREADS),
                       GROUPBY_GRID_MIN_THREADS);
    } else {
      groupby_grid_set(p, d, 1, (int)nPerSm);
    }
  } else {
    groupby_grid_set(p, d, GROUPBY_GRID_TLB_BLOCKS_PER_SM, GROUPBY_GRID_TLB_THREADS);
  }
}

/* The grid for a table in shared memory: blocks of the largest size
** (§5.1 runs its per-block tables at 1024 threads), as many per SM as
** the SM's threads and shared memory allow, each with its own table. */
static void groupby_grid_shared(groupby_plan *p, const groupby_device *d) {
  uint64_t nBySmem = d->nSharedPerSm / (p->nTableByte + d->nSharedReserved);
  int nPerSm = d->nThreadPerSm / d->nThreadPerBlock;
  if ((uint64_t)nPerSm > nBySmem) nPerSm = (int)nBySmem;
  groupby_grid_set(p, d, nPerSm, d->nThreadPerBlock);
}

/* ---- placement --------------------------------------------------------------- */

/* Whether private copies pay for themselves, the contention argument of
** §3 Region I and §5.1 in terms of rows per group. Copies exist to turn
** contended global atomics into private updates; each copy is merged into
** the global result at the end with one atomic per occupied slot, and a
** copy that sees r rows occupies at most min(nGroup, r) slots. With nRow
** rows over nCopy copies, a copy saves global atomics only when it sees
** more rows than it has groups: nRow > nCopy * nGroup. Otherwise it
** merges as many atomics as it absorbed, plus its INIT and merge scans.
** Unknown rows (<= 0): assume the copies pay, as the paper's 335M-row
** scans do. */
static int groupby_copies_pay(double nRow, uint64_t nCopy, double nGroup) {
  if (nRow <= 0) return 1;
  return nRow > (double)nCopy * nGroup;
}

/* Places a table of p->nSlot slots (p->nTableByte set) and sets its grid,
** trying, fastest first (§5.1's extended Region I rule):
**   thread-private  when bThreadOk (few groups) and the copies pay and all
**                   of them fit in device memory;
**   shared memory   when one table fits a block's shared memory and the
**                   copies pay;
**   global memory   otherwise (grid by §4).
** Returns the placement chosen. */
static groupby_place groupby_place_table(groupby_plan *p, const groupby_device *d,
                                         int bThreadOk, double nRow) {
  if (bThreadOk) {
    groupby_grid_full(p, d);
    uint64_t nCopy = (uint64_t)p->nBlock * (uint64_t)p->nThread;
    if (groupby_copies_pay(nRow, nCopy, p->nGroup) &&
        p->nTableByte <= d->nGlobal / 2 / nCopy) {
      p->ePlace = GROUPBY_PLACE_THREAD;
      p->nCopy = nCopy;
      p->nSharedByte = 0;
      return p->ePlace;
    }
  }
  if (p->nTableByte <= groupby_shared_max(d)) {
    groupby_grid_shared(p, d);
    if (groupby_copies_pay(nRow, (uint64_t)p->nBlock, p->nGroup)) {
      p->ePlace = GROUPBY_PLACE_SHARED;
      p->nCopy = (uint64_t)p->nBlock;
      p->nSharedByte = p->nTableByte;
      return p->ePlace;
    }
  }
  groupby_grid_global(p, d);
  p->ePlace = GROUPBY_PLACE_GLOBAL;
  p->nCopy = 1;
  p->nSharedByte = 0;
  return p->ePlace;
}

/* ---- table sizes ------------------------------------------------------------- */

uint64_t groupby_slots_next(uint64_t nSlot, int nSlotByte, const groupby_device *pDev) {
  if (nSlot == 0 || nSlotByte <= 0 || nSlot >= GROUPBY_MAX_SLOTS) return 0;
  uint64_t nNext = nSlot * 2;
  if (nNext > GROUPBY_MAX_SLOTS) return 0;
  if (nNext > pDev->nGlobal / 2 / (uint64_t)nSlotByte) return 0;
  return nNext;
}

/* Sets nSlot, rFill and nTableByte of a global HASH table for p->nGroup
** groups by §4's "Rules for the hash table size", first that applies:
**   1. the L2 size, if that leaves the fill factor below 50%;
**   2. 50% fill, if the table stays below the TLB reach (2 GB);
**   3. 83% fill.
** Sizes are powers of two (the hash is masked, not divided, §3); "the L2
** size" is the largest power-of-two table that fits in L2. Returns 0, or
** -1 if the table would pass GROUPBY_MAX_SLOTS or device memory. */
static int groupby_size_global(groupby_plan *p, const groupby_device *d) {
  uint64_t nSlotByte = (uint64_t)p->nSlotByte;
  uint64_t nL2Slot = groupby_pow2_floor(d->nL2 / nSlotByte > 0 ? d->nL2 / nSlotByte : 1);
  uint64_t nHalf = groupby_pow2_ceil(p->nGroup / GROUPBY_FILL);
  uint64_t nSlot;
  double rFill;
  if (p->nGroup / (double)nL2Slot < GROUPBY_FILL) {
    nSlot = nL2Slot;                                   /* rule 1 */
    rFill = p->nGroup / (double)nL2Slot;
  } else if (nHalf != 0 && nHalf < d->nTlbReach / nSlotByte) {
    nSlot = nHalf;                                     /* rule 2 */
    rFill = GROUPBY_FILL;
  } else {
    nSlot = groupby_pow2_ceil(p->nGroup / GROUPBY_FILL_HIGH);   /* rule 3 */
    rFill = GROUPBY_FILL_HIGH;
  }
  if (nSlot == 0 || nSlot > GROUPBY_MAX_SLOTS || nSlot > d->nGlobal / 2 / nSlotByte) {
    return -1;
  }
  p->nSlot = nSlot;
  p->rFill = rFill;
  p->nTableByte = nSlot * nSlotByte;
  return 0;
}

/* Fills a HASH plan (keys, strides, nCode, nGroup already set): slot
** layout, EMPTY marker, size, placement and grid. Thread-private and
** shared tables are sized at 50% fill (§5.1's experiments, Fig. 11); a
** table that ends up global is sized again by §4. Returns 0 or -1. */
static int groupby_hash_plan(groupby_plan *p, const groupby_device *d,
                             const groupby_input *pIn) {
  uint64_t nAlign = (uint64_t)pIn->nStateAlign;
  /* §2.2, "What is the value of the EMPTY marker?": keys are codes, so
  ** one value outside the code space is the marker. Codes run 0..nCode-1,
  ** so all ones is free in 32 bits when nCode <= 2^32 - 1. */
  p->nKeyByte = p->nCode <= 0xFFFFFFFFull ? 4 : 8;
  p->iEmpty = p->nKeyByte == 4 ? 0xFFFFFFFFull : UINT64_MAX;
  p->iStateOffset = (int)groupby_round_up((uint64_t)p->nKeyByte, nAlign);
  uint64_t nWide = nAlign > (uint64_t)p->nKeyByte ? nAlign : (uint64_t)p->nKeyByte;
  p->nSlotByte = (int)groupby_round_up((uint64_t)p->iStateOffset + (uint64_t)pIn->nStateByte, nWide);

  p->nSlot = groupby_pow2_ceil(p->nGroup / GROUPBY_FILL);
  p->rFill = GROUPBY_FILL;
  if (p->nSlot == 0 || p->nSlot > d->nGlobal / 2 / (uint64_t)p->nSlotByte) {
    p->nSlot = 0;                        /* too big for any placement but global */
    p->nTableByte = UINT64_MAX;
  } else {
    p->nTableByte = p->nSlot * (uint64_t)p->nSlotByte;
  }
  if (p->nSlot != 0 &&
      groupby_place_table(p, d, p->nGroup <= GROUPBY_THREAD_MAX_GROUPS, pIn->nRowEst)
          != GROUPBY_PLACE_GLOBAL) {
    return 0;
  }
  if (groupby_size_global(p, d) != 0) return -1;
  groupby_grid_global(p, d);
  p->ePlace = GROUPBY_PLACE_GLOBAL;
  p->nCopy = 1;
  p->nSharedByte = 0;
  return 0;
}

/* ---- choosing ---------------------------------------------------------------- */

static int groupby_err(char *zErr, size_t nErr, const char *zMsg) {
  if (zErr != NULL && nErr > 0) snprintf(zErr, nErr, "%s", zMsg);
  return -1;
}

/* SCALAR: each thread folds its rows, a block-wide reduction through one
** partial per warp in shared memory, then one atomic per block into the
** single global state; the grid is the full one (§4 grid rule 1). */
static void groupby_scalar_plan(groupby_plan *p, const groupby_device *d,
                                const groupby_input *pIn) {
  p->eKind = GROUPBY_SCALAR;
  p->ePlace = GROUPBY_PLACE_THREAD;
  p->nCode = 1;
  p->nSlot = 1;
  p->nGroup = 1;
  p->nSlotByte = (int)groupby_round_up((uint64_t)pIn->nStateByte, (uint64_t)pIn->nStateAlign);
  p->nTableByte = (uint64_t)p->nSlotByte;
  p->nCopy = 1;
  groupby_grid_full(p, d);
  p->nSharedByte = (uint64_t)(p->nThread + 31) / 32 * (uint64_t)p->nSlotByte;
}

int groupby_plan_choose(const groupby_input *pIn, const groupby_device *pDev,
                        groupby_plan *pOut, char *zErr, size_t nErr) {
  groupby_plan p;
  memset(&p, 0, sizeof(p));
  if (zErr != NULL && nErr > 0) zErr[0] = 0;
  if (pIn->nKey < 0 || pIn->nKey > GROUPBY_MAX_KEY) {
    return groupby_err(zErr, nErr, "group by: too many keys");
  }
  if (pIn->nStateByte <= 0 || pIn->nStateAlign <= 0 || pIn->nStateAlign > 8 ||
      (pIn->nStateAlign & (pIn->nStateAlign - 1)) != 0) {
    return groupby_err(zErr, nErr, "group by: bad aggregate state size or alignment");
  }
  if (pIn->nKey == 0) {
    groupby_scalar_plan(&p, pDev, pIn);
    *pOut = p;
    return 0;
  }

  /* Mixed-radix strides, last key fastest; nCode is their product. All
  ** ones must stay free for EMPTY, hence the strict bound. */
  p.nKey = pIn->nKey;
  p.nCode = 1;
  for (int i = pIn->nKey - 1; i >= 0; i--) {
    uint64_t nDom = pIn->aKey[i].nDomain;
    if (nDom == 0) {
      return groupby_err(zErr, nErr, "group by: a key's domain is unknown");
    }
    if (p.nCode > (UINT64_MAX - 1) / nDom) {
      return groupby_err(zErr, nErr,
                         "group by: combined key wider than 64 bits (needs bucket latching)");
    }
    p.aMin[i] = pIn->aKey[i].iMin;
    p.aDomain[i] = nDom;
    p.aStride[i] = p.nCode;
    p.nCode *= nDom;
  }

  /* The groups to size for: the estimate, else the product of domains
  ** (the over-estimate §2.2 says correlated columns give anyway); never
  ** more than the codes or the rows there are, and at least one. */
  double nGroup = pIn->nGroupEst > 0 ? ceil(pIn->nGroupEst) : (double)p.nCode;
  if (nGroup > (double)p.nCode) nGroup = (double)p.nCode;
  if (pIn->nRowEst > 0 && nGroup > ceil(pIn->nRowEst)) nGroup = ceil(pIn->nRowEst);
  if (nGroup < 1) nGroup = 1;
  p.nGroup = nGroup;

  groupby_plan h = p;
  h.eKind = GROUPBY_HASH;
  int rcHash = groupby_hash_plan(&h, pDev, pIn);

  /* DENSE when the array fits in L2 — §4 hash-size rule 1 keeps an
  ** L2-sized table even when it is mostly empty, and a dense array is
  ** such a table without probing or keys — and when it is placed no
  ** slower than the hash table would be (§5.1: thread-private beats
  ** shared beats global); so a sparse array that would sit in global
  ** memory loses to a small hash table in shared memory. */
  groupby_plan a = p;
  a.eKind = GROUPBY_DENSE;
  a.nSlotByte = (int)groupby_round_up((uint64_t)pIn->nStateByte, (uint64_t)pIn->nStateAlign);
  if (p.nCode <= GROUPBY_MAX_SLOTS && p.nCode <= pDev->nL2 / (uint64_t)a.nSlotByte) {
    a.nSlot = p.nCode;
    a.nTableByte = a.nSlot * (uint64_t)a.nSlotByte;
    groupby_place ePlace = groupby_place_table(&a, pDev,
                                               a.nSlot <= GROUPBY_THREAD_MAX_GROUPS,
                                               pIn->nRowEst);
    if (rcHash != 0 || ePlace <= h.ePlace) {
      a.nShSlot = a.nSlot;
      groupby_plan_replicate(&a, pDev, pIn, 0);      /* hot groups (groupby_hot.c) */
      *pOut = a;
      return 0;
    }
  }
  if (rcHash != 0) {
    return groupby_err(zErr, nErr, "group by: estimated groups need a table larger than the device allows");
  }
  *pOut = h;
  return 0;
}

/* ---- overflow ---------------------------------------------------------------- */

int groupby_plan_grow(groupby_plan *p, const groupby_device *pDev) {
  if (p->eKind != GROUPBY_HASH) return -1;
  uint64_t nNext = groupby_slots_next(p->nSlot, p->nSlotByte, pDev);
  if (nNext == 0) return -1;
  /* A full table proves more groups than it has slots (§2.2: the probe
  ** went all the way round): size for those, at 50% in the new table. */
  p->nGroup = (double)p->nSlot;
  p->nSlot = nNext;
  p->rFill = p->nGroup / (double)nNext;
  p->nTableByte = nNext * (uint64_t)p->nSlotByte;
  /* More groups than a thread-private table is for: rows are no longer a
  ** reason to stay global (the rerun sees the same rows). */
  groupby_place_table(p, pDev, 0, 0);
  return 0;
}

/* ---- EXPLAIN ----------------------------------------------------------------- */

const char *groupby_kind_name(groupby_kind e) {
  switch (e) {
    case GROUPBY_SCALAR: return "scalar";
    case GROUPBY_DENSE: return "dense";
    case GROUPBY_HASH: return "hash";
  }
  return "?";
}

const char *groupby_place_name(groupby_place e) {
  switch (e) {
    case GROUPBY_PLACE_THREAD: return "thread-private";
    case GROUPBY_PLACE_SHARED: return "in shared memory";
    case GROUPBY_PLACE_GLOBAL: return "in global memory";
  }
  return "?";
}

/* Appends the replicated hot groups of a DENSE shared plan, e.g. "; 2 hot
** groups replicated (paper 000 §3): code 0 (61%) ×512, code 1 (15%) ×128,
** 41984 B shared". Returns the characters it would write. */
static int groupby_hot_explain(const groupby_plan *p, char *z, size_t n) {
  size_t k = 0;
  k += (size_t)snprintf(z, n, "; %d hot group%s replicated (paper 000 §3):", p->nHot,
                        p->nHot == 1 ? "" : "s");
  for (int i = 0; i < p->nHot; i++) {
    k += (size_t)snprintf(z + (k < n ? k : n), k < n ? n - k : 0, "%s code %" PRIu64 " (%.3g%%) ×%d",
                          i > 0 ? "," : "", p->aHotCode[i], 100.0 * p->aHotShare[i],
                          p->aHotReplica[i]);
  }
  k += (size_t)snprintf(z + (k < n ? k : n), k < n ? n - k : 0, ", %" PRIu64 " B shared",
                        p->nSharedByte);
  return (int)k;
}

int groupby_plan_explain(const groupby_plan *p, char *z, size_t n) {
  char zGrid[64];
  char zDom[256];
  int nSm = p->nBlockPerSm > 0 ? p->nBlock / p->nBlockPerSm : p->nBlock;
  snprintf(zGrid, sizeof(zGrid), "%d×%d blocks × %d threads", nSm, p->nBlockPerSm,
           p->nThread);
  switch (p->eKind) {
    case GROUPBY_SCALAR:
      return snprintf(z, n, "scalar aggregate: %d B state, block reduction then one "
                      "atomic per block, %s", p->nSlotByte, zGrid);
    case GROUPBY_DENSE: {
      size_t k = 0;
      zDom[0] = 0;
      for (int i = 0; i < p->nKey && p->nKey > 1 && k < sizeof(zDom); i++) {
        k += (size_t)snprintf(zDom + k, sizeof(zDom) - k, "%s%" PRIu64 "",
                              i > 0 ? " × " : "", p->aDomain[i]);
      }
      if (p->nKey > 1 && k < sizeof(zDom)) snprintf(zDom + k, sizeof(zDom) - k, " = ");
      int nz = snprintf(z, n, "dense array %s: %s%" PRIu64 " slots × %d B, %s",
                        groupby_place_name(p->ePlace), zDom, p->nSlot, p->nSlotByte, zGrid);
      if (p->nHot > 0 && nz >= 0 && (size_t)nz < n) {
        nz += groupby_hot_explain(p, z + nz, n - (size_t)nz);
      }
      return nz;
    }
    case GROUPBY_HASH:
      return snprintf(z, n, "hash %s: %" PRIu64 " slots × %d B (fill %.2g), %s",
                      groupby_place_name(p->ePlace), p->nSlot, p->nSlotByte, p->rFill,
                      zGrid);
  }
  if (n > 0) z[0] = 0;
  return 0;
}
