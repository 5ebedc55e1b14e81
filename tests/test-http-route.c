/*
** tests/test-http-route.c — server/http-route.c: each route's status,
** type and body, readiness turning /readyz from 503 to 200, HEAD with the
** GET's length and no body, 404 and 405, and the /status and /metrics
** bodies checked as JSON and as exposition format.
*/
#include "../server/http-route.h"
#include "http-fixture.h"
#include "jsoncheck.h"
#include "promcheck.h"
#include "test.h"

/* Parses zReq, routes it, and returns the response (malloc'd); *pbClose
** gets whether the connection would close. */
static char *answer(fake_daemon *d, const char *zReq, int *pbClose) {
  http_parser p;
  strbuf s;
  size_t nUsed;
  int bClose;
  http_parser_init(&p, NULL);
  ASSERT_EQ(http_parser_feed(&p, zReq, strlen(zReq), &nUsed), HTTP_PARSE_DONE);
  strbuf_init(&s);
  bClose = http_route_answer(&d->routes, &p.req, &s);
  if (pbClose != NULL) *pbClose = bClose;
  return strbuf_take(&s);
}

/* GETs zPath and requires iStatus and zType; returns the response. */
static char *get(fake_daemon *d, const char *zPath, int iStatus, const char *zType) {
  char zReq[256], zGot[128], zLen[32], *z;
  snprintf(zReq, sizeof(zReq), "GET %s HTTP/1.1\r\nHost: t\r\n\r\n", zPath);
  z = answer(d, zReq, NULL);
  if (http_resp_status(z) != iStatus) FAIL("%s: %.200s", zPath, z);
  http_resp_header(z, "Content-Type", zGot, sizeof(zGot));
  ASSERT_STR_EQ(zGot, zType);
  http_resp_header(z, "Content-Length", zLen, sizeof(zLen));
  ASSERT_EQ(strtoull(zLen, NULL, 10), strlen(http_resp_body(z)));
  http_resp_header(z, "Cache-Control", zGot, sizeof(zGot));
  ASSERT_STR_EQ(zGot, "no-store");
  return z;
}

