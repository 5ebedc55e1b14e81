/*
** runtime/cpu-cc.c — runs the system C compiler for the CPU backend: once
** with --version, for the cache key, and once per compile of a module.
**
** The compiler is started with posix_spawnp (so no fork of a process that
** may hold many threads and much memory), stdin from /dev/null and stdout
** and stderr into one pipe. The pipe is read to its end whatever the
** compiler writes, so a chatty compiler never blocks; only the first
** CPU_DIAG_MAX bytes are kept for the error message. Both ends of the pipe
** are close-on-exec, so a compiler started by another thread at the same
** moment cannot hold our write end open and keep us waiting.
**
** INTERFACE ROUTINES
**   cpu__azCcFlags     the flags, also hashed into the cache key
**   cpu__cc_identity   the compiler's --version text, once per process
**   cpu__cc_compile    source file to shared object, diagnostics on error
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpuInt.h"

extern char **environ;

/* How much of the compiler's output an error message keeps. */
#define CPU_DIAG_MAX 2048

/* -fvisibility=hidden keeps all but the shim's exported entry points out
** of the dynamic symbol table. -z defs turns a call of an undeclared
** function into a compile error here rather than a dlopen failure later.
** Warnings stay on but never fail the build: they are shown only with
** an error — except those that NVRTC (C++) rejects outright, so a
** source the GPU would refuse (a register array of the wrong type passed
** to the device library, or a SMALLINT's copy typed unsigned short, as
** the H100 found) fails here too, where CI sees it. */
const char *const cpu__azCcFlags[] = {
  "-std=c11", "-O2", "-fPIC", "-shared", "-fvisibility=hidden", "-fno-math-errno",
  "-fdiagnostics-color=never", "-Werror=incompatible-pointer-types", "-Werror=int-conversion",
  "-Werror=pointer-sign", "-Wl,-z,defs", NULL,
};

/* Runs azArgv (azArgv[0] looked up on PATH) to completion. Keeps the first
** nOut-1 bytes of its stdout and stderr in zOut, NUL-terminated, and sets
** *pbCut if it wrote more. Sets *pStatus to its wait status. Returns 0, or
** -1 with zErr if it could not be started or waited for. */
static int cpu__cc_run(char *const *azArgv, char *zOut, size_t nOut, int *pbCut,
                       int *pStatus, char *zErr, size_t nErr) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  sigset_t none, pipeDefault;
  int aFd[2], rc, iRet = -1;
  size_t n = 0;
  pid_t pid;

  *pbCut = 0;
  zOut[0] = 0;
  if (pipe2(aFd, O_CLOEXEC) != 0) {
    snprintf(zErr, nErr, "pipe: %s", strerror(errno));
    return -1;
  }
  if ((rc = posix_spawn_file_actions_init(&fa)) != 0) {
    snprintf(zErr, nErr, "posix_spawn_file_actions_init: %s", strerror(rc));
    goto out_close;
  }
  if ((rc = posix_spawnattr_init(&attr)) != 0) {
    snprintf(zErr, nErr, "posix_spawnattr_init: %s", strerror(rc));
    goto out_destroy_fa;
  }
  /* The caller may be a worker with every signal blocked, or a server that
  ** ignores SIGPIPE: the compiler gets neither. */
  sigemptyset(&none);
  sigemptyset(&pipeDefault);
  sigaddset(&pipeDefault, SIGPIPE);
  if ((rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0)) != 0 ||
      (rc = posix_spawn_file_actions_adddup2(&fa, aFd[1], 1)) != 0 ||
      (rc = posix_spawn_file_actions_adddup2(&fa, aFd[1], 2)) != 0 ||
      (rc = posix_spawnattr_setsigmask(&attr, &none)) != 0 ||
      (rc = posix_spawnattr_setsigdefault(&attr, &pipeDefault)) != 0 ||
      (rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)) != 0) {
    snprintf(zErr, nErr, "posix_spawn set-up: %s", strerror(rc));
    goto out_destroy_attr;
  }
  rc = posix_spawnp(&pid, azArgv[0], &fa, &attr, azArgv, environ);
  if (rc != 0) {
    snprintf(zErr, nErr, "running %s: %s", azArgv[0], strerror(rc));
    goto out_destroy_attr;
  }
  close(aFd[1]);
  aFd[1] = -1;

  for (;;) {
    char aBuf[4096];
    ssize_t got = read(aFd[0], aBuf, sizeof(aBuf));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      /* Not fatal: the exit status still says whether it worked. Closing
      ** our end first means a compiler still writing gets EPIPE and ends,
      ** instead of blocking on a full pipe while we wait for it. */
      *pbCut = 1;
      close(aFd[0]);
      aFd[0] = -1;
      break;
    }
    if (got == 0) break;
    for (ssize_t i = 0; i < got; i++) {
      if (n + 1 < nOut) {
        zOut[n++] = aBuf[i];
      } else {
        *pbCut = 1;
      }
    }
  }
  zOut[n] = 0;
  while (waitpid(pid, pStatus, 0) < 0) {
    if (errno != EINTR) {
      snprintf(zErr, nErr, "waitpid %s: %s", azArgv[0], strerror(errno));
      goto out_destroy_attr;
    }
  }
  iRet = 0;

