/*
** tests/test-pool.c — server/pool.c's queue order and server/stmt-cost.c's
** guesses: with one executor thread held busy, queued tasks run in the
** order they are due (arrival + expected cost), so short statements pass a
** long one, ties and tasks without a cost stay first come first served, a
** long task is not passed for ever; and the cost memo's means.
*/
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "../server/pool.h"
#include "../server/stmt-cost.h"
#include "test.h"

typedef struct pooltest pooltest;
typedef struct pooltest_task pooltest_task;

struct pooltest_task {
  pool_task task;          /* first */
  pooltest *pT;
  char cName;
  int bBlocker;            /* waits until the test lets it go */
};

struct pooltest {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int bRelease, bBlocked;
  char zOrder[16];
  int nOrder, nDone;
};

static void pooltest_run(pool_task *t) {
  pooltest_task *k = (pooltest_task *)t;
  pooltest *p = k->pT;
  pthread_mutex_lock(&p->mu);
  if (k->bBlocker) {
    p->bBlocked = 1;
    pthread_cond_broadcast(&p->cv);
    while (!p->bRelease) pthread_cond_wait(&p->cv, &p->mu);
  } else {
    p->zOrder[p->nOrder++] = k->cName;
  }
  pthread_mutex_unlock(&p->mu);
}

static void pooltest_done(pool_task *t) { ((pooltest_task *)t)->pT->nDone++; }

/* Holds the pool's one thread, queues aTask (submitting each after
** its msBefore), lets the thread go and returns the order they ran in. */
static void pooltest_order(pool *pPool, uv_loop_t *pLoop, pooltest *p, pooltest_task *a, int n,
                           const int *aMsBefore, char *zOut) {
  pooltest_task blocker = {.task = {.xRun = pooltest_run, .xDone = pooltest_done}, .pT = p,
                           .bBlocker = 1};
  p->bRelease = p->bBlocked = 0;
  p->nOrder = p->nDone = 0;
  pool_submit(pPool, &blocker.task);
  pthread_mutex_lock(&p->mu);
  while (!p->bBlocked) pthread_cond_wait(&p->cv, &p->mu);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < n; i++) {
    if (aMsBefore[i] > 0) usleep((useconds_t)aMsBefore[i] * 1000);
    a[i].task.xRun = pooltest_run;
    a[i].task.xDone = pooltest_done;
    a[i].pT = p;
    pool_submit(pPool, &a[i].task);
  }
  pthread_mutex_lock(&p->mu);
  p->bRelease = 1;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  while (p->nDone < n + 1) uv_run(pLoop, UV_RUN_ONCE);
  memcpy(zOut, p->zOrder, (size_t)p->nOrder);
  zOut[p->nOrder] = 0;
}

TEST_IMPL(pool_fair_order) {
  uv_loop_t loop;
  pool *pPool;
  pooltest t;
  char zErr[256], zOrder[16];
  memset(&t, 0, sizeof(t));
  pthread_mutex_init(&t.mu, NULL);
  pthread_cond_init(&t.cv, NULL);
  ASSERT_EQ(uv_loop_init(&loop), 0);
  if (pool_start(&pPool, &loop, 1, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  {
    /* A long statement first, then two short ones: they pass it. */
    pooltest_task a[3] = {{.cName = 'L', .task.rCost = 30}, {.cName = 'a', .task.rCost = 0.001},
                          {.cName = 'b', .task.rCost = 0.001}};
    int aMs[3] = {0, 0, 0};
    pooltest_order(pPool, &loop, &t, a, 3, aMs, zOrder);
    ASSERT_STR_EQ(zOrder, "abL");
    ASSERT(a[0].task.rRan >= 0 && a[1].task.rRan >= 0);
  }
  {
    /* No costs: first come, first served. */
    pooltest_task a[4] = {{.cName = 'w'}, {.cName = 'x'}, {.cName = 'y'}, {.cName = 'z'}};
    int aMs[4] = {0, 0, 0, 0};
    pooltest_order(pPool, &loop, &t, a, 4, aMs, zOrder);
    ASSERT_STR_EQ(zOrder, "wxyz");
  }
  {
    /* A task due before a newcomer's arrival is not passed by it, however
    ** short the newcomer: nothing waits for ever. */
    pooltest_task a[2] = {{.cName = 'M', .task.rCost = 0.02}, {.cName = 's', .task.rCost = 0}};
    int aMs[2] = {0, 200};
    pooltest_order(pPool, &loop, &t, a, 2, aMs, zOrder);
    ASSERT_STR_EQ(zOrder, "Ms");
  }
  pool_stop(pPool);
  uv_run(&loop, UV_RUN_DEFAULT);
  ASSERT_EQ(uv_loop_close(&loop), 0);
  pthread_mutex_destroy(&t.mu);
  pthread_cond_destroy(&t.cv);
  return 0;
}

TEST_IMPL(stmt_cost_means) {
  stmt_cost *p = stmt_cost_new(64), *q = stmt_cost_new(1);
  ASSERT(p != NULL && q != NULL);
  ASSERT(stmt_cost_guess(p, "select 1") == 0);           /* nothing known */
  stmt_cost_learn(p, "select 1", 2.0);
  ASSERT(stmt_cost_guess(p, "select 1") == 2.0);
  stmt_cost_learn(p, "select 1", 4.0);
  ASSERT(stmt_cost_guess(p, "select 1") == 3.0);         /* a weighted mean */
  ASSERT(stmt_cost_guess(p, "select 2") == 3.0);         /* unknown: the mean of all */
  stmt_cost_learn(p, "select 2", -1.0);                  /* clamped */
  ASSERT(stmt_cost_guess(p, "select 2") == 0);
  /* One slot: a new text takes it; the old one is guessed at the mean. */
  stmt_cost_learn(q, "a", 8.0);
  stmt_cost_learn(q, "b", 2.0);
  ASSERT(stmt_cost_guess(q, "b") == 2.0);
  ASSERT(stmt_cost_guess(q, "a") == 5.0);
  ASSERT(stmt_cost_new(0) == NULL);
  stmt_cost_free(p);
  stmt_cost_free(q);
  stmt_cost_free(NULL);
  return 0;
}
