/*
** tests/test-runtime-cuda.c — the CUDA backend without a GPU (CI has
** none): on a machine with no driver it fails with a clear error and the
** CPU backend carries on; on the mock driver of tests/mock/cuda-mock.c
** (kernels compiled by cc and run on the CPU behind the driver API) the
** whole host side runs — NVRTC's lowered names, both module caches,
** device buffers, registered columns and the copy fallback, error words,
** faults that lose the context — and every query agrees with SQLite.
**
** The real GPU is exercised by `bench/device.sh cuda-ssb` and, with
** STARQ_TEST_BACKEND=cuda, by the exec tests on a GPU machine.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/cuda.h"
#include "test-cuda-mock.h"
#include "test-exec.h"
#include "test.h"

static char *mocktest_ssb(const char *zQuery) {
  char zRel[64];
  snprintf(zRel, sizeof(zRel), "ssb-data/queries/%s.sql", zQuery);
  return test_file_read(test_src(zRel), NULL);
}

TEST_IMPL(runtime_cuda_absent) {
  char zErr[1024], zMock[4096];
  const char *azArgv[] = {"query", "--data", "data", "--backend", "cuda",
                          "SELECT count(*) FROM lineorder", NULL};
  exec_backend be;
  cuda_options o;
  test_proc proc;
  exectest t;

  memset(&o, 0, sizeof(o));
  o.zLibCuda = "/nonexistent/libcuda.so.1";
  ASSERT(exec_backend_cuda(&be, &o, zErr, sizeof(zErr)) != 0);
  ASSERT(strstr(zErr, "no CUDA driver: /nonexistent/libcuda.so.1 could not be opened (") == zErr);
  exec_backend_close(&be);

  /* What a machine without the driver sees by default. */
  setenv("STARQ_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
  ASSERT(exec_backend_cuda(&be, NULL, zErr, sizeof(zErr)) != 0);
  ASSERT(strstr(zErr, "no CUDA driver:") == zErr);
  exec_backend_close(&be);

  /* A driver without NVRTC. */
  snprintf(zMock, sizeof(zMock), "%s", test_bin(MOCK_LIB));
  o.zLibCuda = zMock;
  o.zLibNvrtc = "/nonexistent/libnvrtc.so";
  ASSERT(exec_backend_cuda(&be, &o, zErr, sizeof(zErr)) != 0);
  ASSERT(strstr(zErr, "NVRTC could not be opened: ") == zErr);

  /* bench/query says why and stops; the CPU backend runs on. */
  exectest_open(&t, "0.01");
  ASSERT_EQ(test_run(&proc, azArgv), 1);
  ASSERT(strstr(proc.zErr, "query: the cuda backend is not available: no CUDA driver: "
                           "/nonexistent/libcuda.so.1 could not be opened") != NULL);
  test_proc_free(&proc);
  azArgv[4] = "cpu";
  ASSERT_EQ(test_run(&proc, azArgv), 0);
  ASSERT(strstr(proc.zOut, "count\n") == proc.zOut);
  test_proc_free(&proc);
  exectest_check(&t, "SELECT count(*), sum(lo_revenue) FROM lineorder", 0);
  exectest_close(&t);
  return 0;
}

