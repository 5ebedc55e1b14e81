/*
** tests/test-runtime-cuda-recover.c — a CUDA device that survives a
** kernel fault: the fault loses the context, every call then fails, and
** cuda_device_recover rebuilds it in place — once, however many failed
** queries ask, and only when no hold is taken — after which modules load
** again from the disk cache and kernels run. And the log of a compile
** error: NVRTC's log and the numbered source, under the module's hash.
** And a driver that, like CUDA 13, makes no context again after a fault:
** the rebuild fails and exec_backend_lost() says so.
** All on the mock driver (tests/mock/cuda-mock.c), which aborts the test
** if the backend hands it anything of a context that has ended.
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/log.h"
#include "../runtime/cuda.h"
#include "test-cuda-mock.h"
#include "test-exec.h"
#include "test.h"

extern const char runtime_cpu_shim[];

/* Loads t_add into *ppMod; returns where it came from. */
static cuda_source recovertest_load(cuda_device *d, cuda_module **ppMod, cuda_kernel **pk) {
  const char *azKernel[] = {"t_add"};
  char zErr[4096], *zSrc = mocktest_kernel_source();
  cuda_source e;
  cuda_load_options lo = {.zSource = zSrc, .nKernel = 1, .azKernel = azKernel};
  CALL_OK(cuda_module_load(d, &lo, ppMod, &e, zErr, sizeof(zErr)));
  CALL_OK(cuda_module_kernel(*ppMod, "t_add", pk, zErr, sizeof(zErr)));
  free(zSrc);
  return e;
}

/* Runs t_add on a stream of its own: n threads each add v. Returns the sum. */
static uint64_t recovertest_add(cuda_device *d, cuda_kernel *k, int64_t n, uint64_t v) {
  cuda_stream *s;
  cuda_ptr p;
  uint64_t x = 0;
  mocktest_add_args a = {0, n, v};
  char zErr[1024];
  CALL_OK(cuda_stream_create(d, &s, zErr, sizeof(zErr)));
  CALL_OK(cuda_mem_alloc(d, sizeof(x), &p, zErr, sizeof(zErr)));
  a.pSum = p;
  CALL_OK(cuda_mem_zero_async(d, s, p, sizeof(x), zErr, sizeof(zErr)));
  CALL_OK(cuda_kernel_launch_async(d, s, k, 4, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)));
  CALL_OK(cuda_mem_read_async(d, s, &x, p, sizeof(x), zErr, sizeof(zErr)));
  CALL_OK(cuda_stream_sync(d, s, zErr, sizeof(zErr)));
  cuda_mem_free(d, p);
  cuda_stream_destroy(d, s);
  return x;
}

