/*
** tests/test-exec-nulls.c — NULLs, the types SSB lacks, and PostgreSQL's
** errors, checked against SQLite on small tables made for them.
**
** SSB has no NULL and only INTEGER money. Here a fact table has nullable
** INTEGER, BIGINT, DOUBLE PRECISION, DECIMAL(10,2), DATE, VARCHAR and
** SMALLINT columns and nullable foreign keys into four dimensions, some
** of whose keys the dimensions lack: dense INTEGER keys (an array lookup),
** sparse INTEGER and BIGINT keys (hash tables) and DATE keys (a date
** lookup), with nullable payload columns. A fourth table has column names that C, C++
** and the kernels' own names could clash with; two more have no rows (one
** never loaded, one loaded from an empty file). The tables are created by
** SQL (bind_create_table) and loaded from CSV (an unquoted empty field is
** NULL, "" an empty string) into a fresh data directory; the queries go
** through exectest_check.
**
** Covered: IS [NOT] NULL, comparisons with NULL, [NOT] IN lists with
** NULLs, [NOT] LIKE, boolean results, CASE, COUNT(x) against COUNT(*),
** SUM/AVG/MIN/MAX over groups that are all NULL, grouping by nullable
** columns (NULL is a group of its own), ORDER BY with NULLS FIRST / LAST,
** scalar aggregates over no rows, a foreign key with no dimension row (the
** inner join drops the row), DECIMAL arithmetic and AVG, DOUBLE sums; and
** the errors: a BIGINT SUM past its range (22003), division by zero
** (22012), an INTEGER product past INTEGER's range (22003, as PostgreSQL;
** SQLite would widen it).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-exec.h"
#include "test-plan.h"
#include "test.h"

#define NT_FACT_ROWS 48

/* One fact row r of the CSV: each column NULL on its own period, so some
** groups of g hold NULLs only (i is NULL whenever g is 3). */
static void nt_fact_row(strbuf *s, int r) {
  static const char *const azS[] = {"red", "green", "blue", "Red", "\"\"", "x*/y"};
  static const int aDk[] = {1, 2, 3, 4, 5, 9, 2};      /* 9: no such dimension row */
  static const int aSk[] = {10, 1000, 100000, -5, 77};  /* sparse; 77: no such row */
  strbuf_printf(s, "%d,", r);
  if (r % 8 != 7) strbuf_printf(s, "%d", aDk[r % 7]);
  strbuf_puts(s, ",");
  if (r % 4 != 3 && r % 7 != 0) strbuf_printf(s, "%d", r * 7 - 90);
  strbuf_puts(s, ",");
  if (r % 3 != 1) strbuf_printf(s, "%lld", (long long)r * 1000000007ll - 20000000000ll);
  strbuf_puts(s, ",");
  if (r % 5 != 2) strbuf_printf(s, "%.17g", r * 0.1 - 1.3);
  strbuf_puts(s, ",");
  if (r % 6 != 4) strbuf_printf(s, "%s%d.%02d", r * 137 < 1005 ? "-" : "", abs(r * 137 - 1005) / 100,
                                abs(r * 137 - 1005) % 100);
  strbuf_puts(s, ",");
  if (r % 9 != 5) strbuf_printf(s, "2020-%02d-%02d", 1 + r % 3, 1 + r % 28);
  strbuf_puts(s, ",");
  if (r % 7 != 3) strbuf_puts(s, azS[r % 6]);
  strbuf_puts(s, ",");
  if (r % 5 != 0) strbuf_printf(s, "%d", r % 4);
  /* hb: 2^62 in four rows, so its SUM passes BIGINT; w: 50000 squared passes INTEGER */
  strbuf_printf(s, ",%s,%d,", r % 12 == 0 ? "4611686018427387904" : "1", r % 10 == 0 ? 50000 : r);
  if (r % 11 != 0) strbuf_printf(s, "%d", aSk[r % 5]);
  strbuf_puts(s, "\n");
}

