/*
** tests/workertest.c — the device worker tests' shared helpers
** (workertest.h).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/timer.h"
#include "test.h"
#include "workertest.h"

int workertest_bPreload;
int workertest_nSpin = -1;

/* The backend the suite runs on: STARQ_TEST_BACKEND (bench/device.sh
** gpu-tests sets cuda), else the CPU. */
const char *workertest_backend(void) {
  const char *z = getenv("STARQ_TEST_BACKEND");
  return z != NULL && strcmp(z, "cuda") == 0 ? "cuda" : "cpu";
}

/* Starts a worker on ./data; see workertest.h. The columns are preloaded
** when workertest_bPreload is set. */
worker *workertest_start(const char *zBackend, int nQuery) {
  worker_config c;
  worker *w;
  char zErr[2048], zProgram[4096];
  snprintf(zProgram, sizeof(zProgram), "%s", test_bin("starq-worker"));
  worker_config_init(&c);
  c.zProgram = zProgram;
  c.zDataDir = "data";
  c.zBackend = zBackend;
  c.nQuery = nQuery;
  c.zCacheDir = NULL;   /* the run's kernel cache, as exectest_open's */
  c.bPreload = workertest_bPreload;
  c.nSpinMicros = workertest_nSpin;
  if (worker_start(&c, &w, zErr, sizeof(zErr)) != 0) FAIL("worker_start: %s", zErr);
  return w;
}

void workertest_sleep_ms(int n) {
  struct timespec ts = {n / 1000, (long)(n % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Waits up to rSeconds for xTest(stats) to hold; fails the test if it does not. */
worker_stats workertest_wait(worker *w, int (*xTest)(const worker_stats *), double rSeconds,
                             const char *zWhat) {
  double tEnd = timer_now() + rSeconds;
  worker_stats st;
  for (;;) {
    worker_stats_get(w, &st);
    if (xTest(&st)) return st;
    if (timer_now() > tEnd) FAIL("waited %.0f s for %s (last exit: %s)", rSeconds, zWhat, st.zLastExit);
    workertest_sleep_ms(20);
  }
}

