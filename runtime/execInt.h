/*
** runtime/execInt.h — what the executor's files share: result assembly
** (result.c) and the backend operations exec.c runs a program through
** (exec-backend.c), so that exec.c never asks which backend it is on.
*/
#ifndef STARQ_EXEC_INT_H
#define STARQ_EXEC_INT_H

#include "exec.h"

/* Builds *pRes from the nRow raw output rows (apOut[i]: 8-byte values of
** output i, apNull[i] its NULL flags): sorts by g's ORDER BY, skips nSkip
** rows and keeps at most nTake (-1: all; g's OFFSET and LIMIT, or what is
** left of them for a chunk of a streamed scan), drops hidden columns,
** maps dictionaries of string columns. Returns 0, or -1 with *pErr set. */
int exec__result_build(cat *pCat, const cg_program *g, const void *const *apOut,
                       const uint8_t *const *apNull, uint64_t nRow, uint64_t nSkip,
                       int64_t nTake, exec_result *pRes, sql_error *pErr);

/* Frees n columns and the array a. */
void exec__columns_free(exec_column *a, int n);

/* ---- exec-queue.c ---- */

typedef struct exec_stream exec_stream;
typedef struct exec_read exec_read;

/* The order of one query's device work (exec-queue.c says why and the
** rules): made by exec__queue_open, ended by exec__queue_close. Private
** to exec-queue.c but for its size. */
typedef struct exec_queue exec_queue;
struct exec_queue {
  exec_stream *pStream;    /* CUDA: the query's stream, from the backend's
                           ** pool; NULL on the CPU */
  exec_read *aRead;        /* reads staged, copied out by the wait */
  int nRead, nReadAlloc;
  size_t nStage;           /* bytes of the staging area in use */
  double *aHostMark;       /* CPU: the clock at each timing mark */
  int nHostMark;
  const _Atomic int *pbCancel;  /* CPU: a launch stops taking blocks once it
                           ** is set (exec_options.pbCancel; NULL: never) */
};

/* The backend's pool of streams (CUDA): made with the backend, closed
** before its device. */
int exec__streams_open(exec_backend *pB, char *zErr, size_t nErr);
void exec__streams_close(exec_backend *pB);

/* Starts a query's queue: on CUDA takes a stream of the current epoch
** (call inside the query's device hold). Returns 0, or -1 with *pErr. */
int exec__queue_open(exec_backend *pB, exec_queue *q, sql_error *pErr);

/* Waits for everything queued (errors ignored: the query has its own),
** gives the stream back (or destroys it when the device is lost) and
** frees q's memory. */
void exec__queue_close(exec_backend *pB, exec_queue *q);

/* Waits until everything queued on q has finished and the reads are in
** their destinations. Returns 0, or -1 with *pErr (a kernel fault: XX000
** with the CUDA error, the device then lost). */
int exec__queue_wait(exec_backend *pB, exec_queue *q, sql_error *pErr);

/* Timing mark iMark: the moment the work queued before it has finished
** (an event on CUDA, the clock now on the CPU). exec__queue_seconds: the
** time between two marks, after a wait. Return 0, or -1 with *pErr. */
int exec__queue_mark(exec_backend *pB, exec_queue *q, int iMark, sql_error *pErr);
int exec__queue_seconds(exec_backend *pB, exec_queue *q, int iFrom, int iTo, double *pr,
                        sql_error *pErr);

/* CUDA: queues reading n bytes at src into pDst (filled by the next
** exec__queue_wait). Returns 0, or -1 with *pErr. */
int exec__queue_read(exec_backend *pB, exec_queue *q, void *pDst, cuda_ptr src, size_t n,
                     sql_error *pErr);

/* CUDA: the queue's stream. */
cuda_stream *exec__queue_stream(const exec_queue *q);

/* ---- exec-backend.c ---- */

/* Sets *pErr from a CUDA call's result rc and message zErr (CUDA_ENOMEM:
** 53200, else XX000). Returns -1. */
int exec__cuda_error(int rc, const char *zErr, sql_error *pErr);

/* A buffer the kernels read or write: host memory on the CPU, device
** memory on CUDA. Owned by whoever allocated it; freed with
** exec__buf_free() on the same backend. */
typedef struct exec_buf exec_buf;
struct exec_buf {
  uint64_t iAddr;          /* what the argument block holds: the address kernels use */
  void *pHost;             /* CPU: the memory itself; CUDA: NULL (read it back) */
  size_t n;                /* bytes */
  size_t nCap;             /* CUDA: bytes of the cached buffer behind it */
  unsigned iEpoch;         /* CUDA: the context it was allocated in */
};

/* Allocates n bytes, their clearing queued on q (done on the CPU). On
** CUDA, when device memory runs out, cached buffers are freed and
** resident columns no query holds are evicted before giving up. Returns
** 0, or -1 with *pErr: 53200 when the host or the device is out of
** memory, XX000 for other CUDA errors. */
int exec__buf_alloc(exec_backend *pB, exec_queue *q, size_t n, exec_buf *p, sql_error *pErr);
/* Gives p back (to the buffer cache on CUDA, where another query may take
** it): only once the work queued on it has finished (exec__queue_wait). */
void exec__buf_free(exec_backend *pB, exec_buf *p);
/* Queues clearing p on q. */
int exec__buf_zero(exec_backend *pB, exec_queue *q, const exec_buf *p, sql_error *pErr);
/* Queues copying n bytes into the start of p (src unchanged until the
** wait) / out of it into dst (there after the wait). */
int exec__buf_write(exec_backend *pB, exec_queue *q, const exec_buf *p, const void *src, size_t n,
                    sql_error *pErr);
