/*
** server/stmt-copy.c — COPY t FROM STDIN: the data a client sends (psql's
** \copy) spooled into a file beside the data directory's catalog, then
** loaded by the loader (loader/load.h) in one atomic load that appends to
** the table when the client says it is done.
**
** Formats: text (PostgreSQL's default: tab-separated, \N for NULL,
** backslash escapes), converted line by line into CSV as it arrives;
** csv and tbl, spooled as they come. In every format a line "\." ends the
** data (psql sends it inside the CopyData), and what follows is ignored.
**
** COPY t FROM 'file' loads a file below --import-dir (bind_copy checks
** the path and the options), appending as COPY does.
**
** COPY t (a, b) FROM: the data's fields are those columns in that order,
** the others NULL (load_text_opts.aiField; starq has no column defaults).
**
** Spool files (DATA/.copy-*) are flock()ed while they live and removed
** when the copy ends, fails or is abandoned; those a killed server left
** are removed at the next start (stmt_copy_sweep). A full disk is 53100,
** a line that is not UTF-8 22021 with its line number.
**
** The copy's state (stmt_copy) belongs to the connection between jobs
** and to the job while one runs (conn.c hands it over both ways), so an
** abandoned job frees it.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <strings.h>

#include "../common/value.h"
#include "../loader/load.h"
#include "../planner/bind.h"
#include "stmt.h"

typedef enum copy_format { COPY_TEXT = 1, COPY_CSV, COPY_TBL, COPY_BINARY } copy_format;

struct stmt_copy {
  char zTable[256];
  int nField;              /* COPY t (a, b): the columns the data gives ... */
  int *aiField;            /* ... in its order (load_text_opts); owned */
  char zPath[PATH_MAX];    /* the spool file; removed when the copy ends */
  FILE *f;
  copy_format eFormat;
  char cDelim;             /* text and csv: the field delimiter */
  int bHeader;             /* csv */
  char zNull[64];          /* text: the NULL marker ("\N"); csv: as given */
  int bNull;               /* csv: zNull was given */
  strbuf partial;          /* a line not yet complete */
  strbuf out;              /* one converted line */
  int bEnded;              /* "\." was seen */
  copybin *pBin;           /* COPY_BINARY: the rows' reader; owned */
  char zBinState[6];       /* the binary data's error, when copy_feed says -2 */
  char zBinErr[256];
  int64_t nLine;           /* lines of data taken so far */
  char zBad[160];          /* a line that is not UTF-8: why, for 22021 */
};

void stmt_copy_free(stmt_copy *c) {
  if (c == NULL) return;
  if (c->f != NULL) fclose(c->f);
  if (c->zPath[0]) unlink(c->zPath);
  strbuf_free(&c->partial);
  strbuf_free(&c->out);
  free(c->aiField);
  copybin_free(c->pBin);
  free(c);
}

/* Resolves COPY t (a, b)'s columns against table t into *paiField (NULL
** with none: every column in order), as PostgreSQL's CopyGetAttnums:
** 42703 for a column t lacks, 42701 for one named twice; the tbl format
** has no column list. Returns 0, or -1 with the job's error. */
static int copy_fields(stmt_job *j, const sql_copy *pCopy, const cat_table *t, int bTbl,
                       int **paiField) {
  *paiField = NULL;
  if (pCopy->nCol == 0) return 0;
  if (bTbl) {
    stmt_job_error(j, SQLSTATE_FEATURE_NOT_SUPPORTED, pCopy->iColOffset,
                   "COPY FROM in format tbl takes every column: no column list");
    return -1;
  }
  if ((*paiField = calloc((size_t)pCopy->nCol, sizeof(int))) == NULL) {
    stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return -1;
  }
  for (int k = 0; k < pCopy->nCol; k++) {
    int iCol = -1;
    for (int i = 0; i < t->nCol; i++) {
      if (strcmp(t->aCol[i].zName, pCopy->azCol[k]) == 0) iCol = i;
    }
    if (iCol < 0) {
      stmt_job_error(j, SQLSTATE_UNDEFINED_COLUMN, pCopy->iColOffset,
                     "column \"%s\" of relation \"%s\" does not exist", pCopy->azCol[k], t->zName);
      goto fail;
    }
    for (int i = 0; i < k; i++) {
      if ((*paiField)[i] == iCol) {
        stmt_job_error(j, SQLSTATE_DUPLICATE_COLUMN, pCopy->iColOffset,
                       "column \"%s\" specified more than once", pCopy->azCol[k]);
        goto fail;
      }
    }
    (*paiField)[k] = iCol;
  }
  return 0;
fail:
  free(*paiField);
  *paiField = NULL;
  return -1;
}

