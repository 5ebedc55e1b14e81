/*
** worker/serve.c — the device worker's side of the socket: open the
** catalog and the backend, say HELLO, then run the supervisor's queries on
** a fixed pool of threads and send each answer back under its id.
**
** Threads: nQuery + 1 (the main thread is one of them), at most nQuery
** running a query at once, so one is always free to read the socket. The
** reader is not a fixed thread but a role: whichever thread holds it
** reads one frame, and a QUERY it read it runs itself — no hand-over to
** another thread, whose wake-up would sit between the frame's arrival and
** its first kernel — after waking an idle thread to read next (a CANCEL
** or the next query must be read while this one runs). A query that
** arrives while nQuery run is queued, and the first runner to finish
** takes it. A CANCEL marks its query, queued or running (the run sees
** the flag before its next kernel). Statements run through the engine
** (engine/engine.h), which lends each a catalog handle and the statements
** prepared on it, all on the one backend. Answers are sent whole,
** one frame at a time (muSend), in the order queries finish, each
** followed by a STATS frame: what the device and the column cache hold
** after it, for the server's /status.
**
** Spinning (worker_serve_config.nSpinMicros): the reader polls the socket
** without sleeping while a query runs and for nSpinMicros after the last
** answer, and only then sleeps in poll(): a sleeping thread's wake-up
** costs tens of microseconds on a server whose idle cores are halted. An
** idle worker spins for nothing; 0 never spins.
**
** The GPU lost. When a query fails and exec_backend_lost() says the
** context could not be rebuilt in this process (exec_run tried), the
** executor that saw it sends WIRE_LOST before its own answer, and from then
** on nothing runs: every query queued or arriving is answered with XX000
** "the GPU faulted and the device worker restarts: ...", a query still
** running elsewhere is answered with the same error if it fails. When the
** last running query is answered, the socket's read side is shut down,
** which ends the reader's stream; the threads finish, the main thread
** joins them, closes the backend and returns WORKER_EXIT_GPU_LOST.
**
** The supervisor gone (end of stream): queued queries are answered
** "the device worker is stopping" (nobody may be reading), running ones
** are cancelled — they stop at their next kernel, stride, CPU block or
** compiler poll —, and the process exits 0. Should the server die without
** closing the socket first, the parent-death signal (main.c) ends the
** worker and its compilers at once. A frame that does not decode ends the
** process the same way, with WORKER_EXIT_PROTOCOL.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "workerInt.h"

typedef struct serve serve;

/* A query waiting for a runner, then running on one. */
typedef struct serve_req serve_req;
struct serve_req {
  wire_query q;            /* the statement; q.req.opt.pbCancel points at bCancel */
  _Atomic int bCancel;     /* WIRE_CANCEL came for it */
  serve_req *pNext;        /* in the queue, then in the running list */
  /* A streamed query (q.bStream): q.req.opt.pSink is &sink */
  exec_sink sink;
  serve *pServe;
  int nAhead;              /* BATCH frames sent and not credited (serve.mu) */
  pthread_cond_t cvCredit; /* a CREDIT, a CANCEL or the end came */
};

struct serve {
  const worker_serve_config *pCfg;
  int fd;
  engine *pEngine;         /* the catalog, the backend, prepared statements */
  pthread_t *aThread;      /* the threads besides the main one */
  int nThread;             /* started */
  pthread_mutex_t muSend;  /* one frame at a time onto fd */
  pthread_mutex_t mu;      /* everything below */
  pthread_cond_t cv;       /* work, the reader's role, or the end */
  serve_req *pHead;        /* queued: read, no runner yet */
  serve_req **ppTail;
  serve_req *pRun;         /* queries the runners are running */
  int nRunMax;             /* queries run at once: nQuery, fewer if threads failed */
  int nRunning;            /* queries a runner took and has not answered */
  int bReading;            /* a thread holds the reader's role */
  double tLastAnswer;      /* timer_now() once the last answer was sent */
  int bEof;                /* the supervisor's end is closed: take nothing more */
  int eExit;               /* WORKER_EXIT_PROTOCOL after a bad frame, else OK */
  int bLost;               /* the GPU is lost: run nothing more */
  int bShut;               /* the read side was shut down, to end the reader */
  char zLost[sizeof(((sql_error *)0)->zMsg)];  /* the error lost queries get */
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
  exec_backend *pB = engine_backend(s->pEngine);
  worker_device d;
  wire_buf b;
  memset(&d, 0, sizeof(d));
  d.bw = engine_bandwidth(s->pEngine);
  if (pB->eKind == EXEC_BACKEND_CUDA) {
    uint64_t nFree = 0, nTotal = 0;
    char zErr[256];
    snprintf(d.zDevice, sizeof(d.zDevice), "%s", cuda_device_info_get(pB->pCuda)->zName);
    if (cuda_mem_info(pB->pCuda, &nFree, &nTotal, zErr, sizeof(zErr)) == 0) {
      d.nMemTotal = (int64_t)nTotal;
      d.nMemUsed = (int64_t)(nTotal - nFree);
    }
  }
  if (pB->pMem != NULL) {
    colmem_stats st;
    colmem_stats_get(pB->pMem, &st);
    d.nPinned = (int64_t)st.nPinned;
    d.nResident = (int64_t)st.nResident;
    d.eWarm = st.eWarm;
    d.nWarmDone = (int64_t)st.nWarmDone;
    d.nWarmTotal = (int64_t)st.nWarmTotal;
    d.nTable = colmem_tables_get(pB->pMem, d.aTable, WORKER_TABLE_MAX);
  }
  wire_buf_init(&b, WIRE_STATS);
  wire_stats_encode(&b, &d);
  serve_send(s, &b);
}

