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
**                         | bit width (0..64) << 56 | runs << 63
**             then the 32-bit words of every block back to back: row j of
**             a block at bits [j * w, j * w + w) of the block's words,
**             least significant bit first; a block of n rows takes
**             ceil(n * w / 32) words, so a block of equal values (w = 0)
**             takes none.
**   runs      a block with the runs bit set holds runs of equal values:
**             STORE_FOR_RUN_WORDS words whose bit j (bit j % 32 of word
**             j / 32) is set where row j starts a run (bit 0 always, none
**             past the block's rows), then one delta a run, packed as
**             above: row j's is the one of run rank(j) - 1, rank(j) the
**             set bits at or below j. The writer takes it where it is
**             smaller. lo_orderkey, lo_custkey, lo_orderdate are a
**             lineorder's order's, repeated on its 1 to 7 lines: ~32 runs
**             a block, so lo_custkey's 15 bits a row become ~4.
**   FOR_DATE  (STORE_ENC_FOR_DATE, DATE columns) packs each yyyymmdd v =
**             y * 10000 + m * 100 + d as its day slot y * 372 + m * 31 +
**             d (0 for 0, the slot of a NULL): a month is 31 slots and a
**             year 372, so the slots of a block of dates span about its
**             days (SSB's seven years: 2,604 slots, 12 bits, where
**             yyyymmdd spans 70,000, 17 bits). Not days since an epoch:
**             the slots take as many bits, are total over every month's
**             1..31 (no calendar to check), and turn back into yyyymmdd
**             with two divisions by constants where civil-from-days needs
**             five (bench/RESULTS.md "Compressed columns": 1.4 ns a row
**             on the CPU, against 5.7). The writer takes it where it is
**             smaller than FOR over yyyymmdd.
**
** Why 128 rows: a warp of 32 threads reading 32 consecutive rows of a
** block reads w consecutive words (coalesced), a warp's SQ_ITEMS (4)
** items of 32 rows are one block (one directory entry a warp a tile,
** codegen/device.cuh), and a SCAN tile of
** blockDim.x * SQ_ITEMS rows starts on a block boundary whenever
** blockDim.x is a multiple of 32; a stride (a multiple of 4096 rows) always
** does. The directory costs 1 bit per row, and a block small enough that
** a sorted or clustered column (lo_orderkey) gets a narrow width.
**
** Offsets are redundant with the widths (each follows from the ones
** before), but they locate any block in O(1), which the SCAN needs: its
** tiles land anywhere. The reader trusts none of it: store__for_check()
** runs when a file is mapped and refuses a width past the type's bits, an
** offset that does not follow from the widths and run bits, run bits
** that do not start at row 0 or reach past the block, or words that do
** not end exactly at the payload's end, so that decoding any row < nRow
** stays in the file (tests/fuzz/fuzz-colfile.c tries).
**
** What it saves (SSB SF 1, bench/RESULTS.md "Compressed columns"): the
** lineorder columns the 13 queries read go from 1,392 MB to 735 MB
** with FOR (1.90x), and to 566 MB with runs and day slots (2.46x).
**
** The decoder here is the host's (tests, the loader's append, the
** reference database); the kernels' is codegen/device.cuh's sq_for_block
** and sq_day_ymd, which must agree with store_for_get bit for bit.
**
** INTERFACE ROUTINES
**   store_for_type_ok, store_for_size, store_for_write, store_for_compress
**   store_for_get, store_for_span, store_map_decode, store_for_day_ymd,
**   store_enc_name
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

/* One block on its way to the file: its values as packed (day slots for
** FOR_DATE), its frame, and the words it takes. */
typedef struct for_block for_block;
struct for_block {
  int64_t aV[STORE_FOR_BLOCK];   /* the rows' values, mapped */
  unsigned n;                    /* rows */
  int64_t ref;                   /* least value */
  unsigned w;                    /* bits of the widest delta */
  unsigned nRun;                 /* runs of equal values */
  int bRuns;                     /* stored as runs (smaller) */
  uint64_t nWord;                /* words it takes */
};

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

/* 1 if values of type t can be written as eEnc: a packed encoding of a
** FOR-able type, and day slots only for a DATE column. */
static int for_enc_ok(store_enc eEnc, coltype_id t) {
  return store_for_type_ok(t) && store_enc_packed(eEnc) &&
         (eEnc != STORE_ENC_FOR_DATE || t == COLTYPE_DATE);
}

