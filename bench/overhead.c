/*
** bench/overhead.c — where one query's server-side time goes outside the
** kernels: each phase of the per-query path timed on its own, in process
** through the engine, and the same queries through the device worker.
**
**   overhead --data DIR [--runs N] [--backend cpu|cuda] [--worker PROGRAM]
**            [--spin-us N] [--gap-us N] [FILE.sql ...]
**
** In process, per query (default: the 13 SSB queries), after one untimed
** run that compiles the module if it is not cached, N runs of the
** statement prepared afresh every time (a request whose plan edit changes
** nothing, which the engine never keeps), each phase timed by the engine
** (exec_result.front; bind includes the catalog's one check):
**
**   parse     the SELECT's text to its tree
**   bind      names and types
**   plan      the backend's cost model and the plan
**   codegen   the program
**   exec      the program's run, and inside it: prep (module lookup,
**             columns, buffers: rPrepareSeconds), kern (the launches), out
**             (reading back, sorting, building the result)
**   wire      the worker's answer encoded and decoded (wire-result.c)
**   free      the result freed
**   total     all of it, one call's wall time (engine_execute and the wire)
**   cached    one call of the statement the engine kept (a lookup, then
**             its run): what a repeated query costs in the worker
**
** "module" is the module lookup alone (a cache hit), measured apart from
** the run in its own loop: exec's prep includes it.
**
** With --worker (the starq-worker program; bin/starq-worker), the same
** queries through a worker started as starqd starts it (worker_query: the
** supervisor's round trip, the worker's run, the answer's wire), N runs
** each (--spin-us: worker_config.nSpinMicros, default the machine's
** default): "worker" is its wall time — what the server's record of the
** query (SHOW starq.last_query) counts —, "w-exec" the run's time the
** worker reports, "w-kern" its kernels' time, "w-out" what it spent
** outside the run (worker - w-exec: the round trip, the engine's lookup
** of the kept statement, and the answer's wire) and "w-total-kern" the
** figure to cut on the real path: worker - w-kern.
**
** Then (with --worker) the same runs with a session's default options (a
** cancel flag to watch: server/stmt.c): "server" is their wall time — the
** figure starq-bench's server column and SHOW starq.last_query report —,
** "s-kern" their kernels, "s-total-kern" all of it but the kernels.
**
** --gap-us N waits N microseconds between queries through the worker, as
** a client's own work does between its queries (past the worker's spin,
** 2 ms by default, its reader sleeps and the next query pays its
** wake-up).
**
** Means in microseconds. In process the figure is total - kern: what each
** query costs beside its kernels when every phase runs (issue 10), and
** cached - kern when the statement was kept.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/fsdir.h"
#include "../common/timer.h"
#include "../engine/engine.h"
#include "../worker/wire.h"
#include "../worker/worker.h"

/* The phases timed in process, in the order they run. */
enum {
  PH_PARSE, PH_BIND, PH_PLAN, PH_CODEGEN, PH_EXEC, PH_PREP, PH_KERN, PH_OUT, PH_WIRE,
  PH_FREE, PH_TOTAL, PH_CACHED, PH_MODULE, PH_WORKER, PH_WEXEC, PH_WKERN, PH_SERVER, PH_SKERN, PH_N
};
/* Timed runs of a query shape take its own kernels, never the generic
** ones (the first run waits for them). */
static const exec_options overhead_xo = {.eGeneric = EXEC_GENERIC_OFF};

static const char *const azPhase[PH_N] = {
  "parse", "bind", "plan", "codegen", "exec", "prep", "kern", "out", "wire",
  "free", "total", "cached", "module", "worker", "w-exec", "w-kern", "server", "s-kern",
};

#define SSB_N 13
static const char *const azSsb[SSB_N] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                         "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};

/* A plan edit that changes nothing: a statement prepared with it is never
** kept, so every run prepares it afresh. */
static void overhead_edit_none(plan *p, void *pArg) {
  (void)p;
  (void)pArg;
}

