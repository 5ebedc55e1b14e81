/*
** clients/cli/describe.c — \dt and \d: the tables, and one table's
** columns and foreign keys, printed as psql prints them.
**
** starq has no pg_catalog. starqd answers the catalog queries psql 15
** sends for these commands (server/engine-pgcatalog.c recognises their
** text), so starq sends the same text and gets psql's columns back. A
** pattern with * or ? (which starqd's name filter does not take as a
** regular expression) is matched here instead, over the list of every
** table. Names are folded to lower case unless double-quoted, as psql
** folds them; a "public." schema prefix is accepted.
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

/* psql 15's \dt query; %s is its name filter (or ""). */
static const char describe_zListSql[] =
  "SELECT n.nspname as \"Schema\",\n"
  "  c.relname as \"Name\",\n"
  "  CASE c.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view' "
  "WHEN 'i' THEN 'index' WHEN 'S' THEN 'sequence' WHEN 't' THEN 'TOAST table' WHEN 'f' THEN "
  "'foreign table' WHEN 'p' THEN 'partitioned table' WHEN 'I' THEN 'partitioned index' END as "
  "\"Type\",\n"
  "  pg_catalog.pg_get_userbyid(c.relowner) as \"Owner\"\n"
  "FROM pg_catalog.pg_class c\n"
  "     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace\n"
  "     LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam\n"
  "WHERE c.relkind IN ('r','p','t','s','')\n"
  "%s"
  "  AND pg_catalog.pg_table_is_visible(c.oid)\n"
  "ORDER BY 1,2;";

/* psql 15's queries of \d NAME: the table, its columns, its foreign keys. */
static const char describe_zFindSql[] =
  "SELECT c.oid,\n"
  "  n.nspname,\n"
  "  c.relname\n"
  "FROM pg_catalog.pg_class c\n"
  "     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace\n"
  "WHERE c.relname OPERATOR(pg_catalog.~) '^(%s)$' COLLATE pg_catalog.default\n"
  "  AND pg_catalog.pg_table_is_visible(c.oid)\n"
  "ORDER BY 2, 3;";
static const char describe_zColumnSql[] =
  "SELECT a.attname,\n"
  "  pg_catalog.format_type(a.atttypid, a.atttypmod),\n"
  "  (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid, true)\n"
  "   FROM pg_catalog.pg_attrdef d\n"
  "   WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef),\n"
  "  a.attnotnull,\n"
  "  (SELECT c.collname FROM pg_catalog.pg_collation c, pg_catalog.pg_type t\n"
  "   WHERE c.oid = a.attcollation AND t.oid = a.atttypid AND a.attcollation <> t.typcollation) "
  "AS attcollation,\n"
  "  a.attidentity,\n"
  "  a.attgenerated\n"
  "FROM pg_catalog.pg_attribute a\n"
  "WHERE a.attrelid = '%s' AND a.attnum > 0 AND NOT a.attisdropped\n"
  "ORDER BY a.attnum;";
static const char describe_zFkeySql[] =
  "SELECT true as sametable, conname,\n"
  "  pg_catalog.pg_get_constraintdef(r.oid, true) as condef,\n"
  "  conrelid::pg_catalog.regclass AS ontable\n"
  "FROM pg_catalog.pg_constraint r\n"
  "WHERE r.conrelid = '%s' AND r.contype = 'f'\n"
  "     AND conparentid = 0\n"
  "ORDER BY conname";

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
  char zName[512], zFilter[640];
  strbuf sql;
  PGresult *res;
  int *aiRow, n = 0, bWild = 0;
  sq_meta e = SQ_META_OK;
  zFilter[0] = 0;
  if (zPattern != NULL) {
    if (describe_name(zPattern, zName, sizeof(zName)) != 0) {
      if (!s->bQuiet) sq_report(s, "Did not find any relation named \"%s\".", zPattern);
      return SQ_META_OK;
    }
    bWild = describe_has_wildcard(zName);
    if (!bWild) {
      snprintf(zFilter, sizeof(zFilter),
               "  AND c.relname OPERATOR(pg_catalog.~) '^(%s)$' COLLATE pg_catalog.default\n",
               zName);
    }
  }
  /* A list, as psql's: the system schemas' relations are left out (they
  ** are real relations, and visible). */
  if (zFilter[0] == 0) {
    snprintf(zFilter, sizeof(zFilter),
             "      AND n.nspname <> 'pg_catalog'\n"
             "      AND n.nspname !~ '^pg_toast'\n"
             "      AND n.nspname <> 'information_schema'\n");
  }
  strbuf_init(&sql);
  strbuf_printf(&sql, describe_zListSql, zFilter);
  res = strbuf_error(&sql) ? NULL : sq_run_hidden(s, strbuf_str(&sql));
  strbuf_free(&sql);
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

