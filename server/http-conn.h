/*
** server/http-conn.h — the status port on a libuv loop: a TCP listener
** whose connections are parsed by http.h and answered by http-route.h.
**
** This is the only part of the status endpoint that touches sockets; it
** runs on the daemon's loop beside the SQL port and never blocks it: a
** request is answered from the state the routes' callbacks hand over,
** in one write. Per connection: one request is parsed at a time;
** pipelined requests wait in the input until the previous response is
** written, and the connection is not read while a write is in flight, so a
** client that sends and never reads stalls only itself. A connection that
** completes no request for msIdle is closed (slow or idle clients). Past
** nConnMax connections, a new one closes the one that has waited longest
** for a request (or is itself closed at once when every other has a
** response in flight), so idle clients cannot lock out /livez. After a response
** that closes, the write side is shut down and the socket drained briefly
** before it is closed, so the client reads the whole response rather than
** a reset.
**
** With pSslCtx every connection speaks TLS (HTTPS) and nothing else.
**
** Lifetime: the server belongs to the caller until http_server_stop(),
** whose callback says when every handle is closed and the server freed.
** The routes struct is copied; what its pointers reach must outlive the
** server.
**
** INTERFACE ROUTINES
**   http_server_start    bind, listen, serve on a loop
**   http_server_port     the port bound (when 0 was asked for)
**   http_server_stop     close the listener and every connection
*/
#ifndef STARQ_HTTP_CONN_H
#define STARQ_HTTP_CONN_H

#include <stddef.h>
#include <uv.h>

#include "http-route.h"
#include "http.h"

typedef struct http_server_config http_server_config;
struct http_server_config {
  const char *zAddr;            /* IPv4 or IPv6 address to bind; NULL: 127.0.0.1 */
  int iPort;                    /* 0: any free port (see http_server_port) */
  int nConnMax;                 /* connections at once; 0: 64 */
  int msIdle;                   /* close a connection idle this long; 0: 30000 */
  const http_limits *pLimits;   /* NULL: the parser's defaults */
  struct ssl_ctx_st *pSslCtx;   /* HTTPS under this context (not owned, it
                                ** must outlive the server); NULL: HTTP */
};

typedef struct http_server http_server;

/* Called once the server has closed every handle and freed itself. */
typedef void (*http_server_stop_cb)(void *pArg);

/* Starts serving on pLoop (the caller runs the loop). Returns 0, or a
** negative libuv error with a message naming the failed call in zErr;
** after a failed bind or listen the half-made listener is closed and its
** memory freed by the loop's next run, as libuv closes handles. */
int http_server_start(http_server **pp, uv_loop_t *pLoop, const http_server_config *pCfg,
                      const http_routes *pRoutes, char *zErr, size_t nErr);

/* Returns the port the listener is bound to. */
int http_server_port(const http_server *p);

/* Stops listening and closes every connection, from the loop's thread.
** xDone (may be NULL) runs from the loop once all is closed. */
void http_server_stop(http_server *p, http_server_stop_cb xDone, void *pArg);

#endif /* STARQ_HTTP_CONN_H */
