/*
** common/log.c — the log of log.h: the level, the sink, and records
** formatted whole and written under one mutex.
**
** Why format first and lock only for the write: formatting (vsnprintf, a
** long body) is the slow part and needs no shared state, so threads that
** log at once wait for each other's fwrite, never for each other's
** formatting. Why a mutex and not one write(2): the sink is a FILE (tests
** hand in a tmpfile), and a FILE's buffer is not shared safely between
** threads writing pieces of one record; under the mutex one fwrite and one
** fflush put each record in the file whole.
**
** Nothing here allocates while holding the mutex, and a record that cannot
** be formatted for lack of memory is written as a fixed line saying so,
** rather than lost without a trace.
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "strbuf.h"

static atomic_int eLogLevel = LOG_LEVEL_INFO;
static pthread_mutex_t logMutex = PTHREAD_MUTEX_INITIALIZER;
static FILE *pLogSink;           /* NULL: stderr; guarded by logMutex */

static const char *const azLevel[] = {"DEBUG", "INFO", "WARN", "ERROR"};

void log_set_level(int eLevel) {
  if (eLevel < LOG_LEVEL_DEBUG) eLevel = LOG_LEVEL_DEBUG;
  if (eLevel > LOG_LEVEL_ERROR) eLevel = LOG_LEVEL_ERROR;
  atomic_store(&eLogLevel, eLevel);
}

int log_level_get(void) {
  return atomic_load(&eLogLevel);
}

int log_level_enabled(int eLevel) {
  return eLevel >= atomic_load(&eLogLevel);
}

int log_level_parse(const char *z) {
  if (z == NULL) return -1;
  for (int i = LOG_LEVEL_DEBUG; i <= LOG_LEVEL_ERROR; i++) {
    if (strcasecmp(z, azLevel[i]) == 0) return i;
  }
  if (strcasecmp(z, "warning") == 0) return LOG_LEVEL_WARN;
  return -1;
}

const char *log_level_name(int eLevel) {
  return eLevel >= LOG_LEVEL_DEBUG && eLevel <= LOG_LEVEL_ERROR ? azLevel[eLevel] : "?";
}

void log_set_sink(FILE *f) {
  pthread_mutex_lock(&logMutex);
  pLogSink = f;
  pthread_mutex_unlock(&logMutex);
}

/* ---- formatting ------------------------------------------------------------ */

/* The kernel's id of the calling thread, cached: one system call a thread. */
static long log_thread_id(void) {
  static _Thread_local long iTid;
  if (iTid == 0) iTid = (long)syscall(SYS_gettid);
  return iTid;
}

/* Writes the prefix every line of a record starts with into zOut:
** "2025-06-01T12:34:56.789Z INFO  [4242] ". */
static void log_prefix(int eLevel, char *zOut, size_t nOut) {
  struct timespec ts;
  struct tm tm;
  char zTime[32];
  clock_gettime(CLOCK_REALTIME, &ts);
  gmtime_r(&ts.tv_sec, &tm);
  strftime(zTime, sizeof(zTime), "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf(zOut, nOut, "%s.%03dZ %-5s [%ld] ", zTime, (int)(ts.tv_nsec / 1000000),
           log_level_name(eLevel), log_thread_id());
}

/* Appends the lines of z to s, each after zPrefix and, unless it is the
** record's first line (*pbFirst), a "| " marker. Control characters but
** tab become '?'. A trailing newline ends the last line; it does not make
** an empty one. */
static void log_lines(strbuf *s, const char *zPrefix, const char *z, int *pbFirst) {
  while (*z != 0) {
    const char *zEnd = strchr(z, '\n');
    size_t n = zEnd != NULL ? (size_t)(zEnd - z) : strlen(z);
    strbuf_puts(s, zPrefix);
    if (!*pbFirst) strbuf_append(s, "| ", 2);
    *pbFirst = 0;
    for (size_t i = 0; i < n; i++) {
      unsigned char c = (unsigned char)z[i];
      char ch = (c < 0x20 && c != '\t') || c == 0x7f ? '?' : (char)c;
      strbuf_append(s, &ch, 1);
    }
    strbuf_append(s, "\n", 1);
    z += n;
    if (*z == '\n') z++;
  }
}

/* Writes the record of zHead (its first line, then continuation lines)
** and zBody (continuation lines), both may be NULL. */
static void log_write(int eLevel, const char *zHead, const char *zBody) {
  char zPrefix[96];
  int bFirst = 1;
  strbuf s;
  FILE *f;
  log_prefix(eLevel, zPrefix, sizeof(zPrefix));
  strbuf_init(&s);
  log_lines(&s, zPrefix, zHead != NULL && zHead[0] != 0 ? zHead : "(no message)", &bFirst);
  if (zBody != NULL) log_lines(&s, zPrefix, zBody, &bFirst);
  pthread_mutex_lock(&logMutex);
  f = pLogSink != NULL ? pLogSink : stderr;
  if (strbuf_error(&s)) {
    fprintf(f, "%sout of memory formatting a log record\n", zPrefix);
  } else {
    fwrite(strbuf_str(&s), 1, s.n, f);
  }
  fflush(f);
  pthread_mutex_unlock(&logMutex);
  strbuf_free(&s);
}

void log_vprintf(int eLevel, const char *zFmt, va_list ap) {
  strbuf s;
  if (!log_level_enabled(eLevel)) return;
  strbuf_init(&s);
  strbuf_vprintf(&s, zFmt, ap);
  log_write(eLevel, strbuf_error(&s) ? "out of memory formatting a log record" : strbuf_str(&s),
            NULL);
  strbuf_free(&s);
}

void log_printf(int eLevel, const char *zFmt, ...) {
  va_list ap;
  va_start(ap, zFmt);
  log_vprintf(eLevel, zFmt, ap);
  va_end(ap);
}

void log_text(int eLevel, const char *zTitle, const char *zBody) {
  if (!log_level_enabled(eLevel)) return;
  log_write(eLevel, zTitle, zBody);
}
