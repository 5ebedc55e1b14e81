/*
** tests/test-log.c — common/log.c: the shape of a record (timestamp,
** level, thread, message, continuation lines), levels that filter, the
** names of levels, and records of many threads that never interleave.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../common/log.h"
#include "test.h"

/* Checks that zLine (up to its newline) starts with a record prefix:
** "YYYY-MM-DDTHH:MM:SS.mmmZ LEVEL [tid] ", the time within a minute of
** now, the level zLevel, the thread iTid. Returns the text after it. */
static const char *logtest_prefix(const char *zLine, const char *zLevel, long iTid) {
  struct tm tm;
  int nMs = -1, n = 0;
  long iGot = -1;
  char zLev[8];
  time_t t;
  memset(&tm, 0, sizeof(tm));
  if (sscanf(zLine, "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ %5s [%ld] %n", &tm.tm_year, &tm.tm_mon,
             &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &nMs, zLev, &iGot, &n) != 9 ||
      n == 0) {
    FAIL("not a log record: %.200s", zLine);
  }
  ASSERT(zLine[4] == '-' && zLine[10] == 'T' && zLine[19] == '.' && zLine[23] == 'Z');
  ASSERT(nMs >= 0 && nMs <= 999);
  ASSERT_STR_EQ(zLev, zLevel);
  ASSERT_EQ(iGot, iTid);
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  t = timegm(&tm);
  ASSERT_LE(labs((long)(time(NULL) - t)), 60);
  return zLine + n;
}

TEST_IMPL(log_format) {
  FILE *f = test_log_begin(LOG_LEVEL_INFO);
  long iTid = (long)syscall(SYS_gettid);
  static const struct {
    const char *zLevel, *zText;
  } aWant[] = {
    {"INFO", "hello 42 world\n"},
    {"ERROR", "two\n"},
    {"ERROR", "| lines\n"},                  /* a message's second line */
    {"WARN", "a title\n"},
    {"WARN", "| body one\n"},
    {"WARN", "| \n"},                        /* an empty body line */
    {"WARN", "| body\tthree?\n"},            /* a control character */
    {"INFO", "no body\n"},
    {"INFO", "(no message)\n"},
  };
  char *zLog, *z;

  log_printf(LOG_LEVEL_INFO, "hello %d %s", 42, "world");
  log_printf(LOG_LEVEL_ERROR, "two\nlines\n");
  log_text(LOG_LEVEL_WARN, "a title", "body one\n\nbody\tthree\x01\n");
  log_text(LOG_LEVEL_INFO, "no body", NULL);
  log_printf(LOG_LEVEL_INFO, "%s", "");
  zLog = test_log_end(f);
  z = zLog;

  /* Each line: its level and what follows the prefix. */
  for (size_t i = 0; i < sizeof(aWant) / sizeof(aWant[0]); i++) {
    const char *zRest = logtest_prefix(z, aWant[i].zLevel, iTid);
    size_t n = strlen(aWant[i].zText);
    if (strncmp(zRest, aWant[i].zText, n) != 0) FAIL("line %zu: %.80s", i, zRest);
    z = strchr(z, '\n') + 1;
  }
  ASSERT(strncmp(zLog + 24, " INFO  [", 8) == 0);         /* the level padded to 5 */
  ASSERT_EQ(*z, 0);
  free(zLog);
  return 0;
}

TEST_IMPL(log_levels) {
  FILE *f;
  char *zLog;

  ASSERT_EQ(log_level_parse("debug"), LOG_LEVEL_DEBUG);
  ASSERT_EQ(log_level_parse("INFO"), LOG_LEVEL_INFO);
  ASSERT_EQ(log_level_parse("warn"), LOG_LEVEL_WARN);
  ASSERT_EQ(log_level_parse("Warning"), LOG_LEVEL_WARN);
  ASSERT_EQ(log_level_parse("error"), LOG_LEVEL_ERROR);
  ASSERT_EQ(log_level_parse("fatal"), -1);
  ASSERT_EQ(log_level_parse(""), -1);
  ASSERT_EQ(log_level_parse(NULL), -1);
  ASSERT_STR_EQ(log_level_name(LOG_LEVEL_WARN), "WARN");
  ASSERT_STR_EQ(log_level_name(7), "?");

  /* INFO by default: DEBUG is dropped. */
  ASSERT_EQ(log_level_get(), LOG_LEVEL_INFO);
  ASSERT(!log_level_enabled(LOG_LEVEL_DEBUG));
  ASSERT(log_level_enabled(LOG_LEVEL_INFO));

  f = test_log_begin(LOG_LEVEL_INFO);
  log_printf(LOG_LEVEL_DEBUG, "d1");
  log_printf(LOG_LEVEL_INFO, "i1");
  log_set_level(LOG_LEVEL_WARN);
  log_printf(LOG_LEVEL_INFO, "i2");
  log_text(LOG_LEVEL_INFO, "i3", "body");
  log_printf(LOG_LEVEL_WARN, "w1");
  log_text(LOG_LEVEL_ERROR, "e1", "body");
  log_set_level(LOG_LEVEL_DEBUG);
  log_printf(LOG_LEVEL_DEBUG, "d2");
  log_set_level(99);                          /* clamped to ERROR */
  ASSERT_EQ(log_level_get(), LOG_LEVEL_ERROR);
  log_printf(LOG_LEVEL_WARN, "w2");
  log_set_level(-5);
  ASSERT_EQ(log_level_get(), LOG_LEVEL_DEBUG);
  zLog = test_log_end(f);

  ASSERT(strstr(zLog, "] d1\n") == NULL);
  ASSERT(strstr(zLog, "] i1\n") != NULL);
  ASSERT(strstr(zLog, "] i2\n") == NULL);
  ASSERT(strstr(zLog, "] i3\n") == NULL);
  ASSERT(strstr(zLog, "] w1\n") != NULL);
  ASSERT(strstr(zLog, "] e1\n") != NULL);
  ASSERT(strstr(zLog, " DEBUG [") != NULL && strstr(zLog, "] d2\n") != NULL);
  ASSERT(strstr(zLog, "] w2\n") == NULL);
  free(zLog);
  return 0;
}

