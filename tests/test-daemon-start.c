/*
** tests/test-daemon-start.c — starqd's start-up window: the status port
** answers before the executor has opened, /livez says 200 throughout,
** /readyz 503 until the catalog and device are ready and 200 after, and a
** SQL login meanwhile gets 57P03. On the mock GPU whose driver takes
** START_DELAY_MS to start (STARQ_CUDA_MOCK_INIT_MS), the window is there
** to look at rather than hoped for; a SIGTERM inside it still shuts down
** cleanly.
*/
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../common/timer.h"
#include "http-fixture.h"
#include "jsoncheck.h"
#include "pgclient.h"
#include "starqd-fixture.h"
#include "test.h"

/* The window: long enough for the checks inside it on a busy machine. */
#define START_DELAY_MS 10000

static double start_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Logs in over a raw socket (user starq, trusted on loopback) and returns
** the summary of what the server said; the error's fields are in *pc. */
static const char *start_login(pgc *pc, const starqd_proc *d) {
  strbuf in;
  strbuf_init(&in);
  memset(pc, 0, sizeof(*pc));
  close(starqd_raw_startup(d, &in));
  pgc_summarize(pc, (const unsigned char *)in.z, in.n);
  strbuf_free(&in);
  return pc->zSummary;
}

/* Returns 1 if the daemon's log says it is ready. */
static int start_logged_ready(const starqd_proc *d) {
  char *z = starqd_log(d);
  int b = strstr(z, "starqd: ready") != NULL;
  free(z);
  return b;
}

TEST_IMPL(daemon_start_window) {
  starqd_proc d;
  pgc pc;
  PGconn *c;
  PGresult *res;
  char zErr[256], zVal[64], *zResp;
  double t0, tReady = 0;
  int nNotReady = 0;
  starqd_data("data");
  setenv("PGCONNECT_TIMEOUT", "10", 1);

  t0 = start_now();
  starqd_start_mock(&d, "data", 0, START_DELAY_MS, 0);

  /* Inside the window. */
  ASSERT(!start_logged_ready(&d));
  ASSERT_EQ(http_get_status(d.iHttpPort, "/livez"), 200);
  ASSERT_EQ(http_get_status(d.iHttpPort, "/readyz"), 503);
  zResp = http_get(d.iHttpPort, "/status");
  ASSERT_EQ(http_resp_status(zResp), 200);
  if (jsoncheck(http_resp_body(zResp), strlen(http_resp_body(zResp)), zErr, sizeof(zErr)) != 0) {
    FAIL("%s\n%s", zErr, zResp);
  }
  ASSERT_EQ(jsoncheck_member(http_resp_body(zResp), "ready", zVal, sizeof(zVal)), 0);
  ASSERT_STR_EQ(zVal, "false");
  free(zResp);
  ASSERT_STR_EQ(start_login(&pc, &d), "FATAL(57P03)");
  ASSERT_STR_EQ(pc.zErrMsg, "the database system is starting up");
  c = starqd_connect_any(&d);
  ASSERT_EQ(PQstatus(c), CONNECTION_BAD);
  if (strstr(PQerrorMessage(c), "the database system is starting up") == NULL) {
    FAIL("libpq: %s", PQerrorMessage(c));
  }
  PQfinish(c);
  ASSERT_EQ(http_get_status(d.iHttpPort, "/readyz"), 503);
  /* Still inside: what was seen above was the window, not a race. */
  ASSERT(!start_logged_ready(&d));

  /* Until ready: /livez 200 every time, /readyz 503 and then 200. */
  for (int i = 0; i < 600 && tReady == 0; i++) {
    int iReady;
    ASSERT_EQ(http_get_status(d.iHttpPort, "/livez"), 200);
    iReady = http_get_status(d.iHttpPort, "/readyz");
    if (iReady == 200) {
      tReady = start_now();
    } else {
      ASSERT_EQ(iReady, 503);
      nNotReady++;
      usleep(50 * 1000);
    }
  }
  if (tReady == 0) FAIL("/readyz never said 200");
  ASSERT_GT(nNotReady, 0);
  ASSERT_GE(tReady - t0, START_DELAY_MS / 1000.0 - 0.05);
  ASSERT(start_logged_ready(&d));

  /* Ready: the same checks now pass, and a query is right. */
  ASSERT_EQ(http_get_status(d.iHttpPort, "/readyz"), 200);
  ASSERT_EQ(http_get_status(d.iHttpPort, "/livez"), 200);
  ASSERT_EQ(strncmp(start_login(&pc, &d), "R(0) ", 5), 0);
  c = starqd_connect(&d);
  res = PQexec(c, "SELECT count(*), sum(lo_revenue) FROM lineorder");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  {
    unsigned *aType;
    int nCol;
    char *zGot = starqd_result_text(res);
    char *zWant = starqd_expected("data", "SELECT count(*), sum(lo_revenue) FROM lineorder", &aType,
                                  &nCol);
    ASSERT_STR_EQ(zGot, zWant);
    free(zGot);
    free(zWant);
    free(aType);
  }
  PQclear(res);
  PQfinish(c);
  starqd_expected_close();
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);

  /* A SIGTERM inside the window: a clean exit once the opening ends,
  ** everything freed (LeakSanitizer watches the daemon too). */
  starqd_start_mock(&d, "data", 0, 2000, 0);
  ASSERT_EQ(http_get_status(d.iHttpPort, "/readyz"), 503);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  {
    char *z = starqd_log(&d);
    ASSERT(strstr(z, "shutting down") != NULL && strstr(z, "starqd: ready") == NULL);
    free(z);
  }
  return 0;
}

