/*
** tests/test-refdb.c — the reference engine (refdb.h) is itself checked
** before anything is checked against it: the result builder and the
** comparison, every case of which is shown to fail as well as to pass;
** the translation from starq's dialect; every column type and NULL copied
** from a data directory; and SSB data at SF 0.01, whose copy must agree
** with the generator's .tbl text and answer all 13 SSB queries.
*/
#define _GNU_SOURCE
#include <math.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../catalog/catalog.h"
#include "refdb.h"
#include "test.h"

/* ---- helpers -------------------------------------------------------------- */

/* Builds a result of nRow rows from azCell (row-major, NULL for SQL NULL);
** column i is floating-point where zFloat[i] is 'f' (zFloat may be
** shorter than nCol: the rest are exact). */
static refdb_result *tr_result(int nCol, const char *zFloat, int nRow, const char *const *azCell) {
  refdb_result *p = refdb_result_new(nCol);
  int nFloat = (int)strlen(zFloat);
  ASSERT(p != NULL);
  for (int i = 0; i < nCol; i++) {
    char zName[16];
    snprintf(zName, sizeof(zName), "c%d", i + 1);
    ASSERT_EQ(refdb_result_set_column(p, i, zName, i < nFloat && zFloat[i] == 'f'), 0);
  }
  for (int r = 0; r < nRow; r++) ASSERT_EQ(refdb_result_add_row(p, &azCell[r * nCol]), 0);
  return p;
}

/* Compares two results built from cells; returns refdb_result_compare's
** code, its message in zDiff. */
static int tr_compare(int nCol, const char *zFloatA, int nRowA, const char *const *azA,
                      const char *zFloatB, int nRowB, const char *const *azB, int bOrdered,
                      char *zDiff, size_t nDiff) {
  refdb_result *a = tr_result(nCol, zFloatA, nRowA, azA);
  refdb_result *b = tr_result(nCol, zFloatB, nRowB, azB);
  int rc = refdb_result_compare(a, b, bOrdered, zDiff, nDiff);
  refdb_result_free(a);
  refdb_result_free(b);
  return rc;
}

/* Fails unless zHay contains zNeedle. */
static void tr_contains(const char *zHay, const char *zNeedle) {
  if (strstr(zHay, zNeedle) == NULL) FAIL("\"%s\" is not in:\n%s", zNeedle, zHay);
}

/* Runs zSql on p and returns its result; fails the test on an error. */
static refdb_result *tr_query(refdb *p, const char *zSql) {
  refdb_result *r;
  char zErr[2048];
  if (refdb_query(p, zSql, &r, zErr, sizeof(zErr)) != 0) FAIL("%s: %s", zSql, zErr);
  return r;
}

/* Runs zSql and requires exactly the rows azWant (nCol columns, in
** order); floating-point columns as SQLite reports them. */
static void tr_query_expect(refdb *p, const char *zSql, int nCol, int nRow,
                            const char *const *azWant) {
  refdb_result *r = tr_query(p, zSql);
  refdb_result *w = tr_result(nCol, "", nRow, azWant);
  char zDiff[2048];
  if (refdb_result_compare(w, r, 1, zDiff, sizeof(zDiff)) != 0) FAIL("%s\n%s", zSql, zDiff);
  refdb_result_free(w);
  refdb_result_free(r);
}

/* ---- the result type ------------------------------------------------------ */

