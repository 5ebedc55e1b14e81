/*
** server/conn.c — one SQL connection on the loop: the TCP stream under a
** pg_session, and the session's engine (pg_engine) as jobs on the
** executor pool.
**
** The stream: bytes read go to pg_session_feed(); after every event
** conn_pump() writes what the session has to say (one write in flight at
** a time, so a slow reader holds at most the session's high-water mark of
** output) and starts or stops reading as the session's flags say.
**
** The engine: each pg_job becomes an stmt_job on the pool; its outcome
** comes back on the loop (conn_job_done) and goes to the session. A
** cancel (CancelRequest or statement_timeout) answers 57014 at once and
** orphans the job: its thread stops it before the next kernel (the
** executor checks the job's flag), and the job is freed when it reports
** back, its result discarded. A kernel already running is not preempted.
**
** Logging in: the session runs authentication as --auth says (trust,
** or SCRAM-SHA-256 for peers off loopback or for all); verifiers come
** from the daemon's password file (auth.h). conn_on_accept then refuses
** the login while starting up (57P03), shutting down (57P01) or full
** (53300).
**
** Streamed rows: a SELECT's job makes its ROWS outcome as soon as its
** first batch is there (stmt-stream.c) and wakes the loop (the wake
** handle), which hands it to the session while the run goes on; later
** batches and the end wake it again (pg_session_rows_ready). Such a job
** stays c->pJob — cancel and statement_timeout reach it through its
** stream — until it reports back, or until the session, done with its
** rows, starts the next job.
**
** Closing: once the session says CLOSE (or the peer goes), the handles
** are closed; a job still out is orphaned first, and the session is freed
** in the last close callback.
**
** INTERFACE ROUTINES
**   conn_accept     a new connection on the SQL listener
**   conn_shutdown   end the session with 57P01 (now, or when its query ends)
**   conn_cancel     a CancelRequest for the session with this key
*/
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "daemonInt.h"

static void conn_pump(conn *c);
static void conn_close(conn *c);

/* c is not logging in any more (in, refused or closed): its slot among
** the connections logging in is free. */
static void conn_pending_leave(conn *c) {
  if (!c->bPending) return;
  c->bPending = 0;
  c->d->nPending--;
}

/* ---- the engine -------------------------------------------------------------- */

/* A job's outcome is back on the loop: hand it to the session. */
static void conn_job_done(pool_task *t) {
  stmt_job *j = (stmt_job *)t;
  conn *c = j->pConn;
  /* Statements that ran to their end (an abandoned one's time is cut
  ** short); COPY's data and the rest are not what queues. */
  if (c != NULL && j->bQuery && j->zSql != NULL) stmt_cost_learn(c->d->pCost, j->zSql, t->rRan);
  if (c == NULL) {   /* orphaned: the session has had its answer */
    stmt_job_free(j);
    return;
  }
  c->pJob = NULL;
  uv_timer_stop(&c->timer);
  {
    query_outcome e = j->out.eKind != PG_OUTCOME_ERROR  ? QUERY_OK
                      : strcmp(j->zState, "57014") == 0 ? QUERY_CANCELLED
                                                        : QUERY_ERROR;
    metrics_starq_statement_end(&c->d->metrics, e);
    conn_log_statement_end(c, j, e);
  }
  if (j->bDelivered) {   /* its rows are the session's already */
    stmt_job_free(j);
    pg_session_rows_ready(c->s);
    if (c->bFatalPending) {
      c->bFatalPending = 0;
      pg_session_fatal(c->s, "57P01", "terminating connection due to administrator command");
    }
    conn_pump(c);
    return;
  }
  c->pCopy = j->pCopy;   /* the COPY in progress comes back, if any */
  j->pCopy = NULL;
  if (j->bSettingsChanged) c->set = j->set;
  stmt_job_finish(j);
  pg_session_job_done(c->s, &j->out);
  j->out.pRes = NULL;   /* the session has it now */
  stmt_job_free(j);
  if (c->bFatalPending && c->pJob == NULL) {
    c->bFatalPending = 0;
    pg_session_fatal(c->s, "57P01", "terminating connection due to administrator command");
  }
  conn_pump(c);
}

