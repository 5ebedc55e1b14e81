/*
** tests/test-datetime-pg.c — common/datetime*.c against PostgreSQL 15,
** value by value (pgdiff.h): text in and out of date, timestamp,
** timestamptz and interval in six zones, then arithmetic and fields.
** Every case is one expression PostgreSQL evaluates and the library's
** answer (or error) for it; the spellings and values come from
** datetime-gen.c.
*/
#include <stdio.h>
#include <string.h>

#include "../common/datetime.h"
#include "../common/tz.h"
#include "datetime-gen.h"
#include "test.h"

/* The library's text of zIn as type eType ('d' date, 't' timestamp, 'z'
** timestamptz), or its error. */
static void dtp_case(dtgen *g, char eType, const char *zIn) {
  char zOut[DT_TEXT_MAX + 256], zExpr[512];
  sql_error e;
  int rc;
  sql_error_clear(&e);
  if (eType == 'd') {
    int32_t d;
    rc = dt_date_parse(zIn, strlen(zIn), &g->s, &d, &e);
    if (rc == 0) dt_date_format(d, zOut, sizeof(zOut));
  } else {
    int64_t ts;
    rc = eType == 't' ? dt_timestamp_parse(zIn, strlen(zIn), &g->s, &ts, &e)
                      : dt_timestamptz_parse(zIn, strlen(zIn), &g->s, &ts, &e);
    if (rc == 0 && eType == 't') dt_timestamp_format(ts, zOut, sizeof(zOut));
    if (rc == 0 && eType == 'z') dt_timestamptz_format(ts, g->s.pZone, zOut, sizeof(zOut));
  }
  if (rc != 0) dtgen_error_text(&e, zOut, sizeof(zOut));
  snprintf(zExpr, sizeof(zExpr), "%s::%s", dtgen_quote(zIn),
           eType == 'd' ? "date" : eType == 't' ? "timestamp" : "timestamptz");
  pgdiff_add(g->d, zExpr, zOut);
}

/* Inputs that are not random: every special word, the ends of the range,
** the spellings the issue names, and errors of each kind. */
static const char *const dtp_azFixed[] = {
    "1998-01-01", "1998-01-01 00:00:00", "1998-01-01T00:00:00Z", "1998-01-01T00:00:00+05:30",
    "1998-01-01 00:00:00-08", "1998-01-01 00:00:00.1234565", "19980101", "1998-1-1",
    "Jan 1 1998", "January 1, 1998", "1/8/1999", "epoch", "infinity", "-infinity", "now",
    "today", "yesterday", "tomorrow", "allballs", "1998-01-01 BC", "0001-01-01 AD",
    "4714-11-24 00:00:00 BC", "4714-11-23 23:59:59 BC", "294276-12-31 23:59:59.999999",
    "294277-01-01 00:00:00", "5874897-12-31", "5874898-01-01", "1998-02-29", "2000-02-29",
    "1998-13-01", "1998-00-10", "13/13/2000", "1998-01-01 24:00:00", "1998-01-01 24:00:01",
    "1998-01-01 23:59:60", "1998-01-01 12:60:00", "1998-01-01 13:00 pm", "1998-01-01 12:00 am",
    "1998-01-01 00:00:00+15:00", "1998-01-01 00:00:00+16", "1998-01-01 00:00:00 Mars/Phobos",
    "1998-01-01 00:00:00 marsphobos", "", "   ", "x", "1998-01-01 x", "2001-02-03 04:05:06 PST",
    "2001-02-03 04:05:06 America/Los_Angeles", "2001-02-03 04:05:06 MET DST", "J2451545",
    "J2451545.25", "040506", "1998-01-01 040506", "1998-01-01 t040506", "99-01-08", "08-Jan-99",
    "Jan-08-99", "99-Jan-08", "1999-Jan-08", "08-Jan-1999", "1999.008", "January 8, 99 BC",
    "0000-01-01", "1998-01-01 00:00:00 z", "1998-01-01 00:00:00 America/New_York",
    "2021-03-14 02:30:00 America/New_York", "2021-11-07 01:30:00 America/New_York",
    "2021-10-31 02:30:00 Europe/Berlin", "2021-03-28 02:30:00 Europe/Berlin",
    "12:00", "1998-01-01 12:00:00 Etc/GMT+5", "1998-01-01 12:00:00 UTC+3",
    "Thu, 01 Jan 1998 00:00:00 GMT", "1998-01-01 00:00:00.", "1998-01-01 00:00:00.5.5",
    "1998-01-01 00:00:00+5", "1998-01-01 00:00:00 +0530", "1998-01-01 00:00:00-0800",
    "1998-01-01 00:00:00 -08:00:30", "1998-01-01 00:00 allballs",
};

/* n random instants, their local fields in the session's zone spelled
** some way (with or without a zone of their own), read as each type of
** zTypes ('d', 't', 'z'). */
static void dtp_spelled_cases(dtgen *g, int n, const char *zTypes) {
  for (int i = 0; i < n; i++) {
    int64_t ts = dtgen_timestamp(g);
    dt_tm tm;
    char zIn[160];
    dt_timestamptz_to_tm(ts, g->s.pZone, &tm);
    dtgen_spell(g, &tm, 1, zIn, sizeof(zIn));
    for (const char *c = zTypes; *c; c++) dtp_case(g, *c, zIn);
  }
}

