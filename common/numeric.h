/*
** common/numeric.h — PostgreSQL's NUMERIC in a fixed width: a 128-bit
** two's-complement coefficient scaled by 10^scale, wide enough for the
** sums analytic queries make (issue 24: "at least 38 digits rather than an
** error"), with PostgreSQL's result scales and rounding.
**
** A value is coefficient * 10^-scale where |coefficient| < 10^38 (38
** decimal digits) and 0 <= scale <= NUMERIC_SCALE_MAX. The scale is
** PostgreSQL's display scale (dscale): the digits printed after the point,
** trailing zeros included, so 12.50 is (1250, 2) and prints "12.50". Every
** result takes the scale PostgreSQL gives it:
**
**   a + b, a - b       max(scale a, scale b)
**   a * b              scale a + scale b (exact)
**   a / b              select_div_scale(): at least 16 significant
**                      digits, at least either input's scale, at most
**                      1000; rounded half away from zero
**   mod(a, b)          max of the scales; the dividend's sign
**   div(a, b)          the quotient truncated, scale 0
**   round(a, n)        half away from zero at digit n (n < 0: left of
**   trunc(a, n)        the point), scale max(n, 0)
**   ceil, floor        scale 0
**
** Besides finite values there are NaN, +Infinity and -Infinity (PostgreSQL
** 14's), with PostgreSQL's rules (NaN sorts above everything and equals
** itself; Inf - Inf is NaN; x / Inf is 0; Inf * 0 is NaN).
**
** Where PostgreSQL's arbitrary precision goes past 38 digits — a product
** whose scales add past what the coefficient holds, a sum above 10^38 — the
** result is NUMERIC_E_OVERFLOW, which numeric_error() reports as
** PostgreSQL reports its own limit: 22003 "value overflows numeric format".
**
** This header is the arithmetic core and is written to be compiled as
** device code later: C99 on 64-bit halves (no __int128), no library
** calls, no allocation, every function static inline (NUMERIC_FN). Text,
** doubles and error messages are the host's, in numeric.c.
**
** INTERFACE ROUTINES (inline: the core)
**   numeric_from_int64, numeric_to_int64       integers (rounded, ranged)
**   numeric_add, numeric_sub, numeric_mul, numeric_div,
**   numeric_mod, numeric_div_trunc             arithmetic
**   numeric_round, numeric_trunc, numeric_ceil, numeric_floor,
**   numeric_abs, numeric_neg, numeric_sign     rounding and signs
**   numeric_cmp                                PostgreSQL's total order
**   numeric_typmod_apply                       NUMERIC(p, s) coercion
**   numeric_div_scale                          select_div_scale()
** INTERFACE ROUTINES (numeric.c: the host)
**   numeric_parse, numeric_format              PostgreSQL's text
**   numeric_from_double, numeric_to_double     float8 as PostgreSQL converts
**   numeric_error                              a result code as sql_error
**   numeric_sqrt                               sqrt_var() at a given scale
*/
#ifndef STARQ_NUMERIC_H
#define STARQ_NUMERIC_H

#include <stdint.h>

#ifndef NUMERIC_FN
#define NUMERIC_FN static inline
#endif

#define NUMERIC_MAX_DIGITS 38       /* |coefficient| < 10^38 */
#define NUMERIC_SCALE_MAX 16383     /* PostgreSQL's NUMERIC_DSCALE_MAX */
#define NUMERIC_DIV_SCALE_MAX 1000  /* NUMERIC_MAX_DISPLAY_SCALE */
#define NUMERIC_MIN_SIG_DIGITS 16   /* what a quotient keeps at least */
#define NUMERIC_ROUND_SCALE_MAX 2000 /* NUMERIC_MAX_RESULT_SCALE: round()'s n */
#define NUMERIC_TYPMOD_PRECISION_MAX 38 /* NUMERIC(p, s): p up to this here */

/* Which value a numeric is. */
enum numeric_kind {
  NUMERIC_FINITE = 0,
  NUMERIC_NAN = 1,
  NUMERIC_PINF = 2,
  NUMERIC_NINF = 3,
};

/* Result codes of the core; numeric_error() turns one into PostgreSQL's
** SQLSTATE and message. */
enum numeric_rc {
  NUMERIC_OK = 0,
  NUMERIC_E_OVERFLOW,          /* 22003 value overflows numeric format */
  NUMERIC_E_DIV_ZERO,          /* 22012 division by zero */
  NUMERIC_E_FIELD_OVERFLOW,    /* 22003 numeric field overflow (typmod) */
  NUMERIC_E_FIELD_INFINITE,    /* 22003 numeric field overflow: an infinity */
  NUMERIC_E_INT_RANGE,         /* 22003 bigint/integer/smallint out of range */
  NUMERIC_E_INT_NAN,           /* 0A000 cannot convert NaN to bigint */
  NUMERIC_E_INT_INF,           /* 0A000 cannot convert infinity to bigint */
};

/* A plain value, copied freely. lo/hi are the coefficient's two's
** complement (hi's top bit the sign); scale is the display scale. For
** NaN and the infinities the coefficient and scale are 0. */
typedef struct numeric numeric;
struct numeric {
  uint64_t lo;             /* coefficient, low 64 bits */
  uint64_t hi;             /* coefficient, high 64 bits */
  int32_t scale;           /* display scale, 0..NUMERIC_SCALE_MAX */
  int32_t eKind;           /* enum numeric_kind */
};

