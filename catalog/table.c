/*
** catalog/table.c — creating and dropping tables: storing a new definition
** after checking it against the tables it references, and removing a table
** with its files once nothing references it. Reading definitions back is
** tableread.c's.
**
** Each operation is one IMMEDIATE transaction: it holds the write lock
** before it reads what it decides on (does the name exist, what is the
** referenced table's key, who references this table), so no other writer
** can change those between the check and the write.
**
** INTERFACE ROUTINES
**   cat_table_create, cat_table_drop
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/fsdir.h"
#include "catalogInt.h"

/* ---- creating ------------------------------------------------------------ */

static int table_coltype_eq(coltype a, coltype b) {
  return a.eId == b.eId && a.nLength == b.nLength && a.nPrecision == b.nPrecision &&
         a.nScale == b.nScale;
}

/* Checks foreign key f of t against pRef, the table it references (t
** itself for a self-reference), and resolves the referenced columns into
** aiRef[0..f->nCol). The messages quote the key as the user wrote it. */
static int table_fkey_check(const cat_table *t, const cat_fkey *f, const cat_table *pRef,
                            int *aiRef, char *zErr, size_t nErr) {
  char zCols[512], zRefCols[512], zPkey[512];
  size_t k = 0;

  cat__col_list(t, f->nCol, f->aiCol, zCols, sizeof(zCols));
  zRefCols[0] = 0;
  for (int i = 0; i < f->nCol && k < sizeof(zRefCols); i++) {
    int m = snprintf(zRefCols + k, sizeof(zRefCols) - k, "%s%s", i > 0 ? ", " : "",
                     f->azRefCol[i]);
    if (m < 0) break;
    k += (size_t)m;
  }
  if (pRef->nPkey == 0) {
    snprintf(zErr, nErr, "foreign key (%s) references %s, which has no primary key", zCols,
             f->zRefTable);
    return -1;
  }
  cat__col_list(pRef, pRef->nPkey, pRef->aiPkey, zPkey, sizeof(zPkey));
  for (int i = 0; i < f->nCol; i++) {
    if ((aiRef[i] = cat_table_column(pRef, f->azRefCol[i])) < 0) {
      snprintf(zErr, nErr, "foreign key (%s) references %s (%s), which has no column %s",
               zCols, f->zRefTable, zRefCols, f->azRefCol[i]);
      return -1;
    }
  }
  for (int i = 0; i < f->nCol || i < pRef->nPkey; i++) {
    if (i >= f->nCol || i >= pRef->nPkey || aiRef[i] != pRef->aiPkey[i]) {
      snprintf(zErr, nErr,
               "foreign key (%s) references %s (%s), which is not its primary key (%s)", zCols,
               f->zRefTable, zRefCols, zPkey);
      return -1;
    }
  }
  for (int i = 0; i < f->nCol; i++) {
    const cat_column *c = &t->aCol[f->aiCol[i]], *r = &pRef->aCol[aiRef[i]];
    if (!table_coltype_eq(c->type, r->type)) {
      char zType[64], zRefType[64];
      snprintf(zErr, nErr, "foreign key (%s) references %s (%s), but %s is %s and %s is %s",
               zCols, f->zRefTable, zRefCols, c->zName,
               coltype_format(c->type, zType, sizeof(zType)), r->zName,
               coltype_format(r->type, zRefType, sizeof(zRefType)));
      return -1;
    }
  }
  return 0;
}

/* Finds the table of every foreign key of t and checks the key against
** it, filling aaiRef[i] (malloc'd by the caller) and aiRefId[i] (0 for t
** itself, whose id is not known yet). Runs in the create transaction. */
static int table_fkeys_resolve(cat *pCat, const cat_table *t, int **aaiRef, int64_t *aiRefId,
                               char *zErr, size_t nErr) {
  for (int i = 0; i < t->nFkey; i++) {
    const cat_fkey *f = &t->aFkey[i];
    cat_table *pRef = NULL;
    int rc;
    aiRefId[i] = 0;
    if (strcasecmp(f->zRefTable, t->zName) != 0) {
      char zCols[512];
      if (cat__table_find(pCat, f->zRefTable, &aiRefId[i], zErr, nErr) != 0) return -1;
      if (aiRefId[i] == 0) {
        snprintf(zErr, nErr, "foreign key (%s) references table \"%s\", which does not exist",
                 cat__col_list(t, f->nCol, f->aiCol, zCols, sizeof(zCols)), f->zRefTable);
        return -1;
      }
      if (cat__table_load(pCat, aiRefId[i], &pRef, zErr, nErr) != 0) return -1;
    }
    rc = table_fkey_check(t, f, pRef != NULL ? pRef : t, aaiRef[i], zErr, nErr);
    cat_table_free(pRef);
    if (rc != 0) return -1;
  }
  return 0;
}

