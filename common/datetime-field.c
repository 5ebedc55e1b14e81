/*
** common/datetime-field.c — the fields of dates and times as PostgreSQL 15
** gives them (datetime.h): extract (numeric), date_part (float8),
** date_trunc, and the functions that build values from fields
** (make_date, make_timestamp, make_interval, to_timestamp(double)).
**
** A unit is looked up as PostgreSQL looks it up: first among the interval
** units ("years", "mon", "us", "qtr", ...), then among the date/time words
** ("dow", "doy", "isoyear", "julian", "epoch", ...), so "m" is minutes
** and "d" days. A unit that names a field the type has not is 0A000
** "not supported"; a word that is no unit at all is 22023 "not
** recognized". Weeks and ISO years follow ISO 8601 (weeks start on
** Monday, week 1 holds January 4th); centuries and millennia count from
** year 1, BC years downwards.
**
** INTERFACE ROUTINES
**   dt_extract, dt_date_part, dt_trunc, dt_make_date, dt_make_timestamp,
**   dt_make_interval, dt_to_timestamp_epoch
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "datetimeInt.h"
#include "tz.h"

/* ---- units --------------------------------------------------------------------- */

enum {
  DTF_MICRO, DTF_MILLI, DTF_SECOND, DTF_MINUTE, DTF_HOUR, DTF_DAY, DTF_WEEK, DTF_MONTH,
  DTF_QUARTER, DTF_YEAR, DTF_DECADE, DTF_CENTURY, DTF_MILLENNIUM, DTF_DOW, DTF_ISODOW,
  DTF_DOY, DTF_ISOYEAR, DTF_JULIAN, DTF_TZ, DTF_TZ_HOUR, DTF_TZ_MINUTE,
  DTF_EPOCH,               /* a reserved word, not a unit */
  DTF_OTHER_RESERVED,      /* now, today, infinity, ...: reserved, no field */
};

/* The interval units (PostgreSQL's deltatktbl), looked up first. */
static const struct dtf_word {
  const char *z;
  int eField;
} dtf_aUnit[] = {
    {"c", DTF_CENTURY}, {"cent", DTF_CENTURY}, {"centuries", DTF_CENTURY},
    {"century", DTF_CENTURY}, {"d", DTF_DAY}, {"day", DTF_DAY}, {"days", DTF_DAY},
    {"dec", DTF_DECADE}, {"decade", DTF_DECADE}, {"decades", DTF_DECADE}, {"decs", DTF_DECADE},
    {"h", DTF_HOUR}, {"hour", DTF_HOUR}, {"hours", DTF_HOUR}, {"hr", DTF_HOUR},
    {"hrs", DTF_HOUR}, {"m", DTF_MINUTE}, {"microsecon", DTF_MICRO}, {"mil", DTF_MILLENNIUM},
    {"millennia", DTF_MILLENNIUM}, {"millennium", DTF_MILLENNIUM}, {"millisecon", DTF_MILLI},
    {"mils", DTF_MILLENNIUM}, {"min", DTF_MINUTE}, {"mins", DTF_MINUTE},
    {"minute", DTF_MINUTE}, {"minutes", DTF_MINUTE}, {"mon", DTF_MONTH}, {"mons", DTF_MONTH},
    {"month", DTF_MONTH}, {"months", DTF_MONTH}, {"ms", DTF_MILLI}, {"msec", DTF_MILLI},
    {"mseconds", DTF_MILLI}, {"msecs", DTF_MILLI}, {"qtr", DTF_QUARTER},
    {"quarter", DTF_QUARTER}, {"s", DTF_SECOND}, {"sec", DTF_SECOND}, {"second", DTF_SECOND},
    {"seconds", DTF_SECOND}, {"secs", DTF_SECOND}, {"timezone", DTF_TZ},
    {"timezone_h", DTF_TZ_HOUR}, {"timezone_m", DTF_TZ_MINUTE}, {"us", DTF_MICRO},
    {"usec", DTF_MICRO}, {"useconds", DTF_MICRO}, {"usecs", DTF_MICRO}, {"w", DTF_WEEK},
    {"week", DTF_WEEK}, {"weeks", DTF_WEEK}, {"y", DTF_YEAR}, {"year", DTF_YEAR},
    {"years", DTF_YEAR}, {"yr", DTF_YEAR}, {"yrs", DTF_YEAR},
};

