/*
** tests/test-exec-share.c — shared circular scans (runtime/scan-share.h):
** statements that stream lineorder at once share one pass over it, and
** each gets the answer it gets alone — the one SQLite agreed to:
**
**   exec_shared_scans       CPU backend, nothing pinned, small stride
**                           buffers: threads run the 13 SSB queries (four
**                           column sets, several of them subsets of Q4's)
**                           at random moments, some cancelled at random;
**                           one statement joins another's scan mid-way
**                           and says so; one whose columns the scan
**                           lacks widens it mid-way (also when the
**                           scan's first statement is cancelled); one
**                           that fails (22012) while attached fails
**                           alone; EXPLAIN ANALYZE says whether a
**                           statement shared; with starq.shared_scans
**                           off nothing is shared; on CUDA (gpu-tests)
**                           then the mock test's pinned part below too
**   exec_shared_scans_mock  the same on the mock CUDA driver, whose
**                           streams run their work only when waited for,
**                           so a kernel still reading a stride when its
**                           buffers took the next would read wrong bytes;
**                           then with columns pinned whole: one statement
**                           alone reads them in place, statements at once
**                           share scans of them
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../runtime/scan-share.h"
#include "test-cuda-mock.h"
#include "test-exec.h"
#include "test.h"

#define SHARE_THREADS 6
#define SHARE_QUERIES EXECTEST_SSB_N

typedef exectest_ssb_set share_set;

/* One thread's share of a run. */
typedef struct share_thread share_thread;
struct share_thread {
  exectest *t;
  const share_set *pSet;
  int iThread;
  int nQuery;              /* statements to run */
  int bCancel;             /* cancel some of them at random moments */
  unsigned iSeed;
  _Atomic int bStop;       /* the statement's cancel flag */
  int nOk, nCancelled, nShared;
};

/* Checks each query against SQLite, alone (sharing off); its result is
** then what every run must give. */
static void share_set_init(exectest *t, share_set *p) {
  static const exec_options xoAlone = {.bNoShare = 1};
  t->pOpt = &xoAlone;
  exectest_ssb_set_init(t, p);
  ASSERT_EQ(t->last.nShareWith, 0);
  t->pOpt = NULL;
}

/* Cancels a statement after a random few milliseconds. */
typedef struct share_canceller share_canceller;
struct share_canceller {
  _Atomic int *pbStop;
  unsigned nMicros;
};

static void *share_cancel_main(void *pArg) {
  share_canceller *c = pArg;
  usleep(c->nMicros);
  *c->pbStop = 1;
  return NULL;
}

/* Runs nQuery random queries, each after a random pause. */
static void *share_thread_main(void *pArg) {
  share_thread *c = pArg;
  for (int k = 0; k < c->nQuery; k++) {
    int i = (int)(rand_r(&c->iSeed) % SHARE_QUERIES);
    int bCancel = c->bCancel && rand_r(&c->iSeed) % 3 == 0;
    exec_options xo = {.pbCancel = &c->bStop};
    share_canceller cc = {&c->bStop, 1000 + rand_r(&c->iSeed) % 40000};
    pthread_t th;
    exec_result r;
    sql_error e;
    int rc;
    usleep(rand_r(&c->iSeed) % 20000);
    c->bStop = 0;
    if (bCancel) ASSERT_EQ(pthread_create(&th, NULL, share_cancel_main, &cc), 0);
    rc = exectest_request(c->t->pEngine, ENGINE_SELECT, 0, &xo, c->pSet->azSql[i], &r, &e);
    if (bCancel) ASSERT_EQ(pthread_join(th, NULL), 0);
    if (rc == 0) {
      char *zGot = exectest_result_dump(&r);
      if (strcmp(zGot, c->pSet->azWant[i]) != 0) {
        FAIL("thread %d, %s: a result differs from the one alone:\n%s\nwanted:\n%s", c->iThread,
             exectest_azSsb[i], zGot, c->pSet->azWant[i]);
      }
      free(zGot);
      c->nOk++;
      c->nShared += r.nShareWith > 0;
    } else {
      if (!bCancel || strcmp(e.zState, "57014") != 0) {
        FAIL("thread %d, %s: %s %s", c->iThread, exectest_azSsb[i], e.zState, e.zMsg);
      }
      c->nCancelled++;
    }
    exec_result_free(&r);
  }
  return NULL;
}

