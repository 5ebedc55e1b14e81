/*
** runtime/cuda-module.c — CUDA modules: a generated source compiled by
** NVRTC into a CUBIN (or found in a cache), loaded into the primary
** context, its kernels found by their lowered names; and launches.
**
** Finding a module, cheapest first:
**   1. memory: the device's list of loaded modules, by key (a query shape
**      seen before in this process costs a hash of its source);
**   2. disk: <key>.cubin in the cache directory (cuda-cache.c), which
**      carries the lowered kernel names too, so NVRTC is not even opened;
**   3. NVRTC: compile for the device's arch with the options below, ask
**      for each kernel's lowered name (nvrtcAddNameExpression before the
**      compile, nvrtcGetLoweredName after), store the result on disk.
** Two threads missing on the same key at once both compile; the second to
** finish finds the first's module in the list and drops its own.
**
** A compile error is a bug in codegen or the device library, and whoever
** fixes it needs the whole of NVRTC's log and the exact text compiled; a
** SQL client needs a message. So the error message carries the start of
** the log and the module's hash, and the whole log and the numbered
** source go to the log (common/log.h) at ERROR.
**
** Occupancy (cuOccupancyMaxActiveBlocksPerMultiprocessor) is asked once per
** kernel and block size and kept with the kernel: the executor sizes every
** grid by it, several times for a stride's SCAN.
**
** cuda_kernel_launch is synchronous (launch on the legacy default stream,
** then wait for that stream): a fault is reported by the launch that
** caused it. The argument block is passed as the kernel's one by-value
** struct parameter: kernelParams = {pArgs}, and the driver copies as many
** bytes as the kernel's parameter has, during cuLaunchKernel. Launches on
** a stream are cuda-stream.c's; both go through cuda__launch.
**
** INTERFACE ROUTINES
**   cuda_module_load, cuda_module_load_shim, cuda_module_info_get,
**   cuda_module_release,
**   cuda_module_kernel, cuda_kernel_max_threads, cuda_kernel_attrs_get,
**   cuda_kernel_occupancy, cuda_kernel_launch
**   cuda__module_unload, cuda__modules_forget, cuda__launch
*/
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/strbuf.h"
#include "../common/timer.h"
#include "cudaInt.h"

/* NVRTC's options besides the architecture. C++17 is the dialect the
** generated source is written in (runtime/README.md); -default-device
** makes every function a device function without __device__; the device
** library's checked arithmetic needs __int128. -minimal leaves out the
** CUDA runtime's declarations (textures, cudadevrt, driver types) that
** NVRTC otherwise parses into every program and that generated code never
** uses: NVRTC's start-up 24 -> 10 ms and about 20 ms of each compile on
** the H100 (bench/device.sh nvrtc-time; the rest of a new shape's ~300 ms
** is NVVM and ptxas, bench/RESULTS.md). */
static const char *const azNvrtcOpt[] = {"--std=c++17", "-default-device", "--device-int128",
                                         "-minimal"};
#define CUDA_NVRTC_NOPT ((int)(sizeof(azNvrtcOpt) / sizeof(azNvrtcOpt[0])))

/* Most of NVRTC's log kept in an error message; the rest is in the log. */
#define CUDA_LOG_MAX 2048

/* ---- NVRTC ----------------------------------------------------------------- */

/* Formats an NVRTC failure of zWhat. Returns -1. */
static int cuda_nvrtc_error(cuda_device *d, nvrtcResult rc, const char *zWhat, char *zErr,
                            size_t nErr) {
  const char *z = d->api.nvrtcGetErrorString(rc);
  snprintf(zErr, nErr, "%s: %s", zWhat, z ? z : "NVRTC error");
  return -1;
}

/* Returns NVRTC's log for prog (malloc'd), or NULL if there is none or it
** cannot be read. */
static char *cuda_nvrtc_log(cuda_device *d, nvrtcProgram prog) {
  size_t nLog = 0;
  char *zLog;
  if (d->api.nvrtcGetProgramLogSize(prog, &nLog) != NVRTC_SUCCESS || nLog <= 1) return NULL;
  if ((zLog = malloc(nLog + 1)) == NULL) return NULL;
  if (d->api.nvrtcGetProgramLog(prog, zLog) != NVRTC_SUCCESS) {
    free(zLog);
    return NULL;
  }
  zLog[nLog] = 0;
  return zLog;
}

