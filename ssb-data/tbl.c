/*
** ssb-data/tbl.c — formats rows as .tbl lines (see tbl.h).
**
** This is the generator's hot loop at large scale: lineorder is ~100 bytes
** of text per row and six million rows per SF. So each row reserves a
** bound on its length once, then fields are copied and integers converted
** with no further checks and no printf.
*/
#include <stdlib.h>
#include <string.h>

#include "tbl.h"

/* No SSB row comes near this; customer and supplier, the longest, need
** about 130 bytes. */
#define TBL_ROW_MAX 512

void ssb_buf_free(ssb_buf *b) {
  free(b->z);
  b->z = NULL;
  b->n = b->nAlloc = 0;
}

/* Returns a pointer to TBL_ROW_MAX free bytes at the end of b, or NULL if
** memory ran out. */
static char *tbl_row_begin(ssb_buf *b) {
  if (b->nAlloc - b->n < TBL_ROW_MAX) {
    size_t nNew = b->nAlloc ? b->nAlloc * 2 : 1 << 20;
    char *z = realloc(b->z, nNew);
    if (z == NULL) return NULL;
    b->z = z;
    b->nAlloc = nNew;
  }
  return b->z + b->n;
}

static void tbl_row_end(ssb_buf *b, char *zEnd) {
  *zEnd++ = '\n';
  b->n = (size_t)(zEnd - b->z);
}

static char *tbl_int(char *z, int64_t v) {
  char a[24];
  int n = 0;
  uint64_t u = (uint64_t)v;
  if (v < 0) {
    *z++ = '-';
    u = -u;
  }
  do {
    a[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u != 0);
  while (n > 0) *z++ = a[--n];
  *z++ = '|';
  return z;
}

static char *tbl_str(char *z, const char *zVal) {
  size_t n = strlen(zVal);
  memcpy(z, zVal, n);
  z[n] = '|';
  return z + n + 1;
}

int ssb_tbl_date(ssb_buf *b, const ssb_date *p) {
  char *z = tbl_row_begin(b);
  if (z == NULL) return -1;
  z = tbl_int(z, p->iDateKey);
  z = tbl_str(z, p->zDate);
  z = tbl_str(z, p->zDayOfWeek);
  z = tbl_str(z, p->zMonth);
  z = tbl_int(z, p->iYear);
  z = tbl_int(z, p->iYearMonthNum);
  z = tbl_str(z, p->zYearMonth);
  z = tbl_int(z, p->iDayNumInWeek);
  z = tbl_int(z, p->iDayNumInMonth);
  z = tbl_int(z, p->iDayNumInYear);
  z = tbl_int(z, p->iMonthNumInYear);
  z = tbl_int(z, p->iWeekNumInYear);
  z = tbl_str(z, p->zSellingSeason);
  z = tbl_int(z, p->bLastDayInWeek);
  z = tbl_int(z, p->bLastDayInMonth);
  z = tbl_int(z, p->bHoliday);
  z = tbl_int(z, p->bWeekday);
  tbl_row_end(b, z);
  return 0;
}

static char *tbl_contact(char *z, const ssb_contact *c) {
  z = tbl_str(z, c->zAddress);
  z = tbl_str(z, c->zCity);
  z = tbl_str(z, c->zNation);
  z = tbl_str(z, c->zRegion);
  return tbl_str(z, c->zPhone);
}

int ssb_tbl_customer(ssb_buf *b, const ssb_customer *p) {
  char *z = tbl_row_begin(b);
  if (z == NULL) return -1;
  z = tbl_int(z, p->iCustKey);
  z = tbl_str(z, p->zName);
  z = tbl_contact(z, &p->contact);
  z = tbl_str(z, p->zMktSegment);
  tbl_row_end(b, z);
  return 0;
}

int ssb_tbl_supplier(ssb_buf *b, const ssb_supplier *p) {
  char *z = tbl_row_begin(b);
  if (z == NULL) return -1;
  z = tbl_int(z, p->iSuppKey);
  z = tbl_str(z, p->zName);
  z = tbl_contact(z, &p->contact);
  tbl_row_end(b, z);
  return 0;
}

int ssb_tbl_part(ssb_buf *b, const ssb_part *p) {
  char *z = tbl_row_begin(b);
  if (z == NULL) return -1;
  z = tbl_int(z, p->iPartKey);
  z = tbl_str(z, p->zName);
  z = tbl_str(z, p->zMfgr);
  z = tbl_str(z, p->zCategory);
  z = tbl_str(z, p->zBrand1);
  z = tbl_str(z, p->zColor);
  z = tbl_str(z, p->zType);
  z = tbl_int(z, p->iSize);
  z = tbl_str(z, p->zContainer);
  tbl_row_end(b, z);
  return 0;
}

int ssb_tbl_lineorder(ssb_buf *b, const ssb_lineorder *p) {
  char *z = tbl_row_begin(b);
  if (z == NULL) return -1;
  z = tbl_int(z, p->iOrderKey);
  z = tbl_int(z, p->iLineNumber);
  z = tbl_int(z, p->iCustKey);
  z = tbl_int(z, p->iPartKey);
  z = tbl_int(z, p->iSuppKey);
  z = tbl_int(z, p->iOrderDate);
  z = tbl_str(z, p->zOrderPriority);
  z = tbl_int(z, p->iShipPriority);
  z = tbl_int(z, p->iQuantity);
  z = tbl_int(z, p->iExtendedPrice);
  z = tbl_int(z, p->iOrdTotalPrice);
  z = tbl_int(z, p->iDiscount);
  z = tbl_int(z, p->iRevenue);
  z = tbl_int(z, p->iSupplyCost);
  z = tbl_int(z, p->iTax);
  z = tbl_int(z, p->iCommitDate);
  z = tbl_str(z, p->zShipMode);
  tbl_row_end(b, z);
  return 0;
}
