/*
** loader/text-tbl.c — records of dbgen's .tbl format (text.h) into a
** batch. This is the loader's hot loop: SSB's lineorder is 600 MB per
** scale factor, nearly all short integers, so the parse must run at
** hundreds of megabytes a second per thread.
**
** How it gets there:
**   - One pass per byte. An integer or date field is converted while its
**     digits are scanned, and the byte that stops the digits is the
**     delimiter test; a string field is scanned with one table lookup per
**     byte that stops at '|', '\n', NUL or any non-ASCII byte.
**   - No bounds test per byte. The region the loop walks always ends in
**     '\n' and every scan stops at '\n', so no scan can run off the end;
**     a last record without a newline is parsed from a copy that has one.
**   - Anything unusual leaves the fast path for the general one (text.c's
**     load__field_store: signs, blanks, leading zeros, yyyy-mm-dd, UTF-8,
**     NULL texts, DECIMAL, DOUBLE), which also produces the error words.
**   - Errors cost nothing until they happen: the record's shape (field
**     count, trailing '|', empty line) is only examined once something
**     failed, and then takes precedence over the field's own complaint.
**
** INTERNAL ROUTINES (loadInt.h)
**   load__tbl_parse   the records of one piece into the batch
*/
#include <stdlib.h>
#include <string.h>

#include "../common/value.h"
#include "loadInt.h"

/* Fills *pErr if the record at p (in a region that ends in '\n') is
** malformed as a whole: an empty line, the wrong number of fields, or no
** '|' after the last field. Returns -1 if it was, 0 if its shape is fine. */
static int tbl_shape_check(load__parse *x, const unsigned char *pRec, size_t iRecOff) {
  const unsigned char *p = pRec, *pEnd;
  int nBar = 0, nField;
  while (*p != '\n') nBar += *p++ == '|';
  pEnd = p;
  if (pEnd > pRec && pEnd[-1] == '\r') pEnd--;
  if (pEnd == pRec) {
    load__error_set(x, iRecOff, -1, "", 0, "a record of %d fields, not an empty line",
                    x->nCol);
    return -1;
  }
  nField = pEnd[-1] == '|' ? nBar : nBar + 1;
  if (nField != x->nCol) {
    load__error_set(x, iRecOff, -1, (const char *)pRec, (size_t)(pEnd - pRec),
                    "%d field%s, found %d", x->nCol, x->nCol == 1 ? "" : "s", nField);
    return -1;
  }
  if (pEnd[-1] != '|') {
    load__error_set(x, iRecOff, -1, (const char *)pRec, (size_t)(pEnd - pRec),
                    "a '|' after the last field");
    return -1;
  }
  return 0;
}

/* True when field s..e is not the NULL text (always, without one). */
#define TBL_NOT_NULL(s, e)                                                   \
  (zNull == NULL || (size_t)((e) - (s)) != nNull || memcmp((s), zNull, nNull) != 0)

