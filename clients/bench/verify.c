/*
** clients/bench/verify.c — expected answers: the answer-file format,
** reading and writing it, and comparing a query's result with it.
**
** The answer file of query NAME (NAME.sql) is DIR/NAME.out:
**
**   - one line per row, each ending in a newline; an empty result is an
**     empty file; column names are not kept;
**   - values separated by '|', SQL NULL written \N; inside a value a
**     backslash is written \\, a '|' \|, a newline \n and a carriage
**     return \r, so a line is always one row and its fields split one way;
**   - values as the server sends them in text (PostgreSQL's spellings:
**     integers in decimal, doubles as the shortest decimal that reads back,
**     dates YYYY-MM-DD, booleans t and f);
**   - rows in the query's order when its SQL has an ORDER BY at the top
**     level, compared in that order (rows an ORDER BY leaves tied must
**     then come out in the same order: write ORDER BY keys that decide);
**     otherwise sorted bytewise, and the result is sorted the same way
**     before the comparison, so the engines' row orders do not matter.
**
** Two values agree when their text is equal, or when both read as numbers,
** one of them is not a plain integer ("12.5", "1e+20", "NaN") and they are
** within a relative 1e-9 of each other (absolute 1e-9 near zero): doubles
** summed in another order, or printed by another engine, still agree,
** while integers must match to the digit. Any tool can write these files;
** starq-bench --write-expected writes them from a run, and
** tests/test-starq-bench.c writes SQLite's answers to the SSB queries.
**
** INTERFACE ROUTINES
**   bench_answer_from_result   a PGresult's rows as answer lines
**   bench_answer_read / _write / _free
**   bench_answer_compare       agree, or the first row that differs
**   bench_sql_ordered          does the SQL have a top-level ORDER BY?
*/
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "bench.h"

/* Relative and absolute tolerance for values that are not integers. */
#define VERIFY_TOLERANCE 1e-9

/* ---- building and files ---------------------------------------------------- */

/* Appends the n bytes at z to s escaped as an answer-file value. */
static void verify_escape(strbuf *s, const char *z, size_t n) {
  size_t i0 = 0;
  for (size_t i = 0; i < n; i++) {
    const char *zEsc = z[i] == '\\' ? "\\\\" : z[i] == '|' ? "\\|" : z[i] == '\n' ? "\\n"
                                                                   : z[i] == '\r' ? "\\r" : NULL;
    if (zEsc == NULL) continue;
    strbuf_append(s, z + i0, i - i0);
    strbuf_puts(s, zEsc);
    i0 = i + 1;
  }
  strbuf_append(s, z + i0, n - i0);
}

/* Appends the line zLine (n bytes) to p's rows. Returns 0, or -1 if
** memory ran out. */
static int verify_row_add(bench_answer *p, const char *zLine, size_t n, int64_t *pnAlloc) {
  if (p->nRow == *pnAlloc) {
    int64_t nNew = *pnAlloc ? 2 * *pnAlloc : 64;
    char **a = realloc(p->azRow, (size_t)nNew * sizeof(char *));
    if (a == NULL) return -1;
    p->azRow = a;
    *pnAlloc = nNew;
  }
  if ((p->azRow[p->nRow] = strndup(zLine, n)) == NULL) return -1;
  p->nRow++;
  return 0;
}

bench_answer *bench_answer_from_result(const PGresult *res) {
  bench_answer *p = calloc(1, sizeof(*p));
  int64_t nAlloc = 0;
  strbuf s;
  if (p == NULL) return NULL;
  strbuf_init(&s);
  for (int i = 0; i < PQntuples(res); i++) {
    strbuf_reset(&s);
    for (int c = 0; c < PQnfields(res); c++) {
      if (c) strbuf_puts(&s, "|");
      if (PQgetisnull(res, i, c)) strbuf_puts(&s, "\\N");
      else verify_escape(&s, PQgetvalue(res, i, c), (size_t)PQgetlength(res, i, c));
    }
    if (strbuf_error(&s) || verify_row_add(p, strbuf_str(&s), s.n, &nAlloc) != 0) {
      strbuf_free(&s);
      bench_answer_free(p);
      return NULL;
    }
  }
  strbuf_free(&s);
  return p;
}

void bench_answer_free(bench_answer *p) {
  if (p == NULL) return;
  for (int64_t i = 0; i < p->nRow; i++) free(p->azRow[i]);
  free(p->azRow);
  free(p);
}

