/*
** worker/worker.h — the device worker, and the supervisor the server runs
** it under: the GPU lives in a process of its own (bin/starq-worker) that
** the server restarts when it dies.
**
** Why a process: on the H100 (CUDA 13.0, driver 580) a kernel fault — an
** illegal address — poisons the whole process. bench/fault-check.c showed
** that after one, cuDevicePrimaryCtxReset + cuDevicePrimaryCtxRetain and
** cuCtxCreate all fail with CUDA_ERROR_ILLEGAL_ADDRESS: no context can be
** made again, so exec_run's rebuild in place (cuda_device_recover)
** cannot help, and the only way back to a GPU is a new process. The
** server therefore never opens a backend itself; the worker does, and
** when exec_backend_lost() says the GPU is gone for good the worker tells
** the supervisor (WIRE_LOST), answers every query it holds with XX000, and
** exits with WORKER_EXIT_GPU_LOST. Any other death — a crash, a kill, the
** OOM killer — ends the same way for its queries.
**
** The supervisor, in the server's process:
**   - worker_start() spawns the worker (posix_spawn of the program with
**     one end of a socketpair as fd 3: never a fork without exec, the
**     server is multi-threaded) and a supervisor thread, and returns when
**     the worker says it is ready, or why it could not start;
**   - worker_query(), from any number of threads at once, sends one
**     statement with an id and blocks its caller until the supervisor
**     thread hands it the answer for that id;
**   - when the worker exits, the supervisor thread reaps it, fails the
**     queries it still held with XX000 ("the device worker exited (killed
**     by signal 9) and was restarted"), and starts another. A worker that
**     keeps dying — before it is ready, or within a second of it — is
**     restarted after a delay that doubles up to 30 s, and while its
**     starts fail, queries fail at once with the reason instead of waiting.
**     worker_stats_get() says all of it, for /status.
**
** The worker never outlives the server: it exits when its socket closes,
** and it ignores SIGINT, SIGTERM and SIGHUP (a terminal's Ctrl-C, or a
** service manager stopping the process group, is the server's to handle:
** worker_stop()).
**
** Protocol: worker/wire.h. The worker's side: worker/serve.c.
**
** INTERFACE ROUTINES
**   worker_config_init  defaults
**   worker_start        spawn the worker and its supervisor thread
**   worker_query        run one SELECT or EXPLAIN [VERBOSE] on it (a cancel
**                       flag set meanwhile is passed on: WIRE_CANCEL)
**   worker_stats_get    what the supervisor knows
**   worker_backend_get  the running worker's backend, device and bandwidths
**   worker_stop         stop both
**   worker_program_default  starq-worker beside the running executable
*/
#ifndef STARQ_WORKER_H
#define STARQ_WORKER_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/engine.h"
#include "../runtime/exec.h"

/* The worker's exit statuses; the supervisor reads them. */
#define WORKER_EXIT_OK 0           /* its socket closed: the server stopped it or is gone */
#define WORKER_EXIT_USAGE 2        /* bad flags, or started by hand (no socket on fd 3) */
#define WORKER_EXIT_START 69       /* the catalog or the backend could not be opened */
#define WORKER_EXIT_GPU_LOST 75    /* a GPU fault left the process without a GPU */
#define WORKER_EXIT_PROTOCOL 76    /* the supervisor sent a frame that does not decode */

/* The descriptor the worker finds its socket on. */
#define WORKER_FD 3

/* How the worker runs. Make one with worker_config_init(): a zeroed
** struct would pin nothing (budgets of 0 bytes). Strings are copied by
** worker_start(). */
typedef struct worker_config worker_config;
struct worker_config {
  const char *zProgram;    /* the worker binary; NULL: worker_program_default() */
  const char *zDataDir;    /* the data directory (required) */
  const char *zBackend;    /* "cpu", "cuda", or "auto" (NULL): the GPU when it
                           ** opens, else the CPU */
  colmem_options mem;      /* pinned and device budgets (negative: defaults) */
  stride_options stride;   /* stride buffers (negative: defaults) */
  int bPreload;            /* pin the catalog's columns at start */
  int bWarm;               /* copy the columns to device memory in the
                           ** background once ready (colmem_warm_start) */
  int nQuery;              /* queries the worker runs at once (0: 4) */
  int nCpuThread;          /* CPU backend threads (0: one per CPU) */
  const char *zCacheDir;   /* the kernel caches' root, DIR/cpu and DIR/cuda;
                           ** NULL: $XDG_CACHE_HOME/starq or ~/.cache/starq */
  double rStopSeconds;     /* how long worker_stop() waits for the worker to
                           ** exit before it kills it (0: 10) */
  int64_t nBandwidthProbe; /* bytes the worker reads at start to measure its
                           ** bandwidth floors (exec_backend_bandwidth); 0:
                           ** not measured */
  int nSpinMicros;         /* how long a thread waiting on the socket polls
                           ** it without sleeping, on both sides (a wake-up
                           ** from sleep costs tens of microseconds): the
                           ** query waiting for its answer, up to this long;
                           ** the worker's reader, while queries run and this
                           ** long after an answer. 0: never; negative (the
                           ** default): WORKER_SPIN_MICROS on a machine of
                           ** WORKER_SPIN_MIN_CPUS online CPUs or more, else 0 */
};