/* A fault, everything after it failing, a rebuild, and work again; stale
** streams, stale epochs and a rebuild inside a hold. */
TEST_IMPL(runtime_cuda_recover) {
  cuda_options o = mocktest_options("cudacache");
  FILE *fLog = test_log_begin(LOG_LEVEL_INFO);
  cuda_device *d;
  cuda_module *m;
  cuda_kernel *k;
  cuda_stream *s;
  cuda_ptr p, pLost;
  mock_stats st0, st;
  mocktest_add_args a;
  char zErr[1024], *zLog;
  unsigned iEpoch;

  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  /* The primary context is shared: with another user's retain on it, only
  ** a reset rebuilds it (a release would not end it). */
  mocktest_other_user(1);
  iEpoch = cuda_device_use_begin(d);
  ASSERT_EQ(iEpoch, 1);
  ASSERT_EQ(cuda_device_epoch(d), 1);
  ASSERT_EQ(recovertest_load(d, &m, &k), CUDA_SOURCE_NVRTC);
  ASSERT_EQ(recovertest_add(d, k, 100, 3), 300);

  /* Not lost: a rebuild has nothing to do, and inside a hold it is refused. */
  CALL_ERR(cuda_device_recover(d, iEpoch, zErr, sizeof(zErr)),
           "cuda_device_recover called inside a hold (cuda_device_use_begin): end it first");
  st0 = mocktest_stats();

  /* The query that faults: the launch is queued, the sync reports it. */
  CALL_OK(cuda_stream_create(d, &s, zErr, sizeof(zErr)));
  CALL_OK(cuda_mem_alloc(d, 64, &pLost, zErr, sizeof(zErr)));
  a.pSum = pLost;
  a.n = 1;
  a.v = 1;
  mocktest_fault_launch(1);
  CALL_OK(cuda_kernel_launch_async(d, s, k, 1, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)));
  ASSERT(cuda_stream_sync(d, s, zErr, sizeof(zErr)) != 0);
  ASSERT(strstr(zErr, "CUDA_ERROR_ILLEGAL_ADDRESS") != NULL);
  ASSERT(strstr(zErr, "the CUDA context is lost until the device is recovered") != NULL);
  ASSERT(cuda_device_lost(d));

  /* Every call fails now, at once and saying why. */
  CALL_ERR(cuda_mem_alloc(d, 64, &p, zErr, sizeof(zErr)), "the CUDA context was lost to an "
           "earlier kernel fault; the device must be recovered");
  ASSERT(cuda_kernel_launch(d, k, 1, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)) != 0);
  ASSERT(cuda_stream_sync(d, s, zErr, sizeof(zErr)) != 0);
  ASSERT(strstr(zErr, "lost to an earlier kernel fault") != NULL);
  ASSERT(cuda_mem_info(d, &(uint64_t){0}, &(uint64_t){0}, zErr, sizeof(zErr)) != 0);

  /* The query frees what it made (the buffer stays: the context holds it
  ** until the reset) and ends its hold; the stream is kept, to be stale. */
  cuda_mem_free(d, pLost);
  cuda_module_release(m);
  cuda_device_use_end(d);
  ASSERT_EQ(mocktest_stats().nContextEnded, st0.nContextEnded);

  CALL_OK(cuda_device_recover(d, iEpoch, zErr, sizeof(zErr)));
  st = mocktest_stats();
  ASSERT_EQ(st.nContextEnded, st0.nContextEnded + 1);     /* reset once */
  ASSERT_EQ(st.nModule, 0);                               /* forgotten, not unloaded */
  ASSERT_EQ(st.nAlloc, 0);                                /* the reset freed pLost */
  ASSERT_EQ(st.nStream, 0);
  ASSERT_EQ(cuda_device_epoch(d), iEpoch + 1);
  ASSERT(!cuda_device_lost(d));

  /* Another query that failed in the same epoch finds it rebuilt. */
  CALL_OK(cuda_device_recover(d, iEpoch, zErr, sizeof(zErr)));
  ASSERT_EQ(mocktest_stats().nContextEnded, st.nContextEnded);
  ASSERT_EQ(cuda_device_epoch(d), iEpoch + 1);
  /* And one of the new epoch, with the device fine, does nothing either. */
  CALL_OK(cuda_device_recover(d, iEpoch + 1, zErr, sizeof(zErr)));
  ASSERT_EQ(mocktest_stats().nContextEnded, st.nContextEnded);

  /* The stale stream: refused, and destroying it never reaches the driver
  ** (the mock would abort). */
  ASSERT_EQ(cuda_device_use_begin(d), iEpoch + 1);
  CALL_ERR(cuda_kernel_launch_async(d, s, k, 1, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)),
           "cuLaunchKernel: the stream belongs to CUDA context epoch 1, which was rebuilt (now "
           "2): make a new stream");
  cuda_stream_destroy(d, s);

  /* Work again: the module from the disk cache, kernels running. */
  ASSERT_EQ(recovertest_load(d, &m, &k), CUDA_SOURCE_DISK);
  ASSERT_EQ(recovertest_add(d, k, 50, 7), 350);
  ASSERT_EQ(mocktest_stats().nCompile, st0.nCompile);
  cuda_module_release(m);
  cuda_device_use_end(d);
  cuda_device_close(d);
  st = mocktest_stats();
  ASSERT_EQ(st.nAlloc + st.nStream + st.nModule + st.nPinned, 0);
  /* The device gave back exactly the one retain it holds: the other
  ** user's keeps the context, and ends it. */
  ASSERT_EQ(st.nContextEnded, st0.nContextEnded + 1);
  mocktest_other_user(0);
  ASSERT_EQ(mocktest_stats().nContextEnded, st0.nContextEnded + 2);

  zLog = test_log_end(fLog);
  ASSERT(strstr(zLog, " ERROR [") != NULL);
  ASSERT(strstr(zLog, "cuda: device starq mock GPU lost its context (epoch 1): ") != NULL);
  ASSERT(strstr(zLog, "cuda: device starq mock GPU rebuilt its context after a fault in ") != NULL);
  ASSERT(strstr(zLog, "epoch 1 -> 2, 1 cached modules forgotten") != NULL);
  ASSERT(strstr(zLog, "epoch 2 -> 3") == NULL);
  free(zLog);
  return 0;
}

