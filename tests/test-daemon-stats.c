/*
** tests/test-daemon-stats.c — the server's figures through SQL, against a
** live starqd whose queries run in the device worker: SHOW
** starq.last_query (what the session's previous query cost) and SHOW
** starq.status (the /status document), read with the JSON reader and
** checked against the same query run in this process; and a cancel or a
** statement timeout that reaches the query running in the worker, so the
** worker is free again at once rather than when the query would have
** ended.
*/
#define _GNU_SOURCE
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "../common/jsonread.h"
#include "http-fixture.h"
#include "promcheck.h"
#include "starqd-fixture.h"
#include "test.h"

static double stats_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Runs SHOW zName on c and returns its one value parsed as JSON. */
static json_value *stats_show(PGconn *c, const char *zName) {
  char zSql[64], zErr[256];
  json_value *v;
  PGresult *res;
  snprintf(zSql, sizeof(zSql), "SHOW %s", zName);
  res = PQexec(c, zSql);
  if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1 || PQnfields(res) != 1) {
    FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  }
  ASSERT_STR_EQ(PQfname(res, 0), zName);
  ASSERT_EQ(PQftype(res, 0), 25);            /* text */
  if (json_parse(PQgetvalue(res, 0, 0), strlen(PQgetvalue(res, 0, 0)), &v, zErr, sizeof(zErr)) != 0) {
    FAIL("%s is not JSON: %s\n%s", zSql, zErr, PQgetvalue(res, 0, 0));
  }
  PQclear(res);
  return v;
}

/* The number member zKey of v; fails if it is missing. */
static double stats_num(const json_value *v, const char *zKey) {
  const json_value *p = json_get(v, zKey);
  if (p == NULL || p->eKind != JSON_NUMBER) FAIL("no number \"%s\"", zKey);
  return p->r;
}

