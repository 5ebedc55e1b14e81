/*
** server/http-route.h — what the status port answers: routes a parsed
** request (http.h) to its page and writes the whole response.
**
**   GET/HEAD /livez     200 "ok" while the process serves at all
**   GET/HEAD /readyz    503 until the daemon says catalog and device are
**                       ready, then 200
**   GET/HEAD /status    the status snapshot as JSON (status.h)
**   GET/HEAD /metrics   the metrics registry, Prometheus text 0.0.4
**   GET/HEAD /          the dashboard (dashboard.html, built in)
**   anything else       404; a method other than GET or HEAD, 405
**
** The router owns nothing: the daemon hands it an http_routes of
** callbacks into its state, and it runs on the loop thread, so pointers
** the snapshot callback gives out need only last until it returns.
**
** INTERFACE ROUTINES
**   http_route_answer    one request in, one whole response out
*/
#ifndef STARQ_HTTP_ROUTE_H
#define STARQ_HTTP_ROUTE_H

#include "../common/strbuf.h"
#include "http.h"
#include "metrics.h"
#include "status.h"

/* The dashboard page, embedded from server/dashboard.html at build time. */
extern const char server_dashboard_html[];

/* Returns 1 once the catalog is open and the device is ready. */
typedef int (*http_ready_fn)(void *pCtx);
/* Fills *pSnap (zeroed by the caller) with the server's state now;
** bReady is filled by the router from xReady. */
typedef void (*http_snapshot_fn)(void *pCtx, status_snapshot *pSnap);
/* Brings gauges that are read rather than pushed (device memory) up to
** date before /metrics is rendered. */
typedef void (*http_metrics_refresh_fn)(void *pCtx);

typedef struct http_routes http_routes;
struct http_routes {
  void *pCtx;                          /* passed to every callback */
  http_ready_fn xReady;                /* NULL: never ready */
  http_snapshot_fn xSnapshot;          /* NULL: /status is 503 */
  http_metrics_refresh_fn xRefresh;    /* may be NULL */
  metrics *pMetrics;                   /* rendered at /metrics; NULL: 503 */
};

/* Appends the whole response to pReq (status line, headers, and the body
** unless it is a HEAD) to pOut. Returns 1 if the connection must close
** after it, else 0. */
int http_route_answer(const http_routes *p, const http_request *pReq, strbuf *pOut);

#endif /* STARQ_HTTP_ROUTE_H */
