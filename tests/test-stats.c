/*
** tests/test-stats.c — per-column statistics (storage/stats.c): counts,
** NULLs and min/max at each type's width, NaN and -0.0, the HyperLogLog
** estimate, merging, and exact distinct counts of dictionary columns.
*/
#include <math.h>

#include "../storage/stats.h"
#include "test.h"

static coltype stats_test_type(coltype_id e) {
  coltype t;
  memset(&t, 0, sizeof(t));
  t.eId = e;
  if (e == COLTYPE_DECIMAL) {
    t.nPrecision = 18;
    t.nScale = 2;
  } else if (e == COLTYPE_VARCHAR || e == COLTYPE_CHAR) {
    t.nLength = 25;
  }
  return t;
}

/* Sets bit i of a bitmap: row i present. */
static void stats_test_set(uint64_t *aValid, uint64_t i) {
  aValid[i / 64] |= 1ull << (i % 64);
}

TEST_IMPL(stats_numeric) {
  /* Each width once; the NULL row (row 2) holds the most extreme value, so
  ** a NULL read as a value would show in min or max. Neighbouring bytes
  ** beyond the width would show if a narrow type were read too wide. */
  int16_t a16[5] = {-7, 32767, -32768, 5, -32767};
  int32_t a32[5] = {19920101, 19981231, 0, 19940615, -5};
  int64_t a64[5] = {INT64_MIN + 1, 3, INT64_MIN, INT64_MAX, 0};
  uint64_t aValid[1] = {0};
  col_stats s;

  for (uint64_t i = 0; i < 5; i++) {
    if (i != 2) stats_test_set(aValid, i);
  }

  ASSERT_EQ(stats_init(&s, stats_test_type(COLTYPE_SMALLINT)), 0);
  ASSERT(s.aHll != NULL);
  ASSERT_EQ(s.bMinMax, 0);
  stats_add_values(&s, a16, aValid, 5);
  ASSERT_EQ(s.nRow, 5);
  ASSERT_EQ(s.nNull, 1);
  ASSERT_EQ(s.bMinMax, 1);
  ASSERT_EQ(s.min.i, -32767);
  ASSERT_EQ(s.max.i, 32767);
  stats_finish(&s);
  ASSERT_EQ(s.nDistinct, 4);
  ASSERT_EQ(s.bExact, 0);
  stats_free(&s);

  ASSERT_EQ(stats_init(&s, stats_test_type(COLTYPE_INTEGER)), 0);
  stats_add_values(&s, a32, aValid, 5);
  ASSERT_EQ(s.min.i, -5);
  ASSERT_EQ(s.max.i, 19981231);
  ASSERT_EQ(s.nNull, 1);
  stats_free(&s);

  ASSERT_EQ(stats_init(&s, stats_test_type(COLTYPE_DATE)), 0);
  stats_add_values(&s, a32, NULL, 4);       /* no bitmap: row 2 counts */
  ASSERT_EQ(s.nNull, 0);
  ASSERT_EQ(s.nRow, 4);
  ASSERT_EQ(s.min.i, 0);
  ASSERT_EQ(s.max.i, 19981231);
  stats_finish(&s);
  ASSERT_EQ(s.nDistinct, 4);
  stats_free(&s);

  ASSERT_EQ(stats_init(&s, stats_test_type(COLTYPE_BIGINT)), 0);
  stats_add_values(&s, a64, aValid, 5);
  ASSERT_EQ(s.min.i, INT64_MIN + 1);
  ASSERT_EQ(s.max.i, INT64_MAX);
  stats_free(&s);

  ASSERT_EQ(stats_init(&s, stats_test_type(COLTYPE_DECIMAL)), 0);
  stats_add_values(&s, a64 + 1, NULL, 2);   /* 3 and INT64_MIN */
  ASSERT_EQ(s.min.i, INT64_MIN);
  ASSERT_EQ(s.max.i, 3);
  /* A second batch widens min/max; an all-NULL batch changes only counts. */
  {
    int64_t aMore[3] = {100, -100, 7};
    uint64_t aNone[1] = {0};
    stats_add_values(&s, aMore, NULL, 3);
    ASSERT_EQ(s.max.i, 100);
    ASSERT_EQ(s.min.i, INT64_MIN);
    stats_add_values(&s, aMore, aNone, 3);
    ASSERT_EQ(s.nRow, 8);
    ASSERT_EQ(s.nNull, 3);
    ASSERT_EQ(s.max.i, 100);
  }
  stats_finish(&s);
  ASSERT_EQ(s.nDistinct, 5);
  stats_free(&s);

  /* Only NULLs: no min/max, no distinct values. */
  {
    uint64_t aNone[2] = {0, 0};
    ASSERT_EQ(stats_init(&s, stats_test_type(COLTYPE_INTEGER)), 0);
    stats_add_values(&s, a32, aNone, 5);
    ASSERT_EQ(s.nRow, 5);
    ASSERT_EQ(s.nNull, 5);
    ASSERT_EQ(s.bMinMax, 0);
    stats_finish(&s);
    ASSERT_EQ(s.nDistinct, 0);
    stats_free(&s);
  }
  return 0;
}