/* The date/time words that name a field or are reserved (PostgreSQL's
** datetktbl), looked up second and only by extract and date_part. */
static const struct dtf_word dtf_aSpecial[] = {
    {"d", DTF_DAY}, {"dow", DTF_DOW}, {"doy", DTF_DOY}, {"h", DTF_HOUR},
    {"isodow", DTF_ISODOW}, {"isoyear", DTF_ISOYEAR}, {"j", DTF_JULIAN}, {"jd", DTF_JULIAN},
    {"julian", DTF_JULIAN}, {"m", DTF_MONTH}, {"mm", DTF_MINUTE}, {"s", DTF_SECOND},
    {"y", DTF_YEAR}, {"epoch", DTF_EPOCH}, {"-infinity", DTF_OTHER_RESERVED},
    {"allballs", DTF_OTHER_RESERVED}, {"infinity", DTF_OTHER_RESERVED},
    {"now", DTF_OTHER_RESERVED}, {"today", DTF_OTHER_RESERVED},
    {"tomorrow", DTF_OTHER_RESERVED}, {"yesterday", DTF_OTHER_RESERVED},
};

static int dtf_find(const struct dtf_word *a, size_t n, const char *z) {
  for (size_t i = 0; i < n; i++) {
    if (strncmp(z, a[i].z, 10) == 0) return a[i].eField;
  }
  return -1;
}

/* Looks zLower up; -1 if it is no unit (or word) at all. */
static int dtf_lookup(const char *zLower, int bSpecialToo) {
  int e = dtf_find(dtf_aUnit, sizeof(dtf_aUnit) / sizeof(dtf_aUnit[0]), zLower);
  if (e < 0 && bSpecialToo) e = dtf_find(dtf_aSpecial, sizeof(dtf_aSpecial) / sizeof(dtf_aSpecial[0]), zLower);
  return e;
}

static const char *const dtf_azType[] = {"date", "timestamp without time zone",
                                         "timestamp with time zone", "time without time zone",
                                         "interval"};

static const char *dtf_type_name(dt_type eType) {
  return (unsigned)eType < sizeof(dtf_azType) / sizeof(dtf_azType[0]) ? dtf_azType[eType] : "?";
}

static int dtf_unsupported(const char *zUnit, dt_type eType, sql_error *pErr) {
  sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1, "unit \"%s\" not supported for type %s",
                zUnit, dtf_type_name(eType));
  return -1;
}

static int dtf_unrecognized(const char *zUnit, dt_type eType, sql_error *pErr) {
  sql_error_set(pErr, SQLSTATE_INVALID_PARAMETER, -1, "unit \"%s\" not recognized for type %s",
                zUnit, dtf_type_name(eType));
  return -1;
}

/* Lower-cases a unit name into z (PostgreSQL's downcase_truncate_identifier). */
static void dtf_lower(const char *zUnit, char *z, size_t n) {
  size_t i;
  for (i = 0; zUnit[i] && i + 1 < n && i < 63; i++) {
    char c = zUnit[i];
    z[i] = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
  }
  z[i] = 0;
}

/* ---- calendar helpers ------------------------------------------------------------ */

/* 0 = Sunday, for a Julian day (PostgreSQL's j2day). */
int dt__j2day(int64_t jd) {
  return (int)(((jd + 1) % 7 + 7) % 7);
}

/* The first day (Julian) of ISO week 1 of year y: the Monday on or before
** January 4th. */
int64_t dt__isoweek1(int y) {
  int64_t day4 = dt_date2j(y, 1, 4);
  return day4 - dt__j2day(day4 - 1);
}

/* The ISO week (PostgreSQL's date2isoweek) and ISO year (date2isoyear). */
static int dtf_isoweek(int y, int m, int d, int *pIsoYear) {
  int64_t dayn = dt_date2j(y, m, d), w1 = dt__isoweek1(y);
  int64_t w;
  int iy = y;
  if (dayn < w1) {
    w1 = dt__isoweek1(y - 1);
    iy = y - 1;
  }
  w = (dayn - w1) / 7 + 1;
  if (w >= 52) {
    int64_t w1Next = dt__isoweek1(iy + 1);
    if (dayn >= w1Next) {
      w = (dayn - w1Next) / 7 + 1;
      iy++;
    }
  }
  if (pIsoYear) *pIsoYear = iy;
  return (int)w;
}

