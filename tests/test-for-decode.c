/*
** tests/test-for-decode.c — the kernels' FOR decoder (codegen/device.cuh:
** sq_load_for_*, sq_gather_for_*, sq_for_block) with the GPU's tile
** layout, on the CPU. The CPU backend runs blocks of one thread, so the
** layout a GPU block of whole warps takes (sq_item: a warp's SQ_ITEMS
** items are the 128 rows of one packed block) never runs in the SSB
** suites; here the device library is compiled with threadIdx and blockDim
** made variables, and a test kernel plays every thread of a block of 1,
** 32, 64, 96, 256, 1,024 and 2,048 threads (whole warps) and of 33 and 100 (not:
** a thread's items are then consecutive rows), in turn, over files whose
** blocks have every width the decoder treats apart (0, narrow, 32, 40s in
** runs, 63 — a row over three words — and 64), blocks of runs, day slots,
** and a partial last block. Each row must come out once, equal to
** store_for_get's; so must rows read with some items unflagged, rows of a
** stride's view (the directory and words from block 32 on), rows gathered
** at random, and rows decoded from a tile's words staged in shared memory
** (sq_stage_dir, sq_stage_words, sq_stage_load_*: each step played by
** every thread before the next, as the barriers between them make it),
** with the view's directory and words each ending at a page that cannot
** be read, so that a read past either end faults. vec_load_layouts does
** the same for the loads of plain columns (one vector load a thread where
** allowed): every type, blocks of 1 to 256 threads,
** columns aligned or not, ending at such a page.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../runtime/cpu.h"
#include "../storage/store.h"
#include "devkernel.h"
#include "test.h"

#define FD_ROWS 10001
#define FD_GATHER 4000

/* The test kernel, after the device library (whose threadIdx and blockDim
** are these variables). Every row of the view is decoded by the thread
** and item that sq_item gives it into out[i], and seen[i] counts it; then
** with items unflagged by a pattern into out2 (flagged rows only, counted
** in seen[i] by 256s); then the rows listed in rows[] are gathered into
** gathered[]. */
static const char fd_zKernel[] =
    "struct t_for_args {\n"
    "  const unsigned long long *dir; const unsigned *packed; long long n;\n"
    "  int bd; int date; long long *out; long long *out2; unsigned *seen;\n"
    "  const unsigned *rows; long long nRows; long long *gathered;\n"
    "  long long *out3; long long *nTile;\n"
    "};\n"
    "/* The staged decode's three steps, each run by every thread before the\n"
    "** next starts (the barriers of sq_stage_for_*): into out3, counted in\n"
    "** seen[i] by 65536s; nTile[0] counts staged tiles, nTile[1] direct ones,\n"
    "** nTile[2] tiles whose threads disagreed on the way. */\n"
    "static void t_stage(const struct t_for_args *pa, long long base) {\n"
    "  const struct t_for_args a = *pa;\n"
    "  __shared__ sq_stage_buf st;\n"
    "  int h0 = 0;\n"
    "  for (int t = 0; t < a.bd; t++) {\n"
    "    t_sim_tid.x = (unsigned)t;\n"
    "    sq_stage_dir(a.dir, base, a.n, &st);\n"
    "  }\n"
    "  for (int t = 0; t < a.bd; t++) {\n"
    "    int h;\n"
    "    t_sim_tid.x = (unsigned)t;\n"
    "    h = sq_stage_words(a.packed, base, a.n, &st);\n"
    "    if (t == 0) h0 = h;\n"
    "    else if (h != h0) a.nTile[2]++;\n"
    "  }\n"
    "  a.nTile[h0 >= 0 ? 0 : 1]++;\n"
    "  for (int t = 0; t < a.bd; t++) {\n"
    "    int flag[SQ_ITEMS], d[SQ_ITEMS];\n"
    "    long long v[SQ_ITEMS];\n"
    "    t_sim_tid.x = (unsigned)t;\n"
    "    sq_flags_init(flag, sq_tile_rows(base, a.n));\n"
    "    for (int k = 0; k < SQ_ITEMS; k++) flag[k] &= (t * 5 + k + (int)(base >> 7)) % 4 != 1;\n"
    "    if (h0 < 0) {\n"
    "      sq_load_for_any(a.dir, a.packed, base, a.date, flag, v);\n"
    "    } else if (a.date) {\n"
    "      sq_stage_load_date(&st, h0, base, flag, d);\n"
    "      for (int k = 0; k < SQ_ITEMS; k++) v[k] = d[k];\n"
    "    } else {\n"
    "      sq_stage_load_i64(&st, h0, base, flag, v);\n"
    "    }\n"
    "    for (int k = 0; k < SQ_ITEMS; k++) {\n"
    "      if (!flag[k]) continue;\n"
    "      a.out3[base + sq_item(k)] = v[k];\n"
    "      a.seen[base + sq_item(k)] += 65536u;\n"
    "    }\n"
    "  }\n"
    "}\n"
    "__global__ void t_for_decode(const struct t_for_args a) {\n"
    "  t_sim_bdim.x = (unsigned)a.bd;\n"
    "  for (long long base = 0; base < a.n; base += (long long)a.bd * SQ_ITEMS) {\n"
    "    for (int t = 0; t < a.bd; t++) {\n"
    "      int flag[SQ_ITEMS];\n"
    "      long long v[SQ_ITEMS];\n"
    "      t_sim_tid.x = (unsigned)t;\n"
    "      for (int pass = 0; pass < 2; pass++) {\n"
    "        sq_flags_init(flag, sq_tile_rows(base, a.n));\n"
    "        for (int k = 0; pass == 1 && k < SQ_ITEMS; k++) flag[k] &= (t * 7 + k + (int)(base >> 5)) % 3 != 0;\n"
    "        sq_load_for_any(a.dir, a.packed, base, a.date, flag, v);\n"
    "        for (int k = 0; k < SQ_ITEMS; k++) {\n"
    "          long long i = base + sq_item(k);\n"
    "          if (!flag[k]) continue;\n"
    "          if (pass == 0) a.out[i] = v[k];\n"
    "          else a.out2[i] = v[k];\n"
    "          a.seen[i] += pass == 0 ? 1u : 256u;\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "    t_stage(&a, base);\n"
    "  }\n"
    "  for (long long i = 0; i + SQ_ITEMS <= a.nRows; i += SQ_ITEMS) {\n"
    "    int flag[SQ_ITEMS], d[SQ_ITEMS];\n"
    "    long long v[SQ_ITEMS];\n"
    "    for (int k = 0; k < SQ_ITEMS; k++) flag[k] = 1;\n"
    "    if (a.date) {\n"
    "      sq_gather_for_date(a.dir, a.packed, a.rows + i, flag, d);\n"
    "      for (int k = 0; k < SQ_ITEMS; k++) v[k] = d[k];\n"
    "    } else {\n"
    "      sq_gather_for_i64(a.dir, a.packed, a.rows + i, flag, v);\n"
    "    }\n"
    "    for (int k = 0; k < SQ_ITEMS; k++) a.gathered[i + k] = v[k];\n"
    "  }\n"
    "}\n"
    "STARQ_CPU_ENTRY(t_for_decode, struct t_for_args)\n";

