/*
** tests/starqd-fixture.c — a starqd child process for the daemon's tests
** (starqd-fixture.h).
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/jsonread.h"
#include "../common/timer.h"
#include "../server/stmt.h"
#include "http-fixture.h"
#include "pgclient.h"
#include "pgref.h"
#include "starqd-fixture.h"
#include "test.h"

void starqd_data(const char *zDir) {
  const char *argv[] = {"starq-gen", "--sf", "0.01", "--format", "store", "--out", zDir, "-q", NULL};
  test_run_ok(argv);
}

char *starqd_log(const starqd_proc *p) {
  size_t n;
  return test_file_read(p->zLog, &n);
}

const char *starqd_backend(void) {
  const char *z = getenv("STARQ_TEST_BACKEND");
  return z != NULL && strcmp(z, "cuda") == 0 ? "cuda" : "cpu";
}

/* Starts starqd and waits until its log names both ports and, when
** bReady, says it is ready. */
static void starqd_start_until(starqd_proc *p, const char *zData, const char *const *azExtra,
                               int bWaitReady) {
  static int iSeq;
  const char *argv[64];
  int n = 0, fd;
  argv[n++] = test_bin("starqd");
  argv[n++] = "--data-dir";
  argv[n++] = zData;
  argv[n++] = "--port";
  argv[n++] = "0";
  argv[n++] = "--http-port";
  argv[n++] = "0";
  argv[n++] = "--backend";
  argv[n++] = starqd_backend();
  for (int i = 0; azExtra != NULL && azExtra[i] != NULL && n < 62; i++) argv[n++] = azExtra[i];
  argv[n] = NULL;
  memset(p, 0, sizeof(*p));
  snprintf(p->zLog, sizeof(p->zLog), "starqd-%d.log", ++iSeq);
  fd = open(p->zLog, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT(fd >= 0);
  fflush(stdout);
  fflush(stderr);
  p->pid = fork();
  ASSERT(p->pid >= 0);
  if (p->pid == 0) {
    int fdNull = open("/dev/null", O_RDONLY);
    dup2(fdNull, STDIN_FILENO);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    execv(argv[0], (char *const *)argv);
    _exit(127);
  }
  close(fd);
  for (double tEnd = timer_now() + STARQD_START_SECONDS; timer_now() < tEnd;) {
    char *zLog = starqd_log(p);
    const char *z = strstr(zLog, "SQL on ");
    int bReady = strstr(zLog, "starqd: ready") != NULL;
    if (z != NULL && p->iPort == 0) {
      const char *zColon = strchr(z, ':');
      const char *zHttp = strstr(z, "status on http");   /* http:// or https:// */
      ASSERT(zColon != NULL && zHttp != NULL);
      p->iPort = atoi(zColon + 1);
      p->iHttpPort = atoi(strchr(strstr(zHttp, "://") + 3, ':') + 1);
    }
    free(zLog);
    if ((bReady || !bWaitReady) && p->iPort > 0) return;
    if (waitpid(p->pid, NULL, WNOHANG) == p->pid) {
      zLog = starqd_log(p);
      FAIL("starqd exited before it was ready:\n%s", zLog);
    }
    usleep(100 * 1000);
  }
  FAIL("starqd was not ready within %d s", STARQD_START_SECONDS);
}

void starqd_start(starqd_proc *p, const char *zData, const char *const *azExtra) {
  starqd_start_until(p, zData, azExtra, 1);
}

void starqd_launch(starqd_proc *p, const char *zData, const char *const *azExtra) {
  starqd_start_until(p, zData, azExtra, 0);
}

void starqd_start_mock(starqd_proc *p, const char *zData, int msLaunch, int msInit,
                       int bWaitReady) {
  const char *azExtra[] = {"--backend", "cuda", "--bandwidth-probe", "0", NULL};
  starqd_start_mock_with(p, zData, msLaunch, msInit, bWaitReady, azExtra);
}

void starqd_start_mock_with(starqd_proc *p, const char *zData, int msLaunch, int msInit,
                            int bWaitReady, const char *const *azExtra) {
  static const char *const azVar[] = {"STARQ_LIBCUDA", "STARQ_LIBNVRTC",
                                      "STARQ_CUDA_MOCK_LAUNCH_MS", "STARQ_CUDA_MOCK_INIT_MS"};
  char zLaunch[32], zInit[32];
  snprintf(zLaunch, sizeof(zLaunch), "%d", msLaunch);
  snprintf(zInit, sizeof(zInit), "%d", msInit);
  setenv(azVar[0], test_bin("libstarq-cuda-mock.so"), 1);
  setenv(azVar[1], test_bin("libstarq-cuda-mock.so"), 1);
  setenv(azVar[2], zLaunch, 1);
  setenv(azVar[3], zInit, 1);
  starqd_start_until(p, zData, azExtra, bWaitReady);
  for (size_t i = 0; i < sizeof(azVar) / sizeof(azVar[0]); i++) unsetenv(azVar[i]);
}

int starqd_stop(starqd_proc *p, int iSig) {
  int rc;
  if (iSig != 0) kill(p->pid, iSig);
  rc = test_wait(p->pid);
  p->pid = 0;
  return rc;
}

void starqd_cancel_check(PGconn *c) {
  PGcancel *pCancel = PQgetCancel(c);
  PGresult *res;
  char zErr[256];
  ASSERT(pCancel != NULL);
  ASSERT_EQ(PQcancel(pCancel, zErr, sizeof(zErr)), 1);
  PQfreeCancel(pCancel);
  res = PQgetResult(c);
  ASSERT_STR_EQ(PQresultErrorField(res, PG_DIAG_SQLSTATE), "57014");
  PQclear(res);
  while ((res = PQgetResult(c)) != NULL) PQclear(res);
}

void starqd_wait_running(const starqd_proc *p, int nRunning, double rSeconds) {
  double tEnd = timer_now() + rSeconds;
  int nNow = -1;
  do {
    char *zResp = http_get(p->iHttpPort, "/status"), zErr[256];
    const char *zBody = http_resp_body(zResp);
    json_value *v;
    const json_value *r;
    if (json_parse(zBody, strlen(zBody), &v, zErr, sizeof(zErr)) != 0) {
      FAIL("/status is not JSON: %s\n%s", zErr, zResp);
    }
    r = json_get(json_get(v, "queries"), "running");
    if (r == NULL || r->eKind != JSON_NUMBER) FAIL("/status has no queries.running:\n%s", zBody);
    nNow = (int)r->r;
    json_value_free(v);
    free(zResp);
    if (nNow == nRunning) return;
    usleep(20 * 1000);
  } while (timer_now() < tEnd);
  FAIL("/status said %d queries running, not %d, for %.0f s", nNow, nRunning, rSeconds);
}

PGconn *starqd_connect_any(const starqd_proc *p) {
  return starqd_connect_info(p, "");
}

PGconn *starqd_connect_info(const starqd_proc *p, const char *zExtra) {
  char zInfo[1024];
  snprintf(zInfo, sizeof(zInfo),
           "host=127.0.0.1 port=%d user=starq dbname=starq connect_timeout=10 sslmode=disable %s",
           p->iPort, zExtra);
  return PQconnectdb(zInfo);
}

PGconn *starqd_connect(const starqd_proc *p) {
  PGconn *c = starqd_connect_any(p);
  if (PQstatus(c) != CONNECTION_OK) FAIL("connect: %s", PQerrorMessage(c));
  return c;
}

int starqd_msg_read(int fd, strbuf *b) {
  unsigned char aHead[5];
  size_t nGot = 0, nBody;
  while (nGot < 5) {
    ssize_t k = recv(fd, aHead + nGot, 5 - nGot, 0);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    nGot += (size_t)k;
  }
  nBody = pgwire_get_u32(aHead + 1);
  if (nBody < 4 || nBody > (1u << 30)) FAIL("a backend message of length %zu", nBody);
  nBody -= 4;
  strbuf_append(b, (const char *)aHead, 5);
  while (nBody > 0) {
    char a[16384];
    ssize_t k = recv(fd, a, nBody < sizeof(a) ? nBody : sizeof(a), 0);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) FAIL("a backend message cut short: %s", k == 0 ? "EOF" : strerror(errno));
    strbuf_append(b, a, (size_t)k);
    nBody -= (size_t)k;
  }
  return 0;
}

