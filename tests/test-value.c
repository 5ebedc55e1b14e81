/*
** tests/test-value.c — one value's text to its stored form (common/value.c):
** every type's accepted spellings and limits, and every word of every
** error.
*/
#include <math.h>

#include "../common/value.h"
#include "test.h"

static coltype tv_type(coltype_id e, int32_t nLength, int32_t nPrecision, int32_t nScale) {
  coltype t;
  t.eId = e;
  t.nLength = nLength;
  t.nPrecision = nPrecision;
  t.nScale = nScale;
  return t;
}

/* Parses z as t from an exact-size heap copy (so a read past the field
** trips ASan) and returns the value as an int64 (doubles: not here), or
** fails the test if it did not parse. */
static int64_t tv_ok(coltype t, const char *z) {
  size_t n = strlen(z);
  char *zCopy = malloc(n + 1), zWhy[256] = "";
  union { int16_t i16; int32_t i32; int64_t i64; } u;
  int64_t v = 0;
  ASSERT(zCopy != NULL);
  memcpy(zCopy, z, n);
  memset(&u, 0x5a, sizeof(u));
  if (value_parse(t, zCopy, n, &u, zWhy, sizeof(zWhy)) != 0) {
    FAIL("\"%s\" was refused: expected %s", z, zWhy);
  }
  switch (coltype_width(t)) {
    case 2: v = u.i16; break;
    case 4: v = u.i32; break;
    case 8: v = u.i64; break;
    default: FAIL("width %d", coltype_width(t));
  }
  free(zCopy);
  return v;
}

/* Parses z[0..n) as t and returns the words of the refusal, or "ok". */
static const char *tv_err_n(coltype t, const char *z, size_t n) {
  static char zWhy[256];
  char *zCopy = malloc(n + 1);
  int64_t v;
  int rc;
  ASSERT(zCopy != NULL);
  memcpy(zCopy, z, n);
  strcpy(zWhy, "(untouched)");
  if (coltype_is_string(t)) {
    rc = value_check_str(t, zCopy, n, zWhy, sizeof(zWhy));
  } else {
    rc = value_parse(t, zCopy, n, &v, zWhy, sizeof(zWhy));
  }
  free(zCopy);
  return rc == 0 ? "ok" : zWhy;
}

static const char *tv_err(coltype t, const char *z) {
  return tv_err_n(t, z, strlen(z));
}

TEST_IMPL(value_int) {
  coltype tI16 = tv_type(COLTYPE_SMALLINT, 0, 0, 0);
  coltype tI32 = tv_type(COLTYPE_INTEGER, 0, 0, 0);
  coltype tI64 = tv_type(COLTYPE_BIGINT, 0, 0, 0);
  const char *zI16 = "a whole number from -32768 to 32767";
  const char *zI32 = "a whole number from -2147483648 to 2147483647";
  const char *zI64 = "a whole number from -9223372036854775808 to 9223372036854775807";

  ASSERT_EQ(tv_ok(tI32, "0"), 0);
  ASSERT_EQ(tv_ok(tI32, "-0"), 0);
  ASSERT_EQ(tv_ok(tI32, "+17"), 17);
  ASSERT_EQ(tv_ok(tI32, "-17"), -17);
  ASSERT_EQ(tv_ok(tI32, "  42  "), 42);             /* blanks around, as PG */
  ASSERT_EQ(tv_ok(tI32, "\t\r\n\v\f7\n"), 7);
  ASSERT_EQ(tv_ok(tI32, "000000000000000000000123"), 123);
  ASSERT_EQ(tv_ok(tI32, "2147483647"), INT32_MAX);
  ASSERT_EQ(tv_ok(tI32, "-2147483648"), INT32_MIN);
  ASSERT_STR_EQ(tv_err(tI32, "2147483648"), zI32);
  ASSERT_STR_EQ(tv_err(tI32, "-2147483649"), zI32);
  ASSERT_STR_EQ(tv_err(tI32, "99999999999999999999999999"), zI32);
  ASSERT_STR_EQ(tv_err(tI32, ""), zI32);
  ASSERT_STR_EQ(tv_err(tI32, "   "), zI32);
  ASSERT_STR_EQ(tv_err(tI32, "-"), zI32);
  ASSERT_STR_EQ(tv_err(tI32, "+-1"), zI32);
  ASSERT_STR_EQ(tv_err(tI32, "- 1"), zI32);
  ASSERT_STR_EQ(tv_err(tI32, "1 2"), zI32);
  ASSERT_STR_EQ(tv_err(tI32, "1.0"), zI32);
  ASSERT_STR_EQ(tv_err(tI32, "1e3"), zI32);
  ASSERT_STR_EQ(tv_err(tI32, "12a"), zI32);
  ASSERT_STR_EQ(tv_err(tI32, "0x10"), zI32);
  ASSERT_STR_EQ(tv_err_n(tI32, "1\0", 2), zI32);

  ASSERT_EQ(tv_ok(tI16, "32767"), INT16_MAX);
  ASSERT_EQ(tv_ok(tI16, "-32768"), INT16_MIN);
  ASSERT_EQ(tv_ok(tI16, " -5 "), -5);
  ASSERT_STR_EQ(tv_err(tI16, "32768"), zI16);
  ASSERT_STR_EQ(tv_err(tI16, "-32769"), zI16);
  ASSERT_STR_EQ(tv_err(tI16, "x"), zI16);

  ASSERT_EQ(tv_ok(tI64, "9223372036854775807"), INT64_MAX);
  ASSERT_EQ(tv_ok(tI64, "-9223372036854775808"), INT64_MIN);
  ASSERT_EQ(tv_ok(tI64, "6000000"), 6000000);
  ASSERT_STR_EQ(tv_err(tI64, "9223372036854775808"), zI64);
  ASSERT_STR_EQ(tv_err(tI64, "-9223372036854775809"), zI64);
  ASSERT_STR_EQ(tv_err(tI64, "18446744073709551615"), zI64);   /* uint64 max */
  ASSERT_STR_EQ(tv_err(tI64, "18446744073709551617"), zI64);   /* wraps to 1 */
  ASSERT_STR_EQ(tv_err(tI64, "abc"), zI64);
  return 0;
}

