/*
** tests/test-exec-generic.c — the generic kernels (codegen/generic.c,
** codegen/device-generic.cuh): a plan run as data by kernels compiled
** once. Two things are checked.
**
** Their rows: the exec suites' queries again with STARQ_TEST_GENERIC=always,
** under which every query runs on them and exectest_check fails one that
** took its own kernels instead — SSB and the edges on the CPU, the random
** queries, NULLs and PostgreSQL's errors, and on the mock GPU resident
** plans (semi-join bits, narrow copies), strides, hash group tables that
** grow, skewed groups.
**
** When they run: on the mock GPU with the server's default options, a new
** shape's first run takes them and compiles nothing in the foreground; its
** optimized kernels compile in the background and take over; a shape of
** other literals finds those; starq.generic_kernels off, or the generic
** kernels not compiled yet, gives the fast tier as before.
*/
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-cuda-mock.h"
#include "test-exec.h"
#include "test.h"

int test_exec_random(void);
int test_exec_nulls(void);
int test_exec_null_errors(void);
int test_exec_nulls_resident(void);
int test_exec_semijoin_mock(void);
int test_exec_skew_groupby_mock(void);
int test_exec_streamed_for(void);
int test_exec_group_table_grows(void);
int test_exec_rows_grow(void);

static void generic_always(void) { setenv("STARQ_TEST_GENERIC", "always", 1); }

TEST_IMPL(exec_generic_ssb) {
  exectest t;
  generic_always();
  exectest_open(&t, "0.05");
  exectest_ssb_all(&t);
  exectest_edges(&t);
  exectest_close(&t);
  return 0;
}

TEST_IMPL(exec_generic_random) {
  generic_always();
  return test_exec_random();
}

TEST_IMPL(exec_generic_nulls) {
  generic_always();
  return test_exec_nulls();
}

TEST_IMPL(exec_generic_null_errors) {
  generic_always();
  return test_exec_null_errors();
}

TEST_IMPL(exec_generic_resident) {
  generic_always();
  return test_exec_nulls_resident();
}

TEST_IMPL(exec_generic_semijoin) {
  generic_always();
  return test_exec_semijoin_mock();
}

TEST_IMPL(exec_generic_skew) {
  generic_always();
  return test_exec_skew_groupby_mock();
}

TEST_IMPL(exec_generic_streamed) {
  generic_always();
  return test_exec_streamed_for();
}

TEST_IMPL(exec_generic_grows) {
  generic_always();
  return test_exec_group_table_grows();
}

TEST_IMPL(exec_generic_rows_grow) {
  generic_always();
  return test_exec_rows_grow();
}

/* ---- the tiered first run ------------------------------------------------ */

static char *gt_query(const char *zName) {
  char zRel[64];
  snprintf(zRel, sizeof(zRel), "ssb-data/queries/%s.sql", zName);
  return test_file_read(test_src(zRel), NULL);
}

/* Q2.1 with another brand's literal: the same shape. */
static char *gt_other_literal(const char *zSql) {
  const char *z = strstr(zSql, "MFGR#12");
  char *zOut = strdup(zSql);
  ASSERT(z != NULL && zOut != NULL);
  zOut[z - zSql + 6] = '3';                      /* MFGR#13 */
  return zOut;
}

