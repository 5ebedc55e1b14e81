/*
** server/executor.c — the executor (executor.h): statements to the device
** worker (worker_query), or with --device-worker 0 to an engine in this
** process (engine_execute); catalog handles for the statements the daemon
** works out itself; what /status shows of the device.
**
** Catalog handles: a cat is used by one thread at a time, so each
** statement borrows one from a free list (opening another when none is
** free); the list grows to the number of executor threads and stays
** there.
**
** INTERFACE ROUTINES
**   executor_open, executor_close, executor_execute, executor_cat_get,
**   executor_cat_put, executor_info, executor_backend_info,
**   executor_table_bytes
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../worker/worker.h"
#include "executor.h"

/* A catalog handle on the free list. */
typedef struct executor_cat executor_cat;
struct executor_cat {
  cat *pCat;
  executor_cat *pNext;
};

struct executor {
  char *zDataDir;          /* owned */
  engine *pEngine;         /* in process: the engine and its backend */
  pthread_mutex_t mu;      /* guards pFree */
  executor_cat *pFree;     /* handles not lent out */
  worker *pWorker;         /* bWorker: where statements run; NULL: pEngine */
};

/* Starts the device worker with the executor's options. */
static int executor_worker_start(executor *ex, const executor_options *pOpt, char *zErr,
                                 size_t nErr) {
  worker_config c;
  worker_config_init(&c);
  c.zDataDir = pOpt->zDataDir;
  c.zBackend = pOpt->zBackend;
  c.mem.nPinned = pOpt->nPinnedBudget;
  c.mem.nDevice = pOpt->nDeviceBudget;
  c.stride.nBufByte = pOpt->nStrideBytes;
  c.bPreload = 1;
  c.bWarm = pOpt->bWarm;
  c.nQuery = pOpt->nQuery > 0 ? pOpt->nQuery : 4;
  c.nBandwidthProbe = pOpt->nBandwidthProbe;
  if (worker_start(&c, &ex->pWorker, zErr, nErr) != 0) return -1;
  log_printf(LOG_LEVEL_INFO, "executor: queries run in the device worker");
  return 0;
}

/* Opens the engine in this process with the executor's options. */
static int executor_engine_open(executor *ex, const executor_options *pOpt, char *zErr,
                                size_t nErr) {
  engine_config c;
  engine_config_init(&c);
  c.zDataDir = pOpt->zDataDir;
  c.zBackend = pOpt->zBackend;
  c.mem.nPinned = pOpt->nPinnedBudget;
  c.mem.nDevice = pOpt->nDeviceBudget;
  c.stride.nBufByte = pOpt->nStrideBytes;
  c.bPreload = 1;
  c.nBandwidthProbe = pOpt->nBandwidthProbe;
  if (engine_open(&ex->pEngine, &c, zErr, nErr) != 0) return -1;
  if (pOpt->bWarm && engine_warm(ex->pEngine, NULL, NULL, zErr, nErr) != 0) {
    log_printf(LOG_LEVEL_WARN, "executor: the device cache's warm-up did not start: %s", zErr);
  }
  log_printf(LOG_LEVEL_INFO, "executor: statements run in this process");
  return 0;
}

int executor_open(executor **pp, const executor_options *pOpt, char *zErr, size_t nErr) {
  executor *ex = calloc(1, sizeof(*ex));
  cat *pCat;
  *pp = NULL;
  if (ex == NULL || (ex->zDataDir = strdup(pOpt->zDataDir)) == NULL) {
    free(ex);
    snprintf(zErr, nErr, "executor: out of memory");
    return -1;
  }
  pthread_mutex_init(&ex->mu, NULL);
  /* The catalog first: a data directory that does not open is the error
  ** to report. */
  if ((pCat = executor_cat_get(ex, zErr, nErr)) == NULL) goto fail;
  executor_cat_put(ex, pCat);
  if (pOpt->bWorker ? executor_worker_start(ex, pOpt, zErr, nErr)
                    : executor_engine_open(ex, pOpt, zErr, nErr)) {
    goto fail;
  }
  *pp = ex;
  return 0;
fail:
  executor_close(ex);
  return -1;
}

void executor_close(executor *ex) {
  if (ex == NULL) return;
  if (ex->pWorker != NULL) worker_stop(ex->pWorker);
  engine_close(ex->pEngine);
  while (ex->pFree != NULL) {
    executor_cat *c = ex->pFree;
    ex->pFree = c->pNext;
    cat_close(c->pCat);
    free(c);
  }
  pthread_mutex_destroy(&ex->mu);
  free(ex->zDataDir);
  free(ex);
}

cat *executor_cat_get(executor *ex, char *zErr, size_t nErr) {
  executor_cat *c;
  cat *pCat;
  pthread_mutex_lock(&ex->mu);
  c = ex->pFree;
  if (c != NULL) ex->pFree = c->pNext;
  pthread_mutex_unlock(&ex->mu);
  if (c != NULL) {
    pCat = c->pCat;
    free(c);
    return pCat;
  }
  if (cat_open(&pCat, ex->zDataDir, zErr, nErr) != 0) return NULL;
  return pCat;
}

