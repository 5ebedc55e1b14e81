/*
** clients/bench/mix.c — the concurrent mix: --clients C connections, one
** thread each, every thread running the whole query set round after round
** in an order of its own (shuffled per round from --seed and the client's
** number, so a run can be repeated), for --duration seconds or --reps
** rounds. What it measures is the server under load: each run's latency
** as its client saw it, and the throughput of all of them together.
**
** The warm-up runs first, on the first connection alone, so the kernels
** are compiled before any clock starts. Each thread asks SHOW
** starq.last_query once per query (the fact bytes, for GB/s and the
** floors), after that query's first run, outside its latency. Threads own
** their samples and counts; the main thread merges them after joining,
** so nothing is shared while they run but two atomic counters.
**
** INTERFACE ROUTINES
**   bench_mix_run    run the mix, fill a bench_mix
**   bench_mix_free
*/
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/timer.h"
#include "bench.h"

/* One client thread. */
typedef struct mix_client mix_client;
struct mix_client {
  const bench_args *pA;    /* read-only, shared */
  const bench_query *aQ;   /* read-only, shared (answers included) */
  int nQ;
  PGconn *c;               /* owned by this thread while it runs */
  double tStart;           /* when every clock started */
  bench_mix_query *aRes;   /* nQ: this client's outcomes; owned */
  bench_server srv;        /* what its figures said of the server */
  int *aiOrder;            /* nQ: this round's order; owned */
  uint64_t iRng;           /* the shuffle's state */
  double tEnd;             /* when its last query finished */
  int bLost;               /* its connection went down midway */
  _Atomic int64_t *pnDone; /* queries finished by every client */
  _Atomic int *pnRunning;  /* clients still running */
};

