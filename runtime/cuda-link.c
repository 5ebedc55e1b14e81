/*
** runtime/cuda-link.c — the linked fast tier: the device library
** (codegen/device.cuh) compiled once per device as relocatable code, and
** each fast-tier program linked with it by the driver's linker.
**
** Why: at --Ofast-compile=max NVRTC inlines nothing, so a fast-tier SCAN
** program was two thirds library: ptxas spent ~50 ms on 2,869 PTX lines
** of which the kernel was ~1,000 (bench/RESULTS.md). Compiled -rdc=true
** against the library's declarations (-DSQ_LIB_MODE=1), a program holds
** its kernel alone; the bodies (-DSQ_LIB_MODE=2) are compiled once here
** and cuLinkCreate / cuLinkAddData / cuLinkComplete join the two in well
** under a millisecond. The optimized tier stays one whole program, every
** helper inlined: it is what runs for long.
**
** The library is made on a thread of its own started at device open
** (cuda__link_prepare; a fast compile starts it too if that failed), so
** that a server has it before its first new query shape; the programs of
** a fast compile need it only at their link, where they wait for it under
** d->muLib. Its image stays in memory until the device closes, and
** goes to the disk cache beside the modules (cuda-cache.c, a module of no
** kernels under a key of its text and options): its compile is ~200 ms of
** CPU here, more than a whole fast-tier SCAN, so a process that finds it
** there reads it in a millisecond instead — and then compiles an empty
** program (cuda__compile_warm), so that NVRTC's own start-up is paid here
** too, not by the first new shape. A library that does not
** compile turns linking off for the device (logged): the fast tier then
** compiles whole, as with $STARQ_NVRTC_LINK=0.
**
** A device that only compiles (cuda_options.zCompileOnly) has no driver,
** hence no linker: its fast programs stay relocatable, which is what
** bench/query --compile-only times.
**
** INTERFACE ROUTINES (cudaInt.h)
**   cuda__link_prepare   the library's thread started
**   cuda__link_library   the library, waited for
**   cuda__link_program   a relocatable program linked into a loadable one
**   cuda__link_stop      the thread joined, the library freed
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../codegen/codegen.h"
#include "../common/log.h"
#include "../common/strbuf.h"
#include "../common/timer.h"
#include "cudaInt.h"

/* The prelude every module starts with (cuda-module.c). */
extern const char runtime_cpu_shim[];

/* Takes the library's image from the disk cache (key) into d->lib.
** Returns 1 when it was there, else 0 (a miss or damage: compiled). */
static int cuda_link_library_cached(cuda_device *d, hash128 key) {
  char zWhy[64], zErr[256];
  cuda_image img;
  if (cuda__cache_get(d, key, 0, NULL, &img, zWhy, sizeof(zWhy), zErr, sizeof(zErr)) != 0) {
    return 0;
  }
  d->lib = img.aProg[0];
  img.aProg[0].p = NULL;
  cuda__image_free(&img);
  return 1;
}

/* Stores d->lib on disk under key; a cache that cannot be written costs
** the next process the compile, nothing more. */
static void cuda_link_library_store(cuda_device *d, hash128 key, const char *zSource) {
  char zErr[256];
  cuda_image img;
  memset(&img, 0, sizeof(img));
  img.nProg = 1;
  img.aProg = &d->lib;
  if (cuda__cache_put(d, key, zSource, 0, NULL, &img, zErr, sizeof(zErr)) != 0) {
    log_printf(LOG_LEVEL_DEBUG, "cuda: device library not cached on disk: %s", zErr);
  }
}

/* Loads the library from the disk cache or compiles it (and stores it),
** into d->lib. Called with d->muLib held. */
static void cuda_link_library_build(cuda_device *d) {
  const char *azOpt[CUDA_NVRTC_NOPT];
  char zArch[64], zErr[1024];
  cuda_compile_stats st;
  strbuf src;
  hash128 key;
  int nOpt = cuda__library_options(d, zArch, sizeof(zArch), azOpt);
  double t0 = timer_now();
  memset(&st, 0, sizeof(st));
  strbuf_init(&src);
  strbuf_printf(&src, "%s\n%s", runtime_cpu_shim, codegen_device_library);
  if (strbuf_error(&src)) {
    snprintf(zErr, sizeof(zErr), "out of memory");
    d->eLib = -1;
  } else {
    key = cuda__module_key(d, strbuf_str(&src), 0, NULL, azOpt, nOpt);
    if (cuda_link_library_cached(d, key)) {
      d->eLib = 1;
      st.rWall = timer_now() - t0;
    } else if (cuda__compile_library(d, strbuf_str(&src), &d->lib, &st, zErr, sizeof(zErr)) == 0) {
      d->eLib = 1;
      cuda_link_library_store(d, key, strbuf_str(&src));
    } else {
      d->eLib = -1;
    }
  }
  strbuf_free(&src);
  if (d->eLib < 0) {
    /* The fast tier compiles whole from now on; this compile fails. */
    atomic_store(&d->bLink, 0);
    snprintf(d->zLibErr, sizeof(d->zLibErr), "the device library could not be compiled: %s",
             zErr);
    log_printf(LOG_LEVEL_ERROR, "cuda: %s; the fast tier compiles whole programs", d->zLibErr);
    return;
  }
  d->rLibSeconds = st.rWall;
  d->rLibCpu = st.rCpu;
  log_printf(LOG_LEVEL_DEBUG, "cuda: device library for linking %s in %.1f ms (%.1f ms CPU, %zu "
             "bytes)", st.rCpu > 0 ? "compiled" : "read from disk", st.rWall * 1e3,
             st.rCpu * 1e3, d->lib.n);
}

