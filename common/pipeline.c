/*
** common/pipeline.c — the ordered parallel pipeline of pipeline.h.
**
** One mutex and one condition variable guard the shared counters. The
** condition is broadcast whenever a chunk is consumed or a failure is
** recorded, which is what every waiter waits for.
*/
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pipeline.h"

#define PIPE_THREAD_MAX 1024

typedef struct pipe pipe;
struct pipe {
  const pipe_job *pJob;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int64_t iNextClaim;      /* next chunk to hand out */
  int64_t iNextConsume;    /* next chunk due for consumption */
  int64_t iFail;           /* lowest failing chunk, or nChunk if none */
  int nRunning;            /* threads not yet finished */
  char zErr[512];          /* the error of chunk iFail */
};

/* A thread's start argument: the pipe and which worker state is its. */
typedef struct pipe_thread pipe_thread;
struct pipe_thread {
  pipe *p;
  void *pWorker;
};

/* Records that chunk k failed with zMsg, if it is the lowest failure so
** far. Caller holds mu. */
static void pipe__fail(pipe *p, int64_t k, const char *zMsg) {
  if (k < p->iFail) {
    p->iFail = k;
    snprintf(p->zErr, sizeof(p->zErr), "%s", zMsg);
  }
  pthread_cond_broadcast(&p->cv);
}

static void *pipe_thread_main(void *pArg) {
  pipe_thread *pt = pArg;
  pipe *p = pt->p;
  const pipe_job *j = p->pJob;
  char zErr[512];

  for (;;) {
    int64_t k;
    int rc;

    pthread_mutex_lock(&p->mu);
    if (p->iNextClaim >= p->iFail) {
      pthread_mutex_unlock(&p->mu);
      break;
    }
    k = p->iNextClaim++;
    pthread_mutex_unlock(&p->mu);

    zErr[0] = 0;
    rc = j->xProduce(j->pCtx, pt->pWorker, k, zErr, sizeof(zErr));

    pthread_mutex_lock(&p->mu);
    if (rc != 0) {
      pipe__fail(p, k, zErr);
      pthread_mutex_unlock(&p->mu);
      continue;   /* lower chunks may still be produced and fail first */
    }
    while (p->iNextConsume != k && p->iFail == j->nChunk) pthread_cond_wait(&p->cv, &p->mu);
    if (p->iFail != j->nChunk) {
      /* Some chunk failed: nothing more is consumed, and the chunks
      ** before ours will not advance iNextConsume either. */
      pthread_mutex_unlock(&p->mu);
      continue;
    }
    pthread_mutex_unlock(&p->mu);

    rc = j->xConsume(j->pCtx, pt->pWorker, k, zErr, sizeof(zErr));

    pthread_mutex_lock(&p->mu);
    if (rc != 0) {
      pipe__fail(p, k, zErr);
    } else {
      p->iNextConsume++;
      pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
  }

  pthread_mutex_lock(&p->mu);
  p->nRunning--;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

int pipe_run(const pipe_job *pJob, char *zErr, size_t nErr) {
  pthread_t aThread[PIPE_THREAD_MAX];
  pipe_thread aArg[PIPE_THREAD_MAX];
  int nThread = pJob->nWorker, nStarted = 0, rc;
  pipe p;

  if (nThread < 1 || nThread > PIPE_THREAD_MAX) {
    snprintf(zErr, nErr, "pipeline: %d threads is out of range 1..%d", nThread, PIPE_THREAD_MAX);
    return -1;
  }
  memset(&p, 0, sizeof(p));
  p.pJob = pJob;
  p.iFail = pJob->nChunk;
  pthread_mutex_init(&p.mu, NULL);
  pthread_cond_init(&p.cv, NULL);

  pthread_mutex_lock(&p.mu);
  for (int i = 0; i < nThread; i++) {
    aArg[i].p = &p;
    aArg[i].pWorker = pJob->apWorker[i];
    if (pthread_create(&aThread[i], NULL, pipe_thread_main, &aArg[i]) != 0) break;
    nStarted++;
    p.nRunning++;
  }
  if (nStarted == 0) pipe__fail(&p, -1, "pthread_create: cannot start a thread");
  while (p.nRunning > 0) {
    struct timespec ts;
    int64_t nDone;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 100 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(&p.cv, &p.mu, &ts);
    nDone = p.iNextConsume;
    pthread_mutex_unlock(&p.mu);
    if (pJob->xProgress) pJob->xProgress(pJob->pCtx, nDone);
    pthread_mutex_lock(&p.mu);
  }
  rc = p.iFail == pJob->nChunk ? 0 : -1;
  if (rc != 0) snprintf(zErr, nErr, "%s", p.zErr);
  pthread_mutex_unlock(&p.mu);
  for (int i = 0; i < nStarted; i++) pthread_join(aThread[i], NULL);
  pthread_cond_destroy(&p.cv);
  pthread_mutex_destroy(&p.mu);
  return rc;
}