/* big: sparse BIGINT keys (a hash lookup), every third fact row's b among
** them, and keys no fact row has. */
static void nt_big_rows(strbuf *s) {
  for (int r = 0; r < NT_FACT_ROWS; r += 3) {
    strbuf_printf(s, "%lld,", (long long)r * 1000000007ll - 20000000000ll);
    if (r % 4 != 1) strbuf_printf(s, "%d", r % 5);
    strbuf_printf(s, ",%s\n", r % 9 == 0 ? "" : r % 2 ? "odd" : "even");
  }
  strbuf_puts(s, "-7,1,junk\n9000000000000000000,2,junk\n");
}

/* cal: the days of 2020's first quarter (a date lookup), every fifth one
** missing, with a nullable season. */
static void nt_cal_rows(strbuf *s) {
  static const int aDays[] = {31, 29, 31};
  for (int m = 1, n = 0; m <= 3; m++) {
    for (int d = 1; d <= aDays[m - 1]; d++, n++) {
      if (n % 5 == 4) continue;
      strbuf_printf(s, "2020-%02d-%02d,%d,%s\n", m, d, n % 4, n % 7 == 0 ? "" : m == 3 ? "spring"
                                                                          : "winter");
    }
  }
}

/* A fresh data directory ./data with the tables, then the engines on it:
** the CPU backend, or with bResident the mock GPU (tests/mock), whose
** column cache keeps fact columns resident (decoded, a NULL row's 0). */
/* The tables, dimensions before the fact table that references them. */
static const char *const nt_azCreate[] = {
  "CREATE TABLE dim (did INTEGER PRIMARY KEY, name VARCHAR(20), grp VARCHAR(10), score INTEGER,"
  " \"tag*/x\" SMALLINT)",
  "CREATE TABLE big (bk BIGINT PRIMARY KEY, tier SMALLINT, label VARCHAR(8))",
  "CREATE TABLE cal (day DATE PRIMARY KEY, q INTEGER, season VARCHAR(8))",
  "CREATE TABLE sp (sk INTEGER PRIMARY KEY, nick VARCHAR(6))",
  "CREATE TABLE fact (id INTEGER NOT NULL, dk INTEGER REFERENCES dim, i INTEGER,"
  " b BIGINT REFERENCES big, d DOUBLE PRECISION, m DECIMAL(10,2), dt DATE REFERENCES cal,"
  " s VARCHAR(12), g SMALLINT, hb BIGINT, w INTEGER, sk INTEGER REFERENCES sp)",
  /* column names the kernels' own names, C or C++ could clash with */
  "CREATE TABLE odd (err INTEGER, \"float\" INTEGER, \"s.\" INTEGER, s INTEGER, s_ok INTEGER,"
  " p0 INTEGER, \"a b\" INTEGER, a_b INTEGER, \"groups\" INTEGER, \"bool\" INTEGER, n_odd INTEGER)",
  /* never loaded, and loaded with no rows */
  "CREATE TABLE unloaded (k INTEGER PRIMARY KEY, v INTEGER, t VARCHAR(4))",
  "CREATE TABLE emptied (k INTEGER PRIMARY KEY, v INTEGER, t VARCHAR(4))",
};

static void nt_open_on(exectest *t, int bResident) {
  cat *pCat;
  char zErr[512];
  strbuf s;
  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("cat_open: %s", zErr);
  for (size_t i = 0; i < sizeof(nt_azCreate) / sizeof(nt_azCreate[0]); i++) {
    plantest_sql_table(pCat, nt_azCreate[i]);
  }
  plantest_load(pCat, "emptied", "");
  plantest_load(pCat, "sp", "10,ten\n1000,\n100000,lakh\n-5,minus\n");
  plantest_load(pCat, "dim", "1,alpha,A,10,1\n2,beta,A,,1\n3,,B,30,2\n4,delta,B,40,\n5,\"\",,50,2\n");
  plantest_load(pCat, "odd", "1,2,3,4,5,6,7,8,1,10,11\n,12,13,,15,16,17,18,2,,21\n"
                             "31,32,33,34,35,36,37,38,1,40,41\n");
  strbuf_init(&s);
  nt_big_rows(&s);
  plantest_load(pCat, "big", strbuf_str(&s));
  strbuf_reset(&s);
  nt_cal_rows(&s);
  plantest_load(pCat, "cal", strbuf_str(&s));
  strbuf_reset(&s);
  for (int r = 0; r < NT_FACT_ROWS; r++) nt_fact_row(&s, r);
  ASSERT(!strbuf_error(&s));
  plantest_load(pCat, "fact", strbuf_str(&s));
  strbuf_free(&s);
  cat_close(pCat);
  if (bResident) exectest_open_mock(t, NULL);
  else exectest_open(t, NULL);
}

