/*
** server/http-conn.c — the status port's listener and connections on a
** libuv loop (http-conn.h).
**
** A connection's life, numbered as the code does it:
**   1. accepted: its idle timer starts, reading starts;
**   2. bytes arrive into aIn and are parsed one request at a time; each
**      complete request is answered into out;
**   3. out is written in one uv_write, with reading stopped until the
**      write completes (pipelined requests wait in aIn), then 2 again;
**   4. after a response that closes (an error, "Connection: close",
**      HTTP/1.0), the write side is shut down and what the client still
**      sends is read and dropped until it closes or DRAIN_MS pass;
**   5. closed: the TCP handle and the timer are closed, and the memory
**      goes when both close callbacks have run.
** The idle timer is restarted whenever a response is written; when it
** fires the connection is closed without an answer.
**
** HTTPS (http_server_config.pSslCtx): every connection is a TLS session
** over memory BIOs (tls-mem.c). What the socket reads goes to OpenSSL;
** the handshake's records are written as they come, each write a buffer
** of its own (http_tls_wr), freed in its callback; plain text is taken
** into aIn only as far as it has room, the rest waits in OpenSSL until
** the response before it is written (process() takes it first); a
** response is encrypted whole and written as one buffer; a closing
** response is followed by close_notify before the shutdown.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "http-conn.h"
#include "tls-mem.h"

#define HTTP_CONN__READ_MAX 8192     /* bytes one read may bring */
#define HTTP_CONN__DRAIN_MS 1000     /* after shutdown, how long to drain */

typedef struct http_conn http_conn;

struct http_server {
  uv_tcp_t listener;            /* the listening socket */
  uv_loop_t *pLoop;             /* not owned */
  http_routes routes;           /* a copy; its pointers are not owned */
  http_server_config cfg;       /* with defaults filled in */
  http_limits lim;              /* cfg.pLimits points here, or is NULL */
  http_conn *pConns;            /* open connections, a doubly linked list */
  int nConn;
  int nHandleOpen;              /* the listener, and every connection */
  int bStopping;
  http_server_stop_cb xDone;
  void *pDoneArg;
};

/* Connection states. */
#define HTTP_CONN__READING  0   /* parsing; no write in flight */
#define HTTP_CONN__WRITING  1   /* a write in flight; not reading */
#define HTTP_CONN__DRAINING 2   /* shut down; reading and dropping */
#define HTTP_CONN__CLOSING  3   /* handles closing */

struct http_conn {
  uv_tcp_t tcp;
  uv_timer_t timer;             /* idle, then drain, timeout */
  uv_write_t wr;
  uv_shutdown_t shut;
  http_server *pSrv;
  http_conn *pNext, *pPrev;
  int eState;                   /* HTTP_CONN__* */
  int bCloseAfter;              /* the response being written ends the connection */
  int nClosePending;            /* handles whose close callback is due */
  http_parser parser;
  char aIn[HTTP_CONN__READ_MAX];/* bytes read and not yet parsed */
  size_t nIn;
  char aRead[HTTP_CONN__READ_MAX];  /* libuv reads into this */
  strbuf out;                   /* the responses being written */
  tls_mem *pTls;                /* HTTPS: the session; else NULL */
};

/* A TLS write in flight: its bytes, freed by its callback. */
typedef struct http_tls_wr http_tls_wr;
struct http_tls_wr {
  uv_write_t req;
  http_conn *c;
  int bResponse;                /* the response's: its end moves the state on */
  char *p;
};

static void http_conn__close(http_conn *c);
static void http_conn__process(http_conn *c);

/* ---- closing -------------------------------------------------------------- */

static void http_server__handle_closed(http_server *s) {
  if (--s->nHandleOpen > 0 || !s->bStopping) return;
  if (s->xDone != NULL) s->xDone(s->pDoneArg);
  free(s);
}

static void http_conn__closed(uv_handle_t *h) {
  http_conn *c = h->data;
  http_server *s = c->pSrv;
  if (--c->nClosePending > 0) return;
  strbuf_free(&c->out);
  tls_mem_free(c->pTls);
  free(c);
  http_server__handle_closed(s);
}

static void http_conn__close(http_conn *c) {
  http_server *s = c->pSrv;
  if (c->eState == HTTP_CONN__CLOSING) return;
  c->eState = HTTP_CONN__CLOSING;
  if (c->pPrev != NULL) c->pPrev->pNext = c->pNext;
  else s->pConns = c->pNext;
  if (c->pNext != NULL) c->pNext->pPrev = c->pPrev;
  s->nConn--;
  c->nClosePending = 2;
  uv_close((uv_handle_t *)&c->timer, http_conn__closed);
  uv_close((uv_handle_t *)&c->tcp, http_conn__closed);
}

