/*
** tests/test-datetime.c — common/datetime*.c and tz.c by hand: the
** calendar over every day starq stores, the edges PostgreSQL documents,
** zones past the end of their tables and from many threads at once, and
** the wire's binary forms against PostgreSQL's own bytes.
*/
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../common/datetime.h"
#include "../common/tz.h"
#include "pgref.h"
#include "test.h"

static const tz_zone *dtt_zone(const char *zName) {
  const tz_zone *p;
  sql_error e;
  sql_error_clear(&e);
  if (tz_zone_find(zName, &p, &e) != 0) FAIL("%s: %s", zName, e.zMsg);
  return p;
}

/* Parses z as a timestamptz in UTC (or fails the test). */
static int64_t dtt_ts(const char *z) {
  dt_session s = {NULL, DT_ORDER_MDY, 0};
  int64_t ts;
  sql_error e;
  sql_error_clear(&e);
  if (dt_timestamptz_parse(z, strlen(z), &s, &ts, &e) != 0) FAIL("%s: %s", z, e.zMsg);
  return ts;
}

static const char *dtt_tz_text(int64_t ts, const tz_zone *p) {
  static char z[DT_TEXT_MAX];
  dt_timestamptz_format(ts, p, z, sizeof(z));
  return z;
}

/* Every day from 0001-01-01 to 9999-12-31: yyyymmdd to days and back,
** days consecutive, and the ends of the Julian range. */
TEST_IMPL(datetime_calendar) {
  int32_t prev = 0, d;
  int nDay = 0;
  for (int y = 1; y <= 9999; y++) {
    for (int m = 1; m <= 12; m++) {
      for (int dd = 1; dd <= dt_days_in_month(y, m); dd++) {
        int32_t v = y * 10000 + m * 100 + dd;
        ASSERT_EQ(dt_date_from_yyyymmdd(v, &d), DT_OK);
        if (nDay++ > 0) ASSERT_EQ(d, prev + 1);
        ASSERT_EQ(dt_date_to_yyyymmdd(d), v);
        prev = d;
      }
      ASSERT_EQ(dt_date_from_yyyymmdd(y * 10000 + m * 100 + dt_days_in_month(y, m) + 1, &d),
                DT_E_DATE_RANGE);
    }
  }
  ASSERT_EQ(nDay, 3652059);
  ASSERT_EQ(dt_date_from_yyyymmdd(20000101, &d), DT_OK);
  ASSERT_EQ(d, 0);
  ASSERT_EQ(dt_date_from_yyyymmdd(19700101, &d), DT_OK);
  ASSERT_EQ(d, -10957);
  ASSERT_EQ(dt_date_from_yyyymmdd(19000229, &d), DT_E_DATE_RANGE);
  ASSERT_EQ(dt_date_from_yyyymmdd(20000229, &d), DT_OK);
  ASSERT_EQ(dt_date_from_yyyymmdd(0, &d), DT_E_DATE_RANGE);
  ASSERT_EQ(dt_date2j(-4713, 11, 24), 0);
  ASSERT_EQ(dt_date2j(5874898, 1, 1), DT_DATE_END_JD);
  ASSERT_EQ(dt_date2j(294277, 1, 1), DT_TS_END_JD);
  /* Julian days both ways over the whole range, in steps. */
  for (int64_t jd = 0; jd < DT_DATE_END_JD; jd += 997) {
    int y, m, dd;
    dt_j2date(jd, &y, &m, &dd);
    ASSERT_EQ(dt_date2j(y, m, dd), jd);
  }
  return 0;
}

