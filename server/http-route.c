/*
** server/http-route.c — the routes of the status port (http-route.h).
**
** Each route makes an http_response; framing (HEAD without a body,
** keep-alive or close) is http_response_write()'s, the same for all. A
** body that fails to build (out of memory) is a 500 that closes the
** connection, as the server's state is then suspect.
*/
#include <string.h>

#include "http-route.h"

#define HTTP_ROUTE__TEXT "text/plain; charset=utf-8"
#define HTTP_ROUTE__METRICS "text/plain; version=0.0.4; charset=utf-8"

static void http_route__text(http_response *r, int iStatus, const char *zBody) {
  r->iStatus = iStatus;
  r->zContentType = HTTP_ROUTE__TEXT;
  r->zBody = zBody;
  r->nBody = strlen(zBody);
}

static int http_route__ready(const http_routes *p) {
  return p->xReady != NULL && p->xReady(p->pCtx);
}

/* Fills r from the body built in b, or with a 500 if building it failed.
** Returns 0, or -1 after a failure. */
static int http_route__built(http_response *r, strbuf *b, int rc, const char *zType) {
  if (rc != 0 || strbuf_error(b)) {
    http_route__text(r, 500, "out of memory\n");
    return -1;
  }
  r->iStatus = 200;
  r->zContentType = zType;
  r->zBody = strbuf_str(b);
  r->nBody = b->n;
  return 0;
}

/* 200 once ready, 503 before; the body says whether the device cache is
** still warming (a load balancer that wants warm servers reads it). */
static void http_route__readyz(const http_routes *p, http_response *r, strbuf *b) {
  status_snapshot snap;
  if (!http_route__ready(p)) {
    http_route__text(r, 503, "not ready\n");
    return;
  }
  memset(&snap, 0, sizeof(snap));
  if (p->xSnapshot != NULL) p->xSnapshot(p->pCtx, &snap);
  if (snap.eWarm == COLMEM_WARM_RUNNING) {
    strbuf_printf(b, "ready; device cache warming: %.0f%% of %lld bytes\n",
                  snap.nWarmTotal > 0 ? 100.0 * (double)snap.nWarmDone / (double)snap.nWarmTotal : 0.0,
                  (long long)snap.nWarmTotal);
  } else {
    strbuf_printf(b, "ready; device cache %s\n", snap.eWarm == COLMEM_WARM_DONE ? "warm" : "not kept");
  }
  if (http_route__built(r, b, 0, "text/plain; charset=utf-8") != 0) return;
}

static int http_route__status(const http_routes *p, http_response *r, strbuf *b) {
  status_snapshot snap;
  if (p->xSnapshot == NULL) {
    http_route__text(r, 503, "no status yet\n");
    return 0;
  }
  memset(&snap, 0, sizeof(snap));
  p->xSnapshot(p->pCtx, &snap);
  snap.bReady = http_route__ready(p);
  return http_route__built(r, b, status_json_render(&snap, b), "application/json");
}

static int http_route__metrics(const http_routes *p, http_response *r, strbuf *b) {
  if (p->pMetrics == NULL) {
    http_route__text(r, 503, "no metrics yet\n");
    return 0;
  }
  if (p->xRefresh != NULL) p->xRefresh(p->pCtx);
  return http_route__built(r, b, metrics_render(p->pMetrics, b), HTTP_ROUTE__METRICS);
}

int http_route_answer(const http_routes *p, const http_request *pReq, strbuf *pOut) {
  http_response r;
  strbuf body;
  const char *zPath = pReq->zPath != NULL ? pReq->zPath : "";
  int bClose = !pReq->bKeepAlive, rc = 0;

  memset(&r, 0, sizeof(r));
  strbuf_init(&body);
  if (pReq->eMethod == HTTP_METHOD_OTHER) {
    http_route__text(&r, 405, "only GET and HEAD are served here\n");
    r.zAllow = "GET, HEAD";
    bClose = 1;
  } else if (strcmp(zPath, "/livez") == 0) {
    http_route__text(&r, 200, "ok\n");
  } else if (strcmp(zPath, "/readyz") == 0) {
    http_route__readyz(p, &r, &body);
  } else if (strcmp(zPath, "/status") == 0) {
    rc = http_route__status(p, &r, &body);
  } else if (strcmp(zPath, "/metrics") == 0) {
    rc = http_route__metrics(p, &r, &body);
  } else if (strcmp(zPath, "/") == 0) {
    r.iStatus = 200;
    r.zContentType = "text/html; charset=utf-8";
    r.zBody = server_dashboard_html;
    r.nBody = strlen(server_dashboard_html);
  } else {
    http_route__text(&r, 404, "not found\n");
  }
  if (rc != 0) bClose = 1;
  http_response_write(pOut, &r, pReq->iMinor, pReq->eMethod == HTTP_METHOD_HEAD, !bClose);
  strbuf_free(&body);
  return bClose;
}
