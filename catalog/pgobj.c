/*
** catalog/pgobj.c — the oids and names of starq's own objects as
** PostgreSQL's catalog shows them, one statement's tables, schemas, and
** quote_ident() (pgobj.h). The built-in types, functions and keywords
** are pgtype.c's and pgdata.c's.
**
** INTERFACE ROUTINES
**   pgobj_table_oid, pgobj_index_oid, pgobj_pkey_oid, pgobj_fkey_oid,
**   pgobj_oid_decode, pgobj_tables_load, pgobj_tables_free,
**   pgobj_table_by_id, pgobj_table_by_name, pgobj_pkey_name,
**   pgobj_fkey_name, pgobj_quote_ident, pgobj_schema_oid, pgobj_schema_name,
**   pgobj_schema_comment
*/
#include <stdlib.h>
#include <string.h>

#include "pgobj.h"

/* Each table owns PGOBJ_TABLE_STRIDE oids from PGOBJ_FIRST_USER_OID. */
#define PGOBJ_TABLE_STRIDE 8
/* Foreign keys' oids: their own range, 256 a table. */
#define PGOBJ_FKEY_BASE 0x40000000u
#define PGOBJ_FKEY_PER_TABLE 256

uint32_t pgobj_table_oid(int64_t iId) {
  return PGOBJ_FIRST_USER_OID + (uint32_t)(PGOBJ_TABLE_STRIDE * iId);
}

uint32_t pgobj_index_oid(int64_t iId) {
  return pgobj_table_oid(iId) + 1;
}

uint32_t pgobj_pkey_oid(int64_t iId) {
  return pgobj_table_oid(iId) + 2;
}

uint32_t pgobj_fkey_oid(int64_t iId, int k) {
  return PGOBJ_FKEY_BASE + (uint32_t)(PGOBJ_FKEY_PER_TABLE * iId) + (uint32_t)k;
}

pgobj_kind pgobj_oid_decode(uint32_t oid, int64_t *piId, int *pk) {
  *piId = 0;
  *pk = 0;
  if (oid >= PGOBJ_FKEY_BASE) {
    uint32_t v = oid - PGOBJ_FKEY_BASE;
    *piId = v / PGOBJ_FKEY_PER_TABLE;
    *pk = (int)(v % PGOBJ_FKEY_PER_TABLE);
    return *piId > 0 ? PGOBJ_FKEY : PGOBJ_NONE;
  }
  if (oid < PGOBJ_FIRST_USER_OID + PGOBJ_TABLE_STRIDE) return PGOBJ_NONE;
  *piId = (oid - PGOBJ_FIRST_USER_OID) / PGOBJ_TABLE_STRIDE;
  switch ((oid - PGOBJ_FIRST_USER_OID) % PGOBJ_TABLE_STRIDE) {
    case 0: return PGOBJ_TABLE;
    case 1: return PGOBJ_INDEX;
    case 2: return PGOBJ_PKEY;
    default: return PGOBJ_NONE;
  }
}

/* ---- one statement's tables ---------------------------------------------------- */

static int pgobj_table_cmp(const void *a, const void *b) {
  const cat_table *x = *(cat_table *const *)a, *y = *(cat_table *const *)b;
  return x->iId < y->iId ? -1 : x->iId > y->iId;
}

int pgobj_tables_load(cat *pCat, pgobj_tables *p, sql_error *pErr) {
  char **az = NULL, zErr[512];
  int n = 0, rc = 0;
  memset(p, 0, sizeof(*p));
  if (cat_table_names(pCat, &az, &n, zErr, sizeof(zErr)) != 0) {
    sql_error_set(pErr, SQLSTATE_IO_ERROR, -1, "cannot list tables: %s", zErr);
    return -1;
  }
  if (n > 0 && (p->ap = calloc((size_t)n, sizeof(cat_table *))) == NULL) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    rc = -1;
  }
  for (int i = 0; i < n; i++) {
    if (rc == 0) {
      if (cat_table_get(pCat, az[i], &p->ap[p->n], zErr, sizeof(zErr)) == 0) {
        p->n++;
      } else {
        sql_error_set(pErr, SQLSTATE_IO_ERROR, -1, "cannot read table \"%s\": %s", az[i], zErr);
        rc = -1;
      }
    }
    free(az[i]);
  }
  free(az);
  if (rc != 0) {
    pgobj_tables_free(p);
    return -1;
  }
  if (p->n > 1) qsort(p->ap, (size_t)p->n, sizeof(cat_table *), pgobj_table_cmp);
  return 0;
}

