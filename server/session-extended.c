/*
** server/session-extended.c — the extended query protocol: Parse, Bind,
** Describe, Execute, Close, Sync and Flush.
**
** Parse sends the statement to the engine (a PREPARE job) for its
** parameter types and columns, so Describe can answer from what it kept
** and errors in the SQL come back at Parse, where clients expect them.
** Bind needs no engine: it checks counts and formats, turns binary
** parameters into text and makes a portal. Execute runs a new portal (an
** EXECUTE job) or goes on sending the rows of one that PortalSuspended
** stopped. Any error makes the session drop messages until Sync, which
** answers ReadyForQuery. Output is never held back, so Flush has nothing
** to do.
*/
#include <stdlib.h>
#include <string.h>

#include "sessionInt.h"

/* ---- Parse ---------------------------------------------------------------- */

/* Makes the statement a Parse describes, its text cut to one statement.
** Returns it, or NULL after failing (or, out of memory, ending) the session. */
static session_stmt *ext_stmt_new(pg_session *s, const pgwire_parse *m) {
  size_t iPos = 0, iStart = 0, nLen = 0, iNext, nNext;
  int bHave = session__split_next(m->zSql, &iPos, &iStart, &nLen);
  session_stmt *p;

  if (bHave && session__split_next(m->zSql, &iPos, &iNext, &nNext)) {
    session__error_fmt(s, "42601", "cannot insert multiple commands into a prepared statement");
    return NULL;
  }
  p = calloc(1, sizeof(*p));
  if (p == NULL) goto out_oom;
  p->zName = session__strdup(m->zName);
  p->zSql = malloc(nLen + 1);
  p->aParamType = calloc((size_t)m->nParamType + 1, sizeof(*p->aParamType));
  if (p->zName == NULL || p->zSql == NULL || p->aParamType == NULL) goto out_free_stmt;
  memcpy(p->zSql, m->zSql + iStart, nLen);
  p->zSql[nLen] = 0;
  p->iCharOffset = session__split_chars(m->zSql, iStart);
  p->bEmpty = !bHave;
  p->nParam = m->nParamType;
  for (int i = 0; i < m->nParamType; i++) p->aParamType[i] = pgwire_get_u32(m->aParamType + 4 * i);
  return p;

out_free_stmt:
  session__stmt_clear(s, p);
  free(p);
out_oom:
  session__fatal(s, "53200", NULL, "out of memory");
  return NULL;
}

static void ext_parse(pg_session *s, const pgwire_frame *f) {
  pgwire_parse m;
  char zErr[160];
  int rc;
  session_stmt *p;
  pg_job *pJob;

  rc = pgwire_parse_decode(f->aBody, f->nBody, &m, zErr, sizeof(zErr));
  if (!session__decoded(s, rc, zErr)) return;
  if (session__utf8_bad(s, m.zSql, strlen(m.zSql))) return;
  if (m.zName[0] == 0) {
    session__stmt_remove(s, "");
  } else if (session__stmt_find(s, m.zName) != NULL) {
    session__error_fmt(s, "42P05", "prepared statement \"%s\" already exists", m.zName);
    return;
  } else if (s->nNamedStmt >= s->cfg.nMaxStatements) {
    session__error_fmt(s, "54000", "too many prepared statements (the limit is %d)",
                       s->cfg.nMaxStatements);
    return;
  }
  p = ext_stmt_new(s, &m);
  if (p == NULL) return;
  if (p->bEmpty) {
    session__stmt_add(s, p);
    pgwire_put_empty(SESSION_OUT(s), PGWIRE_MSG_PARSE_COMPLETE);
    return;
  }
  s->pParsing = p;
  pJob = session__job_new(s, PG_JOB_PREPARE);
  pJob->bExtended = 1;
  pJob->zSql = p->zSql;
  pJob->zStmtName = p->zName;
  pJob->nParamType = p->nParam;
  pJob->aParamType = p->aParamType;
  session__job_start(s, SESSION_WAIT_PARSE);
}

void session__parse_outcome(pg_session *s, const pg_outcome *o) {
  session_stmt *p = s->pParsing;
  s->pParsing = NULL;
  if (o->eKind == PG_OUTCOME_ERROR) {
    session__outcome_ends(s, o, p->iCharOffset);
  } else if (o->eKind != PG_OUTCOME_PREPARED || o->nParamType < 0 || o->nParamType > 0xFFFF ||
             o->nCol < 0 || o->nCol > 0xFFFF) {
    session__outcome_unexpected(s, o, "a Parse");
  } else {
    p->pEngineStmt = o->pStmt;
    if (o->nParamType > 0 && o->aParamType != NULL) {
      uint32_t *aType = calloc((size_t)o->nParamType, sizeof(*aType));
      if (aType == NULL) goto out_oom;
      memcpy(aType, o->aParamType, (size_t)o->nParamType * sizeof(*aType));
      free(p->aParamType);
      p->aParamType = aType;
      p->nParam = o->nParamType;
    }
    if (session__stmt_columns(p, o->nCol, o->aCol) != 0) goto out_oom;
    session__stmt_add(s, p);
    pgwire_put_empty(SESSION_OUT(s), PGWIRE_MSG_PARSE_COMPLETE);
    return;
  }
  session__stmt_clear(s, p);
  free(p);
  return;

out_oom:
  session__stmt_clear(s, p);
  free(p);
  session__fatal(s, "53200", NULL, "out of memory");
}

