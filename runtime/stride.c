/*
** runtime/stride.c — the stride buffer pool and its copier threads
** (runtime/stride.h).
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stride.h"

#define STRIDE_BUF_MAX 64
#define STRIDE_THREADS_MAX 8
/* Small enough that every thread gets several of a 32 MiB stride's. */
#define STRIDE_PIECE ((size_t)1 << 20)

typedef struct stride_slot stride_slot;
struct stride_slot {
  void *pHost;             /* page-aligned; owned; NULL until first taken */
  uint64_t iAddr;          /* the device's view, in epoch iEpoch */
  unsigned iEpoch;
  int bRegistered;
  int bTaken;
};

struct stride_pool {
  cuda_device *pDev;
  uint64_t nBufByte;
  int nBufMax;
  stride_slot aSlot[STRIDE_BUF_MAX];
  pthread_mutex_t mu;      /* guards the slots, the queue and bStop */
  pthread_cond_t free;     /* a slot was given back */
  pthread_cond_t work;     /* a copy was queued, or stop */
  pthread_cond_t done;     /* a copy's last piece finished */
  stride_copy *pQueue;     /* copies with pieces left to take */
  int bStop;
  int nThread;
  pthread_t aThread[STRIDE_THREADS_MAX];
};

/* ---- copies --------------------------------------------------------------- */

int stride_copy_add(stride_copy *c, void *pDst, const void *pSrc, size_t n) {
  for (size_t i = 0; i < n; i += STRIDE_PIECE) {
    if (c->nPiece == c->nAlloc) {
      int nNew = c->nAlloc ? c->nAlloc * 2 : 64;
      stride_piece *a = realloc(c->aPiece, (size_t)nNew * sizeof(*a));
      if (a == NULL) return -1;
      c->aPiece = a;
      c->nAlloc = nNew;
    }
    c->aPiece[c->nPiece].pDst = (char *)pDst + i;
    c->aPiece[c->nPiece].pSrc = (const char *)pSrc + i;
    c->aPiece[c->nPiece].n = n - i < STRIDE_PIECE ? n - i : STRIDE_PIECE;
    c->nPiece++;
  }
  return 0;
}

void stride_copy_reset(stride_copy *c) {
  c->nPiece = 0;
  c->iNext = 0;
  c->nDone = 0;
  c->pNext = NULL;
}

void stride_copy_free(stride_copy *c) {
  free(c->aPiece);
  memset(c, 0, sizeof(*c));
}

/* Takes the next piece of the queue's first copy (the mutex held). */
static stride_copy *stride_take_piece(stride_pool *p, int *piPiece) {
  stride_copy *c = p->pQueue;
  if (c == NULL) return NULL;
  *piPiece = c->iNext++;
  if (c->iNext == c->nPiece) p->pQueue = c->pNext;
  return c;
}

/* Copies piece i of c and counts it (the mutex not held on entry). */
static void stride_do_piece(stride_pool *p, stride_copy *c, int i) {
  const stride_piece *x = &c->aPiece[i];
  memcpy(x->pDst, x->pSrc, x->n);
  pthread_mutex_lock(&p->mu);
  if (++c->nDone == c->nPiece) pthread_cond_broadcast(&p->done);
  pthread_mutex_unlock(&p->mu);
}

