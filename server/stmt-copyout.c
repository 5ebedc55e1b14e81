/*
** server/stmt-copyout.c — COPY ... TO STDOUT: a query's rows (a result
** whole, or a stream of batches: stmt-stream.c) written in PostgreSQL's
** COPY formats, one line a row, as the session sends them (a
** PG_OUTCOME_COPY_OUT whose rows are the CopyData payloads).
**
** The formats are PostgreSQL 15's (src/backend/commands/copyto.c), so the
** bytes a client gets are the bytes PostgreSQL sends for the same values:
**
**   text    values in their text output, separated by DELIMITER (tab),
**           NULL as NULL ('\N'); a backslash, the delimiter and the
**           control characters \b \f \n \r \t \v escaped with a
**           backslash, other control characters as they are; HEADER: the
**           column names first, escaped alike;
**   csv     DELIMITER (','), NULL ('' unquoted); a value is quoted with
**           QUOTE ('"') when FORCE_QUOTE names its column (or *), when it
**           is the NULL string, when it holds the delimiter, the quote, a
**           CR or LF, or when it is "\." alone on a line of one column; in
**           quotes, QUOTE and ESCAPE characters are preceded by ESCAPE
**           (QUOTE by default); HEADER names quoted by the same rules;
**   binary  the 19-byte header (signature, flags, extension length), per
**           row a 16-bit field count and each field as a 32-bit length
**           (-1: NULL) and its binary send form, and the 16-bit trailer -1.
**
** The options are judged here, as PostgreSQL 15's ProcessCopyOptions
** judges them, in its order and with its SQLSTATEs (stmt_copyout_check),
** and so is what needs the columns: FORCE_QUOTE's names, and the binary
** form of every column's type.
**
** INTERFACE ROUTINES
**   stmt_copyout_check  COPY TO's options
**   stmt_copyout_rows   a COPY_OUT outcome over a query's rows
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stmt.h"

typedef enum copyout_format { COPYOUT_TEXT = 0, COPYOUT_CSV, COPYOUT_BINARY } copyout_format;

/* The rows of one COPY TO, formatted as the session reads them. */
typedef struct stmt_copyout stmt_copyout;
struct stmt_copyout {
  const pg_result_ops *pOps;   /* the query's rows ... */
  void *pRes;                  /* ... owned */
  copyout_format eFormat;
  int nCol;
  uint32_t *aType;             /* binary: each column's type OID; owned */
  unsigned char *abForce;      /* csv: FORCE_QUOTE of each column; owned */
  char **azName;               /* HEADER: the column names; owned */
  int bHeader;                 /* a first row of names (text, csv) or the
                               ** binary header */
  char cDelim, cQuote, cEscape;
  char *zNull;                 /* owned */
  int64_t nInner;              /* the query's rows counted so far */
  strbuf val;                  /* one value's text */
};

static const unsigned char copyout_signature[11] = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', 0xff,
                                                    '\r', '\n', 0};

/* 1 once the query's rows are all counted. */
static int copyout_complete(stmt_copyout *c) {
  pgwire_error e;
  return c->pOps->xStatus == NULL || c->pOps->xStatus(c->pRes, &e) == 0;
}

/* Rows before the data: the header's. */
static int copyout_head_rows(const stmt_copyout *c) { return c->bHeader ? 1 : 0; }

static int64_t copyout_count(void *p) {
  stmt_copyout *c = p;
  int bDone = copyout_complete(c);   /* first: rows counted after it are all there */
  c->nInner = c->pOps->xRowCount(c->pRes);
  return copyout_head_rows(c) + c->nInner + (c->eFormat == COPYOUT_BINARY && bDone);
}

