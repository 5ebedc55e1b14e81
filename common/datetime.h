/*
** common/datetime.h — PostgreSQL's dates, times, timestamps and intervals
** on the host: their representations, text in and out, arithmetic, the
** fields of extract and date_trunc, and to_char. The binder, the loader,
** the wire and (ported later) the kernels share it; PostgreSQL 15 decides
** every answer and every error, and tests/test-datetime*.c check it against
** a real server value by value.
**
** Representations (PostgreSQL's, so the wire's binary forms are these):
**
**   date         int32 days since 2000-01-01; INT32_MIN/MAX are -infinity
**                and infinity; 4714-11-24 BC .. 5874897-12-31
**   timestamp    int64 microseconds since 2000-01-01 00:00:00; INT64_MIN/
**                MAX are -infinity and infinity; 4714-11-24 BC ..
**                294276-12-31 23:59:59.999999
**   timestamptz  the same count from 2000-01-01 00:00:00 UTC, shown in the
**                session's TimeZone (a tz_zone, tz.h)
**   time         int64 microseconds of the day, 00:00:00 .. 24:00:00
**   interval     {int64 microseconds, int32 days, int32 months}, each
**                field kept apart as PostgreSQL keeps them (a month is
**                not 30 days until something needs it to be)
**
** starq's DATE column is int32 yyyymmdd today (DESIGN.md decision 6).
** dt_date_from_yyyymmdd / dt_date_to_yyyymmdd convert exactly both ways;
** days since 2000-01-01 is the recommended internal form: date - date,
** date + n and date + interval are one addition, comparisons are the same,
** and it is what the wire sends; yyyymmdd needs a calendar walk for all of
** them (it stays fine as a storage encoding: both sort alike).
**
** Years are astronomical inside (1 BC is year 0), as PostgreSQL's tm_year;
** text shows "0001-01-01 BC" for year 0.
**
** Errors: the arithmetic returns a DT_E_* code (the device has no
** sql_error); dt_error() spells it as PostgreSQL does. Parsers and
** formatters on the host take an sql_error and write PostgreSQL's message.
**
** INTERFACE ROUTINES (by file)
**   datetime.c           calendar: dt_date2j, dt_j2date, dt_date_from_ymd,
**                        dt_date_to_ymd, dt_date_from_yyyymmdd,
**                        dt_date_to_yyyymmdd, dt_timestamp_from_tm,
**                        dt_timestamp_to_tm, dt_timestamptz_to_tm,
**                        dt_timestamptz_from_tm, dt_error; the wire's
**                        binary forms: dt_date_send/_recv,
**                        dt_timestamp_send/_recv, dt_interval_send/_recv;
**                        ISO text:
**                        dt_date_format, dt_timestamp_format,
**                        dt_timestamptz_format, dt_time_format
**   datetime-parse.c     dt_date_parse, dt_timestamp_parse,
**                        dt_timestamptz_parse, dt_time_parse
**   datetime-interval.c  dt_interval_parse, dt_interval_format,
**                        dt_interval_add/_sub/_mul/_div/_neg/_cmp,
**                        dt_interval_justify_*, dt_interval_to_tm,
**                        dt_interval_from_tm
**   datetime-arith.c     date and timestamp arithmetic and age
**   datetime-field.c     dt_extract, dt_date_part, dt_trunc, dt_make_date,
**                        dt_make_timestamp, dt_make_interval,
**                        dt_to_timestamp_epoch
**   datetime-tochar.c    dt_to_char
**   datetime-fromchar.c  dt_to_timestamp_fmt, dt_to_date_fmt
*/
#ifndef STARQ_DATETIME_H
#define STARQ_DATETIME_H

#include <stddef.h>
#include <stdint.h>

#include "numeric.h"
#include "sqlerr.h"

typedef struct tz_zone tz_zone;

#define DT_USECS_PER_SEC 1000000LL
#define DT_USECS_PER_MINUTE 60000000LL
#define DT_USECS_PER_HOUR 3600000000LL
#define DT_USECS_PER_DAY 86400000000LL
#define DT_SECS_PER_DAY 86400

#define DT_EPOCH_JD 2451545             /* Julian day of 2000-01-01 */
#define DT_UNIX_EPOCH_JD 2440588        /* Julian day of 1970-01-01 */

