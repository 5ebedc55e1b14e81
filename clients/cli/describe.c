/*
** clients/cli/describe.c — \dt and \d: the tables, and one table's
** columns, primary key, foreign keys and the foreign keys that reference
** it, printed as psql prints them.
**
** starqd serves pg_catalog as relations, so the queries here are starq's
** own short SELECTs over them: pg_class and pg_namespace name the tables
** (every table lives in public), pg_attribute with format_type() gives a
** column's name, type and NOT NULL, pg_index with pg_get_indexdef() the
** primary key's index, pg_constraint with pg_get_constraintdef() the
** foreign keys both ways. starq has no defaults, collations, views or
** other indexes, so psql's other sections never appear. A pattern with *
** or ? is matched here, over the list of every table. Names are folded
** to lower case unless double-quoted, as psql folds them; a "public."
** schema prefix is accepted.
**
** INTERFACE ROUTINES
**   sq_describe_tables   \dt [PATTERN] (and \d with no argument)
**   sq_describe_table    \d NAME
*/
#define _GNU_SOURCE
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The tables, as \dt lists them; %s is a name condition (or ""). */
static const char describe_zListSql[] =
  "SELECT n.nspname AS \"Schema\", c.relname AS \"Name\", 'table' AS \"Type\",\n"
  "       pg_catalog.pg_get_userbyid(c.relowner) AS \"Owner\"\n"
  "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace\n"
  "WHERE c.relkind = 'r' AND n.nspname = 'public'%s\n"
  "ORDER BY 1, 2";

/* \d NAME's queries; %s is the table's oid. */
static const char describe_zColumnSql[] =
  "SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), a.attnotnull\n"
  "FROM pg_catalog.pg_attribute a\n"
  "WHERE a.attrelid = %s AND a.attnum > 0 AND NOT a.attisdropped\n"
  "ORDER BY a.attnum";
static const char describe_zPkeySql[] =
  "SELECT c.relname, pg_catalog.pg_get_indexdef(i.indexrelid, 0, true)\n"
  "FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid\n"
  "WHERE i.indrelid = %s AND i.indisprimary";
static const char describe_zFkeySql[] =
  "SELECT conname, pg_catalog.pg_get_constraintdef(oid, true)\n"
  "FROM pg_catalog.pg_constraint\n"
  "WHERE conrelid = %s AND contype = 'f'\n"
  "ORDER BY 1";
static const char describe_zRefSql[] =
  "SELECT conname, conrelid::pg_catalog.regclass::pg_catalog.text,\n"
  "       pg_catalog.pg_get_constraintdef(oid, true)\n"
  "FROM pg_catalog.pg_constraint\n"
  "WHERE confrelid = %s AND contype = 'f'\n"
  "ORDER BY 1";

/* Appends " AND c.relname = 'zName'" (quotes doubled). */
static void describe_name_test(strbuf *s, const char *zName) {
  strbuf_puts(s, " AND c.relname = '");
  for (const char *z = zName; *z; z++) {
    if (*z == '\'') strbuf_puts(s, "'");
    strbuf_append(s, z, 1);
  }
  strbuf_puts(s, "'");
}

/* Turns a \d or \dt argument into the table name psql would look for:
** lower case unless double-quoted, "public." dropped. Returns 0, or -1 if
** it names another schema (no table can match) or is too long. */
static int describe_name(const char *zArg, char *zOut, size_t nOut) {
  size_t n = 0;
  int bQuoted = 0;
  const char *z = zArg;
  if (strncmp(z, "public.", 7) == 0 || strncmp(z, "\"public\".", 9) == 0) {
    z += z[0] == '"' ? 9 : 7;
  } else if (strchr(z, '.') != NULL && z[0] != '"') {
    return -1;
  }
  for (; *z; z++) {
    if (*z == '"') {
      if (bQuoted && z[1] == '"') {
        z++;
      } else {
        bQuoted = !bQuoted;
        continue;
      }
    }
    if (n + 1 >= nOut) return -1;
    zOut[n++] = bQuoted ? *z : (char)tolower((unsigned char)*z);
  }
  zOut[n] = 0;
  return 0;
}

/* Returns 1 if zName has a character psql takes as a wildcard. */
static int describe_has_wildcard(const char *zName) {
  return strpbrk(zName, "*?") != NULL;
}

