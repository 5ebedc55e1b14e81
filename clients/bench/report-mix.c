/*
** clients/bench/report-mix.c — the concurrent mix's report: per query its
** runs, failures, throughput and client latency percentiles (p50, p90,
** p99, max, by nearest rank), then the whole mix's throughput beside the
** floors. The floor of the mix is every fact byte that all clients' runs
** read, over the server's PCIe or device-memory bandwidth: the time the
** bus or the memory alone would need for the same work, however many
** clients share it. "×" is the mix's elapsed time over that floor.
**
** INTERFACE ROUTINES
**   bench_report_mix     the mix's report as a table, CSV or JSON
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* One line of the mix's report: a query, or all of them. */
typedef struct mix_line mix_line;
struct mix_line {
  const char *zName;
  int64_t nRun, nError;
  const char *zError;      /* the first failure, or NULL; borrowed */
  double rQps;             /* successful runs per second of the mix */
  double rP50, rP90, rP99, rMax;   /* seconds, NaN with no runs */
  double rFact;            /* bytes per run (a query) or in all (the total); NaN unknown */
};

/* The whole mix beside its floors. */
typedef struct mix_sum mix_sum;
struct mix_sum {
  double rGbps;            /* fact bytes of every run over the elapsed time */
  double rPcieFloor, rPcieRatio;
  double rDevFloor, rDevRatio;
};

/* Sets the percentiles of l from the sorted samples p. */
static void mix_line_latency(mix_line *l, const bench_samples *p) {
  l->rP50 = bench_samples_percentile(p, 50);
  l->rP90 = bench_samples_percentile(p, 90);
  l->rP99 = bench_samples_percentile(p, 99);
  l->rMax = bench_samples_max(p);
}

/* Works out the lines (aL[nQ], then the total at aL[nQ]) and the sums.
** Returns 0, or -1 if memory ran out. */
static int mix_lines(const bench_query *aQ, const bench_mix *pMix, mix_line *aL, mix_sum *pSum) {
  bench_samples all = {NULL, 0, 0};
  mix_line *t = &aL[pMix->nQ];
  double rFactAll = 0;
  int bFactKnown = 1;
  memset(t, 0, sizeof(*t));
  t->zName = "total";
  for (int i = 0; i < pMix->nQ; i++) {
    const bench_mix_query *r = &pMix->aQ[i];
    bench_samples lat = r->lat;
    mix_line *l = &aL[i];
    memset(l, 0, sizeof(*l));
    l->zName = aQ[i].zName;
    l->nRun = lat.n;
    l->nError = r->nError;
    l->zError = r->zError;
    l->rQps = pMix->rElapsed > 0 ? lat.n / pMix->rElapsed : NAN;
    l->rFact = r->nFactBytes >= 0 ? (double)r->nFactBytes : NAN;
    bench_samples_sort(&lat);   /* in place: the order is of no further use */
    mix_line_latency(l, &lat);
    if (bench_samples_merge(&all, &lat) != 0) {
      bench_samples_free(&all);
      return -1;
    }
    t->nRun += lat.n;
    t->nError += r->nError;
    if (lat.n > 0 && isnan(l->rFact)) bFactKnown = 0;
    if (lat.n > 0 && !isnan(l->rFact)) rFactAll += l->rFact * lat.n;
  }
  bench_samples_sort(&all);
  mix_line_latency(t, &all);
  bench_samples_free(&all);
  t->rQps = pMix->rElapsed > 0 ? t->nRun / pMix->rElapsed : NAN;
  t->rFact = bFactKnown && t->nRun > 0 ? rFactAll : NAN;
  pSum->rGbps = pMix->rElapsed > 0 ? t->rFact / pMix->rElapsed / 1e9 : NAN;
  pSum->rPcieFloor = pMix->srv.rZeroCopyBw > 0 ? t->rFact / pMix->srv.rZeroCopyBw : NAN;
  pSum->rDevFloor = pMix->srv.rDeviceBw > 0 ? t->rFact / pMix->srv.rDeviceBw : NAN;
  pSum->rPcieRatio = pSum->rPcieFloor > 0 ? pMix->rElapsed / pSum->rPcieFloor : NAN;
  pSum->rDevRatio = pSum->rDevFloor > 0 ? pMix->rElapsed / pSum->rDevFloor : NAN;
  return 0;
}

/* The numeric columns of a query's (or the total's) line. */
static const bench_col mix_aCol[] = {
    {"queries/s", 1, 2, "queries_per_s", 1, 4},
    {"p50 ms", 1e3, 3, "p50_ms", 1e3, 4},
    {"p90 ms", 1e3, 3, "p90_ms", 1e3, 4},
    {"p99 ms", 1e3, 3, "p99_ms", 1e3, 4},
    {"max ms", 1e3, 3, "max_ms", 1e3, 4},
    {"fact MB", 1e-6, 1, "fact_bytes", 1, 0},
};
#define MIX_NCOL ((int)(sizeof(mix_aCol) / sizeof(mix_aCol[0])))

