/*
** tests/test-daemon.c — starqd end to end through libpq: flags, simple
** and extended queries checked against the same SQL run in this process,
** several statements per Query, errors with positions, SET / SHOW,
** transaction status, the status port of the live daemon, and SIGTERM.
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "../common/timer.h"
#include "../server/config.h"
#include "http-fixture.h"
#include "jsoncheck.h"
#include "promcheck.h"
#include "starqd-fixture.h"
#include "test.h"

static const char *const daemon_azSsb[] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                           "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};
#define DAEMON_NSSB 13

/* Reads SSB query zName's SQL (malloc'd, without the trailing ';'). */
static char *daemon_ssb_sql(const char *zName) {
  char zRel[64];
  size_t n;
  char *z;
  snprintf(zRel, sizeof(zRel), "ssb-data/queries/%s.sql", zName);
  z = test_file_read(test_src(zRel), &n);
  while (n > 0 && (z[n - 1] == '\n' || z[n - 1] == ';' || z[n - 1] == ' ')) z[--n] = 0;
  return z;
}

/* Fails unless res is a result set equal to zSql's in-process result,
** column types included. */
static void daemon_check_rows(PGresult *res, const char *zSql) {
  unsigned *aType;
  int nCol;
  char *zWant = starqd_expected("data", zSql, &aType, &nCol);
  char *zGot;
  if (PQresultStatus(res) != PGRES_TUPLES_OK) FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  zGot = starqd_result_text(res);
  ASSERT_EQ(PQnfields(res), nCol);
  for (int c = 0; c < nCol; c++) ASSERT_EQ(PQftype(res, c), aType[c]);
  if (strcmp(zGot, zWant) != 0) FAIL("%s:\ngot:\n%s\nwanted:\n%s", zSql, zGot, zWant);
  free(zGot);
  free(zWant);
  free(aType);
}

/* Runs zSql, expecting an error with zState at position iPos (0: none). */
static void daemon_expect_error(PGconn *c, const char *zSql, const char *zState, int iPos) {
  PGresult *res = PQexec(c, zSql);
  const char *zGot = PQresultErrorField(res, PG_DIAG_SQLSTATE);
  const char *zPos = PQresultErrorField(res, PG_DIAG_STATEMENT_POSITION);
  if (PQresultStatus(res) != PGRES_FATAL_ERROR || zGot == NULL || strcmp(zGot, zState) != 0) {
    FAIL("%s: wanted %s, got %s: %s", zSql, zState, zGot ? zGot : "no error",
         PQresultErrorMessage(res));
  }
  ASSERT_EQ(zPos != NULL ? atoi(zPos) : 0, iPos);
  PQclear(res);
}

/* Runs zSql and returns its single value (malloc'd). */
static char *daemon_value(PGconn *c, const char *zSql) {
  PGresult *res = PQexec(c, zSql);
  char *z;
  if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
    FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  }
  z = strdup(PQgetvalue(res, 0, 0));
  PQclear(res);
  return z;
}

/* Asserts that zSql's single value is zWant. */
static void daemon_value_is(PGconn *c, const char *zSql, const char *zWant) {
  char *z = daemon_value(c, zSql);
  ASSERT_STR_EQ(z, zWant);
  free(z);
}

static void daemon_command(PGconn *c, const char *zSql, const char *zTag) {
  PGresult *res = PQexec(c, zSql);
  if (PQresultStatus(res) != PGRES_COMMAND_OK) FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  ASSERT_STR_EQ(PQcmdStatus(res), zTag);
  PQclear(res);
}

