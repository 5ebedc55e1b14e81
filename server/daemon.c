/*
** server/daemon.c — starqd's process (daemon.h): the loop, the SQL
** listener, the status port and its view of the daemon, the executor
** opened on a pool thread so that /livez and /readyz answer while the
** columns are pinned, and the shutdown on SIGTERM / SIGINT.
**
** Start: the status port and the SQL port are bound first; the executor
** (catalog, backend, preload) opens on an executor thread; until it has,
** /readyz says 503 and a SQL login gets 57P03. A failure to open it ends
** the daemon with exit status 1.
**
** Passwords: --password-file is read before either port is bound, so a
** bad file stops the start with its line number; SIGHUP reads it again
** and keeps the users it had if the new file is refused. Sessions ask
** conn.c for verifiers, which looks in the auth_file current then.
**
** Shutdown: the first signal closes the SQL listener and ends every
** session with 57P01 (a session running a query gets it when the query
** ends); once the last connection has closed, the status port closes, the
** pool joins its threads and the loop runs out. A second signal exits at
** once.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/log.h"
#include "daemonInt.h"

#define STARQ_VERSION "0.1.0"

static double daemon_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- the status port's view ---------------------------------------------------- */

static int daemon_ready(void *pCtx) {
  starqd *d = pCtx;
  return d->bReady && !d->bShutdown;
}

/* Sets the gauges that are read, not pushed; the device's from *pDev,
** which is NULL while the daemon is not ready. */
static void daemon_gauges_set(starqd *d, const executor_device *pDev) {
  int nRunning = 0, nQueued = 0;
  pool_counts(d->pPool, &nRunning, &nQueued);
  metric_gauge_set(d->metrics.pRunning, 0, nRunning);
  metric_gauge_set(d->metrics.pQueued, 0, nQueued);
  if (pDev != NULL) {
    metric_gauge_set(d->metrics.pDeviceMemUsed, 0, (double)pDev->nMemUsed);
    metric_gauge_set(d->metrics.pDeviceMemTotal, 0, (double)pDev->nMemTotal);
    metric_gauge_set(d->metrics.pPinned, 0, (double)pDev->nPinned);
  }
}

static void daemon_refresh(void *pCtx) {
  starqd *d = pCtx;
  executor_device dev;
  int bReady = d->bReady;
  if (bReady) executor_info(d->ex, &dev);
  daemon_gauges_set(d, bReady ? &dev : NULL);
  metrics_starq_process_refresh(
      &d->metrics, bReady ? dev.iWorkerPid : 0,
      bReady && dev.nWorkerRestarts > 0 ? (uint64_t)dev.nWorkerRestarts : 0);
}

/* The tables of the catalog with their rows and bytes in memory, into a
** malloc'd array (names malloc'd); *pn gets the count. */
static status_table *daemon_tables(starqd *d, int *pn) {
  char zErr[256], **az = NULL;
  int n = 0;
  status_table *a;
  colmem_table_use *aUse;
  cat *pCat = executor_cat_get(d->ex, zErr, sizeof(zErr));
  *pn = 0;
  if (pCat == NULL) return NULL;
  if (cat_table_names(pCat, &az, &n, zErr, sizeof(zErr)) != 0) n = 0;
  a = calloc((size_t)(n ? n : 1), sizeof(*a));
  aUse = calloc((size_t)(n ? n : 1), sizeof(*aUse));
  for (int i = 0; a != NULL && aUse != NULL && i < n; i++) {
    cat_table *t;
    a[*pn].zName = az[i];
    az[i] = NULL;
    aUse[*pn].iTable = -1;   /* no table has it: no bytes */
    if (cat_table_get(pCat, a[*pn].zName, &t, zErr, sizeof(zErr)) == 0) {
      a[*pn].nRows = t->nRow;
      aUse[*pn].iTable = t->iId;
      cat_table_free(t);
    }
    (*pn)++;
  }
  if (aUse != NULL) executor_table_bytes(d->ex, aUse, *pn);
  for (int i = 0; i < *pn; i++) {
    a[i].nBytesPinned = (int64_t)aUse[i].nPinned;
    a[i].nBytesResident = (int64_t)aUse[i].nResident;
  }
  free(aUse);
  for (int i = 0; i < n; i++) free(az[i]);
  free(az);
  executor_cat_put(d->ex, pCat);
  return a;
}

static void daemon_tables_free(starqd *d) {
  for (int i = 0; i < d->nStatusTable; i++) free((char *)d->aStatusTable[i].zName);
  free(d->aStatusTable);
  d->aStatusTable = NULL;
  d->nStatusTable = 0;
}

