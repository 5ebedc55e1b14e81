/*
** catalog/tableread.c — reading table definitions back: one table as a
** snapshot (cat_table_get), the list of names (cat_table_names), and the
** loader that cat_table_create() also uses to check a foreign key against
** the table it references.
**
** A definition spans five catalog tables (tables, columns, pkey_columns,
** fkeys, fkey_columns; see the schema in catalog.c). cat_table_get() reads
** them in one transaction, so it never sees half of a table.
** Anything the schema's own constraints should have kept out (a gap in
** column ordinals, an invalid type) is reported as a damaged catalog
** rather than handed to the planner.
**
** INTERFACE ROUTINES
**   cat_table_get, cat_table_names
**   cat__table_load, cat__table_find (catalogInt.h)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalogInt.h"

/* Says that the catalog holds something its own constraints should have
** kept out, naming the table. Returns -1. */
static int table_corrupt(cat *pCat, const char *zTable, const char *zWhat, char *zErr,
                         size_t nErr) {
  snprintf(zErr, nErr, "catalog %s is damaged: table \"%s\": %s", pCat->zDbPath, zTable,
           zWhat);
  return -1;
}

/* Reads the columns of t (whose iId is set) in ordinal order. */
static int table_load_columns(cat *pCat, cat_table *t, char *zErr, size_t nErr) {
  static const char zSql[] =
      "SELECT ordinal, name, type_id, type_length, type_precision, type_scale, not_null"
      " FROM columns WHERE table_id = ?1 ORDER BY ordinal";
  sqlite3_stmt *pStmt;
  char zWhy[256];
  int r, rc = -1;

  if (cat__prepare(pCat, zSql, &pStmt, zErr, nErr) != 0) return -1;
  if (cat__bind_id(pCat, pStmt, t->iId, zErr, nErr) != 0) goto out_finalize;
  while ((r = cat__step(pCat, pStmt, zErr, nErr)) == SQLITE_ROW) {
    coltype type;
    type.eId = (coltype_id)sqlite3_column_int(pStmt, 2);
    type.nLength = sqlite3_column_int(pStmt, 3);
    type.nPrecision = sqlite3_column_int(pStmt, 4);
    type.nScale = sqlite3_column_int(pStmt, 5);
    if (sqlite3_column_int64(pStmt, 0) != t->nCol) {
      table_corrupt(pCat, t->zName, "column ordinals have a gap", zErr, nErr);
      goto out_finalize;
    }
    if (cat_table_add_column(t, cat__column_text(pStmt, 1), type, sqlite3_column_int(pStmt, 6),
                             zWhy, sizeof(zWhy)) != 0) {
      table_corrupt(pCat, t->zName, zWhy, zErr, nErr);
      goto out_finalize;
    }
  }
  if (r < 0) goto out_finalize;
  if (t->nCol == 0) {
    table_corrupt(pCat, t->zName, "no columns", zErr, nErr);
    goto out_finalize;
  }
  rc = 0;
out_finalize:
  sqlite3_finalize(pStmt);
  return rc;
}

/* Reads the ordinals a query returns (first result column) into the
** malloc'd *paiCol, checking each against t. Sets *pn. */
static int table_load_ordinals(cat *pCat, const cat_table *t, sqlite3_stmt *pStmt, int **paiCol,
                               int *pn, char *zErr, size_t nErr) {
  int r, n = 0, *a = NULL;
  while ((r = cat__step(pCat, pStmt, zErr, nErr)) == SQLITE_ROW) {
    int64_t iCol = sqlite3_column_int64(pStmt, 0);
    int *aNew;
    if (iCol < 0 || iCol >= t->nCol) {
      table_corrupt(pCat, t->zName, "a key names a column that does not exist", zErr, nErr);
      goto out_free;
    }
    aNew = realloc(a, (size_t)(n + 1) * sizeof(int));
    if (aNew == NULL) {
      cat__oom(zErr, nErr);
      goto out_free;
    }
    a = aNew;
    a[n++] = (int)iCol;
  }
  if (r < 0) goto out_free;
  *paiCol = a;
  *pn = n;
  return 0;
out_free:
  free(a);
  return -1;
}

static int table_load_pkey(cat *pCat, cat_table *t, char *zErr, size_t nErr) {
  sqlite3_stmt *pStmt;
  int rc = -1;
  if (cat__prepare(pCat,
                   "SELECT ordinal FROM pkey_columns WHERE table_id = ?1 ORDER BY position",
                   &pStmt, zErr, nErr) != 0) {
    return -1;
  }
  if (cat__bind_id(pCat, pStmt, t->iId, zErr, nErr) == 0 &&
      table_load_ordinals(pCat, t, pStmt, &t->aiPkey, &t->nPkey, zErr, nErr) == 0) {
    rc = 0;
  }
  sqlite3_finalize(pStmt);
  return rc;
}

