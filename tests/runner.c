/*
** tests/runner.c — runs the tests listed in test-list.h, several at once.
**
**   run-tests [-j N] [NAME ...]
**
** With no names it runs every test; with names, only those. Up to N tests
** run at once (-j N, else $STARQ_TEST_JOBS, else the number of online
** CPUs). Each runs in a child process that leads its own process group,
** inside a fresh scratch directory, with stdout and stderr sent to a log.
** The runner waits up to the test's time limit, then kills the whole group
** (so programs the test started die with it). A test passes when its child
** exits 0.
**
** Tests start in a fixed order: the slowest first (TEST_LIST_SLOW, longest
** expected time first), so no long test starts last and leaves the other
** slots idle, then the rest as listed. A test in TEST_LIST_ALONE waits for
** the others to finish and runs by itself, after all the rest.
**
** Each test's line is printed when it finishes: "[k/n] name ok  1.23 s",
** k counting finished tests. The log of a failed test is printed under its
** line. The last line is the plain "N passed, N failed" that CI reads; the
** exit code is 1 if any failed. SIGINT, SIGTERM or SIGHUP kill every
** running test's group before the runner exits.
**
** The tests of one run share a kernel cache of their own (XDG_CACHE_HOME
** set to a directory the runner makes and removes): they never read or
** fill the user's, and one run's objects do not leak into the next.
**
** STARQ_BIN names the folder of binaries under test and STARQ_SRC the
** source tree; by default they are ../bin beside this program and three
** folders up, which is how the Makefile lays builds out. With
** STARQ_TEST_KEEP set, each scratch directory and the cache are kept and
** named.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/fsdir.h"
#include "test-list.h"

typedef struct test_entry test_entry;
struct test_entry {
  const char *zName;        /* name as listed */
  int (*xRun)(void);        /* the test body; 0 means pass */
  int nTimeout;             /* seconds before the runner kills it */
  int nExpect;              /* expected seconds, from TEST_LIST_SLOW; 0 if short */
  int bAlone;               /* in TEST_LIST_ALONE: runs with no other test */
};

#define TEST_ENTRY(name, timeout) {#name, test_##name, timeout, 0, 0},
static test_entry aTest[] = {TEST_LIST(TEST_ENTRY)};
#define N_TEST ((int)(sizeof(aTest) / sizeof(aTest[0])))

/* The hints, by function pointer: a name in them that is not a test does
** not compile. */
typedef struct test_hint test_hint;
struct test_hint {
  int (*xRun)(void);
  int nSeconds;
};
#define TEST_HINT_SLOW(name, seconds) {test_##name, seconds},
#define TEST_HINT_ALONE(name) {test_##name, 0},
static const test_hint aSlow[] = {TEST_LIST_SLOW(TEST_HINT_SLOW){NULL, 0}};
static const test_hint aAlone[] = {TEST_LIST_ALONE(TEST_HINT_ALONE){NULL, 0}};

/* One test in flight. */
typedef struct runner_slot runner_slot;
struct runner_slot {
  const test_entry *pTest;  /* the test; NULL while the slot is free */
  pid_t pid;                /* its child, the leader of its process group */
  double tStart;            /* runner_now() when it was forked */
  char zDir[PATH_MAX];      /* its scratch directory */
  char zLog[PATH_MAX];      /* its stdout and stderr */
  int fdLog;                /* open on zLog */
};

/* A run: the tests to start, in order, and those running. */
typedef struct runner runner;
struct runner {
  const test_entry **apQueue;  /* the selected tests, in the order they start */
  int nQueue;                  /* entries in apQueue */
  int iNext;                   /* the next of apQueue to start */
  runner_slot *aSlot;          /* nSlot slots, one per test at once */
  int nSlot;
  int nRunning;                /* slots in use */
  int bAloneRunning;           /* the running test is a TEST_LIST_ALONE one */
  int nPass, nFail;
  const char *zTmp;            /* where scratch directories and logs go */
  char zCache[PATH_MAX];       /* the run's kernel cache, "" if none */
};

/* Set by the signal handler; the main loop kills the running tests. */
static volatile sig_atomic_t runnerSignal;

static double runner_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void runner_on_signal(int iSig) {
  runnerSignal = iSig;
}

