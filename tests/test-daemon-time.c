/*
** tests/test-daemon-time.c — timestamps through the wire, against a real
** PostgreSQL 15 on the same rows: binary COPY FROM of PostgreSQL's own
** bytes, results in binary format (byte for byte), parameters typed
** timestamp and timestamptz as drivers send them (text with T and a
** zone, as node-postgres and JDBC do; binary, as JDBC's setTimestamp in
** binary mode), and the session's TimeZone.
*/
#define _GNU_SOURCE
#include <signal.h>

#include "../common/strbuf.h"
#include "pgref.h"
#include "starqd-fixture.h"
#include "test.h"

static void time_exec(PGconn *c, const char *zSql) {
  PGresult *res = PQexec(c, zSql);
  if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK) {
    FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  }
  PQclear(res);
}

/* zSql's COPY ... TO STDOUT bytes, malloc'd, their number in *pn. */
static char *time_copy_out(PGconn *c, const char *zSql, size_t *pn) {
  PGresult *res = PQexec(c, zSql);
  strbuf b;
  char *p;
  int n;
  if (PQresultStatus(res) != PGRES_COPY_OUT) FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  PQclear(res);
  strbuf_init(&b);
  while ((n = PQgetCopyData(c, &p, 0)) > 0) {
    strbuf_append(&b, p, (size_t)n);
    PQfreemem(p);
  }
  ASSERT_EQ(n, -1);
  while ((res = PQgetResult(c)) != NULL) PQclear(res);
  *pn = b.n;
  return b.z != NULL ? b.z : strdup("");
}

static void time_copy_in(PGconn *c, const char *zSql, const char *a, size_t n) {
  PGresult *res = PQexec(c, zSql);
  if (PQresultStatus(res) != PGRES_COPY_IN) FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  PQclear(res);
  ASSERT_EQ(PQputCopyData(c, a, (int)n), 1);
  ASSERT_EQ(PQputCopyEnd(c, NULL), 1);
  res = PQgetResult(c);
  if (PQresultStatus(res) != PGRES_COMMAND_OK) FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  PQclear(res);
  while ((res = PQgetResult(c)) != NULL) PQclear(res);
}

/* Every value of res as hex (binary) or text, "|" between columns and a
** line a row; NULL as \N. */
static char *time_rows(const PGresult *res) {
  strbuf b;
  if (PQresultStatus(res) != PGRES_TUPLES_OK) FAIL("%s", PQresultErrorMessage(res));
  strbuf_init(&b);
  for (int r = 0; r < PQntuples(res); r++) {
    for (int c = 0; c < PQnfields(res); c++) {
      const unsigned char *v = (const unsigned char *)PQgetvalue(res, r, c);
      if (c > 0) strbuf_puts(&b, "|");
      if (PQgetisnull(res, r, c)) {
        strbuf_puts(&b, "\\N");
      } else if (PQfformat(res, c) == 1) {
        for (int i = 0; i < PQgetlength(res, r, c); i++) strbuf_printf(&b, "%02x", v[i]);
      } else {
        strbuf_puts(&b, (const char *)v);
      }
    }
    strbuf_puts(&b, "\n");
  }
  return b.z != NULL ? b.z : strdup("");
}

/* zSql with parameters on both servers: the same rows, the same column
** types. */
static void time_same(PGconn *pPg, PGconn *pSq, const char *zSql, int nParam, const Oid *aType,
                      const char *const *azValue, const int *anLen, const int *aFormat,
                      int bBinaryOut) {
  PGresult *rPg = PQexecParams(pPg, zSql, nParam, aType, azValue, anLen, aFormat, bBinaryOut);
  PGresult *rSq = PQexecParams(pSq, zSql, nParam, aType, azValue, anLen, aFormat, bBinaryOut);
  char *zPg = time_rows(rPg), *zSq = time_rows(rSq);
  if (strcmp(zPg, zSq) != 0) FAIL("%s\nPostgreSQL:\n%s\nstarqd:\n%s", zSql, zPg, zSq);
  ASSERT_EQ(PQnfields(rSq), PQnfields(rPg));
  for (int c = 0; c < PQnfields(rPg); c++) ASSERT_EQ(PQftype(rSq, c), PQftype(rPg, c));
  free(zPg);
  free(zSq);
  PQclear(rPg);
  PQclear(rSq);
}

