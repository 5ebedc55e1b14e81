/*
** tests/test-groupby.c — the group-by strategy (planner/groupby.c) on
** crafted statistics at each rule's boundary: dense bound, thread-private
** / shared / global placement, power-of-two sizes and fill factors, the
** overflow helper, the SSB queries' shapes, and the EXPLAIN line; then
** replicas of hot groups (planner/groupby_hot.c, paper 000 §3) on Zipf
** frequencies of 1024 groups + NULL, 200 M rows and a 16-byte state (row
** count + SUM), the benchmark's shape: chosen for skewed groups and not
** for uniform ones, replicas growing with a group's share, the
** shared-memory budget bounding them, only for a DENSE table in shared
** memory, and the EXPLAIN line.
**
** Every boundary is tested from both sides, so moving a threshold by one
** fails a test. All figures are for groupby_device_default() (an H100:
** 132 SMs, 2048 threads and 228 KiB shared per SM, 227 KiB per block with
** 1 KiB reserved, 50 MiB L2).
*/
#include <math.h>

#include "../planner/groupby.h"
#include "test.h"

/* An input with nKey keys of the given domains (iMin 0), one 8-byte
** aggregate state (a SUM into BIGINT), and the given estimates. */
static groupby_input groupby_test_input(int nKey, const uint64_t *aDomain,
                                        double nGroupEst, double nRowEst) {
  groupby_input in;
  memset(&in, 0, sizeof(in));
  in.nKey = nKey;
  for (int i = 0; i < nKey; i++) in.aKey[i].nDomain = aDomain[i];
  in.nStateByte = 8;
  in.nStateAlign = 8;
  in.nGroupEst = nGroupEst;
  in.nRowEst = nRowEst;
  return in;
}

/* Chooses a plan and fails the test if choosing fails. */
static groupby_plan groupby_test_choose(const groupby_input *pIn) {
  groupby_device d = groupby_device_default();
  groupby_plan p;
  char zErr[128];
  if (groupby_plan_choose(pIn, &d, &p, zErr, sizeof(zErr)) != 0) FAIL("choose: %s", zErr);
  return p;
}

static void groupby_test_explain(const groupby_plan *p, const char *zWant) {
  char z[256];
  groupby_plan_explain(p, z, sizeof(z));
  ASSERT_STR_EQ(z, zWant);
}

TEST_IMPL(groupby_device) {
  groupby_device d = groupby_device_default();
  ASSERT_EQ(d.nSm, 132);
  ASSERT_EQ(d.nThreadPerSm, 2048);
  ASSERT_EQ(d.nThreadPerBlock, 1024);
  ASSERT_EQ(d.nSharedPerSm, 228 * 1024);
  ASSERT_EQ(d.nSharedPerBlock, 227 * 1024);
  ASSERT_EQ(d.nL2, 50 * 1024 * 1024);
  return 0;
}

/* DENSE while the array fits in L2 (§4 hash-size rule 1), HASH one slot
** over. Unknown group estimate: sized for the product, so the hash table
** would be global too and only the L2 bound decides. */
TEST_IMPL(groupby_dense_bound) {
  uint64_t nL2Slot = 50ull * 1024 * 1024 / 8;          /* 6,553,600 */
  groupby_input in = groupby_test_input(1, &nL2Slot, 0, 0);
  groupby_plan p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_DENSE);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_GLOBAL);
  ASSERT_EQ(p.nSlot, nL2Slot);
  ASSERT_EQ(p.nTableByte, 50 * 1024 * 1024);
  groupby_test_explain(&p, "dense array in global memory: 6553600 slots × 8 B, "
                           "132×2 blocks × 1024 threads");

  in.aKey[0].nDomain = nL2Slot + 1;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_HASH);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_GLOBAL);
  /* 6,553,601 groups at 50% fill: 2^24 slots of 4 B key + 4 B pad + 8 B
  ** state = 256 MiB, over 4 x L2: the L2-line grid of §4 (Fig. 8(b)),
  ** which on an H100 is a full SM in blocks of 64 threads. */
  ASSERT_EQ(p.nSlot, 1 << 24);
  ASSERT_EQ(p.nSlotByte, 16);
  groupby_test_explain(&p, "hash in global memory: 16777216 slots × 16 B (fill 0.5), "
                           "132×32 blocks × 64 threads");
  return 0;
}

