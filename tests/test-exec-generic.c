/*
** tests/test-exec-generic.c — the generic kernels (codegen/generic.c,
** codegen/device-generic.cuh): a plan run as data by kernels compiled
** once. Two things are checked.
**
** Their rows: the exec suites' queries again with STARQ_TEST_GENERIC=always,
** under which every query runs on them and exectest_check fails one that
** took its own kernels instead — SSB and the edges on the CPU, the random
** queries, NULLs and PostgreSQL's errors, and on the mock GPU resident
** plans (semi-join bits, decoded copies), strides, hash group tables that
** grow, skewed groups.
**
** When they run: on the CPU backend and on the mock GPU with the server's
** default options, a new shape's first run takes them and compiles nothing
** in the foreground; its own kernels compile in the background and take
** over; a shape of other literals finds those; starq.generic_kernels off,
** or the generic kernels not compiled yet, waits for the shape's own
** compile.
*/
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* ---- a new shape's first run ----------------------------------------------- */

/* Where the first-run tests run, and their hooks into its compiler: a gate
** that holds background compiles (the mock NVRTC's; on the CPU a cc
** wrapper's, which knows the background compiler's cc by its nice value)
** and a count of the compiles made in the foreground, which a first run on
** the generic kernels must not add to. */
typedef struct gtest gtest;
struct gtest {
  int bCuda;
  char zDir[4096];         /* the test's scratch directory, absolute */
  char zCc[4200];          /* CPU: the wrapper compiler */
  char zGenericDir[4200];  /* CPU: the generic kernels' cache, when not the suite's */
  exectest t;
};

/* Writes the CPU's wrapper compiler: cc, each run logged to ./cc.log as
** "fg" or "bg" (a nice value above the test's: the background
** compiler's), a background one held while ./cc-gate exists (20 s at most:
** then it fails, and so does the test). */
static void gt_cc_write(gtest *g) {
  FILE *f;
  char zNice[32];
  snprintf(g->zCc, sizeof(g->zCc), "%s/cc-gated", g->zDir);
  f = fopen(g->zCc, "w");
  ASSERT(f != NULL);
  fprintf(f, "#!/bin/sh\n"
             "[ \"$1\" = --version ] && exec cc \"$@\"\n"
             "if [ \"$(nice)\" -gt \"$STARQ_TEST_NICE\" ]; then\n"
             "  echo bg >>'%s/cc.log'\n"
             "  i=0\n"
             "  while [ -e '%s/cc-gate' ]; do\n"
             "    sleep 0.02; i=$((i + 1)); [ $i -gt 1000 ] && exit 1\n"
             "  done\n"
             "else\n"
             "  echo fg >>'%s/cc.log'\n"
             "fi\n"
             "exec cc \"$@\"\n", g->zDir, g->zDir, g->zDir);
  ASSERT_EQ(fclose(f), 0);
  ASSERT_EQ(chmod(g->zCc, 0755), 0);
  snprintf(zNice, sizeof(zNice), "%d", getpriority(PRIO_PROCESS, 0));
  setenv("STARQ_TEST_NICE", zNice, 1);
}

/* Opens the backend under test on SSB at SF 0.01, first runs on the
** generic kernels as a server's; their module in a cache of its own with
** bOwnGeneric (CPU; on the mock every test's cache is its own). */
static void gt_open(gtest *g, int bCuda, int bOwnGeneric) {
  memset(g, 0, sizeof(*g));
  g->bCuda = bCuda;
  ASSERT(getcwd(g->zDir, sizeof(g->zDir)) != NULL);
  if (bCuda) {
    exectest_open_mock(&g->t, "0.01");
  } else {
    cpu_options o = {.zCacheDir = "cache", .zGenericCacheDir = exectest_generic_cache()};
    gt_cc_write(g);
    o.zCompiler = g->zCc;
    if (bOwnGeneric) {
      snprintf(g->zGenericDir, sizeof(g->zGenericDir), "%s/generic", g->zDir);
      o.zGenericCacheDir = g->zGenericDir;
    }
    exectest_open_cpu(&g->t, "0.01", &o);
  }
  g->t.bGenericFirst = 1;
}

/* Closes (1) or opens (0) the gate in front of background compiles. */
static void gt_gate(gtest *g, int bClosed) {
  if (g->bCuda) {
    mocktest_nvrtc_gate(bClosed);
  } else if (bClosed) {
    FILE *f = fopen("cc-gate", "w");
    ASSERT(f != NULL && fclose(f) == 0);
  } else {
    ASSERT_EQ(unlink("cc-gate"), 0);
  }
}

/* Compiles made in the foreground so far. */
static int gt_foreground(const gtest *g) {
  if (g->bCuda) {
    mock_nvrtc n = mocktest_nvrtc();
    return n.nProgram - n.nBackground;
  } else {
    FILE *f = fopen("cc.log", "r");      /* none until the first compile */
    char zLine[16];
    int n = 0;
    while (f != NULL && fgets(zLine, sizeof(zLine), f) != NULL) n += strcmp(zLine, "fg\n") == 0;
    if (f != NULL) fclose(f);
    return n;
  }
}

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