static void http_conn__timeout(uv_timer_t *t) { http_conn__close(t->data); }

static void http_conn__written_status(http_conn *c, int status);

/* ---- TLS ------------------------------------------------------------------ */

/* Logs why TLS failed on c (at DEBUG: a client's doing) and closes it. */
static void http_conn__tls_fail(http_conn *c, const char *zErr) {
  log_printf(LOG_LEVEL_DEBUG, "status port: TLS: %s", zErr);
  http_conn__close(c);
}

static void http_conn__tls_written(uv_write_t *req, int status) {
  http_tls_wr *w = req->data;
  http_conn *c = w->c;
  int bResponse = w->bResponse;
  free(w->p);
  free(w);
  if (bResponse) {
    http_conn__written_status(c, status);
  } else if (status != 0 && c->eState != HTTP_CONN__CLOSING) {
    http_conn__close(c);
  }
}

/* Writes what OpenSSL has for the client, if anything. Returns 0, or -1
** after closing c. */
static int http_conn__tls_flush(http_conn *c, int bResponse) {
  char zErr[300];
  size_t n;
  http_tls_wr *w;
  uv_buf_t b;
  char *p = tls_mem_take(c->pTls, &n, zErr, sizeof(zErr));
  if (p == NULL) {
    if (n == 0 && bResponse) http_conn__written_status(c, 0);   /* nothing to wait for */
    if (n == 0) return 0;
    http_conn__tls_fail(c, zErr);
    return -1;
  }
  if ((w = calloc(1, sizeof(*w))) == NULL) {
    free(p);
    http_conn__close(c);
    return -1;
  }
  w->c = c;
  w->bResponse = bResponse;
  w->p = p;
  w->req.data = w;
  b = uv_buf_init(p, (unsigned)n);
  if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &b, 1, http_conn__tls_written) != 0) {
    free(p);
    free(w);
    http_conn__close(c);
    return -1;
  }
  return 0;
}

/* Takes the plain text OpenSSL holds into aIn, as far as it has room.
** Returns 0, or -1 after closing c. */
static int http_conn__tls_take(http_conn *c) {
  char zErr[300];
  while (c->nIn < sizeof(c->aIn)) {
    int k = tls_mem_read(c->pTls, c->aIn + c->nIn, sizeof(c->aIn) - c->nIn, zErr, sizeof(zErr));
    if (k == 0) break;
    if (k < 0) {
      if (zErr[0] != 0) http_conn__tls_fail(c, zErr);
      else http_conn__close(c);                   /* close_notify */
      return -1;
    }
    c->nIn += (size_t)k;
  }
  return 0;
}

/* nRead bytes of ciphertext in aRead: the handshake moved on (its
** records written), then the requests they complete answered. */
static void http_conn__tls_in(http_conn *c, size_t nRead) {
  char zErr[300];
  if (tls_mem_put(c->pTls, c->aRead, nRead, zErr, sizeof(zErr)) != 0) {
    http_conn__tls_fail(c, zErr);
    return;
  }
  if (http_conn__tls_flush(c, 0) != 0) return;
  http_conn__process(c);
}

/* ---- reading -------------------------------------------------------------- */

static void http_conn__alloc(uv_handle_t *h, size_t nHint, uv_buf_t *pBuf) {
  http_conn *c = h->data;
  (void)nHint;
  *pBuf = uv_buf_init(c->aRead, sizeof(c->aRead));
}

static void http_conn__read(uv_stream_t *st, ssize_t nRead, const uv_buf_t *pBuf) {
  http_conn *c = st->data;
  (void)pBuf;
  if (nRead < 0) {
    http_conn__close(c);
    return;
  }
  if (c->eState != HTTP_CONN__READING) return;   /* draining: dropped */
  if (c->pTls != NULL) {
    http_conn__tls_in(c, (size_t)nRead);
    return;
  }
  /* Reading runs only while aIn is empty (process() parses all it can
  ** before reading resumes), so a read always fits; were that ever not
  ** so, the connection goes rather than the memory. */
  if (c->nIn + (size_t)nRead > sizeof(c->aIn)) {
    http_conn__close(c);
    return;
  }
  memcpy(c->aIn + c->nIn, c->aRead, (size_t)nRead);
  c->nIn += (size_t)nRead;
  http_conn__process(c);
}

/* ---- writing -------------------------------------------------------------- */

static void http_conn__shutdown_done(uv_shutdown_t *req, int status) {
  http_conn *c = req->data;
  if (status != 0 || c->eState == HTTP_CONN__CLOSING) {
    http_conn__close(c);
    return;
  }
  uv_timer_start(&c->timer, http_conn__timeout, HTTP_CONN__DRAIN_MS, 0);
}

