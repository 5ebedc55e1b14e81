/*
** tests/refdb-result.c — the canonical query result: building one cell or
** row at a time, and deciding whether two results agree.
**
** Whatever engine produced a result, it arrives here as text cells, so the
** comparison knows nothing of SQLite or of starq. Integers and strings
** must match to the byte; columns marked floating-point match within a
** relative tolerance, because two correct engines may add the same
** doubles in different orders. Unordered comparison sorts both results
** the same way and then walks them in step: it sorts by the exactly
** compared columns first, so rows whose floating-point values differ only
** by rounding still line up with their partners.
**
** INTERFACE ROUTINES
**   refdb_result_new, refdb_result_free, refdb_result_set_column,
**   refdb_result_add_cell, refdb_result_add_row, refdb_result_cell,
**   refdb_result_compare, refdb_double_text
*/
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refdb.h"

/* Relative and absolute tolerance for floating-point cells. */
#define REFDB_TOLERANCE 1e-9

/* ---- building ------------------------------------------------------------ */

refdb_result *refdb_result_new(int nCol) {
  refdb_result *p;
  if (nCol < 0) return NULL;
  p = calloc(1, sizeof(*p));
  if (p == NULL) return NULL;
  p->nCol = nCol;
  p->azName = calloc((size_t)nCol + 1, sizeof(char *));
  p->abFloat = calloc((size_t)nCol + 1, 1);
  if (p->azName == NULL || p->abFloat == NULL) {
    refdb_result_free(p);
    return NULL;
  }
  return p;
}

void refdb_result_free(refdb_result *p) {
  if (p == NULL) return;
  if (p->azName != NULL) {
    for (int i = 0; i < p->nCol; i++) free(p->azName[i]);
  }
  free(p->azName);
  free(p->abFloat);
  free(p->aiCell);
  free(p->zText);
  free(p);
}

int refdb_result_set_column(refdb_result *p, int iCol, const char *zName, int bFloat) {
  char *z = NULL;
  if (iCol < 0 || iCol >= p->nCol) return -1;
  if (zName != NULL && (z = strdup(zName)) == NULL) return -1;
  free(p->azName[iCol]);
  p->azName[iCol] = z;
  p->abFloat[iCol] = bFloat != 0;
  return 0;
}

/* Grows *pa (of *pnAlloc elements of size sz) to hold at least nNeed.
** Returns 0, or -1 if memory ran out (the array is then unchanged). */
static int result_grow(void **pa, int64_t *pnAlloc, int64_t nNeed, size_t sz) {
  int64_t nNew = *pnAlloc > 0 ? *pnAlloc : 64;
  void *aNew;
  if (nNeed <= *pnAlloc) return 0;
  while (nNew < nNeed) nNew *= 2;
  aNew = realloc(*pa, (size_t)nNew * sz);
  if (aNew == NULL) return -1;
  *pa = aNew;
  *pnAlloc = nNew;
  return 0;
}

int refdb_result_add_cell(refdb_result *p, const char *z, int n) {
  int64_t iOff = -1;
  if (p->nCol == 0) return -1;
  if (result_grow((void **)&p->aiCell, &p->nCellAlloc, p->nCell + 1, sizeof(int64_t)) != 0) {
    return -1;
  }
  if (z != NULL) {
    size_t nz = n < 0 ? strlen(z) : (size_t)n;
    int64_t nAlloc = (int64_t)p->nTextAlloc;
    if (result_grow((void **)&p->zText, &nAlloc, (int64_t)(p->nText + nz + 1), 1) != 0) {
      return -1;
    }
    p->nTextAlloc = (size_t)nAlloc;
    memcpy(p->zText + p->nText, z, nz);
    p->zText[p->nText + nz] = 0;
    iOff = (int64_t)p->nText;
    p->nText += nz + 1;
  }
  p->aiCell[p->nCell++] = iOff;
  if (p->nCell % p->nCol == 0) p->nRow++;
  return 0;
}

