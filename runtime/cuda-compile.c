/*
** runtime/cuda-compile.c — NVRTC: a module's source compiled into CUBINs
** (or PTX), with the options of a tier, as one program or as one program
** per kernel run on a few threads at once. Loading the result and caching
** it are cuda-module.c's and cuda-cache.c's.
**
** How many programs: a query's module is the prelude, the device library
** and 3 to 7 kernels (BUILD per dimension, INIT, SCAN, FINAL). Codegen
** guards each kernel with `#if !defined(SQ_KERNELS) || (SQ_KERNELS >> i &
** 1)`: defined as a mask, the text is the kernels of its bits and the
** helpers they use, an NVRTC program of its own. A split module is
** d->nProgram programs at most (cuda__compile_group): the SCAN — the
** kernel with the most text — alone, the others in kernel order in the
** rest; 1 (CUDA_PROGRAMS_DEFAULT, cudaInt.h) is the module whole. The
** programs compile on threads at once (NVRTC is thread-safe for distinct
** programs: nvrtc.h marks only nvrtcGetTypeName as not), but measured the
** wait was about the sum of their CPU times, and each program pays a
** fixed ~20 ms (front end over the prelude and the library's
** declarations, NVVM's and ptxas's start) and compiles again the helpers
** its kernels share with the others: one program per kernel (the layout
** before) cost Q4.1's fast tier 190-250 ms, the SCAN and the rest 128-155,
** the module whole 87-100 (a 2-core VM, bench/RESULTS.md). So the default
** is whole; $STARQ_NVRTC_PROGRAMS compares the others on a host with
** cores to spare (bench/device.sh nvrtc-time).
**
** Tiers: CUDA_TIER_OPTIMIZED is NVRTC's defaults (NVVM -O3, ptxas -O3).
** CUDA_TIER_FAST adds --Ofast-compile=max: NVVM inlines nothing and
** ptxas does not optimise, so a SCAN compiles in a quarter of the time
** (the measured figures are in bench/RESULTS.md) into a CUBIN ~3x as large
** and slower; cuda-tier.c replaces it with the optimized module soon
** after. (--Ofast-compile=mid was measured too: its CUBINs are small, but
** a SCAN takes ~1.6x as long as with max.)
**
** A compile error in any program fails the module. The failed kernel
** first in kernel order is reported as a single program's always was: the
** start of its log in the message with the module's hash and the kernel,
** the whole log and the numbered source at ERROR. To name the kernel of
** a failed program of several kernels in a split module, its kernels are
** compiled again one program each (errors are bugs, rare: the time does
** not matter) and the first that fails is the one reported, with its own
** log; a module compiled whole names no kernel, as always.
**
** INTERFACE ROUTINES
**   cuda__compile        a module's programs, compiled (cudaInt.h)
**   cuda__compile_group  which kernels go into which program
**   cuda__compile_library  the device library as relocatable code, for
**                        the linked fast tier (cuda-link.c)
**   cuda__library_options  its options, for its compile and its key
**   cuda__image_is_ptx   whether programs come out as PTX
**   cuda__nvrtc_options  the options of a program, for its compile and
**                        its module's key
*/
#include <pthread.h>
#include <stdatomic.h>
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

/* The fast tier's options; $STARQ_NVRTC_FAST_OPT replaces them (read at
** device open: cuda-lib.c), to measure others (--Ofast-compile=mid, or
** "--Ofast-compile=max --split-compile=4": several, spaces between).
** --split-compile=0 lets NVRTC spread NVVM and ptxas over every core: on
** the H100 host's 16 it cut a whole fast module's compile from 87 / 165 /
** 205 ms to 74 / 110 / 128-140 (Q1.1 / Q2.1 / Q4.3; bench/RESULTS.md),
** where threads of our own gain nothing (NVRTC serialises them). */
const char cuda__zFastOptDefault[] = "--Ofast-compile=max --split-compile=0";

/* Most of NVRTC's log kept in an error message; the rest is in the log. */
#define CUDA_LOG_MAX 2048

/* Kernels in a module that can be grouped: a mask is a 64-bit #if value. */
#define CUDA_GROUP_KERNELS 62

