/*
** pgcat/rel-infoschema.c — information_schema's views over starq's
** tables, as PostgreSQL 15 computes them for a superuser: schemata,
** tables (starq's and pg_catalog's and information_schema's own),
** columns, table_constraints (primary keys, foreign keys, and the CHECK
** constraint PostgreSQL lists for each NOT NULL column),
** key_column_usage, referential_constraints. starq has no views of its
** own, so views lists none. Domain-typed columns (sql_identifier,
** cardinal_number, yes_or_no) have their base types, as the catalog's
** pg_attribute reports them to clients.
**
** INTERFACE ROUTINES
**   pgcat__is_schemata, pgcat__is_tables, pgcat__is_columns,
**   pgcat__is_views, pgcat__is_table_constraints,
**   pgcat__is_key_column_usage, pgcat__is_referential_constraints
**                          (vrel definitions)
*/
#include <stdio.h>
#include <string.h>

#include "pgcatInt.h"

static const char *pgcat_db(func_ctx *pCtx) {
  return pCtx->zDatabase != NULL ? pCtx->zDatabase : "starq";
}

static int pgcat_is_schemata_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg,
                                  sql_error *pErr) {
  static const uint32_t aOid[] = {PGOBJ_NS_INFORMATION_SCHEMA, PGOBJ_NS_PG_CATALOG,
                                  PGOBJ_NS_PG_TOAST, PGOBJ_NS_PUBLIC};
  for (size_t i = 0; i < sizeof(aOid) / sizeof(aOid[0]); i++) {
    vrow r;
    int rc;
    pgcat__row_init(&r, &pgcat__is_schemata, pCtx);
    pgcat__row_text(&r, "catalog_name", pgcat_db(pCtx));
    pgcat__row_text(&r, "schema_name", pgobj_schema_name(aOid[i]));
    pgcat__row_text(&r, "schema_owner", aOid[i] == PGOBJ_NS_PUBLIC ? "pg_database_owner"
                                        : pCtx->zUser != NULL      ? pCtx->zUser
                                                                   : "starq");
    if ((rc = pgcat__row_emit(&r, xRow, pArg, pErr)) != 0) return rc;
  }
  return 0;
}

/* One information_schema.tables row. */
static int pgcat_tables_row(func_ctx *pCtx, const char *zSchema, const char *zName, int bView,
                            vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  vrow r;
  pgcat__row_init(&r, &pgcat__is_tables, pCtx);
  pgcat__row_text(&r, "table_catalog", pgcat_db(pCtx));
  pgcat__row_text(&r, "table_schema", zSchema);
  pgcat__row_text(&r, "table_name", zName);
  pgcat__row_text(&r, "table_type", bView ? "VIEW" : "BASE TABLE");
  pgcat__row_text(&r, "is_insertable_into", bView ? "NO" : "YES");
  pgcat__row_text(&r, "is_typed", "NO");
  return pgcat__row_emit(&r, xRow, pArg, pErr);
}

static int pgcat_is_tables_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  pgobj_tables tabs;
  int rc = 0;
  if (pgcat__tables(pCtx, &tabs, pErr) != 0) return -1;
  for (int i = 0; rc == 0 && i < tabs.n; i++) {
    rc = pgcat_tables_row(pCtx, "public", tabs.ap[i]->zName, 0, xRow, pArg, pErr);
  }
  pgobj_tables_free(&tabs);
  for (int i = 0; rc == 0 && i < pgcat__nRel; i++) {
    const vrel *p = pgcat__aRel[i];
    rc = pgcat_tables_row(pCtx, p->zSchema, p->zName, p->cRelKind == 'v', xRow, pArg, pErr);
  }
  return rc;
}

/* ---- columns ---------------------------------------------------------------------- */

