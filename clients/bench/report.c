/*
** clients/bench/report.c — the single-client report: each query's times
** beside its floors, and a totals row, as an aligned Markdown table (to
** paste into bench/RESULTS.md, like bench/ssb-gpu's), CSV or JSON. Also
** the aligned-table printer and the number formatting report-mix.c uses.
**
** The figures, per query (bench_row):
**   client min / median / max   PQexec's wall time over the timed runs
**   server                      the median of the server's own times
**   fact bytes, GB/s            the fact table's column bytes read, and
**                               those over the server time
**   floors                      fact bytes over the PCIe (zero-copy) and
**                               the device-memory bandwidth the server
**                               measured at its start; "× floor" is the
**                               server time over the floor
** Unknown figures (no SHOW starq.last_query, or a bandwidth of 0 on the
** CPU backend) are NaN here, "–" in the table, empty in CSV and null in
** JSON. The totals row sums what is known over the queries that ran.
**
** INTERFACE ROUTINES
**   bench_rows_compute     outcomes to report rows
**   bench_report           the report in the chosen format
**   bench_table_init / _row / _render / _free   aligned tables
**   bench_fmt              a number, or "–"
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/json.h"
#include "bench.h"

/* ---- numbers and tables --------------------------------------------------------- */

const char *bench_fmt(char *z, size_t n, double r, double rScale, int nDec) {
  if (isnan(r) || isinf(r)) snprintf(z, n, "–");
  else snprintf(z, n, "%.*f", nDec, r * rScale);
  return z;
}

void bench_table_init(bench_table *t, int nCol) {
  memset(t, 0, sizeof(*t));
  t->nCol = nCol;
}

void bench_table_row(bench_table *t, const char *const *azCell) {
  if (t->bOom) return;
  if (t->nRow == t->nAlloc) {
    int nNew = t->nAlloc ? 2 * t->nAlloc : 16;
    char **a = realloc(t->azCell, (size_t)nNew * (size_t)t->nCol * sizeof(char *));
    if (a == NULL) {
      t->bOom = 1;
      return;
    }
    t->azCell = a;
    t->nAlloc = nNew;
  }
  for (int c = 0; c < t->nCol; c++) {
    char **pz = &t->azCell[t->nRow * t->nCol + c];
    if ((*pz = strdup(azCell[c])) == NULL) {
      t->bOom = 1;
      while (--c >= 0) free(t->azCell[t->nRow * t->nCol + c]);
      return;
    }
  }
  t->nRow++;
}

/* The width of UTF-8 text in characters ("–" is one). */
static int report_width(const char *z) {
  int n = 0;
  for (; *z; z++) n += ((unsigned char)*z & 0xc0) != 0x80;
  return n;
}

void bench_table_render(const bench_table *t, strbuf *pOut) {
  int aW[64];
  int nCol = t->nCol < 64 ? t->nCol : 64;
  if (t->bOom) {
    strbuf_puts(pOut, "(out of memory building the table)\n");
    return;
  }
  for (int c = 0; c < nCol; c++) {
    aW[c] = 3;
    for (int r = 0; r < t->nRow; r++) {
      int w = report_width(t->azCell[r * t->nCol + c]);
      if (w > aW[c]) aW[c] = w;
    }
  }
  for (int r = 0; r < t->nRow; r++) {
    for (int c = 0; c < nCol; c++) {
      const char *z = t->azCell[r * t->nCol + c];
      int nPad = aW[c] - report_width(z);
      strbuf_puts(pOut, "| ");
      /* The first column (names) reads left to right; numbers line up right. */
      if (c > 0) strbuf_repeat(pOut, ' ', (size_t)nPad);
      strbuf_puts(pOut, z);
      if (c == 0) strbuf_repeat(pOut, ' ', (size_t)nPad);
      strbuf_puts(pOut, " ");
    }
    strbuf_puts(pOut, "|\n");
    if (r == 0) {
      for (int c = 0; c < nCol; c++) {
        strbuf_puts(pOut, c == 0 ? "|:" : "|-");
        strbuf_repeat(pOut, '-', (size_t)aW[c]);
        strbuf_puts(pOut, c == 0 ? "-" : ":");
      }
      strbuf_puts(pOut, "|\n");
    }
  }
}

