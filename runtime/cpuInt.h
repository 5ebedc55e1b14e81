/*
** runtime/cpuInt.h — what the files of the CPU backend share and nothing
** outside runtime/ may use: the kernel struct, the compiler runner
** (cpu-cc.c) and the object cache (cpu-cache.c).
*/
#ifndef STARQ_CPUINT_H
#define STARQ_CPUINT_H

#include <stddef.h>

#include "cpu.h"

/* The text of runtime/cpu-shim.h, embedded at build time
** (build/gen/runtime/cpu-shim.c). */
extern const char runtime_cpu_shim[];

/* What the shim exports from every module: the worker calls the first
** before each block, then the kernel's entry. */
#define CPU_BLOCK_SET_SYMBOL "starq_cpu__block_set"
#define CPU_ENTRY_SUFFIX "__entry"

typedef void (*cpu_entry_fn)(const void *pArgs);
typedef void (*cpu_block_set_fn)(unsigned iBlock, unsigned nBlock, void *pDynShared);

/* A loaded shared object, shared by every module of one source
** (cpu-module.c). */
typedef struct cpu_object cpu_object;

/* One kernel of a loaded module. Read-only once made; owned by the
** module's object, which lives at least as long as the module. */
struct cpu_kernel {
  cpu_object *pObject;       /* the loaded object it lives in */
  cpu_entry_fn xEntry;       /* <name>__entry in the module */
  cpu_block_set_fn xBlockSet;/* the module's starq_cpu__block_set */
  cpu_kernel *pNext;         /* next kernel looked up in the same module */
  char zName[];              /* the kernel's name */
};

/* ---- cpu-cc.c: running the system C compiler ---- */

/* The compiler's flags, NULL-terminated: part of the cache key. */
extern const char *const cpu__azCcFlags[];

/* Sets *pz to a malloc'd description of zCompiler (its --version output),
** computed once per process and compiler. Returns 0, or -1 with zErr. */
int cpu__cc_identity(const char *zCompiler, char **pz, char *zErr, size_t nErr);

/* Compiles the C file zSrc into the shared object zOut, within pOpt's
** bounds (NULL: the defaults). Returns 0, CPU_STOPPED or CPU_TIMED_OUT,
** or -1 with the compiler's first diagnostics (or why it could not run)
** in zErr. */
int cpu__cc_compile(const char *zCompiler, const cpu_options *pOpt, const char *zSrc,
                    const char *zOut, char *zErr, size_t nErr);

/* ---- cpu-cache.c: the on-disk cache of compiled modules ---- */

/* Makes sure a valid shared object for zSource (the generated source, shim
** not yet prepended) is in the cache, compiling it on a miss when
** bCompile: sets pInfo's zHash, zPath, bCacheHit, zMiss and
** rCompileSeconds. Returns 0, 1 on a miss without bCompile, or -1 with
** zErr. */
int cpu__cache_object(const char *zSource, const cpu_options *pOpt, int bCompile,
                      cpu_module_info *pInfo, char *zErr, size_t nErr);

#endif /* STARQ_CPUINT_H */
