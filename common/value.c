/*
** common/value.c — the text of one value to its stored form, with the
** spellings PostgreSQL's input functions accept (see value.h), and the
** words that say what was expected when the text is wrong.
**
** It knows nothing of files, records, NULLs or SQL: the loader's text
** parsers (loader/text*.c) cut fields out and decide what is NULL, the
** planner and codegen hand it a literal's text; this file only judges
** one value. Integers, decimals and dates are converted by hand: a load
** converts hundreds of millions of them, and the C library's conversions
** are slower, locale-bound and need a terminating NUL that a field in the
** middle of a mapped file does not have. DOUBLE is the exception: correct
** rounding of decimal to binary is strtod's job, so it gets a bounded,
** NUL-terminated copy.
**
** INTERFACE ROUTINES
**   value_parse       a non-string value to its stored form
**   value_check_str   a string's UTF-8 and length limit
**   value_utf8_len    one UTF-8 sequence's length
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "datetime.h"
#include "value.h"

/* PostgreSQL skips isspace() in the "C" locale around numbers and dates. */
static int value_is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Narrows z[0..*pn) to its text without surrounding blanks. */
static const char *value_trim(const char *z, size_t *pn) {
  size_t n = *pn;
  while (n > 0 && value_is_blank(*z)) {
    z++;
    n--;
  }
  while (n > 0 && value_is_blank(z[n - 1])) n--;
  *pn = n;
  return z;
}

static int value_is_digit(char c) {
  return (unsigned)(c - '0') < 10u;
}

/* ---- integers ------------------------------------------------------------ */

/* Parses [blanks][sign]digits[blanks] into *pv if it lies in lo..hi.
** Returns 0 or -1. The magnitude is gathered as unsigned so the most
** negative value needs no special case, and the first digit that would
** overflow it stops the parse. */
static int value_int(const char *z, size_t n, int64_t lo, int64_t hi, int64_t *pv) {
  uint64_t v = 0, vMax;
  int bNeg = 0;
  size_t i = 0;

  z = value_trim(z, &n);
  if (n > 0 && (z[0] == '-' || z[0] == '+')) {
    bNeg = z[0] == '-';
    i = 1;
  }
  if (i == n) return -1;
  /* The largest magnitude allowed: hi, or -lo computed without overflow. */
  vMax = bNeg ? (uint64_t)(-(lo + 1)) + 1 : (uint64_t)hi;
  for (; i < n; i++) {
    unsigned d = (unsigned)(z[i] - '0');
    if (d >= 10) return -1;
    if (v > (vMax - d) / 10) return -1;
    v = v * 10 + d;
  }
  *pv = bNeg ? (int64_t)(0 - v) : (int64_t)v;
  return 0;
}

/* ---- DECIMAL ------------------------------------------------------------- */

/* Returns digit k of the digit string that is pInt[0..nInt) followed by
** pFrac, as a number. */
#define VALUE_DIGIT(k) \
  ((k) < nInt ? pInt[(k)] - '0' : pFrac[(k) - nInt] - '0')