int starqd_raw_startup(const starqd_proc *p, strbuf *pIn) {
  static const char *const azKV[] = {"user", "starq", "database", "starq", NULL};
  int fd = http_client_connect(p->iPort);
  strbuf m;
  strbuf_init(&m);
  pgc_startup(&m, PGWIRE_PROTOCOL_3_0, azKV);
  http_client_send(fd, m.z, m.n);
  strbuf_free(&m);
  for (;;) {
    size_t iAt = pIn->n;
    if (starqd_msg_read(fd, pIn) != 0 || pIn->z[iAt] == 'Z') break;
  }
  return fd;
}

char *starqd_result_text(const PGresult *res) {
  strbuf s;
  strbuf_init(&s);
  for (int i = 0; i < PQntuples(res); i++) {
    for (int c = 0; c < PQnfields(res); c++) {
      if (c) strbuf_puts(&s, "|");
      strbuf_puts(&s, PQgetisnull(res, i, c) ? "\\N" : PQgetvalue(res, i, c));
    }
    strbuf_puts(&s, "\n");
  }
  return strbuf_take(&s);
}

static executor *starqd_pEx;

char *starqd_expected(const char *zData, const char *zSql, unsigned **paType, int *pnCol) {
  exec_result r;
  sql_error e;
  strbuf s, v;
  if (starqd_pEx == NULL) {
    executor_options o = {.zDataDir = zData, .zBackend = "cpu", .nPinnedBudget = -1,
                          .nDeviceBudget = -1, .nStrideBytes = -1};   /* in process: the reference */
    char zErr[512];
    if (executor_open(&starqd_pEx, &o, zErr, sizeof(zErr)) != 0) FAIL("executor: %s", zErr);
  }
  sql_error_clear(&e);
  {
    engine_request q;
    memset(&q, 0, sizeof(q));
    q.eKind = ENGINE_SELECT;
    q.zSql = zSql;
    if (executor_execute(starqd_pEx, &q, &r, &e) != 0) FAIL("%s: %s %s", zSql, e.zState, e.zMsg);
  }
  strbuf_init(&s);
  strbuf_init(&v);
  *pnCol = r.nCol;
  *paType = calloc((size_t)r.nCol + 1, sizeof(unsigned));
  ASSERT(*paType != NULL);
  for (int c = 0; c < r.nCol; c++) {
    pgwire_column col;
    stmt_column_describe(r.aCol[c].type, "", &col);
    (*paType)[c] = col.iTypeOid;
  }
  for (int64_t i = 0; i < r.nRow; i++) {
    for (int c = 0; c < r.nCol; c++) {
      if (c) strbuf_puts(&s, "|");
      strbuf_reset(&v);
      if (exec_result_text(&r, i, c, &v)) strbuf_puts(&s, "\\N");
      else strbuf_puts(&s, strbuf_str(&v));
    }
    strbuf_puts(&s, "\n");
  }
  strbuf_free(&v);
  exec_result_free(&r);
  return strbuf_take(&s);
}

