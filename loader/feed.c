/*
** loader/feed.c — load_feed_run(): the ordered pipeline with batches.
**
** Each thread owns one batch and the statistics of its batch. Producing a
** chunk fills the batch (the caller's xFill) and computes its statistics,
** both in parallel; consuming it hands both to the sink, in order. The
** statistics are computed on the producing side because hashing every
** value into a HyperLogLog is the costliest part of the sink's work.
*/
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/pipeline.h"
#include "feed.h"

typedef struct feed_ctx feed_ctx;
struct feed_ctx {
  const load_feed *f;
  _Atomic int64_t nRowDone;
};

typedef struct feed_worker feed_worker;
struct feed_worker {
  load_batch b;
  col_stats *aStats;       /* t->nCol; set up while bStats */
  int bStats;
};

static void feed_stats_free(feed_worker *w, int nCol) {
  if (!w->bStats) return;
  for (int i = 0; i < nCol; i++) stats_free(&w->aStats[i]);
  w->bStats = 0;
}

static int feed_produce(void *pCtx, void *pWorker, int64_t iChunk, char *zErr, size_t nErr) {
  feed_ctx *x = pCtx;
  feed_worker *w = pWorker;
  load_batch_reset(&w->b);
  feed_stats_free(w, x->f->t->nCol);
  if (x->f->xFill(x->f->pCtx, &w->b, iChunk, zErr, nErr) != 0) return -1;
  if (load_batch_stats(&w->b, w->aStats) != 0) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  w->bStats = 1;
  return 0;
}

static int feed_consume(void *pCtx, void *pWorker, int64_t iChunk, char *zErr, size_t nErr) {
  feed_ctx *x = pCtx;
  feed_worker *w = pWorker;
  (void)iChunk;
  if (load_sink_put(x->f->pSink, &w->b, w->aStats, zErr, nErr) != 0) return -1;
  x->nRowDone += w->b.nRow;
  return 0;
}

static void feed_progress(void *pCtx, int64_t nDone) {
  feed_ctx *x = pCtx;
  if (x->f->xProgress) x->f->xProgress(x->f->pCtx, nDone, x->nRowDone);
}

int load_feed_run(const load_feed *f, int64_t *pnRow, char *zErr, size_t nErr) {
  int nThread = f->nThread < 1 ? 1 : f->nThread;
  feed_worker *aWorker;
  void **apWorker;
  feed_ctx x = {f, 0};
  int rc = -1;

  if (nThread > f->nChunk) nThread = f->nChunk > 0 ? (int)f->nChunk : 1;
  aWorker = calloc((size_t)nThread, sizeof(*aWorker));
  apWorker = calloc((size_t)nThread, sizeof(*apWorker));
  if (aWorker == NULL || apWorker == NULL) {
    snprintf(zErr, nErr, "out of memory");
    goto out_free;
  }
  for (int i = 0; i < nThread; i++) {
    apWorker[i] = &aWorker[i];
    aWorker[i].aStats = calloc((size_t)f->t->nCol, sizeof(col_stats));
    if (aWorker[i].aStats == NULL || load_batch_init(&aWorker[i].b, f->t, f->nRowHint) != 0) {
      snprintf(zErr, nErr, "out of memory");
      nThread = i + 1;
      goto out_workers;
    }
  }
  {
    pipe_job job = {f->nChunk, nThread, apWorker, &x, feed_produce, feed_consume, feed_progress};
    rc = pipe_run(&job, zErr, nErr);
  }
  if (rc == 0) *pnRow += x.nRowDone;
out_workers:
  for (int i = 0; i < nThread; i++) {
    feed_stats_free(&aWorker[i], f->t->nCol);
    free(aWorker[i].aStats);
    load_batch_free(&aWorker[i].b);
  }
out_free:
  free(apWorker);
  free(aWorker);
  return rc;
}
