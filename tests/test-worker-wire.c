/*
** tests/test-worker-wire.c — the device worker's wire format
** (worker/wire.h) on its own: results and errors survive a round trip
** exactly, and bodies and frames that are cut short, garbled or lying
** about their sizes are refused with a message — never a crash, a read
** out of bounds (ASan) or an allocation the bytes do not justify.
*/
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../common/le.h"
#include "../worker/wire.h"
#include "test-exec.h"
#include "test.h"

/* A result with every kind of column the wire carries: integers with
** NULLs, doubles (NaN, infinities, -0), DECIMAL, DATE, BOOLEAN, strings
** carried by the result (one empty), and figures in every field. */
static void wiretest_result(exec_result *r) {
  static const char zStr[] = "ASIAEUROPE";
  static const uint64_t aOff[] = {0, 0, 4, 10};
  const int nRow = 4;
  memset(r, 0, sizeof(*r));
  r->nCol = 6;
  r->nRow = nRow;
  r->nRowStreamed = 12345;
  ASSERT((r->aCol = calloc(6, sizeof(exec_column))) != NULL);
  for (int c = 0; c < 6; c++) {
    exec_column *p = &r->aCol[c];
    char zName[16];
    snprintf(zName, sizeof(zName), "col%d", c);
    p->zName = strdup(zName);
    p->aNull = calloc(nRow, 1);
    p->bFloat = c == 1;
    if (p->bFloat) p->aFloat = calloc(nRow, sizeof(double));
    else p->aInt = calloc(nRow, sizeof(int64_t));
  }
  r->aCol[0].type.eId = COLTYPE_BIGINT;
  r->aCol[0].aInt[0] = INT64_MIN;
  r->aCol[0].aInt[1] = -1;
  r->aCol[0].aNull[2] = 1;
  r->aCol[0].aInt[3] = INT64_MAX;
  r->aCol[1].type.eId = COLTYPE_DOUBLE;
  r->aCol[1].aFloat[0] = NAN;
  r->aCol[1].aFloat[1] = -INFINITY;
  r->aCol[1].aFloat[2] = -0.0;
  r->aCol[1].aFloat[3] = 0.1;
  r->aCol[2].type = (coltype){COLTYPE_DECIMAL, 0, 15, 2};
  r->aCol[2].aInt[0] = -12345;
  r->aCol[2].aNull[3] = 1;
  r->aCol[3].type.eId = COLTYPE_DATE;
  for (int i = 0; i < nRow; i++) r->aCol[3].aInt[i] = 19920101 + i;
  r->aCol[4].type.eId = COLTYPE_BOOLEAN;
  r->aCol[4].aInt[1] = 1;
  r->aCol[5].type = (coltype){COLTYPE_VARCHAR, 25, 0, 0};
  r->aCol[5].nStr = 3;
  r->aCol[5].aStrOff = malloc(sizeof(aOff));
  r->aCol[5].zStr = malloc(sizeof(zStr));
  memcpy(r->aCol[5].aStrOff, aOff, sizeof(aOff));
  memcpy(r->aCol[5].zStr, zStr, sizeof(zStr));
  r->aCol[5].aInt[0] = 2;
  r->aCol[5].aInt[1] = 0;
  r->aCol[5].aNull[2] = 1;
  r->aCol[5].aInt[3] = 1;
  r->rSeconds = 1.5;
  r->rKernelSeconds = 0.25;
  r->rPrepareSeconds = 0.125;
  r->rOutputSeconds = 0.0625;
  r->nKernel = 2;
  snprintf(r->aKernel[0].zName, sizeof(r->aKernel[0].zName), "q_build_d0");
  r->aKernel[0].nLaunch = 1;
  r->aKernel[0].rSeconds = 0.01;
  snprintf(r->aKernel[1].zName, sizeof(r->aKernel[1].zName), "%063d", 7);   /* 63 bytes, the most */
  r->aKernel[1].nLaunch = 30;
  r->aKernel[1].rSeconds = 0.2;
  r->bCacheHit = 1;
  r->rCompileSeconds = 0.75;
  r->bGeneric = 1;
  r->nColumnBytes = 1ull << 40;
  r->nFactBytes = 12345678901ull;
  r->nColPinned = 3;
  r->nColResident = 4;
  r->nColStreamed = 5;
  r->nColPinnedNow = 6;
  r->nStride = 7;
  r->nStreamBytes = 8;
  r->rStreamWaitSeconds = 0.5;
  r->nShareWith = 9;
  r->nShareStride = 10;
  r->front.bCached = 1;
  r->front.rParseSeconds = 1e-5;
  r->front.rBindSeconds = 2e-5;
  r->front.rPlanSeconds = 3e-5;
  r->front.rCodegenSeconds = 4e-5;
}

