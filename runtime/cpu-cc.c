/*
** runtime/cpu-cc.c — runs the system C compiler for the CPU backend: once
** with --version, for the cache key, and once per compile of a module.
**
** The compiler runs through common/proc.h: a process group of its own
** with every signal at its default, stdin from /dev/null and stdout and
** stderr into one pipe read to its end (only the first CPU_DIAG_MAX bytes
** are kept for the error message), bounded in time and address space and
** stopped — cc1, as and ld with it — when the statement that waits for it
** is cancelled (cpu_options), and killed if the process that started it
** dies.
**
** INTERFACE ROUTINES
**   cpu__azCcFlags     the flags, also hashed into the cache key
**   cpu__cc_identity   the compiler's --version text, once per process
**   cpu__cc_compile    source file to shared object, diagnostics on error
*/
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../common/proc.h"
#include "cpuInt.h"

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

/* Runs azArgv (azArgv[0] looked up on PATH) to its end, or until pOpt's
** cancel flag or time bound stops it (pOpt NULL: the default bounds, no
** cancel). Keeps the first nOut-1 bytes of its stdout and stderr in zOut,
** NUL-terminated, and sets *pbCut if it wrote more. Sets *pStatus to its
** wait status. Returns 0, CPU_STOPPED or CPU_TIMED_OUT (zErr says so), or
** -1 with zErr if it could not be started or waited for. */
static int cpu__cc_run(char *const *azArgv, const cpu_options *pOpt, char *zOut, size_t nOut,
                       int *pbCut, int *pStatus, char *zErr, size_t nErr) {
  proc_run_args a;
  double secMax = pOpt != NULL && pOpt->secCompileMax > 0 ? pOpt->secCompileMax
                                                           : CPU_COMPILE_SECONDS;
  memset(&a, 0, sizeof(a));
  a.azArgv = azArgv;
  a.secWall = secMax;
  /* The CPU limit backs the wall-clock one up where nobody is left to
  ** enforce it (the process killed): cc1 then ends by itself. */
  a.secCpu = (int)secMax + 10;
  a.nAddrBytes = pOpt != NULL && pOpt->nCompileBytesMax > 0 ? pOpt->nCompileBytesMax
                                                            : CPU_COMPILE_BYTES;
  a.pbCancel = pOpt != NULL ? pOpt->pbCancel : NULL;
  a.zOut = zOut;
  a.nOut = nOut;
  if (proc_run(&a, zErr, nErr) != 0) return -1;
  *pbCut = a.bCut;
  *pStatus = a.status;
  if (a.eStop == PROC_STOP_CANCEL) {
    snprintf(zErr, nErr, "the compile was cancelled");
    return CPU_STOPPED;
  }
  if (a.eStop == PROC_STOP_TIMEOUT) {
    snprintf(zErr, nErr, "%s ran past its limit of %g s and was stopped", azArgv[0], secMax);
    return CPU_TIMED_OUT;
  }
  return 0;
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
  char zOut[4096], zWhy[96];
  int bCut, status, rc = -1;

  *pz = NULL;
  pthread_mutex_lock(&cpuCcMutex);
  if (cpuCcName == NULL || strcmp(cpuCcName, zCompiler) != 0) {
    char *zName, *zIdentity;
    if (cpu__cc_run(azArgv, NULL, zOut, sizeof(zOut), &bCut, &status, zErr, nErr) != 0) {
      goto out_unlock;
    }
    if (!cpu__cc_ok(status)) {
      proc_status_text(status, zWhy, sizeof(zWhy));
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

int cpu__cc_compile(const char *zCompiler, const cpu_options *pOpt, const char *zSrc,
                    const char *zOut, char *zErr, size_t nErr) {
  enum { nFlag = sizeof(cpu__azCcFlags) / sizeof(cpu__azCcFlags[0]) - 1 };
  char *azArgv[nFlag + 6];
  char zDiag[CPU_DIAG_MAX + 1], zWhy[96];
  int n = 0, bCut, status, rc;

  azArgv[n++] = (char *)zCompiler;
  for (int i = 0; i < nFlag; i++) azArgv[n++] = (char *)cpu__azCcFlags[i];
  azArgv[n++] = "-o";
  azArgv[n++] = (char *)zOut;
  azArgv[n++] = (char *)zSrc;
  azArgv[n++] = "-lm";
  azArgv[n] = NULL;
  rc = cpu__cc_run(azArgv, pOpt, zDiag, sizeof(zDiag), &bCut, &status, zErr, nErr);
  if (rc != 0) return rc;
  if (!cpu__cc_ok(status)) {
    size_t nDiag = strlen(zDiag);
    while (nDiag > 0 && (zDiag[nDiag - 1] == '\n' || zDiag[nDiag - 1] == ' ')) zDiag[--nDiag] = 0;
    proc_status_text(status, zWhy, sizeof(zWhy));
    snprintf(zErr, nErr, "compiling with %s failed (%s):\n%s%s", zCompiler, zWhy, zDiag,
             bCut ? "\n[more diagnostics cut]" : "");
    return -1;
  }
  return 0;
}