TEST_IMPL(datetime_pg_text) {
  dtgen g;
  int nCase = 0;
  dtgen_open(&g, 15);
  for (int iZone = 0; iZone < dtgen_nZone; iZone++) {
    dtgen_zone_begin(&g, dtgen_azZone[iZone]);
    for (size_t i = 0; i < sizeof(dtp_azFixed) / sizeof(dtp_azFixed[0]); i++) {
      dtp_case(&g, 'd', dtp_azFixed[i]);
      dtp_case(&g, 't', dtp_azFixed[i]);
      dtp_case(&g, 'z', dtp_azFixed[i]);
    }
    dtp_spelled_cases(&g, 700, "dtz");
    nCase += dtgen_zone_end(&g, "date/time text");
  }
  /* Zones given as POSIX TZ strings and PostgreSQL's sign conventions,
  ** and a zone with a 45-minute offset: spellings of random instants. */
  {
    static const char *const azMore[] = {"UTC+3", "Etc/GMT+5", "EST5EDT", "Pacific/Chatham",
                                         "<+0530>-5:30"};
    for (size_t iZone = 0; iZone < sizeof(azMore) / sizeof(azMore[0]); iZone++) {
      dtgen_zone_begin(&g, azMore[iZone]);
      dtp_spelled_cases(&g, 150, "tz");
      nCase += dtgen_zone_end(&g, "date/time text");
    }
  }
  /* time without time zone. */
  {
    static const char *const azTime[] = {
        "04:05:06.789", "04:05", "04:05 PM", "12:00 am", "allballs", "24:00:00", "24:00:01",
        "23:59:60", "040506", "T040506", "2003-04-12 04:05:06", "04:05:06 America/New_York",
        "04:05:06+05:30", "4:5:6", "25:00", "x", "", "now", "00:00:00.0000005", "1:30.5"};
    dtgen_zone_begin(&g, "UTC");
    for (size_t i = 0; i < sizeof(azTime) / sizeof(azTime[0]); i++) {
      char zOut[DT_TEXT_MAX + 256];
      int64_t t;
      sql_error e;
      sql_error_clear(&e);
      if (dt_time_parse(azTime[i], strlen(azTime[i]), &g.s, &t, &e) == 0) dt_time_format(t, zOut, sizeof(zOut));
      else dtgen_error_text(&e, zOut, sizeof(zOut));
      pgdiff_addf(g.d, zOut, "%s::time", dtgen_quote(azTime[i]));
    }
    nCase += dtgen_zone_end(&g, "time text");
  }
  printf("%d cases agree with PostgreSQL\n", nCase);
  dtgen_close(&g);
  return 0;
}

/* ---- intervals --------------------------------------------------------------- */

/* The library's text of zIn as an interval, or its error. */
static void dtp_interval_case(dtgen *g, const char *zIn) {
  char zOut[DT_TEXT_MAX + 256];
  dt_interval a;
  sql_error e;
  sql_error_clear(&e);
  if (dt_interval_parse(zIn, strlen(zIn), &a, &e) == 0) dt_interval_format(&a, zOut, sizeof(zOut));
  else dtgen_error_text(&e, zOut, sizeof(zOut));
  pgdiff_addf(g->d, zOut, "%s::interval", dtgen_quote(zIn));
}