/* Appends the CSV form of field z[0..n) in text format to s. */
static void copy_text_field(stmt_copy *c, const char *z, size_t n, strbuf *s) {
  if (n == strlen(c->zNull) && memcmp(z, c->zNull, n) == 0) return;   /* NULL: empty, unquoted */
  strbuf_puts(s, "\"");
  for (size_t i = 0; i < n; i++) {
    char ch = z[i];
    if (ch == '\\' && i + 1 < n) {
      ch = z[++i];
      switch (ch) {
        case 'b': ch = '\b'; break;
        case 'f': ch = '\f'; break;
        case 'n': ch = '\n'; break;
        case 'r': ch = '\r'; break;
        case 't': ch = '\t'; break;
        case 'v': ch = '\v'; break;
        default: break;   /* \\ and any other character stand for themselves */
      }
    }
    if (ch == '"') strbuf_puts(s, "\"");
    strbuf_append(s, &ch, 1);
  }
  strbuf_puts(s, "\"");
}

/* Writes one complete line z[0..n) (no newline) to the spool file.
** Returns 0, or -1 (errno set, or zBad when the line is not UTF-8). */
static int copy_line(stmt_copy *c, const char *z, size_t n) {
  c->nLine++;
  if (value_utf8_invalid(z, n, c->zBad, sizeof(c->zBad)) != n) return -1;
  if (n > 0 && z[n - 1] == '\r') n--;
  if (n == 2 && z[0] == '\\' && z[1] == '.') {
    c->bEnded = 1;
    return 0;
  }
  if (c->eFormat == COPY_TEXT) {
    size_t iStart = 0;
    strbuf_reset(&c->out);
    for (size_t i = 0; i <= n; i++) {
      if (i < n && z[i] == '\\') {
        i++;   /* an escaped delimiter does not split */
        continue;
      }
      if (i == n || z[i] == c->cDelim) {
        if (iStart > 0) strbuf_puts(&c->out, ",");
        copy_text_field(c, z + iStart, i - iStart, &c->out);
        iStart = i + 1;
      }
    }
    strbuf_puts(&c->out, "\n");
    if (strbuf_error(&c->out)) return -1;
    return fwrite(c->out.z, 1, c->out.n, c->f) == c->out.n ? 0 : -1;
  }
  if (fwrite(z, 1, n, c->f) != n || fputc('\n', c->f) == EOF) return -1;
  return 0;
}

/* Feeds a[0..n) of CopyData: whole lines (binary: rows) go out, the rest
** waits. Returns 0, -1 (the spool's errno, or zBad), or -2 for bad
** binary data (zBinState, zBinErr). */
static int copy_feed(stmt_copy *c, const char *a, size_t n) {
  size_t i = 0;
  if (c->pBin != NULL) {
    strbuf_reset(&c->out);
    if (copybin_feed(c->pBin, a, n, &c->out, c->zBinState, c->zBinErr, sizeof(c->zBinErr)) !=
        0) {
      return -2;
    }
    if (strbuf_error(&c->out)) return -1;
    if (c->out.n == 0) return 0;                 /* no row complete yet */
    return fwrite(c->out.z, 1, c->out.n, c->f) == c->out.n ? 0 : -1;
  }
  while (i < n && !c->bEnded) {
    const char *zNl = memchr(a + i, '\n', n - i);
    size_t nPart = zNl != NULL ? (size_t)(zNl - (a + i)) : n - i;
    strbuf_append(&c->partial, a + i, nPart);
    if (strbuf_error(&c->partial)) return -1;
    i += nPart;
    if (zNl == NULL) break;
    i++;
    if (copy_line(c, c->partial.z != NULL ? c->partial.z : "", c->partial.n) != 0) return -1;
    strbuf_reset(&c->partial);
  }
  return 0;
}

