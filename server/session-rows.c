/*
** server/session-rows.c — a result set on its way to the client: the
** formats its columns go out in, and DataRows encoded a few at a time.
**
** Rows are encoded straight into the output buffer: a value's text is
** appended where its bytes belong and its length word patched after, so
** text results are never copied twice; a binary column's text goes to a
** scratch buffer first and is converted (pgwire_binary_from_text). A row
** is only kept if the unwritten output stays within the high-water mark
** (or the output was empty: a row larger than the mark goes alone);
** otherwise it is cut off again and the session waits for the daemon's
** pg_session_output_done(). So a client that reads slowly costs its
** session the mark in output, however large the result.
**
** A streamed result (pg_result_ops.xStatus) grows while it is sent: once
** its rows so far are out, the portal stays active and waits for
** pg_session_rows_ready(); its end completes it, or fails it with the
** run's error after the rows already sent.
*/
#include <stdlib.h>
#include <string.h>

#include "sessionInt.h"

void session__rows_clear(session_rows *r) {
  if (r->pOps != NULL && r->pOps->xFree != NULL) r->pOps->xFree(r->pRes);
  free(r->aType);
  free(r->aFormat);
  free(r->zTag);
  memset(r, 0, sizeof(*r));
}

/* Checks result format codes (already 0 or 1) against the columns they
** will apply to: their count by the 0/1/N rule, and that each binary one
** is for a type with a binary form here. Returns 0, or -1 after failing
** the statement. */
int session__format_check(pg_session *s, int nFormat, const int16_t *aFormat, int nCol,
                          const pgwire_column *aCol) {
  if (nFormat > 1 && nFormat != nCol) {
    session__error_fmt(s, "08P01", "bind message has %d result formats but query has %d columns",
                       nFormat, nCol);
    return -1;
  }
  for (int i = 0; i < nCol && nFormat > 0; i++) {
    int16_t iFormat = aFormat[nFormat == 1 ? 0 : i];
    if (iFormat == PGWIRE_FORMAT_BINARY && !pgwire_binary_supported(aCol[i].iTypeOid)) {
      session__error_fmt(s, "42883", "no binary output function available for type with OID %u",
                         aCol[i].iTypeOid);
      return -1;
    }
  }
  return 0;
}

/* Takes the result of a ROWS outcome into portal p, with the formats p
** was bound with. Returns 0, or -1 after failing the statement (the result
** freed). */
int session__rows_take(pg_session *s, session_portal *p, const pg_outcome *o) {
  session_rows *r = &p->rows;
  session__rows_clear(r);
  if (o->pOps == NULL || o->pOps->xRowCount == NULL || o->pOps->xValue == NULL ||
      o->nCol < 0 || o->nCol > 0xFFFF || (o->nCol > 0 && o->aCol == NULL)) {
    return session__outcome_unexpected(s, o, "a statement (a malformed result)");
  }
  if (session__format_check(s, p->nFormat, p->aFormat, o->nCol, o->aCol) != 0) {
    session__outcome_discard(s, o);
    return -1;
  }
  r->pOps = o->pOps;
  r->pRes = o->pRes;
  r->nCol = o->nCol;
  r->aType = calloc((size_t)o->nCol + 1, sizeof(*r->aType));
  r->aFormat = calloc((size_t)o->nCol + 1, sizeof(*r->aFormat));
  r->zTag = session__strdup(o->zTag != NULL ? o->zTag : "SELECT");
  if (r->aType == NULL || r->aFormat == NULL || r->zTag == NULL) {
    session__rows_clear(r);
    session__error_fmt(s, "53200", "out of memory");
    return -1;
  }
  for (int i = 0; i < o->nCol; i++) {
    r->aType[i] = o->aCol[i].iTypeOid;
    if (p->nFormat > 0) r->aFormat[i] = p->aFormat[p->nFormat == 1 ? 0 : i];
  }
  r->nRow = r->pOps->xRowCount(r->pRes);
  if (r->nRow < 0) r->nRow = 0;
  r->bTagCount = o->bTagCount;
  p->eState = PORTAL_ROWS;
  return 0;
}

