/*
** catalog/catalog.c — opening and closing a catalog: the SQLite connection
** and its settings, recognising a starq catalog, and upgrading its schema.
** Also the small SQLite helpers the other files of catalog/ use so that
** every return code is checked and every failure reads the same way.
**
** A starq catalog is marked in the SQLite header itself: application_id
** holds CAT_APPLICATION_ID and user_version the schema version. An empty
** file (or none) is a catalog at version 0. Anything else — a file SQLite
** cannot read, or a database of some other application — is refused
** before a single byte of it is written: the WAL switch and the migration
** come after the check.
**
** Migrations: cat_aMigration[i] is the SQL that upgrades version i to
** i + 1. Every step an open needs runs in one IMMEDIATE transaction with
** the version bump, so a catalog is at one version or the next, never
** between. Adding a version is one more entry and CAT_SCHEMA_VERSION + 1.
**
** INTERFACE ROUTINES
**   cat_open, cat_close, cat_data_dir
**   cat__error ... cat__rollback   (catalogInt.h) SQLite helpers
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/fsdir.h"
#include "catalogInt.h"

/* "STRQ": the header mark of a starq catalog (PRAGMA application_id). */
#define CAT_APPLICATION_ID 0x53545251

/* How long a statement waits for another connection's lock, in ms. Loads
** hold the write lock only for their short commit transaction. */
#define CAT_BUSY_TIMEOUT_MS 10000

/* ---- the schema, one step per version ---------------------------------- */

