/*
** server/stmt-pgcatalog.c — psql's \d NAME queries,
** recognised by the text psql 15 sends (psql -E shows it) and answered
** from the starq catalog (see below for why it is still needed).
** Every table lives in schema "public", is owned by "starq" and has the
** object id 16384 + its catalog id. A query that looks like none of these
** goes on to the parser (the host executor when it names pg_catalog's
** relations).
**
** Interim: pgcat/ serves pg_catalog and information_schema as relations
** (catalog/vrel.h) and the host executor runs queries over them: plain
** \dt [NAME], \dn, \df, \dv go that way. What remains here is \d NAME:
** its queries name tables by this file's oids (16384 + catalog id), which
** pgcat's pg_class does not share, and cast to regtype, which the binder
** refuses; it goes once both agree.
*/
#include <stdlib.h>
#include <string.h>

#include "stmt.h"

#define PGCAT_OID_BASE 16384

/* Copies the name in psql's "OPERATOR(pg_catalog.~) '^(NAME)$'" filter
** into zOut; returns 1 if there is one. */
static int pgcat_name_filter(const char *zSql, char *zOut, size_t nOut) {
  const char *z = strstr(zSql, "OPERATOR(pg_catalog.~) '^(");
  const char *zEnd;
  if (z == NULL) return 0;
  z += strlen("OPERATOR(pg_catalog.~) '^(");
  zEnd = strstr(z, ")$'");
  if (zEnd == NULL || (size_t)(zEnd - z) >= nOut) return 0;
  snprintf(zOut, nOut, "%.*s", (int)(zEnd - z), z);
  return 1;
}

/* Copies the oid in "c.oid = 'N'" (or "a.attrelid = 'N'") into *piOid. */
static int pgcat_oid_filter(const char *zSql, const char *zField, int64_t *piOid) {
  char zPat[64];
  const char *z;
  /* "c.oid = '16392'"; "pc.oid ='16392'" and "f('16392')" as psql spells them */
  snprintf(zPat, sizeof(zPat), "%s%s'", zField,
           zField[strlen(zField) - 1] == ' ' ? "=" : zField[strlen(zField) - 1] == '(' ? "" : " = ");
  z = strstr(zSql, zPat);
  if (z == NULL) return 0;
  *piOid = atoll(z + strlen(zPat));
  return 1;
}

/* Gives the job a text result of nCol columns named azName with rows
** added by the caller through *ppText. */
static stmt_text *pgcat_begin(stmt_job *j, int nCol) {
  stmt_text *t = stmt_text_new(nCol);
  if (t == NULL) stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
  return t;
}

static void pgcat_end(stmt_job *j, stmt_text *t, int nCol, const char *const *azName, int bOk) {
  coltype aType[16];
  if (!bOk) {
    stmt_text_ops.xFree(t);
    stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return;
  }
  for (int c = 0; c < nCol; c++) aType[c] = (coltype){COLTYPE_TEXT, 0, 0, 0};
  stmt_job_rows(j, nCol, azName, aType, &stmt_text_ops, t);
}

/* The table with object id iOid, or NULL. */
static cat_table *pgcat_table_by_oid(cat *pCat, int64_t iOid) {
  char **az = NULL, zErr[256];
  int n = 0;
  cat_table *pFound = NULL;
  if (cat_table_names(pCat, &az, &n, zErr, sizeof(zErr)) != 0) return NULL;
  for (int i = 0; i < n; i++) {
    cat_table *t;
    if (pFound == NULL && cat_table_get(pCat, az[i], &t, zErr, sizeof(zErr)) == 0) {
      if (t->iId + PGCAT_OID_BASE == iOid) pFound = t;
      else cat_table_free(t);
    }
    free(az[i]);
  }
  free(az);
  return pFound;
}

