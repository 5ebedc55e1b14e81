/*
** common/log.h — the process's log: what the server and the backends did
** and what went wrong, as records an operator can grep, one line of text
** (or several, for a multi-line body) per record.
**
** A record reads
**
**   2025-06-01T12:34:56.789Z INFO  [4242] cuda: device 0 is NVIDIA H100 ...
**   2025-06-01T12:34:56.790Z ERROR [4242] cuda: NVRTC could not compile ...
**   2025-06-01T12:34:56.790Z ERROR [4242] | query.cu(12): error: ...
**
** an ISO-8601 UTC timestamp with milliseconds, the level padded to five
** characters, the kernel's id of the thread that logged it (what top and
** gdb show), and the message. Every further line of the record — a
** message with newlines in it, or each line of log_text()'s body — carries
** the same prefix and then "| ", so each line of the file says which
** record it belongs to and that it continues one. Control characters
** other than tab are written as '?': a line of the log is always one line.
**
** Records below the level (log_set_level; INFO to begin with) cost one
** atomic load. A record is formatted whole, then written with one fwrite
** and flushed under a mutex, so records of concurrent threads never
** interleave and a crash loses nothing already logged.
**
** The levels are LOG_LEVEL_*, not LOG_*: <syslog.h> defines LOG_INFO and
** LOG_DEBUG as macros, and a file that includes both must still compile.
** LOG_LEVEL_LOG is PostgreSQL's LOG: records an operator asked for by a
** setting of their own (connections, statement durations), written
** whatever the level is.
**
** Two formats (log_set_format): the text above, or one JSON object a line
** with PostgreSQL's jsonlog keys — timestamp, pid (the thread's), level
** ("error_severity"), message, and for records about a session
** (log_session_printf) session_id, user, dbname, remote_host,
** remote_port, state_code, statement and duration_ms where known —, for
** log shippers. A session's record in text carries the same facts in a
** prefix: "[s1234 alice@starq 10.0.0.5:51234] ".
**
** INTERFACE ROUTINES
**   log_set_level, log_level_get, log_level_enabled, log_level_parse,
**   log_level_name, log_set_sink, log_printf, log_vprintf, log_text,
**   log_set_format, log_format_get, log_format_parse, log_session_printf
*/
#ifndef STARQ_LOG_H
#define STARQ_LOG_H

#include <stdarg.h>
#include <stdio.h>

#define LOG_LEVEL_DEBUG 0      /* what an engineer chasing a problem wants */
#define LOG_LEVEL_INFO 1       /* what the process did: opened, rebuilt, listening */
#define LOG_LEVEL_WARN 2       /* degraded but working: no cache, a fallback */
#define LOG_LEVEL_ERROR 3      /* a failure someone should look at */
#define LOG_LEVEL_LOG 4        /* asked for by a setting: always written */

/* The formats of log_set_format. */
#define LOG_FORMAT_TEXT 0
#define LOG_FORMAT_JSON 1

/* What a record about a session says of it; any field may be NULL or 0. */
typedef struct log_session log_session;
struct log_session {
  long iSession;           /* the session's BackendKeyData pid; 0: none */
  const char *zUser;
  const char *zDb;
  const char *zHost;       /* the client's address */
  int iPort;               /* and port; 0: unknown */
  const char *zState;      /* SQLSTATE of an error */
  const char *zStatement;  /* the statement, as sent */
  double msDuration;       /* < 0: none */
};

/* Records below eLevel are dropped. A value outside the four levels is
** clamped to the nearest. */
void log_set_level(int eLevel);
int log_level_get(void);

/* Returns 1 if a record at eLevel would be written: for callers that would
** otherwise build an expensive body for nothing. */
int log_level_enabled(int eLevel);

/* Returns the level named z ("debug", "info", "warn", "error"; case does
** not matter; "warning" is "warn"), or -1 for anything else. */
int log_level_parse(const char *z);

/* Returns "DEBUG", "INFO", "WARN", "ERROR" or "LOG" ("?" outside the
** levels). */
const char *log_level_name(int eLevel);

/* LOG_FORMAT_TEXT (the default) or LOG_FORMAT_JSON from now on. Returns
** the format named z ("text", "json"), or -1, from log_format_parse. */
void log_set_format(int eFormat);
int log_format_get(void);
int log_format_parse(const char *z);

/* Sends records to f from now on (NULL: stderr, the default). The caller
** keeps f open until it sets another sink. */
void log_set_sink(FILE *f);

/* Writes one record at eLevel. A newline in the text starts a continuation
** line; a trailing newline is dropped. */
void log_printf(int eLevel, const char *zFmt, ...) __attribute__((format(printf, 2, 3)));
void log_vprintf(int eLevel, const char *zFmt, va_list ap);

/* Writes one record at eLevel about session *p: its facts in the text
** prefix, or as JSON fields. */
void log_session_printf(int eLevel, const log_session *p, const char *zFmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Writes one record at eLevel: zTitle as its first line(s), then every
** line of zBody (NULL or "" for none) as a continuation line. For
** compiler logs and generated source. */
void log_text(int eLevel, const char *zTitle, const char *zBody);

#endif /* STARQ_LOG_H */