/* A random interval spelling: numbers with units (whole, fractional,
** negative), times, SQL's years-months, "@ ... ago", ISO 8601. */
static void dtp_interval_spell(dtgen *g, char *z, size_t n) {
  static const char *const azUnit[] = {
      "year", "years", "y", "mon", "mons", "month", "months", "week", "weeks", "w", "day",
      "days", "d", "hour", "hours", "h", "hr", "minute", "min", "mins", "m", "second", "sec",
      "s", "millisecond", "ms", "microsecond", "us", "decade", "century", "millennium", "qtr",
      "fortnight", "hours!"};
  size_t i = 0;
  int k = (int)pgdiff_below(&g->r, 10), nPart = 1 + (int)pgdiff_below(&g->r, 4);
  if (k == 0) {
    /* ISO 8601 with designators */
    static const char *const azD[] = {"Y", "M", "W", "D"}, *const azT[] = {"H", "M", "S"};
    i += (size_t)snprintf(z + i, n - i, "P");
    for (int j = 0; j < 4; j++) {
      if (pgdiff_below(&g->r, 2)) {
        i += (size_t)snprintf(z + i, n - i, "%s%d%s%s", pgdiff_below(&g->r, 5) ? "" : "-",
                              (int)pgdiff_below(&g->r, 40), pgdiff_below(&g->r, 4) ? "" : ".5",
                              azD[j]);
      }
    }
    if (pgdiff_below(&g->r, 3)) {
      i += (size_t)snprintf(z + i, n - i, "T");
      for (int j = 0; j < 3; j++) {
        if (pgdiff_below(&g->r, 2)) {
          i += (size_t)snprintf(z + i, n - i, "%d%s%s", (int)pgdiff_below(&g->r, 100),
                                pgdiff_below(&g->r, 4) ? "" : ".25", azT[j]);
        }
      }
    }
    return;
  }
  if (k == 1) {
    snprintf(z, n, "P%04d-%02d-%02dT%02d:%02d:%02d", (int)pgdiff_below(&g->r, 20),
             (int)pgdiff_below(&g->r, 13), (int)pgdiff_below(&g->r, 40),
             (int)pgdiff_below(&g->r, 30), (int)pgdiff_below(&g->r, 60),
             (int)pgdiff_below(&g->r, 61));
    return;
  }
  if (k == 2) i += (size_t)snprintf(z + i, n - i, "@ ");
  for (int j = 0; j < nPart; j++) {
    int kk = (int)pgdiff_below(&g->r, 8);
    if (kk == 0) {
      i += (size_t)snprintf(z + i, n - i, "%s%d:%02d:%02d%s ", pgdiff_below(&g->r, 3) ? "" : "-",
                            (int)pgdiff_below(&g->r, 200), (int)pgdiff_below(&g->r, 60),
                            (int)pgdiff_below(&g->r, 60), pgdiff_below(&g->r, 2) ? "" : ".789");
    } else if (kk == 1) {
      i += (size_t)snprintf(z + i, n - i, "%d-%d ", (int)pgdiff_below(&g->r, 100),
                            (int)pgdiff_below(&g->r, 13));
    } else {
      i += (size_t)snprintf(z + i, n - i, "%s%d%s %s ", pgdiff_below(&g->r, 4) ? "" : "-",
                            (int)pgdiff_below(&g->r, 1000),
                            pgdiff_below(&g->r, 4) ? "" : pgdiff_below(&g->r, 2) ? ".5" : ".123456789",
                            azUnit[pgdiff_below(&g->r, (int64_t)(sizeof(azUnit) / sizeof(azUnit[0])))]);
    }
  }
  if (k == 2 || pgdiff_below(&g->r, 8) == 0) i += (size_t)snprintf(z + i, n - i, "ago");
}

static const char *const dtp_azInterval[] = {
    "1 day", "2 hours 30 minutes", "1 year 2 mons 3 days 04:05:06.789", "-1 day",
    "@ 1 day ago", "1 week", "00:01:00", "P1Y2M3DT4H5M6S", "1-2", "-1-2", "1 2:03:04",
    "1 day -02:00", "-1 days +02:03:00", "1.5 days", "1.5 months", "1.5 years", "0.1 seconds",
    "5", "5.5", "-5", "1:30", "1:30.5", "100:00:00", "2147483647 days", "2147483648 days",
    "2147483647 months 1 year", "178956970 years", "178956971 years", "1 day 1 day",
    "1 hour 01:00:00", "ago", "1 ago day", "", "day", "1 quarter", "1 fortnight", "P1.5Y",
    "PT1.5H", "P0001-02-03", "P00010203T040506", "PT040506", "P-1D", "P1DT", "1 millennium",
    "1.5 centuries", "1 mil 2 decs", "10 us 5 ms", "1 s 1 second", "'1 day'", "1e3 seconds",
    "9223372036854 seconds", "9223372036854775807 us", "9223372036854775808 us",
    "-9223372036854775808 us", "1 day ago ago", "@1", "+1 day", "1 day +1 hour",
    "23:59:59.9999995", "0.0000005 seconds", "0.0000015 seconds", "1.000000001 days",
};