/* PostgreSQL's date2isoweek computes the following year's week 1 from the
** calendar year, not the ISO year: the same except in the days it moves. */
static int dtf_pg_isoweek(int y, int m, int d) {
  int64_t dayn = dt_date2j(y, m, d), w1 = dt__isoweek1(y), w;
  if (dayn < w1) w1 = dt__isoweek1(y - 1);
  w = (dayn - w1) / 7 + 1;
  if (w >= 52) {
    int64_t w1Next = dt__isoweek1(y + 1);
    if (dayn >= w1Next) w = (dayn - w1Next) / 7 + 1;
  }
  return (int)w;
}

int dt__isoweek(int y, int m, int d) {
  return dtf_pg_isoweek(y, m, d);
}

int dt__isoyear(int y, int m, int d) {
  int iy;
  dtf_isoweek(y, m, d, &iy);
  return iy;
}

/* Year, decade, century, millennium of an astronomical year as PostgreSQL
** numbers them (no year 0; BC counts down). */
static int64_t dtf_year_field(int eField, int y) {
  switch (eField) {
    case DTF_YEAR:
      return y > 0 ? y : y - 1;
    case DTF_DECADE:
      return y >= 0 ? y / 10 : -((8 - (y - 1)) / 10);
    case DTF_CENTURY:
      return y > 0 ? (y + 99) / 100 : -((99 - (y - 1)) / 100);
    default:
      return y > 0 ? (y + 999) / 1000 : -((999 - (y - 1)) / 1000);
  }
}

/* ---- extract and date_part ------------------------------------------------------ */

/* v * 10^-scale as a numeric (int64_div_fast_to_numeric). */
static numeric dtf_scaled(int64_t v, int scale) {
  numeric r = numeric_from_int64(v);
  r.scale = scale;
  return r;
}

/* A field's value in both forms: exact (pNum) and as date_part computes
** it (pDbl). */
typedef struct dtf_value dtf_value;
struct dtf_value {
  numeric num;
  double dbl;
};

static void dtf_int(dtf_value *v, int64_t i) {
  v->num = numeric_from_int64(i);
  v->dbl = (double)i;
}

/* The fields of date, timestamp and timestamptz (tm local; gmtoff for the
** zone fields, bTz). */
static int dtf_tm_field(int eField, const dt_tm *tm, int bTz, dt_type eType, const char *zUnit,
                        dtf_value *v, sql_error *pErr) {
  int64_t us = (int64_t)tm->second * DT_USECS_PER_SEC + tm->usec;
  int64_t jd = dt_date2j(tm->year, tm->month, tm->day);
  int iy;
  switch (eField) {
    case DTF_MICRO:
      dtf_int(v, us);
      return 0;
    case DTF_MILLI:
      v->num = dtf_scaled(us, 3);
      v->dbl = tm->second * 1000.0 + tm->usec / 1000.0;
      return 0;
    case DTF_SECOND:
      v->num = dtf_scaled(us, 6);
      v->dbl = tm->second + tm->usec / 1000000.0;
      return 0;
    case DTF_MINUTE:
      dtf_int(v, tm->minute);
      return 0;
    case DTF_HOUR:
      dtf_int(v, tm->hour);
      return 0;
    case DTF_DAY:
      dtf_int(v, tm->day);
      return 0;
    case DTF_MONTH:
      dtf_int(v, tm->month);
      return 0;
    case DTF_QUARTER:
      dtf_int(v, (tm->month - 1) / 3 + 1);
      return 0;
    case DTF_WEEK:
      dtf_int(v, dtf_pg_isoweek(tm->year, tm->month, tm->day));
      return 0;
    case DTF_YEAR:
    case DTF_DECADE:
    case DTF_CENTURY:
    case DTF_MILLENNIUM:
      dtf_int(v, dtf_year_field(eField, tm->year));
      return 0;
    case DTF_JULIAN: {
      int64_t t = (((int64_t)tm->hour * 60 + tm->minute) * 60 + tm->second) * DT_USECS_PER_SEC + tm->usec;
      numeric a = numeric_from_int64(jd), q, b = numeric_from_int64(t);
      numeric day = numeric_from_int64(DT_USECS_PER_DAY);
      numeric_div(&b, &day, &q);
      numeric_add(&a, &q, &v->num);
      v->dbl = (double)jd + ((((tm->hour * 60) + tm->minute) * 60) + tm->second +
                             (tm->usec / 1000000.0)) / (double)DT_SECS_PER_DAY;
      return 0;
    }
    case DTF_ISOYEAR:
      dtf_isoweek(tm->year, tm->month, tm->day, &iy);
      dtf_int(v, iy <= 0 ? iy - 1 : iy);
      return 0;
    case DTF_DOW:
    case DTF_ISODOW: {
      int dow = dt__j2day(jd);
      dtf_int(v, eField == DTF_ISODOW && dow == 0 ? 7 : dow);
      return 0;
    }
    case DTF_DOY:
      dtf_int(v, jd - dt_date2j(tm->year, 1, 1) + 1);
      return 0;
    case DTF_TZ:
    case DTF_TZ_HOUR:
    case DTF_TZ_MINUTE:
      if (!bTz) break;
      dtf_int(v, eField == DTF_TZ ? tm->gmtoff
                 : eField == DTF_TZ_HOUR ? tm->gmtoff / 3600 : tm->gmtoff / 60 % 60);
      return 0;
  }
  return dtf_unsupported(zUnit, eType, pErr);
}