static void daemon_snapshot(void *pCtx, status_snapshot *pSnap) {
  starqd *d = pCtx;
  executor_device *pDev = &d->statusDev;
  int bReady = d->bReady;
  daemon_tables_free(d);   /* the previous snapshot's: rendered already */
  if (bReady) executor_info(d->ex, pDev);   /* once, for the gauges and the page */
  daemon_gauges_set(d, bReady ? pDev : NULL);
  metrics_starq_snapshot_fill(&d->metrics, pSnap);
  pSnap->zVersion = STARQ_VERSION;
  pSnap->tStart = d->tStart;
  pSnap->tNow = daemon_now();
  pSnap->pRecent = d->pRecent;
  pSnap->nRecentMax = 50;
  pSnap->floorBytesPerSec = 0;
  if (bReady) {
    pSnap->floorBytesPerSec = pDev->bw.rZeroCopy;
    pSnap->deviceFloorBytesPerSec = pDev->bw.rDevice;
    pSnap->zBackend = pDev->zBackend;
    pSnap->zDevice = pDev->zName;
    pSnap->nDeviceMemUsed = pDev->nMemUsed;
    pSnap->nDeviceMemTotal = pDev->nMemTotal;
    pSnap->nPinnedBytes = pDev->nPinned;
    pSnap->nResidentBytes = pDev->nResident;
    pSnap->eWarm = pDev->eWarm;
    pSnap->nWarmDone = pDev->nWarmDone;
    pSnap->nWarmTotal = pDev->nWarmTotal;
    d->aStatusTable = daemon_tables(d, &d->nStatusTable);
    pSnap->aTable = d->aStatusTable;
    pSnap->nTable = d->nStatusTable;
  }
}

/* The /status document for SHOW starq.status (stmt_ctx.xStatusJson),
** rendered on the loop thread as GET /status is. Returns it malloc'd, or
** NULL when memory ran out. */
static char *daemon_status_json(void *pArg) {
  status_snapshot snap;
  strbuf s;
  memset(&snap, 0, sizeof(snap));
  daemon_snapshot(pArg, &snap);
  snap.bReady = daemon_ready(pArg);
  strbuf_init(&s);
  if (status_json_render(&snap, &s) != 0) {
    strbuf_free(&s);
    return NULL;
  }
  return strbuf_take(&s);
}

/* ---- start and stop ------------------------------------------------------------ */

/* The executor opens on a pool thread. */
typedef struct daemon_start daemon_start;
struct daemon_start {
  pool_task task;
  starqd *d;
  executor *ex;
  int rc;
  char zErr[1024];
};

static void daemon_start_run(pool_task *t) {
  daemon_start *s = (daemon_start *)t;
  executor_options o;
  o.zDataDir = s->d->cfg.zDataDir;
  o.zBackend = s->d->cfg.zBackend;
  o.nPinnedBudget = s->d->cfg.nPinnedBudget;
  o.nDeviceBudget = s->d->cfg.nDeviceBudget;
  o.nStrideBytes = s->d->cfg.nStrideBytes;
  o.bWorker = s->d->cfg.bDeviceWorker;
  o.nQuery = daemon_config_in_flight(&s->d->cfg);
  o.nBandwidthProbe = s->d->cfg.nBandwidthProbe;
  o.bWarm = s->d->cfg.bDeviceWarm;
  s->rc = executor_open(&s->ex, &o, s->zErr, sizeof(s->zErr));
}

static void daemon_shutdown(starqd *d, const char *zWhy);

static void daemon_start_done(pool_task *t) {
  daemon_start *s = (daemon_start *)t;
  starqd *d = s->d;
  if (s->rc != 0) {
    log_printf(LOG_LEVEL_ERROR, "starqd: cannot open %s: %s", d->cfg.zDataDir, s->zErr);
    d->iExit = 1;
    free(s);
    daemon_shutdown(d, "start-up failed");
    return;
  }
  d->ex = s->ex;
  d->ctx.ex = s->ex;
  free(s);
  if (d->bShutdown) return;
  d->bReady = 1;
  log_printf(LOG_LEVEL_INFO, "starqd: ready: psql -h %s -p %d -U starq -d starq", d->cfg.zListen,
             d->iPort);
}

static void daemon_on_closed(uv_handle_t *h) { (void)h; }

static void daemon_on_http_stopped(void *pArg) { (void)pArg; }

