/*
** tests/fuzz/fuzz-colfile.c — a libFuzzer target over the column-file
** reader (storage/colfile.c, storage/colfor.c): the bytes of a file the
** server maps at start and trusts from then on, in the kernels too.
**
** Any input goes through store__map_check(), the whole check that
** store_map_open() runs on a mapped file (header, then a FOR payload's
** directory, widths, run bits and offsets), as a VALUES file of any
** type. An input it accepts is read whole: every row of a plain file,
** and of a FOR-bitpacked one every row through store_for_get (the
** host's decoder, which the kernels' sq_for_block mirrors), the decoded copy
** store_map_decode() makes, and the span of every stride a scan would
** copy, which must lie inside the payload. No crash, no read past the
** input (it is copied into a buffer of exactly its size, so ASan sees
** one), no UB, no leak.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../storage/store.h"
#include "../../storage/storeInt.h"

int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData);

/* Rows a stride of the fuzzed scan takes: a few blocks, so that spans
** start and end inside the directory. */
#define FUZZ_STRIDE_ROWS (3 * STORE_FOR_BLOCK)

/* Reads every row of the accepted m, and for a FOR file its strides. */
static void fuzz_read_all(store_map *m) {
  volatile uint64_t x = 0;      /* a sum only to keep the reads */
  char zErr[256];
  if (!store_enc_packed(m->eEnc)) {
    for (uint64_t i = 0; i < m->nRow; i++) {
      int64_t v = 0;
      memcpy(&v, (const unsigned char *)m->aData + i * m->nWidth, m->nWidth);
      x += (uint64_t)v;
    }
    return;
  }
  for (uint64_t i = 0; i < m->nRow; i++) x += (uint64_t)store_for_get(m, i);
  for (uint64_t i = 0; i < m->nRow; i += FUZZ_STRIDE_ROWS) {
    uint64_t iDir, nDir, iData, nData;
    store_for_span(m->aData, m->nRow, i, FUZZ_STRIDE_ROWS, &iDir, &nDir, &iData, &nData);
    if (iDir + nDir > m->nForDir || iData < m->nForDir || iData + nData > m->nPayload) abort();
  }
  if (store_map_decode(m, zErr, sizeof(zErr)) == 0) {
    /* The decoded copy holds what store_for_get reads. */
    for (uint64_t i = 0; i < m->nRow; i++) {
      int64_t v = 0;
      const unsigned char *p = (const unsigned char *)m->aData + i * m->nWidth;
      if (m->nWidth == 2) { int16_t h; memcpy(&h, p, 2); v = h; }
      else if (m->nWidth == 4) { int32_t h; memcpy(&h, p, 4); v = h; }
      else memcpy(&v, p, 8);
      if (v != store_for_get(m, i)) abort();
    }
  }
  (void)x;
}

int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData) {
  unsigned char *p = malloc(nData ? nData : 1);
  char zErr[512];
  store_map m;
  if (p == NULL) return 0;
  memcpy(p, aData, nData);
  memset(&m, 0, sizeof(m));
  if (store__map_check(&m, p, nData, "fuzz.col", STORE_VALUES, 0, zErr, sizeof(zErr)) == 0) {
    /* As store_map_open() leaves it: store_for_get() finds the payload
    ** through pMap once store_map_decode() has pointed aData elsewhere. */
    m.pMap = p;
    m.nMap = nData;
    fuzz_read_all(&m);
  }
  free(m.pPlain);          /* not store_map_close(): p is no mapping */
  free(p);
  return 0;
}
