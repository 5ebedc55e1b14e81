/*
** tests/test-exec-for.c — every path of the kernels' FOR decoder
** (codegen/device.cuh, sq_for_block) through queries, against SQLite: a
** fact table whose packed blocks are of width 0, narrow, 16 (SMALLINT's
** whole range), 32 (INTEGER's), 45 in blocks of runs, 63 (a row's bits
** then span three words) and 64 (BIGINT's whole range), blocks of runs of
** INTEGER values and of day slots, and a last block and a last tile that
** are partial (10,001 rows: 78 blocks and 17 rows).
**
** Each query runs on the CPU backend and on the mock GPU (the same CUDA
** text compiled by cc), with the table read whole (pinned), in strides of
** 4,096 rows (three, the last partial), again in strides with staging off
** (starq.stage_packed: the first condition group's packed tiles then not
** staged through shared memory) and, on the mock GPU, from its resident
** copies (decoded there by colmem-decode.c's kernel, the same decoder).
** The SCAN's source says which loads are staged (fp_stage_source). On the
** mock GPU every run takes the module of its path: the decode alone
** (SQ_PATH 2) for columns read from host memory, the plain loads alone
** (SQ_PATH 1) for resident ones. Before that, the test reads the files'
** block directories and checks that every width and kind of block it is
** for is there.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../storage/store.h"
#include "test-cuda-mock.h"
#include "test-exec.h"
#include "test-plan.h"
#include "test.h"

#define FP_ROWS 10001

/* A query of BIGINT columns only: strides of 4,096 rows (64 KiB buffers of
** 8-byte values and their directories), so three of them. */
#define FP_WIDE "SELECT count(*), min(a64), max(ordw) FROM fp"

/* Row r of fp as CSV: id, k, w0, a32, a64, s16, ord, ordw, d, amt; o is
** the order the row is a line of (orders of 1 to 7 lines, as lineorder's). */
static void fp_row(strbuf *s, int r, int o) {
  int b = r / STORE_FOR_BLOCK;
  strbuf_printf(s, "%d,%d,%d,", r, r % 9 + 1, r / 256 * 10);
  /* a32: INTEGER's whole range in every fourth block, else narrow; NULLs. */
  if (r % 17 == 5) strbuf_puts(s, ",");
  else if (b % 4 == 1) strbuf_printf(s, "%d,", r % 2 ? 2147483647 - r % 3 : -2147483647 - 1 + r % 5);
  else strbuf_printf(s, "%d,", r % 13 - 6);
  /* a64: BIGINT's whole range (width 64), a range just under 2^63 (63). */
  if (b % 6 == 2) {
    strbuf_printf(s, "%lld,", r % 2 ? 9223372036854775807LL - r % 7 : -9223372036854775807LL - 1 + r % 11);
  } else if (b % 6 == 4) {
    strbuf_printf(s, "%lld,", r % 2 ? 4611686018427387000LL + r : -4611686018427387000LL - r);
  } else {
    strbuf_printf(s, "%lld,", (long long)r * 1000003 % 999 - 500);
  }
  /* s16: SMALLINT's whole range in every fifth block. */
  if (b % 5 == 3) strbuf_printf(s, "%d,", r % 2 ? 32767 : -32768);
  else strbuf_printf(s, "%d,", r * 37 % 601 - 300);
  /* ord, ordw, d: an order's, repeated on its lines (blocks of runs). */
  strbuf_printf(s, "%d,%lld,%04d-%02d-%02d,%d\n", o * 7919 % 100000,
                (long long)o * 2654435761LL % (1LL << 45) - (1LL << 44), 1992 + o % 7,
                1 + o * 5 % 12, 1 + o * 3 % 28, r * 37 % 1000 - 400);
}

/* Block kinds seen in a column's directory. */
typedef struct fp_blocks fp_blocks;
struct fp_blocks {
  int aWidth[65];          /* blocks of each width */
  int nRuns;               /* blocks of runs */
  int nRunsWide;           /* blocks of runs wider than 32 bits */
};

