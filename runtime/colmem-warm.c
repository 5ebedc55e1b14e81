/*
** runtime/colmem-warm.c — filling the device-resident cache in the
** background from the moment the worker is ready (colmem_warm_start), so
** that the first query after a start waits at most for the columns it
** reads, not for an upload of everything it touches (issue 28: 168 ms for
** Q1.1 at SF 20 as a server's first query, 0.48 ms warm).
**
** Order: every column gains the same per byte from being resident (its
** bytes read at device speed instead of over PCIe, each time it is
** scanned), and a query needs all of its columns, so what matters is how
** many columns are ready soonest: files smallest first — the dimensions,
** then the fact table's narrowest columns. The warm-up only takes free
** room in the device budget: it evicts nothing (a column it loads has
** been scanned by no one, so colmem's make-room rule lets it push out no
** column that has). A query that wants a column being warmed waits for
** that one copy (colmem's bLoading), and one it reaches first it copies
** itself, as without a warm-up; while a query copies, the warm-up waits
** before its next file (colmem__warm_yield), so a query shares PCIe with
** one warm-up file at most. (Measured on the H200 at SF 20 without the
** yield: a server's first query 44 ms against 19 with no warm-up.)
**
** The list of files is taken from the catalog by the caller's thread; the
** warm-up thread reads only its own copies of the tables, never the
** catalog (whose connection is not the thread's). colmem_close stops it
** between two files and joins it before anything it uses is freed.
**
** INTERFACE ROUTINES
**   colmem_warm_start   start the warm-up thread (colmem.h)
**   colmem__warm_stop, colmem__warm_stats  (colmemInt.h: colmem.c's calls)
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/log.h"
#include "colmem.h"
#include "colmemInt.h"

typedef struct warm_file warm_file;
struct warm_file {
  const cat_table *t;      /* one of colmem_warm.apTable */
  char *zPath;
  store_kind eKind;
  uint64_t nByte;
};

struct colmem_warm {
  colmem *cm;
  pthread_t th;
  int bThread;             /* th was started */
  cat_table **apTable;     /* the tables' snapshots, owned */
  int nTable;
  warm_file *aFile;        /* in warm order */
  int nFile;
  atomic_int bStop;
  atomic_int eState;       /* COLMEM_WARM_* */
  _Atomic uint64_t nDone;  /* bytes of files done (loaded or skipped) */
  uint64_t nTotal;
  colmem_warm_fn xDone;
  void *pArg;
};

static int warm_file_cmp(const void *a, const void *b) {
  uint64_t x = ((const warm_file *)a)->nByte, y = ((const warm_file *)b)->nByte;
  return x < y ? -1 : x > y;
}

static void warm_free(colmem_warm *w) {
  if (w == NULL) return;
  for (int i = 0; i < w->nFile; i++) free(w->aFile[i].zPath);
  for (int i = 0; i < w->nTable; i++) cat_table_free(w->apTable[i]);
  free(w->aFile);
  free(w->apTable);
  free(w);
}

/* Adds t's files that exist to w's list. Returns 0, or -1 with zErr. */
static int warm_table_add(colmem_warm *w, cat *pCat, const cat_table *t, char *zErr, size_t nErr) {
  for (int i = 0; i < t->nCol; i++) {
    for (int k = 0; k < 2; k++) {
      store_kind eKind = k == 0 ? STORE_VALUES : STORE_VALIDITY;
      char zPath[4096];
      struct stat st;
      warm_file *f;
      if (cat_file_path(pCat, t, t->iGen, i, eKind, zPath, sizeof(zPath)) == NULL) continue;
      if (stat(zPath, &st) != 0 || st.st_size == 0) continue;
      f = &w->aFile[w->nFile];
      if ((f->zPath = strdup(zPath)) == NULL) {
        snprintf(zErr, nErr, "out of memory");
        return -1;
      }
      f->t = t;
      f->eKind = eKind;
      f->nByte = (uint64_t)st.st_size;
      w->nTotal += f->nByte;
      w->nFile++;
    }
  }
  return 0;
}