/* Reports a failed nvrtcCompileProgram of module zHash: the message (the
** first CUDA_LOG_MAX bytes of the log, cut at a line end) in zErr, and
** the whole log and the numbered source to the log at ERROR. Returns -1. */
static int cuda_nvrtc_compile_error(cuda_device *d, nvrtcProgram prog, nvrtcResult rc,
                                    const char *zSource, const char *zHash, char *zErr,
                                    size_t nErr) {
  const char *zRc = d->api.nvrtcGetErrorString(rc);
  char *zLog = cuda_nvrtc_log(d, prog), zTitle[256];
  int nHead = 0, nLine = 0;
  strbuf src;
  if (zLog != NULL) {
    nHead = (int)strlen(zLog);
    if (nHead > CUDA_LOG_MAX) {
      nHead = CUDA_LOG_MAX;
      while (nHead > 0 && zLog[nHead - 1] != '\n') nHead--;
      if (nHead == 0) nHead = CUDA_LOG_MAX;
    }
  }
  snprintf(zErr, nErr, "NVRTC could not compile the query's kernels: %s (source written to the "
           "log, module %s)%s%.*s%s", zRc ? zRc : "NVRTC error", zHash, zLog ? ":\n" : "", nHead,
           zLog ? zLog : "", zLog && zLog[nHead] != 0 ? "\n... (the rest is in the log)" : "");
  if (log_level_enabled(LOG_LEVEL_ERROR)) {
    snprintf(zTitle, sizeof(zTitle), "cuda: NVRTC could not compile module %s for %s: %s; its log:",
             zHash, d->info.zArch, zRc ? zRc : "NVRTC error");
    log_text(LOG_LEVEL_ERROR, zTitle, zLog ? zLog : "(NVRTC gave no log)");
    /* Numbered as NVRTC counts: "query.cu(12): error" is line 12. */
    strbuf_init(&src);
    for (const char *z = zSource; *z != 0;) {
      const char *zEnd = strchr(z, '\n');
      int n = zEnd ? (int)(zEnd - z) : (int)strlen(z);
      strbuf_printf(&src, "%5d  %.*s\n", ++nLine, n, z);
      z += n + (zEnd != NULL);
    }
    snprintf(zTitle, sizeof(zTitle), "cuda: the source of module %s (%d lines):", zHash, nLine);
    log_text(LOG_LEVEL_ERROR, zTitle,
             strbuf_error(&src) ? "(out of memory numbering the source)" : strbuf_str(&src));
    strbuf_free(&src);
  }
  free(zLog);
  return -1;
}

/* Takes the compiled image (CUBIN, or PTX with its NUL) out of prog. */
static int cuda_nvrtc_image(cuda_device *d, nvrtcProgram prog, cuda_image *p, char *zErr,
                            size_t nErr) {
  int bPtx = strncmp(d->info.zArch, "compute_", 8) == 0 || d->api.nvrtcGetCUBIN == NULL;
  nvrtcResult rc;
  size_t n = 0;
  rc = bPtx ? d->api.nvrtcGetPTXSize(prog, &n) : d->api.nvrtcGetCUBINSize(prog, &n);
  if (rc != NVRTC_SUCCESS) return cuda_nvrtc_error(d, rc, "nvrtcGetCUBINSize", zErr, nErr);
  if (n == 0 || (p->pImage = malloc(n)) == NULL) {
    snprintf(zErr, nErr, "NVRTC produced no image (%zu bytes) or no memory for it", n);
    return -1;
  }
  rc = bPtx ? d->api.nvrtcGetPTX(prog, (char *)p->pImage)
            : d->api.nvrtcGetCUBIN(prog, (char *)p->pImage);
  if (rc != NVRTC_SUCCESS) return cuda_nvrtc_error(d, rc, "nvrtcGetCUBIN", zErr, nErr);
  p->nImage = n;
  return 0;
}

