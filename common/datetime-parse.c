/*
** common/datetime-parse.c — date, timestamp, timestamptz and time text
** in, as PostgreSQL 15's date_in, timestamp_in, timestamptz_in and
** time_in read it (datetime.h).
**
** Two steps, as PostgreSQL does them. The lexer (dt__lex, shared with
** intervals) cuts the text into typed fields: numbers, words, dates with
** separators, times with colons, signed offsets. The decoder then gives
** each field a meaning from what it looks like and from what the fields
** before it were: "1/8/1999" is January 8 in DateStyle MDY, a number of 6
** or more digits is yyyymmdd or hhmmss, "t" announces a time, a word is a
** month, a weekday, AM/PM, BC/AD, a zone abbreviation, a special ("now",
** "epoch"), or else a zone name. A field that would set something already
** set is a syntax error. Only then is the date checked (day in month,
** year 0), two-digit years moved to 1970-2069, and a missing zone taken
** from the session at that date (so DST applies).
**
** Not supported (PostgreSQL accepts them, starq says 22007): zone
** abbreviations PostgreSQL defines through a zone ("MSK"; the fixed ones
** such as "EST" work), and ISO labelled fields other than j/t ("y2001m02").
**
** The lexer and the parse errors are datetime-lex.c's.
**
** INTERFACE ROUTINES
**   dt_date_parse, dt_timestamp_parse, dt_timestamptz_parse, dt_time_parse
**   dt__word_is_keyword
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datetimeInt.h"
#include "tz.h"

static int dtp_is_digit(char c) {
  return c >= '0' && c <= '9';
}

static int dtp_is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* ---- words ------------------------------------------------------------------------ */

/* What a word means (PostgreSQL's token types). */
enum {
  DTP_W_RESERV, DTP_W_MONTH, DTP_W_IGNORE, DTP_W_AMPM, DTP_W_ADBC, DTP_W_DOW,
  DTP_W_UNITS, DTP_W_ISOTIME, DTP_W_DTZMOD, DTP_W_UNKNOWN,
};
/* RESERV values. */
enum { DTP_NOW, DTP_TODAY, DTP_TOMORROW, DTP_YESTERDAY, DTP_ZULU, DTP_EPOCH, DTP_LATE, DTP_EARLY };
/* UNITS values: the ISO labels. */
enum { DTP_U_JULIAN = 1, DTP_U_TIME, DTP_U_OTHER };
enum { DTP_AM = 0, DTP_PM = 1, DTP_HR24 = 2 };

static const struct dtp_word {
  const char *z;
  int eType, iVal;
} dtp_aWord[] = {
    {"-infinity", DTP_W_RESERV, DTP_EARLY}, {"ad", DTP_W_ADBC, 0},
    {"allballs", DTP_W_RESERV, DTP_ZULU}, {"am", DTP_W_AMPM, DTP_AM},
    {"apr", DTP_W_MONTH, 4}, {"april", DTP_W_MONTH, 4}, {"at", DTP_W_IGNORE, 0},
    {"aug", DTP_W_MONTH, 8}, {"august", DTP_W_MONTH, 8}, {"bc", DTP_W_ADBC, 1},
    {"d", DTP_W_UNITS, DTP_U_OTHER}, {"dec", DTP_W_MONTH, 12}, {"december", DTP_W_MONTH, 12},
    {"dow", DTP_W_UNITS, DTP_U_OTHER}, {"doy", DTP_W_UNITS, DTP_U_OTHER},
    {"dst", DTP_W_DTZMOD, 3600}, {"epoch", DTP_W_RESERV, DTP_EPOCH}, {"feb", DTP_W_MONTH, 2},
    {"february", DTP_W_MONTH, 2}, {"fri", DTP_W_DOW, 5}, {"friday", DTP_W_DOW, 5},
    {"h", DTP_W_UNITS, DTP_U_OTHER}, {"infinity", DTP_W_RESERV, DTP_LATE},
    {"isodow", DTP_W_UNITS, DTP_U_OTHER}, {"isoyear", DTP_W_UNITS, DTP_U_OTHER},
    {"j", DTP_W_UNITS, DTP_U_JULIAN}, {"jan", DTP_W_MONTH, 1}, {"january", DTP_W_MONTH, 1},
    {"jd", DTP_W_UNITS, DTP_U_JULIAN}, {"jul", DTP_W_MONTH, 7},
    {"julian", DTP_W_UNITS, DTP_U_JULIAN}, {"july", DTP_W_MONTH, 7}, {"jun", DTP_W_MONTH, 6},
    {"june", DTP_W_MONTH, 6}, {"m", DTP_W_UNITS, DTP_U_OTHER}, {"mar", DTP_W_MONTH, 3},
    {"march", DTP_W_MONTH, 3}, {"may", DTP_W_MONTH, 5}, {"mm", DTP_W_UNITS, DTP_U_OTHER},
    {"mon", DTP_W_DOW, 1}, {"monday", DTP_W_DOW, 1}, {"nov", DTP_W_MONTH, 11},
    {"november", DTP_W_MONTH, 11}, {"now", DTP_W_RESERV, DTP_NOW}, {"oct", DTP_W_MONTH, 10},
    {"october", DTP_W_MONTH, 10}, {"on", DTP_W_IGNORE, 0}, {"pm", DTP_W_AMPM, DTP_PM},
    {"s", DTP_W_UNITS, DTP_U_OTHER}, {"sat", DTP_W_DOW, 6}, {"saturday", DTP_W_DOW, 6},
    {"sep", DTP_W_MONTH, 9}, {"sept", DTP_W_MONTH, 9}, {"september", DTP_W_MONTH, 9},
    {"sun", DTP_W_DOW, 0}, {"sunday", DTP_W_DOW, 0}, {"t", DTP_W_ISOTIME, DTP_U_TIME},
    {"thu", DTP_W_DOW, 4}, {"thur", DTP_W_DOW, 4}, {"thurs", DTP_W_DOW, 4},
    {"thursday", DTP_W_DOW, 4}, {"today", DTP_W_RESERV, DTP_TODAY},
    {"tomorrow", DTP_W_RESERV, DTP_TOMORROW}, {"tue", DTP_W_DOW, 2}, {"tues", DTP_W_DOW, 2},
    {"tuesday", DTP_W_DOW, 2}, {"wed", DTP_W_DOW, 3}, {"wednesday", DTP_W_DOW, 3},
    {"weds", DTP_W_DOW, 3}, {"y", DTP_W_UNITS, DTP_U_OTHER},
    {"yesterday", DTP_W_RESERV, DTP_YESTERDAY},
};

