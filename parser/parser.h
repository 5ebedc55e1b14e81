/*
** parser/parser.h — SQL text to parse trees: the parser's one entry point.
**
** The lexer (tokenize.c) is hand-written; the grammar (parse.y) is a lemon
** LALR(1) grammar whose actions only call the constructors of ast.c. The
** parser knows nothing of the catalog: names are resolved and expressions
** typed by the binder (planner/bind.h).
**
** INTERFACE ROUTINES
**   sql_parse         parse a script of ;-separated statements
**   sql_token_next    the lexer, for tools that want tokens (psql-style
**                     statement splitting in the CLI, the fuzzer)
**   sql_expr_deparse  an expression back to SQL text (EXPLAIN)
**   sql_select_deparse  a query back to SQL text
**   sql_expr_walk_columns  every column an expression reads (walk.c)
*/
#ifndef STARQ_PARSER_H
#define STARQ_PARSER_H

#include "../common/arena.h"
#include "../common/sqlerr.h"
#include "../common/strbuf.h"
#include "ast.h"

/* Longest SQL text accepted (PostgreSQL allows 1 GB; a star query is a
** few KB), and deepest expression nesting, both refused with 54000. */
#define SQL_TEXT_MAX (16 * 1024 * 1024)
#define SQL_DEPTH_MAX 1000

/* Parses zSql (NUL-terminated) into *pScript, allocating from pArena.
** Returns 0, or -1 with *pErr set: 42601 for syntax ("syntax error at or
** near \"FORM\"", positioned at that token; "syntax error at end of
** input"), 42704 for a type name that does not exist, 22023 for a bad
** type modifier or option value, 0A000 for SQL that starq parses but does
** not support, 54000 for input past the limits, 53200 when memory runs
** out. A literal's text is judged by the binder (22P02), not here. On
** error *pScript is empty; the arena still owns what was made. */
int sql_parse(const char *zSql, arena *pArena, sql_script *pScript, sql_error *pErr);

/* Token classes of sql_token_next(). */
typedef enum sql_token_class {
  SQL_TOKEN_SPACE = 1,       /* white space and comments */
  SQL_TOKEN_WORD,            /* keyword or identifier (quoted or not) */
  SQL_TOKEN_STRING,          /* '...', E'...', $$...$$, B'...', U&'...' */
  SQL_TOKEN_NUMBER,
  SQL_TOKEN_PUNCT,           /* operators and punctuation, ';' included */
  SQL_TOKEN_ILLEGAL,         /* an unterminated string, comment or quote;
                             ** a byte that starts no token */
  SQL_TOKEN_PARAM,           /* a parameter marker $n */
} sql_token_class;

/* Returns the length in bytes of the token at z (0 at the terminating
** NUL) and sets *peClass. */
int sql_token_next(const char *z, sql_token_class *peClass);

/* Appends e as SQL text to s: keywords upper case, names as the parse
** tree holds them (qualified when written so), strings quoted, and
** parentheses where precedence needs them. */
void sql_expr_deparse(strbuf *s, const sql_expr *e);

/* Appends query p as SQL text to s, as sql_expr_deparse() writes its
** expressions: WITH, set operations parenthesized as precedence needs,
** ORDER BY, LIMIT, OFFSET. */
void sql_select_deparse(strbuf *s, const sql_select *p);

/* An operator as SQL writes it ("<>", "AND", "-" for NEG; "?" for NAMED,
** whose text is the node's zName). */
const char *sql_op_text(sql_op e);

/* What sql_expr_walk_columns() calls for each COLUMN node pColumn, with
** the walk's pArg. */
typedef void (*sql_column_cb)(void *pArg, const sql_expr *pColumn);

/* Calls xColumn(pArg, c) for every COLUMN node c below e (e itself
** included); a column read twice is called twice. Children are visited
** pLeft, pRight, then pList: the order written but for CASE, whose ELSE
** comes before its WHENs. e may be NULL (nothing is called). */
void sql_expr_walk_columns(const sql_expr *e, sql_column_cb xColumn, void *pArg);

#endif /* STARQ_PARSER_H */
