/*
** runtime/cudaInt.h — what the files of the CUDA backend share and nothing
** outside runtime/ may use: the function table resolved from the two
** libraries, the device, module, kernel and stream structs (with the
** fields of the holds and epoch that cuda-recover.c keeps), error
** reporting, the launch that both the synchronous and the stream paths
** share, NVRTC (cuda-compile.c), the modules the background compiler
** makes (cuda-module.c) and the on-disk CUBIN cache (cuda-cache.c).
*/
#ifndef STARQ_CUDAINT_H
#define STARQ_CUDAINT_H

#include <pthread.h>
#include <stdatomic.h>

#include "../common/hash128.h"
#include "compileq.h"
#include "cuda-api.h"
#include "cuda.h"

/* The functions of cuda-api.h, as resolved by dlsym: api.cuInit(0).
** Read-only once the device is open. */
typedef struct cuda_api cuda_api;
struct cuda_api {
#define CUDA_API_FN_FIELD(ret, name, sym, params, req) name##_fn name;
  CUDA_API_DRIVER_FUNCTIONS(CUDA_API_FN_FIELD)
  CUDA_API_NVRTC_FUNCTIONS(CUDA_API_FN_FIELD)
#undef CUDA_API_FN_FIELD
};

/* Occupancy answers kept per kernel: blocks of 32, 64, ... 1024 threads. */
#define CUDA_OCCUPANCY_SLOTS 33

/* One kernel of a loaded module: read-only once the module is loaded but
** for the occupancy it caches. */
struct cuda_kernel {
  char zName[64];          /* the name codegen gave it */
  char *zLowered;          /* NVRTC's mangled name; owned */
  CUfunction hFunc;        /* in the module's hMod */
  cuda_kernel_attrs attrs; /* cuFuncGetAttribute, at load */
  _Atomic int aBlockPerSm[CUDA_OCCUPANCY_SLOTS];  /* the driver's occupancy
                           ** for blocks of 32 * i threads without dynamic
                           ** shared memory, plus one (0: not asked yet);
                           ** written by whichever query asks first */
};

/* A stream and the epoch of the context it lives in: a stream of an
** earlier epoch died with its context and is never handed to the driver,
** and neither are its events. Used by one thread at a time. */
struct cuda_stream {
  CUstream h;
  unsigned iEpoch;
  int nMark;               /* timing marks made so far: aEvent / aHostMark */
  CUevent *aEvent;         /* one event per mark, made at its first use in
                           ** iEpoch's context; owned */
  double *aHostMark;       /* without cuEventElapsedTime_v2: the host clock
                           ** when each mark's work had finished; owned */
};

/* A loaded module, in its device's cache list. Fields other than nRef,
** iUsed and the list link are read-only once loaded. */
struct cuda_module {
  cuda_device *pDevice;
  hash128 key;
  CUmodule hMod;
  int nKernel;
  cuda_kernel *aKernel;    /* owned */
  cuda_module_info info;
  int nRef;                /* references handed out; guarded by the device's mu */
  uint64_t iUsed;          /* the device's clock at the last load; same */
  cuda_module *pNext;      /* the device's list; same */
};

/* A module's text as NVRTC compiles it and its key (cuda-module.c makes
** it; the strings are the caller's). */
typedef struct cuda_src cuda_src;
struct cuda_src {
  const char *zText;       /* the whole text: the shim, SQ_PATH, the library, the source */
  int nKernel;
  const char *const *azKernel;
  hash128 key;             /* cuda__module_key; CUDA_KEY_NONE without memory */
  char zHash[33];          /* key in hex, for messages and file names */
};

/* A compiled module: its image and lowered names (cuda-cache.c's section). */
typedef struct cuda_image cuda_image;

/* What a compile cost (cuda-compile.c's section). */
typedef struct cuda_compile_stats cuda_compile_stats;

