/*
** tests/test-pgcat.c — pg_catalog's and information_schema's virtual
** relations (pgcat/, catalog/vrel.h) and the catalog functions
** (func/catalog.c), checked against a real PostgreSQL 15 (tests/pgref.h)
** holding the same tables: the SSB schema and a table of every other
** stored type, with primary and foreign keys, defined in starq's catalog
** and, from those definitions, in PostgreSQL.
**
** Rows are compared as text (PostgreSQL's output of each column), as
** sorted sets. User objects' oids differ between the two, so those
** checks compare names and leave the oids out.
*/
#include <postgresql/libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../catalog/catalog.h"
#include "../catalog/pgobj.h"
#include "../catalog/vrel.h"
#include "../common/arena.h"
#include "../common/strbuf.h"
#include "../func/func.h"
#include "../ssb-data/schema.h"
#include "pgref.h"
#include "test.h"

/* ---- rows as text ----------------------------------------------------------------- */

static void pgc_datum_text(const datum *d, strbuf *s);

static void pgc_array_text(const datum *d, strbuf *s) {
  int bVector = d->type.eId != COLTYPE_ARRAY;
  if (!bVector) strbuf_puts(s, "{");
  for (uint32_t i = 0; i < d->u.a.n; i++) {
    if (i > 0) strbuf_puts(s, bVector ? " " : ",");
    pgc_datum_text(&d->u.a.a[i], s);
  }
  if (!bVector) strbuf_puts(s, "}");
}

static void pgc_datum_text(const datum *d, strbuf *s) {
  if (d->bNull) {
    strbuf_puts(s, "\\N");
    return;
  }
  switch (d->type.eId) {
    case COLTYPE_BOOLEAN: strbuf_puts(s, d->u.i ? "t" : "f"); break;
    case COLTYPE_FLOAT4:
    case COLTYPE_DOUBLE: strbuf_printf(s, "%g", d->u.r); break;
    case COLTYPE_ARRAY:
    case COLTYPE_INT2VECTOR:
    case COLTYPE_OIDVECTOR: pgc_array_text(d, s); break;
    case COLTYPE_SMALLINT:
    case COLTYPE_INTEGER:
    case COLTYPE_BIGINT:
    case COLTYPE_OID:
    case COLTYPE_XID:
    case COLTYPE_REGPROC:
    case COLTYPE_TIMESTAMPTZ: strbuf_printf(s, "%lld", (long long)d->u.i); break;
    default: strbuf_append(s, d->u.s.z, d->u.s.n); break;
  }
}

/* A sorted list of lines. */
typedef struct pgc_lines pgc_lines;
struct pgc_lines {
  int n;
  char **az;
};

static void pgc_lines_add(pgc_lines *p, const char *z) {
  p->az = realloc(p->az, sizeof(char *) * (size_t)(p->n + 1));
  ASSERT(p->az != NULL);
  p->az[p->n] = strdup(z);
  ASSERT(p->az[p->n] != NULL);
  p->n++;
}

static int pgc_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void pgc_lines_free(pgc_lines *p) {
  for (int i = 0; i < p->n; i++) free(p->az[i]);
  free(p->az);
  memset(p, 0, sizeof(*p));
}

/* Which rows a check keeps: column zCol's text equals zVal (zCol NULL:
** every row), and which columns it shows (comma-separated names). */
typedef struct pgc_scan pgc_scan;
struct pgc_scan {
  const vrel *pRel;
  const char *zCols;
  const char *zCol;
  const char *zVal;
  pgc_lines *pOut;
};

static int pgc_col(const vrel *p, const char *zName, size_t n) {
  for (int i = 0; i < p->nCol; i++) {
    if (strlen(p->aCol[i].zName) == n && memcmp(p->aCol[i].zName, zName, n) == 0) return i;
  }
  FAIL("%s has no column %.*s", p->zName, (int)n, zName);
  return -1;
}

/* A NOT NULL constraint's name without its oids ("2200_16400_3_not_null"
** to "3_not_null"), as the PostgreSQL side of the check strips them. */
static const char *pgc_strip_oids(const char *z) {
  const char *p = z;
  for (int k = 0; k < 2; k++) {
    if (*p < '0' || *p > '9') return z;
    while (*p >= '0' && *p <= '9') p++;
    if (*p++ != '_') return z;
  }
  return strstr(p, "_not_null|") != NULL ? p : z;
}

static int pgc_row(void *pArg, const datum *aVal) {
  pgc_scan *s = pArg;
  strbuf line;
  const char *z = s->zCols;
  strbuf_init(&line);
  if (s->zCol != NULL) {
    pgc_datum_text(&aVal[pgc_col(s->pRel, s->zCol, strlen(s->zCol))], &line);
    /* ">=N": a number at least N (user objects' oids); "<N" below N */
    int bKeep = strncmp(s->zVal, ">=", 2) == 0  ? atoll(strbuf_str(&line)) >= atoll(s->zVal + 2)
                : strncmp(s->zVal, "<", 1) == 0 ? atoll(strbuf_str(&line)) < atoll(s->zVal + 1)
                                                : strcmp(strbuf_str(&line), s->zVal) == 0;
    strbuf_reset(&line);
    if (!bKeep) {
      strbuf_free(&line);
      return 0;
    }
  }
  for (int i = 0; *z; i++) {
    size_t n = strcspn(z, ",");
    if (i > 0) strbuf_puts(&line, "|");
    pgc_datum_text(&aVal[pgc_col(s->pRel, z, n)], &line);
    z += n;
    if (*z == ',') z++;
  }
  pgc_lines_add(s->pOut, pgc_strip_oids(strbuf_str(&line)));
  strbuf_free(&line);
  return 0;
}

/* The session a test statement runs in. */
typedef struct pgc_session pgc_session;
struct pgc_session {
  arena a;
  func_ctx ctx;
};

static const char *pgc_setting(void *pArg, const char *zName) {
  (void)pArg;
  if (strcmp(zName, "server_version_num") == 0) return "150000";
  if (strcmp(zName, "TimeZone") == 0) return "UTC";
  return NULL;
}

