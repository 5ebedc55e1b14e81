/*
** catalog/catalogInt.h — what the files of catalog/ share and nothing
** outside catalog/ may use: the cat handle itself, SQLite helpers that turn
** every failure into "catalog PATH: CALL: message", and the directory
** helpers that generations and the orphan sweep are built from.
**
** Files of catalog/:
**   catalog.c   open and close, schema check, migrations, SQLite helpers
**   files.c     directories: create, fsync, remove; the orphan sweep;
**               cat_file_path
**   tabledef.c  building and freeing cat_table definitions in memory
**   table.c     creating and dropping tables
**   tableread.c reading definitions back, listing names
**   cache.c     table definitions, column statistics and values files'
**               headers kept in memory between reads
**   gen.c       generations: begin, commit, abort
**   stats.c     column statistics to and from rows
*/
#ifndef STARQ_CATALOG_INT_H
#define STARQ_CATALOG_INT_H

#include <sqlite3.h>

#include "catalog.h"

/* A generation begun with cat_gen_begin() and not yet committed or
** aborted. Its directory stays open with an exclusive flock() on it: that
** is how the orphan sweep of another cat_open() (in this process or any
** other) tells a generation being written from one a crash left behind.
** The kernel drops the lock when the process dies, so a crashed load's
** directory is swept by the next open. */
typedef struct cat_pending cat_pending;
struct cat_pending {
  int64_t iTable;          /* table id */
  int64_t iGen;            /* generation number */
  int fd;                  /* the generation's directory, flock()ed */
};

/* One column's statistics in the cache (cache.c). */
typedef struct cat_stats_entry cat_stats_entry;
struct cat_stats_entry {
  int64_t iTable;          /* table id */
  int iCol;                /* column ordinal */
  col_stats s;             /* owned: stats_free() when the cache is cleared */
};

/* What the header of one values file says (cache.c). */
typedef struct cat_info_entry cat_info_entry;
struct cat_info_entry {
  int64_t iTable;          /* table id */
  int64_t iGen;            /* generation */
  int iCol;                /* column ordinal */
  store_enc eEnc;
  uint64_t nPayload;
};

/* An open catalog. Owned by its opener; one thread at a time. */
struct cat {
  sqlite3 *db;             /* the connection; owned */
  char *zDataDir;          /* the data directory as given; owned */
  char *zDbPath;           /* zDataDir/catalog.db, for messages; owned */
  cat_pending *aPending;   /* generations begun by this handle; owned */
  int nPending;
  int nPendingAlloc;
  /* The definition cache (cache.c). Valid while neither this handle has
  ** begun a write nor another connection has committed since it was
  ** filled; SQLite's data_version tells the latter. */
  cat_table **apCache;     /* cached definitions; owned */
  int nCache;
  int nCacheAlloc;
  cat_stats_entry *aStats; /* cached column statistics (cache.c); owned */
  int nStats;
  int nStatsAlloc;
  cat_info_entry *aInfo;   /* cached headers of values files (cache.c); owned */
  int nInfo;
  int nInfoAlloc;
  int bHold;               /* cat_cache_hold(): the cache was checked for this
                           ** statement, data_version is not read again */
  sqlite3_stmt *pDataVersion;  /* PRAGMA data_version, kept prepared; owned */
  int64_t iDataVersion;    /* data_version when the cache was last valid */
  uint64_t iWriteSeq;      /* write transactions begun by this handle */
  uint64_t iCacheWriteSeq; /* iWriteSeq when the cache was last valid */
  uint64_t iCacheGen;      /* bumped each time the cache is emptied
                           ** (cat_cache_generation) */
};

/* ---- catalog.c: SQLite helpers -----------------------------------------
** Every helper that can fail writes "catalog PATH: CALL: sqlite message"
** into zErr and returns -1, so callers only jump to their cleanup label.
** The result of sqlite3_finalize() is not looked at: it only repeats the
** error of the statement's last step, which cat__step() has reported. */
int cat__error(cat *pCat, const char *zCall, char *zErr, size_t nErr);
int cat__oom(char *zErr, size_t nErr);
int cat__prepare(cat *pCat, const char *zSql, sqlite3_stmt **ppStmt, char *zErr,
                 size_t nErr);
int cat__step(cat *pCat, sqlite3_stmt *pStmt, char *zErr, size_t nErr);
int cat__reset(cat *pCat, sqlite3_stmt *pStmt, char *zErr, size_t nErr);
int cat__exec(cat *pCat, const char *zSql, char *zErr, size_t nErr);
int cat__begin_write(cat *pCat, char *zErr, size_t nErr);
int cat__begin_read(cat *pCat, char *zErr, size_t nErr);
int cat__commit(cat *pCat, char *zErr, size_t nErr);
void cat__rollback(cat *pCat);