TEST_IMPL(refdb_result_build) {
  static const char *const azRow[3] = {"1", NULL, "NULL"};
  refdb_result *p = refdb_result_new(3);
  char z[64];

  ASSERT(p != NULL);
  ASSERT_EQ(p->nRow, 0);
  ASSERT_EQ(refdb_result_set_column(p, 2, "x", 1), 0);
  ASSERT_EQ(refdb_result_set_column(p, 3, "y", 0), -1);
  ASSERT_STR_EQ(p->azName[2], "x");
  ASSERT_EQ(p->abFloat[2], 1);
  ASSERT(p->azName[0] == NULL);

  ASSERT_EQ(refdb_result_add_row(p, azRow), 0);
  ASSERT_EQ(refdb_result_add_cell(p, "abcdef", 2), 0);
  ASSERT_EQ(p->nRow, 1);
  ASSERT_EQ(refdb_result_add_row(p, azRow), -1);      /* a row is half built */
  ASSERT_EQ(refdb_result_add_cell(p, NULL, 0), 0);
  ASSERT_EQ(refdb_result_add_cell(p, "", -1), 0);
  ASSERT_EQ(p->nRow, 2);
  for (int i = 0; i < 1000; i++) ASSERT_EQ(refdb_result_add_row(p, azRow), 0);
  ASSERT_EQ(p->nRow, 1002);

  /* NULL and the text "NULL" stay apart; so do NULL and "". */
  ASSERT_STR_EQ(refdb_result_cell(p, 0, 0), "1");
  ASSERT(refdb_result_cell(p, 0, 1) == NULL);
  ASSERT_STR_EQ(refdb_result_cell(p, 0, 2), "NULL");
  ASSERT_STR_EQ(refdb_result_cell(p, 1, 0), "ab");
  ASSERT(refdb_result_cell(p, 1, 1) == NULL);
  ASSERT_STR_EQ(refdb_result_cell(p, 1, 2), "");
  ASSERT_STR_EQ(refdb_result_cell(p, 1001, 2), "NULL");
  refdb_result_free(p);

  ASSERT(refdb_result_new(-1) == NULL);
  p = refdb_result_new(0);
  ASSERT(p != NULL);
  ASSERT_EQ(refdb_result_add_cell(p, "x", -1), -1);
  refdb_result_free(p);
  refdb_result_free(NULL);

  ASSERT_STR_EQ(refdb_double_text(0.1, z, sizeof(z)), "0.1");
  ASSERT_STR_EQ(refdb_double_text(-2.5, z, sizeof(z)), "-2.5");
  ASSERT_STR_EQ(refdb_double_text(1e20, z, sizeof(z)), "1e+20");
  ASSERT_STR_EQ(refdb_double_text(0.0, z, sizeof(z)), "0");
  ASSERT_STR_EQ(refdb_double_text(NAN, z, sizeof(z)), "NaN");
  ASSERT_STR_EQ(refdb_double_text(-INFINITY, z, sizeof(z)), "-Infinity");
  ASSERT_STR_EQ(refdb_double_text(9999999999.99, z, sizeof(z)), "9999999999.99");
  ASSERT(strtod(refdb_double_text(1.0 / 3.0, z, sizeof(z)), NULL) == 1.0 / 3.0);
  ASSERT(strtod(refdb_double_text(0.1 + 0.2, z, sizeof(z)), NULL) == 0.1 + 0.2);
  return 0;
}

TEST_IMPL(refdb_result_compare) {
  static const char *const azAB[] = {"1", "a", "2", "b"};
  static const char *const azBA[] = {"2", "b", "1", "a"};
  static const char *const azAB3[] = {"1", "a", "2", "b", "3", "c"};
  static const char *const azAAB[] = {"x", "x", "y"};
  static const char *const azABB[] = {"x", "y", "y"};
  static const char *const azNull[] = {NULL};
  static const char *const azNullText[] = {"NULL"};
  static const char *const azEmpty[] = {""};
  char zDiff[1024];

  /* Order: ordered comparison sees a swap, unordered does not. */
  ASSERT_EQ(tr_compare(2, "", 2, azAB, "", 2, azAB, 1, zDiff, sizeof(zDiff)), 0);
  ASSERT_EQ(zDiff[0], 0);
  ASSERT_EQ(tr_compare(2, "", 2, azAB, "", 2, azBA, 1, zDiff, sizeof(zDiff)), 1);
  tr_contains(zDiff, "ordered");
  tr_contains(zDiff, "first difference at row 1");
  tr_contains(zDiff, "expected: (1, 'a')");
  tr_contains(zDiff, "got:      (2, 'b')");
  tr_contains(zDiff, "column 1 \"c1\": expected 1, got 2");
  ASSERT_EQ(tr_compare(2, "", 2, azAB, "", 2, azBA, 0, zDiff, sizeof(zDiff)), 0);

  /* Multisets count duplicates. */
  ASSERT_EQ(tr_compare(1, "", 3, azAAB, "", 3, azAAB, 0, zDiff, sizeof(zDiff)), 0);
  ASSERT_EQ(tr_compare(1, "", 3, azAAB, "", 3, azABB, 0, zDiff, sizeof(zDiff)), 1);
  tr_contains(zDiff, "unordered, both sorted");
  tr_contains(zDiff, "expected 'x', got 'y'");

  /* Row counts, either way round, ordered or not. */
  for (int bOrdered = 0; bOrdered < 2; bOrdered++) {
    ASSERT_EQ(tr_compare(2, "", 3, azAB3, "", 2, azAB, bOrdered, zDiff, sizeof(zDiff)), 1);
    tr_contains(zDiff, "expected 3 rows, got 2");
    tr_contains(zDiff, "expected: (3, 'c')");
    tr_contains(zDiff, "got:      (no such row)");
    ASSERT_EQ(tr_compare(2, "", 2, azAB, "", 3, azAB3, bOrdered, zDiff, sizeof(zDiff)), 1);
    tr_contains(zDiff, "expected 2 rows, got 3");
  }
  ASSERT_EQ(tr_compare(2, "", 0, azAB, "", 0, azAB, 1, zDiff, sizeof(zDiff)), 0);

  /* Column counts. */
  {
    refdb_result *a = tr_result(2, "", 2, azAB), *b = tr_result(1, "", 3, azAAB);
    ASSERT_EQ(refdb_result_compare(a, b, 0, zDiff, sizeof(zDiff)), 1);
    tr_contains(zDiff, "expected 2 columns, got 1");
    refdb_result_free(a);
    refdb_result_free(b);
  }

  /* NULL is neither the text "NULL" nor the empty string. */
  ASSERT_EQ(tr_compare(1, "", 1, azNull, "", 1, azNull, 1, zDiff, sizeof(zDiff)), 0);
  ASSERT_EQ(tr_compare(1, "", 1, azNull, "", 1, azNullText, 1, zDiff, sizeof(zDiff)), 1);
  tr_contains(zDiff, "expected NULL, got 'NULL'");
  ASSERT_EQ(tr_compare(1, "", 1, azNullText, "", 1, azNull, 1, zDiff, sizeof(zDiff)), 1);
  ASSERT_EQ(tr_compare(1, "f", 1, azNull, "f", 1, azEmpty, 1, zDiff, sizeof(zDiff)), 1);
  ASSERT_EQ(tr_compare(1, "", 1, azNullText, "", 1, azNullText, 1, zDiff, sizeof(zDiff)), 0);
  return 0;
}

