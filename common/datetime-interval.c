/*
** common/datetime-interval.c — PostgreSQL 15's interval: text in (the
** postgres words, SQL's "1-2" and "1 2:03:04", ISO 8601 both ways), text
** out (IntervalStyle postgres), its fields, and its arithmetic
** (datetime.h).
**
** The text is cut into fields by the date/time lexer (dt__lex) and then
** read from the right, so a unit word gives the number before it its
** meaning; a bare number takes the unit of what follows it (seconds at the
** end, days before a time). Fractions of a unit cascade down as PostgreSQL
** cascades them: a month is 30 days, a day 24 hours, a year 12 months, and
** what is finer than a microsecond is rounded. Interval comparison treats
** a month as 30 days and a day as 24 hours, as PostgreSQL's interval_cmp.
**
** INTERFACE ROUTINES
**   dt_interval_parse, dt_interval_format, dt_interval_to_itm,
**   dt_interval_from_itm, dt_interval_add, dt_interval_sub, dt_interval_neg,
**   dt_interval_mul, dt_interval_div, dt_interval_cmp,
**   dt_interval_justify_hours, dt_interval_justify_days,
**   dt_interval_justify_interval
*/
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datetimeInt.h"

#define DTI_DAYS_PER_MONTH 30

/* What the fields add up to while parsing (PostgreSQL's pg_itm_in). */
typedef struct dti dti;
struct dti {
  int64_t usec;
  int day;
  int month;
  int year;
};

/* ---- overflow-checked steps ----------------------------------------------------- */

static int dti_add32(int a, int64_t b, int *pOut) {
  int64_t r = (int64_t)a + b;
  if (r > INT_MAX || r < INT_MIN) return 0;
  *pOut = (int)r;
  return 1;
}

static int dti_add64(int64_t a, int64_t b, int64_t *pOut) {
  return !__builtin_add_overflow(a, b, pOut);
}

/* *pOut += v * scale, checked. */
static int dti_mul_add(int64_t v, int64_t scale, int64_t *pOut) {
  int64_t p;
  if (__builtin_mul_overflow(v, scale, &p)) return 0;
  return dti_add64(*pOut, p, pOut);
}

/* A fraction of scale microseconds, rounded (AdjustFractMicroseconds). */
static int dti_frac_usec(double f, int64_t scale, dti *p) {
  int64_t us;
  if (f == 0) return 1;
  f *= (double)scale;
  us = (int64_t)f;
  f -= (double)us;
  if (f > 0.5) us++;
  else if (f < -0.5) us--;
  return dti_add64(p->usec, us, &p->usec);
}

/* A fraction of scale days: whole days, then the rest in microseconds. */
static int dti_frac_days(double f, int scale, dti *p) {
  int nDay;
  if (f == 0) return 1;
  f *= scale;
  nDay = (int)f;
  if (!dti_add32(p->day, nDay, &p->day)) return 0;
  return dti_frac_usec(f - nDay, DT_USECS_PER_DAY, p);
}

/* A fraction of scale years, as whole months (rounded). */
static int dti_frac_years(double f, int scale, dti *p) {
  return dti_add32(p->month, (int64_t)round(f * scale * 12), &p->month);
}

static int dti_usec(int64_t v, double f, int64_t scale, dti *p) {
  return dti_mul_add(v, scale, &p->usec) && dti_frac_usec(f, scale, p);
}

/* *pField += v * scale, each step an int as PostgreSQL's AdjustDays,
** AdjustMonths and AdjustYears check it. */
static int dti_scaled(int64_t v, int scale, int *pField) {
  if (v < INT_MIN || v > INT_MAX || v * scale < INT_MIN || v * scale > INT_MAX) return 0;
  return dti_add32(*pField, v * scale, pField);
}

static int dti_days(int64_t v, int scale, dti *p) {
  return dti_scaled(v, scale, &p->day);
}

static int dti_months(int64_t v, dti *p) {
  return dti_scaled(v, 1, &p->month);
}

static int dti_years(int64_t v, int scale, dti *p) {
  return dti_scaled(v, scale, &p->year);
}

/* ---- units -------------------------------------------------------------------------- */

