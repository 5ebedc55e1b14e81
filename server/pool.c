/*
** server/pool.c — the executor thread pool (pool.h): a mutex-guarded queue
** of tasks ordered by when each is due, nThread threads waiting on a
** condition variable, and a done list drained on the loop thread when the
** uv_async_t fires. uv_async_send coalesces wake-ups, so the drain takes
** everything the list holds. The queue is a sorted list: it holds at most
** the sessions' statements (hundreds), and an insert walks it once.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "pool.h"

struct pool {
  uv_async_t async;        /* first: the close callback frees the pool */
  pthread_mutex_t mu;      /* guards the fields below */
  pthread_cond_t cv;       /* a task was queued, or the pool stops */
  pool_task *pHead, *pTail;  /* queued tasks */
  pool_task *pDone;        /* finished tasks, newest first */
  int nRunning;
  int nQueued;
  int bStop;
  int nThread;
  pthread_t *aThread;
};

static void *pool_thread_main(void *pArg) {
  pool *p = pArg;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    pool_task *t;
    while (p->pHead == NULL && !p->bStop) pthread_cond_wait(&p->cv, &p->mu);
    if (p->pHead == NULL) break;   /* stopping, and nothing is left */
    t = p->pHead;
    p->pHead = t->pNext;
    if (p->pHead == NULL) p->pTail = NULL;
    p->nQueued--;
    p->nRunning++;
    pthread_mutex_unlock(&p->mu);
    {
      double t0 = timer_now();
      t->xRun(t);
      t->rRan = timer_now() - t0;
    }
    pthread_mutex_lock(&p->mu);
    p->nRunning--;
    t->pNext = p->pDone;
    p->pDone = t;
    pthread_mutex_unlock(&p->mu);
    uv_async_send(&p->async);
    pthread_mutex_lock(&p->mu);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* Runs xDone of every finished task, oldest first, on the loop thread. */
static void pool_drain(pool *p) {
  pool_task *pList, *pRev = NULL;
  pthread_mutex_lock(&p->mu);
  pList = p->pDone;
  p->pDone = NULL;
  pthread_mutex_unlock(&p->mu);
  while (pList != NULL) {
    pool_task *pNext = pList->pNext;
    pList->pNext = pRev;
    pRev = pList;
    pList = pNext;
  }
  while (pRev != NULL) {
    pool_task *pNext = pRev->pNext;
    pRev->xDone(pRev);
    pRev = pNext;
  }
}

static void pool_on_async(uv_async_t *h) { pool_drain((pool *)h); }

int pool_start(pool **pp, uv_loop_t *pLoop, int nThread, char *zErr, size_t nErr) {
  pool *p = calloc(1, sizeof(*p));
  int rc;
  *pp = NULL;
  if (p == NULL || (p->aThread = calloc((size_t)nThread, sizeof(pthread_t))) == NULL) {
    free(p);
    snprintf(zErr, nErr, "pool: out of memory");
    return UV_ENOMEM;
  }
  rc = uv_async_init(pLoop, &p->async, pool_on_async);
  if (rc != 0) {
    snprintf(zErr, nErr, "uv_async_init: %s", uv_strerror(rc));
    free(p->aThread);
    free(p);
    return rc;
  }
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  for (int i = 0; i < nThread; i++) {
    int e = pthread_create(&p->aThread[i], NULL, pool_thread_main, p);
    if (e != 0) {
      snprintf(zErr, nErr, "pthread_create: %s", strerror(e));
      p->nThread = i;
      pool_stop(p);
      return UV_EAGAIN;
    }
    p->nThread = i + 1;
  }
  *pp = p;
  return 0;
}

void pool_submit(pool *p, pool_task *t) {
  pool_task **pp;
  t->rDue = timer_now() + (t->rCost > 0 ? t->rCost : 0);
  t->rRan = 0;
  pthread_mutex_lock(&p->mu);
  /* After every task due at the same time or before: ties stay FIFO, and
  ** the common case (no costs) appends at the tail. */
  if (p->pTail != NULL && p->pTail->rDue <= t->rDue) {
    pp = &p->pTail->pNext;
  } else {
    for (pp = &p->pHead; *pp != NULL && (*pp)->rDue <= t->rDue; pp = &(*pp)->pNext) {
    }
  }
  t->pNext = *pp;
  *pp = t;
  if (t->pNext == NULL) p->pTail = t;
  p->nQueued++;
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
}

void pool_counts(pool *p, int *pnRunning, int *pnQueued) {
  pthread_mutex_lock(&p->mu);
  *pnRunning = p->nRunning;
  *pnQueued = p->nQueued;
  pthread_mutex_unlock(&p->mu);
}

static void pool_on_close(uv_handle_t *h) {
  pool *p = (pool *)h;
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv);
  free(p->aThread);
  free(p);
}

void pool_stop(pool *p) {
  pthread_mutex_lock(&p->mu);
  p->bStop = 1;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->nThread; i++) pthread_join(p->aThread[i], NULL);
  pool_drain(p);
  uv_close((uv_handle_t *)&p->async, pool_on_close);
}
