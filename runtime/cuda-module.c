/*
** runtime/cuda-module.c — CUDA modules: a generated source compiled by
** NVRTC into CUBINs (or found in a cache), loaded into the primary
** context, its kernels found by their lowered names; the fast tier's
** module replaced by the optimized one; and launches.
**
** Finding a module, cheapest first:
**   1. memory: the device's list of loaded modules, by key (a query shape
**      seen before in this process costs a hash of its source; with
**      cuda_module_load_known, whose caller hashed its source once, not
**      even that: the key each source hash and options gave is remembered
**      on the device, d->aMemo);
**   2. disk: <key>.cubin in the cache directory (cuda-cache.c), which
**      carries the lowered kernel names too, so NVRTC is not even opened;
**   3. NVRTC (cuda-compile.c): compile for the device's arch, one program
**      or several in parallel (cuda_load_options.bSplit and
**      cuda_options.nProgram), ask for
**      each kernel's lowered name; store the result on disk — unless it
**      is the fast tier's (CUDA_COMPILE_TIERED): that one is loaded and
**      returned, and cuda-tier.c compiles the optimized module, stores it
**      and installs it in the list in the fast one's place.
** Two threads missing on the same key at once both compile; the second to
** finish finds the first's module in the list and drops its own (or, its
** own optimized and the listed one fast, replaces it).
**
** The key is that of the optimized module, for the fast one too: a query
** finds whichever is in the list, and the swap is one list edit. A module
** in use keeps working after its replacement: it leaves the list
** (retired) and is unloaded when its last reference is released. A
** CUDA_COMPILE_OPTIMIZED load that finds a fast module compiles the
** optimized one itself rather than run slower kernels. The exception is a
** fast module of one path (cuda_load_options.ePath: only the plain side or
** only the decode of its packed loads): it serves only runs of that path,
** so it lives under a key that names the path too, and a tiered load looks
** for it after the key of both paths; the optimized module retires it
** when it is listed.
**
** A module per path ($STARQ_PATH_MODULES=0 turns it off, to compare). A
** load through the shim whose run takes one path (every
** packed fact column resident: plain; none: packed) then compiles a text
** that starts `#define SQ_PATH n` (cuda_module_text), at every tier, so
** its optimized module holds only that side of each load, under keys of
** that text. The other side's code makes ptxas spill in the SCANs the
** planner bounds to 32 registers: without it, resident at SF 20 on the
** H100, the 13 SSB queries' kernels took 7.34 -> 6.69 ms (4-12 % each),
** and Q3.1 at SF 100 4.76 -> 4.28 ms. It once took Q3.3 at SF 100 1.50
** -> 4.52 ms: warps split by a `&&` ran every later tile twice, which
** sq_tile_converge (codegen/device.cuh) now prevents (1.34 ms).
** bench/RESULTS.md, issue 10, fifth and sixth passes. A mixed run (some
** resident, some not) always compiles both sides; a statement run
** resident, then streamed, compiles twice.
**
** A compile error is a bug in codegen or the device library, and whoever
** fixes it needs the whole of NVRTC's log and the exact text compiled; a
** SQL client needs a message. So the error message carries the start of
** the log and the module's hash, and the whole log and the numbered
** source go to the log (common/log.h) at ERROR (cuda-compile.c).
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
**   cuda_module_load, cuda_module_load_shim, cuda_module_load_known,
**   cuda_module_info_get,
**   cuda_module_release, cuda_module_compile,
**   cuda_module_kernel, cuda_kernel_max_threads, cuda_kernel_attrs_get,
**   cuda_kernel_occupancy, cuda_kernel_launch
**   cuda__module_unload, cuda__modules_forget, cuda__module_install,
**   cuda__launch
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

/* Loads image p into the context as a new module m (kernels azKernel):
** one CUmodule per program. Returns 0, or -1 with zErr. */
static int cuda_module_make(cuda_device *d, const cuda_image *p, int nKernel,
                            const char *const *azKernel, cuda_module **pp, char *zErr,
                            size_t nErr) {
  cuda_module *m = calloc(1, sizeof(*m));
  CUresult rc;
  double t0 = timer_now();
  *pp = NULL;
  if (m == NULL || (m->aKernel = calloc((size_t)nKernel + 1, sizeof(cuda_kernel))) == NULL ||
      (m->ahMod = calloc((size_t)p->nProg, sizeof(CUmodule))) == NULL) {
    if (m != NULL) free(m->aKernel);
    free(m);
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  m->pDevice = d;
  m->nKernel = nKernel;
  for (int i = 0; i < p->nProg; i++) {
    if ((rc = d->api.cuModuleLoadData(&m->ahMod[i], p->aProg[i].p)) != CUDA_SUCCESS) {
      cuda__error(d, rc, "cuModuleLoadData", zErr, nErr);
      m->ahMod[i] = NULL;
      goto out_free;
    }
    m->nProg++;
    m->info.nImage += p->aProg[i].n;
  }
  m->info.nProgram = p->nProg;
  for (int i = 0; i < nKernel; i++) {
    cuda_kernel *k = &m->aKernel[i];
    snprintf(k->zName, sizeof(k->zName), "%s", azKernel[i]);
    k->iProg = CUDA_IMAGE_PROG(p, i);
    if ((k->zLowered = strdup(p->azLowered[i])) == NULL) {
      snprintf(zErr, nErr, "out of memory");
      goto out_free;
    }
    rc = d->api.cuModuleGetFunction(&k->hFunc, m->ahMod[k->iProg], k->zLowered);
    if (rc != CUDA_SUCCESS) {
      char zWhat[160];
      snprintf(zWhat, sizeof(zWhat), "cuModuleGetFunction(%s = %.100s)", k->zName, k->zLowered);
      cuda__error(d, rc, zWhat, zErr, nErr);
      goto out_free;
    }
    if (cuda_kernel_attrs_read(d, k, zErr, nErr) != 0) goto out_free;
  }
  m->info.rModuleSeconds = timer_now() - t0;
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
  free(m->ahMod);
  free(m);
}

void cuda__module_unload(cuda_module *m) {
  for (int i = 0; i < m->nProg; i++) {
    if (m->ahMod[i] != NULL) (void)m->pDevice->api.cuModuleUnload(m->ahMod[i]);
  }
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

static int cuda_key_same(hash128 a, hash128 b) {
  return a.h1 == b.h1 && a.h2 == b.h2;
}

/* Returns the loaded module of key, or NULL. Called with the device's mu
** held. */
static cuda_module *cuda_module_find(cuda_device *d, hash128 key) {
  for (cuda_module *m = d->pModule; m != NULL; m = m->pNext) {
    if (m->key.h1 == key.h1 && m->key.h2 == key.h2) return m;
  }
  return NULL;
}

/* Hands out a new reference to m. Called with the device's mu held. */
static cuda_module *cuda_module_ref(cuda_device *d, cuda_module *m) {
  m->nRef++;
  m->iUsed = ++d->iClock;
  return m;
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

/* Takes listed module mOld out of the list for its replacement; unloads it
** now if nobody uses it, else at its last release. Called with mu held. */
static void cuda_module_retire(cuda_device *d, cuda_module *mOld) {
  for (cuda_module **pp = &d->pModule; *pp != NULL; pp = &(*pp)->pNext) {
    if (*pp == mOld) {
      *pp = mOld->pNext;
      d->nModule--;
      break;
    }
  }
  mOld->pNext = NULL;
  mOld->bRetired = 1;
  if (mOld->nRef == 0) cuda__module_unload(mOld);
}

/* Retires every fast module of one path whose optimized module is keyOpt's:
** it is listed now, and serves both paths. Called with mu held. */
static void cuda_module_retire_paths(cuda_device *d, hash128 keyOpt) {
  cuda_module *m = d->pModule;
  while (m != NULL) {
    cuda_module *pNext = m->pNext;
    if (m->info.eTier == CUDA_TIER_FAST && !cuda_key_same(m->key, keyOpt) &&
        cuda_key_same(m->keyOpt, keyOpt)) {
      cuda_module_retire(d, m);
    }
    m = pNext;
  }
}

/* Puts new module m (key set, no reference) in the list, or drops it for
** the listed module of its key when that one is as good: optimized, or m
** is fast too. A fast listed module is retired for an optimized m.
** Returns the listed module of the key afterwards with a new reference
** when bRef, else with none (NULL: m was dropped and !bRef). Called with
** mu held. */
static cuda_module *cuda_module_put(cuda_device *d, cuda_module *m, int bRef) {
  cuda_module *mOld = cuda_module_find(d, m->key);
  if (mOld != NULL &&
      (mOld->info.eTier == CUDA_TIER_OPTIMIZED || m->info.eTier == CUDA_TIER_FAST)) {
    /* Another thread loaded it meanwhile: keep one copy. */
    cuda__module_unload(m);
    return bRef ? cuda_module_ref(d, mOld) : NULL;
  }
  if (mOld != NULL) cuda_module_retire(d, mOld);
  m->nRef = 0;
  m->iUsed = ++d->iClock;
  m->pNext = d->pModule;
  d->pModule = m;
  d->nModule++;
  if (bRef) cuda_module_ref(d, m);
  cuda_module_evict(d);
  return m;
}

/* Sets the tier and what its compile cost (st: zeroed when nothing was
** compiled) in pInfo: the same fields for a load, a background install
** and a compile alone. */
static void cuda_module_info_compiled(cuda_module_info *pInfo, cuda_tier eTier,
                                      const cuda_compile_stats *st) {
  pInfo->eTier = eTier;
  pInfo->rCompileSeconds = st->rWall;
  pInfo->rSlowestSeconds = st->rSlowest;
  pInfo->rCpuSeconds = st->rCpu;
  pInfo->rSlowestCpuSeconds = st->rSlowestCpu;
  pInfo->bRdc = st->bRdc;
  pInfo->rLinkSeconds = st->rLink;
  pInfo->rLibSeconds = st->rLib;
  pInfo->rStartSeconds = st->rStart;
  for (int i = 0; i < st->nProg && i < CUDA_STATS_PROG; i++) {
    pInfo->aProgram[i].rWall = st->aProg[i].rWall;
    pInfo->aProgram[i].rCpu = st->aProg[i].rCpu;
    pInfo->aProgram[i].nKernel = st->aProg[i].nKernel;
  }
}

/* The key of a module: over the optimized options (the fast module lives
** under its optimized one's key), the split flag and, for a module of
** CUDA_COMPILE_FAST, the fast option; for a fast module of one path
** (ePath not CUDA_PATH_ANY), its SQ_PATH too, since it serves only loads of
** that path. */
static hash128 cuda_module_key_of(cuda_device *d, const char *zSource, int nKernel,
                                  const char *const *azKernel, int bSplit, int bFastOnly,
                                  cuda_path ePath) {
  const char *azOpt[CUDA_NVRTC_NOPT];
  char zArchOpt[64];
  int nOpt = cuda__nvrtc_options(d, zArchOpt, sizeof(zArchOpt), bFastOnly,
                                 bSplit ? "-DSQ_KERNELS=<the SCAN, the rest>" : NULL,
                                 cuda__path_option(ePath), azOpt);
  return cuda__module_key(d, zSource, nKernel, azKernel, azOpt, nOpt);
}

/* How a load is compiled, from its options: what its keys depend on. */
typedef struct cuda_load_how cuda_load_how;
struct cuda_load_how {
  cuda_compile_mode eMode;
  int bSplit;
  cuda_path ePath;         /* only a fast compile takes one path; optimized
                           ** modules hold both */
  cuda_path eText;         /* the run's path, which a text of the shim's
                           ** (cuda_module_text) defines for every tier;
                           ** CUDA_PATH_ANY with $STARQ_PATH_MODULES=0 */
};

static cuda_load_how cuda_load_how_of(const cuda_device *d, const cuda_load_options *pOpt,
                                      int nKernel) {
  cuda_load_how h;
  h.eMode = pOpt != NULL ? pOpt->eMode : CUDA_COMPILE_OPTIMIZED;
  h.bSplit = pOpt != NULL && pOpt->bSplit && nKernel > 1;
  h.ePath = pOpt != NULL && h.eMode != CUDA_COMPILE_OPTIMIZED ? pOpt->ePath : CUDA_PATH_ANY;
  h.eText = pOpt != NULL && d->bPathModules ? pOpt->ePath : CUDA_PATH_ANY;
  return h;
}

/* Sets aKey[0] to the key of the module of both paths and aKey[1] to that
** of the fast module of how's path (aKey[0] again when it takes both). */
static void cuda_module_keys(cuda_device *d, const char *zSource, int nKernel,
                             const char *const *azKernel, cuda_load_how how, hash128 aKey[2]) {
  int bFastOnly = how.eMode == CUDA_COMPILE_FAST;
  aKey[0] = cuda_module_key_of(d, zSource, nKernel, azKernel, how.bSplit, bFastOnly, CUDA_PATH_ANY);
  aKey[1] = how.ePath == CUDA_PATH_ANY ? aKey[0]
                                       : cuda_module_key_of(d, zSource, nKernel, azKernel,
                                                            how.bSplit, bFastOnly, how.ePath);
}

/* The listed module a load of keys aKey (cuda_module_keys) may run, with a
** new reference: the module of both paths (optimized, or fast for a load
** that is not CUDA_COMPILE_OPTIMIZED), then the fast one of the load's
** path. NULL: none. Called with the device's mu held. */
static cuda_module *cuda_module_hit(cuda_device *d, const hash128 aKey[2], cuda_compile_mode eMode) {
  cuda_module *m;
  /* Every source whose key could not be taken has CUDA_KEY_NONE: such a
  ** module, compiled and listed, must never be found for another text. */
  if (CUDA_KEY_IS_NONE(aKey[0]) || CUDA_KEY_IS_NONE(aKey[1])) return NULL;
  m = cuda_module_find(d, aKey[0]);
  if (m == NULL && eMode != CUDA_COMPILE_OPTIMIZED) m = cuda_module_find(d, aKey[1]);
  if (m != NULL && (m->info.eTier == CUDA_TIER_OPTIMIZED || eMode != CUDA_COMPILE_OPTIMIZED)) {
    return cuda_module_ref(d, m);
  }
  return NULL;
}

/* cuda_module_load() once the keys are known. */
static int cuda_module_load_keyed(cuda_device *d, const char *zSource, int nKernel,
                                  const char *const *azKernel, const cuda_load_options *pOpt,
                                  const hash128 aKey[2], cuda_module **pp, cuda_source *peSource,
                                  char *zErr, size_t nErr) {
  cuda_load_how how = cuda_load_how_of(d, pOpt, nKernel);
  cuda_compile_mode eMode = how.eMode;
  int bSplit = how.bSplit;
  cuda_path ePath = how.ePath;
  char zWhy[64] = "", zHex[33];
  cuda_image img;
  cuda_module *m;
  cuda_compile_stats st;
  cuda_tier eTier = CUDA_TIER_OPTIMIZED;
  double t0 = timer_now();
  cuda_source eSource = CUDA_SOURCE_DISK;
  hash128 key = aKey[0], keyPath = aKey[1];
  int rc;

  *pp = NULL;
  memset(&st, 0, sizeof(st));
  hash128_hex(key, zHex);
  pthread_mutex_lock(&d->mu);
  m = cuda_module_hit(d, aKey, eMode);
  pthread_mutex_unlock(&d->mu);
  if (m != NULL) {
    if (peSource != NULL) *peSource = CUDA_SOURCE_MEMORY;
    *pp = m;
    return 0;
  }
  if (cuda__enter(d, zErr, nErr) != 0) return -1;

  rc = 1;
  if (eMode == CUDA_COMPILE_FAST) {
    snprintf(zWhy, sizeof(zWhy), "the fast tier is never cached");
  } else {
    rc = cuda__cache_get(d, key, nKernel, azKernel, &img, zWhy, sizeof(zWhy), zErr, nErr);
    if (rc < 0) return -1;
  }
  if (rc > 0 && eMode == CUDA_COMPILE_QUEUED) {
    /* Nothing compiles now: the optimized module, in the background. */
    if (CUDA_KEY_IS_NONE(key)) return 1;
    if (cuda__tier_submit(d, key, zHex, zSource, nKernel, azKernel, bSplit, zErr, nErr) != 0) {
      return -1;
    }
    if (peSource != NULL) *peSource = CUDA_SOURCE_NVRTC;
    return 1;
  }
  if (rc > 0) {
    eSource = CUDA_SOURCE_NVRTC;
    eTier = eMode == CUDA_COMPILE_OPTIMIZED ? CUDA_TIER_OPTIMIZED : CUDA_TIER_FAST;
    if (cuda__compile(d, zSource, zHex, nKernel, azKernel, bSplit, eTier,
                      eTier == CUDA_TIER_FAST ? ePath : CUDA_PATH_ANY,
                      pOpt == NULL || !pOpt->bWhole, &img, &st, zErr, nErr) != 0) {
      return -1;
    }
    if (eTier == CUDA_TIER_OPTIMIZED) {
      /* A cache that cannot be written costs the next process a compile,
      ** nothing more: its error is dropped. Its tier job, if one was
      ** queued by another session's tiered load, has nothing left to do. */
      char zPutErr[256];
      (void)cuda__cache_put(d, key, zSource, nKernel, azKernel, &img, zPutErr, sizeof(zPutErr));
      cuda__tier_cancel(d, key);
    }
  }
  rc = cuda_module_make(d, &img, nKernel, azKernel, &m, zErr, nErr);
  cuda__image_free(&img);
  if (rc != 0) return -1;
  m->key = eTier == CUDA_TIER_FAST ? keyPath : key;
  m->keyOpt = key;
  m->info.eSource = eSource;
  cuda_module_info_compiled(&m->info, eTier, &st);
  m->info.rLoadSeconds = timer_now() - t0;
  snprintf(m->info.zMiss, sizeof(m->info.zMiss), "%s", zWhy);
  memcpy(m->info.zHash, zHex, sizeof(zHex));

  pthread_mutex_lock(&d->mu);
  m = cuda_module_put(d, m, 1);
  if (m->info.eTier == CUDA_TIER_OPTIMIZED) cuda_module_retire_paths(d, key);
  pthread_mutex_unlock(&d->mu);
  if (eTier == CUDA_TIER_FAST && eMode == CUDA_COMPILE_TIERED && m->info.eTier == CUDA_TIER_FAST &&
      !CUDA_KEY_IS_NONE(key)) {
    char zTierErr[256];
    if (cuda__tier_submit(d, key, zHex, zSource, nKernel, azKernel, bSplit, zTierErr,
                          sizeof(zTierErr)) != 0) {
      log_printf(LOG_LEVEL_WARN, "cuda: module %s keeps its fast-tier kernels: %s", zHex,
                 zTierErr);
    }
  }
  if (peSource != NULL) *peSource = eSource;
  *pp = m;
  return 0;
}

int cuda_module_load(cuda_device *d, const char *zSource, int nKernel, const char *const *azKernel,
                     const cuda_load_options *pOpt, cuda_module **pp, cuda_source *peSource,
                     char *zErr, size_t nErr) {
  hash128 aKey[2];
  *pp = NULL;
  if (nKernel <= 0) {
    snprintf(zErr, nErr, "a module needs at least one kernel");
    return -1;
  }
  cuda_module_keys(d, zSource, nKernel, azKernel, cuda_load_how_of(d, pOpt, nKernel), aKey);
  return cuda_module_load_keyed(d, zSource, nKernel, azKernel, pOpt, aKey, pp, peSource, zErr,
                                nErr);
}

int cuda__module_install(cuda_device *d, hash128 key, const char *zHash, const cuda_image *p,
                         int nKernel, const char *const *azKernel, const cuda_compile_stats *pSt,
                         char *zErr, size_t nErr) {
  cuda_module *m = NULL;
  int rc = 0;
  /* The hold keeps a rebuild out while the module goes into the context:
  ** after one, the context is the new epoch's and the load goes there. */
  (void)cuda_device_use_begin(d);
  pthread_mutex_lock(&d->mu);
  m = cuda_module_find(d, key);
  if (m != NULL && m->info.eTier == CUDA_TIER_OPTIMIZED) rc = 1;
  pthread_mutex_unlock(&d->mu);
  if (rc == 0) {
    if (cuda__enter(d, zErr, nErr) != 0 ||
        cuda_module_make(d, p, nKernel, azKernel, &m, zErr, nErr) != 0) {
      rc = -1;
    } else {
      m->key = key;
      m->keyOpt = key;
      m->info.eSource = CUDA_SOURCE_NVRTC;
      cuda_module_info_compiled(&m->info, CUDA_TIER_OPTIMIZED, pSt);
      m->info.rLoadSeconds = pSt->rWall;
      snprintf(m->info.zMiss, sizeof(m->info.zMiss), "compiled in the background");
      snprintf(m->info.zHash, sizeof(m->info.zHash), "%s", zHash);
      pthread_mutex_lock(&d->mu);
      (void)cuda_module_put(d, m, 0);
      cuda_module_retire_paths(d, key);
      pthread_mutex_unlock(&d->mu);
    }
  }
  cuda_device_use_end(d);
  return rc < 0 ? -1 : 0;
}

/* The prelude every module starts with (runtime/cpu-shim.h): to NVRTC it
** defines STARQ_CPU_ENTRY as nothing; the tests' mock driver compiles the
** module for the CPU and needs the rest of it. */
extern const char runtime_cpu_shim[];

/* Sets *pSrc to the text a module of zLib and zSource is compiled from:
** SQ_PATH defined for a run of one path (CUDA_PATH_PLAIN and _PACKED are
** device.cuh's SQ_PATH_PLAIN and _PACKED, 1 and 2), then the shim, zLib
** (if not NULL) and zSource, each after a newline. Returns 0, or -1 with
** zErr out of memory (*pSrc freed). */
static int cuda_module_text(strbuf *pSrc, const char *zLib, const char *zSource, cuda_path ePath,
                            char *zErr, size_t nErr) {
  strbuf_init(pSrc);
  if (ePath != CUDA_PATH_ANY) strbuf_printf(pSrc, "#define SQ_PATH %d\n", (int)ePath);
  strbuf_printf(pSrc, "%s\n", runtime_cpu_shim);
  if (zLib != NULL) strbuf_printf(pSrc, "%s\n", zLib);
  strbuf_puts(pSrc, zSource);
  if (!strbuf_error(pSrc)) return 0;
  strbuf_free(pSrc);
  snprintf(zErr, nErr, "out of memory");
  return -1;
}

int cuda_module_load_shim(cuda_device *d, const char *zLib, const char *zSource, int nKernel,
                          const char *const *azKernel, const cuda_load_options *pOpt,
                          cuda_module **pp, cuda_source *peSource, char *zErr, size_t nErr) {
  strbuf src;
  int rc;
  cuda_path eText = cuda_load_how_of(d, pOpt, nKernel).eText;
  *pp = NULL;
  if (cuda_module_text(&src, zLib, zSource, eText, zErr, nErr) != 0) return -1;
  rc = cuda_module_load(d, strbuf_str(&src), nKernel, azKernel, pOpt, pp, peSource, zErr, nErr);
  strbuf_free(&src);
  return rc;
}

/* The slot of d->aMemo for a source hash and what else its keys depend on
** (mHow: cuda_memo_how). */
static cuda_key_memo *cuda_memo_slot(cuda_device *d, hash128 hSource, uint64_t mHow) {
  uint64_t h = (hSource.h1 ^ (mHow * 0x9e3779b97f4a7c15ull)) >> 7;
  return &d->aMemo[h % CUDA_KEY_MEMO];
}

/* What a module's keys depend on besides its text: the load's compile mode,
** path and split flag, and the kernels' count (their names are in the
** text). */
static uint64_t cuda_memo_how(cuda_load_how how, int nKernel) {
  return (uint64_t)how.eMode | (uint64_t)how.ePath << 8 | (uint64_t)how.eText << 12 |
         (uint64_t)how.bSplit << 16 | (uint64_t)(unsigned)nKernel << 24;
}

int cuda_module_load_known(cuda_device *d, hash128 hSource, const char *zSource, int nKernel,
                           const char *const *azKernel, const cuda_load_options *pOpt,
                           cuda_module **pp, cuda_source *peSource, char *zErr, size_t nErr) {
  cuda_load_how how = cuda_load_how_of(d, pOpt, nKernel);
  uint64_t mHow = cuda_memo_how(how, nKernel);
  cuda_key_memo *e = cuda_memo_slot(d, hSource, mHow);
  hash128 aKey[2];
  cuda_module *m = NULL;
  strbuf src;
  int rc, bKnown = 0;
  *pp = NULL;
  if (nKernel <= 0) {
    snprintf(zErr, nErr, "a module needs at least one kernel");
    return -1;
  }
  /* A key is a function of the text and the options (the device's arch,
  ** driver and NVRTC never change for a cuda_device), so a remembered one
  ** never goes stale: only the module list says whether it is loaded. */
  pthread_mutex_lock(&d->mu);
  if (e->bSet && cuda_key_same(e->hSource, hSource) && e->mHow == mHow) {
    aKey[0] = e->aKey[0];
    aKey[1] = e->aKey[1];
    bKnown = 1;
    m = cuda_module_hit(d, aKey, how.eMode);
  }
  pthread_mutex_unlock(&d->mu);
  if (m != NULL) {
    if (peSource != NULL) *peSource = CUDA_SOURCE_MEMORY;
    *pp = m;
    return 0;
  }
  if (cuda_module_text(&src, NULL, zSource, how.eText, zErr, nErr) != 0) return -1;
  if (!bKnown) {
    cuda_module_keys(d, strbuf_str(&src), nKernel, azKernel, how, aKey);
    if (!CUDA_KEY_IS_NONE(aKey[0]) && !CUDA_KEY_IS_NONE(aKey[1])) {
      pthread_mutex_lock(&d->mu);
      e->hSource = hSource;
      e->mHow = mHow;
      e->aKey[0] = aKey[0];
      e->aKey[1] = aKey[1];
      e->bSet = 1;
      pthread_mutex_unlock(&d->mu);
    }
  }
  rc = cuda_module_load_keyed(d, strbuf_str(&src), nKernel, azKernel, pOpt, aKey, pp, peSource,
                              zErr, nErr);
  strbuf_free(&src);
  return rc;
}

int cuda_module_compile(cuda_device *d, const char *zSource, int nKernel,
                        const char *const *azKernel, const cuda_load_options *pOpt,
                        cuda_tier eTier, cuda_module_info *pInfo, char *zErr, size_t nErr) {
  int bSplit = pOpt != NULL && pOpt->bSplit && nKernel > 1;
  cuda_path ePath;
  cuda_compile_stats st;
  cuda_image img;
  hash128 key;
  memset(pInfo, 0, sizeof(*pInfo));
  if (nKernel <= 0) {
    snprintf(zErr, nErr, "a module needs at least one kernel");
    return -1;
  }
  ePath = eTier == CUDA_TIER_FAST && pOpt != NULL ? pOpt->ePath : CUDA_PATH_ANY;
  key = cuda_module_key_of(d, zSource, nKernel, azKernel, bSplit, eTier == CUDA_TIER_FAST, ePath);
  hash128_hex(key, pInfo->zHash);
  if (cuda__compile(d, zSource, pInfo->zHash, nKernel, azKernel, bSplit, eTier, ePath,
                    pOpt == NULL || !pOpt->bWhole, &img, &st, zErr, nErr) != 0) {
    return -1;
  }
  pInfo->eSource = CUDA_SOURCE_NVRTC;
  cuda_module_info_compiled(pInfo, eTier, &st);
  pInfo->rLoadSeconds = st.rWall;
  pInfo->nProgram = img.nProg;
  for (int i = 0; i < img.nProg; i++) pInfo->nImage += img.aProg[i].n;
  cuda__image_free(&img);
  return 0;
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
  if (p->bRetired && p->nRef == 0) cuda__module_unload(p);
  else cuda_module_evict(d);
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