/* Appends text value z[0..n) escaped as CopyAttributeOutText does. */
static void copyout_text_value(const stmt_copyout *c, const char *z, size_t n, strbuf *out) {
  size_t iStart = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)z[i];
    char cEsc = 0;
    if (ch < 0x20) {
      switch (ch) {
        case '\b': cEsc = 'b'; break;
        case '\f': cEsc = 'f'; break;
        case '\n': cEsc = 'n'; break;
        case '\r': cEsc = 'r'; break;
        case '\t': cEsc = 't'; break;
        case '\v': cEsc = 'v'; break;
        default: if (ch == (unsigned char)c->cDelim) cEsc = (char)ch; break;
      }
    } else if (ch == '\\' || ch == (unsigned char)c->cDelim) {
      cEsc = (char)ch;
    }
    if (cEsc == 0) continue;
    strbuf_append(out, z + iStart, i - iStart);
    strbuf_append(out, "\\", 1);
    strbuf_append(out, &cEsc, 1);
    iStart = i + 1;
  }
  strbuf_append(out, z + iStart, n - iStart);
}

/* Appends CSV value z[0..n) as CopyAttributeOutCSV does (bForce: quote
** it whatever it holds). */
static void copyout_csv_value(const stmt_copyout *c, const char *z, size_t n, int bForce,
                              strbuf *out) {
  int bQuote = bForce || (strlen(c->zNull) == n && memcmp(z, c->zNull, n) == 0);
  if (!bQuote && c->nCol == 1 && n == 2 && z[0] == '\\' && z[1] == '.') bQuote = 1;
  for (size_t i = 0; i < n && !bQuote; i++) {
    bQuote = z[i] == c->cDelim || z[i] == c->cQuote || z[i] == '\n' || z[i] == '\r';
  }
  if (!bQuote) {
    strbuf_append(out, z, n);
    return;
  }
  strbuf_append(out, &c->cQuote, 1);
  for (size_t i = 0; i < n; i++) {
    if (z[i] == c->cQuote || z[i] == c->cEscape) strbuf_append(out, &c->cEscape, 1);
    strbuf_append(out, z + i, 1);
  }
  strbuf_append(out, &c->cQuote, 1);
}

/* Appends the header: the names, or the binary signature. */
static void copyout_header(const stmt_copyout *c, strbuf *out) {
  if (c->eFormat == COPYOUT_BINARY) {
    strbuf_append(out, (const char *)copyout_signature, sizeof(copyout_signature));
    strbuf_append(out, "\0\0\0\0\0\0\0\0", 8);      /* flags, extension length */
    return;
  }
  for (int i = 0; i < c->nCol; i++) {
    if (i > 0) strbuf_append(out, &c->cDelim, 1);
    if (c->eFormat == COPYOUT_CSV) copyout_csv_value(c, c->azName[i], strlen(c->azName[i]), 0, out);
    else copyout_text_value(c, c->azName[i], strlen(c->azName[i]), out);
  }
  strbuf_append(out, "\n", 1);
}

static void copyout_be(strbuf *out, uint32_t v, int nByte) {
  unsigned char a[4];
  for (int i = 0; i < nByte; i++) a[i] = (unsigned char)(v >> (8 * (nByte - 1 - i)));
  strbuf_append(out, (const char *)a, (size_t)nByte);
}

/* Appends query row iRow. Returns 0, or -1 if a value cannot be made. */
static int copyout_row(stmt_copyout *c, int64_t iRow, strbuf *out) {
  if (c->eFormat == COPYOUT_BINARY) copyout_be(out, (uint32_t)c->nCol, 2);
  for (int i = 0; i < c->nCol; i++) {
    int rc;
    strbuf_reset(&c->val);
    if ((rc = c->pOps->xValue(c->pRes, iRow, i, &c->val)) < 0 || strbuf_error(&c->val)) return -1;
    if (c->eFormat == COPYOUT_BINARY) {
      size_t iLen = out->n;
      if (rc == 1) {
        copyout_be(out, 0xFFFFFFFFu, 4);
        continue;
      }
      copyout_be(out, 0, 4);
      if (pgwire_binary_from_text(c->aType[i], strbuf_str(&c->val), c->val.n, out) != 0) return -1;
      if (strbuf_error(out)) return -1;
      for (int k = 0; k < 4; k++) {
        out->z[iLen + k] = (char)((out->n - iLen - 4) >> (8 * (3 - k)));
      }
      continue;
    }
    if (i > 0) strbuf_append(out, &c->cDelim, 1);
    if (rc == 1) strbuf_puts(out, c->zNull);
    else if (c->eFormat == COPYOUT_CSV) copyout_csv_value(c, c->val.z, c->val.n, c->abForce[i], out);
    else copyout_text_value(c, c->val.z, c->val.n, out);
  }
  if (c->eFormat != COPYOUT_BINARY) strbuf_append(out, "\n", 1);
  return 0;
}

