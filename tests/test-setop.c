/*
** tests/test-setop.c — set operations through the engine: a plan of
** several device pipelines and a host tail over their results
** (planner/dag.h), on the CPU backend and on the mock CUDA backend,
** each answer compared with PostgreSQL 15 (tests/pgref.h) on the same
** SSB rows (SF 0.01); the errors PostgreSQL raises for operands that do
** not fit, with their positions; EXPLAIN showing the tail and each
** pipeline under it; a plain star query still one pipeline, no tail.
*/
#include <string.h>

#include "pgref.h"
#include "test-exec.h"
#include "test.h"

/* Each with ORDER BY over every column where row order matters. */
static const char *const azSetop[] = {
    /* UNION ALL of two star queries: duplicates kept */
    "SELECT d_year, sum(lo_revenue) AS rev FROM lineorder, date WHERE lo_orderdate = d_datekey"
    " AND d_year = 1993 GROUP BY d_year"
    " UNION ALL SELECT d_year, sum(lo_revenue) FROM lineorder, date"
    " WHERE lo_orderdate = d_datekey AND d_year <= 1994 GROUP BY d_year ORDER BY 1, 2",
    /* UNION removes duplicates, across its operands and within them */
    "SELECT c_region FROM customer UNION SELECT s_region FROM supplier ORDER BY c_region",
    "SELECT c_nation, c_region FROM customer WHERE c_custkey < 40"
    " UNION SELECT s_nation, s_region FROM supplier WHERE s_suppkey < 5 ORDER BY 1 DESC, 2",
    /* INTERSECT and EXCEPT, with and without ALL */
    "SELECT c_city FROM customer INTERSECT SELECT s_city FROM supplier ORDER BY 1",
    "SELECT c_nation FROM customer WHERE c_custkey < 200"
    " INTERSECT ALL SELECT s_nation FROM supplier ORDER BY 1",
    "SELECT c_nation FROM customer EXCEPT SELECT s_nation FROM supplier WHERE s_suppkey < 8"
    " ORDER BY 1",
    "SELECT c_nation FROM customer WHERE c_custkey < 300"
    " EXCEPT ALL SELECT s_nation FROM supplier ORDER BY 1",
    /* three operands, INTERSECT binding tighter, parentheses */
    "SELECT p_mfgr FROM part UNION SELECT c_region FROM customer"
    " INTERSECT SELECT s_region FROM supplier ORDER BY 1",
    "(SELECT p_mfgr FROM part UNION SELECT c_region FROM customer)"
    " EXCEPT SELECT s_region FROM supplier WHERE s_suppkey < 3 ORDER BY 1",
    /* types resolved across operands: integer beside bigint, numeric
    ** beside integer, date beside date */
    "SELECT lo_quantity FROM lineorder WHERE lo_orderkey < 40"
    " UNION SELECT count(*) FROM customer ORDER BY 1",
    "SELECT lo_orderkey FROM lineorder WHERE lo_orderkey < 20"
    " UNION ALL SELECT lo_quantity FROM lineorder WHERE lo_orderkey < 10 ORDER BY 1",
    "SELECT CAST(lo_discount AS DECIMAL(6,2)) FROM lineorder WHERE lo_orderkey < 20"
    " UNION SELECT lo_tax FROM lineorder WHERE lo_orderkey < 10 ORDER BY 1",
    "SELECT d_datekey FROM date WHERE d_year = 1995 AND d_monthnuminyear = 3"
    " EXCEPT SELECT lo_orderdate FROM lineorder ORDER BY 1",
    /* ORDER BY a name, DESC, NULLS FIRST; LIMIT and OFFSET over the whole */
    "SELECT s_city AS city, s_nation FROM supplier UNION SELECT c_city, c_nation FROM customer"
    " ORDER BY city DESC, s_nation LIMIT 7 OFFSET 3",
    "SELECT d_year, count(*) AS n FROM lineorder, date WHERE lo_orderdate = d_datekey"
    " GROUP BY d_year UNION ALL SELECT d_year, count(*) FROM date GROUP BY d_year"
    " ORDER BY n NULLS FIRST, d_year LIMIT 5",
    /* an operand with its own ORDER BY and LIMIT, run by its pipeline */
    "(SELECT c_custkey FROM customer ORDER BY c_custkey DESC LIMIT 3)"
    " UNION ALL (SELECT s_suppkey FROM supplier ORDER BY s_suppkey LIMIT 2) ORDER BY 1",
    /* empty operands */
    "SELECT c_name FROM customer WHERE c_custkey < 0 UNION SELECT s_name FROM supplier"
    " WHERE s_suppkey < 4 ORDER BY 1",
    "SELECT c_name FROM customer WHERE c_custkey < 5 INTERSECT SELECT s_name FROM supplier"
    " ORDER BY 1",
    /* grouped star queries on both sides, the SSB shape */
    "SELECT c_nation, sum(lo_revenue) AS r FROM lineorder, customer"
    " WHERE lo_custkey = c_custkey AND c_region = 'ASIA' GROUP BY c_nation"
    " UNION ALL SELECT s_nation, sum(lo_revenue) FROM lineorder, supplier"
    " WHERE lo_suppkey = s_suppkey AND s_region = 'ASIA' GROUP BY s_nation ORDER BY 1, 2",
};

