/*
** tests/refdb.h — the reference engine that starq's query results are
** checked against: SQLite, holding a copy of a data directory's tables,
** plus the canonical result type both engines' answers are turned into and
** the comparison that says whether they agree.
**
** refdb never goes through starq's parser, planner or executor: it reads
** the catalog and the column files (catalog/, storage/) and nothing else,
** so a bug in the engine under test cannot make both answers wrong in the
** same way. Type mapping, copied once into SQLite by refdb_open():
**
**   starq type                      SQLite value
**   SMALLINT, INTEGER, BIGINT       INTEGER
**   DOUBLE PRECISION                REAL (NaN becomes NULL: SQLite has none)
**   DECIMAL(p, s)                   REAL, the nearest double to the value;
**                                   exact to the last digit for p <= 15
**   DATE                            TEXT 'YYYY-MM-DD' (text order = date order)
**   CHAR(n), VARCHAR(n), TEXT       TEXT, decoded from the dictionary
**   NULL (validity bit clear)       NULL
**
** Results are text, one canonical spelling per value (see refdb_query), so
** any engine's rows can be put in the same shape with the builder and
** compared with refdb_result_compare(). tests/README.md says why each
** choice was made and what the SQL translation leaves out.
**
** Lifetimes: a refdb belongs to its opener and is used by one thread at a
** time. A refdb_result belongs to whoever made it (refdb_query's caller,
** or the builder's) and is freed with refdb_result_free(); cell strings
** returned by refdb_result_cell() live until the next row is added or the
** result is freed.
**
** INTERFACE ROUTINES
**   refdb_open, refdb_close     copy a data directory into SQLite
**   refdb_query                 run one query, get a refdb_result
**   refdb_sqlite                the SQLite handle, for what the API lacks
**   refdb_sql_translate         starq's (PostgreSQL's) SQL into SQLite's
**   refdb_result_new / _free    build a result ...
**   refdb_result_set_column     ... name a column, mark it floating-point
**   refdb_result_add_cell       ... one cell at a time, rows in order
**   refdb_result_add_row        ... or a whole row
**   refdb_result_cell           read a cell back
**   refdb_result_compare        do two results agree?
**   refdb_double_text           the canonical spelling of a double
*/
#ifndef STARQ_REFDB_H
#define STARQ_REFDB_H

#include <stddef.h>
#include <stdint.h>

typedef struct sqlite3 sqlite3;

typedef struct refdb refdb;

/* Opens a fresh in-memory SQLite database and copies into it every table
** the catalog of zDataDir lists, with its current rows, in one
** transaction. Table and column names are the catalog's; no keys or
** constraints are declared (the copy must take the data as it is), but
** each table that a foreign key references gets an index on its primary
** key, which is what the joins of a star query probe, and the copy is
** ANALYZEd so that SQLite's planner scans the fact table. A directory without
** a catalog is an error (refdb never creates one). Returns 0 and sets *pp,
** or -1 with zErr set. Prints nothing. */
int refdb_open(const char *zDataDir, refdb **pp, char *zErr, size_t nErr);
void refdb_close(refdb *p);

/* The SQLite connection, owned by p; for tests that need what refdb does
** not wrap (EXPLAIN QUERY PLAN, ad-hoc checks). */
sqlite3 *refdb_sqlite(refdb *p);

/* ---- results ----------------------------------------------------------- */

/* A query's answer as text. Cells are stored row-major; a cell is either
** NULL (SQL NULL) or a NUL-terminated string, so NULL and the text "NULL"
** never meet. Canonical spellings: integers in plain decimal ("-12");
** floating-point values as refdb_double_text() writes them; text as is;
** booleans as 1 and 0 (SQLite has no other; converters of starq's results
** must do the same). abFloat marks the columns whose values are compared
** with tolerance: for a result of refdb_query(), the columns that held a
** REAL or were declared REAL. The fields are read-only outside
** refdb-result.c; use the functions to change a result. */
typedef struct refdb_result refdb_result;
struct refdb_result {
  int nCol;                /* columns, fixed by refdb_result_new() */
  int64_t nRow;            /* complete rows */
  char **azName;           /* nCol column names (NULL until set); owned */
  unsigned char *abFloat;  /* nCol flags: compare with tolerance; owned */
  /* private: the cells */
  int64_t *aiCell;         /* offsets into zText, -1 for NULL; owned */
  int64_t nCell, nCellAlloc;
  char *zText;             /* cell strings back to back, each NUL-ended */
  size_t nText, nTextAlloc;
};