TEST_IMPL(datetime_pg_interval) {
  dtgen g;
  int nCase = 0;
  static const double aFactor[] = {0, 1, -1, 2, 0.5, 1.5, -2.25, 1.0 / 3, 0.1, 1e-7, 1e7,
                                   1000000.5, 3.7, -0.999};
  dtgen_open(&g, 16);
  dtgen_zone_begin(&g, "UTC");
  for (size_t i = 0; i < sizeof(dtp_azInterval) / sizeof(dtp_azInterval[0]); i++) {
    dtp_interval_case(&g, dtp_azInterval[i]);
  }
  for (int i = 0; i < 3000; i++) {
    char zIn[256];
    dtp_interval_spell(&g, zIn, sizeof(zIn));
    dtp_interval_case(&g, zIn);
  }
  /* Arithmetic on random intervals, each spelled as the library prints
  ** it (what PostgreSQL reads back the same: checked above). */
  for (int i = 0; i < 1500; i++) {
    dt_interval a = dtgen_interval(&g), b = dtgen_interval(&g), r;
    char zA[DT_TEXT_MAX], zB[DT_TEXT_MAX], zR[DT_TEXT_MAX + 64];
    double f = aFactor[pgdiff_below(&g.r, (int64_t)(sizeof(aFactor) / sizeof(aFactor[0])))];
    sql_error e;
    int rc;
    dt_interval_format(&a, zA, sizeof(zA));
    dt_interval_format(&b, zB, sizeof(zB));
#define DTP_OUT(call)                                                             \
  do {                                                                            \
    sql_error_clear(&e);                                                          \
    rc = (call);                                                                  \
    if (rc == DT_OK) dt_interval_format(&r, zR, sizeof(zR));                      \
    else dt_error(rc, &e), dtgen_error_text(&e, zR, sizeof(zR));                  \
  } while (0)
    DTP_OUT(dt_interval_add(&a, &b, &r));
    pgdiff_addf(g.d, zR, "interval '%s' + interval '%s'", zA, zB);
    DTP_OUT(dt_interval_sub(&a, &b, &r));
    pgdiff_addf(g.d, zR, "interval '%s' - interval '%s'", zA, zB);
    DTP_OUT(dt_interval_neg(&a, &r));
    pgdiff_addf(g.d, zR, "- interval '%s'", zA);
    DTP_OUT(dt_interval_mul(&a, f, &r));
    pgdiff_addf(g.d, zR, "interval '%s' * %.17g::float8", zA, f);
    DTP_OUT(dt_interval_div(&a, f, &r));
    pgdiff_addf(g.d, zR, "interval '%s' / %.17g::float8", zA, f);
    DTP_OUT(dt_interval_justify_hours(&a, &r));
    pgdiff_addf(g.d, zR, "justify_hours(interval '%s')", zA);
    DTP_OUT(dt_interval_justify_days(&a, &r));
    pgdiff_addf(g.d, zR, "justify_days(interval '%s')", zA);
    DTP_OUT(dt_interval_justify_interval(&a, &r));
    pgdiff_addf(g.d, zR, "justify_interval(interval '%s')", zA);
#undef DTP_OUT
    pgdiff_addf(g.d, dt_interval_cmp(&a, &b) < 0 ? "true" : "false",
                "interval '%s' < interval '%s'", zA, zB);
    pgdiff_addf(g.d, dt_interval_cmp(&a, &b) == 0 ? "true" : "false",
                "interval '%s' = interval '%s'", zA, zB);
  }
  nCase += dtgen_zone_end(&g, "intervals");
  printf("%d cases agree with PostgreSQL\n", nCase);
  dtgen_close(&g);
  return 0;
}

/* ---- arithmetic ---------------------------------------------------------------- */

/* Writes a timestamp outcome (bTz: in the session's zone). */
static void dtp_ts_out(dtgen *g, int rc, int64_t ts, int bTz, char *z, size_t n) {
  sql_error e;
  if (rc != DT_OK) {
    sql_error_clear(&e);
    dt_error(rc, &e);
    dtgen_error_text(&e, z, n);
  } else if (bTz) {
    dt_timestamptz_format(ts, g->s.pZone, z, n);
  } else {
    dt_timestamp_format(ts, z, n);
  }
}

static void dtp_iv_out(int rc, const dt_interval *a, char *z, size_t n) {
  sql_error e;
  if (rc != DT_OK) {
    sql_error_clear(&e);
    dt_error(rc, &e);
    dtgen_error_text(&e, z, n);
  } else {
    dt_interval_format(a, z, n);
  }
}

