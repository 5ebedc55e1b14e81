/*
** runtime/result.c — a query's raw output rows made into its result: the
** ORDER BY (on the host: results are small next to the scan), OFFSET and
** LIMIT, string codes kept with their dictionaries, and values printed as
** PostgreSQL prints them in text format.
**
** Sorting compares codes for string columns: dictionaries are sorted, so
** code order is string order (byte order, the "C" collation). NULLs sort
** last ascending and first descending unless NULLS FIRST / LAST says
** otherwise, as in PostgreSQL. The sort is stable, so ties keep the order
** the kernels wrote them in.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "execInt.h"

/* qsort's context, since qsort_r is not C11. Results are built one at a
** time per thread. */
typedef struct result_sort result_sort;
struct result_sort {
  const cg_program *g;
  const void *const *apOut;
  const uint8_t *const *apNull;
};
static _Thread_local const result_sort *result_pSort;

static int result_cmp(const void *pa, const void *pb) {
  const result_sort *s = result_pSort;
  uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
  for (int i = 0; i < s->g->nSort; i++) {
    const cg_sort *o = &s->g->aSort[i];
    int na = s->apNull[o->iOut][a], nb = s->apNull[o->iOut][b], c = 0;
    if (na || nb) {
      if (na && nb) continue;
      return na == o->bNullsFirst ? -1 : 1;   /* not reversed by DESC */
    } else if (s->g->aOut[o->iOut].bFloat) {
      double x = ((const double *)s->apOut[o->iOut])[a], y = ((const double *)s->apOut[o->iOut])[b];
      /* PostgreSQL sorts NaN above every number */
      c = isnan(x) ? (isnan(y) ? 0 : 1) : isnan(y) ? -1 : (x > y) - (x < y);
    } else {
      int64_t x = ((const int64_t *)s->apOut[o->iOut])[a], y = ((const int64_t *)s->apOut[o->iOut])[b];
      c = (x > y) - (x < y);
    }
    if (c != 0) return o->bDesc ? -c : c;
  }
  return (a > b) - (a < b);                   /* stable */
}

/* Gives c the program's string table (cg_program.azStr), which an output
** of bStrList indexes. Returns 0 or -1 (out of memory). */
static int result_strs(const cg_program *g, exec_column *c) {
  size_t n = 0;
  for (int i = 0; i < g->nStr; i++) n += strlen(g->azStr[i]);
  c->aStrOff = malloc(sizeof(uint64_t) * ((size_t)g->nStr + 1));
  c->zStr = malloc(n + 1);
  if (c->aStrOff == NULL || c->zStr == NULL) return -1;
  c->nStr = (uint64_t)g->nStr;
  c->aStrOff[0] = 0;
  for (int i = 0; i < g->nStr; i++) {
    size_t k = strlen(g->azStr[i]);
    memcpy(c->zStr + c->aStrOff[i], g->azStr[i], k);
    c->aStrOff[i + 1] = c->aStrOff[i] + k;
  }
  return 0;
}

static void result_decimal(int64_t v, int nScale, strbuf *s);