enum {
  DTI_U_MICRO, DTI_U_MILLI, DTI_U_SECOND, DTI_U_MINUTE, DTI_U_HOUR, DTI_U_DAY, DTI_U_WEEK,
  DTI_U_MONTH, DTI_U_YEAR, DTI_U_DECADE, DTI_U_CENTURY, DTI_U_MILLENNIUM,
  DTI_U_OTHER,             /* a unit interval input does not take (quarter, timezone) */
  DTI_U_AGO,
};

static const struct dti_unit {
  const char *z;
  int eUnit;
} dti_aUnit[] = {
    {"ago", DTI_U_AGO}, {"c", DTI_U_CENTURY}, {"cent", DTI_U_CENTURY},
    {"centuries", DTI_U_CENTURY}, {"century", DTI_U_CENTURY}, {"d", DTI_U_DAY},
    {"day", DTI_U_DAY}, {"days", DTI_U_DAY}, {"dec", DTI_U_DECADE}, {"decade", DTI_U_DECADE},
    {"decades", DTI_U_DECADE}, {"decs", DTI_U_DECADE}, {"h", DTI_U_HOUR}, {"hour", DTI_U_HOUR},
    {"hours", DTI_U_HOUR}, {"hr", DTI_U_HOUR}, {"hrs", DTI_U_HOUR}, {"m", DTI_U_MINUTE},
    {"microsecon", DTI_U_MICRO}, {"mil", DTI_U_MILLENNIUM}, {"millennia", DTI_U_MILLENNIUM},
    {"millennium", DTI_U_MILLENNIUM}, {"millisecon", DTI_U_MILLI}, {"mils", DTI_U_MILLENNIUM},
    {"min", DTI_U_MINUTE}, {"mins", DTI_U_MINUTE}, {"minute", DTI_U_MINUTE},
    {"minutes", DTI_U_MINUTE}, {"mon", DTI_U_MONTH}, {"mons", DTI_U_MONTH},
    {"month", DTI_U_MONTH}, {"months", DTI_U_MONTH}, {"ms", DTI_U_MILLI}, {"msec", DTI_U_MILLI},
    {"mseconds", DTI_U_MILLI}, {"msecs", DTI_U_MILLI}, {"qtr", DTI_U_OTHER},
    {"quarter", DTI_U_OTHER}, {"s", DTI_U_SECOND}, {"sec", DTI_U_SECOND},
    {"second", DTI_U_SECOND}, {"seconds", DTI_U_SECOND}, {"secs", DTI_U_SECOND},
    {"timezone", DTI_U_OTHER}, {"timezone_h", DTI_U_OTHER}, {"timezone_m", DTI_U_OTHER},
    {"us", DTI_U_MICRO}, {"usec", DTI_U_MICRO}, {"useconds", DTI_U_MICRO},
    {"usecs", DTI_U_MICRO}, {"w", DTI_U_WEEK}, {"week", DTI_U_WEEK}, {"weeks", DTI_U_WEEK},
    {"y", DTI_U_YEAR}, {"year", DTI_U_YEAR}, {"years", DTI_U_YEAR}, {"yr", DTI_U_YEAR},
    {"yrs", DTI_U_YEAR},
};

/* Looks up a unit word (its first 10 characters, as PostgreSQL); -1 if
** it is none. */
static int dti_unit_find(const char *z) {
  for (size_t i = 0; i < sizeof(dti_aUnit) / sizeof(dti_aUnit[0]); i++) {
    if (strncmp(z, dti_aUnit[i].z, 10) == 0) return dti_aUnit[i].eUnit;
  }
  return -1;
}

/* Masks of what was given, so nothing is given twice. */
#define DTI_M(u) (1 << (u))
#define DTI_M_TIME (DTI_M(DTI_U_HOUR) | DTI_M(DTI_U_MINUTE) | DTI_M(DTI_U_SECOND) | \
                    DTI_M(DTI_U_MILLI) | DTI_M(DTI_U_MICRO))
#define DTI_M_SECS (DTI_M(DTI_U_SECOND) | DTI_M(DTI_U_MILLI) | DTI_M(DTI_U_MICRO))

/* ---- the postgres syntax ---------------------------------------------------------------- */