/* The field of an infinite timestamp: +-Infinity for the ever-growing
** ones, NULL for the others (PostgreSQL's NonFiniteTimestampTzPart). */
static int dtf_infinite(int eField, int bNeg, dt_type eType, const char *zUnit, dtf_value *v,
                        int *pbNull, sql_error *pErr) {
  switch (eField) {
    case DTF_YEAR: case DTF_DECADE: case DTF_CENTURY: case DTF_MILLENNIUM: case DTF_JULIAN:
    case DTF_ISOYEAR: case DTF_EPOCH:
      v->num = numeric_special(bNeg ? NUMERIC_NINF : NUMERIC_PINF);
      v->dbl = bNeg ? -INFINITY : INFINITY;
      return 0;
    case DTF_OTHER_RESERVED:
      return dtf_unsupported(zUnit, eType, pErr);
    default:
      *pbNull = 1;
      return 0;
  }
}

/* One field of a value of any type: extract's and date_part's answers. */
static int dtf_field(dt_type eType, const char *zUnit, const void *pValue, const tz_zone *pZone,
                     dtf_value *v, int *pbNull, sql_error *pErr) {
  char zLower[64];
  int eField;
  dt_tm tm;
  *pbNull = 0;
  dtf_lower(zUnit, zLower, sizeof(zLower));
  eField = dtf_lookup(zLower, 1);
  if (eField < 0) return dtf_unrecognized(zLower, eType, pErr);
  switch (eType) {
    case DT_TYPE_DATE: {
      int32_t d = *(const int32_t *)pValue;
      if (d == DT_DATE_NOBEGIN || d == DT_DATE_NOEND) {
        if (eField == DTF_DAY || eField == DTF_MONTH || eField == DTF_QUARTER ||
            eField == DTF_WEEK || eField == DTF_DOW || eField == DTF_ISODOW || eField == DTF_DOY) {
          *pbNull = 1;
          return 0;
        }
        if (eField == DTF_YEAR || eField == DTF_DECADE || eField == DTF_CENTURY ||
            eField == DTF_MILLENNIUM || eField == DTF_JULIAN || eField == DTF_ISOYEAR ||
            eField == DTF_EPOCH) {
          return dtf_infinite(eField, d == DT_DATE_NOBEGIN, eType, zLower, v, pbNull, pErr);
        }
        return dtf_unsupported(zLower, eType, pErr);
      }
      if (eField == DTF_EPOCH) {
        dtf_int(v, ((int64_t)d + DT_EPOCH_JD - DT_UNIX_EPOCH_JD) * DT_SECS_PER_DAY);
        return 0;
      }
      if (eField <= DTF_HOUR || eField >= DTF_TZ) return dtf_unsupported(zLower, eType, pErr);
      memset(&tm, 0, sizeof(tm));
      dt_date_to_ymd(d, &tm.year, &tm.month, &tm.day);
      if (eField == DTF_JULIAN) {
        dtf_int(v, (int64_t)d + DT_EPOCH_JD);
        return 0;
      }
      return dtf_tm_field(eField, &tm, 0, eType, zLower, v, pErr);
    }
    case DT_TYPE_TIMESTAMP:
    case DT_TYPE_TIMESTAMPTZ: {
      int64_t ts = *(const int64_t *)pValue;
      if (ts == DT_TS_NOBEGIN || ts == DT_TS_NOEND) {
        return dtf_infinite(eField, ts == DT_TS_NOBEGIN, eType, zLower, v, pbNull, pErr);
      }
      if (eField == DTF_EPOCH) {
        int64_t e = -(int64_t)(DT_EPOCH_JD - DT_UNIX_EPOCH_JD) * DT_USECS_PER_DAY;
        if (ts < INT64_MAX + e) {
          v->num = dtf_scaled(ts - e, 6);
          v->dbl = (double)(ts - e) / 1000000.0;
        } else {
          /* Past int64, PostgreSQL divides as numeric (16 significant
          ** digits) and rounds that to 6 decimals. */
          numeric a = numeric_from_int64(ts), b = numeric_from_int64(e), m = numeric_from_int64(1000000), q;
          numeric_sub(&a, &b, &a);
          numeric_div(&a, &m, &q);
          numeric_round(&q, 6, &v->num);
          v->dbl = ((double)ts - (double)e) / 1000000.0;
        }
        return 0;
      }
      if (eField == DTF_OTHER_RESERVED) return dtf_unsupported(zLower, eType, pErr);
      if (eType == DT_TYPE_TIMESTAMPTZ) dt_timestamptz_to_tm(ts, pZone, &tm);
      else dt_timestamp_to_tm(ts, &tm);
      return dtf_tm_field(eField, &tm, eType == DT_TYPE_TIMESTAMPTZ, eType, zLower, v, pErr);
    }
    case DT_TYPE_TIME: {
      int64_t t = *(const int64_t *)pValue;
      if (eField == DTF_EPOCH) {
        v->num = dtf_scaled(t, 6);
        v->dbl = t / 1000000.0;
        return 0;
      }
      if (eField == DTF_OTHER_RESERVED) return dtf_unrecognized(zLower, eType, pErr);
      if (eField > DTF_HOUR) return dtf_unsupported(zLower, eType, pErr);
      memset(&tm, 0, sizeof(tm));
      tm.hour = (int)(t / DT_USECS_PER_HOUR);
      tm.minute = (int)(t / DT_USECS_PER_MINUTE % 60);
      tm.second = (int)(t / DT_USECS_PER_SEC % 60);
      tm.usec = (int)(t % DT_USECS_PER_SEC);
      return dtf_tm_field(eField, &tm, 0, eType, zLower, v, pErr);
    }
    case DT_TYPE_INTERVAL: {
      const dt_interval *a = (const dt_interval *)pValue;
      dt_itm it;
      int64_t us;
      if (eField == DTF_EPOCH) {
        /* 365.25 days a year, 30 a month, in quarters of a day */
        __int128 secs = ((__int128)(4 * 365.25) * (a->month / 12) + (__int128)(4 * 30) * (a->month % 12) +
                         (__int128)4 * a->day) * (DT_SECS_PER_DAY / 4);
        __int128 dv = secs * 1000000 + a->time;
        v->num.lo = (uint64_t)dv;
        v->num.hi = (uint64_t)(dv >> 64);
        v->num.scale = 6;
        v->num.eKind = NUMERIC_FINITE;
        v->dbl = a->time / 1000000.0;
        v->dbl += (365.25 * DT_SECS_PER_DAY) * (a->month / 12);
        v->dbl += (30.0 * DT_SECS_PER_DAY) * (a->month % 12);
        v->dbl += (double)DT_SECS_PER_DAY * a->day;
        return 0;
      }
      if (eField == DTF_OTHER_RESERVED) return dtf_unrecognized(zLower, eType, pErr);
      dt_interval_to_itm(a, &it);
      us = (int64_t)it.second * DT_USECS_PER_SEC + it.usec;
      switch (eField) {
        case DTF_MICRO: dtf_int(v, us); return 0;
        case DTF_MILLI:
          v->num = dtf_scaled(us, 3);
          v->dbl = it.second * 1000.0 + (double)it.usec / 1000.0;
          return 0;
        case DTF_SECOND:
          v->num = dtf_scaled(us, 6);
          v->dbl = it.second + (double)it.usec / 1000000.0;
          return 0;
        case DTF_MINUTE: dtf_int(v, it.minute); return 0;
        case DTF_HOUR: dtf_int(v, it.hour); return 0;
        case DTF_DAY: dtf_int(v, it.day); return 0;
        case DTF_MONTH: dtf_int(v, it.month); return 0;
        case DTF_QUARTER: dtf_int(v, it.month / 3 + 1); return 0;
        case DTF_YEAR: dtf_int(v, it.year); return 0;
        case DTF_DECADE: dtf_int(v, it.year / 10); return 0;
        case DTF_CENTURY: dtf_int(v, it.year / 100); return 0;
        case DTF_MILLENNIUM: dtf_int(v, it.year / 1000); return 0;
      }
      return dtf_unsupported(zLower, eType, pErr);
    }
  }
  return dtf_unrecognized(zLower, eType, pErr);
}

