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
  coltype t = {f->eResult, 0, 0, 0};
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
    {"oid", VT(COLTYPE_OID)}, {"typname", VT(COLTYPE_NAME)}, {"typnamespace", VT(COLTYPE_OID)},
    {"typowner", VT(COLTYPE_OID)}, {"typlen", VT(COLTYPE_SMALLINT)},
    {"typbyval", VT(COLTYPE_BOOLEAN)}, {"typtype", VT(COLTYPE_PGCHAR)},
    {"typcategory", VT(COLTYPE_PGCHAR)}, {"typispreferred", VT(COLTYPE_BOOLEAN)},
    {"typisdefined", VT(COLTYPE_BOOLEAN)}, {"typdelim", VT(COLTYPE_PGCHAR)},
    {"typrelid", VT(COLTYPE_OID)}, {"typsubscript", VT(COLTYPE_REGPROC)},
    {"typelem", VT(COLTYPE_OID)}, {"typarray", VT(COLTYPE_OID)},
    {"typinput", VT(COLTYPE_REGPROC)}, {"typoutput", VT(COLTYPE_REGPROC)},
    {"typreceive", VT(COLTYPE_REGPROC)}, {"typsend", VT(COLTYPE_REGPROC)},
    {"typmodin", VT(COLTYPE_REGPROC)}, {"typmodout", VT(COLTYPE_REGPROC)},
    {"typanalyze", VT(COLTYPE_REGPROC)}, {"typalign", VT(COLTYPE_PGCHAR)},
    {"typstorage", VT(COLTYPE_PGCHAR)}, {"typnotnull", VT(COLTYPE_BOOLEAN)},
    {"typbasetype", VT(COLTYPE_OID)}, {"typtypmod", VT(COLTYPE_INTEGER)},
    {"typndims", VT(COLTYPE_INTEGER)}, {"typcollation", VT(COLTYPE_OID)},
    {"typdefaultbin", VT(COLTYPE_PG_NODE_TREE)}, {"typdefault", VT(COLTYPE_TEXT)},
    {"typacl", VT_ARRAY(COLTYPE_ACLITEM)},
};
const vrel pgcat__pg_type = {"pg_catalog", "pg_type", 1247, 'r',
    PGCAT_COLS(vrel_aPgType), 100, pgcat_pg_type_scan};

static const vrel_col vrel_aPgProc[] = {
    {"oid", VT(COLTYPE_OID)}, {"proname", VT(COLTYPE_NAME)}, {"pronamespace", VT(COLTYPE_OID)},
    {"proowner", VT(COLTYPE_OID)}, {"prolang", VT(COLTYPE_OID)}, {"procost", VT(COLTYPE_FLOAT4)},
    {"prorows", VT(COLTYPE_FLOAT4)}, {"provariadic", VT(COLTYPE_OID)},
    {"prosupport", VT(COLTYPE_REGPROC)}, {"prokind", VT(COLTYPE_PGCHAR)},
    {"prosecdef", VT(COLTYPE_BOOLEAN)}, {"proleakproof", VT(COLTYPE_BOOLEAN)},
    {"proisstrict", VT(COLTYPE_BOOLEAN)}, {"proretset", VT(COLTYPE_BOOLEAN)},
    {"provolatile", VT(COLTYPE_PGCHAR)}, {"proparallel", VT(COLTYPE_PGCHAR)},
    {"pronargs", VT(COLTYPE_SMALLINT)}, {"pronargdefaults", VT(COLTYPE_SMALLINT)},
    {"prorettype", VT(COLTYPE_OID)}, {"proargtypes", VT(COLTYPE_OIDVECTOR)},
    {"proallargtypes", VT_ARRAY(COLTYPE_OID)}, {"proargmodes", VT_ARRAY(COLTYPE_PGCHAR)},
    {"proargnames", VT_ARRAY(COLTYPE_TEXT)}, {"proargdefaults", VT(COLTYPE_PG_NODE_TREE)},
    {"protrftypes", VT_ARRAY(COLTYPE_OID)}, {"prosrc", VT(COLTYPE_TEXT)},
    {"probin", VT(COLTYPE_TEXT)}, {"prosqlbody", VT(COLTYPE_PG_NODE_TREE)},
    {"proconfig", VT_ARRAY(COLTYPE_TEXT)}, {"proacl", VT_ARRAY(COLTYPE_ACLITEM)},
};
const vrel pgcat__pg_proc = {"pg_catalog", "pg_proc", 1255, 'r',
    PGCAT_COLS(vrel_aPgProc), 100, pgcat_pg_proc_scan};

