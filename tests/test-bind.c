/*
** tests/test-bind.c — the binder (planner/bind.h) on SELECTs that bind:
** the 13 SSB queries with their output names, types, aggregates and bound
** columns; the typing rules (arithmetic across every numeric type, the
** aggregates, literals read as dates or numbers, CASE, CAST: in
** test-bind-types.c); names,
** scopes, * expansion, GROUP BY / ORDER BY references and LIMIT; odd
** parse trees that must not crash; and the time parse + bind takes on
** each SSB query, printed for the log (no timed assertion).
**
** Statements that must fail are in test-bind-errors.c; CREATE TABLE and
** COPY in test-bind-ddl.c. The helpers here (bindtest_*, test-bind.h)
** serve all four.
*/
#include <time.h>

#include "../catalog/catalog.h"
#include "../parser/parser.h"
#include "../planner/bind.h"
#include "../ssb-data/schema.h"
#include "test.h"

#include "test-bind.h"

/* ---- helpers ----------------------------------------------------------------- */

static coltype bt_ty(coltype_id e, int nLength, int nPrecision, int nScale) {
  coltype t = {e, nLength, nPrecision, nScale};
  return t;
}

static void bt_table(cat *pCat, cat_table *t) {
  char zErr[512];
  if (cat_table_create(pCat, t, zErr, sizeof(zErr)) != 0) FAIL("create %s: %s", t->zName, zErr);
  cat_table_free(t);
}

static void bt_col(cat_table *t, const char *zName, coltype type, int bNotNull) {
  char zErr[512];
  if (cat_table_add_column(t, zName, type, bNotNull, zErr, sizeof(zErr)) != 0) {
    FAIL("add %s: %s", zName, zErr);
  }
}

