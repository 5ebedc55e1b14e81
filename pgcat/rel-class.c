/*
** pgcat/rel-class.c — starq's tables as PostgreSQL's catalog shows them:
** pg_namespace, pg_class (the tables, their primary keys' indexes, and
** pg_catalog's and information_schema's own relations), pg_attribute,
** pg_index, pg_constraint (primary and foreign keys), pg_attrdef,
** pg_description, pg_inherits, and the pg_tables and pg_views views.
** Oids and generated names come from catalog/pgobj.h.
**
** A primary key looks as PostgreSQL makes one: a btree index relation
** "<table>_pkey" with its own pg_attribute rows, a pg_index row and a
** pg_constraint row of type 'p'. A foreign key is a pg_constraint row of
** type 'f', NO ACTION on update and delete, MATCH SIMPLE; both tables
** then have triggers (relhastriggers), as PostgreSQL's do. starq has no
** defaults, comments, inheritance or views of its own, so pg_attrdef,
** pg_inherits and pg_views' user rows are empty, and pg_description has
** only the built-in schemas' comments.
**
** INTERFACE ROUTINES
**   pgcat__pg_namespace, pgcat__pg_class, pgcat__pg_attribute,
**   pgcat__pg_index, pgcat__pg_constraint, pgcat__pg_attrdef,
**   pgcat__pg_description, pgcat__pg_inherits, pgcat__pg_tables,
**   pgcat__pg_views        (vrel definitions)
*/
#include <stdio.h>
#include <string.h>

#include "pgcatInt.h"

/* The owner every object shows: the session's user (the bootstrap
** superuser, oid 10). */
static const char *pgcat_owner(func_ctx *pCtx) {
  return pCtx->zUser != NULL ? pCtx->zUser : "starq";
}

static int pgcat_pg_namespace_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  static const uint32_t aOid[] = {PGOBJ_NS_PG_TOAST, PGOBJ_NS_PG_CATALOG, PGOBJ_NS_PUBLIC,
                                  PGOBJ_NS_INFORMATION_SCHEMA};
  const char *zOwner = pgcat_owner(pCtx);
  for (size_t i = 0; i < sizeof(aOid) / sizeof(aOid[0]); i++) {
    vrow r;
    char zA[160], zB[160];
    const char *az[2] = {zA, zB};
    int rc;
    pgcat__row_init(&r, &pgcat__pg_namespace, pCtx);
    pgcat__row_int(&r, "oid", aOid[i]);
    pgcat__row_text(&r, "nspname", pgobj_schema_name(aOid[i]));
    if (aOid[i] == PGOBJ_NS_PUBLIC) {
      /* public belongs to pg_database_owner since PostgreSQL 15 */
      pgcat__row_int(&r, "nspowner", PGOBJ_ROLE_DATABASE_OWNER);
      snprintf(zA, sizeof(zA), "pg_database_owner=UC/pg_database_owner");
      snprintf(zB, sizeof(zB), "=U/pg_database_owner");
    } else {
      pgcat__row_int(&r, "nspowner", PGOBJ_ROLE_OWNER);
      snprintf(zA, sizeof(zA), "%s=UC/%s", zOwner, zOwner);
      snprintf(zB, sizeof(zB), "=U/%s", zOwner);
    }
    if (aOid[i] != PGOBJ_NS_PG_TOAST) pgcat__row_texts(&r, "nspacl", az, 2);
    if ((rc = pgcat__row_emit(&r, xRow, pArg, pErr)) != 0) return rc;
  }
  return 0;
}

/* Whether table t is referenced by a foreign key of any table in p. */
static int pgcat_is_referenced(const pgobj_tables *p, const cat_table *t) {
  for (int i = 0; i < p->n; i++) {
    for (int k = 0; k < p->ap[i]->nFkey; k++) {
      if (strcmp(p->ap[i]->aFkey[k].zRefTable, t->zName) == 0) return 1;
    }
  }
  return 0;
}