/* Looks a word up (PostgreSQL compares the first 10 characters). */
static const struct dtp_word *dtp_word_find(const char *zLower) {
  for (size_t i = 0; i < sizeof(dtp_aWord) / sizeof(dtp_aWord[0]); i++) {
    if (strncmp(zLower, dtp_aWord[i].z, 10) == 0) return &dtp_aWord[i];
  }
  return NULL;
}

int dt__word_is_keyword(const char *zLower) {
  return dtp_word_find(zLower) != NULL;
}

/* ---- the decoder ------------------------------------------------------------------ */

/* Field masks (PostgreSQL's DTK_M bits). */
#define M_YEAR (1 << 0)
#define M_MONTH (1 << 1)
#define M_DAY (1 << 2)
#define M_TZ (1 << 3)
#define M_DTZ (1 << 4)
#define M_AMPM (1 << 5)
#define M_HOUR (1 << 6)
#define M_MINUTE (1 << 7)
#define M_SECOND (1 << 8)
#define M_MILLI (1 << 9)
#define M_MICRO (1 << 10)
#define M_DOY (1 << 11)
#define M_DOW (1 << 12)
#define M_ADBC (1 << 13)
#define M_DTZMOD (1 << 14)
#define M_RESERV (1 << 15)
#define M_DATE (M_YEAR | M_MONTH | M_DAY)
#define M_TIME (M_HOUR | M_MINUTE | M_SECOND | M_MILLI | M_MICRO)

/* What the decoder has found so far. */
typedef struct dtp dtp;
struct dtp {
  const dt_session *pS;
  dt_tm tm;
  int64_t usec;            /* fraction of the second */
  int fmask;
  int ptype;               /* the ISO label before this field (DTP_U_*), or 0 */
  int bTextMonth, bJulian, b2Digits, bBC, eMer, iYday;
  int bHaveTz, gmtoff;     /* an explicit offset (seconds east) */
  const tz_zone *pNamedTz; /* a zone by name, resolved at the end */
  int eSpecial;            /* -1, or DTP_EPOCH / DTP_LATE / DTP_EARLY */
  char zBadTz[DT__FIELD_LEN]; /* a zone name not found */
};