struct t_for_args {
  const void *dir, *packed;
  int64_t n;
  int32_t bd, date;
  int64_t *out, *out2;
  uint32_t *seen;
  const uint32_t *rows;
  int64_t nRows;
  int64_t *gathered;
  int64_t *out3, *nTile;
};

/* BIGINT values in runs of 1 to 7 (an order's lines) where kind says so. */
static int64_t fd_value(int r, int o) {
  switch (r / STORE_FOR_BLOCK % 7) {
    case 0: return 42;                                                   /* width 0 */
    case 1: return r % 13 - 6;                                           /* narrow */
    case 2: return r % 2 ? INT64_MAX - r % 7 : INT64_MIN + r % 11;       /* 64 */
    case 3: return r % 2 ? 4611686018427387000LL + r : -4611686018427387000LL - r;  /* 63 */
    case 4: return o * 7919 % 100000;                                    /* runs, 17 */
    case 5: return (int64_t)o * 2654435761LL % (1LL << 45);              /* runs, 45 */
    default: return r % 2 ? INT32_MAX : INT32_MIN;                       /* 32 */
  }
}

/* An order's date (runs of day slots), or a row's own on odd blocks. */
static int64_t fd_date(int r, int o) {
  int x = r / STORE_FOR_BLOCK % 2 ? r : o;
  return (1992 + x % 7) * 10000 + (1 + x * 5 % 12) * 100 + 1 + x * 3 % 28;
}

