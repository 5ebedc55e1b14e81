/*
** runtime/exec.h — running a query's program (codegen/codegen.h) over the
** column store and collecting its result.
**
** exec_run() maps the columns the program reads (the generations it was
** made against: cg_program.apTable), allocates the lookups, the group
** table and the output buffers, fills struct q_args from the program's
** field table, and launches BUILD, INIT, SCAN and FINAL in order on the
** backend. A group table that overflows grows to the next size the
** program names (cg_program.aGroupGrow) and INIT + SCAN run again. The
** runtime reads the program alone: it includes no planner header. Errors
** the kernels raise become SQLSTATEs (22003, 22012). The result is then
** sorted (ORDER BY), cut (OFFSET, LIMIT) and its hidden sort columns
** dropped, on the host.
**
** Backends: the CPU backend (runtime/cpu.h) and the CUDA backend
** (runtime/cuda.h) run the same program the same way; what differs —
** where buffers live, how columns reach the kernels, the grid — is behind
** exec_backend (exec-backend.c). On CUDA the buffers are device memory,
** zeroed with a memset and read back after each kernel (the error word) or
** at the end (the outputs). Columns come from the backend's column cache
** (runtime/colmem.h): pinned whole and read by zero-copy, resident in
** device memory, or — past the pinned budget — streamed through pinned
** stride buffers (runtime/stride.h), the SCAN then launched once per
** stride (exec-scan.c). EXPLAIN names the backend.
**
** Lifetimes: a backend outlives every exec_run() on it; the caller
** makes it with exec_backend_cpu() or exec_backend_cuda() and ends it with
** exec_backend_close(). A zeroed exec_backend is a CPU backend without a
** pool: enough for EXPLAIN, not for running.
**
** INTERFACE ROUTINES
**   exec_backend_cpu      a CPU backend over a thread pool
**   exec_backend_cuda     a CUDA backend on a GPU
**   exec_backend_close
**   exec_backend_configure  the memory budgets and stride buffers
**   exec_backend_preload  pin the catalog's columns within the budget
**   exec_backend_traits_get  what a cost model needs to know of it
**   exec_backend_describe the backend line of EXPLAIN
**   exec_backend_compile_wait  the compiled kernels of every shape so far
**   exec_run              program -> result
**   exec_result_text      one value as PostgreSQL's text output
**   exec_result_free
**   exec_result_stream    a result's rows to a sink, in batches
*/
#ifndef STARQ_EXEC_H
#define STARQ_EXEC_H

#include "../codegen/codegen.h"
#include "bufcache.h"
#include "colmem.h"
#include "compileq.h"
#include "cpu.h"
#include "cuda.h"
#include "stride.h"

typedef enum exec_backend_kind {
  EXEC_BACKEND_CPU = 0,    /* 0: a zeroed struct is a CPU backend */
  EXEC_BACKEND_CUDA
} exec_backend_kind;

typedef struct exec_streams exec_streams;
typedef struct exec_result exec_result;
typedef struct scan_share scan_share;

/* Where a query runs. Public, read-only after the constructor; the
** constructor's pool or device is owned and freed by exec_backend_close(). */
typedef struct exec_backend exec_backend;
struct exec_backend {
  exec_backend_kind eKind;
  const char *zName;       /* "cpu" or "cuda" */
  cpu_pool *pPool;         /* CPU: the worker threads */
  cpu_options opt;         /* CPU: compiler and module cache */
  compileq *pCompiler;     /* CPU: the background compiler (CUDA's is the
                           ** device's) */
  cuda_device *pCuda;      /* CUDA: the device, its context and modules */
  colmem *pMem;            /* the column cache: pinned and resident columns */
  stride_pool *pStride;    /* stride buffers for columns past the pinned budget */
  scan_share *pShare;      /* the shared scans over pStride (scan-share.h) */
  bufcache *pBufs;         /* CUDA: device buffers kept between queries */
  strbuf generic;          /* the generic kernels' text (CPU: empty, the
                           ** library's text is theirs) */
  hash128 hGeneric;        /* the hash of their text */
  exec_streams *pStreams;  /* CUDA: the queries' streams, kept between
                           ** queries (exec-queue.c) */
};