void bench_table_free(bench_table *t) {
  for (int i = 0; i < t->nRow * t->nCol; i++) free(t->azCell[i]);
  free(t->azCell);
  memset(t, 0, sizeof(*t));
}

/* ---- rows ------------------------------------------------------------------------ */

/* x / y, or NaN when y is not a positive number. */
static double report_div(double x, double y) { return y > 0 ? x / y : NAN; }

/* Adds r to *pSum when r is known (a NaN sum means none was). */
static void report_add(double *pSum, double r) {
  if (isnan(r)) return;
  *pSum = isnan(*pSum) ? r : *pSum + r;
}

/* Fills the floors and ratios of p from its fact bytes and server time. */
static void report_floors(bench_row *p, const bench_server *pSrv) {
  p->rGbps = report_div(p->rFact, p->rServer) / 1e9;
  p->rPcieFloor = report_div(p->rFact, pSrv->rZeroCopyBw);
  p->rDevFloor = report_div(p->rFact, pSrv->rDeviceBw);
  p->rPcieRatio = report_div(p->rServer, p->rPcieFloor);
  p->rDevRatio = report_div(p->rServer, p->rDevFloor);
}

void bench_rows_compute(const bench_query *aQ, const bench_outcome *aOut, int nQ, const bench_server *pSrv,
                        bench_row *aRow, bench_row *pTotal) {
  memset(pTotal, 0, sizeof(*pTotal));
  pTotal->zName = "total";
  pTotal->bOk = 1;
  pTotal->rClientMin = pTotal->rClientMedian = pTotal->rClientMax = pTotal->rServer = NAN;
  pTotal->rFact = pTotal->rScanned = NAN;
  for (int i = 0; i < nQ; i++) {
    bench_row *p = &aRow[i];
    bench_samples client = aOut[i].client, server = aOut[i].server;
    memset(p, 0, sizeof(*p));
    p->zName = aQ[i].zName;
    p->bOk = aOut[i].bOk;
    p->nRows = aOut[i].nRows;
    /* The samples are sorted in place: their order is of no further use. */
    bench_samples_sort(&client);
    bench_samples_sort(&server);
    p->rClientMin = bench_samples_min(&client);
    p->rClientMedian = bench_samples_median(&client);
    p->rClientMax = bench_samples_max(&client);
    p->rServer = bench_samples_median(&server);
    p->rFact = aOut[i].nFactBytes >= 0 && server.n > 0 ? (double)aOut[i].nFactBytes : NAN;
    p->rScanned = aOut[i].nBytesScanned >= 0 && server.n > 0 ? (double)aOut[i].nBytesScanned : NAN;
    report_floors(p, pSrv);
    if (!p->bOk) {
      pTotal->bOk = 0;
      continue;
    }
    pTotal->nRows += p->nRows;
    report_add(&pTotal->rClientMin, p->rClientMin);
    report_add(&pTotal->rClientMedian, p->rClientMedian);
    report_add(&pTotal->rClientMax, p->rClientMax);
    report_add(&pTotal->rServer, p->rServer);
    report_add(&pTotal->rFact, p->rFact);
    report_add(&pTotal->rScanned, p->rScanned);
  }
  report_floors(pTotal, pSrv);
}

/* ---- formats ----------------------------------------------------------------------- */

