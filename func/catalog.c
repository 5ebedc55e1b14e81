/*
** func/catalog.c — the session and catalog functions clients call:
** version(), current_database(), current_schema(), current_user,
** session_user, current_setting(), pg_backend_pid(), format_type(),
** pg_get_userbyid(), pg_encoding_to_char(), the *_is_visible tests,
** obj_description() and friends, pg_get_constraintdef(),
** pg_get_indexdef(), pg_get_expr(), quote_ident() and the
** has_*_privilege() family, with PostgreSQL 15's pg_proc oids, results
** and errors. They read the session through func_ctx and starq's objects
** through catalog/pgobj.h.
**
** starq serves one database to one superuser: every privilege test is
** true once its arguments name a real object, role and privilege (as
** PostgreSQL answers a superuser); starq keeps no comments, so the
** *_description() functions are NULL, as PostgreSQL's are for an object
** without one; it stores no expressions, so pg_get_expr() only ever
** sees the NULLs pg_attrdef and pg_index hold.
**
** INTERFACE ROUTINES
**   func__groupCatalog    this group's table (funcInt.h)
*/
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../catalog/pgobj.h"
#include "../catalog/vrel.h"
#include "funcInt.h"

/* ---- results and arguments ------------------------------------------------------- */

static int fcat_text(func_ctx *pCtx, coltype_id eType, const char *z, datum *pOut,
                     sql_error *pErr) {
  return func__text(pCtx, eType, z, pOut, pErr);
}

/* Copies text argument d into z[nz] (cut at nz-1 bytes). */
static const char *fcat_arg(const datum *d, char *z, size_t nz) {
  size_t n = d->u.s.n < nz - 1 ? d->u.s.n : nz - 1;
  memcpy(z, d->u.s.z, n);
  z[n] = 0;
  return z;
}

static const char *fcat_user(func_ctx *pCtx) {
  return pCtx->zUser != NULL ? pCtx->zUser : "starq";
}

/* ---- session ------------------------------------------------------------------------- */

/* version(): PostgreSQL's shape ("PostgreSQL 15.0 ... on <platform>,
** compiled by <compiler>, 64-bit"), which drivers parse for the
** version number. */
static int fcat_version(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                        sql_error *pErr) {
  char z[256];
  (void)nArg, (void)aArg;
#if defined(__x86_64__)
  const char *zArch = "x86_64-pc-linux-gnu";
#elif defined(__aarch64__)
  const char *zArch = "aarch64-unknown-linux-gnu";
#else
  const char *zArch = "unknown-linux-gnu";
#endif
#if defined(__clang__)
  const char *zCc = "clang " __clang_version__;
#elif defined(__GNUC__)
  const char *zCc = "gcc " __VERSION__;
#else
  const char *zCc = "cc";
#endif
  snprintf(z, sizeof(z), "PostgreSQL 15.0 (starq) on %s, compiled by %s, %d-bit", zArch, zCc,
           (int)(8 * sizeof(void *)));
  return fcat_text(pCtx, COLTYPE_TEXT, z, pOut, pErr);
}

static int fcat_current_database(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                                 sql_error *pErr) {
  (void)nArg, (void)aArg;
  return fcat_text(pCtx, COLTYPE_NAME, pCtx->zDatabase != NULL ? pCtx->zDatabase : "starq", pOut,
                   pErr);
}

/* current_schema(): the first schema of the search path that exists;
** every table lives in public. */
static int fcat_current_schema(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                               sql_error *pErr) {
  (void)nArg, (void)aArg;
  return fcat_text(pCtx, COLTYPE_NAME, "public", pOut, pErr);
}

/* current_schemas(include_implicit): the search path's schemas, with
** pg_catalog first when include_implicit (PostgreSQL searches it first
** though the path does not name it). */
static int fcat_current_schemas(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                                sql_error *pErr) {
  static const char *const azSchema[] = {"pg_catalog", "public"};
  static const coltype tName = {COLTYPE_NAME, 0, 0, 0};
  int iFirst = aArg[0].u.i ? 0 : 1, n = 2 - iFirst;
  datum *a = arena_alloc(pCtx->pArena, sizeof(datum) * (size_t)n);
  (void)nArg;
  if (a == NULL) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return -1;
  }
  for (int i = 0; i < n; i++) {
    if (fcat_text(pCtx, COLTYPE_NAME, azSchema[iFirst + i], &a[i], pErr) != 0) return -1;
  }
  *pOut = datum_array(coltype_array(tName), a, (uint32_t)n);
  return 0;
}

