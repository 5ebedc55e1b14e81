/*
** server/pgwire-binary.c — the binary format of the value types starq
** sends and receives (the pgwire_binary_* functions of pgwire.h).
**
** The engine speaks text: a result value is what PostgreSQL would print,
** a parameter is what PostgreSQL would read. When a client asks for binary
** results, or sends binary parameters, these functions convert between the
** two, with PostgreSQL's binary layouts: big-endian integers, IEEE floats
** by their bits, bool as one byte, date as int32 days since 2000-01-01
** (with INT32_MIN and INT32_MAX for -infinity and infinity), timestamp and
** timestamptz as int64 microseconds since 2000-01-01 (UTC), numeric as
** base-10000 digits (pgJDBC asks for numeric in binary), and the
** text-like types as their bytes.
*/
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgwire.h"

/* Days from 1970-01-01, where binary_days_from_civil() counts from, to
** 2000-01-01, PostgreSQL's date epoch. */
#define BINARY_EPOCH_DAYS 10957

int pgwire_binary_supported(uint32_t iOid) {
  switch (iOid) {
    case PGWIRE_OID_BOOL:
    case PGWIRE_OID_INT2:
    case PGWIRE_OID_INT4:
    case PGWIRE_OID_INT8:
    case PGWIRE_OID_OID:
    case PGWIRE_OID_FLOAT4:
    case PGWIRE_OID_FLOAT8:
    case PGWIRE_OID_DATE:
    case PGWIRE_OID_TIMESTAMP:
    case PGWIRE_OID_TIMESTAMPTZ:
    case PGWIRE_OID_NUMERIC:
    case PGWIRE_OID_TEXT:
    case PGWIRE_OID_VARCHAR:
    case PGWIRE_OID_BPCHAR:
    case PGWIRE_OID_NAME:
    case PGWIRE_OID_UNKNOWN:
      return 1;
    default:
      return 0;
  }
}

static void binary_put_be(strbuf *s, uint64_t v, int nByte) {
  char a[8];
  for (int i = 0; i < nByte; i++) a[i] = (char)(v >> (8 * (nByte - 1 - i)));
  strbuf_append(s, a, (size_t)nByte);
}

static uint64_t binary_get_be(const unsigned char *a, int nByte) {
  uint64_t v = 0;
  for (int i = 0; i < nByte; i++) v = v << 8 | a[i];
  return v;
}

/* ---- dates: days since 1970-01-01 <-> civil (H. Hinnant's algorithms) ---- */