/* ---- 128- and 256-bit magnitudes ---------------------------------------- */
/* Unsigned little-endian arrays of 64-bit words. A 256-bit intermediate
** holds any product of two coefficients and any dividend a quotient of
** 38 digits needs. */

/* 10^k for k = 0..38, as {lo, hi}. */
static const uint64_t numeric__aPow10[39][2] = {
    {0x0000000000000001ull, 0x0000000000000000ull}, {0x000000000000000aull, 0x0000000000000000ull},
    {0x0000000000000064ull, 0x0000000000000000ull}, {0x00000000000003e8ull, 0x0000000000000000ull},
    {0x0000000000002710ull, 0x0000000000000000ull}, {0x00000000000186a0ull, 0x0000000000000000ull},
    {0x00000000000f4240ull, 0x0000000000000000ull}, {0x0000000000989680ull, 0x0000000000000000ull},
    {0x0000000005f5e100ull, 0x0000000000000000ull}, {0x000000003b9aca00ull, 0x0000000000000000ull},
    {0x00000002540be400ull, 0x0000000000000000ull}, {0x000000174876e800ull, 0x0000000000000000ull},
    {0x000000e8d4a51000ull, 0x0000000000000000ull}, {0x000009184e72a000ull, 0x0000000000000000ull},
    {0x00005af3107a4000ull, 0x0000000000000000ull}, {0x00038d7ea4c68000ull, 0x0000000000000000ull},
    {0x002386f26fc10000ull, 0x0000000000000000ull}, {0x016345785d8a0000ull, 0x0000000000000000ull},
    {0x0de0b6b3a7640000ull, 0x0000000000000000ull}, {0x8ac7230489e80000ull, 0x0000000000000000ull},
    {0x6bc75e2d63100000ull, 0x0000000000000005ull}, {0x35c9adc5dea00000ull, 0x0000000000000036ull},
    {0x19e0c9bab2400000ull, 0x000000000000021eull}, {0x02c7e14af6800000ull, 0x000000000000152dull},
    {0x1bcecceda1000000ull, 0x000000000000d3c2ull}, {0x161401484a000000ull, 0x0000000000084595ull},
    {0xdcc80cd2e4000000ull, 0x000000000052b7d2ull}, {0x9fd0803ce8000000ull, 0x00000000033b2e3cull},
    {0x3e25026110000000ull, 0x00000000204fce5eull}, {0x6d7217caa0000000ull, 0x00000001431e0faeull},
    {0x4674edea40000000ull, 0x0000000c9f2c9cd0ull}, {0xc0914b2680000000ull, 0x0000007e37be2022ull},
    {0x85acef8100000000ull, 0x000004ee2d6d415bull}, {0x38c15b0a00000000ull, 0x0000314dc6448d93ull},
    {0x378d8e6400000000ull, 0x0001ed09bead87c0ull}, {0x2b878fe800000000ull, 0x0013426172c74d82ull},
    {0xb34b9f1000000000ull, 0x00c097ce7bc90715ull}, {0x00f436a000000000ull, 0x0785ee10d5da46d9ull},
    {0x098a224000000000ull, 0x4b3b4ca85a86c47aull},
};