/* PostgreSQL's DecodeNumberField: a number of run-together fields,
** yyyymmdd, yymmdd, hhmmss, hhmm, with a fraction of a second. Returns 0
** or an error; sets *pTmask. */
static int dtp_number_field(dtp *d, char *z, int fmask, int *pTmask) {
  char *zDot = strchr(z, '.');
  size_t n;
  if (zDot != NULL) {
    if (zDot[1] == 0) {
      d->usec = 0;
    } else {
      double f;
      errno = 0;
      f = strtod(zDot, NULL);
      if (errno != 0) return DT__E_BAD_FORMAT;
      d->usec = (int64_t)rint(f * 1000000);
    }
    *zDot = 0;
  } else if ((fmask & M_DATE) != M_DATE && strlen(z) >= 6) {
    n = strlen(z);
    *pTmask = M_DATE;
    d->tm.day = atoi(z + n - 2);
    z[n - 2] = 0;
    d->tm.month = atoi(z + n - 4);
    z[n - 4] = 0;
    d->tm.year = atoi(z);
    if (n - 4 == 2) d->b2Digits = 1;
    return 0;
  }
  n = strlen(z);
  if ((fmask & M_TIME) != M_TIME) {
    if (n == 6) {
      *pTmask = M_TIME;
      d->tm.second = atoi(z + 4);
      z[4] = 0;
      d->tm.minute = atoi(z + 2);
      z[2] = 0;
      d->tm.hour = atoi(z);
      return 0;
    }
    if (n == 4) {
      *pTmask = M_TIME;
      d->tm.second = 0;
      d->tm.minute = atoi(z + 2);
      z[2] = 0;
      d->tm.hour = atoi(z);
      return 0;
    }
  }
  return DT__E_BAD_FORMAT;
}

/* PostgreSQL's DecodeNumber: one number whose meaning depends on what is
** set already and on DateStyle. */
static int dtp_number(dtp *d, char *z, int fmask, int *pTmask) {
  int v, bRange;
  size_t n = strlen(z);
  const char *p = dt__strtoint(z, &v, &bRange);
  *pTmask = 0;
  if (p == NULL) return DT__E_BAD_FORMAT;
  if (bRange) return DT__E_FIELD_OVERFLOW;
  if (*p == '.') {
    if (p - z > 2) return dtp_number_field(d, z, fmask | M_DATE, pTmask);
    if (dt__fraction(p, &d->usec) != 0) return DT__E_BAD_FORMAT;
  } else if (*p != 0) {
    return DT__E_BAD_FORMAT;
  }
  if (n == 3 && (fmask & M_DATE) == M_YEAR && v >= 1 && v <= 366) {
    *pTmask = M_DOY | M_MONTH | M_DAY;       /* yyyy.ddd: day of year */
    d->iYday = v;
    return 0;
  }
  switch (fmask & M_DATE) {
    case 0:
      if (n >= 3 || d->pS->eOrder == DT_ORDER_YMD) {
        *pTmask = M_YEAR;
        d->tm.year = v;
      } else if (d->pS->eOrder == DT_ORDER_DMY) {
        *pTmask = M_DAY;
        d->tm.day = v;
      } else {
        *pTmask = M_MONTH;
        d->tm.month = v;
      }
      break;
    case M_YEAR:
      *pTmask = M_MONTH;
      d->tm.month = v;
      break;
    case M_MONTH:
      if (d->bTextMonth) {
        if (n >= 3 || d->pS->eOrder == DT_ORDER_YMD) {
          *pTmask = M_YEAR;
          d->tm.year = v;
        } else {
          *pTmask = M_DAY;
          d->tm.day = v;
        }
      } else {
        *pTmask = M_DAY;
        d->tm.day = v;
      }
      break;
    case M_YEAR | M_MONTH:
      if (d->bTextMonth && n >= 3 && d->b2Digits) {
        *pTmask = M_DAY;                     /* dd-mon-yyyy even in YMD */
        d->tm.day = d->tm.year;
        d->tm.year = v;
        d->b2Digits = 0;
      } else {
        *pTmask = M_DAY;
        d->tm.day = v;
      }
      break;
    case M_DAY:
      *pTmask = M_MONTH;
      d->tm.month = v;
      break;
    case M_MONTH | M_DAY:
      *pTmask = M_YEAR;
      d->tm.year = v;
      break;
    case M_DATE:
      return dtp_number_field(d, z, fmask, pTmask);
    default:
      return DT__E_BAD_FORMAT;
  }
  if (*pTmask == M_YEAR) d->b2Digits = n <= 2;
  return 0;
}

