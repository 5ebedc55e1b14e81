/*
** tests/test-runtime-cuda-compile.c — how the CUDA backend compiles a
** module, on the mock driver (tests/mock/): a device that only compiles
** (cuda_module_compile loads and caches nothing, a module per path, a
** compile error reported whole); loads queued on the background compiler
** (CUDA_LOAD_QUEUE: nothing compiled now, the module installed and stored
** on disk when its compile ends, found by every later load and by the
** next device); a waited-for load taking its queued job or waiting for
** its running one, so one module never compiles twice at once; a
** background compile that ends after a context rebuild or on a lost
** device, a device closed with jobs queued; a cached file of another
** format ignored, not parsed.
*/
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/log.h"
#include "../runtime/cuda.h"
#include "../runtime/objcache.h"
#include "test-cuda-mock.h"
#include "test.h"

/* Checks that every kernel t_ki of m adds (i + 1) * v per thread. */
static void cctest_check_all(cuda_device *d, cuda_module *m, int nKernel) {
  for (int i = 0; i < nKernel; i++) {
    char zName[16];
    snprintf(zName, sizeof(zName), "t_k%d", i);
    ASSERT_EQ(mocktest_add_run(d, m, zName, 100, 3), (uint64_t)(100 * 3 * (i + 1)));
  }
}

