/*
** ssb-data/writer.c — writes one table file through the ordered pipeline
** (common/pipeline.h): threads format chunks of rows into buffers of their
** own, and the buffers are appended to the file strictly in chunk order,
** so the file is the same for any number of threads. While one thread
** writes, the others format, so text generation and I/O overlap.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/pipeline.h"
#include "../common/progress.h"
#include "writer.h"

/* One table's write. Read-only to the threads but for the counters, which
** the consuming thread updates and the main thread reads for progress. */
typedef struct writer writer;
struct writer {
  const ssb_gen *g;
  const ssb_job *pJob;
  int fd;                  /* the .tmp file */
  _Atomic int64_t nRowDone;
  _Atomic int64_t nByteDone;
  progress prog;
};

/* What one thread holds between producing a chunk and consuming it. */
typedef struct writer_worker writer_worker;
struct writer_worker {
  ssb_buf b;               /* the chunk's text */
  int64_t nRow;            /* rows in it */
};

/* The temporary file being written, for the signal handler. */
static char writer_zTmp[PATH_MAX];
static volatile sig_atomic_t writer_bTmp;

static void writer_on_signal(int sig) {
  if (writer_bTmp) unlink(writer_zTmp);
  signal(sig, SIG_DFL);
  raise(sig);
}

void ssb_cleanup_on_signal(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = writer_on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
}

static int writer_produce(void *pCtx, void *pWorker, int64_t iChunk, char *zErr,
                          size_t nErr) {
  writer *w = pCtx;
  writer_worker *ww = pWorker;
  const ssb_job *j = w->pJob;
  int64_t iFirst = j->iFirst + iChunk * j->nPerChunk;
  int64_t iEnd = iFirst + j->nPerChunk;

  if (iEnd > j->iFirst + j->nUnit) iEnd = j->iFirst + j->nUnit;
  ww->b.n = 0;
  ww->nRow = 0;
  for (int64_t i = iFirst; i < iEnd; i++) {
    if (j->xUnit(w->g, i, &ww->b, &ww->nRow) != 0) {
      snprintf(zErr, nErr, "out of memory formatting %s rows", j->zName);
      return -1;
    }
  }
  return 0;
}

static int writer_consume(void *pCtx, void *pWorker, int64_t iChunk, char *zErr,
                          size_t nErr) {
  writer *w = pCtx;
  writer_worker *ww = pWorker;
  const char *z = ww->b.z;
  size_t n = ww->b.n;
  (void)iChunk;
  while (n > 0) {
    ssize_t k = write(w->fd, z, n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      snprintf(zErr, nErr, "write %s: %s", writer_zTmp, strerror(errno));
      return -1;
    }
    z += k;
    n -= (size_t)k;
  }
  w->nRowDone += ww->nRow;
  w->nByteDone += (int64_t)ww->b.n;
  return 0;
}

static void writer_progress(void *pCtx, int64_t nDone) {
  writer *w = pCtx;
  int64_t nUnit = nDone * w->pJob->nPerChunk;
  progress_show(&w->prog, nUnit < w->pJob->nUnit ? nUnit : w->pJob->nUnit, w->nRowDone);
}

/* Runs the pipeline over the open file; returns 0 or -1 with zErr set. */
static int writer_run(writer *w, const ssb_options *pOpt, char *zErr, size_t nErr) {
  const ssb_job *j = w->pJob;
  int64_t nChunk = (j->nUnit + j->nPerChunk - 1) / j->nPerChunk;
  int nWorker = pOpt->nThread < 1 ? 1 : pOpt->nThread;
  writer_worker *aWorker;
  void **apWorker;
  pipe_job job;
  int rc;

  if (nWorker > nChunk) nWorker = nChunk > 0 ? (int)nChunk : 1;
  aWorker = calloc((size_t)nWorker, sizeof(*aWorker));
  apWorker = calloc((size_t)nWorker, sizeof(*apWorker));
  if (aWorker == NULL || apWorker == NULL) {
    free(aWorker);
    free(apWorker);
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  for (int i = 0; i < nWorker; i++) apWorker[i] = &aWorker[i];
  job = (pipe_job){nChunk, nWorker, apWorker, w, writer_produce, writer_consume,
                   writer_progress};
  progress_begin(&w->prog, j->zName, "rows", j->nUnit, pOpt->bQuiet);
  rc = pipe_run(&job, zErr, nErr);
  if (rc == 0) progress_end(&w->prog, w->nRowDone);
  for (int i = 0; i < nWorker; i++) ssb_buf_free(&aWorker[i].b);
  free(aWorker);
  free(apWorker);
  return rc;
}

int ssb_job_write(const ssb_gen *g, const ssb_job *pJob, const ssb_options *pOpt,
                  int64_t *pnRow, int64_t *pnByte, char *zErr, size_t nErr) {
  char zFinal[PATH_MAX];
  writer w;
  int rc;

  memset(&w, 0, sizeof(w));
  w.g = g;
  w.pJob = pJob;
  writer_bTmp = 0;
  if ((size_t)snprintf(zFinal, sizeof(zFinal), "%s/%s.tbl", pOpt->zOutDir,
                       pJob->zName) >= sizeof(zFinal) - 4) {
    snprintf(zErr, nErr, "output path too long: %s", pOpt->zOutDir);
    return -1;
  }
  snprintf(writer_zTmp, sizeof(writer_zTmp), "%s.tmp", zFinal);
  w.fd = open(writer_zTmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (w.fd < 0) {
    snprintf(zErr, nErr, "open %s: %s", writer_zTmp, strerror(errno));
    return -1;
  }
  writer_bTmp = 1;

  rc = writer_run(&w, pOpt, zErr, nErr);
  if (close(w.fd) != 0 && rc == 0) {
    snprintf(zErr, nErr, "close %s: %s", writer_zTmp, strerror(errno));
    rc = -1;
  }
  if (rc == 0 && rename(writer_zTmp, zFinal) != 0) {
    snprintf(zErr, nErr, "rename %s: %s", writer_zTmp, strerror(errno));
    rc = -1;
  }
  if (rc != 0) {
    unlink(writer_zTmp);
  } else {
    *pnRow += w.nRowDone;
    *pnByte += w.nByteDone;
  }
  writer_bTmp = 0;
  return rc;
}
