/*
** common/procmem.c — a process's resident memory from /proc (procmem.h).
*/
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>

#include "procmem.h"

int64_t procmem_rss(int pid) {
  char zPath[64], zLine[256];
  int64_t nKb = -1;
  FILE *f;
  snprintf(zPath, sizeof(zPath), "/proc/%d/status", pid);
  if ((f = fopen(zPath, "r")) == NULL) return -1;
  while (fgets(zLine, sizeof(zLine), f) != NULL) {
    if (sscanf(zLine, "VmRSS: %" SCNd64 " kB", &nKb) == 1) break;
  }
  fclose(f);
  return nKb < 0 ? -1 : nKb * 1024;
}

int64_t procmem_rss_tree(int pid) {
  char zPath[96];
  int64_t n = procmem_rss(pid);
  struct dirent *pEnt;
  DIR *pDir;
  if (n < 0) return -1;
  /* A child is listed under the thread that started it. */
  snprintf(zPath, sizeof(zPath), "/proc/%d/task", pid);
  if ((pDir = opendir(zPath)) == NULL) return n;
  while ((pEnt = readdir(pDir)) != NULL) {
    FILE *f;
    int iChild;
    if (pEnt->d_name[0] == '.') continue;
    snprintf(zPath, sizeof(zPath), "/proc/%d/task/%s/children", pid, pEnt->d_name);
    if ((f = fopen(zPath, "r")) == NULL) continue;
    while (fscanf(f, "%d", &iChild) == 1) {
      int64_t m = procmem_rss(iChild);
      if (m > 0) n += m;
    }
    fclose(f);
  }
  closedir(pDir);
  return n;
}