/* Cases of one pair of instants, an interval and a day count. */
static void dtp_arith_cases(dtgen *g, int64_t t1, int64_t t2, const dt_interval *a, int nDays) {
  char z1[DT_TEXT_MAX], z2[DT_TEXT_MAX], zA[DT_TEXT_MAX], zR[DT_TEXT_MAX + 64];
  char zZ1[DT_TEXT_MAX], zZ2[DT_TEXT_MAX], zD1[DT_TEXT_MAX], zD2[DT_TEXT_MAX];
  int64_t ts;
  int32_t d1, d2, d;
  dt_interval r;
  int rc;
  sql_error e;
  dt_timestamp_format(t1, z1, sizeof(z1));
  dt_timestamp_format(t2, z2, sizeof(z2));
  dt_timestamptz_format(t1, g->s.pZone, zZ1, sizeof(zZ1));
  dt_timestamptz_format(t2, g->s.pZone, zZ2, sizeof(zZ2));
  dt_interval_format(a, zA, sizeof(zA));
  dt_timestamp_to_date(t1, &d1);
  dt_timestamp_to_date(t2, &d2);
  dt_date_format(d1, zD1, sizeof(zD1));
  dt_date_format(d2, zD2, sizeof(zD2));

  rc = dt_timestamp_add_interval(t1, a, &ts);
  dtp_ts_out(g, rc, ts, 0, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "timestamp '%s' + interval '%s'", z1, zA);
  rc = dt_timestamp_sub_interval(t1, a, &ts);
  dtp_ts_out(g, rc, ts, 0, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "timestamp '%s' - interval '%s'", z1, zA);
  rc = dt_timestamptz_add_interval(t1, a, g->s.pZone, &ts);
  dtp_ts_out(g, rc, ts, 1, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "timestamptz '%s' + interval '%s'", zZ1, zA);
  rc = dt_timestamptz_sub_interval(t1, a, g->s.pZone, &ts);
  dtp_ts_out(g, rc, ts, 1, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "timestamptz '%s' - interval '%s'", zZ1, zA);
  rc = dt_timestamp_diff(t1, t2, &r);
  dtp_iv_out(rc, &r, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "timestamp '%s' - timestamp '%s'", z1, z2);
  rc = dt_timestamp_diff(t1, t2, &r);
  dtp_iv_out(rc, &r, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "timestamptz '%s' - timestamptz '%s'", zZ1, zZ2);
  rc = dt_timestamp_age(t1, t2, &r);
  dtp_iv_out(rc, &r, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "age(timestamp '%s', timestamp '%s')", z1, z2);
  rc = dt_timestamptz_age(t1, t2, g->s.pZone, &r);
  dtp_iv_out(rc, &r, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "age(timestamptz '%s', timestamptz '%s')", zZ1, zZ2);
  /* dates */
  rc = dt_date_add_days(d1, nDays, &d);
  sql_error_clear(&e);
  if (rc == DT_OK) dt_date_format(d, zR, sizeof(zR));
  else dt_error(rc, &e), dtgen_error_text(&e, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "date '%s' + %d", zD1, nDays);
  rc = dt_date_diff(d1, d2, &d);
  sql_error_clear(&e);
  if (rc == DT_OK) snprintf(zR, sizeof(zR), "%d", d);
  else dt_error(rc, &e), dtgen_error_text(&e, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "date '%s' - date '%s'", zD1, zD2);
  rc = dt_date_to_timestamp(d1, &ts);
  if (rc == DT_OK) rc = dt_timestamp_add_interval(ts, a, &ts);
  dtp_ts_out(g, rc, ts, 0, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "date '%s' + interval '%s'", zD1, zA);
  rc = dt_date_to_timestamp(d1, &ts);
  dtp_ts_out(g, rc, ts, 0, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "date '%s'::timestamp", zD1);
  rc = dt_date_to_timestamptz(d1, g->s.pZone, &ts);
  dtp_ts_out(g, rc, ts, 1, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "date '%s'::timestamptz", zD1);
  /* casts */
  dt_timestamptz_to_date(t1, g->s.pZone, &d);
  dt_date_format(d, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "timestamptz '%s'::date", zZ1);
  rc = dt_timestamptz_to_timestamp(t1, g->s.pZone, &ts);
  dtp_ts_out(g, rc, ts, 0, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "timestamptz '%s'::timestamp", zZ1);
  rc = dt_timestamp_to_timestamptz(t1, g->s.pZone, &ts);
  dtp_ts_out(g, rc, ts, 1, zR, sizeof(zR));
  pgdiff_addf(g->d, zR, "timestamp '%s'::timestamptz", z1);
}

TEST_IMPL(datetime_pg_arith) {
  dtgen g;
  int nCase = 0;
  dtgen_open(&g, 17);
  for (int iZone = 0; iZone < dtgen_nZone; iZone++) {
    dtgen_zone_begin(&g, dtgen_azZone[iZone]);
    for (int i = 0; i < 300; i++) {
      int64_t t1 = dtgen_timestamp(&g), t2 = dtgen_timestamp(&g);
      dt_interval a = dtgen_interval(&g);
      int nDays = (int)pgdiff_below(&g.r, 2000) - 1000;
      /* Often close together: age() and DST have more to do then. */
      if (pgdiff_below(&g.r, 3) == 0 && t1 < DT_TS_END - 90 * DT_USECS_PER_DAY) {
        t2 = t1 + pgdiff_below(&g.r, 90 * DT_USECS_PER_DAY);
      }
      if (pgdiff_below(&g.r, 30) == 0) t1 = pgdiff_below(&g.r, 2) ? DT_TS_NOEND : DT_TS_NOBEGIN;
      dtp_arith_cases(&g, t1, t2, &a, nDays);
    }
    nCase += dtgen_zone_end(&g, "date/time arithmetic");
  }
  printf("%d cases agree with PostgreSQL\n", nCase);
  dtgen_close(&g);
  return 0;
}

/* ---- fields ---------------------------------------------------------------------- */

static const char *const dtp_azUnit[] = {
    "microseconds", "milliseconds", "second", "minute", "hour", "day", "week", "month",
    "quarter", "year", "decade", "century", "millennium", "dow", "isodow", "doy", "isoyear",
    "epoch", "julian", "timezone", "timezone_hour", "timezone_minute", "YEARS", "mon", "us",
    "m", "d", "now", "fortnight", "jd", "ms", "secs", "qtr", "y", "h", "MilliSecond"};

