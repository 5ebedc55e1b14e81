/*
** pgcat/rel-builtin.c — pg_catalog's relations that do not depend on
** starq's tables: the built-in types (pg_type), functions (pg_proc: the
** ones pg_type and pg_am name, and the function registry's), access
** methods, tablespaces, collations (pg_am, pg_tablespace, pg_collation,
** as PostgreSQL 15 initdb makes them with locale C), and what the
** session knows: its database (pg_database), its user (pg_roles,
** pg_user), its settings (pg_settings) and itself (pg_stat_activity).
** starq has no enums: pg_enum is empty.
**
** One database, one role. starq serves one database to one superuser
** role at a time: the session's (func_ctx), the owner of everything
** (oid 10); pg_database_owner (6171) owns schema public as in
** PostgreSQL 15.
**
** INTERFACE ROUTINES
**   pgcat__pg_type, pgcat__pg_proc, pgcat__pg_am, pgcat__pg_tablespace,
**   pgcat__pg_enum, pgcat__pg_collation, pgcat__pg_database,
**   pgcat__pg_roles, pgcat__pg_user, pgcat__pg_settings,
**   pgcat__pg_stat_activity   (vrel definitions)
*/
#include <string.h>

#include "pgcatInt.h"

static const char *pgcat_user(func_ctx *pCtx) {
  return pCtx->zUser != NULL ? pCtx->zUser : "starq";
}

static const char *pgcat_database(func_ctx *pCtx) {
  return pCtx->zDatabase != NULL ? pCtx->zDatabase : "starq";
}

/* ---- pg_type ------------------------------------------------------------------ */

static int pgcat_pg_type_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  for (int i = 0; i < pgobj_type_count(); i++) {
    const pgobj_type *t = pgobj_type_at(i);
    vrow r;
    int rc;
    pgcat__row_init(&r, &pgcat__pg_type, pCtx);
    pgcat__row_int(&r, "oid", t->oid);
    pgcat__row_text(&r, "typname", t->zName);
    pgcat__row_int(&r, "typnamespace", PGOBJ_NS_PG_CATALOG);
    pgcat__row_int(&r, "typowner", PGOBJ_ROLE_OWNER);
    pgcat__row_int(&r, "typlen", t->nLen);
    pgcat__row_bool(&r, "typbyval", t->bByVal);
    pgcat__row_char(&r, "typtype", t->cType);
    pgcat__row_char(&r, "typcategory", t->cCategory);
    pgcat__row_bool(&r, "typispreferred", t->bPreferred);
    pgcat__row_bool(&r, "typisdefined", 1);
    pgcat__row_char(&r, "typdelim", t->cDelim);
    pgcat__row_int(&r, "typsubscript", t->iSubscript);
    pgcat__row_int(&r, "typelem", t->iElem);
    pgcat__row_int(&r, "typarray", t->iArray);
    pgcat__row_int(&r, "typinput", t->iInput);
    pgcat__row_int(&r, "typoutput", t->iOutput);
    pgcat__row_int(&r, "typreceive", t->iReceive);
    pgcat__row_int(&r, "typsend", t->iSend);
    pgcat__row_int(&r, "typmodin", t->iModIn);
    pgcat__row_int(&r, "typmodout", t->iModOut);
    pgcat__row_int(&r, "typanalyze", t->iAnalyze);
    pgcat__row_char(&r, "typalign", t->cAlign);
    pgcat__row_char(&r, "typstorage", t->cStorage);
    pgcat__row_int(&r, "typtypmod", -1);
    pgcat__row_int(&r, "typcollation", t->iCollation);
    if ((rc = pgcat__row_emit(&r, xRow, pArg, pErr)) != 0) return rc;
  }
  return 0;
}

/* ---- pg_proc ------------------------------------------------------------------ */

