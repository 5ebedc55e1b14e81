/*
** tests/test-worker.c — the device worker under its supervisor
** (worker/worker.h), with the ASan build of bin/starq-worker: queries
** through it give what the engine gives in-process and what SQLite gives;
** errors keep their SQLSTATE and position; eight threads share one
** worker; a worker killed mid-query, or one whose GPU is lost for good
** (the mock driver behaving as CUDA 13 does), fails that query and is
** replaced for the next; a worker that cannot start is retried slowly and
** reported, and comes back when it can; a worker whose server is killed
** exits.
*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/timer.h"
#include "test-cuda-mock.h"
#include "workertest.h"
#include "test-exec.h"
#include "test.h"

static const char *const workertest_azSsb[] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2",
                                               "q2.3", "q3.1", "q3.2", "q3.3", "q3.4",
                                               "q4.1", "q4.2", "q4.3"};
#define WORKERTEST_NSSB ((int)(sizeof(workertest_azSsb) / sizeof(workertest_azSsb[0])))

static char *workertest_ssb(int i) {
  char zRel[64];
  snprintf(zRel, sizeof(zRel), "ssb-data/queries/%s.sql", workertest_azSsb[i]);
  return test_file_read(test_src(zRel), NULL);
}

static int workertest_one_in_flight(const worker_stats *p) { return p->nInFlight == 1; }
static int workertest_ready(const worker_stats *p) { return p->bReady; }
static int workertest_two_failed(const worker_stats *p) { return p->nStartFail >= 2; }

/* Runs zSql in-process and through the worker, with the same options;
** fails unless the two results dump the same. Returns the worker's result
** (the caller frees). */
static exec_result workertest_same(exectest *t, worker *w, const char *zSql) {
  exec_result a, b;
  sql_error e;
  char *zA, *zB;
  t->pWorker = NULL;
  if (exectest_exec(t, zSql, &a, &e) != 0) FAIL("in-process: %s: %s %s", zSql, e.zState, e.zMsg);
  t->pWorker = w;
  if (exectest_exec(t, zSql, &b, &e) != 0) FAIL("worker: %s: %s %s", zSql, e.zState, e.zMsg);
  t->pWorker = NULL;
  zA = exectest_result_dump(&a);
  zB = exectest_result_dump(&b);
  if (strcmp(zA, zB) != 0) FAIL("%s\n  in-process:\n%s\n  through the worker:\n%s", zSql, zA, zB);
  ASSERT_EQ(b.nColumnBytes, a.nColumnBytes);
  ASSERT_EQ(b.nFactBytes, a.nFactBytes);
  ASSERT_EQ(b.nKernel, a.nKernel);
  ASSERT(b.rSeconds > 0 && b.rKernelSeconds > 0);
  for (int i = 0; i < b.nKernel; i++) ASSERT_STR_EQ(b.aKernel[i].zName, a.aKernel[i].zName);
  free(zA);
  free(zB);
  exec_result_free(&a);
  return b;
}

/* EXPLAIN's rows from the worker for the SELECT zSql, joined by newlines. */
static char *workertest_explain_there(worker *w, const char *zSql, int bVerbose) {
  engine_request q;
  exec_result r;
  sql_error e;
  strbuf x;
  memset(&q, 0, sizeof(q));
  q.eKind = ENGINE_EXPLAIN;
  q.mExplain = bVerbose ? ENGINE_EXPLAIN_VERBOSE : 0;
  q.zSql = zSql;
  if (worker_query(w, &q, &r, &e) != 0) FAIL("EXPLAIN %s: %s %s", zSql, e.zState, e.zMsg);
  strbuf_init(&x);
  ASSERT_EQ(r.nCol, 1);
  ASSERT_STR_EQ(r.aCol[0].zName, "QUERY PLAN");
  ASSERT_EQ(r.aCol[0].type.eId, COLTYPE_TEXT);
  for (int64_t i = 0; i < r.nRow; i++) {
    if (i) strbuf_puts(&x, "\n");
    ASSERT_EQ(exec_result_text(&r, i, 0, &x), 0);
  }
  exec_result_free(&r);
  return strbuf_take(&x);
}

