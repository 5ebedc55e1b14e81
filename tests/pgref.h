/*
** tests/pgref.h — the reference server for SQL semantics: a real
** PostgreSQL 15 (Debian's postgresql-15) started by a test in its scratch
** directory, loaded with the same generated data as starq, and queried
** through libpq. DESIGN.md's quality bar: starq promises PostgreSQL's
** answers, so PostgreSQL decides what a right answer is.
**
** One cluster per pgref: initdb'd (or copied from the run's template,
** below), listening only on a Unix socket in its own folder, with
** durability off (fsync, full_page_writes, synchronous_commit), no
** parallel workers, no JIT, locale C (byte-order strings, as starq's),
** UTF8, TimeZone UTC, DateStyle ISO, MDY and IntervalStyle postgres:
** PostgreSQL's defaults and starq's. Database "starq", superuser "starq",
** trust authentication.
**
** Who runs it. initdb and postgres refuse to run as root, so when the
** test runs as root the server runs as the "postgres" user the package
** creates (or "nobody" where there is none): the child drops its groups,
** gid and uid before exec. pgref_start makes its folder that user's and
** adds search permission (o+x, never read) to the folders above it up to
** the current directory (the runner's scratch directory is 0700); any
** folder above that which the user cannot search is an error naming it.
** As anyone else the server runs as the test's own user.
**
** Nothing outlives the test. The postmaster is a child of the test's
** process and stays in its process group (no pg_ctl, which calls
** setsid), so when the runner kills the group after a failure or a time
** out the server and every backend die with it. Its small System V
** segment (PostgreSQL's interlock, the only state outside the folder) is
** marked for removal as soon as the server is up, so the kernel frees it
** when the last process detaches, however they end; dynamic shared memory
** is mmap'd files inside the data directory.
**
** The run's template. initdb takes about a second; when the runner gives
** the run a cache directory ($XDG_CACHE_HOME, which tests/runner.c makes
** per run) the first pgref_start of the run initdbs in its own folder and
** publishes a copy there by one rename(), so parallel tests never see half
** a template, and later starts copy it (about a fifth of the time).
** Without one, every start initdbs.
**
** Lifetimes: a pgref belongs to the test that started it; one thread at a
** time. A pgref_result belongs to its receiver (pgref_result_free).
**
** INTERFACE ROUTINES
**   pgref_start, pgref_stop       a server in a folder of the scratch directory
**   pgref_exec                    statements whose rows do not matter
**   pgref_query                   one statement's rows as text, with types
**   pgref_eval                    many expressions' values or errors at once
**   pgref_table_create            a starq table definition as PostgreSQL DDL
**   pgref_copy_tbl                a dbgen .tbl file into a table (COPY)
**   pgref_load_ssb                the SSB schema and starq-gen's .tbl files
**   pgref_conn, pgref_conninfo    libpq handle, conninfo for psql and others
**   pgref_result_from_pg          any PGresult (starqd's too) as a pgref_result
**   pgref_result_compare          do two results agree (refdb_result_compare)?
**   pgref_result_free
*/
#ifndef STARQ_TEST_PGREF_H
#define STARQ_TEST_PGREF_H

#include <postgresql/libpq-fe.h>
#include <stddef.h>

#include "../catalog/catalog.h"
#include "refdb.h"

typedef struct pgref pgref;

/* What a start took, for the tests that report it. */
typedef struct pgref_timing pgref_timing;
struct pgref_timing {
  double rInitdb;          /* initdb, or copying the template: seconds */
  double rStart;           /* exec of postgres until it accepts connections */
  double rCreateDb;        /* database "starq" made and connected to */
  int bTemplate;           /* 1: copied from the run's template */
};

/* Starts a PostgreSQL 15 server whose cluster, socket and log live in
** zDir (created if need be; relative to the current directory or
** absolute), waits until it accepts connections (up to two minutes: the
** machine may be busy), creates database "starq" and connects to it.
** Returns 0 and sets *pp, or -1 with zErr saying why (PostgreSQL not
** installed, a folder the server's user cannot reach, initdb's or the
** server's log tail). */
int pgref_start(pgref **pp, const char *zDir, char *zErr, size_t nErr);

/* Stops the server at once (immediate shutdown: the cluster is
** scratch), waits for it, removes its data directory (the log stays) and
** frees p. NULL is a no-op. */
void pgref_stop(pgref *p);