const char *store_enc_name(store_enc e) {
  switch (e) {
    case STORE_ENC_PLAIN: return "plain";
    case STORE_ENC_FOR: return "FOR";
    case STORE_ENC_FOR_DATE: return "FOR-date";
    default: return "unknown";
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

/* The day slot of v: y * 372 + m * 31 + d for v = y * 10000 + m * 100 + d
** with y >= 1, m in 1..12 and d in 1..31, and 0 for 0. Returns -1 for any
** other v (FOR_DATE cannot hold it). Slots of a year lie in [y * 372 + 32,
** y * 372 + 403], so no two values share one and none is 0. */
int64_t store_for_day_slot(int64_t v) {
  int64_t y = v / 10000, m = v / 100 % 100, d = v % 100;
  if (v == 0) return 0;
  if (v < 10101 || v > INT32_MAX || m < 1 || m > 12 || d < 1 || d > 31) return -1;
  return y * 372 + m * 31 + d;
}

int32_t store_for_day_ymd(uint32_t s) {
  uint32_t t = s - 32u, y = t / 372u, r = t - y * 372u, m = r / 31u;
  uint32_t ymd = y * 10000u + m * 100u + (r - m * 31u) + 101u;
  return (int32_t)(s == 0u ? 0u : ymd);
}

uint64_t store__for_block_rows(uint64_t nRow, uint64_t b) {
  uint64_t n = nRow - b * STORE_FOR_BLOCK;
  return n < STORE_FOR_BLOCK ? n : STORE_FOR_BLOCK;
}

/* Words of n rows of w bits. */
static uint64_t for_words(uint64_t n, unsigned w) {
  return (n * w + 31) / 32;
}

/* Reads block b of nRow plain values a into k, mapped for eEnc, and frames
** it: reference, width, runs, and the smaller of the two layouts. Returns
** 0, or 1 + the row in the block of a value that cannot be mapped. */
static int for_block_read(for_block *k, store_enc eEnc, const void *a, unsigned nByte,
                          uint64_t nRow, uint64_t b) {
  uint64_t i0 = b * STORE_FOR_BLOCK, r;
  int64_t hi;
  k->n = (unsigned)store__for_block_rows(nRow, b);
  for (unsigned j = 0; j < k->n; j++) {
    int64_t v = for_plain_get(a, nByte, i0 + j);
    if (eEnc == STORE_ENC_FOR_DATE && (v = store_for_day_slot(v)) < 0) return (int)j + 1;
    k->aV[j] = v;
  }
  k->ref = hi = k->aV[0];
  k->nRun = 1;
  for (unsigned j = 1; j < k->n; j++) {
    if (k->aV[j] < k->ref) k->ref = k->aV[j];
    if (k->aV[j] > hi) hi = k->aV[j];
    k->nRun += k->aV[j] != k->aV[j - 1];
  }
  r = (uint64_t)hi - (uint64_t)k->ref;    /* the range, exact in 64 unsigned bits */
  for (k->w = 0; r != 0; r >>= 1) k->w++;
  k->nWord = for_words(k->n, k->w);
  k->bRuns = STORE_FOR_RUN_WORDS + for_words(k->nRun, k->w) < k->nWord;
  if (k->bRuns) k->nWord = STORE_FOR_RUN_WORDS + for_words(k->nRun, k->w);
  return 0;
}

uint64_t store_for_size(store_enc eEnc, coltype_id t, const void *a, uint64_t nRow) {
  unsigned nByte = for_type_bytes(t);
  uint64_t nBlock = (nRow + STORE_FOR_BLOCK - 1) / STORE_FOR_BLOCK, nWord = 0;
  for_block k;
  if (!for_enc_ok(eEnc, t)) {
    return UINT64_MAX;
  }
  for (uint64_t b = 0; b < nBlock; b++) {
    if (for_block_read(&k, eEnc, a, nByte, nRow, b) != 0) return UINT64_MAX;
    nWord += k.nWord;
  }
  return nBlock * STORE_FOR_DIR_BYTES + nWord * 4;
}

/* ORs delta d at bit offset bit of aw: it spans up to three words, 32 - s
** bits, then 32, then the rest. */
static void for_put_bits(uint32_t *aw, uint64_t bit, uint64_t d, unsigned w) {
  unsigned s = (unsigned)(bit & 31);
  uint64_t iw = bit >> 5;
  aw[iw] |= (uint32_t)(d << s);
  if (s + w > 32) aw[iw + 1] |= (uint32_t)(d >> (32 - s));
  if (s + w > 64) aw[iw + 2] |= (uint32_t)(d >> (64 - s));
}

/* Packs block k into aw (k->nWord words, zeroed here): the rows' deltas,
** or the run-start bits and one delta a run. */
static void for_block_pack(const for_block *k, uint32_t *aw) {
  uint64_t iRun = 0;
  memset(aw, 0, (size_t)k->nWord * 4);
  if (k->w == 0) return;
  if (!k->bRuns) {
    for (unsigned j = 0; j < k->n; j++) {
      for_put_bits(aw, (uint64_t)j * k->w, (uint64_t)k->aV[j] - (uint64_t)k->ref, k->w);
    }
    return;
  }
  for (unsigned j = 0; j < k->n; j++) {
    if (j > 0 && k->aV[j] == k->aV[j - 1]) continue;
    aw[j / 32] |= UINT32_C(1) << (j % 32);
    for_put_bits(aw + STORE_FOR_RUN_WORDS, iRun++ * k->w,
                 (uint64_t)k->aV[j] - (uint64_t)k->ref, k->w);
  }
}

int store_for_write(const char *zPath, store_enc eEnc, coltype_id t, const void *a, uint64_t nRow,
                    int bSync, char *zErr, size_t nErr) {
  unsigned nByte = for_type_bytes(t);
  uint64_t nBlock = (nRow + STORE_FOR_BLOCK - 1) / STORE_FOR_BLOCK, nWord = 0, iAt;
  unsigned char *aDir = NULL;
  uint32_t *aw = NULL;
  uint32_t aBlock[2 * STORE_FOR_BLOCK + STORE_FOR_RUN_WORDS];  /* one block's words */
  size_t nw = 0;
  for_block k;                                 /* as store_for_size keeps it */
  store_file f;
  coltype ct;

  memset(&ct, 0, sizeof(ct));
  ct.eId = t;
  if (!for_enc_ok(eEnc, t)) {
    snprintf(zErr, nErr, "%s: values of type %d cannot be stored as %s", zPath, (int)t,
             store_enc_name(eEnc));
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
  f.eEnc = eEnc;
  iAt = nBlock * STORE_FOR_DIR_BYTES;       /* the words follow the directory */
  for (uint64_t b = 0; b < nBlock; b++) {
    int iBad = for_block_read(&k, eEnc, a, nByte, nRow, b);
    if (iBad != 0) {
      uint64_t i = b * STORE_FOR_BLOCK + (uint64_t)iBad - 1;
      snprintf(zErr, nErr, "%s: row %" PRIu64 " holds %" PRId64 ", neither a date (yyyymmdd) nor 0",
               zPath, i, for_plain_get(a, nByte, i));
      goto out_abort;
    }
    le_put(aDir + b * STORE_FOR_DIR_BYTES, (uint64_t)k.ref, 8);
    le_put(aDir + b * STORE_FOR_DIR_BYTES + 8,
           nWord | (uint64_t)k.w << 56 | (k.bRuns ? STORE_FOR_RUNS : 0), 8);
    for_block_pack(&k, aBlock);
    if (nw + k.nWord > FOR_CHUNK_WORDS) {
      if (store_file_write_at(&f, iAt, aw, nw * 4, zErr, nErr) != 0) goto out_abort;
      iAt += nw * 4;
      nw = 0;
    }
    for (size_t i = 0; i < k.nWord; i++) le_put((unsigned char *)&aw[nw + i], aBlock[i], 4);
    nw += k.nWord;
    nWord += k.nWord;
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

int store_for_compress(const char *zPath, int bSync, store_enc *peEnc, char *zErr, size_t nErr) {
  char zTmp[4200];
  store_map m;
  uint64_t nPlain, nFor, nDate;
  store_enc e = STORE_ENC_FOR;
  int rc = 0;

  if (store_map_open(&m, zPath, STORE_VALUES, 0, zErr, nErr) != 0) return -1;
  *peEnc = m.eEnc;
  if (m.eEnc != STORE_ENC_PLAIN || !store_for_type_ok(m.eType) || m.nRow == 0) goto out;
  nPlain = m.nPayload;
  nFor = store_for_size(STORE_ENC_FOR, m.eType, m.aData, m.nRow);
  /* Day slots only where they pay: a column of dates far apart, or of
  ** runs of one date, packs as well either way and decodes cheaper as
  ** yyyymmdd. */
  if (m.eType == COLTYPE_DATE &&
      (nDate = store_for_size(STORE_ENC_FOR_DATE, m.eType, m.aData, m.nRow)) < nFor) {
    e = STORE_ENC_FOR_DATE;
    nFor = nDate;
  }
  /* Every byte saved is a byte less over PCIe, and decoding is a few ALU
  ** operations a row; below an eighth saved it is not worth a format. */
  if (nFor > nPlain - nPlain / 8) goto out;
  if (snprintf(zTmp, sizeof(zTmp), "%s.for", zPath) >= (int)sizeof(zTmp)) {
    snprintf(zErr, nErr, "%s: path too long", zPath);
    rc = -1;
    goto out;
  }
  if (store_for_write(zTmp, e, m.eType, m.aData, m.nRow, bSync, zErr, nErr) != 0) {
    rc = -1;
    goto out;
  }
  if (rename(zTmp, zPath) != 0) {
    snprintf(zErr, nErr, "rename %s: %s", zTmp, strerror(errno));
    unlink(zTmp);
    rc = -1;
    goto out;
  }
  *peEnc = e;
out:
  store_map_close(&m);
  return rc;
}

/* The directory entry of block b of a FOR payload: reference, word
** offset, width and the runs flag. */
static void for_dir_get(const unsigned char *aPayload, uint64_t b, int64_t *pRef,
                        uint64_t *piWord, unsigned *pw, int *pbRuns) {
  uint64_t x = le_get(aPayload + b * STORE_FOR_DIR_BYTES + 8, 8);
  *pRef = (int64_t)le_get(aPayload + b * STORE_FOR_DIR_BYTES, 8);
  *piWord = x & STORE_FOR_OFF_MASK;
  *pw = STORE_FOR_WIDTH(x);
  *pbRuns = (x & STORE_FOR_RUNS) != 0;
}

/* Set bits of the run-start words at aw (STORE_FOR_RUN_WORDS of them) up to
** and including row j's. */
static unsigned for_run_rank(const unsigned char *aw, unsigned j) {
  unsigned r = 0;
  for (unsigned i = 0; i < j / 32; i++) {
    r += (unsigned)__builtin_popcount((uint32_t)le_get(aw + i * 4, 4));
  }
  return r + (unsigned)__builtin_popcount((uint32_t)le_get(aw + j / 32 * 4, 4) &
                                          (UINT32_C(0xffffffff) >> (31 - j % 32)));
}

int64_t store_for_get(const store_map *m, uint64_t i) {
  const unsigned char *p = m->pPlain != NULL ? (const unsigned char *)m->pMap + STORE_HEADER_SIZE
                                             : m->aData;
  const unsigned char *aw;
  uint64_t iWord, bit, x = 0, j = i % STORE_FOR_BLOCK;
  unsigned w, s;
  int64_t ref;
  int bRuns;
  for_dir_get(p, i / STORE_FOR_BLOCK, &ref, &iWord, &w, &bRuns);
  if (w != 0) {
    aw = p + m->nForDir + iWord * 4;
    if (bRuns) {
      j = for_run_rank(aw, (unsigned)j) - 1;
      aw += STORE_FOR_RUN_WORDS * 4;
    }
    bit = j * w;
    s = (unsigned)(bit & 31);
    aw += (bit >> 5) * 4;
    x = le_get(aw, 4) >> s;
    if (s + w > 32) x |= le_get(aw + 4, 4) << (32 - s);
    if (s + w > 64) x |= le_get(aw + 8, 4) << (64 - s);
    if (w < 64) x &= (UINT64_C(1) << w) - 1;
  }
  x += (uint64_t)ref;
  /* As the type holds it, as the kernels' sq_as_* and sq_day_ymd do: a
  ** corrupt block cannot yield a value its plain file could not hold. */
  if (m->eEnc == STORE_ENC_FOR_DATE) return store_for_day_ymd((uint32_t)x);
  switch (for_type_bytes(m->eType)) {
    case 2: return (int16_t)x;
    case 4: return (int32_t)x;
    default: return (int64_t)x;
  }
}

/* Words of block b of a checked FOR payload of nRow rows (nBlock blocks). */
static uint64_t for_block_words(const unsigned char *aPayload, uint64_t nBlock, uint64_t nRow,
                                uint64_t b) {
  int64_t ref;
  uint64_t iWord;
  unsigned w;
  int bRuns;
  for_dir_get(aPayload, b, &ref, &iWord, &w, &bRuns);
  if (!bRuns) return for_words(store__for_block_rows(nRow, b), w);
  aPayload += nBlock * STORE_FOR_DIR_BYTES + iWord * 4;     /* its run-start words */
  return STORE_FOR_RUN_WORDS + for_words(for_run_rank(aPayload, STORE_FOR_BLOCK - 1), w);
}

void store_for_span(const void *aPayload, uint64_t nRow, uint64_t iRow, uint64_t n,
                    uint64_t *piDir, uint64_t *pnDir, uint64_t *piData, uint64_t *pnData) {
  uint64_t nBlock = (nRow + STORE_FOR_BLOCK - 1) / STORE_FOR_BLOCK;
  uint64_t b0 = iRow / STORE_FOR_BLOCK, b1 = (iRow + n + STORE_FOR_BLOCK - 1) / STORE_FOR_BLOCK;
  uint64_t w0, w1;
  int64_t ref;
  unsigned w;
  int bRuns;
  if (b1 > nBlock) b1 = nBlock;
  if (b0 >= b1) {
    *piDir = *pnDir = *pnData = 0;
    *piData = nBlock * STORE_FOR_DIR_BYTES;
    return;
  }
  for_dir_get(aPayload, b0, &ref, &w0, &w, &bRuns);
  for_dir_get(aPayload, b1 - 1, &ref, &w1, &w, &bRuns);
  w1 += for_block_words(aPayload, nBlock, nRow, b1 - 1);
  *piDir = b0 * STORE_FOR_DIR_BYTES;
  *pnDir = (b1 - b0) * STORE_FOR_DIR_BYTES;
  *piData = nBlock * STORE_FOR_DIR_BYTES + w0 * 4;
  *pnData = (w1 - w0) * 4;
}

int store_map_decode(store_map *m, char *zErr, size_t nErr) {
  unsigned nByte;
  unsigned char *a;
  if (!store_enc_packed(m->eEnc) || m->pPlain != NULL) return 0;
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

/* Checks the run-start words at aw of block b (n rows): row 0 starts a
** run and no row past n does. Returns 0, or -1 with zErr set. */
static int for_check_runs(const unsigned char *aw, unsigned n, uint64_t b, const char *zPath,
                          char *zErr, size_t nErr) {
  if ((le_get(aw, 4) & 1) == 0) {
    snprintf(zErr, nErr, "%s: block %" PRIu64 " of runs does not start a run at its first row"
             " (corrupt FOR-bitpacked file)", zPath, b);
    return -1;
  }
  for (unsigned j = n; j < STORE_FOR_BLOCK; j++) {
    if ((le_get(aw + j / 32 * 4, 4) >> (j % 32)) & 1) {
      snprintf(zErr, nErr, "%s: block %" PRIu64 " of %u rows starts a run at row %u"
               " (corrupt FOR-bitpacked file)", zPath, b, n, j);
      return -1;
    }
  }
  return 0;
}

int store__for_check(const store_map *m, const unsigned char *aPayload, const char *zPath,
                     char *zErr, size_t nErr) {
  uint64_t nBlock = m->nForDir / STORE_FOR_DIR_BYTES, nWord = 0;
  uint64_t nAvail = (m->nPayload - m->nForDir) / 4;      /* whole words after the directory */
  unsigned nMax = 8 * for_type_bytes(m->eType);
  for (uint64_t b = 0; b < nBlock; b++) {
    int64_t ref;
    uint64_t iWord, n = store__for_block_rows(m->nRow, b);
    unsigned w;
    int bRuns;
    for_dir_get(aPayload, b, &ref, &iWord, &w, &bRuns);
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
    if (bRuns) {
      const unsigned char *aw = aPayload + m->nForDir + iWord * 4;
      /* The run-start words must be there before they are read. */
      if (nAvail - nWord < STORE_FOR_RUN_WORDS) {
        snprintf(zErr, nErr, "%s: block %" PRIu64 " of runs starts at word %" PRIu64 " of %" PRIu64
                 " (corrupt FOR-bitpacked file)", zPath, b, nWord, nAvail);
        return -1;
      }
      if (for_check_runs(aw, (unsigned)n, b, zPath, zErr, nErr) != 0) return -1;
      nWord += STORE_FOR_RUN_WORDS + for_words(for_run_rank(aw, STORE_FOR_BLOCK - 1), w);
    } else {
      nWord += for_words(n, w);
    }
    if (nWord > nAvail) break;
  }
  if (nWord > nAvail || m->nForDir + nWord * 4 != m->nPayload) {
    snprintf(zErr, nErr, "%s: its blocks hold %s%" PRIu64 " words but the payload has %" PRIu64
             " bytes after the directory (corrupt FOR-bitpacked file)", zPath,
             nWord > nAvail ? "more than " : "", nWord, m->nPayload - m->nForDir);
    return -1;
  }
  return 0;
}
