/*
** tests/test-daemon-session.c — the session's own commands (SET TIME
** ZONE, RESET, SET [SESSION CHARACTERISTICS AS] TRANSACTION, DEALLOCATE,
** DISCARD, the preset settings SHOW reads) through the real psql and
** libpq, against starqd and a PostgreSQL 15 side by side: the same
** script must print the same text, errors included, on both.
*/
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pgref.h"
#include "starqd-fixture.h"
#include "test.h"

/* What both servers answer alike. */
static const char dsess_zScript[] =
    "SHOW server_encoding;\n"
    "SHOW TRANSACTION ISOLATION LEVEL;\n"
    "SET TIME ZONE 'Europe/Paris';\n"
    "SHOW TimeZone;\n"
    "SET TIME ZONE 'Nowhere/Bad';\n"
    "SET timezone = 'america/new_york';\n"
    "SHOW timezone;\n"
    "SET TIME ZONE 'utc';\n"
    "SHOW TimeZone;\n"
    "RESET TIME ZONE;\n"
    "SHOW TIME ZONE;\n"
    "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED;\n"
    "SET TRANSACTION ISOLATION LEVEL READ COMMITTED;\n"
    "BEGIN;\n"
    "SET TRANSACTION ISOLATION LEVEL READ COMMITTED;\n"
    "DISCARD ALL;\n"
    "ROLLBACK;\n"
    "DEALLOCATE ALL;\n"
    "DEALLOCATE nope;\n"
    "DEALLOCATE PREPARE nope;\n"
    "SET application_name = 'other';\n"
    "SHOW application_name;\n"
    "DISCARD ALL;\n"
    "SHOW application_name;\n"
    "SET application_name = 'other';\n"
    "SET application_name TO DEFAULT;\n"
    "SHOW application_name;\n"
    "DISCARD PLANS;\n"
    "DISCARD SEQUENCES;\n"
    "DISCARD TEMP;\n"
    "SET statement_timeout = '5s';\n"
    "SHOW statement_timeout;\n"
    "RESET ALL;\n"
    "SHOW statement_timeout;\n"
    "RESET server_version;\n"
    "SHOW is_superuser;\n"
    "SHOW lc_collate;\n"
    "SHOW default_transaction_isolation;\n"
    "SHOW integer_datetimes;\n"
    "SHOW standard_conforming_strings;\n";

/* Runs psql -X -A -f s.sql against conninfo zConn, stdout and stderr in
** one stream, into *p. */
static void dsess_psql(test_proc *p, const char *zConn) {
  char zCmd[1024];
  const char *argv[] = {"/bin/sh", "-c", zCmd, NULL};
  snprintf(zCmd, sizeof(zCmd), "/usr/bin/psql -X -w -A -d '%s' -f s.sql 2>&1", zConn);
  ASSERT_EQ(test_run(p, argv), 0);
}

/* Returns status, SQLSTATE or "OK", of zSql run on c. */
static const char *dsess_exec(PGconn *c, const char *zSql, char *z, size_t n) {
  PGresult *r = PQexec(c, zSql);
  ExecStatusType e = PQresultStatus(r);
  snprintf(z, n, "%s", e == PGRES_COMMAND_OK || e == PGRES_TUPLES_OK
                           ? "OK"
                           : PQresultErrorField(r, PG_DIAG_SQLSTATE));
  PQclear(r);
  return z;
}

/* Protocol-level prepared statements and what DEALLOCATE and DISCARD ALL
** do to them, as one line per step. */
static void dsess_prepared(PGconn *c, strbuf *s) {
  static const char *const azStep[] = {
      "P s1", "DEALLOCATE s1", "DEALLOCATE s1", "X s1", "P s2", "P s3", "DEALLOCATE ALL",
      "X s2", "X s3", "P s4", "DISCARD ALL", "X s4", "P s5", "DEALLOCATE PREPARE s5", "X s5"};
  for (size_t i = 0; i < sizeof(azStep) / sizeof(azStep[0]); i++) {
    char z[16];
    const char *zStep = azStep[i];
    if (zStep[0] == 'P' || zStep[0] == 'X') {
      PGresult *r = zStep[0] == 'P' ? PQprepare(c, zStep + 2, "SELECT 1", 0, NULL)
                                    : PQexecPrepared(c, zStep + 2, 0, NULL, NULL, NULL, 0);
      ExecStatusType e = PQresultStatus(r);
      snprintf(z, sizeof(z), "%s", e == PGRES_COMMAND_OK || e == PGRES_TUPLES_OK
                                       ? "OK"
                                       : PQresultErrorField(r, PG_DIAG_SQLSTATE));
      PQclear(r);
    } else {
      dsess_exec(c, zStep, z, sizeof(z));
    }
    strbuf_printf(s, "%s: %s\n", zStep, z);
  }
}

TEST_IMPL(daemon_session_pg) {
  starqd_proc d;
  pgref *pg;
  test_proc pStarq, pPg;
  char zErr[2048], zConn[256], z[16];
  PGconn *c;
  strbuf want, got;
  FILE *f;
  if (access("/usr/bin/psql", X_OK) != 0) FAIL("psql is missing (scripts/setup.sh installs it)");
  setenv("PGCONNECT_TIMEOUT", "10", 1);
  unsetenv("PGPASSWORD");
  unsetenv("PGSERVICE");
  CALL_OK(pgref_start(&pg, "pg", zErr, sizeof(zErr)));
  starqd_start(&d, "data", NULL);
  snprintf(zConn, sizeof(zConn), "host=127.0.0.1 port=%d user=starq dbname=starq", d.iPort);
  f = fopen("s.sql", "w");
  ASSERT(f != NULL);
  fputs(dsess_zScript, f);
  fclose(f);

  dsess_psql(&pStarq, zConn);
  dsess_psql(&pPg, pgref_conninfo(pg));
  if (strcmp(pStarq.zOut, pPg.zOut) != 0) {
    FAIL("psql differs\n--- PostgreSQL:\n%s\n--- starq:\n%s", pPg.zOut, pStarq.zOut);
  }
  test_proc_free(&pStarq);
  test_proc_free(&pPg);

  /* prepared statements dropped by DEALLOCATE and DISCARD ALL */
  strbuf_init(&want);
  strbuf_init(&got);
  dsess_prepared(pgref_conn(pg), &want);
  c = PQconnectdb(zConn);
  ASSERT(PQstatus(c) == CONNECTION_OK);
  dsess_prepared(c, &got);
  ASSERT_STR_EQ(strbuf_str(&got), strbuf_str(&want));

  /* where starq differs on purpose: it is PostgreSQL 15.0 whatever the
  ** reference's minor release, and it refuses the isolation levels and
  ** read-only transactions it does not provide */
  {
    PGresult *r = PQexec(c, "SHOW server_version_num");
    ASSERT(PQresultStatus(r) == PGRES_TUPLES_OK);
    ASSERT_STR_EQ(PQgetvalue(r, 0, 0), "150000");
    PQclear(r);
  }
  ASSERT_STR_EQ(dsess_exec(c, "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL "
                              "SERIALIZABLE", z, sizeof(z)), "0A000");
  ASSERT_STR_EQ(dsess_exec(c, "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL "
                              "REPEATABLE READ", z, sizeof(z)), "0A000");
  ASSERT_STR_EQ(dsess_exec(c, "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY", z,
                           sizeof(z)), "0A000");
  ASSERT_STR_EQ(dsess_exec(c, "SHOW transaction_isolation", z, sizeof(z)), "OK");
  PQfinish(c);
  strbuf_free(&want);
  strbuf_free(&got);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  pgref_stop(pg);
  return 0;
}
