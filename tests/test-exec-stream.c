/*
** tests/test-exec-stream.c — the column cache and strided scans, checked
** against SQLite: fact columns streamed through small stride buffers (a
** pinned budget of 0 on the CPU backend, where a stride is a real copy into
** a pool buffer and an offset for the columns that are not streamed), a
** budget that pins some columns and streams the rest, preloading, and on
** the mock GPU a device-resident cache too small for the working set, so
** columns are evicted and loaded again between queries.
*/
#include <string.h>

#include "../storage/store.h"
#include "test-exec.h"
#include "test.h"

/* Stride buffers of 64 KiB: 8,192 to 16,384 rows, so SF 0.05's 300,000
** lineorder rows take dozens of strides and the last one is partial. */
static const stride_options streamtest_strides = {64 << 10, -1, 2};

static void streamtest_configure(exectest *t, int64_t nPinned, int64_t nDevice) {
  colmem_options mo = {nPinned, nDevice};
  char zErr[512];
  if (exec_backend_configure(&t->be, &mo, &streamtest_strides, zErr, sizeof(zErr)) != 0) {
    FAIL("configure: %s", zErr);
  }
}

/* Every SSB query and edge case with every fact column streamed. */
TEST_IMPL(exec_streamed) {
  exectest t;
  exectest_open(&t, "0.05");
  streamtest_configure(&t, 0, 0);
  exectest_ssb_all(&t);
  exectest_edges(&t);
  exectest_check(&t, "SELECT count(*), sum(lo_revenue), min(lo_orderdate) FROM lineorder", 0);
  ASSERT_EQ(t.last.nColPinned, 0);
  ASSERT_GT(t.last.nColStreamed, 1);
  ASSERT_GT(t.last.nStride, 10);
  ASSERT_EQ(t.last.nStreamBytes, t.last.nFactBytes);
  /* A WHERE that leaves rows in only some strides, and a non-aggregate
  ** result written across strides. */
  exectest_check(&t, "SELECT lo_orderkey, lo_linenumber, lo_revenue FROM lineorder "
                     "WHERE lo_orderkey < 40 OR lo_orderkey > 299990 ORDER BY 1, 2", 1);
  ASSERT_GT(t.last.nStride, 10);
  exectest_close(&t);
  return 0;
}

/* A budget that pins the small tables whole and streams lineorder, with
** nullable columns (validity bitmaps stream too). lineorder's columns are
** FOR-bitpacked (about half their plain bytes), so the budget is below
** its size that way too. */
TEST_IMPL(exec_streamed_mixed) {
  exectest t;
  char zErr[512];
  int64_t n;
  exectest_open(&t, "0.05");
  streamtest_configure(&t, 3 << 19, 0);
  n = exec_backend_preload(&t.be, t.pCat, 1, zErr, sizeof(zErr));
  if (n < 0) FAIL("preload: %s", zErr);
  ASSERT_GT(n, 1 << 20);
  ASSERT(n <= 3 << 19);
  exectest_check(&t, "SELECT d_year, c_nation, sum(lo_revenue - lo_supplycost) AS profit"
                     " FROM date, customer, supplier, part, lineorder"
                     " WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey"
                     " AND lo_partkey = p_partkey AND lo_orderdate = d_datekey"
                     " AND c_region = 'AMERICA' AND s_region = 'AMERICA'"
                     " AND (p_mfgr = 'MFGR#1' OR p_mfgr = 'MFGR#2')"
                     " GROUP BY d_year, c_nation ORDER BY d_year, c_nation", 1);
  ASSERT_GT(t.last.nColPinned, 4);             /* the dimensions' */
  ASSERT_GT(t.last.nColStreamed, 2);           /* lineorder's */
  ASSERT_EQ(t.last.nColPinnedNow, 0);
  exectest_close(&t);
  return 0;
}

/* Dimension columns over the budget are pinned for the query only; the
** answer does not change. */
TEST_IMPL(exec_streamed_dims_over_budget) {
  exectest t;
  exectest_open(&t, "0.02");
  streamtest_configure(&t, 0, 0);
  exectest_check(&t, "SELECT c_nation, count(*) FROM lineorder, customer"
                     " WHERE lo_custkey = c_custkey AND c_region = 'ASIA'"
                     " GROUP BY c_nation ORDER BY 1", 1);
  if (t.be.eKind == EXEC_BACKEND_CPU) ASSERT_GT(t.last.nColPinnedNow, 0);
  exectest_close(&t);
  return 0;
}