/* Parses [blanks][sign]digits[.digits][e[sign]digits][blanks] as DECIMAL
** (p, s): the value times 10^s, rounded half away from zero, exactly.
**
** The digits are read as one string d[0..m) (integer then fraction
** digits) whose decimal point, after the exponent moves it, sits before
** digit iPoint. Scaled by 10^s, digits before index E = iPoint + s are
** the stored integer and digit E decides the rounding. So the work is to
** find the first nonzero digit k0, refuse if E - k0 (the digits of the
** stored integer) exceeds p, and add up at most p <= 18 digits, which
** fits in 64 bits. Returns 0 or -1. */
static int value_decimal(coltype t, const char *z, size_t n, int64_t *pv) {
  const char *pInt, *pFrac = NULL, *e;
  int64_t nInt, nFrac = 0, m, iExp = 0, E, k0, k;
  uint64_t v = 0, vLimit = 1;
  int bNeg = 0;

  z = value_trim(z, &n);
  e = z + n;
  if (z < e && (*z == '-' || *z == '+')) bNeg = *z++ == '-';
  pInt = z;
  while (z < e && value_is_digit(*z)) z++;
  nInt = z - pInt;
  if (z < e && *z == '.') {
    pFrac = ++z;
    while (z < e && value_is_digit(*z)) z++;
    nFrac = z - pFrac;
  }
  if (nInt + nFrac == 0) return -1;
  if (z < e && (*z == 'e' || *z == 'E')) {
    int bExpNeg = 0;
    z++;
    if (z < e && (*z == '-' || *z == '+')) bExpNeg = *z++ == '-';
    if (z == e || !value_is_digit(*z)) return -1;
    /* Saturate: anything past a billion is zero or too large anyway. */
    for (; z < e && value_is_digit(*z); z++) {
      if (iExp < 1000000000) iExp = iExp * 10 + (*z - '0');
    }
    if (bExpNeg) iExp = -iExp;
  }
  if (z != e) return -1;

  m = nInt + nFrac;
  for (k0 = 0; k0 < m && VALUE_DIGIT(k0) == 0; k0++) {
  }
  if (k0 == m) {
    *pv = 0;
    return 0;
  }
  E = nInt + iExp + t.nScale;
  if (E - k0 > t.nPrecision) return -1;
  for (k = k0; k < E; k++) v = v * 10 + (uint64_t)(k < m ? VALUE_DIGIT(k) : 0);
  if (E >= 0 && E < m && VALUE_DIGIT(E) >= 5) v++;
  for (int i = 0; i < t.nPrecision; i++) vLimit *= 10;
  if (v >= vLimit) return -1;          /* rounding carried into digit p+1 */
  *pv = bNeg ? -(int64_t)v : (int64_t)v;
  return 0;
}
#undef VALUE_DIGIT

/* ---- DOUBLE PRECISION ---------------------------------------------------- */

/* Copies at most this many bytes to the stack; longer texts (thousands of
** digits are legal) get a heap copy. */
#define VALUE_DOUBLE_STACK 128

/* Returns 1 and sets *pd if z[0..n) is one of PostgreSQL's special float
** spellings (case-insensitive): NaN, Infinity, inf, each infinity with an
** optional sign. */
static int value_double_special(const char *z, size_t n, double *pd) {
  int bNeg = 0;
  if (n == 3 && strncasecmp(z, "nan", 3) == 0) {
    *pd = NAN;
    return 1;
  }
  if (n > 0 && (z[0] == '-' || z[0] == '+')) {
    bNeg = z[0] == '-';
    z++;
    n--;
  }
  if ((n == 8 && strncasecmp(z, "infinity", 8) == 0) ||
      (n == 3 && strncasecmp(z, "inf", 3) == 0)) {
    *pd = bNeg ? -INFINITY : INFINITY;
    return 1;
  }
  return 0;
}

/* Parses a DOUBLE PRECISION as PostgreSQL's float8in: strtod's syntax
** (which includes hex floats), the special words, and an error when the
** value overflows or underflows to zero (a denormal result is kept).
** Returns 0, or -1 with *pbRange set if the syntax was fine but the range
** was not. */
static int value_double(const char *z, size_t n, double *pd, int *pbRange) {
  char aBuf[VALUE_DOUBLE_STACK], *zCopy = aBuf, *zEnd;
  double d;
  int rc = 0;

  *pbRange = 0;
  z = value_trim(z, &n);
  if (n == 0) return -1;
  if (value_double_special(z, n, pd)) return 0;
  if (n >= sizeof(aBuf)) {
    zCopy = malloc(n + 1);
    if (zCopy == NULL) return -1;
  }
  memcpy(zCopy, z, n);
  zCopy[n] = 0;
  errno = 0;
  d = strtod(zCopy, &zEnd);
  if (zEnd != zCopy + n) {
    rc = -1;
  } else if (errno == ERANGE && (d == 0.0 || isinf(d))) {
    *pbRange = 1;
    rc = -1;
  } else {
    *pd = d;
  }
  if (zCopy != aBuf) free(zCopy);
  return rc;
}

