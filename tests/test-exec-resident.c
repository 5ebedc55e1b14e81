/*
** tests/test-exec-resident.c — resident columns decoded (issue 10), on
** the mock GPU (tests/mock: the generated CUDA text compiled by cc) with
** lineorder FOR-bitpacked: the device copy of a FOR column is its values
** decoded, checked row by row against SQLite's copy; the resident bytes
** are the plain ones; and the kernels, which choose the plain or the
** packed load per column at run time, answer every SSB query and edge
** case as SQLite does with every column resident, with one column
** resident and the others pinned, and with one resident and the others
** streamed in strides.
*/
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/le.h"
#include "test-cuda-mock.h"
#include "test-exec.h"
#include "test.h"

/* Stride buffers of 64 KiB, as in test-exec-stream.c: dozens of strides. */
static const stride_options restest_strides = {64 << 10, -1, 2};

/* Opens SSB at zSf (NULL: the data already there) on the mock GPU, or on
** the real one when the suite runs there (STARQ_TEST_BACKEND=cuda,
** bench/device.sh gpu-tests). */
static void restest_open(exectest *t, const char *zSf) {
  static char zLib[4096];
  const char *zBackend = getenv("STARQ_TEST_BACKEND");
  cuda_options o;
  snprintf(zLib, sizeof(zLib), "%s", test_bin("libstarq-cuda-mock.so"));
  memset(&o, 0, sizeof(o));
  if (zBackend == NULL || strcmp(zBackend, "cuda") != 0) o.zLibCuda = o.zLibNvrtc = zLib;
  o.zCacheDir = "cudacache";
  exectest_open_cuda(t, zSf, &o);
}

static void restest_configure(exectest *t, int64_t nPinned, int64_t nDevice) {
  colmem_options mo = {nPinned, nDevice};
  char zErr[512];
  if (exec_backend_configure(&t->be, &mo, &restest_strides, zErr, sizeof(zErr)) != 0) {
    FAIL("configure: %s", zErr);
  }
}

/* Bytes a resident copy of n bytes takes (colmem's 512-byte units). */
static uint64_t restest_dev_bytes(uint64_t n) {
  return (n + 511) / 512 * 512;
}

/* Fails unless the nRow values nWidth bytes wide at a are column zCol of
** SQLite's lineorder, in row order. */
static void restest_same_as_sqlite(exectest *t, const char *zCol, const unsigned char *a,
                                   unsigned nWidth, uint64_t nRow) {
  sqlite3 *db = refdb_sqlite(t->pRef);
  sqlite3_stmt *pStmt;
  char zSql[160];
  uint64_t i = 0;
  int rc;
  /* SQLite holds a DATE as 'YYYY-MM-DD': compared as yyyymmdd. */
  snprintf(zSql, sizeof(zSql),
           "SELECT CAST(replace(%s, '-', '') AS INTEGER) FROM lineorder ORDER BY rowid", zCol);
  if (sqlite3_prepare_v2(db, zSql, -1, &pStmt, NULL) != SQLITE_OK) {
    FAIL("prepare %s: %s", zSql, sqlite3_errmsg(db));
  }
  while ((rc = sqlite3_step(pStmt)) == SQLITE_ROW) {
    int64_t x = sqlite3_column_int64(pStmt, 0), y;
    if (i >= nRow) break;
    y = (int64_t)le_get(a + i * nWidth, (int)nWidth);
    if (nWidth < 8 && (y >> (8 * nWidth - 1)) & 1) y -= (int64_t)1 << (8 * nWidth);   /* sign */
    if (x != y) {
      sqlite3_finalize(pStmt);
      FAIL("%s row %llu: device copy %lld, SQLite %lld", zCol, (unsigned long long)i, (long long)y,
           (long long)x);
    }
    i++;
  }
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) FAIL("step %s: %s", zSql, sqlite3_errmsg(db));
  sqlite3_finalize(pStmt);
  ASSERT_EQ(i, nRow);
}

