/*
** tests/test-runtime-cuda-tier.c — how the CUDA backend compiles a new
** module fast, on the mock driver (tests/mock/): one NVRTC program per
** kernel compiled at once, the program of a broken kernel reported as a
** single program's compile error always was, codegen's guards checked;
** the fast tier first and the optimized module swapped in by the
** background compiler — the disk cache holding only optimized modules, a
** module in use surviving its replacement, a background compile that ends
** after a context rebuild or on a lost device, a device closed with jobs
** queued; fast modules of one path of packed loads, kept apart by path
** and retired by the optimized module; the fast tier linked with the
** device library, compiled once; a cached file of another format ignored, not parsed; and a
** device that only compiles.
*/
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/log.h"
#include "../runtime/cuda.h"
#include "../runtime/objcache.h"
#include "test-cuda-mock.h"
#include "test.h"

/* Checks that every kernel t_ki of m adds (i + 1) * v per thread. */
static void tiertest_check_all(cuda_device *d, cuda_module *m, int nKernel) {
  for (int i = 0; i < nKernel; i++) {
    char zName[16];
    snprintf(zName, sizeof(zName), "t_k%d", i);
    ASSERT_EQ(mocktest_add_run(d, m, zName, 100, 3), (uint64_t)(100 * 3 * (i + 1)));
  }
}

/* The kernel names t_k0 .. t_k<n-1> into az (room for 8). */
static void tiertest_names(char az[][8], const char **azp, int n) {
  for (int i = 0; i < n; i++) {
    snprintf(az[i], 8, "t_k%d", i);
    azp[i] = az[i];
  }
}

/* Counts the files of zDir whose name ends in zExt. */
static int tiertest_count(const char *zDir, const char *zExt) {
  DIR *p = opendir(zDir);
  struct dirent *e;
  int n = 0;
  size_t nExt = strlen(zExt);
  if (p == NULL) return 0;
  while ((e = readdir(p)) != NULL) {
    size_t nName = strlen(e->d_name);
    n += nName > nExt && strcmp(e->d_name + nName - nExt, zExt) == 0;
  }
  closedir(p);
  return n;
}

