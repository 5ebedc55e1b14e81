/*
** tests/test-http.c — server/http.c: request heads parsed whole, byte by
** byte and at every split; pipelined requests; keep-alive rules; every
** error status and every limit, including limits hit before a line ends;
** and the response writer's framing (HEAD, keep-alive, close).
*/
#include "../server/http.h"
#include "test.h"

/* Feeds z in pieces of nPiece bytes (all at once when 0) until the parser
** stops asking for more. Returns the last rc; *pnUsed gets the bytes used
** in all. */
static http_parse_rc feed_pieces(http_parser *p, const char *z, size_t n, size_t nPiece,
                                 size_t *pnUsed) {
  size_t i = 0;
  http_parse_rc rc = HTTP_PARSE_MORE;
  *pnUsed = 0;
  if (nPiece == 0) nPiece = n;
  while (i < n) {
    size_t nHere = n - i < nPiece ? n - i : nPiece, nUsed;
    rc = http_parser_feed(p, z + i, nHere, &nUsed);
    ASSERT(nUsed <= nHere);
    i += nUsed;
    *pnUsed = i;
    if (rc != HTTP_PARSE_MORE) return rc;
    ASSERT_EQ(nUsed, nHere);
  }
  return rc;
}

/* Parses z whole and requires the error status iWant. */
static void expect_status(const char *z, size_t n, int iWant) {
  http_parser p;
  size_t nUsed;
  http_parse_rc rc;
  http_parser_init(&p, NULL);
  rc = feed_pieces(&p, z, n, 0, &nUsed);
  if (rc != HTTP_PARSE_ERROR || p.iStatus != iWant) {
    FAIL("%.60s...: rc %d status %d (%s), wanted %d", z, rc, p.iStatus, p.zWhy ? p.zWhy : "",
         iWant);
  }
  ASSERT(p.zWhy != NULL);
  /* Failed stays failed. */
  ASSERT_EQ(http_parser_feed(&p, "GET / HTTP/1.0\r\n\r\n", 18, &nUsed), HTTP_PARSE_ERROR);
  ASSERT_EQ(nUsed, 0);
}
#define EXPECT_STATUS(lit, status) expect_status(lit, sizeof(lit) - 1, status)

/* Starts p afresh with limits pLim (NULL: defaults) and feeds it the n
** bytes at z in one piece. Returns the rc; *pnUsed gets the bytes used. */
static http_parse_rc parse_fresh(http_parser *p, const http_limits *pLim, const char *z, size_t n,
                                 size_t *pnUsed) {
  http_parser_init(p, pLim);
  return http_parser_feed(p, z, n, pnUsed);
}