/* A stream of the job's rows has news: its outcome goes to the session,
** or the session sends the rows that came. */
static void conn_on_wake(uv_async_t *h) {
  conn *c = h->data;
  stmt_job *j = c->pJob;
  if (c->bClosing) return;
  if (j != NULL && !j->bDelivered && j->pStream != NULL && stmt_stream_started(j->pStream)) {
    j->bDelivered = 1;
    pg_session_job_done(c->s, &j->out);
    j->out.pRes = NULL;   /* the session has it now */
  } else {
    pg_session_rows_ready(c->s);
  }
  conn_pump(c);
}

/* Answers the job out with 57014 now (unless the client is gone,
** eWhy QUERY_DISCONNECTED) and leaves it to stop alone: its executor
** sees bCancel at its next kernel, stride, CPU block or compiler poll, and
** counts it as eWhy (cancelled, timeout or disconnected). A streamed one
** whose rows the session has ends them with the error instead. */
static void conn_job_abandon(conn *c, query_outcome eWhy) {
  stmt_job *j = c->pJob;
  int bTimeout = eWhy == QUERY_TIMEOUT;
  const char *zMsg = bTimeout ? "canceling statement due to statement timeout"
                              : "canceling statement due to user request";
  if (j == NULL) return;
  atomic_store(&j->eAbandon, (int)eWhy);
  atomic_store(&j->bCancel, 1);
  metrics_starq_statement_end(&c->d->metrics, eWhy);
  conn_log_statement_end(c, j, eWhy);
  /* A run waiting for room in its stream stops too. */
  if (j->pStream != NULL) stmt_stream_cancel(j->pStream, zMsg);
  j->pConn = NULL;
  c->pJob = NULL;
  uv_timer_stop(&c->timer);
  if (j->bDelivered) {   /* the rows end with the cancel's error */
    pg_session_rows_ready(c->s);
    return;
  }
  {
    pg_outcome o;
    memset(&o, 0, sizeof(o));
    o.eKind = PG_OUTCOME_ERROR;
    o.error.zState = "57014";
    o.error.zMsg = zMsg;
    pg_session_job_done(c->s, &o);
  }
}

static void conn_on_timeout(uv_timer_t *h) {
  conn *c = h->data;
  if (c->pJob == NULL) return;
  conn_job_abandon(c, QUERY_TIMEOUT);
  if (c->bFatalPending) {
    c->bFatalPending = 0;
    pg_session_fatal(c->s, "57P01", "terminating connection due to administrator command");
  }
  conn_pump(c);
}

static void conn_job_start(void *pCtx, pg_session *s, const pg_job *pJob) {
  conn *c = pCtx;
  stmt_job *j = c->bClosing ? NULL : stmt_job_new(&c->d->ctx, pJob, &c->set);
  (void)s;
  if (j == NULL) {
    pg_outcome o;
    memset(&o, 0, sizeof(o));
    o.eKind = PG_OUTCOME_ERROR;
    o.error.zState = c->bClosing ? "57P01" : "53200";
    o.error.zMsg = c->bClosing ? "the connection is closing" : "out of memory";
    pg_session_job_done(c->s, &o);
    return;
  }
  if (c->pJob != NULL) c->pJob->pConn = NULL;   /* a streamed run ending: its own */
  if (pJob->eKind == PG_JOB_EXECUTE && c->pWake != NULL) j->pStream = stmt_stream_new(c->pWake);
  if (c->pCursors != NULL) j->pCursors = stmt_cursors_ref(c->pCursors);
  j->pConn = c;
  j->pCopy = c->pCopy;   /* lent for the job */
  c->pCopy = NULL;
  j->task.xRun = (pool_run_fn)stmt_job_run;
  j->task.xDone = conn_job_done;
  if (j->zSql != NULL) j->task.rCost = stmt_cost_guess(c->d->pCost, j->zSql);
  c->pJob = j;
  conn_log_statement_start(c, j);
  if (pJob->eKind == PG_JOB_EXECUTE && c->set.msStatementTimeout > 0) {
    int rc = uv_timer_start(&c->timer, conn_on_timeout, (uint64_t)c->set.msStatementTimeout, 0);
    if (rc != 0) log_printf(LOG_LEVEL_WARN, "uv_timer_start: %s", uv_strerror(rc));
  }
  pool_submit(c->d->pPool, &j->task);
}