/* The columns every pg_class row shares: owner, persistence, flags. */
static void pgcat_class_common(vrow *r, uint32_t oid, const char *zName, uint32_t iNs, char cKind,
                               int nAtt) {
  pgcat__row_int(r, "oid", oid);
  pgcat__row_text(r, "relname", zName);
  pgcat__row_int(r, "relnamespace", iNs);
  pgcat__row_int(r, "relowner", PGOBJ_ROLE_OWNER);
  pgcat__row_char(r, "relpersistence", 'p');
  pgcat__row_char(r, "relkind", cKind);
  pgcat__row_int(r, "relnatts", nAtt);
  pgcat__row_bool(r, "relispopulated", 1);
  pgcat__row_char(r, "relreplident", cKind == 'r' ? 'd' : 'n');
  pgcat__row_float(r, "reltuples", -1);
}

static int pgcat_class_vrel(void *pArg, const vrel *p);

typedef struct pgcat_scan pgcat_scan;
struct pgcat_scan {
  func_ctx *pCtx;
  vrel_row_fn xRow;
  void *pArg;
  sql_error *pErr;
};

static int pgcat_class_vrel(void *pArg, const vrel *p) {
  pgcat_scan *s = pArg;
  vrow r;
  pgcat__row_init(&r, &pgcat__pg_class, s->pCtx);
  pgcat_class_common(&r, p->oid, p->zName, pgobj_schema_oid(p->zSchema, strlen(p->zSchema)),
                     p->cRelKind, p->nCol);
  if (p->cRelKind == 'r') {
    pgcat__row_int(&r, "relam", PGOBJ_AM_HEAP);
    pgcat__row_int(&r, "relfilenode", p->oid);
  } else {
    pgcat__row_bool(&r, "relhasrules", 1);
  }
  return pgcat__row_emit(&r, s->xRow, s->pArg, s->pErr);
}

static int pgcat_pg_class_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  pgobj_tables tabs;
  pgcat_scan s = {pCtx, xRow, pArg, pErr};
  int rc = 0;
  if (pgcat__tables(pCtx, &tabs, pErr) != 0) return -1;
  for (int i = 0; rc == 0 && i < tabs.n; i++) {
    const cat_table *t = tabs.ap[i];
    int bTrig = t->nFkey > 0 || pgcat_is_referenced(&tabs, t);
    vrow r;
    pgcat__row_init(&r, &pgcat__pg_class, pCtx);
    pgcat_class_common(&r, pgobj_table_oid(t->iId), t->zName, PGOBJ_NS_PUBLIC, 'r', t->nCol);
    pgcat__row_int(&r, "relam", PGOBJ_AM_HEAP);
    pgcat__row_int(&r, "relfilenode", pgobj_table_oid(t->iId));
    pgcat__row_float(&r, "reltuples", t->iGen > 0 ? (double)t->nRow : -1);
    pgcat__row_bool(&r, "relhasindex", t->nPkey > 0);
    pgcat__row_bool(&r, "relhastriggers", bTrig);
    rc = pgcat__row_emit(&r, xRow, pArg, pErr);
    if (rc == 0 && t->nPkey > 0) {
      strbuf name;
      strbuf_init(&name);
      pgobj_pkey_name(t, &name);
      pgcat__row_init(&r, &pgcat__pg_class, pCtx);
      pgcat_class_common(&r, pgobj_index_oid(t->iId), strbuf_str(&name), PGOBJ_NS_PUBLIC, 'i',
                         t->nPkey);
      strbuf_free(&name);
      pgcat__row_int(&r, "relam", PGOBJ_AM_BTREE);
      pgcat__row_int(&r, "relfilenode", pgobj_index_oid(t->iId));
      /* an index is built at once: its metapage, and its table's rows */
      pgcat__row_int(&r, "relpages", 1);
      pgcat__row_float(&r, "reltuples", t->iGen > 0 ? (double)t->nRow : 0);
      rc = pgcat__row_emit(&r, xRow, pArg, pErr);
    }
  }
  pgobj_tables_free(&tabs);
  if (rc == 0) rc = vrel_each(pgcat_class_vrel, &s);
  return rc;
}

/* ---- pg_attribute ------------------------------------------------------------- */

