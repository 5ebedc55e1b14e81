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
/* Starts a worker of configuration *pCfg, with the defaults of the suite. */
static worker *workertest_start_cfg(worker_config *c, const char *zBackend, int nQuery) {
  worker *w;
  char zErr[2048], zProgram[4096];
  snprintf(zProgram, sizeof(zProgram), "%s", test_bin("starq-worker"));
  c->zProgram = zProgram;
  c->zDataDir = "data";
  c->zBackend = zBackend;
  c->nQuery = nQuery;
  c->zCacheDir = NULL;   /* the run's kernel cache, as exectest_open's */
  c->bPreload = workertest_bPreload;
  c->nSpinMicros = workertest_nSpin;
  if (worker_start(c, &w, zErr, sizeof(zErr)) != 0) FAIL("worker_start: %s", zErr);
  return w;
}

worker *workertest_start(const char *zBackend, int nQuery) {
  worker_config c;
  worker_config_init(&c);
  return workertest_start_cfg(&c, zBackend, nQuery);
}

worker *workertest_start_streamed(int nQuery, int msLaunch) {
  static const char *const azVar[] = {"STARQ_LIBCUDA", "STARQ_LIBNVRTC",
                                      "STARQ_CUDA_MOCK_LAUNCH_MS"};
  worker_config c;
  worker *w;
  char zLaunch[32];
  snprintf(zLaunch, sizeof(zLaunch), "%d", msLaunch);
  setenv(azVar[0], test_bin("libstarq-cuda-mock.so"), 1);
  setenv(azVar[1], test_bin("libstarq-cuda-mock.so"), 1);
  setenv(azVar[2], zLaunch, 1);
  worker_config_init(&c);
  c.mem.nPinned = 0;                   /* every fact column through strides */
  c.mem.nDevice = 0;
  c.stride.nBufByte = 20480;           /* one stride: 4,096 rows of 4 bytes and a directory */
  w = workertest_start_cfg(&c, "cuda", nQuery);
  for (size_t i = 0; i < sizeof(azVar) / sizeof(azVar[0]); i++) unsetenv(azVar[i]);
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


int workertest_query(worker *w, const char *zSql, const exec_options *pOpt, exec_result *pRes,
                     sql_error *pErr) {
  engine_request q;
  memset(&q, 0, sizeof(q));
  q.eKind = ENGINE_SELECT;
  q.zSql = zSql;
  if (pOpt != NULL) q.opt = *pOpt;
  return worker_query(w, &q, pRes, pErr);
}
