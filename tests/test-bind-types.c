/*
** tests/test-bind-types.c — the binder's typing rules (planner/bind.h):
** arithmetic across every numeric type, the aggregates' result types, and
** predicates (literals read as dates or numbers, CASE, CAST, LIKE, IN).
*/
#include "test.h"
#include "test-bind.h"

/* ---- typing ------------------------------------------------------------------ */

TEST_IMPL(bind_types_arith) {
  static const struct { const char *zExpr, *zType; } a[] = {
    /* integers widen to the wider operand; / and % stay integers */
    {"s + s", "SMALLINT"}, {"s * s", "SMALLINT"}, {"s + i", "INTEGER"}, {"i - s", "INTEGER"},
    {"i * b", "BIGINT"}, {"b / s", "BIGINT"}, {"i / i", "INTEGER"}, {"i % s", "INTEGER"},
    {"s % s", "SMALLINT"}, {"-s", "SMALLINT"}, {"+b", "BIGINT"},
    /* integers with DECIMAL(15,2) m and DECIMAL(10,4) m4 */
    {"m + i", "DECIMAL(16,2)"}, {"i + m", "DECIMAL(16,2)"}, {"m - s", "DECIMAL(16,2)"},
    {"m + m", "DECIMAL(16,2)"}, {"m - m4", "DECIMAL(18,4)"}, {"m4 + s", "DECIMAL(11,4)"},
    {"m * m", "DECIMAL(18,4)"}, {"m * i", "DECIMAL(18,2)"}, {"m4 * m4", "DECIMAL(18,8)"},
    {"m4 * s", "DECIMAL(15,4)"}, {"m / i", "DECIMAL(18,6)"}, {"m4 / m4", "DECIMAL(16,6)"},
    {"b + m", "DECIMAL(18,2)"}, {"m % i", "DECIMAL(12,2)"}, {"-m", "DECIMAL(15,2)"},
    {"m4 * m4 * m4 * m4", "DECIMAL(18,16)"},
    /* DOUBLE wins */
    {"d + i", "DOUBLE PRECISION"}, {"m * d", "DOUBLE PRECISION"}, {"d / b", "DOUBLE PRECISION"},
    {"1.5 * d", "DOUBLE PRECISION"},
    /* literals */
    {"1", "INTEGER"}, {"2147483647", "INTEGER"}, {"2147483648", "BIGINT"},
    {"9223372036854775807", "BIGINT"}, {"-9223372036854775808", "BIGINT"},
    {"00000000000000000000042", "INTEGER"}, {"1.5", "DECIMAL(2,1)"}, {"1.50", "DECIMAL(3,2)"},
    {"0.05", "DECIMAL(2,2)"}, {"1e3", "DECIMAL(4,0)"}, {"1.5e-3", "DECIMAL(4,4)"},
    {"12345678901234567.0", "DECIMAL(18,1)"},
    {"1 + 1", "INTEGER"}, {"1 + 2147483648", "BIGINT"}, {"i + 1.5", "DECIMAL(12,1)"},
    {"7 / 2", "INTEGER"}, {"7 % 2", "INTEGER"}, {"7.0 / 2", "DECIMAL(7,6)"},
    /* dates */
    {"dt + 1", "DATE"}, {"1 + dt", "DATE"}, {"dt - 1", "DATE"}, {"dt - dt", "INTEGER"},
    {"dt - '1997-01-01'", "INTEGER"}, {"dt + s", "DATE"}, {"DATE '1997-02-28'", "DATE"},
    /* unknown literals take the other side's type */
    {"i + '5'", "INTEGER"}, {"b * '-5'", "BIGINT"}, {"m + '1.25'", "DECIMAL(16,2)"},
    {"NULL + i", "INTEGER"}, {"NULL", "UNKNOWN"}, {"'x'", "TEXT"},
  };
  cat *pCat = bindtest_cat_open();
  for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) bindtest_expr_type(pCat, a[i].zExpr, "t_all", a[i].zType);
  cat_close(pCat);
  return 0;
}

