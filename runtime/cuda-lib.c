/*
** runtime/cuda-lib.c — the CUDA backend's device: the two libraries
** opened with dlopen, the driver initialised, device info, the primary
** context, errors, and device memory (buffers and registered host pages).
** Modules and launches are cuda-module.c's.
**
** Why dlopen (DESIGN decision 3): a binary linked against libcuda.so.1
** does not start on a machine without the driver. Opening it at run time
** lets the same binary fall back to the CPU backend there, with a message
** that says what is missing. NVRTC ships with the toolkit, not the driver,
** and its soname carries the major version, so several names are tried.
** NVRTC itself dlopens libnvrtc-builtins at its first compile: that one
** must be on the loader's path (LD_LIBRARY_PATH or ld.so.conf), which is
** where the toolkit's installer puts it.
**
** Contexts: the primary context of the device, shared with any other
** driver-API or runtime-API user in the process, as the CUDA runtime does.
** Each entry point makes it current on the calling thread (cuda__enter),
** so any thread may call. A kernel fault (illegal address, trap, launch
** failure) leaves the context unusable for the rest of its life;
** cuda__error marks the device lost (and logs the fault once) so that
** later calls fail at once with a message that says so rather than a
** string of follow-ups. cuda-recover.c rebuilds it.
**
** INTERFACE ROUTINES
**   cuda_device_open, cuda_device_close, cuda_device_info_get, cuda_device_lost
**   cuda_mem_alloc, cuda_mem_free, cuda_mem_zero, cuda_mem_write, cuda_mem_read,
**   cuda_mem_info
**   cuda_host_register, cuda_host_unregister, cuda_host_alloc, cuda_host_free
**   cuda__error, cuda__enter, cuda__context_retain
*/
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/fsdir.h"
#include "../common/log.h"
#include "cudaInt.h"
#include "objcache.h"

/* NVRTC's names, newest first; then the same names in these folders. */
static const char *const azNvrtcName[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
                                          "libnvrtc.so.11.2", NULL};

/* ---- errors ------------------------------------------------------------------ */

/* Returns 1 for the errors after which the context cannot be used again. */
static int cuda_error_fatal(CUresult rc) {
  switch (rc) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
      return 1;
    default:
      return 0;
  }
}

int cuda__error(cuda_device *d, CUresult rc, const char *zWhat, char *zErr, size_t nErr) {
  const char *zName = NULL, *zDesc = NULL;
  if (d->api.cuGetErrorName == NULL || d->api.cuGetErrorName(rc, &zName) != CUDA_SUCCESS) {
    zName = NULL;
  }
  if (d->api.cuGetErrorString == NULL || d->api.cuGetErrorString(rc, &zDesc) != CUDA_SUCCESS) {
    zDesc = NULL;
  }
  if (cuda_error_fatal(rc)) {
    int bWasLost;
    unsigned iEpoch;
    pthread_mutex_lock(&d->mu);
    bWasLost = d->bLost;
    iEpoch = d->iEpoch;
    d->bLost = 1;
    pthread_mutex_unlock(&d->mu);
    snprintf(zErr, nErr, "%s: %s (%s); the CUDA context is lost until the device is recovered",
             zWhat, zName ? zName : "CUDA error", zDesc ? zDesc : "no description");
    /* Once per context: the calls that fail after it say only "lost". */
    if (!bWasLost) {
      log_printf(LOG_LEVEL_ERROR, "cuda: device %s lost its context (epoch %u): %s: %s (%s)",
                 d->info.zName, iEpoch, zWhat, zName ? zName : "CUDA error",
                 zDesc ? zDesc : "no description");
    }
  } else {
    snprintf(zErr, nErr, "%s: %s (%s, %d)", zWhat, zName ? zName : "CUDA error",
             zDesc ? zDesc : "no description", (int)rc);
  }
  return rc == CUDA_ERROR_OUT_OF_MEMORY ? CUDA_ENOMEM : -1;
}

