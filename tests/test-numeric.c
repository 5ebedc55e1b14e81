/*
** tests/test-numeric.c — NUMERIC (common/numeric.h, numeric.c): edges by
** hand, then the library against PostgreSQL 15 on random operands
** (pgdiff.h): every operation, scale and rounding rule, conversions,
** errors, and sums of many terms as analytic queries make them.
*/
#include <float.h>
#include <math.h>

#include "../common/numeric.h"
#include "../common/numfmt.h"
#include "../common/strbuf.h"
#include "pgdiff.h"
#include "test.h"

/* Parses z or fails the test. */
static numeric nt_num(const char *z) {
  numeric v;
  sql_error e;
  sql_error_clear(&e);
  if (numeric_parse(z, strlen(z), &v, &e) != 0) FAIL("\"%s\": %s %s", z, e.zState, e.zMsg);
  return v;
}

/* Writes an operation's outcome as pgdiff expects it: the value's text, or
** "ERROR SQLSTATE: message". */
static void nt_outcome(int rc, const numeric *r, const char *zIntType, char *z, size_t n) {
  if (rc != NUMERIC_OK) {
    sql_error e;
    sql_error_clear(&e);
    numeric_error(rc, zIntType, &e);
    snprintf(z, n, "ERROR %s: %s", e.zState, e.zMsg);
  } else {
    numeric_format(r, z, n);
  }
}

/* The outcome of a binary operation on two texts. */
typedef int (*nt_binop)(const numeric *, const numeric *, numeric *);
static const char *nt_bin(nt_binop x, const char *zA, const char *zB) {
  static char z[NUMERIC_TEXT_MAX + 64];
  numeric a = nt_num(zA), b = nt_num(zB), r;
  nt_outcome(x(&a, &b, &r), &r, "bigint", z, sizeof(z));
  return z;
}

static const char *nt_round(int (*x)(const numeric *, int, numeric *), const char *zA, int n) {
  static char z[NUMERIC_TEXT_MAX + 64];
  numeric a = nt_num(zA), r;
  nt_outcome(x(&a, n, &r), &r, "bigint", z, sizeof(z));
  return z;
}

/* The library's text of zIn as a numeric, or its error (a static
** buffer, grown for long scales). */
static const char *nt_text(const char *zIn) {
  static char *z;
  numeric v;
  sql_error e;
  free(z);
  sql_error_clear(&e);
  if (numeric_parse(zIn, strlen(zIn), &v, &e) != 0) {
    z = malloc(sizeof(e.zMsg) + 32);
    ASSERT(z != NULL);
    snprintf(z, sizeof(e.zMsg) + 32, "ERROR %s: %s", e.zState, e.zMsg);
  } else {
    size_t n = (size_t)v.scale + NUMERIC_TEXT_MAX;
    z = malloc(n);
    ASSERT(z != NULL);
    numeric_format(&v, z, n);
  }
  return z;
}