/* One pg_attribute row: column iNum (1-based) of relation oid. */
static int pgcat_attribute_row(pgcat_scan *s, uint32_t iRel, const char *zName, coltype t,
                               int iNum, int bNotNull, int bView) {
  const pgobj_type *ty = pgobj_type_by_oid(pgobj_coltype_oid(t));
  vrow r;
  pgcat__row_init(&r, &pgcat__pg_attribute, s->pCtx);
  pgcat__row_int(&r, "attrelid", iRel);
  pgcat__row_text(&r, "attname", zName);
  pgcat__row_int(&r, "atttypid", ty != NULL ? ty->oid : 0);
  pgcat__row_int(&r, "attstattarget", -1);
  pgcat__row_int(&r, "attlen", ty != NULL ? ty->nLen : -1);
  pgcat__row_int(&r, "attnum", iNum);
  /* a table's array columns (the vectors too) have one dimension; a
  ** view's columns do not record theirs */
  pgcat__row_int(&r, "attndims", !bView && (t.eId == COLTYPE_ARRAY || t.eId == COLTYPE_INT2VECTOR ||
                                            t.eId == COLTYPE_OIDVECTOR));
  pgcat__row_int(&r, "attcacheoff", -1);
  pgcat__row_int(&r, "atttypmod", pgobj_coltype_typmod(t));
  pgcat__row_bool(&r, "attbyval", ty != NULL && ty->bByVal);
  pgcat__row_char(&r, "attalign", ty != NULL ? ty->cAlign : 'i');
  pgcat__row_char(&r, "attstorage", ty != NULL ? ty->cStorage : 'p');
  pgcat__row_char(&r, "attcompression", '\0');
  pgcat__row_bool(&r, "attnotnull", bNotNull);
  pgcat__row_char(&r, "attidentity", '\0');
  pgcat__row_char(&r, "attgenerated", '\0');
  pgcat__row_bool(&r, "attislocal", 1);
  pgcat__row_int(&r, "attcollation", ty != NULL ? ty->iCollation : 0);
  return pgcat__row_emit(&r, s->xRow, s->pArg, s->pErr);
}

static int pgcat_attribute_vrel(void *pArg, const vrel *p) {
  for (int i = 0; i < p->nCol; i++) {
    int rc = pgcat_attribute_row(pArg, p->oid, p->aCol[i].zName, p->aCol[i].type, i + 1,
                                 p->aCol[i].bNotNull, p->cRelKind == 'v');
    if (rc != 0) return rc;
  }
  return 0;
}

static int pgcat_pg_attribute_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg,
                                   sql_error *pErr) {
  pgobj_tables tabs;
  pgcat_scan s = {pCtx, xRow, pArg, pErr};
  int rc = 0;
  if (pgcat__tables(pCtx, &tabs, pErr) != 0) return -1;
  for (int i = 0; rc == 0 && i < tabs.n; i++) {
    const cat_table *t = tabs.ap[i];
    for (int c = 0; rc == 0 && c < t->nCol; c++) {
      rc = pgcat_attribute_row(&s, pgobj_table_oid(t->iId), t->aCol[c].zName, t->aCol[c].type,
                               c + 1, t->aCol[c].bNotNull, 0);
    }
    for (int k = 0; rc == 0 && k < t->nPkey; k++) {
      const cat_column *col = &t->aCol[t->aiPkey[k]];
      rc = pgcat_attribute_row(&s, pgobj_index_oid(t->iId), col->zName, col->type, k + 1, 0, 0);
    }
  }
  pgobj_tables_free(&tabs);
  if (rc == 0) rc = vrel_each(pgcat_attribute_vrel, &s);
  return rc;
}

/* ---- pg_index, pg_constraint --------------------------------------------------- */

/* The default btree operator class and the equality operator of a key
** column of type t, as PostgreSQL 15 picks them. */
static void pgcat_key_ops(coltype t, int64_t *piOpclass, int64_t *piEq) {
  switch (t.eId) {
    case COLTYPE_SMALLINT: *piOpclass = 1979; *piEq = 94; break;
    case COLTYPE_BIGINT: *piOpclass = 3124; *piEq = 410; break;
    case COLTYPE_DOUBLE: *piOpclass = 3123; *piEq = 670; break;
    case COLTYPE_DECIMAL:
    case COLTYPE_NUMERIC: *piOpclass = 3125; *piEq = 1752; break;
    case COLTYPE_DATE: *piOpclass = 3122; *piEq = 1093; break;
    case COLTYPE_CHAR: *piOpclass = 10004; *piEq = 1054; break;
    case COLTYPE_VARCHAR:
    case COLTYPE_TEXT: *piOpclass = 3126; *piEq = 98; break;
    default: *piOpclass = 1978; *piEq = 96; break;
  }
}

