/*
** tests/test-exec.c — every query is checked against SQLite on the same
** generated data, on the CPU backend: the 13 SSB queries at SF 0.05 and
** 0.2, and the edges (empty results, every row, one group, a group table
** that must grow, NULLs, overflow, division by zero).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../codegen/codegen.h"
#include "../loader/load.h"
#include "../parser/parser.h"
#include "../runtime/explain.h"
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

/* The CPU backend keeps its kernels in the default cache, which the runner
** makes one directory for all the tests of a run ($XDG_CACHE_HOME): a
** module another test compiled is read from disk, not compiled again.
** Compiling was most of the suite's time, the same SSB shapes in tens of
** tests; every module is still compiled once a run, by the first test
** that needs it, and checked by each. */
void exectest_open(exectest *t, const char *zSf) {
  const char *zBackend = getenv("STARQ_TEST_BACKEND");
  cpu_options opt = {NULL, NULL};
  char zErr[512];
  if (zBackend != NULL && strcmp(zBackend, "cuda") == 0) {
    cuda_options o = {NULL, NULL, "cache", 0, 0, NULL, 0};
    exectest_open_cuda(t, zSf, &o);
    return;
  }
  exectest_data(t, zSf);
  if (exec_backend_cpu(&t->be, 0, &opt, zErr, sizeof(zErr)) != 0) FAIL("pool: %s", zErr);
}

void exectest_open_cuda(exectest *t, const char *zSf, const cuda_options *pOpt) {
  char zErr[1024];
  exectest_data(t, zSf);
  if (exec_backend_cuda(&t->be, pOpt, zErr, sizeof(zErr)) != 0) FAIL("CUDA backend: %s", zErr);
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

void exectest_close(exectest *t) {
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

/* Why the last program in-process had no generic run ("" if it had). */
static char exectest_zGenericWhy[160];

int exectest_generic_always(void) {
  const char *z = getenv("STARQ_TEST_GENERIC");
  return z != NULL && strcmp(z, "always") == 0;
}

/* t->pOpt, or with STARQ_TEST_GENERIC=always a copy that runs every query
** on the generic kernels, into *pCopy. */
static const exec_options *exectest_options(const exectest *t, exec_options *pCopy) {
  if (!exectest_generic_always()) return t->pOpt;
  if (t->pOpt != NULL) *pCopy = *t->pOpt;
  else memset(pCopy, 0, sizeof(*pCopy));
  pCopy->eGeneric = EXEC_GENERIC_ALWAYS;
  return pCopy;
}

int exectest_exec(exectest *t, const char *zSql, exec_result *pRes, sql_error *pErr) {
  exec_options xo;
  const exec_options *pOpt = exectest_options(t, &xo);
  if (t->pWorker != NULL) return worker_query(t->pWorker, zSql, pOpt, pRes, pErr);
  return exectest_exec_plan(t->pCat, &t->be, t->xPlan, pOpt, zSql, pRes, pErr);
}

int exectest_exec_on(cat *pCat, exec_backend *pB, const exec_options *pOpt, const char *zSql,
                     exec_result *pRes, sql_error *pErr) {
  return exectest_exec_plan(pCat, pB, NULL, pOpt, zSql, pRes, pErr);
}

int exectest_exec_plan(cat *pCat, exec_backend *pB, void (*xPlan)(plan *p),
                       const exec_options *pOpt, const char *zSql, exec_result *pRes,
                       sql_error *pErr) {
  arena a;
  sql_script s;
  bound_select b;
  plan p;
  cg_program g;
  planner_model model;
  char zErr[256];
  int rc = -1;
  arena_init(&a);
  memset(&b, 0, sizeof(b));
  memset(&p, 0, sizeof(p));
  memset(&g, 0, sizeof(g));
  memset(pRes, 0, sizeof(*pRes));
  sql_error_clear(pErr);
  /* The model the worker plans with (worker/run.c): where the fact
  ** columns will be read from decides the plan — a resident one's SCAN
  ** has launch bounds, narrow columns read ahead, no row count where the
  ** sum marks the groups. */
  if (exec_backend_model(pB, pCat, pOpt, &model, zErr, sizeof(zErr)) != 0) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "%s", zErr);
    arena_free(&a);
    return -1;
  }
  if (sql_parse(zSql, &a, &s, pErr) == 0 && s.nStmt == 1 &&
      bind_select(pCat, s.apStmt[0]->pSelect, &a, &b, pErr) == 0 &&
      plan_build(pCat, &b, &model, &a, &p, pErr) == 0 && (xPlan == NULL || (xPlan(&p), 1)) &&
      codegen_build(&p, &a, &g, pErr) == 0 && exec_select(pCat, &p, &g, pB, pOpt, pRes, pErr) == 0) {
    rc = 0;
  }
  snprintf(exectest_zGenericWhy, sizeof(exectest_zGenericWhy), "%s",
           g.pGeneric == NULL && g.zGenericWhy != NULL ? g.zGenericWhy : "");
  codegen_free(&g);
  plan_free(&p);
  bind_select_free(&b);
  arena_free(&a);
  return rc;
}