static void nt_open(exectest *t) {
  nt_open_on(t, 0);
}

typedef struct nt_case nt_case;
struct nt_case {
  const char *zSql;
  int bOrdered;
};

static void nt_check_all(exectest *t, const nt_case *a, size_t n) {
  for (size_t i = 0; i < n; i++) exectest_check(t, a[i].zSql, a[i].bOrdered);
}

/* Predicates: IS NULL, comparisons with NULL, IN and NOT IN with NULLs,
** three-valued AND / OR / NOT, in WHERE of the fact and of the dimension. */
static const nt_case nt_aPred[] = {
  {"SELECT id FROM fact WHERE i IS NULL ORDER BY id", 1},
  {"SELECT id, i FROM fact WHERE i IS NOT NULL AND s IS NULL ORDER BY id", 1},
  {"SELECT count(*) FROM fact WHERE i = NULL OR i <> NULL", 0},
  {"SELECT id FROM fact WHERE NOT (i > 0) ORDER BY id", 1},
  {"SELECT id FROM fact WHERE i > 0 OR i IS NULL ORDER BY id", 1},
  {"SELECT id FROM fact WHERE (i > 0 AND b > 0) OR (d < 0 AND m > 0) ORDER BY id", 1},
  {"SELECT id FROM fact WHERE NOT (i > 0 OR d > 0) ORDER BY id", 1},
  {"SELECT id FROM fact WHERE i IN (-83, -62, 1, 8) ORDER BY id", 1},
  {"SELECT count(*) FROM fact WHERE i IN (-83, NULL)", 0},
  {"SELECT count(*) FROM fact WHERE i NOT IN (-83, -62)", 0},
  {"SELECT count(*) FROM fact WHERE i NOT IN (-83, NULL)", 0},
  {"SELECT id FROM fact WHERE s IN ('red', 'blue') ORDER BY id", 1},
  {"SELECT count(*) FROM fact WHERE s NOT IN ('red', 'blue')", 0},
  {"SELECT count(*) FROM fact WHERE s NOT IN ('red', NULL)", 0},
  {"SELECT count(*) FROM fact WHERE s = '' OR s LIKE 'x*/%'", 0},
  {"SELECT id FROM fact WHERE s NOT LIKE 'r%' ORDER BY id", 1},
  {"SELECT id FROM fact WHERE NOT (s LIKE '_e%' OR s BETWEEN 'a' AND 'c') ORDER BY id", 1},
  {"SELECT count(*) FROM fact WHERE s > 'green' OR s < 'blue'", 0},
  {"SELECT id FROM fact WHERE dt IS NULL OR dt < DATE '2020-01-05' ORDER BY id", 1},
  {"SELECT id FROM fact WHERE dt BETWEEN DATE '2020-02-01' AND DATE '2020-02-20' ORDER BY id", 1},
  {"SELECT id FROM fact WHERE m > 1.5 AND m <= 30 ORDER BY id", 1},
  /* a BIGINT near its limit against DECIMALs: compared, never rescaled past 64 bits */
  {"SELECT id FROM fact WHERE hb > 0.5 ORDER BY id", 1},
  {"SELECT id FROM fact WHERE hb > m ORDER BY id", 1},
  {"SELECT id FROM fact WHERE hb IN (1.0, 2.5) OR hb BETWEEN 0.5 AND 1e3 ORDER BY id", 1},
  {"SELECT id, CASE hb WHEN 1.00 THEN 1 ELSE 0 END FROM fact ORDER BY id", 1},
  {"SELECT id FROM fact WHERE d >= 0.5 OR b < 0 ORDER BY id", 1},
  {"SELECT id FROM fact WHERE g IS NULL ORDER BY id", 1},
  {"SELECT id FROM fact WHERE dk IS NOT NULL AND i / 7 > 2 ORDER BY id", 1},
  {"SELECT id FROM fact JOIN dim ON dk = did WHERE name IS NULL ORDER BY id", 1},
  {"SELECT id FROM fact JOIN dim ON dk = did WHERE (name = '' OR name > 'c')"
   " AND (score IS NULL OR score > 35) ORDER BY id", 1},
  {"SELECT id FROM fact, dim WHERE dk = did AND (score > 20 OR i > 0) ORDER BY id", 1},
};

