/*
** tests/test-exec-concurrent.c — queries running at once on one CUDA
** backend (issue 10's throughput: each query on a stream of its own), on
** the mock driver, whose streams run their work only when waited for, so
** a query that read a result or gave back a buffer before waiting for its
** stream would read wrong bytes here:
**
**   exec_cuda_concurrent        four threads run the SSB queries over and
**                               over, with every column resident, then
**                               with the fact columns streamed in strides
**                               and resident columns evicted under them;
**                               every result is the one SQLite agreed to
**   exec_cuda_concurrent_fault  the same while one query's kernel faults:
**                               the queries in flight then fail with the
**                               CUDA error, none answers wrongly, the
**                               context is rebuilt and all run again
**   exec_cuda_outputs_one_wait  a small aggregate's outputs come in the
**                               wait for its control block
**   colmem_load_once            two queries asking for one column copy it
**                               once, the second waiting for the first's
**                               copy; the copy holds no lock others need,
**                               and eviction leaves a column being loaded
**                               or held alone
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test-cuda-mock.h"
#include "test-exec.h"
#include "test.h"

#define CONC_THREADS 4
#define CONC_QUERIES EXECTEST_SSB_N

typedef exectest_ssb_set conc_set;

/* One thread's share. */
typedef struct conc_thread conc_thread;
struct conc_thread {
  exectest *t;
  const conc_set *pSet;
  int iThread;
  int nRound;
  int bErrorsAllowed;      /* a fault is coming: an error is an answer, a
                           ** wrong result never is */
  int nOk, nError;
  char zError[512];        /* the first error */
};

/* Runs every query nRound times, each thread in its own order, through
** the shared engine (which lends each statement a catalog handle). */
static void *conc_thread_main(void *pArg) {
  conc_thread *c = pArg;
  for (int k = 0; k < c->nRound * CONC_QUERIES; k++) {
    int i = (k * (2 * c->iThread + 1) + 3 * c->iThread) % CONC_QUERIES;
    exec_result r;
    sql_error e;
    if (exectest_request(c->t->pEngine, ENGINE_SELECT, 0, NULL, c->pSet->azSql[i], &r, &e) == 0) {
      char *zGot = exectest_result_dump(&r);
      if (strcmp(zGot, c->pSet->azWant[i]) != 0) {
        FAIL("thread %d, %s: a result differs from the checked one:\n%s\nwanted:\n%s", c->iThread,
             exectest_azSsb[i], zGot, c->pSet->azWant[i]);
      }
      free(zGot);
      c->nOk++;
    } else {
      if (!c->bErrorsAllowed) FAIL("thread %d, %s: %s %s", c->iThread, exectest_azSsb[i], e.zState, e.zMsg);
      /* What a fault elsewhere leaves: the CUDA error, never SQL's. */
      if (strcmp(e.zState, "XX000") != 0 || strstr(e.zMsg, "CUDA") == NULL) {
        FAIL("thread %d, %s: not the error of a fault: %s %s", c->iThread, exectest_azSsb[i],
             e.zState, e.zMsg);
      }
      if (c->nError++ == 0) snprintf(c->zError, sizeof(c->zError), "%s", e.zMsg);
    }
    exec_result_free(&r);
  }
  return NULL;
}

/* Runs CONC_THREADS threads of nRound rounds; returns the errors. */
static int conc_run(exectest *t, const conc_set *pSet, int nRound, int bErrorsAllowed) {
  pthread_t aThread[CONC_THREADS];
  conc_thread aC[CONC_THREADS];
  int nError = 0, nOk = 0;
  for (int i = 0; i < CONC_THREADS; i++) {
    memset(&aC[i], 0, sizeof(aC[i]));
    aC[i].t = t;
    aC[i].pSet = pSet;
    aC[i].iThread = i;
    aC[i].nRound = nRound;
    aC[i].bErrorsAllowed = bErrorsAllowed;
    ASSERT_EQ(pthread_create(&aThread[i], NULL, conc_thread_main, &aC[i]), 0);
  }
  for (int i = 0; i < CONC_THREADS; i++) {
    ASSERT_EQ(pthread_join(aThread[i], NULL), 0);
    nError += aC[i].nError;
    nOk += aC[i].nOk;
    if (aC[i].nError > 0) printf("thread %d: %d errors, the first: %s\n", i, aC[i].nError, aC[i].zError);
  }
  ASSERT_EQ(nOk + nError, CONC_THREADS * nRound * CONC_QUERIES);
  return nError;
}

