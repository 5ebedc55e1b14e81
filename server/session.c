/*
** server/session.c — the session's life and its main loop (session.h):
** creating and freeing it, taking input, lending output, the loop that
** works through waiting input one message at a time, jobs out to the
** engine and their outcomes, errors, and transaction status.
**
** The loop (session__run) goes round while there is nothing to wait for:
**   1. rows are being sent: send more, or stop while output is full;
**   2. output is above the high-water mark: stop until it drains;
**   3. a simple Query has statements left: start the next;
**   4. a whole message is waiting: consume it and dispatch it by phase.
** It stops when a job goes out, when input runs out, or when the session
** closes. Every call from outside (feed, job_done, output_done) ends by
** running it, never from inside itself: an engine that reports a job
** before its xJobStart returns is handled by the outer loop.
**
** The statement text of a message is copied before a job is made of it,
** so input can be compacted while jobs run; the decoded pointers of a
** message are only used while it is being dispatched.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/value.h"
#include "sessionInt.h"

/* ---- configuration and lifecycle -------------------------------------------- */

void pg_session_config_default(pg_session_config *p) {
  memset(p, 0, sizeof(*p));
  p->nMaxMessage = 16u << 20;
  p->nOutputHigh = 256u << 10;
  p->nInputHigh = 1u << 20;
  p->nMaxStatements = 10000;
  p->nMaxPortals = 10000;
  p->nCopyChunk = 1u << 20;
  p->zServerVersion = "15.0 (starq)";
  p->bSuperuser = 1;
  p->eAuth = PG_AUTH_TRUST_LOOPBACK;
}

pg_session *pg_session_new(const pg_session_config *pCfg, const pg_engine *pEngine) {
  pg_session *s = calloc(1, sizeof(*s));
  if (s == NULL) return NULL;
  s->cfg = *pCfg;
  if (s->cfg.nMaxMessage < 64) s->cfg.nMaxMessage = 64;
  if (s->cfg.zServerVersion == NULL) s->cfg.zServerVersion = "15.0 (starq)";
  s->engine = *pEngine;
  s->cTxn = 'I';
  strbuf_init(&s->in);
  strbuf_init(&s->aOut[0]);
  strbuf_init(&s->aOut[1]);
  strbuf_init(&s->scratch);
  strbuf_init(&s->params);
  strbuf_init(&s->jobData);
  strbuf_init(&s->simple.text);
  strbuf_init(&s->simple.portal.values);
  return s;
}

void pg_session_free(pg_session *s) {
  if (s == NULL) return;
  session__portals_drop(s);
  session__portal_clear(s, &s->simple.portal);
  session__stmt_clear(s, &s->simple.stmt);
  session__stmts_free(s);
  if (s->bScram) scram_server_free(&s->scram);
  strbuf_free(&s->in);
  strbuf_free(&s->aOut[0]);
  strbuf_free(&s->aOut[1]);
  strbuf_free(&s->scratch);
  strbuf_free(&s->params);
  strbuf_free(&s->jobData);
  strbuf_free(&s->simple.text);
  free(s);
}

char *session__strdup(const char *z) {
  size_t n = strlen(z) + 1;
  char *zCopy = malloc(n);
  if (zCopy != NULL) memcpy(zCopy, z, n);
  return zCopy;
}

/* ---- output ------------------------------------------------------------------ */

size_t session__pending(const pg_session *s) {
  size_t n = s->aOut[s->iFill].n;
  if (s->bLent) n += s->aOut[!s->iFill].n - s->iLentDone;
  return n;
}

const void *pg_session_output(pg_session *s, size_t *pn) {
  strbuf *pLent;
  if (!s->bLent) {
    if (s->aOut[s->iFill].n == 0 || strbuf_error(SESSION_OUT(s))) {
      *pn = 0;
      return NULL;
    }
    s->iFill = !s->iFill;
    strbuf_reset(SESSION_OUT(s));
    s->bLent = 1;
    s->iLentDone = 0;
  }
  pLent = &s->aOut[!s->iFill];
  *pn = pLent->n - s->iLentDone;
  return pLent->z + s->iLentDone;
}

