/*
** tests/test-bind-syntax.c — what the parser's new syntax binds already
** (the rest of it the binder refuses: test-bind-errors.c): schema public
** and quoted names, three-part column references, TABLE t, FETCH FIRST and
** OFFSET ... ROWS, count(ALL x), pg_catalog's aggregates and operators,
** every string spelling; and predicates of thousands of terms.
*/
#include <string.h>

#include "../common/strbuf.h"
#include "test-bind.h"
#include "test.h"

/* Returns zHead, then zRepeat n times with "%d" replaced by the index,
** then zTail (malloc'd). */
static char *bt_repeat(const char *zHead, const char *zRepeat, int n, const char *zTail) {
  strbuf s;
  char *z;
  strbuf_init(&s);
  strbuf_puts(&s, zHead);
  for (int i = 0; i < n; i++) strbuf_printf(&s, zRepeat, i);
  strbuf_puts(&s, zTail);
  z = strdup(strbuf_str(&s));
  ASSERT(z != NULL);
  strbuf_free(&s);
  return z;
}

/* What the new syntax binds already: schema public and quoted names,
** three-part columns, TABLE t, FETCH FIRST and OFFSET ... ROWS, count(ALL
** x), pg_catalog's aggregates and operators, every string spelling;
** and chains of thousands of ORs or ANDs and IN lists of ten thousand
** values, as flat as written and bound without deep recursion. */
TEST_IMPL(bind_new_syntax) {
  static const char *const azOk[] = {
    "select d_year from public.date",
    "select public.date.d_year, date.d_month, \"public\".\"date\".\"d_year\" from \"public\".\"date\"",
    "select public.date.* from public.date",
    "select d_year from date order by d_year fetch first 3 rows only offset 1 row",
    "select d_year from date fetch next row only",
    "select count(all d_year), pg_catalog.sum(d_year), pg_catalog.count(*) from date",
    "select 1 operator(pg_catalog.+) 2, d_year from date where d_year operator(pg_catalog.=) 1",
    "select E'x\\ty', $$y$$, $t$z$t$ from date",
    "((select d_year from date))",
    "select d_year from date where d_year = 1 or d_year = 2 and not (d_year = 3 or d_year = 4)",
  };
  cat *pCat = bindtest_cat_open();
  arena a;
  bound_select b;
  char *z;

  arena_init(&a);
  for (size_t i = 0; i < sizeof(azOk) / sizeof(azOk[0]); i++) {
    bindtest_ok(pCat, azOk[i], &a, &b);
    bind_select_free(&b);
  }
  bindtest_ok(pCat, "table date", &a, &b);
  ASSERT_EQ(b.nSource, 1);
  ASSERT(b.nOutput > 10);
  bind_select_free(&b);
  bindtest_ok(pCat, "select public.date.d_year from public.date", &a, &b);
  ASSERT_EQ(b.pItems->a[0].pExpr->b.iSource, 0);
  ASSERT_EQ(b.pItems->a[0].pExpr->b.type.eId, COLTYPE_INTEGER);
  bind_select_free(&b);
  arena_free(&a);

  /* 5000 ORs, 5000 ANDs, 10000 values: the trees are about 2 log2 n deep. */
  arena_init(&a);
  z = bt_repeat("select count(*) from lineorder where lo_quantity = -1", " or lo_quantity = %d",
                5000, "");
  bindtest_ok(pCat, z, &a, &b);
  ASSERT(b.pSelect->pWhere->nHeight < 40);
  ASSERT_EQ(b.pSelect->pWhere->b.type.eId, COLTYPE_BOOLEAN);
  ASSERT_EQ(b.pSelect->pWhere->eKind, SQL_EXPR_IN);   /* bind_chain.c */
  bind_select_free(&b);
  free(z);
  z = bt_repeat("select count(*) from lineorder where lo_quantity > -1", " and lo_tax <> lo_quantity - %d",
                5000, "");
  bindtest_ok(pCat, z, &a, &b);
  {
    static const sql_expr *aConj[5001];
    ASSERT_EQ(bindtest_conjuncts(b.pSelect->pWhere, aConj, 5001), 5001);
    ASSERT_EQ(aConj[0]->eOp, SQL_OP_GT);
    ASSERT_STR_EQ(aConj[5000]->pRight->pRight->zText, "4999");
  }
  bind_select_free(&b);
  free(z);
  /* column <> literal terms: NOT IN lists (bind_chain.c), one for the
  ** whole chain when every term is one */
  z = bt_repeat("select count(*) from lineorder where lo_tax <> -1", " and lo_tax <> %d", 5000, "");
  bindtest_ok(pCat, z, &a, &b);
  ASSERT_EQ(b.pSelect->pWhere->eKind, SQL_EXPR_IN);
  ASSERT(b.pSelect->pWhere->bNot);
  ASSERT_EQ(b.pSelect->pWhere->pList->n, 5001);
  bind_select_free(&b);
  free(z);
  z = bt_repeat("select count(*) from lineorder where lo_quantity in (-1", ", %d", 10000, ")");
  bindtest_ok(pCat, z, &a, &b);
  ASSERT_EQ(b.pSelect->pWhere->pList->n, 10001);
  bind_select_free(&b);
  free(z);
  /* Real nesting to the parser's limit binds too. */
  z = bt_repeat("select ", "(1 + ", 998, "1");
  {
    char *zAll = bt_repeat(z, ")", 998, "");
    bindtest_ok(pCat, zAll, &a, &b);
    bind_select_free(&b);
    free(zAll);
  }
  free(z);
  arena_free(&a);
  cat_close(pCat);
  return 0;
}