/* The SSB queries and the edge cases on the mock, against SQLite; then the
** module caches: memory within a device, disk across devices, a damaged
** cached CUBIN compiled again. */
TEST_IMPL(runtime_cuda_mock) {
  cuda_options o = mocktest_options("cudacache");
  char *zSql = mocktest_ssb("q2.1"), zErr[1024];
  mock_stats s0, s1;
  mock_nvrtc v0, v1;
  exectest t;
  strbuf x;
  size_t n;

  /* Each shape's own kernels, waited for (the harness's default), not the
  ** generic kernels of a server's first runs (tests/test-exec-generic.c). */
  exectest_open_cuda(&t, "0.05", &o);
  v0 = mocktest_nvrtc();
  strbuf_init(&x);
  exec_backend_describe(&t.be, &x);
  ASSERT(strstr(strbuf_str(&x), "cuda (starq mock GPU, sm_90, 3 SMs") == strbuf_str(&x));
  strbuf_free(&x);
  exectest_ssb_all(&t);
  exectest_edges(&t);
  /* Every shape was compiled in the foreground, once. */
  v1 = mocktest_nvrtc();
  ASSERT_GT((v1.nProgram - v1.nBackground) - (v0.nProgram - v0.nBackground), 10);
  exec_backend_compile_wait(&t.be);
  s0 = mocktest_stats();
  ASSERT_GT(s0.nCompile, 10);
  ASSERT_GT(t.last.nColResident, 0);          /* the device budget holds SF 0.05 */

  /* Memory: the same shape again compiles nothing. */
  exectest_check(&t, zSql, 1);
  ASSERT(t.last.bCacheHit);
  ASSERT_EQ(mocktest_stats().nCompile, s0.nCompile);
  ASSERT_EQ(t.last.nColStreamed, 0);

  /* Disk: a new device (a new process, as far as caches go) reads the CUBIN. */
  exec_backend_close(&t.be);
  if (exec_backend_cuda(&t.be, &o, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  exectest_check(&t, zSql, 1);
  ASSERT(t.last.bCacheHit);
  ASSERT_EQ(t.last.rCompileSeconds, 0);
  ASSERT_EQ(mocktest_stats().nCompile, s0.nCompile);

  /* A damaged cached CUBIN is compiled again, not loaded. */
  exec_backend_close(&t.be);
  {
    test_proc proc;
    const char *azFind[] = {"/bin/sh", "-c",
                            "for f in cudacache/*.cubin; do head -c 300 \"$f\" >\"$f.x\" && "
                            "mv \"$f.x\" \"$f\"; done; ls cudacache | grep -c '\\.cubin$'",
                            NULL};
    ASSERT_EQ(test_run(&proc, azFind), 0);
    n = (size_t)atoi(proc.zOut);
    test_proc_free(&proc);
    ASSERT_GT(n, 10);
  }
  if (exec_backend_cuda(&t.be, &o, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  exectest_check(&t, zSql, 1);
  ASSERT(!t.last.bCacheHit);
  ASSERT(t.last.rCompileSeconds > 0);
  /* Where the first load went: NVRTC, then the module load. */
  ASSERT(strstr(t.last.zCompileParts, "nvrtc ") == t.last.zCompileParts);
  ASSERT(strstr(t.last.zCompileParts, " ms (cpu ") != NULL);
  ASSERT(strstr(t.last.zCompileParts, ", module load ") != NULL);
  exec_backend_compile_wait(&t.be);
  s1 = mocktest_stats();
  /* The query's module, the decode kernel's when a packed column is made
  ** resident again (runtime/colmem-decode.c), and the generic kernels'
  ** (the backend queues them when it opens): every cubin was cut. */
  ASSERT(s1.nCompile == s0.nCompile + 2 || s1.nCompile == s0.nCompile + 3);
  /* A new column cache frees the old one's device copies and pins. */
  if (exec_backend_configure(&t.be, NULL, NULL, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  s1 = mocktest_stats();
  ASSERT_EQ(s1.nAlloc, 0);                    /* every buffer and resident column freed ... */
  ASSERT_EQ(s1.nRegister, 0);                 /* ... every column and stride buffer unpinned */
  exectest_close(&t);
  free(zSql);
  return 0;
}

/* Compile errors carry NVRTC's log; refused registration falls back to a
** copy; a fault loses the context, later calls say so, and a new device
** works again. */
TEST_IMPL(runtime_cuda_mock_errors) {
  cuda_options o = mocktest_options("cudacache");
  const char *azKernel[] = {"q_scan"};
  cuda_load_options lo = {.zSource = "this is not a kernel;\n", .nKernel = 1, .azKernel = azKernel};
  char *zSql = mocktest_ssb("q1.1"), zErr[8192];
  cuda_device *d;
  cuda_module *m;
  exectest t;
  refdb_result *pGot;
  sql_error e;

  if (cuda_device_open(&o, &d, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT(cuda_module_load(d, &lo, &m, NULL, zErr, sizeof(zErr)) != 0);
  ASSERT(strstr(zErr, "NVRTC could not compile the query's kernels: NVRTC_ERROR_COMPILATION (source "
                     "written to the log, module ") == zErr);
  ASSERT(strstr(zErr, "error") != NULL);      /* the compiler's own diagnostic follows */
  lo.zSource = "int x;\n";
  lo.nKernel = 0;
  ASSERT(cuda_module_load(d, &lo, &m, NULL, zErr, sizeof(zErr)) != 0);
  ASSERT_STR_EQ(zErr, "a module needs at least one kernel");
  cuda_device_close(d);

  /* When the driver will not pin column pages, fact columns stream and
  ** dimension columns are copied to device memory. */
  exectest_open_cuda(&t, "0.01", &o);
  setenv("STARQ_CUDA_MOCK_NO_REGISTER", "1", 1);
  {
    static const exec_options xo = {.bNoResident = 1};
    t.pOpt = &xo;
    exectest_check(&t, zSql, 1);
    t.pOpt = NULL;
  }
  ASSERT_EQ(t.last.nColPinned, 0);
  ASSERT_GT(t.last.nColStreamed, 0);
  ASSERT_GT(t.last.nColResident, 0);
  unsetenv("STARQ_CUDA_MOCK_NO_REGISTER");

  /* A fault in the second launch from now. */
  {
    char zAt[32];
    snprintf(zAt, sizeof(zAt), "%d", mocktest_stats().nLaunch + 2);
    setenv("STARQ_CUDA_MOCK_FAULT_AT", zAt, 1);
  }
  ASSERT(exectest_run(&t, zSql, &pGot, &e) != 0);
  ASSERT_STR_EQ(e.zState, "XX000");
  ASSERT(strstr(e.zMsg, "CUDA_ERROR_ILLEGAL_ADDRESS") != NULL);
  ASSERT(strstr(e.zMsg, "the CUDA context is lost until the device is recovered") != NULL);
  ASSERT(strstr(e.zMsg, "; the GPU context was rebuilt") != NULL);
  unsetenv("STARQ_CUDA_MOCK_FAULT_AT");
  /* The same backend goes on: a new context, the columns pinned again,
  ** the module loaded again. */
  ASSERT(!cuda_device_lost(t.be.pCuda));
  ASSERT_EQ(cuda_device_epoch(t.be.pCuda), 2);
  exectest_check(&t, zSql, 1);
  exectest_ssb_all(&t);

  /* A fault in a strided scan: the stride buffers are pinned again after. */
  {
    static const exec_options xo = {.bNoResident = 1};
    colmem_options mo = {0, 0};
    char zAt[32];
    if (exec_backend_configure(&t.be, &mo, NULL, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
    t.pOpt = &xo;
    exectest_check(&t, zSql, 1);
    snprintf(zAt, sizeof(zAt), "%d", mocktest_stats().nLaunch + 3);
    setenv("STARQ_CUDA_MOCK_FAULT_AT", zAt, 1);
    ASSERT(exectest_run(&t, zSql, &pGot, &e) != 0);
    unsetenv("STARQ_CUDA_MOCK_FAULT_AT");
    ASSERT(strstr(e.zMsg, "; the GPU context was rebuilt") != NULL);
    exectest_check(&t, zSql, 1);
    ASSERT_EQ(cuda_device_epoch(t.be.pCuda), 3);
    t.pOpt = NULL;
  }
  exectest_close(&t);
  ASSERT_EQ(mocktest_stats().nAlloc, 0);
  free(zSql);
  return 0;
}