static void *stride_thread_main(void *pArg) {
  stride_pool *p = pArg;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    stride_copy *c;
    int i;
    while (!p->bStop && p->pQueue == NULL) pthread_cond_wait(&p->work, &p->mu);
    if (p->bStop) break;
    c = stride_take_piece(p, &i);
    pthread_mutex_unlock(&p->mu);
    stride_do_piece(p, c, i);
    pthread_mutex_lock(&p->mu);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

void stride_copy_start(stride_pool *p, stride_copy *c) {
  stride_copy **pp;
  c->iNext = 0;
  c->nDone = 0;
  c->pNext = NULL;
  if (c->nPiece == 0) return;
  pthread_mutex_lock(&p->mu);
  for (pp = &p->pQueue; *pp != NULL; pp = &(*pp)->pNext) {}
  *pp = c;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
}

void stride_copy_wait(stride_pool *p, stride_copy *c) {
  pthread_mutex_lock(&p->mu);
  /* Help with this copy's own pieces, then wait for the ones in flight. */
  while (c->iNext < c->nPiece) {
    stride_copy **pp;
    int i = c->iNext++;
    if (c->iNext == c->nPiece) {
      for (pp = &p->pQueue; *pp != NULL && *pp != c; pp = &(*pp)->pNext) {}
      if (*pp == c) *pp = c->pNext;
    }
    pthread_mutex_unlock(&p->mu);
    stride_do_piece(p, c, i);
    pthread_mutex_lock(&p->mu);
  }
  while (c->nDone < c->nPiece) pthread_cond_wait(&p->done, &p->mu);
  pthread_mutex_unlock(&p->mu);
}

/* ---- the pool ---------------------------------------------------------------- */

static int stride_cpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

int stride_pool_open(cuda_device *pDev, const stride_options *pOpt, stride_pool **pp,
                     char *zErr, size_t nErr) {
  stride_pool *p = calloc(1, sizeof(*p));
  int nThread;
  *pp = NULL;
  if (p == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  p->pDev = pDev;
  p->nBufByte = pOpt != NULL && pOpt->nBufByte > 0 ? (uint64_t)pOpt->nBufByte : STRIDE_BYTES;
  p->nBufByte = (p->nBufByte + 4095) / 4096 * 4096;
  p->nBufMax = pOpt != NULL && pOpt->nBufMax > 0 ? pOpt->nBufMax : STRIDE_BUF_MAX;
  if (p->nBufMax > STRIDE_BUF_MAX) p->nBufMax = STRIDE_BUF_MAX;
  nThread = pOpt != NULL && pOpt->nThread >= 0 ? pOpt->nThread : stride_cpus() / 2;
  if (nThread > STRIDE_THREADS_MAX) nThread = STRIDE_THREADS_MAX;
  if (pthread_mutex_init(&p->mu, NULL) != 0 || pthread_cond_init(&p->free, NULL) != 0 ||
      pthread_cond_init(&p->work, NULL) != 0 || pthread_cond_init(&p->done, NULL) != 0) {
    free(p);
    snprintf(zErr, nErr, "pthread init failed");
    return -1;
  }
  for (int i = 0; i < nThread; i++) {
    if (pthread_create(&p->aThread[i], NULL, stride_thread_main, p) != 0) break;
    p->nThread++;
  }
  *pp = p;
  return 0;
}

void stride_pool_close(stride_pool *p) {
  if (p == NULL) return;
  pthread_mutex_lock(&p->mu);
  p->bStop = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->nThread; i++) pthread_join(p->aThread[i], NULL);
  for (int i = 0; i < STRIDE_BUF_MAX; i++) {
    stride_slot *s = &p->aSlot[i];
    if (s->bRegistered && cuda_device_epoch(p->pDev) == s->iEpoch) {
      cuda_host_unregister(p->pDev, s->pHost);
    }
    free(s->pHost);
  }
  pthread_cond_destroy(&p->free);
  pthread_cond_destroy(&p->work);
  pthread_cond_destroy(&p->done);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

uint64_t stride_pool_buf_bytes(const stride_pool *p) { return p->nBufByte; }

int stride_pool_buf_max(const stride_pool *p) { return p->nBufMax; }

/* Makes slot s usable: memory, and a registration in the current context. */
static int stride_slot_ready(stride_pool *p, stride_slot *s, sql_error *pErr) {
  char zErr[512];
  int rc;
  if (s->pHost == NULL && posix_memalign(&s->pHost, 4096, p->nBufByte) != 0) {
    s->pHost = NULL;
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory for a stride buffer");
    return -1;
  }
  if (p->pDev == NULL) {
    s->iAddr = (uint64_t)(uintptr_t)s->pHost;
    return 0;
  }
  if (s->bRegistered && s->iEpoch == cuda_device_epoch(p->pDev)) return 0;
  s->bRegistered = 0;                      /* a rebuilt context forgot it */
  if ((rc = cuda_host_register(p->pDev, s->pHost, p->nBufByte, &s->iAddr, zErr, sizeof(zErr))) != 0) {
    sql_error_set(pErr, rc == CUDA_ENOMEM ? SQLSTATE_OUT_OF_MEMORY : SQLSTATE_INTERNAL_ERROR, -1,
                  "pinning a stride buffer: %s", zErr);
    return -1;
  }
  s->bRegistered = 1;
  s->iEpoch = cuda_device_epoch(p->pDev);
  return 0;
}

static int stride_free_slots(const stride_pool *p) {
  int n = 0;
  for (int i = 0; i < p->nBufMax; i++) n += !p->aSlot[i].bTaken;
  return n;
}

/* Takes n buffers into a, waiting for them if bWait, else returning 1
** when fewer are free now. */
static int stride_pool_take_some(stride_pool *p, int n, stride_buf *a, int bWait, sql_error *pErr) {
  int k = 0;
  if (n > p->nBufMax) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1,
                  "a scan needs %d stride buffers and the pool has %d", n, p->nBufMax);
    return -1;
  }
  pthread_mutex_lock(&p->mu);
  /* All at once: taking some and waiting for more could deadlock two queries. */
  while (bWait && stride_free_slots(p) < n) pthread_cond_wait(&p->free, &p->mu);
  if (stride_free_slots(p) < n) {
    pthread_mutex_unlock(&p->mu);
    return 1;
  }
  for (int i = 0; i < p->nBufMax && k < n; i++) {
    if (p->aSlot[i].bTaken) continue;
    p->aSlot[i].bTaken = 1;
    a[k++].iSlot = i;
  }
  pthread_mutex_unlock(&p->mu);
  for (k = 0; k < n; k++) {
    stride_slot *s = &p->aSlot[a[k].iSlot];
    if (stride_slot_ready(p, s, pErr) != 0) {
      stride_pool_give(p, n, a);
      return -1;
    }
    a[k].pHost = s->pHost;
    a[k].iAddr = s->iAddr;
  }
  return 0;
}

int stride_pool_take(stride_pool *p, int n, stride_buf *a, sql_error *pErr) {
  return stride_pool_take_some(p, n, a, 1, pErr);
}

int stride_pool_take_now(stride_pool *p, int n, stride_buf *a, sql_error *pErr) {
  return stride_pool_take_some(p, n, a, 0, pErr);
}

void stride_pool_give(stride_pool *p, int n, stride_buf *a) {
  pthread_mutex_lock(&p->mu);
  for (int k = 0; k < n; k++) {
    if (a[k].iSlot >= 0) p->aSlot[a[k].iSlot].bTaken = 0;
    a[k].iSlot = -1;
  }
  pthread_cond_broadcast(&p->free);
  pthread_mutex_unlock(&p->mu);
}
