/*
** func/regex.c — POSIX regular expression matching, the functions behind
** the ~, ~*, !~ and !~* operators on text and name (textregexeq and its
** kin, with PostgreSQL's pg_proc oids): what catalog queries filter names
** with (psql turns its patterns into '^(name)$').
**
** PostgreSQL's regular expressions are its "advanced" flavour; this
** compiles them as POSIX extended ones (the C library's regcomp), with
** the class escapes \d \s \w and their negations rewritten into bracket
** expressions, in a UTF-8 locale so that '.' is one character. What ERE
** lacks (lookahead, back references, embedded options) fails to compile:
** 2201B, as an invalid pattern is in PostgreSQL.
**
** INTERFACE ROUTINES
**   func__groupRegex      this group's table (funcInt.h)
*/
#define _GNU_SOURCE
#include <locale.h>
#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strbuf.h"
#include "funcInt.h"

#define SQLSTATE_INVALID_REGEX "2201B"

/* The UTF-8 locale patterns compile and match in (NULL: the C locale's
** bytes, where there is none). */
static locale_t fregex_locale;
static pthread_once_t fregex_once = PTHREAD_ONCE_INIT;

static void fregex_locale_init(void) {
  fregex_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

/* Appends the ERE for pattern z[0..n) to s: \d, \s, \w (and \D, \S, \W)
** as bracket expressions, the rest as written. */
static void fregex_translate(const char *z, size_t n, strbuf *s) {
  for (size_t i = 0; i < n; i++) {
    if (z[i] == '\\' && i + 1 < n) {
      const char *zClass = NULL;
      switch (z[i + 1]) {
        case 'd': zClass = "[[:digit:]]"; break;
        case 'D': zClass = "[^[:digit:]]"; break;
        case 's': zClass = "[[:space:]]"; break;
        case 'S': zClass = "[^[:space:]]"; break;
        case 'w': zClass = "[[:alnum:]_]"; break;
        case 'W': zClass = "[^[:alnum:]_]"; break;
        default: break;
      }
      if (zClass != NULL) {
        strbuf_puts(s, zClass);
      } else {
        strbuf_append(s, &z[i], 2);
      }
      i++;
      continue;
    }
    strbuf_append(s, &z[i], 1);
  }
}

/* Whether text a matches pattern p (bIcase: ignoring case); 0 or 1 in
** *pb. Returns 0, or -1 with 2201B for a pattern that does not compile. */
static int fregex_match(const datum *a, const datum *p, int bIcase, int *pb, sql_error *pErr) {
  strbuf pat;
  regex_t re;
  char *zSubject;
  locale_t old = (locale_t)0;
  int rc;
  pthread_once(&fregex_once, fregex_locale_init);
  strbuf_init(&pat);
  fregex_translate(p->u.s.z, p->u.s.n, &pat);
  zSubject = strndup(a->u.s.z, a->u.s.n);
  if (strbuf_error(&pat) || zSubject == NULL) {
    strbuf_free(&pat);
    free(zSubject);
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return -1;
  }
  if (fregex_locale != (locale_t)0) old = uselocale(fregex_locale);
  rc = regcomp(&re, strbuf_str(&pat), REG_EXTENDED | REG_NOSUB | (bIcase ? REG_ICASE : 0));
  if (rc != 0) {
    char zMsg[256];
    regerror(rc, &re, zMsg, sizeof(zMsg));
    sql_error_set(pErr, SQLSTATE_INVALID_REGEX, -1, "invalid regular expression: %s", zMsg);
  } else {
    *pb = regexec(&re, zSubject, 0, NULL, 0) == 0;
    regfree(&re);
  }
  if (fregex_locale != (locale_t)0) uselocale(old);
  strbuf_free(&pat);
  free(zSubject);
  return rc != 0 ? -1 : 0;
}

/* The eight functions differ in case and negation only: bit 1 ignores
** case, bit 2 negates, read from the overload's eId. */
#define FREGEX_ICASE 1
#define FREGEX_NOT   2

static int fregex_call(int m, int nArg, const datum *aArg, datum *pOut, sql_error *pErr) {
  int b;
  (void)nArg;
  if (fregex_match(&aArg[0], &aArg[1], (m & FREGEX_ICASE) != 0, &b, pErr) != 0) return -1;
  *pOut = datum_bool((m & FREGEX_NOT) ? !b : b);
  return 0;
}

static int fregex_eq(func_ctx *c, int n, const datum *a, datum *o, sql_error *e) {
  (void)c;
  return fregex_call(0, n, a, o, e);
}
static int fregex_ne(func_ctx *c, int n, const datum *a, datum *o, sql_error *e) {
  (void)c;
  return fregex_call(FREGEX_NOT, n, a, o, e);
}
static int fregex_ieq(func_ctx *c, int n, const datum *a, datum *o, sql_error *e) {
  (void)c;
  return fregex_call(FREGEX_ICASE, n, a, o, e);
}
static int fregex_ine(func_ctx *c, int n, const datum *a, datum *o, sql_error *e) {
  (void)c;
  return fregex_call(FREGEX_ICASE | FREGEX_NOT, n, a, o, e);
}

#define T_ COLTYPE_TEXT
#define N_ COLTYPE_NAME
#define B_ COLTYPE_BOOLEAN

/* eId: 9200 up, this group's. */
static const func_def fregex_aDef[] = {
    {"nameicregexeq", 1240, 9201, FUNC_SCALAR, 2, {N_, T_}, B_, FUNC_STRICT, fregex_ieq},
    {"nameicregexne", 1241, 9202, FUNC_SCALAR, 2, {N_, T_}, B_, FUNC_STRICT, fregex_ine},
    {"nameregexeq", 79, 9203, FUNC_SCALAR, 2, {N_, T_}, B_, FUNC_STRICT, fregex_eq},
    {"nameregexne", 1252, 9204, FUNC_SCALAR, 2, {N_, T_}, B_, FUNC_STRICT, fregex_ne},
    {"texticregexeq", 1238, 9205, FUNC_SCALAR, 2, {T_, T_}, B_, FUNC_STRICT, fregex_ieq},
    {"texticregexne", 1239, 9206, FUNC_SCALAR, 2, {T_, T_}, B_, FUNC_STRICT, fregex_ine},
    {"textregexeq", 1254, 9207, FUNC_SCALAR, 2, {T_, T_}, B_, FUNC_STRICT, fregex_eq},
    {"textregexne", 1256, 9208, FUNC_SCALAR, 2, {T_, T_}, B_, FUNC_STRICT, fregex_ne},
};

const func_group func__groupRegex = {fregex_aDef,
                                     (int)(sizeof(fregex_aDef) / sizeof(fregex_aDef[0]))};