/* h:m[:s[.f]] or m:s.f into microseconds (PostgreSQL's DecodeTimeCommon).
** z has no sign. */
static int dti_time(const char *z, int64_t *pUsec) {
  char *zEnd;
  long long h;
  int m, s = 0, bRange;
  int64_t us = 0;
  const char *p;
  errno = 0;
  h = strtoll(z, &zEnd, 10);
  if (errno == ERANGE) return DT__E_FIELD_OVERFLOW;
  if (zEnd == z || *zEnd != ':') return DT__E_BAD_FORMAT;
  p = dt__strtoint(zEnd + 1, &m, &bRange);
  if (p == NULL) return DT__E_BAD_FORMAT;
  if (bRange) return DT__E_FIELD_OVERFLOW;
  if (*p == '.') {
    if (dt__fraction(p, &us) != 0) return DT__E_BAD_FORMAT;
    if (h > INT_MAX || h < INT_MIN) return DT__E_FIELD_OVERFLOW;
    s = m;                                  /* mm:ss.f */
    m = (int)h;
    h = 0;
  } else if (*p == ':') {
    p = dt__strtoint(p + 1, &s, &bRange);
    if (p == NULL) return DT__E_BAD_FORMAT;
    if (bRange) return DT__E_FIELD_OVERFLOW;
    if (*p == '.') {
      if (dt__fraction(p, &us) != 0) return DT__E_BAD_FORMAT;
    } else if (*p != 0) {
      return DT__E_BAD_FORMAT;
    }
  } else if (*p != 0) {
    return DT__E_BAD_FORMAT;
  }
  if (h < 0 || m < 0 || m > 59 || s < 0 || s > 60 || us < 0 || us > DT_USECS_PER_SEC) {
    return DT__E_FIELD_OVERFLOW;
  }
  *pUsec = us;
  if (!dti_mul_add(h, DT_USECS_PER_HOUR, pUsec) || !dti_mul_add(m, DT_USECS_PER_MINUTE, pUsec) ||
      !dti_mul_add(s, DT_USECS_PER_SEC, pUsec)) {
    return DT__E_FIELD_OVERFLOW;
  }
  return 0;
}

/* A number with its unit (PostgreSQL's DecodeInterval, number case). */
static int dti_number(const char *z, int *peUnit, int *pTmask, dti *p) {
  char *zEnd;
  int64_t v;
  double f = 0;
  int rc;
  errno = 0;
  v = strtoll(z, &zEnd, 10);
  if (errno == ERANGE) return DT__E_FIELD_OVERFLOW;
  if (zEnd == z) return DT__E_BAD_FORMAT;
  if (*zEnd == '-') {
    /* SQL's years-months: "1-2" */
    int v2, bRange;
    const char *q = dt__strtoint(zEnd + 1, &v2, &bRange);
    if (q == NULL) return DT__E_BAD_FORMAT;
    if (bRange || v2 < 0 || v2 >= 12) return DT__E_FIELD_OVERFLOW;
    if (*q != 0) return DT__E_BAD_FORMAT;
    *peUnit = DTI_U_MONTH;
    if (z[0] == '-') v2 = -v2;
    if (__builtin_mul_overflow(v, (int64_t)12, &v) || __builtin_add_overflow(v, (int64_t)v2, &v)) {
      return DT__E_FIELD_OVERFLOW;
    }
  } else if (*zEnd == '.') {
    if (zEnd[1] != 0) {
      char *zEnd2;
      errno = 0;
      f = strtod(zEnd, &zEnd2);
      if (*zEnd2 != 0 || errno != 0) return DT__E_BAD_FORMAT;
    }
    if (z[0] == '-') f = -f;
  } else if (*zEnd != 0) {
    return DT__E_BAD_FORMAT;
  }
  rc = 1;
  switch (*peUnit) {
    case DTI_U_MICRO:
      rc = dti_usec(v, f, 1, p);
      *pTmask = DTI_M(DTI_U_MICRO);
      break;
    case DTI_U_MILLI:
      rc = dti_usec(v, f, 1000, p);
      *pTmask = DTI_M(DTI_U_MILLI);
      break;
    case DTI_U_SECOND:
      rc = dti_usec(v, f, DT_USECS_PER_SEC, p);
      *pTmask = f == 0 ? DTI_M(DTI_U_SECOND) : DTI_M_SECS;
      break;
    case DTI_U_MINUTE:
      rc = dti_usec(v, f, DT_USECS_PER_MINUTE, p);
      *pTmask = DTI_M(DTI_U_MINUTE);
      break;
    case DTI_U_HOUR:
      rc = dti_usec(v, f, DT_USECS_PER_HOUR, p);
      *pTmask = DTI_M(DTI_U_HOUR);
      *peUnit = DTI_U_DAY;                  /* a number before this is days */
      break;
    case DTI_U_DAY:
      rc = dti_days(v, 1, p) && dti_frac_usec(f, DT_USECS_PER_DAY, p);
      *pTmask = DTI_M(DTI_U_DAY);
      break;
    case DTI_U_WEEK:
      rc = dti_days(v, 7, p) && dti_frac_days(f, 7, p);
      *pTmask = DTI_M(DTI_U_WEEK);
      break;
    case DTI_U_MONTH:
      rc = dti_months(v, p) && dti_frac_days(f, DTI_DAYS_PER_MONTH, p);
      *pTmask = DTI_M(DTI_U_MONTH);
      break;
    case DTI_U_YEAR:
    case DTI_U_DECADE:
    case DTI_U_CENTURY:
    case DTI_U_MILLENNIUM: {
      int scale = *peUnit == DTI_U_YEAR ? 1 : *peUnit == DTI_U_DECADE ? 10
                  : *peUnit == DTI_U_CENTURY ? 100 : 1000;
      rc = dti_years(v, scale, p) && dti_frac_years(f, scale, p);
      *pTmask = DTI_M(*peUnit);
      break;
    }
    default:
      return DT__E_BAD_FORMAT;
  }
  return rc ? 0 : DT__E_FIELD_OVERFLOW;
}