/* Values: CASE, arithmetic with NULLs, DECIMAL and DOUBLE expressions,
** plain rows in ORDER BY with NULLS FIRST / LAST. */
static const nt_case nt_aValue[] = {
  {"SELECT id, CASE WHEN i IS NULL THEN -1 WHEN i > 10 THEN 1 ELSE 0 END FROM fact ORDER BY id", 1},
  {"SELECT id, CASE i WHEN -83 THEN 1 WHEN 57 THEN 2 END, CASE WHEN d > 0 THEN d END FROM fact"
   " ORDER BY id", 1},
  {"SELECT id, i + 1, b - i, i * g, -i FROM fact ORDER BY id", 1},
  {"SELECT id, i > 0, i IS NULL, NOT (d > 0), i > 0 AND d > 0, i > 0 OR d > 0 FROM fact"
   " ORDER BY id", 1},
  {"SELECT id, m, m + 1, m * 2, m - i, m * m, m / 4 FROM fact ORDER BY id", 1},
  {"SELECT id, i / 7, i % 7, -i % 5, b / 1000, b % 1000, g * 20000, g * g FROM fact ORDER BY id", 1},
  {"SELECT id, m + 0.125, m * d, m * g, m > d, m * 1.5 < i FROM fact ORDER BY id", 1},
  {"SELECT id, m + d, d * 2, d + i, d / 4 FROM fact ORDER BY id", 1},
  {"SELECT id, CAST(m AS INTEGER), CAST(i AS DOUBLE PRECISION), CAST(g AS BIGINT) FROM fact"
   " ORDER BY id", 1},
  {"SELECT id, i FROM fact ORDER BY i NULLS FIRST, id", 1},
  {"SELECT id, i FROM fact ORDER BY i DESC NULLS LAST, id", 1},
  {"SELECT id, s FROM fact ORDER BY s, id DESC", 1},
  {"SELECT id, s FROM fact ORDER BY s DESC, id", 1},
  {"SELECT id, dt, m FROM fact ORDER BY dt NULLS FIRST, m DESC, id", 1},
  {"SELECT id, d FROM fact ORDER BY d DESC NULLS LAST, id LIMIT 10", 1},
  {"SELECT id, name, score, \"tag*/x\" FROM fact JOIN dim ON dk = did"
   " ORDER BY name NULLS FIRST, id", 1},
};

