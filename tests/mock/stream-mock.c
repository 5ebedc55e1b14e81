/*
** tests/mock/stream-mock.c — the mock driver's streams and events, and the
** work queued on them (cuda-mock.c is the rest of the driver).
**
** A stream here is a queue that runs only when the stream is synchronized
** (or destroyed, or a copy into pageable memory waits for it): the latest
** moment the driver may run queued work, so a backend that reads a result,
** reuses a buffer or gives back stride buffers before it waits for its
** stream reads wrong bytes — or, for a buffer already freed, aborts the
** test. What the driver checks at the call is checked at the call (a live
** stream, a kernel whose module is live, a copy inside an allocation); what
** can go stale until the work runs is checked again when it runs. Work of
** one stream runs in order, on whichever thread waits, one thread at a
** time; streams are not ordered with each other or with the legacy stream
** (all are non-blocking, as the backend makes them).
**
** The argument block of a queued launch is copied at the call, as the
** driver copies it: the kernel's <kernel>__argsize (runtime/cpu-shim.h)
** says how many bytes. A copy from pageable host memory is staged at the
** call; from pinned memory (cuMemHostAlloc, registered) it is read when
** it runs, as DMA would. A copy into pageable memory returns only when
** done, after the stream's earlier work: the driver's rule.
**
** A queued launch that faults loses the context when it runs; queued work
** still waiting then is dropped, and the synchronize reports the fault.
**
** Events record the host clock when their place in the queue is reached;
** cuEventElapsedTime says CUDA_ERROR_NOT_READY before that.
*/
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mockInt.h"

CUDA_API_DRIVER_FUNCTIONS(MOCK_PROTO)

#define mu mock__mu

typedef enum mock_op_kind {
  MOCK_OP_LAUNCH = 1,
  MOCK_OP_MEMSET,
  MOCK_OP_DTOH,
  MOCK_OP_HTOD,
  MOCK_OP_EVENT
} mock_op_kind;

/* One piece of queued work. */
typedef struct mock_op mock_op;
struct mock_op {
  mock_op_kind eKind;
  CUfunction f;            /* LAUNCH */
  unsigned nBlock;
  int bFault;              /* it faults when it runs */
  CUdeviceptr x;           /* MEMSET, DTOH, HTOD: the device side */
  size_t n;
  unsigned char v;         /* MEMSET */
  void *pHost;             /* DTOH: the destination; HTOD: a pinned source */
  void *pOwned;            /* LAUNCH: the argument block; HTOD: the staged
                           ** bytes of a pageable source */
  CUevent ev;              /* EVENT; NULL once the event is destroyed */
  mock_op *pNext;
};

struct CUstream_st {
  unsigned flags;
  pthread_mutex_t muRun;   /* held by the thread running the queue */
  mock_op *pHead, *pTail;  /* the queue; guarded by mock__mu */
  struct CUstream_st *pNext;  /* live streams of the context */
};

struct CUevent_st {
  unsigned flags;
  int bDone;               /* its place in the queue was reached */
  double t;                /* the host clock then, seconds */
  struct CUevent_st *pNext;   /* live events of the context */
};

static struct CUstream_st *pStreams;
static struct CUevent_st *pEvents;
static int nStreamSync;        /* cuStreamSynchronize calls on streams (not the
                               ** legacy one) so far: starq_cuda_mock_stream_syncs */

static double mock_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void mock__check_stream(CUstream s, const char *zCall) {
  if (s == NULL) return;
  for (struct CUstream_st *p = pStreams; p != NULL; p = p->pNext) {
    if (p == s) return;
  }
  pthread_mutex_unlock(&mu);
  mock__abort(zCall, s, 0);
}

/* Aborts unless ev is a live event of this context. Called with mu held. */
static void mock_check_event(CUevent ev, const char *zCall) {
  for (struct CUevent_st *p = pEvents; p != NULL; p = p->pNext) {
    if (p == ev) return;
  }
  pthread_mutex_unlock(&mu);
  mock__abort(zCall, ev, 0);
}

static void mock_op_free(mock_op *op) {
  free(op->pOwned);
  free(op);
}

/* Appends op to s's queue (s checked live first). */
static CUresult mock_queue(CUstream s, mock_op *op, const char *zCall) {
  pthread_mutex_lock(&mu);
  mock__check_stream(s, zCall);
  if (s->pTail != NULL) s->pTail->pNext = op;
  else s->pHead = op;
  s->pTail = op;
  pthread_mutex_unlock(&mu);
  return CUDA_SUCCESS;
}

