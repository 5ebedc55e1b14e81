/*
** runtime/cuda.h — the CUDA backend: generated kernel source compiled by
** NVRTC for the GPU in hand, loaded through the driver API, and run on
** device 0's primary context (DESIGN decisions 1 and 3).
**
** Nothing links against CUDA: cuda_device_open() dlopens libcuda.so.1 and
** libnvrtc and resolves the functions of runtime/cuda-api.h, so a machine
** without a GPU or driver runs the same binary and gets a clear error here
** (the caller then uses the CPU backend, runtime/cpu.h).
**
** A module is one generated source with every kernel of a query in it,
** after the prelude every module starts with (runtime/cpu-shim.h). Its
** CUBIN is compiled for the device's own architecture (sm_XY from the
** compute capability) with NVRTC's full optimisation, one program, and
** cached twice: in memory, per device, keyed by the hash of the text, the
** architecture, the driver and NVRTC versions and the kernel names (a
** second query of the same shape reuses the loaded module); and on disk
** (cuda-cache.c), so a new process skips NVRTC. Kernels are C++
** functions to NVRTC, so their names are mangled: the caller names them,
** the module asks NVRTC for each lowered name and stores it beside the
** CUBIN.
**
** A module in neither cache is compiled now, the load waiting for it
** (CUDA_LOAD_WAIT), or queued on the device's background compiler
** (CUDA_LOAD_QUEUE, runtime/compileq.h): the load then returns at once
** with no module, for the caller to run something else meanwhile (the
** generic kernels), and the compiled module is stored on disk and put in
** the list for every later load.
**
** Memory: device buffers (cuda_mem_*) are addressed by CUdeviceptr values
** (cuda_ptr). Host memory the kernels read in place — the mapped column
** files — is registered as pinned, device-mapped and, where the device
** supports it, read-only (cuda_host_register), and read over PCIe by
** zero-copy.
**
** Lifetimes: a device outlives its modules, buffers and streams;
** cuda_device_close() unloads every module still cached (none may be in
** use) and must come after every buffer is freed, every registration
** undone and every stream destroyed, with no hold taken. A module
** reference from cuda_module_load() is given back with
** cuda_module_release(); the module itself stays in the in-memory cache
** until the device is closed (or evicted when unused, above
** CUDA_MODULES_MAX). A kernel belongs to its module.
**
** Threads: every call may come from any thread (each makes the primary
** context current on its thread first); the module cache is guarded by a
** mutex.
**
** Launches and streams: cuda_kernel_launch() runs a kernel on the legacy
** default stream and returns when it has finished. For overlap, a query
** makes a stream of its own (cuda_stream_create: non-blocking, so it never
** waits for other queries' work on the legacy stream, nor they for it),
** enqueues launches, clears and reads on it (cuda_kernel_launch_async,
** cuda_mem_zero_async, cuda_mem_read_async) and waits once
** (cuda_stream_sync). Work on one stream runs in the order enqueued; work
** on two streams, or on a stream and the legacy stream, is not ordered at
** all. The synchronous calls (cuda_mem_zero, cuda_mem_write,
** cuda_mem_read, cuda_kernel_launch) are complete when they return, so
** anything enqueued after them sees their effect; before a synchronous call
** touches memory that enqueued work uses, cuda_stream_sync the stream.
** A fault in an enqueued kernel is reported by the next call on the
** context, usually the cuda_stream_sync.
**
** Errors: each call returns 0, or a negative code with a message in the
** caller's zErr naming the call that failed and CUDA's own name for the
** error: CUDA_ENOMEM when device memory ran out, -1 otherwise. A fault in
** a kernel (an illegal address, a trap) destroys the CUDA context: the
** device is then *lost* (cuda_device_lost) and every call fails until
** the context is rebuilt with cuda_device_recover(), or the device closed.
**
** Rebuilding after a fault (a server stays up), the protocol:
**
**   1. Every query brackets its device work — module loads, buffers,
**      registrations, streams, launches, copies — with
**      iEpoch = cuda_device_use_begin(d) ... cuda_device_use_end(d): a
**      shared hold on the context, so that no rebuild happens under it.
**      Holds do not nest on a thread. Work enqueued on a stream is synced
**      before the hold ends (a rebuild waits for holds, not streams).
**   2. A query whose call failed with the device lost frees what it made
**      (cuda_mem_free, cuda_host_unregister, cuda_host_free,
**      cuda_stream_destroy, cuda_module_release: on a lost context these
**      free only host-side memory; the rebuild frees the device's), ends
**      its hold, and calls
**      cuda_device_recover(d, iEpoch). That waits for every other hold to
**      end, then rebuilds the context unless another query already did (the
**      epoch moved on) — so any number of failed queries may call it.
**   3. The rebuild forgets every cached module without unloading it (the
**      context that held it is gone), resets the primary context, takes a
**      fresh one and moves the epoch on. Every device pointer,
**      registration, pinned host buffer, stream, module and kernel of an
**      earlier epoch is then invalid: whoever keeps one across queries (a
**      device-resident column cache) compares the epoch it was made in with
**      cuda_device_epoch() and, when they differ, forgets it — it must not
**      be freed, unregistered or used. The one exception is
**      cuda_stream_destroy(), which knows its stream's epoch and only frees
**      host memory for a stale one.
**   4. The query may then run again from the start, in a new hold.
**
** The primary context is shared with any other CUDA user in the process;
** a rebuild destroys their allocations too. starq is the only one.
*/
#ifndef STARQ_CUDA_H
#define STARQ_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "../common/hash128.h"