/* Names are case-insensitive (COLLATE NOCASE, ASCII folding, the same as
** cat_table_column()). Ids come from AUTOINCREMENT so a dropped table's id,
** and with it its directory name, is never given to another table. Keys are
** checked by SQLite too: a foreign key's i-th column must reference the
** i-th primary key column of its table (fkey_columns → pkey_columns). */
static const char *const cat_aMigration[] = {
  /* 0 → 1 */
  "CREATE TABLE tables(\n"
  "  id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
  "  name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (name <> ''),\n"
  "  location TEXT,\n"                      /* 't<id>/g<gen>' under DATA */
  "  generation INTEGER NOT NULL DEFAULT 0 CHECK (generation >= 0),\n"
  "  row_count INTEGER NOT NULL DEFAULT 0 CHECK (row_count >= 0),\n"
  "  next_generation INTEGER NOT NULL DEFAULT 1,\n"
  "  CHECK (next_generation > generation),\n"
  "  CHECK ((generation = 0) = (location IS NULL)),\n"
  "  CHECK (location IS NULL OR location = 't' || id || '/g' || generation)\n"
  ") STRICT;\n"
  "CREATE TABLE columns(\n"
  "  table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,\n"
  "  ordinal INTEGER NOT NULL CHECK (ordinal >= 0),\n"
  "  name TEXT NOT NULL COLLATE NOCASE CHECK (name <> ''),\n"
  "  type_id INTEGER NOT NULL,\n"
  "  type_length INTEGER NOT NULL,\n"
  "  type_precision INTEGER NOT NULL,\n"
  "  type_scale INTEGER NOT NULL,\n"
  "  not_null INTEGER NOT NULL CHECK (not_null IN (0, 1)),\n"
  "  PRIMARY KEY (table_id, ordinal),\n"
  "  UNIQUE (table_id, name)\n"
  ") STRICT;\n"
  "CREATE TABLE pkey_columns(\n"
  "  table_id INTEGER NOT NULL,\n"
  "  position INTEGER NOT NULL CHECK (position >= 0),\n"
  "  ordinal INTEGER NOT NULL,\n"
  "  PRIMARY KEY (table_id, position),\n"
  "  UNIQUE (table_id, ordinal),\n"
  "  UNIQUE (table_id, position, ordinal),\n"
  "  FOREIGN KEY (table_id, ordinal) REFERENCES columns(table_id, ordinal)\n"
  "    ON DELETE CASCADE\n"
  ") STRICT;\n"
  "CREATE TABLE fkeys(\n"
  "  table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,\n"
  "  position INTEGER NOT NULL CHECK (position >= 0),\n"
  "  ref_table_id INTEGER NOT NULL REFERENCES tables(id),\n"
  "  PRIMARY KEY (table_id, position),\n"
  "  UNIQUE (table_id, position, ref_table_id)\n"
  ") STRICT;\n"
  "CREATE INDEX fkeys_ref ON fkeys(ref_table_id);\n"
  "CREATE TABLE fkey_columns(\n"
  "  table_id INTEGER NOT NULL,\n"
  "  fkey_position INTEGER NOT NULL,\n"
  "  position INTEGER NOT NULL CHECK (position >= 0),\n"
  "  ordinal INTEGER NOT NULL,\n"
  "  ref_table_id INTEGER NOT NULL,\n"
  "  ref_ordinal INTEGER NOT NULL,\n"
  "  PRIMARY KEY (table_id, fkey_position, position),\n"
  "  FOREIGN KEY (table_id, fkey_position, ref_table_id)\n"
  "    REFERENCES fkeys(table_id, position, ref_table_id) ON DELETE CASCADE,\n"
  "  FOREIGN KEY (table_id, ordinal) REFERENCES columns(table_id, ordinal)\n"
  "    ON DELETE CASCADE,\n"
  "  FOREIGN KEY (ref_table_id, position, ref_ordinal)\n"
  "    REFERENCES pkey_columns(table_id, position, ordinal)\n"
  ") STRICT;\n"
  "CREATE INDEX fkey_columns_col ON fkey_columns(table_id, ordinal);\n"
  "CREATE INDEX fkey_columns_ref ON fkey_columns(ref_table_id, position, ref_ordinal);\n"
  /* min/max are ANY: INTEGER for integer-like types and string codes, REAL
  ** for DOUBLE, NULL when no value was seen (has_minmax = 0). */
  "CREATE TABLE column_stats(\n"
  "  table_id INTEGER NOT NULL,\n"
  "  ordinal INTEGER NOT NULL,\n"
  "  row_count INTEGER NOT NULL CHECK (row_count >= 0),\n"
  "  null_count INTEGER NOT NULL CHECK (null_count BETWEEN 0 AND row_count),\n"
  "  has_minmax INTEGER NOT NULL CHECK (has_minmax IN (0, 1)),\n"
  "  min_value ANY,\n"
  "  max_value ANY,\n"
  "  distinct_count INTEGER NOT NULL CHECK (distinct_count >= 0),\n"
  "  exact INTEGER NOT NULL CHECK (exact IN (0, 1)),\n"
  "  hll BLOB,\n"                           /* HyperLogLog registers */
  "  freq BLOB,\n"                          /* strings: u64 LE per code */
  "  PRIMARY KEY (table_id, ordinal),\n"
  "  FOREIGN KEY (table_id, ordinal) REFERENCES columns(table_id, ordinal)\n"
  "    ON DELETE CASCADE\n"
  ") STRICT;\n",

  /* 1 → 2: the optimizer's calibration constants, per device (dropped
  ** again by 3 → 4). */
  "CREATE TABLE calibration(\n"
  "  device TEXT NOT NULL CHECK (device <> ''),\n"
  "  name TEXT NOT NULL CHECK (name <> ''),\n"
  "  value REAL NOT NULL CHECK (abs(value) < 9e999),\n"
  "  measured_at TEXT NOT NULL CHECK (measured_at GLOB\n"
  "    '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'),\n"
  "  PRIMARY KEY (device, name)\n"
  ") STRICT;\n",

  /* 2 → 3: runs of equal adjacent values in storage order (storage/stats.h
  ** nRun), which the optimizer reads as how clustered a filter's rows are.
  ** NULL: not counted (statistics stored before version 3). */
  ("ALTER TABLE column_stats ADD COLUMN run_count INTEGER\n"
   "  CHECK (run_count IS NULL OR run_count BETWEEN 0 AND row_count);\n"),

  /* 3 → 4: the calibration table goes, with any rows it holds: the cost
  ** model plans with its defaults (planner/model.c), and no program
  ** measures or stores constants. */
  "DROP TABLE IF EXISTS calibration;\n",
};