/* Loads zPath into zTable, appending, and gives the job "COPY n" or the
** loader's error (the file's name and line in it). */
static void copy_load(stmt_job *j, cat *pCat, const char *zTable, const char *zPath,
                      const load_options *pOpt, const char *zShown) {
  load_report rep;
  char zErr[1024];
  size_t nPath = strlen(zPath);
  if (load_file(pCat, zTable, zPath, pOpt, &rep, zErr, sizeof(zErr)) != 0) {
    /* The loader's errors are text; a full disk is told by its errno's. */
    if (strstr(zErr, strerror(ENOSPC)) != NULL || strstr(zErr, strerror(EDQUOT)) != NULL) {
      stmt_job_error(j, SQLSTATE_DISK_FULL, -1, "%s: could not extend the table: %s", zShown,
                     zErr);
      return;
    }
    /* "FILE:LINE: column ..." names the spool file: say "COPY t, line". */
    if (strncmp(zErr, zPath, nPath) == 0 && zErr[nPath] == ':') {
      stmt_job_error(j, SQLSTATE_INVALID_TEXT_REP, -1, "%s, line %s", zShown, zErr + nPath + 1);
    } else {
      stmt_job_error(j, SQLSTATE_INVALID_TEXT_REP, -1, "%s: %s", zShown, zErr);
    }
    return;
  }
  snprintf(j->zTag, sizeof(j->zTag), "COPY %lld", (long long)rep.nRowLoaded);
  j->out.eKind = PG_OUTCOME_COMMAND;
  j->out.zTag = j->zTag;
}

void stmt_copy_file(stmt_job *j, cat *pCat, const sql_copy *pCopy) {
  char zPath[PATH_MAX], zShown[300];
  const char *zDot;
  load_options o;
  sql_error e;
  int bCsv, rc, *aiField = NULL;
  if (pCopy->zFormat != NULL && strcmp(pCopy->zFormat, "binary") == 0) {
    stmt_job_error(j, SQLSTATE_FEATURE_NOT_SUPPORTED, pCopy->iPathOffset,
                   "COPY FROM a server file in binary format is not supported: send it (FROM STDIN)");
    return;
  }
  if (j->pCtx->zImportDir == NULL) {
    stmt_job_error(j, SQLSTATE_FEATURE_NOT_SUPPORTED, pCopy->iPathOffset,
                     "COPY from a server file needs starqd --import-dir; psql's \\copy sends "
                     "the file instead (COPY FROM STDIN)");
    return;
  }
  sql_error_clear(&e);
  if (bind_copy(pCat, pCopy, j->pCtx->zImportDir, zPath, &e) != 0) {
    stmt_job_error(j, e.zState, e.iOffset, "%s", e.zMsg);
    return;
  }
  zDot = strrchr(pCopy->zPath, '.');
  bCsv = pCopy->zFormat != NULL ? strcmp(pCopy->zFormat, "csv") == 0
                                : zDot != NULL && strcasecmp(zDot, ".csv") == 0;
  load_options_default(&o, bCsv ? LOAD_CSV : LOAD_TBL);
  o.bAppend = 1;
  o.bQuiet = 1;
  o.nThread = 2;
  if (pCopy->zDelimiter != NULL) o.text.cDelim = pCopy->zDelimiter[0];
  o.text.bHeader = pCopy->bHeader;
  if (pCopy->zNull != NULL) o.text.zNull = pCopy->zNull;
  if (pCopy->nCol > 0) {
    cat_table *t;
    char zErr[512];
    if (cat_table_get(pCat, pCopy->zTable, &t, zErr, sizeof(zErr)) != 0) {
      stmt_job_error(j, SQLSTATE_UNDEFINED_TABLE, pCopy->iOffset, "relation \"%s\" does not exist",
                     pCopy->zTable);
      return;
    }
    rc = copy_fields(j, pCopy, t, !bCsv, &aiField);
    cat_table_free(t);
    if (rc != 0) return;
    o.text.nField = pCopy->nCol;
    o.text.aiField = aiField;
  }
  snprintf(zShown, sizeof(zShown), "COPY %s", pCopy->zTable);
  copy_load(j, pCat, pCopy->zTable, zPath, &o, zShown);
  free(aiField);
}

