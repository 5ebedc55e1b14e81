/*
** clients/cli/explain.c — \explain: after each SELECT's rows, its plan and
** what the server says it cost.
**
** Two queries of the client's own follow a SELECT that succeeded: first
** SHOW starq.last_query (the session's previous SELECT, as JSON: times by
** phase, compile and cache, each kernel's launches and time, bytes
** scanned, the measured bandwidths), then EXPLAIN VERBOSE of the same text
** (planning only: it does not replace the figures). The plan is printed
** up to the generated kernel source, which EXPLAIN VERBOSE itself shows
** for whoever wants it. The floors are the fact bytes over the bandwidths
** the server measured at start: what reading them takes at best over PCIe
** (zero-copy) or from device memory; unknown (0) on the CPU backend.
**
** INTERFACE ROUTINES
**   sq_explain_after   print the plan and figures of the SELECT just run
*/
#include <stdlib.h>
#include <string.h>

#include "../../common/jsonread.h"
#include "cli.h"

/* Where EXPLAIN VERBOSE stops being plan and starts being kernel source. */
#define EXPLAIN_SOURCE_MARK "Generated source"

/* Appends a duration in seconds as milliseconds. */
static void explain_ms(strbuf *p, double rSec) {
  strbuf_printf(p, "%.3f ms", rSec * 1000.0);
}

/* Appends a floor: the bytes over a bandwidth, or "unknown". */
static void explain_floor(strbuf *p, const char *zName, double rBytes, double rBw) {
  char zBw[32];
  strbuf_printf(p, "%s ", zName);
  if (rBw <= 0) {
    strbuf_puts(p, "unknown");
    return;
  }
  explain_ms(p, rBytes / rBw);
  strbuf_printf(p, " at %s/s", sq_bytes_text(zBw, sizeof(zBw), rBw));
}

/* Returns the length of z without the blanks and ';' at its end. */
static size_t explain_trimmed(const char *z) {
  size_t n = strlen(z);
  while (n > 0 && (z[n - 1] == ';' || z[n - 1] == ' ' || z[n - 1] == '\n' || z[n - 1] == '\t')) n--;
  return n;
}

/* Returns 1 if the SQL text the server recorded (zRec, maybe cut) is the
** statement zSql, ignoring blanks and ';' at the end. */
static int explain_same_sql(const char *zRec, int bCut, const char *zSql) {
  size_t nRec = explain_trimmed(zRec), nSql = explain_trimmed(zSql);
  if (bCut) return nRec <= nSql && memcmp(zRec, zSql, nRec) == 0;
  return nRec == nSql && memcmp(zRec, zSql, nRec) == 0;
}

/* Appends the figures of the last_query JSON object q. */
static void explain_figures(strbuf *p, const json_value *q) {
  const json_value *pKernels = json_get(q, "kernels"), *pCols = json_get(q, "columns");
  double rFact = json_num(json_get(q, "fact_bytes"), 0);
  double nStride = json_num(json_get(q, "strides"), 0);
  const char *zTier = json_str(json_get(q, "tier"), "");
  char zBytes[32], zFact[32];
  strbuf_puts(p, "Server: ");
  explain_ms(p, json_num(json_get(q, "seconds"), 0));
  strbuf_printf(p, " for %.0f row%s: prepare ", json_num(json_get(q, "rows"), 0),
                json_num(json_get(q, "rows"), 0) == 1 ? "" : "s");
  explain_ms(p, json_num(json_get(q, "prepare_seconds"), 0));
  strbuf_puts(p, ", compile ");
  explain_ms(p, json_num(json_get(q, "compile_seconds"), 0));
  strbuf_printf(p, " (%s%s)", json_bool_get(json_get(q, "cached"), 0) ? "cached" : "compiled",
                strcmp(zTier, "generic") == 0 ? ", generic kernels" : "");
  strbuf_puts(p, ", kernels ");
  explain_ms(p, json_num(json_get(q, "kernel_seconds"), 0));
  strbuf_puts(p, ", output ");
  explain_ms(p, json_num(json_get(q, "output_seconds"), 0));
  strbuf_puts(p, "\n");
  if (pKernels != NULL && pKernels->eKind == JSON_ARRAY && pKernels->n > 0) {
    int nName = 0;
    for (int i = 0; i < pKernels->n; i++) {
      int n = (int)strlen(json_str(json_get(&pKernels->a[i], "name"), "?"));
      if (n > nName) nName = n;
    }
    strbuf_puts(p, "Kernels:\n");
    for (int i = 0; i < pKernels->n; i++) {
      const json_value *k = &pKernels->a[i];
      double nLaunch = json_num(json_get(k, "launches"), 0);
      strbuf_printf(p, "  %-*s  %6.0f launch%s  ", nName, json_str(json_get(k, "name"), "?"),
                    nLaunch, nLaunch == 1 ? "  " : "es");
      strbuf_printf(p, "%10.3f ms\n", json_num(json_get(k, "seconds"), 0) * 1000.0);
    }
  }
  strbuf_printf(p, "Scanned: %s (fact table %s); columns %.0f pinned, %.0f resident, "
                   "%.0f streamed; %.0f stride%s\n",
                sq_bytes_text(zBytes, sizeof(zBytes), json_num(json_get(q, "bytes_scanned"), 0)),
                sq_bytes_text(zFact, sizeof(zFact), rFact), json_num(json_get(pCols, "pinned"), 0),
                json_num(json_get(pCols, "resident"), 0), json_num(json_get(pCols, "streamed"), 0),
                nStride, nStride == 1 ? "" : "s");
  strbuf_puts(p, "Floors: ");
  explain_floor(p, "PCIe (zero-copy)", rFact,
                json_num(json_get(q, "zero_copy_bytes_per_second"), 0));
  strbuf_puts(p, ", ");
  explain_floor(p, "device memory", rFact, json_num(json_get(q, "device_bytes_per_second"), 0));
  strbuf_printf(p, "\nBackend: %s (%s)\n", json_str(json_get(q, "backend"), "?"),
                json_str(json_get(q, "device"), "?"));
}