_Static_assert(sizeof(cat_aMigration) / sizeof(cat_aMigration[0]) == CAT_SCHEMA_VERSION,
               "one migration step per schema version");

/* ---- SQLite helpers ------------------------------------------------------ */

int cat__error(cat *pCat, const char *zCall, char *zErr, size_t nErr) {
  snprintf(zErr, nErr, "catalog %s: %s: %s", pCat->zDbPath, zCall, sqlite3_errmsg(pCat->db));
  return -1;
}

int cat__oom(char *zErr, size_t nErr) {
  snprintf(zErr, nErr, "out of memory");
  return -1;
}

int cat__prepare(cat *pCat, const char *zSql, sqlite3_stmt **ppStmt, char *zErr,
                 size_t nErr) {
  if (sqlite3_prepare_v2(pCat->db, zSql, -1, ppStmt, NULL) != SQLITE_OK) {
    *ppStmt = NULL;
    return cat__error(pCat, "prepare", zErr, nErr);
  }
  return 0;
}

/* Returns SQLITE_ROW or SQLITE_DONE, or -1 with zErr set. */
int cat__step(cat *pCat, sqlite3_stmt *pStmt, char *zErr, size_t nErr) {
  int rc = sqlite3_step(pStmt);
  if (rc == SQLITE_ROW || rc == SQLITE_DONE) return rc;
  return cat__error(pCat, "step", zErr, nErr);
}

/* Readies a statement for its next bindings. Returns 0 or -1. */
int cat__reset(cat *pCat, sqlite3_stmt *pStmt, char *zErr, size_t nErr) {
  if (sqlite3_reset(pStmt) != SQLITE_OK) return cat__error(pCat, "reset", zErr, nErr);
  if (sqlite3_clear_bindings(pStmt) != SQLITE_OK) {
    return cat__error(pCat, "clear bindings", zErr, nErr);
  }
  return 0;
}

int cat__run_bound(cat *pCat, sqlite3_stmt *pStmt, int rcBind, char *zErr, size_t nErr) {
  if (rcBind == SQLITE_NOMEM) return cat__oom(zErr, nErr);
  if (rcBind != SQLITE_OK) return cat__error(pCat, "bind", zErr, nErr);
  if (cat__step(pCat, pStmt, zErr, nErr) < 0) return -1;
  return cat__reset(pCat, pStmt, zErr, nErr);
}

/* Runs SQL without parameters (a script, a PRAGMA, BEGIN). Never given
** values from outside: those are bound through cat__prepare(). */
int cat__exec(cat *pCat, const char *zSql, char *zErr, size_t nErr) {
  if (sqlite3_exec(pCat->db, zSql, NULL, NULL, NULL) != SQLITE_OK) {
    char zCall[64];
    snprintf(zCall, sizeof(zCall), "%.40s", zSql);
    return cat__error(pCat, zCall, zErr, nErr);
  }
  return 0;
}

/* IMMEDIATE takes the write lock at once, so what a transaction reads to
** decide on its writes cannot change under it (and no deadlock can arise
** from upgrading a read lock). */
int cat__begin_write(cat *pCat, char *zErr, size_t nErr) {
  pCat->iWriteSeq++;      /* whatever it writes, cached definitions may be stale */
  return cat__exec(pCat, "BEGIN IMMEDIATE", zErr, nErr);
}

/* A read transaction: one consistent snapshot across several statements. */
int cat__begin_read(cat *pCat, char *zErr, size_t nErr) {
  return cat__exec(pCat, "BEGIN", zErr, nErr);
}

int cat__commit(cat *pCat, char *zErr, size_t nErr) {
  return cat__exec(pCat, "COMMIT", zErr, nErr);
}

/* Ends an open transaction, if any, undoing it. Called on error paths,
** where the first error is the one to report. Some errors (I/O, full
** disk) have already rolled back, hence the autocommit test. A failing
** ROLLBACK is not reported: there is nothing more to do, and SQLite rolls
** back what is left when the connection closes. */
void cat__rollback(cat *pCat) {
  if (sqlite3_get_autocommit(pCat->db)) return;
  (void)sqlite3_exec(pCat->db, "ROLLBACK", NULL, NULL, NULL);
}