/* \dt [PATTERN]: "List of relations". Returns SQ_META_OK (also when none
** match: that is said on stderr), or SQ_META_ERROR. */
sq_meta sq_describe_tables(sq_session *s, const char *zPattern) {
  char zName[512];
  strbuf sql, cond;
  PGresult *res;
  int *aiRow, n = 0, bWild = 0;
  sq_meta e = SQ_META_OK;
  strbuf_init(&cond);
  if (zPattern != NULL) {
    if (describe_name(zPattern, zName, sizeof(zName)) != 0) {
      if (!s->bQuiet) sq_report(s, "Did not find any relation named \"%s\".", zPattern);
      strbuf_free(&cond);
      return SQ_META_OK;
    }
    bWild = describe_has_wildcard(zName);
    if (!bWild) describe_name_test(&cond, zName);
  }
  strbuf_init(&sql);
  strbuf_printf(&sql, describe_zListSql, strbuf_str(&cond));
  res = strbuf_error(&sql) || strbuf_error(&cond) ? NULL : sq_run_hidden(s, strbuf_str(&sql));
  strbuf_free(&sql);
  strbuf_free(&cond);
  if (res == NULL) return SQ_META_ERROR;
  aiRow = calloc((size_t)PQntuples(res) + 1, sizeof(int));
  if (aiRow == NULL) {
    PQclear(res);
    sq_report(s, "out of memory");
    return SQ_META_ERROR;
  }
  for (int r = 0; r < PQntuples(res); r++) {
    if (!bWild || (PQnfields(res) > 1 && fnmatch(zName, PQgetvalue(res, r, 1), 0) == 0)) {
      aiRow[n++] = r;
    }
  }
  if (n == 0) {
    if (s->bQuiet) {
      /* psql says nothing under -q. */
    } else if (zPattern != NULL) {
      sq_report(s, "Did not find any relation named \"%s\".", zPattern);
    } else {
      sq_report(s, "Did not find any relations.");
    }
  } else if (sq_print_rows(s->pOut, res, aiRow, n, "List of relations", &s->popt) != 0) {
    sq_report(s, "out of memory");
    e = SQ_META_ERROR;
  }
  free(aiRow);
  PQclear(res);
  return e;
}

/* Runs one of \d's per-table queries for the table with object id zOid. */
static PGresult *describe_query(sq_session *s, const char *zFmt, const char *zOid) {
  strbuf sql;
  PGresult *res;
  strbuf_init(&sql);
  strbuf_printf(&sql, zFmt, zOid);
  res = strbuf_error(&sql) ? NULL : sq_run_hidden(s, strbuf_str(&sql));
  strbuf_free(&sql);
  return res;
}

/* Adds footer line z (owned now) to *paz; returns 0, or -1 when z is
** NULL or memory ran out. */
static int describe_footer(char ***paz, int *pn, char *z) {
  char **az = z != NULL ? realloc(*paz, sizeof(char *) * (size_t)(*pn + 2)) : NULL;
  if (az == NULL) {
    free(z);
    return -1;
  }
  az[(*pn)++] = z;
  *paz = az;
  return 0;
}

/* psql's footers of a table: "Indexes:" (the primary key: its name, then
** its index definition from "USING" on), "Foreign-key constraints:" and
** "Referenced by:". Returns 0, or -1 out of memory. */
static int describe_footers(PGresult *pPkey, PGresult *pFkey, PGresult *pRef, char ***paz, int *pn) {
  char *z;
  if (PQntuples(pPkey) > 0 && describe_footer(paz, pn, strdup("Indexes:")) != 0) return -1;
  for (int r = 0; r < PQntuples(pPkey); r++) {
    const char *zDef = PQgetvalue(pPkey, r, 1), *zUsing = strstr(zDef, " USING ");
    if (asprintf(&z, "    \"%s\" PRIMARY KEY, %s", PQgetvalue(pPkey, r, 0),
                 zUsing != NULL ? zUsing + 7 : zDef) < 0) {
      return -1;
    }
    if (describe_footer(paz, pn, z) != 0) return -1;
  }
  if (PQntuples(pFkey) > 0 && describe_footer(paz, pn, strdup("Foreign-key constraints:")) != 0) return -1;
  for (int r = 0; r < PQntuples(pFkey); r++) {
    if (asprintf(&z, "    \"%s\" %s", PQgetvalue(pFkey, r, 0), PQgetvalue(pFkey, r, 1)) < 0) return -1;
    if (describe_footer(paz, pn, z) != 0) return -1;
  }
  if (PQntuples(pRef) > 0 && describe_footer(paz, pn, strdup("Referenced by:")) != 0) return -1;
  for (int r = 0; r < PQntuples(pRef); r++) {
    if (asprintf(&z, "    TABLE \"%s\" CONSTRAINT \"%s\" %s", PQgetvalue(pRef, r, 1),
                 PQgetvalue(pRef, r, 0), PQgetvalue(pRef, r, 2)) < 0) {
      return -1;
    }
    if (describe_footer(paz, pn, z) != 0) return -1;
  }
  return 0;
}

