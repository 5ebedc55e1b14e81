/*
** runtime/exec-module.c — which kernels a run takes, and loading them on
** either backend: a new shape's first run waits for no compiler.
**
** A query's own kernels are compiled for its shape (codegen), once: a
** kept module in memory, else an object or CUBIN in the disk cache, else a
** compile — cc on the CPU (0.3-3.9 s a shape on the 2-core dev machine),
** NVRTC on CUDA (20-154 ms on the H200's host, bench/RESULTS.md). A shape
** found in neither cache is a first run, and a first run does not wait
** for that compile: the generic kernels run it (codegen/generic.c,
** device-generic.cuh: one interpreter kernel compiled once per backend
** and cached on disk like any module, that reads the plan from its
** argument block and gives the same rows and errors), and the shape's own
** kernels are queued on the background compiler (runtime/compileq.h:
** NVRTC and an install on CUDA, cc into the disk cache on the CPU). The
** next run of the shape, with any literals, finds them in a cache.
**
** exec__module_pick, by exec_options.eGeneric:
**   ON (the default)  the own module, compiling nothing now; missing, its
**                     compile queued, the generic module, compiling
**                     nothing now either; missing too (a backend's first
**                     seconds on an empty cache: their compile, queued at
**                     the open, still runs) or unable to run the plan
**                     (cg_program.pGeneric NULL, zGenericWhy says why),
**                     the own module waited for;
**   OFF               the own module waited for;
**   ALWAYS            the generic module waited for (where they can run
**                     the plan).
** A module waited for is compiled by the caller's thread — unless the
** background compiler has it: queued, the job is taken out and compiled
** here; running, it is waited for (compileq_claim) — never twice at once.
**
** The CPU backend's background compiler is the backend's (exec_backend
** .pCompiler), a thread at nice +10 whose cc processes inherit it; CUDA's
** is the device's (cuda.h, CUDA_LOAD_QUEUE). The generic kernels' module
** is queued on it when the backend opens (exec__generic_prepare), in the
** module cache's directory — on the CPU in cpu_options.zGenericCacheDir
** where one is given, so that many backends with caches of their own (the
** test suite's) compile it once.
**
** INTERFACE ROUTINES
**   exec__module_pick, exec__module_free, exec__generic_prepare
**   exec_backend_compile_wait
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "execInt.h"

/* What to load: a module's source and kernels. */
typedef struct exec_load exec_load;
struct exec_load {
  const char *zSource;     /* the generated source (shim not prepended) */
  hash128 hSource;         /* its hash: the background compiler's key */
  const cg_program *g;     /* its kernels' names (CUDA); NULL: the generic
                           ** module's one kernel */
  cuda_path ePath;         /* CUDA: the run's path (a module per path) */
  int bQueue;              /* compile nothing now: queue it, return 1 */
  const _Atomic int *pbCancel;  /* a compile waited for stops when it is set */
};

/* ---- the CPU backend ---------------------------------------------------------- */

/* A background compile may take this share of a waited-for compile's time
** bound (cpu_options.secCompileMax): past it the shape is not cheap to
** compile, and it keeps running on the generic kernels. */
#define EXEC_BACKGROUND_COMPILE_SHARE 0.25

/* A CPU module compiled by the background compiler into the disk cache:
** a copy of its source (the query that queued it may be gone); the
** options' strings are the backend's, which outlives its queue. */
typedef struct exec_cpu_job exec_cpu_job;
struct exec_cpu_job {
  compileq_job base;       /* first: the queue's part */
  cpu_options opt;
  char *zSource;           /* owned */
};

static void exec_cpu_job_free(compileq_job *pJob) {
  exec_cpu_job *j = (exec_cpu_job *)pJob;
  free(j->zSource);
  free(j);
}

