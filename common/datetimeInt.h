/*
** common/datetimeInt.h — what the datetime*.c files share and nothing
** else includes: the lexer that cuts date/time text into fields (used by
** the date/time parser and the interval parser alike, as PostgreSQL's
** ParseDateTime serves both), the parse errors, and small helpers.
*/
#ifndef STARQ_DATETIMEINT_H
#define STARQ_DATETIMEINT_H

#include "datetime.h"

/* Field kinds, as the lexer classifies them (PostgreSQL's DTK_*). */
enum {
  DT__F_NUMBER,            /* digits, maybe with '.': 1998, 19980101, 040506.7 */
  DT__F_STRING,            /* letters: jan, pm, utc, t */
  DT__F_DATE,              /* digits and -/. : 1998-01-01, 1-jan-1998, a zone name */
  DT__F_TIME,              /* digits and colons: 04:05:06.789 */
  DT__F_TZ,                /* a sign then digits: -08, +05:30 */
  DT__F_SPECIAL,           /* a sign then letters: -infinity */
};

#define DT__FIELDS_MAX 25
#define DT__FIELD_LEN 64

typedef struct dt__field dt__field;
struct dt__field {
  int eKind;
  char z[DT__FIELD_LEN];   /* lower case */
};

/* Parse errors (PostgreSQL's DTERR_*); dt__parse_error spells them. */
enum {
  DT__E_BAD_FORMAT = -1,         /* 22007 invalid input syntax for type T: "z" */
  DT__E_FIELD_OVERFLOW = -2,     /* 22008 date/time field value out of range: "z" */
  DT__E_MD_FIELD_OVERFLOW = -3,  /* the same, a month/day order problem */
  DT__E_INTERVAL_OVERFLOW = -4,  /* 22015 interval field value out of range: "z" */
  DT__E_TZDISP_OVERFLOW = -5,    /* 22009 time zone displacement out of range: "z" */
};

/* Cuts z[0..n) into at most DT__FIELDS_MAX fields, lower case. Returns the
** count, or DT__E_BAD_FORMAT. */
int dt__lex(const char *z, size_t n, dt__field *aField);

/* Returns 1 if zLower is one of the core date/time words (datetime-parse.c),
** which the lexer checks before taking a word followed by a digit or '+'
** as a zone name. */
int dt__word_is_keyword(const char *zLower);

/* Records parse error rc for input z[0..n) of type zType ("timestamp"). */
void dt__parse_error(int rc, const char *z, size_t n, const char *zType, sql_error *pErr);

/* strtol for a field: [sign] digits, into an int. Returns the text after
** them; *pbRange if the value does not fit an int. */
const char *dt__strtoint(const char *z, int *pv, int *pbRange);

/* PostgreSQL's ParseFractionalSecond: ".ddd" (all of z) as microseconds,
** rint(strtod(z) * 1e6). Returns 0 or DT__E_BAD_FORMAT. */
int dt__fraction(const char *z, int64_t *pUsec);

/* A numeric zone offset "+hh", "-hh:mm", "+hhmm", "+hh:mm:ss" as seconds
** east. Returns 0, DT__E_BAD_FORMAT or DT__E_TZDISP_OVERFLOW. */
int dt__offset_parse(const char *z, int *pGmtoff);

/* PostgreSQL's IS_VALID_JULIAN: y-m lies where Julian days are computed
** (from 4714-11 BC to 5874898-06), days not looked at. */
static inline int dt__julian_ok(int y, int m) {
  return (y > -4713 || (y == -4713 && m >= 11)) && (y < 5874898 || (y == 5874898 && m < 6));
}

/* Day jd (Julian) and usec microseconds into it, less gmtoff seconds, as
** microseconds since 2000-01-01: 0, or -1 if it overflows 64 bits or
** leaves the timestamp range. */
static inline int dt__ts_compose(int64_t jd, int64_t usec, int64_t gmtoff, int64_t *pTs) {
  int64_t ts;
  if (__builtin_mul_overflow(jd - DT_EPOCH_JD, DT_USECS_PER_DAY, &ts) ||
      __builtin_add_overflow(ts, usec - gmtoff * DT_USECS_PER_SEC, &ts)) {
    return -1;
  }
  if (ts < DT_TS_MIN || ts >= DT_TS_END) return -1;
  *pTs = ts;
  return 0;
}