TEST_IMPL(value_decimal) {
  coltype t = tv_type(COLTYPE_DECIMAL, 0, 15, 2);
  coltype t18 = tv_type(COLTYPE_DECIMAL, 0, 18, 0);
  coltype t33 = tv_type(COLTYPE_DECIMAL, 0, 3, 3);
  coltype t10 = tv_type(COLTYPE_DECIMAL, 0, 1, 0);
  coltype t184 = tv_type(COLTYPE_DECIMAL, 0, 18, 4);
  const char *zWhy = "a number with at most 13 digits before the decimal point";

  ASSERT_EQ(tv_ok(t, "1"), 100);
  ASSERT_EQ(tv_ok(t, "1.5"), 150);
  ASSERT_EQ(tv_ok(t, "-1.5"), -150);
  ASSERT_EQ(tv_ok(t, "+2"), 200);
  ASSERT_EQ(tv_ok(t, ".5"), 50);
  ASSERT_EQ(tv_ok(t, "5."), 500);
  ASSERT_EQ(tv_ok(t, "  3.14  "), 314);
  ASSERT_EQ(tv_ok(t, "0"), 0);
  ASSERT_EQ(tv_ok(t, "-0.00"), 0);
  ASSERT_EQ(tv_ok(t, "000000000000000000001.25"), 125);   /* zeros are not digits */
  /* Half away from zero, decided by the first dropped digit. */
  ASSERT_EQ(tv_ok(t, "1.005"), 101);
  ASSERT_EQ(tv_ok(t, "-1.005"), -101);
  ASSERT_EQ(tv_ok(t, "1.004"), 100);
  ASSERT_EQ(tv_ok(t, "1.00499999999999999999"), 100);
  ASSERT_EQ(tv_ok(t, "0.005"), 1);
  ASSERT_EQ(tv_ok(t, "-0.005"), -1);
  ASSERT_EQ(tv_ok(t, "-0.0049"), 0);
  ASSERT_EQ(tv_ok(t, "0.995"), 100);
  /* Exponents move the point before rounding. */
  ASSERT_EQ(tv_ok(t, "1e2"), 10000);
  ASSERT_EQ(tv_ok(t, "1.5E-1"), 15);
  ASSERT_EQ(tv_ok(t, "1.25e-1"), 13);
  ASSERT_EQ(tv_ok(t, "-1.25e-1"), -13);
  ASSERT_EQ(tv_ok(t, "125e-3"), 13);
  ASSERT_EQ(tv_ok(t, "0.0001e+4"), 100);
  ASSERT_EQ(tv_ok(t, "1e12"), 100000000000000);
  ASSERT_EQ(tv_ok(t, "1e-400"), 0);
  ASSERT_EQ(tv_ok(t, "5e-3"), 1);
  ASSERT_EQ(tv_ok(t, "4e-3"), 0);
  /* p - s = 13 digits before the point, and no more after rounding. */
  ASSERT_EQ(tv_ok(t, "9999999999999.99"), 999999999999999);
  ASSERT_EQ(tv_ok(t, "-9999999999999.994"), -999999999999999);
  ASSERT_STR_EQ(tv_err(t, "9999999999999.995"), zWhy);
  ASSERT_STR_EQ(tv_err(t, "-9999999999999.995"), zWhy);
  ASSERT_STR_EQ(tv_err(t, "10000000000000"), zWhy);
  ASSERT_STR_EQ(tv_err(t, "1e13"), zWhy);
  ASSERT_STR_EQ(tv_err(t, "1e999999999999999"), zWhy);
  ASSERT_STR_EQ(tv_err(t, "0.1e14"), zWhy);
  ASSERT_EQ(tv_ok(t, "0.1e13"), 100000000000000);
  /* Syntax. */
  ASSERT_STR_EQ(tv_err(t, ""), zWhy);
  ASSERT_STR_EQ(tv_err(t, "."), zWhy);
  ASSERT_STR_EQ(tv_err(t, "-"), zWhy);
  ASSERT_STR_EQ(tv_err(t, "e5"), zWhy);
  ASSERT_STR_EQ(tv_err(t, "1e"), zWhy);
  ASSERT_STR_EQ(tv_err(t, "1e+"), zWhy);
  ASSERT_STR_EQ(tv_err(t, "1.2.3"), zWhy);
  ASSERT_STR_EQ(tv_err(t, "1 0"), zWhy);
  ASSERT_STR_EQ(tv_err(t, "1,5"), zWhy);
  ASSERT_STR_EQ(tv_err(t, "NaN"), zWhy);
  ASSERT_STR_EQ(tv_err(t, "abc"), zWhy);

  ASSERT_EQ(tv_ok(t18, "999999999999999999"), 999999999999999999);
  ASSERT_EQ(tv_ok(t18, "-999999999999999999.4"), -999999999999999999);
  ASSERT_STR_EQ(tv_err(t18, "999999999999999999.5"),
                "a number with at most 18 digits before the decimal point");
  ASSERT_STR_EQ(tv_err(t18, "9223372036854775807"),
                "a number with at most 18 digits before the decimal point");
  ASSERT_EQ(tv_ok(t184, "-99999999999999.99994"), -999999999999999999);
  ASSERT_STR_EQ(tv_err(t184, "99999999999999.99995"),
                "a number with at most 14 digits before the decimal point");
  ASSERT_EQ(tv_ok(t33, "0.9994"), 999);
  ASSERT_EQ(tv_ok(t33, "-.5"), -500);
  ASSERT_STR_EQ(tv_err(t33, "0.9995"), "a number less than 1 in absolute value");
  ASSERT_STR_EQ(tv_err(t33, "1"), "a number less than 1 in absolute value");
  ASSERT_EQ(tv_ok(t10, "9.4"), 9);
  ASSERT_STR_EQ(tv_err(t10, "9.5"), "a number with at most 1 digit before the decimal point");
  return 0;
}

