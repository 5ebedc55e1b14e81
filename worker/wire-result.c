/*
** worker/wire-result.c — WIRE_ANSWER: a query's outcome on the device
** worker's socket, either its sql_error or its whole exec_result (rows,
** column types, strings and the figures EXPLAIN ANALYZE, /status and the
** benchmarks read), so that the server holds the same result the worker
** built in-process.
**
** The body (integers little-endian; strings a u32 length then bytes):
**
**   u64 id
**   u8  status          0: a result follows; 1: an error follows
**   error:   5 bytes SQLSTATE ([0-9A-Z]), u32 offset + 1 (0: none),
**            string message (shorter than sql_error.zMsg)
**   result:  f64 rSeconds, rKernelSeconds, rPrepareSeconds, rOutputSeconds
**            u32 nKernel (<= EXEC_KERNELS_MAX), each: string name (< 64
**              bytes), u32 nLaunch, f64 rSeconds
**            u8 bCacheHit, f64 rCompileSeconds, u8 bGeneric,
**            string zCompileParts (shorter than the field)
**            u64 nColumnBytes, nFactBytes
**            u32 nColPinned, nColResident, nColStreamed, nColPinnedNow, nStride
**            u64 nStreamBytes, f64 rStreamWaitSeconds
**            u32 nShareWith, nShareStride
**            u8 front.bCached, f64 front.rParseSeconds, rBindSeconds,
**              rPlanSeconds, rCodegenSeconds
**            u32 nCol, u64 nRow, then each column:
**              string name (< 64 KiB), u32 type id, length, precision, scale
**              u8 bFloat, u8 bStrings (not both)
**              nRow x 8 bytes: the values (int64, or the double's bits; 0
**                for a NULL)
**              nRow x 1 byte: NULL flags, 0 or 1
**              bStrings: u64 nStr, then nStr strings; every non-NULL value
**                is a code below nStr
**
** A string column of exec_run's result has its dictionary mapped; the
** server's process has not. So the codes the rows use are sent with their
** strings, renumbered 0..k-1 in code order: code order stays string order,
** and a result of a few groups carries a few strings, not the dictionary.
**
** exec_result's fields are all here: a field added there must be added
** here too (tests/test-worker-wire.c checks the struct's size, to say so).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/le.h"
#include "wire.h"

/* Longest column name carried; names are identifiers, far shorter. */
#define WIRE_NAME_MAX 65535

/* Bytes a column takes at least: name length, type, two flags. */
#define WIRE_COLUMN_MIN (4 + 16 + 2)

/* ---- encoding -------------------------------------------------------------- */

static int wire_u64_cmp(const void *pa, const void *pb) {
  uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
  return (a > b) - (a < b);
}

/* Dictionaries of at most this many strings (or of at most 4 per row)
** are renumbered through a table as long as the dictionary, in two passes
** over the rows; larger ones by sorting the rows' codes. */
#define WIRE_RANK_TABLE_MAX 65536

