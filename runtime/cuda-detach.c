/*
** runtime/cuda-detach.c — an NVRTC compile that its caller may stop
** waiting for: a cancel, a statement_timeout or a client gone leaves it,
** and the caller (and the worker's executor thread with it) is free within
** CUDA_DETACH_POLL_MS.
**
** NVRTC compiles on the calling thread and has no way to be interrupted,
** and it cannot run in a child process either: a fork of the worker
** would copy a CUDA process's page tables (pinned memory, every mapped
** column) and any lock another thread held inside NVRTC, and an exec'd
** helper would be a second program to install beside every worker. So a
** compile someone waits for runs on a thread of its own, the caller
** waiting on it with a look at its cancel flag and clock every
** CUDA_DETACH_POLL_MS. One left behind (abandoned) runs to its end and
** its image goes to the disk cache (cheap, and the shape's next run
** finds it) before the thread frees everything.
**
** Bounds: at most CUDA_ABANDONED_MAX abandoned compiles run at once — a
** new compile waits (cancellably) while that many do — so what nobody
** waits for costs at most that many NVRTC runs of CPU and memory, however
** many statements give up; each is itself bounded by NVRTC's own time for
** one module. cuda_device_close waits for every compile thread, since
** NVRTC is dlclosed there.
**
** A compile nobody can stop (no cancel flag, no time bound: the background
** compiler's, the generic kernels') runs on the caller's thread as before.
**
** INTERFACE ROUTINES
**   cuda__compile_wait   cuda__compile, stoppable (cudaInt.h)
**   cuda__detach_init, cuda__detach_drain   the device's side (cuda-lib.c)
*/
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "cudaInt.h"

/* How often a waiting caller looks at its cancel flag and clock. */
#define CUDA_DETACH_POLL_MS 20

/* One compile on its own thread, with copies of what it reads: an
** abandoned one outlives its caller's text and names. */
typedef struct cuda_detached cuda_detached;
struct cuda_detached {
  cuda_device *d;
  cuda_src s;              /* points at the copies below */
  char *zText;
  char **azKernel;
  pthread_cond_t cv;       /* bDone set (with d->mu) */
  /* Under d->mu */
  int bDone;
  int bAbandoned;          /* the caller went: the thread frees it all */
  /* The outcome, the thread's until bDone */
  int rc;
  cuda_image img;
  cuda_compile_stats st;
  char zErr[4096];
};

static void cuda_detached_free(cuda_detached *j) {
  for (int i = 0; j->azKernel != NULL && i < j->s.nKernel; i++) free(j->azKernel[i]);
  free(j->azKernel);
  free(j->zText);
  pthread_cond_destroy(&j->cv);
  free(j);
}

/* Copies s into a new job. Returns it, or NULL out of memory. */
static cuda_detached *cuda_detached_new(cuda_device *d, const cuda_src *s) {
  cuda_detached *j = calloc(1, sizeof(*j));
  if (j == NULL) return NULL;
  if (pthread_cond_init(&j->cv, NULL) != 0) {
    free(j);
    return NULL;
  }
  j->d = d;
  j->s = *s;
  j->zText = strdup(s->zText);
  j->azKernel = calloc((size_t)s->nKernel + 1, sizeof(char *));
  for (int i = 0; j->azKernel != NULL && i < s->nKernel; i++) {
    if ((j->azKernel[i] = strdup(s->azKernel[i])) == NULL) {
      j->s.nKernel = i;
      cuda_detached_free(j);
      return NULL;
    }
  }
  if (j->zText == NULL || j->azKernel == NULL) {
    j->s.nKernel = 0;
    cuda_detached_free(j);
    return NULL;
  }
  j->s.zText = j->zText;
  j->s.azKernel = (const char *const *)j->azKernel;
  return j;
}

static void *cuda_detached_main(void *pArg) {
  cuda_detached *j = pArg;
  cuda_device *d = j->d;
  int bAbandoned;
  j->rc = cuda__compile(d, &j->s, &j->img, &j->st, j->zErr, sizeof(j->zErr));
  pthread_mutex_lock(&d->mu);
  j->bDone = 1;
  bAbandoned = j->bAbandoned;
  if (!bAbandoned) pthread_cond_signal(&j->cv);   /* j is the caller's from here */
  pthread_mutex_unlock(&d->mu);
  if (bAbandoned) {
    char zErr[256];
    if (j->rc == 0 && cuda__cache_put(d, &j->s, &j->img, zErr, sizeof(zErr)) != 0) {
      log_printf(LOG_LEVEL_DEBUG, "cuda: module %s, compiled for no one, not cached: %s",
                 j->s.zHash, zErr);
    }
    log_printf(LOG_LEVEL_INFO, "cuda: module %s, abandoned by its statement, %s after %.1f s",
               j->s.zHash, j->rc == 0 ? "compiled (cached on disk)" : "failed to compile",
               j->st.rWall);
    if (j->rc == 0) cuda__image_free(&j->img);
    cuda_detached_free(j);
  }
  /* Last: the device may close once no compile thread is left. */
  pthread_mutex_lock(&d->mu);
  if (bAbandoned) d->nAbandoned--;
  d->nDetached--;
  pthread_cond_broadcast(&d->cvDetach);
  pthread_mutex_unlock(&d->mu);
  return NULL;
}