static int64_t binary_days_from_civil(int64_t y, int m, int d) {
  int64_t era, yoe, doy, doe;
  y -= m <= 2;
  era = (y >= 0 ? y : y - 399) / 400;
  yoe = y - era * 400;
  doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

static void binary_civil_from_days(int64_t z, int64_t *py, int *pm, int *pd) {
  int64_t era, doe, yoe, doy, mp;
  z += 719468;
  era = (z >= 0 ? z : z - 146096) / 146097;
  doe = z - era * 146097;
  yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  mp = (5 * doy + 2) / 153;
  *pd = (int)(doy - (153 * mp + 2) / 5 + 1);
  *pm = (int)(mp < 10 ? mp + 3 : mp - 9);
  *py = yoe + era * 400 + (*pm <= 2);
}

static int binary_month_days(int64_t y, int m) {
  static const int aDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int bLeap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && bLeap ? 29 : aDays[m - 1];
}

/* Reads the digits at z[*pi..n), at most nMax of them; -1 if none. */
static int64_t binary_digits(const char *z, size_t n, size_t *pi, int nMax) {
  int64_t v = 0;
  int nDigit = 0;
  while (*pi < n && z[*pi] >= '0' && z[*pi] <= '9' && nDigit < nMax) {
    v = v * 10 + (z[(*pi)++] - '0');
    nDigit++;
  }
  return nDigit > 0 ? v : -1;
}

/* Parses "YYYY-MM-DD" (a year of 1 to 7 digits, AD) into days since
** 2000-01-01. Returns 0 or -1. */
static int binary_date_parse(const char *z, size_t n, int64_t *pDays) {
  size_t i = 0;
  int64_t y = binary_digits(z, n, &i, 7), m, d;
  if (y < 1 || i >= n || z[i++] != '-') return -1;
  m = binary_digits(z, n, &i, 2);
  if (m < 1 || m > 12 || i >= n || z[i++] != '-') return -1;
  d = binary_digits(z, n, &i, 2);
  if (d < 1 || d > binary_month_days(y, (int)m) || i != n) return -1;
  *pDays = binary_days_from_civil(y, (int)m, (int)d) - BINARY_EPOCH_DAYS;
  return *pDays >= INT32_MIN + 1 && *pDays <= INT32_MAX - 1 ? 0 : -1;
}

/* ---- numeric: base-10000 digits ----------------------------------------------
** PostgreSQL's numeric_send: int16 ndigits, int16 weight (of the first
** digit, in powers of 10000), uint16 sign, int16 dscale (digits after the
** point), then ndigits int16 digits of 0..9999, with no leading or
** trailing zero digit. Zero has no digits and weight 0. */

#define NUMERIC_POS  0x0000
#define NUMERIC_NEG  0x4000
#define NUMERIC_NAN  0xC000
#define NUMERIC_PINF 0xD000
#define NUMERIC_NINF 0xF000
#define NUMERIC_DSCALE_MAX 0x3FFF

/* The decimal digit at position iPos (0: units, 1: tens, -1: tenths) of
** the number whose integer digits are zInt[0..nInt) and fraction digits
** zFrac[0..nFrac); 0 outside them. */
static int numeric_digit_at(const char *zInt, size_t nInt, const char *zFrac, size_t nFrac,
                            long iPos) {
  if (iPos >= 0) return (size_t)iPos < nInt ? zInt[nInt - 1 - (size_t)iPos] - '0' : 0;
  return (size_t)(-iPos) <= nFrac ? zFrac[-iPos - 1] - '0' : 0;
}

static int numeric_special(const char *z, size_t n, strbuf *s) {
  uint16_t iSign;
  if (n == 3 && memcmp(z, "NaN", 3) == 0) {
    iSign = NUMERIC_NAN;
  } else if (n == 8 && memcmp(z, "Infinity", 8) == 0) {
    iSign = NUMERIC_PINF;
  } else if (n == 9 && memcmp(z, "-Infinity", 9) == 0) {
    iSign = NUMERIC_NINF;
  } else {
    return -1;
  }
  binary_put_be(s, 0, 4);          /* ndigits, weight */
  binary_put_be(s, iSign, 2);
  binary_put_be(s, 0, 2);          /* dscale */
  return 0;
}

static int numeric_from_text(const char *z, size_t n, strbuf *s) {
  size_t i = 0, nInt, nFrac = 0;
  const char *zInt, *zFrac = "";
  int bNeg = 0, nDigit;
  long iHigh, iLow, iGroup;

  if (numeric_special(z, n, s) == 0) return 0;
  if (i < n && (z[i] == '-' || z[i] == '+')) bNeg = z[i++] == '-';
  if (i == n) return -1;
  while (i < n - 1 && z[i] == '0' && z[i + 1] != '.') i++;     /* leading zeros */
  zInt = z + i;
  for (nInt = 0; i < n && z[i] >= '0' && z[i] <= '9'; i++) nInt++;
  if (i < n && z[i] == '.') {
    zFrac = z + ++i;
    for (; i < n && z[i] >= '0' && z[i] <= '9'; i++) nFrac++;
  }
  if (i != n || nInt + nFrac == 0 || nFrac > NUMERIC_DSCALE_MAX || nInt > 4 * 0x7FFFu) return -1;
  if (nInt == 1 && zInt[0] == '0') nInt = 0;
  /* Base-10000 groups cover decimal positions [4g, 4g + 3]; find the
  ** highest and lowest with a digit that is not zero. */
  iHigh = nInt > 0 ? (long)(nInt - 1) / 4 : -1;
  iLow = -(long)(nFrac + 3) / 4;
  while (iHigh >= iLow) {
    long iPos = 4 * iHigh;
    int v = 0;
    for (int k = 3; k >= 0; k--) v = v * 10 + numeric_digit_at(zInt, nInt, zFrac, nFrac, iPos + k);
    if (v != 0) break;
    iHigh--;
  }
  while (iLow <= iHigh) {
    long iPos = 4 * iLow;
    int v = 0;
    for (int k = 3; k >= 0; k--) v = v * 10 + numeric_digit_at(zInt, nInt, zFrac, nFrac, iPos + k);
    if (v != 0) break;
    iLow++;
  }
  nDigit = iHigh >= iLow ? (int)(iHigh - iLow + 1) : 0;
  binary_put_be(s, (uint16_t)nDigit, 2);
  binary_put_be(s, (uint16_t)(int16_t)(nDigit > 0 ? iHigh : 0), 2);
  binary_put_be(s, nDigit > 0 && bNeg ? NUMERIC_NEG : NUMERIC_POS, 2);
  binary_put_be(s, (uint16_t)nFrac, 2);
  for (iGroup = iHigh; nDigit > 0 && iGroup >= iLow; iGroup--) {
    int v = 0;
    for (int k = 3; k >= 0; k--) {
      v = v * 10 + numeric_digit_at(zInt, nInt, zFrac, nFrac, 4 * iGroup + k);
    }
    binary_put_be(s, (uint16_t)v, 2);
  }
  return 0;
}

static int numeric_to_text(const unsigned char *a, size_t n, strbuf *s) {
  int nDigit, iWeight, iScale;
  unsigned iSign;
  if (n < 8) return -1;
  nDigit = (int)binary_get_be(a, 2);
  iWeight = (int16_t)binary_get_be(a + 2, 2);
  iSign = (unsigned)binary_get_be(a + 4, 2);
  iScale = (int)binary_get_be(a + 6, 2);
  if (n != 8 + 2 * (size_t)nDigit || iScale > NUMERIC_DSCALE_MAX) return -1;
  for (int i = 0; i < nDigit; i++) {
    if (binary_get_be(a + 8 + 2 * i, 2) > 9999) return -1;
  }
  if (iSign == NUMERIC_NAN || iSign == NUMERIC_PINF || iSign == NUMERIC_NINF) {
    if (nDigit != 0) return -1;
    strbuf_puts(s, iSign == NUMERIC_NAN ? "NaN" : iSign == NUMERIC_PINF ? "Infinity" : "-Infinity");
    return 0;
  }
  if (iSign != NUMERIC_POS && iSign != NUMERIC_NEG) return -1;
  if (iSign == NUMERIC_NEG && nDigit > 0) strbuf_puts(s, "-");
  /* The integer part: groups of weight iWeight down to 0. */
  if (iWeight < 0 || nDigit == 0) strbuf_puts(s, "0");
  for (int w = iWeight; w >= 0 && nDigit > 0; w--) {
    int i = iWeight - w;
    unsigned v = i < nDigit ? (unsigned)binary_get_be(a + 8 + 2 * i, 2) : 0;
    strbuf_printf(s, w == iWeight ? "%u" : "%04u", v);
  }
  /* The fraction: dscale digits, from groups of weight -1 down. */
  for (int w = -1, nDone = 0; nDone < iScale; w--) {
    int i = iWeight - w;
    unsigned v = i >= 0 && i < nDigit ? (unsigned)binary_get_be(a + 8 + 2 * i, 2) : 0;
    char z[5];
    snprintf(z, sizeof(z), "%04u", v);
    if (nDone == 0) strbuf_puts(s, ".");
    for (int k = 0; k < 4 && nDone < iScale; k++, nDone++) strbuf_append(s, z + k, 1);
  }
  return 0;
}

/* ---- text to binary (results) ---------------------------------------------- */

/* Copies z[0..n) into a NUL-terminated buffer for strto*: -1 if it does
** not fit (no number that the engine prints is that long). */
static int binary_cstr(const char *z, size_t n, char *zBuf, size_t nBuf) {
  if (n == 0 || n >= nBuf || memchr(z, 0, n) != NULL) return -1;
  memcpy(zBuf, z, n);
  zBuf[n] = 0;
  return 0;
}

static int binary_int_from_text(const char *z, size_t n, int64_t iMin, int64_t iMax,
                                int nByte, strbuf *s) {
  char zBuf[32], *zEnd;
  long long v;
  if (binary_cstr(z, n, zBuf, sizeof(zBuf)) != 0) return -1;
  errno = 0;
  v = strtoll(zBuf, &zEnd, 10);
  if (errno != 0 || *zEnd != 0 || v < iMin || v > iMax) return -1;
  binary_put_be(s, (uint64_t)v, nByte);
  return 0;
}

static int binary_float_from_text(const char *z, size_t n, int bDouble, strbuf *s) {
  char zBuf[400], *zEnd;
  if (binary_cstr(z, n, zBuf, sizeof(zBuf)) != 0) return -1;
  if (bDouble) {
    double r = strtod(zBuf, &zEnd);
    uint64_t u;
    if (*zEnd != 0 || zEnd == zBuf) return -1;
    memcpy(&u, &r, 8);
    binary_put_be(s, u, 8);
  } else {
    float r = strtof(zBuf, &zEnd);
    uint32_t u;
    if (*zEnd != 0 || zEnd == zBuf) return -1;
    memcpy(&u, &r, 4);
    binary_put_be(s, u, 4);
  }
  return 0;
}

static int binary_date_from_text(const char *z, size_t n, strbuf *s) {
  int64_t iDays;
  if (n == 8 && memcmp(z, "infinity", 8) == 0) {
    iDays = INT32_MAX;
  } else if (n == 9 && memcmp(z, "-infinity", 9) == 0) {
    iDays = INT32_MIN;
  } else if (binary_date_parse(z, n, &iDays) != 0) {
    return -1;
  }
  binary_put_be(s, (uint32_t)(int32_t)iDays, 4);
  return 0;
}

static int binary_bool_from_text(const char *z, size_t n, strbuf *s) {
  char c;
  if ((n == 1 && z[0] == 't') || (n == 4 && memcmp(z, "true", 4) == 0)) {
    c = 1;
  } else if ((n == 1 && z[0] == 'f') || (n == 5 && memcmp(z, "false", 5) == 0)) {
    c = 0;
  } else {
    return -1;
  }
  strbuf_append(s, &c, 1);
  return 0;
}

int pgwire_binary_from_text(uint32_t iOid, const char *z, size_t n, strbuf *s) {
  switch (iOid) {
    case PGWIRE_OID_BOOL: return binary_bool_from_text(z, n, s);
    case PGWIRE_OID_INT2: return binary_int_from_text(z, n, INT16_MIN, INT16_MAX, 2, s);
    case PGWIRE_OID_INT4: return binary_int_from_text(z, n, INT32_MIN, INT32_MAX, 4, s);
    case PGWIRE_OID_INT8: return binary_int_from_text(z, n, INT64_MIN, INT64_MAX, 8, s);
    case PGWIRE_OID_OID: return binary_int_from_text(z, n, 0, UINT32_MAX, 4, s);
    case PGWIRE_OID_FLOAT4: return binary_float_from_text(z, n, 0, s);
    case PGWIRE_OID_FLOAT8: return binary_float_from_text(z, n, 1, s);
    case PGWIRE_OID_DATE: return binary_date_from_text(z, n, s);
    case PGWIRE_OID_TIMESTAMP:
    case PGWIRE_OID_TIMESTAMPTZ: return pgwire__timestamp_from_text(iOid, z, n, s);
    case PGWIRE_OID_NUMERIC: return numeric_from_text(z, n, s);
    default:
      if (!pgwire_binary_supported(iOid)) return -1;
      strbuf_append(s, z, n);
      return 0;
  }
}

/* ---- binary to text (parameters) ------------------------------------------- */

/* Writes a float as PostgreSQL spells its specials, else with enough
** digits to read back as the same value. */
static void binary_float_text(strbuf *s, double r, int nDigit) {
  if (isnan(r)) {
    strbuf_puts(s, "NaN");
  } else if (isinf(r)) {
    strbuf_puts(s, r > 0 ? "Infinity" : "-Infinity");
  } else {
    strbuf_printf(s, "%.*g", nDigit, r);
  }
}

static int binary_date_to_text(int32_t iDays, strbuf *s) {
  int64_t y;
  int m, d;
  if (iDays == INT32_MAX) {
    strbuf_puts(s, "infinity");
  } else if (iDays == INT32_MIN) {
    strbuf_puts(s, "-infinity");
  } else {
    binary_civil_from_days((int64_t)iDays + BINARY_EPOCH_DAYS, &y, &m, &d);
    if (y < 1) return -1;     /* BC dates: starq has none */
    strbuf_printf(s, "%04" PRId64 "-%02d-%02d", y, m, d);
  }
  return 0;
}

/* Returns the byte width of iOid's fixed-size binary form, 0 for the
** text-like types, -1 for types with no binary form here. */
static int binary_width(uint32_t iOid) {
  switch (iOid) {
    case PGWIRE_OID_BOOL: return 1;
    case PGWIRE_OID_INT2: return 2;
    case PGWIRE_OID_INT4:
    case PGWIRE_OID_OID:
    case PGWIRE_OID_FLOAT4:
    case PGWIRE_OID_DATE: return 4;
    case PGWIRE_OID_INT8:
    case PGWIRE_OID_TIMESTAMP:
    case PGWIRE_OID_TIMESTAMPTZ:
    case PGWIRE_OID_FLOAT8: return 8;
    default: return pgwire_binary_supported(iOid) ? 0 : -1;
  }
}

int pgwire_binary_to_text(uint32_t iOid, const unsigned char *a, size_t n, strbuf *s) {
  int nWidth = binary_width(iOid);
  uint64_t v;
  if (iOid == PGWIRE_OID_NUMERIC) return numeric_to_text(a, n, s);
  if (nWidth < 0) return -1;
  if (nWidth == 0) {
    /* text's binary form is its bytes; a NUL cannot be in a text value */
    if (n > 0 && memchr(a, 0, n) != NULL) return -1;
    if (n > 0) strbuf_append(s, (const char *)a, n);
    return 0;
  }
  if (n != (size_t)nWidth) return -1;
  v = binary_get_be(a, nWidth);
  switch (iOid) {
    case PGWIRE_OID_BOOL:
      if (v > 1) return -1;
      strbuf_puts(s, v ? "t" : "f");
      return 0;
    case PGWIRE_OID_INT2: strbuf_printf(s, "%d", (int16_t)v); return 0;
    case PGWIRE_OID_INT4: strbuf_printf(s, "%" PRId32, (int32_t)v); return 0;
    case PGWIRE_OID_OID: strbuf_printf(s, "%" PRIu32, (uint32_t)v); return 0;
    case PGWIRE_OID_INT8: strbuf_printf(s, "%" PRId64, (int64_t)v); return 0;
    case PGWIRE_OID_TIMESTAMP:
    case PGWIRE_OID_TIMESTAMPTZ: return pgwire__timestamp_to_text(iOid, (int64_t)v, s);
    case PGWIRE_OID_FLOAT4: {
      uint32_t u = (uint32_t)v;
      float r;
      memcpy(&r, &u, 4);
      binary_float_text(s, r, 9);
      return 0;
    }
    case PGWIRE_OID_FLOAT8: {
      double r;
      memcpy(&r, &v, 8);
      binary_float_text(s, r, 17);
      return 0;
    }
    default:
      return binary_date_to_text((int32_t)(uint32_t)v, s);
  }
}
