/*
** tests/test-daemon-stream.c — a large result streamed through starqd
** (server/stmt-stream.c, worker BATCH frames): its rows arrive in batches
** while the scan runs, whole and right; a client that stops reading holds
** the scan (it stays running, and neither the daemon nor its worker grows
** by the result); a client that goes away, or cancels, stops it; an
** Execute with a row limit suspends and resumes a streamed portal;
** starq.result_memory_limit refuses a sorted result past it. Through
** the device worker and in process (--device-worker 0).
*/
#define _GNU_SOURCE
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../common/procmem.h"
#include "../server/pgwire.h"
#include "http-fixture.h"
#include "pgclient.h"
#include "starqd-fixture.h"
#include "test.h"

/* At SF 0.01, 59,893 rows: several batches (exec_batch_rows). */
#define STREAM_SQL "SELECT * FROM lineorder"
/* Ten times the columns: about 60 MB of DataRows, far past what socket
** buffers hold. */
#define STREAM_WIDE_SQL "SELECT *, *, *, *, *, *, *, *, *, * FROM lineorder"
#define STREAM_RSS_MAX (96 << 20)   /* The rows of zSql through d against the in-process executor's, as
** sorted lines. */
static void stream_check_rows(const starqd_proc *d, PGconn *c, const char *zSql) {
  PGresult *res = PQexec(c, zSql);
  char *zGot, *zWant;
  unsigned *aType;
  int nCol;
  if (PQresultStatus(res) != PGRES_TUPLES_OK) FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  ASSERT_STR_EQ(PQcmdTuples(res), "59893");
  zGot = starqd_result_text(res);
  zWant = starqd_expected("data", zSql, &aType, &nCol);
  ASSERT_EQ(nCol, PQnfields(res));
  for (int i = 0; i < nCol; i++) ASSERT_EQ(aType[i], PQftype(res, i));
  starqd_lines_sort(zGot, strlen(zGot));
  starqd_lines_sort(zWant, strlen(zWant));
  if (strcmp(zGot, zWant) != 0) FAIL("%s: the streamed rows differ", zSql);
  free(zGot);
  free(zWant);
  free(aType);
  PQclear(res);
  (void)d;
}

/* LIMIT and OFFSET cut across batches. */
static void stream_check_limits(PGconn *c) {
  static const struct {
    const char *zSql;
    int nRow;
  } a[] = {{STREAM_SQL " LIMIT 30000 OFFSET 20000", 30000},
           {STREAM_SQL " OFFSET 59000", 893},
           {STREAM_SQL " LIMIT 7", 7},
           {STREAM_SQL " OFFSET 70000", 0}};
  for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
    PGresult *res = PQexec(c, a[i].zSql);
    if (PQresultStatus(res) != PGRES_TUPLES_OK) FAIL("%s: %s", a[i].zSql, PQresultErrorMessage(res));
    if (PQntuples(res) != a[i].nRow) FAIL("%s: %d rows", a[i].zSql, PQntuples(res));
    PQclear(res);
  }
}

/* Reads messages up to one of type cEnd; returns the DataRows read. */
static int stream_read_until(int fd, char cEnd, strbuf *pLast) {
  int nRow = 0;
  for (;;) {
    strbuf_reset(pLast);
    if (starqd_msg_read(fd, pLast) != 0) FAIL("the connection closed after %d rows", nRow);
    if (pLast->z[0] == 'D') nRow++;
    else if (pLast->z[0] == 'E') FAIL("an error: %s", pLast->z + 6);
    if (pLast->z[0] == cEnd) return nRow;
  }
}