void bench_report_server(const bench_server *pSrv, strbuf *pOut) {
  if (!pSrv->bKnown) {
    strbuf_puts(pOut, "server: no figures (SHOW starq.last_query): server times and floors unknown\n");
  } else if (pSrv->rZeroCopyBw > 0 || pSrv->rDeviceBw > 0) {
    char zA[32], zB[32];
    strbuf_printf(pOut, "server: %s, %s; floors = fact bytes / PCIe %s GB/s and / device memory %s GB/s "
                  "(measured by the server at its start)\n", pSrv->zBackend, pSrv->zDevice,
                  bench_fmt(zA, sizeof(zA), pSrv->rZeroCopyBw, 1e-9, 1),
                  bench_fmt(zB, sizeof(zB), pSrv->rDeviceBw, 1e-9, 1));
  } else {
    strbuf_printf(pOut, "server: %s, %s; floors unknown (no bandwidth measured on this backend)\n",
                  pSrv->zBackend, pSrv->zDevice);
  }
}

/* Appends the lines that say what was run and on what. */
static void report_preamble(const bench_args *pA, const bench_server *pSrv, int nQ, strbuf *pOut) {
  strbuf_printf(pOut, "starq-bench: %d queries, %d warm-up and %d timed runs each", nQ, pA->nWarmup, pA->nReps);
  for (int i = 0; i < pA->nSession; i++) strbuf_printf(pOut, "%s%s", i ? "; " : ", session: ", pA->azSession[i]);
  strbuf_puts(pOut, "\n");
  bench_report_server(pSrv, pOut);
  strbuf_puts(pOut, "times in ms: client = PQexec's wall time (min, median, max), server = median of its own "
              "time; × = server time / floor\n\n");
}

/* The numeric columns of the single-client report. */
static const bench_col report_aCol[] = {
    {"client min", 1e3, 3, "client_min_ms", 1e3, 4},
    {"client median", 1e3, 3, "client_median_ms", 1e3, 4},
    {"client max", 1e3, 3, "client_max_ms", 1e3, 4},
    {"server", 1e3, 3, "server_ms", 1e3, 4},
    {"fact MB", 1e-6, 1, "fact_bytes", 1, 0},
    {NULL, 0, 0, "bytes_scanned", 1, 0},
    {"GB/s", 1, 2, "gb_per_s", 1, 4},
    {"PCIe floor", 1e3, 3, "pcie_floor_ms", 1e3, 4},
    {"× PCIe", 1, 2, "pcie_ratio", 1, 4},
    {"device floor", 1e3, 3, "device_floor_ms", 1e3, 4},
    {"× device", 1, 2, "device_ratio", 1, 4},
};
#define REPORT_NCOL ((int)(sizeof(report_aCol) / sizeof(report_aCol[0])))

/* Fills a[REPORT_NCOL] with p's values, in report_aCol's order. */
static void report_values(const bench_row *p, double *a) {
  const double aV[] = {p->rClientMin, p->rClientMedian, p->rClientMax, p->rServer, p->rFact, p->rScanned,
                       p->rGbps, p->rPcieFloor, p->rPcieRatio, p->rDevFloor, p->rDevRatio};
  memcpy(a, aV, sizeof(aV));
}

/* Appends the table format. */
static void report_table(const bench_args *pA, const bench_server *pSrv, const bench_row *aRow, int nQ,
                         const bench_row *pTotal, strbuf *pOut) {
  const char *az[REPORT_NCOL + 2] = {"query", "rows"};
  char aBuf[REPORT_NCOL + 2][BENCH_CELL];
  int nCell = bench_cols_head(report_aCol, REPORT_NCOL, az, 2);
  bench_table t;
  report_preamble(pA, pSrv, nQ, pOut);
  bench_table_init(&t, nCell);
  bench_table_row(&t, az);
  for (int i = 0; i <= nQ; i++) {
    const bench_row *p = i < nQ ? &aRow[i] : pTotal;
    double aV[REPORT_NCOL];
    report_values(p, aV);
    az[0] = p->zName;
    if (p->bOk || i == nQ) snprintf(aBuf[1], sizeof(aBuf[1]), "%lld", (long long)p->nRows);
    else snprintf(aBuf[1], sizeof(aBuf[1]), "error");
    az[1] = aBuf[1];
    bench_cols_cells(report_aCol, REPORT_NCOL, aV, aBuf, az, 2);
    bench_table_row(&t, az);
  }
  bench_table_render(&t, pOut);
  bench_table_free(&t);
}

