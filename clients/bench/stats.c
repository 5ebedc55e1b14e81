/*
** clients/bench/stats.c — samples of times and what the reports say of
** them: the median, percentiles by nearest rank, the extremes. Nearest
** rank, not interpolation, so every percentile printed is a time that
** was actually measured.
**
** INTERFACE ROUTINES
**   bench_samples_add, _merge, _free    a growable array of seconds
**   bench_samples_sort                  ascending, for what follows
**   bench_samples_median, _percentile, _min, _max
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

int bench_samples_add(bench_samples *p, double r) {
  if (p->n == p->nAlloc) {
    int nNew = p->nAlloc ? 2 * p->nAlloc : 16;
    double *a = realloc(p->a, (size_t)nNew * sizeof(double));
    if (a == NULL) return -1;
    p->a = a;
    p->nAlloc = nNew;
  }
  p->a[p->n++] = r;
  return 0;
}

int bench_samples_merge(bench_samples *p, const bench_samples *pFrom) {
  for (int i = 0; i < pFrom->n; i++) {
    if (bench_samples_add(p, pFrom->a[i]) != 0) return -1;
  }
  return 0;
}

void bench_samples_free(bench_samples *p) {
  free(p->a);
  memset(p, 0, sizeof(*p));
}

/* Orders doubles ascending for qsort. */
static int stats_cmp(const void *pA, const void *pB) {
  double a = *(const double *)pA, b = *(const double *)pB;
  return a < b ? -1 : a > b;
}

void bench_samples_sort(bench_samples *p) {
  if (p->n > 1) qsort(p->a, (size_t)p->n, sizeof(double), stats_cmp);
}

double bench_samples_median(const bench_samples *p) {
  if (p->n == 0) return NAN;
  if (p->n % 2) return p->a[p->n / 2];
  return (p->a[p->n / 2 - 1] + p->a[p->n / 2]) / 2;
}

double bench_samples_percentile(const bench_samples *p, double rPct) {
  /* The smallest sample with at least rPct percent of them at or below it. */
  double rRank = ceil(rPct / 100 * p->n);
  int i = (int)rRank - 1;
  if (p->n == 0) return NAN;
  if (i < 0) i = 0;
  if (i >= p->n) i = p->n - 1;
  return p->a[i];
}

double bench_samples_min(const bench_samples *p) { return p->n ? p->a[0] : NAN; }

double bench_samples_max(const bench_samples *p) { return p->n ? p->a[p->n - 1] : NAN; }