/* ---- a rebuild waits for holds ---------------------------------------------- */

typedef struct recovertest_waiter recovertest_waiter;
struct recovertest_waiter {
  cuda_device *d;
  unsigned iEpoch;
  int rc;
  atomic_int bDone;
  char zErr[512];
};

static void *recovertest_recover(void *p) {
  recovertest_waiter *w = p;
  w->rc = cuda_device_recover(w->d, w->iEpoch, w->zErr, sizeof(w->zErr));
  atomic_store(&w->bDone, 1);
  return NULL;
}

/* Two queries fail in one epoch; one still holds the device. Both rebuild
** calls wait for that hold to end, and the context is reset once. */
TEST_IMPL(runtime_cuda_recover_wait) {
  cuda_options o = mocktest_options("cudacache");
  cuda_device *d;
  cuda_module *m;
  cuda_kernel *k;
  recovertest_waiter aW[2];
  pthread_t aT[2];
  mocktest_add_args a = {0, 1, 1};
  char zErr[1024];
  unsigned iEpoch;
  int nEnded;

  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  iEpoch = cuda_device_use_begin(d);
  recovertest_load(d, &m, &k);
  CALL_OK(cuda_mem_alloc(d, 8, &a.pSum, zErr, sizeof(zErr)));
  mocktest_fault_launch(1);
  ASSERT(cuda_kernel_launch(d, k, 1, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)) != 0);
  ASSERT(cuda_device_lost(d));
  cuda_module_release(m);
  nEnded = mocktest_stats().nContextEnded;

  for (int i = 0; i < 2; i++) {
    memset(&aW[i], 0, sizeof(aW[i]));
    aW[i].d = d;
    aW[i].iEpoch = iEpoch;
    ASSERT(pthread_create(&aT[i], NULL, recovertest_recover, &aW[i]) == 0);
  }
  usleep(200 * 1000);
  ASSERT(!atomic_load(&aW[0].bDone));           /* this thread's hold keeps them out */
  ASSERT(!atomic_load(&aW[1].bDone));
  ASSERT(cuda_device_lost(d));
  ASSERT_EQ(mocktest_stats().nContextEnded, nEnded);
  cuda_device_use_end(d);
  for (int i = 0; i < 2; i++) {
    ASSERT(pthread_join(aT[i], NULL) == 0);
    if (aW[i].rc != 0) FAIL("cuda_device_recover: %s", aW[i].zErr);
  }
  ASSERT_EQ(mocktest_stats().nContextEnded, nEnded + 1);
  ASSERT_EQ(cuda_device_epoch(d), iEpoch + 1);

  /* A hold begun after the rebuild works in the new epoch. */
  ASSERT_EQ(cuda_device_use_begin(d), iEpoch + 1);
  recovertest_load(d, &m, &k);
  ASSERT_EQ(recovertest_add(d, k, 9, 9), 81);
  cuda_module_release(m);
  cuda_device_use_end(d);
  cuda_device_close(d);
  return 0;
}

/* ---- the log of a compile error and of the device -------------------------- */

