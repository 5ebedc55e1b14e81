/*
** common/datetime.c — the calendar under PostgreSQL's date and time types
** (datetime.h): Julian days, dates, timestamps and their fields, local
** time in a zone, starq's yyyymmdd, and the ISO text PostgreSQL prints.
**
** Days are counted with the proleptic Gregorian calendar: PostgreSQL's
** date2j one way, the civil-day algorithm (eras of 400 years) the other,
** exact for every Julian day PostgreSQL accepts and free of table
** lookups, so the kernels can use them as they are.
** Zones are tz.c's; what to do when a local time is skipped or repeated
** is decided here, as PostgreSQL's DetermineTimeZoneOffset decides it.
**
** INTERFACE ROUTINES
**   dt_date2j, dt_j2date, dt_is_leap, dt_days_in_month, dt_jd_valid
**   dt_date_from_ymd, dt_date_to_ymd, dt_date_from_yyyymmdd, dt_date_to_yyyymmdd
**   dt_timestamp_from_tm, dt_timestamp_to_tm
**   dt_timestamptz_to_tm, dt_timestamptz_from_tm
**   dt_date_format, dt_timestamp_format, dt_timestamptz_format, dt_time_format
**   dt_error
**   dt_date_send, dt_date_recv, dt_timestamp_send, dt_timestamp_recv,
**   dt_interval_send, dt_interval_recv
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datetimeInt.h"
#include "tz.h"

/* ---- days ------------------------------------------------------------------ */

int64_t dt_date2j(int64_t y, int m, int d) {
  int64_t mm = m, c;
  /* PostgreSQL's date2j, in 64 bits: the same answer for every date, and
  ** the same for fields that are not a date (to_char of an interval). */
  if (mm > 2) {
    mm += 1;
    y += 4800;
  } else {
    mm += 13;
    y += 4799;
  }
  c = y / 100;
  return y * 365 - 32167 + y / 4 - c + c / 4 + 7834 * mm / 256 + d;
}

void dt_j2date(int64_t jd, int *py, int *pm, int *pd) {
  int64_t z = jd - DT_UNIX_EPOCH_JD + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  int m = (int)(mp < 10 ? mp + 3 : mp - 9);
  *pd = (int)(doy - (153 * mp + 2) / 5 + 1);
  *pm = m;
  *py = (int)(yoe + era * 400 + (m <= 2));
}

int dt_is_leap(int y) {
  return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

int dt_days_in_month(int y, int m) {
  static const unsigned char aDays[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && dt_is_leap(y) ? 29 : aDays[m];
}

int dt_jd_valid(int64_t jd, int bTimestamp) {
  return jd >= DT_JD_MIN && jd < (bTimestamp ? DT_TS_END_JD : DT_DATE_END_JD);
}

int32_t dt_date_from_ymd(int y, int m, int d) {
  return (int32_t)(dt_date2j(y, m, d) - DT_EPOCH_JD);
}

void dt_date_to_ymd(int32_t date, int *py, int *pm, int *pd) {
  dt_j2date((int64_t)date + DT_EPOCH_JD, py, pm, pd);
}

int dt_date_from_yyyymmdd(int32_t v, int32_t *pDate) {
  int y = v / 10000, m = v / 100 % 100, d = v % 100;
  if (v < 0 || y < 1 || m < 1 || m > 12 || d < 1 || d > dt_days_in_month(y, m)) {
    return DT_E_DATE_RANGE;
  }
  *pDate = dt_date_from_ymd(y, m, d);
  return DT_OK;
}

int32_t dt_date_to_yyyymmdd(int32_t date) {
  int y, m, d;
  dt_date_to_ymd(date, &y, &m, &d);
  return y * 10000 + m * 100 + d;
}

/* ---- timestamps and their fields ---------------------------------------------- */

/* floor(a / b) for b > 0. */
static int64_t dt_floor_div(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-(a + 1)) / b) - 1;
}