/* \d NAME, first step: the oid, schema and name of the table. */
static void pgcat_find_table(stmt_job *j, cat *pCat, const char *zSql) {
  static const char *azName[] = {"oid", "nspname", "relname"};
  char zFilter[256], zErr[256], zOid[32];
  stmt_text *t = pgcat_begin(j, 3);
  cat_table *pTable;
  int bOk = 1;
  if (t == NULL) return;
  if (pgcat_name_filter(zSql, zFilter, sizeof(zFilter)) &&
      cat_table_get(pCat, zFilter, &pTable, zErr, sizeof(zErr)) == 0) {
    const char *azRow[3] = {zOid, "public", pTable->zName};
    snprintf(zOid, sizeof(zOid), "%lld", (long long)(pTable->iId + PGCAT_OID_BASE));
    bOk = stmt_text_row(t, azRow) == 0;
    cat_table_free(pTable);
  }
  pgcat_end(j, t, 3, azName, bOk);
}

/* PostgreSQL's format_type() of a column type. */
static void pgcat_format_type(coltype t, char *z, size_t n) {
  switch (t.eId) {
    case COLTYPE_SMALLINT: snprintf(z, n, "smallint"); break;
    case COLTYPE_INTEGER: snprintf(z, n, "integer"); break;
    case COLTYPE_BIGINT: snprintf(z, n, "bigint"); break;
    case COLTYPE_DOUBLE: snprintf(z, n, "double precision"); break;
    case COLTYPE_DECIMAL: snprintf(z, n, "numeric(%d,%d)", t.nPrecision, t.nScale); break;
    case COLTYPE_DATE: snprintf(z, n, "date"); break;
    case COLTYPE_CHAR: snprintf(z, n, "character(%d)", t.nLength); break;
    case COLTYPE_VARCHAR: snprintf(z, n, "character varying(%d)", t.nLength); break;
    case COLTYPE_BOOLEAN: snprintf(z, n, "boolean"); break;
    default: snprintf(z, n, "text"); break;
  }
}

/* \d NAME, second step: the table's kind and flags (a plain heap table). */
static void pgcat_table_info(stmt_job *j, cat_table *t) {
  static const char *azName[] = {"relchecks", "relkind", "relhasindex", "relhasrules",
                                 "relhastriggers", "relrowsecurity", "relforcerowsecurity",
                                 "relhasoids", "relispartition", "reloptions", "reltablespace",
                                 "reloftype", "relpersistence", "relreplident", "amname"};
  /* psql asks for foreign keys only of a table with triggers (which
  ** implement them in PostgreSQL). */
  const char *azRow[] = {"0", "r", "f", "f", t->nFkey > 0 ? "t" : "f", "f", "f", "f", "f", "", "0",
                         "", "p", "d", "heap"};
  stmt_text *pText = pgcat_begin(j, 15);
  if (pText == NULL) return;
  pgcat_end(j, pText, 15, azName, stmt_text_row(pText, azRow) == 0);
}

/* \d NAME, third step: the columns. */
static void pgcat_columns(stmt_job *j, cat_table *t) {
  static const char *azName[] = {"attname", "format_type", "pg_get_expr", "attnotnull",
                                 "attcollation", "attidentity", "attgenerated"};
  stmt_text *pText = pgcat_begin(j, 7);
  int bOk = 1;
  if (pText == NULL) return;
  for (int c = 0; bOk && c < t->nCol; c++) {
    char zType[64];
    const char *azRow[7] = {t->aCol[c].zName, zType, NULL, t->aCol[c].bNotNull ? "t" : "f", NULL, "", ""};
    pgcat_format_type(t->aCol[c].type, zType, sizeof(zType));
    bOk = stmt_text_row(pText, azRow) == 0;
  }
  pgcat_end(j, pText, 7, azName, bOk);
}

