/*
** runtime/exec-queue.c — the order of one query's device work: on CUDA a
** stream of the query's own, on which exec.c enqueues its buffer clears,
** code-set copies, launches and reads, and waits once per round of
** kernels; on the CPU nothing to wait for (every call is done when it
** returns) but the clock of the timing marks.
**
** Why a stream per query: on the legacy default stream, which every
** thread shares, a query's kernels queued behind every other query's and
** each wait for its own work waited for theirs too, so at most one
** query's kernels ran at a time and each query's host work (planning,
** module lookup, the worker's wire) left the GPU idle. On non-blocking
** streams of their own (cuda-stream.c) queries overlap on the device and
** one query's host work runs while others' kernels do.
**
** Streams are kept between queries in the backend's pool, each with the
** events of its timing marks and a pinned staging area (EXEC_STAGE_BYTES)
** that reads are copied into asynchronously and out of after the wait: a
** round of kernels costs one wait, not one per read. A read larger than
** what is left of the area goes straight to its destination (the driver
** then copies at once, after the stream's earlier work). A stream and its
** staging belong to the context's epoch: after a rebuild they are
** forgotten (the reset freed them) and new ones made.
**
** The rules this imposes on the executor (exec.c, exec-scan.c):
**   - a buffer read is in its destination only after exec__queue_wait();
**   - nothing the queued work uses may be freed, reused or changed until
**     the queue has been waited for: device buffers go back to the buffer
**     cache (where another query's stream may take them) and columns back
**     to the column cache (where they may be evicted) only after it, and
**     a stride buffer is refilled only once the kernel that read it is
**     done;
**   - exec__queue_close() waits before giving the stream back, so a query
**     that fails halfway leaves nothing running.
**
** INTERFACE ROUTINES
**   exec__queue_open, exec__queue_close, exec__queue_wait
**   exec__queue_mark, exec__queue_seconds, exec__queue_read, exec__queue_stream
**   exec__streams_open, exec__streams_close
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/timer.h"
#include "execInt.h"

/* Pinned bytes per stream for reads: an aggregate's outputs (a few
** thousand groups of a few columns) and the control block fit whole. */
#define EXEC_STAGE_BYTES ((size_t)256 << 10)

/* One pooled stream. */
struct exec_stream {
  cuda_stream *s;
  unsigned iEpoch;         /* the context s and pStage belong to */
  unsigned char *pStage;   /* EXEC_STAGE_BYTES of pinned memory, or NULL
                           ** (cuMemHostAlloc refused: reads go straight) */
  exec_stream *pNext;      /* in the pool */
};

/* The backend's streams not in use. */
struct exec_streams {
  pthread_mutex_t mu;      /* guards pFree */
  exec_stream *pFree;
};

/* A read waiting in the staging area for the queue's wait. */
struct exec_read {
  void *pDst;
  size_t iStage;           /* where in the staging area */
  size_t n;
};

int exec__streams_open(exec_backend *pB, char *zErr, size_t nErr) {
  exec_streams *p = calloc(1, sizeof(*p));
  if (p == NULL || pthread_mutex_init(&p->mu, NULL) != 0) {
    free(p);
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  pB->pStreams = p;
  return 0;
}

/* Frees x: the driver's side only while it belongs to the current,
** usable context (a rebuilt or lost one took it along). */
static void exec_stream_free(exec_backend *pB, exec_stream *x) {
  int bLive = x->iEpoch == cuda_device_epoch(pB->pCuda) && !cuda_device_lost(pB->pCuda);
  if (bLive) cuda_host_free(pB->pCuda, x->pStage);
  cuda_stream_destroy(pB->pCuda, x->s);      /* host side only when stale */
  free(x);
}

void exec__streams_close(exec_backend *pB) {
  exec_streams *p = pB->pStreams;
  if (p == NULL) return;
  while (p->pFree != NULL) {
    exec_stream *x = p->pFree;
    p->pFree = x->pNext;
    exec_stream_free(pB, x);
  }
  pthread_mutex_destroy(&p->mu);
  free(p);
  pB->pStreams = NULL;
}

/* A stream of the current epoch: from the pool, or made now. */
static exec_stream *exec_stream_take(exec_backend *pB, sql_error *pErr) {
  exec_streams *p = pB->pStreams;
  unsigned iEpoch = cuda_device_epoch(pB->pCuda);
  char zErr[512];
  exec_stream *x;
  for (;;) {
    pthread_mutex_lock(&p->mu);
    if ((x = p->pFree) != NULL) p->pFree = x->pNext;
    pthread_mutex_unlock(&p->mu);
    if (x == NULL || x->iEpoch == iEpoch) break;
    exec_stream_free(pB, x);                 /* of a context since rebuilt */
  }
  if (x != NULL) return x;
  if ((x = calloc(1, sizeof(*x))) == NULL) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while running the query");
    return NULL;
  }
  x->iEpoch = iEpoch;
  if (cuda_stream_create(pB->pCuda, &x->s, zErr, sizeof(zErr)) != 0) {
    free(x);
    exec__cuda_error(-1, zErr, pErr);
    return NULL;
  }
  /* Without the staging area reads only wait more: not an error. */
  if (cuda_host_alloc(pB->pCuda, EXEC_STAGE_BYTES, (void **)&x->pStage, zErr, sizeof(zErr)) != 0) {
    x->pStage = NULL;
  }
  return x;
}

