/*
** tests/test-exec-expr.c — issue 24's expressions through starq's engine
** against a real PostgreSQL 15 (tests/pgref.h) on the same SSB rows:
** string comparisons inside CASE and across tables (answered over the
** dictionaries, planner/codeset.c plan_exprset), string literals, NULL
** and CASEs of literals as outputs (planner/strtab.c's string table),
** GROUP BY an expression (planner/grouping.c), FILTER, bool_and and
** bool_or, min and max of strings, scalar functions, string functions
** over dictionaries, extract and date_part over DATE columns, rounding,
** sqrt and power.
**
** Each query runs on the CPU backend's own kernels (exec_expr_pg), on the
** generic kernels (exec_expr_pg_generic: every query must run on them)
** and on the mock CUDA driver's own kernels (exec_expr_pg_mock), and its
** rows must equal PostgreSQL's (ordered where the query orders every
** row). tests/regress/sql/strings.sql and groupby.sql check the same
** through psql and starqd, NULLs and edge values of vals included.
*/
#include "pgref.h"
#include "test-exec.h"
#include "test.h"

/* One query, whether its ORDER BY orders every row, and whether the
** generic kernels may decline it (more registers than they have: it then
** waits for its own kernels, as a server's first run would). */
typedef struct expr_case expr_case;
struct expr_case {
  const char *zSql;
  int bOrdered;
  int bBig;
};