/* Sets the columns that describe type t: data_type, lengths, precision,
** scale, udt_*. */
static void pgcat_columns_type(vrow *r, coltype t) {
  const pgobj_type *ty = pgobj_type_by_oid(pgobj_coltype_oid(t));
  pgcat__row_text(r, "data_type", t.eId == COLTYPE_ARRAY ? "ARRAY" : pgcat__type_sqlname(t));
  pgcat__row_text(r, "udt_schema", "pg_catalog");
  pgcat__row_text(r, "udt_name", ty != NULL ? ty->zName : "unknown");
  switch (t.eId) {
    case COLTYPE_CHAR:
    case COLTYPE_VARCHAR:
      if (t.nLength > 0) {
        pgcat__row_int(r, "character_maximum_length", t.nLength);
        pgcat__row_int(r, "character_octet_length", 4 * (int64_t)t.nLength);
      } else {
        pgcat__row_int(r, "character_octet_length", 1073741824);
      }
      break;
    case COLTYPE_TEXT: pgcat__row_int(r, "character_octet_length", 1073741824); break;
    case COLTYPE_SMALLINT:
    case COLTYPE_INTEGER:
    case COLTYPE_BIGINT:
      pgcat__row_int(r, "numeric_precision", t.eId == COLTYPE_SMALLINT  ? 16
                                             : t.eId == COLTYPE_INTEGER ? 32
                                                                        : 64);
      pgcat__row_int(r, "numeric_precision_radix", 2);
      pgcat__row_int(r, "numeric_scale", 0);
      break;
    case COLTYPE_DOUBLE:
    case COLTYPE_FLOAT4:
      pgcat__row_int(r, "numeric_precision", t.eId == COLTYPE_DOUBLE ? 53 : 24);
      pgcat__row_int(r, "numeric_precision_radix", 2);
      break;
    case COLTYPE_DECIMAL:
    case COLTYPE_NUMERIC:
      if (t.nPrecision > 0) {
        pgcat__row_int(r, "numeric_precision", t.nPrecision);
        pgcat__row_int(r, "numeric_scale", t.nScale);
      }
      pgcat__row_int(r, "numeric_precision_radix", 10);
      break;
    case COLTYPE_DATE: pgcat__row_int(r, "datetime_precision", 0); break;
    case COLTYPE_TIMESTAMP:
    case COLTYPE_TIMESTAMPTZ:
    case COLTYPE_TIME:
    case COLTYPE_TIMETZ:
    case COLTYPE_INTERVAL: pgcat__row_int(r, "datetime_precision", t.nScale); break;
    default: break;
  }
}

static int pgcat_columns_row(func_ctx *pCtx, const char *zSchema, const char *zTable,
                             const char *zCol, coltype t, int iPos, int bNotNull,
                             vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  char zPos[16];
  vrow r;
  pgcat__row_init(&r, &pgcat__is_columns, pCtx);
  pgcat__row_text(&r, "table_catalog", pgcat_db(pCtx));
  pgcat__row_text(&r, "table_schema", zSchema);
  pgcat__row_text(&r, "table_name", zTable);
  pgcat__row_text(&r, "column_name", zCol);
  pgcat__row_int(&r, "ordinal_position", iPos);
  pgcat__row_text(&r, "is_nullable", bNotNull ? "NO" : "YES");
  pgcat_columns_type(&r, t);
  pgcat__row_text(&r, "udt_catalog", pgcat_db(pCtx));
  snprintf(zPos, sizeof(zPos), "%d", iPos);
  pgcat__row_text(&r, "dtd_identifier", zPos);
  pgcat__row_text(&r, "is_self_referencing", "NO");
  pgcat__row_text(&r, "is_identity", "NO");
  pgcat__row_text(&r, "identity_cycle", "NO");
  pgcat__row_text(&r, "is_generated", "NEVER");
  pgcat__row_text(&r, "is_updatable", strcmp(zSchema, "public") == 0 ? "YES" : "NO");
  return pgcat__row_emit(&r, xRow, pArg, pErr);
}

static int pgcat_is_columns_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg,
                                 sql_error *pErr) {
  pgobj_tables tabs;
  int rc = 0;
  if (pgcat__tables(pCtx, &tabs, pErr) != 0) return -1;
  for (int i = 0; rc == 0 && i < tabs.n; i++) {
    const cat_table *t = tabs.ap[i];
    for (int c = 0; rc == 0 && c < t->nCol; c++) {
      rc = pgcat_columns_row(pCtx, "public", t->zName, t->aCol[c].zName, t->aCol[c].type, c + 1,
                             t->aCol[c].bNotNull, xRow, pArg, pErr);
    }
  }
  pgobj_tables_free(&tabs);
  for (int i = 0; rc == 0 && i < pgcat__nRel; i++) {
    const vrel *p = pgcat__aRel[i];
    for (int c = 0; rc == 0 && c < p->nCol; c++) {
      rc = pgcat_columns_row(pCtx, p->zSchema, p->zName, p->aCol[c].zName, p->aCol[c].type, c + 1,
                             p->aCol[c].bNotNull, xRow, pArg, pErr);
    }
  }
  return rc;
}

