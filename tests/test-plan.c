/*
** tests/test-plan.c — the planner (planner/plan.h) on real statistics:
** SSB SF 0.01 generated into the store, plus small tables for the shapes
** that are not stars. Each test checks decisions in the plan's fields,
** not only its EXPLAIN text.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../loader/load.h"
#include "test-plan.h"
#include "test.h"

/* ---- helpers ------------------------------------------------------------------ */

void plantest_sql_table(cat *pCat, const char *zSql) {
  arena a;
  sql_script s;
  sql_error e;
  cat_table *t = NULL;
  char zErr[512];
  arena_init(&a);
  if (sql_parse(zSql, &a, &s, &e) != 0) FAIL("parse %s: %s", zSql, e.zMsg);
  if (bind_create_table(pCat, s.apStmt[0]->pCreate, &t, &e) != 0) FAIL("bind %s: %s", zSql, e.zMsg);
  if (cat_table_create(pCat, t, zErr, sizeof(zErr)) != 0) FAIL("create: %s", zErr);
  cat_table_free(t);
  arena_free(&a);
}

void plantest_load(cat *pCat, const char *zTable, const char *zCsv) {
  load_options o;
  load_report r;
  char zErr[512], zPath[64];
  FILE *f;
  snprintf(zPath, sizeof(zPath), "%s.csv", zTable);
  f = fopen(zPath, "w");
  ASSERT(f != NULL);
  fputs(zCsv, f);
  fclose(f);
  load_options_default(&o, LOAD_CSV);
  o.bQuiet = 1;
  o.nThread = 1;
  if (load_file(pCat, zTable, zPath, &o, &r, zErr, sizeof(zErr)) != 0) FAIL("load %s: %s", zTable, zErr);
}

static cat *plantest_open_with(const char *zCompress);

cat *plantest_open(void) { return plantest_open_with("auto"); }
cat *plantest_open_plain(void) { return plantest_open_with("off"); }

static cat *plantest_open_with(const char *zCompress) {
  const char *azArgv[] = {"starq-gen", "--sf", "0.01", "--format", "store", "--out", "data",
                          "--quiet", "--compress", zCompress, NULL};
  test_proc proc;
  char zErr[512];
  cat *pCat;
  strbuf s;
  if (test_run(&proc, azArgv) != 0) FAIL("starq-gen: %s", proc.zErr);
  test_proc_free(&proc);
  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("cat_open: %s", zErr);

  plantest_sql_table(pCat, "CREATE TABLE t_big (k INTEGER, x INTEGER)");
  plantest_sql_table(pCat, "CREATE TABLE t_small (k INTEGER, name VARCHAR(10))");
  plantest_sql_table(pCat, "CREATE TABLE t_sparse (id BIGINT PRIMARY KEY, w INTEGER)");
  plantest_sql_table(pCat, "CREATE TABLE t_fact (id INTEGER, sk BIGINT REFERENCES t_sparse,"
                           " v INTEGER)");
  strbuf_init(&s);
  for (int i = 0; i < 60; i++) strbuf_printf(&s, "%d,%d\n", i % 7, i);
  plantest_load(pCat, "t_big", strbuf_str(&s));
  plantest_load(pCat, "t_small", "1,one\n2,two\n2,deux\n");
  plantest_load(pCat, "t_sparse", "1000,1\n2000,2\n3000,3\n4000,4\n5000,5\n");
  strbuf_reset(&s);
  for (int i = 0; i < 40; i++) strbuf_printf(&s, "%d,%d,%d\n", i, 1000 * (1 + i % 5), i);
  plantest_load(pCat, "t_fact", strbuf_str(&s));
  strbuf_free(&s);
  return pCat;
}

void plantest_plan(cat *pCat, const char *zSql, plantest *t) {
  plantest_plan_model(pCat, zSql, NULL, t);
}

