/*
** parser/parseInt.h — what the parser's own files share and nobody else
** sees: the token the lexer hands the grammar, the parse context that
** lemon's %extra_context carries, the constructors the grammar's actions
** call (ast.c), the lexer's internal entry point (tokenize.c), and the
** prototypes of the lemon engine (build/gen/parser/parse.c).
**
** Constructors follow one rule that keeps the actions trivial: once an
** error is recorded on the context, every constructor returns NULL (or a
** zero value) without looking at its arguments. A NULL child therefore
** always comes with an error, the parse stops at the next token, and no
** constructor has to test its children for NULL.
*/
#ifndef STARQ_PARSE_INT_H
#define STARQ_PARSE_INT_H

#include <stdio.h>
#include <stdlib.h>

#include "ast.h"
#include "parser.h"

/* PostgreSQL's SQLSTATE for a bad option value or type modifier. */
#ifndef SQLSTATE_INVALID_PARAMETER
#define SQLSTATE_INVALID_PARAMETER "22023"
#endif

/* The parser stack entries one statement may use. Nesting is limited
** exactly by SQL_DEPTH_MAX elsewhere (parentheses by the driver, tree
** height by the constructors); this bound only stops input that piles up
** unreduced prefixes ("NOT NOT NOT ... x") from growing the stack before
** any constructor runs. No statement within SQL_DEPTH_MAX needs more than
** about six entries per level. */
#define SQL_PARSE_STACK_MAX (10 * SQL_DEPTH_MAX)

/* A token as the lexer found it: z points into the SQL text (the text
** owns it), n is its length. The grammar's end-of-input token has n == 0
** and z at the end of the text, or n == 1 and z at the ';' that ended the
** statement. A token with z == NULL stands for "absent". */
typedef struct sql_token sql_token;
struct sql_token {
  const char *z;
  int n;
};

/* The state of one sql_parse() call; lemon's %extra_context. */
typedef struct sql_parse_ctx sql_parse_ctx;
struct sql_parse_ctx {
  arena *pArena;           /* where every node goes; the caller's */
  sql_error *pErr;         /* the caller's; set once, first error wins */
  const char *zSql;        /* the whole input, for offsets */
  sql_stmt *pStmt;         /* the statement the grammar accepted last */
};

/* Returns 1 if an error is recorded on the parse. */
#define sql_parse_failed(p) ((p)->pErr->zState[0] != 0)

/* Byte offset of token t in the SQL text. */
#define sql_token_offset(p, t) ((int)((t).z - (p)->zSql))

static inline sql_token sql_token_none(void) {
  sql_token t = {NULL, 0};
  return t;
}

/* Returns the token that covers a through b (b ends after a). */
static inline sql_token sql_token_span(sql_token a, sql_token b) {
  sql_token t;
  t.z = a.z;
  t.n = (int)(b.z + b.n - a.z);
  return t;
}

/* The LIMIT / OFFSET pair, in either order in the text. */
typedef struct sql_limit sql_limit;
struct sql_limit {
  sql_expr *pLimit;        /* NULL: no LIMIT, or LIMIT ALL */
  sql_expr *pOffset;
};

/* A list of plain names: PRIMARY KEY (a, b), REFERENCES t (c). */
typedef struct sql_name_list sql_name_list;
struct sql_name_list {
  int n;
  int nAlloc;
  const char **az;
};

/* ---- tokenize.c ------------------------------------------------------------ */

/* Returns the length of the token at z (0 at the NUL) and sets *peType to
** its TK_ code: TK_SPACE for blanks and comments, TK_ILLEGAL for an
** unterminated string, comment or quoted identifier (running to the end
** of the text), a number with trailing junk, or a byte no token starts
** with. Keywords come back as their own codes. */
int sql__token_get(const char *z, int *peType);

/* Returns the TK_ code of keyword z[0..n) (any case), or TK_ID. */
int sql__keyword_code(const char *z, int n);

/* Returns 0 if the keyword table is sorted and every entry is found by
** sql__keyword_code(), else the index of the first bad entry plus 1. */
int sql__keyword_check(void);

/* Returns 1 if c starts a word: a letter, '_', a UTF-8 byte, or the '"'
** of a quoted identifier. */
int sql__word_start(char c);

/* ---- ast.c: errors, memory, text --------------------------------------------- */

/* Returns how many bytes of z[0..n) an "at or near" message quotes. */
int sql__near_len(const char *z, int n);

/* Returns n zeroed bytes from the parse's arena, or NULL after recording
** 53200. */
void *sql__alloc(sql_parse_ctx *p, size_t n);

