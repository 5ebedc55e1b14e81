/*
** worker/request.c — queries in flight to the device worker.
** worker_query() sends a statement under a new id and waits for its
** answer; the answers are read from the socket by the waiting queries
** themselves, so that the one a lone client waits for wakes straight from
** its read, not through a reader thread that would hand the answer over
** (a second wake-up on every query's path).
**
** The reader's role. Only one thread reads the socket at a time: the one
** holding w->bReading. A waiting query takes the role when it is free,
** reads frames — answers to whichever query they are for, LOST, STATS —
** until its own answer has come, and passes the role on to another
** waiting query (worker__role_pass). A query answered by another's read
** is woken on its own condition. While the role is held, the others
** sleep; when nobody waits, nobody reads, and the worker's STATS frames
** wait in the socket until the next query or worker_stats_get() reads
** them. The supervisor thread reads only the HELLO, and what is left
** once the worker's socket ends (supervise.c).
**
** A query's worker_req lives on its caller's stack. It is linked into
** w->pReq before its frame is sent (an answer can never beat the
** registration) and unlinked by whoever reads its answer; the caller
** returns only once bDone is set, under w->mu, after which no other
** thread touches it. An answer is decoded straight into the caller's
** exec_result, outside the lock: the caller is blocked until bDone, and
** the lock publishes what was written.
**
** Spinning (worker_config.nSpinMicros): the query holding the role polls
** the socket without sleeping for up to that long before it sleeps in
** poll(), so that an answer that comes within it costs no wake-up.
**
** Cancel: the session sets the flag pOpt->pbCancel points at; the waiting
** caller sees it (it looks at least every REQUEST_CANCEL_POLL_MS while it
** waits, reading or not) and sends WIRE_CANCEL with the query's id, which
** the worker turns into its own flag for exec_run.
**
** Streamed rows (pOpt->pSink): the worker sends a query's rows in BATCH
** frames before its ANSWER. Whoever reads one queues it on its query and
** wakes it; the query's own thread hands each to the caller's sink —
** outside the lock, after passing the reader's role on, since the sink
** may block as long as its client reads slowly — and then sends a CREDIT,
** which lets the worker send one more (WIRE_BATCH_WINDOW ahead at most).
** A sink that fails (its client gone) cancels the query on the worker;
** the batches still coming are dropped, and credited so that the worker
** is never left waiting, until the answer.
**
** Sending: frames go onto the socket whole, one at a time (w->muSend). A
** send that fails leaves the stream possibly cut mid-frame, so the socket
** is shut down: the worker and the supervisor both see its end, the
** worker is replaced, and this query fails with the others in flight.
*/
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "workerInt.h"

/* How often a waiting query looks at its cancel flag: a cancel reaches the
** worker at most this late (then the query stops before its next kernel). */
#define REQUEST_CANCEL_POLL_MS 10

/* Ids of all workers of the process: one counter, so an id never names
** two queries, whichever worker instance they went to. */
static _Atomic uint64_t request_iNextId = 1;

/* Waits, with w->mu held, until the worker takes queries. Returns 0, or -1
** with *pErr when the query should fail at once: stopped, or restarts
** failing (a start that fails would make a waiting query wait forever). */
static int request_wait_ready(worker *w, sql_error *pErr) {
  for (;;) {
    if (w->bStop || w->eState == WORKER_STOPPED || w->bThreadDone) {
      sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "the device worker is stopped");
      return -1;
    }
    if (w->eState == WORKER_READY) return 0;
    if (w->stats.nStartFail > 0) {
      sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "the device worker is not running: %s",
                    w->zDown);
      return -1;
    }
    pthread_cond_wait(&w->cvState, &w->mu);
  }
}