void plantest_plan_model(cat *pCat, const char *zSql, const planner_model *pModel, plantest *t) {
  sql_script s;
  memset(t, 0, sizeof(*t));
  arena_init(&t->a);
  strbuf_init(&t->explain);
  if (sql_parse(zSql, &t->a, &s, &t->e) != 0) FAIL("parse %s: %s", zSql, t->e.zMsg);
  if (bind_select(pCat, s.apStmt[0]->pSelect, &t->a, &t->b, &t->e) != 0) {
    FAIL("bind %s: %s %s", zSql, t->e.zState, t->e.zMsg);
  }
  t->rc = plan_build(pCat, &t->b, pModel, &t->a, &t->p, &t->e);
  if (t->rc == 0) plan_explain(&t->p, &t->explain);
  ASSERT(!strbuf_error(&t->explain));
}

void plantest_done(plantest *t) {
  plan_free(&t->p);
  bind_select_free(&t->b);
  strbuf_free(&t->explain);
  arena_free(&t->a);
}

int plantest_dim(const plan *p, const char *zTable) {
  for (int d = 0; d < p->nDim; d++) {
    if (strcasecmp(p->aSource[p->aDim[d].iSource].pTable->zName, zTable) == 0) return d;
  }
  FAIL("no dimension %s", zTable);
  return -1;
}

char *plantest_ssb(const char *zName) {
  char zRel[64];
  snprintf(zRel, sizeof(zRel), "ssb-data/queries/%s.sql", zName);
  return test_file_read(test_src(zRel), NULL);
}

/* Counts rows of string column zCol of zTable whose value is in [zLo, zHi]
** by reading the column and dictionary files directly: an oracle for the
** planner's exact selectivities that shares no code with codeset.c. */
static int64_t plantest_count_between(cat *pCat, const char *zTable, const char *zCol,
                                      const char *zLo, const char *zHi) {
  cat_table *t;
  store_map m;
  store_dict d;
  char zErr[512], zPath[4096];
  int64_t n = 0;
  int iCol;
  CALL_OK(cat_table_get(pCat, zTable, &t, zErr, sizeof(zErr)));
  iCol = cat_table_column(t, zCol);
  ASSERT_GE(iCol, 0);
  ASSERT(cat_file_path(pCat, t, t->iGen, iCol, STORE_DICT, zPath, sizeof(zPath)) != NULL);
  CALL_OK(store_dict_open(&d, zPath, zErr, sizeof(zErr)));
  ASSERT(cat_file_path(pCat, t, t->iGen, iCol, STORE_VALUES, zPath, sizeof(zPath)) != NULL);
  CALL_OK(store_map_open(&m, zPath, STORE_VALUES, 0, zErr, sizeof(zErr)));
  for (uint64_t r = 0; r < m.nRow; r++) {
    size_t k;
    const char *z = store_dict_str(&d, ((const uint32_t *)m.aData)[r], &k);
    char zVal[256];
    snprintf(zVal, sizeof(zVal), "%.*s", (int)k, z);
    n += strcmp(zVal, zLo) >= 0 && strcmp(zVal, zHi) <= 0;
  }
  store_map_close(&m);
  store_dict_close(&d);
  cat_table_free(t);
  return n;
}

/* ---- SSB ----------------------------------------------------------------------- */

/* Every SSB query is a star on lineorder with declared keys, a date offset
** map for the date dimension and direct arrays for the others; every
** dimension appears in EXPLAIN. */
TEST_IMPL(plan_ssb_all) {
  static const char *const azQ[] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                    "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};
  cat *pCat = plantest_open();
  for (size_t q = 0; q < sizeof(azQ) / sizeof(azQ[0]); q++) {
    char *zSql = plantest_ssb(azQ[q]);
    plantest t;
    plantest_plan(pCat, zSql, &t);
    if (t.rc != 0) FAIL("%s: %s %s", azQ[q], t.e.zState, t.e.zMsg);
    ASSERT_EQ(t.p.eKind, PLAN_STAR);
    ASSERT_STR_EQ(t.p.aSource[t.p.iFact].pTable->zName, "lineorder");
    ASSERT(strstr(strbuf_str(&t.explain), "Scan lineorder (fact table)") != NULL);
    ASSERT_EQ(t.p.nCond, t.p.nFactPred + t.p.nDim);
    ASSERT_EQ(t.p.order.nCond, t.p.nCond);
    ASSERT(t.p.bAggregate);
    for (int d = 0; d < t.p.nDim; d++) {
      const plan_dim *pDim = &t.p.aDim[d];
      const char *zName = t.p.aSource[pDim->iSource].pTable->zName;
      char zBuild[64];
      ASSERT(pDim->bDeclared && pDim->bUnique);
      ASSERT_EQ(pDim->lookup.eKind, strcmp(zName, "date") == 0 ? PLAN_LOOKUP_DATE
                                                                : PLAN_LOOKUP_ARRAY);
      snprintf(zBuild, sizeof(zBuild), "-> Build %s", zName);
      ASSERT(strstr(strbuf_str(&t.explain), zBuild) != NULL);
    }
    ASSERT((t.p.group.eKind == GROUPBY_SCALAR) == (q < 3));
    plantest_done(&t);
    free(zSql);
  }
  cat_close(pCat);
  return 0;
}