/* ---- Bind -------------------------------------------------------------------- */

/* Checks that each format code of a Bind array is text or binary and
** copies them into *paOut. Returns 0, or -1 after failing the statement. */
static int ext_formats_take(pg_session *s, int nFormat, const unsigned char *aFormat,
                            int16_t **paOut) {
  *paOut = calloc((size_t)nFormat + 1, sizeof(**paOut));
  if (*paOut == NULL) {
    session__error_fmt(s, "53200", "out of memory");
    return -1;
  }
  for (int i = 0; i < nFormat; i++) {
    int16_t iFormat = pgwire_get_i16(aFormat + 2 * i);
    if (iFormat != PGWIRE_FORMAT_TEXT && iFormat != PGWIRE_FORMAT_BINARY) {
      session__error_fmt(s, "22023", "unsupported format code: %d", iFormat);
      return -1;
    }
    (*paOut)[i] = iFormat;
  }
  return 0;
}

/* Appends parameter i's value to p->values as NUL-terminated text.
** Returns 0, or -1 after failing the statement. */
static int ext_param_text(pg_session *s, session_portal *p, const pgwire_bind *m, int i,
                          const unsigned char *a, int32_t n) {
  int iFormat = pgwire_format_of(m->aParamFormat, m->nParamFormat, i);
  uint32_t iType = p->aParam[i].iType;
  if (iFormat != PGWIRE_FORMAT_TEXT && iFormat != PGWIRE_FORMAT_BINARY) {
    session__error_fmt(s, "22023", "unsupported format code: %d", iFormat);
    return -1;
  }
  if (iFormat == PGWIRE_FORMAT_TEXT) {
    if (n > 0 && session__utf8_bad(s, (const char *)a, (size_t)n)) return -1;
    strbuf_append(&p->values, (const char *)a, (size_t)n);
  } else if (!pgwire_binary_supported(iType)) {
    session__error_fmt(s, "42883", "no binary input function available for type with OID %u",
                       iType);
    return -1;
  } else if (pgwire_binary_to_text(iType, a, (size_t)n, &p->values) != 0) {
    session__error_fmt(s, "22P03", "incorrect binary data format in bind parameter %d", i + 1);
    return -1;
  }
  strbuf_append(&p->values, "", 1);
  return 0;
}

/* Fills p's parameters from a Bind whose count matches its statement's.
** Returns 0, or -1 after failing the statement. */
static int ext_params_take(pg_session *s, session_portal *p, const pgwire_bind *m) {
  size_t iOff = 0, *aStart;
  int rc = 0;
  p->nParam = m->nParam;
  p->aParam = calloc((size_t)m->nParam + 1, sizeof(*p->aParam));
  aStart = calloc((size_t)m->nParam + 1, sizeof(*aStart));
  if (p->aParam == NULL || aStart == NULL) {
    free(aStart);
    session__error_fmt(s, "53200", "out of memory");
    return -1;
  }
  for (int i = 0; i < m->nParam && rc == 0; i++) {
    const unsigned char *a;
    int32_t n;
    pgwire_bind_value_next(m, &iOff, &a, &n);
    p->aParam[i].iType = p->pStmt->aParamType[i];
    aStart[i] = p->values.n;
    if (n >= 0) rc = ext_param_text(s, p, m, i, a, n);
    p->aParam[i].n = n >= 0 ? p->values.n - aStart[i] - 1 : 0;
    p->aParam[i].z = n >= 0 ? "" : NULL;   /* a mark until the buffer stops moving */
  }
  if (rc == 0 && strbuf_error(&p->values)) {
    session__error_fmt(s, "53200", "out of memory");
    rc = -1;
  }
  for (int i = 0; i < m->nParam && rc == 0; i++) {
    if (p->aParam[i].z != NULL) p->aParam[i].z = p->values.z + aStart[i];
  }
  free(aStart);
  return rc;
}

