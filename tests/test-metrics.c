/*
** tests/test-metrics.c — server/metrics.c and metrics-starq.c: the text
** exposition checked line by line by tests/promcheck.c and for exact
** values; declarations that must be refused; updates from many threads
** that must sum exactly; starqd's own families.
*/
#include <math.h>
#include <pthread.h>

#include "../server/metrics-starq.h"
#include "../server/metrics.h"
#include "promcheck.h"
#include "test.h"

/* Renders p, checks the format, and returns the text (malloc'd). */
static char *render_checked(metrics *p, int *pnFamily, int *pnSample) {
  strbuf s;
  char zErr[512];
  strbuf_init(&s);
  ASSERT_EQ(metrics_render(p, &s), 0);
  if (promcheck(strbuf_str(&s), pnFamily, pnSample, zErr, sizeof(zErr)) != 0) {
    FAIL("%s\n%s", zErr, strbuf_str(&s));
  }
  return strbuf_take(&s);
}

static double value_of(const char *zText, const char *zSeries) {
  double v;
  if (promcheck_value(zText, zSeries, &v) != 0) FAIL("no sample %s in\n%s", zSeries, zText);
  return v;
}

TEST_IMPL(metrics_render_format) {
  static const char *const azStatus[] = {"ok", "error", "we\"ird\\\nvalue"};
  static const double aBound[] = {0.001, 0.5, 1, 60};
  metric_def aDef[] = {
      {"t_requests_total", "Requests, with a \\ and more.", METRIC_COUNTER, "status", azStatus, 3,
       NULL, 0},
      {"t_temperature", "A gauge.", METRIC_GAUGE, NULL, NULL, 0, NULL, 0},
      {"t_latency_seconds", "A histogram.", METRIC_HISTOGRAM, "status", azStatus, 2, aBound, 4},
      {"t:plain_seconds", "An unlabelled histogram.", METRIC_HISTOGRAM, NULL, NULL, 0, aBound, 4},
  };
  metric *am[4];
  metrics *p = metrics_new();
  char zErr[256], *z;
  int nFamily, nSample;

  for (int i = 0; i < 4; i++) CALL_OK((am[i] = metrics_register(p, &aDef[i], zErr, sizeof(zErr))) == NULL);
  metric_counter_add(am[0], 0, 5);
  metric_counter_add(am[0], 2, 1);
  metric_counter_add(am[0], 3, 100);     /* out of range: ignored */
  metric_counter_add(am[1], 0, 100);     /* wrong kind: ignored */
  metric_gauge_set(am[1], 0, -2.5);
  metric_gauge_add(am[1], 0, 0.25);
  /* 0.001 lands in le="0.001" (le is <=), 2 in le="60", 60.5 in +Inf. */
  metric_histogram_observe(am[2], 0, 0.001);
  metric_histogram_observe(am[2], 0, 0.75);
  metric_histogram_observe(am[2], 0, 2);
  metric_histogram_observe(am[2], 1, 60.5);
  metric_histogram_observe(am[2], 1, NAN);   /* dropped */
  metric_histogram_observe(am[3], 0, INFINITY);

  z = render_checked(p, &nFamily, &nSample);
  ASSERT_EQ(nFamily, 4);
  /* 3 counters, 1 gauge, 2 x (5 buckets + sum + count), 5 + 2. */
  ASSERT_EQ(nSample, 3 + 1 + 14 + 7);
  ASSERT(strstr(z, "# HELP t_requests_total Requests, with a \\\\ and more.\n"
                   "# TYPE t_requests_total counter\n"
                   "t_requests_total{status=\"ok\"} 5\n"
                   "t_requests_total{status=\"error\"} 0\n"
                   "t_requests_total{status=\"we\\\"ird\\\\\\nvalue\"} 1\n") == z);
  ASSERT(strstr(z, "# TYPE t_temperature gauge\nt_temperature -2.25\n") != NULL);
  ASSERT_EQ(value_of(z, "t_latency_seconds_bucket{status=\"ok\",le=\"0.001\"}"), 1);
  ASSERT_EQ(value_of(z, "t_latency_seconds_bucket{status=\"ok\",le=\"0.5\"}"), 1);
  ASSERT_EQ(value_of(z, "t_latency_seconds_bucket{status=\"ok\",le=\"1\"}"), 2);
  ASSERT_EQ(value_of(z, "t_latency_seconds_bucket{status=\"ok\",le=\"60\"}"), 3);
  ASSERT_EQ(value_of(z, "t_latency_seconds_bucket{status=\"ok\",le=\"+Inf\"}"), 3);
  ASSERT(fabs(value_of(z, "t_latency_seconds_sum{status=\"ok\"}") - 2.751) < 1e-12);
  ASSERT_EQ(value_of(z, "t_latency_seconds_count{status=\"ok\"}"), 3);
  ASSERT_EQ(value_of(z, "t_latency_seconds_bucket{status=\"error\",le=\"60\"}"), 0);
  ASSERT_EQ(value_of(z, "t_latency_seconds_count{status=\"error\"}"), 1);
  ASSERT(strstr(z, "t:plain_seconds_bucket{le=\"+Inf\"} 1\nt:plain_seconds_sum +Inf\n"
                   "t:plain_seconds_count 1\n") != NULL);
  ASSERT(metric_histogram_sum(am[2], 1) == 60.5);
  ASSERT_EQ(metric_histogram_count(am[2], 1), 1);
  ASSERT_EQ(metric_counter_get(am[0], 2), 1);
  ASSERT(metric_gauge_get(am[1], 0) == -2.25);
  free(z);

  /* The checker itself refuses what it should, so the checks above mean
  ** something. */
  {
    static const char *const azBad[] = {
        "# HELP a x\n# TYPE a counter\na 1",                                 /* no newline */
        "# HELP a x\n# TYPE a counter\na{l=\"1} 1\n",                        /* quote */
        "# HELP a x\n# TYPE a counter\na{1l=\"1\"} 1\n",                     /* label name */
        "# HELP a x\n# TYPE a counter\na 1\na 2\n",                          /* duplicate */
        "# HELP a x\n# TYPE a counter\nb 1\n",                               /* outside */
        "# HELP a x\n# TYPE a counter\na one\n",                             /* value */
        "# HELP h x\n# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\n"
        "h_sum 1\nh_count 1\n",                                              /* falls */
        "# HELP h x\n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\n"
        "h_sum 1\nh_count 3\n",                                              /* count */
        "# HELP h x\n# TYPE h histogram\nh_bucket{le=\"2\"} 1\nh_bucket{le=\"1\"} 1\n"
        "h_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n",                     /* le order */
        "# HELP h x\n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n",  /* +Inf */
        "# TYPE a counter\na 1\n",                                           /* no HELP */
    };
    for (size_t i = 0; i < sizeof(azBad) / sizeof(azBad[0]); i++) {
      if (promcheck(azBad[i], NULL, NULL, zErr, sizeof(zErr)) == 0) FAIL("checker took:\n%s", azBad[i]);
    }
  }
  metrics_free(p);
  return 0;
}