/* Where a query runs when its kernels are in no cache: a new shape's
** first run. On either backend the generic kernels (codegen/generic.c:
** compiled once, reading the plan from their arguments) run it at once,
** while its own kernels compile on the background compiler for its next
** run; or it waits for its own. */
typedef enum exec_generic {
  EXEC_GENERIC_ON = 0,     /* a shape whose own kernels are in no cache
                           ** runs on the generic kernels, its own queued
                           ** on the background compiler: its first run
                           ** waits for no compiler. Where they cannot run
                           ** the plan, or are not loaded yet (a backend's
                           ** first seconds on an empty cache), it waits
                           ** for its own, as OFF */
  EXEC_GENERIC_OFF,        /* never: a new shape waits for its kernels'
                           ** compile (starq.generic_kernels off) */
  EXEC_GENERIC_ALWAYS      /* every query they can run, waiting for their
                           ** own compile if need be (tests and comparisons;
                           ** starq.generic_always) */
} exec_generic;

/* Where a streamed run's rows go, batch by batch, as they are produced
** (exec_run, exec_result_stream). xBatch takes pBatch over (it frees it
** with exec_result_free and free: the batch is malloc'd) and returns 0 to
** go on, or -1 with *pErr to stop the run with that error (a consumer that
** went away says 57014). It may block — that is the backpressure: the run
** waits, holding its buffers, until its consumer takes more. */
typedef struct exec_sink exec_sink;
struct exec_sink {
  int (*xBatch)(void *pArg, exec_result *pBatch, sql_error *pErr);
  void *pArg;
};

/* How one query runs: a session's settings. A zeroed struct (or NULL) is
** the default. */
typedef struct exec_options exec_options;
struct exec_options {
  exec_generic eGeneric;   /* starq.generic_kernels off: OFF;
                           ** starq.generic_always on: ALWAYS */
  int bNoResident;         /* fact columns are not read from (or copied to)
                           ** device memory: the streamed path, measurable
                           ** on its own */
  int bNoStage;            /* starq.stage_packed off: packed tiles read
                           ** from host memory are decoded where they lie,
                           ** not staged in shared memory first
                           ** (codegen/device.cuh sq_stage_for_*; CUDA
                           ** only, the CPU never stages); the same
                           ** kernels, so A/B in one session */
  int bNoShare;            /* starq.shared_scans off: a streamed scan
                           ** never shares its strides' copies with other
                           ** queries (runtime/scan-share.h) */
  const _Atomic int *pbCancel;  /* or NULL: once nonzero, the query stops
                           ** before it queues its next kernel, with 57014
                           ** (kernels queued already run to their end) */
  uint64_t nResultLimit;   /* starq.result_memory_limit: the most bytes a
                           ** result held whole may take (a sorted or
                           ** aggregated one; a streamed scan holds one
                           ** chunk); past it the run fails with 53200
                           ** naming both sizes. 0: no limit */
  const exec_sink *pSink;  /* or NULL: the rows come whole in the result.
                           ** Set: every row goes to the sink in batches
                           ** (a scan without ORDER BY or aggregation chunk
                           ** by chunk as the SCAN runs, anything else cut
                           ** from its whole result), and the result keeps
                           ** its columns with no rows */
};

/* Makes a CPU backend of nThread threads (0: one per CPU) with the
** compiler options pOpt (NULL: defaults; the strings must outlive the
** backend). Returns 0, or -1 with zErr. */
int exec_backend_cpu(exec_backend *pB, int nThread, const cpu_options *pOpt, char *zErr,
                     size_t nErr);

/* Makes a CUDA backend on the device pOpt names (NULL: device 0, default
** libraries and cache). Returns 0, or -1 with zErr saying why — on a
** machine without the driver: "no CUDA driver: libcuda.so.1 could not be
** opened (...)". */
int exec_backend_cuda(exec_backend *pB, const cuda_options *pOpt, char *zErr, size_t nErr);

/* Stops the pool or closes the device. The struct may be made again. */
void exec_backend_close(exec_backend *pB);

/* Replaces the column cache and the stride pool with ones of these
** budgets (NULL: defaults), forgetting what was pinned or resident, and
** frees the device buffers kept between queries. Only while no query
** runs. Returns 0, or -1 with zErr. */
int exec_backend_configure(exec_backend *pB, const colmem_options *pMem,
                           const stride_options *pStride, char *zErr, size_t nErr);

/* Pins the columns of pCat's tables within the pinned budget, as a server
** does at start (colmem_preload). Returns the bytes pinned, or -1. */
int64_t exec_backend_preload(exec_backend *pB, cat *pCat, int bQuiet, char *zErr, size_t nErr);