/* Floating-point columns: within 1e-9 relative (or absolute near zero)
** they agree, beyond they differ; exact columns never tolerate. */
TEST_IMPL(refdb_result_tolerance) {
  static const struct {
    const char *zA, *zB;
    int bSame;              /* as floating-point */
  } aCase[] = {
      {"1", "1.0000000001", 1},          /* 1e-10 relative */
      {"1", "1.00000001", 0},            /* 1e-8 */
      {"123456789012", "123456789012.05", 1},
      {"123456789012", "123456789200", 0},
      {"0", "1e-10", 1},                 /* near zero: absolute */
      {"0", "1e-8", 0},
      {"-5", "5", 0},
      {"12.50", "12.5", 1},              /* spellings of one value */
      {"1e3", "1000", 1},
      {"NaN", "NaN", 1},
      {"Infinity", "Infinity", 1},
      {"Infinity", "-Infinity", 0},
      {"Infinity", "1e308", 0},
      {"abc", "abc", 1},                 /* not numbers: exact */
      {"abc", "abd", 0},
      {"", "0", 0},
  };
  char zDiff[1024];
  for (size_t i = 0; i < sizeof(aCase) / sizeof(aCase[0]); i++) {
    const char *azA[1] = {aCase[i].zA}, *azB[1] = {aCase[i].zB};
    int bExactSame = strcmp(aCase[i].zA, aCase[i].zB) == 0;
    if (tr_compare(1, "f", 1, azA, "f", 1, azB, 1, zDiff, sizeof(zDiff)) != !aCase[i].bSame) {
      FAIL("case %zu: %s vs %s should %s as floating-point", i, aCase[i].zA, aCase[i].zB,
           aCase[i].bSame ? "agree" : "differ");
    }
    /* Either side's flag is enough; no flag means exact. */
    ASSERT_EQ(tr_compare(1, "", 1, azA, "f", 1, azB, 1, zDiff, sizeof(zDiff)), !aCase[i].bSame);
    ASSERT_EQ(tr_compare(1, "f", 1, azA, "", 1, azB, 1, zDiff, sizeof(zDiff)), !aCase[i].bSame);
    ASSERT_EQ(tr_compare(1, "", 1, azA, "", 1, azB, 1, zDiff, sizeof(zDiff)), !bExactSame);
  }

  /* Unordered: rows line up by their exact columns first, so values that
  ** differ by rounding still find their partners, and a float column's
  ** order decides nothing about which rows pair. */
  {
    static const char *const azExp[] = {"x", "1.0000000000001", "y", "1"};
    static const char *const azGot[] = {"y", "1.0000000000002", "x", "1"};
    static const char *const azFar[] = {"y", "1.0000000000002", "x", "1.5"};
    ASSERT_EQ(tr_compare(2, ".f", 2, azExp, ".f", 2, azGot, 0, zDiff, sizeof(zDiff)), 0);
    ASSERT_EQ(tr_compare(2, ".f", 2, azExp, ".f", 2, azGot, 1, zDiff, sizeof(zDiff)), 1);
    ASSERT_EQ(tr_compare(2, ".f", 2, azExp, ".f", 2, azFar, 0, zDiff, sizeof(zDiff)), 1);
    tr_contains(zDiff, "column 2 \"c2\" (floating-point): expected 1.0000000000001, got 1.5");
  }
  {
    /* Within one exact key, by value and not by spelling: as text, "10"
    ** sorts before "2" but after "1.99...". */
    static const char *const azExp[] = {"x", "1.99999999999999", "x", "10"};
    static const char *const azGot[] = {"x", "10", "x", "2"};
    ASSERT_EQ(tr_compare(2, ".f", 2, azExp, ".f", 2, azGot, 0, zDiff, sizeof(zDiff)), 0);
  }
  return 0;
}

