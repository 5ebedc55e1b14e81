/*
** storage/colfor.c — FOR-bitpacked value files (store.h): frame of
** reference plus bit-packing in blocks of STORE_FOR_BLOCK rows, as in the
** GPU-FOR scheme of the compression paper (papers/README.md): each block
** keeps its minimum (the reference) and, for each row, the row's value
** minus the reference in the fewest bits that hold the block's range.
**
**   payload   directory: nBlock entries of 16 bytes, little-endian
**                0  i64  reference: the block's least value
**                8  u64  word offset of the block's bits (low 56 bits)
**                         | bit width (0..64) << 56
**             then the 32-bit words of every block back to back: row j of
**             a block at bits [j * w, j * w + w) of the block's words,
**             least significant bit first; a block of n rows takes
**             ceil(n * w / 32) words, so a block of equal values (w = 0)
**             takes none.
**
** Why 128 rows: a warp of 32 threads reading 32 consecutive rows of a
** block reads w consecutive words (coalesced), and a SCAN tile of
** blockDim.x * SQ_ITEMS rows starts on a block boundary whenever
** blockDim.x is a multiple of 32; a stride (a multiple of 4096 rows) always
** does. The directory costs 1 bit per row, and a block small enough that
** a sorted or clustered column (lo_orderkey) gets a narrow width.
**
** Offsets are redundant with the widths (each follows from the ones
** before), but they locate any block in O(1), which the SCAN needs: its
** tiles land anywhere. The reader trusts none of it: store__for_check()
** runs when a file is mapped and refuses a width past the type's bits, an
** offset that does not follow from the widths, or words that do not end
** exactly at the payload's end, so that decoding any row < nRow stays in
** the file.
**
** What it saves (SSB SF 1, bench/RESULTS.md "Compressed columns"): the
** lineorder columns the 13 queries read go from 1,392 MB to 735 MB
** (1.90x); lo_discount 24.0 -> 3.75 MB, lo_quantity 24.0 -> 5.25,
** lo_orderdate 24.0 -> 12.75, lo_custkey 24.0 -> 12.0, lo_partkey
** 24.0 -> 14.25, lo_suppkey 24.0 -> 9.0, lo_revenue 24.0 -> 18.6,
** lo_supplycost 24.0 -> 13.2, lo_extendedprice 24.0 -> 18.7.
**
** The decoder here is the host's (tests, the loader's append, the
** reference database); the kernels' is codegen/device.cuh's sq_for_get,
** which must agree with store_for_get bit for bit.
**
** INTERFACE ROUTINES
**   store_for_type_ok, store_for_size, store_for_write, store_for_compress
**   store_for_get, store_for_span, store_map_decode
**   store__for_check, store__for_block_rows (storeInt.h)
*/
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/le.h"
#include "store.h"
#include "storeInt.h"

/* Words written to the file at a time. */
#define FOR_CHUNK_WORDS 65536

int store_for_type_ok(coltype_id t) {
  switch (t) {
    case COLTYPE_SMALLINT:
    case COLTYPE_INTEGER:
    case COLTYPE_DATE:
    case COLTYPE_BIGINT:
    case COLTYPE_DECIMAL:
      return 1;
    default:
      return 0;
  }
}

/* Bytes of one value of a FOR-able type. */
static unsigned for_type_bytes(coltype_id t) {
  switch (t) {
    case COLTYPE_SMALLINT: return 2;
    case COLTYPE_INTEGER:
    case COLTYPE_DATE: return 4;
    default: return 8;
  }
}

/* Plain value i of a (nByte wide), sign-extended. */
static int64_t for_plain_get(const void *a, unsigned nByte, uint64_t i) {
  const unsigned char *p = (const unsigned char *)a + i * nByte;
  switch (nByte) {
    case 2: { int16_t v; memcpy(&v, p, 2); return v; }
    case 4: { int32_t v; memcpy(&v, p, 4); return v; }
    default: { int64_t v; memcpy(&v, p, 8); return v; }
  }
}

uint64_t store__for_block_rows(uint64_t nRow, uint64_t b) {
  uint64_t n = nRow - b * STORE_FOR_BLOCK;
  return n < STORE_FOR_BLOCK ? n : STORE_FOR_BLOCK;
}

