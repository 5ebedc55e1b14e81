/*
** parser/stmt.c — the constructors of whole statements and of what only
** statements contain: CREATE TABLE's columns and keys, EXPLAIN and its
** options, DROP TABLE, and the wrappers of SELECT. COPY is stmt-copy.c's;
** SET, SHOW, transactions, cursors and the session statements are
** stmt-session.c's. Like ast.c's, each constructor returns NULL as soon as
** an error is recorded.
**
** Options are judged with PostgreSQL's words and SQLSTATEs: an unknown
** option name, a missing value and a value that should be a Boolean are
** 42601 (PostgreSQL's defGetBoolean()), and an option PostgreSQL has and
** starq does not is 0A000. Errors point at the option's name, as
** PostgreSQL's do. Whether the table of a DROP exists, or whether a column
** list makes sense (duplicate names, several primary keys, foreign keys
** whose column counts disagree) is the binder's question.
**
** INTERFACE ROUTINES (declared in parseInt.h)
**   sql_column_*, sql_table_key_new, sql_create_*       CREATE TABLE pieces
**   sql_explain_new, sql_explain_option, sql_explain_end EXPLAIN
**   sql_stmt_new, sql_stmt_select, sql_stmt_create, sql_stmt_drop,
**   sql_stmt_explain                                    statements
**   sql__arg_text, sql__arg_bool                        option values
**   sql__stmt_accept                                    the grammar's end
*/
#include <string.h>
#include <strings.h>

#include "parser/parse.h"
#include "parseInt.h"

/* ---- CREATE TABLE ------------------------------------------------------------ */

/* The table being built: the AST's sql_create, plus the array capacities
** that it has no fields for. The grammar only ever sees &b->c. */
typedef struct sql_create_build sql_create_build;
struct sql_create_build {
  sql_create c;            /* first, so a sql_create * is this struct */
  int nColAlloc;
  int nKeyAlloc;
};

/* A column being built: the AST's column and which of NULL and NOT NULL
** were written (the AST keeps only the outcome). */
typedef struct sql_column_build sql_column_build;
struct sql_column_build {
  sql_column_def d;        /* first, so a sql_column_def * is this struct */
  unsigned bNullSeen : 1;
  unsigned bNotNullSeen : 1;
  unsigned bConflict : 1;  /* both: an error once the table is known */
  int iConflictOffset;     /* where the second one was written */
};

sql_column_def *sql_column_new(sql_parse_ctx *p, sql_token tName, sql_type t) {
  sql_column_build *b;
  if (sql_parse_failed(p)) return NULL;
  b = sql__alloc(p, sizeof(*b));
  if (b == NULL) return NULL;
  b->d.zName = sql__name_text(p, tName);
  b->d.iOffset = sql_token_offset(p, tName);
  b->d.type = t.t;
  b->d.nArrayDim = t.nArrayDim;
  return sql_parse_failed(p) ? NULL : &b->d;
}

void sql_column_not_null(sql_parse_ctx *p, sql_column_def *pCol, sql_token t, int bNotNull) {
  sql_column_build *b = (sql_column_build *)pCol;
  if (sql_parse_failed(p)) return;
  if (!b->bConflict && (bNotNull ? b->bNullSeen : b->bNotNullSeen)) {
    b->bConflict = 1;
    b->iConflictOffset = sql_token_offset(p, t);
  }
  if (bNotNull) b->bNotNullSeen = 1; else b->bNullSeen = 1;
  pCol->bNotNull = bNotNull != 0;
}

void sql_column_primary_key(sql_parse_ctx *p, sql_column_def *pCol) {
  if (sql_parse_failed(p)) return;
  pCol->bPrimaryKey = 1;
}

void sql_column_references(sql_parse_ctx *p, sql_column_def *pCol, sql_token tTable,
                           sql_token tColumn) {
  if (sql_parse_failed(p)) return;
  pCol->zRefTable = sql__name_text(p, tTable);
  pCol->iRefOffset = sql_token_offset(p, tTable);
  if (tColumn.z != NULL) pCol->zRefColumn = sql__name_text(p, tColumn);
}