/* Sets up the binary reader of COPY pCopy into t: each field's type
** (the column list's, or every column's). Returns 0, or -1 with the job's
** error (a type with no binary form here: 0A000). */
static int copy_binary_begin(stmt_job *j, stmt_copy *c, const sql_copy *pCopy,
                             const cat_table *t) {
  int nField = pCopy->nCol > 0 ? pCopy->nCol : t->nCol;
  uint32_t *aType = calloc((size_t)nField + 1, sizeof(uint32_t));
  if (aType == NULL) {
    stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return -1;
  }
  for (int k = 0; k < nField; k++) {
    const cat_column *col = &t->aCol[c->aiField != NULL ? c->aiField[k] : k];
    pgwire_column d;
    stmt_column_describe(col->type, col->zName, &d);
    if (!pgwire_binary_supported(d.iTypeOid)) {
      stmt_job_error(j, SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                     "COPY FROM in binary format does not support column \"%s\" of type OID %u yet",
                     col->zName, d.iTypeOid);
      free(aType);
      return -1;
    }
    aType[k] = d.iTypeOid;
  }
  c->pBin = copybin_new(nField, aType);
  free(aType);
  if (c->pBin == NULL) {
    stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return -1;
  }
  return 0;
}

void stmt_copy_begin(stmt_job *j, cat *pCat, const sql_copy *pCopy) {
  stmt_copy *c;
  cat_table *t;
  char zErr[512];
  int fd;
  if (cat_table_get(pCat, pCopy->zTable, &t, zErr, sizeof(zErr)) != 0) {
    stmt_job_error(j, SQLSTATE_UNDEFINED_TABLE, pCopy->iOffset, "relation \"%s\" does not exist",
                     pCopy->zTable);
    return;
  }
  c = calloc(1, sizeof(*c));
  if (c == NULL) {
    cat_table_free(t);
    stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return;
  }
  strbuf_init(&c->partial);
  strbuf_init(&c->out);
  snprintf(c->zTable, sizeof(c->zTable), "%s", t->zName);
  j->out.nCopyCol = pCopy->nCol > 0 ? pCopy->nCol : t->nCol;
  c->eFormat = COPY_TEXT;
  if (pCopy->zFormat != NULL && strcmp(pCopy->zFormat, "csv") == 0) c->eFormat = COPY_CSV;
  if (pCopy->zFormat != NULL && strcmp(pCopy->zFormat, "tbl") == 0) c->eFormat = COPY_TBL;
  if (pCopy->zFormat != NULL && strcmp(pCopy->zFormat, "binary") == 0) c->eFormat = COPY_BINARY;
  if (copy_fields(j, pCopy, t, c->eFormat == COPY_TBL, &c->aiField) != 0 ||
      (c->eFormat == COPY_BINARY && copy_binary_begin(j, c, pCopy, t) != 0)) {
    cat_table_free(t);
    stmt_copy_free(c);
    return;
  }
  c->nField = pCopy->nCol;
  cat_table_free(t);
  c->cDelim = pCopy->zDelimiter != NULL ? pCopy->zDelimiter[0] : c->eFormat == COPY_CSV ? ',' : '\t';
  c->bHeader = pCopy->bHeader;
  c->bNull = pCopy->zNull != NULL;
  snprintf(c->zNull, sizeof(c->zNull), "%s", pCopy->zNull != NULL ? pCopy->zNull : "\\N");
  snprintf(c->zPath, sizeof(c->zPath), "%s/" STMT_COPY_SPOOL_PREFIX "XXXXXX", cat_data_dir(pCat));
  fd = mkstemp(c->zPath);
  /* Locked while it lives: a sweep at start removes only unlocked ones. */
  if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0) {
    close(fd);
    unlink(c->zPath);
    fd = -1;
  }
  if (fd < 0 || (c->f = fdopen(fd, "w")) == NULL) {
    stmt_job_error(j, SQLSTATE_IO_ERROR, -1, "cannot make a spool file for COPY: %s", strerror(errno));
    if (fd >= 0) close(fd);
    if (fd < 0) c->zPath[0] = 0;
    stmt_copy_free(c);
    return;
  }
  j->pCopy = c;
  j->out.eKind = PG_OUTCOME_COPY_IN;
  j->out.bCopyBinary = c->eFormat == COPY_BINARY;
}