static int fcat_current_user(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                             sql_error *pErr) {
  (void)nArg, (void)aArg;
  return fcat_text(pCtx, COLTYPE_NAME, fcat_user(pCtx), pOut, pErr);
}

/* current_setting(name [, missing_ok]) */
static int fcat_current_setting(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                                sql_error *pErr) {
  char zName[128];
  const char *zVal;
  fcat_arg(&aArg[0], zName, sizeof(zName));
  zVal = pCtx->xSetting != NULL ? pCtx->xSetting(pCtx->pSettingArg, zName) : NULL;
  if (zVal == NULL) {
    if (nArg > 1 && !aArg[1].bNull && aArg[1].u.i) {
      *pOut = datum_null(COLTYPE_TEXT);
      return 0;
    }
    sql_error_set(pErr, SQLSTATE_UNDEFINED_OBJECT, -1,
                  "unrecognized configuration parameter \"%s\"", zName);
    return -1;
  }
  return fcat_text(pCtx, COLTYPE_TEXT, zVal, pOut, pErr);
}

static int fcat_backend_pid(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                            sql_error *pErr) {
  (void)nArg, (void)aArg, (void)pErr;
  *pOut = datum_int(COLTYPE_INTEGER, pCtx->iBackendPid);
  return 0;
}

/* ---- types, roles, encodings ------------------------------------------------------ */

/* format_type(oid, typmod): not strict; a NULL typmod is "none given". */
static int fcat_format_type(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                            sql_error *pErr) {
  strbuf s;
  int rc;
  (void)nArg;
  if (aArg[0].bNull) {
    *pOut = datum_null(COLTYPE_TEXT);
    return 0;
  }
  strbuf_init(&s);
  pgobj_format_type((uint32_t)aArg[0].u.i,
                    aArg[1].bNull ? PGOBJ_TYPMOD_NONE : (int32_t)aArg[1].u.i, &s);
  rc = fcat_text(pCtx, COLTYPE_TEXT, strbuf_str(&s), pOut, pErr);
  strbuf_free(&s);
  return rc;
}

static int fcat_userbyid(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                         sql_error *pErr) {
  char z[64];
  uint32_t oid = (uint32_t)aArg[0].u.i;
  (void)nArg;
  if (oid == PGOBJ_ROLE_OWNER) return fcat_text(pCtx, COLTYPE_NAME, fcat_user(pCtx), pOut, pErr);
  if (oid == PGOBJ_ROLE_DATABASE_OWNER) snprintf(z, sizeof(z), "pg_database_owner");
  else snprintf(z, sizeof(z), "unknown (OID=%u)", oid);
  return fcat_text(pCtx, COLTYPE_NAME, z, pOut, pErr);
}

/* PostgreSQL's encodings by number (pg_enc). */
static const char *const fcat_azEncoding[] = {
    "SQL_ASCII", "EUC_JP", "EUC_CN", "EUC_KR", "EUC_TW", "EUC_JIS_2004", "UTF8",
    "MULE_INTERNAL", "LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN6", "LATIN7",
    "LATIN8", "LATIN9", "LATIN10", "WIN1256", "WIN1258", "WIN866", "WIN874", "KOI8R",
    "WIN1251", "WIN1252", "ISO_8859_5", "ISO_8859_6", "ISO_8859_7", "ISO_8859_8", "WIN1250",
    "WIN1253", "WIN1254", "WIN1255", "WIN1257", "KOI8U", "SJIS", "BIG5", "GBK", "UHC",
    "GB18030", "JOHAB", "SHIFT_JIS_2004"};

static int fcat_encoding_to_char(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                                 sql_error *pErr) {
  int64_t i = aArg[0].u.i;
  int n = (int)(sizeof(fcat_azEncoding) / sizeof(fcat_azEncoding[0]));
  (void)nArg;
  return fcat_text(pCtx, COLTYPE_NAME, i >= 0 && i < n ? fcat_azEncoding[i] : "", pOut, pErr);
}

