/*
** server/stmt-pgcatalog.c — the part of psql's \d NAME that the planner
** cannot run yet, recognised by the text psql 15 sends and answered from
** the starq catalog. What remains here, and what each piece waits for:
**
**   "Referenced by"        pg_partition_ancestors() in a select list,
**                          VALUES under UNION ALL
**   policies               ARRAY (subquery) over the outer row
**   publications           a function in FROM (generate_series) inside a
**                          correlated subquery
**   triggers               WITH ORDINALITY over pg_partition_ancestors()
**                          inside a correlated subquery
**
** pg_policy, pg_publication* and pg_trigger exist as (empty) relations
** (pgcat/rel-empty.c): starq has none of these objects, so each query
** here is answered with no rows. Finding the table, its flags, indexes,
** foreign keys, inheritance and extended statistics run through the
** planner over pg_catalog's relations, and so do its columns (correlated
** scalar subqueries); every oid here is catalog/pgobj.h's, the one
** pg_class shows. A query that looks like none of these goes on to the
** parser.
*/
#include <stdlib.h>
#include <string.h>

#include "../catalog/pgobj.h"
#include "stmt.h"

/* Copies the oid in "a.attrelid = 'N'" (or "f('N')", "pc.oid ='N'" as
** psql spells them) into *piOid. */
static int pgcat_oid_filter(const char *zSql, const char *zField, int64_t *piOid) {
  char zPat[64];
  const char *z;
  size_t n = strlen(zField);
  snprintf(zPat, sizeof(zPat), "%s%s'", zField,
           zField[n - 1] == ' ' ? "=" : zField[n - 1] == '(' ? "" : " = ");
  z = strstr(zSql, zPat);
  if (z == NULL) return 0;
  *piOid = atoll(z + strlen(zPat));
  return 1;
}

static stmt_text *pgcat_begin(stmt_job *j, int nCol) {
  stmt_text *t = stmt_text_new(nCol);
  if (t == NULL) stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
  return t;
}

/* Gives the job text result t of nCol columns named azName. */
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

/* \d NAME: "Referenced by": the foreign keys of every table in p that
** reference t, ordered by name as psql asks. */
static void pgcat_referenced_by(stmt_job *j, const pgobj_tables *p, const cat_table *t) {
  static const char *azName[] = {"conname", "ontable", "condef"};
  stmt_text *pText = pgcat_begin(j, 3);
  char **azRow = NULL;
  int nRow = 0, bOk = 1;
  if (pText == NULL) return;
  for (int i = 0; bOk && i < p->n; i++) {
    const cat_table *r = p->ap[i];
    for (int k = 0; bOk && k < r->nFkey; k++) {
      const cat_fkey *f = &r->aFkey[k];
      strbuf s;
      char **az;
      if (strcmp(f->zRefTable, t->zName) != 0) continue;
      strbuf_init(&s);
      pgobj_fkey_name(r, k, &s);
      strbuf_append(&s, "", 1);
      pgobj_quote_ident(r->zName, strlen(r->zName), &s);
      strbuf_append(&s, "", 1);
      strbuf_puts(&s, "FOREIGN KEY (");
      for (int c = 0; c < f->nCol; c++) {
        const char *z = r->aCol[f->aiCol[c]].zName;
        if (c > 0) strbuf_puts(&s, ", ");
        pgobj_quote_ident(z, strlen(z), &s);
      }
      strbuf_puts(&s, ") REFERENCES ");
      pgobj_quote_ident(t->zName, strlen(t->zName), &s);
      strbuf_puts(&s, "(");
      for (int c = 0; c < f->nCol; c++) {
        const char *z = f->azRefCol != NULL ? f->azRefCol[c] : t->aCol[t->aiPkey[c]].zName;
        if (c > 0) strbuf_puts(&s, ", ");
        pgobj_quote_ident(z, strlen(z), &s);
      }
      strbuf_puts(&s, ")");
      az = realloc(azRow, sizeof(char *) * (size_t)(nRow + 1));
      if (strbuf_error(&s) || az == NULL) {
        bOk = 0;
        if (az != NULL) azRow = az;
        strbuf_free(&s);
        break;
      }
      azRow = az;
      azRow[nRow++] = strbuf_take(&s);
    }
  }
  /* insertion sort by constraint name: a handful of rows */
  for (int a = 1; bOk && a < nRow; a++) {
    for (int b = a; b > 0 && strcmp(azRow[b - 1], azRow[b]) > 0; b--) {
      char *z = azRow[b];
      azRow[b] = azRow[b - 1];
      azRow[b - 1] = z;
    }
  }
  for (int i = 0; bOk && i < nRow; i++) {
    const char *zName = azRow[i], *zOn = zName + strlen(zName) + 1, *zDef = zOn + strlen(zOn) + 1;
    const char *az[3] = {zName, zOn, zDef};
    bOk = stmt_text_row(pText, az) == 0;
  }
  for (int i = 0; i < nRow; i++) free(azRow[i]);
  free(azRow);
  pgcat_end(j, pText, 3, azName, bOk);
}