/* A device opened to compile only (NVRTC, no driver): cuda_module_compile
** at both tiers, split and whole, loads nothing and caches nothing, and
** reports a compile error as a load does; a load is refused. */
static void tiertest_compile_only(const char **azKernel) {
  cuda_options o = mocktest_options("cudacache");
  cuda_load_options lo = {1, CUDA_COMPILE_OPTIMIZED, CUDA_PATH_ANY, 0};
  char zErr[8192], *zSrc = mocktest_split_source(4, -1, -1), *zLog;
  int nCubin = tiertest_count("cudacache", ".cubin"), nModule = mocktest_stats().nModule;
  cuda_module_info ci, cf, cw;
  cuda_device *d;
  cuda_module *m = NULL;
  mock_nvrtc n0, n1;
  FILE *fLog;

  o.zCompileOnly = "sm_90";
  o.nCompileThread = 4;
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  ASSERT(strstr(cuda_device_info_get(d)->zName, "compiling for sm_90 only") != NULL);
  ASSERT_EQ(cuda_device_info_get(d)->nCompileThread, 4);
  n0 = mocktest_nvrtc();
  CALL_OK(cuda_module_compile(d, zSrc, 4, azKernel, &lo, CUDA_TIER_OPTIMIZED, &ci, zErr,
                              sizeof(zErr)));
  CALL_OK(cuda_module_compile(d, zSrc, 4, azKernel, &lo, CUDA_TIER_FAST, &cf, zErr, sizeof(zErr)));
  CALL_OK(cuda_module_compile(d, zSrc, 4, azKernel, NULL, CUDA_TIER_OPTIMIZED, &cw, zErr,
                              sizeof(zErr)));
  n1 = mocktest_nvrtc();
  ASSERT_EQ(n1.nProgram - n0.nProgram, 2 + 2 + 1);   /* the SCAN's, the rest; whole */
  ASSERT_EQ(n1.nFast - n0.nFast, 2);
  ASSERT_EQ(ci.eSource, CUDA_SOURCE_NVRTC);
  ASSERT_EQ(ci.eTier, CUDA_TIER_OPTIMIZED);
  ASSERT_EQ(cf.eTier, CUDA_TIER_FAST);
  ASSERT_EQ(ci.nProgram, 2);
  ASSERT_EQ(cf.nProgram, 2);
  ASSERT_EQ(ci.aProgram[0].nKernel, 1);        /* t_k1, the most text */
  ASSERT_EQ(ci.aProgram[1].nKernel, 3);
  ASSERT(ci.aProgram[0].rWall > 0 && ci.aProgram[1].rCpu > 0);
  ASSERT_EQ(cw.nProgram, 1);
  ASSERT(ci.nImage > 0 && cf.nImage > 0 && cw.nImage > 0);
  ASSERT(ci.rCompileSeconds > 0 && ci.rSlowestSeconds > 0 && ci.rCpuSeconds > 0);
  ASSERT(ci.rSlowestSeconds <= ci.rCompileSeconds);
  ASSERT(ci.rLoadSeconds == ci.rCompileSeconds);
  ASSERT_EQ(strlen(ci.zHash), 32);
  /* Three modules, three keys: the fast tier's apart, as CUDA_COMPILE_FAST's. */
  ASSERT(strcmp(ci.zHash, cf.zHash) != 0);
  ASSERT(strcmp(ci.zHash, cw.zHash) != 0);
  ASSERT_EQ(mocktest_stats().nModule, nModule);
  ASSERT_EQ(tiertest_count("cudacache", ".cubin"), nCubin);

  /* $STARQ_NVRTC_PROGRAMS (to measure): 3 programs, t_k1's, then the other
  ** kernels in order cut in two; a count past the kernels, one each; 1,
  ** the module whole. */
  {
    static const struct {
      const char *zN;
      int nProg, anKernel[4];
    } aCase[] = {{"3", 3, {1, 2, 1, 0}}, {"99", 4, {1, 1, 1, 1}}, {"1", 1, {4, 0, 0, 0}},
                 {NULL, 1, {4, 0, 0, 0}}};    /* the default: whole */
    for (size_t c = 0; c < sizeof(aCase) / sizeof(aCase[0]); c++) {
      cuda_options o2 = o;
      cuda_device *d2;
      if (aCase[c].zN != NULL) setenv("STARQ_NVRTC_PROGRAMS", aCase[c].zN, 1);
      else o2.nProgram = 0;
      CALL_OK(cuda_device_open(&o2, &d2, zErr, sizeof(zErr)));
      unsetenv("STARQ_NVRTC_PROGRAMS");
      CALL_OK(cuda_module_compile(d2, zSrc, 4, azKernel, &lo, CUDA_TIER_FAST, &cf, zErr,
                                  sizeof(zErr)));
      ASSERT_EQ(cf.nProgram, aCase[c].nProg);
      for (int i = 0; i < aCase[c].nProg; i++) {
        ASSERT_EQ(cf.aProgram[i].nKernel, aCase[c].anKernel[i]);
      }
      cuda_device_close(d2);
    }
  }

  /* A load needs the driver: refused, with the reason. */
  ASSERT(cuda_module_load(d, zSrc, 4, azKernel, &lo, &m, NULL, zErr, sizeof(zErr)) != 0);
  ASSERT(m == NULL);
  ASSERT_STR_EQ(zErr, "a device opened to compile only (no driver) runs nothing");
  ASSERT(cuda_module_compile(d, zSrc, 0, azKernel, &lo, CUDA_TIER_FAST, &cf, zErr,
                             sizeof(zErr)) != 0);
  ASSERT_STR_EQ(zErr, "a module needs at least one kernel");
  free(zSrc);

  /* Kernel 3 does not compile: the load's message, kernel named (its
  ** program shares it with t_k0 and t_k2: each compiled alone to find it). */
  zSrc = mocktest_split_source(4, 3, -1);
  fLog = test_log_begin(LOG_LEVEL_ERROR);
  ASSERT(cuda_module_compile(d, zSrc, 4, azKernel, &lo, CUDA_TIER_FAST, &cf, zErr,
                             sizeof(zErr)) != 0);
  zLog = test_log_end(fLog);
  ASSERT(strstr(zErr, "NVRTC could not compile the query's kernels: ") == zErr);
  ASSERT(strstr(zErr, ", kernel t_k3):\n") != NULL);
  ASSERT(strstr(zLog, "cuda: the source of module ") != NULL);
  free(zLog);
  free(zSrc);
  cuda_device_close(d);
}

