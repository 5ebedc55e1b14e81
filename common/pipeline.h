/*
** common/pipeline.h — an ordered parallel pipeline: many threads produce
** numbered chunks in any order, and each chunk is consumed strictly in
** number order, one at a time.
**
** This is the shape of every bulk job in starq: the generator formats
** chunks of rows and appends them to a file; the loader parses pieces of a
** text file and appends them to the column store. Production (the
** expensive part) runs on all threads; consumption (appending, which must
** keep order) is serialised, and overlaps the production of later chunks.
**
** A thread claims the next chunk number, produces it into its own worker
** state with no lock held, waits for its turn, consumes it, and claims
** again. The main thread only reports progress and joins.
**
** Errors: the first failing chunk stops the pipeline. Chunks numbered
** below it that are already being produced still finish producing (so the
** error reported is the earliest in chunk order, whatever the timing) but
** nothing more is consumed. pipe_run() returns the error of the lowest
** failing chunk.
*/
#ifndef STARQ_PIPELINE_H
#define STARQ_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

/* Produces chunk iChunk into worker state pWorker. Runs in parallel with
** other chunks' production. Returns 0, or -1 with a message in zErr. */
typedef int (*pipe_produce_fn)(void *pCtx, void *pWorker, int64_t iChunk,
                               char *zErr, size_t nErr);

/* Consumes chunk iChunk from pWorker. Called in chunk order, never two at
** once. Returns 0, or -1 with a message in zErr. */
typedef int (*pipe_consume_fn)(void *pCtx, void *pWorker, int64_t iChunk,
                               char *zErr, size_t nErr);

/* Called on the main thread about ten times a second with the number of
** chunks consumed so far. */
typedef void (*pipe_progress_fn)(void *pCtx, int64_t nDone);

typedef struct pipe_job pipe_job;
struct pipe_job {
  int64_t nChunk;          /* chunks 0 .. nChunk-1 */
  int nWorker;             /* threads, and entries in apWorker */
  void **apWorker;         /* one state per thread, owned by the caller */
  void *pCtx;              /* passed to every callback */
  pipe_produce_fn xProduce;
  pipe_consume_fn xConsume;
  pipe_progress_fn xProgress;   /* may be NULL */
};

/* Runs the job to completion. Returns 0, or -1 with the error of the
** lowest-numbered failing chunk in zErr. */
int pipe_run(const pipe_job *pJob, char *zErr, size_t nErr);

#endif /* STARQ_PIPELINE_H */
