/*
** planner/model.c — the cost model's constants by name: which field of
** predorder_model and groupby_device each name stands for and what values
** it may take, the defaults, and the check of a model a caller changed.
**
** The names are stable: they are what a message about a constant says,
** and what a calibration run would key its measurements by. Adding a
** constant is one row of aConst.
**
** Every value is checked as a double. Integer fields must hold whole
** numbers in their type's range; uint64 fields are exact up to 2^53 bytes
** (8 PiB), far above any memory they describe.
**
** INTERFACE ROUTINES
**   planner_model_default, planner_model_check, planner_model_describe
*/
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model.h"

/* ---- the constants -------------------------------------------------------- */

/* The C type of a field. */
typedef enum model_kind {
  MODEL_INT,               /* int */
  MODEL_U64,               /* uint64_t */
  MODEL_DOUBLE             /* double */
} model_kind;

/* The values a constant may take. */
typedef enum model_range {
  MODEL_RATE,              /* (0, 2]: r_k = scan_k / (k scan_1) [004 §3.1] is
                           ** below 1 where branch-free loads overlap; above 2,
                           ** k columns read together would cost more than twice
                           ** k separate scans: a broken measurement */
  MODEL_POSITIVE,          /* > 0: bandwidths, clocks (divisors) */
  MODEL_NONNEG,            /* >= 0: a time or a count that may be nothing */
  MODEL_COUNT              /* >= 1: sizes and counts (many are divisors) */
} model_range;

static const struct {
  double rLo;              /* bound below */
  int bLoOpen;             /* rLo itself is out of range */
  double rHi;              /* largest value in range */
  const char *zText;       /* the range, for messages */
} aRange[] = {
  [MODEL_RATE] = {0.0, 1, 2.0, "in (0, 2]"},
  [MODEL_POSITIVE] = {0.0, 1, HUGE_VAL, "> 0"},
  [MODEL_NONNEG] = {0.0, 0, HUGE_VAL, ">= 0"},
  [MODEL_COUNT] = {1.0, 0, HUGE_VAL, ">= 1"},
};

/* One constant: its stable name and the field it is. */
typedef struct model_const model_const;
struct model_const {
  const char *zName;       /* never changes */
  size_t iOffset;          /* of the field in planner_model */
  model_kind eKind;
  model_range eRange;
};

#define PRED(zName, field, eKind, eRange) \
  {zName, offsetof(planner_model, pred.field), eKind, eRange}
#define DEV(zName, field, eKind, eRange) \
  {zName, offsetof(planner_model, dev.field), eKind, eRange}

/* Every field of predorder_model and groupby_device (but aRate[0], which
** is unused), in struct order; predorder.h and groupby.h say what each
** means, and predorder_model_default() and groupby_device_default() why
** its default is what it is. */
static const model_const aConst[] = {
  PRED("pred.warp_threads", nWarp, MODEL_INT, MODEL_COUNT),
  PRED("pred.txn_bytes", nTxnByte, MODEL_INT, MODEL_COUNT),
  PRED("pred.rate.1", aRate[1], MODEL_DOUBLE, MODEL_RATE),
  PRED("pred.rate.2", aRate[2], MODEL_DOUBLE, MODEL_RATE),
  PRED("pred.rate.3", aRate[3], MODEL_DOUBLE, MODEL_RATE),
  PRED("pred.rate.4", aRate[4], MODEL_DOUBLE, MODEL_RATE),
  PRED("pred.rate.5", aRate[5], MODEL_DOUBLE, MODEL_RATE),
  PRED("pred.rate.6", aRate[6], MODEL_DOUBLE, MODEL_RATE),
  PRED("pred.rate.7", aRate[7], MODEL_DOUBLE, MODEL_RATE),
  PRED("pred.rate.8", aRate[8], MODEL_DOUBLE, MODEL_RATE),
  PRED("pred.scan_bw", rScanBw, MODEL_DOUBLE, MODEL_POSITIVE),
  PRED("pred.sector_bytes", nSectorByte, MODEL_INT, MODEL_COUNT),
  PRED("pred.l1_bytes", nL1Byte, MODEL_U64, MODEL_COUNT),
  PRED("pred.l1_bw", rL1Bw, MODEL_DOUBLE, MODEL_POSITIVE),
  PRED("pred.l2_bytes", nL2Byte, MODEL_U64, MODEL_COUNT),
  PRED("pred.l2_bw", rL2Bw, MODEL_DOUBLE, MODEL_POSITIVE),
  PRED("pred.dev_bw", rDevBw, MODEL_DOUBLE, MODEL_POSITIVE),
  PRED("pred.sm", nSM, MODEL_INT, MODEL_COUNT),
  PRED("pred.issue_per_sm", nIssuePerSM, MODEL_INT, MODEL_COUNT),
  PRED("pred.clock_hz", rClockHz, MODEL_DOUBLE, MODEL_POSITIVE),
  PRED("pred.branch_ops", nBranchOp, MODEL_INT, MODEL_NONNEG),
  PRED("pred.launch_sec", rLaunchSec, MODEL_DOUBLE, MODEL_NONNEG),
  PRED("pred.rid_bytes", nRidByte, MODEL_INT, MODEL_COUNT),
  DEV("dev.sm", nSm, MODEL_INT, MODEL_COUNT),
  DEV("dev.threads_per_sm", nThreadPerSm, MODEL_INT, MODEL_COUNT),
  DEV("dev.threads_per_block", nThreadPerBlock, MODEL_INT, MODEL_COUNT),
  DEV("dev.blocks_per_sm", nBlockPerSm, MODEL_INT, MODEL_COUNT),
  DEV("dev.shared_per_sm", nSharedPerSm, MODEL_U64, MODEL_COUNT),
  DEV("dev.shared_per_block", nSharedPerBlock, MODEL_U64, MODEL_COUNT),
  DEV("dev.shared_reserved", nSharedReserved, MODEL_U64, MODEL_NONNEG),
  DEV("dev.l2_bytes", nL2, MODEL_U64, MODEL_COUNT),
  DEV("dev.cache_line", nCacheLine, MODEL_U64, MODEL_COUNT),
  DEV("dev.global_bytes", nGlobal, MODEL_U64, MODEL_COUNT),
  DEV("dev.tlb_reach", nTlbReach, MODEL_U64, MODEL_COUNT),
};