TEST_IMPL(bind_types_agg) {
  static const struct { const char *zExpr, *zType; } a[] = {
    {"sum(s)", "BIGINT"}, {"sum(i)", "BIGINT"}, {"sum(b)", "BIGINT"},
    {"sum(m)", "DECIMAL(18,2)"}, {"sum(m4)", "DECIMAL(18,4)"}, {"sum(d)", "DOUBLE PRECISION"},
    {"sum(i * m)", "DECIMAL(18,2)"}, {"sum(DISTINCT i)", "BIGINT"},
    {"avg(s)", "DOUBLE PRECISION"}, {"avg(b)", "DOUBLE PRECISION"},
    {"avg(m)", "DOUBLE PRECISION"}, {"avg(d)", "DOUBLE PRECISION"},
    {"count(*)", "BIGINT"}, {"count(v)", "BIGINT"}, {"count(DISTINCT v)", "BIGINT"},
    {"count(NULL)", "BIGINT"}, {"count('x')", "BIGINT"}, {"count(dt)", "BIGINT"},
    {"min(v)", "VARCHAR(20)"}, {"max(c)", "CHAR(10)"}, {"min(x)", "TEXT"},
    {"max(dt)", "DATE"}, {"min(m)", "DECIMAL(15,2)"}, {"max(s)", "SMALLINT"},
    {"max(d)", "DOUBLE PRECISION"},
    {"sum(i) + 1", "BIGINT"}, {"sum(i) / count(*)", "BIGINT"}, {"sum(m) * 2", "DECIMAL(18,2)"},
    {"avg(i) + sum(i)", "DOUBLE PRECISION"},
  };
  cat *pCat = bindtest_cat_open();
  arena ar;
  bound_select b;

  for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) bindtest_expr_type(pCat, a[i].zExpr, "t_all", a[i].zType);

  /* Every call is listed once; equal calls share their slot. */
  arena_init(&ar);
  bindtest_ok(pCat, "SELECT sum(i), count(*), sum(i) + 1, avg(m), count(DISTINCT v), count(v) FROM t_all"
              " HAVING sum(i) > 0 ORDER BY max(dt)", &ar, &b);
  ASSERT_EQ(b.nAgg, 6);
  ASSERT_EQ(b.bAggregate, 1);
  ASSERT_EQ(b.pItems->a[0].pExpr->b.iAgg, 0);
  ASSERT_EQ(b.pItems->a[2].pExpr->pLeft->b.iAgg, 0);
  ASSERT_EQ(b.pItems->a[2].pExpr->b.iAgg, -1);
  ASSERT_EQ(b.pItems->a[2].pExpr->b.bHasAgg, 1);
  ASSERT_EQ(b.pSelect->pHaving->pLeft->b.iAgg, 0);
  ASSERT_EQ(b.pItems->a[4].pExpr->b.iAgg, 3);
  ASSERT_EQ(b.pItems->a[5].pExpr->b.iAgg, 4);             /* DISTINCT tells them apart */
  ASSERT_STR_EQ(b.apAgg[5]->zName, "max");
  ASSERT_EQ(b.apAgg[1]->bStar, 1);
  for (int i = 0; i < b.nAgg; i++) ASSERT_EQ(b.apAgg[i]->b.iAgg, i);
  bind_select_free(&b);
  arena_free(&ar);

  /* HAVING alone makes a query aggregate; a plain one is not. */
  arena_init(&ar);
  bindtest_ok(pCat, "SELECT 1 FROM t_all HAVING 1 = 1", &ar, &b);
  ASSERT_EQ(b.bAggregate, 1);
  ASSERT_EQ(b.nAgg, 0);
  bind_select_free(&b);
  bindtest_ok(pCat, "SELECT i FROM t_all", &ar, &b);
  ASSERT_EQ(b.bAggregate, 0);
  bind_select_free(&b);
  arena_free(&ar);
  cat_close(pCat);
  return 0;
}