static int pgcat_pg_index_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  pgobj_tables tabs;
  int rc = 0;
  if (pgcat__tables(pCtx, &tabs, pErr) != 0) return -1;
  for (int i = 0; rc == 0 && i < tabs.n; i++) {
    const cat_table *t = tabs.ap[i];
    int64_t aKey[32], aColl[32], aClass[32], aOpt[32], iEq;
    int n = t->nPkey < 32 ? t->nPkey : 32;
    vrow r;
    if (n == 0) continue;
    for (int k = 0; k < n; k++) {
      const pgobj_type *ty = pgobj_type_by_oid(pgobj_coltype_oid(t->aCol[t->aiPkey[k]].type));
      aKey[k] = t->aiPkey[k] + 1;
      aColl[k] = ty != NULL ? ty->iCollation : 0;
      aOpt[k] = 0;
      pgcat_key_ops(t->aCol[t->aiPkey[k]].type, &aClass[k], &iEq);
    }
    pgcat__row_init(&r, &pgcat__pg_index, pCtx);
    pgcat__row_int(&r, "indexrelid", pgobj_index_oid(t->iId));
    pgcat__row_int(&r, "indrelid", pgobj_table_oid(t->iId));
    pgcat__row_int(&r, "indnatts", n);
    pgcat__row_int(&r, "indnkeyatts", n);
    pgcat__row_bool(&r, "indisunique", 1);
    pgcat__row_bool(&r, "indisprimary", 1);
    pgcat__row_bool(&r, "indimmediate", 1);
    pgcat__row_bool(&r, "indisvalid", 1);
    pgcat__row_bool(&r, "indisready", 1);
    pgcat__row_bool(&r, "indislive", 1);
    pgcat__row_ints(&r, "indkey", aKey, n);
    pgcat__row_ints(&r, "indcollation", aColl, n);
    pgcat__row_ints(&r, "indclass", aClass, n);
    pgcat__row_ints(&r, "indoption", aOpt, n);
    rc = pgcat__row_emit(&r, xRow, pArg, pErr);
  }
  pgobj_tables_free(&tabs);
  return rc;
}

/* The columns a primary key's and a foreign key's rows share. */
static void pgcat_constraint_common(vrow *r, uint32_t oid, const char *zName, char cType,
                                    uint32_t iRel) {
  pgcat__row_int(r, "oid", oid);
  pgcat__row_text(r, "conname", zName);
  pgcat__row_int(r, "connamespace", PGOBJ_NS_PUBLIC);
  pgcat__row_char(r, "contype", cType);
  pgcat__row_bool(r, "convalidated", 1);
  pgcat__row_int(r, "conrelid", iRel);
  pgcat__row_bool(r, "conislocal", 1);
  pgcat__row_bool(r, "connoinherit", 1);
  pgcat__row_char(r, "confupdtype", cType == 'f' ? 'a' : ' ');
  pgcat__row_char(r, "confdeltype", cType == 'f' ? 'a' : ' ');
  pgcat__row_char(r, "confmatchtype", cType == 'f' ? 's' : ' ');
}

static int pgcat_fkey_row(const pgobj_tables *p, const cat_table *t, int k, func_ctx *pCtx,
                          vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  const cat_fkey *f = &t->aFkey[k];
  const cat_table *pRef = pgobj_table_by_name(p, f->zRefTable);
  int64_t aKey[32], aRef[32], aEq[32], iOpclass;
  int n = f->nCol < 32 ? f->nCol : 32;
  strbuf name;
  vrow r;
  int rc;
  for (int c = 0; c < n; c++) {
    aKey[c] = f->aiCol[c] + 1;
    aRef[c] = f->aiRefCol[c] + 1;
    pgcat_key_ops(t->aCol[f->aiCol[c]].type, &iOpclass, &aEq[c]);
  }
  strbuf_init(&name);
  pgobj_fkey_name(t, k, &name);
  pgcat__row_init(&r, &pgcat__pg_constraint, pCtx);
  pgcat_constraint_common(&r, pgobj_fkey_oid(t->iId, k), strbuf_str(&name), 'f',
                          pgobj_table_oid(t->iId));
  strbuf_free(&name);
  if (pRef != NULL) {
    pgcat__row_int(&r, "conindid", pgobj_index_oid(pRef->iId));
    pgcat__row_int(&r, "confrelid", pgobj_table_oid(pRef->iId));
  }
  pgcat__row_ints(&r, "conkey", aKey, n);
  pgcat__row_ints(&r, "confkey", aRef, n);
  pgcat__row_ints(&r, "conpfeqop", aEq, n);
  pgcat__row_ints(&r, "conppeqop", aEq, n);
  pgcat__row_ints(&r, "conffeqop", aEq, n);
  rc = pgcat__row_emit(&r, xRow, pArg, pErr);
  return rc;
}