/* The distinct codes of c's non-NULL rows, sorted, into *paCode (malloc'd)
** and *pn; and, for a dictionary small next to the rows, *paRank
** (malloc'd): the new code of each code used (NULL otherwise: the new code
** is the code's position in *paCode). Returns 0, or -1 with zErr for
** memory or a code outside the dictionary. */
static int wire_codes_used(const exec_column *c, int64_t nRow, uint64_t **paCode, uint64_t *pn,
                           uint64_t **paRank, char *zErr, size_t nErr) {
  uint64_t *a = NULL, *aRank = NULL, n = 0, k = 0;
  int bTable = c->dict.n <= WIRE_RANK_TABLE_MAX || c->dict.n / 4 <= (uint64_t)nRow;
  *paCode = *paRank = NULL;
  *pn = 0;
  for (int64_t r = 0; r < nRow; r++) {
    if (!c->aNull[r] && (c->aInt[r] < 0 || (uint64_t)c->aInt[r] >= c->dict.n)) {
      snprintf(zErr, nErr, "string code %lld outside the dictionary of column \"%s\"",
               (long long)c->aInt[r], c->zName);
      return -1;
    }
  }
  if (bTable) {
    /* Mark the codes used, then number them in code order: no sort. */
    if ((aRank = calloc(c->dict.n + 1, sizeof(uint64_t))) == NULL) goto out_oom;
    for (int64_t r = 0; r < nRow; r++) {
      if (!c->aNull[r]) aRank[c->aInt[r]] = 1;
    }
    for (uint64_t i = 0; i < c->dict.n; i++) n += aRank[i];
    if ((a = malloc((n + 1) * sizeof(uint64_t))) == NULL) goto out_oom;
    for (uint64_t i = 0; i < c->dict.n; i++) {
      if (aRank[i] == 0) continue;
      aRank[i] = k;
      a[k++] = i;
    }
  } else {
    if ((a = malloc(((size_t)nRow + 1) * sizeof(uint64_t))) == NULL) goto out_oom;
    for (int64_t r = 0; r < nRow; r++) {
      if (!c->aNull[r]) a[n++] = (uint64_t)c->aInt[r];
    }
    qsort(a, n, sizeof(uint64_t), wire_u64_cmp);
    for (uint64_t i = 0; i < n; i++) {
      if (k == 0 || a[k - 1] != a[i]) a[k++] = a[i];
    }
  }
  *paCode = a;
  *pn = k;
  *paRank = aRank;
  return 0;
out_oom:
  free(aRank);
  snprintf(zErr, nErr, "out of memory encoding the strings of column \"%s\"", c->zName);
  return -1;
}