/* The throughput's columns: a table of their own; in CSV, the last
** columns of the total's line (what that line does not say already). */
static const bench_col mix_aSumCol[] = {
    {"clients", 1, 0, "clients", 1, 0},
    {"elapsed s", 1, 3, "elapsed_s", 1, 4},
    {"queries", 1, 0, NULL, 0, 0},
    {"queries/s", 1, 2, NULL, 0, 0},
    {"fact GB", 1e-9, 3, NULL, 0, 0},
    {"GB/s", 1, 2, "gb_per_s", 1, 4},
    {"PCIe floor s", 1, 3, "pcie_floor_s", 1, 4},
    {"× PCIe", 1, 2, "pcie_ratio", 1, 4},
    {"device floor s", 1, 3, "device_floor_s", 1, 4},
    {"× device", 1, 2, "device_ratio", 1, 4},
};
#define MIX_NSUMCOL ((int)(sizeof(mix_aSumCol) / sizeof(mix_aSumCol[0])))

/* Fills a[MIX_NCOL] with l's values, in mix_aCol's order. */
static void mix_values(const mix_line *l, double *a) {
  const double aV[] = {l->rQps, l->rP50, l->rP90, l->rP99, l->rMax, l->rFact};
  memcpy(a, aV, sizeof(aV));
}

/* Fills a[MIX_NSUMCOL] with the throughput's values. */
static void mix_sum_values(const bench_mix *pMix, const mix_line *pTotal, const mix_sum *pSum, double *a) {
  const double aV[] = {pMix->nClient, pMix->rElapsed, (double)pTotal->nRun, pTotal->rQps, pTotal->rFact,
                       pSum->rGbps, pSum->rPcieFloor, pSum->rPcieRatio, pSum->rDevFloor, pSum->rDevRatio};
  memcpy(a, aV, sizeof(aV));
}

/* Appends the table format: the per-query table, then the throughput. */
static void mix_table(const bench_args *pA, const bench_mix *pMix, const mix_line *aL, const mix_sum *pSum,
                      strbuf *pOut) {
  const char *az[MIX_NSUMCOL + 3] = {"query", "runs", "errors"};
  char aBuf[MIX_NSUMCOL + 3][BENCH_CELL];
  double aV[MIX_NSUMCOL];
  bench_table t;
  strbuf_printf(pOut, "starq-bench mix: %d clients, %d queries in a shuffled order each round (seed %llu), ",
                pMix->nClient, pMix->nQ, (unsigned long long)pA->iSeed);
  if (pA->rDuration > 0) strbuf_printf(pOut, "for %g s", pA->rDuration);
  else strbuf_printf(pOut, "%d rounds per client", pA->nReps);
  strbuf_printf(pOut, "; %d warm-up runs of each query first", pA->nWarmup);
  for (int i = 0; i < pA->nSession; i++) strbuf_printf(pOut, "%s%s", i ? "; " : "; session: ", pA->azSession[i]);
  strbuf_puts(pOut, "\n");
  bench_report_server(&pMix->srv, pOut);
  strbuf_puts(pOut, "latency = PQexec's wall time at the client, by nearest rank\n\n");
  bench_table_init(&t, bench_cols_head(mix_aCol, MIX_NCOL, az, 3));
  bench_table_row(&t, az);
  for (int i = 0; i <= pMix->nQ; i++) {
    const mix_line *l = &aL[i];
    az[0] = l->zName;
    snprintf(aBuf[1], sizeof(aBuf[1]), "%lld", (long long)l->nRun);
    snprintf(aBuf[2], sizeof(aBuf[2]), "%lld", (long long)l->nError);
    az[1] = aBuf[1];
    az[2] = aBuf[2];
    mix_values(l, aV);
    bench_cols_cells(mix_aCol, MIX_NCOL, aV, aBuf, az, 3);
    bench_table_row(&t, az);
  }
  bench_table_render(&t, pOut);
  bench_table_free(&t);
  strbuf_puts(pOut, "\nthroughput; floor = every run's fact bytes / the bandwidth, × = elapsed / floor\n\n");
  bench_table_init(&t, bench_cols_head(mix_aSumCol, MIX_NSUMCOL, az, 0));
  bench_table_row(&t, az);
  mix_sum_values(pMix, &aL[pMix->nQ], pSum, aV);
  bench_cols_cells(mix_aSumCol, MIX_NSUMCOL, aV, aBuf, az, 0);
  bench_table_row(&t, az);
  bench_table_render(&t, pOut);
  bench_table_free(&t);
}