static int pgcat_pg_constraint_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg,
                                    sql_error *pErr) {
  pgobj_tables tabs;
  int rc = 0;
  if (pgcat__tables(pCtx, &tabs, pErr) != 0) return -1;
  for (int i = 0; rc == 0 && i < tabs.n; i++) {
    const cat_table *t = tabs.ap[i];
    if (t->nPkey > 0) {
      int64_t aKey[32];
      int n = t->nPkey < 32 ? t->nPkey : 32;
      strbuf name;
      vrow r;
      for (int k = 0; k < n; k++) aKey[k] = t->aiPkey[k] + 1;
      strbuf_init(&name);
      pgobj_pkey_name(t, &name);
      pgcat__row_init(&r, &pgcat__pg_constraint, pCtx);
      pgcat_constraint_common(&r, pgobj_pkey_oid(t->iId), strbuf_str(&name), 'p',
                              pgobj_table_oid(t->iId));
      strbuf_free(&name);
      pgcat__row_int(&r, "conindid", pgobj_index_oid(t->iId));
      pgcat__row_ints(&r, "conkey", aKey, n);
      rc = pgcat__row_emit(&r, xRow, pArg, pErr);
    }
    for (int k = 0; rc == 0 && k < t->nFkey; k++) {
      rc = pgcat_fkey_row(&tabs, t, k, pCtx, xRow, pArg, pErr);
    }
  }
  pgobj_tables_free(&tabs);
  return rc;
}

/* ---- pg_tables -------------------------------------------------------------------- */

static int pgcat_pg_tables_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  pgobj_tables tabs;
  int rc = 0;
  if (pgcat__tables(pCtx, &tabs, pErr) != 0) return -1;
  for (int i = 0; rc == 0 && i < tabs.n; i++) {
    const cat_table *t = tabs.ap[i];
    vrow r;
    pgcat__row_init(&r, &pgcat__pg_tables, pCtx);
    pgcat__row_text(&r, "schemaname", "public");
    pgcat__row_text(&r, "tablename", t->zName);
    pgcat__row_text(&r, "tableowner", pgcat_owner(pCtx));
    pgcat__row_bool(&r, "hasindexes", t->nPkey > 0);
    pgcat__row_bool(&r, "hasrules", 0);
    pgcat__row_bool(&r, "hastriggers", t->nFkey > 0 || pgcat_is_referenced(&tabs, t));
    pgcat__row_bool(&r, "rowsecurity", 0);
    rc = pgcat__row_emit(&r, xRow, pArg, pErr);
  }
  pgobj_tables_free(&tabs);
  if (rc == 0) {
    for (int i = 0; rc == 0 && i < pgcat__nRel; i++) {
      const vrel *p = pgcat__aRel[i];
      vrow r;
      if (p->cRelKind != 'r') continue;
      pgcat__row_init(&r, &pgcat__pg_tables, pCtx);
      pgcat__row_text(&r, "schemaname", p->zSchema);
      pgcat__row_text(&r, "tablename", p->zName);
      pgcat__row_text(&r, "tableowner", pgcat_owner(pCtx));
      pgcat__row_bool(&r, "hasindexes", 1);
      pgcat__row_bool(&r, "hasrules", 0);
      pgcat__row_bool(&r, "hastriggers", 0);
      pgcat__row_bool(&r, "rowsecurity", 0);
      rc = pgcat__row_emit(&r, xRow, pArg, pErr);
    }
  }
  return rc;
}

