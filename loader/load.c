/*
** loader/load.c — load_file(): a text file into a table, in parallel.
**
** The pieces of the file are the chunks of a feed (feed.h): each is
** parsed into a batch on some thread and handed to the sink in file
** order. Pieces are a few megabytes, so parsing on every core overlaps
** the sink's appends and a worker's batch stays small.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/progress.h"
#include "../common/timer.h"
#include "load.h"
#include "feed.h"
#include "sink.h"

#define LOAD_PIECE_MIN (1u << 20)
#define LOAD_PIECE_MAX (8u << 20)
#define LOAD_THREAD_MAX 256

/* One load; read-only to the parsing threads. */
typedef struct load_ctx load_ctx;
struct load_ctx {
  const char *zPath;
  const char *z;           /* the mapped file */
  size_t n;
  const load_options *pOpt;
  const cat_table *t;
  size_t *aBound;          /* piece i is z[aBound[i] .. aBound[i+1]) */
  load_sink *pSink;
  int64_t nRowDone;        /* rows in the sink, once the feed is done */
  progress prog;           /* drawn by the main thread only */
};

void load_options_default(load_options *pOpt, load_format eFormat) {
  memset(pOpt, 0, sizeof(*pOpt));
  pOpt->text.eFormat = eFormat;
  pOpt->text.cDelim = eFormat == LOAD_CSV ? ',' : '|';
  pOpt->text.cQuote = '"';
}

/* Returns the 1-based line number of byte iOff of z. */
static int64_t load_line_of(const char *z, size_t iOff) {
  int64_t nLine = 1;
  const char *p = z, *pEnd = z + iOff;
  while ((p = memchr(p, '\n', (size_t)(pEnd - p))) != NULL) {
    nLine++;
    p++;
  }
  return nLine;
}

/* Formats a parse error as FILE:LINE: column NAME: found "X", expected Y. */
static void load_error_format(const load_ctx *x, const load_text_error *e, char *zErr,
                              size_t nErr) {
  int64_t iLine = load_line_of(x->z, e->iOffset < x->n ? e->iOffset : x->n);
  if (e->iCol >= 0 && e->iCol < x->t->nCol) {
    snprintf(zErr, nErr, "%s:%lld: column %s: found \"%s\", expected %s", x->zPath,
             (long long)iLine, x->t->aCol[e->iCol].zName, e->zFound, e->zExpected);
  } else {
    snprintf(zErr, nErr, "%s:%lld: found \"%s\", expected %s", x->zPath, (long long)iLine,
             e->zFound, e->zExpected);
  }
}

/* Parses piece iPiece into b. */
static int load_fill(void *pCtx, load_batch *b, int64_t iPiece, char *zErr, size_t nErr) {
  load_ctx *x = pCtx;
  load_text_error e;
  memset(&e, 0, sizeof(e));
  if (load_text_parse(x->z, x->aBound[iPiece], x->aBound[iPiece + 1], &x->pOpt->text, x->t,
                      b, &e) != 0) {
    load_error_format(x, &e, zErr, nErr);
    return -1;
  }
  return 0;
}

static void load_progress(void *pCtx, int64_t nDone, int64_t nRow) {
  load_ctx *x = pCtx;
  progress_show(&x->prog, (int64_t)x->aBound[nDone], nRow);
}

/* Maps zPath read-only. An empty file maps to NULL with *pn = 0. */
static int load_map(const char *zPath, const char **pz, size_t *pn, char *zErr, size_t nErr) {
  struct stat st;
  int fd = open(zPath, O_RDONLY | O_CLOEXEC);
  void *p;
  if (fd < 0) {
    snprintf(zErr, nErr, "open %s: %s", zPath, strerror(errno));
    return -1;
  }
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(zErr, nErr, "%s: not a regular file", zPath);
    close(fd);
    return -1;
  }
  *pn = (size_t)st.st_size;
  *pz = NULL;
  if (*pn > 0) {
    p = mmap(NULL, *pn, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      snprintf(zErr, nErr, "mmap %s: %s", zPath, strerror(errno));
      close(fd);
      return -1;
    }
    madvise(p, *pn, MADV_SEQUENTIAL | MADV_WILLNEED);
    *pz = p;
  }
  close(fd);
  return 0;
}

/* Cuts the mapped file into pieces and feeds them to the open sink. */
static int load_run(load_ctx *x, int nThread, char *zErr, size_t nErr) {
  size_t nPieceByte = x->n / ((size_t)nThread * 4) + 1;
  int64_t nPiece;
  load_text_error e;
  int rc = -1;

  if (nPieceByte < LOAD_PIECE_MIN) nPieceByte = LOAD_PIECE_MIN;
  if (nPieceByte > LOAD_PIECE_MAX) nPieceByte = LOAD_PIECE_MAX;
  nPiece = (int64_t)((x->n + nPieceByte - 1) / nPieceByte);
  if (nPiece < 1) nPiece = 1;
  x->aBound = calloc((size_t)nPiece + 1, sizeof(size_t));
  if (x->aBound == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  memset(&e, 0, sizeof(e));
  if (load_text_split(x->z, x->n, &x->pOpt->text, (int)nPiece, x->aBound, &e) != 0) {
    load_error_format(x, &e, zErr, nErr);
  } else {
    /* Rows a piece holds, roughly: no table's rows are under 64 bytes. */
    load_feed f = {x->pSink, x->t, nPiece, nThread, (int64_t)(nPieceByte / 64), x,
                   load_fill, load_progress};
    rc = load_feed_run(&f, &x->nRowDone, zErr, nErr);
  }
  free(x->aBound);
  x->aBound = NULL;
  return rc;
}

int load_file(cat *pCat, const char *zTable, const char *zPath,
              const load_options *pOpt, load_report *pRep, char *zErr, size_t nErr) {
  double t0 = timer_now();
  int nThread = pOpt->nThread;
  cat_table *t = NULL;
  load_ctx x;
  int rc = -1;

  memset(&x, 0, sizeof(x));
  memset(pRep, 0, sizeof(*pRep));
  if (nThread <= 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    nThread = n < 1 ? 1 : (int)n;
  }
  if (nThread > LOAD_THREAD_MAX) nThread = LOAD_THREAD_MAX;
  if (cat_table_get(pCat, zTable, &t, zErr, nErr) != 0) return -1;
  if (load_map(zPath, &x.z, &x.n, zErr, nErr) != 0) goto out_table;
  x.zPath = zPath;
  x.pOpt = pOpt;
  x.t = t;
  if (load_sink_open(&x.pSink, pCat, t, pOpt->bAppend, zErr, nErr) != 0) goto out_unmap;
  load_sink_set_compress(x.pSink, pOpt->bNoCompress ? LOAD_COMPRESS_OFF : LOAD_COMPRESS_AUTO);
  progress_begin(&x.prog, t->zName, "rows", (int64_t)(x.n ? x.n : 1), pOpt->bQuiet);
  if (load_run(&x, nThread, zErr, nErr) != 0) {
    load_sink_abort(x.pSink);
    goto out_unmap;
  }
  if (load_sink_commit(x.pSink, &pRep->nRowTable, zErr, nErr) != 0) goto out_unmap;
  progress_end(&x.prog, x.nRowDone);
  pRep->nRowLoaded = x.nRowDone;
  pRep->nByte = (int64_t)x.n;
  pRep->rSeconds = timer_now() - t0;
  rc = 0;
out_unmap:
  if (x.z != NULL) munmap((void *)x.z, x.n);
out_table:
  cat_table_free(t);
  return rc;
}
