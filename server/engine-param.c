/*
** server/engine-param.c — bound parameters ($1, $2 ...) of the extended
** protocol. starq's grammar has no parameter markers, so a statement's
** parameters are put into its text as literals before it is parsed: a
** number the client typed as a number goes in as written (checked to be
** one), anything else as a quoted string literal, which the binder types
** from its context as PostgreSQL types an unknown literal ('25' compared
** with an INTEGER column is 25); SQL NULL as NULL. Markers are found with
** the lexer, so a "$1" inside a string, a quoted name or a comment is
** left alone.
**
** INTERFACE ROUTINES
**   engine_param_count     the highest $n in a statement
**   engine_param_bind      the statement with its parameters in place
*/
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/parser.h"
#include "engine.h"

/* Returns n if z starts a parameter marker "$n" (n in 1..65535), and sets
** *pnLen to its length; else 0. */
static int param_marker(const char *z, int *pnLen) {
  int n = 0, i = 1;
  if (z[0] != '$' || !isdigit((unsigned char)z[1])) return 0;
  while (isdigit((unsigned char)z[i]) && n <= 65535) n = n * 10 + (z[i++] - '0');
  if (n < 1 || n > 65535 || isalnum((unsigned char)z[i]) || z[i] == '_') return 0;
  *pnLen = i;
  return n;
}

/* Walks zSql's tokens, calling xMarker for each parameter marker. */
static void param_walk(const char *zSql, void (*xMarker)(void *, int, size_t, int), void *pArg) {
  size_t i = 0;
  while (zSql[i]) {
    sql_token_class e;
    int nTok, nMark = 0, iParam = param_marker(zSql + i, &nMark);
    if (iParam > 0) {
      xMarker(pArg, iParam, i, nMark);
      i += (size_t)nMark;
      continue;
    }
    nTok = sql_token_next(zSql + i, &e);
    if (nTok <= 0) nTok = 1;
    i += (size_t)nTok;
  }
}

static void param_max(void *pArg, int iParam, size_t iOff, int nLen) {
  int *pn = pArg;
  (void)iOff;
  (void)nLen;
  if (iParam > *pn) *pn = iParam;
}

int engine_param_count(const char *zSql) {
  int n = 0;
  param_walk(zSql, param_max, &n);
  return n;
}

/* Returns 1 if z is a plain decimal number: [+-]digits[.digits][e[+-]digits]. */
static int param_is_number(const char *z) {
  int nDigit = 0;
  if (*z == '+' || *z == '-') z++;
  while (isdigit((unsigned char)*z)) z++, nDigit++;
  if (*z == '.') {
    z++;
    while (isdigit((unsigned char)*z)) z++, nDigit++;
  }
  if (nDigit == 0) return 0;
  if (*z == 'e' || *z == 'E') {
    z++;
    if (*z == '+' || *z == '-') z++;
    if (!isdigit((unsigned char)*z)) return 0;
    while (isdigit((unsigned char)*z)) z++;
  }
  return *z == 0;
}

static int param_type_numeric(uint32_t iType) {
  return iType == PGWIRE_OID_INT2 || iType == PGWIRE_OID_INT4 || iType == PGWIRE_OID_INT8 ||
         iType == PGWIRE_OID_FLOAT4 || iType == PGWIRE_OID_FLOAT8 || iType == PGWIRE_OID_NUMERIC ||
         iType == PGWIRE_OID_OID;
}

/* The state of one substitution. */
typedef struct param_subst param_subst;
struct param_subst {
  const char *zSql;
  const pg_param *aParam;
  int nParam;
  strbuf out;
  size_t iDone;            /* zSql bytes copied so far */
  int iMissing;            /* a marker past nParam, or 0 */
};

static void param_put(void *pArg, int iParam, size_t iOff, int nLen) {
  param_subst *p = pArg;
  const pg_param *v;
  strbuf_append(&p->out, p->zSql + p->iDone, iOff - p->iDone);
  p->iDone = iOff + (size_t)nLen;
  if (iParam > p->nParam) {
    if (p->iMissing == 0) p->iMissing = iParam;
    return;
  }
  v = &p->aParam[iParam - 1];
  if (v->z == NULL) {
    strbuf_puts(&p->out, "NULL");
  } else if (param_type_numeric(v->iType) && param_is_number(v->z)) {
    strbuf_printf(&p->out, "(%s)", v->z);
  } else {
    strbuf_puts(&p->out, "'");
    for (const char *z = v->z; *z; z++) {
      if (*z == '\'') strbuf_puts(&p->out, "'");
      strbuf_append(&p->out, z, 1);
    }
    strbuf_puts(&p->out, "'");
  }
}

char *engine_param_bind(const char *zSql, int nParam, const pg_param *aParam, char *zErr,
                        size_t nErr) {
  param_subst p;
  memset(&p, 0, sizeof(p));
  p.zSql = zSql;
  p.aParam = aParam;
  p.nParam = nParam;
  strbuf_init(&p.out);
  param_walk(zSql, param_put, &p);
  strbuf_puts(&p.out, zSql + p.iDone);
  if (p.iMissing) {
    snprintf(zErr, nErr, "there is no parameter $%d", p.iMissing);
    strbuf_free(&p.out);
    return NULL;
  }
  if (strbuf_error(&p.out)) {
    snprintf(zErr, nErr, "out of memory");
    strbuf_free(&p.out);
    return NULL;
  }
  return strbuf_take(&p.out);
}