/* Words of n rows of w bits. */
static uint64_t for_words(uint64_t n, unsigned w) {
  return (n * w + 31) / 32;
}

/* The reference and bit width of block b of nRow plain values. */
static void for_block_frame(const void *a, unsigned nByte, uint64_t nRow, uint64_t b,
                            int64_t *pRef, unsigned *pw) {
  uint64_t i0 = b * STORE_FOR_BLOCK, n = store__for_block_rows(nRow, b);
  int64_t lo = for_plain_get(a, nByte, i0), hi = lo;
  uint64_t r;
  unsigned w = 0;
  for (uint64_t i = 1; i < n; i++) {
    int64_t v = for_plain_get(a, nByte, i0 + i);
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  r = (uint64_t)hi - (uint64_t)lo;    /* the range, exact in 64 unsigned bits */
  while (r != 0) {
    w++;
    r >>= 1;
  }
  *pRef = lo;
  *pw = w;
}

uint64_t store_for_size(coltype_id t, const void *a, uint64_t nRow) {
  unsigned nByte = for_type_bytes(t);
  uint64_t nBlock = (nRow + STORE_FOR_BLOCK - 1) / STORE_FOR_BLOCK, nWord = 0;
  for (uint64_t b = 0; b < nBlock; b++) {
    int64_t ref;
    unsigned w;
    for_block_frame(a, nByte, nRow, b, &ref, &w);
    nWord += for_words(store__for_block_rows(nRow, b), w);
  }
  return nBlock * STORE_FOR_DIR_BYTES + nWord * 4;
}

/* Packs block b's deltas into aw (for_words() words, zeroed here). */
static void for_block_pack(const void *a, unsigned nByte, uint64_t nRow, uint64_t b, int64_t ref,
                           unsigned w, uint32_t *aw) {
  uint64_t i0 = b * STORE_FOR_BLOCK, n = store__for_block_rows(nRow, b);
  memset(aw, 0, (size_t)for_words(n, w) * 4);
  if (w == 0) return;
  for (uint64_t j = 0; j < n; j++) {
    uint64_t d = (uint64_t)for_plain_get(a, nByte, i0 + j) - (uint64_t)ref;
    uint64_t bit = j * w;
    unsigned s = (unsigned)(bit & 31);
    uint64_t iw = bit >> 5;
    /* The delta spans up to three words: 32 - s bits, then 32, then the rest. */
    aw[iw] |= (uint32_t)(d << s);
    if (s + w > 32) aw[iw + 1] |= (uint32_t)(d >> (32 - s));
    if (s + w > 64) aw[iw + 2] |= (uint32_t)(d >> (64 - s));
  }
}

int store_for_write(const char *zPath, coltype_id t, const void *a, uint64_t nRow, int bSync,
                    char *zErr, size_t nErr) {
  unsigned nByte = for_type_bytes(t);
  uint64_t nBlock = (nRow + STORE_FOR_BLOCK - 1) / STORE_FOR_BLOCK, nWord = 0, iAt;
  unsigned char *aDir = NULL;
  uint32_t *aw = NULL;
  uint32_t aBlock[2 * STORE_FOR_BLOCK];        /* one block's words, at most 64 bits each */
  size_t nw = 0;
  store_file f;
  coltype ct;

  memset(&ct, 0, sizeof(ct));
  ct.eId = t;
  if (!store_for_type_ok(t)) {
    snprintf(zErr, nErr, "%s: values of type %d cannot be FOR-bitpacked", zPath, (int)t);
    return -1;
  }
  if (nBlock > SIZE_MAX / STORE_FOR_DIR_BYTES ||
      (aDir = malloc((size_t)nBlock * STORE_FOR_DIR_BYTES + 1)) == NULL ||
      (aw = malloc((size_t)FOR_CHUNK_WORDS * 4)) == NULL) {
    free(aDir);
    snprintf(zErr, nErr, "%s: out of memory for the FOR directory", zPath);
    return -1;
  }
  if (store_file_create(&f, zPath, STORE_VALUES, ct, zErr, nErr) != 0) goto out_free;
  f.eEnc = STORE_ENC_FOR;
  iAt = nBlock * STORE_FOR_DIR_BYTES;       /* the words follow the directory */
  for (uint64_t b = 0; b < nBlock; b++) {
    int64_t ref;
    unsigned w;
    size_t k;
    for_block_frame(a, nByte, nRow, b, &ref, &w);
    le_put(aDir + b * STORE_FOR_DIR_BYTES, (uint64_t)ref, 8);
    le_put(aDir + b * STORE_FOR_DIR_BYTES + 8, nWord | (uint64_t)w << 56, 8);
    k = (size_t)for_words(store__for_block_rows(nRow, b), w);
    for_block_pack(a, nByte, nRow, b, ref, w, aBlock);
    if (nw + k > FOR_CHUNK_WORDS) {
      if (store_file_write_at(&f, iAt, aw, nw * 4, zErr, nErr) != 0) goto out_abort;
      iAt += nw * 4;
      nw = 0;
    }
    for (size_t i = 0; i < k; i++) le_put((unsigned char *)&aw[nw + i], aBlock[i], 4);
    nw += k;
    nWord += k;
  }
  if ((nw > 0 && store_file_write_at(&f, iAt, aw, nw * 4, zErr, nErr) != 0) ||
      store_file_write_at(&f, 0, aDir, nBlock * STORE_FOR_DIR_BYTES, zErr, nErr) != 0) {
    goto out_abort;
  }
  if (store_file_seal(&f, nRow, nBlock * STORE_FOR_DIR_BYTES + nWord * 4, bSync, zErr, nErr) != 0) {
    unlink(zPath);
    goto out_free;
  }
  free(aDir);
  free(aw);
  return 0;

out_abort:
  store_file_abort(&f);
out_free:
  free(aDir);
  free(aw);
  return -1;
}

int store_for_compress(const char *zPath, int bSync, int *pbDone, char *zErr, size_t nErr) {
  char zTmp[4200];
  store_map m;
  uint64_t nPlain, nFor;
  int rc = 0;

  *pbDone = 0;
  if (store_map_open(&m, zPath, STORE_VALUES, 0, zErr, nErr) != 0) return -1;
  if (m.eEnc != STORE_ENC_PLAIN || !store_for_type_ok(m.eType) || m.nRow == 0) goto out;
  nPlain = m.nPayload;
  nFor = store_for_size(m.eType, m.aData, m.nRow);
  /* Every byte saved is a byte less over PCIe, and decoding is a few ALU
  ** operations a row; below an eighth saved it is not worth a format. */
  if (nFor > nPlain - nPlain / 8) goto out;
  if (snprintf(zTmp, sizeof(zTmp), "%s.for", zPath) >= (int)sizeof(zTmp)) {
    snprintf(zErr, nErr, "%s: path too long", zPath);
    rc = -1;
    goto out;
  }
  if (store_for_write(zTmp, m.eType, m.aData, m.nRow, bSync, zErr, nErr) != 0) {
    rc = -1;
    goto out;
  }
  if (rename(zTmp, zPath) != 0) {
    snprintf(zErr, nErr, "rename %s: %s", zTmp, strerror(errno));
    unlink(zTmp);
    rc = -1;
    goto out;
  }
  *pbDone = 1;
out:
  store_map_close(&m);
  return rc;
}

/* The directory entry of block b of a FOR payload: reference, word
** offset and width. */
static void for_dir_get(const unsigned char *aPayload, uint64_t b, int64_t *pRef,
                        uint64_t *piWord, unsigned *pw) {
  uint64_t x = le_get(aPayload + b * STORE_FOR_DIR_BYTES + 8, 8);
  *pRef = (int64_t)le_get(aPayload + b * STORE_FOR_DIR_BYTES, 8);
  *piWord = x & STORE_FOR_OFF_MASK;
  *pw = (unsigned)(x >> 56);
}

int64_t store_for_get(const store_map *m, uint64_t i) {
  const unsigned char *p = m->pPlain != NULL ? (const unsigned char *)m->pMap + STORE_HEADER_SIZE
                                             : m->aData;
  const unsigned char *aw;
  uint64_t iWord, bit, x;
  unsigned w, s;
  int64_t ref;
  for_dir_get(p, i / STORE_FOR_BLOCK, &ref, &iWord, &w);
  if (w == 0) return ref;
  aw = p + m->nForDir + iWord * 4;
  bit = (i % STORE_FOR_BLOCK) * w;
  s = (unsigned)(bit & 31);
  aw += (bit >> 5) * 4;
  x = le_get(aw, 4) >> s;
  if (s + w > 32) x |= le_get(aw + 4, 4) << (32 - s);
  if (s + w > 64) x |= le_get(aw + 8, 4) << (64 - s);
  if (w < 64) x &= (UINT64_C(1) << w) - 1;
  return (int64_t)((uint64_t)ref + x);
}

void store_for_span(const void *aPayload, uint64_t nRow, uint64_t iRow, uint64_t n,
                    uint64_t *piDir, uint64_t *pnDir, uint64_t *piData, uint64_t *pnData) {
  uint64_t nBlock = (nRow + STORE_FOR_BLOCK - 1) / STORE_FOR_BLOCK;
  uint64_t b0 = iRow / STORE_FOR_BLOCK, b1 = (iRow + n + STORE_FOR_BLOCK - 1) / STORE_FOR_BLOCK;
  uint64_t w0, w1;
  int64_t ref;
  unsigned w;
  if (b1 > nBlock) b1 = nBlock;
  if (b0 >= b1) {
    *piDir = *pnDir = *pnData = 0;
    *piData = nBlock * STORE_FOR_DIR_BYTES;
    return;
  }
  for_dir_get(aPayload, b0, &ref, &w0, &w);
  for_dir_get(aPayload, b1 - 1, &ref, &w1, &w);
  w1 += for_words(store__for_block_rows(nRow, b1 - 1), w);
  *piDir = b0 * STORE_FOR_DIR_BYTES;
  *pnDir = (b1 - b0) * STORE_FOR_DIR_BYTES;
  *piData = nBlock * STORE_FOR_DIR_BYTES + w0 * 4;
  *pnData = (w1 - w0) * 4;
}

int store_map_decode(store_map *m, char *zErr, size_t nErr) {
  unsigned nByte;
  unsigned char *a;
  if (m->eEnc != STORE_ENC_FOR || m->pPlain != NULL) return 0;
  nByte = for_type_bytes(m->eType);
  if (m->nRow > SIZE_MAX / nByte || (a = malloc((size_t)(m->nRow * nByte) + 1)) == NULL) {
    snprintf(zErr, nErr, "out of memory decoding %" PRIu64 " FOR-bitpacked rows", m->nRow);
    return -1;
  }
  for (uint64_t i = 0; i < m->nRow; i++) {
    int64_t v = store_for_get(m, i);
    switch (nByte) {
      case 2: { int16_t x = (int16_t)v; memcpy(a + i * 2, &x, 2); break; }
      case 4: { int32_t x = (int32_t)v; memcpy(a + i * 4, &x, 4); break; }
      default: memcpy(a + i * 8, &v, 8); break;
    }
  }
  m->pPlain = a;
  m->aData = a;
  return 0;
}

int store__for_check(const store_map *m, const unsigned char *aPayload, const char *zPath,
                     char *zErr, size_t nErr) {
  uint64_t nBlock = m->nForDir / STORE_FOR_DIR_BYTES, nWord = 0;
  unsigned nMax = 8 * for_type_bytes(m->eType);
  for (uint64_t b = 0; b < nBlock; b++) {
    int64_t ref;
    uint64_t iWord;
    unsigned w;
    for_dir_get(aPayload, b, &ref, &iWord, &w);
    if (w > nMax) {
      snprintf(zErr, nErr, "%s: block %" PRIu64 " has bit width %u, more than the %u bits of"
               " its values (corrupt FOR-bitpacked file)", zPath, b, w, nMax);
      return -1;
    }
    if (iWord != nWord) {
      snprintf(zErr, nErr, "%s: block %" PRIu64 " starts at word %" PRIu64 ", expected %" PRIu64
               " (corrupt FOR-bitpacked file)", zPath, b, iWord, nWord);
      return -1;
    }
    nWord += for_words(store__for_block_rows(m->nRow, b), w);
  }
  if (nWord > (UINT64_MAX - m->nForDir) / 4 || m->nForDir + nWord * 4 != m->nPayload) {
    snprintf(zErr, nErr, "%s: its blocks hold %" PRIu64 " words but the payload has %" PRIu64
             " bytes after the directory (corrupt FOR-bitpacked file)", zPath, nWord,
             m->nPayload - m->nForDir);
    return -1;
  }
  return 0;
}
