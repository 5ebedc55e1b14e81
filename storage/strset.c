/*
** storage/strset.c — the string set a loader builds a column's dictionary
** with (store_strset_* of store.h).
**
** The loader calls store_strset_add() once per string field, so adding is
** the hot path: the strings live back to back in one growing arena with an
** offset array beside it, and the hash table holds only code + 1 per slot.
** Nothing is allocated per call; the arena, the offsets and the table all
** grow by doubling. The table is open addressing with linear probing,
** a power of two in size and kept at most half full, so a probe sequence
** is short and a miss ends at the first empty slot. Slots do not cache
** hashes (store.h fixes the struct), so growing the table rehashes every
** string from the arena — amortised, that is one more hash per string.
**
** store_strset_sort() orders the strings by memcmp order without touching
** the set: it sorts (8-byte big-endian key, code) pairs with a merge sort,
** so most comparisons are one integer compare and only ties go to the
** text. The key is the 8 bytes after the prefix that all strings share,
** so a column of "Customer#000000001"... still sorts on its digits.
** Writing the dictionary file is left to dict.c's writer, which checks the
** order once more on the way out.
**
** INTERFACE ROUTINES
**   store_strset_init    an empty set (allocates nothing)
**   store_strset_free
**   store_strset_clear   empty it, keeping the memory
**   store_strset_add     intern a string, get its provisional code
**   store_strset_sort    the remap provisional code -> sorted code
**   store_strset_write   write the dictionary file in sorted order
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "storeInt.h"

#define STRSET_SLOT_MIN 1024u          /* first table size */
#define STRSET_OFF_MIN 1024u           /* first offset array size */
#define STRSET_TEXT_MIN 16384u         /* first arena size in bytes */
#define STRSET_SLOT_MAX (1u << 31)     /* largest power of two in a u32 */
#define STRSET_INSERTION_RUN 16        /* merge sort hands shorter runs to insertion */

/* ---- hashing --------------------------------------------------------------
** A MurmurHash3-style 64-bit hash over 8-byte words: each word is mixed
** with two multiplies and a rotate, folded into the state, and the state
** finished with fmix64, so every input bit reaches every output bit. Codes
** index the table by the low bits, which fmix64 leaves well mixed. */

#define STRSET_C1 0x87c37b91114253d5ull
#define STRSET_C2 0x4cf5ad432745937full

static inline uint64_t strset_rotl(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}

static inline uint64_t strset_fmix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

static inline uint64_t strset_mix_word(uint64_t w) {
  w *= STRSET_C1;
  w = strset_rotl(w, 31);
  w *= STRSET_C2;
  return w;
}

/* Returns the 64-bit hash of z[0..n). */
static inline uint64_t strset_hash(const char *z, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, z + i, 8);
    h ^= strset_mix_word(w);
    h = strset_rotl(h, 27) * 5 + 0x52dce729;
  }
  if (i < n) {
    uint64_t w = 0;
    memcpy(&w, z + i, n - i);
    h ^= strset_mix_word(w);
  }
  return strset_fmix64(h);
}

/* ---- the set ------------------------------------------------------------- */

void store_strset_init(store_strset *s) {
  memset(s, 0, sizeof(*s));
}

void store_strset_clear(store_strset *s) {
  s->n = 0;
  s->nText = 0;
  if (s->aSlot != NULL) memset(s->aSlot, 0, (size_t)s->nSlot * sizeof(uint32_t));
}

void store_strset_free(store_strset *s) {
  free(s->zText);
  free(s->aOff);
  free(s->aSlot);
  memset(s, 0, sizeof(*s));
}

/* Rebuilds the table with nSlot slots, rehashing every string. Returns 0,
** or -1 if memory ran out (the old table is then kept). */
static int strset_rehash(store_strset *s, uint32_t nSlot) {
  uint32_t *aSlot = calloc(nSlot, sizeof(uint32_t));
  uint32_t mask = nSlot - 1;
  if (aSlot == NULL) return -1;
  for (uint32_t c = 0; c < s->n; c++) {
    size_t n;
    const char *z = store_strset_str(s, c, &n);
    uint32_t i = (uint32_t)strset_hash(z, n) & mask;
    while (aSlot[i] != 0) i = (i + 1) & mask;
    aSlot[i] = c + 1;
  }
  free(s->aSlot);
  s->aSlot = aSlot;
  s->nSlot = nSlot;
  return 0;
}

