/*
** catalog/cache.c — table definitions kept in memory between reads.
**
** Reading a definition from SQLite takes several statements (columns,
** keys, foreign keys) and tens of microseconds; binding a star query reads
** five. So cat_table_get() keeps what it read and hands out copies, for as
** long as nothing can have changed: this handle has begun no write
** transaction (cat__begin_write bumps iWriteSeq) and no other connection
** has committed (PRAGMA data_version changes exactly then). A stale entry
** is never served; at worst the cache is emptied when it need not be.
*/
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalogInt.h"

void cat__cache_clear(cat *pCat) {
  for (int i = 0; i < pCat->nCache; i++) cat_table_free(pCat->apCache[i]);
  pCat->nCache = 0;
}

int cat__cache_check(cat *pCat, char *zErr, size_t nErr) {
  int64_t iVersion;
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

const cat_table *cat__cache_find(const cat *pCat, const char *zName) {
  for (int i = 0; i < pCat->nCache; i++) {
    if (strcasecmp(pCat->apCache[i]->zName, zName) == 0) return pCat->apCache[i];
  }
  return NULL;
}

void cat__cache_put(cat *pCat, const cat_table *t) {
  cat_table *pCopy;
  if (pCat->nCache == pCat->nCacheAlloc) {
    int nNew = pCat->nCacheAlloc ? pCat->nCacheAlloc * 2 : 16;
    cat_table **a = realloc(pCat->apCache, sizeof(*a) * (size_t)nNew);
    if (a == NULL) return;
    pCat->apCache = a;
    pCat->nCacheAlloc = nNew;
  }
  if ((pCopy = cat__table_clone(t)) != NULL) pCat->apCache[pCat->nCache++] = pCopy;
}