/* hi:lo = a * b, from 32-bit halves (what a compiler turns into one
** widening multiply where it has one). */
NUMERIC_FN void numeric__mul64(uint64_t a, uint64_t b, uint64_t *pHi, uint64_t *pLo) {
  uint64_t aL = a & 0xffffffffu, aH = a >> 32, bL = b & 0xffffffffu, bH = b >> 32;
  uint64_t ll = aL * bL, lh = aL * bH, hl = aH * bL, hh = aH * bH;
  uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  *pLo = (mid << 32) | (ll & 0xffffffffu);
  *pHi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* Returns -1, 0 or 1 as a <=> b, n words each. */
NUMERIC_FN int numeric__ucmp(const uint64_t *a, const uint64_t *b, int n) {
  for (int i = n - 1; i >= 0; i--) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

/* r = a + b over n words; returns the carry out. r may be a or b. */
NUMERIC_FN uint64_t numeric__uadd(const uint64_t *a, const uint64_t *b, uint64_t *r, int n) {
  uint64_t c = 0;
  for (int i = 0; i < n; i++) {
    uint64_t s = a[i] + c;
    uint64_t c1 = s < c;
    r[i] = s + b[i];
    c = c1 + (r[i] < s);
  }
  return c;
}

/* r = a - b over n words, a >= b. r may be a or b. */
NUMERIC_FN void numeric__usub(const uint64_t *a, const uint64_t *b, uint64_t *r, int n) {
  uint64_t bw = 0;
  for (int i = 0; i < n; i++) {
    uint64_t d = a[i] - b[i];
    uint64_t bw1 = a[i] < b[i];
    r[i] = d - bw;
    bw = bw1 + (d < bw);
  }
}

/* r[0..4) = a[0..4) * b[0..2); returns 1 if the product needs more than
** 256 bits (r is then not meaningful). */
NUMERIC_FN int numeric__umul256(const uint64_t *a, const uint64_t *b, uint64_t *r) {
  uint64_t t[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 4; i++) {
    uint64_t c = 0;
    if (a[i] == 0) continue;
    for (int j = 0; j < 2; j++) {
      uint64_t hi, lo;
      numeric__mul64(a[i], b[j], &hi, &lo);
      lo += c;
      hi += lo < c;
      t[i + j] += lo;
      hi += t[i + j] < lo;
      c = hi;
    }
    for (int k = i + 2; c != 0 && k < 6; k++) {
      t[k] += c;
      c = t[k] < c;
    }
  }
  for (int i = 0; i < 4; i++) r[i] = t[i];
  return (t[4] | t[5]) != 0;
}

/* r = a * 10^k (a 256-bit, k >= 0); returns 1 if it needs more than 256
** bits. */
NUMERIC_FN int numeric__umul_pow10(const uint64_t *a, int k, uint64_t *r) {
  uint64_t t[4] = {a[0], a[1], a[2], a[3]};
  while (k > 0) {
    int s = k > 38 ? 38 : k;
    if (numeric__umul256(t, numeric__aPow10[s], t)) return 1;
    k -= s;
  }
  for (int i = 0; i < 4; i++) r[i] = t[i];
  return 0;
}

/* Counts the leading zero bits of a nonzero 32-bit word. */
NUMERIC_FN int numeric__nlz32(uint32_t x) {
  int n = 0;
  while (!(x & 0x80000000u)) {
    x <<= 1;
    n++;
  }
  return n;
}

/* q = n / d, r = n % d for 256-bit n and d, d != 0: Knuth's algorithm D
** on 32-bit digits with 64-bit arithmetic (Hacker's Delight, divmnu). */
NUMERIC_FN void numeric__udivmod(const uint64_t *n, const uint64_t *d, uint64_t *q, uint64_t *r) {
  uint32_t u[8], v[8], un[9], vn[8], aq[8];
  int m = 8, nd = 8, s;
  for (int i = 0; i < 4; i++) {
    u[2 * i] = (uint32_t)n[i];
    u[2 * i + 1] = (uint32_t)(n[i] >> 32);
    v[2 * i] = (uint32_t)d[i];
    v[2 * i + 1] = (uint32_t)(d[i] >> 32);
  }
  while (m > 0 && u[m - 1] == 0) m--;
  while (nd > 0 && v[nd - 1] == 0) nd--;
  for (int i = 0; i < 8; i++) aq[i] = 0;
  for (int i = 0; i < 4; i++) q[i] = r[i] = 0;
  if (m < nd) {                       /* n < d */
    for (int i = 0; i < 4; i++) r[i] = n[i];
    return;
  }
  if (nd == 1) {
    uint64_t k = 0;
    for (int j = m - 1; j >= 0; j--) {
      uint64_t t = (k << 32) | u[j];
      aq[j] = (uint32_t)(t / v[0]);
      k = t - (uint64_t)aq[j] * v[0];
    }
    r[0] = k;
  } else {
    s = numeric__nlz32(v[nd - 1]);
    for (int i = nd - 1; i > 0; i--) {
      vn[i] = (v[i] << s) | (uint32_t)((uint64_t)v[i - 1] >> (32 - s));
    }
    vn[0] = v[0] << s;
    un[m] = (uint32_t)((uint64_t)u[m - 1] >> (32 - s));
    for (int i = m - 1; i > 0; i--) {
      un[i] = (u[i] << s) | (uint32_t)((uint64_t)u[i - 1] >> (32 - s));
    }
    un[0] = u[0] << s;
    for (int j = m - nd; j >= 0; j--) {
      uint64_t num = ((uint64_t)un[j + nd] << 32) | un[j + nd - 1];
      uint64_t qhat = num / vn[nd - 1];
      uint64_t rhat = num - qhat * vn[nd - 1];
      int64_t t;
      uint64_t k = 0;
      while (qhat >= 0x100000000ull ||
             qhat * vn[nd - 2] > ((rhat << 32) | un[j + nd - 2])) {
        qhat--;
        rhat += vn[nd - 1];
        if (rhat >= 0x100000000ull) break;
      }
      for (int i = 0; i < nd; i++) {
        uint64_t p = qhat * vn[i];
        t = (int64_t)un[i + j] - (int64_t)k - (int64_t)(p & 0xffffffffu);
        un[i + j] = (uint32_t)t;
        k = (p >> 32) - (uint64_t)(t >> 32);
      }
      t = (int64_t)un[j + nd] - (int64_t)k;
      un[j + nd] = (uint32_t)t;
      aq[j] = (uint32_t)qhat;
      if (t < 0) {                    /* qhat was one too large: add back */
        aq[j]--;
        k = 0;
        for (int i = 0; i < nd; i++) {
          uint64_t w = (uint64_t)un[i + j] + vn[i] + k;
          un[i + j] = (uint32_t)w;
          k = w >> 32;
        }
        un[j + nd] += (uint32_t)k;
      }
    }
    for (int i = 0; i < nd; i++) {
      uint32_t w = (un[i] >> s) | (uint32_t)((uint64_t)un[i + 1] << (32 - s));
      r[i / 2] |= (uint64_t)w << (32 * (i % 2));
    }
  }
  for (int i = 0; i < 8; i++) q[i / 2] |= (uint64_t)aq[i] << (32 * (i % 2));
}

/* Returns the number of decimal digits of a coefficient's magnitude
** (below 10^38; 0 for zero). */
NUMERIC_FN int numeric__udigits(const uint64_t *a) {
  int lo = 0, hi = 38;
  /* The smallest k with a < 10^k, by bisection over the table. */
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (numeric__ucmp(a, numeric__aPow10[mid], 2) < 0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/* ---- values ------------------------------------------------------------- */

NUMERIC_FN numeric numeric_special(int eKind) {
  numeric r = {0, 0, 0, eKind};
  return r;
}

/* Sets m to |a|'s coefficient (256 bits) and returns 1 if a < 0. */
NUMERIC_FN int numeric__mag(const numeric *a, uint64_t *m) {
  int bNeg = (a->hi >> 63) != 0;
  m[0] = a->lo;
  m[1] = a->hi;
  m[2] = m[3] = 0;
  if (bNeg) {
    m[0] = ~m[0] + 1;
    m[1] = ~m[1] + (m[0] == 0);
  }
  return bNeg;
}

/* Stores magnitude m with a sign and scale in *r. Returns NUMERIC_OK, or
** NUMERIC_E_OVERFLOW if m has more than 38 digits or the scale is
** beyond NUMERIC_SCALE_MAX. */
NUMERIC_FN int numeric__make(numeric *r, const uint64_t *m, int bNeg, int32_t scale) {
  if (m[3] | m[2] || numeric__ucmp(m, numeric__aPow10[38], 2) >= 0) return NUMERIC_E_OVERFLOW;
  if (scale < 0 || scale > NUMERIC_SCALE_MAX) return NUMERIC_E_OVERFLOW;
  r->lo = m[0];
  r->hi = m[1];
  if (bNeg && (m[0] | m[1])) {
    r->lo = ~m[0] + 1;
    r->hi = ~m[1] + (r->lo == 0);
  }
  r->scale = scale;
  r->eKind = NUMERIC_FINITE;
  return NUMERIC_OK;
}

NUMERIC_FN int numeric__is_zero(const numeric *a) {
  return a->eKind == NUMERIC_FINITE && (a->lo | a->hi) == 0;
}

/* Returns -1, 0 or 1: the sign of a (NaN: 0, as it is compared apart). */
NUMERIC_FN int numeric_sign(const numeric *a) {
  if (a->eKind == NUMERIC_PINF) return 1;
  if (a->eKind == NUMERIC_NINF) return -1;
  if (a->eKind == NUMERIC_NAN || (a->lo | a->hi) == 0) return 0;
  return (a->hi >> 63) ? -1 : 1;
}

NUMERIC_FN numeric numeric_from_int64(int64_t v) {
  numeric r;
  r.lo = (uint64_t)v;
  r.hi = v < 0 ? ~0ull : 0;
  r.scale = 0;
  r.eKind = NUMERIC_FINITE;
  return r;
}

/* Sets m to |a| * 10^(scale - a->scale) (scale >= a's). Returns 1 if that
** does not fit in 256 bits. */
NUMERIC_FN int numeric__mag_at(const numeric *a, int32_t scale, uint64_t *m, int *pbNeg) {
  *pbNeg = numeric__mag(a, m);
  if ((m[0] | m[1]) == 0) return 0;
  if (scale - a->scale > 77) return 1;
  return numeric__umul_pow10(m, scale - a->scale, m);
}

/* ---- comparison ---------------------------------------------------------- */

/* Returns -1, 0 or 1 as a <=> b in PostgreSQL's order: -Infinity, the
** finite values, +Infinity, then NaN (equal to itself). Scales do not
** matter: 1.50 = 1.5. */
NUMERIC_FN int numeric_cmp(const numeric *a, const numeric *b) {
  static const int aRank[4] = {1, 3, 2, 0};  /* FINITE, NAN, PINF, NINF */
  uint64_t ma[4], mb[4];
  int bNegA, bNegB, iScale, c, bBigA, bBigB;
  if (a->eKind != NUMERIC_FINITE || b->eKind != NUMERIC_FINITE) {
    int ra = aRank[a->eKind], rb = aRank[b->eKind];
    return ra < rb ? -1 : ra > rb;
  }
  if (numeric_sign(a) != numeric_sign(b)) return numeric_sign(a) < numeric_sign(b) ? -1 : 1;
  iScale = a->scale > b->scale ? a->scale : b->scale;
  bBigA = numeric__mag_at(a, iScale, ma, &bNegA);
  bBigB = numeric__mag_at(b, iScale, mb, &bNegB);
  /* A magnitude past 256 bits after rescaling is larger than any other. */
  if (bBigA || bBigB) c = bBigA ? 1 : -1;
  else c = numeric__ucmp(ma, mb, 4);
  return bNegA ? -c : c;
}

/* ---- addition and subtraction -------------------------------------------- */

/* r = a + (bNegate ? -b : b) for finite a and b, at the larger scale. */
NUMERIC_FN int numeric__addsub(const numeric *a, const numeric *b, int bNegate, numeric *r) {
  int32_t iScale = a->scale > b->scale ? a->scale : b->scale;
  uint64_t ma[4], mb[4], m[4];
  int bNegA, bNegB, bNeg;
  if (numeric__mag_at(a, iScale, ma, &bNegA) || numeric__mag_at(b, iScale, mb, &bNegB)) {
    return NUMERIC_E_OVERFLOW;
  }
  bNegB ^= bNegate;
  if (bNegA == bNegB) {
    if (numeric__uadd(ma, mb, m, 4)) return NUMERIC_E_OVERFLOW;
    bNeg = bNegA;
  } else if (numeric__ucmp(ma, mb, 4) >= 0) {
    numeric__usub(ma, mb, m, 4);
    bNeg = bNegA;
  } else {
    numeric__usub(mb, ma, m, 4);
    bNeg = bNegB;
  }
  return numeric__make(r, m, bNeg, iScale);
}

/* The special cases of a + b (bNegate: a - b) when either is not finite. */
NUMERIC_FN int numeric__addsub_special(const numeric *a, const numeric *b, int bNegate,
                                       numeric *r) {
  int ka = a->eKind, kb = b->eKind;
  if (bNegate && kb == NUMERIC_PINF) kb = NUMERIC_NINF;
  else if (bNegate && kb == NUMERIC_NINF) kb = NUMERIC_PINF;
  if (ka == NUMERIC_NAN || kb == NUMERIC_NAN) *r = numeric_special(NUMERIC_NAN);
  else if (ka != NUMERIC_FINITE && kb != NUMERIC_FINITE && ka != kb) *r = numeric_special(NUMERIC_NAN);
  else *r = numeric_special(ka != NUMERIC_FINITE ? ka : kb);
  return NUMERIC_OK;
}

NUMERIC_FN int numeric_add(const numeric *a, const numeric *b, numeric *r) {
  if (a->eKind != NUMERIC_FINITE || b->eKind != NUMERIC_FINITE) {
    return numeric__addsub_special(a, b, 0, r);
  }
  return numeric__addsub(a, b, 0, r);
}

NUMERIC_FN int numeric_sub(const numeric *a, const numeric *b, numeric *r) {
  if (a->eKind != NUMERIC_FINITE || b->eKind != NUMERIC_FINITE) {
    return numeric__addsub_special(a, b, 1, r);
  }
  return numeric__addsub(a, b, 1, r);
}

/* ---- multiplication ------------------------------------------------------ */

/* The kind of a * b or a / b when either is not finite and neither is
** NaN: an infinity with the product's sign. */
NUMERIC_FN int numeric__inf_signed(int iSign) {
  return iSign < 0 ? NUMERIC_NINF : NUMERIC_PINF;
}

/* r = a * b, exact, at scale a->scale + b->scale. */
NUMERIC_FN int numeric_mul(const numeric *a, const numeric *b, numeric *r) {
  uint64_t ma[4], mb[4], m[4];
  int bNegA, bNegB;
  if (a->eKind != NUMERIC_FINITE || b->eKind != NUMERIC_FINITE) {
    if (a->eKind == NUMERIC_NAN || b->eKind == NUMERIC_NAN ||
        numeric_sign(a) == 0 || numeric_sign(b) == 0) {
      *r = numeric_special(NUMERIC_NAN);     /* NaN, or Inf * 0 */
    } else {
      *r = numeric_special(numeric__inf_signed(numeric_sign(a) * numeric_sign(b)));
    }
    return NUMERIC_OK;
  }
  bNegA = numeric__mag(a, ma);
  bNegB = numeric__mag(b, mb);
  numeric__umul256(ma, mb, m);               /* 128 x 128 bits: always fits */
  return numeric__make(r, m, bNegA != bNegB, a->scale + b->scale);
}

/* ---- division ------------------------------------------------------------ */

/* The weight and first digit of |a| in PostgreSQL's base-10000 form (the
** point on a digit boundary): |a| = d * 10000^w + less, 1 <= d <= 9999.
** Zero gives w = 0, d = 0. */
NUMERIC_FN void numeric__nbase_lead(const numeric *a, int *pWeight, int *pDigit) {
  uint64_t m[4], q[4], rem[4], p[4] = {0, 0, 0, 0};
  int nDigit, e, w, k;
  numeric__mag(a, m);
  nDigit = numeric__udigits(m);
  if (nDigit == 0) {
    *pWeight = 0;
    *pDigit = 0;
    return;
  }
  e = nDigit - 1 - a->scale;                 /* 10^e <= |a| < 10^(e+1) */
  w = e >= 0 ? e / 4 : -((-e + 3) / 4);      /* floor(e / 4) */
  k = a->scale + 4 * w;                      /* d = floor(|m| / 10^k) */
  if (k <= 0) {
    numeric__umul_pow10(m, -k, m);           /* at most 3 digits more: fits */
    *pDigit = (int)m[0];
  } else {
    p[0] = numeric__aPow10[k][0];
    p[1] = numeric__aPow10[k][1];
    numeric__udivmod(m, p, q, rem);
    *pDigit = (int)q[0];
  }
  *pWeight = w;
}

/* PostgreSQL's select_div_scale(): the scale of a / b. At least 16
** significant digits (as float8 has), at least either input's scale,
** at most 1000. */
NUMERIC_FN int32_t numeric_div_scale(const numeric *a, const numeric *b) {
  int w1, d1, w2, d2, qweight;
  int32_t iScale;
  numeric__nbase_lead(a, &w1, &d1);
  numeric__nbase_lead(b, &w2, &d2);
  qweight = w1 - w2;
  if (d1 <= d2) qweight--;
  iScale = NUMERIC_MIN_SIG_DIGITS - qweight * 4;
  if (iScale < a->scale) iScale = a->scale;
  if (iScale < b->scale) iScale = b->scale;
  if (iScale < 0) iScale = 0;
  if (iScale > NUMERIC_DIV_SCALE_MAX) iScale = NUMERIC_DIV_SCALE_MAX;
  return iScale;
}

/* r = a / b at scale iScale (>= a->scale), rounded half away from zero
** (bRound) or truncated. Both finite, b not zero. */
NUMERIC_FN int numeric__div_at(const numeric *a, const numeric *b, int32_t iScale, int bRound,
                               numeric *r) {
  uint64_t ma[4], mb[4], q[4], rem[4];
  int bNegA = numeric__mag(a, ma), bNegB = numeric__mag(b, mb);
  int k = iScale + b->scale - a->scale;      /* |a| * 10^k / |b| */
  int nA = numeric__udigits(ma), nB = numeric__udigits(mb);
  if (nA == 0) {
    uint64_t z[4] = {0, 0, 0, 0};
    return numeric__make(r, z, 0, iScale);
  }
  /* |q| >= 10^(nA - 1 + k - nB): past 38 digits, it overflows; otherwise
  ** the dividend is below 10^76 and fits. */
  if (nA - 1 + k - nB >= NUMERIC_MAX_DIGITS) return NUMERIC_E_OVERFLOW;
  if (k < -38) {
    ma[0] = ma[1] = 0;                       /* |a| < 10^38 <= 10^-k: q = 0 */
  } else if (k < 0) {
    /* Only a truncating division at a scale below a's: drop digits of a
    ** first (exact for truncation: floor(floor(x/10^j)/y) = floor(x/(10^j y))). */
    uint64_t p[4] = {numeric__aPow10[-k][0], numeric__aPow10[-k][1], 0, 0};
    numeric__udivmod(ma, p, ma, rem);
  } else if (numeric__umul_pow10(ma, k, ma)) {
    return NUMERIC_E_OVERFLOW;
  }
  numeric__udivmod(ma, mb, q, rem);
  if (bRound) {
    uint64_t twice[4];
    numeric__uadd(rem, rem, twice, 4);       /* rem < |b| < 2^127 */
    if (numeric__ucmp(twice, mb, 4) >= 0) {
      uint64_t one[4] = {1, 0, 0, 0};
      numeric__uadd(q, one, q, 4);
    }
  }
  return numeric__make(r, q, bNegA != bNegB, iScale);
}

/* r = a / b at PostgreSQL's scale (numeric_div_scale), rounded half away
** from zero. NUMERIC_E_DIV_ZERO when b is zero. */
NUMERIC_FN int numeric_div(const numeric *a, const numeric *b, numeric *r) {
  if (a->eKind != NUMERIC_FINITE || b->eKind != NUMERIC_FINITE) {
    if (a->eKind == NUMERIC_NAN || b->eKind == NUMERIC_NAN) {
      *r = numeric_special(NUMERIC_NAN);
    } else if (a->eKind != NUMERIC_FINITE) {
      if (b->eKind != NUMERIC_FINITE) *r = numeric_special(NUMERIC_NAN);   /* Inf / Inf */
      else if (numeric_sign(b) == 0) return NUMERIC_E_DIV_ZERO;
      else *r = numeric_special(numeric__inf_signed(numeric_sign(a) * numeric_sign(b)));
    } else {
      *r = numeric_from_int64(0);                                         /* x / Inf */
    }
    return NUMERIC_OK;
  }
  if (numeric__is_zero(b)) return NUMERIC_E_DIV_ZERO;
  return numeric__div_at(a, b, numeric_div_scale(a, b), 1, r);
}

/* r = trunc(a / b), scale 0: PostgreSQL's div(). */
NUMERIC_FN int numeric_div_trunc(const numeric *a, const numeric *b, numeric *r) {
  if (a->eKind != NUMERIC_FINITE || b->eKind != NUMERIC_FINITE) {
    if (b->eKind == NUMERIC_FINITE && numeric_sign(b) == 0 && a->eKind != NUMERIC_NAN) {
      return NUMERIC_E_DIV_ZERO;
    }
    return numeric_div(a, b, r);
  }
  if (numeric__is_zero(b)) return NUMERIC_E_DIV_ZERO;
  return numeric__div_at(a, b, 0, 0, r);
}

/* r = a - trunc(a / b) * b: the dividend's sign, the larger scale. */
NUMERIC_FN int numeric_mod(const numeric *a, const numeric *b, numeric *r) {
  uint64_t ma[4], mb[4], q[4], rem[4];
  int32_t iScale;
  int bNegA, bNegB;
  if (a->eKind != NUMERIC_FINITE || b->eKind != NUMERIC_FINITE) {
    if (a->eKind == NUMERIC_NAN || b->eKind == NUMERIC_NAN) *r = numeric_special(NUMERIC_NAN);
    else if (a->eKind != NUMERIC_FINITE && numeric_sign(b) == 0) return NUMERIC_E_DIV_ZERO;
    else if (a->eKind != NUMERIC_FINITE) *r = numeric_special(NUMERIC_NAN);  /* Inf % x */
    else *r = *a;                                                          /* x % Inf */
    return NUMERIC_OK;
  }
  if (numeric__is_zero(b)) return NUMERIC_E_DIV_ZERO;
  iScale = a->scale > b->scale ? a->scale : b->scale;
  if (numeric__mag_at(a, iScale, ma, &bNegA) || numeric__mag_at(b, iScale, mb, &bNegB)) {
    return NUMERIC_E_OVERFLOW;
  }
  numeric__udivmod(ma, mb, q, rem);
  return numeric__make(r, rem, bNegA, iScale);
}

/* ---- rounding ------------------------------------------------------------ */

enum { NUMERIC__ROUND_HALF = 0, NUMERIC__ROUND_TRUNC = 1, NUMERIC__ROUND_CEIL = 2,
       NUMERIC__ROUND_FLOOR = 3 };

/* r = a with its digits past position n (n < 0: left of the point)
** dropped by mode eMode, at scale iScale (max(n, 0) for round and trunc,
** 0 for ceil and floor). */
NUMERIC_FN int numeric__round_mode(const numeric *a, int n, int eMode, int32_t iScale,
                                   numeric *r) {
  uint64_t m[4], q[4], rem[4], p[4] = {0, 0, 0, 0};
  int bNeg, j = a->scale - n, bUp = 0;
  if (a->eKind != NUMERIC_FINITE) {
    *r = *a;
    return NUMERIC_OK;
  }
  bNeg = numeric__mag(a, m);
  if (j <= 0) {                             /* nothing to drop: more zeros */
    if (numeric__umul_pow10(m, iScale - a->scale, m)) return NUMERIC_E_OVERFLOW;
    return numeric__make(r, m, bNeg, iScale);
  }
  if (j > 38) {                             /* every digit dropped */
    int bAny = (m[0] | m[1]) != 0;
    q[0] = q[1] = q[2] = q[3] = 0;
    bUp = bAny && ((eMode == NUMERIC__ROUND_CEIL && !bNeg) ||
                   (eMode == NUMERIC__ROUND_FLOOR && bNeg));
  } else {
    p[0] = numeric__aPow10[j][0];
    p[1] = numeric__aPow10[j][1];
    numeric__udivmod(m, p, q, rem);
    if (eMode == NUMERIC__ROUND_HALF) {
      uint64_t twice[4];
      numeric__uadd(rem, rem, twice, 4);
      bUp = numeric__ucmp(twice, p, 4) >= 0;
    } else if ((rem[0] | rem[1]) != 0) {
      bUp = (eMode == NUMERIC__ROUND_CEIL && !bNeg) || (eMode == NUMERIC__ROUND_FLOOR && bNeg);
    }
  }
  if (bUp) {
    uint64_t one[4] = {1, 0, 0, 0};
    numeric__uadd(q, one, q, 4);
  }
  /* q is the value in units of 10^-n; at scale iScale that is q * 10^(iScale - n). */
  if (numeric__umul_pow10(q, iScale - n, q)) return NUMERIC_E_OVERFLOW;
  return numeric__make(r, q, bNeg, iScale);
}

/* Clamps round()'s and trunc()'s n as PostgreSQL does. */
NUMERIC_FN int numeric__round_n(int n) {
  if (n > NUMERIC_ROUND_SCALE_MAX) return NUMERIC_ROUND_SCALE_MAX;
  if (n < -NUMERIC_ROUND_SCALE_MAX) return -NUMERIC_ROUND_SCALE_MAX;
  return n;
}

NUMERIC_FN int numeric_round(const numeric *a, int n, numeric *r) {
  n = numeric__round_n(n);
  return numeric__round_mode(a, n, NUMERIC__ROUND_HALF, n > 0 ? n : 0, r);
}

NUMERIC_FN int numeric_trunc(const numeric *a, int n, numeric *r) {
  n = numeric__round_n(n);
  return numeric__round_mode(a, n, NUMERIC__ROUND_TRUNC, n > 0 ? n : 0, r);
}

NUMERIC_FN int numeric_ceil(const numeric *a, numeric *r) {
  return numeric__round_mode(a, 0, NUMERIC__ROUND_CEIL, 0, r);
}

NUMERIC_FN int numeric_floor(const numeric *a, numeric *r) {
  return numeric__round_mode(a, 0, NUMERIC__ROUND_FLOOR, 0, r);
}

NUMERIC_FN numeric numeric_neg(const numeric *a) {
  numeric r = *a;
  if (a->eKind == NUMERIC_PINF) r.eKind = NUMERIC_NINF;
  else if (a->eKind == NUMERIC_NINF) r.eKind = NUMERIC_PINF;
  else if (a->eKind == NUMERIC_FINITE) {
    r.lo = ~a->lo + 1;
    r.hi = ~a->hi + (r.lo == 0);
  }
  return r;
}

NUMERIC_FN numeric numeric_abs(const numeric *a) {
  if (numeric_sign(a) < 0) return numeric_neg(a);
  return *a;
}

/* ---- conversions ---------------------------------------------------------- */

/* Sets *pv to a rounded half away from zero to an integer, if it lies in
** lo..hi. Returns NUMERIC_OK, NUMERIC_E_INT_RANGE, or for NaN and the
** infinities NUMERIC_E_INT_NAN / NUMERIC_E_INT_INF. */
NUMERIC_FN int numeric_to_int64(const numeric *a, int64_t lo, int64_t hi, int64_t *pv) {
  numeric t;
  uint64_t m[4];
  int bNeg;
  if (a->eKind == NUMERIC_NAN) return NUMERIC_E_INT_NAN;
  if (a->eKind != NUMERIC_FINITE) return NUMERIC_E_INT_INF;
  if (numeric_round(a, 0, &t) != NUMERIC_OK) return NUMERIC_E_INT_RANGE;
  bNeg = numeric__mag(&t, m);
  if (m[1] != 0) return NUMERIC_E_INT_RANGE;
  if (bNeg ? m[0] > (uint64_t)(-(lo + 1)) + 1 : m[0] > (uint64_t)hi) return NUMERIC_E_INT_RANGE;
  *pv = bNeg ? (int64_t)(0 - m[0]) : (int64_t)m[0];
  return NUMERIC_OK;
}

/* Coerces a to NUMERIC(nPrecision, nScale) as PostgreSQL's apply_typmod
** does: rounded half away from zero to nScale digits (scale nScale), then
** NUMERIC_E_FIELD_OVERFLOW if more than nPrecision - nScale digits are
** left of the point; an infinity is NUMERIC_E_FIELD_INFINITE, NaN passes.
** 1 <= nPrecision <= 38, 0 <= nScale <= nPrecision. */
NUMERIC_FN int numeric_typmod_apply(const numeric *a, int nPrecision, int nScale, numeric *r) {
  uint64_t m[4], lim[4] = {0, 0, 0, 0};
  int rc;
  if (a->eKind == NUMERIC_NAN) {
    *r = *a;
    return NUMERIC_OK;
  }
  if (a->eKind != NUMERIC_FINITE) return NUMERIC_E_FIELD_INFINITE;
  rc = numeric_round(a, nScale, r);
  if (rc != NUMERIC_OK) return NUMERIC_E_FIELD_OVERFLOW;
  numeric__mag(r, m);
  lim[0] = numeric__aPow10[nPrecision][0];
  lim[1] = numeric__aPow10[nPrecision][1];
  return numeric__ucmp(m, lim, 4) < 0 ? NUMERIC_OK : NUMERIC_E_FIELD_OVERFLOW;
}

/* ---- the host (numeric.c) ------------------------------------------------ */

#ifndef NUMERIC_DEVICE
#include <stddef.h>

#include "sqlerr.h"

/* Parses z[0..n) as PostgreSQL's numeric_in: blanks, [sign] digits [.
** digits] [e [sign] digits], blanks; or NaN, Infinity, -Infinity, inf
** (any case). The scale is the digits after the point less the exponent
** (not below 0). Returns 0, or -1 with pErr: 22P02 invalid input syntax
** for type numeric: "z", or 22003 value overflows numeric format past 38
** digits. */
int numeric_parse(const char *z, size_t n, numeric *pOut, sql_error *pErr);

/* Writes a as PostgreSQL prints it: digits, the point and exactly scale
** digits after it; "NaN", "Infinity", "-Infinity". Returns the length
** written (z must hold NUMERIC_TEXT_MAX bytes when the scale is at most
** 38; longer scales need 48 + scale). */
#define NUMERIC_TEXT_MAX 96
int numeric_format(const numeric *a, char *z, size_t nz);

/* PostgreSQL's float8 -> numeric: the double's 15 significant digits
** (DBL_DIG, "%.15g") read back; NaN and the infinities map to theirs. */
int numeric_from_double(double d, numeric *pOut, sql_error *pErr);

/* numeric -> float8: the double nearest the exact value (PostgreSQL goes
** through the text and strtod, which rounds correctly). */
double numeric_to_double(const numeric *a);

/* r = the square root of a (finite, >= 0) rounded half away from zero to
** rscale digits after the point (scale rscale), as PostgreSQL's sqrt_var
** rounds. Returns NUMERIC_OK, or NUMERIC_E_OVERFLOW past 38 digits (or a
** 256-bit intermediate). */
int numeric_sqrt(const numeric *a, int rscale, numeric *r);

/* Records rc (not NUMERIC_OK) as PostgreSQL's error in pErr (its
** primary message; NUMERIC_E_FIELD_* have a detail in PostgreSQL, which
** says the typmod). zIntType names the integer type for NUMERIC_E_INT_*
** ("bigint", "integer", "smallint"). */
void numeric_error(int rc, const char *zIntType, sql_error *pErr);
#endif

#endif /* STARQ_NUMERIC_H */