void pgobj_tables_free(pgobj_tables *p) {
  for (int i = 0; i < p->n; i++) cat_table_free(p->ap[i]);
  free(p->ap);
  memset(p, 0, sizeof(*p));
}

const cat_table *pgobj_table_by_id(const pgobj_tables *p, int64_t iId) {
  int lo = 0, hi = p->n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (p->ap[mid]->iId == iId) return p->ap[mid];
    if (p->ap[mid]->iId < iId) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}

const cat_table *pgobj_table_by_name(const pgobj_tables *p, const char *zName) {
  for (int i = 0; i < p->n; i++) {
    if (strcmp(p->ap[i]->zName, zName) == 0) return p->ap[i];
  }
  return NULL;
}

void pgobj_pkey_name(const cat_table *t, strbuf *s) {
  strbuf_printf(s, "%s_pkey", t->zName);
}

void pgobj_fkey_name(const cat_table *t, int k, strbuf *s) {
  const cat_fkey *f = &t->aFkey[k];
  strbuf_puts(s, t->zName);
  for (int c = 0; c < f->nCol; c++) strbuf_printf(s, "_%s", t->aCol[f->aiCol[c]].zName);
  strbuf_puts(s, "_fkey");
}

/* ---- identifiers -------------------------------------------------------------------- */

void pgobj_quote_ident(const char *z, size_t n, strbuf *s) {
  int bSafe = n > 0 && ((z[0] >= 'a' && z[0] <= 'z') || z[0] == '_');
  const pgobj_keyword_def *k;
  for (size_t i = 0; bSafe && i < n; i++) {
    char c = z[i];
    bSafe = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  }
  /* An unreserved keyword reads back as an identifier; any other does not. */
  if (bSafe && (k = pgobj_keyword(z, n)) != NULL && k->cCategory != 'U') bSafe = 0;
  if (bSafe) {
    strbuf_append(s, z, n);
    return;
  }
  strbuf_append(s, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    if (z[i] == '"') strbuf_append(s, "\"", 1);
    strbuf_append(s, &z[i], 1);
  }
  strbuf_append(s, "\"", 1);
}

/* ---- schemas ------------------------------------------------------------------------ */

/* With the comments initdb gives them (information_schema has none). */
static const struct {
  uint32_t oid;
  const char *zName;
  const char *zComment;
} pgobj_aSchema[] = {
    {PGOBJ_NS_PG_CATALOG, "pg_catalog", "system catalog schema"},
    {PGOBJ_NS_PG_TOAST, "pg_toast", "reserved schema for TOAST tables"},
    {PGOBJ_NS_PUBLIC, "public", "standard public schema"},
    {PGOBJ_NS_INFORMATION_SCHEMA, "information_schema", NULL},
};

uint32_t pgobj_schema_oid(const char *z, size_t n) {
  for (size_t i = 0; i < sizeof(pgobj_aSchema) / sizeof(pgobj_aSchema[0]); i++) {
    if (strlen(pgobj_aSchema[i].zName) == n && memcmp(pgobj_aSchema[i].zName, z, n) == 0) {
      return pgobj_aSchema[i].oid;
    }
  }
  return 0;
}

const char *pgobj_schema_comment(uint32_t oid) {
  for (size_t i = 0; i < sizeof(pgobj_aSchema) / sizeof(pgobj_aSchema[0]); i++) {
    if (pgobj_aSchema[i].oid == oid) return pgobj_aSchema[i].zComment;
  }
  return NULL;
}

const char *pgobj_schema_name(uint32_t oid) {
  for (size_t i = 0; i < sizeof(pgobj_aSchema) / sizeof(pgobj_aSchema[0]); i++) {
    if (pgobj_aSchema[i].oid == oid) return pgobj_aSchema[i].zName;
  }
  return NULL;
}
