/*
** clients/cli/status.c — \status: the server's state, from SHOW
** starq.status (the JSON document the status port serves at /status, see
** server/status.h), made readable: version and uptime, backend and
** device, memory, sessions and queries, the kernel cache, then a table of
** the tables (rows, bytes pinned in host memory and resident on the
** device) and the most recent queries.
**
** Fields the document lacks print as 0 or "?": an older or newer server
** still gets a summary.
**
** INTERFACE ROUTINES
**   sq_status_print   \status
*/
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/jsonread.h"
#include "cli.h"

/* Recent queries \status lists. */
#define STATUS_RECENT_SHOWN 5
/* SQL text shown of each, in characters. */
#define STATUS_SQL_SHOWN 60

/* Appends an uptime in seconds as "3 d 04:05:06" or "12.5 s". */
static void status_uptime(strbuf *p, double rSec) {
  long n = (long)rSec;
  if (rSec < 60) strbuf_printf(p, "%.1f s", rSec);
  else if (n < 86400) strbuf_printf(p, "%02ld:%02ld:%02ld", n / 3600, n / 60 % 60, n % 60);
  else strbuf_printf(p, "%ld d %02ld:%02ld:%02ld", n / 86400, n / 3600 % 24, n / 60 % 60, n % 60);
}

/* Appends the summary lines of the document d. */
static void status_summary(strbuf *p, const json_value *d) {
  const json_value *pDev = json_get(d, "device"), *pQ = json_get(d, "queries");
  const json_value *pCache = json_get(d, "kernel_cache");
  char zA[32], zB[32], zC[32], zD[32];
  double rZc = json_num(json_get(pDev, "floor_bytes_per_second"), 0);
  double rDm = json_num(json_get(pDev, "device_floor_bytes_per_second"), 0);
  strbuf_printf(p, "starq %s, up ", json_str(json_get(d, "version"), "?"));
  status_uptime(p, json_num(json_get(d, "uptime_seconds"), 0));
  strbuf_printf(p, ", %s\n", json_bool_get(json_get(d, "ready"), 0) ? "ready" : "not ready");
  strbuf_printf(p, "Backend: %s (%s)\n", json_str(json_get(pDev, "backend"), "?"),
                json_str(json_get(pDev, "name"), "?"));
  strbuf_printf(p, "Memory: device %s used of %s (%s resident columns), pinned host %s\n",
                sq_bytes_text(zA, sizeof(zA), json_num(json_get(pDev, "memory_used_bytes"), 0)),
                sq_bytes_text(zB, sizeof(zB), json_num(json_get(pDev, "memory_total_bytes"), 0)),
                sq_bytes_text(zC, sizeof(zC), json_num(json_get(pDev, "resident_bytes"), 0)),
                sq_bytes_text(zD, sizeof(zD), json_num(json_get(pDev, "pinned_bytes"), 0)));
  strbuf_puts(p, "Bandwidth: zero-copy (PCIe) ");
  strbuf_puts(p, rZc > 0 ? sq_bytes_text(zA, sizeof(zA), rZc) : "unknown");
  strbuf_puts(p, rZc > 0 ? "/s, device memory " : ", device memory ");
  strbuf_puts(p, rDm > 0 ? sq_bytes_text(zB, sizeof(zB), rDm) : "unknown");
  strbuf_puts(p, rDm > 0 ? "/s\n" : "\n");
  strbuf_printf(p, "Sessions: %.0f; queries: %.0f running, %.0f queued; %.0f done (%.0f ok, "
                   "%.0f failed, %.0f cancelled), %s scanned\n",
                json_num(json_get(d, "sessions"), 0), json_num(json_get(pQ, "running"), 0),
                json_num(json_get(pQ, "queued"), 0), json_num(json_get(pQ, "total"), 0),
                json_num(json_get(pQ, "ok"), 0), json_num(json_get(pQ, "error"), 0),
                json_num(json_get(pQ, "cancelled"), 0),
                sq_bytes_text(zA, sizeof(zA), json_num(json_get(pQ, "bytes_scanned_total"), 0)));
  strbuf_printf(p, "Kernel cache: %.0f hits, %.0f misses, %.3f s compiling\n",
                json_num(json_get(pCache, "hits"), 0), json_num(json_get(pCache, "misses"), 0),
                json_num(json_get(pCache, "compile_seconds"), 0));
}

