/*
** tests/test-worker-stmt.c — the device worker's statement cache
** (worker/stmtcache.c) through the worker's own statement runner
** (worker__sql_run), in process: a SELECT run again is the kept one and
** gives the same rows; another text, other plan options, a statement
** that failed and EXPLAIN are not served from it; a load or DDL committed
** by another connection makes the next run plan afresh and see the new
** data; and cat_cache_generation, which all of it rests on.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../worker/workerInt.h"
#include "test-exec.h"
#include "test.h"

/* The SQL of SSB query zName (ssb-data/queries), malloc'd. */
static char *stmttest_ssb(const char *zName) {
  char zRel[64];
  snprintf(zRel, sizeof(zRel), "ssb-data/queries/%s.sql", zName);
  return test_file_read(test_src(zRel), NULL);
}

/* Runs zSql through the worker's runner with cache c and options pOpt;
** returns its dump (malloc'd), or fails the test. */
static char *stmttest_run(cat *pCat, stmtcache *c, exec_backend *pB, const char *zSql,
                          const exec_options *pOpt) {
  exec_result r;
  sql_error e;
  char *z;
  if (worker__sql_run(pCat, c, pB, zSql, pOpt, &r, &e) != 0) {
    FAIL("%s: %s %s", zSql, e.zState, e.zMsg);
  }
  z = exectest_result_dump(&r);
  exec_result_free(&r);
  return z;
}

