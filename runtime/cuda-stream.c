/*
** runtime/cuda-stream.c — streams, and the work enqueued on them:
** kernel launches, clears and reads back that return before the device
** has done them, so that a query can queue a whole sequence of kernels and
** copies and wait once, and the host prepares the next step meanwhile.
**
** Every stream is non-blocking (CU_STREAM_NON_BLOCKING). A blocking stream
** would wait for everything on the legacy default stream — which the
** synchronous calls of cuda-lib.c and cuda_kernel_launch use, from every
** query at once — and everything there would wait for it: queries would
** serialise on each other for nothing. The price is that the legacy
** stream's work and a stream's work are not ordered; cuda-lib.c's
** synchronous calls therefore wait for their own work to finish (see
** cuda_legacy_sync), and cuda.h tells callers to sync a stream before a
** synchronous call touches what it uses.
**
** A stream records the epoch it was made in (cuda-recover.c). After a
** rebuild its CUstream names nothing — the context that held it is gone,
** and the driver may hand out the same handle again — so every call here
** checks the epoch before giving the handle to the driver, and destroying
** a stale stream frees only the host side.
**
** Work on a stream must end (cuda_stream_sync) before the query's hold
** ends: a rebuild waits for holds, not for streams.
**
** Timing marks are events the stream records between its kernels, read
** after a sync (cuEventElapsedTime): the executor's per-kernel times
** without a wait after each kernel. They belong to the stream's context
** and go with the stream.
**
** INTERFACE ROUTINES
**   cuda_stream_create, cuda_stream_destroy, cuda_stream_sync
**   cuda_kernel_launch_async, cuda_mem_zero_async, cuda_mem_read_async,
**   cuda_mem_write_async
**   cuda_stream_mark, cuda_stream_mark_seconds
*/
#include <stdio.h>
#include <stdlib.h>

#include "../common/timer.h"
#include "cudaInt.h"

/* Returns 0 if s may be handed to the driver: not NULL, of the current
** epoch, the context current and not lost. Else -1 with zErr. */
static int cuda_stream_enter(cuda_device *d, const cuda_stream *s, const char *zCall, char *zErr,
                             size_t nErr) {
  unsigned iEpoch;
  if (s == NULL) {
    snprintf(zErr, nErr, "%s: no stream", zCall);
    return -1;
  }
  iEpoch = cuda_device_epoch(d);
  if (s->iEpoch != iEpoch) {
    snprintf(zErr, nErr, "%s: the stream belongs to CUDA context epoch %u, which was rebuilt "
             "(now %u): make a new stream", zCall, s->iEpoch, iEpoch);
    return -1;
  }
  return cuda__enter(d, zErr, nErr);
}