/* Called when a connection is freed: ends the loop's work once shutting
** down and none is left. */
void daemon__conn_gone(starqd *d);
void daemon__conn_gone(starqd *d) {
  if (!d->bShutdown || d->nConn > 0 || d->bFinished) return;
  d->bFinished = 1;
  log_printf(LOG_LEVEL_INFO, "starqd: every session has ended; stopping");
  if (d->pHttp != NULL) http_server_stop(d->pHttp, daemon_on_http_stopped, d);
  d->pHttp = NULL;
  pool_stop(d->pPool);   /* waits for the start-up task too */
  uv_close((uv_handle_t *)&d->sigTerm, daemon_on_closed);
  uv_close((uv_handle_t *)&d->sigInt, daemon_on_closed);
  uv_close((uv_handle_t *)&d->sigHup, daemon_on_closed);
}

static void daemon_shutdown(starqd *d, const char *zWhy) {
  if (d->bShutdown) return;
  d->bShutdown = 1;
  log_printf(LOG_LEVEL_INFO, "starqd: shutting down (%s)", zWhy);
  if (d->bListening) {
    uv_close((uv_handle_t *)&d->listener, daemon_on_closed);
    d->bListening = 0;
  }
  for (conn *c = d->pConnList; c != NULL; c = c->pNext) conn_shutdown(c);
  daemon__conn_gone(d);
}

static void daemon_on_signal(uv_signal_t *h, int iSig) {
  starqd *d = h->data;
  if (d->bShutdown) {
    log_printf(LOG_LEVEL_WARN, "starqd: second signal (%s): exiting now", strsignal(iSig));
    _exit(1);
  }
  daemon_shutdown(d, strsignal(iSig));
}

/* ---- passwords ---------------------------------------------------------------- */

/* SIGHUP: reads the password file again. A file that does not load is
** logged and the users loaded before stay. */
static void daemon_on_hup(uv_signal_t *h, int iSig) {
  starqd *d = h->data;
  auth_file *pNew;
  char zErr[1024];
  (void)iSig;
  if (d->cfg.zPasswordFile[0] == 0) {
    log_printf(LOG_LEVEL_INFO, "starqd: SIGHUP: no --password-file to reload");
    return;
  }
  if (auth_file_load(d->cfg.zPasswordFile, &pNew, zErr, sizeof(zErr)) != 0) {
    log_printf(LOG_LEVEL_ERROR, "starqd: SIGHUP: %s; keeping the %d users loaded before", zErr,
               auth_file_count(d->pAuth));
    return;
  }
  auth_file_free(d->pAuth);
  d->pAuth = pNew;
  log_printf(LOG_LEVEL_INFO, "starqd: SIGHUP: password file %s reloaded: %d users",
             d->cfg.zPasswordFile, auth_file_count(d->pAuth));
}

/* Loads --password-file, if there is one. Returns 0, or -1 with zErr
** (naming the file and line) when it does not load. */
static int daemon_auth_open(starqd *d, char *zErr, size_t nErr) {
  if (d->cfg.zPasswordFile[0] == 0) return 0;
  if (auth_file_load(d->cfg.zPasswordFile, &d->pAuth, zErr, nErr) != 0) return -1;
  log_printf(LOG_LEVEL_INFO, "starqd: password file %s: %d users", d->cfg.zPasswordFile,
             auth_file_count(d->pAuth));
  if (auth_file_count(d->pAuth) == 0) {
    log_printf(LOG_LEVEL_WARN, "starqd: password file %s holds no users: no password works",
               d->cfg.zPasswordFile);
  }
  return 0;
}

/* Sets TLS up from --ssl-cert and --ssl-key, if given (both or neither).
** Returns 0, or -1 with zErr when a file does not load. */
static int daemon_tls_open(starqd *d, char *zErr, size_t nErr) {
  struct stat st;
  int bCert = d->cfg.zSslCert[0] != 0, bKey = d->cfg.zSslKey[0] != 0;
  if (d->cfg.bHttpSsl && !bCert && !bKey) {
    snprintf(zErr, nErr, "--http-ssl 1 needs --ssl-cert and --ssl-key");
    return -1;
  }
  if (!bCert && !bKey) return 0;
  if (bCert != bKey) {
    snprintf(zErr, nErr, "TLS needs both --ssl-cert and --ssl-key");
    return -1;
  }
  if (stat(d->cfg.zSslKey, &st) != 0) {
    snprintf(zErr, nErr, "--ssl-key %s: %s", d->cfg.zSslKey, strerror(errno));
    return -1;
  }
  if (auth_secret_mode_check("--ssl-key", d->cfg.zSslKey, &st, zErr, nErr) != 0) return -1;
  if (conn_tls_ctx_open(d->cfg.zSslCert, d->cfg.zSslKey, &d->pSslCtx, zErr, nErr) != 0) return -1;
  d->nCbind = conn_tls_end_point(d->pSslCtx, d->aCbind, (int)sizeof(d->aCbind));
  log_printf(LOG_LEVEL_INFO, "starqd: TLS on, certificate %s", d->cfg.zSslCert);
  return 0;
}