/* PostgreSQL's DecodeDate: a field with separators ("1998-01-01",
** "1-jan-1998", "1998/1/1"): month names first, then the numbers. */
static int dtp_date(dtp *d, char *z, int fmask, int *pTmask) {
  char *azPart[DT__FIELDS_MAX];
  int nPart = 0;
  *pTmask = 0;
  while (*z && nPart < DT__FIELDS_MAX) {
    while (*z && !dtp_is_digit(*z) && !dtp_is_alpha(*z)) z++;
    if (*z == 0) return DT__E_BAD_FORMAT;
    azPart[nPart++] = z;
    if (dtp_is_digit(*z)) {
      while (dtp_is_digit(*z)) z++;
    } else {
      while (dtp_is_alpha(*z)) z++;
    }
    if (*z) *z++ = 0;
  }
  for (int i = 0; i < nPart; i++) {
    const struct dtp_word *w;
    if (!dtp_is_alpha(azPart[i][0])) continue;
    w = dtp_word_find(azPart[i]);
    if (w != NULL && w->eType == DTP_W_IGNORE) {
      azPart[i] = NULL;
      continue;
    }
    if (w == NULL || w->eType != DTP_W_MONTH || (fmask & M_MONTH)) return DT__E_BAD_FORMAT;
    d->tm.month = w->iVal;
    d->bTextMonth = 1;
    fmask |= M_MONTH;
    *pTmask |= M_MONTH;
    azPart[i] = NULL;
  }
  for (int i = 0; i < nPart; i++) {
    int dmask, rc;
    if (azPart[i] == NULL) continue;
    rc = dtp_number(d, azPart[i], fmask, &dmask);
    if (rc) return rc;
    if (fmask & dmask) return DT__E_BAD_FORMAT;
    fmask |= dmask;
    *pTmask |= dmask;
  }
  if ((fmask & ~(M_DOY | M_TZ)) != M_DATE) return DT__E_BAD_FORMAT;
  return 0;
}

/* PostgreSQL's DecodeTime: hh:mm[:ss[.f]], or mm:ss.f. */
static int dtp_time(dtp *d, const char *z, int *pTmask) {
  int bRange;
  const char *p;
  *pTmask = M_TIME;
  p = dt__strtoint(z, &d->tm.hour, &bRange);
  if (p == NULL) return DT__E_BAD_FORMAT;
  if (bRange) return DT__E_FIELD_OVERFLOW;
  if (*p != ':') return DT__E_BAD_FORMAT;
  p = dt__strtoint(p + 1, &d->tm.minute, &bRange);
  if (p == NULL) return DT__E_BAD_FORMAT;
  if (bRange) return DT__E_FIELD_OVERFLOW;
  if (*p == 0) {
    d->tm.second = 0;
    d->usec = 0;
  } else if (*p == '.') {
    if (dt__fraction(p, &d->usec) != 0) return DT__E_BAD_FORMAT;
    d->tm.second = d->tm.minute;
    d->tm.minute = d->tm.hour;
    d->tm.hour = 0;
  } else if (*p == ':') {
    p = dt__strtoint(p + 1, &d->tm.second, &bRange);
    if (p == NULL) return DT__E_BAD_FORMAT;
    if (bRange) return DT__E_FIELD_OVERFLOW;
    if (*p == '.') {
      if (dt__fraction(p, &d->usec) != 0) return DT__E_BAD_FORMAT;
    } else if (*p != 0) {
      return DT__E_BAD_FORMAT;
    }
  } else {
    return DT__E_BAD_FORMAT;
  }
  if (d->tm.hour < 0 || d->tm.minute < 0 || d->tm.minute > 59 || d->tm.second < 0 ||
      d->tm.second > 60 || d->usec < 0 || d->usec > DT_USECS_PER_SEC) {
    return DT__E_FIELD_OVERFLOW;
  }
  return 0;
}

/* Whether h:m:s.f is past 24:00:00 (PostgreSQL's time_overflows). */
static int dtp_time_overflows(const dtp *d) {
  const dt_tm *t = &d->tm;
  if (t->hour < 0 || t->minute < 0 || t->minute > 59 || t->second < 0 || t->second > 60 ||
      d->usec < 0 || d->usec > DT_USECS_PER_SEC) {
    return 1;
  }
  return (((int64_t)t->hour * 60 + t->minute) * 60 + t->second) * DT_USECS_PER_SEC + d->usec >
         DT_USECS_PER_DAY;
}

/* Sets the date fields to "now"'s in the session's zone, shifted by
** nDays; with bTime the time and offset too. */
static void dtp_now(dtp *d, int nDays, int bTime) {
  dt_tm now;
  dt_timestamptz_to_tm(d->pS->tNow, d->pS->pZone, &now);
  if (bTime) {
    d->tm = now;
    d->usec = now.usec;
    d->bHaveTz = 1;
    d->gmtoff = now.gmtoff;
  } else {
    dt_j2date(dt_date2j(now.year, now.month, now.day) + nDays, &d->tm.year, &d->tm.month,
              &d->tm.day);
  }
}