/* PostgreSQL's DecodeInterval over the lexer's fields, right to left. */
static int dti_decode(dt__field *aField, int nf, dti *p) {
  int fmask = 0, eUnit = -1, bUnitPending = 0, bAgo = 0;
  memset(p, 0, sizeof(*p));
  for (int i = nf - 1; i >= 0; i--) {
    dt__field *f = &aField[i];
    int tmask = 0, rc;
    switch (f->eKind) {
      case DT__F_TIME:
        if ((rc = dti_time(f->z, &p->usec)) != 0) return rc;
        tmask = DTI_M_TIME;
        eUnit = DTI_U_DAY;
        bUnitPending = 0;
        break;
      case DT__F_TZ:
        /* A signed h:m[:s] is a time with a sign ("1 day -02:00"). */
        if (strchr(f->z + 1, ':') != NULL && dti_time(f->z + 1, &p->usec) == 0) {
          if (f->z[0] == '-') p->usec = -p->usec;
          tmask = DTI_M_TIME;
          eUnit = DTI_U_DAY;
          bUnitPending = 0;
          break;
        }
        /* fall through - a signed number */
      case DT__F_DATE:
      case DT__F_NUMBER:
        if (eUnit < 0) eUnit = DTI_U_SECOND;
        if ((rc = dti_number(f->z, &eUnit, &tmask, p)) != 0) return rc;
        bUnitPending = 0;
        break;
      case DT__F_STRING:
      case DT__F_SPECIAL: {
        int u;
        if (bUnitPending) return DT__E_BAD_FORMAT;
        u = dti_unit_find(f->z);
        if (u < 0) return DT__E_BAD_FORMAT;
        if (u == DTI_U_AGO) {
          bAgo = 1;                         /* anywhere, any number of times */
          break;
        }
        eUnit = u;
        bUnitPending = 1;
        break;
      }
      default:
        return DT__E_BAD_FORMAT;
    }
    if (tmask & fmask) return DT__E_BAD_FORMAT;
    fmask |= tmask;
  }
  if (fmask == 0 || bUnitPending) return DT__E_BAD_FORMAT;
  if (bAgo) {
    if (p->usec == INT64_MIN || p->day == INT_MIN || p->month == INT_MIN || p->year == INT_MIN) {
      return DT__E_FIELD_OVERFLOW;
    }
    p->usec = -p->usec;
    p->day = -p->day;
    p->month = -p->month;
    p->year = -p->year;
  }
  return 0;
}

/* ---- ISO 8601 ------------------------------------------------------------------------------ */

