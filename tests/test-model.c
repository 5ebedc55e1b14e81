/*
** tests/test-model.c — the optimizer's cost model (planner/model.c): the
** defaults, every constant's name and field, the range checks a model
** a caller changed must pass, and EXPLAIN's line.
*/
#include <math.h>
#include <stddef.h>

#include "../planner/model.h"
#include "test.h"

/* Every constant's name, written out again rather than read from model.c:
** a renamed or dropped name fails here. */
typedef enum { TM_INT, TM_U64, TM_DOUBLE } tm_kind;
static const struct {
  const char *zName;
  size_t iOffset;
  tm_kind eKind;
} aWant[] = {
#define P(zName, field, eKind) {zName, offsetof(planner_model, pred.field), eKind}
#define D(zName, field, eKind) {zName, offsetof(planner_model, dev.field), eKind}
    P("pred.warp_threads", nWarp, TM_INT),
    P("pred.txn_bytes", nTxnByte, TM_INT),
    P("pred.rate.1", aRate[1], TM_DOUBLE),
    P("pred.rate.2", aRate[2], TM_DOUBLE),
    P("pred.rate.3", aRate[3], TM_DOUBLE),
    P("pred.rate.4", aRate[4], TM_DOUBLE),
    P("pred.rate.5", aRate[5], TM_DOUBLE),
    P("pred.rate.6", aRate[6], TM_DOUBLE),
    P("pred.rate.7", aRate[7], TM_DOUBLE),
    P("pred.rate.8", aRate[8], TM_DOUBLE),
    P("pred.scan_bw", rScanBw, TM_DOUBLE),
    P("pred.sector_bytes", nSectorByte, TM_INT),
    P("pred.l1_bytes", nL1Byte, TM_U64),
    P("pred.l1_bw", rL1Bw, TM_DOUBLE),
    P("pred.l2_bytes", nL2Byte, TM_U64),
    P("pred.l2_bw", rL2Bw, TM_DOUBLE),
    P("pred.dev_bw", rDevBw, TM_DOUBLE),
    P("pred.sm", nSM, TM_INT),
    P("pred.issue_per_sm", nIssuePerSM, TM_INT),
    P("pred.clock_hz", rClockHz, TM_DOUBLE),
    P("pred.branch_ops", nBranchOp, TM_INT),
    P("pred.launch_sec", rLaunchSec, TM_DOUBLE),
    P("pred.rid_bytes", nRidByte, TM_INT),
    D("dev.sm", nSm, TM_INT),
    D("dev.threads_per_sm", nThreadPerSm, TM_INT),
    D("dev.threads_per_block", nThreadPerBlock, TM_INT),
    D("dev.blocks_per_sm", nBlockPerSm, TM_INT),
    D("dev.shared_per_sm", nSharedPerSm, TM_U64),
    D("dev.shared_per_block", nSharedPerBlock, TM_U64),
    D("dev.shared_reserved", nSharedReserved, TM_U64),
    D("dev.l2_bytes", nL2, TM_U64),
    D("dev.cache_line", nCacheLine, TM_U64),
    D("dev.global_bytes", nGlobal, TM_U64),
    D("dev.tlb_reach", nTlbReach, TM_U64),
#undef P
#undef D
};
#define N_WANT ((int)(sizeof(aWant) / sizeof(aWant[0])))

/* Sets field i of aWant in *p to a value no range admits: -1, or for an
** unsigned field 2^64 - 1 (2^64 as a double: past what it may hold). */
static void tm_field_break(planner_model *p, int i) {
  char *pField = (char *)p + aWant[i].iOffset;
  if (aWant[i].eKind == TM_INT) *(int *)pField = -1;
  else if (aWant[i].eKind == TM_U64) *(uint64_t *)pField = UINT64_MAX;
  else *(double *)pField = -1;
}

TEST_IMPL(model_defaults) {
  char zErr[512];
  planner_model m;
  predorder_model pred;
  groupby_device dev = groupby_device_default();

  /* Exactly the two modules' defaults, which pass the checks. */
  CALL_OK(planner_model_default("cpu", &m, zErr, sizeof(zErr)));
  ASSERT_STR_EQ(m.zDevice, "cpu");
  ASSERT_STR_EQ(m.zPredOrder, "");
  ASSERT_EQ(m.bResident, 0);
  predorder_model_default(&pred);
  ASSERT_EQ(memcmp(&m.pred, &pred, sizeof(pred)), 0);
  ASSERT_EQ(memcmp(&m.dev, &dev, sizeof(dev)), 0);
  ASSERT(m.pred.aRate[2] == 0.75);
  ASSERT_EQ(m.dev.nSm, 132);
  CALL_OK(planner_model_check(&m, zErr, sizeof(zErr)));

  /* A device needs a name that fits; the defaults are filled either way. */
  memset(&m, 0x5a, sizeof(m));
  CALL_ERR(planner_model_default("", &m, zErr, sizeof(zErr)), "a cost model needs a device name");
  ASSERT_EQ(memcmp(&m.pred, &pred, sizeof(pred)), 0);
  CALL_ERR(planner_model_default(NULL, &m, zErr, sizeof(zErr)), "a cost model needs a device name");
  {
    char zLong[PLANNER_MODEL_DEVICE_SIZE + 1];
    memset(zLong, 'x', sizeof(zLong) - 1);
    zLong[sizeof(zLong) - 1] = 0;
    ASSERT_EQ(planner_model_default(zLong, &m, zErr, sizeof(zErr)), -1);
    ASSERT(strstr(zErr, "is longer than 271 bytes") != NULL);
  }
  return 0;
}