TEST_IMPL(stats_double) {
  double a[8] = {1.5, NAN, -0.0, 0.0, -INFINITY, -NAN, 2.25, -3.0};
  uint64_t aValid[1] = {0xffu & ~(1u << 7)};    /* row 7 (-3.0) NULL */
  col_stats s;

  ASSERT_EQ(stats_init(&s, stats_test_type(COLTYPE_DOUBLE)), 0);
  stats_add_values(&s, a, aValid, 8);
  ASSERT_EQ(s.nRow, 8);
  ASSERT_EQ(s.nNull, 1);
  ASSERT_EQ(s.bMinMax, 1);
  ASSERT(s.min.r == -INFINITY);
  ASSERT(s.max.r == 2.25);
  /* Distinct: 1.5, NaN (both), 0.0 (both zeros), -inf, 2.25. */
  stats_finish(&s);
  ASSERT_EQ(s.nDistinct, 5);
  stats_free(&s);

  /* NaN first, then numbers: NaN neither starts nor ends the range. */
  {
    double b[3] = {NAN, 4.0, 8.0};
    ASSERT_EQ(stats_init(&s, stats_test_type(COLTYPE_DOUBLE)), 0);
    stats_add_values(&s, b, NULL, 3);
    ASSERT(s.min.r == 4.0);
    ASSERT(s.max.r == 8.0);
    stats_free(&s);
  }

  /* Only NaNs: values, but no range. */
  {
    double b[2] = {NAN, NAN};
    ASSERT_EQ(stats_init(&s, stats_test_type(COLTYPE_DOUBLE)), 0);
    stats_add_values(&s, b, NULL, 2);
    ASSERT_EQ(s.nRow, 2);
    ASSERT_EQ(s.nNull, 0);
    ASSERT_EQ(s.bMinMax, 0);
    stats_finish(&s);
    ASSERT_EQ(s.nDistinct, 1);
    stats_free(&s);
  }

  /* -0.0 and 0.0 are one distinct value whichever comes first. */
  {
    double b[4] = {-0.0, 0.0, 0.0, -0.0};
    ASSERT_EQ(stats_init(&s, stats_test_type(COLTYPE_DOUBLE)), 0);
    stats_add_values(&s, b, NULL, 4);
    ASSERT(s.min.r == 0.0 && s.max.r == 0.0);
    stats_finish(&s);
    ASSERT_EQ(s.nDistinct, 1);
    stats_free(&s);
  }
  return 0;
}

/* Returns the estimate of n distinct BIGINT values v0, v0 + step, ...,
** each added nRepeat times, in batches of 4096; *pRaw gets the sketch's
** estimate before stats_finish() rounds and caps it. */
static int64_t stats_test_estimate(int64_t n, int64_t v0, int64_t step, int nRepeat,
                                   double *pRaw) {
  int64_t *a = malloc(4096 * sizeof(int64_t));
  col_stats s;
  int64_t nDistinct;

  ASSERT(a != NULL);
  ASSERT_EQ(stats_init(&s, stats_test_type(COLTYPE_BIGINT)), 0);
  for (int r = 0; r < nRepeat; r++) {
    for (int64_t i = 0; i < n; i += 4096) {
      int64_t m = n - i < 4096 ? n - i : 4096;
      for (int64_t k = 0; k < m; k++) a[k] = v0 + (i + k) * step;
      stats_add_values(&s, a, NULL, (uint64_t)m);
    }
  }
  ASSERT_EQ(s.nRow, n * nRepeat);
  *pRaw = stats_hll_estimate(s.aHll);
  stats_finish(&s);
  nDistinct = s.nDistinct;
  stats_free(&s);
  free(a);
  return nDistinct;
}

