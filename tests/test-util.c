/*
** tests/test-util.c — helpers that tests share: finding the binaries under
** test, running them with their output captured, reading files,
** looking into a SQLite file behind the catalog's back, and capturing the
** log.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/log.h"
#include "test.h"

const char *test_bin(const char *zName) {
  static char zPath[PATH_MAX];
  const char *zDir = getenv("STARQ_BIN");
  if (zDir == NULL) FAIL("STARQ_BIN is not set");
  snprintf(zPath, sizeof(zPath), "%s/%s", zDir, zName);
  return zPath;
}

const char *test_src(const char *zRel) {
  static char zPath[PATH_MAX];
  const char *zDir = getenv("STARQ_SRC");
  if (zDir == NULL) FAIL("STARQ_SRC is not set");
  snprintf(zPath, sizeof(zPath), "%s/%s", zDir, zRel);
  return zPath;
}

/* Reads what a child wrote to an unlinked temp file back into memory. */
static char *test__fd_slurp(int fd) {
  struct stat st;
  char *z;
  if (fstat(fd, &st) != 0) FAIL("fstat: %s", strerror(errno));
  z = malloc((size_t)st.st_size + 1);
  ASSERT(z != NULL);
  if (pread(fd, z, (size_t)st.st_size, 0) != st.st_size) FAIL("pread failed");
  z[st.st_size] = 0;
  return z;
}

static int test__tmpfd(void) {
  char zName[] = "/tmp/starq-proc-XXXXXX";
  int fd = mkstemp(zName);
  if (fd < 0) FAIL("mkstemp: %s", strerror(errno));
  unlink(zName);
  return fd;
}

/* Forks and execs argv with the given descriptors as stdin, stdout and
** stderr. Returns the child's pid. */
static pid_t test__start(const char *const *argv, int fdIn, int fdOut, int fdErr) {
  const char *zExe = strchr(argv[0], '/') ? argv[0] : test_bin(argv[0]);
  pid_t pid;
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid < 0) FAIL("fork: %s", strerror(errno));
  if (pid == 0) {
    dup2(fdIn, STDIN_FILENO);
    dup2(fdOut, STDOUT_FILENO);
    dup2(fdErr, STDERR_FILENO);
    execv(zExe, (char *const *)argv);
    fprintf(stderr, "exec %s: %s\n", zExe, strerror(errno));
    _exit(127);
  }
  return pid;
}

int test_run(test_proc *p, const char *const *argv) {
  int fdNull = open("/dev/null", O_RDWR | O_CLOEXEC);
  int fdOut = test__tmpfd(), fdErr = test__tmpfd();
  if (fdNull < 0) FAIL("open /dev/null: %s", strerror(errno));
  p->rc = test_wait((int)test__start(argv, fdNull, fdOut, fdErr));
  p->zOut = test__fd_slurp(fdOut);
  p->zErr = test__fd_slurp(fdErr);
  close(fdNull);
  close(fdOut);
  close(fdErr);
  return p->rc;
}

int test_spawn(const char *const *argv) {
  int fdNull = open("/dev/null", O_RDWR | O_CLOEXEC);
  pid_t pid;
  if (fdNull < 0) FAIL("open /dev/null: %s", strerror(errno));
  pid = test__start(argv, fdNull, fdNull, fdNull);
  close(fdNull);
  return (int)pid;
}

int test_wait(int pid) {
  int status;
  while (waitpid((pid_t)pid, &status, 0) < 0) {
    if (errno != EINTR) FAIL("waitpid: %s", strerror(errno));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int test_pid_gone(int pid) {
  char zPath[64], zLine[512], *z;
  FILE *f;
  snprintf(zPath, sizeof(zPath), "/proc/%d/stat", pid);
  if ((f = fopen(zPath, "r")) == NULL) return 1;
  z = fgets(zLine, sizeof(zLine), f);
  fclose(f);
  if (z == NULL || (z = strrchr(zLine, ')')) == NULL) return 1;
  return z[2] == 'Z' || z[2] == 'X';
}

void test_run_ok(const char *const *argv) {
  test_proc p;
  if (test_run(&p, argv) != 0) FAIL("%s failed (%d):\n%s%s", argv[0], p.rc, p.zOut, p.zErr);
  test_proc_free(&p);
}

void test_proc_free(test_proc *p) {
  free(p->zOut);
  free(p->zErr);
  p->zOut = p->zErr = NULL;
}

char *test_file_read(const char *zPath, size_t *pn) {
  int fd = open(zPath, O_RDONLY);
  struct stat st;
  char *z;
  size_t nDone = 0;
  if (fd < 0) FAIL("open %s: %s", zPath, strerror(errno));
  if (fstat(fd, &st) != 0) FAIL("fstat %s: %s", zPath, strerror(errno));
  z = malloc((size_t)st.st_size + 1);
  ASSERT(z != NULL);
  while (nDone < (size_t)st.st_size) {
    ssize_t n = read(fd, z + nDone, (size_t)st.st_size - nDone);
    if (n <= 0) FAIL("read %s: %s", zPath, n ? strerror(errno) : "short");
    nDone += (size_t)n;
  }
  z[nDone] = 0;
  close(fd);
  if (pn) *pn = nDone;
  return z;
}

int test_file_exists(const char *zPath) {
  struct stat st;
  return stat(zPath, &st) == 0;
}

int64_t test_sql_int(const char *zPath, const char *zSql) {
  sqlite3 *db;
  sqlite3_stmt *p;
  int64_t v;
  if (sqlite3_open_v2(zPath, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
    FAIL("open %s: %s", zPath, sqlite3_errmsg(db));
  }
  if (sqlite3_prepare_v2(db, zSql, -1, &p, NULL) != SQLITE_OK) {
    FAIL("%s: %s", zSql, sqlite3_errmsg(db));
  }
  if (sqlite3_step(p) != SQLITE_ROW) FAIL("%s: no row: %s", zSql, sqlite3_errmsg(db));
  v = sqlite3_column_int64(p, 0);
  sqlite3_finalize(p);
  sqlite3_close(db);
  return v;
}

void test_sql_exec(const char *zPath, const char *zSql) {
  sqlite3 *db;
  if (sqlite3_open(zPath, &db) != SQLITE_OK) FAIL("open %s: %s", zPath, sqlite3_errmsg(db));
  if (sqlite3_exec(db, zSql, NULL, NULL, NULL) != SQLITE_OK) {
    FAIL("%s: %s", zSql, sqlite3_errmsg(db));
  }
  sqlite3_close(db);
}

FILE *test_log_begin(int eLevel) {
  FILE *f = fopen("log.txt", "w");
  if (f == NULL) FAIL("log.txt: %s", strerror(errno));
  log_set_sink(f);
  log_set_level(eLevel);
  return f;
}

char *test_log_end(FILE *f) {
  log_set_sink(NULL);
  log_set_level(LOG_LEVEL_INFO);
  if (fclose(f) != 0) FAIL("log.txt: %s", strerror(errno));
  return test_file_read("log.txt", NULL);
}
