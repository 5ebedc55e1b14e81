/*
** worker/spawn.c — the worker process as the supervisor sees it: its
** command line, posix_spawn on one end of a socketpair, reaping it with a
** deadline, and saying how it ended.
**
** posix_spawn, not fork: the server is multi-threaded, and a forked copy
** of it could deadlock on a lock another thread held (malloc's, the
** log's) before it ever reached exec. The child gets the socket as fd 3
** (WORKER_FD), /dev/null as stdin, the server's stderr as its stdout and
** stderr (its log joins the server's, and nothing it prints can reach the
** server's stdout), every signal unblocked and at its default (the server's
** threads may block some), and the server's environment. The
** supervisor's end is close-on-exec, so no other child of the server holds
** it: when the server dies, the worker sees its socket end.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "workerInt.h"

extern char **environ;

/* Most arguments the worker's command line takes, with their values. */
#define SPAWN_ARGS_MAX 40

/* The command line: fixed text in az, numbers formatted into aBuf. */
typedef struct spawn_argv spawn_argv;
struct spawn_argv {
  const char *az[SPAWN_ARGS_MAX + 1];
  int n;
  char aBuf[SPAWN_ARGS_MAX][32];
  int nBuf;
};

static void spawn_arg(spawn_argv *a, const char *z) {
  if (a->n < SPAWN_ARGS_MAX) a->az[a->n++] = z;
}

/* Adds "zFlag v", unless v is negative (the worker's default). */
static void spawn_arg_num(spawn_argv *a, const char *zFlag, int64_t v) {
  if (v < 0 || a->nBuf >= SPAWN_ARGS_MAX) return;
  snprintf(a->aBuf[a->nBuf], sizeof(a->aBuf[0]), "%lld", (long long)v);
  spawn_arg(a, zFlag);
  spawn_arg(a, a->aBuf[a->nBuf++]);
}

static void spawn_argv_build(const worker *w, spawn_argv *a) {
  const worker_config *c = &w->cfg;
  memset(a, 0, sizeof(*a));
  spawn_arg(a, w->zProgram);
  spawn_arg(a, "--data-dir");
  spawn_arg(a, w->zDataDir);
  spawn_arg(a, "--backend");
  spawn_arg(a, w->zBackend);
  spawn_arg_num(a, "--queries", c->nQuery > 0 ? c->nQuery : 4);
  spawn_arg_num(a, "--cpu-threads", c->nCpuThread > 0 ? c->nCpuThread : -1);
  spawn_arg_num(a, "--pinned", c->mem.nPinned);
  spawn_arg_num(a, "--device", c->mem.nDevice);
  spawn_arg_num(a, "--stride", c->stride.nBufByte);
  spawn_arg_num(a, "--stride-buffers", c->stride.nBufMax);
  spawn_arg_num(a, "--stride-threads", c->stride.nThread);
  if (c->bPreload) spawn_arg(a, "--preload");
  if (c->bWarm) spawn_arg(a, "--warm");
  spawn_arg_num(a, "--bandwidth-probe", c->nBandwidthProbe > 0 ? c->nBandwidthProbe : -1);
  spawn_arg_num(a, "--spin-us", c->nSpinMicros);
  if (w->zCacheDir != NULL) {
    spawn_arg(a, "--cache-dir");
    spawn_arg(a, w->zCacheDir);
  }
  spawn_arg(a, "--log-level");
  spawn_arg(a, log_level_name(w->eLogLevel));
  a->az[a->n] = NULL;
}

/* The file actions and attributes of the child (the file's comment). */
static int spawn_setup(posix_spawn_file_actions_t *pFa, posix_spawnattr_t *pAttr, int fdChild,
                       char *zErr, size_t nErr) {
  sigset_t mask;
  int rc;
  sigemptyset(&mask);
  if ((rc = posix_spawn_file_actions_adddup2(pFa, fdChild, WORKER_FD)) != 0 ||
      (rc = posix_spawn_file_actions_addopen(pFa, STDIN_FILENO, "/dev/null", O_RDONLY, 0)) != 0 ||
      (rc = posix_spawn_file_actions_adddup2(pFa, STDERR_FILENO, STDOUT_FILENO)) != 0 ||
      (rc = posix_spawnattr_setsigmask(pAttr, &mask)) != 0) {
    snprintf(zErr, nErr, "posix_spawn set-up: %s", strerror(rc));
    return -1;
  }
  sigfillset(&mask);
  sigdelset(&mask, SIGKILL);
  sigdelset(&mask, SIGSTOP);
  if ((rc = posix_spawnattr_setsigdefault(pAttr, &mask)) != 0 ||
      (rc = posix_spawnattr_setflags(pAttr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)) != 0) {
    snprintf(zErr, nErr, "posix_spawn set-up: %s", strerror(rc));
    return -1;
  }
  return 0;
}

