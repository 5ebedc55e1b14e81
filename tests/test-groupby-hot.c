/*
** tests/test-groupby-hot.c — replicas of hot groups (planner/groupby_hot.c,
** paper 000 §3) on crafted frequencies: chosen for Zipf-skewed groups and
** not for uniform ones, replicas growing with a group's share, the
** shared-memory budget bounding them, only for a DENSE table in shared
** memory, and the EXPLAIN line.
**
** Figures are for groupby_device_default() (an H100) and a 16-byte state
** (row count + SUM), 1024 groups + NULL, 200 M rows, the benchmark's shape.
*/
#include <math.h>

#include "../planner/groupby.h"
#include "test.h"

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

static groupby_plan hot_choose(const groupby_input *pIn) {
  groupby_device d = groupby_device_default();
  groupby_plan p;
  char zErr[128];
  if (groupby_plan_choose(pIn, &d, &p, zErr, sizeof(zErr)) != 0) FAIL("choose: %s", zErr);
  return p;
}

/* Uniform and mildly skewed groups get a plain shared table; from θ = 1
** the groups with more than 1/32 of the rows get replicas, more the
** more frequent, and the table keeps within the static shared budget. */
TEST_IMPL(groupby_hot_skew) {
  groupby_plan p;
  groupby_input in = hot_input(1025, 0.0, 200e6);
  p = hot_choose(&in);
  ASSERT_EQ(p.eKind, GROUPBY_DENSE);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  ASSERT_EQ(p.nHot, 0);
  ASSERT_EQ(p.nSharedByte, 1025 * 16);
  in = hot_input(1025, 0.5, 200e6);           /* top share 1.6%: under 1/32 */
  p = hot_choose(&in);
  ASSERT_EQ(p.nHot, 0);

  in = hot_input(1025, 1.0, 200e6);
  p = hot_choose(&in);
  ASSERT_EQ(p.nHot, 4);                       /* 13.3%, 6.7%, 4.4%, 3.3% > 1/32 > 2.7% */
  ASSERT_EQ(p.aHotCode[0], 11);
  ASSERT_EQ(p.aHotCode[1], 48);
  for (int i = 1; i < p.nHot; i++) ASSERT(p.aHotReplica[i] <= p.aHotReplica[i - 1]);
  ASSERT_EQ(p.aHotReplica[0], 128);           /* 0.133 x 32 lanes x 16 warps = 68 */
  ASSERT_EQ(p.aHotBase[0], 1025);
  ASSERT_EQ(p.aHotBase[1], 1025 + 128);

  in = hot_input(1025, 2.0, 200e6);
  p = hot_choose(&in);
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
  p = hot_choose(&in);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_SHARED);
  ASSERT_EQ(p.nHot, 0);
  /* 2,400 slots: 48 KiB - 48,000 B = 1,152 B left, 72 slots: the top group
  ** would want 512, gets 64; the next gets the last 8 */
  in = hot_input(2400, 2.0, 2e9);
  p = hot_choose(&in);
  ASSERT(p.nHot >= 1);
  ASSERT_EQ(p.aHotReplica[0], 64);
  ASSERT(p.nSharedByte <= GROUPBY_SHARED_STATIC_MAX);
  /* few rows: the table goes global, and global tables get no replicas */
  in = hot_input(1025, 2.0, 1000);
  p = hot_choose(&in);
  ASSERT_EQ(p.ePlace, GROUPBY_PLACE_GLOBAL);
  ASSERT_EQ(p.nHot, 0);
  /* no frequencies */
  in = hot_input(1025, 2.0, 200e6);
  in.nHot = 0;
  p = hot_choose(&in);
  ASSERT_EQ(p.nHot, 0);
  /* forced: uniform groups get the smallest replicas, as many as listed */
  in = hot_input(1025, 0.0, 200e6);
  p = hot_choose(&in);
  ASSERT_EQ(groupby_plan_replicate(&p, &d, &in, 1), GROUPBY_MAX_HOT);
  ASSERT_EQ(p.aHotReplica[0], 2);
  ASSERT_EQ(groupby_plan_replicate(&p, &d, &in, 1), 0);   /* once only: already replicated */
  return 0;
}

TEST_IMPL(groupby_hot_explain) {
  char z[512];
  groupby_input in = hot_input(1025, 2.0, 200e6);
  groupby_plan p = hot_choose(&in);
  groupby_plan_explain(&p, z, sizeof(z));
  ASSERT(strstr(z, "dense array in shared memory: 1025 slots × 16 B") == z);
  ASSERT(strstr(z, "hot groups replicated (paper 000 §3): code 11 (60.8%) ×512, code 48 (15.2%) ×128")
         != NULL);
  /* a short buffer is cut, terminated */
  groupby_plan_explain(&p, z, 80);
  ASSERT_EQ(strlen(z), 79);
  return 0;
}
