/*
** server/metrics.c — the registry of metrics.h and its Prometheus text
** rendering.
**
** Each family keeps its series in one array of atomic 64-bit slots: a
** counter or gauge has one slot per series (a gauge holds the bits of a
** double, updated by compare-and-swap), a histogram has one per bucket
** plus one for the sum. All atomics are relaxed: a metric is a statistic,
** and nothing else is ordered by it.
*/
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

struct metric {
  metric_kind eKind;
  char *zName;                  /* owned */
  char *zHelp;                  /* owned */
  char *zLabel;                 /* owned, or NULL */
  char *azValue[METRIC_VALUES_MAX];   /* owned: the label's values */
  int nSeries;                  /* label values, or 1 without a label */
  double aBound[METRIC_BOUNDS_MAX];   /* histogram upper bounds */
  int nBound;
  int nSlot;                    /* slots per series: 1, or nBound + 2 */
  _Atomic uint64_t *aSlot;      /* nSeries * nSlot; owned */
};

struct metrics {
  metric *apFamily[METRICS_FAMILY_MAX];   /* owned, in declaration order */
  int nFamily;
};

metrics *metrics_new(void) { return calloc(1, sizeof(metrics)); }

static void metrics__family_free(metric *m) {
  if (m == NULL) return;
  free(m->zName);
  free(m->zHelp);
  free(m->zLabel);
  for (int i = 0; i < METRIC_VALUES_MAX; i++) free(m->azValue[i]);
  free(m->aSlot);
  free(m);
}

void metrics_free(metrics *p) {
  if (p == NULL) return;
  for (int i = 0; i < p->nFamily; i++) metrics__family_free(p->apFamily[i]);
  free(p);
}

/* ---- declaring ---------------------------------------------------------- */

/* Returns 1 if z is a metric name ([a-zA-Z_:][a-zA-Z0-9_:]*), or a label
** name when bLabel (no colons). */
static int metrics__name_ok(const char *z, int bLabel) {
  if (z == NULL || *z == 0) return 0;
  for (int i = 0; z[i] != 0; i++) {
    char c = z[i];
    int bAlpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    int bDigit = c >= '0' && c <= '9';
    if (!bAlpha && !(c == ':' && !bLabel) && !(bDigit && i > 0)) return 0;
  }
  return 1;
}

/* Checks a declaration against everything metrics_register() promises to
** refuse. Returns 0, or -1 with a message. */
static int metrics__def_check(const metrics *p, const metric_def *d, char *zErr, size_t nErr) {
  if (!metrics__name_ok(d->zName, 0)) {
    snprintf(zErr, nErr, "bad metric name \"%s\"", d->zName ? d->zName : "");
    return -1;
  }
  for (int i = 0; i < p->nFamily; i++) {
    if (strcmp(p->apFamily[i]->zName, d->zName) == 0) {
      snprintf(zErr, nErr, "metric %s declared twice", d->zName);
      return -1;
    }
  }
  if (p->nFamily == METRICS_FAMILY_MAX) {
    snprintf(zErr, nErr, "metric %s: more than %d families", d->zName, METRICS_FAMILY_MAX);
    return -1;
  }
  if (d->zHelp == NULL || strchr(d->zHelp, '\n') != NULL) {
    snprintf(zErr, nErr, "metric %s: help must be one line", d->zName);
    return -1;
  }
  if (d->zLabel != NULL) {
    if (!metrics__name_ok(d->zLabel, 1) || strncmp(d->zLabel, "__", 2) == 0 ||
        (d->eKind == METRIC_HISTOGRAM && strcmp(d->zLabel, "le") == 0)) {
      snprintf(zErr, nErr, "metric %s: bad label name \"%s\"", d->zName, d->zLabel);
      return -1;
    }
    if (d->nValue < 1 || d->nValue > METRIC_VALUES_MAX || d->azValue == NULL) {
      snprintf(zErr, nErr, "metric %s: label %s needs 1 to %d values", d->zName, d->zLabel,
               METRIC_VALUES_MAX);
      return -1;
    }
    for (int i = 0; i < d->nValue; i++) {
      if (d->azValue[i] == NULL) {
        snprintf(zErr, nErr, "metric %s: label value %d is missing", d->zName, i);
        return -1;
      }
    }
  }
  if (d->eKind == METRIC_HISTOGRAM) {
    if (d->nBound < 1 || d->nBound > METRIC_BOUNDS_MAX || d->aBound == NULL) {
      snprintf(zErr, nErr, "metric %s: a histogram needs 1 to %d bounds", d->zName,
               METRIC_BOUNDS_MAX);
      return -1;
    }
    for (int i = 0; i < d->nBound; i++) {
      if (!isfinite(d->aBound[i]) || (i > 0 && !(d->aBound[i] > d->aBound[i - 1]))) {
        snprintf(zErr, nErr, "metric %s: bounds must be finite and increasing", d->zName);
        return -1;
      }
    }
  }
  return 0;
}