/* Runs one queued op on the calling thread. */
static void mock_op_run(mock_op *op) {
  switch (op->eKind) {
    case MOCK_OP_LAUNCH:
      pthread_mutex_lock(&mu);
      mock__check_func(op->f, "a kernel queued on a stream ran after its module was unloaded");
      pthread_mutex_unlock(&mu);
      if (op->bFault) mock__fault();
      else mock__run_kernel(op->f, op->nBlock, op->pOwned);
      break;
    case MOCK_OP_MEMSET:
      mock__check_dev(op->x, op->n, "a clear queued on a stream ran after its buffer was freed");
      memset((void *)(uintptr_t)op->x, op->v, op->n);
      break;
    case MOCK_OP_DTOH:
      mock__check_dev(op->x, op->n, "a read queued on a stream ran after its buffer was freed");
      memcpy(op->pHost, (const void *)(uintptr_t)op->x, op->n);
      break;
    case MOCK_OP_HTOD:
      mock__check_dev(op->x, op->n, "a write queued on a stream ran after its buffer was freed");
      memcpy((void *)(uintptr_t)op->x, op->pOwned != NULL ? op->pOwned : op->pHost, op->n);
      break;
    case MOCK_OP_EVENT:
      pthread_mutex_lock(&mu);
      if (op->ev != NULL) {
        op->ev->t = mock_now();
        op->ev->bDone = 1;
      }
      pthread_mutex_unlock(&mu);
      break;
  }
}

/* Runs s's queue to its end, in order; on a lost context what is left is
** dropped. */
static void mock_stream_run(CUstream s) {
  pthread_mutex_lock(&s->muRun);
  for (;;) {
    mock_op *op;
    pthread_mutex_lock(&mu);
    if ((op = s->pHead) != NULL) {
      s->pHead = op->pNext;
      if (s->pHead == NULL) s->pTail = NULL;
    }
    pthread_mutex_unlock(&mu);
    if (op == NULL) break;
    if (!mock__lost()) mock_op_run(op);
    mock_op_free(op);
  }
  pthread_mutex_unlock(&s->muRun);
}

/* ---- streams ------------------------------------------------------------------ */

CUresult cuStreamCreate(CUstream *ps, unsigned flags) {
  struct CUstream_st *s;
  if (mock__lost()) return CUDA_ERROR_ILLEGAL_ADDRESS;
  if (flags != CU_STREAM_DEFAULT && flags != CU_STREAM_NON_BLOCKING) return CUDA_ERROR_INVALID_VALUE;
  if ((s = calloc(1, sizeof(*s))) == NULL) return CUDA_ERROR_OUT_OF_MEMORY;
  s->flags = flags;
  pthread_mutex_init(&s->muRun, NULL);
  pthread_mutex_lock(&mu);
  s->pNext = pStreams;
  pStreams = s;
  pthread_mutex_unlock(&mu);
  *ps = s;
  return CUDA_SUCCESS;
}

/* Work still queued completes first, as the driver does. */
CUresult cuStreamDestroy(CUstream s) {
  if (mock__lost()) return CUDA_ERROR_ILLEGAL_ADDRESS;   /* sticky: nothing is freed */
  pthread_mutex_lock(&mu);
  mock__check_stream(s, "cuStreamDestroy of a stream not live in this context");
  pthread_mutex_unlock(&mu);
  if (s == NULL) return CUDA_ERROR_INVALID_VALUE;
  mock_stream_run(s);
  pthread_mutex_lock(&mu);
  for (struct CUstream_st **pp = &pStreams; *pp != NULL; pp = &(*pp)->pNext) {
    if (*pp == s) {
      *pp = s->pNext;
      break;
    }
  }
  pthread_mutex_unlock(&mu);
  pthread_mutex_destroy(&s->muRun);
  free(s);
  return CUDA_SUCCESS;
}

/* The legacy stream's work ran at each call: there is nothing to wait for
** there but a fault. */
CUresult cuStreamSynchronize(CUstream s) {
  pthread_mutex_lock(&mu);
  mock__check_stream(s, "cuStreamSynchronize of a stream not live in this context");
  nStreamSync += s != NULL;
  pthread_mutex_unlock(&mu);
  if (s != NULL) mock_stream_run(s);
  return mock__lost() ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS;
}

