/*
** tests/test-session-psql.c — the real psql (libpq 15) against a session
** on the fake engine, over a TCP socket on loopback served by a plain
** blocking loop in a child process: libuv-free, so the protocol core is
** checked against the reference client before the daemon exists. The
** daemon's own tests will do the same through starqd.
*/
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../server/scram.h"
#include "pgclient.h"
#include "test.h"

/* Writes all of a[0..n) to fd. Returns 0 or -1. */
static int write_all(int fd, const char *a, size_t n) {
  while (n > 0) {
    ssize_t k = write(fd, a, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    a += k;
    n -= (size_t)k;
  }
  return 0;
}

/* One connection: read, feed, write what the session says, until it
** closes or the peer goes. The fake engine answers at once. */
static void serve_one(int fd, const pg_session_config *pCfg) {
  pgc c;
  pgc_open(&c, pCfg);
  for (;;) {
    char aBuf[4096];
    ssize_t n;
    size_t nOut;
    const void *p;
    while ((p = pg_session_output(c.s, &nOut)) != NULL) {
      if (write_all(fd, p, nOut) != 0) break;
      pg_session_output_done(c.s, nOut);
    }
    if (pg_session_flags(c.s) & PG_SESSION_CLOSE) break;
    n = read(fd, aBuf, sizeof(aBuf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pg_session_feed(c.s, aBuf, (size_t)n);
  }
  pgc_close_all(&c);
}

static int serve_verifier(void *pCtx, const char *zUser, char *zOut, size_t nOut) {
  (void)pCtx;
  if (strcmp(zUser, "starq") != 0) return -1;
  return scram_verifier_make("s3cret", NULL, 0, 4096, zOut, nOut);
}

/* Forks a server on a fresh loopback port; returns its pid and the port. */
static pid_t serve_start(int bScram, int *piPort) {
  struct sockaddr_in addr;
  socklen_t nAddr = sizeof(addr);
  pg_session_config cfg;
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  pid_t pid;

  ASSERT(fd >= 0);
  memset(&addr, 0, sizeof(addr));
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
  ASSERT_EQ(listen(fd, 8), 0);
  ASSERT_EQ(getsockname(fd, (struct sockaddr *)&addr, &nAddr), 0);
  *piPort = ntohs(addr.sin_port);
  pg_session_config_default(&cfg);
  cfg.bLoopback = 1;
  cfg.eAuth = bScram ? PG_AUTH_SCRAM : PG_AUTH_TRUST_LOOPBACK;
  cfg.xVerifier = serve_verifier;
  cfg.iPid = 77;
  cfg.iSecret = 78;
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  ASSERT(pid >= 0);
  if (pid == 0) {
    for (;;) {
      int fdConn = accept(fd, NULL, NULL);
      if (fdConn < 0) _exit(errno == EINTR ? 0 : 1);
      serve_one(fdConn, &cfg);
      close(fdConn);
    }
  }
  close(fd);
  return pid;
}

static void serve_stop(pid_t pid) {
  kill(pid, SIGKILL);
  test_wait((int)pid);
}

/* Finds psql on PATH (the set-up step installs it). */
static const char *psql_path(void) {
  static char zPath[PATH_MAX];
  const char *zEnv = getenv("PATH");
  char *zCopy = strdup(zEnv != NULL ? zEnv : "/usr/bin:/bin");
  char *zSave = NULL;
  ASSERT(zCopy != NULL);
  for (char *zDir = strtok_r(zCopy, ":", &zSave); zDir != NULL; zDir = strtok_r(NULL, ":", &zSave)) {
    snprintf(zPath, sizeof(zPath), "%s/psql", zDir);
    if (access(zPath, X_OK) == 0) {
      free(zCopy);
      return zPath;
    }
  }
  free(zCopy);
  FAIL("psql is not on PATH (scripts/setup.sh installs postgresql-client)");
}

/* Runs psql -X -w -A -t against the port with the extra arguments. */
static int psql_run(test_proc *p, int iPort, const char *zArg1, const char *zArg2) {
  char zPort[16];
  const char *argv[] = {psql_path(), "-X", "-w", "-A", "-t", "-h", "127.0.0.1", "-p", zPort,
                        "-U", "starq", "-d", "starq", zArg1, zArg2, NULL};
  snprintf(zPort, sizeof(zPort), "%d", iPort);
  return test_run(p, argv);
}

static void expect_psql(int iPort, const char *zArg1, const char *zArg2, const char *zOut) {
  test_proc p;
  if (psql_run(&p, iPort, zArg1, zArg2) != 0 || strcmp(p.zOut, zOut) != 0) {
    FAIL("psql %s \"%s\" exited %d\nstdout:\n%s\nstderr:\n%s\nwanted stdout:\n%s", zArg1, zArg2,
         p.rc, p.zOut, p.zErr, zOut);
  }
  test_proc_free(&p);
}

TEST_IMPL(session_psql) {
  FILE *f;
  test_proc p;
  int iPort;
  pid_t pid;

  setenv("PGCONNECT_TIMEOUT", "5", 1);
  unsetenv("PGPASSWORD");
  unsetenv("PGSERVICE");
  pid = serve_start(0, &iPort);

  /* Several statements in one -c: psql 15 prints each result. */
  expect_psql(iPort, "-c", "SELECT 1; SELECT 2", "1\n2\n");
  expect_psql(iPort, "-c", "ROWS 2",
              "1|row1|0.5|f|2000-01-02|10000000000|1\n2|row2|1|t|2000-01-03|20000000000|2\n");
  expect_psql(iPort, "-c", "BEGIN; SELECT 3; COMMIT", "BEGIN\n3\nCOMMIT\n");

  /* An error: psql shows the message, the position under the line, the
  ** detail and the hint, and fails. */
  ASSERT_EQ(psql_run(&p, iPort, "-c", "SELECT 1; ERROR 3"), 1);
  ASSERT_STR_EQ(p.zOut, "1\n");
  if (strstr(p.zErr, "ERROR:  fake error\nLINE 1: SELECT 1; ERROR 3\n") == NULL ||
      strstr(p.zErr, "\n" "                    ^\n") == NULL ||   /* 8 + 12 */
      strstr(p.zErr, "DETAIL:  fake detail\nHINT:  fake hint") == NULL) {
    FAIL("psql said:\n%s", p.zErr);
  }
  test_proc_free(&p);

  /* COPY FROM STDIN in a script, as psql and \copy send data. The fake
  ** counts lines, and psql 15 sends the "\." that ends the data as a line
  ** of it: the engine's COPY reader must stop there, as PostgreSQL's does. */
  f = fopen("copy.sql", "w");
  ASSERT(f != NULL);
  fputs("COPY;\n1\ta\n2\tb\n\\.\n\\copy t from stdin\n3\tc\n\\.\nSELECT 5;\n", f);
  fclose(f);
  expect_psql(iPort, "-f", "copy.sql", "COPY 3\nCOPY 2\n5\n");
  serve_stop(pid);

  /* SCRAM-SHA-256 with libpq's client side. */
  pid = serve_start(1, &iPort);
  setenv("PGPASSWORD", "s3cret", 1);
  expect_psql(iPort, "-c", "SELECT 6", "6\n");
  setenv("PGPASSWORD", "wrong", 1);
  ASSERT_EQ(psql_run(&p, iPort, "-c", "SELECT 6"), 2);
  if (strstr(p.zErr, "password authentication failed for user \"starq\"") == NULL) {
    FAIL("psql said:\n%s", p.zErr);
  }
  test_proc_free(&p);
  unsetenv("PGPASSWORD");
  serve_stop(pid);
  return 0;
}