/* Thread-private for <= 6 groups (the issue; paper 003 §5.1), shared for
** 7. The key's domain is large so the dense array would be global. */
TEST_IMPL(groupby_thread_vs_shared) {
  uint64_t nDom = 1000000;
  groupby_input in = groupby_test_input(1, &nDom, 6, 0);
  groupby_plan p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_HASH);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_THREAD);
  ASSERT_EQ(p.nSlot, 16);
  ASSERT_EQ(p.nCopy, 132 * 2 * 1024);
  groupby_test_explain(&p, "hash thread-private: 16 slots × 16 B (fill 0.5), "
                           "132×2 blocks × 1024 threads");

  in.nGroupEst = 7;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_HASH);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  ASSERT_EQ(p.nCopy, 264);
  ASSERT_EQ(p.nSharedByte, 16 * 16);
  groupby_test_explain(&p, "hash in shared memory: 16 slots × 16 B (fill 0.5), "
                           "132×2 blocks × 1024 threads");

  /* A dense array of 6 codes is thread-private too; 7 is not. */
  uint64_t aSix[2] = {2, 3};
  in = groupby_test_input(2, aSix, 0, 0);
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_DENSE);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_THREAD);
  in.aKey[0].nDomain = 7;
  in.aKey[1].nDomain = 1;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_DENSE);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  return 0;
}

/* The largest table that fits in a block's shared memory (227 KiB =
** 232,448 B) against the next one. */
TEST_IMPL(groupby_shared_vs_global) {
  uint64_t nDom = 100000000;                 /* a dense array of 800 MB: never */
  groupby_input in = groupby_test_input(1, &nDom, 4096, 0);
  groupby_plan p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_HASH);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  ASSERT_EQ(p.nSlot, 8192);                  /* 128 KiB: one per SM */
  groupby_test_explain(&p, "hash in shared memory: 8192 slots × 16 B (fill 0.5), "
                           "132×1 blocks × 1024 threads");

  in.nGroupEst = 4097;                       /* 16,384 slots = 256 KiB */
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_HASH);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_GLOBAL);
  /* §4 size rule 1: the largest power-of-two table in L2 (2^21 slots of
  ** 16 B = 32 MiB), its fill far below 50%. */
  ASSERT_EQ(p.nSlot, 1 << 21);
  ASSERT(p.rFill < 0.5);
  groupby_test_explain(&p, "hash in global memory: 2097152 slots × 16 B (fill 0.002), "
                           "132×2 blocks × 1024 threads");

  /* 28-byte slots (4 B key + 24 B of 4-aligned state): 8192 of them are
  ** 229,376 B, still under 232,448. */
  in.nStateByte = 24;
  in.nStateAlign = 4;
  in.nGroupEst = 4096;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.nSlotByte, 28);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  ASSERT_EQ(p.nSharedByte, 229376);

  /* Dense arrays are not rounded, so the bound is exact: 29,056 slots of
  ** 8 B fill 232,448 B; one more goes global (and stays dense: the hash
  ** table for as many groups would be global as well). */
  in = groupby_test_input(1, &nDom, 0, 0);
  in.aKey[0].nDomain = 232448 / 8;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_DENSE);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  ASSERT_EQ(p.nBlockPerSm, 1);
  /* Two tables per SM while both fit beside the system's 1 KiB each:
  ** 2 x (115,712 + 1,024) = 233,472 B, exactly an SM's; one slot more and
  ** only one fits. */
  in.aKey[0].nDomain = 115712 / 8;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  ASSERT_EQ(p.nBlockPerSm, 2);
  in.aKey[0].nDomain = 115712 / 8 + 1;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  ASSERT_EQ(p.nBlockPerSm, 1);
  in.aKey[0].nDomain = 232448 / 8 + 1;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_DENSE);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_GLOBAL);
  return 0;
}