/* A number of an ISO 8601 field (strtod's syntax, |v| <= 1e15), split
** into its integer part and fraction. */
static int dti_iso_number(const char *z, const char **pzEnd, int64_t *pv, double *pf) {
  char *zEnd;
  double v;
  if (!((*z >= '0' && *z <= '9') || *z == '-' || *z == '.')) return DT__E_BAD_FORMAT;
  errno = 0;
  v = strtod(z, &zEnd);
  if (zEnd == z || errno != 0) return DT__E_BAD_FORMAT;
  if (isnan(v) || v < -1.0e15 || v > 1.0e15) return DT__E_FIELD_OVERFLOW;
  *pv = v >= 0 ? (int64_t)floor(v) : (int64_t)-floor(-v);
  *pf = v - (double)*pv;
  *pzEnd = zEnd;
  return 0;
}

/* The digits of an ISO field's integer part (its sign skipped). */
static size_t dti_iso_width(const char *z) {
  if (*z == '-') z++;
  return strspn(z, "0123456789");
}

#define DTI_CHECK(x)                              \
  do {                                            \
    if (!(x)) return DT__E_FIELD_OVERFLOW;        \
  } while (0)
/* "T": the time part starts (n characters on). */
#define DTI_TIME_PART(n) \
  {                      \
    z += (n);            \
    bDate = 0;           \
    bHave = 0;           \
    continue;            \
  }
#define DTI_NUMBER()                                             \
  do {                                                           \
    int rc_ = dti_iso_number(z, &z, &v, &f);                     \
    if (rc_) return rc_;                                         \
  } while (0)

/* PostgreSQL's DecodeISO8601Interval: "P1Y2M3DT4H5M6S", "P1W",
** "P0001-02-03T04:05:06", "P00010203T040506". */
static int dti_iso(const char *z, dti *p) {
  int bDate = 1, bHave = 0;
  memset(p, 0, sizeof(*p));
  if (strlen(z) < 2 || z[0] != 'P') return DT__E_BAD_FORMAT;
  z++;
  while (*z) {
    const char *zStart;
    int64_t v;
    double f;
    char cUnit;
    if (*z == 'T') DTI_TIME_PART(1);
    zStart = z;
    DTI_NUMBER();
    cUnit = *z;
    if (cUnit) z++;
    if (bDate) {
      switch (cUnit) {
        case 'Y':
          DTI_CHECK(dti_years(v, 1, p) && dti_frac_years(f, 1, p));
          break;
        case 'M':
          DTI_CHECK(dti_months(v, p) && dti_frac_days(f, DTI_DAYS_PER_MONTH, p));
          break;
        case 'W':
          DTI_CHECK(dti_days(v, 7, p) && dti_frac_days(f, 7, p));
          break;
        case 'D':
          DTI_CHECK(dti_days(v, 1, p) && dti_frac_usec(f, DT_USECS_PER_DAY, p));
          break;
        case 'T':
        case 0:
          if (dti_iso_width(zStart) == 8 && !bHave) {   /* yyyymmdd */
            DTI_CHECK(dti_years(v / 10000, 1, p) && dti_months((v / 100) % 100, p) &&
                      dti_days(v % 100, 1, p) && dti_frac_usec(f, DT_USECS_PER_DAY, p));
            if (cUnit == 0) return 0;
            DTI_TIME_PART(0);
          }
          /* fall through - yyyy-mm-dd */
        case '-':
          if (bHave) return DT__E_BAD_FORMAT;
          DTI_CHECK(dti_years(v, 1, p) && dti_frac_years(f, 1, p));
          if (cUnit == 0) return 0;
          if (cUnit == 'T') DTI_TIME_PART(0);
          DTI_NUMBER();
          DTI_CHECK(dti_months(v, p) && dti_frac_days(f, DTI_DAYS_PER_MONTH, p));
          if (*z == 0) return 0;
          if (*z == 'T') DTI_TIME_PART(1);
          if (*z != '-') return DT__E_BAD_FORMAT;
          z++;
          DTI_NUMBER();
          DTI_CHECK(dti_days(v, 1, p) && dti_frac_usec(f, DT_USECS_PER_DAY, p));
          if (*z == 0) return 0;
          if (*z == 'T') DTI_TIME_PART(1);
          return DT__E_BAD_FORMAT;
        default:
          return DT__E_BAD_FORMAT;
      }
    } else {
      switch (cUnit) {
        case 'H':
          DTI_CHECK(dti_usec(v, f, DT_USECS_PER_HOUR, p));
          break;
        case 'M':
          DTI_CHECK(dti_usec(v, f, DT_USECS_PER_MINUTE, p));
          break;
        case 'S':
          DTI_CHECK(dti_usec(v, f, DT_USECS_PER_SEC, p));
          break;
        case 0:
          if (dti_iso_width(zStart) == 6 && !bHave) {   /* hhmmss */
            DTI_CHECK(dti_usec(v / 10000, 0, DT_USECS_PER_HOUR, p) &&
                      dti_usec((v / 100) % 100, 0, DT_USECS_PER_MINUTE, p) &&
                      dti_usec(v % 100, 0, DT_USECS_PER_SEC, p) && dti_frac_usec(f, 1, p));
            return 0;
          }
          /* fall through - hh:mm:ss */
        case ':':
          if (bHave) return DT__E_BAD_FORMAT;
          DTI_CHECK(dti_usec(v, f, DT_USECS_PER_HOUR, p));
          if (cUnit == 0) return 0;
          DTI_NUMBER();
          DTI_CHECK(dti_usec(v, f, DT_USECS_PER_MINUTE, p));
          if (*z == 0) return 0;
          if (*z != ':') return DT__E_BAD_FORMAT;
          z++;
          DTI_NUMBER();
          DTI_CHECK(dti_usec(v, f, DT_USECS_PER_SEC, p));
          if (*z == 0) return 0;
          return DT__E_BAD_FORMAT;
        default:
          return DT__E_BAD_FORMAT;
      }
    }
    if (cUnit == 0) break;
    bHave = 1;
  }
  return 0;
}
#undef DTI_CHECK
#undef DTI_NUMBER
#undef DTI_TIME_PART

