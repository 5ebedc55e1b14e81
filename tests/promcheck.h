/*
** tests/promcheck.h — a checker of Prometheus's text exposition format
** 0.0.4 for tests, line by line: metric and label names, label syntax and
** escapes, values, HELP/TYPE before a family's samples and each family in
** one block, and for histograms the buckets' le order, cumulative counts
** that never fall, a last bucket le="+Inf" equal to _count, and a _sum.
*/
#ifndef STARQ_TEST_PROMCHECK_H
#define STARQ_TEST_PROMCHECK_H

#include <stddef.h>

/* Returns 0 if zText is a valid exposition, else -1 with the line and the
** fault in zErr. *pnFamily and *pnSample (may be NULL) get the counts. */
int promcheck(const char *zText, int *pnFamily, int *pnSample, char *zErr, size_t nErr);

/* Finds the sample whose name and labels are written exactly zSeries
** ("x_total{status=\"ok\"}") and reads its value into *pv. Returns 0, or
** -1 if there is no such line. */
int promcheck_value(const char *zText, const char *zSeries, double *pv);

#endif /* STARQ_TEST_PROMCHECK_H */