TEST_IMPL(datetime_edges) {
  char z[DT_TEXT_MAX];
  dt_interval a;
  sql_error e;
  int64_t ts;
  int32_t d;
  dt_session s = {NULL, DT_ORDER_MDY, 0};

  dt_timestamp_format(DT_TS_NOEND, z, sizeof(z));
  ASSERT_STR_EQ(z, "infinity");
  dt_date_format(DT_DATE_NOBEGIN, z, sizeof(z));
  ASSERT_STR_EQ(z, "-infinity");
  dt_timestamp_format(DT_TS_MIN, z, sizeof(z));
  ASSERT_STR_EQ(z, "4714-11-24 00:00:00 BC");
  dt_timestamp_format(DT_TS_END - 1, z, sizeof(z));
  ASSERT_STR_EQ(z, "294276-12-31 23:59:59.999999");
  dt_time_format(DT_USECS_PER_DAY, z, sizeof(z));
  ASSERT_STR_EQ(z, "24:00:00");
  /* Out of PostgreSQL's range, as the worker's wire may carry: text of
  ** some date, without leaving int64 on the way (fuzz-wire found it). */
  ASSERT(dt_timestamp_format(INT64_MIN + 1, z, sizeof(z)) > 0);
  ASSERT(dt_timestamp_format(INT64_MAX - 1, z, sizeof(z)) > 0);
  ASSERT(dt_timestamptz_format(INT64_MIN + 1, NULL, z, sizeof(z)) > 0);
  /* A word that names a folder of zones is no zone (fuzz-sql found
  ** lo_orderdate = 'AMERICA' reading the folder as a file). */
  {
    const tz_zone *pz = NULL;
    sql_error_clear(&e);
    ASSERT(tz_zone_find("America", &pz, &e) != 0);
    ASSERT(tz_zone_find(".", &pz, &e) != 0);
    sql_error_clear(&e);
    ASSERT(dt_date_parse("AMERICA", 7, &s, &d, &e) != 0);
  }
  ASSERT_STR_EQ(dtt_tz_text(dtt_ts("1998-01-01 00:00:00.5+05:30"), NULL), "1997-12-31 18:30:00.5+00");

  /* Text in: the spellings of the issue and their errors. */
  sql_error_clear(&e);
  ASSERT_EQ(dt_date_parse("January 8, 99 BC", 16, &s, &d, &e), 0);
  dt_date_format(d, z, sizeof(z));
  ASSERT_STR_EQ(z, "0099-01-08 BC");
  ASSERT_EQ(dt_timestamp_parse("1998-02-30", 10, &s, &ts, &e), -1);
  ASSERT_STR_EQ(e.zState, "22008");
  ASSERT_STR_EQ(e.zMsg, "date/time field value out of range: \"1998-02-30\"");
  sql_error_clear(&e);
  ASSERT_EQ(dt_timestamp_parse("294277-01-01", 12, &s, &ts, &e), -1);
  ASSERT_STR_EQ(e.zMsg, "timestamp out of range: \"294277-01-01\"");
  sql_error_clear(&e);
  ASSERT_EQ(dt_timestamptz_parse("2000-01-01 00:00 Mars/Olympus", 29, &s, &ts, &e), -1);
  ASSERT_STR_EQ(e.zState, "22023");
  ASSERT_STR_EQ(e.zMsg, "time zone \"mars/olympus\" not recognized");
  sql_error_clear(&e);
  ASSERT_EQ(dt_timestamptz_parse("2000-01-01 00:00+16", 19, &s, &ts, &e), -1);
  ASSERT_STR_EQ(e.zState, "22009");

  /* Intervals: postgres style and the signs of mixed fields. */
  sql_error_clear(&e);
  ASSERT_EQ(dt_interval_parse("-1 days +02:03:00", 17, &a, &e), 0);
  ASSERT_EQ(a.day, -1);
  ASSERT_EQ(a.time, 7380 * DT_USECS_PER_SEC);
  dt_interval_format(&a, z, sizeof(z));
  ASSERT_STR_EQ(z, "-1 days +02:03:00");
  ASSERT_EQ(dt_interval_parse("P1Y2M3DT4H5M6.789S", 18, &a, &e), 0);
  dt_interval_format(&a, z, sizeof(z));
  ASSERT_STR_EQ(z, "1 year 2 mons 3 days 04:05:06.789");
  ASSERT_EQ(dt_interval_parse("@ 1 day ago", 11, &a, &e), 0);
  dt_interval_format(&a, z, sizeof(z));
  ASSERT_STR_EQ(z, "-1 days");

  /* Month arithmetic clamps to the month's end; a day across DST in New
  ** York is 23 hours. */
  ASSERT_EQ(dt_timestamp_add_interval(dtt_ts("2000-01-31 12:00") , &(dt_interval){0, 0, 1}, &ts), DT_OK);
  dt_timestamp_format(ts, z, sizeof(z));
  ASSERT_STR_EQ(z, "2000-02-29 12:00:00");
  {
    const tz_zone *ny = dtt_zone("America/New_York");
    int64_t t0 = dtt_ts("2021-03-13 17:00:00+00"), t1;       /* noon EST */
    ASSERT_EQ(dt_timestamptz_add_interval(t0, &(dt_interval){0, 1, 0}, ny, &t1), DT_OK);
    ASSERT_EQ(t1 - t0, 23 * DT_USECS_PER_HOUR);
    ASSERT_STR_EQ(dtt_tz_text(t1, ny), "2021-03-14 12:00:00-04");
  }
  /* timestamp - timestamp: days and time, never months. */
  ASSERT_EQ(dt_timestamp_diff(dtt_ts("2001-03-01"), dtt_ts("2001-01-01 06:00"), &a), DT_OK);
  dt_interval_format(&a, z, sizeof(z));
  ASSERT_STR_EQ(z, "58 days 18:00:00");
  ASSERT_EQ(dt_timestamp_diff(DT_TS_NOEND, 0, &a), DT_E_INFINITE_TS);

  /* Fields. */
  {
    numeric n;
    int bNull;
    char zN[NUMERIC_TEXT_MAX];
    ts = dtt_ts("2001-02-16 20:38:40.12");
    sql_error_clear(&e);
    ASSERT_EQ(dt_extract(DT_TYPE_TIMESTAMP, "epoch", &ts, NULL, &n, &bNull, &e), 0);
    numeric_format(&n, zN, sizeof(zN));
    ASSERT_STR_EQ(zN, "982355920.120000");
    ASSERT_EQ(dt_extract(DT_TYPE_TIMESTAMP, "Week", &ts, NULL, &n, &bNull, &e), 0);
    numeric_format(&n, zN, sizeof(zN));
    ASSERT_STR_EQ(zN, "7");
    ASSERT_EQ(dt_extract(DT_TYPE_TIMESTAMP, "timezone", &ts, NULL, &n, &bNull, &e), -1);
    ASSERT_STR_EQ(e.zMsg, "unit \"timezone\" not supported for type timestamp without time zone");
    ts = DT_TS_NOEND;
    sql_error_clear(&e);
    ASSERT_EQ(dt_extract(DT_TYPE_TIMESTAMP, "year", &ts, NULL, &n, &bNull, &e), 0);
    ASSERT(n.eKind == NUMERIC_PINF && !bNull);
    ASSERT_EQ(dt_extract(DT_TYPE_TIMESTAMP, "month", &ts, NULL, &n, &bNull, &e), 0);
    ASSERT(bNull);
  }
  ts = dtt_ts("2024-01-07 15:00");            /* a Sunday: its ISO week began Monday the 1st */
  sql_error_clear(&e);
  ASSERT_EQ(dt_trunc(DT_TYPE_TIMESTAMP, "week", &ts, NULL, &ts, &e), 0);
  dt_timestamp_format(ts, z, sizeof(z));
  ASSERT_STR_EQ(z, "2024-01-01 00:00:00");
  ASSERT_EQ(dt_make_date(-44, 3, 15, &d, &e), 0);
  dt_date_format(d, z, sizeof(z));
  ASSERT_STR_EQ(z, "0044-03-15 BC");
  ASSERT_EQ(dt_make_date(2013, 2, 30, &d, &e), -1);
  ASSERT_STR_EQ(e.zMsg, "date field value out of range: 2013-02-30");
  return 0;
}

