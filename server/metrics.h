/*
** server/metrics.h — a registry of counters, gauges and histograms,
** updated from any thread without locks and rendered in Prometheus's text
** exposition format, version 0.0.4, for GET /metrics.
**
** A family (one metric name) is declared once, at start-up, before any
** thread updates it: its kind, its help text, and at most one label with
** a small fixed set of values (status="ok|error|cancelled"), each value
** being one series. Updates name the series by the index of its value, so
** the hot path is an atomic add on a slot chosen by array index, never a
** string lookup or an allocation. Histograms have fixed upper bounds; each
** bucket counts only its own observations and rendering accumulates them,
** so the "+Inf" bucket equals _count by construction even while other
** threads observe (the _sum may be one observation ahead or behind, as in
** every Prometheus client).
**
** Lifetime: the registry owns its families; a metric pointer is valid
** until metrics_free(). Registration is not thread-safe (start-up only);
** every update and metrics_render() are, with each other.
**
** INTERFACE ROUTINES
**   metrics_new / metrics_free   the registry
**   metrics_register             declare a family (start-up only)
**   metric_counter_add           count n more
**   metric_gauge_set / metric_gauge_add
**   metric_counter_set_total     a total counted elsewhere, as read
**   metric_histogram_observe     one observation
**   metric_counter_get / metric_gauge_get / metric_histogram_sum /
**   metric_histogram_count       read a series back (status JSON, tests)
**   metrics_render               the text exposition of every family
*/
#ifndef STARQ_METRICS_H
#define STARQ_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "../common/strbuf.h"

#define METRICS_FAMILY_MAX  64   /* families in one registry */
#define METRIC_VALUES_MAX   8    /* values of a family's label */
#define METRIC_BOUNDS_MAX   32   /* histogram bounds, +Inf not counted */

typedef enum metric_kind {
  METRIC_COUNTER,        /* only goes up; an unsigned integer */
  METRIC_GAUGE,          /* goes up and down; a double */
  METRIC_HISTOGRAM,      /* observations in fixed buckets, with sum and count */
  METRIC_COUNTER_TOTAL   /* a counter kept elsewhere (the kernel's CPU seconds),
                         ** set as it is read: a double, rendered as a counter */
} metric_kind;

/* How a family is declared. Strings and arrays are copied by
** metrics_register(), so they may be temporaries. */
typedef struct metric_def metric_def;
struct metric_def {
  const char *zName;            /* [a-zA-Z_:][a-zA-Z0-9_:]* */
  const char *zHelp;            /* one line of prose */
  metric_kind eKind;
  const char *zLabel;           /* the label's name, or NULL for one unlabelled series */
  const char *const *azValue;   /* the label's values (any UTF-8), nValue of them */
  int nValue;
  const double *aBound;         /* histogram: upper bounds, increasing, finite */
  int nBound;
};

typedef struct metrics metrics;
typedef struct metric metric;

/* Returns a new empty registry, or NULL if out of memory. */
metrics *metrics_new(void);
void metrics_free(metrics *p);

/* Declares a family. Returns it, or NULL with a message in zErr: a bad
** name, help with a newline, a name already declared, a bad label name
** ("le" on a histogram, "__" names), no or too many label values, or
** histogram bounds that are not finite and increasing. */
metric *metrics_register(metrics *p, const metric_def *pDef, char *zErr, size_t nErr);

/* Updates. iValue is the index of the label value (0 when the family has
** no label); an index out of range, or a call on the wrong kind, is
** ignored. Safe from any thread. */
void metric_counter_add(metric *m, int iValue, uint64_t n);
void metric_gauge_set(metric *m, int iValue, double v);
/* Sets a METRIC_COUNTER_TOTAL series to the total read from its source. */
void metric_counter_set_total(metric *m, int iValue, double v);
void metric_gauge_add(metric *m, int iValue, double d);
void metric_histogram_observe(metric *m, int iValue, double v);

/* Reads one series (0 for a bad index or kind). */
uint64_t metric_counter_get(const metric *m, int iValue);
double metric_gauge_get(const metric *m, int iValue);
double metric_histogram_sum(const metric *m, int iValue);
uint64_t metric_histogram_count(const metric *m, int iValue);

/* Appends every family, in the order declared, to pOut: "# HELP", "# TYPE"
** and one line per sample, as Prometheus's text format 0.0.4 has it
** (served as "text/plain; version=0.0.4; charset=utf-8"). Returns 0, or -1
** if an allocation failed. */
int metrics_render(metrics *p, strbuf *pOut);

#endif /* STARQ_METRICS_H */