/* Prints one table's \d: its columns, then its foreign keys as footers.
** Returns 0, or -1 (reported). */
static int describe_one(sq_session *s, const char *zOid, const char *zSchema, const char *zTable) {
  PGresult *pCols = describe_query(s, describe_zColumnSql, zOid), *pKeys = NULL;
  char **azRow = NULL, **azFooter = NULL, zTitle[600];
  int nRow, nFooter = 0, rc = -1;
  static const char *azHeader[] = {"Column", "Type", "Collation", "Nullable", "Default"};
  if (pCols == NULL) return -1;
  pKeys = describe_query(s, describe_zFkeySql, zOid);
  if (pKeys == NULL) goto out_free;
  nRow = PQntuples(pCols);
  azRow = calloc((size_t)nRow * 5 + 1, sizeof(char *));
  azFooter = calloc((size_t)PQntuples(pKeys) + 2, sizeof(char *));
  if (azRow == NULL || azFooter == NULL) goto out_oom;
  for (int r = 0; r < nRow; r++) {
    const char *zNotNull = PQgetvalue(pCols, r, 3);
    azRow[r * 5 + 0] = PQgetvalue(pCols, r, 0);
    azRow[r * 5 + 1] = PQgetvalue(pCols, r, 1);
    azRow[r * 5 + 2] = PQgetvalue(pCols, r, 4);
    azRow[r * 5 + 3] = strcmp(zNotNull, "t") == 0 ? "not null" : "";
    azRow[r * 5 + 4] = PQgetvalue(pCols, r, 2);
  }
  if (PQntuples(pKeys) > 0) azFooter[nFooter++] = strdup("Foreign-key constraints:");
  for (int r = 0; r < PQntuples(pKeys); r++) {
    if (asprintf(&azFooter[nFooter], "    \"%s\" %s", PQgetvalue(pKeys, r, 1),
                 PQgetvalue(pKeys, r, 2)) < 0) {
      azFooter[nFooter] = NULL;
      goto out_oom;
    }
    nFooter++;
  }
  for (int i = 0; i < nFooter; i++) {
    if (azFooter[i] == NULL) goto out_oom;
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
  if (azFooter != NULL) {
    for (int i = 0; i < nFooter; i++) free(azFooter[i]);
  }
  free(azFooter);
  free(azRow);
  PQclear(pKeys);
  PQclear(pCols);
  return rc;
}

/* \d NAME: each table of that name (or matching the wildcard pattern),
** described. Returns SQ_META_OK, or SQ_META_ERROR if there is none (psql
** fails the command then) or a query failed. */
sq_meta sq_describe_table(sq_session *s, const char *zArg) {
  char zName[512];
  strbuf sql;
  PGresult *res;
  int bWild, nFound = 0, rc = 0;
  if (describe_name(zArg, zName, sizeof(zName)) != 0) {
    sq_report(s, "Did not find any relation named \"%s\".", zArg);
    return SQ_META_ERROR;
  }
  bWild = describe_has_wildcard(zName);
  strbuf_init(&sql);
  if (bWild) strbuf_printf(&sql, describe_zListSql, "");
  else strbuf_printf(&sql, describe_zFindSql, zName);
  res = strbuf_error(&sql) ? NULL : sq_run_hidden(s, strbuf_str(&sql));
  strbuf_free(&sql);
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