/* Copies the log to stdout, each line indented, so a failure reads in place. */
static void runner_log_print(const char *zLog) {
  FILE *f = fopen(zLog, "r");
  char zLine[4096];
  if (f == NULL) return;
  while (fgets(zLine, sizeof(zLine), f) != NULL) {
    printf("    %s", zLine);
    if (zLine[strlen(zLine) - 1] != '\n') putchar('\n');
  }
  fclose(f);
}

/* ---- starting and finishing one test ------------------------------------- */

/* Forks t into slot s. Returns 0, or -1 with the reason in zWhy (the slot
** then holds nothing to wait for). */
static int runner_slot_start(runner *r, runner_slot *s, const test_entry *t, char *zWhy,
                             size_t nWhy) {
  memset(s, 0, sizeof(*s));
  s->pTest = t;
  s->fdLog = -1;
  s->tStart = runner_now();
  snprintf(s->zDir, sizeof(s->zDir), "%s/starq-test-XXXXXX", r->zTmp);
  snprintf(s->zLog, sizeof(s->zLog), "%s/starq-test-log-XXXXXX", r->zTmp);
  if (mkdtemp(s->zDir) == NULL) {
    snprintf(zWhy, nWhy, "scratch space in %s: %s", r->zTmp, strerror(errno));
    s->zDir[0] = s->zLog[0] = 0;
    return -1;
  }
  /* Close-on-exec: the programs other tests start do not hold this log. */
  if ((s->fdLog = mkostemp(s->zLog, O_CLOEXEC)) < 0) {
    snprintf(zWhy, nWhy, "a log in %s: %s", r->zTmp, strerror(errno));
    s->zLog[0] = 0;
    return -1;
  }
  fflush(stdout);
  s->pid = fork();
  if (s->pid < 0) {
    snprintf(zWhy, nWhy, "fork: %s", strerror(errno));
    return -1;
  }
  if (s->pid == 0) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    setpgid(0, 0);
    if (chdir(s->zDir) != 0) _exit(125);
    dup2(s->fdLog, STDOUT_FILENO);
    dup2(s->fdLog, STDERR_FILENO);
    setvbuf(stdout, NULL, _IONBF, 0);
    exit(t->xRun());
  }
  setpgid(s->pid, s->pid);
  return 0;
}

/* Prints slot s's line ("ok", or "FAILED" with zWhy and the log), removes
** its log and scratch directory (unless STARQ_TEST_KEEP) and frees it. */
static void runner_slot_finish(runner *r, runner_slot *s, int bPass, const char *zWhy) {
  int nDone = r->nPass + r->nFail + 1;
  int nWidth = snprintf(NULL, 0, "%d", r->nQueue);
  double rSeconds = runner_now() - s->tStart;

  printf("[%*d/%d] %-40s ", nWidth, nDone, r->nQueue, s->pTest->zName);
  if (bPass) {
    printf("ok     %6.2f s\n", rSeconds);
    r->nPass++;
  } else {
    printf("FAILED %6.2f s: %s\n", rSeconds, zWhy);
    if (s->zLog[0] != 0) runner_log_print(s->zLog);
    r->nFail++;
  }
  if (s->fdLog >= 0) close(s->fdLog);
  if (s->zLog[0] != 0) unlink(s->zLog);
  if (s->zDir[0] != 0) {
    if (getenv("STARQ_TEST_KEEP") == NULL) fsdir_remove(s->zDir);
    else printf("     kept %s\n", s->zDir);
  }
  fflush(stdout);
  s->pTest = NULL;
}

/* Kills slot s's process group (whatever the test started goes too, pass
** or fail) and reaps its child unless that is done. */
static void runner_slot_kill(runner_slot *s, int bReaped) {
  int status;
  kill(-s->pid, SIGKILL);
  if (!bReaped) waitpid(s->pid, &status, 0);
}

/* Says why a child that exited with status failed, into zWhy; returns 1
** if it passed. */
static int runner_status_passed(int status, char *zWhy, size_t nWhy) {
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 1;
  if (WIFEXITED(status)) {
    snprintf(zWhy, nWhy, "exit code %d", WEXITSTATUS(status));
  } else {
    snprintf(zWhy, nWhy, "killed by signal %d (%s)", WTERMSIG(status),
             strsignal(WTERMSIG(status)));
  }
  return 0;
}

/* ---- the run ----------------------------------------------------------------- */