/* Every HASH table is a power of two holding its groups at or below its
** fill factor, and the smallest such power of two where the fill factor
** is the rule's (50% or 83%) rather than L2's. */
TEST_IMPL(groupby_sizes) {
  uint64_t nDom = 1ull << 40;
  int nChecked = 0;
  for (double g = 1; g < 4e8; g = g * 1.37 + 1) {
    groupby_input in = groupby_test_input(1, &nDom, g, 0);
    groupby_plan p = groupby_test_choose(&in);
    ASSERT_EQ(p.eKind, GROUPBY_HASH);
    ASSERT_EQ(p.nSlot & (p.nSlot - 1), 0);
    ASSERT_EQ(p.nTableByte, p.nSlot * (uint64_t)p.nSlotByte);
    ASSERT(p.nGroup <= p.rFill * (double)p.nSlot + 1e-9);
    if (p.rFill == 0.5 || p.rFill == 0.83) {
      ASSERT(p.nGroup > p.rFill * (double)(p.nSlot / 2));
    } else {
      ASSERT_EQ(p.ePlace, GROUPBY_PLACE_GLOBAL);       /* L2-sized: rule 1 */
      ASSERT_EQ(p.nTableByte, 32 * 1024 * 1024);
    }
    if (p.rFill == 0.5) ASSERT_LT(p.nTableByte, 2ull << 30);     /* rule 2 */
    if (p.rFill == 0.83) {                                      /* rule 3 */
      uint64_t nHalf = 1;
      while ((double)nHalf < 2 * p.nGroup) nHalf <<= 1;
      ASSERT_GE(nHalf * (uint64_t)p.nSlotByte, 2ull << 30);
    }
    nChecked++;
  }
  ASSERT_GT(nChecked, 50);

  /* Groups never exceed the rows (or the codes) there are. */
  groupby_input in = groupby_test_input(1, &nDom, 1e6, 1000);
  groupby_plan p = groupby_test_choose(&in);
  ASSERT(p.nGroup == 1000);
  return 0;
}

/* The key is the combined code; all ones is EMPTY, so 4-byte keys serve
** up to 2^32 - 1 codes (§2.2). */
TEST_IMPL(groupby_key_width) {
  uint64_t aDom[2] = {65537, 65535};                   /* 2^32 - 1 */
  groupby_input in = groupby_test_input(2, aDom, 1000, 0);
  groupby_plan p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_HASH);
  ASSERT_EQ(p.nKeyByte, 4);
  ASSERT(p.iEmpty == 0xFFFFFFFFull);
  ASSERT_EQ(p.iStateOffset, 8);
  ASSERT_EQ(p.nSlotByte, 16);
  ASSERT(p.aStride[0] == 65535 && p.aStride[1] == 1);

  in.aKey[1].nDomain = 65536;                          /* 2^32 + 65536 */
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.nKeyByte, 8);
  ASSERT(p.iEmpty == UINT64_MAX);
  ASSERT_EQ(p.nSlotByte, 16);

  in.nStateByte = 4;                                   /* a COUNT into INTEGER */
  in.nStateAlign = 4;
  in.aKey[1].nDomain = 65535;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.nKeyByte, 4);
  ASSERT_EQ(p.iStateOffset, 4);
  ASSERT_EQ(p.nSlotByte, 8);
  return 0;
}

TEST_IMPL(groupby_errors) {
  groupby_device d = groupby_device_default();
  groupby_plan p;
  char zErr[128];
  uint64_t aDom[2] = {1ull << 32, 1ull << 32};        /* 2^64 codes */
  groupby_input in = groupby_test_input(2, aDom, 10, 0);
  ASSERT_EQ(groupby_plan_choose(&in, &d, &p, zErr, sizeof(zErr)), -1);
  ASSERT(strstr(zErr, "64 bits") != NULL);
  in.aKey[0].nDomain = (1ull << 32) - 1;               /* 2^64 - 2^32: fits */
  ASSERT_EQ(groupby_plan_choose(&in, &d, &p, zErr, sizeof(zErr)), 0);
  in.aKey[0].nDomain = 0;
  ASSERT_EQ(groupby_plan_choose(&in, &d, &p, zErr, sizeof(zErr)), -1);
  ASSERT(strstr(zErr, "unknown") != NULL);
  in = groupby_test_input(0, aDom, 0, 0);
  in.nStateAlign = 3;
  ASSERT_EQ(groupby_plan_choose(&in, &d, &p, zErr, sizeof(zErr)), -1);
  in.nStateAlign = 8;
  in.nStateByte = 0;
  ASSERT_EQ(groupby_plan_choose(&in, &d, &p, zErr, sizeof(zErr)), -1);
  in.nKey = GROUPBY_MAX_KEY + 1;
  in.nStateByte = 8;
  ASSERT_EQ(groupby_plan_choose(&in, &d, &p, zErr, sizeof(zErr)), -1);
  return 0;
}