/* The sink of a streamed query: sends the batch in a BATCH frame, then
** waits while WIRE_BATCH_WINDOW are not credited — the supervisor's
** backpressure, which holds the run between two chunks. */
static int serve_batch(void *pArg, exec_result *pBatch, sql_error *pErr) {
  serve_req *q = pArg;
  serve *s = q->pServe;
  wire_buf b;
  char zErr[512];
  int rc = 0;
  wire_buf_init(&b, WIRE_BATCH);
  if (wire_answer_encode(&b, q->q.iId, 0, pBatch, NULL, zErr, sizeof(zErr)) != 0 || b.bOom) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "rows could not be sent: %s",
                  b.bOom ? "out of memory" : zErr);
    wire_buf_free(&b);
    rc = -1;
  } else {
    serve_send(s, &b);
  }
  exec_result_free(pBatch);
  free(pBatch);
  if (rc != 0) return -1;
  pthread_mutex_lock(&s->mu);
  q->nAhead++;
  while (q->nAhead >= WIRE_BATCH_WINDOW && !q->bCancel && !s->bEof) {
    pthread_cond_wait(&q->cvCredit, &s->mu);
  }
  if (q->bCancel) {
    sql_error_set(pErr, "57014", -1, "canceling statement due to user request");
    rc = -1;
  } else if (q->nAhead >= WIRE_BATCH_WINDOW) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "the device worker is stopping");
    rc = -1;
  }
  pthread_mutex_unlock(&s->mu);
  return rc;
}

/* The warm-up is done (on its thread): the supervisor learns the device
** cache is warm now, not at the next answer. */
static void serve_warmed(void *pArg) {
  serve_stats_send(pArg);
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

/* ---- the threads ---------------------------------------------------------------- */

/* Runs one query and answers it; zRefuse: answers that error instead. */
static void serve_run(serve *s, serve_req *q, const char *zRefuse) {
  exec_result r;
  sql_error e;
  int rc;
  if (zRefuse != NULL) {
    serve_answer_error(s, q->q.iId, zRefuse);
    return;
  }
  if (q->q.bStream) {
    q->sink.xBatch = serve_batch;
    q->sink.pArg = q;
    q->q.req.opt.pSink = &q->sink;
  }
  rc = engine_execute(s->pEngine, &q->q.req, &r, &e);
  if (rc != 0 && exec_backend_lost(engine_backend(s->pEngine))) serve_lost(s, &e);
  if (rc != 0) {
    /* A query that failed once the GPU was lost failed because of it. */
    pthread_mutex_lock(&s->mu);
    if (s->bLost) {
      sql_error_clear(&e);
      sql_error_set(&e, SQLSTATE_INTERNAL_ERROR, -1, "%s", s->zLost);
    }
    pthread_mutex_unlock(&s->mu);
  }
  serve_answer(s, q->q.iId, rc, &r, &e);
  exec_result_free(&r);
  serve_stats_send(s);
}

static void serve_req_free(serve_req *q) {
  wire_query_free(&q->q);
  pthread_cond_destroy(&q->cvCredit);
  free(q);
}

/* Takes the first queued query and runs it. Called with mu held, and with
** a query queued and fewer than nQuery running; returns with mu held. */
static void serve_take(serve *s) {
  serve_req *q = s->pHead;
  const char *zRefuse;
  if ((s->pHead = q->pNext) == NULL) s->ppTail = &s->pHead;
  zRefuse = serve_refusal(s);
  s->nRunning++;
  q->pNext = s->pRun;
  s->pRun = q;
  /* Someone must read the socket while this runs: the next query, or a
  ** CANCEL for this one. */
  if (!s->bReading && !s->bEof) pthread_cond_signal(&s->cv);
  pthread_mutex_unlock(&s->mu);

  serve_run(s, q, zRefuse);

  pthread_mutex_lock(&s->mu);
  /* The reader's spin runs from here (serve_spin_until): the answer and
  ** its STATS are out, and mu is taken anyway. */
  s->tLastAnswer = timer_now();
  for (serve_req **pp = &s->pRun; *pp != NULL; pp = &(*pp)->pNext) {
    if (*pp == q) {
      *pp = q->pNext;
      break;
    }
  }
  serve_req_free(q);
  s->nRunning--;
  /* The last query of a lost worker answered: end the reader's stream. */
  if (s->bLost && s->nRunning == 0 && s->pHead == NULL && !s->bShut) {
    s->bShut = 1;
    if (shutdown(s->fd, SHUT_RD) != 0) {
      log_printf(LOG_LEVEL_ERROR, "worker: shutdown(SHUT_RD): %s", strerror(errno));
    }
  }
  pthread_cond_broadcast(&s->cv);
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
      if (q->q.iId != iId) continue;
      q->bCancel = 1;
      pthread_cond_signal(&q->cvCredit);
    }
  }
  pthread_mutex_unlock(&s->mu);
  return 0;
}

