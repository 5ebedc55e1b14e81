/*
** tests/test-starq-session.c — starq's own meta-commands and its
** interactive mode: \explain and \status checked against what the server
** says through libpq (SHOW starq.last_query) and the in-process executor,
** and a terminal session through a pseudo-terminal (prompts, a statement
** over two lines, \q, the history file).
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/jsonread.h"
#include "starq-cli-fixture.h"
#include "test.h"

/* The one value of a one-row, one-column query, by the executor. */
static long long session_expected_int(const char *zSql) {
  unsigned *aType = NULL;
  int nCol = 0;
  char *z = starqd_expected("data", zSql, &aType, &nCol);
  long long v = atoll(z);
  ASSERT_EQ(nCol, 1);
  free(z);
  free(aType);
  return v;
}

/* The kernels the server reports for zSql: run through libpq, then SHOW
** starq.last_query on the same connection. Returns "name name ..." and
** *pnFact the fact bytes (malloc'd). A new shape's first run may take the
** generic kernels, its stages named "q_scan (generic)": the stage's name
** is the part before the space. */
static char *session_kernels(const starqd_proc *d, const char *zSql, double *prFact) {
  PGconn *c = starqd_connect(d);
  PGresult *r = PQexec(c, zSql);
  json_value *q = NULL;
  const json_value *pK;
  char zErr[256];
  strbuf s;
  ASSERT_EQ(PQresultStatus(r), PGRES_TUPLES_OK);
  PQclear(r);
  r = PQexec(c, "SHOW starq.last_query");
  ASSERT_EQ(PQresultStatus(r), PGRES_TUPLES_OK);
  if (json_parse(PQgetvalue(r, 0, 0), strlen(PQgetvalue(r, 0, 0)), &q, zErr, sizeof(zErr)) != 0) {
    FAIL("last_query: %s", zErr);
  }
  pK = json_get(q, "kernels");
  ASSERT(pK != NULL && pK->eKind == JSON_ARRAY && pK->n > 0);
  strbuf_init(&s);
  for (int i = 0; i < pK->n; i++) {
    const char *zName = json_str(json_get(&pK->a[i], "name"), "?");
    strbuf_printf(&s, "%s%.*s", i ? " " : "", (int)strcspn(zName, " "), zName);
  }
  *prFact = json_num(json_get(q, "fact_bytes"), -1);
  json_value_free(q);
  PQclear(r);
  PQfinish(c);
  return strbuf_take(&s);
}

