/*
** tests/test-explain.c — EXPLAIN and EXPLAIN VERBOSE of the SSB queries
** (runtime/explain.h; VERBOSE's fact columns with their encodings and
** stored bytes, checked against the files' headers), and the promise that literals are parameters:
** queries that differ only in constants generate the same source, so they
** share one compiled module.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../codegen/codegen.h"
#include "../storage/store.h"
#include "test-exec.h"
#include "test-plan.h"
#include "test.h"

/* Checks the EXPLAIN VERBOSE line of lineorder column zCol, if zText
** lists it: "  zCol zWhat, N bytes", N the payload bytes of its file's
** header. Returns 1 if zText lists it, 0 if not. */
static int explaintest_column_bytes(cat *pCat, const char *zText, const char *zCol,
                                     const char *zWhat) {
  char zWant[128], zPath[4096], zErr[512];
  const char *z;
  cat_table *t;
  store_enc e;
  uint64_t nPayload;
  unsigned long long nShown;
  int nFound = 0;
  snprintf(zWant, sizeof(zWant), "\n  %s %s, ", zCol, zWhat);
  if ((z = strstr(zText, zWant)) == NULL) {
    snprintf(zWant, sizeof(zWant), "\n  %s ", zCol);
    ASSERT(strstr(zText, zWant) == NULL);        /* listed, but not as wanted */
    return 0;
  }
  ASSERT_EQ(sscanf(z + strlen(zWant), "%llu bytes", &nShown), 1);
  if (cat_table_get(pCat, "lineorder", &t, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  for (int i = 0; i < t->nCol; i++) {
    if (strcmp(t->aCol[i].zName, zCol) != 0) continue;
    cat_file_path(pCat, t, t->iGen, i, STORE_VALUES, zPath, sizeof(zPath));
    CALL_OK(store_file_info(zPath, &e, &nPayload, zErr, sizeof(zErr)));
    ASSERT_EQ(nShown, nPayload);
    nFound++;
  }
  ASSERT_EQ(nFound, 1);                          /* a column of lineorder's */
  cat_table_free(t);
  return 1;
}

TEST_IMPL(explain_ssb_verbose) {
  static const char *const azQ[] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                    "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};
  cat *pCat = plantest_open();
  exec_backend be;
  engine_config c;
  engine *pEngine;
  char zErr[512];
  int nDate = 0, nRevenue = 0;
  /* A zeroed backend is enough to explain with (exec.h). */
  memset(&be, 0, sizeof(be));
  be.zName = "cpu";
  engine_config_init(&c);
  c.zDataDir = "data";
  c.pBackend = &be;
  if (engine_open(&pEngine, &c, zErr, sizeof(zErr)) != 0) FAIL("engine: %s", zErr);
  for (size_t q = 0; q < sizeof(azQ) / sizeof(azQ[0]); q++) {
    char *zSql = plantest_ssb(azQ[q]);
    char *zPlain = exectest_explain_text(pEngine, NULL, zSql, 0);
    char *zVerbose = exectest_explain_text(pEngine, NULL, zSql, 1);
    ASSERT(strstr(zPlain, "-> Scan lineorder (fact table)") != NULL);
    ASSERT(strstr(zPlain, "Backend: cpu") != NULL);
    ASSERT(strstr(zPlain, "__global__") == NULL);
    ASSERT(strstr(zVerbose, "q_scan(const struct q_args a)") != NULL);
    ASSERT(strstr(zVerbose, "__launch_bounds__") == NULL);   /* not resident: no bound */
    ASSERT(strstr(zVerbose, "__global__ void q_build_date") != NULL);
    ASSERT(strstr(zVerbose, "/* probe ") != NULL);
    ASSERT(strstr(zVerbose, "sq_tile_rows") != NULL);
    ASSERT(strstr(zVerbose, "device.cuh") != NULL);           /* the library is not repeated */
    ASSERT(strstr(zVerbose, "__device__") == NULL);
    /* VERBOSE lists the fact columns read with their encodings. */
    ASSERT(strstr(zPlain, "Fact columns read") == NULL);
    ASSERT(strstr(zVerbose, "\nFact columns read (lineorder, ") != NULL);
    nDate += explaintest_column_bytes(pCat, zVerbose, "lo_orderdate", "DATE: FOR-date");
    nRevenue += explaintest_column_bytes(pCat, zVerbose, "lo_revenue", "INTEGER: FOR");
    free(zPlain);
    free(zVerbose);
    free(zSql);
  }
  /* Every query probes date by lo_orderdate; Q2 to Q4 sum lo_revenue. A
  ** list that lost them would otherwise pass unchecked. */
  ASSERT_EQ(nDate, 13);
  ASSERT_EQ(nRevenue, 10);
  engine_close(pEngine);
  cat_close(pCat);
  return 0;
}

/* The source of a query, generated without running it. */
static char *explaintest_source(cat *pCat, const char *zSql) {
  plantest t;
  cg_program g;
  char *z;
  plantest_plan(pCat, zSql, &t);
  ASSERT_EQ(t.rc, 0);
  if (codegen_build(&t.p, &t.a, &g, &t.e) != 0) FAIL("codegen: %s", t.e.zMsg);
  z = strdup(strbuf_str(&g.src));
  codegen_free(&g);
  plantest_done(&t);
  return z;
}

/* Occurrences of zNeedle in z. */
static int explaintest_count(const char *z, const char *zNeedle) {
  int n = 0;
  for (const char *p = strstr(z, zNeedle); p != NULL; p = strstr(p + 1, zNeedle)) n++;
  return n;
}

/* A resident plan's SCAN promises ptxas the planner's grid (two blocks of
** 1024 threads an SM: 32 registers a thread); a plan over host memory
** does not (codegen/scan.c says why). Every tile loop, SCAN and BUILDs,
** first rejoins its warps (sq_tile_converge, codegen/device.cuh). A
** resident SCAN probes small semi-join bits from shared memory, copied
** there before its first tile; one over host memory probes them where the
** BUILD left them. */
TEST_IMPL(codegen_resident_launch_bounds) {
  cat *pCat = plantest_open();
  char *zSql = plantest_ssb("q4.1");
  for (int bResident = 0; bResident <= 1; bResident++) {
    planner_model m;
    char zErr[256];
    plantest u;
    cg_program g;
    sql_script sc;
    CALL_OK(planner_model_default("test-gpu", &m, zErr, sizeof(zErr)));
    m.bResident = bResident;
    memset(&u, 0, sizeof(u));
    arena_init(&u.a);
    strbuf_init(&u.explain);
    ASSERT_EQ(sql_parse(zSql, &u.a, &sc, &u.e), 0);
    ASSERT_EQ(bind_select(pCat, sc.apStmt[0]->pSelect, &u.a, &u.b, &u.e), 0);
    ASSERT_EQ(plan_build(pCat, &u.b, &m, &u.a, &u.p, &u.e), 0);
    if (codegen_build(&u.p, &u.a, &g, &u.e) != 0) FAIL("codegen: %s", u.e.zMsg);
    int nLoop = explaintest_count(strbuf_str(&g.src), "base += (long long)gridDim.x");
    ASSERT(nLoop >= 5);                                   /* four BUILDs and the SCAN */
    ASSERT_EQ(explaintest_count(strbuf_str(&g.src), "SQ_ITEMS) {\n    sq_tile_converge();\n"),
              nLoop);
    if (bResident) {
      ASSERT(strstr(strbuf_str(&g.src), "__launch_bounds__(1024, 2) q_scan(") != NULL);
      ASSERT(strstr(strbuf_str(&g.src), "sq_bits_stage(s_lut_supplier_bits,") != NULL);
      ASSERT(strstr(strbuf_str(&g.src), "sq_probe_bits_i32(s_lut_supplier_bits,") != NULL);
    } else {
      ASSERT(strstr(strbuf_str(&g.src), "__launch_bounds__") == NULL);
      ASSERT(strstr(strbuf_str(&g.src), "sq_bits_stage(s_") == NULL);
      ASSERT(strstr(strbuf_str(&g.src), "sq_probe_bits_i32((const unsigned *)a.lut_supplier_bits,") != NULL);
    }
    codegen_free(&g);
    plantest_done(&u);
  }
  free(zSql);
  cat_close(pCat);
  return 0;
}

TEST_IMPL(codegen_literals_are_parameters) {
  static const char *const azPair[][2] = {
    {"SELECT sum(lo_extendedprice * lo_discount) FROM lineorder, date WHERE lo_orderdate ="
     " d_datekey AND d_year = 1993 AND lo_discount BETWEEN 1 AND 3 AND lo_quantity < 25",
     "SELECT sum(lo_extendedprice * lo_discount) FROM lineorder, date WHERE lo_orderdate ="
     " d_datekey AND d_year = 1995 AND lo_discount BETWEEN 4 AND 6 AND lo_quantity < 26"},
    {"SELECT d_year, sum(lo_revenue) FROM lineorder, date, supplier WHERE lo_orderdate ="
     " d_datekey AND lo_suppkey = s_suppkey AND s_region = 'ASIA' GROUP BY d_year",
     "SELECT d_year, sum(lo_revenue) FROM lineorder, date, supplier WHERE lo_orderdate ="
     " d_datekey AND lo_suppkey = s_suppkey AND s_region = 'EUROPE' GROUP BY d_year"},
    /* an IN list of constants is one argument whatever its length */
    {"SELECT count(*) FROM lineorder WHERE lo_quantity IN (1, 2) AND lo_orderdate NOT IN"
     " (DATE '1993-01-01')",
     "SELECT count(*) FROM lineorder WHERE lo_quantity IN (9, 8, 7, 6, 5, 4, 3, 2, 1, 1993) AND"
     " lo_orderdate NOT IN (DATE '1994-01-01', '1995-01-01', '1996-02-29')"},
  };
  cat *pCat = plantest_open();
  for (size_t i = 0; i < sizeof(azPair) / sizeof(azPair[0]); i++) {
    char *zA = explaintest_source(pCat, azPair[i][0]);
    char *zB = explaintest_source(pCat, azPair[i][1]);
    if (strcmp(zA, zB) != 0) FAIL("pair %d: the sources differ", (int)i);
    ASSERT(strstr(zA, "1993") == NULL && strstr(zA, "ASIA") == NULL);
    free(zA);
    free(zB);
  }
  cat_close(pCat);
  return 0;
}

