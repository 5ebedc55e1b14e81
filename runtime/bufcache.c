/*
** runtime/bufcache.c — the free lists of runtime/bufcache.h.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "bufcache.h"

#define BUFCACHE_MIN_CLASS 12      /* 4 KiB */
#define BUFCACHE_CLASSES 48

typedef struct bufcache_buf bufcache_buf;
struct bufcache_buf {
  cuda_ptr p;
  unsigned iEpoch;
  bufcache_buf *pNext;
};

struct bufcache {
  cuda_device *pDev;
  uint64_t nKeep;          /* most bytes kept free */
  pthread_mutex_t mu;      /* guards what follows */
  uint64_t nKept;
  bufcache_buf *aFree[BUFCACHE_CLASSES];
};

static int bufcache_class(size_t n) {
  int k = BUFCACHE_MIN_CLASS;
  while (k < BUFCACHE_CLASSES - 1 && ((size_t)1 << k) < n) k++;
  return k;
}

int bufcache_open(cuda_device *d, uint64_t nKeep, bufcache **pp, char *zErr, size_t nErr) {
  bufcache *c = calloc(1, sizeof(*c));
  *pp = NULL;
  if (c == NULL || pthread_mutex_init(&c->mu, NULL) != 0) {
    free(c);
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  c->pDev = d;
  c->nKeep = nKeep;
  *pp = c;
  return 0;
}

/* Frees (or, from an older context, forgets) every kept buffer; the mutex
** is held. */
static uint64_t bufcache_drop(bufcache *c) {
  uint64_t n = c->nKept;
  unsigned iEpoch = cuda_device_epoch(c->pDev);
  for (int k = 0; k < BUFCACHE_CLASSES; k++) {
    while (c->aFree[k] != NULL) {
      bufcache_buf *b = c->aFree[k];
      c->aFree[k] = b->pNext;
      if (b->iEpoch == iEpoch) cuda_mem_free(c->pDev, b->p);
      free(b);
    }
  }
  c->nKept = 0;
  return n;
}

void bufcache_close(bufcache *c) {
  if (c == NULL) return;
  bufcache_drop(c);
  pthread_mutex_destroy(&c->mu);
  free(c);
}

int bufcache_alloc(bufcache *c, size_t n, cuda_ptr *p, size_t *pnCap, char *zErr, size_t nErr) {
  int k = bufcache_class(n);
  size_t nCap = (size_t)1 << k;
  unsigned iEpoch = cuda_device_epoch(c->pDev);
  pthread_mutex_lock(&c->mu);
  while (c->aFree[k] != NULL) {
    bufcache_buf *b = c->aFree[k];
    c->aFree[k] = b->pNext;
    c->nKept -= nCap;
    if (b->iEpoch == iEpoch) {
      pthread_mutex_unlock(&c->mu);
      *p = b->p;
      *pnCap = nCap;
      free(b);
      return 0;
    }
    free(b);                                 /* the context that had it is gone */
  }
  pthread_mutex_unlock(&c->mu);
  /* Past the largest class, the exact size: rounding would waste too much. */
  if (nCap < n) nCap = n;
  *pnCap = nCap;
  return cuda_mem_alloc(c->pDev, nCap, p, zErr, nErr);
}

void bufcache_free(bufcache *c, cuda_ptr p, size_t nCap, unsigned iEpoch) {
  int k = bufcache_class(nCap);
  bufcache_buf *b;
  if (p == 0 || iEpoch != cuda_device_epoch(c->pDev)) return;
  pthread_mutex_lock(&c->mu);
  if (((size_t)1 << k) != nCap || c->nKept + nCap > c->nKeep ||
      (b = malloc(sizeof(*b))) == NULL) {
    pthread_mutex_unlock(&c->mu);
    cuda_mem_free(c->pDev, p);
    return;
  }
  b->p = p;
  b->iEpoch = iEpoch;
  b->pNext = c->aFree[k];
  c->aFree[k] = b;
  c->nKept += nCap;
  pthread_mutex_unlock(&c->mu);
}

uint64_t bufcache_trim(bufcache *c) {
  uint64_t n;
  pthread_mutex_lock(&c->mu);
  n = bufcache_drop(c);
  pthread_mutex_unlock(&c->mu);
  return n;
}