/* ---- zones ------------------------------------------------------------------------ */

TEST_IMPL(tz_zones) {
  const tz_zone *ny = dtt_zone("America/New_York"), *lh = dtt_zone("Australia/Lord_Howe");
  const tz_zone *p;
  sql_error e;
  int gmtoff, isdst;
  const char *zAbbrev;
  /* Past the file's table (2037): the POSIX footer's rule. */
  ASSERT_STR_EQ(dtt_tz_text(dtt_ts("2100-07-04 16:00:00+00"), ny), "2100-07-04 12:00:00-04");
  ASSERT_STR_EQ(dtt_tz_text(dtt_ts("2100-01-04 17:00:00+00"), ny), "2100-01-04 12:00:00-05");
  ASSERT_STR_EQ(dtt_tz_text(dtt_ts("99999-07-04 16:00:00+00"), ny), "99999-07-04 12:00:00-04");
  /* Before it: local mean time to the second. */
  ASSERT_STR_EQ(dtt_tz_text(dtt_ts("1800-01-01 00:00:00+00"), ny), "1799-12-31 19:03:58-04:56:02");
  /* Half an hour of DST. */
  ASSERT_STR_EQ(dtt_tz_text(dtt_ts("2024-01-01 00:00:00+00"), lh), "2024-01-01 11:00:00+11");
  ASSERT_STR_EQ(dtt_tz_text(dtt_ts("2024-07-01 00:00:00+00"), lh), "2024-07-01 10:30:00+10:30");
  tz_zone_at(lh, 1719792000, &gmtoff, &isdst, &zAbbrev);
  ASSERT_EQ(gmtoff, 37800);
  ASSERT_EQ(isdst, 0);
  /* POSIX signs: west is positive, as PostgreSQL documents. */
  ASSERT_STR_EQ(dtt_tz_text(0, dtt_zone("Etc/GMT+5")), "1999-12-31 19:00:00-05");
  ASSERT_STR_EQ(dtt_tz_text(0, dtt_zone("UTC+3")), "1999-12-31 21:00:00-03");
  ASSERT_STR_EQ(dtt_tz_text(0, dtt_zone("<+0530>-5:30")), "2000-01-01 05:30:00+05:30");
  ASSERT_STR_EQ(dtt_tz_text(0, tz_zone_fixed(-12600)), "1999-12-31 20:30:00-03:30");
  /* Names in any case; one load per name. */
  ASSERT(dtt_zone("america/new_york") != NULL);
  ASSERT(dtt_zone("America/New_York") == ny);
  sql_error_clear(&e);
  ASSERT_EQ(tz_zone_find("America/Atlantis", &p, &e), -1);
  ASSERT_STR_EQ(e.zMsg, "time zone \"America/Atlantis\" not recognized");
  ASSERT_EQ(tz_zone_find("../../etc/passwd", &p, &e), -1);
  ASSERT(tz_abbrev_lookup("cest", &gmtoff, &isdst) && gmtoff == 7200 && isdst);
  ASSERT(!tz_abbrev_lookup("msk", &gmtoff, &isdst));      /* a zone's, not fixed */
  return 0;
}

