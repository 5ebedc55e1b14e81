/*
** worker/stmtcache.c — the device worker's statement cache: a SELECT
** parsed, bound, planned and generated once, and run again as it is when
** the same text comes back. A repeated statement then costs a lookup and
** exec_select, not parse, bind, cost model, plan and codegen (about a
** fifth of a millisecond of host time on the H100's host, issue 10).
**
** What a hit must match, all of it, or the statement is prepared afresh:
**   - the SQL text, byte for byte (literals included: a plan's estimates,
**     and so its predicate order and table sizes, follow its literals, so
**     a statement that differs in a constant is planned again; its kernels
**     still come from the module cache, literals being kernel parameters);
**   - the options that change plans: exec_options.bNoResident (the cost
**     model reads fact columns from pinned memory instead of device
**     memory: SET starq.resident);
**   - the catalog handle's cache generation (cat_cache_generation): a
**     load, DDL, new statistics or a calibration committed by anyone
**     empties that cache and so every statement kept with it. Nothing is
**     kept while the handle is in a transaction.
** A kept plan owns everything it points at (the catalog hands out copies
** of table definitions; the SQL is the entry's own copy, which its AST
** points into), so it outlives the catalog's own cache; exec_select only
** reads it (const), so running it again cannot change it.
**
** One cache per catalog handle, used by the thread that holds the handle
** (serve.c's slots): no locking. At most STMTCACHE_MAX statements, the
** least recently used dropped first. An entry stmtcache_find returned, or
** stmtcache_put kept, stays valid until the next find or put on the cache:
** the runner's one query.
**
** INTERFACE ROUTINES (workerInt.h)
**   stmtcache_open, stmtcache_close
**   stmtcache_find     the kept statement for a text, options, generation
**   stmtcache_entry_new, stmtcache_entry_free   one being prepared
**   stmtcache_put      keep a prepared one
*/
#include <stdlib.h>
#include <string.h>

#include "../common/hash128.h"
#include "workerInt.h"

/* Statements kept per catalog handle, at most: the 13 SSB queries and
** their EXPLAINs' SELECTs fit with room. A kept statement holds its
** generated source (about 40 KB: the device library is in it). */
#define STMTCACHE_MAX 32

struct stmtcache {
  uint64_t iGen;           /* the catalog generation the entries are of */
  uint64_t iClock;         /* bumped per find and put, for LRU */
  int n;
  stmtcache_entry *a[STMTCACHE_MAX];
};

/* The hash of a statement's text and options. */
static uint64_t stmtcache_hash(const char *zSql, size_t nSql, int bNoResident) {
  return hash128_of(zSql, nSql, (uint32_t)bNoResident).h1;
}

int stmtcache_open(stmtcache **pp) {
  *pp = calloc(1, sizeof(stmtcache));
  return *pp != NULL ? 0 : -1;
}

/* Drops every entry. */
static void stmtcache_clear(stmtcache *c) {
  for (int i = 0; i < c->n; i++) stmtcache_entry_free(c->a[i]);
  c->n = 0;
}

void stmtcache_close(stmtcache *c) {
  if (c == NULL) return;
  stmtcache_clear(c);
  free(c);
}

/* The options of pOpt a plan depends on. */
static int stmtcache_no_resident(const exec_options *pOpt) {
  return pOpt != NULL && pOpt->bNoResident;
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

stmtcache_entry *stmtcache_find(stmtcache *c, cat *pCat, const char *zSql,
                                const exec_options *pOpt) {
  size_t nSql;
  uint64_t h;
  int bNoResident = stmtcache_no_resident(pOpt);
  if (c == NULL || !stmtcache_generation(c, cat_cache_generation(pCat))) return NULL;
  nSql = strlen(zSql);
  h = stmtcache_hash(zSql, nSql, bNoResident);
  for (int i = 0; i < c->n; i++) {
    stmtcache_entry *e = c->a[i];
    if (e->h == h && e->bNoResident == bNoResident && e->nSql == nSql &&
        memcmp(e->zSql, zSql, nSql) == 0) {
      e->iUsed = ++c->iClock;
      return e;
    }
  }
  return NULL;
}

stmtcache_entry *stmtcache_entry_new(const char *zSql, const exec_options *pOpt) {
  size_t nSql = strlen(zSql);
  stmtcache_entry *e = calloc(1, sizeof(*e) + nSql + 1);
  if (e == NULL) return NULL;
  e->zSql = (char *)(e + 1);
  memcpy(e->zSql, zSql, nSql + 1);
  e->nSql = nSql;
  e->bNoResident = stmtcache_no_resident(pOpt);
  e->h = stmtcache_hash(zSql, nSql, e->bNoResident);
  arena_init(&e->a);
  return e;
}

void stmtcache_entry_free(stmtcache_entry *e) {
  if (e == NULL) return;
  codegen_free(&e->g);
  plan_free(&e->p);
  bind_select_free(&e->b);
  arena_free(&e->a);
  free(e);
}

int stmtcache_put(stmtcache *c, cat *pCat, stmtcache_entry *e) {
  int iOld = 0;
  if (c == NULL || !stmtcache_generation(c, cat_cache_generation(pCat))) return 0;
  e->iUsed = ++c->iClock;
  if (c->n < STMTCACHE_MAX) {
    c->a[c->n++] = e;
    return 1;
  }
  for (int i = 1; i < c->n; i++) {
    if (c->a[i]->iUsed < c->a[iOld]->iUsed) iOld = i;
  }
  stmtcache_entry_free(c->a[iOld]);
  c->a[iOld] = e;
  return 1;
}
