/*
** tests/test-daemon-slow.c — a client that stops reading stalls only
** itself. One raw protocol client sends a Query of many large SELECTs
** (well over 64 MiB of DataRows) and reads nothing; meanwhile other
** clients' SSB queries come back right and promptly, /status answers,
** the daemon runs only the statements the socket buffers can take, and
** its resident memory stays within 64 MiB of where it was. Then the slow
** client reads it all and every row is checked.
*/
#define _GNU_SOURCE
#include <signal.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../server/pgwire.h"
#include "http-fixture.h"
#include "jsoncheck.h"
#include "pgclient.h"
#include "starqd-fixture.h"
#include "test.h"

#define SLOW_SQL "lo_linenumber, lo_revenue FROM lineorder ORDER BY lo_orderkey, lo_linenumber"
#define SLOW_TOTAL_MIN (80 << 20)   /* DataRow bytes the slow client is sent, at least */
#define SLOW_RCVBUF (256 << 10)     /* the slow client's receive buffer (the kernel doubles it) */
#define SLOW_RSS_MAX (64 << 20)     /* the daemon's growth allowed meanwhile */
#define SLOW_PROMPT_S 30.0          /* a generous bound on one other query */

static double slow_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Returns process pid's resident set in bytes, from /proc. */
static int64_t slow_rss(int pid) {
  char zPath[64], zLine[256];
  int64_t nKb = -1;
  FILE *f;
  snprintf(zPath, sizeof(zPath), "/proc/%d/status", pid);
  f = fopen(zPath, "r");
  ASSERT(f != NULL);
  while (fgets(zLine, sizeof(zLine), f) != NULL) {
    if (sscanf(zLine, "VmRSS: %" SCNd64 " kB", &nKb) == 1) break;
  }
  fclose(f);
  ASSERT_GT(nKb, 0);
  return nKb * 1024;
}

/* Returns the last number of the file zPath (/proc/sys/net/ipv4/tcp_wmem:
** its maximum), or -1. */
static int64_t slow_sysctl_max(const char *zPath) {
  long long a[3] = {-1, -1, -1};
  FILE *f = fopen(zPath, "r");
  if (f == NULL) return -1;
  if (fscanf(f, "%lld %lld %lld", &a[0], &a[1], &a[2]) < 1) a[0] = -1;
  fclose(f);
  return a[2] > 0 ? a[2] : a[0];
}

/* Returns the number of times z occurs in zIn. */
static int slow_count(const char *zIn, const char *z) {
  int n = 0;
  for (const char *p = strstr(zIn, z); p != NULL; p = strstr(p + 1, z)) n++;
  return n;
}

/* Returns the /status body (malloc'd), checked to be JSON. */
static char *slow_status(const starqd_proc *d) {
  char zErr[256];
  char *zResp = http_get(d->iHttpPort, "/status"), *zBody;
  ASSERT_EQ(http_resp_status(zResp), 200);
  zBody = strdup(http_resp_body(zResp));
  free(zResp);
  if (jsoncheck(zBody, strlen(zBody), zErr, sizeof(zErr)) != 0) FAIL("%s\n%s", zErr, zBody);
  return zBody;
}

/* Runs SSB query zName on c and checks it against the in-process
** executor; returns the seconds it took the server. */
static double slow_ssb(PGconn *c, const char *zName) {
  char zRel[64], *zSql, *zGot, *zWant;
  unsigned *aType;
  size_t n;
  int nCol;
  double t0, t;
  PGresult *res;
  snprintf(zRel, sizeof(zRel), "ssb-data/queries/%s.sql", zName);
  zSql = test_file_read(test_src(zRel), &n);
  t0 = slow_now();
  res = PQexec(c, zSql);
  t = slow_now() - t0;
  if (PQresultStatus(res) != PGRES_TUPLES_OK) FAIL("%s: %s", zName, PQresultErrorMessage(res));
  zGot = starqd_result_text(res);
  while (n > 0 && (zSql[n - 1] == '\n' || zSql[n - 1] == ';')) zSql[--n] = 0;
  zWant = starqd_expected("data", zSql, &aType, &nCol);
  if (strcmp(zGot, zWant) != 0) FAIL("%s:\ngot:\n%s\nwanted:\n%s", zName, zGot, zWant);
  free(aType);
  free(zWant);
  free(zGot);
  free(zSql);
  PQclear(res);
  return t;
}