void cat__bind_int64(sqlite3_stmt *pStmt, int iParam, int64_t v, int *pRc) {
  if (*pRc == SQLITE_OK) *pRc = sqlite3_bind_int64(pStmt, iParam, (sqlite3_int64)v);
}

void cat__bind_text(sqlite3_stmt *pStmt, int iParam, const char *z, int *pRc) {
  if (*pRc == SQLITE_OK) *pRc = sqlite3_bind_text(pStmt, iParam, z, -1, SQLITE_STATIC);
}

void cat__bind_null(sqlite3_stmt *pStmt, int iParam, int *pRc) {
  if (*pRc == SQLITE_OK) *pRc = sqlite3_bind_null(pStmt, iParam);
}

int cat__prepare_text(cat *pCat, const char *zSql, const char *zText,
                      sqlite3_stmt **ppStmt, char *zErr, size_t nErr) {
  int rc = SQLITE_OK;
  if (cat__prepare(pCat, zSql, ppStmt, zErr, nErr) != 0) return -1;
  cat__bind_text(*ppStmt, 1, zText, &rc);
  if (rc != SQLITE_OK) {
    cat__error(pCat, "bind", zErr, nErr);
    sqlite3_finalize(*ppStmt);
    *ppStmt = NULL;
    return -1;
  }
  return 0;
}

int cat__bind_id(cat *pCat, sqlite3_stmt *pStmt, int64_t iId, char *zErr, size_t nErr) {
  int rc = SQLITE_OK;
  cat__bind_int64(pStmt, 1, iId, &rc);
  return rc == SQLITE_OK ? 0 : cat__error(pCat, "bind", zErr, nErr);
}

const char *cat__column_text(sqlite3_stmt *pStmt, int iCol) {
  const unsigned char *z = sqlite3_column_text(pStmt, iCol);
  return z != NULL ? (const char *)z : "";
}

int cat__table_gen(cat *pCat, int64_t iTable, int *pbExists, int64_t *piGen,
                   char *zErr, size_t nErr) {
  sqlite3_stmt *pStmt;
  int r;
  if (cat__prepare(pCat, "SELECT generation FROM tables WHERE id = ?1", &pStmt, zErr,
                   nErr) != 0) {
    return -1;
  }
  if (cat__bind_id(pCat, pStmt, iTable, zErr, nErr) != 0) goto out_finalize;
  if ((r = cat__step(pCat, pStmt, zErr, nErr)) < 0) goto out_finalize;
  *pbExists = (r == SQLITE_ROW);
  *piGen = (r == SQLITE_ROW) ? (int64_t)sqlite3_column_int64(pStmt, 0) : 0;
  sqlite3_finalize(pStmt);
  return 0;
out_finalize:
  sqlite3_finalize(pStmt);
  return -1;
}

/* ---- recognising and upgrading a catalog --------------------------------- */

/* Reads one integer a PRAGMA returns into *pv. */
static int cat_pragma_int(cat *pCat, const char *zPragma, int64_t *pv, char *zErr,
                          size_t nErr) {
  sqlite3_stmt *pStmt;
  int r;
  if (cat__prepare(pCat, zPragma, &pStmt, zErr, nErr) != 0) return -1;
  r = cat__step(pCat, pStmt, zErr, nErr);
  if (r == SQLITE_ROW) *pv = (int64_t)sqlite3_column_int64(pStmt, 0);
  sqlite3_finalize(pStmt);
  if (r == SQLITE_DONE) {
    snprintf(zErr, nErr, "catalog %s: %s returned nothing", pCat->zDbPath, zPragma);
  }
  return r == SQLITE_ROW ? 0 : -1;
}