static int fcat_quote_ident(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                            sql_error *pErr) {
  strbuf s;
  int rc;
  (void)nArg;
  strbuf_init(&s);
  pgobj_quote_ident(aArg[0].u.s.z, aArg[0].u.s.n, &s);
  rc = fcat_text(pCtx, COLTYPE_TEXT, strbuf_str(&s), pOut, pErr);
  strbuf_free(&s);
  return rc;
}

/* ---- starq's objects ---------------------------------------------------------------- */

/* Loads the statement's tables (none without a catalog). */
static int fcat_tables(func_ctx *pCtx, pgobj_tables *p, sql_error *pErr) {
  memset(p, 0, sizeof(*p));
  return pCtx->pCat != NULL ? pgobj_tables_load(pCtx->pCat, p, pErr) : 0;
}

/* The table a user object's oid names, or NULL (*pe: its kind). */
static const cat_table *fcat_object(const pgobj_tables *p, uint32_t oid, pgobj_kind *pe, int *pk) {
  int64_t iId;
  const cat_table *t;
  *pe = pgobj_oid_decode(oid, &iId, pk);
  if (*pe == PGOBJ_NONE || (t = pgobj_table_by_id(p, iId)) == NULL) return NULL;
  if ((*pe == PGOBJ_INDEX || *pe == PGOBJ_PKEY) && t->nPkey == 0) return NULL;
  if (*pe == PGOBJ_FKEY && *pk >= t->nFkey) return NULL;
  return t;
}

static void fcat_column_list(const cat_table *t, const int *aiCol, int n, strbuf *s) {
  strbuf_puts(s, "(");
  for (int i = 0; i < n; i++) {
    const char *z = t->aCol[aiCol[i]].zName;
    if (i > 0) strbuf_puts(s, ", ");
    pgobj_quote_ident(z, strlen(z), s);
  }
  strbuf_puts(s, ")");
}

/* pg_get_constraintdef(oid [, pretty]): NULL for an unknown oid. */
static int fcat_constraintdef(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                              sql_error *pErr) {
  pgobj_tables tabs;
  const cat_table *t;
  pgobj_kind e;
  int k, rc = 0;
  strbuf s;
  (void)nArg;
  if (fcat_tables(pCtx, &tabs, pErr) != 0) return -1;
  strbuf_init(&s);
  t = fcat_object(&tabs, (uint32_t)aArg[0].u.i, &e, &k);
  if (t != NULL && e == PGOBJ_PKEY) {
    strbuf_puts(&s, "PRIMARY KEY ");
    fcat_column_list(t, t->aiPkey, t->nPkey, &s);
  } else if (t != NULL && e == PGOBJ_FKEY) {
    const cat_fkey *f = &t->aFkey[k];
    const cat_table *pRef = pgobj_table_by_name(&tabs, f->zRefTable);
    strbuf_puts(&s, "FOREIGN KEY ");
    fcat_column_list(t, f->aiCol, f->nCol, &s);
    strbuf_puts(&s, " REFERENCES ");
    pgobj_quote_ident(f->zRefTable, strlen(f->zRefTable), &s);
    if (pRef != NULL) fcat_column_list(pRef, f->aiRefCol, f->nCol, &s);
  } else {
    t = NULL;
  }
  if (t == NULL) *pOut = datum_null(COLTYPE_TEXT);
  else rc = fcat_text(pCtx, COLTYPE_TEXT, strbuf_str(&s), pOut, pErr);
  strbuf_free(&s);
  pgobj_tables_free(&tabs);
  return rc;
}

/* pg_get_indexdef(oid [, column, pretty]): the CREATE INDEX statement, or
** with column k > 0 that key column's name alone. */
static int fcat_indexdef(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                         sql_error *pErr) {
  pgobj_tables tabs;
  const cat_table *t;
  pgobj_kind e;
  int k, rc = 0, iCol = nArg > 1 ? (int)aArg[1].u.i : 0;
  strbuf s;
  if (fcat_tables(pCtx, &tabs, pErr) != 0) return -1;
  strbuf_init(&s);
  t = fcat_object(&tabs, (uint32_t)aArg[0].u.i, &e, &k);
  if (t == NULL || e != PGOBJ_INDEX) {
    t = NULL;
  } else if (iCol > 0) {
    if (iCol <= t->nPkey) strbuf_puts(&s, t->aCol[t->aiPkey[iCol - 1]].zName);
  } else {
    strbuf_puts(&s, "CREATE UNIQUE INDEX ");
    pgobj_pkey_name(t, &s);
    strbuf_puts(&s, " ON public.");
    pgobj_quote_ident(t->zName, strlen(t->zName), &s);
    strbuf_puts(&s, " USING btree ");
    fcat_column_list(t, t->aiPkey, t->nPkey, &s);
  }
  if (t == NULL) *pOut = datum_null(COLTYPE_TEXT);
  else rc = fcat_text(pCtx, COLTYPE_TEXT, strbuf_str(&s), pOut, pErr);
  strbuf_free(&s);
  pgobj_tables_free(&tabs);
  return rc;
}