/* How long pgref_start took. */
const pgref_timing *pgref_timings(const pgref *p);

/* The connection to database "starq", owned by p. */
PGconn *pgref_conn(pgref *p);

/* A libpq conninfo string for another connection to database "starq"
** ("host=/abs/dir port=5432 user=starq dbname=starq"), owned by p. */
const char *pgref_conninfo(const pgref *p);

/* Runs zSql (one or more statements; their rows are dropped). Returns 0,
** or -1 with zErr = "SQLSTATE: message". */
int pgref_exec(pgref *p, const char *zSql, char *zErr, size_t nErr);

/* A result as PostgreSQL's text: cells exactly as the server spells them
** (integers, numeric with its scale, float8's shortest text, t/f,
** dates and timestamps in DateStyle ISO), NULL as a NULL cell; column
** names; type OIDs. pRows->abFloat marks float4 and float8 columns, the
** ones compared with tolerance. Owned by its receiver. */
typedef struct pgref_result pgref_result;
struct pgref_result {
  refdb_result *pRows;     /* the cells, names, float flags; owned */
  unsigned *aiType;        /* pRows->nCol type OIDs; owned */
};

/* Runs one statement that returns rows (a trailing ';' is fine) and sets
** *pp to them. Returns 0, or -1 with zErr = "SQLSTATE: message" and *pp
** NULL. */
int pgref_query(pgref *p, const char *zSql, pgref_result **pp, char *zErr, size_t nErr);

/* Evaluates azExpr[0..n) (SQL expressions) in one statement and sets
** (*pazOut)[i] to expression i's value as text (expr::text: the type's
** output function, so booleans are "true"/"false"), NULL for SQL NULL,
** or "ERROR SQLSTATE: message" where it raised an error, which does not
** stop the others: each is run by PL/pgSQL's EXECUTE inside its own
** exception block (about 60,000 a second). Session settings (SET
** TimeZone ...) apply. *pazOut is one malloc'd block: free() it.
** Returns 0, or -1 with zErr. */
int pgref_eval(pgref *p, int n, const char *const *azExpr, char ***pazOut, char *zErr,
               size_t nErr);

/* Turns the rows of any PGresult with tuples (PostgreSQL's, or starqd's
** through libpq) into a pgref_result. Returns NULL if memory ran out. */
pgref_result *pgref_result_from_pg(const PGresult *res);
void pgref_result_free(pgref_result *p);

/* Compares pGot with pWant: with bTypes their column type OIDs must be
** equal; then their rows as refdb_result_compare() does (bOrdered: in
** order). Returns 0 if they agree, 1 with zDiff saying how they differ,
** -1 if memory ran out. */
int pgref_result_compare(const pgref_result *pWant, const pgref_result *pGot, int bOrdered,
                         int bTypes, char *zDiff, size_t nDiff);

/* Creates table t in PostgreSQL with starq's names and types
** (coltype_format's spelling: INTEGER, DECIMAL(15,2), DATE, CHAR(10),
** ...) and its NOT NULLs; no keys (the copy must take the data as it is).
** Returns 0, or -1 with zErr. */
int pgref_table_create(pgref *p, const cat_table *t, char *zErr, size_t nErr);

/* Copies the dbgen-format file zPath (fields ended by '|', the last one
** too) into table zTable, whose columns are the file's in order, through
** COPY FROM STDIN. Returns 0, or -1 with zErr. */
int pgref_copy_tbl(pgref *p, const char *zTable, const char *zPath, char *zErr, size_t nErr);

/* Creates every table of pCat in PostgreSQL (pgref_table_create), then
** their primary keys, then their foreign keys. Returns 0, or -1 with
** zErr. */
int pgref_catalog_create(pgref *p, cat *pCat, char *zErr, size_t nErr);

/* Creates the five SSB tables as starq's generator defines them
** (ssb-data/schema.c, read through a throwaway catalog in the server's
** folder), loads zTblDir/<table>.tbl into each (what `starq-gen --out
** zTblDir` writes) and ANALYZEs them. Returns 0, or -1 with zErr. */
int pgref_load_ssb(pgref *p, const char *zTblDir, char *zErr, size_t nErr);

#endif /* STARQ_TEST_PGREF_H */