TEST_IMPL(metrics_register_errors) {
  static const char *const azOne[] = {"x"};
  static const char *const azNine[] = {"1", "2", "3", "4", "5", "6", "7", "8", "9"};
  static const double aUp[] = {1, 2}, aDown[] = {2, 1}, aInf[] = {1, INFINITY};
  metrics *p = metrics_new();
  char zErr[256];
  metric_def d = {"ok_total", "fine", METRIC_COUNTER, NULL, NULL, 0, NULL, 0};

  CALL_OK(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL);
  CALL_ERR(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL, "metric ok_total declared twice");
  d.zName = "9lives";
  CALL_ERR(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL, "bad metric name \"9lives\"");
  d.zName = "has-dash";
  CALL_ERR(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL, "bad metric name \"has-dash\"");
  d.zName = "";
  CALL_ERR(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL, "bad metric name \"\"");
  d.zName = "two_lines";
  d.zHelp = "a\nb";
  CALL_ERR(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL, "metric two_lines: help must be one line");
  d.zHelp = "h";
  d.zLabel = "a:b";
  d.azValue = azOne;
  d.nValue = 1;
  CALL_ERR(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL, "metric two_lines: bad label name \"a:b\"");
  d.zLabel = "__x";
  CALL_ERR(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL, "metric two_lines: bad label name \"__x\"");
  d.zLabel = "l";
  d.azValue = azNine;
  d.nValue = 9;
  CALL_ERR(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL, "metric two_lines: label l needs 1 to 8 values");
  d.nValue = 0;
  CALL_ERR(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL, "metric two_lines: label l needs 1 to 8 values");
  d.eKind = METRIC_HISTOGRAM;
  d.zLabel = "le";
  d.azValue = azOne;
  d.nValue = 1;
  d.aBound = aUp;
  d.nBound = 2;
  CALL_ERR(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL, "metric two_lines: bad label name \"le\"");
  d.zLabel = NULL;
  d.aBound = aDown;
  CALL_ERR(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL, "metric two_lines: bounds must be finite and increasing");
  d.aBound = aInf;
  CALL_ERR(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL, "metric two_lines: bounds must be finite and increasing");
  d.nBound = 0;
  CALL_ERR(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL, "metric two_lines: a histogram needs 1 to 32 bounds");
  d.aBound = aUp;
  d.nBound = 2;
  CALL_OK(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL);
  /* le is only reserved in histograms. */
  d.zName = "gauge_le";
  d.eKind = METRIC_GAUGE;
  d.zLabel = "le";
  d.azValue = azOne;
  d.nValue = 1;
  CALL_OK(metrics_register(p, &d, zErr, sizeof(zErr)) == NULL);
  free(render_checked(p, NULL, NULL));
  metrics_free(p);
  return 0;
}