static void pgc_session_init(pgc_session *s, cat *pCat) {
  memset(s, 0, sizeof(*s));
  arena_init(&s->a);
  s->ctx.pArena = &s->a;
  s->ctx.pCat = pCat;
  s->ctx.zUser = "starq";
  s->ctx.zDatabase = "starq";
  s->ctx.iBackendPid = 4242;
  s->ctx.xSetting = pgc_setting;
  s->ctx.xVrelFind = vrel_find;
  s->ctx.xVrelEach = vrel_each;
}

/* Compares starq's rows of zSchema.zRel (columns zCols, kept where zCol
** is zVal) with PostgreSQL's answer to zSql. */
static void pgc_check(pgref *pg, pgc_session *ss, const char *zSchema, const char *zRel,
                      const char *zCols, const char *zCol, const char *zVal, const char *zSql) {
  pgc_lines want = {0, NULL}, got = {0, NULL};
  pgc_scan s = {vrel_find(zSchema, zRel), zCols, zCol, zVal, &got};
  sql_error e;
  PGresult *res;
  int bSame;
  ASSERT(s.pRel != NULL);
  memset(&e, 0, sizeof(e));
  if (s.pRel->xScan(&ss->ctx, pgc_row, &s, &e) != 0) FAIL("%s: %s", zRel, e.zMsg);
  res = PQexec(pgref_conn(pg), zSql);
  if (PQresultStatus(res) != PGRES_TUPLES_OK) FAIL("%s: %s", zSql, PQerrorMessage(pgref_conn(pg)));
  for (int r = 0; r < PQntuples(res); r++) {
    strbuf line;
    strbuf_init(&line);
    for (int c = 0; c < PQnfields(res); c++) {
      if (c > 0) strbuf_puts(&line, "|");
      strbuf_puts(&line, PQgetisnull(res, r, c) ? "\\N" : PQgetvalue(res, r, c));
    }
    pgc_lines_add(&want, strbuf_str(&line));
    strbuf_free(&line);
  }
  PQclear(res);
  qsort(want.az, (size_t)want.n, sizeof(char *), pgc_cmp);
  qsort(got.az, (size_t)got.n, sizeof(char *), pgc_cmp);
  bSame = want.n == got.n;
  for (int i = 0; bSame && i < want.n; i++) bSame = strcmp(want.az[i], got.az[i]) == 0;
  if (!bSame) {
    fprintf(stderr, "%s.%s differs from PostgreSQL's (%s)\n", zSchema, zRel, zSql);
    for (int i = 0, j = 0; i < want.n || j < got.n;) {
      int c = i == want.n ? 1 : j == got.n ? -1 : strcmp(want.az[i], got.az[j]);
      if (c < 0) fprintf(stderr, "  only pg:    %s\n", want.az[i++]);
      else if (c > 0) fprintf(stderr, "  only starq: %s\n", got.az[j++]);
      else i++, j++;
    }
    FAIL("%s.%s", zSchema, zRel);
  }
  pgc_lines_free(&want);
  pgc_lines_free(&got);
}

/* ---- the schema, in both ----------------------------------------------------------- */

