/*
** server/stmt-stats.c — the server's own figures as SQL answers, for the
** clients: SHOW starq.last_query (what the session's previous query cost,
** as JSON) and SHOW starq.status (the status port's /status document).
**
** The last query's JSON is built on the executor thread when a SELECT or
** EXPLAIN ANALYZE ends and travels back to the session in its settings
** (stmt_settings.zLastQuery), as a SET's new values do: the session
** owns it, and no other thread reads it. Fields (seconds and bytes):
**
**   {"status":"ok","sql":"SELECT ...","sql_truncated":false,"rows":5,
**    "seconds":0.0031,"compile_seconds":0,"cached":true,"tier":"optimized",
**    "prepare_seconds":..,"kernel_seconds":..,"output_seconds":..,
**    "bytes_scanned":123456,"fact_bytes":120000,
**    "columns":{"pinned":3,"resident":0,"streamed":1},"strides":1,
**    "kernels":[{"name":"scan","launches":1,"seconds":0.0021}],
**    "backend":"cuda","device":"NVIDIA H100 80GB HBM3",
**    "zero_copy_bytes_per_second":5.07e10,"device_bytes_per_second":3.06e12}
**
** and for a failed one "status":"error" with "sqlstate" and "message".
** "tier" is "generic" when the shape's first run went to the generic
** kernels (starq.generic_kernels) while its own compiled in the
** background, else "optimized" (its own kernels); with "cached" false the
** query waited for a compile.
** "seconds" is the server's whole execution (plan, compile, kernels,
** output; not the network); the floors of a query are fact_bytes divided
** by the two bandwidths, which the server measured when it started (0:
** unknown).
**
** The status document is rendered on the loop thread as the job comes
** back (stmt_job_finish asks stmt_ctx.xStatusJson for SHOW
** starq.status): the snapshot reads state only that thread may.
**
** INTERFACE ROUTINES
**   stmt_last_query_set   record a query's outcome for the session
**   stmt_show_starq       answer SHOW of the two names, if it is one
**   stmt_job_finish       the status's answer, on the loop thread
**   stmt_sql_elided       a statement's text with its literals as $n
*/
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/json.h"
#include "../parser/parser.h"
#include "stmt.h"

/* SQL text kept in the JSON, at most; cut on a UTF-8 boundary. */
#define ENGINE_LAST_SQL_MAX 1024

/* Writes the SQL text, cut to ENGINE_LAST_SQL_MAX bytes. */
static void stmt_last_sql(json_writer *w, const char *zSql) {
  size_t n = strlen(zSql);
  int bCut = n > ENGINE_LAST_SQL_MAX;
  if (bCut) {
    n = ENGINE_LAST_SQL_MAX;
    while (n > 0 && ((unsigned char)zSql[n] & 0xC0) == 0x80) n--;
  }
  json_key(w, "sql");
  json_string_n(w, zSql, n);
  json_field_bool(w, "sql_truncated", bCut);
}

char *stmt_sql_elided(const char *zSql) {
  strbuf s;
  int nParam = 0;
  const char *z;
  sql_token_class e;
  /* The markers it has already: the literals' are numbered after them. */
  for (z = zSql; *z != 0;) {
    int n = sql_token_next(z, &e);
    if (n <= 0) break;
    if (e == SQL_TOKEN_PARAM && atoi(z + 1) > nParam) nParam = atoi(z + 1);
    z += n;
  }
  strbuf_init(&s);
  for (z = zSql; *z != 0;) {
    int n = sql_token_next(z, &e);
    if (n <= 0) break;
    if (e == SQL_TOKEN_STRING || e == SQL_TOKEN_NUMBER) {
      strbuf_printf(&s, "$%d", ++nParam);
    } else {
      strbuf_append(&s, z, (size_t)n);
    }
    z += n;
  }
  if (strbuf_error(&s)) {
    strbuf_free(&s);
    return NULL;
  }
  return strbuf_take(&s);
}

