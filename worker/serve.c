/*
** worker/serve.c — the device worker's side of the socket: open the
** catalog and the backend, say HELLO, then run the supervisor's queries on
** a fixed pool of executor threads and send each answer back under its id.
**
** Threads: the main thread reads frames, queues QUERY requests and marks
** the ones a CANCEL names (the executor's exec_select sees the flag before
** its next kernel); nQuery
** executor threads take them in order, each with a catalog handle of its
** own (a cat is one thread's), all on the one backend. Answers are sent
** whole, one frame at a time (muSend), in the order queries finish, each
** followed by a STATS frame: what the device and the column cache hold
** after it, for the server's /status.
**
** The GPU lost. When a query fails and exec_backend_lost() says the
** context could not be rebuilt in this process (exec_select tried), the
** executor that saw it sends WIRE_LOST before its own answer, and from then
** on nothing runs: every query queued or arriving is answered with XX000
** "the GPU faulted and the device worker restarts: ...", a query still
** running elsewhere is answered with the same error if it fails. When the
** last running query is answered, the socket's read side is shut down,
** which wakes the main thread as an end of stream; it joins the
** executors, closes the backend and returns WORKER_EXIT_GPU_LOST.
**
** The supervisor gone (end of stream): queued queries are answered
** "the device worker is stopping" (nobody may be reading), running ones
** finish, and the process exits 0. A frame that does not decode ends the
** process the same way, with WORKER_EXIT_PROTOCOL.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../common/log.h"
#include "workerInt.h"

/* A query waiting for an executor, then running on one. */
typedef struct serve_req serve_req;
struct serve_req {
  uint64_t iId;
  exec_options opt;        /* opt.pbCancel points at bCancel */
  _Atomic int bCancel;     /* WIRE_CANCEL came for it */
  char *zSql;              /* owned */
  serve_req *pNext;        /* in the queue, then in the running list */
};

typedef struct serve serve;
struct serve {
  const worker_serve_config *pCfg;
  int fd;
  exec_backend be;
  char zCpuCache[4096], zCudaCache[4096];  /* the backends point at these */
  cat **apCat;             /* one per executor */
  pthread_t *aThread;
  int nThread;             /* started */
  pthread_mutex_t muSend;  /* one frame at a time onto fd */
  pthread_mutex_t mu;      /* the queue and the flags below */
  pthread_cond_t cv;
  serve_req *pHead;
  serve_req **ppTail;
  serve_req *pRun;         /* queries the executors are running */
  exec_bandwidth bw;       /* measured at start (0: not measured) */
  int nRunning;            /* queries an executor took and has not answered */
  int bEof;                /* the supervisor's end is closed: take nothing more */
  int bLost;               /* the GPU is lost: run nothing more */
  int bShut;               /* the read side was shut down, to end the main loop */
  char zLost[sizeof(((sql_error *)0)->zMsg)];  /* the error lost queries get */
};

/* An executor's start argument. */
typedef struct serve_thread serve_thread;
struct serve_thread {
  serve *s;
  cat *pCat;
};

/* ---- sending ---------------------------------------------------------------- */

/* Sends one built frame; a supervisor gone is only logged (the main
** thread sees the end of stream and stops). Frees b. */
static void serve_send(serve *s, wire_buf *b) {
  char zErr[256];
  int rc;
  pthread_mutex_lock(&s->muSend);
  rc = wire_frame_send(s->fd, b, zErr, sizeof(zErr));
  pthread_mutex_unlock(&s->muSend);
  if (rc != 0) log_printf(LOG_LEVEL_WARN, "worker: an answer could not be sent: %s", zErr);
  wire_buf_free(b);
}