/* Q2.1's part filter is exact: the planner's selectivity equals the share
** of part rows with p_category 'MFGR#12', counted from the files. */
TEST_IMPL(plan_ssb_exact) {
  cat *pCat = plantest_open();
  char *zSql = plantest_ssb("q2.1");
  plantest t;
  int64_t n = plantest_count_between(pCat, "part", "p_category", "MFGR#12", "MFGR#12");
  plantest_plan(pCat, zSql, &t);
  ASSERT_EQ(t.rc, 0);
  const plan_dim *d = &t.p.aDim[plantest_dim(&t.p, "part")];
  ASSERT_EQ(d->nPred, 1);
  ASSERT_EQ(d->aPred[0].eEst, PLAN_EST_DICT);
  ASSERT(d->aPred[0].pCodes != NULL && d->aPred[0].pCodes->bRange);
  ASSERT_EQ(d->aPred[0].pCodes->nPass, 1);
  ASSERT(fabs(d->rSel * (double)t.p.aSource[d->iSource].nRow - (double)n) < 0.5);
  ASSERT(strstr(strbuf_str(&t.explain), "(exact: dictionary)") != NULL);
  /* Only part and date supply payload (p_brand1, d_year); supplier filters. */
  ASSERT(d->bPayload);
  ASSERT(!t.p.aDim[plantest_dim(&t.p, "supplier")].bPayload);
  plantest_done(&t);
  free(zSql);
  cat_close(pCat);
  return 0;
}

/* Probes are evaluated in rank order: with equal costs (plain columns,
** all 4 bytes a row), most selective first (Q4.3: part, supplier,
** customer, date). */
TEST_IMPL(plan_ssb_probe_order) {
  cat *pCat = plantest_open_plain();
  char *zSql = plantest_ssb("q4.3");
  plantest t;
  plantest_plan(pCat, zSql, &t);
  ASSERT_EQ(t.rc, 0);
  for (int i = 1; i < t.p.order.nCond; i++) {
    ASSERT(t.p.aCond[t.p.order.aOrder[i - 1]].rSel <= t.p.aCond[t.p.order.aOrder[i]].rSel);
  }
  ASSERT_EQ(t.p.aCondWhat[t.p.order.aOrder[0]], -1 - plantest_dim(&t.p, "part"));
  ASSERT_EQ(t.p.aCondWhat[t.p.order.aOrder[3]], -1 - plantest_dim(&t.p, "date"));
  plantest_done(&t);
  free(zSql);
  cat_close(pCat);
  return 0;
}

/* Returns the rows bench/query prints for argv: its stdout up to the
** timing line that follows them, owned by the caller. */
static char *plantest_query_rows(const char *const *argv) {
  test_proc proc;
  char *z, *zEnd;
  if (test_run(&proc, argv) != 0) FAIL("query: %s", proc.zErr);
  zEnd = strstr(proc.zOut, "\n(");
  ASSERT(zEnd != NULL);
  z = strndup(proc.zOut, (size_t)(zEnd - proc.zOut));
  test_proc_free(&proc);
  return z;
}