/* Makes room for one more string of n bytes: an offset entry and n bytes
** of arena. Returns 0 or -1. */
static int strset_reserve(store_strset *s, size_t n) {
  if (s->n + 2 > s->nAlloc) {
    uint32_t nAlloc = s->nAlloc ? s->nAlloc * 2 : STRSET_OFF_MIN;
    uint64_t *aOff;
    if (s->nAlloc >= 0x80000000u) return -1;
    aOff = realloc(s->aOff, (size_t)nAlloc * sizeof(uint64_t));
    if (aOff == NULL) return -1;
    if (s->aOff == NULL) aOff[0] = 0;
    s->aOff = aOff;
    s->nAlloc = nAlloc;
  }
  if (n > s->nTextAlloc - s->nText) {
    size_t nAlloc = s->nTextAlloc ? s->nTextAlloc : STRSET_TEXT_MIN;
    char *zText;
    while (n > nAlloc - s->nText) {
      if (nAlloc > SIZE_MAX / 2) return -1;
      nAlloc *= 2;
    }
    zText = realloc(s->zText, nAlloc);
    if (zText == NULL) return -1;
    s->zText = zText;
    s->nTextAlloc = nAlloc;
  }
  return 0;
}

int store_strset_add(store_strset *s, const char *z, size_t n, uint32_t *piCode) {
  uint64_t h = strset_hash(z, n);
  uint32_t mask, i, c;

  if (s->nSlot == 0 && strset_rehash(s, STRSET_SLOT_MIN) != 0) return -1;
  mask = s->nSlot - 1;
  i = (uint32_t)h & mask;
  for (;;) {
    uint32_t v = s->aSlot[i];
    if (v == 0) break;
    c = v - 1;
    if (s->aOff[c + 1] - s->aOff[c] == n
        && (n == 0 || memcmp(s->zText + s->aOff[c], z, n) == 0)) {
      *piCode = c;
      return 0;
    }
    i = (i + 1) & mask;
  }

  /* A new string. Grow first if it would make the table more than half
  ** full; the empty slot found above is then stale, so probe again. */
  if ((uint64_t)(s->n + 1) * 2 > s->nSlot) {
    if (s->nSlot >= STRSET_SLOT_MAX) return -1;
    if (strset_rehash(s, s->nSlot * 2) != 0) return -1;
    mask = s->nSlot - 1;
    i = (uint32_t)h & mask;
    while (s->aSlot[i] != 0) i = (i + 1) & mask;
  }
  if (strset_reserve(s, n) != 0) return -1;

  c = s->n;
  if (n > 0) memcpy(s->zText + s->nText, z, n);
  s->nText += n;
  s->aOff[c + 1] = s->nText;
  s->aSlot[i] = c + 1;
  s->n = c + 1;
  *piCode = c;
  return 0;
}

/* ---- sorting ------------------------------------------------------------- */

/* One string to sort: 8 of its bytes (those after the set's common
** prefix) as a big-endian integer, zero padded, so comparing keys compares
** those bytes in memcmp order, and a zero pad sorts a shorter string
** first, as store__str_cmp() does. Equal keys fall back to the text. */
typedef struct strset_ent strset_ent;
struct strset_ent {
  uint64_t key;
  uint32_t iCode;
};

static uint64_t strset_key(const char *z, size_t n) {
  uint64_t k = 0;
  size_t m = n < 8 ? n : 8;
  for (size_t i = 0; i < m; i++) k |= (uint64_t)(unsigned char)z[i] << (56 - 8 * i);
  return k;
}

/* Returns <0, 0 or >0 as string a sorts before, with or after string b. */
static inline int strset_ent_cmp(const store_strset *s, const strset_ent *a,
                                 const strset_ent *b) {
  size_t na, nb;
  const char *za, *zb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  za = store_strset_str(s, a->iCode, &na);
  zb = store_strset_str(s, b->iCode, &nb);
  return store__str_cmp(za, na, zb, nb);
}

static void strset_insertion_sort(const store_strset *s, strset_ent *a, size_t n) {
  for (size_t i = 1; i < n; i++) {
    strset_ent e = a[i];
    size_t j = i;
    while (j > 0 && strset_ent_cmp(s, &e, &a[j - 1]) < 0) {
      a[j] = a[j - 1];
      j--;
    }
    a[j] = e;
  }
}

/* Sorts a[0..n) using aTmp[0..n) as scratch: top-down merge sort, which
** needs no worst-case guard and stays O(n log n) on any input. */
static void strset_merge_sort(const store_strset *s, strset_ent *a, strset_ent *aTmp,
                              size_t n) {
  size_t nLeft, i, j, k;
  if (n <= STRSET_INSERTION_RUN) {
    strset_insertion_sort(s, a, n);
    return;
  }
  nLeft = n / 2;
  strset_merge_sort(s, a, aTmp, nLeft);
  strset_merge_sort(s, a + nLeft, aTmp + nLeft, n - nLeft);
  /* Already in order across the seam: common for pre-sorted input. */
  if (strset_ent_cmp(s, &a[nLeft - 1], &a[nLeft]) <= 0) return;
  memcpy(aTmp, a, n * sizeof(strset_ent));
  for (i = 0, j = nLeft, k = 0; i < nLeft && j < n;) {
    if (strset_ent_cmp(s, &aTmp[j], &aTmp[i]) < 0) a[k++] = aTmp[j++];
    else a[k++] = aTmp[i++];
  }
  while (i < nLeft) a[k++] = aTmp[i++];
  while (j < n) a[k++] = aTmp[j++];
}