static void exec_cpu_job_run(compileq_job *pJob) {
  exec_cpu_job *j = (exec_cpu_job *)pJob;
  cpu_module_info info;
  char zErr[2048];
  int rc = cpu_module_compile(j->zSource, &j->opt, &info, zErr, sizeof(zErr));
  if (rc == CPU_STOPPED) {
    log_printf(LOG_LEVEL_DEBUG, "cpu: a background compile was stopped at close");
  } else if (rc == CPU_TIMED_OUT) {
    /* Not cheap: the shape keeps running on the generic kernels. */
    log_printf(LOG_LEVEL_WARN, "cpu: a background compile was abandoned: %s", zErr);
  } else if (rc != 0) {
    log_printf(LOG_LEVEL_ERROR, "cpu: the background compile of a module failed: %s", zErr);
  } else if (!info.bCacheHit) {
    log_printf(LOG_LEVEL_DEBUG, "cpu: module %s compiled in the background in %.1f ms",
               info.zHash, info.rCompileSeconds * 1e3);
  }
}

/* Queues the compile of pL's source with options pOpt. Returns 0, or -1
** with zErr. */
static int exec_cpu_submit(exec_backend *pB, const exec_load *pL, const cpu_options *pOpt,
                           char *zErr, size_t nErr) {
  exec_cpu_job *j = calloc(1, sizeof(*j));
  if (j == NULL || (j->zSource = strdup(pL->zSource)) == NULL) {
    free(j);
    snprintf(zErr, nErr, "out of memory for the background compile");
    return -1;
  }
  j->base.key = pL->hSource;
  j->base.xRun = exec_cpu_job_run;
  j->base.xFree = exec_cpu_job_free;
  j->opt = *pOpt;
  /* Nobody waits for it: it stops when the backend closes, and a query's
  ** own module is kept only if it is cheap — a share of a waited-for
  ** compile's time (the generic kernels, which every new shape needs, get
  ** the whole bound). */
  j->opt.pbCancel = compileq_abort_flag(pB->pCompiler);
  if (pL->g != NULL) {
    j->opt.secCompileMax = (pOpt->secCompileMax > 0 ? pOpt->secCompileMax : CPU_COMPILE_SECONDS) *
                           EXEC_BACKGROUND_COMPILE_SHARE;
  }
  return compileq_submit(pB->pCompiler, &j->base, zErr, nErr);
}

/* The options a CPU load of pL takes: the backend's, the generic module's
** in its own directory when the backend has one. */
static cpu_options exec_cpu_options(const exec_backend *pB, const exec_load *pL) {
  cpu_options o = pB->opt;
  if (pL->g == NULL && o.zGenericCacheDir != NULL) o.zCacheDir = o.zGenericCacheDir;
  return o;
}

/* Loads pL on the CPU backend. Returns 0, 1 (bQueue: not compiled, its
** compile queued), CPU_STOPPED or CPU_TIMED_OUT (a compile waited for was
** stopped), or -1 with zErr. */
static int exec_cpu_load(exec_backend *pB, const exec_load *pL, exec_module *pMod,
                         exec_result *pRes, char *zErr, size_t nErr) {
  cpu_options o = exec_cpu_options(pB, pL);
  const cpu_module_info *pInfo;
  double rWaited = 0, t0 = timer_now();
  int rc;
  o.pbCancel = pL->pbCancel;
  if (pL->bQueue) {
    rc = cpu_module_find(pL->zSource, &o, &pMod->pCpu, zErr, nErr);
    if (rc > 0 && exec_cpu_submit(pB, pL, &o, zErr, nErr) != 0) return -1;
  } else {
    /* Waited for: the background compiler's job, if it has one, is this
    ** thread's now (or, running, waited for and then found on disk). */
    if ((rc = compileq_claim(pB->pCompiler, pL->hSource, pL->pbCancel)) < 0) {
      snprintf(zErr, nErr, "cancelled while the background compiler had the kernels");
      return CPU_STOPPED;
    }
    if (rc > 0) rWaited = timer_now() - t0;
    rc = cpu_module_load(pL->zSource, &o, &pMod->pCpu, zErr, nErr);
  }
  if (rc != 0) return rc;
  pInfo = cpu_module_info_get(pMod->pCpu);
  pRes->bCacheHit = pInfo->bCacheHit && rWaited == 0;
  pRes->rCompileSeconds = pInfo->rCompileSeconds + rWaited;
  return 0;
}

/* ---- the CUDA backend --------------------------------------------------------- */