/* Compiles zSource, module zHash, into *p (image and lowered names).
** Returns 0, or -1 with the reason in zErr (for a compile error, see
** cuda_nvrtc_compile_error). */
static int cuda_nvrtc_compile(cuda_device *d, const char *zSource, const char *zHash, int nKernel,
                              const char *const *azKernel, const char *const *azOpt, int nOpt,
                              cuda_image *p, char *zErr, size_t nErr) {
  nvrtcProgram prog = NULL;
  nvrtcResult rc;
  int ret = -1;
  memset(p, 0, sizeof(*p));
  rc = d->api.nvrtcCreateProgram(&prog, zSource, "query.cu", 0, NULL, NULL);
  if (rc != NVRTC_SUCCESS) return cuda_nvrtc_error(d, rc, "nvrtcCreateProgram", zErr, nErr);
  for (int i = 0; i < nKernel; i++) {
    if ((rc = d->api.nvrtcAddNameExpression(prog, azKernel[i])) != NVRTC_SUCCESS) {
      cuda_nvrtc_error(d, rc, "nvrtcAddNameExpression", zErr, nErr);
      goto out_destroy;
    }
  }
  if ((rc = d->api.nvrtcCompileProgram(prog, nOpt, azOpt)) != NVRTC_SUCCESS) {
    cuda_nvrtc_compile_error(d, prog, rc, zSource, zHash, zErr, nErr);
    goto out_destroy;
  }
  if (cuda_nvrtc_image(d, prog, p, zErr, nErr) != 0) goto out_destroy;
  if ((p->azLowered = calloc((size_t)nKernel + 1, sizeof(char *))) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    goto out_destroy;
  }
  p->nKernel = nKernel;
  for (int i = 0; i < nKernel; i++) {
    const char *zLow = NULL;
    rc = d->api.nvrtcGetLoweredName(prog, azKernel[i], &zLow);
    if (rc != NVRTC_SUCCESS || zLow == NULL) {
      snprintf(zErr, nErr, "no kernel %s in the compiled module (nvrtcGetLoweredName: %s)",
               azKernel[i], d->api.nvrtcGetErrorString(rc));
      goto out_destroy;
    }
    /* The lowered name belongs to prog: copied before it is destroyed. */
    if ((p->azLowered[i] = strdup(zLow)) == NULL) {
      snprintf(zErr, nErr, "out of memory");
      goto out_destroy;
    }
  }
  ret = 0;
out_destroy:
  d->api.nvrtcDestroyProgram(&prog);
  if (ret != 0) cuda__image_free(p);
  return ret;
}

/* ---- loading ------------------------------------------------------------- */

/* Reads the attributes of k's compiled function into k->attrs. Returns 0,
** or -1 with zErr. */
static int cuda_kernel_attrs_read(cuda_device *d, cuda_kernel *k, char *zErr, size_t nErr) {
  static const struct {
    CUfunction_attribute e;
    const char *zName;
    size_t iOff;
  } aAttr[] = {
    {CU_FUNC_ATTRIBUTE_NUM_REGS, "NUM_REGS", offsetof(cuda_kernel_attrs, nReg)},
    {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "SHARED_SIZE_BYTES",
     offsetof(cuda_kernel_attrs, nSharedStatic)},
    {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, "LOCAL_SIZE_BYTES", offsetof(cuda_kernel_attrs, nLocal)},
    {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "MAX_THREADS_PER_BLOCK",
     offsetof(cuda_kernel_attrs, nMaxThread)},
  };
  for (size_t i = 0; i < sizeof(aAttr) / sizeof(aAttr[0]); i++) {
    int v = 0;
    CUresult rc = d->api.cuFuncGetAttribute(&v, aAttr[i].e, k->hFunc);
    if (rc != CUDA_SUCCESS) {
      char zWhat[128];
      snprintf(zWhat, sizeof(zWhat), "cuFuncGetAttribute(%s, %s)", k->zName, aAttr[i].zName);
      return cuda__error(d, rc, zWhat, zErr, nErr);
    }
    memcpy((char *)&k->attrs + aAttr[i].iOff, &v, sizeof(v));
  }
  return 0;
}

