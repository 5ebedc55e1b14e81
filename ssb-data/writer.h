/*
** ssb-data/writer.h — writes one table file from many threads, in order.
**
** A table is cut into chunks of a fixed number of units (rows, or orders
** for lineorder); chunk size never depends on the thread count, so neither
** does the file.
*/
#ifndef STARQ_SSB_WRITER_H
#define STARQ_SSB_WRITER_H

#include "ssb.h"
#include "tbl.h"

/* Formats unit iUnit (one row, or one order for lineorder) onto the end of
** b and adds the number of rows it made to *pnRow. Returns 0, or -1 if
** memory ran out. */
typedef int (*ssb_unit_fn)(const ssb_gen *g, int64_t iUnit, ssb_buf *b,
                           int64_t *pnRow);

typedef struct ssb_job ssb_job;
struct ssb_job {
  const char *zName;       /* table name; the file is <zName>.tbl */
  int64_t iFirst;          /* number of the first unit */
  int64_t nUnit;           /* how many units */
  int64_t nPerChunk;       /* units per chunk */
  ssb_unit_fn xUnit;
};

/* Writes pJob's table into pOpt->zOutDir as <name>.tbl.tmp, then renames
** it to <name>.tbl. On success returns 0 and adds to *pnRow and *pnByte;
** on failure removes the temporary file and returns -1 with zErr set. */
int ssb_job_write(const ssb_gen *g, const ssb_job *pJob, const ssb_options *pOpt,
                  int64_t *pnRow, int64_t *pnByte, char *zErr, size_t nErr);

/* Makes SIGINT, SIGTERM and SIGHUP remove the file being written before
** the process dies of the signal as it would have. */
void ssb_cleanup_on_signal(void);

#endif /* STARQ_SSB_WRITER_H */