/* The columns every pg_proc row shares. */
static void pgcat_proc_common(vrow *r, uint32_t oid, const char *zName) {
  pgcat__row_int(r, "oid", oid);
  pgcat__row_text(r, "proname", zName);
  pgcat__row_int(r, "pronamespace", PGOBJ_NS_PG_CATALOG);
  pgcat__row_int(r, "proowner", PGOBJ_ROLE_OWNER);
  pgcat__row_int(r, "prolang", 12);  /* internal */
  pgcat__row_float(r, "procost", 1);
  pgcat__row_char(r, "prokind", 'f');
  pgcat__row_text(r, "prosrc", zName);
}

typedef struct pgcat_proc_scan pgcat_proc_scan;
struct pgcat_proc_scan {
  func_ctx *pCtx;
  vrel_row_fn xRow;
  void *pArg;
  sql_error *pErr;
};

/* One pg_proc row of a registry function with a PostgreSQL oid. */
static int pgcat_proc_func(void *pArg, const func_def *f) {
  pgcat_proc_scan *s = pArg;
  int64_t aArg[FUNC_ARGS_MAX];
  vrow r;
  coltype t = func_result_type(f);
  if (f->oid == 0 || pgobj_proc_by_oid(f->oid) != NULL) return 0;
  for (int i = 0; i < f->nArg && i < FUNC_ARGS_MAX; i++) {
    coltype a = {f->aArg[i], 0, 0, 0};
    aArg[i] = pgobj_coltype_oid(a);
  }
  pgcat__row_init(&r, &pgcat__pg_proc, s->pCtx);
  pgcat_proc_common(&r, f->oid, f->zName);
  pgcat__row_char(&r, "prokind", f->eKind == FUNC_AGGREGATE ? 'a'
                                 : f->eKind == FUNC_WINDOW  ? 'w'
                                                            : 'f');
  pgcat__row_bool(&r, "proisstrict", (f->mFlag & FUNC_STRICT) != 0);
  pgcat__row_bool(&r, "proretset", f->eKind == FUNC_SET);
  pgcat__row_char(&r, "provolatile", (f->mFlag & FUNC_VOLATILE) ? 'v'
                                     : (f->mFlag & FUNC_STABLE) ? 's'
                                                                : 'i');
  pgcat__row_char(&r, "proparallel", 's');
  pgcat__row_int(&r, "pronargs", f->nArg);
  pgcat__row_int(&r, "prorettype", pgobj_coltype_oid(t));
  pgcat__row_ints(&r, "proargtypes", aArg, f->nArg);
  return pgcat__row_emit(&r, s->xRow, s->pArg, s->pErr);
}

static int pgcat_pg_proc_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  pgcat_proc_scan s = {pCtx, xRow, pArg, pErr};
  for (int i = 0; i < pgobj_proc_count(); i++) {
    const pgobj_proc *p = pgobj_proc_at(i);
    int64_t aArg[PGOBJ_PROC_ARGS_MAX];
    vrow r;
    int rc;
    for (int k = 0; k < p->nArg && k < PGOBJ_PROC_ARGS_MAX; k++) aArg[k] = p->aArg[k];
    pgcat__row_init(&r, &pgcat__pg_proc, pCtx);
    pgcat_proc_common(&r, p->oid, p->zName);
    pgcat__row_int(&r, "prolang", p->iLang);
    pgcat__row_bool(&r, "proisstrict", p->bStrict);
    pgcat__row_bool(&r, "proretset", p->bRetSet);
    pgcat__row_char(&r, "provolatile", p->cVolatile);
    pgcat__row_char(&r, "proparallel", p->cParallel);
    pgcat__row_int(&r, "pronargs", p->nArg);
    pgcat__row_int(&r, "prorettype", p->iResult);
    pgcat__row_ints(&r, "proargtypes", aArg, p->nArg);
    pgcat__row_text(&r, "prosrc", p->zSrc);
    if ((rc = pgcat__row_emit(&r, xRow, pArg, pErr)) != 0) return rc;
  }
  return func_each(pgcat_proc_func, &s);
}

/* ---- access methods, tablespaces, collations ------------------------------------- */

