/*
** server/metrics-process.c — the process_* families every Prometheus
** client exports (resident and virtual memory, CPU seconds, open and
** most file descriptors), read from /proc at each scrape, and the device
** worker's restarts and resident memory beside them.
**
** Read at the scrape, not pushed: these are the kernel's counters, and a
** scrape every few seconds is the only reader. A file that cannot be read
** (no /proc) leaves its gauge as it was.
**
** INTERFACE ROUTINES
**   metrics_starq_process_refresh
*/
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "metrics-starq.h"

/* Reads /proc/PID/statm's first two fields (pages) into bytes. Returns 0
** or -1. */
static int metrics__statm(const char *zPid, double *pVirt, double *pRss) {
  char zPath[64];
  unsigned long long nVirt, nRss;
  long nPage = sysconf(_SC_PAGESIZE);
  FILE *f;
  int n;
  snprintf(zPath, sizeof(zPath), "/proc/%s/statm", zPid);
  if ((f = fopen(zPath, "re")) == NULL) return -1;
  n = fscanf(f, "%llu %llu", &nVirt, &nRss);
  fclose(f);
  if (n != 2 || nPage <= 0) return -1;
  *pVirt = (double)nVirt * (double)nPage;
  *pRss = (double)nRss * (double)nPage;
  return 0;
}

/* Reads this process's user + system CPU seconds from /proc/self/stat
** (fields 14 and 15, after the command name in parentheses). */
static int metrics__cpu(double *pSec) {
  char zLine[1024], *z;
  unsigned long long uUser, uSys;
  long nTick = sysconf(_SC_CLK_TCK);
  FILE *f = fopen("/proc/self/stat", "re");
  if (f == NULL) return -1;
  z = fgets(zLine, sizeof(zLine), f);
  fclose(f);
  if (z == NULL || (z = strrchr(zLine, ')')) == NULL || nTick <= 0) return -1;
  /* After ") ": state (3), then fields 4..13, then utime (14), stime (15). */
  if (sscanf(z + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &uUser, &uSys) != 2) {
    return -1;
  }
  *pSec = (double)(uUser + uSys) / (double)nTick;
  return 0;
}

/* Counts this process's open file descriptors (the directory's own
** included, as every client library counts it). */
static int metrics__fds(double *pn) {
  DIR *d = opendir("/proc/self/fd");
  struct dirent *e;
  int n = 0;
  if (d == NULL) return -1;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] != '.') n++;
  }
  closedir(d);
  *pn = n;
  return 0;
}

void metrics_starq_process_refresh(metrics_starq *p, int iWorkerPid, uint64_t nRestart) {
  double rVirt, rRss, rCpu, nFd;
  struct rlimit rl;
  if (metrics__statm("self", &rVirt, &rRss) == 0) {
    metric_gauge_set(p->pProcVirtual, 0, rVirt);
    metric_gauge_set(p->pProcRss, 0, rRss);
  }
  if (metrics__cpu(&rCpu) == 0) metric_counter_set_total(p->pProcCpu, 0, rCpu);
  if (metrics__fds(&nFd) == 0) metric_gauge_set(p->pProcFds, 0, nFd);
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
    metric_gauge_set(p->pProcMaxFds, 0, rl.rlim_cur == RLIM_INFINITY ? -1 : (double)rl.rlim_cur);
  }
  if (iWorkerPid > 0) {
    char zPid[16];
    snprintf(zPid, sizeof(zPid), "%d", iWorkerPid);
    if (metrics__statm(zPid, &rVirt, &rRss) == 0) metric_gauge_set(p->pWorkerRss, 0, rRss);
  } else {
    metric_gauge_set(p->pWorkerRss, 0, 0);
  }
  if (nRestart > p->nWorkerRestartsSeen) {
    metric_counter_add(p->pWorkerRestarts, 0, nRestart - p->nWorkerRestartsSeen);
    p->nWorkerRestartsSeen = nRestart;
  }
}