TEST_IMPL(stats_hll) {
  static const int64_t anLarge[] = {1000, 20000, 100000, 1000000};
  int64_t nMaxErrSmall = 0;
  double raw;

  /* Large counts. The sketch's standard error is 1.04 / sqrt(16384) =
  ** 0.81%, so one estimate is within 2% only about 99% of the time: each
  ** of three key sets (dense, sparse, descending) must be within 3% (3.7
  ** standard errors), and their mean within 2%. The hash is fixed, so these
  ** inputs always give the same estimates (printed below). */
  for (size_t k = 0; k < sizeof(anLarge) / sizeof(anLarge[0]); k++) {
    static const int64_t aKey[3][2] = {{1, 1}, {-1000000007, 7919}, {1ll << 40, -3}};
    int64_t n = anLarge[k];
    double sumErr = 0.0;
    for (int j = 0; j < 3; j++) {
      int64_t e = stats_test_estimate(n, aKey[j][0], aKey[j][1], 1, &raw);
      double err = (raw - (double)n) / (double)n;
      fprintf(stderr, "n=%" PRId64 " keys %d: estimate %.0f (%+.2f%%), nDistinct %" PRId64
              "\n", n, j, raw, 100 * err, e);
      ASSERT_LE(fabs(err), 0.03);
      ASSERT_LE(e, n);                     /* never more than the values */
      ASSERT_LE(llabs(e - n), n * 3 / 100);
      sumErr += err;
    }
    ASSERT_LE(fabs(sumErr / 3), 0.02);
  }

  /* Repeats do not count. */
  ASSERT_LE(llabs(stats_test_estimate(50000, 3, 1, 3, &raw) - 50000), 1000);

  /* Small counts: linear counting is all but exact. Up to 30 values, two
  ** of them sharing a register (likelihood n^2 / 2m, under 3%) can cost
  ** one; up to 200, the error's standard deviation is about 1. */
  for (int64_t n = 1; n <= 200; n++) {
    int64_t e = stats_test_estimate(n, 1, 1, 2, &raw);
    if (llabs(e - n) > nMaxErrSmall) nMaxErrSmall = llabs(e - n);
    ASSERT_LE(e, n);                       /* capped at the value count */
    ASSERT_LE(llabs(e - n), n <= 30 ? 1 : 1 + n / 40);
  }
  fprintf(stderr, "small counts: largest error %" PRId64 "\n", nMaxErrSmall);

  /* The raw pieces: an empty sketch estimates 0; registers keep the max. */
  {
    uint8_t *aHll = calloc(STATS_HLL_SIZE, 1);
    ASSERT(aHll != NULL);
    ASSERT(stats_hll_estimate(aHll) == 0.0);
    /* The top 14 bits pick the register; the rank is 1 + the leading
    ** zeros of the 50 bits after them. */
    stats_hll_add(aHll, 0x0000ffffffffffffull);   /* register 0, "001...": rank 3 */
    ASSERT_EQ(aHll[0], 3);
    stats_hll_add(aHll, 0x0003ffffffffffffull);   /* register 0, "1...": rank 1 */
    ASSERT_EQ(aHll[0], 3);                        /* the larger rank stays */
    stats_hll_add(aHll, 0x0001ffffffffffffull);   /* register 0, "01...": rank 2 */
    ASSERT_EQ(aHll[0], 3);
    stats_hll_add(aHll, 0x00007fffffffffffull);   /* register 0, "0001...": rank 4 */
    ASSERT_EQ(aHll[0], 4);
    ASSERT_EQ(aHll[1], 0);
    stats_hll_add(aHll, 0xfffc000000000000ull);   /* last register, all-zero rest */
    ASSERT_EQ(aHll[STATS_HLL_SIZE - 1], 51);
    ASSERT(fabs(stats_hll_estimate(aHll) - 2.0) < 0.01);
    free(aHll);
  }

  /* The hash: distinct inputs, distinct outputs, bits well spread. */
  {
    uint64_t nOnes = 0;
    ASSERT_NE(stats_hash64(0), 0);
    ASSERT_NE(stats_hash64(0), stats_hash64(1));
    for (uint64_t v = 0; v < 4096; v++) nOnes += (uint64_t)__builtin_popcountll(stats_hash64(v));
    ASSERT_GT(nOnes, 4096 * 30);
    ASSERT_LT(nOnes, 4096 * 34);
  }
  return 0;
}

