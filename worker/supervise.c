/*
** worker/supervise.c — the supervisor: worker_start, worker_stop,
** worker_stats_get, and the thread that owns the worker process. That
** thread starts the worker, reads its HELLO and then every frame it sends
** (answers go to their queries, request.c), and when the worker's socket
** ends it reaps the process, fails the queries it still held, and starts
** the next one.
**
** States (workerInt.h):
**
**   DOWN -> STARTING -> READY [-> DRAINING] -> DOWN -> STARTING ...
**
** and STOPPED, from any of them, at worker_stop(). DRAINING is a worker
** that said WIRE_LOST: its GPU is gone, it answers what it holds and
** exits; new queries wait for the next one. Only this thread changes the
** state, but for STOPPED, which nothing leaves.
**
** Restarts. A worker fails when it never gets ready, or dies within
** SUPERVISE_QUICK_SECONDS of it. The first failure in a row restarts at
** once; each further one waits twice as long as the last, from 0.1 s up
** to 30 s, so a worker that cannot start (a data directory gone, a GPU
** that will not open) is retried slowly, and logged each time, never in a
** hot loop. While starts fail, queries fail at once with the reason
** (request.c). The very first start is worker_start()'s: if it fails,
** nothing is retried and worker_start() returns the reason.
**
** Ending a worker. Its socket ends when it exits (or shuts it down): the
** supervisor closes its end (under muSend, so no sender is using it),
** reaps the process — SIGKILL if it has not exited SUPERVISE_REAP_SECONDS
** after — and fails its queries with what happened. A frame that does
** not decode means the worker is broken: it is killed at once.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "workerInt.h"

#define SUPERVISE_REAP_SECONDS 10.0   /* after its socket ends, a worker has this long to exit */
#define SUPERVISE_QUICK_SECONDS 1.0   /* a worker that dies sooner after being ready failed */
#define SUPERVISE_BACKOFF_FIRST 0.1   /* seconds before the second restart in a row */
#define SUPERVISE_BACKOFF_MAX 30.0
#define SUPERVISE_STOP_SECONDS 10.0   /* worker_stop's wait, unless configured */

/* How one worker process ended. */
typedef struct supervise_end supervise_end;
struct supervise_end {
  int bReady;              /* it got as far as taking queries */
  double rReadySeconds;    /* for how long */
  int bLost;               /* it said WIRE_LOST */
  char zWhy[700];          /* not ready: why; else: what it sent wrong, or "" */
  char zExit[128];         /* its wait status, as text */
};

/* Sets the state (never leaving STOPPED) and wakes whoever waits on it.
** Called with mu held. */
static void supervise_state(worker *w, worker_state e) {
  if (w->eState != WORKER_STOPPED) w->eState = e;
  pthread_cond_broadcast(&w->cvState);
}

/* ---- one worker process ------------------------------------------------------- */

/* Reads the worker's HELLO. Returns 0 when it is ready (the caller then
** reads its first STATS and makes it READY); 1 when it is not
** and exits by itself (it said why, or it is gone); -1 when it sent
** something else (it is not to be trusted: the caller kills it). zWhy
** says why it is not ready. */
static int supervise_hello(worker *w, int fd, char *zWhy, size_t nWhy) {
  wire_frame f;
  wire_hello h;
  char zErr[512];
  int rc = wire_frame_recv(fd, &f, zErr, sizeof(zErr));
  if (rc <= 0) {
    snprintf(zWhy, nWhy, "%s", rc == 0 ? "it exited before it was ready" : zErr);
    return rc == 0 ? 1 : -1;
  }
  rc = -1;
  if (f.eType != WIRE_HELLO) {
    snprintf(zWhy, nWhy, "its first frame is of type %d, not HELLO", (int)f.eType);
  } else if (wire_hello_decode(f.a, f.n, &h, zErr, sizeof(zErr)) != 0) {
    snprintf(zWhy, nWhy, "%s", zErr);
  } else if (h.iVersion != WIRE_VERSION) {
    snprintf(zWhy, nWhy, "%s speaks protocol version %u, this server %d: a worker of another build",
             w->zProgram, h.iVersion, WIRE_VERSION);
  } else if (!h.bOk) {
    snprintf(zWhy, nWhy, "%s", h.zText);
    rc = 1;
  } else {
    pthread_mutex_lock(&w->mu);
    snprintf(w->stats.zBackend, sizeof(w->stats.zBackend), "%s", h.zText);
    w->stats.nPreloaded = h.nPreloaded;
    w->stats.nStartFail = 0;
    w->zDown[0] = 0;
    pthread_mutex_unlock(&w->mu);
    rc = 0;
  }
  wire_frame_free(&f);
  return rc;
}