/* Returns an empty result of nCol columns (nCol >= 0), unnamed and not
** floating-point, or NULL if memory ran out. */
refdb_result *refdb_result_new(int nCol);
void refdb_result_free(refdb_result *p);

/* Names column iCol (a copy of zName is kept) and sets whether its values
** are compared with tolerance. Returns 0, or -1 if memory ran out. */
int refdb_result_set_column(refdb_result *p, int iCol, const char *zName, int bFloat);

/* Appends one cell: z[0..n) (n < 0: up to z's NUL), or SQL NULL when z is
** NULL. The cells of a row are added left to right; the nCol-th completes
** the row and counts it in nRow. Returns 0, or -1 if memory ran out. */
int refdb_result_add_cell(refdb_result *p, const char *z, int n);

/* Appends a whole row: azCell[0..nCol), each NUL-terminated or NULL for
** SQL NULL. Must not be called with a row half built by add_cell. Returns
** 0, or -1 if memory ran out or a row is half built. */
int refdb_result_add_row(refdb_result *p, const char *const *azCell);

/* Returns cell (iRow, iCol) of a complete row, or NULL if it is SQL NULL. */
const char *refdb_result_cell(const refdb_result *p, int64_t iRow, int iCol);

/* Compares pGot with pExpected. They agree when they have as many columns
** and as many rows, and their cells agree row by row. Cells agree when
** both are NULL, or neither is and either the strings are equal or the
** column is floating-point in either result and both parse as numbers
** within a relative 1e-9 of each other (or 1e-9 of each other absolutely,
** near zero). With bOrdered the rows must agree
** in order; without, the results are compared as multisets: both are
** sorted first, by their exactly compared columns and then by their
** floating-point columns' values. Column names are not compared (SQLite
** and PostgreSQL name unaliased expressions differently).
** Returns 0 if they agree; 1 if they differ, with a message in zDiff
** naming the row counts, the first row that differs with both versions
** and the first cell that differs; -1 if memory ran out (said in zDiff). */
int refdb_result_compare(const refdb_result *pExpected, const refdb_result *pGot, int bOrdered,
                         char *zDiff, size_t nDiff);

/* Writes r as the shortest decimal that reads back as r ("0.1", "1e+20",
** "-2.5"), or "NaN", "Infinity", "-Infinity" (PostgreSQL's spellings).
** Returns z. */
char *refdb_double_text(double r, char *z, size_t n);

/* ---- queries ----------------------------------------------------------- */

/* Translates zSql from starq's dialect with refdb_sql_translate(), runs it
** (exactly one statement; a trailing ';' is fine) and sets *pp to its
** rows, each value in its canonical spelling, and its column names as
** SQLite gives them. Returns 0, or -1 with zErr set (SQLite's message and
** the translated SQL); *pp is then NULL. */
int refdb_query(refdb *p, const char *zSql, refdb_result **pp, char *zErr, size_t nErr);

/* Rewrites a statement of starq's dialect (PostgreSQL's) into SQLite's:
**   DATE 'x'              'YYYY-MM-DD' (x read as PostgreSQL reads a date)
**   TYPE 'x' (other types) CAST('x' AS <SQLite type>)
**   x::type, CAST(x AS type)  to DATE: x itself (a literal normalised);
**                         to an integer type: rounded, as PostgreSQL
**                         rounds; to DECIMAL(p, s): round(x, s) as REAL;
**                         other types by their SQLite affinity
**   ORDER BY x [ASC|DESC] PostgreSQL's NULL placement made explicit
**                         (NULLS LAST ascending, NULLS FIRST descending)
**   LIMIT ALL, OFFSET n [LIMIT m]  SQLite's LIMIT -1 / LIMIT m OFFSET n
**   x LIKE 'p'            ... ESCAPE '\' (PostgreSQL's default escape)
**   comments              dropped
** Everything else passes through as written. Returns 0 and sets *pzSqlite
** to a malloc'd string (free() it), or -1 if memory ran out. What is not
** translated is listed in tests/README.md. */
int refdb_sql_translate(const char *zPg, char **pzSqlite);

#endif /* STARQ_REFDB_H */
