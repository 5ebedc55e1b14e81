/*
** tests/test-pipeline.c — the ordered parallel pipeline (common/pipeline.c):
** chunks are consumed exactly once and in order; the reported error is the
** lowest failing chunk's whatever the timing; a failure never deadlocks.
*/
#include <stdatomic.h>
#include <unistd.h>

#include "../common/pipeline.h"
#include "test.h"

#define PIPE_TEST_CHUNKS 2000

typedef struct pipe_test pipe_test;
struct pipe_test {
  int64_t aOrder[PIPE_TEST_CHUNKS];   /* chunk consumed at each step */
  int64_t nConsumed;
  _Atomic int nProduced;
  int64_t iFailProduce;     /* chunk whose production fails, or -1 */
  int64_t iFailConsume;     /* chunk whose consumption fails, or -1 */
};

typedef struct pipe_test_worker pipe_test_worker;
struct pipe_test_worker {
  int64_t iHeld;            /* chunk produced and not yet consumed */
};

static int pipe_test_produce(void *pCtx, void *pWorker, int64_t k, char *zErr, size_t nErr) {
  pipe_test *t = pCtx;
  pipe_test_worker *w = pWorker;
  t->nProduced++;
  if (k % 7 == 0) usleep(50);     /* uneven work, so chunks finish out of order */
  if (k == t->iFailProduce || (t->iFailProduce >= 0 && k == t->iFailProduce + 5)) {
    snprintf(zErr, nErr, "produce %lld failed", (long long)k);
    return -1;
  }
  w->iHeld = k;
  return 0;
}

static int pipe_test_consume(void *pCtx, void *pWorker, int64_t k, char *zErr, size_t nErr) {
  pipe_test *t = pCtx;
  pipe_test_worker *w = pWorker;
  ASSERT_EQ(w->iHeld, k);
  if (k == t->iFailConsume) {
    snprintf(zErr, nErr, "consume %lld failed", (long long)k);
    return -1;
  }
  t->aOrder[t->nConsumed++] = k;
  return 0;
}

static int pipe_test_run(pipe_test *t, int nWorker, char *zErr, size_t nErr) {
  pipe_test_worker aWorker[16];
  void *apWorker[16];
  pipe_job job;
  for (int i = 0; i < nWorker; i++) apWorker[i] = &aWorker[i];
  job = (pipe_job){PIPE_TEST_CHUNKS, nWorker, apWorker, t, pipe_test_produce,
                   pipe_test_consume, NULL};
  return pipe_run(&job, zErr, nErr);
}

TEST_IMPL(pipeline_order) {
  static pipe_test t;
  char zErr[128];
  for (int nWorker = 1; nWorker <= 16; nWorker *= 2) {
    memset(&t, 0, sizeof(t));
    t.iFailProduce = t.iFailConsume = -1;
    ASSERT_EQ(pipe_test_run(&t, nWorker, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(t.nConsumed, PIPE_TEST_CHUNKS);
    ASSERT_EQ(t.nProduced, PIPE_TEST_CHUNKS);
    for (int64_t i = 0; i < PIPE_TEST_CHUNKS; i++) ASSERT_EQ(t.aOrder[i], i);
  }
  return 0;
}

TEST_IMPL(pipeline_errors) {
  static pipe_test t;
  char zErr[128];
  for (int iRound = 0; iRound < 20; iRound++) {
    int nWorker = 1 + iRound % 8;
    int64_t iFail = 37 * iRound + 3;

    /* Production fails at iFail and at iFail + 5: the lower is reported,
    ** and nothing at or after it is consumed. */
    memset(&t, 0, sizeof(t));
    t.iFailProduce = iFail;
    t.iFailConsume = -1;
    ASSERT_EQ(pipe_test_run(&t, nWorker, zErr, sizeof(zErr)), -1);
    {
      char zWant[64];
      snprintf(zWant, sizeof(zWant), "produce %lld failed", (long long)iFail);
      ASSERT_STR_EQ(zErr, zWant);
    }
    ASSERT(t.nConsumed <= iFail);
    for (int64_t i = 0; i < t.nConsumed; i++) ASSERT_EQ(t.aOrder[i], i);

    /* Consumption fails: everything before it was consumed, nothing after. */
    memset(&t, 0, sizeof(t));
    t.iFailProduce = -1;
    t.iFailConsume = iFail;
    ASSERT_EQ(pipe_test_run(&t, nWorker, zErr, sizeof(zErr)), -1);
    ASSERT(strstr(zErr, "consume") != NULL);
    ASSERT_EQ(t.nConsumed, iFail);
  }
  return 0;
}