TEST_IMPL(daemon_flags) {
  test_proc p;
  const char *aBad[][6] = {
      {"starqd", NULL},
      {"starqd", "--data-dir", "x", "--port", "70000", NULL},
      {"starqd", "--data-dir", "x", "--backend", "gpu", NULL},
      {"starqd", "--data-dir", "x", "--bogus", NULL},
      {"starqd", "--data-dir", "x", "--pinned-budget", "lots", NULL},
      {"starqd", "--data-dir", "x", "--config", "missing.conf", NULL},
      {"starqd", "--data-dir", "x", "--config", "bad.conf", NULL},
      {"starqd", "--data-dir", "x", "--queries-in-flight", "-1", NULL},
  };
  const char *azWhy[] = {"--data-dir is required", "port: expected an integer",
                         "backend: expected auto, cuda or cpu", "unknown flag \"--bogus\"",
                         "pinned-budget: expected a byte count", "config: cannot open missing.conf",
                         "bad.conf:2: unknown setting \"prot\"",
                         "queries-in-flight: expected an integer from 0 to 1024"};
  const char *argvHelp[] = {"starqd", "--help", NULL};
  FILE *f = fopen("bad.conf", "w");
  ASSERT(f != NULL);
  fputs("# a comment\nprot = 5\n", f);
  fclose(f);
  for (int i = 0; i < (int)(sizeof(aBad) / sizeof(aBad[0])); i++) {
    ASSERT_EQ(test_run(&p, aBad[i]), 2);
    if (strstr(p.zErr, azWhy[i]) == NULL || strstr(p.zErr, "usage: starqd") == NULL) {
      FAIL("case %d said:\n%s", i, p.zErr);
    }
    test_proc_free(&p);
  }
  ASSERT_EQ(test_run(&p, argvHelp), 0);
  ASSERT(strstr(p.zOut, "--queries-in-flight") != NULL);
  test_proc_free(&p);
  /* Queries in flight: by default four per CPU within the bounds; a number
  ** given is taken as it is. */
  {
    long nCpu = DAEMON_IN_FLIGHT_PER_CPU * sysconf(_SC_NPROCESSORS_ONLN);
    daemon_config cfg;
    char zErr[256];
    char *argvN[] = {"starqd", "--data-dir", "x", "--queries-in-flight", "3", NULL};
    daemon_config_default(&cfg);
    ASSERT_EQ(cfg.nInFlight, 0);
    ASSERT_EQ(daemon_config_in_flight(&cfg),
              nCpu < DAEMON_IN_FLIGHT_MIN   ? DAEMON_IN_FLIGHT_MIN
              : nCpu > DAEMON_IN_FLIGHT_MAX ? DAEMON_IN_FLIGHT_MAX
                                            : (int)nCpu);
    ASSERT_EQ(daemon_config_parse(&cfg, 5, argvN, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(daemon_config_in_flight(&cfg), 3);
  }
  /* --generic-kernels, on by default; its old name --jit-tier sets it too. */
  {
    daemon_config cfg;
    char zErr[256];
    char *argvOld[] = {"starqd", "--data-dir", "x", "--jit-tier", "0", NULL};
    char *argvNew[] = {"starqd", "--data-dir", "x", "--generic-kernels", "0", NULL};
    daemon_config_default(&cfg);
    ASSERT_EQ(cfg.bGenericKernels, 1);
    ASSERT_EQ(daemon_config_parse(&cfg, 5, argvOld, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(cfg.bGenericKernels, 0);
    daemon_config_default(&cfg);
    ASSERT_EQ(daemon_config_parse(&cfg, 5, argvNew, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(cfg.bGenericKernels, 0);
  }
  /* A data directory that cannot be opened: logged, exit 1. */
  {
    const char *argvBad[] = {"starqd", "--data-dir", "afile/x", "--port", "0", "--http-port", "0", NULL};
    f = fopen("afile", "w");
    ASSERT(f != NULL);
    fclose(f);
    ASSERT_EQ(test_run(&p, argvBad), 1);
    if (strstr(p.zErr, "cannot open afile/x") == NULL) FAIL("starqd said:\n%s", p.zErr);
    test_proc_free(&p);
  }
  return 0;
}

TEST_IMPL(daemon_queries) {
  starqd_proc d;
  PGconn *c;
  PGresult *res;
  char *z;
  FILE *f;
  starqd_data("data");
  /* The config file's settings apply; flags override them. */
  f = fopen("starqd.conf", "w");
  ASSERT(f != NULL);
  fputs("queries-in-flight = 2   # two at once\nlog-level = debug\nmax-connections = 8\n", f);
  fclose(f);
  {
    const char *azExtra[] = {"--config", "starqd.conf", "--log-level", "info", NULL};
    starqd_start(&d, "data", azExtra);
  }
  c = starqd_connect(&d);

  /* Every SSB query by the simple and the extended protocol. */
  for (int i = 0; i < DAEMON_NSSB; i++) {
    char *zSql = daemon_ssb_sql(daemon_azSsb[i]);
    res = PQexec(c, zSql);
    daemon_check_rows(res, zSql);
    PQclear(res);
    res = PQexecParams(c, zSql, 0, NULL, NULL, NULL, NULL, 0);
    daemon_check_rows(res, zSql);
    PQclear(res);
    free(zSql);
  }
  /* Zero rows still describe their columns' types. */
  res = PQexec(c, "SELECT lo_orderkey, lo_revenue, lo_tax, lo_orderdate, lo_orderpriority FROM lineorder "
                  "WHERE lo_quantity > 1000");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  ASSERT_EQ(PQntuples(res), 0);
  daemon_check_rows(res, "SELECT lo_orderkey, lo_revenue, lo_tax, lo_orderdate, lo_orderpriority "
                         "FROM lineorder WHERE lo_quantity > 1000");
  PQclear(res);
  /* Describe of a prepared statement gives the same columns. */
  res = PQprepare(c, "s1", "SELECT d_year, d_yearmonth FROM date WHERE d_datekey = DATE '1997-01-01'", 0, NULL);
  ASSERT_EQ(PQresultStatus(res), PGRES_COMMAND_OK);
  PQclear(res);
  res = PQdescribePrepared(c, "s1");
  ASSERT_EQ(PQnfields(res), 2);
  ASSERT_STR_EQ(PQfname(res, 0), "d_year");
  ASSERT_EQ(PQftype(res, 0), 23);
  PQclear(res);
  res = PQexecPrepared(c, "s1", 0, NULL, NULL, NULL, 0);
  z = starqd_result_text(res);
  ASSERT_STR_EQ(z, "1997|Jan1997\n");
  free(z);
  PQclear(res);

  /* Parameters: typed and untyped, text and NULL, a prepared statement
  ** describing them; the same counts as with literals. */
  {
    const char *azV[3] = {"25", "1995-01-01", "AIR"};
    Oid aT[3] = {23, 0, 0};
    const char *azV2[2] = {"7", NULL};
    res = PQexecParams(c, "SELECT count(*) FROM lineorder WHERE lo_quantity < $1 AND lo_orderdate < $2 "
                          "AND lo_shipmode = $3", 3, aT, azV, NULL, NULL, 0);
    daemon_check_rows(res, "SELECT count(*) FROM lineorder WHERE lo_quantity < 25 AND "
                           "lo_orderdate < DATE '1995-01-01' AND lo_shipmode = 'AIR'");
    PQclear(res);
    res = PQprepare(c, "s2", "SELECT d_year, $1::int FROM date WHERE d_year = $2 LIMIT 1", 0, NULL);
    ASSERT_EQ(PQresultStatus(res), PGRES_COMMAND_OK);
    PQclear(res);
    res = PQdescribePrepared(c, "s2");
    ASSERT_EQ(PQnparams(res), 2);
    ASSERT_EQ(PQnfields(res), 2);
    PQclear(res);
    azV2[1] = "1997";
    res = PQexecPrepared(c, "s2", 2, azV2, NULL, NULL, 0);
    z = starqd_result_text(res);
    ASSERT_STR_EQ(z, "1997|7\n");
    free(z);
    PQclear(res);
    azV2[0] = NULL;
    res = PQexecPrepared(c, "s2", 2, azV2, NULL, NULL, 0);
    z = starqd_result_text(res);
    ASSERT_STR_EQ(z, "1997|\\N\n");
    free(z);
    PQclear(res);
    /* A '$1' in a string is no parameter. */
    res = PQexecParams(c, "SELECT count(*) FROM supplier WHERE s_name <> '$1' AND s_nation <> $1", 1,
                       NULL, azV + 2, NULL, NULL, 0);
    z = starqd_result_text(res);
    ASSERT_STR_EQ(z, "20\n");
    free(z);
    PQclear(res);
  }

  /* Several statements in one Query: one result each, in order. */
  ASSERT_EQ(PQsendQuery(c, "SELECT count(*) FROM supplier; SELECT count(*) FROM customer; SHOW TABLES"), 1);
  {
    const char *azWant[] = {"20\n", "300\n", NULL};
    int n = 0;
    while ((res = PQgetResult(c)) != NULL) {
      ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
      z = starqd_result_text(res);
      if (n < 2) ASSERT_STR_EQ(z, azWant[n]);
      else ASSERT(strstr(z, "lineorder|59893\n") != NULL);
      free(z);
      PQclear(res);
      n++;
    }
    ASSERT_EQ(n, 3);
  }

  /* Errors carry SQLSTATE and the position in the statement. */
  daemon_expect_error(c, "SELECT lo_revenue FORM lineorder", "42601", 24);
  daemon_expect_error(c, "SELECT nope FROM lineorder", "42703", 8);
  daemon_expect_error(c, "SELECT 1 FROM missing", "42P01", 15);
  daemon_expect_error(c, "SELECT 1; SELECT nope FROM lineorder", "42703", 18);
  daemon_expect_error(c, "SET no_such_setting = 1", "42704", 0);
  daemon_expect_error(c, "SET statement_timeout = 'soon'", "22023", 0);

  /* SET and SHOW. */
  daemon_command(c, "SET statement_timeout = 1500", "SET");
  daemon_value_is(c, "SHOW statement_timeout", "1500ms");
  daemon_command(c, "SET starq.resident TO off", "SET");
  daemon_value_is(c, "SHOW starq.resident", "off");
  daemon_value_is(c, "SHOW starq.stage_packed", "on");
  daemon_command(c, "SET starq.stage_packed = off", "SET");
  daemon_value_is(c, "SHOW starq.stage_packed", "off");
  daemon_command(c, "SET starq.stage_packed TO DEFAULT", "SET");
  daemon_value_is(c, "SHOW starq.stage_packed", "on");
  daemon_value_is(c, "SHOW starq.shared_scans", "on");
  daemon_command(c, "SET starq.shared_scans = off", "SET");
  daemon_value_is(c, "SHOW starq.shared_scans", "off");
  daemon_command(c, "SET starq.shared_scans TO DEFAULT", "SET");
  daemon_value_is(c, "SHOW starq.shared_scans", "on");
  daemon_value_is(c, "SHOW starq.generic_kernels", "on");   /* --generic-kernels' default */
  daemon_command(c, "SET starq.generic_kernels = off", "SET");
  daemon_value_is(c, "SHOW starq.generic_kernels", "off");
  daemon_command(c, "SET starq.generic_kernels TO DEFAULT", "SET");
  daemon_value_is(c, "SHOW starq.generic_kernels", "on");
  /* Its old name, kept for scripts, is the same setting. */
  daemon_command(c, "SET starq.jit_tier = off", "SET");
  daemon_value_is(c, "SHOW starq.generic_kernels", "off");
  daemon_value_is(c, "SHOW starq.jit_tier", "off");
  daemon_command(c, "SET starq.generic_kernels TO DEFAULT", "SET");
  daemon_command(c, "SET extra_float_digits = 3", "SET");
  daemon_command(c, "SET application_name = 'daemon test'", "SET");
  ASSERT_STR_EQ(PQparameterStatus(c, "application_name"), "daemon test");
  daemon_command(c, "SET DateStyle = 'ISO, MDY'", "SET");
  daemon_command(c, "SET statement_timeout TO DEFAULT", "SET");
  daemon_value_is(c, "SHOW statement_timeout", "0");
  ASSERT_STR_EQ(PQparameterStatus(c, "server_version"), "15.0 (starq)");

  /* Transactions: the status follows the tags; a failed block refuses
  ** everything but its end with 25P02. */
  ASSERT_EQ(PQtransactionStatus(c), PQTRANS_IDLE);
  daemon_command(c, "BEGIN", "BEGIN");
  ASSERT_EQ(PQtransactionStatus(c), PQTRANS_INTRANS);
  res = PQexec(c, "SELECT count(*) FROM date");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  PQclear(res);
  daemon_command(c, "COMMIT", "COMMIT");
  ASSERT_EQ(PQtransactionStatus(c), PQTRANS_IDLE);
  daemon_command(c, "BEGIN", "BEGIN");
  daemon_expect_error(c, "SELECT nope FROM date", "42703", 8);
  ASSERT_EQ(PQtransactionStatus(c), PQTRANS_INERROR);
  daemon_expect_error(c, "SELECT count(*) FROM date", "25P02", 0);
  daemon_command(c, "COMMIT", "ROLLBACK");
  ASSERT_EQ(PQtransactionStatus(c), PQTRANS_IDLE);

  /* EXPLAIN: one text column. */
  res = PQexec(c, "EXPLAIN SELECT sum(lo_revenue) FROM lineorder");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  ASSERT_STR_EQ(PQfname(res, 0), "QUERY PLAN");
  ASSERT_EQ(PQftype(res, 0), 25);
  ASSERT(PQntuples(res) > 2);
  PQclear(res);

  res = PQexec(c, "EXPLAIN ANALYZE SELECT sum(lo_revenue) FROM lineorder WHERE lo_quantity < 10");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  z = starqd_result_text(res);
  /* A new shape on CUDA runs on the generic kernels first: "q_scan (generic)". */
  if (strstr(z, "\nExecution: 1 rows in ") == NULL ||
      (strstr(z, "\nKernel q_scan: 1 launch, ") == NULL &&
       strstr(z, "\nKernel q_scan (generic): 1 launch, ") == NULL)) {
    FAIL("EXPLAIN ANALYZE said:\n%s", z);
  }
  free(z);
  PQclear(res);
  daemon_expect_error(c, "EXPLAIN ANALYZE SELECT nope FROM lineorder", "42703", 24);

  /* CREATE TABLE and DROP TABLE go through the catalog. */
  daemon_command(c, "CREATE TABLE t_new (a INTEGER PRIMARY KEY, b VARCHAR(10))", "CREATE TABLE");
  z = daemon_value(c, "SELECT count(*) FROM t_new");
  ASSERT_STR_EQ(z, "0");
  free(z);
  daemon_expect_error(c, "CREATE TABLE t_new (a INTEGER)", "42P07", 14);
  daemon_command(c, "DROP TABLE t_new", "DROP TABLE");
  daemon_command(c, "DROP TABLE IF EXISTS t_new", "DROP TABLE");
  daemon_expect_error(c, "DROP TABLE t_new", "42P01", 0);

  PQfinish(c);
  starqd_expected_close();
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  z = starqd_log(&d);
  ASSERT(strstr(z, "shutting down") != NULL);
  ASSERT(strstr(z, "DEBUG") == NULL);   /* the flag won over the file */
  free(z);
  return 0;
}

TEST_IMPL(daemon_status) {
  starqd_proc d;
  PGconn *c;
  PGresult *res;
  char *zResp, zErr[256], zVal[256];
  int fd, nFamily, nSample;
  double v;
  starqd_data("data");
  starqd_start(&d, "data", NULL);
  c = starqd_connect(&d);
  res = PQexec(c, "SELECT count(*) AS status_probe FROM part");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  PQclear(res);

  fd = http_client_connect(d.iHttpPort);
  http_client_send(fd, "GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n", 33);
  zResp = http_client_response(fd, 0);
  ASSERT(zResp != NULL);
  ASSERT_EQ(http_resp_status(zResp), 200);
  free(zResp);
  http_client_send(fd, "GET /status HTTP/1.1\r\nHost: x\r\n\r\n", 33);
  zResp = http_client_response(fd, 0);
  ASSERT(zResp != NULL);
  ASSERT_EQ(http_resp_status(zResp), 200);
  {
    const char *zBody = http_resp_body(zResp);
    if (jsoncheck(zBody, strlen(zBody), zErr, sizeof(zErr)) != 0) FAIL("%s\n%s", zErr, zBody);
    ASSERT(strstr(zBody, "\"sql\":\"SELECT count(*) AS status_probe FROM part\"") != NULL);
    ASSERT(strstr(zBody, "\"name\":\"lineorder\",\"rows\":59893") != NULL);
    {
      char zWant[64];
      snprintf(zWant, sizeof(zWant), "\"backend\":\"%s\"", starqd_backend());
      ASSERT(strstr(zBody, zWant) != NULL);
    }
    ASSERT(strstr(zBody, "\"sessions\":1") != NULL);
    ASSERT_EQ(jsoncheck_member(zBody, "ready", zVal, sizeof(zVal)), 0);
    ASSERT_STR_EQ(zVal, "true");
  }
  free(zResp);
  http_client_send(fd, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 34);
  zResp = http_client_response(fd, 0);
  ASSERT(zResp != NULL);
  ASSERT_EQ(http_resp_status(zResp), 200);
  if (promcheck(http_resp_body(zResp), &nFamily, &nSample, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(promcheck_value(http_resp_body(zResp), "starq_queries_total{status=\"ok\"}", &v), 0);
  ASSERT(v >= 1);
  ASSERT_EQ(promcheck_value(http_resp_body(zResp), "starq_connections", &v), 0);
  ASSERT(v == 1);
  free(zResp);
  close(fd);
  PQfinish(c);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}

/* SIGTERM: an idle session is told 57P01, a running query finishes
** first, and the daemon exits 0. */
TEST_IMPL(daemon_sigterm) {
  starqd_proc d;
  PGconn *cIdle, *cBusy;
  PGresult *res;
  char *z;
  starqd_data("data");
  starqd_start_mock(&d, "data", 700, 0, 1);   /* a query takes seconds */
  cIdle = starqd_connect(&d);
  cBusy = starqd_connect(&d);
  ASSERT_EQ(PQsendQuery(cBusy, "SELECT count(*) FROM supplier"), 1);
  usleep(300 * 1000);
  kill(d.pid, SIGTERM);
  res = PQgetResult(cBusy);
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  ASSERT_STR_EQ(PQgetvalue(res, 0, 0), "20");
  PQclear(res);
  while ((res = PQgetResult(cBusy)) != NULL) PQclear(res);
  res = PQexec(cIdle, "SELECT 1 FROM supplier");
  ASSERT(PQresultStatus(res) != PGRES_TUPLES_OK);
  ASSERT(strstr(PQerrorMessage(cIdle), "terminating connection due to administrator command") != NULL);
  PQclear(res);
  ASSERT_EQ(starqd_stop(&d, 0), 0);
  z = starqd_log(&d);
  ASSERT(strstr(z, "every session has ended") != NULL);
  free(z);
  PQfinish(cIdle);
  PQfinish(cBusy);
  return 0;
}

/* The pid of starqd's device worker (its child named starq-worker,
** spawned by whichever of its threads), or -1. */
static int daemontest_worker_pid(int iParent) {
  char zPath[300], z[4096];
  int pid = -1;
  struct dirent *e;
  DIR *pDir;
  snprintf(zPath, sizeof(zPath), "/proc/%d/task", iParent);
  if ((pDir = opendir(zPath)) == NULL) return -1;
  while (pid < 0 && (e = readdir(pDir)) != NULL) {
    FILE *f;
    if (e->d_name[0] == '.') continue;
    snprintf(zPath, sizeof(zPath), "/proc/%d/task/%s/children", iParent, e->d_name);
    if ((f = fopen(zPath, "r")) == NULL) continue;
    if (fgets(z, sizeof(z), f) != NULL) {
      /* Children of every kind (the daemon's own compiles run cc too):
      ** the one named starq-worker. */
      for (char *zTok = strtok(z, " \n"); zTok != NULL && pid < 0; zTok = strtok(NULL, " \n")) {
        char zComm[64] = "";
        FILE *fc;
        snprintf(zPath, sizeof(zPath), "/proc/%d/comm", atoi(zTok));
        if ((fc = fopen(zPath, "r")) == NULL) continue;
        if (fgets(zComm, sizeof(zComm), fc) != NULL && strcmp(zComm, "starq-worker\n") == 0) {
          pid = atoi(zTok);
        }
        fclose(fc);
      }
    }
    fclose(f);
  }
  closedir(pDir);
  return pid;
}

/* Queries run in starq-worker: when it dies (as a GPU fault makes it
** exit), the daemon stays up, replaces it, and the next query is right;
** with --device-worker 0 they run in the daemon's own process. */
TEST_IMPL(daemon_worker_restart) {
  static const char *const azInProcess[] = {"--device-worker", "0", NULL};
  starqd_proc d;
  PGconn *c;
  PGresult *res;
  int pid, pid2 = -1;
  starqd_data("data");
  starqd_start(&d, "data", NULL);
  c = starqd_connect(&d);
  res = PQexec(c, "SELECT count(*) FROM supplier");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  ASSERT_STR_EQ(PQgetvalue(res, 0, 0), "20");
  PQclear(res);
  pid = daemontest_worker_pid(d.pid);
  ASSERT_GT(pid, 0);
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  for (double tEnd = timer_now() + 60;
       ((pid2 = daemontest_worker_pid(d.pid)) == pid || pid2 < 0) && timer_now() < tEnd;) {
    usleep(20 * 1000);
  }
  ASSERT(pid2 > 0 && pid2 != pid);
  res = PQexec(c, "SELECT count(*), sum(lo_quantity) FROM lineorder WHERE lo_discount = 3");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  PQclear(res);
  PQfinish(c);
  {
    /* /metrics counts the restart. */
    char *zResp = http_get(d.iHttpPort, "/metrics");
    double v = 0;
    ASSERT_EQ(promcheck_value(http_resp_body(zResp), "starq_worker_restarts_total", &v), 0);
    ASSERT(v == 1);
    free(zResp);
  }
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);

  /* --device-worker 0: no child, the queries run in the daemon. */
  starqd_start(&d, "data", azInProcess);
  ASSERT_EQ(daemontest_worker_pid(d.pid), -1);
  c = starqd_connect(&d);
  res = PQexec(c, "SELECT count(*) FROM supplier");
  ASSERT_STR_EQ(PQgetvalue(res, 0, 0), "20");
  PQclear(res);
  /* The last query's record names the backend in process too. */
  res = PQexec(c, "SHOW starq.last_query");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  {
    char zWant[64];
    snprintf(zWant, sizeof(zWant), "\"backend\":\"%s\"", starqd_backend());
    ASSERT(strstr(PQgetvalue(res, 0, 0), zWant) != NULL);
    ASSERT(strstr(PQgetvalue(res, 0, 0), "\"rows\":1") != NULL);
  }
  PQclear(res);
  PQfinish(c);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}