static int pgcat_is_views_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  (void)pCtx, (void)xRow, (void)pArg, (void)pErr;
  return 0;
}

/* ---- constraints --------------------------------------------------------------------- */

/* The columns every row about a constraint of table t starts with. */
static void pgcat_constraint_names(vrow *r, func_ctx *pCtx, const char *zCon, const char *zTable) {
  pgcat__row_text(r, "constraint_catalog", pgcat_db(pCtx));
  pgcat__row_text(r, "constraint_schema", "public");
  pgcat__row_text(r, "constraint_name", zCon);
  pgcat__row_text(r, "table_catalog", pgcat_db(pCtx));
  pgcat__row_text(r, "table_schema", "public");
  pgcat__row_text(r, "table_name", zTable);
}

static int pgcat_table_constraints_row(func_ctx *pCtx, const char *zCon, const char *zTable,
                                       const char *zType, vrel_row_fn xRow, void *pArg,
                                       sql_error *pErr) {
  vrow r;
  pgcat__row_init(&r, &pgcat__is_table_constraints, pCtx);
  pgcat_constraint_names(&r, pCtx, zCon, zTable);
  pgcat__row_text(&r, "constraint_type", zType);
  pgcat__row_text(&r, "is_deferrable", "NO");
  pgcat__row_text(&r, "initially_deferred", "NO");
  pgcat__row_text(&r, "enforced", "YES");
  return pgcat__row_emit(&r, xRow, pArg, pErr);
}

static int pgcat_is_table_constraints_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg,
                                           sql_error *pErr) {
  pgobj_tables tabs;
  int rc = 0;
  if (pgcat__tables(pCtx, &tabs, pErr) != 0) return -1;
  for (int i = 0; rc == 0 && i < tabs.n; i++) {
    const cat_table *t = tabs.ap[i];
    strbuf s;
    strbuf_init(&s);
    if (t->nPkey > 0) {
      pgobj_pkey_name(t, &s);
      rc = pgcat_table_constraints_row(pCtx, strbuf_str(&s), t->zName, "PRIMARY KEY", xRow, pArg,
                                       pErr);
    }
    for (int k = 0; rc == 0 && k < t->nFkey; k++) {
      strbuf_reset(&s);
      pgobj_fkey_name(t, k, &s);
      rc = pgcat_table_constraints_row(pCtx, strbuf_str(&s), t->zName, "FOREIGN KEY", xRow, pArg,
                                       pErr);
    }
    /* PostgreSQL 15 lists each NOT NULL as a CHECK named
    ** <schema oid>_<table oid>_<column number>_not_null */
    for (int c = 0; rc == 0 && c < t->nCol; c++) {
      if (!t->aCol[c].bNotNull) continue;
      strbuf_reset(&s);
      strbuf_printf(&s, "%u_%u_%d_not_null", PGOBJ_NS_PUBLIC, pgobj_table_oid(t->iId), c + 1);
      rc = pgcat_table_constraints_row(pCtx, strbuf_str(&s), t->zName, "CHECK", xRow, pArg, pErr);
    }
    strbuf_free(&s);
  }
  pgobj_tables_free(&tabs);
  return rc;
}

static int pgcat_key_column_row(func_ctx *pCtx, const char *zCon, const cat_table *t, int iCol,
                                int iPos, int iUniquePos, vrel_row_fn xRow, void *pArg,
                                sql_error *pErr) {
  vrow r;
  pgcat__row_init(&r, &pgcat__is_key_column_usage, pCtx);
  pgcat_constraint_names(&r, pCtx, zCon, t->zName);
  pgcat__row_text(&r, "column_name", t->aCol[iCol].zName);
  pgcat__row_int(&r, "ordinal_position", iPos);
  if (iUniquePos > 0) pgcat__row_int(&r, "position_in_unique_constraint", iUniquePos);
  return pgcat__row_emit(&r, xRow, pArg, pErr);
}

