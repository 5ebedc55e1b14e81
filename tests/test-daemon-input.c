/*
** tests/test-daemon-input.c — bytes coming in: invalid UTF-8 is 22021
** wherever it enters (a Query, a Parse, a Bind parameter, COPY data, with
** the COPY's line), and the session goes on; COPY's spool files go when a
** COPY fails, and those a killed server left go at the next start; a full
** disk while spooling is 53100 and leaves the table as it was.
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "../common/timer.h"
#include "starqd-fixture.h"
#include "test.h"

/* Counts the COPY spool files in zDir. */
static int input_spools(const char *zDir) {
  DIR *d = opendir(zDir);
  struct dirent *e;
  int n = 0;
  ASSERT(d != NULL);
  while ((e = readdir(d)) != NULL) n += strncmp(e->d_name, ".copy-", 6) == 0;
  closedir(d);
  return n;
}

/* The message of input_state's statement. */
static char input_zMsg[512];

/* Runs zSql (simple protocol); returns its SQLSTATE ("" for none) in a
** static buffer, its message in input_zMsg, and checks the session still
** answers. */
static const char *input_state(PGconn *c, const char *zSql) {
  static char zState[8];
  PGresult *res = PQexec(c, zSql);
  const char *z = PQresultErrorField(res, PG_DIAG_SQLSTATE);
  snprintf(zState, sizeof(zState), "%s", z != NULL ? z : "");
  snprintf(input_zMsg, sizeof(input_zMsg), "%s", PQresultErrorMessage(res));
  PQclear(res);
  res = PQexec(c, "SELECT 1");
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  PQclear(res);
  return zState;
}

/* Sends the rows of zData to COPY zCopy and returns the result's status
** and SQLSTATE; *pzMsg (malloc'd) gets its message. */
static const char *input_copy(PGconn *c, const char *zCopy, const char *zData, size_t nData,
                              char **pzMsg) {
  static char zState[8];
  PGresult *res = PQexec(c, zCopy);
  ASSERT_EQ(PQresultStatus(res), PGRES_COPY_IN);
  PQclear(res);
  ASSERT_EQ(PQputCopyData(c, zData, (int)nData), 1);
  ASSERT_EQ(PQputCopyEnd(c, NULL), 1);
  res = PQgetResult(c);
  snprintf(zState, sizeof(zState), "%s",
           PQresultErrorField(res, PG_DIAG_SQLSTATE) != NULL
               ? PQresultErrorField(res, PG_DIAG_SQLSTATE)
               : "");
  *pzMsg = strdup(PQresultErrorMessage(res));
  PQclear(res);
  while ((res = PQgetResult(c)) != NULL) PQclear(res);
  return zState;
}

/* Checks that table zTable is empty, then closes c and stops d. */
static void input_empty_stop(starqd_proc *d, PGconn *c, const char *zTable) {
  char zSql[64];
  PGresult *res;
  snprintf(zSql, sizeof(zSql), "SELECT count(*) FROM %s", zTable);
  res = PQexec(c, zSql);
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  ASSERT_STR_EQ(PQgetvalue(res, 0, 0), "0");
  PQclear(res);
  PQfinish(c);
  ASSERT_EQ(starqd_stop(d, SIGTERM), 0);
}

/* Makes SSB data, starts starqd on it and connects to it. */
static PGconn *input_start(starqd_proc *d) {
  starqd_data("data");
  starqd_start(d, "data", NULL);
  return starqd_connect(d);
}

TEST_IMPL(daemon_utf8_input) {
  const char *azParam[1];
  starqd_proc d;
  PGconn *c = input_start(&d);
  PGresult *res;
  char *zMsg;
  /* A Query, in a literal and in a comment; then a Parse. */
  ASSERT_STR_EQ(input_state(c, "SELECT 'caf\xc3\x28'"), "22021");
  ASSERT(strstr(input_zMsg, "invalid byte sequence for encoding \"UTF8\": 0xc3 0x28") != NULL);
  ASSERT_STR_EQ(input_state(c, "SELECT 1 -- \xff"), "22021");
  ASSERT_STR_EQ(input_state(c, "SELECT count(*) FROM supplier WHERE s_name = 'caf\xc3\xa9'"), "");
  res = PQprepare(c, "", "SELECT '\xed\xa0\x80'", 0, NULL);     /* a surrogate */
  ASSERT_STR_EQ(PQresultErrorField(res, PG_DIAG_SQLSTATE), "22021");
  PQclear(res);
  /* A Bind parameter, as text. */
  azParam[0] = "ab\xe2\x82";   /* a cut sequence */
  res = PQexecParams(c, "SELECT count(*) FROM supplier WHERE s_name = $1", 1, NULL, azParam, NULL,
                     NULL, 0);
  ASSERT_STR_EQ(PQresultErrorField(res, PG_DIAG_SQLSTATE), "22021");
  PQclear(res);
  /* COPY data: the line is named, no spool file is left, nothing loaded. */
  ASSERT_STR_EQ(input_state(c, "CREATE TABLE tu (a int, b text)"), "");
  {
    static const char zData[] = "1\tgood\n2\tbad \xc0\xaf\n3\tgood\n";
    ASSERT_STR_EQ(input_copy(c, "COPY tu FROM STDIN", zData, sizeof(zData) - 1, &zMsg), "22021");
    if (strstr(zMsg, "0xc0") == NULL || strstr(zMsg, "line 2") == NULL) FAIL("%s", zMsg);
    free(zMsg);
  }
  ASSERT_EQ(input_spools("data"), 0);
  input_empty_stop(&d, c, "tu");
  return 0;
}

