/*
** host/hash.c — a hash table from a tuple of values to one pointer, for
** the operators that group or match rows (joins, aggregation, DISTINCT,
** set operations, hashed subplans). Open addressing with linear probing
** over entries kept in insertion order, so that walking the table gives
** groups in the order their first row came (a plan's output is then
** deterministic). Keys are copied into the run's arena.
**
** Key equality is grouping's: NULLs equal each other (a GROUP BY puts
** them in one group); callers that must not match NULLs (join keys)
** leave such rows out before they look up.
**
** INTERFACE ROUTINES (hostInt.h)
**   host__hash_new, host__hash_find, host__hash_each, host__hash_count,
**   host__hash_free_all
*/
#include <stdlib.h>
#include <string.h>

#include "hostInt.h"

typedef struct host_hash_entry host_hash_entry;
struct host_hash_entry {
  uint64_t h;
  datum *aKey;
  void *pVal;
};

struct host_hash {
  int nKey;
  int64_t nEntry, nEntryAlloc;
  host_hash_entry *aEntry;   /* insertion order; malloc'd */
  uint64_t nSlot;            /* power of two */
  int64_t *aSlot;            /* entry index + 1, 0: empty; malloc'd */
  host_hash *pNextOwned;     /* the run frees every table it made */
};

static uint64_t host_hash_key(const datum *aKey, int nKey) {
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < nKey; i++) {
    uint64_t v = aKey[i].bNull ? 0x51ed27ULL : host__datum_hash(&aKey[i]);
    h = (h ^ v) * 0x100000001b3ULL + (h >> 29);
  }
  return h ^ (h >> 31);
}

static int host_hash_key_eq(const datum *a, const datum *b, int nKey) {
  for (int i = 0; i < nKey; i++) {
    if (a[i].bNull || b[i].bNull) {
      if (a[i].bNull != b[i].bNull) return 0;
      continue;
    }
    if (!host__datum_eq(&a[i], &b[i])) return 0;
  }
  return 1;
}

host_hash *host__hash_new(host_run_ctx *x, int nKey) {
  host_hash *h = calloc(1, sizeof(*h));
  if (h == NULL) {
    host__oom(x);
    return NULL;
  }
  h->nKey = nKey;
  h->nSlot = 16;
  h->aSlot = calloc(h->nSlot, sizeof(int64_t));
  if (h->aSlot == NULL) {
    free(h);
    host__oom(x);
    return NULL;
  }
  h->pNextOwned = x->pHashes;
  x->pHashes = h;
  return h;
}

void host__hash_free_all(host_run_ctx *x) {
  while (x->pHashes != NULL) {
    host_hash *h = x->pHashes;
    x->pHashes = h->pNextOwned;
    free(h->aEntry);
    free(h->aSlot);
    free(h);
  }
}

static int host_hash_grow(host_run_ctx *x, host_hash *h) {
  uint64_t nSlot = h->nSlot * 2;
  int64_t *aSlot = calloc(nSlot, sizeof(int64_t));
  if (aSlot == NULL) return host__oom(x);
  for (int64_t i = 0; i < h->nEntry; i++) {
    uint64_t j = h->aEntry[i].h & (nSlot - 1);
    while (aSlot[j] != 0) j = (j + 1) & (nSlot - 1);
    aSlot[j] = i + 1;
  }
  free(h->aSlot);
  h->aSlot = aSlot;
  h->nSlot = nSlot;
  return 0;
}

int host__hash_find(host_run_ctx *x, host_hash *h, const datum *aKey, int bAdd, void ***ppVal,
                    int *pbNew) {
  uint64_t hv = host_hash_key(aKey, h->nKey), j = hv & (h->nSlot - 1);
  host_hash_entry *e;
  *ppVal = NULL;
  if (pbNew != NULL) *pbNew = 0;
  while (h->aSlot[j] != 0) {
    e = &h->aEntry[h->aSlot[j] - 1];
    if (e->h == hv && host_hash_key_eq(e->aKey, aKey, h->nKey)) {
      *ppVal = &e->pVal;
      return 0;
    }
    j = (j + 1) & (h->nSlot - 1);
  }
  if (!bAdd) return 0;
  if (h->nEntry == h->nEntryAlloc) {
    int64_t nNew = h->nEntryAlloc ? 2 * h->nEntryAlloc : 16;
    host_hash_entry *a = realloc(h->aEntry, (size_t)nNew * sizeof(*a));
    if (a == NULL) return host__oom(x);
    h->aEntry = a;
    h->nEntryAlloc = nNew;
  }
  e = &h->aEntry[h->nEntry];
  e->h = hv;
  e->pVal = NULL;
  if ((e->aKey = host__row_new(x, h->nKey)) == NULL) return -1;
  for (int i = 0; i < h->nKey; i++) {
    e->aKey[i] = aKey[i];
    if (host__datum_own(x, &e->aKey[i]) != 0) return -1;
  }
  h->aSlot[j] = ++h->nEntry;
  *ppVal = &e->pVal;
  if (pbNew != NULL) *pbNew = 1;
  if ((uint64_t)h->nEntry * 2 > h->nSlot) return host_hash_grow(x, h);
  return 0;
}

int host__hash_each(host_hash *h, int (*xEach)(void *pArg, const datum *aKey, void *pVal),
                    void *pArg) {
  for (int64_t i = 0; i < h->nEntry; i++) {
    int rc = xEach(pArg, h->aEntry[i].aKey, h->aEntry[i].pVal);
    if (rc != 0) return rc;
  }
  return 0;
}

int64_t host__hash_count(const host_hash *h) { return h->nEntry; }