static void ext_bind(pg_session *s, const pgwire_frame *f) {
  pgwire_bind m;
  char zErr[160];
  int rc;
  session_stmt *pStmt;
  session_portal *p;

  rc = pgwire_bind_decode(f->aBody, f->nBody, &m, zErr, sizeof(zErr));
  if (!session__decoded(s, rc, zErr)) return;
  pStmt = session__stmt_find(s, m.zStmt);
  if (pStmt == NULL) {
    if (m.zStmt[0] == 0) {
      session__error_fmt(s, "26000", "unnamed prepared statement does not exist");
    } else {
      session__error_fmt(s, "26000", "prepared statement \"%s\" does not exist", m.zStmt);
    }
    return;
  }
  if (m.nParam != pStmt->nParam) {
    session__error_fmt(s, "08P01",
                       "bind message supplies %d parameters, "
                       "but prepared statement \"%s\" requires %d",
                       m.nParam, m.zStmt, pStmt->nParam);
    return;
  }
  if (m.zPortal[0] != 0 && session__portal_find(s, m.zPortal) != NULL) {
    session__error_fmt(s, "42P03", "portal \"%s\" already exists", m.zPortal);
    return;
  }
  if (m.zPortal[0] != 0 && s->nNamedPortal >= s->cfg.nMaxPortals) {
    session__error_fmt(s, "54000", "too many portals (the limit is %d)", s->cfg.nMaxPortals);
    return;
  }
  p = calloc(1, sizeof(*p));
  if (p == NULL || (p->zName = session__strdup(m.zPortal)) == NULL) {
    free(p);
    session__fatal(s, "53200", NULL, "out of memory");
    return;
  }
  strbuf_init(&p->values);
  p->pStmt = pStmt;
  pStmt->nRef++;
  p->nFormat = m.nResultFormat;
  if (ext_formats_take(s, m.nResultFormat, m.aResultFormat, &p->aFormat) != 0 ||
      (!pStmt->bEmpty &&
       session__format_check(s, p->nFormat, p->aFormat, pStmt->nCol, pStmt->aCol) != 0) ||
      ext_params_take(s, p, &m) != 0) {
    session__portal_clear(s, p);
    free(p);
    return;
  }
  if (m.zPortal[0] == 0) session__portal_remove(s, "");
  session__portal_add(s, p);
  pgwire_put_empty(SESSION_OUT(s), PGWIRE_MSG_BIND_COMPLETE);
}

/* ---- Describe, Execute, Close ---------------------------------------------- */

/* RowDescription of a statement's columns in a portal's formats (nFormat
** 0: text), or NoData if it returns no rows. */
static void ext_row_description(pg_session *s, const session_stmt *pStmt, int nFormat,
                                const int16_t *aFormat) {
  int16_t *aExpanded;
  if (pStmt->nCol == 0) {
    pgwire_put_empty(SESSION_OUT(s), PGWIRE_MSG_NO_DATA);
    return;
  }
  aExpanded = calloc((size_t)pStmt->nCol, sizeof(*aExpanded));
  if (aExpanded == NULL) {
    session__fatal(s, "53200", NULL, "out of memory");
    return;
  }
  for (int i = 0; i < pStmt->nCol && nFormat > 0; i++) aExpanded[i] = aFormat[nFormat == 1 ? 0 : i];
  pgwire_put_row_description(SESSION_OUT(s), pStmt->nCol, pStmt->aCol, aExpanded);
  free(aExpanded);
}

static void ext_describe(pg_session *s, const pgwire_frame *f) {
  pgwire_target t;
  char zErr[160];
  int rc;
  rc = pgwire_target_decode(f->aBody, f->nBody, &t, zErr, sizeof(zErr));
  if (!session__decoded(s, rc, zErr)) return;
  if (t.cKind == 'S') {
    session_stmt *p = session__stmt_find(s, t.zName);
    if (p == NULL) {
      session__error_fmt(s, "26000", "prepared statement \"%s\" does not exist", t.zName);
      return;
    }
    pgwire_put_parameter_description(SESSION_OUT(s), p->nParam, p->aParamType);
    ext_row_description(s, p, 0, NULL);
  } else {
    session_portal *p = session__portal_find(s, t.zName);
    if (p == NULL) {
      /* A cursor of SQL's DECLARE is a portal too: the engine has it. */
      pg_job *pJob = session__job_new(s, PG_JOB_DESCRIBE_CURSOR);
      strbuf_reset(&s->jobData);
      strbuf_append(&s->jobData, t.zName, strlen(t.zName) + 1);
      pJob->zPortal = s->jobData.z;
      pJob->bExtended = 1;
      if (strbuf_error(&s->jobData)) {
        session__error_fmt(s, "53200", "out of memory");
        return;
      }
      session__job_start(s, SESSION_WAIT_DESCRIBE);
      return;
    }
    ext_row_description(s, p->pStmt, p->nFormat, p->aFormat);
  }
}

