/*
** tests/starq-cli-fixture.c — what the tests of starq, the command-line
** client, share (starq-cli-fixture.h): running starq or psql against a
** starqd with the same flags and input, and comparing the two.
*/
#define _GNU_SOURCE
#include <unistd.h>

#include "../common/strbuf.h"
#include "starq-cli-fixture.h"
#include "test.h"

/* Sets the environment both clients see: no stray PG* settings, UTF8. */
void cli_env(void) {
  static const char *azUnset[] = {"PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGPASSWORD",
                                  "PGSERVICE", "PGOPTIONS", "PSQLRC", "PGAPPNAME"};
  for (size_t i = 0; i < sizeof(azUnset) / sizeof(azUnset[0]); i++) unsetenv(azUnset[i]);
  setenv("PGCONNECT_TIMEOUT", "10", 1);
  /* psql takes its encoding from the locale; starq always asks for UTF8. */
  setenv("PGCLIENTENCODING", "UTF8", 1);
}

/* Runs zProg ("starq" or "psql") with d's connection flags and then azArg
** (NULL-terminated), stdin from the file zStdin (NULL: /dev/null). */
int cli_run(test_proc *p, const char *zProg, const starqd_proc *d, const char *zStdin,
                   const char *const *azArg) {
  char zPort[16];
  const char *argv[64];
  int n = 0;
  snprintf(zPort, sizeof(zPort), "%d", d->iPort);
  argv[n++] = "/bin/sh";
  argv[n++] = "-c";
  argv[n++] = "f=$1; shift; exec \"$@\" <\"$f\"";
  argv[n++] = "sh";
  argv[n++] = zStdin ? zStdin : "/dev/null";
  argv[n++] = strcmp(zProg, "psql") == 0 ? "/usr/bin/psql" : test_bin("starq");
  argv[n++] = "-X";
  argv[n++] = "-h";
  argv[n++] = "127.0.0.1";
  argv[n++] = "-p";
  argv[n++] = zPort;
  argv[n++] = "-U";
  argv[n++] = "starq";
  argv[n++] = "-d";
  argv[n++] = "starq";
  for (int i = 0; azArg[i] != NULL; i++) {
    ASSERT(n < 62);
    argv[n++] = azArg[i];
  }
  argv[n] = NULL;
  return test_run(p, argv);
}

/* psql's stderr as starq's: "psql:" at the start of a line is "starq:". */
static char *cli_psql_err(const char *z) {
  strbuf s;
  strbuf_init(&s);
  for (const char *zLine = z; *zLine;) {
    const char *zEnd = strchr(zLine, '\n');
    size_t n = zEnd ? (size_t)(zEnd - zLine) + 1 : strlen(zLine);
    if (strncmp(zLine, "psql:", 5) == 0) {
      strbuf_puts(&s, "starq:");
      strbuf_append(&s, zLine + 5, n - 5);
    } else {
      strbuf_append(&s, zLine, n);
    }
    zLine += n;
  }
  return strbuf_take(&s);
}

/* Runs psql and starq alike and fails unless they print the same and
** exit the same. Returns starq's exit code. */
int cli_same(const starqd_proc *d, const char *zStdin, const char *const *azArg) {
  test_proc p, s;
  char *zWantErr;
  int rc;
  cli_run(&p, "psql", d, zStdin, azArg);
  cli_run(&s, "starq", d, zStdin, azArg);
  zWantErr = cli_psql_err(p.zErr);
  if (strcmp(p.zOut, s.zOut) != 0 || strcmp(zWantErr, s.zErr) != 0 || p.rc != s.rc) {
    strbuf a;
    strbuf_init(&a);
    for (int i = 0; azArg[i] != NULL; i++) strbuf_printf(&a, " %s", azArg[i]);
    FAIL("starq%s (stdin %s) differs from psql:\n--- psql stdout:\n%s--- starq stdout:\n%s"
         "--- psql stderr:\n%s--- starq stderr:\n%s--- exit codes %d and %d",
         strbuf_str(&a), zStdin ? zStdin : "-", p.zOut, s.zOut, zWantErr, s.zErr, p.rc, s.rc);
  }
  rc = s.rc;
  free(zWantErr);
  test_proc_free(&p);
  test_proc_free(&s);
  return rc;
}

/* Runs starq and returns its exit code; *p holds what it printed. */
int cli_starq(test_proc *p, const starqd_proc *d, const char *zStdin, const char *const *azArg) {
  return cli_run(p, "starq", d, zStdin, azArg);
}

/* Writes zText to the file zPath. */
void cli_file(const char *zPath, const char *zText) {
  FILE *f = fopen(zPath, "w");
  ASSERT(f != NULL);
  fputs(zText, f);
  ASSERT_EQ(fclose(f), 0);
}

/* A table with values that test quoting, padding and line marks, loaded
** through libpq (not through starq). */
static void cli_tricky_table(const starqd_proc *d) {
  static const char zRows[] =
    "1\tplain\t1.5\n"
    "2\tcomma, here\t-2.25\n"
    "3\tsay \"hi\"\t\\N\n"
    "4\tline1\\nline2\\nl3\t100\n"
    "5\t\\N\t0\n"
    "6\t\t7\n"
    "7\tünïcödé 日本語\t8\n"
    "8\ttab\\there\t9\n"
    "9\t\\\\.\t10\n"
    "10\tcr\\rhere\t11\n";
  PGconn *c = starqd_connect(d);
  PGresult *r = PQexec(c, "CREATE TABLE tricky (a INTEGER, b VARCHAR(40), c DOUBLE PRECISION)");
  ASSERT_EQ(PQresultStatus(r), PGRES_COMMAND_OK);
  PQclear(r);
  r = PQexec(c, "COPY tricky FROM STDIN");
  ASSERT_EQ(PQresultStatus(r), PGRES_COPY_IN);
  PQclear(r);
  ASSERT_EQ(PQputCopyData(c, zRows, (int)strlen(zRows)), 1);
  ASSERT_EQ(PQputCopyEnd(c, NULL), 1);
  r = PQgetResult(c);
  if (PQresultStatus(r) != PGRES_COMMAND_OK) FAIL("COPY: %s", PQresultErrorMessage(r));
  PQclear(r);
  while ((r = PQgetResult(c)) != NULL) PQclear(r);
  PQfinish(c);
}

/* Starts starqd on fresh SSB data with the tricky table. */
void cli_server(starqd_proc *d) {
  if (access("/usr/bin/psql", X_OK) != 0) FAIL("psql is missing (scripts/setup.sh installs it)");
  cli_env();
  starqd_data("data");
  starqd_start(d, "data", NULL);
  cli_tricky_table(d);
}

