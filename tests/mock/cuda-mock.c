/*
** tests/mock/cuda-mock.c — a stand-in for libcuda.so.1 and libnvrtc in one
** shared library, so that CI, which has no GPU, runs the CUDA backend's
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
** cuLaunchKernel runs every block in turn on the calling thread. Device
** memory is host memory, but every buffer is tracked: a copy, memset or
** free outside a live allocation aborts the test, so an executor that
** hands a host pointer to a device call is caught. Lowered names are
** mangled like the real ones (_Z<len><name>...), and cuModuleGetFunction
** accepts only those, so plain names cannot slip through.
**
** Failure injection, read from the environment at each call:
**   STARQ_CUDA_MOCK_MEMORY=N        device memory is N bytes: cuMemAlloc
**                                   past it is CUDA_ERROR_OUT_OF_MEMORY
**   STARQ_CUDA_MOCK_NO_REGISTER=1   cuMemHostRegister of file-backed pages
**                                   fails, as some file systems make it
**   STARQ_CUDA_MOCK_FAULT_AT=N      the Nth launch (from 1) ends in
**                                   CUDA_ERROR_ILLEGAL_ADDRESS, and every
**                                   later call fails as on a lost context
**
** starq_cuda_mock_stats() (looked up by tests with dlsym) reports live
** allocations, live registrations, compiles and launches.
*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The versioned symbols, as cuda.h maps them. */
#define cuDeviceTotalMem cuDeviceTotalMem_v2
#define cuDevicePrimaryCtxRelease cuDevicePrimaryCtxRelease_v2
#define cuMemGetInfo cuMemGetInfo_v2
#define cuMemAlloc cuMemAlloc_v2
#define cuMemFree cuMemFree_v2
#define cuMemsetD8 cuMemsetD8_v2
#define cuMemcpyHtoD cuMemcpyHtoD_v2
#define cuMemcpyDtoH cuMemcpyDtoH_v2
#define cuMemHostRegister cuMemHostRegister_v2
#define cuMemHostGetDevicePointer cuMemHostGetDevicePointer_v2
#include "../../runtime/cuda-api.h"

#define MOCK_PROTO(ret, name, sym, params, req) ret name params;
CUDA_API_DRIVER_FUNCTIONS(MOCK_PROTO)
CUDA_API_NVRTC_FUNCTIONS(MOCK_PROTO)
void starq_cuda_mock_stats(int *pnAlloc, int *pnRegister, int *pnCompile, int *pnLaunch);

#define MOCK_MAX 4096
#define MOCK_SHARED_MAX (64 << 10)

typedef void (*mock_entry_fn)(const void *pArgs);
typedef void (*mock_block_set_fn)(unsigned iBlock, unsigned nBlock, void *pDynShared);

