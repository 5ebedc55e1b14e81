/*
** catalog/gen.c — generations: the directories a table's data is written
** into, and the commit that makes one of them the table's data.
**
** A load's life, and what a crash at each step leaves:
**
**   1. cat_gen_begin: take the next number from tables.next_generation in
**      a committed transaction, then mkdir DATA/t<id>/g<gen> and flock it.
**      Crash: an unlocked directory nobody names; the next open sweeps it.
**      The number is spent either way, so it is never used twice.
**   2. The loader writes and fsyncs the column files (storage/).
**   3. cat_gen_commit: fsync the directory, its parent and DATA, then one
**      transaction sets location, generation, row count and every column's
**      statistics. Crash before COMMIT is durable: the old generation is
**      current and the new one is swept; after: the new one is current.
**   4. Remove the old generation. Crash: the next open sweeps it.
**
** The commit refuses when the table's generation is no longer the one the
** caller's cat_table snapshot shows: another load committed in between,
** and this one, built on the older data, would silently undo it.
**
** INTERFACE ROUTINES
**   cat_gen_begin, cat_gen_commit, cat_gen_abort
**   cat__pending_abort_all (catalogInt.h)
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/fsdir.h"
#include "catalogInt.h"

/* ---- generations this handle is writing ---------------------------------- */

static int gen_pending_find(const cat *pCat, int64_t iTable, int64_t iGen) {
  for (int i = 0; i < pCat->nPending; i++) {
    if (pCat->aPending[i].iTable == iTable && pCat->aPending[i].iGen == iGen) return i;
  }
  return -1;
}

/* Forgets pending entry i and releases its lock (by closing it). */
static void gen_pending_release(cat *pCat, int i) {
  close(pCat->aPending[i].fd);
  pCat->aPending[i] = pCat->aPending[--pCat->nPending];
}

void cat__pending_abort_all(cat *pCat) {
  while (pCat->nPending > 0) {
    cat_pending p = pCat->aPending[pCat->nPending - 1];
    char zDir[4096], zErr[64];
    gen_pending_release(pCat, pCat->nPending - 1);
    if (cat__gen_dir(pCat, p.iTable, p.iGen, zDir, sizeof(zDir), zErr, sizeof(zErr)) == 0) {
      (void)fsdir_remove(zDir);   /* else the next open sweeps it */
    }
  }
}

/* ---- begin ---------------------------------------------------------------- */

/* Spends the next generation number of table t, in a transaction of
** its own that commits before any directory exists. */
static int gen_number_take(cat *pCat, const cat_table *t, int64_t *piGen, char *zErr,
                           size_t nErr) {
  static const char zSql[] =
      "UPDATE tables SET next_generation = next_generation + 1 WHERE id = ?1"
      " RETURNING next_generation - 1";
  sqlite3_stmt *pStmt;
  int rc = SQLITE_OK, r;

  if (cat__begin_write(pCat, zErr, nErr) != 0) return -1;
  if (cat__prepare(pCat, zSql, &pStmt, zErr, nErr) != 0) goto out_rollback;
  cat__bind_int64(pStmt, 1, t->iId, &rc);
  if (rc != SQLITE_OK) {
    cat__error(pCat, "bind", zErr, nErr);
    goto out_finalize;
  }
  if ((r = cat__step(pCat, pStmt, zErr, nErr)) < 0) goto out_finalize;
  if (r == SQLITE_DONE) {
    snprintf(zErr, nErr, "table \"%s\" (id %lld) does not exist", t->zName, (long long)t->iId);
    goto out_finalize;
  }
  *piGen = sqlite3_column_int64(pStmt, 0);
  /* RETURNING rows are computed at the first step; finish the statement. */
  if ((r = cat__step(pCat, pStmt, zErr, nErr)) != SQLITE_DONE) {
    if (r == SQLITE_ROW) {
      snprintf(zErr, nErr, "catalog %s: two tables with id %lld", pCat->zDbPath,
               (long long)t->iId);
    }
    goto out_finalize;
  }
  sqlite3_finalize(pStmt);
  if (cat__commit(pCat, zErr, nErr) != 0) goto out_rollback;
  return 0;
out_finalize:
  sqlite3_finalize(pStmt);
out_rollback:
  cat__rollback(pCat);
  return -1;
}