int exec__buf_read(exec_backend *pB, exec_queue *q, const exec_buf *p, void *dst, size_t n,
                   sql_error *pErr);

/* ---- exec-module.c ---- */

/* A program's compiled kernels on one backend. */
typedef struct exec_module exec_module;
struct exec_module {
  cpu_module *pCpu;
  cuda_module *pCuda;
  const char *zEntry;      /* not NULL: the function every kernel launches
                           ** (the generic module's one), else the kernel's own */
};

/* Loads the kernels the run takes into *pMod: g's own, or the generic
** kernels' — then *pg becomes g's generic program — as pOpt->eGeneric
** says (exec.h): a shape whose own module is in no cache runs on the
** generic kernels, its own compile queued on the background compiler,
** unless they cannot run it or are not loaded yet; then it waits for its
** own. ePath: where the run's packed columns are (CUDA: a module per
** path). Sets pRes's bGeneric, bCacheHit, rCompileSeconds and
** zCompileParts. Returns 0, or -1 with *pErr (XX000, the compiler's
** message in it). */
int exec__module_pick(exec_backend *pB, const cg_program **pg, const exec_options *pOpt,
                      cuda_path ePath, exec_module *pMod, exec_result *pRes, sql_error *pErr);
void exec__module_free(exec_backend *pB, exec_module *pMod);

/* The generic kernels of backend pB: their text's hash taken, and their
** module queued on the background compiler unless a cache has it — at the
** backend's open, so that they are ready before the first new shape
** needs them. A failure is the first run's to report. */
void exec__generic_prepare(exec_backend *pB);

/* Runs kernel k of plan p over nWork items (rows of its table, or group
** slots) with the nArgs-byte argument block pArgs (copied: the caller may
** change it at once), on the backend's grid for that kind of kernel:
** queued on q on CUDA (a fault shows at the wait), finished on return on
** the CPU. Returns 0, or -1 with *pErr. */
int exec__launch(exec_backend *pB, exec_queue *q, exec_module *pMod, const cg_program *g,
                 const cg_kernel *k, uint64_t nWork, const void *pArgs, size_t nArgs,
                 sql_error *pErr);

/* ---- exec-scan.c ---- */

/* Runs SCAN kernel k over the fact table on q: one launch when every
** fact column is addressable whole (pinned or resident), else one launch
** per stride, the next stride of each streamed column copied into stride
** buffers while the GPU reads the current one (waiting for q between
** strides and at the end, so stride buffers are never refilled or given
** back under a running kernel). aArg is the argument block filled for a
** whole-table launch; aRef the column each field holds (its COLUMN and
** VALID fields). A cancel (*pbCancel nonzero; NULL: none) stops it
** before its next stride with 57014. bShare: the strides may be read
** from a shared scan (runtime/scan-share.h; never with pChunk), and
** nShareWith and nShareStride are set. pChunk (NULL: none): strides of at
** most pChunk->nRow rows, every column addressable whole included, each
** followed by pChunk->xDone. Adds nStride, nStreamBytes and
** rStreamWaitSeconds to pRes. Returns 0, or -1 with *pErr. */
/* A streamed run's SCAN in chunks: at most nRow fact rows (a multiple
** of 4096) a launch, and after each launch xDone(pArg), which waits for it
** and takes the rows it wrote: 0 to go on, 1 when no more rows are wanted
** (LIMIT reached), -1 with the error set. */
typedef struct exec_chunks exec_chunks;
struct exec_chunks {
  uint64_t nRow;
  int (*xDone)(void *pArg);
  void *pArg;
};

int exec__scan(exec_backend *pB, exec_queue *q, exec_module *pMod, const cg_program *g,
               const cg_kernel *k, const uint64_t *aArg,
               const colmem_ref *aRef, const _Atomic int *pbCancel, int bShare,
               const exec_chunks *pChunk, exec_result *pRes, sql_error *pErr);

/* Where rows [iRow, iRow + n) of a column lie in what iAddr points at:
** *piOff and the bytes (values, validity bits, or for a FOR column its
** directory span, or with bPacked its words' span; values for a plain
** copy). */
uint64_t exec__stride_span(const colmem_ref *c, int bPacked, uint64_t iRow, uint64_t n,
                           uint64_t *piOff);

/* The COLUMN field of the PACKED or PLAIN field iPart (same item and
** column), or -1. exec__packed_addr: the address kernels read that
** column's packed words at when read whole (0 while it is not addressable
** whole, a stride sets it, or when its copy is plain). exec__plain_addr:
** the address of its decoded values when its resident copy is plain
** (colmem_ref.bPlain), else 0, which sends the kernel to the packed form. */
int exec__packed_column(const cg_program *g, int iPart);
uint64_t exec__packed_addr(const cg_program *g, const colmem_ref *aRef, int iPacked);
uint64_t exec__plain_addr(const cg_program *g, const colmem_ref *aRef, int iPlain);

#endif /* STARQ_EXEC_INT_H */
