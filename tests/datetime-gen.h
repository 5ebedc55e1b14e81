/*
** tests/datetime-gen.h — random date/time values and spellings for the
** differential tests of common/datetime*.c against PostgreSQL 15
** (test-datetime-pg*.c): instants drawn where the bugs live (DST
** transitions of the zone under test, leap days, month ends, BC years,
** the ends of the range), spelled the ways clients send them.
*/
#ifndef STARQ_TEST_DATETIME_GEN_H
#define STARQ_TEST_DATETIME_GEN_H

#include <stdint.h>

#include "../common/datetime.h"
#include "../common/tz.h"
#include "pgdiff.h"

/* The zones every differential test runs in: UTC (the default), two with
** DST, Lord Howe's half-hour DST, a half-hour offset without DST, and
** one south of the equator. */
extern const char *const dtgen_azZone[];
extern const int dtgen_nZone;

/* What a test needs for one zone: the server, the cases, the stream, the
** session as the library sees it (zone, DateStyle MDY, the transaction's
** now). */
typedef struct dtgen dtgen;
struct dtgen {
  pgref *p;
  pgdiff *d;
  uint64_t r;
  dt_session s;
  const char *zZone;
};

/* Starts a server for g and the stream at seed; dtgen_close stops it. */
void dtgen_open(dtgen *g, uint64_t seed);
void dtgen_close(dtgen *g);

/* Sets the session's TimeZone in both, opens a transaction (so now() is
** one value) and reads now() into g->s.tNow. */
void dtgen_zone_begin(dtgen *g, const char *zZone);
/* Runs the cases collected (pgdiff_run) and ends the transaction. */
int dtgen_zone_end(dtgen *g, const char *zLabel);

/* A random timestamp (microseconds since 2000), finite and in range,
** drawn from the mixture above. */
int64_t dtgen_timestamp(dtgen *g);
/* A random date (days since 2000), in range. */
int32_t dtgen_date(dtgen *g);
/* A random interval: fields of mixed signs and sizes. */
dt_interval dtgen_interval(dtgen *g);

/* Writes an input spelling of local fields tm (and, when bZone, a zone
** spelling chosen at random: an offset, an abbreviation, a name, Z) into
** z. *pbExact says whether the spelling keeps every field (some drop the
** fraction). */
void dtgen_spell(dtgen *g, const dt_tm *tm, int bZone, char *z, size_t n);

/* Returns z as an SQL string literal, quotes doubled (a static buffer,
** overwritten by the next call). */
const char *dtgen_quote(const char *z);

/* Writes the library's outcome as pgdiff wants it: "ERROR SQLSTATE: msg". */
void dtgen_error_text(const sql_error *e, char *z, size_t n);

#endif /* STARQ_TEST_DATETIME_GEN_H */