/* The stored types SSB lacks, a two-column primary key and a foreign key
** to it. */
static void pgc_types_create(cat *pCat) {
  static const char *const azKey[] = {"k_big", "k_small"};
  static const char *const azFk[] = {"r_big", "r_small"};
  static const char *const azDateFk[] = {"r_date"};
  static const char *const azDateKey[] = {"d_datekey"};
  coltype big = {COLTYPE_BIGINT, 0, 0, 0}, small = {COLTYPE_SMALLINT, 0, 0, 0};
  coltype dbl = {COLTYPE_DOUBLE, 0, 0, 0}, txt = {COLTYPE_TEXT, 0, 0, 0};
  coltype dec = {COLTYPE_DECIMAL, 0, 12, 3}, date = {COLTYPE_DATE, 0, 0, 0};
  coltype in = {COLTYPE_INTEGER, 0, 0, 0};
  char zErr[512];
  cat_table *t = cat_table_new("typed");
  CALL_OK(cat_table_add_column(t, "k_big", big, 1, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "k_small", small, 1, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "v_double", dbl, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "v_text", txt, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "v_dec", dec, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "v_date", date, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_set_pkey(t, 2, azKey, zErr, sizeof(zErr)));
  CALL_OK(cat_table_create(pCat, t, zErr, sizeof(zErr)));
  cat_table_free(t);
  t = cat_table_new("refs");
  CALL_OK(cat_table_add_column(t, "r_id", in, 1, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "r_big", big, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "r_small", small, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "r_date", date, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_fkey(t, 2, azFk, "typed", azKey, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_fkey(t, 1, azDateFk, "date", azDateKey, zErr, sizeof(zErr)));
  CALL_OK(cat_table_create(pCat, t, zErr, sizeof(zErr)));
  cat_table_free(t);
}

/* Appends ",oid" of every registry function that has one. */
static int pgc_oid_list(void *pArg, const func_def *f) {
  if (f->oid != 0) strbuf_printf(pArg, ",%u", f->oid);
  return 0;
}

/* Starts PostgreSQL, makes the SSB schema and "typed"/"refs" in a starq
** catalog and the same in PostgreSQL, and a session over the catalog. */
static void pgc_setup(pgref **ppg, cat **ppCat, pgc_session *ss) {
  char zErr[2048];
  CALL_OK(pgref_start(ppg, "pg", zErr, sizeof(zErr)));
  CALL_OK(cat_open(ppCat, "data", zErr, sizeof(zErr)));
  CALL_OK(ssb_schema_create(*ppCat, zErr, sizeof(zErr)));
  pgc_types_create(*ppCat);
  CALL_OK(pgref_catalog_create(*ppg, *ppCat, zErr, sizeof(zErr)));
  pgc_session_init(ss, *ppCat);
}

/* ---- the tests ------------------------------------------------------------------------ */

/* What does not depend on starq's tables: types, functions, schemas,
** access methods, tablespaces, collations, the function registry. */
TEST_IMPL(pgcat_builtin_pg) {
  pgref *pg;
  pgc_session ss;
  char zErr[2048];
  strbuf in;
  CALL_OK(pgref_start(&pg, "pg", zErr, sizeof(zErr)));
  pgc_session_init(&ss, NULL);

  /* pg_type: every row starq has, whole, as PostgreSQL 15 has it */
  strbuf_init(&in);
  for (int i = 0; i < pgobj_type_count(); i++) {
    strbuf_printf(&in, "%s%u", i > 0 ? "," : "", pgobj_type_at(i)->oid);
  }
  {
    char zSql[8192];
    snprintf(zSql, sizeof(zSql),
             "SELECT oid, typname, typnamespace, typowner, typlen, typbyval, typtype, typcategory, "
             "typispreferred, typisdefined, typdelim, typrelid, typsubscript::oid, typelem, "
             "typarray, typinput::oid, typoutput::oid, typreceive::oid, typsend::oid, "
             "typmodin::oid, typmodout::oid, typanalyze::oid, typalign, typstorage, typnotnull, "
             "typbasetype, typtypmod, typndims, typcollation FROM pg_type WHERE oid IN (%s)",
             strbuf_str(&in));
    pgc_check(pg, &ss, "pg_catalog", "pg_type",
              "oid,typname,typnamespace,typowner,typlen,typbyval,typtype,typcategory,"
              "typispreferred,typisdefined,typdelim,typrelid,typsubscript,typelem,typarray,"
              "typinput,typoutput,typreceive,typsend,typmodin,typmodout,typanalyze,typalign,"
              "typstorage,typnotnull,typbasetype,typtypmod,typndims,typcollation",
              NULL, NULL, zSql);
  }
  strbuf_free(&in);

  /* pg_proc: the built-in rows pg_type and pg_am name, and the function
  ** registry's, each with PostgreSQL's signature for its oid */
  strbuf_init(&in);
  strbuf_puts(&in, "0");
  for (int i = 0; i < pgobj_proc_count(); i++) strbuf_printf(&in, ",%u", pgobj_proc_at(i)->oid);
  func_each(pgc_oid_list, &in);
  {
    char *zSql = malloc(strlen(strbuf_str(&in)) + 1024);
    ASSERT(zSql != NULL);
    sprintf(zSql,
            "SELECT oid, proname, pronamespace, prokind, proisstrict, proretset, "
            "provolatile, pronargs, prorettype, proargtypes FROM pg_proc WHERE oid IN (%s)",
            strbuf_str(&in));
    pgc_check(pg, &ss, "pg_catalog", "pg_proc",
              "oid,proname,pronamespace,prokind,proisstrict,proretset,provolatile,"
              "pronargs,prorettype,proargtypes",
              NULL, NULL, zSql);
    free(zSql);
  }
  strbuf_free(&in);

  pgc_check(pg, &ss, "pg_catalog", "pg_namespace", "oid,nspname,nspowner,nspacl", NULL, NULL,
            "SELECT oid, nspname, nspowner, nspacl FROM pg_namespace");
  pgc_check(pg, &ss, "pg_catalog", "pg_am", "oid,amname,amhandler,amtype", NULL, NULL,
            "SELECT oid, amname, amhandler::oid, amtype FROM pg_am");
  pgc_check(pg, &ss, "pg_catalog", "pg_tablespace", "oid,spcname,spcowner", NULL, NULL,
            "SELECT oid, spcname, spcowner FROM pg_tablespace");
  pgc_check(pg, &ss, "pg_catalog", "pg_collation",
            "oid,collname,collnamespace,collowner,collprovider,collisdeterministic,collencoding,"
            "collcollate,collctype",
            NULL, NULL,
            "SELECT oid, collname, collnamespace, collowner, collprovider, collisdeterministic, "
            "collencoding, collcollate, collctype FROM pg_collation WHERE oid IN (100, 950, 951)");
  pgc_check(pg, &ss, "pg_catalog", "pg_database",
            "datname,datdba,encoding,datlocprovider,datistemplate,datallowconn,datconnlimit,"
            "dattablespace,datcollate,datctype",
            NULL, NULL,
            "SELECT datname, datdba, encoding, datlocprovider, datistemplate, datallowconn, "
            "datconnlimit, dattablespace, datcollate, datctype FROM pg_database "
            "WHERE datname = current_database()");
  pgc_check(pg, &ss, "pg_catalog", "pg_roles",
            "rolname,rolsuper,rolinherit,rolcreaterole,rolcreatedb,rolcanlogin,rolreplication,"
            "rolconnlimit,rolpassword,rolbypassrls,oid",
            NULL, NULL,
            "SELECT rolname, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin, "
            "rolreplication, rolconnlimit, rolpassword, rolbypassrls, oid FROM pg_roles "
            "WHERE oid IN (10, 6171)");
  pgc_check(pg, &ss, "information_schema", "schemata", "catalog_name,schema_name,schema_owner",
            NULL, NULL, "SELECT catalog_name, schema_name, schema_owner FROM "
            "information_schema.schemata");

  /* pg_class's rows for the catalog relations themselves */
  pgc_check(pg, &ss, "pg_catalog", "pg_class", "oid,relname,relnamespace,relkind,relnatts",
            "relnamespace", "11",
            "SELECT c.oid, relname, relnamespace, relkind, relnatts FROM pg_class c WHERE "
            "relnamespace = 11 AND relname IN ('pg_namespace', 'pg_class', 'pg_attribute', "
            "'pg_type', 'pg_index', 'pg_constraint', 'pg_attrdef', 'pg_description', "
            "'pg_inherits', 'pg_proc', 'pg_am', 'pg_tablespace', 'pg_enum', 'pg_collation', "
            "'pg_database', 'pg_roles', 'pg_user', 'pg_settings', 'pg_stat_activity', "
            "'pg_tables', 'pg_views', 'pg_trigger', 'pg_policy', 'pg_statistic_ext', "
            "'pg_publication', 'pg_publication_namespace', 'pg_publication_rel')");
  /* their columns in pg_attribute (pg_catalog's: oids below 13000) */
  pgc_check(pg, &ss, "pg_catalog", "pg_attribute",
            "attrelid,attname,atttypid,attlen,attnum,attndims,atttypmod,attbyval,attalign,"
            "attnotnull",
            "attrelid", "<13000",
            "SELECT attrelid, attname, atttypid, attlen, attnum, attndims, atttypmod, attbyval, "
            "attalign, attnotnull FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
            "WHERE c.relnamespace = 11 AND a.attnum > 0 AND c.relname IN ('pg_namespace', "
            "'pg_class', 'pg_attribute', 'pg_type', 'pg_index', 'pg_constraint', 'pg_attrdef', "
            "'pg_description', 'pg_inherits', 'pg_proc', 'pg_am', 'pg_tablespace', 'pg_enum', "
            "'pg_collation', 'pg_database', 'pg_roles', 'pg_user', 'pg_settings', "
            "'pg_stat_activity', 'pg_tables', 'pg_views', 'pg_trigger', 'pg_policy', "
            "'pg_statistic_ext', 'pg_publication', 'pg_publication_namespace', "
            "'pg_publication_rel')");
  /* and their columns, as information_schema.columns shows them */
  pgc_check(pg, &ss, "information_schema", "columns",
            "table_name,column_name,ordinal_position,data_type,udt_name", "table_schema",
            "information_schema",
            "SELECT table_name, column_name, ordinal_position, CASE WHEN domain_name IS NULL "
            "THEN data_type ELSE (SELECT format_type(typbasetype, NULL) FROM pg_type t WHERE "
            "t.typname = domain_name::name AND t.typnamespace = 13207) END, CASE WHEN "
            "domain_name IS NULL THEN udt_name ELSE (SELECT b.typname FROM pg_type t JOIN "
            "pg_type b ON b.oid = t.typbasetype WHERE t.typname = domain_name::name AND "
            "t.typnamespace = 13207) END FROM information_schema.columns WHERE table_schema = "
            "'information_schema' AND table_name IN ('schemata', 'tables', 'columns', 'views', "
            "'table_constraints', 'key_column_usage', 'referential_constraints')");

  arena_free(&ss.a);
  pgref_stop(pg);
  return 0;
}

/* starq's tables: the SSB schema and "typed"/"refs", in both. */
TEST_IMPL(pgcat_tables_pg) {
  pgref *pg;
  cat *pCat;
  pgc_session ss;
  pgc_setup(&pg, &pCat, &ss);

  pgc_check(pg, &ss, "information_schema", "columns",
            "table_catalog,table_name,column_name,ordinal_position,column_default,is_nullable,"
            "data_type,character_maximum_length,character_octet_length,numeric_precision,"
            "numeric_precision_radix,numeric_scale,datetime_precision,udt_catalog,udt_schema,"
            "udt_name,dtd_identifier,is_self_referencing,is_identity,identity_cycle,"
            "is_generated,is_updatable",
            "table_schema", "public",
            "SELECT table_catalog, table_name, column_name, ordinal_position, column_default, "
            "is_nullable, data_type, character_maximum_length, character_octet_length, "
            "numeric_precision, numeric_precision_radix, numeric_scale, datetime_precision, "
            "udt_catalog, udt_schema, udt_name, dtd_identifier, is_self_referencing, "
            "is_identity, identity_cycle, is_generated, is_updatable "
            "FROM information_schema.columns WHERE table_schema = 'public'");
  pgc_check(pg, &ss, "information_schema", "tables",
            "table_catalog,table_name,table_type,is_insertable_into,is_typed", "table_schema",
            "public",
            "SELECT table_catalog, table_name, table_type, is_insertable_into, is_typed FROM "
            "information_schema.tables WHERE table_schema = 'public'");
  pgc_check(pg, &ss, "information_schema", "table_constraints",
            "constraint_name,table_name,constraint_type,is_deferrable,initially_deferred,enforced",
            "constraint_schema", "public",
            "SELECT CASE WHEN constraint_type = 'CHECK' THEN regexp_replace(constraint_name, "
            "'^[0-9]+_[0-9]+_', '') ELSE constraint_name END, table_name, constraint_type, "
            "is_deferrable, initially_deferred, enforced FROM "
            "information_schema.table_constraints WHERE constraint_schema = 'public'");
  pgc_check(pg, &ss, "information_schema", "key_column_usage",
            "constraint_name,table_name,column_name,ordinal_position,position_in_unique_constraint",
            NULL, NULL,
            "SELECT constraint_name, table_name, column_name, ordinal_position, "
            "position_in_unique_constraint FROM information_schema.key_column_usage "
            "WHERE constraint_schema = 'public'");
  pgc_check(pg, &ss, "information_schema", "referential_constraints",
            "constraint_name,unique_constraint_schema,unique_constraint_name,match_option,"
            "update_rule,delete_rule",
            NULL, NULL,
            "SELECT constraint_name, unique_constraint_schema, unique_constraint_name, "
            "match_option, update_rule, delete_rule FROM "
            "information_schema.referential_constraints");
  pgc_check(pg, &ss, "pg_catalog", "pg_class",
            "relname,relowner,relam,reltablespace,relpages,reltuples,relhasindex,relisshared,"
            "relpersistence,relkind,relnatts,relchecks,relhasrules,relhastriggers,"
            "relhassubclass,relispopulated,relreplident,relispartition",
            "relnamespace", "2200",
            "SELECT relname, relowner, relam, reltablespace, relpages, reltuples, relhasindex, "
            "relisshared, relpersistence, relkind, relnatts, relchecks, relhasrules, "
            "relhastriggers, relhassubclass, relispopulated, relreplident, relispartition "
            "FROM pg_class WHERE relnamespace = 2200");
  pgc_check(pg, &ss, "pg_catalog", "pg_attribute",
            "attname,atttypid,attstattarget,attlen,attnum,attndims,attcacheoff,atttypmod,"
            "attbyval,attalign,attstorage,attcompression,attnotnull,atthasdef,attidentity,"
            "attgenerated,attisdropped,attislocal,attinhcount,attcollation",
            "attrelid", ">=16384",
            "SELECT attname, atttypid, attstattarget, attlen, attnum, attndims, attcacheoff, "
            "atttypmod, attbyval, attalign, attstorage, attcompression, attnotnull, atthasdef, "
            "attidentity, attgenerated, attisdropped, attislocal, attinhcount, attcollation "
            "FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE "
            "c.relnamespace = 2200 AND a.attnum > 0");
  pgc_check(pg, &ss, "pg_catalog", "pg_index",
            "indnatts,indnkeyatts,indisunique,indisprimary,indisexclusion,indimmediate,"
            "indisclustered,indisvalid,indcheckxmin,indisready,indislive,indisreplident,"
            "indkey,indcollation,indclass,indoption",
            NULL, NULL,
            "SELECT indnatts, indnkeyatts, indisunique, indisprimary, indisexclusion, "
            "indimmediate, indisclustered, indisvalid, indcheckxmin, indisready, indislive, "
            "indisreplident, indkey, indcollation, indclass, indoption FROM pg_index i JOIN "
            "pg_class c ON c.oid = i.indrelid WHERE c.relnamespace = 2200");
  pgc_check(pg, &ss, "pg_catalog", "pg_constraint",
            "conname,connamespace,contype,condeferrable,condeferred,convalidated,contypid,"
            "conparentid,confupdtype,confdeltype,confmatchtype,conislocal,coninhcount,"
            "connoinherit,conkey,confkey,conpfeqop,conppeqop,conffeqop",
            NULL, NULL,
            "SELECT conname, connamespace, contype, condeferrable, condeferred, convalidated, "
            "contypid, conparentid, confupdtype, confdeltype, confmatchtype, conislocal, "
            "coninhcount, connoinherit, conkey, confkey, conpfeqop, conppeqop, conffeqop "
            "FROM pg_constraint WHERE connamespace = 2200");
  pgc_check(pg, &ss, "pg_catalog", "pg_tables",
            "tablename,tableowner,hasindexes,hasrules,hastriggers,rowsecurity", "schemaname",
            "public",
            "SELECT tablename, tableowner, hasindexes, hasrules, hastriggers, rowsecurity FROM "
            "pg_tables WHERE schemaname = 'public'");

  arena_free(&ss.a);
  cat_close(pCat);
  pgref_stop(pg);
  return 0;
}

/* ---- functions ------------------------------------------------------------------------- */

/* Calls registry function zName with aArg[0..nArg) (the overload of nArg
** arguments whose types match theirs) and returns its text, "\N" for
** NULL, or "ERROR sqlstate". */
static const char *pgc_call(pgc_session *ss, const char *zName, int nArg, const datum *aArg,
                            char *zOut, size_t nOut) {
  int n;
  const func_def *f = func_candidates(zName, &n);
  sql_error e;
  datum out;
  strbuf s;
  for (; n > 0; n--, f++) {
    int bMatch = f->nArg == nArg;
    for (int i = 0; bMatch && i < nArg; i++) bMatch = f->aArg[i] == aArg[i].type.eId;
    if (bMatch) break;
  }
  if (n == 0) FAIL("no overload of %s for these arguments", zName);
  memset(&e, 0, sizeof(e));
  for (int i = 0; i < nArg; i++) {
    if (aArg[i].bNull && (f->mFlag & FUNC_STRICT)) {
      snprintf(zOut, nOut, "\\N");
      return zOut;
    }
  }
  if (f->xHost(&ss->ctx, nArg, aArg, &out, &e) != 0) {
    snprintf(zOut, nOut, "ERROR %s", e.zState);
    return zOut;
  }
  strbuf_init(&s);
  pgc_datum_text(&out, &s);
  snprintf(zOut, nOut, "%s", strbuf_str(&s));
  strbuf_free(&s);
  return zOut;
}

/* PostgreSQL's answer to SELECT zExpr: its text, "\N", or "ERROR sqlstate". */
static const char *pgc_pg_value(pgref *pg, const char *zExpr, char *zOut, size_t nOut) {
  char zSql[1024];
  PGresult *res;
  snprintf(zSql, sizeof(zSql), "SELECT %s", zExpr);
  res = PQexec(pgref_conn(pg), zSql);
  if (PQresultStatus(res) != PGRES_TUPLES_OK) {
    snprintf(zOut, nOut, "ERROR %s", PQresultErrorField(res, PG_DIAG_SQLSTATE));
  } else if (PQgetisnull(res, 0, 0)) {
    snprintf(zOut, nOut, "\\N");
  } else {
    snprintf(zOut, nOut, "%s", PQgetvalue(res, 0, 0));
  }
  PQclear(res);
  return zOut;
}

static datum pgc_oid(int64_t v) {
  return datum_int(COLTYPE_OID, v);
}
static datum pgc_int(int64_t v) {
  return datum_int(COLTYPE_INTEGER, v);
}
static datum pgc_text(const char *z) {
  return datum_text(COLTYPE_TEXT, z, (uint32_t)strlen(z));
}

/* The catalog id of starq table zName. */
static int64_t pgc_table_id(cat *pCat, const char *zName) {
  cat_table *t;
  char zErr[256];
  int64_t iId;
  CALL_OK(cat_table_get(pCat, zName, &t, zErr, sizeof(zErr)));
  iId = t->iId;
  cat_table_free(t);
  return iId;
}

/* The oid of starq table zName, and of its primary key's index. */
static int64_t pgc_table_oid(cat *pCat, const char *zName) {
  return pgobj_table_oid(pgc_table_id(pCat, zName));
}
static int64_t pgc_index_oid(cat *pCat, const char *zName) {
  return pgobj_index_oid(pgc_table_id(pCat, zName));
}

/* z with C escapes (\\ \xHH) undone, as E'' reads it, in the session's
** arena, as text or name. */
static datum pgc_unescaped(pgc_session *ss, const char *z, coltype_id e) {
  char *zOut = arena_alloc(&ss->a, strlen(z) + 1);
  size_t n = 0;
  ASSERT(zOut != NULL);
  for (const char *p = z; *p; p++) {
    if (p[0] == '\\' && p[1] == 'x') {
      zOut[n++] = (char)strtol((char[]){p[2], p[3], 0}, NULL, 16);
      p += 3;
    } else if (p[0] == '\\' && p[1] == '\\') {
      zOut[n++] = '\\';
      p++;
    } else {
      zOut[n++] = *p;
    }
  }
  return datum_text(e, zOut, (uint32_t)n);
}
static datum pgc_text_unescaped(pgc_session *ss, const char *z) {
  return pgc_unescaped(ss, z, COLTYPE_TEXT);
}
static datum pgc_name_unescaped(pgc_session *ss, const char *z) {
  return pgc_unescaped(ss, z, COLTYPE_NAME);
}

#define PGC_SAME(zExpr, zName, ...)                                                     \
  do {                                                                                  \
    const datum aArg_[] = {__VA_ARGS__};                                                \
    char zWant_[512], zGot_[512];                                                       \
    pgc_pg_value(pg, zExpr, zWant_, sizeof(zWant_));                                    \
    pgc_call(&ss, zName, (int)(sizeof(aArg_) / sizeof(aArg_[0])), aArg_, zGot_,        \
             sizeof(zGot_));                                                            \
    if (strcmp(zWant_, zGot_) != 0) FAIL("%s: pg \"%s\", starq \"%s\"", zExpr, zWant_, zGot_); \
  } while (0)

typedef struct pgc_fn_check pgc_fn_check;
struct pgc_fn_check {
  pgref *pg;
  pgc_session *pss;
};

/* pg_get_function_arguments, _identity_arguments and _result of oid in
** both. */
static void pgc_fn_signature_oid(pgc_fn_check *c, uint32_t oid) {
  static const char *const azFn[] = {"pg_get_function_arguments",
                                     "pg_get_function_identity_arguments",
                                     "pg_get_function_result"};
  pgref *pg = c->pg;
  for (size_t i = 0; i < sizeof(azFn) / sizeof(azFn[0]); i++) {
    char zExpr[96];
    /* PGC_SAME calls in session ss: a copy whose context still points at
    ** the caller's arena */
    pgc_session ss = *c->pss;
    snprintf(zExpr, sizeof(zExpr), "%s(%u)", azFn[i], oid);
    PGC_SAME(zExpr, azFn[i], pgc_oid(oid));
  }
}

static int pgc_fn_signature(void *pArg, const func_def *f) {
  if (f->oid != 0) pgc_fn_signature_oid(pArg, f->oid);
  return 0;
}

TEST_IMPL(pgcat_functions_pg) {
  pgref *pg;
  cat *pCat;
  pgc_session ss;
  char zErr[2048], zGot[512], zWant[512];
  static const int32_t aTypmod[] = {-1, 4, 14, 983046, 3, 0x10000 + 4};
  pgc_setup(&pg, &pCat, &ss);

  /* format_type over every type starq has, with and without modifiers */
  for (int i = 0; i < pgobj_type_count(); i++) {
    uint32_t oid = pgobj_type_at(i)->oid;
    for (size_t k = 0; k < sizeof(aTypmod) / sizeof(aTypmod[0]); k++) {
      char zExpr[64];
      /* an interval's typmod holds its fields: these are not valid ones */
      if ((oid == 1186 || oid == 1187) && aTypmod[k] != -1) continue;
      snprintf(zExpr, sizeof(zExpr), "format_type(%u, %d)", oid, aTypmod[k]);
      PGC_SAME(zExpr, "format_type", pgc_oid(oid), pgc_int(aTypmod[k]));
    }
    {
      char zExpr[64];
      snprintf(zExpr, sizeof(zExpr), "format_type(%u, NULL)", oid);
      PGC_SAME(zExpr, "format_type", pgc_oid(oid), datum_null(COLTYPE_INTEGER));
    }
  }
  PGC_SAME("format_type(1186, 2147418115)", "format_type", pgc_oid(1186), pgc_int(2147418115));
  PGC_SAME("format_type(NULL, 4)", "format_type", datum_null(COLTYPE_OID), pgc_int(4));
  PGC_SAME("format_type(0, -1)", "format_type", pgc_oid(0), pgc_int(-1));
  PGC_SAME("format_type(99999, -1)", "format_type", pgc_oid(99999), pgc_int(-1));
  for (int i = -1; i < 45; i++) {
    char zExpr[64];
    snprintf(zExpr, sizeof(zExpr), "pg_encoding_to_char(%d)", i);
    PGC_SAME(zExpr, "pg_encoding_to_char", pgc_int(i));
  }
  PGC_SAME("pg_get_userbyid(10)", "pg_get_userbyid", pgc_oid(10));
  PGC_SAME("pg_get_userbyid(6171)", "pg_get_userbyid", pgc_oid(6171));
  PGC_SAME("pg_get_userbyid(12345)", "pg_get_userbyid", pgc_oid(12345));
  PGC_SAME("quote_ident('lineorder')", "quote_ident", pgc_text("lineorder"));
  PGC_SAME("quote_ident('Line Order')", "quote_ident", pgc_text("Line Order"));
  PGC_SAME("quote_ident('select')", "quote_ident", pgc_text("select"));
  PGC_SAME("quote_ident('year')", "quote_ident", pgc_text("year"));
  PGC_SAME("quote_ident('a\"b')", "quote_ident", pgc_text("a\"b"));
  PGC_SAME("current_database()", "current_database");
  PGC_SAME("current_schema()", "current_schema");
  PGC_SAME("current_user", "current_user");
  PGC_SAME("session_user", "session_user");
  PGC_SAME("current_setting('TimeZone')", "current_setting", pgc_text("TimeZone"));
  PGC_SAME("current_setting('no_such_setting')", "current_setting", pgc_text("no_such_setting"));
  PGC_SAME("current_setting('no_such_setting', true)", "current_setting",
           pgc_text("no_such_setting"), datum_bool(1));
  PGC_SAME("pg_table_is_visible(1259)", "pg_table_is_visible", pgc_oid(1259));
  PGC_SAME("pg_table_is_visible(13425)", "pg_table_is_visible", pgc_oid(13425));
  PGC_SAME("pg_table_is_visible(99999999)", "pg_table_is_visible", pgc_oid(99999999));
  PGC_SAME("pg_type_is_visible(23)", "pg_type_is_visible", pgc_oid(23));
  PGC_SAME("obj_description(1259, 'pg_class')", "obj_description", pgc_oid(1259),
           datum_text(COLTYPE_NAME, "pg_class", 8));
  PGC_SAME("has_table_privilege('lineorder', 'select')", "has_table_privilege",
           pgc_text("lineorder"), pgc_text("select"));
  PGC_SAME("has_table_privilege('lineorder', 'SELECT, insert WITH GRANT OPTION')",
           "has_table_privilege", pgc_text("lineorder"),
           pgc_text("SELECT, insert WITH GRANT OPTION"));
  PGC_SAME("has_table_privilege('lineorder', 'frob')", "has_table_privilege",
           pgc_text("lineorder"), pgc_text("frob"));
  PGC_SAME("has_table_privilege('no_such_table', 'select')", "has_table_privilege",
           pgc_text("no_such_table"), pgc_text("select"));
  PGC_SAME("has_table_privilege('pg_catalog.pg_class', 'select')", "has_table_privilege",
           pgc_text("pg_catalog.pg_class"), pgc_text("select"));
  PGC_SAME("has_table_privilege('LINEORDER', 'select')", "has_table_privilege",
           pgc_text("LINEORDER"), pgc_text("select"));
  PGC_SAME("has_table_privilege('\"LINEORDER\"', 'select')", "has_table_privilege",
           pgc_text("\"LINEORDER\""), pgc_text("select"));
  PGC_SAME("has_table_privilege('public.\"lineorder\"', 'select')", "has_table_privilege",
           pgc_text("public.\"lineorder\""), pgc_text("select"));
  PGC_SAME("has_table_privilege('public.pg_class', 'select')", "has_table_privilege",
           pgc_text("public.pg_class"), pgc_text("select"));
  PGC_SAME("has_table_privilege('pg_class', 'select')", "has_table_privilege",
           pgc_text("pg_class"), pgc_text("select"));
  PGC_SAME("has_table_privilege('information_schema.tables', 'select')", "has_table_privilege",
           pgc_text("information_schema.tables"), pgc_text("select"));
  PGC_SAME("has_table_privilege('a.b.c', 'select')", "has_table_privilege",
           pgc_text("a.b.c"), pgc_text("select"));
  PGC_SAME("has_table_privilege('starq.public.lineorder', 'select')", "has_table_privilege",
           pgc_text("starq.public.lineorder"), pgc_text("select"));
  PGC_SAME("has_table_privilege('a.b.c.d', 'select')", "has_table_privilege",
           pgc_text("a.b.c.d"), pgc_text("select"));
  PGC_SAME("has_table_privilege('a..b', 'select')", "has_table_privilege", pgc_text("a..b"),
           pgc_text("select"));
  PGC_SAME("has_table_privilege('nope', 'frob')", "has_table_privilege", pgc_text("nope"),
           pgc_text("frob"));
  PGC_SAME("has_table_privilege(99999999::oid, 'select')", "has_table_privilege",
           pgc_oid(99999999), pgc_text("select"));
  PGC_SAME("has_table_privilege(1259::oid, 'select')", "has_table_privilege", pgc_oid(1259),
           pgc_text("select"));
  PGC_SAME("has_schema_privilege('public', 'usage')", "has_schema_privilege",
           pgc_text("public"), pgc_text("usage"));
  PGC_SAME("has_schema_privilege('nope', 'usage')", "has_schema_privilege", pgc_text("nope"),
           pgc_text("usage"));
  PGC_SAME("has_database_privilege('starq', 'connect')", "has_database_privilege",
           pgc_text("starq"), pgc_text("connect"));
  PGC_SAME("has_database_privilege('nope', 'connect')", "has_database_privilege",
           pgc_text("nope"), pgc_text("connect"));

  /* version(): the shape drivers parse */
  pgc_call(&ss, "version", 0, NULL, zGot, sizeof(zGot));
  pgc_pg_value(pg, "version() ~ '^PostgreSQL 15\\.[0-9]+ .* on [^,]+, compiled by [^,]+, 64-bit$'",
               zWant, sizeof(zWant));
  ASSERT_STR_EQ(zWant, "t");
  {
    char zExpr[600];
    snprintf(zExpr, sizeof(zExpr),
             "'%s' ~ '^PostgreSQL 15\\.[0-9]+ .* on [^,]+, compiled by [^,]+, 64-bit$'", zGot);
    ASSERT_STR_EQ(pgc_pg_value(pg, zExpr, zWant, sizeof(zWant)), "t");
  }
  ASSERT_STR_EQ(pgc_call(&ss, "pg_backend_pid", 0, NULL, zGot, sizeof(zGot)), "4242");

  /* constraint and index definitions, by name on both sides */
  {
    pgobj_tables tabs;
    sql_error e;
    CALL_OK(pgobj_tables_load(pCat, &tabs, &e) == 0 ? 0 : -1);
    for (int i = 0; i < tabs.n; i++) {
      const cat_table *t = tabs.ap[i];
      char zExpr[256];
      strbuf name;
      strbuf_init(&name);
      if (t->nPkey > 0) {
        pgobj_pkey_name(t, &name);
        snprintf(zExpr, sizeof(zExpr),
                 "pg_get_constraintdef((SELECT oid FROM pg_constraint WHERE conname = '%s'))",
                 strbuf_str(&name));
        PGC_SAME(zExpr, "pg_get_constraintdef", pgc_oid(pgobj_pkey_oid(t->iId)));
        snprintf(zExpr, sizeof(zExpr), "pg_get_indexdef('%s'::regclass)", strbuf_str(&name));
        PGC_SAME(zExpr, "pg_get_indexdef", pgc_oid(pgobj_index_oid(t->iId)));
        snprintf(zExpr, sizeof(zExpr), "pg_get_indexdef('%s'::regclass, 1, true)",
                 strbuf_str(&name));
        PGC_SAME(zExpr, "pg_get_indexdef", pgc_oid(pgobj_index_oid(t->iId)), pgc_int(1),
                 datum_bool(1));
      }
      for (int k = 0; k < t->nFkey; k++) {
        strbuf_reset(&name);
        pgobj_fkey_name(t, k, &name);
        snprintf(zExpr, sizeof(zExpr),
                 "pg_get_constraintdef((SELECT oid FROM pg_constraint WHERE conname = '%s'), "
                 "true)",
                 strbuf_str(&name));
        PGC_SAME(zExpr, "pg_get_constraintdef", pgc_oid(pgobj_fkey_oid(t->iId, k)),
                 datum_bool(1));
      }
      strbuf_free(&name);
    }
    pgobj_tables_free(&tabs);
  }
  PGC_SAME("pg_get_constraintdef(99999999)", "pg_get_constraintdef", pgc_oid(99999999));

  /* sizes: an empty table's data is 0 bytes in both; unknown oids NULL */
  PGC_SAME("pg_relation_size('typed'::regclass)", "pg_relation_size",
           datum_int(COLTYPE_REGCLASS, pgc_table_oid(pCat, "typed")));
  PGC_SAME("pg_relation_size(99999999)", "pg_relation_size",
           datum_int(COLTYPE_REGCLASS, 99999999));
  PGC_SAME("pg_table_size(99999999)", "pg_table_size", datum_int(COLTYPE_REGCLASS, 99999999));
  PGC_SAME("pg_total_relation_size(99999999)", "pg_total_relation_size",
           datum_int(COLTYPE_REGCLASS, 99999999));
  PGC_SAME("pg_indexes_size(99999999)", "pg_indexes_size", datum_int(COLTYPE_REGCLASS, 99999999));
  /* what a publication could hold; starq has no statistics objects or
  ** triggers, so their definitions are NULL as for any unknown oid */
  PGC_SAME("pg_relation_is_publishable('typed'::regclass)", "pg_relation_is_publishable",
           datum_int(COLTYPE_REGCLASS, pgc_table_oid(pCat, "typed")));
  PGC_SAME("pg_relation_is_publishable('typed_pkey'::regclass)", "pg_relation_is_publishable",
           datum_int(COLTYPE_REGCLASS, pgc_index_oid(pCat, "typed")));
  PGC_SAME("pg_relation_is_publishable(1259)", "pg_relation_is_publishable",
           datum_int(COLTYPE_REGCLASS, 1259));
  PGC_SAME("pg_relation_is_publishable(99999999)", "pg_relation_is_publishable",
           datum_int(COLTYPE_REGCLASS, 99999999));
  PGC_SAME("pg_get_statisticsobjdef_columns(99999999)", "pg_get_statisticsobjdef_columns",
           pgc_oid(99999999));
  PGC_SAME("pg_get_triggerdef(99999999)", "pg_get_triggerdef", pgc_oid(99999999));
  PGC_SAME("pg_get_triggerdef(99999999, true)", "pg_get_triggerdef", pgc_oid(99999999),
           datum_bool(1));
  PGC_SAME("pg_database_size('nope')", "pg_database_size", datum_text(COLTYPE_NAME, "nope", 4));
  PGC_SAME("pg_database_size(99999)", "pg_database_size", pgc_oid(99999));
  {
    static const int64_t aSize[] = {0, 1, 10239, 10240, 10241, 20479, 20480, -10239, -10240,
                                    -20480, 1048575, 1048576, 10485759, 10485760, 20971519,
                                    20971520, 1073741823, 1099511627775LL, 1125899906842624LL,
                                    INT64_MAX, -INT64_MAX, INT64_MIN, 10752, 11263, 11264,
                                    -10752, -11264, 15360, -15360, 21473, 1536000, -1536000,
                                    -10751, -11263, -20971519, -20971520};
    for (size_t i = 0; i < sizeof(aSize) / sizeof(aSize[0]); i++) {
      char zExpr[64];
      /* INT64_MIN has no literal: one less than -INT64_MAX */
      snprintf(zExpr, sizeof(zExpr), "pg_size_pretty((%lld%s)::bigint)",
               (long long)(aSize[i] == INT64_MIN ? -INT64_MAX : aSize[i]),
               aSize[i] == INT64_MIN ? " - 1" : "");
      PGC_SAME(zExpr, "pg_size_pretty", datum_int(COLTYPE_BIGINT, aSize[i]));
    }
  }

  /* signatures: every registry function and built-in one, as \df shows them */
  {
    pgc_fn_check c = {pg, &ss};
    func_each(pgc_fn_signature, &c);
    for (int i = 0; i < pgobj_proc_count(); i++) pgc_fn_signature_oid(&c, pgobj_proc_at(i)->oid);
    PGC_SAME("pg_get_function_result(1)", "pg_get_function_result", pgc_oid(1));
  }

  /* regular expressions, on text and name, each way */
  {
    static const char *const aPair[][2] = {
        {"lineorder", "^(lineorder)$"}, {"lineorder", "^(line.*)$"}, {"LineOrder", "^(line.*)$"},
        {"pg_toast", "^pg_"}, {"information_schema", "^information_schema|catalog_history|pg_"},
        {"abc", "\\\\d"}, {"a1", "\\\\d"}, {"a b", "\\\\s"}, {"ab", "\\\\W"},
        {"\xc3\xa9", "^.$"}, {"", ""}, {"x", "a|"}, {"aaa", "^a{2,3}$"},
        {"abc", "[[:upper:]]"}, {"a.c", "a\\\\.c"}, {"abc", "a\\\\.c"}};
    static const char *const aOp[][2] = {{"~", "textregexeq"}, {"~*", "texticregexeq"},
                                         {"!~", "textregexne"}, {"!~*", "texticregexne"}};
    for (size_t i = 0; i < sizeof(aPair) / sizeof(aPair[0]); i++) {
      for (size_t k = 0; k < sizeof(aOp) / sizeof(aOp[0]); k++) {
        char zExpr[256];
        snprintf(zExpr, sizeof(zExpr), "E'%s' %s E'%s'", aPair[i][0], aOp[k][0], aPair[i][1]);
        PGC_SAME(zExpr, aOp[k][1], pgc_text_unescaped(&ss, aPair[i][0]),
                 pgc_text_unescaped(&ss, aPair[i][1]));
        snprintf(zExpr, sizeof(zExpr), "E'%s'::name %s E'%s'", aPair[i][0], aOp[k][0],
                 aPair[i][1]);
        PGC_SAME(zExpr, aOp[k][1][4] == 'i' ? (k == 1 ? "nameicregexeq" : "nameicregexne")
                                            : (k == 0 ? "nameregexeq" : "nameregexne"),
                 pgc_name_unescaped(&ss, aPair[i][0]), pgc_text_unescaped(&ss, aPair[i][1]));
      }
    }
    PGC_SAME("'x' ~ '('", "textregexeq", pgc_text("x"), pgc_text("("));
    PGC_SAME("'x' ~ 'a{2'", "textregexeq", pgc_text("x"), pgc_text("a{2"));
  }

  arena_free(&ss.a);
  cat_close(pCat);
  pgref_stop(pg);
  return 0;
}
