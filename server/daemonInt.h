/*
** server/daemonInt.h — the daemon's private structures, shared by
** daemon.c (the process, ports, signals, status) and conn.c (one SQL
** connection). Everything here belongs to the loop thread.
*/
#ifndef STARQ_DAEMON_INT_H
#define STARQ_DAEMON_INT_H

#include <uv.h>

#include "auth.h"
#include "daemon.h"
#include "stmt-cost.h"
#include "stmt.h"
#include "http-conn.h"
#include "pool.h"
#include "session.h"

typedef struct conn conn;

struct starqd {
  daemon_config cfg;
  uv_loop_t loop;
  uv_tcp_t listener;           /* the SQL port */
  uv_signal_t sigTerm, sigInt;
  uv_signal_t sigHup;          /* reloads the password file */
  auth_file *pAuth;            /* --password-file's users, or NULL; replaced
                               ** whole by a reload (conn.c reads it) */
  http_server *pHttp;
  pool *pPool;
  stmt_cost *pCost;            /* statements' expected run seconds: the
                               ** pool's queue order (loop thread) */
  executor *ex;
  metrics_starq metrics;
  status_recent *pRecent;
  stmt_ctx ctx;
  double tStart;               /* Unix seconds */
  int bReady;                  /* catalog open and backend ready */
  int bShutdown;               /* a signal came: draining */
  int bListening;
  int bListenLoopback;         /* the SQL port is bound to a loopback address */
  int bFinished;               /* shutdown's last step has run */
  int iExit;                   /* daemon_run's result */
  int iPort;                   /* the SQL port bound */
  int nConn;                   /* connections open (sessions included) */
  int nSession;                /* of them, logged in and not closing
                               ** (--max-connections) */
  struct ssl_ctx_st *pSslCtx;  /* --ssl-cert/--ssl-key's context, or NULL:
                               ** no TLS (SSLRequest gets 'N'); owned */
  unsigned char aCbind[64];    /* its certificate's tls-server-end-point, for */
  int nCbind;                  /* SCRAM-SHA-256-PLUS; 0: none */
  int nPending;                /* of them, not logged in yet: at most
                               ** --max-connections, the oldest closed first */
  conn *pConnList;             /* every connection */
  int32_t iNextPid;
  executor_device statusDev;   /* the last /status snapshot's device ... */
  status_table *aStatusTable;  /* ... and tables (names malloc'd), kept until the next */
  int nStatusTable;            /* BackendKeyData pids, one per connection */
};

typedef struct conn_tls conn_tls;   /* conn-tls.c */

/* One SQL connection. Freed in its handle's close callback. */
struct conn {
  uv_tcp_t tcp;                /* first: handle callbacks find the conn */
  starqd *d;
  pg_session *s;
  stmt_settings set;         /* the session's settings */
  stmt_job *pJob;            /* the job out with the engine, or NULL */
  stmt_copy *pCopy;          /* a COPY FROM STDIN between its jobs, or NULL */
  stmt_cursors *pCursors;    /* DECLAREd cursors; owned (a reference), or NULL */
  uv_write_t wr;
  size_t nWriting;             /* bytes in the write in flight; 0: none */
  uv_timer_t timer;            /* --authentication-timeout until logged in,
                               ** then statement_timeout */
  uv_async_t wake;             /* a stream of the job's rows has news */
  stmt_wake *pWake;            /* wake, as streams hold it; owned (a reference) */
  int bReading;
  int bClosing;                /* uv_close called */
  int bAccepted;               /* logged in: counted in the connection gauge
                               ** and d->nSession */
  int bPending;                /* accepted, not logged in nor closing: in
                               ** d->nPending */
  double tConnect;             /* timer_now() at accept, for the session's time */
  conn_tls *pTls;              /* TLS once the session asked for it, or NULL */
  char *pTlsWrite;             /* the TLS write in flight's bytes; owned */
  char zHost[64];              /* the client's address, for the log ... */
  int iHostPort;               /* ... and port (0: unknown) */
  int bFatalPending;           /* shutdown: send 57P01 once the job ends */
  int nHandles;                /* handles still open (tcp, timer) */
  int32_t iPid, iSecret;
  conn *pNext, *pPrev;
};

/* conn.c */
void conn_accept(starqd *d);
void conn_shutdown(conn *c);
void conn_cancel(starqd *d, int32_t iPid, int32_t iSecret);

/* conn-tls.c: TLS under the session, over memory BIOs */
int conn_tls_ctx_open(const char *zCert, const char *zKey, struct ssl_ctx_st **pp, char *zErr,
                      size_t nErr);
void conn_tls_ctx_close(struct ssl_ctx_st *ctx);
int conn_tls_end_point(struct ssl_ctx_st *ctx, unsigned char *a, int nMax);
int conn_tls_start(conn *c, struct ssl_ctx_st *ctx);
void conn_tls_free(conn *c);
int conn_tls_read(conn *c, const char *p, size_t n);
int conn_tls_write(conn *c, uv_write_cb xDone);
void conn_tls_describe(const conn *c, char *z, size_t n);

/* conn-log.c: what a connection writes to the log, by the --log-* settings */
void conn_log_received(const conn *c);
void conn_log_authorized(const conn *c);
void conn_log_disconnected(const conn *c);
void conn_log_fatal(const conn *c, const char *zState, const char *zMsg);
void conn_log_statement_start(const conn *c, const stmt_job *j);
void conn_log_statement_end(const conn *c, const stmt_job *j, query_outcome e);

#endif /* STARQ_DAEMON_INT_H */