/* A copy of n bytes at p that ends where an inaccessible page starts, so
** that a kernel (compiled without ASan) reading past it faults. Returns
** the copy; *pnMap is the mapping's size for fd_unguard. */
static char *fd_guarded(const void *p, size_t n, size_t *pnMap) {
  size_t nPage = (size_t)sysconf(_SC_PAGESIZE);
  char *pMap;
  *pnMap = (n + nPage - 1) / nPage * nPage + nPage;
  pMap = mmap(NULL, *pnMap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT(pMap != MAP_FAILED);
  ASSERT_EQ(mprotect(pMap + *pnMap - nPage, nPage, PROT_NONE), 0);
  memcpy(pMap + *pnMap - nPage - n, p, n);
  return pMap + *pnMap - nPage - n;
}

static void fd_unguard(char *pCopy, size_t n, size_t nMap) {
  size_t nPage = (size_t)sysconf(_SC_PAGESIZE);
  munmap(pCopy + n + nPage - nMap, nMap);
}

/* Runs the kernel over the view from row iRow0 (a multiple of 4096, as a
** stride's) of m for every block size, and checks every row against
** store_for_get. */
static void fd_check(cpu_kernel *k, cpu_pool *pPool, const store_map *m, uint64_t iRow0) {
  static const int aBd[] = {1, 32, 64, 96, 256, 1024, 33, 100, 2048};
  uint64_t iDir, nDir, iData, nData, n = m->nRow - iRow0;
  int64_t *aOut = calloc(n, 8), *aOut2 = calloc(n, 8), *aOut3 = calloc(n, 8);
  int64_t *aGot = calloc(FD_GATHER, 8);
  uint32_t *aSeen = calloc(n, 4), *aRow = malloc(FD_GATHER * 4);
  char zErr[512], *aDir, *aData;
  size_t nDirMap, nDataMap;
  ASSERT(aOut != NULL && aOut2 != NULL && aOut3 != NULL && aGot != NULL && aSeen != NULL &&
         aRow != NULL);
  store_for_span(m->aData, m->nRow, iRow0, n, &iDir, &nDir, &iData, &nData);
  /* The view's directory and words, each ending where a page that cannot
  ** be read starts: a read past either faults (the file's mapping would
  ** hide it in its last page). */
  aDir = fd_guarded((const char *)m->aData + iDir, nDir, &nDirMap);
  aData = fd_guarded((const char *)m->aData + iData, nData, &nDataMap);
  for (int i = 0; i < FD_GATHER; i++) aRow[i] = (uint32_t)((uint64_t)i * 7919 % n) + 1;
  for (size_t b = 0; b < sizeof(aBd) / sizeof(aBd[0]); b++) {
    uint64_t nFlagged = 0, nStaged = 0;
    int64_t aTile[3] = {0, 0, 0};
    struct t_for_args a = {aDir, aData, (int64_t)n, aBd[b], m->eEnc == STORE_ENC_FOR_DATE,
                           aOut, aOut2, aSeen, aRow, FD_GATHER, aGot, aOut3, aTile};
    memset(aSeen, 0, n * 4);
    memset(aOut2, 0, n * 8);
    memset(aOut3, 0, n * 8);
    CALL_OK(cpu_kernel_launch(pPool, k, 1, 0, &a, zErr, sizeof(zErr)));
    /* Every thread takes the same way: staged, but the direct way for a
    ** tile of more blocks than the buffer holds (2,048 threads) and for the
    ** view's last block when it is of runs (the date file's). */
    ASSERT_EQ(aTile[2], 0);
    if (aBd[b] > 32 * 32) {
      ASSERT_GT(aTile[1], 0);                    /* a whole tile: more blocks than the buffer's */
    } else if (n > (uint64_t)aBd[b] * 4) {
      ASSERT_GT(aTile[0], 0);
    }
    if (m->eEnc == STORE_ENC_FOR_DATE) ASSERT_GT(aTile[1], 0);   /* its last block: runs */
    for (uint64_t i = 0; i < n; i++) {
      int64_t want = store_for_get(m, iRow0 + i);
      if ((aSeen[i] & 255u) != 1 || aOut[i] != want) {
        FAIL("block of %d threads, view from row %llu: row %llu seen %u times, %lld, want %lld",
             aBd[b], (unsigned long long)iRow0, (unsigned long long)i, aSeen[i] & 255u,
             (long long)aOut[i], (long long)want);
      }
      if ((aSeen[i] >> 16) > 1 || ((aSeen[i] >> 16) == 1 && aOut3[i] != want)) {
        FAIL("block of %d threads, staged: row %llu seen %u times, %lld, want %lld", aBd[b],
             (unsigned long long)i, aSeen[i] >> 16, (long long)aOut3[i], (long long)want);
      }
      if (((aSeen[i] >> 8) & 255u) > 1 || (((aSeen[i] >> 8) & 255u) == 1 && aOut2[i] != want)) {
        FAIL("block of %d threads, some items unflagged: row %llu %lld, want %lld", aBd[b],
             (unsigned long long)i, (long long)aOut2[i], (long long)want);
      }
      nFlagged += (aSeen[i] >> 8) & 255u;
      nStaged += aSeen[i] >> 16;
    }
    /* The pattern leaves about a third of the items out. */
    ASSERT(nFlagged > n / 2 && nFlagged < n * 5 / 6);
    ASSERT(nStaged > n / 2 && nStaged < n * 5 / 6);
    for (int i = 0; i < FD_GATHER; i++) {
      ASSERT_EQ(aGot[i], store_for_get(m, iRow0 + aRow[i] - 1));
    }
  }
  fd_unguard(aDir, nDir, nDirMap);
  fd_unguard(aData, nData, nDataMap);
  free(aOut);
  free(aOut2);
  free(aOut3);
  free(aGot);
  free(aSeen);
  free(aRow);
}

/* Writes the file of FD_ROWS values of type t encoded as eEnc, maps it,
** and checks the block kinds it is for are there. */
static void fd_file(const char *zPath, coltype_id t, store_enc eEnc, store_map *m) {
  int64_t *a = malloc(FD_ROWS * sizeof(int64_t));
  char zErr[512];
  int aSeen[65] = {0}, nRuns = 0, nRunsWide = 0;
  ASSERT(a != NULL);
  for (int r = 0, o = 0, nLeft = 1; r < FD_ROWS; r++) {
    if (nLeft == 0) nLeft = 1 + ++o * 5 % 7;
    nLeft--;
    a[r] = t == COLTYPE_DATE ? fd_date(r, o) : fd_value(r, o);
  }
  if (t == COLTYPE_DATE) {
    int32_t *a32 = malloc(FD_ROWS * sizeof(int32_t));
    ASSERT(a32 != NULL);
    for (int r = 0; r < FD_ROWS; r++) a32[r] = (int32_t)a[r];
    CALL_OK(store_for_write(zPath, eEnc, t, a32, FD_ROWS, 0, zErr, sizeof(zErr)));
    free(a32);
  } else {
    CALL_OK(store_for_write(zPath, eEnc, t, a, FD_ROWS, 0, zErr, sizeof(zErr)));
  }
  free(a);
  CALL_OK(store_map_open(m, zPath, STORE_VALUES, t, zErr, sizeof(zErr)));
  for (uint64_t i = 0; i < m->nForDir / STORE_FOR_DIR_BYTES; i++) {
    uint64_t x;
    memcpy(&x, (const char *)m->aData + i * STORE_FOR_DIR_BYTES + 8, 8);
    aSeen[STORE_FOR_WIDTH(x)]++;
    nRuns += (x & STORE_FOR_RUNS) != 0;
    nRunsWide += (x & STORE_FOR_RUNS) != 0 && STORE_FOR_WIDTH(x) > 32;
  }
  ASSERT_GT(nRuns, 0);
  if (t != COLTYPE_DATE) {
    ASSERT(aSeen[0] > 0 && aSeen[4] > 0 && aSeen[32] > 0 && aSeen[63] > 0 && aSeen[64] > 0);
    ASSERT_GT(nRunsWide, 0);
  }
}

TEST_IMPL(for_decode_layouts) {
  char zErr[4096];
  cpu_module *pMod;
  cpu_kernel *k;
  cpu_pool *pPool;
  store_map m;
  CALL_OK(devkernel_load(fd_zKernel, "t_for_decode", &pMod, &k, zErr, sizeof(zErr)));
  CALL_OK(cpu_pool_create(1, &pPool, zErr, sizeof(zErr)));
  fd_file("v.col", COLTYPE_BIGINT, STORE_ENC_FOR, &m);
  fd_check(k, pPool, &m, 0);
  fd_check(k, pPool, &m, 4096);
  store_map_close(&m);
  fd_file("d.col", COLTYPE_DATE, STORE_ENC_FOR_DATE, &m);
  fd_check(k, pPool, &m, 0);
  fd_check(k, pPool, &m, 8192);
  store_map_close(&m);
  cpu_pool_destroy(pPool);
  cpu_module_free(pMod);
  return 0;
}

/* ---- vec_load_layouts: plain tile loads -----------------------------------------
** The loads of plain columns (sq_load_i16 .. f64) read a thread's SQ_ITEMS
** consecutive rows in one vector load where sq_vec_ok allows
** (codegen/device.cuh). The kernel plays every
** thread of blocks of 1, 32, 33 and 256 threads over a column of each type,
** all items flagged and some not, and counts the vector loads: those of a
** thread whose last row is past the column's end must be none. */
static const char vl_zKernel[] =
    "struct t_vec_args {\n"
    "  const void *p; long long n; int bd; int type; int pattern; int pad;\n"
    "  const unsigned long long *valid; long long *out; unsigned *seen; int *ok;\n"
    "  long long *nVec;\n"
    "};\n"
    "static const int t_vec_size[] = {2, 4, 4, 8, 8};\n"
    "__global__ void t_vec_load(const struct t_vec_args a) {\n"
    "  t_sim_bdim.x = (unsigned)a.bd;\n"
    "  for (long long base = 0; base < a.n; base += (long long)a.bd * SQ_ITEMS) {\n"
    "    for (int t = 0; t < a.bd; t++) {\n"
    "      int flag[SQ_ITEMS], iv[SQ_ITEMS], ok[SQ_ITEMS];\n"
    "      unsigned uv[SQ_ITEMS];\n"
    "      long long v[SQ_ITEMS];\n"
    "      double dv[SQ_ITEMS];\n"
    "      const char *p = (const char *)a.p + base * t_vec_size[a.type];\n"
    "      t_sim_tid.x = (unsigned)t;\n"
    "      sq_flags_init(flag, sq_tile_rows(base, a.n));\n"
    "      for (int k = 0; a.pattern && k < SQ_ITEMS; k++) flag[k] &= (t * 7 + k + (int)(base >> 5)) % 3 != 0;\n"
    "      int n = sq_tile_rows(base, a.n);\n"
    "      if (sq_vec_ok(p, t_vec_size[a.type], n, flag)) {\n"
    "        a.nVec[0]++;\n"
    "        if (base + sq_item(SQ_ITEMS - 1) >= a.n) a.nVec[1]++;\n"
    "      }\n"
    "      switch (a.type) {\n"
    "        case 0: sq_load_i16((const short *)p, n, flag, iv); break;\n"
    "        case 1: sq_load_i32((const int *)p, n, flag, iv); break;\n"
    "        case 2: sq_load_u32((const unsigned *)p, n, flag, uv); break;\n"
    "        case 3: sq_load_i64((const long long *)p, n, flag, v); break;\n"
    "        default: sq_load_f64((const double *)p, n, flag, dv); break;\n"
    "      }\n"
    "      sq_load_valid(a.valid, base, flag, ok);\n"
    "      for (int k = 0; k < SQ_ITEMS; k++) {\n"
    "        long long i = base + sq_item(k);\n"
    "        if (!flag[k]) continue;\n"
    "        a.out[i] = a.type <= 1 ? iv[k] : a.type == 2 ? (long long)uv[k] : a.type == 3 ? v[k] : (long long)(dv[k] * 2.0);\n"
    "        a.ok[i] = ok[k];\n"
    "        a.seen[i]++;\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n"
    "STARQ_CPU_ENTRY(t_vec_load, struct t_vec_args)\n";

struct t_vec_args {
  const void *p;
  int64_t n;
  int32_t bd, type, pattern, pad;
  const uint64_t *valid;
  int64_t *out;
  uint32_t *seen;
  int32_t *ok;
  int64_t *nVec;
};

#define VL_ROWS 1004

/* Row i of a column of type iType (t_vec_size's order) as the load returns
** it; writes its bytes to p + i * size. */
static int64_t vl_value(int iType, int64_t i, char *p) {
  uint64_t x = (uint64_t)i * 0x9e3779b97f4a7c15ull;
  switch (iType) {
    case 0: ((int16_t *)p)[i] = (int16_t)x; return (int16_t)x;
    case 1: ((int32_t *)p)[i] = (int32_t)x; return (int32_t)x;
    case 2: ((uint32_t *)p)[i] = (uint32_t)x; return (uint32_t)x;
    case 3: ((int64_t *)p)[i] = (int64_t)x; return (int64_t)x;
    default: ((double *)p)[i] = (double)i * 0.5 - 100.0; return i - 200;
  }
}

/* Runs the kernel over n rows of type iType at p (bAligned: p aligned to
** a thread's vector load) and checks every flagged row once with its value and validity. */
static void vl_check(cpu_kernel *k, cpu_pool *pPool, int iType, char *p, int64_t n, int bAligned) {
  static const int aBd[] = {1, 32, 33, 256};
  static const int aSize[] = {2, 4, 4, 8, 8};
  int64_t *aWant = malloc((size_t)n * 8), *aOut = malloc((size_t)n * 8), aVec[2];
  uint64_t aValid[(VL_ROWS + 63) / 64] = {0};
  uint32_t *aSeen = malloc((size_t)n * 4);
  int32_t *aOk = malloc((size_t)n * 4);
  char zErr[512];
  ASSERT(aWant != NULL && aOut != NULL && aSeen != NULL && aOk != NULL);
  ASSERT_EQ((uintptr_t)p % (uintptr_t)(aSize[iType] * 4 < 16 ? aSize[iType] * 4 : 16) == 0, bAligned);
  for (int64_t i = 0; i < n; i++) {
    aWant[i] = vl_value(iType, i, p);
    if (i % 7 != 3) aValid[i >> 6] |= 1ull << (i & 63);
  }
  for (size_t b = 0; b < sizeof(aBd) / sizeof(aBd[0]); b++) {
    for (int pat = 0; pat < 2; pat++) {
      struct t_vec_args a = {p, n, aBd[b], iType, pat, 0, aValid, aOut, aSeen, aOk, aVec};
      int64_t nSeen = 0;
      memset(aSeen, 0, (size_t)n * 4);
      aVec[0] = aVec[1] = 0;
      CALL_OK(cpu_kernel_launch(pPool, k, 1, 0, &a, zErr, sizeof(zErr)));
      for (int64_t i = 0; i < n; i++) {
        if (aSeen[i] > 1 || (pat == 0 && aSeen[i] != 1) ||
            (aSeen[i] == 1 && (aOut[i] != aWant[i] || aOk[i] != (i % 7 != 3)))) {
          FAIL("type %d (%d bytes), block of %d, pattern %d: row %lld seen %u, %lld want %lld",
               iType, aSize[iType], aBd[b], pat, (long long)i, aSeen[i], (long long)aOut[i],
               (long long)aWant[i]);
        }
        nSeen += aSeen[i];
      }
      if (pat == 1) ASSERT(nSeen > n / 2 && nSeen < n * 5 / 6);
      ASSERT_EQ(aVec[1], 0);                     /* never past the column's end */
      if (bAligned) ASSERT_GT(aVec[0], 0);
      else ASSERT_EQ(aVec[0], 0);
    }
  }
  free(aWant);
  free(aOut);
  free(aSeen);
  free(aOk);
}

TEST_IMPL(vec_load_layouts) {
  size_t nMap;
  char zErr[4096], *pZero = calloc(VL_ROWS * 8 + 32, 1), *p;
  cpu_module *pMod;
  cpu_kernel *k;
  cpu_pool *pPool;
  ASSERT(pZero != NULL);
  CALL_OK(devkernel_load(vl_zKernel, "t_vec_load", &pMod, &k, zErr, sizeof(zErr)));
  CALL_OK(cpu_pool_create(1, &pPool, zErr, sizeof(zErr)));
  for (int t = 0; t < 5; t++) {
    static const int aSize[] = {2, 4, 4, 8, 8};
    size_t nCol = (size_t)VL_ROWS * (size_t)aSize[t];
    /* Whole threads (VL_ROWS is a multiple of SQ_ITEMS) ending where an
    ** unreadable page starts: aligned, so the last thread's vector load
    ** ends exactly at the column's end. */
    p = fd_guarded(pZero, nCol, &nMap);
    vl_check(k, pPool, t, p, VL_ROWS, 1);
    fd_unguard(p, nCol, nMap);
    /* A partial last thread ending at the page: its start is then not
    ** aligned (rows * size is not a multiple of the load's), so every load
    ** is the scalar one. */
    p = fd_guarded(pZero, nCol - (size_t)aSize[t], &nMap);
    vl_check(k, pPool, t, p, VL_ROWS - 1, 0);
    fd_unguard(p, nCol - (size_t)aSize[t], nMap);
    /* A partial last thread, aligned: vector loads but never the last
    ** thread's (aVec[1]). */
    p = fd_guarded(pZero, nCol + 16 - nCol % 16, &nMap);
    vl_check(k, pPool, t, p, VL_ROWS - 1, 1);
    fd_unguard(p, nCol + 16 - nCol % 16, nMap);
  }
  free(pZero);
  cpu_pool_destroy(pPool);
  cpu_module_free(pMod);
  return 0;
}
