/*
** tests/refdb.c — the reference engine's database: a SQLite copy of every
** table of a data directory, and running queries on it.
**
** The copy reads the catalog for the tables and their types and the
** column files for the values, the same files starq's executor reads, and
** writes one SQLite row per stored row through one prepared INSERT per
** table, all in one transaction. How each type becomes a SQLite value is
** in refdb.h; this file holds the how, not the why. The database is in
** memory: at SF 0.2 that is ~200 MB, and a temporary file measured no
** faster (tests/README.md has the figures).
**
** Queries arrive in starq's dialect, go through refdb_sql_translate()
** (refdb-sql.c), and their rows come back as a refdb_result
** (refdb-result.c) in canonical text.
**
** INTERFACE ROUTINES
**   refdb_open, refdb_close, refdb_sqlite, refdb_query
*/
#define _GNU_SOURCE
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../catalog/catalog.h"
#include "../storage/store.h"
#include "refdb.h"

struct refdb {
  sqlite3 *db;             /* the copy; owned */
};

/* Set up for a bulk load into a private database: no journal, no syncs;
** LIKE case-sensitive as in PostgreSQL. */
static const char refdb_zPragmas[] =
    "PRAGMA journal_mode = OFF;"
    "PRAGMA synchronous = OFF;"
    "PRAGMA temp_store = MEMORY;"
    "PRAGMA case_sensitive_like = ON;";

/* Writes "CALL: sqlite message" into zErr. Returns -1. */
static int refdb_sqlite_err(sqlite3 *db, const char *zCall, char *zErr, size_t nErr) {
  snprintf(zErr, nErr, "%s: %s", zCall, sqlite3_errmsg(db));
  return -1;
}