int bench_cols_head(const bench_col *aCol, int nCol, const char **az, int i) {
  for (int c = 0; c < nCol; c++) {
    if (aCol[c].zHead != NULL) az[i++] = aCol[c].zHead;
  }
  return i;
}

int bench_cols_cells(const bench_col *aCol, int nCol, const double *aVal, char (*aBuf)[BENCH_CELL],
                     const char **az, int i) {
  for (int c = 0; c < nCol; c++) {
    if (aCol[c].zHead == NULL) continue;
    az[i] = bench_fmt(aBuf[i], BENCH_CELL, aVal[c], aCol[c].rScale, aCol[c].nDec);
    i++;
  }
  return i;
}

void bench_cols_csv_head(strbuf *pOut, const bench_col *aCol, int nCol) {
  for (int c = 0; c < nCol; c++) {
    if (aCol[c].zCsv != NULL) strbuf_printf(pOut, ",%s", aCol[c].zCsv);
  }
}

void bench_cols_csv(strbuf *pOut, const bench_col *aCol, int nCol, const double *aVal) {
  for (int c = 0; c < nCol; c++) {
    if (aCol[c].zCsv == NULL) continue;
    strbuf_puts(pOut, ",");
    if (!isnan(aVal[c]) && !isinf(aVal[c])) strbuf_printf(pOut, "%.*f", aCol[c].nCsvDec, aVal[c] * aCol[c].rCsvScale);
  }
}

void bench_csv_text(strbuf *pOut, const char *z) {
  if (strpbrk(z, ",\"\r\n") == NULL) {
    strbuf_puts(pOut, z);
    return;
  }
  strbuf_puts(pOut, "\"");
  for (; *z; z++) strbuf_append(pOut, *z == '"' ? "\"\"" : z, *z == '"' ? 2 : 1);
  strbuf_puts(pOut, "\"");
}

/* Appends the CSV format: a header line, then a line per query and the
** totals. */
static void report_csv(const bench_query *aQ, const bench_outcome *aOut, const bench_row *aRow, int nQ,
                       const bench_row *pTotal, strbuf *pOut) {
  strbuf_puts(pOut, "query,status,rows");
  bench_cols_csv_head(pOut, report_aCol, REPORT_NCOL);
  strbuf_puts(pOut, ",error\n");
  for (int i = 0; i <= nQ; i++) {
    const bench_row *p = i < nQ ? &aRow[i] : pTotal;
    double aV[REPORT_NCOL];
    report_values(p, aV);
    bench_csv_text(pOut, i < nQ ? aQ[i].zName : "total");
    strbuf_printf(pOut, ",%s,%lld", p->bOk ? "ok" : "error", (long long)p->nRows);
    bench_cols_csv(pOut, report_aCol, REPORT_NCOL, aV);
    strbuf_puts(pOut, ",");
    if (i < nQ && aOut[i].zError != NULL) bench_csv_text(pOut, aOut[i].zError);
    strbuf_puts(pOut, "\n");
  }
}

void bench_json_num(json_writer *w, const char *zKey, double r) {
  json_key(w, zKey);
  if (isnan(r) || isinf(r)) json_null(w);
  else json_double(w, r);
}

