/*
** catalog/catalog.h — schemas, statistics and file locations, kept in
** SQLite (DATA/catalog.db). Never table data: that is the column store's
** (storage/store.h).
**
** What a data directory looks like:
**
**   DATA/catalog.db            the catalog (SQLite, WAL mode)
**   DATA/t<id>/g<gen>/         one generation of table <id>'s data:
**       c<i>.col                 values of column i (0-based ordinal)
**       c<i>.null                its validity bitmap, if nullable
**       c<i>.dict                its dictionary, if a string column
**
** A table's rows live in exactly one generation, the one the catalog names
** (tables.location). A load never touches it: it writes a new generation
** directory, fsyncs the files and the directory, and then one SQLite
** transaction switches the table to the new generation together with its
** new row count and statistics. That commit is the single step at which
** the load happens; before it the old data is current, after it the new.
** The old generation is removed after the commit, and cat_open() removes
** any generation directory the catalog does not name (left by a crash).
**
** Lifetimes: a cat is owned by its opener and used by one thread at a
** time. A cat_table returned by cat_table_get() belongs to the caller, who
** frees it with cat_table_free(); it is a snapshot and does not change
** when the catalog does.
**
** INTERFACE ROUTINES
**   cat_open, cat_close          open (creating, migrating, cleaning) a data dir
**   cat_table_new / _free        build a table definition
**   cat_table_add_column         ... its columns
**   cat_table_set_pkey           ... its primary key
**   cat_table_add_fkey           ... its foreign keys (to a primary key)
**   cat_table_create             store a definition as a new empty table
**   cat_table_get                read a table's definition and state
**   cat_table_names              list tables
**   cat_table_drop               remove a table and its files
**   cat_stats_get                one column's statistics
**   cat_gen_begin                make a new generation directory
**   cat_gen_commit               switch a table to it, with stats
**   cat_gen_abort                remove an uncommitted generation
**   cat_file_path                the path of a column file
**   cat_file_info                a values file's encoding and bytes (cached)
**   cat_cache_hold / _release    one cache check for a whole statement
**   cat_cache_generation         what a statement planned from it may be kept by
*/
#ifndef STARQ_CATALOG_H
#define STARQ_CATALOG_H

#include <stddef.h>
#include <stdint.h>

#include "../common/coltype.h"
#include "../storage/stats.h"
#include "../storage/store.h"

/* The catalog's schema version this build reads and writes. */
#define CAT_SCHEMA_VERSION 4

typedef struct cat cat;

typedef struct cat_column cat_column;
struct cat_column {
  char *zName;             /* owned by the cat_table */
  coltype type;
  int bNotNull;            /* NOT NULL (primary key columns always are) */
};

/* A foreign key: columns of this table referencing the primary key of
** zRefTable, column for column. The planner finds star joins by these.
** A definition being built knows the referenced columns by name only
** (azRefCol); cat_table_create() resolves them into aiRefCol, which holds
** -1 until then. cat_table_get() fills both. */
typedef struct cat_fkey cat_fkey;
struct cat_fkey {
  int nCol;
  int *aiCol;              /* ordinals in this table; owned */
  char *zRefTable;         /* owned */
  int *aiRefCol;           /* ordinals in zRefTable; owned */
  char **azRefCol;         /* names of those columns; owned, as is each name */
};

typedef struct cat_table cat_table;
struct cat_table {
  int64_t iId;             /* catalog id; 0 until created */
  char *zName;             /* owned; names compare case-insensitively */
  int nCol;
  cat_column *aCol;        /* owned */
  int nPkey;
  int *aiPkey;             /* primary key ordinals, in key order; owned */
  int nFkey;
  cat_fkey *aFkey;         /* owned */
  int64_t iGen;            /* current generation; 0: no data yet */
  int64_t nRow;            /* rows in the current generation */
  char *zLocation;         /* "t<id>/g<gen>" relative to DATA, or NULL; owned */
};

/* Opens the catalog of zDataDir, creating the directory and an empty
** catalog if there is none, upgrading an older catalog schema in one
** transaction, and removing generation directories the catalog does not
** name. A catalog newer than CAT_SCHEMA_VERSION, a file that is not a
** SQLite database, or a database that is not a starq catalog is an error.
** Returns 0 and sets *ppCat, or -1 with zErr set. */
int cat_open(cat **ppCat, const char *zDataDir, char *zErr, size_t nErr);
void cat_close(cat *pCat);

/* The data directory's path, as given to cat_open(). */
const char *cat_data_dir(const cat *pCat);

/* Building a definition. Each returns 0, or -1 with zErr set: a duplicate
** or empty column name, an invalid type (coltype_check), an unknown column
** in a key. */
cat_table *cat_table_new(const char *zName);
void cat_table_free(cat_table *t);
int cat_table_add_column(cat_table *t, const char *zName, coltype type, int bNotNull,
                         char *zErr, size_t nErr);