typedef struct cuda_device cuda_device;
typedef struct cuda_module cuda_module;
typedef struct cuda_kernel cuda_kernel;
typedef struct cuda_stream cuda_stream;

/* A device address (CUdeviceptr). */
typedef uint64_t cuda_ptr;

/* The error code for "out of device memory"; all other errors are -1. */
#define CUDA_ENOMEM (-2)
/* A compile waited for was left (runtime/cuda-detach.c): its cancel flag
** was set, or its time bound passed. */
#define CUDA_COMPILE_STOPPED (-4)
#define CUDA_COMPILE_TIMED_OUT (-5)
/* How long a compile is waited for by default (cuda_load_options). */
#define CUDA_COMPILE_SECONDS 120.0

/* Modules kept loaded per device; past this, unused ones are unloaded,
** least recently used first. */
#define CUDA_MODULES_MAX 256

/* How cuda_device_open() finds its libraries and cache. A NULL pointer
** (for the struct or a field) takes the default. */
typedef struct cuda_options cuda_options;
struct cuda_options {
  const char *zLibCuda;    /* NULL: $STARQ_LIBCUDA, else "libcuda.so.1" */
  const char *zLibNvrtc;   /* NULL: $STARQ_LIBNVRTC, else the first of
                           ** libnvrtc.so, .so.13, .so.12, .so.11.2 that
                           ** dlopen finds, then the same names under
                           ** $CUDA_HOME/lib64 and /usr/local/cuda/lib64 */
  const char *zCacheDir;   /* NULL: $XDG_CACHE_HOME/starq/cuda, else
                           ** $HOME/.cache/starq/cuda; made if missing */
  int iDevice;             /* device ordinal (0) */
  const char *zCompileOnly;/* not NULL: no driver, no GPU — NVRTC alone,
                           ** compiling for this architecture ("sm_90"):
                           ** only cuda_module_compile() works (benchmarks
                           ** of compile time on a machine without a GPU) */
};

/* What the device is, for EXPLAIN, the planner and the logs. */
typedef struct cuda_device_info cuda_device_info;
struct cuda_device_info {
  char zName[256];         /* "NVIDIA H100 80GB HBM3" */
  int iMajor, iMinor;      /* compute capability */
  char zArch[32];          /* what NVRTC compiles for: "sm_90", or
                           ** "compute_XY" (PTX) for a GPU newer than NVRTC */
  int nSm;                 /* multiprocessors */
  int nThreadPerBlock;     /* most threads in a block */
  int nThreadPerSm;        /* most resident threads per multiprocessor */
  int nL2;                 /* L2 cache bytes */
  uint64_t nGlobal;        /* device memory bytes */
  int bHostRegister;       /* cuMemHostRegister works on this device */
  int bReadOnlyRegister;   /* ... with CU_MEMHOSTREGISTER_READ_ONLY */
  int iDriver;             /* cuDriverGetVersion: 13000 for 13.0 */
  int iNvrtcMajor, iNvrtcMinor;
  char zLibCuda[512];      /* the libraries opened */
  char zLibNvrtc[512];
};