/* WIRE_LOST: the worker's GPU is gone; no new query goes to it. */
static int supervise_lost(worker *w, const wire_frame *f, char *zErr, size_t nErr) {
  char zWhy[WIRE_TEXT_MAX + 1];
  if (wire_lost_decode(f->a, f->n, zWhy, sizeof(zWhy), zErr, nErr) != 0) return -1;
  pthread_mutex_lock(&w->mu);
  snprintf(w->zLost, sizeof(w->zLost), "%s", zWhy);
  w->bLostSeen = 1;
  supervise_state(w, WORKER_DRAINING);
  pthread_mutex_unlock(&w->mu);
  log_printf(LOG_LEVEL_ERROR, "worker: the device worker lost its GPU and will be replaced: %s", zWhy);
  return 0;
}

/* WIRE_STATS: what the worker's device and column cache hold now. */
static int supervise_stats(worker *w, const wire_frame *f, char *zErr, size_t nErr) {
  worker_device *p = malloc(sizeof(*p));
  if (p == NULL) return 0;   /* /status shows the previous figures */
  if (wire_stats_decode(f->a, f->n, p, zErr, nErr) != 0) {
    free(p);
    return -1;
  }
  pthread_mutex_lock(&w->mu);
  w->stats.dev = *p;
  pthread_mutex_unlock(&w->mu);
  free(p);
  return 0;
}

int worker__frame_read(worker *w, int fd) {
  wire_frame f;
  char zErr[512];
  int rc = wire_frame_recv(fd, &f, zErr, sizeof(zErr));
  if (rc > 0) {
    if (f.eType == WIRE_ANSWER) rc = worker__req_answer(w, &f, zErr, sizeof(zErr));
    else if (f.eType == WIRE_BATCH) rc = worker__req_batch(w, &f, zErr, sizeof(zErr));
    else if (f.eType == WIRE_LOST) rc = supervise_lost(w, &f, zErr, sizeof(zErr));
    else if (f.eType == WIRE_STATS) rc = supervise_stats(w, &f, zErr, sizeof(zErr));
    else {
      snprintf(zErr, sizeof(zErr), "a frame of type %d", (int)f.eType);
      rc = -1;
    }
    wire_frame_free(&f);
    if (rc == 0) return 1;
  }
  pthread_mutex_lock(&w->mu);
  w->bEnded = 1;
  if (rc < 0 && w->zBad[0] == 0) {
    /* It is not to be trusted: killed now (not reaped yet, so pid is
    ** still it: the supervisor reaps only after it held the role). */
    snprintf(w->zBad, sizeof(w->zBad), "it sent a bad frame (%s)", zErr);
    if (w->pid > 0 && !w->bReaping) kill(w->pid, SIGKILL);
  }
  pthread_mutex_unlock(&w->mu);
  return rc < 0 ? -1 : 0;
}