/* ---- DATE ---------------------------------------------------------------- */

/* Reads n digits of z as a number, or returns -1 if one is not a digit. */
static int value_digits(const char *z, int n) {
  int v = 0;
  for (int i = 0; i < n; i++) {
    if (!value_is_digit(z[i])) return -1;
    v = v * 10 + (z[i] - '0');
  }
  return v;
}

/* Parses yyyy-mm-dd or yyyymmdd (with surrounding blanks) into yyyymmdd,
** saying in zWhy which part is wrong. Returns 0 or -1. */
/* A second "now" a day and a second after the first (0): a text read the
** same at both names a fixed time, not 'today' or 'now'. */
#define VALUE_NOW_B (INT64_C(86401) * 1000000)

/* A date in any other spelling date_in takes ('1998-01-01 00:00:00',
** ISO 8601 with T and a zone, month names), as yyyymmdd: years 1 to 9999,
** what a DATE column holds. */
static int value_date_general(const char *z, size_t n, int32_t *pv, char *zWhy, size_t nWhy) {
  dt_session ses = {NULL, DT_ORDER_MDY, 0};
  sql_error err;
  int32_t iDay, iDay2;
  int y, m, d;
  sql_error_clear(&err);
  if (dt_date_parse(z, n, &ses, &iDay, &err) != 0) {
    snprintf(zWhy, nWhy, "a date as yyyy-mm-dd or yyyymmdd");
    return -1;
  }
  ses.tNow = VALUE_NOW_B;
  if (dt_date_parse(z, n, &ses, &iDay2, &err) != 0 || iDay2 != iDay) {
    snprintf(zWhy, nWhy, "a date that is not relative to now");
    return -1;
  }
  dt_date_to_ymd(iDay, &y, &m, &d);
  if (iDay == INT32_MIN || iDay == INT32_MAX || y < 1 || y > 9999) {
    snprintf(zWhy, nWhy, "a date from 0001-01-01 to 9999-12-31");
    return -1;
  }
  *pv = y * 10000 + m * 100 + d;
  return 0;
}

/* A timestamp as microseconds since 2000-01-01: timestamp_in's spellings;
** a timestamptz without a zone is read as UTC. */
static int value_timestamp(coltype t, const char *z, size_t n, int64_t *pv, char *zWhy,
                           size_t nWhy) {
  dt_session ses = {NULL, DT_ORDER_MDY, 0};
  sql_error err;
  int64_t v2;
  int rc;
  for (int i = 0; i < 2; i++) {
    sql_error_clear(&err);
    rc = t.eId == COLTYPE_TIMESTAMPTZ ? dt_timestamptz_parse(z, n, &ses, i ? &v2 : pv, &err)
                                      : dt_timestamp_parse(z, n, &ses, i ? &v2 : pv, &err);
    if (rc != 0) {
      snprintf(zWhy, nWhy, "%s", err.zMsg);
      return -1;
    }
    ses.tNow = VALUE_NOW_B;
  }
  if (v2 != *pv) {
    snprintf(zWhy, nWhy, "a time that is not relative to now");
    return -1;
  }
  return 0;
}

