/*
** server/status.c — the JSON rendering of a status snapshot (status.h):
** the body of GET /status, and what the dashboard reads every second.
**
** Everything derived is derived here, once, so the dashboard and scripts
** need not: uptime from the two times, each recent query's bytes per
** second from its bytes and duration, and the total of queries.
*/
#include <stdlib.h>

#include "../common/json.h"
#include "status.h"

const char *status_warm_name(int eWarm) {
  switch (eWarm) {
    case COLMEM_WARM_RUNNING: return "warming";
    case COLMEM_WARM_DONE: return "warm";
    default: return "none";
  }
}

static void status__device(json_writer *w, const status_snapshot *p) {
  json_key(w, "device");
  json_object_begin(w);
  json_field_string(w, "backend", p->zBackend);
  json_field_string(w, "name", p->zDevice);
  json_field_int(w, "memory_used_bytes", p->nDeviceMemUsed);
  json_field_int(w, "memory_total_bytes", p->nDeviceMemTotal);
  json_field_int(w, "pinned_bytes", p->nPinnedBytes);
  json_field_int(w, "resident_bytes", p->nResidentBytes);
  json_field_string(w, "cache_warm", status_warm_name(p->eWarm));
  json_field_int(w, "warm_bytes_done", p->nWarmDone);
  json_field_int(w, "warm_bytes_total", p->nWarmTotal);
  json_field_double(w, "floor_bytes_per_second", p->floorBytesPerSec);
  json_field_double(w, "device_floor_bytes_per_second", p->deviceFloorBytesPerSec);
  json_object_end(w);
}

static void status__tables(json_writer *w, const status_snapshot *p) {
  json_key(w, "tables");
  json_array_begin(w);
  for (int i = 0; p->aTable != NULL && i < p->nTable; i++) {
    const status_table *t = &p->aTable[i];
    json_object_begin(w);
    json_field_string(w, "name", t->zName);
    json_field_int(w, "rows", t->nRows);
    json_field_int(w, "bytes_pinned", t->nBytesPinned);
    json_field_int(w, "bytes_resident", t->nBytesResident);
    json_object_end(w);
  }
  json_array_end(w);
}

static void status__queries(json_writer *w, const status_snapshot *p) {
  uint64_t nTotal = 0;
  for (int i = 0; i < QUERY_OUTCOME_N; i++) nTotal += p->anQuery[i];
  json_key(w, "queries");
  json_object_begin(w);
  json_field_int(w, "running", p->nRunning);
  json_field_int(w, "queued", p->nQueued);
  json_field_uint(w, "total", nTotal);
  for (int i = 0; i < QUERY_OUTCOME_N; i++) {
    json_field_uint(w, query_outcome_name((query_outcome)i), p->anQuery[i]);
  }
  json_field_uint(w, "bytes_scanned_total", p->nBytesScanned);
  json_object_end(w);
}

static void status__cache(json_writer *w, const status_snapshot *p) {
  json_key(w, "kernel_cache");
  json_object_begin(w);
  json_field_uint(w, "hits", p->nCacheHits);
  json_field_uint(w, "misses", p->nCacheMisses);
  json_field_double(w, "compile_seconds", p->secCompile);
  json_object_end(w);
}

static void status__query(json_writer *w, const status_query *q) {
  json_object_begin(w);
  json_field_uint(w, "id", q->iSeq);
  json_field_string(w, "sql", q->zSql);
  json_field_bool(w, "sql_truncated", q->bTruncated);
  json_field_double(w, "start_time", q->tStart);
  json_field_double(w, "duration_seconds", q->secDuration);
  json_field_int(w, "rows", q->nRows);
  json_field_int(w, "bytes_scanned", q->nBytesScanned);
  json_key(w, "bytes_per_second");
  if (q->secDuration > 0) {
    json_double(w, (double)q->nBytesScanned / q->secDuration);
  } else {
    json_null(w);
  }
  json_field_string(w, "status", query_outcome_name(q->eOutcome));
  json_object_end(w);
}

/* The ring is copied out first, so its lock is not held while writing. */
static int status__recent(json_writer *w, const status_snapshot *p) {
  status_query *a = NULL;
  int n = 0, nMax = p->nRecentMax > 0 ? p->nRecentMax : STATUS_RECENT_DEFAULT;
  if (p->pRecent != NULL) {
    a = malloc(sizeof(a[0]) * (size_t)nMax);
    if (a == NULL) return -1;
    n = status_recent_copy(p->pRecent, a, nMax);
  }
  json_key(w, "recent");
  json_array_begin(w);
  for (int i = 0; i < n; i++) status__query(w, &a[i]);
  json_array_end(w);
  free(a);
  return 0;
}

int status_json_render(const status_snapshot *p, strbuf *pOut) {
  json_writer w;
  json_init(&w, pOut);
  json_object_begin(&w);
  json_field_string(&w, "version", p->zVersion);
  json_field_double(&w, "start_time", p->tStart);
  json_field_double(&w, "now", p->tNow);
  json_field_double(&w, "uptime_seconds", p->tNow > p->tStart ? p->tNow - p->tStart : 0);
  json_field_bool(&w, "ready", p->bReady);
  status__device(&w, p);
  status__tables(&w, p);
  json_field_int(&w, "sessions", p->nSessions);
  status__queries(&w, p);
  status__cache(&w, p);
  if (status__recent(&w, p) != 0) return -1;
  json_object_end(&w);
  return json_error(&w) ? -1 : 0;
}
