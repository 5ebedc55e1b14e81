/*
** server/metrics-starq.c — declares starqd's metrics (metrics-starq.h) and
** records the events that move them.
**
** Durations are in seconds, as Prometheus's conventions want. The query
** buckets run from 100 us, a cached kernel on a small table, to 60 s, a
** large scan on the CPU backend, in 1-2.5-5 steps; compiling a kernel
** takes from a millisecond (a disk-cached module) to tens of seconds
** (NVRTC on a big query under load).
*/
#include <stdio.h>
#include <string.h>

#include "metrics-starq.h"

static const double metrics__aQueryBound[] = {
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
    0.1,    0.25,    0.5,    1,     2.5,    5,     10,   30,    60};
static const double metrics__aCompileBound[] = {
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
#define METRICS__N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Declares one family into *ppOut; a no-op once an earlier one failed. */
static void metrics__declare(metrics_starq *p, metric **ppOut, const metric_def *pDef, int *pRc,
                             char *zErr, size_t nErr) {
  if (*pRc != 0) return;
  *ppOut = metrics_register(p->pReg, pDef, zErr, nErr);
  if (*ppOut == NULL) *pRc = -1;
}

int metrics_starq_open(metrics_starq *p, const char *zVersion, double tStart, char *zErr,
                       size_t nErr) {
  static const char *const azOutcome[QUERY_OUTCOME_N] = {"ok", "error", "cancelled", "timeout",
                                                          "disconnected"};
  static const char *const azRefusal[REFUSED_N] = {"too_many_clients", "too_many_unauthenticated",
                                                  "starting_up", "shutting_down",
                                                  "authentication_timeout"};
  const char *azVersion[1] = {zVersion};
  const metric_def aDef[] = {
      {"starq_build_info", "The starq version running; always 1.", METRIC_GAUGE, "version",
       azVersion, 1, NULL, 0},
      {"starq_start_time_seconds", "When starqd started, in Unix seconds.", METRIC_GAUGE,
       NULL, NULL, 0, NULL, 0},
      {"starq_queries_total", "Queries finished, by how they ended.", METRIC_COUNTER, "status",
       azOutcome, QUERY_OUTCOME_N, NULL, 0},
      {"starq_query_duration_seconds", "Time from a query's arrival to its last row.",
       METRIC_HISTOGRAM, NULL, NULL, 0, metrics__aQueryBound, METRICS__N(metrics__aQueryBound)},
      {"starq_kernel_compile_seconds", "Time to compile one query's kernels on a cache miss.",
       METRIC_HISTOGRAM, NULL, NULL, 0, metrics__aCompileBound,
       METRICS__N(metrics__aCompileBound)},
      {"starq_bytes_scanned_total", "Column bytes read by queries.", METRIC_COUNTER, NULL, NULL,
       0, NULL, 0},
      {"starq_kernel_cache_hits_total", "Queries whose kernels were already compiled.",
       METRIC_COUNTER, NULL, NULL, 0, NULL, 0},
      {"starq_kernel_cache_misses_total", "Queries whose kernels had to be compiled.",
       METRIC_COUNTER, NULL, NULL, 0, NULL, 0},
      {"starq_connections", "SQL sessions open now.", METRIC_GAUGE, NULL, NULL, 0, NULL, 0},
      {"starq_connections_total", "SQL sessions accepted since start.", METRIC_COUNTER, NULL,
       NULL, 0, NULL, 0},
      {"starq_queries_running", "Queries on the device now.", METRIC_GAUGE, NULL, NULL, 0, NULL,
       0},
      {"starq_queries_queued", "Queries waiting for the device.", METRIC_GAUGE, NULL, NULL, 0,
       NULL, 0},
      {"starq_device_memory_used_bytes", "Device memory in use.", METRIC_GAUGE, NULL, NULL, 0,
       NULL, 0},
      {"starq_device_memory_total_bytes", "Device memory in all.", METRIC_GAUGE, NULL, NULL, 0,
       NULL, 0},
      {"starq_pinned_memory_bytes", "Pinned host memory holding columns and buffers.",
       METRIC_GAUGE, NULL, NULL, 0, NULL, 0},
      {"starq_statements_total", "Statements finished, by how they ended.", METRIC_COUNTER,
       "outcome", azOutcome, QUERY_OUTCOME_N, NULL, 0},
      {"starq_worker_restarts_total", "Device workers started to replace one that ended.",
       METRIC_COUNTER, NULL, NULL, 0, NULL, 0},
      {"starq_worker_resident_memory_bytes", "Resident memory of the device worker.",
       METRIC_GAUGE, NULL, NULL, 0, NULL, 0},
      {"starq_connections_refused_total", "SQL connections refused or closed before login, by why.",
       METRIC_COUNTER, "reason", azRefusal, REFUSED_N, NULL, 0},
      {"starq_login_failures_total", "Failed authentications.", METRIC_COUNTER, NULL, NULL, 0,
       NULL, 0},
      {"process_resident_memory_bytes", "Resident memory size in bytes.", METRIC_GAUGE, NULL,
       NULL, 0, NULL, 0},
      {"process_virtual_memory_bytes", "Virtual memory size in bytes.", METRIC_GAUGE, NULL, NULL,
       0, NULL, 0},
      {"process_cpu_seconds_total", "Total user and system CPU time spent in seconds.",
       METRIC_COUNTER_TOTAL, NULL, NULL, 0, NULL, 0},
      {"process_open_fds", "Number of open file descriptors.", METRIC_GAUGE, NULL, NULL, 0, NULL,
       0},
      {"process_max_fds", "Maximum number of open file descriptors.", METRIC_GAUGE, NULL, NULL,
       0, NULL, 0},
      {"process_start_time_seconds", "Start time of the process since unix epoch in seconds.",
       METRIC_GAUGE, NULL, NULL, 0, NULL, 0},
      {"starq_strides_streamed_total", "Strides queries read from stride buffers.",
       METRIC_COUNTER, NULL, NULL, 0, NULL, 0},
      {"starq_strides_shared_total",
       "Strides queries read with other statements attached to one shared scan.",
       METRIC_COUNTER, NULL, NULL, 0, NULL, 0},
  };
  metric **apOut[] = {&p->pBuildInfo,     &p->pStartTime,     &p->pQueries,
                      &p->pQueryDuration, &p->pCompile,       &p->pBytesScanned,
                      &p->pCacheHits,     &p->pCacheMisses,   &p->pConnections,
                      &p->pConnectionsTotal, &p->pRunning,    &p->pQueued,
                      &p->pDeviceMemUsed, &p->pDeviceMemTotal, &p->pPinned,
                      &p->pStatements,    &p->pWorkerRestarts, &p->pWorkerRss,
                      &p->pRefused,       &p->pLoginFailures, &p->pProcRss,
                      &p->pProcVirtual,   &p->pProcCpu,       &p->pProcFds,
                      &p->pProcMaxFds,    &p->pProcStart,
                      &p->pStrides,       &p->pStridesShared};
  int rc = 0;
  _Static_assert(sizeof(aDef) / sizeof(aDef[0]) == sizeof(apOut) / sizeof(apOut[0]),
                 "one output field per family");

  memset(p, 0, sizeof(*p));
  p->pReg = metrics_new();
  if (p->pReg == NULL) {
    snprintf(zErr, nErr, "metrics: out of memory");
    return -1;
  }
  for (int i = 0; i < METRICS__N(aDef); i++) metrics__declare(p, apOut[i], &aDef[i], &rc, zErr, nErr);
  if (rc != 0) {
    metrics_starq_close(p);
    return -1;
  }
  metric_gauge_set(p->pBuildInfo, 0, 1);
  metric_gauge_set(p->pStartTime, 0, tStart);
  metric_gauge_set(p->pProcStart, 0, tStart);
  return 0;
}

void metrics_starq_close(metrics_starq *p) {
  metrics_free(p->pReg);
  memset(p, 0, sizeof(*p));
}

void metrics_starq_query_end(metrics_starq *p, query_outcome e, double secDuration,
                             uint64_t nBytesScanned) {
  metric_counter_add(p->pQueries, (int)e, 1);
  metric_histogram_observe(p->pQueryDuration, 0, secDuration);
  metric_counter_add(p->pBytesScanned, 0, nBytesScanned);
}

void metrics_starq_kernel_lookup(metrics_starq *p, int bHit, double secCompile) {
  if (bHit) {
    metric_counter_add(p->pCacheHits, 0, 1);
    return;
  }
  metric_counter_add(p->pCacheMisses, 0, 1);
  metric_histogram_observe(p->pCompile, 0, secCompile);
}

void metrics_starq_strides(metrics_starq *p, int nStride, int nShared) {
  metric_counter_add(p->pStrides, 0, (uint64_t)nStride);
  metric_counter_add(p->pStridesShared, 0, (uint64_t)nShared);
}

void metrics_starq_connection_open(metrics_starq *p) {
  metric_gauge_add(p->pConnections, 0, 1);
  metric_counter_add(p->pConnectionsTotal, 0, 1);
}

void metrics_starq_connection_close(metrics_starq *p) { metric_gauge_add(p->pConnections, 0, -1); }

void metrics_starq_statement_end(metrics_starq *p, query_outcome e) {
  metric_counter_add(p->pStatements, (int)e, 1);
}

void metrics_starq_refused(metrics_starq *p, metrics_refusal e) {
  metric_counter_add(p->pRefused, (int)e, 1);
}

void metrics_starq_login_failed(metrics_starq *p) { metric_counter_add(p->pLoginFailures, 0, 1); }

void metrics_starq_snapshot_fill(const metrics_starq *p, status_snapshot *pSnap) {
  for (int i = 0; i < QUERY_OUTCOME_N; i++) pSnap->anQuery[i] = metric_counter_get(p->pQueries, i);
  pSnap->nBytesScanned = metric_counter_get(p->pBytesScanned, 0);
  pSnap->nCacheHits = metric_counter_get(p->pCacheHits, 0);
  pSnap->nCacheMisses = metric_counter_get(p->pCacheMisses, 0);
  pSnap->secCompile = metric_histogram_sum(p->pCompile, 0);
  pSnap->nSessions = (int)metric_gauge_get(p->pConnections, 0);
  pSnap->nRunning = (int)metric_gauge_get(p->pRunning, 0);
  pSnap->nQueued = (int)metric_gauge_get(p->pQueued, 0);
  pSnap->nDeviceMemUsed = (int64_t)metric_gauge_get(p->pDeviceMemUsed, 0);
  pSnap->nDeviceMemTotal = (int64_t)metric_gauge_get(p->pDeviceMemTotal, 0);
  pSnap->nPinnedBytes = (int64_t)metric_gauge_get(p->pPinned, 0);
}