/* One NVRTC program of a module: its inputs (read-only while the threads
** run) and what its compile left, for the caller to collect. */
typedef struct cuda_prog cuda_prog;
struct cuda_prog {
  const char *azOpt[CUDA_NVRTC_NOPT];
  int nOpt;
  char zDefine[40];        /* -DSQ_KERNELS=<mask>, when split */
  char zTime[320];         /* --time=<file>, with $STARQ_NVRTC_TIME */
  int aiKernel[CUDA_GROUP_KERNELS];  /* its kernels (indexes in azKernel) */
  int nName;
  cuda_blob blob;          /* the image; owned until moved into the module's */
  char **azLowered;        /* nName names; owned until moved */
  nvrtcResult rcCompile;   /* of nvrtcCompileProgram: a compile error */
  char *zLog;              /* NVRTC's log of a failed compile; owned */
  int bFailed;
  char zErr[512];          /* any other failure */
  double rSeconds;         /* wall time */
  double rCpu;             /* its thread's CPU time (NVRTC compiles a
                           ** program on the calling thread) */
};

/* The programs of one compile and the next one a thread should take. */
typedef struct cuda_compile_run cuda_compile_run;
struct cuda_compile_run {
  cuda_device *d;
  const char *zSource;
  const char *const *azKernel;
  cuda_prog *aProg;
  int nProg;
  atomic_int iNext;
};

const char *cuda__path_option(cuda_path e) {
  return e == CUDA_PATH_PLAIN ? "-DSQ_PATH=1" : e == CUDA_PATH_PACKED ? "-DSQ_PATH=2" : NULL;
}