/* Parses z as DOUBLE PRECISION; fails the test if it is refused. */
static double tv_double(const char *z) {
  double d = 0;
  char zWhy[256];
  if (value_parse(tv_type(COLTYPE_DOUBLE, 0, 0, 0), z, strlen(z), &d, zWhy,
                       sizeof(zWhy)) != 0) {
    FAIL("\"%s\" was refused: expected %s", z, zWhy);
  }
  return d;
}

TEST_IMPL(value_double) {
  coltype t = tv_type(COLTYPE_DOUBLE, 0, 0, 0);
  const char *zSyntax = "a floating-point number";
  const char *zRange = "a number within the range of DOUBLE PRECISION";
  char zLong[400];

  ASSERT(tv_double("1.5") == 1.5);
  ASSERT(tv_double("  -2.25e2 ") == -225.0);
  ASSERT(tv_double("1e308") == 1e308);
  ASSERT(tv_double("4.9e-324") > 0);                      /* a denormal is kept */
  ASSERT(tv_double("0x10") == 16.0);                      /* strtod's hex, as PG on glibc */
  ASSERT(tv_double("-0") == 0 && signbit(tv_double("-0")));
  ASSERT(isnan(tv_double("NaN")));
  ASSERT(isnan(tv_double("nan")));
  ASSERT(isnan(tv_double(" NAN ")));
  ASSERT(tv_double("Infinity") == INFINITY);
  ASSERT(tv_double("+infinity") == INFINITY);
  ASSERT(tv_double("-Infinity") == -INFINITY);
  ASSERT(tv_double("inf") == INFINITY);
  ASSERT(tv_double("-INF") == -INFINITY);
  ASSERT_STR_EQ(tv_err(t, "1e309"), zRange);
  ASSERT_STR_EQ(tv_err(t, "-1e309"), zRange);
  ASSERT_STR_EQ(tv_err(t, "1e-400"), zRange);
  ASSERT_STR_EQ(tv_err(t, ""), zSyntax);
  ASSERT_STR_EQ(tv_err(t, "  "), zSyntax);
  ASSERT_STR_EQ(tv_err(t, "abc"), zSyntax);
  ASSERT_STR_EQ(tv_err(t, "1.5x"), zSyntax);
  ASSERT_STR_EQ(tv_err(t, "1.5 2"), zSyntax);
  ASSERT_STR_EQ(tv_err(t, "infinityx"), zSyntax);
  ASSERT_STR_EQ(tv_err(t, "--1"), zSyntax);
  ASSERT_STR_EQ(tv_err_n(t, "1\0", 2), zSyntax);
  /* Longer than the stack copy: the heap copy must give the same. */
  memset(zLong, '0', sizeof(zLong));
  memcpy(zLong, "1.", 2);
  zLong[sizeof(zLong) - 2] = '5';
  zLong[sizeof(zLong) - 1] = 0;
  ASSERT(tv_double(zLong) == 1.0);                        /* 1.000...0005 */
  zLong[0] = '7';
  zLong[1] = '0';
  ASSERT_STR_EQ(tv_err(t, zLong), zRange);               /* 7 followed by 397 digits */
  zLong[1] = 'x';
  ASSERT_STR_EQ(tv_err(t, zLong), zSyntax);
  return 0;
}