metric *metrics_register(metrics *p, const metric_def *pDef, char *zErr, size_t nErr) {
  metric *m;
  if (metrics__def_check(p, pDef, zErr, nErr) != 0) return NULL;
  m = calloc(1, sizeof(*m));
  if (m == NULL) goto oom;
  m->eKind = pDef->eKind;
  m->nSeries = pDef->zLabel != NULL ? pDef->nValue : 1;
  m->nBound = pDef->eKind == METRIC_HISTOGRAM ? pDef->nBound : 0;
  m->nSlot = pDef->eKind == METRIC_HISTOGRAM ? m->nBound + 2 : 1;
  if (m->nBound > 0) memcpy(m->aBound, pDef->aBound, sizeof(double) * (size_t)m->nBound);
  m->zName = strdup(pDef->zName);
  m->zHelp = strdup(pDef->zHelp);
  m->aSlot = calloc((size_t)(m->nSeries * m->nSlot), sizeof(m->aSlot[0]));
  if (m->zName == NULL || m->zHelp == NULL || m->aSlot == NULL) goto oom;
  if (pDef->zLabel != NULL) {
    if ((m->zLabel = strdup(pDef->zLabel)) == NULL) goto oom;
    for (int i = 0; i < pDef->nValue; i++) {
      if ((m->azValue[i] = strdup(pDef->azValue[i])) == NULL) goto oom;
    }
  }
  for (int i = 0; i < m->nSeries * m->nSlot; i++) atomic_init(&m->aSlot[i], 0);
  p->apFamily[p->nFamily++] = m;
  return m;
oom:
  metrics__family_free(m);
  snprintf(zErr, nErr, "metric %s: out of memory", pDef->zName);
  return NULL;
}

/* ---- updating ------------------------------------------------------------ */

/* Returns the first slot of series iValue of a family of kind eKind, or
** NULL when either does not fit. */
static _Atomic uint64_t *metrics__series(const metric *m, metric_kind eKind, int iValue) {
  if (m == NULL || m->eKind != eKind || iValue < 0 || iValue >= m->nSeries) return NULL;
  return &m->aSlot[iValue * m->nSlot];
}

static uint64_t metrics__bits(double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof(u));
  return u;
}

static double metrics__double(uint64_t u) {
  double v;
  memcpy(&v, &u, sizeof(v));
  return v;
}

/* Adds d to the double held in a slot. */
static void metrics__double_add(_Atomic uint64_t *pSlot, double d) {
  uint64_t uOld = atomic_load_explicit(pSlot, memory_order_relaxed);
  while (!atomic_compare_exchange_weak_explicit(pSlot, &uOld,
                                                metrics__bits(metrics__double(uOld) + d),
                                                memory_order_relaxed, memory_order_relaxed)) {
  }
}

void metric_counter_add(metric *m, int iValue, uint64_t n) {
  _Atomic uint64_t *a = metrics__series(m, METRIC_COUNTER, iValue);
  if (a != NULL) atomic_fetch_add_explicit(a, n, memory_order_relaxed);
}

void metric_gauge_set(metric *m, int iValue, double v) {
  _Atomic uint64_t *a = metrics__series(m, METRIC_GAUGE, iValue);
  if (a != NULL) atomic_store_explicit(a, metrics__bits(v), memory_order_relaxed);
}

void metric_counter_set_total(metric *m, int iValue, double v) {
  _Atomic uint64_t *a = metrics__series(m, METRIC_COUNTER_TOTAL, iValue);
  if (a != NULL) atomic_store_explicit(a, metrics__bits(v), memory_order_relaxed);
}

void metric_gauge_add(metric *m, int iValue, double d) {
  _Atomic uint64_t *a = metrics__series(m, METRIC_GAUGE, iValue);
  if (a != NULL) metrics__double_add(a, d);
}

/* A NaN observation is dropped: it would make the sum NaN for good. */
void metric_histogram_observe(metric *m, int iValue, double v) {
  _Atomic uint64_t *a = metrics__series(m, METRIC_HISTOGRAM, iValue);
  int i = 0;
  if (a == NULL || isnan(v)) return;
  while (i < m->nBound && v > m->aBound[i]) i++;
  atomic_fetch_add_explicit(&a[i], 1, memory_order_relaxed);
  metrics__double_add(&a[m->nBound + 1], v);
}

uint64_t metric_counter_get(const metric *m, int iValue) {
  _Atomic uint64_t *a = metrics__series(m, METRIC_COUNTER, iValue);
  return a != NULL ? atomic_load_explicit(a, memory_order_relaxed) : 0;
}

double metric_gauge_get(const metric *m, int iValue) {
  _Atomic uint64_t *a = metrics__series(m, METRIC_GAUGE, iValue);
  return a != NULL ? metrics__double(atomic_load_explicit(a, memory_order_relaxed)) : 0;
}

double metric_histogram_sum(const metric *m, int iValue) {
  _Atomic uint64_t *a = metrics__series(m, METRIC_HISTOGRAM, iValue);
  return a != NULL ? metrics__double(atomic_load_explicit(&a[m->nBound + 1], memory_order_relaxed))
                   : 0;
}