/* An order the caller spells out (planner_model.zPredOrder, bench/query
** --predorder) replaces the optimizer's, costed by the same model, and
** EXPLAIN says so; "rank" searches the rank order alone; an order that
** does not fit the query's conditions is refused with 22023. Through
** bench/query the forced plan is the one EXPLAIN shows and the one that
** runs, with the same rows. */
TEST_IMPL(plan_forced_order) {
  static const char *const azBad[] = {"1&&2", "1&&2&&3&&4", "1&&1&2", "0&1&2", "1&2&",
                                      "x", "1&&&2&3", "1 & 2 & 3", " "};
  const char *azQuery[] = {"query", "--data", "data", NULL, NULL, NULL, NULL, NULL};
  cat *pCat = plantest_open();
  char *zSql = plantest_ssb("q2.1"), *zWant, *zGot;
  planner_model m;
  char zErr[256];
  plantest t, u;
  test_proc proc;

  /* The optimizer's: q2.1's conditions are its three probes, aDim's order. */
  CALL_OK(planner_model_default("test-gpu", &m, zErr, sizeof(zErr)));
  plantest_plan_model(pCat, zSql, &m, &t);
  ASSERT_EQ(t.rc, 0);
  ASSERT_EQ(t.p.nCond, 3);
  ASSERT_EQ(t.p.nFactPred, 0);
  ASSERT(strstr(strbuf_str(&t.explain), "forced") == NULL);

  snprintf(m.zPredOrder, sizeof(m.zPredOrder), "3&&1&2");
  plantest_plan_model(pCat, zSql, &m, &u);
  ASSERT_EQ(u.rc, 0);
  ASSERT_EQ(u.p.order.aOrder[0], 2);
  ASSERT_EQ(u.p.order.aOrder[1], 0);
  ASSERT_EQ(u.p.order.aOrder[2], 1);
  ASSERT_EQ(u.p.order.aJoin[1], PREDORDER_JOIN_BRANCH);
  ASSERT_EQ(u.p.order.aJoin[2], PREDORDER_JOIN_NOBRANCH);
  ASSERT_EQ(u.p.order.nKernel, 1);
  ASSERT_EQ(u.p.order.nGroup, 2);
  ASSERT(u.p.order.rCost == predorder_plan_cost(&u.p.model.pred, u.p.aCond, u.p.nFactRow,
                                                &u.p.order));
  ASSERT(u.p.rScanCost >= t.p.rScanCost * (1 - 1e-12));    /* the model's is the least */
  ASSERT(strstr(strbuf_str(&u.explain), "(1 kernel, forced)") != NULL);
  plantest_done(&u);
  snprintf(m.zPredOrder, sizeof(m.zPredOrder), "3|1|2");
  plantest_plan_model(pCat, zSql, &m, &u);
  ASSERT_EQ(u.rc, 0);
  ASSERT_EQ(u.p.order.nKernel, 3);
  ASSERT(strstr(strbuf_str(&u.explain), "(3 kernels, forced)") != NULL);
  plantest_done(&u);

  /* "rank": the conditions in rank order, grouped by the dynamic program. */
  snprintf(m.zPredOrder, sizeof(m.zPredOrder), "rank");
  plantest_plan_model(pCat, zSql, &m, &u);
  ASSERT_EQ(u.rc, 0);
  for (int i = 1; i < u.p.nCond; i++) {
    ASSERT(predorder_rank(&m.pred, &u.p.aCond[u.p.order.aOrder[i - 1]]) <=
           predorder_rank(&m.pred, &u.p.aCond[u.p.order.aOrder[i]]));
  }
  ASSERT(strstr(strbuf_str(&u.explain), "rank order searched alone") != NULL);
  plantest_done(&u);
  plantest_done(&t);

  /* Orders that do not fit: 22023, whatever is wrong with them. */
  for (size_t i = 0; i < sizeof(azBad) / sizeof(azBad[0]); i++) {
    snprintf(m.zPredOrder, sizeof(m.zPredOrder), "%s", azBad[i]);
    plantest_plan_model(pCat, zSql, &m, &u);
    if (u.rc == 0) FAIL("\"%s\" was taken", azBad[i]);
    ASSERT_STR_EQ(u.e.zState, "22023");
    ASSERT(strstr(u.e.zMsg, "does not fit the query's 3 conditions (1 to 3: ") != NULL);
    plantest_done(&u);
  }
  /* A scan without conditions has nothing to order, but may be planned
  ** by rank. */
  snprintf(m.zPredOrder, sizeof(m.zPredOrder), "1");
  plantest_plan_model(pCat, "SELECT count(*) FROM lineorder", &m, &u);
  ASSERT_EQ(u.rc, -1);
  ASSERT_STR_EQ(u.e.zMsg, "predicate order \"1\": the query's scan has no conditions to order");
  plantest_done(&u);
  snprintf(m.zPredOrder, sizeof(m.zPredOrder), "rank");
  plantest_plan_model(pCat, "SELECT count(*) FROM lineorder", &m, &u);
  ASSERT_EQ(u.rc, 0);
  plantest_done(&u);
  cat_close(pCat);

  /* bench/query --predorder: EXPLAIN shows the forced plan, which runs and
  ** gives the optimizer's rows; one that does not fit fails the run. */
  azQuery[3] = zSql;
  zWant = plantest_query_rows(azQuery);
  ASSERT(strstr(zWant, "|1992|MFGR#12") != NULL);
  azQuery[3] = "--predorder";
  azQuery[4] = "3|1|2";
  azQuery[5] = "--explain";
  azQuery[6] = zSql;
  ASSERT_EQ(test_run(&proc, azQuery), 0);
  ASSERT(strstr(proc.zOut, "(3 kernels, forced)") != NULL);
  test_proc_free(&proc);
  azQuery[5] = zSql;
  azQuery[6] = NULL;
  zGot = plantest_query_rows(azQuery);
  ASSERT_STR_EQ(zGot, zWant);
  free(zGot);
  azQuery[4] = "1&&2";
  ASSERT_EQ(test_run(&proc, azQuery), 1);
  ASSERT(strstr(proc.zErr, "ERROR: 22023: predicate order \"1&&2\" does not fit") != NULL);
  test_proc_free(&proc);
  free(zWant);
  free(zSql);
  return 0;
}

