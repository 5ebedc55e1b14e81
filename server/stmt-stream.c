/*
** server/stmt-stream.c — a SELECT's rows on their way from the executor
** thread that makes them to the loop that sends them, batch by batch,
** in bounded memory.
**
** The executor thread runs the query with a sink (exec_sink): each batch
** the engine hands over is queued here (stmt_stream_push). While
** STREAM_QUEUE_MAX batches wait unsent, the push blocks: that is the
** backpressure that reaches back through the device worker (its batches
** are acknowledged only once taken: worker/request.c) to the kernels
** (exec_run waits in its sink before the next chunk). So a client that
** reads slowly holds at most the queue, the batch being sent and the
** session's encoded output, whatever the result's size.
**
** The loop reads the rows as a pg_result_ops whose xStatus says whether
** more may come: the session sends what is there and waits, and each
** push, and the end, wakes the loop through the connection's stmt_wake
** (a uv_async_t the connection owns; shared with a reference count, so
** that a thread that outlives the connection wakes no one).
**
** Stopping: the consumer's side going away (the portal freed: xFree,
** the connection closed, a cancel or statement_timeout: stmt_stream_cancel)
** makes the blocked or next push fail with 57014, so the run stops at its
** next chunk. A run that fails after some rows ends the stream with its
** error, which the session sends after those rows, as PostgreSQL does.
**
** Lifetime: a stream has two references, the job's (stmt_job_free) and
** the result's (the session's xFree, or the job's outcome if it never got
** there); the last unref frees it and any batch still queued.
**
** INTERFACE ROUTINES
**   stmt_wake_new / _detach / _unref   the connection's wake-up
**   stmt_stream_new, stmt_stream_ref, stmt_stream_unref
**   stmt_stream_push     a batch (executor thread; may block)
**   stmt_stream_end      no more batches, or an error
**   stmt_stream_cancel   stop the producer (loop thread)
**   stmt_stream_started  whether a batch came
**   stmt_stream_ops      the rows as the session reads them
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "stmt.h"

/* Batches that may wait unsent besides the one being sent. */
#define STREAM_QUEUE_MAX 2

struct stmt_wake {
  pthread_mutex_t mu;
  uv_async_t *pAsync;      /* the connection's; NULL once it closes */
  int nRef;
};

stmt_wake *stmt_wake_new(uv_async_t *pAsync) {
  stmt_wake *w = calloc(1, sizeof(*w));
  if (w == NULL) return NULL;
  pthread_mutex_init(&w->mu, NULL);
  w->pAsync = pAsync;
  w->nRef = 1;
  return w;
}

static void stmt_wake_send(stmt_wake *w) {
  if (w == NULL) return;
  pthread_mutex_lock(&w->mu);
  if (w->pAsync != NULL) uv_async_send(w->pAsync);
  pthread_mutex_unlock(&w->mu);
}

void stmt_wake_detach(stmt_wake *w) {
  pthread_mutex_lock(&w->mu);
  w->pAsync = NULL;
  pthread_mutex_unlock(&w->mu);
}

void stmt_wake_unref(stmt_wake *w) {
  int n;
  if (w == NULL) return;
  pthread_mutex_lock(&w->mu);
  n = --w->nRef;
  pthread_mutex_unlock(&w->mu);
  if (n > 0) return;
  pthread_mutex_destroy(&w->mu);
  free(w);
}

static stmt_wake *stmt_wake_ref(stmt_wake *w) {
  pthread_mutex_lock(&w->mu);
  w->nRef++;
  pthread_mutex_unlock(&w->mu);
  return w;
}

/* A batch in the queue. */
typedef struct stream_batch stream_batch;
struct stream_batch {
  exec_result *pRes;       /* owned */
  stream_batch *pNext;
};

struct stmt_stream {
  pthread_mutex_t mu;      /* everything but the consumer's own fields */
  pthread_cond_t cv;       /* room in the queue, or cancelled */
  int nRef;
  stmt_wake *pWake;        /* a reference */
  stream_batch *pHead;     /* batches not taken by the consumer yet */
  stream_batch **ppTail;
  int nQueued;
  int64_t nRowIn;          /* rows of every batch pushed */
  int bStarted;            /* a batch was pushed */
  int bEnd;                /* no more batches come */
  int bFailed;             /* ... because the run failed: err */
  int bCancel;             /* the consumer stopped: pushes fail */
  sql_error err;           /* bFailed: the run's error; bCancel: the cancel's */
  /* The consumer's (loop thread), outside mu */
  exec_result *pCur;       /* the batch rows are read from; owned */
  int64_t iCurFirst;       /* the row number of its first row */
  char zState[6];          /* xStatus's error, kept for the session */
  char zMsg[512];
};

stmt_stream *stmt_stream_new(stmt_wake *pWake) {
  stmt_stream *p = calloc(1, sizeof(*p));
  if (p == NULL) return NULL;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  p->nRef = 1;
  p->pWake = pWake != NULL ? stmt_wake_ref(pWake) : NULL;
  p->ppTail = &p->pHead;
  sql_error_clear(&p->err);
  return p;
}

stmt_stream *stmt_stream_ref(stmt_stream *p) {
  pthread_mutex_lock(&p->mu);
  p->nRef++;
  pthread_mutex_unlock(&p->mu);
  return p;
}