int dt_extract(dt_type eType, const char *zUnit, const void *pValue, const tz_zone *pZone,
               numeric *pOut, int *pbNull, sql_error *pErr) {
  dtf_value v;
  if (dtf_field(eType, zUnit, pValue, pZone, &v, pbNull, pErr) != 0) return -1;
  *pOut = v.num;
  return 0;
}

int dt_date_part(dt_type eType, const char *zUnit, const void *pValue, const tz_zone *pZone,
                 double *pOut, int *pbNull, sql_error *pErr) {
  dtf_value v;
  if (eType == DT_TYPE_DATE) {
    /* date_part(text, date) is date_part(text, date::timestamp) */
    int64_t ts;
    int rc = dt_date_to_timestamp(*(const int32_t *)pValue, &ts);
    if (rc != DT_OK) {
      dt_error(rc, pErr);
      return -1;
    }
    return dt_date_part(DT_TYPE_TIMESTAMP, zUnit, &ts, pZone, pOut, pbNull, pErr);
  }
  if (dtf_field(eType, zUnit, pValue, pZone, &v, pbNull, pErr) != 0) return -1;
  *pOut = v.dbl;
  return 0;
}

/* ---- date_trunc ----------------------------------------------------------------- */

/* Cuts local fields tm to unit eField (PostgreSQL's timestamp_trunc
** cascade). Returns 0, 1 if the unit is a day or more (the zone's offset
** must be found again), or -1 if the unit is not one date_trunc takes. */
static int dtf_trunc_tm(int eField, dt_tm *tm) {
  int bRedo = 1;
  switch (eField) {
    case DTF_WEEK: {
      int w = dtf_pg_isoweek(tm->year, tm->month, tm->day);
      /* week 52/53 in January is last year's, week 1 in December next's */
      if (w >= 52 && tm->month == 1) tm->year--;
      if (w <= 1 && tm->month == 12) tm->year++;
      dt_j2date((int64_t)(w - 1) * 7 + dt__isoweek1(tm->year), &tm->year, &tm->month, &tm->day);
      tm->hour = tm->minute = tm->second = tm->usec = 0;
      return 1;
    }
    case DTF_MILLENNIUM:
      tm->year = tm->year > 0 ? ((tm->year + 999) / 1000) * 1000 - 999
                              : -((999 - (tm->year - 1)) / 1000) * 1000 + 1;
      /* fall through - centuries of the millennium's first year */
    case DTF_CENTURY:
      tm->year = tm->year > 0 ? ((tm->year + 99) / 100) * 100 - 99
                              : -((99 - (tm->year - 1)) / 100) * 100 + 1;
      /* fall through - as PostgreSQL */
    case DTF_DECADE:
      if (eField == DTF_DECADE) {
        tm->year = tm->year > 0 ? (tm->year / 10) * 10 : -((8 - (tm->year - 1)) / 10) * 10;
      }
      /* fall through - the year's start */
    case DTF_YEAR:
      tm->month = 1;
      /* fall through - the quarter's */
    case DTF_QUARTER:
      tm->month = 3 * ((tm->month - 1) / 3) + 1;
      /* fall through - the month's */
    case DTF_MONTH:
      tm->day = 1;
      /* fall through - the day's */
    case DTF_DAY:
      tm->hour = 0;
      /* fall through - a smaller unit keeps the offset */
    case DTF_HOUR:
      if (eField == DTF_HOUR) bRedo = 0;
      tm->minute = 0;
      /* fall through */
    case DTF_MINUTE:
      if (eField == DTF_MINUTE) bRedo = 0;
      tm->second = 0;
      /* fall through */
    case DTF_SECOND:
      if (eField == DTF_SECOND) bRedo = 0;
      tm->usec = 0;
      return bRedo;
    case DTF_MILLI:
      tm->usec = tm->usec / 1000 * 1000;
      return 0;
    case DTF_MICRO:
      return 0;
  }
  return -1;
}

