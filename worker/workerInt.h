/*
** worker/workerInt.h — what the files of worker/ share: the worker
** process's entry point (serve.c), the supervisor's struct (supervise.c,
** request.c) and its process helpers (spawn.c).
*/
#ifndef STARQ_WORKER_INT_H
#define STARQ_WORKER_INT_H

#include <pthread.h>
#include <sys/types.h>

#include "../catalog/catalog.h"
#include "../parser/parser.h"
#include "wire.h"
#include "worker.h"

/* ---- the worker process (serve.c) ------------------------------------ */

/* What bin/starq-worker was told on its command line (main.c). */
typedef struct worker_serve_config worker_serve_config;
struct worker_serve_config {
  int fd;                  /* the socket to the supervisor */
  const char *zDataDir;
  const char *zBackend;    /* "cpu", "cuda" or "auto" */
  colmem_options mem;
  stride_options stride;
  int bPreload;
  int bWarm;               /* the device cache's warm-up once ready */
  int nQuery;              /* executor threads */
  int nCpuThread;
  const char *zCacheDir;   /* NULL: the backends' defaults */
  int64_t nBandwidthProbe; /* bytes to measure the floors over (0: not) */
  int nSpinMicros;         /* the reader spins while queries run and this
                           ** long after an answer (0: never; serve.c) */
};

/* Serves the supervisor on p->fd until it closes the socket, the GPU is
** lost, or a frame does not decode. Returns the process's exit status
** (WORKER_EXIT_*). */
int worker__serve(const worker_serve_config *p);

/* ---- the supervisor (supervise.c, request.c, spawn.c) ------------------------ */

/* Where the supervisor is with its worker. */
typedef enum worker_state {
  WORKER_STARTING = 0,     /* spawned; its HELLO not read yet */
  WORKER_READY,            /* taking queries */
  WORKER_DRAINING,         /* said WIRE_LOST, or being stopped: no new queries */
  WORKER_DOWN,             /* none running: between one and the next */
  WORKER_STOPPED           /* worker_stop() was called */
} worker_state;

/* A query waiting for its answer: on the stack of the thread in
** worker_query(), in w->pReq from before its frame is sent until the
** supervisor thread takes it to answer it. */
typedef struct worker_batch worker_batch;
struct worker_batch {
  exec_result *pRes;       /* owned */
  worker_batch *pNext;
};

typedef struct worker_req worker_req;
struct worker_req {
  uint64_t iId;
  const exec_options *pOpt;  /* the caller's; its pbCancel is watched */
  exec_result *pRes;       /* the caller's */
  sql_error *pErr;         /* the caller's */
  int rc;                  /* the outcome, once bDone */
  int bDone;               /* answered: the caller may return */
  pthread_cond_t cv;       /* signalled when bDone is set, or a batch came */
  worker_batch *pBatch;    /* a streamed query's (pOpt->pSink) batches read
                           ** and not handed to the sink yet (w->mu) */
  worker_batch **ppBatchTail;
  worker_req *pNext;
};

struct worker {
  /* Fixed at worker_start(); strings owned. */
  worker_config cfg;
  char *zProgram, *zDataDir, *zBackend, *zCacheDir;
  int eLogLevel;           /* the server's log level, passed on */
  pthread_t thread;        /* the supervisor thread */

  /* Lock order: muSend before mu. */
  pthread_mutex_t muSend;  /* one frame at a time onto fd; held to close it */
  pthread_mutex_t mu;      /* everything below */
  pthread_cond_t cvState;  /* eState, bThreadDone or bStop changed */
  pthread_cond_t cvRole;   /* the reader's role was given up (bSupWait) */
  worker_state eState;
  int fd;                  /* the supervisor's end of the socket; -1: none */
  pid_t pid;               /* the worker; 0 once reaped */
  int bReaping;            /* pid is being reaped: no one else may kill it */
  int bReading;            /* a thread holds the reader's role: only it reads fd */
  int bEnded;              /* fd's stream ended (or went bad): nobody reads it again */
  int bSupWait;            /* the supervisor waits for the role, to drain fd */
  int bLostSeen;           /* this worker said WIRE_LOST */
  char zBad[700];          /* what this worker sent that does not belong, or "" */
  int bStop;               /* worker_stop() began */
  int bThreadStarted;      /* thread was created */
  int bThreadDone;         /* the supervisor thread is about to return */
  int nCaller;             /* threads inside worker_query() */
  uint64_t iNextId;
  worker_req *pReq;        /* queries sent (or being sent), not answered */
  char zLost[WIRE_TEXT_MAX + 1];  /* the worker's WIRE_LOST, "" */
  char zDown[512];         /* why queries fail at once while starts fail */
  worker_stats stats;      /* what worker_stats_get() copies (bReady, iPid
                           ** and nInFlight are computed there) */
};

/* Answers the query a WIRE_ANSWER frame is for. Returns 0, or -1 with
** zErr when the frame is not an answer to a query in flight (the worker
** is then broken: the caller ends it). */
int worker__req_answer(worker *w, const wire_frame *f, char *zErr, size_t nErr);

/* Queues the batch of a WIRE_BATCH frame for its query. Returns 0, or -1
** with zErr when the frame is no batch of a streamed query in flight. */
int worker__req_batch(worker *w, const wire_frame *f, char *zErr, size_t nErr);

/* Reads one frame from fd and handles it: an answer to its query, LOST,
** STATS. The caller holds the reader's role (w->bReading), not mu.
** Returns 1; 0 when the stream ended, -1 when the frame does not belong
** (the worker is killed, zBad says why): both set bEnded. */
int worker__frame_read(worker *w, int fd);

/* Reads the frames already in the socket (mu held; given up while it
** reads), if no one holds the reader's role: what /status shows is then
** as fresh as the last STATS the worker sent. */
void worker__drain(worker *w);

/* Gives up the reader's role (mu held): to the supervisor when it waits
** for it, else to a waiting query other than q (NULL: any). */
void worker__role_pass(worker *w, const worker_req *q);

/* Fails every query in flight with XX000 zMsg. */
void worker__req_fail_all(worker *w, const char *zMsg);

/* Spawns the program of w's configuration on one end of a new
** socketpair. Returns 0 with *pFd (the supervisor's end, close-on-exec)
** and *pPid, or -1 with zErr. */
int worker__spawn(const worker *w, int *pFd, pid_t *pPid, char *zErr, size_t nErr);

/* Waits for process pid to exit: up to rSeconds, then kills it (SIGKILL)
** and waits for that. Returns its wait status. */
int worker__reap(pid_t pid, double rSeconds);

/* Describes wait status st into z: "exit status 1", "killed by signal 9
** (Killed)". Returns z. */
char *worker__exit_text(int st, char *z, size_t n);

#endif /* STARQ_WORKER_INT_H */