/* NVRTC's output: CUBIN, or PTX text with its NUL. */
typedef struct cuda_blob cuda_blob;
struct cuda_blob {
  unsigned char *p;        /* owned */
  size_t n;
};

/* The key one generated source's hash and path gave
** (cuda_load_options.hSource): a module already loaded is then found
** without its text being joined to the shim and hashed again. */
#define CUDA_KEY_MEMO 64
typedef struct cuda_key_memo cuda_key_memo;
struct cuda_key_memo {
  int bSet;
  hash128 hSource;         /* the caller's hash of its source */
  uint64_t mHow;           /* its path and kernel count (cuda-module.c) */
  hash128 key;
};

struct cuda_device {
  cuda_api api;
  void *hCuda, *hNvrtc;    /* dlopen handles; closed by cuda_device_close */
  CUdevice dev;
  CUcontext ctx;           /* the primary context, retained */
  int bRetained;           /* ctx is retained: a failed rebuild may leave it not */
  cuda_device_info info;
  char zCacheDir[4096];    /* the on-disk cache; "" if none could be made */
  pthread_mutex_t mu;      /* guards the module list, the clock, bLost, ctx
                           ** and the hold fields below */
  cuda_module *pModule;    /* loaded modules, most recent first */
  int nModule;
  uint64_t iClock;
  int bLost;               /* a fault destroyed the context */
  cuda_key_memo aMemo[CUDA_KEY_MEMO];  /* by source hash, a slot each (a
                           ** newer one takes it); guarded by mu */

  /* Holds (cuda-recover.c): any number of shared ones, or one exclusive. */
  pthread_cond_t cvHold;   /* broadcast when a hold ends */
  int nUser;               /* shared holds taken (cuda_device_use_begin) */
  int bExclusive;          /* a rebuild holds, or waits for, the exclusive
                           ** hold: no new shared hold is given meanwhile */
  unsigned iEpoch;         /* 1 at open, +1 per rebuild */

  /* Compiling (cuda-compile.c, cuda-module.c). */
  int bCompileOnly;        /* cuda_options.zCompileOnly: NVRTC alone */
  compileq *pCompiler;     /* the background compiler; owned */
  /* Compiles on threads of their own (cuda-detach.c), under mu. */
  pthread_cond_t cvDetach; /* broadcast when one ends */
  int nDetached;           /* compile threads running */
  int nAbandoned;          /* of them, those their caller left */
};

/* ---- cuda-lib.c ---- */

/* Formats "zWhat: CUDA_ERROR_NAME (description)" into zErr and returns
** CUDA_ENOMEM for CUDA_ERROR_OUT_OF_MEMORY, else -1. Marks the device lost
** when rc is one of the errors that destroy a context. */
int cuda__error(cuda_device *d, CUresult rc, const char *zWhat, char *zErr, size_t nErr);

/* Makes the device's context current on this thread. Returns 0, or -1
** with zErr (also when the device is lost). */
int cuda__enter(cuda_device *d, char *zErr, size_t nErr);

/* Retains the device's primary context into d->ctx and makes it current.
** Returns 0, or -1 with zErr (nothing retained). */
int cuda__context_retain(cuda_device *d, char *zErr, size_t nErr);

/* ---- cuda-module.c ---- */

/* Unloads module m and frees it. On a lost context the unload fails
** harmlessly; the host side is freed either way. */
void cuda__module_unload(cuda_module *m);

/* Frees every cached module's host side without unloading it: for a
** rebuild, when the context that held them is gone. Returns how many.
** Called with the exclusive hold; no module may be referenced. */
int cuda__modules_forget(cuda_device *d);

/* Checks the grid and enqueues k on hStream (NULL: the legacy default
** stream). Returns 0, or -1 with zErr. */
int cuda__launch(cuda_device *d, CUstream hStream, const cuda_kernel *k, unsigned nBlock,
                 unsigned nThread, unsigned nDynShared, const void *pArgs, size_t nArgs,
                 char *zErr, size_t nErr);

