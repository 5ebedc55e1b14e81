/*
** storage/dict.c — sorted string dictionaries (store.h): writing one from
** sorted distinct strings, mapping one back with its invariants checked,
** and looking codes up by string.
**
** A dictionary file is a DICT column file (colfile.c) whose payload is
** n + 1 u64 offsets followed by the text. Because codes must keep string
** order (DESIGN.md decision 6: range predicates on strings become ranges
** of codes), the writer refuses input that is not strictly increasing, and
** store_dict_open() checks the same of every file it maps: a dictionary
** that is out of order would silently give wrong answers, so it is an
** error, not a warning. Order is memcmp order with a shorter prefix first,
** which is PostgreSQL's "C" collation; bytes >= 0x80 sort after ASCII.
**
** INTERFACE ROUTINES
**   store_dict_open, store_dict_close
**   store_dict_find, store_dict_lower_bound
**   store_dict_write
**   store__dict_write   the writer store_strset_write() shares
**   store__str_cmp      the order itself
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "storeInt.h"

#define DICT_BUF_SIZE (1u << 20)     /* bytes gathered before each write */

int store__str_cmp(const char *a, size_t na, const char *b, size_t nb) {
  size_t n = na < nb ? na : nb;
  int c = n ? memcmp(a, b, n) : 0;
  if (c != 0) return c;
  return na < nb ? -1 : na > nb;
}

/* ---- writing ------------------------------------------------------------- */

/* A write buffer in front of a store_file, so that millions of short
** strings become a few large writes. */
typedef struct dict_buf dict_buf;
struct dict_buf {
  store_file *f;
  char *a;                 /* DICT_BUF_SIZE bytes; owned */
  size_t n;                /* bytes waiting */
};

static int dict_buf_flush(dict_buf *b, char *zErr, size_t nErr) {
  if (b->n == 0) return 0;
  if (store_file_append(b->f, b->a, b->n, zErr, nErr) != 0) return -1;
  b->n = 0;
  return 0;
}

static int dict_buf_put(dict_buf *b, const void *p, size_t n, char *zErr, size_t nErr) {
  if (n > DICT_BUF_SIZE - b->n) {
    if (dict_buf_flush(b, zErr, nErr) != 0) return -1;
    /* Too big to be worth buffering: write it straight through. */
    if (n >= DICT_BUF_SIZE) return store_file_append(b->f, p, n, zErr, nErr);
  }
  if (n > 0) memcpy(b->a + b->n, p, n);
  b->n += n;
  return 0;
}

int store__dict_write(const char *zPath, uint64_t n, store__dict_str_fn xStr,
                      const void *pArg, int bSync, char *zErr, size_t nErr) {
  store_file f;
  dict_buf b;
  coltype t;
  uint64_t nText = 0;
  const char *zPrev = NULL;
  size_t nPrev = 0;

  memset(&t, 0, sizeof(t));
  b.a = malloc(DICT_BUF_SIZE);
  b.n = 0;
  b.f = &f;
  if (b.a == NULL) {
    snprintf(zErr, nErr, "write %s: out of memory", zPath);
    return -1;
  }
  if (store_file_create(&f, zPath, STORE_DICT, t, zErr, nErr) != 0) {
    free(b.a);
    return -1;
  }

  /* Pass 1: check the order and write the offsets. */
  if (dict_buf_put(&b, &nText, 8, zErr, nErr) != 0) goto out_abort;
  for (uint64_t i = 0; i < n; i++) {
    size_t nStr;
    const char *z = xStr(pArg, i, &nStr);
    if (i > 0) {
      int c = store__str_cmp(zPrev, nPrev, z, nStr);
      if (c >= 0) {
        snprintf(zErr, nErr, "write %s: dictionary string %" PRIu64 " %s string %" PRIu64
                 " (the strings must be sorted and distinct)", zPath, i,
                 c == 0 ? "repeats" : "sorts before", i - 1);
        goto out_abort;
      }
    }
    zPrev = z;
    nPrev = nStr;
    nText += nStr;
    if (dict_buf_put(&b, &nText, 8, zErr, nErr) != 0) goto out_abort;
  }

  /* Pass 2: the text. */
  for (uint64_t i = 0; i < n; i++) {
    size_t nStr;
    const char *z = xStr(pArg, i, &nStr);
    if (dict_buf_put(&b, z, nStr, zErr, nErr) != 0) goto out_abort;
  }
  if (dict_buf_flush(&b, zErr, nErr) != 0) goto out_abort;
  free(b.a);
  b.a = NULL;
  if (store_file_seal(&f, n, (n + 1) * 8 + nText, bSync, zErr, nErr) != 0) {
    /* seal left the file in place; a half-written dictionary must go. */
    remove(zPath);
    return -1;
  }
  return 0;

out_abort:
  free(b.a);
  store_file_abort(&f);
  return -1;
}

