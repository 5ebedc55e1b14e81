/*
** common/datetime-arith.c — arithmetic on dates and timestamps as
** PostgreSQL 15 does it (datetime.h): date +/- days, date - date, casts
** between date, timestamp and timestamptz, timestamp +/- interval,
** timestamp - timestamp, age.
**
** An interval's fields are applied one after the other, each in the
** calendar of the value: months first (the day clamped to the month's
** end: Jan 31 + 1 month is Feb 28 or 29), then days (through the Julian
** day; for timestamptz in the session's zone, so a day across a DST change
** is 23 or 25 hours), then the microseconds. timestamp - timestamp is days
** and a time of day (justify_hours), never months; age() is the symbolic
** difference of the fields, borrowing from the month that came before.
** Infinite values pass through +/- interval and make - an error. Where
** PostgreSQL 15 lets an int64 wrap (timestamp - timestamp across the
** whole range) or reads infinity's bits as a date (age), so does this.
**
** INTERFACE ROUTINES
**   dt_date_add_days, dt_date_diff, dt_date_to_timestamp,
**   dt_date_to_timestamptz, dt_timestamp_to_date, dt_timestamptz_to_date,
**   dt_timestamptz_to_timestamp, dt_timestamp_to_timestamptz,
**   dt_timestamp_add_interval, dt_timestamp_sub_interval,
**   dt_timestamptz_add_interval, dt_timestamptz_sub_interval,
**   dt_timestamp_diff, dt_timestamp_age, dt_timestamptz_age
*/
#include <limits.h>
#include <string.h>

#include "datetimeInt.h"

static int dta_ts_finite(int64_t ts) {
  return ts != DT_TS_NOBEGIN && ts != DT_TS_NOEND;
}

static int dta_date_finite(int32_t d) {
  return d != DT_DATE_NOBEGIN && d != DT_DATE_NOEND;
}

int dt_date_add_days(int32_t date, int64_t nDays, int32_t *pOut) {
  int64_t r;
  if (!dta_date_finite(date)) {
    *pOut = date;
    return DT_OK;
  }
  r = (int64_t)date + nDays;
  if (r < DT_DATE_MIN || r >= DT_DATE_END) return DT_E_DATE_RANGE;
  *pOut = (int32_t)r;
  return DT_OK;
}

int dt_date_diff(int32_t a, int32_t b, int32_t *pDays) {
  if (!dta_date_finite(a) || !dta_date_finite(b)) return DT_E_INFINITE_DATE;
  *pDays = a - b;
  return DT_OK;
}

int dt_date_to_timestamp(int32_t date, int64_t *pTs) {
  if (date == DT_DATE_NOBEGIN) *pTs = DT_TS_NOBEGIN;
  else if (date == DT_DATE_NOEND) *pTs = DT_TS_NOEND;
  else if (date >= DT_TS_END_JD - DT_EPOCH_JD) return DT_E_DATE_TS_RANGE;
  else *pTs = (int64_t)date * DT_USECS_PER_DAY;
  return DT_OK;
}

int dt_date_to_timestamptz(int32_t date, const tz_zone *pZone, int64_t *pTs) {
  dt_tm tm;
  int64_t ts;
  if (!dta_date_finite(date) || date >= DT_TS_END_JD - DT_EPOCH_JD) {
    return dt_date_to_timestamp(date, pTs);
  }
  memset(&tm, 0, sizeof(tm));
  dt_date_to_ymd(date, &tm.year, &tm.month, &tm.day);
  if (dt_timestamptz_from_tm(&tm, pZone, &ts) != DT_OK) return DT_E_DATE_TS_RANGE;
  *pTs = ts;
  return DT_OK;
}

/* floor(ts / a day). */
static int32_t dta_day_of(int64_t ts) {
  return (int32_t)(ts >= 0 ? ts / DT_USECS_PER_DAY : -((-ts - 1) / DT_USECS_PER_DAY) - 1);
}