/* ---- many threads ----------------------------------------------------- */

#define THREADS 8
#define UPDATES 50000

typedef struct hammer hammer;
struct hammer {
  metric *pCounter, *pGauge, *pHist;
  metrics *pReg;
  int iThread;
};

static void *hammer_run(void *pArg) {
  hammer *h = pArg;
  for (int i = 0; i < UPDATES; i++) {
    metric_counter_add(h->pCounter, i % 3, 1);
    metric_gauge_add(h->pGauge, 0, 1);
    metric_gauge_add(h->pGauge, 0, -0.5);
    /* 0.25, 0.5, 0.75, 1: exact in binary, so the sum is exact. */
    metric_histogram_observe(h->pHist, h->iThread % 2, 0.25 * (1 + i % 4));
    if (i % 5000 == 0 && h->iThread == 0) free(render_checked(h->pReg, NULL, NULL));
  }
  return NULL;
}

TEST_IMPL(metrics_threads) {
  static const char *const azV[] = {"a", "b", "c"};
  static const double aBound[] = {0.3, 0.6, 0.9};
  metric_def dC = {"c_total", "c", METRIC_COUNTER, "v", azV, 3, NULL, 0};
  metric_def dG = {"g", "g", METRIC_GAUGE, NULL, NULL, 0, NULL, 0};
  metric_def dH = {"h_seconds", "h", METRIC_HISTOGRAM, "v", azV, 2, aBound, 3};
  metrics *p = metrics_new();
  char zErr[256], *z;
  pthread_t aThread[THREADS];
  hammer aH[THREADS];
  metric *pC, *pG, *pH;
  uint64_t nCount = 0;

  CALL_OK((pC = metrics_register(p, &dC, zErr, sizeof(zErr))) == NULL);
  CALL_OK((pG = metrics_register(p, &dG, zErr, sizeof(zErr))) == NULL);
  CALL_OK((pH = metrics_register(p, &dH, zErr, sizeof(zErr))) == NULL);
  for (int i = 0; i < THREADS; i++) {
    aH[i] = (hammer){pC, pG, pH, p, i};
    ASSERT_EQ(pthread_create(&aThread[i], NULL, hammer_run, &aH[i]), 0);
  }
  for (int i = 0; i < THREADS; i++) pthread_join(aThread[i], NULL);

  for (int v = 0; v < 3; v++) nCount += metric_counter_get(pC, v);
  ASSERT_EQ(nCount, (uint64_t)THREADS * UPDATES);
  {
    uint64_t nOne = 0;   /* updates of each thread that went to value 1 */
    for (int i = 0; i < UPDATES; i++) nOne += i % 3 == 1;
    ASSERT_EQ(metric_counter_get(pC, 1), THREADS * nOne);
  }
  ASSERT(metric_gauge_get(pG, 0) == 0.5 * THREADS * UPDATES);
  ASSERT_EQ(metric_histogram_count(pH, 0) + metric_histogram_count(pH, 1), (uint64_t)THREADS * UPDATES);
  ASSERT(metric_histogram_sum(pH, 0) == 0.625 * (THREADS / 2) * UPDATES);
  z = render_checked(p, NULL, NULL);
  /* A quarter of each series' observations are 0.25, below 0.3. */
  ASSERT_EQ(value_of(z, "h_seconds_bucket{v=\"a\",le=\"0.3\"}"), (THREADS / 2) * UPDATES / 4);
  ASSERT_EQ(value_of(z, "h_seconds_bucket{v=\"b\",le=\"0.9\"}"), (THREADS / 2) * UPDATES * 3 / 4);
  ASSERT_EQ(value_of(z, "h_seconds_count{v=\"b\"}"), (THREADS / 2) * UPDATES);
  free(z);
  metrics_free(p);
  return 0;
}

