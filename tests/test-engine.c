/*
** tests/test-engine.c — the engine (engine/engine.h) as its callers see
** it: statements prepared once and kept per slot (engine/stmtcache.c) —
** a SELECT run again is the kept one with the same rows; another text,
** other plan options, other parameter values are other statements;
** failures are not kept; a load or DDL committed by another connection
** makes the next run plan afresh — parameters put into the parse tree,
** DESCRIBE, EXPLAIN sharing the SELECT's prepared statement, EXPLAIN
** ANALYZE planning once, and EXPLAIN showing the plan the session's
** options make (on the mock GPU, where residency changes the plan).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/parser.h"
#include "test-exec.h"
#include "test.h"

/* The SQL of SSB query zName (ssb-data/queries), malloc'd. */
static char *enginetest_ssb(const char *zName) {
  char zRel[64];
  snprintf(zRel, sizeof(zRel), "ssb-data/queries/%s.sql", zName);
  return test_file_read(test_src(zRel), NULL);
}

/* Runs the SELECT zSql with options pOpt and parameters aParam through
** e; returns its dump (malloc'd) and sets *pbCached to whether it was the
** statement prepared before, or fails the test. */
static char *enginetest_run(engine *e, const char *zSql, const exec_options *pOpt, int nParam,
                            const engine_param *aParam, int *pbCached) {
  engine_request q;
  exec_result r;
  sql_error err;
  char *z;
  memset(&q, 0, sizeof(q));
  q.eKind = ENGINE_SELECT;
  q.zSql = zSql;
  q.nParam = nParam;
  q.aParam = aParam;
  if (pOpt != NULL) q.opt = *pOpt;
  if (engine_execute(e, &q, &r, &err) != 0) FAIL("%s: %s %s", zSql, err.zState, err.zMsg);
  z = exectest_result_dump(&r);
  if (pbCached != NULL) *pbCached = r.front.bCached;
  exec_result_free(&r);
  return z;
}

/* 1 if the SELECT zSql (no parameters, options pOpt) is kept: a run of it
** says it was prepared before. */
static int enginetest_kept(engine *e, const char *zSql, const exec_options *pOpt) {
  int bCached;
  free(enginetest_run(e, zSql, pOpt, 0, NULL, &bCached));
  return bCached;
}

