/*
** tests/pgref-load.c — starq's tables into the fixture's PostgreSQL
** (pgref.h): CREATE TABLE from a catalog definition, dbgen files through
** COPY, the keys, and the whole SSB schema.
**
** INTERFACE ROUTINES
**   pgref_table_create, pgref_copy_tbl, pgref_catalog_create, pgref_load_ssb
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/fsdir.h"
#include "../common/strbuf.h"
#include "../ssb-data/schema.h"
#include "pgref.h"
#include "pgrefInt.h"

/* ---- tables and data --------------------------------------------------- */

/* Appends identifier z double-quoted (PostgreSQL folds unquoted names to
** lower case; starq's names compare case-insensitively and are stored as
** written, so quote only what is not already lower case). */
static void pgref_ident(strbuf *s, const char *z) {
  int bPlain = (z[0] >= 'a' && z[0] <= 'z') || z[0] == '_';
  for (const char *q = z; *q && bPlain; q++) {
    bPlain = (*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_';
  }
  if (bPlain) {
    strbuf_puts(s, z);
    return;
  }
  strbuf_puts(s, "\"");
  for (const char *q = z; *q; q++) {
    if (*q == '"') strbuf_puts(s, "\"");
    strbuf_append(s, q, 1);
  }
  strbuf_puts(s, "\"");
}

int pgref_table_create(pgref *p, const cat_table *t, char *zErr, size_t nErr) {
  strbuf s;
  int rc;
  strbuf_init(&s);
  strbuf_puts(&s, "CREATE TABLE ");
  pgref_ident(&s, t->zName);
  strbuf_puts(&s, " (");
  for (int i = 0; i < t->nCol; i++) {
    char zType[64];
    if (i) strbuf_puts(&s, ", ");
    pgref_ident(&s, t->aCol[i].zName);
    strbuf_printf(&s, " %s%s", coltype_format(t->aCol[i].type, zType, sizeof(zType)),
                  t->aCol[i].bNotNull ? " NOT NULL" : "");
  }
  strbuf_puts(&s, ")");
  if (strbuf_error(&s)) {
    pgref_err(zErr, nErr, "out of memory");
    strbuf_free(&s);
    return -1;
  }
  rc = pgref_exec(p, strbuf_str(&s), zErr, nErr);
  strbuf_free(&s);
  return rc;
}

/* Sends a[0..n) of a .tbl file as COPY data, each line's last '|' (the
** field terminator dbgen writes after the last field) dropped. a ends at
** a line's end. Returns 0 or -1. */
static int pgref_copy_lines(PGconn *c, const char *a, size_t n, strbuf *pOut) {
  size_t i = 0;
  strbuf_reset(pOut);
  while (i < n) {
    const char *zEol = memchr(a + i, '\n', n - i);
    size_t nLine = (size_t)(zEol - (a + i));
    size_t nKeep = nLine > 0 && a[i + nLine - 1] == '|' ? nLine - 1 : nLine;
    strbuf_append(pOut, a + i, nKeep);
    strbuf_append(pOut, "\n", 1);
    i += nLine + 1;
  }
  if (strbuf_error(pOut)) return -1;
  return PQputCopyData(c, pOut->z, (int)pOut->n) == 1 ? 0 : -1;
}

int pgref_copy_tbl(pgref *p, const char *zTable, const char *zPath, char *zErr, size_t nErr) {
  enum { CHUNK = 1 << 20 };
  strbuf q, out;
  PGresult *res;
  char *aBuf = NULL;
  size_t nHave = 0;
  int fd = open(zPath, O_RDONLY | O_CLOEXEC), rc = -1, bSent = 0;
  if (fd < 0) {
    pgref_err(zErr, nErr, "open %s: %s", zPath, strerror(errno));
    return -1;
  }
  strbuf_init(&q);
  strbuf_init(&out);
  /* CSV: no backslash escapes (a .tbl has none); the quote is a byte
  ** dbgen never writes, so every byte is data. Unquoted empty is NULL. */
  strbuf_puts(&q, "COPY ");
  pgref_ident(&q, zTable);
  strbuf_puts(&q, " FROM STDIN (FORMAT csv, DELIMITER '|', QUOTE E'\\x01')");
  res = PQexec(p->pConn, strbuf_str(&q));
  if (PQresultStatus(res) != PGRES_COPY_IN) {
    pgref_err_result(zErr, nErr, res, p->pConn);
    PQclear(res);
    goto out_close;
  }
  PQclear(res);
  aBuf = malloc(CHUNK + 1);      /* + 1: a newline after an unended last line */
  if (aBuf == NULL) goto out_end;
  for (;;) {
    ssize_t k;
    size_t nLines;
    if (nHave == CHUNK) {
      pgref_err(zErr, nErr, "%s: a line longer than %d bytes", zPath, (int)CHUNK);
      goto out_end;
    }
    k = read(fd, aBuf + nHave, CHUNK - nHave);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      pgref_err(zErr, nErr, "read %s: %s", zPath, strerror(errno));
      goto out_end;
    }
    nHave += (size_t)k;
    if (k == 0 && nHave > 0 && aBuf[nHave - 1] != '\n') aBuf[nHave++] = '\n'; /* last line */
    if (k == 0 && nHave == 0) break;
    /* Send whole lines; keep a partial last one for the next read. */
    for (nLines = nHave; nLines > 0 && aBuf[nLines - 1] != '\n'; nLines--) {
    }
    if (nLines > 0 && pgref_copy_lines(p->pConn, aBuf, nLines, &out) != 0) {
      pgref_err(zErr, nErr, "COPY %s: %s", zTable, PQerrorMessage(p->pConn));
      goto out_end;
    }
    memmove(aBuf, aBuf + nLines, nHave - nLines);
    nHave -= nLines;
  }
  bSent = 1;
out_end:
  PQputCopyEnd(p->pConn, bSent ? NULL : "pgref: the file could not be sent");
  res = PQgetResult(p->pConn);
  if (PQresultStatus(res) == PGRES_COMMAND_OK && bSent) {
    rc = 0;
  } else if (bSent) {
    pgref_err_result(zErr, nErr, res, p->pConn);
  }
  PQclear(res);
  while ((res = PQgetResult(p->pConn)) != NULL) PQclear(res);
out_close:
  free(aBuf);
  strbuf_free(&q);
  strbuf_free(&out);
  close(fd);
  return rc;
}

