/*
** server/executor.h — where a statement's query work runs: the one seam
** between the daemon and the engine. executor_execute() takes a statement
** as the daemon classified it (engine_request: SELECT, EXPLAIN, DESCRIBE,
** with its parameters) and gives back its result. By default
** (executor_options.bWorker, starqd's) it runs in starq-worker through
** worker_query(): the engine and the GPU live in a process the server
** replaces when a GPU fault poisons it or it dies, so a kernel fault fails
** one statement and the server goes on (worker/README.md). With
** --device-worker 0 the engine runs in this process.
**
** Threads: every function may be called from any executor thread at once.
** Catalog handles (one SQLite connection each, used by one thread at a
** time) are pooled here: executor_cat_get() lends one to the caller for
** statements that only read or write the catalog (CREATE TABLE, COPY,
** \d).
**
** INTERFACE ROUTINES
**   executor_open / executor_close   the engine or the worker, catalog handles
**   executor_execute                 one classified statement -> exec_result
**   executor_cat_get / _put          borrow a catalog handle
**   executor_info                    backend and device, for /status
**   executor_backend_info            backend and device names only, per query
**   executor_table_bytes             tables' pinned and resident bytes
*/
#ifndef STARQ_EXECUTOR_H
#define STARQ_EXECUTOR_H

#include "../engine/engine.h"

typedef struct executor executor;

/* How to open the executor. */
typedef struct executor_options executor_options;
struct executor_options {
  const char *zDataDir;
  const char *zBackend;    /* "auto", "cuda" or "cpu" */
  int64_t nPinnedBudget;   /* -1: the default */
  int64_t nDeviceBudget;   /* -1: the default */
  int64_t nStrideBytes;    /* a stride buffer's bytes; -1: the default */
  int bWorker;             /* run queries in starq-worker (worker/worker.h),
                           ** the process a GPU fault may poison and that is
                           ** then replaced; 0: in this process */
  int nQuery;              /* worker: queries it runs at once */
  int bWarm;               /* fill the device cache in the background once
                           ** ready (engine_warm) */
  int64_t nBandwidthProbe; /* bytes to measure the bandwidth floors over at
                           ** start (GPU only; 0: not measured) */
};

/* What /status shows of the device. */
typedef struct executor_device executor_device;
struct executor_device {
  char zBackend[8];        /* "cuda" or "cpu" */
  char zName[256];         /* the device's name */
  int64_t nMemUsed, nMemTotal;   /* device memory (0 on the CPU) */
  int64_t nPinned;         /* pinned host bytes of the column cache */
  int64_t nResident;       /* device bytes of the column cache */
  int eWarm;               /* COLMEM_WARM_*: its background warm-up */
  int64_t nWarmDone, nWarmTotal;  /* the warm-up's file bytes done, of all */
  exec_bandwidth bw;       /* the floors measured at start; 0: unknown */
  int bLost;               /* the GPU is gone for this process */
  int iWorkerPid;          /* the device worker's pid; 0: none (in process) */
  int nWorkerRestarts;     /* workers started to replace one that ended */
};

/* Starts the worker, or opens the engine in process (the backend: auto is
** CUDA if it opens, else the CPU, the reason logged), pinning the columns
** within the budget. Returns 0, or -1 with zErr. */
int executor_open(executor **pp, const executor_options *pOpt, char *zErr, size_t nErr);
void executor_close(executor *ex);

/* Works out statement pReq (engine_execute) into *pRes. Returns 0, or -1
** with *pErr (positions are byte offsets into pReq->zSql).
** exec_result_free(pRes) either way. */
int executor_execute(executor *ex, const engine_request *pReq, exec_result *pRes, sql_error *pErr);

/* Lends a catalog handle to this thread until executor_cat_put(). Returns
** NULL with zErr if none can be opened. */
cat *executor_cat_get(executor *ex, char *zErr, size_t nErr);
void executor_cat_put(executor *ex, cat *pCat);

/* Fills *p with the device's state now. */
void executor_info(executor *ex, executor_device *p);

/* Fills zBackend, zName, bw and bLost of *p, the rest 0: what a query's
** record shows, without asking the device or the column cache for their
** memory (nor copying the worker's table list); cheap enough per query. */
void executor_backend_info(executor *ex, executor_device *p);

/* Sets a[i].nPinned and a[i].nResident to the bytes of table a[i].iTable
** pinned and resident now (0 for a table with none), for all n tables in
** one look (through the worker: one copy of its stats, not one a table). */
void executor_table_bytes(executor *ex, colmem_table_use *a, int n);

#endif /* STARQ_EXECUTOR_H */
