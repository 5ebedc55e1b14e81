/*
** tests/datetime-gen.c — random date/time values and spellings for the
** differential tests (datetime-gen.h).
*/
#include <stdio.h>
#include <string.h>

#include "datetime-gen.h"
#include "test.h"

const char *const dtgen_azZone[] = {
    "UTC",           "America/New_York", "Europe/Berlin", "Australia/Lord_Howe",
    "Asia/Kolkata",  "America/Sao_Paulo",
};
const int dtgen_nZone = (int)(sizeof(dtgen_azZone) / sizeof(dtgen_azZone[0]));

void dtgen_open(dtgen *g, uint64_t seed) {
  char zErr[2048];
  memset(g, 0, sizeof(*g));
  g->r = seed;
  g->d = pgdiff_new();
  CALL_OK(pgref_start(&g->p, "pg", zErr, sizeof(zErr)));
}

void dtgen_close(dtgen *g) {
  pgdiff_free(g->d);
  pgref_stop(g->p);
}

void dtgen_zone_begin(dtgen *g, const char *zZone) {
  char zErr[1024], zSql[256];
  pgref_result *r;
  sql_error e;
  sql_error_clear(&e);
  g->zZone = zZone;
  if (tz_zone_find(zZone, &g->s.pZone, &e) != 0) FAIL("%s: %s", zZone, e.zMsg);
  g->s.eOrder = DT_ORDER_MDY;
  snprintf(zSql, sizeof(zSql), "SET TimeZone = '%s'", zZone);
  CALL_OK(pgref_exec(g->p, zSql, zErr, sizeof(zErr)));
  CALL_OK(pgref_exec(g->p, "BEGIN", zErr, sizeof(zErr)));
  /* now() as microseconds since 2000, exactly. */
  CALL_OK(pgref_query(g->p,
                      "SELECT ((extract(epoch FROM now()) - 946684800) * 1000000)::bigint",
                      &r, zErr, sizeof(zErr)));
  g->s.tNow = strtoll(refdb_result_cell(r->pRows, 0, 0), NULL, 10);
  pgref_result_free(r);
}

int dtgen_zone_end(dtgen *g, const char *zLabel) {
  char zErr[1024], zFull[256];
  int n;
  snprintf(zFull, sizeof(zFull), "%s, TimeZone %s", zLabel, g->zZone);
  n = pgdiff_run(g->d, g->p, zFull, NULL);
  CALL_OK(pgref_exec(g->p, "COMMIT", zErr, sizeof(zErr)));
  return n;
}

/* A timestamp of local fields y-m-d h:mi:s.us as if UTC. */
static int64_t dtgen_ts(int y, int m, int d, int h, int mi, int s, int us) {
  return (dt_date2j(y, m, d) - DT_EPOCH_JD) * DT_USECS_PER_DAY +
         (((int64_t)h * 60 + mi) * 60 + s) * DT_USECS_PER_SEC + us;
}

/* A random fraction: none half the time, milliseconds often. */
static int dtgen_usec(dtgen *g) {
  int k = (int)pgdiff_below(&g->r, 10);
  if (k < 5) return 0;
  if (k < 7) return (int)pgdiff_below(&g->r, 1000) * 1000;
  return (int)pgdiff_below(&g->r, 1000000);
}