/* How cuda_module_load() found its module. */
typedef enum cuda_source {
  CUDA_SOURCE_MEMORY = 1,  /* already loaded in this process */
  CUDA_SOURCE_DISK,        /* the CUBIN came from the on-disk cache */
  CUDA_SOURCE_NVRTC        /* compiled for this load (or, for a module the
                           ** background compiler made, by it) */
} cuda_source;

/* What a load does when the module is in neither cache. */
typedef enum cuda_load_mode {
  CUDA_LOAD_WAIT = 0,      /* compiles it and waits (for the background
                           ** compiler instead, if it compiles it already) */
  CUDA_LOAD_QUEUE          /* compiles nothing now: queues the compile on
                           ** the background compiler and returns 1 with
                           ** no module (the caller runs something else:
                           ** the generic kernels, codegen/generic.c) */
} cuda_load_mode;

/* Which side of a packed column's load a module holds: SQ_PATH of
** codegen/device.cuh, the same values. A run whose packed columns are all
** resident reads only the plain copies, one with none resident only the
** decode: its text defines SQ_PATH, so its module holds that side alone
** (the other side's code made ptxas spill in the SCANs bound to 32
** registers; bench/RESULTS.md, issue 10, fifth and sixth passes), a module
** per path. A mixed run holds both (CUDA_PATH_ANY). */
typedef enum cuda_path {
  CUDA_PATH_ANY = 0,       /* both, chosen at run time by the PLAIN field */
  CUDA_PATH_PLAIN,         /* only the plain load: every packed column is resident */
  CUDA_PATH_PACKED         /* only the decode: no packed column is resident */
} cuda_path;

/* What cuda_module_load() loads, and how. The text compiled is the shim
** (runtime/cpu-shim.h), `#define SQ_PATH n` unless ePath is
** CUDA_PATH_ANY, zLib (if not NULL) and zSource, each after a newline. */
typedef struct cuda_load_options cuda_load_options;
struct cuda_load_options {
  const char *zSource;     /* the generated source */
  const char *zLib;        /* NULL, or a library placed before it */
  int nKernel;
  const char *const *azKernel;  /* plain names of its __global__ functions */
  hash128 hSource;         /* hash128_of(zSource, its length, 0), taken
                           ** once by the caller (codegen's cg_program.hSrc),
                           ** or {0, 0}: the device remembers the key each
                           ** hash and path gave, so a module already loaded
                           ** is found without the text being joined to the
                           ** shim and hashed again. Only with zLib NULL */
  cuda_path ePath;
  cuda_load_mode eMode;
  const _Atomic int *pbCancel;  /* CUDA_LOAD_WAIT: a compile waited for is
                           ** left once it is set; NULL: never */
  double secCompileMax;    /* ... or after this long; <= 0 with pbCancel:
                           ** CUDA_COMPILE_SECONDS; <= 0 without: never */
};

typedef struct cuda_module_info cuda_module_info;
struct cuda_module_info {
  cuda_source eSource;     /* of the load that made the module */
  int bBackground;         /* compiled by the background compiler */
  double rCompileSeconds;  /* in NVRTC (wall time); 0 unless eSource is NVRTC */
  double rCpuSeconds;      /* of it, the compiling thread's CPU time */
  double rLoadSeconds;     /* all of the first cuda_module_load() (or of
                           ** the background compile and install), compile
                           ** and module load included */
  double rModuleSeconds;   /* cuModuleLoadData, cuModuleGetFunction and the
                           ** attributes of every kernel */
  size_t nImage;           /* bytes of CUBIN (or PTX) */
  char zMiss[64];          /* why the disk cache missed, or "" */
  char zHash[33];          /* the cache key, 32 hex digits */
};

/* Opens the libraries, initialises the driver and retains the primary
** context of device pOpt->iDevice. Returns 0 with *pp set, or -1 with
** zErr saying what is missing ("libcuda.so.1 could not be opened: ...",
** "no CUDA device", an NVRTC that cannot be found). */
int cuda_device_open(const cuda_options *pOpt, cuda_device **pp, char *zErr, size_t nErr);