static int value_date(const char *z, size_t n, int32_t *pv, char *zWhy, size_t nWhy) {
  int y, m, d;

  z = value_trim(z, &n);
  if (n == 8) {
    y = value_digits(z, 4);
    m = value_digits(z + 4, 2);
    d = value_digits(z + 6, 2);
  } else if (n == 10 && z[4] == '-' && z[7] == '-') {
    y = value_digits(z, 4);
    m = value_digits(z + 5, 2);
    d = value_digits(z + 8, 2);
  } else {
    y = m = d = -1;
  }
  if (y < 0 || m < 0 || d < 0) return value_date_general(z, n, pv, zWhy, nWhy);
  if (y == 0) {
    snprintf(zWhy, nWhy, "a date from 0001-01-01 to 9999-12-31");
    return -1;
  }
  if (m < 1 || m > 12) {
    snprintf(zWhy, nWhy, "a month from 01 to 12");
    return -1;
  }
  if (!value_date_ok(y, m, d)) {
    int nLast = 28;
    while (value_date_ok(y, m, nLast + 1)) nLast++;
    snprintf(zWhy, nWhy, "a day from 01 to %02d in %04d-%02d", nLast, y, m);
    return -1;
  }
  *pv = y * 10000 + m * 100 + d;
  return 0;
}

/* ---- the entry points ---------------------------------------------------- */

int value_parse(coltype t, const char *z, size_t n, void *pOut, char *zWhy, size_t nWhy) {
  int64_t v;
  switch (t.eId) {
    case COLTYPE_SMALLINT:
      if (value_int(z, n, INT16_MIN, INT16_MAX, &v) != 0) {
        snprintf(zWhy, nWhy, "a whole number from -32768 to 32767");
        return -1;
      }
      *(int16_t *)pOut = (int16_t)v;
      return 0;
    case COLTYPE_INTEGER:
      if (value_int(z, n, INT32_MIN, INT32_MAX, &v) != 0) {
        snprintf(zWhy, nWhy, "a whole number from -2147483648 to 2147483647");
        return -1;
      }
      *(int32_t *)pOut = (int32_t)v;
      return 0;
    case COLTYPE_BIGINT:
      if (value_int(z, n, INT64_MIN, INT64_MAX, &v) != 0) {
        snprintf(zWhy, nWhy,
                 "a whole number from -9223372036854775808 to 9223372036854775807");
        return -1;
      }
      *(int64_t *)pOut = v;
      return 0;
    case COLTYPE_DECIMAL:
      if (t.nPrecision < 1 || t.nPrecision > COLTYPE_DECIMAL_PRECISION_MAX ||
          t.nScale < 0 || t.nScale > t.nPrecision) {
        snprintf(zWhy, nWhy, "a valid DECIMAL type (precision %d, scale %d)",
                 t.nPrecision, t.nScale);
        return -1;
      }
      if (value_decimal(t, z, n, &v) != 0) {
        int nIntDigit = t.nPrecision - t.nScale;
        if (nIntDigit == 0) {
          snprintf(zWhy, nWhy, "a number less than 1 in absolute value");
        } else {
          snprintf(zWhy, nWhy, "a number with at most %d digit%s before the decimal point",
                   nIntDigit, nIntDigit == 1 ? "" : "s");
        }
        return -1;
      }
      *(int64_t *)pOut = v;
      return 0;
    case COLTYPE_DOUBLE: {
      double d;
      int bRange;
      if (value_double(z, n, &d, &bRange) != 0) {
        snprintf(zWhy, nWhy, bRange ? "a number within the range of DOUBLE PRECISION"
                                    : "a floating-point number");
        return -1;
      }
      memcpy(pOut, &d, sizeof(d));
      return 0;
    }
    case COLTYPE_DATE:
      return value_date(z, n, (int32_t *)pOut, zWhy, nWhy);
    case COLTYPE_TIMESTAMP:
    case COLTYPE_TIMESTAMPTZ:
      return value_timestamp(t, z, n, (int64_t *)pOut, zWhy, nWhy);
    case COLTYPE_CHAR:
    case COLTYPE_VARCHAR:
    case COLTYPE_TEXT:
    case COLTYPE_BOOLEAN:     /* expression types, never a column's */
    case COLTYPE_UNKNOWN:
    COLTYPE_CASE_NAMED_ONLY:
      break;
  }
  snprintf(zWhy, nWhy, "a column type that is not a string (type %d)", (int)t.eId);
  return -1;
}