TEST_IMPL(daemon_last_query) {
  static const char zQuery[] = "SELECT d_year, sum(lo_revenue) FROM lineorder, date "
                               "WHERE lo_orderdate = d_datekey GROUP BY d_year ORDER BY d_year";
  starqd_proc d;
  PGconn *c, *c2;
  PGresult *res;
  json_value *v, *s;
  const json_value *k, *t;
  unsigned *aType;
  int nCol, bLineorder = 0;
  char *zWant;
  static const char *const azFlag[] = {"--generic-kernels", "0", NULL};
  char *z;
  starqd_data("data");
  /* The query's own kernels only, waited for, so that the tier is known. */
  starqd_start(&d, "data", azFlag);
  c = starqd_connect(&d);
  c2 = starqd_connect(&d);

  v = stats_show(c, "starq.last_query");
  ASSERT_STR_EQ(json_str(json_get(v, "status"), ""), "none");
  json_value_free(v);
  /* The flag is the setting's default, RESET included. */
  res = PQexec(c, "SET starq.generic_kernels TO DEFAULT");
  ASSERT_EQ(PQresultStatus(res), PGRES_COMMAND_OK);
  PQclear(res);
  res = PQexec(c, "SHOW starq.generic_kernels");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  z = PQgetvalue(res, 0, 0);
  ASSERT_STR_EQ(z, "off");
  PQclear(res);

  /* A query: its rows, its bytes as this process reads them, its kernels. */
  zWant = starqd_expected("data", zQuery, &aType, &nCol);
  res = PQexec(c, zQuery);
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  {
    char *zGot = starqd_result_text(res);
    ASSERT_STR_EQ(zGot, zWant);
    free(zGot);
  }
  v = stats_show(c, "starq.last_query");
  ASSERT_STR_EQ(json_str(json_get(v, "status"), ""), "ok");
  ASSERT_STR_EQ(json_str(json_get(v, "sql"), ""), zQuery);
  ASSERT_EQ((int)stats_num(v, "rows"), PQntuples(res));
  ASSERT(stats_num(v, "seconds") > 0);
  ASSERT(stats_num(v, "kernel_seconds") > 0 && stats_num(v, "kernel_seconds") <= stats_num(v, "seconds"));
  ASSERT(stats_num(v, "fact_bytes") > 0 && stats_num(v, "fact_bytes") <= stats_num(v, "bytes_scanned"));
  ASSERT_STR_EQ(json_str(json_get(v, "backend"), ""), starqd_backend());
  ASSERT_STR_EQ(json_str(json_get(v, "tier"), ""), "optimized");
  if (strcmp(starqd_backend(), "cpu") == 0) {
    ASSERT(stats_num(v, "zero_copy_bytes_per_second") == 0);   /* unknown on the CPU */
  } else {
    /* Measured at start: PCIe below device memory, both plausible. */
    ASSERT(stats_num(v, "zero_copy_bytes_per_second") > 1e9);
    ASSERT(stats_num(v, "device_bytes_per_second") > stats_num(v, "zero_copy_bytes_per_second"));
  }
  k = json_get(v, "kernels");
  ASSERT(k != NULL && k->eKind == JSON_ARRAY && k->n >= 2);
  for (int i = 0; i < k->n; i++) {
    ASSERT(json_str(json_get(&k->a[i], "name"), NULL) != NULL);
    ASSERT(stats_num(&k->a[i], "launches") >= 1);
  }
  ASSERT(json_get(json_get(v, "columns"), "pinned") != NULL);
  json_value_free(v);
  PQclear(res);
  free(zWant);
  free(aType);

  /* The other session has its own: none yet. SHOW does not replace it. */
  v = stats_show(c2, "starq.last_query");
  ASSERT_STR_EQ(json_str(json_get(v, "status"), ""), "none");
  json_value_free(v);
  v = stats_show(c, "starq.last_query");
  ASSERT_STR_EQ(json_str(json_get(v, "sql"), ""), zQuery);
  json_value_free(v);

  /* A failed query is recorded with its SQLSTATE. */
  res = PQexec(c, "SELECT nope FROM lineorder");
  ASSERT_EQ(PQresultStatus(res), PGRES_FATAL_ERROR);
  PQclear(res);
  v = stats_show(c, "starq.last_query");
  ASSERT_STR_EQ(json_str(json_get(v, "status"), ""), "error");
  ASSERT_STR_EQ(json_str(json_get(v, "sqlstate"), ""), "42703");
  json_value_free(v);

  /* SHOW starq.status: the /status document, tables with their bytes
  ** pinned as the device worker reports them. */
  s = stats_show(c2, "starq.status");
  ASSERT_EQ(json_bool_get(json_get(s, "ready"), 0), 1);
  ASSERT(stats_num(s, "sessions") == 2);
  ASSERT_STR_EQ(json_str(json_get(json_get(s, "device"), "backend"), ""), starqd_backend());
  ASSERT(stats_num(json_get(s, "device"), "pinned_bytes") > 0);
  t = json_get(s, "tables");
  ASSERT(t != NULL && t->eKind == JSON_ARRAY && t->n == 5);
  for (int i = 0; i < t->n; i++) {
    ASSERT(stats_num(&t->a[i], "bytes_pinned") > 0);
    if (strcmp(json_str(json_get(&t->a[i], "name"), ""), "lineorder") == 0) {
      bLineorder = 1;
      ASSERT(stats_num(&t->a[i], "rows") > 50000);
    }
  }
  ASSERT(bLineorder);
  ASSERT(stats_num(json_get(s, "queries"), "error") >= 1);
  json_value_free(s);

  /* Names it does not know are still 42704. */
  res = PQexec(c, "SHOW starq.nothing");
  ASSERT_STR_EQ(PQresultErrorField(res, PG_DIAG_SQLSTATE), "42704");
  PQclear(res);
  PQfinish(c);
  PQfinish(c2);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}

