/*
** tests/randsql.h — random star queries over the SSB schema, for the
** differential test (test-exec-random.c) that runs each one in starq and
** in SQLite and compares the answers.
**
** A query is lineorder joined to some of date, customer, supplier, part
** (and a second date for lo_commitdate) by their foreign keys, or now and
** then by another integer column of lineorder; filtered by conjunctions,
** disjunctions and negations of predicates on fact and dimension columns;
** grouped by 0-4 columns with COUNT, SUM, MIN, MAX and AVG over fact
** columns, arithmetic and CASE, with HAVING, ORDER BY and LIMIT. One time
** in ten it is plain rows instead. Literals are values the data holds, read
** from SQLite when the generator is opened (never through starq).
**
** Determinism: a query is a function of (seed, index) alone. Its form
** comes from (seed, index / RANDSQL_VARIANTS), its literals from (seed,
** index), so consecutive runs of RANDSQL_VARIANTS queries share a form and
** (starq's literals being kernel parameters) usually one compiled module.
**
** What it never writes, because starq refuses it (0A000): strings of two
** columns compared, GROUP BY expressions, group keys whose combined code
** is wider than 64 bits, DISTINCT inside aggregates other than count and
** sum of a column, LIKE
** other than on one dictionary column, a string value that is not a
** column (a string literal outside a predicate on one dictionary column,
** CASE of strings, MIN/MAX of strings), a disjunction or IS NULL that
** mixes a string column's code set with anything else. Nor what SQLite
** does differently from PostgreSQL: integer overflow, division by zero,
** date arithmetic.
**
** Lifetime: a randsql belongs to its opener and is read-only after
** randsql_open(), so one may serve several threads.
**
** INTERFACE ROUTINES
**   randsql_open    read the values literals are picked from
**   randsql_query   query number i of a seed
**   randsql_free
*/
#ifndef STARQ_RANDSQL_H
#define STARQ_RANDSQL_H

#include <stdint.h>

#include "../common/strbuf.h"

#define RANDSQL_VARIANTS 3       /* consecutive queries that share a form */

typedef struct sqlite3 sqlite3;
typedef struct randsql randsql;

/* Reads from db (an SSB copy, as refdb makes it) the values of every column
** the generator uses. Returns 0 and sets *pp, or -1 with zErr set. */
int randsql_open(sqlite3 *db, randsql **pp, char *zErr, size_t nErr);
void randsql_free(randsql *p);

/* Appends query iQuery of seed to s. Returns 1 if its rows come in a total
** order (ORDER BY names every group key, or the fact table's primary key
** ends it; or there is one row), so they may be compared in order; else 0. */
int randsql_query(const randsql *p, uint64_t seed, int iQuery, strbuf *s);

#endif /* STARQ_RANDSQL_H */