/* Each name is its own field's, and every named field is checked: a value
** out of range in field i is reported under name i. */
TEST_IMPL(model_names) {
  char zErr[512], zWant[96];
  planner_model m;
  for (int i = 0; i < N_WANT; i++) {
    CALL_OK(planner_model_default("gpu", &m, zErr, sizeof(zErr)));
    tm_field_break(&m, i);
    ASSERT_EQ(planner_model_check(&m, zErr, sizeof(zErr)), -1);
    snprintf(zWant, sizeof(zWant), "cost model for \"gpu\": \"%s\" is ", aWant[i].zName);
    if (strstr(zErr, zWant) != zErr) FAIL("field %s: %s", aWant[i].zName, zErr);
  }
  return 0;
}

/* Changes the defaults by stmt and asserts the check's message. */
#define TM_REFUSED(stmt, zWant)                                      \
  do {                                                               \
    CALL_OK(planner_model_default("gpu", &m, zErr, sizeof(zErr)));   \
    stmt;                                                            \
    CALL_ERR(planner_model_check(&m, zErr, sizeof(zErr)), zWant);    \
  } while (0)

TEST_IMPL(model_bad_value) {
  char zErr[512];
  planner_model m;
#define GPU "cost model for \"gpu\": "
  TM_REFUSED(m.pred.aRate[3] = 2.5, GPU "\"pred.rate.3\" is 2.5; it must be in (0, 2]");
  TM_REFUSED(m.pred.aRate[8] = 0, GPU "\"pred.rate.8\" is 0; it must be in (0, 2]");
  TM_REFUSED(m.pred.aRate[4] = NAN, GPU "\"pred.rate.4\" is nan; it must be in (0, 2]");
  TM_REFUSED(m.pred.rScanBw = 0, GPU "\"pred.scan_bw\" is 0; it must be > 0");
  TM_REFUSED(m.pred.rLaunchSec = -1e-6, GPU "\"pred.launch_sec\" is -1e-06; it must be >= 0");
  TM_REFUSED(m.dev.nSm = 0, GPU "\"dev.sm\" is 0; it must be >= 1");
  TM_REFUSED(m.dev.nCacheLine = 0, GPU "\"dev.cache_line\" is 0; it must be >= 1");
  TM_REFUSED(m.dev.nGlobal = UINT64_MAX,
             GPU "\"dev.global_bytes\" is 1.84467440737096e+19; it must be < 1.84467440737096e+19");
  TM_REFUSED(m.dev.nSharedPerBlock = 300 * 1024,
             GPU "\"dev.shared_per_block\" is 307200; it must be at most \"dev.shared_per_sm\" "
                 "(233472)");
  TM_REFUSED((m.dev.nThreadPerBlock = 1024, m.dev.nThreadPerSm = 512),
             GPU "\"dev.threads_per_block\" is 1024; it must be at most \"dev.threads_per_sm\" "
                 "(512)");
#undef GPU

  /* What may be nothing may be 0; a bandwidth may be anything above 0. */
  CALL_OK(planner_model_default("gpu", &m, zErr, sizeof(zErr)));
  m.pred.rLaunchSec = 0;
  m.pred.nBranchOp = 0;
  m.dev.nSharedReserved = 0;
  m.pred.rScanBw = 1e-300;
  CALL_OK(planner_model_check(&m, zErr, sizeof(zErr)));
  return 0;
}

TEST_IMPL(model_describe) {
  static const char zWant[] = "cost model: defaults (H100 SXM) for \"NVIDIA H100 80GB HBM3/sm_90\"";
  char zErr[512], z[256];
  planner_model m;

  CALL_OK(planner_model_default("NVIDIA H100 80GB HBM3/sm_90", &m, zErr, sizeof(zErr)));
  ASSERT_EQ(planner_model_describe(&m, z, sizeof(z)), strlen(zWant));
  ASSERT_STR_EQ(z, zWant);

  /* A short buffer gets what fits and the length the whole line needs. */
  ASSERT_EQ(planner_model_describe(&m, z, 11), strlen(zWant));
  ASSERT_STR_EQ(z, "cost model");
  ASSERT_EQ(planner_model_describe(&m, NULL, 0), strlen(zWant));
  return 0;
}
