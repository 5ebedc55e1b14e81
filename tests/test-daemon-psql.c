/*
** tests/test-daemon-psql.c — the real psql (15) against starqd: queries,
** an error with its position, \dt and \d answered from the catalog, \df
** over pg_catalog's relations as PostgreSQL 15 answers it, and the
** catalog commands starq cannot answer yet refused with an error
** (tests/test-psql-describe.c compares the rest with PostgreSQL 15's).
*/
#define _GNU_SOURCE
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pgref.h"
#include "starqd-fixture.h"
#include "test.h"

/* Runs psql -X -w -A [-t] against d with one -c or -f argument. */
static int dpsql_run(test_proc *p, const starqd_proc *d, int bTuplesOnly, const char *zFlag,
                     const char *zArg) {
  char zPort[16];
  const char *argv[] = {"/usr/bin/psql", "-X", "-w", "-A", "-h", "127.0.0.1", "-p", zPort,
                        "-U", "starq", "-d", "starq", zFlag, zArg, bTuplesOnly ? "-t" : NULL, NULL};
  snprintf(zPort, sizeof(zPort), "%d", d->iPort);
  return test_run(p, argv);
}

static void dpsql_expect(const starqd_proc *d, int bTuplesOnly, const char *zFlag,
                         const char *zArg, const char *zWant) {
  test_proc p;
  if (dpsql_run(&p, d, bTuplesOnly, zFlag, zArg) != 0 || strstr(p.zOut, zWant) == NULL) {
    FAIL("psql %s \"%s\" exited %d\nstdout:\n%s\nstderr:\n%s\nwanted in stdout:\n%s", zFlag, zArg,
         p.rc, p.zOut, p.zErr, zWant);
  }
  test_proc_free(&p);
}

