/*
** tests/test-regress.c — the SQL regression suite in PostgreSQL's own
** style: tests/regress/sql/NAME.sql run by the real psql 15 client, its
** output compared byte for byte with tests/regress/expected/NAME.out,
** which a real PostgreSQL 15 server produced on the same data.
**
** One run starts a starqd (the backend of starqd_backend(): the CPU in
** CI, CUDA under bench/device.sh gpu-tests) on SSB at SF 0.01 and, where
** PostgreSQL is installed (not on the GPU machine), a PostgreSQL 15
** server (tests/pgref.h) with the same rows from starq-gen's .tbl files.
** Then, for each name of tests/regress/schedule in order, psql reads
** the file on stdin as pg_regress runs it (psql -X -a -q, stderr into
** stdout, locale C, client encoding UTF8, no PG* settings): against
** PostgreSQL, whose output must equal the expected file (so an expected
** file is provably PostgreSQL's answer), and against starqd, whose
** output must equal it too. A mismatch is shown as a unified diff
** (diff -u); results/NAME.out and pg/NAME.out stay in the scratch
** directory (STARQ_TEST_KEEP keeps it).
**
** A file may name the backends it runs on in a comment line of its own
** before its first statement:
**
**   -- backends: cpu
**
** (names: cpu, cuda; default: both). PostgreSQL runs every file.
**
** Regenerating: with STARQ_REGRESS_WRITE set in the environment
** (`make regress-expected`), PostgreSQL's output is written over
** tests/regress/expected/NAME.out before starq's is compared with it.
** A file the schedule names must exist with its expected file, and
** every .sql file must be in the schedule.
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/strbuf.h"
#include "pgref.h"
#include "starqd-fixture.h"
#include "test.h"

/* Debian's psql 15 itself (/usr/bin/psql is a wrapper script that picks
** a version); on the GPU machine, the copy bench/device.sh packs beside
** starq's binaries. */
#define REGRESS_PSQL "/usr/lib/postgresql/15/bin/psql"
/* Where PostgreSQL 15 is installed, it is the reference. */
#define REGRESS_POSTGRES "/usr/lib/postgresql/15/bin/postgres"

/* One file's outcome. */
typedef struct regress_run regress_run;
struct regress_run {
  int nFile;               /* files run */
  int nSkipped;            /* files not for this backend */
  int nFail;               /* files whose output differed */
  strbuf report;           /* the diffs of every failure */
};

/* Returns the psql to run. */
static const char *regress_psql(void) {
  if (access(REGRESS_PSQL, X_OK) == 0) return REGRESS_PSQL;
  if (access(test_bin("psql"), X_OK) == 0) return test_bin("psql");
  FAIL("psql 15 is missing (%s; scripts/setup.sh installs it)", REGRESS_PSQL);
  return NULL;
}

/* The fixed settings psql runs with: whatever the caller's environment
** says, the output depends on the files alone. */
static void regress_env(void) {
  static const char *const azUnset[] = {
      "PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGPASSWORD", "PGSERVICE", "PGOPTIONS",
      "PSQLRC", "PGAPPNAME", "PGTZ", "PGDATESTYLE", "PGSSLMODE", "PG_COLOR", "PSQL_PAGER",
      "PAGER", "COLUMNS", "LANG", "LANGUAGE", "LC_MESSAGES", "LC_CTYPE"};
  for (size_t i = 0; i < sizeof(azUnset) / sizeof(azUnset[0]); i++) unsetenv(azUnset[i]);
  setenv("LC_ALL", "C", 1);
  setenv("PGCLIENTENCODING", "UTF8", 1);
  setenv("PGCONNECT_TIMEOUT", "30", 1);
}