struct CUmod_st {
  void *h;
};
struct CUfunc_st {
  mock_entry_fn xEntry;
  mock_block_set_fn xBlockSet;
  struct CUfunc_st *pNext;
};
struct _nvrtcProgram {
  char *zSrc;
  int nName;
  char *azName[64];
  char *azLowered[64];
  char *zLog;
  unsigned char *pImage;
  size_t nImage;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct { char *p; size_t n; } aAlloc[MOCK_MAX];
static struct { char *p; size_t n; } aReg[MOCK_MAX];
static int nCompile, nLaunch, bLost, nRetain;
static struct CUfunc_st *pFuncs;       /* freed never: a test process is short */
static struct CUctx_st *pCtx = (struct CUctx_st *)&mu;   /* any non-NULL handle */

/* Aborts the test: the backend broke a rule of the driver API. */
static void mock_abort(const char *zWhy, const void *p, size_t n) {
  fprintf(stderr, "cuda-mock: %s (%p, %zu bytes)\n", zWhy, p, n);
  abort();
}

/* Checks that [p, p+n) lies in one live allocation. */
static void mock_check_dev(CUdeviceptr x, size_t n, const char *zCall) {
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

/* ---- driver ------------------------------------------------------------------ */

CUresult cuInit(unsigned int Flags) { return Flags == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; }
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

CUresult cuMemGetInfo(size_t *pFree, size_t *pTotal) {
  *pFree = *pTotal = (size_t)1 << 32;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *p, CUdevice d) {
  (void)d;
  pthread_mutex_lock(&mu);
  nRetain++;
  pthread_mutex_unlock(&mu);
  *p = pCtx;
  return CUDA_SUCCESS;
}

/* The last release destroys the context, as the driver does: its memory
** and registrations go with it, and a lost context is forgotten. */
CUresult cuDevicePrimaryCtxRelease(CUdevice d) {
  (void)d;
  pthread_mutex_lock(&mu);
  if (--nRetain == 0) {
    for (int i = 0; i < MOCK_MAX; i++) {
      free(aAlloc[i].p);
      aAlloc[i].p = NULL;
      aReg[i].p = NULL;
    }
    bLost = 0;
  }
  pthread_mutex_unlock(&mu);
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext c) {
  if (c != pCtx) mock_abort("cuCtxSetCurrent of a foreign context", c, 0);
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
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule m) {
  dlclose(m->h);
  free(m);
  return CUDA_SUCCESS;
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
  f = calloc(1, sizeof(*f));
  memcpy(&f->xEntry, &pEntry, sizeof(pEntry));
  memcpy(&f->xBlockSet, &pSet, sizeof(pSet));
  if (f->xEntry == NULL || f->xBlockSet == NULL) {
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

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute e, CUfunction f) {
  (void)f;
  /* Fewer than the device's 1024, as a register-heavy kernel has. */
  *pi = e == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 768 : 0;
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned nShared, CUstream s, void **apParam,
                        void **extra) {
  static _Thread_local unsigned char aShared[MOCK_SHARED_MAX];
  int nFault = mock_env("STARQ_CUDA_MOCK_FAULT_AT");
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;
  if (nRetain == 0) mock_abort("cuLaunchKernel with no context", f, 0);
  if (gx == 0 || gy != 1 || gz != 1 || bx == 0 || bx > 768 || by != 1 || bz != 1 ||
      nShared > MOCK_SHARED_MAX || s != NULL || apParam == NULL || apParam[0] == NULL ||
      extra != NULL) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  pthread_mutex_lock(&mu);
  nLaunch++;
  if (nFault > 0 && nLaunch >= nFault) bLost = 1;
  pthread_mutex_unlock(&mu);
  if (bLost) return CUDA_SUCCESS;      /* the fault shows at the synchronise */
  for (unsigned b = 0; b < gx; b++) {
    f->xBlockSet(b, gx, aShared);
    f->xEntry(apParam[0]);
  }
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
  mock_abort("cuMemFree of memory cuMemAlloc did not give", p, 0);
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemsetD8(CUdeviceptr x, unsigned char v, size_t n) {
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;
  mock_check_dev(x, n, "cuMemsetD8 outside device memory");
  memset((void *)(uintptr_t)x, v, n);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoD(CUdeviceptr x, const void *src, size_t n) {
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;
  mock_check_dev(x, n, "cuMemcpyHtoD outside device memory");
  memcpy((void *)(uintptr_t)x, src, n);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoH(void *dst, CUdeviceptr x, size_t n) {
  if (bLost) return CUDA_ERROR_ILLEGAL_ADDRESS;
  mock_check_dev(x, n, "cuMemcpyDtoH outside device memory");
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
  *pnCompile = nCompile;
  *pnLaunch = nLaunch;
  pthread_mutex_unlock(&mu);
}

/* ---- NVRTC ------------------------------------------------------------------------ */

nvrtcResult nvrtcVersion(int *pMajor, int *pMinor) {
  *pMajor = 13;
  *pMinor = 0;
  return NVRTC_SUCCESS;
}
const char *nvrtcGetErrorString(nvrtcResult e) {
  return e == NVRTC_ERROR_COMPILATION ? "NVRTC_ERROR_COMPILATION" : "NVRTC_ERROR (mock)";
}
nvrtcResult nvrtcGetNumSupportedArchs(int *n) { *n = 3; return NVRTC_SUCCESS; }
nvrtcResult nvrtcGetSupportedArchs(int *a) {
  a[0] = 80;
  a[1] = 89;
  a[2] = 90;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcCreateProgram(nvrtcProgram *pp, const char *zSrc, const char *zName, int nHeader,
                               const char *const *azHeader, const char *const *azInclude) {
  (void)zName, (void)azHeader, (void)azInclude;
  if (nHeader != 0) return NVRTC_ERROR_INVALID_INPUT;
  *pp = calloc(1, sizeof(**pp));
  (*pp)->zSrc = strdup(zSrc);
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcDestroyProgram(nvrtcProgram *pp) {
  nvrtcProgram p = *pp;
  for (int i = 0; i < p->nName; i++) {
    free(p->azName[i]);
    free(p->azLowered[i]);
  }
  free(p->zSrc);
  free(p->zLog);
  free(p->pImage);
  free(p);
  *pp = NULL;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcAddNameExpression(nvrtcProgram p, const char *const z) {
  if (p->pImage != NULL) return NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
  if (p->nName == 64) return NVRTC_ERROR_OUT_OF_MEMORY;
  p->azName[p->nName++] = strdup(z);
  return NVRTC_SUCCESS;
}

/* Reads a whole file into *pp. Returns its size, or -1. */
static long mock_slurp(const char *zPath, unsigned char **pp) {
  FILE *f = fopen(zPath, "rb");
  long n;
  if (f == NULL) return -1;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  *pp = malloc((size_t)n + 1);
  if (fread(*pp, 1, (size_t)n, f) != (size_t)n) n = -1;
  (*pp)[n < 0 ? 0 : n] = 0;
  fclose(f);
  return n;
}

nvrtcResult nvrtcCompileProgram(nvrtcProgram p, int nOpt, const char *const *azOpt) {
  char zDir[] = "/tmp/starq-nvrtc-mock-XXXXXX", zCmd[1024], zPath[256];
  int bArch = 0, bInt128 = 0, rc;
  FILE *f;
  long n;
  for (int i = 0; i < nOpt; i++) {
    if (strncmp(azOpt[i], "--gpu-architecture=sm_90", 24) == 0) bArch = 1;
    if (strcmp(azOpt[i], "--device-int128") == 0) bInt128 = 1;
  }
  if (!bArch || !bInt128) return NVRTC_ERROR_INVALID_OPTION;
  if (mkdtemp(zDir) == NULL) return NVRTC_ERROR_INTERNAL_ERROR;
  snprintf(zPath, sizeof(zPath), "%s/query.c", zDir);
  if ((f = fopen(zPath, "w")) == NULL) return NVRTC_ERROR_INTERNAL_ERROR;
  fprintf(f, "#define STARQ_CPU 1\n%s", p->zSrc);
  fclose(f);
  snprintf(zCmd, sizeof(zCmd), "cc -std=c11 -O1 -fPIC -shared -fvisibility=hidden -fno-math-errno "
           "-Wl,-z,defs -o %s/query.so %s/query.c -lm >%s/log 2>&1", zDir, zDir, zDir);
  rc = system(zCmd);
  pthread_mutex_lock(&mu);
  nCompile++;
  pthread_mutex_unlock(&mu);
  snprintf(zPath, sizeof(zPath), "%s/log", zDir);
  mock_slurp(zPath, (unsigned char **)&p->zLog);
  unlink(zPath);
  snprintf(zPath, sizeof(zPath), "%s/query.so", zDir);
  n = rc == 0 ? mock_slurp(zPath, &p->pImage) : -1;
  unlink(zPath);
  snprintf(zPath, sizeof(zPath), "%s/query.c", zDir);
  unlink(zPath);
  rmdir(zDir);
  if (n <= 0) return NVRTC_ERROR_COMPILATION;
  p->nImage = (size_t)n;
  for (int i = 0; i < p->nName; i++) {
    char z[300];
    snprintf(z, sizeof(z), "_Z%zu%s6q_args", strlen(p->azName[i]), p->azName[i]);
    p->azLowered[i] = strdup(z);
  }
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram p, size_t *pn) {
  *pn = p->zLog != NULL ? strlen(p->zLog) + 1 : 1;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetProgramLog(nvrtcProgram p, char *z) {
  strcpy(z, p->zLog != NULL ? p->zLog : "");
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetCUBINSize(nvrtcProgram p, size_t *pn) {
  if (p->pImage == NULL) return NVRTC_ERROR_INVALID_PROGRAM;
  *pn = p->nImage;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetCUBIN(nvrtcProgram p, char *z) {
  if (p->pImage == NULL) return NVRTC_ERROR_INVALID_PROGRAM;
  memcpy(z, p->pImage, p->nImage);
  return NVRTC_SUCCESS;
}

/* PTX is never asked for of an sm_90 device. */
nvrtcResult nvrtcGetPTXSize(nvrtcProgram p, size_t *pn) {
  (void)p, (void)pn;
  return NVRTC_ERROR_INVALID_PROGRAM;
}

nvrtcResult nvrtcGetPTX(nvrtcProgram p, char *z) {
  (void)p, (void)z;
  return NVRTC_ERROR_INVALID_PROGRAM;
}

nvrtcResult nvrtcGetLoweredName(nvrtcProgram p, const char *const zExpr, const char **pz) {
  if (p->pImage == NULL) return NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
  for (int i = 0; i < p->nName; i++) {
    if (strcmp(p->azName[i], zExpr) == 0) {
      *pz = p->azLowered[i];
      return NVRTC_SUCCESS;
    }
  }
  return NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
}