/* The 1-based position of column iCol in table t's primary key, or 0. */
static int pgcat_pkey_position(const cat_table *t, int iCol) {
  for (int k = 0; t != NULL && k < t->nPkey; k++) {
    if (t->aiPkey[k] == iCol) return k + 1;
  }
  return 0;
}

static int pgcat_is_key_column_usage_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg,
                                          sql_error *pErr) {
  pgobj_tables tabs;
  int rc = 0;
  if (pgcat__tables(pCtx, &tabs, pErr) != 0) return -1;
  for (int i = 0; rc == 0 && i < tabs.n; i++) {
    const cat_table *t = tabs.ap[i];
    strbuf s;
    strbuf_init(&s);
    pgobj_pkey_name(t, &s);
    for (int k = 0; rc == 0 && k < t->nPkey; k++) {
      rc = pgcat_key_column_row(pCtx, strbuf_str(&s), t, t->aiPkey[k], k + 1, 0, xRow, pArg, pErr);
    }
    for (int k = 0; rc == 0 && k < t->nFkey; k++) {
      const cat_fkey *f = &t->aFkey[k];
      const cat_table *pRef = pgobj_table_by_name(&tabs, f->zRefTable);
      strbuf_reset(&s);
      pgobj_fkey_name(t, k, &s);
      for (int c = 0; rc == 0 && c < f->nCol; c++) {
        rc = pgcat_key_column_row(pCtx, strbuf_str(&s), t, f->aiCol[c], c + 1,
                                  pgcat_pkey_position(pRef, f->aiRefCol[c]), xRow, pArg, pErr);
      }
    }
    strbuf_free(&s);
  }
  pgobj_tables_free(&tabs);
  return rc;
}

static int pgcat_is_referential_constraints_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg,
                                                 sql_error *pErr) {
  pgobj_tables tabs;
  int rc = 0;
  if (pgcat__tables(pCtx, &tabs, pErr) != 0) return -1;
  for (int i = 0; rc == 0 && i < tabs.n; i++) {
    const cat_table *t = tabs.ap[i];
    for (int k = 0; rc == 0 && k < t->nFkey; k++) {
      const cat_table *pRef = pgobj_table_by_name(&tabs, t->aFkey[k].zRefTable);
      strbuf s;
      vrow r;
      strbuf_init(&s);
      pgcat__row_init(&r, &pgcat__is_referential_constraints, pCtx);
      pgobj_fkey_name(t, k, &s);
      pgcat__row_text(&r, "constraint_catalog", pgcat_db(pCtx));
      pgcat__row_text(&r, "constraint_schema", "public");
      pgcat__row_text(&r, "constraint_name", strbuf_str(&s));
      if (pRef != NULL) {
        strbuf_reset(&s);
        pgobj_pkey_name(pRef, &s);
        pgcat__row_text(&r, "unique_constraint_catalog", pgcat_db(pCtx));
        pgcat__row_text(&r, "unique_constraint_schema", "public");
        pgcat__row_text(&r, "unique_constraint_name", strbuf_str(&s));
      }
      strbuf_free(&s);
      pgcat__row_text(&r, "match_option", "NONE");
      pgcat__row_text(&r, "update_rule", "NO ACTION");
      pgcat__row_text(&r, "delete_rule", "NO ACTION");
      rc = pgcat__row_emit(&r, xRow, pArg, pErr);
    }
  }
  pgobj_tables_free(&tabs);
  return rc;
}

/* ---- definitions ------------------------------------------------------------- */

static const vrel_col vrel_aIsSchemata[] = {
    {"catalog_name", VT(COLTYPE_NAME), 0}, {"schema_name", VT(COLTYPE_NAME), 0},
    {"schema_owner", VT(COLTYPE_NAME), 0}, {"default_character_set_catalog", VT(COLTYPE_NAME), 0},
    {"default_character_set_schema", VT(COLTYPE_NAME), 0},
    {"default_character_set_name", VT(COLTYPE_NAME), 0}, {"sql_path", VT(COLTYPE_VARCHAR), 0},
};
const vrel pgcat__is_schemata = {"information_schema", "schemata", 13382, 'v',
    PGCAT_COLS(vrel_aIsSchemata), 100, pgcat_is_schemata_scan};