CUresult mock__queue_launch(CUstream s, CUfunction f, unsigned nBlock, const void *pArgs,
                            int bFault) {
  size_t n = mock__func_args(f);
  mock_op *op = calloc(1, sizeof(*op));
  if (op == NULL || (op->pOwned = malloc(n ? n : 1)) == NULL) {
    free(op);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  memcpy(op->pOwned, pArgs, n);
  op->eKind = MOCK_OP_LAUNCH;
  op->f = f;
  op->nBlock = nBlock;
  op->bFault = bFault;
  return mock_queue(s, op, "cuLaunchKernel on a stream not live in this context");
}

void mock__streams_end(void) {
  while (pStreams != NULL) {
    struct CUstream_st *s = pStreams;
    pStreams = s->pNext;
    while (s->pHead != NULL) {
      mock_op *op = s->pHead;
      s->pHead = op->pNext;
      mock_op_free(op);
    }
    pthread_mutex_destroy(&s->muRun);
    free(s);
  }
  while (pEvents != NULL) {
    struct CUevent_st *ev = pEvents;
    pEvents = ev->pNext;
    free(ev);
  }
}

int mock__streams_live(void) {
  int n = 0;
  for (struct CUstream_st *s = pStreams; s != NULL; s = s->pNext) n++;
  return n;
}

/* ---- copies and clears on a stream ---------------------------------------------- */

/* The checks a queued clear or copy makes at the call: a usable context,
** a live stream (zCall says which call), n bytes of device memory at x.
** Returns CUDA_SUCCESS if the call may go on. */
static CUresult mock_async_begin(CUstream s, CUdeviceptr x, size_t n, const char *zCall) {
  char zWhat[128];
  if (mock__lost()) return CUDA_ERROR_ILLEGAL_ADDRESS;
  snprintf(zWhat, sizeof(zWhat), "%s on a stream not live in this context", zCall);
  pthread_mutex_lock(&mu);
  mock__check_stream(s, zWhat);
  pthread_mutex_unlock(&mu);
  snprintf(zWhat, sizeof(zWhat), "%s outside device memory", zCall);
  mock__check_dev(x, n, zWhat);
  return CUDA_SUCCESS;
}

/* Queues op eKind over n bytes at x on s, pHost its host side (pinned:
** used when it runs) or pOwned (staged now; the op frees it). */
static CUresult mock_async_queue(CUstream s, mock_op_kind eKind, CUdeviceptr x, size_t n,
                                 unsigned char v, void *pHost, void *pOwned) {
  mock_op *op = calloc(1, sizeof(*op));
  if (op == NULL) {
    free(pOwned);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  op->eKind = eKind;
  op->x = x;
  op->n = n;
  op->v = v;
  op->pHost = pHost;
  op->pOwned = pOwned;
  return mock_queue(s, op, "work queued on a stream not live in this context");
}

CUresult cuMemsetD8Async(CUdeviceptr x, unsigned char v, size_t n, CUstream s) {
  CUresult rc = mock_async_begin(s, x, n, "cuMemsetD8Async");
  if (rc != CUDA_SUCCESS) return rc;
  if (s == NULL) {
    memset((void *)(uintptr_t)x, v, n);
    return CUDA_SUCCESS;
  }
  return mock_async_queue(s, MOCK_OP_MEMSET, x, n, v, NULL, NULL);
}

CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr x, size_t n, CUstream s) {
  CUresult rc = mock_async_begin(s, x, n, "cuMemcpyDtoHAsync");
  if (rc != CUDA_SUCCESS) return rc;
  if (s != NULL && mock__host_pinned(dst, n)) return mock_async_queue(s, MOCK_OP_DTOH, x, n, 0, dst, NULL);
  /* Into pageable memory: done when it returns, after the stream's work. */
  if (s != NULL) mock_stream_run(s);
  if (mock__lost()) return CUDA_ERROR_ILLEGAL_ADDRESS;
  mock__check_dev(x, n, "cuMemcpyDtoHAsync outside device memory");
  memcpy(dst, (const void *)(uintptr_t)x, n);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr x, const void *src, size_t n, CUstream s) {
  CUresult rc = mock_async_begin(s, x, n, "cuMemcpyHtoDAsync");
  void *pStaged;
  if (rc != CUDA_SUCCESS) return rc;
  if (s == NULL) {
    memcpy((void *)(uintptr_t)x, src, n);
    return CUDA_SUCCESS;
  }
  if (mock__host_pinned(src, n)) return mock_async_queue(s, MOCK_OP_HTOD, x, n, 0, (void *)src, NULL);
  if ((pStaged = malloc(n ? n : 1)) == NULL) return CUDA_ERROR_OUT_OF_MEMORY;
  memcpy(pStaged, src, n);                     /* staged now, as the driver does */
  return mock_async_queue(s, MOCK_OP_HTOD, x, n, 0, NULL, pStaged);
}

/* ---- events ----------------------------------------------------------------------- */

CUresult cuEventCreate(CUevent *pev, unsigned flags) {
  struct CUevent_st *ev;
  if (mock__lost()) return CUDA_ERROR_ILLEGAL_ADDRESS;
  if (flags != CU_EVENT_DEFAULT && flags != CU_EVENT_DISABLE_TIMING) return CUDA_ERROR_INVALID_VALUE;
  if ((ev = calloc(1, sizeof(*ev))) == NULL) return CUDA_ERROR_OUT_OF_MEMORY;
  ev->flags = flags;
  pthread_mutex_lock(&mu);
  ev->pNext = pEvents;
  pEvents = ev;
  pthread_mutex_unlock(&mu);
  *pev = ev;
  return CUDA_SUCCESS;
}

/* Queued records of it forget it: the driver lets an event go while
** recorded work is still to come. */
CUresult cuEventDestroy(CUevent ev) {
  if (mock__lost()) return CUDA_ERROR_ILLEGAL_ADDRESS;   /* sticky: nothing is freed */
  pthread_mutex_lock(&mu);
  mock_check_event(ev, "cuEventDestroy of an event not live in this context");
  for (struct CUstream_st *s = pStreams; s != NULL; s = s->pNext) {
    for (mock_op *op = s->pHead; op != NULL; op = op->pNext) {
      if (op->ev == ev) op->ev = NULL;
    }
  }
  for (struct CUevent_st **pp = &pEvents; *pp != NULL; pp = &(*pp)->pNext) {
    if (*pp == ev) {
      *pp = ev->pNext;
      break;
    }
  }
  pthread_mutex_unlock(&mu);
  free(ev);
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent ev, CUstream s) {
  mock_op *op;
  if (mock__lost()) return CUDA_ERROR_ILLEGAL_ADDRESS;
  pthread_mutex_lock(&mu);
  mock_check_event(ev, "cuEventRecord of an event not live in this context");
  mock__check_stream(s, "cuEventRecord on a stream not live in this context");
  ev->bDone = 0;
  if (s == NULL) {
    ev->t = mock_now();
    ev->bDone = 1;
  }
  pthread_mutex_unlock(&mu);
  if (s == NULL) return CUDA_SUCCESS;
  if ((op = calloc(1, sizeof(*op))) == NULL) return CUDA_ERROR_OUT_OF_MEMORY;
  op->eKind = MOCK_OP_EVENT;
  op->ev = ev;
  return mock_queue(s, op, "cuEventRecord on a stream not live in this context");
}

CUresult cuEventElapsedTime(float *pMs, CUevent a, CUevent b) {
  CUresult rc = CUDA_SUCCESS;
  if (mock__lost()) return CUDA_ERROR_ILLEGAL_ADDRESS;
  pthread_mutex_lock(&mu);
  mock_check_event(a, "cuEventElapsedTime of an event not live in this context");
  mock_check_event(b, "cuEventElapsedTime of an event not live in this context");
  if ((a->flags | b->flags) & CU_EVENT_DISABLE_TIMING) rc = CUDA_ERROR_INVALID_VALUE;
  else if (!a->bDone || !b->bDone) rc = CUDA_ERROR_NOT_READY;
  else *pMs = (float)((b->t - a->t) * 1e3);
  pthread_mutex_unlock(&mu);
  return rc;
}

/* How many times a stream (not the legacy one) was synchronized: how
** often the host waited for a query's work. */
int starq_cuda_mock_stream_syncs(void) {
  int n;
  pthread_mutex_lock(&mu);
  n = nStreamSync;
  pthread_mutex_unlock(&mu);
  return n;
}