/* The 13 SSB queries and the edge cases through a worker (on the CPU, or
** the suite's backend): the same rows, types and figures as in-process,
** and SQLite's rows; EXPLAIN and EXPLAIN VERBOSE as in-process; the kernel
** cache hit on a repeat; a stop that leaves no process behind. */
TEST_IMPL(worker_ssb) {
  exectest t;
  worker *w;
  worker_stats st;
  char *zA, *zB;
  exectest_open(&t, "0.05");
  workertest_bPreload = 1;
  w = workertest_start(workertest_backend(), 2);
  workertest_bPreload = 0;
  worker_stats_get(w, &st);
  ASSERT(st.bReady);
  ASSERT_GT(st.iPid, 0);
  ASSERT_NE(st.iPid, getpid());
  if (strcmp(workertest_backend(), "cpu") == 0) {
    ASSERT(strstr(st.zBackend, "cpu (kernels compiled by the system C compiler") == st.zBackend);
  }
  ASSERT_GT(st.nPreloaded, 5 << 20);        /* the columns of SF 0.05 (10 MB stored), pinned at start */
  for (int i = 0; i < WORKERTEST_NSSB; i++) {
    char *zSql = workertest_ssb(i);
    exec_result r = workertest_same(&t, w, zSql);
    exec_result_free(&r);
    free(zSql);
  }
  /* Strings, NULL-free doubles, DECIMAL and DATE columns, ORDER BY, LIMIT. */
  {
    exec_result r = workertest_same(&t, w, "SELECT c_region, c_nation, d_datekey, avg(lo_discount),"
                                           " sum(lo_extendedprice) FROM lineorder, customer, date"
                                           " WHERE lo_custkey = c_custkey AND lo_orderdate ="
                                           " d_datekey AND d_year = 1997 GROUP BY 1, 2, 3"
                                           " ORDER BY 1, 2, 3 LIMIT 50");
    ASSERT(r.aCol[0].aStrOff != NULL && r.aCol[0].nStr <= 5);   /* only the strings used */
    ASSERT(!r.aCol[0].bDict);
    exec_result_free(&r);
  }
  t.pWorker = w;
  exectest_ssb_all(&t);
  exectest_edges(&t);
  {
    char *zSql = workertest_ssb(0);
    exectest_check(&t, zSql, 1);
    ASSERT(t.last.bCacheHit);
    ASSERT(t.last.rCompileSeconds == 0);
    free(zSql);
  }
  for (int bVerbose = 0; bVerbose <= 1; bVerbose++) {
    const char *zSql = "SELECT d_year, sum(lo_revenue) FROM lineorder, date"
                       " WHERE lo_orderdate = d_datekey GROUP BY d_year";
    zA = exectest_explain_text(t.pEngine, NULL, zSql, bVerbose);
    zB = workertest_explain_there(w, zSql, bVerbose);
    ASSERT_STR_EQ(zB, zA);
    ASSERT_EQ(strstr(zB, "Generated source") != NULL, bVerbose);
    free(zA);
    free(zB);
  }

  worker_stats_get(w, &st);
  ASSERT_EQ(st.nRestart, 0);
  ASSERT_EQ(st.nInFlight, 0);
  ASSERT_GT(st.nQuery, 40);
  worker_stop(w);
  ASSERT(kill(st.iPid, 0) != 0 && errno == ESRCH);   /* reaped, not a zombie */
  exectest_close(&t);
  return 0;
}

