/*
** server/pool.h — the executor threads: a fixed pool of threads taking
** tasks from one queue, with each finished task handed back to the libuv
** loop's thread through a uv_async_t. It is how the loop never blocks on
** planning, compiling or kernels: as many tasks run at once as there are
** threads (--queries-in-flight), the rest wait in the queue.
**
** The queue is fair to short statements: a task is due at its arrival
** plus its expected cost (pool_task.rCost, stmt-cost.h), and the task due
** first runs first. A short statement so passes a long one that arrived
** less than the difference of their costs before it, and no task waits
** forever: a newcomer is never due before its own arrival. With equal
** costs (or none given) it is first come, first served.
**
** Lifetimes: a task belongs to its submitter, who must keep it alive
** until its xDone has run on the loop. pool_stop() lets the running tasks
** finish, drops none of the queued ones (they run too), joins the threads
** and delivers the last completions before it returns.
**
** INTERFACE ROUTINES
**   pool_start     threads and the async handle on a loop
**   pool_submit    queue a task (loop thread)
**   pool_counts    running and queued, for /status and metrics
**   pool_stop      finish every task, join, close the handle
*/
#ifndef STARQ_POOL_H
#define STARQ_POOL_H

#include <uv.h>

typedef struct pool pool;
typedef struct pool_task pool_task;

/* Runs on an executor thread. */
typedef void (*pool_run_fn)(pool_task *t);
/* Runs on the loop thread once xRun has returned. */
typedef void (*pool_done_fn)(pool_task *t);

/* One unit of work; embed it in the submitter's struct. */
struct pool_task {
  pool_run_fn xRun;
  pool_done_fn xDone;
  double rCost;            /* in: expected seconds of xRun (0: none known) */
  double rRan;             /* out: seconds xRun took */
  double rDue;             /* private: arrival + rCost, the queue's order */
  pool_task *pNext;        /* private: the queue's and the done list's link */
};

/* Starts nThread threads and an async handle on pLoop. Returns 0, or a
** negative libuv error with zErr. */
int pool_start(pool **pp, uv_loop_t *pLoop, int nThread, char *zErr, size_t nErr);

/* Queues t; it runs on a thread as soon as one is free. Loop thread. */
void pool_submit(pool *p, pool_task *t);

/* Sets the tasks running on a thread now and waiting in the queue. */
void pool_counts(pool *p, int *pnRunning, int *pnQueued);

/* Runs what is queued, joins the threads, runs the last xDone callbacks
** and closes the async handle (freeing the pool in its close callback).
** Loop thread; the loop must go on running for the close to finish. */
void pool_stop(pool *p);

#endif /* STARQ_POOL_H */