static const expr_case expr_aCase[] = {
    /* a string comparison inside CASE, in an aggregate's argument */
    {"SELECT sum(CASE WHEN c_region = 'ASIA' THEN lo_revenue ELSE 0 END) FROM lineorder, customer"
     " WHERE lo_custkey = c_custkey", 1, 0},
    {"SELECT d_year, sum(CASE WHEN s_nation IN ('CHINA', 'JAPAN') THEN lo_revenue END),"
     " count(CASE WHEN p_mfgr LIKE 'MFGR#1%' OR p_mfgr = 'MFGR#5' THEN 1 END)"
     " FROM lineorder, date, supplier, part WHERE lo_orderdate = d_datekey"
     " AND lo_suppkey = s_suppkey AND lo_partkey = p_partkey GROUP BY d_year ORDER BY d_year", 1, 0},
    /* OR across a dimension and the fact table, across two dimensions */
    {"SELECT count(*) FROM lineorder, customer WHERE lo_custkey = c_custkey"
     " AND (c_nation = 'PERU' OR lo_quantity = 1)", 1, 0},
    {"SELECT count(*), sum(lo_revenue) FROM lineorder, customer, supplier"
     " WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey"
     " AND (c_nation = 'CHINA' OR s_nation = 'CHINA')", 1, 0},
    {"SELECT c_region, count(*) FROM lineorder, customer, supplier WHERE lo_custkey = c_custkey"
     " AND lo_suppkey = s_suppkey AND NOT (c_region = 'ASIA' AND s_region <> 'EUROPE')"
     " GROUP BY c_region ORDER BY c_region", 1, 0},
    /* OR of two columns of one dimension: its BUILD */
    {"SELECT count(*) FROM lineorder, part WHERE lo_partkey = p_partkey"
     " AND (p_color = 'red' OR p_size > 45)", 1, 0},
    /* a comparison as an output, and in HAVING over a group key */
    {"SELECT c_nation, CASE WHEN c_nation < 'F' THEN 1 ELSE 0 END, count(*) FROM customer GROUP BY c_nation"
     " HAVING c_nation >= 'C' OR count(*) > 13 ORDER BY c_nation", 1, 0},
    {"SELECT s_suppkey, CASE WHEN s_region = 'AMERICA' THEN s_suppkey * 10 ELSE -1 END"
     " FROM supplier ORDER BY s_suppkey", 1, 0},
    /* string literals, NULL and CASEs of literals as outputs */
    {"SELECT 'all' AS label, count(*) FROM lineorder", 1, 0},
    {"SELECT 'x', NULL, 1, 'y' AS y", 1, 0},
    {"SELECT lo_orderkey, lo_linenumber, CASE WHEN lo_quantity > 25 THEN 'big'"
     " WHEN lo_quantity > 10 THEN 'mid' END AS size FROM lineorder WHERE lo_orderkey < 40"
     " ORDER BY size, lo_orderkey, lo_linenumber", 1, 0},
    {"SELECT d_year, CASE d_year WHEN 1992 THEN 'first' WHEN 1998 THEN 'last' ELSE 'middle' END,"
     " 'year' AS unit, sum(lo_revenue) FROM lineorder, date WHERE lo_orderdate = d_datekey"
     " GROUP BY d_year ORDER BY 2 DESC, d_year", 1, 0},
    {"SELECT CASE WHEN c_region = 'ASIA' THEN 'asia' ELSE 'elsewhere' END AS r, count(*)"
     " FROM customer GROUP BY c_region ORDER BY c_region", 1, 0},
    /* GROUP BY an expression: arithmetic, a CASE of strings, a comparison */
    {"SELECT lo_quantity / 10 AS q, count(*), sum(lo_revenue) FROM lineorder"
     " GROUP BY lo_quantity / 10 ORDER BY q", 1, 0},
    {"SELECT CASE WHEN c_region = 'ASIA' THEN 'asia' WHEN c_region = 'EUROPE' THEN 'europe'"
     " ELSE 'other' END AS r, d_year, sum(lo_revenue) FROM lineorder, customer, date"
     " WHERE lo_custkey = c_custkey AND lo_orderdate = d_datekey GROUP BY 1, d_year"
     " HAVING sum(lo_revenue) > 1000000000 ORDER BY r, d_year", 1, 0},
    {"SELECT d_year % 100 AS yy, CASE WHEN lo_discount > 5 THEN 1 ELSE 0 END AS high, count(*)"
     " FROM lineorder, date WHERE lo_orderdate = d_datekey GROUP BY 1, 2 ORDER BY 1, 2", 1, 0},
    {"SELECT lo_tax * 2 + lo_discount AS t, count(*) FROM lineorder GROUP BY lo_tax * 2 + lo_discount"
     " ORDER BY t", 1, 0},
    /* coalesce, nullif, greatest, least, abs, mod (bound as CASE and %) */
    {"SELECT d_year, sum(coalesce(nullif(lo_discount, 0), 1) * lo_extendedprice),"
     " max(greatest(lo_tax, lo_discount))"
     " FROM lineorder, date WHERE lo_orderdate = d_datekey GROUP BY d_year ORDER BY d_year", 1, 0},
    {"SELECT max(greatest(lo_tax, lo_discount, 3)), min(least(lo_tax, lo_discount, 3))"
     " FROM lineorder", 1, 1},
    {"SELECT d_year, min(least(lo_quantity, lo_tax)), sum(abs(lo_tax - lo_discount)),"
     " sum(mod(lo_orderkey, 7)) FROM lineorder, date WHERE lo_orderdate = d_datekey"
     " GROUP BY d_year ORDER BY d_year", 1, 0},
    {"SELECT mod(lo_quantity, 5) AS m, abs(lo_discount - 5) AS a, count(*) FROM lineorder"
     " GROUP BY 1, 2 ORDER BY 1, 2", 1, 0},
    /* string functions and ILIKE of a dimension column, over its dictionary */
    {"SELECT d_year, sum(CASE WHEN upper(c_mktsegment) LIKE 'AUTO%' THEN lo_revenue END),"
     " count(*) FILTER (WHERE length(c_address) > 20 OR c_nation ILIKE 'peru')"
     " FROM lineorder, customer, date WHERE lo_custkey = c_custkey AND lo_orderdate = d_datekey"
     " AND (substring(c_phone from 1 for 2) IN ('11', '12') OR lo_discount = 0)"
     " GROUP BY d_year ORDER BY d_year", 1, 0},
    /* extract and date_part of DATE columns (value maps over their days) */
    {"SELECT extract(year from lo_orderdate) AS y, extract(quarter from lo_orderdate) AS q,"
     " count(*), sum(lo_revenue) FROM lineorder GROUP BY 1, 2 ORDER BY 1, 2", 1, 0},
    {"SELECT extract(isodow from lo_orderdate) AS d, sum(CASE WHEN extract(day from lo_orderdate)"
     " = 1 THEN lo_revenue END), max(date_part('doy', lo_commitdate)) FROM lineorder, date"
     " WHERE lo_orderdate = d_datekey AND extract(week from d_datekey) < 10 GROUP BY 1 ORDER BY 1",
     1, 0},
    /* round, ceil, floor, trunc: float8 (integers too) and numeric versions */
    {"SELECT d_year, sum(round(lo_discount / 4.0)), sum(floor(lo_extendedprice / 7.0)),"
     " max(ceil(lo_revenue / 3.0)), min(trunc(lo_supplycost / -9.0, 1)),"
     " sum(round(lo_extendedprice / 16.0, 3)), sum(ceil(lo_quantity / 4))"
     " FROM lineorder, date WHERE lo_orderdate = d_datekey AND round(lo_tax / 3.0, 1) < 2"
     " GROUP BY d_year ORDER BY d_year", 1, 0},
    {"SELECT lo_discount, round(sum(lo_extendedprice) / 7.0, 2), floor(avg(lo_quantity)),"
     " trunc(min(lo_quantity) * 1.5) FROM lineorder GROUP BY lo_discount ORDER BY lo_discount", 1, 0},
    {"SELECT d_year, sum(power(lo_discount, 2)), max(sqrt(lo_quantity * lo_quantity)),"
     " count(*) FILTER (WHERE pow(lo_tax, 3) > 27) FROM lineorder, date"
     " WHERE lo_orderdate = d_datekey AND sqrt(lo_quantity) < 5 GROUP BY d_year ORDER BY d_year", 1, 0},
    /* FILTER, min and max of strings, bool_and and bool_or (as 0/1 here) */
    {"SELECT c_region, min(c_nation), max(c_city) FILTER (WHERE c_mktsegment = 'BUILDING'),"
     " count(*) FILTER (WHERE lo_quantity > 25), sum(lo_revenue) FILTER (WHERE lo_discount = 0)"
     " FROM lineorder, customer WHERE lo_custkey = c_custkey GROUP BY c_region ORDER BY c_region", 1, 0},
    {"SELECT d_year, CASE WHEN bool_and(lo_quantity > 1) THEN 1 ELSE 0 END,"
     " CASE WHEN bool_or(s_region = 'ASIA' AND lo_discount = 10) THEN 1 ELSE 0 END"
     " FROM lineorder, date, supplier WHERE lo_orderdate = d_datekey AND lo_suppkey = s_suppkey"
     " GROUP BY d_year ORDER BY d_year", 1, 0},
};