/* Says in pRes where a module's first load (an NVRTC compile) spent its
** time: NVRTC's wall and CPU, the module load, and the rest of
** cuda_module_load (text, key, cache look-up, list). What a shape that
** waited for its compile waited for, in one line. */
static void exec_compile_parts(const cuda_module_info *pInfo, exec_result *pRes) {
  double rRest = pInfo->rLoadSeconds - pInfo->rCompileSeconds - pInfo->rModuleSeconds;
  snprintf(pRes->zCompileParts, sizeof(pRes->zCompileParts), "nvrtc %.1f ms (cpu %.1f), module "
           "load %.1f, rest %.1f ms", pInfo->rCompileSeconds * 1e3, pInfo->rCpuSeconds * 1e3,
           pInfo->rModuleSeconds * 1e3, rRest * 1e3);
}

/* Loads pL on the CUDA backend. Returns 0, 1 (bQueue: not compiled, its
** compile queued), CPU_STOPPED or CPU_TIMED_OUT (a compile waited for was
** left: runtime/cuda-detach.c), or -1 with zErr. */
static int exec_cuda_load(exec_backend *pB, const exec_load *pL, exec_module *pMod,
                          exec_result *pRes, char *zErr, size_t nErr) {
  static const char *const azGeneric[] = {CODEGEN_GENERIC_KERNEL};
  cuda_load_options lo;
  cuda_source eSource = CUDA_SOURCE_NVRTC;
  const char **azKernel = NULL;
  const cuda_module_info *pInfo;
  int rc;
  memset(&lo, 0, sizeof(lo));
  lo.zSource = pL->zSource;
  lo.hSource = pL->hSource;
  lo.ePath = pL->ePath;
  lo.eMode = pL->bQueue ? CUDA_LOAD_QUEUE : CUDA_LOAD_WAIT;
  lo.pbCancel = pL->pbCancel;
  lo.secCompileMax = pB->opt.secCompileMax;
  if (pL->g == NULL) {
    lo.nKernel = 1;
    lo.azKernel = azGeneric;
  } else {
    if ((azKernel = calloc((size_t)pL->g->nKernel + 1, sizeof(char *))) == NULL) {
      snprintf(zErr, nErr, "out of memory");
      return -1;
    }
    for (int i = 0; i < pL->g->nKernel; i++) azKernel[i] = pL->g->aKernel[i].zName;
    lo.nKernel = pL->g->nKernel;
    lo.azKernel = azKernel;
  }
  rc = cuda_module_load(pB->pCuda, &lo, &pMod->pCuda, &eSource, zErr, nErr);
  free(azKernel);
  if (rc == CUDA_COMPILE_STOPPED) return CPU_STOPPED;      /* exec_module_load's codes */
  if (rc == CUDA_COMPILE_TIMED_OUT) return CPU_TIMED_OUT;
  if (rc != 0) return rc;
  pInfo = cuda_module_info_get(pMod->pCuda);
  pRes->bCacheHit = eSource != CUDA_SOURCE_NVRTC;
  pRes->rCompileSeconds = eSource == CUDA_SOURCE_NVRTC ? pInfo->rCompileSeconds : 0;
  if (eSource == CUDA_SOURCE_NVRTC) exec_compile_parts(pInfo, pRes);
  return 0;
}

/* ---- both ---------------------------------------------------------------------- */

/* Loads pL into *pMod on pB's backend. Returns 0, 1 (bQueue: nothing
** loaded, its compile queued), or -1 with *pErr. */
static int exec_module_load(exec_backend *pB, const exec_load *pL, exec_module *pMod,
                            exec_result *pRes, sql_error *pErr) {
  char zErr[8192];
  int rc;
  memset(pMod, 0, sizeof(*pMod));
  rc = pB->eKind == EXEC_BACKEND_CPU ? exec_cpu_load(pB, pL, pMod, pRes, zErr, sizeof(zErr))
                                     : exec_cuda_load(pB, pL, pMod, pRes, zErr, sizeof(zErr));
  if (rc == CPU_STOPPED) {
    sql_error_set(pErr, "57014", -1, "canceling statement due to user request");
    return -1;
  }
  if (rc == CPU_TIMED_OUT) {
    sql_error_set(pErr, "54001", -1, "compiling the %s kernels: %s",
                  pL->g != NULL ? "query's" : "generic", zErr);
    return -1;
  }
  if (rc < 0) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "compiling the %s kernels: %s",
                  pL->g != NULL ? "query's" : "generic", zErr);
    return -1;
  }
  if (rc == 0 && pL->g == NULL) {
    pMod->zEntry = CODEGEN_GENERIC_KERNEL;
    pRes->bGeneric = 1;
  }
  return rc;
}

