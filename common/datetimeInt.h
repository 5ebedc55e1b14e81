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

#endif /* STARQ_DATETIMEINT_H */