/* Runs every case on t against p; with bGeneric each must have run on the
** generic kernels. */
static void expr_check_all(exectest *t, pgref *p, int bGeneric) {
  for (size_t i = 0; i < sizeof(expr_aCase) / sizeof(expr_aCase[0]); i++) {
    const expr_case *q = &expr_aCase[i];
    pgref_result *pPg;
    refdb_result *pStarq;
    sql_error e;
    char zErr[2048], zDiff[2048];
    CALL_OK(pgref_query(p, q->zSql, &pPg, zErr, sizeof(zErr)));
    if (exectest_run(t, q->zSql, &pStarq, &e) != 0) FAIL("starq: %s: %s %s", q->zSql, e.zState, e.zMsg);
    if ((bGeneric || exectest_generic_always()) && !q->bBig && !t->last.bGeneric) {
      FAIL("%s did not run on the generic kernels", q->zSql);
    }
    if (refdb_result_compare(pPg->pRows, pStarq, q->bOrdered, zDiff, sizeof(zDiff)) != 0) {
      FAIL("PostgreSQL and starq differ on %s\n%s", q->zSql, zDiff);
    }
    pgref_result_free(pPg);
    refdb_result_free(pStarq);
  }
}

/* PostgreSQL with SF 0.01 from starq-gen's .tbl files (the same rows as
** the store exectest_open generated: the same seed). */
static pgref *expr_pg(void) {
  const char *argv[] = {"starq-gen", "--sf", "0.01", "--out", "tbl", "-q", NULL};
  pgref *p;
  char zErr[2048];
  test_run_ok(argv);
  CALL_OK(pgref_start(&p, "pg", zErr, sizeof(zErr)));
  CALL_OK(pgref_load_ssb(p, "tbl", zErr, sizeof(zErr)));
  return p;
}

/* Runs every case on t (opened on SF 0.01) against PostgreSQL, then
** closes t; with bGeneric each must have run on the generic kernels. */
static int expr_run(exectest *t, int bGeneric) {
  pgref *p = expr_pg();
  expr_check_all(t, p, bGeneric);
  pgref_stop(p);
  exectest_close(t);
  return 0;
}

TEST_IMPL(exec_expr_pg) {
  exectest t;
  exectest_open(&t, "0.01");
  return expr_run(&t, 0);
}

TEST_IMPL(exec_expr_pg_generic) {
  static exec_options o;
  exectest t;
  o.eGeneric = EXEC_GENERIC_ALWAYS;
  exectest_open(&t, "0.01");
  t.pOpt = &o;
  return expr_run(&t, 1);
}

TEST_IMPL(exec_expr_pg_mock) {
  exectest t;
  exectest_open_mock(&t, "0.01");
  return expr_run(&t, 0);
}

/* IN lists of constants are one sorted kernel argument whatever their
** length (codegen/expr.c cgx_in_sorted): 10,000 values run, on the own
** and the generic kernels, as SQLite answers. */
TEST_IMPL(exec_in_lists) {
  static exec_options oGeneric;
  exectest t;
  strbuf s;
  exectest_open(&t, "0.01");
  strbuf_init(&s);
  strbuf_puts(&s, "SELECT count(*), sum(lo_revenue) FROM lineorder WHERE lo_orderkey IN (");
  for (int i = 0; i < 10000; i++) strbuf_printf(&s, "%s%d", i ? ", " : "", i * 7 + 1);
  strbuf_puts(&s, ") AND lo_discount NOT IN (0, 10)");
  ASSERT(!strbuf_error(&s));
  ASSERT_GT(exectest_check(&t, strbuf_str(&s), 0), 0);
  exectest_check(&t, "SELECT lo_quantity, count(*) FROM lineorder WHERE lo_quantity IN (50, 1, 25, 7)"
                     " AND lo_orderdate IN (DATE '1995-03-04', '1992-01-02', '1998-08-02', '1996-02-29')"
                     " GROUP BY lo_quantity", 0);
  oGeneric.eGeneric = EXEC_GENERIC_ALWAYS;
  t.pOpt = &oGeneric;
  ASSERT_GT(exectest_check(&t, strbuf_str(&s), 0), 0);
  ASSERT(t.last.bGeneric);
  strbuf_free(&s);
  exectest_close(&t);
  return 0;
}
