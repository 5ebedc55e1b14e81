/*
** bench/soak.c — a soak of a running starqd: --clients connections for
** --seconds, each looping over the SSB queries given and, at random, running
** one to its end (its answer compared with the one a single warm-up client
** got first), cancelling one after up to 200 ms, running one under a
** statement_timeout of 1 to 200 ms, or disconnecting in the middle of one
** and connecting again. At the end, after the server is idle again, it
** reads /metrics and the server's process tree: every answer right,
** resident memory flat after the warm-up, no compiler left running and one
** device worker.
**
**   soak --port P --http-port H --pid PID [--clients 64] [--seconds 600]
**        [--seed N] Q1.sql Q2.sql ...
**
** Exit status 0 when every answer was right and nothing leaked, 1 else.
*/
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <postgresql/libpq-fe.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../common/strbuf.h"
#include "../common/timer.h"

#define SOAK_QUERIES_MAX 64

/* What a run asks of the server. */
typedef struct soak_args soak_args;
struct soak_args {
  int iPort, iHttpPort, iPid, nClient;
  double secRun;
  uint64_t iSeed;
  int nQuery;
  char *azSql[SOAK_QUERIES_MAX];     /* owned */
  char *azWant[SOAK_QUERIES_MAX];    /* each query's answer as text; owned */
};

/* How the actions came out, over every client. */
typedef enum soak_outcome {
  SOAK_RIGHT, SOAK_WRONG, SOAK_CANCELLED, SOAK_TIMED_OUT, SOAK_DISCONNECTED,
  SOAK_ERROR, SOAK_N
} soak_outcome;
static const char *const soak_azOutcome[SOAK_N] = {"right", "WRONG", "cancelled",
                                                  "timed out", "disconnected", "ERROR"};
static _Atomic long soak_anOutcome[SOAK_N];

/* One client thread. */
typedef struct soak_client soak_client;
struct soak_client {
  const soak_args *pA;
  uint64_t iRng;
  pthread_t th;
};