/* Errors PostgreSQL raises, and where starq puts them. */
static const struct {
  const char *zSql, *zState, *zAt;  /* zAt: the text the position points at */
} aSetopError[] = {
    {"SELECT c_city, c_nation FROM customer UNION SELECT s_city FROM supplier", "42601",
     "s_city FROM supplier"},
    {"SELECT c_city FROM customer UNION SELECT s_suppkey FROM supplier", "42804",
     "s_suppkey FROM"},
    {"SELECT c_city FROM customer UNION SELECT s_city FROM supplier ORDER BY c_city || 'x'",
     "0A000", "c_city || 'x'"},
    {"SELECT c_city FROM customer UNION SELECT s_city FROM supplier ORDER BY s_city", "42703",
     "s_city"},
    {"SELECT c_city FROM customer UNION SELECT s_city FROM supplier ORDER BY 2", "42P10", "2"},
    {"SELECT c_city FROM customer UNION SELECT s_city FROM supplier LIMIT -1", "2201W", "-1"},
};

/* Runs every query on t against PostgreSQL p. */
static void setop_check_all(exectest *t, pgref *p) {
  char zErr[2048], zDiff[2048];
  for (size_t i = 0; i < sizeof(azSetop) / sizeof(azSetop[0]); i++) {
    pgref_result *pPg;
    refdb_result *pGot;
    sql_error e;
    CALL_OK(pgref_query(p, azSetop[i], &pPg, zErr, sizeof(zErr)));
    if (exectest_run(t, azSetop[i], &pGot, &e) != 0) {
      FAIL("starq: %s: %s %s", azSetop[i], e.zState, e.zMsg);
    }
    if (refdb_result_compare(pPg->pRows, pGot, 1, zDiff, sizeof(zDiff)) != 0) {
      FAIL("PostgreSQL and starq differ on %s\n%s", azSetop[i], zDiff);
    }
    /* The leftmost operand names the columns. */
    for (int c = 0; c < pPg->pRows->nCol; c++) {
      ASSERT_STR_EQ(pGot->azName[c], pPg->pRows->azName[c]);
    }
    pgref_result_free(pPg);
    refdb_result_free(pGot);
  }
  for (size_t i = 0; i < sizeof(aSetopError) / sizeof(aSetopError[0]); i++) {
    exec_result r;
    sql_error e;
    const char *zSql = aSetopError[i].zSql;
    ASSERT(pgref_exec(p, zSql, zErr, sizeof(zErr)) != 0);
    ASSERT(strncmp(zErr, aSetopError[i].zState, 5) == 0);
    ASSERT(exectest_exec(t, zSql, &r, &e) != 0);
    exec_result_free(&r);
    if (strcmp(e.zState, aSetopError[i].zState) != 0) {
      FAIL("%s: %s %s, PostgreSQL: %s", zSql, e.zState, e.zMsg, zErr);
    }
    /* The same words as PostgreSQL's where it has a fixed message. */
    if (strcmp(e.zState, "0A000") != 0 && strcmp(e.zState, "42P10") != 0) {
      ASSERT_STR_EQ(e.zMsg, zErr + 7);
    }
    ASSERT(e.iOffset >= 0);
    if (strncmp(zSql + e.iOffset, aSetopError[i].zAt, strlen(aSetopError[i].zAt)) != 0) {
      FAIL("%s: %s positioned at \"%s\"", zSql, e.zState, zSql + e.iOffset);
    }
  }
}