/* Makes room for one more element in *pa (n used of *pnAlloc, each sz
** bytes) by doubling it in the arena. Returns 0, or -1 with 53200. */
int sql__grow(sql_parse_ctx *p, void **pa, int *pnAlloc, int n, size_t sz);

/* Identifier t folded to lower case, or without its quotes if quoted. */
char *sql__name_text(sql_parse_ctx *p, sql_token t);

/* String literal t without its quotes, '' turned into '. */
char *sql__string_text(sql_parse_ctx *p, sql_token t);

/* The text of a span of tokens: names as sql__name_text(), strings as
** sql__string_text(), the rest as written; one space between words. */
char *sql__span_text(sql_parse_ctx *p, sql_token t);

/* Records 42601 syntax error at or near token t (at end of input when
** t.n == 0). The grammar's %syntax_error. */
void sql__error_syntax(sql_parse_ctx *p, sql_token t);

/* Records 53200 out of memory. */
void sql__error_oom(sql_parse_ctx *p);

/* Records 0A000 for a construct starq recognises but does not run,
** positioned at token t, with a message chosen by t's keyword. Returns
** NULL, so that an action can write A = sql_unsupported(pCtx, X). */
void *sql_unsupported(sql_parse_ctx *p, sql_token t);

/* The same for a join keyword (LEFT, CROSS, ...); returns SQL_JOIN_INNER. */
int sql_join_unsupported(sql_parse_ctx *p, sql_token t);

/* ---- ast.c: expressions ---------------------------------------------------- */

sql_expr *sql_expr_literal(sql_parse_ctx *p, sql_expr_kind eKind, sql_token t);
sql_expr *sql_expr_typed_literal(sql_parse_ctx *p, sql_token tType, sql_token tValue);
sql_expr *sql_expr_param(sql_parse_ctx *p, sql_token t);
sql_expr *sql_expr_column(sql_parse_ctx *p, const sql_token *pTable, sql_token tName);
sql_expr *sql_expr_star(sql_parse_ctx *p, const sql_token *pTable, sql_token tStar);
sql_expr *sql_expr_unary(sql_parse_ctx *p, sql_op eOp, sql_token tOp, sql_expr *pExpr);
/* pLeft eOp pRight. A chain of one of AND and OR ("a OR b OR c ...",
** parenthesized left operands included) is built balanced, its height
** growing as log n rather than n (ast.c). */
sql_expr *sql_expr_binary(sql_parse_ctx *p, sql_op eOp, sql_expr *pLeft, sql_token tOp,
                          sql_expr *pRight);
sql_expr *sql_expr_is_null(sql_parse_ctx *p, sql_expr *pLeft, sql_token tIs, int bNot);
sql_expr *sql_expr_between(sql_parse_ctx *p, sql_expr *pLeft, sql_token tOp, int bNot,
                           sql_expr *pLow, sql_expr *pHigh);
sql_expr *sql_expr_in(sql_parse_ctx *p, sql_expr *pLeft, sql_token tOp, int bNot,
                      sql_expr_list *pList);
sql_expr *sql_expr_like(sql_parse_ctx *p, sql_expr *pLeft, sql_token tOp, int bNot,
                        sql_expr *pPattern);
sql_expr *sql_expr_case(sql_parse_ctx *p, sql_token tCase, sql_expr *pOperand,
                        sql_expr_list *pWhenThen, sql_expr *pElse);
sql_expr *sql_expr_cast(sql_parse_ctx *p, sql_token tOp, sql_expr *pExpr, coltype t);
sql_expr *sql_expr_func(sql_parse_ctx *p, sql_token tName, sql_expr_list *pArgs,
                        int bDistinct, int bStar);

/* Returns the type named by tName (a name or a multi-word span such as
** DOUBLE PRECISION) with optional modifiers, or a zero coltype after
** recording 42704 for an unknown name, 0A000 for a PostgreSQL type starq
** lacks, 22023 or 42601 for bad modifiers. */
coltype sql_type_new(sql_parse_ctx *p, sql_token tName, const sql_token *pArg1,
                     const sql_token *pArg2);

/* ---- ast.c: lists ---------------------------------------------------------- */

/* Each appends to pList (NULL: a new list) and returns the list. */
sql_expr_list *sql_expr_list_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pExpr);
sql_expr_list *sql_case_when_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pWhen,
                                    sql_expr *pThen);
sql_expr_list *sql_select_item_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pExpr,
                                      sql_token tAlias);
sql_expr_list *sql_order_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pExpr,
                                int bDesc, sql_nulls eNulls);
sql_src_list *sql_src_append(sql_parse_ctx *p, sql_src_list *pList, sql_join eJoin,
                             sql_token tName, sql_token tAlias, sql_expr *pOn);