/* Runs psql on zConn (a conninfo string) with stdin from zSql and its
** stdout and stderr into the file zOut (in the scratch directory), as
** pg_regress does. Its current directory is tests/regress/sql, so that a
** file may include others by relative paths (\i
** ../../../ssb-data/queries/q1.1.sql) that read the same in its output
** on every machine. */
static void regress_psql_run(const char *zConn, const char *zSql, const char *zOut) {
  test_proc p;
  char zCwd[PATH_MAX], zOutAbs[PATH_MAX + 512], zDir[PATH_MAX];
  const char *argv[] = {"/bin/sh", "-c",
                        "cd \"$5\" && exec \"$2\" -X -a -q -d \"$1\" <\"$3\" >\"$4\" 2>&1", "sh",
                        zConn, regress_psql(), zSql, zOutAbs, zDir, NULL};
  ASSERT(getcwd(zCwd, sizeof(zCwd)) != NULL);
  snprintf(zOutAbs, sizeof(zOutAbs), "%s/%s", zCwd, zOut);
  snprintf(zDir, sizeof(zDir), "%s", test_src("tests/regress/sql"));
  test_run(&p, argv);
  /* psql exits 1 after an error in a script only with ON_ERROR_STOP; 2
  ** is a lost connection, which the output shows but must not pass. */
  if (p.rc != 0 && p.rc != 1) {
    size_t n;
    char *z = test_file_read(zOut, &n);
    FAIL("psql %s < %s exited %d:\n%s%s%s", zConn, zSql, p.rc, z, p.zOut, p.zErr);
  }
  test_proc_free(&p);
}

/* Returns 1 if file z (the .sql text) may run on backend zBackend: no
** "-- backends:" line before its first statement, or one naming it. */
static int regress_backend_ok(const char *z, const char *zBackend) {
  while (*z) {
    const char *zEnd = strchr(z, '\n');
    size_t n = zEnd ? (size_t)(zEnd - z) : strlen(z);
    if (n >= 2 && z[0] == '-' && z[1] == '-') {
      static const char zKey[] = "-- backends:";
      if (n > sizeof(zKey) - 1 && strncmp(z, zKey, sizeof(zKey) - 1) == 0) {
        char zList[256];
        char *zTok, *zSave = NULL;
        snprintf(zList, sizeof(zList), "%.*s", (int)(n - (sizeof(zKey) - 1)), z + sizeof(zKey) - 1);
        for (zTok = strtok_r(zList, " ,\t", &zSave); zTok; zTok = strtok_r(NULL, " ,\t", &zSave)) {
          if (strcmp(zTok, zBackend) == 0) return 1;
        }
        return 0;
      }
    } else if (n > 0) {
      return 1;
    }
    if (zEnd == NULL) break;
    z = zEnd + 1;
  }
  return 1;
}

/* Compares the file zGot with zWant; on a difference appends a unified
** diff (or both texts, where diff is missing) to r's report and returns
** 1. zWho says whose output it is. */
static int regress_compare(regress_run *r, const char *zName, const char *zWho,
                           const char *zWant, const char *zGot) {
  size_t nWant, nGot;
  char *zW = test_file_read(zWant, &nWant), *zG = test_file_read(zGot, &nGot);
  int bSame = nWant == nGot && memcmp(zW, zG, nWant) == 0;
  if (!bSame) {
    test_proc p;
    const char *argv[] = {"/usr/bin/diff", "-u", zWant, zGot, NULL};
    strbuf_printf(&r->report, "\n==== %s: %s's output differs from %s\n", zName, zWho, zWant);
    if (access(argv[0], X_OK) == 0) {
      test_run(&p, argv);
      strbuf_puts(&r->report, p.zOut);
      test_proc_free(&p);
    } else {
      strbuf_printf(&r->report, "---- expected:\n%s---- got:\n%s", zW, zG);
    }
  }
  free(zW);
  free(zG);
  return !bSame;
}

/* Reads the schedule: one name a line, '#' comments. Returns the count
** and sets *pazName (malloc'd names, in a malloc'd array). */
static int regress_schedule(char ***pazName) {
  size_t n;
  char *z = test_file_read(test_src("tests/regress/schedule"), &n);
  char **azName = NULL, *zSave = NULL;
  int nName = 0;
  for (char *zLine = strtok_r(z, "\n", &zSave); zLine; zLine = strtok_r(NULL, "\n", &zSave)) {
    char *zEnd;
    while (*zLine == ' ' || *zLine == '\t') zLine++;
    if (*zLine == '#' || *zLine == 0) continue;
    zEnd = zLine + strlen(zLine);
    while (zEnd > zLine && (zEnd[-1] == ' ' || zEnd[-1] == '\t')) *--zEnd = 0;
    azName = realloc(azName, sizeof(char *) * (size_t)(nName + 1));
    ASSERT(azName != NULL);
    azName[nName++] = strdup(zLine);
  }
  free(z);
  *pazName = azName;
  return nName;
}

