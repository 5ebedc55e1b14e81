/*
** bench/parse-bench.c — time parse + bind of SQL files (default: the 13
** SSB queries) against the SSB schema.
**
**   parse-bench [--runs N] [FILE.sql ...]
**
** For each file: the mean and best time of one parse + bind over N runs
** (after a warm-up of N/10), beside the budget of 50 µs. The
** physical floor of parsing is far below that (a few hundred bytes of SQL
** from L1 cache), so the budget, not the floor, is the figure to beat.
*/
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../catalog/catalog.h"
#include "../common/fsdir.h"
#include "../common/timer.h"
#include "../parser/parser.h"
#include "../planner/bind.h"
#include "../ssb-data/schema.h"

#define BENCH_BUDGET_US 50.0

static char *bench_read(const char *zPath) {
  FILE *f = fopen(zPath, "rb");
  char *z;
  long n;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  z = malloc((size_t)n + 1);
  if (z == NULL || fread(z, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    free(z);
    return NULL;
  }
  z[n] = 0;
  fclose(f);
  return z;
}

/* Parses and binds every statement of zSql once; returns 0 or -1. */
static int bench_once(cat *pCat, const char *zSql, sql_error *e) {
  sql_script s;
  arena a;
  int rc = 0;
  arena_init(&a);
  sql_error_clear(e);
  if (sql_parse(zSql, &a, &s, e) != 0) rc = -1;
  for (int i = 0; rc == 0 && i < s.nStmt; i++) {
    bound_select b;
    if (s.apStmt[i]->eKind != SQL_STMT_SELECT) continue;
    rc = bind_select(pCat, s.apStmt[i]->pSelect, &a, &b, e);
    bind_select_free(&b);
  }
  arena_free(&a);
  return rc;
}

int main(int argc, char **argv) {
  static const char *const azSsb[] = {
    "q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
    "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3",
  };
  char zDir[] = "/tmp/starq-parse-bench-XXXXXX", zErr[512];
  int nRun = 20000, iArg = 1, nFile, nOver = 0;
  cat *pCat;

  if (iArg + 1 < argc && strcmp(argv[iArg], "--runs") == 0) {
    nRun = atoi(argv[iArg + 1]);
    iArg += 2;
  }
  if (nRun < 10) nRun = 10;
  if (mkdtemp(zDir) == NULL || cat_open(&pCat, zDir, zErr, sizeof(zErr)) != 0 ||
      ssb_schema_create(pCat, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "parse-bench: catalog: %s\n", zErr);
    return 1;
  }
  nFile = argc > iArg ? argc - iArg : 13;
  printf("parse + bind, %d runs each (budget %.0f us)\n", nRun, BENCH_BUDGET_US);
  for (int i = 0; i < nFile; i++) {
    char zPath[4096];
    char *zSql;
    double rBest = 1e9, rSum = 0;
    sql_error e;
    if (argc > iArg) {
      snprintf(zPath, sizeof(zPath), "%s", argv[iArg + i]);
    } else {
      snprintf(zPath, sizeof(zPath), "ssb-data/queries/%s.sql", azSsb[i]);
    }
    if ((zSql = bench_read(zPath)) == NULL) {
      fprintf(stderr, "parse-bench: cannot read %s\n", zPath);
      return 1;
    }
    if (bench_once(pCat, zSql, &e) != 0) {
      fprintf(stderr, "parse-bench: %s: %s %s\n", zPath, e.zState, e.zMsg);
      return 1;
    }
    for (int r = 0; r < nRun / 10; r++) bench_once(pCat, zSql, &e);
    for (int r = 0; r < nRun; r++) {
      double t0 = timer_now(), t;
      bench_once(pCat, zSql, &e);
      t = (timer_now() - t0) * 1e6;
      rSum += t;
      if (t < rBest) rBest = t;
    }
    nOver += rSum / nRun > BENCH_BUDGET_US;
    printf("  %-40s %5zu bytes  mean %7.2f us  best %7.2f us\n", zPath, strlen(zSql),
           rSum / nRun, rBest);
    free(zSql);
  }
  printf("%d of %d over the %.0f us budget\n", nOver, nFile, BENCH_BUDGET_US);
  cat_close(pCat);
  if (fsdir_remove(zDir) != 0) fprintf(stderr, "parse-bench: could not remove %s\n", zDir);
  return 0;
}