int cat_gen_begin(cat *pCat, const cat_table *t, int64_t *piGen, char *zErr, size_t nErr) {
  char zTableDir[4096], zDir[4096];
  cat_pending *aNew;
  struct stat st;
  int64_t iGen;
  int fd;

  if (t->iId <= 0) {
    snprintf(zErr, nErr, "table \"%s\" has not been created", t->zName);
    return -1;
  }
  if (pCat->nPending == pCat->nPendingAlloc) {
    int nNew = pCat->nPendingAlloc ? 2 * pCat->nPendingAlloc : 4;
    aNew = realloc(pCat->aPending, (size_t)nNew * sizeof(*aNew));
    if (aNew == NULL) return cat__oom(zErr, nErr);
    pCat->aPending = aNew;
    pCat->nPendingAlloc = nNew;
  }
  if (gen_number_take(pCat, t, &iGen, zErr, nErr) != 0) return -1;
  if (cat__gen_dir(pCat, t->iId, 0, zTableDir, sizeof(zTableDir), zErr, nErr) != 0 ||
      cat__gen_dir(pCat, t->iId, iGen, zDir, sizeof(zDir), zErr, nErr) != 0) {
    return -1;
  }
  if (mkdir(zTableDir, 0777) != 0 && errno != EEXIST) {
    snprintf(zErr, nErr, "mkdir %s: %s", zTableDir, strerror(errno));
    return -1;
  }
  /* EEXIST too is an error: the number is new, so the directory is not ours. */
  if (mkdir(zDir, 0777) != 0) {
    snprintf(zErr, nErr, "mkdir %s: %s", zDir, strerror(errno));
    return -1;
  }
  fd = open(zDir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    snprintf(zErr, nErr, "open %s: %s", zDir, strerror(errno));
    goto out_rmdir;
  }
  if (flock(fd, LOCK_EX) != 0) {
    snprintf(zErr, nErr, "flock %s: %s", zDir, strerror(errno));
    goto out_close;
  }
  /* Between mkdir and flock another handle's sweep may have taken the
  ** unlocked directory for an orphan and removed it. */
  if (fstat(fd, &st) != 0 || st.st_nlink == 0) {
    snprintf(zErr, nErr, "%s was removed by another cat_open() as it was made; try again",
             zDir);
    goto out_close;
  }
  pCat->aPending[pCat->nPending].iTable = t->iId;
  pCat->aPending[pCat->nPending].iGen = iGen;
  pCat->aPending[pCat->nPending].fd = fd;
  pCat->nPending++;
  *piGen = iGen;
  return 0;
out_close:
  close(fd);
out_rmdir:
  (void)fsdir_remove(zDir);
  return -1;
}

/* ---- commit --------------------------------------------------------------- */