/* Logs the authentication policy and what it leaves open once the SQL
** port is bound: trust beyond loopback loudly, and a non-loopback
** listener that nobody off the host can log in to. */
static void daemon_auth_warn(starqd *d) {
  if (d->cfg.eAuth == PG_AUTH_TRUST && !d->bListenLoopback) {
    log_printf(LOG_LEVEL_WARN,
               "starqd: WARNING: --auth trust on %s, which is not a loopback address: ANYONE "
               "who can reach port %d logs in as any user WITHOUT A PASSWORD. Use --auth "
               "trust-loopback or scram with --password-file unless this network is yours alone.",
               d->cfg.zListen, d->iPort);
  } else if (d->cfg.eAuth == PG_AUTH_TRUST_LOOPBACK && !d->bListenLoopback && d->pAuth == NULL) {
    log_printf(LOG_LEVEL_WARN,
               "starqd: listening on %s, but clients off this host must log in with a password "
               "and there is no --password-file: only loopback clients can log in", d->cfg.zListen);
  }
  log_printf(LOG_LEVEL_INFO, "starqd: authentication: %s", daemon_config_auth_name(d->cfg.eAuth));
}

/* ---- the SQL port --------------------------------------------------------------- */

static void daemon_on_connection(uv_stream_t *st, int status) {
  starqd *d = st->data;
  if (status < 0) {
    log_printf(LOG_LEVEL_WARN, "SQL listener: %s", uv_strerror(status));
    return;
  }
  conn_accept(d);
}

/* Binds and listens on the SQL port. */
static int daemon_listen(starqd *d, char *zErr, size_t nErr) {
  struct sockaddr_storage ss;
  int rc, n = sizeof(ss);
  if ((rc = uv_ip4_addr(d->cfg.zListen, d->cfg.iPort, (struct sockaddr_in *)&ss)) != 0 &&
      (rc = uv_ip6_addr(d->cfg.zListen, d->cfg.iPort, (struct sockaddr_in6 *)&ss)) != 0) {
    snprintf(zErr, nErr, "--listen %s: not an IPv4 or IPv6 address", d->cfg.zListen);
    return -1;
  }
  if ((rc = uv_tcp_init(&d->loop, &d->listener)) != 0) {
    snprintf(zErr, nErr, "uv_tcp_init: %s", uv_strerror(rc));
    return -1;
  }
  d->listener.data = d;
  d->bListening = 1;
  if ((rc = uv_tcp_bind(&d->listener, (struct sockaddr *)&ss, 0)) != 0 ||
      (rc = uv_listen((uv_stream_t *)&d->listener, 511, daemon_on_connection)) != 0) {
    snprintf(zErr, nErr, "SQL port %s:%d: %s", d->cfg.zListen, d->cfg.iPort, uv_strerror(rc));
    return -1;
  }
  if ((rc = uv_tcp_getsockname(&d->listener, (struct sockaddr *)&ss, &n)) != 0) {
    snprintf(zErr, nErr, "uv_tcp_getsockname: %s", uv_strerror(rc));
    return -1;
  }
  d->iPort = ntohs(ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
                                          : ((struct sockaddr_in6 *)&ss)->sin6_port);
  d->bListenLoopback = auth_addr_loopback((struct sockaddr *)&ss);
  return 0;
}