static int copyout_value(void *p, int64_t iRow, int iCol, strbuf *out) {
  stmt_copyout *c = p;
  int64_t i = iRow - copyout_head_rows(c);
  if (iCol != 0 || iRow < 0) return -1;
  if (iRow < copyout_head_rows(c)) {
    copyout_header(c, out);
    return 0;
  }
  if (i >= c->nInner) c->nInner = c->pOps->xRowCount(c->pRes);
  if (i < c->nInner) return copyout_row(c, i, out);
  if (c->eFormat != COPYOUT_BINARY) return -1;
  copyout_be(out, 0xFFFF, 2);                         /* the trailer: -1 */
  return 0;
}

static int copyout_status(void *p, pgwire_error *pErr) {
  stmt_copyout *c = p;
  return c->pOps->xStatus != NULL ? c->pOps->xStatus(c->pRes, pErr) : 0;
}

static void copyout_free(void *p) {
  stmt_copyout *c = p;
  if (c == NULL) return;
  if (c->pOps != NULL) c->pOps->xFree(c->pRes);
  for (int i = 0; c->azName != NULL && i < c->nCol; i++) free(c->azName[i]);
  free(c->azName);
  free(c->aType);
  free(c->abForce);
  free(c->zNull);
  strbuf_free(&c->val);
  free(c);
}

/* Records COPY TO's error and returns -1. */
static int copyout_fail(sql_error *pErr, const char *zState, const char *zFmt, ...)
    __attribute__((format(printf, 3, 4)));
static int copyout_fail(sql_error *pErr, const char *zState, const char *zFmt, ...) {
  char zMsg[256];
  va_list ap;
  va_start(ap, zFmt);
  vsnprintf(zMsg, sizeof(zMsg), zFmt, ap);
  va_end(ap);
  sql_error_set(pErr, zState, -1, "%s", zMsg);
  return -1;
}

/* PostgreSQL's defaults, where the statement gives none: text's tab and
** \\N, csv's comma, empty string and '"' (its ESCAPE: its QUOTE). */
#define COPYOUT_DELIM(bCsv) ((bCsv) ? "," : "\t")
#define COPYOUT_NULL(bCsv) ((bCsv) ? "" : "\\N")