static int pgcat_pg_am_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  static const struct {
    uint32_t oid;
    const char *zName;
    uint32_t iHandler;
    char cType;
  } a[] = {
      {PGOBJ_AM_HEAP, "heap", 3, 't'}, {PGOBJ_AM_BTREE, "btree", 330, 'i'},
      {405, "hash", 331, 'i'},         {783, "gist", 332, 'i'},
      {2742, "gin", 333, 'i'},         {4000, "spgist", 334, 'i'},
      {3580, "brin", 335, 'i'},
  };
  for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
    vrow r;
    int rc;
    pgcat__row_init(&r, &pgcat__pg_am, pCtx);
    pgcat__row_int(&r, "oid", a[i].oid);
    pgcat__row_text(&r, "amname", a[i].zName);
    pgcat__row_int(&r, "amhandler", a[i].iHandler);
    pgcat__row_char(&r, "amtype", a[i].cType);
    if ((rc = pgcat__row_emit(&r, xRow, pArg, pErr)) != 0) return rc;
  }
  return 0;
}

static int pgcat_pg_tablespace_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg,
                                    sql_error *pErr) {
  static const struct {
    uint32_t oid;
    const char *zName;
  } a[] = {{PGOBJ_TABLESPACE_DEFAULT, "pg_default"}, {PGOBJ_TABLESPACE_GLOBAL, "pg_global"}};
  for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
    vrow r;
    int rc;
    pgcat__row_init(&r, &pgcat__pg_tablespace, pCtx);
    pgcat__row_int(&r, "oid", a[i].oid);
    pgcat__row_text(&r, "spcname", a[i].zName);
    pgcat__row_int(&r, "spcowner", PGOBJ_ROLE_OWNER);
    if ((rc = pgcat__row_emit(&r, xRow, pArg, pErr)) != 0) return rc;
  }
  return 0;
}

static int pgcat_pg_collation_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg,
                                   sql_error *pErr) {
  static const struct {
    uint32_t oid;
    const char *zName;
    char cProvider;
    const char *zLocale;   /* collcollate and collctype; NULL for default */
  } a[] = {{PGOBJ_COLLATION_DEFAULT, "default", 'd', NULL},
           {PGOBJ_COLLATION_C, "C", 'c', "C"},
           {951, "POSIX", 'c', "POSIX"}};
  for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
    vrow r;
    int rc;
    pgcat__row_init(&r, &pgcat__pg_collation, pCtx);
    pgcat__row_int(&r, "oid", a[i].oid);
    pgcat__row_text(&r, "collname", a[i].zName);
    pgcat__row_int(&r, "collnamespace", PGOBJ_NS_PG_CATALOG);
    pgcat__row_int(&r, "collowner", PGOBJ_ROLE_OWNER);
    pgcat__row_char(&r, "collprovider", a[i].cProvider);
    pgcat__row_bool(&r, "collisdeterministic", 1);
    pgcat__row_int(&r, "collencoding", -1);
    if (a[i].zLocale != NULL) {
      pgcat__row_text(&r, "collcollate", a[i].zLocale);
      pgcat__row_text(&r, "collctype", a[i].zLocale);
    }
    if ((rc = pgcat__row_emit(&r, xRow, pArg, pErr)) != 0) return rc;
  }
  return 0;
}

static int pgcat_pg_enum_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  (void)pCtx, (void)xRow, (void)pArg, (void)pErr;
  return 0;
}

/* ---- the session's database, role and settings ------------------------------------ */

static int pgcat_pg_database_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg,
                                  sql_error *pErr) {
  vrow r;
  pgcat__row_init(&r, &pgcat__pg_database, pCtx);
  pgcat__row_int(&r, "oid", PGOBJ_DATABASE);
  pgcat__row_text(&r, "datname", pgcat_database(pCtx));
  pgcat__row_int(&r, "datdba", PGOBJ_ROLE_OWNER);
  pgcat__row_int(&r, "encoding", 6);  /* UTF8 */
  pgcat__row_char(&r, "datlocprovider", 'c');
  pgcat__row_bool(&r, "datallowconn", 1);
  pgcat__row_int(&r, "datconnlimit", -1);
  pgcat__row_int(&r, "datminmxid", 1);
  pgcat__row_int(&r, "dattablespace", PGOBJ_TABLESPACE_DEFAULT);
  pgcat__row_text(&r, "datcollate", "C");
  pgcat__row_text(&r, "datctype", "C");
  return pgcat__row_emit(&r, xRow, pArg, pErr);
}