static void stream_result_free(exec_result *r) {
  if (r == NULL) return;
  exec_result_free(r);
  free(r);
}

void stmt_stream_unref(stmt_stream *p) {
  int n;
  if (p == NULL) return;
  pthread_mutex_lock(&p->mu);
  n = --p->nRef;
  pthread_mutex_unlock(&p->mu);
  if (n > 0) return;
  while (p->pHead != NULL) {
    stream_batch *b = p->pHead;
    p->pHead = b->pNext;
    stream_result_free(b->pRes);
    free(b);
  }
  stream_result_free(p->pCur);
  stmt_wake_unref(p->pWake);
  pthread_cond_destroy(&p->cv);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

int stmt_stream_started(stmt_stream *p) {
  int b;
  pthread_mutex_lock(&p->mu);
  b = p->bStarted;
  pthread_mutex_unlock(&p->mu);
  return b;
}

int stmt_stream_push(stmt_stream *p, exec_result *pBatch, sql_error *pErr) {
  stream_batch *b = malloc(sizeof(*b));
  if (b == NULL) {
    stream_result_free(pBatch);
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory sending the result");
    return -1;
  }
  b->pRes = pBatch;
  b->pNext = NULL;
  pthread_mutex_lock(&p->mu);
  while (p->nQueued >= STREAM_QUEUE_MAX && !p->bCancel) pthread_cond_wait(&p->cv, &p->mu);
  if (p->bCancel) {
    *pErr = p->err;
    pthread_mutex_unlock(&p->mu);
    stream_result_free(pBatch);
    free(b);
    return -1;
  }
  *p->ppTail = b;
  p->ppTail = &b->pNext;
  p->nQueued++;
  p->nRowIn += pBatch->nRow;
  p->bStarted = 1;
  pthread_mutex_unlock(&p->mu);
  stmt_wake_send(p->pWake);
  return 0;
}

void stmt_stream_end(stmt_stream *p, const sql_error *pErr) {
  pthread_mutex_lock(&p->mu);
  p->bEnd = 1;
  if (p->bCancel) {
    p->bFailed = 1;                      /* cut short: the cancel's error */
  } else if (pErr != NULL) {
    p->bFailed = 1;
    p->err = *pErr;
  }
  pthread_mutex_unlock(&p->mu);
  stmt_wake_send(p->pWake);
}

void stmt_stream_cancel(stmt_stream *p, const char *zMsg) {
  pthread_mutex_lock(&p->mu);
  if (!p->bCancel) {
    p->bCancel = 1;
    if (!p->bFailed) sql_error_set(&p->err, "57014", -1, "%s", zMsg);
  }
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
}

/* ---- the consumer: pg_result_ops ------------------------------------------- */

static int64_t stream_count(void *pArg) {
  stmt_stream *p = pArg;
  int64_t n;
  pthread_mutex_lock(&p->mu);
  n = p->nRowIn;
  pthread_mutex_unlock(&p->mu);
  return n;
}

/* Makes the batch holding row iRow current, freeing the one before (rows
** are read in order). Returns 0, or -1 if no batch holds it. */
static int stream_seek(stmt_stream *p, int64_t iRow) {
  while (p->pCur == NULL || iRow >= p->iCurFirst + p->pCur->nRow) {
    stream_batch *b;
    int64_t iNext = p->pCur != NULL ? p->iCurFirst + p->pCur->nRow : p->iCurFirst;
    pthread_mutex_lock(&p->mu);
    b = p->pHead;
    if (b != NULL) {
      if ((p->pHead = b->pNext) == NULL) p->ppTail = &p->pHead;
      p->nQueued--;
      pthread_cond_signal(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
    if (b == NULL) return -1;
    stream_result_free(p->pCur);
    p->pCur = b->pRes;
    p->iCurFirst = iNext;
    free(b);
  }
  return iRow >= p->iCurFirst ? 0 : -1;
}

static int stream_value(void *pArg, int64_t iRow, int iCol, strbuf *pOut) {
  stmt_stream *p = pArg;
  if (stream_seek(p, iRow) != 0 || iCol < 0 || iCol >= p->pCur->nCol) return -1;
  return exec_result_text(p->pCur, iRow - p->iCurFirst, iCol, pOut) ? 1 : 0;
}

static int stream_status(void *pArg, pgwire_error *pErr) {
  stmt_stream *p = pArg;
  int rc;
  pthread_mutex_lock(&p->mu);
  if (p->bFailed || (p->bCancel && !p->bEnd)) {
    snprintf(p->zState, sizeof(p->zState), "%s", p->err.zState);
    snprintf(p->zMsg, sizeof(p->zMsg), "%s", p->err.zMsg);
    memset(pErr, 0, sizeof(*pErr));
    pErr->zState = p->zState;
    pErr->zMsg = p->zMsg;
    rc = -1;
  } else {
    rc = p->bEnd ? 0 : 1;
  }
  pthread_mutex_unlock(&p->mu);
  return rc;
}

/* The session is done with the rows: a producer still running stops. */
static void stream_free(void *pArg) {
  stmt_stream *p = pArg;
  stmt_stream_cancel(p, "canceling statement due to user request");
  stmt_stream_unref(p);
}

const pg_result_ops stmt_stream_ops = {stream_count, stream_value, stream_free, stream_status};