int stmt_copyout_check(const sql_copy *pCopy, sql_error *pErr) {
  sql_copy d = *pCopy, *c = &d;   /* the defaults go into the copy, not the tree */
  int bCsv = c->zFormat != NULL && strcmp(c->zFormat, "csv") == 0;
  int bBinary = c->zFormat != NULL && strcmp(c->zFormat, "binary") == 0;
  const char *zBad = "\\.abcdefghijklmnopqrstuvwxyz0123456789";
  if (c->zFormat != NULL && strcmp(c->zFormat, "tbl") == 0) {
    return copyout_fail(pErr, SQLSTATE_INVALID_PARAMETER,
                        "COPY format \"%s\" not recognized", "tbl");
  }
  if (c->zEncoding != NULL && strcasecmp(c->zEncoding, "utf8") != 0 &&
      strcasecmp(c->zEncoding, "utf-8") != 0 && strcasecmp(c->zEncoding, "unicode") != 0) {
    return copyout_fail(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED,
                        "COPY TO with ENCODING \"%s\" is not supported: starq's text is UTF8",
                        c->zEncoding);
  }
  if (bBinary && c->zDelimiter != NULL) {
    return copyout_fail(pErr, SQLSTATE_SYNTAX_ERROR,
                        "cannot specify %s in BINARY mode", "DELIMITER");
  }
  if (bBinary && c->zNull != NULL) {
    return copyout_fail(pErr, SQLSTATE_SYNTAX_ERROR, "cannot specify %s in BINARY mode", "NULL");
  }
  if (!bBinary) {   /* the text formats' characters */
    if (c->zDelimiter == NULL) c->zDelimiter = COPYOUT_DELIM(bCsv);
    if (c->zNull == NULL) c->zNull = COPYOUT_NULL(bCsv);
    if (bCsv && c->zQuote == NULL) c->zQuote = "\"";
    if (bCsv && c->zEscape == NULL) c->zEscape = c->zQuote;
    if (strlen(c->zDelimiter) != 1) {
      return copyout_fail(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED,
                          "COPY delimiter must be a single one-byte character");
    }
    if (strpbrk(c->zDelimiter, "\r\n") != NULL) {
      return copyout_fail(pErr, SQLSTATE_INVALID_PARAMETER,
                          "COPY delimiter cannot be newline or carriage return");
    }
    if (strpbrk(c->zNull, "\r\n") != NULL) {
      return copyout_fail(pErr, SQLSTATE_INVALID_PARAMETER,
                          "COPY null representation cannot use newline or carriage return");
    }
    if (!bCsv && strchr(zBad, c->zDelimiter[0]) != NULL) {
      return copyout_fail(pErr, SQLSTATE_INVALID_PARAMETER, "COPY delimiter cannot be \"%s\"",
                          c->zDelimiter);
    }
  }
  if (bBinary && c->bHeader) {
    return copyout_fail(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED,
                        "cannot specify HEADER in BINARY mode");
  }
  if (!bCsv && c->zQuote != NULL) {
    return copyout_fail(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED,
                        "COPY quote available only in CSV mode");
  }
  if (bCsv && strlen(c->zQuote) != 1) {
    return copyout_fail(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED,
                        "COPY quote must be a single one-byte character");
  }
  if (bCsv && c->zDelimiter[0] == c->zQuote[0]) {
    return copyout_fail(pErr, SQLSTATE_INVALID_PARAMETER,
                        "COPY delimiter and quote must be different");
  }
  if (!bCsv && c->zEscape != NULL) {
    return copyout_fail(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED,
                        "COPY escape available only in CSV mode");
  }
  if (bCsv && strlen(c->zEscape) != 1) {
    return copyout_fail(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED,
                        "COPY escape must be a single one-byte character");
  }
  if (!bCsv && (c->bForceQuoteAll || c->nForceQuote > 0)) {
    return copyout_fail(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED,
                        "COPY force quote available only in CSV mode");
  }
  if (c->nForceNotNull > 0) {
    return copyout_fail(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, "%s",
                        bCsv ? "COPY force not null only available using COPY FROM"
                             : "COPY force not null available only in CSV mode");
  }
  if (c->nForceNull > 0) {
    return copyout_fail(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, "%s",
                        bCsv ? "COPY force null only available using COPY FROM"
                             : "COPY force null available only in CSV mode");
  }
  if (!bBinary && strchr(c->zNull, c->zDelimiter[0]) != NULL) {
    return copyout_fail(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED,
                        "COPY delimiter must not appear in the NULL specification");
  }
  if (bCsv && strchr(c->zNull, c->zQuote[0]) != NULL) {
    return copyout_fail(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED,
                        "CSV quote character must not appear in the NULL specification");
  }
  return 0;
}

static const pg_result_ops stmt_copyout_ops = {copyout_count, copyout_value, copyout_free,
                                               copyout_status};

