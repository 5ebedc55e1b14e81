/*
** tests/test-parse.h — what the parser's tests share: the S-expression
** printer of parse trees (test-parse-print.c) and helpers that parse a
** string and return its dump or its error as text, so that each case is
** one line of input and one line of expected output.
*/
#ifndef STARQ_TEST_PARSE_H
#define STARQ_TEST_PARSE_H

#include "../parser/parser.h"

/* Printer flags. */
#define PARSE_PRINT_OFFSETS 0x01   /* "@N" after every node: its byte offset;
                                   ** "[N+L]" after each statement */

/* Returns the dump of pScript, one statement per line, as a malloc'd
** string the caller frees. The format is described in test-parse-print.c. */
char *parse_print_script(const sql_script *pScript, unsigned mFlags);

/* Parses zSql and returns the dump (parse_print_script) or, if it failed,
** "error SQLSTATE @OFFSET: message", as a malloc'd string. Checks on the
** way that a failed parse leaves an empty script and a successful one no
** error. */
char *parse_dump(const char *zSql, unsigned mFlags);

/* One input and the dump it must give. */
typedef struct parse_case parse_case;
struct parse_case {
  const char *zSql;
  const char *zExpect;
};

/* Checks each case's dump (flags as parse_dump's), naming the input when
** one differs, and that what parses deparses back (parse_check_deparse)
** unless mFlags has PARSE_CHECK_NO_DEPARSE. */
#define PARSE_CHECK_NO_DEPARSE 0x100
void parse_check(const parse_case *aCase, int nCase, unsigned mFlags);
#define PARSE_CHECK(a, f) parse_check((a), (int)(sizeof(a) / sizeof((a)[0])), (f))

/* Returns the deparse of every SELECT of zSql, each followed by ";\n", and
** sets *pzDump (if not NULL) to zSql's dump; both malloc'd. */
char *parse_deparse(const char *zSql, char **pzDump);

/* Checks that every SELECT of zSql deparses (sql_select_deparse) to SQL
** that parses to the same tree (names compared as folded) and deparses to
** the same text again. */
void parse_check_deparse(const char *zSql);

/* ---- the printer's own pieces (test-parse-print*.c) ------------------------- */

/* A growing output string and the printer's flags. */
typedef struct pp_buf pp_buf;
struct pp_buf {
  char *z;
  size_t n;
  size_t nAlloc;
  unsigned mFlags;
};

void pp_printf(pp_buf *b, const char *zFmt, ...) __attribute__((format(printf, 2, 3)));
/* "@N" when printing offsets. */
void pp_offset(pp_buf *b, int iOffset);
/* z as a SQL string literal. */
void pp_string(pp_buf *b, const char *z);
void pp_expr(pp_buf *b, const sql_expr *e);
/* The expressions of pList, each preceded by a space. */
void pp_list(pp_buf *b, const sql_expr_list *pList);
/* An ORDER BY list: each expression with :desc, :nulls-first, :nulls-last. */
void pp_order(pp_buf *b, const sql_expr_list *pList);
void pp_select(pp_buf *b, const sql_select *s);
/* A window (bDefinition: one of a WINDOW clause). */
void pp_window(pp_buf *b, const sql_window *w, int bDefinition);
/* Names as "(a b c)". */
void pp_names(pp_buf *b, int n, const char *const *az);

#endif /* STARQ_TEST_PARSE_H */
