/*
** tests/test-daemon-ops.c — starqd as an operator runs it: killing the
** server leaves no device worker and no compiler behind; silent
** connections cannot keep real clients out; the status port, which needs
** no login, listens on loopback and shows no literals.
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/timer.h"
#include "http-fixture.h"
#include "promcheck.h"
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

/* Opens a TCP connection to the SQL port that never says a word. */
static int ops_silent_connect(int iPort) {
  struct sockaddr_in sa;
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT(fd >= 0);
  memset(&sa, 0, sizeof(sa));
  sa.sin_family = AF_INET;
  sa.sin_port = htons((uint16_t)iPort);
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
  return fd;
}

/* Returns 1 once the server has closed fd (end of stream or a reset). */
static int ops_closed_by_server(int fd) {
  struct pollfd p = {fd, POLLIN, 0};
  char c;
  if (poll(&p, 1, 0) <= 0) return 0;
  return recv(fd, &c, 1, MSG_DONTWAIT) <= 0;
}

/* Waits up to rSeconds for /metrics to show zSeries at least v. */
static void ops_metric_at_least(const starqd_proc *d, const char *zSeries, double v,
                                double rSeconds) {
  double got = -1;
  for (double tEnd = timer_now() + rSeconds;; usleep(50 * 1000)) {
    char *zResp = http_get(d->iHttpPort, "/metrics");
    int rc = promcheck_value(http_resp_body(zResp), zSeries, &got);
    free(zResp);
    if (rc == 0 && got >= v) return;
    if (timer_now() > tEnd) FAIL("%s is %g, wanted at least %g", zSeries, got, v);
  }
}

/* A slow-loris attack: 200 connections that never send a startup packet,
** against --max-connections 8. Logins in progress have slots of their
** own, the oldest of them closed past 8, so a real client gets in at once
** (three times); the silent ones still open are closed by
** --authentication-timeout; both kinds of refusal are counted. Idle
** connections to the status port cannot keep /livez out either. */
TEST_IMPL(daemon_slow_loris) {
  const char *azExtra[] = {"--max-connections", "8", "--authentication-timeout", "2", NULL};
  enum { nSilent = 200 };
  int aFd[nSilent];
  starqd_proc d;
  starqd_data("data");
  starqd_start(&d, "data", azExtra);
  for (int i = 0; i < nSilent; i++) aFd[i] = ops_silent_connect(d.iPort);
  for (int i = 0; i < 3; i++) {
    double t0 = timer_now();
    PGconn *c = starqd_connect(&d);
    PGresult *res = PQexec(c, "SELECT count(*) FROM supplier");
    ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
    PQclear(res);
    PQfinish(c);
    ASSERT_LT(timer_now() - t0, 30);   /* not after a timeout of theirs */
  }
  ops_metric_at_least(&d, "starq_connections_refused_total{reason=\"too_many_unauthenticated\"}",
                      nSilent - 8, 30);
  for (double tEnd = timer_now() + 60;; usleep(50 * 1000)) {
    int nOpen = 0;
    for (int i = 0; i < nSilent; i++) nOpen += aFd[i] >= 0 && !ops_closed_by_server(aFd[i]);
    if (nOpen == 0) break;
    if (timer_now() > tEnd) FAIL("%d silent connections still open after a minute", nOpen);
  }
  ops_metric_at_least(&d, "starq_connections_refused_total{reason=\"authentication_timeout\"}", 1,
                      30);
  /* The process's own families, read from /proc at the scrape, and the
  ** device worker's (tests run it: --device-worker 1 by default). */
  ops_metric_at_least(&d, "process_resident_memory_bytes", 1 << 20, 5);
  ops_metric_at_least(&d, "process_open_fds", 3, 5);
  ops_metric_at_least(&d, "process_max_fds", 3, 5);
  ops_metric_at_least(&d, "process_cpu_seconds_total", 0.01, 5);
  ops_metric_at_least(&d, "process_start_time_seconds", 1.7e9, 5);
  ops_metric_at_least(&d, "starq_worker_resident_memory_bytes", 1 << 20, 5);
  ops_metric_at_least(&d, "starq_worker_restarts_total", 0, 5);
  for (int i = 0; i < nSilent; i++) close(aFd[i]);
  /* The status port the same way: 100 idle connections, past its 64,
  ** do not keep a probe of /livez out. */
  for (int i = 0; i < 100; i++) aFd[i] = http_client_connect(d.iHttpPort);
  ASSERT_EQ(http_get_status(d.iHttpPort, "/livez"), 200);
  for (int i = 0; i < 100; i++) close(aFd[i]);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}

