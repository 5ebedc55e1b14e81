/*
** tests/test-daemon-copy.c — COPY ... TO STDOUT through starqd, byte for
** byte against PostgreSQL 15 (tests/pgref.h) on the same rows: text, CSV
** (HEADER, DELIMITER, NULL, QUOTE, ESCAPE, FORCE_QUOTE) and binary, both
** option syntaxes, COPY (query) and COPY table [(columns)], by the simple
** and the extended protocol, strings that need escaping and quoting, the
** options' errors (SQLSTATE and message), and psql's \copy ... to. And
** COPY t (columns) FROM, the others NULL, in both option syntaxes; and
** COPY FROM in the binary format, PostgreSQL's own COPY TO's bytes.
*/
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "pgref.h"
#include "starqd-fixture.h"
#include "test.h"

/* Runs COPY zSql on c (bExtended: through PQexecParams) and returns its
** data (malloc'd, *pn bytes); *zTag gets the command's tag. */
static char *copy_run(PGconn *c, const char *zSql, int bExtended, size_t *pn, char *zTag,
                      size_t nTag) {
  PGresult *res = bExtended ? PQexecParams(c, zSql, 0, NULL, NULL, NULL, NULL, 0)
                            : PQexec(c, zSql);
  strbuf b;
  char *p;
  int n;
  if (PQresultStatus(res) != PGRES_COPY_OUT) {
    FAIL("%s: %s %s", zSql, PQresStatus(PQresultStatus(res)), PQresultErrorMessage(res));
  }
  PQclear(res);
  strbuf_init(&b);
  while ((n = PQgetCopyData(c, &p, 0)) > 0) {
    strbuf_append(&b, p, (size_t)n);
    PQfreemem(p);
  }
  ASSERT_EQ(n, -1);
  res = PQgetResult(c);
  if (PQresultStatus(res) != PGRES_COMMAND_OK) FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  snprintf(zTag, nTag, "%s", PQcmdStatus(res));
  PQclear(res);
  ASSERT(PQgetResult(c) == NULL);
  *pn = b.n;
  return b.z != NULL ? b.z : strdup("");
}

/* The same COPY on PostgreSQL and starqd gives the same bytes (bSorted:
** the same lines, in any order) and the same tag. */
static void copy_same(PGconn *pPg, PGconn *pSq, const char *zSql, int bSorted, int bExtended) {
  size_t nPg, nSq;
  char zTagPg[64], zTagSq[64];
  char *zPg = copy_run(pPg, zSql, 0, &nPg, zTagPg, sizeof(zTagPg));
  char *zSq = copy_run(pSq, zSql, bExtended, &nSq, zTagSq, sizeof(zTagSq));
  ASSERT_STR_EQ(zTagSq, zTagPg);
  if (bSorted) {
    starqd_lines_sort(zPg, nPg);
    starqd_lines_sort(zSq, nSq);
  }
  if (nPg != nSq || memcmp(zPg, zSq, nPg) != 0) {
    size_t i = 0;
    while (i < nPg && i < nSq && zPg[i] == zSq[i]) i++;
    FAIL("%s: %zu bytes from PostgreSQL, %zu from starqd, first difference at byte %zu:\n"
         "PostgreSQL: %.80s\nstarqd:     %.80s", zSql, nPg, nSq, i, zPg + (i > 20 ? i - 20 : 0),
         zSq + (i > 20 ? i - 20 : 0));
  }
  ASSERT_GT(nPg, 0);
  free(zPg);
  free(zSq);
}

/* The same COPY fails the same way on both. */
static void copy_same_error(PGconn *pPg, PGconn *pSq, const char *zSql) {
  PGresult *a = PQexec(pPg, zSql), *b = PQexec(pSq, zSql);
  if (PQresultStatus(a) != PGRES_FATAL_ERROR) FAIL("PostgreSQL ran %s", zSql);
  if (PQresultStatus(b) != PGRES_FATAL_ERROR) FAIL("starqd ran %s", zSql);
  if (strcmp(PQresultErrorField(a, PG_DIAG_SQLSTATE), PQresultErrorField(b, PG_DIAG_SQLSTATE)) != 0 ||
      strcmp(PQresultErrorField(a, PG_DIAG_MESSAGE_PRIMARY),
             PQresultErrorField(b, PG_DIAG_MESSAGE_PRIMARY)) != 0) {
    FAIL("%s:\nPostgreSQL: %s %s\nstarqd:     %s %s", zSql, PQresultErrorField(a, PG_DIAG_SQLSTATE),
         PQresultErrorField(a, PG_DIAG_MESSAGE_PRIMARY), PQresultErrorField(b, PG_DIAG_SQLSTATE),
         PQresultErrorField(b, PG_DIAG_MESSAGE_PRIMARY));
  }
  PQclear(a);
  PQclear(b);
}