int dt_interval_parse(const char *z, size_t n, dt_interval *pOut, sql_error *pErr) {
  dt__field aField[DT__FIELDS_MAX];
  dti it;
  int nf = dt__lex(z, n, aField), rc;
  int64_t nMonth;
  rc = nf < 0 ? nf : dti_decode(aField, nf, &it);
  if (rc == DT__E_BAD_FORMAT) {
    char zCopy[256];
    if (n < sizeof(zCopy)) {
      memcpy(zCopy, z, n);
      zCopy[n] = 0;
      rc = dti_iso(zCopy, &it);
    }
  }
  if (rc != 0) {
    dt__parse_error(rc == DT__E_FIELD_OVERFLOW ? DT__E_INTERVAL_OVERFLOW : rc, z, n, "interval",
                    pErr);
    return -1;
  }
  nMonth = (int64_t)it.year * 12 + it.month;
  if (nMonth > INT_MAX || nMonth < INT_MIN) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1, "interval out of range");
    return -1;
  }
  pOut->month = (int32_t)nMonth;
  pOut->day = it.day;
  pOut->time = it.usec;
  return 0;
}

/* ---- fields and text ------------------------------------------------------------------------- */

void dt_interval_to_itm(const dt_interval *a, dt_itm *p) {
  int64_t t = a->time;
  p->year = a->month / 12;
  p->month = a->month % 12;
  p->day = a->day;
  p->hour = t / DT_USECS_PER_HOUR;
  t -= p->hour * DT_USECS_PER_HOUR;
  p->minute = (int)(t / DT_USECS_PER_MINUTE);
  t -= p->minute * DT_USECS_PER_MINUTE;
  p->second = (int)(t / DT_USECS_PER_SEC);
  p->usec = t - p->second * DT_USECS_PER_SEC;
}

int dt_interval_from_itm(const dt_itm *p, dt_interval *pOut) {
  int64_t nMonth = (int64_t)p->year * 12 + p->month, t = p->usec;
  if (nMonth > INT_MAX || nMonth < INT_MIN) return DT_E_INTERVAL_RANGE;
  if (!dti_mul_add(p->hour, DT_USECS_PER_HOUR, &t) ||
      !dti_mul_add(p->minute, DT_USECS_PER_MINUTE, &t) ||
      !dti_mul_add(p->second, DT_USECS_PER_SEC, &t)) {
    return DT_E_INTERVAL_RANGE;
  }
  pOut->month = (int32_t)nMonth;
  pOut->day = p->day;
  pOut->time = t;
  return DT_OK;
}