/* On the mock GPU: a device budget that holds one query's columns but not
** two queries' (lineorder is FOR-bitpacked; its resident copies, and the
** bytes counted for them, are plain: 4 bytes a row). The second query evicts the first's columns scanned less
** than its own; both answers stay SQLite's; the session setting keeps
** fact columns in host memory. */
TEST_IMPL(exec_resident_evicts) {
  static char zLib[4096];
  static const exec_options xo = {.bNoResident = 1};
  cuda_options o;
  colmem_stats s0, s1;
  exectest t;
  snprintf(zLib, sizeof(zLib), "%s", test_bin("libstarq-cuda-mock.so"));
  memset(&o, 0, sizeof(o));
  o.zLibCuda = o.zLibNvrtc = zLib;
  o.zCacheDir = "cudacache";
  exectest_open_cuda(&t, "0.02", &o);           /* FOR-bitpacked: resident copies are plain */
  streamtest_configure(&t, -1, 1600 << 10);
  exectest_check(&t, "SELECT sum(lo_extendedprice * lo_discount) FROM lineorder"
                     " WHERE lo_quantity < 25 AND lo_discount BETWEEN 1 AND 3", 0);
  ASSERT_EQ(t.last.nColResident, 3);
  colmem_stats_get(t.be.pMem, &s0);
  ASSERT_EQ(s0.nLoad, 3);
  ASSERT_EQ(s0.nEvict, 0);
  /* The same columns again: from device memory, nothing loaded. */
  exectest_check(&t, "SELECT sum(lo_extendedprice * lo_discount) FROM lineorder"
                     " WHERE lo_quantity < 30 AND lo_discount BETWEEN 2 AND 4", 0);
  colmem_stats_get(t.be.pMem, &s1);
  ASSERT_EQ(s1.nLoad, 3);
  ASSERT_EQ(s1.nHit, s0.nHit + 3);
  /* Four other columns (480 KB each at SF 0.02, against 1.6 MB): by their
  ** third query they have been scanned more than the first three and push
  ** them out one by one; the fourth finds only equals, so it is read from
  ** pinned memory. */
  for (int i = 0; i < 3; i++) {
    exectest_check(&t, "SELECT sum(lo_revenue), sum(lo_supplycost), max(lo_tax), min(lo_ordtotalprice)"
                       " FROM lineorder", 0);
  }
  colmem_stats_get(t.be.pMem, &s1);
  ASSERT_EQ(s1.nEvict, 3);
  ASSERT(s1.nResident <= s1.nResidentBudget);
  ASSERT_EQ(t.last.nColResident, 3);
  ASSERT_EQ(t.last.nColPinned, 1);
  /* resident off: the fact columns come from pinned host memory. */
  t.pOpt = &xo;
  exectest_check(&t, "SELECT sum(lo_revenue) FROM lineorder WHERE lo_discount = 2", 0);
  ASSERT_EQ(t.last.nColResident, 0);
  ASSERT_EQ(t.last.nColPinned, 2);
  exectest_close(&t);
  return 0;
}

/* On the mock GPU with 6 MB of device memory: resident columns and kept
** buffers fill it, and a query that needs room evicts them rather than
** fail; one that cannot fit even then is a 53200 naming the size, and
** the backend goes on working. */
TEST_IMPL(exec_device_oom) {
  static char zLib[4096];
  cuda_options o;
  colmem_stats s;
  exectest t;
  snprintf(zLib, sizeof(zLib), "%s", test_bin("libstarq-cuda-mock.so"));
  memset(&o, 0, sizeof(o));
  o.zLibCuda = o.zLibNvrtc = zLib;
  o.zCacheDir = "cudacache";
  exectest_open_cuda(&t, "0.02", &o);           /* resident copies are plain: sized for them */
  setenv("STARQ_CUDA_MOCK_MEMORY", "6000000", 1);
  /* The budget allows far more than the device has: the device decides. */
  streamtest_configure(&t, -1, 1 << 30);
  exectest_check(&t, "SELECT sum(lo_revenue), sum(lo_supplycost), sum(lo_tax) FROM lineorder", 0);
  exectest_check(&t, "SELECT lo_orderdate, sum(lo_quantity), sum(lo_discount) FROM lineorder"
                     " GROUP BY lo_orderdate ORDER BY 1", 1);
  colmem_stats_get(t.be.pMem, &s);
  ASSERT_GT(s.nLoad, 3);
  ASSERT_GT(s.nEvict, 0);
  /* A group table of 4M slots cannot fit in 6 MB. */
  exectest_error(&t, "SELECT lo_orderkey, lo_linenumber, count(*) FROM lineorder"
                     " GROUP BY lo_orderkey, lo_linenumber", "53200");
  exectest_check(&t, "SELECT count(*) FROM lineorder WHERE lo_discount = 3", 0);
  unsetenv("STARQ_CUDA_MOCK_MEMORY");
  exectest_close(&t);
  return 0;
}