/* Loads image p into the context as a new module m (kernels azKernel).
** Returns 0, or -1 with zErr. */
static int cuda_module_make(cuda_device *d, const cuda_image *p, int nKernel,
                            const char *const *azKernel, cuda_module **pp, char *zErr,
                            size_t nErr) {
  cuda_module *m = calloc(1, sizeof(*m));
  CUresult rc;
  *pp = NULL;
  if (m == NULL || (m->aKernel = calloc((size_t)nKernel + 1, sizeof(cuda_kernel))) == NULL) {
    free(m);
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  m->pDevice = d;
  m->nKernel = nKernel;
  if ((rc = d->api.cuModuleLoadData(&m->hMod, p->pImage)) != CUDA_SUCCESS) {
    cuda__error(d, rc, "cuModuleLoadData", zErr, nErr);
    m->hMod = NULL;
    goto out_free;
  }
  for (int i = 0; i < nKernel; i++) {
    cuda_kernel *k = &m->aKernel[i];
    snprintf(k->zName, sizeof(k->zName), "%s", azKernel[i]);
    if ((k->zLowered = strdup(p->azLowered[i])) == NULL) {
      snprintf(zErr, nErr, "out of memory");
      goto out_free;
    }
    if ((rc = d->api.cuModuleGetFunction(&k->hFunc, m->hMod, k->zLowered)) != CUDA_SUCCESS) {
      char zWhat[160];
      snprintf(zWhat, sizeof(zWhat), "cuModuleGetFunction(%s = %.100s)", k->zName, k->zLowered);
      cuda__error(d, rc, zWhat, zErr, nErr);
      goto out_free;
    }
    if (cuda_kernel_attrs_read(d, k, zErr, nErr) != 0) goto out_free;
  }
  m->info.nImage = p->nImage;
  *pp = m;
  return 0;
out_free:
  cuda__module_unload(m);
  return -1;
}

/* Frees the host side of m: its kernels and itself. */
static void cuda_module_free(cuda_module *m) {
  for (int i = 0; m->aKernel != NULL && i < m->nKernel; i++) free(m->aKernel[i].zLowered);
  free(m->aKernel);
  free(m);
}

void cuda__module_unload(cuda_module *m) {
  if (m->hMod != NULL) (void)m->pDevice->api.cuModuleUnload(m->hMod);
  cuda_module_free(m);
}

int cuda__modules_forget(cuda_device *d) {
  int n = 0;
  cuda_module *m, *mNext;
  pthread_mutex_lock(&d->mu);
  for (m = d->pModule; m != NULL; m = mNext) {
    mNext = m->pNext;
    /* A reference would be a pointer into freed memory from here on: the
    ** protocol (cuda.h) has every query release its modules first. */
    assert(m->nRef == 0);
    cuda_module_free(m);
    n++;
  }
  d->pModule = NULL;
  d->nModule = 0;
  pthread_mutex_unlock(&d->mu);
  return n;
}

/* Returns the loaded module of key with a new reference, or NULL. Called
** with the device's mu held. */
static cuda_module *cuda_module_find(cuda_device *d, hash128 key) {
  for (cuda_module *m = d->pModule; m != NULL; m = m->pNext) {
    if (m->key.h1 == key.h1 && m->key.h2 == key.h2) {
      m->nRef++;
      m->iUsed = ++d->iClock;
      return m;
    }
  }
  return NULL;
}

/* Unloads the least recently used unreferenced module while the list is
** over CUDA_MODULES_MAX. Called with the device's mu held. */
static void cuda_module_evict(cuda_device *d) {
  while (d->nModule > CUDA_MODULES_MAX) {
    cuda_module **ppOld = NULL;
    for (cuda_module **pp = &d->pModule; *pp != NULL; pp = &(*pp)->pNext) {
      if ((*pp)->nRef == 0 && (ppOld == NULL || (*pp)->iUsed < (*ppOld)->iUsed)) ppOld = pp;
    }
    if (ppOld == NULL) return;               /* all in use: over the limit for now */
    cuda_module *m = *ppOld;
    *ppOld = m->pNext;
    d->nModule--;
    cuda__module_unload(m);
  }
}

int cuda_module_load(cuda_device *d, const char *zSource, int nKernel, const char *const *azKernel,
                     cuda_module **pp, cuda_source *peSource, char *zErr, size_t nErr) {
  const char *azOpt[CUDA_NVRTC_NOPT + 1];
  char zArchOpt[64], zWhy[64] = "", zHex[33];
  cuda_image img;
  cuda_module *m, *mOther;
  double t0 = timer_now(), rCompile = 0;
  cuda_source eSource = CUDA_SOURCE_DISK;
  hash128 key;
  int rc;

  *pp = NULL;
  if (nKernel <= 0) {
    snprintf(zErr, nErr, "a module needs at least one kernel");
    return -1;
  }
  snprintf(zArchOpt, sizeof(zArchOpt), "--gpu-architecture=%s", d->info.zArch);
  azOpt[0] = zArchOpt;
  for (int i = 0; i < CUDA_NVRTC_NOPT; i++) azOpt[i + 1] = azNvrtcOpt[i];
  key = cuda__module_key(d, zSource, nKernel, azKernel, azOpt, CUDA_NVRTC_NOPT + 1);
  hash128_hex(key, zHex);

  pthread_mutex_lock(&d->mu);
  m = cuda_module_find(d, key);
  pthread_mutex_unlock(&d->mu);
  if (m != NULL) {
    if (peSource != NULL) *peSource = CUDA_SOURCE_MEMORY;
    *pp = m;
    return 0;
  }
  if (cuda__enter(d, zErr, nErr) != 0) return -1;

  rc = cuda__cache_get(d, key, nKernel, azKernel, &img, zWhy, sizeof(zWhy), zErr, nErr);
  if (rc < 0) return -1;
  if (rc > 0) {
    double t1 = timer_now();
    eSource = CUDA_SOURCE_NVRTC;
    if (cuda_nvrtc_compile(d, zSource, zHex, nKernel, azKernel, azOpt, CUDA_NVRTC_NOPT + 1, &img,
                           zErr, nErr) != 0) {
      return -1;
    }
    rCompile = timer_now() - t1;
    /* A cache that cannot be written costs the next process a compile,
    ** nothing more: its error is dropped. */
    char zPutErr[256];
    (void)cuda__cache_put(d, key, zSource, nKernel, azKernel, &img, zPutErr, sizeof(zPutErr));
  }
  rc = cuda_module_make(d, &img, nKernel, azKernel, &m, zErr, nErr);
  cuda__image_free(&img);
  if (rc != 0) return -1;
  m->key = key;
  m->info.eSource = eSource;
  m->info.rCompileSeconds = rCompile;
  m->info.rLoadSeconds = timer_now() - t0;
  snprintf(m->info.zMiss, sizeof(m->info.zMiss), "%s", zWhy);
  memcpy(m->info.zHash, zHex, sizeof(zHex));

  pthread_mutex_lock(&d->mu);
  if ((mOther = cuda_module_find(d, key)) != NULL) {
    /* Another thread loaded it meanwhile: keep one copy. */
    pthread_mutex_unlock(&d->mu);
    cuda__module_unload(m);
    m = mOther;
  } else {
    m->nRef = 1;
    m->iUsed = ++d->iClock;
    m->pNext = d->pModule;
    d->pModule = m;
    d->nModule++;
    cuda_module_evict(d);
    pthread_mutex_unlock(&d->mu);
  }
  if (peSource != NULL) *peSource = eSource;
  *pp = m;
  return 0;
}

/* The prelude every module starts with (runtime/cpu-shim.h): to NVRTC it
** defines STARQ_CPU_ENTRY as nothing; the tests' mock driver compiles the
** module for the CPU and needs the rest of it. */
extern const char runtime_cpu_shim[];

int cuda_module_load_shim(cuda_device *d, const char *zLib, const char *zSource, int nKernel,
                          const char *const *azKernel, cuda_module **pp, cuda_source *peSource,
                          char *zErr, size_t nErr) {
  strbuf src;
  int rc;
  strbuf_init(&src);
  strbuf_printf(&src, "%s\n", runtime_cpu_shim);
  if (zLib != NULL) strbuf_printf(&src, "%s\n", zLib);
  strbuf_printf(&src, "%s", zSource);
  if (strbuf_error(&src)) {
    snprintf(zErr, nErr, "out of memory");
    rc = -1;
  } else {
    rc = cuda_module_load(d, strbuf_str(&src), nKernel, azKernel, pp, peSource, zErr, nErr);
  }
  strbuf_free(&src);
  return rc;
}

const cuda_module_info *cuda_module_info_get(const cuda_module *p) {
  return &p->info;
}

void cuda_module_release(cuda_module *p) {
  cuda_device *d;
  if (p == NULL) return;
  d = p->pDevice;
  pthread_mutex_lock(&d->mu);
  p->nRef--;
  cuda_module_evict(d);
  pthread_mutex_unlock(&d->mu);
}

int cuda_module_kernel(cuda_module *p, const char *zName, cuda_kernel **pp, char *zErr,
                       size_t nErr) {
  for (int i = 0; i < p->nKernel; i++) {
    if (strcmp(p->aKernel[i].zName, zName) == 0) {
      *pp = &p->aKernel[i];
      return 0;
    }
  }
  *pp = NULL;
  snprintf(zErr, nErr, "no kernel %.100s in module %s", zName, p->info.zHash);
  return -1;
}

int cuda_kernel_max_threads(const cuda_kernel *k) {
  return k->attrs.nMaxThread;
}

void cuda_kernel_attrs_get(const cuda_kernel *k, cuda_kernel_attrs *p) {
  *p = k->attrs;
}

int cuda_kernel_occupancy(cuda_device *d, const cuda_kernel *k, unsigned nThread,
                          unsigned nDynShared, int *pnBlockPerSm, char *zErr, size_t nErr) {
  /* The one mutable part of a loaded kernel: its answers depend only on
  ** the compiled function and the device, so they hold for the module's
  ** life, and the executor asks before every launch. */
  _Atomic int *pSlot = NULL;
  CUresult rc;
  int n = 0;
  char zWhat[160];
  *pnBlockPerSm = 0;
  if (nThread == 0 || nThread > (unsigned)INT32_MAX) {
    snprintf(zErr, nErr, "kernel %s: occupancy of blocks of %u threads", k->zName, nThread);
    return -1;
  }
  if (nDynShared == 0 && nThread % 32 == 0 && nThread / 32 < CUDA_OCCUPANCY_SLOTS) {
    pSlot = &((cuda_kernel *)k)->aBlockPerSm[nThread / 32];
    if ((n = atomic_load_explicit(pSlot, memory_order_relaxed)) > 0) {
      *pnBlockPerSm = n - 1;
      return 0;
    }
  }
  if (cuda__enter(d, zErr, nErr) != 0) return -1;
  rc = d->api.cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, k->hFunc, (int)nThread, nDynShared);
  if (rc != CUDA_SUCCESS) {
    snprintf(zWhat, sizeof(zWhat), "cuOccupancyMaxActiveBlocksPerMultiprocessor(%s, %u threads, "
             "%u shared bytes)", k->zName, nThread, nDynShared);
    return cuda__error(d, rc, zWhat, zErr, nErr);
  }
  if (pSlot != NULL) atomic_store_explicit(pSlot, n + 1, memory_order_relaxed);
  *pnBlockPerSm = n;
  return 0;
}

