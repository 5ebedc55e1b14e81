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

#include "json.h"
#include "log.h"
#include "strbuf.h"

static atomic_int eLogLevel = LOG_LEVEL_INFO;
static pthread_mutex_t logMutex = PTHREAD_MUTEX_INITIALIZER;
static FILE *pLogSink;           /* NULL: stderr; guarded by logMutex */

static atomic_int eLogFormat = LOG_FORMAT_TEXT;

static const char *const azLevel[] = {"DEBUG", "INFO", "WARN", "ERROR", "LOG"};

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
  return eLevel >= LOG_LEVEL_DEBUG && eLevel <= LOG_LEVEL_LOG ? azLevel[eLevel] : "?";
}

void log_set_format(int eFormat) {
  atomic_store(&eLogFormat, eFormat == LOG_FORMAT_JSON ? LOG_FORMAT_JSON : LOG_FORMAT_TEXT);
}

int log_format_get(void) {
  return atomic_load(&eLogFormat);
}

int log_format_parse(const char *z) {
  if (z != NULL && strcasecmp(z, "text") == 0) return LOG_FORMAT_TEXT;
  if (z != NULL && strcasecmp(z, "json") == 0) return LOG_FORMAT_JSON;
  return -1;
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

/* Appends the JSON object of one record, and a newline, to s. */
static void log_json(strbuf *s, int eLevel, const log_session *p, const char *zHead,
                     const char *zBody) {
  struct timespec ts;
  struct tm tm;
  char zTime[48];
  json_writer w;
  clock_gettime(CLOCK_REALTIME, &ts);
  gmtime_r(&ts.tv_sec, &tm);
  strftime(zTime, sizeof(zTime), "%Y-%m-%d %H:%M:%S", &tm);
  snprintf(zTime + strlen(zTime), sizeof(zTime) - strlen(zTime), ".%03d UTC",
           (int)(ts.tv_nsec / 1000000));
  json_init(&w, s);
  json_object_begin(&w);
  json_field_string(&w, "timestamp", zTime);
  json_field_int(&w, "pid", log_thread_id());
  json_field_string(&w, "error_severity", log_level_name(eLevel));
  if (p != NULL) {
    if (p->iSession != 0) json_field_int(&w, "session_id", p->iSession);
    if (p->zUser != NULL) json_field_string(&w, "user", p->zUser);
    if (p->zDb != NULL) json_field_string(&w, "dbname", p->zDb);
    if (p->zHost != NULL) json_field_string(&w, "remote_host", p->zHost);
    if (p->iPort != 0) json_field_int(&w, "remote_port", p->iPort);
    if (p->zState != NULL) json_field_string(&w, "state_code", p->zState);
    if (p->msDuration >= 0) json_field_double(&w, "duration_ms", p->msDuration);
  }
  json_field_string(&w, "message", zHead != NULL && zHead[0] != 0 ? zHead : "(no message)");
  if (zBody != NULL && zBody[0] != 0) json_field_string(&w, "detail", zBody);
  if (p != NULL && p->zStatement != NULL) json_field_string(&w, "statement", p->zStatement);
  json_object_end(&w);
  strbuf_append(s, "\n", 1);
}

/* The text prefix of a session's record: "[s1234 alice@starq 10.0.0.5:51234] ". */
static void log_session_prefix(strbuf *s, const log_session *p) {
  strbuf_puts(s, "[");
  if (p->iSession != 0) strbuf_printf(s, "s%ld", p->iSession);
  if (p->zUser != NULL) {
    strbuf_printf(s, " %s@%s", p->zUser, p->zDb != NULL ? p->zDb : p->zUser);
  }
  if (p->zHost != NULL) strbuf_printf(s, p->iPort != 0 ? " %s:%d" : " %s", p->zHost, p->iPort);
  strbuf_puts(s, "] ");
}

/* Writes the record of zHead (its first line, then continuation lines)
** and zBody (continuation lines), both may be NULL; p (may be NULL) says
** which session it is about. */
static void log_write_session(int eLevel, const log_session *p, const char *zHead,
                              const char *zBody) {
  char zPrefix[96];
  int bFirst = 1;
  strbuf s;
  FILE *f;
  strbuf_init(&s);
  if (atomic_load(&eLogFormat) == LOG_FORMAT_JSON) {
    log_json(&s, eLevel, p, zHead, zBody);
    snprintf(zPrefix, sizeof(zPrefix), "{\"error_severity\":\"%s\",\"message\":",
             log_level_name(eLevel));
  } else {
    log_prefix(eLevel, zPrefix, sizeof(zPrefix));
    log_lines(&s, zPrefix, zHead != NULL && zHead[0] != 0 ? zHead : "(no message)", &bFirst);
    if (zBody != NULL) log_lines(&s, zPrefix, zBody, &bFirst);
  }
  pthread_mutex_lock(&logMutex);
  f = pLogSink != NULL ? pLogSink : stderr;
  if (strbuf_error(&s)) {
    fprintf(f, "%s%sout of memory formatting a log record%s\n", zPrefix,
            atomic_load(&eLogFormat) == LOG_FORMAT_JSON ? "\"" : "",
            atomic_load(&eLogFormat) == LOG_FORMAT_JSON ? "\"}" : "");
  } else {
    fwrite(strbuf_str(&s), 1, s.n, f);
  }
  fflush(f);
  pthread_mutex_unlock(&logMutex);
  strbuf_free(&s);
}

static void log_write(int eLevel, const char *zHead, const char *zBody) {
  log_write_session(eLevel, NULL, zHead, zBody);
}

void log_session_printf(int eLevel, const log_session *p, const char *zFmt, ...) {
  va_list ap;
  strbuf s;
  if (!log_level_enabled(eLevel)) return;
  strbuf_init(&s);
  if (atomic_load(&eLogFormat) == LOG_FORMAT_TEXT && p != NULL) log_session_prefix(&s, p);
  va_start(ap, zFmt);
  strbuf_vprintf(&s, zFmt, ap);
  va_end(ap);
  /* In text the statement is a continuation line "STATEMENT: ...". */
  if (atomic_load(&eLogFormat) == LOG_FORMAT_TEXT && p != NULL && p->zStatement != NULL) {
    strbuf b;
    strbuf_init(&b);
    strbuf_printf(&b, "STATEMENT: %s", p->zStatement);
    log_write_session(eLevel, p, strbuf_error(&s) ? "out of memory formatting a log record"
                                                   : strbuf_str(&s),
                      strbuf_error(&b) ? NULL : strbuf_str(&b));
    strbuf_free(&b);
  } else {
    log_write_session(eLevel, p, strbuf_error(&s) ? "out of memory formatting a log record"
                                                   : strbuf_str(&s), NULL);
  }
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