/* pg_roles: the session's user, a superuser, and pg_database_owner. */
static int pgcat_pg_roles_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  static const char *const azAttr[] = {"rolsuper", "rolcreaterole", "rolcreatedb",
                                       "rolcanlogin", "rolreplication", "rolbypassrls"};
  for (int i = 0; i < 2; i++) {
    vrow r;
    int rc;
    pgcat__row_init(&r, &pgcat__pg_roles, pCtx);
    pgcat__row_text(&r, "rolname", i == 0 ? pgcat_user(pCtx) : "pg_database_owner");
    pgcat__row_bool(&r, "rolinherit", 1);
    for (size_t k = 0; k < sizeof(azAttr) / sizeof(azAttr[0]); k++) {
      pgcat__row_bool(&r, azAttr[k], i == 0);
    }
    pgcat__row_int(&r, "rolconnlimit", -1);
    pgcat__row_text(&r, "rolpassword", "********");
    pgcat__row_int(&r, "oid", i == 0 ? PGOBJ_ROLE_OWNER : PGOBJ_ROLE_DATABASE_OWNER);
    if ((rc = pgcat__row_emit(&r, xRow, pArg, pErr)) != 0) return rc;
  }
  return 0;
}

static int pgcat_pg_user_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  vrow r;
  pgcat__row_init(&r, &pgcat__pg_user, pCtx);
  pgcat__row_text(&r, "usename", pgcat_user(pCtx));
  pgcat__row_int(&r, "usesysid", PGOBJ_ROLE_OWNER);
  pgcat__row_bool(&r, "usecreatedb", 1);
  pgcat__row_bool(&r, "usesuper", 1);
  pgcat__row_bool(&r, "userepl", 1);
  pgcat__row_bool(&r, "usebypassrls", 1);
  pgcat__row_text(&r, "passwd", "********");
  return pgcat__row_emit(&r, xRow, pArg, pErr);
}

/* The settings pg_settings lists: those clients read from it, each shown
** when the session knows it (func_ctx.xSetting), with PostgreSQL's
** category, context and type. */
static const struct {
  const char *zName;
  const char *zCategory;
  const char *zContext;
  const char *zType;
} pgcat_aSetting[] = {
    {"application_name", "Reporting and Logging / What to Log", "user", "string"},
    {"client_encoding", "Client Connection Defaults / Locale and Formatting", "user", "string"},
    {"DateStyle", "Client Connection Defaults / Locale and Formatting", "user", "string"},
    {"extra_float_digits", "Client Connection Defaults / Locale and Formatting", "user",
     "integer"},
    {"integer_datetimes", "Preset Options", "internal", "bool"},
    {"IntervalStyle", "Client Connection Defaults / Locale and Formatting", "user", "enum"},
    {"is_superuser", "Preset Options", "internal", "bool"},
    {"max_identifier_length", "Preset Options", "internal", "integer"},
    {"max_index_keys", "Preset Options", "internal", "integer"},
    {"search_path", "Client Connection Defaults / Statement Behavior", "user", "string"},
    {"server_encoding", "Preset Options", "internal", "string"},
    {"server_version", "Preset Options", "internal", "string"},
    {"server_version_num", "Preset Options", "internal", "integer"},
    {"standard_conforming_strings", "Version and Platform Compatibility / Previous PostgreSQL "
     "Versions", "user", "bool"},
    {"statement_timeout", "Client Connection Defaults / Statement Behavior", "user", "integer"},
    {"TimeZone", "Client Connection Defaults / Locale and Formatting", "user", "string"},
    {"transaction_isolation", "Client Connection Defaults / Statement Behavior", "user", "enum"},
};