/* Opens ./data with the SSB tables and three of our own:
**   t_all  (id INTEGER PRIMARY KEY, s SMALLINT, i INTEGER, b BIGINT,
**           d DOUBLE, m DECIMAL(15,2), m4 DECIMAL(10,4), dt DATE,
**           c CHAR(10), v VARCHAR(20), x TEXT)  every column but id nullable
**   t_two  (id INTEGER PRIMARY KEY, i INTEGER, v VARCHAR(20),
**           all_id INTEGER REFERENCES t_all)
**   t_comp (k1 INTEGER, k2 BIGINT, val INTEGER, PRIMARY KEY (k1, k2)) */
cat *bindtest_cat_open(void) {
  static const char *const azId[] = {"id"}, *const azComp[] = {"k1", "k2"};
  static const char *const azAllId[] = {"all_id"};
  char zErr[512];
  cat *pCat;
  cat_table *t;

  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("cat_open: %s", zErr);
  if (ssb_schema_create(pCat, zErr, sizeof(zErr)) != 0) FAIL("ssb_schema_create: %s", zErr);

  t = cat_table_new("t_all");
  bt_col(t, "id", bt_ty(COLTYPE_INTEGER, 0, 0, 0), 1);
  bt_col(t, "s", bt_ty(COLTYPE_SMALLINT, 0, 0, 0), 0);
  bt_col(t, "i", bt_ty(COLTYPE_INTEGER, 0, 0, 0), 0);
  bt_col(t, "b", bt_ty(COLTYPE_BIGINT, 0, 0, 0), 0);
  bt_col(t, "d", bt_ty(COLTYPE_DOUBLE, 0, 0, 0), 0);
  bt_col(t, "m", bt_ty(COLTYPE_DECIMAL, 0, 15, 2), 0);
  bt_col(t, "m4", bt_ty(COLTYPE_DECIMAL, 0, 10, 4), 0);
  bt_col(t, "dt", bt_ty(COLTYPE_DATE, 0, 0, 0), 0);
  bt_col(t, "c", bt_ty(COLTYPE_CHAR, 10, 0, 0), 0);
  bt_col(t, "v", bt_ty(COLTYPE_VARCHAR, 20, 0, 0), 0);
  bt_col(t, "x", bt_ty(COLTYPE_TEXT, 0, 0, 0), 0);
  if (cat_table_set_pkey(t, 1, azId, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  bt_table(pCat, t);

  t = cat_table_new("t_two");
  bt_col(t, "id", bt_ty(COLTYPE_INTEGER, 0, 0, 0), 1);
  bt_col(t, "i", bt_ty(COLTYPE_INTEGER, 0, 0, 0), 0);
  bt_col(t, "v", bt_ty(COLTYPE_VARCHAR, 20, 0, 0), 0);
  bt_col(t, "all_id", bt_ty(COLTYPE_INTEGER, 0, 0, 0), 0);
  if (cat_table_set_pkey(t, 1, azId, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  if (cat_table_add_fkey(t, 1, azAllId, "t_all", azId, zErr, sizeof(zErr)) != 0) {
    FAIL("%s", zErr);
  }
  bt_table(pCat, t);

  t = cat_table_new("t_comp");
  bt_col(t, "k1", bt_ty(COLTYPE_INTEGER, 0, 0, 0), 1);
  bt_col(t, "k2", bt_ty(COLTYPE_BIGINT, 0, 0, 0), 1);
  bt_col(t, "val", bt_ty(COLTYPE_INTEGER, 0, 0, 0), 0);
  if (cat_table_set_pkey(t, 2, azComp, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  bt_table(pCat, t);
  return pCat;
}

/* Parses zSql, which must be one statement, and returns it. */
sql_stmt *bindtest_parse(const char *zSql, arena *pArena) {
  sql_script s;
  sql_error e;
  sql_error_clear(&e);
  if (sql_parse(zSql, pArena, &s, &e) != 0) {
    FAIL("parse of [%s] failed: %s %s at %d", zSql, e.zState, e.zMsg,
         sql_error_position(zSql, e.iOffset));
  }
  if (s.nStmt != 1) FAIL("[%s] is %d statements", zSql, s.nStmt);
  return s.apStmt[0];
}

/* Parses a SELECT (or EXPLAIN SELECT) and binds it. Returns bind_select's
** result; the caller calls bind_select_free() either way. */
int bindtest_select(cat *pCat, const char *zSql, arena *pArena, bound_select *pOut,
                    sql_error *pErr) {
  sql_stmt *p = bindtest_parse(zSql, pArena);
  if (p->eKind == SQL_STMT_EXPLAIN) p = p->pExplain;
  if (p == NULL || p->eKind != SQL_STMT_SELECT) FAIL("[%s] is not a SELECT", zSql);
  return bind_select(pCat, p->pSelect, pArena, pOut, pErr);
}

/* Returns coltype_format(t) in a static buffer (one of several, so a few
** may be used in one expression). */
const char *bindtest_type(coltype t) {
  static char az[8][64];
  static int i;
  char *z = az[i++ & 7];
  return coltype_format(t, z, 64);
}

/* Binds zSql, which must succeed. */
void bindtest_ok(cat *pCat, const char *zSql, arena *pArena, bound_select *pOut) {
  sql_error e;
  if (bindtest_select(pCat, zSql, pArena, pOut, &e) != 0) {
    FAIL("bind of [%s] failed: %s %s at %d", zSql, e.zState, e.zMsg,
         sql_error_position(zSql, e.iOffset));
  }
}

/* Binds "SELECT zExpr FROM zFrom" and asserts the type of the expression
** (not of the output column: a bare NULL stays UNKNOWN there). */
void bindtest_expr_type(cat *pCat, const char *zExpr, const char *zFrom, const char *zWant) {
  char zSql[512];
  arena a;
  bound_select b;
  arena_init(&a);
  snprintf(zSql, sizeof(zSql), "SELECT %s%s%s", zExpr, zFrom ? " FROM " : "", zFrom ? zFrom : "");
  bindtest_ok(pCat, zSql, &a, &b);
  if (strcmp(bindtest_type(b.pItems->a[0].pExpr->b.type), zWant) != 0) {
    FAIL("[%s]: type %s, want %s", zSql, bindtest_type(b.pItems->a[0].pExpr->b.type), zWant);
  }
  bind_select_free(&b);
  arena_free(&a);
}

/* Asserts output column i's name and type. */
static void bt_output(const bound_select *b, int i, const char *zName, const char *zType) {
  ASSERT_LT(i, b->nOutput);
  ASSERT_STR_EQ(b->aOutput[i].zName, zName);
  ASSERT_STR_EQ(bindtest_type(b->aOutput[i].type), zType);
}

/* Asserts that e is a column reference to zTable.zColumn. */
static void bt_column(const bound_select *b, const sql_expr *e, const char *zTable,
                      const char *zColumn) {
  ASSERT(e != NULL);
  ASSERT_EQ(e->eKind, SQL_EXPR_COLUMN);
  ASSERT(e->b.iSource >= 0 && e->b.iSource < b->nSource);
  ASSERT_STR_EQ(b->aSource[e->b.iSource].pTable->zName, zTable);
  ASSERT_STR_EQ(b->aSource[e->b.iSource].pTable->aCol[e->b.iColumn].zName, zColumn);
  ASSERT_EQ(e->b.bConstant, 0);
}

static char *bt_query(const char *zName) {
  char zRel[64];
  snprintf(zRel, sizeof(zRel), "ssb-data/queries/%s.sql", zName);
  return test_file_read(test_src(zRel), NULL);
}

/* ---- SSB --------------------------------------------------------------------- */

/* What each SSB query binds to: its FROM tables, its output columns, and
** its GROUP BY and ORDER BY columns ("=revenue": the select item). */
typedef struct bt_ssb bt_ssb;
struct bt_ssb {
  const char *zName;
  const char *azFrom[6];
  const char *azOut[5];          /* "name:TYPE" */
  const char *azGroup[4];        /* "table.column" */
  const char *azOrder[4];        /* "table.column", or "=N" for select item N, "-" DESC */
};

static const bt_ssb bt_aSsb[] = {
  {"q1.1", {"lineorder", "date"}, {"revenue:BIGINT"}, {0}, {0}},
  {"q1.2", {"lineorder", "date"}, {"revenue:BIGINT"}, {0}, {0}},
  {"q1.3", {"lineorder", "date"}, {"revenue:BIGINT"}, {0}, {0}},
  {"q2.1", {"lineorder", "date", "part", "supplier"},
   {"sum:BIGINT", "d_year:INTEGER", "p_brand1:VARCHAR(9)"},
   {"date.d_year", "part.p_brand1"}, {"=1", "=2"}},
  {"q2.2", {"lineorder", "date", "part", "supplier"},
   {"sum:BIGINT", "d_year:INTEGER", "p_brand1:VARCHAR(9)"},
   {"date.d_year", "part.p_brand1"}, {"=1", "=2"}},
  {"q2.3", {"lineorder", "date", "part", "supplier"},
   {"sum:BIGINT", "d_year:INTEGER", "p_brand1:VARCHAR(9)"},
   {"date.d_year", "part.p_brand1"}, {"=1", "=2"}},
  {"q3.1", {"customer", "lineorder", "supplier", "date"},
   {"c_nation:VARCHAR(15)", "s_nation:VARCHAR(15)", "d_year:INTEGER", "revenue:BIGINT"},
   {"customer.c_nation", "supplier.s_nation", "date.d_year"}, {"=2", "-=3"}},
  {"q3.2", {"customer", "lineorder", "supplier", "date"},
   {"c_city:CHAR(10)", "s_city:CHAR(10)", "d_year:INTEGER", "revenue:BIGINT"},
   {"customer.c_city", "supplier.s_city", "date.d_year"}, {"=2", "-=3"}},
  {"q3.3", {"customer", "lineorder", "supplier", "date"},
   {"c_city:CHAR(10)", "s_city:CHAR(10)", "d_year:INTEGER", "revenue:BIGINT"},
   {"customer.c_city", "supplier.s_city", "date.d_year"}, {"=2", "-=3"}},
  {"q3.4", {"customer", "lineorder", "supplier", "date"},
   {"c_city:CHAR(10)", "s_city:CHAR(10)", "d_year:INTEGER", "revenue:BIGINT"},
   {"customer.c_city", "supplier.s_city", "date.d_year"}, {"=2", "-=3"}},
  {"q4.1", {"date", "customer", "supplier", "part", "lineorder"},
   {"d_year:INTEGER", "c_nation:VARCHAR(15)", "profit:BIGINT"},
   {"date.d_year", "customer.c_nation"}, {"=0", "=1"}},
  {"q4.2", {"date", "customer", "supplier", "part", "lineorder"},
   {"d_year:INTEGER", "s_nation:VARCHAR(15)", "p_category:CHAR(7)", "profit:BIGINT"},
   {"date.d_year", "supplier.s_nation", "part.p_category"}, {"=0", "=1", "=2"}},
  {"q4.3", {"date", "customer", "supplier", "part", "lineorder"},
   {"d_year:INTEGER", "s_city:CHAR(10)", "p_brand1:VARCHAR(9)", "profit:BIGINT"},
   {"date.d_year", "supplier.s_city", "part.p_brand1"}, {"=0", "=1", "=2"}},
};
#define BT_NSSB ((int)(sizeof(bt_aSsb) / sizeof(bt_aSsb[0])))

/* Asserts that e refers to "table.column". */
static void bt_column_named(const bound_select *b, const sql_expr *e, const char *zQualified) {
  char zTable[64];
  const char *zDot = strchr(zQualified, '.');
  ASSERT(zDot != NULL);
  snprintf(zTable, sizeof(zTable), "%.*s", (int)(zDot - zQualified), zQualified);
  bt_column(b, e, zTable, zDot + 1);
}

/* Checks the WHERE of an SSB query: every comparison typed BOOLEAN over
** bound columns, the joins comparing the same types, the string literals
** left as strings. */
static void bt_ssb_where(const bound_select *b, const sql_expr *e) {
  ASSERT(e != NULL);
  ASSERT_EQ(e->b.type.eId, COLTYPE_BOOLEAN);
  ASSERT_EQ(e->b.bHasAgg, 0);
  if (e->eKind == SQL_EXPR_BINARY && (e->eOp == SQL_OP_AND || e->eOp == SQL_OP_OR)) {
    bt_ssb_where(b, e->pLeft);
    bt_ssb_where(b, e->pRight);
    return;
  }
  ASSERT(e->eKind == SQL_EXPR_BINARY || e->eKind == SQL_EXPR_BETWEEN);
  ASSERT_EQ(e->pLeft->eKind, SQL_EXPR_COLUMN);
  ASSERT(e->pLeft->b.iSource >= 0);
  if (e->eKind == SQL_EXPR_BINARY && e->pRight->eKind == SQL_EXPR_COLUMN) {
    ASSERT_STR_EQ(bindtest_type(e->pLeft->b.type), bindtest_type(e->pRight->b.type));
  } else if (e->eKind == SQL_EXPR_BINARY && e->pRight->eKind == SQL_EXPR_STRING) {
    ASSERT_EQ(coltype_is_string(e->pLeft->b.type), 1);
  }
}

TEST_IMPL(bind_ssb_queries) {
  cat *pCat = bindtest_cat_open();
  for (int q = 0; q < BT_NSSB; q++) {
    const bt_ssb *w = &bt_aSsb[q];
    char *zSql = bt_query(w->zName);
    sql_select *pSel;
    arena a;
    bound_select b;
    int nFrom = 0, nOut = 0, nGroup = 0, nOrder = 0;

    arena_init(&a);
    bindtest_ok(pCat, zSql, &a, &b);
    pSel = b.pSelect;
    while (nFrom < 6 && w->azFrom[nFrom]) nFrom++;
    while (nOut < 5 && w->azOut[nOut]) nOut++;
    while (nGroup < 4 && w->azGroup[nGroup]) nGroup++;
    while (nOrder < 4 && w->azOrder[nOrder]) nOrder++;

    ASSERT_EQ(b.nSource, nFrom);
    for (int i = 0; i < nFrom; i++) {
      ASSERT_STR_EQ(b.aSource[i].pTable->zName, w->azFrom[i]);
      ASSERT_STR_EQ(b.aSource[i].zAlias, w->azFrom[i]);
    }
    ASSERT_EQ(b.nOutput, nOut);
    ASSERT_EQ(b.pItems->n, nOut);
    for (int i = 0; i < nOut; i++) {
      char zName[64];
      const char *zColon = strchr(w->azOut[i], ':');
      snprintf(zName, sizeof(zName), "%.*s", (int)(zColon - w->azOut[i]), w->azOut[i]);
      bt_output(&b, i, zName, zColon + 1);
    }
    /* One SUM each, over an integer expression, and nothing else. */
    ASSERT_EQ(b.bAggregate, 1);
    ASSERT_EQ(b.nAgg, 1);
    ASSERT_STR_EQ(b.apAgg[0]->zName, "sum");
    ASSERT_EQ(b.apAgg[0]->b.iAgg, 0);
    ASSERT_EQ(b.apAgg[0]->b.type.eId, COLTYPE_BIGINT);
    ASSERT_EQ(b.apAgg[0]->pList->a[0].pExpr->b.type.eId, COLTYPE_INTEGER);
    ASSERT_EQ(b.nLimit, -1);
    ASSERT_EQ(b.nOffset, 0);
    bt_ssb_where(&b, pSel->pWhere);

    ASSERT_EQ(pSel->pGroupBy ? pSel->pGroupBy->n : 0, nGroup);
    for (int i = 0; i < nGroup; i++) bt_column_named(&b, pSel->pGroupBy->a[i].pExpr, w->azGroup[i]);
    ASSERT_EQ(pSel->pOrderBy ? pSel->pOrderBy->n : 0, nOrder);
    for (int i = 0; i < nOrder; i++) {
      const char *z = w->azOrder[i];
      int bDesc = z[0] == '-';
      if (bDesc) z++;
      ASSERT_EQ(pSel->pOrderBy->a[i].bDesc, bDesc);
      /* "revenue" and output names resolve to the select item itself. */
      ASSERT(pSel->pOrderBy->a[i].pExpr == b.pItems->a[atoi(z + 1)].pExpr);
    }
    bind_select_free(&b);
    arena_free(&a);
    free(zSql);
  }
  cat_close(pCat);
  return 0;
}

int bindtest_conjuncts(const sql_expr *e, const sql_expr **a, int nMax) {
  int n;
  if (e->eKind == SQL_EXPR_BINARY && e->eOp == SQL_OP_AND) {
    n = bindtest_conjuncts(e->pLeft, a, nMax);
    return n + bindtest_conjuncts(e->pRight, a + n, nMax - n);
  }
  ASSERT(nMax > 0);
  a[0] = e;
  return 1;
}

/* The join predicates of Q1.1 and its literals, one by one. */
TEST_IMPL(bind_ssb_q11_detail) {
  cat *pCat = bindtest_cat_open();
  char *zSql = bt_query("q1.1");
  arena a;
  bound_select b;
  const sql_expr *aConj[4], *e;

  arena_init(&a);
  bindtest_ok(pCat, zSql, &a, &b);
  /* lo_orderdate = d_datekey AND d_year = 1993 AND lo_discount BETWEEN 1
  ** AND 3 AND lo_quantity < 25 */
  ASSERT_EQ(bindtest_conjuncts(b.pSelect->pWhere, aConj, 4), 4);
  e = aConj[3];
  ASSERT_EQ(e->eOp, SQL_OP_LT);
  bt_column(&b, e->pLeft, "lineorder", "lo_quantity");
  ASSERT_EQ(e->pRight->eKind, SQL_EXPR_INTEGER);
  ASSERT_EQ(e->pRight->b.type.eId, COLTYPE_INTEGER);
  ASSERT_EQ(e->pRight->b.bConstant, 1);
  e = aConj[2];
  ASSERT_EQ(e->eKind, SQL_EXPR_BETWEEN);
  bt_column(&b, e->pLeft, "lineorder", "lo_discount");
  e = aConj[0];
  bt_column(&b, e->pLeft, "lineorder", "lo_orderdate");
  bt_column(&b, e->pRight, "date", "d_datekey");
  ASSERT_EQ(e->pLeft->b.type.eId, COLTYPE_DATE);
  ASSERT_EQ(e->b.bConstant, 0);
  /* The aggregate's argument: lo_extendedprice * lo_discount. */
  e = b.pItems->a[0].pExpr;
  ASSERT(e == b.apAgg[0]);
  ASSERT_EQ(e->b.bHasAgg, 1);
  ASSERT_EQ(e->pList->a[0].pExpr->eOp, SQL_OP_MUL);
  bt_column(&b, e->pList->a[0].pExpr->pLeft, "lineorder", "lo_extendedprice");
  bind_select_free(&b);
  arena_free(&a);
  free(zSql);
  cat_close(pCat);
  return 0;
}

/* ---- names, scopes, output columns ------------------------------------------ */

TEST_IMPL(bind_output_names) {
  static const struct { const char *zExpr, *zName, *zType; } a[] = {
    {"i", "i", "INTEGER"}, {"i AS x", "x", "INTEGER"}, {"i y", "y", "INTEGER"},
    {"t_all.v", "v", "VARCHAR(20)"}, {"sum(i)", "sum", "BIGINT"}, {"count(*)", "count", "BIGINT"},
    {"avg(m)", "avg", "DOUBLE PRECISION"}, {"min(dt)", "min", "DATE"}, {"1", "?column?", "INTEGER"},
    {"i + 1", "?column?", "INTEGER"}, {"CAST(i AS BIGINT)", "i", "BIGINT"},
    {"i::TEXT", "i", "TEXT"}, {"1::INT", "int4", "INTEGER"}, {"CAST(1 AS BIGINT)", "int8", "BIGINT"},
    {"CAST(1 AS SMALLINT)", "int2", "SMALLINT"}, {"1::DOUBLE PRECISION", "float8", "DOUBLE PRECISION"},
    {"1::NUMERIC(5,2)", "numeric", "DECIMAL(5,2)"}, {"'a'::CHAR(3)", "bpchar", "CHAR(3)"},
    {"'a'::VARCHAR(3)", "varchar", "VARCHAR(3)"}, {"'a'::TEXT", "text", "TEXT"},
    {"'1997-01-01'::DATE", "date", "DATE"}, {"CASE WHEN true THEN 1 END", "case", "INTEGER"},
    {"CASE WHEN true THEN 1 ELSE i END", "i", "INTEGER"}, {"true", "bool", "BOOLEAN"},
    {"DATE '1997-01-01'", "date", "DATE"}, {"NULL", "?column?", "TEXT"},
    {"'abc'", "?column?", "TEXT"}, {"i = 1", "?column?", "BOOLEAN"}, {"-i", "?column?", "INTEGER"},
    {"\"i\"", "i", "INTEGER"},
  };
  cat *pCat = bindtest_cat_open();
  for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
    char zSql[256];
    arena ar;
    bound_select b;
    arena_init(&ar);
    snprintf(zSql, sizeof(zSql), "SELECT %s FROM t_all", a[i].zExpr);
    bindtest_ok(pCat, zSql, &ar, &b);
    ASSERT_EQ(b.nOutput, 1);
    if (strcmp(b.aOutput[0].zName, a[i].zName) != 0 ||
        strcmp(bindtest_type(b.aOutput[0].type), a[i].zType) != 0) {
      FAIL("[%s]: %s %s, want %s %s", zSql, b.aOutput[0].zName, bindtest_type(b.aOutput[0].type),
           a[i].zName, a[i].zType);
    }
    bind_select_free(&b);
    arena_free(&ar);
  }
  cat_close(pCat);
  return 0;
}

TEST_IMPL(bind_star) {
  cat *pCat = bindtest_cat_open();
  arena ar;
  bound_select b;

  arena_init(&ar);
  bindtest_ok(pCat, "SELECT * FROM t_two", &ar, &b);
  ASSERT_EQ(b.nOutput, 4);
  ASSERT(b.pItems != b.pSelect->pItems);
  bt_output(&b, 0, "id", "INTEGER");
  bt_output(&b, 2, "v", "VARCHAR(20)");
  bt_output(&b, 3, "all_id", "INTEGER");
  bt_column(&b, b.pItems->a[3].pExpr, "t_two", "all_id");
  bind_select_free(&b);

  /* Mixed with expressions, qualified by alias, both tables. */
  bindtest_ok(pCat, "SELECT a.i AS first, t.*, *, 7 FROM t_all a, t_two t", &ar, &b);
  ASSERT_EQ(b.nOutput, 1 + 4 + 11 + 4 + 1);
  bt_output(&b, 0, "first", "INTEGER");
  bt_output(&b, 1, "id", "INTEGER");
  bt_column(&b, b.pItems->a[1].pExpr, "t_two", "id");
  ASSERT_STR_EQ(b.pItems->a[1].pExpr->zTable, "t");
  bt_output(&b, 5, "id", "INTEGER");
  bt_column(&b, b.pItems->a[5].pExpr, "t_all", "id");
  bt_output(&b, 15, "x", "TEXT");
  bt_column(&b, b.pItems->a[16].pExpr, "t_two", "id");
  bt_output(&b, 20, "?column?", "INTEGER");
  ASSERT_EQ(b.pItems->n, 21);
  bind_select_free(&b);

  /* ORDER BY and GROUP BY ordinals count the expanded list. */
  bindtest_ok(pCat, "SELECT *, count(*) FROM t_comp GROUP BY 1, 2, 3 ORDER BY 4 DESC, 3", &ar, &b);
  ASSERT(b.pSelect->pOrderBy->a[0].pExpr == b.pItems->a[3].pExpr);
  ASSERT(b.pSelect->pGroupBy->a[2].pExpr == b.pItems->a[2].pExpr);
  bind_select_free(&b);
  arena_free(&ar);
  cat_close(pCat);
  return 0;
}

TEST_IMPL(bind_scopes) {
  cat *pCat = bindtest_cat_open();
  arena ar;
  bound_select b;
  const sql_expr *e;

  arena_init(&ar);
  /* Aliases, a self-join, qualified and unqualified names. */
  bindtest_ok(pCat, "SELECT x.i, y.i, all_id FROM t_all x JOIN t_all y ON x.id = y.id, t_two"
              " WHERE x.dt = y.dt AND t_two.id = x.id AND \"x\".\"b\" > 0", &ar, &b);
  ASSERT_EQ(b.nSource, 3);
  ASSERT_STR_EQ(b.aSource[0].zAlias, "x");
  ASSERT_STR_EQ(b.aSource[1].zAlias, "y");
  ASSERT_STR_EQ(b.aSource[2].zAlias, "t_two");
  ASSERT_EQ(b.pItems->a[0].pExpr->b.iSource, 0);
  ASSERT_EQ(b.pItems->a[1].pExpr->b.iSource, 1);
  bt_column(&b, b.pItems->a[2].pExpr, "t_two", "all_id");
  e = b.pSelect->pFrom->a[1].pOn;
  ASSERT_EQ(e->b.type.eId, COLTYPE_BOOLEAN);
  ASSERT_EQ(e->pLeft->b.iSource, 0);
  ASSERT_EQ(e->pRight->b.iSource, 1);
  bind_select_free(&b);

  /* ON sees the tables joined so far in its chain. */
  bindtest_ok(pCat, "SELECT count(*) FROM date JOIN lineorder ON lo_orderdate = d_datekey"
              " JOIN part ON lo_partkey = p_partkey AND d_year = 1997, customer"
              " WHERE lo_custkey = c_custkey", &ar, &b);
  ASSERT_EQ(b.nSource, 4);
  bind_select_free(&b);

  /* Names the catalog matches regardless of case. */
  bindtest_ok(pCat, "SELECT \"D_YEAR\" FROM \"DATE\"", &ar, &b);
  bt_column(&b, b.pItems->a[0].pExpr, "date", "d_year");
  bind_select_free(&b);

  /* ORDER BY prefers output names; GROUP BY prefers input columns. */
  bindtest_ok(pCat, "SELECT d_month AS d_year, d_year AS y FROM date ORDER BY d_year, y, d_yearmonth",
        &ar, &b);
  ASSERT(b.pSelect->pOrderBy->a[0].pExpr == b.pItems->a[0].pExpr);
  ASSERT(b.pSelect->pOrderBy->a[1].pExpr == b.pItems->a[1].pExpr);
  bt_column(&b, b.pSelect->pOrderBy->a[2].pExpr, "date", "d_yearmonth");
  bind_select_free(&b);
  bindtest_ok(pCat, "SELECT d_year AS yr, count(*) AS n FROM date GROUP BY yr ORDER BY n DESC, 1", &ar,
        &b);
  ASSERT(b.pSelect->pGroupBy->a[0].pExpr == b.pItems->a[0].pExpr);
  ASSERT(b.pSelect->pOrderBy->a[0].pExpr == b.pItems->a[1].pExpr);
  ASSERT(b.pSelect->pOrderBy->a[1].pExpr == b.pItems->a[0].pExpr);
  bind_select_free(&b);

  /* Grouped expressions match structurally; constants need no group. */
  bindtest_ok(pCat, "SELECT lo_revenue - lo_supplycost, (lo_revenue - lo_supplycost) * 2, 5, count(*)"
              " FROM lineorder GROUP BY lo_revenue - lo_supplycost"
              " HAVING lo_revenue - lo_supplycost > 0 ORDER BY lo_revenue - lo_supplycost", &ar, &b);
  bind_select_free(&b);
  /* A grouped primary key makes the table's other columns grouped. */
  bindtest_ok(pCat, "SELECT d_datekey, d_year, d_month, count(*) FROM date GROUP BY d_datekey", &ar, &b);
  bind_select_free(&b);
  bindtest_ok(pCat, "SELECT k1, k2, val, sum(val) FROM t_comp GROUP BY k2, k1", &ar, &b);
  bind_select_free(&b);
  /* DISTINCT with ORDER BY on what it selects. */
  bindtest_ok(pCat, "SELECT DISTINCT d_year, d_month FROM date ORDER BY d_month, 1, date.d_year", &ar, &b);
  bind_select_free(&b);
  /* No FROM at all. */
  bindtest_ok(pCat, "SELECT 1 + 1 AS two, 'x', sum(1)", &ar, &b);
  ASSERT_EQ(b.nSource, 0);
  ASSERT_EQ(b.bAggregate, 1);
  bind_select_free(&b);
  /* EXPLAIN's inner SELECT binds the same. */
  bindtest_ok(pCat, "EXPLAIN SELECT d_year FROM date", &ar, &b);
  ASSERT_EQ(b.nOutput, 1);
  bind_select_free(&b);
  arena_free(&ar);
  cat_close(pCat);
  return 0;
}

TEST_IMPL(bind_limit_offset) {
  static const struct { const char *zTail; int64_t nLimit, nOffset; } a[] = {
    {"", -1, 0}, {" LIMIT 10", 10, 0}, {" LIMIT 10 OFFSET 5", 10, 5}, {" OFFSET 5 LIMIT 10", 10, 5},
    {" LIMIT ALL", -1, 0}, {" LIMIT NULL", -1, 0}, {" OFFSET NULL", -1, 0}, {" LIMIT 0", 0, 0},
    {" LIMIT 2 + 3 * 4", 14, 0}, {" LIMIT '7' OFFSET '3'", 7, 3}, {" LIMIT 9223372036854775807", INT64_MAX, 0},
    {" LIMIT 7 / 2 OFFSET -(-1)", 3, 1}, {" LIMIT CAST('5' AS INTEGER)", 5, 0},
  };
  cat *pCat = bindtest_cat_open();
  for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
    char zSql[256];
    arena ar;
    bound_select b;
    arena_init(&ar);
    snprintf(zSql, sizeof(zSql), "SELECT d_year FROM date%s", a[i].zTail);
    bindtest_ok(pCat, zSql, &ar, &b);
    if (b.nLimit != a[i].nLimit || b.nOffset != a[i].nOffset) {
      FAIL("[%s]: LIMIT %" PRId64 " OFFSET %" PRId64, zSql, b.nLimit, b.nOffset);
    }
    bind_select_free(&b);
    arena_free(&ar);
  }
  cat_close(pCat);
  return 0;
}

/* Parse trees the parser does not make but a caller might: empty lists,
** absent clauses, NULL pointers where a node was expected. The binder
** must report, never crash. */
TEST_IMPL(bind_odd_trees) {
  cat *pCat = bindtest_cat_open();
  arena ar;
  bound_select b;
  sql_error e;
  sql_select sel;
  sql_expr_list list;
  sql_src_list from;
  sql_src_item item;
  sql_expr_item ei;
  sql_expr func, col;

  arena_init(&ar);
  ASSERT_EQ(bind_select(pCat, NULL, &ar, &b, &e), -1);
  ASSERT_STR_EQ(e.zState, SQLSTATE_INTERNAL_ERROR);
  bind_select_free(&b);

  memset(&sel, 0, sizeof(sel));                      /* no select list at all */
  ASSERT_EQ(bind_select(pCat, &sel, &ar, &b, &e), 0);
  ASSERT_EQ(b.nOutput, 0);
  bind_select_free(&b);

  memset(&list, 0, sizeof(list));                    /* an empty one, an empty FROM */
  memset(&from, 0, sizeof(from));
  sel.pItems = &list;
  sel.pFrom = &from;
  ASSERT_EQ(bind_select(pCat, &sel, &ar, &b, &e), 0);
  bind_select_free(&b);

  memset(&item, 0, sizeof(item));                    /* a FROM item without a name */
  from.n = from.nAlloc = 1;
  from.a = &item;
  ASSERT_EQ(bind_select(pCat, &sel, &ar, &b, &e), -1);
  bind_select_free(&b);

  item.zName = "date";                               /* a select item without an expression */
  memset(&ei, 0, sizeof(ei));
  list.n = list.nAlloc = 1;
  list.a = &ei;
  ASSERT_EQ(bind_select(pCat, &sel, &ar, &b, &e), -1);
  bind_select_free(&b);

  memset(&func, 0, sizeof(func));                    /* count() with no list, sum() */
  func.eKind = SQL_EXPR_FUNC;
  func.zName = "count";
  ei.pExpr = &func;
  ASSERT_EQ(bind_select(pCat, &sel, &ar, &b, &e), -1);
  ASSERT_STR_EQ(e.zState, SQLSTATE_UNDEFINED_FUNCTION);
  ASSERT_STR_EQ(e.zMsg, "function count() does not exist");
  bind_select_free(&b);

  memset(&col, 0, sizeof(col));                      /* operators missing operands */
  col.eKind = SQL_EXPR_BINARY;
  col.eOp = SQL_OP_ADD;
  ei.pExpr = &col;
  ASSERT_EQ(bind_select(pCat, &sel, &ar, &b, &e), -1);
  bind_select_free(&b);
  col.eKind = SQL_EXPR_CASE;
  ASSERT_EQ(bind_select(pCat, &sel, &ar, &b, &e), -1);
  bind_select_free(&b);
  col.eKind = SQL_EXPR_BETWEEN;
  ASSERT_EQ(bind_select(pCat, &sel, &ar, &b, &e), -1);
  bind_select_free(&b);
  col.eKind = SQL_EXPR_IN;
  ASSERT_EQ(bind_select(pCat, &sel, &ar, &b, &e), -1);
  bind_select_free(&b);
  col.eKind = SQL_EXPR_COLUMN;                       /* a column without a name */
  ASSERT_EQ(bind_select(pCat, &sel, &ar, &b, &e), -1);
  bind_select_free(&b);
  col.eKind = (sql_expr_kind)99;
  ASSERT_EQ(bind_select(pCat, &sel, &ar, &b, &e), -1);
  ASSERT_STR_EQ(e.zState, SQLSTATE_INTERNAL_ERROR);
  bind_select_free(&b);
  arena_free(&ar);

  /* As deep as the parser allows: chains of operators, under an aggregate
  ** and in a grouped query, so every walk recurses that far. */
  {
    size_t n = 16 + 3 * 990;
    char *zSql = malloc(n + 128), *z = zSql;
    z += sprintf(z, "SELECT sum(i");
    for (int k = 0; k < 990; k++) z += sprintf(z, "+ i");
    sprintf(z, "), i FROM t_all GROUP BY i ORDER BY 2");
    arena_init(&ar);
    bindtest_ok(pCat, zSql, &ar, &b);
    ASSERT_EQ(b.nAgg, 1);
    bind_select_free(&b);
    arena_free(&ar);
    z = zSql + sprintf(zSql, "SELECT ");
    for (int k = 0; k < 990; k++) z += sprintf(z, "- ");
    sprintf(z, "1");
    arena_init(&ar);
    bindtest_ok(pCat, zSql, &ar, &b);
    ASSERT_EQ(b.aOutput[0].type.eId, COLTYPE_INTEGER);
    bind_select_free(&b);
    arena_free(&ar);
    free(zSql);
  }
  cat_close(pCat);
  return 0;
}

/* ---- speed ------------------------------------------------------------------ */

static double bt_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int bt_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double bt_median(double *a, int n) {
  qsort(a, (size_t)n, sizeof(double), bt_cmp_double);
  return a[n / 2];
}

/* Prints the time parse + bind takes on each SSB query (medians), and
** how much of bind is reading the FROM tables from the catalog: bind's
** own work is the median of bind minus the same cat_table_get() calls
** timed right after. For the log only: the figures that matter come from
** a release build, and targets belong in benchmarks. */
TEST_IMPL(bind_ssb_timing) {
  static const char *const azQuery[] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                        "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};
  enum { N_REP = 301 };
  static double aParse[N_REP], aBind[N_REP], aCat[N_REP], aOwn[N_REP];
  cat *pCat = bindtest_cat_open();
  double rTotal = 0, rOwn = 0;

  printf("%-5s %8s %8s %8s %8s %8s   (us, median of %d)\n", "query", "parse", "bind",
         "catalog", "bind-own", "total", N_REP);
  for (int q = 0; q < 13; q++) {
    char *zSql = bt_query(azQuery[q]);
    double rParse, rBind, rCat, rBindOwn;
    for (int r = 0; r < N_REP; r++) {
      arena ar;
      sql_script s;
      sql_error e;
      bound_select b;
      double t0, t1, t2;
      arena_init(&ar);
      t0 = bt_now();
      if (sql_parse(zSql, &ar, &s, &e) != 0) FAIL("%s: %s", azQuery[q], e.zMsg);
      t1 = bt_now();
      if (bind_select(pCat, s.apStmt[0]->pSelect, &ar, &b, &e) != 0) FAIL("%s: %s", azQuery[q], e.zMsg);
      t2 = bt_now();
      aParse[r] = t1 - t0;
      aBind[r] = t2 - t1;
      /* The catalog reads alone, for the same tables. */
      t0 = bt_now();
      for (int i = 0; i < b.nSource; i++) {
        cat_table *t;
        char zErr[256];
        if (cat_table_get(pCat, b.aSource[i].pTable->zName, &t, zErr, sizeof(zErr)) != 0) {
          FAIL("%s", zErr);
        }
        cat_table_free(t);
      }
      aCat[r] = bt_now() - t0;
      aOwn[r] = aBind[r] - aCat[r];
      bind_select_free(&b);
      arena_free(&ar);
    }
    rParse = bt_median(aParse, N_REP);
    rBind = bt_median(aBind, N_REP);
    rCat = bt_median(aCat, N_REP);
    rBindOwn = bt_median(aOwn, N_REP);
    printf("%-5s %8.1f %8.1f %8.1f %8.1f %8.1f\n", azQuery[q], rParse, rBind, rCat, rBindOwn,
           rParse + rBind);
    rTotal += rParse + rBind;
    rOwn += rParse + rBindOwn;
    free(zSql);
  }
  printf("mean over the 13 queries: parse+bind %.1f us; without the catalog reads %.1f us\n",
         rTotal / 13, rOwn / 13);
  cat_close(pCat);
  return 0;
}
