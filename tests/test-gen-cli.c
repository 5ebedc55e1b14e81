/*
** tests/test-gen-cli.c — starq-gen as a user meets it: bad flags, output
** that does not depend on the thread count, and interrupted runs.
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

static const char *const gen_azFile[] = {
  "date.tbl", "supplier.tbl", "customer.tbl", "part.tbl", "lineorder.tbl",
};
#define GEN_FILE_COUNT 5

/* Returns the number of entries in zDir, other than . and .. */
static int gen_dir_count(const char *zDir) {
  DIR *d = opendir(zDir);
  struct dirent *e;
  int n = 0;
  if (d == NULL) return 0;
  while ((e = readdir(d)) != NULL) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  closedir(d);
  return n;
}

/* Fails unless every file of dir A is byte-identical to the one in dir B. */
static void gen_dirs_same(const char *zA, const char *zB) {
  for (int i = 0; i < GEN_FILE_COUNT; i++) {
    char zPa[256], zPb[256];
    size_t na, nb;
    char *a, *b;
    snprintf(zPa, sizeof(zPa), "%s/%s", zA, gen_azFile[i]);
    snprintf(zPb, sizeof(zPb), "%s/%s", zB, gen_azFile[i]);
    a = test_file_read(zPa, &na);
    b = test_file_read(zPb, &nb);
    if (na != nb || memcmp(a, b, na) != 0) FAIL("%s and %s differ", zPa, zPb);
    free(a);
    free(b);
  }
}

typedef struct gen_bad gen_bad;
struct gen_bad {
  const char *azArg[8];     /* arguments after argv[0], NULL-terminated */
  const char *zExpect;      /* a phrase the error message must contain */
};

TEST_IMPL(gen_flags_bad) {
  static const gen_bad aCase[] = {
    {{NULL}, "--sf is required"},
    {{"--out", "d", NULL}, "--sf is required"},
    {{"--sf", "1", NULL}, "--out is required"},
    {{"--sf", NULL}, "--sf needs a value"},
    {{"--sf", "0.001", "--out", "d", NULL}, "not \"0.001\""},
    {{"--sf", "abc", "--out", "d", NULL}, "not \"abc\""},
    {{"--sf", "1x", "--out", "d", NULL}, "not \"1x\""},
    {{"--sf", "", "--out", "d", NULL}, "not \"\""},
    {{"--sf", "nan", "--out", "d", NULL}, "not \"nan\""},
    {{"--sf", "inf", "--out", "d", NULL}, "not \"inf\""},
    {{"--sf", "-1", "--out", "d", NULL}, "not \"-1\""},
    {{"--sf", "1e9", "--out", "d", NULL}, "not \"1e9\""},
    {{"--sf", "1", "--out", "d", "--threads", "0", NULL}, "--threads must be"},
    {{"--sf", "1", "--out", "d", "--threads", "-2", NULL}, "--threads must be"},
    {{"--sf", "1", "--out", "d", "--threads", "1025", NULL}, "--threads must be"},
    {{"--sf", "1", "--out", "d", "--threads", "two", NULL}, "--threads must be"},
    {{"--sf", "1", "--out", "d", "--seed", "-1", NULL}, "--seed must be"},
    {{"--sf", "1", "--out", "d", "--seed", "99999999999999999999", NULL}, "--seed must be"},
    {{"--sf", "1", "--out", "d", "--format", "csv", NULL}, "unknown --format \"csv\""},
    {{"--sf", "1", "--out", "d", "--compress", "fast", NULL},
     "unknown --compress \"fast\" (expected auto or off)"},
    {{"--sf", "1", "--out", "d", "--compress", NULL}, "--compress needs a value"},
    {{"--sf", "1", "--out", "d", "--bogus", NULL}, "unknown option \"--bogus\""},
    {{"--sf", "1", "--out", "d", "extra", NULL}, "unexpected argument \"extra\""},
  };
  for (size_t i = 0; i < sizeof(aCase) / sizeof(aCase[0]); i++) {
    const char *azArgv[10] = {"starq-gen"};
    test_proc p;
    for (int j = 0; aCase[i].azArg[j] != NULL; j++) azArgv[j + 1] = aCase[i].azArg[j];
    test_run(&p, azArgv);
    if (p.rc != 2 || strstr(p.zErr, aCase[i].zExpect) == NULL || strstr(p.zErr, "usage:") == NULL) {
      FAIL("case %zu: exit %d, stderr:\n%s\nwanted exit 2, usage and \"%s\"", i, p.rc,
           p.zErr, aCase[i].zExpect);
    }
    test_proc_free(&p);
    ASSERT_EQ(gen_dir_count("."), 0);     /* a refused run writes nothing */
  }

  /* --help is not an error. */
  {
    const char *azArgv[] = {"starq-gen", "--help", NULL};
    test_proc p;
    ASSERT_EQ(test_run(&p, azArgv), 0);
    ASSERT(strstr(p.zOut, "usage: starq-gen") != NULL);
    test_proc_free(&p);
  }

  /* An output directory that cannot be made fails cleanly, exit 1. */
  {
    const char *azArgv[] = {"starq-gen", "--sf", "0.01", "--out", "file/sub", "--quiet", NULL};
    FILE *f = fopen("file", "w");
    test_proc p;
    ASSERT(f != NULL);
    fclose(f);
    ASSERT_EQ(test_run(&p, azArgv), 1);
    ASSERT(strstr(p.zErr, "mkdir file/sub") != NULL);
    test_proc_free(&p);
  }
  {
    const char *azArgv[] = {"starq-gen", "--sf", "0.01", "--out", "file/sub", "--format",
                            "store", "--quiet", NULL};
    test_proc p;
    ASSERT_EQ(test_run(&p, azArgv), 1);
    ASSERT(strstr(p.zErr, "mkdir file/sub: Not a directory") != NULL);
    test_proc_free(&p);
  }
  return 0;
}