/* A COPY spooling when starqd is killed leaves its spool file; the next
** start removes it (and one planted beside it), and the table is as it
** was before the COPY. */
TEST_IMPL(daemon_copy_spool_sweep) {
  starqd_proc d;
  PGconn *c = input_start(&d);
  PGresult *res;
  char *zLog;
  FILE *f;
  ASSERT_STR_EQ(input_state(c, "CREATE TABLE ts (a int)"), "");
  res = PQexec(c, "COPY ts FROM STDIN");
  ASSERT_EQ(PQresultStatus(res), PGRES_COPY_IN);
  PQclear(res);
  ASSERT_EQ(PQputCopyData(c, "1\n2\n", 4), 1);
  ASSERT_EQ(PQflush(c), 0);
  for (double tEnd = timer_now() + 30; input_spools("data") == 0; usleep(20 * 1000)) {
    if (timer_now() > tEnd) FAIL("no spool file after 30 s");
  }
  ASSERT_EQ(starqd_stop(&d, SIGKILL), 128 + SIGKILL);
  PQfinish(c);
  ASSERT_EQ(input_spools("data"), 1);
  f = fopen("data/.copy-planted", "w");
  ASSERT(f != NULL);
  fputs("3\n", f);
  fclose(f);

  starqd_start(&d, "data", NULL);
  ASSERT_EQ(input_spools("data"), 0);
  zLog = starqd_log(&d);
  ASSERT(strstr(zLog, "removed 2 COPY spool files an earlier run left") != NULL);
  free(zLog);
  c = starqd_connect(&d);
  input_empty_stop(&d, c, "ts");
  return 0;
}

/* Mounts a tmpfs of zSize on zDir, seen by this test and its children
** only (a mount namespace of its own; a user namespace too when not
** root). Returns 0, or -1 when the system allows neither. */
static int input_tmpfs(const char *zDir, const char *zSize) {
  char zOpt[64];
  if (unshare(CLONE_NEWNS) != 0) {
    uid_t uid = getuid();
    gid_t gid = getgid();
    FILE *f;
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return -1;
    if ((f = fopen("/proc/self/setgroups", "w")) != NULL) {
      fputs("deny", f);
      fclose(f);
    }
    if ((f = fopen("/proc/self/uid_map", "w")) == NULL) return -1;
    fprintf(f, "0 %u 1", (unsigned)uid);
    fclose(f);
    if ((f = fopen("/proc/self/gid_map", "w")) == NULL) return -1;
    fprintf(f, "0 %u 1", (unsigned)gid);
    fclose(f);
  }
  if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return -1;
  if (mkdir(zDir, 0755) != 0 && errno != EEXIST) return -1;
  snprintf(zOpt, sizeof(zOpt), "size=%s", zSize);
  return mount("tmpfs", zDir, "tmpfs", 0, zOpt);
}

/* The data directory on an 8 MiB tmpfs: a COPY whose data cannot be
** spooled fails with 53100, leaves no spool file and the table as it
** was, gives the space back, and the server answers on. */
TEST_IMPL(daemon_copy_disk_full) {
  enum { nRow = 200000 };
  struct statvfs sv0, sv1;
  starqd_proc d;
  PGconn *c;
  PGresult *res;
  strbuf data;
  char *zMsg;
  if (input_tmpfs("data", "8m") != 0) {
    printf("skipped: no mount namespace for a small tmpfs here (%s)\n", strerror(errno));
    return 0;
  }
  starqd_data("data");
  starqd_start(&d, "data", NULL);
  c = starqd_connect(&d);
  ASSERT_STR_EQ(input_state(c, "CREATE TABLE tf (a int, b text)"), "");
  ASSERT_STR_EQ(input_copy(c, "COPY tf FROM STDIN", "1\tkept\n", 7, &zMsg), "");
  free(zMsg);
  ASSERT_EQ(statvfs("data", &sv0), 0);
  strbuf_init(&data);
  for (int i = 0; i < nRow; i++) strbuf_printf(&data, "%d\tsome text to fill the disk up\n", i);
  ASSERT((double)data.n > (double)sv0.f_bavail * sv0.f_frsize);   /* surely more than fits */
  ASSERT_STR_EQ(input_copy(c, "COPY tf FROM STDIN", data.z, data.n, &zMsg), "53100");
  if (strstr(zMsg, "No space left on device") == NULL) FAIL("%s", zMsg);
  free(zMsg);
  strbuf_free(&data);
  ASSERT_EQ(input_spools("data"), 0);
  ASSERT_EQ(statvfs("data", &sv1), 0);
  ASSERT((double)sv1.f_bavail >= (double)sv0.f_bavail * 0.9);
  res = PQexec(c, "SELECT a, b FROM tf");
  if (PQresultStatus(res) != PGRES_TUPLES_OK) FAIL("%s", PQresultErrorMessage(res));
  ASSERT_STR_EQ(PQgetvalue(res, 0, 0), "1");
  ASSERT_STR_EQ(PQgetvalue(res, 0, 1), "kept");
  PQclear(res);
  PQfinish(c);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}