TEST_IMPL(starq_cli_explain_status) {
  static const char zSql[] =
    "SELECT lo_quantity, count(*) AS n FROM lineorder WHERE lo_quantity < 4 GROUP BY lo_quantity ORDER BY 1";
  starqd_proc d;
  test_proc p, want;
  long long nLine = 0;
  int nRow = 0;
  double rFact = 0;
  char *zKernels, *zLine, zWant[128];
  cli_server(&d);
  nLine = session_expected_int("SELECT count(*) FROM lineorder");
  zKernels = session_kernels(&d, zSql, &rFact);
  {
    unsigned *aType = NULL;
    int nCol = 0;
    char *z = starqd_expected("data", zSql, &aType, &nCol);
    for (char *zNl = z; (zNl = strchr(zNl, '\n')) != NULL; zNl++) nRow++;
    ASSERT_GT(nRow, 1);
    free(z);
    free(aType);
  }
  /* One 4-byte column of the fact table is read: that many bytes plain,
  ** fewer when the loader packed it (FOR, storage/colfor.c). */
  ASSERT((long long)rFact > 0 && (long long)rFact <= 4 * nLine);

  /* The rows as psql prints them, then the plan and the figures. */
  {
    const char *azArg[] = {"-c", "\\explain", "-c", zSql, NULL}, *azPsql[] = {"-c", zSql, NULL};
    char *zRows, *z;
    ASSERT_EQ(cli_run(&want, "psql", &d, NULL, azPsql), 0);
    ASSERT_EQ(cli_starq(&p, &d, NULL, azArg), 0);
    zRows = strchr(p.zOut, '\n');
    ASSERT(zRows != NULL && strncmp(p.zOut, "Explain mode is on", 18) == 0);
    if (strncmp(zRows + 1, want.zOut, strlen(want.zOut)) != 0) FAIL("starq:\n%s\npsql:\n%s", p.zOut, want.zOut);
    z = zRows + 1 + strlen(want.zOut);
    ASSERT(strncmp(z, "Plan (EXPLAIN VERBOSE):\n", 24) == 0);
    ASSERT(strstr(z, "Scan lineorder") != NULL);
    ASSERT(strstr(z, "Generated source") == NULL);
    snprintf(zWant, sizeof(zWant), " for %d rows: prepare ", nRow);
    if (strstr(z, zWant) == NULL) FAIL("no \"%s\" in:\n%s", zWant, z);
    ASSERT(strstr(z, "\nKernels:\n") != NULL);
    for (char *zK = zKernels; (zLine = strtok(zK, " ")) != NULL; zK = NULL) {
      snprintf(zWant, sizeof(zWant), "\n  %s ", zLine);
      if (strstr(z, zWant) == NULL) FAIL("kernel %s missing in:\n%s", zLine, z);
    }
    ASSERT(rFact > 1e4 && rFact < 1e6);
    snprintf(zWant, sizeof(zWant), "\nScanned: %.1f kB (fact table %.1f kB)", rFact / 1000, rFact / 1000);
    if (strstr(z, zWant) == NULL) FAIL("no \"%s\" in:\n%s", zWant + 1, z);
    snprintf(zWant, sizeof(zWant), "\nBackend: %s (", starqd_backend());
    ASSERT(strstr(z, zWant) != NULL);
    ASSERT(strstr(z, "\nFloors: PCIe (zero-copy) ") != NULL);
    test_proc_free(&p);
    test_proc_free(&want);
  }
  /* A run on the generic kernels says so (starq.generic_always: on any
  ** backend; on a GPU a new shape's first run is one). */
  {
    const char *azArg[] = {"-c", "SET starq.generic_always = on", "-c", "\\explain", "-c", zSql, NULL};
    ASSERT_EQ(cli_starq(&p, &d, NULL, azArg), 0);
    if (strstr(p.zOut, ", generic kernels), kernels ") == NULL) FAIL("starq:\n%s", p.zOut);
    test_proc_free(&p);
  }
  /* Nothing more after a failed SELECT, a command, or two statements. */
  {
    const char *azArg[] = {"-c", "\\explain on", "-c", "SELECT nope FROM lineorder", "-c",
                           "CREATE TABLE e1 (a INTEGER)", "-c", "SELECT 1; SELECT 2", "-c",
                           "\\explain off", "-c", zSql, "-c", "DROP TABLE e1", NULL};
    ASSERT_EQ(cli_starq(&p, &d, NULL, azArg), 0);
    ASSERT(strstr(p.zOut, "Plan (") == NULL && strstr(p.zOut, "Server:") == NULL);
    ASSERT(strstr(p.zOut, "Explain mode is off.\n") != NULL);
    ASSERT(strstr(p.zErr, "ERROR:  column \"nope\" does not exist\nLINE 1: SELECT nope FROM lineorder\n") == p.zErr);
    test_proc_free(&p);
  }

  /* \status: every table with its rows, the backend, a session. */
  {
    const char *azArg[] = {"-c", zSql, "-c", "\\status", NULL};
    static const char *const azTable[] = {"lineorder", "part", "supplier", "customer", "date", "tricky"};
    ASSERT_EQ(cli_starq(&p, &d, NULL, azArg), 0);
    ASSERT(strstr(p.zOut, "starq 0.1.0, up ") != NULL);
    snprintf(zWant, sizeof(zWant), "\nBackend: %s (", starqd_backend());
    ASSERT(strstr(p.zOut, zWant) != NULL);
    ASSERT(strstr(p.zOut, "\nSessions: ") != NULL && strstr(p.zOut, "\nKernel cache: ") != NULL);
    ASSERT(strstr(p.zOut, "   Table   | Rows  |  Pinned  | Resident \n") != NULL);
    for (size_t i = 0; i < sizeof(azTable) / sizeof(azTable[0]); i++) {
      char zCount[128];
      snprintf(zCount, sizeof(zCount), "SELECT count(*) FROM %s", azTable[i]);
      snprintf(zWant, sizeof(zWant), "\n %-9s | %5lld | ", azTable[i], session_expected_int(zCount));
      if (strstr(p.zOut, zWant) == NULL) FAIL("no \"%s\" in:\n%s", zWant + 1, p.zOut);
    }
    ASSERT(strstr(p.zOut, "Recent queries (newest first):\n") != NULL);
    ASSERT(strstr(p.zOut, "SELECT lo_quantity, count(*)") != NULL);
    test_proc_free(&p);
  }
  free(zKernels);
  starqd_expected_close();
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}