/* The next pseudo-random number of *p (splitmix64). */
static uint64_t mix_rand(uint64_t *p) {
  uint64_t z = (*p += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Puts aiOrder in a new random order (Fisher-Yates). */
static void mix_shuffle(mix_client *m) {
  for (int i = m->nQ - 1; i > 0; i--) {
    int j = (int)(mix_rand(&m->iRng) % (uint64_t)(i + 1));
    int t = m->aiOrder[i];
    m->aiOrder[i] = m->aiOrder[j];
    m->aiOrder[j] = t;
  }
}

/* Records a failed run of query iQ. */
static void mix_error(bench_mix_query *r, const char *zWhy) {
  r->nError++;
  if (r->zError == NULL) r->zError = strdup(zWhy);
}

/* Runs query iQ once on m's connection and records it. Returns 0, or -1
** if the connection is gone. */
static int mix_one(mix_client *m, int iQ) {
  const bench_query *q = &m->aQ[iQ];
  bench_mix_query *r = &m->aRes[iQ];
  char zWhy[2048];
  double t;
  PGresult *res = bench_exec(m->c, q->zSql, &t);
  int rc = bench_check(q, res, m->c, zWhy, sizeof(zWhy));
  PQclear(res);
  atomic_fetch_add(m->pnDone, 1);
  if (rc != 0) {
    mix_error(r, zWhy);
    return PQstatus(m->c) == CONNECTION_OK ? 0 : -1;
  }
  if (bench_samples_add(&r->lat, t) != 0) {
    mix_error(r, "out of memory");
    return 0;
  }
  if (r->nFactBytes < 0 && r->lat.n == 1) {
    bench_figures f;
    if (bench_figures_fetch(m->c, &f, zWhy, sizeof(zWhy)) == 0 && f.bKnown) {
      r->nFactBytes = f.nFactBytes;
      bench_server_note(&m->srv, &f);
    }
  }
  return 0;
}

/* The body of a client thread: rounds until the rounds or the time are
** up. */
static void *mix_thread(void *pArg) {
  mix_client *m = pArg;
  const bench_args *pA = m->pA;
  double tStop = m->tStart + pA->rDuration;
  for (int iRound = 0; !m->bLost && (pA->rDuration > 0 || iRound < pA->nReps); iRound++) {
    mix_shuffle(m);
    for (int i = 0; i < m->nQ && !m->bLost; i++) {
      if (pA->rDuration > 0 && timer_now() >= tStop) goto out_done;
      m->bLost = mix_one(m, m->aiOrder[i]) != 0;
    }
  }
  /* A lost connection ends the client; its last query holds the error. */
out_done:
  m->tEnd = timer_now();
  atomic_fetch_sub(m->pnRunning, 1);
  return NULL;
}

/* Runs the warm-up on c: each query pA->nWarmup times. Failures are
** recorded in aRes. */
static void mix_warmup(const bench_args *pA, PGconn *c, const bench_query *aQ, int nQ, bench_mix_query *aRes,
                       bench_progress *pProg) {
  char zWhy[2048];
  for (int i = 0; i < nQ; i++) {
    for (int k = 0; k < pA->nWarmup; k++) {
      double t;
      PGresult *res;
      bench_progress_show(pProg, 0, "%s warmup %d/%d", aQ[i].zName, k + 1, pA->nWarmup);
      res = bench_exec(c, aQ[i].zSql, &t);
      if (bench_check(&aQ[i], res, c, zWhy, sizeof(zWhy)) != 0) {
        mix_error(&aRes[i], zWhy);
        k = pA->nWarmup;
      }
      PQclear(res);
    }
  }
}

/* Merges the clients' outcomes into pMix. Returns 0, or -1 if memory ran
** out. */
static int mix_merge(bench_mix *pMix, mix_client *aC, int nC) {
  int rc = 0;
  for (int k = 0; k < nC; k++) {
    if (aC[k].tEnd - aC[k].tStart > pMix->rElapsed) pMix->rElapsed = aC[k].tEnd - aC[k].tStart;
    if (!pMix->srv.bKnown) pMix->srv = aC[k].srv;
    pMix->nLost += aC[k].bLost;
    for (int i = 0; i < pMix->nQ; i++) {
      bench_mix_query *pTo = &pMix->aQ[i], *pFrom = &aC[k].aRes[i];
      if (bench_samples_merge(&pTo->lat, &pFrom->lat) != 0) rc = -1;
      pTo->nError += pFrom->nError;
      if (pTo->zError == NULL && pFrom->zError != NULL) {
        pTo->zError = pFrom->zError;
        pFrom->zError = NULL;
      }
      if (pTo->nFactBytes < 0) pTo->nFactBytes = pFrom->nFactBytes;
    }
  }
  return rc;
}

/* Allocates the outcomes of nQ queries, fact bytes unknown. */
static bench_mix_query *mix_results_new(int nQ) {
  bench_mix_query *a = calloc((size_t)nQ, sizeof(*a));
  for (int i = 0; a != NULL && i < nQ; i++) a[i].nFactBytes = -1;
  return a;
}

/* Frees nQ outcomes. */
static void mix_results_free(bench_mix_query *a, int nQ) {
  for (int i = 0; a != NULL && i < nQ; i++) {
    bench_samples_free(&a[i].lat);
    free(a[i].zError);
  }
  free(a);
}

/* Shows the progress of the running mix until every client is done. */
static void mix_watch(const bench_args *pA, bench_progress *pProg, double tStart, _Atomic int64_t *pnDone,
                      _Atomic int *pnRunning) {
  double tLine = tStart;
  while (atomic_load(pnRunning) > 0) {
    double t = timer_now();
    int bLine = t - tLine >= 5;
    if (bLine) tLine = t;
    bench_progress_show(pProg, bLine, "mix: %d clients, %.1f s, %lld queries", pA->nClients, t - tStart,
                        (long long)atomic_load(pnDone));
    usleep(100 * 1000);
  }
}

int bench_mix_run(const bench_args *pA, bench_query *aQ, int nQ, bench_mix *pMix, char *zErr, size_t nErr) {
  int nC = pA->nClients, nStarted = 0, rc = 0, bConnect;
  mix_client *aC = calloc((size_t)nC, sizeof(*aC));
  pthread_t *aThread = calloc((size_t)nC, sizeof(*aThread));
  _Atomic int64_t nDone = 0;
  _Atomic int nRunning = 0;
  bench_progress prog;
  double tStart;
  memset(pMix, 0, sizeof(*pMix));
  pMix->nClient = nC;
  pMix->nQ = nQ;
  pMix->aQ = mix_results_new(nQ);
  bench_progress_init(&prog, pA->bQuiet);
  if (aC == NULL || aThread == NULL || pMix->aQ == NULL) {
    snprintf(zErr, nErr, "out of memory");
    rc = 1;
    goto out_free;
  }
  /* Every connection first: a server that takes fewer fails before the clock. */
  for (int k = 0; k < nC; k++) {
    mix_client *m = &aC[k];
    bench_progress_show(&prog, 0, "connecting %d/%d", k + 1, nC);
    m->c = bench_conn_open(pA, &bConnect, zErr, nErr);
    if (m->c == NULL) {
      rc = bConnect ? 2 : 1;
      goto out_free;
    }
    m->pA = pA;
    m->aQ = aQ;
    m->nQ = nQ;
    m->iRng = pA->iSeed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(k + 1));
    m->aRes = mix_results_new(nQ);
    m->aiOrder = calloc((size_t)nQ, sizeof(int));
    m->pnDone = &nDone;
    m->pnRunning = &nRunning;
    if (m->aRes == NULL || m->aiOrder == NULL) {
      snprintf(zErr, nErr, "out of memory");
      rc = 1;
      goto out_free;
    }
    for (int i = 0; i < nQ; i++) m->aiOrder[i] = i;
  }
  mix_warmup(pA, aC[0].c, aQ, nQ, pMix->aQ, &prog);
  tStart = timer_now();
  atomic_store(&nRunning, nC);
  for (int k = 0; k < nC; k++) {
    int e;
    aC[k].tStart = tStart;
    if ((e = pthread_create(&aThread[k], NULL, mix_thread, &aC[k])) != 0) {
      snprintf(zErr, nErr, "pthread_create: %s", strerror(e));
      /* The clients never started do not count as running. */
      atomic_fetch_sub(&nRunning, nC - k);
      rc = 1;
      break;
    }
    nStarted++;
  }
  mix_watch(pA, &prog, tStart, &nDone, &nRunning);
  for (int k = 0; k < nStarted; k++) pthread_join(aThread[k], NULL);
  bench_progress_clear(&prog);
  pMix->bRan = nStarted > 0;
  if (mix_merge(pMix, aC, nStarted) != 0 && rc == 0) {
    snprintf(zErr, nErr, "out of memory");
    rc = 1;
  }
  for (int i = 0; rc == 0 && i < nQ; i++) {
    if (pMix->aQ[i].nError > 0) rc = 1;
  }
  if (pMix->nLost > 0) {
    snprintf(zErr, nErr, "%d of %d clients lost their connection", pMix->nLost, nC);
    rc = 2;
  }
out_free:
  bench_progress_clear(&prog);
  for (int k = 0; aC != NULL && k < nC; k++) {
    PQfinish(aC[k].c);
    mix_results_free(aC[k].aRes, nQ);
    free(aC[k].aiOrder);
  }
  free(aC);
  free(aThread);
  return rc;
}

void bench_mix_free(bench_mix *p) {
  mix_results_free(p->aQ, p->nQ);
  memset(p, 0, sizeof(*p));
}
