/*
** loader/text.c — the text formats' common ground (text.h): cutting an
** input into pieces that threads parse on their own, setting up a parse,
** storing one field, and reporting what went wrong where.
**
** The record grammar of each format lives beside it: text-tbl.c (dbgen's
** '|' format, the one the speed target is set on) and text-csv.c. Both
** call back here to store a field that their fast paths do not handle and
** to fill the error. Nothing here reads files or knows line numbers: the
** caller maps the input and turns an error's byte offset into a line.
**
** INTERFACE ROUTINES
**   load_text_split   cut an input at record starts into nPiece pieces
**   load_text_parse   parse one piece's records into a batch
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/value.h"
#include "loadInt.h"
#include "text.h"

/* ---- messages ------------------------------------------------------------ */

/* Writes into a (at least 5 bytes) the message form of the character at
** z[0..n): itself, a whole valid UTF-8 sequence, or an escape. Returns its
** length in a and sets *pnIn to the input bytes it stands for. */
static size_t text_escape_one(const unsigned char *z, size_t n, char *a, size_t *pnIn) {
  unsigned c = z[0];
  int nLen;
  *pnIn = 1;
  switch (c) {
    case '\n': memcpy(a, "\\n", 2); return 2;
    case '\r': memcpy(a, "\\r", 2); return 2;
    case '\t': memcpy(a, "\\t", 2); return 2;
    case '"': memcpy(a, "\\\"", 2); return 2;
    case '\\': memcpy(a, "\\\\", 2); return 2;
  }
  if (c >= 0x20 && c < 0x7f) {
    a[0] = (char)c;
    return 1;
  }
  if (c >= 0x80 && (nLen = value_utf8_len(z, n)) > 0) {
    memcpy(a, z, (size_t)nLen);
    *pnIn = (size_t)nLen;
    return (size_t)nLen;
  }
  snprintf(a, 5, "\\x%02x", c);
  return 4;
}

void load__escape(const char *z, size_t n, char *zOut, size_t nOut) {
  const unsigned char *u = (const unsigned char *)z;
  size_t iIn = 0, iOut = 0, nAll = 0, nLimit;
  char a[5];

  if (nOut == 0) return;
  /* The whole text if it fits; else as much as fits before "...". */
  while (iIn < n && nAll < nOut) {
    size_t nIn;
    nAll += text_escape_one(u + iIn, n - iIn, a, &nIn);
    iIn += nIn;
  }
  nLimit = iIn == n && nAll < nOut ? nOut - 1 : (nOut > 4 ? nOut - 4 : 0);
  iIn = 0;
  while (iIn < n) {
    size_t nIn, nA = text_escape_one(u + iIn, n - iIn, a, &nIn);
    if (iOut + nA > nLimit) break;
    memcpy(zOut + iOut, a, nA);
    iOut += nA;
    iIn += nIn;
  }
  if (iIn < n && nOut > 4) {
    memcpy(zOut + iOut, "...", 3);
    iOut += 3;
  }
  zOut[iOut] = 0;
}

void load__error_set(load__parse *x, size_t iOffset, int iCol, const char *zText,
                     size_t nText, const char *zFormat, ...) {
  load_text_error *e = x->pErr;
  va_list ap;
  e->iOffset = iOffset;
  e->iCol = iCol;
  load__escape(zText, nText, e->zFound, sizeof(e->zFound));
  va_start(ap, zFormat);
  vsnprintf(e->zExpected, sizeof(e->zExpected), zFormat, ap);
  va_end(ap);
}

/* ---- splitting ----------------------------------------------------------- */

/* Returns how many bytes of z[0..n) equal c. Eight at a time: a byte of
** w ^ c*0x01.. is zero exactly where z has c, and the sum below sets the
** high bit of every nonzero byte without carrying into its neighbour. */
static size_t text_count_byte(const char *z, size_t n, char c) {
  const uint64_t k01 = 0x0101010101010101ull, k7f = 0x7f7f7f7f7f7f7f7full;
  const uint64_t kc = k01 * (unsigned char)c;
  size_t i = 0, nHit = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w, t;
    memcpy(&w, z + i, 8);
    w ^= kc;
    t = ((w & k7f) + k7f) | w;
    nHit += (size_t)__builtin_popcountll(~t & ~k7f);
  }
  for (; i < n; i++) nHit += z[i] == c;
  return nHit;
}