/* The same for a definition nothing stores (a virtual relation's, for the
** binder): any type, the catalog's own (name, oid, arrays) included. */
int cat_table_add_virtual_column(cat_table *t, const char *zName, coltype type, int bNotNull,
                                 char *zErr, size_t nErr);
int cat_table_set_pkey(cat_table *t, int nCol, const char *const *azCol,
                       char *zErr, size_t nErr);
int cat_table_add_fkey(cat_table *t, int nCol, const char *const *azCol,
                       const char *zRefTable, const char *const *azRefCol,
                       char *zErr, size_t nErr);

/* Returns the ordinal of column zName (case-insensitive), or -1. */
int cat_table_column(const cat_table *t, const char *zName);

/* Stores t as a new, empty table and sets t->iId (ids are never reused)
** and each foreign key's aiRefCol. Errors: a table of that name exists; no
** columns; a foreign key whose table does not exist, whose referenced
** columns are not exactly that table's primary key, or whose column types
** differ from the referenced ones. A foreign key may reference t itself. */
int cat_table_create(cat *pCat, cat_table *t, char *zErr, size_t nErr);

/* Reads table zName. Returns 0 and sets *pt (the caller frees it), or -1
** with zErr set ("no table named \"x\""). */
int cat_table_get(cat *pCat, const char *zName, cat_table **pt, char *zErr, size_t nErr);

/* Sets *pazName to a malloc'd array of *pn malloc'd names, in creation
** order. Returns 0 or -1. Free each name, then the array. */
int cat_table_names(cat *pCat, char ***pazName, int *pn, char *zErr, size_t nErr);

/* Drops table zName and removes its files. Refused while another table has
** a foreign key to it. */
int cat_table_drop(cat *pCat, const char *zName, char *zErr, size_t nErr);

/* Reads the statistics of column iCol of table iTable into *s (initialised
** here; the caller frees with stats_free). A table with no data yet has
** zero counts. Returns 0 or -1. */
int cat_stats_get(cat *pCat, int64_t iTable, int iCol, col_stats *s,
                  char *zErr, size_t nErr);

/* Creates the directory of a new generation of table t, numbered above
** any generation that exists or existed, and sets *piGen. The generation
** belongs to this handle until committed or aborted (cat_close() aborts
** what is left); another cat_open() meanwhile leaves it alone. */
int cat_gen_begin(cat *pCat, const cat_table *t, int64_t *piGen, char *zErr, size_t nErr);

/* Makes generation iGen the table's data: fsyncs its directory, then in
** one transaction sets the location, the row count and every column's
** statistics (aStats[0..t->nCol)), then removes the previous generation.
** Updates t->iGen, t->nRow and t->zLocation. On error nothing changed and
** the generation is still this handle's, to abort.
** Errors besides I/O: iGen was not begun by this handle; the table's
** current generation is no longer t->iGen (another load committed since t
** was read, so committing would lose its rows); aStats[i] is not of
** column i's type or does not count nRow rows. */
int cat_gen_commit(cat *pCat, cat_table *t, int64_t iGen, int64_t nRow,
                   const col_stats *aStats, char *zErr, size_t nErr);

/* Removes generation iGen of t, which this handle began and did not
** commit. Anything else is left alone (the next cat_open() sweeps it). */
void cat_gen_abort(cat *pCat, const cat_table *t, int64_t iGen);

/* Writes into z the path of column iCol's file of kind eKind in
** generation iGen of table t: DATA/t<id>/g<gen>/c<i>.col|.null|.dict.
** Returns z, or NULL if it does not fit in n bytes. */
char *cat_file_path(const cat *pCat, const cat_table *t, int64_t iGen, int iCol,
                    store_kind eKind, char *z, size_t n);

/* Reads the header of column iCol's values file in generation iGen of t:
** its encoding and payload bytes (store_file_info). Kept in the handle's
** cache while the catalog is unchanged, as definitions are. Returns 0, or
** -1 with zErr set. */
int cat_file_info(cat *pCat, const cat_table *t, int64_t iGen, int iCol, store_enc *peEnc,
                  uint64_t *pnPayload, char *zErr, size_t nErr);

/* Checks once that the handle's cache of definitions, statistics and
** file headers is current, then serves it without asking SQLite again
** until cat_cache_release(): a statement planned in between
** sees one state of the catalog throughout, and pays for one check, not
** one per table and column it reads. A write this handle begins still
** empties the cache. Returns 0, or -1 with zErr set (nothing held). */
int cat_cache_hold(cat *pCat, char *zErr, size_t nErr);
void cat_cache_release(cat *pCat);

/* The generation of what the handle's cache holds, while it is held
** (cat_cache_hold): it changes whenever the cache is emptied because the
** catalog or its data may have changed (another connection committed: a
** load, DDL, statistics; or this handle began a write).
** What was derived from the catalog through this handle at generation G —
** a bound, planned statement — is still right while it is G. Returns 0,
** which no generation is, while the cache is not held or a transaction is
** open on the handle (then nothing may be kept). */
uint64_t cat_cache_generation(const cat *pCat);

#endif /* STARQ_CATALOG_H */
