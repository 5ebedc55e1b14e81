/*
** runtime/result-stream.c — a result's rows handed on in batches
** (exec_sink), so that what receives them never needs the whole result
** at once: a scan's chunks are made into batches by exec.c as the SCAN
** runs; a result that had to be whole first (sorted, aggregated, or
** built on the host) is cut here.
**
** A batch is an exec_result of its own: the columns' names and types, its
** rows' values and NULL flags, and the strings its codes print as — a
** mapped dictionary shared with another reference (store_dict_ref_add),
** or a copy of the strings a result carries. So a batch outlives the
** result it was cut from, as a queued batch does.
**
** INTERFACE ROUTINES (exec.h)
**   exec_batch_rows, exec_result_stream, exec_result_columns_copy
*/
#include <stdlib.h>
#include <string.h>

#include "execInt.h"

uint64_t exec_batch_rows(int nCol) {
  uint64_t n = EXEC_BATCH_BYTES / (9 * (uint64_t)(nCol > 0 ? nCol : 1));
  n = n / 4096 * 4096;
  return n < 4096 ? 4096 : n;
}

/* Copies column pFrom's description (and its string table) into pTo,
** with room for nRow rows. Returns 0, or -1 out of memory. */
static int stream_column_init(exec_column *pTo, const exec_column *pFrom, uint64_t nRow) {
  memset(pTo, 0, sizeof(*pTo));
  pTo->zName = strdup(pFrom->zName != NULL ? pFrom->zName : "");
  pTo->type = pFrom->type;
  pTo->bFloat = pFrom->bFloat;
  pTo->aNull = malloc(nRow + 1);
  if (pFrom->bFloat) pTo->aFloat = malloc((nRow + 1) * sizeof(double));
  else pTo->aInt = malloc((nRow + 1) * sizeof(int64_t));
  if (pTo->zName == NULL || pTo->aNull == NULL || (pTo->aFloat == NULL && pTo->aInt == NULL)) {
    return -1;
  }
  if (pFrom->bDict) {
    /* A dictionary the result mapped itself is mapped again by no one:
    ** only a shared one can be lent (exec_run's always are). */
    if (pFrom->pDictRef == NULL) return -1;
    pTo->bDict = 1;
    pTo->dict = pFrom->dict;
    pTo->pDictRef = store_dict_ref_add(pFrom->pDictRef);
  }
  if (pFrom->aStrOff != NULL) {
    uint64_t nByte = pFrom->aStrOff[pFrom->nStr];
    pTo->nStr = pFrom->nStr;
    pTo->aStrOff = malloc((pFrom->nStr + 1) * sizeof(uint64_t));
    pTo->zStr = malloc(nByte + 1);
    if (pTo->aStrOff == NULL || pTo->zStr == NULL) return -1;
    memcpy(pTo->aStrOff, pFrom->aStrOff, (pFrom->nStr + 1) * sizeof(uint64_t));
    memcpy(pTo->zStr, pFrom->zStr, nByte);
  }
  return 0;
}

/* A new batch of pFrom's rows [iFrom, iFrom + n), or NULL out of memory. */
static exec_result *stream_slice(const exec_result *pFrom, int64_t iFrom, int64_t n) {
  exec_result *b = calloc(1, sizeof(*b));
  if (b == NULL) return NULL;
  b->aCol = calloc((size_t)pFrom->nCol + 1, sizeof(exec_column));
  if (b->aCol == NULL) {
    free(b);
    return NULL;
  }
  b->nRow = n;
  for (int i = 0; i < pFrom->nCol; i++) {
    const exec_column *c = &pFrom->aCol[i];
    exec_column *d = &b->aCol[i];
    b->nCol++;
    if (stream_column_init(d, c, (uint64_t)n) != 0) {
      exec_result_free(b);
      free(b);
      return NULL;
    }
    memcpy(d->aNull, c->aNull + iFrom, (size_t)n);
    if (c->bFloat) memcpy(d->aFloat, c->aFloat + iFrom, (size_t)n * sizeof(double));
    else memcpy(d->aInt, c->aInt + iFrom, (size_t)n * sizeof(int64_t));
  }
  return b;
}

int exec_result_columns_copy(exec_result *pTo, const exec_result *pFrom) {
  memset(pTo, 0, sizeof(*pTo));
  pTo->aCol = calloc((size_t)pFrom->nCol + 1, sizeof(exec_column));
  if (pTo->aCol == NULL) return -1;
  for (int i = 0; i < pFrom->nCol; i++) {
    pTo->nCol++;
    if (stream_column_init(&pTo->aCol[i], &pFrom->aCol[i], 0) != 0) {
      exec_result_free(pTo);
      return -1;
    }
  }
  return 0;
}

int exec_result_stream(exec_result *pRes, const exec_sink *pSink, sql_error *pErr) {
  uint64_t nBatch = exec_batch_rows(pRes->nCol);
  exec_result *b;
  if (pRes->nRow == 0) return 0;
  if ((uint64_t)pRes->nRow <= nBatch) {
    /* One batch: the rows move, the result keeps a copy of its columns. */
    exec_result cols;
    if (exec_result_columns_copy(&cols, pRes) != 0 || (b = malloc(sizeof(*b))) == NULL) {
      if (cols.aCol != NULL) exec_result_free(&cols);
      goto oom;
    }
    *b = *pRes;
    memset(&b->front, 0, sizeof(b->front));
    pRes->nCol = cols.nCol;
    pRes->aCol = cols.aCol;
    pRes->nRowStreamed += b->nRow;
    pRes->nRow = 0;
    return pSink->xBatch(pSink->pArg, b, pErr);
  }
  for (int64_t i = 0; i < pRes->nRow; i += (int64_t)nBatch) {
    int64_t n = pRes->nRow - i < (int64_t)nBatch ? pRes->nRow - i : (int64_t)nBatch;
    if ((b = stream_slice(pRes, i, n)) == NULL) goto oom;
    pRes->nRowStreamed += n;
    if (pSink->xBatch(pSink->pArg, b, pErr) != 0) return -1;
  }
  {
    /* The rows went: keep only the columns. */
    exec_result cols;
    if (exec_result_columns_copy(&cols, pRes) != 0) goto oom;
    exec__columns_free(pRes->aCol, pRes->nCol);
    pRes->aCol = cols.aCol;
    pRes->nCol = cols.nCol;
    pRes->nRow = 0;
  }
  return 0;
oom:
  sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory sending the result");
  return -1;
}