/* ---- the session's callbacks --------------------------------------------------- */

static void conn_on_cancel(void *pCtx, int32_t iPid, int32_t iSecret) {
  conn *c = pCtx;
  conn_cancel(c->d, iPid, iSecret);
}

static int conn_on_accept(void *pCtx, pg_session *s, pgwire_error *pErr) {
  conn *c = pCtx;
  starqd *d = c->d;
  if (d->bShutdown) {
    metrics_starq_refused(&d->metrics, REFUSED_SHUTTING_DOWN);
    pErr->zState = "57P01";
    pErr->zMsg = "the database system is shutting down";
    return -1;
  }
  if (!d->bReady) {
    metrics_starq_refused(&d->metrics, REFUSED_STARTING);
    pErr->zState = "57P03";
    pErr->zMsg = "the database system is starting up";
    return -1;
  }
  /* Sessions only: connections still logging in have slots of their own. */
  if (d->nSession >= d->cfg.nMaxConnections) {
    metrics_starq_refused(&d->metrics, REFUSED_TOO_MANY);
    pErr->zState = "53300";
    pErr->zMsg = "sorry, too many clients already";
    return -1;
  }
  if (pg_session_param(s, "application_name") != NULL) {
    snprintf(c->set.zApplicationName, sizeof(c->set.zApplicationName), "%s",
             pg_session_param(s, "application_name"));
    memcpy(c->set.zResetApplicationName, c->set.zApplicationName,
           sizeof(c->set.zResetApplicationName));
  }
  /* Who the session's queries run as: current_user, current_database(),
  ** pg_backend_pid() (identifiers longer than NAMEDATALEN - 1 are cut as
  ** PostgreSQL cuts them). */
  snprintf(c->set.zUser, sizeof(c->set.zUser), "%s",
           pg_session_param(s, "user") != NULL ? pg_session_param(s, "user") : "");
  snprintf(c->set.zDatabase, sizeof(c->set.zDatabase), "%s",
           pg_session_param(s, "database") != NULL ? pg_session_param(s, "database") : "");
  c->set.iPid = c->iPid;
  metrics_starq_connection_open(&d->metrics);
  c->bAccepted = 1;
  d->nSession++;
  conn_pending_leave(c);
  uv_timer_stop(&c->timer);   /* the authentication timeout */
  conn_log_authorized(c);
  return 0;
}

void conn_cancel(starqd *d, int32_t iPid, int32_t iSecret) {
  for (conn *c = d->pConnList; c != NULL; c = c->pNext) {
    if (c->iPid != iPid) continue;
    if (c->iSecret != iSecret || c->pJob == NULL || c->bClosing) return;
    conn_job_abandon(c, QUERY_CANCELLED);
    if (c->bFatalPending) {
      c->bFatalPending = 0;
      pg_session_fatal(c->s, "57P01", "terminating connection due to administrator command");
    }
    conn_pump(c);
    return;
  }
}

/* ---- the stream -------------------------------------------------------------- */

static void conn_on_alloc(uv_handle_t *h, size_t nSuggest, uv_buf_t *pBuf) {
  static char aBuf[64 * 1024];   /* the loop's one read buffer: feed copies */
  (void)h;
  (void)nSuggest;
  *pBuf = uv_buf_init(aBuf, sizeof(aBuf));
}