int dt_trunc(dt_type eType, const char *zUnit, const void *pValue, const tz_zone *pZone,
             void *pOut, sql_error *pErr) {
  char zLower[64];
  int eField, rc;
  dtf_lower(zUnit, zLower, sizeof(zLower));
  eField = dtf_lookup(zLower, 0);
  if (eType == DT_TYPE_INTERVAL) {
    dt_interval r;
    dt_itm it;
    if (eField < 0) return dtf_unrecognized(zLower, eType, pErr);
    dt_interval_to_itm((const dt_interval *)pValue, &it);
    switch (eField) {
      case DTF_MILLENNIUM:
        it.year = it.year / 1000 * 1000;
        /* fall through */
      case DTF_CENTURY:
        it.year = it.year / 100 * 100;
        /* fall through */
      case DTF_DECADE:
        it.year = it.year / 10 * 10;
        /* fall through */
      case DTF_YEAR:
        it.month = 0;
        /* fall through */
      case DTF_QUARTER:
        it.month = 3 * (it.month / 3);
        /* fall through */
      case DTF_MONTH:
        it.day = 0;
        /* fall through */
      case DTF_DAY:
        it.hour = 0;
        /* fall through */
      case DTF_HOUR:
        it.minute = 0;
        /* fall through */
      case DTF_MINUTE:
        it.second = 0;
        /* fall through */
      case DTF_SECOND:
        it.usec = 0;
        break;
      case DTF_MILLI:
        it.usec = it.usec / 1000 * 1000;
        break;
      case DTF_MICRO:
        break;
      default:
        return dtf_unsupported(zLower, eType, pErr);
    }
    if ((rc = dt_interval_from_itm(&it, &r)) != DT_OK) {
      dt_error(rc, pErr);
      return -1;
    }
    *(dt_interval *)pOut = r;
    return 0;
  }
  {
    int64_t ts = *(const int64_t *)pValue, r;
    dt_tm tm;
    int bTz = eType == DT_TYPE_TIMESTAMPTZ, bRedo;
    if (ts == DT_TS_NOBEGIN || ts == DT_TS_NOEND) {
      *(int64_t *)pOut = ts;
      return 0;
    }
    if (eField < 0) return dtf_unrecognized(zLower, eType, pErr);
    if (bTz) dt_timestamptz_to_tm(ts, pZone, &tm);
    else dt_timestamp_to_tm(ts, &tm);
    bRedo = dtf_trunc_tm(eField, &tm);
    if (bRedo < 0) return dtf_unsupported(zLower, eType, pErr);
    if (!bTz) rc = dt_timestamp_from_tm(&tm, &r);
    else if (bRedo) rc = dt_timestamptz_from_tm(&tm, pZone, &r);
    else if (!dt__julian_ok(tm.year, tm.month)) rc = DT_E_TS_RANGE;
    else rc = dt__ts_compose(dt_date2j(tm.year, tm.month, tm.day),
                             (((int64_t)tm.hour * 60 + tm.minute) * 60 + tm.second) *
                                     DT_USECS_PER_SEC + tm.usec,
                             tm.gmtoff, &r) == 0 ? DT_OK : DT_E_TS_RANGE;
    if (rc != DT_OK) {
      dt_error(rc, pErr);
      return -1;
    }
    *(int64_t *)pOut = r;
    return 0;
  }
}