/* The library's thread: holds muLib while it makes it. A library read
** from disk compiled nothing, so NVRTC is warmed up after it, outside
** muLib: a first link need not wait for that. */
static void *cuda_link_thread(void *pArg) {
  cuda_device *d = pArg;
  int bWarm;
  double r;
  pthread_mutex_lock(&d->muLib);
  if (d->eLib == 0) cuda_link_library_build(d);
  bWarm = d->eLib > 0 && d->rLibCpu == 0;
  pthread_mutex_unlock(&d->muLib);
  if (bWarm && (r = cuda__compile_warm(d)) >= 0) {
    log_printf(LOG_LEVEL_DEBUG, "cuda: NVRTC warmed up in %.1f ms", r * 1e3);
  }
  pthread_mutex_lock(&d->mu);
  d->bLibBusy = 0;
  pthread_cond_broadcast(&d->cvTier);
  pthread_mutex_unlock(&d->mu);
  return NULL;
}

void cuda__link_prepare(cuda_device *d) {
  if (!atomic_load(&d->bLink) || atomic_exchange(&d->bLibStarted, 1)) return;
  /* Without a thread the first link makes it (cuda__link_library). */
  pthread_mutex_lock(&d->mu);
  d->bLibBusy = 1;
  pthread_mutex_unlock(&d->mu);
  d->bLibThread = pthread_create(&d->hLib, NULL, cuda_link_thread, d) == 0;
  if (!d->bLibThread) {
    pthread_mutex_lock(&d->mu);
    d->bLibBusy = 0;
    pthread_mutex_unlock(&d->mu);
  }
}

int cuda__link_library(cuda_device *d, char *zErr, size_t nErr) {
  int rc;
  pthread_mutex_lock(&d->muLib);
  if (d->eLib == 0) cuda_link_library_build(d);
  rc = d->eLib > 0 ? 0 : -1;
  if (rc != 0) snprintf(zErr, nErr, "%s", d->zLibErr);
  pthread_mutex_unlock(&d->muLib);
  return rc;
}

void cuda__link_stop(cuda_device *d) {
  if (d->bLibThread) pthread_join(d->hLib, NULL);
  d->bLibThread = 0;
  free(d->lib.p);
  d->lib.p = NULL;
}

/* Ends link state h and reports the failed call zWhat with the linker's
** log (zLog, may be empty). Returns -1. */
static int cuda_link_fail(cuda_device *d, CUlinkState h, CUresult rc, const char *zWhat,
                          const char *zLog, char *zErr, size_t nErr) {
  char zCall[256];
  snprintf(zCall, sizeof(zCall), "%s%s%.160s", zWhat, zLog[0] ? " (" : "", zLog);
  if (zLog[0]) strncat(zCall, ")", sizeof(zCall) - strlen(zCall) - 1);
  if (h != NULL) (void)d->api.cuLinkDestroy(h);
  cuda__error(d, rc, zCall, zErr, nErr);
  return -1;
}

int cuda__link_program(cuda_device *d, cuda_blob *pProg, char *zErr, size_t nErr) {
  char zLog[1024] = "";
  CUjit_option aOpt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *apVal[2] = {zLog, (void *)(size_t)sizeof(zLog)};
  CUjitInputType eType = cuda__image_is_ptx(d) ? CU_JIT_INPUT_PTX : CU_JIT_INPUT_CUBIN;
  CUlinkState h = NULL;
  CUresult rc;
  void *pOut = NULL;
  size_t nOut = 0;
  unsigned char *pCopy;

  if ((rc = d->api.cuLinkCreate(2, aOpt, apVal, &h)) != CUDA_SUCCESS) {
    return cuda_link_fail(d, NULL, rc, "cuLinkCreate", zLog, zErr, nErr);
  }
  /* The library's image is read-only once made; the driver copies it. */
  rc = d->api.cuLinkAddData(h, eType, d->lib.p, d->lib.n, "device-lib", 0, NULL, NULL);
  if (rc != CUDA_SUCCESS) return cuda_link_fail(d, h, rc, "cuLinkAddData (library)", zLog, zErr, nErr);
  rc = d->api.cuLinkAddData(h, eType, pProg->p, pProg->n, "query", 0, NULL, NULL);
  if (rc != CUDA_SUCCESS) return cuda_link_fail(d, h, rc, "cuLinkAddData (query)", zLog, zErr, nErr);
  if ((rc = d->api.cuLinkComplete(h, &pOut, &nOut)) != CUDA_SUCCESS) {
    return cuda_link_fail(d, h, rc, "cuLinkComplete", zLog, zErr, nErr);
  }
  /* The output belongs to the link state: copied before it goes. */
  if (nOut == 0 || (pCopy = malloc(nOut)) == NULL) {
    (void)d->api.cuLinkDestroy(h);
    snprintf(zErr, nErr, "the linker gave no image (%zu bytes) or no memory for it", nOut);
    return -1;
  }
  memcpy(pCopy, pOut, nOut);
  if ((rc = d->api.cuLinkDestroy(h)) != CUDA_SUCCESS) {
    free(pCopy);
    return cuda_link_fail(d, NULL, rc, "cuLinkDestroy", "", zErr, nErr);
  }
  free(pProg->p);
  pProg->p = pCopy;
  pProg->n = nOut;
  return 0;
}