/* ---- the dialect ------------------------------------------------------------ */

TEST_IMPL(refdb_translate) {
  static const struct {
    const char *zPg, *zLite;
  } aCase[] = {
      {"select 1", "select 1"},
      {"where d = DATE '1997-12-31'", "where d = '1997-12-31'"},
      {"where d between date '1997/1/5' and Date '19980203'",
       "where d between '1997-01-05' and '1998-02-03'"},
      {"where d = DATE ' 1997-2-3 '", "where d = '1997-02-03'"},
      {"where d = DATE 'not a date'", "where d = 'not a date'"},
      {"where d = DATE '1997-02-29'", "where d = '1997-02-29'"},      /* no such day */
      {"where d = DATE '1996-02-29'", "where d = '1996-02-29'"},
      {"select 'it''s date ''x''', \"date\" from date", "select 'it''s date ''x''', \"date\" from date"},
      {"select x::text::int", "select (CASE WHEN typeof(CAST(x AS text)) = 'real' THEN "
       "CAST(round(CAST(x AS text)) AS INTEGER) ELSE CAST(CAST(x AS text) AS INTEGER) END)"},
      {"select '1997-1-5'::date, x::date", "select '1997-01-05', (x)"},
      {"select cast('1997-1-5' as date), CAST(t.x AS DATE)", "select '1997-01-05', (t.x)"},
      {"select sum(a)::double precision, t.b::float8", "select CAST(sum(a) AS REAL), CAST(t.b AS REAL)"},
      {"select (a + b)::numeric(10, 2), c::decimal(5), e::numeric",
       "select round(CAST((a + b) AS REAL), 2), round(CAST(c AS REAL)), CAST(e AS REAL)"},
      {"select 'yes'::boolean, boolean 'off', x::bool", "select 1, 0, CAST(x AS INTEGER)"},
      {"select v::varchar(3), CAST(v AS text)", "select CAST(v AS varchar(3)), CAST(v AS text)"},
      {"select case when a then 1 else 2 end::real", "select CAST(case when a then 1 else 2 end AS REAL)"},
      {"select count(*)::bigint", "select (CASE WHEN typeof(count(*)) = 'real' THEN "
       "CAST(round(count(*)) AS INTEGER) ELSE CAST(count(*) AS INTEGER) END)"},
      {"order by a, b desc, c asc, d nulls first, e desc nulls last",
       "order by a NULLS LAST, b desc NULLS FIRST, c asc NULLS LAST, d nulls first, e desc nulls last"},
      {"select a from t order by (a + 1) desc, sum(b) limit 3;",
       "select a from t order by (a + 1) desc NULLS FIRST, sum(b) NULLS LAST LIMIT 3;"},
      {"select a from t limit all", "select a from t LIMIT -1"},
      {"select a from t offset 5 limit 3", "select a from t LIMIT 3 OFFSET 5"},
      {"select a from t offset 2;", "select a from t LIMIT -1 OFFSET 2;"},
      {"select a from t limit 1 + 1 offset 2", "select a from t LIMIT 1 + 1 OFFSET 2"},
      {"select a from t limit all offset 1", "select a from t LIMIT -1 OFFSET 1"},
      {"where s like 'a\\_%' and s like 'b%'", "where s like 'a\\_%' ESCAPE '\\' and s like 'b%'"},
      {"select 1 -- a comment\n, 2 /* a /* nested */ one */ + 3",
       "select 1  \n, 2   + 3"},
      {"select 'x::int', '--', ':' || 'date ''1'''", "select 'x::int', '--', ':' || 'date ''1'''"},
      {"select integer '5' + x", "select (CASE WHEN typeof('5') = 'real' THEN CAST(round('5') AS "
       "INTEGER) ELSE CAST('5' AS INTEGER) END) + x"},
      {"select a::", "select a::"},                          /* left to SQLite to refuse */
      {"select 'unterminated", "select 'unterminated"},
  };
  for (size_t i = 0; i < sizeof(aCase) / sizeof(aCase[0]); i++) {
    char *z = NULL;
    ASSERT_EQ(refdb_sql_translate(aCase[i].zPg, &z), 0);
    if (strcmp(z, aCase[i].zLite) != 0) {
      FAIL("case %zu: %s\n  became:   %s\n  expected: %s", i, aCase[i].zPg, z, aCase[i].zLite);
    }
    free(z);
  }
  return 0;
}