/* GETs /readyz until its body holds zWant (within rSeconds); returns the
** last body seen (malloc'd). */
static char *start_readyz_until(const starqd_proc *d, const char *zWant, double rSeconds) {
  double tEnd = timer_now() + rSeconds;
  for (;;) {
    char *zResp = http_get(d->iHttpPort, "/readyz");
    if (strstr(http_resp_body(zResp), zWant) != NULL || timer_now() > tEnd) return zResp;
    free(zResp);
    usleep(50 * 1000);
  }
}

/* The device cache's warm-up as an operator sees it: on the mock GPU,
** /readyz says 200 and the device cache warm once every column is copied
** (with no query asking), /status says "cache_warm":"warm" with every
** file's bytes done and columns resident; with --device-warm 0 it says
** the cache is not kept warm, nothing is resident before a query, and
** SQL answers all the same. */
TEST_IMPL(daemon_device_warm) {
  starqd_proc d;
  starqd_data("data");
  for (int bWarm = 1; bWarm >= 0; bWarm--) {
    const char *azExtra[] = {"--backend", "cuda", "--device-warm", bWarm ? "1" : "0", NULL};
    const char *zWant = bWarm ? "ready; device cache warm\n" : "ready; device cache not kept\n";
    char *zResp, *zStatus;
    starqd_start_mock_with(&d, "data", 0, 0, 1, azExtra);
    zResp = start_readyz_until(&d, zWant, 60);
    ASSERT_EQ(http_resp_status(zResp), 200);
    ASSERT_STR_EQ(http_resp_body(zResp), zWant);
    free(zResp);
    zResp = http_get(d.iHttpPort, "/status");
    zStatus = strstr(zResp, "\"cache_warm\":");
    ASSERT(zStatus != NULL);
    {
      const char *zField = bWarm ? "\"cache_warm\":\"warm\"" : "\"cache_warm\":\"none\"";
      ASSERT(strncmp(zStatus, zField, strlen(zField)) == 0);
    }
    if (bWarm) {
      ASSERT(strstr(zResp, "\"resident_bytes\":0,") == NULL);
      ASSERT(strstr(zResp, "\"warm_bytes_total\":0") == NULL);
    } else {
      ASSERT(strstr(zResp, "\"resident_bytes\":0,") != NULL);
    }
    free(zResp);
    {
      PGconn *c = starqd_connect(&d);
      PGresult *res = PQexec(c, "SELECT count(*) FROM lineorder");
      ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
      ASSERT_STR_EQ(PQgetvalue(res, 0, 0), "59893");
      PQclear(res);
      PQfinish(c);
    }
    ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  }
  return 0;
}