/* Answers query iId: the result, or the error. A result that cannot be
** encoded is answered with an XX000 that says why. */
static void serve_answer(serve *s, uint64_t iId, int rc, const exec_result *pRes,
                         const sql_error *pErr) {
  wire_buf b;
  char zErr[512];
  wire_buf_init(&b, WIRE_ANSWER);
  if (wire_answer_encode(&b, iId, rc, pRes, pErr, zErr, sizeof(zErr)) != 0) {
    sql_error e;
    sql_error_clear(&e);
    sql_error_set(&e, SQLSTATE_INTERNAL_ERROR, -1, "the result could not be sent: %s", zErr);
    wire_buf_free(&b);
    wire_buf_init(&b, WIRE_ANSWER);
    wire_answer_encode(&b, iId, -1, NULL, &e, zErr, sizeof(zErr));
  }
  serve_send(s, &b);
}

static void serve_answer_error(serve *s, uint64_t iId, const char *zMsg) {
  sql_error e;
  sql_error_clear(&e);
  sql_error_set(&e, SQLSTATE_INTERNAL_ERROR, -1, "%s", zMsg);
  serve_answer(s, iId, -1, NULL, &e);
}

/* Tells the supervisor what the device and the column cache hold now. */
static void serve_stats_send(serve *s) {
  worker_device d;
  wire_buf b;
  memset(&d, 0, sizeof(d));
  d.bw = s->bw;
  if (s->be.eKind == EXEC_BACKEND_CUDA) {
    uint64_t nFree = 0, nTotal = 0;
    char zErr[256];
    snprintf(d.zDevice, sizeof(d.zDevice), "%s", cuda_device_info_get(s->be.pCuda)->zName);
    if (cuda_mem_info(s->be.pCuda, &nFree, &nTotal, zErr, sizeof(zErr)) == 0) {
      d.nMemTotal = (int64_t)nTotal;
      d.nMemUsed = (int64_t)(nTotal - nFree);
    }
  }
  if (s->be.pMem != NULL) {
    colmem_stats st;
    colmem_stats_get(s->be.pMem, &st);
    d.nPinned = (int64_t)st.nPinned;
    d.nResident = (int64_t)st.nResident;
    d.nTable = colmem_tables_get(s->be.pMem, d.aTable, WORKER_TABLE_MAX);
  }
  wire_buf_init(&b, WIRE_STATS);
  wire_stats_encode(&b, &d);
  serve_send(s, &b);
}

/* ---- the GPU lost ------------------------------------------------------------ */

/* Called by the executor whose query failed on a lost backend: the first
** one marks the worker lost and tells the supervisor. WIRE_LOST is sent
** under the lock that publishes bLost, so every answer that says the GPU
** was lost follows it on the socket: by the time a client reads one, the
** supervisor already sends new queries to no one but the next worker. */
static void serve_lost(serve *s, const sql_error *pErr) {
  pthread_mutex_lock(&s->mu);
  if (!s->bLost) {
    wire_buf b;
    log_printf(LOG_LEVEL_ERROR, "worker: the GPU is lost to this process; exiting so that the "
               "supervisor starts another: %s", pErr->zMsg);
    snprintf(s->zLost, sizeof(s->zLost),
             "the GPU faulted and cannot be used again in this process; the device worker "
             "restarts (%s)", pErr->zMsg);
    wire_buf_init(&b, WIRE_LOST);
    wire_lost_encode(&b, pErr->zMsg);
    serve_send(s, &b);
    s->bLost = 1;
    pthread_cond_broadcast(&s->cv);
  }
  pthread_mutex_unlock(&s->mu);
}

/* Returns the error that queries get instead of running, or NULL while
** they run. zLost never changes once bLost is set. Called with mu held. */
static const char *serve_refusal(const serve *s) {
  if (s->bLost) return s->zLost;
  return s->bEof ? "the device worker is stopping" : NULL;
}

/* ---- the executors ------------------------------------------------------------- */

