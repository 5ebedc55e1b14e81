/*
** common/tz.h — time zones for timestamptz: IANA zones read from the
** system's zoneinfo (Debian's tzdata, /usr/share/zoneinfo, TZif versions
** 1 to 3 with the POSIX TZ footer for times past the table), POSIX TZ
** strings ("UTC+3", "EST5EDT", "<+0530>-5:30"), fixed offsets, and the
** abbreviations PostgreSQL's Default set knows with a fixed offset
** ("EST", "CEST", "UTC", "Z").
**
** A zone is loaded once per name and kept for the life of the process in
** a cache behind a mutex; a tz_zone is immutable, so any thread may use
** it without a lock. The process's TZ is never touched (threads!).
**
** Offsets are seconds east of UTC (PostgreSQL's tm_gmtoff), instants are
** seconds since 1970-01-01 00:00:00 UTC.
**
** INTERFACE ROUTINES
**   tz_zone_find          a zone by name (cached)
**   tz_zone_fixed         a zone of one fixed offset (cached)
**   tz_zone_name          the name it was found by
**   tz_zone_canonical     the zone database's spelling of it
**   tz_zone_at            offset, DST flag and abbreviation at an instant
**   tz_zone_next_boundary the first change of offset after an instant
**   tz_abbrev_lookup      a fixed-offset abbreviation of PostgreSQL's set
*/
#ifndef STARQ_TZ_H
#define STARQ_TZ_H

#include <stdint.h>

#include "sqlerr.h"

typedef struct tz_zone tz_zone;

/* Finds zone zName: an IANA name (case-insensitive, as PostgreSQL's
** pg_tzset: "america/new_york" is America/New_York) or a POSIX TZ string.
** Returns 0 and sets *pp (owned by the cache), or -1 with pErr: 22023
** time zone "zName" not recognized. */
int tz_zone_find(const char *zName, const tz_zone **pp, sql_error *pErr);

/* A zone whose offset is always iGmtoff seconds east of UTC, with no
** abbreviation (PostgreSQL shows the offset: "+05:30"). Returns NULL only
** if memory ran out. */
const tz_zone *tz_zone_fixed(int iGmtoff);

/* The name the zone was found by, as given. */
const char *tz_zone_name(const tz_zone *p);

/* Its name as the zone database spells it ("Europe/Paris" for
** "europe/paris"), as SHOW TimeZone prints it; a POSIX string as given. */
const char *tz_zone_canonical(const tz_zone *p);

/* The offset, DST flag and abbreviation (owned by the zone) in force at
** instant t. */
void tz_zone_at(const tz_zone *p, int64_t t, int *pGmtoff, int *pIsDst, const char **pzAbbrev);

/* Finds the first instant after t at which the zone's offset or DST flag
** changes. Returns 1 with *pBoundary and the offsets in force before it
** (at t) and from it on, or 0 if there is none (a zone without DST from
** t on; *pBefore is then the offset at t). */
int tz_zone_next_boundary(const tz_zone *p, int64_t t, int64_t *pBoundary, int *pBefore,
                          int *pAfter);

/* Looks up a time zone abbreviation (lower case, as PostgreSQL folds it)
** among the fixed-offset ones of PostgreSQL's Default set. Returns 1 with
** *pGmtoff and *pIsDst, else 0. The ones that set defines by a zone
** ("MSK", "LHDT", ...) are not here. */
int tz_abbrev_lookup(const char *zLower, int *pGmtoff, int *pIsDst);

#endif /* STARQ_TZ_H */