/* ---- types and NULLs, and the dialect on real rows ---------------------------- */

/* Every stored type, nullable; row 2 is NULL but for the key, row 3 holds
** empty strings (quoted: an unquoted empty field is NULL), and "NULL" is
** text wherever it appears. */
static const char *const tr_azTypeCol[] = {"k", "s", "i", "b", "f", "dec", "d", "c", "v", "t"};
static const char *const tr_azType[] = {"INTEGER", "SMALLINT", "INTEGER", "BIGINT",
                                        "DOUBLE PRECISION", "DECIMAL(12,2)", "DATE", "CHAR(4)",
                                        "VARCHAR(10)", "TEXT"};
#define TR_NTYPE 10
static const char tr_zTypeRows[] =
    "k,s,i,b,f,dec,d,c,v,t\n"
    "1,-32768,2147483647,9223372036854775807,1.5,12.34,1997-12-31,abc,NULL,hello\n"
    "2,,,,,,,,,\n"
    "3,7,-7,-9223372036854775808,-0.1,-0.05,0001-01-01,\"\",\"\",x\n"
    "4,0,0,0,1e300,9999999999.99,9999-12-31,zz,\"a,b\",NULL\n";

/* Creates table zName with the columns above in data/ and, when zRows is
** not NULL, loads zRows into it. */
static void tr_types_table(const char *zName, const char *zRows) {
  const char *azLoad[] = {"starq-load", "--data-dir", "data", "--header", zName, "rows.csv",
                          "--quiet", NULL};
  cat_table *t = cat_table_new(zName);
  cat *pCat;
  char zErr[512];
  FILE *f;
  ASSERT(t != NULL);
  for (int i = 0; i < TR_NTYPE; i++) {
    coltype type;
    CALL_OK(coltype_parse(tr_azType[i], &type, zErr, sizeof(zErr)));
    CALL_OK(cat_table_add_column(t, tr_azTypeCol[i], type, i == 0, zErr, sizeof(zErr)));
  }
  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  CALL_OK(cat_table_create(pCat, t, zErr, sizeof(zErr)));
  cat_table_free(t);
  cat_close(pCat);
  if (zRows == NULL) return;
  f = fopen("rows.csv", "w");
  ASSERT(f != NULL);
  ASSERT(fputs(zRows, f) >= 0);
  ASSERT_EQ(fclose(f), 0);
  test_run_ok(azLoad);
}