/* Appends "(a, b)" of columns aiCol[0..n) of t. */
static void pgref_cols(const cat_table *t, const int *aiCol, int n, strbuf *s) {
  strbuf_puts(s, "(");
  for (int i = 0; i < n; i++) strbuf_printf(s, "%s%s", i > 0 ? ", " : "", t->aCol[aiCol[i]].zName);
  strbuf_puts(s, ")");
}

/* Adds key k of table t: its primary key (k -1) or foreign key k. */
static int pgref_key_add(pgref *p, const cat_table *t, int k, char *zErr, size_t nErr) {
  strbuf s;
  int rc;
  strbuf_init(&s);
  strbuf_printf(&s, "ALTER TABLE %s ADD %s KEY ", t->zName, k < 0 ? "PRIMARY" : "FOREIGN");
  if (k < 0) {
    pgref_cols(t, t->aiPkey, t->nPkey, &s);
  } else {
    const cat_fkey *f = &t->aFkey[k];
    pgref_cols(t, f->aiCol, f->nCol, &s);
    strbuf_printf(&s, " REFERENCES %s (", f->zRefTable);
    for (int c = 0; c < f->nCol; c++) strbuf_printf(&s, "%s%s", c ? ", " : "", f->azRefCol[c]);
    strbuf_puts(&s, ")");
  }
  rc = pgref_exec(p, strbuf_str(&s), zErr, nErr);
  strbuf_free(&s);
  return rc;
}

int pgref_catalog_create(pgref *p, cat *pCat, char *zErr, size_t nErr) {
  char **az = NULL;
  int n = 0, rc = 0;
  cat_table **ap;
  if (cat_table_names(pCat, &az, &n, zErr, nErr) != 0) return -1;
  ap = calloc((size_t)n + 1, sizeof(*ap));
  if (ap == NULL) rc = -1, snprintf(zErr, nErr, "out of memory");
  for (int i = 0; rc == 0 && i < n; i++) {
    rc = cat_table_get(pCat, az[i], &ap[i], zErr, nErr);
    if (rc == 0) rc = pgref_table_create(p, ap[i], zErr, nErr);
  }
  for (int i = 0; rc == 0 && i < n; i++) {
    if (ap[i]->nPkey > 0) rc = pgref_key_add(p, ap[i], -1, zErr, nErr);
  }
  for (int i = 0; rc == 0 && i < n; i++) {
    for (int k = 0; rc == 0 && k < ap[i]->nFkey; k++) rc = pgref_key_add(p, ap[i], k, zErr, nErr);
  }
  for (int i = 0; i < n; i++) {
    if (ap != NULL && ap[i] != NULL) cat_table_free(ap[i]);
    free(az[i]);
  }
  free(ap);
  free(az);
  return rc;
}

int pgref_load_ssb(pgref *p, const char *zTblDir, char *zErr, size_t nErr) {
  static const char *const azTable[] = {"date", "supplier", "customer", "part", "lineorder"};
  char zCat[PATH_MAX + 16];
  cat *pCat = NULL;
  int rc = -1;
  /* The definitions come from the generator's schema, through a catalog
  ** of our own, so both engines see the same names and types. */
  snprintf(zCat, sizeof(zCat), "%s/ssb-schema", p->zDir);
  if (cat_open(&pCat, zCat, zErr, nErr) != 0) return -1;
  if (ssb_schema_create(pCat, zErr, nErr) != 0) goto out_close;
  /* One transaction: with wal_level=minimal, COPY into a table created
  ** in it writes no WAL. */
  if (pgref_exec(p, "BEGIN", zErr, nErr) != 0) goto out_close;
  for (size_t i = 0; i < sizeof(azTable) / sizeof(azTable[0]); i++) {
    cat_table *t = NULL;
    char zPath[PATH_MAX + 32];
    int rcTable;
    if (cat_table_get(pCat, azTable[i], &t, zErr, nErr) != 0) goto out_rollback;
    snprintf(zPath, sizeof(zPath), "%s/%s.tbl", zTblDir, azTable[i]);
    rcTable = pgref_table_create(p, t, zErr, nErr);
    if (rcTable == 0) rcTable = pgref_copy_tbl(p, azTable[i], zPath, zErr, nErr);
    cat_table_free(t);
    if (rcTable != 0) goto out_rollback;
  }
  if (pgref_exec(p, "COMMIT", zErr, nErr) != 0) goto out_close;
  rc = pgref_exec(p, "ANALYZE", zErr, nErr);
  goto out_close;
out_rollback:
  {
    char zIgnore[128];
    pgref_exec(p, "ROLLBACK", zIgnore, sizeof(zIgnore));
  }
out_close:
  cat_close(pCat);
  fsdir_remove(zCat);
  return rc;
}
