/*
** func/array.c — the array functions catalog queries call:
** array_to_string() (psql prints aclitem[] and text[] columns with it),
** array_upper(), array_lower() and cardinality(). Arrays are
** one-dimensional datums (common/datum.h) with lower bound 1, which is
** all pg_catalog's relations hold.
**
** INTERFACE ROUTINES
**   func__groupArray      this group's table (funcInt.h)
*/
#include <stdio.h>
#include <string.h>

#include "funcInt.h"

/* Appends element d's text: strings as they are, integers and booleans
** as PostgreSQL writes them. Returns 0, or -1 with 0A000 for an element
** type this file does not write. */
static int farr_elem_text(const datum *d, strbuf *s, sql_error *pErr) {
  switch (d->type.eId) {
    case COLTYPE_CHAR: case COLTYPE_VARCHAR: case COLTYPE_TEXT: case COLTYPE_NAME:
    case COLTYPE_PGCHAR: case COLTYPE_ACLITEM: case COLTYPE_UNKNOWN:
      strbuf_append(s, d->u.s.z, d->u.s.n);
      return 0;
    case COLTYPE_SMALLINT: case COLTYPE_INTEGER: case COLTYPE_BIGINT: case COLTYPE_REGNAMESPACE:
      strbuf_printf(s, "%lld", (long long)d->u.i);
      return 0;
    case COLTYPE_OID: case COLTYPE_XID:
      strbuf_printf(s, "%lu", (unsigned long)(uint32_t)d->u.i);
      return 0;
    case COLTYPE_BOOLEAN:
      strbuf_puts(s, d->u.i ? "t" : "f");
      return 0;
    default:
      sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                    "array_to_string over this element type is not supported yet");
      return -1;
  }
}

/* array_to_string(array, delimiter [, null_string]): the elements'
** text joined by the delimiter; NULL elements left out, or written as
** null_string when one is given and not NULL. */
static int farr_to_string(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                          sql_error *pErr) {
  const datum *pArr = &aArg[0], *pDelim = &aArg[1];
  const datum *pNull = nArg > 2 && !aArg[2].bNull ? &aArg[2] : NULL;
  strbuf s;
  int nOut = 0, rc = 0;
  if (pArr->bNull || pDelim->bNull) {
    *pOut = datum_null(COLTYPE_TEXT);
    return 0;
  }
  strbuf_init(&s);
  for (uint32_t i = 0; i < pArr->u.a.n && rc == 0; i++) {
    const datum *e = &pArr->u.a.a[i];
    if (e->bNull && pNull == NULL) continue;
    if (nOut++ > 0) strbuf_append(&s, pDelim->u.s.z, pDelim->u.s.n);
    if (e->bNull) strbuf_append(&s, pNull->u.s.z, pNull->u.s.n);
    else rc = farr_elem_text(e, &s, pErr);
  }
  if (rc == 0) rc = strbuf_error(&s) ? (sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory"), -1)
                                     : func__text(pCtx, COLTYPE_TEXT, strbuf_str(&s), pOut, pErr);
  strbuf_free(&s);
  return rc;
}

/* array_upper(array, dim), array_lower(array, dim), cardinality(array):
** NULL for an empty array or a dimension it does not have. */
static int farr_bound(int bUpper, const datum *aArg, datum *pOut) {
  if (aArg[1].u.i != 1 || aArg[0].u.a.n == 0) {
    *pOut = datum_null(COLTYPE_INTEGER);
  } else {
    *pOut = datum_int(COLTYPE_INTEGER, bUpper ? (int64_t)aArg[0].u.a.n : 1);
  }
  return 0;
}
static int farr_upper(func_ctx *c, int n, const datum *a, datum *o, sql_error *e) {
  (void)c, (void)n, (void)e;
  return farr_bound(1, a, o);
}
static int farr_lower(func_ctx *c, int n, const datum *a, datum *o, sql_error *e) {
  (void)c, (void)n, (void)e;
  return farr_bound(0, a, o);
}
static int farr_cardinality(func_ctx *c, int n, const datum *a, datum *o, sql_error *e) {
  (void)c, (void)n, (void)e;
  *o = datum_int(COLTYPE_INTEGER, (int64_t)a[0].u.a.n);
  return 0;
}

#define A_ COLTYPE_ANYARRAY
#define T_ COLTYPE_TEXT
#define I_ COLTYPE_INTEGER

/* eId: 9300 up, this group's. */
static const func_def farr_aDef[] = {
    {"array_lower", 2091, 9301, FUNC_SCALAR, 2, {A_, I_}, I_, FUNC_STRICT, farr_lower},
    {"array_to_string", 395, 9302, FUNC_SCALAR, 2, {A_, T_}, T_, FUNC_STRICT | FUNC_STABLE,
     farr_to_string},
    {"array_to_string", 384, 9303, FUNC_SCALAR, 3, {A_, T_, T_}, T_, FUNC_STABLE, farr_to_string},
    {"array_upper", 2092, 9304, FUNC_SCALAR, 2, {A_, I_}, I_, FUNC_STRICT, farr_upper},
    {"cardinality", 3179, 9305, FUNC_SCALAR, 1, {A_}, I_, FUNC_STRICT, farr_cardinality},
};

const func_group func__groupArray = {farr_aDef, (int)(sizeof(farr_aDef) / sizeof(farr_aDef[0]))};