/* The next pseudo-random number of *p (splitmix64). */
static uint64_t soak_rand(uint64_t *p) {
  uint64_t z = (*p += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static PGconn *soak_connect(const soak_args *a) {
  char zInfo[128];
  PGconn *c;
  snprintf(zInfo, sizeof(zInfo), "host=127.0.0.1 port=%d user=starq dbname=starq", a->iPort);
  c = PQconnectdb(zInfo);
  if (PQstatus(c) != CONNECTION_OK) {
    fprintf(stderr, "soak: connect: %s", PQerrorMessage(c));
    PQfinish(c);
    return NULL;
  }
  return c;
}

/* The rows of res as "v|v\n" lines, malloc'd. */
static char *soak_text(const PGresult *res) {
  strbuf s;
  strbuf_init(&s);
  for (int r = 0; r < PQntuples(res); r++) {
    for (int f = 0; f < PQnfields(res); f++) {
      strbuf_printf(&s, "%s%s", f ? "|" : "", PQgetisnull(res, r, f) ? "\\N" : PQgetvalue(res, r, f));
    }
    strbuf_puts(&s, "\n");
  }
  return strbuf_take(&s);
}

/* Reads every result of the query sent on c: right or wrong against
** zWant, or cancelled / timed out (57014), or an error. */
static soak_outcome soak_collect(PGconn *c, const char *zWant) {
  soak_outcome e = SOAK_ERROR;
  PGresult *res;
  while ((res = PQgetResult(c)) != NULL) {
    const char *zState = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    if (PQresultStatus(res) == PGRES_TUPLES_OK) {
      char *z = soak_text(res);
      e = strcmp(z, zWant) == 0 ? SOAK_RIGHT : SOAK_WRONG;
      free(z);
    } else if (zState != NULL && strcmp(zState, "57014") == 0) {
      e = strstr(PQresultErrorMessage(res), "timeout") != NULL ? SOAK_TIMED_OUT : SOAK_CANCELLED;
    } else {
      fprintf(stderr, "soak: %s", PQresultErrorMessage(res));
    }
    PQclear(res);
  }
  return e;
}

static void soak_exec(PGconn *c, const char *zSql) {
  PQclear(PQexec(c, zSql));
}

/* One action on *pc with query i; reconnects after a disconnect. */
static soak_outcome soak_action(soak_client *m, PGconn **pc, int i) {
  const soak_args *a = m->pA;
  uint64_t r = soak_rand(&m->iRng) % 100;
  useconds_t usWait = (useconds_t)(soak_rand(&m->iRng) % 200000);
  soak_outcome e;
  if (r < 15) {   /* a statement_timeout of 1 to 200 ms */
    char zSet[64];
    snprintf(zSet, sizeof(zSet), "SET statement_timeout = %u", usWait / 1000 + 1);
    soak_exec(*pc, zSet);
    if (!PQsendQuery(*pc, a->azSql[i])) return SOAK_ERROR;
    e = soak_collect(*pc, a->azWant[i]);
    soak_exec(*pc, "SET statement_timeout = 0");
    return e;
  }
  if (!PQsendQuery(*pc, a->azSql[i])) return SOAK_ERROR;
  if (r < 30) {   /* a cancel after up to 200 ms */
    char zErr[256];
    PGcancel *pCancel = PQgetCancel(*pc);
    usleep(usWait);
    /* A cancel that comes too late leaves the answer, which must be right. */
    if (pCancel == NULL || !PQcancel(pCancel, zErr, sizeof(zErr))) {
      fprintf(stderr, "soak: PQcancel: %s\n", pCancel == NULL ? "no cancel object" : zErr);
    }
    PQfreeCancel(pCancel);
    return soak_collect(*pc, a->azWant[i]);
  }
  if (r < 40) {   /* gone in the middle */
    usleep(usWait);
    PQfinish(*pc);
    *pc = soak_connect(a);
    return SOAK_DISCONNECTED;
  }
  return soak_collect(*pc, a->azWant[i]);
}

static void *soak_client_main(void *pArg) {
  soak_client *m = pArg;
  double tEnd = timer_now() + m->pA->secRun;
  PGconn *c = soak_connect(m->pA);
  while (c != NULL && timer_now() < tEnd) {
    int i = (int)(soak_rand(&m->iRng) % (uint64_t)m->pA->nQuery);
    atomic_fetch_add(&soak_anOutcome[soak_action(m, &c, i)], 1);
  }
  if (c == NULL) atomic_fetch_add(&soak_anOutcome[SOAK_ERROR], 1);
  PQfinish(c);
  return NULL;
}

/* Reads metric zName from /metrics into *pv. Returns 0 or -1. */
static int soak_metric(const soak_args *a, const char *zName, double *pv) {
  struct sockaddr_in sa;
  char aBuf[4096], zReq[128];
  strbuf s;
  ssize_t n;
  const char *z;
  int fd = socket(AF_INET, SOCK_STREAM, 0), rc = -1;
  memset(&sa, 0, sizeof(sa));
  sa.sin_family = AF_INET;
  sa.sin_port = htons((uint16_t)a->iHttpPort);
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
    if (fd >= 0) close(fd);
    return -1;
  }
  snprintf(zReq, sizeof(zReq), "GET /metrics HTTP/1.0\r\n\r\n");
  if (write(fd, zReq, strlen(zReq)) < 0) {
    close(fd);
    return -1;
  }
  strbuf_init(&s);
  while ((n = read(fd, aBuf, sizeof(aBuf))) > 0) strbuf_append(&s, aBuf, (size_t)n);
  close(fd);
  for (z = strbuf_str(&s); (z = strstr(z, zName)) != NULL; z++) {
    if ((z == strbuf_str(&s) || z[-1] == '\n') && z[strlen(zName)] == ' ') {
      *pv = atof(z + strlen(zName) + 1);
      rc = 0;
      break;
    }
  }
  strbuf_free(&s);
  return rc;
}

/* Counts the descendants of iPid named zComm (starq-worker, cc, cc1). */
static int soak_descendants(int iPid, const char *zComm) {
  DIR *d = opendir("/proc");
  struct dirent *e;
  int n = 0;
  if (d == NULL) return -1;
  while ((e = readdir(d)) != NULL) {
    int pid = atoi(e->d_name);
    for (int iUp = 0; pid > 1 && iUp < 8; iUp++) {   /* walk up to iPid */
      char zPath[64], zLine[512], zName[64], *zClose;
      FILE *f;
      int ppid;
      snprintf(zPath, sizeof(zPath), "/proc/%d/stat", pid);
      if ((f = fopen(zPath, "r")) == NULL) break;
      zClose = fgets(zLine, sizeof(zLine), f) != NULL ? strrchr(zLine, ')') : NULL;
      fclose(f);
      if (zClose == NULL) break;
      snprintf(zName, sizeof(zName), "%.*s", (int)(zClose - strchr(zLine, '(') - 1),
               strchr(zLine, '(') + 1);
      ppid = atoi(zClose + 4);
      if (iUp == 0 && strcmp(zName, zComm) != 0) break;
      if (ppid == iPid) {
        n++;
        break;
      }
      pid = ppid;
    }
  }
  closedir(d);
  return n;
}

static char *soak_file_read(const char *zPath) {
  FILE *f = fopen(zPath, "r");
  strbuf s;
  char aBuf[4096];
  size_t n;
  if (f == NULL) return NULL;
  strbuf_init(&s);
  while ((n = fread(aBuf, 1, sizeof(aBuf), f)) > 0) strbuf_append(&s, aBuf, n);
  fclose(f);
  return strbuf_take(&s);
}

/* Parses the command line into *a. Returns 0, or -1 after the usage. */
static int soak_args_parse(soak_args *a, int argc, char **argv) {
  memset(a, 0, sizeof(*a));
  a->nClient = 64;
  a->secRun = 600;
  a->iSeed = 1;
  for (int i = 1; i < argc; i++) {
    const char *z = argv[i], *zVal = i + 1 < argc ? argv[i + 1] : NULL;
    if (z[0] == '-' && zVal == NULL) break;
    if (strcmp(z, "--port") == 0) a->iPort = atoi(argv[++i]);
    else if (strcmp(z, "--http-port") == 0) a->iHttpPort = atoi(argv[++i]);
    else if (strcmp(z, "--pid") == 0) a->iPid = atoi(argv[++i]);
    else if (strcmp(z, "--clients") == 0) a->nClient = atoi(argv[++i]);
    else if (strcmp(z, "--seconds") == 0) a->secRun = atof(argv[++i]);
    else if (strcmp(z, "--seed") == 0) a->iSeed = strtoull(argv[++i], NULL, 10);
    else if (z[0] == '-') break;
    else if (a->nQuery < SOAK_QUERIES_MAX && (a->azSql[a->nQuery] = soak_file_read(z)) != NULL) {
      a->nQuery++;
    } else {
      fprintf(stderr, "soak: cannot read %s\n", z);
      return -1;
    }
  }
  if (a->iPort <= 0 || a->iHttpPort <= 0 || a->iPid <= 0 || a->nClient <= 0 ||
      a->nClient > 1024 || a->secRun <= 0 || a->nQuery == 0) {
    fprintf(stderr, "usage: soak --port P --http-port H --pid PID [--clients N] "
                    "[--seconds S] [--seed N] QUERY.sql...\n");
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  static soak_args a;
  soak_client *aC;
  double rssWarm = 0, rssEnd = 0, wrkWarm = 0, wrkEnd = 0, t0;
  int nCc, nCc1, nWorker, bOk;
  PGconn *c;
  if (soak_args_parse(&a, argc, argv) != 0) return 2;
  /* The warm-up: each query once, alone, for its answer and its kernels. */
  if ((c = soak_connect(&a)) == NULL) return 1;
  for (int i = 0; i < a.nQuery; i++) {
    PGresult *res = PQexec(c, a.azSql[i]);
    if (PQresultStatus(res) != PGRES_TUPLES_OK) {
      fprintf(stderr, "soak: warm-up: %s", PQresultErrorMessage(res));
      return 1;
    }
    a.azWant[i] = soak_text(res);
    PQclear(res);
  }
  PQfinish(c);
  soak_metric(&a, "process_resident_memory_bytes", &rssWarm);
  soak_metric(&a, "starq_worker_resident_memory_bytes", &wrkWarm);
  aC = calloc((size_t)a.nClient, sizeof(*aC));
  if (aC == NULL) return 1;
  t0 = timer_now();
  for (int i = 0; i < a.nClient; i++) {
    aC[i].pA = &a;
    aC[i].iRng = a.iSeed * 1000003u + (uint64_t)i;
    pthread_create(&aC[i].th, NULL, soak_client_main, &aC[i]);
  }
  for (int i = 0; i < a.nClient; i++) pthread_join(aC[i].th, NULL);
  /* Idle again: what was abandoned must have stopped by now. */
  for (double tIdle = timer_now() + 30; timer_now() < tIdle; usleep(100000)) {
    double nRunning = 0;
    if (soak_metric(&a, "starq_queries_running", &nRunning) == 0 && nRunning == 0) break;
  }
  sleep(1);
  soak_metric(&a, "process_resident_memory_bytes", &rssEnd);
  soak_metric(&a, "starq_worker_resident_memory_bytes", &wrkEnd);
  nCc = soak_descendants(a.iPid, "cc");
  nCc1 = soak_descendants(a.iPid, "cc1");
  nWorker = soak_descendants(a.iPid, "starq-worker");
  printf("soak: %d clients, %.0f s, %d queries\n", a.nClient, timer_now() - t0, a.nQuery);
  for (int i = 0; i < SOAK_N; i++) printf("  %-13s %ld\n", soak_azOutcome[i], soak_anOutcome[i]);
  printf("  starqd RSS    %.1f MiB after warm-up, %.1f MiB at the end\n", rssWarm / 1048576,
         rssEnd / 1048576);
  printf("  worker RSS    %.1f MiB after warm-up, %.1f MiB at the end\n", wrkWarm / 1048576,
         wrkEnd / 1048576);
  printf("  left running  %d cc, %d cc1; %d device worker(s)\n", nCc, nCc1, nWorker);
  bOk = soak_anOutcome[SOAK_WRONG] == 0 && nCc == 0 && nCc1 == 0 && nWorker <= 1;
  for (int i = 0; i < a.nQuery; i++) {
    free(a.azSql[i]);
    free(a.azWant[i]);
  }
  free(aC);
  return bOk ? 0 : 1;
}