void starqd_expected_close(void) {
  executor_close(starqd_pEx);
  starqd_pEx = NULL;
}

static int starqd_line_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

void starqd_lines_sort(char *z, size_t n) {
  size_t nLine = 0, i = 0;
  char **az, *zCopy = malloc(n + 1);
  for (size_t k = 0; k < n; k++) nLine += z[k] == '\n';
  az = malloc((nLine + 1) * sizeof(char *));
  ASSERT(az != NULL && zCopy != NULL);
  memcpy(zCopy, z, n);
  zCopy[n] = 0;
  nLine = 0;
  for (char *p = zCopy; p < zCopy + n;) {
    char *e = strchr(p, '\n');
    ASSERT(e != NULL);
    az[nLine++] = p;
    *e = 0;
    p = e + 1;
  }
  qsort(az, nLine, sizeof(char *), starqd_line_cmp);
  for (size_t k = 0; k < nLine; k++) {
    size_t m = strlen(az[k]);
    memcpy(z + i, az[k], m);
    i += m;
    z[i++] = '\n';
  }
  free(az);
  free(zCopy);
}

void starqd_pgref_start(starqd_proc *d, pgref **ppRef, PGconn **ppPg, PGconn **ppSq) {
  const char *argv[] = {"starq-gen", "--sf", "0.01", "--out", "tbl", "-q", NULL};
  char zErr[2048];
  starqd_data("data");
  test_run_ok(argv);
  CALL_OK(pgref_start(ppRef, "pg", zErr, sizeof(zErr)));
  CALL_OK(pgref_load_ssb(*ppRef, "tbl", zErr, sizeof(zErr)));
  starqd_start(d, "data", NULL);
  *ppPg = PQconnectdb(pgref_conninfo(*ppRef));
  ASSERT_EQ(PQstatus(*ppPg), CONNECTION_OK);
  *ppSq = starqd_connect(d);
}

void starqd_pgref_keys(pgref *p) {
  static const char zKeys[] =
      "ALTER TABLE date ADD PRIMARY KEY (d_datekey);"
      "ALTER TABLE supplier ADD PRIMARY KEY (s_suppkey);"
      "ALTER TABLE customer ADD PRIMARY KEY (c_custkey);"
      "ALTER TABLE part ADD PRIMARY KEY (p_partkey);"
      "ALTER TABLE lineorder ADD PRIMARY KEY (lo_orderkey, lo_linenumber),"
      " ADD FOREIGN KEY (lo_custkey) REFERENCES customer (c_custkey),"
      " ADD FOREIGN KEY (lo_partkey) REFERENCES part (p_partkey),"
      " ADD FOREIGN KEY (lo_suppkey) REFERENCES supplier (s_suppkey),"
      " ADD FOREIGN KEY (lo_orderdate) REFERENCES date (d_datekey),"
      " ADD FOREIGN KEY (lo_commitdate) REFERENCES date (d_datekey);";
  char zErr[1024];
  CALL_OK(pgref_exec(p, zKeys, zErr, sizeof(zErr)));
}

void starqd_query_check(PGconn *c, const char *zData, const char *zSql) {
  PGresult *res = PQexec(c, zSql);
  unsigned *aType;
  int nCol;
  char *zGot, *zWant;
  if (PQresultStatus(res) != PGRES_TUPLES_OK) FAIL("%s: %s", zSql, PQresultErrorMessage(res));
  zGot = starqd_result_text(res);
  zWant = starqd_expected(zData, zSql, &aType, &nCol);
  ASSERT_STR_EQ(zGot, zWant);
  free(zGot);
  free(zWant);
  free(aType);
  PQclear(res);
}