/* Waits until the worker's socket ends — the worker exited, was killed,
** or the socket was shut down — then takes the reader's role and reads
** what is left: answers, LOST, STATS, up to the end. While the worker
** runs, the queries read its frames (request.c); this thread only
** watches for the end (POLLRDHUP: bytes to read do not wake it). */
static void supervise_watch(worker *w, int fd) {
  struct pollfd pfd;
  int bEnded;
  pfd.fd = fd;
  pfd.events = POLLRDHUP;
  for (;;) {
    int rc;
    pfd.revents = 0;
    rc = poll(&pfd, 1, -1);
    if (rc > 0 || (rc < 0 && errno != EINTR)) break;   /* an error: read to the end */
  }
  pthread_mutex_lock(&w->mu);
  w->bSupWait = 1;
  while (w->bReading) pthread_cond_wait(&w->cvRole, &w->mu);
  w->bSupWait = 0;
  w->bReading = 1;
  bEnded = w->bEnded;
  pthread_mutex_unlock(&w->mu);
  while (!bEnded && worker__frame_read(w, fd) > 0) {
  }
}

/* Closes the supervisor's end, once no sender uses it. */
static void supervise_close(worker *w, int fd) {
  pthread_mutex_lock(&w->muSend);
  pthread_mutex_lock(&w->mu);
  close(fd);
  w->fd = -1;
  w->bReading = 0;
  w->bEnded = 1;
  w->bReaping = 1;
  supervise_state(w, WORKER_DOWN);
  pthread_mutex_unlock(&w->mu);
  pthread_mutex_unlock(&w->muSend);
}

/* Runs one worker process, from spawning it to reaping it. */
static void supervise_one(worker *w, supervise_end *pEnd) {
  int fd, st, rc;
  pid_t pid;
  double tReady;
  memset(pEnd, 0, sizeof(*pEnd));
  pthread_mutex_lock(&w->mu);
  if (w->stats.nStart++ > 0) w->stats.nRestart++;
  w->stats.zBackend[0] = 0;                 /* the next HELLO says */
  w->stats.nPreloaded = -1;
  memset(&w->stats.dev, 0, sizeof(w->stats.dev));   /* and its STATS */
  pthread_mutex_unlock(&w->mu);
  if (worker__spawn(w, &fd, &pid, pEnd->zWhy, sizeof(pEnd->zWhy)) != 0) return;
  pthread_mutex_lock(&w->mu);
  w->fd = fd;
  w->pid = pid;
  w->bReaping = 0;
  w->zLost[0] = 0;
  w->zBad[0] = 0;
  w->bLostSeen = 0;
  w->bEnded = 0;
  w->bReading = 1;                          /* the supervisor's until it is ready */
  supervise_state(w, WORKER_STARTING);
  if (w->bStop) shutdown(fd, SHUT_WR);      /* stopped while spawning */
  pthread_mutex_unlock(&w->mu);
  log_printf(LOG_LEVEL_INFO, "worker: started the device worker, process %d", (int)pid);

  rc = supervise_hello(w, fd, pEnd->zWhy, sizeof(pEnd->zWhy));
  if (rc == 0) {
    pEnd->bReady = 1;
    tReady = timer_now();
    /* Its first STATS follows the HELLO: read before the first query, so
    ** that every query's record names the device and its floors. */
    worker__frame_read(w, fd);
    pthread_mutex_lock(&w->mu);
    w->bReading = 0;
    if (!w->bEnded) supervise_state(w, WORKER_READY);
    pthread_mutex_unlock(&w->mu);
    log_printf(LOG_LEVEL_INFO, "worker: process %d is ready: %s", (int)pid, w->stats.zBackend);
    supervise_watch(w, fd);
    pEnd->rReadySeconds = timer_now() - tReady;
    pthread_mutex_lock(&w->mu);
    pEnd->bLost = w->bLostSeen;
    snprintf(pEnd->zWhy, sizeof(pEnd->zWhy), "%s", w->zBad);
    pthread_mutex_unlock(&w->mu);
  } else if (rc < 0) {
    kill(pid, SIGKILL);                     /* not reaped yet: pid is still it */
  }
  supervise_close(w, fd);
  st = worker__reap(pid, SUPERVISE_REAP_SECONDS);
  pthread_mutex_lock(&w->mu);
  w->pid = 0;
  pthread_mutex_unlock(&w->mu);
  worker__exit_text(st, pEnd->zExit, sizeof(pEnd->zExit));
}

