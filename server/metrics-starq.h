/*
** server/metrics-starq.h — the metrics starqd exports at GET /metrics: the
** families issue 8 names, declared in one place, with one call for each
** thing that happens to the server.
**
**   starq_build_info{version}            gauge, always 1
**   starq_start_time_seconds             gauge, Unix time the daemon started
**   starq_queries_total{status}          counter; status ok|error|cancelled|
**                                        timeout|disconnected (SELECT, EXPLAIN ANALYZE)
**   starq_statements_total{outcome}      counter; every statement, the same outcomes
**   starq_query_duration_seconds         histogram, 100 us .. 60 s
**   starq_kernel_compile_seconds         histogram, 1 ms .. 60 s
**   starq_bytes_scanned_total            counter
**   starq_kernel_cache_hits_total        counter
**   starq_kernel_cache_misses_total      counter
**   starq_connections                    gauge, SQL sessions open now
**   starq_connections_total              counter, SQL sessions ever accepted
**   starq_queries_running / _queued      gauges
**   starq_device_memory_used_bytes       gauge
**   starq_device_memory_total_bytes      gauge
**   starq_pinned_memory_bytes            gauge
**   starq_worker_restarts_total          counter, device workers started after the first
**   starq_worker_resident_memory_bytes   gauge, the device worker's RSS
**   starq_connections_refused_total{reason}  counter; reason too_many_clients|
**                                        too_many_unauthenticated|starting_up|
**                                        shutting_down|authentication_timeout
**   starq_login_failures_total           counter, failed authentications
**   process_resident_memory_bytes, process_virtual_memory_bytes,
**   process_cpu_seconds_total, process_open_fds, process_max_fds,
**   process_start_time_seconds           the daemon's own, Prometheus's names
**                                        (metrics-process.c, read at each scrape)
**   starq_strides_streamed_total         counter, strides queries read from
**                                        stride buffers
**   starq_strides_shared_total           counter, of them read with other
**                                        statements attached to one scan
**
** The recording calls are safe from any thread (executor threads call
** metrics_starq_query_end and metrics_starq_kernel_lookup; the loop the
** connection calls). Gauges without a call of their own are set with
** metric_gauge_set() on the field: metric_gauge_set(m.pDeviceMemUsed, 0, n).
**
** INTERFACE ROUTINES
**   metrics_starq_open / metrics_starq_close
**   metrics_starq_query_end        a query finished
**   metrics_starq_kernel_lookup    the kernel cache was asked
**   metrics_starq_strides          a query streamed strides
**   metrics_starq_connection_open / metrics_starq_connection_close
**   metrics_starq_statement_end    a statement ended
**   metrics_starq_refused / metrics_starq_login_failed
**   metrics_starq_process_refresh  the process_* families and the worker's
**   metrics_starq_snapshot_fill    the counters a status snapshot shows
*/
#ifndef STARQ_METRICS_STARQ_H
#define STARQ_METRICS_STARQ_H

#include "metrics.h"
#include "status.h"

typedef struct metrics_starq metrics_starq;
struct metrics_starq {
  metrics *pReg;                /* owns every family below; render this */
  metric *pBuildInfo;
  metric *pStartTime;
  metric *pQueries;             /* label value index: a query_outcome */
  metric *pQueryDuration;
  metric *pCompile;
  metric *pBytesScanned;
  metric *pCacheHits;
  metric *pCacheMisses;
  metric *pConnections;
  metric *pConnectionsTotal;
  metric *pRunning;
  metric *pQueued;
  metric *pDeviceMemUsed;
  metric *pDeviceMemTotal;
  metric *pPinned;
  metric *pStatements;          /* label value index: a query_outcome */
  metric *pWorkerRestarts;
  metric *pWorkerRss;
  metric *pRefused;             /* label value index: a metrics_refusal */
  metric *pLoginFailures;
  metric *pProcRss;
  metric *pProcVirtual;
  metric *pProcCpu;
  metric *pProcFds;
  metric *pProcMaxFds;
  metric *pProcStart;
  metric *pStrides;
  metric *pStridesShared;
  uint64_t nWorkerRestartsSeen; /* the worker's count at the last refresh (loop) */
};

/* Why a connection was refused: starq_connections_refused_total's reason. */
typedef enum metrics_refusal {
  REFUSED_TOO_MANY = 0,         /* --max-connections sessions are in (53300) */
  REFUSED_UNAUTHENTICATED,      /* the slots for logins in progress are full */
  REFUSED_STARTING,             /* not ready yet (57P03) */
  REFUSED_SHUTTING_DOWN,        /* shutting down (57P01) */
  REFUSED_AUTH_TIMEOUT,         /* no login within --authentication-timeout */
  REFUSED_N
} metrics_refusal;

/* Declares every family in a new registry; zVersion is the build_info
** label and tStart (Unix seconds) the start time. Returns 0, or -1 with a
** message in zErr (out of memory). */
int metrics_starq_open(metrics_starq *p, const char *zVersion, double tStart, char *zErr,
                       size_t nErr);
void metrics_starq_close(metrics_starq *p);

/* A query ended: counts it under its outcome, observes its duration and
** adds the bytes it scanned. */
void metrics_starq_query_end(metrics_starq *p, query_outcome e, double secDuration,
                             uint64_t nBytesScanned);

/* The kernel cache was asked for a query's kernels: a hit, or a miss that
** compiled them in secCompile seconds. */
void metrics_starq_kernel_lookup(metrics_starq *p, int bHit, double secCompile);

/* A statement ended (any kind), as the session saw it. */
void metrics_starq_statement_end(metrics_starq *p, query_outcome e);

/* A connection was refused, or a login failed. */
void metrics_starq_refused(metrics_starq *p, metrics_refusal e);
void metrics_starq_login_failed(metrics_starq *p);

/* Sets the process_* gauges from /proc, and the device worker's restarts
** (nRestart: its count so far) and resident memory (iWorkerPid; 0: none).
** At each scrape, on the loop (metrics-process.c). */
void metrics_starq_process_refresh(metrics_starq *p, int iWorkerPid, uint64_t nRestart);
/* A query read nStride strides from stride buffers, nShared of them with
** other statements attached to the same shared scan. */
void metrics_starq_strides(metrics_starq *p, int nStride, int nShared);

/* A SQL session opened or closed. */
void metrics_starq_connection_open(metrics_starq *p);
void metrics_starq_connection_close(metrics_starq *p);

/* Fills the fields of a status snapshot that these metrics count:
** anQuery, nBytesScanned, nCacheHits, nCacheMisses, secCompile,
** nSessions, nRunning, nQueued, nDeviceMemUsed, nDeviceMemTotal and
** nPinnedBytes. The rest is the daemon's to fill. */
void metrics_starq_snapshot_fill(const metrics_starq *p, status_snapshot *pSnap);

#endif /* STARQ_METRICS_STARQ_H */