/* The request for SELECT zSql: prepared afresh (bFresh) or kept. */
static engine_request overhead_request(const char *zSql, int bFresh) {
  engine_request q;
  memset(&q, 0, sizeof(q));
  q.eKind = ENGINE_SELECT;
  q.zSql = zSql;
  q.opt = overhead_xo;
  if (bFresh) q.xPlanEdit = overhead_edit_none;
  return q;
}

/* Runs zSql once through the engine as the worker would, prepared afresh,
** adding each phase's seconds to aSum (NULL: untimed), then once more as
** the kept statement (aSum[PH_CACHED]). Keeps the generated source in
** *pSrc if it is not NULL. Returns 0, or -1 with *pErr. */
static int overhead_once(engine *pEngine, const char *zSql, double *aSum, strbuf *pSrc,
                         sql_error *pErr) {
  engine_request q = overhead_request(zSql, 1);
  double t[PH_N], t0 = timer_now(), tPrev;
  char zErr[512];
  exec_result r, r2;
  wire_buf w;
  int rc = -1, rc2;
  memset(t, 0, sizeof(t));
  memset(&r, 0, sizeof(r));
  memset(&r2, 0, sizeof(r2));
  wire_buf_init(&w, WIRE_ANSWER);
  if (engine_execute(pEngine, &q, &r, pErr) != 0) goto out;
  tPrev = timer_now();
  t[PH_PARSE] = r.front.rParseSeconds;
  t[PH_BIND] = r.front.rBindSeconds;
  t[PH_PLAN] = r.front.rPlanSeconds;
  t[PH_CODEGEN] = r.front.rCodegenSeconds;
  t[PH_EXEC] = r.rSeconds;
  t[PH_PREP] = r.rPrepareSeconds;
  t[PH_KERN] = r.rKernelSeconds;
  t[PH_OUT] = r.rOutputSeconds;
  if (wire_answer_encode(&w, 1, 0, &r, NULL, zErr, sizeof(zErr)) != 0 ||
      wire_answer_decode(wire_buf_body(&w), wire_buf_body_size(&w), &rc2, &r2, pErr, zErr,
                         sizeof(zErr)) != 0) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "wire: %s", zErr);
    goto out;
  }
  t[PH_WIRE] = timer_now() - tPrev;
  if (pSrc != NULL) {
    /* The program of the query, for the module lookup's loop. */
    engine_stmt *pStmt;
    if (engine_prepare(pEngine, &q, &pStmt, pErr) != 0) goto out;
    strbuf_append(pSrc, strbuf_str(&engine_stmt_program(pStmt)->src),
                  engine_stmt_program(pStmt)->src.n);
    engine_stmt_free(pStmt);
  }
  rc = 0;
out:
  tPrev = timer_now();
  exec_result_free(&r);
  exec_result_free(&r2);
  wire_buf_free(&w);
  t[PH_FREE] = timer_now() - tPrev;
  t[PH_TOTAL] = timer_now() - t0;
  if (rc == 0) {
    engine_request qKept = overhead_request(zSql, 0);
    double t1 = timer_now();
    rc = engine_execute(pEngine, &qKept, &r, pErr);
    t[PH_CACHED] = timer_now() - t1;
    exec_result_free(&r);
  }
  for (int i = 0; rc == 0 && aSum != NULL && i < PH_MODULE; i++) aSum[i] += t[i];
  return rc;
}

/* Times N module lookups of zSrc (cache hits) into aSum[PH_MODULE]. */
static int overhead_module(exec_backend *pB, const char *zSrc, int nRun, double *aSum,
                           char *zErr, size_t nErr) {
  for (int i = 0; i < nRun; i++) {
    cpu_module *pMod;
    double t0 = timer_now();
    if (cpu_module_load(zSrc, &pB->opt, &pMod, zErr, nErr) != 0) return -1;
    cpu_module_free(pMod);
    aSum[PH_MODULE] += timer_now() - t0;
  }
  return 0;
}