/* pg_description: the comments initdb gives the built-in schemas. */
static int pgcat_pg_description_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg,
                                     sql_error *pErr) {
  static const uint32_t aOid[] = {PGOBJ_NS_PG_CATALOG, PGOBJ_NS_PG_TOAST, PGOBJ_NS_PUBLIC};
  for (size_t i = 0; i < sizeof(aOid) / sizeof(aOid[0]); i++) {
    vrow r;
    int rc;
    pgcat__row_init(&r, &pgcat__pg_description, pCtx);
    pgcat__row_int(&r, "objoid", aOid[i]);
    pgcat__row_int(&r, "classoid", PGOBJ_CLASS_PG_NAMESPACE);
    pgcat__row_int(&r, "objsubid", 0);
    pgcat__row_text(&r, "description", pgobj_schema_comment(aOid[i]));
    if ((rc = pgcat__row_emit(&r, xRow, pArg, pErr)) != 0) return rc;
  }
  return 0;
}

/* Relations starq has no rows for: no defaults, comments, inheritance or
** views of its own. They exist, with every column, so queries that join
** them run. */
static int pgcat_empty_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  (void)pCtx, (void)xRow, (void)pArg, (void)pErr;
  return 0;
}
#define pgcat_pg_attrdef_scan pgcat_empty_scan
#define pgcat_pg_inherits_scan pgcat_empty_scan
#define pgcat_pg_views_scan pgcat_empty_scan

/* ---- definitions ------------------------------------------------------------- */

static const vrel_col vrel_aPgNamespace[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"nspname", VT(COLTYPE_NAME), 1}, {"nspowner", VT(COLTYPE_OID), 1},
    {"nspacl", VT_ARRAY(COLTYPE_ACLITEM), 0},
};
const vrel pgcat__pg_namespace = {"pg_catalog", "pg_namespace", 2615, 'r',
    PGCAT_COLS(vrel_aPgNamespace), 100, pgcat_pg_namespace_scan};

static const vrel_col vrel_aPgClass[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"relname", VT(COLTYPE_NAME), 1},
    {"relnamespace", VT(COLTYPE_OID), 1}, {"reltype", VT(COLTYPE_OID), 1},
    {"reloftype", VT(COLTYPE_OID), 1}, {"relowner", VT(COLTYPE_OID), 1},
    {"relam", VT(COLTYPE_OID), 1}, {"relfilenode", VT(COLTYPE_OID), 1},
    {"reltablespace", VT(COLTYPE_OID), 1}, {"relpages", VT(COLTYPE_INTEGER), 1},
    {"reltuples", VT(COLTYPE_FLOAT4), 1}, {"relallvisible", VT(COLTYPE_INTEGER), 1},
    {"reltoastrelid", VT(COLTYPE_OID), 1}, {"relhasindex", VT(COLTYPE_BOOLEAN), 1},
    {"relisshared", VT(COLTYPE_BOOLEAN), 1}, {"relpersistence", VT(COLTYPE_PGCHAR), 1},
    {"relkind", VT(COLTYPE_PGCHAR), 1}, {"relnatts", VT(COLTYPE_SMALLINT), 1},
    {"relchecks", VT(COLTYPE_SMALLINT), 1}, {"relhasrules", VT(COLTYPE_BOOLEAN), 1},
    {"relhastriggers", VT(COLTYPE_BOOLEAN), 1}, {"relhassubclass", VT(COLTYPE_BOOLEAN), 1},
    {"relrowsecurity", VT(COLTYPE_BOOLEAN), 1}, {"relforcerowsecurity", VT(COLTYPE_BOOLEAN), 1},
    {"relispopulated", VT(COLTYPE_BOOLEAN), 1}, {"relreplident", VT(COLTYPE_PGCHAR), 1},
    {"relispartition", VT(COLTYPE_BOOLEAN), 1}, {"relrewrite", VT(COLTYPE_OID), 1},
    {"relfrozenxid", VT(COLTYPE_XID), 1}, {"relminmxid", VT(COLTYPE_XID), 1},
    {"relacl", VT_ARRAY(COLTYPE_ACLITEM), 0}, {"reloptions", VT_ARRAY(COLTYPE_TEXT), 0},
    {"relpartbound", VT(COLTYPE_PG_NODE_TREE), 0},
};
const vrel pgcat__pg_class = {"pg_catalog", "pg_class", 1259, 'r',
    PGCAT_COLS(vrel_aPgClass), 100, pgcat_pg_class_scan};