/* The device copy of each FOR-bitpacked INTEGER, DATE and BIGINT
** lineorder column equals its values (SQLite's), the type's width a row;
** the resident bytes, in colmem's totals and per table (/status), are the
** plain size. */
TEST_IMPL(colmem_resident_plain) {
  exectest t;
  cat_table *pT;
  char zErr[512];
  uint64_t nPlain = 0, nPin, nDev;
  int nFor = 0;
  colmem_stats s;
  restest_open(&t, "0.02");
  restest_configure(&t, -1, 1 << 30);
  if (cat_table_get(t.pCat, "lineorder", &pT, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  for (int i = 0; i < pT->nCol; i++) {
    coltype_id e = pT->aCol[i].type.eId;
    colmem_ref ref;
    sql_error err;
    unsigned char *a;
    if (e != COLTYPE_INTEGER && e != COLTYPE_BIGINT && e != COLTYPE_DATE) continue;
    if (colmem_acquire(t.be.pMem, t.pCat, pT, i, STORE_VALUES, COLMEM_USE_SCAN, 1, &ref, &err) != 0) {
      FAIL("acquire %s: %s", pT->aCol[i].zName, err.zMsg);
    }
    ASSERT_EQ(ref.ePlace, COLMEM_RESIDENT);
    ASSERT_EQ(ref.nRow, (uint64_t)pT->nRow);
    if (!store_enc_packed(ref.eEnc)) {
      ASSERT_EQ(ref.bPlain, 0);                 /* a plain file is copied as it is */
      nPlain += restest_dev_bytes(ref.nByte);
      colmem_release(t.be.pMem, &ref);
      continue;
    }
    nFor++;
    ASSERT_EQ(ref.bPlain, 1);
    ASSERT_LT(ref.nByte, ref.nRow * ref.nWidth);  /* the file is packed */
    ASSERT_EQ(ref.nWidth, (unsigned)coltype_width(pT->aCol[i].type));
    if ((a = malloc(ref.nRow * ref.nWidth)) == NULL) FAIL("out of memory");
    if (cuda_mem_read(t.be.pCuda, a, ref.iAddr, ref.nRow * ref.nWidth, zErr, sizeof(zErr)) != 0) {
      FAIL("cuda_mem_read: %s", zErr);
    }
    restest_same_as_sqlite(&t, pT->aCol[i].zName, a, ref.nWidth, ref.nRow);
    free(a);
    nPlain += restest_dev_bytes(ref.nRow * ref.nWidth);
    colmem_release(t.be.pMem, &ref);
  }
  ASSERT_GT(nFor, 5);                           /* lo_orderkey (8 bytes) among them */
  colmem_stats_get(t.be.pMem, &s);
  ASSERT_EQ(s.nResident, nPlain);
  colmem_table_bytes(t.be.pMem, pT->iId, &nPin, &nDev);
  ASSERT_EQ(nDev, nPlain);
  cat_table_free(pT);
  exectest_close(&t);
  return 0;
}

/* colmem's host decode, the fallback when the GPU decode fails and the
** device is not lost: the mock's memory is capped at what is resident plus
** each column's plain copy, so a FOR column's plain buffer is allocated
** but the decode kernel's scratch buffer (the packed payload) is not. The
** copy written from the host equals SQLite's values all the same, and no
** decode kernel ran. Mock only: a real GPU has no cap to set. */
TEST_IMPL(colmem_resident_host_decode) {
  const char *zBackend = getenv("STARQ_TEST_BACKEND");
  exectest t;
  cat_table *pT;
  char zErr[512], zCap[32];
  int nFor = 0, nLaunch;
  if (zBackend != NULL && strcmp(zBackend, "cuda") == 0) return 0;
  restest_open(&t, "0.02");
  restest_configure(&t, -1, 1 << 30);
  if (cat_table_get(t.pCat, "lineorder", &pT, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  nLaunch = mocktest_stats().nLaunch;
  for (int i = 0; i < pT->nCol; i++) {
    coltype_id e = pT->aCol[i].type.eId;
    uint64_t nWidth = e == COLTYPE_BIGINT ? 8 : 4;
    colmem_ref ref;
    colmem_stats s;
    sql_error err;
    unsigned char *a;
    if (e != COLTYPE_INTEGER && e != COLTYPE_BIGINT && e != COLTYPE_DATE) continue;
    colmem_stats_get(t.be.pMem, &s);
    snprintf(zCap, sizeof(zCap), "%llu",
             (unsigned long long)(s.nResident + restest_dev_bytes((uint64_t)pT->nRow * nWidth)));
    setenv("STARQ_CUDA_MOCK_MEMORY", zCap, 1);
    if (colmem_acquire(t.be.pMem, t.pCat, pT, i, STORE_VALUES, COLMEM_USE_SCAN, 1, &ref, &err) != 0) {
      unsetenv("STARQ_CUDA_MOCK_MEMORY");
      FAIL("acquire %s: %s", pT->aCol[i].zName, err.zMsg);
    }
    unsetenv("STARQ_CUDA_MOCK_MEMORY");
    ASSERT_EQ(ref.ePlace, COLMEM_RESIDENT);
    ASSERT_EQ(ref.nWidth, nWidth);
    if (store_enc_packed(ref.eEnc)) {
      nFor++;
      ASSERT_EQ(ref.bPlain, 1);
      if ((a = malloc(ref.nRow * ref.nWidth)) == NULL) FAIL("out of memory");
      if (cuda_mem_read(t.be.pCuda, a, ref.iAddr, ref.nRow * ref.nWidth, zErr, sizeof(zErr)) != 0) {
        FAIL("cuda_mem_read: %s", zErr);
      }
      restest_same_as_sqlite(&t, pT->aCol[i].zName, a, ref.nWidth, ref.nRow);
      free(a);
    }
    colmem_release(t.be.pMem, &ref);
  }
  ASSERT_GT(nFor, 5);
  ASSERT_EQ(mocktest_stats().nLaunch, nLaunch);   /* decoded on the host, every one */
  cat_table_free(pT);
  exectest_close(&t);
  return 0;
}

/* Every SSB query and edge case with lineorder resident (plain copies):
** nothing streams or is pinned for the fact table, and the fact bytes the
** kernels read are the plain ones. */
TEST_IMPL(exec_resident_plain) {
  exectest t;
  cat_table *pT;
  char zErr[256];
  restest_open(&t, "0.02");
  restest_configure(&t, -1, 1 << 30);
  exectest_ssb_all(&t);
  exectest_edges(&t);
  exectest_check(&t, "SELECT count(*), sum(lo_revenue), min(lo_orderdate), max(lo_orderkey),"
                     " sum(lo_quantity * lo_discount) FROM lineorder", 0);
  ASSERT_EQ(t.last.nColResident, 5);
  ASSERT_EQ(t.last.nColStreamed, 0);
  exectest_check(&t, "SELECT sum(lo_revenue) FROM lineorder WHERE lo_discount = 3", 0);
  if (cat_table_get(t.pCat, "lineorder", &pT, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(t.last.nFactBytes, (uint64_t)pT->nRow * 4 * 2);
  cat_table_free(pT);
  exectest_close(&t);
  return 0;
}

/* One query, two forms: a device budget that holds one plain lineorder
** column, so the first column a query takes is resident (plain) and the
** rest are pinned (packed), then, with a pinned budget of 0, streamed in
** strides beside the resident one. Every SSB query and edge case against
** SQLite both ways. */
TEST_IMPL(exec_resident_mixed) {
  exectest t;
  cat_table *pT;
  char zErr[256];
  int64_t nOne;
  restest_open(&t, "0.02");
  if (cat_table_get(t.pCat, "lineorder", &pT, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  nOne = (int64_t)restest_dev_bytes((uint64_t)pT->nRow * 4);
  cat_table_free(pT);
  for (int bStream = 0; bStream < 2; bStream++) {
    restest_configure(&t, bStream ? 0 : -1, nOne);
    exectest_check(&t, "SELECT sum(lo_revenue), sum(lo_discount), min(lo_quantity) FROM lineorder"
                       " WHERE lo_quantity < 30", 0);
    ASSERT_EQ(t.last.nColResident, 1);
    if (bStream) {
      ASSERT_EQ(t.last.nColStreamed, 2);
      ASSERT_GT(t.last.nStride, 5);
    } else {
      ASSERT_EQ(t.last.nColPinned, 2);
    }
    exectest_ssb_all(&t);
    exectest_edges(&t);
  }
  exectest_close(&t);
  return 0;
}

/* Directory copies (runtime/colmem.c): a FOR column scanned from host
** memory — the session keeps fact columns off the device — has its block
** directory in device memory, byte for byte the file's, counted in the
** resident bytes; directories take free room only, and a resident copy
** that needs it drops them. Every SSB query and edge case reads them,
** pinned and streamed, against SQLite. */
TEST_IMPL(colmem_dir_copies) {
  static const exec_options xo = {.bNoResident = 1};
  exectest t;
  cat_table *pT;
  char zErr[512];
  uint64_t nDir = 0, nOne = 0, nSecondPlain = 0, nPin, nDev;
  int nFor = 0, iFirst = -1, iSecond = -1;
  colmem_stats s;
  restest_open(&t, "0.02");
  restest_configure(&t, -1, 1 << 30);
  if (cat_table_get(t.pCat, "lineorder", &pT, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  for (int i = 0; i < pT->nCol; i++) {
    colmem_ref ref;
    sql_error err;
    unsigned char *a;
    if (colmem_acquire(t.be.pMem, t.pCat, pT, i, STORE_VALUES, COLMEM_USE_SCAN, 0, &ref, &err) != 0) {
      FAIL("acquire %s: %s", pT->aCol[i].zName, err.zMsg);
    }
    ASSERT_EQ(ref.ePlace, COLMEM_PINNED);
    if (!store_enc_packed(ref.eEnc)) {
      ASSERT_EQ(ref.iDirAddr, 0);
      colmem_release(t.be.pMem, &ref);
      continue;
    }
    ASSERT(ref.iDirAddr != 0);
    if ((a = malloc(ref.nForDir)) == NULL) FAIL("out of memory");
    if (cuda_mem_read(t.be.pCuda, a, ref.iDirAddr, ref.nForDir, zErr, sizeof(zErr)) != 0) {
      FAIL("cuda_mem_read: %s", zErr);
    }
    ASSERT(memcmp(a, ref.pHost, ref.nForDir) == 0);
    free(a);
    nDir += restest_dev_bytes(ref.nForDir);
    if (iFirst < 0) iFirst = i;
    else if (iSecond < 0) iSecond = i;
    if (i == iSecond) nSecondPlain = restest_dev_bytes(ref.nRow * ref.nWidth);
    if (nOne == 0) nOne = restest_dev_bytes(ref.nForDir);
    nFor++;
    colmem_release(t.be.pMem, &ref);
  }
  ASSERT_GT(nFor, 5);
  ASSERT(iSecond > 0);
  colmem_stats_get(t.be.pMem, &s);
  ASSERT_EQ(s.nResident, nDir);
  colmem_table_bytes(t.be.pMem, pT->iId, &nPin, &nDev);
  ASSERT_EQ(nDev, nDir);

  /* Room for the second column's copy: the first's
  ** directory takes free room, the copy drops it (not an eviction), and then the
  ** first has none: its kernels read the host's directory. */
  restest_configure(&t, -1, (int64_t)nSecondPlain);
  for (int r = 0; r < 3; r++) {
    colmem_ref ref;
    sql_error err;
    if (colmem_acquire(t.be.pMem, t.pCat, pT, r == 1 ? iSecond : iFirst, STORE_VALUES,
                       COLMEM_USE_SCAN, r == 1, &ref, &err) != 0) {
      FAIL("acquire: %s", err.zMsg);
    }
    colmem_stats_get(t.be.pMem, &s);
    ASSERT_EQ(ref.ePlace, r == 1 ? COLMEM_RESIDENT : COLMEM_PINNED);
    ASSERT_EQ(ref.iDirAddr != 0, r == 0);
    ASSERT_EQ(s.nResident, r == 0 ? nOne : nSecondPlain);
    ASSERT_EQ(s.nEvict, 0);
    colmem_release(t.be.pMem, &ref);
  }
  cat_table_free(pT);

  t.pOpt = &xo;
  for (int bStream = 0; bStream < 2; bStream++) {
    restest_configure(&t, bStream ? 0 : -1, 1 << 30);
    exectest_ssb_all(&t);
    exectest_edges(&t);
    exectest_check(&t, "SELECT sum(lo_revenue), min(lo_orderdate), max(lo_custkey) FROM lineorder"
                       " WHERE lo_quantity < 30", 0);
    ASSERT_EQ(t.last.nColResident, 0);
    if (bStream) ASSERT_GT(t.last.nStride, 1);
    colmem_stats_get(t.be.pMem, &s);
    ASSERT_GT(s.nResident, 0);
  }
  exectest_close(&t);
  return 0;
}
