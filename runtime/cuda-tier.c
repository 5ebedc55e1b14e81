/*
** runtime/cuda-tier.c — the background compiler: for every module a
** tiered load compiled at the fast tier (cuda-module.c), the optimized
** module compiled on a thread of its own, stored on disk and put in the
** fast one's place in memory.
**
** Why: a new query shape compiled with NVRTC's full options costs ~0.3-0.5 s
** (bench/RESULTS.md), ten times issue 10's target. Compiled with
** --Ofast-compile=max it runs within tens of milliseconds, but slower, and
** a query shape is typically run again and again. So the first run takes
** the fast kernels and every later run gets the optimized ones as soon as
** they exist — without waiting for them and without a second query's
** help. Only optimized modules go to the disk cache, so a restarted server
** starts on optimized kernels.
**
** One thread per device, started with the first job, working a FIFO of
** jobs (a copy of the source and kernel names: the query that queued it
** may be long gone) one at a time; each job is itself compiled on
** nCompileThread threads (cuda-compile.c). The thread runs at a lower
** priority (nice +10, best effort: Linux keeps nice per thread, and the
** compile threads it starts inherit it) so that a foreground compile, the
** event loop and the executor take the cores first. A job whose key is
** queued or running already is not queued again.
**
** Installing (cuda__module_install) takes a shared hold on the context,
** so no rebuild runs under the load, and loads into the context as it is
** then: after a fault and rebuild the optimized module goes into the new
** context (the fast one was forgotten with the old), and on a lost device
** nothing is loaded. A failed compile is logged and the fast module stays.
**
** cuda_device_close stops the thread: the job in hand finishes (NVRTC
** cannot be interrupted; a few hundred milliseconds for a query's module,
** but seconds for the generic kernels' on an empty cache), queued jobs
** are dropped — their shapes compile again in the next process — and the
** thread is joined.
**
** INTERFACE ROUTINES
**   cuda__tier_submit, cuda__tier_cancel, cuda__tier_stop (cudaInt.h)
**   cuda_device_compile_wait
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "cudaInt.h"

/* The background compiler's nice value: below the foreground's. */
#define CUDA_TIER_NICE 10

struct cuda_tier_job {
  hash128 key;
  char zHash[33];
  char *zSource;           /* owned */
  int nKernel;
  char **azKernel;         /* nKernel names; owned */
  int bSplit;
  cuda_tier_job *pNext;    /* the queue */
};

static void cuda_tier_job_free(cuda_tier_job *j) {
  if (j == NULL) return;
  for (int i = 0; j->azKernel != NULL && i < j->nKernel; i++) free(j->azKernel[i]);
  free(j->azKernel);
  free(j->zSource);
  free(j);
}

static int cuda_tier_same(hash128 a, hash128 b) {
  return a.h1 == b.h1 && a.h2 == b.h2;
}

/* Compiles job j optimized, stores it on disk and installs it. */
static void cuda_tier_run(cuda_device *d, cuda_tier_job *j) {
  char zErr[4096], zPutErr[256];
  cuda_compile_stats st;
  cuda_image img;
  if (cuda__compile(d, j->zSource, j->zHash, j->nKernel, (const char *const *)j->azKernel,
                    j->bSplit, CUDA_TIER_OPTIMIZED, CUDA_PATH_ANY, 0, &img, &st, zErr,
                    sizeof(zErr)) != 0) {
    log_printf(LOG_LEVEL_ERROR, "cuda: the optimized compile of module %s failed; its fast-tier "
               "kernels stay: %s", j->zHash, zErr);
    return;
  }
  /* On disk first: a restart finds it even if the install cannot load it. */
  if (cuda__cache_put(d, j->key, j->zSource, j->nKernel, (const char *const *)j->azKernel, &img,
                      zPutErr, sizeof(zPutErr)) != 0) {
    log_printf(LOG_LEVEL_DEBUG, "cuda: module %s not cached on disk: %s", j->zHash, zPutErr);
  }
  if (cuda__module_install(d, j->key, j->zHash, &img, j->nKernel,
                           (const char *const *)j->azKernel, &st, zErr, sizeof(zErr)) != 0) {
    log_printf(LOG_LEVEL_WARN, "cuda: module %s's optimized kernels could not be loaded; its "
               "fast-tier kernels stay: %s", j->zHash, zErr);
  } else {
    log_printf(LOG_LEVEL_DEBUG, "cuda: module %s optimized in the background in %.1f ms (%d "
               "programs, slowest %.1f ms)", j->zHash, st.rWall * 1e3, img.nProg,
               st.rSlowest * 1e3);
  }
  cuda__image_free(&img);
}