int dt_timestamp_from_tm(const dt_tm *tm, int64_t *pTs) {
  int64_t t = (((int64_t)tm->hour * 60 + tm->minute) * 60 + tm->second) * DT_USECS_PER_SEC;
  /* PostgreSQL checks the month's end only; the day goes to the range
  ** check. */
  if (!dt__julian_ok(tm->year, tm->month)) return DT_E_TS_RANGE;
  if (dt__ts_compose(dt_date2j(tm->year, tm->month, tm->day), t + tm->usec, 0, pTs) != 0) {
    return DT_E_TS_RANGE;
  }
  return DT_OK;
}

void dt_timestamp_to_tm(int64_t ts, dt_tm *tm) {
  /* The remainder, not ts - days * DAY: near the type's ends (a value
  ** off the wire) that product leaves int64. */
  int64_t days = dt_floor_div(ts, DT_USECS_PER_DAY);
  int64_t t = ts % DT_USECS_PER_DAY;
  if (t < 0) t += DT_USECS_PER_DAY;
  dt_j2date(days + DT_EPOCH_JD, &tm->year, &tm->month, &tm->day);
  tm->hour = (int)(t / DT_USECS_PER_HOUR);
  t -= tm->hour * DT_USECS_PER_HOUR;
  tm->minute = (int)(t / DT_USECS_PER_MINUTE);
  t -= tm->minute * DT_USECS_PER_MINUTE;
  tm->second = (int)(t / DT_USECS_PER_SEC);
  tm->usec = (int)(t - tm->second * DT_USECS_PER_SEC);
  tm->gmtoff = 0;
  tm->isdst = 0;
  tm->zAbbrev = NULL;
}

int dt_timestamptz_to_tm(int64_t ts, const tz_zone *pZone, dt_tm *tm) {
  int gmtoff = 0, isdst = 0;
  const char *zAbbrev = "UTC";
  int64_t sec = dt_floor_div(ts, DT_USECS_PER_SEC), usec = ts % DT_USECS_PER_SEC;
  if (usec < 0) usec += DT_USECS_PER_SEC;
  if (pZone != NULL) {
    tz_zone_at(pZone, sec + (int64_t)(DT_EPOCH_JD - DT_UNIX_EPOCH_JD) * DT_SECS_PER_DAY, &gmtoff,
               &isdst, &zAbbrev);
  }
  /* In seconds: infinity's bits plus an offset east do not fit in
  ** microseconds. */
  sec += gmtoff;
  {
    int64_t days = dt_floor_div(sec, DT_SECS_PER_DAY), s = sec % DT_SECS_PER_DAY;
    if (s < 0) s += DT_SECS_PER_DAY;
    dt_j2date(days + DT_EPOCH_JD, &tm->year, &tm->month, &tm->day);
    tm->hour = (int)(s / 3600);
    tm->minute = (int)(s / 60 % 60);
    tm->second = (int)(s % 60);
    tm->usec = (int)usec;
  }
  tm->gmtoff = gmtoff;
  tm->isdst = isdst;
  tm->zAbbrev = zAbbrev;
  return DT_OK;
}

int dt_timestamptz_from_tm(dt_tm *tm, const tz_zone *pZone, int64_t *pTs) {
  int64_t tLocal, tPrev, tBoundary, tBefore, tAfter;
  int iBefore, iAfter, iOff;
  tm->gmtoff = 0;
  /* Out of the Julian range PostgreSQL takes UTC. */
  if (pZone != NULL && dt__julian_ok(tm->year, tm->month)) {
    /* The local time as if it were UTC, in seconds since 1970. */
    tLocal = (dt_date2j(tm->year, tm->month, tm->day) - DT_UNIX_EPOCH_JD) * DT_SECS_PER_DAY +
             ((int64_t)tm->hour * 60 + tm->minute) * 60 + tm->second;
    /* The first change of offset after a day before: no zone has changes
    ** closer than two days apart or offsets past a day. */
    tPrev = tLocal - DT_SECS_PER_DAY;
    if (!tz_zone_next_boundary(pZone, tPrev, &tBoundary, &iBefore, &iAfter)) {
      iOff = iBefore;
    } else {
      tBefore = tLocal - iBefore;
      tAfter = tLocal - iAfter;
      if (tBefore < tBoundary && tAfter < tBoundary) iOff = iBefore;
      else if (tBefore > tBoundary && tAfter >= tBoundary) iOff = iAfter;
      /* Skipped (spring forward): the offset before; repeated (fall
      ** back): the offset after. */
      else iOff = tBefore > tAfter ? iBefore : iAfter;
    }
    tm->gmtoff = iOff;
  }
  if (!dt__julian_ok(tm->year, tm->month) ||
      dt__ts_compose(dt_date2j(tm->year, tm->month, tm->day),
                     (((int64_t)tm->hour * 60 + tm->minute) * 60 + tm->second) *
                             DT_USECS_PER_SEC + tm->usec,
                     tm->gmtoff, pTs) != 0) {
    return DT_E_TS_RANGE;
  }
  return DT_OK;
}

