/*
** tests/http-fixture.c — the stand-in daemon, the status server on a
** thread, the blocking client, and headless Chromium, of http-fixture.h.
*/
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "http-fixture.h"
#include "test.h"

/* ---- the stand-in daemon ---------------------------------------------------- */

static int fake_ready(void *pCtx) {
  fake_daemon *d = pCtx;
  return atomic_load(&d->bReady);
}

static void fake_refresh(void *pCtx) {
  fake_daemon *d = pCtx;
  atomic_fetch_add(&d->nRefresh, 1);
  metric_gauge_set(d->m.pDeviceMemUsed, 0, 2e9);
  metric_gauge_set(d->m.pDeviceMemTotal, 0, 8e10);
}

static void fake_snapshot(void *pCtx, status_snapshot *pSnap) {
  fake_daemon *d = pCtx;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  metrics_starq_snapshot_fill(&d->m, pSnap);
  pSnap->zVersion = FAKE_VERSION;
  pSnap->tStart = metric_gauge_get(d->m.pStartTime, 0);
  pSnap->tNow = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
  pSnap->zBackend = "cpu";
  pSnap->zDevice = "test device <b>";
  pSnap->nDeviceMemTotal = 80000000000LL;
  pSnap->nDeviceMemUsed = 2000000000LL;
  pSnap->floorBytesPerSec = 50.7e9;
  pSnap->aTable = d->aTable;
  pSnap->nTable = 2;
  pSnap->pRecent = d->pRing;
}

void fake_daemon_open(fake_daemon *d) {
  char zErr[256];
  struct timespec ts;
  memset(d, 0, sizeof(*d));
  clock_gettime(CLOCK_REALTIME, &ts);
  CALL_OK(metrics_starq_open(&d->m, FAKE_VERSION, (double)ts.tv_sec - 3725, zErr, sizeof(zErr)));
  ASSERT_EQ(status_recent_new(&d->pRing, 32), 0);
  d->aTable[0] = (status_table){"lineorder", 6001171, 480000000, 0};
  d->aTable[1] = (status_table){"date", 2556, 100000, 100000};
  atomic_init(&d->bReady, 0);
  atomic_init(&d->nRefresh, 0);
  d->routes.pCtx = d;
  d->routes.xReady = fake_ready;
  d->routes.xSnapshot = fake_snapshot;
  d->routes.xRefresh = fake_refresh;
  d->routes.pMetrics = d->m.pReg;
}

void fake_daemon_close(fake_daemon *d) {
  status_recent_free(d->pRing);
  metrics_starq_close(&d->m);
}

void fake_daemon_query(fake_daemon *d, const char *zSql, double secDuration, int64_t nBytes) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  status_recent_add(d->pRing, zSql, (double)ts.tv_sec - secDuration, secDuration, 7, nBytes,
                    QUERY_OK);
  metrics_starq_query_end(&d->m, QUERY_OK, secDuration, (uint64_t)nBytes);
}

/* ---- the server on a thread ------------------------------------------------- */

static void fixture_stopped(void *pArg) { (void)pArg; }

static void fixture_stop_cb(uv_async_t *a) {
  http_fixture *f = a->data;
  http_server_stop(f->pSrv, fixture_stopped, NULL);
  uv_close((uv_handle_t *)&f->stop, NULL);
}

static void *fixture_run(void *pArg) {
  http_fixture *f = pArg;
  uv_run(&f->loop, UV_RUN_DEFAULT);
  return NULL;
}

void http_fixture_start(http_fixture *f, const http_server_config *pCfg) {
  http_server_config cfg;
  char zErr[256];
  memset(&cfg, 0, sizeof(cfg));
  if (pCfg != NULL) cfg = *pCfg;
  cfg.zAddr = "127.0.0.1";
  cfg.iPort = 0;
  fake_daemon_open(&f->d);
  ASSERT_EQ(uv_loop_init(&f->loop), 0);
  ASSERT_EQ(uv_async_init(&f->loop, &f->stop, fixture_stop_cb), 0);
  f->stop.data = f;
  CALL_OK(http_server_start(&f->pSrv, &f->loop, &cfg, &f->d.routes, zErr, sizeof(zErr)));
  f->iPort = http_server_port(f->pSrv);
  ASSERT_GT(f->iPort, 0);
  ASSERT_EQ(pthread_create(&f->thread, NULL, fixture_run, f), 0);
}

void http_fixture_stop(http_fixture *f) {
  uv_async_send(&f->stop);
  pthread_join(f->thread, NULL);
  /* Every handle closed, so the loop closes. */
  ASSERT_EQ(uv_loop_close(&f->loop), 0);
  fake_daemon_close(&f->d);
}

/* ---- the client ------------------------------------------------------------------ */

int http_client_connect(int iPort) {
  struct sockaddr_in addr;
  struct timeval tv = {10, 0};
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT(fd >= 0);
  memset(&addr, 0, sizeof(addr));
  addr.sin_family = AF_INET;
  addr.sin_port = htons((uint16_t)iPort);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) FAIL("connect: %s", strerror(errno));
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  return fd;
}

void http_client_send(int fd, const char *z, size_t n) {
  while (n > 0) {
    ssize_t k = send(fd, z, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) FAIL("send: %s", strerror(errno));
    z += k;
    n -= (size_t)k;
  }
}