TEST_IMPL(refdb_types) {
  static const char *const azWant[] = {
      "1", "-32768", "2147483647", "9223372036854775807", "1.5", "12.34", "1997-12-31", "abc",
      "NULL", "hello",
      "2", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
      "3", "7", "-7", "-9223372036854775808", "-0.1", "-0.05", "0001-01-01", "", "", "x",
      "4", "0", "0", "0", "1e+300", "9999999999.99", "9999-12-31", "zz", "a,b", "NULL",
  };
  refdb *p;
  refdb_result *r, *w;
  char zErr[1024], zDiff[2048];

  tr_types_table("t", tr_zTypeRows);
  tr_types_table("empty", NULL);
  CALL_OK(refdb_open("data", &p, zErr, sizeof(zErr)));

  /* Values come back exactly as written, even where the comparison would
  ** forgive: the DECIMALs to the cent, the doubles to the last digit. */
  r = tr_query(p, "select * from t order by k");
  w = tr_result(TR_NTYPE, "....ff....", 4, azWant);
  ASSERT_EQ(refdb_result_compare(w, r, 1, zDiff, sizeof(zDiff)), 0);
  for (int64_t iRow = 0; iRow < 4; iRow++) {
    for (int i = 0; i < TR_NTYPE; i++) {
      const char *zW = refdb_result_cell(w, iRow, i), *zR = refdb_result_cell(r, iRow, i);
      if ((zW == NULL) != (zR == NULL) || (zW != NULL && strcmp(zW, zR) != 0)) {
        FAIL("row %lld column %s: got %s, expected %s", (long long)iRow + 1, tr_azTypeCol[i],
             zR ? zR : "NULL", zW ? zW : "NULL");
      }
    }
  }
  for (int i = 0; i < TR_NTYPE; i++) {
    ASSERT_STR_EQ(r->azName[i], tr_azTypeCol[i]);
    ASSERT_EQ(r->abFloat[i], i == 4 || i == 5);   /* declared REAL, even when NULL */
  }
  refdb_result_free(r);
  refdb_result_free(w);

  {
    static const char *const azTypes[] = {"integer", "integer", "real", "real", "text", "text"};
    static const char *const azCount[] = {"0"};
    tr_query_expect(p, "select typeof(s), typeof(b), typeof(f), typeof(dec), typeof(d), typeof(c) "
                       "from t where k = 1", 6, 1, azTypes);
    tr_query_expect(p, "select count(*) from empty", 1, 1, azCount);
  }

  /* PostgreSQL's meaning, through the translation and the pragmas. */
  {
    static const char *const azAsc[] = {"3", "4", "1", "2"};
    static const char *const azDesc[] = {"2", "1", "4", "3"};
    static const char *const azDates[] = {"1", "4"};
    static const char *const azOne[] = {"1"};
    static const char *const azFour[] = {"4"};
    static const char *const azTwo[] = {"2"};
    static const char *const azTail[] = {"3", "4"};
    static const char *const azMid[] = {"2", "3"};
    static const char *const azCast[] = {"3", "-3", "3", "12.35", "1997-01-05", "1"};
    static const char *const azAgg[] = {"4", "3", "2147483640"};
    tr_query_expect(p, "select k from t order by i", 1, 4, azAsc);
    tr_query_expect(p, "select k from t order by i desc", 1, 4, azDesc);
    tr_query_expect(p, "select k from t where d >= DATE '1997-12-31' order by k", 1, 2, azDates);
    tr_query_expect(p, "select k from t where d = date '19971231'", 1, 1, azOne);
    tr_query_expect(p, "select k from t where d < '1997-12-31'::date and d > date '1-1-1'", 1, 0,
                    azOne);
    tr_query_expect(p, "select k from t where v like 'a%'", 1, 1, azFour);
    tr_query_expect(p, "select k from t where c like 'A%'", 1, 0, azOne);   /* case matters */
    tr_query_expect(p, "select k from t where c like 'ab_'", 1, 1, azOne);
    tr_query_expect(p, "select k from t where t = 'NULL'", 1, 1, azFour);
    tr_query_expect(p, "select k from t where t is null", 1, 1, azTwo);
    tr_query_expect(p, "select k from t order by k limit all offset 2", 1, 2, azTail);
    tr_query_expect(p, "select k from t order by k offset 1 limit 2;", 1, 2, azMid);
    tr_query_expect(p, "select 2.5::integer, (-2.5)::integer, 7 / 2, 12.3456::numeric(10,2), "
                       "'1997-1-5'::date, 'on'::boolean", 6, 1, azCast);
    tr_query_expect(p, "select count(*), count(i), sum(i) from t", 3, 1, azAgg);
  }
  refdb_close(p);
  return 0;
}

TEST_IMPL(refdb_errors) {
  refdb *p;
  refdb_result *r = (refdb_result *)&r;       /* not NULL: a failed query must clear it */
  char zErr[1024];

  CALL_ERR(refdb_open("nowhere", &p, zErr, sizeof(zErr)), "nowhere: no catalog there");
  ASSERT(p == NULL);
  ASSERT(!test_file_exists("nowhere"));      /* refdb never creates a data directory */

  tr_types_table("t", tr_zTypeRows);
  CALL_OK(refdb_open("data", &p, zErr, sizeof(zErr)));
  ASSERT_EQ(refdb_query(p, "select nosuch from t", &r, zErr, sizeof(zErr)), -1);
  ASSERT(r == NULL);
  tr_contains(zErr, "no such column: nosuch\n  in: select nosuch from t");
  ASSERT_EQ(refdb_query(p, "selec 1", &r, zErr, sizeof(zErr)), -1);
  tr_contains(zErr, "syntax error");
  ASSERT_EQ(refdb_query(p, "select 1; select 2", &r, zErr, sizeof(zErr)), -1);
  tr_contains(zErr, "more than one statement");
  ASSERT_EQ(refdb_query(p, "  -- nothing\n", &r, zErr, sizeof(zErr)), -1);
  tr_contains(zErr, "no statement");
  /* A run-time error, after rows have come. */
  ASSERT_EQ(refdb_query(p, "select abs(b) from t order by k", &r, zErr, sizeof(zErr)), -1);
  tr_contains(zErr, "integer overflow");
  refdb_close(p);

  /* A damaged column file: the open fails and names it. */
  {
    cat *pCat;
    cat_table *t;
    char zPath[4096];
    CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
    CALL_OK(cat_table_get(pCat, "t", &t, zErr, sizeof(zErr)));
    ASSERT(cat_file_path(pCat, t, t->iGen, 3, STORE_VALUES, zPath, sizeof(zPath)) != NULL);
    cat_table_free(t);
    cat_close(pCat);
    ASSERT_EQ(truncate(zPath, 64 + 8), 0);
    ASSERT_EQ(refdb_open("data", &p, zErr, sizeof(zErr)), -1);
    ASSERT(p == NULL);
    tr_contains(zErr, zPath);
  }
  return 0;
}

