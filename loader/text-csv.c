/*
** loader/text-csv.c — records of CSV (RFC 4180, read the way PostgreSQL's
** COPY ... CSV reads it; see text.h) into a batch.
**
** A field is unquoted text with quoted sections in it. Usually it is one
** or the other whole, and then it is handed on where it lies in the
** input; otherwise (a "" inside quotes, text around quotes) its unquoted
** value is assembled in a scratch buffer that lives for the parse. As
** COPY does, a quote anywhere opens a quoted section, not only at the
** start of a field: so every quote flips the state, which is the rule
** load_text_split() cuts by, and the two always agree on where records
** start. A field is NULL when it is unquoted and equals the NULL text.
**
** Field errors wait until the record's end: a record with the wrong
** number of fields is reported as that, whatever its fields hold.
**
** INTERNAL ROUTINES (loadInt.h)
**   load__csv_parse   the records of one piece into the batch
*/
#include <stdlib.h>
#include <string.h>

#include "loadInt.h"

/* Appends z[0..n) to the scratch buffer, whose used length is *pnUsed.
** Returns 0 or -1 if memory ran out. */
static int csv_scratch_add(load__parse *x, size_t *pnUsed, const char *z, size_t n) {
  if (*pnUsed + n > x->nScratch) {
    size_t nNew = x->nScratch ? x->nScratch * 2 : 256;
    char *zNew;
    while (nNew < *pnUsed + n) nNew *= 2;
    zNew = realloc(x->zScratch, nNew);
    if (zNew == NULL) return -1;
    x->zScratch = zNew;
    x->nScratch = nNew;
  }
  if (n > 0) memcpy(x->zScratch + *pnUsed, z, n);
  *pnUsed += n;
  return 0;
}

/* Reads the rest of a field that has a quote at *pp (s is where the field
** began; s..*pp is unquoted text). On return *pp is at the field's end
** (e, the delimiter or '\n') and *pz, *pn hold its value. Returns 0; 1 if
** a quote is still open at e; -1 if memory ran out. */
static int csv_field_quoted(load__parse *x, const char *s, const char **pp,
                            const char *e, const unsigned char *aStop,
                            const char **pz, size_t *pn) {
  const char cQuote = x->cQuote, cDelim = x->cDelim;
  const char *p = *pp, *q, *u;
  size_t n = 0;

  q = memchr(p + 1, cQuote, (size_t)(e - (p + 1)));
  if (q == NULL) return 1;
  if (p == s) {
    /* "text" standing alone: its value lies in the input as it is. */
    const char *a = q + 1;
    if (a == e || *a == cDelim || *a == '\n') {
      *pz = p + 1;
      *pn = (size_t)(q - (p + 1));
      *pp = a;
      return 0;
    }
    if (*a == '\r' && a + 1 < e && a[1] == '\n') {
      *pz = p + 1;
      *pn = (size_t)(q - (p + 1));
      *pp = a + 1;
      return 0;
    }
  }
  if (csv_scratch_add(x, &n, s, (size_t)(p - s)) != 0) return -1;
  for (;;) {
    /* p is at a quote that opens a section; q at the next quote. */
    if (csv_scratch_add(x, &n, p + 1, (size_t)(q - (p + 1))) != 0) return -1;
    p = q + 1;
    if (p < e && *p == cQuote) {
      /* "" inside quotes: one quote, and the section goes on. */
      if (csv_scratch_add(x, &n, p, 1) != 0) return -1;
    } else {
      u = p;
      while (p < e && !aStop[(unsigned char)*p]) p++;
      if (csv_scratch_add(x, &n, u, (size_t)(p - u)) != 0) return -1;
      if (p == e || *p != cQuote) {
        if (p < e && *p == '\n' && p > u && p[-1] == '\r') n--;
        break;
      }
    }
    q = memchr(p + 1, cQuote, (size_t)(e - (p + 1)));
    if (q == NULL) return 1;
  }
  *pz = x->zScratch;
  *pn = n;
  *pp = p;
  return 0;
}