/* pg_get_expr(): starq stores no expressions, so a non-NULL node tree
** can only be one a client typed. */
static int fcat_get_expr(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                         sql_error *pErr) {
  (void)pCtx, (void)nArg, (void)aArg, (void)pOut;
  sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                "starq stores no expressions for pg_get_expr to show");
  return -1;
}

/* The *_description() functions: starq keeps no comments of its own;
** the built-in schemas have initdb's (obj_description(oid,
** 'pg_namespace')). */
static int fcat_description(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                            sql_error *pErr) {
  const char *z = NULL;
  if (nArg == 2 && aArg[1].type.eId == COLTYPE_NAME && aArg[1].u.s.n == 12 &&
      memcmp(aArg[1].u.s.z, "pg_namespace", 12) == 0) {
    z = pgobj_schema_comment((uint32_t)aArg[0].u.i);
  }
  if (z != NULL) return fcat_text(pCtx, COLTYPE_TEXT, z, pOut, pErr);
  *pOut = datum_null(COLTYPE_TEXT);
  return 0;
}

/* Whether oid names a relation: 1 a visible one (public's, pg_catalog's),
** 0 an invisible one (information_schema's), -1 none. */
static int fcat_relation_visible(func_ctx *pCtx, uint32_t oid, sql_error *pErr, int *pVis);

typedef struct fcat_vis fcat_vis;
struct fcat_vis {
  uint32_t oid;
  int iVis;
};

static int fcat_vrel_visit(void *pArg, const vrel *p) {
  fcat_vis *v = pArg;
  if (p->oid != v->oid) return 0;
  v->iVis = strcmp(p->zSchema, "pg_catalog") == 0;
  return 1;
}

static int fcat_relation_visible(func_ctx *pCtx, uint32_t oid, sql_error *pErr, int *pVis) {
  pgobj_tables tabs;
  pgobj_kind e;
  int k;
  fcat_vis v = {oid, -1};
  if (fcat_tables(pCtx, &tabs, pErr) != 0) return -1;
  if (fcat_object(&tabs, oid, &e, &k) != NULL && (e == PGOBJ_TABLE || e == PGOBJ_INDEX)) v.iVis = 1;
  pgobj_tables_free(&tabs);
  if (v.iVis < 0 && pCtx->xVrelEach != NULL) pCtx->xVrelEach(fcat_vrel_visit, &v);
  *pVis = v.iVis;
  return 0;
}

static int fcat_table_is_visible(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                                 sql_error *pErr) {
  int iVis;
  (void)nArg;
  if (fcat_relation_visible(pCtx, (uint32_t)aArg[0].u.i, pErr, &iVis) != 0) return -1;
  *pOut = iVis < 0 ? datum_null(COLTYPE_BOOLEAN) : datum_bool(iVis);
  return 0;
}

static int fcat_type_is_visible(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                                sql_error *pErr) {
  (void)pCtx, (void)nArg, (void)pErr;
  *pOut = pgobj_type_by_oid((uint32_t)aArg[0].u.i) != NULL ? datum_bool(1)
                                                            : datum_null(COLTYPE_BOOLEAN);
  return 0;
}

static int fcat_function_is_visible(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                                    sql_error *pErr) {
  uint32_t oid = (uint32_t)aArg[0].u.i;
  (void)pCtx, (void)nArg, (void)pErr;
  *pOut = func_by_oid(oid) != NULL || pgobj_proc_by_oid(oid) != NULL
              ? datum_bool(1)
              : datum_null(COLTYPE_BOOLEAN);
  return 0;
}

/* ---- privileges ------------------------------------------------------------------------ */