/* Binds the nParam integers a[] to ?1.. and runs the statement once. */
static int table_insert(cat *pCat, sqlite3_stmt *pStmt, int nParam, const int64_t *a,
                        char *zErr, size_t nErr) {
  int rc = SQLITE_OK;
  for (int i = 0; i < nParam; i++) cat__bind_int64(pStmt, i + 1, a[i], &rc);
  return cat__run_bound(pCat, pStmt, rc, zErr, nErr);
}

/* Runs zSql once per row of aRow (nRow rows of nParam integers). */
static int table_insert_rows(cat *pCat, const char *zSql, int nParam, int nRow,
                             const int64_t *aRow, char *zErr, size_t nErr) {
  sqlite3_stmt *pStmt;
  int rc = 0;
  if (nRow == 0) return 0;
  if (cat__prepare(pCat, zSql, &pStmt, zErr, nErr) != 0) return -1;
  for (int i = 0; i < nRow && rc == 0; i++) {
    rc = table_insert(pCat, pStmt, nParam, aRow + (size_t)i * (size_t)nParam, zErr, nErr);
  }
  sqlite3_finalize(pStmt);
  return rc;
}

/* Inserts the rows of t's definition once tables has its row iId. */
static int table_store(cat *pCat, const cat_table *t, int64_t iId, int *const *aaiRef,
                       const int64_t *aiRefId, char *zErr, size_t nErr) {
  static const char zColSql[] =
      "INSERT INTO columns(table_id, ordinal, name, type_id, type_length, type_precision,"
      " type_scale, not_null) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
  sqlite3_stmt *pStmt;
  int64_t a[6];

  if (cat__prepare(pCat, zColSql, &pStmt, zErr, nErr) != 0) return -1;
  for (int i = 0; i < t->nCol; i++) {
    const cat_column *c = &t->aCol[i];
    int rc = SQLITE_OK, bPkey = 0;
    for (int j = 0; j < t->nPkey; j++) bPkey |= t->aiPkey[j] == i;
    cat__bind_int64(pStmt, 1, iId, &rc);
    cat__bind_int64(pStmt, 2, i, &rc);
    cat__bind_text(pStmt, 3, c->zName, &rc);
    cat__bind_int64(pStmt, 4, c->type.eId, &rc);
    cat__bind_int64(pStmt, 5, c->type.nLength, &rc);
    cat__bind_int64(pStmt, 6, c->type.nPrecision, &rc);
    cat__bind_int64(pStmt, 7, c->type.nScale, &rc);
    cat__bind_int64(pStmt, 8, c->bNotNull || bPkey, &rc);
    if (cat__run_bound(pCat, pStmt, rc, zErr, nErr) != 0) goto out_finalize;
  }
  sqlite3_finalize(pStmt);

  for (int i = 0; i < t->nPkey; i++) {
    a[0] = iId, a[1] = i, a[2] = t->aiPkey[i];
    if (table_insert_rows(pCat,
                          "INSERT INTO pkey_columns(table_id, position, ordinal)"
                          " VALUES (?1, ?2, ?3)",
                          3, 1, a, zErr, nErr) != 0) {
      return -1;
    }
  }
  for (int i = 0; i < t->nFkey; i++) {
    const cat_fkey *f = &t->aFkey[i];
    int64_t iRefId = aiRefId[i] != 0 ? aiRefId[i] : iId;
    a[0] = iId, a[1] = i, a[2] = iRefId;
    if (table_insert_rows(pCat,
                          "INSERT INTO fkeys(table_id, position, ref_table_id)"
                          " VALUES (?1, ?2, ?3)",
                          3, 1, a, zErr, nErr) != 0) {
      return -1;
    }
    for (int j = 0; j < f->nCol; j++) {
      a[0] = iId, a[1] = i, a[2] = j, a[3] = f->aiCol[j], a[4] = iRefId, a[5] = aaiRef[i][j];
      if (table_insert_rows(pCat,
                            "INSERT INTO fkey_columns(table_id, fkey_position, position,"
                            " ordinal, ref_table_id, ref_ordinal)"
                            " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                            6, 1, a, zErr, nErr) != 0) {
        return -1;
      }
    }
  }
  return 0;
out_finalize:
  sqlite3_finalize(pStmt);
  return -1;
}

/* Inserts the tables row of t and returns its id in *piId. */
static int table_insert_name(cat *pCat, const cat_table *t, int64_t *piId, char *zErr,
                             size_t nErr) {
  sqlite3_stmt *pStmt;
  int r;
  if (cat__prepare_text(pCat, "INSERT INTO tables(name) VALUES (?1)", t->zName, &pStmt,
                        zErr, nErr) != 0) {
    return -1;
  }
  r = cat__step(pCat, pStmt, zErr, nErr);
  sqlite3_finalize(pStmt);
  if (r < 0) return -1;
  *piId = sqlite3_last_insert_rowid(pCat->db);
  return 0;
}

int cat_table_create(cat *pCat, cat_table *t, char *zErr, size_t nErr) {
  int **aaiRef = NULL;
  int64_t *aiRefId = NULL, iId, iExisting;
  int rc = -1;

  if (t->iId != 0) {
    snprintf(zErr, nErr, "table \"%s\" was already created (id %lld)", t->zName,
             (long long)t->iId);
    return -1;
  }
  if (cat__table_check(t, zErr, nErr) != 0) return -1;
  if (t->nFkey > 0) {
    aaiRef = calloc((size_t)t->nFkey, sizeof(int *));
    aiRefId = calloc((size_t)t->nFkey, sizeof(int64_t));
    if (aaiRef == NULL || aiRefId == NULL) {
      cat__oom(zErr, nErr);
      goto out_free;
    }
    for (int i = 0; i < t->nFkey; i++) {
      if ((aaiRef[i] = malloc((size_t)t->aFkey[i].nCol * sizeof(int))) == NULL) {
        cat__oom(zErr, nErr);
        goto out_free;
      }
    }
  }

  if (cat__begin_write(pCat, zErr, nErr) != 0) goto out_free;
  if (cat__table_find(pCat, t->zName, &iExisting, zErr, nErr) != 0) goto out_rollback;
  if (iExisting != 0) {
    snprintf(zErr, nErr, "table \"%s\" already exists", t->zName);
    goto out_rollback;
  }
  if (table_fkeys_resolve(pCat, t, aaiRef, aiRefId, zErr, nErr) != 0) goto out_rollback;
  if (table_insert_name(pCat, t, &iId, zErr, nErr) != 0) goto out_rollback;
  if (table_store(pCat, t, iId, aaiRef, aiRefId, zErr, nErr) != 0) goto out_rollback;
  if (cat__commit(pCat, zErr, nErr) != 0) goto out_rollback;

  /* Committed: only now does t change. */
  t->iId = iId;
  t->iGen = 0;
  t->nRow = 0;
  free(t->zLocation);
  t->zLocation = NULL;
  for (int i = 0; i < t->nPkey; i++) t->aCol[t->aiPkey[i]].bNotNull = 1;
  for (int i = 0; i < t->nFkey; i++) {
    memcpy(t->aFkey[i].aiRefCol, aaiRef[i], (size_t)t->aFkey[i].nCol * sizeof(int));
  }
  rc = 0;
  goto out_free;
out_rollback:
  cat__rollback(pCat);
out_free:
  if (aaiRef != NULL) {
    for (int i = 0; i < t->nFkey; i++) free(aaiRef[i]);
  }
  free(aaiRef);
  free(aiRefId);
  return rc;
}

/* ---- dropping ------------------------------------------------------------ */

int cat_table_drop(cat *pCat, const char *zName, char *zErr, size_t nErr) {
  static const char zRefSql[] =
      "SELECT t.name FROM fkeys f JOIN tables t ON t.id = f.table_id"
      " WHERE f.ref_table_id = ?1 AND f.table_id <> ?1 ORDER BY t.id LIMIT 1";
  sqlite3_stmt *pStmt;
  char zDir[4096];
  int64_t iId;
  int r;

  if (zName == NULL) zName = "";
  if (cat__begin_write(pCat, zErr, nErr) != 0) return -1;
  if (cat__table_find(pCat, zName, &iId, zErr, nErr) != 0) goto out_rollback;
  if (iId == 0) {
    snprintf(zErr, nErr, "no table named \"%s\"", zName);
    goto out_rollback;
  }
  if (cat__gen_dir(pCat, iId, 0, zDir, sizeof(zDir), zErr, nErr) != 0) goto out_rollback;

  if (cat__prepare(pCat, zRefSql, &pStmt, zErr, nErr) != 0) goto out_rollback;
  if (cat__bind_id(pCat, pStmt, iId, zErr, nErr) != 0 ||
      (r = cat__step(pCat, pStmt, zErr, nErr)) < 0) {
    sqlite3_finalize(pStmt);
    goto out_rollback;
  }
  if (r == SQLITE_ROW) {
    snprintf(zErr, nErr, "cannot drop table \"%s\": table \"%s\" has a foreign key to it",
             zName, cat__column_text(pStmt, 0));
    sqlite3_finalize(pStmt);
    goto out_rollback;
  }
  sqlite3_finalize(pStmt);

  /* Columns, keys and statistics go with it (ON DELETE CASCADE). */
  if (cat__prepare(pCat, "DELETE FROM tables WHERE id = ?1", &pStmt, zErr, nErr) != 0) {
    goto out_rollback;
  }
  if (cat__bind_id(pCat, pStmt, iId, zErr, nErr) != 0 ||
      cat__step(pCat, pStmt, zErr, nErr) < 0) {
    sqlite3_finalize(pStmt);
    goto out_rollback;
  }
  sqlite3_finalize(pStmt);
  if (cat__commit(pCat, zErr, nErr) != 0) goto out_rollback;

  /* The table is gone whatever happens to its files now; what cannot be
  ** removed here, the next cat_open() sweeps. */
  (void)fsdir_remove(zDir);
  return 0;
out_rollback:
  cat__rollback(pCat);
  return -1;
}