/* Appends the CSV format: a line per query and the total, the mix's
** throughput in the total's last columns. */
static void mix_csv(const bench_mix *pMix, const mix_line *aL, const mix_sum *pSum, strbuf *pOut) {
  double aV[MIX_NSUMCOL], aUnknown[MIX_NSUMCOL];
  for (int c = 0; c < MIX_NSUMCOL; c++) aUnknown[c] = NAN;
  strbuf_puts(pOut, "query,runs,errors");
  bench_cols_csv_head(pOut, mix_aCol, MIX_NCOL);
  bench_cols_csv_head(pOut, mix_aSumCol, MIX_NSUMCOL);
  strbuf_puts(pOut, ",error\n");
  for (int i = 0; i <= pMix->nQ; i++) {
    const mix_line *l = &aL[i];
    bench_csv_text(pOut, l->zName);
    strbuf_printf(pOut, ",%lld,%lld", (long long)l->nRun, (long long)l->nError);
    mix_values(l, aV);
    bench_cols_csv(pOut, mix_aCol, MIX_NCOL, aV);
    if (i == pMix->nQ) mix_sum_values(pMix, l, pSum, aV);
    bench_cols_csv(pOut, mix_aSumCol, MIX_NSUMCOL, i == pMix->nQ ? aV : aUnknown);
    strbuf_puts(pOut, ",");
    if (l->zError != NULL) bench_csv_text(pOut, l->zError);
    strbuf_puts(pOut, "\n");
  }
}

/* Writes one line's members. */
static void mix_json_line(json_writer *w, const mix_line *l) {
  json_field_int(w, "runs", l->nRun);
  json_field_int(w, "errors", l->nError);
  if (l->zError != NULL) json_field_string(w, "error", l->zError);
  bench_json_num(w, "queries_per_second", l->rQps);
  json_key(w, "latency_seconds");
  json_object_begin(w);
  bench_json_num(w, "p50", l->rP50);
  bench_json_num(w, "p90", l->rP90);
  bench_json_num(w, "p99", l->rP99);
  bench_json_num(w, "max", l->rMax);
  json_object_end(w);
  bench_json_num(w, "fact_bytes", l->rFact);
}

/* Appends the JSON format: one object. */
static void mix_json(const bench_args *pA, const bench_mix *pMix, const mix_line *aL, const mix_sum *pSum,
                     strbuf *pOut) {
  json_writer w;
  json_init(&w, pOut);
  json_object_begin(&w);
  bench_report_json_head(&w, pA, &pMix->srv, "mix");
  json_field_int(&w, "clients", pMix->nClient);
  bench_json_num(&w, "duration_seconds", pA->rDuration > 0 ? pA->rDuration : NAN);
  json_field_uint(&w, "seed", pA->iSeed);
  bench_json_num(&w, "elapsed_seconds", pMix->rElapsed);
  json_key(&w, "queries");
  json_array_begin(&w);
  for (int i = 0; i < pMix->nQ; i++) {
    json_object_begin(&w);
    json_field_string(&w, "name", aL[i].zName);
    mix_json_line(&w, &aL[i]);
    json_object_end(&w);
  }
  json_array_end(&w);
  json_key(&w, "total");
  json_object_begin(&w);
  mix_json_line(&w, &aL[pMix->nQ]);
  bench_json_num(&w, "gb_per_second", pSum->rGbps);
  bench_json_num(&w, "pcie_floor_seconds", pSum->rPcieFloor);
  bench_json_num(&w, "pcie_ratio", pSum->rPcieRatio);
  bench_json_num(&w, "device_floor_seconds", pSum->rDevFloor);
  bench_json_num(&w, "device_ratio", pSum->rDevRatio);
  json_object_end(&w);
  json_object_end(&w);
  strbuf_puts(pOut, "\n");
}

void bench_report_mix(const bench_args *pA, const bench_query *aQ, const bench_mix *pMix, strbuf *pOut) {
  mix_line *aL = calloc((size_t)pMix->nQ + 1, sizeof(*aL));
  mix_sum sum;
  if (aL == NULL || mix_lines(aQ, pMix, aL, &sum) != 0) {
    strbuf_puts(pOut, "(out of memory building the report)\n");
    free(aL);
    return;
  }
  switch (pA->eFormat) {
    case BENCH_FORMAT_CSV: mix_csv(pMix, aL, &sum, pOut); break;
    case BENCH_FORMAT_JSON: mix_json(pA, pMix, aL, &sum, pOut); break;
    default: mix_table(pA, pMix, aL, &sum, pOut); break;
  }
  free(aL);
}
