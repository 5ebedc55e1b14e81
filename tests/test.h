/*
** tests/test.h — what a test file needs: the TEST_IMPL macro, plain
** assertions, and helpers to run the project's binaries and look at files.
**
** Every test runs in a child process of its own (see runner.c) with its
** current directory set to a fresh, empty scratch directory that the runner
** removes afterwards. A failed assertion prints where and why, then aborts
** the child; the runner reports it and goes on with the next test. Tests are
** listed in test-list.h, nowhere else.
*/
#ifndef STARQ_TEST_H
#define STARQ_TEST_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_IMPL(name) int test_##name(void); int test_##name(void)

#define ASSERT(expr)                                                         \
  do {                                                                       \
    if (!(expr)) {                                                           \
      fprintf(stderr, "%s:%d: assertion failed: %s\n", __FILE__, __LINE__,   \
              #expr);                                                        \
      abort();                                                               \
    }                                                                        \
  } while (0)

/* Integer comparison that prints both sides when it fails. */
#define ASSERT_INT(a, op, b)                                                 \
  do {                                                                       \
    int64_t test__a = (int64_t)(a), test__b = (int64_t)(b);                  \
    if (!(test__a op test__b)) {                                             \
      fprintf(stderr, "%s:%d: assertion failed: %s %s %s (%" PRId64          \
              " %s %" PRId64 ")\n", __FILE__, __LINE__, #a, #op, #b,         \
              test__a, #op, test__b);                                        \
      abort();                                                               \
    }                                                                        \
  } while (0)
#define ASSERT_EQ(a, b) ASSERT_INT(a, ==, b)
#define ASSERT_NE(a, b) ASSERT_INT(a, !=, b)
#define ASSERT_LT(a, b) ASSERT_INT(a, <, b)
#define ASSERT_LE(a, b) ASSERT_INT(a, <=, b)
#define ASSERT_GT(a, b) ASSERT_INT(a, >, b)
#define ASSERT_GE(a, b) ASSERT_INT(a, >=, b)

#define ASSERT_STR_EQ(a, b)                                                  \
  do {                                                                       \
    const char *test__a = (a), *test__b = (b);                               \
    if (strcmp(test__a, test__b) != 0) {                                     \
      fprintf(stderr, "%s:%d: assertion failed: %s == %s (\"%s\" vs \"%s\")\n",\
              __FILE__, __LINE__, #a, #b, test__a, test__b);                 \
      abort();                                                               \
    }                                                                        \
  } while (0)

/* Fails the test with a printf-style message. */
#define FAIL(...)                                                            \
  do {                                                                       \
    fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                          \
    fprintf(stderr, __VA_ARGS__);                                            \
    fputc('\n', stderr);                                                     \
    abort();                                                                 \
  } while (0)

/* For calls that return 0, or -1 with a message in a caller's buffer: the
** test declares char zErr[...] and passes it to the call. CALL_OK fails
** the test with the message; CALL_ERR requires exactly the message zWant. */
#define CALL_OK(call)                                                        \
  do {                                                                       \
    zErr[0] = 0;                                                             \
    if ((call) != 0) FAIL("%s: %s", #call, zErr);                            \
  } while (0)

#define CALL_ERR(call, zWant)                                                \
  do {                                                                       \
    zErr[0] = 0;                                                             \
    if ((call) == 0) FAIL("%s succeeded; expected: %s", #call, zWant);       \
    ASSERT_STR_EQ(zErr, zWant);                                              \
  } while (0)

/* The outcome of running one program: its exit status and what it printed.
** zOut and zErr are owned by the struct and freed by test_proc_free(). */
typedef struct test_proc test_proc;
struct test_proc {
  int rc;            /* exit code, or 128+signal if it was killed */
  char *zOut;        /* everything written to stdout, NUL-terminated */
  char *zErr;        /* everything written to stderr, NUL-terminated */
};

/* Returns the path of a binary built by this tree ("starq-gen"), from the
** directory the runner was told about (STARQ_BIN). The string is static. */
const char *test_bin(const char *zName);

/* Returns the path of a file of the source tree ("tests/data/x"), from
** STARQ_SRC (the runner sets it). The string is static. */
const char *test_src(const char *zRel);

/* Runs argv (argv[0] is a name for test_bin) to completion with stdin from
** /dev/null, capturing stdout and stderr. Returns the exit code. */
int test_run(test_proc *p, const char *const *argv);
void test_proc_free(test_proc *p);

/* Runs argv like test_run() and fails the test, with the program's output,
** unless it exits 0. */
void test_run_ok(const char *const *argv);

/* Starts argv like test_run() but does not wait: output goes to /dev/null.
** Returns the child's pid. */
int test_spawn(const char *const *argv);

/* Waits for a child started by test_spawn(); returns its exit code, or
** 128+signal if a signal ended it. */
int test_wait(int pid);

/* Returns 1 if process pid is gone, or a zombie nobody has reaped yet
** (its parent killed too): for tests that a process did not outlive
** another. */
int test_pid_gone(int pid);

/* Reads a whole file into a NUL-terminated malloc'd buffer; *pn gets its
** size. Fails the test if the file cannot be read. */
char *test_file_read(const char *zPath, size_t *pn);
int test_file_exists(const char *zPath);

/* Reads one integer from a query on the SQLite file zPath (opened read-only,
** apart from any catalog handle). Fails the test on any error or no row. */
int64_t test_sql_int(const char *zPath, const char *zSql);

/* Runs SQL on the SQLite file zPath, creating it if need be: to make files
** that starq did not write. Fails the test on any error. */
void test_sql_exec(const char *zPath, const char *zSql);

/* Sends the process's log (common/log.h) to ./log.txt at level eLevel.
** Returns the file, for test_log_end(). */
FILE *test_log_begin(int eLevel);

/* Puts the log back on stderr at INFO, closes f and returns what was
** logged (malloc'd). */
char *test_log_end(FILE *f);

#endif /* STARQ_TEST_H */