TEST_IMPL(numeric_edges) {
  static const char *const aText[][2] = {
      {"0", "0"}, {"-0", "0"}, {"-0.00", "0.00"}, {"12.50", "12.50"}, {"  +1.5e3 ", "1500"},
      {"1e-3", "0.001"}, {".5", "0.5"}, {"5.", "5"}, {"1.50E+1", "15.0"}, {"1e 2", "100"},
      {"NaN", "NaN"}, {" nan ", "NaN"}, {"inf", "Infinity"}, {"-Infinity", "-Infinity"},
      {"+INF", "Infinity"}, {"0.000000000000000000000000000000000000000000001",
                             "0.000000000000000000000000000000000000000000001"},
      {"99999999999999999999999999999999999999", "99999999999999999999999999999999999999"},
      {"-99999999999999999999999999999999999999", "-99999999999999999999999999999999999999"},
      {"999999999999999999999999999999999999999", "ERROR 22003: value overflows numeric format"},
      {"1e38", "ERROR 22003: value overflows numeric format"},
      {"1.2.3", "ERROR 22P02: invalid input syntax for type numeric: \"1.2.3\""},
      {"", "ERROR 22P02: invalid input syntax for type numeric: \"\""},
      {".", "ERROR 22P02: invalid input syntax for type numeric: \".\""},
      {"e5", "ERROR 22P02: invalid input syntax for type numeric: \"e5\""},
      {"1e", "ERROR 22P02: invalid input syntax for type numeric: \"1e\""},
      {"1 2", "ERROR 22P02: invalid input syntax for type numeric: \"1 2\""},
      {"NaNx", "ERROR 22P02: invalid input syntax for type numeric: \"NaNx\""},
  };
  for (size_t i = 0; i < sizeof(aText) / sizeof(aText[0]); i++) {
    ASSERT_STR_EQ(nt_text(aText[i][0]), aText[i][1]);
  }

  /* Scales: add takes the larger, mul the sum, div select_div_scale. */
  ASSERT_STR_EQ(nt_bin(numeric_add, "1.5", "2.25"), "3.75");
  ASSERT_STR_EQ(nt_bin(numeric_sub, "1.50", "2"), "-0.50");
  ASSERT_STR_EQ(nt_bin(numeric_mul, "1.50", "2.0"), "3.000");
  ASSERT_STR_EQ(nt_bin(numeric_div, "1", "3"), "0.33333333333333333333");
  ASSERT_STR_EQ(nt_bin(numeric_div, "2", "3"), "0.66666666666666666667");
  ASSERT_STR_EQ(nt_bin(numeric_div, "10", "4"), "2.5000000000000000");
  ASSERT_STR_EQ(nt_bin(numeric_div, "999999999", "100.0"), "9999999.990000000000");
  ASSERT_STR_EQ(nt_bin(numeric_div, "5", "100.0"), "0.05000000000000000000");
  ASSERT_STR_EQ(nt_bin(numeric_div, "-7", "2"), "-3.5000000000000000");
  ASSERT_STR_EQ(nt_bin(numeric_div, "1", "0"), "ERROR 22012: division by zero");
  ASSERT_STR_EQ(nt_bin(numeric_div, "1", "Infinity"), "0");
  ASSERT_STR_EQ(nt_bin(numeric_div, "Infinity", "-2"), "-Infinity");
  ASSERT_STR_EQ(nt_bin(numeric_div, "Infinity", "0"), "ERROR 22012: division by zero");
  ASSERT_STR_EQ(nt_bin(numeric_mod, "-7", "3"), "-1");
  ASSERT_STR_EQ(nt_bin(numeric_mod, "7.5", "2"), "1.5");
  ASSERT_STR_EQ(nt_bin(numeric_mod, "5", "-Infinity"), "5");
  ASSERT_STR_EQ(nt_bin(numeric_div_trunc, "-7.9", "2"), "-3");
  ASSERT_STR_EQ(nt_bin(numeric_add, "Infinity", "-Infinity"), "NaN");
  ASSERT_STR_EQ(nt_bin(numeric_mul, "Infinity", "0"), "NaN");
  ASSERT_STR_EQ(nt_bin(numeric_sub, "NaN", "1"), "NaN");
  /* Past 38 digits: PostgreSQL's own limit's error. */
  ASSERT_STR_EQ(nt_bin(numeric_add, "99999999999999999999999999999999999999", "1"),
                "ERROR 22003: value overflows numeric format");
  ASSERT_STR_EQ(nt_bin(numeric_sub, "1", "0.99999999999999999999999999999999999999"),
                "0.00000000000000000000000000000000000001");
  ASSERT_STR_EQ(nt_bin(numeric_mul, "1.23456789012345678901", "1.23456789012345678901"),
                "ERROR 22003: value overflows numeric format");

  /* Rounding: half away from zero; negative places; the scale. */
  ASSERT_STR_EQ(nt_round(numeric_round, "2.5", 0), "3");
  ASSERT_STR_EQ(nt_round(numeric_round, "-2.5", 0), "-3");
  ASSERT_STR_EQ(nt_round(numeric_round, "1234.5678", -2), "1200");
  ASSERT_STR_EQ(nt_round(numeric_round, "1.5", 3), "1.500");
  ASSERT_STR_EQ(nt_round(numeric_round, "0.0000000000000000000000000000000000000000000005", 0), "0");
  ASSERT_STR_EQ(nt_round(numeric_round, "99.5", 0), "100");
  ASSERT_STR_EQ(nt_round(numeric_trunc, "-1.99", 0), "-1");
  ASSERT_STR_EQ(nt_round(numeric_trunc, "1999", -3), "1000");
  {
    numeric a = nt_num("-0.5"), r;
    char z[64];
    ASSERT_EQ(numeric_ceil(&a, &r), NUMERIC_OK);
    numeric_format(&r, z, sizeof(z));
    ASSERT_STR_EQ(z, "0");
    ASSERT_EQ(numeric_floor(&a, &r), NUMERIC_OK);
    numeric_format(&r, z, sizeof(z));
    ASSERT_STR_EQ(z, "-1");
  }

  /* Integers: rounded, ranged. */
  {
    int64_t v;
    numeric a = nt_num("2.5"), b = nt_num("-2.5"), c = nt_num("9223372036854775807.5");
    numeric d = nt_num("-9223372036854775808.4"), nan = nt_num("NaN");
    ASSERT_EQ(numeric_to_int64(&a, INT64_MIN, INT64_MAX, &v), NUMERIC_OK);
    ASSERT_EQ(v, 3);
    ASSERT_EQ(numeric_to_int64(&b, INT64_MIN, INT64_MAX, &v), NUMERIC_OK);
    ASSERT_EQ(v, -3);
    ASSERT_EQ(numeric_to_int64(&c, INT64_MIN, INT64_MAX, &v), NUMERIC_E_INT_RANGE);
    ASSERT_EQ(numeric_to_int64(&d, INT64_MIN, INT64_MAX, &v), NUMERIC_OK);
    ASSERT(v == INT64_MIN);
    ASSERT_EQ(numeric_to_int64(&nan, INT64_MIN, INT64_MAX, &v), NUMERIC_E_INT_NAN);
    a = numeric_from_int64(INT64_MIN);
    ASSERT_EQ(numeric_to_int64(&a, INT64_MIN, INT64_MAX, &v), NUMERIC_OK);
    ASSERT(v == INT64_MIN);
  }

  /* Doubles: 15 significant digits in, the nearest double out. */
  {
    numeric v;
    sql_error e;
    char z[64];
    sql_error_clear(&e);
    ASSERT_EQ(numeric_from_double(0.1, &v, &e), 0);
    numeric_format(&v, z, sizeof(z));
    ASSERT_STR_EQ(z, "0.1");
    ASSERT_EQ(numeric_from_double(1.0 / 3, &v, &e), 0);
    numeric_format(&v, z, sizeof(z));
    ASSERT_STR_EQ(z, "0.333333333333333");
    ASSERT_EQ(numeric_from_double(1e20, &v, &e), 0);
    numeric_format(&v, z, sizeof(z));
    ASSERT_STR_EQ(z, "100000000000000000000");
    v = nt_num("0.1");
    ASSERT(numeric_to_double(&v) == 0.1);
    v = nt_num("-Infinity");
    ASSERT(isinf(numeric_to_double(&v)) && numeric_to_double(&v) < 0);
  }

  /* Order: -Infinity < numbers < Infinity < NaN; 1.50 = 1.5. */
  {
    static const char *const azOrder[] = {"-Infinity", "-1e10", "-0.5", "0", "0.00", "1.5",
                                          "1.50", "99999999999999999999999999999999999999",
                                          "Infinity", "NaN"};
    for (size_t i = 0; i + 1 < sizeof(azOrder) / sizeof(azOrder[0]); i++) {
      numeric a = nt_num(azOrder[i]), b = nt_num(azOrder[i + 1]);
      int bEqual = (i == 3 || i == 5);
      ASSERT_EQ(numeric_cmp(&a, &b), bEqual ? 0 : -1);
      ASSERT_EQ(numeric_cmp(&b, &a), bEqual ? 0 : 1);
    }
  }

  /* NUMERIC(p, s). */
  {
    numeric a = nt_num("123.455"), r;
    char z[64];
    ASSERT_EQ(numeric_typmod_apply(&a, 5, 2, &r), NUMERIC_OK);
    numeric_format(&r, z, sizeof(z));
    ASSERT_STR_EQ(z, "123.46");
    ASSERT_EQ(numeric_typmod_apply(&a, 4, 2, &r), NUMERIC_E_FIELD_OVERFLOW);
    a = nt_num("999.995");
    ASSERT_EQ(numeric_typmod_apply(&a, 5, 2, &r), NUMERIC_E_FIELD_OVERFLOW);
  }
  return 0;
}

