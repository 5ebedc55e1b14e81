/*
** common/numeric.c — the host's half of NUMERIC (numeric.h): PostgreSQL's
** text in and out, conversions with float8 as PostgreSQL makes them, and
** the result codes of the arithmetic core as PostgreSQL's errors.
**
** The arithmetic is numeric.h's, inline, so the kernels can have it too;
** what is here needs the C library (strtod, snprintf) or an sql_error,
** which device code has neither of.
**
** INTERFACE ROUTINES
**   numeric_parse        numeric_in
**   numeric_format       numeric_out
**   numeric_from_double  float8_numeric
**   numeric_to_double    numeric_float8
**   numeric_error        a result code as SQLSTATE and message
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "numeric.h"

/* isspace() of the C locale, as PostgreSQL's input functions use it. */
static int numeric_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int numeric_is_digit(char c) {
  return (unsigned)(c - '0') < 10u;
}

/* Matches one of the special spellings at z[0..n) (case-insensitive),
** returning its length and setting *pKind, or 0. PostgreSQL tries them
** in this order, so "infinity" wins over "inf". */
static size_t numeric_special_match(const char *z, size_t n, int *pKind) {
  static const struct {
    const char *zWord;
    int eKind;
  } aWord[] = {
      {"NaN", NUMERIC_NAN},        {"Infinity", NUMERIC_PINF}, {"+Infinity", NUMERIC_PINF},
      {"-Infinity", NUMERIC_NINF}, {"inf", NUMERIC_PINF},      {"+inf", NUMERIC_PINF},
      {"-inf", NUMERIC_NINF},
  };
  for (size_t i = 0; i < sizeof(aWord) / sizeof(aWord[0]); i++) {
    size_t nWord = strlen(aWord[i].zWord);
    if (n >= nWord && strncasecmp(z, aWord[i].zWord, nWord) == 0) {
      *pKind = aWord[i].eKind;
      return nWord;
    }
  }
  return 0;
}

static int numeric_syntax_error(const char *z, size_t n, sql_error *pErr) {
  sql_error_set(pErr, SQLSTATE_INVALID_TEXT_REP, -1,
                "invalid input syntax for type numeric: \"%.*s\"", (int)n, z);
  return -1;
}

int numeric_parse(const char *z, size_t n, numeric *pOut, sql_error *pErr) {
  size_t i = 0, nSpecial;
  uint64_t m[4] = {0, 0, 0, 0};
  int bNeg = 0, bPoint = 0, nSig = 0, nFrac = 0, eKind, bOver = 0;
  long iExp = 0;

  while (i < n && numeric_is_space(z[i])) i++;
  nSpecial = numeric_special_match(z + i, n - i, &eKind);
  if (nSpecial > 0) {
    i += nSpecial;
    *pOut = numeric_special(eKind);
  } else {
    if (i < n && (z[i] == '+' || z[i] == '-')) bNeg = z[i++] == '-';
    if (i < n && z[i] == '.') {
      bPoint = 1;
      i++;
    }
    if (i >= n || !numeric_is_digit(z[i])) return numeric_syntax_error(z, n, pErr);
    for (; i < n; i++) {
      if (numeric_is_digit(z[i])) {
        uint64_t ten[2] = {10, 0}, d[4] = {(uint64_t)(z[i] - '0'), 0, 0, 0};
        if (bPoint) nFrac++;
        if (nSig == 0 && z[i] == '0') continue;          /* a leading zero */
        if (++nSig > NUMERIC_MAX_DIGITS) {
          bOver = 1;
          continue;
        }
        numeric__umul256(m, ten, m);
        numeric__uadd(m, d, m, 4);
      } else if (z[i] == '.') {
        if (bPoint) return numeric_syntax_error(z, n, pErr);
        bPoint = 1;
      } else {
        break;
      }
    }
    if (i < n && (z[i] == 'e' || z[i] == 'E')) {
      /* strtol's syntax: blanks, a sign, digits. */
      size_t iDigits;
      int bExpNeg = 0;
      i++;
      while (i < n && numeric_is_space(z[i])) i++;
      if (i < n && (z[i] == '+' || z[i] == '-')) bExpNeg = z[i++] == '-';
      iDigits = i;
      for (; i < n && numeric_is_digit(z[i]); i++) {
        if (iExp < 1000000000L) iExp = iExp * 10 + (z[i] - '0');
      }
      if (i == iDigits) return numeric_syntax_error(z, n, pErr);
      if (iExp >= 1073741823L) {     /* INT_MAX / 2, as PostgreSQL */
        sql_error_set(pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, -1, "value overflows numeric format");
        return -1;
      }
      if (bExpNeg) iExp = -iExp;
    }
  }
  while (i < n && numeric_is_space(z[i])) i++;
  if (i != n) return numeric_syntax_error(z, n, pErr);
  if (nSpecial == 0) {
    long iScale = nFrac - iExp;
    if (iScale < 0) iScale = 0;
    /* The coefficient is the digits times 10^(exp - nFrac + scale). */
    if (iScale > NUMERIC_SCALE_MAX || (nSig > 0 && iExp - nFrac + iScale > 76)) bOver = 1;
    if (!bOver && nSig > 0 && numeric__umul_pow10(m, (int)(iExp - nFrac + iScale), m)) bOver = 1;
    if (bOver || numeric__make(pOut, m, bNeg, (int32_t)iScale) != NUMERIC_OK) {
      sql_error_set(pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, -1, "value overflows numeric format");
      return -1;
    }
  }
  return 0;
}