sql_table_key *sql_table_key_new(sql_parse_ctx *p, sql_token tKey, int bForeign,
                                 sql_name_list *pCols, const sql_token *pRefTable,
                                 sql_name_list *pRefCols) {
  sql_table_key *pKey;
  if (sql_parse_failed(p)) return NULL;
  pKey = sql__alloc(p, sizeof(*pKey));
  if (pKey == NULL) return NULL;
  pKey->bForeign = bForeign != 0;
  pKey->iOffset = sql_token_offset(p, tKey);
  pKey->nCol = pCols->n;
  pKey->azCol = pCols->az;
  if (pRefTable != NULL) pKey->zRefTable = sql__name_text(p, *pRefTable);
  if (pRefCols != NULL) {
    pKey->nRefCol = pRefCols->n;
    pKey->azRefCol = pRefCols->az;
  }
  return sql_parse_failed(p) ? NULL : pKey;
}

sql_create *sql_create_new(sql_parse_ctx *p, int bIfNotExists, sql_token tName) {
  sql_create_build *b;
  if (sql_parse_failed(p)) return NULL;
  b = sql__alloc(p, sizeof(*b));
  if (b == NULL) return NULL;
  b->c.zName = sql__name_text(p, tName);
  b->c.iOffset = sql_token_offset(p, tName);
  b->c.bIfNotExists = bIfNotExists != 0;
  return sql_parse_failed(p) ? NULL : &b->c;
}

sql_create *sql_create_add_column(sql_parse_ctx *p, sql_create *pCreate, sql_column_def *pCol) {
  sql_create_build *b = (sql_create_build *)pCreate;
  sql_column_build *pBuild = (sql_column_build *)pCol;
  if (sql_parse_failed(p)) return NULL;
  if (pBuild->bConflict) {
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, pBuild->iConflictOffset,
                  "conflicting NULL/NOT NULL declarations for column \"%s\" of table \"%s\"",
                  pCol->zName, pCreate->zName);
    return NULL;
  }
  if (sql__grow(p, (void **)&b->c.aCol, &b->nColAlloc, b->c.nCol, sizeof(b->c.aCol[0])) != 0) {
    return NULL;
  }
  b->c.aCol[b->c.nCol++] = *pCol;
  return pCreate;
}

sql_create *sql_create_add_key(sql_parse_ctx *p, sql_create *pCreate, sql_table_key *pKey) {
  sql_create_build *b = (sql_create_build *)pCreate;
  if (sql_parse_failed(p)) return NULL;
  if (sql__grow(p, (void **)&b->c.aKey, &b->nKeyAlloc, b->c.nKey, sizeof(b->c.aKey[0])) != 0) {
    return NULL;
  }
  b->c.aKey[b->c.nKey++] = *pKey;
  return pCreate;
}

/* ---- option values ----------------------------------------------------------- */

const char *sql__arg_text(sql_parse_ctx *p, sql_token t) {
  if (t.z == NULL) return NULL;
  return sql__span_text(p, t);
}

int sql__arg_bool(const char *z) {
  static const char *const azTrue[] = {"true", "on", "yes", "1"};
  static const char *const azFalse[] = {"false", "off", "no", "0"};
  if (z == NULL) return 1;
  for (int i = 0; i < 4; i++) {
    if (strcasecmp(z, azTrue[i]) == 0) return 1;
    if (strcasecmp(z, azFalse[i]) == 0) return 0;
  }
  return -1;
}

/* EXPLAIN options PostgreSQL has that starq does not take: refused with
** 0A000 rather than PostgreSQL's "unrecognized", which would be untrue. */
static const char *const azExplainPg[] = {
  "buffers", "costs", "format", "generic_plan", "settings", "summary", "timing", "wal", NULL,
};

/* ---- EXPLAIN ----------------------------------------------------------------- */

/* Returns the offset of the first byte after token t that is not blank
** or comment. */
static int sql_offset_after(sql_parse_ctx *p, sql_token t) {
  int i = sql_token_offset(p, t) + t.n, eType, n;
  while ((n = sql__token_get(p->zSql + i, &eType)) > 0 && eType == TK_SPACE) i += n;
  return i;
}

