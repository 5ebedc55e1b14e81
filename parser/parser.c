/*
** parser/parser.c — sql_parse(): drives the lexer (tokenize.c) and the
** lemon engine (parse.y) over a script, one statement at a time.
**
** The driver owns what needs the token stream rather than the grammar:
**
**   1. Splitting. Each ';' ends a statement: the driver feeds the grammar
**      the statement's tokens and then the end-of-input token, so the
**      grammar never sees ';', empty statements cost nothing, and each
**      statement's offset and length come from its first and last tokens.
**      A last statement without ';' is ended by the end of the text.
**   2. Lexical errors, with PostgreSQL's words: unterminated strings (of
**      every kind: '', E'', $$, B'', X''), comments and quoted
**      identifiers, "" identifiers, trailing junk after numbers, bytes
**      that start no token.
**   3. NOT followed by BETWEEN, IN, LIKE, ILIKE or SIMILAR is passed on as
**      NOTLA (PostgreSQL's NOT_LA), which needs one token of lookahead.
**   4. Limits: text longer than SQL_TEXT_MAX, parentheses nested deeper
**      than SQL_DEPTH_MAX, and a parser stack past SQL_PARSE_STACK_MAX
**      are refused with 54000 before they can cost memory or stack.
**
** The first error stops the parse: nothing more is fed to the engine,
** which is freed on every path. Every node lives in the caller's arena.
**
** INTERFACE ROUTINES
**   sql_parse       a script of ;-separated statements to a sql_script
*/
#include <string.h>

#include "parser/parse.h"
#include "parseInt.h"

/* Records the error for an illegal token t (TK_ILLEGAL from the lexer),
** in PostgreSQL's words for what it starts. */
static void sql_error_lex(sql_parse_ctx *p, sql_token t) {
  const char *zWhat;
  int nNear = sql__near_len(t.z, t.n);
  char c = (char)(t.z[0] | 0x20);
  if (t.z[0] == '\'' || (t.n > 1 && c == 'e' && t.z[1] == '\'') ||
      (t.n > 2 && c == 'u' && t.z[1] == '&' && t.z[2] == '\'')) {
    zWhat = "unterminated quoted string";
  } else if (t.n > 1 && c == 'b' && t.z[1] == '\'') {
    zWhat = "unterminated bit string literal";
  } else if (t.n > 1 && c == 'x' && t.z[1] == '\'') {
    zWhat = "unterminated hexadecimal string literal";
  } else if (t.z[0] == '"' || (t.n > 2 && c == 'u' && t.z[1] == '&')) {
    zWhat = "unterminated quoted identifier";
  } else if (t.z[0] == '/') {
    zWhat = "unterminated /* comment";
  } else if (t.z[0] == '$' && sql__dollar_tag_len(t.z) > 0) {
    zWhat = "unterminated dollar-quoted string";
  } else if (t.z[0] == '.' || (t.z[0] >= '0' && t.z[0] <= '9')) {
    zWhat = "trailing junk after numeric literal";
  } else {
    zWhat = "syntax error";
  }
  sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, sql_token_offset(p, t), "%s at or near \"%.*s\"",
                zWhat, nNear, t.z);
}

static void sql_error_depth(sql_parse_ctx *p, int iOffset) {
  sql_error_set(p->pErr, SQLSTATE_PROGRAM_LIMIT, iOffset,
                "statement is nested more than %d levels deep", SQL_DEPTH_MAX);
}

/* Returns 1 if the next token after z (blanks skipped) makes a NOT the
** NOT of NOT BETWEEN, NOT IN, NOT LIKE, NOT ILIKE or NOT SIMILAR. */
static int sql_next_is_notla(const char *z) {
  int eType, n;
  while ((n = sql__token_get(z, &eType)) > 0 && eType == TK_SPACE) z += n;
  return eType == TK_BETWEEN || eType == TK_IN || eType == TK_LIKE || eType == TK_ILIKE ||
         eType == TK_SIMILAR;
}