sql_name_list *sql_name_list_append(sql_parse_ctx *p, sql_name_list *pList, sql_token tName);

/* ---- ast.c: SELECT --------------------------------------------------------- */

sql_select *sql_select_new(sql_parse_ctx *p, int bDistinct, sql_expr_list *pItems,
                           sql_src_list *pFrom, sql_expr *pWhere, sql_expr_list *pGroupBy,
                           sql_expr *pHaving);
sql_select *sql_select_finish(sql_parse_ctx *p, sql_select *pSelect, sql_expr_list *pOrderBy,
                              sql_limit limit);
sql_limit sql_limit_new(sql_expr *pLimit, sql_expr *pOffset);

/* ---- stmt.c: CREATE TABLE -------------------------------------------------- */

sql_column_def *sql_column_new(sql_parse_ctx *p, sql_token tName, coltype t);
/* NOT NULL (bNotNull) or NULL, written at token t; both on one column
** is 42601, as in PostgreSQL, reported when the column is added. */
void sql_column_not_null(sql_parse_ctx *p, sql_column_def *pCol, sql_token t, int bNotNull);
void sql_column_primary_key(sql_parse_ctx *p, sql_column_def *pCol);
void sql_column_references(sql_parse_ctx *p, sql_column_def *pCol, sql_token tTable,
                           sql_token tColumn);
sql_table_key *sql_table_key_new(sql_parse_ctx *p, sql_token tKey, int bForeign,
                                 sql_name_list *pCols, const sql_token *pRefTable,
                                 sql_name_list *pRefCols);
sql_create *sql_create_new(sql_parse_ctx *p, int bIfNotExists, sql_token tName);
sql_create *sql_create_add_column(sql_parse_ctx *p, sql_create *pCreate, sql_column_def *pCol);
sql_create *sql_create_add_key(sql_parse_ctx *p, sql_create *pCreate, sql_table_key *pKey);

/* ---- stmt.c: COPY, EXPLAIN ------------------------------------------------- */

sql_copy *sql_copy_new(sql_parse_ctx *p, sql_token tTable, sql_token tSource);
void sql_copy_option(sql_parse_ctx *p, sql_copy *pCopy, sql_token tName, sql_token tArg);
/* tLast is the last token of EXPLAIN's prefix: the explained statement
** starts after it. */
sql_stmt *sql_explain_new(sql_parse_ctx *p, sql_token tLast, int bAnalyze, int bVerbose);
void sql_explain_end(sql_parse_ctx *p, sql_stmt *pExplain, sql_token tLast);
void sql_explain_option(sql_parse_ctx *p, sql_stmt *pExplain, sql_token tName, sql_token tArg);

/* ---- stmt.c: statements ---------------------------------------------------- */

sql_stmt *sql_stmt_new(sql_parse_ctx *p, sql_stmt_kind eKind);
sql_stmt *sql_stmt_select(sql_parse_ctx *p, sql_select *pSelect);
sql_stmt *sql_stmt_create(sql_parse_ctx *p, sql_create *pCreate);
sql_stmt *sql_stmt_drop(sql_parse_ctx *p, int bIfExists, sql_token tName);
sql_stmt *sql_stmt_copy(sql_parse_ctx *p, sql_copy *pCopy);
sql_stmt *sql_stmt_explain(sql_parse_ctx *p, sql_stmt *pExplain, sql_stmt *pInner);
sql_stmt *sql_stmt_show(sql_parse_ctx *p, sql_token tName);
sql_stmt *sql_stmt_set(sql_parse_ctx *p, sql_token tName, sql_token tValue);

/* The grammar's accepting rule: the statement is complete. */
void sql__stmt_accept(sql_parse_ctx *p, sql_stmt *pStmt);

/* ---- the lemon engine (build/gen/parser/parse.c) --------------------------- */

/* All of lempar.c's public functions, so that the generated file builds
** with -Wmissing-prototypes; the driver uses Alloc, Free, the parser
** itself and StackDepth (parse.y's %code). */

void *sqlParserAlloc(void *(*xMalloc)(size_t), sql_parse_ctx *pCtx);
void sqlParserFree(void *pParser, void (*xFree)(void *));
void sqlParser(void *pParser, int eMajor, sql_token minor);
int sqlParserStackDepth(void *pParser);
int sqlParserFallback(int iToken);
void sqlParserInit(void *pParser, sql_parse_ctx *pCtx);
void sqlParserFinalize(void *pParser);
#ifndef NDEBUG
void sqlParserTrace(FILE *pOut, char *zPrompt);
#endif

#endif /* STARQ_PARSE_INT_H */