/* Appends DataRow message a (length word at a + 1) to s as "v|v|v\n". */
static void slow_row_text(const unsigned char *a, strbuf *s) {
  int nCol = (a[5] << 8) | a[6];
  const unsigned char *p = a + 7;
  for (int i = 0; i < nCol; i++) {
    int32_t nLen = (int32_t)pgwire_get_u32(p);
    if (i > 0) strbuf_puts(s, "|");
    p += 4;
    if (nLen < 0) {
      strbuf_puts(s, "\\N");
    } else {
      strbuf_append(s, (const char *)p, (size_t)nLen);
      p += nLen;
    }
  }
  strbuf_puts(s, "\n");
}

TEST_IMPL(daemon_slow_reader) {
  static const char *const azSsb[] = {"q1.1", "q2.1", "q3.1", "q4.1"};
  starqd_proc d;
  PGconn *cWarm, *aOther[2];
  PGresult *res;
  strbuf q, in, rows;
  char zSql[256], zTag[64], *zWant, *zStatus;
  unsigned *aType;
  int nCol, nRep, nRow, fd, nRan, iRep = 0, nRowsInRep = 0;
  int64_t nBytesPerRep = 0, nRss0, nRssMax = 0, nBuffers;
  int nRanMax, iRcvBuf = SLOW_RCVBUF;
  socklen_t nOpt = sizeof(iRcvBuf);
  double tSlowest = 0;

  starqd_data("data");
  starqd_start(&d, "data", NULL);
  strbuf_init(&q);
  strbuf_init(&in);
  strbuf_init(&rows);

  /* Warm up (kernels compiled, columns read) and size one statement's
  ** DataRows exactly: 7 bytes a row and 4 more than each value. */
  snprintf(zSql, sizeof(zSql), "SELECT lo_orderkey AS slow_warm, " SLOW_SQL);
  zWant = starqd_expected("data", zSql, &aType, &nCol);
  free(aType);
  cWarm = starqd_connect(&d);
  res = PQexec(cWarm, zSql);
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  nRow = PQntuples(res);
  ASSERT_GT(nRow, 50000);
  for (int i = 0; i < nRow; i++) {
    nBytesPerRep += 7;
    for (int c = 0; c < PQnfields(res); c++) nBytesPerRep += 4 + PQgetlength(res, i, c);
  }
  {
    char *zGot = starqd_result_text(res);
    ASSERT_STR_EQ(zGot, zWant);
    free(zGot);
  }
  PQclear(res);
  PQfinish(cWarm);
  for (int i = 0; i < 2; i++) aOther[i] = starqd_connect(&d);
  for (int i = 0; i < 4; i++) slow_ssb(aOther[i % 2], azSsb[i]);
  nRss0 = slow_rss(d.pid);

  /* The slow client: one Query of nRep statements, each a full result
  ** (numbered, so /status tells which have run), and no reading. */
  fd = starqd_raw_startup(&d, &in);
  ASSERT(in.n >= 6 && in.z[in.n - 6] == 'Z');
  /* What the kernel may hold for it: the slow client's receive buffer
  ** (fixed here, so it cannot grow to tcp_rmem's maximum) and the
  ** daemon's send buffer (up to tcp_wmem's), counted twice because the
  ** kernel's accounting of a buffer is not its payload. Beyond those and
  ** the session's 256 KiB of output, the daemon may have run one
  ** statement being encoded and the one after the last it finished. */
  ASSERT_EQ(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &iRcvBuf, nOpt), 0);
  ASSERT_EQ(getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &iRcvBuf, &nOpt), 0);
  nBuffers = iRcvBuf + slow_sysctl_max("/proc/sys/net/ipv4/tcp_wmem") + (256 << 10);
  ASSERT_GT(nBuffers, iRcvBuf);
  nRanMax = (int)((2 * nBuffers + nBytesPerRep - 1) / nBytesPerRep) + 2;
  nRep = (int)((SLOW_TOTAL_MIN > 4 * nBuffers ? SLOW_TOTAL_MIN : 4 * nBuffers) / nBytesPerRep) + 1;
  if (nRep < 3 * nRanMax) nRep = 3 * nRanMax;
  for (int i = 0; i < nRep; i++) {
    strbuf_printf(&q, "%sSELECT lo_orderkey AS slow_%d, " SLOW_SQL, i ? "; " : "", i);
  }
  strbuf_reset(&in);
  pgc_query(&in, q.z);
  http_client_send(fd, in.z, in.n);
  strbuf_reset(&in);

  /* Meanwhile: other clients, /status, memory. */
  for (int iRound = 0; iRound < 3; iRound++) {
    for (int i = 0; i < 4; i++) {
      double t = slow_ssb(aOther[(i + iRound) % 2], azSsb[i]);
      if (t > tSlowest) tSlowest = t;
      int64_t nRss = slow_rss(d.pid);
      if (nRss > nRssMax) nRssMax = nRss;
    }
    zStatus = slow_status(&d);
    free(zStatus);
    usleep(300 * 1000);
  }
  if (tSlowest > SLOW_PROMPT_S) FAIL("another client waited %.1f s for a query", tSlowest);
  zStatus = slow_status(&d);
  nRan = slow_count(zStatus, "AS slow_");
  free(zStatus);
  if (nRan > nRanMax) {
    FAIL("%d of %d statements ran for a client that reads nothing (the socket buffers hold %d): "
         "results are buffered", nRan, nRep, nRanMax);
  }
  if (nRssMax - nRss0 > SLOW_RSS_MAX) {
    FAIL("the daemon grew by %.1f MiB while %.1f MiB waited for a slow client",
         (double)(nRssMax - nRss0) / (1 << 20), (double)nRep * (double)nBytesPerRep / (1 << 20));
  }

  /* The slow client reads everything: every statement's rows, whole. */
  for (;;) {
    const unsigned char *a;
    strbuf_reset(&in);
    if (starqd_msg_read(fd, &in) != 0) FAIL("the connection closed after %d statements", iRep);
    a = (const unsigned char *)in.z;
    if (a[0] == 'T') {
      nRowsInRep = 0;
      strbuf_reset(&rows);
    } else if (a[0] == 'D') {
      slow_row_text(a, &rows);
      nRowsInRep++;
    } else if (a[0] == 'C') {
      snprintf(zTag, sizeof(zTag), "SELECT %d", nRow);
      ASSERT_STR_EQ((const char *)a + 5, zTag);
      ASSERT_EQ(nRowsInRep, nRow);
      if (strcmp(strbuf_str(&rows), zWant) != 0) FAIL("statement %d's rows differ", iRep);
      iRep++;
    } else if (a[0] == 'Z') {
      break;
    } else {
      FAIL("unexpected message '%c' after statement %d", a[0], iRep);
    }
  }
  ASSERT_EQ(iRep, nRep);
  close(fd);
  snprintf(zSql, sizeof(zSql), "AS slow_%d,", nRep - 1);
  zStatus = slow_status(&d);
  ASSERT(strstr(zStatus, zSql) != NULL);
  free(zStatus);

  for (int i = 0; i < 2; i++) PQfinish(aOther[i]);
  free(zWant);
  strbuf_free(&q);
  strbuf_free(&in);
  strbuf_free(&rows);
  starqd_expected_close();
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}
