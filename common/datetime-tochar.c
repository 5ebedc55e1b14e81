/*
** common/datetime-tochar.c — to_char of timestamps, timestamptz and
** intervals with PostgreSQL 15's patterns (datetime.h), and the parsed
** format both directions share (datetimeInt.h; to_timestamp and to_date
** are datetime-fromchar.c's).
**
** A format is cut into nodes the way PostgreSQL cuts it: at each place an
** FM or TM prefix, then the first pattern of its table that matches there
** (so "HH24" before "HH", "MONTH" before "MON" before "MM"; the case of
** the pattern picks the case of names: MONTH, Month, month), then a TH,
** th or SP suffix; anything else is copied, "double-quoted text" as is
** (a backslash quotes the next character), a backslash before a double
** quote gives the quote.
**
** Patterns: HH HH12 HH24 MI SS MS US FF1-FF6 SSSS SSSSS AM PM A.M. P.M.
** (either case), Y,YYY YYYY YYY YY Y IYYY IYY IY I, BC AD B.C. A.D., MONTH
** Month month MON Mon mon MM, DAY Day day DY Dy dy, DDD IDDD DD D ID, W WW
** IW, CC, J, Q, RM rm, TZ tz TZH TZM OF; prefixes FM (no padding), TM
** (names unpadded; the C locale's names are English), FX; suffixes TH th
** (ordinals), SP (ignored, as PostgreSQL). On an interval the patterns of
** calendar dates (names, day of week, BC, zones) are 22007 "invalid format
** specification for an interval value".
**
** INTERFACE ROUTINES
**   dt_to_char, dt__format_parse
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strbuf.h"
#include "datetimeInt.h"
#include "tz.h"

const char *const dt__azMonthFull[12] = {"January", "February", "March",     "April",
                                         "May",     "June",     "July",      "August",
                                         "September", "October", "November", "December"};
const char *const dt__azMonth[12] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
const char *const dt__azDayFull[7] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                      "Thursday", "Friday", "Saturday"};
const char *const dt__azDay[7] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
const char *const dt__azRomanUpper[12] = {"XII", "XI", "X",   "IX", "VIII", "VII",
                                          "VI",  "V",  "IV",  "III", "II",  "I"};

#define G DT__MODE_GREGORIAN
#define W DT__MODE_ISOWEEK
/* In PostgreSQL's order: the first that matches wins. */
static const dt__keyword dt_aKeyword[] = {
    {"A.D.", 4, DT__K_A_D, 0, 0}, {"A.M.", 4, DT__K_A_M, 0, 0}, {"AD", 2, DT__K_AD, 0, 0},
    {"AM", 2, DT__K_AM, 0, 0}, {"B.C.", 4, DT__K_B_C, 0, 0}, {"BC", 2, DT__K_BC, 0, 0},
    {"CC", 2, DT__K_CC, 1, 0}, {"DAY", 3, DT__K_DAY, 0, 0}, {"DDD", 3, DT__K_DDD, 1, G},
    {"DD", 2, DT__K_DD, 1, G}, {"DY", 2, DT__K_DY, 0, 0}, {"Day", 3, DT__K_Day, 0, 0},
    {"Dy", 2, DT__K_Dy, 0, 0}, {"D", 1, DT__K_D, 1, G}, {"FF1", 3, DT__K_FF1, 1, 0},
    {"FF2", 3, DT__K_FF2, 1, 0}, {"FF3", 3, DT__K_FF3, 1, 0}, {"FF4", 3, DT__K_FF4, 1, 0},
    {"FF5", 3, DT__K_FF5, 1, 0}, {"FF6", 3, DT__K_FF6, 1, 0}, {"FX", 2, DT__K_FX, 0, 0},
    {"HH24", 4, DT__K_HH24, 1, 0}, {"HH12", 4, DT__K_HH12, 1, 0}, {"HH", 2, DT__K_HH, 1, 0},
    {"IDDD", 4, DT__K_IDDD, 1, W}, {"ID", 2, DT__K_ID, 1, W}, {"IW", 2, DT__K_IW, 1, W},
    {"IYYY", 4, DT__K_IYYY, 1, W}, {"IYY", 3, DT__K_IYY, 1, W}, {"IY", 2, DT__K_IY, 1, W},
    {"I", 1, DT__K_I, 1, W}, {"J", 1, DT__K_J, 1, 0}, {"MI", 2, DT__K_MI, 1, 0},
    {"MM", 2, DT__K_MM, 1, G}, {"MONTH", 5, DT__K_MONTH, 0, G}, {"MON", 3, DT__K_MON, 0, G},
    {"MS", 2, DT__K_MS, 1, 0}, {"Month", 5, DT__K_Month, 0, G}, {"Mon", 3, DT__K_Mon, 0, G},
    {"OF", 2, DT__K_OF, 0, 0}, {"P.M.", 4, DT__K_P_M, 0, 0}, {"PM", 2, DT__K_PM, 0, 0},
    {"Q", 1, DT__K_Q, 1, 0}, {"RM", 2, DT__K_RM, 0, G}, {"SSSSS", 5, DT__K_SSSS, 1, 0},
    {"SSSS", 4, DT__K_SSSS, 1, 0}, {"SS", 2, DT__K_SS, 1, 0}, {"TZH", 3, DT__K_TZH, 0, 0},
    {"TZM", 3, DT__K_TZM, 1, 0}, {"TZ", 2, DT__K_TZ, 0, 0}, {"US", 2, DT__K_US, 1, 0},
    {"WW", 2, DT__K_WW, 1, G}, {"W", 1, DT__K_W, 1, G}, {"Y,YYY", 5, DT__K_Y_YYY, 1, G},
    {"YYYY", 4, DT__K_YYYY, 1, G}, {"YYY", 3, DT__K_YYY, 1, G}, {"YY", 2, DT__K_YY, 1, G},
    {"Y", 1, DT__K_Y, 1, G}, {"a.d.", 4, DT__K_a_d, 0, 0}, {"a.m.", 4, DT__K_a_m, 0, 0},
    {"ad", 2, DT__K_ad, 0, 0}, {"am", 2, DT__K_am, 0, 0}, {"b.c.", 4, DT__K_b_c, 0, 0},
    {"bc", 2, DT__K_bc, 0, 0}, {"cc", 2, DT__K_CC, 1, 0}, {"day", 3, DT__K_day, 0, 0},
    {"ddd", 3, DT__K_DDD, 1, G}, {"dd", 2, DT__K_DD, 1, G}, {"dy", 2, DT__K_dy, 0, 0},
    {"d", 1, DT__K_D, 1, G}, {"ff1", 3, DT__K_FF1, 1, 0}, {"ff2", 3, DT__K_FF2, 1, 0},
    {"ff3", 3, DT__K_FF3, 1, 0}, {"ff4", 3, DT__K_FF4, 1, 0}, {"ff5", 3, DT__K_FF5, 1, 0},
    {"ff6", 3, DT__K_FF6, 1, 0}, {"fx", 2, DT__K_FX, 0, 0}, {"hh24", 4, DT__K_HH24, 1, 0},
    {"hh12", 4, DT__K_HH12, 1, 0}, {"hh", 2, DT__K_HH, 1, 0}, {"iddd", 4, DT__K_IDDD, 1, W},
    {"id", 2, DT__K_ID, 1, W}, {"iw", 2, DT__K_IW, 1, W}, {"iyyy", 4, DT__K_IYYY, 1, W},
    {"iyy", 3, DT__K_IYY, 1, W}, {"iy", 2, DT__K_IY, 1, W}, {"i", 1, DT__K_I, 1, W},
    {"j", 1, DT__K_J, 1, 0}, {"mi", 2, DT__K_MI, 1, 0}, {"mm", 2, DT__K_MM, 1, G},
    {"month", 5, DT__K_month, 0, G}, {"mon", 3, DT__K_mon, 0, G}, {"ms", 2, DT__K_MS, 1, 0},
    {"of", 2, DT__K_OF, 0, 0}, {"p.m.", 4, DT__K_p_m, 0, 0}, {"pm", 2, DT__K_pm, 0, 0},
    {"q", 1, DT__K_Q, 1, 0}, {"rm", 2, DT__K_rm, 0, G}, {"sssss", 5, DT__K_SSSS, 1, 0},
    {"ssss", 4, DT__K_SSSS, 1, 0}, {"ss", 2, DT__K_SS, 1, 0}, {"tzh", 3, DT__K_TZH, 0, 0},
    {"tzm", 3, DT__K_TZM, 1, 0}, {"tz", 2, DT__K_tz, 0, 0}, {"us", 2, DT__K_US, 1, 0},
    {"ww", 2, DT__K_WW, 1, G}, {"w", 1, DT__K_W, 1, G}, {"y,yyy", 5, DT__K_Y_YYY, 1, G},
    {"yyyy", 4, DT__K_YYYY, 1, G}, {"yyy", 3, DT__K_YYY, 1, G}, {"yy", 2, DT__K_YY, 1, G},
    {"y", 1, DT__K_Y, 1, G},
};
#undef G
#undef W