/* Builds the list: every file of every table with data, smallest first. */
static int warm_list(colmem_warm *w, cat *pCat, char *zErr, size_t nErr) {
  char **azName = NULL;
  int nName = 0, nSlot = 0, rc = 0;
  if (cat_table_names(pCat, &azName, &nName, zErr, nErr) != 0) return -1;
  if ((w->apTable = calloc((size_t)nName + 1, sizeof(*w->apTable))) == NULL) rc = -1;
  for (int i = 0; rc == 0 && i < nName; i++) {
    if (cat_table_get(pCat, azName[i], &w->apTable[w->nTable], zErr, nErr) != 0) {
      rc = -1;
      break;
    }
    nSlot += 2 * w->apTable[w->nTable++]->nCol;
  }
  if (rc == 0 && (w->aFile = calloc((size_t)nSlot + 1, sizeof(*w->aFile))) == NULL) rc = -1;
  for (int i = 0; rc == 0 && i < w->nTable; i++) {
    if (w->apTable[i]->iGen > 0) rc = warm_table_add(w, pCat, w->apTable[i], zErr, nErr);
  }
  if (rc == 0) qsort(w->aFile, (size_t)w->nFile, sizeof(*w->aFile), warm_file_cmp);
  else if (zErr[0] == '\0') snprintf(zErr, nErr, "out of memory");
  for (int i = 0; i < nName; i++) free(azName[i]);
  free(azName);
  return rc;
}

static void *warm_main(void *pArg) {
  colmem_warm *w = pArg;
  uint64_t nLoaded = 0;
  int nFile = 0;
  for (int i = 0; i < w->nFile && !atomic_load(&w->bStop); i++) {
    const warm_file *f = &w->aFile[i];
    char zErr[512] = "";
    int rc;
    colmem__warm_yield(w->cm, &w->bStop);
    if (atomic_load(&w->bStop)) break;
    rc = colmem__warm_file(w->cm, f->t, f->zPath, f->eKind, zErr, sizeof(zErr));
    if (rc < 0) {
      /* The device is lost (or the file went away): the queries will say
      ** so; the warm-up just ends. */
      log_printf(LOG_LEVEL_WARN, "colmem: the warm-up stops at %s: %s", f->zPath, zErr);
      break;
    }
    if (rc == 1) {
      nLoaded += f->nByte;
      nFile++;
    }
    atomic_fetch_add(&w->nDone, f->nByte);
  }
  if (!atomic_load(&w->bStop)) {
    log_printf(LOG_LEVEL_INFO, "colmem: warm: %d column files (%.1f MB of files) copied to the "
               "device in the background", nFile, (double)nLoaded / 1e6);
  }
  atomic_store(&w->eState, COLMEM_WARM_DONE);
  if (w->xDone != NULL && !atomic_load(&w->bStop)) w->xDone(w->pArg);
  return NULL;
}

int colmem_warm_start(colmem *cm, cat *pCat, colmem_warm_fn xDone, void *pArg, char *zErr,
                      size_t nErr) {
  colmem_warm *w;
  int rc;
  zErr[0] = '\0';
  if (!colmem__warm_wanted(cm)) return 0;
  if ((w = calloc(1, sizeof(*w))) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  w->cm = cm;
  w->xDone = xDone;
  w->pArg = pArg;
  atomic_init(&w->bStop, 0);
  atomic_init(&w->eState, COLMEM_WARM_RUNNING);
  atomic_init(&w->nDone, 0);
  if (warm_list(w, pCat, zErr, nErr) != 0) {
    warm_free(w);
    return -1;
  }
  if ((rc = pthread_create(&w->th, NULL, warm_main, w)) != 0) {
    snprintf(zErr, nErr, "pthread_create: %s", strerror(rc));
    warm_free(w);
    return -1;
  }
  w->bThread = 1;
  if (colmem__warm_set(cm, w) != 0) {
    colmem__warm_stop(w);
    snprintf(zErr, nErr, "a warm-up is running already");
    return -1;
  }
  return 0;
}

void colmem__warm_stop(colmem_warm *w) {
  if (w == NULL) return;
  atomic_store(&w->bStop, 1);
  if (w->bThread) pthread_join(w->th, NULL);
  warm_free(w);
}

void colmem__warm_stats(colmem_warm *w, colmem_stats *p) {
  if (w == NULL) {
    p->eWarm = COLMEM_WARM_NONE;
    p->nWarmDone = p->nWarmTotal = 0;
    return;
  }
  p->eWarm = atomic_load(&w->eState);
  p->nWarmDone = atomic_load(&w->nDone);
  p->nWarmTotal = w->nTotal;
}