void session__describe_outcome(pg_session *s, const pg_outcome *o) {
  if (o->eKind == PG_OUTCOME_ERROR) {
    session__outcome_ends(s, o, 0);
  } else if (o->eKind != PG_OUTCOME_PREPARED || o->nCol < 0 || o->nCol > 0xFFFF ||
      (o->nCol > 0 && o->aCol == NULL)) {
    session__outcome_unexpected(s, o, "a Describe");
  } else if (o->nCol == 0) {
    pgwire_put_empty(SESSION_OUT(s), PGWIRE_MSG_NO_DATA);
  } else {
    pgwire_put_row_description(SESSION_OUT(s), o->nCol, o->aCol, NULL);
  }
}

static void ext_execute(pg_session *s, const pgwire_frame *f) {
  const char *zPortal;
  int32_t nMax;
  char zErr[160];
  int rc;
  session_portal *p;
  pg_job *pJob;

  rc = pgwire_execute_decode(f->aBody, f->nBody, &zPortal, &nMax, zErr, sizeof(zErr));
  if (!session__decoded(s, rc, zErr)) return;
  p = session__portal_find(s, zPortal);
  if (p == NULL) {
    session__error_fmt(s, "34000", "portal \"%s\" does not exist", zPortal);
  } else if (p->pStmt->bEmpty) {
    pgwire_put_empty(SESSION_OUT(s), PGWIRE_MSG_EMPTY_QUERY);
  } else if (p->eState == PORTAL_ROWS) {
    session__rows_start(s, p, nMax > 0 ? nMax : 0);
  } else if (p->eState == PORTAL_DONE) {
    session__error_fmt(s, "55000", "portal \"%s\" cannot be run", zPortal);
  } else {
    s->pExecuting = p;
    s->nExecMax = nMax > 0 ? nMax : 0;
    pJob = session__job_new(s, PG_JOB_EXECUTE);
    pJob->bExtended = 1;
    pJob->zSql = p->pStmt->zSql;
    pJob->zStmtName = p->pStmt->zName;
    pJob->pStmt = p->pStmt->pEngineStmt;
    pJob->zPortal = p->zName;
    pJob->nParam = p->nParam;
    pJob->aParam = p->aParam;
    pJob->nMaxRows = s->nExecMax;
    session__job_start(s, SESSION_WAIT_EXECUTE);
  }
}

void session__execute_outcome(pg_session *s, const pg_outcome *o) {
  session_portal *p = s->pExecuting;
  s->pExecuting = NULL;
  p->eState = PORTAL_DONE;
  if (session__outcome_ends(s, o, p->pStmt->iCharOffset)) return;
  switch (o->eKind) {
    case PG_OUTCOME_ROWS:
      if (session__rows_take(s, p, o) == 0) session__rows_start(s, p, s->nExecMax);
      break;
    case PG_OUTCOME_COPY_IN:
      session__copy_begin(s, o, 1);
      break;
    case PG_OUTCOME_COPY_OUT:   /* a row limit does not apply to COPY */
      if (session__copy_out_take(s, p, o) == 0) session__rows_start(s, p, 0);
      break;
    default:
      session__outcome_unexpected(s, o, "an Execute");
      break;
  }
}

static void ext_close(pg_session *s, const pgwire_frame *f) {
  pgwire_target t;
  char zErr[160];
  int rc;
  rc = pgwire_target_decode(f->aBody, f->nBody, &t, zErr, sizeof(zErr));
  if (!session__decoded(s, rc, zErr)) return;
  /* Closing what does not exist is not an error. */
  if (t.cKind == 'S') {
    session__stmt_remove(s, t.zName);
  } else {
    session__portal_remove(s, t.zName);
  }
  pgwire_put_empty(SESSION_OUT(s), PGWIRE_MSG_CLOSE_COMPLETE);
}

/* ---- dispatch ------------------------------------------------------------------ */

void session__extended_message(pg_session *s, const pgwire_frame *f) {
  char zErr[160];
  switch (f->cType) {
    case PGWIRE_MSG_PARSE: ext_parse(s, f); return;
    case PGWIRE_MSG_BIND: ext_bind(s, f); return;
    case PGWIRE_MSG_DESCRIBE: ext_describe(s, f); return;
    case PGWIRE_MSG_EXECUTE: ext_execute(s, f); return;
    case PGWIRE_MSG_CLOSE: ext_close(s, f); return;
    case PGWIRE_MSG_SYNC:
    case PGWIRE_MSG_FLUSH:
      if (pgwire_empty_decode(f->aBody, f->nBody, zErr, sizeof(zErr)) != PGWIRE_OK) {
        session__fatal(s, "08P01", NULL, "%s", zErr);
      } else if (f->cType == PGWIRE_MSG_SYNC) {
        s->bSkip = 0;
        session__ready(s);
      }
      return;
    default:
      session__fatal(s, "08P01", NULL, "unexpected message type %d", (unsigned char)f->cType);
      return;
  }
}