sql_stmt *sql_explain_new(sql_parse_ctx *p, sql_token tLast, int bAnalyze, int bVerbose) {
  sql_stmt *s = sql_stmt_new(p, SQL_STMT_EXPLAIN);
  if (s == NULL) return NULL;
  s->bAnalyze = bAnalyze != 0;
  s->bVerbose = bVerbose != 0;
  sql_explain_end(p, s, tLast);
  return s;
}

void sql_explain_end(sql_parse_ctx *p, sql_stmt *pExplain, sql_token tLast) {
  if (sql_parse_failed(p)) return;
  /* Where the explained statement starts, kept in the EXPLAIN's own
  ** iOffset until sql_stmt_explain() hands it on; the driver sets the
  ** EXPLAIN's real offset when the statement is complete. */
  pExplain->iOffset = sql_offset_after(p, tLast);
}

void sql_explain_option(sql_parse_ctx *p, sql_stmt *pExplain, sql_token tName, sql_token tArg) {
  const char *zName, *zArg;
  int iName = sql_token_offset(p, tName), bValue;
  if (sql_parse_failed(p)) return;
  zName = sql__name_text(p, tName);
  zArg = sql__arg_text(p, tArg);
  if (zName == NULL || sql_parse_failed(p)) return;
  if (strcmp(zName, "analyze") != 0 && strcmp(zName, "verbose") != 0) {
    int bPg = 0;
    for (int i = 0; azExplainPg[i] != NULL; i++) bPg |= strcmp(zName, azExplainPg[i]) == 0;
    sql_error_set(p->pErr, bPg ? SQLSTATE_FEATURE_NOT_SUPPORTED : SQLSTATE_SYNTAX_ERROR, iName,
                  bPg ? "EXPLAIN option \"%s\" is not supported"
                      : "unrecognized EXPLAIN option \"%s\"",
                  zName);
    return;
  }
  bValue = sql__arg_bool(zArg);
  if (bValue < 0) {
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, iName, "%s requires a Boolean value", zName);
    return;
  }
  if (zName[0] == 'a') {
    pExplain->bAnalyze = bValue != 0;
  } else {
    pExplain->bVerbose = bValue != 0;
  }
}

/* ---- statements -------------------------------------------------------------- */

sql_stmt *sql_stmt_new(sql_parse_ctx *p, sql_stmt_kind eKind) {
  sql_stmt *s;
  if (sql_parse_failed(p)) return NULL;
  s = sql__alloc(p, sizeof(*s));
  if (s != NULL) s->eKind = eKind;
  return s;
}

sql_stmt *sql_stmt_select(sql_parse_ctx *p, sql_select *pSelect) {
  sql_stmt *s = sql_stmt_new(p, SQL_STMT_SELECT);
  if (s != NULL) s->pSelect = pSelect;
  return s;
}

sql_stmt *sql_stmt_create(sql_parse_ctx *p, sql_create *pCreate) {
  sql_stmt *s = sql_stmt_new(p, SQL_STMT_CREATE_TABLE);
  if (s != NULL) s->pCreate = pCreate;
  return s;
}

sql_stmt *sql_stmt_drop(sql_parse_ctx *p, int bIfExists, sql_token tName) {
  sql_stmt *s = sql_stmt_new(p, SQL_STMT_DROP_TABLE);
  if (s == NULL) return NULL;
  s->bIfExists = bIfExists != 0;
  s->zName = sql__name_text(p, tName);
  return sql_parse_failed(p) ? NULL : s;
}

sql_stmt *sql_stmt_explain(sql_parse_ctx *p, sql_stmt *pExplain, sql_stmt *pInner) {
  if (sql_parse_failed(p)) return NULL;
  pInner->iOffset = pExplain->iOffset;
  pExplain->pExplain = pInner;
  return pExplain;
}

void sql__stmt_accept(sql_parse_ctx *p, sql_stmt *pStmt) {
  p->pStmt = pStmt;
}