/* One "n units" part of the postgres style: a sign before a positive
** value that follows a negative one, "s" unless the value is 1. */
static void dti_part(char *z, size_t n, size_t *pi, long long v, const char *zUnit, int *pbZero,
                     int *pbBefore) {
  int k;
  if (v == 0) return;
  k = snprintf(*pi < n ? z + *pi : NULL, *pi < n ? n - *pi : 0, "%s%s%lld %s%s",
               *pbZero ? "" : " ", *pbBefore && v > 0 ? "+" : "", v, zUnit, v != 1 ? "s" : "");
  if (k > 0) *pi += (size_t)k;
  *pbBefore = v < 0;
  *pbZero = 0;
}

int dt_interval_format(const dt_interval *a, char *z, size_t n) {
  dt_itm t;
  size_t i = 0;
  int bZero = 1, bBefore = 0;
  if (n > 0) z[0] = 0;
  dt_interval_to_itm(a, &t);
  dti_part(z, n, &i, t.year, "year", &bZero, &bBefore);
  dti_part(z, n, &i, t.month, "mon", &bZero, &bBefore);
  dti_part(z, n, &i, t.day, "day", &bZero, &bBefore);
  if (bZero || t.hour != 0 || t.minute != 0 || t.second != 0 || t.usec != 0) {
    int bMinus = t.hour < 0 || t.minute < 0 || t.second < 0 || t.usec < 0;
    long long h = t.hour < 0 ? -(long long)t.hour : t.hour;
    int k = snprintf(i < n ? z + i : NULL, i < n ? n - i : 0, "%s%s%02lld:%02d:",
                     bZero ? "" : " ", bMinus ? "-" : bBefore ? "+" : "", h,
                     t.minute < 0 ? -t.minute : t.minute);
    if (k > 0) i += (size_t)k;
    dt__seconds_append(z, n, &i, t.second, (int)t.usec, 1);
  }
  return (int)i;
}

/* ---- arithmetic --------------------------------------------------------------------------------- */

/* r = a + b, or a - b with bSub, each field checked. */
static int dti_addsub(const dt_interval *a, const dt_interval *b, int bSub, dt_interval *r) {
  int64_t m = (int64_t)a->month + (bSub ? -(int64_t)b->month : b->month);
  int64_t d = (int64_t)a->day + (bSub ? -(int64_t)b->day : b->day), t;
  int bOver = bSub ? __builtin_sub_overflow(a->time, b->time, &t)
                   : __builtin_add_overflow(a->time, b->time, &t);
  if (bOver || m > INT32_MAX || m < INT32_MIN || d > INT32_MAX || d < INT32_MIN) {
    return DT_E_INTERVAL_RANGE;
  }
  r->month = (int32_t)m, r->day = (int32_t)d, r->time = t;
  return DT_OK;
}

int dt_interval_add(const dt_interval *a, const dt_interval *b, dt_interval *r) {
  return dti_addsub(a, b, 0, r);
}

int dt_interval_sub(const dt_interval *a, const dt_interval *b, dt_interval *r) {
  return dti_addsub(a, b, 1, r);
}

int dt_interval_neg(const dt_interval *a, dt_interval *r) {
  if (a->month == INT32_MIN || a->day == INT32_MIN || a->time == INT64_MIN) {
    return DT_E_INTERVAL_RANGE;
  }
  r->month = -a->month, r->day = -a->day, r->time = -a->time;
  return DT_OK;
}

/* PostgreSQL's TSROUND: to the microsecond of a second count. */
static double dti_tsround(double v) {
  return rint(v * 1000000.0) / 1000000.0;
}

/* a * f, or a / f when bDiv (interval_mul, interval_div): whole months
** and days multiplied, their fractions cascaded down. */
static int dti_scale(const dt_interval *a, double f, int bDiv, dt_interval *r) {
  double vMonth = bDiv ? a->month / f : a->month * f, vDay = bDiv ? a->day / f : a->day * f;
  double rMonthDays, rSecs, vTime;
  int32_t m, d;
  if (isnan(vMonth) || vMonth > INT_MAX || vMonth < INT_MIN || isnan(vDay) || vDay > INT_MAX ||
      vDay < INT_MIN) {
    return DT_E_INTERVAL_RANGE;
  }
  m = (int32_t)vMonth;
  d = (int32_t)vDay;
  rMonthDays = dti_tsround((vMonth - m) * DTI_DAYS_PER_MONTH);
  rSecs = dti_tsround((vDay - d + rMonthDays - (int)rMonthDays) * DT_SECS_PER_DAY);
  if (fabs(rSecs) >= DT_SECS_PER_DAY) {
    int nExtra = (int)(rSecs / DT_SECS_PER_DAY);
    if (__builtin_add_overflow(d, nExtra, &d)) return DT_E_INTERVAL_RANGE;
    rSecs -= (double)nExtra * DT_SECS_PER_DAY;
  }
  if (__builtin_add_overflow(d, (int32_t)rMonthDays, &d)) return DT_E_INTERVAL_RANGE;
  vTime = rint((bDiv ? (double)a->time / f : (double)a->time * f) + rSecs * DT_USECS_PER_SEC);
  if (isnan(vTime) || vTime >= 9223372036854775808.0 || vTime < -9223372036854775808.0) {
    return DT_E_INTERVAL_RANGE;
  }
  r->month = m;
  r->day = d;
  r->time = (int64_t)vTime;
  return DT_OK;
}

