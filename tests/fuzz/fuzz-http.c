/*
** tests/fuzz/fuzz-http.c — a libFuzzer target over the status port's
** request parser (server/http.c), the routes behind it, and the JSON
** string escaper that /status puts untrusted SQL text through.
**
** The first byte picks a piece size; the rest is a byte stream fed to a
** parser in pieces of that size, pipelined requests answered and the
** parser reset after each, as http-conn.c does. The same stream is then
** parsed in one piece, and the two runs must see the same requests and
** the same end: how bytes arrive must never change what they mean. Any
** crash, sanitizer report, leak, or broken invariant (bytes used beyond
** those given, a response that is not HTTP/1.1, escaped text that is not
** UTF-8 or holds a raw control byte) fails the run.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/json.h"
#include "../../server/http-route.h"
#include "../../server/http.h"

int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData);

static int fuzz_ready(void *pCtx) {
  (void)pCtx;
  return 1;
}

static void fuzz_snapshot(void *pCtx, status_snapshot *pSnap) {
  (void)pCtx;
  pSnap->zVersion = "fuzz";
  pSnap->tNow = 1;
}

/* What one run saw: a hash of each request's path and of each response's
** status, and how it ended. */
typedef struct fuzz_trace fuzz_trace;
struct fuzz_trace {
  uint64_t h;
  int nReq;
  int iEndStatus;   /* the error status, or 0 if the bytes ran out */
};

static void fuzz_mix(fuzz_trace *t, const char *z) {
  for (; *z != 0; z++) t->h = (t->h ^ (unsigned char)*z) * 1099511628211ull;
  t->h = (t->h ^ 0xff) * 1099511628211ull;
}

static void fuzz_response_check(const strbuf *s) {
  if (s->n < 17 || memcmp(s->z, "HTTP/1.1 ", 9) != 0 || strstr(s->z, "\r\n\r\n") == NULL) abort();
}

/* Feeds a[0..n) in pieces of nPiece, answering each request. */
static void fuzz_run(const char *a, size_t n, size_t nPiece, const http_routes *pRoutes,
                     fuzz_trace *t) {
  http_parser *p = malloc(sizeof(*p));
  strbuf s;
  size_t i = 0;
  memset(t, 0, sizeof(*t));
  http_parser_init(p, NULL);
  strbuf_init(&s);
  while (i < n) {
    size_t nHere = n - i < nPiece ? n - i : nPiece, nUsed = (size_t)-1;
    http_parse_rc rc = http_parser_feed(p, a + i, nHere, &nUsed);
    if (nUsed > nHere) abort();
    i += nUsed;
    if (rc == HTTP_PARSE_MORE) {
      if (nUsed != nHere) abort();
      continue;
    }
    strbuf_reset(&s);
    if (rc == HTTP_PARSE_ERROR) {
      if (p->iStatus < 400 || p->iStatus > 505 || p->zWhy == NULL) abort();
      http_error_write(&s, p);
      fuzz_response_check(&s);
      t->iEndStatus = p->iStatus;
      break;
    }
    t->nReq++;
    fuzz_mix(t, p->req.zPath);
    fuzz_mix(t, p->req.zMethod);
    if (p->req.zQuery != NULL) fuzz_mix(t, p->req.zQuery);
    if (http_route_answer(pRoutes, &p->req, &s) != !p->req.bKeepAlive &&
        p->req.eMethod != HTTP_METHOD_OTHER) {
      abort();
    }
    fuzz_response_check(&s);
    s.z[strcspn(s.z, "\r")] = 0;   /* the status line: the Date may differ */
    fuzz_mix(t, s.z);
    http_parser_reset(p);
  }
  strbuf_free(&s);
  free(p);
}

/* The escaped text must be UTF-8 with no byte below 0x20 and no quote or
** backslash but as an escape. */
static void fuzz_escape_check(const char *a, size_t n) {
  strbuf s;
  const unsigned char *z;
  strbuf_init(&s);
  json_string_escape(&s, a, n);
  z = (const unsigned char *)strbuf_str(&s);
  for (size_t i = 0; i < s.n; i++) {
    if (z[i] < 0x20) abort();
    if (z[i] == '"') abort();
    if (z[i] == '\\') {
      i++;
      if (i >= s.n || strchr("\"\\bfnrtu", z[i]) == NULL) abort();
    } else if (z[i] >= 0x80) {
      size_t nSeq = z[i] >= 0xf0 ? 4 : z[i] >= 0xe0 ? 3 : z[i] >= 0xc2 ? 2 : 0;
      if (nSeq == 0 || i + nSeq > s.n) abort();
      for (size_t k = 1; k < nSeq; k++) {
        if ((z[i + k] & 0xc0) != 0x80) abort();
      }
      i += nSeq - 1;
    }
  }
  strbuf_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData) {
  static metrics *pMetrics;
  http_routes routes;
  fuzz_trace tPieces, tWhole;
  const char *a = (const char *)aData + 1;
  size_t n;

  if (nData == 0) return 0;
  n = nData - 1;
  if (pMetrics == NULL) pMetrics = metrics_new();
  memset(&routes, 0, sizeof(routes));
  routes.xReady = fuzz_ready;
  routes.xSnapshot = fuzz_snapshot;
  routes.pMetrics = pMetrics;

  fuzz_run(a, n, 1 + aData[0] % 64, &routes, &tPieces);
  fuzz_run(a, n, n > 0 ? n : 1, &routes, &tWhole);
  if (tPieces.h != tWhole.h || tPieces.nReq != tWhole.nReq ||
      tPieces.iEndStatus != tWhole.iEndStatus) {
    abort();
  }
  fuzz_escape_check(a, n);
  return 0;
}