int cuda__nvrtc_options(const cuda_device *d, char *zArch, size_t nArch, int bFast,
                        const char *zDefine, const char *zPath, const char **azOpt) {
  int nOpt = 0;
  snprintf(zArch, nArch, "--gpu-architecture=%s", d->info.zArch);
  azOpt[nOpt++] = zArch;
  for (size_t i = 0; i < sizeof(azNvrtcOpt) / sizeof(azNvrtcOpt[0]); i++) {
    azOpt[nOpt++] = azNvrtcOpt[i];
  }
  for (int i = 0; bFast && i < d->nFastOpt; i++) azOpt[nOpt++] = d->azFastOpt[i];
  if (zDefine != NULL) azOpt[nOpt++] = zDefine;
  if (zPath != NULL) azOpt[nOpt++] = zPath;
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

/* Compiles program g of run r, leaving the outcome in g. Any thread. */
static void cuda_prog_compile(cuda_compile_run *r, cuda_prog *g) {
  cuda_device *d = r->d;
  nvrtcProgram prog = NULL;
  nvrtcResult rc;
  double t0 = timer_now(), c0 = cuda_thread_cpu();
  rc = d->api.nvrtcCreateProgram(&prog, r->zSource, "query.cu", 0, NULL, NULL);
  if (rc != NVRTC_SUCCESS) {
    cuda_prog_fail(d, g, rc, "nvrtcCreateProgram");
    return;
  }
  for (int i = 0; i < g->nName; i++) {
    if ((rc = d->api.nvrtcAddNameExpression(prog, r->azKernel[g->aiKernel[i]])) != NVRTC_SUCCESS) {
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
  if ((g->azLowered = calloc((size_t)g->nName, sizeof(char *))) == NULL) {
    g->bFailed = 1;
    snprintf(g->zErr, sizeof(g->zErr), "out of memory");
    goto out_destroy;
  }
  for (int i = 0; i < g->nName; i++) {
    const char *zLow = NULL, *zName = r->azKernel[g->aiKernel[i]];
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

/* A compile thread: takes programs until none is left. */
static void *cuda_compile_worker(void *pArg) {
  cuda_compile_run *r = pArg;
  for (;;) {
    int i = atomic_fetch_add(&r->iNext, 1);
    if (i >= r->nProg) return NULL;
    cuda_prog_compile(r, &r->aProg[i]);
  }
}

/* Reports program g's failed compile of module zHash (kernel zKernel when
** split, else NULL): the message (the first CUDA_LOG_MAX bytes of the
** log, cut at a line end) in zErr, and the whole log and the numbered
** source to the log at ERROR. Returns -1. */
static int cuda_compile_error(cuda_device *d, const cuda_prog *g, const char *zSource,
                              const char *zHash, const char *zKernel, char *zErr, size_t nErr) {
  const char *zRc = d->api.nvrtcGetErrorString(g->rcCompile), *zLog = g->zLog;
  char zTitle[320], zWhich[160] = "";
  int nHead = 0, nLine = 0;
  strbuf src;
  if (zKernel != NULL) snprintf(zWhich, sizeof(zWhich), ", kernel %.100s", zKernel);
  if (zLog != NULL) {
    nHead = (int)strlen(zLog);
    if (nHead > CUDA_LOG_MAX) {
      nHead = CUDA_LOG_MAX;
      while (nHead > 0 && zLog[nHead - 1] != '\n') nHead--;
      if (nHead == 0) nHead = CUDA_LOG_MAX;
    }
  }
  snprintf(zErr, nErr, "NVRTC could not compile the query's kernels: %s (source written to the "
           "log, module %s%s)%s%.*s%s", zRc ? zRc : "NVRTC error", zHash, zWhich,
           zLog ? ":\n" : "", nHead, zLog ? zLog : "",
           zLog && zLog[nHead] != 0 ? "\n... (the rest is in the log)" : "");
  if (log_level_enabled(LOG_LEVEL_ERROR)) {
    snprintf(zTitle, sizeof(zTitle), "cuda: NVRTC could not compile module %s%s for %s: %s; its "
             "log:", zHash, zWhich, d->info.zArch, zRc ? zRc : "NVRTC error");
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

int cuda__compile_group(const char *zSource, int nKernel, int nProg, int *aiProg) {
  size_t *anByte, nMax = 0;
  const char *zPrev = NULL;
  int iPrev = -1, iScan = 0, nRest;
  for (int i = 0; i < nKernel; i++) aiProg[i] = 0;
  if (nProg < 2 || nKernel < 2 || nKernel > CUDA_GROUP_KERNELS) return 1;
  if (nProg > nKernel) nProg = nKernel;
  if ((anByte = calloc((size_t)nKernel, sizeof(size_t))) == NULL) return 1;
  /* A kernel's weight: the bytes from its guard to the next one's (a SCAN
  ** is several times a BUILD). A guard not found weighs 0. */
  for (int i = 0; i < nKernel; i++) {
    char zGuard[48];
    const char *z;
    snprintf(zGuard, sizeof(zGuard), "(SQ_KERNELS >> %d & 1)\n", i);
    if ((z = strstr(zSource, zGuard)) == NULL) continue;
    if (iPrev >= 0) anByte[iPrev] = (size_t)(z - zPrev);
    zPrev = z;
    iPrev = i;
  }
  if (iPrev >= 0) anByte[iPrev] = strlen(zPrev);
  for (int i = 0; i < nKernel; i++) {
    if (anByte[i] > nMax) {
      nMax = anByte[i];
      iScan = i;
    }
  }
  free(anByte);
  /* The others in kernel order, cut into nProg - 1 runs of as many
  ** kernels each as can be (BUILDs beside BUILDs: they share helpers). */
  nRest = nKernel - 1;
  for (int i = 0, j = 0; i < nKernel; i++) {
    if (i == iScan) continue;
    aiProg[i] = 1 + (int)((long)j * (nProg - 1) / nRest);
    j++;
  }
  return nProg;
}

/* The options of relocatable code: -rdc=true and the part of device.cuh
** compiled (SQ_LIB_MODE, codegen/device.cuh): a linked fast-tier program
** its declarations, the library its bodies. */
static const char cuda_zRdc[] = "-rdc=true";
/* Relocatable code is compiled a function at a time (at the fast tier's
** level nothing is inlined, not even the program's own helpers), and the
** driver's linker refuses a kernel that promises ptxas a grid — a resident
** SCAN's __launch_bounds__(1024, 2): 32 registers (codegen/scan.c) — and
** calls a function needing more ("max regcount of 32 calls function ...
** with regcount of 35", found on the H100). So every function of the
** library and of a linked program fits the tightest bound codegen writes;
** a kernel without one calls them as well. */
static const char cuda_zRdcRegs[] = "--maxrregcount=32";
static const char cuda_zLibDecl[] = "-DSQ_LIB_MODE=1";
static const char cuda_zLibBody[] = "-DSQ_LIB_MODE=2";

/* Sets up the options and kernels of each program of the run (aiProg:
** each kernel's program, cuda__compile_group; zArch: the architecture's
** option, formatted here, living as long as the run); bRdc: compiled
** against the library's declarations, to be linked. */
static void cuda_compile_plan(cuda_compile_run *r, int nKernel, const int *aiProg, int bFast,
                              int bRdc, const char *zPath, const char *zHash, char *zArch,
                              size_t nArch) {
  for (int i = 0; i < r->nProg; i++) {
    cuda_prog *g = &r->aProg[i];
    unsigned long long mask = 0;
    for (int k = 0; k < nKernel; k++) {
      if (aiProg[k] != i) continue;
      g->aiKernel[g->nName++] = k;
      mask |= 1ull << k;
    }
    if (r->nProg > 1) snprintf(g->zDefine, sizeof(g->zDefine), "-DSQ_KERNELS=0x%llx", mask);
    g->nOpt = cuda__nvrtc_options(r->d, zArch, nArch, bFast, r->nProg > 1 ? g->zDefine : NULL,
                                  zPath, g->azOpt);
    if (bRdc) {
      g->azOpt[g->nOpt++] = cuda_zRdc;
      g->azOpt[g->nOpt++] = cuda_zLibDecl;
      g->azOpt[g->nOpt++] = cuda_zRdcRegs;
    }
    /* NVRTC's phases (front end, NVVM, ptxas) of each program in a file of
    ** its own, named by the module and its first kernel: to measure. */
    if (r->d->zTimeDir[0] != 0 && g->nName > 0) {
      snprintf(g->zTime, sizeof(g->zTime), "--time=%s/%.16s-%s%s.csv", r->d->zTimeDir, zHash,
               bFast ? "fast-" : "opt-", r->azKernel[g->aiKernel[0]]);
      g->azOpt[g->nOpt++] = g->zTime;
    }
  }
}

double cuda__compile_warm(cuda_device *d) {
  static const char zWarm[] = "__global__ void sq_warm(int *p) { *p = 1; }\n";
  cuda_compile_run r;
  cuda_prog g;
  char zArch[64];
  memset(&r, 0, sizeof(r));
  memset(&g, 0, sizeof(g));
  r.d = d;
  r.zSource = zWarm;
  g.nOpt = cuda__nvrtc_options(d, zArch, sizeof(zArch), 1, NULL, NULL, g.azOpt);
  cuda_prog_compile(&r, &g);       /* no name expressions: nothing is looked up */
  free(g.azLowered);
  free(g.blob.p);
  free(g.zLog);
  if (g.bFailed) {
    log_printf(LOG_LEVEL_WARN, "cuda: NVRTC's warm-up compile failed: %s",
               g.zErr[0] ? g.zErr : "a compile error");
    return -1;
  }
  return g.rSeconds;
}

int cuda__library_options(const cuda_device *d, char *zArch, size_t nArch, const char **azOpt) {
  int nOpt = cuda__nvrtc_options(d, zArch, nArch, 1, cuda_zLibBody, NULL, azOpt);
  azOpt[nOpt++] = cuda_zRdc;
  azOpt[nOpt++] = cuda_zRdcRegs;
  return nOpt;
}

int cuda__compile_library(cuda_device *d, const char *zSource, cuda_blob *p,
                          cuda_compile_stats *pStats, char *zErr, size_t nErr) {
  cuda_compile_run r;
  cuda_prog g;
  char zArch[64];
  memset(&r, 0, sizeof(r));
  memset(&g, 0, sizeof(g));
  memset(pStats, 0, sizeof(*pStats));
  r.d = d;
  r.zSource = zSource;
  g.nOpt = cuda__library_options(d, zArch, sizeof(zArch), g.azOpt);
  cuda_prog_compile(&r, &g);       /* no name expressions: no kernels */
  pStats->rWall = pStats->rSlowest = g.rSeconds;
  pStats->rCpu = pStats->rSlowestCpu = g.rCpu;
  pStats->bRdc = 1;
  if (g.bFailed) {
    if (g.zErr[0] != 0) {
      snprintf(zErr, nErr, "%s", g.zErr);
    } else {
      cuda_compile_error(d, &g, zSource, "device-lib", NULL, zErr, nErr);
    }
    free(g.blob.p);
    free(g.zLog);
    free(g.azLowered);
    return -1;
  }
  free(g.azLowered);                /* of no names */
  *p = g.blob;
  return 0;
}

/* Links every program of image p with the library (cuda-link.c), on this
** thread, whose context is made current. A device that only compiles has
** no linker: its programs stay relocatable. Returns 0, or -1 with zErr. */
static int cuda_compile_link(cuda_device *d, cuda_image *p, cuda_compile_stats *pStats,
                             char *zErr, size_t nErr) {
  double t0 = timer_now();
  int rc = cuda__link_library(d, zErr, nErr);
  pStats->rLib = timer_now() - t0;          /* what the programs waited for it */
  if (rc != 0) return -1;
  if (d->bCompileOnly) return 0;
  if (cuda__enter(d, zErr, nErr) != 0) return -1;
  t0 = timer_now();
  for (int i = 0; i < p->nProg; i++) {
    if (cuda__link_program(d, &p->aProg[i], zErr, nErr) != 0) return -1;
  }
  pStats->rLink = timer_now() - t0;
  return 0;
}

/* Frees what the compile of g left in it. */
static void cuda_prog_free(cuda_prog *g) {
  free(g->blob.p);
  for (int j = 0; g->azLowered != NULL && j < g->nName; j++) free(g->azLowered[j]);
  free(g->azLowered);
  free(g->zLog);
  memset(&g->blob, 0, sizeof(g->blob));
  g->azLowered = NULL;
  g->zLog = NULL;
}

/* Program g of run r failed with several kernels in it: compiles each of
** them alone, in kernel order, until one fails, and leaves that one's
** outcome in *pOne (to report as a single kernel's error). Returns its
** kernel, or -1 if every kernel compiles alone (*pOne is then g's: the
** error is in how they go together). */
static int cuda_prog_isolate(cuda_compile_run *r, const cuda_prog *g, cuda_prog *pOne) {
  for (int i = 0; i < g->nName; i++) {
    int k = g->aiKernel[i];
    memset(pOne, 0, sizeof(*pOne));
    pOne->aiKernel[0] = k;
    pOne->nName = 1;
    snprintf(pOne->zDefine, sizeof(pOne->zDefine), "-DSQ_KERNELS=0x%llx", 1ull << k);
    /* g's options with this mask, and no --time file for the retry. */
    for (int j = 0; j < g->nOpt; j++) {
      if (g->azOpt[j] == g->zTime) continue;
      pOne->azOpt[pOne->nOpt++] = g->azOpt[j] == g->zDefine ? pOne->zDefine : g->azOpt[j];
    }
    cuda_prog_compile(r, pOne);
    if (pOne->bFailed) return k;
    cuda_prog_free(pOne);
  }
  return -1;
}

/* Reports the failed compile of run r (module zHash): the failed kernel
** first in kernel order, compiled alone if it shared its program.
** Returns -1 with zErr. */
static int cuda_compile_failed(cuda_compile_run *r, const char *zHash, char *zErr, size_t nErr) {
  cuda_prog one, *pBest = NULL;
  int iBest = -1, bOne = 0;
  for (int i = 0; i < r->nProg; i++) {
    cuda_prog *g = &r->aProg[i], x;
    int k = g->nName > 0 ? g->aiKernel[0] : 0, kOne = -1;
    if (!g->bFailed || (iBest >= 0 && k > iBest)) continue;   /* aiKernel is ascending */
    if (r->nProg > 1 && g->nName > 1 && g->zErr[0] == 0) kOne = cuda_prog_isolate(r, g, &x);
    if (kOne >= 0 && iBest >= 0 && kOne > iBest) {
      cuda_prog_free(&x);
      continue;
    }
    if (bOne) cuda_prog_free(&one);
    bOne = kOne >= 0;
    if (bOne) one = x;
    pBest = bOne ? &one : g;
    iBest = bOne ? kOne : k;
  }
  if (pBest == NULL) {                 /* not reached: a program failed */
    snprintf(zErr, nErr, "NVRTC failed");
  } else if (pBest->zErr[0] != 0) {
    snprintf(zErr, nErr, "%s", pBest->zErr);
  } else {
    char zKernels[160] = "";
    size_t n = 0;
    /* One kernel: its name; several that each compile alone: all of
    ** them; a module compiled whole: none (as always). */
    for (int j = 0; r->nProg > 1 && j < pBest->nName && n < sizeof(zKernels); j++) {
      n += (size_t)snprintf(zKernels + n, sizeof(zKernels) - n, "%s%.60s", j ? "+" : "",
                            r->azKernel[pBest->aiKernel[j]]);
    }
    cuda_compile_error(r->d, pBest, r->zSource, zHash, r->nProg > 1 ? zKernels : NULL, zErr,
                       nErr);
  }
  if (bOne) cuda_prog_free(&one);
  return -1;
}

int cuda__compile(cuda_device *d, const char *zSource, const char *zHash, int nKernel,
                  const char *const *azKernel, int bSplit, cuda_tier eTier, cuda_path ePath,
                  int bLink, cuda_image *p, cuda_compile_stats *pStats, char *zErr, size_t nErr) {
  cuda_compile_run r;
  pthread_t aThread[16];
  char zArchOpt[64];
  int nThread, nStarted = 0, rc = -1, bFailed = 0;
  int *aiProg = NULL;
  double t0 = timer_now();

  memset(p, 0, sizeof(*p));
  memset(pStats, 0, sizeof(*pStats));
  if (nKernel <= 0) {                /* the callers' check; here for the sizes below */
    snprintf(zErr, nErr, "a module needs at least one kernel");
    return -1;
  }
  memset(&r, 0, sizeof(r));
  r.d = d;
  r.zSource = zSource;
  r.azKernel = azKernel;
  atomic_init(&r.iNext, 0);
  if ((aiProg = calloc((size_t)nKernel, sizeof(int))) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  r.nProg = cuda__compile_group(zSource, nKernel, bSplit ? d->nProgram : 1, aiProg);
  if ((r.aProg = calloc((size_t)r.nProg, sizeof(cuda_prog))) == NULL) {
    free(aiProg);
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  /* Only the fast tier links; the optimized one is whole, every helper
  ** inlined. A library not compiled yet compiles beside the programs. */
  bLink = bLink && eTier == CUDA_TIER_FAST && atomic_load(&d->bLink);
  pStats->bRdc = bLink;
  if (bLink) cuda__link_prepare(d);
  cuda_compile_plan(&r, nKernel, aiProg, eTier == CUDA_TIER_FAST, bLink,
                    cuda__path_option(ePath), zHash, zArchOpt, sizeof(zArchOpt));

  /* This thread compiles too; the others are started per compile (a few
  ** tens of microseconds against tens of milliseconds a program). A
  ** thread that cannot be started leaves its share to the rest. The
  ** SCAN's program is the first: with one thread it starts at once. */
  nThread = d->nCompileThread < r.nProg ? d->nCompileThread : r.nProg;
  if (nThread > (int)(sizeof(aThread) / sizeof(aThread[0]))) {
    nThread = (int)(sizeof(aThread) / sizeof(aThread[0]));
  }
  for (int i = 1; i < nThread; i++) {
    if (pthread_create(&aThread[nStarted], NULL, cuda_compile_worker, &r) == 0) nStarted++;
  }
  pStats->rStart = timer_now() - t0;
  cuda_compile_worker(&r);
  for (int i = 0; i < nStarted; i++) pthread_join(aThread[i], NULL);
  pStats->rWall = timer_now() - t0;

  pStats->nProg = r.nProg;
  for (int i = 0; i < r.nProg; i++) {
    cuda_prog *g = &r.aProg[i];
    if (g->rSeconds > pStats->rSlowest) pStats->rSlowest = g->rSeconds;
    if (g->rCpu > pStats->rSlowestCpu) pStats->rSlowestCpu = g->rCpu;
    pStats->rCpu += g->rCpu;
    if (i < CUDA_STATS_PROG) {
      pStats->aProg[i].rWall = g->rSeconds;
      pStats->aProg[i].rCpu = g->rCpu;
      pStats->aProg[i].nKernel = g->nName;
    }
    bFailed |= g->bFailed;
  }
  if (bFailed) {
    cuda_compile_failed(&r, zHash, zErr, nErr);
    goto out_free;
  }

  /* Every program compiled: their images and names become the module's. */
  p->aProg = calloc(r.nProg > 1 ? (size_t)r.nProg : 1, sizeof(cuda_blob));
  p->azLowered = calloc((size_t)nKernel + 1, sizeof(char *));
  if (p->aProg == NULL || p->azLowered == NULL) {
    snprintf(zErr, nErr, "out of memory");
    goto out_free;
  }
  p->nProg = r.nProg;
  p->nKernel = nKernel;
  if (r.nProg > 1) {
    p->aiProg = aiProg;
    aiProg = NULL;
  }
  for (int i = 0; i < r.nProg; i++) {
    cuda_prog *g = &r.aProg[i];
    p->aProg[i] = g->blob;
    memset(&g->blob, 0, sizeof(g->blob));
    for (int j = 0; j < g->nName; j++) {
      p->azLowered[g->aiKernel[j]] = g->azLowered[j];
      g->azLowered[j] = NULL;
    }
  }
  if (bLink && cuda_compile_link(d, p, pStats, zErr, nErr) != 0) goto out_free;
  rc = 0;
out_free:
  for (int i = 0; i < r.nProg; i++) cuda_prog_free(&r.aProg[i]);
  free(r.aProg);
  free(aiProg);
  if (rc != 0) cuda__image_free(p);
  return rc;
}