void pg_session_output_done(pg_session *s, size_t n) {
  strbuf *pLent = &s->aOut[!s->iFill];
  if (!s->bLent) return;
  s->iLentDone += n < pLent->n - s->iLentDone ? n : pLent->n - s->iLentDone;
  if (s->iLentDone == pLent->n) {
    s->bLent = 0;
    /* One huge row should not pin its buffer for the session's life. */
    if (pLent->nAlloc > 4 * s->cfg.nOutputHigh) strbuf_free(pLent);
  }
  session__run(s);
}

void pg_session_rows_ready(pg_session *s) { session__run(s); }

unsigned pg_session_flags(const pg_session *s) {
  unsigned m = 0;
  int bBlocked = s->eWait != SESSION_WAIT_NONE || s->pActive != NULL ||
                 session__pending(s) >= s->cfg.nOutputHigh;
  if (s->ePhase == SESSION_CLOSED || strbuf_error(SESSION_OUT(s))) m |= PG_SESSION_CLOSE;
  if (s->eWait != SESSION_WAIT_NONE) m |= PG_SESSION_JOB;
  if (s->bTlsStart) m |= PG_SESSION_TLS_START;
  if (!(m & PG_SESSION_CLOSE) && bBlocked && s->in.n - s->iIn >= s->cfg.nInputHigh) {
    m |= PG_SESSION_READ_PAUSE;
  }
  return m;
}

/* ---- errors ------------------------------------------------------------------ */

void session__error_emit(pg_session *s, const pgwire_error *e) {
  pgwire_put_error(SESSION_OUT(s), PGWIRE_MSG_ERROR, e);
  if (s->cTxn == 'T') s->cTxn = 'E';
}

/* An ERROR ends the statement: the rest of a simple Query is skipped, or
** in the extended protocol everything up to the next Sync. */
void session__error(pg_session *s, const pgwire_error *e) {
  session__error_emit(s, e);
  if (s->simple.bActive) {
    s->simple.bAbort = 1;
  } else {
    s->bSkip = 1;
  }
}

int session__utf8_bad(pg_session *s, const char *z, size_t n) {
  char zMsg[128];
  if (value_utf8_invalid(z, n, zMsg, sizeof(zMsg)) == n) return 0;
  session__error_fmt(s, "22021", "%s", zMsg);
  return 1;
}

void session__error_fmt(pg_session *s, const char *zState, const char *zFmt, ...) {
  char zMsg[512];
  pgwire_error e;
  va_list ap;
  va_start(ap, zFmt);
  vsnprintf(zMsg, sizeof(zMsg), zFmt, ap);
  va_end(ap);
  memset(&e, 0, sizeof(e));
  e.zState = zState;
  e.zMsg = zMsg;
  session__error(s, &e);
}

/* A FATAL error ends the session: its message goes out, nothing more is
** read, and the daemon closes once it is written. */
void session__fatal(pg_session *s, const char *zState, const char *zDetail,
                    const char *zFmt, ...) {
  char zMsg[512];
  pgwire_error e;
  va_list ap;
  if (s->ePhase == SESSION_CLOSED) return;
  va_start(ap, zFmt);
  vsnprintf(zMsg, sizeof(zMsg), zFmt, ap);
  va_end(ap);
  memset(&e, 0, sizeof(e));
  e.zSeverity = "FATAL";
  e.zState = zState;
  e.zMsg = zMsg;
  e.zDetail = zDetail != NULL && zDetail[0] != 0 ? zDetail : NULL;
  pgwire_put_error(SESSION_OUT(s), PGWIRE_MSG_ERROR, &e);
  if (s->cfg.xFatal != NULL) s->cfg.xFatal(s->cfg.pCtx, s, zState, zMsg);
  s->ePhase = SESSION_CLOSED;
  s->pActive = NULL;
  s->iIn = s->in.n;
}

/* Returns 1 if a decoder returned PGWIRE_OK; otherwise ends the session
** with the decoder's message (a malformed message is a protocol
** violation: the stream can no longer be trusted) and returns 0. */
int session__decoded(pg_session *s, int rc, const char *zErr) {
  if (rc == PGWIRE_OK) return 1;
  session__fatal(s, "08P01", NULL, "%s", zErr);
  return 0;
}