static int pgcat_pg_settings_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg,
                                  sql_error *pErr) {
  for (size_t i = 0; i < sizeof(pgcat_aSetting) / sizeof(pgcat_aSetting[0]); i++) {
    const char *zVal =
        pCtx->xSetting != NULL ? pCtx->xSetting(pCtx->pSettingArg, pgcat_aSetting[i].zName) : NULL;
    vrow r;
    int rc;
    if (zVal == NULL) continue;
    pgcat__row_init(&r, &pgcat__pg_settings, pCtx);
    pgcat__row_text(&r, "name", pgcat_aSetting[i].zName);
    pgcat__row_text(&r, "setting", zVal);
    pgcat__row_text(&r, "category", pgcat_aSetting[i].zCategory);
    pgcat__row_text(&r, "context", pgcat_aSetting[i].zContext);
    pgcat__row_text(&r, "vartype", pgcat_aSetting[i].zType);
    pgcat__row_text(&r, "source", "session");
    pgcat__row_bool(&r, "pending_restart", 0);
    if ((rc = pgcat__row_emit(&r, xRow, pArg, pErr)) != 0) return rc;
  }
  return 0;
}

/* pg_stat_activity: the session itself (starq's other sessions are the
** daemon's, which a statement does not see). */
static int pgcat_pg_stat_activity_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg,
                                       sql_error *pErr) {
  const char *zApp =
      pCtx->xSetting != NULL ? pCtx->xSetting(pCtx->pSettingArg, "application_name") : NULL;
  vrow r;
  pgcat__row_init(&r, &pgcat__pg_stat_activity, pCtx);
  pgcat__row_int(&r, "datid", PGOBJ_DATABASE);
  pgcat__row_text(&r, "datname", pgcat_database(pCtx));
  pgcat__row_int(&r, "pid", pCtx->iBackendPid);
  pgcat__row_int(&r, "usesysid", PGOBJ_ROLE_OWNER);
  pgcat__row_text(&r, "usename", pgcat_user(pCtx));
  pgcat__row_text(&r, "application_name", zApp != NULL ? zApp : "");
  pgcat__row_int(&r, "query_start", pCtx->iNow);
  pgcat__row_int(&r, "state_change", pCtx->iNow);
  pgcat__row_text(&r, "state", "active");
  pgcat__row_text(&r, "backend_type", "client backend");
  return pgcat__row_emit(&r, xRow, pArg, pErr);
}

/* ---- definitions ------------------------------------------------------------- */

static const vrel_col vrel_aPgType[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"typname", VT(COLTYPE_NAME), 1},
    {"typnamespace", VT(COLTYPE_OID), 1}, {"typowner", VT(COLTYPE_OID), 1},
    {"typlen", VT(COLTYPE_SMALLINT), 1}, {"typbyval", VT(COLTYPE_BOOLEAN), 1},
    {"typtype", VT(COLTYPE_PGCHAR), 1}, {"typcategory", VT(COLTYPE_PGCHAR), 1},
    {"typispreferred", VT(COLTYPE_BOOLEAN), 1}, {"typisdefined", VT(COLTYPE_BOOLEAN), 1},
    {"typdelim", VT(COLTYPE_PGCHAR), 1}, {"typrelid", VT(COLTYPE_OID), 1},
    {"typsubscript", VT(COLTYPE_REGPROC), 1}, {"typelem", VT(COLTYPE_OID), 1},
    {"typarray", VT(COLTYPE_OID), 1}, {"typinput", VT(COLTYPE_REGPROC), 1},
    {"typoutput", VT(COLTYPE_REGPROC), 1}, {"typreceive", VT(COLTYPE_REGPROC), 1},
    {"typsend", VT(COLTYPE_REGPROC), 1}, {"typmodin", VT(COLTYPE_REGPROC), 1},
    {"typmodout", VT(COLTYPE_REGPROC), 1}, {"typanalyze", VT(COLTYPE_REGPROC), 1},
    {"typalign", VT(COLTYPE_PGCHAR), 1}, {"typstorage", VT(COLTYPE_PGCHAR), 1},
    {"typnotnull", VT(COLTYPE_BOOLEAN), 1}, {"typbasetype", VT(COLTYPE_OID), 1},
    {"typtypmod", VT(COLTYPE_INTEGER), 1}, {"typndims", VT(COLTYPE_INTEGER), 1},
    {"typcollation", VT(COLTYPE_OID), 1}, {"typdefaultbin", VT(COLTYPE_PG_NODE_TREE), 0},
    {"typdefault", VT(COLTYPE_TEXT), 0}, {"typacl", VT_ARRAY(COLTYPE_ACLITEM), 0},
};
const vrel pgcat__pg_type = {"pg_catalog", "pg_type", 1247, 'r',
    PGCAT_COLS(vrel_aPgType), 100, pgcat_pg_type_scan};

