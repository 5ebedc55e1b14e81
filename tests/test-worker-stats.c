/*
** tests/test-worker-stats.c — what passes beside the queries between the
** supervisor and the device worker: WIRE_STATS (the worker's device and
** column cache, for /status) and WIRE_CANCEL (a session's cancel reaching
** a query that runs in the worker), on the wire alone and end to end.
*/
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../common/timer.h"
#include "../worker/wire.h"
#include "test-cuda-mock.h"
#include "test-exec.h"
#include "test.h"
#include "workertest.h"

/* Encodes d, decodes it, and fails unless the two are the same. */
static void statstest_roundtrip(const worker_device *d) {
  worker_device *p = malloc(sizeof(*p));
  wire_buf b;
  char zErr[256];
  ASSERT(p != NULL);
  wire_buf_init(&b, WIRE_STATS);
  wire_stats_encode(&b, d);
  ASSERT(!b.bOom);
  if (wire_stats_decode(wire_buf_body(&b), wire_buf_body_size(&b), p, zErr, sizeof(zErr)) != 0) {
    FAIL("%s", zErr);
  }
  ASSERT_STR_EQ(p->zDevice, d->zDevice);
  ASSERT_EQ(p->nMemUsed, d->nMemUsed);
  ASSERT_EQ(p->nMemTotal, d->nMemTotal);
  ASSERT_EQ(p->nPinned, d->nPinned);
  ASSERT_EQ(p->nResident, d->nResident);
  ASSERT(p->bw.rZeroCopy == d->bw.rZeroCopy && p->bw.rDevice == d->bw.rDevice);
  ASSERT_EQ(p->eWarm, d->eWarm);
  ASSERT_EQ(p->nWarmDone, d->nWarmDone);
  ASSERT_EQ(p->nWarmTotal, d->nWarmTotal);
  ASSERT_EQ(p->nTable, d->nTable);
  ASSERT(memcmp(p->aTable, d->aTable, (size_t)d->nTable * sizeof(d->aTable[0])) == 0);
  wire_buf_free(&b);
  free(p);
}

/* Decodes the n bytes at a as STATS; fails unless refused with zWant. */
static void statstest_bad(const unsigned char *a, size_t n, const char *zWant) {
  worker_device *p = malloc(sizeof(*p));
  char zErr[256];
  ASSERT(p != NULL);
  if (wire_stats_decode(a, n, p, zErr, sizeof(zErr)) == 0) FAIL("accepted (%zu bytes)", n);
  if (strstr(zErr, zWant) == NULL) FAIL("got \"%s\", wanted \"%s\"", zErr, zWant);
  ASSERT_EQ(p->nTable, 0);
  free(p);
}