/* starqd's families: every one issue 8 names, with the right type, moved
** by the recording calls, and read back into a status snapshot. */
TEST_IMPL(metrics_starq_families) {
  static const struct {
    const char *zName, *zType;
  } aWant[] = {
      {"starq_build_info", "gauge"},
      {"starq_queries_total", "counter"},
      {"starq_query_duration_seconds", "histogram"},
      {"starq_kernel_compile_seconds", "histogram"},
      {"starq_bytes_scanned_total", "counter"},
      {"starq_kernel_cache_hits_total", "counter"},
      {"starq_kernel_cache_misses_total", "counter"},
      {"starq_connections", "gauge"},
      {"starq_connections_total", "counter"},
      {"starq_device_memory_used_bytes", "gauge"},
      {"starq_device_memory_total_bytes", "gauge"},
      {"starq_pinned_memory_bytes", "gauge"},
  };
  metrics_starq m;
  status_snapshot snap;
  char zErr[256], *z, zLine[128];

  CALL_OK(metrics_starq_open(&m, "1.2.3-test", 1700000000.5, zErr, sizeof(zErr)));
  metrics_starq_query_end(&m, QUERY_OK, 0.00005, 1000);
  metrics_starq_query_end(&m, QUERY_OK, 0.02, 2000);
  metrics_starq_query_end(&m, QUERY_CANCELLED, 61, 0);
  metrics_starq_query_end(&m, QUERY_ERROR, 0.001, 0);
  metrics_starq_kernel_lookup(&m, 0, 1.5);
  metrics_starq_kernel_lookup(&m, 1, 0);
  metrics_starq_kernel_lookup(&m, 1, 0);
  metrics_starq_connection_open(&m);
  metrics_starq_connection_open(&m);
  metrics_starq_connection_close(&m);
  metric_gauge_set(m.pDeviceMemUsed, 0, 3e9);
  metric_gauge_set(m.pDeviceMemTotal, 0, 80e9);
  metric_gauge_set(m.pPinned, 0, 1 << 30);

  z = render_checked(m.pReg, NULL, NULL);
  for (size_t i = 0; i < sizeof(aWant) / sizeof(aWant[0]); i++) {
    snprintf(zLine, sizeof(zLine), "# TYPE %s %s\n", aWant[i].zName, aWant[i].zType);
    if (strstr(z, zLine) == NULL) FAIL("no \"%s\" in\n%s", zLine, z);
  }
  ASSERT_EQ(value_of(z, "starq_build_info{version=\"1.2.3-test\"}"), 1);
  ASSERT(value_of(z, "starq_start_time_seconds") == 1700000000.5);
  ASSERT_EQ(value_of(z, "starq_queries_total{status=\"ok\"}"), 2);
  ASSERT_EQ(value_of(z, "starq_queries_total{status=\"error\"}"), 1);
  ASSERT_EQ(value_of(z, "starq_queries_total{status=\"cancelled\"}"), 1);
  /* Buckets from 100 us to 60 s. */
  ASSERT_EQ(value_of(z, "starq_query_duration_seconds_bucket{le=\"0.0001\"}"), 1);
  ASSERT_EQ(value_of(z, "starq_query_duration_seconds_bucket{le=\"0.001\"}"), 2);
  ASSERT_EQ(value_of(z, "starq_query_duration_seconds_bucket{le=\"0.025\"}"), 3);
  ASSERT_EQ(value_of(z, "starq_query_duration_seconds_bucket{le=\"60\"}"), 3);
  ASSERT_EQ(value_of(z, "starq_query_duration_seconds_count"), 4);
  ASSERT_EQ(value_of(z, "starq_kernel_compile_seconds_bucket{le=\"2.5\"}"), 1);
  ASSERT_EQ(value_of(z, "starq_kernel_compile_seconds_count"), 1);
  ASSERT_EQ(value_of(z, "starq_bytes_scanned_total"), 3000);
  ASSERT_EQ(value_of(z, "starq_kernel_cache_hits_total"), 2);
  ASSERT_EQ(value_of(z, "starq_kernel_cache_misses_total"), 1);
  ASSERT_EQ(value_of(z, "starq_connections"), 1);
  ASSERT_EQ(value_of(z, "starq_connections_total"), 2);
  ASSERT_EQ(value_of(z, "starq_device_memory_total_bytes"), 80e9);
  free(z);

  memset(&snap, 0, sizeof(snap));
  metrics_starq_snapshot_fill(&m, &snap);
  ASSERT_EQ(snap.anQuery[QUERY_OK], 2);
  ASSERT_EQ(snap.anQuery[QUERY_CANCELLED], 1);
  ASSERT_EQ(snap.nBytesScanned, 3000);
  ASSERT_EQ(snap.nCacheHits, 2);
  ASSERT_EQ(snap.nCacheMisses, 1);
  ASSERT(snap.secCompile == 1.5);
  ASSERT_EQ(snap.nSessions, 1);
  ASSERT_EQ(snap.nDeviceMemUsed, 3000000000LL);
  ASSERT_EQ(snap.nPinnedBytes, 1 << 30);
  metrics_starq_close(&m);
  return 0;
}