/* A word: zone abbreviation, keyword, or zone name. */
static int dtp_word(dtp *d, const dt__field *f, const dt__field *pNext, int *pTmask) {
  const struct dtp_word *w;
  int gmtoff, isdst;
  if (tz_abbrev_lookup(f->z, &gmtoff, &isdst)) {
    *pTmask = isdst ? M_DTZ | M_TZ : M_TZ;
    d->tm.isdst = isdst;
    d->bHaveTz = 1;
    d->gmtoff = gmtoff;
    return 0;
  }
  w = dtp_word_find(f->z);
  if (w == NULL) {
    sql_error e;
    sql_error_clear(&e);
    if (tz_zone_find(f->z, &d->pNamedTz, &e) != 0) return DT__E_BAD_FORMAT;
    *pTmask = M_TZ;
    return 0;
  }
  switch (w->eType) {
    case DTP_W_IGNORE:
      *pTmask = 0;
      return 0;
    case DTP_W_RESERV:
      *pTmask = M_DATE | M_TIME | M_TZ;
      switch (w->iVal) {
        case DTP_NOW:
          dtp_now(d, 0, 1);
          break;
        case DTP_TODAY:
        case DTP_TOMORROW:
        case DTP_YESTERDAY:
          *pTmask = M_DATE;
          dtp_now(d, w->iVal == DTP_TODAY ? 0 : w->iVal == DTP_TOMORROW ? 1 : -1, 0);
          break;
        case DTP_ZULU:
          *pTmask = M_TIME | M_TZ;
          d->tm.hour = d->tm.minute = d->tm.second = 0;
          d->bHaveTz = 1;
          d->gmtoff = 0;
          break;
        default:
          d->eSpecial = w->iVal;
          break;
      }
      return 0;
    case DTP_W_MONTH:
      *pTmask = M_MONTH;
      if ((d->fmask & M_MONTH) && !d->bTextMonth && !(d->fmask & M_DAY) && d->tm.month >= 1 &&
          d->tm.month <= 31) {
        d->tm.day = d->tm.month;            /* "1 jan": the number was the day */
        *pTmask = M_DAY;
      }
      d->bTextMonth = 1;
      d->tm.month = w->iVal;
      return 0;
    case DTP_W_DTZMOD:
      *pTmask = M_DTZMOD | M_DTZ;
      d->tm.isdst = 1;
      d->gmtoff += w->iVal;
      return 0;
    case DTP_W_AMPM:
      *pTmask = M_AMPM;
      d->eMer = w->iVal;
      return 0;
    case DTP_W_ADBC:
      *pTmask = M_ADBC;
      d->bBC = w->iVal;
      return 0;
    case DTP_W_DOW:
      *pTmask = M_DOW;
      return 0;
    case DTP_W_UNITS:
      *pTmask = 0;
      if (d->ptype != 0) return DT__E_BAD_FORMAT;
      d->ptype = w->iVal;
      return 0;
    case DTP_W_ISOTIME:
      *pTmask = 0;
      if ((d->fmask & M_DATE) != M_DATE || pNext == NULL ||
          (pNext->eKind != DT__F_NUMBER && pNext->eKind != DT__F_TIME &&
           pNext->eKind != DT__F_DATE)) {
        return DT__E_BAD_FORMAT;
      }
      d->ptype = DTP_U_TIME;
      return 0;
    default:
      return DT__E_BAD_FORMAT;
  }
}

/* A number after an ISO label: "j2451545", or "t" then hhmmss. */
static int dtp_labelled(dtp *d, dt__field *f, int *pTmask) {
  int v, bRange;
  const char *p = dt__strtoint(f->z, &v, &bRange);
  if (p == NULL) return DT__E_BAD_FORMAT;
  if (bRange) return DT__E_FIELD_OVERFLOW;
  if (*p != 0 && !(*p == '.' && (d->ptype == DTP_U_JULIAN || d->ptype == DTP_U_TIME))) {
    return DT__E_BAD_FORMAT;
  }
  if (d->ptype == DTP_U_JULIAN) {
    if (v < 0) return DT__E_FIELD_OVERFLOW;
    *pTmask = M_DATE;
    dt_j2date(v, &d->tm.year, &d->tm.month, &d->tm.day);
    d->bJulian = 1;
    if (*p == '.') {
      char *zEnd;
      double t;
      int64_t us;
      errno = 0;
      t = strtod(p, &zEnd);
      if (*zEnd != 0 || errno != 0) return DT__E_BAD_FORMAT;
      us = (int64_t)(t * (double)DT_USECS_PER_DAY);
      d->tm.hour = (int)(us / DT_USECS_PER_HOUR);
      d->tm.minute = (int)(us / DT_USECS_PER_MINUTE % 60);
      d->tm.second = (int)(us / DT_USECS_PER_SEC % 60);
      d->usec = us % DT_USECS_PER_SEC;
      *pTmask |= M_TIME;
    }
  } else if (d->ptype == DTP_U_TIME) {
    int rc = dtp_number_field(d, f->z, d->fmask | M_DATE, pTmask);
    if (rc) return rc;
    if (*pTmask != M_TIME) return DT__E_BAD_FORMAT;
  } else {
    return DT__E_BAD_FORMAT;               /* y2001m02d04: not supported */
  }
  d->ptype = 0;
  return 0;
}