/* ---- against PostgreSQL ---------------------------------------------------- */

/* A random operand's text: mostly a few digits either side of the point,
** sometimes up to 19, zeros with a scale, ties (a last digit 5), powers
** of two and five (exact quotients that end on a tie), and specials. */
static void nt_operand(uint64_t *pr, char *z, size_t n) {
  static const char *const azSpecial[] = {"NaN", "Infinity", "-Infinity", "0", "0.000", "1",
                                          "-1", "0.5", "2", "4", "8", "16", "0.25", "0.125",
                                          "1024", "0.0625", "5", "3", "7", "100.0"};
  int k = (int)pgdiff_below(pr, 100), nInt, nFrac;
  size_t i = 0;
  if (k < 12) {
    snprintf(z, n, "%s", azSpecial[pgdiff_below(pr, k < 2 ? 3 : 20)]);
    return;
  }
  nInt = (int)(pgdiff_below(pr, 4) == 0 ? pgdiff_below(pr, 20) : pgdiff_below(pr, 8));
  nFrac = (int)(pgdiff_below(pr, 4) == 0 ? pgdiff_below(pr, 20) : pgdiff_below(pr, 7));
  if (nInt + nFrac == 0) nInt = 1;
  if (pgdiff_below(pr, 2)) z[i++] = '-';
  if (nInt == 0) z[i++] = '0';
  for (int j = 0; j < nInt; j++) z[i++] = (char)('0' + (j == 0 ? 1 + pgdiff_below(pr, 9) : pgdiff_below(pr, 10)));
  if (nFrac > 0) {
    z[i++] = '.';
    for (int j = 0; j < nFrac; j++) z[i++] = (char)('0' + pgdiff_below(pr, 10));
    if (pgdiff_below(pr, 5) == 0) z[i - 1] = '5';
  }
  z[i] = 0;
}