/* Reads the columns of foreign key f, number iPos of t, and the names of
** the columns they reference. */
static int table_load_fkey_columns(cat *pCat, const cat_table *t, int64_t iPos, cat_fkey *f,
                                   char *zErr, size_t nErr) {
  static const char zSql[] =
      "SELECT fc.ordinal, fc.ref_ordinal, c.name FROM fkey_columns fc"
      " JOIN columns c ON c.table_id = fc.ref_table_id AND c.ordinal = fc.ref_ordinal"
      " WHERE fc.table_id = ?1 AND fc.fkey_position = ?2 ORDER BY fc.position";
  sqlite3_stmt *pStmt;
  int r, rc = -1, bind = SQLITE_OK;

  if (cat__prepare(pCat, zSql, &pStmt, zErr, nErr) != 0) return -1;
  cat__bind_int64(pStmt, 1, t->iId, &bind);
  cat__bind_int64(pStmt, 2, iPos, &bind);
  if (bind != SQLITE_OK) {
    cat__error(pCat, "bind", zErr, nErr);
    goto out_finalize;
  }
  while ((r = cat__step(pCat, pStmt, zErr, nErr)) == SQLITE_ROW) {
    int64_t iCol = sqlite3_column_int64(pStmt, 0);
    int n = f->nCol + 1;
    int *aiCol, *aiRefCol;
    char **azRefCol;
    if (iCol < 0 || iCol >= t->nCol) {
      table_corrupt(pCat, t->zName, "a foreign key names a column that does not exist", zErr,
                    nErr);
      goto out_finalize;
    }
    /* Each array is kept in f as soon as it grows, so f->nCol entries of
    ** all three are valid for cat_table_free() whatever fails next. */
    if ((aiCol = realloc(f->aiCol, (size_t)n * sizeof(int))) != NULL) f->aiCol = aiCol;
    if ((aiRefCol = realloc(f->aiRefCol, (size_t)n * sizeof(int))) != NULL) {
      f->aiRefCol = aiRefCol;
    }
    if ((azRefCol = realloc(f->azRefCol, (size_t)n * sizeof(char *))) != NULL) {
      f->azRefCol = azRefCol;
    }
    if (aiCol == NULL || aiRefCol == NULL || azRefCol == NULL) {
      cat__oom(zErr, nErr);
      goto out_finalize;
    }
    f->azRefCol[f->nCol] = strdup(cat__column_text(pStmt, 2));
    if (f->azRefCol[f->nCol] == NULL) {
      cat__oom(zErr, nErr);
      goto out_finalize;
    }
    f->aiCol[f->nCol] = (int)iCol;
    f->aiRefCol[f->nCol] = sqlite3_column_int(pStmt, 1);
    f->nCol++;
  }
  if (r < 0) goto out_finalize;
  if (f->nCol == 0) {
    table_corrupt(pCat, t->zName, "a foreign key has no columns", zErr, nErr);
    goto out_finalize;
  }
  rc = 0;
out_finalize:
  sqlite3_finalize(pStmt);
  return rc;
}

static int table_load_fkeys(cat *pCat, cat_table *t, char *zErr, size_t nErr) {
  static const char zSql[] =
      "SELECT f.position, r.name FROM fkeys f JOIN tables r ON r.id = f.ref_table_id"
      " WHERE f.table_id = ?1 ORDER BY f.position";
  sqlite3_stmt *pStmt;
  int r, rc = -1;

  if (cat__prepare(pCat, zSql, &pStmt, zErr, nErr) != 0) return -1;
  if (cat__bind_id(pCat, pStmt, t->iId, zErr, nErr) != 0) goto out_finalize;
  while ((r = cat__step(pCat, pStmt, zErr, nErr)) == SQLITE_ROW) {
    cat_fkey *aNew = realloc(t->aFkey, (size_t)(t->nFkey + 1) * sizeof(*aNew));
    cat_fkey *f;
    if (aNew == NULL) {
      cat__oom(zErr, nErr);
      goto out_finalize;
    }
    t->aFkey = aNew;
    f = &t->aFkey[t->nFkey++];
    memset(f, 0, sizeof(*f));
    if ((f->zRefTable = strdup(cat__column_text(pStmt, 1))) == NULL) {
      cat__oom(zErr, nErr);
      goto out_finalize;
    }
    if (table_load_fkey_columns(pCat, t, sqlite3_column_int64(pStmt, 0), f, zErr, nErr) != 0) {
      goto out_finalize;
    }
  }
  if (r < 0) goto out_finalize;
  rc = 0;
out_finalize:
  sqlite3_finalize(pStmt);
  return rc;
}