int64_t dtgen_timestamp(dtgen *g) {
  int k = (int)pgdiff_below(&g->r, 100);
  int64_t ts;
  if (k < 35) {
    ts = dtgen_ts(1970, 1, 1, 0, 0, 0, 0) +
         pgdiff_below(&g->r, 70LL * 366 * 86400) * DT_USECS_PER_SEC + dtgen_usec(g);
  } else if (k < 50 && g->s.pZone != NULL) {
    /* Around a change of offset: a random instant of a year, the next
    ** boundary, a few quarter hours either side. */
    int64_t t = (dt_date2j(1950 + pgdiff_below(&g->r, 110), 1, 1) - DT_UNIX_EPOCH_JD) * 86400 +
                pgdiff_below(&g->r, 365LL * 86400), tB;
    int iBefore, iAfter;
    if (!tz_zone_next_boundary(g->s.pZone, t, &tB, &iBefore, &iAfter)) tB = t;
    tB += (pgdiff_below(&g->r, 17) - 8) * 900 + (pgdiff_below(&g->r, 4) == 0 ? -1 : 0);
    ts = (tB - (int64_t)(DT_EPOCH_JD - DT_UNIX_EPOCH_JD) * 86400) * DT_USECS_PER_SEC;
  } else if (k < 65) {
    ts = dtgen_ts(1 + (int)pgdiff_below(&g->r, 9999), 1 + (int)pgdiff_below(&g->r, 12),
                  1 + (int)pgdiff_below(&g->r, 28), (int)pgdiff_below(&g->r, 24),
                  (int)pgdiff_below(&g->r, 60), (int)pgdiff_below(&g->r, 60), dtgen_usec(g));
  } else if (k < 75) {
    ts = (int64_t)((uint64_t)DT_TS_MIN + pgdiff_rand(&g->r) % ((uint64_t)DT_TS_END - (uint64_t)DT_TS_MIN));
  } else if (k < 85) {
    ts = dtgen_ts(-(int)pgdiff_below(&g->r, 4712), 1 + (int)pgdiff_below(&g->r, 12),
                  1 + (int)pgdiff_below(&g->r, 28), (int)pgdiff_below(&g->r, 24),
                  (int)pgdiff_below(&g->r, 60), (int)pgdiff_below(&g->r, 60), dtgen_usec(g));
  } else if (k < 95) {
    /* A month's last day, Feb 29 of a leap year, the turn of a year. */
    int y = 1600 + (int)pgdiff_below(&g->r, 800), m = 1 + (int)pgdiff_below(&g->r, 12);
    if (pgdiff_below(&g->r, 3) == 0) m = 2;
    ts = dtgen_ts(y, m, dt_days_in_month(y, m), 23, (int)pgdiff_below(&g->r, 60), 59,
                  dtgen_usec(g));
    if (pgdiff_below(&g->r, 2)) ts += DT_USECS_PER_HOUR;
  } else {
    ts = pgdiff_below(&g->r, 2) ? DT_TS_MIN + pgdiff_below(&g->r, 2 * DT_USECS_PER_DAY)
                                : DT_TS_END - 1 - pgdiff_below(&g->r, 2 * DT_USECS_PER_DAY);
  }
  if (ts < DT_TS_MIN) ts = DT_TS_MIN;
  if (ts >= DT_TS_END) ts = DT_TS_END - 1;
  return ts;
}

int32_t dtgen_date(dtgen *g) {
  int k = (int)pgdiff_below(&g->r, 10);
  if (k < 8) {
    int64_t ts = dtgen_timestamp(g);
    return (int32_t)(ts >= 0 ? ts / DT_USECS_PER_DAY : -((-ts - 1) / DT_USECS_PER_DAY) - 1);
  }
  if (k < 9) return (int32_t)(DT_DATE_MIN + pgdiff_below(&g->r, DT_DATE_END - DT_DATE_MIN));
  return pgdiff_below(&g->r, 2) ? DT_DATE_MIN + (int32_t)pgdiff_below(&g->r, 40)
                                : DT_DATE_END - 1 - (int32_t)pgdiff_below(&g->r, 40);
}

dt_interval dtgen_interval(dtgen *g) {
  dt_interval a = {0, 0, 0};
  int k = (int)pgdiff_below(&g->r, 10);
  int bNeg = pgdiff_below(&g->r, 4) == 0;
  if (k < 3 || pgdiff_below(&g->r, 3) == 0) a.month = (int32_t)pgdiff_below(&g->r, k < 1 ? 100000 : 40);
  if (k < 6 || pgdiff_below(&g->r, 3) == 0) a.day = (int32_t)pgdiff_below(&g->r, k < 1 ? 100000 : 60);
  if (k >= 3 || pgdiff_below(&g->r, 2) == 0) {
    a.time = pgdiff_below(&g->r, k < 1 ? 1000000 * DT_USECS_PER_HOUR : 48 * DT_USECS_PER_HOUR);
    if (pgdiff_below(&g->r, 2)) a.time -= a.time % DT_USECS_PER_SEC;
  }
  if (bNeg) {
    /* mixed signs too */
    if (pgdiff_below(&g->r, 2)) a.month = -a.month;
    if (pgdiff_below(&g->r, 2)) a.day = -a.day;
    if (pgdiff_below(&g->r, 2)) a.time = -a.time;
  }
  return a;
}