int dt_timestamp_to_date(int64_t ts, int32_t *pDate) {
  if (ts == DT_TS_NOBEGIN) *pDate = DT_DATE_NOBEGIN;
  else if (ts == DT_TS_NOEND) *pDate = DT_DATE_NOEND;
  else *pDate = dta_day_of(ts);
  return DT_OK;
}

int dt_timestamptz_to_date(int64_t ts, const tz_zone *pZone, int32_t *pDate) {
  dt_tm tm;
  if (!dta_ts_finite(ts)) return dt_timestamp_to_date(ts, pDate);
  dt_timestamptz_to_tm(ts, pZone, &tm);
  *pDate = (int32_t)(dt_date2j(tm.year, tm.month, tm.day) - DT_EPOCH_JD);
  return DT_OK;
}

int dt_timestamptz_to_timestamp(int64_t ts, const tz_zone *pZone, int64_t *pOut) {
  dt_tm tm;
  if (!dta_ts_finite(ts)) {
    *pOut = ts;
    return DT_OK;
  }
  dt_timestamptz_to_tm(ts, pZone, &tm);
  return dt_timestamp_from_tm(&tm, pOut);
}

int dt_timestamp_to_timestamptz(int64_t ts, const tz_zone *pZone, int64_t *pOut) {
  dt_tm tm;
  if (!dta_ts_finite(ts)) {
    *pOut = ts;
    return DT_OK;
  }
  dt_timestamp_to_tm(ts, &tm);
  return dt_timestamptz_from_tm(&tm, pZone, pOut);
}

/* Fields of ts: local in pZone when bTz. */
static void dta_fields(int64_t ts, int bTz, const tz_zone *pZone, dt_tm *tm) {
  if (bTz) dt_timestamptz_to_tm(ts, pZone, tm);
  else dt_timestamp_to_tm(ts, tm);
}

/* Fields back to an instant: local in pZone (its offset at that local
** time) when bTz. */
static int dta_instant(dt_tm *tm, int bTz, const tz_zone *pZone, int64_t *pTs) {
  if (bTz) return dt_timestamptz_from_tm(tm, pZone, pTs);
  return dt_timestamp_from_tm(tm, pTs);
}

/* timestamp[tz] + interval (timestamp_pl_interval, timestamptz_pl_interval). */
static int dta_add(int64_t ts, const dt_interval *a, int bTz, const tz_zone *pZone, int64_t *pOut) {
  dt_tm tm;
  if (!dta_ts_finite(ts)) {
    *pOut = ts;
    return DT_OK;
  }
  if (a->month != 0) {
    int64_t m;
    dta_fields(ts, bTz, pZone, &tm);
    m = (int64_t)tm.month + a->month;
    if (m > 12) {
      tm.year += (int)((m - 1) / 12);
      tm.month = (int)((m - 1) % 12 + 1);
    } else if (m < 1) {
      tm.year += (int)(m / 12 - 1);
      tm.month = (int)(m % 12 + 12);
    } else {
      tm.month = (int)m;
    }
    if (tm.day > dt_days_in_month(tm.year, tm.month)) tm.day = dt_days_in_month(tm.year, tm.month);
    if (dta_instant(&tm, bTz, pZone, &ts) != DT_OK) return DT_E_TS_RANGE;
  }
  if (a->day != 0) {
    int64_t jd;
    dta_fields(ts, bTz, pZone, &tm);
    jd = dt_date2j(tm.year, tm.month, tm.day) + a->day;
    if (jd > INT_MAX || jd < INT_MIN) return DT_E_TS_RANGE;
    dt_j2date(jd, &tm.year, &tm.month, &tm.day);
    if (dta_instant(&tm, bTz, pZone, &ts) != DT_OK) return DT_E_TS_RANGE;
  }
  if (__builtin_add_overflow(ts, a->time, &ts)) return DT_E_TS_RANGE;
  if (ts < DT_TS_MIN || ts >= DT_TS_END) return DT_E_TS_RANGE;
  *pOut = ts;
  return DT_OK;
}