TEST_IMPL(worker_wire_stats) {
  worker_device *d = calloc(1, sizeof(*d));
  wire_buf b;
  uint64_t iId;
  char zErr[256];
  unsigned char *a;
  size_t n;
  ASSERT(d != NULL);
  /* Empty, full, and every table slot used. */
  statstest_roundtrip(d);
  snprintf(d->zDevice, sizeof(d->zDevice), "NVIDIA H100 80GB HBM3");
  d->nMemUsed = 12345678901;
  d->nMemTotal = 85899345920;
  d->nPinned = 43350000000;
  d->nResident = 1;
  d->bw.rZeroCopy = 5.07e10;
  d->bw.rDevice = 3.06e12;
  d->eWarm = COLMEM_WARM_RUNNING;
  d->nWarmDone = 17000000000;
  d->nWarmTotal = 60000000000;
  d->nTable = WORKER_TABLE_MAX;
  for (int i = 0; i < d->nTable; i++) {
    d->aTable[i] = (colmem_table_use){i * 7 + 1, (uint64_t)i << 33, (uint64_t)i * 3};
  }
  statstest_roundtrip(d);

  /* CANCEL: a round trip, and a body of the wrong size. */
  wire_buf_init(&b, WIRE_CANCEL);
  wire_cancel_encode(&b, 0xfedcba9876543210ull);
  ASSERT_EQ(wire_cancel_decode(wire_buf_body(&b), wire_buf_body_size(&b), &iId, zErr, sizeof(zErr)), 0);
  ASSERT(iId == 0xfedcba9876543210ull);
  ASSERT(wire_cancel_decode(wire_buf_body(&b), 7, &iId, zErr, sizeof(zErr)) != 0);
  ASSERT(strstr(zErr, "CANCEL") != NULL);
  wire_buf_free(&b);

  /* STATS bodies that lie: cut anywhere, one table too many, a negative
  ** size, a bandwidth that is not one, bytes left over. */
  d->nTable = 2;
  wire_buf_init(&b, WIRE_STATS);
  wire_stats_encode(&b, d);
  a = (unsigned char *)wire_buf_body(&b);
  n = wire_buf_body_size(&b);
  for (size_t k = 0; k < n; k++) statstest_bad(a, k, "STATS");
  {
    size_t iWarm = 4 + strlen(d->zDevice) + 4 * 8 + 2 * 8;    /* the warm-up's state */
    size_t iCount = iWarm + 1 + 2 * 8;                         /* the table count */
    unsigned char *c = malloc(n + 1);
    memcpy(c, a, n);
    c[iCount] = (unsigned char)(WORKER_TABLE_MAX + 1);
    c[iCount + 1] = (unsigned char)((WORKER_TABLE_MAX + 1) >> 8);
    statstest_bad(c, n, "tables, over the limit");
    memcpy(c, a, n);
    c[4 + strlen(d->zDevice) + 7] = 0x80;                      /* memory used < 0 */
    statstest_bad(c, n, "the memory used is negative");
    memcpy(c, a, n);
    memset(c + 4 + strlen(d->zDevice) + 4 * 8, 0xff, 8);       /* a NaN bandwidth */
    statstest_bad(c, n, "the zero-copy bandwidth is not a bandwidth");
    memcpy(c, a, n);
    c[iWarm] = COLMEM_WARM_DONE + 1;
    statstest_bad(c, n, "warm-up state 3 out of range");
    memcpy(c, a, n);
    c[n] = 0;
    statstest_bad(c, n + 1, "1 bytes left over");
    free(c);
  }
  wire_buf_free(&b);
  free(d);
  return 0;
}

static int statstest_has_tables(const worker_stats *p) { return p->dev.nTable >= 5; }