static const char *const dtgen_azMon[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
static const char *const dtgen_azMonth[] = {"January", "February", "March",     "April",
                                            "May",     "June",     "July",      "August",
                                            "September", "October", "November", "December"};

void dtgen_spell(dtgen *g, const dt_tm *tm, int bZone, char *z, size_t n) {
  static const char *const azZone[] = {
      "Z", "+05:30", "-08", "+0530", " UTC", " EST", " America/New_York", " Europe/Berlin",
      "+14", "-03:30", " GMT", " PDT", " Asia/Kolkata", "-00:30", "+1", " CEST", " zulu",
      " Australia/Lord_Howe", "+09:30:15", "-12:45"};
  int y = tm->year > 0 ? tm->year : 1 - tm->year, bBC = tm->year <= 0;
  char zFrac[16] = "", zTime[48];
  size_t i;
  int k = (int)pgdiff_below(&g->r, 12), bTime = pgdiff_below(&g->r, 6) != 0;
  if (tm->usec != 0) {
    snprintf(zFrac, sizeof(zFrac), ".%06d", tm->usec);
    for (i = strlen(zFrac); i > 2 && zFrac[i - 1] == '0'; i--) zFrac[i - 1] = 0;
    if (pgdiff_below(&g->r, 6) == 0) {
      /* more digits than a microsecond: rounded as PostgreSQL rounds */
      snprintf(zFrac, sizeof(zFrac), ".%06d%d", tm->usec, (int)pgdiff_below(&g->r, 10));
    }
  }
  snprintf(zTime, sizeof(zTime), "%02d:%02d:%02d%s", tm->hour, tm->minute, tm->second, zFrac);
  switch (k) {
    case 0:
    case 1:
      i = (size_t)snprintf(z, n, "%04d-%02d-%02d%s%s", y, tm->month, tm->day, bTime ? " " : "",
                           bTime ? zTime : "");
      break;
    case 2:
      i = (size_t)snprintf(z, n, "%04d-%02d-%02dT%s", y, tm->month, tm->day, zTime);
      break;
    case 3:
      i = (size_t)snprintf(z, n, "%s %d %04d %s", dtgen_azMon[tm->month - 1], tm->day, y,
                           bTime ? zTime : "");
      break;
    case 4:
      i = (size_t)snprintf(z, n, "%s %d, %d%s%s", dtgen_azMonth[tm->month - 1], tm->day, y,
                           bTime ? " " : "", bTime ? zTime : "");
      break;
    case 5:
      i = (size_t)snprintf(z, n, "%d %s %04d %s", tm->day, dtgen_azMon[tm->month - 1], y,
                           bTime ? zTime : "");
      break;
    case 6:
      i = (size_t)snprintf(z, n, "%02d/%02d/%04d %02d:%02d", tm->month, tm->day, y, tm->hour,
                           tm->minute);
      break;
    case 7:
      i = (size_t)snprintf(z, n, "%04d%02d%02d %02d%02d%02d", y, tm->month, tm->day, tm->hour,
                           tm->minute, tm->second);
      break;
    case 8:
      i = (size_t)snprintf(z, n, "%d-%d-%d %d:%02d:%02d%s", y, tm->month, tm->day, tm->hour,
                           tm->minute, tm->second, zFrac);
      break;
    case 9:
      i = (size_t)snprintf(z, n, "%04d-%02d-%02d %d:%02d %s", y, tm->month, tm->day,
                           tm->hour % 12 == 0 ? 12 : tm->hour % 12, tm->minute,
                           tm->hour < 12 ? "am" : "PM");
      break;
    case 10:
      i = (size_t)snprintf(z, n, "%s, %s %d %04d %s", "Thursday", dtgen_azMonth[tm->month - 1],
                           tm->day, y, zTime);
      break;
    default:
      i = (size_t)snprintf(z, n, "%04d-%02d-%02d %s", y, tm->month, tm->day, zTime);
      break;
  }
  if (i >= n) i = n - 1;
  if (bZone && pgdiff_below(&g->r, 3) != 0) {
    i += (size_t)snprintf(z + i, n - i, "%s", azZone[pgdiff_below(&g->r, 20)]);
  }
  if (bBC && i < n) snprintf(z + i, n - i, " BC");
}

void dtgen_error_text(const sql_error *e, char *z, size_t n) {
  snprintf(z, n, "ERROR %s: %s", e->zState, e->zMsg);
}

const char *dtgen_quote(const char *z) {
  static char zOut[1024];
  size_t i = 0;
  zOut[i++] = '\'';
  for (; *z && i + 3 < sizeof(zOut); z++) {
    if (*z == '\'') zOut[i++] = '\'';
    zOut[i++] = *z;
  }
  zOut[i++] = '\'';
  zOut[i] = 0;
  return zOut;
}