TEST_IMPL(http_parse_request) {
  static const char zReq[] =
      "GET /status?verbose=1&x=%20 HTTP/1.1\r\n"
      "Host: localhost:8433\r\n"
      "User-Agent: test\r\n"
      "Accept:*/*   \r\n"
      "\r\n";
  size_t n = sizeof(zReq) - 1;
  http_parser p;

  /* Whole, byte by byte, and in pieces of every size. */
  for (size_t nPiece = 0; nPiece <= n; nPiece++) {
    size_t nUsed;
    http_parser_init(&p, NULL);
    ASSERT_EQ(feed_pieces(&p, zReq, n, nPiece, &nUsed), HTTP_PARSE_DONE);
    ASSERT_EQ(nUsed, n);
    ASSERT_EQ(p.req.eMethod, HTTP_METHOD_GET);
    ASSERT_STR_EQ(p.req.zMethod, "GET");
    ASSERT_STR_EQ(p.req.zPath, "/status");
    ASSERT_STR_EQ(p.req.zQuery, "verbose=1&x=%20");
    ASSERT_STR_EQ(p.req.zHost, "localhost:8433");
    ASSERT_EQ(p.req.iMinor, 1);
    ASSERT_EQ(p.req.bKeepAlive, 1);
    ASSERT_EQ(p.req.nHeader, 3);
  }
  /* Split in two at every point. */
  for (size_t iCut = 0; iCut <= n; iCut++) {
    size_t nUsed;
    http_parser_init(&p, NULL);
    ASSERT_EQ(http_parser_feed(&p, zReq, iCut, &nUsed), iCut == n ? HTTP_PARSE_DONE : HTTP_PARSE_MORE);
    ASSERT_EQ(nUsed, iCut);
    if (iCut < n) ASSERT_EQ(http_parser_feed(&p, zReq + iCut, n - iCut, &nUsed), HTTP_PARSE_DONE);
    ASSERT_STR_EQ(p.req.zPath, "/status");
    ASSERT_STR_EQ(p.req.zHost, "localhost:8433");
  }

  /* Bare LF line ends, empty lines before the request line, HEAD,
  ** absolute-form, no query. */
  {
    static const char z[] = "\r\n\nHEAD http://example.com:8433/metrics HTTP/1.1\nhost: x\n\n";
    size_t nUsed;
    ASSERT_EQ(parse_fresh(&p, NULL, z, sizeof(z) - 1, &nUsed), HTTP_PARSE_DONE);
    ASSERT_EQ(p.req.eMethod, HTTP_METHOD_HEAD);
    ASSERT_STR_EQ(p.req.zPath, "/metrics");
    ASSERT(p.req.zQuery == NULL);
    ASSERT_STR_EQ(p.req.zHost, "x");
  }
  {
    static const char z[] = "GET http://h?q=1 HTTP/1.1\r\nHost: h\r\n\r\n";
    size_t nUsed;
    ASSERT_EQ(parse_fresh(&p, NULL, z, sizeof(z) - 1, &nUsed), HTTP_PARSE_DONE);
    ASSERT_STR_EQ(p.req.zPath, "/");
    ASSERT_STR_EQ(p.req.zQuery, "q=1");
  }
  /* Another method is parsed for the router to refuse, never kept alive;
  ** methods are case-sensitive. */
  {
    static const char z[] = "get /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123456789";
    size_t nUsed;
    ASSERT_EQ(parse_fresh(&p, NULL, z, sizeof(z) - 1, &nUsed), HTTP_PARSE_DONE);
    ASSERT_EQ(p.req.eMethod, HTTP_METHOD_OTHER);
    ASSERT_STR_EQ(p.req.zMethod, "get");
    ASSERT_EQ(p.req.bKeepAlive, 0);
    ASSERT_EQ(nUsed, sizeof(z) - 1 - 10);
    /* Done stays done, using nothing, until reset. */
    ASSERT_EQ(http_parser_feed(&p, "x", 1, &nUsed), HTTP_PARSE_DONE);
    ASSERT_EQ(nUsed, 0);
  }
  {
    static const char z[] = "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n";
    size_t nUsed;
    ASSERT_EQ(parse_fresh(&p, NULL, z, sizeof(z) - 1, &nUsed), HTTP_PARSE_DONE);
    ASSERT_EQ(p.req.eMethod, HTTP_METHOD_OTHER);
    ASSERT_STR_EQ(p.req.zPath, "*");
  }
  return 0;
}

/* Keep-alive for each version and Connection field. */
TEST_IMPL(http_parse_keepalive) {
  static const struct {
    const char *zReq;
    int bKeepAlive;
  } aCase[] = {
      {"GET / HTTP/1.1\r\nHost: h\r\n\r\n", 1},
      {"GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", 0},
      {"GET / HTTP/1.1\r\nHost: h\r\nConnection: Upgrade, CLOSE\r\n\r\n", 0},
      {"GET / HTTP/1.1\r\nHost: h\r\nConnection: closed\r\n\r\n", 1},
      {"GET / HTTP/1.0\r\n\r\n", 0},
      {"GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", 1},
      {"GET / HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n", 0},
      {"HEAD / HTTP/1.2\r\nHost: h\r\n\r\n", 1},   /* 1.x reads as 1.1 */
  };
  for (size_t i = 0; i < sizeof(aCase) / sizeof(aCase[0]); i++) {
    http_parser p;
    size_t nUsed;
    ASSERT_EQ(parse_fresh(&p, NULL, aCase[i].zReq, strlen(aCase[i].zReq), &nUsed), HTTP_PARSE_DONE);
    if (p.req.bKeepAlive != aCase[i].bKeepAlive) FAIL("case %zu: keep-alive %d", i, p.req.bKeepAlive);
  }
  return 0;
}