/* Loads lo's module, which must be found where eWant says, and checks its
** nKernel kernels. */
static void cctest_found(cuda_device *d, const cuda_load_options *lo, cuda_source eWant,
                         int nKernel) {
  char zErr[4096];
  cuda_module *m;
  cuda_source e;
  CALL_OK(cuda_module_load(d, lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, eWant);
  cctest_check_all(d, m, nKernel);
  cuda_module_release(m);
}

/* Counts the files of zDir whose name ends in zExt. */
static int cctest_count(const char *zDir, const char *zExt) {
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
** loads nothing and caches nothing, gives each path's text a key of its
** own, and reports a compile error as a load does; a load is refused. */
TEST_IMPL(runtime_cuda_compile_only) {
  cuda_options o = mocktest_options("cudacache");
  char zErr[8192], *zSrc = mocktest_module_source(4, -1), *zBad = mocktest_module_source(4, 3);
  char *zLog;
  cuda_load_options lo = mocktest_load(zSrc, 4);
  int nModule;
  cuda_module_info ci, cp;
  cuda_device *d;
  cuda_module *m = NULL;
  mock_nvrtc n0;
  FILE *fLog;

  o.zCompileOnly = "sm_90";
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  ASSERT(strstr(cuda_device_info_get(d)->zName, "compiling for sm_90 only") != NULL);
  nModule = mocktest_stats().nModule;
  n0 = mocktest_nvrtc();
  CALL_OK(cuda_module_compile(d, &lo, &ci, zErr, sizeof(zErr)));
  lo.ePath = CUDA_PATH_PLAIN;
  CALL_OK(cuda_module_compile(d, &lo, &cp, zErr, sizeof(zErr)));
  lo.ePath = CUDA_PATH_ANY;
  ASSERT_EQ(mocktest_nvrtc().nProgram - n0.nProgram, 2);
  ASSERT_EQ(ci.eSource, CUDA_SOURCE_NVRTC);
  ASSERT(ci.nImage > 0 && cp.nImage > 0);
  ASSERT(ci.rCompileSeconds > 0 && ci.rCpuSeconds > 0);
  ASSERT(ci.rLoadSeconds == ci.rCompileSeconds);
  ASSERT_EQ(strlen(ci.zHash), 32);
  ASSERT(strcmp(ci.zHash, cp.zHash) != 0);       /* a module per path */
  ASSERT_EQ(mocktest_stats().nModule, nModule);
  ASSERT_EQ(cctest_count("cudacache", ".cubin"), 0);

  /* A load needs the driver: refused, with the reason. */
  ASSERT(cuda_module_load(d, &lo, &m, NULL, zErr, sizeof(zErr)) != 0);
  ASSERT(m == NULL);
  ASSERT_STR_EQ(zErr, "a device opened to compile only (no driver) runs nothing");
  lo.nKernel = 0;
  ASSERT(cuda_module_compile(d, &lo, &ci, zErr, sizeof(zErr)) != 0);
  ASSERT_STR_EQ(zErr, "a module needs at least one kernel");

  /* Kernel 3 does not compile: the load's message, the log at ERROR. */
  lo = mocktest_load(zBad, 4);
  fLog = test_log_begin(LOG_LEVEL_ERROR);
  ASSERT(cuda_module_compile(d, &lo, &ci, zErr, sizeof(zErr)) != 0);
  zLog = test_log_end(fLog);
  ASSERT(strstr(zErr, "NVRTC could not compile the query's kernels: ") == zErr);
  ASSERT(strstr(zLog, "cuda: the source of module ") != NULL);
  free(zLog);
  cuda_device_close(d);
  free(zBad);
  free(zSrc);
  return 0;
}

/* Opens the mock's gate after nMs milliseconds, on a thread of its own. */
static void *cctest_gate_later(void *pArg) {
  usleep((useconds_t)(*(const int *)pArg) * 1000);
  mocktest_nvrtc_gate(0);
  return NULL;
}

/* A queued load compiles nothing now and returns no module; the module,
** compiled by the background compiler (once, however many loads queue
** it), is on disk and listed when the compiler is idle, found by every
** later load and by a new device from disk. A waited-for load of a queued
** module takes its job and compiles in the foreground; one of a module
** the background compiler is compiling waits for it and gets its module. */
TEST_IMPL(runtime_cuda_background) {
  cuda_options o = mocktest_options("cudacache");
  char zErr[4096], *zA = mocktest_module_source(3, -1), *zB = mocktest_module_source(2, -1);
  char *zC = mocktest_module_source(4, -1);
  cuda_load_options la = mocktest_load(zA, 3), lb = mocktest_load(zB, 2), lc = mocktest_load(zC, 4);
  cuda_device *d;
  cuda_module *m;
  cuda_source e;
  mock_nvrtc n0, n1;
  pthread_t th;
  int nMs = 200;

  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  mocktest_nvrtc_gate(1);                        /* background compiles wait */
  n0 = mocktest_nvrtc();
  la.eMode = CUDA_LOAD_QUEUE;
  ASSERT_EQ(cuda_module_load(d, &la, &m, &e, zErr, sizeof(zErr)), 1);
  ASSERT(m == NULL);
  ASSERT_EQ(e, CUDA_SOURCE_NVRTC);
  ASSERT_EQ(cuda_module_load(d, &la, &m, &e, zErr, sizeof(zErr)), 1);   /* queued once */
  ASSERT_EQ(cctest_count("cudacache", ".cubin"), 0);

  /* B queued behind A (held at the gate), then waited for: its job is
  ** taken out of the queue and compiled here, in the foreground. */
  lb.eMode = CUDA_LOAD_QUEUE;
  ASSERT_EQ(cuda_module_load(d, &lb, &m, &e, zErr, sizeof(zErr)), 1);
  lb.eMode = CUDA_LOAD_WAIT;
  CALL_OK(cuda_module_load(d, &lb, &m, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_NVRTC);
  ASSERT(!cuda_module_info_get(m)->bBackground);
  cctest_check_all(d, m, 2);
  cuda_module_release(m);
  n1 = mocktest_nvrtc();
  ASSERT_EQ(n1.nProgram - n0.nProgram, 1);       /* B; A waits at the gate */
  ASSERT_EQ(n1.nBackground - n0.nBackground, 0);

  /* A waited for while the background compiler has it: the load waits
  ** for that compile (the gate opens meanwhile) and takes its module. */
  la.eMode = CUDA_LOAD_WAIT;
  ASSERT_EQ(pthread_create(&th, NULL, cctest_gate_later, &nMs), 0);
  CALL_OK(cuda_module_load(d, &la, &m, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(pthread_join(th, NULL), 0);
  ASSERT_EQ(e, CUDA_SOURCE_MEMORY);
  ASSERT(cuda_module_info_get(m)->bBackground);
  ASSERT_EQ(cuda_module_info_get(m)->eSource, CUDA_SOURCE_NVRTC);
  ASSERT(cuda_module_info_get(m)->rCompileSeconds > 0 && cuda_module_info_get(m)->rCpuSeconds > 0);
  ASSERT_STR_EQ(cuda_module_info_get(m)->zMiss, "compiled in the background");
  cctest_check_all(d, m, 3);
  cuda_module_release(m);
  cuda_device_compile_wait(d);
  n1 = mocktest_nvrtc();
  ASSERT_EQ(n1.nProgram - n0.nProgram, 2);       /* A once, in the background; B once */
  ASSERT_EQ(n1.nBackground - n0.nBackground, 1);
  ASSERT_EQ(cctest_count("cudacache", ".cubin"), 2);

  /* C queued and left to the background compiler: listed when it is idle. */
  lc.eMode = CUDA_LOAD_QUEUE;
  ASSERT_EQ(cuda_module_load(d, &lc, &m, &e, zErr, sizeof(zErr)), 1);
  cuda_device_compile_wait(d);
  cctest_found(d, &lc, CUDA_SOURCE_MEMORY, 4);
  cuda_device_close(d);

  /* A new device finds them on disk, a queued load too. */
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  n0 = mocktest_nvrtc();
  cctest_found(d, &lc, CUDA_SOURCE_DISK, 4);
  ASSERT_EQ(mocktest_nvrtc().nProgram, n0.nProgram);
  cuda_device_close(d);
  free(zA);
  free(zB);
  free(zC);
  return 0;
}

/* A background compile ends after a kernel fault and the context's
** rebuild: its module goes into the new context (the mock aborts on
** anything of the old one). A device closed with a job in hand and one
** queued finishes the first, drops the second, leaks none. On a device
** that cannot be rebuilt (last: it poisons the process) the finished
** compile loads nothing, and says so. */
TEST_IMPL(runtime_cuda_background_recover) {
  cuda_options o = mocktest_options("cudacache");
  char zErr[4096], *zSrc = mocktest_module_source(3, -1), *zSrc2 = mocktest_module_source(2, -1);
  char *zLog;
  cuda_load_options lo = mocktest_load(zSrc, 3), lo2 = mocktest_load(zSrc2, 2);
  cuda_device *d;
  cuda_module *m;
  cuda_kernel *k;
  cuda_source e;
  FILE *fLog;
  unsigned iEpoch;

  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  mocktest_nvrtc_gate(1);
  iEpoch = cuda_device_use_begin(d);
  lo.eMode = CUDA_LOAD_QUEUE;
  ASSERT_EQ(cuda_module_load(d, &lo, &m, &e, zErr, sizeof(zErr)), 1);
  CALL_OK(cuda_module_load(d, &lo2, &m, &e, zErr, sizeof(zErr)));
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
  mocktest_nvrtc_gate(0);                        /* now it finishes, in epoch 2 */
  cuda_device_compile_wait(d);
  cctest_found(d, &lo, CUDA_SOURCE_MEMORY, 3);
  cuda_device_close(d);

  /* Closing with one job compiling and one queued. */
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  mocktest_nvrtc_gate(1);
  for (int i = 0; i < 2; i++) {
    /* New texts, so new modules: the first compiles, the second waits. */
    const char *z = i == 0 ? zSrc : zSrc2;
    char *zNew = malloc(strlen(z) + 32);
    cuda_load_options l = mocktest_load(zNew, 3 - i);
    ASSERT(zNew != NULL);
    snprintf(zNew, strlen(z) + 32, "%s/* closing */\n", z);
    l.eMode = CUDA_LOAD_QUEUE;
    ASSERT_EQ(cuda_module_load(d, &l, &m, &e, zErr, sizeof(zErr)), 1);
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
  {
    char *zNew = malloc(strlen(zSrc) + 32);
    cuda_load_options l = mocktest_load(zNew, 3);
    ASSERT(zNew != NULL);
    snprintf(zNew, strlen(zSrc) + 32, "%s/* sticky */\n", zSrc);
    l.eMode = CUDA_LOAD_QUEUE;
    ASSERT_EQ(cuda_module_load(d, &l, &m, &e, zErr, sizeof(zErr)), 1);
    free(zNew);
  }
  CALL_OK(cuda_module_load(d, &lo2, &m, &e, zErr, sizeof(zErr)));
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
  ASSERT(strstr(zLog, ", compiled in the background, could not be loaded: the CUDA context was "
                      "lost") != NULL);
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
  char zErr[4096], zPath[128], *zSrc = mocktest_module_source(2, -1);
  cuda_load_options lo = mocktest_load(zSrc, 2);
  unsigned char aOld[64];
  cuda_device *d;
  cuda_module *m;
  cuda_source e;
  hash128 key;
  unsigned long long h1, h2;
  size_t n = 0;

  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  CALL_OK(cuda_module_load(d, &lo, &m, &e, zErr, sizeof(zErr)));
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
  CALL_OK(cuda_module_load(d, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_NVRTC);
  ASSERT_STR_EQ(cuda_module_info_get(m)->zMiss, "cache format 0x2");
  cctest_check_all(d, m, 2);
  cuda_module_release(m);
  cuda_device_close(d);

  /* Replaced: the next device reads it. */
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  CALL_OK(cuda_module_load(d, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_DISK);
  cuda_module_release(m);
  cuda_device_close(d);
  free(zSrc);
  return 0;
}