/* ---- cuda-cache.c: the on-disk cache of compiled modules ---- */

/* A compiled module as the cache stores it: the image and the lowered
** name of each kernel, in the order asked. */
struct cuda_image {
  cuda_blob img;
  int nKernel;
  char **azLowered;        /* nKernel names; owned */
};

void cuda__image_free(cuda_image *p);

/* Returns the key of a module: the cache format, the arch, the driver and
** NVRTC versions, the compile options, the kernel names and the text;
** CUDA_KEY_NONE when there was no memory to take it. */
#define CUDA_KEY_NONE ((hash128){~0ull, ~0ull})
#define CUDA_KEY_IS_NONE(h) ((h).h1 == ~0ull && (h).h2 == ~0ull)
hash128 cuda__module_key(const cuda_device *d, const char *zText, int nKernel,
                         const char *const *azKernel, const char *const *azOpt, int nOpt);

/* Looks s up on disk. Returns 0 with *p filled (s's kernels' lowered
** names), 1 on a miss (zWhy says why), -1 with zErr. */
int cuda__cache_get(const cuda_device *d, const cuda_src *s, cuda_image *p, char *zWhy,
                    size_t nWhy, char *zErr, size_t nErr);

/* Stores p under s's key, and s's text beside it for reading. Returns 0,
** or -1 with zErr (the caller goes on: the cache is an optimisation). */
int cuda__cache_put(const cuda_device *d, const cuda_src *s, const cuda_image *p, char *zErr,
                    size_t nErr);

/* ---- cuda-compile.c: NVRTC ---- */

/* Options of the NVRTC program, at most: the architecture and 4 common ones. */
#define CUDA_NVRTC_NOPT 8

/* Fills azOpt (CUDA_NVRTC_NOPT entries) with the options a module is
** compiled with: the architecture's (formatted into zArch, nArch bytes),
** then the common ones. A module's key (cuda-module.c) is hashed over the
** same list, so that it names what was compiled. Returns how many. */
int cuda__nvrtc_options(const cuda_device *d, char *zArch, size_t nArch, const char **azOpt);

/* What a compile cost. */
struct cuda_compile_stats {
  double rWall;            /* in NVRTC, wall */
  double rCpu;             /* the compiling thread's CPU time */
};

/* Compiles s into *p. Returns 0, or -1 with zErr (for a compile error,
** the start of NVRTC's log; its whole log and the source go to the log at
** ERROR). */
int cuda__compile(cuda_device *d, const cuda_src *s, cuda_image *p, cuda_compile_stats *pStats,
                  char *zErr, size_t nErr);

/* ---- cuda-detach.c ---- */

/* Compiles nobody waits for any more that may run at once; a new compile
** waits while there are this many. */
#define CUDA_ABANDONED_MAX 4

/* cuda__compile, on a thread of its own when pbCancel or secMax (> 0) can
** stop the wait: returns CUDA_COMPILE_STOPPED once *pbCancel is set,
** CUDA_COMPILE_TIMED_OUT after secMax seconds (zErr says so; the compile
** goes on, abandoned, its image cached on disk), else as cuda__compile. */
int cuda__compile_wait(cuda_device *d, const cuda_src *s, const _Atomic int *pbCancel,
                       double secMax, cuda_image *p, cuda_compile_stats *pStats, char *zErr,
                       size_t nErr);

/* The device's side: set up at open (0, or -1); at close, waits for every
** compile thread to end, then frees what init made. */
int cuda__detach_init(cuda_device *d);
void cuda__detach_drain(cuda_device *d);

/* Returns 1 when d's images are PTX (a compute_XY architecture, or an
** NVRTC without nvrtcGetCUBIN), 0 for CUBIN. */
int cuda__image_is_ptx(const cuda_device *d);

#endif /* STARQ_CUDAINT_H */
