/*
** bench/plan-bench.c — time parse + bind (+ plan) of SQL files (default:
** the 13 SSB queries), and print their EXPLAIN.
**
**   plan-bench [--data DIR] [--runs N] [--explain] [FILE.sql ...]
**
** With --data, a data directory with SSB loaded: parse + bind + plan,
** against the planner's budget of 1 ms per SSB query (`make bench-plan`
** generates SF 1 first; planning reads statistics and dictionaries, and
** those catalog reads are its floor). Without it, an empty catalog with
** the SSB schema in a temporary directory: parse + bind only, against the
** front end's budget of 50 µs (`make bench-parse`; its floor, a few
** hundred bytes of SQL from L1, is far below).
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
#include "../planner/plan.h"
#include "../ssb-data/schema.h"

#define BENCH_PLAN_BUDGET_US 1000.0
#define BENCH_PARSE_BUDGET_US 50.0

/* Parses, binds and plans every SELECT of zSql once; appends EXPLAIN to
** pExplain if it is not NULL. Returns 0 or -1. */
static int bench_once(cat *pCat, const char *zSql, int bPlan, strbuf *pExplain, sql_error *e) {
  sql_script s;
  arena a;
  int rc = 0;
  arena_init(&a);
  sql_error_clear(e);
  if (sql_parse(zSql, &a, &s, e) != 0) rc = -1;
  for (int i = 0; rc == 0 && i < s.nStmt; i++) {
    bound_select b;
    plan p;
    if (s.apStmt[i]->eKind != SQL_STMT_SELECT) continue;
    rc = bind_select(pCat, s.apStmt[i]->pSelect, &a, &b, e);
    if (rc == 0 && bPlan) {
      rc = plan_build(pCat, &b, NULL, &a, &p, e);
      if (rc == 0 && pExplain != NULL) plan_explain(&p, pExplain);
      plan_free(&p);
    }
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
  const char *zData = NULL;
  char zErr[512], zTmp[] = "/tmp/starq-parse-bench-XXXXXX";
  double rBudget;
  int nRun = 2000, iArg = 1, nFile, nOver = 0, bExplain = 0;
  cat *pCat;

  for (; iArg < argc && strncmp(argv[iArg], "--", 2) == 0; iArg++) {
    if (strcmp(argv[iArg], "--explain") == 0) {
      bExplain = 1;
    } else if (iArg + 1 < argc && strcmp(argv[iArg], "--runs") == 0) {
      nRun = atoi(argv[++iArg]);
    } else if (iArg + 1 < argc && strcmp(argv[iArg], "--data") == 0) {
      zData = argv[++iArg];
    } else {
      fprintf(stderr, "usage: plan-bench [--data DIR] [--runs N] [--explain] [FILE.sql ...]\n");
      return 2;
    }
  }
  if (nRun < 10) nRun = 10;
  rBudget = zData != NULL ? BENCH_PLAN_BUDGET_US : BENCH_PARSE_BUDGET_US;
  if (zData == NULL) {
    if (mkdtemp(zTmp) == NULL || cat_open(&pCat, zTmp, zErr, sizeof(zErr)) != 0 ||
        ssb_schema_create(pCat, zErr, sizeof(zErr)) != 0) {
      fprintf(stderr, "plan-bench: catalog: %s\n", zErr);
      return 1;
    }
  } else if (cat_open(&pCat, zData, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "plan-bench: %s\n", zErr);
    return 1;
  }
  nFile = argc > iArg ? argc - iArg : 13;
  printf("parse + bind%s, %d runs each (budget %.0f us)\n", zData != NULL ? " + plan" : "", nRun,
         rBudget);
  for (int i = 0; i < nFile; i++) {
    char zPath[4096];
    char *zSql;
    double rBest = 1e9, rSum = 0;
    sql_error e;
    strbuf x;
    if (argc > iArg) snprintf(zPath, sizeof(zPath), "%s", argv[iArg + i]);
    else snprintf(zPath, sizeof(zPath), "ssb-data/queries/%s.sql", azSsb[i]);
    if ((zSql = fsdir_read_file(zPath, NULL)) == NULL) {
      fprintf(stderr, "plan-bench: cannot read %s\n", zPath);
      return 1;
    }
    strbuf_init(&x);
    if (bench_once(pCat, zSql, zData != NULL, &x, &e) != 0) {
      fprintf(stderr, "plan-bench: %s: %s %s\n", zPath, e.zState, e.zMsg);
      return 1;
    }
    if (bExplain) printf("\n%s\n%s\n\n", zPath, strbuf_str(&x));
    strbuf_free(&x);
    for (int r = 0; r < nRun / 10; r++) bench_once(pCat, zSql, zData != NULL, NULL, &e);
    for (int r = 0; r < nRun; r++) {
      double t0 = timer_now(), t;
      bench_once(pCat, zSql, zData != NULL, NULL, &e);
      t = (timer_now() - t0) * 1e6;
      rSum += t;
      if (t < rBest) rBest = t;
    }
    nOver += rSum / nRun > rBudget;
    printf("  %-34s mean %8.1f us  best %8.1f us\n", zPath, rSum / nRun, rBest);
    free(zSql);
  }
  printf("%d of %d over the %.0f us budget\n", nOver, nFile, rBudget);
  cat_close(pCat);
  if (zData == NULL && fsdir_remove(zTmp) != 0) fprintf(stderr, "plan-bench: could not remove %s\n", zTmp);
  return 0;
}