/* Binding: each does nothing once *pRc is not SQLITE_OK, so a run of
** binds is checked once, after the last. */
void cat__bind_int64(sqlite3_stmt *pStmt, int iParam, int64_t v, int *pRc);
void cat__bind_text(sqlite3_stmt *pStmt, int iParam, const char *z, int *pRc);
void cat__bind_null(sqlite3_stmt *pStmt, int iParam, int *pRc);
/* Runs pStmt once, its parameters bound with result rcBind (the *pRc of
** the binds above: SQLITE_NOMEM when a bind ran out of memory), then
** readies it for its next bindings. Returns 0 or -1. */
int cat__run_bound(cat *pCat, sqlite3_stmt *pStmt, int rcBind, char *zErr, size_t nErr);
/* Binds a table id to ?1. Returns 0 or -1. */
int cat__bind_id(cat *pCat, sqlite3_stmt *pStmt, int64_t iId, char *zErr, size_t nErr);
/* Prepares zSql with its one parameter ?1 bound to the text zText. */
int cat__prepare_text(cat *pCat, const char *zSql, const char *zText,
                      sqlite3_stmt **ppStmt, char *zErr, size_t nErr);
/* Returns a TEXT result column, "" for NULL. */
const char *cat__column_text(sqlite3_stmt *pStmt, int iCol);

/* Reads the current generation of table iTable in a statement of its own
** (a fresh snapshot). Sets *pbExists and *piGen. Returns 0 or -1. */
int cat__table_gen(cat *pCat, int64_t iTable, int *pbExists, int64_t *piGen,
                   char *zErr, size_t nErr);

/* ---- cache.c ------------------------------------------------------------ */
/* Empties the cache if the catalog may have changed since it was filled.
** Returns 0, or -1 if data_version could not be read. */
int cat__cache_check(cat *pCat, char *zErr, size_t nErr);
/* Returns the cached definition of zName (borrowed), or NULL. */
const cat_table *cat__cache_find(const cat *pCat, const char *zName);
/* Keeps a copy of t. Best effort: a copy that cannot be made is skipped. */
void cat__cache_put(cat *pCat, const cat_table *t);
void cat__cache_clear(cat *pCat);
/* Frees the cache's memory too (cat_close). */
void cat__cache_free(cat *pCat);
/* Returns 1 while the handle is inside a transaction: what it reads then
** may be its own uncommitted writes, which the caches never keep. */
int cat__cache_busy(const cat *pCat);
/* Copies the cached statistics of column iCol of table iTable into *s
** (the caller frees with stats_free). Returns 1 if cached and copied, 0
** if not cached, -1 if memory ran out. */
int cat__stats_cache_get(const cat *pCat, int64_t iTable, int iCol, col_stats *s);
/* Keeps a copy of s. Best effort, as cat__cache_put. */
void cat__stats_cache_put(cat *pCat, int64_t iTable, int iCol, const col_stats *s);
/* Returns a deep copy of t, or NULL if memory ran out (tabledef.c). */
cat_table *cat__table_clone(const cat_table *t);

/* ---- files.c ------------------------------------------------------------ */
int cat__fsync_dir(const char *zPath, char *zErr, size_t nErr);
/* Writes DATA/t<id> (iGen 0) or DATA/t<id>/g<gen> into z. Returns 0, or
** -1 with zErr set if it does not fit. */
int cat__gen_dir(const cat *pCat, int64_t iTable, int64_t iGen, char *z, size_t n,
                 char *zErr, size_t nErr);
/* Removes the generation directories the catalog does not name and the
** directories of dropped tables, sparing those another handle is writing. */
int cat__sweep(cat *pCat, char *zErr, size_t nErr);

/* ---- gen.c -------------------------------------------------------------- */
/* Releases and removes every generation this handle began and did not
** finish (at cat_close). */
void cat__pending_abort_all(cat *pCat);

/* ---- stats.c ------------------------------------------------------------ */
/* The statement cat__stats_insert() binds: prepare it once per commit. */
extern const char cat__zStatsInsert[];
/* Inserts the statistics of column iCol of table iTable. Returns 0 or -1. */
int cat__stats_insert(cat *pCat, sqlite3_stmt *pIns, int64_t iTable, int iCol,
                      const col_stats *s, char *zErr, size_t nErr);

/* ---- tableread.c -------------------------------------------------------- */
/* Reads the whole definition and state of table iId into *pt (NULL if
** there is no such table), inside the caller's transaction. */
int cat__table_load(cat *pCat, int64_t iId, cat_table **pt, char *zErr, size_t nErr);
/* Looks table zName up, case-insensitively. Sets *piId, 0 if none. */
int cat__table_find(cat *pCat, const char *zName, int64_t *piId, char *zErr, size_t nErr);

/* ---- tabledef.c --------------------------------------------------------- */
/* Checks a definition the way the builders do, for one filled in by hand:
** names, types, key ordinals. Returns 0, or -1 with zErr set. */
int cat__table_check(const cat_table *t, char *zErr, size_t nErr);
/* Writes the names of columns aiCol[0..nCol) of t as "a, b" into z. */
char *cat__col_list(const cat_table *t, int nCol, const int *aiCol, char *z, size_t n);

#endif /* STARQ_CATALOG_INT_H */