/* Two programs, the SCAN's (the kernel of the most text: t_k1) and the
** other kernels', compiled at once and loaded as a CUmodule each; the same
** source unsplit is another module; the split module comes back from disk
** whole. A kernel that does not compile fails the module with its own log
** — in the shared program too, where each kernel is compiled alone to find
** it — and a kernel guarded with the wrong index is caught. */
TEST_IMPL(runtime_cuda_split) {
  cuda_options o = mocktest_options("cudacache");
  cuda_load_options lo = {1, CUDA_COMPILE_OPTIMIZED, CUDA_PATH_ANY, 0};
  char az[4][8], zErr[8192], zWant[256], zHash[33], *zLog, *zSrc = mocktest_split_source(4, -1, -1);
  const char *azKernel[4];
  FILE *fLog;
  cuda_device *d;
  cuda_module *m, *m1;
  cuda_source e;
  mock_nvrtc n0, n1;
  const cuda_module_info *pInfo;

  tiertest_names(az, azKernel, 4);
  o.nCompileThread = 4;
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  n0 = mocktest_nvrtc();
  CALL_OK(cuda_module_load(d, zSrc, 4, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  n1 = mocktest_nvrtc();
  pInfo = cuda_module_info_get(m);
  ASSERT_EQ(e, CUDA_SOURCE_NVRTC);
  ASSERT_EQ(pInfo->eTier, CUDA_TIER_OPTIMIZED);
  ASSERT_EQ(pInfo->nProgram, 2);
  ASSERT_EQ(n1.nProgram - n0.nProgram, 2);     /* the SCAN's (t_k1), the rest */
  ASSERT_EQ(pInfo->aProgram[0].nKernel, 1);
  ASSERT_EQ(pInfo->aProgram[1].nKernel, 3);
  ASSERT_EQ(n1.nFast, n0.nFast);
  ASSERT_GE(n1.nMaxAtOnce, 2);                 /* compiled at once, not in turn */
  ASSERT(pInfo->rCompileSeconds > 0 && pInfo->rSlowestSeconds > 0);
  ASSERT(pInfo->rSlowestSeconds <= pInfo->rCompileSeconds);
  ASSERT_EQ(mocktest_stats().nModule, 2);      /* a CUmodule per program */
  tiertest_check_all(d, m, 4);

  /* Unsplit, the same text is one program: another key. */
  CALL_OK(cuda_module_load(d, zSrc, 4, azKernel, NULL, &m1, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_NVRTC);
  ASSERT_EQ(cuda_module_info_get(m1)->nProgram, 1);
  ASSERT(strcmp(cuda_module_info_get(m1)->zHash, pInfo->zHash) != 0);
  tiertest_check_all(d, m1, 4);
  cuda_module_release(m1);
  cuda_module_release(m);
  cuda_device_close(d);

  /* From disk: two images, two CUmodules, each kernel found in its own. */
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  n0 = mocktest_nvrtc();
  CALL_OK(cuda_module_load(d, zSrc, 4, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_DISK);
  ASSERT_EQ(cuda_module_info_get(m)->nProgram, 2);
  ASSERT_EQ(mocktest_nvrtc().nProgram, n0.nProgram);
  tiertest_check_all(d, m, 4);
  cuda_module_release(m);
  free(zSrc);

  /* Kernel 2 (in the shared program) does not compile: its own log, the
  ** module's hash and the kernel in the message; the log and the source
  ** at ERROR. */
  zSrc = mocktest_split_source(4, 2, -1);
  fLog = test_log_begin(LOG_LEVEL_ERROR);
  ASSERT(cuda_module_load(d, zSrc, 4, azKernel, &lo, &m, NULL, zErr, sizeof(zErr)) != 0);
  zLog = test_log_end(fLog);
  ASSERT(strstr(zErr, "NVRTC could not compile the query's kernels: NVRTC_ERROR_COMPILATION (source "
                      "written to the log, module ") == zErr);
  ASSERT(sscanf(strstr(zErr, ", module "), ", module %32[0-9a-f], kernel t_k2)", zHash) == 1);
  ASSERT(strstr(zErr, ", kernel t_k2):\n") != NULL);
  ASSERT(strstr(zErr, "this is not C") != NULL || strstr(zErr, "error") != NULL);
  snprintf(zWant, sizeof(zWant), " ERROR [%ld] cuda: NVRTC could not compile module %s, kernel "
           "t_k2 for sm_90: NVRTC_ERROR_COMPILATION; its log:\n", (long)syscall(SYS_gettid), zHash);
  ASSERT(strstr(zLog, zWant) != NULL);
  snprintf(zWant, sizeof(zWant), "cuda: the source of module %s (", zHash);
  ASSERT(strstr(zLog, zWant) != NULL);
  ASSERT(strstr(zLog, "  this is not C;\n") != NULL);
  free(zLog);
  free(zSrc);

  /* The SCAN's program does not compile: its kernel named. */
  zSrc = mocktest_split_source(4, 1, -1);
  fLog = test_log_begin(LOG_LEVEL_ERROR);
  ASSERT(cuda_module_load(d, zSrc, 4, azKernel, &lo, &m, NULL, zErr, sizeof(zErr)) != 0);
  free(test_log_end(fLog));
  ASSERT(strstr(zErr, ", kernel t_k1):\n") != NULL);
  free(zSrc);

  /* Kernel 1 guarded as kernel 0: program 0 holds two kernels. */
  zSrc = mocktest_split_source(4, -1, 1);
  ASSERT(cuda_module_load(d, zSrc, 4, azKernel, &lo, &m, NULL, zErr, sizeof(zErr)) != 0);
  ASSERT(strstr(zErr, ", kernel t_k0):\n") != NULL);
  ASSERT(strstr(zErr, "with -DSQ_KERNELS=0x1 the program defines 2 kernels") != NULL);
  free(zSrc);
  cuda_device_close(d);
  tiertest_compile_only(azKernel);
  return 0;
}

/* A fast compile of one path (-DSQ_PATH: the plain side of packed loads, or
** the decode) is found only by loads of that path, a module per path; the
** optimized module (both paths, one background compile) then serves every
** load and retires the fast modules of each path. */
TEST_IMPL(runtime_cuda_tier_paths) {
  cuda_options o = mocktest_options("cudacache");
  cuda_load_options lo = {1, CUDA_COMPILE_TIERED, CUDA_PATH_PLAIN, 0};
  char az[3][8], zErr[4096], *zSrc = mocktest_split_source(3, -1, -1);
  const char *azKernel[3];
  cuda_device *d;
  cuda_module *mPlain, *mPacked, *mAny, *mOpt, *m;
  cuda_source e;
  mock_nvrtc n0;
  int nPlain0, nPacked0, nPlain, nPacked, nModule0;

  tiertest_names(az, azKernel, 3);
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  mocktest_nvrtc_gate(1);                      /* the optimized compile waits */
  n0 = mocktest_nvrtc();
  nModule0 = mocktest_stats().nModule;
  mocktest_nvrtc_paths(&nPlain0, &nPacked0);
  CALL_OK(cuda_module_load(d, zSrc, 3, azKernel, &lo, &mPlain, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_NVRTC);
  ASSERT_EQ(cuda_module_info_get(mPlain)->eTier, CUDA_TIER_FAST);
  mocktest_nvrtc_paths(&nPlain, &nPacked);
  ASSERT_EQ(nPlain - nPlain0, 2);
  ASSERT_EQ(nPacked - nPacked0, 0);
  CALL_OK(cuda_module_load(d, zSrc, 3, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT(m == mPlain);
  ASSERT_EQ(e, CUDA_SOURCE_MEMORY);
  cuda_module_release(m);
  /* Another path is another fast module; so is a run of both. */
  lo.ePath = CUDA_PATH_PACKED;
  CALL_OK(cuda_module_load(d, zSrc, 3, azKernel, &lo, &mPacked, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_NVRTC);
  ASSERT(mPacked != mPlain);
  ASSERT_STR_EQ(cuda_module_info_get(mPacked)->zHash, cuda_module_info_get(mPlain)->zHash);
  mocktest_nvrtc_paths(&nPlain, &nPacked);
  ASSERT_EQ(nPlain - nPlain0, 2);
  ASSERT_EQ(nPacked - nPacked0, 2);
  lo.ePath = CUDA_PATH_ANY;
  CALL_OK(cuda_module_load(d, zSrc, 3, azKernel, &lo, &mAny, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_NVRTC);
  ASSERT(mAny != mPlain && mAny != mPacked);
  /* A module of both paths serves a run of one path too. */
  lo.ePath = CUDA_PATH_PLAIN;
  CALL_OK(cuda_module_load(d, zSrc, 3, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT(m == mAny);
  cuda_module_release(m);
  tiertest_check_all(d, mPlain, 3);
  tiertest_check_all(d, mPacked, 3);
  tiertest_check_all(d, mAny, 3);
  cuda_module_release(mPlain);
  cuda_module_release(mPacked);
  cuda_module_release(mAny);
  ASSERT_EQ(mocktest_stats().nModule - nModule0, 6);
  ASSERT_EQ(mocktest_nvrtc().nFast - n0.nFast, 6);

  /* One background compile (one key), both paths; every fast module goes. */
  mocktest_nvrtc_gate(0);
  cuda_device_compile_wait(d);
  ASSERT_EQ(mocktest_nvrtc().nProgram - n0.nProgram, 8);
  ASSERT_EQ(mocktest_stats().nModule - nModule0, 2);
  for (int i = 0; i < 3; i++) {
    lo.ePath = (cuda_path)i;
    CALL_OK(cuda_module_load(d, zSrc, 3, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
    ASSERT_EQ(e, CUDA_SOURCE_MEMORY);
    ASSERT_EQ(cuda_module_info_get(m)->eTier, CUDA_TIER_OPTIMIZED);
    if (i == 0) mOpt = m;
    ASSERT(m == mOpt);
    cuda_module_release(m);
  }
  cuda_device_close(d);
  free(zSrc);
  return 0;
}

/* Loads zSrc's 2 kernels with lo, checks that its programs were (bRdc)
** or were not linked with the device library and that the mock has
** linked nLinked programs since l0, runs them, and releases the module. */
static void linktest_load2(cuda_device *d, const char *zSrc, const char **azKernel,
                           const cuda_load_options *lo, int bRdc, mock_link l0, int nLinked) {
  char zErr[4096];
  cuda_module *m;
  CALL_OK(cuda_module_load(d, zSrc, 2, azKernel, lo, &m, NULL, zErr, sizeof(zErr)));
  ASSERT_EQ(cuda_module_info_get(m)->bRdc, bRdc);
  ASSERT_EQ(mocktest_link().nLinked - l0.nLinked, nLinked);
  tiertest_check_all(d, m, 2);
  cuda_module_release(m);
}

/* The linked fast tier (runtime/cuda-link.c): every fast program is
** compiled relocatable against the device library's declarations and
** linked (the mock refuses to load one that is not), the library made
** once per device (from its open) and then read from disk by the next
** device; the
** optimized tier compiles whole, not linked; bWhole and
** $STARQ_NVRTC_LINK=0 compile the fast tier whole. */
TEST_IMPL(runtime_cuda_tier_link) {
  cuda_options o = mocktest_options("cudacache");
  cuda_load_options lo = {1, CUDA_COMPILE_TIERED, CUDA_PATH_PLAIN, 0};
  char az[3][8], zErr[4096], *zSrc = mocktest_split_source(3, -1, -1);
  char *zSrc2 = mocktest_split_source(2, -1, -1);
  const char *azKernel[3];
  cuda_device *d;
  cuda_module *m, *mOpt;
  mock_link l0, l;
  FILE *fLog;
  char *zLog;
  int nLib;

  tiertest_names(az, azKernel, 3);
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  mocktest_nvrtc_gate(1);                      /* the optimized compile waits */
  l0 = mocktest_link();
  CALL_OK(cuda_module_load(d, zSrc, 3, azKernel, &lo, &m, NULL, zErr, sizeof(zErr)));
  ASSERT_EQ(cuda_module_info_get(m)->eTier, CUDA_TIER_FAST);
  ASSERT_EQ(cuda_module_info_get(m)->bRdc, 1);
  l = mocktest_link();
  /* Made once for the device, at its open or by this compile. */
  ASSERT(l.nLib >= 1 && l.nLib - l0.nLib <= 1);
  nLib = l.nLib;
  ASSERT_EQ(l.nRdc - l0.nRdc, 2);
  ASSERT_EQ(l.nLinked - l0.nLinked, 2);        /* one link a program */
  ASSERT_EQ(l.nLive, 0);
  ASSERT_EQ(tiertest_count("cudacache", ".lib"), 1);
  tiertest_check_all(d, m, 3);
  cuda_module_release(m);
  /* Another shape links with the same library. */
  lo.ePath = CUDA_PATH_PACKED;
  linktest_load2(d, zSrc2, azKernel, &lo, 1, l0, 4);
  ASSERT_EQ(mocktest_link().nLib, nLib);
  /* The optimized tier compiles whole. */
  mocktest_nvrtc_gate(0);
  cuda_device_compile_wait(d);
  lo.eMode = CUDA_COMPILE_OPTIMIZED;
  CALL_OK(cuda_module_load(d, zSrc, 3, azKernel, &lo, &mOpt, NULL, zErr, sizeof(zErr)));
  ASSERT_EQ(cuda_module_info_get(mOpt)->eTier, CUDA_TIER_OPTIMIZED);
  ASSERT_EQ(cuda_module_info_get(mOpt)->bRdc, 0);
  l = mocktest_link();
  ASSERT_EQ(l.nRdc - l0.nRdc, 4);
  ASSERT_EQ(l.nLinked - l0.nLinked, 4);
  tiertest_check_all(d, mOpt, 3);
  cuda_module_release(mOpt);
  /* Whole on request: no relocatable program, no link. */
  lo.eMode = CUDA_COMPILE_FAST;
  lo.bWhole = 1;
  linktest_load2(d, zSrc2, azKernel, &lo, 0, l0, 4);
  cuda_device_close(d);

  /* The next device reads the library from disk: no compile of it, but
  ** NVRTC is warmed up once (the library's thread, joined at the close),
  ** which counts as no compile. */
  ASSERT_EQ(mocktest_link().nWarm, l0.nWarm);  /* the first device compiled it */
  lo.bWhole = 0;
  lo.ePath = CUDA_PATH_ANY;
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  linktest_load2(d, zSrc2, azKernel, &lo, 1, l0, 6);
  ASSERT_EQ(mocktest_link().nLib, nLib);
  cuda_device_close(d);
  ASSERT_EQ(mocktest_link().nWarm, l0.nWarm + 1);

  /* $STARQ_NVRTC_LINK=0: the fast tier of the process compiles whole. */
  setenv("STARQ_NVRTC_LINK", "0", 1);
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  unsetenv("STARQ_NVRTC_LINK");
  lo.ePath = CUDA_PATH_PLAIN;
  linktest_load2(d, zSrc2, azKernel, &lo, 0, l0, 6);
  cuda_device_close(d);

  /* A warm-up that fails is only logged (WARN): the device compiles and
  ** links as before. */
  mocktest_nvrtc_fail_warm(1);
  fLog = test_log_begin(LOG_LEVEL_WARN);
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  linktest_load2(d, zSrc2, azKernel, &lo, 1, l0, 8);
  cuda_device_close(d);
  zLog = test_log_end(fLog);
  mocktest_nvrtc_fail_warm(0);
  ASSERT(strstr(zLog, "cuda: NVRTC's warm-up compile failed") != NULL);
  ASSERT_EQ(mocktest_link().nWarm, l0.nWarm + 2);
  free(zLog);
  free(zSrc2);
  free(zSrc);
  return 0;
}

/* The fast tier first, the optimized module after the background compile;
** a reference to the fast module keeps working after the swap, and its
** last release unloads it; only the optimized module is on disk, and a new
** device starts on it. A CUDA_COMPILE_OPTIMIZED load never takes the fast
** tier; CUDA_COMPILE_FAST keeps it apart. */
TEST_IMPL(runtime_cuda_tier) {
  cuda_options o = mocktest_options("cudacache");
  cuda_load_options lo = {1, CUDA_COMPILE_TIERED, CUDA_PATH_ANY, 0};
  char az[3][8], zErr[4096], *zSrc = mocktest_split_source(3, -1, -1), *zSrc2;
  const char *azKernel[3];
  cuda_device *d;
  cuda_module *mFast, *mOpt, *m;
  cuda_source e;
  mock_nvrtc n0, n1;

  tiertest_names(az, azKernel, 3);
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  mocktest_nvrtc_gate(1);                      /* the optimized compile waits */
  n0 = mocktest_nvrtc();
  CALL_OK(cuda_module_load(d, zSrc, 3, azKernel, &lo, &mFast, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_NVRTC);
  ASSERT_EQ(cuda_module_info_get(mFast)->eTier, CUDA_TIER_FAST);
  ASSERT_EQ(cuda_module_info_get(mFast)->nProgram, 2);
  ASSERT_EQ(mocktest_nvrtc().nFast - n0.nFast, 2);
  tiertest_check_all(d, mFast, 3);
  /* Until the optimized module is in, the fast one is what loads find. */
  CALL_OK(cuda_module_load(d, zSrc, 3, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT(m == mFast);
  ASSERT_EQ(e, CUDA_SOURCE_MEMORY);
  cuda_module_release(m);
  ASSERT_EQ(tiertest_count("cudacache", ".cubin"), 0);   /* the fast tier is never stored */

  mocktest_nvrtc_gate(0);
  cuda_device_compile_wait(d);
  n1 = mocktest_nvrtc();
  ASSERT_EQ(n1.nProgram - n0.nProgram, 4);     /* 2 fast, then 2 optimized */
  ASSERT_EQ(n1.nFast - n0.nFast, 2);
  ASSERT_EQ(tiertest_count("cudacache", ".cubin"), 1);
  CALL_OK(cuda_module_load(d, zSrc, 3, azKernel, &lo, &mOpt, &e, zErr, sizeof(zErr)));
  ASSERT(mOpt != mFast);
  ASSERT_EQ(e, CUDA_SOURCE_MEMORY);
  ASSERT_EQ(cuda_module_info_get(mOpt)->eTier, CUDA_TIER_OPTIMIZED);
  ASSERT_STR_EQ(cuda_module_info_get(mOpt)->zHash, cuda_module_info_get(mFast)->zHash);
  /* Its info has the background compile's costs, CPU times included. */
  ASSERT_EQ(cuda_module_info_get(mOpt)->eSource, CUDA_SOURCE_NVRTC);
  ASSERT_EQ(cuda_module_info_get(mOpt)->nProgram, 2);
  ASSERT(cuda_module_info_get(mOpt)->rCompileSeconds > 0);
  ASSERT(cuda_module_info_get(mOpt)->rSlowestSeconds > 0);
  ASSERT(cuda_module_info_get(mOpt)->rCpuSeconds > 0);
  ASSERT(cuda_module_info_get(mOpt)->rSlowestCpuSeconds > 0);
  ASSERT(cuda_module_info_get(mOpt)->rSlowestCpuSeconds <= cuda_module_info_get(mOpt)->rCpuSeconds);
  /* The replaced module is still loaded for the query that holds it. */
  ASSERT_EQ(mocktest_stats().nModule, 4);
  tiertest_check_all(d, mFast, 3);
  tiertest_check_all(d, mOpt, 3);
  cuda_module_release(mFast);
  ASSERT_EQ(mocktest_stats().nModule, 2);      /* its last release unloaded it */
  cuda_module_release(mOpt);
  cuda_device_close(d);

  /* A restart finds the optimized module on disk. */
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  n0 = mocktest_nvrtc();
  CALL_OK(cuda_module_load(d, zSrc, 3, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_DISK);
  ASSERT_EQ(cuda_module_info_get(m)->eTier, CUDA_TIER_OPTIMIZED);
  ASSERT_EQ(mocktest_nvrtc().nProgram, n0.nProgram);
  tiertest_check_all(d, m, 3);
  cuda_module_release(m);

  /* Optimized only: a fast module in memory is replaced, not used. */
  zSrc2 = mocktest_split_source(2, -1, -1);
  CALL_OK(cuda_module_load(d, zSrc2, 2, azKernel, &lo, &mFast, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(cuda_module_info_get(mFast)->eTier, CUDA_TIER_FAST);
  lo.eMode = CUDA_COMPILE_OPTIMIZED;
  CALL_OK(cuda_module_load(d, zSrc2, 2, azKernel, &lo, &mOpt, &e, zErr, sizeof(zErr)));
  ASSERT(mOpt != mFast);
  ASSERT_EQ(cuda_module_info_get(mOpt)->eTier, CUDA_TIER_OPTIMIZED);
  tiertest_check_all(d, mFast, 2);
  cuda_module_release(mFast);
  cuda_module_release(mOpt);
  cuda_device_compile_wait(d);                 /* its job finds the work done */
  CALL_OK(cuda_module_load(d, zSrc2, 2, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT(m == mOpt);
  cuda_module_release(m);

  /* Fast only (benchmarks): a module of its own, never stored, no job. */
  lo.eMode = CUDA_COMPILE_FAST;
  n0 = mocktest_nvrtc();
  CALL_OK(cuda_module_load(d, zSrc2, 2, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_NVRTC);
  ASSERT_EQ(cuda_module_info_get(m)->eTier, CUDA_TIER_FAST);
  ASSERT(strcmp(cuda_module_info_get(m)->zHash, cuda_module_info_get(mOpt)->zHash) != 0);
  cuda_module_release(m);
  cuda_device_compile_wait(d);
  ASSERT_EQ(mocktest_nvrtc().nProgram - n0.nProgram, 2);
  ASSERT_EQ(mocktest_nvrtc().nFast - n0.nFast, 2);
  ASSERT_EQ(tiertest_count("cudacache", ".cubin"), 2);
  cuda_device_close(d);
  free(zSrc2);
  free(zSrc);
  return 0;
}

/* The background compile of a fast module ends after a kernel fault and
** the context's rebuild: the optimized module goes into the new context
** (the mock aborts on anything of the old one). A device closed with a job
** in hand and one queued finishes the first, drops the second, leaks
** none. On a device that cannot be rebuilt (last: it poisons the process)
** the finished compile loads nothing, and says so. */
TEST_IMPL(runtime_cuda_tier_recover) {
  cuda_options o = mocktest_options("cudacache");
  cuda_load_options lo = {1, CUDA_COMPILE_TIERED, CUDA_PATH_ANY, 0};
  char az[3][8], zErr[4096], *zSrc = mocktest_split_source(3, -1, -1), *zSrc2, *zLog;
  const char *azKernel[3];
  cuda_device *d;
  cuda_module *m;
  cuda_kernel *k;
  cuda_source e;
  FILE *fLog;
  unsigned iEpoch;

  tiertest_names(az, azKernel, 3);
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  mocktest_nvrtc_gate(1);
  iEpoch = cuda_device_use_begin(d);
  CALL_OK(cuda_module_load(d, zSrc, 3, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(cuda_module_info_get(m)->eTier, CUDA_TIER_FAST);
  CALL_OK(cuda_module_kernel(m, "t_k0", &k, zErr, sizeof(zErr)));
  {
    mocktest_add_args a = {0, 10, 1};
    cuda_ptr p;
    CALL_OK(cuda_mem_alloc(d, 8, &p, zErr, sizeof(zErr)));
    a.pSum = p;
    mocktest_fault_launch(1);
    ASSERT(cuda_kernel_launch(d, k, 1, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)) != 0);
    ASSERT(cuda_device_lost(d));
    cuda_mem_free(d, p);
  }
  cuda_module_release(m);
  cuda_device_use_end(d);
  CALL_OK(cuda_device_recover(d, iEpoch, zErr, sizeof(zErr)));
  ASSERT_EQ(cuda_device_epoch(d), 2);
  mocktest_nvrtc_gate(0);                      /* now it finishes, in epoch 2 */
  cuda_device_compile_wait(d);
  CALL_OK(cuda_module_load(d, zSrc, 3, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_MEMORY);
  ASSERT_EQ(cuda_module_info_get(m)->eTier, CUDA_TIER_OPTIMIZED);
  tiertest_check_all(d, m, 3);
  cuda_module_release(m);
  cuda_device_close(d);

  /* Closing with one job compiling and one queued. */
  zSrc2 = mocktest_split_source(2, -1, -1);
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  mocktest_nvrtc_gate(1);
  for (int i = 0; i < 2; i++) {
    /* New texts, so new modules: the first compiles, the second waits. */
    char *z = i == 0 ? zSrc : zSrc2, *zNew = malloc(strlen(z) + 32);
    ASSERT(zNew != NULL);
    snprintf(zNew, strlen(z) + 32, "%s/* closing */\n", z);
    CALL_OK(cuda_module_load(d, zNew, 3 - i, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
    ASSERT_EQ(cuda_module_info_get(m)->eTier, CUDA_TIER_FAST);
    cuda_module_release(m);
    free(zNew);
  }
  mocktest_nvrtc_gate(0);
  cuda_device_close(d);
  ASSERT_EQ(mocktest_stats().nModule, 0);

  /* Sticky: the device stays lost; the finished compile loads nothing. */
  setenv("STARQ_CUDA_MOCK_STICKY", "1", 1);
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  mocktest_nvrtc_gate(1);
  iEpoch = cuda_device_use_begin(d);
  CALL_OK(cuda_module_load(d, zSrc2, 2, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  CALL_OK(cuda_module_kernel(m, "t_k1", &k, zErr, sizeof(zErr)));
  {
    mocktest_add_args a = {0, 10, 1};
    mocktest_fault_launch(1);
    ASSERT(cuda_kernel_launch(d, k, 1, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)) != 0);
  }
  cuda_module_release(m);
  cuda_device_use_end(d);
  ASSERT(cuda_device_recover(d, iEpoch, zErr, sizeof(zErr)) != 0);
  fLog = test_log_begin(LOG_LEVEL_WARN);
  mocktest_nvrtc_gate(0);
  cuda_device_compile_wait(d);
  zLog = test_log_end(fLog);
  ASSERT(strstr(zLog, "'s optimized kernels could not be loaded; its fast-tier kernels stay: "
                      "the CUDA context was lost") != NULL);
  free(zLog);
  ASSERT(cuda_device_lost(d));
  cuda_device_close(d);
  unsetenv("STARQ_CUDA_MOCK_STICKY");
  free(zSrc2);
  free(zSrc);
  return 0;
}

/* A cached file of format 1 (no format word, one image) under a module's
** key, trailer and all, is a miss that says why; the module is compiled
** again and the file replaced. */
TEST_IMPL(runtime_cuda_cache_format) {
  cuda_options o = mocktest_options("cudacache");
  char az[2][8], zErr[4096], zPath[128], *zSrc = mocktest_split_source(2, -1, -1);
  const char *azKernel[2];
  unsigned char aOld[64];
  cuda_device *d;
  cuda_module *m;
  cuda_source e;
  hash128 key;
  unsigned long long h1, h2;
  size_t n = 0;

  tiertest_names(az, azKernel, 2);
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  CALL_OK(cuda_module_load(d, zSrc, 2, azKernel, NULL, &m, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_NVRTC);
  ASSERT(sscanf(cuda_module_info_get(m)->zHash, "%16llx%16llx", &h1, &h2) == 2);
  cuda_module_release(m);
  cuda_device_close(d);

  /* Format 1: u32 nKernel, names, u64 nImage, the image. */
  key.h1 = h1;
  key.h2 = h2;
  memset(aOld, 0, sizeof(aOld));
  aOld[n] = 2;
  n += 4;
  for (int i = 0; i < 2; i++) {
    aOld[n] = 4;
    memcpy(aOld + n + 4, "_Zk0", 4);
    n += 8;
  }
  aOld[n] = 8;
  memcpy(aOld + n + 8, "notanelf", 8);
  n += 16;
  snprintf(zPath, sizeof(zPath), "%016llx%016llx.cubin", h1, h2);
  CALL_OK(objcache_put("cudacache", zPath, aOld, n, key, zErr, sizeof(zErr)));

  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  CALL_OK(cuda_module_load(d, zSrc, 2, azKernel, NULL, &m, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_NVRTC);
  ASSERT_STR_EQ(cuda_module_info_get(m)->zMiss, "cache format 0x2");
  tiertest_check_all(d, m, 2);
  cuda_module_release(m);
  cuda_device_close(d);

  /* Replaced: the next device reads it. */
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  CALL_OK(cuda_module_load(d, zSrc, 2, azKernel, NULL, &m, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_DISK);
  cuda_module_release(m);
  cuda_device_close(d);
  free(zSrc);
  return 0;
}