#define DT_DATE_NOBEGIN INT32_MIN       /* -infinity */
#define DT_DATE_NOEND INT32_MAX         /* infinity */
#define DT_TS_NOBEGIN INT64_MIN
#define DT_TS_NOEND INT64_MAX

/* Julian days of the ends: day 0 is 4714-11-24 BC; dates end before
** 5874898-01-01, timestamps before 294277-01-01. */
#define DT_JD_MIN 0
#define DT_DATE_END_JD 2147483494
#define DT_TS_END_JD 109203528
#define DT_DATE_MIN (DT_JD_MIN - DT_EPOCH_JD)
#define DT_DATE_END (DT_DATE_END_JD - DT_EPOCH_JD)
#define DT_TS_MIN (-211813488000000000LL)
#define DT_TS_END 9223371331200000000LL

/* Results of the arithmetic; dt_error() spells them. */
enum dt_rc {
  DT_OK = 0,
  DT_E_DATE_RANGE,         /* 22008 date out of range */
  DT_E_TS_RANGE,           /* 22008 timestamp out of range */
  DT_E_INTERVAL_RANGE,     /* 22008 interval out of range */
  DT_E_DIV_ZERO,           /* 22012 division by zero */
  DT_E_INFINITE_DATE,      /* 22008 cannot subtract infinite dates */
  DT_E_INFINITE_TS,        /* 22008 cannot subtract infinite timestamps */
  DT_E_TIME_RANGE,         /* 22008 time out of range */
  DT_E_DATE_TS_RANGE,      /* 22008 date out of range for timestamp */
};

/* An interval: each field apart, as PostgreSQL keeps them. A plain value. */
typedef struct dt_interval dt_interval;
struct dt_interval {
  int64_t time;            /* microseconds */
  int32_t day;
  int32_t month;
};

/* Broken-down date and time: PostgreSQL's struct pg_tm and fsec. */
typedef struct dt_tm dt_tm;
struct dt_tm {
  int year;                /* astronomical: 1 BC is 0, 2 BC is -1 */
  int month;               /* 1..12 */
  int day;                 /* 1..31 */
  int hour;
  int minute;
  int second;
  int usec;                /* 0..999999 */
  int gmtoff;              /* seconds east of UTC of the fields' zone */
  int isdst;
  const char *zAbbrev;     /* the zone's abbreviation ("EST"), static or
                           ** owned by the cached zone; NULL for timestamp */
};

/* Broken-down interval: PostgreSQL's struct pg_itm. */
typedef struct dt_itm dt_itm;
struct dt_itm {
  int64_t usec;            /* 0..999999 with the time's sign */
  int64_t hour;            /* the rest of the time; any size */
  int minute;
  int second;
  int day;
  int month;               /* 0..11 with the months' sign */
  int year;
};

/* Names of the session settings the text functions follow. DateStyle's
** order only matters for input of ambiguous numeric dates; output is
** always ISO (the only style starq offers). */
typedef enum dt_order {
  DT_ORDER_MDY = 0,        /* PostgreSQL's default: 1/8/1999 is January 8 */
  DT_ORDER_DMY = 1,
  DT_ORDER_YMD = 2,
} dt_order;

/* What the parsers need besides the text: the session's zone (NULL: UTC),
** DateStyle's field order, and "now" for the words now, today, tomorrow,
** yesterday (the statement's one value, given by the caller). */
typedef struct dt_session dt_session;
struct dt_session {
  const tz_zone *pZone;    /* TimeZone; NULL is UTC */
  dt_order eOrder;
  int64_t tNow;            /* timestamptz of "now" */
};

/* ---- calendar (datetime.c) ---------------------------------------------- */

/* The Julian day of y-m-d (proleptic Gregorian; y astronomical). Exact for
** every y from -4713 to 5874898. */
int64_t dt_date2j(int64_t y, int m, int d);
/* The calendar day of Julian day jd. */
void dt_j2date(int64_t jd, int *py, int *pm, int *pd);

/* Returns 1 if y is a leap year (astronomical numbering), else 0. */
int dt_is_leap(int y);
/* The days of month m (1..12) of year y. */
int dt_days_in_month(int y, int m);

/* The date of y-m-d, which must be a calendar day; no range check. */
int32_t dt_date_from_ymd(int y, int m, int d);
/* The calendar day of a finite date. */
void dt_date_to_ymd(int32_t date, int *py, int *pm, int *pd);