/* Takes the data of a COPY_OUT outcome into portal p and says
** CopyOutResponse. Returns 0, or -1 after failing the statement (the
** result freed). */
int session__copy_out_take(pg_session *s, session_portal *p, const pg_outcome *o) {
  session_rows *r = &p->rows;
  session__rows_clear(r);
  if (o->pOps == NULL || o->pOps->xRowCount == NULL || o->pOps->xValue == NULL ||
      o->nCopyCol < 0 || o->nCopyCol > 0xFFFF || o->nCopyExtra < 0) {
    return session__outcome_unexpected(s, o, "a COPY (a malformed result)");
  }
  r->pOps = o->pOps;
  r->pRes = o->pRes;
  r->nCol = 1;
  r->bCopyOut = 1;
  r->nCopyExtra = o->nCopyExtra;
  r->aType = calloc(1, sizeof(*r->aType));
  r->aFormat = calloc(1, sizeof(*r->aFormat));
  r->zTag = session__strdup("COPY");
  if (r->aType == NULL || r->aFormat == NULL || r->zTag == NULL) {
    session__rows_clear(r);
    session__error_fmt(s, "53200", "out of memory");
    return -1;
  }
  r->nRow = r->pOps->xRowCount(r->pRes);
  if (r->nRow < 0) r->nRow = 0;
  r->bTagCount = 1;
  p->eState = PORTAL_ROWS;
  pgwire_put_copy_out_response(SESSION_OUT(s), o->bCopyBinary, o->nCopyCol);
  return 0;
}

/* Makes p the portal whose rows go out next, at most nMax of them (0: all). */
void session__rows_start(pg_session *s, session_portal *p, int64_t nMax) {
  s->pActive = p;
  s->nActiveMax = nMax;
  s->nActiveSent = 0;
}

/* Cuts s back to n bytes (a row that did not fit, or failed). */
static void rows_truncate(strbuf *s, size_t n) {
  if (strbuf_error(s) || n > s->n) return;
  s->n = n;
  if (s->z != NULL) s->z[n] = 0;
}

static void rows_patch_len(strbuf *s, size_t iAt, size_t nValue) {
  unsigned char *p;
  if (strbuf_error(s) || iAt + 4 > s->n) return;
  p = (unsigned char *)s->z + iAt;
  p[0] = (unsigned char)(nValue >> 24);
  p[1] = (unsigned char)(nValue >> 16);
  p[2] = (unsigned char)(nValue >> 8);
  p[3] = (unsigned char)nValue;
}

/* Appends value iCol of the next row to out (its length word is already
** there, at iLen). Returns 0, or -1 with *pzWhy set. */
static int rows_value(pg_session *s, session_rows *r, int iCol, strbuf *out, size_t iLen,
                      const char **pzWhy) {
  int rc;
  if (r->aFormat[iCol] == PGWIRE_FORMAT_BINARY) {
    strbuf_reset(&s->scratch);
    rc = r->pOps->xValue(r->pRes, r->iRow, iCol, &s->scratch);
    if (rc == 0 && !strbuf_error(&s->scratch) &&
        pgwire_binary_from_text(r->aType[iCol], strbuf_str(&s->scratch), s->scratch.n, out) != 0) {
      *pzWhy = "a value has no binary form of its type";
      return -1;
    }
  } else {
    rc = r->pOps->xValue(r->pRes, r->iRow, iCol, out);
  }
  if (rc < 0) {
    *pzWhy = "the engine could not produce a value";
    return -1;
  }
  if (rc == 1) {                                 /* NULL: length -1, no bytes */
    rows_truncate(out, iLen + 4);
    rows_patch_len(out, iLen, 0xFFFFFFFFu);
    return 0;
  }
  if (out->n - iLen - 4 > 0x7FFFFFFF) {
    *pzWhy = "a value is longer than a message may be";
    return -1;
  }
  rows_patch_len(out, iLen, out->n - iLen - 4);
  return 0;
}

