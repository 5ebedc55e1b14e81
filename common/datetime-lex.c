/*
** common/datetime-lex.c — cutting date, time and interval text into
** fields, as PostgreSQL's ParseDateTime does, and the small readers and
** error messages the date/time and interval parsers share
** (datetimeInt.h).
**
** Text is lower-cased into at most 25 fields, each typed by its first
** characters: digits (a number, a date with - / or ., a time with
** colons), letters (a word, or a zone name when punctuation follows and
** the word is not a keyword), a sign (an offset, or "-infinity"); blanks
** separate fields and other punctuation is dropped ("January 1, 1998").
**
** INTERFACE ROUTINES
**   dt__lex, dt__parse_error, dt__strtoint, dt__fraction, dt__offset_parse
*/
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datetimeInt.h"

/* ---- helpers ----------------------------------------------------------------- */

static int dtp_is_digit(char c) {
  return c >= '0' && c <= '9';
}

static int dtp_is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int dtp_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static char dtp_lower(char c) {
  return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

const char *dt__strtoint(const char *z, int *pv, int *pbRange) {
  long long v = 0;
  int bNeg = 0;
  *pbRange = 0;
  while (dtp_is_space(*z)) z++;
  if (*z == '+' || *z == '-') bNeg = *z++ == '-';
  if (!dtp_is_digit(*z)) {
    *pv = 0;
    return NULL;
  }
  while (dtp_is_digit(*z)) {
    if (v <= (long long)INT_MAX + 1) v = v * 10 + (*z - '0');
    z++;
  }
  if (bNeg) v = -v;
  if (v > INT_MAX || v < INT_MIN) *pbRange = 1;
  *pv = (int)v;
  return z;
}

int dt__fraction(const char *z, int64_t *pUsec) {
  char *zEnd;
  double f = 0;
  /* "." alone is a zero fraction (some strtod refuse it). */
  if (z[1] != 0) {
    errno = 0;
    f = strtod(z, &zEnd);
    if (*zEnd != 0 || errno != 0 || zEnd == z) return DT__E_BAD_FORMAT;
  }
  *pUsec = (int64_t)rint(f * 1000000);
  return 0;
}

int dt__offset_parse(const char *z, int *pGmtoff) {
  int h, m = 0, s = 0, bRange;
  const char *p;
  if (*z != '+' && *z != '-') return DT__E_BAD_FORMAT;
  p = dt__strtoint(z + 1, &h, &bRange);
  if (p == NULL) return DT__E_BAD_FORMAT;
  if (bRange) return DT__E_TZDISP_OVERFLOW;
  if (*p == ':') {
    p = dt__strtoint(p + 1, &m, &bRange);
    if (p == NULL) return DT__E_BAD_FORMAT;
    if (bRange) return DT__E_TZDISP_OVERFLOW;
    if (*p == ':') {
      p = dt__strtoint(p + 1, &s, &bRange);
      if (p == NULL) return DT__E_BAD_FORMAT;
      if (bRange) return DT__E_TZDISP_OVERFLOW;
    }
  } else if (*p == 0 && strlen(z) > 3) {
    m = h % 100;                              /* hhmm run together */
    h /= 100;
  }
  if (h < 0 || h > 15 || m < 0 || m >= 60 || s < 0 || s >= 60) return DT__E_TZDISP_OVERFLOW;
  *pGmtoff = ((h * 60 + m) * 60 + s) * (*z == '-' ? -1 : 1);
  return *p == 0 ? 0 : DT__E_BAD_FORMAT;
}

void dt__parse_error(int rc, const char *z, size_t n, const char *zType, sql_error *pErr) {
  switch (rc) {
    case DT__E_FIELD_OVERFLOW:
    case DT__E_MD_FIELD_OVERFLOW:
      sql_error_set(pErr, SQLSTATE_INVALID_DATETIME, -1,
                    "date/time field value out of range: \"%.*s\"", (int)n, z);
      break;
    case DT__E_INTERVAL_OVERFLOW:
      sql_error_set(pErr, "22015", -1, "interval field value out of range: \"%.*s\"", (int)n, z);
      break;
    case DT__E_TZDISP_OVERFLOW:
      sql_error_set(pErr, "22009", -1, "time zone displacement out of range: \"%.*s\"", (int)n,
                    z);
      break;
    default:
      sql_error_set(pErr, SQLSTATE_INVALID_DATETIME_FORMAT, -1,
                    "invalid input syntax for type %s: \"%.*s\"", zType, (int)n, z);
      break;
  }
}

/* ---- the lexer ----------------------------------------------------------------- */

/* Appends c to field f (lower case); returns -1 if it is full. */
static int dtp_put(dt__field *f, size_t *pn, char c) {
  if (*pn + 1 >= sizeof(f->z)) return -1;
  f->z[(*pn)++] = dtp_lower(c);
  f->z[*pn] = 0;
  return 0;
}

int dt__lex(const char *z, size_t n, dt__field *aField) {
  size_t i = 0;
  int nf = 0;
  while (i < n) {
    dt__field *f;
    size_t k = 0;
    if (dtp_is_space(z[i])) {
      i++;
      continue;
    }
    if (nf >= DT__FIELDS_MAX) return DT__E_BAD_FORMAT;
    f = &aField[nf];
    f->z[0] = 0;
#define DTP_PUT(c)                           \
  do {                                       \
    if (dtp_put(f, &k, (c)) != 0) return DT__E_BAD_FORMAT; \
  } while (0)
    if (dtp_is_digit(z[i])) {
      while (i < n && dtp_is_digit(z[i])) DTP_PUT(z[i++]);
      if (i < n && z[i] == ':') {
        f->eKind = DT__F_TIME;
        while (i < n && (dtp_is_digit(z[i]) || z[i] == ':' || z[i] == '.')) DTP_PUT(z[i++]);
      } else if (i < n && (z[i] == '-' || z[i] == '/' || z[i] == '.')) {
        char cDelim = z[i];
        DTP_PUT(z[i++]);
        if (i < n && dtp_is_digit(z[i])) {
          f->eKind = cDelim == '.' ? DT__F_NUMBER : DT__F_DATE;
          while (i < n && dtp_is_digit(z[i])) DTP_PUT(z[i++]);
          if (i < n && z[i] == cDelim) {     /* three fields need matching delimiters */
            f->eKind = DT__F_DATE;
            DTP_PUT(z[i++]);
            while (i < n && (dtp_is_digit(z[i]) || z[i] == cDelim)) DTP_PUT(z[i++]);
          }
        } else {
          f->eKind = DT__F_DATE;
          while (i < n && (dtp_is_digit(z[i]) || dtp_is_alpha(z[i]) || z[i] == cDelim)) {
            DTP_PUT(z[i++]);
          }
        }
      } else {
        f->eKind = DT__F_NUMBER;
      }
    } else if (z[i] == '.') {
      DTP_PUT(z[i++]);
      while (i < n && dtp_is_digit(z[i])) DTP_PUT(z[i++]);
      f->eKind = DT__F_NUMBER;
    } else if (dtp_is_alpha(z[i])) {
      int bDate = 0;
      f->eKind = DT__F_STRING;
      while (i < n && dtp_is_alpha(z[i])) DTP_PUT(z[i++]);
      /* A zone name may go on with punctuation ("america/new_york",
      ** "etc/gmt+5"); after a digit or '+' only if the word so far is not
      ** one of the keywords ("t" before a time). */
      if (i < n && (z[i] == '-' || z[i] == '/' || z[i] == '.')) {
        bDate = 1;
      } else if (i < n && (z[i] == '+' || dtp_is_digit(z[i]))) {
        bDate = !dt__word_is_keyword(f->z);
      }
      if (bDate) {
        f->eKind = DT__F_DATE;
        do {
          DTP_PUT(z[i++]);
        } while (i < n && (z[i] == '+' || z[i] == '-' || z[i] == '/' || z[i] == '_' ||
                           z[i] == '.' || z[i] == ':' || dtp_is_digit(z[i]) ||
                           dtp_is_alpha(z[i])));
      }
    } else if (z[i] == '+' || z[i] == '-') {
      DTP_PUT(z[i++]);
      while (i < n && dtp_is_space(z[i])) i++;
      if (i < n && dtp_is_digit(z[i])) {
        f->eKind = DT__F_TZ;
        DTP_PUT(z[i++]);
        while (i < n && (dtp_is_digit(z[i]) || z[i] == ':' || z[i] == '.' || z[i] == '-')) {
          DTP_PUT(z[i++]);
        }
      } else if (i < n && dtp_is_alpha(z[i])) {
        f->eKind = DT__F_SPECIAL;
        while (i < n && dtp_is_alpha(z[i])) DTP_PUT(z[i++]);
      } else {
        return DT__E_BAD_FORMAT;
      }
    } else if ((unsigned char)z[i] < 0x80 && z[i] > ' ' && z[i] != 0x7f) {
      i++;                                   /* other punctuation is ignored */
      continue;
    } else {
      return DT__E_BAD_FORMAT;
    }
#undef DTP_PUT
    nf++;
  }
  return nf;
}