int cuda__enter(cuda_device *d, char *zErr, size_t nErr) {
  int bLost;
  CUcontext ctx;
  CUresult rc;
  /* ctx too: a rebuild replaces it (under the exclusive hold, so a caller
  ** inside a hold never sees it change; this keeps one outside from
  ** reading it half-written). */
  pthread_mutex_lock(&d->mu);
  bLost = d->bLost;
  ctx = d->ctx;
  pthread_mutex_unlock(&d->mu);
  if (bLost) {
    snprintf(zErr, nErr, "the CUDA context was lost to an earlier kernel fault; the device must "
             "be recovered");
    return -1;
  }
  if (d->bCompileOnly) {
    snprintf(zErr, nErr, "a device opened to compile only (no driver) runs nothing");
    return -1;
  }
  if ((rc = d->api.cuCtxSetCurrent(ctx)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuCtxSetCurrent", zErr, nErr);
  }
  return 0;
}

int cuda__context_retain(cuda_device *d, char *zErr, size_t nErr) {
  CUcontext ctx = NULL;
  CUresult rc;
  if ((rc = d->api.cuDevicePrimaryCtxRetain(&ctx, d->dev)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuDevicePrimaryCtxRetain", zErr, nErr);
  }
  if ((rc = d->api.cuCtxSetCurrent(ctx)) != CUDA_SUCCESS) {
    int e = cuda__error(d, rc, "cuCtxSetCurrent", zErr, nErr);
    (void)d->api.cuDevicePrimaryCtxRelease(d->dev);
    return e;
  }
  pthread_mutex_lock(&d->mu);
  d->ctx = ctx;
  d->bRetained = 1;
  pthread_mutex_unlock(&d->mu);
  return 0;
}

int cuda_device_lost(const cuda_device *p) {
  int b;
  pthread_mutex_lock((pthread_mutex_t *)&p->mu);
  b = p->bLost;
  pthread_mutex_unlock((pthread_mutex_t *)&p->mu);
  return b;
}

/* ---- opening ----------------------------------------------------------------- */

/* dlopens zName into *ph and records the name in zPath. Returns 0, or -1
** with dlerror's text in zErr. */
static int cuda_lib_open(const char *zName, void **ph, char *zPath, size_t nPath, char *zErr,
                         size_t nErr) {
  const char *zDl;
  *ph = dlopen(zName, RTLD_NOW | RTLD_LOCAL);
  if (*ph != NULL) {
    snprintf(zPath, nPath, "%s", zName);
    return 0;
  }
  zDl = dlerror();
  snprintf(zErr, nErr, "%s", zDl ? zDl : "unknown dlopen error");
  return -1;
}

/* Opens NVRTC: the option or $STARQ_LIBNVRTC alone if given, else the
** names of azNvrtcName on the loader's path, then in the toolkit folders. */
static int cuda_nvrtc_open(cuda_device *d, const char *zOpt, char *zErr, size_t nErr) {
  const char *zEnv = getenv("STARQ_LIBNVRTC");
  const char *azDir[3];
  char zFirst[512] = "", zTry[512], zDl[512];
  int nDir = 0;
  if (zOpt == NULL && zEnv != NULL && zEnv[0] != 0) zOpt = zEnv;
  if (zOpt != NULL) {
    if (cuda_lib_open(zOpt, &d->hNvrtc, d->info.zLibNvrtc, sizeof(d->info.zLibNvrtc), zDl,
                      sizeof(zDl)) == 0) {
      return 0;
    }
    snprintf(zErr, nErr, "NVRTC could not be opened: %s", zDl);
    return -1;
  }
  azDir[nDir++] = NULL;                   /* the loader's own search path */
  if (getenv("CUDA_HOME") != NULL) azDir[nDir++] = getenv("CUDA_HOME");
  azDir[nDir++] = "/usr/local/cuda";
  for (int i = 0; i < nDir; i++) {
    for (int j = 0; azNvrtcName[j] != NULL; j++) {
      if (azDir[i] == NULL) snprintf(zTry, sizeof(zTry), "%s", azNvrtcName[j]);
      else snprintf(zTry, sizeof(zTry), "%s/lib64/%s", azDir[i], azNvrtcName[j]);
      if (cuda_lib_open(zTry, &d->hNvrtc, d->info.zLibNvrtc, sizeof(d->info.zLibNvrtc), zDl,
                        sizeof(zDl)) == 0) {
        return 0;
      }
      if (zFirst[0] == 0) snprintf(zFirst, sizeof(zFirst), "%s", zDl);
    }
  }
  snprintf(zErr, nErr, "NVRTC could not be opened (tried libnvrtc.so, .so.13, .so.12, .so.11.2 "
           "on the loader's path, $CUDA_HOME/lib64 and /usr/local/cuda/lib64; set "
           "STARQ_LIBNVRTC to its path): %s", zFirst);
  return -1;
}

/* Looks zSym up in h into the function pointer at pSlot (NULL if absent
** and not bRequired). Returns 0, or -1 naming the missing symbol. */
static int cuda_sym(void *h, const char *zLib, const char *zSym, int bRequired, void *pSlot,
                    char *zErr, size_t nErr) {
  void *pSym = dlsym(h, zSym);
  if (pSym == NULL && bRequired) {
    snprintf(zErr, nErr, "%s has no %s: the library is too old for starq", zLib, zSym);
    return -1;
  }
  /* POSIX guarantees that a dlsym result converts to a function pointer;
  ** memcpy says so without a cast C11 does not define. */
  memcpy(pSlot, &pSym, sizeof(pSym));
  return 0;
}

/* Resolves every function of both tables (of NVRTC's alone without the
** driver: a compile-only device). Returns 0, or -1 naming the first
** required symbol missing. */
static int cuda_api_resolve(cuda_device *d, char *zErr, size_t nErr) {
#define CUDA_API_RESOLVE_CUDA(ret, name, sym, params, req)                                  \
  if (cuda_sym(d->hCuda, d->info.zLibCuda, sym, req, &d->api.name, zErr, nErr) != 0) return -1;
#define CUDA_API_RESOLVE_NVRTC(ret, name, sym, params, req)                                 \
  if (cuda_sym(d->hNvrtc, d->info.zLibNvrtc, sym, req, &d->api.name, zErr, nErr) != 0) return -1;
  if (d->hCuda != NULL) {
    CUDA_API_DRIVER_FUNCTIONS(CUDA_API_RESOLVE_CUDA)
  }
  CUDA_API_NVRTC_FUNCTIONS(CUDA_API_RESOLVE_NVRTC)
  return 0;
}

/* Reads one device attribute into *pi; an attribute the driver does not
** know (older than the attribute) reads as 0. */
static void cuda_attr(cuda_device *d, CUdevice_attribute e, int *pi) {
  if (d->api.cuDeviceGetAttribute(pi, e, d->dev) != CUDA_SUCCESS) *pi = 0;
}

/* Chooses what NVRTC compiles for: the device's own sm_XY when NVRTC
** knows it, else PTX for the newest architecture NVRTC knows, which the
** driver compiles on load. Returns 0, or -1 when NVRTC is older than the
** device's oldest supported architecture allows. */
static int cuda_arch_choose(cuda_device *d, char *zErr, size_t nErr) {
  int iArch = d->info.iMajor * 10 + d->info.iMinor, n = 0, iMax = 0, iMin = 1 << 30, bKnown = 0;
  int *a;
  if (d->api.nvrtcGetNumSupportedArchs == NULL || d->api.nvrtcGetSupportedArchs == NULL ||
      d->api.nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0 || n > 1000) {
    snprintf(d->info.zArch, sizeof(d->info.zArch), "sm_%d", iArch);
    return 0;
  }
  if ((a = calloc((size_t)n, sizeof(int))) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  if (d->api.nvrtcGetSupportedArchs(a) == NVRTC_SUCCESS) {
    for (int i = 0; i < n; i++) {
      if (a[i] == iArch) bKnown = 1;
      if (a[i] > iMax) iMax = a[i];
      if (a[i] < iMin) iMin = a[i];
    }
  } else {
    bKnown = 1;
  }
  free(a);
  if (bKnown) {
    snprintf(d->info.zArch, sizeof(d->info.zArch), "sm_%d", iArch);
  } else if (iArch > iMax) {
    snprintf(d->info.zArch, sizeof(d->info.zArch), "compute_%d", iMax);
  } else {
    snprintf(zErr, nErr, "NVRTC %d.%d cannot compile for sm_%d (it knows sm_%d to sm_%d)",
             d->info.iNvrtcMajor, d->info.iNvrtcMinor, iArch, iMin, iMax);
    return -1;
  }
  return 0;
}

/* Reads what the device is into d->info. Returns 0, or -1 with zErr. */
static int cuda_info_read(cuda_device *d, char *zErr, size_t nErr) {
  cuda_device_info *p = &d->info;
  size_t nMem = 0;
  CUresult rc;
  if ((rc = d->api.cuDeviceGetName(p->zName, (int)sizeof(p->zName), d->dev)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuDeviceGetName", zErr, nErr);
  }
  if ((rc = d->api.cuDeviceTotalMem(&nMem, d->dev)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuDeviceTotalMem", zErr, nErr);
  }
  p->nGlobal = nMem;
  cuda_attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &p->iMajor);
  cuda_attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &p->iMinor);
  cuda_attr(d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &p->nSm);
  cuda_attr(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &p->nThreadPerBlock);
  cuda_attr(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, &p->nThreadPerSm);
  cuda_attr(d, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &p->nL2);
  cuda_attr(d, CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED, &p->bHostRegister);
  cuda_attr(d, CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED, &p->bReadOnlyRegister);
  if (p->iMajor <= 0 || p->nSm <= 0 || p->nThreadPerBlock <= 0) {
    snprintf(zErr, nErr, "device %s reports no compute capability or multiprocessors", p->zName);
    return -1;
  }
  return 0;
}

/* Logs at INFO what was opened: the device, the libraries, the arch. */
static void cuda_device_log(const cuda_device *d) {
  const cuda_device_info *p = &d->info;
  log_printf(LOG_LEVEL_INFO, "cuda: device %d is %s: compute capability %d.%d, %d SMs, %.1f GiB, "
             "driver %d.%d, NVRTC %d.%d compiling for %s (%s, %s)", (int)d->dev, p->zName,
             p->iMajor, p->iMinor, p->nSm, (double)p->nGlobal / (1024.0 * 1024 * 1024),
             p->iDriver / 1000, p->iDriver % 1000 / 10, p->iNvrtcMajor, p->iNvrtcMinor, p->zArch,
             p->zLibCuda, p->zLibNvrtc);
}

/* Makes d a device that only compiles, for architecture zArch: NVRTC
** opened and resolved, no driver. Returns 0, or -1 with zErr. */
static int cuda_compile_only_open(cuda_device *d, const cuda_options *pOpt, char *zErr,
                                  size_t nErr) {
  d->bCompileOnly = 1;
  snprintf(d->info.zName, sizeof(d->info.zName), "no device (compiling for %s only)",
           pOpt->zCompileOnly);
  snprintf(d->info.zArch, sizeof(d->info.zArch), "%s", pOpt->zCompileOnly);
  if (cuda_nvrtc_open(d, pOpt->zLibNvrtc, zErr, nErr) != 0) return -1;
  if (cuda_api_resolve(d, zErr, nErr) != 0) return -1;
  if (d->api.nvrtcVersion(&d->info.iNvrtcMajor, &d->info.iNvrtcMinor) != NVRTC_SUCCESS) {
    snprintf(zErr, nErr, "nvrtcVersion failed");
    return -1;
  }
  return 0;
}

int cuda_device_open(const cuda_options *pOpt, cuda_device **pp, char *zErr, size_t nErr) {
  const char *zLib = pOpt != NULL ? pOpt->zLibCuda : NULL;
  const char *zEnv = getenv("STARQ_LIBCUDA");
  int iDevice = pOpt != NULL ? pOpt->iDevice : 0, nDevice = 0;
  char zDl[512], zCacheErr[512];
  cuda_device *d;
  CUresult rc;

  *pp = NULL;
  if ((d = calloc(1, sizeof(*d))) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  if (pthread_mutex_init(&d->mu, NULL) != 0) {
    free(d);
    snprintf(zErr, nErr, "pthread_mutex_init failed");
    return -1;
  }
  if (pthread_cond_init(&d->cvHold, NULL) != 0) {
    pthread_mutex_destroy(&d->mu);
    free(d);
    snprintf(zErr, nErr, "pthread_cond_init failed");
    return -1;
  }
  if (cuda__detach_init(d) != 0) {
    pthread_cond_destroy(&d->cvHold);
    pthread_mutex_destroy(&d->mu);
    free(d);
    snprintf(zErr, nErr, "pthread_cond_init failed");
    return -1;
  }
  if (compileq_open(&d->pCompiler, zErr, nErr) != 0) {
    cuda__detach_drain(d);
    pthread_cond_destroy(&d->cvHold);
    pthread_mutex_destroy(&d->mu);
    free(d);
    return -1;
  }
  d->iEpoch = 1;
  if (pOpt != NULL && pOpt->zCompileOnly != NULL) {
    if (cuda_compile_only_open(d, pOpt, zErr, nErr) != 0) goto out_free;
    *pp = d;
    return 0;
  }
  if (zLib == NULL) zLib = zEnv != NULL && zEnv[0] != 0 ? zEnv : "libcuda.so.1";
  if (cuda_lib_open(zLib, &d->hCuda, d->info.zLibCuda, sizeof(d->info.zLibCuda), zDl,
                    sizeof(zDl)) != 0) {
    snprintf(zErr, nErr, "no CUDA driver: %s could not be opened (%s)", zLib, zDl);
    goto out_free;
  }
  if (cuda_nvrtc_open(d, pOpt != NULL ? pOpt->zLibNvrtc : NULL, zErr, nErr) != 0) goto out_free;
  if (cuda_api_resolve(d, zErr, nErr) != 0) goto out_free;
  if ((rc = d->api.cuInit(0)) != CUDA_SUCCESS) {
    cuda__error(d, rc, "cuInit", zErr, nErr);
    goto out_free;
  }
  if ((rc = d->api.cuDeviceGetCount(&nDevice)) != CUDA_SUCCESS) {
    cuda__error(d, rc, "cuDeviceGetCount", zErr, nErr);
    goto out_free;
  }
  if (iDevice < 0 || iDevice >= nDevice) {
    snprintf(zErr, nErr, "no CUDA device %d (the driver sees %d)", iDevice, nDevice);
    goto out_free;
  }
  if ((rc = d->api.cuDeviceGet(&d->dev, iDevice)) != CUDA_SUCCESS) {
    cuda__error(d, rc, "cuDeviceGet", zErr, nErr);
    goto out_free;
  }
  if ((rc = d->api.cuDriverGetVersion(&d->info.iDriver)) != CUDA_SUCCESS) {
    cuda__error(d, rc, "cuDriverGetVersion", zErr, nErr);
    goto out_free;
  }
  if (d->api.nvrtcVersion(&d->info.iNvrtcMajor, &d->info.iNvrtcMinor) != NVRTC_SUCCESS) {
    snprintf(zErr, nErr, "nvrtcVersion failed");
    goto out_free;
  }
  if (cuda_info_read(d, zErr, nErr) != 0 || cuda_arch_choose(d, zErr, nErr) != 0) goto out_free;
  if (cuda__context_retain(d, zErr, nErr) != 0) goto out_free;
  cuda_device_log(d);
  /* Without a disk cache every process compiles again, but runs. */
  if (objcache_dir(pOpt != NULL ? pOpt->zCacheDir : NULL, "cuda", d->zCacheDir,
                   sizeof(d->zCacheDir), zCacheErr, sizeof(zCacheErr)) != 0) {
    d->zCacheDir[0] = 0;
    log_printf(LOG_LEVEL_WARN, "cuda: no CUBIN cache on disk, every process compiles again: %s",
               zCacheErr);
  } else {
    log_printf(LOG_LEVEL_INFO, "cuda: CUBIN cache in %s", d->zCacheDir);
  }
  *pp = d;
  return 0;

out_free:
  /* The driver stays loaded: once cuInit has run it keeps threads and exit
  ** handlers that must not outlive its code, and unloading it buys nothing. */
  if (d->hNvrtc != NULL) dlclose(d->hNvrtc);
  compileq_close(d->pCompiler);
  cuda__detach_drain(d);                  /* none started: it only destroys */
  pthread_cond_destroy(&d->cvHold);
  pthread_mutex_destroy(&d->mu);
  free(d);
  return -1;
}

const cuda_device_info *cuda_device_info_get(const cuda_device *p) {
  return &p->info;
}

void cuda_device_close(cuda_device *p) {
  cuda_module *m, *mNext;
  if (p == NULL) return;
  /* The background compiler first: it may be installing a module. Then
  ** the compiles their statements left (cuda-detach.c): they use NVRTC. */
  compileq_close(p->pCompiler);
  cuda__detach_drain(p);
  /* A lost context still unloads (the calls fail harmlessly): the host
  ** side of each module must be freed anyway. Work still running on some
  ** stream may use a module, so it is waited for first. */
  if (p->bRetained) {
    (void)p->api.cuCtxSetCurrent(p->ctx);
    (void)p->api.cuCtxSynchronize();
  }
  for (m = p->pModule; m != NULL; m = mNext) {
    mNext = m->pNext;
    cuda__module_unload(m);
  }
  if (p->bRetained) (void)p->api.cuDevicePrimaryCtxRelease(p->dev);
  log_printf(LOG_LEVEL_DEBUG, "cuda: device %d (%s) closed at epoch %u", (int)p->dev,
             p->info.zName, p->iEpoch);
  /* The driver is never dlclosed (see cuda_device_open); NVRTC is. */
  dlclose(p->hNvrtc);
  pthread_cond_destroy(&p->cvHold);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

/* ---- memory ------------------------------------------------------------------ */

int cuda_mem_alloc(cuda_device *d, size_t n, cuda_ptr *p, char *zErr, size_t nErr) {
  CUdeviceptr x = 0;
  CUresult rc;
  char zWhat[64];
  *p = 0;
  if (cuda__enter(d, zErr, nErr) != 0) return -1;
  if ((rc = d->api.cuMemAlloc(&x, n ? n : 1)) != CUDA_SUCCESS) {
    snprintf(zWhat, sizeof(zWhat), "cuMemAlloc(%zu bytes)", n);
    return cuda__error(d, rc, zWhat, zErr, nErr);
  }
  *p = x;
  return 0;
}

void cuda_mem_free(cuda_device *d, cuda_ptr p) {
  char zErr[256];
  if (p == 0 || cuda__enter(d, zErr, sizeof(zErr)) != 0) return;
  (void)d->api.cuMemFree(p);
}

/* Waits for the legacy default stream, after zWhat was queued on it.
** Why: cuMemsetD8 returns with the memset still queued, and cuMemcpyHtoD
** from pageable memory with the DMA from its staging buffer possibly
** still running; the legacy stream orders them before later legacy work,
** but a non-blocking stream's kernels would not wait for them. Waiting
** here makes "complete when it returns" true for every stream. */
static int cuda_legacy_sync(cuda_device *d, const char *zWhat, char *zErr, size_t nErr) {
  CUresult rc = d->api.cuStreamSynchronize(NULL);
  char zCall[96];
  if (rc != CUDA_SUCCESS) {
    snprintf(zCall, sizeof(zCall), "cuStreamSynchronize after %s", zWhat);
    return cuda__error(d, rc, zCall, zErr, nErr);
  }
  return 0;
}

int cuda_mem_zero(cuda_device *d, cuda_ptr p, size_t n, char *zErr, size_t nErr) {
  CUresult rc;
  if (cuda__enter(d, zErr, nErr) != 0) return -1;
  if (n > 0 && (rc = d->api.cuMemsetD8(p, 0, n)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuMemsetD8", zErr, nErr);
  }
  return cuda_legacy_sync(d, "cuMemsetD8", zErr, nErr);
}

int cuda_mem_write(cuda_device *d, cuda_ptr dst, const void *src, size_t n, char *zErr,
                   size_t nErr) {
  CUresult rc;
  if (cuda__enter(d, zErr, nErr) != 0) return -1;
  if (n > 0 && (rc = d->api.cuMemcpyHtoD(dst, src, n)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuMemcpyHtoD", zErr, nErr);
  }
  return cuda_legacy_sync(d, "cuMemcpyHtoD", zErr, nErr);
}

int cuda_mem_read(cuda_device *d, void *dst, cuda_ptr src, size_t n, char *zErr, size_t nErr) {
  CUresult rc;
  if (cuda__enter(d, zErr, nErr) != 0) return -1;
  if (n > 0 && (rc = d->api.cuMemcpyDtoH(dst, src, n)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuMemcpyDtoH", zErr, nErr);
  }
  return 0;
}

int cuda_host_register(cuda_device *d, void *p, size_t n, cuda_ptr *pDev, char *zErr,
                       size_t nErr) {
  unsigned flags = CU_MEMHOSTREGISTER_DEVICEMAP;
  CUdeviceptr x = 0;
  CUresult rc;
  *pDev = 0;
  if (cuda__enter(d, zErr, nErr) != 0) return -1;
  if (!d->info.bHostRegister) {
    snprintf(zErr, nErr, "%s cannot register host memory", d->info.zName);
    return -1;
  }
  /* Read-only: the pages of a file mapped PROT_READ cannot be pinned for
  ** writing, and the kernels never write columns. */
  if (d->info.bReadOnlyRegister) flags |= CU_MEMHOSTREGISTER_READ_ONLY;
  if ((rc = d->api.cuMemHostRegister(p, n, flags)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuMemHostRegister", zErr, nErr);
  }
  if ((rc = d->api.cuMemHostGetDevicePointer(&x, p, 0)) != CUDA_SUCCESS) {
    int e = cuda__error(d, rc, "cuMemHostGetDevicePointer", zErr, nErr);
    (void)d->api.cuMemHostUnregister(p);
    return e;
  }
  *pDev = x;
  return 0;
}

void cuda_host_unregister(cuda_device *d, void *p) {
  char zErr[256];
  if (p == NULL || cuda__enter(d, zErr, sizeof(zErr)) != 0) return;
  (void)d->api.cuMemHostUnregister(p);
}

int cuda_mem_info(cuda_device *d, uint64_t *pnFree, uint64_t *pnTotal, char *zErr, size_t nErr) {
  size_t nFree = 0, nTotal = 0;
  CUresult rc;
  *pnFree = *pnTotal = 0;
  if (cuda__enter(d, zErr, nErr) != 0) return -1;
  if ((rc = d->api.cuMemGetInfo(&nFree, &nTotal)) != CUDA_SUCCESS) {
    return cuda__error(d, rc, "cuMemGetInfo", zErr, nErr);
  }
  *pnFree = nFree;
  *pnTotal = nTotal;
  return 0;
}

int cuda_host_alloc(cuda_device *d, size_t n, void **pp, char *zErr, size_t nErr) {
  void *p = NULL;
  CUresult rc;
  char zWhat[64];
  *pp = NULL;
  if (cuda__enter(d, zErr, nErr) != 0) return -1;
  /* Flags 0: pinned for this context only, which is all starq has. */
  if ((rc = d->api.cuMemHostAlloc(&p, n ? n : 1, 0)) != CUDA_SUCCESS) {
    snprintf(zWhat, sizeof(zWhat), "cuMemHostAlloc(%zu bytes)", n);
    return cuda__error(d, rc, zWhat, zErr, nErr);
  }
  *pp = p;
  return 0;
}

void cuda_host_free(cuda_device *d, void *p) {
  char zErr[256];
  if (p == NULL || cuda__enter(d, zErr, sizeof(zErr)) != 0) return;
  (void)d->api.cuMemFreeHost(p);
}