static void conc_configure(exectest *t, int64_t nPinned, int64_t nDevice) {
  static const stride_options so = {64 << 10, -1, 2};      /* dozens of strides */
  colmem_options mo = {nPinned, nDevice};
  char zErr[512];
  if (exec_backend_configure(&t->be, &mo, &so, zErr, sizeof(zErr)) != 0) FAIL("configure: %s", zErr);
}

/* Opens SSB at SF 0.02 on the mock and checks the queries' results. */
static void conc_open(exectest *t, conc_set *pSet) {
  cuda_options o = mocktest_options("cudacache");
  exectest_open_cuda(t, "0.02", &o);
  exectest_ssb_set_init(t, pSet);
}

TEST_IMPL(exec_cuda_concurrent) {
  colmem_stats st;
  conc_set set;
  exectest t;
  conc_open(&t, &set);

  /* Every column resident: the queries' kernels and reads overlap. */
  ASSERT_EQ(conc_run(&t, &set, 2, 0), 0);
  ASSERT_EQ(mocktest_stats().nAlloc > 0, 1);

  /* Nothing pinned, so the fact columns stream in strides, and a device
  ** budget for a few columns at a time: resident columns are loaded and
  ** evicted under the running queries. */
  conc_configure(&t, 0, 1 << 20);
  ASSERT_EQ(conc_run(&t, &set, 2, 0), 0);
  colmem_stats_get(t.be.pMem, &st);
  ASSERT_GT(st.nLoad, 0);
  ASSERT_GT(st.nEvict, 0);
  ASSERT_EQ(st.nResident <= st.nResidentBudget, 1);
  exectest_check(&t, set.azSql[0], 1);
  ASSERT_GT(t.last.nStride, 1);                  /* it did stream */

  exectest_ssb_set_free(&set);
  exectest_close(&t);
  ASSERT_EQ(mocktest_stats().nAlloc, 0);
  return 0;
}

/* The host's waits for one run of zSql (warm: its module is loaded). */
static int conc_waits(exectest *t, const char *zSql, int bOrdered) {
  int n0;
  exectest_check(t, zSql, bOrdered);
  n0 = mocktest_stream_syncs();
  exectest_check(t, zSql, bOrdered);
  return mocktest_stream_syncs() - n0;
}

/* An aggregate whose outputs are small has them read in the same wait as
** its control block: one wait fewer than a query whose rows are counted
** first. The rows are SQLite's either way; the mock runs a stream's work
** only when it is waited for, so rows read before their wait would be
** wrong. A group table that grows (a second round) reads its outputs
** again, at the new size. */
TEST_IMPL(exec_cuda_outputs_one_wait) {
  conc_set set;
  exectest t;
  int nAgg, nRows, nBig;
  conc_open(&t, &set);
  nAgg = conc_waits(&t, set.azSql[0], 1);                    /* Q1.1: one row */
  nRows = conc_waits(&t, "SELECT lo_orderkey, lo_linenumber FROM lineorder "
                         "WHERE lo_quantity = 1 AND lo_discount = 0", 0);
  /* 7 years x 1,000 brands of slots: outputs over 64 KiB, read after. */
  nBig = conc_waits(&t, set.azSql[3], 1);
  ASSERT_EQ(nAgg + 1, nRows);
  ASSERT_EQ(nAgg + 1, nBig);
  exectest_ssb_set_free(&set);
  exectest_close(&t);
  return 0;
}

TEST_IMPL(exec_cuda_concurrent_fault) {
  mock_stats s0;
  conc_set set;
  exectest t;
  conc_open(&t, &set);
  s0 = mocktest_stats();

  /* A launch a few queries in faults; which query it is depends on the
  ** threads, what must follow does not. */
  mocktest_fault_launch(17);
  ASSERT_GT(conc_run(&t, &set, 2, 1), 0);
  ASSERT_GT(mocktest_stats().nContextEnded, s0.nContextEnded);   /* rebuilt */
  ASSERT(!exec_backend_lost(&t.be));

  /* The rebuilt context answers everything, at once and one by one. */
  ASSERT_EQ(conc_run(&t, &set, 1, 0), 0);
  for (int i = 0; i < CONC_QUERIES; i++) exectest_check(&t, set.azSql[i], 1);

  exectest_ssb_set_free(&set);
  exectest_close(&t);
  return 0;
}

/* ---- colmem_load_once ---------------------------------------------------------- */

typedef struct load_arg load_arg;
struct load_arg {
  exectest *t;
  const cat_table *pTable;
  int iCol;
  colmem_ref ref;
};