/* Errors come back with the SQLSTATE, message and position the engine
** gives in-process; what the worker does not run is refused with 0A000;
** the worker stays up throughout. A worker that cannot start says why. */
TEST_IMPL(worker_errors) {
  static const char *const azSame[] = {
    "SELECT count(*) FORM lineorder",
    "SELECT count(*) FROM nosuchtable",
    "SELECT lo_nosuch FROM lineorder",
    "SELECT lo_quantity / (lo_discount - lo_discount) FROM lineorder",
    "SELECT sum(lo_orderkey * 4000000000000000) FROM lineorder",
    "SELECT 'x",
  };
  static const struct {
    const char *zSql;
    const char *zState;
    int iOffset;
  } aRefused[] = {
    {"CREATE TABLE x (a int)", "0A000", 0},
    {"SELECT 1 FROM lineorder; SELECT 2 FROM lineorder", "0A000", 25},
    {"EXPLAIN SELECT count(*) FROM lineorder", "0A000", 0},
    {"  ", "0A000", -1},
  };
  exectest t;
  worker *w;
  worker_stats st;
  worker_config c;
  exec_result r;
  sql_error e, eHere;
  test_proc proc;
  char zErr[2048];
  const char *azHand[] = {"starq-worker", "--data-dir", "data", NULL};

  exectest_open(&t, "0.01");
  w = workertest_start(workertest_backend(), 2);
  for (size_t i = 0; i < sizeof(azSame) / sizeof(azSame[0]); i++) {
    t.pWorker = NULL;
    ASSERT(exectest_exec(&t, azSame[i], &r, &eHere) != 0);
    exec_result_free(&r);
    ASSERT(workertest_query(w, azSame[i], NULL, &r, &e) != 0);
    ASSERT_EQ(r.nCol, 0);
    exec_result_free(&r);
    ASSERT_STR_EQ(e.zState, eHere.zState);
    ASSERT_STR_EQ(e.zMsg, eHere.zMsg);
    ASSERT_EQ(e.iOffset, eHere.iOffset);
  }
  ASSERT(workertest_query(w, azSame[0], NULL, &r, &e) != 0);
  ASSERT_STR_EQ(e.zState, "42601");          /* FORM is an alias: "lineorder" is the error */
  ASSERT_EQ(e.iOffset, 21);
  ASSERT(strstr(e.zMsg, "\"lineorder\"") != NULL);
  ASSERT(workertest_query(w, azSame[1], NULL, &r, &e) != 0);
  ASSERT_STR_EQ(e.zState, "42P01");
  ASSERT_EQ(e.iOffset, 21);
  t.pWorker = w;
  exectest_error(&t, azSame[3], "22012");
  for (size_t i = 0; i < sizeof(aRefused) / sizeof(aRefused[0]); i++) {
    ASSERT(workertest_query(w, aRefused[i].zSql, NULL, &r, &e) != 0);
    if (strcmp(e.zState, aRefused[i].zState) != 0 || e.iOffset != aRefused[i].iOffset) {
      FAIL("%s: %s at %d: %s", aRefused[i].zSql, e.zState, e.iOffset, e.zMsg);
    }
  }
  exectest_check(&t, "SELECT count(*), sum(lo_revenue) FROM lineorder", 0);
  worker_stats_get(w, &st);
  ASSERT_EQ(st.nStart, 1);
  worker_stop(w);

  /* auto on a machine without a GPU runs on the CPU. */
  setenv("STARQ_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
  w = workertest_start("auto", 1);
  worker_stats_get(w, &st);
  ASSERT(strstr(st.zBackend, "cpu (") == st.zBackend);
  ASSERT_EQ(st.nPreloaded, -1);
  t.pWorker = w;
  exectest_check(&t, "SELECT count(*) FROM lineorder", 0);
  worker_stop(w);

  /* cuda without a driver: the worker's own reason, and its exit status. */
  worker_config_init(&c);
  snprintf(zErr, sizeof(zErr), "%s", test_bin("starq-worker"));
  c.zProgram = strdup(zErr);
  c.zDataDir = "data";
  c.zBackend = "cuda";
  ASSERT(worker_start(&c, &w, zErr, sizeof(zErr)) != 0);
  ASSERT(w == NULL);
  ASSERT(strstr(zErr, "the device worker could not start: no CUDA driver: "
                      "/nonexistent/libcuda.so.1 could not be opened") == zErr);
  ASSERT(strstr(zErr, "(exit status 69)") != NULL);
  unsetenv("STARQ_LIBCUDA");
  free((char *)c.zProgram);
  c.zProgram = "/nonexistent/starq-worker";
  ASSERT(worker_start(&c, &w, zErr, sizeof(zErr)) != 0);
  ASSERT(strstr(zErr, "cannot run the device worker /nonexistent/starq-worker: No such file") != NULL);
  c.zBackend = "gpu";
  ASSERT(worker_start(&c, &w, zErr, sizeof(zErr)) != 0);
  ASSERT_STR_EQ(zErr, "unknown backend \"gpu\" (auto, cuda or cpu)");

  /* By hand, without the supervisor's socket, it refuses to run. */
  ASSERT_EQ(test_run(&proc, azHand), WORKER_EXIT_USAGE);
  ASSERT(strstr(proc.zErr, "starq-worker is started by the server") != NULL);
  test_proc_free(&proc);
  /* A bad --spin-us is refused before anything else. */
  {
    const char *azSpin[] = {"starq-worker", "--data-dir", "data", "--spin-us", "1000001", NULL};
    ASSERT_EQ(test_run(&proc, azSpin), WORKER_EXIT_USAGE);
    ASSERT(strstr(proc.zErr, "--spin-us must be a whole number from 0 to 1000000, not \"1000001\"") !=
           NULL);
    test_proc_free(&proc);
  }
  exectest_close(&t);
  return 0;
}

/* Eight threads, each running every SSB query in its own order through
** one worker that runs four at once; each result as in-process. */
typedef struct workertest_thread workertest_thread;
struct workertest_thread {
  worker *w;
  int iFirst;
  char **azSql;
  char **azWant;
};

static void *workertest_thread_main(void *p) {
  workertest_thread *a = p;
  for (int k = 0; k < WORKERTEST_NSSB * 2; k++) {
    int i = (a->iFirst + k) % WORKERTEST_NSSB;
    exec_result r;
    sql_error e;
    char *zGot;
    if (workertest_query(a->w, a->azSql[i], NULL, &r, &e) != 0) {
      FAIL("thread %d, %s: %s %s", a->iFirst, workertest_azSsb[i], e.zState, e.zMsg);
    }
    zGot = exectest_result_dump(&r);
    if (strcmp(zGot, a->azWant[i]) != 0) {
      FAIL("thread %d, %s:\n%s\n  expected:\n%s", a->iFirst, workertest_azSsb[i], zGot, a->azWant[i]);
    }
    free(zGot);
    exec_result_free(&r);
  }
  return NULL;
}

/* nThread threads run the SSB queries twice each, every thread from
** another query on, on a worker running 4 at once with spin nSpin; each
** result must be as in process. */
static void workertest_concurrent(int nThread, int nSpin) {
  enum { N_THREAD_MAX = 8 };
  char *azSql[WORKERTEST_NSSB], *azWant[WORKERTEST_NSSB];
  workertest_thread aT[N_THREAD_MAX];
  pthread_t aThread[N_THREAD_MAX];
  worker_stats st;
  exectest t;
  worker *w;
  ASSERT(nThread <= N_THREAD_MAX);
  exectest_open(&t, "0.05");
  for (int i = 0; i < WORKERTEST_NSSB; i++) {
    exec_result r;
    sql_error e;
    azSql[i] = workertest_ssb(i);
    if (exectest_exec(&t, azSql[i], &r, &e) != 0) FAIL("%s: %s", workertest_azSsb[i], e.zMsg);
    azWant[i] = exectest_result_dump(&r);
    exec_result_free(&r);
  }
  workertest_nSpin = nSpin;
  w = workertest_start(workertest_backend(), 4);
  workertest_nSpin = -1;
  for (int i = 0; i < nThread; i++) {
    aT[i].w = w;
    aT[i].iFirst = i;
    aT[i].azSql = azSql;
    aT[i].azWant = azWant;
    ASSERT_EQ(pthread_create(&aThread[i], NULL, workertest_thread_main, &aT[i]), 0);
  }
  for (int i = 0; i < nThread; i++) ASSERT_EQ(pthread_join(aThread[i], NULL), 0);
  worker_stats_get(w, &st);
  ASSERT_EQ(st.nQuery, (uint64_t)nThread * WORKERTEST_NSSB * 2);
  ASSERT_EQ(st.nInFlight, 0);
  ASSERT_EQ(st.nRestart, 0);
  worker_stop(w);
  for (int i = 0; i < WORKERTEST_NSSB; i++) {
    free(azSql[i]);
    free(azWant[i]);
  }
  exectest_close(&t);
}

TEST_IMPL(worker_concurrent) {
  workertest_concurrent(8, 0);
  return 0;
}

/* The same with both sides spinning (worker_config.nSpinMicros): the
** waiting query that reads the socket polls it before it sleeps, and so
** does the worker's reader while queries run; 2 threads of queries, so
** that answers are read for others too (the one a thread waits for is
** not always the next on the socket), and one alone. */
TEST_IMPL(worker_spin) {
  workertest_concurrent(2, 300);
  workertest_concurrent(1, 300);
  return 0;
}

/* A query in a thread of its own, for killing the worker under it. */
typedef struct workertest_bg workertest_bg;
struct workertest_bg {
  worker *w;
  const char *zSql;
  int rc;
  sql_error e;
};

static void *workertest_bg_main(void *p) {
  workertest_bg *b = p;
  exec_result r;
  b->rc = workertest_query(b->w, b->zSql, NULL, &r, &b->e);
  exec_result_free(&r);
  return NULL;
}

/* SIGKILL while a query is in flight: that query fails saying so, the
** next one runs on a new worker, and the restart is counted. The worker
** is stopped (SIGSTOP) first, so the query is certainly in flight. */
TEST_IMPL(worker_killed) {
  exectest t;
  worker *w;
  worker_stats st0, st;
  workertest_bg b;
  pthread_t th;
  char *zSql = workertest_ssb(3);
  exectest_open(&t, "0.01");
  w = workertest_start("cpu", 2);
  t.pWorker = w;
  exectest_check(&t, zSql, 1);
  worker_stats_get(w, &st0);
  ASSERT_EQ(kill(st0.iPid, SIGSTOP), 0);
  memset(&b, 0, sizeof(b));
  b.w = w;
  b.zSql = zSql;
  ASSERT_EQ(pthread_create(&th, NULL, workertest_bg_main, &b), 0);
  workertest_wait(w, workertest_one_in_flight, 30, "the query in flight");
  ASSERT_EQ(kill(st0.iPid, SIGKILL), 0);
  ASSERT_EQ(pthread_join(th, NULL), 0);
  ASSERT_EQ(b.rc, -1);
  ASSERT_STR_EQ(b.e.zState, "XX000");
  if (strstr(b.e.zMsg, "the device worker exited (killed by signal 9") != b.e.zMsg ||
      strstr(b.e.zMsg, ") and was restarted") == NULL) {
    FAIL("unexpected message: %s", b.e.zMsg);
  }
  exectest_check(&t, zSql, 1);               /* the next query works */
  worker_stats_get(w, &st);
  ASSERT_EQ(st.nRestart, 1);
  ASSERT_EQ(st.nStart, 2);
  ASSERT_EQ(st.nCrash, 1);
  ASSERT_EQ(st.nGpuLost, 0);
  ASSERT(st.bReady);
  ASSERT(st.iPid > 0 && st.iPid != st0.iPid);
  ASSERT(strstr(st.zLastExit, "killed by signal 9") == st.zLastExit);
  worker_stop(w);
  exectest_close(&t);
  free(zSql);
  return 0;
}

/* 1 if this process has a library mapped whose path contains zName. */
static int workertest_mapped(const char *zName) {
  char *zMaps = test_file_read("/proc/self/maps", NULL);
  int b = strstr(zMaps, zName) != NULL;
  free(zMaps);
  return b;
}

/* On the mock driver behaving as CUDA 13 (STARQ_CUDA_MOCK_STICKY: after a
** fault no context can be made again in the process), a faulting query
** fails with XX000, the worker exits for a new one, and the next query —
** and the SSB suite — runs on it. The server's process never loads CUDA. */
TEST_IMPL(worker_gpu_lost) {
  char zMock[4096], *zSql = workertest_ssb(0);
  exectest t;
  worker *w;
  worker_stats st0, st;
  refdb_result *pGot;
  sql_error e;
  exectest_open(&t, "0.01");
  snprintf(zMock, sizeof(zMock), "%s", test_bin(MOCK_LIB));
  setenv("STARQ_LIBCUDA", zMock, 1);
  setenv("STARQ_LIBNVRTC", zMock, 1);
  setenv("STARQ_CUDA_MOCK_STICKY", "1", 1);
  setenv("STARQ_CUDA_MOCK_FAULT_AT", "2", 1);    /* the first query's second launch */
  w = workertest_start("cuda", 2);
  /* Only the first worker has the fault planted: a restart inherits the
  ** environment as it is then. */
  unsetenv("STARQ_CUDA_MOCK_FAULT_AT");
  worker_stats_get(w, &st0);
  ASSERT(strstr(st0.zBackend, "cuda (starq mock GPU, sm_90") == st0.zBackend);
  t.pWorker = w;

  ASSERT(exectest_run(&t, zSql, &pGot, &e) != 0);
  ASSERT_STR_EQ(e.zState, "XX000");
  if (strstr(e.zMsg, "the GPU faulted and cannot be used again in this process; the device "
                     "worker restarts (") != e.zMsg ||
      strstr(e.zMsg, "CUDA_ERROR_ILLEGAL_ADDRESS") == NULL ||
      strstr(e.zMsg, "cannot be rebuilt in this process") == NULL) {
    FAIL("unexpected message: %s", e.zMsg);
  }
  exectest_check(&t, zSql, 1);               /* the next query, on a new worker */
  worker_stats_get(w, &st);
  ASSERT_EQ(st.nGpuLost, 1);
  ASSERT_EQ(st.nRestart, 1);
  ASSERT_EQ(st.nCrash, 0);
  ASSERT(st.iPid != st0.iPid);
  ASSERT(strstr(st.zLastExit, "the GPU was lost (exit status 75): ") == st.zLastExit);
  exectest_ssb_all(&t);
  worker_stats_get(w, &st);
  ASSERT_EQ(st.nRestart, 1);

  ASSERT(dlopen(zMock, RTLD_NOW | RTLD_NOLOAD) == NULL);
  ASSERT(!workertest_mapped(MOCK_LIB));
  ASSERT(!workertest_mapped("libcuda"));
  ASSERT(!workertest_mapped("libnvrtc"));
  worker_stop(w);
  exectest_close(&t);
  free(zSql);
  return 0;
}

/* A worker that dies and then cannot start (its data directory became a
** file): restarts back off instead of looping, queries fail at once with
** the reason, and once the directory is back a start succeeds. */
TEST_IMPL(worker_restart_backoff) {
  exectest t;
  worker *w;
  worker_stats st0, st;
  exec_result r;
  sql_error e;
  double t0;
  FILE *f;
  exectest_open(&t, "0.01");
  w = workertest_start("cpu", 1);
  t.pWorker = w;
  exectest_check(&t, "SELECT count(*) FROM lineorder", 0);
  worker_stats_get(w, &st0);
  ASSERT_EQ(rename("data", "data.away"), 0);
  ASSERT((f = fopen("data", "w")) != NULL);
  fclose(f);
  ASSERT_EQ(kill(st0.iPid, SIGKILL), 0);
  st = workertest_wait(w, workertest_two_failed, 60, "two failed starts");
  t0 = timer_now();
  ASSERT(workertest_query(w, "SELECT count(*) FROM lineorder", NULL, &r, &e) != 0);
  ASSERT(timer_now() - t0 < 1.0);            /* at once, not after a wait */
  ASSERT_STR_EQ(e.zState, "XX000");
  ASSERT(strstr(e.zMsg, "the device worker is not running: ") == e.zMsg);
  ASSERT(strstr(e.zMsg, "(exit status 69)") != NULL);
  ASSERT(strstr(st.zLastExit, "could not start: ") == st.zLastExit);
  ASSERT(!st.bReady);
  /* Not a hot loop: a start takes tens of ms; in 2 s, five at most. */
  workertest_sleep_ms(2000);
  worker_stats_get(w, &st0);
  ASSERT_LE(st0.nStart - st.nStart, 5);

  ASSERT_EQ(unlink("data"), 0);
  ASSERT_EQ(rename("data.away", "data"), 0);
  workertest_wait(w, workertest_ready, 60, "a worker ready again");
  exectest_check(&t, "SELECT count(*) FROM lineorder", 0);
  worker_stats_get(w, &st);
  ASSERT_EQ(st.nStartFail, 0);
  ASSERT_EQ(st.nCrash, 1);
  worker_stop(w);
  exectest_close(&t);
  return 0;
}

/* 1 if process pid has exited (gone, or a zombie nobody reaped yet). */
static int workertest_exited(int pid) {
  char zPath[64], zStat[512];
  FILE *f;
  size_t n;
  const char *zEnd;
  snprintf(zPath, sizeof(zPath), "/proc/%d/stat", pid);
  if ((f = fopen(zPath, "r")) == NULL) return 1;
  n = fread(zStat, 1, sizeof(zStat) - 1, f);
  fclose(f);
  zStat[n] = 0;
  zEnd = strrchr(zStat, ')');                /* "pid (comm) S ..." */
  return zEnd == NULL || zEnd[1] == 0 || zEnd[2] == 'Z' || zEnd[2] == 'X';
}

/* The server killed outright (SIGKILL: no worker_stop): its worker sees
** its socket end and exits, never outliving it. The "server" is a forked
** child of this test, made before this process has any thread. */
TEST_IMPL(worker_orphan) {
  const char *azGen[] = {"starq-gen", "--sf", "0.01", "--format", "store", "--out", "data",
                         "--quiet", NULL};
  int aPipe[2], pidWorker = 0, st;
  pid_t pidServer;
  double tEnd;
  test_run_ok(azGen);
  ASSERT_EQ(pipe(aPipe), 0);
  pidServer = fork();
  ASSERT(pidServer >= 0);
  if (pidServer == 0) {
    worker *w = workertest_start("cpu", 1);
    worker_stats s;
    worker_stats_get(w, &s);
    if (write(aPipe[1], &s.iPid, sizeof(s.iPid)) != (ssize_t)sizeof(s.iPid)) _exit(1);
    for (;;) pause();
  }
  close(aPipe[1]);
  ASSERT_EQ(read(aPipe[0], &pidWorker, sizeof(pidWorker)), (ssize_t)sizeof(pidWorker));
  close(aPipe[0]);
  ASSERT_GT(pidWorker, 0);
  ASSERT(!workertest_exited(pidWorker));
  ASSERT_EQ(kill(pidServer, SIGKILL), 0);
  ASSERT_EQ(waitpid(pidServer, &st, 0), pidServer);
  tEnd = timer_now() + 30;
  while (!workertest_exited(pidWorker)) {
    if (timer_now() > tEnd) FAIL("the worker %d outlived its server by 30 s", pidWorker);
    workertest_sleep_ms(20);
  }
  return 0;
}

/* A kernel fault in the worker, injected by the mock driver
** (STARQ_CUDA_MOCK_FAULT_FILE: one launch of whichever process faults)
** behaving as CUDA 13 does (STARQ_CUDA_MOCK_STICKY: no context again in
** that process): the query fails with XX000 and the GPU lost, the worker
** is replaced, and the next query gets the right answer on the new one.
** Mock only: on a real GPU nothing injects a fault (bench/fault-check.c
** shows the driver's side there). */
TEST_IMPL(worker_test_fault) {
  char zMock[4096], zFault[4200], zDir[4096], *zSql = workertest_ssb(3);
  exectest t;
  worker *w;
  worker_stats st0, st;
  refdb_result *pGot;
  sql_error e;
  FILE *f;
  if (strcmp(workertest_backend(), "cuda") == 0) return 0;   /* a real GPU: nothing to inject */
  exectest_open(&t, "0.01");
  ASSERT(getcwd(zDir, sizeof(zDir)) != NULL);
  snprintf(zMock, sizeof(zMock), "%s", test_bin(MOCK_LIB));
  snprintf(zFault, sizeof(zFault), "%s/fault-next", zDir);
  setenv("STARQ_LIBCUDA", zMock, 1);
  setenv("STARQ_LIBNVRTC", zMock, 1);
  setenv("STARQ_CUDA_MOCK_FAULT_FILE", zFault, 1);
  setenv("STARQ_CUDA_MOCK_STICKY", "1", 1);
  w = workertest_start("cuda", 2);
  worker_stats_get(w, &st0);
  t.pWorker = w;
  exectest_check(&t, zSql, 1);
  f = fopen(zFault, "w");                    /* the next launch faults */
  ASSERT(f != NULL && fclose(f) == 0);
  ASSERT(exectest_run(&t, zSql, &pGot, &e) != 0);
  ASSERT_STR_EQ(e.zState, "XX000");
  if (strstr(e.zMsg, "CUDA_ERROR_ILLEGAL_ADDRESS") == NULL) FAIL("unexpected: %s", e.zMsg);
  exectest_check(&t, zSql, 1);               /* on a new worker */
  exectest_ssb_all(&t);
  worker_stats_get(w, &st);
  ASSERT_EQ(st.nRestart, 1);
  ASSERT_EQ(st.nGpuLost, 1);
  ASSERT(st.iPid != st0.iPid);
  worker_stop(w);
  exectest_close(&t);
  unsetenv("STARQ_CUDA_MOCK_FAULT_FILE");
  unsetenv("STARQ_CUDA_MOCK_STICKY");
  free(zSql);
  return 0;
}
