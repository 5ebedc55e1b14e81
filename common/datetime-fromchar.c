/*
** common/datetime-fromchar.c — to_timestamp(text, format) and
** to_date(text, format) as PostgreSQL 15 reads them (datetime.h), on the
** format nodes of datetime-tochar.c.
**
** The input is walked against the format, PostgreSQL's way outside FX
** mode: blanks before a field are skipped, a separator or blank of the
** format matches one separator or blank of the input or nothing, other
** format text consumes one input character whatever it is, a numeric
** field takes as many digits as its pattern is long (YYYY: 4) unless FM
** is on or the next node is not a digit, then any number; names match
** case-insensitively. FX makes every character count. The fields found
** are then put together: a 12-hour clock with AM/PM, CC with YY, a
** Julian day, ISO week dates, day of year; a field given twice with two
** values is 22007 "conflicting values"; the date is checked as
** PostgreSQL's ValidateDate checks it.
**
** TZ, tz and OF are refused as PostgreSQL refuses them (0A000, "only
** supported in to_char"); TZH and TZM are read.
**
** INTERFACE ROUTINES
**   dt_to_timestamp_fmt, dt_to_date_fmt
*/
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datetimeInt.h"
#include "tz.h"

/* What the fields of the input said (PostgreSQL's TmFromChar). */
typedef struct dtr dtr;
struct dtr {
  int eMode;               /* DT__MODE_*: Gregorian or ISO week fields */
  int hh, pm, mi, ss, ssss, d, dd, ddd, mm, ms, year, bc, ww, w, cc, j, us, yysz, clock, tzsign,
      tzh, tzm, ff;
};

/* ASCII case-insensitive: does z start with zWord? */
static int dtr_starts(const char *z, const char *zWord) {
  for (; *zWord; z++, zWord++) {
    char a = *z, b = *zWord;
    if (a >= 'A' && a <= 'Z') a = (char)(a + 32);
    if (b >= 'A' && b <= 'Z') b = (char)(b + 32);
    if (a != b) return 0;
  }
  return 1;
}