/* The figures of a result. */
static void stmt_last_result(json_writer *w, const exec_result *r) {
  json_field_int(w, "rows", r->nRow);
  json_field_double(w, "compile_seconds", r->rCompileSeconds);
  json_field_bool(w, "cached", r->bCacheHit);
  json_field_string(w, "tier", r->bGeneric ? "generic" : "optimized");
  json_field_double(w, "prepare_seconds", r->rPrepareSeconds);
  json_field_double(w, "kernel_seconds", r->rKernelSeconds);
  json_field_double(w, "output_seconds", r->rOutputSeconds);
  json_field_uint(w, "bytes_scanned", r->nColumnBytes);
  json_field_uint(w, "fact_bytes", r->nFactBytes);
  json_key(w, "columns");
  json_object_begin(w);
  json_field_int(w, "pinned", r->nColPinned);
  json_field_int(w, "resident", r->nColResident);
  json_field_int(w, "streamed", r->nColStreamed);
  json_object_end(w);
  json_field_int(w, "strides", r->nStride);
  json_field_int(w, "shared_with", r->nShareWith);
  json_field_int(w, "shared_strides", r->nShareStride);
  json_key(w, "kernels");
  json_array_begin(w);
  for (int i = 0; i < r->nKernel; i++) {
    json_object_begin(w);
    json_field_string(w, "name", r->aKernel[i].zName);
    json_field_int(w, "launches", r->aKernel[i].nLaunch);
    json_field_double(w, "seconds", r->aKernel[i].rSeconds);
    json_object_end(w);
  }
  json_array_end(w);
}

void stmt_last_query_set(stmt_job *j, const exec_result *r, double secs) {
  executor_device dev;
  strbuf s;
  json_writer w;
  strbuf_init(&s);
  json_init(&w, &s);
  json_object_begin(&w);
  if (j->out.eKind == PG_OUTCOME_ERROR) {
    json_field_string(&w, "status", "error");
    json_field_string(&w, "sqlstate", j->zState);
    json_field_string(&w, "message", j->zMsg);
  } else {
    json_field_string(&w, "status", "ok");
  }
  stmt_last_sql(&w, j->zSql);
  json_field_double(&w, "seconds", secs);
  if (r != NULL && j->out.eKind != PG_OUTCOME_ERROR) stmt_last_result(&w, r);
  executor_backend_info(j->pCtx->ex, &dev);
  json_field_string(&w, "backend", dev.zBackend);
  json_field_string(&w, "device", dev.zName);
  json_field_double(&w, "zero_copy_bytes_per_second", dev.bw.rZeroCopy);
  json_field_double(&w, "device_bytes_per_second", dev.bw.rDevice);
  json_object_end(&w);
  /* It fits: the SQL is cut to a quarter of the room (escaped, at most six
  ** bytes a byte would not fit; so a longer text goes whole or not at all). */
  if (json_error(&w) || s.n >= sizeof(j->set.zLastQuery)) {
    snprintf(j->set.zLastQuery, sizeof(j->set.zLastQuery),
             "{\"status\":\"%s\",\"sql_truncated\":true,\"seconds\":%.9g}",
             j->out.eKind == PG_OUTCOME_ERROR ? "error" : "ok", secs);
  } else {
    memcpy(j->set.zLastQuery, s.z, s.n + 1);
  }
  j->bSettingsChanged = 1;
  strbuf_free(&s);
}

/* Answers SHOW zName with the one value zValue. */
static void stats_show_value(stmt_job *j, const char *zName, const char *zValue) {
  coltype t = {COLTYPE_TEXT, 0, 0, 0};
  const char *az[1] = {zValue}, *azName[1] = {zName};
  stmt_text *pText = stmt_text_new(1);
  snprintf(j->zTag, sizeof(j->zTag), "SHOW");
  j->out.zTag = j->zTag;
  if (pText == NULL || stmt_text_row(pText, az) != 0) {
    if (pText != NULL) stmt_text_ops.xFree(pText);
    stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return;
  }
  stmt_job_rows(j, 1, azName, &t, &stmt_text_ops, pText);
}

int stmt_show_starq(stmt_job *j, const char *zName) {
  if (strcasecmp(zName, "starq.last_query") == 0) {
    stats_show_value(j, zName, j->set.zLastQuery[0] ? j->set.zLastQuery : "{\"status\":\"none\"}");
  } else if (strcasecmp(zName, "starq.status") == 0) {
    j->bWantStatus = 1;
  } else {
    return 0;
  }
  return 1;
}

void stmt_job_finish(stmt_job *j) {
  char *zJson;
  if (!j->bWantStatus) return;
  j->bWantStatus = 0;
  zJson = j->pCtx->xStatusJson != NULL ? j->pCtx->xStatusJson(j->pCtx->pStatusArg) : NULL;
  if (zJson == NULL) {
    stmt_job_error(j, SQLSTATE_INTERNAL_ERROR, -1, "the server's status is not available");
    return;
  }
  stats_show_value(j, "starq.status", zJson);
  free(zJson);
}