/* Overflow: double and rerun (§2.2), refused past 2^32 slots or half of
** device memory (40 GiB). */
TEST_IMPL(groupby_overflow) {
  groupby_device d = groupby_device_default();
  ASSERT_EQ(groupby_slots_next(16, 16, &d), 32);
  ASSERT_EQ(groupby_slots_next(1ull << 31, 16, &d), 0);     /* 64 GiB */
  ASSERT_EQ(groupby_slots_next(1ull << 30, 16, &d), 1ull << 31);
  ASSERT_EQ(groupby_slots_next(1ull << 31, 4, &d), 1ull << 32);
  ASSERT_EQ(groupby_slots_next(1ull << 32, 4, &d), 0);      /* 2^33 slots */
  ASSERT_EQ(groupby_slots_next(0, 4, &d), 0);

  /* Thread-private overflows into shared memory; shared into global. */
  uint64_t nDom = 1000000;
  groupby_input in = groupby_test_input(1, &nDom, 6, 0);
  groupby_plan p = groupby_test_choose(&in);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_THREAD);
  ASSERT_EQ(groupby_plan_grow(&p, &d), 0);
  ASSERT_EQ(p.nSlot, 32);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  ASSERT_EQ(p.nTableByte, 32 * 16);

  in.nGroupEst = 4096;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  ASSERT_EQ(groupby_plan_grow(&p, &d), 0);
  ASSERT_EQ(p.nSlot, 16384);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_GLOBAL);
  ASSERT(p.rFill == 0.5);

  p.nSlot = 1ull << 31;                                 /* no room to double */
  groupby_plan q = p;
  ASSERT_EQ(groupby_plan_grow(&p, &d), -1);
  ASSERT_EQ(memcmp(&p, &q, sizeof(p)), 0);

  /* Dense and scalar plans cannot overflow. */
  uint64_t aDom[2] = {7, 1000};
  in = groupby_test_input(2, aDom, 0, 0);
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_DENSE);
  ASSERT_EQ(groupby_plan_grow(&p, &d), -1);
  in.nKey = 0;
  p = groupby_test_choose(&in);
  ASSERT_EQ(groupby_plan_grow(&p, &d), -1);
  return 0;
}