/* Runs zSql on c, which must succeed. */
static void copy_exec(PGconn *c, const char *zSql) {
  PGresult *res = PQexec(c, zSql);
  if (PQresultStatus(res) != PGRES_COMMAND_OK) FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  PQclear(res);
}

/* Runs COPY ... FROM STDIN zSql on c with data zData. */
static void copy_in(PGconn *c, const char *zSql, const char *zData) {
  PGresult *res = PQexec(c, zSql);
  if (PQresultStatus(res) != PGRES_COPY_IN) FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  PQclear(res);
  ASSERT_EQ(PQputCopyData(c, zData, (int)strlen(zData)), 1);
  ASSERT_EQ(PQputCopyEnd(c, NULL), 1);
  res = PQgetResult(c);
  if (PQresultStatus(res) != PGRES_COMMAND_OK) FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  PQclear(res);
  ASSERT(PQgetResult(c) == NULL);
}

/* Loads table cl on c through column lists, in both option syntaxes,
** and table one. */
static void copy_load_columns(PGconn *c) {
  copy_exec(c, "CREATE TABLE cl (a INTEGER, b VARCHAR(10), c INTEGER)");
  copy_in(c, "COPY cl (c, a) FROM STDIN", "1\t2\n3\t\\N\n");
  copy_in(c, "COPY cl (b) FROM STDIN WITH CSV", "x\n\n\"\"\n");
  copy_in(c, "COPY public.cl (b, a) FROM STDIN WITH (FORMAT csv, HEADER)", "b,a\ny,5\n");
  copy_in(c, "COPY cl (a, c, b) FROM STDIN WITH DELIMITER AS '|' NULL AS 'nil' CSV HEADER",
          "a|c|b\n6|nil|z\n");
  /* One row: a table's own order, whatever the scan's. */
  copy_exec(c, "CREATE TABLE one (a INTEGER, s VARCHAR(10))");
  copy_in(c, "COPY one FROM STDIN", "7\tseven\n");
}

/* Runs COPY ... FROM STDIN zSql on c with the n bytes a, sent in two
** CopyData cut at byte iCut; returns "COMMAND tag" or "SQLSTATE message"
** (malloc'd). */
static char *copy_in_bytes(PGconn *c, const char *zSql, const char *a, size_t n, size_t iCut) {
  PGresult *res = PQexec(c, zSql);
  strbuf b;
  if (PQresultStatus(res) != PGRES_COPY_IN) FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  PQclear(res);
  if (iCut > n) iCut = n;
  ASSERT_EQ(PQputCopyData(c, a, (int)iCut), 1);
  ASSERT_EQ(PQputCopyData(c, a + iCut, (int)(n - iCut)), 1);
  ASSERT_EQ(PQputCopyEnd(c, NULL), 1);
  res = PQgetResult(c);
  strbuf_init(&b);
  if (PQresultStatus(res) == PGRES_COMMAND_OK) {
    strbuf_printf(&b, "COMMAND %s", PQcmdStatus(res));
  } else {
    strbuf_printf(&b, "%s %s", PQresultErrorField(res, PG_DIAG_SQLSTATE),
                  PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY));
  }
  PQclear(res);
  while ((res = PQgetResult(c)) != NULL) PQclear(res);
  return b.z;
}