int bench_answer_read(const char *zDir, const char *zName, bench_answer **pp, char *zErr, size_t nErr) {
  char zPath[4096];
  FILE *f;
  char *zLine = NULL;
  size_t nLine = 0;
  ssize_t n;
  int64_t nAlloc = 0;
  bench_answer *p = calloc(1, sizeof(*p));
  *pp = NULL;
  if (p == NULL) return (snprintf(zErr, nErr, "out of memory"), -1);
  snprintf(zPath, sizeof(zPath), "%s/%s.out", zDir, zName);
  if ((f = fopen(zPath, "rb")) == NULL) {
    snprintf(zErr, nErr, "%s: no expected answer: cannot open %s: %s", zName, zPath, strerror(errno));
    free(p);
    return -1;
  }
  while ((n = getline(&zLine, &nLine, f)) >= 0) {
    if (n > 0 && zLine[n - 1] == '\n') n--;
    if (verify_row_add(p, zLine, (size_t)n, &nAlloc) != 0) break;
  }
  if (ferror(f) || !feof(f)) {
    snprintf(zErr, nErr, "cannot read %s: %s", zPath, ferror(f) ? strerror(errno) : "out of memory");
    free(zLine);
    fclose(f);
    bench_answer_free(p);
    return -1;
  }
  free(zLine);
  fclose(f);
  *pp = p;
  return 0;
}

/* Orders rows bytewise for qsort. */
static int verify_row_cmp(const void *pA, const void *pB) {
  return strcmp(*(char *const *)pA, *(char *const *)pB);
}

/* Creates zDir and its missing parents. Returns 0, or -1 with zErr. */
static int verify_mkdirs(const char *zDir, char *zErr, size_t nErr) {
  char z[4096];
  if (zDir[0] == 0 || (size_t)snprintf(z, sizeof(z), "%s", zDir) >= sizeof(z)) {
    snprintf(zErr, nErr, "cannot create \"%s\": not a usable directory name", zDir);
    return -1;
  }
  for (char *p = z + 1;; p++) {
    if (*p != '/' && *p != 0) continue;
    char c = *p;
    *p = 0;
    if (mkdir(z, 0755) != 0 && errno != EEXIST) {
      snprintf(zErr, nErr, "cannot create %s: %s", z, strerror(errno));
      return -1;
    }
    if ((*p = c) == 0) break;
  }
  return 0;
}

int bench_answer_write(const char *zDir, const char *zName, bench_answer *p, int bOrdered, char *zErr,
                       size_t nErr) {
  char zPath[4096], zTmp[4200];
  FILE *f;
  int bBad = 0;
  if (verify_mkdirs(zDir, zErr, nErr) != 0) return -1;
  if (!bOrdered && p->nRow > 1) qsort(p->azRow, (size_t)p->nRow, sizeof(char *), verify_row_cmp);
  snprintf(zPath, sizeof(zPath), "%s/%s.out", zDir, zName);
  snprintf(zTmp, sizeof(zTmp), "%s.tmp", zPath);
  if ((f = fopen(zTmp, "wb")) == NULL) {
    snprintf(zErr, nErr, "cannot create %s: %s", zTmp, strerror(errno));
    return -1;
  }
  for (int64_t i = 0; i < p->nRow && !bBad; i++) bBad = fprintf(f, "%s\n", p->azRow[i]) < 0;
  bBad |= fclose(f) != 0;
  /* Written whole, then renamed: an interrupted run leaves no half answer. */
  if (bBad || rename(zTmp, zPath) != 0) {
    snprintf(zErr, nErr, "cannot write %s: %s", zPath, strerror(errno));
    remove(zTmp);
    return -1;
  }
  return 0;
}

/* ---- comparing ------------------------------------------------------------- */

/* Returns the end of the field starting at z: the next unescaped '|' or
** the NUL. */
static const char *verify_field_end(const char *z) {
  while (*z != 0 && *z != '|') z += (z[0] == '\\' && z[1] != 0) ? 2 : 1;
  return z;
}

/* Returns 1 if z[0..n) is a plain integer: an optional sign, digits. */
static int verify_is_integer(const char *z, size_t n) {
  size_t i = (n > 0 && (z[0] == '-' || z[0] == '+')) ? 1 : 0;
  if (i == n) return 0;
  for (; i < n; i++) {
    if (!isdigit((unsigned char)z[i])) return 0;
  }
  return 1;
}

/* Parses all of z[0..n) as a number. Returns 1 if it is one. */
static int verify_number(const char *z, size_t n, double *pr) {
  char zBuf[64], *zEnd;
  if (n == 0 || n >= sizeof(zBuf)) return 0;
  memcpy(zBuf, z, n);
  zBuf[n] = 0;
  if (strcasecmp(zBuf, "nan") == 0) return (*pr = NAN, 1);
  *pr = strtod(zBuf, &zEnd);
  return *zEnd == 0 && !isspace((unsigned char)zBuf[0]);
}

/* Returns 1 if the values a[0..nA) and b[0..nB) agree (the header's rule). */
static int verify_value_eq(const char *a, size_t nA, const char *b, size_t nB) {
  double x, y;
  if (nA == nB && memcmp(a, b, nA) == 0) return 1;
  if (verify_is_integer(a, nA) && verify_is_integer(b, nB)) return 0;
  if (!verify_number(a, nA, &x) || !verify_number(b, nB, &y)) return 0;
  if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
  if (isinf(x) || isinf(y)) return x == y;
  return fabs(x - y) <= VERIFY_TOLERANCE || fabs(x - y) <= VERIFY_TOLERANCE * fmax(fabs(x), fabs(y));
}

