/*
** tests/test-gen-unit.c — the generator's building blocks, in-process:
** calendar arithmetic, scale rules and the random streams. Whole generated
** files are checked against SSB.md by test-ssb-data.c.
*/
#include <math.h>

#include "../ssb-data/ssb.h"
#include "test.h"

TEST_IMPL(gen_calendar) {
  ssb_date d;
  ASSERT_EQ(ssb_date_key(0), 19920101);
  ASSERT_EQ(ssb_date_key(59), 19920229);      /* 1992 is a leap year */
  ASSERT_EQ(ssb_date_key(60), 19920301);
  ASSERT_EQ(ssb_date_key(366), 19930101);
  ASSERT_EQ(ssb_date_key(2405), 19980802);    /* the last order date */
  ASSERT_EQ(ssb_date_key(2556), 19981231);
  ASSERT_EQ(ssb_date_key(2557), 19990101);

  ssb_date_row(0, &d);
  ASSERT_STR_EQ(d.zDate, "January 1, 1992");
  ASSERT_STR_EQ(d.zDayOfWeek, "Thursday");    /* dbgen's shifted label */
  ASSERT_EQ(d.iDayNumInWeek, 5);
  ASSERT_EQ(d.bHoliday, 1);
  ASSERT_EQ(d.bWeekday, 1);
  ASSERT_EQ(d.iWeekNumInYear, 1);

  ssb_date_row(2556, &d);
  ASSERT_EQ(d.iDateKey, 19981231);
  ASSERT_STR_EQ(d.zYearMonth, "Dec1998");
  ASSERT_STR_EQ(d.zSellingSeason, "Christmas");
  ASSERT_EQ(d.iDayNumInYear, 365);
  ASSERT_EQ(d.iWeekNumInYear, 53);
  ASSERT_EQ(d.bLastDayInMonth, 1);
  ASSERT_EQ(d.bHoliday, 0);

  ssb_date_row(1860, &d);                     /* 1997-02-03 */
  ASSERT_EQ(d.iDateKey, 19970203);
  ASSERT_STR_EQ(d.zDate, "February 3, 1997");
  ASSERT_EQ(d.iYearMonthNum, 199702);
  ASSERT_EQ(d.iDayNumInYear, 34);
  ASSERT_EQ(d.iWeekNumInYear, 5);
  return 0;
}

TEST_IMPL(gen_scale) {
  ssb_scale s;
  ASSERT_EQ(ssb_scale_init(&s, 0.01), 0);
  ASSERT_EQ(s.nOrder, 15000);
  ASSERT_EQ(s.nCustomer, 300);
  ASSERT_EQ(s.nSupplier, 20);
  ASSERT_EQ(s.nPart, 2000);
  ASSERT_EQ(s.nPartKeyMax, 2000);

  ASSERT_EQ(ssb_scale_init(&s, 1), 0);
  ASSERT_EQ(s.nOrder, 1500000);
  ASSERT_EQ(s.nCustomer, 30000);
  ASSERT_EQ(s.nSupplier, 2000);
  ASSERT_EQ(s.nPart, 200000);
  ASSERT_EQ(s.nPartKeyMax, 200000);

  /* part follows log2 SF, lo_partkey the natural log (dbgen's quirk). */
  ASSERT_EQ(ssb_scale_init(&s, 2), 0);
  ASSERT_EQ(s.nPart, 400000);
  ASSERT_EQ(ssb_scale_init(&s, 4), 0);
  ASSERT_EQ(s.nPart, 600000);
  ASSERT_EQ(s.nPartKeyMax, 400000);
  ASSERT_EQ(ssb_scale_init(&s, 10), 0);
  ASSERT_EQ(s.nPart, 800000);
  ASSERT_EQ(s.nPartKeyMax, 600000);

  /* A fractional SF above 1 scales linearly rather than being truncated. */
  ASSERT_EQ(ssb_scale_init(&s, 1.5), 0);
  ASSERT_EQ(s.nOrder, 2250000);
  ASSERT_EQ(s.nCustomer, 45000);

  ASSERT_EQ(ssb_scale_init(&s, 0.0099), -1);
  ASSERT_EQ(ssb_scale_init(&s, 0), -1);
  ASSERT_EQ(ssb_scale_init(&s, -1), -1);
  ASSERT_EQ(ssb_scale_init(&s, NAN), -1);
  ASSERT_EQ(ssb_scale_init(&s, INFINITY), -1);
  ASSERT_EQ(ssb_scale_init(&s, 100001), -1);
  return 0;
}

/* The streams must be pure functions of (seed, stream, index), stay in
** range, cover every value, and differ between seeds and between streams. */
TEST_IMPL(gen_rand) {
  enum { N_DRAW = 70000, N_BIN = 7 };
  ssb_rand a, b;
  int64_t aCount[N_BIN] = {0};
  int nSameSeed = 0, nSameStream = 0;
  double rChi2 = 0;

  ssb_rand_init(&a, 1);
  ssb_rand_init(&b, 2);
  for (uint64_t i = 0; i < N_DRAW; i++) {
    int64_t v = ssb_rand_int(&a, SSB_S_O_LINES, i, 1, N_BIN);
    ASSERT(v >= 1 && v <= N_BIN);
    ASSERT_EQ(v, ssb_rand_int(&a, SSB_S_O_LINES, i, 1, N_BIN));
    aCount[v - 1]++;
    nSameSeed += ssb_rand_bits(&a, SSB_S_O_LINES, i) == ssb_rand_bits(&b, SSB_S_O_LINES, i);
    nSameStream += ssb_rand_bits(&a, SSB_S_O_LINES, i) == ssb_rand_bits(&a, SSB_S_O_DATE, i);
  }
  ASSERT_EQ(nSameSeed, 0);
  ASSERT_EQ(nSameStream, 0);
  for (int i = 0; i < N_BIN; i++) {
    double e = (double)N_DRAW / N_BIN, d = (double)aCount[i] - e;
    rChi2 += d * d / e;
  }
  /* 6 degrees of freedom: P(chi2 > 22.46) = 0.001. */
  if (rChi2 > 22.46) FAIL("lines-per-order draws are not uniform: chi2 = %.2f", rChi2);

  /* The extremes of the mapping onto a range. */
  ASSERT_EQ(ssb_rand_scale(0, 5, 9), 5);
  ASSERT_EQ(ssb_rand_scale(UINT64_MAX, 5, 9), 9);
  ASSERT_EQ(ssb_rand_scale(UINT64_MAX, 1, 1), 1);
  return 0;
}