/* Reads one byte at a time up to the blank line, so no byte of a
** following response is taken. Returns 0, or -1 at EOF. */
static int client_head(int fd, strbuf *s) {
  while (s->n < 4 || memcmp(s->z + s->n - 4, "\r\n\r\n", 4) != 0) {
    char c;
    ssize_t k = recv(fd, &c, 1, 0);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) FAIL("recv: %s", strerror(errno));
    if (k == 0) return -1;
    strbuf_append(s, &c, 1);
    ASSERT(s->n < 65536);
  }
  return 0;
}

char *http_client_response(int fd, int bHead) {
  strbuf s;
  char zLen[32];
  size_t nBody;
  strbuf_init(&s);
  if (client_head(fd, &s) != 0) {
    ASSERT_EQ(s.n, 0);
    strbuf_free(&s);
    return NULL;
  }
  http_resp_header(strbuf_str(&s), "Content-Length", zLen, sizeof(zLen));
  ASSERT(zLen[0] != 0);
  nBody = bHead ? 0 : (size_t)strtoull(zLen, NULL, 10);
  while (nBody > 0) {
    char a[4096];
    ssize_t k = recv(fd, a, nBody < sizeof(a) ? nBody : sizeof(a), 0);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) FAIL("body cut short: %s", k == 0 ? "EOF" : strerror(errno));
    strbuf_append(&s, a, (size_t)k);
    nBody -= (size_t)k;
  }
  return strbuf_take(&s);
}

int http_client_closed(int fd) {
  struct pollfd pfd = {fd, POLLIN, 0};
  char a[256];
  for (int i = 0; i < 300; i++) {
    ssize_t k;
    if (poll(&pfd, 1, 100) <= 0) continue;
    k = recv(fd, a, sizeof(a), 0);
    if (k == 0) return 1;
    if (k < 0 && errno == ECONNRESET) return 1;
    if (k < 0 && errno != EINTR && errno != EAGAIN) return 0;
  }
  return 0;
}

/* ---- responses -------------------------------------------------------------- */

int http_resp_status(const char *zResp) {
  int iStatus = 0;
  if (sscanf(zResp, "HTTP/1.1 %d ", &iStatus) != 1) FAIL("no status line: %.80s", zResp);
  return iStatus;
}

void http_resp_header(const char *zResp, const char *zName, char *zOut, size_t nOut) {
  const char *zEnd = strstr(zResp, "\r\n\r\n");
  size_t nName = strlen(zName);
  zOut[0] = 0;
  for (const char *z = strstr(zResp, "\r\n"); z != NULL && z < zEnd; z = strstr(z + 2, "\r\n")) {
    const char *zLine = z + 2;
    if (strncasecmp(zLine, zName, nName) == 0 && zLine[nName] == ':') {
      size_t n = strcspn(zLine + nName + 2, "\r");
      if (n >= nOut) n = nOut - 1;
      memcpy(zOut, zLine + nName + 2, n);
      zOut[n] = 0;
      return;
    }
  }
}

const char *http_resp_body(const char *zResp) {
  const char *z = strstr(zResp, "\r\n\r\n");
  ASSERT(z != NULL);
  return z + 4;
}

char *http_get(int iPort, const char *zPath) {
  char zReq[512];
  char *zResp;
  int fd = http_client_connect(iPort);
  snprintf(zReq, sizeof(zReq), "GET %s HTTP/1.1\r\nHost: t\r\n\r\n", zPath);
  http_client_send(fd, zReq, strlen(zReq));
  zResp = http_client_response(fd, 0);
  close(fd);
  if (zResp == NULL) FAIL("GET %s on port %d: no response", zPath, iPort);
  return zResp;
}

int http_get_status(int iPort, const char *zPath) {
  char *zResp = http_get(iPort, zPath);
  int iStatus = http_resp_status(zResp);
  free(zResp);
  return iStatus;
}

/* ---- the dashboard in headless Chromium -------------------------------------- */

char *http_chromium_dom(const char *zUrl) {
  static const char zChromium[] = "/usr/bin/chromium";
  const char *const argv[] = {zChromium, "--headless", "--no-sandbox", "--disable-gpu",
                              "--disable-quic", "--no-first-run", "--disable-background-networking",
                              "--disable-component-update", "--disable-sync",
                              "--user-data-dir=chromium-profile", "--virtual-time-budget=8000",
                              "--dump-dom", zUrl, NULL};
  test_proc p;
  char *zDom;
  if (access(zChromium, X_OK) != 0) {
    FAIL("%s is missing: scripts/setup.sh installs Debian's chromium", zChromium);
  }
  test_run(&p, argv);
  if (p.rc != 0 || strstr(p.zOut, "</html>") == NULL) {
    FAIL("chromium exited %d:\n%s\n%.3000s", p.rc, p.zOut, p.zErr);
  }
  zDom = p.zOut;
  p.zOut = NULL;
  test_proc_free(&p);
  return zDom;
}

void http_dom_text(const char *zDom, const char *zId, char *zOut, size_t nOut) {
  char zPat[64];
  const char *z;
  size_t n = 0;
  int nDepth = 0;
  snprintf(zPat, sizeof(zPat), "id=\"%s\"", zId);
  z = strstr(zDom, zPat);
  if (z == NULL) FAIL("no element with %s in the page", zPat);
  z = strchr(z, '>');
  ASSERT(z != NULL);
  for (z++; *z != 0 && n + 1 < nOut; z++) {
    if (*z == '<') {
      if (z[1] == '/' && nDepth-- == 0) break;
      if (z[1] != '/') nDepth++;
      z = strchr(z, '>');
      if (z == NULL) break;
      if (z[-1] == '/') nDepth--;
      zOut[n++] = ' ';
      continue;
    }
    zOut[n++] = *z;
  }
  zOut[n] = 0;
}
