/*
** common/value.h — the text of one value to its stored form: a field the
** loader reads, a literal the planner compares with statistics or codegen
** passes to a kernel. All three must read text alike, so one parser
** serves them.
**
** The accepted spellings follow PostgreSQL's input functions, so a CSV that
** COPY accepts, starq accepts, with the same result:
**   SMALLINT, INTEGER, BIGINT  optional sign and decimal digits, surrounding
**                              blanks allowed; out of range is an error
**   DECIMAL(p,s)               [sign] digits [. digits] [e[sign]digits]; more
**                              than s fraction digits round half away from
**                              zero; more than p-s integer digits is an error
**   DOUBLE PRECISION           as strtod, plus NaN, Infinity, -Infinity
**   DATE                       yyyy-mm-dd or yyyymmdd (dbgen), a real
**                              calendar day from 0001-01-01 to 9999-12-31
**   CHAR(n), VARCHAR(n)        valid UTF-8 of at most n characters, kept
**                              exactly as given (never trimmed)
**   TEXT                       valid UTF-8
**
** INTERFACE ROUTINES
**   value_parse       a non-string value's text to its stored value
**   value_check_str   a string's UTF-8 and length limit
**   value_utf8_len    one UTF-8 sequence's length, 0 if it is not valid
**   value_utf8_invalid  where bytes stop being UTF-8, in PostgreSQL's words
**   value_date_ok     whether y-m-d is a calendar day starq stores
*/
#ifndef STARQ_VALUE_H
#define STARQ_VALUE_H

#include <stddef.h>

#include "coltype.h"

/* Parses z[0..n) (not NUL-terminated) as a non-string value of type t and
** stores it in *pOut (coltype_width(t) bytes). Returns 0, or -1 with zWhy
** saying what was expected, in words a user reads after "expected ...":
** "a whole number from -32768 to 32767", "a date as yyyy-mm-dd or
** yyyymmdd", "a number with at most 13 digits before the decimal point". */
int value_parse(coltype t, const char *z, size_t n, void *pOut, char *zWhy, size_t nWhy);

/* Checks that z[0..n) is a valid string of type t (UTF-8, length limit).
** Returns 0, or -1 with zWhy as above ("at most 10 characters, found 12"). */
int value_check_str(coltype t, const char *z, size_t n, char *zWhy, size_t nWhy);

/* Returns the length of the UTF-8 sequence at z[0..n) (1..4), or 0 if it
** is not valid RFC 3629 UTF-8 or is a NUL byte. The text parsers' fast
** paths call it on the bytes >= 0x80 of a string field. */
int value_utf8_len(const unsigned char *z, size_t n);

/* Returns the offset of the first byte of z[0..n) that starts no valid
** UTF-8 sequence (a NUL byte included), or n when all of it is valid.
** When it is not, writes PostgreSQL's words for it into zMsg: "invalid
** byte sequence for encoding \"UTF8\": 0xc3 0x28" (the bytes the lead
** byte claims, at most 8), for SQLSTATE 22021. */
size_t value_utf8_invalid(const char *z, size_t n, char *zMsg, size_t nMsg);

/* Returns 1 if y-m-d is a day of the proleptic Gregorian calendar between
** 0001-01-01 and 9999-12-31, else 0. Inline: the text parsers' fast path
** checks every yyyymmdd of a date column with it. */
static inline int value_date_ok(int y, int m, int d) {
  static const unsigned char aDays[13] = {0, 31, 28, 31, 30, 31, 30,
                                          31, 31, 30, 31, 30, 31};
  int nDay;
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1) return 0;
  nDay = aDays[m];
  if (m == 2 && (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))) nDay = 29;
  return d <= nDay;
}

#endif /* STARQ_VALUE_H */
