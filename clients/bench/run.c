/*
** clients/bench/run.c — the single-client run: each query in turn on one
** connection, --warmup untimed runs and then --reps timed ones, each
** followed by SHOW starq.last_query for the server's side of it. The
** client's time is PQexec's wall time alone; the SHOW that follows is not
** in it. Every result is checked (a result set, and the expected answer
** under --verify); a failed query is reported at once and the others
** still run. Also the progress line the mix shares.
**
** A new query shape's first run takes the generic kernels while its own
** compile in the background (starq.generic_kernels): while the last
** warm-up still reports the generic tier, the warm-up is run again (every
** RUN_TIER_WAIT_MS, RUN_TIER_WAIT_MAX times at most), so that the timed
** runs measure the shape's own, optimized kernels.
**
** INTERFACE ROUTINES
**   bench_progress_init / _show / _clear   the progress line on stderr
**   bench_exec            one timed PQexec
**   bench_check           is this result right?
**   bench_run_all         every query, every repetition
**   bench_outcome_free
**   bench_server_note     what the server is, from its figures
*/
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/timer.h"
#include "bench.h"

/* Extra warm-ups while the generic kernels run, at most, and the pause
** before each (a shape's compile takes ~0.1-0.5 s with NVRTC on the GPU's
** host, 0.3-3.9 s with cc on the 2-core dev machine). */
#define RUN_TIER_WAIT_MAX 200
#define RUN_TIER_WAIT_MS 50

/* ---- progress ---------------------------------------------------------------- */

void bench_progress_init(bench_progress *p, int bQuiet) {
  p->bShow = !bQuiet;
  p->bTty = isatty(STDERR_FILENO);
  p->bDrawn = 0;
}

void bench_progress_show(bench_progress *p, int bLine, const char *zFmt, ...) {
  char z[256];
  va_list ap;
  if (!p->bShow || (!p->bTty && !bLine)) return;
  va_start(ap, zFmt);
  vsnprintf(z, sizeof(z), zFmt, ap);
  va_end(ap);
  if (p->bTty) {
    /* Back to the line's start, the text, then clear what a longer one left. */
    fprintf(stderr, "\r%s\033[K", z);
    p->bDrawn = 1;
  } else {
    fprintf(stderr, "%s\n", z);
  }
  fflush(stderr);
}

void bench_progress_clear(bench_progress *p) {
  if (!p->bDrawn) return;
  fputs("\r\033[K", stderr);
  fflush(stderr);
  p->bDrawn = 0;
}

/* ---- one statement ------------------------------------------------------------ */

PGresult *bench_exec(PGconn *c, const char *zSql, double *prSeconds) {
  double t0 = timer_now();
  PGresult *res = PQexec(c, zSql);
  *prSeconds = timer_now() - t0;
  return res;
}

int bench_check(const bench_query *q, const PGresult *res, PGconn *c, char *zErr, size_t nErr) {
  ExecStatusType e = PQresultStatus(res);
  bench_answer *pGot;
  char zDiff[1024];
  int rc;
  if (e == PGRES_FATAL_ERROR || res == NULL) {
    bench_result_error(res, c, zErr, nErr);
    return -1;
  }
  if (e != PGRES_TUPLES_OK) {
    snprintf(zErr, nErr, "not a query: the server answered %s, not rows", PQresStatus(e));
    return -1;
  }
  if (q->pExpect == NULL) return 0;
  if ((pGot = bench_answer_from_result(res)) == NULL) {
    snprintf(zErr, nErr, "out of memory reading the result");
    return -1;
  }
  rc = bench_answer_compare(q->pExpect, pGot, q->bOrdered, zDiff, sizeof(zDiff));
  if (rc != 0) snprintf(zErr, nErr, "wrong answer: %s", zDiff);
  bench_answer_free(pGot);
  return rc != 0 ? -1 : 0;
}

void bench_server_note(bench_server *pSrv, const bench_figures *pF) {
  if (pSrv->bKnown || !pF->bKnown) return;
  pSrv->bKnown = 1;
  snprintf(pSrv->zBackend, sizeof(pSrv->zBackend), "%s", pF->zBackend);
  snprintf(pSrv->zDevice, sizeof(pSrv->zDevice), "%s", pF->zDevice);
  pSrv->rZeroCopyBw = pF->rZeroCopyBw;
  pSrv->rDeviceBw = pF->rDeviceBw;
}

void bench_outcome_free(bench_outcome *p) {
  free(p->zError);
  bench_samples_free(&p->client);
  bench_samples_free(&p->server);
  memset(p, 0, sizeof(*p));
}

/* ---- the run -------------------------------------------------------------------- */

/* State of one single-client run. */
typedef struct run_state run_state;
struct run_state {
  const bench_args *pA;
  PGconn **pc;             /* the connection; replaced if it is lost */
  bench_server *pSrv;
  bench_progress prog;
  int bNoFigures;          /* the server has no SHOW starq.last_query, or
                           ** its answer could not be read: asked no more */
};