/* One field of DecodeDateTime. */
static int dtp_field(dtp *d, dt__field *aField, int i, int nf, int *pTmask) {
  dt__field *f = &aField[i];
  int rc;
  *pTmask = 0;
  switch (f->eKind) {
    case DT__F_DATE:
      if (d->ptype == DTP_U_JULIAN) return DT__E_BAD_FORMAT;
      /* With a month and a day already, a zone name ("America/New_York")
      ** or hhmmss-zz: PostgreSQL's "mmm dd hhmmss tz year". */
      if ((d->fmask & (M_MONTH | M_DAY)) == (M_MONTH | M_DAY) || d->ptype != 0) {
        if (dtp_is_digit(f->z[0]) || d->ptype != 0) {
          /* hhmmss-zz after a complete date */
          char *zDash;
          if (d->ptype != 0 && d->ptype != DTP_U_TIME) return DT__E_BAD_FORMAT;
          d->ptype = 0;
          if ((d->fmask & M_TIME) == M_TIME) return DT__E_BAD_FORMAT;
          if ((zDash = strchr(f->z, '-')) == NULL) return DT__E_BAD_FORMAT;
          if ((rc = dt__offset_parse(zDash, &d->gmtoff)) != 0) return rc;
          d->bHaveTz = 1;
          *zDash = 0;
          if ((rc = dtp_number_field(d, f->z, d->fmask, pTmask)) != 0) return rc;
          *pTmask |= M_TZ;
        } else {
          sql_error e;
          sql_error_clear(&e);
          if (tz_zone_find(f->z, &d->pNamedTz, &e) != 0) {
            snprintf(d->zBadTz, sizeof(d->zBadTz), "%s", f->z);
            return DT__E_BAD_FORMAT;
          }
          *pTmask = M_TZ;
        }
        return 0;
      }
      return dtp_date(d, f->z, d->fmask, pTmask);
    case DT__F_TIME:
      if (d->ptype != 0) {
        if (d->ptype != DTP_U_TIME) return DT__E_BAD_FORMAT;
        d->ptype = 0;
      }
      if ((rc = dtp_time(d, f->z, pTmask)) != 0) return rc;
      if (dtp_time_overflows(d)) return DT__E_FIELD_OVERFLOW;
      return 0;
    case DT__F_TZ:
      if ((rc = dt__offset_parse(f->z, &d->gmtoff)) != 0) return rc;
      d->bHaveTz = 1;
      *pTmask = M_TZ;
      return 0;
    case DT__F_NUMBER: {
      char *zDot;
      size_t n = strlen(f->z);
      if (d->ptype != 0) return dtp_labelled(d, f, pTmask);
      zDot = strchr(f->z, '.');
      if (zDot != NULL && !(d->fmask & M_DATE)) return dtp_date(d, f->z, d->fmask, pTmask);
      if (zDot != NULL && (size_t)(zDot - f->z) > 2) {
        return dtp_number_field(d, f->z, d->fmask, pTmask);
      }
      if (n >= 6 && (!(d->fmask & M_DATE) || !(d->fmask & M_TIME))) {
        return dtp_number_field(d, f->z, d->fmask, pTmask);
      }
      return dtp_number(d, f->z, d->fmask, pTmask);
    }
    case DT__F_STRING:
    case DT__F_SPECIAL:
      return dtp_word(d, f, i + 1 < nf ? &aField[i + 1] : NULL, pTmask);
  }
  return DT__E_BAD_FORMAT;
}

/* PostgreSQL's ValidateDate: year 0, BC, two-digit years, day of year,
** month and day ranges. */
static int dtp_validate(dtp *d) {
  dt_tm *t = &d->tm;
  if (!(d->fmask & M_DATE)) return 0;
  if (d->bJulian) {
    /* the year is right as it is */
  } else if (d->bBC) {
    if (t->year <= 0) return DT__E_FIELD_OVERFLOW;
    t->year = -(t->year - 1);
  } else if (d->b2Digits) {
    if (t->year < 0) return DT__E_FIELD_OVERFLOW;
    if (t->year < 70) t->year += 2000;
    else if (t->year < 100) t->year += 1900;
  } else if (t->year <= 0) {
    return DT__E_FIELD_OVERFLOW;
  }
  if (d->fmask & M_DOY) dt_j2date(dt_date2j(t->year, 1, 1) + d->iYday - 1, &t->year, &t->month, &t->day);
  if ((d->fmask & M_MONTH) && (t->month < 1 || t->month > 12)) return DT__E_MD_FIELD_OVERFLOW;
  if ((d->fmask & M_DAY) && (t->day < 1 || t->day > 31)) return DT__E_MD_FIELD_OVERFLOW;
  if ((d->fmask & M_DATE) == M_DATE && t->day > dt_days_in_month(t->year, t->month)) {
    return DT__E_FIELD_OVERFLOW;
  }
  return 0;
}