int exec__queue_open(exec_backend *pB, exec_queue *q, sql_error *pErr) {
  memset(q, 0, sizeof(*q));
  if (pB->eKind != EXEC_BACKEND_CUDA) return 0;
  return (q->pStream = exec_stream_take(pB, pErr)) != NULL ? 0 : -1;
}

void exec__queue_close(exec_backend *pB, exec_queue *q) {
  exec_streams *p = pB->pStreams;
  exec_stream *x = q->pStream;
  sql_error e;
  if (x != NULL) {
    /* Whatever failed, nothing of the query may still run. */
    if (exec__queue_wait(pB, q, &e) != 0 || cuda_device_lost(pB->pCuda)) {
      exec_stream_free(pB, x);
    } else {
      pthread_mutex_lock(&p->mu);
      x->pNext = p->pFree;
      p->pFree = x;
      pthread_mutex_unlock(&p->mu);
    }
  }
  free(q->aRead);
  free(q->aHostMark);
  memset(q, 0, sizeof(*q));
}

cuda_stream *exec__queue_stream(const exec_queue *q) {
  return q->pStream != NULL ? q->pStream->s : NULL;
}

int exec__queue_wait(exec_backend *pB, exec_queue *q, sql_error *pErr) {
  char zErr[512];
  if (q->pStream == NULL) return 0;
  if (cuda_stream_sync(pB->pCuda, q->pStream->s, zErr, sizeof(zErr)) != 0) {
    q->nRead = 0;
    q->nStage = 0;
    return exec__cuda_error(-1, zErr, pErr);
  }
  for (int i = 0; i < q->nRead; i++) {
    memcpy(q->aRead[i].pDst, q->pStream->pStage + q->aRead[i].iStage, q->aRead[i].n);
  }
  q->nRead = 0;
  q->nStage = 0;
  return 0;
}

int exec__queue_read(exec_backend *pB, exec_queue *q, void *pDst, cuda_ptr src, size_t n,
                     sql_error *pErr) {
  exec_stream *x = q->pStream;
  char zErr[512];
  size_t iAt = (q->nStage + 15) / 16 * 16;
  int rc;
  if (n == 0) return 0;
  if (x->pStage != NULL && iAt + n <= EXEC_STAGE_BYTES) {
    if (q->nRead == q->nReadAlloc) {
      int nNew = q->nReadAlloc ? 2 * q->nReadAlloc : 16;
      exec_read *a = realloc(q->aRead, sizeof(*a) * (size_t)nNew);
      if (a == NULL) {
        sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while reading the result");
        return -1;
      }
      q->aRead = a;
      q->nReadAlloc = nNew;
    }
    rc = cuda_mem_read_async(pB->pCuda, x->s, x->pStage + iAt, src, n, zErr, sizeof(zErr));
    if (rc != 0) return exec__cuda_error(rc, zErr, pErr);
    q->aRead[q->nRead].pDst = pDst;
    q->aRead[q->nRead].iStage = iAt;
    q->aRead[q->nRead].n = n;
    q->nRead++;
    q->nStage = iAt + n;
    return 0;
  }
  /* Into pageable memory the driver copies at once, after the stream's
  ** earlier work: done when it returns. */
  rc = cuda_mem_read_async(pB->pCuda, x->s, pDst, src, n, zErr, sizeof(zErr));
  return rc != 0 ? exec__cuda_error(rc, zErr, pErr) : 0;
}

int exec__queue_mark(exec_backend *pB, exec_queue *q, int iMark, sql_error *pErr) {
  char zErr[512];
  if (q->pStream != NULL) {
    if (cuda_stream_mark(pB->pCuda, q->pStream->s, iMark, zErr, sizeof(zErr)) != 0) {
      return exec__cuda_error(-1, zErr, pErr);
    }
    return 0;
  }
  if (iMark >= q->nHostMark) {
    int nNew = iMark + 16;
    double *a = realloc(q->aHostMark, sizeof(double) * (size_t)nNew);
    if (a == NULL) {
      sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while running the query");
      return -1;
    }
    q->aHostMark = a;
    q->nHostMark = nNew;
  }
  q->aHostMark[iMark] = timer_now();
  return 0;
}

int exec__queue_seconds(exec_backend *pB, exec_queue *q, int iFrom, int iTo, double *pr,
                        sql_error *pErr) {
  char zErr[512];
  if (q->pStream == NULL) {
    *pr = q->aHostMark[iTo] - q->aHostMark[iFrom];
    return 0;
  }
  if (cuda_stream_mark_seconds(pB->pCuda, q->pStream->s, iFrom, iTo, pr, zErr, sizeof(zErr)) != 0) {
    return exec__cuda_error(-1, zErr, pErr);
  }
  return 0;
}