/* Fails the test if a .sql file of tests/regress/sql is not scheduled,
** so none is silently left out. */
static void regress_check_listed(char **azName, int nName) {
  DIR *d = opendir(test_src("tests/regress/sql"));
  struct dirent *e;
  if (d == NULL) FAIL("opendir %s", test_src("tests/regress/sql"));
  while ((e = readdir(d)) != NULL) {
    size_t n = strlen(e->d_name);
    int bListed = 0;
    if (n < 5 || strcmp(e->d_name + n - 4, ".sql") != 0) continue;
    for (int i = 0; i < nName; i++) {
      if (strlen(azName[i]) == n - 4 && strncmp(azName[i], e->d_name, n - 4) == 0) bListed = 1;
    }
    if (!bListed) FAIL("tests/regress/sql/%s is not in tests/regress/schedule", e->d_name);
  }
  closedir(d);
}

TEST_IMPL(regress) {
  const char *zBackend = starqd_backend();
  /* PostgreSQL is where it is installed; the GPU machine compares with
  ** the expected files alone. */
  int bPg = strcmp(zBackend, "cpu") == 0 || access(REGRESS_POSTGRES, X_OK) == 0;
  int bWrite = getenv("STARQ_REGRESS_WRITE") != NULL;
  regress_run r;
  pgref *pPg = NULL;
  starqd_proc d;
  char zErr[4096], zStarq[256], **azName;
  int nName;

  memset(&r, 0, sizeof(r));
  strbuf_init(&r.report);
  regress_env();
  nName = regress_schedule(&azName);
  regress_check_listed(azName, nName);
  if (bWrite && !bPg) FAIL("STARQ_REGRESS_WRITE needs PostgreSQL 15");

  starqd_data("data");
  starqd_start(&d, "data", NULL);
  snprintf(zStarq, sizeof(zStarq),
           "host=127.0.0.1 port=%d user=starq dbname=starq sslmode=disable", d.iPort);
  if (bPg) {
    const char *argv[] = {"starq-gen", "--sf", "0.01", "--out", "tbl", "-q", NULL};
    test_run_ok(argv);
    CALL_OK(pgref_start(&pPg, "pg", zErr, sizeof(zErr)));
    CALL_OK(pgref_load_ssb(pPg, "tbl", zErr, sizeof(zErr)));
  }
  ASSERT_EQ(mkdir("results", 0755), 0);
  ASSERT_EQ(mkdir("pgresults", 0755), 0);

  for (int i = 0; i < nName; i++) {
    char zSql[4096], zWant[4096], zGot[512], zPgGot[512];
    char *zText;
    size_t n;
    snprintf(zSql, sizeof(zSql), "%s/%s.sql", test_src("tests/regress/sql"), azName[i]);
    snprintf(zWant, sizeof(zWant), "%s/%s.out", test_src("tests/regress/expected"), azName[i]);
    snprintf(zGot, sizeof(zGot), "results/%s.out", azName[i]);
    snprintf(zPgGot, sizeof(zPgGot), "pgresults/%s.out", azName[i]);
    zText = test_file_read(zSql, &n);
    if (bPg) {
      regress_psql_run(pgref_conninfo(pPg), zSql, zPgGot);
      if (bWrite) {
        char *zOut = test_file_read(zPgGot, &n);
        FILE *f = fopen(zWant, "w");
        if (f == NULL || fwrite(zOut, 1, n, f) != n || fclose(f) != 0) FAIL("cannot write %s", zWant);
        free(zOut);
      }
      if (!test_file_exists(zWant)) FAIL("%s is missing (make regress-expected)", zWant);
      r.nFail += regress_compare(&r, azName[i], "PostgreSQL", zWant, zPgGot);
    }
    if (regress_backend_ok(zText, zBackend)) {
      if (!test_file_exists(zWant)) FAIL("%s is missing (make regress-expected)", zWant);
      regress_psql_run(zStarq, zSql, zGot);
      r.nFail += regress_compare(&r, azName[i], "starq", zWant, zGot);
      r.nFile++;
    } else {
      r.nSkipped++;
    }
    free(zText);
  }
  printf("regress: %d files on starqd (%s)%s, %d not for this backend\n", r.nFile, zBackend,
         bPg ? " and PostgreSQL 15" : "", r.nSkipped);
  if (r.nFail > 0) FAIL("%d outputs differ:%s", r.nFail, strbuf_str(&r.report));

  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  pgref_stop(pPg);
  for (int i = 0; i < nName; i++) free(azName[i]);
  free(azName);
  strbuf_free(&r.report);
  return 0;
}
