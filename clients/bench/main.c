/*
** clients/bench/main.c — starq-bench, the benchmark runner: SQL files in,
** timings beside the physical floors out.
**
**   starq-bench [-h HOST] [-p PORT] [-U USER] [-d DB] [--session SQL]...
**               [--warmup N] [--reps N] [--clients C [--duration S]]
**               [--verify DIR | --write-expected DIR]
**               [--format table|csv|json] [--svg FILE] [-q] [FILE|DIR]...
**
** The steps: parse the flags; read every query (and its expected answer
** under --verify) before connecting, so a typo costs no server time;
** connect; run, single-client (run.c) or the mix (mix.c); print the report
** on stdout, progress and failures on stderr. Each failed query is named
** on stderr as it happens and again at the end. bench.h lists the files
** and the exit codes.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* Reads every query's expected answer from zDir. Returns 0, or -1 with
** zErr. */
static int main_answers_load(const char *zDir, bench_query *aQ, int nQ, char *zErr, size_t nErr) {
  for (int i = 0; i < nQ; i++) {
    if (bench_answer_read(zDir, aQ[i].zName, &aQ[i].pExpect, zErr, nErr) != 0) return -1;
  }
  return 0;
}

/* Writes the report to stdout. Returns 0, or -1 if it could not be. */
static int main_print(strbuf *pOut) {
  if (strbuf_error(pOut)) {
    fprintf(stderr, "starq-bench: out of memory writing the report\n");
    return -1;
  }
  if (fwrite(strbuf_str(pOut), 1, pOut->n, stdout) != pOut->n || fflush(stdout) != 0) {
    fprintf(stderr, "starq-bench: cannot write the report to stdout\n");
    return -1;
  }
  return 0;
}

/* Names the failed queries on stderr, after the report. */
static void main_failures(const bench_query *aQ, int nQ, const char *const *azError) {
  int nBad = 0;
  for (int i = 0; i < nQ; i++) nBad += azError[i] != NULL;
  if (nBad == 0) return;
  fprintf(stderr, "starq-bench: %d of %d queries failed:\n", nBad, nQ);
  for (int i = 0; i < nQ; i++) {
    if (azError[i] != NULL) fprintf(stderr, "  %s: %s\n", aQ[i].zName, azError[i]);
  }
}

/* The single-client run and its report. Returns the exit code. */
static int main_single(const bench_args *pA, bench_query *aQ, int nQ) {
  bench_outcome *aOut = calloc((size_t)nQ, sizeof(*aOut));
  bench_row *aRow = calloc((size_t)nQ, sizeof(*aRow));
  const char **azError = calloc((size_t)nQ, sizeof(char *));
  bench_row total;
  bench_server srv;
  strbuf out;
  char zErr[2048];
  int bConnect, rc = BENCH_EXIT_FAIL;
  PGconn *c = NULL;
  strbuf_init(&out);
  if (aOut == NULL || aRow == NULL || azError == NULL) {
    fprintf(stderr, "starq-bench: out of memory\n");
    goto out_free;
  }
  if ((c = bench_conn_open(pA, &bConnect, zErr, sizeof(zErr))) == NULL) {
    fprintf(stderr, "starq-bench: %s\n", zErr);
    rc = bConnect ? BENCH_EXIT_CONNECT : BENCH_EXIT_FAIL;
    goto out_free;
  }
  rc = bench_run_all(pA, &c, aQ, nQ, aOut, &srv, zErr, sizeof(zErr));
  if (rc == 2) fprintf(stderr, "starq-bench: the connection was lost: %s\n", zErr);
  rc = rc == 2 ? BENCH_EXIT_CONNECT : rc != 0 ? BENCH_EXIT_FAIL : BENCH_EXIT_OK;
  bench_rows_compute(aQ, aOut, nQ, &srv, aRow, &total);
  bench_report(pA, &srv, aQ, aOut, aRow, nQ, &total, &out);
  if (main_print(&out) != 0 && rc == BENCH_EXIT_OK) rc = BENCH_EXIT_FAIL;
  if (pA->zSvg != NULL && bench_svg_write(pA->zSvg, &srv, aRow, nQ, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "starq-bench: %s\n", zErr);
    if (rc == BENCH_EXIT_OK) rc = BENCH_EXIT_FAIL;
  }
  for (int i = 0; i < nQ; i++) azError[i] = aOut[i].bOk ? NULL : aOut[i].zError ? aOut[i].zError : "failed";
  main_failures(aQ, nQ, azError);
out_free:
  PQfinish(c);
  for (int i = 0; aOut != NULL && i < nQ; i++) bench_outcome_free(&aOut[i]);
  free(aOut);
  free(aRow);
  free(azError);
  strbuf_free(&out);
  return rc;
}

/* The concurrent mix and its report. Returns the exit code. */
static int main_mix(const bench_args *pA, bench_query *aQ, int nQ) {
  bench_mix mix;
  strbuf out;
  char zErr[2048];
  const char **azError;
  int rc = bench_mix_run(pA, aQ, nQ, &mix, zErr, sizeof(zErr));
  rc = rc == 2 ? BENCH_EXIT_CONNECT : rc != 0 ? BENCH_EXIT_FAIL : BENCH_EXIT_OK;
  if (!mix.bRan) {
    fprintf(stderr, "starq-bench: %s\n", zErr);
    bench_mix_free(&mix);
    return rc;
  }
  strbuf_init(&out);
  bench_report_mix(pA, aQ, &mix, &out);
  if (main_print(&out) != 0 && rc == BENCH_EXIT_OK) rc = BENCH_EXIT_FAIL;
  strbuf_free(&out);
  if (rc == BENCH_EXIT_CONNECT) fprintf(stderr, "starq-bench: %s\n", zErr);
  if ((azError = calloc((size_t)nQ, sizeof(char *))) != NULL) {
    for (int i = 0; i < nQ; i++) azError[i] = mix.aQ[i].zError;
    main_failures(aQ, nQ, azError);
    free(azError);
  }
  bench_mix_free(&mix);
  return rc;
}

int main(int argc, char **argv) {
  bench_args a;
  bench_query *aQ = NULL;
  int nQ = 0, bExit, rc;
  char zErr[4400];
  rc = bench_args_parse(&a, argc, argv, &bExit);
  if (rc != 0) {
    bench_args_free(&a);
    return bExit ? BENCH_EXIT_OK : BENCH_EXIT_FAIL;
  }
  if (bench_queries_load(&a, &aQ, &nQ, zErr, sizeof(zErr)) != 0 ||
      (a.zVerify != NULL && main_answers_load(a.zVerify, aQ, nQ, zErr, sizeof(zErr)) != 0)) {
    fprintf(stderr, "starq-bench: %s\n", zErr);
    bench_queries_free(aQ, nQ);
    bench_args_free(&a);
    return BENCH_EXIT_FAIL;
  }
  rc = a.nClients > 0 ? main_mix(&a, aQ, nQ) : main_single(&a, aQ, nQ);
  bench_queries_free(aQ, nQ);
  bench_args_free(&a);
  return rc;
}