/* Gives c the text of its nKeep values (NULL rows keep no text), which a
** host text output (cg_output.bHostText) carries: o's prefix, the value
** printed as its type textOf, o's suffix, cut to nTextLen characters. c's
** values become the indexes of their strings. Returns 0 or -1 (memory). */
static int result_host_text(const cg_output *o, exec_column *c, uint64_t nKeep) {
  strbuf s;
  strbuf_init(&s);
  c->aStrOff = malloc(sizeof(uint64_t) * ((size_t)nKeep + 1));
  if (c->aStrOff == NULL) return -1;
  c->aStrOff[0] = 0;
  for (uint64_t r = 0; r < nKeep; r++) {
    size_t n0 = s.n;
    int64_t v = c->aInt[r];
    if (!c->aNull[r]) {
      strbuf_puts(&s, o->zPrefix);
      if (o->textOf.eId == COLTYPE_DATE) {
        strbuf_printf(&s, "%04lld-%02lld-%02lld", (long long)(v / 10000), (long long)(v / 100 % 100),
                      (long long)(v % 100));
      } else if (o->textOf.eId == COLTYPE_DECIMAL) {
        result_decimal(v, o->textOf.nScale, &s);
      } else {
        strbuf_printf(&s, "%lld", (long long)v);
      }
      strbuf_puts(&s, o->zSuffix);
      if (o->nTextLen > 0) {           /* varchar(n): n characters */
        size_t i = n0;
        for (int k = 0; k < o->nTextLen && i < s.n; k++) {
          i++;
          while (i < s.n && ((unsigned char)s.z[i] & 0xC0) == 0x80) i++;
        }
        s.n = i;
      }
    }
    c->aStrOff[r + 1] = s.n;
    c->aInt[r] = (int64_t)r;
  }
  if (strbuf_error(&s)) {
    strbuf_free(&s);
    return -1;
  }
  c->nStr = nKeep;
  c->zStr = strbuf_take(&s);
  if (c->zStr == NULL) c->zStr = calloc(1, 1);
  return c->zStr == NULL ? -1 : 0;
}

int exec__result_build(cat *pCat, const cg_program *g, const void *const *apOut,
                       const uint8_t *const *apNull, uint64_t nRow, uint64_t nSkip,
                       int64_t nTake, exec_result *pRes, sql_error *pErr) {
  result_sort s = {g, apOut, apNull};
  uint64_t *aIdx = malloc((nRow ? nRow : 1) * sizeof(uint64_t));
  uint64_t iFirst, nKeep;
  int nVisible = 0;
  if (aIdx == NULL) goto oom;
  for (uint64_t i = 0; i < nRow; i++) aIdx[i] = i;
  if (g->nSort > 0 && nRow > 1) {
    result_pSort = &s;
    qsort(aIdx, nRow, sizeof(uint64_t), result_cmp);
    result_pSort = NULL;
  }
  iFirst = nSkip < nRow ? nSkip : nRow;
  nKeep = nRow - iFirst;
  if (nTake >= 0 && (uint64_t)nTake < nKeep) nKeep = (uint64_t)nTake;

  for (int i = 0; i < g->nOut; i++) nVisible += !g->aOut[i].bHidden;
  pRes->aCol = calloc((size_t)nVisible + 1, sizeof(exec_column));
  if (pRes->aCol == NULL) goto oom;
  pRes->nRow = (int64_t)nKeep;
  for (int i = 0; i < g->nOut; i++) {
    const cg_output *o = &g->aOut[i];
    exec_column *c;
    if (o->bHidden) continue;
    c = &pRes->aCol[pRes->nCol++];
    c->zName = strdup(o->zName);
    c->type = o->type;
    c->bFloat = o->bFloat;
    c->aNull = malloc(nKeep + 1);
    if (o->bFloat) c->aFloat = malloc((nKeep + 1) * sizeof(double));
    else c->aInt = malloc((nKeep + 1) * sizeof(int64_t));
    if (c->zName == NULL || c->aNull == NULL || (c->aFloat == NULL && c->aInt == NULL)) goto oom;
    for (uint64_t r = 0; r < nKeep; r++) {
      uint64_t k = aIdx[iFirst + r];
      c->aNull[r] = apNull[i][k];
      if (o->bFloat) c->aFloat[r] = ((const double *)apOut[i])[k];
      else c->aInt[r] = ((const int64_t *)apOut[i])[k];
    }
    if (o->bStrList && result_strs(g, c) != 0) goto oom;
    if (o->bHostText && result_host_text(o, c, nKeep) != 0) goto oom;
    if (o->bDict) {
      const cat_table *t = g->apTable[o->iSource];
      char zPath[4096], zErr[512];
      const store_dict *pDict;
      if (t->iGen != 0) {
        /* Shared: opened and checked once per process, not per query. */
        if (cat_file_path(pCat, t, t->iGen, o->iColumn, STORE_DICT, zPath, sizeof(zPath)) == NULL ||
            store_dict_share(zPath, &pDict, &c->pDictRef, zErr, sizeof(zErr)) != 0) {
          sql_error_set(pErr, SQLSTATE_IO_ERROR, -1, "dictionary of \"%s\": %s", t->zName, zErr);
          free(aIdx);
          return -1;
        }
        c->dict = *pDict;
        c->bDict = 1;
      }
    }
  }
  free(aIdx);
  return 0;
oom:
  free(aIdx);
  sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory building the result");
  return -1;
}