/* ---- threads ------------------------------------------------------------------ */

#define LOGTEST_THREADS 8
#define LOGTEST_RECORDS 200
#define LOGTEST_LINES 5

static void *logtest_writer(void *p) {
  int iThread = (int)(intptr_t)p;
  char zBody[512];
  size_t n = 0;
  for (int i = 0; i < LOGTEST_RECORDS; i++) {
    n = 0;
    for (int j = 0; j < LOGTEST_LINES; j++) {
      n += (size_t)snprintf(zBody + n, sizeof(zBody) - n, "t%d r%d line %d of a longer body so "
                            "that a record spans many bytes\n", iThread, i, j);
    }
    log_text(LOG_LEVEL_INFO, "title", zBody);
  }
  return NULL;
}

/* Eight threads log multi-line records at once; every record's lines come
** together and in order, with the writer's own thread id on each. */
TEST_IMPL(log_threads) {
  FILE *f = test_log_begin(LOG_LEVEL_INFO);
  pthread_t aT[LOGTEST_THREADS];
  long aTid[LOGTEST_THREADS];
  int aNext[LOGTEST_THREADS] = {0}, nLine = 0;
  char *zLog, *z;

  for (int i = 0; i < LOGTEST_THREADS; i++) {
    ASSERT(pthread_create(&aT[i], NULL, logtest_writer, (void *)(intptr_t)i) == 0);
  }
  for (int i = 0; i < LOGTEST_THREADS; i++) ASSERT(pthread_join(aT[i], NULL) == 0);
  zLog = test_log_end(f);

  for (int i = 0; i < LOGTEST_THREADS; i++) aTid[i] = -1;
  for (z = zLog; *z != 0;) {
    char *zTitle = strstr(z, "] title\n");
    long iTid;
    int iThread = -1, iRec = -1;
    ASSERT(zTitle != NULL && strchr(z, '\n') == zTitle + 7);
    ASSERT(sscanf(strstr(z, " ["), " [%ld]", &iTid) == 1);
    z = zTitle + 8;
    for (int j = 0; j < LOGTEST_LINES; j++) {
      int t, r, l;
      const char *zBody = strstr(z, "] | t");
      ASSERT(zBody != NULL && zBody < strchr(z, '\n'));
      ASSERT(sscanf(zBody, "] | t%d r%d line %d ", &t, &r, &l) == 3);
      if (j == 0) {
        iThread = t;
        iRec = r;
        ASSERT(t >= 0 && t < LOGTEST_THREADS);
        if (aTid[t] == -1) aTid[t] = iTid;
        ASSERT_EQ(aTid[t], iTid);
        ASSERT_EQ(r, aNext[t]);                 /* a thread's records in order */
        aNext[t]++;
      }
      ASSERT_EQ(t, iThread);
      ASSERT_EQ(r, iRec);
      ASSERT_EQ(l, j);
      ASSERT(sscanf(strstr(z, " ["), " [%ld]", &iTid) == 1 && iTid == aTid[t]);
      z = strchr(z, '\n') + 1;
      nLine++;
    }
  }
  for (int i = 0; i < LOGTEST_THREADS; i++) ASSERT_EQ(aNext[i], LOGTEST_RECORDS);
  ASSERT_EQ(nLine, LOGTEST_THREADS * LOGTEST_RECORDS * LOGTEST_LINES);
  free(zLog);
  return 0;
}