/* What a cost model needs to know of a backend (engine_model). */
typedef struct exec_backend_traits exec_backend_traits;
struct exec_backend_traits {
  char zDevice[272];       /* "<CUDA device name>/sm_<major><minor>", or "cpu" */
  int bResidentCache;      /* fact columns may be cached in device memory
                           ** (a device budget above 0) */
};
void exec_backend_traits_get(const exec_backend *pB, exec_backend_traits *p);

/* What the backend's memory reads at (bytes/s): the floors of a scan. */
typedef struct exec_bandwidth exec_bandwidth;
struct exec_bandwidth {
  double rZeroCopy;        /* pinned host memory read by the GPU over PCIe */
  double rDevice;          /* device memory */
};

/* Measures both with a read kernel over nByte bytes (runtime/bandwidth.c;
** make it well past the L2 cache: 512 MiB). On the CPU backend, or with
** nByte 0, sets both to 0 (unknown) and returns 0. Takes nByte of host
** and of device memory for a moment and about 0.1 s on an H100. Returns 0,
** or -1 with zErr and *p zeroed. Only while no query runs. */
int exec_backend_bandwidth(exec_backend *pB, uint64_t nByte, exec_bandwidth *p, char *zErr,
                           size_t nErr);

/* Waits until the background compiler is idle: every shape that ran on
** the generic kernels so far has its own kernels in the caches (and the
** generic kernels theirs), so that a benchmark measures compiled kernels.
** Only while no query runs on this thread. */
void exec_backend_compile_wait(exec_backend *pB);

/* Returns 1 when a kernel fault has left the backend's GPU context lost
** and rebuilding it in this process failed — on CUDA 13 an illegal
** address poisons the whole process (bench/fault-check.c): every later
** query fails, and only a new process has a GPU again. Else 0. */
int exec_backend_lost(const exec_backend *pB);

/* Appends what the backend is, as EXPLAIN's "Backend:" line says it (the
** text after "Backend: "). */
void exec_backend_describe(const exec_backend *pB, strbuf *s);

/* One column of a result. Values are 8 bytes per row: long long for
** integer-like types (DECIMAL scaled by 10^nScale, DATE yyyymmdd, BOOLEAN
** 0/1, strings their dictionary code), double for DOUBLE.
**
** A string column's codes index one of two string tables: the column's
** dictionary mapped from its file (bDict: what exec_run() builds), or
** strings the result carries itself (aStrOff not NULL: a result that came
** from the device worker, worker/wire.h, where no dictionary is mapped —
** its codes renumbered, still in string order — or EXPLAIN's lines, in
** line order). */
typedef struct exec_column exec_column;
struct exec_column {
  const char *zName;       /* owned by the result */
  coltype type;
  int bFloat;
  int bDict;
  store_dict dict;         /* bDict: the column's dictionary, mapped */
  store_dict_ref *pDictRef;  /* bDict: dict is shared (store_dict_share), and
                           ** this reference is dropped with the result; NULL:
                           ** dict is the result's own mapping */
  int64_t *aInt;           /* !bFloat: nRow values; owned */
  double *aFloat;          /* bFloat: nRow values; owned */
  uint8_t *aNull;          /* nRow NULL flags; owned */
  uint64_t nStr;           /* strings carried by the result: string i is */
  uint64_t *aStrOff;       /* zStr[aStrOff[i] .. aStrOff[i+1]); nStr + 1
                           ** offsets, or NULL; owned */
  char *zStr;              /* the strings back to back; owned */
};

/* One kernel's share of a run, for EXPLAIN ANALYZE and benchmarks. */
#define EXEC_KERNELS_MAX 16
typedef struct exec_kernel_time exec_kernel_time;
struct exec_kernel_time {
  char zName[64];
  int nLaunch;             /* strides, reruns */
  double rSeconds;
};

/* Where a statement's time went before its program ran: parse, bind,
** plan, codegen. Filled by the engine (engine/prepare.c), which runs those
** layers; zeros where the runtime alone ran a program. */
typedef struct exec_front exec_front;
struct exec_front {
  int bCached;             /* the statement was prepared before: none of
                           ** these ran (the times are 0) */
  double rParseSeconds;
  double rBindSeconds;
  double rPlanSeconds;     /* the cost model and the plan */
  double rCodegenSeconds;
};