/* Checks that aStats fit the columns of t and a generation of nRow rows. */
static int gen_stats_check(const cat_table *t, int64_t nRow, const col_stats *aStats,
                           char *zErr, size_t nErr) {
  if (nRow < 0) {
    snprintf(zErr, nErr, "a generation cannot hold %lld rows", (long long)nRow);
    return -1;
  }
  if (aStats == NULL) {
    snprintf(zErr, nErr, "table \"%s\": no statistics given", t->zName);
    return -1;
  }
  for (int i = 0; i < t->nCol; i++) {
    const col_stats *s = &aStats[i];
    const cat_column *c = &t->aCol[i];
    if (s->type.eId != c->type.eId) {
      char zType[64], zStats[64];
      snprintf(zErr, nErr, "statistics of column \"%s\" are for type %s, not %s", c->zName,
               coltype_format(s->type, zStats, sizeof(zStats)),
               coltype_format(c->type, zType, sizeof(zType)));
      return -1;
    }
    if (s->nRow != nRow) {
      snprintf(zErr, nErr,
               "statistics of column \"%s\" count %lld rows, but the generation holds %lld",
               c->zName, (long long)s->nRow, (long long)nRow);
      return -1;
    }
    if (s->nNull < 0 || s->nNull > s->nRow || s->nDistinct < 0) {
      snprintf(zErr, nErr, "statistics of column \"%s\" are inconsistent (%lld NULLs, "
               "%lld distinct, %lld rows)", c->zName, (long long)s->nNull,
               (long long)s->nDistinct, (long long)s->nRow);
      return -1;
    }
    if (s->nFreq > 0 && s->aFreq == NULL) {
      snprintf(zErr, nErr, "statistics of column \"%s\" have %llu frequencies but no array",
               c->zName, (unsigned long long)s->nFreq);
      return -1;
    }
  }
  return 0;
}

/* fsyncs what makes generation iGen reachable: its directory (the file
** entries), DATA/t<id> (its entry) and DATA (that of t<id>). */
static int gen_sync(cat *pCat, int fd, const char *zDir, const char *zTableDir, char *zErr,
                    size_t nErr) {
  if (fsync(fd) != 0) {
    snprintf(zErr, nErr, "fsync %s: %s", zDir, strerror(errno));
    return -1;
  }
  if (cat__fsync_dir(zTableDir, zErr, nErr) != 0) return -1;
  return cat__fsync_dir(pCat->zDataDir, zErr, nErr);
}

/* The commit transaction. Sets *piOldGen to the generation it replaced. */
static int gen_switch(cat *pCat, const cat_table *t, int64_t iGen, int64_t nRow,
                      const char *zLocation, const col_stats *aStats, int64_t *piOldGen,
                      char *zErr, size_t nErr) {
  static const char zUpdate[] =
      "UPDATE tables SET location = ?2, generation = ?3, row_count = ?4"
      " WHERE id = ?1 AND (SELECT count(*) FROM columns WHERE table_id = ?1) = ?5";
  sqlite3_stmt *pStmt = NULL;
  int64_t iCurrent;
  int bExists, rc = SQLITE_OK;

  if (cat__begin_write(pCat, zErr, nErr) != 0) return -1;
  if (cat__table_gen(pCat, t->iId, &bExists, &iCurrent, zErr, nErr) != 0) goto out_rollback;
  if (!bExists) {
    snprintf(zErr, nErr, "table \"%s\" no longer exists", t->zName);
    goto out_rollback;
  }
  if (iCurrent != t->iGen) {
    snprintf(zErr, nErr,
             "table \"%s\" was loaded by someone else since it was read (generation %lld, "
             "not %lld); read it again and repeat the load", t->zName, (long long)iCurrent,
             (long long)t->iGen);
    goto out_rollback;
  }

  if (cat__prepare(pCat, zUpdate, &pStmt, zErr, nErr) != 0) goto out_rollback;
  cat__bind_int64(pStmt, 1, t->iId, &rc);
  cat__bind_text(pStmt, 2, zLocation, &rc);
  cat__bind_int64(pStmt, 3, iGen, &rc);
  cat__bind_int64(pStmt, 4, nRow, &rc);
  cat__bind_int64(pStmt, 5, t->nCol, &rc);
  if (rc != SQLITE_OK) {
    cat__error(pCat, "bind", zErr, nErr);
    goto out_finalize;
  }
  if (cat__step(pCat, pStmt, zErr, nErr) < 0) goto out_finalize;
  if (sqlite3_changes(pCat->db) != 1) {
    snprintf(zErr, nErr, "table \"%s\" has a different number of columns in the catalog "
             "than the %d given", t->zName, t->nCol);
    goto out_finalize;
  }
  sqlite3_finalize(pStmt);

  if (cat__prepare(pCat, "DELETE FROM column_stats WHERE table_id = ?1", &pStmt, zErr,
                   nErr) != 0) {
    goto out_rollback;
  }
  cat__bind_int64(pStmt, 1, t->iId, &rc);
  if (rc != SQLITE_OK) {
    cat__error(pCat, "bind", zErr, nErr);
    goto out_finalize;
  }
  if (cat__step(pCat, pStmt, zErr, nErr) < 0) goto out_finalize;
  sqlite3_finalize(pStmt);

  if (cat__prepare(pCat, cat__zStatsInsert, &pStmt, zErr, nErr) != 0) goto out_rollback;
  for (int i = 0; i < t->nCol; i++) {
    if (cat__stats_insert(pCat, pStmt, t->iId, i, &aStats[i], zErr, nErr) != 0) {
      goto out_finalize;
    }
  }
  sqlite3_finalize(pStmt);
  if (cat__commit(pCat, zErr, nErr) != 0) goto out_rollback;
  *piOldGen = iCurrent;
  return 0;
out_finalize:
  sqlite3_finalize(pStmt);
out_rollback:
  cat__rollback(pCat);
  return -1;
}

