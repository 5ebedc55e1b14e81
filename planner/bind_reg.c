/*
** planner/bind_reg.c — casts to oid and to the object identifier types
** (regclass, regtype, regnamespace, regproc) in host queries: psql's
** conrelid::pg_catalog.regclass, 'public.t'::regclass, reloftype::regtype.
** A value of these types is an oid, so a cast between them and the
** integers only changes the type; their text is a name that func/reg.c
** reads and writes when the host executor runs the statement. A literal
** is looked up here already, so that a name nothing has fails at its
** position, as in PostgreSQL, and runs as the oid it named.
**
** Kernels know none of these types: outside a host query the cast is
** refused as before (0A000).
**
** INTERFACE ROUTINES
**   bind__is_oid_type, bind__reg_literal, bind__reg_cast  (bindInt.h)
*/
#include <stdio.h>
#include <string.h>

#include "../catalog/vrel.h"
#include "../func/func.h"
#include "bindInt.h"

int bind__is_oid_type(coltype_id e) {
  return e == COLTYPE_OID || e == COLTYPE_REGCLASS || e == COLTYPE_REGTYPE || e == COLTYPE_REGPROC ||
         e == COLTYPE_REGNAMESPACE;
}

int bind__reg_literal(bind_ctx *p, sql_expr *a, coltype t) {
  func_ctx fc;
  datum v;
  char zOid[16], *z;
  const char *zText = a->zText != NULL ? a->zText : "";
  if (a->eKind != SQL_EXPR_STRING || p->pEnv == NULL || !p->pEnv->bHostFuncs) return 0;
  memset(&fc, 0, sizeof(fc));
  fc.pArena = p->pArena;
  fc.pCat = p->pCat;
  fc.xVrelFind = vrel_find;
  fc.xVrelEach = vrel_each;
  if (func_reg_in(&fc, t.eId, zText, strlen(zText), &v, p->pErr) != 0) {
    p->pErr->iOffset = a->iOffset;
    return -1;
  }
  snprintf(zOid, sizeof(zOid), "%lu", (unsigned long)(uint32_t)v.u.i);
  if ((z = arena_alloc(p->pArena, strlen(zOid) + 1)) == NULL) return bind__oom(p);
  memcpy(z, zOid, strlen(zOid) + 1);
  a->zText = z;
  a->b.type = t;
  return 0;
}

int bind__reg_cast(bind_ctx *p, sql_expr *e) {
  sql_expr *a = e->pLeft;
  coltype t = e->castType;
  coltype_id ef = a->b.type.eId;
  if (!bind__is_oid_type(t.eId) || e->nCastDim > 0 || p->pEnv == NULL || !p->pEnv->bHostFuncs) return 1;
  if (a->eKind == SQL_EXPR_STRING) {
    if (bind__reg_literal(p, a, t) != 0) return -1;
  } else if (!bind__is_unknown(a) && !bind__is_oid_type(ef) && ef != COLTYPE_SMALLINT &&
             ef != COLTYPE_INTEGER && ef != COLTYPE_BIGINT && ef != COLTYPE_TEXT &&
             ef != COLTYPE_VARCHAR && ef != COLTYPE_CHAR && ef != COLTYPE_NAME) {
    sql_error_set(p->pErr, SQLSTATE_CANNOT_COERCE, e->iOffset, "cannot cast type %s to %s",
                  bind__coltype_name(a->b.type), bind__coltype_name(t));
    return -1;
  }
  e->b.type = t;
  return 0;
}