/* 1 if c keeps zSql with pOpt's options for pCat as it is now. */
static int stmttest_kept(cat *pCat, stmtcache *c, const char *zSql, const exec_options *pOpt) {
  char zErr[512];
  int bKept;
  if (cat_cache_hold(pCat, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  bKept = stmtcache_find(c, pCat, zSql, pOpt) != NULL;
  cat_cache_release(pCat);
  return bKept;
}

/* Runs zSql, a CREATE TABLE, on p as the server runs a client's DDL. */
static void stmttest_ddl(cat *p, const char *zSql) {
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
static void stmttest_load(const char *zName, int iFirst, int n) {
  const char *azArgv[] = {"starq-load", "--data-dir", "data", zName, "stmt.csv", "--quiet", NULL};
  test_proc p;
  FILE *f = fopen("stmt.csv", "w");
  ASSERT(f != NULL);
  for (int k = iFirst; k < iFirst + n; k++) fprintf(f, "%d\n", k);
  ASSERT_EQ(fclose(f), 0);
  if (test_run(&p, azArgv) != 0) FAIL("starq-load: %s", p.zErr);
  test_proc_free(&p);
}

TEST_IMPL(worker_stmt_cache) {
  const exec_options noResident = {.bNoResident = 1};
  exectest t;
  cat *pCat;
  stmtcache *c;
  exec_result r;
  sql_error e;
  char zErr[512];
  char *zQ21, *zWant, *zGot, *zQ21b;
  exectest_open(&t, "0.01");
  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(stmtcache_open(&c), 0);

  /* The first run prepares and keeps it; the second is served from the
  ** cache, with the same rows as the engine in process gives. */
  zQ21 = stmttest_ssb("q2.1");
  if (exectest_exec(&t, zQ21, &r, &e) != 0) FAIL("q2.1: %s", e.zMsg);
  zWant = exectest_result_dump(&r);
  exec_result_free(&r);
  ASSERT(!stmttest_kept(pCat, c, zQ21, NULL));
  zGot = stmttest_run(pCat, c, &t.be, zQ21, NULL);
  ASSERT_STR_EQ(zGot, zWant);
  free(zGot);
  ASSERT(stmttest_kept(pCat, c, zQ21, NULL));
  for (int i = 0; i < 3; i++) {
    zGot = stmttest_run(pCat, c, &t.be, zQ21, NULL);
    ASSERT_STR_EQ(zGot, zWant);
    free(zGot);
  }

  /* Other plan options are another statement; so is other text. */
  ASSERT(!stmttest_kept(pCat, c, zQ21, &noResident));
  zGot = stmttest_run(pCat, c, &t.be, zQ21, &noResident);
  ASSERT_STR_EQ(zGot, zWant);
  free(zGot);
  ASSERT(stmttest_kept(pCat, c, zQ21, &noResident));
  zQ21b = malloc(strlen(zQ21) + 2);
  snprintf(zQ21b, strlen(zQ21) + 2, "%s ", zQ21);
  ASSERT(!stmttest_kept(pCat, c, zQ21b, NULL));

  /* Failures and EXPLAIN are not kept. */
  ASSERT_EQ(worker__sql_run(pCat, c, &t.be, "SELECT nosuch FROM lineorder", NULL, &r, &e), -1);
  ASSERT_STR_EQ(e.zState, "42703");
  exec_result_free(&r);
  ASSERT(!stmttest_kept(pCat, c, "SELECT nosuch FROM lineorder", NULL));
  ASSERT_EQ(worker__sql_run(pCat, c, &t.be, "EXPLAIN SELECT count(*) FROM part", NULL, &r, &e), 0);
  exec_result_free(&r);
  ASSERT(!stmttest_kept(pCat, c, "EXPLAIN SELECT count(*) FROM part", NULL));

  /* DDL by another connection: everything kept is dropped. */
  stmttest_ddl(t.pCat, "CREATE TABLE stmt_t (a integer NOT NULL)");
  ASSERT(!stmttest_kept(pCat, c, zQ21, NULL));
  zGot = stmttest_run(pCat, c, &t.be, zQ21, NULL);
  ASSERT_STR_EQ(zGot, zWant);
  free(zGot);

  /* A load by another connection: the next run sees the new rows. */
  stmttest_load("stmt_t", 1, 10);
  zGot = stmttest_run(pCat, c, &t.be, "SELECT count(*), sum(a) FROM stmt_t", NULL);
  ASSERT(strstr(zGot, "10|55") != NULL);
  free(zGot);
  ASSERT(stmttest_kept(pCat, c, "SELECT count(*), sum(a) FROM stmt_t", NULL));
  stmttest_load("stmt_t", 100, 3);
  ASSERT(!stmttest_kept(pCat, c, "SELECT count(*), sum(a) FROM stmt_t", NULL));
  zGot = stmttest_run(pCat, c, &t.be, "SELECT count(*), sum(a) FROM stmt_t", NULL);
  if (strstr(zGot, "3|303") == NULL) FAIL("after the second load:\n%s", zGot);
  free(zGot);

  /* No cache: the runner prepares every time, with the same rows. */
  zGot = stmttest_run(pCat, NULL, &t.be, zQ21, NULL);
  ASSERT_STR_EQ(zGot, zWant);
  free(zGot);

  stmtcache_close(c);
  cat_close(pCat);
  free(zQ21);
  free(zQ21b);
  free(zWant);
  exectest_close(&t);
  return 0;
}

/* More statements than the cache keeps: the least recently used go, the
** one used all along stays, and every run still gives its own rows. */
TEST_IMPL(worker_stmt_evict) {
  exectest t;
  cat *pCat;
  stmtcache *c;
  char zErr[512], zSql[128], zWant[64];
  exectest_open(&t, "0.01");
  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(stmtcache_open(&c), 0);
  for (int i = 0; i < 100; i++) {
    char *zGot;
    snprintf(zSql, sizeof(zSql), "SELECT count(*) FROM supplier WHERE s_suppkey <= %d", i + 1);
    snprintf(zWant, sizeof(zWant), "rows\n%d\n", i + 1 < 20 ? i + 1 : 20);
    zGot = stmttest_run(pCat, c, &t.be, zSql, NULL);
    if (strstr(zGot, zWant) == NULL) FAIL("%s:\n%s", zSql, zGot);
    free(zGot);
    zGot = stmttest_run(pCat, c, &t.be, "SELECT count(*) FROM part", NULL);
    free(zGot);
  }
  ASSERT(stmttest_kept(pCat, c, "SELECT count(*) FROM part", NULL));
  ASSERT(stmttest_kept(pCat, c, zSql, NULL));
  ASSERT(!stmttest_kept(pCat, c, "SELECT count(*) FROM supplier WHERE s_suppkey <= 1", NULL));
  stmtcache_close(c);
  cat_close(pCat);
  exectest_close(&t);
  return 0;
}