/* Binary COPY FROM: PostgreSQL's own binary COPY of tables nd and esc
** loaded into starqd (cut mid-row), then both servers' text COPY of them
** compared; and bad binary data refused alike. */
static void copy_binary_in(PGconn *pPg, PGconn *pSq) {
  static const char zNd[] = "1\t1998-12-31\t12345.67\t-9000000000\t1.5\tx\tab\n"
                            "2\t\\N\t-0.01\t\\N\t-2e-300\t\t\\N\n"
                            "3\t1992-01-01\t0.00\t0\t0\tquote\"\t\\N\n";
  static const char *const azTable[] = {"nd", "esc"};
  static const char *const azCut[] = {"PGCOPY", "PGCOPY\n\377\r\n", "x"};
  const char *zCreate = "CREATE TABLE %s (i INTEGER NOT NULL, d DATE, n DECIMAL(15,2), "
                        "b BIGINT, f DOUBLE PRECISION, s VARCHAR(20), c CHAR(5))";
  char zSql[256];
  snprintf(zSql, sizeof(zSql), zCreate, "nd");
  copy_exec(pPg, zSql);
  copy_in(pPg, "COPY nd FROM STDIN", zNd);
  for (int k = 0; k < 2; k++) {
    size_t n, nTag;
    char zTag[64], *a, *zGot, zWant[64];
    snprintf(zSql, sizeof(zSql), "COPY %s TO STDOUT (FORMAT binary)", azTable[k]);
    a = copy_run(pPg, zSql, 0, &n, zTag, sizeof(zTag));
    if (k == 0) {
      snprintf(zSql, sizeof(zSql), zCreate, "nd2");
    } else {
      snprintf(zSql, sizeof(zSql), "CREATE TABLE esc2 (id INTEGER NOT NULL, s VARCHAR(40))");
    }
    copy_exec(pSq, zSql);
    snprintf(zSql, sizeof(zSql), "COPY %s2 FROM STDIN WITH BINARY", azTable[k]);
    zGot = copy_in_bytes(pSq, zSql, a, n, 19 + 7);
    nTag = (size_t)snprintf(zWant, sizeof(zWant), "COMMAND %s", zTag);
    ASSERT_STR_EQ(zGot, zWant);
    (void)nTag;
    free(zGot);
    free(a);
  }
  {
    size_t nPg, nSq;
    char zTagPg[64], zTagSq[64];
    char *zPg = copy_run(pPg, "COPY (SELECT * FROM nd ORDER BY i) TO STDOUT", 0, &nPg, zTagPg, 64);
    char *zSq = copy_run(pSq, "COPY (SELECT * FROM nd2 ORDER BY i) TO STDOUT", 0, &nSq, zTagSq, 64);
    ASSERT_STR_EQ(zSq, zPg);
    free(zPg);
    free(zSq);
    zPg = copy_run(pPg, "COPY (SELECT * FROM esc ORDER BY id) TO STDOUT", 0, &nPg, zTagPg, 64);
    zSq = copy_run(pSq, "COPY (SELECT * FROM esc2 ORDER BY id) TO STDOUT", 0, &nSq, zTagSq, 64);
    ASSERT_STR_EQ(zSq, zPg);
    free(zPg);
    free(zSq);
  }
  for (size_t i = 0; i < sizeof(azCut) / sizeof(azCut[0]); i++) {
    char *zPg = copy_in_bytes(pPg, "COPY nd FROM STDIN (FORMAT binary)", azCut[i],
                              strlen(azCut[i]) + (i == 1), 3);
    char *zSq = copy_in_bytes(pSq, "COPY nd2 FROM STDIN (FORMAT binary)", azCut[i],
                              strlen(azCut[i]) + (i == 1), 3);
    if (strcmp(zPg, zSq) != 0) FAIL("binary data %zu:\nPostgreSQL: %s\nstarqd:     %s", i, zPg, zSq);
    free(zPg);
    free(zSq);
  }
}

