/*
** tests/test-runtime-cache.c — the CPU backend's module cache and its
** errors: a second load is a hit and a changed source or compiler a miss;
** a truncated, corrupted, foreign or empty object in the cache is found
** out before dlopen and rebuilt; compile errors come back as the
** compiler's message with the generated source's line numbers; a missing
** kernel, a missing compiler and an unusable cache directory are errors;
** processes and threads loading one source at once all succeed.
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../runtime/cpu.h"
#include "test-runtime.h"
#include "test.h"

struct t_one_args {
  int *p;
  int v;
};

/* A module of one kernel, t_one, that stores v into *p; iVariant (in a
** comment) makes each variant a different source. Free the result. */
static char *rt_one_source(int iVariant) {
  static const char zFmt[] =
    "/* variant %d */\n"
    "struct t_one_args {\n"
    "  int *p;\n"
    "  int v;\n"
    "};\n"
    "__global__ void t_one(const struct t_one_args a) {\n"
    "  if (blockIdx.x == 0) *a.p = a.v;\n"
    "}\n"
    "STARQ_CPU_ENTRY(t_one, struct t_one_args)\n";
  char *z = malloc(sizeof(zFmt) + 16);
  ASSERT(z != NULL);
  snprintf(z, sizeof(zFmt) + 16, zFmt, iVariant);
  return z;
}

/* Runs t_one of pMod on pPool and checks what it stored. */
static void rt_one_run(cpu_module *pMod, cpu_pool *pPool, int v) {
  int got = 0;
  struct t_one_args a = {&got, v};
  rt_launch(pPool, rt_kernel(pMod, "t_one"), 5, 0, &a);
  ASSERT_EQ(got, v);
}

static cpu_module *rt_load(const char *zSrc, const cpu_options *pOpt) {
  char zErr[4096];
  cpu_module *p;
  CALL_OK(cpu_module_load(zSrc, pOpt, &p, zErr, sizeof(zErr)));
  return p;
}

/* Returns how many entries of zDir end in zSuffix, or begin with "tmp-"
** when zSuffix is NULL. */
static int rt_dir_count(const char *zDir, const char *zSuffix) {
  DIR *d = opendir(zDir);
  struct dirent *e;
  int n = 0;
  if (d == NULL) FAIL("opendir %s: %s", zDir, strerror(errno));
  while ((e = readdir(d)) != NULL) {
    size_t nName = strlen(e->d_name);
    if (zSuffix == NULL) {
      n += strncmp(e->d_name, "tmp-", 4) == 0;
    } else if (nName >= strlen(zSuffix)) {
      n += strcmp(e->d_name + nName - strlen(zSuffix), zSuffix) == 0;
    }
  }
  closedir(d);
  return n;
}

static void rt_file_write(const char *zPath, const char *z, mode_t mode) {
  int fd = open(zPath, O_WRONLY | O_CREAT | O_TRUNC, mode);
  if (fd < 0) FAIL("open %s: %s", zPath, strerror(errno));
  ASSERT_EQ(write(fd, z, strlen(z)), (ssize_t)strlen(z));
  ASSERT_EQ(close(fd), 0);
}

/* Loads zSrc in a child process, so that this one never maps the object
** the test then damages, and returns its cache key in zHash. */
static void rt_child_load(const char *zSrc, const cpu_options *pOpt, char zHash[33]) {
  int aFd[2];
  size_t n = 0;
  pid_t pid;

  ASSERT_EQ(pipe(aFd), 0);
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  ASSERT(pid >= 0);
  if (pid == 0) {
    char zErr[4096];
    cpu_module *p;
    close(aFd[0]);
    if (cpu_module_load(zSrc, pOpt, &p, zErr, sizeof(zErr)) != 0) {
      fprintf(stderr, "child: %s\n", zErr);
      _exit(1);
    }
    if (write(aFd[1], cpu_module_info_get(p)->zHash, 32) != 32) _exit(1);
    cpu_module_free(p);
    _exit(0);
  }
  close(aFd[1]);
  while (n < 32) {
    ssize_t r = read(aFd[0], zHash + n, 32 - n);
    if (r <= 0) break;
    n += (size_t)r;
  }
  close(aFd[0]);
  ASSERT_EQ(test_wait((int)pid), 0);
  ASSERT_EQ(n, 32);
  zHash[32] = 0;
}

