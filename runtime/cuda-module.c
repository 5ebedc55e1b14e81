/*
** runtime/cuda-module.c — CUDA modules: a generated source compiled by
** NVRTC into a CUBIN (or found in a cache), loaded into the primary
** context, its kernels found by their lowered names; compiles queued on
** the background compiler and their modules installed; and launches.
**
** Finding a module, cheapest first:
**   1. memory: the device's list of loaded modules, by key (a query shape
**      seen before in this process costs a hash of its text; with
**      cuda_load_options.hSource, whose caller hashed its source once,
**      not even that: the key each source hash and path gave is
**      remembered on the device, d->aMemo);
**   2. disk: <key>.cubin in the cache directory (cuda-cache.c), which
**      carries the lowered kernel names too, so NVRTC is not even opened;
**   3. NVRTC (cuda-compile.c): now (CUDA_LOAD_WAIT), the result stored on
**      disk and listed; or on the background compiler (CUDA_LOAD_QUEUE,
**      runtime/compileq.h), whose job compiles, stores on disk and
**      installs the module in the list (cuda__module_install's part here)
**      while the caller runs the query some other way.
** A waited-for load whose module the background compiler has queued takes
** the job out of the queue and compiles itself; one whose module it is
** compiling waits for it (compileq_claim), so no shape is compiled twice at
** once in a process. Two threads missing on the same key at once both
** compile; the second to finish finds the first's module in the list and
** drops its own.
**
** A module per path: a load whose run takes one path (every packed fact
** column resident: plain; none: packed; cuda_path) compiles a text that
** starts `#define SQ_PATH n` (cuda_module_text), so its module holds only
** that side of each load, under the key of that text. Without the other
** side, resident at SF 20 on the H100, the 13 SSB queries' kernels took
** 7.34 -> 6.69 ms and Q3.1 at SF 100 4.76 -> 4.28 ms (bench/RESULTS.md,
** issue 10, fifth and sixth passes). A mixed run compiles both sides; a
** statement run resident, then streamed, compiles twice.
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
**   cuda_module_load, cuda_module_compile, cuda_module_info_get,
**   cuda_module_release, cuda_device_compile_wait,
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
static int cuda_module_make(cuda_device *d, const cuda_image *p, const char *const *azKernel,
                            cuda_module **pp, char *zErr, size_t nErr) {
  cuda_module *m = calloc(1, sizeof(*m));
  CUresult rc;
  double t0 = timer_now();
  *pp = NULL;
  if (m == NULL || (m->aKernel = calloc((size_t)p->nKernel + 1, sizeof(cuda_kernel))) == NULL) {
    free(m);
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  m->pDevice = d;
  m->nKernel = p->nKernel;
  if ((rc = d->api.cuModuleLoadData(&m->hMod, p->img.p)) != CUDA_SUCCESS) {
    cuda__error(d, rc, "cuModuleLoadData", zErr, nErr);
    m->hMod = NULL;
    goto out_free;
  }
  m->info.nImage = p->img.n;
  for (int i = 0; i < p->nKernel; i++) {
    cuda_kernel *k = &m->aKernel[i];
    snprintf(k->zName, sizeof(k->zName), "%s", azKernel[i]);
    if ((k->zLowered = strdup(p->azLowered[i])) == NULL) {
      snprintf(zErr, nErr, "out of memory");
      goto out_free;
    }
    rc = d->api.cuModuleGetFunction(&k->hFunc, m->hMod, k->zLowered);
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

static int cuda_key_same(hash128 a, hash128 b) {
  return a.h1 == b.h1 && a.h2 == b.h2;
}

/* Returns the loaded module of key with a new reference, or NULL. Every
** text whose key could not be taken has CUDA_KEY_NONE: such a module,
** compiled and listed, must never be found for another text. Called with
** the device's mu held. */
static cuda_module *cuda_module_hit(cuda_device *d, hash128 key) {
  if (CUDA_KEY_IS_NONE(key)) return NULL;
  for (cuda_module *m = d->pModule; m != NULL; m = m->pNext) {
    if (cuda_key_same(m->key, key)) {
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

/* Puts new module m (key set, no reference) in the list, or drops it for
** the listed module of its key (another thread loaded it meanwhile).
** Returns the listed module of the key with a new reference. Called with
** mu held. */
static cuda_module *cuda_module_put(cuda_device *d, cuda_module *m) {
  cuda_module *mOld = cuda_module_hit(d, m->key);
  if (mOld != NULL) {
    cuda__module_unload(m);
    return mOld;
  }
  m->nRef = 1;
  m->iUsed = ++d->iClock;
  m->pNext = d->pModule;
  d->pModule = m;
  d->nModule++;
  cuda_module_evict(d);
  return m;
}

/* Loads image p of s into the context and lists it, with *pInfo (where it
** came from, what its compile cost: the load's own times are added);
** *pp gets a reference to the listed module. Returns 0, or -1 with zErr. */
static int cuda_module_list(cuda_device *d, const cuda_src *s, const cuda_image *p,
                            const cuda_module_info *pInfo, cuda_module **pp, char *zErr,
                            size_t nErr) {
  cuda_module *m;
  double rModule;
  if (cuda_module_make(d, p, s->azKernel, &m, zErr, nErr) != 0) return -1;
  rModule = m->info.rModuleSeconds;
  m->key = s->key;
  m->info = *pInfo;
  m->info.rModuleSeconds = rModule;
  m->info.nImage = p->img.n;
  m->info.rLoadSeconds += rModule;
  memcpy(m->info.zHash, s->zHash, sizeof(s->zHash));
  pthread_mutex_lock(&d->mu);
  *pp = cuda_module_put(d, m);
  pthread_mutex_unlock(&d->mu);
  return 0;
}

/* An info of a module compiled at cost st (NULL: read from disk), the
** first load's time so far rLoad. */
static cuda_module_info cuda_info_of(const cuda_compile_stats *st, double rLoad, const char *zMiss) {
  cuda_module_info i;
  memset(&i, 0, sizeof(i));
  i.eSource = st != NULL ? CUDA_SOURCE_NVRTC : CUDA_SOURCE_DISK;
  i.rCompileSeconds = st != NULL ? st->rWall : 0;
  i.rCpuSeconds = st != NULL ? st->rCpu : 0;
  i.rLoadSeconds = rLoad;
  snprintf(i.zMiss, sizeof(i.zMiss), "%s", zMiss);
  return i;
}

/* ---- the background compiler's jobs ----------------------------------------- */

/* A module compiled by the background compiler: a copy of its text and
** kernel names (the query that queued it may be long gone). */
typedef struct cuda_job cuda_job;
struct cuda_job {
  compileq_job base;       /* first: the queue's part (base.key: the module's) */
  cuda_device *d;
  cuda_src src;            /* its strings are the job's own: */
  char *zText;             /* owned */
  char **azKernel;         /* src.nKernel names; owned */
};

static void cuda_job_free(compileq_job *pJob) {
  cuda_job *j = (cuda_job *)pJob;
  for (int i = 0; j->azKernel != NULL && i < j->src.nKernel; i++) free(j->azKernel[i]);
  free(j->azKernel);
  free(j->zText);
  free(j);
}

/* Compiles the job's module, stores it on disk and, under a shared hold
** (no rebuild runs under the load; after one, it goes into the new
** context; on a lost device, nowhere), lists it. Failures are logged: the
** queries of the shape go on waiting for nothing (the generic kernels run
** them) until one compiles it itself. */
static void cuda_job_run(compileq_job *pJob) {
  cuda_job *j = (cuda_job *)pJob;
  cuda_device *d = j->d;
  char zErr[4096], zPutErr[256];
  cuda_compile_stats st;
  cuda_module_info info;
  cuda_module *m;
  cuda_image img;
  double t0 = timer_now();
  if (cuda__compile(d, &j->src, &img, &st, zErr, sizeof(zErr)) != 0) {
    log_printf(LOG_LEVEL_ERROR, "cuda: the background compile of module %s failed: %s",
               j->src.zHash, zErr);
    return;
  }
  /* On disk first: a restart finds it even if it cannot be loaded now. */
  if (cuda__cache_put(d, &j->src, &img, zPutErr, sizeof(zPutErr)) != 0) {
    log_printf(LOG_LEVEL_DEBUG, "cuda: module %s not cached on disk: %s", j->src.zHash, zPutErr);
  }
  info = cuda_info_of(&st, timer_now() - t0, "compiled in the background");
  info.bBackground = 1;
  (void)cuda_device_use_begin(d);
  if (cuda__enter(d, zErr, sizeof(zErr)) != 0 ||
      cuda_module_list(d, &j->src, &img, &info, &m, zErr, sizeof(zErr)) != 0) {
    log_printf(LOG_LEVEL_WARN, "cuda: module %s, compiled in the background, could not be "
               "loaded: %s", j->src.zHash, zErr);
  } else {
    cuda_module_release(m);
    log_printf(LOG_LEVEL_DEBUG, "cuda: module %s compiled in the background in %.1f ms",
               j->src.zHash, st.rWall * 1e3);
  }
  cuda_device_use_end(d);
  cuda__image_free(&img);
}

/* Queues s's compile on the background compiler. Returns 0, or -1 with
** zErr (no memory, no thread). */
static int cuda_job_submit(cuda_device *d, const cuda_src *s, char *zErr, size_t nErr) {
  cuda_job *j = calloc(1, sizeof(*j));
  if (j == NULL) goto out_oom;
  j->base.key = s->key;
  j->base.xRun = cuda_job_run;
  j->base.xFree = cuda_job_free;
  j->d = d;
  j->src = *s;
  if ((j->zText = strdup(s->zText)) == NULL ||
      (j->azKernel = calloc((size_t)s->nKernel, sizeof(char *))) == NULL) {
    cuda_job_free(&j->base);
    goto out_oom;
  }
  for (int i = 0; i < s->nKernel; i++) {
    if ((j->azKernel[i] = strdup(s->azKernel[i])) == NULL) {
      cuda_job_free(&j->base);
      goto out_oom;
    }
  }
  j->src.zText = j->zText;
  j->src.azKernel = (const char *const *)j->azKernel;
  return compileq_submit(d->pCompiler, &j->base, zErr, nErr);
out_oom:
  snprintf(zErr, nErr, "out of memory for the background compile");
  return -1;
}

/* ---- loads ------------------------------------------------------------------ */

/* The prelude every module starts with (runtime/cpu-shim.h): to NVRTC it
** defines STARQ_CPU_ENTRY as nothing; the tests' mock driver compiles the
** module for the CPU and needs the rest of it. */
extern const char runtime_cpu_shim[];

/* Sets *pText to the text of the load pOpt: SQ_PATH defined for a run of
** one path (CUDA_PATH_PLAIN and _PACKED are device.cuh's SQ_PATH_PLAIN and
** _PACKED, 1 and 2), then the shim, the library (if any) and the source,
** each after a newline. Returns 0, or -1 with zErr out of memory (*pText
** freed). */
static int cuda_module_text(strbuf *pText, const cuda_load_options *pOpt, char *zErr,
                            size_t nErr) {
  strbuf_init(pText);
  if (pOpt->ePath != CUDA_PATH_ANY) strbuf_printf(pText, "#define SQ_PATH %d\n", (int)pOpt->ePath);
  strbuf_printf(pText, "%s\n", runtime_cpu_shim);
  if (pOpt->zLib != NULL) strbuf_printf(pText, "%s\n", pOpt->zLib);
  strbuf_puts(pText, pOpt->zSource);
  if (!strbuf_error(pText)) return 0;
  strbuf_free(pText);
  snprintf(zErr, nErr, "out of memory");
  return -1;
}

/* Fills s for the text zText of load pOpt: its kernels, key and hash. */
static void cuda_src_of(cuda_device *d, const char *zText, const cuda_load_options *pOpt,
                        cuda_src *s) {
  const char *azOpt[CUDA_NVRTC_NOPT];
  char zArchOpt[64];
  int nOpt = cuda__nvrtc_options(d, zArchOpt, sizeof(zArchOpt), azOpt);
  s->zText = zText;
  s->nKernel = pOpt->nKernel;
  s->azKernel = pOpt->azKernel;
  s->key = cuda__module_key(d, zText, pOpt->nKernel, pOpt->azKernel, azOpt, nOpt);
  hash128_hex(s->key, s->zHash);
}

/* The slot of d->aMemo for a source hash and what else its key depends on
** (mHow: its path and kernel count; the names are in the text). */
static cuda_key_memo *cuda_memo_slot(cuda_device *d, hash128 hSource, uint64_t mHow) {
  uint64_t h = (hSource.h1 ^ (mHow * 0x9e3779b97f4a7c15ull)) >> 7;
  return &d->aMemo[h % CUDA_KEY_MEMO];
}

static uint64_t cuda_memo_how(const cuda_load_options *pOpt) {
  return (uint64_t)pOpt->ePath | (uint64_t)(unsigned)pOpt->nKernel << 8;
}

/* cuda_module_load() once the text and key are known (s). */
static int cuda_module_load_src(cuda_device *d, const cuda_src *s, const cuda_load_options *pOpt,
                                cuda_module **pp, cuda_source *peSource, char *zErr, size_t nErr) {
  cuda_load_mode eMode = pOpt->eMode;
  double secMax = pOpt->secCompileMax > 0 ? pOpt->secCompileMax
                  : pOpt->pbCancel != NULL ? CUDA_COMPILE_SECONDS : 0;
  char zWhy[64] = "";
  cuda_image img;
  cuda_compile_stats st;
  double t0 = timer_now();
  int rc;
  for (;;) {
    pthread_mutex_lock(&d->mu);
    *pp = cuda_module_hit(d, s->key);
    pthread_mutex_unlock(&d->mu);
    if (*pp != NULL) {
      if (peSource != NULL) *peSource = CUDA_SOURCE_MEMORY;
      return 0;
    }
    if (cuda__enter(d, zErr, nErr) != 0) return -1;
    if ((rc = cuda__cache_get(d, s, &img, zWhy, sizeof(zWhy), zErr, nErr)) < 0) return -1;
    if (rc == 0) {
      cuda_module_info info = cuda_info_of(NULL, timer_now() - t0, "");
      rc = cuda_module_list(d, s, &img, &info, pp, zErr, nErr);
      cuda__image_free(&img);
      if (rc != 0) return -1;
      if (peSource != NULL) *peSource = CUDA_SOURCE_DISK;
      return 0;
    }
    if (eMode == CUDA_LOAD_QUEUE) {
      /* Nothing compiles now: the module, in the background. */
      if (CUDA_KEY_IS_NONE(s->key)) return 1;
      if (cuda_job_submit(d, s, zErr, nErr) != 0) return -1;
      if (peSource != NULL) *peSource = CUDA_SOURCE_NVRTC;
      return 1;
    }
    /* Compiled in the background meanwhile: look again. */
    if (CUDA_KEY_IS_NONE(s->key) || (rc = compileq_claim(d->pCompiler, s->key, pOpt->pbCancel)) == 0) {
      break;
    }
    if (rc < 0) {
      snprintf(zErr, nErr, "cancelled while the background compiler had the kernels");
      return CUDA_COMPILE_STOPPED;
    }
  }
  if ((rc = cuda__compile_wait(d, s, pOpt->pbCancel, secMax, &img, &st, zErr, nErr)) != 0) {
    return rc == CUDA_COMPILE_STOPPED || rc == CUDA_COMPILE_TIMED_OUT ? rc : -1;
  }
  {
    /* A cache that cannot be written costs the next process a compile,
    ** nothing more: its error is dropped. */
    char zPutErr[256];
    cuda_module_info info;
    (void)cuda__cache_put(d, s, &img, zPutErr, sizeof(zPutErr));
    info = cuda_info_of(&st, timer_now() - t0, zWhy);
    rc = cuda_module_list(d, s, &img, &info, pp, zErr, nErr);
  }
  cuda__image_free(&img);
  if (rc != 0) return -1;
  if (peSource != NULL) *peSource = CUDA_SOURCE_NVRTC;
  return 0;
}

int cuda_module_load(cuda_device *d, const cuda_load_options *pOpt, cuda_module **pp,
                     cuda_source *peSource, char *zErr, size_t nErr) {
  int bMemo = (pOpt->hSource.h1 != 0 || pOpt->hSource.h2 != 0) && pOpt->zLib == NULL;
  uint64_t mHow = cuda_memo_how(pOpt);
  cuda_key_memo *e = bMemo ? cuda_memo_slot(d, pOpt->hSource, mHow) : NULL;
  strbuf text;
  cuda_src s;
  int rc;
  *pp = NULL;
  if (pOpt->nKernel <= 0) {
    snprintf(zErr, nErr, "a module needs at least one kernel");
    return -1;
  }
  /* A key is a function of the text and the options (the device's arch,
  ** driver and NVRTC never change for a cuda_device), so a remembered one
  ** never goes stale: only the list says whether its module is loaded. */
  if (e != NULL) {
    pthread_mutex_lock(&d->mu);
    if (e->bSet && cuda_key_same(e->hSource, pOpt->hSource) && e->mHow == mHow) {
      *pp = cuda_module_hit(d, e->key);
    }
    pthread_mutex_unlock(&d->mu);
    if (*pp != NULL) {
      if (peSource != NULL) *peSource = CUDA_SOURCE_MEMORY;
      return 0;
    }
  }
  if (cuda_module_text(&text, pOpt, zErr, nErr) != 0) return -1;
  cuda_src_of(d, strbuf_str(&text), pOpt, &s);
  if (e != NULL && !CUDA_KEY_IS_NONE(s.key)) {
    pthread_mutex_lock(&d->mu);
    e->hSource = pOpt->hSource;
    e->mHow = mHow;
    e->key = s.key;
    e->bSet = 1;
    pthread_mutex_unlock(&d->mu);
  }
  rc = cuda_module_load_src(d, &s, pOpt, pp, peSource, zErr, nErr);
  strbuf_free(&text);
  return rc;
}

int cuda_module_compile(cuda_device *d, const cuda_load_options *pOpt, cuda_module_info *pInfo,
                        char *zErr, size_t nErr) {
  cuda_compile_stats st;
  cuda_image img;
  strbuf text;
  cuda_src s;
  int rc;
  memset(pInfo, 0, sizeof(*pInfo));
  if (pOpt->nKernel <= 0) {
    snprintf(zErr, nErr, "a module needs at least one kernel");
    return -1;
  }
  if (cuda_module_text(&text, pOpt, zErr, nErr) != 0) return -1;
  cuda_src_of(d, strbuf_str(&text), pOpt, &s);
  memcpy(pInfo->zHash, s.zHash, sizeof(s.zHash));
  rc = cuda__compile(d, &s, &img, &st, zErr, nErr);
  strbuf_free(&text);
  if (rc != 0) return -1;
  pInfo->eSource = CUDA_SOURCE_NVRTC;
  pInfo->rCompileSeconds = pInfo->rLoadSeconds = st.rWall;
  pInfo->rCpuSeconds = st.rCpu;
  pInfo->nImage = img.img.n;
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
  cuda_module_evict(d);
  pthread_mutex_unlock(&d->mu);
}

void cuda_device_compile_wait(cuda_device *d) {
  compileq_wait(d->pCompiler);
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