TEST_IMPL(daemon_psql) {
  starqd_proc d;
  test_proc p;
  if (access("/usr/bin/psql", X_OK) != 0) FAIL("psql is missing (scripts/setup.sh installs it)");
  setenv("PGCONNECT_TIMEOUT", "10", 1);
  unsetenv("PGPASSWORD");
  unsetenv("PGSERVICE");
  starqd_data("data");
  ASSERT_EQ(mkdir("import", 0755), 0);
  {
    const char *azExtra[] = {"--import-dir", "import", NULL};
    FILE *f = fopen("import/more.csv", "w");
    ASSERT(f != NULL);
    fputs("8,eight\n9,nine\n", f);
    fclose(f);
    starqd_start(&d, "data", azExtra);
  }
  dpsql_expect(&d, 1, "-c", "SHOW application_name", "psql\n");

  dpsql_expect(&d, 1, "-c", "SELECT count(*) FROM lineorder; SELECT count(*) FROM part", "59893\n2000\n");
  dpsql_expect(&d, 1, "-c", "SELECT d_year, count(*) FROM date GROUP BY d_year ORDER BY 1 LIMIT 2",
               "1992|366\n1993|365\n");

  /* An error: the message and a caret under its position. */
  ASSERT_EQ(dpsql_run(&p, &d, 1, "-c", "SELECT lo_nope FROM lineorder"), 1);
  if (strstr(p.zErr, "ERROR:  column \"lo_nope\" does not exist\nLINE 1: SELECT lo_nope FROM lineorder\n"
                     "               ^") == NULL) {
    FAIL("psql said:\n%s", p.zErr);
  }
  test_proc_free(&p);

  /* \dt and \d, from the catalog. */
  dpsql_expect(&d, 1, "-c", "\\dt",
               "public|customer|table|starq\npublic|date|table|starq\npublic|lineorder|table|starq\n"
               "public|part|table|starq\npublic|supplier|table|starq\n");
  dpsql_expect(&d, 1, "-c", "\\dt lineorder", "public|lineorder|table|starq\n");
  dpsql_expect(&d, 0, "-c", "\\d supplier",
               "Table \"public.supplier\"\nColumn|Type|Collation|Nullable|Default\n"
               "s_suppkey|integer||not null|\ns_name|character varying(25)||not null|\n");
  dpsql_expect(&d, 0, "-c", "\\d lineorder",
               "Foreign-key constraints:\n"
               "    \"lineorder_lo_commitdate_fkey\" FOREIGN KEY (lo_commitdate) REFERENCES date(d_datekey)\n"
               "    \"lineorder_lo_custkey_fkey\" FOREIGN KEY (lo_custkey) REFERENCES customer(c_custkey)\n");
  ASSERT_EQ(dpsql_run(&p, &d, 0, "-c", "\\d nope"), 1);
  ASSERT(strstr(p.zErr, "Did not find any relation named \"nope\"") != NULL);
  test_proc_free(&p);
  /* Catalog commands over pg_catalog's relations: as PostgreSQL 15
  ** answers them for a database with the same (no) user functions. */
  {
    pgref *pg;
    test_proc q;
    char zErr[2048];
    static const char *const azCmd[] = {"\\df", "\\dn", "\\dv"};
    const char *argv[] = {"/usr/bin/psql", "-X", "-w", "-A", "-c", NULL, NULL, NULL};
    CALL_OK(pgref_start(&pg, "pg", zErr, sizeof(zErr)));
    argv[6] = pgref_conninfo(pg);
    for (size_t i = 0; i < sizeof(azCmd) / sizeof(azCmd[0]); i++) {
      argv[5] = azCmd[i];
      ASSERT_EQ(test_run(&q, argv), 0);
      if (dpsql_run(&p, &d, 0, "-c", azCmd[i]) != 0 || strcmp(p.zOut, q.zOut) != 0 ||
          strcmp(p.zErr, q.zErr) != 0) {
        FAIL("psql -c %s: starqd exited %d\n%s%s\nPostgreSQL:\n%s%s", azCmd[i], p.rc, p.zOut, p.zErr,
             q.zOut, q.zErr);
      }
      test_proc_free(&p);
      test_proc_free(&q);
    }
    pgref_stop(pg);
  }
  /* Catalog queries starq cannot answer yet fail: never an empty answer. */
  {
    static const char *const azCmd[] = {"\\d+ supplier"};
    for (size_t i = 0; i < sizeof(azCmd) / sizeof(azCmd[0]); i++) {
      ASSERT_EQ(dpsql_run(&p, &d, 0, "-c", azCmd[i]), 1);
      if (strstr(p.zErr, "ERROR:  ") == NULL || p.zOut[0] != 0) {
        FAIL("psql -c %s: stdout:\n%s\nstderr:\n%s", azCmd[i], p.zOut, p.zErr);
      }
      test_proc_free(&p);
    }
  }

  /* \copy and COPY FROM STDIN in a script: text (escapes, \N) and CSV;
  ** psql sends the "\." that ends inline data, which must end it. */
  {
    FILE *f = fopen("rows.txt", "w");
    ASSERT(f != NULL);
    fputs("1\tone\n2\t\\N\n3\tth\\tree \"q\"\n", f);
    fclose(f);
    f = fopen("rows.csv", "w");
    ASSERT(f != NULL);
    fputs("a,b\n4,four\n5,\n", f);
    fclose(f);
    f = fopen("copy.sql", "w");
    ASSERT(f != NULL);
    fputs("CREATE TABLE tc (a INTEGER, b VARCHAR(20));\n"
          "\\copy tc from 'rows.txt'\n"
          "\\copy tc from 'rows.csv' with (format csv, header)\n"
          "COPY tc FROM STDIN;\n6\tsix\n\\.\n"
          "SELECT a, b, b IS NULL FROM tc ORDER BY a;\n", f);
    fclose(f);
  }
  dpsql_expect(&d, 1, "-f", "copy.sql",
               "CREATE TABLE\nCOPY 3\nCOPY 2\nCOPY 1\n1|one|f\n2||t\n3|th\tree \"q\"|f\n4|four|f\n5||t\n"
               "6|six|f\n");
  /* A bad value: the load stops, the table keeps its rows, the session goes on. */
  {
    FILE *f = fopen("bad.sql", "w");
    ASSERT(f != NULL);
    fputs("COPY tc FROM STDIN;\n7\tok\nx\tbad\n\\.\nSELECT count(*) FROM tc;\n", f);
    fclose(f);
  }
  ASSERT_EQ(dpsql_run(&p, &d, 1, "-f", "bad.sql"), 0);
  ASSERT_STR_EQ(p.zOut, "6\n");
  ASSERT(strstr(p.zErr, "COPY tc, line 2: column a: found \"x\"") != NULL);
  test_proc_free(&p);
  /* COPY from a file below --import-dir, and not from anywhere else. */
  dpsql_expect(&d, 1, "-c", "COPY tc FROM 'more.csv'; SELECT count(*) FROM tc",
               "COPY 2\n8\n");
  ASSERT_EQ(dpsql_run(&p, &d, 1, "-c", "COPY tc FROM '/etc/passwd' WITH (FORMAT csv)"), 1);
  if (strstr(p.zErr, "below the import directory") == NULL) FAIL("psql said:\n%s", p.zErr);
  test_proc_free(&p);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}