TEST_IMPL(value_date) {
  coltype t = tv_type(COLTYPE_DATE, 0, 0, 0);
  const char *zForm = "a date as yyyy-mm-dd or yyyymmdd";

  ASSERT_EQ(tv_ok(t, "1992-01-01"), 19920101);
  ASSERT_EQ(tv_ok(t, "19920101"), 19920101);
  ASSERT_EQ(tv_ok(t, "  1998-12-31 "), 19981231);
  ASSERT_EQ(tv_ok(t, "0001-01-01"), 10101);
  ASSERT_EQ(tv_ok(t, "00010101"), 10101);
  ASSERT_EQ(tv_ok(t, "9999-12-31"), 99991231);
  /* Leap years: every 4th, but not centuries, but every 400th. */
  ASSERT_EQ(tv_ok(t, "1992-02-29"), 19920229);
  ASSERT_EQ(tv_ok(t, "19960229"), 19960229);
  ASSERT_EQ(tv_ok(t, "2000-02-29"), 20000229);
  ASSERT_EQ(tv_ok(t, "1600-02-29"), 16000229);
  ASSERT_STR_EQ(tv_err(t, "1993-02-29"), "a day from 01 to 28 in 1993-02");
  ASSERT_STR_EQ(tv_err(t, "19000229"), "a day from 01 to 28 in 1900-02");
  ASSERT_STR_EQ(tv_err(t, "2100-02-29"), "a day from 01 to 28 in 2100-02");
  ASSERT_STR_EQ(tv_err(t, "2000-02-30"), "a day from 01 to 29 in 2000-02");
  ASSERT_STR_EQ(tv_err(t, "1993-04-31"), "a day from 01 to 30 in 1993-04");
  ASSERT_STR_EQ(tv_err(t, "1993-01-32"), "a day from 01 to 31 in 1993-01");
  ASSERT_STR_EQ(tv_err(t, "1993-01-00"), "a day from 01 to 31 in 1993-01");
  ASSERT_STR_EQ(tv_err(t, "1993-13-01"), "a month from 01 to 12");
  ASSERT_STR_EQ(tv_err(t, "19930001"), "a month from 01 to 12");
  ASSERT_STR_EQ(tv_err(t, "0000-01-01"), "a date from 0001-01-01 to 9999-12-31");
  ASSERT_STR_EQ(tv_err(t, "00001231"), "a date from 0001-01-01 to 9999-12-31");
  /* date_in's other spellings (common/datetime-parse.c) */
  ASSERT_EQ(tv_ok(t, "1992-1-1"), 19920101);
  ASSERT_EQ(tv_ok(t, "1992/01/01"), 19920101);
  ASSERT_EQ(tv_ok(t, "June 1, 1997"), 19970601);
  ASSERT_EQ(tv_ok(t, "1997-06-01 23:59:59.5+05"), 19970601);
  ASSERT_EQ(tv_ok(t, "1997-06-01T00:00:00Z"), 19970601);
  ASSERT_STR_EQ(tv_err(t, "today"), "a date that is not relative to now");
  ASSERT_STR_EQ(tv_err(t, "1992-01-0a"), zForm);
  ASSERT_STR_EQ(tv_err(t, "199201011"), "a date from 0001-01-01 to 9999-12-31");   /* 19920-10-11 */
  ASSERT_STR_EQ(tv_err(t, "1992011"), zForm);
  ASSERT_STR_EQ(tv_err(t, "10000-01-01"), "a date from 0001-01-01 to 9999-12-31");
  {
    /* timestamps: microseconds since 2000-01-01, a timestamptz's in UTC */
    coltype ts = {COLTYPE_TIMESTAMP, 0, 0, 6}, tz = {COLTYPE_TIMESTAMPTZ, 0, 0, 6};
    ASSERT_EQ(tv_ok(ts, "2000-01-01 00:00:01"), 1000000);
    ASSERT_EQ(tv_ok(ts, "1999-12-31T23:59:59.999999"), -1);
    ASSERT_EQ(tv_ok(ts, "2000-01-01 01:00:00+01"), 3600000000);     /* zone ignored */
    ASSERT_EQ(tv_ok(tz, "2000-01-01 01:00:00+01"), 0);
    ASSERT_EQ(tv_ok(tz, "2000-01-01 00:00:00"), 0);                 /* read as UTC */
    ASSERT_STR_EQ(tv_err(ts, "now"), "a time that is not relative to now");
    ASSERT_STR_EQ(tv_err(ts, "2000-02-30 00:00"),
                  "date/time field value out of range: \"2000-02-30 00:00\"");
  }
  ASSERT_STR_EQ(tv_err(t, "-1992-01-01"), zForm);
  ASSERT_STR_EQ(tv_err(t, "+19920101"), zForm);
  ASSERT_STR_EQ(tv_err(t, "1992-01-01x"), zForm);
  ASSERT_STR_EQ(tv_err(t, ""), zForm);
  return 0;
}