/* ---- hits and misses ------------------------------------------------------- */

TEST_IMPL(runtime_cpu_cache) {
  cpu_options opt = {.zCacheDir = "cache"};
  char *zSrc1 = rt_one_source(1), *zSrc2 = rt_one_source(2);
  char zHash1[33], zPath[PATH_MAX];
  cpu_pool *pPool = rt_pool(2);
  cpu_module *p, *q;
  const cpu_module_info *pInfo;

  /* First load: a miss that leaves <key>.so and <key>.c and no temps. */
  p = rt_load(zSrc1, &opt);
  pInfo = cpu_module_info_get(p);
  ASSERT_EQ(pInfo->bCacheHit, 0);
  ASSERT_STR_EQ(pInfo->zMiss, "not in the cache");
  ASSERT(pInfo->rCompileSeconds > 0);
  ASSERT(pInfo->rLoadSeconds >= pInfo->rCompileSeconds);
  ASSERT_EQ(strlen(pInfo->zHash), 32);
  memcpy(zHash1, pInfo->zHash, 33);
  snprintf(zPath, sizeof(zPath), "cache/%s.so", zHash1);
  ASSERT_STR_EQ(pInfo->zPath, zPath);
  snprintf(zPath, sizeof(zPath), "cache/%s.c", zHash1);
  ASSERT(test_file_exists(zPath));
  ASSERT_EQ(rt_dir_count("cache", ".so"), 1);
  ASSERT_EQ(rt_dir_count("cache", ".c"), 1);
  ASSERT_EQ(rt_dir_count("cache", NULL), 0);
  rt_one_run(p, pPool, 17);

  /* The same source again, while the first is still loaded: a hit. */
  q = rt_load(zSrc1, &opt);
  pInfo = cpu_module_info_get(q);
  ASSERT_EQ(pInfo->bCacheHit, 1);
  ASSERT_STR_EQ(pInfo->zMiss, "");
  ASSERT(pInfo->rCompileSeconds == 0);
  ASSERT_STR_EQ(pInfo->zHash, zHash1);
  rt_one_run(q, pPool, 18);
  cpu_module_free(q);
  rt_one_run(p, pPool, 19);
  cpu_module_free(p);

  /* And after it was unloaded: still a hit. */
  p = rt_load(zSrc1, &opt);
  ASSERT_EQ(cpu_module_info_get(p)->bCacheHit, 1);
  rt_one_run(p, pPool, 20);
  cpu_module_free(p);

  /* A source that differs only in a comment: a miss, another key. */
  p = rt_load(zSrc2, &opt);
  ASSERT_EQ(cpu_module_info_get(p)->bCacheHit, 0);
  ASSERT(strcmp(cpu_module_info_get(p)->zHash, zHash1) != 0);
  rt_one_run(p, pPool, 21);
  cpu_module_free(p);
  ASSERT_EQ(rt_dir_count("cache", ".so"), 2);

  /* Another compiler (here one that only says it is): a miss. */
  rt_file_write("fakecc",
                "#!/bin/sh\n"
                "if [ \"$1\" = --version ]; then echo 'fake cc 1.0'; exit 0; fi\n"
                "exec cc \"$@\"\n",
                0755);
  opt.zCompiler = "./fakecc";
  p = rt_load(zSrc1, &opt);
  ASSERT_EQ(cpu_module_info_get(p)->bCacheHit, 0);
  ASSERT(strcmp(cpu_module_info_get(p)->zHash, zHash1) != 0);
  rt_one_run(p, pPool, 22);
  cpu_module_free(p);
  opt.zCompiler = NULL;
  p = rt_load(zSrc1, &opt);
  ASSERT_EQ(cpu_module_info_get(p)->bCacheHit, 1);
  cpu_module_free(p);

  cpu_pool_destroy(pPool);
  free(zSrc1);
  free(zSrc2);
  return 0;
}