/* Unloads the cached modules and releases the primary context. NULL is a
** no-op. */
void cuda_device_close(cuda_device *p);

const cuda_device_info *cuda_device_info_get(const cuda_device *p);

/* Returns 1 once a kernel fault has destroyed the device's context (every
** call now fails until cuda_device_recover() or a new device), else 0. */
int cuda_device_lost(const cuda_device *p);

/* ---- holds and rebuilding (the protocol above) ---- */

/* Takes a shared hold on the device's context for one query's device work
** and returns the epoch the work belongs to. Waits while a rebuild is
** waiting or running. Every hold ends with cuda_device_use_end() on the
** same thread; holds do not nest. */
unsigned cuda_device_use_begin(cuda_device *d);
void cuda_device_use_end(cuda_device *d);

/* Returns the context's epoch: 1 when the device opens, one more after each
** rebuild. */
unsigned cuda_device_epoch(const cuda_device *d);

/* Rebuilds a lost context, called with no hold after the caller has freed
** what its query made. Waits for every hold to end. Returns 0 at once if
** the epoch is no longer iEpochSeen or the device is not lost (another
** caller rebuilt it, or nothing needs it). Otherwise forgets every cached
** module (none may be referenced: a reference is a caller's bug, and
** aborts), resets the primary context (cuDevicePrimaryCtxReset), retains
** a fresh one, clears the lost flag, moves the epoch on, logs it at INFO
** and returns 0. Returns -1 with zErr if called inside a hold, or if the
** driver refuses the reset: the device then stays lost, and the caller may
** close it. */
int cuda_device_recover(cuda_device *d, unsigned iEpochSeen, char *zErr, size_t nErr);

/* Sets *pnFree and *pnTotal to the free and total bytes of device memory
** (cuMemGetInfo; free counts other processes' use). Returns 0 or -1. */
int cuda_mem_info(cuda_device *d, uint64_t *pnFree, uint64_t *pnTotal, char *zErr, size_t nErr);

/* ---- modules and kernels ---- */

/* Finds the module pOpt describes — in memory, on disk — or compiles it
** as pOpt->eMode says. On success *pp is a reference for
** cuda_module_release() and *peSource (if not NULL) says where this call
** found it: MEMORY for every load after the first in a process (or since
** the last rebuild). With CUDA_LOAD_QUEUE a module in neither cache
** returns 1, *pp NULL, its compile queued. A compile error returns -1
** with the start of NVRTC's log and the module's hash in zErr, and writes
** NVRTC's whole log and the whole source (numbered lines, as NVRTC's
** diagnostics count them) to the log (common/log.h) at ERROR. A compile
** waited for and left (pOpt->pbCancel, secCompileMax) returns
** CUDA_COMPILE_STOPPED or CUDA_COMPILE_TIMED_OUT. */
int cuda_module_load(cuda_device *d, const cuda_load_options *pOpt, cuda_module **pp,
                     cuda_source *peSource, char *zErr, size_t nErr);

/* Returns how the module was made (by its first load) and what that cost. */
const cuda_module_info *cuda_module_info_get(const cuda_module *p);

/* Drops a reference; the module stays cached. NULL is a no-op. */
void cuda_module_release(cuda_module *p);

/* Waits until the background compiler has nothing queued or running:
** every module queued so far is in memory and on disk (or its compile
** failed, which is logged). For tests and benchmarks that must measure
** the optimized kernels of a shape that first ran on the generic ones. */
void cuda_device_compile_wait(cuda_device *d);

/* Compiles the module pOpt describes as cuda_module_load() would on a
** miss in both caches (its mode is ignored), loads nothing and caches
** nothing: what a new query shape's compile costs. Fills *pInfo (eSource
** NVRTC, the times, the bytes). Works on a device of
** cuda_options.zCompileOnly too. Returns 0, or -1 with zErr as a load's
** compile error. */
int cuda_module_compile(cuda_device *d, const cuda_load_options *pOpt, cuda_module_info *pInfo,
                        char *zErr, size_t nErr);

/* Sets *pp to kernel zName of the module (one of the names it was loaded
** with). Returns -1 if there is none. */
int cuda_module_kernel(cuda_module *p, const char *zName, cuda_kernel **pp, char *zErr,
                       size_t nErr);