/* Appends the server's figures of zSql from SHOW starq.last_query, or why
** there are none. Returns 0, or -1 if the query failed (reported). */
static int explain_last_query(sq_session *s, strbuf *p, const char *zSql) {
  PGresult *res = sq_run_hidden(s, "SHOW starq.last_query");
  json_value *q = NULL;
  char zErr[256];
  if (res == NULL) return -1;
  if (PQntuples(res) != 1 || PQnfields(res) != 1) {
    strbuf_puts(p, "Server: no figures (SHOW starq.last_query gave no row)\n");
  } else if (json_parse(PQgetvalue(res, 0, 0), (size_t)PQgetlength(res, 0, 0), &q, zErr,
                        sizeof(zErr)) != 0) {
    strbuf_printf(p, "Server: no figures (SHOW starq.last_query is not JSON: %s)\n", zErr);
  } else if (strcmp(json_str(json_get(q, "status"), ""), "ok") != 0 ||
             !explain_same_sql(json_str(json_get(q, "sql"), ""),
                               json_bool_get(json_get(q, "sql_truncated"), 0), zSql)) {
    strbuf_puts(p, "Server: no figures for this statement (it ran no query on the device)\n");
  } else {
    explain_figures(p, q);
  }
  json_value_free(q);
  PQclear(res);
  return 0;
}

/* Appends the plan of zSql, up to its generated source. Returns 0, or -1
** if EXPLAIN failed (reported, with the position moved back into zSql). */
static int explain_plan(sq_session *s, strbuf *p, const char *zSql) {
  static const char zPrefix[] = "EXPLAIN VERBOSE ";
  strbuf sql;
  PGresult *res;
  int rc = 0;
  strbuf_init(&sql);
  strbuf_printf(&sql, "%s%s", zPrefix, zSql);
  if (strbuf_error(&sql)) {
    strbuf_free(&sql);
    sq_report(s, "out of memory");
    return -1;
  }
  sq_cancel_begin(s);
  res = PQexec(s->pConn, strbuf_str(&sql));
  sq_cancel_end();
  if (res != NULL && PQresultStatus(res) == PGRES_TUPLES_OK) {
    strbuf_puts(p, "Plan (EXPLAIN VERBOSE):\n");
    for (int r = 0; r < PQntuples(res); r++) {
      const char *zLine = PQgetvalue(res, r, 0);
      if (strncmp(zLine, EXPLAIN_SOURCE_MARK, strlen(EXPLAIN_SOURCE_MARK)) == 0) break;
      strbuf_printf(p, "  %s\n", zLine);
    }
  } else if (res != NULL && PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) != NULL) {
    sq_errinfo e;
    strbuf msg;
    sq_error_from_result(&e, res, zSql);
    e.iPosition -= (int)strlen(zPrefix);
    strbuf_init(&msg);
    sq_error_format(&msg, &e);
    sq_report_text(s, strbuf_str(&msg));
    strbuf_free(&msg);
    rc = -1;
  } else {
    sq_error_report(s, res, strbuf_str(&sql));
    rc = -1;
  }
  PQclear(res);
  strbuf_free(&sql);
  if (sq_conn_check(s) != 0) rc = -1;
  return rc;
}

/* Prints, after the rows of the SELECT zSql, its plan and the server's
** figures. Returns 0, or -1 if a query of its own failed (reported). */
int sq_explain_after(sq_session *s, const char *zSql) {
  strbuf plan, figures;
  int rc;
  strbuf_init(&plan);
  strbuf_init(&figures);
  /* The figures first: they are the statement's only until the next query. */
  rc = explain_last_query(s, &figures, zSql);
  if (rc == 0) rc = explain_plan(s, &plan, zSql);
  if (strbuf_error(&plan) || strbuf_error(&figures)) {
    sq_report(s, "out of memory");
    rc = -1;
  } else if (rc == 0) {
    fprintf(s->pOut, "%s%s\n", strbuf_str(&plan), strbuf_str(&figures));
    fflush(s->pOut);
  }
  strbuf_free(&plan);
  strbuf_free(&figures);
  return rc;
}