static void conn_on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *pBuf) {
  conn *c = (conn *)st;
  if (n > 0) {
    if (c->pTls == NULL) {
      pg_session_feed(c->s, pBuf->base, (size_t)n);
    } else if (conn_tls_read(c, pBuf->base, (size_t)n) != 0) {
      conn_close(c);
      return;
    }
    conn_pump(c);
  } else if (n < 0) {
    if (n != UV_EOF) log_printf(LOG_LEVEL_DEBUG, "conn %d: read: %s", (int)c->iPid, uv_strerror((int)n));
    conn_close(c);
  }
}

static void conn_on_write(uv_write_t *w, int status) {
  conn *c = w->data;
  size_t n = c->nWriting;
  int bTls = c->pTlsWrite != NULL;   /* its output counted as done already */
  c->nWriting = 0;
  free(c->pTlsWrite);
  c->pTlsWrite = NULL;
  if (c->bClosing) return;
  if (status < 0) {
    log_printf(LOG_LEVEL_DEBUG, "conn %d: write: %s", (int)c->iPid, uv_strerror(status));
    conn_close(c);
    return;
  }
  if (!bTls) pg_session_output_done(c->s, n);
  conn_pump(c);
}

/* Writes what the session has (unless a write is in flight) and follows
** its flags: close once written, pause or resume reading. */
static void conn_pump(conn *c) {
  unsigned f;
  int bWantRead;
  if (c->bClosing) return;
  if (c->pTls != NULL) {
    if (conn_tls_write(c, conn_on_write) != 0) {
      conn_close(c);
      return;
    }
  } else if (c->nWriting == 0) {
    size_t n;
    const void *p = pg_session_output(c->s, &n);
    if (p != NULL && n > 0) {
      uv_buf_t b = uv_buf_init((char *)p, (unsigned)n);
      int rc;
      c->wr.data = c;
      rc = uv_write(&c->wr, (uv_stream_t *)&c->tcp, &b, 1, conn_on_write);
      if (rc != 0) {
        log_printf(LOG_LEVEL_DEBUG, "conn %d: uv_write: %s", (int)c->iPid, uv_strerror(rc));
        conn_close(c);
        return;
      }
      c->nWriting = n;
    }
  }
  f = pg_session_flags(c->s);
  if ((f & PG_SESSION_TLS_START) && c->pTls == NULL) {
    /* The 'S' is on its way, in clear; every byte after it is TLS. */
    if (conn_tls_start(c, c->d->pSslCtx) != 0) {
      conn_close(c);
      return;
    }
    pg_session_tls_started(c->s, c->d->aCbind, c->d->nCbind);
  }
  if ((f & PG_SESSION_CLOSE) && c->nWriting == 0) {
    conn_close(c);
    return;
  }
  bWantRead = !(f & (PG_SESSION_CLOSE | PG_SESSION_READ_PAUSE));
  if (bWantRead && !c->bReading) {
    int rc = uv_read_start((uv_stream_t *)&c->tcp, conn_on_alloc, conn_on_read);
    if (rc != 0) {
      log_printf(LOG_LEVEL_WARN, "conn %d: uv_read_start: %s", (int)c->iPid, uv_strerror(rc));
      conn_close(c);
      return;
    }
    c->bReading = 1;
  } else if (!bWantRead && c->bReading) {
    uv_read_stop((uv_stream_t *)&c->tcp);
    c->bReading = 0;
  }
}

/* ---- lifetime ---------------------------------------------------------------- */

void daemon__conn_gone(starqd *d);   /* daemon.c: the last connection may be gone */

static void conn_on_close(uv_handle_t *h) {
  conn *c = h->data;
  starqd *d = c->d;
  if (--c->nHandles > 0) return;
  conn_log_disconnected(c);
  conn_pending_leave(c);   /* closed before the session was made */
  if (c->s != NULL) pg_session_free(c->s);
  conn_tls_free(c);
  stmt_copy_free(c->pCopy);
  stmt_wake_unref(c->pWake);
  stmt_cursors_unref(c->pCursors);
  if (c->pPrev != NULL) c->pPrev->pNext = c->pNext;
  else d->pConnList = c->pNext;
  if (c->pNext != NULL) c->pNext->pPrev = c->pPrev;
  d->nConn--;
  free(c);
  daemon__conn_gone(d);
}