/* extract and date_part of one value: v is its SQL literal. */
static void dtp_field_cases(dtgen *g, dt_type eType, const void *pValue, const char *zLit,
                            const char *zUnit) {
  char zOut[NUMERIC_TEXT_MAX + 256];
  numeric num;
  double dbl;
  int bNull;
  sql_error e;
  sql_error_clear(&e);
  if (dt_extract(eType, zUnit, pValue, g->s.pZone, &num, &bNull, &e) != 0) {
    dtgen_error_text(&e, zOut, sizeof(zOut));
    pgdiff_addf(g->d, zOut, "extract(%s from %s)", zUnit, zLit);
  } else if (bNull) {
    pgdiff_addf(g->d, NULL, "extract(%s from %s)", zUnit, zLit);
  } else {
    numeric_format(&num, zOut, sizeof(zOut));
    pgdiff_addf(g->d, zOut, "extract(%s from %s)", zUnit, zLit);
  }
  sql_error_clear(&e);
  if (dt_date_part(eType, zUnit, pValue, g->s.pZone, &dbl, &bNull, &e) != 0) {
    dtgen_error_text(&e, zOut, sizeof(zOut));
    pgdiff_addf(g->d, zOut, "date_part('%s', %s)", zUnit, zLit);
  } else if (bNull) {
    pgdiff_addf(g->d, "true", "date_part('%s', %s) IS NULL", zUnit, zLit);
  } else {
    /* the same double: PostgreSQL's text of it is its shortest */
    pgdiff_addf(g->d, "true", "date_part('%s', %s) = '%.17g'::float8", zUnit, zLit, dbl);
  }
}

/* date_trunc of one value (pZone: the zone argument, or NULL for the
** session's). */
static void dtp_trunc_case(dtgen *g, dt_type eType, const void *pValue, const char *zLit,
                           const char *zUnit, const char *zZoneArg) {
  char zOut[DT_TEXT_MAX + 256];
  const tz_zone *pZone = g->s.pZone;
  sql_error e;
  union { int64_t ts; dt_interval iv; } r;
  sql_error_clear(&e);
  if (zZoneArg != NULL) tz_zone_find(zZoneArg, &pZone, &e);
  if (dt_trunc(eType, zUnit, pValue, pZone, &r, &e) != 0) dtgen_error_text(&e, zOut, sizeof(zOut));
  else if (eType == DT_TYPE_INTERVAL) dt_interval_format(&r.iv, zOut, sizeof(zOut));
  else if (eType == DT_TYPE_TIMESTAMP) dt_timestamp_format(r.ts, zOut, sizeof(zOut));
  else dt_timestamptz_format(r.ts, g->s.pZone, zOut, sizeof(zOut));
  if (zZoneArg != NULL) pgdiff_addf(g->d, zOut, "date_trunc('%s', %s, '%s')", zUnit, zLit, zZoneArg);
  else pgdiff_addf(g->d, zOut, "date_trunc('%s', %s)", zUnit, zLit);
}