/* Links q in and sends b, once the worker is ready. Returns 0 once q is in
** flight (answered or failed by the supervisor from then on), or -1 with
** *q->pErr when it never went out. */
static int request_send(worker *w, worker_req *q, wire_buf *b) {
  char zErr[256];
  int fd, rc;
  for (;;) {
    pthread_mutex_lock(&w->mu);
    rc = request_wait_ready(w, q->pErr);
    pthread_mutex_unlock(&w->mu);
    if (rc != 0) return -1;
    pthread_mutex_lock(&w->muSend);
    pthread_mutex_lock(&w->mu);
    if (w->eState == WORKER_READY && !w->bStop) break;
    pthread_mutex_unlock(&w->mu);        /* it went away meanwhile: wait again */
    pthread_mutex_unlock(&w->muSend);
  }
  q->pNext = w->pReq;
  w->pReq = q;
  fd = w->fd;
  pthread_mutex_unlock(&w->mu);
  if (wire_frame_send(fd, b, zErr, sizeof(zErr)) != 0) {
    /* fd stays open while muSend is held: the supervisor closes it only
    ** under muSend. */
    log_printf(LOG_LEVEL_ERROR, "worker: a query could not be sent, so the device worker is "
               "replaced: %s", zErr);
    if (shutdown(fd, SHUT_RDWR) != 0 && errno != ENOTCONN) {
      log_printf(LOG_LEVEL_ERROR, "worker: shutdown: %s", strerror(errno));
    }
  }
  pthread_mutex_unlock(&w->muSend);
  return 0;
}

/* Tells the worker to stop query q (WIRE_CANCEL), or that one of its
** batches was taken (WIRE_CREDIT), if it is still in flight on the worker
** it was sent to. A send that fails is handled as request_send does. */
static void request_id_send(worker *w, const worker_req *q, wire_type eType) {
  wire_buf b;
  char zErr[256];
  int bInFlight = 0, fd;
  wire_buf_init(&b, eType);
  wire_cancel_encode(&b, q->iId);
  pthread_mutex_lock(&w->muSend);
  pthread_mutex_lock(&w->mu);
  for (const worker_req *p = w->pReq; p != NULL; p = p->pNext) bInFlight |= p == q;
  fd = w->fd;
  pthread_mutex_unlock(&w->mu);
  if (bInFlight && fd >= 0 && wire_frame_send(fd, &b, zErr, sizeof(zErr)) != 0) {
    log_printf(LOG_LEVEL_ERROR, "worker: a %s could not be sent, so the device worker is "
               "replaced: %s", eType == WIRE_CANCEL ? "cancel" : "credit", zErr);
    if (shutdown(fd, SHUT_RDWR) != 0 && errno != ENOTCONN) {
      log_printf(LOG_LEVEL_ERROR, "worker: shutdown: %s", strerror(errno));
    }
  }
  pthread_mutex_unlock(&w->muSend);
  wire_buf_free(&b);
}

void worker__role_pass(worker *w, const worker_req *q) {
  if (w->bSupWait) {
    pthread_cond_signal(&w->cvRole);
    return;
  }
  for (worker_req *p = w->pReq; p != NULL; p = p->pNext) {
    if (p != q) {
      pthread_cond_signal(&p->cv);
      return;
    }
  }
}

/* 1 if a thread may take the reader's role now: nobody holds it, and the
** socket is there and has not ended. Called with w->mu held. */
static int request_can_read(const worker *w) {
  return !w->bReading && !w->bSupWait && w->fd >= 0 && !w->bEnded;
}

void worker__drain(worker *w) {
  int fd;
  if (!request_can_read(w)) return;
  fd = w->fd;
  w->bReading = 1;
  pthread_mutex_unlock(&w->mu);
  while (wire_fd_wait(fd, 0, 0) > 0 && worker__frame_read(w, fd) > 0) {
  }
  pthread_mutex_lock(&w->mu);
  w->bReading = 0;
  worker__role_pass(w, NULL);
}

/* Sleeps on q's condition (w->mu held): up to REQUEST_CANCEL_POLL_MS while
** the caller may still cancel, else until signalled. */
static void request_sleep(worker *w, worker_req *q, int bTimed) {
  struct timespec ts;
  if (!bTimed) {
    pthread_cond_wait(&q->cv, &w->mu);
    return;
  }
  clock_gettime(CLOCK_MONOTONIC, &ts);
  ts.tv_nsec += REQUEST_CANCEL_POLL_MS * 1000000L;
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  pthread_cond_timedwait(&q->cv, &w->mu, &ts);
}

/* What a streamed query's thread keeps of its batches. */
typedef struct request_stream request_stream;
struct request_stream {
  int bFailed;             /* the sink failed: err, and the rest is dropped */
  sql_error err;
};