/* The SSB queries' shapes, with SF=1 estimates (6,001,171 lineorder rows)
** where rows matter and unknown rows (a large scan) where they do not. */
TEST_IMPL(groupby_ssb) {
  /* Q1.x: SUM(lo_extendedprice * lo_discount), no GROUP BY. */
  groupby_input in = groupby_test_input(0, NULL, 0, 6001171.0 / 7 * 0.47 * 3 / 11);
  groupby_plan p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_SCALAR);
  ASSERT_EQ(p.nSlot, 1);
  groupby_test_explain(&p, "scalar aggregate: 8 B state, block reduction then one "
                           "atomic per block, 132×2 blocks × 1024 threads");

  /* Q2.1: d_year (1992..1998) x p_brand1 (1000 codes); 40 brands x 7
  ** years estimated. 7,000 x 8 B = 56,000 B fits shared memory. */
  uint64_t aQ2[2] = {7, 1000};
  in = groupby_test_input(2, aQ2, 280, 0);
  in.aKey[0].iMin = 1992;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_DENSE);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  ASSERT(p.aMin[0] == 1992 && p.aStride[0] == 1000 && p.aStride[1] == 1);
  ASSERT_EQ(p.nSlot, 7000);
  groupby_test_explain(&p, "dense array in shared memory: 7 × 1000 = 7000 slots × 8 B, "
                           "132×2 blocks × 1024 threads");
  /* At SF=1 the rows are 6M / 25 categories / 5 regions = 48,009: a
  ** block sees ~182 rows for 280 groups, so per-block copies would merge
  ** as many atomics as they absorb; the array goes global, still dense. */
  in.nRowEst = 6001171.0 / 25 / 5;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_DENSE);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_GLOBAL);

  /* Q3.1: c_nation 25 x s_nation 25 x d_year 7 = 4,375 codes; 5 x 5 x 6
  ** groups from 6M / 25 x 6/7 rows: copies pay. */
  uint64_t aQ3[3] = {25, 25, 7};
  in = groupby_test_input(3, aQ3, 150, 6001171.0 / 25 * 6 / 7);
  in.aKey[2].iMin = 1992;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_DENSE);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  ASSERT(p.aStride[0] == 175 && p.aStride[1] == 7 && p.aStride[2] == 1);
  groupby_test_explain(&p, "dense array in shared memory: 25 × 25 × 7 = 4375 slots × 8 B, "
                           "132×2 blocks × 1024 threads");

  /* Q4.3: d_year 7 x s_city 250 x p_brand1 1000 = 1.75M codes, 14 MB:
  ** under the L2 bound, but global; 2 years x 10 cities x 40 brands = 800
  ** groups fit a 2,048-slot hash table in shared memory, which is faster
  ** (§5.1), so HASH. */
  uint64_t aQ4[3] = {7, 250, 1000};
  in = groupby_test_input(3, aQ4, 800, 0);
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_HASH);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  groupby_test_explain(&p, "hash in shared memory: 2048 slots × 16 B (fill 0.5), "
                           "132×2 blocks × 1024 threads");
  /* With no estimate (the product of domains), the hash table would be
  ** global and bigger than the array: DENSE. */
  in.nGroupEst = 0;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_DENSE);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_GLOBAL);
  /* At SF=1 only ~2,700 rows reach it: no copies pay, both are global,
  ** and the array wins the tie. */
  in.nGroupEst = 800;
  in.nRowEst = 6001171.0 * 2 / 7 / 25 / 25;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_DENSE);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_GLOBAL);
  return 0;
}

/* The EXPLAIN line is always terminated and truncates like snprintf. */
TEST_IMPL(groupby_explain) {
  uint64_t nDom = 25;
  groupby_input in = groupby_test_input(1, &nDom, 0, 0);
  groupby_plan p = groupby_test_choose(&in);
  groupby_test_explain(&p, "dense array in shared memory: 25 slots × 8 B, "
                           "132×2 blocks × 1024 threads");
  char z[8];
  int n = groupby_plan_explain(&p, z, sizeof(z));
  ASSERT_EQ(strlen(z), 7);
  ASSERT_GT(n, 7);
  ASSERT_STR_EQ(groupby_kind_name(GROUPBY_HASH), "hash");
  ASSERT_STR_EQ(groupby_place_name(GROUPBY_PLACE_THREAD), "thread-private");
  return 0;
}

/* ---- hot groups (groupby_hot.c) ---------------------------------------------- */

/* An input of one key of nCode codes whose shares follow Zipf(theta) over
** ranks, rank r being code (r * 37 + 11) % nCode, most frequent first in
** aHot as the planner lists them. */
static groupby_input hot_input(uint64_t nCode, double theta, double nRow) {
  groupby_input in;
  double rSum = 0;
  memset(&in, 0, sizeof(in));
  in.nKey = 1;
  in.aKey[0].nDomain = nCode;
  in.nStateByte = 16;
  in.nStateAlign = 8;
  in.nGroupEst = (double)nCode;
  in.nRowEst = nRow;
  for (uint64_t r = 0; r < nCode; r++) rSum += 1.0 / pow((double)(r + 1), theta);
  for (uint64_t r = 0; r < nCode && r < GROUPBY_MAX_HOT; r++) {
    in.aHot[r].iCode = (r * 37 + 11) % nCode;
    in.aHot[r].rShare = 1.0 / pow((double)(r + 1), theta) / rSum;
    in.nHot++;
  }
  return in;
}

