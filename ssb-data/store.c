/*
** ssb-data/store.c — starq-gen --format store: SSB rows straight into the
** column store, with no text in between.
**
** A load like any other (loader/feed.h): threads turn chunks of rows into
** batches, and the sink appends them in chunk order, so the stored table
** is the same for any number of threads. Each table is one load: it
** replaces the table's data when it commits.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/progress.h"
#include "../loader/feed.h"
#include "schema.h"

#define STORE_DIM_CHUNK 16384
#define STORE_ORDER_CHUNK 16384

/* Appends the rows of unit iUnit to b. Returns 0, or -1 if memory ran out. */
typedef int (*store_unit_fn)(const ssb_gen *g, int64_t iUnit, load_batch *b);

typedef struct store_table store_table;
struct store_table {
  const char *zName;
  int64_t iFirst, nUnit, nPerChunk;
  int nRowPerUnit;         /* most rows one unit makes */
  store_unit_fn xUnit;
};

/* One table's generation into the store. */
typedef struct store_ctx store_ctx;
struct store_ctx {
  const ssb_gen *g;
  const store_table *pTable;
  cat_table *t;
  load_sink *pSink;
  progress prog;           /* drawn by the main thread only */
};

/* A cursor filling one row of a batch column by column, in table order. */
typedef struct store_row store_row;
struct store_row {
  load_batch *b;
  int64_t iRow;
  int iCol;
  int rc;                  /* -1 once memory ran out */
};

static store_row store_row_begin(load_batch *b) {
  store_row r = {b, b->nRow, 0, 0};
  return r;
}

static void store_int(store_row *r, int64_t v) {
  void *p = load_batch_slot(r->b, r->iCol, r->iRow);
  switch (r->b->aCol[r->iCol].nWidth) {
    case 2: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
    case 4: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
  }
  r->iCol++;
}

static void store_str(store_row *r, const char *z) {
  if (load_batch_set_str(r->b, r->iCol, r->iRow, z, strlen(z)) != 0) r->rc = -1;
  r->iCol++;
}

static int store_row_end(store_row *r) {
  if (r->rc == 0) r->b->nRow++;
  return r->rc;
}

static void store_contact(store_row *r, const ssb_contact *c) {
  store_str(r, c->zAddress);
  store_str(r, c->zCity);
  store_str(r, c->zNation);
  store_str(r, c->zRegion);
  store_str(r, c->zPhone);
}

static int store_date_unit(const ssb_gen *g, int64_t i, load_batch *b) {
  store_row r = store_row_begin(b);
  ssb_date d;
  (void)g;
  ssb_date_row((int)i, &d);
  store_int(&r, d.iDateKey);
  store_str(&r, d.zDate);
  store_str(&r, d.zDayOfWeek);
  store_str(&r, d.zMonth);
  store_int(&r, d.iYear);
  store_int(&r, d.iYearMonthNum);
  store_str(&r, d.zYearMonth);
  store_int(&r, d.iDayNumInWeek);
  store_int(&r, d.iDayNumInMonth);
  store_int(&r, d.iDayNumInYear);
  store_int(&r, d.iMonthNumInYear);
  store_int(&r, d.iWeekNumInYear);
  store_str(&r, d.zSellingSeason);
  store_int(&r, d.bLastDayInWeek);
  store_int(&r, d.bLastDayInMonth);
  store_int(&r, d.bHoliday);
  store_int(&r, d.bWeekday);
  return store_row_end(&r);
}

static int store_supplier_unit(const ssb_gen *g, int64_t i, load_batch *b) {
  store_row r = store_row_begin(b);
  ssb_supplier s;
  ssb_supplier_row(g, i, &s);
  store_int(&r, s.iSuppKey);
  store_str(&r, s.zName);
  store_contact(&r, &s.contact);
  return store_row_end(&r);
}

static int store_customer_unit(const ssb_gen *g, int64_t i, load_batch *b) {
  store_row r = store_row_begin(b);
  ssb_customer c;
  ssb_customer_row(g, i, &c);
  store_int(&r, c.iCustKey);
  store_str(&r, c.zName);
  store_contact(&r, &c.contact);
  store_str(&r, c.zMktSegment);
  return store_row_end(&r);
}

static int store_part_unit(const ssb_gen *g, int64_t i, load_batch *b) {
  store_row r = store_row_begin(b);
  ssb_part p;
  ssb_part_row(g, i, &p);
  store_int(&r, p.iPartKey);
  store_str(&r, p.zName);
  store_str(&r, p.zMfgr);
  store_str(&r, p.zCategory);
  store_str(&r, p.zBrand1);
  store_str(&r, p.zColor);
  store_str(&r, p.zType);
  store_int(&r, p.iSize);
  store_str(&r, p.zContainer);
  return store_row_end(&r);
}