/* Reaps every child that has ended and kills those past their limit,
** finishing their slots. */
static void runner_reap(runner *r) {
  for (int i = 0; i < r->nSlot; i++) {
    runner_slot *s = &r->aSlot[i];
    char zWhy[512] = "";
    int status = 0;
    pid_t pid;
    if (s->pTest == NULL) continue;
    pid = waitpid(s->pid, &status, WNOHANG);
    if (pid == s->pid) {
      int bPass = runner_status_passed(status, zWhy, sizeof(zWhy));
      runner_slot_kill(s, 1);
      runner_slot_finish(r, s, bPass, zWhy);
    } else if (pid < 0 && errno != EINTR) {
      snprintf(zWhy, sizeof(zWhy), "waitpid: %s", strerror(errno));
      runner_slot_kill(s, 0);
      runner_slot_finish(r, s, 0, zWhy);
    } else if (runner_now() - s->tStart > s->pTest->nTimeout) {
      snprintf(zWhy, sizeof(zWhy), "timed out after %d s", s->pTest->nTimeout);
      runner_slot_kill(s, 0);
      runner_slot_finish(r, s, 0, zWhy);
    } else {
      continue;
    }
    r->nRunning--;
    r->bAloneRunning = 0;
  }
}

/* Starts queued tests while a slot is free and the next may start: a
** TEST_LIST_ALONE test only when nothing runs, and nothing beside it. */
static void runner_fill(runner *r) {
  while (r->iNext < r->nQueue && r->nRunning < r->nSlot && !r->bAloneRunning) {
    const test_entry *t = r->apQueue[r->iNext];
    runner_slot *s = NULL;
    char zWhy[512] = "";
    if (t->bAlone && r->nRunning > 0) return;
    for (int i = 0; s == NULL; i++) {
      if (r->aSlot[i].pTest == NULL) s = &r->aSlot[i];
    }
    r->iNext++;
    if (runner_slot_start(r, s, t, zWhy, sizeof(zWhy)) != 0) {
      runner_slot_finish(r, s, 0, zWhy);
      continue;
    }
    r->nRunning++;
    r->bAloneRunning = t->bAlone;
  }
}

/* Kills every running test, for a signal to the runner. */
static void runner_abort(runner *r) {
  for (int i = 0; i < r->nSlot; i++) {
    runner_slot *s = &r->aSlot[i];
    if (s->pTest == NULL) continue;
    runner_slot_kill(s, 0);
    runner_slot_finish(r, s, 0, "the runner was interrupted");
  }
}

/* Orders apQueue: TEST_LIST_SLOW tests first, longest expected first; then
** the rest as listed; TEST_LIST_ALONE tests last. */
static int runner_order_cmp(const void *a, const void *b) {
  const test_entry *x = *(const test_entry *const *)a, *y = *(const test_entry *const *)b;
  if (x->bAlone != y->bAlone) return x->bAlone - y->bAlone;
  if (x->nExpect != y->nExpect) return y->nExpect - x->nExpect;
  return x < y ? -1 : x > y;
}

/* Copies the hints into aTest. */
static void runner_hints_apply(void) {
  for (int i = 0; i < N_TEST; i++) {
    for (int j = 0; aSlow[j].xRun != NULL; j++) {
      if (aSlow[j].xRun == aTest[i].xRun) aTest[i].nExpect = aSlow[j].nSeconds;
    }
    for (int j = 0; aAlone[j].xRun != NULL; j++) {
      if (aAlone[j].xRun == aTest[i].xRun) aTest[i].bAlone = 1;
    }
  }
}

/* Runs the queue, nJobs at once; returns 0 if every test passed, 1 if not,
** 2 if no slot could be allocated. */
static int runner_run(runner *r, int nJobs) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = runner_on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);

  r->nSlot = nJobs;
  r->aSlot = calloc((size_t)nJobs, sizeof(runner_slot));
  if (r->aSlot == NULL) return 2;
  qsort(r->apQueue, (size_t)r->nQueue, sizeof(r->apQueue[0]), runner_order_cmp);
  runner_fill(r);
  while (r->nRunning > 0 && !runnerSignal) {
    usleep(10000);
    runner_reap(r);
    runner_fill(r);
  }
  if (runnerSignal) {
    runner_abort(r);
    printf("run-tests: stopped by signal %d\n", (int)runnerSignal);
  }
  free(r->aSlot);
  printf("%d passed, %d failed\n", r->nPass, r->nFail);
  return r->nFail || runnerSignal ? 1 : 0;
}

