/*
** pgcat/vrel.c — the registry of pg_catalog's and information_schema's
** virtual relations (catalog/vrel.h), and the row builder every
** relation's scan uses (pgcatInt.h). The relations themselves live in
** rel-class.c (starq's tables as PostgreSQL's catalog shows them),
** rel-builtin.c (types, functions, access methods, the database, roles,
** settings, the session) and rel-infoschema.c.
**
** This folder sits above func/ because pg_proc lists the function
** registry; catalog/pgobj.h gives every oid and name it shows.
**
** INTERFACE ROUTINES
**   vrel_find, vrel_each
**   pgcat__row_*      building one row
**   pgcat__tables     the statement's tables
*/
#include <string.h>

#include "pgcatInt.h"

const vrel *const pgcat__aRel[] = {
    &pgcat__pg_namespace,  &pgcat__pg_class,      &pgcat__pg_attribute,
    &pgcat__pg_type,       &pgcat__pg_index,      &pgcat__pg_constraint,
    &pgcat__pg_attrdef,    &pgcat__pg_description, &pgcat__pg_inherits,
    &pgcat__pg_proc,       &pgcat__pg_am,         &pgcat__pg_tablespace,
    &pgcat__pg_enum,       &pgcat__pg_collation,  &pgcat__pg_database,
    &pgcat__pg_roles,      &pgcat__pg_user,       &pgcat__pg_settings,
    &pgcat__pg_stat_activity, &pgcat__pg_tables,  &pgcat__pg_views,
    &pgcat__pg_trigger,    &pgcat__pg_policy,     &pgcat__pg_statistic_ext,
    &pgcat__pg_publication, &pgcat__pg_publication_namespace, &pgcat__pg_publication_rel,
    &pgcat__is_schemata,   &pgcat__is_tables,     &pgcat__is_columns,
    &pgcat__is_views,      &pgcat__is_table_constraints,
    &pgcat__is_key_column_usage, &pgcat__is_referential_constraints,
};
const int pgcat__nRel = (int)(sizeof(pgcat__aRel) / sizeof(pgcat__aRel[0]));

const vrel *vrel_find(const char *zSchema, const char *zName) {
  if (zSchema == NULL) zSchema = "pg_catalog";
  for (int i = 0; i < pgcat__nRel; i++) {
    const vrel *p = pgcat__aRel[i];
    if (strcmp(p->zSchema, zSchema) == 0 && strcmp(p->zName, zName) == 0) return p;
  }
  return NULL;
}

int vrel_each(int (*x)(void *pArg, const vrel *p), void *pArg) {
  for (int i = 0; i < pgcat__nRel; i++) {
    int rc = x(pArg, pgcat__aRel[i]);
    if (rc != 0) return rc;
  }
  return 0;
}

/* ---- one row ------------------------------------------------------------------ */

void pgcat__row_init(vrow *r, const vrel *p, func_ctx *pCtx) {
  r->pRel = p;
  r->pCtx = pCtx;
  r->zBad = NULL;
  r->bNoMem = 0;
  for (int i = 0; i < p->nCol; i++) {
    coltype t = p->aCol[i].type;
    r->a[i] = datum_null(t.eId);
    r->a[i].type = t;
    if (p->cRelKind != 'r') continue;
    switch (t.eId) {
      case COLTYPE_BOOLEAN:
      case COLTYPE_SMALLINT:
      case COLTYPE_INTEGER:
      case COLTYPE_BIGINT:
      case COLTYPE_OID:
      case COLTYPE_XID:
      case COLTYPE_REGPROC:
      case COLTYPE_FLOAT4:
        r->a[i].bNull = 0;
        break;
      default: break;
    }
  }
}

/* The datum of column zCol, or NULL (remembered) when there is none. */
static datum *pgcat_col(vrow *r, const char *zCol) {
  for (int i = 0; i < r->pRel->nCol; i++) {
    if (strcmp(r->pRel->aCol[i].zName, zCol) == 0) {
      datum *d = &r->a[i];
      d->bNull = 0;
      return d;
    }
  }
  if (r->zBad == NULL) r->zBad = zCol;
  return NULL;
}

void pgcat__row_int(vrow *r, const char *zCol, int64_t v) {
  datum *d = pgcat_col(r, zCol);
  if (d != NULL) d->u.i = v;
}