/* Semi-join bits (plan.h, plan_lookup): a filtered dimension with an array
** lookup gets them, laid out after its slots, and its probe is priced at
** their size; SSB's keys are dense (one slot a row, NOT NULL); a filtered
** date map gets bits over its raw yyyymmdd keys, never dense; an
** unfiltered dimension gets none. */
static void plantest_bits_check(const plan *p, const char *zTable, int bBits) {
  const plan_dim *d = &p->aDim[plantest_dim(p, zTable)];
  const plan_lookup *l = &d->lookup;
  ASSERT_EQ(l->bBits, bBits);
  if (!bBits) {
    ASSERT_EQ(l->nAllocByte, l->nByte);
    ASSERT_EQ(p->aCond[d->iCond].nLookupByte, l->nByte);
    return;
  }
  ASSERT_EQ(l->nBitByte, (l->nBitSlot + 31) / 32 * 4);
  ASSERT(l->nBitOff >= l->nByte && l->nBitOff % 8 == 0);
  ASSERT_EQ(p->aCond[d->iCond].nLookupByte, l->nBitByte);
  if (l->eKind == PLAN_LOOKUP_DATE) {
    ASSERT_EQ(l->bDense, 0);
    ASSERT_EQ(l->iBitMin, 19920101);
    ASSERT_EQ(l->nBitSlot, 19981231 - 19920101 + 1);      /* SSB's last date */
    ASSERT_EQ(l->nAllocByte, l->nBitOff + l->nBitByte);
    return;
  }
  ASSERT_EQ(l->eKind, PLAN_LOOKUP_ARRAY);
  ASSERT_EQ(l->bDense, 1);
  ASSERT_EQ(l->iBitMin, l->iMin);
  ASSERT_EQ(l->nBitSlot, l->nSlot);
  ASSERT(l->nMovedOff >= l->nBitOff + l->nBitByte && l->nMovedOff % 8 == 0);
  ASSERT(l->nAllocByte >= l->nMovedOff + 4);
}