/* The spin of worker_config.nSpinMicros's default, and the fewest CPUs it
** is used on: a machine with fewer has no core to spare for it. */
#define WORKER_SPIN_MICROS 2000
#define WORKER_SPIN_MIN_CPUS 8

/* What the running worker says of its device and column cache: sent after
** it is ready and after every answer (WIRE_STATS), so it is as fresh as
** the last query. */
#define WORKER_TABLE_MAX 256
typedef struct worker_device worker_device;
struct worker_device {
  char zDevice[256];       /* the GPU's name, or "" on the CPU backend */
  int64_t nMemUsed, nMemTotal;  /* device memory (0 on the CPU) */
  int64_t nPinned;         /* column bytes pinned in host memory */
  int64_t nResident;       /* column bytes resident in device memory */
  exec_bandwidth bw;       /* measured at start; 0: unknown */
  int eWarm;               /* COLMEM_WARM_*: the device cache's warm-up */
  int64_t nWarmDone, nWarmTotal;  /* its bytes of column files done, of all */
  int nTable;              /* tables with columns in the cache ... */
  colmem_table_use aTable[WORKER_TABLE_MAX];  /* ... and their bytes (more are left out) */
};

/* Sets *p to the defaults: auto backend, default budgets, no preload,
** spinning as the machine allows. */
void worker_config_init(worker_config *p);

/* What the supervisor knows, at one moment. */
typedef struct worker_stats worker_stats;
struct worker_stats {
  int bReady;              /* a worker is up and taking queries */
  int iPid;                /* its process id; 0 while there is none */
  int nStart;              /* workers started, the first included */
  int nRestart;            /* starts after a worker ended */
  int nStartFail;          /* starts in a row that failed (0 once one works) */
  int nGpuLost;            /* workers that exited because the GPU was lost */
  int nCrash;              /* workers that died otherwise, while running */
  uint64_t nQuery;         /* queries answered by a worker */
  int nInFlight;           /* queries sent and not answered yet */
  int64_t nPreloaded;      /* bytes the running worker pinned at start, -1: none */
  char zBackend[512];      /* the running worker's backend, as EXPLAIN's
                           ** Backend: line says it; "" while none runs */
  char zLastExit[512];     /* why the last worker ended; "" while none has */
  worker_device dev;       /* the running worker's last WIRE_STATS; zeroed
                           ** while none runs */
};

typedef struct worker worker;

/* Starts the worker of *pCfg and its supervisor, and waits until the
** worker is ready (catalog and backend open, columns preloaded). Returns
** 0 with *ppW set, or -1 with zErr saying why the worker could not start
** (its own message, e.g. the backend's error, or how it died). */
int worker_start(const worker_config *pCfg, worker **ppW, char *zErr, size_t nErr);

/* Works out statement pReq — a SELECT, EXPLAIN of one, or DESCRIBE
** (engine_execute) — on the worker, blocking the calling thread until the
** answer. Thread-safe: any number of threads at once. When
** pReq->opt.pbCancel becomes nonzero while the query is in flight, the
** worker is told (WIRE_CANCEL) and the query stops before its next kernel
** with 57014, as it would in process. While a worker restarts, a query
** waits for it; while its starts fail, a query fails at once. Returns 0
** with *pRes set (its string columns carry their strings), or -1 with
** *pErr: the statement's own error (SQLSTATE, message, byte offset into
** pReq->zSql), or XX000 when the worker died under it or is not running.
** exec_result_free(pRes) either way. */
int worker_query(worker *w, const engine_request *pReq, exec_result *pRes, sql_error *pErr);

void worker_stats_get(worker *w, worker_stats *p);

/* The part of worker_stats a query's record needs (worker_backend_get),
** without copying the table list. */
typedef struct worker_backend worker_backend;
struct worker_backend {
  int bReady;              /* as worker_stats.bReady */
  char zBackend[512];      /* as worker_stats.zBackend */
  char zDevice[256];       /* as worker_stats.dev.zDevice */
  exec_bandwidth bw;       /* as worker_stats.dev.bw */
};

/* Fills *p as worker_stats_get() would fill those fields ("" and zeros
** while no worker runs). Cheap enough for every query. */
void worker_backend_get(worker *w, worker_backend *p);

/* Stops the supervisor and the worker: closes the socket (the worker
** finishes what it runs and exits), waits up to rStopSeconds, then kills
** it. Queries still waiting fail with XX000. No worker_query() may start
** after this begins. NULL is a no-op. */
void worker_stop(worker *w);

/* Writes the path of starq-worker in the running executable's directory
** (from /proc/self/exe) into z. Returns z, or NULL if it cannot be read. */
char *worker_program_default(char *z, size_t n);

#endif /* STARQ_WORKER_H */