/* The position of v in a[0..n) (it is there). */
static uint64_t wire_code_rank(const uint64_t *a, uint64_t n, uint64_t v) {
  uint64_t lo = 0, hi = n;
  while (hi - lo > 1) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (a[mid] <= v) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* Writes column c: its header, values, NULL flags and strings. */
static int wire_column_put(wire_buf *b, const exec_column *c, int64_t nRow, char *zErr,
                           size_t nErr) {
  uint64_t *aCode = NULL, *aRank = NULL, nCode = 0;
  unsigned char *p;
  int bRemap = c->bDict && c->aStrOff == NULL && !c->bFloat;
  int bStrings = bRemap || (c->aStrOff != NULL && !c->bFloat);
  if (bRemap && wire_codes_used(c, nRow, &aCode, &nCode, &aRank, zErr, nErr) != 0) return -1;
  wire_put_str(b, c->zName, strlen(c->zName));
  wire_put_u32(b, (uint32_t)c->type.eId);
  wire_put_u32(b, (uint32_t)c->type.nLength);
  wire_put_u32(b, (uint32_t)c->type.nPrecision);
  wire_put_u32(b, (uint32_t)c->type.nScale);
  wire_put_u8(b, c->bFloat ? 1 : 0);
  wire_put_u8(b, bStrings ? 1 : 0);
  /* The values as one block, written in place: a put per value, each
  ** checking for room, was most of a result's encoding. */
  if ((p = wire_put_space(b, (size_t)nRow * 8)) != NULL) {
    for (int64_t r = 0; r < nRow; r++) {
      uint64_t v;
      if (c->aNull[r]) v = 0;
      else if (c->bFloat) memcpy(&v, &c->aFloat[r], 8);
      else if (aRank != NULL) v = aRank[c->aInt[r]];
      else if (bRemap) v = wire_code_rank(aCode, nCode, (uint64_t)c->aInt[r]);
      else v = (uint64_t)c->aInt[r];
      le_put(p + 8 * r, v, 8);
    }
  }
  wire_put_bytes(b, c->aNull, (size_t)nRow);
  if (bRemap) {
    wire_put_u64(b, nCode);
    for (uint64_t i = 0; i < nCode; i++) {
      size_t n;
      const char *z = store_dict_str(&c->dict, aCode[i], &n);
      wire_put_str(b, z, n);
    }
  } else if (bStrings) {
    wire_put_u64(b, c->nStr);
    for (uint64_t i = 0; i < c->nStr; i++) {
      wire_put_str(b, c->zStr + c->aStrOff[i], (size_t)(c->aStrOff[i + 1] - c->aStrOff[i]));
    }
  }
  free(aCode);
  free(aRank);
  return 0;
}

static void wire_figures_put(wire_buf *b, const exec_result *p) {
  wire_put_f64(b, p->rSeconds);
  wire_put_f64(b, p->rKernelSeconds);
  wire_put_f64(b, p->rPrepareSeconds);
  wire_put_f64(b, p->rOutputSeconds);
  wire_put_u64(b, (uint64_t)p->nRowStreamed);
  wire_put_u32(b, (uint32_t)p->nKernel);
  for (int i = 0; i < p->nKernel; i++) {
    wire_put_str(b, p->aKernel[i].zName, strnlen(p->aKernel[i].zName, sizeof(p->aKernel[i].zName)));
    wire_put_u32(b, (uint32_t)p->aKernel[i].nLaunch);
    wire_put_f64(b, p->aKernel[i].rSeconds);
  }
  wire_put_u8(b, p->bCacheHit ? 1 : 0);
  wire_put_f64(b, p->rCompileSeconds);
  wire_put_u8(b, p->bGeneric ? 1 : 0);
  wire_put_str(b, p->zCompileParts, strnlen(p->zCompileParts, sizeof(p->zCompileParts) - 1));
  wire_put_u64(b, p->nColumnBytes);
  wire_put_u64(b, p->nFactBytes);
  wire_put_u32(b, (uint32_t)p->nColPinned);
  wire_put_u32(b, (uint32_t)p->nColResident);
  wire_put_u32(b, (uint32_t)p->nColStreamed);
  wire_put_u32(b, (uint32_t)p->nColPinnedNow);
  wire_put_u32(b, (uint32_t)p->nStride);
  wire_put_u64(b, p->nStreamBytes);
  wire_put_f64(b, p->rStreamWaitSeconds);
  wire_put_u32(b, (uint32_t)p->nShareWith);
  wire_put_u32(b, (uint32_t)p->nShareStride);
  wire_put_u8(b, p->front.bCached ? 1 : 0);
  wire_put_f64(b, p->front.rParseSeconds);
  wire_put_f64(b, p->front.rBindSeconds);
  wire_put_f64(b, p->front.rPlanSeconds);
  wire_put_f64(b, p->front.rCodegenSeconds);
}

int wire_answer_encode(wire_buf *b, uint64_t iId, int rc, const exec_result *pRes,
                       const sql_error *pErr, char *zErr, size_t nErr) {
  wire_put_u64(b, iId);
  if (rc != 0) {
    wire_put_u8(b, 1);
    wire_put_bytes(b, pErr->zState, 5);
    wire_put_u32(b, (uint32_t)(pErr->iOffset < 0 ? 0 : pErr->iOffset + 1));
    wire_put_str(b, pErr->zMsg, strnlen(pErr->zMsg, sizeof(pErr->zMsg) - 1));
    return 0;
  }
  wire_put_u8(b, 0);
  wire_figures_put(b, pRes);
  wire_put_u32(b, (uint32_t)pRes->nCol);
  wire_put_u64(b, (uint64_t)pRes->nRow);
  for (int i = 0; i < pRes->nCol; i++) {
    if (wire_column_put(b, &pRes->aCol[i], pRes->nRow, zErr, nErr) != 0) return -1;
  }
  if (b->bOom) {
    snprintf(zErr, nErr, "out of memory encoding a result of %lld rows", (long long)pRes->nRow);
    return -1;
  }
  return 0;
}

/* ---- decoding -------------------------------------------------------------- */

int wire_answer_id(const unsigned char *a, size_t n, uint64_t *piId) {
  wire_reader r;
  wire_reader_init(&r, a, n);
  *piId = wire_get_u64(&r, "the query id");
  return wire_reader_failed(&r) ? -1 : 0;
}

/* A u32 that must fit an int. */
static int wire_get_int(wire_reader *r, const char *zField) {
  uint32_t v = wire_get_u32(r, zField);
  if (v > INT32_MAX) wire_reader_fail(r, "%s is %u, past INT32_MAX", zField, v);
  return (int)(v & INT32_MAX);
}

static void wire_error_get(wire_reader *r, sql_error *pErr) {
  const unsigned char *p = wire_get_bytes(r, 5, "the SQLSTATE");
  uint32_t iOffset1 = wire_get_u32(r, "the error position");
  size_t n;
  const char *z = wire_get_str(r, sizeof(pErr->zMsg) - 1, &n, "the error message");
  if (z == NULL) return;
  for (int i = 0; i < 5; i++) {
    if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'A' && p[i] <= 'Z'))) {
      wire_reader_fail(r, "the SQLSTATE has a byte 0x%02x", p[i]);
      return;
    }
  }
  if (iOffset1 > INT32_MAX || memchr(z, 0, n) != NULL) {
    wire_reader_fail(r, "the error's position or message is malformed");
    return;
  }
  memcpy(pErr->zState, p, 5);
  pErr->zState[5] = 0;
  pErr->iOffset = (int)iOffset1 - 1;
  memcpy(pErr->zMsg, z, n);
  pErr->zMsg[n] = 0;
}