/* Our limit, not PostgreSQL's: the library refused with "value overflows
** numeric format" and PostgreSQL's exact answer has more than 38
** digits. */
static int nt_accept_overflow(const char *zExpr, const char *zWant, const char *zGot) {
  int nDigit = 0, bLead = 1;
  (void)zExpr;
  if (strcmp(zWant, "ERROR 22003: value overflows numeric format") != 0) return 0;
  for (const char *z = zGot; *z; z++) {
    if (*z < '0' || *z > '9') continue;
    if (bLead && *z == '0') continue;
    bLead = 0;
    nDigit++;
  }
  return nDigit > NUMERIC_MAX_DIGITS;
}

/* Adds the cases of one pair of operands and a place count. */
static void nt_cases_pair(pgdiff *d, uint64_t *pr, const char *zA, const char *zB, int nPlace) {
  static const struct {
    const char *zFmt;      /* two %s: a, b */
    nt_binop x;
  } aBin[] = {
      {"'%s'::numeric + '%s'::numeric", numeric_add},
      {"'%s'::numeric - '%s'::numeric", numeric_sub},
      {"'%s'::numeric * '%s'::numeric", numeric_mul},
      {"'%s'::numeric / '%s'::numeric", numeric_div},
      {"mod('%s'::numeric, '%s'::numeric)", numeric_mod},
      {"div('%s'::numeric, '%s'::numeric)", numeric_div_trunc},
  };
  numeric a = nt_num(zA), b = nt_num(zB), r;
  char z[NUMERIC_TEXT_MAX + 64];
  int64_t v;
  for (size_t i = 0; i < sizeof(aBin) / sizeof(aBin[0]); i++) {
    nt_outcome(aBin[i].x(&a, &b, &r), &r, "", z, sizeof(z));
    pgdiff_addf(d, z, aBin[i].zFmt, zA, zB);
  }
  nt_outcome(numeric_round(&a, nPlace, &r), &r, "", z, sizeof(z));
  pgdiff_addf(d, z, "round('%s'::numeric, %d)", zA, nPlace);
  nt_outcome(numeric_trunc(&a, nPlace, &r), &r, "", z, sizeof(z));
  pgdiff_addf(d, z, "trunc('%s'::numeric, %d)", zA, nPlace);
  nt_outcome(numeric_ceil(&a, &r), &r, "", z, sizeof(z));
  pgdiff_addf(d, z, "ceil('%s'::numeric)", zA);
  nt_outcome(numeric_floor(&a, &r), &r, "", z, sizeof(z));
  pgdiff_addf(d, z, "floor('%s'::numeric)", zA);
  r = numeric_abs(&a);
  nt_outcome(NUMERIC_OK, &r, "", z, sizeof(z));
  pgdiff_addf(d, z, "abs('%s'::numeric)", zA);
  r = numeric_neg(&b);
  nt_outcome(NUMERIC_OK, &r, "", z, sizeof(z));
  pgdiff_addf(d, z, "-('%s'::numeric)", zB);
  pgdiff_addf(d, numeric_cmp(&a, &b) < 0 ? "true" : "false", "'%s'::numeric < '%s'::numeric", zA, zB);
  pgdiff_addf(d, numeric_cmp(&a, &b) == 0 ? "true" : "false", "'%s'::numeric = '%s'::numeric", zA, zB);
  if (a.eKind == NUMERIC_NAN) snprintf(z, sizeof(z), "NaN");
  else snprintf(z, sizeof(z), "%d", numeric_sign(&a));
  pgdiff_addf(d, z, "sign('%s'::numeric)::text", zA);
  {
    int rc = numeric_to_int64(&a, INT64_MIN, INT64_MAX, &v);
    if (rc == NUMERIC_OK) snprintf(z, sizeof(z), "%" PRId64, v);
    else nt_outcome(rc, NULL, "bigint", z, sizeof(z));
    pgdiff_addf(d, z, "'%s'::numeric::int8", zA);
    rc = numeric_to_int64(&a, INT32_MIN, INT32_MAX, &v);
    if (rc == NUMERIC_OK) snprintf(z, sizeof(z), "%" PRId64, v);
    else nt_outcome(rc, NULL, "integer", z, sizeof(z));
    pgdiff_addf(d, z, "'%s'::numeric::int4", zA);
  }
  {
    int nP = 1 + (int)pgdiff_below(pr, 38), nS = (int)pgdiff_below(pr, nP + 1);
    nt_outcome(numeric_typmod_apply(&a, nP, nS, &r), &r, "", z, sizeof(z));
    pgdiff_addf(d, z, "'%s'::numeric::numeric(%d, %d)", zA, nP, nS);
  }
  /* To float8: the same double (PostgreSQL's text is its shortest). */
  {
    double x = numeric_to_double(&a);
    pgdiff_addf(d, "true", "'%s'::numeric::float8 = '%.17g'::float8", zA, x);
  }
}

