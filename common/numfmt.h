/*
** common/numfmt.h — to_char of numbers as PostgreSQL 15 writes them:
** numeric (and so every integer type, which PostgreSQL prints the same
** way) and float8, with the patterns 9 0 . , D G S PL MI SG PR FM B L TH
** th V RN EEEE and "quoted text". The locale is C, as starq's: D is '.',
** G is ',', L is a blank.
**
** INTERFACE ROUTINES
**   numfmt_numeric   to_char(numeric, text)
**   numfmt_double    to_char(float8, text)
*/
#ifndef STARQ_NUMFMT_H
#define STARQ_NUMFMT_H

#include "numeric.h"
#include "sqlerr.h"

/* Writes a formatted as zFmt says into a malloc'd *pz (NULL for an empty
** format, as PostgreSQL's NULL). Returns 0, or -1 with pErr: PostgreSQL's
** 42601 for a bad format ("multiple decimal points", "EEEE must be the
** last pattern used", ...), 22003 where the value does not fit. */
int numfmt_numeric(const numeric *a, const char *zFmt, char **pz, sql_error *pErr);

/* The same for a float8, by PostgreSQL's float rules (digits from
** printf's %.*f, 15 significant at most; EEEE through %+.*e). */
int numfmt_double(double d, const char *zFmt, char **pz, sql_error *pErr);

#endif /* STARQ_NUMFMT_H */