/* Closes both handles; the session is freed in the last callback. */
static void conn_handles_close(conn *c) {
  c->bClosing = 1;
  if (c->pWake != NULL) stmt_wake_detach(c->pWake);
  uv_close((uv_handle_t *)&c->wake, conn_on_close);
  uv_close((uv_handle_t *)&c->timer, conn_on_close);
  uv_close((uv_handle_t *)&c->tcp, conn_on_close);
}

static void conn_close(conn *c) {
  if (c->bClosing) return;
  c->bClosing = 1;   /* first: jobs the abandon lets start are refused */
  if (c->pJob != NULL || (c->s != NULL && (pg_session_flags(c->s) & PG_SESSION_JOB))) {
    conn_job_abandon(c, QUERY_DISCONNECTED);
  }
  /* Its slot is free now, not when the handles have closed: a burst of
  ** closes must not count against the connections that come meanwhile. */
  if (c->bAccepted) {
    metrics_starq_connection_close(&c->d->metrics);
    c->d->nSession--;
  }
  conn_pending_leave(c);
  conn_handles_close(c);
}

void conn_shutdown(conn *c) {
  if (c->bClosing) return;
  if (c->pJob != NULL) {
    /* A running query ends first (the daemon's drain); a second signal
    ** exits at once, and the worker then stops its work (worker/serve.c). */
    c->bFatalPending = 1;
    return;
  }
  pg_session_fatal(c->s, "57P01", "terminating connection due to administrator command");
  conn_pump(c);
}

/* Returns 1 if the peer of c is on loopback (auth_addr_loopback). */
static int conn_peer_loopback(conn *c) {
  struct sockaddr_storage ss;
  int n = sizeof(ss);
  if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&ss, &n) != 0) return 0;
  return auth_addr_loopback((struct sockaddr *)&ss);
}

/* The session's pg_verifier_fn: the user's verifier in the password file
** loaded now (a SIGHUP may have replaced the one there was at accept). */
static int conn_on_verifier(void *pCtx, const char *zUser, char *zOut, size_t nOut) {
  conn *c = pCtx;
  return auth_file_verifier(c->d->pAuth, zUser, zOut, nOut);
}

/* The session's pg_fatal_fn: every FATAL is logged; a failed login counted. */
static void conn_on_fatal(void *pCtx, pg_session *s, const char *zState, const char *zMsg) {
  conn *c = pCtx;
  (void)s;
  if (strcmp(zState, "28P01") == 0 || strcmp(zState, "28000") == 0) {
    metrics_starq_login_failed(&c->d->metrics);
  }
  conn_log_fatal(c, zState, zMsg);
}

/* --authentication-timeout passed before the login finished: closed
** without a word, as PostgreSQL does (the client may never read). */
static void conn_on_auth_timeout(uv_timer_t *h) {
  conn *c = h->data;
  if (!c->bPending || c->bClosing) return;
  metrics_starq_refused(&c->d->metrics, REFUSED_AUTH_TIMEOUT);
  log_printf(LOG_LEVEL_INFO, "conn %d from %s: no login within %d s: closed", (int)c->iPid,
             c->zHost, c->d->cfg.secAuthTimeout);
  conn_close(c);
}

/* More connections are logging in than --max-connections: the one that
** has tried longest goes, so silent connections cannot keep everyone out
** (a real client logs in within milliseconds of connecting). */
static void conn_pending_trim(starqd *d, const conn *cNew) {
  conn *pOld = NULL;
  if (d->nPending <= d->cfg.nMaxConnections) return;
  for (conn *c = d->pConnList; c != NULL; c = c->pNext) {   /* newest first */
    if (c != cNew && c->bPending && !c->bClosing) pOld = c;
  }
  if (pOld == NULL) return;
  metrics_starq_refused(&d->metrics, REFUSED_UNAUTHENTICATED);
  log_printf(LOG_LEVEL_INFO, "conn %d from %s: closed before its login to make room",
             (int)pOld->iPid, pOld->zHost);
  conn_close(pOld);
}

