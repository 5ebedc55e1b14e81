/*
** runtime/cuda-recover.c — keeping a device usable after a kernel fault:
** holds on the context, its epoch, and rebuilding it in place.
**
** A kernel fault (an illegal address, a trap) destroys a CUDA context for
** good, and with it every allocation, registration, stream and module in
** it. A server cannot close and reopen the device under queries that are
** running on it, so the context is rebuilt in place, between queries:
**
**   - every query's device work runs under a shared hold
**     (cuda_device_use_begin/end), and a rebuild takes the exclusive one:
**     it waits for every hold to end and, while it waits, lets no new
**     hold begin (else a steady stream of queries would starve it);
**   - the rebuild resets the primary context, which frees everything that
**     was in it, so nothing of the old epoch may be freed afterwards: the
**     cached modules are forgotten here (host side freed, no unload), and
**     callers forget what they keep by comparing epochs (cuda.h);
**   - the epoch names the context: one more after each rebuild. A caller
**     passes the epoch its failed query ran in, so that when several
**     queries fail at once only the first to get the exclusive hold
**     rebuilds, and the others find the epoch moved on and return.
**
** Reset, then release and retain: cuDevicePrimaryCtxReset destroys the
** context's state but, as NVIDIA documents, does not release the caller's
** retain of it. The device's own retain from cuda_device_open is given
** back after the reset and a new one taken, so the retain count stays
** what it was and the handle used from now on is whatever the driver
** hands out for the fresh context.
**
** The holds live on the device's mutex (the fields are cudaInt.h's), so
** that cuda__error and cuda__enter, which take that mutex already, see
** bLost and the context change together with the epoch.
**
** INTERFACE ROUTINES
**   cuda_device_use_begin, cuda_device_use_end, cuda_device_epoch,
**   cuda_device_recover
*/
#include <stdio.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "cudaInt.h"

/* The holds this thread has, on any device: a rebuild called inside one
** would wait for itself forever, so it is refused instead. */
static _Thread_local int nHoldThread;

unsigned cuda_device_use_begin(cuda_device *d) {
  unsigned iEpoch;
  pthread_mutex_lock(&d->mu);
  while (d->bExclusive) pthread_cond_wait(&d->cvHold, &d->mu);
  d->nUser++;
  iEpoch = d->iEpoch;
  pthread_mutex_unlock(&d->mu);
  nHoldThread++;
  return iEpoch;
}

void cuda_device_use_end(cuda_device *d) {
  pthread_mutex_lock(&d->mu);
  d->nUser--;
  if (d->nUser == 0) pthread_cond_broadcast(&d->cvHold);
  pthread_mutex_unlock(&d->mu);
  nHoldThread--;
}

unsigned cuda_device_epoch(const cuda_device *d) {
  unsigned iEpoch;
  /* The mutex is not part of the device's value: reading takes it too. */
  pthread_mutex_lock((pthread_mutex_t *)&d->mu);
  iEpoch = d->iEpoch;
  pthread_mutex_unlock((pthread_mutex_t *)&d->mu);
  return iEpoch;
}

/* Takes the exclusive hold: waits for another rebuild, then bars new
** holds and waits for the held ones to end. */
static void cuda_hold_exclusive(cuda_device *d) {
  pthread_mutex_lock(&d->mu);
  while (d->bExclusive) pthread_cond_wait(&d->cvHold, &d->mu);
  d->bExclusive = 1;
  while (d->nUser > 0) pthread_cond_wait(&d->cvHold, &d->mu);
  pthread_mutex_unlock(&d->mu);
}

/* Gives the exclusive hold back; with bRebuilt, the context is new: the
** lost flag goes and the epoch moves on, in one step that holders see. */
static void cuda_hold_release(cuda_device *d, int bRebuilt) {
  pthread_mutex_lock(&d->mu);
  if (bRebuilt) {
    d->bLost = 0;
    d->iEpoch++;
  }
  d->bExclusive = 0;
  pthread_cond_broadcast(&d->cvHold);
  pthread_mutex_unlock(&d->mu);
}

/* Resets the primary context and retains a fresh one (see the file's
** comment for the order). Returns 0, or -1 with zErr. */
static int cuda_context_reset(cuda_device *d, char *zErr, size_t nErr) {
  CUresult rc;
  int bRetained;
  if ((rc = d->api.cuDevicePrimaryCtxReset(d->dev)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuDevicePrimaryCtxReset", zErr, nErr);
  }
  /* A rebuild that failed at the retain left nothing to release: a
  ** second try (another query that saw the fault) must not release a
  ** retain the device no longer has. */
  pthread_mutex_lock(&d->mu);
  bRetained = d->bRetained;
  pthread_mutex_unlock(&d->mu);
  if (bRetained && (rc = d->api.cuDevicePrimaryCtxRelease(d->dev)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuDevicePrimaryCtxRelease", zErr, nErr);
  }
  /* Until the retain succeeds the device holds no retain to give back. */
  pthread_mutex_lock(&d->mu);
  d->bRetained = 0;
  pthread_mutex_unlock(&d->mu);
  return cuda__context_retain(d, zErr, nErr);
}

int cuda_device_recover(cuda_device *d, unsigned iEpochSeen, char *zErr, size_t nErr) {
  unsigned iEpoch;
  int bLost, nForgot, rc;
  double t0;
  if (nHoldThread > 0) {
    snprintf(zErr, nErr, "cuda_device_recover called inside a hold (cuda_device_use_begin): end "
             "it first");
    return -1;
  }
  cuda_hold_exclusive(d);
  pthread_mutex_lock(&d->mu);
  iEpoch = d->iEpoch;
  bLost = d->bLost;
  pthread_mutex_unlock(&d->mu);
  if (iEpoch != iEpochSeen || !bLost) {
    cuda_hold_release(d, 0);
    return 0;
  }

  /* No hold is taken and none can begin: the context is ours alone. */
  t0 = timer_now();
  nForgot = cuda__modules_forget(d);
  rc = cuda_context_reset(d, zErr, nErr);
  if (rc != 0) {
    log_printf(LOG_LEVEL_ERROR, "cuda: device %s could not rebuild its context (epoch %u): %s",
               d->info.zName, iEpoch, zErr);
    cuda_hold_release(d, 0);
    return -1;
  }
  cuda_hold_release(d, 1);
  log_printf(LOG_LEVEL_INFO, "cuda: device %s rebuilt its context after a fault in %.1f ms: "
             "epoch %u -> %u, %d cached modules forgotten (reloaded from the disk cache on use)",
             d->info.zName, (timer_now() - t0) * 1e3, iEpoch, iEpoch + 1, nForgot);
  return 0;
}