/* A new shape's first run on the generic kernels with nothing compiled in
** the foreground; the shape's own kernels, compiled in the background,
** taking over, for other literals too; starq.generic_kernels off waiting
** for a new shape's own compile. */
static void gt_first_run(int bCuda) {
  char *zQ21 = gt_query("q2.1"), *zQ31 = gt_query("q3.1"), *zQ41 = gt_query("q4.1");
  char *zQ21b = gt_other_literal(zQ21);
  exec_options xoOff = {.eGeneric = EXEC_GENERIC_OFF};
  gtest g;
  int n0;
  gt_open(&g, bCuda, 0);
  /* The generic kernels compiled in the background when the backend
  ** opened (or were in the cache); on the mock, the resident copies'
  ** decode kernel is compiled (waited for) by the first query that makes
  ** them: both before the counting starts. */
  exec_backend_compile_wait(&g.t.be);
  exectest_check(&g.t, zQ41, 1);
  ASSERT(g.t.last.bGeneric);
  exec_backend_compile_wait(&g.t.be);
  n0 = gt_foreground(&g);
  gt_gate(&g, 1);                                /* every background compile waits */
  exectest_check(&g.t, zQ21, 1);
  ASSERT(g.t.last.bGeneric);
  ASSERT(g.t.last.bCacheHit);                    /* the generic kernels, in memory */
  ASSERT(g.t.last.rCompileSeconds == 0);
  /* Its stages are counted under their own names, marked generic. */
  ASSERT(g.t.last.nKernel >= 3);
  ASSERT_STR_EQ(g.t.last.aKernel[0].zName, "q_build_date (generic)");
  ASSERT(strstr(g.t.last.aKernel[g.t.last.nKernel - 1].zName, " (generic)") != NULL);
  ASSERT_EQ(gt_foreground(&g), n0);        /* nothing compiled for it in the foreground */
  /* Again while its kernels still compile: the generic kernels again. */
  exectest_check(&g.t, zQ21b, 1);
  ASSERT(g.t.last.bGeneric);
  gt_gate(&g, 0);
  exec_backend_compile_wait(&g.t.be);
  /* Compiled now: every later run of the shape, other literals too. */
  exectest_check(&g.t, zQ21, 1);
  ASSERT(!g.t.last.bGeneric && g.t.last.bCacheHit);
  ASSERT_STR_EQ(g.t.last.aKernel[0].zName, "q_build_date");
  exectest_check(&g.t, zQ21b, 1);
  ASSERT(!g.t.last.bGeneric && g.t.last.bCacheHit);
  ASSERT_EQ(gt_foreground(&g), n0);
  /* starq.generic_kernels off: a new shape waits for its own kernels. */
  g.t.pOpt = &xoOff;
  exectest_check(&g.t, zQ31, 1);
  ASSERT(!g.t.last.bGeneric && !g.t.last.bCacheHit);
  ASSERT(g.t.last.rCompileSeconds > 0);
  ASSERT_EQ(gt_foreground(&g), n0 + 1);
  g.t.pOpt = NULL;
  exectest_close(&g.t);
  free(zQ21);
  free(zQ21b);
  free(zQ31);
  free(zQ41);
}

TEST_IMPL(exec_generic_first_run) {
  gt_first_run(1);
  return 0;
}

TEST_IMPL(exec_generic_first_run_cpu) {
  gt_first_run(0);
  return 0;
}

/* Until the generic kernels are compiled (a backend's first seconds on an
** empty cache), a new shape waits for its own kernels' compile, made in the
** foreground even while the background compiler is busy with theirs; once
** they are, the next new shape takes them. */
static void gt_not_ready(int bCuda) {
  char *zQ11 = gt_query("q1.1"), *zQ12 = gt_query("q1.2");
  void *hMock = bCuda ? dlopen(test_bin(MOCK_LIB), RTLD_NOW) : NULL;
  gtest g;
  int n0;
  ASSERT(!bCuda || hMock != NULL);
  /* Plain columns: no resident copy to decode, whose kernel would be
  ** compiled in the foreground too. */
  setenv("STARQ_TEST_COMPRESS", "off", 1);
  if (bCuda) mocktest_nvrtc_gate(1);             /* the generic kernels' compile waits */
  else {
    FILE *f = fopen("cc-gate", "w");
    ASSERT(f != NULL && fclose(f) == 0);
  }
  gt_open(&g, bCuda, 1);
  n0 = gt_foreground(&g);
  exectest_check(&g.t, zQ11, 0);
  ASSERT(!g.t.last.bGeneric && !g.t.last.bCacheHit);
  ASSERT_EQ(gt_foreground(&g), n0 + 1);
  gt_gate(&g, 0);
  exec_backend_compile_wait(&g.t.be);
  exectest_check(&g.t, zQ12, 0);
  ASSERT(g.t.last.bGeneric);
  exectest_close(&g.t);
  if (hMock != NULL) dlclose(hMock);
  free(zQ11);
  free(zQ12);
}

TEST_IMPL(exec_generic_not_ready) {
  gt_not_ready(1);
  return 0;
}

TEST_IMPL(exec_generic_not_ready_cpu) {
  gt_not_ready(0);
  return 0;
}