/* Fails the job for a spool that could not take c's data: 22021 for a
** line that is not UTF-8 (with its number), 53100 for a full disk, 58030
** for another error (errno's). */
static void stmt_copy_spool_error(stmt_job *j, const stmt_copy *c) {
  if (c->zBad[0] != 0) {
    stmt_job_error(j, "22021", -1, "%s (COPY %s, line %lld)", c->zBad, c->zTable,
                   (long long)c->nLine);
  } else if (errno == ENOSPC || errno == EDQUOT) {
    stmt_job_error(j, SQLSTATE_DISK_FULL, -1, "could not write to file \"%s\": %s", c->zPath,
                   strerror(errno));
  } else {
    stmt_job_error(j, SQLSTATE_IO_ERROR, -1, "cannot spool COPY data: %s", strerror(errno));
  }
}

void stmt_copy_data(stmt_job *j) {
  int rc;
  if (j->pCopy == NULL) {
    stmt_job_error(j, "08P01", -1, "no COPY in progress");
    return;
  }
  if ((rc = copy_feed(j->pCopy, j->pData, j->nData)) != 0) {
    if (rc == -2) {
      stmt_job_error(j, j->pCopy->zBinState, -1, "%s", j->pCopy->zBinErr);
    } else {
      stmt_copy_spool_error(j, j->pCopy);
    }
    stmt_copy_free(j->pCopy);
    j->pCopy = NULL;
    return;
  }
  j->out.eKind = PG_OUTCOME_COMMAND;
  j->out.zTag = "COPY";
}

void stmt_copy_done(stmt_job *j, cat *pCat) {
  stmt_copy *c = j->pCopy;
  load_options o;
  char zShown[300];
  if (c == NULL) {
    stmt_job_error(j, "08P01", -1, "no COPY in progress");
    return;
  }
  j->pCopy = NULL;
  if (c->pBin != NULL && copybin_end(c->pBin, c->zBinErr, sizeof(c->zBinErr)) != 0) {
    stmt_job_error(j, "22P04", -1, "%s", c->zBinErr);
    stmt_copy_free(c);
    return;
  }
  if (c->pBin == NULL && !c->bEnded && c->partial.n > 0 &&
      copy_line(c, c->partial.z, c->partial.n) != 0) {
    goto io_error;
  }
  if (fclose(c->f) != 0) {
    c->f = NULL;
    goto io_error;
  }
  c->f = NULL;
  load_options_default(&o, c->eFormat == COPY_TBL ? LOAD_TBL : LOAD_CSV);
  o.bAppend = 1;
  o.bQuiet = 1;
  o.nThread = 2;
  if (c->eFormat == COPY_CSV) {
    o.text.cDelim = c->cDelim;
    o.text.bHeader = c->bHeader;
    if (c->bNull) o.text.zNull = c->zNull;
  }
  o.text.nField = c->nField;
  o.text.aiField = c->aiField;
  snprintf(zShown, sizeof(zShown), "COPY %s", c->zTable);
  copy_load(j, pCat, c->zTable, c->zPath, &o, zShown);
  stmt_copy_free(c);
  return;
io_error:
  stmt_copy_spool_error(j, c);
  stmt_copy_free(c);
}

int stmt_copy_sweep(const char *zDataDir) {
  size_t nPrefix = strlen(STMT_COPY_SPOOL_PREFIX);
  DIR *d = opendir(zDataDir);
  struct dirent *e;
  int n = 0;
  if (d == NULL) return 0;
  while ((e = readdir(d)) != NULL) {
    char zPath[PATH_MAX];
    int fd;
    if (strncmp(e->d_name, STMT_COPY_SPOOL_PREFIX, nPrefix) != 0) continue;
    snprintf(zPath, sizeof(zPath), "%s/%s", zDataDir, e->d_name);
    if ((fd = open(zPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0) continue;
    /* Locked: a COPY of another process on this directory is spooling. */
    if (flock(fd, LOCK_EX | LOCK_NB) == 0 && unlink(zPath) == 0) n++;
    close(fd);
  }
  closedir(d);
  return n;
}