/* ---- values from fields ------------------------------------------------------- */

/* make_date's and make_timestamp's date part: negative years BC, then
** PostgreSQL's ValidateDate and Julian range. Returns 0 with the Julian
** day, 1 for "field value out of range", 2 for "out of range". */
static int dtf_make_day(int y, int m, int d, int64_t *pJd) {
  int year = y;
  if (year < 0) year = -(-year - 1);        /* BC: -44 is 44 BC, year -43 */
  else if (year == 0) return 1;
  if (m < 1 || m > 12 || d < 1 || d > 31 || d > dt_days_in_month(year, m)) return 1;
  if (!dt__julian_ok(year, m)) return 2;
  *pJd = dt_date2j(year, m, d);
  return 0;
}

int dt_make_date(int y, int m, int d, int32_t *pDate, sql_error *pErr) {
  int64_t jd;
  int rc = dtf_make_day(y, m, d, &jd);
  /* The message shows the year as ValidateDate left it. */
  int yShow = y < 0 ? -(-y - 1) : y;
  if (rc == 1) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1, "date field value out of range: %d-%02d-%02d",
                  yShow, m, d);
    return -1;
  }
  if (rc == 2 || !dt_jd_valid(jd, 0)) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1, "date out of range: %d-%02d-%02d", yShow, m,
                  d);
    return -1;
  }
  *pDate = (int32_t)(jd - DT_EPOCH_JD);
  return 0;
}