/* The interval negated field by field, as timestamp_mi_interval does
** (wrapping as PostgreSQL's does for the most negative values). */
static dt_interval dta_negate(const dt_interval *a) {
  dt_interval r;
  r.month = (int32_t)(0u - (uint32_t)a->month);
  r.day = (int32_t)(0u - (uint32_t)a->day);
  r.time = (int64_t)(0ull - (uint64_t)a->time);
  return r;
}

int dt_timestamp_add_interval(int64_t ts, const dt_interval *a, int64_t *pOut) {
  return dta_add(ts, a, 0, NULL, pOut);
}

int dt_timestamp_sub_interval(int64_t ts, const dt_interval *a, int64_t *pOut) {
  dt_interval n = dta_negate(a);
  return dta_add(ts, &n, 0, NULL, pOut);
}

int dt_timestamptz_add_interval(int64_t ts, const dt_interval *a, const tz_zone *pZone,
                                int64_t *pOut) {
  return dta_add(ts, a, 1, pZone, pOut);
}

int dt_timestamptz_sub_interval(int64_t ts, const dt_interval *a, const tz_zone *pZone,
                                int64_t *pOut) {
  dt_interval n = dta_negate(a);
  return dta_add(ts, &n, 1, pZone, pOut);
}

int dt_timestamp_diff(int64_t a, int64_t b, dt_interval *pOut) {
  dt_interval r = {0, 0, 0};
  if (!dta_ts_finite(a) || !dta_ts_finite(b)) return DT_E_INFINITE_TS;
  /* PostgreSQL 15 does not check this subtraction: it wraps. */
  r.time = (int64_t)((uint64_t)a - (uint64_t)b);
  return dt_interval_justify_hours(&r, pOut);
}

/* age(): the fields' difference, negative fields borrowed from the next
** larger one; a day borrows the length of the month before a's or b's
** (the earlier one's). */
static int dta_age(int64_t a, int64_t b, int bTz, const tz_zone *pZone, dt_interval *pOut) {
  dt_tm t1, t2;
  int64_t usec, t;
  int sec, min, hour, mday, mon, year, bFlip = a < b;
  /* PostgreSQL 15 takes infinity's fields as those of its bits (year
  ** 294277); -infinity has none. */
  if (a == DT_TS_NOBEGIN || b == DT_TS_NOBEGIN) return DT_E_TS_RANGE;
  dta_fields(a, bTz, pZone, &t1);
  dta_fields(b, bTz, pZone, &t2);
  usec = (int64_t)t1.usec - t2.usec;
  sec = t1.second - t2.second;
  min = t1.minute - t2.minute;
  hour = t1.hour - t2.hour;
  mday = t1.day - t2.day;
  mon = t1.month - t2.month;
  year = t1.year - t2.year;
  if (bFlip) {
    usec = -usec, sec = -sec, min = -min, hour = -hour, mday = -mday, mon = -mon, year = -year;
  }
  while (usec < 0) usec += DT_USECS_PER_SEC, sec--;
  while (sec < 0) sec += 60, min--;
  while (min < 0) min += 60, hour--;
  while (hour < 0) hour += 24, mday--;
  while (mday < 0) {
    const dt_tm *pFrom = bFlip ? &t1 : &t2;
    mday += dt_days_in_month(pFrom->year, pFrom->month);
    mon--;
  }
  while (mon < 0) mon += 12, year--;
  if (bFlip) {
    usec = -usec, sec = -sec, min = -min, hour = -hour, mday = -mday, mon = -mon, year = -year;
  }
  if ((int64_t)year * 12 + mon > INT_MAX || (int64_t)year * 12 + mon < INT_MIN) {
    return DT_E_INTERVAL_RANGE;
  }
  t = ((int64_t)hour * 60 + min) * 60 + sec;
  pOut->month = year * 12 + mon;
  pOut->day = mday;
  pOut->time = t * DT_USECS_PER_SEC + usec;
  return DT_OK;
}

int dt_timestamp_age(int64_t a, int64_t b, dt_interval *pOut) {
  return dta_age(a, b, 0, NULL, pOut);
}

int dt_timestamptz_age(int64_t a, int64_t b, const tz_zone *pZone, dt_interval *pOut) {
  return dta_age(a, b, 1, pZone, pOut);
}