/* Several requests in one buffer come out one at a time, each leaving the
** rest unused, and parse the same when the buffer arrives in pieces. */
TEST_IMPL(http_parse_pipeline) {
  static const char zIn[] =
      "GET /livez HTTP/1.1\r\nHost: a\r\n\r\n"
      "HEAD /readyz HTTP/1.1\r\nHost: b\r\n\r\n"
      "GET /metrics HTTP/1.0\r\n\r\n"
      "GET /tail HTTP/1.1\r\nHo";
  static const char *const azPath[] = {"/livez", "/readyz", "/metrics"};
  size_t n = sizeof(zIn) - 1;
  for (size_t nPiece = 1; nPiece <= n; nPiece += (nPiece < 8 ? 1 : 7)) {
    http_parser p;
    int iReq = 0;
    size_t i = 0;
    http_parser_init(&p, NULL);
    while (i < n) {
      size_t nHere = n - i < nPiece ? n - i : nPiece, nUsed;
      http_parse_rc rc = http_parser_feed(&p, zIn + i, nHere, &nUsed);
      i += nUsed;
      if (rc == HTTP_PARSE_DONE) {
        ASSERT_LT(iReq, 3);
        ASSERT_STR_EQ(p.req.zPath, azPath[iReq]);
        ASSERT_EQ(p.req.eMethod, iReq == 1 ? HTTP_METHOD_HEAD : HTTP_METHOD_GET);
        ASSERT_EQ(p.req.bKeepAlive, iReq < 2);
        iReq++;
        http_parser_reset(&p);
      } else {
        ASSERT_EQ(rc, HTTP_PARSE_MORE);
        ASSERT_EQ(nUsed, nHere);
      }
    }
    ASSERT_EQ(iReq, 3);
  }
  return 0;
}