/* What one thread computes: zones found and instants shown in them. */
typedef struct dtt_thread dtt_thread;
struct dtt_thread {
  pthread_t t;
  int iSeed;
  uint64_t sum;
};

static void *dtt_thread_main(void *pArg) {
  static const char *const azZone[] = {"Europe/Berlin", "Asia/Tokyo", "America/Sao_Paulo",
                                       "Australia/Lord_Howe", "Pacific/Chatham", "Africa/Cairo",
                                       "America/St_Johns", "Asia/Kathmandu"};
  dtt_thread *p = pArg;
  for (int i = 0; i < 4000; i++) {
    const tz_zone *z;
    sql_error e;
    dt_tm tm;
    int64_t ts = ((int64_t)(i * 7919 + p->iSeed * 104729) % 4000000) * 900 * DT_USECS_PER_SEC;
    sql_error_clear(&e);
    if (tz_zone_find(azZone[(i + p->iSeed) % 8], &z, &e) != 0) return NULL;
    dt_timestamptz_to_tm(ts, z, &tm);
    p->sum += (uint64_t)(tm.gmtoff + tm.hour * 3600 + tm.minute * 60 + tm.day);
  }
  return NULL;
}

/* Zones loaded and used by many threads at once give what one thread
** gets (and ASan sees no race on the cache's list). */
TEST_IMPL(tz_threads) {
  dtt_thread a[8], b[8];
  for (int i = 0; i < 8; i++) {
    a[i].iSeed = b[i].iSeed = i;
    a[i].sum = b[i].sum = 0;
    ASSERT_EQ(pthread_create(&a[i].t, NULL, dtt_thread_main, &a[i]), 0);
  }
  for (int i = 0; i < 8; i++) ASSERT_EQ(pthread_join(a[i].t, NULL), 0);
  for (int i = 0; i < 8; i++) {
    dtt_thread_main(&b[i]);
    ASSERT(a[i].sum == b[i].sum && a[i].sum != 0);
  }
  return 0;
}