static const vrel_col vrel_aPgProc[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"proname", VT(COLTYPE_NAME), 1},
    {"pronamespace", VT(COLTYPE_OID), 1}, {"proowner", VT(COLTYPE_OID), 1},
    {"prolang", VT(COLTYPE_OID), 1}, {"procost", VT(COLTYPE_FLOAT4), 1},
    {"prorows", VT(COLTYPE_FLOAT4), 1}, {"provariadic", VT(COLTYPE_OID), 1},
    {"prosupport", VT(COLTYPE_REGPROC), 1}, {"prokind", VT(COLTYPE_PGCHAR), 1},
    {"prosecdef", VT(COLTYPE_BOOLEAN), 1}, {"proleakproof", VT(COLTYPE_BOOLEAN), 1},
    {"proisstrict", VT(COLTYPE_BOOLEAN), 1}, {"proretset", VT(COLTYPE_BOOLEAN), 1},
    {"provolatile", VT(COLTYPE_PGCHAR), 1}, {"proparallel", VT(COLTYPE_PGCHAR), 1},
    {"pronargs", VT(COLTYPE_SMALLINT), 1}, {"pronargdefaults", VT(COLTYPE_SMALLINT), 1},
    {"prorettype", VT(COLTYPE_OID), 1}, {"proargtypes", VT(COLTYPE_OIDVECTOR), 1},
    {"proallargtypes", VT_ARRAY(COLTYPE_OID), 0}, {"proargmodes", VT_ARRAY(COLTYPE_PGCHAR), 0},
    {"proargnames", VT_ARRAY(COLTYPE_TEXT), 0}, {"proargdefaults", VT(COLTYPE_PG_NODE_TREE), 0},
    {"protrftypes", VT_ARRAY(COLTYPE_OID), 0}, {"prosrc", VT(COLTYPE_TEXT), 1},
    {"probin", VT(COLTYPE_TEXT), 0}, {"prosqlbody", VT(COLTYPE_PG_NODE_TREE), 0},
    {"proconfig", VT_ARRAY(COLTYPE_TEXT), 0}, {"proacl", VT_ARRAY(COLTYPE_ACLITEM), 0},
};
const vrel pgcat__pg_proc = {"pg_catalog", "pg_proc", 1255, 'r',
    PGCAT_COLS(vrel_aPgProc), 100, pgcat_pg_proc_scan};

static const vrel_col vrel_aPgAm[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"amname", VT(COLTYPE_NAME), 1},
    {"amhandler", VT(COLTYPE_REGPROC), 1}, {"amtype", VT(COLTYPE_PGCHAR), 1},
};
const vrel pgcat__pg_am = {"pg_catalog", "pg_am", 2601, 'r',
    PGCAT_COLS(vrel_aPgAm), 100, pgcat_pg_am_scan};

static const vrel_col vrel_aPgTablespace[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"spcname", VT(COLTYPE_NAME), 1}, {"spcowner", VT(COLTYPE_OID), 1},
    {"spcacl", VT_ARRAY(COLTYPE_ACLITEM), 0}, {"spcoptions", VT_ARRAY(COLTYPE_TEXT), 0},
};
const vrel pgcat__pg_tablespace = {"pg_catalog", "pg_tablespace", 1213, 'r',
    PGCAT_COLS(vrel_aPgTablespace), 100, pgcat_pg_tablespace_scan};

