/*
** tests/runner.c — runs the tests listed in test-list.h.
**
**   run-tests [NAME ...]
**
** With no names it runs every test; with names, only those. Each test runs
** in a child process that leads its own process group, inside a fresh
** scratch directory, with stdout and stderr sent to a log. The parent waits
** up to the test's time limit, then kills the whole group (so programs the
** test started die with it). A test passes when its child exits 0. The log
** of a failed test is printed under its line. The last line is the plain
** "N passed, N failed" that CI reads; the exit code is 1 if any failed.
**
** STARQ_BIN names the folder of binaries under test and STARQ_SRC the
** source tree; by default they are ../bin beside this program and three
** folders up, which is how the Makefile lays builds out.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/fsdir.h"
#include "test-list.h"

typedef struct test_entry test_entry;
struct test_entry {
  const char *zName;        /* name as listed */
  int (*xRun)(void);        /* the test body; 0 means pass */
  int nTimeout;             /* seconds before the runner kills it */
};

#define TEST_ENTRY(name, timeout) {#name, test_##name, timeout},
static const test_entry aTest[] = {TEST_LIST(TEST_ENTRY)};
#define N_TEST ((int)(sizeof(aTest) / sizeof(aTest[0])))

static double runner_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Copies the log to stdout, each line indented, so a failure reads in place. */
static void runner_log_print(const char *zLog) {
  FILE *f = fopen(zLog, "r");
  char zLine[4096];
  if (f == NULL) return;
  while (fgets(zLine, sizeof(zLine), f) != NULL) {
    printf("    %s", zLine);
    if (zLine[strlen(zLine) - 1] != '\n') putchar('\n');
  }
  fclose(f);
}

/* Runs one test in a child, prints its result line (and its log if it
** failed), and returns 0 if it passed. */
static int runner_test_run(const test_entry *t, int iNum) {
  const char *zTmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char zDir[PATH_MAX], zLog[PATH_MAX], zWhy[512] = "";
  size_t nWhy = sizeof(zWhy);
  int fdLog, status = 0, rc = 1, bReaped = 0;
  pid_t pid;
  double t0 = runner_now(), tEnd;

  printf("%-4d %-40s ", iNum, t->zName);

  snprintf(zDir, sizeof(zDir), "%s/starq-test-XXXXXX", zTmp);
  snprintf(zLog, sizeof(zLog), "%s/starq-test-log-XXXXXX", zTmp);
  if (mkdtemp(zDir) == NULL || (fdLog = mkstemp(zLog)) < 0) {
    printf("FAILED: scratch space in %s: %s\n", zTmp, strerror(errno));
    return 1;
  }
  fflush(stdout);
  pid = fork();
  if (pid < 0) {
    snprintf(zWhy, nWhy, "fork: %s", strerror(errno));
    goto out_remove;
  }
  if (pid == 0) {
    setpgid(0, 0);
    if (chdir(zDir) != 0) _exit(125);
    dup2(fdLog, STDOUT_FILENO);
    dup2(fdLog, STDERR_FILENO);
    setvbuf(stdout, NULL, _IONBF, 0);
    exit(t->xRun());
  }
  setpgid(pid, pid);
  tEnd = runner_now() + t->nTimeout;
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) {
      bReaped = 1;
      break;
    }
    if (r < 0 && errno != EINTR) {
      snprintf(zWhy, nWhy, "waitpid: %s", strerror(errno));
      goto out_kill;
    }
    if (runner_now() > tEnd) {
      snprintf(zWhy, nWhy, "timed out after %d s", t->nTimeout);
      goto out_kill;
    }
    usleep(10000);
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    rc = 0;
  } else if (WIFEXITED(status)) {
    snprintf(zWhy, nWhy, "exit code %d", WEXITSTATUS(status));
  } else {
    snprintf(zWhy, nWhy, "killed by signal %d (%s)", WTERMSIG(status),
             strsignal(WTERMSIG(status)));
  }
out_kill:
  /* Whatever the test started in its group goes too, pass or fail. */
  kill(-pid, SIGKILL);
  if (!bReaped) waitpid(pid, &status, 0);
out_remove:
  if (rc == 0) {
    printf("ok     %6.2f s\n", runner_now() - t0);
  } else {
    printf("FAILED %6.2f s: %s\n", runner_now() - t0, zWhy);
    runner_log_print(zLog);
  }
  close(fdLog);
  unlink(zLog);
  if (getenv("STARQ_TEST_KEEP") == NULL) fsdir_remove(zDir);
  else printf("     kept %s\n", zDir);
  return rc;
}

/* Points STARQ_BIN at ../bin beside this program and STARQ_SRC at the
** source tree three levels up (build/<flavour>/tests/run-tests), unless
** they are set already. */
static void runner_paths_default(const char *zArgv0) {
  char zSelf[PATH_MAX], zPath[PATH_MAX + 16];
  char *zSlash;
  if (realpath(zArgv0, zSelf) == NULL) return;
  zSlash = strrchr(zSelf, '/');
  if (zSlash == NULL) return;
  *zSlash = 0;
  snprintf(zPath, sizeof(zPath), "%s/../bin", zSelf);
  setenv("STARQ_BIN", zPath, 0);
  snprintf(zPath, sizeof(zPath), "%s/../../..", zSelf);
  if (realpath(zPath, zSelf) != NULL) setenv("STARQ_SRC", zSelf, 0);
}

static int runner_selected(const char *zName, int argc, char **argv) {
  if (argc <= 1) return 1;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], zName) == 0) return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  int nPass = 0, nFail = 0, iNum = 0;

  for (int i = 1; i < argc; i++) {
    int bKnown = 0;
    for (int j = 0; j < N_TEST; j++) bKnown |= !strcmp(argv[i], aTest[j].zName);
    if (!bKnown) {
      fprintf(stderr, "run-tests: no test named \"%s\"\n", argv[i]);
      return 2;
    }
  }
  runner_paths_default(argv[0]);
  signal(SIGPIPE, SIG_IGN);
  for (int i = 0; i < N_TEST; i++) {
    if (!runner_selected(aTest[i].zName, argc, argv)) continue;
    if (runner_test_run(&aTest[i], ++iNum) == 0) {
      nPass++;
    } else {
      nFail++;
    }
  }
  printf("%d passed, %d failed\n", nPass, nFail);
  return nFail ? 1 : 0;
}