int dt_interval_mul(const dt_interval *a, double f, dt_interval *r) {
  return dti_scale(a, f, 0, r);
}

int dt_interval_div(const dt_interval *a, double f, dt_interval *r) {
  if (f == 0.0) return DT_E_DIV_ZERO;
  return dti_scale(a, f, 1, r);
}

int dt_interval_cmp(const dt_interval *a, const dt_interval *b) {
  /* time + (day + 30 * month) * a day, in 128 bits: it does not fit 64. */
  __int128 va = (__int128)a->time + ((__int128)a->day + (__int128)a->month * 30) * DT_USECS_PER_DAY;
  __int128 vb = (__int128)b->time + ((__int128)b->day + (__int128)b->month * 30) * DT_USECS_PER_DAY;
  return va < vb ? -1 : va > vb;
}

/* Moves the whole days of the time into the days. */
static int dti_time_to_days(dt_interval *t) {
  int64_t nDay = t->time / DT_USECS_PER_DAY;
  t->time -= nDay * DT_USECS_PER_DAY;
  return dti_add32(t->day, nDay, &t->day);
}

/* Moves the whole 30-day months of the days into the months. */
static int dti_days_to_months(dt_interval *t) {
  int nMonth = t->day / DTI_DAYS_PER_MONTH;
  t->day -= nMonth * DTI_DAYS_PER_MONTH;
  return dti_add32(t->month, nMonth, &t->month);
}

/* Gives the time the days' sign (a day borrowed or lent). */
static void dti_time_sign(dt_interval *t) {
  if (t->day > 0 && t->time < 0) {
    t->time += DT_USECS_PER_DAY;
    t->day--;
  } else if (t->day < 0 && t->time > 0) {
    t->time -= DT_USECS_PER_DAY;
    t->day++;
  }
}

/* Gives the days the months' sign; with bTime, zero days follow the
** time's sign. */
static void dti_day_sign(dt_interval *t, int bTime) {
  if (t->month > 0 && (t->day < 0 || (bTime && t->day == 0 && t->time < 0))) {
    t->day += DTI_DAYS_PER_MONTH;
    t->month--;
  } else if (t->month < 0 && (t->day > 0 || (bTime && t->day == 0 && t->time > 0))) {
    t->day -= DTI_DAYS_PER_MONTH;
    t->month++;
  }
}

int dt_interval_justify_hours(const dt_interval *a, dt_interval *r) {
  dt_interval t = *a;
  if (!dti_time_to_days(&t)) return DT_E_INTERVAL_RANGE;
  dti_time_sign(&t);
  *r = t;
  return DT_OK;
}

int dt_interval_justify_days(const dt_interval *a, dt_interval *r) {
  dt_interval t = *a;
  if (!dti_days_to_months(&t)) return DT_E_INTERVAL_RANGE;
  dti_day_sign(&t, 0);
  *r = t;
  return DT_OK;
}

int dt_interval_justify_interval(const dt_interval *a, dt_interval *r) {
  dt_interval t = *a;
  /* Days first when they and the time agree in sign: the time's days
  ** could otherwise overflow them. */
  if ((t.day > 0 && t.time > 0) || (t.day < 0 && t.time < 0)) {
    if (!dti_days_to_months(&t)) return DT_E_INTERVAL_RANGE;
  }
  if (!dti_time_to_days(&t) || !dti_days_to_months(&t)) return DT_E_INTERVAL_RANGE;
  dti_day_sign(&t, 1);
  dti_time_sign(&t);
  *r = t;
  return DT_OK;
}
