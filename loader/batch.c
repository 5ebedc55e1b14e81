/*
** loader/batch.c — batches of rows as typed column vectors (batch.h).
**
** A batch only holds memory: it does not know where rows come from or go.
** Producers write values straight into the vectors through
** load_batch_slot() and advance nRow themselves; this file grows the
** vectors, keeps the validity bitmaps and interns strings into each
** column's own string set (storage/strset.c).
**
** A validity bitmap exists only once a column has had a NULL. It is
** created with every bit set, and growth adds set bits, so a row is
** "present" unless load_batch_set_null() cleared its bit: a producer
** writing a present value has nothing to do for the bitmap.
**
** INTERFACE ROUTINES
**   load_batch_init      set up an empty batch for a table
**   load_batch_reset     empty it, keeping its vectors
**   load_batch_free
**   load_batch_reserve   room for more rows
**   load_batch_set_null  mark a value NULL
**   load_batch_set_str   intern a string and store its code
*/
#include <stdlib.h>
#include <string.h>

#include "batch.h"

/* The fewest rows a growing batch makes room for. */
#define BATCH_ROWS_MIN 64

static size_t batch_words(int64_t nRow) {
  return (size_t)((nRow + 63) / 64);
}

int load_batch_init(load_batch *b, const cat_table *t, int64_t nRowAlloc) {
  memset(b, 0, sizeof(*b));
  if (t->nCol > 0) {
    b->aCol = calloc((size_t)t->nCol, sizeof(load_col));
    if (b->aCol == NULL) return -1;
  }
  b->nCol = t->nCol;
  for (int i = 0; i < t->nCol; i++) {
    load_col *c = &b->aCol[i];
    c->type = t->aCol[i].type;
    c->nWidth = coltype_width(c->type);
    if (coltype_is_string(c->type)) store_strset_init(&c->strs);
  }
  for (int i = 0; i < t->nCol; i++) {
    /* An unknown type has no width: no vector could hold it. */
    if (b->aCol[i].nWidth == 0) goto out_free_batch;
  }
  if (nRowAlloc > 0 && load_batch_reserve(b, nRowAlloc) != 0) goto out_free_batch;
  return 0;

out_free_batch:
  load_batch_free(b);
  return -1;
}

void load_batch_reset(load_batch *b) {
  b->nRow = 0;
  for (int i = 0; i < b->nCol; i++) {
    load_col *c = &b->aCol[i];
    free(c->aValid);
    c->aValid = NULL;
    if (coltype_is_string(c->type)) store_strset_clear(&c->strs);
  }
}

void load_batch_free(load_batch *b) {
  for (int i = 0; i < b->nCol; i++) {
    load_col *c = &b->aCol[i];
    free(c->aValue);
    free(c->aValid);
    if (coltype_is_string(c->type)) store_strset_free(&c->strs);
  }
  free(b->aCol);
  memset(b, 0, sizeof(*b));
}

/* Grows the bitmap of c from room for nOld rows to room for nNew, with
** the new rows present. Returns 0 or -1. */
static int batch_valid_grow(load_col *c, int64_t nOld, int64_t nNew) {
  size_t nWordOld = batch_words(nOld), nWordNew = batch_words(nNew);
  uint64_t *a;
  if (nWordNew <= nWordOld) return 0;
  a = realloc(c->aValid, nWordNew * sizeof(uint64_t));
  if (a == NULL) return -1;
  memset(a + nWordOld, 0xff, (nWordNew - nWordOld) * sizeof(uint64_t));
  c->aValid = a;
  return 0;
}

int load_batch_reserve(load_batch *b, int64_t nRow) {
  int64_t nNew;
  if (nRow <= b->nRowAlloc) return 0;
  /* Doubling keeps a row-at-a-time producer at amortised O(1) copies. */
  nNew = b->nRowAlloc * 2;
  if (nNew < nRow) nNew = nRow;
  if (nNew < BATCH_ROWS_MIN) nNew = BATCH_ROWS_MIN;
  if ((uint64_t)nNew > SIZE_MAX / 16) return -1;
  for (int i = 0; i < b->nCol; i++) {
    load_col *c = &b->aCol[i];
    void *a = realloc(c->aValue, (size_t)nNew * (size_t)c->nWidth);
    /* Columns already grown keep their room; nRowAlloc stays the
    ** smallest, so the batch is consistent even when this fails. */
    if (a == NULL) return -1;
    c->aValue = a;
    if (c->aValid != NULL && batch_valid_grow(c, b->nRowAlloc, nNew) != 0) return -1;
  }
  b->nRowAlloc = nNew;
  return 0;
}

int load_batch_set_null(load_batch *b, int iCol, int64_t iRow) {
  load_col *c = &b->aCol[iCol];
  if (iRow >= b->nRowAlloc && load_batch_reserve(b, iRow + 1) != 0) return -1;
  if (c->aValid == NULL) {
    size_t nWord = batch_words(b->nRowAlloc);
    c->aValid = malloc(nWord * sizeof(uint64_t));
    if (c->aValid == NULL) return -1;
    memset(c->aValid, 0xff, nWord * sizeof(uint64_t));
  }
  c->aValid[iRow >> 6] &= ~((uint64_t)1 << (iRow & 63));
  /* A NULL's slot is zero, so the files a load writes are the same
  ** whatever the parser left there. */
  memset(load_batch_slot(b, iCol, iRow), 0, (size_t)c->nWidth);
  return 0;
}

int load_batch_set_str(load_batch *b, int iCol, int64_t iRow, const char *z, size_t n) {
  load_col *c = &b->aCol[iCol];
  uint32_t iCode;
  if (iRow >= b->nRowAlloc && load_batch_reserve(b, iRow + 1) != 0) return -1;
  if (store_strset_add(&c->strs, z, n, &iCode) != 0) return -1;
  ((uint32_t *)c->aValue)[iRow] = iCode;
  return 0;
}