/* Runs SHARE_THREADS threads of nQuery statements each; returns the
** statements that read a stride with another attached. */
static int share_run(exectest *t, const share_set *pSet, int nQuery, int bCancel, unsigned iSeed) {
  pthread_t aThread[SHARE_THREADS];
  share_thread aC[SHARE_THREADS];
  int nShared = 0, nDone = 0;
  for (int i = 0; i < SHARE_THREADS; i++) {
    memset(&aC[i], 0, sizeof(aC[i]));
    aC[i].t = t;
    aC[i].pSet = pSet;
    aC[i].iThread = i;
    aC[i].nQuery = nQuery;
    aC[i].bCancel = bCancel;
    aC[i].iSeed = iSeed * 31 + (unsigned)i;
    ASSERT_EQ(pthread_create(&aThread[i], NULL, share_thread_main, &aC[i]), 0);
  }
  for (int i = 0; i < SHARE_THREADS; i++) {
    ASSERT_EQ(pthread_join(aThread[i], NULL), 0);
    nShared += aC[i].nShared;
    nDone += aC[i].nOk + aC[i].nCancelled;
  }
  ASSERT_EQ(nDone, SHARE_THREADS * nQuery);
  return nShared;
}

/* ---- one statement joining another's scan ----------------------------------------- */

typedef struct share_one share_one;
struct share_one {
  exectest *t;
  const char *zSql;
  _Atomic int bStop;       /* its cancel flag */
  _Atomic int bDone;       /* it has its answer */
  exec_result r;
  sql_error e;
  int rc;
};

static void *share_one_main(void *pArg) {
  share_one *a = pArg;
  exec_options xo = {.pbCancel = &a->bStop};
  a->rc = exectest_request(a->t->pEngine, ENGINE_SELECT, 0, &xo, a->zSql, &a->r, &a->e);
  a->bDone = 1;
  return NULL;
}

/* Waits until a scan is running (nAttach0 UINT64_MAX), or until a
** statement has attached to one since the registry counted nAttach0, or
** until statement a is done (its scan may end before this looks). */
static void share_wait_scan(exectest *t, const share_one *a, uint64_t nAttach0) {
  scan_share_stats st;
  while (!a->bDone) {
    scan_share_stats_get(t->be.pShare, &st);
    if (nAttach0 == UINT64_MAX ? st.nRunning > 0 : st.nAttach > nAttach0) return;
    usleep(100);
  }
}

/* Runs SSB query iA and, as soon as its scan is going, iB, whose columns
** the scan lacks (iB's but lo_orderdate), until iB has widened the scan
** mid-way; both answers are the ones alone. With bCancelA, iA is cancelled
** once iB has joined: iB still gets its answer alone, iA 57014 (or its
** answer, when it finished first). Returns the tries it took. */
static int share_widen_midway(exectest *t, const share_set *pSet, int iA, int iB, int bCancelA) {
  for (int nTry = 1; nTry <= 50; nTry++) {
    share_one a = {.t = t, .zSql = pSet->azSql[iA]};
    share_one b = {.t = t, .zSql = pSet->azSql[iB]};
    scan_share_stats st0, st;
    pthread_t thA, thB;
    char *z;
    int bWidened;
    ASSERT_EQ(pthread_create(&thA, NULL, share_one_main, &a), 0);
    share_wait_scan(t, &a, UINT64_MAX);
    scan_share_stats_get(t->be.pShare, &st0);
    ASSERT_EQ(pthread_create(&thB, NULL, share_one_main, &b), 0);
    if (bCancelA) {
      share_wait_scan(t, &a, st0.nAttach);
      usleep(2000);
      a.bStop = 1;
    }
    ASSERT_EQ(pthread_join(thA, NULL), 0);
    ASSERT_EQ(pthread_join(thB, NULL), 0);
    scan_share_stats_get(t->be.pShare, &st);
    if (a.rc != 0 && (!bCancelA || strcmp(a.e.zState, "57014") != 0)) {
      FAIL("%s: %s %s", exectest_azSsb[iA], a.e.zState, a.e.zMsg);
    }
    if (b.rc != 0) FAIL("%s: %s %s", exectest_azSsb[iB], b.e.zState, b.e.zMsg);
    if (a.rc == 0) {
      z = exectest_result_dump(&a.r);
      ASSERT_STR_EQ(z, pSet->azWant[iA]);
      free(z);
    }
    z = exectest_result_dump(&b.r);
    ASSERT_STR_EQ(z, pSet->azWant[iB]);
    free(z);
    bWidened = st.nWiden > st0.nWiden && b.r.nShareWith > 0 && b.r.nShareStride > 0;
    exec_result_free(&a.r);
    exec_result_free(&b.r);
    if (bWidened) return nTry;
  }
  FAIL("%s never widened %s's scan in 50 tries", exectest_azSsb[iB], exectest_azSsb[iA]);
  return 0;
}

