/*
** server/status.h — what GET /status reports: a snapshot of the server's
** state as a plain struct that the daemon fills, the ring of recently
** finished queries that executor threads append to, and the snapshot's
** JSON rendering.
**
** The snapshot holds values and borrowed pointers only; the daemon fills
** it on the loop thread when a request for /status comes, from state that
** lives on that thread or is read atomically (metrics-starq.h fills the
** counters), and the pointers need to stay valid only until the rendering
** returns. The ring is the one piece written from other threads: a
** mutex guards it, held for a copy of one entry at a time.
**
** The JSON (times are Unix seconds, durations seconds, sizes bytes):
**
**   {"version":"0.1.0","start_time":1.7e9,"now":1.7e9,"uptime_seconds":12.5,
**    "ready":true,
**    "device":{"backend":"cuda","name":"NVIDIA H100","memory_used_bytes":0,
**              "memory_total_bytes":0,"pinned_bytes":0,"resident_bytes":0,
**              "floor_bytes_per_second":5.07e10,
**              "device_floor_bytes_per_second":3.06e12},
**    "tables":[{"name":"lineorder","rows":6001171,"bytes_pinned":0,
**               "bytes_resident":0}],
**    "sessions":3,
**    "queries":{"running":1,"queued":0,"total":40,"ok":38,"error":1,
**               "cancelled":1,"timeout":0,"disconnected":0,
**               "bytes_scanned_total":123456},
**    "kernel_cache":{"hits":30,"misses":10,"compile_seconds":4.2},
**    "recent":[{"id":40,"sql":"SELECT ...","sql_truncated":false,
**               "start_time":1.7e9,"duration_seconds":0.012,"rows":7,
**               "bytes_scanned":123456,"bytes_per_second":1.0e10,
**               "status":"ok"}, ...newest first]}
**
** INTERFACE ROUTINES
**   query_outcome_name         "ok", "error", "cancelled", "timeout", ...
**   status_recent_new / status_recent_free   the ring
**   status_recent_add          one finished query (any thread)
**   status_recent_copy         the newest entries, newest first
**   status_json_render         the snapshot as JSON
*/
#ifndef STARQ_STATUS_H
#define STARQ_STATUS_H

#include <stddef.h>
#include <stdint.h>

#include "../common/strbuf.h"
#include "../runtime/colmem.h"

/* Bytes of SQL text kept for a recent query, NUL included; longer text is
** cut on a UTF-8 character boundary and flagged. */
#define STATUS_SQL_MAX 512
/* Recent queries the ring holds by default. */
#define STATUS_RECENT_DEFAULT 128

/* How a query or statement ended: the values of starq_queries_total's
** status label and starq_statements_total's outcome label. Whatever the
** executor reported, a statement the session stopped waiting for counts
** by why: a CancelRequest (or shutdown), statement_timeout, or the client
** gone. */
typedef enum query_outcome {
  QUERY_OK,
  QUERY_ERROR,
  QUERY_CANCELLED,
  QUERY_TIMEOUT,
  QUERY_DISCONNECTED,
  QUERY_OUTCOME_N
} query_outcome;

/* Returns "ok", "error", "cancelled", "timeout" or "disconnected"
** ("error" for a bad value). */
const char *query_outcome_name(query_outcome e);

/* One finished query, as the ring keeps it. */
typedef struct status_query status_query;
struct status_query {
  uint64_t iSeq;                /* 1, 2, ... in the order added; set by the ring */
  char zSql[STATUS_SQL_MAX];    /* the SQL text, NUL-terminated, maybe cut */
  int bTruncated;               /* zSql was cut */
  double tStart;                /* when it started, Unix seconds */
  double secDuration;           /* how long it took, seconds */
  int64_t nRows;                /* rows returned */
  int64_t nBytesScanned;        /* column bytes read */
  query_outcome eOutcome;
};

/* The ring of recent queries: private; safe to add to and copy from any
** thread at once. */
typedef struct status_recent status_recent;

/* Makes a ring holding the last nCapacity queries (STATUS_RECENT_DEFAULT
** when 0). Returns 0, or -1 if out of memory. */
int status_recent_new(status_recent **pp, int nCapacity);
void status_recent_free(status_recent *p);

/* Adds a finished query, pushing out the oldest when full. zSql may be
** NULL (no text) and any bytes; it is copied. */
void status_recent_add(status_recent *p, const char *zSql, double tStart, double secDuration,
                       int64_t nRows, int64_t nBytesScanned, query_outcome eOutcome);

/* Copies the newest entries, newest first, up to nMax, into a. Returns
** how many were copied. */
int status_recent_copy(status_recent *p, status_query *a, int nMax);

/* One table's place in memory. */
typedef struct status_table status_table;
struct status_table {
  const char *zName;            /* borrowed */
  int64_t nRows;
  int64_t nBytesPinned;         /* column bytes in pinned host memory */
  int64_t nBytesResident;       /* column bytes cached in device memory */
};

/* The server's state at one moment, filled by the daemon; every pointer is
** borrowed and may be NULL (written as null, or as no entries). */
typedef struct status_snapshot status_snapshot;
struct status_snapshot {
  /* The server */
  const char *zVersion;
  double tStart;                /* when the daemon started, Unix seconds */
  double tNow;                  /* when this snapshot was taken, Unix seconds */
  int bReady;                   /* catalog and device ready (GET /readyz) */

  /* The device */
  const char *zBackend;         /* "cuda" or "cpu" */
  const char *zDevice;          /* the device's name */
  int64_t nDeviceMemUsed;       /* bytes */
  int64_t nDeviceMemTotal;      /* bytes */
  int64_t nPinnedBytes;         /* pinned host memory in use */
  int64_t nResidentBytes;       /* column bytes resident in device memory */
  int eWarm;                    /* COLMEM_WARM_*: the device cache's warm-up */
  int64_t nWarmDone, nWarmTotal;   /* its bytes of column files done, of all */
  double floorBytesPerSec;      /* the zero-copy (PCIe) floor, measured at
                                ** start; 0 when unknown */
  double deviceFloorBytesPerSec;  /* the device-memory floor; 0 when unknown */

  /* Tables */
  const status_table *aTable;   /* nTable of them */
  int nTable;

  /* Load */
  int nSessions;                /* open SQL sessions */
  int nRunning;                 /* queries on the device now */
  int nQueued;                  /* queries waiting for it */
  uint64_t anQuery[QUERY_OUTCOME_N];  /* queries finished, by outcome */
  uint64_t nBytesScanned;       /* column bytes read by all queries */

  /* The kernel cache */
  uint64_t nCacheHits;
  uint64_t nCacheMisses;
  double secCompile;            /* time spent compiling kernels */

  /* Recent queries */
  status_recent *pRecent;       /* the ring, or NULL */
  int nRecentMax;               /* entries to show; 0: all the ring has */
};

/* Appends the snapshot as one JSON object (the shape above) to pOut.
** Returns 0, or -1 if out of memory. */
int status_json_render(const status_snapshot *p, strbuf *pOut);

/* "none", "warming" or "warm": a COLMEM_WARM_* as /status names it. */
const char *status_warm_name(int eWarm);

#endif /* STARQ_STATUS_H */
