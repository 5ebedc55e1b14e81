/*
** ssb-data/scale.c — row counts for a scale factor.
**
** The rules are dbgen's (../shared/SSB.md, "Row counts"), with two
** deliberate differences: a fractional SF above 1 scales linearly instead of
** being truncated (dbgen turns -s 1.5 into -s 1), and SF < 1 never shrinks
** the date table, which always has its 2,557 days.
*/
#include <math.h>

#include "ssb.h"

/* Returns base*sf rounded to the nearest integer, at least 1. Rounding, not
** truncation: 1,500,000 * 0.01 is 14999.999... in binary floating point. */
static int64_t scale__rows(double base, double sf) {
  int64_t n = llround(base * sf);
  return n < 1 ? 1 : n;
}

int ssb_scale_init(ssb_scale *p, double rSf) {
  if (!(rSf >= SSB_SF_MIN && rSf <= SSB_SF_MAX)) return -1;
  p->rSf = rSf;
  p->nOrder = scale__rows(1500000.0, rSf);
  p->nCustomer = scale__rows(30000.0, rSf);
  p->nSupplier = scale__rows(2000.0, rSf);
  if (rSf < 1.0) {
    p->nPart = scale__rows(200000.0, rSf);
    p->nPartKeyMax = p->nPart;
  } else {
    /* part grows with log2 SF, but dbgen draws lo_partkey with the natural
    ** log, so from SF 4 up lineorder covers only part of `part`. */
    p->nPart = 200000 * (int64_t)floor(1.0 + log2(rSf));
    p->nPartKeyMax = 200000 * ((int64_t)floor(log(rSf)) + 1);
  }
  return 0;
}