/* Encodes an answer into b (a WIRE_ANSWER frame). */
static void wiretest_encode(wire_buf *b, uint64_t iId, int rc, const exec_result *r,
                            const sql_error *e) {
  char zErr[512];
  wire_buf_init(b, WIRE_ANSWER);
  if (wire_answer_encode(b, iId, rc, r, e, zErr, sizeof(zErr)) != 0) FAIL("encode: %s", zErr);
}

/* Decodes b's body; fails the test unless it decodes (rc 0) or not (-1) as
** bWant says. On success every cell is printed, so a result that decodes
** can be used. Returns the decoder's message. */
static const char *wiretest_decode(const unsigned char *a, size_t n, int bWant) {
  static char zErr[512];
  exec_result r;
  sql_error e;
  int rcQuery, rc = wire_answer_decode(a, n, &rcQuery, &r, &e, zErr, sizeof(zErr));
  if (rc != (bWant ? 0 : -1)) FAIL("decode returned %d (%s), expected %s", rc, zErr, bWant ? "0" : "-1");
  if (rc == 0) {
    char *z = exectest_result_dump(&r);
    free(z);
  } else {
    ASSERT_EQ(r.nCol, 0);
    ASSERT(r.aCol == NULL);
    ASSERT(strstr(zErr, "a bad ANSWER message from the device worker's socket: ") == zErr);
  }
  exec_result_free(&r);
  return zErr;
}

/* Compares strings i and j that column c carries, as memcmp orders them
** (a prefix first). */
static int wiretest_str_cmp(const exec_column *c, uint64_t i, uint64_t j) {
  size_t ni = (size_t)(c->aStrOff[i + 1] - c->aStrOff[i]);
  size_t nj = (size_t)(c->aStrOff[j + 1] - c->aStrOff[j]);
  int r = memcmp(c->zStr + c->aStrOff[i], c->zStr + c->aStrOff[j], ni < nj ? ni : nj);
  return r != 0 ? r : (ni > nj) - (ni < nj);
}