/* Appends c to z[0..nz) at *pi if it fits; counts it either way. */
static void numeric_put(char *z, size_t nz, size_t *pi, char c) {
  if (*pi + 1 < nz) z[*pi] = c;
  (*pi)++;
}

int numeric_format(const numeric *a, char *z, size_t nz) {
  static const char *const azSpecial[] = {"", "NaN", "Infinity", "-Infinity"};
  char aDigit[40];
  uint64_t m[4], ten[4] = {10, 0, 0, 0};
  int nDigit = 0, bNeg;
  size_t i = 0;
  if (a->eKind != NUMERIC_FINITE) {
    return snprintf(z, nz, "%s", azSpecial[a->eKind]);
  }
  bNeg = numeric__mag(a, m);
  while (m[0] | m[1]) {                        /* digits, least significant first */
    uint64_t q[4], r[4];
    numeric__udivmod(m, ten, q, r);
    aDigit[nDigit++] = (char)('0' + r[0]);
    memcpy(m, q, sizeof(m));
  }
  if (bNeg) numeric_put(z, nz, &i, '-');
  if (nDigit <= a->scale) {
    numeric_put(z, nz, &i, '0');
  } else {
    for (int k = nDigit - 1; k >= a->scale; k--) numeric_put(z, nz, &i, aDigit[k]);
  }
  if (a->scale > 0) {
    numeric_put(z, nz, &i, '.');
    for (int k = a->scale - 1; k >= 0; k--) numeric_put(z, nz, &i, k < nDigit ? aDigit[k] : '0');
  }
  if (nz > 0) z[i < nz ? i : nz - 1] = 0;
  return (int)i;
}

int numeric_from_double(double d, numeric *pOut, sql_error *pErr) {
  char z[64];
  if (isnan(d)) {
    *pOut = numeric_special(NUMERIC_NAN);
    return 0;
  }
  if (isinf(d)) {
    *pOut = numeric_special(d < 0 ? NUMERIC_NINF : NUMERIC_PINF);
    return 0;
  }
  snprintf(z, sizeof(z), "%.*g", DBL_DIG, d);
  return numeric_parse(z, strlen(z), pOut, pErr);
}

double numeric_to_double(const numeric *a) {
  char z[NUMERIC_TEXT_MAX], *zBig = NULL;
  const char *zText = z;
  double d;
  if (a->eKind == NUMERIC_NAN) return NAN;
  if (a->eKind == NUMERIC_PINF) return INFINITY;
  if (a->eKind == NUMERIC_NINF) return -INFINITY;
  if ((size_t)numeric_format(a, z, sizeof(z)) >= sizeof(z)) {
    size_t n = (size_t)a->scale + 48;
    zBig = malloc(n);
    if (zBig == NULL) return NAN;
    numeric_format(a, zBig, n);
    zText = zBig;
  }
  d = strtod(zText, NULL);
  free(zBig);
  return d;
}