/* What exec_run() returns. The device worker sends all of it to the
** server (worker/wire-result.c): a field added here is added there too
** (and to exec_result_figures_copy). */
struct exec_result {
  int nCol;
  exec_column *aCol;       /* owned */
  int64_t nRow;
  int64_t nRowStreamed;    /* rows that went to exec_options.pSink */
  double rSeconds;         /* all of exec_run(): compile, buffers, kernels, result */
  double rKernelSeconds;   /* launches, each until its kernel finished */
  double rPrepareSeconds;  /* module lookup, columns, buffers, before the first kernel */
  double rOutputSeconds;   /* reading the outputs back and building the result */
  int nKernel;             /* the first EXEC_KERNELS_MAX kernels of the program */
  exec_kernel_time aKernel[EXEC_KERNELS_MAX];
  int bCacheHit;           /* the kernels' module came from a cache (disk or memory) */
  double rCompileSeconds;  /* the run waited this long for the compiler
                           ** (cc or NVRTC); 0 on a hit */
  int bGeneric;            /* the generic kernels ran it (exec_generic): its
                           ** tier is "generic", else "optimized" */
  char zCompileParts[200]; /* CUDA, compiled by NVRTC for this run: where
                           ** the first load's time went (exec-module.c),
                           ** else "" */
  uint64_t nColumnBytes;   /* bytes of the column files the kernels read (each
                           ** at most once: the floor of a scan's traffic) */
  uint64_t nFactBytes;     /* of which the scanned (fact) table's */
  int nColPinned;          /* columns read in place from pinned host memory */
  int nColResident;        /* ... from device memory */
  int nColStreamed;        /* ... through stride buffers */
  int nColPinnedNow;       /* pinned for this query only (past the budget) */
  int nStride;             /* SCAN launches: 1, or one per stride */
  uint64_t nStreamBytes;   /* copied into stride buffers */
  double rStreamWaitSeconds;  /* kernels waited for stride copies */
  int nShareWith;          /* streamed through a shared scan: the most other
                           ** statements attached at a stride it read (0:
                           ** none, it read alone) */
  int nShareStride;        /* strides it read with other statements attached */
  exec_front front;        /* before the program ran (the engine's) */
};

/* Runs program g (made against pCat's tables: g->apTable) on backend pB
** with the session's options pOpt (NULL: defaults) into *pRes. The
** program is only read: any number of runs of it may go on at once.
** Returns 0, or -1 with *pErr set: 22003 / 22012 raised by a kernel,
** 58030 when a column file cannot be mapped, 53200 for memory (host, or
** the device's), 54000 when a group table would outgrow every size the
** program allows, XX000 when the backend fails (the compiler's message,
** or the CUDA error, included). Call exec_result_free() either way. */
int exec_run(cat *pCat, const cg_program *g, exec_backend *pB, const exec_options *pOpt,
             exec_result *pRes, sql_error *pErr);

/* Appends value (iRow, iCol) as PostgreSQL prints it in text format; a
** NULL appends nothing and returns 1, else 0. */
int exec_result_text(const exec_result *r, int64_t iRow, int iCol, strbuf *s);

void exec_result_free(exec_result *r);

/* Rows of a batch of a result with nCol columns: about EXEC_BATCH_BYTES
** of values, a multiple of 4096 rows. */
#define EXEC_BATCH_BYTES ((uint64_t)4 << 20)
uint64_t exec_batch_rows(int nCol);

/* Sends the rows of *pRes to pSink in batches of exec_batch_rows (all of
** them in one, moved rather than copied, when they fit), leaving *pRes
** its columns and figures with no rows, and counting them in
** nRowStreamed. Returns 0, or -1 with *pErr (the sink's, or 53200). */
int exec_result_stream(exec_result *pRes, const exec_sink *pSink, sql_error *pErr);

/* Makes *pTo an empty result with the columns of pFrom (names, types,
** dictionaries shared), no rows. Returns 0, or -1 out of memory. */
int exec_result_columns_copy(exec_result *pTo, const exec_result *pFrom);

/* Copies every figure of pFrom (times, kernels, bytes, cache and tier,
** front) into pTo, leaving pTo's columns and rows as they are: a result
** the engine builds (EXPLAIN ANALYZE's text) carrying the figures of the
** run it describes. */
void exec_result_figures_copy(exec_result *pTo, const exec_result *pFrom);

#endif /* STARQ_EXEC_H */