static int dtr_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int dtr_is_separator(char c) {
  return (unsigned char)c > 0x20 && (unsigned char)c < 0x7f && !(c >= '0' && c <= '9') &&
         !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

static int dtr_fail(sql_error *pErr, const char *zState, const char *zFmt, const char *zArg,
                    const char *zArg2) {
  sql_error_set(pErr, zState, -1, zFmt, zArg, zArg2);
  return -1;
}

/* Sets a field, refusing a second, different value. */
static int dtr_set(int *pDest, int v, const dt__node *n, sql_error *pErr) {
  if (*pDest != 0 && *pDest != v) {
    return dtr_fail(pErr, SQLSTATE_INVALID_DATETIME_FORMAT,
                    "conflicting values for \"%s\" field in formatting string", n->pKey->zName, "");
  }
  *pDest = v;
  return 0;
}

/* Whether the node after n reads no digits (so n may take any number). */
static int dtr_next_is_separator(const dt__node *n) {
  if (n->eType == DT__N_END) return 0;
  if (n->eType == DT__N_ACTION && (n->mSuffix & (DT__S_TH | DT__S_th))) return 1;
  n++;
  if (n->eType == DT__N_END) return 1;
  if (n->eType == DT__N_ACTION) return !n->pKey->bDigit;
  return !(n->zChar[1] == 0 && n->zChar[0] >= '0' && n->zChar[0] <= '9');
}

/* Reads an integer field of nLen characters (or any length, see above)
** at *pz. Returns the characters read, or -1 with pErr. */
static int dtr_int(int *pDest, const char **pz, int nLen, const dt__node *n, sql_error *pErr) {
  const char *z = *pz, *zInit;
  char aCopy[32];
  long v;
  size_t nUsed;
  while (dtr_is_space(*z)) z++;
  zInit = z;
  nUsed = strnlen(z, (size_t)nLen);
  memcpy(aCopy, z, nUsed);
  aCopy[nUsed] = 0;
  errno = 0;
  if ((n->mSuffix & DT__S_FM) || dtr_next_is_separator(n)) {
    char *zEnd;
    v = strtol(z, &zEnd, 10);
    z = zEnd;
  } else {
    char *zEnd;
    if ((int)nUsed < nLen) {
      return dtr_fail(pErr, SQLSTATE_INVALID_DATETIME_FORMAT,
                      "source string too short for \"%s\" formatting field", n->pKey->zName, "");
    }
    v = strtol(aCopy, &zEnd, 10);
    if (zEnd - aCopy > 0 && zEnd - aCopy < nLen) {
      return dtr_fail(pErr, SQLSTATE_INVALID_DATETIME_FORMAT, "invalid value \"%s\" for \"%s\"",
                      aCopy, n->pKey->zName);
    }
    z += zEnd - aCopy;
  }
  if (z == zInit) {
    return dtr_fail(pErr, SQLSTATE_INVALID_DATETIME_FORMAT, "invalid value \"%s\" for \"%s\"",
                    aCopy, n->pKey->zName);
  }
  if (errno == ERANGE || v < INT_MIN || v > INT_MAX) {
    return dtr_fail(pErr, SQLSTATE_INVALID_DATETIME,
                    "value for \"%s\" in source string is out of range", n->pKey->zName, "");
  }
  if (pDest != NULL && dtr_set(pDest, (int)v, n, pErr) != 0) return -1;
  *pz = z;
  return (int)(z - zInit);
}

/* Matches one of azWord (case-insensitive, the first that matches) at *pz;
** returns its index, or -1 with pErr. */
static int dtr_word(const char *const *azWord, int nWord, const char **pz, const dt__node *n,
                    sql_error *pErr) {
  for (int i = 0; i < nWord; i++) {
    if (dtr_starts(*pz, azWord[i])) {
      *pz += strlen(azWord[i]);
      return i;
    }
  }
  {
    char aCopy[64];
    size_t k = 0;
    while ((*pz)[k] && !dtr_is_space((*pz)[k]) && k + 1 < sizeof(aCopy)) {
      aCopy[k] = (*pz)[k];
      k++;
    }
    aCopy[k] = 0;
    dtr_fail(pErr, SQLSTATE_INVALID_DATETIME_FORMAT, "invalid value \"%s\" for \"%s\"", aCopy,
             n->pKey->zName);
  }
  return -1;
}

/* Skips an ordinal suffix after a number when the pattern has TH/th. */
static void dtr_skip_th(const char **pz, const dt__node *n) {
  if ((n->mSuffix & (DT__S_TH | DT__S_th)) && (*pz)[0] && (*pz)[1]) *pz += 2;
}

/* Scales a fraction of nRead digits to micro- (or milli-) seconds: "25"
** of MS is 0.25 s. */
static int dtr_frac(int v, int nRead, int nMax) {
  for (int i = nRead; i < nMax; i++) v *= 10;
  return v;
}

static const char *const dtr_azAmpm[] = {"am", "pm", "AM", "PM"};
static const char *const dtr_azAmpmLong[] = {"a.m.", "p.m.", "A.M.", "P.M."};
static const char *const dtr_azAdbc[] = {"ad", "bc", "AD", "BC"};
static const char *const dtr_azAdbcLong[] = {"a.d.", "b.c.", "A.D.", "B.C."};

/* PostgreSQL's adjust_partial_year_to_2020: 2-digit years near 2020. */
static int dtr_year2020(int y) {
  if (y < 70) return y + 2000;
  if (y < 100) return y + 1900;
  if (y < 520) return y + 2000;
  if (y < 1000) return y + 1000;
  return y;
}

/* One pattern of the walk. */
static int dtr_action(dtr *r, const dt__node *n, const char **pz, int nSkip, sql_error *pErr) {
  const char *z = *pz;
  int v, k, id = n->pKey->eId;
  if (n->pKey->eMode != DT__MODE_NONE) {
    if (r->eMode == DT__MODE_NONE) r->eMode = n->pKey->eMode;
    else if (r->eMode != n->pKey->eMode) {
      return dtr_fail(pErr, SQLSTATE_INVALID_DATETIME_FORMAT,
                      "invalid combination of date conventions", "", "");
    }
  }
  switch (id) {
    case DT__K_FX:
      break;
    case DT__K_A_M: case DT__K_P_M: case DT__K_a_m: case DT__K_p_m:
      if ((v = dtr_word(dtr_azAmpmLong, 4, &z, n, pErr)) < 0 || dtr_set(&r->pm, v % 2, n, pErr)) return -1;
      r->clock = 12;
      break;
    case DT__K_AM: case DT__K_PM: case DT__K_am: case DT__K_pm:
      if ((v = dtr_word(dtr_azAmpm, 4, &z, n, pErr)) < 0 || dtr_set(&r->pm, v % 2, n, pErr)) return -1;
      r->clock = 12;
      break;
    case DT__K_HH: case DT__K_HH12: case DT__K_HH24:
      if (dtr_int(&r->hh, &z, 2, n, pErr) < 0) return -1;
      if (id != DT__K_HH24) r->clock = 12;
      dtr_skip_th(&z, n);
      break;
    case DT__K_MI:
      if (dtr_int(&r->mi, &z, n->pKey->nLen, n, pErr) < 0) return -1;
      dtr_skip_th(&z, n);
      break;
    case DT__K_SS:
      if (dtr_int(&r->ss, &z, n->pKey->nLen, n, pErr) < 0) return -1;
      dtr_skip_th(&z, n);
      break;
    case DT__K_MS:
      if ((k = dtr_int(&r->ms, &z, 3, n, pErr)) < 0) return -1;
      r->ms = dtr_frac(r->ms, k, 3);
      dtr_skip_th(&z, n);
      break;
    case DT__K_FF1: case DT__K_FF2: case DT__K_FF3: case DT__K_FF4: case DT__K_FF5:
    case DT__K_FF6: case DT__K_US:
      if (id != DT__K_US) r->ff = id - DT__K_FF1 + 1;
      if ((k = dtr_int(&r->us, &z, id == DT__K_US ? 6 : r->ff, n, pErr)) < 0) return -1;
      r->us = dtr_frac(r->us, k, 6);
      dtr_skip_th(&z, n);
      break;
    case DT__K_SSSS:
      if (dtr_int(&r->ssss, &z, n->pKey->nLen, n, pErr) < 0) return -1;
      dtr_skip_th(&z, n);
      break;
    case DT__K_tz: case DT__K_TZ: case DT__K_OF:
      return dtr_fail(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED,
                      "formatting field \"%s\" is only supported in to_char", n->pKey->zName, "");
    case DT__K_TZH:
      /* A minus may have been skipped as a separator: it was the sign. */
      if (*z == '+' || *z == '-' || *z == ' ') {
        r->tzsign = *z == '-' ? -1 : 1;
        z++;
      } else {
        r->tzsign = nSkip > 0 && z[-1] == '-' ? -1 : 1;
      }
      if (dtr_int(&r->tzh, &z, 2, n, pErr) < 0) return -1;
      break;
    case DT__K_TZM:
      if (!r->tzsign) r->tzsign = 1;
      if (dtr_int(&r->tzm, &z, 2, n, pErr) < 0) return -1;
      break;
    case DT__K_A_D: case DT__K_B_C: case DT__K_a_d: case DT__K_b_c:
      if ((v = dtr_word(dtr_azAdbcLong, 4, &z, n, pErr)) < 0 || dtr_set(&r->bc, v % 2, n, pErr)) return -1;
      break;
    case DT__K_AD: case DT__K_BC: case DT__K_ad: case DT__K_bc:
      if ((v = dtr_word(dtr_azAdbc, 4, &z, n, pErr)) < 0 || dtr_set(&r->bc, v % 2, n, pErr)) return -1;
      break;
    case DT__K_MONTH: case DT__K_Month: case DT__K_month:
      if ((v = dtr_word(dt__azMonthFull, 12, &z, n, pErr)) < 0 || dtr_set(&r->mm, v + 1, n, pErr)) return -1;
      break;
    case DT__K_MON: case DT__K_Mon: case DT__K_mon:
      if ((v = dtr_word(dt__azMonth, 12, &z, n, pErr)) < 0 || dtr_set(&r->mm, v + 1, n, pErr)) return -1;
      break;
    case DT__K_MM:
      if (dtr_int(&r->mm, &z, n->pKey->nLen, n, pErr) < 0) return -1;
      dtr_skip_th(&z, n);
      break;
    case DT__K_DAY: case DT__K_Day: case DT__K_day:
      if ((v = dtr_word(dt__azDayFull, 7, &z, n, pErr)) < 0 || dtr_set(&r->d, v, n, pErr)) return -1;
      r->d++;
      break;
    case DT__K_DY: case DT__K_Dy: case DT__K_dy:
      if ((v = dtr_word(dt__azDay, 7, &z, n, pErr)) < 0 || dtr_set(&r->d, v, n, pErr)) return -1;
      r->d++;
      break;
    case DT__K_DDD:
    case DT__K_IDDD:
      if (dtr_int(&r->ddd, &z, id == DT__K_IDDD ? 3 : n->pKey->nLen, n, pErr) < 0) return -1;
      dtr_skip_th(&z, n);
      break;
    case DT__K_DD:
      if (dtr_int(&r->dd, &z, n->pKey->nLen, n, pErr) < 0) return -1;
      dtr_skip_th(&z, n);
      break;
    case DT__K_D:
      if (dtr_int(&r->d, &z, n->pKey->nLen, n, pErr) < 0) return -1;
      dtr_skip_th(&z, n);
      break;
    case DT__K_ID:
      if (dtr_int(&r->d, &z, 1, n, pErr) < 0) return -1;
      if (++r->d > 7) r->d = 1;              /* Sunday = 1, as Gregorian */
      dtr_skip_th(&z, n);
      break;
    case DT__K_WW: case DT__K_IW:
      if (dtr_int(&r->ww, &z, n->pKey->nLen, n, pErr) < 0) return -1;
      dtr_skip_th(&z, n);
      break;
    case DT__K_Q:
      if (dtr_int(NULL, &z, n->pKey->nLen, n, pErr) < 0) return -1;   /* read, ignored */
      dtr_skip_th(&z, n);
      break;
    case DT__K_CC:
      if (dtr_int(&r->cc, &z, n->pKey->nLen, n, pErr) < 0) return -1;
      dtr_skip_th(&z, n);
      break;
    case DT__K_Y_YYY: {
      int nMil, nYears, nch = 0;
      if (sscanf(z, "%d,%03d%n", &nMil, &nYears, &nch) < 2) {
        return dtr_fail(pErr, SQLSTATE_INVALID_DATETIME_FORMAT,
                        "invalid input string for \"Y,YYY\"", "", "");
      }
      if (dtr_set(&r->year, nYears + nMil * 1000, n, pErr) != 0) return -1;
      r->yysz = 4;
      z += nch;
      dtr_skip_th(&z, n);
      break;
    }
    case DT__K_YYYY: case DT__K_IYYY:
      if (dtr_int(&r->year, &z, n->pKey->nLen, n, pErr) < 0) return -1;
      r->yysz = 4;
      dtr_skip_th(&z, n);
      break;
    case DT__K_YYY: case DT__K_IYY: case DT__K_YY: case DT__K_IY: case DT__K_Y: case DT__K_I:
      if ((k = dtr_int(&r->year, &z, n->pKey->nLen, n, pErr)) < 0) return -1;
      if (k < 4) r->year = dtr_year2020(r->year);
      r->yysz = n->pKey->nLen;
      dtr_skip_th(&z, n);
      break;
    case DT__K_RM: case DT__K_rm: {
      static const char *const azLower[] = {"xii", "xi", "x", "ix", "viii", "vii",
                                            "vi",  "v",  "iv", "iii", "ii", "i"};
      if ((v = dtr_word(azLower, 12, &z, n, pErr)) < 0 || dtr_set(&r->mm, 12 - v, n, pErr)) return -1;
      break;
    }
    case DT__K_W:
      if (dtr_int(&r->w, &z, n->pKey->nLen, n, pErr) < 0) return -1;
      dtr_skip_th(&z, n);
      break;
    case DT__K_J:
      if (dtr_int(&r->j, &z, n->pKey->nLen, n, pErr) < 0) return -1;
      dtr_skip_th(&z, n);
      break;
  }
  *pz = z;
  return 0;
}

/* Walks zIn against the format (PostgreSQL's DCH_from_char). */
static int dtr_walk(const dt__node *aNode, const char *zIn, dtr *r, sql_error *pErr) {
  const dt__node *n;
  const char *z = zIn;
  int bFx = 0, nSkip = 0;
  for (n = aNode; n->eType != DT__N_END && *z; n++) {
    if (!bFx && !(n->eType == DT__N_ACTION && n->pKey->eId == DT__K_FX) &&
        (n->eType == DT__N_ACTION || n == aNode)) {
      while (*z && dtr_is_space(*z)) z++, nSkip++;
    }
    if (n->eType == DT__N_SPACE || n->eType == DT__N_SEPARATOR) {
      if (!bFx) {
        /* one blank or separator of the input, or none */
        nSkip--;
        if (dtr_is_space(*z) || dtr_is_separator(*z)) z++, nSkip++;
      } else {
        z++;
      }
      continue;
    }
    if (n->eType != DT__N_ACTION) {
      /* other text: one character, whatever it is */
      if (!bFx && nSkip > 0) nSkip--;
      else z++;
      continue;
    }
    if (n->pKey->eId == DT__K_FX) bFx = 1;
    if (dtr_action(r, n, &z, nSkip, pErr) != 0) return -1;
    if (!bFx) {
      nSkip = 0;
      while (*z && dtr_is_space(*z)) z++, nSkip++;
    }
  }
  return 0;
}

/* Puts the fields together (PostgreSQL's do_to_timestamp). Returns 0
** with tm (local) and *pUsec, and *pbTz and *pGmtoff if TZH or TZM were given;
** -1 with pErr. zIn is for messages. */
static int dtr_fields(const char *zIn, const char *zFmt, dt_tm *tm, int64_t *pUsec, int *pbTz,
                      int *pGmtoff, int *pnPrec, sql_error *pErr) {
  dt__node *aNode;
  dtr r;
  int fmask = 0, rc;
  memset(&r, 0, sizeof(r));
  memset(tm, 0, sizeof(*tm));
  tm->month = tm->day = 1;
  *pUsec = 0;
  *pbTz = 0;
  aNode = dt__format_parse(zFmt);
  if (aNode == NULL) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return -1;
  }
  rc = dtr_walk(aNode, zIn, &r, pErr);
  free(aNode);
  if (rc != 0) return -1;
#define M_YEAR 1
#define M_MONTH 2
#define M_DAY 4
  if (r.ssss) {
    tm->hour = r.ssss / 3600;
    tm->minute = r.ssss % 3600 / 60;
    tm->second = r.ssss % 60;
  }
  if (r.ss) tm->second = r.ss;
  if (r.mi) tm->minute = r.mi;
  if (r.hh) tm->hour = r.hh;
  if (r.clock == 12) {
    if (tm->hour < 1 || tm->hour > 12) {
      sql_error_set(pErr, SQLSTATE_INVALID_DATETIME_FORMAT, -1,
                    "hour \"%d\" is invalid for the 12-hour clock", tm->hour);
      return -1;
    }
    if (r.pm && tm->hour < 12) tm->hour += 12;
    else if (!r.pm && tm->hour == 12) tm->hour = 0;
  }
  if (r.year) {
    if (r.cc && r.yysz <= 2) {
      if (r.bc) r.cc = -r.cc;
      tm->year = r.year % 100;
      if (tm->year) {
        if (r.cc >= 0) tm->year += (r.cc - 1) * 100;
        else tm->year = (r.cc + 1) * 100 - tm->year + 1;
      } else {
        tm->year = r.cc * 100 + (r.cc >= 0 ? 0 : 1);
      }
    } else {
      tm->year = r.year;
      if (r.bc) tm->year = -tm->year;
      if (tm->year < 0) tm->year++;
    }
    fmask |= M_YEAR;
  } else if (r.cc) {
    if (r.bc) r.cc = -r.cc;
    tm->year = r.cc >= 0 ? (r.cc - 1) * 100 + 1 : r.cc * 100 + 1;
    fmask |= M_YEAR;
  }
  if (r.j) {
    dt_j2date(r.j, &tm->year, &tm->month, &tm->day);
    fmask |= M_YEAR | M_MONTH | M_DAY;
  }
  if (r.ww) {
    if (r.eMode == DT__MODE_ISOWEEK) {
      int64_t jd = dt__isoweek1(tm->year) + (int64_t)(r.ww - 1) * 7;
      /* the day of the week, Monday 1 .. Sunday 7; Monday if none */
      if (r.d) jd += (r.d == 1 ? 7 : r.d - 1) - 1;
      dt_j2date(jd, &tm->year, &tm->month, &tm->day);
      fmask |= M_YEAR | M_MONTH | M_DAY;
    } else {
      r.ddd = (r.ww - 1) * 7 + 1;
    }
  }
  if (r.w) r.dd = (r.w - 1) * 7 + 1;
  if (r.dd) {
    tm->day = r.dd;
    fmask |= M_DAY;
  }
  if (r.mm) {
    tm->month = r.mm;
    fmask |= M_MONTH;
  }
  if (r.ddd && (tm->month <= 1 || tm->day <= 1)) {
    if (!tm->year && !r.bc) {
      sql_error_set(pErr, SQLSTATE_INVALID_DATETIME_FORMAT, -1,
                    "cannot calculate day of year without year information");
      return -1;
    }
    if (r.eMode == DT__MODE_ISOWEEK) {
      dt_j2date(dt__isoweek1(tm->year) - 1 + r.ddd, &tm->year, &tm->month, &tm->day);
      fmask |= M_YEAR | M_MONTH | M_DAY;
    } else {
      int i, nBefore = 0;
      for (i = 1; i <= 12; i++) {
        if (r.ddd <= nBefore + dt_days_in_month(tm->year, i)) break;
        nBefore += dt_days_in_month(tm->year, i);
      }
      if (i > 12) i = 12, nBefore -= dt_days_in_month(tm->year, 12);
      if (tm->month <= 1) tm->month = i;
      if (tm->day <= 1) tm->day = r.ddd - nBefore;
      fmask |= M_MONTH | M_DAY;
    }
  }
  *pUsec = (int64_t)r.ms * 1000 + r.us;
  *pnPrec = r.ff;
  /* ValidateDate with the year as is (a Julian year). */
  if (fmask != 0 && ((fmask & M_MONTH && (tm->month < 1 || tm->month > 12)) ||
                     (fmask & M_DAY && (tm->day < 1 || tm->day > 31)) ||
                     ((fmask & (M_YEAR | M_MONTH | M_DAY)) == (M_YEAR | M_MONTH | M_DAY) &&
                      tm->day > dt_days_in_month(tm->year, tm->month)))) {
    dt__parse_error(DT__E_FIELD_OVERFLOW, zIn, strlen(zIn), "timestamp", pErr);
    return -1;
  }
  if (tm->hour < 0 || tm->hour >= 24 || tm->minute < 0 || tm->minute >= 60 || tm->second < 0 ||
      tm->second >= 60 || *pUsec < 0 || *pUsec >= DT_USECS_PER_SEC) {
    dt__parse_error(DT__E_FIELD_OVERFLOW, zIn, strlen(zIn), "timestamp", pErr);
    return -1;
  }
  tm->usec = (int)*pUsec;
  if (r.tzsign) {
    if (r.tzh < 0 || r.tzh > 15 || r.tzm < 0 || r.tzm >= 60) {
      dt__parse_error(DT__E_TZDISP_OVERFLOW, zIn, strlen(zIn), "timestamp", pErr);
      return -1;
    }
    *pbTz = 1;
    *pGmtoff = r.tzsign * (r.tzh * 3600 + r.tzm * 60);
  }
#undef M_YEAR
#undef M_MONTH
#undef M_DAY
  return 0;
}