/* Comparisons, predicates, CASE and CAST; string literals read as dates,
** numbers and booleans where their context says so. */
TEST_IMPL(bind_types_predicates) {
  static const struct { const char *zExpr, *zType; } a[] = {
    {"i = b", "BOOLEAN"}, {"m < d", "BOOLEAN"}, {"s <> m4", "BOOLEAN"}, {"v = c", "BOOLEAN"},
    {"x >= v", "BOOLEAN"}, {"dt = dt", "BOOLEAN"}, {"(i = 1) = true", "BOOLEAN"},
    {"'a' = 'b'", "BOOLEAN"}, {"NULL = NULL", "BOOLEAN"}, {"i = NULL", "BOOLEAN"},
    {"i IS NULL", "BOOLEAN"}, {"NULL IS NOT NULL", "BOOLEAN"}, {"v LIKE 'a%'", "BOOLEAN"},
    {"'abc' NOT LIKE x", "BOOLEAN"}, {"i BETWEEN 1 AND 2.5", "BOOLEAN"},
    {"i NOT IN (1, 2, 3)", "BOOLEAN"}, {"v IN ('a', 'b')", "BOOLEAN"},
    {"NOT (i > 1 AND true OR 't')", "BOOLEAN"},
    /* CASE unifies its results, the ELSE first */
    {"CASE WHEN i > 0 THEN s ELSE i END", "INTEGER"},
    {"CASE WHEN i > 0 THEN i ELSE m END", "DECIMAL(15,2)"},
    {"CASE WHEN i > 0 THEN m4 ELSE m END", "DECIMAL(17,4)"},
    {"CASE WHEN i > 0 THEN b WHEN false THEN d END", "DOUBLE PRECISION"},
    {"CASE WHEN i > 0 THEN v ELSE c END", "TEXT"},
    {"CASE WHEN i > 0 THEN v ELSE v END", "VARCHAR(20)"},
    {"CASE WHEN i > 0 THEN 'a' ELSE NULL END", "TEXT"},
    {"CASE WHEN i > 0 THEN 1 ELSE NULL END", "INTEGER"},
    {"CASE WHEN i > 0 THEN 1 ELSE '7' END", "INTEGER"},
    {"CASE WHEN i > 0 THEN dt ELSE '1997-01-01' END", "DATE"},
    {"CASE i WHEN 1 THEN 'one' WHEN 2 THEN 'two' END", "TEXT"},
    {"CASE v WHEN 'a' THEN 1 END", "INTEGER"},
    /* CAST: numbers among themselves, to and from text, bool and integer */
    {"CAST(i AS BIGINT)", "BIGINT"}, {"CAST(m AS INTEGER)", "INTEGER"},
    {"CAST(d AS DECIMAL(10,2))", "DECIMAL(10,2)"}, {"CAST(v AS INTEGER)", "INTEGER"},
    {"CAST(dt AS TEXT)", "TEXT"}, {"CAST(x AS DATE)", "DATE"}, {"CAST(i AS VARCHAR(5))", "VARCHAR(5)"},
    {"CAST('5' AS SMALLINT)", "SMALLINT"}, {"CAST(true AS INTEGER)", "INTEGER"},
    {"CAST(i AS BOOLEAN)", "BOOLEAN"}, {"CAST(NULL AS DATE)", "DATE"}, {"i::TEXT", "TEXT"},
    {"'1997-12-31'::DATE", "DATE"}, {"CAST('1.25' AS DECIMAL(5,2))", "DECIMAL(5,2)"},
  };
  cat *pCat = bindtest_cat_open();
  arena ar;
  bound_select b;
  const sql_expr *e;

  for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) bindtest_expr_type(pCat, a[i].zExpr, "t_all", a[i].zType);

  /* String literals next to a DATE become DATE literals, written
  ** canonically; next to numbers, numbers; in boolean context, booleans. */
  arena_init(&ar);
  bindtest_ok(pCat, "SELECT 1 FROM t_all WHERE dt = '1997-1-5' AND dt BETWEEN '19970101' AND ' 1997/12/31 '"
              " AND dt IN ('2000-02-29', DATE '1999-12-31') AND i = '-42' AND m = '1.234'"
              " AND d = '1e5' AND 'yes'", &ar, &b);
  {
    const sql_expr *c[8];
    ASSERT_EQ(bindtest_conjuncts(b.pSelect->pWhere, c, 8), 7);
    ASSERT_EQ(c[6]->eKind, SQL_EXPR_BOOL);                           /* 'yes' */
    ASSERT_EQ(c[6]->bValue, 1);
    ASSERT_EQ(c[5]->pRight->b.type.eId, COLTYPE_DOUBLE);            /* d = '1e5' */
    ASSERT_EQ(c[4]->pRight->eKind, SQL_EXPR_DECIMAL);               /* m = '1.234' */
    ASSERT_STR_EQ(bindtest_type(c[4]->pRight->b.type), "DECIMAL(4,3)");
    ASSERT_EQ(c[3]->pRight->eKind, SQL_EXPR_INTEGER);               /* i = '-42' */
    ASSERT_STR_EQ(c[3]->pRight->zText, "-42");
    ASSERT_EQ(c[3]->pRight->b.type.eId, COLTYPE_INTEGER);
    ASSERT_EQ(c[2]->eKind, SQL_EXPR_IN);
    ASSERT_STR_EQ(c[2]->pList->a[0].pExpr->zText, "2000-02-29");
    ASSERT_EQ(c[2]->pList->a[0].pExpr->eKind, SQL_EXPR_DATE);
    ASSERT_STR_EQ(c[2]->pList->a[1].pExpr->zText, "1999-12-31");
    ASSERT_EQ(c[1]->eKind, SQL_EXPR_BETWEEN);
    ASSERT_STR_EQ(c[1]->pList->a[0].pExpr->zText, "1997-01-01");
    ASSERT_STR_EQ(c[1]->pList->a[1].pExpr->zText, "1997-12-31");
    ASSERT_EQ(c[1]->pList->a[1].pExpr->b.type.eId, COLTYPE_DATE);
    ASSERT_EQ(c[0]->pRight->eKind, SQL_EXPR_DATE);
    ASSERT_STR_EQ(c[0]->pRight->zText, "1997-01-05");
    e = c[0];
  }
  {
    /* The rewritten tree binds again to the same thing. */
    sql_select *pSel = b.pSelect;
    sql_error err;
    bind_select_free(&b);
    if (bind_select(pCat, pSel, &ar, &b, &err) != 0) FAIL("rebind: %s", err.zMsg);
    ASSERT_STR_EQ(e->pRight->zText, "1997-01-05");
    ASSERT_EQ(e->b.type.eId, COLTYPE_BOOLEAN);
  }
  bind_select_free(&b);
  bindtest_ok(pCat, "SELECT -9223372036854775808, d = 'NaN', d = '-Infinity', b = '-7' FROM t_all", &ar, &b);
  {
    sql_select *pSel = b.pSelect;
    sql_error err;
    ASSERT_EQ(b.pItems->a[1].pExpr->pRight->b.type.eId, COLTYPE_DOUBLE);
    bind_select_free(&b);
    if (bind_select(pCat, pSel, &ar, &b, &err) != 0) FAIL("rebind: %s", err.zMsg);
    ASSERT_STR_EQ(b.pItems->a[0].pExpr->zText, "-9223372036854775808");
    ASSERT_EQ(b.pItems->a[0].pExpr->b.type.eId, COLTYPE_BIGINT);
    /* '-7' read as a BIGINT is now the literal -7, an INTEGER. */
    ASSERT_EQ(b.pItems->a[3].pExpr->pRight->b.type.eId, COLTYPE_INTEGER);
    ASSERT_EQ(b.pItems->a[3].pExpr->b.type.eId, COLTYPE_BOOLEAN);
  }
  bind_select_free(&b);

  /* A string compared with a string column stays a string literal. */
  bindtest_ok(pCat, "SELECT 1 FROM customer WHERE c_city = 'UNITED KI1'", &ar, &b);
  ASSERT_EQ(b.pSelect->pWhere->pRight->eKind, SQL_EXPR_STRING);
  ASSERT_STR_EQ(b.pSelect->pWhere->pRight->zText, "UNITED KI1");
  bind_select_free(&b);

  /* Constants: a division by a non-constant zero is left to run time. */
  bindtest_ok(pCat, "SELECT i / 0, 1 + 2 * 3, i + 1 FROM t_all", &ar, &b);
  ASSERT_EQ(b.pItems->a[0].pExpr->b.bConstant, 0);
  ASSERT_EQ(b.pItems->a[1].pExpr->b.bConstant, 1);
  ASSERT_EQ(b.pItems->a[2].pExpr->b.bConstant, 0);
  bind_select_free(&b);
  arena_free(&ar);
  cat_close(pCat);
  return 0;
}
