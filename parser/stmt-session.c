/*
** parser/stmt-session.c — the statements of a session rather than of
** data: SHOW, SET and RESET; BEGIN, COMMIT, ROLLBACK and savepoints;
** DECLARE, FETCH, MOVE and CLOSE of cursors; DEALLOCATE and DISCARD.
**
** PostgreSQL's spellings that name a setting are turned into its name
** here, as PostgreSQL's grammar does: SET TIME ZONE sets "timezone", SET
** NAMES "client_encoding", SET SCHEMA "search_path", SHOW TRANSACTION
** ISOLATION LEVEL shows "transaction_isolation".
**
** The server runs SHOW, SET, BEGIN, COMMIT and ROLLBACK as they were
** before these forms existed; what it would get wrong without knowing —
** SET LOCAL (it would set the session's value) and AND CHAIN (it would
** leave no transaction open) — is refused by the grammar (0A000). The
** statements of new kinds reach the server, which says it does not run
** them yet.
**
** INTERFACE ROUTINES (declared in parseInt.h)
**   sql_stmt_show, sql_stmt_reset, sql_stmt_set, sql_stmt_set_transaction
**   sql_stmt_begin, sql_stmt_txn_end, sql_stmt_named
**   sql_stmt_declare, sql_stmt_fetch, sql_stmt_discard
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parser/parse.h"
#include "parseInt.h"

/* Returns a statement of kind eKind named zName, or by tName's text (a
** dotted name, folded) when zName is NULL. */
static sql_stmt *sql_stmt_setting(sql_parse_ctx *p, sql_stmt_kind eKind, sql_token tName,
                                  const char *zName) {
  sql_stmt *s = sql_stmt_new(p, eKind);
  if (s == NULL) return NULL;
  s->zName = zName != NULL ? zName : sql__span_text(p, tName);
  return sql_parse_failed(p) ? NULL : s;
}

sql_stmt *sql_stmt_show(sql_parse_ctx *p, sql_token tName, const char *zName) {
  return sql_stmt_setting(p, SQL_STMT_SHOW, tName, zName);
}

sql_stmt *sql_stmt_reset(sql_parse_ctx *p, sql_token tName, const char *zName) {
  return sql_stmt_setting(p, SQL_STMT_RESET, tName, zName);
}

sql_stmt *sql_stmt_set(sql_parse_ctx *p, sql_token tName, const char *zName,
                       sql_name_list *pValues) {
  sql_stmt *s = sql_stmt_setting(p, SQL_STMT_SET, tName, zName);
  size_t n = 0;
  char *z;
  if (s == NULL || pValues == NULL) return s;
  s->nValue = pValues->n;
  s->azValue = pValues->az;
  /* One value is itself; several are joined as PostgreSQL's
  ** flatten_set_variable_args() joins a list. */
  for (int i = 0; i < pValues->n; i++) n += strlen(pValues->az[i]) + 2;
  z = sql__alloc(p, n + 1);
  if (z == NULL) return NULL;
  for (int i = 0; i < pValues->n; i++) {
    if (i > 0) strcat(z, ", ");
    strcat(z, pValues->az[i]);
  }
  s->zValue = z;
  return s;
}

sql_stmt *sql_stmt_set_transaction(sql_parse_ctx *p, int bSession, sql_txn_modes m) {
  sql_stmt *s = sql_stmt_new(p, SQL_STMT_SET_TRANSACTION);
  if (s == NULL) return NULL;
  s->bSession = bSession != 0;
  s->txn = m;
  return s;
}

sql_stmt *sql_stmt_begin(sql_parse_ctx *p, sql_txn_modes m) {
  sql_stmt *s = sql_stmt_new(p, SQL_STMT_BEGIN);
  if (s != NULL) s->txn = m;
  return s;
}

sql_stmt *sql_stmt_txn_end(sql_parse_ctx *p, sql_stmt_kind eKind, sql_token tChain) {
  if (sql_parse_failed(p)) return NULL;
  if (tChain.z != NULL) return sql_unsupported(p, tChain);
  return sql_stmt_new(p, eKind);
}

sql_stmt *sql_stmt_named(sql_parse_ctx *p, sql_stmt_kind eKind, sql_token tName) {
  sql_stmt *s = sql_stmt_new(p, eKind);
  if (s == NULL || tName.z == NULL) return s;
  s->zName = sql__name_text(p, tName);
  return sql_parse_failed(p) ? NULL : s;
}

sql_stmt *sql_stmt_declare(sql_parse_ctx *p, sql_token tName, unsigned mOptions,
                           sql_select *pSelect) {
  sql_stmt *s = sql_stmt_named(p, SQL_STMT_DECLARE_CURSOR, tName);
  if (s == NULL) return NULL;
  if ((mOptions & SQL_CURSOR_SCROLL) && (mOptions & SQL_CURSOR_NO_SCROLL)) {
    /* PostgreSQL's gram.y says so, at the DECLARE. */
    sql_error_set(p->pErr, "42P11", -1, "cannot specify both SCROLL and NO SCROLL");
    return NULL;
  }
  s->mCursor = mOptions;
  s->pSelect = pSelect;
  return s;
}

sql_stmt *sql_stmt_fetch(sql_parse_ctx *p, int bMove, sql_fetch f) {
  sql_stmt *s = sql_stmt_named(p, SQL_STMT_FETCH, f.tCursor);
  if (s == NULL) return NULL;
  s->bMove = bMove != 0;
  s->eFetch = f.eDir;
  s->bFetchAll = f.bAll != 0;
  s->nFetch = f.nDefault;
  if (f.tCount.z != NULL) {
    /* A signed integer as the lexer cut it: [-]digits. PostgreSQL reads
    ** it as a 64-bit count. */
    const char *z = sql__span_text(p, f.tCount);
    char *zEnd;
    if (z == NULL) return NULL;
    errno = 0;
    s->nFetch = strtoll(z, &zEnd, 10);
    if (errno != 0 || *zEnd != 0) {
      sql_error_set(p->pErr, "22003", sql_token_offset(p, f.tCount),
                    "value \"%s\" is out of range for type bigint", z);
      return NULL;
    }
  }
  return s;
}

sql_stmt *sql_stmt_discard(sql_parse_ctx *p, sql_token tWhat) {
  sql_stmt *s = sql_stmt_named(p, SQL_STMT_DISCARD, tWhat);
  if (s != NULL && strcmp(s->zName, "temporary") == 0) s->zName = "temp";
  return s;
}
