/*
** tests/mock/cuda-mock.c — a stand-in for libcuda.so.1 and libnvrtc in one
** shared library (this file is the driver; nvrtc-mock.c is NVRTC), so that
** CI, which has no GPU, runs the CUDA backend's
** host side: dlopen and symbol lookup, NVRTC's name expressions and
** lowered names, the on-disk CUBIN cache, device buffers, host
** registration, the by-value argument block of cuLaunchKernel, error
** words read back, and error handling. Built by the Makefile as
** build/asan/bin/libstarq-cuda-mock.so; tests point cuda_options at it.
**
** What it does instead of a GPU: "NVRTC" compiles the source as the CPU
** backend does (cc with STARQ_CPU defined: runtime/cpu-shim.h maps CUDA
** onto one thread per block) and hands back the shared object's bytes as
** the "CUBIN"; cuModuleLoadData writes them to a temp file and dlopens it;
** cuLaunchKernel runs every block in turn on the calling thread. Work on
** a stream (stream-mock.c) is queued and runs only when the stream is
** synchronized — as late as the driver may run it — so a backend that
** reads a result or reuses a buffer before it waits for the stream gets
** wrong bytes here. Device memory is host memory,
** but every buffer is tracked: a copy, memset or free outside a live
** allocation aborts the test, so an executor that hands a host pointer to
** a device call is caught. Lowered names are mangled like the real ones
** (_Z<len><name>...), and cuModuleGetFunction accepts only those, so plain
** names cannot slip through. Kernel attributes and occupancy are those of
** a kernel of 80 registers and 2 KB of static shared memory on an SM of
** 64K registers, 228 KB of shared memory, 2048 threads and 32 blocks.
**
** Contexts: each primary context the mock makes has a generation and a
** handle of its own. A context ends at cuDevicePrimaryCtxReset or at the
** release of its last retain, and takes with it what was made in it —
** buffers, registrations, pinned host memory, streams, modules — as the
** driver does; the lost state goes too. While a context is lost every
** call fails with CUDA_ERROR_ILLEGAL_ADDRESS, frees and unloads included,
** as the driver's sticky errors do. A backend that then hands the
** driver anything of the old context (sets the old handle current,
** destroys an old stream, unloads an old module, launches an old kernel,
** frees an old buffer) aborts the test.
**
** A gate for the tests of the column cache: starq_cuda_mock_copy_gate(1)
** makes every cuMemcpyHtoD wait until the gate opens again, and
** starq_cuda_mock_copies_waiting() says how many wait, so a test can hold
** one query in a column's copy while others run.
**
** Failure injection, read from the environment at each call:
**   STARQ_CUDA_MOCK_MEMORY=N        device memory is N bytes: cuMemAlloc
**                                   past it is CUDA_ERROR_OUT_OF_MEMORY
**   STARQ_CUDA_MOCK_NO_REGISTER=1   cuMemHostRegister of file-backed pages
**                                   fails, as some file systems make it
**   STARQ_CUDA_MOCK_FAULT_AT=N      the Nth launch (from 1) ends in
**                                   CUDA_ERROR_ILLEGAL_ADDRESS, and every
**                                   later call fails as on a lost context
**   starq_cuda_mock_fault_launch(n) the same for the nth launch from now
**                                   (1: the next), once; 0 cancels
**   STARQ_CUDA_MOCK_FAULT_FILE=PATH a launch made while PATH exists ends
**                                   in CUDA_ERROR_ILLEGAL_ADDRESS, once:
**                                   the launch removes the file — so a
**                                   test can fault one launch of a worker
**                                   process, and none of the next one
**   STARQ_CUDA_MOCK_STICKY=1        a fault poisons the process, as CUDA 13
**                                   does after an illegal address
**                                   (bench/fault-check.c): from then on
**                                   cuDevicePrimaryCtxRetain fails with
**                                   CUDA_ERROR_ILLEGAL_ADDRESS, so no new
**                                   context can be made in this process
** The variables are read from the environment at each call; the
** function is looked up by tests with dlsym, as are
** starq_cuda_mock_stats() (live allocations, live registrations, compiles,
** launches) and starq_cuda_mock_live() (live modules, streams and pinned
** host buffers, and contexts ended).
*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mockInt.h"

CUDA_API_DRIVER_FUNCTIONS(MOCK_PROTO)

#define MOCK_MAX 4096
#define MOCK_SHARED_MAX (64 << 10)

/* The kernel and the SM the attributes and occupancy describe. */
#define MOCK_REGS 80
#define MOCK_STATIC_SHARED 2048
#define MOCK_MAX_THREADS 768          /* 64K registers / 80, in whole warps */
#define MOCK_SM_REGS 65536
#define MOCK_SM_SHARED (228 << 10)
#define MOCK_SM_THREADS 2048
#define MOCK_SM_BLOCKS 32
#define MOCK_TOTAL_MEM ((size_t)1 << 32)