/* Loads the same awkward strings into table esc on c, in COPY's text
** format. */
static void copy_load_esc(PGconn *c) {
  static const char zData[] =
      "1\ttab\\there\n"
      "2\tback\\\\slash\n"
      "3\tquote\"d and 'single'\n"
      "4\tcomma, semi; pipe|\n"
      "5\t\\N\n"
      "6\t\n"
      "7\t\\\\.\n"
      "8\tline\\nbreak\n"
      "9\tcr\\rand\\bbell\\f\\v\n"
      "10\tnil\n"
      "11\t\\N\n";
  PGresult *res;
  copy_exec(c, "CREATE TABLE esc (id INTEGER NOT NULL, s VARCHAR(40))");
  res = PQexec(c, "COPY esc FROM STDIN");
  ASSERT_EQ(PQresultStatus(res), PGRES_COPY_IN);
  PQclear(res);
  ASSERT_EQ(PQputCopyData(c, zData, (int)strlen(zData)), 1);
  ASSERT_EQ(PQputCopyEnd(c, NULL), 1);
  res = PQgetResult(c);
  if (PQresultStatus(res) != PGRES_COMMAND_OK) FAIL("COPY esc: %s", PQresultErrorMessage(res));
  PQclear(res);
  ASSERT(PQgetResult(c) == NULL);
}

/* psql's \copy (query) to 'file' on the server of conninfo zInfo; returns
** the file's bytes. */
static char *copy_psql(const char *zInfo, const char *zFile, size_t *pn) {
  char zCmd[512];
  test_proc p;
  const char *argv[] = {"/usr/bin/psql", "-X", "-w", "-q", "-d", zInfo, "-c", zCmd, NULL};
  snprintf(zCmd, sizeof(zCmd),
           "\\copy (SELECT * FROM esc ORDER BY id) to '%s' with (format csv, header, "
           "force_quote (s))", zFile);
  if (test_run(&p, argv) != 0) FAIL("psql exited %d: %s", p.rc, p.zErr);
  test_proc_free(&p);
  return test_file_read(zFile, pn);
}