/* ---- ISO text ------------------------------------------------------------------ */

/* Appends the formatted text to z[0..n) at *pi (always NUL-terminated). */
static void dt_put(char *z, size_t n, size_t *pi, const char *zFmt, long long v, int w) {
  int k = snprintf(*pi < n ? z + *pi : NULL, *pi < n ? n - *pi : 0, zFmt, w, v);
  if (k > 0) *pi += (size_t)k;
}

void dt__seconds_append(char *z, size_t n, size_t *pi, int sec, int usec, int bPad) {
  dt_put(z, n, pi, "%0*lld", sec < 0 ? -(long long)sec : sec, bPad ? 2 : 1);
  if (usec != 0) {
    char zFrac[8];
    int k;
    snprintf(zFrac, sizeof(zFrac), "%06d", usec < 0 ? -usec : usec);
    for (k = 6; k > 1 && zFrac[k - 1] == '0'; k--) {
    }
    zFrac[k] = 0;
    if (*pi + 1 < n) z[(*pi)++] = '.';
    else (*pi)++;
    for (int i = 0; i < k; i++) {
      if (*pi + 1 < n) z[*pi] = zFrac[i];
      (*pi)++;
    }
    if (n > 0) z[*pi < n ? *pi : n - 1] = 0;
  }
}

/* Appends y-m-d (the year of the era, 4 digits at least). */
static void dt_ymd_append(char *z, size_t n, size_t *pi, const dt_tm *tm) {
  dt_put(z, n, pi, "%0*lld", tm->year > 0 ? tm->year : 1LL - tm->year, 4);
  dt_put(z, n, pi, "-%0*lld", tm->month, 2);
  dt_put(z, n, pi, "-%0*lld", tm->day, 2);
}

/* Appends the time of day h:m:s[.f]. */
static void dt_hms_append(char *z, size_t n, size_t *pi, const dt_tm *tm) {
  dt_put(z, n, pi, "%0*lld", tm->hour, 2);
  dt_put(z, n, pi, ":%0*lld:", tm->minute, 2);
  dt__seconds_append(z, n, pi, tm->second, tm->usec, 1);
}

/* Appends an offset east of UTC as PostgreSQL's EncodeTimezone: "+05",
** "-03:30", "+00:53:28". */
static void dt_offset_append(char *z, size_t n, size_t *pi, int gmtoff) {
  int s = gmtoff < 0 ? -gmtoff : gmtoff;
  int h = s / 3600, m = s / 60 % 60, sec = s % 60;
  dt_put(z, n, pi, gmtoff >= 0 ? "+%0*lld" : "-%0*lld", h, 2);
  if (m != 0 || sec != 0) dt_put(z, n, pi, ":%0*lld", m, 2);
  if (sec != 0) dt_put(z, n, pi, ":%0*lld", sec, 2);
}

/* Appends a constant string. */
static void dt_puts(char *z, size_t n, size_t *pi, const char *zText) {
  int k = snprintf(*pi < n ? z + *pi : NULL, *pi < n ? n - *pi : 0, "%s", zText);
  if (k > 0) *pi += (size_t)k;
}

static int dt_special(int bEnd, char *z, size_t n) {
  return snprintf(z, n, "%s", bEnd ? "infinity" : "-infinity");
}

int dt_date_format(int32_t date, char *z, size_t n) {
  dt_tm tm;
  size_t i = 0;
  if (date == DT_DATE_NOBEGIN || date == DT_DATE_NOEND) {
    return dt_special(date == DT_DATE_NOEND, z, n);
  }
  dt_date_to_ymd(date, &tm.year, &tm.month, &tm.day);
  dt_ymd_append(z, n, &i, &tm);
  if (tm.year <= 0) dt_puts(z, n, &i, " BC");
  return (int)i;
}