static void *load_thread_main(void *pArg) {
  load_arg *a = pArg;
  sql_error e;
  if (colmem_acquire(a->t->be.pMem, a->t->pCat, a->pTable, a->iCol, STORE_VALUES, COLMEM_USE_SCAN,
                     1, &a->ref, &e) != 0) {
    FAIL("colmem_acquire: %s", e.zMsg);
  }
  return NULL;
}

static int load_column(const cat_table *p, const char *zName) {
  for (int i = 0; i < p->nCol; i++) {
    if (strcmp(p->aCol[i].zName, zName) == 0) return i;
  }
  FAIL("no column %s", zName);
  return -1;
}

/* Polls until f() is n (the test's timeout bounds the wait). */
static void load_wait_for(int (*f)(exectest *), exectest *t, int n, const char *zWhat) {
  for (int i = 0; f(t) != n; i++) {
    if (i % 5000 == 4999) printf("still waiting for %s\n", zWhat);
    usleep(1000);
  }
}

static int load_copies_waiting(exectest *t) {
  (void)t;
  return mocktest_copies_waiting();
}

static int load_waits(exectest *t) {
  colmem_stats st;
  colmem_stats_get(t->be.pMem, &st);
  return (int)st.nLoadWait;
}

TEST_IMPL(colmem_load_once) {
  cuda_options o = mocktest_options("cudacache");
  load_arg a, b;
  pthread_t thA, thB;
  colmem_ref held, again;
  colmem_stats st0, st;
  cat_table *pT;
  sql_error e;
  char zErr[512];
  exectest t;

  exectest_open_cuda(&t, "0.01", &o);
  if (cat_table_get(t.pCat, "lineorder", &pT, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  memset(&a, 0, sizeof(a));
  a.t = &t;
  a.pTable = pT;
  a.iCol = load_column(pT, "lo_revenue");
  b = a;

  /* One column resident and held, as a running query holds it. */
  ASSERT_EQ(colmem_acquire(t.be.pMem, t.pCat, pT, load_column(pT, "lo_quantity"), STORE_VALUES,
                           COLMEM_USE_SCAN, 1, &held, &e), 0);
  ASSERT_EQ(held.ePlace, COLMEM_RESIDENT);
  colmem_stats_get(t.be.pMem, &st0);

  /* A query copies lo_revenue; its copy waits at the gate. */
  mocktest_copy_gate(1);
  ASSERT_EQ(pthread_create(&thA, NULL, load_thread_main, &a), 0);
  load_wait_for(load_copies_waiting, &t, 1, "the first copy");

  /* Meanwhile the cache answers: another query's resident column, the
  ** figures, an eviction — which frees neither the held column nor the
  ** one being loaded. */
  ASSERT_EQ(colmem_acquire(t.be.pMem, t.pCat, pT, load_column(pT, "lo_quantity"), STORE_VALUES,
                           COLMEM_USE_SCAN, 1, &again, &e), 0);
  ASSERT_EQ(again.ePlace, COLMEM_RESIDENT);
  ASSERT_EQ(again.iAddr, held.iAddr);
  ASSERT_EQ(colmem_evict_all(t.be.pMem), 0);

  /* A second query for lo_revenue waits for that copy, and makes none. */
  ASSERT_EQ(pthread_create(&thB, NULL, load_thread_main, &b), 0);
  load_wait_for(load_waits, &t, 1, "the second query to wait");
  ASSERT_EQ(mocktest_copies_waiting(), 1);

  mocktest_copy_gate(0);
  ASSERT_EQ(pthread_join(thA, NULL), 0);
  ASSERT_EQ(pthread_join(thB, NULL), 0);
  colmem_stats_get(t.be.pMem, &st);
  ASSERT_EQ(st.nLoad, st0.nLoad + 1);
  ASSERT_EQ(st.nLoadWait, 1);
  ASSERT_EQ(a.ref.ePlace, COLMEM_RESIDENT);
  ASSERT_EQ(b.ref.ePlace, COLMEM_RESIDENT);
  ASSERT_EQ(a.ref.iAddr, b.ref.iAddr);
  ASSERT_EQ(a.ref.bPlain, b.ref.bPlain);

  /* Held, nothing is evicted; let go, both go. */
  ASSERT_EQ(colmem_evict_all(t.be.pMem), 0);
  colmem_release(t.be.pMem, &a.ref);
  colmem_release(t.be.pMem, &b.ref);
  colmem_release(t.be.pMem, &again);
  colmem_release(t.be.pMem, &held);
  ASSERT_GT(colmem_evict_all(t.be.pMem), 0);
  colmem_stats_get(t.be.pMem, &st);
  ASSERT_EQ(st.nResident, 0);

  cat_table_free(pT);
  exectest_close(&t);
  return 0;
}