/* Execute with a row limit on a streamed portal: PortalSuspended, then
** the rest. */
static void stream_check_suspend(const starqd_proc *d) {
  strbuf in, out;
  int fd, n1, n2;
  strbuf_init(&in);
  strbuf_init(&out);
  fd = starqd_raw_startup(d, &in);
  pgc_parse(&out, "", STREAM_SQL, 0, NULL);
  pgc_bind(&out, "p", "", 0, NULL, 0, NULL, NULL, 0, NULL);
  pgc_execute(&out, "p", 100);
  pgc_empty(&out, PGWIRE_MSG_FLUSH);
  http_client_send(fd, out.z, out.n);
  n1 = stream_read_until(fd, 's', &in);
  ASSERT_EQ(n1, 100);
  strbuf_reset(&out);
  pgc_execute(&out, "p", 0);
  pgc_empty(&out, PGWIRE_MSG_SYNC);
  http_client_send(fd, out.z, out.n);
  n2 = stream_read_until(fd, 'C', &in);
  ASSERT_EQ(n1 + n2, 59893);
  ASSERT_STR_EQ(in.z + 5, "SELECT 59793");
  stream_read_until(fd, 'Z', &in);
  close(fd);
  strbuf_free(&in);
  strbuf_free(&out);
}

/* bSmall: the daemons started next keep ASan's quarantine small (an
** option after the runner's wins); 0: as the runner set it. */
static void stream_quarantine_small(int bSmall) {
  static char *zSaved;
  const char *z = getenv("ASAN_OPTIONS");
  if (bSmall) {
    char zOpt[1024];
    free(zSaved);
    zSaved = z != NULL ? strdup(z) : NULL;
    snprintf(zOpt, sizeof(zOpt), "%s%squarantine_size_mb=4", z != NULL ? z : "",
             z != NULL && z[0] != 0 ? ":" : "");
    setenv("ASAN_OPTIONS", zOpt, 1);
  } else if (zSaved != NULL) {
    setenv("ASAN_OPTIONS", zSaved, 1);
    free(zSaved);
    zSaved = NULL;
  }
}

/* A client that sends the wide query and reads nothing holds it running
** in bounded memory; closing the connection stops it. The query's kernels
** are compiled already (stream_check_cancel ran it), so its batches come
** at once: five seconds see the run held at its window. The whole result
** would be 92 MB in the engine's form and 60 MB of DataRows; the
** bound is about five batches a side (STREAM_RSS_MAX), and ASan's
** quarantine of freed memory is kept small for this daemon (its default,
** 256 MB a process, would count every batch the run ever freed). */
static void stream_check_stall(const starqd_proc *d) {
  strbuf in, out;
  int fd, iRcvBuf = 256 << 10;
  int64_t nRss0 = procmem_rss_tree(d->pid), nRssMax = nRss0;
  strbuf_init(&in);
  strbuf_init(&out);
  fd = starqd_raw_startup(d, &in);
  ASSERT_EQ(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &iRcvBuf, sizeof(iRcvBuf)), 0);
  pgc_query(&out, STREAM_WIDE_SQL);
  http_client_send(fd, out.z, out.n);
  starqd_wait_running(d, 1, 60);
  /* It stays running: each batch waits for room, up to the scan. */
  for (int i = 0; i < 50; i++) {
    int64_t n = procmem_rss_tree(d->pid);
    if (n > nRssMax) nRssMax = n;
    usleep(100 * 1000);
  }
  starqd_wait_running(d, 1, 1);
  if (nRssMax - nRss0 > STREAM_RSS_MAX) {
    FAIL("the daemon and its worker grew by %.1f MiB for a client that reads nothing",
         (double)(nRssMax - nRss0) / (1 << 20));
  }
  close(fd);
  starqd_wait_running(d, 0, 60);
  strbuf_free(&in);
  strbuf_free(&out);
}