/* Returns the most threads a block of k may have (its registers decide). */
int cuda_kernel_max_threads(const cuda_kernel *k);

/* What the compiled kernel needs of a multiprocessor, read once when its
** module is loaded (cuFuncGetAttribute). */
typedef struct cuda_kernel_attrs cuda_kernel_attrs;
struct cuda_kernel_attrs {
  int nReg;                /* registers per thread (NUM_REGS) */
  int nSharedStatic;       /* bytes of __shared__ arrays per block (SHARED_SIZE_BYTES) */
  int nLocal;              /* bytes of local memory per thread (LOCAL_SIZE_BYTES):
                           ** register spills and stack arrays; > 0 is slow */
  int nMaxThread;          /* most threads a block may have (MAX_THREADS_PER_BLOCK) */
};

void cuda_kernel_attrs_get(const cuda_kernel *k, cuda_kernel_attrs *p);

/* Sets *pnBlockPerSm to how many blocks of nThread threads, each with
** nDynShared bytes of dynamic shared memory, fit on one multiprocessor at
** once (cuOccupancyMaxActiveBlocksPerMultiprocessor: registers, shared
** memory and thread limits together). 0 means such a block cannot run at
** all: too many threads, registers or shared bytes. Returns 0, or -1 (also
** for nThread 0). The answer for a whole number of warps without dynamic
** shared memory is kept with the kernel: asking again costs nothing. */
int cuda_kernel_occupancy(cuda_device *d, const cuda_kernel *k, unsigned nThread,
                          unsigned nDynShared, int *pnBlockPerSm, char *zErr, size_t nErr);

/* Runs k on nBlock blocks of nThread threads with nDynShared bytes of
** dynamic shared memory; pArgs points at the kernel's one by-value
** argument struct (nArgs bytes). Returns when the kernel has finished:
** 0, or -1 with the launch or execution error (a fault also marks the
** device lost). Runs on the legacy default stream and waits for that
** stream only, so other queries' streams run on meanwhile. */
int cuda_kernel_launch(cuda_device *d, const cuda_kernel *k, unsigned nBlock, unsigned nThread,
                       unsigned nDynShared, const void *pArgs, size_t nArgs, char *zErr,
                       size_t nErr);

/* ---- streams and asynchronous work ---- */

/* Makes a non-blocking stream (CU_STREAM_NON_BLOCKING) in the current
** epoch. Returns 0 with *pp set, or -1. A stream belongs to the epoch it
** was made in: after a rebuild it is stale, every call on it fails, and it
** must be destroyed and made again. */
int cuda_stream_create(cuda_device *d, cuda_stream **pp, char *zErr, size_t nErr);

/* Destroys s (work still enqueued on it completes first, as CUDA does).
** NULL is a no-op; so is the driver's part for a stale stream or a lost
** context: only the host side is freed. Errors are ignored. */
void cuda_stream_destroy(cuda_device *d, cuda_stream *s);

/* Enqueues k on s, like cuda_kernel_launch(), and returns without waiting.
** The driver copies the argument block during this call, so the caller
** may change or free pArgs as soon as it returns. An error here is one
** the launch itself found (a bad grid, a lost context, a stale stream); a
** fault while the kernel runs is reported by a later call, normally
** cuda_stream_sync(). Returns 0 or -1. */
int cuda_kernel_launch_async(cuda_device *d, cuda_stream *s, const cuda_kernel *k,
                             unsigned nBlock, unsigned nThread, unsigned nDynShared,
                             const void *pArgs, size_t nArgs, char *zErr, size_t nErr);

/* Waits until everything enqueued on s has finished. Returns 0, or -1 with
** the first error; a kernel fault marks the device lost, as a synchronous
** launch does. */
int cuda_stream_sync(cuda_device *d, cuda_stream *s, char *zErr, size_t nErr);

/* Enqueues copying n bytes from host memory at src to device memory at
** dst (cuMemcpyHtoDAsync). From pageable memory the driver stages the
** bytes before it returns; still, src must stay as it is until the stream
** has been synchronized (pinned memory is read when the copy runs).
** Returns 0 or -1. */
int cuda_mem_write_async(cuda_device *d, cuda_stream *s, cuda_ptr dst, const void *src, size_t n,
                         char *zErr, size_t nErr);

