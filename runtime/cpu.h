/*
** runtime/cpu.h — the CPU backend: generated kernel source compiled by the
** system C compiler into a shared object, and its kernels run one thread
** per block on a pool of worker threads (DESIGN decision 3).
**
** A module is one generated source with every kernel of a query in it.
** Loading prepends runtime/cpu-shim.h, looks the result up in an on-disk
** cache of compiled objects keyed by a hash of the text, the compiler and
** its flags, compiles on a miss, and dlopens the object; an object stays
** loaded for the next load of the same source (cpu-module.c), so a query
** shape run again costs one hash of its source. A kernel is found
** by name; launching it runs blocks 0..nBlock-1 on the pool and returns
** when every block is done, as a kernel boundary is on the GPU.
**
** Lifetimes: a cpu_kernel belongs to its module and is valid until
** cpu_module_free(); a module must not be freed while one of its kernels
** runs. A pool outlives every launch made on it.
**
** Threads: cpu_module_load() and cpu_module_kernel() may be called from
** any number of threads at once, also on one module. Launches on one pool
** from several threads are serialised: each runs alone on all the pool's
** threads, the next starts when it returns.
**
** Errors: each call returns 0, or -1 with a message in the caller's zErr
** (a compile that was stopped: CPU_STOPPED or CPU_TIMED_OUT).
** A kernel that faults takes the process with it, as a GPU fault ends the
** context; the generated code is trusted.
*/
#ifndef STARQ_CPU_H
#define STARQ_CPU_H

#include <stddef.h>
#include <stdint.h>

typedef struct cpu_module cpu_module;
typedef struct cpu_kernel cpu_kernel;
typedef struct cpu_pool cpu_pool;

/* How cpu_module_load() compiles and caches. A NULL pointer (for the
** struct or a field) takes the default. */
typedef struct cpu_options cpu_options;
struct cpu_options {
  const char *zCacheDir;   /* NULL: $XDG_CACHE_HOME/starq/cpu, else
                           ** $HOME/.cache/starq/cpu; made if missing */
  const char *zCompiler;   /* NULL: "cc", looked up on PATH */
  const char *zGenericCacheDir;  /* NULL: zCacheDir. Where the executor
                           ** caches the generic kernels' module
                           ** (runtime/exec-module.c): one directory for
                           ** backends of many caches (the test suite's)
                           ** compiles it once for all of them */
  /* Bounds of one compile (cpu-cc.c runs cc through common/proc.h): the
  ** compiler and everything it starts are stopped, as a process group,
  ** when pbCancel becomes nonzero (CPU_STOPPED), after secCompileMax
  ** seconds (CPU_TIMED_OUT), and may use at most nCompileBytesMax bytes of
  ** address space each (beyond it cc1 fails: an error). */
  const _Atomic int *pbCancel;   /* NULL: never cancelled */
  double secCompileMax;    /* <= 0: CPU_COMPILE_SECONDS */
  int64_t nCompileBytesMax;  /* <= 0: CPU_COMPILE_BYTES */
};

/* The default bounds of one compile: two minutes (an SSB shape takes 0.3
** to 4 s on two cores), 4 GiB per compiler process (a 3,000-value IN list
** reached 6.4 GB without one). */
#define CPU_COMPILE_SECONDS 120.0
#define CPU_COMPILE_BYTES ((int64_t)4 << 30)

/* What cpu_module_load() and cpu_module_compile() return, besides 0 and
** -1, when a compile was stopped: by cpu_options.pbCancel, or by
** secCompileMax (zErr says how long it ran). */
#define CPU_STOPPED (-2)
#define CPU_TIMED_OUT (-3)

/* What loading a module cost, for EXPLAIN ANALYZE and the logs. */
typedef struct cpu_module_info cpu_module_info;
struct cpu_module_info {
  int bCacheHit;           /* 1: the object was in the cache */
  double rCompileSeconds;  /* time in the compiler; 0 on a hit */
  double rLoadSeconds;     /* all of cpu_module_load(), compile included */
  char zMiss[64];          /* on a miss, why: "not in the cache", or what
                           ** was wrong with the cached object; else "" */
  char zHash[33];          /* the cache key, 32 hex digits */
  char zPath[4096];        /* the shared object loaded */
};

/* Compiles (or finds in the cache) and loads the generated source zSource.
** On success *pp is a new module for cpu_module_free(). A compile error
** returns -1 with the compiler's first diagnostics in zErr, its line
** numbers those of zSource (file name "query.c"). */
int cpu_module_load(const char *zSource, const cpu_options *pOpt, cpu_module **pp,
                    char *zErr, size_t nErr);

/* cpu_module_load() without compiling: a module in memory or in the disk
** cache is loaded and returned (0), else nothing is compiled and 1 is
** returned with *pp NULL; -1 with zErr on an error. */
int cpu_module_find(const char *zSource, const cpu_options *pOpt, cpu_module **pp,
                    char *zErr, size_t nErr);

/* Compiles zSource into the disk cache unless a valid object is there
** already, and loads nothing: the background compiler's part
** (runtime/compileq.h), after which cpu_module_find() finds it. Fills
** *pInfo (bCacheHit, rCompileSeconds, zHash, zPath). Returns 0, or -1
** with the compiler's diagnostics in zErr. */
int cpu_module_compile(const char *zSource, const cpu_options *pOpt, cpu_module_info *pInfo,
                       char *zErr, size_t nErr);

/* Returns what loading p cost and where it came from. */
const cpu_module_info *cpu_module_info_get(const cpu_module *p);

/* Finds kernel zName (declared with STARQ_CPU_ENTRY in the source) and
** sets *pp to it, owned by the module. Returns -1 if there is none. */
int cpu_module_kernel(cpu_module *p, const char *zName, cpu_kernel **pp, char *zErr,
                      size_t nErr);

/* Unloads the module; its kernels are gone with it. NULL is a no-op. */
void cpu_module_free(cpu_module *p);

/* Starts a pool of nThread threads, the launching thread counted as one of
** them; nThread 0 means one per online CPU. */
int cpu_pool_create(int nThread, cpu_pool **pp, char *zErr, size_t nErr);

/* Returns the number of threads that run blocks, the caller's included. */
int cpu_pool_threads(const cpu_pool *p);

/* Stops and joins the pool's threads. No launch may be running. NULL is a
** no-op. */
void cpu_pool_destroy(cpu_pool *p);

/* Runs kernel k on blocks 0..nBlock-1 (blockDim 1) with the argument block
** pArgs (the kernel's argument struct, read by every block), giving each
** block nDynShared bytes of dynamic shared memory (not cleared, as CUDA
** does not clear it). Returns when every block has finished. nBlock must
** be 1..2^31-1, CUDA's limit for gridDim.x. */
int cpu_kernel_launch(cpu_pool *pPool, const cpu_kernel *k, unsigned nBlock,
                      size_t nDynShared, const void *pArgs, char *zErr, size_t nErr);

/* cpu_kernel_launch, stopped early: once *pbCancel (NULL: never) is set no
** more blocks start, those running finish, and CPU_STOPPED is returned if
** any block was skipped (what the kernel wrote is then no result). */
int cpu_kernel_launch_cancel(cpu_pool *pPool, const cpu_kernel *k, unsigned nBlock,
                             size_t nDynShared, const void *pArgs, const _Atomic int *pbCancel,
                             char *zErr, size_t nErr);

#endif /* STARQ_CPU_H */