/* Writes the figures of one row (times in seconds, sizes in bytes). */
static void report_json_row(json_writer *w, const bench_row *p) {
  json_field_int(w, "rows", p->nRows);
  json_key(w, "client_seconds");
  json_object_begin(w);
  bench_json_num(w, "min", p->rClientMin);
  bench_json_num(w, "median", p->rClientMedian);
  bench_json_num(w, "max", p->rClientMax);
  json_object_end(w);
  bench_json_num(w, "server_seconds", p->rServer);
  bench_json_num(w, "fact_bytes", p->rFact);
  bench_json_num(w, "bytes_scanned", p->rScanned);
  bench_json_num(w, "gb_per_second", p->rGbps);
  bench_json_num(w, "pcie_floor_seconds", p->rPcieFloor);
  bench_json_num(w, "pcie_ratio", p->rPcieRatio);
  bench_json_num(w, "device_floor_seconds", p->rDevFloor);
  bench_json_num(w, "device_ratio", p->rDevRatio);
}

void bench_report_json_head(json_writer *w, const bench_args *pA, const bench_server *pSrv, const char *zMode) {
  json_field_string(w, "tool", "starq-bench");
  json_field_string(w, "mode", zMode);
  json_key(w, "server");
  json_object_begin(w);
  json_field_bool(w, "figures", pSrv->bKnown);
  json_field_string(w, "backend", pSrv->bKnown ? pSrv->zBackend : NULL);
  json_field_string(w, "device", pSrv->bKnown ? pSrv->zDevice : NULL);
  bench_json_num(w, "zero_copy_bytes_per_second", pSrv->rZeroCopyBw > 0 ? pSrv->rZeroCopyBw : NAN);
  bench_json_num(w, "device_bytes_per_second", pSrv->rDeviceBw > 0 ? pSrv->rDeviceBw : NAN);
  json_object_end(w);
  json_key(w, "session");
  json_array_begin(w);
  for (int i = 0; i < pA->nSession; i++) json_string(w, pA->azSession[i]);
  json_array_end(w);
  json_field_int(w, "warmup", pA->nWarmup);
  json_field_int(w, "reps", pA->nReps);
}

/* Appends the JSON format: one object. */
static void report_json(const bench_args *pA, const bench_server *pSrv, const bench_query *aQ,
                        const bench_outcome *aOut, const bench_row *aRow, int nQ, const bench_row *pTotal,
                        strbuf *pOut) {
  json_writer w;
  json_init(&w, pOut);
  json_object_begin(&w);
  bench_report_json_head(&w, pA, pSrv, "single");
  json_key(&w, "queries");
  json_array_begin(&w);
  for (int i = 0; i < nQ; i++) {
    json_object_begin(&w);
    json_field_string(&w, "name", aQ[i].zName);
    json_field_string(&w, "file", aQ[i].zPath);
    json_field_string(&w, "status", aRow[i].bOk ? "ok" : "error");
    if (aOut[i].zError != NULL) json_field_string(&w, "error", aOut[i].zError);
    report_json_row(&w, &aRow[i]);
    bench_json_num(&w, "compile_seconds", aOut[i].rCompileSeconds >= 0 ? aOut[i].rCompileSeconds : NAN);
    json_field_string(&w, "first_run_tier", aOut[i].bFirstGeneric ? "generic" : "optimized");
    json_field_int(&w, "tier_waits", aOut[i].nTierWait);
    json_object_end(&w);
  }
  json_array_end(&w);
  json_key(&w, "total");
  json_object_begin(&w);
  json_field_string(&w, "status", pTotal->bOk ? "ok" : "error");
  report_json_row(&w, pTotal);
  json_object_end(&w);
  json_object_end(&w);
  strbuf_puts(pOut, "\n");
}

void bench_report(const bench_args *pA, const bench_server *pSrv, const bench_query *aQ,
                  const bench_outcome *aOut, const bench_row *aRow, int nQ, const bench_row *pTotal,
                  strbuf *pOut) {
  switch (pA->eFormat) {
    case BENCH_FORMAT_CSV: report_csv(aQ, aOut, aRow, nQ, pTotal, pOut); break;
    case BENCH_FORMAT_JSON: report_json(pA, pSrv, aQ, aOut, aRow, nQ, pTotal, pOut); break;
    default: report_table(pA, pSrv, aRow, nQ, pTotal, pOut); break;
  }
}
