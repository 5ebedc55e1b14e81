/*
** loader/batch.h — a batch: some rows of one table as typed column
** vectors, the unit in which rows travel from a producer (the text parser,
** the generator) to the sink that writes the column store (sink.h).
**
** Strings in a batch are codes into a dictionary of the batch's own
** (first-seen order); the sink merges those into the column's dictionary.
** A batch is owned by one thread at a time.
**
** Producers write row values straight into load_batch_slot() for rows
** below nRowAlloc (load_batch_reserve() first) and advance nRow
** themselves; a row is present unless load_batch_set_null() marked it.
*/
#ifndef STARQ_LOAD_BATCH_H
#define STARQ_LOAD_BATCH_H

#include <stdint.h>

#include "../catalog/catalog.h"
#include "../storage/store.h"

typedef struct load_col load_col;
struct load_col {
  coltype type;
  int nWidth;              /* bytes per value (coltype_width) */
  void *aValue;            /* nRowAlloc values; strings: uint32 batch codes */
  uint64_t *aValid;        /* NULL while no row is NULL; else bit i set = row i present */
  store_strset strs;       /* strings only: the batch's own dictionary */
};

typedef struct load_batch load_batch;
struct load_batch {
  int64_t nRow;            /* rows filled */
  int64_t nRowAlloc;       /* rows the vectors have room for */
  int nCol;
  load_col *aCol;          /* one per table column, in table order; owned */
};

/* Sets up an empty batch for the columns of t with room for nRowAlloc
** rows. Returns 0, or -1 if memory ran out. */
int load_batch_init(load_batch *b, const cat_table *t, int64_t nRowAlloc);

/* Empties the batch (nRow = 0, no NULLs, empty string sets), keeping its
** memory for the next use. */
void load_batch_reset(load_batch *b);
void load_batch_free(load_batch *b);

/* Makes room for at least nRow rows. Returns 0 or -1. */
int load_batch_reserve(load_batch *b, int64_t nRow);

/* Marks row iRow of column iCol NULL (allocating the validity bitmap with
** every earlier row present on first use). Returns 0 or -1. */
int load_batch_set_null(load_batch *b, int iCol, int64_t iRow);

/* Returns a pointer to the value slot of row iRow in column iCol. */
static inline void *load_batch_slot(load_batch *b, int iCol, int64_t iRow) {
  load_col *c = &b->aCol[iCol];
  return (char *)c->aValue + (size_t)iRow * (size_t)c->nWidth;
}

/* Sets string row iRow of column iCol to z[0..n): interns it and stores
** its batch code. Returns 0 or -1. */
int load_batch_set_str(load_batch *b, int iCol, int64_t iRow, const char *z, size_t n);

#endif /* STARQ_LOAD_BATCH_H */