/* Hands the first queued batch of q to the caller's sink and credits it
** (w->mu held, given up meanwhile, the reader's role passed on first). A
** sink that fails cancels the query once; later batches are dropped.
** Returns 1 if the query was cancelled on the worker here. */
static int request_batch_take(worker *w, worker_req *q, request_stream *st) {
  worker_batch *b = q->pBatch;
  int bCancel = 0;
  if ((q->pBatch = b->pNext) == NULL) q->ppBatchTail = &q->pBatch;
  worker__role_pass(w, q);
  pthread_mutex_unlock(&w->mu);
  if (st->bFailed) {
    exec_result_free(b->pRes);
    free(b->pRes);
  } else {
    if (q->pOpt->pSink->xBatch(q->pOpt->pSink->pArg, b->pRes, &st->err) != 0) {
      st->bFailed = bCancel = 1;
    }
  }
  free(b);
  request_id_send(w, q, WIRE_CREDIT);
  if (bCancel) request_id_send(w, q, WIRE_CANCEL);
  pthread_mutex_lock(&w->mu);
  return bCancel;
}

/* Waits, with w->mu held, until q is answered: reading the socket while
** the role is free, else sleeping until the reader answers q or passes
** the role on. While the caller may cancel it, looks at the flag every
** REQUEST_CANCEL_POLL_MS, and passes a cancel on to the worker once.
** A streamed query's batches go to its sink as they come. */
static void request_wait(worker *w, worker_req *q, request_stream *st) {
  double tSpin = w->cfg.nSpinMicros > 0 ? timer_now() + w->cfg.nSpinMicros * 1e-6 : 0;
  int bSent = 0;
  while (!q->bDone || q->pBatch != NULL) {
    int bCancellable = q->pOpt != NULL && q->pOpt->pbCancel != NULL && !bSent;
    if (q->pBatch != NULL) {
      bSent |= request_batch_take(w, q, st);
      continue;
    }
    if (bCancellable && *q->pOpt->pbCancel) {
      pthread_mutex_unlock(&w->mu);
      request_id_send(w, q, WIRE_CANCEL);
      pthread_mutex_lock(&w->mu);
      bSent = 1;
      continue;
    }
    if (request_can_read(w)) {
      int fd = w->fd, rc;
      w->bReading = 1;
      pthread_mutex_unlock(&w->mu);
      rc = wire_fd_wait(fd, tSpin, bCancellable ? REQUEST_CANCEL_POLL_MS : -1);
      if (rc != 0) worker__frame_read(w, fd);
      pthread_mutex_lock(&w->mu);
      w->bReading = 0;
      if (q->bDone || w->bEnded || w->bSupWait) worker__role_pass(w, q);
      continue;
    }
    request_sleep(w, q, bCancellable);
  }
}

int worker_query(worker *w, const engine_request *pReq, exec_result *pRes, sql_error *pErr) {
  worker_req q;
  request_stream st;
  wire_buf b;
  pthread_condattr_t ca;
  int rc = -1;
  memset(pRes, 0, sizeof(*pRes));
  sql_error_clear(pErr);
  memset(&q, 0, sizeof(q));
  memset(&st, 0, sizeof(st));
  q.ppBatchTail = &q.pBatch;
  q.iId = atomic_fetch_add(&request_iNextId, 1);
  q.pRes = pRes;
  q.pErr = pErr;
  q.pOpt = &pReq->opt;
  wire_buf_init(&b, WIRE_QUERY);
  wire_query_encode(&b, q.iId, pReq);
  if (b.bOom) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory sending the query");
    wire_buf_free(&b);
    return -1;
  }
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&q.cv, &ca);
  pthread_condattr_destroy(&ca);
  pthread_mutex_lock(&w->mu);
  w->nCaller++;
  pthread_mutex_unlock(&w->mu);
  if (request_send(w, &q, &b) == 0) {
    pthread_mutex_lock(&w->mu);
    request_wait(w, &q, &st);
    rc = q.rc;
    pthread_mutex_unlock(&w->mu);
  }
  if (st.bFailed) {
    /* The sink's error, not the cancel's that answered it. */
    exec_result_free(pRes);
    *pErr = st.err;
    rc = -1;
  }
  /* worker_stop() frees w once the last caller is out. */
  pthread_mutex_lock(&w->mu);
  if (--w->nCaller == 0 && w->bStop) pthread_cond_broadcast(&w->cvState);
  pthread_mutex_unlock(&w->mu);
  pthread_cond_destroy(&q.cv);
  wire_buf_free(&b);
  return rc;
}