/* Results, errors and the small messages, there and back. */
TEST_IMPL(worker_wire_roundtrip) {
  exec_result r, d;
  sql_error e, e2;
  wire_buf b;
  uint64_t iId;
  int rcQuery;
  char zErr[512], *zA, *zB;
  exectest t;

  /* exec_result's fields are all carried (worker/wire-result.c): a new
  ** one changes its size, and must be carried too before this changes. */
  ASSERT_EQ(sizeof(exec_result), 1680);

  wiretest_result(&r);
  snprintf(r.zCompileParts, sizeof(r.zCompileParts), "nvrtc 51.2 ms (cpu 50.2), module load "
           "1.1, rest 0.2 ms");
  wiretest_encode(&b, 42, 0, &r, NULL);
  ASSERT_EQ(wire_answer_id(wire_buf_body(&b), wire_buf_body_size(&b), &iId), 0);
  ASSERT_EQ(iId, 42);
  if (wire_answer_decode(wire_buf_body(&b), wire_buf_body_size(&b), &rcQuery, &d, &e, zErr,
                         sizeof(zErr)) != 0) {
    FAIL("%s", zErr);
  }
  ASSERT_EQ(rcQuery, 0);
  zA = exectest_result_dump(&r);
  zB = exectest_result_dump(&d);
  ASSERT_STR_EQ(zB, zA);
  ASSERT_STR_EQ(d.zCompileParts, r.zCompileParts);
  ASSERT(strstr(zA, "\n-9223372036854775808|NaN|-123.45|1992-01-01|f|EUROPE\n") != NULL);
  ASSERT(strstr(zA, "\n-1|-Infinity|0.00|1992-01-02|t|\n") != NULL);
  ASSERT(signbit(d.aCol[1].aFloat[2]));
  free(zA);
  free(zB);
  /* The figures, field by field: the struct after the columns is equal. */
  ASSERT(memcmp(&d.nRow, &r.nRow, sizeof(r) - offsetof(exec_result, nRow)) == 0);
  exec_result_free(&d);
  exec_result_free(&r);
  wire_buf_free(&b);

  /* An error keeps its SQLSTATE, message and position (or none). */
  sql_error_clear(&e);
  sql_error_set(&e, "42P01", 21, "relation \"nosuchtable\" does not exist");
  wiretest_encode(&b, 7, -1, NULL, &e);
  ASSERT_EQ(wire_answer_decode(wire_buf_body(&b), wire_buf_body_size(&b), &rcQuery, &d, &e2, zErr,
                               sizeof(zErr)), 0);
  ASSERT_EQ(rcQuery, -1);
  ASSERT_STR_EQ(e2.zState, "42P01");
  ASSERT_EQ(e2.iOffset, 21);
  ASSERT_STR_EQ(e2.zMsg, e.zMsg);
  exec_result_free(&d);
  wire_buf_free(&b);
  sql_error_clear(&e);
  memset(e.zMsg, 'x', sizeof(e.zMsg) - 1);   /* the longest message */
  e.zMsg[sizeof(e.zMsg) - 1] = 0;
  memcpy(e.zState, "XX000", 6);
  wiretest_encode(&b, 7, -1, NULL, &e);
  ASSERT_EQ(wire_answer_decode(wire_buf_body(&b), wire_buf_body_size(&b), &rcQuery, &d, &e2, zErr,
                               sizeof(zErr)), 0);
  ASSERT_EQ(e2.iOffset, -1);
  ASSERT_STR_EQ(e2.zMsg, e.zMsg);
  exec_result_free(&d);
  wire_buf_free(&b);

  /* Real results: string columns from mapped dictionaries are sent as the
  ** strings their rows use, renumbered in order. */
  exectest_open(&t, "0.01");
  {
    static const char *const azSql[] = {
      "SELECT c_nation, c_region, count(*), avg(lo_tax) FROM lineorder, customer"
      " WHERE lo_custkey = c_custkey GROUP BY 1, 2 ORDER BY 3 DESC, 1",
      "SELECT p_brand1, d_year, sum(lo_revenue) FROM lineorder, part, date WHERE lo_partkey ="
      " p_partkey AND lo_orderdate = d_datekey AND p_category = 'MFGR#12' GROUP BY 1, 2 ORDER BY 2, 1",
      "SELECT lo_shipmode, lo_orderdate FROM lineorder WHERE lo_orderkey < 40 ORDER BY 2, 1",
      "SELECT c_name FROM customer WHERE c_custkey < 0",
    };
    for (size_t i = 0; i < sizeof(azSql) / sizeof(azSql[0]); i++) {
      if (exectest_exec(&t, azSql[i], &r, &e) != 0) FAIL("%s: %s", azSql[i], e.zMsg);
      wiretest_encode(&b, i, 0, &r, NULL);
      if (wire_answer_decode(wire_buf_body(&b), wire_buf_body_size(&b), &rcQuery, &d, &e2, zErr,
                             sizeof(zErr)) != 0) {
        FAIL("%s: %s", azSql[i], zErr);
      }
      zA = exectest_result_dump(&r);
      zB = exectest_result_dump(&d);
      ASSERT_STR_EQ(zB, zA);
      ASSERT(r.aCol[0].bDict && !d.aCol[0].bDict && d.aCol[0].aStrOff != NULL);
      ASSERT_LE(d.aCol[0].nStr, (uint64_t)d.nRow);
      for (uint64_t k = 1; k < d.aCol[0].nStr; k++) {   /* still in string order */
        ASSERT_LT(wiretest_str_cmp(&d.aCol[0], k - 1, k), 0);
      }
      free(zB);
      exec_result_free(&d);
      wire_buf_free(&b);
      /* The same with the dictionary seen as huge next to the rows: the
      ** codes used are found by sorting them instead of through a table
      ** as long as the dictionary, and the rows must decode the same. */
      if (r.nRow > 0) {
        uint64_t nReal = r.aCol[0].dict.n;
        r.aCol[0].dict.n = (uint64_t)1 << 40;
        wiretest_encode(&b, i, 0, &r, NULL);
        r.aCol[0].dict.n = nReal;
        if (wire_answer_decode(wire_buf_body(&b), wire_buf_body_size(&b), &rcQuery, &d, &e2, zErr,
                               sizeof(zErr)) != 0) {
          FAIL("%s (sorted codes): %s", azSql[i], zErr);
        }
        zB = exectest_result_dump(&d);
        ASSERT_STR_EQ(zB, zA);
        free(zB);
        exec_result_free(&d);
        wire_buf_free(&b);
      }
      free(zA);
      exec_result_free(&r);
    }
  }
  exectest_close(&t);

  /* QUERY, HELLO, LOST. */
  {
    const engine_param aParam[] = {{"42", 23}, {NULL, 25}, {"it's", 0}};
    engine_request q, q0;
    wire_query dq;
    wire_hello h, h2;
    char zWhy[64];
    memset(&q, 0, sizeof(q));
    q.eKind = ENGINE_EXPLAIN;
    q.mExplain = ENGINE_EXPLAIN_ANALYZE | ENGINE_EXPLAIN_VERBOSE;
    q.zSql = "EXPLAIN (ANALYZE, VERBOSE) SELECT 'é', $1, $2, $3";
    q.iSelect = 27;
    q.nParam = 3;
    q.aParam = aParam;
    q.opt = (exec_options){.bNoResident = 1, .bNoStage = 1, .bNoShare = 1,
                           .eGeneric = EXEC_GENERIC_OFF, .nResultLimit = (uint64_t)5 << 30};
    q.zUser = "alice";
    q.iBackendPid = 4242;
    q.pSettings = "TimeZone\0UTC\0search_path\0\0";
    q.nSettings = 26;
    wire_buf_init(&b, WIRE_QUERY);
    wire_query_encode(&b, 99, &q);
    ASSERT_EQ(wire_query_decode(wire_buf_body(&b), wire_buf_body_size(&b), &dq, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(dq.iId, 99);
    ASSERT_EQ(dq.req.eKind, ENGINE_EXPLAIN);
    ASSERT_EQ(dq.req.mExplain, ENGINE_EXPLAIN_ANALYZE | ENGINE_EXPLAIN_VERBOSE);
    ASSERT_EQ(dq.req.iSelect, 27);
    ASSERT_EQ(dq.req.opt.bNoResident, 1);
    ASSERT_EQ(dq.req.opt.bNoStage, 1);
    ASSERT_EQ(dq.req.opt.bNoShare, 1);
    ASSERT_EQ(dq.req.opt.eGeneric, EXEC_GENERIC_OFF);
    ASSERT_EQ(dq.req.opt.nResultLimit, (uint64_t)5 << 30);
    ASSERT(dq.req.opt.pbCancel == NULL);
    ASSERT_STR_EQ(dq.req.zSql, q.zSql);
    ASSERT_EQ(dq.req.nParam, 3);
    ASSERT_STR_EQ(dq.req.aParam[0].z, "42");
    ASSERT_EQ(dq.req.aParam[0].iType, 23);
    ASSERT(dq.req.aParam[1].z == NULL);
    ASSERT_EQ(dq.req.aParam[1].iType, 25);
    ASSERT_STR_EQ(dq.req.aParam[2].z, "it's");
    ASSERT_STR_EQ(dq.req.zUser, "alice");
    ASSERT(dq.req.zDatabase == NULL);
    ASSERT_EQ(dq.req.iBackendPid, 4242);
    ASSERT_EQ(dq.req.nSettings, 26);
    ASSERT_EQ(memcmp(dq.req.pSettings, q.pSettings, 26), 0);
    wire_query_free(&dq);
    /* Every prefix of it is refused, none leaks. */
    for (size_t k = 0; k < wire_buf_body_size(&b); k++) {
      ASSERT(wire_query_decode(wire_buf_body(&b), k, &dq, zErr, sizeof(zErr)) != 0);
    }
    wire_buf_free(&b);
    memset(&q0, 0, sizeof(q0));
    q0.eKind = ENGINE_SELECT;
    q0.zSql = "SELECT 1";
    /* And every use of the generic kernels (ON, the default, no bit). */
    {
      static const exec_generic aGen[] = {EXEC_GENERIC_ON, EXEC_GENERIC_OFF, EXEC_GENERIC_ALWAYS};
      for (int k = 0; k < 3; k++) {
        q0.opt = (exec_options){.eGeneric = aGen[k]};
        wire_buf_init(&b, WIRE_QUERY);
        wire_query_encode(&b, 8, &q0);
        ASSERT_EQ(wire_query_decode(wire_buf_body(&b), wire_buf_body_size(&b), &dq, zErr, sizeof(zErr)), 0);
        ASSERT_EQ(dq.req.opt.eGeneric, aGen[k]);
        ASSERT_EQ(dq.req.opt.bNoResident, 0);
        ASSERT_EQ(dq.req.opt.bNoStage, 0);
        ASSERT_EQ(dq.req.eKind, ENGINE_SELECT);
        ASSERT_EQ(dq.req.nParam, 0);
        wire_query_free(&dq);
        wire_buf_free(&b);
      }
    }
    memset(&h, 0, sizeof(h));
    h.iVersion = WIRE_VERSION;
    h.iPid = 1234;
    h.bOk = 1;
    h.nPreloaded = -1;
    snprintf(h.zText, sizeof(h.zText), "cpu (2 threads)");
    wire_buf_init(&b, WIRE_HELLO);
    wire_hello_encode(&b, &h);
    ASSERT_EQ(wire_hello_decode(wire_buf_body(&b), wire_buf_body_size(&b), &h2, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(h2.iPid, 1234);
    ASSERT_EQ(h2.nPreloaded, -1);
    ASSERT_STR_EQ(h2.zText, h.zText);
    wire_buf_free(&b);
    wire_buf_init(&b, WIRE_LOST);
    wire_lost_encode(&b, "CUDA_ERROR_ILLEGAL_ADDRESS");
    ASSERT_EQ(wire_lost_decode(wire_buf_body(&b), wire_buf_body_size(&b), zWhy, sizeof(zWhy), zErr,
                               sizeof(zErr)), 0);
    ASSERT_STR_EQ(zWhy, "CUDA_ERROR_ILLEGAL_ADDRESS");
    ASSERT(wire_lost_decode(wire_buf_body(&b), wire_buf_body_size(&b), zWhy, 8, zErr, sizeof(zErr)) != 0);
    wire_buf_free(&b);
  }
  return 0;
}

/* Starts the body of a result claiming nCol columns of nRow rows, after
** the figures of an empty run; the caller writes what follows. */
static void wiretest_result_head(wire_buf *b, uint32_t nCol, uint64_t nRow) {
  wire_buf_init(b, WIRE_ANSWER);
  wire_put_u64(b, 1);
  wire_put_u8(b, 0);
  for (int i = 0; i < 4; i++) wire_put_f64(b, 0);
  wire_put_u64(b, 0);                        /* nRowStreamed */
  wire_put_u32(b, 0);                        /* kernels */
  wire_put_u8(b, 0);
  wire_put_f64(b, 0);
  wire_put_u8(b, 0);                         /* bGeneric */
  wire_put_str(b, "", 0);                    /* zCompileParts */
  wire_put_u64(b, 0);
  wire_put_u64(b, 0);
  for (int i = 0; i < 5; i++) wire_put_u32(b, 0);
  wire_put_u64(b, 0);
  wire_put_f64(b, 0);
  wire_put_u32(b, 0);                        /* nShareWith */
  wire_put_u32(b, 0);                        /* nShareStride */
  wire_put_u8(b, 0);                         /* front.bCached */
  for (int i = 0; i < 4; i++) wire_put_f64(b, 0);
  wire_put_u32(b, nCol);
  wire_put_u64(b, nRow);
}

/* A column header: name, type, flags. */
static void wiretest_column_head(wire_buf *b, uint32_t eId, uint32_t nScale, int bFloat,
                                 int bStrings) {
  wire_put_str(b, "c", 1);
  wire_put_u32(b, eId);
  wire_put_u32(b, 0);
  wire_put_u32(b, nScale ? 18 : 0);
  wire_put_u32(b, nScale);
  wire_put_u8(b, (unsigned)bFloat);
  wire_put_u8(b, (unsigned)bStrings);
}

/* Checks that body b fails to decode with a message containing zWant. */
static void wiretest_refused(wire_buf *b, const char *zWant) {
  const char *zErr = wiretest_decode(wire_buf_body(b), wire_buf_body_size(b), 0);
  if (strstr(zErr, zWant) == NULL) FAIL("expected \"%s\" in: %s", zWant, zErr);
  wire_buf_free(b);
}

/* Every prefix of a good body, every byte of it garbled, and bodies that
** lie about their counts and lengths. */
/* Builds a QUERY body of option bits mFlag, kind eKind, EXPLAIN options
** mExplain, SQL z (n bytes) and a SELECT offset iSelect — or, with a
** negative iSelect, offset 0 and a bad parameter list: -1 a count of
** 1000 with nothing after it, -2 one value with a NUL, -3 a NULL flag of
** 2 — and checks that it is refused with zWant in the error. */
static void wiretest_query_refused(uint32_t mFlag, unsigned eKind, unsigned mExplain,
                                   const char *z, size_t n, int iSelect, const char *zWant) {
  wire_buf b;
  wire_query d;
  char zErr[512];
  wire_buf_init(&b, WIRE_QUERY);
  wire_put_u64(&b, 1);
  wire_put_u32(&b, mFlag);
  wire_put_u64(&b, 0);                       /* nResultLimit */
  wire_put_u8(&b, eKind);
  wire_put_u8(&b, mExplain);
  wire_put_u32(&b, iSelect < 0 ? 0 : (uint32_t)iSelect);
  wire_put_str(&b, z, n);
  if (iSelect == -1) {
    wire_put_u32(&b, 1000);
  } else if (iSelect == -2) {
    wire_put_u32(&b, 1);
    wire_put_u32(&b, 25);
    wire_put_u8(&b, 0);
    wire_put_str(&b, "a\0b", 3);
  } else if (iSelect == -3) {
    wire_put_u32(&b, 1);
    wire_put_u32(&b, 25);
    wire_put_u8(&b, 2);
  } else {
    wire_put_u32(&b, 0);
  }
  memset(&d, 0xff, sizeof(d));
  ASSERT(wire_query_decode(wire_buf_body(&b), wire_buf_body_size(&b), &d, zErr, sizeof(zErr)) != 0);
  if (strstr(zErr, zWant) == NULL) FAIL("wanted \"%s\", got: %s", zWant, zErr);
  ASSERT(d.zSql == NULL && d.aParam == NULL);
  wire_buf_free(&b);
}

TEST_IMPL(worker_wire_bad_bodies) {
  static const unsigned aGarble[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
  exec_result r;
  wire_buf b;
  const unsigned char *a;
  size_t n;
  unsigned char *aCopy;
  uint64_t iId;
  char zErr[512];

  wiretest_result(&r);
  wiretest_encode(&b, 5, 0, &r, NULL);
  exec_result_free(&r);
  a = wire_buf_body(&b);
  n = wire_buf_body_size(&b);
  wiretest_decode(a, n, 1);
  for (size_t k = 0; k < n; k++) wiretest_decode(a, k, 0);      /* cut short */
  ASSERT((aCopy = malloc(n + 1)) != NULL);
  memcpy(aCopy, a, n);
  aCopy[n] = 0;
  ASSERT(strstr(wiretest_decode(aCopy, n + 1, 0), "1 bytes left over") != NULL);
  for (size_t k = 0; k < n; k++) {                                /* garbled */
    for (size_t g = 0; g < sizeof(aGarble) / sizeof(aGarble[0]); g++) {
      exec_result d;
      sql_error e;
      int rcQuery;
      memcpy(aCopy, a, n);
      aCopy[k] = (unsigned char)aGarble[g];
      if (wire_answer_decode(aCopy, n, &rcQuery, &d, &e, zErr, sizeof(zErr)) == 0) {
        char *z = exectest_result_dump(&d);   /* whatever decodes is safe to print */
        free(z);
      }
      exec_result_free(&d);
    }
  }
  free(aCopy);
  wire_buf_free(&b);

  /* Lies about sizes, refused before anything is allocated for them. */
  wiretest_result_head(&b, 1, (uint64_t)1 << 40);
  wiretest_column_head(&b, COLTYPE_BIGINT, 0, 0, 0);
  wiretest_refused(&b, "1099511627776 rows in 0 bytes");
  wiretest_result_head(&b, 100000, 0);
  wiretest_refused(&b, "100000 columns of 0 rows");
  wiretest_result_head(&b, 0, 5);
  wiretest_refused(&b, "0 columns of 5 rows");
  wiretest_result_head(&b, 1, 0);
  wiretest_column_head(&b, COLTYPE_TEXT, 0, 0, 1);
  wire_put_u64(&b, (uint64_t)1 << 60);
  wiretest_refused(&b, "1152921504606846976 strings in 0 bytes");
  wiretest_result_head(&b, 1, 1);
  wiretest_column_head(&b, COLTYPE_TEXT, 0, 0, 1);
  wire_put_u64(&b, 3);                       /* code 3 of 1 string */
  wire_put_u8(&b, 0);
  wire_put_u64(&b, 1);
  wire_put_str(&b, "a", 1);
  wiretest_refused(&b, "string code 3 of 1 strings");
  wiretest_result_head(&b, 1, 1);
  wiretest_column_head(&b, COLTYPE_TEXT, 0, 0, 1);
  wire_put_u64(&b, 0);
  wire_put_u8(&b, 0);
  wire_put_u64(&b, 1);
  wire_put_u32(&b, 0xffffffffu);             /* a string longer than the body */
  wiretest_refused(&b, "a string cut short");
  wiretest_result_head(&b, 1, 1);
  wiretest_column_head(&b, COLTYPE_BIGINT, 0, 0, 0);
  wire_put_u64(&b, 0);
  wire_put_u8(&b, 2);
  wiretest_refused(&b, "NULL flag 2");
  wiretest_result_head(&b, 1, 0);
  wiretest_column_head(&b, 99, 0, 0, 0);      /* beyond every coltype */
  wiretest_refused(&b, "unknown type id 99");
  wiretest_result_head(&b, 1, 0);
  wiretest_column_head(&b, COLTYPE_DECIMAL, 1000, 0, 0);
  wiretest_refused(&b, "type modifiers out of range");
  wiretest_result_head(&b, 1, 0);
  wiretest_column_head(&b, COLTYPE_DOUBLE, 0, 1, 1);
  wiretest_refused(&b, "carries strings but is a float column");
  wiretest_result_head(&b, 1, 0);
  wiretest_column_head(&b, COLTYPE_BIGINT, 0, 2, 0);
  wiretest_refused(&b, "bFloat is 2, not 0 or 1");
  wire_buf_init(&b, WIRE_ANSWER);
  wire_put_u64(&b, 1);
  wire_put_u8(&b, 0);
  for (int i = 0; i < 4; i++) wire_put_f64(&b, 0);
  wire_put_u64(&b, 0);
  wire_put_u32(&b, 17);
  wiretest_refused(&b, "17 kernels, more than 16");
  wire_buf_init(&b, WIRE_ANSWER);
  wire_put_u64(&b, 1);
  wire_put_u8(&b, 1);
  wire_put_bytes(&b, "4260!", 5);
  wire_put_u32(&b, 0);
  wire_put_str(&b, "x", 1);
  wiretest_refused(&b, "the SQLSTATE has a byte 0x21");
  wire_buf_init(&b, WIRE_ANSWER);
  wire_put_u64(&b, 1);
  wire_put_u8(&b, 1);
  wire_put_bytes(&b, "42601", 5);
  wire_put_u32(&b, 0);
  wire_put_u32(&b, 600);
  for (int i = 0; i < 600; i++) wire_put_u8(&b, 'x');
  wiretest_refused(&b, "the error message of 600 bytes, over its limit of 511");
  wire_buf_init(&b, WIRE_ANSWER);
  wire_put_u64(&b, 1);
  wire_put_u8(&b, 7);
  wiretest_refused(&b, "status 7");
  ASSERT(wire_answer_id((const unsigned char *)"1234567", 7, &iId) != 0);

  /* QUERY and HELLO bodies. */
  wiretest_query_refused(0, 1, 0, "SELECT\0 1", 9, 0, "the SQL text has a NUL byte");
  wiretest_query_refused(0x80, 1, 0, "SELECT 1", 8, 0, "unknown option bits 0x80");
  wiretest_query_refused(WIRE_OPT_GENERIC_OFF | WIRE_OPT_GENERIC_ALWAYS, 1, 0, "SELECT 1", 8, 0,
                         "two uses of the generic kernels (option bits 0xc)");
  wiretest_query_refused(0, 4, 0, "SELECT 1", 8, 0, "a statement of kind 4");
  wiretest_query_refused(0, 0, 0, "SELECT 1", 8, 0, "a statement of kind 0");
  wiretest_query_refused(0, 2, 0x4, "SELECT 1", 8, 0, "unknown EXPLAIN options 0x4");
  wiretest_query_refused(0, 1, 0, "SELECT 1", 8, 9, "the SELECT begins at byte 9 of 8");
  wiretest_query_refused(0, 1, 0, "SELECT 1", 8, -1, "1000 parameters");
  wiretest_query_refused(0, 1, 0, "SELECT 1", 8, -2, "a parameter's value has a NUL byte");
  wiretest_query_refused(0, 1, 0, "SELECT 1", 8, -3, "a parameter's NULL flag");
  {
    wire_hello h;
    wire_buf_init(&b, WIRE_HELLO);
    wire_put_u32(&b, WIRE_VERSION);
    wire_put_u32(&b, 1);
    wire_put_u8(&b, 2);
    ASSERT(wire_hello_decode(wire_buf_body(&b), wire_buf_body_size(&b), &h, zErr, sizeof(zErr)) != 0);
    ASSERT(strstr(zErr, "a bad HELLO message") == zErr);
    wire_buf_free(&b);
  }
  return 0;
}

/* Writes n bytes to fd from a thread of its own, then closes fd (a frame
** bigger than the socket's buffer needs a reader at the same time). */
typedef struct wiretest_writer wiretest_writer;
struct wiretest_writer {
  int fd;
  const unsigned char *a;
  size_t n;
};

static void *wiretest_writer_main(void *p) {
  wiretest_writer *w = p;
  size_t nDone = 0;
  while (nDone < w->n) {
    ssize_t k = write(w->fd, w->a + nDone, w->n - nDone);
    if (k <= 0) break;
    nDone += (size_t)k;
  }
  close(w->fd);
  return NULL;
}

/* Reads one frame from bytes a[0..n) written to a socket; returns what
** wire_frame_recv returned, its message in zErr. */
static int wiretest_recv(const unsigned char *a, size_t n, wire_frame *f, char *zErr, size_t nErr) {
  int aFd[2], rc;
  pthread_t th;
  wiretest_writer w;
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, aFd), 0);
  w.fd = aFd[1];
  w.a = a;
  w.n = n;
  ASSERT_EQ(pthread_create(&th, NULL, wiretest_writer_main, &w), 0);
  rc = wire_frame_recv(aFd[0], f, zErr, nErr);
  ASSERT_EQ(pthread_join(th, NULL), 0);
  close(aFd[0]);
  return rc;
}

/* Frames: a big one read whole; headers that are cut, of unknown types, or
** claim more than the limit or than is sent. */
TEST_IMPL(worker_wire_frames) {
  unsigned char aHead[WIRE_HEADER_SIZE + 10];
  wire_frame f;
  wire_buf b;
  char zErr[512];
  size_t nBig = (size_t)3 << 20;

  /* 3 MB, past the first buffer: grown as it arrives. */
  wire_buf_init(&b, WIRE_LOST);
  for (size_t i = 0; i < nBig; i++) wire_put_u8(&b, (unsigned)(i * 7));
  le_put(b.a + 1, nBig, 8);
  ASSERT_EQ(wiretest_recv(b.a, b.n, &f, zErr, sizeof(zErr)), 1);
  ASSERT_EQ(f.eType, WIRE_LOST);
  ASSERT_EQ(f.n, nBig);
  ASSERT(memcmp(f.a, b.a + WIRE_HEADER_SIZE, nBig) == 0);
  wire_frame_free(&f);
  /* Cut short by a byte. */
  ASSERT_EQ(wiretest_recv(b.a, b.n - 1, &f, zErr, sizeof(zErr)), -1);
  ASSERT(strstr(zErr, "a frame cut short: 3145727 of 3145728 body bytes") == zErr);
  wire_buf_free(&b);

  memset(aHead, 0, sizeof(aHead));
  ASSERT_EQ(wiretest_recv(aHead, 0, &f, zErr, sizeof(zErr)), 0);   /* a clean end */
  aHead[0] = WIRE_QUERY;
  ASSERT_EQ(wiretest_recv(aHead, 5, &f, zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "a frame header cut short: 5 of 9 bytes");
  ASSERT_EQ(wiretest_recv(aHead, WIRE_HEADER_SIZE, &f, zErr, sizeof(zErr)), 1);   /* empty body */
  ASSERT_EQ(f.n, 0);
  wire_frame_free(&f);
  aHead[0] = 0;
  ASSERT_EQ(wiretest_recv(aHead, WIRE_HEADER_SIZE, &f, zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "a frame of unknown type 0");
  aHead[0] = WIRE_TYPE_LAST + 1;
  ASSERT_EQ(wiretest_recv(aHead, WIRE_HEADER_SIZE, &f, zErr, sizeof(zErr)), -1);
  aHead[0] = WIRE_ANSWER;
  le_put(aHead + 1, WIRE_FRAME_MAX + 1, 8);
  ASSERT_EQ(wiretest_recv(aHead, WIRE_HEADER_SIZE, &f, zErr, sizeof(zErr)), -1);
  ASSERT(strstr(zErr, "over the limit") != NULL);
  /* 60 GB claimed, 10 bytes sent: refused when the stream ends, having
  ** allocated no more than the first buffer. */
  le_put(aHead + 1, (uint64_t)60 << 30, 8);
  ASSERT_EQ(wiretest_recv(aHead, sizeof(aHead), &f, zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "a frame cut short: 10 of 64424509440 body bytes");
  return 0;
}