/* What dict_write_str() reads: the arrays store_dict_write() was given. */
typedef struct dict_arrays dict_arrays;
struct dict_arrays {
  const char *const *az;
  const uint32_t *anLen;
};

static const char *dict_write_str(const void *pArg, uint64_t i, size_t *pn) {
  const dict_arrays *p = pArg;
  *pn = p->anLen[i];
  return p->az[i];
}

int store_dict_write(const char *zPath, uint64_t n, const char *const *az,
                     const uint32_t *anLen, int bSync, char *zErr, size_t nErr) {
  dict_arrays arr;
  arr.az = az;
  arr.anLen = anLen;
  return store__dict_write(zPath, n, dict_write_str, &arr, bSync, zErr, nErr);
}

/* ---- reading ------------------------------------------------------------- */

int store_dict_open(store_dict *d, const char *zPath, char *zErr, size_t nErr) {
  uint64_t nText;

  memset(d, 0, sizeof(*d));
  if (store_map_open(&d->m, zPath, STORE_DICT, 0, zErr, nErr) != 0) return -1;
  /* store_map_open() checked that the payload holds the n + 1 offsets. */
  d->n = d->m.nRow;
  d->aOff = d->m.aData;
  d->zText = (const char *)(d->aOff + d->n + 1);
  nText = d->m.nPayload - (d->n + 1) * 8;

  if (d->aOff[0] != 0) {
    snprintf(zErr, nErr, "%s: the first offset is %" PRIu64 ", not 0", zPath, d->aOff[0]);
    goto out_close;
  }
  for (uint64_t i = 0; i < d->n; i++) {
    if (d->aOff[i + 1] < d->aOff[i] || d->aOff[i + 1] > nText) {
      snprintf(zErr, nErr, "%s: offset %" PRIu64 " (%" PRIu64 ") is out of order or past "
               "the %" PRIu64 " bytes of text", zPath, i + 1, d->aOff[i + 1], nText);
      goto out_close;
    }
  }
  if (d->aOff[d->n] != nText) {
    snprintf(zErr, nErr, "%s: the strings end at byte %" PRIu64 " of %" PRIu64
             " bytes of text", zPath, d->aOff[d->n], nText);
    goto out_close;
  }
  for (uint64_t i = 1; i < d->n; i++) {
    size_t na, nb;
    const char *za = store_dict_str(d, i - 1, &na);
    const char *zb = store_dict_str(d, i, &nb);
    if (store__str_cmp(za, na, zb, nb) >= 0) {
      snprintf(zErr, nErr, "%s: string %" PRIu64 " does not sort after string %" PRIu64
               " (the dictionary must be sorted and distinct)", zPath, i, i - 1);
      goto out_close;
    }
  }
  return 0;

out_close:
  store_dict_close(d);
  return -1;
}

void store_dict_close(store_dict *d) {
  store_map_close(&d->m);
  memset(d, 0, sizeof(*d));
}

uint64_t store_dict_lower_bound(const store_dict *d, const char *z, size_t n) {
  uint64_t lo = 0, hi = d->n;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    size_t nMid;
    const char *zMid = store_dict_str(d, mid, &nMid);
    if (store__str_cmp(zMid, nMid, z, n) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

int64_t store_dict_find(const store_dict *d, const char *z, size_t n) {
  uint64_t i = store_dict_lower_bound(d, z, n);
  size_t nStr;
  const char *zStr;
  if (i >= d->n) return -1;
  zStr = store_dict_str(d, i, &nStr);
  return store__str_cmp(zStr, nStr, z, n) == 0 ? (int64_t)i : -1;
}