static const vrel_col vrel_aIsTables[] = {
    {"table_catalog", VT(COLTYPE_NAME), 0}, {"table_schema", VT(COLTYPE_NAME), 0},
    {"table_name", VT(COLTYPE_NAME), 0}, {"table_type", VT(COLTYPE_VARCHAR), 0},
    {"self_referencing_column_name", VT(COLTYPE_NAME), 0},
    {"reference_generation", VT(COLTYPE_VARCHAR), 0},
    {"user_defined_type_catalog", VT(COLTYPE_NAME), 0},
    {"user_defined_type_schema", VT(COLTYPE_NAME), 0},
    {"user_defined_type_name", VT(COLTYPE_NAME), 0}, {"is_insertable_into", VT_VARCHAR(3), 0},
    {"is_typed", VT_VARCHAR(3), 0}, {"commit_action", VT(COLTYPE_VARCHAR), 0},
};
const vrel pgcat__is_tables = {"information_schema", "tables", 13425, 'v',
    PGCAT_COLS(vrel_aIsTables), 100, pgcat_is_tables_scan};

static const vrel_col vrel_aIsColumns[] = {
    {"table_catalog", VT(COLTYPE_NAME), 0}, {"table_schema", VT(COLTYPE_NAME), 0},
    {"table_name", VT(COLTYPE_NAME), 0}, {"column_name", VT(COLTYPE_NAME), 0},
    {"ordinal_position", VT(COLTYPE_INTEGER), 0}, {"column_default", VT(COLTYPE_VARCHAR), 0},
    {"is_nullable", VT_VARCHAR(3), 0}, {"data_type", VT(COLTYPE_VARCHAR), 0},
    {"character_maximum_length", VT(COLTYPE_INTEGER), 0},
    {"character_octet_length", VT(COLTYPE_INTEGER), 0},
    {"numeric_precision", VT(COLTYPE_INTEGER), 0},
    {"numeric_precision_radix", VT(COLTYPE_INTEGER), 0}, {"numeric_scale", VT(COLTYPE_INTEGER), 0},
    {"datetime_precision", VT(COLTYPE_INTEGER), 0}, {"interval_type", VT(COLTYPE_VARCHAR), 0},
    {"interval_precision", VT(COLTYPE_INTEGER), 0}, {"character_set_catalog", VT(COLTYPE_NAME), 0},
    {"character_set_schema", VT(COLTYPE_NAME), 0}, {"character_set_name", VT(COLTYPE_NAME), 0},
    {"collation_catalog", VT(COLTYPE_NAME), 0}, {"collation_schema", VT(COLTYPE_NAME), 0},
    {"collation_name", VT(COLTYPE_NAME), 0}, {"domain_catalog", VT(COLTYPE_NAME), 0},
    {"domain_schema", VT(COLTYPE_NAME), 0}, {"domain_name", VT(COLTYPE_NAME), 0},
    {"udt_catalog", VT(COLTYPE_NAME), 0}, {"udt_schema", VT(COLTYPE_NAME), 0},
    {"udt_name", VT(COLTYPE_NAME), 0}, {"scope_catalog", VT(COLTYPE_NAME), 0},
    {"scope_schema", VT(COLTYPE_NAME), 0}, {"scope_name", VT(COLTYPE_NAME), 0},
    {"maximum_cardinality", VT(COLTYPE_INTEGER), 0}, {"dtd_identifier", VT(COLTYPE_NAME), 0},
    {"is_self_referencing", VT_VARCHAR(3), 0}, {"is_identity", VT_VARCHAR(3), 0},
    {"identity_generation", VT(COLTYPE_VARCHAR), 0}, {"identity_start", VT(COLTYPE_VARCHAR), 0},
    {"identity_increment", VT(COLTYPE_VARCHAR), 0}, {"identity_maximum", VT(COLTYPE_VARCHAR), 0},
    {"identity_minimum", VT(COLTYPE_VARCHAR), 0}, {"identity_cycle", VT_VARCHAR(3), 0},
    {"is_generated", VT(COLTYPE_VARCHAR), 0}, {"generation_expression", VT(COLTYPE_VARCHAR), 0},
    {"is_updatable", VT_VARCHAR(3), 0},
};
const vrel pgcat__is_columns = {"information_schema", "columns", 13295, 'v',
    PGCAT_COLS(vrel_aIsColumns), 100, pgcat_is_columns_scan};

