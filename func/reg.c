/*
** func/reg.c — the object identifier types regclass, regtype,
** regnamespace and regproc: their input (a name, looked up the way
** PostgreSQL 15 looks it up, or a number) and their output (the object's
** name, qualified where the search path would not find it, or the number
** when no object has that oid). A value of these types is an oid; only
** its text form needs the catalog, so the host executor calls these where
** a value turns into text or text into a value (casts, the result sent
** to the client), and the binder calls the input routine on a literal to
** report a missing object at the literal's position.
**
** Search path: pg_catalog, then public (the only user schema). A name
** without a schema is a catalog relation first, then a user table or its
** primary key index; information_schema's relations need their schema.
**
** INTERFACE ROUTINES
**   func_reg_in, func_reg_out                      (func.h)
**   func__name_split, func__relation_parse,
**   func__relation_oid                             (funcInt.h)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../catalog/pgobj.h"
#include "../catalog/vrel.h"
#include "funcInt.h"

/* ---- names ------------------------------------------------------------------------ */

int func__name_split(const char *z, size_t n, char (*azPart)[FUNC_NAME_MAX]) {
  int nPart = 0;
  size_t k = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i == n || z[i] == '.') {
      if (k == 0) return -1;
      azPart[nPart][k] = 0;
      if (++nPart == FUNC_NAME_PARTS_MAX && i < n) return nPart + 1;
      k = 0;
      continue;
    }
    if (z[i] == '"') {
      for (i++; i < n && !(z[i] == '"' && (i + 1 == n || z[i + 1] != '"')); i++) {
        if (z[i] == '"') i++;
        if (k + 1 < FUNC_NAME_MAX) azPart[nPart][k++] = z[i];
      }
      if (i == n) return -1;   /* no closing quote */
      continue;
    }
    if (z[i] == ' ' && (i + 1 == n || z[i + 1] == '.' || k == 0)) continue;
    if (k + 1 < FUNC_NAME_MAX) azPart[nPart][k++] = (z[i] >= 'A' && z[i] <= 'Z') ? (char)(z[i] + 32) : z[i];
  }
  return nPart;
}

int func__relation_parse(func_ctx *pCtx, const char *z, size_t n, char *zSchema, char *zName,
                         sql_error *pErr) {
  char azPart[FUNC_NAME_PARTS_MAX][FUNC_NAME_MAX];
  const char *zDb = pCtx->zDatabase != NULL ? pCtx->zDatabase : "starq";
  int nPart = func__name_split(z, n, azPart);
  if (nPart < 0) {
    sql_error_set(pErr, SQLSTATE_INVALID_NAME, -1, "invalid name syntax");
    return -1;
  }
  if (nPart > 3) {
    sql_error_set(pErr, SQLSTATE_SYNTAX_ERROR, -1,
                  "improper relation name (too many dotted names): %.*s", (int)n, z);
    return -1;
  }
  if (nPart == 3 && strcmp(azPart[0], zDb) != 0) {
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                  "cross-database references are not implemented: \"%.*s\"", (int)n, z);
    return -1;
  }
  snprintf(zSchema, FUNC_NAME_MAX, "%s", nPart > 1 ? azPart[nPart - 2] : "");
  snprintf(zName, FUNC_NAME_MAX, "%s", azPart[nPart - 1]);
  return 0;
}

/* The oid of user table zName or of its primary key index in p, or 0. */
static uint32_t freg_user_relation(const pgobj_tables *p, const char *zName) {
  const cat_table *t = pgobj_table_by_name(p, zName);
  if (t != NULL) return pgobj_table_oid(t->iId);
  for (int i = 0; i < p->n; i++) {
    strbuf s;
    int bHit;
    if (p->ap[i]->nPkey == 0) continue;
    strbuf_init(&s);
    pgobj_pkey_name(p->ap[i], &s);
    bHit = !strbuf_error(&s) && strcmp(strbuf_str(&s), zName) == 0;
    strbuf_free(&s);
    if (bHit) return pgobj_index_oid(p->ap[i]->iId);
  }
  return 0;
}

int func__relation_oid(func_ctx *pCtx, const char *zSchema, const char *zName, uint32_t *pOid,
                       sql_error *pErr) {
  const vrel *v = NULL;
  *pOid = 0;
  if (pCtx->xVrelFind != NULL && strcmp(zSchema, "public") != 0) {
    v = pCtx->xVrelFind(zSchema[0] ? zSchema : NULL, zName);
  }
  if (v != NULL) {
    *pOid = v->oid;
  } else if ((zSchema[0] == 0 || strcmp(zSchema, "public") == 0) && pCtx->pCat != NULL) {
    pgobj_tables tabs;
    if (pgobj_tables_load(pCtx->pCat, &tabs, pErr) != 0) return -1;
    *pOid = freg_user_relation(&tabs, zName);
    pgobj_tables_free(&tabs);
  }
  return 0;
}