/* starq's stored DATE (yyyymmdd, years 1..9999) to days and back. The
** first returns DT_OK, or DT_E_DATE_RANGE if v is not a calendar day. */
int dt_date_from_yyyymmdd(int32_t v, int32_t *pDate);
int32_t dt_date_to_yyyymmdd(int32_t date);

/* Returns 1 if Julian day jd may be a date (before 5874898-01-01), or a
** timestamp's day (bTimestamp: before 294277-01-01). */
int dt_jd_valid(int64_t jd, int bTimestamp);

/* Fields (no zone) to a timestamp: DT_OK or DT_E_TS_RANGE. */
int dt_timestamp_from_tm(const dt_tm *tm, int64_t *pTs);
/* A finite timestamp to fields (gmtoff 0, no abbreviation). */
void dt_timestamp_to_tm(int64_t ts, dt_tm *tm);

/* A finite timestamptz to fields in zone pZone (NULL: UTC), with the
** zone's offset, DST flag and abbreviation. DT_OK or DT_E_TS_RANGE (the
** local time past the ends). */
int dt_timestamptz_to_tm(int64_t ts, const tz_zone *pZone, dt_tm *tm);
/* Local fields in zone pZone to a timestamptz, PostgreSQL's way through
** gaps and overlaps (DetermineTimeZoneOffset: a time skipped by a spring
** forward takes the offset before it, an ambiguous one the offset after
** the fall back); tm->gmtoff gets the offset used. DT_OK or DT_E_TS_RANGE. */
int dt_timestamptz_from_tm(dt_tm *tm, const tz_zone *pZone, int64_t *pTs);

/* Records rc (not DT_OK) as PostgreSQL's error. */
void dt_error(int rc, sql_error *pErr);

/* ---- ISO text (datetime.c) ----------------------------------------------- */

/* Room for any of the texts below. */
#define DT_TEXT_MAX 128

/* PostgreSQL's DateStyle ISO output: "1998-01-01", "0044-03-15 BC",
** "infinity"; "1998-01-01 00:00:00.5"; with the offset in zone pZone
** ("+00", "+05:30", "-03:00:00" seconds only when there are some);
** "24:00:00". Each writes a NUL-terminated string and returns its
** length. */
int dt_date_format(int32_t date, char *z, size_t n);
int dt_timestamp_format(int64_t ts, char *z, size_t n);
int dt_timestamptz_format(int64_t ts, const tz_zone *pZone, char *z, size_t n);
int dt_time_format(int64_t t, char *z, size_t n);

/* Appends seconds and a fraction (trailing zeros dropped) to z at *pi:
** "05", "05.25"; shared with intervals and to_char. */
void dt__seconds_append(char *z, size_t n, size_t *pi, int sec, int usec, int bPad);

/* ---- the wire's binary forms (datetime.c) ----------------------------------- */

/* PostgreSQL's binary send/receive forms, big-endian: a date is its 4
** bytes of days, a timestamp, timestamptz or time its 8 bytes of
** microseconds, an interval 16 bytes: microseconds, days, months. */
void dt_date_send(int32_t date, unsigned char a[4]);
int32_t dt_date_recv(const unsigned char a[4]);
void dt_timestamp_send(int64_t ts, unsigned char a[8]);
int64_t dt_timestamp_recv(const unsigned char a[8]);
void dt_interval_send(const dt_interval *p, unsigned char a[16]);
void dt_interval_recv(const unsigned char a[16], dt_interval *p);

/* ---- text in (datetime-parse.c) ------------------------------------------ */

/* PostgreSQL's date_in, timestamp_in, timestamptz_in, time_in on z[0..n):
** ISO 8601 with a space or T, yyyymmdd, month names, m/d/y in DateStyle's
** order, BC/AD, time zones (names, abbreviations, offsets: a timestamp
** ignores one), epoch, infinity, -infinity, now, today, tomorrow,
** yesterday, allballs. Returns 0, or -1 with PostgreSQL's error: 22007
** invalid input syntax for type X: "z", 22008 date/time field value out of
** range: "z" or X out of range: "z", 22009 time zone displacement out of
** range: "z", 22023 time zone "name" not recognized. */
int dt_date_parse(const char *z, size_t n, const dt_session *pS, int32_t *pDate,
                  sql_error *pErr);