/* Appends the next row as a DataRow, or a COPY's as a CopyData. Returns
** 0, or -1 with *pzWhy set. */
static int rows_encode(pg_session *s, session_rows *r, strbuf *out, const char **pzWhy) {
  size_t iMsg;
  if (r->bCopyOut) {
    iMsg = pgwire_msg_begin(out, PGWIRE_MSG_COPY_DATA);
    if (r->pOps->xValue(r->pRes, r->iRow, 0, out) != 0) {
      *pzWhy = "the engine could not produce a line";
      return -1;
    }
    pgwire_msg_end(out, iMsg);
    return 0;
  }
  iMsg = pgwire_msg_begin(out, PGWIRE_MSG_DATA_ROW);
  pgwire_put_int16(out, r->nCol);
  for (int i = 0; i < r->nCol; i++) {
    size_t iLen = out->n;
    pgwire_put_int32(out, 0);
    if (rows_value(s, r, i, out, iLen, pzWhy) != 0) return -1;
  }
  pgwire_msg_end(out, iMsg);
  return 0;
}

/* Ends an Execute whose rows all went: CommandComplete, and the result
** freed (a later Execute of the portal gets no rows, as in PostgreSQL). */
static void rows_complete(pg_session *s, session_rows *r) {
  strbuf tag;
  strbuf_init(&tag);
  strbuf_puts(&tag, r->zTag != NULL ? r->zTag : "SELECT");
  if (r->bCopyOut) pgwire_put_empty(SESSION_OUT(s), PGWIRE_MSG_COPY_DONE);
  if (r->bTagCount) strbuf_printf(&tag, " %lld", (long long)(s->nActiveSent - r->nCopyExtra));
  session__command_complete(s, strbuf_error(&tag) ? "SELECT" : strbuf_str(&tag));
  strbuf_free(&tag);
  if (r->pOps != NULL && r->pOps->xFree != NULL) r->pOps->xFree(r->pRes);
  r->pOps = NULL;
  r->pRes = NULL;
}

/* Sends rows of the active portal while output has room. Returns 1 if it
** stopped for room (call again after output drains), 0 if this Execute is
** over: completed, suspended at its row limit, or failed. As in
** PostgreSQL, an Execute that reaches its limit is suspended even when no
** row is left; the next one completes with none. */
int session__rows_pump(pg_session *s) {
  session_portal *p = s->pActive;
  session_rows *r = &p->rows;
  strbuf *out = SESSION_OUT(s);

  for (;;) {
    size_t nBefore = session__pending(s), iMark = out->n;
    const char *zWhy = NULL;
    if (s->nActiveMax > 0 && s->nActiveSent >= s->nActiveMax) {
      s->pActive = NULL;
      pgwire_put_empty(out, PGWIRE_MSG_PORTAL_SUSPENDED);
      return 0;
    }
    if (r->iRow >= r->nRow && r->pOps != NULL && r->pOps->xStatus != NULL) {
      /* Rows still coming: what arrived meanwhile, or wait for them. */
      pgwire_error e;
      int rc = r->pOps->xStatus(r->pRes, &e);
      r->nRow = r->pOps->xRowCount(r->pRes);
      if (rc == 1 && r->iRow >= r->nRow) return 1;
      if (rc < 0 && r->iRow >= r->nRow) {
        s->pActive = NULL;
        session__error(s, &e);                   /* before the result goes */
        session__rows_clear(r);
        p->eState = PORTAL_DONE;
        return 0;
      }
    }
    if (r->iRow >= r->nRow) {
      s->pActive = NULL;
      rows_complete(s, r);
      return 0;
    }
    if (nBefore >= s->cfg.nOutputHigh) return 1;
    if (rows_encode(s, r, out, &zWhy) != 0) {
      long long iRow = (long long)r->iRow + 1;
      rows_truncate(out, iMark);
      s->pActive = NULL;
      session__rows_clear(r);
      p->eState = PORTAL_DONE;
      session__error_fmt(s, "XX000", "could not send row %lld: %s", iRow, zWhy);
      return 0;
    }
    if (strbuf_error(out)) return 1;             /* the loop closes the session */
    if (nBefore > 0 && session__pending(s) > s->cfg.nOutputHigh) {
      rows_truncate(out, iMark);
      return 1;
    }
    r->iRow++;
    s->nActiveSent++;
  }
}