int cuda_stream_create(cuda_device *d, cuda_stream **pp, char *zErr, size_t nErr) {
  cuda_stream *s;
  CUresult rc;
  *pp = NULL;
  if (cuda__enter(d, zErr, nErr) != 0) return -1;
  if ((s = calloc(1, sizeof(*s))) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  /* Read before the stream is made: in a hold (cuda.h) the epoch cannot
  ** move in between; outside one, a stream that might be from the old
  ** context is marked stale rather than a stale one marked current. */
  s->iEpoch = cuda_device_epoch(d);
  if ((rc = d->api.cuStreamCreate(&s->h, CU_STREAM_NON_BLOCKING)) != CUDA_SUCCESS) {
    free(s);
    return cuda__error(d, rc, "cuStreamCreate", zErr, nErr);
  }
  *pp = s;
  return 0;
}

void cuda_stream_destroy(cuda_device *d, cuda_stream *s) {
  char zErr[256];
  if (s == NULL) return;
  /* A stale stream died with its context, its events too; a lost context
  ** is destroyed with everything in it when it is rebuilt or released. */
  if (cuda_stream_enter(d, s, "cuStreamDestroy", zErr, sizeof(zErr)) == 0) {
    for (int i = 0; s->aEvent != NULL && i < s->nMark; i++) {
      if (s->aEvent[i] != NULL) (void)d->api.cuEventDestroy(s->aEvent[i]);
    }
    (void)d->api.cuStreamDestroy(s->h);
  }
  free(s->aEvent);
  free(s->aHostMark);
  free(s);
}

int cuda_stream_sync(cuda_device *d, cuda_stream *s, char *zErr, size_t nErr) {
  CUresult rc;
  if (cuda_stream_enter(d, s, "cuStreamSynchronize", zErr, nErr) != 0) return -1;
  if ((rc = d->api.cuStreamSynchronize(s->h)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuStreamSynchronize (a kernel or copy on the stream failed)", zErr,
                       nErr);
  }
  return 0;
}

int cuda_kernel_launch_async(cuda_device *d, cuda_stream *s, const cuda_kernel *k,
                             unsigned nBlock, unsigned nThread, unsigned nDynShared,
                             const void *pArgs, size_t nArgs, char *zErr, size_t nErr) {
  if (cuda_stream_enter(d, s, "cuLaunchKernel", zErr, nErr) != 0) return -1;
  return cuda__launch(d, s->h, k, nBlock, nThread, nDynShared, pArgs, nArgs, zErr, nErr);
}

int cuda_mem_write_async(cuda_device *d, cuda_stream *s, cuda_ptr dst, const void *src, size_t n,
                         char *zErr, size_t nErr) {
  CUresult rc;
  if (cuda_stream_enter(d, s, "cuMemcpyHtoDAsync", zErr, nErr) != 0) return -1;
  if (n > 0 && (rc = d->api.cuMemcpyHtoDAsync(dst, src, n, s->h)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuMemcpyHtoDAsync", zErr, nErr);
  }
  return 0;
}

/* Makes room for marks 0..iMark, each event made in the stream's context
** (none without cuEventElapsedTime_v2: the host clock stands in). Returns
** 0, or -1 with zErr. */
static int cuda_stream_marks_grow(cuda_device *d, cuda_stream *s, int iMark, char *zErr,
                                  size_t nErr) {
  CUevent *aEvent;
  double *aHost;
  CUresult rc;
  if (iMark < s->nMark) return 0;
  aEvent = realloc(s->aEvent, sizeof(CUevent) * (size_t)(iMark + 1));
  if (aEvent != NULL) s->aEvent = aEvent;
  aHost = realloc(s->aHostMark, sizeof(double) * (size_t)(iMark + 1));
  if (aHost != NULL) s->aHostMark = aHost;
  if (aEvent == NULL || aHost == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  for (; s->nMark <= iMark; s->nMark++) {
    s->aEvent[s->nMark] = NULL;
    s->aHostMark[s->nMark] = 0;
    if (d->api.cuEventElapsedTime == NULL) continue;
    if ((rc = d->api.cuEventCreate(&s->aEvent[s->nMark], CU_EVENT_DEFAULT)) != CUDA_SUCCESS) {
      s->aEvent[s->nMark] = NULL;
      return cuda__error(d, rc, "cuEventCreate", zErr, nErr);
    }
  }
  return 0;
}

int cuda_stream_mark(cuda_device *d, cuda_stream *s, int iMark, char *zErr, size_t nErr) {
  CUresult rc;
  if (iMark < 0 || iMark >= CUDA_STREAM_MARKS_MAX) {
    snprintf(zErr, nErr, "timing mark %d: a stream has marks 0 to %d", iMark,
             CUDA_STREAM_MARKS_MAX - 1);
    return -1;
  }
  if (cuda_stream_enter(d, s, "cuEventRecord", zErr, nErr) != 0 ||
      cuda_stream_marks_grow(d, s, iMark, zErr, nErr) != 0) {
    return -1;
  }
  if (d->api.cuEventElapsedTime == NULL) {
    if (cuda_stream_sync(d, s, zErr, nErr) != 0) return -1;
    s->aHostMark[iMark] = timer_now();
    return 0;
  }
  if ((rc = d->api.cuEventRecord(s->aEvent[iMark], s->h)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuEventRecord", zErr, nErr);
  }
  return 0;
}

int cuda_stream_mark_seconds(cuda_device *d, cuda_stream *s, int iFrom, int iTo,
                             double *prSeconds, char *zErr, size_t nErr) {
  float ms = 0;
  CUresult rc;
  *prSeconds = 0;
  if (iFrom < 0 || iTo < 0 || iFrom >= s->nMark || iTo >= s->nMark) {
    snprintf(zErr, nErr, "timing marks %d and %d: only %d set", iFrom, iTo, s->nMark);
    return -1;
  }
  if (d->api.cuEventElapsedTime == NULL) {
    *prSeconds = s->aHostMark[iTo] - s->aHostMark[iFrom];
    return 0;
  }
  if (cuda_stream_enter(d, s, "cuEventElapsedTime", zErr, nErr) != 0) return -1;
  if ((rc = d->api.cuEventElapsedTime(&ms, s->aEvent[iFrom], s->aEvent[iTo])) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuEventElapsedTime", zErr, nErr);
  }
  *prSeconds = ms / 1e3;
  return 0;
}

int cuda_mem_zero_async(cuda_device *d, cuda_stream *s, cuda_ptr p, size_t n, char *zErr,
                        size_t nErr) {
  CUresult rc;
  if (cuda_stream_enter(d, s, "cuMemsetD8Async", zErr, nErr) != 0) return -1;
  if (n > 0 && (rc = d->api.cuMemsetD8Async(p, 0, n, s->h)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuMemsetD8Async", zErr, nErr);
  }
  return 0;
}

int cuda_mem_read_async(cuda_device *d, cuda_stream *s, void *dst, cuda_ptr src, size_t n,
                        char *zErr, size_t nErr) {
  CUresult rc;
  if (cuda_stream_enter(d, s, "cuMemcpyDtoHAsync", zErr, nErr) != 0) return -1;
  if (n > 0 && (rc = d->api.cuMemcpyDtoHAsync(dst, src, n, s->h)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuMemcpyDtoHAsync", zErr, nErr);
  }
  return 0;
}
