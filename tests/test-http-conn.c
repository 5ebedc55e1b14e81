/*
** tests/test-http-conn.c — server/http-conn.c on a real socket: the status
** server runs on a private libuv loop on its own thread (http-fixture.c)
** and a blocking client talks to it. Keep-alive, pipelining, requests in
** dribbles, closes after errors and after "Connection: close", the
** connection cap, the idle timeout, a client that never reads; and the
** dashboard loaded from the live server in headless Chromium, which must
** show the server's data.
*/
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/socket.h>
#include <unistd.h>

#include "http-fixture.h"
#include "jsoncheck.h"
#include "test.h"

/* Sends zReq on fd and requires a response of iStatus; returns it. */
static char *exchange(int fd, const char *zReq, int bHead, int iStatus) {
  char *z;
  http_client_send(fd, zReq, strlen(zReq));
  z = http_client_response(fd, bHead);
  if (z == NULL) FAIL("no response to %s", zReq);
  if (http_resp_status(z) != iStatus) FAIL("%s: %.300s", zReq, z);
  return z;
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

TEST_IMPL(http_conn_serve) {
  http_fixture f;
  int fd;
  char *z;

  http_fixture_start(&f, NULL);

  /* Keep-alive: several requests, one connection; readiness flips. */
  fd = http_client_connect(f.iPort);
  free(exchange(fd, "GET /livez HTTP/1.1\r\nHost: t\r\n\r\n", 0, 200));
  free(exchange(fd, "GET /readyz HTTP/1.1\r\nHost: t\r\n\r\n", 0, 503));
  atomic_store(&f.d.bReady, 1);
  free(exchange(fd, "GET /readyz HTTP/1.1\r\nHost: t\r\n\r\n", 0, 200));
  z = exchange(fd, "GET /status HTTP/1.1\r\nHost: t\r\n\r\n", 0, 200);
  ASSERT_EQ(jsoncheck(http_resp_body(z), strlen(http_resp_body(z)), NULL, 0), 0);
  free(z);

  /* Pipelined: three requests in one write, three answers in order. */
  {
    static const char zThree[] = "GET /livez HTTP/1.1\r\nHost: t\r\n\r\n"
                                 "HEAD /status HTTP/1.1\r\nHost: t\r\n\r\n"
                                 "GET /nope HTTP/1.1\r\nHost: t\r\n\r\n";
    http_client_send(fd, zThree, sizeof(zThree) - 1);
  }
  z = http_client_response(fd, 0);
  ASSERT_STR_EQ(http_resp_body(z), "ok\n");
  free(z);
  z = http_client_response(fd, 1);
  ASSERT_EQ(http_resp_status(z), 200);
  free(z);
  z = http_client_response(fd, 0);
  ASSERT_EQ(http_resp_status(z), 404);
  free(z);

  /* A request in dribbles, a byte at a time. */
  {
    static const char zReq[] = "GET /livez HTTP/1.1\r\nHost: t\r\n\r\n";
    for (size_t i = 0; i < sizeof(zReq) - 1; i++) {
      http_client_send(fd, zReq + i, 1);
      if (i % 8 == 0) sleep_ms(2);
    }
    z = http_client_response(fd, 0);
    ASSERT_EQ(http_resp_status(z), 200);
    free(z);
  }

  /* "Connection: close": answered, then closed. */
  free(exchange(fd, "GET /livez HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 0, 200));
  ASSERT(http_client_closed(fd));
  close(fd);

  /* HTTP/1.0: closed after one. */
  fd = http_client_connect(f.iPort);
  free(exchange(fd, "GET /livez HTTP/1.0\r\n\r\n", 0, 200));
  ASSERT(http_client_closed(fd));
  close(fd);

  /* Bad bytes: 400, then closed; the next connection is served. */
  fd = http_client_connect(f.iPort);
  z = exchange(fd, "\x16\x03\x01\x02\x05\x01\x07\x01\xfc\x03\x03\r\n\r\n", 0, 400);
  free(z);
  ASSERT(http_client_closed(fd));
  close(fd);

  /* Too large, with more junk behind it that the server never parses: the
  ** client still reads the whole 431 (drained, not reset). */
  fd = http_client_connect(f.iPort);
  {
    size_t n = 40000;
    char *zBig = malloc(n);
    memcpy(zBig, "GET / HTTP/1.1\r\nHost: t\r\nX: ", 28);
    memset(zBig + 28, 'x', n - 28);
    http_client_send(fd, zBig, n);
    free(zBig);
  }
  z = http_client_response(fd, 0);
  ASSERT(z != NULL);
  ASSERT_EQ(http_resp_status(z), 431);
  free(z);
  ASSERT(http_client_closed(fd));
  close(fd);

  /* A client that asks and leaves without reading. */
  fd = http_client_connect(f.iPort);
  http_client_send(fd, "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n", 35);
  close(fd);
  fd = http_client_connect(f.iPort);
  free(exchange(fd, "GET /livez HTTP/1.1\r\nHost: t\r\n\r\n", 0, 200));
  close(fd);

  http_fixture_stop(&f);
  return 0;
}

TEST_IMPL(http_conn_limits) {
  http_server_config cfg;
  http_fixture f;
  int fdA, fdB, fdC;

  memset(&cfg, 0, sizeof(cfg));
  cfg.nConnMax = 2;
  cfg.msIdle = 400;
  http_fixture_start(&f, &cfg);

  /* Two connections are served; a third is served too, and the one idle
  ** longest makes room for it. */
  fdA = http_client_connect(f.iPort);
  fdB = http_client_connect(f.iPort);
  free(exchange(fdA, "GET /livez HTTP/1.1\r\nHost: t\r\n\r\n", 0, 200));
  free(exchange(fdB, "GET /livez HTTP/1.1\r\nHost: t\r\n\r\n", 0, 200));
  fdC = http_client_connect(f.iPort);
  free(exchange(fdC, "GET /livez HTTP/1.1\r\nHost: t\r\n\r\n", 0, 200));
  ASSERT(http_client_closed(fdA));
  close(fdA);

  /* Idle ones, and one that sent half a request, are closed by the
  ** timer; then new ones are served again. */
  http_client_send(fdB, "GET /livez HTTP/1.1\r\nHo", 23);
  ASSERT(http_client_closed(fdB));
  ASSERT(http_client_closed(fdC));
  close(fdB);
  close(fdC);

  /* A client that sends and never reads stalls only itself. A server of
  ** its own with a long idle timer: 400 ms could close the client while
  ** this loop fills the buffers, as slowly as a busy machine runs it. */
  http_fixture_stop(&f);
  cfg.msIdle = 60000;
  http_fixture_start(&f, &cfg);
  fdA = http_client_connect(f.iPort);
  {
    static const char zReq[] = "GET /status HTTP/1.1\r\nHost: t\r\n\r\n";
    int nFull = 0;
    fcntl(fdA, F_SETFL, fcntl(fdA, F_GETFL) | O_NONBLOCK);
    for (int i = 0; i < 200000; i++) {
      ssize_t k = send(fdA, zReq, sizeof(zReq) - 1, MSG_NOSIGNAL);
      if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        sleep_ms(1);
        if (++nFull > 50) break;   /* stayed full: the server stopped reading */
        continue;
      }
      ASSERT(k > 0);   /* a part sent: the buffers are about full */
    }
    ASSERT_GT(nFull, 50);
  }
  fdB = http_client_connect(f.iPort);
  free(exchange(fdB, "GET /livez HTTP/1.1\r\nHost: t\r\n\r\n", 0, 200));
  close(fdB);
  close(fdA);

  /* A port in use and an address that is none: clear errors, and the
  ** half-made listener goes with the loop's next run. */
  {
    uv_loop_t loop;
    http_server *pSrv = NULL;
    char zErr[256], zWant[128];
    ASSERT_EQ(uv_loop_init(&loop), 0);
    cfg.iPort = f.iPort;
    ASSERT_EQ(http_server_start(&pSrv, &loop, &cfg, &f.d.routes, zErr, sizeof(zErr)), UV_EADDRINUSE);
    ASSERT(pSrv == NULL);
    snprintf(zWant, sizeof(zWant), "http server: listen on 127.0.0.1 port %d: address already in use", f.iPort);
    ASSERT_STR_EQ(zErr, zWant);
    cfg.zAddr = "localhost";
    ASSERT_NE(http_server_start(&pSrv, &loop, &cfg, &f.d.routes, zErr, sizeof(zErr)), 0);
    ASSERT_STR_EQ(zErr, "http server: bad address \"localhost\"");
    ASSERT_EQ(uv_run(&loop, UV_RUN_DEFAULT), 0);
    ASSERT_EQ(uv_loop_close(&loop), 0);
  }

  http_fixture_stop(&f);
  return 0;
}

/* ---- the dashboard in Chromium -------------------------------------------- */

typedef struct feeder feeder;
struct feeder {
  fake_daemon *d;
  atomic_int bStop;
};

/* Finishes a query every 20 ms, as executor threads would. */
static void *feeder_run(void *pArg) {
  feeder *p = pArg;
  for (int i = 0; !atomic_load(&p->bStop); i++) {
    char zSql[128];
    snprintf(zSql, sizeof(zSql), "SELECT count(*) FROM lineorder WHERE lo_quantity < %d", i % 50);
    fake_daemon_query(p->d, zSql, 0.002 + 0.001 * (i % 10), 48000000);
    sleep_ms(20);
  }
  return NULL;
}

TEST_IMPL(http_dashboard_chromium) {
  http_fixture f;
  feeder fd;
  pthread_t th;
  char zUrl[64], zText[4096], *zDom;
  double v;

  http_fixture_start(&f, NULL);
  atomic_store(&f.d.bReady, 1);
  fd.d = &f.d;
  atomic_init(&fd.bStop, 0);
  fake_daemon_query(&f.d, "SELECT 'first <query>' AS x", 0.5, 1000000000);
  ASSERT_EQ(pthread_create(&th, NULL, feeder_run, &fd), 0);
  snprintf(zUrl, sizeof(zUrl), "http://127.0.0.1:%d/", f.iPort);

  zDom = http_chromium_dom(zUrl);
  atomic_store(&fd.bStop, 1);
  pthread_join(th, NULL);
  http_fixture_stop(&f);

  /* The page polled the live server and shows what it said. */
  http_dom_text(zDom, "state", zText, sizeof(zText));
  ASSERT_STR_EQ(zText, "live");
  http_dom_text(zDom, "version", zText, sizeof(zText));
  ASSERT_STR_EQ(zText, FAKE_VERSION);
  http_dom_text(zDom, "ready", zText, sizeof(zText));
  ASSERT_STR_EQ(zText, "yes");
  http_dom_text(zDom, "device", zText, sizeof(zText));
  ASSERT_STR_EQ(zText, "test device &lt;b&gt;");          /* as text, not markup */
  http_dom_text(zDom, "uptime", zText, sizeof(zText));
  ASSERT(strncmp(zText, "1h 2m", 5) == 0);
  http_dom_text(zDom, "floor", zText, sizeof(zText));
  ASSERT_STR_EQ(zText, "50.7 GB/s");
  http_dom_text(zDom, "devmem", zText, sizeof(zText));
  ASSERT_STR_EQ(zText, "1.86 GiB");
  http_dom_text(zDom, "qps", zText, sizeof(zText));
  if (sscanf(zText, "%lf", &v) != 1 || !(v >= 0)) FAIL("qps shows \"%s\"", zText);
  http_dom_text(zDom, "p50", zText, sizeof(zText));
  ASSERT(strstr(zText, "ms") != NULL);
  http_dom_text(zDom, "running", zText, sizeof(zText));
  ASSERT_STR_EQ(zText, "0");
  http_dom_text(zDom, "recent", zText, sizeof(zText));
  ASSERT(strstr(zText, "SELECT count(*) FROM lineorder WHERE lo_quantity") != NULL);
  http_dom_text(zDom, "tables", zText, sizeof(zText));
  ASSERT(strstr(zText, "lineorder") != NULL && strstr(zText, "6001171") != NULL);
  /* Two polls or more drew the bandwidth line. */
  {
    const char *z = strstr(zDom, "id=\"gbpsline\"");
    ASSERT(z != NULL);
    z = strstr(z, "points=\"");
    ASSERT(z != NULL && z[8] != '"');
  }
  free(zDom);
  return 0;
}