static const vrel_col vrel_aPgEnum[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"enumtypid", VT(COLTYPE_OID), 1},
    {"enumsortorder", VT(COLTYPE_FLOAT4), 1}, {"enumlabel", VT(COLTYPE_NAME), 1},
};
const vrel pgcat__pg_enum = {"pg_catalog", "pg_enum", 3501, 'r',
    PGCAT_COLS(vrel_aPgEnum), 100, pgcat_pg_enum_scan};

static const vrel_col vrel_aPgCollation[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"collname", VT(COLTYPE_NAME), 1},
    {"collnamespace", VT(COLTYPE_OID), 1}, {"collowner", VT(COLTYPE_OID), 1},
    {"collprovider", VT(COLTYPE_PGCHAR), 1}, {"collisdeterministic", VT(COLTYPE_BOOLEAN), 1},
    {"collencoding", VT(COLTYPE_INTEGER), 1}, {"collcollate", VT(COLTYPE_TEXT), 0},
    {"collctype", VT(COLTYPE_TEXT), 0}, {"colliculocale", VT(COLTYPE_TEXT), 0},
    {"collversion", VT(COLTYPE_TEXT), 0},
};
const vrel pgcat__pg_collation = {"pg_catalog", "pg_collation", 3456, 'r',
    PGCAT_COLS(vrel_aPgCollation), 100, pgcat_pg_collation_scan};

static const vrel_col vrel_aPgDatabase[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"datname", VT(COLTYPE_NAME), 1}, {"datdba", VT(COLTYPE_OID), 1},
    {"encoding", VT(COLTYPE_INTEGER), 1}, {"datlocprovider", VT(COLTYPE_PGCHAR), 1},
    {"datistemplate", VT(COLTYPE_BOOLEAN), 1}, {"datallowconn", VT(COLTYPE_BOOLEAN), 1},
    {"datconnlimit", VT(COLTYPE_INTEGER), 1}, {"datfrozenxid", VT(COLTYPE_XID), 1},
    {"datminmxid", VT(COLTYPE_XID), 1}, {"dattablespace", VT(COLTYPE_OID), 1},
    {"datcollate", VT(COLTYPE_TEXT), 1}, {"datctype", VT(COLTYPE_TEXT), 1},
    {"daticulocale", VT(COLTYPE_TEXT), 0}, {"datcollversion", VT(COLTYPE_TEXT), 0},
    {"datacl", VT_ARRAY(COLTYPE_ACLITEM), 0},
};
const vrel pgcat__pg_database = {"pg_catalog", "pg_database", 1262, 'r',
    PGCAT_COLS(vrel_aPgDatabase), 100, pgcat_pg_database_scan};

static const vrel_col vrel_aPgRoles[] = {
    {"rolname", VT(COLTYPE_NAME), 0}, {"rolsuper", VT(COLTYPE_BOOLEAN), 0},
    {"rolinherit", VT(COLTYPE_BOOLEAN), 0}, {"rolcreaterole", VT(COLTYPE_BOOLEAN), 0},
    {"rolcreatedb", VT(COLTYPE_BOOLEAN), 0}, {"rolcanlogin", VT(COLTYPE_BOOLEAN), 0},
    {"rolreplication", VT(COLTYPE_BOOLEAN), 0}, {"rolconnlimit", VT(COLTYPE_INTEGER), 0},
    {"rolpassword", VT(COLTYPE_TEXT), 0}, {"rolvaliduntil", VT_TIMESTAMPTZ, 0},
    {"rolbypassrls", VT(COLTYPE_BOOLEAN), 0}, {"rolconfig", VT_ARRAY(COLTYPE_TEXT), 0},
    {"oid", VT(COLTYPE_OID), 0},
};
const vrel pgcat__pg_roles = {"pg_catalog", "pg_roles", 12000, 'v',
    PGCAT_COLS(vrel_aPgRoles), 100, pgcat_pg_roles_scan};

