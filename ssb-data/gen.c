/*
** ssb-data/gen.c — the generator context and the order of the work.
**
** ssb_generate() writes the tables one after another, each across all
** threads (writer.c). Small tables take milliseconds; lineorder is 98% of
** the bytes. Chunk sizes are fixed constants: the output must not depend
** on how the work is split.
*/
#include <stdio.h>
#include <string.h>

#include "../common/fsdir.h"
#include "writer.h"

#define GEN_DIM_CHUNK 16384      /* dimension rows per chunk */
#define GEN_ORDER_CHUNK 4096     /* orders per chunk (~16k lineorder rows) */

void ssb_gen_init(ssb_gen *g, const ssb_scale *pScale, uint64_t iSeed) {
  g->scale = *pScale;
  ssb_rand_init(&g->rand, iSeed);
  for (int i = 0; i < SSB_DATE_ROWS; i++) g->aDateKey[i] = ssb_date_key(i);
}

static int gen_date_unit(const ssb_gen *g, int64_t i, ssb_buf *b, int64_t *pnRow) {
  ssb_date d;
  (void)g;
  ssb_date_row((int)i, &d);
  *pnRow += 1;
  return ssb_tbl_date(b, &d);
}

static int gen_supplier_unit(const ssb_gen *g, int64_t i, ssb_buf *b, int64_t *pnRow) {
  ssb_supplier s;
  ssb_supplier_row(g, i, &s);
  *pnRow += 1;
  return ssb_tbl_supplier(b, &s);
}

static int gen_customer_unit(const ssb_gen *g, int64_t i, ssb_buf *b, int64_t *pnRow) {
  ssb_customer c;
  ssb_customer_row(g, i, &c);
  *pnRow += 1;
  return ssb_tbl_customer(b, &c);
}

static int gen_part_unit(const ssb_gen *g, int64_t i, ssb_buf *b, int64_t *pnRow) {
  ssb_part p;
  ssb_part_row(g, i, &p);
  *pnRow += 1;
  return ssb_tbl_part(b, &p);
}

static int gen_order_unit(const ssb_gen *g, int64_t i, ssb_buf *b, int64_t *pnRow) {
  ssb_lineorder aLine[SSB_LINES_MAX];
  int nLine = ssb_order_lines(g, i, aLine);
  for (int j = 0; j < nLine; j++) {
    if (ssb_tbl_lineorder(b, &aLine[j]) != 0) return -1;
  }
  *pnRow += nLine;
  return 0;
}

static const char *const gen_azTable[SSB_TABLE_COUNT] = {
  "date", "supplier", "customer", "part", "lineorder",
};

const char *ssb_table_name(int iTable) {
  return iTable >= 0 && iTable < SSB_TABLE_COUNT ? gen_azTable[iTable] : NULL;
}

int ssb_generate(const ssb_gen *g, const ssb_options *pOpt, ssb_report *pRep,
                 char *zErr, size_t nErr) {
  const ssb_scale *s = &g->scale;
  const ssb_job aJob[SSB_TABLE_COUNT] = {
    {gen_azTable[0], 0, SSB_DATE_ROWS, GEN_DIM_CHUNK, gen_date_unit},
    {gen_azTable[1], 1, s->nSupplier, GEN_DIM_CHUNK, gen_supplier_unit},
    {gen_azTable[2], 1, s->nCustomer, GEN_DIM_CHUNK, gen_customer_unit},
    {gen_azTable[3], 1, s->nPart, GEN_DIM_CHUNK, gen_part_unit},
    {gen_azTable[4], 1, s->nOrder, GEN_ORDER_CHUNK, gen_order_unit},
  };

  memset(pRep, 0, sizeof(*pRep));
  if (fsdir_mkdir_p(pOpt->zOutDir, zErr, nErr) != 0) return -1;
  for (int i = 0; i < SSB_TABLE_COUNT; i++) {
    if (ssb_job_write(g, &aJob[i], pOpt, &pRep->aRow[i], &pRep->nByte, zErr, nErr) != 0) {
      return -1;
    }
  }
  return 0;
}