TEST_IMPL(http_parse_errors) {
  /* 400: syntax */
  EXPECT_STATUS("GET\r\n\r\n", 400);
  EXPECT_STATUS("GET  / HTTP/1.1\r\nHost: h\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.1 \r\nHost: h\r\n\r\n", 400);
  EXPECT_STATUS("GET /\r\n\r\n", 400);                           /* HTTP/0.9 */
  EXPECT_STATUS("GET / HTTP/1\r\nHost: h\r\n\r\n", 400);
  EXPECT_STATUS("GET / http/1.1\r\nHost: h\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.10\r\nHost: h\r\n\r\n", 400);
  EXPECT_STATUS("G(T / HTTP/1.1\r\nHost: h\r\n\r\n", 400);
  EXPECT_STATUS("GET x HTTP/1.1\r\nHost: h\r\n\r\n", 400);
  EXPECT_STATUS("GET * HTTP/1.1\r\nHost: h\r\n\r\n", 400);
  EXPECT_STATUS("GET http:///x HTTP/1.1\r\nHost: h\r\n\r\n", 400);
  EXPECT_STATUS("GET /a\x01 HTTP/1.1\r\nHost: h\r\n\r\n", 400);
  EXPECT_STATUS("GET /\xc3\xa9 HTTP/1.1\r\nHost: h\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.1\r\n\r\n", 400);                   /* no Host */
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost: a\r\nHOST: b\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost: h\r\n: empty\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost: h\r\nX: a\x7f\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost: h\r\nX: a\rb\r\n\r\n", 400);  /* bare CR */
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost: h\r\nX: a\0b\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.1\0\r\nHost: h\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 1x\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost: h\r\nContent-Length:\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nContent-Length: 1\r\n\r\n", 400);
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n", 400);
  EXPECT_STATUS("\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\nGET / HTTP/1.0\r\n\r\n", 400);
  /* 413: a body on GET or HEAD */
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello", 413);
  EXPECT_STATUS("HEAD / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999\r\n\r\n", 413);
  EXPECT_STATUS("GET / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 413);
  /* 505 */
  EXPECT_STATUS("GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505);
  EXPECT_STATUS("GET / HTTP/0.9\r\n\r\n", 505);

  /* A zero Content-Length, twice and agreeing, is no body. */
  {
    static const char z[] = "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\ncontent-length: 00\r\n\r\n";
    http_parser p;
    size_t nUsed;
    ASSERT_EQ(parse_fresh(&p, NULL, z, sizeof(z) - 1, &nUsed), HTTP_PARSE_DONE);
  }
  return 0;
}

/* Returns a malloc'd request whose line is "GET /aaa... HTTP/1.1" with a
** target of nTarget bytes, then nHeader fields of nValue-byte values. */
static char *make_request(size_t nTarget, int nHeader, size_t nValue, size_t *pn) {
  size_t nMax = nTarget + 64 + (size_t)nHeader * (nValue + 32);
  char *z = malloc(nMax), *q = z;
  q += sprintf(q, "GET /");
  memset(q, 'a', nTarget - 1);
  q += nTarget - 1;
  q += sprintf(q, " HTTP/1.1\r\nHost: h\r\n");
  for (int i = 0; i < nHeader; i++) {
    q += sprintf(q, "X-%d: ", i);
    memset(q, 'v', nValue);
    q += nValue;
    q += sprintf(q, "\r\n");
  }
  q += sprintf(q, "\r\n");
  *pn = (size_t)(q - z);
  return z;
}

/* Every limit, at its edge: the last size that passes, the first that
** fails; over-long lines fail before their end arrives. */
TEST_IMPL(http_parse_limits) {
  http_limits lim = {100, 80, 1000, 5};
  http_parser p;
  size_t n, nUsed;
  char *z;
  /* Request line: "GET " + target + " HTTP/1.1" = nTarget + 13 bytes. */
  z = make_request(100 - 13, 0, 0, &n);
  ASSERT_EQ(parse_fresh(&p, &lim, z, n, &nUsed), HTTP_PARSE_DONE);
  free(z);
  z = make_request(100 - 12, 0, 0, &n);
  ASSERT_EQ(parse_fresh(&p, &lim, z, n, &nUsed), HTTP_PARSE_ERROR);
  ASSERT_EQ(p.iStatus, 414);
  free(z);
  /* Before its end: 200 bytes of target and no LF yet. */
  z = make_request(200, 0, 0, &n);
  ASSERT_EQ(parse_fresh(&p, &lim, z, 150, &nUsed), HTTP_PARSE_ERROR);
  ASSERT_EQ(p.iStatus, 414);
  free(z);

  /* A header line: "X-0: " + value = nValue + 5 bytes. */
  z = make_request(10, 1, 80 - 5, &n);
  ASSERT_EQ(parse_fresh(&p, &lim, z, n, &nUsed), HTTP_PARSE_DONE);
  free(z);
  z = make_request(10, 1, 80 - 4, &n);
  ASSERT_EQ(parse_fresh(&p, &lim, z, n, &nUsed), HTTP_PARSE_ERROR);
  ASSERT_EQ(p.iStatus, 431);
  free(z);
  z = make_request(10, 1, 500, &n);
  ASSERT_EQ(parse_fresh(&p, &lim, z, 200, &nUsed), HTTP_PARSE_ERROR);
  ASSERT_EQ(p.iStatus, 431);
  free(z);

  /* Header count: Host and 4 more pass, Host and 5 more do not. */
  z = make_request(10, 4, 3, &n);
  ASSERT_EQ(parse_fresh(&p, &lim, z, n, &nUsed), HTTP_PARSE_DONE);
  ASSERT_EQ(p.req.nHeader, 5);
  free(z);
  z = make_request(10, 5, 3, &n);
  ASSERT_EQ(parse_fresh(&p, &lim, z, n, &nUsed), HTTP_PARSE_ERROR);
  ASSERT_EQ(p.iStatus, 431);
  free(z);

  /* The whole head, with more fields allowed: each field line is 60+2
  ** bytes; 1000 bytes hold the request line, Host and 14 of them. */
  lim.nHeaderMax = 100;
  z = make_request(10, 14, 55, &n);
  ASSERT_LE(n, 1000);
  ASSERT_EQ(parse_fresh(&p, &lim, z, n, &nUsed), HTTP_PARSE_DONE);
  free(z);
  z = make_request(10, 16, 55, &n);
  ASSERT_GT(n, 1000);
  ASSERT_EQ(parse_fresh(&p, &lim, z, n, &nUsed), HTTP_PARSE_ERROR);
  ASSERT_EQ(p.iStatus, 431);
  free(z);

  /* The defaults: a 4096-byte line passes, 4097 does not; 16 KiB heads. */
  z = make_request(4096 - 13, 0, 0, &n);
  ASSERT_EQ(parse_fresh(&p, NULL, z, n, &nUsed), HTTP_PARSE_DONE);
  free(z);
  z = make_request(4096 - 12, 0, 0, &n);
  ASSERT_EQ(parse_fresh(&p, NULL, z, n, &nUsed), HTTP_PARSE_ERROR);
  ASSERT_EQ(p.iStatus, 414);
  free(z);
  z = make_request(10, 60, 1000, &n);
  ASSERT_EQ(parse_fresh(&p, NULL, z, n, &nUsed), HTTP_PARSE_ERROR);
  ASSERT_EQ(p.iStatus, 431);
  ASSERT_LE(nUsed, HTTP_HEAD_MAX);
  free(z);
  z = make_request(10, 65, 3, &n);
  ASSERT_EQ(parse_fresh(&p, NULL, z, n, &nUsed), HTTP_PARSE_ERROR);
  ASSERT_EQ(p.iStatus, 431);
  free(z);
  return 0;
}

/* Returns the response to a request for resp, with its Date line removed
** (checked for form first), as a malloc'd string. */
static char *write_response(const http_response *r, int iMinor, int bHead, int bKeepAlive) {
  strbuf s;
  char *z, *zDate, *zEnd;
  strbuf_init(&s);
  http_response_write(&s, r, iMinor, bHead, bKeepAlive);
  z = strbuf_take(&s);
  zDate = strstr(z, "\r\nDate: ");
  ASSERT(zDate != NULL);
  zEnd = strstr(zDate + 2, "\r\n");
  /* "Date: Sun, 06 Nov 1994 08:49:37 GMT" */
  ASSERT_EQ(zEnd - (zDate + 2), 35);
  ASSERT(memcmp(zEnd - 4, " GMT", 4) == 0 && zDate[11] == ',');
  memmove(zDate, zEnd, strlen(zEnd) + 1);
  return z;
}

TEST_IMPL(http_response_framing) {
  http_response r = {200, "text/plain; charset=utf-8", "ok\n", 3, NULL};
  char *z;

  z = write_response(&r, 1, 0, 1);
  ASSERT_STR_EQ(z, "HTTP/1.1 200 OK\r\nServer: starq\r\nContent-Type: text/plain; charset=utf-8\r\n"
                   "Content-Length: 3\r\nCache-Control: no-store\r\n"
                   "X-Content-Type-Options: nosniff\r\n\r\nok\n");
  free(z);
  /* HEAD: the same fields, Content-Length included, and no body. */
  z = write_response(&r, 1, 1, 1);
  ASSERT_STR_EQ(z, "HTTP/1.1 200 OK\r\nServer: starq\r\nContent-Type: text/plain; charset=utf-8\r\n"
                   "Content-Length: 3\r\nCache-Control: no-store\r\n"
                   "X-Content-Type-Options: nosniff\r\n\r\n");
  free(z);
  /* HTTP/1.0 kept alive says so; closing says so for either. */
  z = write_response(&r, 0, 0, 1);
  ASSERT(strstr(z, "\r\nConnection: keep-alive\r\n\r\nok\n") != NULL);
  free(z);
  z = write_response(&r, 1, 0, 0);
  ASSERT(strstr(z, "\r\nConnection: close\r\n\r\nok\n") != NULL);
  free(z);
  /* 405 carries Allow. */
  r.iStatus = 405;
  r.zAllow = "GET, HEAD";
  z = write_response(&r, 1, 0, 0);
  ASSERT(strncmp(z, "HTTP/1.1 405 Method Not Allowed\r\n", 33) == 0);
  ASSERT(strstr(z, "\r\nAllow: GET, HEAD\r\n") != NULL);
  free(z);

  /* A parse error's response: its status, a reason, close. */
  {
    http_parser p;
    size_t nUsed;
    strbuf s;
    ASSERT_EQ(parse_fresh(&p, NULL, "GET / HTTP/3.0\r\n", 16, &nUsed), HTTP_PARSE_ERROR);
    strbuf_init(&s);
    http_error_write(&s, &p);
    ASSERT(strncmp(strbuf_str(&s), "HTTP/1.1 505 HTTP Version Not Supported\r\n", 41) == 0);
    ASSERT(strstr(strbuf_str(&s), "\r\nConnection: close\r\n") != NULL);
    ASSERT(strstr(strbuf_str(&s), "\r\n\r\n505 HTTP Version Not Supported: ") != NULL);
    strbuf_free(&s);
  }
  ASSERT_STR_EQ(http_status_reason(431), "Request Header Fields Too Large");
  ASSERT_STR_EQ(http_status_reason(299), "Unknown");
  return 0;
}