int dt_timestamp_format(int64_t ts, char *z, size_t n) {
  dt_tm tm;
  size_t i = 0;
  if (ts == DT_TS_NOBEGIN || ts == DT_TS_NOEND) return dt_special(ts == DT_TS_NOEND, z, n);
  dt_timestamp_to_tm(ts, &tm);
  dt_ymd_append(z, n, &i, &tm);
  dt_puts(z, n, &i, " ");
  dt_hms_append(z, n, &i, &tm);
  if (tm.year <= 0) dt_puts(z, n, &i, " BC");
  return (int)i;
}

int dt_timestamptz_format(int64_t ts, const tz_zone *pZone, char *z, size_t n) {
  dt_tm tm;
  size_t i = 0;
  if (ts == DT_TS_NOBEGIN || ts == DT_TS_NOEND) return dt_special(ts == DT_TS_NOEND, z, n);
  dt_timestamptz_to_tm(ts, pZone, &tm);
  dt_ymd_append(z, n, &i, &tm);
  dt_puts(z, n, &i, " ");
  dt_hms_append(z, n, &i, &tm);
  dt_offset_append(z, n, &i, tm.gmtoff);
  if (tm.year <= 0) dt_puts(z, n, &i, " BC");
  return (int)i;
}

int dt_time_format(int64_t t, char *z, size_t n) {
  dt_tm tm;
  size_t i = 0;
  tm.hour = (int)(t / DT_USECS_PER_HOUR);
  tm.minute = (int)(t / DT_USECS_PER_MINUTE % 60);
  tm.second = (int)(t / DT_USECS_PER_SEC % 60);
  tm.usec = (int)(t % DT_USECS_PER_SEC);
  dt_hms_append(z, n, &i, &tm);
  return (int)i;
}

void dt_error(int rc, sql_error *pErr) {
  static const char *const azMsg[] = {
      "", "date out of range", "timestamp out of range", "interval out of range",
      "division by zero", "cannot subtract infinite dates", "cannot subtract infinite timestamps",
      "time out of range", "date out of range for timestamp"};
  const char *zState = rc == DT_E_DIV_ZERO ? SQLSTATE_DIVISION_BY_ZERO : SQLSTATE_INVALID_DATETIME;
  if (rc <= DT_OK || rc > DT_E_DATE_TS_RANGE) rc = DT_E_TS_RANGE;
  sql_error_set(pErr, zState, -1, "%s", azMsg[rc]);
}

/* ---- the wire ------------------------------------------------------------------- */

static void dt_put_be(uint64_t v, unsigned char *a, int n) {
  for (int i = n - 1; i >= 0; i--, v >>= 8) a[i] = (unsigned char)v;
}

static uint64_t dt_get_be(const unsigned char *a, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v = v << 8 | a[i];
  return v;
}

void dt_date_send(int32_t date, unsigned char a[4]) {
  dt_put_be((uint32_t)date, a, 4);
}

int32_t dt_date_recv(const unsigned char a[4]) {
  return (int32_t)(uint32_t)dt_get_be(a, 4);
}

void dt_timestamp_send(int64_t ts, unsigned char a[8]) {
  dt_put_be((uint64_t)ts, a, 8);
}

int64_t dt_timestamp_recv(const unsigned char a[8]) {
  return (int64_t)dt_get_be(a, 8);
}

void dt_interval_send(const dt_interval *p, unsigned char a[16]) {
  dt_put_be((uint64_t)p->time, a, 8);
  dt_put_be((uint32_t)p->day, a + 8, 4);
  dt_put_be((uint32_t)p->month, a + 12, 4);
}

void dt_interval_recv(const unsigned char a[16], dt_interval *p) {
  p->time = (int64_t)dt_get_be(a, 8);
  p->day = (int32_t)(uint32_t)dt_get_be(a + 8, 4);
  p->month = (int32_t)(uint32_t)dt_get_be(a + 12, 4);
}