/* The shortest text that reads back as the same double, as PostgreSQL
** (extra_float_digits 1, its default since 12) prints float8. */
/* PostgreSQL's float8 output: the shortest text that reads back the same,
** plain unless the exponent is below -4 or above 14 (4e9 is 4000000000). */
static void result_double(double v, strbuf *s) {
  if (isnan(v)) {
    strbuf_puts(s, "NaN");
    return;
  }
  if (isinf(v)) {
    strbuf_puts(s, v > 0 ? "Infinity" : "-Infinity");
    return;
  }
  strbuf_double(s, v);
}

static void result_decimal(int64_t v, int nScale, strbuf *s) {
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, p = 1;
  for (int i = 0; i < nScale; i++) p *= 10;
  if (nScale == 0) {
    strbuf_printf(s, "%s%llu", v < 0 ? "-" : "", (unsigned long long)u);
    return;
  }
  strbuf_printf(s, "%s%llu.%0*llu", v < 0 ? "-" : "", (unsigned long long)(u / p), nScale,
                (unsigned long long)(u % p));
}

int exec_result_text(const exec_result *r, int64_t iRow, int iCol, strbuf *s) {
  const exec_column *c = &r->aCol[iCol];
  int64_t v;
  if (c->aNull[iRow]) return 1;
  if (c->bFloat) {
    result_double(c->aFloat[iRow], s);
    return 0;
  }
  v = c->aInt[iRow];
  /* Values the result carries as text (a host tail's numeric, dates,
  ** strings; EXPLAIN's lines), whatever the column's type. */
  if (c->aStrOff != NULL) {
    if (v >= 0 && (uint64_t)v < c->nStr) {
      strbuf_append(s, c->zStr + c->aStrOff[v], (size_t)(c->aStrOff[v + 1] - c->aStrOff[v]));
    }
    return 0;
  }
  switch (c->type.eId) {
    case COLTYPE_DECIMAL:
      result_decimal(v, c->type.nScale, s);
      break;
    case COLTYPE_DATE:
      strbuf_printf(s, "%04lld-%02lld-%02lld", (long long)(v / 10000), (long long)(v / 100 % 100),
                    (long long)(v % 100));
      break;
    case COLTYPE_BOOLEAN:
      strbuf_puts(s, v ? "t" : "f");
      break;
    case COLTYPE_CHAR:
    case COLTYPE_VARCHAR:
    case COLTYPE_TEXT:
      if (c->bDict && v >= 0 && (uint64_t)v < c->dict.n) {
        size_t n;
        const char *z = store_dict_str(&c->dict, (uint64_t)v, &n);
        strbuf_append(s, z, n);
      }
      break;
    default:
      strbuf_printf(s, "%lld", (long long)v);
      break;
  }
  return 0;
}

void exec__columns_free(exec_column *a, int n) {
  for (int i = 0; a != NULL && i < n; i++) {
    exec_column *c = &a[i];
    free((char *)c->zName);
    free(c->aInt);
    free(c->aFloat);
    free(c->aNull);
    free(c->aStrOff);
    free(c->zStr);
    if (c->bDict && c->pDictRef != NULL) store_dict_unshare(c->pDictRef);
    else if (c->bDict) store_dict_close(&c->dict);
  }
  free(a);
}

void exec_result_free(exec_result *r) {
  exec__columns_free(r->aCol, r->nCol);
  memset(r, 0, sizeof(*r));
}

void exec_result_figures_copy(exec_result *pTo, const exec_result *pFrom) {
  exec_result r = *pFrom;
  r.nCol = pTo->nCol;
  r.aCol = pTo->aCol;
  r.nRow = pTo->nRow;
  *pTo = r;
}