/* Checks privilege list z (comma-separated, any case, each optionally
** WITH GRANT OPTION) against the words azOk allows: 22023 otherwise. */
static int fcat_privileges(const datum *d, const char *const *azOk, sql_error *pErr) {
  char z[256], *zSave = NULL;
  fcat_arg(d, z, sizeof(z));
  for (char *w = strtok_r(z, ",", &zSave); w != NULL; w = strtok_r(NULL, ",", &zSave)) {
    size_t n;
    int bOk = 0;
    while (*w == ' ') w++;
    n = strlen(w);
    while (n > 0 && w[n - 1] == ' ') w[--n] = 0;
    if (n > 18 && strcasecmp(w + n - 18, " WITH GRANT OPTION") == 0) {
      w[n - 18] = 0;
      while (n > 18 && w[strlen(w) - 1] == ' ') w[strlen(w) - 1] = 0;
    }
    for (int i = 0; azOk[i] != NULL && !bOk; i++) bOk = strcasecmp(w, azOk[i]) == 0;
    if (!bOk) {
      sql_error_set(pErr, SQLSTATE_INVALID_PARAMETER, -1, "unrecognized privilege type: \"%s\"", w);
      return -1;
    }
  }
  return 0;
}

/* Checks a role argument (name or oid): the session's user and
** pg_database_owner exist. Returns 0, or -1 with 42704. */
static int fcat_role(func_ctx *pCtx, const datum *d, sql_error *pErr) {
  char z[128];
  if (d->type.eId == COLTYPE_OID) return 0;  /* an unknown oid: PostgreSQL answers true too */
  fcat_arg(d, z, sizeof(z));
  if (strcmp(z, fcat_user(pCtx)) == 0 || strcmp(z, "pg_database_owner") == 0 ||
      strcmp(z, "public") == 0) {
    return 0;
  }
  sql_error_set(pErr, SQLSTATE_UNDEFINED_OBJECT, -1, "role \"%s\" does not exist", z);
  return -1;
}

/* Whether relation zSchema.zName exists (zSchema "": found through the
** search path, pg_catalog then public). */
static int fcat_relation_exists(func_ctx *pCtx, const char *zSchema, const char *zName, int *pb,
                                sql_error *pErr) {
  uint32_t oid;
  if (func__relation_oid(pCtx, zSchema, zName, &oid, pErr) != 0) return -1;
  *pb = oid != 0;
  return 0;
}

/* has_table_privilege([role,] table, privilege): the role, then the
** table, then the privilege checked, in PostgreSQL's order; a table named
** by text must exist (42P01), one named by an unknown oid gives NULL. */
static int fcat_has_table(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                          sql_error *pErr) {
  static const char *const azOk[] = {"SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE",
                                     "REFERENCES", "TRIGGER", NULL};
  const datum *pRel = &aArg[nArg - 2];
  int bFound = 1;
  if (nArg == 3 && fcat_role(pCtx, &aArg[0], pErr) != 0) return -1;
  if (pRel->type.eId == COLTYPE_OID) {
    int iVis;
    if (fcat_relation_visible(pCtx, (uint32_t)pRel->u.i, pErr, &iVis) != 0) return -1;
    bFound = iVis >= 0;
  } else {
    char zSchema[FUNC_NAME_MAX], zName[FUNC_NAME_MAX];
    if (func__relation_parse(pCtx, pRel->u.s.z, pRel->u.s.n, zSchema, zName, pErr) != 0) return -1;
    if (fcat_relation_exists(pCtx, zSchema, zName, &bFound, pErr) != 0) return -1;
    if (!bFound) {
      sql_error_set(pErr, SQLSTATE_UNDEFINED_TABLE, -1, "relation \"%s%s%s\" does not exist",
                    zSchema, zSchema[0] ? "." : "", zName);
      return -1;
    }
  }
  if (fcat_privileges(&aArg[nArg - 1], azOk, pErr) != 0) return -1;
  *pOut = bFound ? datum_bool(1) : datum_null(COLTYPE_BOOLEAN);
  return 0;
}