int dt_to_timestamp_fmt(const char *zText, const char *zFmt, const tz_zone *pZone, int64_t *pTs,
                        sql_error *pErr) {
  dt_tm tm;
  int64_t us;
  int bTz, gmtoff = 0, rc, nPrec;
  if (dtr_fields(zText, zFmt, &tm, &us, &bTz, &gmtoff, &nPrec, pErr) != 0) return -1;
  if (bTz) {
    tm.gmtoff = gmtoff;
    rc = dt__julian_ok(tm.year, tm.month) &&
                 dt__ts_compose(dt_date2j(tm.year, tm.month, tm.day),
                                (((int64_t)tm.hour * 60 + tm.minute) * 60 + tm.second) *
                                        DT_USECS_PER_SEC + us,
                                gmtoff, pTs) == 0
             ? DT_OK : DT_E_TS_RANGE;
  } else {
    rc = dt_timestamptz_from_tm(&tm, pZone, pTs);
  }
  if (rc != DT_OK) {
    dt_error(rc, pErr);
    return -1;
  }
  if (nPrec > 0 && nPrec < 6) {
    /* FFn: the result rounded to n digits (AdjustTimestampForTypmod),
    ** halves away from zero. */
    static const int64_t aScale[6] = {1000000, 100000, 10000, 1000, 100, 10};
    int64_t sc = aScale[nPrec], t = *pTs;
    *pTs = t >= 0 ? (t + sc / 2) / sc * sc : -((-t + sc / 2) / sc * sc);
  }
  return 0;
}

int dt_to_date_fmt(const char *zText, const char *zFmt, int32_t *pDate, sql_error *pErr) {
  dt_tm tm;
  int64_t us, jd;
  int bTz, gmtoff, nPrec;
  if (dtr_fields(zText, zFmt, &tm, &us, &bTz, &gmtoff, &nPrec, pErr) != 0) return -1;
  if (!dt__julian_ok(tm.year, tm.month) ||
      !dt_jd_valid(jd = dt_date2j(tm.year, tm.month, tm.day), 0)) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1, "date out of range: \"%s\"", zText);
    return -1;
  }
  *pDate = (int32_t)(jd - DT_EPOCH_JD);
  return 0;
}