TEST_IMPL(setop_pg) {
  const char *argv[] = {"starq-gen", "--sf", "0.01", "--out", "tbl", "-q", NULL};
  exectest t;
  pgref *p;
  char zErr[2048];
  exectest_open(&t, "0.01");
  test_run_ok(argv);
  CALL_OK(pgref_start(&p, "pg", zErr, sizeof(zErr)));
  CALL_OK(pgref_load_ssb(p, "tbl", zErr, sizeof(zErr)));
  setop_check_all(&t, p);
  exectest_close(&t);
  /* The same on the CUDA backend over the mock driver. */
  exectest_open_mock(&t, "0.01");
  setop_check_all(&t, p);
  exectest_close(&t);
  pgref_stop(p);
  return 0;
}

/* EXPLAIN shows the tail on top and each pipeline under its input; a
** plain star query stays one pipeline with no tail, and a set
** operation's DESCRIBE has the resolved types. */
TEST_IMPL(setop_explain) {
  exectest t;
  exec_options opt;
  char *z;
  exec_result r;
  sql_error e;
  memset(&opt, 0, sizeof(opt));
  exectest_open(&t, "0.01");
  z = exectest_explain_text(t.pEngine, &opt,
                            "SELECT c_city FROM customer WHERE c_custkey < 10 UNION ALL"
                            " SELECT s_city FROM supplier ORDER BY 1 LIMIT 3", 0);
  ASSERT(strncmp(z, "Limit  (host, rows=3)", 21) == 0);
  ASSERT(strstr(z, "\n  ->  Sort  (host") != NULL);
  ASSERT(strstr(z, "->  Union All  (host") != NULL);
  ASSERT(strstr(z, "->  Pipeline Result 1  (host") != NULL);
  ASSERT(strstr(z, "->  Pipeline Result 2  (host") != NULL);
  ASSERT(strstr(z, "Pipeline 1 (device)") != NULL);
  ASSERT(strstr(z, "Pipeline 2 (device)") != NULL);
  ASSERT(strstr(z, "Backend: ") != NULL);
  free(z);
  z = exectest_explain_text(t.pEngine, &opt, "SELECT count(*) FROM lineorder", 0);
  ASSERT(strstr(z, "Pipeline") == NULL);
  ASSERT(strstr(z, "(host") == NULL);
  free(z);
  /* DESCRIBE: the leftmost names, the resolved types. */
  if (exectest_request(t.pEngine, ENGINE_DESCRIBE, 0, &opt,
                       "SELECT lo_quantity AS q, c_name FROM lineorder, customer"
                       " WHERE lo_custkey = c_custkey"
                       " UNION SELECT lo_orderkey, s_name FROM lineorder, supplier"
                       " WHERE lo_suppkey = s_suppkey",
                       &r, &e) != 0) {
    FAIL("DESCRIBE: %s %s", e.zState, e.zMsg);
  }
  ASSERT_EQ(r.nCol, 2);
  ASSERT_STR_EQ(r.aCol[0].zName, "q");
  ASSERT_EQ(r.aCol[0].type.eId, COLTYPE_BIGINT);
  ASSERT_EQ(r.nRow, 0);
  exec_result_free(&r);
  /* EXPLAIN ANALYZE runs once and gives the tail's actual rows. */
  {
    if (exectest_request(t.pEngine, ENGINE_EXPLAIN, ENGINE_EXPLAIN_ANALYZE, &opt,
                         "SELECT c_region FROM customer UNION SELECT s_region FROM supplier", &r,
                         &e) != 0) {
      FAIL("EXPLAIN ANALYZE: %s %s", e.zState, e.zMsg);
    }
    {
      strbuf s;
      strbuf_init(&s);
      for (int64_t i = 0; i < r.nRow; i++) {
        exec_result_text(&r, i, 0, &s);
        strbuf_puts(&s, "\n");
      }
      ASSERT(strstr(strbuf_str(&s), "Union  (host") != NULL);
      ASSERT(strstr(strbuf_str(&s), "actual rows=5 loops=1") != NULL);
      strbuf_free(&s);
    }
    exec_result_free(&r);
  }
  exectest_close(&t);
  return 0;
}