/* Waits up to rSeconds until SHOW starq.status on c says no query runs,
** or fails. */
static void stats_wait_idle(PGconn *c, double rSeconds) {
  double t0 = stats_now();
  for (;;) {
    json_value *s = stats_show(c, "starq.status");
    double nRunning = stats_num(json_get(s, "queries"), "running");
    json_value_free(s);
    if (nRunning == 0) return;
    if (stats_now() - t0 > rSeconds) FAIL("a query still runs after %.0f s", rSeconds);
    usleep(20 * 1000);
  }
}

/* A query in the worker takes over a minute unless cancelled (on the mock
** GPU, lo_revenue streamed through 15 strides of 4,096 rows, each launch
** taking five seconds): a CancelRequest and a statement timeout each
** answer 57014 at once, and the query in the worker stops too, between two
** strides — the executor thread is free long before the query would have
** ended (its kernels' compile, if the cache lacks them, comes first):
** within half a minute however busy the machine. */
/* Waits up to rSeconds for /metrics to show zSeries at v. */
static void stats_metric_wait(const starqd_proc *d, const char *zSeries, double v,
                              double rSeconds) {
  double got = -1, t0 = stats_now();
  for (;;) {
    char *zResp = http_get(d->iHttpPort, "/metrics");
    int rc = promcheck_value(http_resp_body(zResp), zSeries, &got);
    free(zResp);
    if (rc == 0 && got == v) return;
    if (stats_now() - t0 > rSeconds) FAIL("%s is %g, not %g", zSeries, got, v);
    usleep(50 * 1000);
  }
}

TEST_IMPL(daemon_worker_cancel) {
  starqd_proc d;
  PGconn *c, *c2;
  PGresult *res;
  starqd_data("data");
  {
    const char *azExtra[] = {"--backend", "cuda", "--bandwidth-probe", "0", "--pinned-budget", "0",
                             "--device-budget", "0", "--stride-bytes", "20480", NULL};
    starqd_start_mock_with(&d, "data", 5000, 0, 1, azExtra);
  }
  c = starqd_connect(&d);
  c2 = starqd_connect(&d);

  ASSERT_EQ(PQsendQuery(c, "SELECT sum(lo_revenue) FROM lineorder"), 1);
  starqd_wait_running(&d, 1, 60);
  starqd_cancel_check(c);
  stats_wait_idle(c2, 30);
  stats_metric_wait(&d, "starq_queries_total{status=\"cancelled\"}", 1, 30);
  stats_metric_wait(&d, "starq_statements_total{outcome=\"cancelled\"}", 1, 30);

  res = PQexec(c, "SET statement_timeout = '300ms'");
  ASSERT_EQ(PQresultStatus(res), PGRES_COMMAND_OK);
  PQclear(res);
  res = PQexec(c, "SELECT sum(lo_revenue) FROM lineorder");
  ASSERT_STR_EQ(PQresultErrorField(res, PG_DIAG_SQLSTATE), "57014");
  ASSERT(strstr(PQresultErrorMessage(res), "statement timeout") != NULL);
  PQclear(res);
  stats_wait_idle(c2, 30);
  /* A timeout is not a cancel, and neither is ok. */
  stats_metric_wait(&d, "starq_queries_total{status=\"timeout\"}", 1, 30);
  stats_metric_wait(&d, "starq_statements_total{outcome=\"timeout\"}", 1, 30);
  PQfinish(c);

  /* A client gone mid-query: its query stops too, and counts as such. */
  c = starqd_connect(&d);
  ASSERT_EQ(PQsendQuery(c, "SELECT sum(lo_revenue) FROM lineorder"), 1);
  starqd_wait_running(&d, 1, 60);
  PQfinish(c);
  stats_wait_idle(c2, 30);
  stats_metric_wait(&d, "starq_queries_total{status=\"disconnected\"}", 1, 30);
  stats_metric_wait(&d, "starq_statements_total{outcome=\"disconnected\"}", 1, 30);
  stats_metric_wait(&d, "starq_queries_total{status=\"ok\"}", 0, 1);
  stats_metric_wait(&d, "starq_queries_total{status=\"cancelled\"}", 1, 1);
  PQfinish(c2);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}