TEST_IMPL(plan_semijoin_bits) {
  cat *pCat = plantest_open_plain();
  char *zSql = plantest_ssb("q3.1");
  plantest t;
  plantest_plan(pCat, zSql, &t);
  ASSERT_EQ(t.rc, 0);
  plantest_bits_check(&t.p, "customer", 1);
  plantest_bits_check(&t.p, "supplier", 1);
  plantest_bits_check(&t.p, "date", 0);                 /* a date map with payload */
  ASSERT(strstr(strbuf_str(&t.explain), "probe: bitset of the rows that pass") != NULL);
  plantest_done(&t);
  free(zSql);
  plantest_plan(pCat, "SELECT c_nation, sum(lo_revenue) FROM lineorder, customer, part"
                      " WHERE lo_custkey = c_custkey AND lo_partkey = p_partkey AND p_size = 3"
                      " GROUP BY c_nation", &t);
  ASSERT_EQ(t.rc, 0);
  plantest_bits_check(&t.p, "customer", 0);             /* no filter */
  plantest_bits_check(&t.p, "part", 1);
  ASSERT(strstr(strbuf_str(&t.explain), "slots never read") != NULL);
  plantest_done(&t);
  zSql = plantest_ssb("q1.1");
  plantest_plan(pCat, zSql, &t);
  ASSERT_EQ(t.rc, 0);
  plantest_bits_check(&t.p, "date", 1);                 /* a date map, filter only */
  ASSERT(strstr(strbuf_str(&t.explain), "bits over the keys 19920101..19981231") != NULL);
  plantest_done(&t);
  free(zSql);
  cat_close(pCat);
  return 0;
}

/* ---- shapes that are not stars -------------------------------------------------- */

TEST_IMPL(plan_single_table) {
  cat *pCat = plantest_open();
  plantest t;

  plantest_plan(pCat, "SELECT sum(lo_revenue) FROM lineorder WHERE lo_quantity < 10", &t);
  ASSERT_EQ(t.rc, 0);
  ASSERT_EQ(t.p.eKind, PLAN_SCAN);
  ASSERT_EQ(t.p.nDim, 0);
  ASSERT_EQ(t.p.nFactPred, 1);
  ASSERT(fabs(t.p.aFactPred[0].rSel - 9.0 / 50) < 0.01);       /* quantity 1..50 */
  ASSERT(strstr(strbuf_str(&t.explain), "Scan lineorder (table)") != NULL);
  plantest_done(&t);

  /* A dimension on its own, grouped by a dictionary column. */
  plantest_plan(pCat, "SELECT c_nation, count(*) FROM customer WHERE c_region = 'ASIA'"
                      " GROUP BY c_nation", &t);
  ASSERT_EQ(t.rc, 0);
  ASSERT_EQ(t.p.eKind, PLAN_SCAN);
  ASSERT_EQ(t.p.aFactPred[0].eEst, PLAN_EST_DICT);
  ASSERT(fabs(t.p.aFactPred[0].rSel * t.p.nFactRow -
              (double)plantest_count_between(pCat, "customer", "c_region", "ASIA", "ASIA")) < 0.5);
  ASSERT_EQ(t.p.nKey, 1);
  ASSERT(t.p.aKey[0].bDict);
  ASSERT_EQ(t.p.group.eKind, GROUPBY_DENSE);
  /* Five nations pass the filter, out of 25 codes. */
  ASSERT(t.p.nGroup <= 25);
  plantest_done(&t);

  plantest_plan(pCat, "SELECT 1 + 1", &t);
  ASSERT_EQ(t.rc, 0);
  ASSERT_EQ(t.p.eKind, PLAN_VALUES);
  plantest_done(&t);

  plantest_plan(pCat, "SELECT lo_orderkey FROM lineorder WHERE false", &t);
  ASSERT_EQ(t.rc, 0);
  ASSERT(t.p.bFalse);
  ASSERT(t.p.nRowOut == 0);
  ASSERT(!t.p.bAggregate);
  plantest_done(&t);
  cat_close(pCat);
  return 0;
}