char *exectest_explain_text(cat *pCat, const exec_backend *pB, const char *zSql, int bVerbose) {
  arena a;
  sql_script s;
  sql_error e;
  strbuf x;
  arena_init(&a);
  strbuf_init(&x);
  if (sql_parse(zSql, &a, &s, &e) != 0) FAIL("parse: %s", e.zMsg);
  if (exec_explain(pCat, pB, s.apStmt[0]->pSelect, bVerbose, &a, &x, &e) != 0) {
    FAIL("explain %s: %s %s", zSql, e.zState, e.zMsg);
  }
  arena_free(&a);
  return strbuf_take(&x);
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
  arena a;
  sql_script q;
  bound_select b;
  plan p;
  cg_program g;
  sql_error e;
  arena_init(&a);
  memset(&b, 0, sizeof(b));
  memset(&p, 0, sizeof(p));
  memset(&g, 0, sizeof(g));
  if (sql_parse(zSql, &a, &q, &e) != 0 || bind_select(t->pCat, q.apStmt[0]->pSelect, &a, &b, &e) != 0 ||
      plan_build(t->pCat, &b, pModel, &a, &p, &e) != 0 || (t->xPlan != NULL && (t->xPlan(&p), 0)) ||
      codegen_build(&p, &a, &g, &e) != 0) {
    FAIL("%s: %s %s", zSql, e.zState, e.zMsg);
  }
  strbuf_puts(s, strbuf_str(&g.src));
  codegen_free(&g);
  plan_free(&p);
  bind_select_free(&b);
  arena_free(&a);
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
    FAIL("%s%s%s\n  did not run on the generic kernels%s%s", zLabel, zSep, zSql,
         exectest_zGenericWhy[0] ? ": " : "", exectest_zGenericWhy);
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

/* The bytes a row of column iCol of pT's resident copy: its narrow form's
** (store_narrow_of over the catalog's statistics, as runtime/colmem.c
** builds it) or its type's. */
uint64_t exectest_copy_width(exectest *t, const cat_table *pT, int iCol) {
  char zErr[256];
  store_enc e;
  uint64_t nPayload;
  col_stats st;
  store_narrow n;
  if (cat_file_info(t->pCat, pT, pT->iGen, iCol, &e, &nPayload, zErr, sizeof(zErr)) != 0 ||
      cat_stats_get(t->pCat, pT->iId, iCol, &st, zErr, sizeof(zErr)) != 0) {
    FAIL("%s: %s", pT->aCol[iCol].zName, zErr);
  }
  store_narrow_of(pT->aCol[iCol].type.eId, e, !pT->aCol[iCol].bNotNull, &st, &n);
  stats_free(&st);
  return n.nByte > 0 ? (uint64_t)n.nByte : (uint64_t)coltype_width(pT->aCol[iCol].type);
}
