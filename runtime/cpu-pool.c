/*
** runtime/cpu-pool.c — the worker threads that run CPU kernels, one block
** at a time per thread (DESIGN decision 3).
**
** A launch publishes the kernel, its arguments and the grid under the
** pool's mutex, bumps the launch generation and wakes every worker; the
** launching thread then works too. Each runner takes the next block number
** from an atomic counter until the grid is used up, so uneven blocks
** balance themselves. The launch returns once every worker has reported
** back, which is the grid-wide barrier a kernel boundary is on the GPU:
** whatever the kernel wrote is visible to the caller and to the next
** kernel (the mutex orders the memory).
**
** Before each block the runner calls the module's starq_cpu__block_set
** with the block number, the grid size and its own dynamic shared-memory
** buffer, which the shim keeps in thread-locals. Each runner owns one
** buffer, grown (never shrunk) by the launch that needs more; like CUDA's
** it is not cleared between blocks or launches.
**
** Launches are serialised by muLaunch: one kernel runs at a time on all
** the pool's threads, as one kernel at a time fills a GPU. So a statement
** that was cancelled must not hold the pool for the rest of its grid: a
** launch with a cancel flag stops handing out blocks once the flag is
** set, and the blocks running finish.
**
** INTERFACE ROUTINES
**   cpu_pool_create, cpu_pool_threads, cpu_pool_destroy, cpu_kernel_launch,
**   cpu_kernel_launch_cancel
*/
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuInt.h"

#define CPU_POOL_THREADS_MAX 1024
/* Dynamic shared buffers are aligned for any vector type a compiler may
** use on them, and for a cache line. */
#define CPU_SHARED_ALIGN 64

/* One launch as the workers see it. Written by the launcher under mu
** before the generation moves; read-only to workers while it runs. */
typedef struct cpu_launch cpu_launch;
struct cpu_launch {
  const cpu_kernel *pKernel;
  const void *pArgs;
  unsigned nBlock;
  const _Atomic int *pbCancel;  /* nonzero: take no more blocks; NULL: never */
};

typedef struct cpu_worker cpu_worker;
struct cpu_worker {
  cpu_pool *pPool;
  int iWorker;             /* index into cpu_pool.apShared */
};

struct cpu_pool {
  pthread_mutex_t muLaunch;   /* held by a launch from start to end */
  pthread_mutex_t mu;         /* guards everything below */
  pthread_cond_t cvStart;     /* a launch began, or bStop */
  pthread_cond_t cvDone;      /* nBusy reached 0 */
  int nThread;                /* runners: the workers and the launcher */
  int nStarted;               /* workers whose thread was created */
  pthread_t *aThread;         /* nThread-1 workers; owned */
  cpu_worker *aWorker;        /* their start arguments; owned */
  void **apShared;            /* per runner, [0] the launcher's; owned */
  size_t nShared;             /* bytes in each apShared buffer */
  uint64_t iGen;              /* launches so far */
  int nBusy;                  /* workers still in launch iGen */
  int bStop;                  /* set by destroy: workers exit */
  cpu_launch launch;          /* the current launch */
  _Atomic uint64_t iNextBlock;/* next block to hand out */
};

/* Runs blocks of the current launch until none are left. */
static void cpu__blocks_run(cpu_pool *p, const cpu_launch *l, void *pShared) {
  for (;;) {
    uint64_t i;
    if (l->pbCancel != NULL && atomic_load_explicit(l->pbCancel, memory_order_relaxed)) break;
    i = atomic_fetch_add_explicit(&p->iNextBlock, 1, memory_order_relaxed);
    if (i >= l->nBlock) break;
    l->pKernel->xBlockSet((unsigned)i, l->nBlock, pShared);
    l->pKernel->xEntry(l->pArgs);
  }
}