static const vrel_col vrel_aPgUser[] = {
    {"usename", VT(COLTYPE_NAME), 0}, {"usesysid", VT(COLTYPE_OID), 0},
    {"usecreatedb", VT(COLTYPE_BOOLEAN), 0}, {"usesuper", VT(COLTYPE_BOOLEAN), 0},
    {"userepl", VT(COLTYPE_BOOLEAN), 0}, {"usebypassrls", VT(COLTYPE_BOOLEAN), 0},
    {"passwd", VT(COLTYPE_TEXT), 0}, {"valuntil", VT_TIMESTAMPTZ, 0},
    {"useconfig", VT_ARRAY(COLTYPE_TEXT), 0},
};
const vrel pgcat__pg_user = {"pg_catalog", "pg_user", 12014, 'v',
    PGCAT_COLS(vrel_aPgUser), 100, pgcat_pg_user_scan};

static const vrel_col vrel_aPgSettings[] = {
    {"name", VT(COLTYPE_TEXT), 0}, {"setting", VT(COLTYPE_TEXT), 0}, {"unit", VT(COLTYPE_TEXT), 0},
    {"category", VT(COLTYPE_TEXT), 0}, {"short_desc", VT(COLTYPE_TEXT), 0},
    {"extra_desc", VT(COLTYPE_TEXT), 0}, {"context", VT(COLTYPE_TEXT), 0},
    {"vartype", VT(COLTYPE_TEXT), 0}, {"source", VT(COLTYPE_TEXT), 0},
    {"min_val", VT(COLTYPE_TEXT), 0}, {"max_val", VT(COLTYPE_TEXT), 0},
    {"enumvals", VT_ARRAY(COLTYPE_TEXT), 0}, {"boot_val", VT(COLTYPE_TEXT), 0},
    {"reset_val", VT(COLTYPE_TEXT), 0}, {"sourcefile", VT(COLTYPE_TEXT), 0},
    {"sourceline", VT(COLTYPE_INTEGER), 0}, {"pending_restart", VT(COLTYPE_BOOLEAN), 0},
};
const vrel pgcat__pg_settings = {"pg_catalog", "pg_settings", 12104, 'v',
    PGCAT_COLS(vrel_aPgSettings), 100, pgcat_pg_settings_scan};

static const vrel_col vrel_aPgStatActivity[] = {
    {"datid", VT(COLTYPE_OID), 0}, {"datname", VT(COLTYPE_NAME), 0},
    {"pid", VT(COLTYPE_INTEGER), 0}, {"leader_pid", VT(COLTYPE_INTEGER), 0},
    {"usesysid", VT(COLTYPE_OID), 0}, {"usename", VT(COLTYPE_NAME), 0},
    {"application_name", VT(COLTYPE_TEXT), 0}, {"client_addr", VT(COLTYPE_INET), 0},
    {"client_hostname", VT(COLTYPE_TEXT), 0}, {"client_port", VT(COLTYPE_INTEGER), 0},
    {"backend_start", VT_TIMESTAMPTZ, 0}, {"xact_start", VT_TIMESTAMPTZ, 0},
    {"query_start", VT_TIMESTAMPTZ, 0}, {"state_change", VT_TIMESTAMPTZ, 0},
    {"wait_event_type", VT(COLTYPE_TEXT), 0}, {"wait_event", VT(COLTYPE_TEXT), 0},
    {"state", VT(COLTYPE_TEXT), 0}, {"backend_xid", VT(COLTYPE_XID), 0},
    {"backend_xmin", VT(COLTYPE_XID), 0}, {"query_id", VT(COLTYPE_BIGINT), 0},
    {"query", VT(COLTYPE_TEXT), 0}, {"backend_type", VT(COLTYPE_TEXT), 0},
};
const vrel pgcat__pg_stat_activity = {"pg_catalog", "pg_stat_activity", 12222, 'v',
    PGCAT_COLS(vrel_aPgStatActivity), 100, pgcat_pg_stat_activity_scan};