void pgcat__row_float(vrow *r, const char *zCol, double v) {
  datum *d = pgcat_col(r, zCol);
  if (d != NULL) d->u.r = v;
}

void pgcat__row_bool(vrow *r, const char *zCol, int b) {
  pgcat__row_int(r, zCol, b != 0);
}

void pgcat__row_text(vrow *r, const char *zCol, const char *z) {
  datum *d = pgcat_col(r, zCol);
  size_t n = strlen(z);
  char *zCopy;
  if (d == NULL) return;
  if ((zCopy = arena_strndup(r->pCtx->pArena, z, n)) == NULL) {
    r->bNoMem = 1;
    d->bNull = 1;
    return;
  }
  d->u.s.z = zCopy;
  d->u.s.n = (uint32_t)n;
}

void pgcat__row_char(vrow *r, const char *zCol, char c) {
  char z[2] = {c, 0};
  pgcat__row_text(r, zCol, z);
}

void pgcat__row_null(vrow *r, const char *zCol) {
  datum *d = pgcat_col(r, zCol);
  if (d != NULL) d->bNull = 1;
}

/* The element type of an array column (INT2VECTOR: SMALLINT, OIDVECTOR:
** OID). */
static coltype pgcat_elem(coltype t) {
  coltype e = {COLTYPE_SMALLINT, 0, 0, 0};
  if (t.eId == COLTYPE_ARRAY) return coltype_elem(t);
  if (t.eId == COLTYPE_OIDVECTOR) e.eId = COLTYPE_OID;
  return e;
}

/* Column zCol's datum and room for its n elements, or NULL (the column
** unknown, or memory out: then the column is NULL and the row fails). */
static datum *pgcat_array(vrow *r, const char *zCol, int n, datum **paElem) {
  datum *d = pgcat_col(r, zCol);
  if (d == NULL) return NULL;
  *paElem = arena_alloc(r->pCtx->pArena, sizeof(datum) * (size_t)(n > 0 ? n : 1));
  if (*paElem == NULL) {
    r->bNoMem = 1;
    d->bNull = 1;
    return NULL;
  }
  return d;
}

void pgcat__row_ints(vrow *r, const char *zCol, const int64_t *a, int n) {
  datum *aElem, *d = pgcat_array(r, zCol, n, &aElem);
  if (d == NULL) return;
  for (int i = 0; i < n; i++) {
    aElem[i] = datum_int(COLTYPE_INTEGER, a[i]);
    aElem[i].type = pgcat_elem(d->type);
  }
  *d = datum_array(d->type, aElem, (uint32_t)n);
}

void pgcat__row_texts(vrow *r, const char *zCol, const char *const *az, int n) {
  datum *aElem, *d = pgcat_array(r, zCol, n, &aElem);
  if (d == NULL) return;
  for (int i = 0; i < n; i++) {
    size_t k = strlen(az[i]);
    char *z = arena_strndup(r->pCtx->pArena, az[i], k);
    if (z == NULL) {
      r->bNoMem = 1;
      d->bNull = 1;
      return;
    }
    aElem[i] = datum_text(COLTYPE_TEXT, z, (uint32_t)k);
    aElem[i].type = pgcat_elem(d->type);
  }
  *d = datum_array(d->type, aElem, (uint32_t)n);
}

int pgcat__row_emit(vrow *r, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  if (r->zBad != NULL) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "%s.%s has no column \"%s\"",
                  r->pRel->zSchema, r->pRel->zName, r->zBad);
    return -1;
  }
  if (r->bNoMem) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory building %s.%s",
                  r->pRel->zSchema, r->pRel->zName);
    return -1;
  }
  return xRow(pArg, r->a);
}

int pgcat__tables(func_ctx *pCtx, pgobj_tables *p, sql_error *pErr) {
  memset(p, 0, sizeof(*p));
  if (pCtx->pCat == NULL) return 0;
  return pgobj_tables_load(pCtx->pCat, p, pErr);
}

const char *pgcat__type_sqlname(coltype t) {
  /* format_type(oid, NULL): bpchar without a modifier is "character" */
  if (t.eId == COLTYPE_CHAR) return "character";
  const pgobj_type *ty = pgobj_type_by_oid(pgobj_coltype_oid(t));
  return ty != NULL ? ty->zFormat : "unknown";
}