/* PostgreSQL's DecodeDateTime over the fields of z. Returns 0 with d
** filled, 1 if there was only a time, or an error. */
static int dtp_decode(const char *z, size_t n, const dt_session *pS, int bWantTz, dtp *d) {
  dt__field aField[DT__FIELDS_MAX];
  int nf = dt__lex(z, n, aField), rc;
  memset(d, 0, sizeof(*d));
  d->pS = pS;
  d->eMer = DTP_HR24;
  d->eSpecial = -1;
  if (nf < 0) return nf;
  for (int i = 0; i < nf; i++) {
    int tmask;
    if ((rc = dtp_field(d, aField, i, nf, &tmask)) != 0) return rc;
    if (tmask & d->fmask) return DT__E_BAD_FORMAT;
    d->fmask |= tmask;
  }
  if (d->ptype != 0) return DT__E_BAD_FORMAT;
  if (d->eSpecial >= 0) return 0;          /* the fields do not matter */
  if ((rc = dtp_validate(d)) != 0) return rc;
  if (d->eMer != DTP_HR24 && d->tm.hour > 12) return DT__E_FIELD_OVERFLOW;
  if (d->eMer == DTP_AM && d->tm.hour == 12) d->tm.hour = 0;
  else if (d->eMer == DTP_PM && d->tm.hour != 12) d->tm.hour += 12;
  if ((d->fmask & M_DATE) != M_DATE) return (d->fmask & M_TIME) == M_TIME ? 1 : DT__E_BAD_FORMAT;
  d->tm.usec = (int)d->usec;
  if (d->pNamedTz != NULL) {
    if (d->fmask & M_DTZMOD) return DT__E_BAD_FORMAT;
    dt_timestamptz_from_tm(&d->tm, d->pNamedTz, &(int64_t){0});
    d->gmtoff = d->tm.gmtoff;
    d->bHaveTz = 1;
  } else if (!(d->fmask & M_TZ)) {
    if (d->fmask & M_DTZMOD) return DT__E_BAD_FORMAT;
    if (bWantTz) {
      dt_timestamptz_from_tm(&d->tm, pS->pZone, &(int64_t){0});
      d->gmtoff = d->tm.gmtoff;
    }
  }
  return 0;
}

/* Decodes and reports errors; returns 0 or -1. */
static int dtp_parse(const char *z, size_t n, const dt_session *pS, int bWantTz,
                     const char *zType, dtp *d, sql_error *pErr) {
  int rc = dtp_decode(z, n, pS, bWantTz, d);
  if (rc == 0) return 0;
  if (d->zBadTz[0]) {
    sql_error_set(pErr, SQLSTATE_INVALID_PARAMETER, -1, "time zone \"%s\" not recognized",
                  d->zBadTz);
  } else {
    dt__parse_error(rc, z, n, zType, pErr);
  }
  return -1;
}

/* Fields plus microseconds to a timestamp, minus gmtoff; the instant
** must be in range (PostgreSQL's tm2timestamp). */
static int dtp_to_timestamp(const dtp *d, int gmtoff, int64_t *pTs) {
  const dt_tm *t = &d->tm;
  if (!dt__julian_ok(t->year, t->month)) return -1;
  return dt__ts_compose(dt_date2j(t->year, t->month, t->day),
                        (((int64_t)t->hour * 60 + t->minute) * 60 + t->second) *
                                DT_USECS_PER_SEC + d->usec,
                        gmtoff, pTs);
}

static int dtp_timestamp_common(const char *z, size_t n, const dt_session *pS, int bTz,
                                int64_t *pTs, sql_error *pErr) {
  dtp d;
  if (dtp_parse(z, n, pS, bTz, bTz ? "timestamp with time zone" : "timestamp", &d, pErr) != 0) {
    return -1;
  }
  switch (d.eSpecial) {
    case DTP_EPOCH:
      *pTs = -(int64_t)(DT_EPOCH_JD - DT_UNIX_EPOCH_JD) * DT_USECS_PER_DAY;
      return 0;
    case DTP_LATE:
      *pTs = DT_TS_NOEND;
      return 0;
    case DTP_EARLY:
      *pTs = DT_TS_NOBEGIN;
      return 0;
  }
  if (dtp_to_timestamp(&d, bTz ? d.gmtoff : 0, pTs) != 0) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1, "timestamp out of range: \"%.*s\"",
                  (int)n, z);
    return -1;
  }
  return 0;
}