/* ---- the thread ------------------------------------------------------------------ */

/* The delay before the next start after nFail failures in a row. */
static double supervise_delay(int nFail) {
  double r = SUPERVISE_BACKOFF_FIRST;
  if (nFail <= 1) return 0;
  for (int i = 2; i < nFail && r < SUPERVISE_BACKOFF_MAX; i++) r *= 2;
  return r < SUPERVISE_BACKOFF_MAX ? r : SUPERVISE_BACKOFF_MAX;
}

/* The moment r seconds from now, on the clock cvState waits by. */
static struct timespec supervise_deadline(double r) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  ts.tv_sec += (time_t)r;
  ts.tv_nsec += (long)((r - (double)(time_t)r) * 1e9);
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  return ts;
}

/* Sleeps r seconds unless worker_stop() comes first. Returns 1 if it did. */
static int supervise_sleep(worker *w, double r) {
  struct timespec ts = supervise_deadline(r);
  int bStop;
  pthread_mutex_lock(&w->mu);
  while (!w->bStop && pthread_cond_timedwait(&w->cvState, &w->mu, &ts) != ETIMEDOUT) {
  }
  bStop = w->bStop;
  pthread_mutex_unlock(&w->mu);
  return bStop;
}

/* Records how a worker ended, fails the queries it held and logs it.
** Returns w->bStop. */
static int supervise_ended(worker *w, const supervise_end *e, int nFail, double rDelay) {
  char zMsg[1400], zNext[64];
  int bStop;
  if (rDelay > 0) snprintf(zNext, sizeof(zNext), "restarts in %.1f s", rDelay);
  else snprintf(zNext, sizeof(zNext), "was restarted");
  pthread_mutex_lock(&w->mu);
  bStop = w->bStop;
  if (!e->bReady) {
    w->stats.nStartFail++;
    snprintf(w->zDown, sizeof(w->zDown), "%s%s%s%s", e->zWhy, e->zExit[0] ? " (" : "", e->zExit,
             e->zExit[0] ? ")" : "");
    snprintf(w->stats.zLastExit, sizeof(w->stats.zLastExit), "could not start: %s", w->zDown);
    zMsg[0] = 0;
  } else if (bStop) {
    snprintf(w->stats.zLastExit, sizeof(w->stats.zLastExit), "stopped (%s)", e->zExit);
    snprintf(zMsg, sizeof(zMsg), "the device worker was stopped");
  } else if (e->bLost) {
    w->stats.nGpuLost++;
    snprintf(w->stats.zLastExit, sizeof(w->stats.zLastExit), "the GPU was lost (%s): %s", e->zExit,
             w->zLost);
    snprintf(zMsg, sizeof(zMsg), "the GPU faulted and cannot be used again in the device worker's "
             "process; the device worker %s (%s)", zNext, w->zLost);
  } else {
    w->stats.nCrash++;
    snprintf(w->stats.zLastExit, sizeof(w->stats.zLastExit), "%s%s%s", e->zExit,
             e->zWhy[0] ? ": " : "", e->zWhy);
    snprintf(zMsg, sizeof(zMsg), "the device worker exited (%s) and %s", e->zExit, zNext);
  }
  pthread_mutex_unlock(&w->mu);
  if (zMsg[0] != 0) worker__req_fail_all(w, zMsg);
  if (!e->bReady) {
    log_printf(LOG_LEVEL_ERROR, "worker: the device worker could not start (%d in a row): %s",
               nFail, w->zDown);
  } else if (!bStop) {
    log_printf(LOG_LEVEL_WARN, "worker: the device worker ended (%s%s%s); it %s", e->zExit,
               e->zWhy[0] ? ": " : "", e->zWhy, zNext);
  }
  return bStop;
}