/* Prints the table of tables: name, rows, bytes pinned and resident. */
static int status_tables(sq_session *s, const json_value *pTables) {
  static const char *azHeader[] = {"Table", "Rows", "Pinned", "Resident"};
  int n = pTables != NULL && pTables->eKind == JSON_ARRAY ? pTables->n : 0, rc;
  char *azText = calloc((size_t)n * 3 + 1, 32);
  const char **azCell = calloc((size_t)n * 4 + 1, sizeof(char *));
  sq_table t;
  if (azText == NULL || azCell == NULL) {
    free(azText);
    free(azCell);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    const json_value *pT = &pTables->a[i];
    char *z = azText + (size_t)i * 96;
    snprintf(z, 32, "%.0f", json_num(json_get(pT, "rows"), 0));
    azCell[i * 4 + 0] = json_str(json_get(pT, "name"), "?");
    azCell[i * 4 + 1] = z;
    azCell[i * 4 + 2] = sq_bytes_text(z + 32, 32, json_num(json_get(pT, "bytes_pinned"), 0));
    azCell[i * 4 + 3] = sq_bytes_text(z + 64, 32, json_num(json_get(pT, "bytes_resident"), 0));
  }
  memset(&t, 0, sizeof(t));
  t.nCol = 4;
  t.nRow = n;
  t.azHeader = azHeader;
  t.azCell = azCell;
  t.acAlign = "lrrr";
  t.bNoExpand = 1;
  rc = sq_print_table(s->pOut, &t, &s->popt);
  free(azText);
  free(azCell);
  return rc;
}

/* Appends the newest recent queries: duration, rows, outcome, SQL. */
static void status_recent(strbuf *p, const json_value *pRecent) {
  if (pRecent == NULL || pRecent->eKind != JSON_ARRAY || pRecent->n == 0) return;
  strbuf_puts(p, "Recent queries (newest first):\n");
  for (int i = 0; i < pRecent->n && i < STATUS_RECENT_SHOWN; i++) {
    const json_value *q = &pRecent->a[i];
    const char *zSql = json_str(json_get(q, "sql"), "");
    int nChar = 0, nByte = 0;
    /* Cut the text on a character boundary; one line of it. */
    while (zSql[nByte] && zSql[nByte] != '\n' && nChar < STATUS_SQL_SHOWN) {
      unsigned cp;
      nByte += sq_utf8_decode(zSql + nByte, strlen(zSql + nByte), &cp);
      nChar++;
    }
    double nRow = json_num(json_get(q, "rows"), 0);
    strbuf_printf(p, "  %10.3f ms %8.0f row%s  %-9s %.*s%s\n",
                  json_num(json_get(q, "duration_seconds"), 0) * 1000.0, nRow,
                  nRow == 1 ? " " : "s", json_str(json_get(q, "status"), "?"), nByte, zSql,
                  zSql[nByte] ? " ..." : "");
  }
}

/* \status: SHOW starq.status, summarised. Returns SQ_META_OK, or
** SQ_META_ERROR (reported). */
sq_meta sq_status_print(sq_session *s) {
  PGresult *res = sq_run_hidden(s, "SHOW starq.status");
  json_value *d = NULL;
  char zErr[256];
  strbuf head, tail;
  sq_meta e = SQ_META_OK;
  if (res == NULL) return SQ_META_ERROR;
  zErr[0] = 0;
  if (PQntuples(res) != 1 || PQnfields(res) != 1 ||
      json_parse(PQgetvalue(res, 0, 0), (size_t)PQgetlength(res, 0, 0), &d, zErr,
                 sizeof(zErr)) != 0) {
    sq_report(s, "\\status: the server's status is not a JSON document%s%s",
              PQntuples(res) == 1 ? ": " : "", PQntuples(res) == 1 ? zErr : "");
    PQclear(res);
    return SQ_META_ERROR;
  }
  strbuf_init(&head);
  strbuf_init(&tail);
  status_summary(&head, d);
  status_recent(&tail, json_get(d, "recent"));
  if (strbuf_error(&head) || strbuf_error(&tail)) {
    sq_report(s, "out of memory");
    e = SQ_META_ERROR;
  } else {
    fprintf(s->pOut, "%s\n", strbuf_str(&head));
    if (status_tables(s, json_get(d, "tables")) != 0) {
      sq_report(s, "out of memory");
      e = SQ_META_ERROR;
    }
    fputs(strbuf_str(&tail), s->pOut);
    if (tail.n > 0) fputc('\n', s->pOut);
    fflush(s->pOut);
  }
  strbuf_free(&head);
  strbuf_free(&tail);
  json_value_free(d);
  PQclear(res);
  return e;
}
