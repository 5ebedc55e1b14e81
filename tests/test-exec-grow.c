/*
** tests/test-exec-grow.c — buffers sized by estimates that turn out too
** small. A hash group table that overflows: the SCAN
** raises SQ_ERR_GROUPS_FULL, the runtime doubles the table and runs the
** kernels again, and the answer is still SQLite's. The plan is planned
** normally, then its table shrunk to 16 slots so that growth must happen
** several times over. It joins a dimension, so the reruns must keep the
** lookup the first BUILD filled (they do not run BUILD again).
*/
#include <string.h>

#include "../codegen/codegen.h"
#include "../parser/parser.h"
#include "test-exec.h"
#include "test.h"

TEST_IMPL(exec_group_table_grows) {
  static const char zSql[] =
      "SELECT lo_orderkey, lo_custkey, count(*), sum(lo_quantity) FROM lineorder, customer"
      " WHERE lo_custkey = c_custkey AND c_region <> 'ASIA'"
      " GROUP BY lo_orderkey, lo_custkey ORDER BY 1, 2";
  exectest t;
  arena a;
  sql_script s;
  sql_error e;
  bound_select b;
  plan p;
  cg_program g;
  exec_result r;
  refdb_result *pWant;
  char zErr[1024];
  exectest_open(&t, "0.01");
  arena_init(&a);
  ASSERT_EQ(sql_parse(zSql, &a, &s, &e), 0);
  ASSERT_EQ(bind_select(t.pCat, s.apStmt[0]->pSelect, &a, &b, &e), 0);
  ASSERT_EQ(plan_build(t.pCat, &b, NULL, &a, &p, &e), 0);
  ASSERT_EQ(p.group.eKind, GROUPBY_HASH);
  p.group.nSlot = 16;
  ASSERT_EQ(codegen_build(&p, &a, &g, &e), 0);
  ASSERT_EQ(g.nGroupSlot, 16);
  if (exec_run(t.pCat, &g, &t.be, NULL, &r, &e) != 0) FAIL("%s %s", e.zState, e.zMsg);
  ASSERT_GT(r.nRow, 1000);                      /* far more groups than 16 slots */
  ASSERT_EQ(refdb_query(t.pRef, zSql, &pWant, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(pWant->nRow, r.nRow);
  {
    strbuf x;
    strbuf_init(&x);
    for (int64_t i = 0; i < r.nRow; i += 997) {   /* spot rows, every column */
      for (int c = 0; c < 4; c++) {
        strbuf_reset(&x);
        exec_result_text(&r, i, c, &x);
        ASSERT_STR_EQ(strbuf_str(&x), refdb_result_cell(pWant, i, c));
      }
    }
    strbuf_free(&x);
  }
  refdb_result_free(pWant);
  exec_result_free(&r);
  codegen_free(&g);
  plan_free(&p);
  bind_select_free(&b);
  arena_free(&a);
  exectest_close(&t);
  return 0;
}

/* Rows of a non-aggregate query beyond the room its estimate gave (the
** planner guesses 0.5% for a = a; every row passes): the SCAN counts them,
** the runtime reruns with room for all, and no row is lost. SF 0.02 has
** more rows than the smallest room (65,536). */
TEST_IMPL(exec_rows_grow) {
  exectest t;
  exectest_open(&t, "0.02");
  ASSERT_GT(exectest_check(&t, "SELECT lo_orderkey, lo_linenumber, lo_revenue FROM lineorder"
                               " WHERE lo_discount = lo_discount ORDER BY 1, 2", 1),
            65536);
  exectest_check(&t, "SELECT lo_orderkey, lo_linenumber FROM lineorder"
                     " WHERE lo_discount = lo_discount ORDER BY 1, 2 LIMIT 5 OFFSET 100000", 1);
  exectest_close(&t);
  return 0;
}