void pg_session_fatal(pg_session *s, const char *zState, const char *zMsg) {
  session__fatal(s, zState, NULL, "%s", zMsg);
}

/* ---- transaction status and completion ------------------------------------ */

/* Applies what a command tag says of the transaction block. */
void session__txn_from_tag(pg_session *s, const char *zTag) {
  if (zTag == NULL) return;
  if (strcmp(zTag, "BEGIN") == 0 || strcmp(zTag, "START TRANSACTION") == 0) {
    if (s->cTxn == 'I') s->cTxn = 'T';
  } else if (strcmp(zTag, "COMMIT") == 0 || strcmp(zTag, "ROLLBACK") == 0) {
    s->cTxn = 'I';
  }
}

void session__command_complete(pg_session *s, const char *zTag) {
  pgwire_put_command_complete(SESSION_OUT(s), zTag != NULL ? zTag : "");
  session__txn_from_tag(s, zTag);
}

/* Sends ReadyForQuery. Outside a transaction block no portal outlives it:
** portals end with their transaction, as in PostgreSQL. */
void session__ready(pg_session *s) {
  if (s->cTxn == 'I') session__portals_drop(s);
  pgwire_put_ready(SESSION_OUT(s), s->cTxn);
}

char pg_session_txn_status(const pg_session *s) { return s->cTxn; }

const char *session__param_find(const pg_session *s, const char *zName) {
  const char *z = strbuf_str(&s->params), *zEnd = z + s->params.n;
  while (z < zEnd) {
    const char *zValue = z + strlen(z) + 1;
    if (strcmp(z, zName) == 0) return zValue;
    z = zValue + strlen(zValue) + 1;
  }
  return NULL;
}

void pg_session_tls_started(pg_session *s, const unsigned char *a, int n) {
  s->bTlsStart = 0;
  if (n > 0 && n <= (int)sizeof(s->aCbind)) {
    memcpy(s->aCbind, a, (size_t)n);
    s->nCbind = n;
  }
}

const char *pg_session_param(const pg_session *s, const char *zName) {
  if (strcmp(zName, "database") == 0) return s->zDatabase;
  return session__param_find(s, zName);
}

/* ---- jobs ------------------------------------------------------------------- */

pg_job *session__job_new(pg_session *s, pg_job_kind eKind) {
  memset(&s->job, 0, sizeof(s->job));
  s->job.eKind = eKind;
  s->job.cTxn = s->cTxn;
  return &s->job;
}

/* Hands s->job to the engine. The outcome may come back before this
** returns, so callers do nothing after it. */
void session__job_start(pg_session *s, session_wait eWait) {
  s->eWait = eWait;
  if (s->engine.xJobStart == NULL) {
    pg_outcome o;
    memset(&o, 0, sizeof(o));
    o.eKind = PG_OUTCOME_ERROR;
    o.error.zState = "XX000";
    o.error.zMsg = "no engine to run statements";
    pg_session_job_done(s, &o);
    return;
  }
  s->engine.xJobStart(s->engine.pCtx, s, &s->job);
}

/* Frees what an outcome handed over that nobody took. */
void session__outcome_discard(pg_session *s, const pg_outcome *o) {
  if ((o->eKind == PG_OUTCOME_ROWS || o->eKind == PG_OUTCOME_COPY_OUT) && o->pOps != NULL &&
      o->pOps->xFree != NULL) {
    o->pOps->xFree(o->pRes);
  }
  if (o->eKind == PG_OUTCOME_PREPARED && o->pStmt != NULL && s->engine.xStmtFree != NULL) {
    s->engine.xStmtFree(s->engine.pCtx, o->pStmt);
  }
}

/* Fails the statement of an outcome its job cannot have (an engine bug),
** freeing what it carried. Returns -1 for the caller to return. */
int session__outcome_unexpected(pg_session *s, const pg_outcome *o, const char *zJob) {
  session__outcome_discard(s, o);
  session__error_fmt(s, "XX000", "internal error: the engine answered %d to %s", (int)o->eKind,
                     zJob);
  return -1;
}