int daemon_open(starqd **pp, const daemon_config *pCfg, char *zErr, size_t nErr) {
  starqd *d = calloc(1, sizeof(*d));
  http_server_config hc;
  http_routes r;
  daemon_start *s;
  int rc;
  *pp = NULL;
  if (d == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  d->cfg = *pCfg;
  d->tStart = daemon_now();
  d->iNextPid = (int32_t)getpid() * 1000 % 1000000000 + 1;
  if ((rc = uv_loop_init(&d->loop)) != 0) {
    snprintf(zErr, nErr, "uv_loop_init: %s", uv_strerror(rc));
    free(d);
    return -1;
  }
  *pp = d;
  if (metrics_starq_open(&d->metrics, STARQ_VERSION, d->tStart, zErr, nErr) != 0) return -1;
  if (status_recent_new(&d->pRecent, 0) != 0) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  if ((rc = stmt_copy_sweep(d->cfg.zDataDir)) > 0) {
    log_printf(LOG_LEVEL_INFO, "starqd: removed %d COPY spool files an earlier run left", rc);
  }
  d->ctx.pMetrics = &d->metrics;
  d->ctx.pRecent = d->pRecent;
  d->ctx.zImportDir = d->cfg.zImportDir[0] ? d->cfg.zImportDir : NULL;
  d->ctx.bNoGeneric = !d->cfg.bGenericKernels;
  d->ctx.bStatusLiterals = d->cfg.bStatusLiterals;
  d->ctx.xStatusJson = daemon_status_json;
  d->ctx.pStatusArg = d;
  if (daemon_auth_open(d, zErr, nErr) != 0 || daemon_tls_open(d, zErr, nErr) != 0) return -1;
  if ((d->pCost = stmt_cost_new(4096)) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  if (pool_start(&d->pPool, &d->loop, daemon_config_in_flight(&d->cfg), zErr, nErr) != 0) {
    return -1;
  }
  uv_signal_init(&d->loop, &d->sigTerm);
  uv_signal_init(&d->loop, &d->sigInt);
  uv_signal_init(&d->loop, &d->sigHup);
  d->sigTerm.data = d->sigInt.data = d->sigHup.data = d;
  if ((rc = uv_signal_start(&d->sigTerm, daemon_on_signal, SIGTERM)) != 0 ||
      (rc = uv_signal_start(&d->sigInt, daemon_on_signal, SIGINT)) != 0 ||
      (rc = uv_signal_start(&d->sigHup, daemon_on_hup, SIGHUP)) != 0) {
    snprintf(zErr, nErr, "uv_signal_start: %s", uv_strerror(rc));
    return -1;
  }
  if (daemon_listen(d, zErr, nErr) != 0) return -1;
  daemon_auth_warn(d);
  memset(&r, 0, sizeof(r));
  r.pCtx = d;
  r.xReady = daemon_ready;
  r.xSnapshot = daemon_snapshot;
  r.xRefresh = daemon_refresh;
  r.pMetrics = d->metrics.pReg;
  memset(&hc, 0, sizeof(hc));
  hc.zAddr = d->cfg.zHttpListen;
  hc.iPort = d->cfg.iHttpPort;
  hc.pSslCtx = d->cfg.bHttpSsl ? d->pSslCtx : NULL;
  if (http_server_start(&d->pHttp, &d->loop, &hc, &r, zErr, nErr) != 0) {
    d->pHttp = NULL;
    return -1;
  }
  log_printf(LOG_LEVEL_INFO, "starqd %s: SQL on %s:%d, status on http%s://%s:%d/ (data %s)",
             STARQ_VERSION, d->cfg.zListen, d->iPort, hc.pSslCtx != NULL ? "s" : "", d->cfg.zHttpListen,
             http_server_port(d->pHttp), d->cfg.zDataDir);
  s = calloc(1, sizeof(*s));
  if (s == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  s->d = d;
  s->task.xRun = daemon_start_run;
  s->task.xDone = daemon_start_done;
  pool_submit(d->pPool, &s->task);
  return 0;
}

int daemon_run(starqd *d) {
  int rc = uv_run(&d->loop, UV_RUN_DEFAULT);
  (void)rc;
  return d->iExit;
}

static void daemon_on_walk_close(uv_handle_t *h, void *pArg) {
  (void)pArg;
  if (!uv_is_closing(h)) uv_close(h, NULL);
}

void daemon_close(starqd *d) {
  if (d == NULL) return;
  if (!d->bFinished) {
    /* daemon_open failed part way: close what it made. */
    d->bShutdown = 1;
    d->nConn = 0;
    if (d->pHttp != NULL) http_server_stop(d->pHttp, NULL, NULL);
    if (d->pPool != NULL) pool_stop(d->pPool);
    uv_walk(&d->loop, daemon_on_walk_close, NULL);
    uv_run(&d->loop, UV_RUN_DEFAULT);
  }
  if (uv_loop_close(&d->loop) != 0) log_printf(LOG_LEVEL_WARN, "uv_loop_close: handles left open");
  daemon_tables_free(d);
  executor_close(d->ex);
  auth_file_free(d->pAuth);
  conn_tls_ctx_close(d->pSslCtx);
  status_recent_free(d->pRecent);
  stmt_cost_free(d->pCost);
  metrics_starq_close(&d->metrics);
  free(d);
}