int worker__spawn(const worker *w, int *pFd, pid_t *pPid, char *zErr, size_t nErr) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  spawn_argv a;
  int aFd[2], fdChild, rc = -1, e;
  *pFd = -1;
  *pPid = 0;
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, aFd) != 0) {
    snprintf(zErr, nErr, "socketpair: %s", strerror(errno));
    return -1;
  }
  /* dup2 onto itself would leave close-on-exec set: the child's end must
  ** not already be fd 3. */
  fdChild = aFd[1];
  if (fdChild == WORKER_FD && (fdChild = fcntl(aFd[1], F_DUPFD_CLOEXEC, WORKER_FD + 1)) < 0) {
    snprintf(zErr, nErr, "fcntl(F_DUPFD_CLOEXEC): %s", strerror(errno));
    fdChild = aFd[1];
    goto out_close;
  }
  spawn_argv_build(w, &a);
  if ((e = posix_spawn_file_actions_init(&fa)) != 0) {
    snprintf(zErr, nErr, "posix_spawn_file_actions_init: %s", strerror(e));
    goto out_close;
  }
  if ((e = posix_spawnattr_init(&attr)) != 0) {
    snprintf(zErr, nErr, "posix_spawnattr_init: %s", strerror(e));
    posix_spawn_file_actions_destroy(&fa);
    goto out_close;
  }
  if (spawn_setup(&fa, &attr, fdChild, zErr, nErr) == 0) {
    if ((e = posix_spawn(pPid, w->zProgram, &fa, &attr, (char *const *)a.az, environ)) != 0) {
      snprintf(zErr, nErr, "cannot run the device worker %s: %s", w->zProgram, strerror(e));
      *pPid = 0;
    } else {
      rc = 0;
    }
  }
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
out_close:
  if (fdChild != aFd[1]) close(fdChild);
  close(aFd[1]);
  if (rc != 0) {
    close(aFd[0]);
    return -1;
  }
  *pFd = aFd[0];
  return 0;
}

int worker__reap(pid_t pid, double rSeconds) {
  double tEnd = timer_now() + rSeconds;
  int st = 0;
  for (;;) {
    pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == pid) return st;
    if (r < 0 && errno != EINTR) {
      log_printf(LOG_LEVEL_ERROR, "worker: waitpid(%d): %s", (int)pid, strerror(errno));
      return 0;
    }
    if (timer_now() > tEnd) break;
    nanosleep(&(struct timespec){0, 5 * 1000 * 1000}, NULL);
  }
  log_printf(LOG_LEVEL_WARN, "worker: process %d did not exit within %.0f s: killing it", (int)pid,
             rSeconds);
  kill(pid, SIGKILL);
  while (waitpid(pid, &st, 0) < 0) {
    if (errno != EINTR) {
      log_printf(LOG_LEVEL_ERROR, "worker: waitpid(%d): %s", (int)pid, strerror(errno));
      return 0;
    }
  }
  return st;
}

char *worker__exit_text(int st, char *z, size_t n) {
  if (WIFSIGNALED(st)) {
    snprintf(z, n, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
  } else if (WIFEXITED(st)) {
    snprintf(z, n, "exit status %d", WEXITSTATUS(st));
  } else {
    snprintf(z, n, "wait status 0x%x", (unsigned)st);
  }
  return z;
}

char *worker_program_default(char *z, size_t n) {
  char zSelf[4096];
  ssize_t k = readlink("/proc/self/exe", zSelf, sizeof(zSelf) - 1);
  char *zSlash;
  if (k <= 0) return NULL;
  zSelf[k] = 0;
  if ((zSlash = strrchr(zSelf, '/')) == NULL) return NULL;
  *zSlash = 0;
  if ((size_t)snprintf(z, n, "%s/starq-worker", zSelf) >= n) return NULL;
  return z;
}