/* Times N runs of zSql through the worker into aSum[PH_WORKER...], then N
** with the options a starqd session passes (stmt_select's defaults) into
** aSum[PH_SERVER...]. */
static int overhead_worker(worker *w, const char *zSql, int nRun, int nGapMicros, double *aSum,
                           sql_error *pErr) {
  _Atomic int bCancel = 0;
  const exec_options xoServer = {.pbCancel = &bCancel};
  for (int i = -1; i < 2 * nRun; i++) {
    exec_result r;
    int bServer = i >= nRun;
    double t0 = timer_now();
    engine_request q = overhead_request(zSql, 0);
    int rc;
    q.opt = bServer ? xoServer : (exec_options){0};
    rc = worker_query(w, &q, &r, pErr);
    double t = timer_now() - t0;
    if (rc == 0 && i >= 0) {
      aSum[bServer ? PH_SERVER : PH_WORKER] += t;
      aSum[bServer ? PH_SKERN : PH_WKERN] += r.rKernelSeconds;
      if (!bServer) aSum[PH_WEXEC] += r.rSeconds;
    }
    exec_result_free(&r);
    if (rc != 0) return -1;
    if (nGapMicros > 0) usleep((useconds_t)nGapMicros);
  }
  return 0;
}

static void overhead_usage(void) {
  fprintf(stderr, "usage: overhead --data DIR [--runs N] [--backend cpu|cuda] "
          "[--worker PROGRAM] [--spin-us N] [--gap-us N] [FILE.sql ...]\n");
}

/* Prints the header of the table: one column per phase. */
static void overhead_header(int bWorker) {
  int nCol = 0;
  printf("| query |");
  for (int i = 0; i < PH_N; i++) {
    if (i >= PH_WORKER && !bWorker) continue;
    printf(" %s |", azPhase[i]);
    nCol++;
  }
  printf(" total-kern | cached-kern |%s\n|---|",
         bWorker ? " w-out | w-total-kern | s-total-kern |" : "");
  for (int i = 0; i < nCol + 2 + 3 * bWorker; i++) printf("---:|");
  printf("\n");
}

/* Prints one row of means (aSum over nRun runs) in microseconds. */
static void overhead_row(const char *zName, const double *aSum, int nRun, int bWorker) {
  double us = 1e6 / nRun;
  printf("| %s |", zName);
  for (int i = 0; i < PH_N; i++) {
    if (i < PH_WORKER || bWorker) printf(" %.1f |", aSum[i] * us);
  }
  printf(" %.1f | %.1f |", (aSum[PH_TOTAL] - aSum[PH_KERN]) * us,
         (aSum[PH_CACHED] - aSum[PH_KERN]) * us);
  if (bWorker) {
    printf(" %.1f | %.1f | %.1f |", (aSum[PH_WORKER] - aSum[PH_WEXEC]) * us,
           (aSum[PH_WORKER] - aSum[PH_WKERN]) * us, (aSum[PH_SERVER] - aSum[PH_SKERN]) * us);
  }
  printf("\n");
}