/* Ends the connection after its last response: shut down the write side,
** then drain until the client closes or the timer fires. */
static void http_conn__finish(http_conn *c) {
  c->eState = HTTP_CONN__DRAINING;
  c->shut.data = c;
  if (c->pTls != NULL) {
    tls_mem_close_notify(c->pTls);
    if (http_conn__tls_flush(c, 0) != 0) return;
  }
  if (uv_read_start((uv_stream_t *)&c->tcp, http_conn__alloc, http_conn__read) != 0 ||
      uv_shutdown(&c->shut, (uv_stream_t *)&c->tcp, http_conn__shutdown_done) != 0) {
    http_conn__close(c);
  }
}

static void http_conn__written(uv_write_t *req, int status) {
  http_conn__written_status(req->data, status);
}

static void http_conn__written_status(http_conn *c, int status) {
  if (c->eState == HTTP_CONN__CLOSING) return;
  if (status != 0) {
    http_conn__close(c);
    return;
  }
  strbuf_reset(&c->out);
  if (c->bCloseAfter) {
    http_conn__finish(c);
    return;
  }
  c->eState = HTTP_CONN__READING;
  uv_timer_start(&c->timer, http_conn__timeout, (uint64_t)c->pSrv->cfg.msIdle, 0);
  if (uv_read_start((uv_stream_t *)&c->tcp, http_conn__alloc, http_conn__read) != 0) {
    http_conn__close(c);
    return;
  }
  http_conn__process(c);
}

/* Parses what aIn holds and answers every request completed in it, then
** writes the answers, if any, in one write. */
static void http_conn__process(http_conn *c) {
  size_t iIn = 0;
  uv_buf_t buf;
  if (c->eState != HTTP_CONN__READING) return;
  if (c->pTls != NULL && http_conn__tls_take(c) != 0) return;
  while (iIn < c->nIn && !c->bCloseAfter) {
    size_t nUsed;
    http_parse_rc rc = http_parser_feed(&c->parser, c->aIn + iIn, c->nIn - iIn, &nUsed);
    iIn += nUsed;
    if (rc == HTTP_PARSE_MORE) break;
    if (rc == HTTP_PARSE_ERROR) {
      http_error_write(&c->out, &c->parser);
      c->bCloseAfter = 1;
      break;
    }
    c->bCloseAfter = http_route_answer(&c->pSrv->routes, &c->parser.req, &c->out);
    http_parser_reset(&c->parser);
  }
  memmove(c->aIn, c->aIn + iIn, c->nIn - iIn);
  c->nIn -= iIn;
  if (c->out.n == 0) return;
  if (strbuf_error(&c->out)) {
    http_conn__close(c);
    return;
  }
  uv_read_stop((uv_stream_t *)&c->tcp);
  c->eState = HTTP_CONN__WRITING;
  if (c->pTls != NULL) {
    char zErr[300];
    if (tls_mem_write(c->pTls, c->out.z, c->out.n, zErr, sizeof(zErr)) != 0) {
      http_conn__tls_fail(c, zErr);
      return;
    }
    strbuf_reset(&c->out);
    (void)http_conn__tls_flush(c, 1);
    return;
  }
  c->wr.data = c;
  buf = uv_buf_init(c->out.z, (unsigned)c->out.n);
  if (uv_write(&c->wr, (uv_stream_t *)&c->tcp, &buf, 1, http_conn__written) != 0) {
    http_conn__close(c);
  }
}

/* ---- accepting ------------------------------------------------------------ */

/* Sets up a connection's handles and links it in. Returns it, or NULL. */
static http_conn *http_conn__new(http_server *s) {
  http_conn *c = calloc(1, sizeof(*c));
  if (c == NULL) return NULL;
  c->pSrv = s;
  strbuf_init(&c->out);
  http_parser_init(&c->parser, s->cfg.pLimits);
  uv_tcp_init(s->pLoop, &c->tcp);
  uv_timer_init(s->pLoop, &c->timer);
  c->tcp.data = c->timer.data = c;
  c->pNext = s->pConns;
  if (s->pConns != NULL) s->pConns->pPrev = c;
  s->pConns = c;
  s->nConn++;
  s->nHandleOpen++;
  return c;
}

/* Returns the connection that has waited longest for a request (reading,
** no response in flight), other than cNew, or NULL. The list is newest
** first, so the last one reading is the oldest. */
static http_conn *http_conn__oldest_reading(http_server *s, const http_conn *cNew) {
  http_conn *pOld = NULL;
  for (http_conn *c = s->pConns; c != NULL; c = c->pNext) {
    if (c != cNew && c->eState == HTTP_CONN__READING) pOld = c;
  }
  return pOld;
}