/* The separators to_timestamp treats alike (PostgreSQL's is_separator_char). */
static int dtc_is_separator(char c) {
  return (unsigned char)c < 0x80 && c > ' ' && c != 0x7f && !(c >= '0' && c <= '9') &&
         !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

/* The length of the UTF-8 character at z (1 for a stray byte). */
static int dtc_utf8_len(const char *z) {
  unsigned char c = (unsigned char)*z;
  int n = c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
  for (int i = 1; i < n; i++) {
    if (z[i] == 0) return i;
  }
  return n;
}

dt__node *dt__format_parse(const char *zFmt) {
  size_t nFmt = strlen(zFmt);
  dt__node *a = calloc(nFmt + 1, sizeof(dt__node)), *n = a;
  const char *z = zFmt;
  if (a == NULL) return NULL;
  while (*z) {
    int mSuffix = 0;
    const dt__keyword *k = NULL;
    if (strncmp(z, "FM", 2) == 0 || strncmp(z, "fm", 2) == 0) {
      mSuffix = DT__S_FM;
      z += 2;
    } else if (strncmp(z, "TM", 2) == 0 || strncmp(z, "tm", 2) == 0) {
      mSuffix = DT__S_TM;
      z += 2;
    }
    if (*z) {
      for (size_t i = 0; i < sizeof(dt_aKeyword) / sizeof(dt_aKeyword[0]); i++) {
        if (strncmp(z, dt_aKeyword[i].zName, (size_t)dt_aKeyword[i].nLen) == 0) {
          k = &dt_aKeyword[i];
          break;
        }
      }
    }
    if (k != NULL) {
      n->eType = DT__N_ACTION;
      n->pKey = k;
      n->mSuffix = mSuffix;
      z += k->nLen;
      if (strncmp(z, "TH", 2) == 0) n->mSuffix |= DT__S_TH, z += 2;
      else if (strncmp(z, "th", 2) == 0) n->mSuffix |= DT__S_th, z += 2;
      else if (strncmp(z, "SP", 2) == 0) n->mSuffix |= DT__S_SP, z += 2;
      n++;
    } else if (*z == '"') {
      z++;
      while (*z) {
        int k2;
        if (*z == '"') {
          z++;
          break;
        }
        if (*z == '\\' && z[1]) z++;
        k2 = dtc_utf8_len(z);
        n->eType = DT__N_CHAR;
        memcpy(n->zChar, z, (size_t)k2);
        n->zChar[k2] = 0;
        n++;
        z += k2;
      }
    } else if (*z) {
      int k2;
      if (*z == '\\' && z[1] == '"') z++;
      k2 = dtc_utf8_len(z);
      n->eType = dtc_is_separator(*z) ? DT__N_SEPARATOR
                 : (*z == ' ' || (*z >= '\t' && *z <= '\r')) ? DT__N_SPACE : DT__N_CHAR;
      memcpy(n->zChar, z, (size_t)k2);
      n->zChar[k2] = 0;
      n++;
      z += k2;
    }
  }
  n->eType = DT__N_END;
  return a;
}

/* ---- to_char ------------------------------------------------------------------- */

/* What to_char prints from: the fields, and for intervals their own
** rules (hours past 24, no calendar). */
typedef struct dtc_in dtc_in;
struct dtc_in {
  dt_tm tm;
  int64_t hour;            /* the hours: an interval's may be large */
  int wday;                /* 0 = Sunday */
  int yday;                /* 1.. (an interval's: its span in days) */
  int bInterval;
};

/* Appends an ordinal suffix (st, nd, rd, th) to the digits in s. */
static void dtc_th(strbuf *s, size_t iStart, int bUpper) {
  const char *z = s->z + iStart;
  size_t n = s->n - iStart;
  char last = n > 0 ? z[n - 1] : 0;
  static const char *const azUp[] = {"ST", "ND", "RD", "TH"}, *const azLo[] = {"st", "nd", "rd", "th"};
  int k = 3;
  if (n > 1 && z[n - 2] == '1') last = 0;     /* 11th, 12th, 13th */
  if (last == '1') k = 0;
  else if (last == '2') k = 1;
  else if (last == '3') k = 2;
  strbuf_puts(s, bUpper ? azUp[k] : azLo[k]);
}

/* Appends a number padded with zeros to w digits (w 0: none), and the
** ordinal suffix if asked. */
static void dtc_num(strbuf *s, const dt__node *n, long long v, int w) {
  size_t i = s->n;
  strbuf_printf(s, "%0*lld", (n->mSuffix & DT__S_FM) ? 0 : w, v);
  if (n->mSuffix & (DT__S_TH | DT__S_th)) dtc_th(s, i, (n->mSuffix & DT__S_TH) != 0);
}

/* Appends a name in the case the pattern asks for (0 as is, 1 upper, 2
** lower), padded to 9 unless FM or TM. */
static void dtc_name(strbuf *s, const dt__node *n, const char *zName, int eCase, int bPad) {
  char z[16];
  size_t i;
  for (i = 0; zName[i] && i + 1 < sizeof(z); i++) {
    char c = zName[i];
    z[i] = eCase == 1 && c >= 'a' && c <= 'z' ? (char)(c - 32)
           : eCase == 2 && c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
  }
  z[i] = 0;
  if (bPad && !(n->mSuffix & (DT__S_FM | DT__S_TM))) strbuf_printf(s, "%-9s", z);
  else strbuf_puts(s, z);
}

/* PostgreSQL's ADJUST_YEAR: a timestamp's year of its era (no year 0). */
static int dtc_year(const dtc_in *in, int y) {
  return in->bInterval ? y : y <= 0 ? -(y - 1) : y;
}

/* One pattern. Returns 0, or -1 with pErr. */
static int dtc_action(strbuf *s, const dt__node *n, const dtc_in *in, sql_error *pErr) {
  const dt_tm *tm = &in->tm;
  int id = n->pKey->eId, i, y;
  int bCal = !(id == DT__K_HH || id == DT__K_HH12 || id == DT__K_HH24 || id == DT__K_MI ||
               id == DT__K_SS || id == DT__K_MS || id == DT__K_US || id == DT__K_SSSS ||
               (id >= DT__K_FF1 && id <= DT__K_FF6) || id == DT__K_FX || id == DT__K_MM ||
               id == DT__K_DDD || id == DT__K_IDDD || id == DT__K_DD || id == DT__K_WW ||
               id == DT__K_IW || id == DT__K_Q || id == DT__K_CC || id == DT__K_Y_YYY ||
               id == DT__K_YYYY || id == DT__K_IYYY || id == DT__K_YYY || id == DT__K_IYY ||
               id == DT__K_YY || id == DT__K_IY || id == DT__K_Y || id == DT__K_I ||
               id == DT__K_RM || id == DT__K_rm || id == DT__K_W || id == DT__K_J ||
               id == DT__K_AM || id == DT__K_PM || id == DT__K_A_M || id == DT__K_P_M ||
               id == DT__K_am || id == DT__K_pm || id == DT__K_a_m || id == DT__K_p_m);
  if (in->bInterval && bCal) {
    sql_error_set(pErr, SQLSTATE_INVALID_DATETIME_FORMAT, -1,
                  "invalid format specification for an interval value");
    return -1;
  }
  switch (id) {
    case DT__K_A_M: case DT__K_P_M:
      strbuf_puts(s, tm->hour % 24 >= 12 ? "P.M." : "A.M.");
      break;
    case DT__K_AM: case DT__K_PM:
      strbuf_puts(s, tm->hour % 24 >= 12 ? "PM" : "AM");
      break;
    case DT__K_a_m: case DT__K_p_m:
      strbuf_puts(s, tm->hour % 24 >= 12 ? "p.m." : "a.m.");
      break;
    case DT__K_am: case DT__K_pm:
      strbuf_puts(s, tm->hour % 24 >= 12 ? "pm" : "am");
      break;
    case DT__K_HH: case DT__K_HH12:
      dtc_num(s, n, in->hour % 12 == 0 ? 12 : in->hour % 12, in->hour >= 0 ? 2 : 3);
      break;
    case DT__K_HH24:
      dtc_num(s, n, in->hour, in->hour >= 0 ? 2 : 3);
      break;
    case DT__K_MI:
      dtc_num(s, n, tm->minute, tm->minute >= 0 ? 2 : 3);
      break;
    case DT__K_SS:
      dtc_num(s, n, tm->second, tm->second >= 0 ? 2 : 3);
      break;
    case DT__K_FF1: case DT__K_FF2: case DT__K_FF3: case DT__K_FF4: case DT__K_FF5:
    case DT__K_FF6: case DT__K_MS: case DT__K_US: {
      static const int aDiv[] = {100000, 10000, 1000, 100, 10, 1};
      int nDigit = id == DT__K_MS ? 3 : id == DT__K_US ? 6 : id - DT__K_FF1 + 1;
      size_t i0 = s->n;
      /* always zero-padded, FM or not */
      strbuf_printf(s, "%0*d", nDigit, tm->usec / aDiv[nDigit - 1]);
      if (n->mSuffix & (DT__S_TH | DT__S_th)) dtc_th(s, i0, (n->mSuffix & DT__S_TH) != 0);
      break;
    }
    case DT__K_SSSS: {
      size_t i0 = s->n;
      strbuf_printf(s, "%lld", (long long)(in->hour * 3600 + tm->minute * 60 + tm->second));
      if (n->mSuffix & (DT__S_TH | DT__S_th)) dtc_th(s, i0, (n->mSuffix & DT__S_TH) != 0);
      break;
    }
    case DT__K_tz: case DT__K_TZ:
      if (tm->zAbbrev != NULL) {
        for (const char *z = tm->zAbbrev; *z; z++) {
          char c = *z;
          if (id == DT__K_tz && c >= 'A' && c <= 'Z') c = (char)(c + 32);
          strbuf_append(s, &c, 1);
        }
      }
      break;
    case DT__K_TZH:
      strbuf_printf(s, "%c%02d", tm->gmtoff >= 0 ? '+' : '-', abs(tm->gmtoff) / 3600);
      break;
    case DT__K_TZM:
      strbuf_printf(s, "%02d", abs(tm->gmtoff) % 3600 / 60);
      break;
    case DT__K_OF:
      strbuf_printf(s, "%c%0*d", tm->gmtoff >= 0 ? '+' : '-', (n->mSuffix & DT__S_FM) ? 0 : 2,
                    abs(tm->gmtoff) / 3600);
      if (abs(tm->gmtoff) % 3600 != 0) strbuf_printf(s, ":%02d", abs(tm->gmtoff) % 3600 / 60);
      break;
    case DT__K_A_D: case DT__K_B_C:
      strbuf_puts(s, tm->year <= 0 ? "B.C." : "A.D.");
      break;
    case DT__K_AD: case DT__K_BC:
      strbuf_puts(s, tm->year <= 0 ? "BC" : "AD");
      break;
    case DT__K_a_d: case DT__K_b_c:
      strbuf_puts(s, tm->year <= 0 ? "b.c." : "a.d.");
      break;
    case DT__K_ad: case DT__K_bc:
      strbuf_puts(s, tm->year <= 0 ? "bc" : "ad");
      break;
    case DT__K_MONTH: case DT__K_Month: case DT__K_month:
      if (tm->month == 0) break;
      dtc_name(s, n, dt__azMonthFull[tm->month - 1], id == DT__K_MONTH ? 1 : id == DT__K_month ? 2 : 0, 1);
      break;
    case DT__K_MON: case DT__K_Mon: case DT__K_mon:
      if (tm->month == 0) break;
      dtc_name(s, n, dt__azMonth[tm->month - 1], id == DT__K_MON ? 1 : id == DT__K_mon ? 2 : 0, 0);
      break;
    case DT__K_MM:
      dtc_num(s, n, tm->month, tm->month >= 0 ? 2 : 3);
      break;
    case DT__K_DAY: case DT__K_Day: case DT__K_day:
      dtc_name(s, n, dt__azDayFull[in->wday], id == DT__K_DAY ? 1 : id == DT__K_day ? 2 : 0, 1);
      break;
    case DT__K_DY: case DT__K_Dy: case DT__K_dy:
      dtc_name(s, n, dt__azDay[in->wday], id == DT__K_DY ? 1 : id == DT__K_dy ? 2 : 0, 0);
      break;
    case DT__K_DDD:
      dtc_num(s, n, in->yday, 3);
      break;
    case DT__K_IDDD:
      dtc_num(s, n, dt_date2j(tm->year, tm->month, tm->day) - dt__isoweek1(dt__isoyear(tm->year, tm->month, tm->day)) + 1, 3);
      break;
    case DT__K_DD:
      dtc_num(s, n, tm->day, 2);
      break;
    case DT__K_D:
      dtc_num(s, n, in->wday + 1, 0);
      break;
    case DT__K_ID:
      dtc_num(s, n, in->wday == 0 ? 7 : in->wday, 0);
      break;
    case DT__K_WW:
      dtc_num(s, n, (in->yday - 1) / 7 + 1, 2);
      break;
    case DT__K_IW:
      dtc_num(s, n, dt__isoweek(tm->year, tm->month, tm->day), 2);
      break;
    case DT__K_Q:
      if (tm->month == 0) break;
      dtc_num(s, n, (tm->month - 1) / 3 + 1, 0);
      break;
    case DT__K_CC:
      if (in->bInterval) i = tm->year / 100;
      else i = tm->year > 0 ? (tm->year - 1) / 100 + 1 : tm->year / 100 - 1;
      if (i <= 99 && i >= -99) dtc_num(s, n, i, i >= 0 ? 2 : 3);
      else dtc_num(s, n, i, 0);
      break;
    case DT__K_Y_YYY: {
      size_t i0 = s->n;
      y = dtc_year(in, tm->year);
      strbuf_printf(s, "%d,%03d", y / 1000, y - y / 1000 * 1000);
      if (n->mSuffix & (DT__S_TH | DT__S_th)) dtc_th(s, i0, (n->mSuffix & DT__S_TH) != 0);
      break;
    }
    case DT__K_YYYY: case DT__K_IYYY:
    case DT__K_YYY: case DT__K_IYY:
    case DT__K_YY: case DT__K_IY:
    case DT__K_Y: case DT__K_I: {
      int bIso = id == DT__K_IYYY || id == DT__K_IYY || id == DT__K_IY || id == DT__K_I;
      int nDigit = id == DT__K_YYYY || id == DT__K_IYYY ? 4 : id == DT__K_YYY || id == DT__K_IYY ? 3
                   : id == DT__K_YY || id == DT__K_IY ? 2 : 1;
      int yAdj = dtc_year(in, tm->year);
      y = bIso ? dtc_year(in, dt__isoyear(tm->year, tm->month, tm->day)) : yAdj;
      if (nDigit == 3) y %= 1000;
      else if (nDigit == 2) y %= 100;
      else if (nDigit == 1) y %= 10;
      if (nDigit == 1) {
        size_t i0 = s->n;
        strbuf_printf(s, "%1d", y);
        if (n->mSuffix & (DT__S_TH | DT__S_th)) dtc_th(s, i0, (n->mSuffix & DT__S_TH) != 0);
      } else {
        dtc_num(s, n, y, yAdj >= 0 ? nDigit : nDigit + 1);
      }
      break;
    }
    case DT__K_RM: case DT__K_rm:
      if (tm->month == 0 && tm->year == 0) break;
      {
        /* The table runs XII .. I; an interval's month may be 0 (whole
        ** years: XII, or I when negative) or negative (-1 is XII). */
        int iMon = tm->month == 0 ? (tm->year >= 0 ? 0 : 11)
                   : tm->month < 0 ? -(tm->month + 1) : 12 - tm->month;
        const char *z = dt__azRomanUpper[iMon];
        char zLow[8];
        size_t k;
        for (k = 0; z[k]; k++) zLow[k] = id == DT__K_rm ? (char)(z[k] + 32) : z[k];
        zLow[k] = 0;
        if (n->mSuffix & DT__S_FM) strbuf_puts(s, zLow);
        else strbuf_printf(s, "%-4s", zLow);
      }
      break;
    case DT__K_W:
      dtc_num(s, n, (tm->day - 1) / 7 + 1, 0);
      break;
    case DT__K_J:
      dtc_num(s, n, dt_date2j(tm->year, tm->month, tm->day), 0);
      break;
  }
  return 0;
}

int dt_to_char(dt_type eType, const void *pValue, const tz_zone *pZone, const char *zFmt,
               char **pz, sql_error *pErr) {
  dtc_in in;
  dt__node *aNode, *n;
  strbuf s;
  int rc = 0;
  *pz = NULL;
  memset(&in, 0, sizeof(in));
  if (zFmt[0] == 0) return 0;                /* NULL, as PostgreSQL */
  if (eType == DT_TYPE_INTERVAL) {
    dt_itm it;
    dt_interval_to_itm((const dt_interval *)pValue, &it);
    in.bInterval = 1;
    in.tm.year = it.year;
    in.tm.month = it.month;
    in.tm.day = it.day;
    in.hour = it.hour;
    in.tm.hour = (int)(it.hour % 24);
    in.tm.minute = it.minute;
    in.tm.second = it.second;
    in.tm.usec = (int)it.usec;
    in.yday = (it.year * 12 + it.month) * 30 + it.day;
  } else {
    int64_t ts = *(const int64_t *)pValue, jd;
    if (eType == DT_TYPE_DATE) {
      int32_t d = *(const int32_t *)pValue;
      if (d == DT_DATE_NOBEGIN || d == DT_DATE_NOEND) return 0;
      ts = (int64_t)d * DT_USECS_PER_DAY;
      eType = DT_TYPE_TIMESTAMP;
    }
    if (ts == DT_TS_NOBEGIN || ts == DT_TS_NOEND) return 0;   /* NULL */
    if (eType == DT_TYPE_TIMESTAMPTZ) dt_timestamptz_to_tm(ts, pZone, &in.tm);
    else dt_timestamp_to_tm(ts, &in.tm);
    in.hour = in.tm.hour;
    jd = dt_date2j(in.tm.year, in.tm.month, in.tm.day);
    in.wday = dt__j2day(jd);
    in.yday = (int)(jd - dt_date2j(in.tm.year, 1, 1) + 1);
  }
  aNode = dt__format_parse(zFmt);
  if (aNode == NULL) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return -1;
  }
  strbuf_init(&s);
  strbuf_puts(&s, "");
  for (n = aNode; n->eType != DT__N_END && rc == 0; n++) {
    if (n->eType == DT__N_ACTION) rc = dtc_action(&s, n, &in, pErr);
    else strbuf_puts(&s, n->zChar);
  }
  free(aNode);
  if (rc != 0 || strbuf_error(&s)) {
    if (rc == 0) sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    strbuf_free(&s);
    return -1;
  }
  *pz = strbuf_take(&s);
  return 0;
}
