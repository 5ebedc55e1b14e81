/*
** common/proc.c — a child program run to its end or stopped (proc.h):
** vfork and execve with the child's group, signals and limits set up in
** between, the wait that watches a cancel flag and a deadline, and the
** table of running groups that proc_kill_all empties.
**
** Why vfork: fork would copy the page tables of a process that may hold
** gigabytes of pinned columns and dozens of threads, and posix_spawn can
** set neither resource limits nor a parent-death signal. Between vfork
** and execve the child shares the parent's memory, so it only makes
** system calls (sigaction, setpgid, prctl, setrlimit, dup2, sigprocmask,
** execve) and stores errno in the parent's frame if execve fails; the
** program's path is looked up on PATH before the vfork, in the parent.
** Every signal is blocked in the calling thread across the vfork, so no
** handler of the parent's can run in the child before it has reset them.
**
** INTERFACE ROUTINES
**   proc_run, proc_kill_all, proc_status_text
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "timer.h"

extern char **environ;

/* ---- the table of running groups ------------------------------------------- */

/* Process groups proc_run has running; 0 is a free slot. More children at
** once than slots run unlisted (a handler then misses them, their limits
** still hold). */
#define PROC_GROUPS_MAX 256
static _Atomic int proc_aGroup[PROC_GROUPS_MAX];

static int proc_group_add(int pid) {
  for (int i = 0; i < PROC_GROUPS_MAX; i++) {
    int iFree = 0;
    if (atomic_compare_exchange_strong(&proc_aGroup[i], &iFree, pid)) return i;
  }
  return -1;
}

static void proc_group_remove(int iSlot) {
  if (iSlot >= 0) atomic_store(&proc_aGroup[iSlot], 0);
}

void proc_kill_all(void) {
  for (int i = 0; i < PROC_GROUPS_MAX; i++) {
    int pid = atomic_load(&proc_aGroup[i]);
    if (pid > 0) kill(-pid, SIGKILL);
  }
}

/* ---- starting -------------------------------------------------------------- */

void proc_status_text(int st, char *z, size_t n) {
  if (WIFEXITED(st)) {
    snprintf(z, n, "exit %d", WEXITSTATUS(st));
  } else if (WIFSIGNALED(st)) {
    snprintf(z, n, "killed by signal %d", WTERMSIG(st));
  } else {
    snprintf(z, n, "wait status 0x%x", (unsigned)st);
  }
}

/* Finds zName on PATH (as execvp would) into zPath. Returns 0, or -1 with
** zErr. A name with a '/' is taken as it is. */
static int proc_path_find(const char *zName, char *zPath, size_t nPath, char *zErr, size_t nErr) {
  const char *zDirs = getenv("PATH");
  if (strchr(zName, '/') != NULL) {
    snprintf(zPath, nPath, "%s", zName);
    return 0;
  }
  if (zDirs == NULL) zDirs = "/usr/local/bin:/usr/bin:/bin";
  while (*zDirs != 0) {
    size_t n = strcspn(zDirs, ":");
    if ((size_t)snprintf(zPath, nPath, "%.*s/%s", (int)n, n == 0 ? "." : zDirs, zName) < nPath &&
        access(zPath, X_OK) == 0) {
      return 0;
    }
    zDirs += n;
    if (*zDirs == ':') zDirs++;
  }
  snprintf(zErr, nErr, "running %s: not found on PATH", zName);
  return -1;
}

/* Sets one resource limit, soft and hard, in the child. */
static void proc_limit(int eRes, rlim_t n) {
  struct rlimit rl;
  rl.rlim_cur = rl.rlim_max = n;
  (void)setrlimit(eRes, &rl);
}

/* The child's side, between vfork and execve: system calls only. Never
** returns. */
static void proc_child(const proc_run_args *p, const char *zPath, int fdNull, int fdOut,
                       volatile int *piErr) {
  struct sigaction sa;
  sigset_t none;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  for (int iSig = 1; iSig < NSIG; iSig++) {
    if (iSig != SIGKILL && iSig != SIGSTOP) (void)sigaction(iSig, &sa, NULL);
  }
  (void)setpgid(0, 0);
  (void)prctl(PR_SET_PDEATHSIG, SIGKILL);
  proc_limit(RLIMIT_CORE, 0);
  if (p->secCpu > 0) proc_limit(RLIMIT_CPU, (rlim_t)p->secCpu);
  if (p->nAddrBytes > 0) proc_limit(RLIMIT_AS, (rlim_t)p->nAddrBytes);
  if (dup2(fdNull, 0) < 0 || dup2(fdOut, 1) < 0 || dup2(fdOut, 2) < 0) {
    *piErr = errno;
    _exit(127);
  }
  sigemptyset(&none);
  (void)sigprocmask(SIG_SETMASK, &none, NULL);
  execve(zPath, p->azArgv, environ);
  *piErr = errno;
  _exit(127);
}