/* Why a waiting caller must stop now: CUDA_COMPILE_STOPPED,
** CUDA_COMPILE_TIMED_OUT (zErr says so), or 0 to go on waiting. */
static int cuda_detach_why(const _Atomic int *pbCancel, double tEnd, double secMax, char *zErr,
                           size_t nErr) {
  if (pbCancel != NULL && atomic_load(pbCancel)) {
    snprintf(zErr, nErr, "the compile was cancelled");
    return CUDA_COMPILE_STOPPED;
  }
  if (tEnd > 0 && timer_now() >= tEnd) {
    snprintf(zErr, nErr, "NVRTC ran past its limit of %g s and was left", secMax);
    return CUDA_COMPILE_TIMED_OUT;
  }
  return 0;
}

int cuda__compile_wait(cuda_device *d, const cuda_src *s, const _Atomic int *pbCancel,
                       double secMax, cuda_image *p, cuda_compile_stats *pStats, char *zErr,
                       size_t nErr) {
  double tEnd = secMax > 0 ? timer_now() + secMax : 0;
  pthread_attr_t attr;
  pthread_t th;
  cuda_detached *j;
  int rc = 0;
  if (pbCancel == NULL && secMax <= 0) return cuda__compile(d, s, p, pStats, zErr, nErr);
  memset(p, 0, sizeof(*p));
  memset(pStats, 0, sizeof(*pStats));
  pthread_mutex_lock(&d->mu);
  while (d->nAbandoned >= CUDA_ABANDONED_MAX &&
         (rc = cuda_detach_why(pbCancel, tEnd, secMax, zErr, nErr)) == 0) {
    timer_cond_wait_ms(&d->cvDetach, &d->mu, CUDA_DETACH_POLL_MS);
  }
  pthread_mutex_unlock(&d->mu);
  if (rc != 0) return rc;
  if ((j = cuda_detached_new(d, s)) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  pthread_mutex_lock(&d->mu);
  d->nDetached++;
  pthread_mutex_unlock(&d->mu);
  if ((rc = pthread_attr_init(&attr)) == 0) {
    (void)pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    rc = pthread_create(&th, &attr, cuda_detached_main, j);
    pthread_attr_destroy(&attr);
  }
  if (rc != 0) {
    /* No thread: compiled here, unstoppable, as before. */
    log_printf(LOG_LEVEL_WARN, "cuda: no thread for a compile (%s): compiled unstoppably",
               strerror(rc));
    pthread_mutex_lock(&d->mu);
    d->nDetached--;
    pthread_cond_broadcast(&d->cvDetach);
    pthread_mutex_unlock(&d->mu);
    cuda_detached_free(j);
    return cuda__compile(d, s, p, pStats, zErr, nErr);
  }
  pthread_mutex_lock(&d->mu);
  while (!j->bDone && (rc = cuda_detach_why(pbCancel, tEnd, secMax, zErr, nErr)) == 0) {
    timer_cond_wait_ms(&j->cv, &d->mu, CUDA_DETACH_POLL_MS);
  }
  if (!j->bDone) {
    j->bAbandoned = 1;                   /* the thread's to free now */
    d->nAbandoned++;
    pthread_mutex_unlock(&d->mu);
    return rc;
  }
  pthread_mutex_unlock(&d->mu);
  rc = j->rc;
  *p = j->img;
  *pStats = j->st;
  if (rc != 0) snprintf(zErr, nErr, "%s", j->zErr);
  cuda_detached_free(j);
  return rc;
}

int cuda__detach_init(cuda_device *d) {
  return pthread_cond_init(&d->cvDetach, NULL) == 0 ? 0 : -1;
}

void cuda__detach_drain(cuda_device *d) {
  double t0 = timer_now();
  pthread_mutex_lock(&d->mu);
  if (d->nDetached > 0) {
    log_printf(LOG_LEVEL_INFO, "cuda: waiting for %d compile%s to end before NVRTC is closed",
               d->nDetached, d->nDetached == 1 ? "" : "s");
  }
  while (d->nDetached > 0) pthread_cond_wait(&d->cvDetach, &d->mu);
  pthread_mutex_unlock(&d->mu);
  if (timer_now() - t0 > 0.1) {
    log_printf(LOG_LEVEL_DEBUG, "cuda: compiles ended after %.1f s", timer_now() - t0);
  }
  pthread_cond_destroy(&d->cvDetach);
}