/* ---- SSB at SF 0.01 ---------------------------------------------------------- */

static const char *const tr_azSsb[] = {"date", "supplier", "customer", "part", "lineorder"};
#define TR_NSSB 5

/* A .tbl file in memory with the start of each line. */
typedef struct tr_tbl tr_tbl;
struct tr_tbl {
  char *zText;             /* owned */
  int64_t nLine;
  char **azLine;           /* owned; the lines themselves are in zText */
};

static void tr_tbl_read(tr_tbl *p, const char *zTable) {
  char zPath[256];
  size_t n;
  snprintf(zPath, sizeof(zPath), "tbl/%s.tbl", zTable);
  p->zText = test_file_read(zPath, &n);
  p->nLine = 0;
  for (size_t i = 0; i < n; i++) p->nLine += p->zText[i] == '\n';
  p->azLine = malloc(sizeof(char *) * (size_t)(p->nLine + 1));
  ASSERT(p->azLine != NULL);
  for (int64_t i = 0, k = 0; i < p->nLine; i++) {
    p->azLine[i] = p->zText + k;
    k = strchr(p->zText + k, '\n') - p->zText + 1;
  }
}

static void tr_tbl_free(tr_tbl *p) {
  free(p->azLine);
  free(p->zText);
}

/* Returns field iField of line zLine as a malloc'd string. */
static char *tr_tbl_field(const char *zLine, int iField) {
  const char *z = zLine, *zEnd;
  for (int i = 0; i < iField; i++) z = strchr(z, '|') + 1;
  zEnd = strchr(z, '|');
  return strndup(z, (size_t)(zEnd - z));
}

/* Checks that SQLite row iRow (0-based, in store order) of zTable reads
** back as line iRow of its .tbl file, field by field: numbers as written,
** dates with their dashes taken out, strings to the byte (padding too). */
static void tr_row_check(refdb *p, const tr_tbl *pTbl, const char *zTable, int64_t iRow) {
  char zSql[256];
  refdb_result *r;
  snprintf(zSql, sizeof(zSql), "select * from \"%s\" where rowid = %lld", zTable,
           (long long)iRow + 1);
  r = tr_query(p, zSql);
  ASSERT_EQ(r->nRow, 1);
  for (int i = 0; i < r->nCol; i++) {
    const char *zGot = refdb_result_cell(r, 0, i);
    char *zWant = tr_tbl_field(pTbl->azLine[iRow], i), zDate[16];
    ASSERT(zGot != NULL);
    if (strlen(zGot) == 10 && zGot[4] == '-' && zGot[7] == '-' && strlen(zWant) == 8) {
      snprintf(zDate, sizeof(zDate), "%.4s%.2s%.2s", zGot, zGot + 5, zGot + 8);
      zGot = zDate;
    }
    if (strcmp(zGot, zWant) != 0) {
      FAIL("%s row %lld column %s: SQLite has \"%s\", the .tbl \"%s\"", zTable,
           (long long)iRow + 1, r->azName[i], zGot, zWant);
    }
    free(zWant);
  }
  refdb_result_free(r);
}

/* Row counts against the catalog and the .tbl files; whole rows at five
** places in each table against their lines. */
static void tr_ssb_tables(refdb *p) {
  cat *pCat;
  char zErr[512];
  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  for (int k = 0; k < TR_NSSB; k++) {
    char zSql[128];
    cat_table *t;
    tr_tbl tbl;
    refdb_result *r;
    CALL_OK(cat_table_get(pCat, tr_azSsb[k], &t, zErr, sizeof(zErr)));
    tr_tbl_read(&tbl, tr_azSsb[k]);
    snprintf(zSql, sizeof(zSql), "select count(*) from \"%s\"", tr_azSsb[k]);
    r = tr_query(p, zSql);
    ASSERT_GT(t->nRow, 0);
    ASSERT_EQ(strtoll(refdb_result_cell(r, 0, 0), NULL, 10), t->nRow);
    ASSERT_EQ(tbl.nLine, t->nRow);
    for (int j = 0; j < 5; j++) tr_row_check(p, &tbl, tr_azSsb[k], t->nRow * j / 4 - (j == 4));
    refdb_result_free(r);
    tr_tbl_free(&tbl);
    cat_table_free(t);
  }
  cat_close(pCat);
}