/* Reads the whole definition and state of table iId into *pt (NULL if
** there is no such table). Runs inside the caller's transaction. */
int cat__table_load(cat *pCat, int64_t iId, cat_table **pt, char *zErr, size_t nErr) {
  static const char zSql[] =
      "SELECT name, location, generation, row_count FROM tables WHERE id = ?1";
  sqlite3_stmt *pStmt;
  cat_table *t = NULL;
  int r;

  *pt = NULL;
  if (cat__prepare(pCat, zSql, &pStmt, zErr, nErr) != 0) return -1;
  if (cat__bind_id(pCat, pStmt, iId, zErr, nErr) != 0) goto out_finalize;
  if ((r = cat__step(pCat, pStmt, zErr, nErr)) < 0) goto out_finalize;
  if (r == SQLITE_DONE) {
    sqlite3_finalize(pStmt);
    return 0;
  }
  t = cat_table_new(cat__column_text(pStmt, 0));
  if (t == NULL) {
    cat__oom(zErr, nErr);
    goto out_finalize;
  }
  t->iId = iId;
  t->iGen = sqlite3_column_int64(pStmt, 2);
  t->nRow = sqlite3_column_int64(pStmt, 3);
  if (sqlite3_column_type(pStmt, 1) != SQLITE_NULL &&
      (t->zLocation = strdup(cat__column_text(pStmt, 1))) == NULL) {
    cat__oom(zErr, nErr);
    goto out_free_table;
  }
  sqlite3_finalize(pStmt);
  if (table_load_columns(pCat, t, zErr, nErr) != 0 ||
      table_load_pkey(pCat, t, zErr, nErr) != 0 ||
      table_load_fkeys(pCat, t, zErr, nErr) != 0) {
    cat_table_free(t);
    return -1;
  }
  *pt = t;
  return 0;
out_free_table:
  cat_table_free(t);
out_finalize:
  sqlite3_finalize(pStmt);
  return -1;
}

/* Looks table zName up (case-insensitively). Sets *piId, 0 if none. */
int cat__table_find(cat *pCat, const char *zName, int64_t *piId, char *zErr, size_t nErr) {
  sqlite3_stmt *pStmt;
  int r;
  if (cat__prepare_text(pCat, "SELECT id FROM tables WHERE name = ?1", zName, &pStmt, zErr,
                        nErr) != 0) {
    return -1;
  }
  r = cat__step(pCat, pStmt, zErr, nErr);
  *piId = r == SQLITE_ROW ? sqlite3_column_int64(pStmt, 0) : 0;
  sqlite3_finalize(pStmt);
  return r < 0 ? -1 : 0;
}

int cat_table_get(cat *pCat, const char *zName, cat_table **pt, char *zErr, size_t nErr) {
  const cat_table *pCached;
  int64_t iId;
  *pt = NULL;
  if (zName == NULL) zName = "";
  if (cat__cache_check(pCat, zErr, nErr) != 0) return -1;
  if ((pCached = cat__cache_find(pCat, zName)) != NULL) {
    if ((*pt = cat__table_clone(pCached)) == NULL) return cat__oom(zErr, nErr);
    return 0;
  }
  if (cat__begin_read(pCat, zErr, nErr) != 0) return -1;
  if (cat__table_find(pCat, zName, &iId, zErr, nErr) != 0) goto out_rollback;
  if (iId == 0) {
    snprintf(zErr, nErr, "no table named \"%s\"", zName);
    goto out_rollback;
  }
  if (cat__table_load(pCat, iId, pt, zErr, nErr) != 0) goto out_rollback;
  if (cat__commit(pCat, zErr, nErr) != 0) {
    cat_table_free(*pt);
    *pt = NULL;
    goto out_rollback;
  }
  cat__cache_put(pCat, *pt);
  return 0;
out_rollback:
  cat__rollback(pCat);
  return -1;
}

int cat_table_names(cat *pCat, char ***pazName, int *pn, char *zErr, size_t nErr) {
  sqlite3_stmt *pStmt;
  char **az = NULL;
  int n = 0, r;

  *pazName = NULL;
  *pn = 0;
  if (cat__prepare(pCat, "SELECT name FROM tables ORDER BY id", &pStmt, zErr, nErr) != 0) {
    return -1;
  }
  while ((r = cat__step(pCat, pStmt, zErr, nErr)) == SQLITE_ROW) {
    char **azNew = realloc(az, (size_t)(n + 1) * sizeof(char *));
    if (azNew == NULL) {
      cat__oom(zErr, nErr);
      goto out_free;
    }
    az = azNew;
    if ((az[n] = strdup(cat__column_text(pStmt, 0))) == NULL) {
      cat__oom(zErr, nErr);
      goto out_free;
    }
    n++;
  }
  if (r < 0) goto out_free;
  sqlite3_finalize(pStmt);
  *pazName = az;
  *pn = n;
  return 0;
out_free:
  for (int i = 0; i < n; i++) free(az[i]);
  free(az);
  sqlite3_finalize(pStmt);
  return -1;
}
