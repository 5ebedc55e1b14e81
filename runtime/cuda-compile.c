/*
** runtime/cuda-compile.c — NVRTC: a module's text compiled into a CUBIN
** (or PTX) with NVRTC's full optimisation, one program, and each kernel's
** lowered name. Loading the result and caching it are cuda-module.c's and
** cuda-cache.c's.
**
** One program a module: compiling its kernels as several programs on
** threads at once waited about the sum of their CPU times, each program
** paying a fixed ~20 ms and compiling again the helpers its kernels share
** (bench/RESULTS.md, "how many NVRTC programs a module is"); and a new
** shape's first run no longer waits for NVRTC at all (the generic
** kernels run it: runtime/README.md), so the compile's wall time matters
** less than its CPU.
**
** A compile error is a bug in codegen or the device library, and whoever
** fixes it needs the whole of NVRTC's log and the exact text compiled; a
** SQL client needs a message. So the error message carries the start of
** the log and the module's hash, and the whole log and the numbered
** source go to the log (common/log.h) at ERROR.
**
** INTERFACE ROUTINES
**   cuda__compile        a module's text, compiled (cudaInt.h)
**   cuda__image_is_ptx   whether images come out as PTX
**   cuda__nvrtc_options  the options of a module, for its compile and
**                        its key
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* Most of NVRTC's log kept in an error message; the rest is in the log. */
#define CUDA_LOG_MAX 2048

/* The one NVRTC program of a module: its inputs and what its compile
** left, for the caller to collect. */
typedef struct cuda_prog cuda_prog;
struct cuda_prog {
  const char *azOpt[CUDA_NVRTC_NOPT];
  int nOpt;
  cuda_blob blob;          /* the image; owned until moved into the module's */
  char **azLowered;        /* one name per kernel; owned until moved */
  nvrtcResult rcCompile;   /* of nvrtcCompileProgram: a compile error */
  char *zLog;              /* NVRTC's log of a failed compile; owned */
  int bFailed;
  char zErr[512];          /* any other failure */
  double rSeconds;         /* wall time */
  double rCpu;             /* the thread's CPU time (NVRTC compiles on the
                           ** calling thread) */
};

int cuda__nvrtc_options(const cuda_device *d, char *zArch, size_t nArch, const char **azOpt) {
  int nOpt = 0;
  snprintf(zArch, nArch, "--gpu-architecture=%s", d->info.zArch);
  azOpt[nOpt++] = zArch;
  for (size_t i = 0; i < sizeof(azNvrtcOpt) / sizeof(azNvrtcOpt[0]); i++) {
    azOpt[nOpt++] = azNvrtcOpt[i];
  }
  return nOpt;
}