/* ---- set-up ------------------------------------------------------------------- */

/* Points STARQ_BIN at ../bin beside this program and STARQ_SRC at the
** source tree three levels up (build/<flavour>/tests/run-tests), unless
** they are set already. */
static void runner_paths_default(const char *zArgv0) {
  char zSelf[PATH_MAX], zPath[PATH_MAX + 16];
  char *zSlash;
  if (realpath(zArgv0, zSelf) == NULL) return;
  zSlash = strrchr(zSelf, '/');
  if (zSlash == NULL) return;
  *zSlash = 0;
  snprintf(zPath, sizeof(zPath), "%s/../bin", zSelf);
  setenv("STARQ_BIN", zPath, 0);
  snprintf(zPath, sizeof(zPath), "%s/../../..", zSelf);
  if (realpath(zPath, zSelf) != NULL) setenv("STARQ_SRC", zSelf, 0);
}

/* Makes the run's kernel cache and points XDG_CACHE_HOME at it. Returns 0,
** or -1 after saying why. */
static int runner_cache_make(runner *r) {
  snprintf(r->zCache, sizeof(r->zCache), "%s/starq-test-cache-XXXXXX", r->zTmp);
  if (mkdtemp(r->zCache) == NULL) {
    fprintf(stderr, "run-tests: a kernel cache in %s: %s\n", r->zTmp, strerror(errno));
    r->zCache[0] = 0;
    return -1;
  }
  setenv("XDG_CACHE_HOME", r->zCache, 1);
  return 0;
}

/* Reads "-j N" or "-jN" at argv[*pi]; returns N, or 0 if it is not a
** positive number (or absent). Advances *pi past what it read. */
static int runner_jobs_arg(int argc, char **argv, int *pi) {
  const char *z = argv[*pi] + 2;
  char *zEnd;
  long n;
  if (*z == 0) {
    if (*pi + 1 >= argc) return 0;
    z = argv[++*pi];
  }
  n = strtol(z, &zEnd, 10);
  return *zEnd == 0 && n > 0 && n <= 1024 ? (int)n : 0;
}

/* The default of -j: $STARQ_TEST_JOBS if set, else the online CPUs. */
static int runner_jobs_default(void) {
  const char *z = getenv("STARQ_TEST_JOBS");
  long n = z != NULL ? strtol(z, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 && n <= 1024 ? (int)n : 1;
}

/* Puts the named test on the queue; returns -1 if there is none. */
static int runner_queue_name(runner *r, const char *zName) {
  for (int j = 0; j < N_TEST; j++) {
    if (strcmp(zName, aTest[j].zName) != 0) continue;
    for (int k = 0; k < r->nQueue; k++) {
      if (r->apQueue[k] == &aTest[j]) return 0;   /* named twice: runs once */
    }
    r->apQueue[r->nQueue++] = &aTest[j];
    return 0;
  }
  return -1;
}

int main(int argc, char **argv) {
  static const test_entry *apQueue[N_TEST];
  runner r;
  int nJobs = runner_jobs_default(), rc;

  memset(&r, 0, sizeof(r));
  r.apQueue = apQueue;
  r.zTmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  runner_hints_apply();
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "-j", 2) == 0) {
      if ((nJobs = runner_jobs_arg(argc, argv, &i)) == 0) {
        fprintf(stderr, "run-tests: -j wants a number of tests at once, 1 or more\n");
        return 2;
      }
    } else if (runner_queue_name(&r, argv[i]) != 0) {
      fprintf(stderr, "run-tests: no test named \"%s\"\n", argv[i]);
      return 2;
    }
  }
  if (r.nQueue == 0) {
    for (int j = 0; j < N_TEST; j++) apQueue[r.nQueue++] = &aTest[j];
  }
  runner_paths_default(argv[0]);
  signal(SIGPIPE, SIG_IGN);
  if (runner_cache_make(&r) != 0) return 2;
  rc = runner_run(&r, nJobs < r.nQueue ? nJobs : r.nQueue);
  if (getenv("STARQ_TEST_KEEP") == NULL) fsdir_remove(r.zCache);
  else printf("kept the kernel cache %s\n", r.zCache);
  return rc;
}
