/*
** tests/test-runtime-stop.c — work nobody waits for stops: a compile is
** stopped, with every process the compiler started, when its cancel flag
** is set or its time bound passes, leaving no temp file; the compiler
** runs with every signal at its default and unblocked (whatever the
** caller ignores or blocks) and within its address-space bound; a kernel
** launch with a cancel flag takes no more blocks once it is set.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/timer.h"
#include "../runtime/cpu.h"
#include "test-runtime.h"
#include "test.h"

/* A compiler that answers --version, writes what it was started with
** (ignored and blocked signals, its address-space limit in KiB) to
** cc.env, starts a child standing for cc1 (its pid in cc1.pid) and waits
** for it: ten minutes unless stopped. */
static const char stop_zSlowCc[] =
    "#!/bin/sh\n"
    "[ \"$1\" = --version ] && { echo slowcc 1; exit 0; }\n"
    "sleep 600 &\n"
    "echo $! > cc1.pid.tmp && mv cc1.pid.tmp cc1.pid\n"
    "{ grep -E '^Sig(Ign|Blk):' /proc/self/status; ulimit -v; } > cc.env.tmp\n"
    "mv cc.env.tmp cc.env\n"
    "wait\n";

static void stop_file_write(const char *zPath, const char *z, mode_t mode) {
  int fd = open(zPath, O_WRONLY | O_CREAT | O_TRUNC, mode);
  if (fd < 0) FAIL("open %s: %s", zPath, strerror(errno));
  ASSERT_EQ(write(fd, z, strlen(z)), (ssize_t)strlen(z));
  ASSERT_EQ(close(fd), 0);
}

/* Reads the pid in zPath, written by the compiler. */
static int stop_pid_read(const char *zPath) {
  FILE *f = fopen(zPath, "r");
  int pid = 0;
  if (f == NULL) FAIL("open %s: %s", zPath, strerror(errno));
  ASSERT_EQ(fscanf(f, "%d", &pid), 1);
  fclose(f);
  ASSERT_GT(pid, 0);
  return pid;
}

/* Sets *pbCancel once the compiler has written cc.env. */
static void *stop_canceller(void *pArg) {
  _Atomic int *pbCancel = pArg;
  double tEnd = timer_now() + 120;
  while (access("cc.env", F_OK) != 0 && timer_now() < tEnd) usleep(10000);
  atomic_store(pbCancel, 1);
  return NULL;
}

/* Counts the temp files a compile leaves in zDir. */
static int stop_temp_count(const char *zDir) {
  char zCmd[256];
  FILE *f;
  int n = -1;
  snprintf(zCmd, sizeof(zCmd), "find %s -name 'tmp-*' | wc -l", zDir);
  f = popen(zCmd, "r");
  ASSERT(f != NULL);
  ASSERT_EQ(fscanf(f, "%d", &n), 1);
  pclose(f);
  return n;
}