static void *supervise_main(void *pArg) {
  worker *w = pArg;
  int nFail = 0, bEverReady = 0;
  for (;;) {
    supervise_end e;
    double rDelay;
    supervise_one(w, &e);
    bEverReady |= e.bReady;
    if (!e.bReady || e.rReadySeconds < SUPERVISE_QUICK_SECONDS) nFail++;
    else nFail = 1;
    rDelay = bEverReady ? supervise_delay(nFail) : 0;
    if (supervise_ended(w, &e, nFail, rDelay)) break;
    if (!bEverReady) break;                 /* worker_start reports it */
    if (rDelay > 0 && supervise_sleep(w, rDelay)) break;
  }
  worker__req_fail_all(w, "the device worker was stopped");
  pthread_mutex_lock(&w->mu);
  w->bThreadDone = 1;
  pthread_cond_broadcast(&w->cvState);
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

/* ---- the API ------------------------------------------------------------------------ */

void worker_config_init(worker_config *p) {
  memset(p, 0, sizeof(*p));
  p->zBackend = "auto";
  p->mem.nPinned = p->mem.nDevice = -1;
  p->stride.nBufByte = -1;
  p->stride.nBufMax = p->stride.nThread = -1;
  p->nSpinMicros = -1;
}

static void worker_free(worker *w) {
  free(w->zProgram);
  free(w->zDataDir);
  free(w->zBackend);
  free(w->zCacheDir);
  pthread_cond_destroy(&w->cvState);
  pthread_cond_destroy(&w->cvRole);
  pthread_mutex_destroy(&w->mu);
  pthread_mutex_destroy(&w->muSend);
  free(w);
}

/* Makes w from the configuration, strings copied. Returns 0, or -1 with zErr. */
static int worker_make(const worker_config *pCfg, worker **ppW, char *zErr, size_t nErr) {
  char zDefault[4096];
  const char *zProgram = pCfg->zProgram, *zBackend = pCfg->zBackend ? pCfg->zBackend : "auto";
  pthread_condattr_t ca;
  worker *w;
  *ppW = NULL;
  if (pCfg->zDataDir == NULL) {
    snprintf(zErr, nErr, "the device worker needs a data directory");
    return -1;
  }
  if (strcmp(zBackend, "auto") != 0 && strcmp(zBackend, "cuda") != 0 && strcmp(zBackend, "cpu") != 0) {
    snprintf(zErr, nErr, "unknown backend \"%s\" (auto, cuda or cpu)", zBackend);
    return -1;
  }
  if (zProgram == NULL && (zProgram = worker_program_default(zDefault, sizeof(zDefault))) == NULL) {
    snprintf(zErr, nErr, "cannot find starq-worker: /proc/self/exe: %s", strerror(errno));
    return -1;
  }
  if ((w = calloc(1, sizeof(*w))) == NULL) goto out_oom;
  w->cfg = *pCfg;
  w->zProgram = strdup(zProgram);
  w->zDataDir = strdup(pCfg->zDataDir);
  w->zBackend = strdup(zBackend);
  w->zCacheDir = pCfg->zCacheDir ? strdup(pCfg->zCacheDir) : NULL;
  pthread_mutex_init(&w->muSend, NULL);
  pthread_mutex_init(&w->mu, NULL);
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&w->cvState, &ca);
  pthread_condattr_destroy(&ca);
  pthread_cond_init(&w->cvRole, NULL);
  if (!w->zProgram || !w->zDataDir || !w->zBackend || (pCfg->zCacheDir && !w->zCacheDir)) {
    worker_free(w);
    goto out_oom;
  }
  if (w->cfg.nSpinMicros < 0) {
    w->cfg.nSpinMicros = sysconf(_SC_NPROCESSORS_ONLN) >= WORKER_SPIN_MIN_CPUS ? WORKER_SPIN_MICROS : 0;
  }
  w->eLogLevel = log_level_get();
  w->eState = WORKER_DOWN;
  w->fd = -1;
  w->stats.nPreloaded = -1;
  *ppW = w;
  return 0;
out_oom:
  snprintf(zErr, nErr, "out of memory");
  return -1;
}