/* Sets the columns no field names to NULL in row iRow (COPY t (a, b)).
** Returns 0, or -1 with the error at pRec: a NOT NULL one, memory. */
static int csv_unnamed_null(load__parse *x, int64_t iRow, const char *pRec) {
  for (int i = 0; i < x->nCol; i++) {
    int bNamed = 0;
    for (int k = 0; k < x->nField; k++) bNamed |= x->aiField[k] == i;
    if (bNamed) continue;
    if (x->aPlan[i].bNotNull) {
      load__error_set(x, (size_t)(pRec - x->z), i, "", 0,
                      "a value (the column is NOT NULL and the COPY gives it none)");
      return -1;
    }
    if (load_batch_set_null(x->b, i, iRow) != 0) {
      load__error_set(x, (size_t)(pRec - x->z), -1, "", 0, "memory to hold it (out of memory)");
      return -1;
    }
  }
  return 0;
}

/* Returns the length of the record's first line at pRec, for messages. */
static size_t csv_line_len(const char *pRec, const char *e) {
  const char *pNl = memchr(pRec, '\n', (size_t)(e - pRec));
  size_t n = pNl ? (size_t)(pNl - pRec) : (size_t)(e - pRec);
  if (n > 0 && pRec[n - 1] == '\r') n--;
  return n;
}

int load__csv_parse(load__parse *x) {
  const char *const z = x->z;
  const char *p = z + x->iBegin, *const e = z + x->iEnd;
  const char cDelim = x->cDelim;
  load_batch *b = x->b;
  const int nCol = x->nField;
  unsigned char aStop[256];
  char zWhy[200];

  memset(aStop, 0, sizeof(aStop));
  aStop[(unsigned char)cDelim] = aStop[(unsigned char)x->cQuote] = aStop['\n'] = 1;

  while (p < e) {
    const char *pRec = p;
    int64_t iRow = b->nRow;
    int nField = 0, bBad = 0;

    if (iRow >= b->nRowAlloc && load__parse_grow(x, (size_t)(p - z)) != 0) return -1;
    /* An empty line is one empty field: a record only of one column. */
    if (nCol != 1 && (*p == '\n' || (*p == '\r' && p + 1 < e && p[1] == '\n'))) {
      load__error_set(x, (size_t)(p - z), -1, "", 0,
                      "a record of %d fields, not an empty line", nCol);
      return -1;
    }
    for (;;) {
      const char *s = p, *zField;
      size_t nField1;
      int bQuoted = 0;

      while (p < e && !aStop[(unsigned char)*p]) p++;
      if (p < e && *p == x->cQuote) {
        int rc = csv_field_quoted(x, s, &p, e, aStop, &zField, &nField1);
        if (rc != 0) {
          if (rc > 0) {
            load__error_set(x, (size_t)(s - z), nField < nCol ? nField : -1, s,
                            (size_t)(e - s), "a closing %c before the end of the input",
                            x->cQuote);
          } else {
            load__error_set(x, (size_t)(s - z), -1, "", 0,
                            "memory to parse with (out of memory)");
          }
          goto out_unwind;
        }
        bQuoted = 1;
      } else {
        zField = s;
        nField1 = (size_t)(p - s);
        if (p < e && *p == '\n' && nField1 > 0 && s[nField1 - 1] == '\r') nField1--;
      }
      if (nField < nCol && !bBad) {
        int iCol = x->aiField != NULL ? x->aiField[nField] : nField;
        if (load__field_store(x, iCol, iRow, zField, nField1, bQuoted, zWhy, sizeof(zWhy)) != 0) {
          load__error_set(x, (size_t)(s - z), iCol, zField, nField1, "%s", zWhy);
          bBad = 1;
        }
      }
      nField++;
      if (p < e && *p == cDelim) {
        p++;
        continue;
      }
      if (p < e) p++;          /* the '\n' */
      break;
    }
    if (nField != nCol) {
      load__error_set(x, (size_t)(pRec - z), -1, pRec, csv_line_len(pRec, e),
                      "%d field%s, found %d", nCol, nCol == 1 ? "" : "s", nField);
      goto out_unwind;
    }
    if (bBad || (x->aiField != NULL && csv_unnamed_null(x, iRow, pRec) != 0)) goto out_unwind;
    b->nRow = iRow + 1;
    continue;

  out_unwind:
    load__row_unwind(x, iRow);
    return -1;
  }
  return 0;
}