/* Drops what a COMMAND outcome releases (pg_release). Returns 0, or -1
** after answering an error (DEALLOCATE of a statement there is none of). */
static int session_release(pg_session *s, const pg_outcome *o) {
  switch (o->eRelease) {
    case PG_RELEASE_NONE: return 0;
    case PG_RELEASE_STMT:
      if (o->zRelease == NULL || o->zRelease[0] == 0 ||
          session__stmt_find(s, o->zRelease) == NULL) {
        session__error_fmt(s, "26000", "prepared statement \"%s\" does not exist",
                           o->zRelease != NULL ? o->zRelease : "");
        return -1;
      }
      session__stmt_remove(s, o->zRelease);
      return 0;
    case PG_RELEASE_SESSION:
      /* the portal running this statement, if named, stays until it ends */
      for (session_portal *p = s->pPortals, *pNext; p != NULL; p = pNext) {
        pNext = p->pNext;
        if (p->zName[0] != 0 && p != s->pActive) session__portal_remove(s, p->zName);
      }
      /* fall through */
    case PG_RELEASE_STMTS:
      for (session_stmt *p = s->pStmts, *pNext; p != NULL; p = pNext) {
        pNext = p->pNext;
        if (p->zName[0] != 0) session__stmt_remove(s, p->zName);
      }
      return 0;
  }
  return 0;
}

/* Answers the outcomes that end any statement the same way: an error (its
** position moved from the statement to the client's text, iCharOffset
** characters in) and a command's tag. Returns 1 if it answered, 0 if the
** outcome is for the caller. */
int session__outcome_ends(pg_session *s, const pg_outcome *o, int iCharOffset) {
  if (o->eKind == PG_OUTCOME_ERROR) {
    pgwire_error e = o->error;
    if (e.iPosition > 0) e.iPosition += iCharOffset;
    session__error(s, &e);
    return 1;
  }
  if (o->eKind == PG_OUTCOME_COMMAND) {
    if (session_release(s, o) == 0) session__command_complete(s, o->zTag);
    return 1;
  }
  return 0;
}

/* Notices and parameter changes go out before the answer they came with. */
static void session_outcome_preamble(pg_session *s, const pg_outcome *o) {
  for (int i = 0; i < o->nNotice && o->aNotice != NULL; i++) {
    pgwire_error e = o->aNotice[i];
    if (e.zSeverity == NULL) e.zSeverity = "NOTICE";
    pgwire_put_error(SESSION_OUT(s), PGWIRE_MSG_NOTICE, &e);
  }
  for (int i = 0; i < o->nParamChange && o->azParamChange != NULL; i++) {
    const char *zName = o->azParamChange[2 * i], *zValue = o->azParamChange[2 * i + 1];
    if (zName != NULL && zValue != NULL) pgwire_put_parameter_status(SESSION_OUT(s), zName, zValue);
  }
}

void pg_session_job_done(pg_session *s, const pg_outcome *o) {
  session_wait eWait = s->eWait;
  if (eWait == SESSION_WAIT_NONE || s->ePhase == SESSION_CLOSED) {
    s->eWait = SESSION_WAIT_NONE;
    session__outcome_discard(s, o);
    return;
  }
  s->eWait = SESSION_WAIT_NONE;
  session_outcome_preamble(s, o);
  switch (eWait) {
    case SESSION_WAIT_SIMPLE: session__simple_outcome(s, o); break;
    case SESSION_WAIT_PARSE: session__parse_outcome(s, o); break;
    case SESSION_WAIT_EXECUTE: session__execute_outcome(s, o); break;
    case SESSION_WAIT_DESCRIBE: session__describe_outcome(s, o); break;
    default: session__copy_outcome(s, eWait, o); break;
  }
  if (o->cTxn == 'I' || o->cTxn == 'T' || o->cTxn == 'E') s->cTxn = o->cTxn;
  session__run(s);
}

/* ---- the loop ----------------------------------------------------------------- */

