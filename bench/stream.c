/*
** bench/stream.c — how a large result reaches a client: one query through
** libpq in single-row mode against a running starqd, timing its first row
** (from the Query sent) and its last, counting rows and value bytes (a
** COPY ... TO STDOUT: its CopyData lines and bytes), and
** sampling the resident memory of the server's processes (the daemon and
** its device worker) while it runs: their growth over what they held
** before the query is what the result costs the server. The floor beside
** the throughput is libpq's own: the same client reading the bytes as
** fast as it can parse them, so MB/s here is the whole path's.
**
**   build/release/bench/stream --port N --pid PID [--sql TEXT] [--runs N]
**
** PID is starqd's; its children (/proc/PID/task/PID/children) are
** counted with it.
*/
#include <inttypes.h>
#include <postgresql/libpq-fe.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "../common/procmem.h"

static double stream_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The sampler: the peak of the server's resident bytes every 10 ms. */
typedef struct stream_sampler stream_sampler;
struct stream_sampler {
  int pid;
  _Atomic int bStop;
  _Atomic int64_t nPeak;
};

static void *stream_sample(void *pArg) {
  stream_sampler *s = pArg;
  while (!atomic_load(&s->bStop)) {
    int64_t n = procmem_rss_tree(s->pid);
    if (n > atomic_load(&s->nPeak)) atomic_store(&s->nPeak, n);
    usleep(10 * 1000);
  }
  return NULL;
}

static void stream_usage(void) {
  fprintf(stderr, "usage: stream --port N --pid PID [--host H] [--sql TEXT] [--runs N]\n");
  exit(2);
}

int main(int argc, char **argv) {
  const char *zHost = "127.0.0.1", *zSql = "SELECT * FROM lineorder";
  int iPort = 0, pid = 0, nRun = 3, bCopy;
  char zInfo[512];
  PGconn *c;
  for (int i = 1; i < argc; i++) {
    if (i + 1 >= argc) stream_usage();
    if (strcmp(argv[i], "--port") == 0) iPort = atoi(argv[++i]);
    else if (strcmp(argv[i], "--pid") == 0) pid = atoi(argv[++i]);
    else if (strcmp(argv[i], "--host") == 0) zHost = argv[++i];
    else if (strcmp(argv[i], "--sql") == 0) zSql = argv[++i];
    else if (strcmp(argv[i], "--runs") == 0) nRun = atoi(argv[++i]);
    else stream_usage();
  }
  if (iPort <= 0 || pid <= 0 || nRun <= 0) stream_usage();
  snprintf(zInfo, sizeof(zInfo), "host=%s port=%d user=starq dbname=starq sslmode=disable",
           zHost, iPort);
  c = PQconnectdb(zInfo);
  if (PQstatus(c) != CONNECTION_OK) {
    fprintf(stderr, "stream: %s", PQerrorMessage(c));
    return 1;
  }
  bCopy = strncasecmp(zSql, "copy", 4) == 0;
  printf("%s\n", zSql);
  for (int iRun = 0; iRun < nRun; iRun++) {
    stream_sampler s = {.pid = pid};
    pthread_t th;
    PGresult *res;
    int64_t nRow = 0, nByte = 0, nBase = procmem_rss_tree(pid);
    double t0, tFirst = -1, tEnd;
    int bOk = 1;
    atomic_store(&s.nPeak, nBase);
    if (pthread_create(&th, NULL, stream_sample, &s) != 0) return 1;
    t0 = stream_now();
    if (bCopy) {
      /* COPY ... TO STDOUT: its CopyData, as psql's \copy reads them. */
      char *p;
      int n;
      res = PQexec(c, zSql);
      if (PQresultStatus(res) != PGRES_COPY_OUT) {
        fprintf(stderr, "stream: %s", PQresultErrorMessage(res));
        return 1;
      }
      PQclear(res);
      while ((n = PQgetCopyData(c, &p, 0)) > 0) {
        if (tFirst < 0) tFirst = stream_now() - t0;
        nRow++;
        nByte += n;
        PQfreemem(p);
      }
      while ((res = PQgetResult(c)) != NULL) {
        if (PQresultStatus(res) != PGRES_COMMAND_OK) {
          fprintf(stderr, "stream: %s", PQresultErrorMessage(res));
          bOk = 0;
        }
        PQclear(res);
      }
    } else if (!PQsendQuery(c, zSql) || !PQsetSingleRowMode(c)) {
      fprintf(stderr, "stream: %s", PQerrorMessage(c));
      return 1;
    }
    while (!bCopy && (res = PQgetResult(c)) != NULL) {
      ExecStatusType e = PQresultStatus(res);
      if (e == PGRES_SINGLE_TUPLE) {
        if (tFirst < 0) tFirst = stream_now() - t0;
        nRow++;
        for (int k = 0; k < PQnfields(res); k++) nByte += PQgetlength(res, 0, k);
      } else if (e != PGRES_TUPLES_OK) {
        fprintf(stderr, "stream: %s", PQresultErrorMessage(res));
        bOk = 0;
      }
      PQclear(res);
    }
    tEnd = stream_now() - t0;
    atomic_store(&s.bStop, 1);
    pthread_join(th, NULL);
    if (!bOk) return 1;
    printf("run %d: first row %.3f s, last %.3f s, %" PRId64 " %s, %.1f MB %s "
           "(%.1f MB/s), server resident %.0f MB before, peak %.0f MB (+%.0f MB)\n",
           iRun + 1, tFirst, tEnd, nRow, bCopy ? "lines" : "rows", nByte / 1e6,
           bCopy ? "of COPY data" : "of values", nByte / 1e6 / tEnd, nBase / 1e6,
           atomic_load(&s.nPeak) / 1e6, (atomic_load(&s.nPeak) - nBase) / 1e6);
    fflush(stdout);
  }
  PQfinish(c);
  return 0;
}