static const vrel_col vrel_aIsViews[] = {
    {"table_catalog", VT(COLTYPE_NAME), 0}, {"table_schema", VT(COLTYPE_NAME), 0},
    {"table_name", VT(COLTYPE_NAME), 0}, {"view_definition", VT(COLTYPE_VARCHAR), 0},
    {"check_option", VT(COLTYPE_VARCHAR), 0}, {"is_updatable", VT_VARCHAR(3), 0},
    {"is_insertable_into", VT_VARCHAR(3), 0}, {"is_trigger_updatable", VT_VARCHAR(3), 0},
    {"is_trigger_deletable", VT_VARCHAR(3), 0}, {"is_trigger_insertable_into", VT_VARCHAR(3), 0},
};
const vrel pgcat__is_views = {"information_schema", "views", 13483, 'v',
    PGCAT_COLS(vrel_aIsViews), 100, pgcat_is_views_scan};

static const vrel_col vrel_aIsTableConstraints[] = {
    {"constraint_catalog", VT(COLTYPE_NAME), 0}, {"constraint_schema", VT(COLTYPE_NAME), 0},
    {"constraint_name", VT(COLTYPE_NAME), 0}, {"table_catalog", VT(COLTYPE_NAME), 0},
    {"table_schema", VT(COLTYPE_NAME), 0}, {"table_name", VT(COLTYPE_NAME), 0},
    {"constraint_type", VT(COLTYPE_VARCHAR), 0}, {"is_deferrable", VT_VARCHAR(3), 0},
    {"initially_deferred", VT_VARCHAR(3), 0}, {"enforced", VT_VARCHAR(3), 0},
    {"nulls_distinct", VT_VARCHAR(3), 0},
};
const vrel pgcat__is_table_constraints = {"information_schema", "table_constraints", 13411, 'v',
    PGCAT_COLS(vrel_aIsTableConstraints), 100, pgcat_is_table_constraints_scan};

static const vrel_col vrel_aIsKeyColumnUsage[] = {
    {"constraint_catalog", VT(COLTYPE_NAME), 0}, {"constraint_schema", VT(COLTYPE_NAME), 0},
    {"constraint_name", VT(COLTYPE_NAME), 0}, {"table_catalog", VT(COLTYPE_NAME), 0},
    {"table_schema", VT(COLTYPE_NAME), 0}, {"table_name", VT(COLTYPE_NAME), 0},
    {"column_name", VT(COLTYPE_NAME), 0}, {"ordinal_position", VT(COLTYPE_INTEGER), 0},
    {"position_in_unique_constraint", VT(COLTYPE_INTEGER), 0},
};
const vrel pgcat__is_key_column_usage = {"information_schema", "key_column_usage", 13329, 'v',
    PGCAT_COLS(vrel_aIsKeyColumnUsage), 100, pgcat_is_key_column_usage_scan};

static const vrel_col vrel_aIsReferentialConstraints[] = {
    {"constraint_catalog", VT(COLTYPE_NAME), 0}, {"constraint_schema", VT(COLTYPE_NAME), 0},
    {"constraint_name", VT(COLTYPE_NAME), 0}, {"unique_constraint_catalog", VT(COLTYPE_NAME), 0},
    {"unique_constraint_schema", VT(COLTYPE_NAME), 0},
    {"unique_constraint_name", VT(COLTYPE_NAME), 0}, {"match_option", VT(COLTYPE_VARCHAR), 0},
    {"update_rule", VT(COLTYPE_VARCHAR), 0}, {"delete_rule", VT(COLTYPE_VARCHAR), 0},
};
const vrel pgcat__is_referential_constraints = {
    "information_schema", "referential_constraints", 13339, 'v',
    PGCAT_COLS(vrel_aIsReferentialConstraints), 100, pgcat_is_referential_constraints_scan};