int dt_make_timestamp(int y, int m, int d, int h, int mi, double sec, int64_t *pTs,
                      sql_error *pErr) {
  int64_t jd, t, us;
  int rc = dtf_make_day(y, m, d, &jd);
  double r;
  if (rc == 1) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1, "date field value out of range: %d-%02d-%02d",
                  y, m, d);
    return -1;
  }
  if (rc == 2) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1, "date out of range: %d-%02d-%02d", y, m, d);
    return -1;
  }
  /* PostgreSQL's float_time_overflows: 24:00:00 and :60 allowed, no more */
  r = isnan(sec) ? -1 : rint(sec * DT_USECS_PER_SEC);
  if (h < 0 || h > 24 || mi < 0 || mi >= 60 || r < 0 || r > 60.0 * DT_USECS_PER_SEC ||
      (((int64_t)h * 60 + mi) * 60) * DT_USECS_PER_SEC + (int64_t)r > DT_USECS_PER_DAY) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1, "time field value out of range: %d:%02d:%02g",
                  h, mi, sec);
    return -1;
  }
  us = (int64_t)rint(sec * DT_USECS_PER_SEC);
  t = (((int64_t)h * 60 + mi) * 60) * DT_USECS_PER_SEC + us;
  if (dt__ts_compose(jd, t, 0, pTs) != 0) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1,
                  "timestamp out of range: %d-%02d-%02d %d:%02d:%02g", y, m, d, h, mi, sec);
    return -1;
  }
  return 0;
}

int dt_make_interval(int years, int months, int weeks, int days, int hours, int mins,
                     double secs, dt_interval *pOut, sql_error *pErr) {
  double us;
  if (isinf(secs) || isnan(secs)) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1, "interval out of range");
    return -1;
  }
  /* PostgreSQL 15 multiplies and adds the integers unchecked: they wrap. */
  pOut->month = (int32_t)((uint32_t)years * 12u + (uint32_t)months);
  pOut->day = (int32_t)((uint32_t)weeks * 7u + (uint32_t)days);
  us = rint(secs * DT_USECS_PER_SEC);
  pOut->time = (int64_t)((uint64_t)(int64_t)hours * (uint64_t)DT_USECS_PER_HOUR +
                         (uint64_t)(int64_t)mins * (uint64_t)DT_USECS_PER_MINUTE +
                         (uint64_t)(int64_t)us);
  return 0;
}

int dt_to_timestamp_epoch(double secs, int64_t *pTs, sql_error *pErr) {
  double v;
  if (isnan(secs)) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1, "timestamp cannot be NaN");
    return -1;
  }
  if (isinf(secs)) {
    *pTs = secs < 0 ? DT_TS_NOBEGIN : DT_TS_NOEND;
    return 0;
  }
  if (secs < (double)DT_SECS_PER_DAY * (DT_JD_MIN - DT_UNIX_EPOCH_JD) ||
      secs >= (double)DT_SECS_PER_DAY * (DT_TS_END_JD - DT_UNIX_EPOCH_JD)) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1, "timestamp out of range: \"%g\"", secs);
    return -1;
  }
  v = rint((secs - (double)(DT_EPOCH_JD - DT_UNIX_EPOCH_JD) * DT_SECS_PER_DAY) * DT_USECS_PER_SEC);
  if (v < (double)DT_TS_MIN || v >= (double)DT_TS_END) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1, "timestamp out of range: \"%g\"", secs);
    return -1;
  }
  *pTs = (int64_t)v;
  return 0;
}
