/*
** tests/test-exec.c — every query is checked against SQLite on the same
** generated data, on the CPU backend: the 13 SSB queries at SF 0.05 and
** 0.2, and the edges (empty results, every row, one group, a group table
** that must grow, NULLs, overflow, division by zero).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../loader/load.h"
#include "test-exec.h"
#include "test.h"

/* Generates and opens the data and SQLite's copy. lineorder's columns are
** FOR-bitpacked where it pays (starq-gen's default), unless the
** environment's STARQ_TEST_COMPRESS says "off": tests about byte budgets
** set it, and the suite can be run both ways. */
static void exectest_data(exectest *t, const char *zSf) {
  char zErr[512];
  const char *zCompress = getenv("STARQ_TEST_COMPRESS");
  memset(t, 0, sizeof(*t));
  if (zSf != NULL) {
    const char *azArgv[] = {"starq-gen", "--sf", zSf, "--format", "store", "--out", "data",
                            "--quiet", "--compress", zCompress ? zCompress : "auto", NULL};
    test_proc proc;
    if (test_run(&proc, azArgv) != 0) FAIL("starq-gen: %s", proc.zErr);
    test_proc_free(&proc);
  }
  if (cat_open(&t->pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("cat_open: %s", zErr);
  if (refdb_open("data", &t->pRef, zErr, sizeof(zErr)) != 0) FAIL("refdb_open: %s", zErr);
}

/* Opens the engine over t's backend and data. */
static void exectest_engine(exectest *t) {
  engine_config c;
  char zErr[1024];
  engine_config_init(&c);
  c.zDataDir = "data";
  c.pBackend = &t->be;
  if (engine_open(&t->pEngine, &c, zErr, sizeof(zErr)) != 0) FAIL("engine: %s", zErr);
}

const char *exectest_generic_cache(void) {
  static char zDir[4096];
  snprintf(zDir, sizeof(zDir), "%s/../test-cache", test_bin(""));
  return zDir;
}

/* The CPU backend keeps its kernels in the default cache, which the runner
** makes one directory for all the tests of a run ($XDG_CACHE_HOME): a
** module another test compiled is read from disk, not compiled again.
** Compiling was most of the suite's time, the same SSB shapes in tens of
** tests; every module is still compiled once a run, by the first test
** that needs it, and checked by each. */
void exectest_open(exectest *t, const char *zSf) {
  const char *zBackend = getenv("STARQ_TEST_BACKEND");
  cpu_options opt = {.zCacheDir = NULL};
  if (zBackend != NULL && strcmp(zBackend, "cuda") == 0) {
    cuda_options o = {.zCacheDir = "cache"};
    exectest_open_cuda(t, zSf, &o);
    return;
  }
  exectest_open_cpu(t, zSf, &opt);
}

void exectest_open_cpu(exectest *t, const char *zSf, const cpu_options *pOpt) {
  char zErr[512];
  exectest_data(t, zSf);
  if (exec_backend_cpu(&t->be, 0, pOpt, zErr, sizeof(zErr)) != 0) FAIL("pool: %s", zErr);
  exectest_engine(t);
}

void exectest_open_cuda(exectest *t, const char *zSf, const cuda_options *pOpt) {
  char zErr[1024];
  exectest_data(t, zSf);
  if (exec_backend_cuda(&t->be, pOpt, zErr, sizeof(zErr)) != 0) FAIL("CUDA backend: %s", zErr);
  exectest_engine(t);
}

void exectest_open_mock(exectest *t, const char *zSf) {
  static char zLib[4096];
  cuda_options o;
  snprintf(zLib, sizeof(zLib), "%s", test_bin("libstarq-cuda-mock.so"));
  memset(&o, 0, sizeof(o));
  o.zLibCuda = o.zLibNvrtc = zLib;
  o.zCacheDir = "cudacache";
  exectest_open_cuda(t, zSf, &o);
}

const char *const exectest_azSsb[EXECTEST_SSB_N] = {
    "q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
    "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};

void exectest_ssb_set_init(exectest *t, exectest_ssb_set *p) {
  for (int i = 0; i < EXECTEST_SSB_N; i++) {
    char zRel[64];
    exec_result r;
    sql_error e;
    snprintf(zRel, sizeof(zRel), "ssb-data/queries/%s.sql", exectest_azSsb[i]);
    p->azSql[i] = test_file_read(test_src(zRel), NULL);
    exectest_check(t, p->azSql[i], 1);
    if (exectest_exec(t, p->azSql[i], &r, &e) != 0) FAIL("%s: %s", exectest_azSsb[i], e.zMsg);
    p->azWant[i] = exectest_result_dump(&r);
    exec_result_free(&r);
  }
}

void exectest_ssb_set_free(exectest_ssb_set *p) {
  for (int i = 0; i < EXECTEST_SSB_N; i++) {
    free(p->azSql[i]);
    free(p->azWant[i]);
  }
}

void exectest_close(exectest *t) {
  engine_close(t->pEngine);
  exec_backend_close(&t->be);
  refdb_close(t->pRef);
  cat_close(t->pCat);
}

static refdb_result *exectest_convert(const exec_result *r) {
  refdb_result *q = refdb_result_new(r->nCol);
  strbuf s;
  ASSERT(q != NULL);
  strbuf_init(&s);
  for (int c = 0; c < r->nCol; c++) {
    coltype t = r->aCol[c].type;
    ASSERT(refdb_result_set_column(q, c, r->aCol[c].zName,
                                   t.eId == COLTYPE_DOUBLE || t.eId == COLTYPE_DECIMAL) == 0);
  }
  for (int64_t i = 0; i < r->nRow; i++) {
    for (int c = 0; c < r->nCol; c++) {
      strbuf_reset(&s);
      if (exec_result_text(r, i, c, &s)) {
        ASSERT(refdb_result_add_cell(q, NULL, 0) == 0);
      } else if (r->aCol[c].type.eId == COLTYPE_BOOLEAN) {
        ASSERT(refdb_result_add_cell(q, strcmp(strbuf_str(&s), "t") == 0 ? "1" : "0", -1) == 0);
      } else {
        ASSERT(refdb_result_add_cell(q, strbuf_str(&s), (int)s.n) == 0);
      }
    }
  }
  strbuf_free(&s);
  return q;
}

int exectest_generic_always(void) {
  const char *z = getenv("STARQ_TEST_GENERIC");
  return z != NULL && strcmp(z, "always") == 0;
}

/* The options a query of t runs with: t->pOpt's (NULL: the defaults), a
** new shape's first run on its own kernels unless t->bGenericFirst, and
** with STARQ_TEST_GENERIC=always every query on the generic kernels. */
static exec_options exectest_options(const exectest *t) {
  exec_options xo;
  memset(&xo, 0, sizeof(xo));
  if (t->pOpt != NULL) xo = *t->pOpt;
  if (xo.eGeneric == EXEC_GENERIC_ON && !t->bGenericFirst) xo.eGeneric = EXEC_GENERIC_OFF;
  if (exectest_generic_always()) xo.eGeneric = EXEC_GENERIC_ALWAYS;
  return xo;
}

int exectest_request(engine *e, engine_kind eKind, int mExplain, const exec_options *pOpt,
                     const char *zSql, exec_result *pRes, sql_error *pErr) {
  engine_request q;
  memset(&q, 0, sizeof(q));
  q.eKind = eKind;
  q.mExplain = mExplain;
  q.zSql = zSql;
  if (pOpt != NULL) q.opt = *pOpt;
  return engine_execute(e, &q, pRes, pErr);
}

static int exectest_exec_plan(exectest *t, const exec_options *pOpt, const char *zSql,
                              exec_result *pRes, sql_error *pErr);

int exectest_exec(exectest *t, const char *zSql, exec_result *pRes, sql_error *pErr) {
  exec_options xo = exectest_options(t);
  if (t->pWorker != NULL) {
    engine_request q;
    memset(&q, 0, sizeof(q));
    q.eKind = ENGINE_SELECT;
    q.zSql = zSql;
    q.opt = xo;
    return worker_query(t->pWorker, &q, pRes, pErr);
  }
  if (t->xPlan != NULL) return exectest_exec_plan(t, &xo, zSql, pRes, pErr);
  return exectest_request(t->pEngine, ENGINE_SELECT, 0, &xo, zSql, pRes, pErr);
}

/* Calls the test's plan edit (engine_request.xPlanEdit). */
static void exectest_plan_edit(plan *p, void *pArg) {
  ((exectest *)pArg)->xPlan(p);
}

/* Runs zSql through the engine with the plan edited by t->xPlan. */
static int exectest_exec_plan(exectest *t, const exec_options *pOpt, const char *zSql,
                              exec_result *pRes, sql_error *pErr) {
  engine_request q;
  memset(&q, 0, sizeof(q));
  q.eKind = ENGINE_SELECT;
  q.zSql = zSql;
  if (pOpt != NULL) q.opt = *pOpt;
  q.xPlanEdit = exectest_plan_edit;
  q.pPlanEditArg = t;
  return engine_execute(t->pEngine, &q, pRes, pErr);
}

char *exectest_explain_text(engine *e, const exec_options *pOpt, const char *zSql, int bVerbose) {
  exec_result r;
  sql_error err;
  strbuf x;
  strbuf_init(&x);
  if (exectest_request(e, ENGINE_EXPLAIN, bVerbose ? ENGINE_EXPLAIN_VERBOSE : 0, pOpt, zSql, &r,
                       &err) != 0) {
    FAIL("explain %s: %s %s", zSql, err.zState, err.zMsg);
  }
  for (int64_t i = 0; i < r.nRow; i++) {
    if (i > 0) strbuf_puts(&x, "\n");
    exec_result_text(&r, i, 0, &x);
  }
  exec_result_free(&r);
  return strbuf_take(&x);
}

/* Why the generic kernels cannot run zSql, from EXPLAIN VERBOSE's line
** ("" when they can), into z. */
static void exectest_generic_why(exectest *t, const char *zSql, char *z, size_t n) {
  static const char zWant[] = "Generic kernels: cannot run it (";
  exec_options xo = exectest_options(t);
  char *zPlan = exectest_explain_text(t->pEngine, &xo, zSql, 1), *zWhy = strstr(zPlan, zWant);
  snprintf(z, n, "%.*s", zWhy != NULL ? (int)strcspn(zWhy + sizeof(zWant) - 1, "\n") : 0,
           zWhy != NULL ? zWhy + sizeof(zWant) - 1 : "");
  free(zPlan);
}

char *exectest_result_dump(const exec_result *r) {
  strbuf s;
  char *z;
  strbuf_init(&s);
  for (int c = 0; c < r->nCol; c++) {
    const exec_column *p = &r->aCol[c];
    strbuf_printf(&s, "%s%s:%d(%d,%d,%d)%s", c ? "|" : "", p->zName, (int)p->type.eId,
                  p->type.nLength, p->type.nPrecision, p->type.nScale, p->bFloat ? "f" : "");
  }
  strbuf_printf(&s, "\n%lld rows\n", (long long)r->nRow);
  for (int64_t i = 0; i < r->nRow; i++) {
    for (int c = 0; c < r->nCol; c++) {
      if (c) strbuf_puts(&s, "|");
      if (exec_result_text(r, i, c, &s)) strbuf_puts(&s, "\\N");
    }
    strbuf_puts(&s, "\n");
  }
  z = strbuf_take(&s);
  ASSERT(z != NULL);
  return z;
}

int exectest_run(exectest *t, const char *zSql, refdb_result **ppGot, sql_error *pErr) {
  exec_result r;
  int rc = -1;
  *ppGot = NULL;
  if (exectest_exec(t, zSql, &r, pErr) == 0) {
    *ppGot = exectest_convert(&r);
    rc = 0;
  }
  t->last = r;
  t->last.nCol = 0;
  t->last.aCol = NULL;
  exec_result_free(&r);
  return rc;
}

void exectest_source(exectest *t, const planner_model *pModel, const char *zSql, strbuf *s) {
  planner_model m;
  engine_request q;
  engine_stmt *p;
  sql_error e;
  char zErr[256];
  memset(&q, 0, sizeof(q));
  q.eKind = ENGINE_SELECT;
  q.zSql = zSql;
  /* NULL is the defaults of model.h, as a plan made without a backend. */
  if (pModel == NULL && planner_model_default("cpu", &m, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  q.pModel = pModel != NULL ? pModel : &m;
  if (t->xPlan != NULL) {
    q.xPlanEdit = exectest_plan_edit;
    q.pPlanEditArg = t;
  }
  if (engine_prepare(t->pEngine, &q, &p, &e) != 0) FAIL("%s: %s %s", zSql, e.zState, e.zMsg);
  strbuf_puts(s, strbuf_str(&engine_stmt_program(p)->src));
  engine_stmt_free(p);
}

int64_t exectest_check(exectest *t, const char *zSql, int bOrdered) {
  refdb_result *pGot, *pWant;
  sql_error e;
  char zErr[2048];
  const char *zLabel = t->zLabel != NULL ? t->zLabel : "";
  const char *zSep = t->zLabel != NULL ? ": " : "";
  int64_t n;
  if (exectest_run(t, zSql, &pGot, &e) != 0) {
    FAIL("%s%sstarq: %s\n  %s: %s", zLabel, zSep, zSql, e.zState, e.zMsg);
  }
  if (refdb_query(t->pRef, zSql, &pWant, zErr, sizeof(zErr)) != 0) {
    FAIL("%s%ssqlite: %s: %s", zLabel, zSep, zSql, zErr);
  }
  if (refdb_result_compare(pWant, pGot, bOrdered, zErr, sizeof(zErr)) != 0) {
    FAIL("%s%s%s\n  differs from SQLite%s: %s", zLabel, zSep, zSql,
         t->last.bGeneric ? " (generic kernels)" : "", zErr);
  }
  /* Under STARQ_TEST_GENERIC=always every query they can run must have
  ** run on them: one that silently took its own kernels tests nothing. */
  if (exectest_generic_always() && !t->last.bGeneric) {
    char zWhy[256];
    exectest_generic_why(t, zSql, zWhy, sizeof(zWhy));
    FAIL("%s%s%s\n  did not run on the generic kernels%s%s", zLabel, zSep, zSql,
         zWhy[0] ? ": " : "", zWhy);
  }
  n = pGot->nRow;
  refdb_result_free(pGot);
  refdb_result_free(pWant);
  return n;
}

void exectest_error(exectest *t, const char *zSql, const char *zState) {
  refdb_result *pGot;
  sql_error e;
  if (exectest_run(t, zSql, &pGot, &e) == 0) {
    refdb_result_free(pGot);
    FAIL("%s: ran, expected %s", zSql, zState);
  }
  if (strcmp(e.zState, zState) != 0) FAIL("%s: %s %s, expected %s", zSql, e.zState, e.zMsg, zState);
}

void exectest_ssb_all(exectest *t) {
  static const char *const azQ[] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                    "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};
  int nNonEmpty = 0;
  for (size_t i = 0; i < sizeof(azQ) / sizeof(azQ[0]); i++) {
    char zRel[64];
    snprintf(zRel, sizeof(zRel), "ssb-data/queries/%s.sql", azQ[i]);
    char *zSql = test_file_read(test_src(zRel), NULL);
    nNonEmpty += exectest_check(t, zSql, 1) > 0;
    free(zSql);
  }
  ASSERT_GE(nNonEmpty, 11);      /* Q3.3/Q3.4 may be empty at small scales */
}

static void exectest_ssb(const char *zSf) {
  exectest t;
  exectest_open(&t, zSf);
  exectest_ssb_all(&t);
  exectest_close(&t);
}

TEST_IMPL(exec_ssb_sf005) {
  exectest_ssb("0.05");
  return 0;
}

TEST_IMPL(exec_ssb_sf02) {
  exectest_ssb("0.2");
  return 0;
}

/* Edges on SSB data: empty, every row, one group, a group table that
** must grow, DISTINCT, non-aggregate rows, LIMIT/OFFSET, expressions. */
void exectest_edges(exectest *t) {
  static const struct {
    const char *zSql;
    int bOrdered;
  } aCase[] = {
    {"SELECT sum(lo_revenue) FROM lineorder WHERE lo_quantity > 1000", 0},
    {"SELECT count(*), sum(lo_quantity), min(lo_discount), max(lo_tax) FROM lineorder", 0},
    {"SELECT count(*), avg(lo_quantity) FROM lineorder WHERE lo_discount >= 0", 0},
    {"SELECT d_year, count(*) FROM lineorder, date WHERE lo_orderdate = d_datekey"
     " AND d_year = 1995 GROUP BY d_year", 0},
    {"SELECT lo_orderkey, count(*) FROM lineorder WHERE lo_discount = lo_discount"
     " GROUP BY lo_orderkey ORDER BY lo_orderkey LIMIT 50", 1},
    {"SELECT count(*) FROM (SELECT 1) AS x", 0},
    /* string values: maps of one or two dictionaries and an integer
    ** (planner/strval.c), as outputs and group keys */
    {"SELECT upper(c_region) || '/' || s_nation, sum(lo_revenue) FROM lineorder, customer, supplier"
     " WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey"
     " GROUP BY upper(c_region) || '/' || s_nation", 0},
    {"SELECT CAST(d_year AS text) || '-' || d_month, count(*) FROM lineorder, date"
     " WHERE lo_orderdate = d_datekey GROUP BY 1", 0},
    {"SELECT lower(c_city), substr(c_phone, 1, 2) || c_mktsegment FROM customer"
     " WHERE c_custkey < 30 ORDER BY 1, 2", 1},
    {"SELECT DISTINCT c_region FROM customer ORDER BY c_region", 1},
    {"SELECT c_custkey, c_nation FROM customer WHERE c_custkey < 20 ORDER BY c_custkey", 1},
    {"SELECT lo_orderkey, lo_linenumber FROM lineorder ORDER BY lo_revenue DESC, lo_orderkey,"
     " lo_linenumber LIMIT 7 OFFSET 3", 1},
    {"SELECT s_nation, sum(lo_revenue - lo_supplycost) / 100, count(*) FROM lineorder, supplier"
     " WHERE lo_suppkey = s_suppkey GROUP BY s_nation HAVING count(*) > 10 ORDER BY 2 DESC", 1},
    {"SELECT p_brand1, avg(lo_discount), min(lo_extendedprice) FROM lineorder, part"
     " WHERE lo_partkey = p_partkey AND p_brand1 LIKE 'MFGR#12%' GROUP BY p_brand1", 0},
    {"SELECT CASE WHEN lo_quantity < 10 THEN 1 WHEN lo_quantity < 30 THEN 2 ELSE 3 END,"
     " lo_quantity FROM lineorder WHERE lo_orderkey < 10 ORDER BY 2, 1", 1},
    {"SELECT d_year, sum(lo_revenue) FROM lineorder JOIN date ON lo_orderdate = d_datekey"
     " WHERE d_datekey BETWEEN DATE '1994-03-01' AND DATE '1994-06-30' GROUP BY d_year", 0},
    /* a group whose sum is 0 (discount 0): the row count must mark it,
    ** not the sum (plan.bCountInSum is for columns with no value below 1) */
    {"SELECT lo_discount, sum(lo_discount) FROM lineorder GROUP BY lo_discount", 0},
    /* lo_quantity is 1..50: on resident columns (the mock's, the GPU's)
    ** no row count, the sum marks the groups */
    {"SELECT lo_shipmode, sum(lo_quantity) FROM lineorder WHERE lo_quantity < 3"
     " GROUP BY lo_shipmode", 0},
    {"SELECT c_region, s_region, count(*) FROM lineorder, customer, supplier"
     " WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND c_region IN ('ASIA', 'EUROPE') GROUP BY c_region, s_region ORDER BY 1, 2", 1},
    /* SQL text that ends a comment of the kernel source must stay in it */
    {"SELECT count(*) FROM lineorder WHERE lo_shipmode <> 'x*/ y /*'", 0},
    {"SELECT \"a*/b\".lo_shipmode, count(*) FROM lineorder AS \"a*/b\", date AS \"*/d\""
     " WHERE lo_orderdate = d_datekey GROUP BY 1", 0},
    /* aliases whose identifiers collide, end like a field, or are long */
    {"SELECT c_region, count(*) FROM lineorder, date AS \"x y\", customer AS x_y, supplier AS x_min,"
     " part AS \"1p\" WHERE lo_orderdate = d_datekey AND lo_custkey = c_custkey"
     " AND lo_suppkey = s_suppkey AND lo_partkey = p_partkey AND p_size < 10 GROUP BY c_region", 0},
    {"SELECT count(*) FROM lineorder AS l23456789012345678901234567890123456789012345678901234567890,"
     " date AS d23456789012345678901234567890123456789012345678901234567890"
     " WHERE lo_orderdate = d_datekey AND d_year = 1995", 0},
  };
  for (size_t i = 0; i < sizeof(aCase) / sizeof(aCase[0]); i++) {
    if (strstr(aCase[i].zSql, "(SELECT 1)") != NULL) continue;   /* no subqueries yet */
    exectest_check(t, aCase[i].zSql, aCase[i].bOrdered);
  }
  exectest_error(t, "SELECT lo_quantity / (lo_discount - lo_discount) FROM lineorder", "22012");
  exectest_error(t, "SELECT count(*) FROM lineorder, customer, supplier WHERE lo_custkey ="
                    " c_custkey AND lo_suppkey = s_suppkey AND c_region <> s_region", "0A000");
  exectest_error(t, "SELECT sum(lo_orderkey * 4000000000000000) FROM lineorder", "22003");
}

TEST_IMPL(exec_edges) {
  exectest t;
  exectest_open(&t, "0.01");
  exectest_edges(&t);
  exectest_close(&t);
  return 0;
}

/* Queries that differ only in their constants get the same kernel source,
** so they share one compiled module: constants are parameters, and
** nothing in the source (comments included) spells them. (Constants that
** change the plan, reordering conditions by selectivity, may change it.) */
TEST_IMPL(exec_literals_shared) {
  static const char *const azPair[][2] = {
    {"SELECT sum(lo_revenue) FROM lineorder WHERE lo_quantity < 10 AND lo_discount BETWEEN 1 AND 3",
     "SELECT sum(lo_revenue) FROM lineorder WHERE lo_quantity < 12 AND lo_discount BETWEEN 5 AND 7"},
    {"SELECT d_year, count(*) FROM lineorder, date WHERE lo_orderdate = d_datekey"
     " AND lo_orderdate >= DATE '1993-01-01' AND lo_tax IN (1, 2) GROUP BY d_year",
     "SELECT d_year, count(*) FROM lineorder, date WHERE lo_orderdate = d_datekey"
     " AND lo_orderdate >= DATE '1993-02-15' AND lo_tax IN (3, 4) GROUP BY d_year"},
    {"SELECT c_nation, sum(lo_revenue) * 2 FROM lineorder JOIN customer ON lo_custkey = c_custkey"
     " WHERE c_region = 'ASIA' GROUP BY c_nation HAVING count(*) > 10",
     "SELECT c_nation, sum(lo_revenue) * 3 FROM lineorder JOIN customer ON lo_custkey = c_custkey"
     " WHERE c_region = 'EUROPE' GROUP BY c_nation HAVING count(*) > 99"},
  };
  exectest t;
  strbuf a, b;
  exectest_open(&t, "0.01");
  strbuf_init(&a);
  strbuf_init(&b);
  for (size_t i = 0; i < sizeof(azPair) / sizeof(azPair[0]); i++) {
    strbuf_reset(&a);
    strbuf_reset(&b);
    exectest_source(&t, NULL, azPair[i][0], &a);
    exectest_source(&t, NULL, azPair[i][1], &b);
    if (strcmp(strbuf_str(&a), strbuf_str(&b)) != 0) {
      FAIL("different kernel sources:\n  %s\n  %s", azPair[i][0], azPair[i][1]);
    }
  }
  strbuf_free(&a);
  strbuf_free(&b);
  exectest_close(&t);
  return 0;
}