/* Returns a non-loopback IPv4 address of this host in zOut, or 0 if it
** has none. */
static int ops_other_addr(char *zOut, size_t nOut) {
  struct ifaddrs *pList, *p;
  int bFound = 0;
  if (getifaddrs(&pList) != 0) return 0;
  for (p = pList; p != NULL && !bFound; p = p->ifa_next) {
    const struct sockaddr_in *sa = (const struct sockaddr_in *)p->ifa_addr;
    if (sa == NULL || sa->sin_family != AF_INET) continue;
    if ((ntohl(sa->sin_addr.s_addr) >> 24) == 127) continue;
    bFound = inet_ntop(AF_INET, &sa->sin_addr, zOut, (socklen_t)nOut) != NULL;
  }
  freeifaddrs(pList);
  return bFound;
}

/* Returns the /status document's "recent" statements after running zSql
** with its parameters (nParam of them, may be 0). */
static char *ops_recent_after(const starqd_proc *d, PGconn *c, const char *zSql, int nParam,
                              const char *const *azParam) {
  PGresult *res = PQexecParams(c, zSql, nParam, NULL, azParam, NULL, NULL, 0);
  char *zResp, *z;
  ASSERT_EQ(PQresultStatus(res), PGRES_TUPLES_OK);
  PQclear(res);
  zResp = http_get(d->iHttpPort, "/status");
  z = strdup(http_resp_body(zResp));
  free(zResp);
  return z;
}

/* The status port binds 127.0.0.1 even when SQL listens everywhere, and
** another address of the host does not reach it; /status shows recent
** statements with their literals as $n unless --status-sql-literals 1. */
TEST_IMPL(daemon_status_private) {
  const char *azExtra[] = {"--listen", "0.0.0.0", "--status-sql-literals", "0", NULL};
  const char *azParam[] = {"7"};
  char zAddr[64], *zLog, *z;
  starqd_proc d;
  PGconn *c;
  starqd_data("data");
  starqd_start(&d, "data", azExtra);
  zLog = starqd_log(&d);
  ASSERT(strstr(zLog, "SQL on 0.0.0.0:") != NULL);
  ASSERT(strstr(zLog, ", status on http://127.0.0.1:") != NULL);
  free(zLog);
  if (ops_other_addr(zAddr, sizeof(zAddr))) {
    struct sockaddr_in sa;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)d.iHttpPort);
    ASSERT_EQ(inet_pton(AF_INET, zAddr, &sa.sin_addr), 1);
    ASSERT(connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0);
    close(fd);
  }
  c = starqd_connect(&d);
  z = ops_recent_after(&d, c, "SELECT count(*) FROM part WHERE p_size = 31 AND p_mfgr = 'MFGR#1'",
                       0, NULL);
  ASSERT(strstr(z, "\"sql\":\"SELECT count(*) FROM part WHERE p_size = $1 AND p_mfgr = $2\"") !=
         NULL);
  ASSERT(strstr(z, "MFGR#1") == NULL);
  free(z);
  z = ops_recent_after(&d, c, "SELECT count(*) FROM part WHERE p_size = $1 AND p_size < 40", 1,
                       azParam);
  ASSERT(strstr(z, "\"sql\":\"SELECT count(*) FROM part WHERE p_size = $1 AND p_size < $2\"") !=
         NULL);
  free(z);
  PQfinish(c);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);

  azExtra[3] = "1";   /* allowed: shown as sent */
  starqd_start(&d, "data", azExtra);
  c = starqd_connect(&d);
  z = ops_recent_after(&d, c, "SELECT count(*) FROM part WHERE p_mfgr = 'MFGR#1'", 0, NULL);
  ASSERT(strstr(z, "\"sql\":\"SELECT count(*) FROM part WHERE p_mfgr = 'MFGR#1'\"") != NULL);
  free(z);
  PQfinish(c);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
  return 0;
}