/* ---- input -------------------------------------------------------------------------- */

/* Reads z[0..n) as an unsigned oid when it is all digits: 1, else 0. */
static int freg_number(const char *z, size_t n, uint32_t *pOid) {
  char zBuf[16];
  unsigned long long v;
  while (n > 0 && z[0] == ' ') z++, n--;
  while (n > 0 && z[n - 1] == ' ') n--;
  if (n == 0 || n >= sizeof(zBuf)) return 0;
  for (size_t i = 0; i < n; i++) {
    if (z[i] < '0' || z[i] > '9') return 0;
  }
  memcpy(zBuf, z, n);
  zBuf[n] = 0;
  v = strtoull(zBuf, NULL, 10);
  if (v > UINT32_MAX) return 0;
  *pOid = (uint32_t)v;
  return 1;
}

static int freg_class_in(func_ctx *pCtx, const char *z, size_t n, uint32_t *pOid, sql_error *pErr) {
  char zSchema[FUNC_NAME_MAX], zName[FUNC_NAME_MAX];
  if (func__relation_parse(pCtx, z, n, zSchema, zName, pErr) != 0) return -1;
  if (func__relation_oid(pCtx, zSchema, zName, pOid, pErr) != 0) return -1;
  if (*pOid != 0) return 0;
  if (zSchema[0] != 0 && pgobj_schema_oid(zSchema, strlen(zSchema)) == 0) {
    sql_error_set(pErr, SQLSTATE_UNDEFINED_SCHEMA, -1, "schema \"%s\" does not exist", zSchema);
    return -1;
  }
  sql_error_set(pErr, SQLSTATE_UNDEFINED_TABLE, -1, "relation \"%s%s%s\" does not exist", zSchema,
                zSchema[0] ? "." : "", zName);
  return -1;
}

static int freg_type_in(const char *z, size_t n, uint32_t *pOid, sql_error *pErr) {
  const pgobj_type *t = pgobj_type_by_name(z, n);
  if (t == NULL) {
    sql_error_set(pErr, SQLSTATE_UNDEFINED_OBJECT, -1, "type \"%.*s\" does not exist", (int)n, z);
    return -1;
  }
  *pOid = t->oid;
  return 0;
}

static int freg_namespace_in(const char *z, size_t n, uint32_t *pOid, sql_error *pErr) {
  char azPart[FUNC_NAME_PARTS_MAX][FUNC_NAME_MAX];
  int nPart = func__name_split(z, n, azPart);
  if (nPart < 0) {
    sql_error_set(pErr, SQLSTATE_INVALID_NAME, -1, "invalid name syntax");
    return -1;
  }
  if (nPart != 1) {
    sql_error_set(pErr, SQLSTATE_INVALID_NAME, -1, "invalid name syntax");
    return -1;
  }
  if ((*pOid = pgobj_schema_oid(azPart[0], strlen(azPart[0]))) == 0) {
    sql_error_set(pErr, SQLSTATE_UNDEFINED_SCHEMA, -1, "schema \"%s\" does not exist", azPart[0]);
    return -1;
  }
  return 0;
}

/* regproc: a function name that must name exactly one function. */
static int freg_proc_in(const char *z, size_t n, uint32_t *pOid, sql_error *pErr) {
  char azPart[FUNC_NAME_PARTS_MAX][FUNC_NAME_MAX];
  int nPart = func__name_split(z, n, azPart), nCand = 0;
  const func_def *a;
  if (nPart < 1 || nPart > 2 || (nPart == 2 && strcmp(azPart[0], "pg_catalog") != 0)) {
    sql_error_set(pErr, SQLSTATE_UNDEFINED_FUNCTION, -1, "function \"%.*s\" does not exist", (int)n, z);
    return -1;
  }
  a = func_candidates(azPart[nPart - 1], &nCand);
  if (a != NULL && nCand == 1 && a[0].oid != 0) {
    *pOid = a[0].oid;
    return 0;
  }
  for (int i = 0; a == NULL && i < pgobj_proc_count(); i++) {
    const pgobj_proc *p = pgobj_proc_at(i);
    if (strcmp(p->zName, azPart[nPart - 1]) == 0) {
      *pOid = p->oid;
      return 0;
    }
  }
  if (nCand > 1) {
    sql_error_set(pErr, SQLSTATE_AMBIGUOUS_FUNCTION, -1, "more than one function named \"%.*s\"",
                  (int)n, z);
    return -1;
  }
  sql_error_set(pErr, SQLSTATE_UNDEFINED_FUNCTION, -1, "function \"%.*s\" does not exist", (int)n, z);
  return -1;
}