int cat_gen_commit(cat *pCat, cat_table *t, int64_t iGen, int64_t nRow,
                   const col_stats *aStats, char *zErr, size_t nErr) {
  char zTableDir[4096], zDir[4096], zLocation[64];
  char *zNewLocation;
  int64_t iOldGen;
  int i = gen_pending_find(pCat, t->iId, iGen);

  if (i < 0) {
    snprintf(zErr, nErr, "generation %lld of table \"%s\" was not begun by this catalog handle",
             (long long)iGen, t->zName);
    return -1;
  }
  if (gen_stats_check(t, nRow, aStats, zErr, nErr) != 0) return -1;
  if (cat__gen_dir(pCat, t->iId, 0, zTableDir, sizeof(zTableDir), zErr, nErr) != 0 ||
      cat__gen_dir(pCat, t->iId, iGen, zDir, sizeof(zDir), zErr, nErr) != 0) {
    return -1;
  }
  snprintf(zLocation, sizeof(zLocation), "t%lld/g%lld", (long long)t->iId, (long long)iGen);
  /* Allocated first: after the commit nothing may fail. */
  zNewLocation = strdup(zLocation);
  if (zNewLocation == NULL) return cat__oom(zErr, nErr);

  if (gen_sync(pCat, pCat->aPending[i].fd, zDir, zTableDir, zErr, nErr) != 0 ||
      gen_switch(pCat, t, iGen, nRow, zLocation, aStats, &iOldGen, zErr, nErr) != 0) {
    free(zNewLocation);
    return -1;
  }

  /* Committed. The lock goes only now, so a sweep that takes it sees the
  ** generation as current. */
  gen_pending_release(pCat, i);
  if (iOldGen != 0 && iOldGen != iGen) {
    char zOld[4096], zIgnored[64];
    if (cat__gen_dir(pCat, t->iId, iOldGen, zOld, sizeof(zOld), zIgnored,
                     sizeof(zIgnored)) == 0) {
      (void)fsdir_remove(zOld);   /* what stays, the next open sweeps */
    }
  }
  free(t->zLocation);
  t->zLocation = zNewLocation;
  t->iGen = iGen;
  t->nRow = nRow;
  return 0;
}

/* ---- abort ---------------------------------------------------------------- */

void cat_gen_abort(cat *pCat, const cat_table *t, int64_t iGen) {
  char zDir[4096], zIgnored[64];
  int i = gen_pending_find(pCat, t->iId, iGen);
  if (i < 0) return;   /* not ours: never remove what might be current */
  gen_pending_release(pCat, i);
  if (cat__gen_dir(pCat, t->iId, iGen, zDir, sizeof(zDir), zIgnored, sizeof(zIgnored)) == 0) {
    (void)fsdir_remove(zDir);
  }
}
