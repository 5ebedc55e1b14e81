/*
** tests/test-status.c — server/status.c and status-recent.c: the status
** snapshot's JSON, checked by tests/jsoncheck.c and for its values; the
** recent-queries ring, its order, its cut SQL, and its entries whole while
** threads add to it.
*/
#include <pthread.h>

#include "../server/status.h"
#include "jsoncheck.h"
#include "test.h"

/* Renders snap and checks it is JSON; returns the text (malloc'd). */
static char *render_status(const status_snapshot *snap) {
  strbuf s;
  char zErr[256];
  strbuf_init(&s);
  ASSERT_EQ(status_json_render(snap, &s), 0);
  if (jsoncheck(strbuf_str(&s), s.n, zErr, sizeof(zErr)) != 0) FAIL("%s\n%s", zErr, strbuf_str(&s));
  return strbuf_take(&s);
}

static void expect_member(const char *z, const char *zKey, const char *zWant) {
  char zGot[256];
  if (jsoncheck_member(z, zKey, zGot, sizeof(zGot)) != 0) FAIL("no key %s in %s", zKey, z);
  ASSERT_STR_EQ(zGot, zWant);
}

TEST_IMPL(status_json) {
  status_table aTable[] = {{"lineorder", 6001171, 400000000, 120000000}, {"da\"te", 2556, 0, 0}};
  status_snapshot snap;
  status_recent *pRing;
  char *z, zSql[700];

  ASSERT_EQ(status_recent_new(&pRing, 4), 0);
  memset(&snap, 0, sizeof(snap));
  /* An empty snapshot is still whole JSON, NULL strings as null. */
  z = render_status(&snap);
  expect_member(z, "version", "null");
  expect_member(z, "ready", "false");
  ASSERT(strstr(z, "\"tables\":[]") != NULL && strstr(z, "\"recent\":[]") != NULL);
  free(z);

  snap.zVersion = "0.1.0";
  snap.tStart = 1700000000;
  snap.tNow = 1700000012.5;
  snap.bReady = 1;
  snap.zBackend = "cuda";
  snap.zDevice = "NVIDIA H100 80GB HBM3";
  snap.nDeviceMemUsed = 1 << 20;
  snap.nDeviceMemTotal = 85899345920LL;
  snap.floorBytesPerSec = 50.7e9;
  snap.aTable = aTable;
  snap.nTable = 2;
  snap.nSessions = 3;
  snap.nRunning = 1;
  snap.nQueued = 2;
  snap.anQuery[QUERY_OK] = 40;
  snap.anQuery[QUERY_ERROR] = 1;
  snap.anQuery[QUERY_CANCELLED] = 2;
  snap.anQuery[QUERY_TIMEOUT] = 3;
  snap.anQuery[QUERY_DISCONNECTED] = 4;
  snap.nBytesScanned = 123456789;
  snap.nCacheHits = 30;
  snap.nCacheMisses = 13;
  snap.secCompile = 4.25;
  snap.pRecent = pRing;
  snap.eWarm = COLMEM_WARM_RUNNING;
  snap.nWarmDone = 1000;
  snap.nWarmTotal = 4000;

  status_recent_add(pRing, "SELECT 1", 1700000001, 0.5, 1, 1000000000, QUERY_OK);
  status_recent_add(pRing, "SELECT\n\t\"x\" -- \x01\xff", 1700000002, 0, 0, 0, QUERY_ERROR);
  status_recent_add(pRing, NULL, 1700000003, 0.25, 0, 0, QUERY_CANCELLED);
  /* 700 bytes: 'a' then é (2 bytes) from byte 510, so the cut at 511
  ** would split one. */
  memset(zSql, 'a', 510);
  for (int i = 510; i + 1 < 699; i += 2) {
    zSql[i] = (char)0xc3;
    zSql[i + 1] = (char)0xa9;
  }
  zSql[699] = 0;
  status_recent_add(pRing, zSql, 1700000004, 2, 5, 8000000000LL, QUERY_OK);
  status_recent_add(pRing, "SELECT 5", 1700000005, 1, 1, 1, QUERY_OK);  /* pushes out the first */

  z = render_status(&snap);
  expect_member(z, "version", "\"0.1.0\"");
  expect_member(z, "uptime_seconds", "12.5");
  expect_member(z, "ready", "true");
  expect_member(z, "sessions", "3");
  ASSERT(strstr(z, "\"device\":{\"backend\":\"cuda\",\"name\":\"NVIDIA H100 80GB HBM3\","
                   "\"memory_used_bytes\":1048576,\"memory_total_bytes\":85899345920,"
                   "\"pinned_bytes\":0,\"resident_bytes\":0,\"cache_warm\":\"warming\","
                   "\"warm_bytes_done\":1000,\"warm_bytes_total\":4000,"
                   "\"floor_bytes_per_second\":50700000000,"
                   "\"device_floor_bytes_per_second\":0}") != NULL);
  ASSERT(strstr(z, "\"tables\":[{\"name\":\"lineorder\",\"rows\":6001171,\"bytes_pinned\":400000000,"
                   "\"bytes_resident\":120000000},{\"name\":\"da\\\"te\",") != NULL);
  ASSERT(strstr(z, "\"queries\":{\"running\":1,\"queued\":2,\"total\":50,\"ok\":40,\"error\":1,"
                   "\"cancelled\":2,\"timeout\":3,\"disconnected\":4,"
                   "\"bytes_scanned_total\":123456789}") != NULL);
  ASSERT(strstr(z, "\"kernel_cache\":{\"hits\":30,\"misses\":13,\"compile_seconds\":4.25}") != NULL);
  /* Newest first; four kept of five; ids in order added. */
  {
    const char *zA = strstr(z, "\"id\":5,\"sql\":\"SELECT 5\"");
    const char *zB = strstr(z, "\"id\":4,");
    const char *zC = strstr(z, "\"id\":3,\"sql\":\"\",\"sql_truncated\":false");
    const char *zD = strstr(z, "\"id\":2,\"sql\":\"SELECT\\n\\t\\\"x\\\" -- \\u0001\\ufffd\"");
    ASSERT(zA != NULL && zB != NULL && zC != NULL && zD != NULL);
    ASSERT(zA < zB && zB < zC && zC < zD);
    ASSERT(strstr(z, "\"id\":1,") == NULL);
  }
  ASSERT(strstr(z, "\"duration_seconds\":0,\"rows\":0,\"bytes_scanned\":0,\"bytes_per_second\":null,"
                   "\"status\":\"error\"") != NULL);
  ASSERT(strstr(z, "\"bytes_scanned\":8000000000,\"bytes_per_second\":4000000000,\"status\":\"ok\"") != NULL);
  ASSERT(strstr(z, "\"status\":\"cancelled\"") != NULL);
  free(z);

  /* The cut SQL: 510 + 2 x 0 ... ends on a whole character, flagged. */
  {
    status_query a[4];
    int n = status_recent_copy(pRing, a, 4);
    ASSERT_EQ(n, 4);
    ASSERT_EQ(a[1].iSeq, 4);
    ASSERT_EQ(a[1].bTruncated, 1);
    ASSERT_EQ(strlen(a[1].zSql), 510);   /* 511 would split an é */
    ASSERT_EQ(a[0].bTruncated, 0);
    ASSERT_EQ(status_recent_copy(pRing, a, 2), 2);
    ASSERT_EQ(a[0].iSeq, 5);
    snap.nRecentMax = 1;
    z = render_status(&snap);
    ASSERT(strstr(z, "\"id\":5,") != NULL && strstr(z, "\"id\":4,") == NULL);
    free(z);
  }
  ASSERT_STR_EQ(query_outcome_name(QUERY_OK), "ok");
  ASSERT_STR_EQ(query_outcome_name(QUERY_CANCELLED), "cancelled");
  ASSERT_STR_EQ(query_outcome_name((query_outcome)99), "error");
  status_recent_free(pRing);
  return 0;
}