int func_reg_in(func_ctx *pCtx, coltype_id eType, const char *z, size_t n, datum *pOut,
                sql_error *pErr) {
  uint32_t oid = 0;
  int rc = 0;
  if (n == 1 && z[0] == '-' && eType != COLTYPE_OID) {
    oid = 0;                   /* the output of oid 0 reads back */
  } else if (!freg_number(z, n, &oid)) {
    switch (eType) {
      case COLTYPE_REGCLASS: rc = freg_class_in(pCtx, z, n, &oid, pErr); break;
      case COLTYPE_REGTYPE: rc = freg_type_in(z, n, &oid, pErr); break;
      case COLTYPE_REGNAMESPACE: rc = freg_namespace_in(z, n, &oid, pErr); break;
      case COLTYPE_REGPROC: rc = freg_proc_in(z, n, &oid, pErr); break;
      case COLTYPE_OID:
      default:
        sql_error_set(pErr, SQLSTATE_INVALID_TEXT_REP, -1, "invalid input syntax for type oid: \"%.*s\"",
                      (int)n, z);
        return -1;
    }
  }
  if (rc != 0) return -1;
  *pOut = datum_int(eType, (int64_t)oid);
  return 0;
}

/* ---- output ------------------------------------------------------------------------- */

typedef struct freg_vrel freg_vrel;
struct freg_vrel {
  uint32_t oid;
  const vrel *p;
};

static int freg_vrel_visit(void *pArg, const vrel *p) {
  freg_vrel *v = pArg;
  if (p->oid != v->oid) return 0;
  v->p = p;
  return 1;
}

/* Appends relation oid's name: a catalog relation's (qualified outside
** pg_catalog, which the search path does not reach), a user table's or
** its primary key index's; 0 when no relation has that oid. */
static int freg_class_out(func_ctx *pCtx, uint32_t oid, strbuf *s, sql_error *pErr) {
  freg_vrel v = {oid, NULL};
  int64_t iId;
  int k;
  pgobj_kind e = pgobj_oid_decode(oid, &iId, &k);
  if ((e == PGOBJ_TABLE || e == PGOBJ_INDEX) && pCtx->pCat != NULL) {
    pgobj_tables tabs;
    const cat_table *t;
    if (pgobj_tables_load(pCtx->pCat, &tabs, pErr) != 0) return -1;
    t = pgobj_table_by_id(&tabs, iId);
    if (t != NULL && e == PGOBJ_TABLE) pgobj_quote_ident(t->zName, strlen(t->zName), s);
    if (t != NULL && e == PGOBJ_INDEX && t->nPkey > 0) {
      strbuf sName;
      strbuf_init(&sName);
      pgobj_pkey_name(t, &sName);
      pgobj_quote_ident(strbuf_str(&sName), sName.n, s);
      strbuf_free(&sName);
    } else if (t != NULL && e == PGOBJ_INDEX) {
      t = NULL;
    }
    pgobj_tables_free(&tabs);
    return t != NULL;
  }
  if (pCtx->xVrelEach != NULL) pCtx->xVrelEach(freg_vrel_visit, &v);
  if (v.p == NULL) return 0;
  if (strcmp(v.p->zSchema, "pg_catalog") != 0) strbuf_printf(s, "%s.", v.p->zSchema);
  strbuf_puts(s, v.p->zName);
  return 1;
}

static int freg_proc_out(uint32_t oid, strbuf *s) {
  const func_def *f = func_by_oid(oid);
  const pgobj_proc *p = f == NULL ? pgobj_proc_by_oid(oid) : NULL;
  if (f == NULL && p == NULL) return 0;
  strbuf_puts(s, f != NULL ? f->zName : p->zName);
  return 1;
}

int func_reg_out(func_ctx *pCtx, const datum *d, strbuf *s, sql_error *pErr) {
  uint32_t oid = (uint32_t)d->u.i;
  const char *z;
  int bFound = 0;
  if (oid == 0) {
    strbuf_puts(s, "-");
    return 0;
  }
  switch (d->type.eId) {
    case COLTYPE_REGCLASS:
      if ((bFound = freg_class_out(pCtx, oid, s, pErr)) < 0) return -1;
      break;
    case COLTYPE_REGTYPE:
      if ((bFound = pgobj_type_by_oid(oid) != NULL)) pgobj_format_type(oid, PGOBJ_TYPMOD_NONE, s);
      break;
    case COLTYPE_REGNAMESPACE:
      if ((z = pgobj_schema_name(oid)) != NULL) pgobj_quote_ident(z, strlen(z), s), bFound = 1;
      break;
    case COLTYPE_REGPROC:
      bFound = freg_proc_out(oid, s);
      break;
    default:
      break;
  }
  if (!bFound) strbuf_printf(s, "%lu", (unsigned long)oid);
  return 0;
}