/* A GROUP BY over resident columns whose one aggregate is SUM of a NOT
** NULL integer column the statistics say is > 0 keeps no row count: the
** sum marks the groups and the state is 8 bytes (SSB Q2.x, Q3.x); anything
** else, and any streamed plan, keeps the count. */
TEST_IMPL(plan_count_in_sum) {
  static const char *const azKeep[] = {
    "SELECT lo_discount, sum(lo_discount) FROM lineorder GROUP BY lo_discount",   /* min 0 */
    "SELECT lo_shipmode, sum(lo_revenue), count(*) FROM lineorder GROUP BY lo_shipmode",
    "SELECT lo_shipmode, sum(lo_revenue - lo_supplycost) FROM lineorder GROUP BY lo_shipmode",
    "SELECT lo_shipmode, max(lo_revenue) FROM lineorder GROUP BY lo_shipmode",
    "SELECT sum(lo_revenue) FROM lineorder",                                   /* scalar */
  };
  cat *pCat = plantest_open();
  char *zSql = plantest_ssb("q3.1");
  planner_model m;
  char zErr[256];
  plantest t;

  /* Streamed (the default model): the count stays (grouping.c says why). */
  plantest_plan(pCat, zSql, &t);
  ASSERT_EQ(t.rc, 0);
  ASSERT(!t.p.bCountInSum);
  ASSERT_EQ(t.p.nStateByte, 16);
  plantest_done(&t);
  CALL_OK(planner_model_default("test-gpu", &m, zErr, sizeof(zErr)));
  m.bResident = 1;
  m.pred.rScanBw = m.pred.rDevBw;
  plantest_plan_model(pCat, zSql, &m, &t);
  ASSERT_EQ(t.rc, 0);
  ASSERT(t.p.bCountInSum);
  ASSERT_EQ(t.p.nStateByte, 8);
  ASSERT_EQ(t.p.aAgg[0].iValueOffset, 0);
  ASSERT(strstr(strbuf_str(&t.explain), "state 8 B per group; no row count") != NULL);
  plantest_done(&t);
  free(zSql);
  for (size_t i = 0; i < sizeof(azKeep) / sizeof(azKeep[0]); i++) {
    plantest_plan_model(pCat, azKeep[i], &m, &t);
    ASSERT_EQ(t.rc, 0);
    ASSERT(!t.p.bCountInSum);
    ASSERT(t.p.nStateByte >= 16);
    plantest_done(&t);
  }
  cat_close(pCat);
  return 0;
}

/* Joins without declared keys: hash join, built on the smaller side,
** whichever order FROM names them in; probes loop over matches since the
** build key is not unique. */
TEST_IMPL(plan_hash_join) {
  static const char *const azSql[] = {
    "SELECT name, sum(x) FROM t_big, t_small WHERE t_big.k = t_small.k GROUP BY name",
    "SELECT name, sum(x) FROM t_small JOIN t_big ON t_small.k = t_big.k GROUP BY name",
  };
  cat *pCat = plantest_open();
  for (int i = 0; i < 2; i++) {
    plantest t;
    plantest_plan(pCat, azSql[i], &t);
    ASSERT_EQ(t.rc, 0);
    ASSERT_EQ(t.p.eKind, PLAN_JOIN);
    ASSERT_STR_EQ(t.p.aSource[t.p.iFact].pTable->zName, "t_big");
    ASSERT_EQ(t.p.nDim, 1);
    ASSERT(!t.p.aDim[0].bDeclared && !t.p.aDim[0].bUnique);
    ASSERT_EQ(t.p.aDim[0].lookup.eKind, PLAN_LOOKUP_HASH);
    /* 4-byte keys, in the kernels' 16-byte slots (sq_hslot) all the same */
    ASSERT_EQ(t.p.aDim[0].lookup.nKeyByte, 4);
    ASSERT_EQ(t.p.aDim[0].lookup.nByte, t.p.aDim[0].lookup.nSlot * 16);
    ASSERT(t.p.aDim[0].bPayload);
    ASSERT(strstr(strbuf_str(&t.explain), "no key: hash join") != NULL);
    plantest_done(&t);
  }
  cat_close(pCat);
  return 0;
}