static void wire_figures_get(wire_reader *r, exec_result *p) {
  p->rSeconds = wire_get_f64(r, "rSeconds");
  p->rKernelSeconds = wire_get_f64(r, "rKernelSeconds");
  p->rPrepareSeconds = wire_get_f64(r, "rPrepareSeconds");
  p->rOutputSeconds = wire_get_f64(r, "rOutputSeconds");
  p->nRowStreamed = (int64_t)wire_get_u64(r, "nRowStreamed");
  if (p->nRowStreamed < 0) {
    wire_reader_fail(r, "nRowStreamed is %lld", (long long)p->nRowStreamed);
    p->nRowStreamed = 0;
  }
  p->nKernel = wire_get_int(r, "nKernel");
  if (p->nKernel > EXEC_KERNELS_MAX) {
    wire_reader_fail(r, "%d kernels, more than %d", p->nKernel, EXEC_KERNELS_MAX);
    p->nKernel = 0;
    return;
  }
  for (int i = 0; i < p->nKernel; i++) {
    exec_kernel_time *k = &p->aKernel[i];
    size_t n;
    const char *z = wire_get_str(r, sizeof(k->zName) - 1, &n, "a kernel's name");
    if (z != NULL) memcpy(k->zName, z, n);
    k->zName[n] = 0;
    k->nLaunch = wire_get_int(r, "a kernel's launches");
    k->rSeconds = wire_get_f64(r, "a kernel's seconds");
  }
  p->bCacheHit = wire_get_bool(r, "bCacheHit");
  p->rCompileSeconds = wire_get_f64(r, "rCompileSeconds");
  p->bGeneric = wire_get_bool(r, "bGeneric");
  wire_get_cstr(r, p->zCompileParts, sizeof(p->zCompileParts), "the compile's parts");
  p->nColumnBytes = wire_get_u64(r, "nColumnBytes");
  p->nFactBytes = wire_get_u64(r, "nFactBytes");
  p->nColPinned = wire_get_int(r, "nColPinned");
  p->nColResident = wire_get_int(r, "nColResident");
  p->nColStreamed = wire_get_int(r, "nColStreamed");
  p->nColPinnedNow = wire_get_int(r, "nColPinnedNow");
  p->nStride = wire_get_int(r, "nStride");
  p->nStreamBytes = wire_get_u64(r, "nStreamBytes");
  p->rStreamWaitSeconds = wire_get_f64(r, "rStreamWaitSeconds");
  p->nShareWith = wire_get_int(r, "nShareWith");
  p->nShareStride = wire_get_int(r, "nShareStride");
  p->front.bCached = wire_get_bool(r, "front.bCached");
  p->front.rParseSeconds = wire_get_f64(r, "front.rParseSeconds");
  p->front.rBindSeconds = wire_get_f64(r, "front.rBindSeconds");
  p->front.rPlanSeconds = wire_get_f64(r, "front.rPlanSeconds");
  p->front.rCodegenSeconds = wire_get_f64(r, "front.rCodegenSeconds");
}