static void gen_run(const char *zOut, const char *zThreads, const char *zSeed) {
  const char *azArgv[] = {"starq-gen", "--sf", "0.05", "--out", zOut, "--threads",
                          zThreads, "--seed", zSeed, "--quiet", NULL};
  test_proc p;
  if (test_run(&p, azArgv) != 0) FAIL("starq-gen failed (%d): %s", p.rc, p.zErr);
  ASSERT_EQ(strlen(p.zOut), 0);   /* --quiet */
  test_proc_free(&p);
}

TEST_IMPL(gen_deterministic) {
  gen_run("t1", "1", "7");
  gen_run("t2", "2", "7");
  gen_run("t7", "7", "7");
  gen_dirs_same("t1", "t2");
  gen_dirs_same("t1", "t7");

  /* Running again over finished files replaces them with the same bytes. */
  gen_run("t2", "3", "7");
  gen_dirs_same("t1", "t2");
  ASSERT_EQ(gen_dir_count("t2"), GEN_FILE_COUNT);

  /* Another seed gives other data. */
  gen_run("s8", "2", "8");
  {
    size_t na, nb;
    char *a = test_file_read("t1/lineorder.tbl", &na);
    char *b = test_file_read("s8/lineorder.tbl", &nb);
    ASSERT(na != nb || memcmp(a, b, na) != 0);
    free(a);
    free(b);
  }
  return 0;
}

/* Starts a large run into zDir, waits until lineorder.tbl.tmp has data, and
** sends sig. Returns the exit code the generator died with. */
static int gen_interrupt(const char *zDir, int sig) {
  const char *azArgv[] = {"starq-gen", "--sf", "2", "--out", zDir, "--threads", "2", NULL};
  char zTmp[256];
  struct stat st;
  int pid = test_spawn(azArgv);

  snprintf(zTmp, sizeof(zTmp), "%s/lineorder.tbl.tmp", zDir);
  for (int i = 0; i < 60000; i++) {
    if (stat(zTmp, &st) == 0 && st.st_size > 0) break;
    usleep(1000);
  }
  if (stat(zTmp, &st) != 0 || st.st_size == 0) FAIL("lineorder.tbl.tmp never grew");
  kill(pid, sig);
  return test_wait(pid);
}

TEST_IMPL(gen_interrupted) {
  size_t nOld, nNow;
  char *zOld, *zNow;

  /* A finished small run first: its lineorder.tbl must survive a killed
  ** run into the same directory, whole. */
  gen_run("d", "2", "1");
  zOld = test_file_read("d/lineorder.tbl", &nOld);

  /* kill -9: no chance to clean up, so the partial file stays, but only
  ** under its temporary name. */
  ASSERT_EQ(gen_interrupt("d", SIGKILL), 128 + SIGKILL);
  ASSERT(test_file_exists("d/lineorder.tbl.tmp"));
  zNow = test_file_read("d/lineorder.tbl", &nNow);
  ASSERT(nNow == nOld && memcmp(zNow, zOld, nOld) == 0);
  free(zNow);

  /* Ctrl-C: the generator removes its temporary file and dies of SIGINT.
  ** (The stale one goes first, so the wait below sees the new run's.) */
  ASSERT_EQ(unlink("d/lineorder.tbl.tmp"), 0);
  ASSERT_EQ(gen_interrupt("d", SIGINT), 128 + SIGINT);
  ASSERT(!test_file_exists("d/lineorder.tbl.tmp"));
  zNow = test_file_read("d/lineorder.tbl", &nNow);
  ASSERT(nNow == nOld && memcmp(zNow, zOld, nOld) == 0);
  free(zNow);
  free(zOld);
  return 0;
}