static void *cpu__worker_main(void *pArg) {
  cpu_worker *w = pArg;
  cpu_pool *p = w->pPool;
  uint64_t iSeen = 0;

  pthread_mutex_lock(&p->mu);
  for (;;) {
    cpu_launch l;
    void *pShared;
    while (!p->bStop && p->iGen == iSeen) pthread_cond_wait(&p->cvStart, &p->mu);
    if (p->bStop) break;
    iSeen = p->iGen;
    l = p->launch;
    pShared = p->apShared[w->iWorker];
    pthread_mutex_unlock(&p->mu);

    cpu__blocks_run(p, &l, pShared);

    pthread_mutex_lock(&p->mu);
    if (--p->nBusy == 0) pthread_cond_signal(&p->cvDone);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

int cpu_pool_create(int nThread, cpu_pool **pp, char *zErr, size_t nErr) {
  sigset_t all, old;
  cpu_pool *p;
  int rc;

  *pp = NULL;
  if (nThread == 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    nThread = n < 1 ? 1 : n > CPU_POOL_THREADS_MAX ? CPU_POOL_THREADS_MAX : (int)n;
  }
  if (nThread < 1 || nThread > CPU_POOL_THREADS_MAX) {
    snprintf(zErr, nErr, "a CPU pool takes 1 to %d threads, not %d", CPU_POOL_THREADS_MAX,
             nThread);
    return -1;
  }
  p = calloc(1, sizeof(*p));
  if (p == NULL) goto out_nomem;
  p->nThread = nThread;
  p->aThread = calloc((size_t)nThread, sizeof(*p->aThread));
  p->aWorker = calloc((size_t)nThread, sizeof(*p->aWorker));
  p->apShared = calloc((size_t)nThread, sizeof(*p->apShared));
  if (p->aThread == NULL || p->aWorker == NULL || p->apShared == NULL) goto out_nomem;
  pthread_mutex_init(&p->muLaunch, NULL);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cvStart, NULL);
  pthread_cond_init(&p->cvDone, NULL);
  atomic_init(&p->iNextBlock, 0);

  /* Workers take no signals: those are for the threads that serve. */
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  for (int i = 1; i < nThread; i++) {
    p->aWorker[i].pPool = p;
    p->aWorker[i].iWorker = i;
    rc = pthread_create(&p->aThread[i - 1], NULL, cpu__worker_main, &p->aWorker[i]);
    if (rc != 0) {
      pthread_sigmask(SIG_SETMASK, &old, NULL);
      snprintf(zErr, nErr, "pthread_create (worker %d of %d): %s", i, nThread - 1,
               strerror(rc));
      cpu_pool_destroy(p);
      return -1;
    }
    p->nStarted++;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  *pp = p;
  return 0;

out_nomem:
  if (p != NULL) {
    free(p->aThread);
    free(p->aWorker);
    free(p->apShared);
    free(p);
  }
  snprintf(zErr, nErr, "out of memory");
  return -1;
}

int cpu_pool_threads(const cpu_pool *p) {
  return p->nThread;
}

void cpu_pool_destroy(cpu_pool *p) {
  if (p == NULL) return;
  pthread_mutex_lock(&p->mu);
  p->bStop = 1;
  pthread_cond_broadcast(&p->cvStart);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->nStarted; i++) pthread_join(p->aThread[i], NULL);
  for (int i = 0; i < p->nThread; i++) free(p->apShared[i]);
  pthread_cond_destroy(&p->cvDone);
  pthread_cond_destroy(&p->cvStart);
  pthread_mutex_destroy(&p->mu);
  pthread_mutex_destroy(&p->muLaunch);
  free(p->apShared);
  free(p->aWorker);
  free(p->aThread);
  free(p);
}

/* Grows every runner's shared buffer to at least n bytes. Called with
** muLaunch held and no worker busy. Returns 0, or -1 with zErr (the
** buffers then keep their old size). */
static int cpu__shared_grow(cpu_pool *p, size_t n, char *zErr, size_t nErr) {
  size_t nAlloc;
  if (n <= p->nShared) return 0;
  if (n > SIZE_MAX - CPU_SHARED_ALIGN) goto out_nomem;
  nAlloc = (n + CPU_SHARED_ALIGN - 1) / CPU_SHARED_ALIGN * CPU_SHARED_ALIGN;
  for (int i = 0; i < p->nThread; i++) {
    void *pNew = aligned_alloc(CPU_SHARED_ALIGN, nAlloc);
    if (pNew == NULL) goto out_nomem;
    free(p->apShared[i]);
    p->apShared[i] = pNew;
  }
  p->nShared = nAlloc;
  return 0;
out_nomem:
  /* Buffers replaced so far are larger than nShared says: harmless. */
  snprintf(zErr, nErr, "out of memory for %zu bytes of dynamic shared memory per thread", n);
  return -1;
}

int cpu_kernel_launch(cpu_pool *p, const cpu_kernel *k, unsigned nBlock, size_t nDynShared,
                      const void *pArgs, char *zErr, size_t nErr) {
  return cpu_kernel_launch_cancel(p, k, nBlock, nDynShared, pArgs, NULL, zErr, nErr);
}

int cpu_kernel_launch_cancel(cpu_pool *p, const cpu_kernel *k, unsigned nBlock, size_t nDynShared,
                             const void *pArgs, const _Atomic int *pbCancel, char *zErr,
                             size_t nErr) {
  int rc = -1;
  if (nBlock == 0 || nBlock > 0x7fffffffu) {
    snprintf(zErr, nErr, "kernel %s: a grid takes 1 to 2147483647 blocks, not %u", k->zName,
             nBlock);
    return -1;
  }
  pthread_mutex_lock(&p->muLaunch);
  if (cpu__shared_grow(p, nDynShared, zErr, nErr) != 0) goto out_unlock;
  pthread_mutex_lock(&p->mu);
  p->launch.pKernel = k;
  p->launch.pArgs = pArgs;
  p->launch.nBlock = nBlock;
  p->launch.pbCancel = pbCancel;
  atomic_store_explicit(&p->iNextBlock, 0, memory_order_relaxed);
  p->nBusy = p->nThread - 1;
  p->iGen++;
  pthread_cond_broadcast(&p->cvStart);
  pthread_mutex_unlock(&p->mu);
  cpu__blocks_run(p, &p->launch, p->apShared[0]);
  pthread_mutex_lock(&p->mu);
  while (p->nBusy > 0) pthread_cond_wait(&p->cvDone, &p->mu);
  pthread_mutex_unlock(&p->mu);
  rc = 0;
  /* Every block ran unless the flag stopped the runners first. */
  if (pbCancel != NULL && atomic_load(pbCancel) &&
      atomic_load_explicit(&p->iNextBlock, memory_order_relaxed) < nBlock) {
    snprintf(zErr, nErr, "kernel %s: cancelled", k->zName);
    rc = CPU_STOPPED;
  }
out_unlock:
  pthread_mutex_unlock(&p->muLaunch);
  return rc;
}