/* ---- the ring under threads ----------------------------------------------- */

#define RING_THREADS 4
#define RING_ADDS 20000
#define RING_SIZE 64

typedef struct ring_writer ring_writer;
struct ring_writer {
  status_recent *pRing;
  int iThread;
};

/* Each entry's fields all derive from one number, written into its SQL,
** so a torn entry shows as a mismatch. */
static void *ring_write(void *pArg) {
  ring_writer *r = pArg;
  char zSql[64];
  for (int i = 0; i < RING_ADDS; i++) {
    int k = r->iThread * RING_ADDS + i;
    snprintf(zSql, sizeof(zSql), "SELECT %d", k);
    status_recent_add(r->pRing, zSql, k, k * 0.5, k, 2LL * k, (query_outcome)(k % QUERY_OUTCOME_N));
  }
  return NULL;
}

static void ring_check(const status_query *a, int n) {
  for (int i = 0; i < n; i++) {
    int k;
    ASSERT_EQ(sscanf(a[i].zSql, "SELECT %d", &k), 1);
    ASSERT(a[i].tStart == k && a[i].secDuration == k * 0.5);
    ASSERT_EQ(a[i].nRows, k);
    ASSERT_EQ(a[i].nBytesScanned, 2LL * k);
    ASSERT_EQ(a[i].eOutcome, k % QUERY_OUTCOME_N);
    if (i > 0) ASSERT_EQ(a[i].iSeq + 1, a[i - 1].iSeq);
  }
}

TEST_IMPL(status_recent_threads) {
  status_recent *pRing;
  pthread_t aThread[RING_THREADS];
  ring_writer aW[RING_THREADS];
  status_query *a = malloc(sizeof(*a) * RING_SIZE);
  int nReads = 0;

  ASSERT_EQ(status_recent_new(&pRing, RING_SIZE), 0);
  for (int i = 0; i < RING_THREADS; i++) {
    aW[i] = (ring_writer){pRing, i};
    ASSERT_EQ(pthread_create(&aThread[i], NULL, ring_write, &aW[i]), 0);
  }
  /* Read while they write: every copy is whole and in sequence. */
  for (; nReads < 200; nReads++) ring_check(a, status_recent_copy(pRing, a, RING_SIZE));
  for (int i = 0; i < RING_THREADS; i++) pthread_join(aThread[i], NULL);
  ASSERT_EQ(status_recent_copy(pRing, a, RING_SIZE), RING_SIZE);
  ring_check(a, RING_SIZE);
  ASSERT_EQ(a[0].iSeq, RING_THREADS * RING_ADDS);
  free(a);
  status_recent_free(pRing);
  return 0;
}