/* Random spellings for numeric_in: digits, signs, points, exponents,
** blanks and the odd letter. */
static void nt_spelling(uint64_t *pr, char *z, size_t n) {
  static const char acPart[] = "0123456789012345678901234567890123456789..+-eE  xnN";
  int nLen = 1 + (int)pgdiff_below(pr, 12);
  size_t i = 0;
  for (int j = 0; j < nLen && i + 1 < n; j++) {
    char c = acPart[pgdiff_below(pr, (int64_t)sizeof(acPart) - 1)];
    if (c == '\'') c = '0';
    z[i++] = c;
  }
  z[i] = 0;
}

TEST_IMPL(numeric_pg) {
  pgdiff *d = pgdiff_new();
  pgref *p;
  char zErr[2048];
  uint64_t r = 24;
  int nCase = 0;

  CALL_OK(pgref_start(&p, "pg", zErr, sizeof(zErr)));

  for (int i = 0; i < 1500; i++) {
    char zA[64], zB[64];
    int nPlace;
    nt_operand(&r, zA, sizeof(zA));
    nt_operand(&r, zB, sizeof(zB));
    {
      const char *zDot = strchr(zA, '.');
      int nScale = zDot ? (int)strlen(zDot + 1) : 0;
      /* Often the tie place: one digit short of the scale. */
      nPlace = pgdiff_below(&r, 2) ? nScale - 1 : (int)pgdiff_below(&r, 30) - 8;
    }
    nt_cases_pair(d, &r, zA, zB, nPlace);
  }
  nCase += pgdiff_run(d, p, "numeric operations", nt_accept_overflow);

  /* Spellings, valid or not. */
  for (int i = 0; i < 3000; i++) {
    char zIn[32];
    nt_spelling(&r, zIn, sizeof(zIn));
    pgdiff_addf(d, nt_text(zIn), "'%s'::numeric", zIn);
  }
  /* float8 to numeric: 15 significant digits. */
  for (int i = 0; i < 1500; i++) {
    double x = (double)(pgdiff_rand(&r) >> 11) / 9007199254740992.0;
    numeric v;
    sql_error e;
    char z[NUMERIC_TEXT_MAX + 64];
    x *= pow(10, (double)pgdiff_below(&r, 50) - 25);
    if (pgdiff_below(&r, 2)) x = -x;
    sql_error_clear(&e);
    if (numeric_from_double(x, &v, &e) != 0) snprintf(z, sizeof(z), "ERROR %s: %s", e.zState, e.zMsg);
    else numeric_format(&v, z, sizeof(z));
    pgdiff_addf(d, z, "'%.17g'::float8::numeric", x);
  }
  nCase += pgdiff_run(d, p, "numeric text and float8", nt_accept_overflow);

  /* Sums as analytic queries make them: sum(price * (100 - discount) /
  ** 100.0) over integer columns, and the average. */
  {
    pgref_result *pRes;
    strbuf q;
    numeric sum = numeric_from_int64(0), hundred = nt_num("100.0"), sum2 = sum, rate = nt_num("1.07");
    char zSum[NUMERIC_TEXT_MAX], zAvg[NUMERIC_TEXT_MAX], zSum2[NUMERIC_TEXT_MAX];
    const int nRow = 20000;
    strbuf_init(&q);
    strbuf_puts(&q, "SELECT sum(x * (100 - d) / 100.0)::text, avg(x * (100 - d) / 100.0)::text,"
                    " sum(x::numeric * 1.07 * x)::text FROM (VALUES ");
    for (int i = 0; i < nRow; i++) {
      int64_t x = 90000 + pgdiff_below(&r, 10500000), dis = pgdiff_below(&r, 11);
      numeric t = numeric_from_int64(x * (100 - dis)), q1, xn = numeric_from_int64(x), t2;
      ASSERT_EQ(numeric_div(&t, &hundred, &q1), NUMERIC_OK);
      ASSERT_EQ(numeric_add(&sum, &q1, &sum), NUMERIC_OK);
      ASSERT_EQ(numeric_mul(&xn, &rate, &t2), NUMERIC_OK);
      ASSERT_EQ(numeric_mul(&t2, &xn, &t2), NUMERIC_OK);
      ASSERT_EQ(numeric_add(&sum2, &t2, &sum2), NUMERIC_OK);
      strbuf_printf(&q, "%s(%" PRId64 ", %" PRId64 ")", i ? ", " : "", x, dis);
    }
    strbuf_puts(&q, ") AS v(x, d)");
    CALL_OK(pgref_query(p, strbuf_str(&q), &pRes, zErr, sizeof(zErr)));
    numeric_format(&sum, zSum, sizeof(zSum));
    {
      numeric n = numeric_from_int64(nRow), avg;
      ASSERT_EQ(numeric_div(&sum, &n, &avg), NUMERIC_OK);
      numeric_format(&avg, zAvg, sizeof(zAvg));
    }
    numeric_format(&sum2, zSum2, sizeof(zSum2));
    ASSERT_STR_EQ(refdb_result_cell(pRes->pRows, 0, 0), zSum);
    ASSERT_STR_EQ(refdb_result_cell(pRes->pRows, 0, 1), zAvg);
    ASSERT_STR_EQ(refdb_result_cell(pRes->pRows, 0, 2), zSum2);
    printf("sum of %d terms: %s, avg %s, sum of squares %s\n", nRow, zSum, zAvg, zSum2);
    pgref_result_free(pRes);
    strbuf_free(&q);
    nCase += 3;
  }
  printf("%d cases agree with PostgreSQL\n", nCase);
  pgdiff_free(d);
  pgref_stop(p);
  return 0;
}