int refdb_result_add_row(refdb_result *p, const char *const *azCell) {
  int64_t nCell = p->nCell;
  if (p->nCol == 0 || nCell != p->nRow * p->nCol) return -1;
  for (int i = 0; i < p->nCol; i++) {
    if (refdb_result_add_cell(p, azCell[i], -1) != 0) {
      /* Leave no half row behind: the caller may go on after an error. */
      p->nCell = nCell;
      return -1;
    }
  }
  return 0;
}

const char *refdb_result_cell(const refdb_result *p, int64_t iRow, int iCol) {
  int64_t iOff = p->aiCell[iRow * p->nCol + iCol];
  return iOff < 0 ? NULL : p->zText + iOff;
}

char *refdb_double_text(double r, char *z, size_t n) {
  if (isnan(r)) {
    snprintf(z, n, "NaN");
  } else if (isinf(r)) {
    snprintf(z, n, "%s", r > 0 ? "Infinity" : "-Infinity");
  } else {
    /* 17 significant digits always read back; fewer usually do. */
    for (int nDigit = 15; nDigit <= 17; nDigit++) {
      snprintf(z, n, "%.*g", nDigit, r);
      if (strtod(z, NULL) == r) break;
    }
  }
  return z;
}

/* ---- comparing ----------------------------------------------------------- */

/* Parses all of z as a number into *pr. Returns 1 if it is one. */
static int result_number(const char *z, double *pr) {
  char *zEnd;
  if (*z == 0) return 0;
  *pr = strtod(z, &zEnd);
  return *zEnd == 0;
}

/* Whether two floating-point cells agree within the tolerance. Text that
** is not a number ("NaN" aside, which strtod reads) must match exactly. */
static int result_float_eq(const char *a, const char *b) {
  double ra, rb, rDiff;
  if (strcmp(a, b) == 0) return 1;
  if (!result_number(a, &ra) || !result_number(b, &rb)) return 0;
  if (isnan(ra) || isnan(rb)) return isnan(ra) && isnan(rb);
  if (isinf(ra) || isinf(rb)) return ra == rb;
  rDiff = fabs(ra - rb);
  return rDiff <= REFDB_TOLERANCE || rDiff <= REFDB_TOLERANCE * fmax(fabs(ra), fabs(rb));
}

/* Whether cells a and b (either may be NULL) agree. */
static int result_cell_eq(const char *a, const char *b, int bFloat) {
  if (a == NULL || b == NULL) return a == b;
  return bFloat ? result_float_eq(a, b) : strcmp(a, b) == 0;
}

/* What the row sort needs: one result, the merged float flags, and its
** floating-point cells parsed once (aValue[iRow * nFloat + k]). */
typedef struct result_sort result_sort;
struct result_sort {
  const refdb_result *p;
  const unsigned char *abFloat;  /* nCol flags, both results' merged */
  int nFloat;                    /* columns flagged */
  int *aiFloat;                  /* their ordinals; owned */
  double *aValue;                /* parsed cells; NaN for NULL or text; owned */
};

/* Orders two cells: NULL first, then by bytes. */
static int result_cell_cmp(const char *a, const char *b) {
  if (a == NULL || b == NULL) return (a != NULL) - (b != NULL);
  return strcmp(a, b);
}

/* qsort_r comparator of row numbers: the exact columns left to right,
** then the floating-point ones by value (NULL and text after numbers, by
** their text), then the row number so that the sort is stable. */
static int result_row_cmp(const void *pa, const void *pb, void *pCtx) {
  const result_sort *s = pCtx;
  int64_t ia = *(const int64_t *)pa, ib = *(const int64_t *)pb;
  for (int i = 0; i < s->p->nCol; i++) {
    int c;
    if (s->abFloat[i]) continue;
    c = result_cell_cmp(refdb_result_cell(s->p, ia, i), refdb_result_cell(s->p, ib, i));
    if (c != 0) return c;
  }
  for (int k = 0; k < s->nFloat; k++) {
    double ra = s->aValue[ia * s->nFloat + k], rb = s->aValue[ib * s->nFloat + k];
    int bNa = isnan(ra), bNb = isnan(rb), c;
    if (bNa != bNb) return bNa - bNb;
    if (!bNa && ra != rb) return ra < rb ? -1 : 1;
    c = result_cell_cmp(refdb_result_cell(s->p, ia, s->aiFloat[k]),
                        refdb_result_cell(s->p, ib, s->aiFloat[k]));
    if (c != 0) return c;
  }
  return (ia > ib) - (ia < ib);
}