/* Reads the figures of the statement just run into o (iRun: its number,
** warm-ups first). Returns 1 if it ran on the generic kernels, else 0. */
static int run_figures(run_state *s, bench_outcome *o, int iRun) {
  bench_figures f;
  char zErr[512];
  int rc;
  if (s->bNoFigures) return 0;
  rc = bench_figures_fetch(*s->pc, &f, zErr, sizeof(zErr));
  if (rc != 0) {
    bench_progress_clear(&s->prog);
    fprintf(stderr, "starq-bench: %s; server times and floors are unknown\n", zErr);
    s->bNoFigures = 1;
    return 0;
  }
  if (!f.bKnown) return 0;
  bench_server_note(s->pSrv, &f);
  if (iRun == 0 && o->nTierWait == 0) {
    o->rCompileSeconds = f.rCompileSeconds;
    o->bFirstGeneric = f.bGeneric;
  }
  if (iRun >= s->pA->nWarmup && bench_samples_add(&o->server, f.rSeconds) != 0) {
    return f.bGeneric;
  }
  /* A statement whose figures did not fit comes back without its bytes. */
  if (f.nFactBytes >= 0) o->nFactBytes = f.nFactBytes;
  if (f.nBytesScanned >= 0) o->nBytesScanned = f.nBytesScanned;
  return f.bGeneric;
}

/* Keeps the first result of q as its expected answer (--write-expected).
** Returns 0, or -1 with zErr. */
static int run_write_expected(const bench_args *pA, const bench_query *q, const PGresult *res, char *zErr,
                              size_t nErr) {
  bench_answer *p = bench_answer_from_result(res);
  int rc;
  if (p == NULL) return (snprintf(zErr, nErr, "out of memory"), -1);
  rc = bench_answer_write(pA->zWriteExpected, q->zName, p, q->bOrdered, zErr, nErr);
  bench_answer_free(p);
  return rc;
}

/* Records that q failed with zWhy, says so on stderr, and makes the
** connection again if the failure took it down. Returns 1, or 2 if the
** connection could not be made again (zErr). */
static int run_fail(run_state *s, const bench_query *q, bench_outcome *o, const char *zWhy, char *zErr,
                    size_t nErr) {
  int bConnect;
  o->bOk = 0;
  free(o->zError);
  o->zError = strdup(zWhy);
  bench_progress_clear(&s->prog);
  fprintf(stderr, "starq-bench: %s: %s\n", q->zName, zWhy);
  if (PQstatus(*s->pc) == CONNECTION_OK) return 1;
  PQfinish(*s->pc);
  *s->pc = bench_conn_open(s->pA, &bConnect, zErr, nErr);
  return *s->pc != NULL ? 1 : 2;
}

/* Runs q's warm-ups and repetitions into o. Returns 0, 1 if q failed, 2 if
** the connection was lost and could not be made again (zErr). */
static int run_query(run_state *s, const bench_query *q, bench_outcome *o, char *zErr, size_t nErr) {
  const bench_args *pA = s->pA;
  int nRun = pA->nWarmup + pA->nReps;
  double rBest = 0;
  char zWhy[2048];
  for (int i = 0; i < nRun; i++) {
    double t;
    PGresult *res;
    int rc;
    if (i < pA->nWarmup) bench_progress_show(&s->prog, 0, "%s warmup %d/%d", q->zName, i + 1, pA->nWarmup);
    else bench_progress_show(&s->prog, 0, "%s rep %d/%d", q->zName, i - pA->nWarmup + 1, pA->nReps);
    res = bench_exec(*s->pc, q->zSql, &t);
    rc = bench_check(q, res, *s->pc, zWhy, sizeof(zWhy));
    if (rc == 0 && i == 0 && o->nTierWait == 0) {
      o->nRows = PQntuples(res);
      if (pA->zWriteExpected != NULL) rc = run_write_expected(pA, q, res, zWhy, sizeof(zWhy));
    }
    PQclear(res);
    if (rc != 0) return run_fail(s, q, o, zWhy, zErr, nErr);
    if (i >= pA->nWarmup) {
      if (bench_samples_add(&o->client, t) != 0) return run_fail(s, q, o, "out of memory", zErr, nErr);
      if (i == pA->nWarmup || t < rBest) rBest = t;
    }
    if (run_figures(s, o, i) && i == pA->nWarmup - 1 && o->nTierWait < RUN_TIER_WAIT_MAX) {
      o->nTierWait++;             /* this warm-up again, after a pause */
      usleep(RUN_TIER_WAIT_MS * 1000);
      i--;
    }
  }
  bench_progress_show(&s->prog, 1, "%s done: %d reps, best %.3f ms", q->zName, pA->nReps, rBest * 1e3);
  return 0;
}

int bench_run_all(const bench_args *pA, PGconn **pc, bench_query *aQ, int nQ, bench_outcome *aOut,
                  bench_server *pSrv, char *zErr, size_t nErr) {
  run_state s;
  int rc = 0;
  memset(&s, 0, sizeof(s));
  s.pA = pA;
  s.pc = pc;
  s.pSrv = pSrv;
  bench_progress_init(&s.prog, pA->bQuiet);
  memset(pSrv, 0, sizeof(*pSrv));
  for (int i = 0; i < nQ; i++) {
    memset(&aOut[i], 0, sizeof(aOut[i]));
    aOut[i].bOk = 1;
    aOut[i].nFactBytes = aOut[i].nBytesScanned = -1;
    aOut[i].rCompileSeconds = -1;
  }
  for (int i = 0; i < nQ; i++) {
    int r = run_query(&s, &aQ[i], &aOut[i], zErr, nErr);
    if (r == 2) {
      for (int j = i + 1; j < nQ; j++) {
        aOut[j].bOk = 0;
        aOut[j].zError = strdup("not run: the connection was lost");
      }
      rc = 2;
      break;
    }
    if (r != 0) rc = 1;
  }
  bench_progress_clear(&s.prog);
  return rc;
}