static int fcat_has_schema(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                           sql_error *pErr) {
  static const char *const azOk[] = {"CREATE", "USAGE", NULL};
  const datum *pNs = &aArg[nArg - 2];
  if (nArg == 3 && fcat_role(pCtx, &aArg[0], pErr) != 0) return -1;
  if (fcat_privileges(&aArg[nArg - 1], azOk, pErr) != 0) return -1;
  if (pNs->type.eId == COLTYPE_OID) {
    *pOut = pgobj_schema_name((uint32_t)pNs->u.i) != NULL ? datum_bool(1)
                                                           : datum_null(COLTYPE_BOOLEAN);
    return 0;
  }
  if (pgobj_schema_oid(pNs->u.s.z, pNs->u.s.n) == 0) {
    char z[128];
    sql_error_set(pErr, SQLSTATE_UNDEFINED_SCHEMA, -1, "schema \"%s\" does not exist",
                  fcat_arg(pNs, z, sizeof(z)));
    return -1;
  }
  *pOut = datum_bool(1);
  return 0;
}

static int fcat_has_database(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                             sql_error *pErr) {
  static const char *const azOk[] = {"CREATE", "CONNECT", "TEMPORARY", "TEMP", NULL};
  const datum *pDb = &aArg[nArg - 2];
  if (nArg == 3 && fcat_role(pCtx, &aArg[0], pErr) != 0) return -1;
  if (fcat_privileges(&aArg[nArg - 1], azOk, pErr) != 0) return -1;
  if (pDb->type.eId == COLTYPE_OID) {
    *pOut = pDb->u.i == PGOBJ_DATABASE ? datum_bool(1) : datum_null(COLTYPE_BOOLEAN);
    return 0;
  } else {
    char z[128];
    const char *zDb = pCtx->zDatabase != NULL ? pCtx->zDatabase : "starq";
    if (strcmp(fcat_arg(pDb, z, sizeof(z)), zDb) != 0) {
      sql_error_set(pErr, SQLSTATE_UNDEFINED_DATABASE, -1, "database \"%s\" does not exist", z);
      return -1;
    }
  }
  *pOut = datum_bool(1);
  return 0;
}

/* ---- the table ---------------------------------------------------------------------- */

#define S FUNC_STABLE
#define ST (FUNC_STABLE | FUNC_STRICT)
#define T_ COLTYPE_TEXT
#define N_ COLTYPE_NAME
#define O_ COLTYPE_OID
#define I_ COLTYPE_INTEGER
#define B_ COLTYPE_BOOLEAN