TEST_IMPL(datetime_pg_fields) {
  dtgen g;
  int nCase = 0;
  const int nUnit = (int)(sizeof(dtp_azUnit) / sizeof(dtp_azUnit[0]));
  dtgen_open(&g, 18);
  for (int iZone = 0; iZone < dtgen_nZone; iZone++) {
    dtgen_zone_begin(&g, dtgen_azZone[iZone]);
    for (int i = 0; i < 150; i++) {
      int64_t ts = dtgen_timestamp(&g), t = pgdiff_below(&g.r, DT_USECS_PER_DAY + 1);
      int32_t d = dtgen_date(&g);
      dt_interval a = dtgen_interval(&g);
      char zTs[DT_TEXT_MAX + 32], zTz[DT_TEXT_MAX + 32], zD[DT_TEXT_MAX + 32];
      char zA[DT_TEXT_MAX + 32], zT[DT_TEXT_MAX + 32], zBuf[DT_TEXT_MAX];
      if (pgdiff_below(&g.r, 25) == 0) ts = pgdiff_below(&g.r, 2) ? DT_TS_NOEND : DT_TS_NOBEGIN;
      if (pgdiff_below(&g.r, 25) == 0) d = pgdiff_below(&g.r, 2) ? DT_DATE_NOEND : DT_DATE_NOBEGIN;
      dt_timestamp_format(ts, zBuf, sizeof(zBuf));
      snprintf(zTs, sizeof(zTs), "timestamp '%s'", zBuf);
      dt_timestamptz_format(ts, g.s.pZone, zBuf, sizeof(zBuf));
      snprintf(zTz, sizeof(zTz), "timestamptz '%s'", zBuf);
      dt_date_format(d, zBuf, sizeof(zBuf));
      snprintf(zD, sizeof(zD), "date '%s'", zBuf);
      dt_interval_format(&a, zBuf, sizeof(zBuf));
      snprintf(zA, sizeof(zA), "interval '%s'", zBuf);
      dt_time_format(t, zBuf, sizeof(zBuf));
      snprintf(zT, sizeof(zT), "time '%s'", zBuf);
      for (int k = 0; k < 4; k++) {
        const char *zUnit = dtp_azUnit[pgdiff_below(&g.r, nUnit)];
        dtp_field_cases(&g, DT_TYPE_TIMESTAMP, &ts, zTs, zUnit);
        dtp_field_cases(&g, DT_TYPE_TIMESTAMPTZ, &ts, zTz, zUnit);
        dtp_field_cases(&g, DT_TYPE_DATE, &d, zD, zUnit);
        dtp_field_cases(&g, DT_TYPE_INTERVAL, &a, zA, zUnit);
        dtp_field_cases(&g, DT_TYPE_TIME, &t, zT, zUnit);
        dtp_trunc_case(&g, DT_TYPE_TIMESTAMP, &ts, zTs, zUnit, NULL);
        dtp_trunc_case(&g, DT_TYPE_TIMESTAMPTZ, &ts, zTz, zUnit, NULL);
        dtp_trunc_case(&g, DT_TYPE_INTERVAL, &a, zA, zUnit, NULL);
      }
      dtp_trunc_case(&g, DT_TYPE_TIMESTAMPTZ, &ts, zTz, "day", "Australia/Lord_Howe");
      dtp_trunc_case(&g, DT_TYPE_TIMESTAMPTZ, &ts, zTz, "week", "America/New_York");
    }
    nCase += dtgen_zone_end(&g, "extract, date_part, date_trunc");
  }
  /* Values from fields. */
  dtgen_zone_begin(&g, "UTC");
  for (int i = 0; i < 1500; i++) {
    int y = (int)pgdiff_below(&g.r, 6000) - 1000, m = (int)pgdiff_below(&g.r, 14);
    int d = (int)pgdiff_below(&g.r, 33), h = (int)pgdiff_below(&g.r, 26);
    int mi = (int)pgdiff_below(&g.r, 61);
    double sec = (double)pgdiff_below(&g.r, 62000000) / 1e6, epoch;
    char zOut[DT_TEXT_MAX + 256];
    int32_t dd;
    int64_t ts;
    dt_interval a;
    sql_error e;
    if (pgdiff_below(&g.r, 20) == 0) y = pgdiff_below(&g.r, 2) ? 294277 : 5874898;
    sql_error_clear(&e);
    if (dt_make_date(y, m, d, &dd, &e) == 0) dt_date_format(dd, zOut, sizeof(zOut));
    else dtgen_error_text(&e, zOut, sizeof(zOut));
    pgdiff_addf(g.d, zOut, "make_date(%d, %d, %d)", y, m, d);
    sql_error_clear(&e);
    if (dt_make_timestamp(y, m, d, h, mi, sec, &ts, &e) == 0) dt_timestamp_format(ts, zOut, sizeof(zOut));
    else dtgen_error_text(&e, zOut, sizeof(zOut));
    pgdiff_addf(g.d, zOut, "make_timestamp(%d, %d, %d, %d, %d, %.17g)", y, m, d, h, mi, sec);
    sql_error_clear(&e);
    dt_make_interval(y, m - 7, d - 16, h, mi - 30, d * 7, sec * 1000 - 3000, &a, &e);
    dt_interval_format(&a, zOut, sizeof(zOut));
    pgdiff_addf(g.d, zOut, "make_interval(%d, %d, %d, %d, %d, %d, %.17g)", y, m - 7, d - 16, h,
                mi - 30, d * 7, sec * 1000 - 3000);
    epoch = ((double)pgdiff_below(&g.r, 2000000000) - 1e9) * (pgdiff_below(&g.r, 3) ? 1.0 : 1e4) +
            (pgdiff_below(&g.r, 2) ? sec : 0);
    sql_error_clear(&e);
    if (dt_to_timestamp_epoch(epoch, &ts, &e) == 0) dt_timestamptz_format(ts, g.s.pZone, zOut, sizeof(zOut));
    else dtgen_error_text(&e, zOut, sizeof(zOut));
    pgdiff_addf(g.d, zOut, "to_timestamp(%.17g)", epoch);
  }
  nCase += dtgen_zone_end(&g, "make_date, make_timestamp, make_interval, to_timestamp");
  printf("%d cases agree with PostgreSQL\n", nCase);
  dtgen_close(&g);
  return 0;
}

/* ---- to_char, to_timestamp, to_date ------------------------------------------------ */

/* A random to_char format: patterns (some with FM, TM, TH, th), separators,
** blanks, "quoted text". */
static void dtp_format(dtgen *g, int bInterval, char *z, size_t n) {
  static const char *const azPat[] = {
      "YYYY", "YYY", "YY", "Y", "Y,YYY", "IYYY", "IYY", "IY", "I", "MM", "MON", "Mon", "mon",
      "MONTH", "Month", "month", "DD", "DDD", "IDDD", "D", "ID", "DAY", "Day", "day", "DY",
      "Dy", "dy", "HH", "HH12", "HH24", "MI", "SS", "MS", "US", "FF1", "FF3", "FF6", "SSSS",
      "SSSSS", "AM", "pm", "A.M.", "p.m.", "BC", "ad", "B.C.", "a.d.", "W", "WW", "IW", "CC",
      "J", "Q", "RM", "rm", "TZ", "tz", "TZH", "TZM", "OF", "hh24", "mi", "ss", "yyyy", "dd",
      "mm", "FX"};
  static const char *const azInterval[] = {"HH", "HH12", "HH24", "MI", "SS", "MS", "US",
                                           "YYYY", "YY", "MM", "DD", "DDD", "CC", "SSSS",
                                           "AM", "Q", "FF3", "Y,YYY", "W", "WW", "RM"};
  static const char *const azSep[] = {"-", "/", " ", ":", ".", ", ", "T", "\"at\" ", "",
                                      "\"x\\\"y\"", "  "};
  int nPart = 1 + (int)pgdiff_below(&g->r, 6);
  size_t i = 0;
  z[0] = 0;
  for (int k = 0; k < nPart && i + 32 < n; k++) {
    const char *zPat = bInterval && pgdiff_below(&g->r, 8) != 0
                           ? azInterval[pgdiff_below(&g->r, (int64_t)(sizeof(azInterval) / sizeof(azInterval[0])))]
                           : azPat[pgdiff_below(&g->r, (int64_t)(sizeof(azPat) / sizeof(azPat[0])))];
    int kPre = (int)pgdiff_below(&g->r, 10), kPost = (int)pgdiff_below(&g->r, 10);
    i += (size_t)snprintf(z + i, n - i, "%s%s%s%s", kPre == 0 ? "FM" : kPre == 1 ? "TM" : "", zPat,
                          kPost == 0 ? "TH" : kPost == 1 ? "th" : "",
                          azSep[pgdiff_below(&g->r, (int64_t)(sizeof(azSep) / sizeof(azSep[0])))]);
  }
}