/* Reads column iCol's directory: what widths and kinds its blocks have. */
static store_enc fp_scan(cat *pCat, int iCol, fp_blocks *pB) {
  cat_table *t;
  char zErr[512], zPath[4096];
  store_map m;
  store_enc e;
  memset(pB, 0, sizeof(*pB));
  if (cat_table_get(pCat, "fp", &t, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  cat_file_path(pCat, t, t->iGen, iCol, STORE_VALUES, zPath, sizeof(zPath));
  CALL_OK(store_map_open(&m, zPath, STORE_VALUES, 0, zErr, sizeof(zErr)));
  e = m.eEnc;
  for (uint64_t i = 0; store_enc_packed(e) && i < m.nForDir / STORE_FOR_DIR_BYTES; i++) {
    uint64_t x;
    memcpy(&x, (const char *)m.aData + i * STORE_FOR_DIR_BYTES + 8, 8);
    pB->aWidth[STORE_FOR_WIDTH(x)]++;
    pB->nRuns += (x & STORE_FOR_RUNS) != 0;
    pB->nRunsWide += (x & STORE_FOR_RUNS) != 0 && STORE_FOR_WIDTH(x) > 32;
  }
  store_map_close(&m);
  cat_table_free(t);
  return e;
}

/* Makes ./data: kd, and fp as the file's comment says, and checks that
** its files hold the blocks the test is for. */
static void fp_make(void) {
  cat *pCat;
  char zErr[512];
  strbuf s;
  fp_blocks k;
  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("cat_open: %s", zErr);
  plantest_sql_table(pCat, "CREATE TABLE kd (k INTEGER PRIMARY KEY, grp VARCHAR(4))");
  plantest_sql_table(pCat, "CREATE TABLE fp (id INTEGER NOT NULL, k INTEGER REFERENCES kd,"
                           " w0 INTEGER NOT NULL, a32 INTEGER, a64 BIGINT NOT NULL,"
                           " s16 SMALLINT NOT NULL, ord INTEGER NOT NULL, ordw BIGINT NOT NULL,"
                           " d DATE NOT NULL, amt INTEGER)");
  plantest_load(pCat, "kd", "1,a\n2,b\n3,c\n4,a\n5,b\n6,c\n7,a\n8,b\n9,c\n");
  strbuf_init(&s);
  for (int r = 0, o = 0, nLeft = 1; r < FP_ROWS; r++) {
    if (nLeft == 0) nLeft = 1 + ++o * 5 % 7;
    nLeft--;
    fp_row(&s, r, o);
  }
  ASSERT(!strbuf_error(&s));
  plantest_load(pCat, "fp", strbuf_str(&s));
  strbuf_free(&s);
  ASSERT_EQ(fp_scan(pCat, 2, &k), STORE_ENC_FOR);              /* w0 */
  ASSERT_EQ(k.aWidth[0], (FP_ROWS + STORE_FOR_BLOCK - 1) / STORE_FOR_BLOCK);
  ASSERT_EQ(fp_scan(pCat, 3, &k), STORE_ENC_FOR);              /* a32 */
  ASSERT_GT(k.aWidth[32], 0);
  ASSERT_GT(k.aWidth[4], 0);
  ASSERT_EQ(fp_scan(pCat, 4, &k), STORE_ENC_FOR);              /* a64 */
  ASSERT_GT(k.aWidth[64], 0);
  ASSERT_GT(k.aWidth[63], 0);
  ASSERT_EQ(fp_scan(pCat, 5, &k), STORE_ENC_FOR);              /* s16 */
  ASSERT_GT(k.aWidth[16], 0);
  ASSERT_EQ(fp_scan(pCat, 6, &k), STORE_ENC_FOR);              /* ord */
  ASSERT_GT(k.nRuns, 0);
  ASSERT_EQ(fp_scan(pCat, 7, &k), STORE_ENC_FOR);              /* ordw */
  ASSERT_GT(k.nRunsWide, 0);
  ASSERT_EQ(fp_scan(pCat, 8, &k), STORE_ENC_FOR_DATE);         /* d */
  ASSERT_GT(k.nRuns, 0);
  cat_close(pCat);
}

static void fp_stage_branch(exectest *t);

/* The queries, each against SQLite: every value of every row, aggregates,
** loads behind a `&&` (flagged items only), grouping by a width-0 column,
** a join. */
static void fp_check(exectest *t) {
  static const char *const azQuery[] = {
    "SELECT id, w0, a32, a64, s16, ord, ordw, d FROM fp ORDER BY id",
    "SELECT count(*), min(w0), max(w0), sum(w0), min(a32), max(a32), sum(a32), count(a32),"
    " min(a64), max(a64), min(s16), max(s16), sum(s16), min(ord), max(ord), sum(ord),"
    " min(ordw), max(ordw), sum(ordw), min(d), max(d) FROM fp",
    "SELECT id, a64, ordw, d FROM fp WHERE a32 > 1000000 ORDER BY id",
    "SELECT count(*), sum(amt), min(ordw) FROM fp WHERE a64 < -1000 AND s16 > 0",
    "SELECT w0, count(*), sum(amt), max(a64) FROM fp WHERE ord < 50000 GROUP BY w0 ORDER BY w0",
    "SELECT grp, count(*), sum(s16), min(d) FROM fp, kd WHERE fp.k = kd.k AND d > DATE '1995-06-01'"
    " GROUP BY grp ORDER BY grp",
  };
  for (size_t i = 0; i < sizeof(azQuery) / sizeof(azQuery[0]); i++) {
    exectest_check(t, azQuery[i], strstr(azQuery[i], "ORDER BY") != NULL);
  }
  fp_stage_branch(t);
}

/* Budgets: pinned (-1: the default, fp read whole), device. */
static void fp_configure(exectest *t, int64_t nPinned, int64_t nDevice) {
  static const stride_options so = {64 << 10, -1, 2};
  colmem_options mo = {nPinned, nDevice};
  char zErr[512];
  if (exec_backend_configure(&t->be, &mo, &so, zErr, sizeof(zErr)) != 0) FAIL("configure: %s", zErr);
}

/* Which packed loads of the SCAN are staged through shared memory
** (codegen/device.cuh sq_stage_for_*): those of the first condition group,
** which every thread reaches, and none after a `&&`; none in a plan that
** reads the fact table from device memory. */
static void fp_stage_source(exectest *t) {
  static const char zSql[] = "SELECT count(*), sum(amt), min(ordw) FROM fp WHERE a64 < -1000 AND s16 > 0";
  planner_model m;
  strbuf s;
  char zErr[256];
  const char *z, *zSkip, *zStage;
  strbuf_init(&s);
  exectest_source(t, NULL, zSql, &s);
  z = strstr(strbuf_str(&s), " q_scan(const struct q_args a)");
  ASSERT(z != NULL);
  zSkip = strstr(z, "if (!sq_any(flag)) continue;");
  zStage = strstr(z, "sq_stage_for_");
  ASSERT(zSkip != NULL && zStage != NULL && zStage < zSkip);
  ASSERT(strstr(z, "__shared__ sq_stage_buf g_stage_buf;") < zStage);
  ASSERT(strstr(zSkip, "sq_stage_for_") == NULL);            /* amt, ordw: flagged rows only */
  ASSERT(strstr(zSkip, "sq_load_for_i32(a.amt") != NULL);
  strbuf_free(&s);
  CALL_OK(planner_model_default("cpu", &m, zErr, sizeof(zErr)));
  m.bResident = 1;
  strbuf_init(&s);
  exectest_source(t, &m, zSql, &s);
  z = strstr(strbuf_str(&s), " q_scan(const struct q_args a)");
  ASSERT(z != NULL && strstr(z, "sq_stage_for_") == NULL && strstr(z, "g_stage_buf") == NULL);
  strbuf_free(&s);
}

/* Every condition its own `&&` group, in the optimizer's order: a plan it
** does not choose on a table this small, whose later groups are what
** fp_stage_branch is about. */
static void fp_all_branch(plan *p) {
  for (int i = 1; i < p->order.nCond; i++) {
    if (p->order.aJoin[i] == PREDORDER_JOIN_NOBRANCH) p->order.aJoin[i] = PREDORDER_JOIN_BRANCH;
  }
}

/* A later group is staged when most of its column's sectors hold a row
** that reaches it (ord < 4000: 4 % of the rows by the statistics, then k,
** 4 bits a row: 1 - 0.96^32 of its sectors), its `&&` then block-wide
** (__syncthreads_or) so every thread reaches the staging's barriers; a
** sparse one (a64, 8 bytes a row, after 2 %) keeps the direct decode. The
** rows must come out as SQLite's, staged and not. */
static const char fp_zBranch[] = "SELECT count(*), sum(amt), min(ordw) FROM fp"
                                 " WHERE ord < 4000 AND k < 5 AND a64 < -1000";

static void fp_stage_branch(exectest *t) {
  strbuf s;
  const char *z, *zOr, *zNext;
  t->xPlan = fp_all_branch;
  strbuf_init(&s);
  exectest_source(t, NULL, fp_zBranch, &s);
  z = strstr(strbuf_str(&s), " q_scan(const struct q_args a)");
  ASSERT(z != NULL);
  zOr = strstr(z, "if (!__syncthreads_or(sq_any(flag))) continue;");
  ASSERT(zOr != NULL);
  zNext = strstr(zOr, "if (!sq_any(flag)) continue;   /* && */");
  ASSERT(zNext != NULL && strstr(zOr, "sq_stage_for_i32(a.fp_k") < zNext);
  ASSERT(strstr(zNext, "sq_stage_for_") == NULL && strstr(zNext, "sq_load_for_i64(a.a64") != NULL);
  strbuf_free(&s);
  exectest_check(t, fp_zBranch, 0);
  t->xPlan = NULL;
}

TEST_IMPL(exec_for_paths) {
  /* The shapes' own kernels are what this is about, a module per path (the
  ** plain loads of resident columns, the decode of the others): the
  ** generic kernels on these paths are tests/test-exec-generic.c's. */
  exec_options xoNoStage = {.bNoStage = 1};
  exectest t;
  int nPlain0 = 0, nPacked0 = 0, nPlain, nPacked;
  fp_make();
  for (int bCuda = 0; bCuda < 2; bCuda++) {
    if (bCuda) {
      cuda_options o = mocktest_options("cudacache");
      exectest_open_cuda(&t, NULL, &o);
      mocktest_nvrtc_paths(&nPlain0, &nPacked0);
    } else {
      exectest_open(&t, NULL);
    }
    if (!bCuda) fp_stage_source(&t);
    fp_configure(&t, -1, 0);                     /* read whole, packed */
    fp_check(&t);
    ASSERT_EQ(t.last.nColStreamed, 0);
    ASSERT_EQ(t.last.nColResident, 0);
    fp_configure(&t, 0, 0);                      /* streamed in strides */
    fp_check(&t);
    if (bCuda) {
      mocktest_nvrtc_paths(&nPlain, &nPacked);
      ASSERT_EQ(nPlain, nPlain0);
      ASSERT(nPacked > nPacked0);
    }
    exectest_check(&t, FP_WIDE, 0);
    ASSERT_EQ(t.last.nStride, 3);
    ASSERT_EQ(t.last.nColStreamed, 2);
    t.pOpt = &xoNoStage;                         /* starq.stage_packed off */
    fp_check(&t);
    t.pOpt = NULL;
    if (bCuda) {
      fp_configure(&t, -1, 1 << 30);             /* resident, decoded by the GPU */
      fp_check(&t);
      mocktest_nvrtc_paths(&nPlain, &nPacked);
      ASSERT(nPlain > nPlain0);
      exectest_check(&t, FP_WIDE, 0);
      ASSERT_EQ(t.last.nColResident, 2);
    }
    exectest_close(&t);
  }
  return 0;
}