TEST_IMPL(exec_generic_first_run) {
  char *zQ21 = gt_query("q2.1"), *zQ31 = gt_query("q3.1"), *zQ41 = gt_query("q4.1");
  char *zQ21b = gt_other_literal(zQ21);
  exec_options xoOff = {.eGeneric = EXEC_GENERIC_OFF};
  mock_nvrtc n0, n1;
  exectest t;
  exectest_open_mock(&t, "0.01");
  /* The generic kernels compiled in the background when the device opened;
  ** the resident copies' decode kernel is compiled (optimized, waited for)
  ** by the first query that makes them: both before the gate closes. */
  exectest_check(&t, zQ41, 1);
  exec_backend_compile_wait(&t.be);
  n0 = mocktest_nvrtc();
  mocktest_nvrtc_gate(1);                        /* every optimized compile waits */
  exectest_check(&t, zQ21, 1);
  ASSERT(t.last.bGeneric);
  ASSERT(!t.last.bFastTier && t.last.bCacheHit);    /* the generic kernels, in memory */
  ASSERT(t.last.rCompileSeconds == 0);
  /* Its stages are counted under their own names, marked generic. */
  ASSERT(t.last.nKernel >= 3);
  ASSERT_STR_EQ(t.last.aKernel[0].zName, "q_build_date (generic)");
  ASSERT(strstr(t.last.aKernel[t.last.nKernel - 1].zName, " (generic)") != NULL);
  n1 = mocktest_nvrtc();
  ASSERT_EQ(n1.nFast, n0.nFast);                 /* nothing compiled for it in the foreground */
  /* Again while its kernels still compile: the generic kernels again. */
  exectest_check(&t, zQ21b, 1);
  ASSERT(t.last.bGeneric);
  mocktest_nvrtc_gate(0);
  exec_backend_compile_wait(&t.be);
  /* Compiled now: every later run of the shape, other literals too. */
  exectest_check(&t, zQ21, 1);
  ASSERT(!t.last.bGeneric && !t.last.bFastTier && t.last.bCacheHit);
  ASSERT_STR_EQ(t.last.aKernel[0].zName, "q_build_date");
  exectest_check(&t, zQ21b, 1);
  ASSERT(!t.last.bGeneric && t.last.bCacheHit);
  ASSERT_EQ(mocktest_nvrtc().nFast, n0.nFast);
  /* starq.generic_kernels off: a new shape takes the fast tier. */
  t.pOpt = &xoOff;
  exectest_check(&t, zQ31, 1);
  ASSERT(!t.last.bGeneric && t.last.bFastTier);
  t.pOpt = NULL;
  /* starq.jit_tier off: a new shape waits for its optimized kernels. */
  {
    char *zQ42 = gt_query("q4.2");
    exec_options xoOpt = {.eCompile = EXEC_COMPILE_OPTIMIZED};
    t.pOpt = &xoOpt;
    exectest_check(&t, zQ42, 1);
    ASSERT(!t.last.bGeneric && !t.last.bFastTier && !t.last.bCacheHit);
    t.pOpt = NULL;
    free(zQ42);
  }
  exectest_close(&t);
  free(zQ21);
  free(zQ21b);
  free(zQ31);
  free(zQ41);
  return 0;
}

/* Until the generic kernels are compiled (a device's first seconds on an
** empty cache), a new shape takes the fast tier; once they are, the next
** new shape takes them. */
TEST_IMPL(exec_generic_not_ready) {
  char *zQ11 = gt_query("q1.1"), *zQ12 = gt_query("q1.2");
  void *hMock = dlopen(test_bin(MOCK_LIB), RTLD_NOW);
  exectest t;
  ASSERT(hMock != NULL);
  /* Plain columns: no resident copy to decode, whose kernel is compiled
  ** optimized and waited for. */
  setenv("STARQ_TEST_COMPRESS", "off", 1);
  mocktest_nvrtc_gate(1);                        /* the generic kernels' compile waits */
  exectest_open_mock(&t, "0.01");
  exectest_check(&t, zQ11, 0);
  ASSERT(!t.last.bGeneric && t.last.bFastTier);
  mocktest_nvrtc_gate(0);
  exec_backend_compile_wait(&t.be);
  exectest_check(&t, zQ12, 0);
  ASSERT(t.last.bGeneric);
  exectest_close(&t);
  dlclose(hMock);
  free(zQ11);
  free(zQ12);
  return 0;
}

/* $STARQ_GENERIC_BOUNDS: a text, hence a module, of its own with the
** bounds defined before the library; anything but THREADS,BLOCKS in range
** fails the backend's open, saying why, and leaks nothing (ASan). */
TEST_IMPL(exec_generic_bounds) {
  static const char *const azBad[] = {"x", "256", "16,1", "2048,1", "256,0", "256,33"};
  cuda_options o = mocktest_options("cudacache");
  exec_backend be;
  hash128 hPlain;
  char zErr[512];
  unsetenv("STARQ_GENERIC_BOUNDS");
  ASSERT_EQ(exec_backend_cuda(&be, &o, zErr, sizeof(zErr)), 0);
  hPlain = be.hGeneric;
  ASSERT(strncmp(strbuf_str(&be.generic), "#define SQG_LAUNCH_BOUNDS", 25) != 0);
  exec_backend_close(&be);
  setenv("STARQ_GENERIC_BOUNDS", "256,2", 1);
  ASSERT_EQ(exec_backend_cuda(&be, &o, zErr, sizeof(zErr)), 0);
  ASSERT(strncmp(strbuf_str(&be.generic),
                 "#define SQG_LAUNCH_BOUNDS __launch_bounds__(256, 2)\n", 52) == 0);
  ASSERT(be.hGeneric.h1 != hPlain.h1 || be.hGeneric.h2 != hPlain.h2);
  exec_backend_close(&be);
  for (size_t i = 0; i < sizeof(azBad) / sizeof(azBad[0]); i++) {
    char zWant[64];
    setenv("STARQ_GENERIC_BOUNDS", azBad[i], 1);
    ASSERT(exec_backend_cuda(&be, &o, zErr, sizeof(zErr)) != 0);
    snprintf(zWant, sizeof(zWant), "STARQ_GENERIC_BOUNDS=%s: expected THREADS,BLOCKS", azBad[i]);
    ASSERT_STR_EQ(zErr, zWant);
  }
  unsetenv("STARQ_GENERIC_BOUNDS");
  return 0;
}