static int store_order_unit(const ssb_gen *g, int64_t i, load_batch *b) {
  ssb_lineorder aLine[SSB_LINES_MAX];
  int nLine = ssb_order_lines(g, i, aLine);
  for (int j = 0; j < nLine; j++) {
    const ssb_lineorder *l = &aLine[j];
    store_row r = store_row_begin(b);
    store_int(&r, l->iOrderKey);
    store_int(&r, l->iLineNumber);
    store_int(&r, l->iCustKey);
    store_int(&r, l->iPartKey);
    store_int(&r, l->iSuppKey);
    store_int(&r, l->iOrderDate);
    store_str(&r, l->zOrderPriority);
    store_int(&r, l->iShipPriority);
    store_int(&r, l->iQuantity);
    store_int(&r, l->iExtendedPrice);
    store_int(&r, l->iOrdTotalPrice);
    store_int(&r, l->iDiscount);
    store_int(&r, l->iRevenue);
    store_int(&r, l->iSupplyCost);
    store_int(&r, l->iTax);
    store_int(&r, l->iCommitDate);
    store_str(&r, l->zShipMode);
    if (store_row_end(&r) != 0) return -1;
  }
  return 0;
}

/* Generates chunk iChunk's units into b. */
static int store_fill(void *pCtx, load_batch *b, int64_t iChunk, char *zErr, size_t nErr) {
  store_ctx *x = pCtx;
  const store_table *p = x->pTable;
  int64_t iFirst = p->iFirst + iChunk * p->nPerChunk;
  int64_t iEnd = iFirst + p->nPerChunk;

  if (iEnd > p->iFirst + p->nUnit) iEnd = p->iFirst + p->nUnit;
  if (load_batch_reserve(b, (iEnd - iFirst) * p->nRowPerUnit) != 0) goto out_oom;
  for (int64_t i = iFirst; i < iEnd; i++) {
    if (p->xUnit(x->g, i, b) != 0) goto out_oom;
  }
  return 0;
out_oom:
  snprintf(zErr, nErr, "out of memory generating %s", p->zName);
  return -1;
}

static void store_progress(void *pCtx, int64_t nDone, int64_t nRow) {
  store_ctx *x = pCtx;
  int64_t nUnit = nDone * x->pTable->nPerChunk;
  progress_show(&x->prog, nUnit < x->pTable->nUnit ? nUnit : x->pTable->nUnit, nRow);
}

/* Generates one table into the store and commits it; adds its rows and
** the bytes of its value columns to *pnRow and *pnByte. */
static int store_table_write(const ssb_gen *g, cat *pCat, const store_table *p,
                             const ssb_options *pOpt, int64_t *pnRow, int64_t *pnByte,
                             char *zErr, size_t nErr) {
  store_ctx x;
  int rc = -1;

  memset(&x, 0, sizeof(x));
  x.g = g;
  x.pTable = p;
  if (cat_table_get(pCat, p->zName, &x.t, zErr, nErr) != 0) return -1;
  if (load_sink_open(&x.pSink, pCat, x.t, 0, zErr, nErr) != 0) goto out_table;
  load_sink_set_compress(x.pSink, pOpt->bNoCompress ? LOAD_COMPRESS_OFF : LOAD_COMPRESS_AUTO);
  progress_begin(&x.prog, p->zName, "rows", p->nUnit, pOpt->bQuiet);
  {
    load_feed f = {x.pSink, x.t, (p->nUnit + p->nPerChunk - 1) / p->nPerChunk,
                   pOpt->nThread, p->nPerChunk * p->nRowPerUnit, &x, store_fill,
                   store_progress};
    int64_t nFed = 0;
    if (load_feed_run(&f, &nFed, zErr, nErr) != 0) {
      load_sink_abort(x.pSink);
      goto out_table;
    }
  }
  if (load_sink_commit(x.pSink, pnRow, zErr, nErr) != 0) goto out_table;
  progress_end(&x.prog, *pnRow);
  for (int i = 0; i < x.t->nCol; i++) *pnByte += *pnRow * coltype_width(x.t->aCol[i].type);
  rc = 0;
out_table:
  cat_table_free(x.t);
  return rc;
}

int ssb_generate_store(const ssb_gen *g, const ssb_options *pOpt, ssb_report *pRep,
                       char *zErr, size_t nErr) {
  const ssb_scale *s = &g->scale;
  const store_table aTable[SSB_TABLE_COUNT] = {
    {ssb_table_name(0), 0, SSB_DATE_ROWS, STORE_DIM_CHUNK, 1, store_date_unit},
    {ssb_table_name(1), 1, s->nSupplier, STORE_DIM_CHUNK, 1, store_supplier_unit},
    {ssb_table_name(2), 1, s->nCustomer, STORE_DIM_CHUNK, 1, store_customer_unit},
    {ssb_table_name(3), 1, s->nPart, STORE_DIM_CHUNK, 1, store_part_unit},
    {ssb_table_name(4), 1, s->nOrder, STORE_ORDER_CHUNK, SSB_LINES_MAX, store_order_unit},
  };
  cat *pCat;
  int rc = 0;

  memset(pRep, 0, sizeof(*pRep));
  if (cat_open(&pCat, pOpt->zOutDir, zErr, nErr) != 0) return -1;
  if (ssb_schema_create(pCat, zErr, nErr) != 0) rc = -1;
  for (int i = 0; i < SSB_TABLE_COUNT && rc == 0; i++) {
    rc = store_table_write(g, pCat, &aTable[i], pOpt, &pRep->aRow[i], &pRep->nByte, zErr,
                           nErr);
  }
  cat_close(pCat);
  return rc;
}
