/*
** tests/test-daemon-ops.c — starqd as an operator runs it: killing the
** server leaves no device worker and no compiler behind.
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/timer.h"
#include "starqd-fixture.h"
#include "test.h"

/* Returns the pid of the child of iParent named zComm, or 0. */
static int ops_child_find(int iParent, const char *zComm) {
  DIR *d = opendir("/proc");
  struct dirent *e;
  int pidFound = 0;
  ASSERT(d != NULL);
  while (pidFound == 0 && (e = readdir(d)) != NULL) {
    char zPath[300], zLine[512], zName[64];
    int pid = atoi(e->d_name), ppid = 0;
    FILE *f;
    if (pid <= 0) continue;
    snprintf(zPath, sizeof(zPath), "/proc/%d/stat", pid);
    if ((f = fopen(zPath, "r")) == NULL) continue;
    if (fgets(zLine, sizeof(zLine), f) != NULL && strrchr(zLine, ')') != NULL) {
      char *zOpen = strchr(zLine, '('), *zClose = strrchr(zLine, ')');
      snprintf(zName, sizeof(zName), "%.*s", (int)(zClose - zOpen - 1), zOpen + 1);
      ppid = atoi(zClose + 4);
      if (ppid == iParent && strcmp(zName, zComm) == 0) pidFound = pid;
    }
    fclose(f);
  }
  closedir(d);
  return pidFound;
}

/* Waits up to rSeconds for zPath to hold a pid, and returns it. */
static int ops_pid_file_wait(const char *zPath, double rSeconds) {
  for (double tEnd = timer_now() + rSeconds; timer_now() < tEnd; usleep(20 * 1000)) {
    FILE *f = fopen(zPath, "r");
    int pid = 0;
    if (f == NULL) continue;
    if (fscanf(f, "%d", &pid) != 1) pid = 0;
    fclose(f);
    if (pid > 0) return pid;
  }
  FAIL("no pid in %s after %.0f s", zPath, rSeconds);
  return 0;
}

/* A cc that compiles as the system's does, except a module that reads
** lo_shippriority, which it "compiles" for ten minutes: itself and its
** cc1 (a sleep) write their pids. */
static void ops_slow_cc_write(const char *zDir) {
  char zPath[PATH_MAX];
  FILE *f;
  snprintf(zPath, sizeof(zPath), "%s/bin", zDir);
  ASSERT_EQ(mkdir(zPath, 0755), 0);
  snprintf(zPath, sizeof(zPath), "%s/bin/cc", zDir);
  f = fopen(zPath, "w");
  ASSERT(f != NULL);
  fprintf(f,
          "#!/bin/sh\n"
          "for a; do case $a in *.c) src=$a;; esac; done\n"
          "if [ -n \"$src\" ] && grep -q lo_shippriority \"$src\"; then\n"
          "  sleep 600 &\n"
          "  echo $! > %s/cc1.pid\n"
          "  echo $$ > %s/cc.pid\n"
          "  wait\n"
          "  exit 1\n"
          "fi\n"
          "exec /usr/bin/cc \"$@\"\n",
          zDir, zDir);
  ASSERT_EQ(fclose(f), 0);
  ASSERT_EQ(chmod(zPath, 0755), 0);
}

/* starqd killed by SIGKILL while its worker compiles a query's kernels:
** the worker (the parent-death signal) and the compiler with its child
** (their process group) are gone within half a minute, not after the
** compile's ten minutes. The CPU backend's compiler only: on a GPU the
** compile is NVRTC's, in the worker's own process. */
TEST_IMPL(daemon_kill_leftovers) {
  char zDir[PATH_MAX - 64], zPath[PATH_MAX + 64];
  const char *zOldPath = getenv("PATH");
  char *zSavedPath = strdup(zOldPath != NULL ? zOldPath : "/usr/bin:/bin");
  int pidWorker, pidCc, pidCc1;
  starqd_proc d;
  PGconn *c;
  PGresult *res;
  if (strcmp(starqd_backend(), "cpu") != 0) {
    free(zSavedPath);
    return 0;
  }
  starqd_data("data");
  ASSERT(getcwd(zDir, sizeof(zDir)) != NULL);
  ops_slow_cc_write(zDir);
  snprintf(zPath, sizeof(zPath), "%s/bin:%s", zDir, zSavedPath);
  setenv("PATH", zPath, 1);
  starqd_start(&d, "data", NULL);
  setenv("PATH", zSavedPath, 1);
  free(zSavedPath);
  pidWorker = ops_child_find(d.pid, "starq-worker");
  ASSERT_GT(pidWorker, 0);

  c = starqd_connect(&d);
  res = PQexec(c, "SET starq.generic_kernels = off");
  ASSERT_EQ(PQresultStatus(res), PGRES_COMMAND_OK);
  PQclear(res);
  ASSERT_EQ(PQsendQuery(c, "SELECT max(lo_shippriority) FROM lineorder WHERE lo_quantity < 3"), 1);
  snprintf(zPath, sizeof(zPath), "%s/cc.pid", zDir);
  pidCc = ops_pid_file_wait(zPath, 120);
  snprintf(zPath, sizeof(zPath), "%s/cc1.pid", zDir);
  pidCc1 = ops_pid_file_wait(zPath, 30);

  ASSERT_EQ(starqd_stop(&d, SIGKILL), 128 + SIGKILL);
  PQfinish(c);
  for (double tEnd = timer_now() + 30; timer_now() < tEnd; usleep(20 * 1000)) {
    if (test_pid_gone(pidWorker) && test_pid_gone(pidCc) && test_pid_gone(pidCc1)) return 0;
  }
  FAIL("30 s after starqd was killed: worker %s, cc %s, cc1 %s",
       test_pid_gone(pidWorker) ? "gone" : "running", test_pid_gone(pidCc) ? "gone" : "running",
       test_pid_gone(pidCc1) ? "gone" : "running");
  return 0;
}