/* Runs Q4.1 and, as soon as its scan is going, Q2.1 (whose columns are a
** subset of Q4.1's) until Q2.1 has joined it mid-way; both answers are
** the ones alone. Returns the tries it took. */
static int share_join_midway(exectest *t, const share_set *pSet) {
  for (int nTry = 1; nTry <= 50; nTry++) {
    share_one a = {.t = t, .zSql = pSet->azSql[10]};
    share_one b = {.t = t, .zSql = pSet->azSql[3]};
    pthread_t thA, thB;
    char *z;
    int bJoined;
    ASSERT_EQ(pthread_create(&thA, NULL, share_one_main, &a), 0);
    share_wait_scan(t, &a, UINT64_MAX);
    ASSERT_EQ(pthread_create(&thB, NULL, share_one_main, &b), 0);
    ASSERT_EQ(pthread_join(thA, NULL), 0);
    ASSERT_EQ(pthread_join(thB, NULL), 0);
    if (a.rc != 0) FAIL("q4.1: %s %s", a.e.zState, a.e.zMsg);
    if (b.rc != 0) FAIL("q2.1: %s %s", b.e.zState, b.e.zMsg);
    z = exectest_result_dump(&a.r);
    ASSERT_STR_EQ(z, pSet->azWant[10]);
    free(z);
    z = exectest_result_dump(&b.r);
    ASSERT_STR_EQ(z, pSet->azWant[3]);
    free(z);
    ASSERT_EQ(b.r.nShareWith > 0, a.r.nShareWith > 0);
    bJoined = b.r.nShareWith > 0 && b.r.nShareStride > 0;
    exec_result_free(&a.r);
    exec_result_free(&b.r);
    if (bJoined) return nTry;
  }
  FAIL("Q2.1 never joined Q4.1's scan in 50 tries");
  return 0;
}

/* A statement that fails (division by zero in its SCAN) while attached
** to another's scan fails alone: the other's answer is the one alone. */
static void share_error_alone(exectest *t, const share_set *pSet) {
  share_one a = {.t = t, .zSql = pSet->azSql[10]};
  share_one b = {.t = t,
                 .zSql = "SELECT sum(lo_revenue / (lo_supplycost - lo_supplycost))"
                         " FROM lineorder WHERE lo_custkey > 0 AND lo_partkey > 0"};
  pthread_t thA, thB;
  char *z;
  ASSERT_EQ(pthread_create(&thA, NULL, share_one_main, &a), 0);
  share_wait_scan(t, &a, UINT64_MAX);
  ASSERT_EQ(pthread_create(&thB, NULL, share_one_main, &b), 0);
  ASSERT_EQ(pthread_join(thA, NULL), 0);
  ASSERT_EQ(pthread_join(thB, NULL), 0);
  if (a.rc != 0) FAIL("q4.1: %s %s", a.e.zState, a.e.zMsg);
  ASSERT_EQ(b.rc, -1);
  ASSERT_STR_EQ(b.e.zState, "22012");
  z = exectest_result_dump(&a.r);
  ASSERT_STR_EQ(z, pSet->azWant[10]);
  free(z);
  exec_result_free(&a.r);
  exec_result_free(&b.r);
}

/* EXPLAIN ANALYZE of a lone streamed statement says it read alone. */
static void share_explain_alone(exectest *t, const char *zSql) {
  exec_result r;
  sql_error e;
  strbuf s;
  int bFound = 0;
  int rc = exectest_request(t->pEngine, ENGINE_EXPLAIN, ENGINE_EXPLAIN_ANALYZE, NULL, zSql, &r, &e);
  if (rc != 0) {
    FAIL("explain analyze: %s %s", e.zState, e.zMsg);
  }
  strbuf_init(&s);
  for (int64_t i = 0; i < r.nRow; i++) {
    strbuf_reset(&s);
    exec_result_text(&r, i, 0, &s);
    if (strstr(s.z, "Shared scan: ") != NULL) {
      bFound = 1;
      if (strstr(s.z, "Shared scan: read alone") == NULL) FAIL("not alone: %s", s.z);
    }
  }
  strbuf_free(&s);
  exec_result_free(&r);
  if (!bFound) FAIL("EXPLAIN ANALYZE has no Shared scan line");
}

static void share_configure(exectest *t) {
  static const stride_options so = {64 << 10, -1, 2};      /* dozens of strides */
  colmem_options mo = {0, 0};                               /* everything streams */
  char zErr[512];
  if (exec_backend_configure(&t->be, &mo, &so, zErr, sizeof(zErr)) != 0) {
    FAIL("configure: %s", zErr);
  }
}

