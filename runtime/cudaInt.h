/*
** runtime/cudaInt.h — what the files of the CUDA backend share and nothing
** outside runtime/ may use: the function table resolved from the two
** libraries, the device, module, kernel and stream structs (with the
** fields of the holds and epoch that cuda-recover.c keeps), error
** reporting, the launch that both the synchronous and the stream paths
** share, NVRTC's parallel compile (cuda-compile.c), the background
** compiler of the optimized tier (cuda-tier.c) and the on-disk CUBIN
** cache (cuda-cache.c).
*/
#ifndef STARQ_CUDAINT_H
#define STARQ_CUDAINT_H

#include <pthread.h>
#include <stdatomic.h>

#include "../common/hash128.h"
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

/* The fast tier's NVRTC options, at most ($STARQ_NVRTC_FAST_OPT). */
#define CUDA_FAST_NOPT 4

/* One kernel of a loaded module: read-only once the module is loaded but
** for the occupancy it caches. */
struct cuda_kernel {
  char zName[64];          /* the name codegen gave it */
  char *zLowered;          /* NVRTC's mangled name; owned */
  CUfunction hFunc;        /* in the module's ahMod[iProg] */
  int iProg;
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
** iUsed, bRetired and the list links are read-only once loaded. A module
** of the fast tier is replaced in the list by its optimized one
** (cuda__module_install): it is then retired — out of the list — and
** unloaded by the release of its last reference. */
struct cuda_module {
  cuda_device *pDevice;
  hash128 key;
  hash128 keyOpt;          /* of the optimized module that replaces it: key,
                           ** or for a fast module of one path (cuda_path) the
                           ** key without the path */
  int nProg;               /* CUmodules: one per NVRTC program */
  CUmodule *ahMod;         /* nProg; owned */
  int nKernel;
  cuda_kernel *aKernel;    /* owned */
  cuda_module_info info;
  int nRef;                /* references handed out; guarded by the device's mu */
  uint64_t iUsed;          /* the device's clock at the last load; same */
  int bRetired;            /* replaced, out of the list; same */
  cuda_module *pNext;      /* the device's list; same */
};

/* A module waiting for, or in, its optimized compile (cuda-tier.c). */
typedef struct cuda_tier_job cuda_tier_job;

/* A compiled module's images and names (cuda-cache.c's section). */
typedef struct cuda_image cuda_image;

/* What a compile cost (cuda-compile.c's section). */
typedef struct cuda_compile_stats cuda_compile_stats;

/* One NVRTC program's output: CUBIN, or PTX text with its NUL. */
typedef struct cuda_blob cuda_blob;
struct cuda_blob {
  unsigned char *p;        /* owned */
  size_t n;
};

/* The keys one generated source's hash and load options gave
** (cuda_module_load_known): a module already loaded is then found without
** its text being joined to the shim and hashed again. */
#define CUDA_KEY_MEMO 64
typedef struct cuda_key_memo cuda_key_memo;
struct cuda_key_memo {
  int bSet;
  hash128 hSource;         /* the caller's hash of its source */
  uint64_t mHow;           /* mode, path, split and kernel count (cuda-module.c) */
  hash128 aKey[2];         /* the key of both paths, and of the load's path */
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

  /* Compiling (cuda-compile.c, cuda-tier.c). */
  int nCompileThread;      /* programs of one module compiled at once */
  char zFastOpt[128];      /* the fast tier's NVRTC options, NULs between them */
  const char *azFastOpt[CUDA_FAST_NOPT];  /* each, in zFastOpt */
  int nFastOpt;
  int nProgram;            /* programs a split module is compiled as, at
                           ** most (cuda_options.nProgram) */
  char zTimeDir[256];      /* $STARQ_NVRTC_TIME: each program's --time file
                           ** goes there; "" for none */
  int bCompileOnly;        /* cuda_options.zCompileOnly: NVRTC alone */
  pthread_cond_t cvTier;   /* the background compiler's: a job queued, a
                           ** job done, or stop; guarded by mu */
  pthread_t hTier;         /* the background compiler, once started */
  int bTierStarted;
  int bTierStop;           /* cuda_device_close: finish the job in hand, drop
                           ** the rest */
  cuda_tier_job *pTierQueue; /* jobs not started, oldest first; owned */
  cuda_tier_job *pTierBusy;  /* the job being compiled, or NULL; owned by
                           ** the thread */

