/*
** tests/test-session-funcs.c — the session's functions without FROM
** (version(), current_database(), current_setting(), ...) through
** starqd: resolved in func/'s registry, run by the host executor with the
** session's user, database, pid and settings (engine_request), compared
** with PostgreSQL 15 (tests/pgref.h) — values, types, SQLSTATEs. Each
** query is written so that both servers must give the same answer.
*/
#include <signal.h>
#include <string.h>

#include "pgref.h"
#include "starqd-fixture.h"
#include "test-exec.h"
#include "test.h"

static const char *const azSame[] = {
    "SELECT version() LIKE 'PostgreSQL 15.%'",
    "SELECT pg_catalog.version() LIKE 'PostgreSQL 15.%' AS v",
    "SELECT current_setting('server_version_num')::int / 10000",
    "SELECT current_setting('no_such_setting', true) IS NULL",
    "SELECT current_setting('no_such_setting')",
    "SELECT current_setting('standard_conforming_strings')",
    "SELECT pg_backend_pid() > 0",
    "SELECT current_schema()",
    "SELECT version(1)",
    /* the binder's own functions stay the device's */
    "SELECT round(2.5)",
    /* pg_catalog's and information_schema's relations in FROM */
    "SELECT nspname FROM pg_catalog.pg_namespace WHERE nspname = 'pg_catalog'",
    "SELECT count(*) FROM pg_namespace WHERE nspname IN ('pg_catalog', 'information_schema')",
    "SELECT relkind FROM pg_class WHERE relname = 'pg_class'",
    "SELECT oid FROM pg_type WHERE typname = 'int4'",
    "SELECT t.typname FROM pg_type t WHERE t.oid = 1043",
    "SELECT count(*) FROM pg_class c, pg_namespace n WHERE c.relnamespace = n.oid"
    " AND n.nspname = 'pg_catalog' AND c.relname = 'pg_attribute'",
    "SELECT schema_name FROM information_schema.schemata WHERE schema_name = 'public'",
    "SELECT no_such_column FROM pg_class",
    "SELECT t.typarray FROM pg_type t JOIN pg_namespace ns ON t.typnamespace = ns.oid"
    " WHERE t.typname = 'int4' AND ns.nspname = 'pg_catalog'",
    "SELECT count(*) FROM pg_type t LEFT JOIN pg_namespace ns ON t.typnamespace = ns.oid"
    " WHERE t.typname = 'varchar' AND ns.nspname IS NOT NULL",
    "SELECT nspname FROM pg_namespace WHERE nspname !~ '^pg_' AND nspname <> 'information_schema'",
    "SELECT nspname FROM pg_namespace WHERE nspname ~* '^PUB'",
    "SELECT count(*) FROM pg_type WHERE typname::text ~ '^int[248]$'",
    "SELECT count(*) FROM pg_namespace WHERE nspname !~* '^(PG_|INFORMATION)'",
    "SELECT 1 FROM pg_catalog.no_such_relation",
};

/* The value of one row's one column, or the SQLSTATE; and its type. */
static void sf_answer(PGconn *c, const char *zSql, char *z, size_t n, unsigned *piType) {
  PGresult *r = PQexec(c, zSql);
  *piType = 0;
  if (PQresultStatus(r) == PGRES_TUPLES_OK) {
    ASSERT_EQ(PQntuples(r), 1);
    ASSERT_EQ(PQnfields(r), 1);
    snprintf(z, n, "%s", PQgetisnull(r, 0, 0) ? "(null)" : PQgetvalue(r, 0, 0));
    *piType = PQftype(r, 0);
  } else {
    const char *zState = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    snprintf(z, n, "ERROR %s", zState != NULL ? zState : "?");
  }
  PQclear(r);
}

TEST_IMPL(session_funcs_pg) {
  exectest t;
  starqd_proc d;
  pgref *p;
  PGconn *c;
  char zErr[2048], zPg[512], zSq[512];
  unsigned iPg, iSq;
  exectest_open(&t, "0.01");
  exectest_close(&t);
  CALL_OK(pgref_start(&p, "pg", zErr, sizeof(zErr)));
  starqd_start(&d, "data", NULL);
  c = starqd_connect(&d);
  ASSERT(c != NULL);
  for (size_t i = 0; i < sizeof(azSame) / sizeof(azSame[0]); i++) {
    sf_answer(pgref_conn(p), azSame[i], zPg, sizeof(zPg), &iPg);
    sf_answer(c, azSame[i], zSq, sizeof(zSq), &iSq);
    if (strcmp(zPg, zSq) != 0 || iPg != iSq) {
      FAIL("%s: PostgreSQL %s (type %u), starqd %s (type %u)", azSame[i], zPg, iPg, zSq, iSq);
    }
  }
  /* Each server's own session: its database and user, as name (19). */
  sf_answer(c, "SELECT current_database()", zSq, sizeof(zSq), &iSq);
  ASSERT_STR_EQ(zSq, PQdb(c));
  ASSERT_EQ(iSq, 19u);
  sf_answer(c, "SELECT pg_catalog.current_database()", zSq, sizeof(zSq), &iSq);
  ASSERT_STR_EQ(zSq, PQdb(c));
  /* A setting the session changed is the value the function reads. */
  {
    PGresult *r = PQexec(c, "SET application_name = 'sf-test'");
    ASSERT_EQ(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
  }
  sf_answer(c, "SELECT current_setting('application_name')", zSq, sizeof(zSq), &iSq);
  ASSERT_STR_EQ(zSq, "sf-test");
  /* Where the host does not run the whole query: refused, never a wrong
  ** answer (PostgreSQL runs it). */
  sf_answer(c, "SELECT version() FROM lineorder LIMIT 1", zSq, sizeof(zSq), &iSq);
  ASSERT_STR_EQ(zSq, "ERROR 0A000");
  PQfinish(c);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  pgref_stop(p);
  return 0;
}