/* Runs zSql, a CREATE TABLE, on p as the server runs a client's DDL. */
static void enginetest_ddl(cat *p, const char *zSql) {
  arena a;
  sql_script s;
  sql_error e;
  cat_table *t;
  char zErr[512];
  arena_init(&a);
  if (sql_parse(zSql, &a, &s, &e) != 0 || bind_create_table(p, s.apStmt[0]->pCreate, &t, &e) != 0) {
    FAIL("%s: %s", zSql, e.zMsg);
  }
  if (cat_table_create(p, t, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  cat_table_free(t);
  arena_free(&a);
}

/* Replaces table zName's rows with the integers first .. first + n - 1,
** through starq-load (another connection, as a client's COPY would be). */
static void enginetest_load(const char *zName, int iFirst, int n) {
  const char *azArgv[] = {"starq-load", "--data-dir", "data", zName, "stmt.csv", "--quiet", NULL};
  test_proc p;
  FILE *f = fopen("stmt.csv", "w");
  ASSERT(f != NULL);
  for (int k = iFirst; k < iFirst + n; k++) fprintf(f, "%d\n", k);
  ASSERT_EQ(fclose(f), 0);
  if (test_run(&p, azArgv) != 0) FAIL("starq-load: %s", p.zErr);
  test_proc_free(&p);
}

TEST_IMPL(engine_stmt_cache) {
  const exec_options noResident = {.bNoResident = 1};
  exectest t;
  exec_result r;
  sql_error e;
  int bCached;
  char *zQ21, *zWant, *zGot, *zQ21b;
  exectest_open(&t, "0.01");

  /* The first run prepares and keeps it; the next are served from the
  ** cache, with the same rows. */
  zQ21 = enginetest_ssb("q2.1");
  zWant = enginetest_run(t.pEngine, zQ21, NULL, 0, NULL, &bCached);
  ASSERT(!bCached);
  for (int i = 0; i < 3; i++) {
    zGot = enginetest_run(t.pEngine, zQ21, NULL, 0, NULL, &bCached);
    ASSERT(bCached);
    ASSERT_STR_EQ(zGot, zWant);
    free(zGot);
  }

  /* Other plan options are another statement; so is other text. */
  zGot = enginetest_run(t.pEngine, zQ21, &noResident, 0, NULL, &bCached);
  ASSERT(!bCached);
  ASSERT_STR_EQ(zGot, zWant);
  free(zGot);
  ASSERT(enginetest_kept(t.pEngine, zQ21, &noResident));
  zQ21b = malloc(strlen(zQ21) + 2);
  snprintf(zQ21b, strlen(zQ21) + 2, "%s ", zQ21);
  ASSERT(!enginetest_kept(t.pEngine, zQ21b, NULL));

  /* A statement holding now() or its kin has its own instant each run:
  ** never kept (engine/now.c). */
  {
    char *zAll = enginetest_run(t.pEngine, "SELECT count(*) FROM date", NULL, 0, NULL, &bCached);
    for (int i = 0; i < 2; i++) {
      zGot = enginetest_run(t.pEngine, "SELECT count(*) FROM date WHERE d_datekey < current_date",
                            NULL, 0, NULL, &bCached);
      ASSERT(!bCached);
      ASSERT_STR_EQ(zGot, zAll);
      free(zGot);
    }
    free(zAll);
  }

  /* Failures are not kept: they fail again, the same way. */
  for (int i = 0; i < 2; i++) {
    ASSERT_EQ(exectest_request(t.pEngine, ENGINE_SELECT, 0, NULL, "SELECT nosuch FROM lineorder",
                               &r, &e), -1);
    ASSERT_STR_EQ(e.zState, "42703");
    ASSERT_EQ(e.iOffset, 7);
    exec_result_free(&r);
  }

  /* DDL by another connection: everything kept is dropped. */
  enginetest_ddl(t.pCat, "CREATE TABLE stmt_t (a integer NOT NULL)");
  zGot = enginetest_run(t.pEngine, zQ21, NULL, 0, NULL, &bCached);
  ASSERT(!bCached);
  ASSERT_STR_EQ(zGot, zWant);
  free(zGot);

  /* A load by another connection: the next run sees the new rows. */
  enginetest_load("stmt_t", 1, 10);
  zGot = enginetest_run(t.pEngine, "SELECT count(*), sum(a) FROM stmt_t", NULL, 0, NULL, NULL);
  ASSERT(strstr(zGot, "10|55") != NULL);
  free(zGot);
  ASSERT(enginetest_kept(t.pEngine, "SELECT count(*), sum(a) FROM stmt_t", NULL));
  enginetest_load("stmt_t", 100, 3);
  zGot = enginetest_run(t.pEngine, "SELECT count(*), sum(a) FROM stmt_t", NULL, 0, NULL, &bCached);
  ASSERT(!bCached);
  if (strstr(zGot, "3|303") == NULL) FAIL("after the second load:\n%s", zGot);
  free(zGot);

  free(zQ21);
  free(zQ21b);
  free(zWant);
  exectest_close(&t);
  return 0;
}

/* More statements than a slot keeps: the least recently used go, the one
** used all along stays, and every run still gives its own rows. */
TEST_IMPL(engine_stmt_evict) {
  exectest t;
  char zSql[128], zWant[64];
  exectest_open(&t, "0.01");
  for (int i = 0; i < 100; i++) {
    char *zGot;
    snprintf(zSql, sizeof(zSql), "SELECT count(*) FROM supplier WHERE s_suppkey <= %d", i + 1);
    snprintf(zWant, sizeof(zWant), "rows\n%d\n", i + 1 < 20 ? i + 1 : 20);
    zGot = enginetest_run(t.pEngine, zSql, NULL, 0, NULL, NULL);
    if (strstr(zGot, zWant) == NULL) FAIL("%s:\n%s", zSql, zGot);
    free(zGot);
    free(enginetest_run(t.pEngine, "SELECT count(*) FROM part", NULL, 0, NULL, NULL));
  }
  ASSERT(enginetest_kept(t.pEngine, "SELECT count(*) FROM part", NULL));
  ASSERT(enginetest_kept(t.pEngine, zSql, NULL));
  ASSERT(!enginetest_kept(t.pEngine, "SELECT count(*) FROM supplier WHERE s_suppkey <= 1", NULL));
  exectest_close(&t);
  return 0;
}

/* $n parameters: put into the tree as the value the client typed — a
** number typed as one is that number, other text an untyped literal
** typed by its context, NULL a NULL — and part of a kept statement's key;
** a marker with no value is 42P02 at the marker. */
TEST_IMPL(engine_params) {
  static const char zSql[] =
      "SELECT count(*), sum(lo_quantity) FROM lineorder WHERE lo_quantity < $1 AND lo_discount >= $2";
  const engine_param aInt[] = {{"25", 23}, {"3", 23}}, aText[] = {{"25", 0}, {"3", 25}};
  const engine_param aOther[] = {{"10", 23}, {"-1", 20}}, aNull[] = {{"25", 23}, {NULL, 23}};
  const engine_param aQuote[] = {{"ASIA", 25}};
  exectest t;
  exec_result r;
  sql_error e;
  int bCached;
  char *zA, *zB, *zWant;
  exectest_open(&t, "0.01");

  zWant = enginetest_run(t.pEngine, "SELECT count(*), sum(lo_quantity) FROM lineorder"
                         " WHERE lo_quantity < 25 AND lo_discount >= 3", NULL, 0, NULL, NULL);
  zA = enginetest_run(t.pEngine, zSql, NULL, 2, aInt, &bCached);
  ASSERT(!bCached);
  ASSERT_STR_EQ(zA, zWant);
  free(zA);
  zA = enginetest_run(t.pEngine, zSql, NULL, 2, aInt, &bCached);
  ASSERT(bCached);
  ASSERT_STR_EQ(zA, zWant);
  free(zA);
  /* Text and unknown types: literals typed by their context, the same
  ** answer — and another key. */
  zA = enginetest_run(t.pEngine, zSql, NULL, 2, aText, &bCached);
  ASSERT(!bCached);
  ASSERT_STR_EQ(zA, zWant);
  free(zA);
  /* Other values: another statement, other rows (-1 keeps its sign). */
  zA = enginetest_run(t.pEngine, zSql, NULL, 2, aOther, &bCached);
  zB = enginetest_run(t.pEngine, "SELECT count(*), sum(lo_quantity) FROM lineorder"
                      " WHERE lo_quantity < 10 AND lo_discount >= -1", NULL, 0, NULL, NULL);
  ASSERT(!bCached);
  ASSERT_STR_EQ(zA, zB);
  ASSERT(strcmp(zA, zWant) != 0);
  free(zA);
  free(zB);
  /* NULL: no row passes, a count of 0. */
  zA = enginetest_run(t.pEngine, zSql, NULL, 2, aNull, NULL);
  ASSERT(strstr(zA, "\n0|\\N\n") != NULL);
  free(zA);
  /* A string with a quote in it is a value, not SQL. */
  zA = enginetest_run(t.pEngine, "SELECT count(*) FROM supplier WHERE s_region = $1", NULL, 1,
                      aQuote, NULL);
  zB = enginetest_run(t.pEngine, "SELECT count(*) FROM supplier WHERE s_region = 'ASIA'", NULL, 0,
                      NULL, NULL);
  ASSERT_STR_EQ(zA, zB);
  free(zA);
  free(zB);
  /* $2 with one value: 42P02 at the marker. */
  ASSERT_EQ(exectest_request(t.pEngine, ENGINE_SELECT, 0, NULL, zSql, &r, &e), -1);
  ASSERT_STR_EQ(e.zState, "42P02");
  ASSERT_EQ(e.iOffset, (int)(strstr(zSql, "$1") - zSql));
  exec_result_free(&r);
  free(zWant);
  exectest_close(&t);
  return 0;
}

/* DESCRIBE: the columns a SELECT returns, with no rows and no run;
** parameters without a value are NULL, typed by their context. EXPLAIN
** of a SELECT shares its prepared statement, and EXPLAIN ANALYZE runs it
** once, planning once: its figures are the run's, its text says the
** statement was prepared before, and positions are in the whole text. */
TEST_IMPL(engine_describe_explain) {
  static const char zSel[] = "SELECT d_year, sum(lo_revenue) AS rev FROM lineorder, date"
                             " WHERE lo_orderdate = d_datekey AND d_year > $1 GROUP BY d_year";
  const engine_param aYear[] = {{"1995", 23}};
  engine_request q;
  exectest t;
  exec_result r;
  sql_error e;
  char *zExplain;
  exectest_open(&t, "0.01");

  memset(&q, 0, sizeof(q));
  q.eKind = ENGINE_DESCRIBE;
  q.zSql = zSel;
  ASSERT_EQ(engine_execute(t.pEngine, &q, &r, &e), 0);
  ASSERT_EQ(r.nCol, 2);
  ASSERT_EQ(r.nRow, 0);
  ASSERT_STR_EQ(r.aCol[0].zName, "d_year");
  ASSERT_STR_EQ(r.aCol[1].zName, "rev");
  ASSERT_EQ(r.aCol[1].type.eId, COLTYPE_BIGINT);
  ASSERT_EQ(r.nKernel, 0);
  exec_result_free(&r);

  /* The SELECT prepared, then EXPLAIN of the same text with the same
  ** values: the same statement. */
  q.eKind = ENGINE_SELECT;
  q.nParam = 1;
  q.aParam = aYear;
  ASSERT_EQ(engine_execute(t.pEngine, &q, &r, &e), 0);
  ASSERT_EQ(r.nRow, 3);
  exec_result_free(&r);
  {
    static const char zExp[] = "EXPLAIN (ANALYZE) SELECT d_year, sum(lo_revenue) AS rev FROM"
                               " lineorder, date WHERE lo_orderdate = d_datekey AND d_year > $1"
                               " GROUP BY d_year";
    q.eKind = ENGINE_EXPLAIN;
    q.mExplain = ENGINE_EXPLAIN_ANALYZE;
    q.zSql = zExp;
    q.iSelect = (int)(strstr(zExp, "SELECT") - zExp);
    ASSERT_EQ(engine_execute(t.pEngine, &q, &r, &e), 0);
    ASSERT_STR_EQ(r.aCol[0].zName, "QUERY PLAN");
    ASSERT(r.front.bCached);
    ASSERT(r.nKernel > 0);              /* the run's figures */
    ASSERT(r.rKernelSeconds > 0);
    {
      strbuf s;
      strbuf_init(&s);
      for (int64_t i = 0; i < r.nRow; i++) {
        strbuf_puts(&s, "\n");
        exec_result_text(&r, i, 0, &s);
      }
      zExplain = strbuf_take(&s);
    }
    if (strstr(zExplain, "\nPlanning: ") == NULL || strstr(zExplain, "prepared before") == NULL ||
        strstr(zExplain, "\nExecution: 3 rows in ") == NULL ||
        strstr(zExplain, "\nKernel q_scan") == NULL) {
      FAIL("EXPLAIN ANALYZE:%s", zExplain);
    }
    free(zExplain);
    exec_result_free(&r);
    /* An error inside is positioned in the whole text. */
    q.nParam = 0;
    ASSERT_EQ(engine_execute(t.pEngine, &q, &r, &e), -1);
    ASSERT_STR_EQ(e.zState, "42P02");
    ASSERT_EQ(e.iOffset, (int)(strstr(zExp, "$1") - zExp));
    exec_result_free(&r);
  }
  exectest_close(&t);
  return 0;
}

/* EXPLAIN plans with the options the statement runs with: on the mock
** GPU, with a device budget, the default plan reads the fact columns
** from device memory, and after SET starq.resident = off (bNoResident)
** EXPLAIN shows the plan the SELECT then runs — from host memory, the
** SCAN without a resident launch bound — which is what that SELECT
** reports having read. */
TEST_IMPL(engine_explain_options) {
  static const char zSql[] = "SELECT sum(lo_revenue), d_year FROM lineorder, date"
                             " WHERE lo_orderdate = d_datekey AND d_year = 1994 GROUP BY d_year";
  const exec_options resident = {.eGeneric = EXEC_GENERIC_OFF};
  const exec_options streamed = {.eGeneric = EXEC_GENERIC_OFF, .bNoResident = 1};
  exectest t;
  exec_result r;
  sql_error e;
  char *zRes, *zStr;
  int nHost;
  exectest_open_mock(&t, "0.01");
  zRes = exectest_explain_text(t.pEngine, &resident, zSql, 1);
  zStr = exectest_explain_text(t.pEngine, &streamed, zSql, 1);
  if (strstr(zRes, " from device memory") == NULL || strstr(zRes, "__launch_bounds__") == NULL) {
    FAIL("resident:\n%s", zRes);
  }
  if (strstr(zStr, " from host memory") == NULL || strstr(zStr, "__launch_bounds__") != NULL) {
    FAIL("streamed:\n%s", zStr);
  }
  /* The streamed run reads the fact table's two columns from host memory
  ** (the dimension's may be resident either way); the resident one from
  ** device memory. */
  ASSERT_EQ(exectest_request(t.pEngine, ENGINE_SELECT, 0, &streamed, zSql, &r, &e), 0);
  ASSERT_EQ(r.nColPinned + r.nColStreamed, 2);
  nHost = r.nColPinned + r.nColStreamed;
  exec_result_free(&r);
  ASSERT_EQ(exectest_request(t.pEngine, ENGINE_SELECT, 0, &resident, zSql, &r, &e), 0);
  ASSERT_LT(r.nColPinned + r.nColStreamed, nHost);
  exec_result_free(&r);
  free(zRes);
  free(zStr);
  exectest_close(&t);
  return 0;
}
