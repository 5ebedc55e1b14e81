/*
** tests/test-daemon-arrays.c — arrays in catalog queries through starqd
** against a real PostgreSQL 15 on the same data and keys (tests/pgref.h):
** subscripts of int2vector (from 0) and of arrays (from 1), = ANY and
** <> ALL over them with PostgreSQL's NULL rules, current_schemas(), and
** array, int2vector and their casts in results, with their type OIDs (the
** RowDescription) and text. Statement by statement, errors included.
** With them, what the clients' metadata queries do around arrays:
** correlated subqueries (scalar, EXISTS, IN) naming the enclosing
** query's columns, qualified or not, generate_series in FROM, replace()
** over a name, JOIN ... USING.
*/
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>

#include "pgref.h"
#include "starqd-fixture.h"
#include "test.h"

/* A statement's answer as text: column names with type OIDs, then rows;
** or its error. */
static char *arrays_outcome(PGconn *c, const char *zSql) {
  PGresult *res = PQexec(c, zSql);
  strbuf b;
  strbuf_init(&b);
  if (PQresultStatus(res) == PGRES_TUPLES_OK) {
    char *zRows = starqd_result_text(res);
    for (int i = 0; i < PQnfields(res); i++) {
      strbuf_printf(&b, "%s%s:%u", i ? "|" : "", PQfname(res, i), PQftype(res, i));
    }
    strbuf_printf(&b, "\n%s", zRows);
    free(zRows);
  } else {
    strbuf_printf(&b, "ERROR %s %s", PQresultErrorField(res, PG_DIAG_SQLSTATE),
                  PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY));
  }
  PQclear(res);
  return b.z;
}

