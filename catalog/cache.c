/*
** catalog/cache.c — table definitions, column statistics and values
** files' headers kept in memory between reads.
**
** Reading a definition from SQLite takes several statements (columns,
** keys, foreign keys) and tens of microseconds; binding a star query reads
** five, and planning it reads the statistics of a dozen columns — each a
** statement prepared and stepped, which was most of a small query's
** planning time. So cat_table_get() and cat_stats_get() keep what they
** read and hand out copies, for as long as nothing can have changed: this
** handle has begun no write transaction (cat__begin_write bumps
** iWriteSeq) and no other connection has committed (PRAGMA data_version
** changes exactly then). cat_cache_hold() checks that once for a whole
** statement; every read until cat_cache_release() trusts it. Values
** files' headers (cat_file_info) are kept the same way. Nothing read
** inside a transaction is kept (cat__cache_busy): it may be this handle's
** own writes, which a rollback would take back. A stale entry is never
** served; at worst the cache is emptied when it need not be.
**
** INTERFACE ROUTINES
**   cat_cache_hold, cat_cache_release, cat_cache_generation, cat_file_info
** and, in catalogInt.h:
**   cat__cache_check, cat__cache_clear, cat__cache_free, cat__cache_busy
**   cat__cache_find, cat__cache_put            definitions
**   cat__stats_cache_get, cat__stats_cache_put statistics
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalogInt.h"

void cat__cache_clear(cat *pCat) {
  pCat->iCacheGen++;
  for (int i = 0; i < pCat->nCache; i++) cat_table_free(pCat->apCache[i]);
  pCat->nCache = 0;
  for (int i = 0; i < pCat->nStats; i++) stats_free(&pCat->aStats[i].s);
  pCat->nStats = 0;
  pCat->nInfo = 0;
}

void cat__cache_free(cat *pCat) {
  cat__cache_clear(pCat);
  free(pCat->apCache);
  free(pCat->aStats);
  free(pCat->aInfo);
  pCat->apCache = NULL;
  pCat->aStats = NULL;
  pCat->aInfo = NULL;
  pCat->nCacheAlloc = pCat->nStatsAlloc = pCat->nInfoAlloc = 0;
}

int cat__cache_busy(const cat *pCat) {
  return !sqlite3_get_autocommit(pCat->db);
}

int cat__cache_check(cat *pCat, char *zErr, size_t nErr) {
  int64_t iVersion;
  if (pCat->bHold && pCat->iWriteSeq == pCat->iCacheWriteSeq) return 0;
  if (pCat->pDataVersion == NULL &&
      cat__prepare(pCat, "PRAGMA data_version", &pCat->pDataVersion, zErr, nErr) != 0) {
    return -1;
  }
  if (cat__step(pCat, pCat->pDataVersion, zErr, nErr) != SQLITE_ROW) {
    sqlite3_reset(pCat->pDataVersion);
    return -1;
  }
  iVersion = sqlite3_column_int64(pCat->pDataVersion, 0);
  sqlite3_reset(pCat->pDataVersion);
  if (iVersion != pCat->iDataVersion || pCat->iWriteSeq != pCat->iCacheWriteSeq) {
    cat__cache_clear(pCat);
    pCat->iDataVersion = iVersion;
    pCat->iCacheWriteSeq = pCat->iWriteSeq;
  }
  return 0;
}

/* Makes room for one more element in *pa, an array of *pnAlloc elements
** of nSize bytes holding n. Returns 0, or -1 if memory ran out. */
static int cache_grow(void **pa, int n, int *pnAlloc, size_t nSize) {
  void *a;
  int nNew;
  if (n < *pnAlloc) return 0;
  nNew = *pnAlloc ? *pnAlloc * 2 : 16;
  if ((a = realloc(*pa, nSize * (size_t)nNew)) == NULL) return -1;
  *pa = a;
  *pnAlloc = nNew;
  return 0;
}

/* ---- definitions ------------------------------------------------------------ */

const cat_table *cat__cache_find(const cat *pCat, const char *zName) {
  for (int i = 0; i < pCat->nCache; i++) {
    if (strcasecmp(pCat->apCache[i]->zName, zName) == 0) return pCat->apCache[i];
  }
  return NULL;
}