/* Ends the statement that began at byte iStart and whose last token ended
** at iEnd by feeding the end-of-input token tEnd (the ';' or the end of
** the text), and appends what the grammar built to pScript. Returns 0, or
** -1 with the error recorded. */
static int sql_stmt_end(sql_parse_ctx *p, void *pEngine, sql_token tEnd, int iStart, int iEnd,
                        sql_script *pScript, int *pnAlloc) {
  sql_stmt *s;
  sqlParser(pEngine, 0, tEnd);
  if (sql_parse_failed(p)) return -1;
  s = p->pStmt;
  p->pStmt = NULL;
  if (s == NULL) {
    /* The grammar accepts only by reducing a statement; never reached. */
    sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, iStart, "parser accepted no statement");
    return -1;
  }
  s->iOffset = iStart;
  s->nLength = iEnd - iStart;
  if (s->pExplain != NULL) s->pExplain->nLength = iEnd - s->pExplain->iOffset;
  if (sql__grow(p, (void **)&pScript->apStmt, pnAlloc, pScript->nStmt,
                sizeof(pScript->apStmt[0])) != 0) {
    return -1;
  }
  pScript->apStmt[pScript->nStmt++] = s;
  return 0;
}

/* Feeds every token of the text to pEngine, statement by statement,
** until the end or the first error. */
static void sql_parse_run(sql_parse_ctx *p, void *pEngine, sql_script *pScript) {
  const char *z = p->zSql;
  int i = 0, iStart = -1, iEnd = 0, nParen = 0, nAlloc = 0;
  for (;;) {
    int eType, n = sql__token_get(z + i, &eType);
    sql_token t = {z + i, n};
    if (n == 0) break;
    if (eType == TK_SPACE) {
      i += n;
      continue;
    }
    if (eType == TK_ILLEGAL) {
      sql_error_lex(p, t);
      return;
    }
    if (eType == TK_SEMI) {
      if (iStart >= 0 && sql_stmt_end(p, pEngine, t, iStart, iEnd, pScript, &nAlloc) != 0) {
        return;
      }
      iStart = -1;
      i += n;
      continue;
    }
    if (iStart < 0) {
      iStart = i;
      nParen = 0;
    }
    switch (eType) {
      case TK_NOT:
        if (sql_next_is_notla(z + i + n)) eType = TK_NOTLA;
        break;
      case TK_ID:
        if (n == 2 && z[i] == '"') {
          sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, i,
                        "zero-length delimited identifier at or near \"\"\"\"");
          return;
        }
        break;
      case TK_LP:
        if (++nParen > SQL_DEPTH_MAX) {
          sql_error_depth(p, i);
          return;
        }
        break;
      case TK_RP:
        nParen--;
        break;
      default:
        break;
    }
    sqlParser(pEngine, eType, t);
    if (sql_parse_failed(p)) return;
    if (sqlParserStackDepth(pEngine) > SQL_PARSE_STACK_MAX) {
      sql_error_depth(p, i);
      return;
    }
    i += n;
    iEnd = i;
  }
  if (iStart >= 0) {
    sql_token tEnd = {z + i, 0};
    sql_stmt_end(p, pEngine, tEnd, iStart, iEnd, pScript, &nAlloc);
  }
}

int sql_parse(const char *zSql, arena *pArena, sql_script *pScript, sql_error *pErr) {
  sql_parse_ctx ctx;
  void *pEngine;
  size_t nSql = strnlen(zSql, (size_t)SQL_TEXT_MAX + 1);

  sql_error_clear(pErr);
  pScript->nStmt = 0;
  pScript->apStmt = NULL;
  if (nSql > SQL_TEXT_MAX) {
    sql_error_set(pErr, SQLSTATE_PROGRAM_LIMIT, SQL_TEXT_MAX,
                  "statement text is longer than %d bytes", SQL_TEXT_MAX);
    return -1;
  }
  memset(&ctx, 0, sizeof(ctx));
  ctx.pArena = pArena;
  ctx.pErr = pErr;
  ctx.zSql = zSql;
  pEngine = sqlParserAlloc(malloc, &ctx);
  if (pEngine == NULL) {
    sql__error_oom(&ctx);
    return -1;
  }
  sql_parse_run(&ctx, pEngine, pScript);
  sqlParserFree(pEngine, free);
  if (sql_parse_failed(&ctx)) {
    pScript->nStmt = 0;
    pScript->apStmt = NULL;
    return -1;
  }
  return 0;
}