/* A scan that needs more stride buffers than the pool may hold (two per
** streamed column, four here against a pool of 2) is a 53200 naming the
** numbers, and the backend goes on: a scan of one column fits. */
TEST_IMPL(exec_stride_pool_too_small) {
  static const stride_options so = {64 << 10, 2, 1};
  colmem_options mo = {0, 0};
  refdb_result *pGot;
  sql_error e;
  exectest t;
  char zErr[512];
  exectest_open(&t, "0.01");
  if (exec_backend_configure(&t.be, &mo, &so, zErr, sizeof(zErr)) != 0) FAIL("configure: %s", zErr);
  ASSERT(exectest_run(&t, "SELECT sum(lo_revenue), sum(lo_tax) FROM lineorder", &pGot, &e) != 0);
  ASSERT_STR_EQ(e.zState, "53200");
  ASSERT(strstr(e.zMsg, "needs 4 stride buffers and the pool has 2") != NULL);
  exectest_check(&t, "SELECT sum(lo_revenue) FROM lineorder", 0);
  ASSERT_EQ(t.last.nColStreamed, 1);
  /* Buffers too small for one stride of 4,096 rows: a 53200 that says how
  ** much they would need, not a copy past their end. */
  {
    static const stride_options tiny = {4096, 8, 1};
    if (exec_backend_configure(&t.be, &mo, &tiny, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
    ASSERT(exectest_run(&t, "SELECT sum(lo_revenue) FROM lineorder", &pGot, &e) != 0);
    ASSERT_STR_EQ(e.zState, "53200");
    if (strstr(e.zMsg, "stride buffers of 4096 bytes hold fewer than the 4096 rows") == NULL) {
      FAIL("%s", e.zMsg);
    }
  }
  exectest_close(&t);
  return 0;
}

/* FOR-bitpacked lineorder streamed on the mock GPU (the kernels compiled
** from the same CUDA text, with blocks of many threads) and on the CPU
** backend: strides of whole 128-row blocks, a partial last stride and a
** partial last block, every SSB query against SQLite; the bytes that
** cross are the packed ones, fewer than the plain columns'. */
TEST_IMPL(exec_streamed_for) {
  static char zLib[4096];
  cuda_options o;
  exectest t;
  for (int bCuda = 0; bCuda < 2; bCuda++) {
    if (bCuda) {
      snprintf(zLib, sizeof(zLib), "%s", test_bin("libstarq-cuda-mock.so"));
      memset(&o, 0, sizeof(o));
      o.zLibCuda = o.zLibNvrtc = zLib;
      o.zCacheDir = "cudacache";
      exectest_open_cuda(&t, NULL, &o);            /* the CPU pass's data */
    } else {
      exectest_open(&t, "0.02");
    }
    streamtest_configure(&t, 0, 0);
    exectest_ssb_all(&t);
    exectest_check(&t, "SELECT count(*), sum(lo_revenue), min(lo_orderdate), max(lo_orderkey),"
                       " sum(lo_quantity * lo_discount) FROM lineorder", 0);
    ASSERT_GT(t.last.nStride, 1);
    ASSERT_GT(t.last.nColStreamed, 4);
    ASSERT_EQ(t.last.nStreamBytes, t.last.nFactBytes);
    /* Plain, these five INTEGER/DATE columns would be 4 bytes a row each;
    ** lo_quantity and lo_discount pack to a byte or less. */
    {
      cat_table *pT;
      char zErr[256];
      if (cat_table_get(t.pCat, "lineorder", &pT, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
      ASSERT_LT(t.last.nFactBytes, (uint64_t)pT->nRow * 5 * 4 * 3 / 4);
      /* lo_orderdate as day slots, lo_custkey in blocks of runs (an
      ** order's lines share it): each under 6 bits a row. */
      for (int i = 0; i < pT->nCol; i++) {
        char zPath[4096];
        store_enc e;
        uint64_t nPayload;
        if (strcmp(pT->aCol[i].zName, "lo_orderdate") != 0 &&
            strcmp(pT->aCol[i].zName, "lo_custkey") != 0) {
          continue;
        }
        cat_file_path(t.pCat, pT, pT->iGen, i, STORE_VALUES, zPath, sizeof(zPath));
        CALL_OK(store_file_info(zPath, &e, &nPayload, zErr, sizeof(zErr)));
        ASSERT_EQ(e, pT->aCol[i].type.eId == COLTYPE_DATE ? STORE_ENC_FOR_DATE : STORE_ENC_FOR);
        ASSERT_LT(nPayload, (uint64_t)pT->nRow * 6 / 8);
      }
      cat_table_free(pT);
    }
    exectest_close(&t);
  }
  return 0;
}