static const vrel_col vrel_aPgAttribute[] = {
    {"attrelid", VT(COLTYPE_OID), 1}, {"attname", VT(COLTYPE_NAME), 1},
    {"atttypid", VT(COLTYPE_OID), 1}, {"attstattarget", VT(COLTYPE_INTEGER), 1},
    {"attlen", VT(COLTYPE_SMALLINT), 1}, {"attnum", VT(COLTYPE_SMALLINT), 1},
    {"attndims", VT(COLTYPE_INTEGER), 1}, {"attcacheoff", VT(COLTYPE_INTEGER), 1},
    {"atttypmod", VT(COLTYPE_INTEGER), 1}, {"attbyval", VT(COLTYPE_BOOLEAN), 1},
    {"attalign", VT(COLTYPE_PGCHAR), 1}, {"attstorage", VT(COLTYPE_PGCHAR), 1},
    {"attcompression", VT(COLTYPE_PGCHAR), 1}, {"attnotnull", VT(COLTYPE_BOOLEAN), 1},
    {"atthasdef", VT(COLTYPE_BOOLEAN), 1}, {"atthasmissing", VT(COLTYPE_BOOLEAN), 1},
    {"attidentity", VT(COLTYPE_PGCHAR), 1}, {"attgenerated", VT(COLTYPE_PGCHAR), 1},
    {"attisdropped", VT(COLTYPE_BOOLEAN), 1}, {"attislocal", VT(COLTYPE_BOOLEAN), 1},
    {"attinhcount", VT(COLTYPE_INTEGER), 1}, {"attcollation", VT(COLTYPE_OID), 1},
    {"attacl", VT_ARRAY(COLTYPE_ACLITEM), 0}, {"attoptions", VT_ARRAY(COLTYPE_TEXT), 0},
    {"attfdwoptions", VT_ARRAY(COLTYPE_TEXT), 0}, {"attmissingval", VT(COLTYPE_ANYARRAY), 0},
};
const vrel pgcat__pg_attribute = {"pg_catalog", "pg_attribute", 1249, 'r',
    PGCAT_COLS(vrel_aPgAttribute), 100, pgcat_pg_attribute_scan};

static const vrel_col vrel_aPgIndex[] = {
    {"indexrelid", VT(COLTYPE_OID), 1}, {"indrelid", VT(COLTYPE_OID), 1},
    {"indnatts", VT(COLTYPE_SMALLINT), 1}, {"indnkeyatts", VT(COLTYPE_SMALLINT), 1},
    {"indisunique", VT(COLTYPE_BOOLEAN), 1}, {"indnullsnotdistinct", VT(COLTYPE_BOOLEAN), 1},
    {"indisprimary", VT(COLTYPE_BOOLEAN), 1}, {"indisexclusion", VT(COLTYPE_BOOLEAN), 1},
    {"indimmediate", VT(COLTYPE_BOOLEAN), 1}, {"indisclustered", VT(COLTYPE_BOOLEAN), 1},
    {"indisvalid", VT(COLTYPE_BOOLEAN), 1}, {"indcheckxmin", VT(COLTYPE_BOOLEAN), 1},
    {"indisready", VT(COLTYPE_BOOLEAN), 1}, {"indislive", VT(COLTYPE_BOOLEAN), 1},
    {"indisreplident", VT(COLTYPE_BOOLEAN), 1}, {"indkey", VT(COLTYPE_INT2VECTOR), 1},
    {"indcollation", VT(COLTYPE_OIDVECTOR), 1}, {"indclass", VT(COLTYPE_OIDVECTOR), 1},
    {"indoption", VT(COLTYPE_INT2VECTOR), 1}, {"indexprs", VT(COLTYPE_PG_NODE_TREE), 0},
    {"indpred", VT(COLTYPE_PG_NODE_TREE), 0},
};
const vrel pgcat__pg_index = {"pg_catalog", "pg_index", 2610, 'r',
    PGCAT_COLS(vrel_aPgIndex), 100, pgcat_pg_index_scan};