TEST_IMPL(runtime_cpu_compile_stop) {
  static const char zSrc[] = "__global__ void s(const int a) {\n  (void)a;\n}\n";
  _Atomic int bCancel = 0;
  cpu_options opt = {.zCacheDir = "cache", .zCompiler = "./slowcc",
                     .nCompileBytesMax = (int64_t)1 << 30};
  struct sigaction saIgn, saOld;
  sigset_t mInt, mOld;
  char zErr[4096], zLine[256];
  cpu_module *p = NULL;
  pthread_t th;
  double t0;
  int rc, pidCc1, nIgnLines = 0;
  FILE *f;

  stop_file_write("slowcc", stop_zSlowCc, 0755);

  /* Cancelled: the caller ignores SIGTERM and blocks SIGINT, as the
  ** worker and the server do; the compiler gets neither. */
  memset(&saIgn, 0, sizeof(saIgn));
  saIgn.sa_handler = SIG_IGN;
  ASSERT_EQ(sigaction(SIGTERM, &saIgn, &saOld), 0);
  sigemptyset(&mInt);
  sigaddset(&mInt, SIGINT);
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, &mInt, &mOld), 0);
  opt.pbCancel = &bCancel;
  ASSERT_EQ(pthread_create(&th, NULL, stop_canceller, (void *)&bCancel), 0);
  t0 = timer_now();
  rc = cpu_module_load(zSrc, &opt, &p, zErr, sizeof(zErr));
  ASSERT_EQ(pthread_join(th, NULL), 0);
  ASSERT_EQ(pthread_sigmask(SIG_SETMASK, &mOld, NULL), 0);
  ASSERT_EQ(sigaction(SIGTERM, &saOld, NULL), 0);
  ASSERT_EQ(rc, CPU_STOPPED);
  ASSERT(p == NULL);
  ASSERT_LT(timer_now() - t0, 60);   /* not the compiler's ten minutes */
  pidCc1 = stop_pid_read("cc1.pid");
  for (double tEnd = timer_now() + 30; !test_pid_gone(pidCc1); usleep(10000)) {
    if (timer_now() > tEnd) FAIL("the compiler's child %d outlived the cancel", pidCc1);
  }
  ASSERT_EQ(stop_temp_count("cache"), 0);
  f = fopen("cc.env", "r");
  ASSERT(f != NULL);
  while (fgets(zLine, sizeof(zLine), f) != NULL) {
    if (strncmp(zLine, "Sig", 3) == 0) {
      /* Signals 1 to 31; glibc keeps 32 and 33 for itself. */
      unsigned long long m = strtoull(strchr(zLine, ':') + 1, NULL, 16);
      if ((m & 0x7fffffffull) != 0) FAIL("the compiler had %s", zLine);
      nIgnLines++;
    } else {
      ASSERT_EQ(atol(zLine), 1L << 20);   /* ulimit -v: KiB */
    }
  }
  fclose(f);
  ASSERT_EQ(nIgnLines, 2);

  /* Timed out: the same compile, no cancel, a half-second bound. */
  unlink("cc.env");
  unlink("cc1.pid");
  opt.pbCancel = NULL;
  opt.secCompileMax = 0.5;
  t0 = timer_now();
  rc = cpu_module_load(zSrc, &opt, &p, zErr, sizeof(zErr));
  ASSERT_EQ(rc, CPU_TIMED_OUT);
  ASSERT_LT(timer_now() - t0, 60);
  ASSERT_EQ(stop_temp_count("cache"), 0);
  return 0;
}

/* A kernel whose block 0 sets the launch's cancel flag, and which counts
** the blocks that ran. */
static const char stop_zKernel[] =
    "struct c_args {\n"
    "  int *pFlag;\n"
    "  unsigned *pn;\n"
    "};\n"
    "__global__ void c(const struct c_args a) {\n"
    "  if (blockIdx.x == 0) __atomic_store_n(a.pFlag, 1, __ATOMIC_SEQ_CST);\n"
    "  __atomic_fetch_add(a.pn, 1u, __ATOMIC_SEQ_CST);\n"
    "}\n"
    "STARQ_CPU_ENTRY(c, struct c_args)\n";

struct c_args {
  int *pFlag;
  unsigned *pn;
};

TEST_IMPL(runtime_cpu_launch_cancel) {
  cpu_options opt = {.zCacheDir = "cache"};
  _Atomic int bFlag = 0;
  unsigned n = 0;
  struct c_args a = {(int *)&bFlag, &n};
  cpu_module *pMod;
  cpu_kernel *k;
  cpu_pool *pPool = rt_pool(1);   /* one thread: block 0 surely runs first */
  char zErr[4096];
  CALL_OK(cpu_module_load(stop_zKernel, &opt, &pMod, zErr, sizeof(zErr)));
  k = rt_kernel(pMod, "c");
  /* Without a flag every block runs, though the kernel sets it. */
  CALL_OK(cpu_kernel_launch_cancel(pPool, k, 1000, 0, &a, NULL, zErr, sizeof(zErr)));
  ASSERT_EQ(n, 1000u);
  /* With it, the launch stops after the block that set it. */
  atomic_store(&bFlag, 0);
  n = 0;
  ASSERT_EQ(cpu_kernel_launch_cancel(pPool, k, 1000, 0, &a, &bFlag, zErr, sizeof(zErr)),
            CPU_STOPPED);
  ASSERT_LT(n, 1000u);
  ASSERT(strstr(zErr, "cancelled") != NULL);
  /* A flag set before the launch: no block runs at all. */
  n = 0;
  ASSERT_EQ(cpu_kernel_launch_cancel(pPool, k, 10, 0, &a, &bFlag, zErr, sizeof(zErr)),
            CPU_STOPPED);
  ASSERT_EQ(n, 0u);
  cpu_module_free(pMod);
  cpu_pool_destroy(pPool);
  return 0;
}