out_destroy_attr:
  posix_spawnattr_destroy(&attr);
out_destroy_fa:
  posix_spawn_file_actions_destroy(&fa);
out_close:
  if (aFd[0] >= 0) close(aFd[0]);
  if (aFd[1] >= 0) close(aFd[1]);
  return iRet;
}

/* Describes a wait status that is not a clean exit 0 into z. */
static void cpu__cc_status(int status, char *z, size_t n) {
  if (WIFEXITED(status)) {
    snprintf(z, n, "exit %d", WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    snprintf(z, n, "killed by signal %d", WTERMSIG(status));
  } else {
    snprintf(z, n, "wait status 0x%x", (unsigned)status);
  }
}

static int cpu__cc_ok(int status) {
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The identity of the compiler last asked about. One entry is enough: a
** process uses one compiler. */
static pthread_mutex_t cpuCcMutex = PTHREAD_MUTEX_INITIALIZER;
static char *cpuCcName;       /* the compiler, as named by the caller */
static char *cpuCcIdentity;   /* its --version output */

int cpu__cc_identity(const char *zCompiler, char **pz, char *zErr, size_t nErr) {
  char *const azArgv[] = {(char *)zCompiler, "--version", NULL};
  char zOut[4096], zWhy[64];
  int bCut, status, rc = -1;

  *pz = NULL;
  pthread_mutex_lock(&cpuCcMutex);
  if (cpuCcName == NULL || strcmp(cpuCcName, zCompiler) != 0) {
    char *zName, *zIdentity;
    if (cpu__cc_run(azArgv, zOut, sizeof(zOut), &bCut, &status, zErr, nErr) != 0) {
      goto out_unlock;
    }
    if (!cpu__cc_ok(status)) {
      cpu__cc_status(status, zWhy, sizeof(zWhy));
      snprintf(zErr, nErr, "%s --version failed (%s): %s", zCompiler, zWhy, zOut);
      goto out_unlock;
    }
    zName = strdup(zCompiler);
    zIdentity = strdup(zOut);
    if (zName == NULL || zIdentity == NULL) {
      free(zName);
      free(zIdentity);
      snprintf(zErr, nErr, "out of memory");
      goto out_unlock;
    }
    free(cpuCcName);
    free(cpuCcIdentity);
    cpuCcName = zName;
    cpuCcIdentity = zIdentity;
  }
  *pz = strdup(cpuCcIdentity);
  if (*pz == NULL) {
    snprintf(zErr, nErr, "out of memory");
  } else {
    rc = 0;
  }
out_unlock:
  pthread_mutex_unlock(&cpuCcMutex);
  return rc;
}

int cpu__cc_compile(const char *zCompiler, const char *zSrc, const char *zOut, char *zErr,
                    size_t nErr) {
  enum { nFlag = sizeof(cpu__azCcFlags) / sizeof(cpu__azCcFlags[0]) - 1 };
  char *azArgv[nFlag + 6];
  char zDiag[CPU_DIAG_MAX + 1], zWhy[64];
  int n = 0, bCut, status;

  azArgv[n++] = (char *)zCompiler;
  for (int i = 0; i < nFlag; i++) azArgv[n++] = (char *)cpu__azCcFlags[i];
  azArgv[n++] = "-o";
  azArgv[n++] = (char *)zOut;
  azArgv[n++] = (char *)zSrc;
  azArgv[n++] = "-lm";
  azArgv[n] = NULL;
  if (cpu__cc_run(azArgv, zDiag, sizeof(zDiag), &bCut, &status, zErr, nErr) != 0) return -1;
  if (!cpu__cc_ok(status)) {
    size_t nDiag = strlen(zDiag);
    while (nDiag > 0 && (zDiag[nDiag - 1] == '\n' || zDiag[nDiag - 1] == ' ')) zDiag[--nDiag] = 0;
    cpu__cc_status(status, zWhy, sizeof(zWhy));
    snprintf(zErr, nErr, "compiling with %s failed (%s):\n%s%s", zCompiler, zWhy, zDiag,
             bCut ? "\n[more diagnostics cut]" : "");
    return -1;
  }
  return 0;
}