/* Fills *pErr for a quote opened in z[iFrom..n) and never closed. Finds
** the quote that opened the section left open, reading "" inside quotes
** as the escape it is (a plain flip would name its second quote). */
static void text_split_unclosed(const char *z, size_t n, size_t iFrom, char cQuote,
                                load_text_error *pErr) {
  load__parse x;
  size_t iOpen = iFrom;
  int bIn = 0;
  for (size_t i = iFrom; i < n; i++) {
    if (z[i] != cQuote) continue;
    if (!bIn) {
      iOpen = i;
      bIn = 1;
    } else if (i + 1 < n && z[i + 1] == cQuote) {
      i++;
    } else {
      bIn = 0;
    }
  }
  memset(&x, 0, sizeof(x));
  x.pErr = pErr;
  load__error_set(&x, iOpen, -1, z + iOpen, n - iOpen,
                  "a closing %c before the end of the input", cQuote);
}

/* The state of a csv scan: at byte iPos, inside quotes or not. */
typedef struct text_csv_scan text_csv_scan;
struct text_csv_scan {
  size_t iPos;
  int bInQuote;
};

/* Moves the scan to iTo (>= iPos), keeping track of quotes. Every quote
** flips the state, which is exactly how "" inside quotes and a quote in
** an unquoted field (PostgreSQL opens a quoted section there) behave. */
static void text_csv_skip(const char *z, text_csv_scan *s, size_t iTo, char cQuote) {
  if (iTo <= s->iPos) return;
  s->bInQuote ^= (int)(text_count_byte(z + s->iPos, iTo - s->iPos, cQuote) & 1);
  s->iPos = iTo;
}

/* Returns the first record start at or after the scan position: just
** past the first newline outside quotes, or n. Leaves the scan there. */
static size_t text_csv_next_record(const char *z, size_t n, text_csv_scan *s,
                                   char cQuote) {
  size_t i = s->iPos;
  while (i < n) {
    if (s->bInQuote) {
      const char *q = memchr(z + i, cQuote, n - i);
      if (q == NULL) {
        i = n;
        break;
      }
      i = (size_t)(q - z) + 1;
      s->bInQuote = 0;
    } else {
      while (i < n && z[i] != '\n' && z[i] != cQuote) i++;
      if (i == n) break;
      if (z[i++] == '\n') break;
      s->bInQuote = 1;
    }
  }
  s->iPos = i;
  return i;
}

int load_text_split(const char *z, size_t n, const load_text_opts *pOpt, int nPiece,
                    size_t *aBound, load_text_error *pErr) {
  int bCsv = pOpt->eFormat == LOAD_CSV;
  char cQuote = pOpt->cQuote;
  text_csv_scan scan = {0, 0};
  size_t iStart = 0, nBody, iPrev;

  if (nPiece < 1) {
    load__parse x;
    memset(&x, 0, sizeof(x));
    x.pErr = pErr;
    load__error_set(&x, 0, -1, "", 0, "at least one piece (asked for %d)", nPiece);
    return -1;
  }
  if (bCsv && pOpt->bHeader) iStart = text_csv_next_record(z, n, &scan, cQuote);
  aBound[0] = iStart;
  aBound[nPiece] = n;
  nBody = n - iStart;
  iPrev = iStart;
  for (int i = 1; i < nPiece; i++) {
    /* The even split point, without overflowing nBody * i. */
    size_t iTarget = iStart + nBody / (size_t)nPiece * (size_t)i +
                     nBody % (size_t)nPiece * (size_t)i / (size_t)nPiece;
    size_t iCut;
    if (iTarget <= iPrev) {
      iCut = iPrev;
    } else if (bCsv) {
      /* Byte iTarget-1 may itself be the newline that ends a record. */
      text_csv_skip(z, &scan, iTarget - 1, cQuote);
      iCut = text_csv_next_record(z, n, &scan, cQuote);
    } else {
      const char *pNl = memchr(z + iTarget - 1, '\n', n - (iTarget - 1));
      iCut = pNl ? (size_t)(pNl - z) + 1 : n;
    }
    aBound[i] = iPrev = iCut;
  }
  if (bCsv) {
    text_csv_skip(z, &scan, n, cQuote);
    if (scan.bInQuote) {
      text_split_unclosed(z, n, 0, cQuote, pErr);
      return -1;
    }
  }
  return 0;
}

/* ---- storing fields ------------------------------------------------------ */

