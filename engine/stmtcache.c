/*
** engine/stmtcache.c — prepared statements kept per slot (a catalog
** handle): a SELECT parsed, bound, planned and generated once, and run
** again as it is when the same statement comes back. A repeated statement
** then costs a lookup and its run, not parse, bind, cost model, plan and
** codegen (about a fifth of a millisecond of host time, bench/RESULTS.md).
**
** What a hit must match, all of it, or the statement is prepared afresh:
**   - the key: the SELECT's text byte for byte, then its parameters'
**     values (a plan's estimates follow its literals);
**   - the options that change plans: exec_options.bNoResident (the cost
**     model reads fact columns from pinned memory instead of device
**     memory: SET starq.resident);
**   - the catalog handle's cache generation (cat_cache_generation): a
**     load, DDL or new statistics committed by anyone empties that cache
**     and so every statement kept with it. Nothing is kept while the
**     handle is in a transaction.
**
** One cache per slot, used by the thread that holds the slot: no locking.
** At most STMTCACHE_MAX statements, the least recently used dropped first.
** A statement stmtcache_find returned, or stmtcache_put kept, stays valid
** until the next find or put on the cache: the slot holder's one
** statement.
**
** INTERFACE ROUTINES (engineInt.h)
**   stmtcache_open, stmtcache_close
**   stmtcache_find     the kept statement for a key, options, generation
**   stmtcache_put      keep a prepared one
**   stmtcache_hash
*/
#include <stdlib.h>
#include <string.h>

#include "../common/hash128.h"
#include "engineInt.h"

/* Statements kept per slot, at most: the 13 SSB queries and their
** EXPLAINs fit with room. A kept statement holds its generated source
** (about 40 KB: the device library is in it). */
#define STMTCACHE_MAX 32

struct stmtcache {
  uint64_t iGen;           /* the catalog generation the statements are of */
  uint64_t iClock;         /* bumped per find and put, for LRU */
  int n;
  engine_stmt *a[STMTCACHE_MAX];
};

uint64_t stmtcache_hash(const char *zKey, size_t nKey, int bNoResident) {
  return hash128_of(zKey, nKey, (uint32_t)bNoResident).h1;
}

int stmtcache_open(stmtcache **pp) {
  *pp = calloc(1, sizeof(stmtcache));
  return *pp != NULL ? 0 : -1;
}

/* Drops every statement. */
static void stmtcache_clear(stmtcache *c) {
  for (int i = 0; i < c->n; i++) engine__stmt_free(c->a[i]);
  c->n = 0;
}

void stmtcache_close(stmtcache *c) {
  if (c == NULL) return;
  stmtcache_clear(c);
  free(c);
}

/* Drops everything kept at another generation than iGen's. Returns 0 if
** nothing may be kept now (iGen 0). */
static int stmtcache_generation(stmtcache *c, uint64_t iGen) {
  if (iGen != c->iGen) {
    stmtcache_clear(c);
    c->iGen = iGen;
  }
  return iGen != 0;
}

engine_stmt *stmtcache_find(stmtcache *c, cat *pCat, const char *zKey, size_t nKey,
                            int bNoResident) {
  uint64_t h;
  if (c == NULL || !stmtcache_generation(c, cat_cache_generation(pCat))) return NULL;
  h = stmtcache_hash(zKey, nKey, bNoResident);
  for (int i = 0; i < c->n; i++) {
    engine_stmt *p = c->a[i];
    if (p->h == h && p->bNoResident == bNoResident && p->nKey == nKey &&
        memcmp(p->zKey, zKey, nKey) == 0) {
      p->iUsed = ++c->iClock;
      return p;
    }
  }
  return NULL;
}

int stmtcache_put(stmtcache *c, cat *pCat, engine_stmt *p) {
  int iOld = 0;
  if (c == NULL || !stmtcache_generation(c, cat_cache_generation(pCat))) return 0;
  p->iUsed = ++c->iClock;
  if (c->n < STMTCACHE_MAX) {
    c->a[c->n++] = p;
    return 1;
  }
  for (int i = 1; i < c->n; i++) {
    if (c->a[i]->iUsed < c->a[iOld]->iUsed) iOld = i;
  }
  engine__stmt_free(c->a[iOld]);
  c->a[iOld] = p;
  return 1;
}