/* ---- to_char of numbers ------------------------------------------------------------ */

/* A random number format: digits (9, 0), a point (. or D), group
** separators (, G), a sign (S at either end, MI, PL, SG, PR), FM, V, EEEE,
** TH, RN, L, literal text. */
static void nt_format(uint64_t *pr, char *z, size_t n) {
  static const char *const azPre[] = {"", "", "", "FM", "S", "FMS", "L", "B", "SG", "PL", "MI"};
  static const char *const azPost[] = {"", "", "", "", "MI", "S", "PR", "PL", "SG", "TH",
                                       "th", "EEEE", "\" km\"", " ", "MI "};
  size_t i = 0;
  int nInt = (int)pgdiff_below(pr, 12), nFrac = (int)pgdiff_below(pr, 6), k = (int)pgdiff_below(pr, 20);
  if (k == 0) {
    snprintf(z, n, "%s", pgdiff_below(pr, 2) ? "RN" : "FMrn");
    return;
  }
  i += (size_t)snprintf(z + i, n - i, "%s", azPre[pgdiff_below(pr, 11)]);
  for (int j = 0; j < nInt && i + 4 < n; j++) {
    int c = (int)pgdiff_below(pr, 10);
    z[i++] = c < 6 ? '9' : c < 8 ? '0' : c == 8 ? ',' : 'G';
    if (j == nInt / 2 && pgdiff_below(pr, 8) == 0) z[i++] = 'V';
  }
  if (nFrac > 0 || pgdiff_below(pr, 3) == 0) z[i++] = pgdiff_below(pr, 4) ? '.' : 'D';
  for (int j = 0; j < nFrac && i + 2 < n; j++) z[i++] = pgdiff_below(pr, 4) ? '9' : '0';
  z[i] = 0;
  snprintf(z + i, n - i, "%s", azPost[pgdiff_below(pr, 15)]);
}