/* A CREDIT: the supervisor took one BATCH of its query (one answered
** meanwhile is not there: nothing happens). Returns 0, or -1 with zErr
** when the frame does not decode. */
static int serve_credit(serve *s, const wire_frame *f, char *zErr, size_t nErr) {
  uint64_t iId;
  if (wire_cancel_decode(f->a, f->n, &iId, zErr, nErr) != 0) return -1;
  pthread_mutex_lock(&s->mu);
  for (serve_req *q = s->pRun; q != NULL; q = q->pNext) {
    if (q->q.iId != iId || q->nAhead == 0) continue;
    q->nAhead--;
    pthread_cond_signal(&q->cvCredit);
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
  if (f->eType == WIRE_CREDIT) return serve_credit(s, f, zErr, nErr);
  if (f->eType != WIRE_QUERY) {
    snprintf(zErr, nErr, "a frame of type %d, where QUERY, CANCEL or CREDIT was expected",
             (int)f->eType);
    return -1;
  }
  if ((q = calloc(1, sizeof(*q))) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  pthread_cond_init(&q->cvCredit, NULL);
  q->pServe = s;
  if (wire_query_decode(f->a, f->n, &q->q, zErr, nErr) != 0) {
    pthread_cond_destroy(&q->cvCredit);
    free(q);
    return -1;
  }
  q->q.req.opt.pbCancel = &q->bCancel;
  pthread_mutex_lock(&s->mu);
  zRefuse = serve_refusal(s);
  if (zRefuse == NULL) {
    *s->ppTail = q;
    s->ppTail = &q->pNext;
    q = NULL;
  }
  pthread_mutex_unlock(&s->mu);
  if (q != NULL) {
    serve_answer_error(s, q->q.iId, zRefuse);
    serve_req_free(q);
  }
  return 0;
}

/* Until when the reader spins (timer_now()), or 0: not at all. While a
** query runs, nSpinMicros from now (renewed as it runs out); after that,
** nSpinMicros after the last answer. Called with mu held. */
static double serve_spin_until(const serve *s) {
  double r = s->pCfg->nSpinMicros * 1e-6, tNow = timer_now(), t;
  if (r <= 0) return 0;
  t = s->nRunning > 0 ? tNow + r : s->tLastAnswer + r;
  return t > tNow ? t : 0;
}

/* The reader's turn: waits for a frame — spinning while queries run or
** one was answered within nSpinMicros, then sleeping — and reads and
** handles it. Called with mu held and bReading set by the caller; returns
** with mu held. */
static void serve_read(serve *s) {
  wire_frame f;
  char zErr[1024];
  double tSpin = serve_spin_until(s);
  int rc;
  pthread_mutex_unlock(&s->mu);
  /* Spin while the spin lasts; when it runs out, look again (a query may
  ** still run, or have been answered meanwhile: the spin goes on), and
  ** sleep only once it is over. */
  while ((rc = wire_fd_wait(s->fd, tSpin, tSpin > 0 ? 0 : -1)) == 0) {
    pthread_mutex_lock(&s->mu);
    tSpin = serve_spin_until(s);
    pthread_mutex_unlock(&s->mu);
  }
  rc = wire_frame_recv(s->fd, &f, zErr, sizeof(zErr));
  if (rc > 0 && serve_enqueue(s, &f, zErr, sizeof(zErr)) != 0) rc = -1;
  wire_frame_free(&f);
  pthread_mutex_lock(&s->mu);
  if (rc < 0) {
    log_printf(LOG_LEVEL_ERROR, "worker: a bad frame from the supervisor: %s", zErr);
    s->eExit = WORKER_EXIT_PROTOCOL;
  }
  if (rc <= 0) {
    /* Nobody will read an answer: what runs stops at its next check
    ** (kernel, stride, block or compiler), so the worker exits soon. */
    for (serve_req *q = s->pRun; q != NULL; q = q->pNext) q->bCancel = 1;
    s->bEof = 1;
    pthread_cond_broadcast(&s->cv);
    for (serve_req *q = s->pRun; q != NULL; q = q->pNext) pthread_cond_signal(&q->cvCredit);
  }
}

/* What every thread of the pool runs, the main one included: run a
** queued query when a slot is free, else read the socket when no one
** does, else wait. Returns once the stream has ended and nothing is
** queued. */
static void serve_loop(serve *s) {
  pthread_mutex_lock(&s->mu);
  for (;;) {
    if (s->pHead != NULL && s->nRunning < s->nRunMax) {
      serve_take(s);
    } else if (s->bEof) {
      if (s->pHead == NULL) break;
      pthread_cond_wait(&s->cv, &s->mu);   /* a runner comes back for it */
    } else if (!s->bReading) {
      s->bReading = 1;
      serve_read(s);
      s->bReading = 0;
    } else {
      pthread_cond_wait(&s->cv, &s->mu);
    }
  }
  pthread_mutex_unlock(&s->mu);
}

static void *serve_thread_main(void *pArg) {
  serve_loop(pArg);
  return NULL;
}

/* ---- start and end --------------------------------------------------------------- */

/* Opens everything a query needs: the engine on the configured backend.
** Returns 0 with *pnPreloaded (-1: nothing preloaded), or -1 with zErr. */
static int serve_open(serve *s, int64_t *pnPreloaded, char *zErr, size_t nErr) {
  const worker_serve_config *p = s->pCfg;
  engine_config c;
  *pnPreloaded = -1;
  if ((s->aThread = calloc((size_t)p->nQuery, sizeof(pthread_t))) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  engine_config_init(&c);
  c.zDataDir = p->zDataDir;
  c.zBackend = p->zBackend;
  c.mem = p->mem;
  c.stride = p->stride;
  c.bPreload = p->bPreload;
  c.nCpuThread = p->nCpuThread;
  c.zCacheDir = p->zCacheDir;
  c.nBandwidthProbe = p->nBandwidthProbe;
  if (engine_open(&s->pEngine, &c, zErr, nErr) != 0) return -1;
  if (p->bPreload) {
    colmem_stats st;
    colmem_stats_get(engine_backend(s->pEngine)->pMem, &st);
    *pnPreloaded = (int64_t)st.nPinned;
  }
  return 0;
}

/* Starts the nQuery threads besides the main one. One that cannot be
** started is logged, and fewer queries run at once: one fewer than the
** threads there are, so that one is free to read (or one at a time, on
** the main thread alone, which then reads nothing while it runs). */
static void serve_start(serve *s) {
  for (int i = 0; i < s->pCfg->nQuery; i++) {
    int rc = pthread_create(&s->aThread[i], NULL, serve_thread_main, s);
    if (rc != 0) {
      log_printf(LOG_LEVEL_ERROR, "worker: pthread_create: %s: %d queries at once instead of %d",
                 strerror(rc), s->nThread > 1 ? s->nThread : 1, s->pCfg->nQuery);
      break;
    }
    s->nThread++;
  }
  s->nRunMax = s->nThread > 1 ? s->nThread : 1;
}

/* Stops the threads (they finish what they run) and frees everything. */
static void serve_close(serve *s) {
  pthread_mutex_lock(&s->mu);
  s->bEof = 1;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  for (int i = 0; i < s->nThread; i++) pthread_join(s->aThread[i], NULL);
  while (s->pHead != NULL) {
    serve_req *q = s->pHead;
    s->pHead = q->pNext;
    serve_req_free(q);
  }
  engine_close(s->pEngine);
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

int worker__serve(const worker_serve_config *p) {
  serve s;
  char zErr[1024];
  int64_t nPreloaded;
  int eExit;
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
    exec_backend_describe(engine_backend(s.pEngine), &d);
    log_printf(LOG_LEVEL_INFO, "worker: ready, %d queries at once on %s", p->nQuery, strbuf_str(&d));
    serve_hello(&s, 1, strbuf_str(&d), nPreloaded);
    strbuf_free(&d);
    serve_stats_send(&s);
  }
  /* After HELLO: the warm-up's STATS must not come first. */
  if (p->bWarm && engine_warm(s.pEngine, serve_warmed, &s, zErr, sizeof(zErr)) != 0) {
    log_printf(LOG_LEVEL_WARN, "worker: the device cache's warm-up did not start: %s", zErr);
  }
  serve_start(&s);
  serve_loop(&s);
  eExit = s.eExit;
  serve_close(&s);
  return s.bLost ? WORKER_EXIT_GPU_LOST : eExit;
}