int worker_start(const worker_config *pCfg, worker **ppW, char *zErr, size_t nErr) {
  worker *w;
  int rc;
  *ppW = NULL;
  if (worker_make(pCfg, &w, zErr, nErr) != 0) return -1;
  if ((rc = pthread_create(&w->thread, NULL, supervise_main, w)) != 0) {
    snprintf(zErr, nErr, "pthread_create: %s", strerror(rc));
    worker_free(w);
    return -1;
  }
  w->bThreadStarted = 1;
  pthread_mutex_lock(&w->mu);
  while (w->eState != WORKER_READY && w->stats.nStartFail == 0 && !w->bThreadDone) {
    pthread_cond_wait(&w->cvState, &w->mu);
  }
  rc = w->eState == WORKER_READY ? 0 : -1;
  if (rc != 0) snprintf(zErr, nErr, "the device worker could not start: %s", w->zDown);
  pthread_mutex_unlock(&w->mu);
  if (rc != 0) {
    worker_stop(w);
    return -1;
  }
  *ppW = w;
  return 0;
}

void worker_stats_get(worker *w, worker_stats *p) {
  pthread_mutex_lock(&w->mu);
  worker__drain(w);                         /* the STATS no query has read yet */
  *p = w->stats;
  p->bReady = w->eState == WORKER_READY;
  p->iPid = (int)w->pid;
  p->nInFlight = 0;
  for (worker_req *q = w->pReq; q != NULL; q = q->pNext) p->nInFlight++;
  if (p->iPid == 0) {
    p->zBackend[0] = 0;
    memset(&p->dev, 0, sizeof(p->dev));
  }
  pthread_mutex_unlock(&w->mu);
}

void worker_backend_get(worker *w, worker_backend *p) {
  pthread_mutex_lock(&w->mu);
  memset(p, 0, sizeof(*p));
  p->bReady = w->eState == WORKER_READY;
  if (w->pid != 0) {
    memcpy(p->zBackend, w->stats.zBackend, sizeof(p->zBackend));
    memcpy(p->zDevice, w->stats.dev.zDevice, sizeof(p->zDevice));
    p->bw = w->stats.dev.bw;
  }
  pthread_mutex_unlock(&w->mu);
}

void worker_stop(worker *w) {
  double rWait;
  struct timespec ts;
  if (w == NULL) return;
  rWait = w->cfg.rStopSeconds > 0 ? w->cfg.rStopSeconds : SUPERVISE_STOP_SECONDS;
  ts = supervise_deadline(rWait);
  pthread_mutex_lock(&w->mu);
  w->bStop = 1;
  supervise_state(w, WORKER_STOPPED);
  /* The worker sees the end of its input, finishes what it runs and
  ** exits; answers still come back until then. */
  if (w->fd >= 0) shutdown(w->fd, SHUT_WR);
  while (w->bThreadStarted && !w->bThreadDone &&
         pthread_cond_timedwait(&w->cvState, &w->mu, &ts) != ETIMEDOUT) {
  }
  if (!w->bThreadDone && w->pid > 0 && !w->bReaping) {
    log_printf(LOG_LEVEL_WARN, "worker: the device worker did not stop within %.0f s: killing it",
               rWait);
    kill(w->pid, SIGKILL);
  }
  pthread_mutex_unlock(&w->mu);
  if (w->bThreadStarted) pthread_join(w->thread, NULL);
  /* Callers woken by the stop are on their way out of worker_query. */
  pthread_mutex_lock(&w->mu);
  while (w->nCaller > 0) pthread_cond_wait(&w->cvState, &w->mu);
  pthread_mutex_unlock(&w->mu);
  worker_free(w);
}
