/*
** server/session-copy.c — COPY ... FROM STDIN: the session's side of the
** copy-in sub-protocol.
**
** When the engine answers a statement with PG_OUTCOME_COPY_IN, the client
** gets CopyInResponse and the session reads CopyData until CopyDone or
** CopyFail. The payloads of the CopyData messages that are waiting (up to
** cfg.nCopyChunk bytes) go to the engine together, as one COPY_DATA job,
** so a client sending many small messages costs few jobs; what the bytes
** mean is the engine's business. CopyDone becomes a COPY_DONE job whose
** tag ("COPY n") completes the statement, CopyFail a COPY_FAIL job and a
** 57014 error. Flush and Sync are ignored during the copy, as PostgreSQL
** does; any other message is a protocol violation.
**
** An error ends the copy: the session goes back to reading queries and
** drops the CopyData, CopyDone and CopyFail that may still come.
*/
#include <stdio.h>
#include <string.h>

#include "sessionInt.h"

void session__copy_begin(pg_session *s, const pg_outcome *o, int bExtended) {
  int nCol = o->nCopyCol;
  if (nCol < 0 || nCol > 0xFFFF) {
    session__outcome_unexpected(s, o, "a COPY (a bad column count)");
    return;
  }
  pgwire_put_copy_in_response(SESSION_OUT(s), o->bCopyBinary, nCol);
  s->ePhase = SESSION_COPY_IN;
  s->bCopyExtended = bExtended;
}

/* Gathers the CopyData message f and those right behind it in the input
** into s->jobData, and consumes them. */
static void copy_gather(pg_session *s, const pgwire_frame *f) {
  strbuf_reset(&s->jobData);
  strbuf_append(&s->jobData, (const char *)f->aBody, f->nBody);
  for (;;) {
    pgwire_frame next;
    char zErr[8];
    if (s->iIn == s->in.n ||
        pgwire_frame_next(s->in.z + s->iIn, s->in.n - s->iIn, 0, s->cfg.nMaxMessage, &next, zErr,
                          sizeof(zErr)) != PGWIRE_OK ||
        next.cType != PGWIRE_MSG_COPY_DATA || s->jobData.n + next.nBody > s->cfg.nCopyChunk) {
      return;   /* anything else, even bad bytes, is for the loop to see */
    }
    strbuf_append(&s->jobData, (const char *)next.aBody, next.nBody);
    s->iIn += next.nWire;
  }
}

/* Starts a job of the copy: data, done or fail. */
static void copy_job(pg_session *s, pg_job_kind eKind, session_wait eWait) {
  pg_job *pJob = session__job_new(s, eKind);
  pJob->bExtended = s->bCopyExtended;
  if (eKind == PG_JOB_COPY_DATA) {
    pJob->pData = strbuf_str(&s->jobData);       /* never NULL, even empty */
    pJob->nData = s->jobData.n;
  } else if (eKind == PG_JOB_COPY_FAIL) {
    pJob->zCopyFail = strbuf_str(&s->jobData);
  }
  session__job_start(s, eWait);
}

void session__copy_message(pg_session *s, const pgwire_frame *f) {
  const char *zReason;
  char zErr[160];
  switch (f->cType) {
    case PGWIRE_MSG_COPY_DATA:
      copy_gather(s, f);
      if (strbuf_error(&s->jobData)) {
        session__fatal(s, "53200", NULL, "out of memory");
        return;
      }
      copy_job(s, PG_JOB_COPY_DATA, SESSION_WAIT_COPY_DATA);
      return;
    case PGWIRE_MSG_COPY_DONE:
      if (pgwire_empty_decode(f->aBody, f->nBody, zErr, sizeof(zErr)) != PGWIRE_OK) break;
      copy_job(s, PG_JOB_COPY_DONE, SESSION_WAIT_COPY_DONE);
      return;
    case PGWIRE_MSG_COPY_FAIL:
      if (pgwire_string_decode(f->aBody, f->nBody, &zReason, zErr, sizeof(zErr)) != PGWIRE_OK) {
        break;
      }
      strbuf_reset(&s->jobData);
      strbuf_puts(&s->jobData, zReason);
      copy_job(s, PG_JOB_COPY_FAIL, SESSION_WAIT_COPY_FAIL);
      return;
    case PGWIRE_MSG_FLUSH:
    case PGWIRE_MSG_SYNC:
      return;
    default:
      snprintf(zErr, sizeof(zErr), "unexpected message type 0x%02X during COPY from stdin",
               (unsigned char)f->cType);
      break;
  }
  session__fatal(s, "08P01", NULL, "%s", zErr);
}

void session__copy_outcome(pg_session *s, session_wait eWait, const pg_outcome *o) {
  if (eWait == SESSION_WAIT_COPY_FAIL) {
    session__outcome_discard(s, o);
    s->ePhase = SESSION_READY;
    session__error_fmt(s, "57014", "COPY from stdin failed: %s", strbuf_str(&s->jobData));
    return;
  }
  if (o->eKind == PG_OUTCOME_ERROR) {
    s->ePhase = SESSION_READY;
    session__error(s, &o->error);
    return;
  }
  if (o->eKind != PG_OUTCOME_COMMAND) {
    s->ePhase = SESSION_READY;
    session__outcome_unexpected(s, o, "COPY data");
    return;
  }
  if (eWait == SESSION_WAIT_COPY_DONE) {
    s->ePhase = SESSION_READY;
    session__command_complete(s, o->zTag != NULL ? o->zTag : "COPY");
  }
}
