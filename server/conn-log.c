/*
** server/conn-log.c — what a SQL connection tells the log, in
** PostgreSQL's words where it has them: with --log-connections, each
** connection received, authorized and ended (with the session's time);
** always, a FATAL that ends a session (a failed login among them); with
** --log-statement, each statement as it starts; with
** --log-min-duration-statement, each statement at least that slow with
** its duration; always, a statement that fails, is cancelled or times
** out, with its SQLSTATE. Records about a session carry its key, user,
** database and client address (common/log.h: a text prefix, or JSON
** fields with --log-format json).
**
** Parameter values are never logged: they may be secrets, and the
** statement text with its $n is what an operator needs to find it.
**
** INTERFACE ROUTINES
**   conn_log_received, conn_log_authorized, conn_log_disconnected,
**   conn_log_fatal, conn_log_statement_start, conn_log_statement_end
*/
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "daemonInt.h"

/* Unix seconds now, as stmt_job.tStart holds them. */
static double conn_log_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The facts of c for a record about it. */
static log_session conn_log_facts(const conn *c) {
  log_session ls;
  memset(&ls, 0, sizeof(ls));
  ls.iSession = c->iPid;
  ls.zUser = c->bAccepted && c->s != NULL ? pg_session_param(c->s, "user") : NULL;
  ls.zDb = c->bAccepted && c->s != NULL ? pg_session_param(c->s, "database") : NULL;
  ls.zHost = c->zHost[0] != 0 ? c->zHost : NULL;
  ls.iPort = c->iHostPort;
  ls.msDuration = -1;
  return ls;
}

void conn_log_received(const conn *c) {
  log_session ls = conn_log_facts(c);
  if (!c->d->cfg.bLogConnections) return;
  log_session_printf(LOG_LEVEL_LOG, &ls, "connection received: host=%s port=%d", c->zHost,
                     c->iHostPort);
}

void conn_log_authorized(const conn *c) {
  log_session ls = conn_log_facts(c);
  const char *zApp = pg_session_param(c->s, "application_name");
  char zTls[128];
  if (!c->d->cfg.bLogConnections) return;
  conn_tls_describe(c, zTls, sizeof(zTls));
  log_session_printf(LOG_LEVEL_LOG, &ls, "connection authorized: user=%s database=%s%s%s%s%s",
                     ls.zUser, ls.zDb != NULL ? ls.zDb : ls.zUser,
                     zApp != NULL ? " application_name=" : "", zApp != NULL ? zApp : "",
                     zTls[0] != 0 ? " SSL enabled: " : "", zTls);
}

void conn_log_disconnected(const conn *c) {
  log_session ls = conn_log_facts(c);
  double sec = timer_now() - c->tConnect;
  int h = (int)(sec / 3600), m = (int)(sec / 60) % 60;
  if (!c->d->cfg.bLogConnections || !c->bAccepted) return;
  ls.msDuration = sec * 1000;
  log_session_printf(LOG_LEVEL_LOG, &ls,
                     "disconnection: session time: %d:%02d:%06.3f user=%s database=%s host=%s "
                     "port=%d",
                     h, m, sec - h * 3600.0 - m * 60.0, ls.zUser,
                     ls.zDb != NULL ? ls.zDb : ls.zUser, c->zHost, c->iHostPort);
}

void conn_log_fatal(const conn *c, const char *zState, const char *zMsg) {
  log_session ls = conn_log_facts(c);
  /* The shutdown's own FATAL is the daemon's doing, not a fault. */
  int eLevel = strcmp(zState, "57P01") == 0 ? LOG_LEVEL_INFO : LOG_LEVEL_WARN;
  ls.zState = zState;
  if (ls.zUser == NULL && c->s != NULL) {   /* a login that failed: who tried */
    ls.zUser = pg_session_param(c->s, "user");
    ls.zDb = pg_session_param(c->s, "database");
  }
  log_session_printf(eLevel, &ls, "FATAL: %s (SQLSTATE %s)", zMsg, zState);
}