typedef void (*mock_entry_fn)(const void *pArgs);
typedef void (*mock_block_set_fn)(unsigned iBlock, unsigned nBlock, void *pDynShared);

struct CUmod_st {
  void *h;
  struct CUmod_st *pNext;          /* live modules of the context */
};
struct CUfunc_st {
  mock_entry_fn xEntry;
  mock_block_set_fn xBlockSet;
  size_t nArgs;                    /* <kernel>__argsize */
  struct CUmod_st *pMod;           /* NULL once the module is gone */
  struct CUfunc_st *pNext;
};

pthread_mutex_t mock__mu = PTHREAD_MUTEX_INITIALIZER;
#define mu mock__mu
static struct { char *p; size_t n; } aAlloc[MOCK_MAX];
static struct { char *p; size_t n; } aReg[MOCK_MAX];
static struct { char *p; size_t n; } aPinned[MOCK_MAX];
static int nLaunch, bLost, nRetain, nFaultAt, nContextEnded;
static int bPoisoned;                  /* STARQ_CUDA_MOCK_STICKY: no context ever again */
static struct CUfunc_st *pFuncs;       /* freed never: a test process is short */
static struct CUmod_st *pMods;
static unsigned iGen = 1;              /* the context's generation */
static int bActive;                    /* the context exists: retained since it
                                       ** last ended */
static pthread_cond_t cvGate = PTHREAD_COND_INITIALIZER;
static int bGateClosed, nGateWaiting;  /* starq_cuda_mock_copy_gate */

/* The handle of the current context: a new one per generation, never
** dereferenced. */
static CUcontext mock_ctx(void) {
  return (CUcontext)(uintptr_t)(0x1000u + 0x40u * iGen);
}

void mock__abort(const char *zWhy, const void *p, size_t n) {
  fprintf(stderr, "cuda-mock: %s (%p, %zu bytes)\n", zWhy, p, n);
  abort();
}
#define mock_abort mock__abort

int mock__lost(void) {
  int b;
  pthread_mutex_lock(&mu);
  b = bLost;
  pthread_mutex_unlock(&mu);
  return b;
}

void mock__check_dev(CUdeviceptr x, size_t n, const char *zCall) {
  char *p = (char *)(uintptr_t)x;
  pthread_mutex_lock(&mu);
  for (int i = 0; i < MOCK_MAX; i++) {
    if (aAlloc[i].p != NULL && p >= aAlloc[i].p && p + n <= aAlloc[i].p + aAlloc[i].n) {
      pthread_mutex_unlock(&mu);
      return;
    }
  }
  pthread_mutex_unlock(&mu);
  mock_abort(zCall, p, n);
}

static int mock_env(const char *z) {
  const char *v = getenv(z);
  return v != NULL ? atoi(v) : 0;
}

void mock__fault(void) {
  pthread_mutex_lock(&mu);
  bLost = 1;
  if (mock_env("STARQ_CUDA_MOCK_STICKY")) bPoisoned = 1;
  pthread_mutex_unlock(&mu);
}

int mock__host_pinned(const void *p, size_t n) {
  const char *z = p;
  int b = 0;
  pthread_mutex_lock(&mu);
  for (int i = 0; i < MOCK_MAX && !b; i++) {
    b = (aPinned[i].p != NULL && z >= aPinned[i].p && z + n <= aPinned[i].p + aPinned[i].n) ||
        (aReg[i].p != NULL && z >= aReg[i].p && z + n <= aReg[i].p + aReg[i].n);
  }
  pthread_mutex_unlock(&mu);
  return b;
}

/* ---- driver ------------------------------------------------------------------ */

/* Sleeps n milliseconds (0: not at all). */
void mock__sleep_ms(int n) {
  struct timespec ts = {n / 1000, (long)(n % 1000) * 1000000L};
  while (n > 0 && nanosleep(&ts, &ts) != 0) continue;   /* EINTR: sleep the rest */
}