/* Q1.1 summed here from the .tbl text, to be compared with SQLite's. */
static int64_t tr_q11_from_tbl(void) {
  tr_tbl lo;
  int64_t nSum = 0;
  tr_tbl_read(&lo, "lineorder");
  for (int64_t i = 0; i < lo.nLine; i++) {
    long long aF[17];
    const char *z = lo.azLine[i];
    for (int f = 0; f < 17; f++) {
      aF[f] = strtoll(z, NULL, 10);
      z = strchr(z, '|') + 1;
    }
    /* orderdate (5) is yyyymmdd, so the year is its first four digits. */
    if (aF[5] / 10000 == 1993 && aF[11] >= 1 && aF[11] <= 3 && aF[8] < 25) {
      nSum += aF[9] * aF[11];
    }
  }
  tr_tbl_free(&lo);
  return nSum;
}

/* Whether any line of supplier.tbl has s_city zCity or zCity2. */
static int tr_supplier_in(const char *zCity, const char *zCity2) {
  tr_tbl s;
  int bFound = 0;
  tr_tbl_read(&s, "supplier");
  for (int64_t i = 0; i < s.nLine && !bFound; i++) {
    char *z = tr_tbl_field(s.azLine[i], 3);
    bFound = strcmp(z, zCity) == 0 || strcmp(z, zCity2) == 0;
    free(z);
  }
  tr_tbl_free(&s);
  return bFound;
}

/* Runs the 13 SSB queries. Every one returns rows, but Q3.3 and Q3.4 may
** come back empty at this scale, and then only because no supplier is in
** either UK city they ask for (20 suppliers, 2 cities of 250). */
static void tr_ssb_queries(refdb *p) {
  static const char *const azQuery[] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                        "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};
  int bUk = tr_supplier_in("UNITED KI1", "UNITED KI5");
  for (size_t k = 0; k < sizeof(azQuery) / sizeof(azQuery[0]); k++) {
    char zPath[64];
    char *zSql;
    refdb_result *r;
    snprintf(zPath, sizeof(zPath), "ssb-data/queries/%s.sql", azQuery[k]);
    zSql = test_file_read(test_src(zPath), NULL);
    r = tr_query(p, zSql);
    if (azQuery[k][1] == '1') {
      ASSERT_EQ(r->nRow, 1);
      ASSERT(refdb_result_cell(r, 0, 0) != NULL);
      if (k == 0) ASSERT_EQ(strtoll(refdb_result_cell(r, 0, 0), NULL, 10), tr_q11_from_tbl());
    } else if (strcmp(azQuery[k], "q3.3") == 0 || strcmp(azQuery[k], "q3.4") == 0) {
      if (r->nRow == 0 && bUk) FAIL("%s is empty, yet a supplier is in a UK city it asks for", azQuery[k]);
    } else if (r->nRow == 0) {
      FAIL("%s returned no rows", azQuery[k]);
    }
    if (strcmp(azQuery[k], "q3.1") == 0) {
      /* order by d_year asc, revenue desc */
      for (int64_t i = 1; i < r->nRow; i++) {
        long long y0 = strtoll(refdb_result_cell(r, i - 1, 2), NULL, 10);
        long long y1 = strtoll(refdb_result_cell(r, i, 2), NULL, 10);
        long long v0 = strtoll(refdb_result_cell(r, i - 1, 3), NULL, 10);
        long long v1 = strtoll(refdb_result_cell(r, i, 3), NULL, 10);
        ASSERT(y0 < y1 || (y0 == y1 && v0 >= v1));
      }
    }
    refdb_result_free(r);
    free(zSql);
  }
}

TEST_IMPL(refdb_ssb_sf001) {
  const char *azStore[] = {"starq-gen", "--sf", "0.01", "--format", "store", "--out", "data",
                           "--quiet", NULL};
  const char *azTbl[] = {"starq-gen", "--sf", "0.01", "--format", "tbl", "--out", "tbl",
                         "--quiet", NULL};
  refdb *p;
  char zErr[1024];
  test_run_ok(azStore);
  test_run_ok(azTbl);
  CALL_OK(refdb_open("data", &p, zErr, sizeof(zErr)));
  tr_ssb_tables(p);
  tr_ssb_queries(p);
  refdb_close(p);
  return 0;
}