/* ---- launching ----------------------------------------------------------- */

int cuda__launch(cuda_device *d, CUstream hStream, const cuda_kernel *k, unsigned nBlock,
                 unsigned nThread, unsigned nDynShared, const void *pArgs, size_t nArgs,
                 char *zErr, size_t nErr) {
  void *apParam[1];
  char zWhat[160];
  CUresult rc;
  if (nBlock == 0 || nThread == 0 || nArgs == 0) {
    snprintf(zErr, nErr, "kernel %s: an empty launch (%u blocks of %u threads, %zu argument "
             "bytes)", k->zName, nBlock, nThread, nArgs);
    return -1;
  }
  if (cuda__enter(d, zErr, nErr) != 0) return -1;
  /* One parameter, the struct by value: its address is the one entry. */
  apParam[0] = (void *)pArgs;
  rc = d->api.cuLaunchKernel(k->hFunc, nBlock, 1, 1, nThread, 1, 1, nDynShared, hStream, apParam,
                             NULL);
  if (rc != CUDA_SUCCESS) {
    snprintf(zWhat, sizeof(zWhat), "cuLaunchKernel(%s, %u blocks x %u threads)", k->zName, nBlock,
             nThread);
    return cuda__error(d, rc, zWhat, zErr, nErr);
  }
  return 0;
}

int cuda_kernel_launch(cuda_device *d, const cuda_kernel *k, unsigned nBlock, unsigned nThread,
                       unsigned nDynShared, const void *pArgs, size_t nArgs, char *zErr,
                       size_t nErr) {
  char zWhat[160];
  CUresult rc;
  if (cuda__launch(d, NULL, k, nBlock, nThread, nDynShared, pArgs, nArgs, zErr, nErr) != 0) {
    return -1;
  }
  /* The legacy stream only, not cuCtxSynchronize: other queries' streams
  ** need not finish for this kernel to be done. */
  if ((rc = d->api.cuStreamSynchronize(NULL)) != CUDA_SUCCESS) {
    snprintf(zWhat, sizeof(zWhat), "kernel %s (%u blocks x %u threads) failed", k->zName, nBlock,
             nThread);
    return cuda__error(d, rc, zWhat, zErr, nErr);
  }
  return 0;
}