TEST_IMPL(daemon_copy_to) {
  static const char *const azSame[] = {
      "COPY (SELECT * FROM supplier ORDER BY s_suppkey) TO STDOUT",
      "COPY (SELECT * FROM supplier ORDER BY s_suppkey) TO STDOUT WITH (FORMAT csv, HEADER)",
      "COPY (SELECT d_datekey, d_date, d_yearmonth, d_holidayfl FROM date ORDER BY d_datekey) "
      "TO STDOUT WITH (FORMAT csv, HEADER true, DELIMITER ';', FORCE_QUOTE (d_date), NULL 'nil')",
      "COPY (SELECT * FROM supplier ORDER BY s_suppkey) TO STDOUT "
      "(FORMAT csv, QUOTE '''', ESCAPE '\\', FORCE_QUOTE *)",
      "COPY (SELECT * FROM supplier ORDER BY s_suppkey) TO STDOUT (FORMAT text, HEADER, "
      "DELIMITER '|', NULL '')",
      "COPY (SELECT * FROM supplier ORDER BY s_suppkey) TO STDOUT WITH CSV HEADER DELIMITER AS '|' "
      "NULL AS 'x' QUOTE AS '*' FORCE QUOTE s_name, s_city",
      "COPY (SELECT * FROM supplier ORDER BY s_suppkey) TO STDOUT (FORMAT binary)",
      "COPY BINARY one TO STDOUT",
      "COPY (SELECT * FROM lineorder ORDER BY lo_orderkey, lo_linenumber LIMIT 500) TO STDOUT "
      "(FORMAT binary)",
      "COPY (SELECT * FROM lineorder ORDER BY lo_orderkey, lo_linenumber LIMIT 500) TO STDOUT "
      "(FORMAT csv)",
      "COPY (SELECT * FROM esc ORDER BY id) TO STDOUT",
      "COPY (SELECT * FROM esc ORDER BY id) TO STDOUT (FORMAT csv, HEADER)",
      "COPY (SELECT * FROM esc ORDER BY id) TO STDOUT (FORMAT csv, NULL 'nil', FORCE_QUOTE *)",
      "COPY (SELECT * FROM esc ORDER BY id) TO STDOUT (FORMAT csv, DELIMITER '|', QUOTE '''', "
      "ESCAPE '\\')",
      "COPY (SELECT s FROM esc ORDER BY id) TO STDOUT (FORMAT csv)",
      "COPY (SELECT * FROM esc ORDER BY id) TO STDOUT (FORMAT text, DELIMITER ',', NULL 'nil')",
      "COPY (SELECT * FROM esc ORDER BY id) TO STDOUT (FORMAT binary)",
      "COPY (SELECT * FROM esc WHERE id > 100) TO STDOUT (FORMAT binary)",
      "COPY (SELECT * FROM cl ORDER BY a, b, c) TO STDOUT (FORMAT csv, FORCE_QUOTE *)",
  };
  static const char *const azSorted[] = {
      "COPY customer TO STDOUT",
      "COPY customer (c_custkey, c_name, c_city) TO STDOUT WITH (FORMAT csv, HEADER)",
      "COPY public.part TO STDOUT (FORMAT csv)",
      "COPY lineorder TO STDOUT",
  };
  static const char *const azError[] = {
      "COPY supplier TO STDOUT (FORMAT binary, HEADER)",
      "COPY supplier TO STDOUT (FORMAT binary, DELIMITER ',')",
      "COPY supplier TO STDOUT (DELIMITER 'ab')",
      "COPY supplier TO STDOUT (DELIMITER 'a')",
      "COPY supplier TO STDOUT (QUOTE '\"')",
      "COPY supplier TO STDOUT (FORMAT csv, QUOTE ',')",
      "COPY supplier TO STDOUT (FORMAT csv, NULL 'a,b')",
      "COPY supplier TO STDOUT (FORMAT csv, ESCAPE 'ab')",
      "COPY supplier TO STDOUT (FORCE_QUOTE *)",
      "COPY supplier TO STDOUT (FORMAT csv, FORCE_QUOTE (nope))",
      "COPY supplier TO STDOUT (FORMAT csv, FORCE_NOT_NULL (s_name))",
      "COPY supplier (s_name, s_name) TO STDOUT",
      "COPY supplier (nope) TO STDOUT",
      "COPY nope TO STDOUT",
      "COPY supplier TO STDOUT (FORMAT nope)",
      "COPY cl (a, nope) FROM STDIN",
      "COPY cl (a, b, a) FROM STDIN (FORMAT csv)",
  };
  starqd_proc d;
  pgref *p;
  PGconn *pPg, *pSq;
  char zInfo[256];
  size_t nPg, nSq;
  char *zPg, *zSq;

  starqd_pgref_start(&d, &p, &pPg, &pSq);
  copy_load_esc(pPg);
  copy_load_esc(pSq);
  copy_load_columns(pPg);
  copy_load_columns(pSq);

  for (size_t i = 0; i < sizeof(azSame) / sizeof(azSame[0]); i++) {
    copy_same(pPg, pSq, azSame[i], 0, 0);
    copy_same(pPg, pSq, azSame[i], 0, 1);
  }
  for (size_t i = 0; i < sizeof(azSorted) / sizeof(azSorted[0]); i++) {
    copy_same(pPg, pSq, azSorted[i], 1, i % 2);
  }
  for (size_t i = 0; i < sizeof(azError) / sizeof(azError[0]); i++) {
    copy_same_error(pPg, pSq, azError[i]);
  }
  copy_binary_in(pPg, pSq);

  /* A file on the server is a superuser's (the test's PostgreSQL has
  ** one); the session goes on after COPY's errors. */
  {
    PGresult *res = PQexec(pSq, "COPY supplier TO 'copied'");
    ASSERT_EQ(PQresultStatus(res), PGRES_FATAL_ERROR);
    ASSERT_STR_EQ(PQresultErrorField(res, PG_DIAG_SQLSTATE), "42501");
    ASSERT(access("copied", F_OK) != 0);
    PQclear(res);
    res = PQexec(pSq, "SELECT count(*) FROM esc");
    ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
    ASSERT_STR_EQ(PQgetvalue(res, 0, 0), "11");
    PQclear(res);
  }

  /* psql's \copy ... to writes the same file. */
  snprintf(zInfo, sizeof(zInfo), "host=127.0.0.1 port=%d user=starq dbname=starq", d.iPort);
  zSq = copy_psql(zInfo, "starqd.csv", &nSq);
  zPg = copy_psql(pgref_conninfo(p), "pg.csv", &nPg);
  ASSERT_EQ(nSq, nPg);
  ASSERT(memcmp(zSq, zPg, nPg) == 0);
  ASSERT(strstr(zSq, "id,s\n1,\"tab\there\"\n") != NULL);
  free(zSq);
  free(zPg);

  PQfinish(pPg);
  PQfinish(pSq);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  pgref_stop(p);
  return 0;
}
