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

#endif /* STARQ_TEST_PARSE_H */