/* Overloads of one name are adjacent (func.c). eId: 9000 up, this group's. */
static const func_def fcat_aDef[] = {
    {"col_description", 1216, 9001, FUNC_SCALAR, 2, {O_, I_}, T_, ST, fcat_description},
    {"current_database", 861, 9002, FUNC_SCALAR, 0, {0}, N_, ST, fcat_current_database},
    {"current_schema", 1402, 9003, FUNC_SCALAR, 0, {0}, N_, ST, fcat_current_schema},
    {"current_schemas", 1403, 9050, FUNC_SCALAR, 1, {B_}, COLTYPE_ARRAY, ST, fcat_current_schemas},
    {"current_setting", 2077, 9004, FUNC_SCALAR, 1, {T_}, T_, ST, fcat_current_setting},
    {"current_setting", 3294, 9005, FUNC_SCALAR, 2, {T_, B_}, T_, ST, fcat_current_setting},
    {"current_user", 745, 9006, FUNC_SCALAR, 0, {0}, N_, ST, fcat_current_user},
    {"format_type", 1081, 9007, FUNC_SCALAR, 2, {O_, I_}, T_, S, fcat_format_type},
    {"has_database_privilege", 2250, 9008, FUNC_SCALAR, 3, {N_, T_, T_}, B_, ST, fcat_has_database},
    {"has_database_privilege", 2251, 9009, FUNC_SCALAR, 3, {N_, O_, T_}, B_, ST, fcat_has_database},
    {"has_database_privilege", 2252, 9010, FUNC_SCALAR, 3, {O_, T_, T_}, B_, ST, fcat_has_database},
    {"has_database_privilege", 2253, 9011, FUNC_SCALAR, 3, {O_, O_, T_}, B_, ST, fcat_has_database},
    {"has_database_privilege", 2254, 9012, FUNC_SCALAR, 2, {T_, T_}, B_, ST, fcat_has_database},
    {"has_database_privilege", 2255, 9013, FUNC_SCALAR, 2, {O_, T_}, B_, ST, fcat_has_database},
    {"has_schema_privilege", 2268, 9014, FUNC_SCALAR, 3, {N_, T_, T_}, B_, ST, fcat_has_schema},
    {"has_schema_privilege", 2269, 9015, FUNC_SCALAR, 3, {N_, O_, T_}, B_, ST, fcat_has_schema},
    {"has_schema_privilege", 2270, 9016, FUNC_SCALAR, 3, {O_, T_, T_}, B_, ST, fcat_has_schema},
    {"has_schema_privilege", 2271, 9017, FUNC_SCALAR, 3, {O_, O_, T_}, B_, ST, fcat_has_schema},
    {"has_schema_privilege", 2272, 9018, FUNC_SCALAR, 2, {T_, T_}, B_, ST, fcat_has_schema},
    {"has_schema_privilege", 2273, 9019, FUNC_SCALAR, 2, {O_, T_}, B_, ST, fcat_has_schema},
    {"has_table_privilege", 1922, 9020, FUNC_SCALAR, 3, {N_, T_, T_}, B_, ST, fcat_has_table},
    {"has_table_privilege", 1923, 9021, FUNC_SCALAR, 3, {N_, O_, T_}, B_, ST, fcat_has_table},
    {"has_table_privilege", 1924, 9022, FUNC_SCALAR, 3, {O_, T_, T_}, B_, ST, fcat_has_table},
    {"has_table_privilege", 1925, 9023, FUNC_SCALAR, 3, {O_, O_, T_}, B_, ST, fcat_has_table},
    {"has_table_privilege", 1926, 9024, FUNC_SCALAR, 2, {T_, T_}, B_, ST, fcat_has_table},
    {"has_table_privilege", 1927, 9025, FUNC_SCALAR, 2, {O_, T_}, B_, ST, fcat_has_table},
    {"obj_description", 1215, 9026, FUNC_SCALAR, 2, {O_, N_}, T_, ST, fcat_description},
    {"obj_description", 1348, 9027, FUNC_SCALAR, 1, {O_}, T_, ST, fcat_description},
    {"pg_backend_pid", 2026, 9028, FUNC_SCALAR, 0, {0}, I_, ST, fcat_backend_pid},
    {"pg_encoding_to_char", 1597, 9029, FUNC_SCALAR, 1, {I_}, N_, ST, fcat_encoding_to_char},
    {"pg_function_is_visible", 2081, 9030, FUNC_SCALAR, 1, {O_}, B_, ST, fcat_function_is_visible},
    {"pg_get_constraintdef", 1387, 9031, FUNC_SCALAR, 1, {O_}, T_, ST, fcat_constraintdef},
    {"pg_get_constraintdef", 2508, 9032, FUNC_SCALAR, 2, {O_, B_}, T_, ST, fcat_constraintdef},
    {"pg_get_expr", 1716, 9033, FUNC_SCALAR, 2, {COLTYPE_PG_NODE_TREE, O_}, T_, ST, fcat_get_expr},
    {"pg_get_expr", 2509, 9034, FUNC_SCALAR, 3, {COLTYPE_PG_NODE_TREE, O_, B_}, T_, ST,
     fcat_get_expr},
    {"pg_get_indexdef", 1643, 9035, FUNC_SCALAR, 1, {O_}, T_, ST, fcat_indexdef},
    {"pg_get_indexdef", 2507, 9036, FUNC_SCALAR, 3, {O_, I_, B_}, T_, ST, fcat_indexdef},
    {"pg_get_userbyid", 1642, 9037, FUNC_SCALAR, 1, {O_}, N_, ST, fcat_userbyid},
    {"pg_table_is_visible", 2079, 9038, FUNC_SCALAR, 1, {O_}, B_, ST, fcat_table_is_visible},
    {"pg_type_is_visible", 2080, 9039, FUNC_SCALAR, 1, {O_}, B_, ST, fcat_type_is_visible},
    {"quote_ident", 1282, 9040, FUNC_SCALAR, 1, {T_}, T_, FUNC_STRICT, fcat_quote_ident},
    {"session_user", 746, 9041, FUNC_SCALAR, 0, {0}, N_, ST, fcat_current_user},
    {"shobj_description", 1993, 9042, FUNC_SCALAR, 2, {O_, N_}, T_, ST, fcat_description},
    {"version", 89, 9043, FUNC_SCALAR, 0, {0}, T_, ST, fcat_version},
};

const func_group func__groupCatalog = {fcat_aDef, (int)(sizeof(fcat_aDef) / sizeof(fcat_aDef[0]))};