/* Statistics of rows [i0, i1) of a table whose value at row i is
** (i * 37) % 5000 - 2500, NULL every 11th row. */
static void stats_test_range(col_stats *s, int64_t i0, int64_t i1) {
  int32_t *a = malloc((size_t)(i1 - i0 + 1) * 4);
  uint64_t *aValid = calloc((size_t)(i1 - i0) / 64 + 1, 8);
  ASSERT(a != NULL && aValid != NULL);
  for (int64_t i = i0; i < i1; i++) {
    a[i - i0] = (int32_t)((i * 37) % 5000 - 2500);
    if (i % 11 != 0) stats_test_set(aValid, (uint64_t)(i - i0));
  }
  stats_add_values(s, a, aValid, (uint64_t)(i1 - i0));
  free(a);
  free(aValid);
}

TEST_IMPL(stats_merge) {
  coltype t = stats_test_type(COLTYPE_INTEGER);
  col_stats whole, lo, hi, empty;

  ASSERT_EQ(stats_init(&whole, t), 0);
  ASSERT_EQ(stats_init(&lo, t), 0);
  ASSERT_EQ(stats_init(&hi, t), 0);
  stats_test_range(&whole, 0, 30000);
  stats_test_range(&lo, 0, 12345);
  stats_test_range(&hi, 12345, 30000);
  ASSERT_EQ(stats_merge(&lo, &hi), 0);
  stats_finish(&whole);
  stats_finish(&lo);
  ASSERT_EQ(lo.nRow, whole.nRow);
  ASSERT_EQ(lo.nNull, whole.nNull);
  ASSERT_EQ(whole.nNull, 30000 / 11 + 1);
  ASSERT_EQ(lo.bMinMax, 1);
  ASSERT_EQ(lo.min.i, whole.min.i);
  ASSERT_EQ(lo.max.i, whole.max.i);
  ASSERT_EQ(whole.min.i, -2500);
  ASSERT_EQ(whole.max.i, 2499);
  ASSERT(memcmp(lo.aHll, whole.aHll, STATS_HLL_SIZE) == 0);
  ASSERT_EQ(lo.nDistinct, whole.nDistinct);
  ASSERT_LE(llabs(whole.nDistinct - 5000), 100);

  /* Both empty; then an empty src, then an empty dst. */
  ASSERT_EQ(stats_init(&empty, t), 0);
  {
    col_stats e2;
    ASSERT_EQ(stats_init(&e2, t), 0);
    ASSERT_EQ(stats_merge(&e2, &empty), 0);
    ASSERT_EQ(e2.nRow, 0);
    ASSERT_EQ(e2.bMinMax, 0);
    stats_finish(&e2);
    ASSERT_EQ(e2.nDistinct, 0);
    ASSERT_EQ(stats_merge(&e2, &whole), 0);
    ASSERT_EQ(e2.min.i, -2500);
    ASSERT_EQ(e2.max.i, 2499);
    ASSERT_EQ(e2.bMinMax, 1);
    stats_free(&e2);
  }
  ASSERT_EQ(stats_merge(&whole, &empty), 0);
  ASSERT_EQ(whole.min.i, -2500);
  ASSERT_EQ(whole.nRow, 30000);

  /* Only NULLs on one side: counts add, min/max come from the other. */
  {
    int32_t a[3] = {-99999, 99999, 0};
    uint64_t aNone[1] = {0};
    stats_add_values(&empty, a, aNone, 3);
    ASSERT_EQ(stats_merge(&empty, &lo), 0);
    ASSERT_EQ(empty.nNull, lo.nNull + 3);
    ASSERT_EQ(empty.min.i, -2500);
    ASSERT_EQ(empty.max.i, 2499);
  }

  /* Types must match. */
  {
    col_stats d;
    ASSERT_EQ(stats_init(&d, stats_test_type(COLTYPE_DOUBLE)), 0);
    ASSERT_EQ(stats_merge(&d, &whole), -1);
    stats_free(&d);
  }

  /* Doubles merge through .r. */
  {
    col_stats d1, d2;
    double a1[2] = {-1.5, 2.0}, a2[2] = {0.25, 9.5};
    ASSERT_EQ(stats_init(&d1, stats_test_type(COLTYPE_DOUBLE)), 0);
    ASSERT_EQ(stats_init(&d2, stats_test_type(COLTYPE_DOUBLE)), 0);
    stats_add_values(&d1, a1, NULL, 2);
    stats_add_values(&d2, a2, NULL, 2);
    ASSERT_EQ(stats_merge(&d1, &d2), 0);
    ASSERT(d1.min.r == -1.5);
    ASSERT(d1.max.r == 9.5);
    stats_finish(&d1);
    ASSERT_EQ(d1.nDistinct, 4);
    stats_free(&d1);
    stats_free(&d2);
  }
  stats_free(&whole);
  stats_free(&lo);
  stats_free(&hi);
  stats_free(&empty);
  return 0;
}

