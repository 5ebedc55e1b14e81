/*
** tests/test-daemon-cursor.c — SQL cursors through starqd against a real
** PostgreSQL 15 on the same data (tests/pgref.h): DECLARE [NO SCROLL]
** [WITH HOLD], FETCH and MOVE in every direction, CLOSE [ALL], what
** COMMIT and ROLLBACK end, and the errors (25P01, 34000, 42P03, 55000),
** statement by statement; then the real clients, run by Debian's
** python3 against both servers with the same output expected: psycopg 2's
** named cursor, copy_expert both ways, copy_from and copy_to (the older
** COPY option syntax and column lists), psycopg 3's server-side cursor
** (a Describe of the cursor as a portal) and its COPY.
*/
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "pgref.h"
#include "starqd-fixture.h"
#include "test.h"

/* What one statement came to, as text: its tag and rows, or its error. */
static char *cursor_outcome(PGconn *c, const char *zSql) {
  PGresult *res = PQexec(c, zSql);
  strbuf b;
  strbuf_init(&b);
  switch (PQresultStatus(res)) {
    case PGRES_TUPLES_OK: {
      char *zRows = starqd_result_text(res);
      strbuf_printf(&b, "%s\n", PQcmdStatus(res));
      for (int i = 0; i < PQnfields(res); i++) strbuf_printf(&b, "%s%s", i ? "|" : "", PQfname(res, i));
      strbuf_printf(&b, "\n%s", zRows);
      free(zRows);
      break;
    }
    case PGRES_COMMAND_OK: strbuf_printf(&b, "%s", PQcmdStatus(res)); break;
    case PGRES_FATAL_ERROR:
      strbuf_printf(&b, "ERROR %s %s", PQresultErrorField(res, PG_DIAG_SQLSTATE),
                    PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY));
      break;
    default: strbuf_printf(&b, "%s", PQresStatus(PQresultStatus(res))); break;
  }
  PQclear(res);
  return b.z;
}

/* The client script: argv[1] is a libpq conninfo. */
static const char zCursorPy[] =
    "import sys, io, psycopg2, psycopg\n"
    "dsn = sys.argv[1]\n"
    "out = []\n"
    "c = psycopg2.connect(dsn)\n"
    "cur = c.cursor(name='named')\n"
    "cur.itersize = 7\n"
    "cur.execute('SELECT s_suppkey, s_name, s_city FROM supplier ORDER BY s_suppkey')\n"
    "out.append(repr(cur.fetchmany(5)))\n"
    "out.append(repr(cur.fetchone()))\n"
    "out.append(repr(len(list(cur))))\n"
    "cur.close()\n"
    "c.commit()\n"
    "cur = c.cursor()\n"
    "buf = io.StringIO()\n"
    "cur.copy_expert('COPY (SELECT * FROM supplier ORDER BY s_suppkey) TO STDOUT WITH (FORMAT csv, "
    "HEADER)', buf)\n"
    "out.append(buf.getvalue())\n"
    "cur.execute('CREATE TABLE py (a INTEGER, b VARCHAR(10))')\n"
    "c.commit()\n"
    "cur.copy_from(io.StringIO('1\\tx\\n2\\t\\\\N\\n'), 'py', columns=('a', 'b'))\n"
    "cur.copy_expert('COPY py (b, a) FROM STDIN WITH CSV', io.StringIO('y,3\\n'))\n"
    "c.commit()\n"
    "buf = io.StringIO()\n"
    "cur.copy_to(buf, 'py', sep='|')\n"
    "out.append(''.join(sorted(buf.getvalue().splitlines(True))))\n"
    "c.close()\n"
    "with psycopg.connect(dsn) as c3:\n"
    "    with c3.cursor(name='c3') as cur3:\n"
    "        cur3.itersize = 4\n"
    "        cur3.execute('SELECT d_datekey, d_year FROM date ORDER BY d_datekey LIMIT 10')\n"
    "        out.append(repr(cur3.fetchmany(3)))\n"
    "        out.append(repr(cur3.fetchall()))\n"
    "    with c3.cursor() as cur4:\n"
    "        with cur4.copy('COPY (SELECT s_suppkey, s_name FROM supplier ORDER BY 1 LIMIT 3) TO "
    "STDOUT') as cp:\n"
    "            out.append(repr([bytes(b) for b in cp]))\n"
    "print('\\n'.join(out))\n";