int dt_timestamp_parse(const char *z, size_t n, const dt_session *pS, int64_t *pTs,
                       sql_error *pErr) {
  return dtp_timestamp_common(z, n, pS, 0, pTs, pErr);
}

int dt_timestamptz_parse(const char *z, size_t n, const dt_session *pS, int64_t *pTs,
                         sql_error *pErr) {
  return dtp_timestamp_common(z, n, pS, 1, pTs, pErr);
}

int dt_date_parse(const char *z, size_t n, const dt_session *pS, int32_t *pDate,
                  sql_error *pErr) {
  dtp d;
  int64_t jd;
  if (dtp_parse(z, n, pS, 1, "date", &d, pErr) != 0) return -1;
  switch (d.eSpecial) {
    case DTP_EPOCH:
      d.tm.year = 1970, d.tm.month = 1, d.tm.day = 1;
      break;
    case DTP_LATE:
      *pDate = DT_DATE_NOEND;
      return 0;
    case DTP_EARLY:
      *pDate = DT_DATE_NOBEGIN;
      return 0;
  }
  if (!dt__julian_ok(d.tm.year, d.tm.month)) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1, "date out of range: \"%.*s\"", (int)n, z);
    return -1;
  }
  jd = dt_date2j(d.tm.year, d.tm.month, d.tm.day);
  if (!dt_jd_valid(jd, 0)) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1, "date out of range: \"%.*s\"", (int)n, z);
    return -1;
  }
  *pDate = (int32_t)(jd - DT_EPOCH_JD);
  return 0;
}

/* time_in's run-together forms ("040506", "T0405", "040506.5"): hhmm or
** hhmmss, an optional fraction. Returns 1 with *pTime, 0 if z is not one,
** -1 if it is one out of range. */
static int dtp_time_digits(const char *z, size_t n, int64_t *pTime) {
  size_t nDigit = 0, i = 0;
  int64_t us = 0;
  int h, m, sec = 0;
  while (n > 0 && (z[n - 1] == ' ' || z[n - 1] == '\t')) n--;
  while (i < n && (z[i] == ' ' || z[i] == '\t')) i++;
  if (i < n && (z[i] == 'T' || z[i] == 't')) i++;
  z += i;
  n -= i;
  while (nDigit < n && dtp_is_digit(z[nDigit])) nDigit++;
  if ((nDigit != 4 && nDigit != 6) || (nDigit < n && z[nDigit] != '.')) return 0;
  if (nDigit < n) {
    char zFrac[32];
    if (n - nDigit >= sizeof(zFrac)) return 0;
    for (size_t k = nDigit + 1; k < n; k++) {
      if (!dtp_is_digit(z[k])) return 0;
    }
    memcpy(zFrac, z + nDigit, n - nDigit);
    zFrac[n - nDigit] = 0;
    if (dt__fraction(zFrac, &us) != 0) return 0;
  }
  h = (z[0] - '0') * 10 + (z[1] - '0');
  m = (z[2] - '0') * 10 + (z[3] - '0');
  if (nDigit == 6) sec = (z[4] - '0') * 10 + (z[5] - '0');
  if (m > 59 || sec > 60 ||
      (((int64_t)h * 60 + m) * 60 + sec) * DT_USECS_PER_SEC + us > DT_USECS_PER_DAY) {
    return -1;
  }
  *pTime = (((int64_t)h * 60 + m) * 60 + sec) * DT_USECS_PER_SEC + us;
  return 1;
}

int dt_time_parse(const char *z, size_t n, const dt_session *pS, int64_t *pTime,
                  sql_error *pErr) {
  dtp d;
  int rc = dtp_time_digits(z, n, pTime);
  if (rc > 0) return 0;
  if (rc < 0) {
    dt__parse_error(DT__E_FIELD_OVERFLOW, z, n, "time", pErr);
    return -1;
  }
  rc = dtp_decode(z, n, pS, 0, &d);
  if (rc < 0 || d.eSpecial >= 0 || !(d.fmask & M_TIME)) {
    dt__parse_error(rc < 0 ? rc : DT__E_BAD_FORMAT, z, n, "time", pErr);
    return -1;
  }
  if (dtp_time_overflows(&d)) {
    dt__parse_error(DT__E_FIELD_OVERFLOW, z, n, "time", pErr);
    return -1;
  }
  *pTime = (((int64_t)d.tm.hour * 60 + d.tm.minute) * 60 + d.tm.second) * DT_USECS_PER_SEC +
           d.usec;
  return 0;
}