int main(int argc, char **argv) {
  const char *zData = NULL, *zBackend = "cpu", *zWorker = NULL;
  int nRun = 200, iArg = 1, nFile, rc = 1, nSpin = -1, nGap = 0;
  double aAll[PH_N];
  char zErr[1024];
  exec_backend be;
  engine_config ec;
  engine *pEngine = NULL;
  worker *w = NULL;
  cat *pCat;
  for (; iArg < argc && strncmp(argv[iArg], "--", 2) == 0; iArg++) {
    if (iArg + 1 >= argc) {
      overhead_usage();
      return 2;
    } else if (strcmp(argv[iArg], "--data") == 0) {
      zData = argv[++iArg];
    } else if (strcmp(argv[iArg], "--runs") == 0) {
      nRun = atoi(argv[++iArg]);
    } else if (strcmp(argv[iArg], "--backend") == 0) {
      zBackend = argv[++iArg];
    } else if (strcmp(argv[iArg], "--worker") == 0) {
      zWorker = argv[++iArg];
    } else if (strcmp(argv[iArg], "--spin-us") == 0) {
      nSpin = atoi(argv[++iArg]);
    } else if (strcmp(argv[iArg], "--gap-us") == 0) {
      nGap = atoi(argv[++iArg]);
    } else {
      overhead_usage();
      return 2;
    }
  }
  if (zData == NULL || nRun < 1 || (strcmp(zBackend, "cpu") != 0 && strcmp(zBackend, "cuda") != 0)) {
    overhead_usage();
    return 2;
  }
  if (cat_open(&pCat, zData, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "overhead: %s\n", zErr);
    return 1;
  }
  if ((strcmp(zBackend, "cuda") == 0 ? exec_backend_cuda(&be, NULL, zErr, sizeof(zErr))
                                      : exec_backend_cpu(&be, 0, NULL, zErr, sizeof(zErr))) != 0) {
    fprintf(stderr, "overhead: the %s backend: %s\n", zBackend, zErr);
    cat_close(pCat);
    return 1;
  }
  if (exec_backend_preload(&be, pCat, 1, zErr, sizeof(zErr)) < 0) {
    fprintf(stderr, "overhead: preload: %s\n", zErr);
    goto out;
  }
  engine_config_init(&ec);
  ec.zDataDir = zData;
  ec.pBackend = &be;
  if (engine_open(&pEngine, &ec, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "overhead: %s\n", zErr);
    goto out;
  }
  if (zWorker != NULL) {
    worker_config c;
    worker_config_init(&c);
    c.zProgram = zWorker;
    c.zDataDir = zData;
    c.zBackend = zBackend;
    c.bPreload = 1;
    c.nSpinMicros = nSpin;
    if (worker_start(&c, &w, zErr, sizeof(zErr)) != 0) {
      fprintf(stderr, "overhead: the worker: %s\n", zErr);
      goto out;
    }
  }
  memset(aAll, 0, sizeof(aAll));
  nFile = argc > iArg ? argc - iArg : SSB_N;
  printf("%s backend, %s, %d runs each, mean microseconds per query\n\n", zBackend, zData, nRun);
  overhead_header(w != NULL);
  for (int i = 0; i < nFile; i++) {
    char zPath[4096];
    char *zSql;
    double aSum[PH_N];
    sql_error e;
    strbuf src;
    int rcQ = 0;
    if (argc > iArg) snprintf(zPath, sizeof(zPath), "%s", argv[iArg + i]);
    else snprintf(zPath, sizeof(zPath), "ssb-data/queries/%s.sql", azSsb[i]);
    if ((zSql = fsdir_read_file(zPath, NULL)) == NULL) {
      fprintf(stderr, "overhead: cannot read %s\n", zPath);
      goto out;
    }
    memset(aSum, 0, sizeof(aSum));
    strbuf_init(&src);
    sql_error_clear(&e);
    rcQ = overhead_once(pEngine, zSql, NULL, &src, &e);
    for (int r = 0; rcQ == 0 && r < nRun; r++) rcQ = overhead_once(pEngine, zSql, aSum, NULL, &e);
    if (rcQ == 0 && be.eKind == EXEC_BACKEND_CPU &&
        overhead_module(&be, strbuf_str(&src), nRun, aSum, zErr, sizeof(zErr)) != 0) {
      sql_error_set(&e, SQLSTATE_INTERNAL_ERROR, -1, "%s", zErr);
      rcQ = -1;
    }
    if (rcQ == 0 && w != NULL) rcQ = overhead_worker(w, zSql, nRun, nGap, aSum, &e);
    strbuf_free(&src);
    free(zSql);
    if (rcQ != 0) {
      fprintf(stderr, "overhead: %s: %s %s\n", zPath, e.zState, e.zMsg);
      goto out;
    }
    for (int k = 0; k < PH_N; k++) aAll[k] += aSum[k];
    overhead_row(argc > iArg ? zPath : azSsb[i], aSum, nRun, w != NULL);
  }
  overhead_row("mean", aAll, nRun * nFile, w != NULL);
  rc = 0;
out:
  worker_stop(w);
  engine_close(pEngine);
  exec_backend_close(&be);
  cat_close(pCat);
  return rc;
}