int load__str_store(load__parse *x, int iCol, int64_t iRow, const char *zField,
                    size_t nField) {
  load__plan *pl = &x->aPlan[iCol];
  load__strcache_ent *pEnt;
  if (nField > LOAD__STRCACHE_LEN) {
    return load_batch_set_str(x->b, iCol, iRow, zField, nField);
  }
  if (load__str_cached(pl, iRow, zField, nField)) return 0;
  pEnt = &pl->aCache[load__strcache_hash(zField, nField)];
  if (load_batch_set_str(x->b, iCol, iRow, zField, nField) != 0) return -1;
  pEnt->n = (uint32_t)nField + 1;
  pEnt->iCode = ((uint32_t *)pl->aValue)[iRow];
  memcpy(pEnt->a, zField, nField);
  return 0;
}

int load__field_store(load__parse *x, int iCol, int64_t iRow, const char *zField,
                      size_t nField, int bQuoted, char *zWhy, size_t nWhy) {
  load__plan *pl = &x->aPlan[iCol];
  if (!bQuoted && x->zNull != NULL && nField == x->nNull &&
      memcmp(zField, x->zNull, nField) == 0) {
    if (pl->bNotNull) {
      snprintf(zWhy, nWhy, "a value (the column is NOT NULL)");
      return -1;
    }
    if (load_batch_set_null(x->b, iCol, iRow) != 0) goto out_of_memory;
    return 0;
  }
  if (pl->eKind == LOAD__STR) {
    if (value_check_str(pl->type, zField, nField, zWhy, nWhy) != 0) return -1;
    if (load__str_store(x, iCol, iRow, zField, nField) != 0) goto out_of_memory;
    return 0;
  }
  return value_parse(pl->type, zField, nField,
                          (char *)pl->aValue + (size_t)iRow * (size_t)x->b->aCol[iCol].nWidth,
                          zWhy, nWhy);

out_of_memory:
  snprintf(zWhy, nWhy, "memory to hold it (out of memory)");
  return -1;
}

void load__row_unwind(load__parse *x, int64_t iRow) {
  load_batch *b = x->b;
  if (iRow >= b->nRowAlloc) return;
  for (int i = 0; i < b->nCol; i++) {
    uint64_t *a = b->aCol[i].aValid;
    if (a != NULL) a[iRow >> 6] |= (uint64_t)1 << (iRow & 63);
  }
}

/* ---- room for rows ------------------------------------------------------- */

/* Refreshes the plan's vector pointers after the batch moved them. */
static void text_plan_refresh(load__parse *x) {
  for (int i = 0; i < x->nCol; i++) x->aPlan[i].aValue = x->b->aCol[i].aValue;
}

/* Bytes of the piece sampled to guess the rows in it. */
#define TEXT_SAMPLE (64 * 1024)

/* Returns a guess at the records in z[iPos..iEnd), erring high by about
** 1/16 so that uniform data (the common case) is reserved in one go. */
static int64_t text_rows_guess(const char *z, size_t iPos, size_t iEnd) {
  size_t nSample = iEnd - iPos < TEXT_SAMPLE ? iEnd - iPos : TEXT_SAMPLE;
  size_t nLine = text_count_byte(z + iPos, nSample, '\n');
  double rPerRow = nLine ? (double)nSample / (double)nLine : (double)nSample + 1;
  double r = (double)(iEnd - iPos) / rPerRow;
  return (int64_t)(r + r / 16) + 16;
}

int load__parse_grow(load__parse *x, size_t iPos) {
  load_batch *b = x->b;
  int64_t nGuess = text_rows_guess(x->z, iPos < x->iEnd ? iPos : x->iEnd, x->iEnd);
  if (load_batch_reserve(b, b->nRow + nGuess) != 0) {
    load__error_set(x, iPos, -1, "", 0, "memory for %lld more rows (out of memory)",
                    (long long)nGuess);
    return -1;
  }
  text_plan_refresh(x);
  return 0;
}

/* ---- the parse ----------------------------------------------------------- */

static load__kind text_kind(coltype t) {
  switch (t.eId) {
    case COLTYPE_SMALLINT: return LOAD__I16;
    case COLTYPE_INTEGER: return LOAD__I32;
    case COLTYPE_BIGINT: return LOAD__I64;
    case COLTYPE_DATE: return LOAD__DATE;
    case COLTYPE_CHAR:
    case COLTYPE_VARCHAR:
    case COLTYPE_TEXT: return LOAD__STR;
    case COLTYPE_DOUBLE:
    case COLTYPE_DECIMAL:
    case COLTYPE_TIMESTAMP:
    case COLTYPE_TIMESTAMPTZ:
    case COLTYPE_BOOLEAN:        /* not storable: value_parse refuses it */
    case COLTYPE_UNKNOWN:
    COLTYPE_CASE_NAMED_ONLY: break;
  }
  return LOAD__OTHER;
}