/* A cancel while rows stream: some rows, then 57014. */
static void stream_check_cancel(const starqd_proc *d) {
  PGconn *c = starqd_connect(d);
  PGcancel *pCancel = PQgetCancel(c);
  PGresult *res;
  char zErr[256];
  int nRow = 0, bCancelled = 0;
  ASSERT(PQsendQuery(c, STREAM_WIDE_SQL) == 1);
  ASSERT(PQsetSingleRowMode(c) == 1);
  while ((res = PQgetResult(c)) != NULL) {
    if (PQresultStatus(res) == PGRES_SINGLE_TUPLE) {
      if (++nRow == 10) ASSERT(PQcancel(pCancel, zErr, sizeof(zErr)) == 1);
    } else if (PQresultStatus(res) == PGRES_FATAL_ERROR) {
      ASSERT_STR_EQ(PQresultErrorField(res, PG_DIAG_SQLSTATE), "57014");
      bCancelled = 1;
    } else {
      FAIL("after %d rows: %s %s", nRow, PQresStatus(PQresultStatus(res)),
           PQresultErrorMessage(res));
    }
    PQclear(res);
  }
  ASSERT(bCancelled);
  ASSERT_LT(nRow, 59893);
  PQfreeCancel(pCancel);
  /* The connection goes on. */
  res = PQexec(c, "SELECT count(*) FROM lineorder");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  ASSERT_STR_EQ(PQgetvalue(res, 0, 0), "59893");
  PQclear(res);
  PQfinish(c);
  starqd_wait_running(d, 0, 60);
}

/* starq.result_memory_limit: a sorted result past it fails with 53200
** saying both sizes; a streamed scan of the same rows does not. */
static void stream_check_limit(PGconn *c) {
  PGresult *res = PQexec(c, "SET starq.result_memory_limit = '1MB'");
  ASSERT_EQ(PQresultStatus(res), PGRES_COMMAND_OK);
  PQclear(res);
  res = PQexec(c, "SHOW starq.result_memory_limit");
  ASSERT_STR_EQ(PQgetvalue(res, 0, 0), "1MB");
  PQclear(res);
  res = PQexec(c, STREAM_SQL " ORDER BY lo_orderkey, lo_linenumber");
  ASSERT_EQ(PQresultStatus(res), PGRES_FATAL_ERROR);
  ASSERT_STR_EQ(PQresultErrorField(res, PG_DIAG_SQLSTATE), "53200");
  if (strstr(PQresultErrorMessage(res), "more than starq.result_memory_limit (1024 kB)") == NULL) {
    FAIL("%s", PQresultErrorMessage(res));
  }
  PQclear(res);
  res = PQexec(c, STREAM_SQL);
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  ASSERT_EQ(PQntuples(res), 59893);
  PQclear(res);
  res = PQexec(c, "SET starq.result_memory_limit = 'lots'");
  ASSERT_STR_EQ(PQresultErrorField(res, PG_DIAG_SQLSTATE), "22023");
  PQclear(res);
  res = PQexec(c, "SET starq.result_memory_limit TO DEFAULT");
  PQclear(res);
  res = PQexec(c, "SHOW starq.result_memory_limit");
  ASSERT_STR_EQ(PQgetvalue(res, 0, 0), "0");
  PQclear(res);
}

TEST_IMPL(daemon_stream) {
  static const char *const azInProcess[] = {"--device-worker", "0", NULL};
  starqd_proc d;
  PGconn *c;
  starqd_data("data");
  for (int k = 0; k < 2; k++) {
    stream_quarantine_small(k == 0);
    starqd_start(&d, "data", k == 0 ? NULL : azInProcess);
    stream_quarantine_small(0);
    c = starqd_connect(&d);
    stream_check_rows(&d, c, STREAM_SQL);
    stream_check_rows(&d, c, "SELECT lo_orderkey, lo_orderdate, lo_revenue FROM lineorder "
                             "WHERE lo_quantity < 40 OR lo_orderkey > 0");
    stream_check_limits(c);
    stream_check_limit(c);
    PQfinish(c);
    stream_check_suspend(&d);
    if (k == 0) {
      stream_check_cancel(&d);
      stream_check_stall(&d);
    }
    ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  }
  starqd_expected_close();
  return 0;
}
