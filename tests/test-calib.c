/*
** tests/test-calib.c — calibration constants: their storage in the catalog
** (catalog/calib.c: set, get, replace, per device, refusals, the upgrade
** of a version-1 catalog that adds their table) and their mapping onto the
** optimizer's cost model (planner/model.c: defaults, every name to its
** own field, range checks, unknown names, the EXPLAIN line).
*/
#include <math.h>
#include <sqlite3.h>
#include <stddef.h>
#include <time.h>

#include "../catalog/catalog.h"
#include "../planner/model.h"
#include "test.h"

static cat *ca_open(void) {
  cat *p;
  char zErr[512];
  if (cat_open(&p, "data", zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  return p;
}

/* Reads device zDevice's calibration, which must exist. */
static cat_calib *ca_get(cat *pCat, const char *zDevice) {
  cat_calib *p;
  char zErr[512];
  CALL_OK(cat_calib_get(pCat, zDevice, &p, zErr, sizeof(zErr)));
  if (p == NULL) FAIL("no calibration for \"%s\"", zDevice);
  return p;
}

/* Asserts that device zDevice has no calibration. */
static void ca_assert_none(cat *pCat, const char *zDevice) {
  cat_calib *p = (cat_calib *)1;
  char zErr[512];
  CALL_OK(cat_calib_get(pCat, zDevice, &p, zErr, sizeof(zErr)));
  ASSERT(p == NULL);
}

/* Asserts that z is "YYYY-MM-DDTHH:MM:SSZ" and no earlier than t0 nor later
** than now (to the second). */
static void ca_assert_time(const char *z, time_t t0) {
  struct tm tm;
  char zLo[32], zHi[32];
  time_t t1 = time(NULL);
  ASSERT_EQ(strlen(z), 20);
  ASSERT(gmtime_r(&t0, &tm) != NULL);
  ASSERT(strftime(zLo, sizeof(zLo), "%Y-%m-%dT%H:%M:%SZ", &tm) == 20);
  ASSERT(gmtime_r(&t1, &tm) != NULL);
  ASSERT(strftime(zHi, sizeof(zHi), "%Y-%m-%dT%H:%M:%SZ", &tm) == 20);
  if (strcmp(z, zLo) < 0 || strcmp(z, zHi) > 0) FAIL("%s is not in [%s, %s]", z, zLo, zHi);
}

/* ---- catalog/calib.c ------------------------------------------------------ */

TEST_IMPL(cat_calib_roundtrip) {
  /* Out of order, with a name that differs only in case, and values at the
  ** ends of what a double holds. */
  static const char *const azName[] = {"zeta", "alpha", "Alpha", "tiny", "huge", "neg"};
  static const double aValue[] = {1.5, 2.0, 3.0, 5e-324, 1.7976931348623157e308, -0.25};
  static const char *const azSorted[] = {"Alpha", "alpha", "huge", "neg", "tiny", "zeta"};
  char zErr[512];
  time_t t0 = time(NULL);
  cat *pCat = ca_open();
  cat_calib *p;

  ca_assert_none(pCat, "cpu");
  CALL_OK(cat_calib_set(pCat, "cpu", 6, azName, aValue, zErr, sizeof(zErr)));
  cat_close(pCat);

  /* What was written is what a fresh handle reads. */
  pCat = ca_open();
  p = ca_get(pCat, "cpu");
  ASSERT_STR_EQ(p->zDevice, "cpu");
  ca_assert_time(p->zMeasuredAt, t0);
  ASSERT_EQ(p->n, 6);
  for (int i = 0; i < 6; i++) ASSERT_STR_EQ(p->azName[i], azSorted[i]);
  for (int i = 0; i < 6; i++) {
    const double *pv = cat_calib_find(p, azName[i]);
    ASSERT(pv != NULL);
    ASSERT(*pv == aValue[i]);
  }
  ASSERT(cat_calib_find(p, "ALPHA") == NULL);
  ASSERT(cat_calib_find(p, "alph") == NULL);
  ASSERT(cat_calib_find(p, "") == NULL);
  ASSERT(cat_calib_find(NULL, "alpha") == NULL);
  cat_calib_free(p);

  /* Device names are exact too. */
  ca_assert_none(pCat, "CPU");
  ASSERT_EQ(test_sql_int("data/catalog.db", "SELECT count(DISTINCT measured_at) FROM calibration"),
            1);
  cat_close(pCat);
  return 0;
}

TEST_IMPL(cat_calib_replace) {
  static const char *const azA[] = {"a", "b", "c"};
  static const double aA[] = {1, 2, 3};
  static const char *const azB[] = {"d", "b"};
  static const double aB[] = {40, 20};
  static const double aGpu[] = {100, 200, 300};
  char zErr[512];
  cat *pCat = ca_open();
  cat_calib *p;

  CALL_OK(cat_calib_set(pCat, "cpu", 3, azA, aA, zErr, sizeof(zErr)));
  CALL_OK(cat_calib_set(pCat, "NVIDIA H100 80GB HBM3/sm_90", 3, azA, aGpu, zErr,
                        sizeof(zErr)));

  /* A set replaces the device's whole set: "a" and "c" are gone. */
  CALL_OK(cat_calib_set(pCat, "cpu", 2, azB, aB, zErr, sizeof(zErr)));
  p = ca_get(pCat, "cpu");
  ASSERT_EQ(p->n, 2);
  ASSERT(cat_calib_find(p, "a") == NULL);
  ASSERT(cat_calib_find(p, "c") == NULL);
  ASSERT(*cat_calib_find(p, "b") == 20);
  ASSERT(*cat_calib_find(p, "d") == 40);
  cat_calib_free(p);

  /* ... and leaves every other device's alone. */
  p = ca_get(pCat, "NVIDIA H100 80GB HBM3/sm_90");
  ASSERT_EQ(p->n, 3);
  for (int i = 0; i < 3; i++) ASSERT(*cat_calib_find(p, azA[i]) == aGpu[i]);
  cat_calib_free(p);

  /* An empty set removes the device's calibration. */
  CALL_OK(cat_calib_set(pCat, "cpu", 0, NULL, NULL, zErr, sizeof(zErr)));
  ca_assert_none(pCat, "cpu");
  p = ca_get(pCat, "NVIDIA H100 80GB HBM3/sm_90");
  ASSERT_EQ(p->n, 3);
  cat_calib_free(p);
  cat_close(pCat);
  ASSERT_EQ(test_sql_int("data/catalog.db", "SELECT count(*) FROM calibration"), 3);
  return 0;
}

/* Returns the SQLite result code of inserting the row zValues into the
** calibration table of the catalog file, past the catalog's checks. */
static int ca_insert_rc(const char *zValues) {
  sqlite3 *db;
  char zSql[256];
  int rc;
  snprintf(zSql, sizeof(zSql), "INSERT INTO calibration VALUES (%s)", zValues);
  if (sqlite3_open("data/catalog.db", &db) != SQLITE_OK) FAIL("open: %s", sqlite3_errmsg(db));
  rc = sqlite3_exec(db, zSql, NULL, NULL, NULL);
  sqlite3_close(db);
  return rc;
}

TEST_IMPL(cat_calib_errors) {
  static const char *const azOk[] = {"a", "b"};
  static const double aOk[] = {1, 2};
  const char *azName[] = {"a", "b"};
  double aValue[] = {1, 2};
  char zErr[512];
  cat *pCat = ca_open();
  cat_calib *p;

  CALL_OK(cat_calib_set(pCat, "cpu", 2, azOk, aOk, zErr, sizeof(zErr)));

  aValue[1] = NAN;
  CALL_ERR(cat_calib_set(pCat, "cpu", 2, azName, aValue, zErr, sizeof(zErr)),
           "calibration of \"cpu\": \"b\" is NaN, not a finite number");
  aValue[1] = HUGE_VAL;
  CALL_ERR(cat_calib_set(pCat, "cpu", 2, azName, aValue, zErr, sizeof(zErr)),
           "calibration of \"cpu\": \"b\" is infinite, not a finite number");
  aValue[1] = -HUGE_VAL;
  CALL_ERR(cat_calib_set(pCat, "cpu", 2, azName, aValue, zErr, sizeof(zErr)),
           "calibration of \"cpu\": \"b\" is infinite, not a finite number");
  aValue[1] = 7;
  azName[1] = "";
  CALL_ERR(cat_calib_set(pCat, "cpu", 2, azName, aValue, zErr, sizeof(zErr)),
           "calibration of \"cpu\": constant 1 has no name");
  azName[1] = NULL;
  CALL_ERR(cat_calib_set(pCat, "cpu", 2, azName, aValue, zErr, sizeof(zErr)),
           "calibration of \"cpu\": constant 1 has no name");
  azName[1] = "a";
  CALL_ERR(cat_calib_set(pCat, "cpu", 2, azName, aValue, zErr, sizeof(zErr)),
           "calibration of \"cpu\": \"a\" is given twice");
  azName[1] = "b";
  CALL_ERR(cat_calib_set(pCat, "", 2, azName, aValue, zErr, sizeof(zErr)),
           "a calibration needs a device name");
  CALL_ERR(cat_calib_set(pCat, NULL, 2, azName, aValue, zErr, sizeof(zErr)),
           "a calibration needs a device name");
  CALL_ERR(cat_calib_set(pCat, "cpu", -1, azName, aValue, zErr, sizeof(zErr)),
           "calibration of \"cpu\": -1 constants without names or values");
  CALL_ERR(cat_calib_get(pCat, "", &p, zErr, sizeof(zErr)), "a calibration needs a device name");
  ASSERT(p == NULL);

  /* Nothing refused changed what was there. */
  p = ca_get(pCat, "cpu");
  ASSERT_EQ(p->n, 2);
  ASSERT(*cat_calib_find(p, "b") == 2);
  cat_calib_free(p);
  cat_close(pCat);

  /* The table refuses the same by itself, for writers other than calib.c. */
  ASSERT_EQ(ca_insert_rc("'gpu', 'x', 9e999, '2026-01-01T00:00:00Z'"), SQLITE_CONSTRAINT);
  ASSERT_EQ(ca_insert_rc("'gpu', 'x', NULL, '2026-01-01T00:00:00Z'"), SQLITE_CONSTRAINT);
  ASSERT_EQ(ca_insert_rc("'gpu', '', 1, '2026-01-01T00:00:00Z'"), SQLITE_CONSTRAINT);
  ASSERT_EQ(ca_insert_rc("'', 'x', 1, '2026-01-01T00:00:00Z'"), SQLITE_CONSTRAINT);
  ASSERT_EQ(ca_insert_rc("'gpu', 'x', 1, '2026-01-01 00:00:00'"), SQLITE_CONSTRAINT);
  ASSERT_EQ(ca_insert_rc("'gpu', 'x', 'fast', '2026-01-01T00:00:00Z'"), SQLITE_CONSTRAINT);
  ASSERT_EQ(ca_insert_rc("'gpu', 'x', 1, '2026-01-01T00:00:00Z'"), SQLITE_OK);
  return 0;
}

/* Makes the catalog at data/ what a version-1 build left: no calibration
** table, no run counts, user_version 1. */
static void ca_make_v1(void) {
  test_sql_exec("data/catalog.db", "DROP TABLE calibration;"
                " ALTER TABLE column_stats DROP COLUMN run_count; PRAGMA user_version = 1");
}

TEST_IMPL(cat_migrate_v1) {
  static const char *const azName[] = {"a"};
  static const double aValue[] = {0.5};
  coltype ti = {COLTYPE_INTEGER, 0, 0, 0};
  char zErr[512];
  cat *pCat = ca_open();
  cat_table *t = cat_table_new("t");
  cat_calib *p;

  ASSERT(t != NULL);
  CALL_OK(cat_table_add_column(t, "a", ti, 1, zErr, sizeof(zErr)));
  CALL_OK(cat_table_create(pCat, t, zErr, sizeof(zErr)));
  cat_table_free(t);
  cat_close(pCat);
  ca_make_v1();
  ASSERT_EQ(test_sql_int("data/catalog.db",
                         "SELECT count(*) FROM sqlite_master WHERE name = 'calibration'"),
            0);

  /* Opening upgrades it in place, keeping what it held. */
  pCat = ca_open();
  ASSERT_EQ(test_sql_int("data/catalog.db", "PRAGMA user_version"), CAT_SCHEMA_VERSION);
  CALL_OK(cat_table_get(pCat, "t", &t, zErr, sizeof(zErr)));
  ASSERT_EQ(t->nCol, 1);
  ASSERT_STR_EQ(t->aCol[0].zName, "a");
  cat_table_free(t);
  ca_assert_none(pCat, "cpu");
  CALL_OK(cat_calib_set(pCat, "cpu", 1, azName, aValue, zErr, sizeof(zErr)));
  p = ca_get(pCat, "cpu");
  ASSERT(*cat_calib_find(p, "a") == 0.5);
  cat_calib_free(p);
  cat_close(pCat);
  ASSERT_EQ(test_sql_int("data/catalog.db", "SELECT count(*) FROM pragma_integrity_check"
                                            " WHERE integrity_check <> 'ok'"),
            0);

  /* The upgrade is one transaction: when its step fails (here on an object
  ** in the way), the catalog stays at version 1 with nothing changed. */
  ca_make_v1();
  test_sql_exec("data/catalog.db", "CREATE VIEW calibration AS SELECT 1 AS x");
  ASSERT_NE(cat_open(&pCat, "data", zErr, sizeof(zErr)), 0);
  ASSERT(pCat == NULL);
  if (strstr(zErr, "calibration already exists") == NULL) FAIL("unexpected: %s", zErr);
  ASSERT_EQ(test_sql_int("data/catalog.db", "PRAGMA user_version"), 1);
  ASSERT_EQ(test_sql_int("data/catalog.db",
                         "SELECT count(*) FROM sqlite_master WHERE name = 'calibration'"
                         " AND type = 'view'"),
            1);
  ASSERT_EQ(test_sql_int("data/catalog.db", "SELECT count(*) FROM tables WHERE name = 't'"), 1);

  /* With the obstacle gone, the same catalog upgrades. */
  test_sql_exec("data/catalog.db", "DROP VIEW calibration");
  pCat = ca_open();
  ca_assert_none(pCat, "cpu");
  cat_close(pCat);
  ASSERT_EQ(test_sql_int("data/catalog.db", "PRAGMA user_version"), CAT_SCHEMA_VERSION);
  return 0;
}

/* ---- planner/model.c ------------------------------------------------------ */

/* The names are a file format, so this list is written out again rather
** than read from model.c: a renamed or dropped name fails here. Per-SM
** fields come before per-block ones, which ca_distinct_value() relies on. */
typedef enum { CA_INT, CA_U64, CA_DOUBLE } ca_kind;
static const struct {
  const char *zName;
  size_t iOffset;
  ca_kind eKind;
} aWant[] = {
#define P(zName, field, eKind) {zName, offsetof(planner_model, pred.field), eKind}
#define D(zName, field, eKind) {zName, offsetof(planner_model, dev.field), eKind}
    P("pred.warp_threads", nWarp, CA_INT),
    P("pred.txn_bytes", nTxnByte, CA_INT),
    P("pred.rate.1", aRate[1], CA_DOUBLE),
    P("pred.rate.2", aRate[2], CA_DOUBLE),
    P("pred.rate.3", aRate[3], CA_DOUBLE),
    P("pred.rate.4", aRate[4], CA_DOUBLE),
    P("pred.rate.5", aRate[5], CA_DOUBLE),
    P("pred.rate.6", aRate[6], CA_DOUBLE),
    P("pred.rate.7", aRate[7], CA_DOUBLE),
    P("pred.rate.8", aRate[8], CA_DOUBLE),
    P("pred.scan_bw", rScanBw, CA_DOUBLE),
    P("pred.sector_bytes", nSectorByte, CA_INT),
    P("pred.l1_bytes", nL1Byte, CA_U64),
    P("pred.l1_bw", rL1Bw, CA_DOUBLE),
    P("pred.l2_bytes", nL2Byte, CA_U64),
    P("pred.l2_bw", rL2Bw, CA_DOUBLE),
    P("pred.dev_bw", rDevBw, CA_DOUBLE),
    P("pred.sm", nSM, CA_INT),
    P("pred.issue_per_sm", nIssuePerSM, CA_INT),
    P("pred.clock_hz", rClockHz, CA_DOUBLE),
    P("pred.branch_ops", nBranchOp, CA_INT),
    P("pred.launch_sec", rLaunchSec, CA_DOUBLE),
    P("pred.rid_bytes", nRidByte, CA_INT),
    D("dev.sm", nSm, CA_INT),
    D("dev.threads_per_sm", nThreadPerSm, CA_INT),
    D("dev.threads_per_block", nThreadPerBlock, CA_INT),
    D("dev.blocks_per_sm", nBlockPerSm, CA_INT),
    D("dev.shared_per_sm", nSharedPerSm, CA_U64),
    D("dev.shared_per_block", nSharedPerBlock, CA_U64),
    D("dev.shared_reserved", nSharedReserved, CA_U64),
    D("dev.l2_bytes", nL2, CA_U64),
    D("dev.cache_line", nCacheLine, CA_U64),
    D("dev.global_bytes", nGlobal, CA_U64),
    D("dev.tlb_reach", nTlbReach, CA_U64),
#undef P
#undef D
};
#define N_WANT ((int)(sizeof(aWant) / sizeof(aWant[0])))

/* Returns field i of aWant in *p, as a double. */
static double ca_field(const planner_model *p, int i) {
  const char *pField = (const char *)p + aWant[i].iOffset;
  if (aWant[i].eKind == CA_INT) return *(const int *)pField;
  if (aWant[i].eKind == CA_U64) return (double)*(const uint64_t *)pField;
  return *(const double *)pField;
}

/* A value for field i that no other field gets and that every range
** admits: 1 < x < 2 for doubles (rates are at most 2), and whole numbers
** falling with i for the others (so a per-SM figure exceeds the per-block
** one that follows it). */
static double ca_distinct_value(int i) {
  return aWant[i].eKind == CA_DOUBLE ? 1.0 + (i + 1) / 64.0 : 100000.0 - i;
}

/* Asserts that every named field of a and b is the same, and the rest of
** pred too (aRate[0], unused). */
static void ca_assert_same_constants(const planner_model *a, const planner_model *b) {
  for (int i = 0; i < N_WANT; i++) {
    if (ca_field(a, i) != ca_field(b, i)) {
      FAIL("%s: %.17g vs %.17g", aWant[i].zName, ca_field(a, i), ca_field(b, i));
    }
  }
  ASSERT(a->pred.aRate[0] == b->pred.aRate[0]);
}

TEST_IMPL(model_defaults) {
  static const char *const azName[] = {"pred.rate.2"};
  static const double aValue[] = {0.5};
  char zErr[512], z[256];
  cat *pCat = ca_open();
  planner_model m, d;
  predorder_model pred;
  groupby_device dev = groupby_device_default();

  /* Another device's calibration is not this one's. */
  CALL_OK(cat_calib_set(pCat, "gpu", 1, azName, aValue, zErr, sizeof(zErr)));
  CALL_OK(planner_model_load(pCat, "cpu", &m, zErr, sizeof(zErr)));
  ASSERT_EQ(m.bCalibrated, 0);
  ASSERT_STR_EQ(m.zDevice, "cpu");
  ASSERT_STR_EQ(m.zMeasuredAt, "");

  /* Exactly the two modules' defaults, field by field. */
  predorder_model_default(&pred);
  ASSERT_EQ(memcmp(&m.dev, &dev, sizeof(dev)), 0);
  CALL_OK(planner_model_default("cpu", &d, zErr, sizeof(zErr)));
  ASSERT_EQ(memcmp(&d.pred, &pred, sizeof(pred)), 0);
  ca_assert_same_constants(&m, &d);
  ASSERT(m.pred.aRate[2] == 0.75);
  ASSERT_EQ(m.dev.nSm, 132);

  planner_model_describe(&m, z, sizeof(z));
  ASSERT_STR_EQ(z, "cost model: defaults (no calibration run for \"cpu\")");

  CALL_ERR(planner_model_load(pCat, "", &m, zErr, sizeof(zErr)),
           "a cost model needs a device name");
  cat_close(pCat);
  return 0;
}

TEST_IMPL(model_names) {
  const char *azName[N_WANT];
  double aValue[N_WANT];
  char zErr[512];
  cat *pCat = ca_open();
  planner_model m, d;
  cat_calib *p;

  /* Saving the defaults writes exactly the names above, with their values. */
  CALL_OK(planner_model_default("gpu", &d, zErr, sizeof(zErr)));
  CALL_OK(planner_model_save(pCat, "gpu", &d, zErr, sizeof(zErr)));
  p = ca_get(pCat, "gpu");
  ASSERT_EQ(p->n, N_WANT);
  for (int i = 0; i < N_WANT; i++) {
    const double *pv = cat_calib_find(p, aWant[i].zName);
    if (pv == NULL) FAIL("%s was not saved", aWant[i].zName);
    ASSERT(*pv == ca_field(&d, i));
  }
  cat_calib_free(p);
  CALL_OK(planner_model_load(pCat, "gpu", &m, zErr, sizeof(zErr)));
  ASSERT_EQ(m.bCalibrated, 1);
  ca_assert_same_constants(&m, &d);

  /* Each name sets its own field: a distinct value in each reads back
  ** from the field the name is for. */
  for (int i = 0; i < N_WANT; i++) {
    azName[i] = aWant[i].zName;
    aValue[i] = ca_distinct_value(i);
  }
  CALL_OK(cat_calib_set(pCat, "gpu", N_WANT, azName, aValue, zErr, sizeof(zErr)));
  CALL_OK(planner_model_load(pCat, "gpu", &m, zErr, sizeof(zErr)));
  for (int i = 0; i < N_WANT; i++) {
    if (ca_field(&m, i) != aValue[i]) {
      FAIL("%s: field holds %.17g, not %.17g", aWant[i].zName, ca_field(&m, i), aValue[i]);
    }
  }
  p = ca_get(pCat, "gpu");
  ASSERT_STR_EQ(m.zMeasuredAt, p->zMeasuredAt);
  cat_calib_free(p);

  /* What was loaded saves and loads back unchanged. */
  CALL_OK(planner_model_save(pCat, "gpu", &m, zErr, sizeof(zErr)));
  CALL_OK(planner_model_load(pCat, "gpu", &d, zErr, sizeof(zErr)));
  ca_assert_same_constants(&m, &d);
  cat_close(pCat);
  return 0;
}

/* Stores name = v alone as device "gpu"'s calibration, then asserts that
** loading it fails with zWant and leaves the defaults in place. */
static void ca_load_refused(cat *pCat, const char *zName, double v, const char *zWant) {
  char zErr[512];
  planner_model m, d;
  CALL_OK(cat_calib_set(pCat, "gpu", 1, &zName, &v, zErr, sizeof(zErr)));
  memset(&m, 0x5a, sizeof(m));
  CALL_ERR(planner_model_load(pCat, "gpu", &m, zErr, sizeof(zErr)), zWant);
  CALL_OK(planner_model_default("gpu", &d, zErr, sizeof(zErr)));
  ca_assert_same_constants(&m, &d);
  ASSERT_EQ(m.bCalibrated, 0);
  ASSERT_STR_EQ(m.zDevice, "gpu");
}

TEST_IMPL(model_bad_value) {
  static const char *const azName[] = {"dev.threads_per_block", "dev.threads_per_sm"};
  static const double aValue[] = {1024, 512};
  char zErr[512];
  cat *pCat = ca_open();
  planner_model m;
  cat_calib *p;

#define IN_CATALOG "calibration of \"gpu\" in the catalog: "
  ca_load_refused(pCat, "pred.rate.3", 2.5,
                  IN_CATALOG "\"pred.rate.3\" is 2.5; it must be in (0, 2]");
  ca_load_refused(pCat, "pred.rate.8", 0, IN_CATALOG "\"pred.rate.8\" is 0; it must be in (0, 2]");
  ca_load_refused(pCat, "pred.scan_bw", 0, IN_CATALOG "\"pred.scan_bw\" is 0; it must be > 0");
  ca_load_refused(pCat, "pred.launch_sec", -1e-6,
                  IN_CATALOG "\"pred.launch_sec\" is -1e-06; it must be >= 0");
  ca_load_refused(pCat, "dev.sm", 0, IN_CATALOG "\"dev.sm\" is 0; it must be >= 1");
  ca_load_refused(pCat, "dev.sm", 131.5,
                  IN_CATALOG "\"dev.sm\" is 131.5; it must be a whole number");
  ca_load_refused(pCat, "pred.warp_threads", 3e9,
                  IN_CATALOG "\"pred.warp_threads\" is 3000000000; it must be < 2147483648");
  ca_load_refused(pCat, "dev.global_bytes", 2e19,
                  IN_CATALOG "\"dev.global_bytes\" is 2e+19; it must be < 1.84467440737096e+19");
  ca_load_refused(pCat, "dev.shared_per_block", 300 * 1024,
                  IN_CATALOG "\"dev.shared_per_block\" is 307200; it must be at most "
                  "\"dev.shared_per_sm\" (233472)");

  /* Bounds between constants hold whichever of the two was measured. */
  CALL_OK(cat_calib_set(pCat, "gpu", 2, azName, aValue, zErr, sizeof(zErr)));
  CALL_ERR(planner_model_load(pCat, "gpu", &m, zErr, sizeof(zErr)),
           IN_CATALOG "\"dev.threads_per_block\" is 1024; it must be at most "
           "\"dev.threads_per_sm\" (512)");
#undef IN_CATALOG

  /* Saving checks the same, and then writes nothing. */
  CALL_OK(planner_model_default("gpu", &m, zErr, sizeof(zErr)));
  m.pred.aRate[4] = NAN;
  CALL_ERR(planner_model_save(pCat, "gpu", &m, zErr, sizeof(zErr)),
           "calibration of \"gpu\": \"pred.rate.4\" is nan; it must be in (0, 2]");
  m.pred.aRate[4] = 0.7;
  m.dev.nCacheLine = 0;
  CALL_ERR(planner_model_save(pCat, "gpu", &m, zErr, sizeof(zErr)),
           "calibration of \"gpu\": \"dev.cache_line\" is 0; it must be >= 1");
  p = ca_get(pCat, "gpu");
  ASSERT_EQ(p->n, 2);
  cat_calib_free(p);
  CALL_ERR(planner_model_save(pCat, "", &m, zErr, sizeof(zErr)),
           "a cost model needs a device name");
  cat_close(pCat);
  return 0;
}

TEST_IMPL(model_unknown_name) {
  static const char *const azName[] = {"pred.rate.2", "pred.rate.9", "zzz.future"};
  static const double aValue[] = {0.9, 123, -5};
  char zErr[512];
  cat *pCat = ca_open();
  planner_model m, d;

  /* Names this build does not know are a newer build's: ignored. The
  ** constants the catalog lacks keep their defaults. */
  CALL_OK(cat_calib_set(pCat, "gpu", 3, azName, aValue, zErr, sizeof(zErr)));
  CALL_OK(planner_model_load(pCat, "gpu", &m, zErr, sizeof(zErr)));
  ASSERT_EQ(m.bCalibrated, 1);
  ASSERT(m.pred.aRate[2] == 0.9);
  CALL_OK(planner_model_default("gpu", &d, zErr, sizeof(zErr)));
  d.pred.aRate[2] = 0.9;
  ca_assert_same_constants(&m, &d);
  cat_close(pCat);
  return 0;
}

TEST_IMPL(model_describe) {
  static const char *const azName[] = {"pred.scan_bw"};
  static const double aValue[] = {25e9};
  static const char zWant[] =
      "cost model: calibrated 2026-11-22T10:00:00Z on \"NVIDIA H100 80GB HBM3/sm_90\"";
  char zErr[512], z[256], zWantLoaded[256];
  cat *pCat;
  planner_model m;

  CALL_OK(planner_model_default("NVIDIA H100 80GB HBM3/sm_90", &m, zErr, sizeof(zErr)));
  ASSERT_EQ(planner_model_describe(&m, z, sizeof(z)), strlen(z));
  ASSERT_STR_EQ(z,
                "cost model: defaults (no calibration run for \"NVIDIA H100 80GB HBM3/sm_90\")");
  m.bCalibrated = 1;
  snprintf(m.zMeasuredAt, sizeof(m.zMeasuredAt), "2026-11-22T10:00:00Z");
  ASSERT_EQ(planner_model_describe(&m, z, sizeof(z)), strlen(zWant));
  ASSERT_STR_EQ(z, zWant);

  /* A short buffer gets what fits and the length the whole line needs. */
  ASSERT_EQ(planner_model_describe(&m, z, 11), strlen(zWant));
  ASSERT_STR_EQ(z, "cost model");
  ASSERT_EQ(planner_model_describe(&m, NULL, 0), strlen(zWant));

  /* As loaded from the catalog. */
  pCat = ca_open();
  CALL_OK(cat_calib_set(pCat, "cpu", 1, azName, aValue, zErr, sizeof(zErr)));
  CALL_OK(planner_model_load(pCat, "cpu", &m, zErr, sizeof(zErr)));
  snprintf(zWantLoaded, sizeof(zWantLoaded), "cost model: calibrated %s on \"cpu\"",
           m.zMeasuredAt);
  planner_model_describe(&m, z, sizeof(z));
  ASSERT_STR_EQ(z, zWantLoaded);
  ASSERT_EQ(strlen(m.zMeasuredAt), 20);
  cat_close(pCat);
  return 0;
}