/* Runs one query and answers it; zRefuse: answers that error instead. */
static void serve_run(serve *s, cat *pCat, serve_req *q, const char *zRefuse) {
  exec_result r;
  sql_error e;
  int rc;
  if (zRefuse != NULL) {
    serve_answer_error(s, q->iId, zRefuse);
    return;
  }
  rc = worker__sql_run(pCat, &s->be, q->zSql, &q->opt, &r, &e);
  if (rc != 0 && exec_backend_lost(&s->be)) serve_lost(s, &e);
  if (rc != 0) {
    /* A query that failed once the GPU was lost failed because of it. */
    pthread_mutex_lock(&s->mu);
    if (s->bLost) {
      sql_error_clear(&e);
      sql_error_set(&e, SQLSTATE_INTERNAL_ERROR, -1, "%s", s->zLost);
    }
    pthread_mutex_unlock(&s->mu);
  }
  serve_answer(s, q->iId, rc, &r, &e);
  exec_result_free(&r);
  serve_stats_send(s);
}

static void *serve_thread_main(void *pArg) {
  serve_thread *t = pArg;
  serve *s = t->s;
  for (;;) {
    serve_req *q;
    const char *zRefuse;
    pthread_mutex_lock(&s->mu);
    while (s->pHead == NULL && !s->bEof && !s->bLost) pthread_cond_wait(&s->cv, &s->mu);
    if ((q = s->pHead) == NULL) {
      pthread_mutex_unlock(&s->mu);
      break;
    }
    if ((s->pHead = q->pNext) == NULL) s->ppTail = &s->pHead;
    zRefuse = serve_refusal(s);
    s->nRunning++;
    q->pNext = s->pRun;
    s->pRun = q;
    pthread_mutex_unlock(&s->mu);

    serve_run(s, t->pCat, q, zRefuse);

    pthread_mutex_lock(&s->mu);
    for (serve_req **pp = &s->pRun; *pp != NULL; pp = &(*pp)->pNext) {
      if (*pp == q) {
        *pp = q->pNext;
        break;
      }
    }
    free(q->zSql);
    free(q);
    s->nRunning--;
    /* The last query of a lost worker answered: end the main loop. */
    if (s->bLost && s->nRunning == 0 && s->pHead == NULL && !s->bShut) {
      s->bShut = 1;
      if (shutdown(s->fd, SHUT_RD) != 0) {
        log_printf(LOG_LEVEL_ERROR, "worker: shutdown(SHUT_RD): %s", strerror(errno));
      }
    }
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
  }
  free(t);
  return NULL;
}

/* ---- start and end --------------------------------------------------------------- */

/* Opens the backend the configuration names; "auto" falls back to the CPU
** when the GPU does not open. Returns 0, or -1 with zErr. */
static int serve_backend_open(serve *s, char *zErr, size_t nErr) {
  const worker_serve_config *p = s->pCfg;
  cpu_options po = {NULL, NULL};
  cuda_options co = {NULL, NULL, NULL, 0, 0, NULL};
  const char *zWant = p->zBackend != NULL ? p->zBackend : "auto";
  if (p->zCacheDir != NULL) {
    snprintf(s->zCpuCache, sizeof(s->zCpuCache), "%s/cpu", p->zCacheDir);
    snprintf(s->zCudaCache, sizeof(s->zCudaCache), "%s/cuda", p->zCacheDir);
    po.zCacheDir = s->zCpuCache;
    co.zCacheDir = s->zCudaCache;
  }
  if (strcmp(zWant, "cpu") != 0) {
    if (exec_backend_cuda(&s->be, &co, zErr, nErr) == 0) return 0;
    if (strcmp(zWant, "cuda") == 0) return -1;
    log_printf(LOG_LEVEL_WARN, "worker: no GPU, running on the CPU: %s", zErr);
  }
  return exec_backend_cpu(&s->be, p->nCpuThread, &po, zErr, nErr);
}