/* Decides what the file is, touching nothing. Sets *piVersion to the
** schema version of a starq catalog, 0 for an empty database. Returns 0,
** or -1 with zErr saying what the file is instead. */
static int cat_version_read(cat *pCat, int64_t *piVersion, char *zErr, size_t nErr) {
  int64_t iAppId, iVersion, nObject;

  if (cat_pragma_int(pCat, "PRAGMA application_id", &iAppId, zErr, nErr) != 0 ||
      cat_pragma_int(pCat, "PRAGMA user_version", &iVersion, zErr, nErr) != 0 ||
      cat_pragma_int(pCat, "SELECT count(*) FROM sqlite_master", &nObject, zErr,
                     nErr) != 0) {
    if ((sqlite3_errcode(pCat->db) & 0xff) == SQLITE_NOTADB) {
      snprintf(zErr, nErr, "catalog %s is not a starq catalog: %s", pCat->zDbPath,
               sqlite3_errmsg(pCat->db));
    }
    return -1;
  }
  if (iAppId == 0 && iVersion == 0 && nObject == 0) {
    *piVersion = 0;
    return 0;
  }
  if (iAppId != CAT_APPLICATION_ID || iVersion <= 0) {
    snprintf(zErr, nErr,
             "catalog %s is not a starq catalog: it is a SQLite database of another "
             "application (application_id %lld, user_version %lld, %lld schema objects)",
             pCat->zDbPath, (long long)iAppId, (long long)iVersion, (long long)nObject);
    return -1;
  }
  if (iVersion > CAT_SCHEMA_VERSION) {
    snprintf(zErr, nErr,
             "catalog %s has schema version %lld, newer than version %d that this "
             "build of starq reads; use a newer starq",
             pCat->zDbPath, (long long)iVersion, CAT_SCHEMA_VERSION);
    return -1;
  }
  *piVersion = iVersion;
  return 0;
}

/* Sets the connection up for a catalog: WAL (readers never block the one
** writer), synchronous=FULL (a load's commit is its durability point),
** enforced foreign keys. Changes the file (WAL), so runs after the check. */
static int cat_connection_setup(cat *pCat, char *zErr, size_t nErr) {
  sqlite3_stmt *pStmt;
  int64_t bFkeys = 0;
  int r, bWal;

  if (cat__prepare(pCat, "PRAGMA journal_mode=WAL", &pStmt, zErr, nErr) != 0) return -1;
  if ((r = cat__step(pCat, pStmt, zErr, nErr)) < 0) {
    sqlite3_finalize(pStmt);
    return -1;
  }
  bWal = r == SQLITE_ROW && sqlite3_column_text(pStmt, 0) != NULL &&
         strcmp((const char *)sqlite3_column_text(pStmt, 0), "wal") == 0;
  sqlite3_finalize(pStmt);
  if (!bWal) {
    snprintf(zErr, nErr, "catalog %s: PRAGMA journal_mode=WAL: not switched to WAL",
             pCat->zDbPath);
    return -1;
  }
  if (cat__exec(pCat, "PRAGMA synchronous=FULL", zErr, nErr) != 0 ||
      cat__exec(pCat, "PRAGMA foreign_keys=ON", zErr, nErr) != 0 ||
      cat_pragma_int(pCat, "PRAGMA foreign_keys", &bFkeys, zErr, nErr) != 0) {
    return -1;
  }
  if (bFkeys != 1) {
    snprintf(zErr, nErr, "catalog %s: this SQLite does not enforce foreign keys",
             pCat->zDbPath);
    return -1;
  }
  return 0;
}

/* Upgrades the schema from iVersion to CAT_SCHEMA_VERSION in one
** transaction. Another process may have upgraded it since the check, so
** the version is read again under the write lock. */
static int cat_migrate(cat *pCat, int64_t iVersion, char *zErr, size_t nErr) {
  char zSql[96];

  if (iVersion == CAT_SCHEMA_VERSION) return 0;
  if (cat__begin_write(pCat, zErr, nErr) != 0) return -1;
  if (cat_version_read(pCat, &iVersion, zErr, nErr) != 0) goto out_rollback;
  for (int64_t i = iVersion; i < CAT_SCHEMA_VERSION; i++) {
    if (cat__exec(pCat, cat_aMigration[i], zErr, nErr) != 0) goto out_rollback;
  }
  /* PRAGMAs take no bound parameters; both numbers are this build's own. */
  snprintf(zSql, sizeof(zSql), "PRAGMA application_id=%d; PRAGMA user_version=%d",
           CAT_APPLICATION_ID, CAT_SCHEMA_VERSION);
  if (cat__exec(pCat, zSql, zErr, nErr) != 0) goto out_rollback;
  if (cat__commit(pCat, zErr, nErr) != 0) goto out_rollback;
  return 0;
out_rollback:
  cat__rollback(pCat);
  return -1;
}