TEST_IMPL(daemon_arrays_pg) {
  static const char *const azSql[] = {
      "SELECT c.relname, i.indkey, i.indkey[0], i.indkey[1], i.indkey[2], i.indkey::text AS k "
      "FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid "
      "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' ORDER BY 1",
      "SELECT conname, conkey, confkey, conkey[1], conkey[0], conkey[2], 3 = ANY (conkey), "
      "3 <> ALL (conkey), 1 = ANY (confkey) FROM pg_constraint "
      "WHERE conname LIKE 'lineorder%' ORDER BY 1",
      "SELECT a.attname, a.attnum FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
      "JOIN pg_index i ON i.indrelid = c.oid WHERE c.relname = 'lineorder' "
      "AND a.attnum = ANY (i.indkey) ORDER BY a.attnum",
      "SELECT c.relname, NULL::smallint = ANY (i.indkey) AS n, 7 = ANY (i.indkey) AS f, "
      "NULL::smallint <> ALL (i.indkey) AS m FROM pg_index i "
      "JOIN pg_class c ON c.oid = i.indrelid WHERE c.relname IN ('part', 'lineorder') ORDER BY 1",
      "SELECT current_schemas(true), current_schemas(false), (current_schemas(true))[1], "
      "(current_schemas(true))[3], (pg_catalog.current_schemas(false))[1] AS s, "
      "'public' = ANY (current_schemas(false)) AS p, 'x' = ALL (current_schemas(false)) AS x",
      "SELECT nspname FROM pg_namespace WHERE nspname = ANY (current_schemas(true)) ORDER BY 1",
      "SELECT relnatts[1] FROM pg_class",
      "SELECT relname FROM pg_class WHERE relname = ANY (relnatts)",
      "SELECT relnatts = ANY (reloptions) FROM pg_class",
      "SELECT indkey['a'] FROM pg_index",
      "SELECT c.relname, (SELECT count(*) FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0) "
      "AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace "
      "WHERE s.nspname = 'public' AND c.relkind = 'r' ORDER BY 1",
      "SELECT a.attname, (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d "
      "WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef) AS def "
      "FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 'part' "
      "AND a.attnum > 0 ORDER BY a.attnum",
      "SELECT c.relname, (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0) "
      "FROM pg_class c WHERE c.relname = 'part'",
      "SELECT relname, (SELECT count(*) FROM pg_index WHERE indrelid = oid) AS k, "
      "(SELECT count(*) FROM pg_index WHERE indrelid = pg_class.oid) AS q "
      "FROM pg_class WHERE relname IN ('part', 'lineorder') ORDER BY 1",
      "SELECT relname FROM pg_class c WHERE c.relkind = 'r' AND EXISTS (SELECT 1 FROM pg_constraint k "
      "WHERE k.conrelid = c.oid AND k.contype = 'f') ORDER BY 1",
      "SELECT relname FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE c.relkind = 'r' "
      "AND s.nspname = 'public' AND NOT EXISTS "
      "(SELECT 1 FROM pg_constraint k WHERE k.conrelid = c.oid AND k.contype = 'f') ORDER BY 1",
      "SELECT relname FROM pg_class c WHERE c.relname IN ('part', 'lineorder', 'date') AND 'p_size' IN "
      "(SELECT a.attname FROM pg_attribute a WHERE a.attrelid = c.oid) ORDER BY 1",
      "SELECT c.conname, pos.n, c.conkey[pos.n] FROM pg_constraint c, pg_catalog.generate_series(1, 3) pos(n) "
      "WHERE c.conname LIKE 'lineorder%' AND c.conkey[pos.n] IS NOT NULL ORDER BY 1, 2",
      "SELECT * FROM generate_series(5, 1, -2)",
      "SELECT g, g * 2 AS d FROM generate_series(1, 3) g ORDER BY g DESC",
      "SELECT generate_series FROM generate_series(1::bigint, 2)",
      "SELECT * FROM generate_series(1, 3, 0)",
      "SELECT * FROM generate_series(1, NULL)",
      "SELECT nspname, replace(nspname, 'pub', 'x'), replace('abcabc', 'b', ''), replace('abc', '', 'x'), "
      "replace('aaa', 'aa', 'b'), replace(NULL, 'a', 'b') AS n FROM pg_namespace WHERE nspname = 'public'",
      "SELECT t.typname, sp.r FROM pg_type t LEFT JOIN (SELECT ns.oid AS nspoid, ns.nspname, r.r "
      "FROM pg_namespace AS ns JOIN (SELECT s.r, (current_schemas(false))[s.r] AS nspname "
      "FROM generate_series(1, array_upper(current_schemas(false), 1)) AS s(r)) AS r USING (nspname)) AS sp "
      "ON sp.nspoid = t.typnamespace WHERE t.typname IN ('int4', 'text') ORDER BY sp.r, t.oid DESC",
      "SELECT nspname, r, g.nspname AS q FROM pg_namespace n JOIN (SELECT s.r, (current_schemas(true))[s.r] AS nspname "
      "FROM generate_series(1, 2) s(r)) g USING (nspname) ORDER BY r",
      "SELECT n.nspname FROM pg_namespace n JOIN (SELECT s.r FROM generate_series(1, 2) s(r)) g USING (nope)",
      "SELECT n.nspname FROM pg_namespace n JOIN (SELECT s.r FROM generate_series(1, 2) s(r)) g USING (nspname)",
      /* array_agg over an SSB star query: arrays typed as PostgreSQL's */
      "SELECT d_year, array_agg(d_monthnuminyear ORDER BY d_monthnuminyear) FILTER (WHERE d_daynuminmonth = 1) AS m, "
      "array_agg(d_month ORDER BY d_monthnuminyear) FILTER (WHERE d_daynuminmonth = 1) AS n "
      "FROM date WHERE d_year = 1992 GROUP BY d_year",
  };
  starqd_proc d;
  pgref *p;
  PGconn *pPg, *pSq;
  starqd_pgref_start(&d, &p, &pPg, &pSq);
  starqd_pgref_keys(p);
  for (size_t i = 0; i < sizeof(azSql) / sizeof(azSql[0]); i++) {
    char *zPg = arrays_outcome(pPg, azSql[i]), *zSq = arrays_outcome(pSq, azSql[i]);
    if (strcmp(zPg, zSq) != 0) FAIL("%s\nPostgreSQL:\n%s\nstarqd:\n%s", azSql[i], zPg, zSq);
    free(zPg);
    free(zSq);
  }
  PQfinish(pPg);
  PQfinish(pSq);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  pgref_stop(p);
  return 0;
}
