/*
** runtime/colmem-preload.c — pinning every table's column files at start
** (colmem_preload, within starqd --pinned-budget): smallest tables first, so the budget
** goes to the dimensions every star join probes before the fact table, with
** progress. Each file is pinned through colmem__pin_file, the column
** cache's one entry for it (runtime/colmem.c owns the cache and its lock).
**
** INTERFACE ROUTINES
**   colmem_preload     pin the catalog's tables within the pinned budget
*/
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "../common/progress.h"
#include "colmem.h"
#include "colmemInt.h"

typedef struct colmem_table colmem_table;
struct colmem_table {
  cat_table *t;
  uint64_t nByte;          /* its value and validity files */
};

static int colmem_table_cmp(const void *a, const void *b) {
  uint64_t x = ((const colmem_table *)a)->nByte, y = ((const colmem_table *)b)->nByte;
  return x < y ? -1 : x > y;
}

/* The bytes of file iCol/eKind of t, its path in zPath (nPath bytes); 0
** when it does not exist. */
static uint64_t colmem_file_bytes(cat *pCat, const cat_table *t, int iCol, store_kind eKind,
                                  char *zPath, size_t nPath) {
  struct stat st;
  if (cat_file_path(pCat, t, t->iGen, iCol, eKind, zPath, nPath) == NULL) return 0;
  return stat(zPath, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* Pins one table's files within the budget. */
static int colmem_preload_table(colmem *cm, cat *pCat, const colmem_table *ct, progress *pg,
                                uint64_t *pnDone, uint64_t *pnPinnedOut, char *zErr, size_t nErr) {
  const cat_table *t = ct->t;
  for (int i = 0; i < t->nCol; i++) {
    for (int k = 0; k < 2; k++) {
      store_kind eKind = k == 0 ? STORE_VALUES : STORE_VALIDITY;
      char zPath[4096];
      uint64_t nPinned, n = colmem_file_bytes(pCat, t, i, eKind, zPath, sizeof(zPath));
      if (n == 0) continue;
      if (colmem__pin_file(cm, t, zPath, eKind, &nPinned, zErr, nErr) != 0) return -1;
      *pnDone += n;
      *pnPinnedOut = nPinned;
      progress_show(pg, (int64_t)*pnDone, (int64_t)nPinned);
    }
  }
  return 0;
}

int64_t colmem_preload(colmem *cm, cat *pCat, int bQuiet, char *zErr, size_t nErr) {
  char **azName = NULL;
  int nName = 0, rc = 0;
  colmem_table *a;
  uint64_t nTotal = 0, nDone = 0, nPinned = 0;
  progress pg;
  if (cat_table_names(pCat, &azName, &nName, zErr, nErr) != 0) return -1;
  if ((a = calloc((size_t)nName + 1, sizeof(*a))) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    rc = -1;
  }
  for (int i = 0; rc == 0 && i < nName; i++) {
    if (cat_table_get(pCat, azName[i], &a[i].t, zErr, nErr) != 0) {
      rc = -1;
      break;
    }
    for (int j = 0; a[i].t->iGen > 0 && j < a[i].t->nCol; j++) {
      char zPath[4096];
      a[i].nByte += colmem_file_bytes(pCat, a[i].t, j, STORE_VALUES, zPath, sizeof(zPath));
      a[i].nByte += colmem_file_bytes(pCat, a[i].t, j, STORE_VALIDITY, zPath, sizeof(zPath));
    }
    nTotal += a[i].nByte;
  }
  if (rc == 0) {
    qsort(a, (size_t)nName, sizeof(*a), colmem_table_cmp);
    progress_begin(&pg, "pinning columns", "bytes pinned", nTotal > 0 ? (int64_t)nTotal : 1, bQuiet);
    for (int i = 0; rc == 0 && i < nName; i++) {
      if (a[i].t->iGen > 0) rc = colmem_preload_table(cm, pCat, &a[i], &pg, &nDone, &nPinned, zErr,
                                                      nErr);
    }
    if (rc == 0) progress_end(&pg, (int64_t)nPinned);
  }
  for (int i = 0; a != NULL && i < nName; i++) cat_table_free(a[i].t);
  for (int i = 0; i < nName; i++) free(azName[i]);
  free(azName);
  free(a);
  return rc == 0 ? (int64_t)nPinned : -1;
}