#define N_CONST ((int)(sizeof(aConst) / sizeof(aConst[0])))

/* Pairs (a, b) of constants where a may not exceed b: the group-by rules
** divide the per-SM figure by the per-block one to size the grid. */
static const char *const aazAtMost[][2] = {
  {"dev.threads_per_block", "dev.threads_per_sm"},
  {"dev.shared_per_block", "dev.shared_per_sm"},
};

/* 2^64, the first value a uint64_t cannot hold (exact as a double). */
#define MODEL_U64_END 18446744073709551616.0

/* ---- reading and checking fields ----------------------------------------- */

/* Returns the row of aConst named zName, or NULL. */
static const model_const *model_const_find(const char *zName) {
  for (int i = 0; i < N_CONST; i++) {
    if (strcmp(aConst[i].zName, zName) == 0) return &aConst[i];
  }
  return NULL;
}

/* Returns c's field of *p as a double (exact up to 2^53, see above). */
static double model_get(const planner_model *p, const model_const *c) {
  const char *pField = (const char *)p + c->iOffset;
  switch (c->eKind) {
    case MODEL_INT: return (double)*(const int *)pField;
    case MODEL_U64: return (double)*(const uint64_t *)pField;
    case MODEL_DOUBLE: break;
  }
  return *(const double *)pField;
}

/* Returns 0 if v is a value c may take, else -1 with zErr saying why,
** after zWhat (whose model this is). */
static int model_check(const model_const *c, double v, const char *zWhat, char *zErr,
                       size_t nErr) {
  const char *zWhy = NULL;
  char zMax[32];

  if (isnan(v) || v < aRange[c->eRange].rLo || v > aRange[c->eRange].rHi ||
      (aRange[c->eRange].bLoOpen && v == aRange[c->eRange].rLo)) {
    zWhy = aRange[c->eRange].zText;
  } else if (c->eKind != MODEL_DOUBLE && v != floor(v)) {
    zWhy = "a whole number";
  } else if ((c->eKind == MODEL_INT && v > (double)INT_MAX) ||
             (c->eKind == MODEL_U64 && v >= MODEL_U64_END)) {
    snprintf(zMax, sizeof(zMax), "< %.15g", c->eKind == MODEL_INT ? (double)INT_MAX + 1
                                                                    : MODEL_U64_END);
    zWhy = zMax;
  }
  if (zWhy == NULL) return 0;
  snprintf(zErr, nErr, "%s: \"%s\" is %.15g; it must be %s", zWhat, c->zName, v, zWhy);
  return -1;
}

/* Checks the bounds between fields of *p (aazAtMost). Returns 0, or -1
** with zErr set. */
static int model_check_bounds(const planner_model *p, const char *zWhat, char *zErr,
                              size_t nErr) {
  for (size_t i = 0; i < sizeof(aazAtMost) / sizeof(aazAtMost[0]); i++) {
    const model_const *a = model_const_find(aazAtMost[i][0]);
    const model_const *b = model_const_find(aazAtMost[i][1]);
    if (model_get(p, a) > model_get(p, b)) {
      snprintf(zErr, nErr, "%s: \"%s\" is %.15g; it must be at most \"%s\" (%.15g)", zWhat,
               a->zName, model_get(p, a), b->zName, model_get(p, b));
      return -1;
    }
  }
  return 0;
}

/* ---- the interface -------------------------------------------------------- */

int planner_model_default(const char *zDevice, planner_model *p, char *zErr, size_t nErr) {
  memset(p, 0, sizeof(*p));
  predorder_model_default(&p->pred);
  p->dev = groupby_device_default();
  if (zDevice == NULL || zDevice[0] == 0) {
    snprintf(zErr, nErr, "a cost model needs a device name");
    return -1;
  }
  if (strlen(zDevice) >= sizeof(p->zDevice)) {
    snprintf(zErr, nErr, "device name \"%.40s...\" is longer than %d bytes", zDevice,
             PLANNER_MODEL_DEVICE_SIZE - 1);
    return -1;
  }
  memcpy(p->zDevice, zDevice, strlen(zDevice) + 1);
  return 0;
}

int planner_model_check(const planner_model *p, char *zErr, size_t nErr) {
  char zWhat[PLANNER_MODEL_DEVICE_SIZE + 32];
  snprintf(zWhat, sizeof(zWhat), "cost model for \"%s\"", p->zDevice);
  for (int i = 0; i < N_CONST; i++) {
    if (model_check(&aConst[i], model_get(p, &aConst[i]), zWhat, zErr, nErr) != 0) return -1;
  }
  return model_check_bounds(p, zWhat, zErr, nErr);
}

size_t planner_model_describe(const planner_model *p, char *z, size_t n) {
  int r = snprintf(z, n, "cost model: defaults (H100 SXM) for \"%s\"", p->zDevice);
  return r < 0 ? 0 : (size_t)r;
}