/* Returns 1 if two answer lines agree value by value. */
static int verify_row_eq(const char *a, const char *b) {
  if (strcmp(a, b) == 0) return 1;
  for (;;) {
    const char *aEnd = verify_field_end(a), *bEnd = verify_field_end(b);
    if (!verify_value_eq(a, (size_t)(aEnd - a), b, (size_t)(bEnd - b))) return 0;
    if (*aEnd == 0 || *bEnd == 0) return *aEnd == *bEnd;
    a = aEnd + 1;
    b = bEnd + 1;
  }
}

int bench_answer_compare(const bench_answer *pWant, bench_answer *pGot, int bOrdered, char *zDiff,
                         size_t nDiff) {
  char **azWant = pWant->azRow;
  int64_t i, n = pWant->nRow < pGot->nRow ? pWant->nRow : pGot->nRow;
  const char *zHow = bOrdered ? "" : " (rows sorted: the query has no ORDER BY)";
  int rc = 0;
  if (!bOrdered) {
    /* The answer is shared (the mix's clients read it at once): sort a copy. */
    if (pWant->nRow > 0) {
      azWant = malloc((size_t)pWant->nRow * sizeof(char *));
      if (azWant == NULL) return (snprintf(zDiff, nDiff, "out of memory comparing rows"), 1);
      memcpy(azWant, pWant->azRow, (size_t)pWant->nRow * sizeof(char *));
      qsort(azWant, (size_t)pWant->nRow, sizeof(char *), verify_row_cmp);
    }
    if (pGot->nRow > 1) qsort(pGot->azRow, (size_t)pGot->nRow, sizeof(char *), verify_row_cmp);
  }
  for (i = 0; i < n && verify_row_eq(azWant[i], pGot->azRow[i]); i++) {
  }
  if (i < n) {
    snprintf(zDiff, nDiff, "row %lld differs%s: expected \"%s\", got \"%s\"", (long long)i + 1, zHow,
             azWant[i], pGot->azRow[i]);
    rc = 1;
  } else if (pWant->nRow != pGot->nRow) {
    snprintf(zDiff, nDiff, "%lld rows, expected %lld%s: row %lld: expected %s%s%s, got %s%s%s",
             (long long)pGot->nRow, (long long)pWant->nRow, zHow, (long long)n + 1,
             i < pWant->nRow ? "\"" : "", i < pWant->nRow ? azWant[i] : "no row", i < pWant->nRow ? "\"" : "",
             i < pGot->nRow ? "\"" : "", i < pGot->nRow ? pGot->azRow[i] : "no row", i < pGot->nRow ? "\"" : "");
    rc = 1;
  }
  if (azWant != pWant->azRow) free(azWant);
  return rc;
}

/* ---- ORDER BY ---------------------------------------------------------------- */

/* Returns the length of the comment at z, or 0 if none starts there. Block
** comments nest, as in PostgreSQL. */
static size_t verify_comment_len(const char *z) {
  size_t i = 2;
  int nDepth = 1;
  if (z[0] == '-' && z[1] == '-') {
    while (z[i] != 0 && z[i] != '\n') i++;
    return i;
  }
  if (z[0] != '/' || z[1] != '*') return 0;
  while (z[i] != 0 && nDepth > 0) {
    if (z[i] == '/' && z[i + 1] == '*') nDepth++, i += 2;
    else if (z[i] == '*' && z[i + 1] == '/') nDepth--, i += 2;
    else i++;
  }
  return i;
}

int bench_sql_ordered(const char *zSql) {
  const char *z = zSql;
  int nDepth = 0, bOrder = 0;   /* bOrder: the last token was ORDER at depth 0 */
  while (*z != 0) {
    size_t n = verify_comment_len(z);
    if (n > 0 || isspace((unsigned char)*z)) {
      z += n > 0 ? n : 1;
      continue;
    }
    if (isalpha((unsigned char)*z) || *z == '_') {
      const char *zWord = z;
      while (isalnum((unsigned char)*z) || *z == '_' || *z == '$') z++;
      n = (size_t)(z - zWord);
      if (bOrder && n == 2 && strncasecmp(zWord, "by", 2) == 0) return 1;
      bOrder = nDepth == 0 && n == 5 && strncasecmp(zWord, "order", 5) == 0;
      continue;
    }
    bOrder = 0;
    if (*z == '\'' || *z == '"') {
      char q = *z++;
      /* A doubled quote is the quote itself; the scan resumes after it. */
      while (*z != 0 && *z != q) z++;
      if (*z != 0) z++;
      continue;
    }
    if (*z == '(') nDepth++;
    else if (*z == ')' && nDepth > 0) nDepth--;
    else if (*z == ';') nDepth = 0;
    z++;
  }
  return 0;
}