/* Timing marks: the most a stream takes, numbered from 0. */
#define CUDA_STREAM_MARKS_MAX 256

/* Enqueues timing mark iMark on s (an event, cuEventRecord): the moment
** the work enqueued before it has finished. A mark may be set again; it
** then stands for the later moment. On a driver without
** cuEventElapsedTime_v2 (before CUDA 12.8) it waits for the stream and
** reads the host clock instead: right, but the host no longer runs ahead
** of the device. Returns 0, or -1 (iMark past CUDA_STREAM_MARKS_MAX). */
int cuda_stream_mark(cuda_device *d, cuda_stream *s, int iMark, char *zErr, size_t nErr);

/* Sets *prSeconds to the time between marks iFrom and iTo (both set, and
** the stream synchronized since). Returns 0 or -1. */
int cuda_stream_mark_seconds(cuda_device *d, cuda_stream *s, int iFrom, int iTo,
                             double *prSeconds, char *zErr, size_t nErr);

/* Enqueues clearing n bytes at p (cuMemsetD8Async). Returns 0 or -1. */
int cuda_mem_zero_async(cuda_device *d, cuda_stream *s, cuda_ptr p, size_t n, char *zErr,
                        size_t nErr);

/* Enqueues copying n bytes from device memory at src to dst
** (cuMemcpyDtoHAsync); dst may be read after cuda_stream_sync(s). Only a
** pinned dst (cuda_host_alloc) makes the copy asynchronous: into pageable
** memory the driver copies at once and returns when done (still in s's
** order). Returns 0 or -1. */
int cuda_mem_read_async(cuda_device *d, cuda_stream *s, void *dst, cuda_ptr src, size_t n,
                        char *zErr, size_t nErr);

/* Allocates n bytes of device memory (n 0 allocates 1), not cleared.
** Returns 0, CUDA_ENOMEM, or -1. */
int cuda_mem_alloc(cuda_device *d, size_t n, cuda_ptr *p, char *zErr, size_t nErr);

/* Frees p (0 is a no-op). Errors are ignored: there is nothing a caller
** could do about them. */
void cuda_mem_free(cuda_device *d, cuda_ptr p);

/* Sets n bytes at p to zero; copies n bytes to device memory; copies n
** bytes from device memory. Each is complete when it returns (the driver
** would return from the first two with the work still queued on the
** legacy stream, which a non-blocking stream does not wait for: these
** wait for it). Return 0 or -1. */
int cuda_mem_zero(cuda_device *d, cuda_ptr p, size_t n, char *zErr, size_t nErr);
int cuda_mem_write(cuda_device *d, cuda_ptr dst, const void *src, size_t n, char *zErr,
                   size_t nErr);
int cuda_mem_read(cuda_device *d, void *dst, cuda_ptr src, size_t n, char *zErr, size_t nErr);

/* Pins the n host bytes at p (page-aligned, as a mapping is) and maps them
** into the device's address space, read-only where the device supports
** that; *pDev is where kernels find them. The pages must stay mapped until
** cuda_host_unregister(). Returns 0, CUDA_ENOMEM, or -1 (some kernels and
** file systems refuse to pin file-backed pages: the caller may copy
** instead). */
int cuda_host_register(cuda_device *d, void *p, size_t n, cuda_ptr *pDev, char *zErr,
                       size_t nErr);

/* Undoes cuda_host_register() of p. Errors are ignored. */
void cuda_host_unregister(cuda_device *d, void *p);

/* Allocates n bytes of pinned (page-locked) host memory, the destination
** that makes cuda_mem_read_async() asynchronous (cuMemHostAlloc). It
** belongs to the context: a rebuild frees it, so it is forgotten, never
** freed, after the epoch moves on. Returns 0 with *pp set, CUDA_ENOMEM,
** or -1. */
int cuda_host_alloc(cuda_device *d, size_t n, void **pp, char *zErr, size_t nErr);

/* Frees memory of cuda_host_alloc() (NULL is a no-op). Errors are ignored. */
void cuda_host_free(cuda_device *d, void *p);

#endif /* STARQ_CUDA_H */
