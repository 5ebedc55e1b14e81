/*
** loader/feed.h — feeding a sink (sink.h) from many threads.
**
** Every bulk load is the same job: chunks of rows are made into batches in
** parallel (parsed from text, or generated) and handed to the sink in
** chunk order. load_feed_run() runs that job over the ordered pipeline
** (common/pipeline.h); the caller only says how to fill chunk i's batch.
*/
#ifndef STARQ_LOAD_FEED_H
#define STARQ_LOAD_FEED_H

#include <stddef.h>
#include <stdint.h>

#include "batch.h"
#include "sink.h"

/* Appends the rows of chunk iChunk to b (empty on entry). Runs on any
** thread, in parallel with other chunks. Returns 0, or -1 with zErr set. */
typedef int (*load_fill_fn)(void *pCtx, load_batch *b, int64_t iChunk,
                            char *zErr, size_t nErr);

/* Called about ten times a second: chunks and rows in the sink so far. */
typedef void (*load_feed_progress_fn)(void *pCtx, int64_t nChunkDone, int64_t nRowDone);

typedef struct load_feed load_feed;
struct load_feed {
  load_sink *pSink;        /* where the batches go, in chunk order */
  const cat_table *t;      /* the table the batches are for */
  int64_t nChunk;
  int nThread;             /* >= 1; fewer are used if there are fewer chunks */
  int64_t nRowHint;        /* rows a chunk usually holds, to size batches */
  void *pCtx;              /* passed to the callbacks */
  load_fill_fn xFill;
  load_feed_progress_fn xProgress;   /* may be NULL */
};

/* Runs the job. Returns 0 and adds the rows fed to *pnRow, or -1 with the
** error of the lowest failing chunk in zErr (the sink then holds some of
** the rows; the caller aborts it). */
int load_feed_run(const load_feed *f, int64_t *pnRow, char *zErr, size_t nErr);

#endif /* STARQ_LOAD_FEED_H */