uint64_t metric_histogram_count(const metric *m, int iValue) {
  _Atomic uint64_t *a = metrics__series(m, METRIC_HISTOGRAM, iValue);
  uint64_t n = 0;
  if (a == NULL) return 0;
  for (int i = 0; i <= m->nBound; i++) n += atomic_load_explicit(&a[i], memory_order_relaxed);
  return n;
}

/* ---- rendering ------------------------------------------------------------ */

/* Appends z with the given bytes escaped as the format wants: backslash
** and newline in help text, and the double quote too in label values. */
static void metrics__escaped(strbuf *pOut, const char *z, int bQuote) {
  for (; *z != 0; z++) {
    if (*z == '\\') {
      strbuf_puts(pOut, "\\\\");
    } else if (*z == '\n') {
      strbuf_puts(pOut, "\\n");
    } else if (*z == '"' && bQuote) {
      strbuf_puts(pOut, "\\\"");
    } else {
      strbuf_append(pOut, z, 1);
    }
  }
}

/* Appends a sample value: Go's ParseFloat spellings for what is not
** finite, else the shortest decimal. */
static void metrics__value(strbuf *pOut, double v) {
  if (isnan(v)) {
    strbuf_puts(pOut, "NaN");
  } else if (isinf(v)) {
    strbuf_puts(pOut, v > 0 ? "+Inf" : "-Inf");
  } else {
    strbuf_double(pOut, v);
  }
}

/* Appends "name{label="value",le="bound"}" with the parts that apply:
** zSuffix is "_bucket", "_sum", "_count" or ""; iBound < 0 means no le,
** iBound == nBound means le="+Inf". */
static void metrics__sample_name(strbuf *pOut, const metric *m, const char *zSuffix, int iSeries,
                                 int iBound) {
  int bLabel = m->zLabel != NULL;
  strbuf_printf(pOut, "%s%s", m->zName, zSuffix);
  if (!bLabel && iBound < 0) return;
  strbuf_puts(pOut, "{");
  if (bLabel) {
    strbuf_printf(pOut, "%s=\"", m->zLabel);
    metrics__escaped(pOut, m->azValue[iSeries], 1);
    strbuf_puts(pOut, "\"");
  }
  if (iBound >= 0) {
    strbuf_puts(pOut, bLabel ? ",le=\"" : "le=\"");
    if (iBound == m->nBound) {
      strbuf_puts(pOut, "+Inf");
    } else {
      strbuf_double(pOut, m->aBound[iBound]);
    }
    strbuf_puts(pOut, "\"");
  }
  strbuf_puts(pOut, "}");
}

/* Appends one histogram series: cumulative buckets, then sum and count,
** the count being the +Inf bucket's, from the same loads. */
static void metrics__histogram_render(strbuf *pOut, const metric *m, int iSeries) {
  _Atomic uint64_t *a = &m->aSlot[iSeries * m->nSlot];
  uint64_t nCum = 0;
  for (int i = 0; i <= m->nBound; i++) {
    nCum += atomic_load_explicit(&a[i], memory_order_relaxed);
    metrics__sample_name(pOut, m, "_bucket", iSeries, i);
    strbuf_printf(pOut, " %llu\n", (unsigned long long)nCum);
  }
  metrics__sample_name(pOut, m, "_sum", iSeries, -1);
  strbuf_puts(pOut, " ");
  metrics__value(pOut, metrics__double(atomic_load_explicit(&a[m->nBound + 1], memory_order_relaxed)));
  strbuf_puts(pOut, "\n");
  metrics__sample_name(pOut, m, "_count", iSeries, -1);
  strbuf_printf(pOut, " %llu\n", (unsigned long long)nCum);
}

static void metrics__family_render(strbuf *pOut, const metric *m) {
  static const char *const azType[] = {"counter", "gauge", "histogram", "counter"};
  strbuf_printf(pOut, "# HELP %s ", m->zName);
  metrics__escaped(pOut, m->zHelp, 0);
  strbuf_printf(pOut, "\n# TYPE %s %s\n", m->zName, azType[m->eKind]);
  for (int s = 0; s < m->nSeries; s++) {
    uint64_t u = atomic_load_explicit(&m->aSlot[s * m->nSlot], memory_order_relaxed);
    if (m->eKind == METRIC_HISTOGRAM) {
      metrics__histogram_render(pOut, m, s);
      continue;
    }
    metrics__sample_name(pOut, m, "", s, -1);
    if (m->eKind == METRIC_COUNTER) {
      strbuf_printf(pOut, " %llu\n", (unsigned long long)u);
    } else {
      strbuf_puts(pOut, " ");
      metrics__value(pOut, metrics__double(u));
      strbuf_puts(pOut, "\n");
    }
  }
}

int metrics_render(metrics *p, strbuf *pOut) {
  for (int i = 0; i < p->nFamily; i++) metrics__family_render(pOut, p->apFamily[i]);
  return strbuf_error(pOut) ? -1 : 0;
}