/* Measures the bandwidth floors, if asked; a failure leaves them unknown
** (0) and is logged: the floors are for reports, queries run without. */
static void serve_bandwidth(serve *s) {
  char zErr[1024];
  if (s->pCfg->nBandwidthProbe <= 0 || s->be.eKind != EXEC_BACKEND_CUDA) return;
  if (exec_backend_bandwidth(&s->be, (uint64_t)s->pCfg->nBandwidthProbe, &s->bw, zErr,
                             sizeof(zErr)) != 0) {
    log_printf(LOG_LEVEL_WARN, "worker: the bandwidth floors could not be measured: %s", zErr);
    return;
  }
  log_printf(LOG_LEVEL_INFO, "worker: measured zero-copy %.1f GB/s, device memory %.1f GB/s",
             s->bw.rZeroCopy / 1e9, s->bw.rDevice / 1e9);
}

/* Opens everything a query needs and starts the executors. Returns 0 with
** *pnPreloaded, or -1 with zErr. */
static int serve_open(serve *s, int64_t *pnPreloaded, char *zErr, size_t nErr) {
  const worker_serve_config *p = s->pCfg;
  *pnPreloaded = -1;
  if ((s->apCat = calloc((size_t)p->nQuery, sizeof(cat *))) == NULL ||
      (s->aThread = calloc((size_t)p->nQuery, sizeof(pthread_t))) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  for (int i = 0; i < p->nQuery; i++) {
    if (cat_open(&s->apCat[i], p->zDataDir, zErr, nErr) != 0) return -1;
  }
  if (serve_backend_open(s, zErr, nErr) != 0 ||
      exec_backend_configure(&s->be, &p->mem, &p->stride, zErr, nErr) != 0) {
    return -1;
  }
  if (p->bPreload && (*pnPreloaded = exec_backend_preload(&s->be, s->apCat[0], 1, zErr, nErr)) < 0) {
    return -1;
  }
  serve_bandwidth(s);
  for (int i = 0; i < p->nQuery; i++) {
    serve_thread *t = malloc(sizeof(*t));
    int rc;
    if (t == NULL) {
      snprintf(zErr, nErr, "out of memory");
      return -1;
    }
    t->s = s;
    t->pCat = s->apCat[i];
    if ((rc = pthread_create(&s->aThread[i], NULL, serve_thread_main, t)) != 0) {
      free(t);
      snprintf(zErr, nErr, "pthread_create: %s", strerror(rc));
      return -1;
    }
    s->nThread++;
  }
  return 0;
}

/* Stops the executors (they finish what they run) and frees everything. */
static void serve_close(serve *s) {
  pthread_mutex_lock(&s->mu);
  s->bEof = 1;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  for (int i = 0; i < s->nThread; i++) {
    void *pArg = NULL;
    pthread_join(s->aThread[i], &pArg);
  }
  while (s->pHead != NULL) {
    serve_req *q = s->pHead;
    s->pHead = q->pNext;
    free(q->zSql);
    free(q);
  }
  exec_backend_close(&s->be);
  for (int i = 0; s->apCat != NULL && i < s->pCfg->nQuery; i++) cat_close(s->apCat[i]);
  free(s->apCat);
  free(s->aThread);
  pthread_cond_destroy(&s->cv);
  pthread_mutex_destroy(&s->mu);
  pthread_mutex_destroy(&s->muSend);
}

static void serve_hello(serve *s, int bOk, const char *zText, int64_t nPreloaded) {
  wire_hello h;
  wire_buf b;
  memset(&h, 0, sizeof(h));
  h.iVersion = WIRE_VERSION;
  h.iPid = (uint32_t)getpid();
  h.bOk = bOk;
  h.nPreloaded = nPreloaded;
  snprintf(h.zText, sizeof(h.zText), "%s", zText);
  wire_buf_init(&b, WIRE_HELLO);
  wire_hello_encode(&b, &h);
  serve_send(s, &b);
}

/* Marks the query of a CANCEL frame, queued or running; one already
** answered is not there, and nothing happens. Returns 0, or -1 with zErr
** when the frame does not decode. */
static int serve_cancel(serve *s, const wire_frame *f, char *zErr, size_t nErr) {
  uint64_t iId;
  if (wire_cancel_decode(f->a, f->n, &iId, zErr, nErr) != 0) return -1;
  pthread_mutex_lock(&s->mu);
  for (int k = 0; k < 2; k++) {
    for (serve_req *q = k == 0 ? s->pHead : s->pRun; q != NULL; q = q->pNext) {
      if (q->iId == iId) q->bCancel = 1;
    }
  }
  pthread_mutex_unlock(&s->mu);
  return 0;
}

/* Queues one QUERY frame, or — lost — answers it at once. Returns 0, or
** -1 with zErr when the frame does not decode. */
static int serve_enqueue(serve *s, const wire_frame *f, char *zErr, size_t nErr) {
  serve_req *q;
  const char *zRefuse;
  if (f->eType == WIRE_CANCEL) return serve_cancel(s, f, zErr, nErr);
  if (f->eType != WIRE_QUERY) {
    snprintf(zErr, nErr, "a frame of type %d, where QUERY or CANCEL was expected", (int)f->eType);
    return -1;
  }
  if ((q = calloc(1, sizeof(*q))) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  if (wire_query_decode(f->a, f->n, &q->iId, &q->opt, &q->zSql, zErr, nErr) != 0) {
    free(q);
    return -1;
  }
  q->opt.pbCancel = &q->bCancel;
  pthread_mutex_lock(&s->mu);
  zRefuse = serve_refusal(s);
  if (zRefuse == NULL) {
    *s->ppTail = q;
    s->ppTail = &q->pNext;
    pthread_cond_signal(&s->cv);
    q = NULL;
  }
  pthread_mutex_unlock(&s->mu);
  if (q != NULL) {
    serve_answer_error(s, q->iId, zRefuse);
    free(q->zSql);
    free(q);
  }
  return 0;
}

int worker__serve(const worker_serve_config *p) {
  serve s;
  char zErr[1024];
  int64_t nPreloaded;
  int rc, eExit = WORKER_EXIT_OK;
  memset(&s, 0, sizeof(s));
  s.pCfg = p;
  s.fd = p->fd;
  s.ppTail = &s.pHead;
  pthread_mutex_init(&s.muSend, NULL);
  pthread_mutex_init(&s.mu, NULL);
  pthread_cond_init(&s.cv, NULL);
  if (serve_open(&s, &nPreloaded, zErr, sizeof(zErr)) != 0) {
    log_printf(LOG_LEVEL_ERROR, "worker: cannot start: %s", zErr);
    serve_hello(&s, 0, zErr, -1);
    serve_close(&s);
    return WORKER_EXIT_START;
  }
  {
    strbuf d;
    strbuf_init(&d);
    exec_backend_describe(&s.be, &d);
    log_printf(LOG_LEVEL_INFO, "worker: ready, %d queries at once on %s", p->nQuery, strbuf_str(&d));
    serve_hello(&s, 1, strbuf_str(&d), nPreloaded);
    strbuf_free(&d);
    serve_stats_send(&s);
  }
  for (;;) {
    wire_frame f;
    rc = wire_frame_recv(s.fd, &f, zErr, sizeof(zErr));
    if (rc == 0) break;
    if (rc > 0) rc = serve_enqueue(&s, &f, zErr, sizeof(zErr));
    wire_frame_free(&f);
    if (rc < 0) {
      log_printf(LOG_LEVEL_ERROR, "worker: a bad frame from the supervisor: %s", zErr);
      eExit = WORKER_EXIT_PROTOCOL;
      break;
    }
  }
  serve_close(&s);
  return s.bLost ? WORKER_EXIT_GPU_LOST : eExit;
}