/* ---- to_char formats (datetime-tochar.c, datetime-fromchar.c) ---------------- */

/* The patterns of a date/time format (PostgreSQL's DCH_* keywords). */
enum {
  DT__K_A_D, DT__K_A_M, DT__K_AD, DT__K_AM, DT__K_B_C, DT__K_BC, DT__K_CC, DT__K_DAY,
  DT__K_DDD, DT__K_DD, DT__K_DY, DT__K_Day, DT__K_Dy, DT__K_D, DT__K_FF1, DT__K_FF2,
  DT__K_FF3, DT__K_FF4, DT__K_FF5, DT__K_FF6, DT__K_FX, DT__K_HH24, DT__K_HH12, DT__K_HH,
  DT__K_IDDD, DT__K_ID, DT__K_IW, DT__K_IYYY, DT__K_IYY, DT__K_IY, DT__K_I, DT__K_J,
  DT__K_MI, DT__K_MM, DT__K_MONTH, DT__K_MON, DT__K_MS, DT__K_Month, DT__K_Mon, DT__K_OF,
  DT__K_P_M, DT__K_PM, DT__K_Q, DT__K_RM, DT__K_SSSS, DT__K_SS, DT__K_TZH, DT__K_TZM,
  DT__K_TZ, DT__K_US, DT__K_WW, DT__K_W, DT__K_Y_YYY, DT__K_YYYY, DT__K_YYY, DT__K_YY,
  DT__K_Y, DT__K_a_d, DT__K_a_m, DT__K_ad, DT__K_am, DT__K_b_c, DT__K_bc, DT__K_day,
  DT__K_dy, DT__K_month, DT__K_mon, DT__K_p_m, DT__K_pm, DT__K_rm, DT__K_tz,
};

/* Suffix bits of a pattern. */
#define DT__S_FM 0x01          /* FM: no padding */
#define DT__S_TM 0x02          /* TM: "translated" names (C locale: unpadded) */
#define DT__S_TH 0x04          /* TH: ordinal, upper case */
#define DT__S_th 0x08          /* th: ordinal, lower case */
#define DT__S_SP 0x10          /* SP: accepted, does nothing (as PostgreSQL) */

/* What a pattern reads as, for to_timestamp (PostgreSQL's date_mode). */
enum { DT__MODE_NONE, DT__MODE_GREGORIAN, DT__MODE_ISOWEEK };

typedef struct dt__keyword dt__keyword;
struct dt__keyword {
  const char *zName;
  int nLen;
  int eId;
  int bDigit;              /* reads digits (to_timestamp's field widths) */
  int eMode;
};

/* One node of a parsed format: a pattern, or one literal character
** (a separator, a space, or other text). */
enum { DT__N_ACTION, DT__N_CHAR, DT__N_SEPARATOR, DT__N_SPACE, DT__N_END };
typedef struct dt__node dt__node;
struct dt__node {
  int eType;
  const dt__keyword *pKey; /* DT__N_ACTION */
  int mSuffix;
  char zChar[8];           /* one UTF-8 character otherwise */
};

/* Parses format zFmt into a malloc'd array of nodes ended by DT__N_END.
** Returns NULL if memory ran out. */
dt__node *dt__format_parse(const char *zFmt);

/* Day of week (0 = Sunday), ISO week and ISO year as PostgreSQL's j2day,
** date2isoweek and date2isoyear (datetime-field.c). */
int dt__j2day(int64_t jd);
int dt__isoweek(int y, int m, int d);
int dt__isoyear(int y, int m, int d);
/* The Julian day of Monday of ISO week 1 of year y. */
int64_t dt__isoweek1(int y);

/* Month and day names, as PostgreSQL's months_full, months, days, days_short. */
extern const char *const dt__azMonthFull[12];
extern const char *const dt__azMonth[12];
extern const char *const dt__azDayFull[7];
extern const char *const dt__azDay[7];
extern const char *const dt__azRomanUpper[12];   /* "XII" .. "I" */

#endif /* STARQ_DATETIMEINT_H */
