/*
** tests/test-daemon-load.c — starqd under pressure: CancelRequest and
** statement_timeout (57014), the connection limit (53300), hostile bytes
** that close only their own connection, and 64 clients at once running
** SSB queries whose results are checked against the same queries run in
** this process.
*/
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include "http-fixture.h"
#include "starqd-fixture.h"
#include "test.h"

static double load_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void load_expect_state(PGresult *res, const char *zState, const char *zMsg) {
  const char *z = PQresultErrorField(res, PG_DIAG_SQLSTATE);
  if (z == NULL || strcmp(z, zState) != 0 || strstr(PQresultErrorMessage(res), zMsg) == NULL) {
    FAIL("wanted %s %s, got %s", zState, zMsg, PQresultErrorMessage(res));
  }
}

TEST_IMPL(daemon_cancel) {
  starqd_proc d;
  PGconn *c;
  PGresult *res;
  PGcancel *pCancel;
  char zErr[256];
  double t0;
  starqd_data("data");
  /* Each kernel takes 10 s on the mock GPU: a query that is surely
  ** running when the cancel comes (the test waits until /status says so),
  ** and an answer within 15 s can only be the cancel's, however busy the
  ** machine. */
  starqd_start_mock(&d, "data", 10000, 0, 1);
  c = starqd_connect(&d);

  ASSERT_EQ(PQsendQuery(c, "SELECT count(*) FROM lineorder"), 1);
  starqd_wait_running(&d, 1, 60);
  t0 = load_now();
  pCancel = PQgetCancel(c);
  ASSERT(pCancel != NULL);
  ASSERT_EQ(PQcancel(pCancel, zErr, sizeof(zErr)), 1);
  PQfreeCancel(pCancel);
  res = PQgetResult(c);
  load_expect_state(res, "57014", "canceling statement due to user request");
  PQclear(res);
  while ((res = PQgetResult(c)) != NULL) PQclear(res);
  ASSERT(load_now() - t0 < 15);

  /* statement_timeout. */
  res = PQexec(c, "SET statement_timeout = 300");
  ASSERT_EQ(PQresultStatus(res), PGRES_COMMAND_OK);
  PQclear(res);
  t0 = load_now();
  res = PQexec(c, "SELECT count(*) FROM lineorder");
  load_expect_state(res, "57014", "canceling statement due to statement timeout");
  PQclear(res);
  ASSERT(load_now() - t0 < 15);

  /* The session goes on. */
  res = PQexec(c, "SHOW statement_timeout");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  ASSERT_STR_EQ(PQgetvalue(res, 0, 0), "300ms");
  PQclear(res);
  PQfinish(c);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  {
    char *z = starqd_log(&d);
    /* Both logged, with the statement (server/conn-log.c). */
    ASSERT(strstr(z, "canceling statement due to user request after") != NULL);
    ASSERT(strstr(z, "canceling statement due to statement timeout after") != NULL);
    ASSERT(strstr(z, "STATEMENT: SELECT count(*) FROM lineorder") != NULL);
    free(z);
  }
  return 0;
}

TEST_IMPL(daemon_limits) {
  const char *azExtra[] = {"--max-connections", "2", NULL};
  starqd_proc d;
  PGconn *c1, *c2, *c3;
  PGresult *res;
  int fd;
  char *zResp;
  starqd_data("data");
  starqd_start(&d, "data", azExtra);
  c1 = starqd_connect(&d);
  c2 = starqd_connect(&d);
  c3 = starqd_connect_any(&d);
  ASSERT_EQ(PQstatus(c3), CONNECTION_BAD);
  if (strstr(PQerrorMessage(c3), "sorry, too many clients already") == NULL) {
    FAIL("third connection: %s", PQerrorMessage(c3));
  }
  PQfinish(c3);

  /* Bytes that are no protocol: that connection is closed with an error,
  ** the others go on. */
  PQfinish(c2);
  usleep(200 * 1000);
  fd = http_client_connect(d.iPort);
  http_client_send(fd, "\x00\x00\x00\x08\x00\x03\x00\x00", 8);   /* startup, no parameters */
  http_client_send(fd, "GET / HTTP/1.1\r\n\r\nmore garbage", 30);
  ASSERT(http_client_closed(fd));
  close(fd);
  fd = http_client_connect(d.iPort);
  http_client_send(fd, "\xff\xff\xff\xff", 4);   /* a length no message has */
  ASSERT(http_client_closed(fd));
  close(fd);
  res = PQexec(c1, "SELECT count(*) FROM supplier");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  ASSERT_STR_EQ(PQgetvalue(res, 0, 0), "20");
  PQclear(res);
  /* The closed connections no longer count against the limit. */
  c2 = starqd_connect(&d);
  PQfinish(c2);
  PQfinish(c1);
  /* The status port still answers. */
  fd = http_client_connect(d.iHttpPort);
  http_client_send(fd, "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n", 32);
  zResp = http_client_response(fd, 0);
  ASSERT(zResp != NULL && http_resp_status(zResp) == 200);
  free(zResp);
  close(fd);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}