void cat__cache_put(cat *pCat, const cat_table *t) {
  cat_table *pCopy;
  if (cat__cache_busy(pCat) ||
      cache_grow((void **)&pCat->apCache, pCat->nCache, &pCat->nCacheAlloc,
                 sizeof(pCat->apCache[0])) != 0) {
    return;
  }
  if ((pCopy = cat__table_clone(t)) != NULL) pCat->apCache[pCat->nCache++] = pCopy;
}

/* ---- statistics ------------------------------------------------------------- */

/* Copies src into *dst, its arrays duplicated. Returns 0, or -1 if memory
** ran out (*dst then owns nothing). */
static int cache_stats_copy(col_stats *dst, const col_stats *src) {
  *dst = *src;
  dst->aHll = NULL;
  dst->aFreq = NULL;
  if (src->aHll != NULL && (dst->aHll = malloc(STATS_HLL_SIZE)) == NULL) return -1;
  if (src->aHll != NULL) memcpy(dst->aHll, src->aHll, STATS_HLL_SIZE);
  if (src->nFreq > 0) {
    if ((dst->aFreq = malloc((size_t)src->nFreq * sizeof(uint64_t))) == NULL) {
      stats_free(dst);
      return -1;
    }
    memcpy(dst->aFreq, src->aFreq, (size_t)src->nFreq * sizeof(uint64_t));
  }
  return 0;
}

int cat__stats_cache_get(const cat *pCat, int64_t iTable, int iCol, col_stats *s) {
  if (cat__cache_busy(pCat)) return 0;
  for (int i = 0; i < pCat->nStats; i++) {
    const cat_stats_entry *e = &pCat->aStats[i];
    if (e->iTable == iTable && e->iCol == iCol) return cache_stats_copy(s, &e->s) == 0 ? 1 : -1;
  }
  return 0;
}

void cat__stats_cache_put(cat *pCat, int64_t iTable, int iCol, const col_stats *s) {
  cat_stats_entry *e;
  if (cat__cache_busy(pCat) ||
      cache_grow((void **)&pCat->aStats, pCat->nStats, &pCat->nStatsAlloc,
                 sizeof(pCat->aStats[0])) != 0) {
    return;
  }
  e = &pCat->aStats[pCat->nStats];
  e->iTable = iTable;
  e->iCol = iCol;
  if (cache_stats_copy(&e->s, s) == 0) pCat->nStats++;
}

/* ---- holding, and file headers ---------------------------------------------- */

int cat_cache_hold(cat *pCat, char *zErr, size_t nErr) {
  pCat->bHold = 0;
  if (cat__cache_check(pCat, zErr, nErr) != 0) return -1;
  pCat->bHold = 1;
  return 0;
}

void cat_cache_release(cat *pCat) {
  pCat->bHold = 0;
}

uint64_t cat_cache_generation(const cat *pCat) {
  /* +1: a handle whose cache was never emptied is at generation 1, and 0
  ** stays free to mean "keep nothing". */
  return pCat->bHold && !cat__cache_busy(pCat) ? pCat->iCacheGen + 1 : 0;
}

int cat_file_info(cat *pCat, const cat_table *t, int64_t iGen, int iCol, store_enc *peEnc,
                  uint64_t *pnPayload, char *zErr, size_t nErr) {
  char zPath[4096];
  cat_info_entry *e;
  if (cat__cache_check(pCat, zErr, nErr) != 0) return -1;
  for (int i = 0; !cat__cache_busy(pCat) && i < pCat->nInfo; i++) {
    e = &pCat->aInfo[i];
    if (e->iTable == t->iId && e->iGen == iGen && e->iCol == iCol) {
      *peEnc = e->eEnc;
      *pnPayload = e->nPayload;
      return 0;
    }
  }
  if (cat_file_path(pCat, t, iGen, iCol, STORE_VALUES, zPath, sizeof(zPath)) == NULL) {
    snprintf(zErr, nErr, "the path of column %d of \"%s\" is too long", iCol, t->zName);
    return -1;
  }
  if (store_file_info(zPath, peEnc, pnPayload, zErr, nErr) != 0) return -1;
  if (!cat__cache_busy(pCat) &&
      cache_grow((void **)&pCat->aInfo, pCat->nInfo, &pCat->nInfoAlloc,
                 sizeof(pCat->aInfo[0])) == 0) {
    e = &pCat->aInfo[pCat->nInfo++];
    e->iTable = t->iId;
    e->iGen = iGen;
    e->iCol = iCol;
    e->eEnc = *peEnc;
    e->nPayload = *pnPayload;
  }
  return 0;
}