/* Returns a malloc'd array of p's row numbers in canonical order (the
** identity order when bSort is 0), or NULL if memory ran out. */
static int64_t *result_row_order(const refdb_result *p, const unsigned char *abFloat, int bSort) {
  int64_t *aiRow = malloc(sizeof(int64_t) * (size_t)(p->nRow + 1));
  result_sort s;
  if (aiRow == NULL) return NULL;
  for (int64_t i = 0; i < p->nRow; i++) aiRow[i] = i;
  if (!bSort || p->nRow < 2) return aiRow;

  memset(&s, 0, sizeof(s));
  s.p = p;
  s.abFloat = abFloat;
  s.aiFloat = malloc(sizeof(int) * (size_t)(p->nCol + 1));
  if (s.aiFloat == NULL) goto out_oom;
  for (int i = 0; i < p->nCol; i++) {
    if (abFloat[i]) s.aiFloat[s.nFloat++] = i;
  }
  s.aValue = malloc(sizeof(double) * (size_t)(p->nRow * s.nFloat + 1));
  if (s.aValue == NULL) goto out_oom;
  for (int64_t r = 0; r < p->nRow; r++) {
    for (int k = 0; k < s.nFloat; k++) {
      const char *z = refdb_result_cell(p, r, s.aiFloat[k]);
      double v;
      s.aValue[r * s.nFloat + k] = z != NULL && result_number(z, &v) ? v : NAN;
    }
  }
  qsort_r(aiRow, (size_t)p->nRow, sizeof(int64_t), result_row_cmp, &s);
  free(s.aiFloat);
  free(s.aValue);
  return aiRow;

out_oom:
  free(s.aiFloat);
  free(s.aValue);
  free(aiRow);
  return NULL;
}

/* Appends printf-style text to z (of n bytes) after what *pi says it holds,
** truncating silently when it is full. */
static void result_say(char *z, size_t n, size_t *pi, const char *zFmt, ...)
    __attribute__((format(printf, 4, 5)));
static void result_say(char *z, size_t n, size_t *pi, const char *zFmt, ...) {
  va_list ap;
  int k;
  if (*pi >= n) return;
  va_start(ap, zFmt);
  k = vsnprintf(z + *pi, n - *pi, zFmt, ap);
  va_end(ap);
  if (k > 0) *pi = *pi + (size_t)k < n ? *pi + (size_t)k : n;
}

/* Appends one cell for a message: NULL as NULL, numbers bare, other
** text quoted, so that NULL and 'NULL' read differently. */
static void result_say_cell(char *z, size_t n, size_t *pi, const char *zCell) {
  double r;
  if (zCell == NULL) {
    result_say(z, n, pi, "NULL");
  } else if (result_number(zCell, &r)) {
    result_say(z, n, pi, "%s", zCell);
  } else {
    result_say(z, n, pi, "'%s'", zCell);
  }
}

/* Appends "(a, b, c)" for row iRow of p, or "(no such row)". */
static void result_say_row(char *z, size_t n, size_t *pi, const refdb_result *p,
                           const int64_t *aiRow, int64_t iRow) {
  if (iRow >= p->nRow) {
    result_say(z, n, pi, "(no such row)");
    return;
  }
  result_say(z, n, pi, "(");
  for (int i = 0; i < p->nCol; i++) {
    if (i > 0) result_say(z, n, pi, ", ");
    result_say_cell(z, n, pi, refdb_result_cell(p, aiRow[iRow], i));
  }
  result_say(z, n, pi, ")");
}