/* Reads the terminal into *ps until zWant appears after byte iFrom (or
** the terminal closes). Fails the test after 60 s. Returns the offset
** just past zWant. */
static size_t session_expect(int fd, strbuf *ps, size_t iFrom, const char *zWant) {
  time_t tEnd = time(NULL) + 60;
  for (;;) {
    const char *z = ps->n > iFrom ? strstr(strbuf_str(ps) + iFrom, zWant) : NULL;
    struct pollfd pfd = {fd, POLLIN, 0};
    char aBuf[4096];
    ssize_t n;
    if (z != NULL) return (size_t)(z - strbuf_str(ps)) + strlen(zWant);
    if (time(NULL) > tEnd) FAIL("waited for \"%s\"; the terminal shows:\n%s", zWant, strbuf_str(ps));
    if (poll(&pfd, 1, 1000) <= 0) continue;
    n = read(fd, aBuf, sizeof(aBuf));
    if (n <= 0) FAIL("the terminal closed before \"%s\":\n%s", zWant, strbuf_str(ps));
    strbuf_append(ps, aBuf, (size_t)n);
  }
}

/* Types zText into the terminal. */
static void session_type(int fd, const char *zText) {
  ASSERT_EQ(write(fd, zText, strlen(zText)), (ssize_t)strlen(zText));
}

TEST_IMPL(starq_cli_interactive) {
  starqd_proc d;
  strbuf screen;
  int fdMaster, pid, st;
  size_t i;
  char zPort[16], zWant[64], *zHistory;
  long long nPart;
  cli_server(&d);
  nPart = session_expected_int("SELECT count(*) FROM part");
  snprintf(zPort, sizeof(zPort), "%d", d.iPort);
  fdMaster = posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT(fdMaster >= 0);
  ASSERT_EQ(grantpt(fdMaster), 0);
  ASSERT_EQ(unlockpt(fdMaster), 0);
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  ASSERT(pid >= 0);
  if (pid == 0) {
    int fdSlave;
    setsid();
    fdSlave = open(ptsname(fdMaster), O_RDWR);
    if (fdSlave < 0) _exit(126);
    dup2(fdSlave, 0);
    dup2(fdSlave, 1);
    dup2(fdSlave, 2);
    close(fdMaster);
    /* History goes to the scratch directory. */
    setenv("HOME", ".", 1);
    setenv("TERM", "dumb", 1);
    unsetenv("STARQ_HISTORY");
    execl(test_bin("starq"), "starq", "-h", "127.0.0.1", "-p", zPort, (char *)NULL);
    _exit(127);
  }
  strbuf_init(&screen);
  i = session_expect(fdMaster, &screen, 0, "starq=> ");
  session_type(fdMaster, "SELECT count(*)\n");
  i = session_expect(fdMaster, &screen, i, "starq-> ");
  session_type(fdMaster, "FROM part;\n");
  snprintf(zWant, sizeof(zWant), " %lld\r\n(1 row)\r\n", nPart);
  i = session_expect(fdMaster, &screen, i, zWant);
  i = session_expect(fdMaster, &screen, i, "starq=> ");
  session_type(fdMaster, "SELECT 'open\n");
  i = session_expect(fdMaster, &screen, i, "starq'> ");
  session_type(fdMaster, "quote' AS q FROM nowhere;\n");
  i = session_expect(fdMaster, &screen, i, "ERROR:  ");
  i = session_expect(fdMaster, &screen, i, "starq=> ");
  session_type(fdMaster, "\\q\n");
  ASSERT_EQ(waitpid(pid, &st, 0), pid);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) FAIL("starq ended with %d:\n%s", st, strbuf_str(&screen));
  close(fdMaster);
  strbuf_free(&screen);
  /* libedit's history file: a statement per entry, blanks as \040. */
  zHistory = test_file_read(".starq_history", NULL);
  if (strstr(zHistory, "SELECT\\040count(*)") == NULL || strstr(zHistory, "\\134q") == NULL) {
    FAIL("history:\n%s", zHistory);
  }
  free(zHistory);
  starqd_expected_close();
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}
