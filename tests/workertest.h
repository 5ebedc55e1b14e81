/*
** tests/workertest.h — what the device worker's tests share: the backend
** the suite runs on, a worker started on ./data with the ASan build of
** starq-worker, and waiting for what its supervisor says.
*/
#ifndef STARQ_TEST_WORKERTEST_H
#define STARQ_TEST_WORKERTEST_H

#include "../worker/worker.h"

/* Set: workertest_start() preloads the columns. */
extern int workertest_bPreload;

/* worker_config.nSpinMicros of workertest_start() (-1, the default: the
** machine's default). */
extern int workertest_nSpin;

/* The backend the suite runs on: STARQ_TEST_BACKEND (bench/device.sh
** gpu-tests sets cuda), else the CPU. */
const char *workertest_backend(void);

/* Starts a worker on ./data with backend zBackend, nQuery queries at once;
** fails the test if it does not start. */
worker *workertest_start(const char *zBackend, int nQuery);

/* Starts a worker on the mock GPU (tests/mock/cuda-mock.c) that streams
** every fact column through stride buffers of 20 KB, each kernel launch
** taking msLaunch ms: a scan of many launches, long unless cancelled
** between them. */
worker *workertest_start_streamed(int nQuery, int msLaunch);

void workertest_sleep_ms(int n);

/* Runs zSql, a SELECT, on worker w with options pOpt (NULL: defaults), as
** the daemon sends one (worker_query). Returns 0, or -1 with *pErr. */
int workertest_query(worker *w, const char *zSql, const exec_options *pOpt, exec_result *pRes,
                     sql_error *pErr);

/* Waits up to rSeconds for xTest(stats) to hold; fails the test if it does not. */
worker_stats workertest_wait(worker *w, int (*xTest)(const worker_stats *), double rSeconds,
                             const char *zWhat);

#endif /* STARQ_TEST_WORKERTEST_H */