/* A compile error returns the start of NVRTC's log and the module's hash;
** the log has NVRTC's whole log and every line of the source, numbered,
** under the same hash. Opening the device is logged at INFO, which a
** level of WARN keeps out. */
TEST_IMPL(runtime_cuda_compile_log) {
  cuda_options o = mocktest_options("cudacache");
  const char *azKernel[] = {"q_scan"};
  const char *zSrc = "int good_line = 1;\nthis is not a kernel;\nint last_line = 3;\n";
  FILE *fLog = test_log_begin(LOG_LEVEL_INFO);
  cuda_device *d;
  cuda_module *m;
  char zErr[8192], zHash[33], zWant[256], *zLog, *z;

  cuda_load_options lo = {.zSource = zSrc, .nKernel = 1, .azKernel = azKernel};
  int nShim = 1;                 /* lines before the source: the shim's, then a newline's */

  for (const char *p = runtime_cpu_shim; *p != 0; p++) nShim += *p == '\n';
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  ASSERT(cuda_module_load(d, &lo, &m, NULL, zErr, sizeof(zErr)) != 0);
  z = strstr(zErr, "(source written to the log, module ");
  ASSERT(z != NULL);
  ASSERT(sscanf(z, "(source written to the log, module %32[0-9a-f])", zHash) == 1);
  ASSERT_EQ(strlen(zHash), 32);
  ASSERT(strstr(zErr, "query.c") != NULL || strstr(zErr, "error") != NULL);
  cuda_device_close(d);
  zLog = test_log_end(fLog);

  ASSERT(strstr(zLog, " INFO  [") != NULL);
  ASSERT(strstr(zLog, "cuda: device 0 is starq mock GPU: compute capability 9.0, 3 SMs") != NULL);
  ASSERT(strstr(zLog, "cuda: CUBIN cache in ") != NULL);
  snprintf(zWant, sizeof(zWant), " ERROR [%ld] cuda: NVRTC could not compile module %s for sm_90: "
           "NVRTC_ERROR_COMPILATION; its log:\n", (long)syscall(SYS_gettid), zHash);
  ASSERT(strstr(zLog, zWant) != NULL);
  /* NVRTC's log (here the C compiler's) follows as continuation lines. */
  z = strstr(zLog, zWant) + strlen(zWant);
  ASSERT(strstr(z, "] | ") != NULL);
  ASSERT(strstr(z, "error") != NULL);
  snprintf(zWant, sizeof(zWant), "cuda: the source of module %s (", zHash);
  ASSERT(strstr(zLog, zWant) != NULL);
  z = strstr(zLog, zWant);
  snprintf(zWant, sizeof(zWant), "(%d lines):\n", nShim + 3);
  ASSERT(strstr(z, zWant) != NULL);
  snprintf(zWant, sizeof(zWant), "] | %5d  int good_line = 1;\n", nShim + 1);
  ASSERT(strstr(z, zWant) != NULL);
  snprintf(zWant, sizeof(zWant), "] | %5d  this is not a kernel;\n", nShim + 2);
  ASSERT(strstr(z, zWant) != NULL);
  snprintf(zWant, sizeof(zWant), "] | %5d  int last_line = 3;\n", nShim + 3);
  ASSERT(strstr(z, zWant) != NULL);
  free(zLog);

  /* At WARN, opening says nothing. */
  fLog = test_log_begin(LOG_LEVEL_WARN);
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  cuda_device_close(d);
  zLog = test_log_end(fLog);
  ASSERT_STR_EQ(zLog, "");
  free(zLog);
  return 0;
}

/* CUDA 13's way (the mock's STARQ_CUDA_MOCK_STICKY): after a fault no
** context can be made again in the process, so exec_run's rebuild
** fails, the query says so, exec_backend_lost() turns true and every later
** query fails — a second rebuild included, which must not give back a
** retain the device no longer holds. Closing the backend still works. */
TEST_IMPL(runtime_cuda_sticky) {
  cuda_options o = mocktest_options("cudacache");
  char *zSql;
  exectest t;
  refdb_result *pGot;
  sql_error e;
  zSql = test_file_read(test_src("ssb-data/queries/q1.1.sql"), NULL);
  exectest_open_cuda(&t, "0.01", &o);
  setenv("STARQ_CUDA_MOCK_STICKY", "1", 1);
  exectest_check(&t, zSql, 1);
  ASSERT(!exec_backend_lost(&t.be));
  mocktest_fault_launch(2);
  ASSERT(exectest_run(&t, zSql, &pGot, &e) != 0);
  ASSERT_STR_EQ(e.zState, "XX000");
  if (strstr(e.zMsg, "CUDA_ERROR_ILLEGAL_ADDRESS") == NULL ||
      strstr(e.zMsg, "; the GPU context cannot be rebuilt in this process (cuDevicePrimaryCtxRetain: "
                     "CUDA_ERROR_ILLEGAL_ADDRESS") == NULL) {
    FAIL("unexpected message: %s", e.zMsg);
  }
  ASSERT(exec_backend_lost(&t.be));
  ASSERT(exectest_run(&t, zSql, &pGot, &e) != 0);
  ASSERT(strstr(e.zMsg, "cannot be rebuilt in this process") != NULL);
  ASSERT(exec_backend_lost(&t.be));
  exectest_close(&t);
  unsetenv("STARQ_CUDA_MOCK_STICKY");
  free(zSql);
  return 0;
}