int dt_timestamp_parse(const char *z, size_t n, const dt_session *pS, int64_t *pTs,
                       sql_error *pErr);
int dt_timestamptz_parse(const char *z, size_t n, const dt_session *pS, int64_t *pTs,
                         sql_error *pErr);
int dt_time_parse(const char *z, size_t n, const dt_session *pS, int64_t *pTime,
                  sql_error *pErr);

/* ---- intervals (datetime-interval.c) -------------------------------------- */

/* PostgreSQL's interval_in: "1 day", "2 hours 30 minutes", "1 year 2 mons
** 3 days 04:05:06.789", "-1 day", "@ 1 day ago", "1 week", "00:01:00",
** "1-2" (years-months), ISO 8601 "P1Y2M3DT4H5M6S" and "P0001-02-03T04:05:06",
** fractions of units carried down as PostgreSQL carries them. Returns 0, or
** -1 with 22007 invalid input syntax for type interval: "z" or 22015
** interval field value out of range: "z". */
int dt_interval_parse(const char *z, size_t n, dt_interval *pOut, sql_error *pErr);

/* IntervalStyle postgres: "1 year 2 mons 3 days 04:05:06.789",
** "-1 days +02:03:00", "00:00:00". Returns the length. */
int dt_interval_format(const dt_interval *a, char *z, size_t n);

/* The interval's fields (interval2itm) and back (itm2interval: DT_OK or
** DT_E_INTERVAL_RANGE). */
void dt_interval_to_itm(const dt_interval *a, dt_itm *p);
int dt_interval_from_itm(const dt_itm *p, dt_interval *pOut);

int dt_interval_add(const dt_interval *a, const dt_interval *b, dt_interval *r);
int dt_interval_sub(const dt_interval *a, const dt_interval *b, dt_interval *r);
int dt_interval_neg(const dt_interval *a, dt_interval *r);
/* a * f and a / f (interval_mul, interval_div): fractions of months
** become days, of days microseconds, as PostgreSQL cascades them. */
int dt_interval_mul(const dt_interval *a, double f, dt_interval *r);
int dt_interval_div(const dt_interval *a, double f, dt_interval *r);
/* PostgreSQL's interval order: every field as microseconds, a month as 30
** days, a day as 24 hours (so '1 mon' = '30 days'). */
int dt_interval_cmp(const dt_interval *a, const dt_interval *b);
int dt_interval_justify_hours(const dt_interval *a, dt_interval *r);
int dt_interval_justify_days(const dt_interval *a, dt_interval *r);
int dt_interval_justify_interval(const dt_interval *a, dt_interval *r);

/* ---- arithmetic (datetime-arith.c) --------------------------------------- */

/* date + n days, date - date (days), date + interval (a timestamp),
** timestamp + interval (months, then days, then microseconds; a day past
** the month's end is its last day), timestamptz + interval (days in the
** zone: DST-aware), timestamp - timestamp (days and time, justified as
** PostgreSQL's timestamp_mi), age. Each returns DT_OK or an error code. */
int dt_date_add_days(int32_t date, int64_t nDays, int32_t *pOut);
int dt_date_diff(int32_t a, int32_t b, int32_t *pDays);
int dt_date_to_timestamp(int32_t date, int64_t *pTs);
int dt_date_to_timestamptz(int32_t date, const tz_zone *pZone, int64_t *pTs);
int dt_timestamp_to_date(int64_t ts, int32_t *pDate);
int dt_timestamptz_to_date(int64_t ts, const tz_zone *pZone, int32_t *pDate);
int dt_timestamptz_to_timestamp(int64_t ts, const tz_zone *pZone, int64_t *pOut);
int dt_timestamp_to_timestamptz(int64_t ts, const tz_zone *pZone, int64_t *pOut);
int dt_timestamp_add_interval(int64_t ts, const dt_interval *a, int64_t *pOut);
int dt_timestamp_sub_interval(int64_t ts, const dt_interval *a, int64_t *pOut);
int dt_timestamptz_add_interval(int64_t ts, const dt_interval *a, const tz_zone *pZone,
                                int64_t *pOut);
int dt_timestamptz_sub_interval(int64_t ts, const dt_interval *a, const tz_zone *pZone,
                                int64_t *pOut);