/* Answers zSql when it is one of \d NAME's queries kept here for a table
** of pCat; returns 1 if it was. */
static int pgcat_describe(stmt_job *j, cat *pCat, const char *zSql) {
  static const char *azNone[] = {"?column?"};
  static const char *const azEmpty[] = {"FROM pg_catalog.pg_policy", "FROM pg_catalog.pg_publication",
                                        "FROM pg_catalog.pg_trigger"};
  pgobj_tables tabs;
  sql_error err;
  const cat_table *t = NULL;
  int64_t iOid = 0, iId;
  int k, bDone = 1;
  if (!pgcat_oid_filter(zSql, "pg_partition_ancestors(", &iOid) &&
      !pgcat_oid_filter(zSql, "pol.polrelid", &iOid) &&
      !pgcat_oid_filter(zSql, "pc.oid ", &iOid) && !pgcat_oid_filter(zSql, "t.tgrelid", &iOid)) {
    return 0;
  }
  if (iOid < 0 || iOid > UINT32_MAX || pgobj_oid_decode((uint32_t)iOid, &iId, &k) != PGOBJ_TABLE) return 0;
  if (pgobj_tables_load(pCat, &tabs, &err) != 0) {
    stmt_job_error_sql(j, &err);
    return 1;
  }
  if ((t = pgobj_table_by_id(&tabs, iId)) == NULL) {
    bDone = 0;
  } else if (strstr(zSql, "confrelid IN (SELECT pg_catalog.pg_partition_ancestors(") != NULL) {
    pgcat_referenced_by(j, &tabs, t);
  } else {
    size_t i = 0;
    while (i < sizeof(azEmpty) / sizeof(azEmpty[0]) && strstr(zSql, azEmpty[i]) == NULL) i++;
    if (i < sizeof(azEmpty) / sizeof(azEmpty[0])) {
      stmt_text *pText = pgcat_begin(j, 1);
      if (pText != NULL) pgcat_end(j, pText, 1, azNone, 1);
    } else {
      bDone = 0;
    }
  }
  pgobj_tables_free(&tabs);
  return bDone;
}

int stmt_pgcatalog(stmt_job *j, const char *zSql) {
  char zErr[512];
  cat *pCat;
  int bDone;
  if (strstr(zSql, "pg_catalog.") == NULL) return 0;
  pCat = executor_cat_get(j->pCtx->ex, zErr, sizeof(zErr));
  if (pCat == NULL) {
    stmt_job_error(j, SQLSTATE_IO_ERROR, -1, "%s", zErr);
    return 1;
  }
  bDone = pgcat_describe(j, pCat, zSql);
  executor_cat_put(j->pCtx->ex, pCat);
  return bDone;
}