/* The whole test on t's backend. */
static void share_all(exectest *t) {
  static const exec_options xoOff = {.bNoShare = 1};
  scan_share_stats st0, st;
  share_set set;
  share_configure(t);
  share_set_init(t, &set);
  ASSERT_GT(t->last.nStride, 5);
  share_explain_alone(t, set.azSql[0]);

  /* One statement joins another's scan mid-way. */
  printf("joined mid-way after %d tries\n", share_join_midway(t, &set));
  /* Q2.1 needs lo_partkey, lo_suppkey, lo_revenue that Q1.1's scan does
  ** not read; Q4.1 cancelled while Q1.1 reads its widened scan. */
  printf("widened mid-way after %d tries\n", share_widen_midway(t, &set, 0, 3, 0));
  printf("widened, then cancelled, after %d tries\n", share_widen_midway(t, &set, 10, 0, 1));

  share_error_alone(t, &set);

  /* Random arrivals, then random cancels too. */
  scan_share_stats_get(t->be.pShare, &st0);
  printf("%d statements shared a scan\n", share_run(t, &set, 8, 0, 1));
  printf("%d statements shared a scan, with cancels\n", share_run(t, &set, 8, 1, 2));
  scan_share_stats_get(t->be.pShare, &st);
  ASSERT_EQ(st.nRunning, 0);
  ASSERT_GT(st.nAttach, st0.nAttach);
  ASSERT_GT(st.nWiden, st0.nWiden);                  /* the 13 of four column sets */
  ASSERT_GT(st.nStrideShared, st0.nStrideShared);
  ASSERT_GT(st.nStrideRead, st.nStrideCopied);        /* a copy read more than once */
  /* On CUDA a stride read by several crosses PCIe once, to device memory. */
  if (t->be.eKind == EXEC_BACKEND_CUDA) ASSERT_GT(st.nStrideStaged, 0);
  else ASSERT_EQ(st.nStrideStaged, 0);

  /* Off: nothing is shared, and the answers are the same. */
  for (int i = 0; i < SHARE_QUERIES; i += 4) {
    t->pOpt = &xoOff;
    exectest_check(t, set.azSql[i], 1);
    ASSERT_EQ(t->last.nShareWith, 0);
  }
  t->pOpt = NULL;
  scan_share_stats_get(t->be.pShare, &st0);
  ASSERT_EQ(st0.nScan, st.nScan);
  exectest_ssb_set_free(&set);
}

/* Columns pinned whole (CUDA): a statement alone reads them in place and
** starts no scan; statements that start while another scans stream them
** through shared scans, copied to the device once a stride for all. */
static void share_pinned(exectest *t, const share_set *pSet) {
  static const stride_options so = {64 << 10, -1, 2};
  colmem_options mo = {(int64_t)1 << 30, 0};                /* everything pinned */
  scan_share_stats st0, st;
  char zErr[512];
  if (exec_backend_configure(&t->be, &mo, &so, zErr, sizeof(zErr)) != 0) {
    FAIL("configure: %s", zErr);
  }
  scan_share_stats_get(t->be.pShare, &st0);
  exectest_check(t, pSet->azSql[0], 1);
  ASSERT_GT(t->last.nColPinned, 0);
  ASSERT_EQ(t->last.nColStreamed, 0);
  scan_share_stats_get(t->be.pShare, &st);
  ASSERT_EQ(st.nScan, st0.nScan);
  ASSERT_EQ(st.nScanning, 0);
  /* A scan in flight the whole time (on the mock driver a pinned scan is
  ** too short for the mix's statements to meet by chance): every
  ** statement then starts while another scans. */
  ASSERT_EQ(scan_share_enter(t->be.pShare), 0);
  printf("%d statements shared a scan of pinned columns\n", share_run(t, pSet, 6, 1, 3));
  scan_share_exit(t->be.pShare);
  scan_share_stats_get(t->be.pShare, &st);
  ASSERT_GT(st.nScan, st0.nScan);
  ASSERT_GT(st.nAttach, st0.nAttach);
  ASSERT_GT(st.nStrideStaged, st0.nStrideStaged);
  ASSERT_EQ(st.nRunning, 0);
  ASSERT_EQ(st.nScanning, 0);
}

TEST_IMPL(exec_shared_scans) {
  exectest t;
  exectest_open(&t, "0.05");
  share_all(&t);
  if (t.be.eKind == EXEC_BACKEND_CUDA) {              /* bench/device.sh gpu-tests */
    share_set set;
    share_set_init(&t, &set);
    share_pinned(&t, &set);
    exectest_ssb_set_free(&set);
  }
  exectest_close(&t);
  return 0;
}

TEST_IMPL(exec_shared_scans_mock) {
  cuda_options o = mocktest_options("cudacache");
  exectest t;
  share_set set;
  exectest_open_cuda(&t, "0.02", &o);
  share_all(&t);
  share_set_init(&t, &set);
  share_pinned(&t, &set);
  exectest_ssb_set_free(&set);
  exectest_close(&t);
  ASSERT_EQ(mocktest_stats().nAlloc, 0);
  return 0;
}