void executor_cat_put(executor *ex, cat *pCat) {
  executor_cat *c = malloc(sizeof(*c));
  if (c == NULL) {
    cat_close(pCat);   /* out of memory: the next get opens another */
    return;
  }
  c->pCat = pCat;
  pthread_mutex_lock(&ex->mu);
  c->pNext = ex->pFree;
  ex->pFree = c;
  pthread_mutex_unlock(&ex->mu);
}

int executor_execute(executor *ex, const engine_request *pReq, exec_result *pRes, sql_error *pErr) {
  if (ex->pWorker != NULL) return worker_query(ex->pWorker, pReq, pRes, pErr);
  return engine_execute(ex->pEngine, pReq, pRes, pErr);
}

/* Sets the names, bLost and (when ready) the floors of *p from what the
** worker says of its backend: "cuda (name, ...)" or "cpu (...)". */
static void executor_worker_name(executor_device *p, const char *zBackend, const char *zDevice,
                                 int bReady, const exec_bandwidth *pBw) {
  const char *z = zBackend;
  snprintf(p->zBackend, sizeof(p->zBackend), "%s", strncmp(z, "cuda", 4) == 0 ? "cuda" : "cpu");
  if (strchr(z, '(') != NULL) z = strchr(z, '(') + 1;
  snprintf(p->zName, sizeof(p->zName), "%s", z);
  if (strchr(p->zName, ',') != NULL) *strchr(p->zName, ',') = 0;
  if (strchr(p->zName, ')') != NULL) *strchr(p->zName, ')') = 0;
  if (zDevice[0] != 0) snprintf(p->zName, sizeof(p->zName), "%s", zDevice);
  p->bLost = !bReady;
  if (bReady) p->bw = *pBw;
}

void executor_backend_info(executor *ex, executor_device *p) {
  const exec_backend *pB;
  memset(p, 0, sizeof(*p));
  if (ex->pWorker != NULL) {
    worker_backend b;
    worker_backend_get(ex->pWorker, &b);
    executor_worker_name(p, b.zBackend, b.zDevice, b.bReady, &b.bw);
    return;
  }
  pB = engine_backend(ex->pEngine);
  snprintf(p->zBackend, sizeof(p->zBackend), "%s", pB->zName ? pB->zName : "cpu");
  if (pB->eKind == EXEC_BACKEND_CUDA) {
    snprintf(p->zName, sizeof(p->zName), "%s", cuda_device_info_get(pB->pCuda)->zName);
    p->bLost = exec_backend_lost(pB);
    p->bw = engine_bandwidth(ex->pEngine);
  } else {
    snprintf(p->zName, sizeof(p->zName), "host CPU (generated kernels compiled with cc)");
  }
}

void executor_info(executor *ex, executor_device *p) {
  exec_backend *pB;
  colmem_stats st;
  if (ex->pWorker != NULL) {
    worker_stats ws;
    memset(p, 0, sizeof(*p));
    worker_stats_get(ex->pWorker, &ws);
    executor_worker_name(p, ws.zBackend, ws.dev.zDevice, ws.bReady, &ws.dev.bw);
    p->nPinned = ws.nPreloaded;
    p->iWorkerPid = ws.iPid;
    p->nWorkerRestarts = ws.nRestart;
    if (ws.bReady) {
      p->nMemUsed = ws.dev.nMemUsed;
      p->nMemTotal = ws.dev.nMemTotal;
      p->nPinned = ws.dev.nPinned;
      p->nResident = ws.dev.nResident;
      p->eWarm = ws.dev.eWarm;
      p->nWarmDone = ws.dev.nWarmDone;
      p->nWarmTotal = ws.dev.nWarmTotal;
    }
    return;
  }
  executor_backend_info(ex, p);
  pB = engine_backend(ex->pEngine);
  if (pB->eKind == EXEC_BACKEND_CUDA) {
    uint64_t nFree = 0, nTotal = 0;
    char zErr[256];
    if (cuda_mem_info(pB->pCuda, &nFree, &nTotal, zErr, sizeof(zErr)) == 0) {
      p->nMemTotal = (int64_t)nTotal;
      p->nMemUsed = (int64_t)(nTotal - nFree);
    }
  }
  if (pB->pMem != NULL) {
    colmem_stats_get(pB->pMem, &st);
    p->nPinned = (int64_t)st.nPinned;
    p->nResident = (int64_t)st.nResident;
    p->eWarm = st.eWarm;
    p->nWarmDone = (int64_t)st.nWarmDone;
    p->nWarmTotal = (int64_t)st.nWarmTotal;
  }
}

void executor_table_bytes(executor *ex, colmem_table_use *a, int n) {
  for (int i = 0; i < n; i++) a[i].nPinned = a[i].nResident = 0;
  if (ex->pWorker != NULL) {
    worker_stats *st = malloc(sizeof(*st));   /* ~7 KB: one copy for all n */
    if (st == NULL) return;
    worker_stats_get(ex->pWorker, st);
    for (int j = 0; j < st->dev.nTable; j++) {
      for (int i = 0; i < n; i++) {
        if (a[i].iTable == st->dev.aTable[j].iTable) a[i] = st->dev.aTable[j];
      }
    }
    free(st);
  } else if (engine_backend(ex->pEngine)->pMem != NULL) {
    for (int i = 0; i < n; i++) {
      colmem_table_bytes(engine_backend(ex->pEngine)->pMem, a[i].iTable, &a[i].nPinned,
                         &a[i].nResident);
    }
  }
}