/* The worker's STATS as /status shows them: after preload every SSB table
** with its pinned bytes, summing to the cache's; on the CPU no device and
** no floors; after a query still there; after the worker is replaced,
** the new worker's. */
TEST_IMPL(worker_stats_tables) {
  exectest t;
  worker *w;
  worker_stats st, st2;
  char **azName = NULL, zErr[256];
  int nName = 0;
  int64_t nSum = 0;
  exec_result r;
  sql_error e;
  exectest_open(&t, "0.01");
  workertest_bPreload = 1;
  w = workertest_start("cpu", 1);
  workertest_bPreload = 0;
  st = workertest_wait(w, statstest_has_tables, 30, "the worker's STATS");
  ASSERT_EQ(cat_table_names(t.pCat, &azName, &nName, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(st.dev.nTable, nName);
  for (int i = 0; i < nName; i++) {
    cat_table *pT;
    int bFound = 0;
    ASSERT_EQ(cat_table_get(t.pCat, azName[i], &pT, zErr, sizeof(zErr)), 0);
    for (int k = 0; k < st.dev.nTable; k++) {
      if (st.dev.aTable[k].iTable != pT->iId) continue;
      bFound = 1;
      ASSERT_GT(st.dev.aTable[k].nPinned, 0);
      ASSERT_EQ(st.dev.aTable[k].nResident, 0);
    }
    if (!bFound) FAIL("table %s is not in the worker's STATS", azName[i]);
    cat_table_free(pT);
    free(azName[i]);
  }
  free(azName);
  for (int k = 0; k < st.dev.nTable; k++) nSum += (int64_t)st.dev.aTable[k].nPinned;
  ASSERT_EQ(nSum, st.dev.nPinned);
  ASSERT_EQ(st.dev.nPinned, st.nPreloaded);
  ASSERT_STR_EQ(st.dev.zDevice, "");
  ASSERT(st.dev.bw.rZeroCopy == 0 && st.dev.bw.rDevice == 0 && st.dev.nMemTotal == 0);
  ASSERT_EQ(workertest_query(w, "SELECT sum(lo_revenue) FROM lineorder", NULL, &r, &e), 0);
  exec_result_free(&r);
  worker_stats_get(w, &st2);
  ASSERT_EQ(st2.dev.nTable, nName);
  ASSERT_EQ(st2.dev.nPinned, st.dev.nPinned);
  worker_stop(w);
  exectest_close(&t);
  return 0;
}

static int statstest_has_device(const worker_stats *p) { return p->dev.zDevice[0] != 0; }

/* On the (mock) CUDA backend the worker names its device and its memory,
** and measures both floors at start when asked. On the mock both are host
** memory, so only their being measured is checked here; which is faster is
** daemon_last_query's to check on the GPU. */
TEST_IMPL(worker_stats_cuda) {
  char zMock[4096], zProgram[4096], zErr[2048];
  exectest t;
  worker_config c;
  worker *w;
  worker_stats st;
  exectest_open(&t, "0.01");
  snprintf(zMock, sizeof(zMock), "%s", test_bin(MOCK_LIB));
  snprintf(zProgram, sizeof(zProgram), "%s", test_bin("starq-worker"));
  setenv("STARQ_LIBCUDA", zMock, 1);
  setenv("STARQ_LIBNVRTC", zMock, 1);
  worker_config_init(&c);
  c.zProgram = zProgram;
  c.zDataDir = "data";
  c.zBackend = "cuda";
  c.zCacheDir = NULL;   /* the run's kernel cache */
  c.bPreload = 1;
  c.nBandwidthProbe = 1 << 20;
  if (worker_start(&c, &w, zErr, sizeof(zErr)) != 0) FAIL("worker_start: %s", zErr);
  st = workertest_wait(w, statstest_has_device, 30, "the worker's STATS");
  ASSERT_GT(st.dev.nMemTotal, 0);
  ASSERT(st.dev.nMemUsed >= 0 && st.dev.nMemUsed <= st.dev.nMemTotal);
  ASSERT(st.dev.bw.rZeroCopy > 0 && st.dev.bw.rDevice > 0);
  ASSERT_GT(st.dev.nPinned, 0);
  worker_stop(w);
  unsetenv("STARQ_LIBCUDA");
  unsetenv("STARQ_LIBNVRTC");
  exectest_close(&t);
  return 0;
}

static int statstest_warm(const worker_stats *p) { return p->dev.eWarm == COLMEM_WARM_DONE; }

/* The value of query zSql's one row and column, as text (malloc'd). */
static char *statstest_value(const exec_result *r) {
  strbuf s;
  strbuf_init(&s);
  ASSERT_EQ(r->nRow, 1);
  if (exec_result_text(r, 0, 0, &s)) strbuf_puts(&s, "NULL");
  return strbuf_take(&s);
}

/* With --warm, a worker on the (mock) GPU copies every column to device
** memory once ready, with no query asking: its STATS say warming, then
** warm with every file's bytes done, the bytes resident and lineorder
** among the tables holding them, before any query ran; the next query
** reads resident columns and answers as the CPU backend does. Without a
** device budget nothing is warmed. */
TEST_IMPL(worker_device_warm) {
  char zMock[4096], zProgram[4096], zErr[2048];
  const char *zSql = "SELECT sum(lo_revenue) FROM lineorder WHERE lo_quantity < 25";
  exectest t;
  worker_config c;
  worker *w;
  worker_stats st;
  exec_result r, rCpu;
  sql_error e;
  char *zGot, *zWant;
  int bLineorder = 0;
  int64_t iLineorder;
  exectest_open(&t, "0.01");
  ASSERT_EQ(exectest_exec(&t, zSql, &rCpu, &e), 0);
  {
    cat_table *pLo;
    if (cat_table_get(t.pCat, "lineorder", &pLo, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
    iLineorder = pLo->iId;
    cat_table_free(pLo);
  }
  snprintf(zMock, sizeof(zMock), "%s", test_bin(MOCK_LIB));
  snprintf(zProgram, sizeof(zProgram), "%s", test_bin("starq-worker"));
  setenv("STARQ_LIBCUDA", zMock, 1);
  setenv("STARQ_LIBNVRTC", zMock, 1);
  for (int bBudget = 1; bBudget >= 0; bBudget--) {
    worker_config_init(&c);
    c.zProgram = zProgram;
    c.zDataDir = "data";
    c.zBackend = "cuda";
    c.bPreload = 1;
    c.bWarm = 1;
    c.mem.nDevice = bBudget ? -1 : 0;
    if (worker_start(&c, &w, zErr, sizeof(zErr)) != 0) FAIL("worker_start: %s", zErr);
    if (!bBudget) {
      st = workertest_wait(w, statstest_has_device, 60, "the worker's STATS");
      ASSERT_EQ(st.dev.eWarm, COLMEM_WARM_NONE);
      ASSERT_EQ(st.dev.nResident, 0);
      worker_stop(w);
      break;
    }
    st = workertest_wait(w, statstest_warm, 120, "the warm-up's end");
    ASSERT_GT(st.dev.nWarmTotal, 0);
    ASSERT_EQ(st.dev.nWarmDone, st.dev.nWarmTotal);
    ASSERT_GT(st.dev.nResident, 0);
    for (int i = 0; i < st.dev.nTable; i++) {
      if (st.dev.aTable[i].nResident > 0) bLineorder += st.dev.aTable[i].iTable == iLineorder;
    }
    ASSERT_GT(bLineorder, 0);
    ASSERT_EQ(workertest_query(w, zSql, NULL, &r, &e), 0);
    ASSERT_GT(r.nColResident, 0);
    zGot = statstest_value(&r);
    zWant = statstest_value(&rCpu);
    ASSERT_STR_EQ(zGot, zWant);
    free(zGot);
    free(zWant);
    exec_result_free(&r);
    worker_stop(w);
  }
  unsetenv("STARQ_LIBCUDA");
  unsetenv("STARQ_LIBNVRTC");
  exec_result_free(&rCpu);
  exectest_close(&t);
  return 0;
}

/* A query that a session cancels while it runs in the worker. */
typedef struct statstest_cancel statstest_cancel;
struct statstest_cancel {
  worker *w;
  _Atomic int bCancel;
  int rc;
  sql_error e;
  double rSeconds;
};

static void *statstest_cancel_main(void *pArg) {
  statstest_cancel *q = pArg;
  exec_options o = {.pbCancel = &q->bCancel};
  exec_result r;
  double t0 = timer_now();
  q->rc = workertest_query(q->w, "SELECT sum(lo_revenue) FROM lineorder", &o, &r, &q->e);
  q->rSeconds = timer_now() - t0;
  exec_result_free(&r);
  return NULL;
}

static int statstest_idle(const worker_stats *p) { return p->nInFlight == 0; }

static int statstest_busy(const worker_stats *p) { return p->nInFlight == 1; }

/* A query in the worker takes over 50 s unless cancelled (on the mock
** GPU, its SCAN is launched once per stride of 4,096 rows of lo_revenue,
** each launch taking five seconds): a cancel set while it runs reaches the
** worker, the query ends with 57014 between two strides — well within
** 30 s however busy the machine — and the worker goes on (not replaced).
** A first worker, whose launches take no time, compiles the query's
** kernels into the disk cache the second one reads, so that the second
** spends its time in launches alone. */
TEST_IMPL(worker_cancel) {
  exectest t;
  statstest_cancel q;
  pthread_t th;
  worker_stats st;
  exec_result r;
  sql_error e;
  exectest_open(&t, "0.01");
  memset(&q, 0, sizeof(q));
  q.w = workertest_start_streamed(1, 0);
  ASSERT_EQ(workertest_query(q.w, "SELECT sum(lo_revenue) FROM lineorder", NULL, &r, &e), 0);
  if (r.nStride < 10) FAIL("%d strides: too few for an uncancelled query to take 50 s", r.nStride);
  exec_result_free(&r);
  worker_stop(q.w);
  q.w = workertest_start_streamed(2, 5000);
  ASSERT_EQ(pthread_create(&th, NULL, statstest_cancel_main, &q), 0);
  workertest_wait(q.w, statstest_busy, 60, "the query in flight");   /* running, not answered */
  atomic_store(&q.bCancel, 1);
  ASSERT_EQ(pthread_join(th, NULL), 0);
  ASSERT_EQ(q.rc, -1);
  ASSERT_STR_EQ(q.e.zState, "57014");
  if (q.rSeconds > 30) FAIL("the cancelled query took %.1f s", q.rSeconds);
  st = workertest_wait(q.w, statstest_idle, 30, "no query in flight");
  ASSERT_EQ(st.nStart, 1);
  ASSERT_EQ(st.nCrash, 0);
  ASSERT(st.bReady);
  worker_stop(q.w);
  exectest_close(&t);
  return 0;
}