static void dtp_tochar_case(dtgen *g, dt_type eType, const void *pValue, const char *zLit,
                            const char *zFmt) {
  char *zOut = NULL, zErrText[600];
  sql_error e;
  sql_error_clear(&e);
  if (dt_to_char(eType, pValue, g->s.pZone, zFmt, &zOut, &e) != 0) {
    dtgen_error_text(&e, zErrText, sizeof(zErrText));
    pgdiff_addf(g->d, zErrText, "to_char(%s, %s)", zLit, dtgen_quote(zFmt));
  } else {
    pgdiff_addf(g->d, zOut, "to_char(%s, %s)", zLit, dtgen_quote(zFmt));
  }
  free(zOut);
}

TEST_IMPL(datetime_pg_tochar) {
  dtgen g;
  int nCase = 0;
  dtgen_open(&g, 19);
  for (int iZone = 0; iZone < dtgen_nZone; iZone++) {
    dtgen_zone_begin(&g, dtgen_azZone[iZone]);
    for (int i = 0; i < 400; i++) {
      int64_t ts = dtgen_timestamp(&g);
      dt_interval a = dtgen_interval(&g);
      char zBuf[DT_TEXT_MAX], zTs[DT_TEXT_MAX + 32], zTz[DT_TEXT_MAX + 32], zA[DT_TEXT_MAX + 32];
      char zFmt[256], zFmtI[256], zOut[DT_TEXT_MAX + 256];
      char *zText = NULL;
      sql_error e;
      dt_timestamp_format(ts, zBuf, sizeof(zBuf));
      snprintf(zTs, sizeof(zTs), "timestamp '%s'", zBuf);
      dt_timestamptz_format(ts, g.s.pZone, zBuf, sizeof(zBuf));
      snprintf(zTz, sizeof(zTz), "timestamptz '%s'", zBuf);
      dt_interval_format(&a, zBuf, sizeof(zBuf));
      snprintf(zA, sizeof(zA), "interval '%s'", zBuf);
      dtp_format(&g, 0, zFmt, sizeof(zFmt));
      dtp_format(&g, 1, zFmtI, sizeof(zFmtI));
      dtp_tochar_case(&g, DT_TYPE_TIMESTAMP, &ts, zTs, zFmt);
      dtp_tochar_case(&g, DT_TYPE_TIMESTAMPTZ, &ts, zTz, zFmt);
      dtp_tochar_case(&g, DT_TYPE_INTERVAL, &a, zA, zFmtI);
      /* And back: the text to_char wrote, read with the same format. */
      sql_error_clear(&e);
      if (dt_to_char(DT_TYPE_TIMESTAMPTZ, &ts, g.s.pZone, zFmt, &zText, &e) == 0 && zText != NULL) {
        int64_t ts2;
        int32_t d2;
        char zLit[512];
        snprintf(zLit, sizeof(zLit), "%s", dtgen_quote(zText));
        sql_error_clear(&e);
        if (dt_to_timestamp_fmt(zText, zFmt, g.s.pZone, &ts2, &e) == 0) {
          dt_timestamptz_format(ts2, g.s.pZone, zOut, sizeof(zOut));
        } else {
          dtgen_error_text(&e, zOut, sizeof(zOut));
        }
        pgdiff_addf(g.d, zOut, "to_timestamp(%s, %s)", zLit, dtgen_quote(zFmt));
        sql_error_clear(&e);
        if (dt_to_date_fmt(zText, zFmt, &d2, &e) == 0) dt_date_format(d2, zOut, sizeof(zOut));
        else dtgen_error_text(&e, zOut, sizeof(zOut));
        pgdiff_addf(g.d, zOut, "to_date(%s, %s)", zLit, dtgen_quote(zFmt));
      }
      free(zText);
    }
    nCase += dtgen_zone_end(&g, "to_char, to_timestamp, to_date");
  }
  printf("%d cases agree with PostgreSQL\n", nCase);
  dtgen_close(&g);
  return 0;
}