static const vrel_col vrel_aPgConstraint[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"conname", VT(COLTYPE_NAME), 1},
    {"connamespace", VT(COLTYPE_OID), 1}, {"contype", VT(COLTYPE_PGCHAR), 1},
    {"condeferrable", VT(COLTYPE_BOOLEAN), 1}, {"condeferred", VT(COLTYPE_BOOLEAN), 1},
    {"convalidated", VT(COLTYPE_BOOLEAN), 1}, {"conrelid", VT(COLTYPE_OID), 1},
    {"contypid", VT(COLTYPE_OID), 1}, {"conindid", VT(COLTYPE_OID), 1},
    {"conparentid", VT(COLTYPE_OID), 1}, {"confrelid", VT(COLTYPE_OID), 1},
    {"confupdtype", VT(COLTYPE_PGCHAR), 1}, {"confdeltype", VT(COLTYPE_PGCHAR), 1},
    {"confmatchtype", VT(COLTYPE_PGCHAR), 1}, {"conislocal", VT(COLTYPE_BOOLEAN), 1},
    {"coninhcount", VT(COLTYPE_INTEGER), 1}, {"connoinherit", VT(COLTYPE_BOOLEAN), 1},
    {"conkey", VT_ARRAY(COLTYPE_SMALLINT), 0}, {"confkey", VT_ARRAY(COLTYPE_SMALLINT), 0},
    {"conpfeqop", VT_ARRAY(COLTYPE_OID), 0}, {"conppeqop", VT_ARRAY(COLTYPE_OID), 0},
    {"conffeqop", VT_ARRAY(COLTYPE_OID), 0}, {"confdelsetcols", VT_ARRAY(COLTYPE_SMALLINT), 0},
    {"conexclop", VT_ARRAY(COLTYPE_OID), 0}, {"conbin", VT(COLTYPE_PG_NODE_TREE), 0},
};
const vrel pgcat__pg_constraint = {"pg_catalog", "pg_constraint", 2606, 'r',
    PGCAT_COLS(vrel_aPgConstraint), 100, pgcat_pg_constraint_scan};

static const vrel_col vrel_aPgAttrdef[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"adrelid", VT(COLTYPE_OID), 1},
    {"adnum", VT(COLTYPE_SMALLINT), 1}, {"adbin", VT(COLTYPE_PG_NODE_TREE), 1},
};
const vrel pgcat__pg_attrdef = {"pg_catalog", "pg_attrdef", 2604, 'r',
    PGCAT_COLS(vrel_aPgAttrdef), 100, pgcat_pg_attrdef_scan};

static const vrel_col vrel_aPgDescription[] = {
    {"objoid", VT(COLTYPE_OID), 1}, {"classoid", VT(COLTYPE_OID), 1},
    {"objsubid", VT(COLTYPE_INTEGER), 1}, {"description", VT(COLTYPE_TEXT), 1},
};
const vrel pgcat__pg_description = {"pg_catalog", "pg_description", 2609, 'r',
    PGCAT_COLS(vrel_aPgDescription), 100, pgcat_pg_description_scan};

static const vrel_col vrel_aPgInherits[] = {
    {"inhrelid", VT(COLTYPE_OID), 1}, {"inhparent", VT(COLTYPE_OID), 1},
    {"inhseqno", VT(COLTYPE_INTEGER), 1}, {"inhdetachpending", VT(COLTYPE_BOOLEAN), 1},
};
const vrel pgcat__pg_inherits = {"pg_catalog", "pg_inherits", 2611, 'r',
    PGCAT_COLS(vrel_aPgInherits), 100, pgcat_pg_inherits_scan};

static const vrel_col vrel_aPgTables[] = {
    {"schemaname", VT(COLTYPE_NAME), 0}, {"tablename", VT(COLTYPE_NAME), 0},
    {"tableowner", VT(COLTYPE_NAME), 0}, {"tablespace", VT(COLTYPE_NAME), 0},
    {"hasindexes", VT(COLTYPE_BOOLEAN), 0}, {"hasrules", VT(COLTYPE_BOOLEAN), 0},
    {"hastriggers", VT(COLTYPE_BOOLEAN), 0}, {"rowsecurity", VT(COLTYPE_BOOLEAN), 0},
};
const vrel pgcat__pg_tables = {"pg_catalog", "pg_tables", 12033, 'v',
    PGCAT_COLS(vrel_aPgTables), 100, pgcat_pg_tables_scan};

static const vrel_col vrel_aPgViews[] = {
    {"schemaname", VT(COLTYPE_NAME), 0}, {"viewname", VT(COLTYPE_NAME), 0},
    {"viewowner", VT(COLTYPE_NAME), 0}, {"definition", VT(COLTYPE_TEXT), 0},
};
const vrel pgcat__pg_views = {"pg_catalog", "pg_views", 12028, 'v',
    PGCAT_COLS(vrel_aPgViews), 100, pgcat_pg_views_scan};