/* Parses the records of zRegion[0..nRegion), which ends in '\n'; its byte
** 0 is byte iOff0 of the input. aStop is the string scan's stop table.
** Returns 0 or -1 with *pErr filled. */
static int tbl_region(load__parse *x, const char *zRegion, size_t nRegion, size_t iOff0,
                      const unsigned char *aStop) {
  const unsigned char *const pBase = (const unsigned char *)zRegion;
  const unsigned char *p = pBase, *const pEnd = pBase + nRegion;
  const unsigned char *pRec, *s;
  load_batch *b = x->b;
  load__plan *const aPlan = x->aPlan;
  const int nCol = x->nCol;
  const char *const zNull = x->zNull;
  const size_t nNull = x->nNull;
  char zWhy[200];
  int64_t iRow;
  int i;

#define TBL_OFF(ptr) (iOff0 + (size_t)((ptr) - pBase))
  while (p < pEnd) {
    pRec = p;
    iRow = b->nRow;
    if (iRow >= b->nRowAlloc && load__parse_grow(x, TBL_OFF(p)) != 0) return -1;
    for (i = 0; i < nCol; i++) {
      load__plan *const pl = &aPlan[i];
      uint64_t v = 0;
      unsigned c;
      int bNeg;
      const unsigned char *d;
      s = p;
      switch (pl->eKind) {
        case LOAD__I32:
          bNeg = *p == '-';
          d = p += bNeg;
          while ((c = (unsigned)*p - '0') < 10) {
            v = v * 10 + c;
            p++;
          }
          if (*p == '|' && p > d && p - d <= 10 && v <= (uint64_t)INT32_MAX + (unsigned)bNeg &&
              TBL_NOT_NULL(s, p)) {
            ((int32_t *)pl->aValue)[iRow] = (int32_t)(bNeg ? -(int64_t)v : (int64_t)v);
            p++;
            continue;
          }
          break;
        case LOAD__I64:
          bNeg = *p == '-';
          d = p += bNeg;
          while ((c = (unsigned)*p - '0') < 10) {
            v = v * 10 + c;
            p++;
          }
          /* 19 digits cannot wrap 64 bits; the range test does the rest. */
          if (*p == '|' && p > d && p - d <= 19 && v <= (uint64_t)INT64_MAX + (unsigned)bNeg &&
              TBL_NOT_NULL(s, p)) {
            ((int64_t *)pl->aValue)[iRow] = bNeg ? (int64_t)(0 - v) : (int64_t)v;
            p++;
            continue;
          }
          break;
        case LOAD__I16:
          bNeg = *p == '-';
          d = p += bNeg;
          while ((c = (unsigned)*p - '0') < 10) {
            v = v * 10 + c;
            p++;
          }
          if (*p == '|' && p > d && p - d <= 5 && v <= (uint64_t)INT16_MAX + (unsigned)bNeg &&
              TBL_NOT_NULL(s, p)) {
            ((int16_t *)pl->aValue)[iRow] = (int16_t)(bNeg ? -(int64_t)v : (int64_t)v);
            p++;
            continue;
          }
          break;
        case LOAD__DATE:
          /* dbgen writes yyyymmdd; yyyy-mm-dd takes the general path. */
          while ((c = (unsigned)*p - '0') < 10) {
            v = v * 10 + c;
            p++;
          }
          if (*p == '|' && p - s == 8 &&
              value_date_ok((int)(v / 10000), (int)(v / 100 % 100), (int)(v % 100)) &&
              TBL_NOT_NULL(s, p)) {
            ((int32_t *)pl->aValue)[iRow] = (int32_t)v;
            p++;
            continue;
          }
          break;
        case LOAD__STR:
          while (!aStop[*p]) p++;
          /* ASCII and no NUL: the bytes are the characters. */
          if (*p == '|' && (pl->nLength == 0 || p - s <= pl->nLength) && TBL_NOT_NULL(s, p)) {
            if (!load__str_cached(pl, iRow, (const char *)s, (size_t)(p - s)) &&
                load__str_store(x, i, iRow, (const char *)s, (size_t)(p - s)) != 0) {
              load__error_set(x, TBL_OFF(s), i, "", 0, "memory to hold it (out of memory)");
              goto out_unwind;
            }
            p++;
            continue;
          }
          break;
        case LOAD__OTHER:
          break;
      }

      /* The general path: find the field's end, then judge it whole. */
      p = s;
      while (*p != '|' && *p != '\n') p++;
      if (*p != '|') goto record_bad;
      if (load__field_store(x, i, iRow, (const char *)s, (size_t)(p - s), 0, zWhy,
                            sizeof(zWhy)) != 0) {
        if (tbl_shape_check(x, pRec, TBL_OFF(pRec)) == 0) {
          load__error_set(x, TBL_OFF(s), i, (const char *)s, (size_t)(p - s), "%s", zWhy);
        }
        goto out_unwind;
      }
      p++;
    }
    if (*p == '\n') {
      p++;
    } else if (*p == '\r' && p[1] == '\n') {
      p += 2;
    } else {
      goto record_bad;
    }
    b->nRow = iRow + 1;
  }
  return 0;

record_bad:
  if (tbl_shape_check(x, pRec, TBL_OFF(pRec)) == 0) {
    /* Unreachable if the shape test and the loop agree; say something. */
    load__error_set(x, TBL_OFF(pRec), -1, (const char *)pRec, 0, "a well-formed record");
  }
out_unwind:
  load__row_unwind(x, iRow);
  return -1;
#undef TBL_OFF
}

int load__tbl_parse(load__parse *x) {
  const char *z = x->z;
  size_t iMainEnd = x->iEnd;
  unsigned char aStop[256];
  int rc = 0;

  memset(aStop, 0, 0x80);
  memset(aStop + 0x80, 1, 0x80);
  aStop[0] = aStop['\n'] = aStop['|'] = 1;

  while (iMainEnd > x->iBegin && z[iMainEnd - 1] != '\n') iMainEnd--;
  if (iMainEnd > x->iBegin) {
    rc = tbl_region(x, z + x->iBegin, iMainEnd - x->iBegin, x->iBegin, aStop);
  }
  if (rc == 0 && iMainEnd < x->iEnd) {
    /* The last record has no newline: give a copy one. */
    size_t nTail = x->iEnd - iMainEnd;
    char *zTail = malloc(nTail + 1);
    if (zTail == NULL) {
      load__error_set(x, iMainEnd, -1, "", 0, "memory to parse with (out of memory)");
      return -1;
    }
    memcpy(zTail, z + iMainEnd, nTail);
    zTail[nTail] = '\n';
    rc = tbl_region(x, zTail, nTail + 1, iMainEnd, aStop);
    free(zTail);
  }
  return rc;
}