/* Checks the options and the batch against the table before any record
** is read; these are the caller's mistakes, reported as record-level
** errors at iBegin. Returns 0 or -1. */
static int text_setup_check(load__parse *x) {
  const load_text_opts *o = x->pOpt;
  if (o->eFormat != LOAD_TBL && o->eFormat != LOAD_CSV) {
    load__error_set(x, x->iBegin, -1, "", 0, "a format of tbl or csv (got %d)",
                    (int)o->eFormat);
    return -1;
  }
  if (o->eFormat == LOAD_CSV &&
      (o->cDelim == o->cQuote || o->cDelim == '\n' || o->cDelim == '\r' ||
       o->cQuote == '\n' || o->cQuote == '\r' || o->cDelim == 0 || o->cQuote == 0)) {
    load__error_set(x, x->iBegin, -1, "", 0,
                    "a csv delimiter and quote that differ and are not NUL or line ends");
    return -1;
  }
  for (int k = 0; k < x->nField && x->aiField != NULL; k++) {
    if (x->aiField[k] < 0 || x->aiField[k] >= x->nCol) {
      load__error_set(x, x->iBegin, -1, "", 0, "fields of the table's %d columns (field %d: %d)",
                      x->nCol, k, x->aiField[k]);
      return -1;
    }
  }
  if (x->t->nCol < 1 || x->b->nCol != x->t->nCol) {
    load__error_set(x, x->iBegin, -1, "", 0,
                    "a batch set up for the table's %d columns (it has %d)",
                    x->t->nCol, x->b->nCol);
    return -1;
  }
  return 0;
}

int load_text_parse(const char *z, size_t iBegin, size_t iEnd,
                    const load_text_opts *pOpt, const cat_table *t, load_batch *b,
                    load_text_error *pErr) {
  load__parse x;
  int nStr = 0, iStr = 0, rc = -1;
  load__strcache_ent *aCache = NULL;

  memset(&x, 0, sizeof(x));
  x.z = z;
  x.iBegin = iBegin;
  x.iEnd = iEnd;
  x.pOpt = pOpt;
  x.t = t;
  x.b = b;
  x.pErr = pErr;
  x.nCol = t->nCol;
  x.nField = t->nCol;
  if (pOpt->eFormat == LOAD_CSV && pOpt->nField > 0) {
    x.nField = pOpt->nField;
    x.aiField = pOpt->aiField;
  }
  x.cDelim = pOpt->eFormat == LOAD_CSV ? pOpt->cDelim : '|';
  x.cQuote = pOpt->cQuote;
  /* As COPY: csv's NULL is the unquoted empty field unless told
  ** otherwise; tbl has none unless told. */
  x.zNull = pOpt->zNull;
  if (x.zNull == NULL && pOpt->eFormat == LOAD_CSV) x.zNull = "";
  x.nNull = x.zNull ? strlen(x.zNull) : 0;
  if (text_setup_check(&x) != 0) return -1;
  if (iBegin >= iEnd) return 0;

  x.aPlan = calloc((size_t)x.nCol, sizeof(load__plan));
  if (x.aPlan == NULL) goto out_of_memory;
  for (int i = 0; i < x.nCol; i++) nStr += coltype_is_string(t->aCol[i].type);
  if (nStr > 0) {
    aCache = calloc((size_t)nStr * LOAD__STRCACHE_N, sizeof(load__strcache_ent));
    if (aCache == NULL) goto out_of_memory;
  }
  for (int i = 0; i < x.nCol; i++) {
    load__plan *pl = &x.aPlan[i];
    pl->type = t->aCol[i].type;
    pl->eKind = text_kind(pl->type);
    pl->bNotNull = t->aCol[i].bNotNull;
    if (pl->eKind == LOAD__STR) {
      pl->nLength = pl->type.eId == COLTYPE_TEXT ? 0 : pl->type.nLength;
      pl->aCache = aCache + (size_t)(iStr++) * LOAD__STRCACHE_N;
    }
  }
  if (load__parse_grow(&x, iBegin) != 0) goto out_free_plan;
  rc = pOpt->eFormat == LOAD_TBL ? load__tbl_parse(&x) : load__csv_parse(&x);
  goto out_free_plan;

out_of_memory:
  load__error_set(&x, iBegin, -1, "", 0, "memory to parse with (out of memory)");
out_free_plan:
  free(x.zScratch);
  free(aCache);
  free(x.aPlan);
  return rc;
}
