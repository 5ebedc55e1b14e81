/*
** tests/test-exec-chain.c — flat OR and AND chains of ten thousand
** comparisons (planner/bind_chain.c): each answers as the IN list it is
** rewritten to, which is checked against SQLite (whose parser takes no
** such chain), on the compiled and on the generic kernels. The parser
** keeps the chains balanced, so no stage recurses ten thousand deep.
*/
#include <stdlib.h>
#include <string.h>

#include "test-exec.h"
#include "test.h"

/* The SQL "zHead (zCol = v0 OR ...)" of n terms, the values v*7 % nMod,
** alternating with zOther = v % 11 where zOther is set (a second column). */
static char *chain_sql(const char *zHead, const char *zCol, const char *zOther, const char *zJoin,
                       const char *zOp, int n, int nMod, int bString) {
  strbuf s;
  strbuf_init(&s);
  strbuf_printf(&s, "%s(", zHead);
  for (int i = 0; i < n; i++) {
    const char *z = zOther != NULL && i % 2 ? zOther : zCol;
    int v = z == zCol ? i * 7 % nMod : i % 11;
    if (i > 0) strbuf_printf(&s, " %s ", zJoin);
    if (bString) strbuf_printf(&s, "%s %s 'N%d'", z, zOp, v);
    else strbuf_printf(&s, "%s %s %d", z, zOp, v);
  }
  strbuf_puts(&s, bString ? " OR c_nation = 'PERU')" : ")");
  ASSERT(!strbuf_error(&s));
  return strbuf_take(&s);
}

/* The same condition as IN lists. */
static char *chain_in_sql(const char *zHead, const char *zCol, const char *zOther, int bNot, int n,
                          int nMod, int bString) {
  strbuf s;
  strbuf_init(&s);
  strbuf_printf(&s, "%s(%s %sIN (", zHead, zCol, bNot ? "NOT " : "");
  for (int i = 0, k = 0; i < n; i++) {
    if (zOther != NULL && i % 2) continue;
    if (bString) strbuf_printf(&s, "%s'N%d'", k++ ? ", " : "", i * 7 % nMod);
    else strbuf_printf(&s, "%s%d", k++ ? ", " : "", i * 7 % nMod);
  }
  strbuf_puts(&s, ")");
  if (zOther != NULL) {
    strbuf_printf(&s, " OR %s IN (", zOther);
    for (int i = 0; i < 11; i++) strbuf_printf(&s, "%s%d", i ? ", " : "", i);
    strbuf_puts(&s, ")");
  }
  if (bString) strbuf_puts(&s, " OR c_nation = 'PERU'");
  strbuf_puts(&s, ")");
  ASSERT(!strbuf_error(&s));
  return strbuf_take(&s);
}

/* Runs zSql and fails unless its result dumps as zWant's does. */
static void chain_same(exectest *t, const char *zSql, const char *zWant) {
  exec_result a, b;
  sql_error e;
  char *zA, *zB;
  memset(&e, 0, sizeof(e));
  if (exectest_exec(t, zSql, &a, &e) != 0) FAIL("%s: %s", e.zState, e.zMsg);
  if (exectest_exec(t, zWant, &b, &e) != 0) FAIL("%s: %s", e.zState, e.zMsg);
  zA = exectest_result_dump(&a);
  zB = exectest_result_dump(&b);
  ASSERT_STR_EQ(zA, zB);
  free(zA);
  free(zB);
  exec_result_free(&a);
  exec_result_free(&b);
}

static void chain_case(exectest *t, const char *zHead, const char *zCol, const char *zOther, int bAnd,
                       int nMod, int bString) {
  char *zChain = chain_sql(zHead, zCol, zOther, bAnd ? "AND" : "OR", bAnd ? "<>" : "=", 10000, nMod,
                           bString);
  char *zIn = chain_in_sql(zHead, zCol, zOther, bAnd, 10000, nMod, bString);
  exectest_check(t, zIn, 0);
  chain_same(t, zChain, zIn);
  free(zChain);
  free(zIn);
}

static void chain_all(exectest *t) {
  const char *zLo = "SELECT count(*), sum(lo_revenue) FROM lineorder WHERE ";
  chain_case(t, zLo, "lo_quantity", NULL, 0, 45, 0);
  chain_case(t, zLo, "lo_orderkey", "lo_discount", 0, 70000, 0);
  chain_case(t, zLo, "lo_quantity", NULL, 1, 40, 0);
  chain_case(t, "SELECT count(*) FROM customer WHERE ", "c_nation", NULL, 0, 20000, 1);
}

TEST_IMPL(exec_long_chains) {
  static exec_options oGeneric;
  exectest t;
  exectest_open(&t, "0.01");
  chain_all(&t);
  oGeneric.eGeneric = EXEC_GENERIC_ALWAYS;
  t.pOpt = &oGeneric;
  chain_all(&t);
  ASSERT(t.last.bGeneric);
  exectest_close(&t);
  return 0;
}