/* Fills c's client address for the log. */
static void conn_peer_name(conn *c) {
  struct sockaddr_storage ss;
  int n = sizeof(ss);
  snprintf(c->zHost, sizeof(c->zHost), "?");
  if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&ss, &n) != 0) return;
  if (ss.ss_family == AF_INET) {
    const struct sockaddr_in *p = (const struct sockaddr_in *)&ss;
    uv_ip4_name(p, c->zHost, sizeof(c->zHost));
    c->iHostPort = ntohs(p->sin_port);
  } else if (ss.ss_family == AF_INET6) {
    const struct sockaddr_in6 *p = (const struct sockaddr_in6 *)&ss;
    uv_ip6_name(p, c->zHost, sizeof(c->zHost));
    c->iHostPort = ntohs(p->sin6_port);
  }
}

void conn_accept(starqd *d) {
  conn *c = calloc(1, sizeof(*c));
  pg_session_config cfg;
  pg_engine eng;
  int rc;
  if (c == NULL) {
    log_printf(LOG_LEVEL_ERROR, "accept: out of memory");
    return;
  }
  c->d = d;
  rc = uv_tcp_init(&d->loop, &c->tcp);
  if (rc != 0) {
    log_printf(LOG_LEVEL_ERROR, "uv_tcp_init: %s", uv_strerror(rc));
    free(c);
    return;
  }
  c->tcp.data = c;
  uv_timer_init(&d->loop, &c->timer);   /* cannot fail on Unix */
  c->timer.data = c;
  uv_async_init(&d->loop, &c->wake, conn_on_wake);   /* nor this */
  c->wake.data = c;
  c->pWake = stmt_wake_new(&c->wake);   /* NULL: rows are not streamed */
  c->pCursors = stmt_cursors_new();      /* NULL: DECLARE fails, out of memory */
  c->nHandles = 3;
  c->pNext = d->pConnList;
  if (c->pNext != NULL) c->pNext->pPrev = c;
  d->pConnList = c;
  d->nConn++;
  rc = uv_accept((uv_stream_t *)&d->listener, (uv_stream_t *)&c->tcp);
  if (rc != 0) {
    log_printf(LOG_LEVEL_WARN, "uv_accept: %s", uv_strerror(rc));
    conn_handles_close(c);
    return;
  }
  stmt_settings_default(&c->set, &d->ctx);
  c->iPid = d->iNextPid++;
  c->tConnect = timer_now();
  conn_peer_name(c);
  c->bPending = 1;
  d->nPending++;
  conn_log_received(c);
  if (getrandom(&c->iSecret, sizeof(c->iSecret), 0) != (ssize_t)sizeof(c->iSecret)) {
    c->iSecret = (int32_t)(uintptr_t)c ^ (int32_t)uv_hrtime();
  }
  pg_session_config_default(&cfg);
  cfg.iPid = c->iPid;
  cfg.iSecret = c->iSecret;
  cfg.eAuth = (pg_auth_policy)d->cfg.eAuth;
  cfg.bLoopback = conn_peer_loopback(c);
  cfg.bTls = d->pSslCtx != NULL;
  cfg.pCtx = c;
  cfg.xVerifier = conn_on_verifier;
  cfg.xCancel = conn_on_cancel;
  cfg.xAccept = conn_on_accept;
  cfg.xFatal = conn_on_fatal;
  eng.pCtx = c;
  eng.xJobStart = conn_job_start;
  eng.xStmtFree = NULL;
  c->s = pg_session_new(&cfg, &eng);
  if (c->s == NULL) {
    log_printf(LOG_LEVEL_ERROR, "accept: out of memory for a session");
    conn_handles_close(c);
    return;
  }
  if ((rc = uv_timer_start(&c->timer, conn_on_auth_timeout,
                           (uint64_t)d->cfg.secAuthTimeout * 1000, 0)) != 0) {
    log_printf(LOG_LEVEL_WARN, "uv_timer_start: %s", uv_strerror(rc));
  }
  conn_pending_trim(d, c);
  conn_pump(c);
}