/* A message in the READY phase. */
static void session_ready_message(pg_session *s, const pgwire_frame *f) {
  if (f->cType == PGWIRE_MSG_TERMINATE) {
    s->ePhase = SESSION_CLOSED;
    return;
  }
  if (s->bSkip && f->cType != PGWIRE_MSG_SYNC) return;
  switch (f->cType) {
    case PGWIRE_MSG_QUERY:
      session__query(s, f);
      break;
    case PGWIRE_MSG_COPY_DATA:
    case PGWIRE_MSG_COPY_DONE:
    case PGWIRE_MSG_COPY_FAIL:
      /* Left over from a COPY that failed: the protocol says to drop them. */
      break;
    case PGWIRE_MSG_FUNCTION_CALL: {
      pgwire_error e = {NULL, "0A000", "the function call protocol is not supported", NULL, NULL,
                        0};
      session__error_emit(s, &e);
      session__ready(s);
      break;
    }
    case PGWIRE_MSG_PASSWORD:
      session__fatal(s, "08P01", NULL, "unexpected password message");
      break;
    default:
      session__extended_message(s, f);
      break;
  }
}

static void session_dispatch(pg_session *s, const pgwire_frame *f) {
  switch (s->ePhase) {
    case SESSION_STARTUP: session__startup_message(s, f); break;
    case SESSION_AUTH_SASL:
    case SESSION_AUTH_SASL_FINAL: session__auth_message(s, f); break;
    case SESSION_READY: session_ready_message(s, f); break;
    case SESSION_COPY_IN: session__copy_message(s, f); break;
    case SESSION_CLOSED: break;
  }
}

/* Takes the next whole message off the input and dispatches it. Returns 1
** if it did, 0 if no whole message is there (or the input was bad). */
static int session_input_step(pg_session *s) {
  pgwire_frame f;
  char zErr[160];
  int rc;
  if (s->iIn == s->in.n) return 0;        /* (in.z may be NULL: NULL + 0 is undefined) */
  rc = pgwire_frame_next(s->in.z + s->iIn, s->in.n - s->iIn, s->ePhase == SESSION_STARTUP,
                         s->cfg.nMaxMessage, &f, zErr, sizeof(zErr));
  if (rc == PGWIRE_MORE) return 0;
  if (rc != PGWIRE_OK) {
    session__fatal(s, rc == PGWIRE_ETOOBIG ? "54000" : "08P01", NULL, "%s", zErr);
    return 0;
  }
  /* Consumed first: the body stays in place until the loop ends. */
  s->iIn += f.nWire;
  session_dispatch(s, &f);
  return 1;
}

static void session_input_compact(pg_session *s) {
  size_t nLeft = s->in.n - s->iIn;
  if (s->iIn == 0) return;
  if (nLeft > 0) memmove(s->in.z, s->in.z + s->iIn, nLeft);
  s->in.n = nLeft;
  if (s->in.z != NULL) s->in.z[nLeft] = 0;
  s->iIn = 0;
  /* A message far larger than usual should not pin its buffer. */
  if (nLeft == 0 && s->in.nAlloc > 2 * s->cfg.nInputHigh) strbuf_free(&s->in);
}

void session__run(pg_session *s) {
  if (s->bRunning) return;
  s->bRunning = 1;
  while (s->ePhase != SESSION_CLOSED && s->eWait == SESSION_WAIT_NONE) {
    if (strbuf_error(SESSION_OUT(s)) || strbuf_error(&s->in)) {
      s->ePhase = SESSION_CLOSED;          /* out of memory: nothing can be said */
      break;
    }
    if (s->pActive != NULL) {
      if (session__rows_pump(s) != 0) break;
      continue;
    }
    if (session__pending(s) >= s->cfg.nOutputHigh) break;
    if (s->simple.bActive && s->ePhase == SESSION_READY) {
      session__simple_next(s);
      continue;
    }
    if (!session_input_step(s)) break;
  }
  if (s->ePhase == SESSION_CLOSED) s->iIn = s->in.n;
  session_input_compact(s);
  s->bRunning = 0;
}

void pg_session_feed(pg_session *s, const void *p, size_t n) {
  if (s->ePhase == SESSION_CLOSED || n == 0) return;
  if (s->in.n - s->iIn + n > s->cfg.nInputHigh + (size_t)s->cfg.nMaxMessage) {
    /* The daemon kept reading through READ_PAUSE. */
    session__fatal(s, "54000", NULL, "too much input waiting: %zu bytes",
                   s->in.n - s->iIn + n);
    return;
  }
  session_input_compact(s);
  strbuf_append(&s->in, p, n);
  session__run(s);
}