/* ---- open and close ------------------------------------------------------ */

int cat_open(cat **ppCat, const char *zDataDir, char *zErr, size_t nErr) {
  cat *pCat;
  struct stat st;
  size_t n;
  int64_t iVersion;
  int bNew;

  *ppCat = NULL;
  if (zDataDir == NULL || zDataDir[0] == 0) {
    snprintf(zErr, nErr, "a data directory needs a path");
    return -1;
  }
  pCat = calloc(1, sizeof(*pCat));
  if (pCat == NULL) return cat__oom(zErr, nErr);
  n = strlen(zDataDir);
  pCat->zDataDir = strdup(zDataDir);
  pCat->zDbPath = malloc(n + sizeof("/catalog.db"));
  if (pCat->zDataDir == NULL || pCat->zDbPath == NULL) {
    cat__oom(zErr, nErr);
    goto out_free;
  }
  snprintf(pCat->zDbPath, n + sizeof("/catalog.db"), "%s/catalog.db", zDataDir);
  if (fsdir_mkdir_p(zDataDir, zErr, nErr) != 0) goto out_free;

  if (stat(pCat->zDbPath, &st) == 0) {
    if (!S_ISREG(st.st_mode)) {
      snprintf(zErr, nErr, "catalog %s is not a regular file", pCat->zDbPath);
      goto out_free;
    }
    bNew = 0;
  } else if (errno == ENOENT) {
    bNew = 1;
  } else {
    snprintf(zErr, nErr, "stat %s: %s", pCat->zDbPath, strerror(errno));
    goto out_free;
  }

  if (sqlite3_open_v2(pCat->zDbPath, &pCat->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                      NULL) != SQLITE_OK) {
    if (pCat->db == NULL) {
      cat__oom(zErr, nErr);
      goto out_free;
    }
    cat__error(pCat, "open", zErr, nErr);
    goto out_close;
  }
  if (sqlite3_extended_result_codes(pCat->db, 1) != SQLITE_OK ||
      sqlite3_busy_timeout(pCat->db, CAT_BUSY_TIMEOUT_MS) != SQLITE_OK) {
    cat__error(pCat, "configure", zErr, nErr);
    goto out_close;
  }
  if (cat_version_read(pCat, &iVersion, zErr, nErr) != 0) goto out_close;
  if (cat_connection_setup(pCat, zErr, nErr) != 0) goto out_close;
  if (cat_migrate(pCat, iVersion, zErr, nErr) != 0) goto out_close;
  /* The new file's directory entry must outlive a crash as the catalog does. */
  if (bNew && cat__fsync_dir(zDataDir, zErr, nErr) != 0) goto out_close;
  if (cat__sweep(pCat, zErr, nErr) != 0) goto out_close;
  *ppCat = pCat;
  return 0;

out_close:
  /* Nothing is prepared at this point, so close cannot be refused. */
  sqlite3_close(pCat->db);
out_free:
  free(pCat->zDbPath);
  free(pCat->zDataDir);
  free(pCat);
  return -1;
}

void cat_close(cat *pCat) {
  if (pCat == NULL) return;
  cat__pending_abort_all(pCat);
  cat__cache_free(pCat);
  sqlite3_finalize(pCat->pDataVersion);
  /* Every statement is finalized where it is used, so close does not fail
  ** with SQLITE_BUSY; there is no caller to tell if it did. */
  sqlite3_close(pCat->db);
  free(pCat->aPending);
  free(pCat->zDbPath);
  free(pCat->zDataDir);
  free(pCat);
}

const char *cat_data_dir(const cat *pCat) {
  return pCat->zDataDir;
}
