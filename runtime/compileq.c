/*
** runtime/compileq.c — the background compiler (compileq.h says what it
** is for and its rules): a FIFO of jobs and the one thread that runs
** them, started with the first job.
**
** One mutex guards the queue, the running job's key and the stop flag;
** one condition variable is signalled when a job is queued, when one
** ends, and at close. A job runs with the mutex released, so a caller
** queueing or claiming another key never waits for a compile.
**
** INTERFACE ROUTINES
**   compileq_open, compileq_close, compileq_submit, compileq_claim,
**   compileq_wait, compileq_pending, compileq_abort_flag
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "compileq.h"

/* How often a claim that waits looks at its caller's cancel flag. */
#define COMPILEQ_POLL_MS 20

struct compileq {
  pthread_mutex_t mu;      /* guards everything below */
  pthread_cond_t cv;       /* a job queued, a job ended, or stop */
  pthread_t hThread;       /* the thread, once bStarted */
  int bStarted;
  int bStop;               /* compileq_close: stop the job in hand, drop the rest */
  _Atomic int bAbort;      /* set by compileq_close: a job that can stop (cc) stops */
  compileq_job *pQueue;    /* jobs not started, oldest first; owned */
  int bBusy;               /* a job runs now, of key keyBusy */
  hash128 keyBusy;
};

static int compileq_same(hash128 a, hash128 b) {
  return a.h1 == b.h1 && a.h2 == b.h2;
}

/* The thread: one job at a time until stopped. */
static void *compileq_main(void *pArg) {
  compileq *q = pArg;
  (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), COMPILEQ_NICE);
  pthread_mutex_lock(&q->mu);
  for (;;) {
    compileq_job *j;
    while (!q->bStop && q->pQueue == NULL) pthread_cond_wait(&q->cv, &q->mu);
    if (q->bStop) break;
    j = q->pQueue;
    q->pQueue = j->pNext;
    q->bBusy = 1;
    q->keyBusy = j->key;
    pthread_mutex_unlock(&q->mu);
    j->xRun(j);
    j->xFree(j);
    pthread_mutex_lock(&q->mu);
    q->bBusy = 0;
    pthread_cond_broadcast(&q->cv);
  }
  pthread_mutex_unlock(&q->mu);
  return NULL;
}

int compileq_open(compileq **pp, char *zErr, size_t nErr) {
  compileq *q = calloc(1, sizeof(*q));
  *pp = NULL;
  if (q == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  if (pthread_mutex_init(&q->mu, NULL) != 0) {
    free(q);
    snprintf(zErr, nErr, "pthread_mutex_init failed");
    return -1;
  }
  if (pthread_cond_init(&q->cv, NULL) != 0) {
    pthread_mutex_destroy(&q->mu);
    free(q);
    snprintf(zErr, nErr, "pthread_cond_init failed");
    return -1;
  }
  *pp = q;
  return 0;
}

void compileq_close(compileq *q) {
  compileq_job *j;
  int nDropped = 0;
  if (q == NULL) return;
  pthread_mutex_lock(&q->mu);
  q->bStop = 1;
  atomic_store(&q->bAbort, 1);
  pthread_cond_broadcast(&q->cv);
  while ((j = q->pQueue) != NULL) {
    q->pQueue = j->pNext;
    j->xFree(j);
    nDropped++;
  }
  pthread_mutex_unlock(&q->mu);
  if (q->bStarted) pthread_join(q->hThread, NULL);
  if (nDropped > 0) log_printf(LOG_LEVEL_DEBUG, "compile: %d queued compiles dropped at close", nDropped);
  pthread_cond_destroy(&q->cv);
  pthread_mutex_destroy(&q->mu);
  free(q);
}

/* Returns the link that points at the queued job of key, or NULL. Called
** with mu held. */
static compileq_job **compileq_find(compileq *q, hash128 key) {
  for (compileq_job **pp = &q->pQueue; *pp != NULL; pp = &(*pp)->pNext) {
    if (compileq_same((*pp)->key, key)) return pp;
  }
  return NULL;
}

int compileq_submit(compileq *q, compileq_job *j, char *zErr, size_t nErr) {
  compileq_job **pp;
  pthread_mutex_lock(&q->mu);
  if (q->bStop || (q->bBusy && compileq_same(q->keyBusy, j->key)) ||
      compileq_find(q, j->key) != NULL) {
    pthread_mutex_unlock(&q->mu);
    j->xFree(j);
    return 0;
  }
  if (!q->bStarted) {
    int e = pthread_create(&q->hThread, NULL, compileq_main, q);
    if (e != 0) {
      pthread_mutex_unlock(&q->mu);
      j->xFree(j);
      snprintf(zErr, nErr, "the background compiler could not start: pthread_create: %s",
               strerror(e));
      return -1;
    }
    q->bStarted = 1;
  }
  for (pp = &q->pQueue; *pp != NULL; pp = &(*pp)->pNext) {
  }
  j->pNext = NULL;
  *pp = j;
  pthread_cond_broadcast(&q->cv);
  pthread_mutex_unlock(&q->mu);
  return 0;
}

int compileq_claim(compileq *q, hash128 key, const _Atomic int *pbCancel) {
  compileq_job **pp, *j = NULL;
  int bWaited = 0;
  pthread_mutex_lock(&q->mu);
  if ((pp = compileq_find(q, key)) != NULL) {
    j = *pp;
    *pp = j->pNext;
  }
  while (q->bBusy && compileq_same(q->keyBusy, key)) {
    if (pbCancel != NULL && atomic_load(pbCancel)) {
      bWaited = -1;
      break;
    }
    if (pbCancel == NULL) {
      pthread_cond_wait(&q->cv, &q->mu);
    } else {
      timer_cond_wait_ms(&q->cv, &q->mu, COMPILEQ_POLL_MS);
    }
    bWaited = 1;
  }
  pthread_mutex_unlock(&q->mu);
  if (j != NULL) j->xFree(j);
  return bWaited;
}

const _Atomic int *compileq_abort_flag(compileq *q) {
  return &q->bAbort;
}

void compileq_wait(compileq *q) {
  pthread_mutex_lock(&q->mu);
  while (q->pQueue != NULL || q->bBusy) pthread_cond_wait(&q->cv, &q->mu);
  pthread_mutex_unlock(&q->mu);
}

int compileq_pending(compileq *q, hash128 key) {
  int b;
  pthread_mutex_lock(&q->mu);
  b = (q->bBusy && compileq_same(q->keyBusy, key)) || compileq_find(q, key) != NULL;
  pthread_mutex_unlock(&q->mu);
  return b;
}