static const vrel_col vrel_aPgAm[] = {
    {"oid", VT(COLTYPE_OID)}, {"amname", VT(COLTYPE_NAME)}, {"amhandler", VT(COLTYPE_REGPROC)},
    {"amtype", VT(COLTYPE_PGCHAR)},
};
const vrel pgcat__pg_am = {"pg_catalog", "pg_am", 2601, 'r',
    PGCAT_COLS(vrel_aPgAm), 100, pgcat_pg_am_scan};

static const vrel_col vrel_aPgTablespace[] = {
    {"oid", VT(COLTYPE_OID)}, {"spcname", VT(COLTYPE_NAME)}, {"spcowner", VT(COLTYPE_OID)},
    {"spcacl", VT_ARRAY(COLTYPE_ACLITEM)}, {"spcoptions", VT_ARRAY(COLTYPE_TEXT)},
};
const vrel pgcat__pg_tablespace = {"pg_catalog", "pg_tablespace", 1213, 'r',
    PGCAT_COLS(vrel_aPgTablespace), 100, pgcat_pg_tablespace_scan};

static const vrel_col vrel_aPgEnum[] = {
    {"oid", VT(COLTYPE_OID)}, {"enumtypid", VT(COLTYPE_OID)},
    {"enumsortorder", VT(COLTYPE_FLOAT4)}, {"enumlabel", VT(COLTYPE_NAME)},
};
const vrel pgcat__pg_enum = {"pg_catalog", "pg_enum", 3501, 'r',
    PGCAT_COLS(vrel_aPgEnum), 100, pgcat_pg_enum_scan};

static const vrel_col vrel_aPgCollation[] = {
    {"oid", VT(COLTYPE_OID)}, {"collname", VT(COLTYPE_NAME)}, {"collnamespace", VT(COLTYPE_OID)},
    {"collowner", VT(COLTYPE_OID)}, {"collprovider", VT(COLTYPE_PGCHAR)},
    {"collisdeterministic", VT(COLTYPE_BOOLEAN)}, {"collencoding", VT(COLTYPE_INTEGER)},
    {"collcollate", VT(COLTYPE_TEXT)}, {"collctype", VT(COLTYPE_TEXT)},
    {"colliculocale", VT(COLTYPE_TEXT)}, {"collversion", VT(COLTYPE_TEXT)},
};
const vrel pgcat__pg_collation = {"pg_catalog", "pg_collation", 3456, 'r',
    PGCAT_COLS(vrel_aPgCollation), 100, pgcat_pg_collation_scan};

static const vrel_col vrel_aPgDatabase[] = {
    {"oid", VT(COLTYPE_OID)}, {"datname", VT(COLTYPE_NAME)}, {"datdba", VT(COLTYPE_OID)},
    {"encoding", VT(COLTYPE_INTEGER)}, {"datlocprovider", VT(COLTYPE_PGCHAR)},
    {"datistemplate", VT(COLTYPE_BOOLEAN)}, {"datallowconn", VT(COLTYPE_BOOLEAN)},
    {"datconnlimit", VT(COLTYPE_INTEGER)}, {"datfrozenxid", VT(COLTYPE_XID)},
    {"datminmxid", VT(COLTYPE_XID)}, {"dattablespace", VT(COLTYPE_OID)},
    {"datcollate", VT(COLTYPE_TEXT)}, {"datctype", VT(COLTYPE_TEXT)},
    {"daticulocale", VT(COLTYPE_TEXT)}, {"datcollversion", VT(COLTYPE_TEXT)},
    {"datacl", VT_ARRAY(COLTYPE_ACLITEM)},
};
const vrel pgcat__pg_database = {"pg_catalog", "pg_database", 1262, 'r',
    PGCAT_COLS(vrel_aPgDatabase), 100, pgcat_pg_database_scan};