/* ---- damaged objects ------------------------------------------------------------ */

typedef enum rt_damage {
  RT_TRUNCATE,     /* cut to half its length */
  RT_FLIP,         /* one byte in the middle inverted */
  RT_GARBAGE,      /* replaced by a line of text */
  RT_EMPTY,        /* cut to nothing */
  RT_FOREIGN,      /* replaced by the valid object of another source */
  RT_N_DAMAGE
} rt_damage;

static void rt_damage_do(const char *zPath, rt_damage e, const char *zForeign) {
  struct stat st;
  int fd;
  unsigned char c;
  char *z;
  size_t n;

  ASSERT_EQ(stat(zPath, &st), 0);
  switch (e) {
    case RT_TRUNCATE:
      ASSERT_EQ(truncate(zPath, st.st_size / 2), 0);
      break;
    case RT_FLIP:
      fd = open(zPath, O_RDWR);
      ASSERT(fd >= 0);
      ASSERT_EQ(pread(fd, &c, 1, st.st_size / 2), 1);
      c ^= 0xff;
      ASSERT_EQ(pwrite(fd, &c, 1, st.st_size / 2), 1);
      ASSERT_EQ(close(fd), 0);
      break;
    case RT_GARBAGE:
      rt_file_write(zPath, "this is not a shared object\n", 0644);
      break;
    case RT_EMPTY:
      ASSERT_EQ(truncate(zPath, 0), 0);
      break;
    case RT_FOREIGN:
      z = test_file_read(zForeign, &n);
      fd = open(zPath, O_WRONLY | O_TRUNC);
      ASSERT(fd >= 0);
      ASSERT_EQ(write(fd, z, n), (ssize_t)n);
      ASSERT_EQ(close(fd), 0);
      free(z);
      break;
    case RT_N_DAMAGE:
      break;
  }
}

TEST_IMPL(runtime_cpu_cache_damaged) {
  static const char *const azWhy[RT_N_DAMAGE] = {
    "no trailer (truncated?)", "checksum mismatch", "not a cached object (28 bytes)",
    "not a cached object (0 bytes)", "made for another key",
  };
  cpu_options opt = {.zCacheDir = "cache"};
  char aHash[RT_N_DAMAGE + 1][33], zPath[PATH_MAX], zForeign[PATH_MAX];
  char *azSrc[RT_N_DAMAGE + 1];
  cpu_pool *pPool;

  /* Other processes fill the cache, so this one has mapped nothing when
  ** the objects are damaged (as after a crash, or a full disk). */
  for (int i = 0; i <= RT_N_DAMAGE; i++) {
    azSrc[i] = rt_one_source(100 + i);
    rt_child_load(azSrc[i], &opt, aHash[i]);
  }
  snprintf(zForeign, sizeof(zForeign), "cache/%s.so", aHash[RT_N_DAMAGE]);
  for (int i = 0; i < RT_N_DAMAGE; i++) {
    snprintf(zPath, sizeof(zPath), "cache/%s.so", aHash[i]);
    rt_damage_do(zPath, (rt_damage)i, zForeign);
  }

  pPool = rt_pool(2);
  for (int i = 0; i < RT_N_DAMAGE; i++) {
    cpu_module *p = rt_load(azSrc[i], &opt);
    const cpu_module_info *pInfo = cpu_module_info_get(p);
    ASSERT_EQ(pInfo->bCacheHit, 0);
    ASSERT_STR_EQ(pInfo->zMiss, azWhy[i]);
    ASSERT_STR_EQ(pInfo->zHash, aHash[i]);
    rt_one_run(p, pPool, 1000 + i);
    cpu_module_free(p);
    /* Rebuilt in place: the next load is a hit. */
    p = rt_load(azSrc[i], &opt);
    ASSERT_EQ(cpu_module_info_get(p)->bCacheHit, 1);
    rt_one_run(p, pPool, 2000 + i);
    cpu_module_free(p);
  }
  ASSERT_EQ(rt_dir_count("cache", NULL), 0);
  cpu_pool_destroy(pPool);
  for (int i = 0; i <= RT_N_DAMAGE; i++) free(azSrc[i]);
  return 0;
}