static void http_server__accept(uv_stream_t *pListener, int status) {
  http_server *s = pListener->data;
  http_conn *c;
  if (status != 0 || s->bStopping) return;
  c = http_conn__new(s);
  if (c == NULL) return;   /* the pending connection waits for the next accept */
  if (uv_accept(pListener, (uv_stream_t *)&c->tcp) != 0) {
    http_conn__close(c);
    return;
  }
  if (s->nConn > s->cfg.nConnMax) {
    /* Full: the one that has waited longest for a request makes room, so
    ** that idle or slow clients cannot keep a probe of /livez out. Only
    ** when every other one has a response in flight is the new one
    ** refused. */
    http_conn *pOld = http_conn__oldest_reading(s, c);
    http_conn__close(pOld != NULL ? pOld : c);
    if (pOld == NULL) return;
  }
  uv_tcp_nodelay(&c->tcp, 1);
  if (s->cfg.pSslCtx != NULL) {
    char zErr[300];
    if ((c->pTls = tls_mem_new(s->cfg.pSslCtx, zErr, sizeof(zErr))) == NULL) {
      log_printf(LOG_LEVEL_ERROR, "status port: %s", zErr);
      http_conn__close(c);
      return;
    }
  }
  if (uv_timer_start(&c->timer, http_conn__timeout, (uint64_t)s->cfg.msIdle, 0) != 0 ||
      uv_read_start((uv_stream_t *)&c->tcp, http_conn__alloc, http_conn__read) != 0) {
    http_conn__close(c);
  }
}

/* ---- the server ------------------------------------------------------------- */

/* Fills s->cfg from pCfg with the defaults. */
static void http_server__config(http_server *s, const http_server_config *pCfg) {
  if (pCfg != NULL) s->cfg = *pCfg;
  if (s->cfg.zAddr == NULL) s->cfg.zAddr = "127.0.0.1";
  if (s->cfg.nConnMax <= 0) s->cfg.nConnMax = 64;
  if (s->cfg.msIdle <= 0) s->cfg.msIdle = 30000;
  if (s->cfg.pLimits != NULL) {
    s->lim = *s->cfg.pLimits;
    s->cfg.pLimits = &s->lim;
  }
}

static void http_server__listener_closed(uv_handle_t *h) {
  http_server__handle_closed(h->data);
}

int http_server_start(http_server **pp, uv_loop_t *pLoop, const http_server_config *pCfg,
                      const http_routes *pRoutes, char *zErr, size_t nErr) {
  http_server *s = calloc(1, sizeof(*s));
  struct sockaddr_storage addr;
  int rc;
  *pp = NULL;
  if (s == NULL) {
    snprintf(zErr, nErr, "http server: out of memory");
    return UV_ENOMEM;
  }
  http_server__config(s, pCfg);
  s->pLoop = pLoop;
  s->routes = *pRoutes;
  if ((rc = uv_ip4_addr(s->cfg.zAddr, s->cfg.iPort, (struct sockaddr_in *)&addr)) != 0 &&
      (rc = uv_ip6_addr(s->cfg.zAddr, s->cfg.iPort, (struct sockaddr_in6 *)&addr)) != 0) {
    snprintf(zErr, nErr, "http server: bad address \"%s\"", s->cfg.zAddr);
    free(s);
    return rc;
  }
  uv_tcp_init(pLoop, &s->listener);
  s->listener.data = s;
  s->nHandleOpen = 1;
  if ((rc = uv_tcp_bind(&s->listener, (const struct sockaddr *)&addr, 0)) != 0 ||
      (rc = uv_listen((uv_stream_t *)&s->listener, 128, http_server__accept)) != 0) {
    snprintf(zErr, nErr, "http server: listen on %s port %d: %s", s->cfg.zAddr, s->cfg.iPort,
             uv_strerror(rc));
    s->bStopping = 1;
    uv_close((uv_handle_t *)&s->listener, http_server__listener_closed);
    return rc;
  }
  *pp = s;
  return 0;
}

int http_server_port(const http_server *s) {
  struct sockaddr_storage addr;
  int n = sizeof(addr);
  if (uv_tcp_getsockname(&s->listener, (struct sockaddr *)&addr, &n) != 0) return -1;
  if (addr.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&addr)->sin6_port);
  return ntohs(((struct sockaddr_in *)&addr)->sin_port);
}

void http_server_stop(http_server *s, http_server_stop_cb xDone, void *pArg) {
  s->bStopping = 1;
  s->xDone = xDone;
  s->pDoneArg = pArg;
  while (s->pConns != NULL) http_conn__close(s->pConns);
  uv_close((uv_handle_t *)&s->listener, http_server__listener_closed);
}