/* Not valid RFC 3629 UTF-8 is: a stray continuation byte, an overlong
** form, a surrogate (U+D800..DFFF), a code point above U+10FFFF, a
** truncated sequence. NUL is refused too, as PostgreSQL refuses it. */
int value_utf8_len(const unsigned char *z, size_t n) {
  unsigned c = z[0], lo = 0x80, hi = 0xBF;
  int nLen;
  if (c >= 0x01 && c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) {
    nLen = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    nLen = 3;
    if (c == 0xE0) lo = 0xA0;          /* overlong below U+0800 */
    if (c == 0xED) hi = 0x9F;          /* surrogates */
  } else if (c >= 0xF0 && c <= 0xF4) {
    nLen = 4;
    if (c == 0xF0) lo = 0x90;          /* overlong below U+10000 */
    if (c == 0xF4) hi = 0x8F;          /* above U+10FFFF */
  } else {
    return 0;
  }
  if ((size_t)nLen > n) return 0;
  if (z[1] < lo || z[1] > hi) return 0;
  for (int i = 2; i < nLen; i++) {
    if (z[i] < 0x80 || z[i] > 0xBF) return 0;
  }
  return nLen;
}

size_t value_utf8_invalid(const char *z, size_t n, char *zMsg, size_t nMsg) {
  const unsigned char *u = (const unsigned char *)z;
  size_t i = 0, nShow, k;
  int nUsed;
  while (i < n) {
    /* ASCII runs first: most text is. */
    while (i < n && u[i] >= 0x01 && u[i] < 0x80) i++;
    if (i == n) return n;
    if ((k = (size_t)value_utf8_len(u + i, n - i)) == 0) break;
    i += k;
  }
  if (i == n) return n;
  /* The bytes the lead byte claims, as PostgreSQL's report shows them. */
  nShow = u[i] >= 0xF0 ? 4 : u[i] >= 0xE0 ? 3 : u[i] >= 0xC0 ? 2 : 1;
  if (nShow > n - i) nShow = n - i;
  nUsed = snprintf(zMsg, nMsg, "invalid byte sequence for encoding \"UTF8\":");
  for (k = 0; k < nShow && nUsed > 0 && (size_t)nUsed < nMsg; k++) {
    nUsed += snprintf(zMsg + nUsed, nMsg - (size_t)nUsed, " 0x%02x", u[i + k]);
  }
  return i;
}

int value_check_str(coltype t, const char *z, size_t n, char *zWhy, size_t nWhy) {
  const unsigned char *u = (const unsigned char *)z;
  size_t i = 0, nChar = 0;
  int32_t nLimit;

  if (!coltype_is_string(t)) {
    snprintf(zWhy, nWhy, "a string column (type %d is not one)", (int)t.eId);
    return -1;
  }
  nLimit = t.eId == COLTYPE_TEXT ? 0 : t.nLength;
  while (i < n) {
    if (u[i] >= 0x01 && u[i] < 0x80) {
      i++;
    } else {
      int nLen = value_utf8_len(u + i, n - i);
      if (nLen == 0) {
        if (u[i] == 0) {
          snprintf(zWhy, nWhy, "text without NUL bytes (byte %zu is 0x00)", i + 1);
        } else {
          snprintf(zWhy, nWhy, "valid UTF-8 (byte %zu, 0x%02x, is not)", i + 1,
                   (unsigned)u[i]);
        }
        return -1;
      }
      i += (size_t)nLen;
    }
    nChar++;
  }
  if (nLimit > 0 && nChar > (size_t)nLimit) {
    snprintf(zWhy, nWhy, "at most %d character%s, found %zu", nLimit,
             nLimit == 1 ? "" : "s", nChar);
    return -1;
  }
  return 0;
}