TEST_IMPL(daemon_timestamps_pg) {
  static const char zRows[] =
      "1\t2000-01-01\t2000-01-01 00:00:00\t2000-01-01 00:00:00+00\n"
      "2\t2024-02-29\t2024-02-29 23:59:59.999999\t2024-02-29 12:00:00+05:30\n"
      "3\t1970-01-01\t1969-12-31 23:59:59.5\t2021-03-28 01:30:00+00\n"
      "4\t\\N\t\\N\t\\N\n"
      "5\t9999-12-31\t0001-01-01 00:00:00\t2021-10-31 00:30:00.25+00\n";
  const char *zCreate = "CREATE TABLE tt (id INTEGER NOT NULL, d DATE, t TIMESTAMP, tz TIMESTAMPTZ)";
  const char *zSelect = "SELECT id, d, t, tz FROM tt ORDER BY id";
  static const Oid aTs[] = {1114, 1184};
  starqd_proc d;
  pgref *p;
  PGconn *pPg, *pSq;
  size_t n;
  char *a;

  starqd_pgref_start(&d, &p, &pPg, &pSq);
  time_exec(pPg, zCreate);
  time_exec(pSq, zCreate);
  time_copy_in(pPg, "COPY tt FROM STDIN", zRows, sizeof(zRows) - 1);
  /* PostgreSQL's binary COPY of the rows is what starqd loads. */
  a = time_copy_out(pPg, "COPY tt TO STDOUT (FORMAT binary)", &n);
  time_copy_in(pSq, "COPY tt FROM STDIN (FORMAT binary)", a, n);
  free(a);

  /* Text and binary results, in UTC and in another zone. */
  time_same(pPg, pSq, zSelect, 0, NULL, NULL, NULL, NULL, 0);
  time_same(pPg, pSq, zSelect, 0, NULL, NULL, NULL, NULL, 1);
  time_exec(pPg, "SET TIME ZONE 'America/New_York'");
  time_exec(pSq, "SET TIME ZONE 'America/New_York'");
  time_same(pPg, pSq, zSelect, 0, NULL, NULL, NULL, NULL, 0);
  time_same(pPg, pSq, zSelect, 0, NULL, NULL, NULL, NULL, 1);

  /* Parameters as drivers send them: typed text with T and a zone,
  ** untyped, and binary. */
  {
    const char *azV[] = {"2000-01-01T00:00:00Z", "2021-03-27T21:30:00-04:00"};
    time_same(pPg, pSq, "SELECT id FROM tt WHERE t >= $1 AND tz <= $2 ORDER BY id", 2, aTs, azV,
              NULL, NULL, 0);
    time_same(pPg, pSq, "SELECT id FROM tt WHERE t >= $1 AND tz <= $2 ORDER BY id", 2, NULL, azV,
              NULL, NULL, 1);
  }
  {
    /* 2000-01-01 00:00:00 and 2021-03-28 01:30:00 UTC as int64 micros */
    static const char aT[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    static const char aTz[8] = {0x00, 0x02, 0x61, (char)0x8d, 0x78, (char)0xe5, 0x56, 0x00};
    const char *azV[] = {aT, aTz};
    const int anLen[] = {8, 8}, aFormat[] = {1, 1};
    time_same(pPg, pSq, "SELECT id, tz FROM tt WHERE t >= $1 OR tz = $2 ORDER BY id", 2, aTs, azV,
              anLen, aFormat, 1);
  }
  time_same(pPg, pSq, "SELECT date_trunc('month', t) AS m, count(*) FROM tt GROUP BY 1 ORDER BY 1",
            0, NULL, NULL, NULL, NULL, 1);

  PQfinish(pPg);
  PQfinish(pSq);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  pgref_stop(p);
  return 0;
}
