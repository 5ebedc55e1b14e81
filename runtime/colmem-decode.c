/*
** runtime/colmem-decode.c — a packed column made plain in device memory by
** the GPU: the column cache's resident copies are plain (colmem.c says
** why), and decoding on the host cost ~3 ns a row under the cache's mutex
** (~2 s for one SF 100 fact column, paid by the first resident query).
** Here the packed payload — far fewer bytes — is copied to a scratch
** buffer and a kernel writes each row's value into the resident buffer,
** at the column's width, so the load costs about the packed copy.
**
** The kernel decodes with the device library's own tile loads
** (sq_load_for_any: sq_load_for_i64 or sq_load_for_date, codegen/device.cuh),
** the functions every SCAN of a packed column uses, so a resident copy and a streamed
** read agree by construction; the tests read the copy back row by row
** against SQLite.
** The module is compiled once per process and device (then found in the
** CUDA backend's module caches, memory and disk).
**
** Should the kernel fail (short of a lost device), the host decodes
** COLMEM_DECODE_ROWS rows at a time into one buffer, each chunk then one
** copy, with store_for_get, the reference decoder.
**
** INTERFACE ROUTINES
**   colmem__decode_device   decode a packed column into device memory
**   colmem__decode_host     the same on the host, then copied
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/le.h"

#include "../codegen/codegen.h"
#include "colmem.h"

/* Rows a FOR column is decoded by on the host before each copy to the
** device: whole 128-row blocks, at most 512 KiB of plain values a chunk. */
#define COLMEM_DECODE_ROWS 65536

static const char decode_zKernel[] =
    "struct cm_decode_args {\n"
    "  const unsigned long long *dir; const unsigned *packed; void *out;\n"
    "  long long n; int width; int date;\n"
    "};\n"
    "/* A SCAN's tiles, grid-stride: each row's value at the column's width. */\n"
    "__global__ void cm_decode(const struct cm_decode_args a) {\n"
    "  for (long long base = (long long)blockIdx.x * blockDim.x * SQ_ITEMS; base < a.n;\n"
    "       base += (long long)gridDim.x * blockDim.x * SQ_ITEMS) {\n"
    "    int flag[SQ_ITEMS];\n"
    "    long long v[SQ_ITEMS];\n"
    "    sq_flags_init(flag, sq_tile_rows(base, a.n));\n"
    "    sq_load_for_any(a.dir, a.packed, base, a.date, flag, v);\n"
    "    for (int k = 0; k < SQ_ITEMS; k++) {\n"
    "      long long i = base + sq_item(k);\n"
    "      if (!flag[k]) continue;\n"
    "      if (a.width == 2) {\n"
    "        ((short *)a.out)[i] = (short)v[k];\n"
    "      } else if (a.width == 4) {\n"
    "        ((int *)a.out)[i] = (int)v[k];\n"
    "      } else {\n"
    "        ((long long *)a.out)[i] = v[k];\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n"
    "STARQ_CPU_ENTRY(cm_decode, struct cm_decode_args)\n";

/* The kernel's argument block, as the device sees it. */
typedef struct decode_args decode_args;
struct decode_args {
  uint64_t dir, packed, out;
  int64_t n;
  int32_t width, date;
};

/* Loads the decode module. Returns 0 with *ppM and *ppK, or -1 with zErr. */
static int decode_module(cuda_device *d, cuda_module **ppM, cuda_kernel **ppK, char *zErr,
                         size_t nErr) {
  static const char *const azKernel[] = {"cm_decode"};
  cuda_load_options lo = {.zSource = decode_zKernel, .zLib = codegen_device_library,
                          .nKernel = 1, .azKernel = azKernel};
  if (cuda_module_load(d, &lo, ppM, NULL, zErr, nErr) != 0) return -1;
  if (cuda_module_kernel(*ppM, "cm_decode", ppK, zErr, nErr) != 0) {
    cuda_module_release(*ppM);
    return -1;
  }
  return 0;
}

int colmem__decode_device(cuda_device *d, const store_map *m, cuda_ptr xOut, char *zErr,
                          size_t nErr) {
  const cuda_device_info *pInfo = cuda_device_info_get(d);
  uint64_t iDir, nDir, iData, nData;
  cuda_module *pMod = NULL;
  cuda_kernel *pK;
  cuda_ptr xPacked = 0;
  decode_args a;
  int rc = -1;
  if (m->nRow == 0) return 0;
  if (decode_module(d, &pMod, &pK, zErr, nErr) != 0) return -1;
  if (cuda_mem_alloc(d, m->nPayload, &xPacked, zErr, nErr) != 0 ||
      cuda_mem_write(d, xPacked, m->aData, m->nPayload, zErr, nErr) != 0) {
    goto out;
  }
  store_for_span(m->aData, m->nRow, 0, m->nRow, &iDir, &nDir, &iData, &nData);
  memset(&a, 0, sizeof(a));
  a.dir = xPacked + iDir;
  a.packed = xPacked + iData;
  a.out = xOut;
  a.n = (int64_t)m->nRow;
  a.width = (int32_t)m->nWidth;
  a.date = m->eEnc == STORE_ENC_FOR_DATE;
  rc = cuda_kernel_launch(d, pK, (unsigned)pInfo->nSm * 8u, 256, 0, &a, sizeof(a), zErr, nErr);
out:
  cuda_mem_free(d, xPacked);
  cuda_module_release(pMod);
  return rc;
}

int colmem__decode_host(cuda_device *d, const store_map *m, cuda_ptr xOut, char *zErr,
                        size_t nErr) {
  unsigned w = m->nWidth;
  unsigned char *a = malloc((size_t)COLMEM_DECODE_ROWS * w);
  int rc = 0;
  if (a == NULL) {
    snprintf(zErr, nErr, "out of memory decoding a column on the host");
    return -1;
  }
  for (uint64_t i0 = 0; rc == 0 && i0 < m->nRow; i0 += COLMEM_DECODE_ROWS) {
    uint64_t n = m->nRow - i0 < COLMEM_DECODE_ROWS ? m->nRow - i0 : COLMEM_DECODE_ROWS;
    for (uint64_t i = 0; i < n; i++) le_put(a + i * w, (uint64_t)store_for_get(m, i0 + i), (int)w);
    rc = cuda_mem_write(d, xOut + i0 * w, a, (size_t)(n * w), zErr, nErr);
  }
  free(a);
  return rc;
}