/* STARQ_CUDA_MOCK_INIT_MS makes the driver's start that slow: a server's
** start-up window (its /readyz 503, logins 57P03) can be looked at. */
CUresult cuInit(unsigned int Flags) {
  mock__sleep_ms(mock_env("STARQ_CUDA_MOCK_INIT_MS"));
  return Flags == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult cuDriverGetVersion(int *v) { *v = 13000; return CUDA_SUCCESS; }

CUresult cuGetErrorName(CUresult e, const char **pz) {
#define MOCK_NAME(name, value) if (e == value) { *pz = #name; return CUDA_SUCCESS; }
  CUDA_API_RESULTS(MOCK_NAME)
  *pz = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult e, const char **pz) {
  *pz = e == CUDA_ERROR_ILLEGAL_ADDRESS ? "an illegal memory access was encountered" : "mock error";
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *n) { *n = 1; return CUDA_SUCCESS; }
CUresult cuDeviceGet(CUdevice *d, int i) {
  *d = i;
  return i == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuDeviceGetName(char *z, int n, CUdevice d) {
  (void)d;
  snprintf(z, (size_t)n, "starq mock GPU");
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute e, CUdevice d) {
  (void)d;
  switch (e) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *pi = 3; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *pi = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *pi = 0; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *pi = 2048; break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *pi = 1 << 20; break;
    default: *pi = 1; break;
  }
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(size_t *n, CUdevice d) {
  (void)d;
  *n = (size_t)1 << 32;
  return CUDA_SUCCESS;
}

/* Free is the total less the live buffers. */
CUresult cuMemGetInfo(size_t *pFree, size_t *pTotal) {
  size_t nUsed = 0;
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;
  pthread_mutex_lock(&mu);
  for (int i = 0; i < MOCK_MAX; i++) {
    if (aAlloc[i].p != NULL) nUsed += aAlloc[i].n;
  }
  pthread_mutex_unlock(&mu);
  *pTotal = MOCK_TOTAL_MEM;
  *pFree = nUsed < MOCK_TOTAL_MEM ? MOCK_TOTAL_MEM - nUsed : 0;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *p, CUdevice d) {
  (void)d;
  pthread_mutex_lock(&mu);
  if (bPoisoned) {
    pthread_mutex_unlock(&mu);
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  }
  nRetain++;
  bActive = 1;
  *p = mock_ctx();
  pthread_mutex_unlock(&mu);
  return CUDA_SUCCESS;
}

/* Ends the context, as the driver does: its memory, registrations, pinned
** host memory, streams and modules go with it, a lost context is
** forgotten, and the next one has a new handle. An ended context ends
** once. Called with mu held. */
static void mock_context_end(void) {
  if (!bActive) return;
  bActive = 0;
  for (int i = 0; i < MOCK_MAX; i++) {
    free(aAlloc[i].p);
    aAlloc[i].p = NULL;
    aReg[i].p = NULL;
    free(aPinned[i].p);
    aPinned[i].p = NULL;
  }
  mock__streams_end();
  while (pMods != NULL) {
    struct CUmod_st *m = pMods;
    pMods = m->pNext;
    for (struct CUfunc_st *f = pFuncs; f != NULL; f = f->pNext) {
      if (f->pMod == m) f->pMod = NULL;
    }
    dlclose(m->h);
    free(m);
  }
  bLost = 0;
  nFaultAt = 0;
  iGen++;
  nContextEnded++;
}

/* The last release ends the context. */
CUresult cuDevicePrimaryCtxRelease(CUdevice d) {
  (void)d;
  pthread_mutex_lock(&mu);
  if (nRetain == 0) mock_abort("cuDevicePrimaryCtxRelease of a context not retained", NULL, 0);
  if (--nRetain == 0) mock_context_end();
  pthread_mutex_unlock(&mu);
  return CUDA_SUCCESS;
}

/* Ends the context whatever its retains, which stay as they were (the
** driver's documented behaviour: a reset does not release). */
CUresult cuDevicePrimaryCtxReset(CUdevice d) {
  (void)d;
  pthread_mutex_lock(&mu);
  mock_context_end();
  pthread_mutex_unlock(&mu);
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext c) {
  pthread_mutex_lock(&mu);
  if (c != mock_ctx() || nRetain == 0 || !bActive) {
    pthread_mutex_unlock(&mu);
    mock_abort("cuCtxSetCurrent of an ended or foreign context", c, 0);
  }
  pthread_mutex_unlock(&mu);
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void) { return bLost ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS; }

CUresult cuModuleLoadData(CUmodule *pm, const void *image) {
  char zPath[] = "/tmp/starq-cuda-mock-XXXXXX.so";
  const unsigned char *a = image;
  size_t n;
  int fd;
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;
  /* The "CUBIN" is an ELF shared object: its size is in its section
  ** header fields (e_shoff + e_shnum * e_shentsize ends the file). */
  if (memcmp(a, "\177ELF", 4) != 0) return CUDA_ERROR_INVALID_IMAGE;
  n = (size_t)(*(const uint64_t *)(a + 0x28)) +
      (size_t)(*(const uint16_t *)(a + 0x3c)) * (size_t)(*(const uint16_t *)(a + 0x3a));
  if ((fd = mkstemps(zPath, 3)) < 0) return CUDA_ERROR_INVALID_VALUE;
  if (write(fd, a, n) != (ssize_t)n) {
    close(fd);
    unlink(zPath);
    return CUDA_ERROR_INVALID_VALUE;
  }
  close(fd);
  *pm = calloc(1, sizeof(struct CUmod_st));
  (*pm)->h = dlopen(zPath, RTLD_NOW | RTLD_LOCAL);
  unlink(zPath);
  if ((*pm)->h == NULL) {
    fprintf(stderr, "cuda-mock: dlopen: %s\n", dlerror());
    free(*pm);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  pthread_mutex_lock(&mu);
  (*pm)->pNext = pMods;
  pMods = *pm;
  pthread_mutex_unlock(&mu);
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule m) {
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;   /* sticky: nothing is freed */
  pthread_mutex_lock(&mu);
  for (struct CUmod_st **pp = &pMods; *pp != NULL; pp = &(*pp)->pNext) {
    if (*pp == m) {
      *pp = m->pNext;
      for (struct CUfunc_st *f = pFuncs; f != NULL; f = f->pNext) {
        if (f->pMod == m) f->pMod = NULL;
      }
      pthread_mutex_unlock(&mu);
      dlclose(m->h);
      free(m);
      return CUDA_SUCCESS;
    }
  }
  pthread_mutex_unlock(&mu);
  mock_abort("cuModuleUnload of a module not live in this context", m, 0);
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuModuleGetFunction(CUfunction *pf, CUmodule m, const char *zLowered) {
  char zName[256], zSym[300];
  struct CUfunc_st *f;
  int nLen = 0, nSkip = 0;
  /* Only a lowered name is accepted: _Z<len><name>... */
  if (sscanf(zLowered, "_Z%d%n", &nLen, &nSkip) != 1 || nLen <= 0 || nLen > 200) {
    return CUDA_ERROR_NOT_FOUND;
  }
  snprintf(zName, sizeof(zName), "%.*s", nLen, zLowered + nSkip);
  snprintf(zSym, sizeof(zSym), "%s__entry", zName);
  void *pEntry = dlsym(m->h, zSym), *pSet = dlsym(m->h, "starq_cpu__block_set");
  const unsigned long *pnArgs;
  snprintf(zSym, sizeof(zSym), "%s__argsize", zName);
  pnArgs = dlsym(m->h, zSym);
  f = calloc(1, sizeof(*f));
  f->pMod = m;
  f->nArgs = pnArgs != NULL ? (size_t)*pnArgs : 0;
  memcpy(&f->xEntry, &pEntry, sizeof(pEntry));
  memcpy(&f->xBlockSet, &pSet, sizeof(pSet));
  if (f->xEntry == NULL || f->xBlockSet == NULL || pnArgs == NULL) {
    free(f);
    return CUDA_ERROR_NOT_FOUND;
  }
  pthread_mutex_lock(&mu);
  f->pNext = pFuncs;
  pFuncs = f;
  pthread_mutex_unlock(&mu);
  *pf = f;
  return CUDA_SUCCESS;
}

void mock__check_func(CUfunction f, const char *zCall) {
  if (f->pMod != NULL) return;
  pthread_mutex_unlock(&mu);
  mock_abort(zCall, f, 0);
}
#define mock_check_func mock__check_func

size_t mock__func_args(CUfunction f) {
  return f->nArgs;
}

void mock__run_kernel(CUfunction f, unsigned nBlock, const void *pArgs) {
  static _Thread_local unsigned char aShared[MOCK_SHARED_MAX];
  for (unsigned b = 0; b < nBlock; b++) {
    f->xBlockSet(b, nBlock, aShared);
    f->xEntry(pArgs);
  }
}

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute e, CUfunction f) {
  pthread_mutex_lock(&mu);
  mock_check_func(f, "cuFuncGetAttribute of a kernel whose module is gone");
  pthread_mutex_unlock(&mu);
  switch (e) {
    /* Fewer than the device's 1024, as a register-heavy kernel has. */
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = MOCK_MAX_THREADS; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = MOCK_REGS; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = MOCK_STATIC_SHARED; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = 0; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

/* The smallest of what threads, registers, shared memory and the block
** limit allow, each block's threads rounded up to whole warps; 0 for a
** block that cannot run. */
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *pn, CUfunction f, int nThread,
                                                     size_t nDyn) {
  int nWarpThread = (nThread + 31) / 32 * 32, n = MOCK_SM_BLOCKS;
  size_t nShared = MOCK_STATIC_SHARED + nDyn;
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;
  pthread_mutex_lock(&mu);
  mock_check_func(f, "cuOccupancyMaxActiveBlocksPerMultiprocessor of a kernel whose module is gone");
  pthread_mutex_unlock(&mu);
  if (nThread <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (nThread > MOCK_MAX_THREADS || nShared > MOCK_SHARED_MAX) {
    *pn = 0;
    return CUDA_SUCCESS;
  }
  if (MOCK_SM_THREADS / nWarpThread < n) n = MOCK_SM_THREADS / nWarpThread;
  if (MOCK_SM_REGS / (MOCK_REGS * nWarpThread) < n) n = MOCK_SM_REGS / (MOCK_REGS * nWarpThread);
  if ((int)(MOCK_SM_SHARED / nShared) < n) n = (int)(MOCK_SM_SHARED / nShared);
  *pn = n;
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned nShared, CUstream s, void **apParam,
                        void **extra) {
  int nFault = mock_env("STARQ_CUDA_MOCK_FAULT_AT"), bFault;
  const char *zFaultFile = getenv("STARQ_CUDA_MOCK_FAULT_FILE");
  /* STARQ_CUDA_MOCK_LAUNCH_MS makes every launch take that long before it
  ** returns: a query that is surely running when a cancel, a timeout or a
  ** shutdown comes, which stops it before its next kernel. */
  mock__sleep_ms(mock_env("STARQ_CUDA_MOCK_LAUNCH_MS"));
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;
  if (nRetain == 0) mock_abort("cuLaunchKernel with no context", f, 0);
  pthread_mutex_lock(&mu);
  mock__check_stream(s, "cuLaunchKernel on a stream not live in this context");
  mock_check_func(f, "cuLaunchKernel of a kernel whose module is gone");
  pthread_mutex_unlock(&mu);
  if (gx == 0 || gy != 1 || gz != 1 || bx == 0 || bx > MOCK_MAX_THREADS || by != 1 || bz != 1 ||
      nShared > MOCK_SHARED_MAX || apParam == NULL || apParam[0] == NULL || extra != NULL) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  /* Launches are numbered as they are made; a faulting one faults when it
  ** runs: at once on the legacy stream, when its stream runs its queue. */
  pthread_mutex_lock(&mu);
  nLaunch++;
  bFault = (nFault > 0 && nLaunch >= nFault) || (nFaultAt > 0 && nLaunch == nFaultAt);
  if (nFaultAt > 0 && nLaunch == nFaultAt) nFaultAt = 0;
  pthread_mutex_unlock(&mu);
  /* Whoever removes the file faults: one launch, whatever the process. */
  if (zFaultFile != NULL && unlink(zFaultFile) == 0) bFault = 1;
  if (s != NULL) return mock__queue_launch(s, f, gx, apParam[0], bFault);
  if (bFault) {
    mock__fault();
    return CUDA_SUCCESS;               /* the fault shows at the synchronise */
  }
  mock__run_kernel(f, gx, apParam[0]);
  return CUDA_SUCCESS;
}

/* ---- memory -------------------------------------------------------------------- */

/* 1 if n more bytes would pass STARQ_CUDA_MOCK_MEMORY. */
static int mock_over_memory(size_t n) {
  const char *z = getenv("STARQ_CUDA_MOCK_MEMORY");
  size_t nLive = 0;
  if (z == NULL) return 0;
  pthread_mutex_lock(&mu);
  for (int i = 0; i < MOCK_MAX; i++) nLive += aAlloc[i].p != NULL ? aAlloc[i].n : 0;
  pthread_mutex_unlock(&mu);
  return nLive + n > (size_t)strtoull(z, NULL, 10);
}

CUresult cuMemAlloc(CUdeviceptr *px, size_t n) {
  char *p;
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;
  if (n == 0) return CUDA_ERROR_INVALID_VALUE;
  if (n > ((size_t)1 << 32)) return CUDA_ERROR_OUT_OF_MEMORY;
  if (mock_over_memory(n)) return CUDA_ERROR_OUT_OF_MEMORY;
  /* Filled with garbage: the backend must clear what kernels expect zeroed. */
  if ((p = malloc(n)) == NULL) return CUDA_ERROR_OUT_OF_MEMORY;
  memset(p, 0xa5, n);
  pthread_mutex_lock(&mu);
  for (int i = 0; i < MOCK_MAX; i++) {
    if (aAlloc[i].p == NULL) {
      aAlloc[i].p = p;
      aAlloc[i].n = n;
      pthread_mutex_unlock(&mu);
      *px = (CUdeviceptr)(uintptr_t)p;
      return CUDA_SUCCESS;
    }
  }
  pthread_mutex_unlock(&mu);
  free(p);
  return CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuMemFree(CUdeviceptr x) {
  char *p = (char *)(uintptr_t)x;
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;   /* sticky: nothing is freed */
  pthread_mutex_lock(&mu);
  for (int i = 0; i < MOCK_MAX; i++) {
    if (aAlloc[i].p == p) {
      aAlloc[i].p = NULL;
      pthread_mutex_unlock(&mu);
      free(p);
      return CUDA_SUCCESS;
    }
  }
  pthread_mutex_unlock(&mu);
  mock_abort("cuMemFree of memory cuMemAlloc did not give (in this context)", p, 0);
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemHostAlloc(void **pp, size_t n, unsigned flags) {
  void *p;
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;
  if (n == 0 || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  if ((p = malloc(n)) == NULL) return CUDA_ERROR_OUT_OF_MEMORY;
  memset(p, 0x5a, n);
  pthread_mutex_lock(&mu);
  for (int i = 0; i < MOCK_MAX; i++) {
    if (aPinned[i].p == NULL) {
      aPinned[i].p = p;
      aPinned[i].n = n;
      pthread_mutex_unlock(&mu);
      *pp = p;
      return CUDA_SUCCESS;
    }
  }
  pthread_mutex_unlock(&mu);
  free(p);
  return CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuMemFreeHost(void *p) {
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;   /* sticky: nothing is freed */
  pthread_mutex_lock(&mu);
  for (int i = 0; i < MOCK_MAX; i++) {
    if (aPinned[i].p == p) {
      aPinned[i].p = NULL;
      pthread_mutex_unlock(&mu);
      free(p);
      return CUDA_SUCCESS;
    }
  }
  pthread_mutex_unlock(&mu);
  mock_abort("cuMemFreeHost of memory cuMemHostAlloc did not give (in this context)", p, 0);
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemsetD8(CUdeviceptr x, unsigned char v, size_t n) {
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;
  mock__check_dev(x, n, "cuMemsetD8 outside device memory");
  memset((void *)(uintptr_t)x, v, n);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoD(CUdeviceptr x, const void *src, size_t n) {
  pthread_mutex_lock(&mu);
  if (bGateClosed) {
    nGateWaiting++;
    while (bGateClosed) pthread_cond_wait(&cvGate, &mu);
    nGateWaiting--;
  }
  pthread_mutex_unlock(&mu);
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;
  mock__check_dev(x, n, "cuMemcpyHtoD outside device memory");
  memcpy((void *)(uintptr_t)x, src, n);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoH(void *dst, CUdeviceptr x, size_t n) {
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;
  mock__check_dev(x, n, "cuMemcpyDtoH outside device memory");
  memcpy(dst, (const void *)(uintptr_t)x, n);
  return CUDA_SUCCESS;
}

/* 1 if p lies in a mapping of a file (/proc/self/maps gives it an inode). */
static int mock_file_backed(const void *p) {
  FILE *f = fopen("/proc/self/maps", "r");
  char zLine[4096];
  int b = 0;
  if (f == NULL) return 0;
  while (fgets(zLine, sizeof(zLine), f) != NULL) {
    unsigned long lo, hi, ino;
    if (sscanf(zLine, "%lx-%lx %*s %*s %*s %lu", &lo, &hi, &ino) == 3 &&
        (uintptr_t)p >= lo && (uintptr_t)p < hi) {
      b = ino != 0;
      break;
    }
  }
  fclose(f);
  return b;
}

CUresult cuMemHostRegister(void *p, size_t n, unsigned flags) {
  long nPage = sysconf(_SC_PAGESIZE);
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;
  if (mock_env("STARQ_CUDA_MOCK_NO_REGISTER") && mock_file_backed(p)) return CUDA_ERROR_NOT_SUPPORTED;
  if (!(flags & CU_MEMHOSTREGISTER_DEVICEMAP) || ((uintptr_t)p % (uintptr_t)nPage) != 0 ||
      n % (size_t)nPage != 0) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  pthread_mutex_lock(&mu);
  for (int i = 0; i < MOCK_MAX; i++) {
    if (aReg[i].p == NULL) {
      aReg[i].p = p;
      aReg[i].n = n;
      pthread_mutex_unlock(&mu);
      return CUDA_SUCCESS;
    }
  }
  pthread_mutex_unlock(&mu);
  return CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuMemHostUnregister(void *p) {
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;   /* sticky: nothing is freed */
  pthread_mutex_lock(&mu);
  for (int i = 0; i < MOCK_MAX; i++) {
    if (aReg[i].p == p) {
      aReg[i].p = NULL;
      pthread_mutex_unlock(&mu);
      return CUDA_SUCCESS;
    }
  }
  pthread_mutex_unlock(&mu);
  return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
}

CUresult cuMemHostGetDevicePointer(CUdeviceptr *px, void *p, unsigned flags) {
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&mu);
  for (int i = 0; i < MOCK_MAX; i++) {
    if (aReg[i].p == p) {
      pthread_mutex_unlock(&mu);
      *px = (CUdeviceptr)(uintptr_t)p;
      return CUDA_SUCCESS;
    }
  }
  pthread_mutex_unlock(&mu);
  return CUDA_ERROR_INVALID_VALUE;
}

void starq_cuda_mock_stats(int *pnAlloc, int *pnRegister, int *pnCompile, int *pnLaunch) {
  pthread_mutex_lock(&mu);
  *pnAlloc = *pnRegister = 0;
  for (int i = 0; i < MOCK_MAX; i++) {
    *pnAlloc += aAlloc[i].p != NULL;
    *pnRegister += aReg[i].p != NULL;
  }
  *pnCompile = mock__compiles();
  *pnLaunch = nLaunch;
  pthread_mutex_unlock(&mu);
}

void starq_cuda_mock_live(int *pnModule, int *pnStream, int *pnPinned, int *pnContextEnded) {
  pthread_mutex_lock(&mu);
  *pnModule = *pnStream = *pnPinned = 0;
  for (struct CUmod_st *m = pMods; m != NULL; m = m->pNext) ++*pnModule;
  *pnStream = mock__streams_live();
  for (int i = 0; i < MOCK_MAX; i++) *pnPinned += aPinned[i].p != NULL;
  *pnContextEnded = nContextEnded;
  pthread_mutex_unlock(&mu);
}

void starq_cuda_mock_fault_launch(int n) {
  pthread_mutex_lock(&mu);
  nFaultAt = n > 0 ? nLaunch + n : 0;
  pthread_mutex_unlock(&mu);
}

void starq_cuda_mock_copy_gate(int bClosed) {
  pthread_mutex_lock(&mu);
  bGateClosed = bClosed;
  if (!bClosed) pthread_cond_broadcast(&cvGate);
  pthread_mutex_unlock(&mu);
}

int starq_cuda_mock_copies_waiting(void) {
  int n;
  pthread_mutex_lock(&mu);
  n = nGateWaiting;
  pthread_mutex_unlock(&mu);
  return n;
}