int dt_timestamp_diff(int64_t a, int64_t b, dt_interval *pOut);
/* age(a, b) (symbolic: years, months, days, time) for timestamp
** (pZone NULL) and timestamptz (fields in pZone). */
int dt_timestamp_age(int64_t a, int64_t b, dt_interval *pOut);
int dt_timestamptz_age(int64_t a, int64_t b, const tz_zone *pZone, dt_interval *pOut);

/* ---- fields (datetime-field.c) -------------------------------------------- */

/* The source type of extract, date_part and date_trunc. */
typedef enum dt_type {
  DT_TYPE_DATE, DT_TYPE_TIMESTAMP, DT_TYPE_TIMESTAMPTZ, DT_TYPE_TIME, DT_TYPE_INTERVAL
} dt_type;

/* A value of one of those types, by pointer: int32_t for DT_TYPE_DATE,
** int64_t for the timestamps and time, dt_interval for intervals. */

/* extract(zUnit FROM value): PostgreSQL 14+'s numeric result, exact
** (seconds with 6 decimals, julian as a quotient, epoch of a timestamp
** with 6 decimals). zUnit is any of PostgreSQL's spellings of a field
** ("year", "years", "mon", "us", "dow", "epoch", ...), any case. For an
** infinite value the monotonic fields give +-Infinity and the others
** NULL (*pbNull). pZone: timestamptz's fields (NULL: UTC). Returns 0, or
** -1 with 0A000 unit "x" not supported for type T / 22023 unit "x" not
** recognized for type T, as PostgreSQL. */
int dt_extract(dt_type eType, const char *zUnit, const void *pValue, const tz_zone *pZone,
               numeric *pOut, int *pbNull, sql_error *pErr);

/* date_part(zUnit, value): the same field as PostgreSQL's float8, computed
** as PostgreSQL computes it (seconds + microseconds / 1e6: not always the
** double nearest extract's). A date is taken as a timestamp, as
** PostgreSQL's date_part(text, date) does. */
int dt_date_part(dt_type eType, const char *zUnit, const void *pValue, const tz_zone *pZone,
                 double *pOut, int *pbNull, sql_error *pErr);

/* date_trunc(zUnit, value) for timestamp, timestamptz (in pZone) and
** interval; *pOut is of the value's type. Weeks start on Monday (ISO);
** for timestamptz a unit of a day or more is cut in local time and the
** offset found again (DST), a smaller one keeps the offset. */
int dt_trunc(dt_type eType, const char *zUnit, const void *pValue, const tz_zone *pZone,
             void *pOut, sql_error *pErr);

/* make_date, make_timestamp, make_interval, to_timestamp(double): as
** PostgreSQL, errors included (negative years are BC). */
int dt_make_date(int y, int m, int d, int32_t *pDate, sql_error *pErr);
int dt_make_timestamp(int y, int m, int d, int h, int mi, double sec, int64_t *pTs,
                      sql_error *pErr);
int dt_make_interval(int years, int months, int weeks, int days, int hours, int mins,
                     double secs, dt_interval *pOut, sql_error *pErr);
int dt_to_timestamp_epoch(double secs, int64_t *pTs, sql_error *pErr);

/* ---- to_char and back (datetime-tochar.c, datetime-fromchar.c) ---------------- */

/* to_char(value, zFmt) for timestamp, timestamptz (fields in pZone),
** interval, and date (as a timestamp): *pz gets a malloc'd string, or
** NULL where PostgreSQL gives NULL (an infinite value, an empty format).
** Returns 0, or -1 with pErr (22007 for a calendar pattern on an
** interval). The patterns are listed in datetime-tochar.c. */
int dt_to_char(dt_type eType, const void *pValue, const tz_zone *pZone, const char *zFmt,
               char **pz, sql_error *pErr);

/* to_timestamp(zText, zFmt) (a timestamptz: local fields in pZone, or
** the TZH/TZM given) and to_date(zText, zFmt), as PostgreSQL reads them.
** Returns 0, or -1 with PostgreSQL's error. */
int dt_to_timestamp_fmt(const char *zText, const char *zFmt, const tz_zone *pZone,
                        int64_t *pTs, sql_error *pErr);
int dt_to_date_fmt(const char *zText, const char *zFmt, int32_t *pDate, sql_error *pErr);

#endif /* STARQ_DATETIME_H */