/* Runs the client script against zInfo; returns its output (malloc'd). */
static char *cursor_clients(const char *zInfo) {
  test_proc p;
  const char *argv[] = {"/usr/bin/python3", "cursor.py", zInfo, NULL};
  char *z;
  if (test_run(&p, argv) != 0) FAIL("python3 cursor.py %s exited %d:\n%s", zInfo, p.rc, p.zErr);
  z = strdup(p.zOut);
  test_proc_free(&p);
  return z;
}

TEST_IMPL(daemon_cursors) {
  static const char *const azSql[] = {
      "DECLARE c CURSOR FOR SELECT s_suppkey, s_name FROM supplier ORDER BY s_suppkey",
      "BEGIN",
      "DECLARE c CURSOR FOR SELECT s_suppkey, s_name FROM supplier ORDER BY s_suppkey",
      "DECLARE c CURSOR FOR SELECT 1",
      "FETCH 2 FROM c",
      "FETCH NEXT FROM c",
      "MOVE FORWARD 3 IN c",
      "FETCH c",
      "FETCH BACKWARD 2 FROM c",
      "FETCH RELATIVE 3 FROM c",
      "FETCH ABSOLUTE -1 FROM c",
      "FETCH 0 FROM c",
      "FETCH ALL FROM c",
      "FETCH PRIOR FROM c",
      "FETCH FIRST FROM c",
      "FETCH LAST FROM c",
      "MOVE ABSOLUTE 0 IN c",
      "FETCH FORWARD 4 FROM c",
      "FETCH -2 FROM c",
      "MOVE ALL IN c",
      "FETCH BACKWARD ALL FROM c",
      "CLOSE c",
      "FETCH c",
      "ROLLBACK",
      "BEGIN",
      "DECLARE n NO SCROLL CURSOR FOR SELECT c_custkey, c_city FROM customer "
      "WHERE c_custkey < 20 ORDER BY c_custkey",
      "FETCH 3 FROM n",
      "FETCH ABSOLUTE 10 FROM n",
      "FETCH BACKWARD 1 FROM n",
      "ROLLBACK",
      "BEGIN",
      "DECLARE h CURSOR WITH HOLD FOR SELECT d_datekey, d_yearmonth FROM date ORDER BY 1 LIMIT 6",
      "DECLARE t CURSOR FOR SELECT 1 AS one",
      "FETCH 2 FROM h",
      "COMMIT",
      "FETCH t",
      "FETCH 2 FROM h",
      "BEGIN",
      "DECLARE g CURSOR WITH HOLD FOR SELECT lo_orderkey FROM lineorder "
      "ORDER BY lo_orderkey, lo_linenumber LIMIT 3",
      "ROLLBACK",
      "FETCH g",
      "FETCH ALL FROM h",
      "DECLARE h2 CURSOR WITH HOLD FOR SELECT count(*) FROM lineorder",
      "FETCH h2",
      "CLOSE ALL",
      "FETCH h",
      "CLOSE nope",
  };
  starqd_proc d;
  pgref *p;
  PGconn *pPg, *pSq;
  char zInfo[256], *zPg, *zSq;
  FILE *f;

  starqd_pgref_start(&d, &p, &pPg, &pSq);
  for (size_t i = 0; i < sizeof(azSql) / sizeof(azSql[0]); i++) {
    zPg = cursor_outcome(pPg, azSql[i]);
    zSq = cursor_outcome(pSq, azSql[i]);
    if (strcmp(zPg, zSq) != 0) FAIL("%s\nPostgreSQL:\n%s\nstarqd:\n%s", azSql[i], zPg, zSq);
    free(zPg);
    free(zSq);
  }
  PQfinish(pPg);
  PQfinish(pSq);

  ASSERT((f = fopen("cursor.py", "w")) != NULL);
  ASSERT_EQ(fputs(zCursorPy, f) >= 0, 1);
  ASSERT_EQ(fclose(f), 0);
  snprintf(zInfo, sizeof(zInfo), "host=127.0.0.1 port=%d user=starq dbname=starq", d.iPort);
  zSq = cursor_clients(zInfo);
  zPg = cursor_clients(pgref_conninfo(p));
  ASSERT_STR_EQ(zSq, zPg);
  ASSERT(strstr(zSq, "(datetime.date(1992, 1, 4), 1992)") != NULL);
  free(zSq);
  free(zPg);

  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  pgref_stop(p);
  return 0;
}