/* Aggregates: COUNT(x) against COUNT(*), groups whose values are all NULL,
** nullable group keys, HAVING over NULL aggregates, scalar aggregates over
** no rows, joins that drop rows with no dimension row. */
static const nt_case nt_aAgg[] = {
  {"SELECT count(*), count(i), count(b), count(d), count(m), count(dt), count(s), count(g),"
   " count(dk) FROM fact", 0},
  {"SELECT sum(i), min(i), max(i), avg(i), sum(b), avg(b), min(dt), max(dt) FROM fact", 0},
  {"SELECT sum(d), avg(d), min(d), max(d), sum(m), avg(m), min(m), max(m) FROM fact", 0},
  {"SELECT sum(m * 2), sum(m + i), avg(m * m), sum(d * i) FROM fact", 0},
  {"SELECT sum(i), count(*), count(i), min(m), max(dt), avg(d) FROM fact WHERE id < 0", 0},
  {"SELECT count(*), sum(CASE WHEN i > 0 THEN 1 ELSE 0 END), count(CASE WHEN i > 0 THEN 1 END)"
   " FROM fact", 0},
  {"SELECT g, count(*), count(i), sum(i), min(i), max(i), avg(i) FROM fact GROUP BY g ORDER BY g", 1},
  {"SELECT g, sum(d), avg(m), min(dt) FROM fact GROUP BY g ORDER BY g DESC", 1},
  {"SELECT s, count(*), sum(b) FROM fact GROUP BY s ORDER BY s NULLS FIRST", 1},
  {"SELECT dt, count(*) FROM fact GROUP BY dt", 0},
  {"SELECT i, count(*), sum(b) FROM fact GROUP BY i", 0},
  {"SELECT b, m, count(*) FROM fact GROUP BY b, m ORDER BY b NULLS FIRST, m", 1},
  {"SELECT m, count(*), max(d) FROM fact GROUP BY m ORDER BY m DESC", 1},
  {"SELECT hb, count(*), min(w) FROM fact GROUP BY hb", 0},
  {"SELECT g, s, count(*), sum(m) FROM fact GROUP BY g, s ORDER BY g, s", 1},
  {"SELECT g, sum(i) FROM fact GROUP BY g HAVING sum(i) IS NULL", 0},
  {"SELECT g, count(*) FROM fact GROUP BY g HAVING max(i) > 0 OR min(i) IS NULL", 0},
  {"SELECT g, sum(i) + 1, avg(i) * 2, max(i) - min(i) FROM fact GROUP BY g", 0},
  {"SELECT name, count(*), sum(i), count(score) FROM fact JOIN dim ON dk = did GROUP BY name"
   " ORDER BY name", 1},
  {"SELECT grp, sum(score), avg(score), count(*) FROM fact, dim WHERE dk = did GROUP BY grp", 0},
  {"SELECT \"tag*/x\", count(*) FROM fact JOIN dim ON dk = did GROUP BY \"tag*/x\"", 0},
  {"SELECT count(*), count(dk) FROM fact JOIN dim ON dk = did", 0},
  {"SELECT sum(score), count(*) FROM fact JOIN dim ON dk = did WHERE grp = 'Z'", 0},
  {"SELECT DISTINCT g, s FROM fact", 0},
  /* hash lookups on sparse INTEGER and BIGINT keys and a date lookup, all
  ** with NULL and missing foreign keys */
  {"SELECT nick, count(*), sum(i), max(sp.sk) FROM fact JOIN sp ON fact.sk = sp.sk GROUP BY nick", 0},
  {"SELECT id, nick, sp.sk FROM fact, sp WHERE fact.sk = sp.sk AND (nick > 'm' OR nick < 'b')"
   " ORDER BY id", 1},
  {"SELECT label, count(*), sum(i), min(b) FROM fact JOIN big ON b = bk GROUP BY label"
   " ORDER BY label", 1},
  {"SELECT tier, count(*), avg(d) FROM fact, big WHERE b = bk AND tier IS NOT NULL GROUP BY tier", 0},
  {"SELECT season, q, count(*), min(m), max(dt) FROM fact JOIN cal ON dt = day GROUP BY season, q"
   " ORDER BY season, q", 1},
  {"SELECT name, season, tier, count(*) FROM fact, dim, cal, big WHERE dk = did AND dt = day"
   " AND b = bk GROUP BY name, season, tier", 0},
  {"SELECT id, label, season, day FROM fact JOIN big ON b = bk JOIN cal ON dt = day"
   " WHERE label <> 'odd' AND (q > 1 OR tier IS NULL) ORDER BY id", 1},
};

/* Columns named like the kernels' own variables, C or C++ keywords, or
** like each other once lower-cased and made identifiers. */
static const nt_case nt_aNames[] = {
  {"SELECT err, \"float\", \"s.\", s, s_ok, p0, \"a b\", a_b, \"groups\", \"bool\", n_odd FROM odd"
   " WHERE s IS NULL OR s > \"s.\" OR err < p0 ORDER BY err", 1},
  {"SELECT \"groups\", sum(err), count(s), max(\"float\" + \"s.\"), min(\"a b\" - a_b) FROM odd"
   " GROUP BY \"groups\" ORDER BY 1", 1},
};