/* A declared key over a sparse range gets a hash table, not an array. */
TEST_IMPL(plan_sparse_key) {
  cat *pCat = plantest_open();
  plantest t;
  plantest_plan(pCat, "SELECT sum(v) FROM t_fact, t_sparse WHERE sk = t_sparse.id AND w > 2", &t);
  ASSERT_EQ(t.rc, 0);
  ASSERT_EQ(t.p.eKind, PLAN_STAR);
  ASSERT_STR_EQ(t.p.aSource[t.p.iFact].pTable->zName, "t_fact");
  ASSERT(t.p.aDim[0].bDeclared && t.p.aDim[0].bUnique);
  ASSERT_EQ(t.p.aDim[0].lookup.eKind, PLAN_LOOKUP_HASH);
  ASSERT_EQ(t.p.aDim[0].lookup.nKeyByte, 8);
  ASSERT(t.p.aDim[0].lookup.nSlot >= 10);                 /* at most half full */
  ASSERT(fabs(t.p.aDim[0].rSel - 0.6) < 0.01);            /* w 1..5, > 2 */
  plantest_done(&t);
  cat_close(pCat);
  return 0;
}

/* An equality the star does not need for its probes is checked after them. */
TEST_IMPL(plan_residual) {
  cat *pCat = plantest_open();
  plantest t;
  plantest_plan(pCat, "SELECT count(*) FROM lineorder, customer, supplier WHERE"
                      " lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND"
                      " c_custkey = s_suppkey", &t);
  ASSERT_EQ(t.rc, 0);
  ASSERT_EQ(t.p.eKind, PLAN_STAR);
  ASSERT_EQ(t.p.nDim, 2);
  ASSERT_EQ(t.p.nResidual, 1);
  ASSERT(t.p.aDim[0].bPayload && t.p.aDim[1].bPayload);
  ASSERT(strstr(strbuf_str(&t.explain), "after probes: c_custkey = s_suppkey") != NULL);
  plantest_done(&t);
  cat_close(pCat);
  return 0;
}

/* What starq cannot run is refused with 0A000 at the right place. */
TEST_IMPL(plan_refused) {
  static const struct {
    const char *zSql;
    const char *zWhere;        /* the text the error position points at */
    const char *zMsg;
  } aCase[] = {
    {"SELECT count(*) FROM lineorder, part", "part", "cross joins are not supported"},
    {"SELECT count(*) FROM customer, supplier WHERE c_city = s_city", "supplier",
     "cross joins"},
    {"SELECT count(*) FROM lineorder, customer, t_small, t_big WHERE lo_custkey = c_custkey"
     " AND c_custkey = t_small.k AND t_small.k = t_big.k", "= c_custkey", "only star joins"},
    {"SELECT count(*) FROM lineorder GROUP BY lo_quantity / 2.0", "/ 2.0",
     "grouping by this expression is not supported yet"},
    {"SELECT count(*) FROM lineorder GROUP BY lo_quantity / lo_discount", "/ lo_discount",
     "grouping by this expression"},
    {"SELECT count(DISTINCT lo_quantity) FROM lineorder", "count(DISTINCT",
     "DISTINCT inside an aggregate"},
    {"SELECT DISTINCT count(*) FROM lineorder", NULL, "SELECT DISTINCT together"},
  };
  cat *pCat = plantest_open();
  for (size_t i = 0; i < sizeof(aCase) / sizeof(aCase[0]); i++) {
    plantest t;
    plantest_plan(pCat, aCase[i].zSql, &t);
    if (t.rc == 0) FAIL("planned: %s", aCase[i].zSql);
    ASSERT_STR_EQ(t.e.zState, "0A000");
    if (strstr(t.e.zMsg, aCase[i].zMsg) == NULL) FAIL("%s: message %s", aCase[i].zSql, t.e.zMsg);
    if (aCase[i].zWhere != NULL) {
      const char *z = strstr(aCase[i].zSql, aCase[i].zWhere);
      ASSERT(z != NULL);
      ASSERT_EQ(t.e.iOffset, (int)(z - aCase[i].zSql));
    }
    plantest_done(&t);
  }
  cat_close(pCat);
  return 0;
}