/* ---- the wire ----------------------------------------------------------------------- */

/* The binary forms against PostgreSQL's: the same bytes, both ways. */
TEST_IMPL(datetime_pg_wire) {
  static const char *const azValue[] = {
      "date '1998-01-01'", "date '4714-11-24 BC'", "date 'infinity'", "date '5874897-12-31'",
      "timestamp '2001-02-16 20:38:40.12'", "timestamp '-infinity'",
      "timestamptz '1998-01-01 00:00:00.5+05:30'", "time '24:00:00'",
      "interval '1 year 2 mons 3 days 04:05:06.789'", "interval '-178956970 years -7 mons'",
      "interval '-1 days +02:03:00'"};
  pgref *p;
  char zErr[2048];
  CALL_OK(pgref_start(&p, "pg", zErr, sizeof(zErr)));
  for (size_t i = 0; i < sizeof(azValue) / sizeof(azValue[0]); i++) {
    char zSql[256], zText[DT_TEXT_MAX];
    PGresult *res;
    const unsigned char *aBin;
    unsigned char aOurs[16];
    int nLen;
    dt_session s = {NULL, DT_ORDER_MDY, 0};
    sql_error e;
    snprintf(zSql, sizeof(zSql), "SELECT %s, (%s)::text", azValue[i], azValue[i]);
    res = PQexecParams(pgref_conn(p), zSql, 0, NULL, NULL, NULL, NULL, 1);
    ASSERT(PQresultStatus(res) == PGRES_TUPLES_OK);
    aBin = (const unsigned char *)PQgetvalue(res, 0, 0);
    nLen = PQgetlength(res, 0, 0);
    snprintf(zText, sizeof(zText), "%.*s", PQgetlength(res, 0, 1), PQgetvalue(res, 0, 1));
    sql_error_clear(&e);
    if (strncmp(azValue[i], "date", 4) == 0) {
      int32_t d;
      ASSERT_EQ(nLen, 4);
      ASSERT_EQ(dt_date_parse(zText, strlen(zText), &s, &d, &e), 0);
      dt_date_send(d, aOurs);
      ASSERT_EQ(dt_date_recv(aBin), d);
    } else if (strncmp(azValue[i], "interval", 8) == 0) {
      dt_interval a, b;
      ASSERT_EQ(nLen, 16);
      ASSERT_EQ(dt_interval_parse(zText, strlen(zText), &a, &e), 0);
      dt_interval_send(&a, aOurs);
      dt_interval_recv(aBin, &b);
      ASSERT(a.time == b.time && a.day == b.day && a.month == b.month);
    } else {
      int64_t ts;
      int rc = strncmp(azValue[i], "time ", 5) == 0 ? dt_time_parse(zText, strlen(zText), &s, &ts, &e)
               : strncmp(azValue[i], "timestamptz", 11) == 0
                   ? dt_timestamptz_parse(zText, strlen(zText), &s, &ts, &e)
                   : dt_timestamp_parse(zText, strlen(zText), &s, &ts, &e);
      ASSERT_EQ(rc, 0);
      ASSERT_EQ(nLen, 8);
      dt_timestamp_send(ts, aOurs);
      ASSERT(dt_timestamp_recv(aBin) == ts);
    }
    if (memcmp(aOurs, aBin, (size_t)nLen) != 0) FAIL("%s: the bytes differ", azValue[i]);
    PQclear(res);
  }
  pgref_stop(p);
  return 0;
}
