/*
** server/session-simple.c — the simple query protocol: one Query message
** that may hold several statements.
**
** The text is split into statements at top-level semicolons with the SQL
** lexer (parser/tokenize.c), so a ';' inside a string, a quoted name or a
** comment never splits; each statement goes to the engine as one EXECUTE
** job, in order. An error skips the statements after it. Whatever
** happens, the Query ends with exactly one ReadyForQuery; a text with no
** statement at all gets EmptyQueryResponse. As in PostgreSQL, a Query
** also ends the unnamed prepared statement and the unnamed portal.
*/
#include <stdlib.h>
#include <string.h>

#include "../parser/parser.h"
#include "sessionInt.h"

/* ---- splitting ------------------------------------------------------------- */

static int split_is(const char *z, int n, sql_token_class e, char c) {
  return e == SQL_TOKEN_PUNCT && n == 1 && z[0] == c;
}

/* Returns the length of the token at z, as the SQL lexer sees it, except
** for E'...' strings: starq's lexer has none, but PostgreSQL reads a
** backslash-escaped quote inside them, and a split must agree with the
** server the client thinks it talks to, or E'\';DROP ...' would run. */
static int split_token(const char *z, sql_token_class *pe) {
  int n = sql_token_next(z, pe), i = 2;
  if (*pe != SQL_TOKEN_WORD || n != 1 || (z[0] != 'E' && z[0] != 'e') || z[1] != '\'') return n;
  for (; z[i] != 0; i++) {
    if (z[i] == '\\' && z[i + 1] != 0) {
      i++;
    } else if (z[i] == '\'') {
      if (z[i + 1] != '\'') break;
      i++;
    }
  }
  *pe = SQL_TOKEN_STRING;
  return z[i] != 0 ? i + 1 : i;
}

/* Finds the next statement of the NUL-terminated zText from *piPos. Space,
** comments and empty statements are skipped; the statement runs to a ';'
** outside parentheses, or to the end. Returns 1 with the statement at
** zText[*piStart .. *piStart + *pnLen) (no ';', no trailing space) and
** *piPos past it, or 0 when nothing but space is left. */
int session__split_next(const char *zText, size_t *piPos, size_t *piStart, size_t *pnLen) {
  size_t i = *piPos, iEnd;
  int nDepth = 0;
  sql_token_class e;

  for (;;) {
    int n;
    if (zText[i] == 0) {
      *piPos = i;
      return 0;
    }
    n = split_token(zText + i, &e);
    if (n <= 0) break;
    if (e != SQL_TOKEN_SPACE && !split_is(zText + i, n, e, ';')) break;
    i += (size_t)n;
  }
  *piStart = iEnd = i;
  while (zText[i] != 0) {
    int n = split_token(zText + i, &e);
    if (n <= 0) n = (int)strlen(zText + i);    /* the lexer always moves; be sure */
    if (split_is(zText + i, n, e, '(')) nDepth++;
    if (split_is(zText + i, n, e, ')') && nDepth > 0) nDepth--;
    if (nDepth == 0 && split_is(zText + i, n, e, ';')) {
      i++;
      break;
    }
    i += (size_t)n;
    if (e != SQL_TOKEN_SPACE) iEnd = i;
  }
  *pnLen = iEnd - *piStart;
  *piPos = i;
  return 1;
}

/* Returns how many characters (UTF-8 code points) z[0..n) holds: error
** positions count characters, as PostgreSQL's do. */
int session__split_chars(const char *z, size_t n) {
  int nChar = 0;
  for (size_t i = 0; i < n; i++) nChar += ((unsigned char)z[i] & 0xC0) != 0x80;
  return nChar;
}

/* ---- the Query message ------------------------------------------------------ */

void session__query(pg_session *s, const pgwire_frame *f) {
  const char *zSql;
  char zErr[160];
  int rc;
  rc = pgwire_query_decode(f->aBody, f->nBody, &zSql, zErr, sizeof(zErr));
  if (!session__decoded(s, rc, zErr)) return;
  session__unnamed_drop(s);
  strbuf_reset(&s->simple.text);
  strbuf_puts(&s->simple.text, zSql);
  if (strbuf_error(&s->simple.text)) {
    session__fatal(s, "53200", NULL, "out of memory");
    return;
  }
  s->simple.bActive = 1;
  s->simple.bAbort = 0;
  s->simple.bAny = 0;
  s->simple.iPos = 0;
  (void)session__utf8_bad(s, zSql, strlen(zSql));   /* aborts the Query */
}

/* Starts the next statement of the Query, or ends the Query. */
void session__simple_next(pg_session *s) {
  session_simple *q = &s->simple;
  const char *zText = strbuf_str(&q->text);
  size_t iStart, nLen;
  pg_job *pJob;

  if (q->bAbort || !session__split_next(zText, &q->iPos, &iStart, &nLen)) {
    if (!q->bAbort && !q->bAny) pgwire_put_empty(SESSION_OUT(s), PGWIRE_MSG_EMPTY_QUERY);
    q->bActive = 0;
    session__portal_clear(s, &q->portal);
    session__ready(s);
    return;
  }
  q->bAny = 1;
  session__stmt_clear(s, &q->stmt);
  q->stmt.zSql = malloc(nLen + 1);
  if (q->stmt.zSql == NULL) {
    session__fatal(s, "53200", NULL, "out of memory");
    return;
  }
  memcpy(q->stmt.zSql, zText + iStart, nLen);
  q->stmt.zSql[nLen] = 0;
  q->stmt.iCharOffset = session__split_chars(zText, iStart);
  pJob = session__job_new(s, PG_JOB_EXECUTE);
  pJob->zSql = q->stmt.zSql;
  session__job_start(s, SESSION_WAIT_SIMPLE);
}

void session__simple_outcome(pg_session *s, const pg_outcome *o) {
  session_simple *q = &s->simple;
  if (session__outcome_ends(s, o, q->stmt.iCharOffset)) return;
  switch (o->eKind) {
    case PG_OUTCOME_ROWS:
      session__portal_clear(s, &q->portal);
      if (session__rows_take(s, &q->portal, o) != 0) break;
      pgwire_put_row_description(SESSION_OUT(s), o->nCol, o->aCol, NULL);
      session__rows_start(s, &q->portal, 0);
      break;
    case PG_OUTCOME_COPY_IN:
      session__copy_begin(s, o, 0);
      break;
    case PG_OUTCOME_COPY_OUT:
      session__portal_clear(s, &q->portal);
      if (session__copy_out_take(s, &q->portal, o) == 0) session__rows_start(s, &q->portal, 0);
      break;
    default:
      session__outcome_unexpected(s, o, "a statement");
      break;
  }
}
