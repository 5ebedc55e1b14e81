/*
** loader/value.h — one field of text to one stored value.
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
*/
#ifndef STARQ_LOAD_VALUE_H
#define STARQ_LOAD_VALUE_H

#include <stddef.h>

#include "../common/coltype.h"

/* Parses z[0..n) (not NUL-terminated) as a non-string value of type t and
** stores it in *pOut (coltype_width(t) bytes). Returns 0, or -1 with zWhy
** saying what was expected, in words a user reads after "expected ...":
** "a whole number from -32768 to 32767", "a date as yyyy-mm-dd or
** yyyymmdd", "a number with at most 13 digits before the decimal point". */
int load_value_parse(coltype t, const char *z, size_t n, void *pOut,
                     char *zWhy, size_t nWhy);

/* Checks that z[0..n) is a valid string of type t (UTF-8, length limit).
** Returns 0, or -1 with zWhy as above ("at most 10 characters, found 12"). */
int load_value_check_str(coltype t, const char *z, size_t n, char *zWhy, size_t nWhy);

#endif /* STARQ_LOAD_VALUE_H */