/* Runs zSql (no rows expected), then frees it with sqlite3_free: callers
** pass sqlite3_mprintf() results straight in. NULL means memory ran out. */
static int refdb_exec(sqlite3 *db, char *zSql, char *zErr, size_t nErr) {
  char *zMsg = NULL;
  int rc;
  if (zSql == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  rc = sqlite3_exec(db, zSql, NULL, NULL, &zMsg);
  if (rc != SQLITE_OK) snprintf(zErr, nErr, "%s: %s", zSql, zMsg ? zMsg : sqlite3_errstr(rc));
  sqlite3_free(zMsg);
  sqlite3_free(zSql);
  return rc == SQLITE_OK ? 0 : -1;
}

/* ---- one column's files ----------------------------------------------------- */

/* The mapped files of one stored column, and what binding a value needs. */
typedef struct refdb_col refdb_col;
struct refdb_col {
  const cat_column *pCol;  /* the catalog's column; owned by the cat_table */
  store_map mValue;        /* values; mapped when bValue */
  store_map mValid;        /* validity bits; mapped when bValid */
  store_dict d;            /* dictionary; mapped when bDict */
  int bValue, bValid, bDict;
  double rScale;           /* DECIMAL: 10^scale */
  char zDate[32];          /* DATE: the text bound for the current row */
};

static void refdb_col_close(refdb_col *c) {
  if (c->bValue) store_map_close(&c->mValue);
  if (c->bValid) store_map_close(&c->mValid);
  if (c->bDict) store_dict_close(&c->d);
  c->bValue = c->bValid = c->bDict = 0;
}

/* Writes into zPath the path of the file of kind eKind of column iCol of
** t's current generation. Returns 0, or -1 with zErr set. */
static int refdb_col_path(cat *pCat, const cat_table *t, int iCol, store_kind eKind,
                          char *zPath, size_t nPath, char *zErr, size_t nErr) {
  if (cat_file_path(pCat, t, t->iGen, iCol, eKind, zPath, nPath) != NULL) return 0;
  snprintf(zErr, nErr, "table \"%s\": the path of a column file is too long", t->zName);
  return -1;
}

/* Maps column iCol of t's current generation: values, the validity bits
** of a nullable column, the dictionary of a string column. Each must hold
** t->nRow rows. Returns 0, or -1 with zErr set. */
static int refdb_col_open(cat *pCat, const cat_table *t, int iCol, refdb_col *c, char *zErr,
                          size_t nErr) {
  char zPath[4096];
  const cat_column *pCol = &t->aCol[iCol];
  uint64_t nRow;
  memset(c, 0, sizeof(*c));
  c->pCol = pCol;
  c->rScale = 1.0;
  for (int i = 0; pCol->type.eId == COLTYPE_DECIMAL && i < pCol->type.nScale; i++) c->rScale *= 10.0;

  if (refdb_col_path(pCat, t, iCol, STORE_VALUES, zPath, sizeof(zPath), zErr, nErr) != 0 ||
      store_map_open(&c->mValue, zPath, STORE_VALUES, pCol->type.eId, zErr, nErr) != 0 ||
      store_map_decode(&c->mValue, zErr, nErr) != 0) {   /* FOR-bitpacked: plain values */
    goto out_fail;
  }
  c->bValue = 1;
  if ((nRow = c->mValue.nRow) != (uint64_t)t->nRow) goto out_rows;
  if (!pCol->bNotNull) {
    if (refdb_col_path(pCat, t, iCol, STORE_VALIDITY, zPath, sizeof(zPath), zErr, nErr) != 0 ||
        store_map_open(&c->mValid, zPath, STORE_VALIDITY, 0, zErr, nErr) != 0) {
      goto out_fail;
    }
    c->bValid = 1;
    if ((nRow = c->mValid.nRow) != (uint64_t)t->nRow) goto out_rows;
  }
  if (coltype_is_string(pCol->type)) {
    if (refdb_col_path(pCat, t, iCol, STORE_DICT, zPath, sizeof(zPath), zErr, nErr) != 0 ||
        store_dict_open(&c->d, zPath, zErr, nErr) != 0) {
      goto out_fail;
    }
    c->bDict = 1;
  }
  return 0;

out_rows:
  snprintf(zErr, nErr, "table \"%s\" column \"%s\": %s holds %llu rows, the catalog says %lld",
           t->zName, pCol->zName, zPath, (unsigned long long)nRow, (long long)t->nRow);
out_fail:
  refdb_col_close(c);
  return -1;
}

/* Writes yyyymmdd v as 'YYYY-MM-DD' into z (of 32 bytes); returns its
** length. By hand: a lineorder load formats two dates a row. */
static int refdb_date_text(int32_t v, char *z) {
  int y = v / 10000, m = v / 100 % 100, d = v % 100;
  if (v < 10101 || v > 99991231) return snprintf(z, 32, "%d", (int)v);
  z[0] = (char)('0' + y / 1000);
  z[1] = (char)('0' + y / 100 % 10);
  z[2] = (char)('0' + y / 10 % 10);
  z[3] = (char)('0' + y % 10);
  z[4] = '-';
  z[5] = (char)('0' + m / 10);
  z[6] = (char)('0' + m % 10);
  z[7] = '-';
  z[8] = (char)('0' + d / 10);
  z[9] = (char)('0' + d % 10);
  z[10] = 0;
  return 10;
}

/* Binds row iRow of column c to parameter iParam of pStmt. Text is bound
** without a copy: the mappings outlive the statement's step. Returns an
** SQLite code, or SQLITE_CORRUPT for a string code outside the dictionary. */
static int refdb_col_bind(sqlite3_stmt *pStmt, int iParam, refdb_col *c, uint64_t iRow) {
  const void *a = c->mValue.aData;
  if (c->bValid && !((((const uint64_t *)c->mValid.aData)[iRow / 64] >> (iRow % 64)) & 1)) {
    return sqlite3_bind_null(pStmt, iParam);
  }
  switch (c->pCol->type.eId) {
    case COLTYPE_SMALLINT: return sqlite3_bind_int64(pStmt, iParam, ((const int16_t *)a)[iRow]);
    case COLTYPE_INTEGER: return sqlite3_bind_int64(pStmt, iParam, ((const int32_t *)a)[iRow]);
    case COLTYPE_BIGINT: return sqlite3_bind_int64(pStmt, iParam, ((const int64_t *)a)[iRow]);
    case COLTYPE_DOUBLE: return sqlite3_bind_double(pStmt, iParam, ((const double *)a)[iRow]);
    case COLTYPE_DECIMAL:
      /* Both operands exact below 2^53, so the quotient is the double
      ** nearest the decimal value. */
      return sqlite3_bind_double(pStmt, iParam, (double)((const int64_t *)a)[iRow] / c->rScale);
    case COLTYPE_DATE: {
      int n = refdb_date_text(((const int32_t *)a)[iRow], c->zDate);
      return sqlite3_bind_text(pStmt, iParam, c->zDate, n, SQLITE_STATIC);
    }
    case COLTYPE_CHAR:
    case COLTYPE_VARCHAR:
    case COLTYPE_TEXT: {
      uint32_t iCode = ((const uint32_t *)a)[iRow];
      size_t n;
      const char *z;
      if (iCode >= c->d.n) return SQLITE_CORRUPT;
      z = store_dict_str(&c->d, iCode, &n);
      return sqlite3_bind_text(pStmt, iParam, z, (int)n, SQLITE_STATIC);
    }
    default: return SQLITE_MISMATCH;
  }
}

/* ---- one table ---------------------------------------------------------------- */

/* The SQLite type a starq column is copied as. */
static const char *refdb_sqlite_type(coltype t) {
  switch (t.eId) {
    case COLTYPE_SMALLINT:
    case COLTYPE_INTEGER:
    case COLTYPE_BIGINT:
    case COLTYPE_BOOLEAN: return "INTEGER";
    case COLTYPE_DOUBLE:
    case COLTYPE_DECIMAL: return "REAL";
    default: return "TEXT";
  }
}

/* Creates t's table in SQLite: its columns, typed, and nothing else. */
static int refdb_table_create(sqlite3 *db, const cat_table *t, char *zErr, size_t nErr) {
  sqlite3_str *pStr = sqlite3_str_new(db);
  sqlite3_str_appendf(pStr, "CREATE TABLE \"%w\" (", t->zName);
  for (int i = 0; i < t->nCol; i++) {
    sqlite3_str_appendf(pStr, "%s\"%w\" %s", i > 0 ? ", " : "", t->aCol[i].zName,
                        refdb_sqlite_type(t->aCol[i].type));
  }
  sqlite3_str_appendall(pStr, ")");
  return refdb_exec(db, sqlite3_str_finish(pStr), zErr, nErr);
}

/* Inserts every row of t's columns aCol through one prepared statement. */
static int refdb_table_fill(sqlite3 *db, const cat_table *t, refdb_col *aCol, char *zErr,
                            size_t nErr) {
  sqlite3_str *pStr = sqlite3_str_new(db);
  sqlite3_stmt *pStmt = NULL;
  char *zSql;
  int rc;

  sqlite3_str_appendf(pStr, "INSERT INTO \"%w\" VALUES (", t->zName);
  for (int i = 0; i < t->nCol; i++) sqlite3_str_appendall(pStr, i > 0 ? ", ?" : "?");
  sqlite3_str_appendall(pStr, ")");
  zSql = sqlite3_str_finish(pStr);
  if (zSql == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  rc = sqlite3_prepare_v2(db, zSql, -1, &pStmt, NULL);
  sqlite3_free(zSql);
  if (rc != SQLITE_OK) return refdb_sqlite_err(db, "sqlite3_prepare_v2(INSERT)", zErr, nErr);

  for (uint64_t iRow = 0; iRow < (uint64_t)t->nRow; iRow++) {
    for (int i = 0; i < t->nCol && rc == SQLITE_OK; i++) {
      rc = refdb_col_bind(pStmt, i + 1, &aCol[i], iRow);
      if (rc == SQLITE_CORRUPT) {
        snprintf(zErr, nErr, "table \"%s\" column \"%s\" row %llu: string code %u is outside "
                 "its dictionary of %llu strings", t->zName, t->aCol[i].zName,
                 (unsigned long long)iRow, ((const uint32_t *)aCol[i].mValue.aData)[iRow],
                 (unsigned long long)aCol[i].d.n);
        goto out_finalize;
      }
    }
    if (rc != SQLITE_OK) {
      refdb_sqlite_err(db, "sqlite3_bind", zErr, nErr);
      goto out_finalize;
    }
    if ((rc = sqlite3_step(pStmt)) != SQLITE_DONE) {
      refdb_sqlite_err(db, "sqlite3_step(INSERT)", zErr, nErr);
      goto out_finalize;
    }
    rc = sqlite3_reset(pStmt);
  }
  if (rc != SQLITE_OK) refdb_sqlite_err(db, "sqlite3_reset(INSERT)", zErr, nErr);

out_finalize:
  sqlite3_finalize(pStmt);
  return rc == SQLITE_OK ? 0 : -1;
}

/* Copies table t with its rows. */
static int refdb_table_copy(sqlite3 *db, cat *pCat, const cat_table *t, char *zErr, size_t nErr) {
  refdb_col *aCol;
  int nOpen = 0, rc = -1;

  if (refdb_table_create(db, t, zErr, nErr) != 0) return -1;
  if (t->iGen == 0 || t->nRow == 0) return 0;
  aCol = calloc((size_t)t->nCol, sizeof(*aCol));
  if (aCol == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  for (; nOpen < t->nCol; nOpen++) {
    if (refdb_col_open(pCat, t, nOpen, &aCol[nOpen], zErr, nErr) != 0) goto out_close;
  }
  rc = refdb_table_fill(db, t, aCol, zErr, nErr);
out_close:
  for (int i = 0; i < nOpen; i++) refdb_col_close(&aCol[i]);
  free(aCol);
  return rc;
}

/* Indexes the primary key of each table that t's foreign keys reference:
** the lookups of a star join. One index a table, whatever refers to it. */
static int refdb_table_index_refs(sqlite3 *db, const cat_table *t, char *zErr, size_t nErr) {
  for (int k = 0; k < t->nFkey; k++) {
    const cat_fkey *f = &t->aFkey[k];
    sqlite3_str *pStr = sqlite3_str_new(db);
    sqlite3_str_appendf(pStr, "CREATE INDEX IF NOT EXISTS \"refdb_key_%w\" ON \"%w\" (",
                        f->zRefTable, f->zRefTable);
    for (int i = 0; i < f->nCol; i++) {
      sqlite3_str_appendf(pStr, "%s\"%w\"", i > 0 ? ", " : "", f->azRefCol[i]);
    }
    sqlite3_str_appendall(pStr, ")");
    if (refdb_exec(db, sqlite3_str_finish(pStr), zErr, nErr) != 0) return -1;
  }
  return 0;
}

/* Copies every table of the catalog and indexes the referenced keys. */
static int refdb_copy_all(sqlite3 *db, cat *pCat, char *zErr, size_t nErr) {
  char **azName = NULL;
  int nName = 0, rc = 0;
  if (cat_table_names(pCat, &azName, &nName, zErr, nErr) != 0) return -1;
  for (int pass = 0; pass < 2 && rc == 0; pass++) {
    for (int i = 0; i < nName && rc == 0; i++) {
      cat_table *t;
      if (cat_table_get(pCat, azName[i], &t, zErr, nErr) != 0) {
        rc = -1;
        break;
      }
      /* Indexes come after every table exists: a key may point forward. */
      rc = pass == 0 ? refdb_table_copy(db, pCat, t, zErr, nErr)
                     : refdb_table_index_refs(db, t, zErr, nErr);
      cat_table_free(t);
    }
  }
  /* Statistics let SQLite's planner scan the fact table and probe the
  ** dimensions; without them it builds automatic indexes on lineorder,
  ** and the SSB queries run ten times slower. */
  if (rc == 0) rc = refdb_exec(db, sqlite3_mprintf("ANALYZE"), zErr, nErr);
  for (int i = 0; i < nName; i++) free(azName[i]);
  free(azName);
  return rc;
}

/* ---- the handle --------------------------------------------------------------- */

int refdb_open(const char *zDataDir, refdb **pp, char *zErr, size_t nErr) {
  char zPath[4096];
  struct stat st;
  refdb *p;
  cat *pCat = NULL;

  *pp = NULL;
  if (nErr > 0) zErr[0] = 0;
  snprintf(zPath, sizeof(zPath), "%s/catalog.db", zDataDir);
  if (stat(zPath, &st) != 0) {
    snprintf(zErr, nErr, "%s: no catalog there", zDataDir);
    return -1;
  }
  if ((p = calloc(1, sizeof(*p))) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  if (sqlite3_open_v2(":memory:", &p->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
      SQLITE_OK) {
    refdb_sqlite_err(p->db, "sqlite3_open_v2", zErr, nErr);
    goto out_close;
  }
  if (refdb_exec(p->db, sqlite3_mprintf("%s", refdb_zPragmas), zErr, nErr) != 0) goto out_close;
  if (cat_open(&pCat, zDataDir, zErr, nErr) != 0) goto out_close;
  if (refdb_exec(p->db, sqlite3_mprintf("BEGIN"), zErr, nErr) != 0) goto out_close;
  if (refdb_copy_all(p->db, pCat, zErr, nErr) != 0 ||
      refdb_exec(p->db, sqlite3_mprintf("COMMIT"), zErr, nErr) != 0) {
    goto out_close;
  }
  cat_close(pCat);
  *pp = p;
  return 0;

out_close:
  if (pCat != NULL) cat_close(pCat);
  refdb_close(p);
  return -1;
}

void refdb_close(refdb *p) {
  if (p == NULL) return;
  sqlite3_close(p->db);
  free(p);
}

sqlite3 *refdb_sqlite(refdb *p) {
  return p->db;
}

/* ---- queries ------------------------------------------------------------------ */

/* Appends the current row of pStmt to pRes in canonical text; sets
** abReal[i] for each column that held a REAL. Returns 0 or -1 (memory). */
static int refdb_row_add(sqlite3_stmt *pStmt, refdb_result *pRes, unsigned char *abReal) {
  for (int i = 0; i < pRes->nCol; i++) {
    char zNum[64];
    int rc;
    switch (sqlite3_column_type(pStmt, i)) {
      case SQLITE_NULL: rc = refdb_result_add_cell(pRes, NULL, 0); break;
      case SQLITE_INTEGER:
        snprintf(zNum, sizeof(zNum), "%lld", (long long)sqlite3_column_int64(pStmt, i));
        rc = refdb_result_add_cell(pRes, zNum, -1);
        break;
      case SQLITE_FLOAT:
        abReal[i] = 1;
        rc = refdb_result_add_cell(pRes, refdb_double_text(sqlite3_column_double(pStmt, i), zNum,
                                                           sizeof(zNum)), -1);
        break;
      default: {
        /* TEXT, and BLOB read as its bytes (nothing starq stores is one). */
        const char *z = (const char *)sqlite3_column_text(pStmt, i);
        rc = refdb_result_add_cell(pRes, z ? z : "", sqlite3_column_bytes(pStmt, i));
        break;
      }
    }
    if (rc != 0) return -1;
  }
  return 0;
}

/* Runs the prepared statement to its end into a new result at *pp. */
static int refdb_stmt_run(sqlite3 *db, sqlite3_stmt *pStmt, refdb_result **pp, char *zErr,
                          size_t nErr) {
  int nCol = sqlite3_column_count(pStmt), r;
  refdb_result *pRes = refdb_result_new(nCol);
  unsigned char *abReal = calloc((size_t)nCol + 1, 1);

  if (pRes == NULL || abReal == NULL) goto out_oom;
  while ((r = sqlite3_step(pStmt)) == SQLITE_ROW) {
    if (refdb_row_add(pStmt, pRes, abReal) != 0) goto out_oom;
  }
  if (r != SQLITE_DONE) {
    refdb_sqlite_err(db, "sqlite3_step", zErr, nErr);
    goto out_free;
  }
  for (int i = 0; i < nCol; i++) {
    const char *zDecl = sqlite3_column_decltype(pStmt, i);
    int bFloat = abReal[i] || (zDecl != NULL && strcmp(zDecl, "REAL") == 0);
    if (refdb_result_set_column(pRes, i, sqlite3_column_name(pStmt, i), bFloat) != 0) goto out_oom;
  }
  free(abReal);
  *pp = pRes;
  return 0;

out_oom:
  snprintf(zErr, nErr, "out of memory");
out_free:
  free(abReal);
  refdb_result_free(pRes);
  return -1;
}

int refdb_query(refdb *p, const char *zSql, refdb_result **pp, char *zErr, size_t nErr) {
  sqlite3_stmt *pStmt = NULL;
  const char *zTail = NULL;
  char *zLite = NULL;
  int rc = -1;

  *pp = NULL;
  if (refdb_sql_translate(zSql, &zLite) != 0) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  if (sqlite3_prepare_v2(p->db, zLite, -1, &pStmt, &zTail) != SQLITE_OK || pStmt == NULL) {
    snprintf(zErr, nErr, "%s\n  in: %s", pStmt == NULL && sqlite3_errcode(p->db) == SQLITE_OK
                                             ? "no statement" : sqlite3_errmsg(p->db), zLite);
    goto out_free;
  }
  zTail += strspn(zTail, " \t\r\n\f\v;");
  if (*zTail != 0) {
    snprintf(zErr, nErr, "more than one statement\n  in: %s", zLite);
    goto out_free;
  }
  if (refdb_stmt_run(p->db, pStmt, pp, zErr, nErr) == 0) {
    rc = 0;
  } else {
    size_t n = strlen(zErr);
    if (n + 1 < nErr) snprintf(zErr + n, nErr - n, "\n  in: %s", zLite);
  }
out_free:
  sqlite3_finalize(pStmt);
  free(zLite);
  return rc;
}