TEST_IMPL(http_routes) {
  fake_daemon d;
  char *z, zErr[256], zVal[64];
  int bClose;

  fake_daemon_open(&d);
  z = get(&d, "/livez", 200, "text/plain; charset=utf-8");
  ASSERT_STR_EQ(http_resp_body(z), "ok\n");
  free(z);

  /* Not ready, then ready. */
  z = get(&d, "/readyz", 503, "text/plain; charset=utf-8");
  free(z);
  atomic_store(&d.bReady, 1);
  z = get(&d, "/readyz", 200, "text/plain; charset=utf-8");
  free(z);

  fake_daemon_query(&d, "SELECT sum(lo_revenue) FROM lineorder", 0.004, 24000000);
  z = get(&d, "/status?pretty=1", 200, "application/json");
  if (jsoncheck(http_resp_body(z), strlen(http_resp_body(z)), zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  jsoncheck_member(http_resp_body(z), "version", zVal, sizeof(zVal));
  ASSERT_STR_EQ(zVal, "\"" FAKE_VERSION "\"");
  jsoncheck_member(http_resp_body(z), "ready", zVal, sizeof(zVal));
  ASSERT_STR_EQ(zVal, "true");
  ASSERT(strstr(z, "\"sql\":\"SELECT sum(lo_revenue) FROM lineorder\"") != NULL);
  ASSERT(strstr(z, "\"total\":1,\"ok\":1,") != NULL);
  free(z);

  z = get(&d, "/metrics", 200, "text/plain; version=0.0.4; charset=utf-8");
  if (promcheck(http_resp_body(z), NULL, NULL, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT(strstr(z, "\nstarq_queries_total{status=\"ok\"} 1\n") != NULL);
  ASSERT(strstr(z, "\nstarq_device_memory_used_bytes 2000000000\n") != NULL);   /* refreshed */
  ASSERT_EQ(atomic_load(&d.nRefresh), 1);
  free(z);

  z = get(&d, "/", 200, "text/html; charset=utf-8");
  ASSERT(strstr(z, "<!DOCTYPE html>") != NULL && strstr(z, "id=\"qps\"") != NULL);
  ASSERT(strstr(z, "fetch(\"/status\"") != NULL);
  /* Self-contained: nothing fetched from elsewhere. */
  ASSERT(strstr(z, "http://") == NULL && strstr(z, "https://") == NULL && strstr(z, "src=") == NULL);
  free(z);

  z = get(&d, "/nope", 404, "text/plain; charset=utf-8");
  free(z);
  z = get(&d, "/livez/", 404, "text/plain; charset=utf-8");
  free(z);

  /* 405 names what is allowed and closes. */
  z = answer(&d, "POST /status HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\n", &bClose);
  ASSERT_EQ(http_resp_status(z), 405);
  http_resp_header(z, "Allow", zVal, sizeof(zVal));
  ASSERT_STR_EQ(zVal, "GET, HEAD");
  http_resp_header(z, "Connection", zVal, sizeof(zVal));
  ASSERT_STR_EQ(zVal, "close");
  ASSERT_EQ(bClose, 1);
  free(z);

  /* HEAD: the GET's fields and length, no body, for every route. */
  {
    static const char *const azPath[] = {"/livez", "/readyz", "/status", "/metrics", "/", "/x"};
    for (size_t i = 0; i < sizeof(azPath) / sizeof(azPath[0]); i++) {
      char zReq[128], zLenGet[32], zLenHead[32], *zGet, *zHead;
      snprintf(zReq, sizeof(zReq), "GET %s HTTP/1.1\r\nHost: t\r\n\r\n", azPath[i]);
      zGet = answer(&d, zReq, NULL);
      snprintf(zReq, sizeof(zReq), "HEAD %s HTTP/1.1\r\nHost: t\r\n\r\n", azPath[i]);
      zHead = answer(&d, zReq, &bClose);
      ASSERT_EQ(bClose, 0);
      ASSERT_EQ(http_resp_status(zHead), http_resp_status(zGet));
      ASSERT_STR_EQ(http_resp_body(zHead), "");
      http_resp_header(zGet, "Content-Length", zLenGet, sizeof(zLenGet));
      http_resp_header(zHead, "Content-Length", zLenHead, sizeof(zLenHead));
      /* /status carries a clock and /metrics nothing that changed. */
      if (strcmp(azPath[i], "/status") != 0) ASSERT_STR_EQ(zLenHead, zLenGet);
      ASSERT(atoi(zLenHead) > 0);
      free(zGet);
      free(zHead);
    }
  }

  /* HTTP/1.0 without keep-alive closes; with it, stays. */
  z = answer(&d, "GET /livez HTTP/1.0\r\n\r\n", &bClose);
  ASSERT_EQ(bClose, 1);
  free(z);
  z = answer(&d, "GET /livez HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", &bClose);
  ASSERT_EQ(bClose, 0);
  http_resp_header(z, "Connection", zVal, sizeof(zVal));
  ASSERT_STR_EQ(zVal, "keep-alive");
  free(z);

  /* A daemon that gave no callbacks yet: not ready, no status. */
  {
    http_routes none;
    http_parser p;
    strbuf s;
    size_t nUsed;
    memset(&none, 0, sizeof(none));
    http_parser_init(&p, NULL);
    http_parser_feed(&p, "GET /status HTTP/1.0\r\n\r\n", 24, &nUsed);
    strbuf_init(&s);
    http_route_answer(&none, &p.req, &s);
    ASSERT_EQ(http_resp_status(strbuf_str(&s)), 503);
    strbuf_free(&s);
  }
  fake_daemon_close(&d);
  return 0;
}