static const vrel_col vrel_aPgRoles[] = {
    {"rolname", VT(COLTYPE_NAME)}, {"rolsuper", VT(COLTYPE_BOOLEAN)},
    {"rolinherit", VT(COLTYPE_BOOLEAN)}, {"rolcreaterole", VT(COLTYPE_BOOLEAN)},
    {"rolcreatedb", VT(COLTYPE_BOOLEAN)}, {"rolcanlogin", VT(COLTYPE_BOOLEAN)},
    {"rolreplication", VT(COLTYPE_BOOLEAN)}, {"rolconnlimit", VT(COLTYPE_INTEGER)},
    {"rolpassword", VT(COLTYPE_TEXT)}, {"rolvaliduntil", VT_TIMESTAMPTZ},
    {"rolbypassrls", VT(COLTYPE_BOOLEAN)}, {"rolconfig", VT_ARRAY(COLTYPE_TEXT)},
    {"oid", VT(COLTYPE_OID)},
};
const vrel pgcat__pg_roles = {"pg_catalog", "pg_roles", 12000, 'v',
    PGCAT_COLS(vrel_aPgRoles), 100, pgcat_pg_roles_scan};

static const vrel_col vrel_aPgUser[] = {
    {"usename", VT(COLTYPE_NAME)}, {"usesysid", VT(COLTYPE_OID)},
    {"usecreatedb", VT(COLTYPE_BOOLEAN)}, {"usesuper", VT(COLTYPE_BOOLEAN)},
    {"userepl", VT(COLTYPE_BOOLEAN)}, {"usebypassrls", VT(COLTYPE_BOOLEAN)},
    {"passwd", VT(COLTYPE_TEXT)}, {"valuntil", VT_TIMESTAMPTZ},
    {"useconfig", VT_ARRAY(COLTYPE_TEXT)},
};
const vrel pgcat__pg_user = {"pg_catalog", "pg_user", 12014, 'v',
    PGCAT_COLS(vrel_aPgUser), 100, pgcat_pg_user_scan};

static const vrel_col vrel_aPgSettings[] = {
    {"name", VT(COLTYPE_TEXT)}, {"setting", VT(COLTYPE_TEXT)}, {"unit", VT(COLTYPE_TEXT)},
    {"category", VT(COLTYPE_TEXT)}, {"short_desc", VT(COLTYPE_TEXT)},
    {"extra_desc", VT(COLTYPE_TEXT)}, {"context", VT(COLTYPE_TEXT)},
    {"vartype", VT(COLTYPE_TEXT)}, {"source", VT(COLTYPE_TEXT)}, {"min_val", VT(COLTYPE_TEXT)},
    {"max_val", VT(COLTYPE_TEXT)}, {"enumvals", VT_ARRAY(COLTYPE_TEXT)},
    {"boot_val", VT(COLTYPE_TEXT)}, {"reset_val", VT(COLTYPE_TEXT)},
    {"sourcefile", VT(COLTYPE_TEXT)}, {"sourceline", VT(COLTYPE_INTEGER)},
    {"pending_restart", VT(COLTYPE_BOOLEAN)},
};
const vrel pgcat__pg_settings = {"pg_catalog", "pg_settings", 12104, 'v',
    PGCAT_COLS(vrel_aPgSettings), 100, pgcat_pg_settings_scan};

static const vrel_col vrel_aPgStatActivity[] = {
    {"datid", VT(COLTYPE_OID)}, {"datname", VT(COLTYPE_NAME)}, {"pid", VT(COLTYPE_INTEGER)},
    {"leader_pid", VT(COLTYPE_INTEGER)}, {"usesysid", VT(COLTYPE_OID)},
    {"usename", VT(COLTYPE_NAME)}, {"application_name", VT(COLTYPE_TEXT)},
    {"client_addr", VT(COLTYPE_INET)}, {"client_hostname", VT(COLTYPE_TEXT)},
    {"client_port", VT(COLTYPE_INTEGER)}, {"backend_start", VT_TIMESTAMPTZ},
    {"xact_start", VT_TIMESTAMPTZ}, {"query_start", VT_TIMESTAMPTZ},
    {"state_change", VT_TIMESTAMPTZ}, {"wait_event_type", VT(COLTYPE_TEXT)},
    {"wait_event", VT(COLTYPE_TEXT)}, {"state", VT(COLTYPE_TEXT)},
    {"backend_xid", VT(COLTYPE_XID)}, {"backend_xmin", VT(COLTYPE_XID)},
    {"query_id", VT(COLTYPE_BIGINT)}, {"query", VT(COLTYPE_TEXT)},
    {"backend_type", VT(COLTYPE_TEXT)},
};
const vrel pgcat__pg_stat_activity = {"pg_catalog", "pg_stat_activity", 12222, 'v',
    PGCAT_COLS(vrel_aPgStatActivity), 100, pgcat_pg_stat_activity_scan};