/* Starts the child with its output into fdOut. Returns its pid, or -1
** with zErr. */
static int proc_start(const proc_run_args *p, int fdOut, char *zErr, size_t nErr) {
  char zPath[PATH_MAX];
  volatile int iErr = 0;
  sigset_t all, old;
  int fdNull, pid, e;
  if (proc_path_find(p->azArgv[0], zPath, sizeof(zPath), zErr, nErr) != 0) return -1;
  if ((fdNull = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
    snprintf(zErr, nErr, "open /dev/null: %s", strerror(errno));
    return -1;
  }
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pid = vfork();
  if (pid == 0) proc_child(p, zPath, fdNull, fdOut, &iErr);
  e = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  close(fdNull);
  if (pid < 0) {
    snprintf(zErr, nErr, "vfork: %s", strerror(e));
    return -1;
  }
  if (iErr != 0) {
    /* The child has exited 127 without running the program. */
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
    snprintf(zErr, nErr, "running %s: %s", zPath, strerror(iErr));
    return -1;
  }
  return pid;
}

/* ---- waiting --------------------------------------------------------------- */

/* Appends what was read to p->zOut, keeping the first nOut - 1 bytes. */
static void proc_keep(proc_run_args *p, size_t *pn, const char *a, size_t nGot) {
  for (size_t i = 0; i < nGot; i++) {
    if (*pn + 1 < p->nOut) {
      p->zOut[(*pn)++] = a[i];
    } else {
      p->bCut = 1;
    }
  }
}

/* Stops the child's group if the caller's flag or the deadline says so. */
static void proc_check(proc_run_args *p, int pid, double tEnd) {
  if (p->eStop != PROC_STOP_NONE) return;
  if (p->pbCancel != NULL && atomic_load(p->pbCancel) != 0) {
    p->eStop = PROC_STOP_CANCEL;
  } else if (tEnd > 0 && timer_now() >= tEnd) {
    p->eStop = PROC_STOP_TIMEOUT;
  } else {
    return;
  }
  kill(-pid, SIGKILL);
}

int proc_run(proc_run_args *p, char *zErr, size_t nErr) {
  double tEnd = p->secWall > 0 ? timer_now() + p->secWall : 0;
  int aFd[2], pid, iSlot;
  size_t n = 0;
  p->bCut = 0;
  p->status = 0;
  p->eStop = PROC_STOP_NONE;
  p->zOut[0] = 0;
  if (pipe2(aFd, O_CLOEXEC) != 0) {
    snprintf(zErr, nErr, "pipe: %s", strerror(errno));
    return -1;
  }
  pid = proc_start(p, aFd[1], zErr, nErr);
  close(aFd[1]);
  if (pid < 0) {
    close(aFd[0]);
    return -1;
  }
  iSlot = proc_group_add(pid);
  for (;;) {
    struct pollfd pfd = {aFd[0], POLLIN, 0};
    char aBuf[4096];
    ssize_t got;
    int rc;
    proc_check(p, pid, tEnd);
    rc = poll(&pfd, 1, PROC_POLL_MS);
    if (rc == 0 || (rc < 0 && errno == EINTR)) continue;
    if (rc < 0) break;
    got = read(aFd[0], aBuf, sizeof(aBuf));
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) {
      /* The end of the output, or an error reading it: what is left is
      ** to wait for the child, whose exit status says how it went. */
      if (got < 0) p->bCut = 1;
      break;
    }
    proc_keep(p, &n, aBuf, (size_t)got);
  }
  p->zOut[n] = 0;
  close(aFd[0]);
  /* Once the pipe is closed a child still writing ends on EPIPE; the
  ** wait still watches the flag and the clock for one that does not. */
  for (;;) {
    int w = waitpid(pid, &p->status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) {
      snprintf(zErr, nErr, "waitpid %s: %s", p->azArgv[0], strerror(errno));
      proc_group_remove(iSlot);
      return -1;
    }
    proc_check(p, pid, tEnd);
    if (w == 0) poll(NULL, 0, PROC_POLL_MS / 4 + 1);
  }
  proc_group_remove(iSlot);
  return 0;
}