TEST_IMPL(numeric_pg_tochar) {
  pgdiff *d = pgdiff_new();
  pgref *p;
  char zErr[2048];
  uint64_t r = 25;
  int nCase = 0;
  CALL_OK(pgref_start(&p, "pg", zErr, sizeof(zErr)));
  for (int i = 0; i < 4000; i++) {
    char zA[64], zFmt[64], zWant[256], zQuoted[160];
    char *zOut = NULL;
    sql_error e;
    numeric a;
    double x;
    size_t q = 0;
    nt_operand(&r, zA, sizeof(zA));
    nt_format(&r, zFmt, sizeof(zFmt));
    for (const char *c = zFmt; *c && q + 3 < sizeof(zQuoted); c++) {
      if (*c == '\'') zQuoted[q++] = '\'';
      zQuoted[q++] = *c;
    }
    zQuoted[q] = 0;
    a = nt_num(zA);
    sql_error_clear(&e);
    if (numfmt_numeric(&a, zFmt, &zOut, &e) != 0) snprintf(zWant, sizeof(zWant), "ERROR %s: %s", e.zState, e.zMsg);
    else snprintf(zWant, sizeof(zWant), "%s", zOut);
    free(zOut);
    pgdiff_addf(d, zWant, "to_char('%s'::numeric, '%s')", zA, zQuoted);
    x = numeric_to_double(&a);
    sql_error_clear(&e);
    zOut = NULL;
    if (numfmt_double(x, zFmt, &zOut, &e) != 0) snprintf(zWant, sizeof(zWant), "ERROR %s: %s", e.zState, e.zMsg);
    else snprintf(zWant, sizeof(zWant), "%s", zOut);
    free(zOut);
    pgdiff_addf(d, zWant, "to_char('%.17g'::float8, '%s')", x, zQuoted);
  }
  nCase += pgdiff_run(d, p, "to_char of numbers", NULL);
  printf("%d cases agree with PostgreSQL\n", nCase);
  pgdiff_free(d);
  pgref_stop(p);
  return 0;
}