/* Returns the length of the longest prefix all strings of s share. */
static size_t strset_common_prefix(const store_strset *s) {
  size_t n0, nLcp;
  const char *z0;
  if (s->n == 0) return 0;
  z0 = store_strset_str(s, 0, &n0);
  nLcp = n0;
  for (uint32_t c = 1; c < s->n && nLcp > 0; c++) {
    size_t n, i = 0;
    const char *z = store_strset_str(s, c, &n);
    size_t m = n < nLcp ? n : nLcp;
    while (i < m && z[i] == z0[i]) i++;
    nLcp = i;
  }
  return nLcp;
}

/* Returns the set's codes in sorted order as a malloc'd array of n
** (at least 1) entries, or NULL if memory ran out. */
static uint32_t *strset_order(const store_strset *s) {
  strset_ent *a, *aTmp;
  size_t nLcp;
  uint32_t *aOrder = malloc((s->n ? s->n : 1) * sizeof(uint32_t));
  if (aOrder == NULL) return NULL;
  if (s->n == 0) return aOrder;
  a = malloc((size_t)s->n * sizeof(strset_ent));
  aTmp = malloc((size_t)s->n * sizeof(strset_ent));
  if (a == NULL || aTmp == NULL) {
    free(a);
    free(aTmp);
    free(aOrder);
    return NULL;
  }
  /* Keys start after the prefix every string shares ("Customer#..."),
  ** where they still tell strings apart; ordering is unchanged. */
  nLcp = strset_common_prefix(s);
  for (uint32_t c = 0; c < s->n; c++) {
    size_t n;
    const char *z = store_strset_str(s, c, &n);
    a[c].key = strset_key(z + nLcp, n - nLcp);
    a[c].iCode = c;
  }
  strset_merge_sort(s, a, aTmp, s->n);
  for (uint32_t r = 0; r < s->n; r++) aOrder[r] = a[r].iCode;
  free(a);
  free(aTmp);
  return aOrder;
}

uint32_t *store_strset_sort(const store_strset *s) {
  uint32_t *aOrder = strset_order(s);
  uint32_t *aRemap;
  if (aOrder == NULL) return NULL;
  /* malloc(0) may return NULL, which would read as out of memory. */
  aRemap = malloc((s->n ? s->n : 1) * sizeof(uint32_t));
  if (aRemap != NULL) {
    for (uint32_t r = 0; r < s->n; r++) aRemap[aOrder[r]] = r;
  }
  free(aOrder);
  return aRemap;
}

/* ---- writing ------------------------------------------------------------- */

/* What strset_write_str() reads: the set and the sorted order of codes. */
typedef struct strset_writer strset_writer;
struct strset_writer {
  const store_strset *s;
  const uint32_t *aOrder;  /* final code -> provisional code */
};

static const char *strset_write_str(const void *pArg, uint64_t i, size_t *pn) {
  const strset_writer *w = pArg;
  return store_strset_str(w->s, w->aOrder[i], pn);
}

int store_strset_write(const store_strset *s, const uint32_t *aRemap,
                       const char *zPath, int bSync, char *zErr, size_t nErr) {
  strset_writer w;
  uint32_t *aOrder;
  int rc;

  /* Invert the remap; a remap that is not a permutation is a caller bug
  ** that would otherwise write garbage, so say so. */
  aOrder = malloc((s->n ? s->n : 1) * sizeof(uint32_t));
  if (aOrder == NULL) {
    snprintf(zErr, nErr, "write %s: out of memory", zPath);
    return -1;
  }
  memset(aOrder, 0xff, (s->n ? s->n : 1) * sizeof(uint32_t));
  for (uint32_t c = 0; c < s->n; c++) {
    uint32_t r = aRemap[c];
    if (r >= s->n || aOrder[r] != UINT32_MAX) {
      snprintf(zErr, nErr, "write %s: the remap is not a permutation of %u codes "
               "(code %u maps to %u)", zPath, s->n, c, r);
      free(aOrder);
      return -1;
    }
    aOrder[r] = c;
  }
  w.s = s;
  w.aOrder = aOrder;
  rc = store__dict_write(zPath, s->n, strset_write_str, &w, bSync, zErr, nErr);
  free(aOrder);
  return rc;
}