/* The thread: one job at a time until stopped. */
static void *cuda_tier_main(void *pArg) {
  cuda_device *d = pArg;
  /* Best effort: without it the compile only competes on equal terms. */
  (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), CUDA_TIER_NICE);
  pthread_mutex_lock(&d->mu);
  for (;;) {
    cuda_tier_job *j;
    while (!d->bTierStop && d->pTierQueue == NULL) pthread_cond_wait(&d->cvTier, &d->mu);
    if (d->bTierStop) break;
    j = d->pTierQueue;
    d->pTierQueue = j->pNext;
    d->pTierBusy = j;
    pthread_mutex_unlock(&d->mu);
    cuda_tier_run(d, j);
    pthread_mutex_lock(&d->mu);
    d->pTierBusy = NULL;
    pthread_cond_broadcast(&d->cvTier);
    cuda_tier_job_free(j);
  }
  pthread_mutex_unlock(&d->mu);
  return NULL;
}

/* Copies the job's inputs. Returns the job, or NULL for no memory. */
static cuda_tier_job *cuda_tier_job_new(hash128 key, const char *zHash, const char *zSource,
                                        int nKernel, const char *const *azKernel, int bSplit) {
  cuda_tier_job *j = calloc(1, sizeof(*j));
  if (j == NULL) return NULL;
  j->key = key;
  snprintf(j->zHash, sizeof(j->zHash), "%s", zHash);
  j->bSplit = bSplit;
  j->zSource = strdup(zSource);
  j->azKernel = calloc((size_t)nKernel, sizeof(char *));
  if (j->zSource == NULL || j->azKernel == NULL) goto out_free;
  j->nKernel = nKernel;
  for (int i = 0; i < nKernel; i++) {
    if ((j->azKernel[i] = strdup(azKernel[i])) == NULL) goto out_free;
  }
  return j;
out_free:
  cuda_tier_job_free(j);
  return NULL;
}

int cuda__tier_submit(cuda_device *d, hash128 key, const char *zHash, const char *zSource,
                      int nKernel, const char *const *azKernel, int bSplit, char *zErr,
                      size_t nErr) {
  cuda_tier_job *j, **pp;
  int rc = 0;
  pthread_mutex_lock(&d->mu);
  if (d->pTierBusy != NULL && cuda_tier_same(d->pTierBusy->key, key)) goto out_unlock;
  for (pp = &d->pTierQueue; *pp != NULL; pp = &(*pp)->pNext) {
    if (cuda_tier_same((*pp)->key, key)) goto out_unlock;
  }
  if (d->bTierStop) goto out_unlock;       /* closing: nothing more is compiled */
  if ((j = cuda_tier_job_new(key, zHash, zSource, nKernel, azKernel, bSplit)) == NULL) {
    snprintf(zErr, nErr, "out of memory for the background compile");
    rc = -1;
    goto out_unlock;
  }
  if (!d->bTierStarted) {
    int e = pthread_create(&d->hTier, NULL, cuda_tier_main, d);
    if (e != 0) {
      snprintf(zErr, nErr, "the background compiler could not start: %s", strerror(e));
      cuda_tier_job_free(j);
      rc = -1;
      goto out_unlock;
    }
    d->bTierStarted = 1;
  }
  *pp = j;
  pthread_cond_broadcast(&d->cvTier);
out_unlock:
  pthread_mutex_unlock(&d->mu);
  return rc;
}

void cuda__tier_cancel(cuda_device *d, hash128 key) {
  cuda_tier_job *j = NULL;
  pthread_mutex_lock(&d->mu);
  for (cuda_tier_job **pp = &d->pTierQueue; *pp != NULL; pp = &(*pp)->pNext) {
    if (cuda_tier_same((*pp)->key, key)) {
      j = *pp;
      *pp = j->pNext;
      pthread_cond_broadcast(&d->cvTier);
      break;
    }
  }
  pthread_mutex_unlock(&d->mu);
  cuda_tier_job_free(j);
}

void cuda__tier_stop(cuda_device *d) {
  cuda_tier_job *j;
  int nDropped = 0;
  pthread_mutex_lock(&d->mu);
  d->bTierStop = 1;
  pthread_cond_broadcast(&d->cvTier);
  while ((j = d->pTierQueue) != NULL) {
    d->pTierQueue = j->pNext;
    cuda_tier_job_free(j);
    nDropped++;
  }
  pthread_mutex_unlock(&d->mu);
  if (d->bTierStarted) pthread_join(d->hTier, NULL);
  d->bTierStarted = 0;
  if (nDropped > 0) {
    log_printf(LOG_LEVEL_DEBUG, "cuda: %d queued optimized compiles dropped at close", nDropped);
  }
}

void cuda_device_compile_wait(cuda_device *d) {
  pthread_mutex_lock(&d->mu);
  while (d->pTierQueue != NULL || d->pTierBusy != NULL || d->bLibBusy) {
    pthread_cond_wait(&d->cvTier, &d->mu);
  }
  pthread_mutex_unlock(&d->mu);
}