void numeric_error(int rc, const char *zIntType, sql_error *pErr) {
  switch (rc) {
    case NUMERIC_E_DIV_ZERO:
      sql_error_set(pErr, SQLSTATE_DIVISION_BY_ZERO, -1, "division by zero");
      break;
    case NUMERIC_E_FIELD_OVERFLOW:
    case NUMERIC_E_FIELD_INFINITE:
      sql_error_set(pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, -1, "numeric field overflow");
      break;
    case NUMERIC_E_INT_RANGE:
      sql_error_set(pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, -1, "%s out of range", zIntType);
      break;
    case NUMERIC_E_INT_NAN:
      sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1, "cannot convert NaN to %s",
                    zIntType);
      break;
    case NUMERIC_E_INT_INF:
      sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1, "cannot convert infinity to %s",
                    zIntType);
      break;
    default:
      sql_error_set(pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, -1, "value overflows numeric format");
      break;
  }
}

/* ---- square root -------------------------------------------------------- */

/* m = floor(sqrt(m)) for a 256-bit m, bit by bit (each step decides one
** bit of the root from the remainder so far). */
static void numeric_usqrt256(uint64_t *m) {
  uint64_t rem[4] = {m[0], m[1], m[2], m[3]}, root[4] = {0, 0, 0, 0}, bit[4] = {0, 0, 0, 1ull << 62};
  while (numeric__ucmp(bit, rem, 4) > 0) {          /* the highest power of 4 <= m */
    for (int i = 0; i < 4; i++) bit[i] = (bit[i] >> 2) | (i < 3 ? bit[i + 1] << 62 : 0);
    if ((bit[0] | bit[1] | bit[2] | bit[3]) == 0) break;
  }
  while ((bit[0] | bit[1] | bit[2] | bit[3]) != 0) {
    uint64_t t[4];
    numeric__uadd(root, bit, t, 4);
    for (int i = 0; i < 4; i++) root[i] = (root[i] >> 1) | (i < 3 ? root[i + 1] << 63 : 0);
    if (numeric__ucmp(rem, t, 4) >= 0) {
      numeric__usub(rem, t, rem, 4);
      numeric__uadd(root, bit, root, 4);
    }
    for (int i = 0; i < 4; i++) bit[i] = (bit[i] >> 2) | (i < 3 ? bit[i + 1] << 62 : 0);
  }
  for (int i = 0; i < 4; i++) m[i] = root[i];
}

int numeric_sqrt(const numeric *a, int rscale, numeric *r) {
  uint64_t m[4], ten[2] = {10, 0}, q[4], d[4];
  int e = 2 * (rscale + 1) - a->scale;
  if (a->eKind != NUMERIC_FINITE || rscale < 0 || numeric__mag(a, m)) return NUMERIC_E_OVERFLOW;
  /* floor(sqrt(a) * 10^(rscale + 1)) = isqrt(floor(coefficient * 10^e)) */
  if (e >= 0) {
    if (numeric__umul_pow10(m, e, m)) return NUMERIC_E_OVERFLOW;
  } else {
    uint64_t p[4] = {1, 0, 0, 0};
    if (numeric__umul_pow10(p, -e, p)) {
      m[0] = m[1] = m[2] = m[3] = 0;
    } else {
      numeric__udivmod(m, p, q, d);
      for (int i = 0; i < 4; i++) m[i] = q[i];
    }
  }
  numeric_usqrt256(m);
  /* The last digit rounds: 5 or more is at least half (a tie only when
  ** the root is exact, and PostgreSQL rounds a tie away from zero). */
  {
    uint64_t t[4] = {ten[0], ten[1], 0, 0};
    numeric__udivmod(m, t, q, d);
    if (d[0] >= 5) {
      uint64_t one[4] = {1, 0, 0, 0};
      numeric__uadd(q, one, q, 4);
    }
  }
  return numeric__make(r, q, 0, rscale);
}
