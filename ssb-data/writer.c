/*
** ssb-data/writer.c — the ordered parallel writer of writer.h.
**
** Threads share one mutex and one condition variable. A thread claims the
** next chunk number, formats that chunk with no lock held, then waits until
** the file has reached its chunk and writes it, again with no lock held:
** only the thread whose turn it is touches the file. While it writes, the
** others format, so text generation and I/O overlap. The first error stops
** every thread; the main thread only draws progress and joins.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/progress.h"
#include "writer.h"

#define WRITER_THREAD_MAX 1024

/* The shared state of one table's write. Fields below mu are guarded by it. */
typedef struct writer writer;
struct writer {
  const ssb_gen *g;
  const ssb_job *pJob;
  int fd;                  /* the .tmp file */
  int64_t nChunk;          /* chunks in the table */
  pthread_mutex_t mu;
  pthread_cond_t cv;       /* signalled whenever a field below changes */
  int64_t iNextTake;       /* next chunk to claim */
  int64_t iNextWrite;      /* next chunk the file expects */
  int64_t nUnitDone;       /* units written */
  int64_t nRowDone;        /* rows written */
  int64_t nByteDone;       /* bytes written */
  int nRunning;            /* threads not yet finished */
  int rc;                  /* 0, or -1 after the first error */
  char zErr[256];          /* that error */
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

/* Records the first error; later ones are consequences. Caller holds mu. */
static void writer__fail(writer *w, const char *zMsg) {
  if (w->rc == 0) {
    w->rc = -1;
    snprintf(w->zErr, sizeof(w->zErr), "%s", zMsg);
  }
  pthread_cond_broadcast(&w->cv);
}

static int writer_write_all(int fd, const char *z, size_t n) {
  while (n > 0) {
    ssize_t k = write(fd, z, n);
    if (k < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    z += k;
    n -= (size_t)k;
  }
  return 0;
}

static void *writer_thread(void *pArg) {
  writer *w = pArg;
  const ssb_job *j = w->pJob;
  ssb_buf b = {NULL, 0, 0};

  for (;;) {
    int64_t k, iFirst, nUnit, nRow = 0;
    int rc, iErrno;

    pthread_mutex_lock(&w->mu);
    if (w->rc != 0 || w->iNextTake >= w->nChunk) {
      pthread_mutex_unlock(&w->mu);
      break;
    }
    k = w->iNextTake++;
    pthread_mutex_unlock(&w->mu);

    iFirst = j->iFirst + k * j->nPerChunk;
    nUnit = j->nUnit - k * j->nPerChunk;
    if (nUnit > j->nPerChunk) nUnit = j->nPerChunk;
    b.n = 0;
    rc = 0;
    for (int64_t i = iFirst; i < iFirst + nUnit && rc == 0; i++) {
      rc = j->xUnit(w->g, i, &b, &nRow);
    }

    pthread_mutex_lock(&w->mu);
    if (rc != 0) writer__fail(w, "out of memory formatting rows");
    while (w->rc == 0 && w->iNextWrite != k) pthread_cond_wait(&w->cv, &w->mu);
    rc = w->rc;
    pthread_mutex_unlock(&w->mu);
    if (rc != 0) break;

    rc = writer_write_all(w->fd, b.z, b.n);
    iErrno = errno;

    pthread_mutex_lock(&w->mu);
    if (rc != 0) {
      char zMsg[256];
      snprintf(zMsg, sizeof(zMsg), "write %s.tbl.tmp: %s", j->zName, strerror(iErrno));
      writer__fail(w, zMsg);
    } else {
      w->iNextWrite++;
      w->nUnitDone += nUnit;
      w->nRowDone += nRow;
      w->nByteDone += (int64_t)b.n;
      pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
  }

  ssb_buf_free(&b);
  pthread_mutex_lock(&w->mu);
  w->nRunning--;
  pthread_cond_broadcast(&w->cv);
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

/* Runs the threads and draws progress until all have finished. */
static void writer_run(writer *w, const ssb_options *pOpt) {
  pthread_t aThread[WRITER_THREAD_MAX];
  int nThread = pOpt->nThread < 1 ? 1 : pOpt->nThread;
  int nStarted = 0;
  progress prog;

  if (nThread > WRITER_THREAD_MAX) nThread = WRITER_THREAD_MAX;
  if (nThread > w->nChunk) nThread = w->nChunk > 0 ? (int)w->nChunk : 1;
  progress_begin(&prog, w->pJob->zName, "rows", w->pJob->nUnit, pOpt->bQuiet);

  pthread_mutex_lock(&w->mu);
  for (int i = 0; i < nThread; i++) {
    if (pthread_create(&aThread[i], NULL, writer_thread, w) != 0) break;
    nStarted++;
    w->nRunning++;
  }
  if (nStarted == 0) writer__fail(w, "pthread_create: cannot start a thread");
  while (w->nRunning > 0) {
    struct timespec ts;
    int64_t nUnit, nRow;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 100 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(&w->cv, &w->mu, &ts);
    nUnit = w->nUnitDone;
    nRow = w->nRowDone;
    pthread_mutex_unlock(&w->mu);
    progress_show(&prog, nUnit, nRow);
    pthread_mutex_lock(&w->mu);
  }
  pthread_mutex_unlock(&w->mu);
  for (int i = 0; i < nStarted; i++) pthread_join(aThread[i], NULL);
  if (w->rc == 0) progress_end(&prog, w->nRowDone);
}

int ssb_job_write(const ssb_gen *g, const ssb_job *pJob, const ssb_options *pOpt,
                  int64_t *pnRow, int64_t *pnByte, char *zErr, size_t nErr) {
  char zFinal[PATH_MAX];
  writer w;

  memset(&w, 0, sizeof(w));
  w.g = g;
  w.pJob = pJob;
  w.nChunk = (pJob->nUnit + pJob->nPerChunk - 1) / pJob->nPerChunk;
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
  pthread_mutex_init(&w.mu, NULL);
  pthread_cond_init(&w.cv, NULL);

  writer_run(&w, pOpt);

  if (close(w.fd) != 0 && w.rc == 0) {
    snprintf(w.zErr, sizeof(w.zErr), "close %s: %s", writer_zTmp, strerror(errno));
    w.rc = -1;
  }
  if (w.rc == 0 && rename(writer_zTmp, zFinal) != 0) {
    snprintf(w.zErr, sizeof(w.zErr), "rename %s: %s", writer_zTmp, strerror(errno));
    w.rc = -1;
  }
  if (w.rc != 0) {
    unlink(writer_zTmp);
    snprintf(zErr, nErr, "%s", w.zErr);
  } else {
    *pnRow += w.nRowDone;
    *pnByte += w.nByteDone;
  }
  writer_bTmp = 0;
  pthread_cond_destroy(&w.cv);
  pthread_mutex_destroy(&w.mu);
  return w.rc;
}
