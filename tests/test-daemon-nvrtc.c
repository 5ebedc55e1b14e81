/*
** tests/test-daemon-nvrtc.c — an NVRTC compile nobody waits for any more
** is left (runtime/cuda-detach.c): on the mock GPU, whose first three
** foreground compiles take COMPILE_MS longer, uninterruptibly, a
** statement_timeout, a CancelRequest and a client that goes away each
** free the worker while the compile still runs — no query is running
** well before the compile could have ended — and a query after them is
** not held up. An abandoned compile's module is cached on disk when it
** ends: the same shape later loads it instead of compiling.
*/
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/jsonread.h"
#include "../common/timer.h"
#include "http-fixture.h"
#include "starqd-fixture.h"
#include "test.h"

/* How much longer each slow compile takes, and the bound in which the
** worker must be free again: far apart, for a loaded machine. */
#define COMPILE_MS 12000
#define FREE_SECONDS 4.0

/* Three shapes, a slow compile each. */
static const char *const azSlow[] = {
    "SELECT sum(lo_revenue) FROM lineorder WHERE lo_quantity < 10",
    "SELECT sum(lo_tax) FROM lineorder WHERE lo_discount < 3",
    "SELECT max(lo_supplycost) FROM lineorder WHERE lo_quantity > 40",
};

/* Sets a variable for the daemon started next. */
static void nvrtc_env(const char *zName, int v) {
  char z[32];
  snprintf(z, sizeof(z), "%d", v);
  setenv(zName, z, 1);
}

/* Waits for rSeconds at most until no query runs; fails past that. */
static void nvrtc_wait_free(const starqd_proc *d, const char *zAfter) {
  double t0 = timer_now();
  starqd_wait_running(d, 0, FREE_SECONDS);
  if (timer_now() - t0 > FREE_SECONDS) FAIL("after %s the worker was busy", zAfter);
}

TEST_IMPL(daemon_nvrtc_abandon) {
  /* No resident copies (their decode module would be the first compile),
  ** no generic kernels: each shape waits for its own compile. */
  const char *azExtra[] = {"--backend", "cuda", "--bandwidth-probe", "0", "--generic-kernels", "0",
                           "--device-budget", "0", "--device-warm", "0", NULL};
  starqd_proc d;
  PGconn *c;
  PGresult *res;
  char zErr[256];
  double t0;
  starqd_data("data");
  nvrtc_env("STARQ_CUDA_MOCK_COMPILE_MS", COMPILE_MS);
  nvrtc_env("STARQ_CUDA_MOCK_SLOW_COMPILES", 3);
  starqd_start_mock_with(&d, "data", 0, 0, 1, azExtra);
  unsetenv("STARQ_CUDA_MOCK_COMPILE_MS");
  unsetenv("STARQ_CUDA_MOCK_SLOW_COMPILES");

  /* statement_timeout during the compile. */
  c = starqd_connect(&d);
  res = PQexec(c, "SET statement_timeout = '300ms'");
  ASSERT_EQ(PQresultStatus(res), PGRES_COMMAND_OK);
  PQclear(res);
  t0 = timer_now();
  res = PQexec(c, azSlow[0]);
  ASSERT_STR_EQ(PQresultErrorField(res, PG_DIAG_SQLSTATE), "57014");
  PQclear(res);
  nvrtc_wait_free(&d, "a statement_timeout");
  res = PQexec(c, "SET statement_timeout = 0");
  PQclear(res);

  /* A CancelRequest during the compile. */
  ASSERT_EQ(PQsendQuery(c, azSlow[1]), 1);
  starqd_wait_running(&d, 1, 30);
  starqd_cancel_check(c);
  nvrtc_wait_free(&d, "a cancel");
  PQfinish(c);

  /* A client gone during the compile. */
  c = starqd_connect(&d);
  ASSERT_EQ(PQsendQuery(c, azSlow[2]), 1);
  starqd_wait_running(&d, 1, 30);
  PQfinish(c);
  nvrtc_wait_free(&d, "a disconnect");

  /* Three compiles still run, for no one: a new shape is not held up. */
  c = starqd_connect(&d);
  res = PQexec(c, "SELECT count(*) FROM lineorder WHERE lo_linenumber = 1");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  PQclear(res);
  if (timer_now() - t0 > COMPILE_MS / 1000.0) {
    FAIL("the abandoned compiles held the worker: %.1f s", timer_now() - t0);
  }

  /* Once the abandoned compiles end, their shapes are on disk. */
  for (int n = 0; n < 3;) {
    char *zLog = starqd_log(&d);
    n = 0;
    for (const char *z = zLog; (z = strstr(z, "abandoned by its statement, compiled")) != NULL; z++) {
      n++;
    }
    free(zLog);
    if (timer_now() - t0 > 120) FAIL("%d abandoned compiles ended in 120 s, not 3", n);
    usleep(100 * 1000);
  }
  res = PQexec(c, azSlow[0]);
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  PQclear(res);
  {
    json_value *v;
    res = PQexec(c, "SHOW starq.last_query");
    ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
    ASSERT_EQ(json_parse(PQgetvalue(res, 0, 0), strlen(PQgetvalue(res, 0, 0)), &v, zErr,
                         sizeof(zErr)), 0);
    if (json_bool_get(json_get(v, "cached"), 0) != 1) FAIL("%s", PQgetvalue(res, 0, 0));
    json_value_free(v);
    PQclear(res);
  }
  PQfinish(c);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}