/* 256 sessions open at once (the default limit), each usable; the 257th
** is refused with 53300. */
TEST_IMPL(daemon_sessions) {
  enum { N = 256 };
  starqd_proc d;
  PGconn **ac = calloc(N + 1, sizeof(PGconn *));
  ASSERT(ac != NULL);
  starqd_data("data");
  starqd_start(&d, "data", NULL);
  for (int i = 0; i < N; i++) ac[i] = starqd_connect(&d);
  ac[N] = starqd_connect_any(&d);
  ASSERT_EQ(PQstatus(ac[N]), CONNECTION_BAD);
  ASSERT(strstr(PQerrorMessage(ac[N]), "sorry, too many clients already") != NULL);
  for (int i = 0; i < N; i += 51) {
    PGresult *res = PQexec(ac[i], "SELECT count(*) FROM supplier");
    ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
    ASSERT_STR_EQ(PQgetvalue(res, 0, 0), "20");
    PQclear(res);
  }
  for (int i = 0; i <= N; i++) PQfinish(ac[i]);
  free(ac);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}

/* ---- 64 clients --------------------------------------------------------------- */

#define LOAD_CLIENTS 64
#define LOAD_QUERIES 4

static const char *const load_azSsb[] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                         "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};

typedef struct load_client load_client;
struct load_client {
  const starqd_proc *pD;
  int iClient;
  char **azSql;            /* the 13 queries */
  char **azWant;           /* their expected text */
  int nFail;
  char zWhy[512];
};

static void *load_client_main(void *pArg) {
  load_client *p = pArg;
  PGconn *c = starqd_connect_any(p->pD);
  if (PQstatus(c) != CONNECTION_OK) {
    snprintf(p->zWhy, sizeof(p->zWhy), "connect: %s", PQerrorMessage(c));
    p->nFail++;
    PQfinish(c);
    return NULL;
  }
  for (int k = 0; k < LOAD_QUERIES; k++) {
    int i = (p->iClient + k * 5) % 13;
    PGresult *res = PQexec(c, p->azSql[i]);
    char *z;
    if (PQresultStatus(res) != PGRES_TUPLES_OK) {
      snprintf(p->zWhy, sizeof(p->zWhy), "%s: %s", load_azSsb[i], PQresultErrorMessage(res));
      p->nFail++;
      PQclear(res);
      break;
    }
    z = starqd_result_text(res);
    if (strcmp(z, p->azWant[i]) != 0) {
      snprintf(p->zWhy, sizeof(p->zWhy), "%s: rows differ", load_azSsb[i]);
      p->nFail++;
    }
    free(z);
    PQclear(res);
  }
  PQfinish(c);
  return NULL;
}

TEST_IMPL(daemon_concurrent) {
  const char *azExtra[] = {"--queries-in-flight", "4", NULL};
  starqd_proc d;
  char *azSql[13], *azWant[13];
  load_client aClient[LOAD_CLIENTS];
  pthread_t aThread[LOAD_CLIENTS];
  starqd_data("data");
  for (int i = 0; i < 13; i++) {
    char zRel[64];
    size_t n;
    unsigned *aType;
    int nCol;
    snprintf(zRel, sizeof(zRel), "ssb-data/queries/%s.sql", load_azSsb[i]);
    azSql[i] = test_file_read(test_src(zRel), &n);
    azWant[i] = starqd_expected("data", azSql[i], &aType, &nCol);
    free(aType);
  }
  starqd_expected_close();
  starqd_start(&d, "data", azExtra);
  for (int i = 0; i < LOAD_CLIENTS; i++) {
    memset(&aClient[i], 0, sizeof(aClient[i]));
    aClient[i].pD = &d;
    aClient[i].iClient = i;
    aClient[i].azSql = azSql;
    aClient[i].azWant = azWant;
    ASSERT_EQ(pthread_create(&aThread[i], NULL, load_client_main, &aClient[i]), 0);
  }
  for (int i = 0; i < LOAD_CLIENTS; i++) {
    pthread_join(aThread[i], NULL);
    if (aClient[i].nFail) FAIL("client %d: %s", i, aClient[i].zWhy);
  }
  for (int i = 0; i < 13; i++) {
    free(azSql[i]);
    free(azWant[i]);
  }
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}