/* Returns the first word of zSql (comments and blanks skipped) in z. */
static void conn_log_first_word(const char *zSql, char *z, size_t n) {
  size_t i = 0;
  for (;;) {
    while (isspace((unsigned char)*zSql)) zSql++;
    if (zSql[0] == '-' && zSql[1] == '-') {
      zSql += strcspn(zSql, "\n");
    } else if (zSql[0] == '/' && zSql[1] == '*') {
      const char *zEnd = strstr(zSql + 2, "*/");
      zSql = zEnd != NULL ? zEnd + 2 : zSql + strlen(zSql);
    } else if (zSql[0] == '(') {
      zSql++;
    } else {
      break;
    }
  }
  while (i + 1 < n && isalpha((unsigned char)zSql[i])) {
    z[i] = zSql[i];
    i++;
  }
  z[i] = 0;
}

/* Returns whether --log-statement eLog logs zSql: all of them, or by its
** first keyword those that change the schema (ddl) or also the data (mod),
** as PostgreSQL's log_statement sorts them. */
static int conn_log_statement_wanted(int eLog, const char *zSql) {
  static const char *const azDdl[] = {"CREATE", "DROP", "ALTER", "TRUNCATE", "COMMENT", NULL};
  static const char *const azMod[] = {"INSERT", "UPDATE", "DELETE", "COPY", "MERGE", NULL};
  char zWord[16];
  if (eLog == DAEMON_LOG_STMT_ALL) return 1;
  if (eLog == DAEMON_LOG_STMT_NONE) return 0;
  conn_log_first_word(zSql, zWord, sizeof(zWord));
  for (int i = 0; azDdl[i] != NULL; i++) {
    if (strcasecmp(zWord, azDdl[i]) == 0) return 1;
  }
  for (int i = 0; eLog == DAEMON_LOG_STMT_MOD && azMod[i] != NULL; i++) {
    if (strcasecmp(zWord, azMod[i]) == 0) return 1;
  }
  return 0;
}

void conn_log_statement_start(const conn *c, const stmt_job *j) {
  log_session ls = conn_log_facts(c);
  if (j->eKind != PG_JOB_EXECUTE) return;
  if (!conn_log_statement_wanted(c->d->cfg.eLogStatement, j->zSql)) return;
  log_session_printf(LOG_LEVEL_LOG, &ls, "statement: %s", j->zSql);
}

void conn_log_statement_end(const conn *c, const stmt_job *j, query_outcome e) {
  log_session ls = conn_log_facts(c);
  double ms = (conn_log_now() - j->tStart) * 1000;
  int msMin = c->d->cfg.msLogMinDuration;
  if (j->eKind != PG_JOB_EXECUTE) return;
  ls.msDuration = ms;
  ls.zStatement = j->zSql;
  switch (e) {
    case QUERY_OK:
      if (msMin >= 0 && ms >= msMin) {
        ls.zStatement = NULL;   /* in the message, as PostgreSQL writes it */
        log_session_printf(LOG_LEVEL_LOG, &ls, "duration: %.3f ms  statement: %s", ms, j->zSql);
      }
      return;
    case QUERY_ERROR:
      ls.zState = j->zState;
      log_session_printf(strcmp(j->zState, "XX000") == 0 ? LOG_LEVEL_ERROR : LOG_LEVEL_INFO, &ls,
                         "ERROR: %s (SQLSTATE %s) after %.3f ms", j->zMsg, j->zState, ms);
      return;
    case QUERY_CANCELLED:
    case QUERY_TIMEOUT:
      ls.zState = "57014";
      log_session_printf(LOG_LEVEL_INFO, &ls, "canceling statement due to %s after %.3f ms",
                         e == QUERY_TIMEOUT ? "statement timeout" : "user request", ms);
      return;
    default:
      log_session_printf(LOG_LEVEL_INFO, &ls, "the client went away after %.3f ms of a statement",
                         ms);
      return;
  }
}