/* ---- errors ------------------------------------------------------------------------- */

/* Fails the test unless loading zSrc fails with a message that holds each
** of the strings of azWant (NULL-terminated). */
static void rt_load_fails(const char *zSrc, const cpu_options *pOpt,
                          const char *const *azWant) {
  char zErr[4096];
  cpu_module *p = (cpu_module *)&p;
  zErr[0] = 0;
  if (cpu_module_load(zSrc, pOpt, &p, zErr, sizeof(zErr)) == 0) FAIL("load succeeded");
  ASSERT(p == NULL);
  for (int i = 0; azWant[i] != NULL; i++) {
    if (strstr(zErr, azWant[i]) == NULL) FAIL("\"%s\" not in the error:\n%s", azWant[i], zErr);
  }
}

TEST_IMPL(runtime_cpu_errors) {
  cpu_options opt = {.zCacheDir = "cache"};
  char zErr[4096], zCwd[PATH_MAX - 64], zDir[PATH_MAX], *zBig, *zSrc = rt_one_source(7);
  cpu_module *p;
  cpu_kernel *k;

  /* A syntax error: the compiler's words, at the generated source's line. */
  rt_load_fails("struct e_args {\n  int x;\n};\n__global__ void e(const struct e_args a) {\n"
                "  int y = ;\n}\nSTARQ_CPU_ENTRY(e, struct e_args)\n",
                &opt, (const char *const[]){"compiling with cc failed (exit 1):", "query.c:5:",
                                            "error", NULL});
  /* A call of a function that exists nowhere fails at link time. */
  rt_load_fails("struct e_args {\n  int x;\n};\n__global__ void e(const struct e_args a) {\n"
                "  starq_no_such_function(a.x);\n}\nSTARQ_CPU_ENTRY(e, struct e_args)\n",
                &opt, (const char *const[]){"compiling with cc failed", "starq_no_such_function",
                                            NULL});
  /* An atomic CUDA does not have for the type fails as it would on CUDA. */
  rt_load_fails("__device__ void f(long *p) {\n  atomicAdd(p, 1l);\n}\n", &opt,
                (const char *const[]){"query.c:2:", NULL});
  /* So does one dynamic shared array declared with two types. */
  rt_load_fails("__device__ void f(void) {\n  STARQ_DYN_SHARED(float, aDyn);\n  aDyn[0] = 1;\n}\n"
                "__device__ void g(void) {\n  STARQ_DYN_SHARED(int, aDyn);\n  aDyn[0] = 1;\n}\n",
                &opt, (const char *const[]){"starq__dyn_aDyn", "query.c:6:", NULL});
  ASSERT_EQ(rt_dir_count("cache", NULL), 0);
  ASSERT_EQ(rt_dir_count("cache", ".so"), 0);

  /* Pages of errors: the message keeps the first 2 KB and says so. */
  zBig = malloc(100000);
  ASSERT(zBig != NULL);
  zBig[0] = 0;
  for (int i = 0; i < 500; i++) strcat(zBig, "int f( = ;\n");
  rt_load_fails(zBig, &opt, (const char *const[]){"query.c:1:", "[more diagnostics cut]", NULL});
  free(zBig);

  /* Kernels: missing, not exported, or not a name at all. */
  p = rt_load(zSrc, &opt);
  ASSERT_EQ(cpu_module_kernel(p, "t_none", &k, zErr, sizeof(zErr)), -1);
  ASSERT(k == NULL);
  ASSERT(strstr(zErr, "no kernel t_none in module") != NULL);
  ASSERT(strstr(zErr, "t_none__entry") != NULL);
  CALL_ERR(cpu_module_kernel(p, "a-b", &k, zErr, sizeof(zErr)),
           "\"a-b\" cannot be a kernel name");
  CALL_ERR(cpu_module_kernel(p, "", &k, zErr, sizeof(zErr)), "\"\" cannot be a kernel name");
  CALL_ERR(cpu_module_kernel(p, "9lives", &k, zErr, sizeof(zErr)),
           "\"9lives\" cannot be a kernel name");
  ASSERT(rt_kernel(p, "t_one") == rt_kernel(p, "t_one"));
  cpu_module_free(p);

  /* Compilers that are not there or do not work. */
  opt.zCompiler = "/nonexistent/cc";
  rt_load_fails(zSrc, &opt,
                (const char *const[]){"running /nonexistent/cc: No such file or directory", NULL});
  opt.zCompiler = "false";
  rt_load_fails(zSrc, &opt, (const char *const[]){"false --version failed (exit 1)", NULL});
  rt_file_write("badcc", "#!/bin/sh\n[ \"$1\" = --version ] && exit 0\nkill -9 $$\n", 0755);
  opt.zCompiler = "./badcc";
  rt_load_fails(zSrc, &opt,
                (const char *const[]){"compiling with ./badcc failed (killed by signal 9)", NULL});
  opt.zCompiler = NULL;

  /* Cache directories that cannot be. */
  rt_file_write("plainfile", "x", 0644);
  opt.zCacheDir = "plainfile/cache";
  rt_load_fails(zSrc, &opt, (const char *const[]){"mkdir plainfile/cache: Not a directory", NULL});
  opt.zCacheDir = "";
  rt_load_fails(zSrc, &opt, (const char *const[]){"an empty directory name", NULL});

  /* The default directory: XDG_CACHE_HOME if absolute, else HOME's. */
  ASSERT(getcwd(zCwd, sizeof(zCwd)) != NULL);
  snprintf(zDir, sizeof(zDir), "%s/xdg", zCwd);
  setenv("XDG_CACHE_HOME", zDir, 1);
  p = rt_load(zSrc, NULL);
  snprintf(zDir, sizeof(zDir), "%s/xdg/starq/cpu/", zCwd);
  ASSERT(strncmp(cpu_module_info_get(p)->zPath, zDir, strlen(zDir)) == 0);
  cpu_module_free(p);
  setenv("XDG_CACHE_HOME", "relative/is/ignored", 1);
  snprintf(zDir, sizeof(zDir), "%s/home", zCwd);
  setenv("HOME", zDir, 1);
  p = rt_load(zSrc, NULL);
  snprintf(zDir, sizeof(zDir), "%s/home/.cache/starq/cpu/", zCwd);
  ASSERT(strncmp(cpu_module_info_get(p)->zPath, zDir, strlen(zDir)) == 0);
  cpu_module_free(p);
  unsetenv("XDG_CACHE_HOME");
  unsetenv("HOME");
  rt_load_fails(zSrc, NULL, (const char *const[]){"no cache directory for CPU modules", NULL});

  free(zSrc);
  return 0;
}