TEST_IMPL(value_str) {
  coltype tV10 = tv_type(COLTYPE_VARCHAR, 10, 0, 0);
  coltype tC1 = tv_type(COLTYPE_CHAR, 1, 0, 0);
  coltype tText = tv_type(COLTYPE_TEXT, 0, 0, 0);
  char zBig[5000];
  char zWhy[128];
  int32_t v;

  ASSERT_STR_EQ(tv_err(tV10, ""), "ok");
  ASSERT_STR_EQ(tv_err(tV10, "hello"), "ok");
  ASSERT_STR_EQ(tv_err(tV10, "JORDAN   0"), "ok");
  ASSERT_STR_EQ(tv_err(tV10, "0123456789"), "ok");
  ASSERT_STR_EQ(tv_err(tV10, "0123456789a"), "at most 10 characters, found 11");
  ASSERT_STR_EQ(tv_err(tV10, "0123456789ab"), "at most 10 characters, found 12");
  /* The limit counts characters (code points), not bytes. */
  ASSERT_STR_EQ(tv_err(tV10, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                             "\xc3\xa9\xc3\xa9\xc3\xa9"), "ok");
  ASSERT_STR_EQ(tv_err(tV10, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                             "\xc3\xa9\xc3\xa9\xc3\xa9x"), "at most 10 characters, found 11");
  ASSERT_STR_EQ(tv_err(tV10, "\xf0\x9f\x98\x80\xe2\x82\xac\xc3\xa9zzzzzzz"), "ok");
  ASSERT_STR_EQ(tv_err(tC1, "a"), "ok");
  ASSERT_STR_EQ(tv_err(tC1, "\xe2\x82\xac"), "ok");
  ASSERT_STR_EQ(tv_err(tC1, "ab"), "at most 1 character, found 2");
  ASSERT_STR_EQ(tv_err(tC1, " a "), "at most 1 character, found 3");   /* never trimmed */
  memset(zBig, 'x', sizeof(zBig) - 1);
  zBig[sizeof(zBig) - 1] = 0;
  ASSERT_STR_EQ(tv_err(tText, zBig), "ok");

  /* Valid edges of UTF-8. */
  ASSERT_STR_EQ(tv_err(tText, "\x7f"), "ok");
  ASSERT_STR_EQ(tv_err(tText, "\xc2\x80"), "ok");               /* U+0080 */
  ASSERT_STR_EQ(tv_err(tText, "\xdf\xbf"), "ok");               /* U+07FF */
  ASSERT_STR_EQ(tv_err(tText, "\xe0\xa0\x80"), "ok");           /* U+0800 */
  ASSERT_STR_EQ(tv_err(tText, "\xed\x9f\xbf"), "ok");           /* U+D7FF */
  ASSERT_STR_EQ(tv_err(tText, "\xee\x80\x80"), "ok");           /* U+E000 */
  ASSERT_STR_EQ(tv_err(tText, "\xef\xbf\xbf"), "ok");           /* U+FFFF */
  ASSERT_STR_EQ(tv_err(tText, "\xf0\x90\x80\x80"), "ok");       /* U+10000 */
  ASSERT_STR_EQ(tv_err(tText, "\xf4\x8f\xbf\xbf"), "ok");       /* U+10FFFF */
  /* Invalid: stray, overlong, surrogate, too high, truncated, NUL. */
  ASSERT_STR_EQ(tv_err(tText, "ab\xff"), "valid UTF-8 (byte 3, 0xff, is not)");
  ASSERT_STR_EQ(tv_err(tText, "\x80"), "valid UTF-8 (byte 1, 0x80, is not)");
  ASSERT_STR_EQ(tv_err(tText, "a\xc0\xaf"), "valid UTF-8 (byte 2, 0xc0, is not)");
  ASSERT_STR_EQ(tv_err(tText, "\xc1\xbf"), "valid UTF-8 (byte 1, 0xc1, is not)");
  ASSERT_STR_EQ(tv_err(tText, "\xe0\x80\xaf"), "valid UTF-8 (byte 1, 0xe0, is not)");
  ASSERT_STR_EQ(tv_err(tText, "\xe0\x9f\xbf"), "valid UTF-8 (byte 1, 0xe0, is not)");
  ASSERT_STR_EQ(tv_err(tText, "\xf0\x8f\xbf\xbf"), "valid UTF-8 (byte 1, 0xf0, is not)");
  ASSERT_STR_EQ(tv_err(tText, "\xed\xa0\x80"), "valid UTF-8 (byte 1, 0xed, is not)");
  ASSERT_STR_EQ(tv_err(tText, "\xed\xbf\xbf"), "valid UTF-8 (byte 1, 0xed, is not)");
  ASSERT_STR_EQ(tv_err(tText, "\xf4\x90\x80\x80"), "valid UTF-8 (byte 1, 0xf4, is not)");
  ASSERT_STR_EQ(tv_err(tText, "\xf5\x80\x80\x80"), "valid UTF-8 (byte 1, 0xf5, is not)");
  ASSERT_STR_EQ(tv_err(tText, "x\xe2\x82"), "valid UTF-8 (byte 2, 0xe2, is not)");
  ASSERT_STR_EQ(tv_err(tText, "\xe2\x82x"), "valid UTF-8 (byte 1, 0xe2, is not)");
  ASSERT_STR_EQ(tv_err(tText, "\xc3"), "valid UTF-8 (byte 1, 0xc3, is not)");
  ASSERT_STR_EQ(tv_err(tText, "\xf0\x9f\x98"), "valid UTF-8 (byte 1, 0xf0, is not)");
  ASSERT_STR_EQ(tv_err_n(tText, "a\0b", 3), "text without NUL bytes (byte 2 is 0x00)");
  /* UTF-8 is checked before the length. */
  ASSERT_STR_EQ(tv_err(tC1, "ab\xff"), "valid UTF-8 (byte 3, 0xff, is not)");

  /* Each entry point refuses the other's types. */
  ASSERT_EQ(value_check_str(tv_type(COLTYPE_INTEGER, 0, 0, 0), "1", 1, zWhy,
                                 sizeof(zWhy)), -1);
  ASSERT_STR_EQ(zWhy, "a string column (type 2 is not one)");
  ASSERT_EQ(value_parse(tV10, "1", 1, &v, zWhy, sizeof(zWhy)), -1);
  ASSERT_STR_EQ(zWhy, "a column type that is not a string (type 8)");
  return 0;
}