/* The load of program g's own module, or (g NULL) of the generic one. */
static exec_load exec_load_of(const exec_backend *pB, const cg_program *g, cuda_path ePath,
                              int bQueue, const exec_options *pOpt) {
  exec_load l;
  memset(&l, 0, sizeof(l));
  l.pbCancel = pOpt != NULL ? pOpt->pbCancel : NULL;
  l.g = g;
  l.ePath = ePath;
  l.bQueue = bQueue;
  if (g == NULL) {
    l.zSource = codegen_generic_library;
    l.hSource = pB->hGeneric;
    l.ePath = CUDA_PATH_ANY;           /* they read the PLAIN field at run time */
  } else {
    l.zSource = strbuf_str(&g->src);
    l.hSource = g->hSrc.h1 != 0 || g->hSrc.h2 != 0 ? g->hSrc
                                                   : hash128_of(l.zSource, g->src.n, 0);
  }
  return l;
}

int exec__module_pick(exec_backend *pB, const cg_program **pg, const exec_options *pOpt,
                      cuda_path ePath, exec_module *pMod, exec_result *pRes, sql_error *pErr) {
  const cg_program *g = *pg;
  exec_generic eGeneric = pOpt != NULL ? pOpt->eGeneric : EXEC_GENERIC_ON;
  exec_load own = exec_load_of(pB, g, ePath, 0, pOpt), gen = exec_load_of(pB, NULL, ePath, 0, pOpt);
  int rc;
  if (g->pGeneric != NULL && eGeneric == EXEC_GENERIC_ALWAYS) {
    if (exec_module_load(pB, &gen, pMod, pRes, pErr) != 0) return -1;
    *pg = g->pGeneric;
    return 0;
  }
  if (g->pGeneric != NULL && eGeneric == EXEC_GENERIC_ON) {
    own.bQueue = gen.bQueue = 1;
    if ((rc = exec_module_load(pB, &own, pMod, pRes, pErr)) <= 0) return rc;
    if ((rc = exec_module_load(pB, &gen, pMod, pRes, pErr)) < 0) return -1;
    if (rc == 0) {
      *pg = g->pGeneric;
      return 0;
    }
    own.bQueue = 0;                    /* the generic kernels are not ready */
  }
  return exec_module_load(pB, &own, pMod, pRes, pErr);
}

void exec__module_free(exec_backend *pB, exec_module *pMod) {
  (void)pB;
  cpu_module_free(pMod->pCpu);
  cuda_module_release(pMod->pCuda);
  memset(pMod, 0, sizeof(*pMod));
}

void exec__generic_prepare(exec_backend *pB) {
  exec_load gen;
  exec_module mod;
  exec_result res;
  sql_error err;
  pB->hGeneric = hash128_of(codegen_generic_library, strlen(codegen_generic_library), 0);
  gen = exec_load_of(pB, NULL, CUDA_PATH_ANY, 1, NULL);
  memset(&res, 0, sizeof(res));
  /* From a cache at once, else compiled in the background (seconds, once
  ** per cache). A failure only means new shapes wait for their own
  ** kernels; the first that asks says why. */
  if (exec_module_load(pB, &gen, &mod, &res, &err) == 0) exec__module_free(pB, &mod);
}

void exec_backend_compile_wait(exec_backend *pB) {
  if (pB->eKind == EXEC_BACKEND_CUDA && pB->pCuda != NULL) cuda_device_compile_wait(pB->pCuda);
  if (pB->eKind == EXEC_BACKEND_CPU && pB->pCompiler != NULL) compileq_wait(pB->pCompiler);
}