TEST_IMPL(stats_codes) {
  coltype t = stats_test_type(COLTYPE_VARCHAR);
  uint32_t aCode[10] = {3, 1, 3, 0, 3, 1, 9, 3, 5, 1};
  uint64_t aValid[1] = {0x3ffu & ~(1u << 6)};   /* row 6 (code 9) NULL */
  col_stats s, s2;

  ASSERT_EQ(stats_init(&s, t), 0);
  ASSERT(s.aHll == NULL);
  ASSERT_EQ(stats_freq_resize(&s, 8), 0);
  ASSERT_EQ(s.nFreq, 8);
  stats_add_codes(&s, aCode, aValid, 10);
  ASSERT_EQ(s.nRow, 10);
  ASSERT_EQ(s.nNull, 1);
  ASSERT_EQ(s.aFreq[0], 1);
  ASSERT_EQ(s.aFreq[1], 3);
  ASSERT_EQ(s.aFreq[2], 0);
  ASSERT_EQ(s.aFreq[3], 4);
  ASSERT_EQ(s.aFreq[5], 1);
  ASSERT_EQ(s.aFreq[7], 0);
  ASSERT_EQ(s.min.i, 0);
  ASSERT_EQ(s.max.i, 5);
  /* Values on a string column are not read: codes go through add_codes. */
  stats_add_values(&s, aCode, NULL, 10);
  ASSERT_EQ(s.nRow, 10);
  stats_finish(&s);
  ASSERT_EQ(s.nDistinct, 4);
  ASSERT_EQ(s.bExact, 1);

  /* Merging into a shorter aFreq grows it; counts add. */
  ASSERT_EQ(stats_init(&s2, t), 0);
  ASSERT_EQ(stats_freq_resize(&s2, 2), 0);
  stats_add_codes(&s2, aCode + 3, NULL, 1);     /* code 0 */
  ASSERT_EQ(stats_merge(&s2, &s), 0);
  ASSERT_EQ(s2.nFreq, 8);
  ASSERT_EQ(s2.aFreq[0], 2);
  ASSERT_EQ(s2.aFreq[3], 4);
  ASSERT_EQ(s2.nRow, 11);
  ASSERT_EQ(s2.nNull, 1);
  stats_finish(&s2);
  ASSERT_EQ(s2.nDistinct, 4);

  /* A resize keeps counts and zeroes the new entries; shrinking is a no-op. */
  ASSERT_EQ(stats_freq_resize(&s2, 1000), 0);
  ASSERT_EQ(s2.aFreq[3], 4);
  ASSERT_EQ(s2.aFreq[999], 0);
  ASSERT_EQ(stats_freq_resize(&s2, 4), 0);
  ASSERT_EQ(s2.nFreq, 1000);

  /* Many rows: exact counts however many distinct there are. */
  {
    uint32_t *a = malloc(100000 * sizeof(uint32_t));
    col_stats s3;
    ASSERT(a != NULL);
    ASSERT_EQ(stats_init(&s3, t), 0);
    ASSERT_EQ(stats_freq_resize(&s3, 70000), 0);
    /* i -> 7i mod 60000 is one-to-one on residues, so the 100000 rows hit
    ** the codes of residues 0..39999 twice and the others once. */
    uint32_t c7 = 0;
    for (uint32_t i = 0; i < 100000; i++) a[i] = (i * 7) % 60000;
    stats_add_codes(&s3, a, NULL, 100000);
    stats_finish(&s3);
    ASSERT_EQ(s3.nDistinct, 60000);
    for (uint32_t r = 0; r < 60000; r++, c7 = (c7 + 7) % 60000) {
      ASSERT_EQ(s3.aFreq[c7], r < 40000 ? 2 : 1);
    }
    for (uint32_t c = 60000; c < 70000; c++) ASSERT_EQ(s3.aFreq[c], 0);
    ASSERT_EQ(s3.min.i, 0);
    ASSERT_EQ(s3.max.i, 59999);
    free(a);
    stats_free(&s3);
  }
  stats_free(&s);
  stats_free(&s2);
  ASSERT(s2.aFreq == NULL);
  return 0;
}