/* Prints one table's \d: its columns, then its keys as footers.
** Returns 0, or -1 (reported). */
static int describe_one(sq_session *s, const char *zOid, const char *zSchema, const char *zTable) {
  PGresult *pCols = NULL, *pPkey = NULL, *pFkey = NULL, *pRef = NULL;
  char **azRow = NULL, **azFooter = NULL, zTitle[600];
  int nRow, nFooter = 0, rc = -1;
  static const char *azHeader[] = {"Column", "Type", "Collation", "Nullable", "Default"};
  if ((pCols = describe_query(s, describe_zColumnSql, zOid)) == NULL ||
      (pPkey = describe_query(s, describe_zPkeySql, zOid)) == NULL ||
      (pFkey = describe_query(s, describe_zFkeySql, zOid)) == NULL ||
      (pRef = describe_query(s, describe_zRefSql, zOid)) == NULL) {
    goto out_free;
  }
  nRow = PQntuples(pCols);
  azRow = calloc((size_t)nRow * 5 + 1, sizeof(char *));
  if (azRow == NULL || describe_footers(pPkey, pFkey, pRef, &azFooter, &nFooter) != 0) goto out_oom;
  for (int r = 0; r < nRow; r++) {
    azRow[r * 5 + 0] = PQgetvalue(pCols, r, 0);
    azRow[r * 5 + 1] = PQgetvalue(pCols, r, 1);
    azRow[r * 5 + 2] = "";
    azRow[r * 5 + 3] = strcmp(PQgetvalue(pCols, r, 2), "t") == 0 ? "not null" : "";
    azRow[r * 5 + 4] = "";
  }
  snprintf(zTitle, sizeof(zTitle), "Table \"%s.%s\"", zSchema, zTable);
  {
    sq_table t;
    static const char acAlign[] = "lllll";
    memset(&t, 0, sizeof(t));
    t.zTitle = zTitle;
    t.nCol = 5;
    t.nRow = nRow;
    t.azHeader = azHeader;
    t.azCell = (const char *const *)azRow;
    t.acAlign = acAlign;
    t.azFooter = (const char *const *)azFooter;
    t.nFooter = nFooter;
    t.bNoExpand = 1;
    if (sq_print_table(s->pOut, &t, &s->popt) != 0) goto out_oom;
  }
  rc = 0;
  goto out_free;
out_oom:
  sq_report(s, "out of memory");
out_free:
  for (int i = 0; i < nFooter; i++) free(azFooter[i]);
  free(azFooter);
  free(azRow);
  PQclear(pRef);
  PQclear(pFkey);
  PQclear(pPkey);
  PQclear(pCols);
  return rc;
}

/* \d NAME: each table of that name (or matching the wildcard pattern),
** described. Returns SQ_META_OK, or SQ_META_ERROR if there is none (psql
** fails the command then) or a query failed. */
sq_meta sq_describe_table(sq_session *s, const char *zArg) {
  static const char zFindSql[] =
    "SELECT c.oid, n.nspname, c.relname\n"
    "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace\n"
    "WHERE c.relkind = 'r' AND n.nspname = 'public'%s";
  char zName[512];
  strbuf sql, cond;
  PGresult *res;
  int bWild, nFound = 0, rc = 0;
  if (describe_name(zArg, zName, sizeof(zName)) != 0) {
    sq_report(s, "Did not find any relation named \"%s\".", zArg);
    return SQ_META_ERROR;
  }
  bWild = describe_has_wildcard(zName);
  strbuf_init(&cond);
  if (!bWild) describe_name_test(&cond, zName);
  strbuf_init(&sql);
  strbuf_printf(&sql, bWild ? describe_zListSql : zFindSql, strbuf_str(&cond));
  res = strbuf_error(&sql) || strbuf_error(&cond) ? NULL : sq_run_hidden(s, strbuf_str(&sql));
  strbuf_free(&sql);
  strbuf_free(&cond);
  if (res == NULL) return SQ_META_ERROR;
  for (int r = 0; rc == 0 && r < PQntuples(res) && PQnfields(res) >= 3; r++) {
    if (bWild) {
      /* The list gives names only: each match is found by name. */
      if (fnmatch(zName, PQgetvalue(res, r, 1), 0) != 0) continue;
      nFound++;
      if (sq_describe_table(s, PQgetvalue(res, r, 1)) != SQ_META_OK) rc = -1;
      continue;
    }
    nFound++;
    rc = describe_one(s, PQgetvalue(res, r, 0), PQgetvalue(res, r, 1), PQgetvalue(res, r, 2));
  }
  PQclear(res);
  if (rc != 0) return SQ_META_ERROR;
  if (nFound == 0) {
    sq_report(s, "Did not find any relation named \"%s\".", zArg);
    return SQ_META_ERROR;
  }
  return SQ_META_OK;
}