/* \d NAME: the foreign keys, as "Foreign-key constraints:". */
static void pgcat_foreign_keys(stmt_job *j, cat_table *t) {
  static const char *azName[] = {"sametable", "conname", "condef", "ontable"};
  stmt_text *pText = pgcat_begin(j, 4);
  int bOk = 1;
  if (pText == NULL) return;
  for (int k = 0; bOk && k < t->nFkey; k++) {
    const cat_fkey *f = &t->aFkey[k];
    strbuf sName, sDef;
    strbuf_init(&sName);
    strbuf_init(&sDef);
    strbuf_printf(&sName, "%s", t->zName);
    strbuf_puts(&sDef, "FOREIGN KEY (");
    for (int c = 0; c < f->nCol; c++) {
      strbuf_printf(&sName, "_%s", t->aCol[f->aiCol[c]].zName);
      strbuf_printf(&sDef, "%s%s", c ? ", " : "", t->aCol[f->aiCol[c]].zName);
    }
    strbuf_puts(&sName, "_fkey");
    strbuf_printf(&sDef, ") REFERENCES %s(", f->zRefTable);
    for (int c = 0; c < f->nCol; c++) {
      strbuf_printf(&sDef, "%s%s", c ? ", " : "", f->azRefCol != NULL ? f->azRefCol[c] : "?");
    }
    strbuf_puts(&sDef, ")");
    {
      const char *azRow[4] = {"t", strbuf_str(&sName), strbuf_str(&sDef), t->zName};
      bOk = !strbuf_error(&sName) && !strbuf_error(&sDef) && stmt_text_row(pText, azRow) == 0;
    }
    strbuf_free(&sName);
    strbuf_free(&sDef);
  }
  pgcat_end(j, pText, 4, azName, bOk);
}

/* The rest of \d's queries about a table starq has (indexes, policies,
** statistics, publications, inheritance ...): starq has none of these, so
** each is answered with no rows. Any other catalog query goes on to the
** parser, which refuses it: an error, never an empty answer. Returns 1 if
** zSql was one of \d's queries. */
static int pgcat_describe(stmt_job *j, cat *pCat, const char *zSql) {
  static const char *azNone[] = {"?column?"};
  int64_t iOid = 0;
  cat_table *t = NULL;
  stmt_text *pText;
  if (pgcat_oid_filter(zSql, "c.oid", &iOid) || pgcat_oid_filter(zSql, "a.attrelid", &iOid) ||
      pgcat_oid_filter(zSql, "r.conrelid", &iOid) ||
      pgcat_oid_filter(zSql, "pol.polrelid", &iOid) || pgcat_oid_filter(zSql, "stxrelid", &iOid) ||
      pgcat_oid_filter(zSql, "pc.oid ", &iOid) || pgcat_oid_filter(zSql, "pr.prrelid", &iOid) ||
      pgcat_oid_filter(zSql, "t.tgrelid", &iOid) || pgcat_oid_filter(zSql, "i.inhrelid", &iOid) ||
      pgcat_oid_filter(zSql, "i.inhparent", &iOid) ||
      pgcat_oid_filter(zSql, "pg_partition_ancestors(", &iOid)) {
    t = pgcat_table_by_oid(pCat, iOid);
  }
  if (t != NULL && strstr(zSql, "c.relchecks, c.relkind") != NULL) {
    pgcat_table_info(j, t);
  } else if (t != NULL && strstr(zSql, "FROM pg_catalog.pg_attribute a") != NULL) {
    if (strstr(zSql, "a.attstorage") != NULL) {
      /* \d+ asks for more columns than this answer has */
      stmt_job_error(j, SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                     "this catalog query is not supported yet");
    } else {
      pgcat_columns(j, t);
    }
  } else if (t != NULL && strstr(zSql, "r.contype = 'f'") != NULL) {
    pgcat_foreign_keys(j, t);
  } else if (t != NULL && (strncmp(zSql, "SELECT", 6) == 0 || strncmp(zSql, "select", 6) == 0)) {
    pText = pgcat_begin(j, 1);
    if (pText != NULL) pgcat_end(j, pText, 1, azNone, 1);
  } else {
    cat_table_free(t);
    return 0;
  }
  cat_table_free(t);
  return 1;
}

int stmt_pgcatalog(stmt_job *j, const char *zSql) {
  char zErr[512];
  cat *pCat;
  int bDone = 1;
  if (strstr(zSql, "pg_catalog.") == NULL) return 0;
  pCat = executor_cat_get(j->pCtx->ex, zErr, sizeof(zErr));
  if (pCat == NULL) {
    stmt_job_error(j, SQLSTATE_IO_ERROR, -1, "%s", zErr);
    return 1;
  }
  if (strstr(zSql, "SELECT c.oid,\n  n.nspname,\n  c.relname\nFROM pg_catalog.pg_class c") != NULL) {
    pgcat_find_table(j, pCat, zSql);
  } else {
    bDone = pgcat_describe(j, pCat, zSql);
  }
  executor_cat_put(j->pCtx->ex, pCat);
  return bDone;
}