/* numeric_sqrt: the root rounded half away from zero at the scale asked
** (PostgreSQL's sqrt_var, which stddev uses; stddev's own digits are
** checked against PostgreSQL by tests/regress/sql/aggvar.sql). */
TEST_IMPL(numeric_sqrt) {
  static const struct {
    const char *zIn;
    int nScale;
    const char *zOut;
  } a[] = {
      {"2", 15, "1.414213562373095"},   /* PostgreSQL's sqrt(2::numeric) */
      {"2", 0, "1"},
      {"0", 3, "0.000"},
      {"0.0625", 1, "0.3"},             /* 0.25: a tie, away from zero */
      {"0.0625", 2, "0.25"},
      {"1000000000000000000000000000000", 0, "1000000000000000"},
      {"99999999999999999999999999999999999999", 0, "10000000000000000000"},
      {"99999999999999999999999999999999999999", 18, "10000000000000000000.000000000000000000"},
      {"12.3456789", 40, NULL},         /* past what 38 digits hold */
      {"0.00000000000000000001", 12, "0.000000000100"},
      {"357903036.61904762", 8, "18918.32541794"},
  };
  for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
    numeric v = nt_num(a[i].zIn), r;
    char z[NUMERIC_TEXT_MAX + 64];
    int rc = numeric_sqrt(&v, a[i].nScale, &r);
    if (a[i].zOut == NULL) {
      ASSERT_EQ(rc, NUMERIC_E_OVERFLOW);
      continue;
    }
    ASSERT_EQ(rc, NUMERIC_OK);
    numeric_format(&r, z, sizeof(z));
    if (strcmp(z, a[i].zOut) != 0) FAIL("sqrt(%s) at %d: %s, not %s", a[i].zIn, a[i].nScale, z, a[i].zOut);
  }
  return 0;
}