/* Unlinks and returns the query of id iId, or NULL. Called with mu held. */
static worker_req *request_take(worker *w, uint64_t iId) {
  for (worker_req **pp = &w->pReq; *pp != NULL; pp = &(*pp)->pNext) {
    worker_req *q = *pp;
    if (q->iId == iId) {
      *pp = q->pNext;
      return q;
    }
  }
  return NULL;
}

/* Marks q answered with rc and wakes its caller. Called with mu held. */
static void request_done(worker_req *q, int rc) {
  q->rc = rc;
  q->bDone = 1;
  pthread_cond_signal(&q->cv);
}

int worker__req_answer(worker *w, const wire_frame *f, char *zErr, size_t nErr) {
  worker_req *q;
  uint64_t iId;
  int rc, rcQuery;
  if (wire_answer_id(f->a, f->n, &iId) != 0) {
    snprintf(zErr, nErr, "an ANSWER of %zu bytes, too short for its id", f->n);
    return -1;
  }
  pthread_mutex_lock(&w->mu);
  q = request_take(w, iId);
  pthread_mutex_unlock(&w->mu);
  if (q == NULL) {
    snprintf(zErr, nErr, "an answer to query %llu, which is not in flight", (unsigned long long)iId);
    return -1;
  }
  rc = wire_answer_decode(f->a, f->n, &rcQuery, q->pRes, q->pErr, zErr, nErr);
  if (rc != 0) {
    sql_error_set(q->pErr, SQLSTATE_INTERNAL_ERROR, -1, "%s", zErr);
    rcQuery = -1;
  }
  pthread_mutex_lock(&w->mu);
  w->stats.nQuery += rc == 0;
  request_done(q, rcQuery);
  pthread_mutex_unlock(&w->mu);
  return rc;
}

int worker__req_batch(worker *w, const wire_frame *f, char *zErr, size_t nErr) {
  worker_batch *b = calloc(1, sizeof(*b));
  worker_req *q;
  uint64_t iId;
  int rcQuery = -1;
  sql_error e;
  zErr[0] = 0;
  if (b == NULL || (b->pRes = calloc(1, sizeof(exec_result))) == NULL) {
    free(b);
    snprintf(zErr, nErr, "out of memory for a batch of rows");
    return -1;
  }
  if (wire_answer_id(f->a, f->n, &iId) != 0 ||
      wire_answer_decode(f->a, f->n, &rcQuery, b->pRes, &e, zErr, nErr) != 0 || rcQuery != 0) {
    if (zErr[0] == 0) snprintf(zErr, nErr, "a BATCH that is no batch of rows");
    goto fail;
  }
  pthread_mutex_lock(&w->mu);
  for (q = w->pReq; q != NULL && q->iId != iId; q = q->pNext) {
  }
  if (q != NULL && q->pOpt != NULL && q->pOpt->pSink != NULL) {
    *q->ppBatchTail = b;
    q->ppBatchTail = &b->pNext;
    pthread_cond_signal(&q->cv);
    b = NULL;
  }
  pthread_mutex_unlock(&w->mu);
  if (b == NULL) return 0;
  snprintf(zErr, nErr, "a batch of rows for query %llu, which is not a streamed query in flight",
           (unsigned long long)iId);
fail:
  exec_result_free(b->pRes);
  free(b->pRes);
  free(b);
  return -1;
}

/* Frees the batches queued on q (mu held). */
static void request_batches_drop(worker_req *q) {
  while (q->pBatch != NULL) {
    worker_batch *b = q->pBatch;
    q->pBatch = b->pNext;
    exec_result_free(b->pRes);
    free(b->pRes);
    free(b);
  }
  q->ppBatchTail = &q->pBatch;
}

void worker__req_fail_all(worker *w, const char *zMsg) {
  pthread_mutex_lock(&w->mu);
  while (w->pReq != NULL) {
    worker_req *q = w->pReq;
    w->pReq = q->pNext;
    request_batches_drop(q);
    exec_result_free(q->pRes);
    sql_error_clear(q->pErr);
    sql_error_set(q->pErr, SQLSTATE_INTERNAL_ERROR, -1, "%s", zMsg);
    request_done(q, -1);
  }
  pthread_mutex_unlock(&w->mu);
}