/* Returns the calling thread's CPU time in seconds. */
static double cuda_thread_cpu(void) {
  struct timespec t;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
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

/* Records a failed NVRTC call zWhat of program g. */
static void cuda_prog_fail(cuda_device *d, cuda_prog *g, nvrtcResult rc, const char *zWhat) {
  const char *z = d->api.nvrtcGetErrorString(rc);
  g->bFailed = 1;
  snprintf(g->zErr, sizeof(g->zErr), "%s: %s", zWhat, z ? z : "NVRTC error");
}

int cuda__image_is_ptx(const cuda_device *d) {
  return strncmp(d->info.zArch, "compute_", 8) == 0 || d->api.nvrtcGetCUBIN == NULL;
}

/* Takes the compiled image (CUBIN, or PTX with its NUL) out of prog. */
static void cuda_prog_image(cuda_device *d, nvrtcProgram prog, cuda_prog *g) {
  int bPtx = cuda__image_is_ptx(d);
  nvrtcResult rc;
  size_t n = 0;
  rc = bPtx ? d->api.nvrtcGetPTXSize(prog, &n) : d->api.nvrtcGetCUBINSize(prog, &n);
  if (rc != NVRTC_SUCCESS) {
    cuda_prog_fail(d, g, rc, "nvrtcGetCUBINSize");
    return;
  }
  if (n == 0 || (g->blob.p = malloc(n)) == NULL) {
    g->bFailed = 1;
    snprintf(g->zErr, sizeof(g->zErr), "NVRTC produced no image (%zu bytes) or no memory for it",
             n);
    return;
  }
  rc = bPtx ? d->api.nvrtcGetPTX(prog, (char *)g->blob.p)
            : d->api.nvrtcGetCUBIN(prog, (char *)g->blob.p);
  if (rc != NVRTC_SUCCESS) {
    cuda_prog_fail(d, g, rc, "nvrtcGetCUBIN");
    return;
  }
  g->blob.n = n;
}

/* Compiles s into g, leaving the outcome in g. Any thread. */
static void cuda_prog_compile(cuda_device *d, const cuda_src *s, cuda_prog *g) {
  nvrtcProgram prog = NULL;
  nvrtcResult rc;
  double t0 = timer_now(), c0 = cuda_thread_cpu();
  rc = d->api.nvrtcCreateProgram(&prog, s->zText, "query.cu", 0, NULL, NULL);
  if (rc != NVRTC_SUCCESS) {
    cuda_prog_fail(d, g, rc, "nvrtcCreateProgram");
    return;
  }
  for (int i = 0; i < s->nKernel; i++) {
    if ((rc = d->api.nvrtcAddNameExpression(prog, s->azKernel[i])) != NVRTC_SUCCESS) {
      cuda_prog_fail(d, g, rc, "nvrtcAddNameExpression");
      goto out_destroy;
    }
  }
  if ((rc = d->api.nvrtcCompileProgram(prog, g->nOpt, g->azOpt)) != NVRTC_SUCCESS) {
    g->bFailed = 1;
    g->rcCompile = rc;
    g->zLog = cuda_nvrtc_log(d, prog);
    goto out_destroy;
  }
  cuda_prog_image(d, prog, g);
  if (g->bFailed) goto out_destroy;
  if ((g->azLowered = calloc((size_t)s->nKernel + 1, sizeof(char *))) == NULL) {
    g->bFailed = 1;
    snprintf(g->zErr, sizeof(g->zErr), "out of memory");
    goto out_destroy;
  }
  for (int i = 0; i < s->nKernel; i++) {
    const char *zLow = NULL, *zName = s->azKernel[i];
    rc = d->api.nvrtcGetLoweredName(prog, zName, &zLow);
    if (rc != NVRTC_SUCCESS || zLow == NULL) {
      g->bFailed = 1;
      snprintf(g->zErr, sizeof(g->zErr), "no kernel %.100s in the compiled module "
               "(nvrtcGetLoweredName: %s)", zName, d->api.nvrtcGetErrorString(rc));
      goto out_destroy;
    }
    /* The lowered name belongs to prog: copied before it is destroyed. */
    if ((g->azLowered[i] = strdup(zLow)) == NULL) {
      g->bFailed = 1;
      snprintf(g->zErr, sizeof(g->zErr), "out of memory");
      goto out_destroy;
    }
  }
out_destroy:
  d->api.nvrtcDestroyProgram(&prog);
  g->rSeconds = timer_now() - t0;
  g->rCpu = cuda_thread_cpu() - c0;
}

/* Reports g's failed compile of module zHash: the message (the first
** CUDA_LOG_MAX bytes of the log, cut at a line end) in zErr, and the whole
** log and the numbered source to the log at ERROR. Returns -1. */
static int cuda_compile_error(cuda_device *d, const cuda_prog *g, const char *zSource,
                              const char *zHash, char *zErr, size_t nErr) {
  const char *zRc = d->api.nvrtcGetErrorString(g->rcCompile), *zLog = g->zLog;
  char zTitle[320];
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
           "log, module %s)%s%.*s%s", zRc ? zRc : "NVRTC error", zHash,
           zLog ? ":\n" : "", nHead, zLog ? zLog : "",
           zLog && zLog[nHead] != 0 ? "\n... (the rest is in the log)" : "");
  if (log_level_enabled(LOG_LEVEL_ERROR)) {
    snprintf(zTitle, sizeof(zTitle), "cuda: NVRTC could not compile module %s for %s: %s; its "
             "log:", zHash, d->info.zArch, zRc ? zRc : "NVRTC error");
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
  return -1;
}

int cuda__compile(cuda_device *d, const cuda_src *s, cuda_image *p, cuda_compile_stats *pStats,
                  char *zErr, size_t nErr) {
  cuda_prog g;
  char zArchOpt[64];
  int rc = -1;

  memset(p, 0, sizeof(*p));
  memset(pStats, 0, sizeof(*pStats));
  if (s->nKernel <= 0) {             /* the callers' check; here for the names below */
    snprintf(zErr, nErr, "a module needs at least one kernel");
    return -1;
  }
  memset(&g, 0, sizeof(g));
  g.nOpt = cuda__nvrtc_options(d, zArchOpt, sizeof(zArchOpt), g.azOpt);
  cuda_prog_compile(d, s, &g);
  pStats->rWall = g.rSeconds;
  pStats->rCpu = g.rCpu;
  if (g.bFailed) {
    if (g.zErr[0] != 0) snprintf(zErr, nErr, "%s", g.zErr);
    else cuda_compile_error(d, &g, s->zText, s->zHash, zErr, nErr);
    goto out_free;
  }
  /* Compiled: the image and names become the module's. */
  p->img = g.blob;
  p->nKernel = s->nKernel;
  p->azLowered = g.azLowered;
  memset(&g.blob, 0, sizeof(g.blob));
  g.azLowered = NULL;
  rc = 0;
out_free:
  free(g.blob.p);
  for (int i = 0; g.azLowered != NULL && i < s->nKernel; i++) free(g.azLowered[i]);
  free(g.azLowered);
  free(g.zLog);
  return rc;
}