/* Runs of equal adjacent rows (nRun): NULLs are a value of their own, a
** run that crosses from one batch into the next counts once when the
** batches merge in order, codes count like values, and an unknown count
** (-1, statistics stored before runs were kept) stays unknown. */
TEST_IMPL(stats_runs) {
  /* 7 7 NULL NULL 7 | 7 9 9 : runs 7, NULL, 7 | (7 joins) 9 -> 4 in all. */
  int32_t aA[5] = {7, 7, 123, 456, 7}, aB[3] = {7, 9, 9};
  uint64_t aValidA[1] = {0}, aValidB[1] = {0x7};
  uint32_t aCode[6] = {3, 3, 0, 0, 0, 3};
  col_stats a, b, one, c;
  for (uint64_t i = 0; i < 5; i++) {
    if (i != 2 && i != 3) stats_test_set(aValidA, i);
  }
  ASSERT_EQ(stats_init(&a, stats_test_type(COLTYPE_INTEGER)), 0);
  ASSERT_EQ(stats_init(&b, stats_test_type(COLTYPE_INTEGER)), 0);
  ASSERT_EQ(stats_init(&one, stats_test_type(COLTYPE_INTEGER)), 0);
  stats_add_values(&a, aA, aValidA, 5);
  ASSERT_EQ(a.nRun, 3);
  stats_add_values(&b, aB, aValidB, 3);
  ASSERT_EQ(b.nRun, 2);
  ASSERT_EQ(stats_merge(&a, &b), 0);
  ASSERT_EQ(a.nRun, 4);
  /* The same rows added to one statistics in two calls agree. */
  stats_add_values(&one, aA, aValidA, 5);
  stats_add_values(&one, aB, aValidB, 3);
  ASSERT_EQ(one.nRun, 4);
  /* Batches that do not join: 9 then 7. */
  ASSERT_EQ(stats_merge(&one, &b), 0);   /* ... 9 9 | 7 9 9: no join */
  ASSERT_EQ(one.nRun, 6);
  /* Unknown stays unknown. */
  b.nRun = -1;
  ASSERT_EQ(stats_merge(&a, &b), 0);
  ASSERT_EQ(a.nRun, -1);
  stats_free(&a);
  stats_free(&b);
  stats_free(&one);

  /* Codes: 3 3 0 0 0 3 -> 3 runs. */
  ASSERT_EQ(stats_init(&c, stats_test_type(COLTYPE_VARCHAR)), 0);
  ASSERT_EQ(stats_freq_resize(&c, 4), 0);
  stats_add_codes(&c, aCode, NULL, 6);
  ASSERT_EQ(c.nRun, 3);
  stats_free(&c);
  return 0;
}