  /* The linked fast tier (cuda-link.c). */
  int bPathModules;        /* a module per path (cuda-module.c) unless
                           ** $STARQ_PATH_MODULES is "0" (to compare) */
  _Atomic int bLink;       /* fast programs are linked with the library:
                           ** unless $STARQ_NVRTC_LINK=0 or it failed */
  _Atomic int bLibStarted; /* the library's thread was started (once) */
  pthread_t hLib;          /* that thread, when bLibThread */
  int bLibThread;
  int bLibBusy;            /* that thread has not finished (the library and
                           ** NVRTC's warm-up); guarded by mu, signalled
                           ** on cvTier (cuda_device_compile_wait) */
  pthread_mutex_t muLib;   /* guards the fields below */
  int eLib;                /* 0: not compiled yet, 1: lib holds it, -1: failed */
  cuda_blob lib;           /* the library's relocatable image; owned */
  char zLibErr[512];       /* why it failed */
  double rLibSeconds, rLibCpu;  /* its compile: wall, CPU */
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

/* Loads the optimized image p of module key (compiled by the background
** compiler for a fast-tier module) into the context as it is now, under a
** shared hold, and puts it in the list in place of the fast module, which
** is retired. Does nothing when the list already has an optimized module
** of key, or the device is lost. pSt is what its compile cost, for the
** module's info. Returns 0, or -1 with zErr (the caller logs: the fast
** module stays). */
int cuda__module_install(cuda_device *d, hash128 key, const char *zHash, const cuda_image *p,
                         int nKernel, const char *const *azKernel, const cuda_compile_stats *pSt,
                         char *zErr, size_t nErr);

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

/* A compiled module as the cache stores it: the image of each program
** (one, or of a split module several: cuda__compile_group),
** the program of each kernel and the lowered name of each kernel, in the
** order asked. */
struct cuda_image {
  int nProg;
  cuda_blob *aProg;        /* nProg images; owned */
  int nKernel;
  char **azLowered;        /* nKernel names; owned */
  int *aiProg;             /* nKernel programs; owned; NULL: all in program 0 */
};

void cuda__image_free(cuda_image *p);

/* Returns the program that holds kernel i of image p. */
#define CUDA_IMAGE_PROG(p, i) ((p)->aiProg == NULL ? 0 : (p)->aiProg[i])

/* Returns the key of a module: the cache format, the arch, the driver and
** NVRTC versions, the compile options, the kernel names and the source;
** CUDA_KEY_NONE when there was no memory to take it. */
#define CUDA_KEY_NONE ((hash128){~0ull, ~0ull})
#define CUDA_KEY_IS_NONE(h) ((h).h1 == ~0ull && (h).h2 == ~0ull)
hash128 cuda__module_key(const cuda_device *d, const char *zSource, int nKernel,
                         const char *const *azKernel, const char *const *azOpt, int nOpt);

/* Looks key up on disk. Returns 0 with *p filled (nKernel lowered names
** for azKernel), 1 on a miss (zWhy says why), -1 with zErr. */
int cuda__cache_get(const cuda_device *d, hash128 key, int nKernel, const char *const *azKernel,
                    cuda_image *p, char *zWhy, size_t nWhy, char *zErr, size_t nErr);

/* Stores p under key, and zSource beside it for reading. Returns 0, or -1
** with zErr (the caller goes on: the cache is an optimisation). */
int cuda__cache_put(const cuda_device *d, hash128 key, const char *zSource, int nKernel,
                    const char *const *azKernel, const cuda_image *p, char *zErr, size_t nErr);

/* ---- cuda-compile.c: NVRTC ---- */

/* The fast tier's option unless $STARQ_NVRTC_FAST_OPT says another. */
extern const char cuda__zFastOptDefault[];

/* Options of one NVRTC program, at most: the architecture, 4 common ones,
** the fast tier's, SQ_KERNELS, SQ_PATH, the linked fast tier's three and
** --time. */
#define CUDA_NVRTC_NOPT (11 + CUDA_FAST_NOPT)

/* Fills azOpt (CUDA_NVRTC_NOPT entries) with the options a program is
** compiled with: the architecture's (formatted into zArch, nArch bytes),
** the common ones, then the fast tier's (d->azFastOpt) when bFast, then
** zDefine and zPath where not NULL. A module's key (cuda-module.c) is
** hashed over the same list, so that it names what was compiled. Returns
** how many. */
int cuda__nvrtc_options(const cuda_device *d, char *zArch, size_t nArch, int bFast,
                        const char *zDefine, const char *zPath, const char **azOpt);

/* Returns the option that compiles path e alone ("-DSQ_PATH=1"), or NULL
** for CUDA_PATH_ANY (no option: both sides). */
const char *cuda__path_option(cuda_path e);

/* Programs a split module is compiled as unless cuda_options says: one,
** the module whole. One program per kernel compiled on threads at once
** waited about as long as all of them one after another here (NVRTC 13.0,
** a 2-core VM: wall = the programs' summed CPU time), and a program pays
** a fixed ~20 ms (front end over the prelude and the library, NVVM and
** ptxas start-up) plus the helpers its kernels share; so one program is
** the least CPU and, without parallel compiles, the shortest wait: Q4.1's
** plain fast tier 87-100 ms whole, 128-155 as two (the SCAN's, the
** rest's), 190-250 as seven (bench/RESULTS.md). bench/device.sh
** nvrtc-time measures 1, 2, 3 and one per kernel on the GPU's host. */
#define CUDA_PROGRAMS_DEFAULT 1

/* Programs whose own times a compile's stats keep: as many as a
** module's info shows. */
#define CUDA_STATS_PROG CUDA_INFO_PROGRAMS

/* What a compile cost. */
struct cuda_compile_stats {
  double rWall;            /* from the first program's start to the last's end */
  double rStart;           /* of that, starting the compile threads */
  int nProg;
  struct {
    double rWall, rCpu;    /* the program's own */
    int nKernel;
  } aProg[CUDA_STATS_PROG];  /* the first nProg (the SCAN's first) */
  double rSlowest;         /* the slowest program's own time */
  double rCpu;             /* CPU time of all programs */
  double rSlowestCpu;      /* the most CPU time of one program */
  double rLink;            /* linking the programs with the library, wall;
                           ** 0 when not linked */
  double rLib;             /* the library's compile, when this compile
                           ** waited for it (once a process), wall */
  int bRdc;                /* the programs were compiled -rdc=true */
};

/* Fills aiProg (nKernel entries) with the program of each kernel of
** zSource (codegen's guards), for nProg programs at most: the kernel of
** the most text (the SCAN) in program 0, the others in kernel order cut
** into nProg - 1 runs; with nProg < 2 (or one kernel) all in program 0.
** Returns how many programs. */
int cuda__compile_group(const char *zSource, int nKernel, int nProg, int *aiProg);

/* Compiles zSource (module zHash) at tier eTier into *p: one program, or
** with bSplit (and more than one kernel) the d->nProgram programs of
** cuda__compile_group, each with -DSQ_KERNELS=<its kernels' bits>, at once
** on up to d->nCompileThread threads; with ePath not CUDA_PATH_ANY (the fast
** tier's), every program holds only that side of its packed loads. Returns 0, or -1 with zErr (for a
** compile error, the start of the first failed program's log; its whole
** log and the source go to the log at ERROR). */
int cuda__compile(cuda_device *d, const char *zSource, const char *zHash, int nKernel,
                  const char *const *azKernel, int bSplit, cuda_tier eTier, cuda_path ePath,
                  int bLink, cuda_image *p, cuda_compile_stats *pStats, char *zErr, size_t nErr);

/* Compiles the device library zSource (the prelude and device.cuh) as
** relocatable code of its bodies (-rdc=true -DSQ_LIB_MODE=2) with the fast
** tier's options into *p. Returns 0, or -1 with zErr. */
int cuda__compile_library(cuda_device *d, const char *zSource, cuda_blob *p,
                          cuda_compile_stats *pStats, char *zErr, size_t nErr);

/* Compiles an empty program with the fast tier's options and drops it:
** NVRTC's first compile in a process pays NVVM's start-up, ~190 ms on the
** H100 host (bench/RESULTS.md), which a process that read the library
** from disk would otherwise put on its first new query shape. Returns its
** wall seconds, or a negative value if it failed (which only logs). */
double cuda__compile_warm(cuda_device *d);

/* Fills azOpt (CUDA_NVRTC_NOPT entries) with the library's options, as
** cuda__nvrtc_options does for a program's. Returns how many. */
int cuda__library_options(const cuda_device *d, char *zArch, size_t nArch, const char **azOpt);

/* Returns 1 when d's programs are PTX (a compute_XY architecture, or an
** NVRTC without nvrtcGetCUBIN), 0 for CUBIN. */
int cuda__image_is_ptx(const cuda_device *d);

/* ---- cuda-link.c: the linked fast tier ---- */

/* Starts making the device library (from disk, else compiled) on a thread
** of its own unless linking is off or it was started already: at device
** open, and by a fast compile in case that failed. Any thread. */
void cuda__link_prepare(cuda_device *d);

/* Waits for the library (made here if no thread could be started).
** Returns 0 once d->lib holds it, or -1 with zErr when it could not be
** compiled (d->bLink is then 0). */
int cuda__link_library(cuda_device *d, char *zErr, size_t nErr);

/* Joins the library's thread and frees it: cuda_device_close. */
void cuda__link_stop(cuda_device *d);

/* Links relocatable program *pProg with the library (which must be
** compiled) and puts the loadable image in its place. Needs the device's
** context current. Returns 0, or -1 with zErr (*pProg unchanged). */
int cuda__link_program(cuda_device *d, cuda_blob *pProg, char *zErr, size_t nErr);

/* ---- cuda-tier.c: the background compiler ---- */

/* Queues the optimized compile of module key (a copy of the source and
** names is kept) unless it is queued or running already; starts the
** thread at the first job. Returns 0, or -1 with zErr (no memory, no
** thread: the fast module then stays). */
int cuda__tier_submit(cuda_device *d, hash128 key, const char *zHash, const char *zSource,
                      int nKernel, const char *const *azKernel, int bSplit, char *zErr,
                      size_t nErr);

/* Drops the queued (not yet started) job of key, if any: its module was
** compiled optimized meanwhile. */
void cuda__tier_cancel(cuda_device *d, hash128 key);

/* Stops the thread for cuda_device_close: the job in hand finishes (and is
** installed), the queued ones are dropped; joins it. */
void cuda__tier_stop(cuda_device *d);

#endif /* STARQ_CUDAINT_H */