/* ---- loads racing each other ---------------------------------------------------- */

#define RT_RACERS 3

typedef struct rt_racer rt_racer;
struct rt_racer {
  const char *zSrc;
  pthread_barrier_t *pBarrier;
  cpu_module *pMod;
  int rc;
  char zErr[4096];
};

static void *rt_racer_main(void *pArg) {
  rt_racer *r = pArg;
  cpu_options opt = {.zCacheDir = "cache"};
  pthread_barrier_wait(r->pBarrier);
  r->rc = cpu_module_load(r->zSrc, &opt, &r->pMod, r->zErr, sizeof(r->zErr));
  return NULL;
}

TEST_IMPL(runtime_cpu_cache_concurrent) {
  cpu_options opt = {.zCacheDir = "cache"};
  cpu_pool *pPool;

  /* Processes first, while this one has no threads to fork. Each round,
  ** the children wait on a pipe that the parent then closes, so they
  ** start compiling the same new source together. */
  for (int iRound = 0; iRound < 3; iRound++) {
    char *zSrc = rt_one_source(300 + iRound);
    pid_t aPid[RT_RACERS];
    int aFd[2];
    ASSERT_EQ(pipe(aFd), 0);
    fflush(stdout);
    fflush(stderr);
    for (int i = 0; i < RT_RACERS; i++) {
      aPid[i] = fork();
      ASSERT(aPid[i] >= 0);
      if (aPid[i] == 0) {
        char c, zErr[4096];
        cpu_module *p;
        cpu_pool *pChildPool;
        int got = 0;
        struct t_one_args a = {&got, 42 + i};
        cpu_kernel *k;
        close(aFd[1]);
        if (read(aFd[0], &c, 1) != 0) _exit(2);
        if (cpu_module_load(zSrc, &opt, &p, zErr, sizeof(zErr)) != 0 ||
            cpu_module_kernel(p, "t_one", &k, zErr, sizeof(zErr)) != 0 ||
            cpu_pool_create(1, &pChildPool, zErr, sizeof(zErr)) != 0 ||
            cpu_kernel_launch(pChildPool, k, 1, 0, &a, zErr, sizeof(zErr)) != 0) {
          fprintf(stderr, "child %d: %s\n", i, zErr);
          _exit(1);
        }
        _exit(got == 42 + i ? 0 : 3);
      }
    }
    close(aFd[0]);
    close(aFd[1]);
    for (int i = 0; i < RT_RACERS; i++) ASSERT_EQ(test_wait((int)aPid[i]), 0);
    ASSERT_EQ(rt_dir_count("cache", ".so"), iRound + 1);
    ASSERT_EQ(rt_dir_count("cache", NULL), 0);
    free(zSrc);
  }

  /* Then threads of one process. */
  pPool = rt_pool(2);
  for (int iRound = 0; iRound < 3; iRound++) {
    char *zSrc = rt_one_source(400 + iRound);
    rt_racer aR[RT_RACERS];
    pthread_t aThread[RT_RACERS];
    pthread_barrier_t barrier;
    ASSERT_EQ(pthread_barrier_init(&barrier, NULL, RT_RACERS), 0);
    for (int i = 0; i < RT_RACERS; i++) {
      aR[i].zSrc = zSrc;
      aR[i].pBarrier = &barrier;
      ASSERT_EQ(pthread_create(&aThread[i], NULL, rt_racer_main, &aR[i]), 0);
    }
    for (int i = 0; i < RT_RACERS; i++) ASSERT_EQ(pthread_join(aThread[i], NULL), 0);
    pthread_barrier_destroy(&barrier);
    for (int i = 0; i < RT_RACERS; i++) {
      if (aR[i].rc != 0) FAIL("racer %d: %s", i, aR[i].zErr);
      ASSERT_STR_EQ(cpu_module_info_get(aR[i].pMod)->zHash,
                    cpu_module_info_get(aR[0].pMod)->zHash);
      rt_one_run(aR[i].pMod, pPool, 500 + i);
    }
    for (int i = 0; i < RT_RACERS; i++) cpu_module_free(aR[i].pMod);
    ASSERT_EQ(rt_dir_count("cache", ".so"), 3 + iRound + 1);
    ASSERT_EQ(rt_dir_count("cache", NULL), 0);
    free(zSrc);
  }
  cpu_pool_destroy(pPool);
  return 0;
}