/* Tables without rows: one never loaded, one loaded from an empty file. */
static const nt_case nt_aEmpty[] = {
  {"SELECT count(*), sum(v), count(t), max(k) FROM unloaded", 0},
  {"SELECT count(*), sum(v), avg(v) FROM emptied WHERE v > 0", 0},
  {"SELECT t, count(*) FROM unloaded GROUP BY t", 0},
  {"SELECT k, v, t FROM emptied ORDER BY k", 1},
  {"SELECT count(*), sum(i) FROM fact, unloaded WHERE dk = k", 0},
  {"SELECT t, sum(i) FROM fact JOIN emptied ON dk = k GROUP BY t", 0},
};

TEST_IMPL(exec_nulls) {
  exectest t;
  nt_open(&t);
  nt_check_all(&t, nt_aPred, sizeof(nt_aPred) / sizeof(nt_aPred[0]));
  nt_check_all(&t, nt_aValue, sizeof(nt_aValue) / sizeof(nt_aValue[0]));
  nt_check_all(&t, nt_aAgg, sizeof(nt_aAgg) / sizeof(nt_aAgg[0]));
  nt_check_all(&t, nt_aNames, sizeof(nt_aNames) / sizeof(nt_aNames[0]));
  nt_check_all(&t, nt_aEmpty, sizeof(nt_aEmpty) / sizeof(nt_aEmpty[0]));
  exectest_close(&t);
  return 0;
}

/* The same with the fact table's columns resident in device memory (the
** mock GPU): nullable INTEGER, SMALLINT, DATE, BIGINT and foreign-key
** columns decoded, the validity bits beside them. */
TEST_IMPL(exec_nulls_resident) {
  exectest t;
  nt_open_on(&t, 1);
  nt_check_all(&t, nt_aPred, sizeof(nt_aPred) / sizeof(nt_aPred[0]));
  nt_check_all(&t, nt_aValue, sizeof(nt_aValue) / sizeof(nt_aValue[0]));
  nt_check_all(&t, nt_aAgg, sizeof(nt_aAgg) / sizeof(nt_aAgg[0]));
  exectest_check(&t, "SELECT sum(i), min(i), max(g), count(dk), min(dt), max(w) FROM fact", 0);
  ASSERT_EQ(t.last.nColResident, 10);          /* 5 nullable columns: values and validity */
  exectest_close(&t);
  return 0;
}

/* PostgreSQL's errors where SQLite would give a value; and NULL operands,
** which raise nothing. */
TEST_IMPL(exec_null_errors) {
  exectest t;
  nt_open(&t);
  exectest_error(&t, "SELECT sum(hb) FROM fact", "22003");
  exectest_error(&t, "SELECT g, sum(hb) FROM fact GROUP BY g", "22003");
  exectest_error(&t, "SELECT w * w FROM fact", "22003");
  exectest_error(&t, "SELECT sum(w * w) FROM fact", "22003");
  exectest_error(&t, "SELECT CAST(32767 AS SMALLINT) + g FROM fact", "22003");   /* SMALLINT's range */
  exectest_error(&t, "SELECT i / (id - id) FROM fact", "22012");
  exectest_error(&t, "SELECT id FROM fact WHERE m / (i - i) > 0", "22012");
  exectest_error(&t, "SELECT sum(d / (g - g)) FROM fact", "22012");
  exectest_error(&t, "SELECT i % (g - g) FROM fact", "22012");
  /* the operands are NULL in every row that reaches them: no error */
  exectest_check(&t, "SELECT id, i / (id - id) FROM fact WHERE i IS NULL ORDER BY id", 1);
  exectest_check(&t, "SELECT sum(w * w) FROM fact WHERE w < 50000", 0);
  exectest_check(&t, "SELECT sum(hb) FROM fact WHERE hb = 1", 0);
  exectest_close(&t);
  return 0;
}