/* Reads a column's type and checks what printing it relies on: a known
** id, and modifiers within SQL's limits (DECIMAL's scale sizes a loop and
** a field width). */
static void wire_type_get(wire_reader *r, coltype *t) {
  uint32_t eId = wire_get_u32(r, "a type id");
  int32_t nPrecision;
  t->nLength = wire_get_int(r, "a type length");
  t->nPrecision = wire_get_int(r, "a type precision");
  t->nScale = wire_get_int(r, "a type scale");
  t->eId = COLTYPE_UNKNOWN;
  if (wire_reader_failed(r)) return;
  nPrecision = t->nPrecision;
  /* Types beyond UNKNOWN come from the host tail, their values carried
  ** as text (aStrOff), which is how they print. An array's element type
  ** rides in its precision (coltype_array). */
  if (eId < COLTYPE_SMALLINT || eId > COLTYPE_REGNAMESPACE) {
    wire_reader_fail(r, "unknown type id %u", eId);
    return;
  }
  if (eId == COLTYPE_ARRAY) {
    coltype a = *t, e;
    a.eId = COLTYPE_ARRAY;
    e = coltype_elem(a);
    if (e.eId < COLTYPE_SMALLINT || e.eId > COLTYPE_REGNAMESPACE || e.eId == COLTYPE_ARRAY) {
      wire_reader_fail(r, "unknown array element type id %u", (unsigned)e.eId);
      return;
    }
    nPrecision = e.nPrecision;
  }
  if (t->nLength > COLTYPE_LENGTH_MAX || nPrecision > COLTYPE_DECIMAL_PRECISION_MAX ||
      t->nScale > COLTYPE_DECIMAL_PRECISION_MAX) {
    wire_reader_fail(r, "type modifiers out of range (%d, %d, %d)", t->nLength, t->nPrecision,
                     t->nScale);
    return;
  }
  t->eId = (coltype_id)eId;
}

/* Reads the nStr strings of c into its own table, then checks the rows'
** codes against it. Two passes over the bytes: lengths first, so that
** both allocations are sized by bytes that are really there. */
static void wire_strings_get(wire_reader *r, exec_column *c, uint64_t nRow) {
  uint64_t nStr = wire_get_u64(r, "the string count"), nText = 0;
  size_t iStart = r->i, n;
  if (wire_reader_failed(r)) return;
  if (nStr > wire_reader_left(r) / 4) {
    wire_reader_fail(r, "%llu strings in %zu bytes", (unsigned long long)nStr, wire_reader_left(r));
    return;
  }
  for (uint64_t i = 0; i < nStr && !wire_reader_failed(r); i++) {
    wire_get_str(r, UINT32_MAX, &n, "a string");
    nText += n;
  }
  if (wire_reader_failed(r)) return;
  c->aStrOff = malloc(((size_t)nStr + 1) * sizeof(uint64_t));
  c->zStr = malloc((size_t)nText + 1);
  if (c->aStrOff == NULL || c->zStr == NULL) {
    wire_reader_fail(r, "out of memory for %llu strings", (unsigned long long)nStr);
    return;
  }
  c->nStr = nStr;
  r->i = iStart;
  c->aStrOff[0] = 0;
  for (uint64_t i = 0; i < nStr; i++) {
    const char *z = wire_get_str(r, UINT32_MAX, &n, "a string");
    memcpy(c->zStr + c->aStrOff[i], z, n);
    c->aStrOff[i + 1] = c->aStrOff[i] + n;
  }
  c->zStr[nText] = 0;
  for (uint64_t i = 0; i < nRow; i++) {
    if (!c->aNull[i] && (c->aInt[i] < 0 || (uint64_t)c->aInt[i] >= nStr)) {
      wire_reader_fail(r, "column \"%s\" row %llu: string code %lld of %llu strings", c->zName,
                       (unsigned long long)i, (long long)c->aInt[i], (unsigned long long)nStr);
      return;
    }
  }
}