/* Sets up c's columns: names, types, FORCE_QUOTE. Returns 0, or -1 with
** *pErr. */
static int copyout_columns(stmt_copyout *c, const sql_copy *pCopy, int nCol,
                           const char *const *azName, const coltype *aType, sql_error *pErr) {
  c->nCol = nCol;
  c->azName = calloc((size_t)nCol + 1, sizeof(char *));
  c->aType = calloc((size_t)nCol + 1, sizeof(uint32_t));
  c->abForce = calloc((size_t)nCol + 1, 1);
  if (c->azName == NULL || c->aType == NULL || c->abForce == NULL) goto oom;
  for (int i = 0; i < nCol; i++) {
    pgwire_column col;
    stmt_column_describe(aType[i], azName[i], &col);
    c->aType[i] = col.iTypeOid;
    c->abForce[i] = pCopy->bForceQuoteAll;
    if ((c->azName[i] = strdup(azName[i])) == NULL) goto oom;
    if (c->eFormat == COPYOUT_BINARY && !pgwire_binary_supported(col.iTypeOid)) {
      sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                    "COPY TO in binary format does not support column \"%s\" of type OID %u yet",
                    azName[i], col.iTypeOid);
      return -1;
    }
  }
  for (int k = 0; k < pCopy->nForceQuote; k++) {
    int bFound = 0;
    for (int i = 0; i < nCol; i++) {
      if (strcmp(azName[i], pCopy->azForceQuote[k]) == 0) bFound = c->abForce[i] = 1;
    }
    if (!bFound && pCopy->zTable == NULL) {
      sql_error_set(pErr, SQLSTATE_UNDEFINED_COLUMN, -1, "column \"%s\" does not exist",
                    pCopy->azForceQuote[k]);
      return -1;
    }
    if (!bFound) {   /* a column of t (stmt_copy_to_names_check) not written */
      sql_error_set(pErr, "42P10", -1,
                    "FORCE_QUOTE column \"%s\" not referenced by COPY", pCopy->azForceQuote[k]);
      return -1;
    }
  }
  return 0;
oom:
  sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
  return -1;
}

int stmt_copyout_rows(stmt_job *j, const sql_copy *pCopy, int nCol, const char *const *azName,
                      const coltype *aType, const pg_result_ops *pOps, void *pRes,
                      sql_error *pErr) {
  stmt_copyout *c = calloc(1, sizeof(*c));
  if (c == NULL) {
    pOps->xFree(pRes);
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return -1;
  }
  c->pOps = pOps;
  c->pRes = pRes;
  strbuf_init(&c->val);
  c->eFormat = pCopy->zFormat == NULL || strcmp(pCopy->zFormat, "text") == 0 ? COPYOUT_TEXT
               : strcmp(pCopy->zFormat, "csv") == 0                           ? COPYOUT_CSV
                                                                              : COPYOUT_BINARY;
  c->bHeader = pCopy->bHeader || c->eFormat == COPYOUT_BINARY;
  /* PostgreSQL's defaults, for what the statement does not say (the
  ** parser judged the options with the same). */
  if (c->eFormat != COPYOUT_BINARY) {
    int bCsv = c->eFormat == COPYOUT_CSV;
    c->cDelim = (pCopy->zDelimiter != NULL ? pCopy->zDelimiter : COPYOUT_DELIM(bCsv))[0];
    c->zNull = strdup(pCopy->zNull != NULL ? pCopy->zNull : COPYOUT_NULL(bCsv));
    if (c->zNull == NULL) {
      copyout_free(c);
      sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
      return -1;
    }
  }
  if (c->eFormat == COPYOUT_CSV) {
    c->cQuote = pCopy->zQuote != NULL ? pCopy->zQuote[0] : '"';
    c->cEscape = pCopy->zEscape != NULL ? pCopy->zEscape[0] : c->cQuote;
  }
  if (copyout_columns(c, pCopy, nCol, azName, aType, pErr) != 0) {
    copyout_free(c);
    return -1;
  }
  snprintf(j->zTag, sizeof(j->zTag), "COPY");
  memset(&j->out, 0, sizeof(j->out));
  j->out.eKind = PG_OUTCOME_COPY_OUT;
  j->out.zTag = j->zTag;
  j->out.nCopyCol = nCol;
  j->out.bCopyBinary = c->eFormat == COPYOUT_BINARY;
  j->out.nCopyExtra = copyout_head_rows(c) + (c->eFormat == COPYOUT_BINARY);
  j->out.pOps = &stmt_copyout_ops;
  j->out.pRes = c;
  return 0;
}