/* Uniform and mildly skewed groups get a plain shared table; from θ = 1
** the groups with more than 1/32 of the rows get replicas, more the
** more frequent, and the table keeps within the static shared budget. */
TEST_IMPL(groupby_hot_skew) {
  groupby_plan p;
  groupby_input in = hot_input(1025, 0.0, 200e6);
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_DENSE);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  ASSERT_EQ(p.nHot, 0);
  ASSERT_EQ(p.nSharedByte, 1025 * 16);
  in = hot_input(1025, 0.5, 200e6);           /* top share 1.6%: under 1/32 */
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.nHot, 0);

  in = hot_input(1025, 1.0, 200e6);
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.nHot, 4);                       /* 13.3%, 6.7%, 4.4%, 3.3% > 1/32 > 2.7% */
  ASSERT_EQ(p.aHotCode[0], 11);
  ASSERT_EQ(p.aHotCode[1], 48);
  for (int i = 1; i < p.nHot; i++) ASSERT(p.aHotReplica[i] <= p.aHotReplica[i - 1]);
  ASSERT_EQ(p.aHotReplica[0], 128);           /* 0.133 x 32 lanes x 16 warps = 68 */
  ASSERT_EQ(p.aHotBase[0], 1025);
  ASSERT_EQ(p.aHotBase[1], 1025 + 128);

  in = hot_input(1025, 2.0, 200e6);
  p = groupby_test_choose(&in);
  ASSERT(p.nHot >= 3);
  ASSERT_EQ(p.aHotReplica[0], 512);           /* 0.61 x 32 x 16 = 312 */
  uint64_t nSlot = 1025;
  for (int i = 0; i < p.nHot; i++) nSlot += (uint64_t)p.aHotReplica[i];
  ASSERT_EQ(p.nShSlot, nSlot);
  ASSERT_EQ(p.nSharedByte, nSlot * 16 + 1025 * 4);
  ASSERT(p.nSharedByte <= GROUPBY_SHARED_STATIC_MAX);
  return 0;
}

/* The budget: groups whose table nearly fills the static shared memory
** get fewer replicas, halved until they fit, and none once nothing fits;
** a table placed globally or a HASH table gets none; no frequencies, no
** replicas; forcing replicates even uniform groups. */
TEST_IMPL(groupby_hot_budget) {
  groupby_device d = groupby_device_default();
  groupby_plan p;
  /* 2,600 slots x 16 B + 4 B map = 52,000 B: over 48 KiB, no room */
  groupby_input in = hot_input(2600, 2.0, 2e9);
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  ASSERT_EQ(p.nHot, 0);
  /* 2,400 slots: 48 KiB - 48,000 B = 1,152 B left, 72 slots: the top group
  ** would want 512, gets 64; the next gets the last 8 */
  in = hot_input(2400, 2.0, 2e9);
  p = groupby_test_choose(&in);
  ASSERT(p.nHot >= 1);
  ASSERT_EQ(p.aHotReplica[0], 64);
  ASSERT(p.nSharedByte <= GROUPBY_SHARED_STATIC_MAX);
  /* few rows: the table goes global, and global tables get no replicas */
  in = hot_input(1025, 2.0, 1000);
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_GLOBAL);
  ASSERT_EQ(p.nHot, 0);
  /* no frequencies */
  in = hot_input(1025, 2.0, 200e6);
  in.nHot = 0;
  p = groupby_test_choose(&in);
  ASSERT_EQ(p.nHot, 0);
  /* forced: uniform groups get the smallest replicas, as many as listed */
  in = hot_input(1025, 0.0, 200e6);
  p = groupby_test_choose(&in);
  ASSERT_EQ(groupby_plan_replicate(&p, &d, &in, 1), GROUPBY_MAX_HOT);
  ASSERT_EQ(p.aHotReplica[0], 2);
  ASSERT_EQ(groupby_plan_replicate(&p, &d, &in, 1), 0);   /* once only: already replicated */
  return 0;
}

TEST_IMPL(groupby_hot_explain) {
  char z[512];
  groupby_input in = hot_input(1025, 2.0, 200e6);
  groupby_plan p = groupby_test_choose(&in);
  groupby_plan_explain(&p, z, sizeof(z));
  ASSERT(strstr(z, "dense array in shared memory: 1025 slots × 16 B") == z);
  ASSERT(strstr(z, "hot groups replicated (paper 000 §3): code 11 (60.8%) ×512, code 48 (15.2%) ×128")
         != NULL);
  /* a short buffer is cut, terminated */
  groupby_plan_explain(&p, z, 80);
  ASSERT_EQ(strlen(z), 79);
  return 0;
}