/* Reads one column of nRow rows into c (zeroed; exec_result_free frees
** whatever was read when this fails part way). */
static void wire_column_get(wire_reader *r, exec_column *c, uint64_t nRow) {
  size_t n;
  const char *z = wire_get_str(r, WIRE_NAME_MAX, &n, "a column name");
  const unsigned char *p;
  int bStrings;
  if (z == NULL) return;
  if (memchr(z, 0, n) != NULL) {
    wire_reader_fail(r, "a column name has a NUL byte");
    return;
  }
  if ((c->zName = strndup(z, n)) == NULL) {
    wire_reader_fail(r, "out of memory for a column name");
    return;
  }
  wire_type_get(r, &c->type);
  c->bFloat = wire_get_bool(r, "bFloat");
  bStrings = wire_get_bool(r, "bStrings");
  if (wire_reader_failed(r)) return;
  /* Strings are a string column's values, or any other type's text (a
  ** host tail's numeric, dates, times); never a float column's. */
  if (bStrings && c->bFloat) {
    wire_reader_fail(r, "column \"%s\" carries strings but is a float column", c->zName);
    return;
  }
  if (nRow > wire_reader_left(r) / 9) {
    wire_reader_fail(r, "column \"%s\": %llu rows in %zu bytes", c->zName, (unsigned long long)nRow,
                     wire_reader_left(r));
    return;
  }
  c->aNull = malloc((size_t)nRow + 1);
  if (c->bFloat) c->aFloat = malloc(((size_t)nRow + 1) * sizeof(double));
  else c->aInt = malloc(((size_t)nRow + 1) * sizeof(int64_t));
  if (c->aNull == NULL || (c->aFloat == NULL && c->aInt == NULL)) {
    wire_reader_fail(r, "out of memory for %llu rows", (unsigned long long)nRow);
    return;
  }
  if ((p = wire_get_bytes(r, (size_t)nRow * 8, "the values")) == NULL) return;
  for (uint64_t i = 0; i < nRow; i++) {
    uint64_t v = le_get(p + 8 * i, 8);
    if (c->bFloat) memcpy(&c->aFloat[i], &v, 8);
    else c->aInt[i] = (int64_t)v;
  }
  if ((p = wire_get_bytes(r, (size_t)nRow, "the NULL flags")) == NULL) return;
  for (uint64_t i = 0; i < nRow; i++) {
    if (p[i] > 1) {
      wire_reader_fail(r, "column \"%s\" row %llu: NULL flag %u", c->zName, (unsigned long long)i,
                       p[i]);
      return;
    }
    c->aNull[i] = p[i];
  }
  if (bStrings) wire_strings_get(r, c, nRow);
}

static void wire_result_get(wire_reader *r, exec_result *pRes) {
  uint32_t nCol;
  uint64_t nRow;
  wire_figures_get(r, pRes);
  nCol = wire_get_u32(r, "the column count");
  nRow = wire_get_u64(r, "the row count");
  if (wire_reader_failed(r)) return;
  if (nCol > wire_reader_left(r) / WIRE_COLUMN_MIN || nRow > INT64_MAX || (nCol == 0 && nRow > 0)) {
    wire_reader_fail(r, "%u columns of %llu rows in %zu bytes", nCol, (unsigned long long)nRow,
                     wire_reader_left(r));
    return;
  }
  if ((pRes->aCol = calloc((size_t)nCol + 1, sizeof(exec_column))) == NULL) {
    wire_reader_fail(r, "out of memory for %u columns", nCol);
    return;
  }
  pRes->nRow = (int64_t)nRow;
  for (uint32_t i = 0; i < nCol && !wire_reader_failed(r); i++) {
    pRes->nCol++;
    wire_column_get(r, &pRes->aCol[i], nRow);
  }
}

int wire_answer_decode(const unsigned char *a, size_t n, int *pRc, exec_result *pRes,
                       sql_error *pErr, char *zErr, size_t nErr) {
  wire_reader r;
  unsigned eStatus;
  memset(pRes, 0, sizeof(*pRes));
  sql_error_clear(pErr);
  *pRc = -1;
  wire_reader_init(&r, a, n);
  (void)wire_get_u64(&r, "the query id");
  eStatus = wire_get_u8(&r, "the status");
  if (eStatus == 1) wire_error_get(&r, pErr);
  else if (eStatus == 0) wire_result_get(&r, pRes);
  else wire_reader_fail(&r, "status %u", eStatus);
  if (wire_reader_end(&r, "ANSWER", zErr, nErr) != 0) {
    exec_result_free(pRes);
    sql_error_clear(pErr);
    return -1;
  }
  *pRc = eStatus == 0 ? 0 : -1;
  return 0;
}