/* Returns the first column where rows ia of a and ib of b differ, or -1. */
static int result_row_diff(const refdb_result *a, int64_t ia, const refdb_result *b,
                           int64_t ib, const unsigned char *abFloat) {
  for (int i = 0; i < a->nCol; i++) {
    if (!result_cell_eq(refdb_result_cell(a, ia, i), refdb_result_cell(b, ib, i), abFloat[i])) {
      return i;
    }
  }
  return -1;
}

/* Writes the message for results that differ at (sorted) row iRow, at
** column iCol if that row exists in both (-1 otherwise). */
static void result_say_diff(char *z, size_t n, const refdb_result *pExp, const int64_t *aiExp,
                            const refdb_result *pGot, const int64_t *aiGot, int bOrdered,
                            int64_t iRow, int iCol) {
  size_t i = 0;
  result_say(z, n, &i, "results differ (%s): expected %lld rows, got %lld; first difference at row %lld%s\n",
             bOrdered ? "ordered" : "unordered, both sorted", (long long)pExp->nRow,
             (long long)pGot->nRow, (long long)iRow + 1, bOrdered ? "" : " of the sorted rows");
  result_say(z, n, &i, "  expected: ");
  result_say_row(z, n, &i, pExp, aiExp, iRow);
  result_say(z, n, &i, "\n  got:      ");
  result_say_row(z, n, &i, pGot, aiGot, iRow);
  if (iCol >= 0) {
    const char *zName = pExp->azName[iCol] ? pExp->azName[iCol] : "";
    result_say(z, n, &i, "\n  column %d \"%s\"%s: expected ", iCol + 1, zName,
               pExp->abFloat[iCol] || pGot->abFloat[iCol] ? " (floating-point)" : "");
    result_say_cell(z, n, &i, refdb_result_cell(pExp, aiExp[iRow], iCol));
    result_say(z, n, &i, ", got ");
    result_say_cell(z, n, &i, refdb_result_cell(pGot, aiGot[iRow], iCol));
  }
}

int refdb_result_compare(const refdb_result *pExpected, const refdb_result *pGot, int bOrdered,
                         char *zDiff, size_t nDiff) {
  unsigned char *abFloat;
  int64_t *aiExp = NULL, *aiGot = NULL, nMin, iRow;
  int rc = -1;

  if (nDiff > 0) zDiff[0] = 0;
  if (pExpected->nCol != pGot->nCol) {
    snprintf(zDiff, nDiff, "results differ: expected %d columns, got %d", pExpected->nCol,
             pGot->nCol);
    return 1;
  }
  abFloat = malloc((size_t)pExpected->nCol + 1);
  if (abFloat == NULL) goto out_oom;
  for (int i = 0; i < pExpected->nCol; i++) {
    abFloat[i] = pExpected->abFloat[i] || pGot->abFloat[i];
  }
  aiExp = result_row_order(pExpected, abFloat, !bOrdered);
  aiGot = result_row_order(pGot, abFloat, !bOrdered);
  if (aiExp == NULL || aiGot == NULL) goto out_oom;

  nMin = pExpected->nRow < pGot->nRow ? pExpected->nRow : pGot->nRow;
  for (iRow = 0; iRow < nMin; iRow++) {
    int iCol = result_row_diff(pExpected, aiExp[iRow], pGot, aiGot[iRow], abFloat);
    if (iCol >= 0) {
      result_say_diff(zDiff, nDiff, pExpected, aiExp, pGot, aiGot, bOrdered, iRow, iCol);
      rc = 1;
      goto out_free;
    }
  }
  rc = 0;
  if (pExpected->nRow != pGot->nRow) {
    result_say_diff(zDiff, nDiff, pExpected, aiExp, pGot, aiGot, bOrdered, nMin, -1);
    rc = 1;
  }
  goto out_free;

out_oom:
  snprintf(zDiff, nDiff, "out of memory comparing results");
out_free:
  free(abFloat);
  free(aiExp);
  free(aiGot);
  return rc;
}
