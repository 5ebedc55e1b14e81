/*
** clients/cli/cli.h — starq, the psql-like command-line client: what its
** modules share. Every name here starts with sq_ (not cli_, which belongs
** to common/cli.h, the flag helpers of the other programs).
**
** The client is built like psql, in the same steps:
**
**   args.c      the command line (psql's flags) and the variables (-v, \set)
**   connect.c   the connection: defaults, PG* variables, password prompt,
**               \conninfo, reconnecting after a lost connection
**   input.c     where lines come from: a file, a pipe, or libedit with
**               history at a terminal
**   split.c     the statement splitter: a ';' ends a statement unless it
**               is in quotes, a comment, a dollar quote or parentheses; a
**               backslash starts a meta-command
**   loop.c      the main loop: lines in, statements and meta-commands out
**   run.c       one statement: send it, print every result, time it, note
**               a lost connection
**   copy.c      COPY FROM STDIN / TO STDOUT data, and \copy
**   meta.c      the backslash commands
**   describe.c  \dt and \d, through the catalog queries psql sends
**   explain.c   \explain: the plan and the server's figures of a SELECT
**   status.c    \status: the server's state, readable
**   print.c     results as psql prints them: aligned, unaligned, expanded,
**               CSV
**   width.c     display width of UTF-8 text, cells split into lines
**   errors.c    server errors in libpq's shape (LINE n: and a caret) and
**               the client's own messages with their script location
**
** Exit codes are psql's: SQ_EXIT_*.
*/
#ifndef STARQ_CLIENT_CLI_H
#define STARQ_CLIENT_CLI_H

#include <stddef.h>
#include <stdio.h>

#include <postgresql/libpq-fe.h>

#include "../../common/strbuf.h"

#define SQ_VERSION "0.1.0"

/* Exit codes, as psql's. */
#define SQ_EXIT_OK       0   /* finished normally */
#define SQ_EXIT_FAILURE  1   /* a fatal error of the client: bad flag, no file */
#define SQ_EXIT_BADCONN  2   /* could not connect, or the connection went bad */
#define SQ_EXIT_USER     3   /* a statement of a script failed with ON_ERROR_STOP */

/* ---- printing ------------------------------------------------------- */

typedef enum sq_format {
  SQ_FORMAT_ALIGNED,         /* psql's default: padded columns, borders */
  SQ_FORMAT_UNALIGNED,       /* -A: fields joined by the field separator */
  SQ_FORMAT_CSV              /* --csv: RFC 4180 */
} sq_format;

/* sq_popt.bExpanded for \x auto. */
#define SQ_EXPANDED_AUTO 2

/* How results print: psql's \pset options that starq has. */
typedef struct sq_popt sq_popt;
struct sq_popt {
  sq_format eFormat;
  int bExpanded;             /* \x: one "column | value" line per field;
                             ** SQ_EXPANDED_AUTO: when wider than the terminal */
  int bTuplesOnly;           /* -t: no header, no footer, no title */
  char zFieldSep[32];        /* -F: unaligned field separator ("|") */
  char zRecordSep[32];       /* -R: unaligned record separator ("\n") */
};

/* A table to print, from a result or built by \d: cells are borrowed.
** azCell holds nRow * nCol entries, row by row; NULL is SQL NULL (printed
** empty). acAlign holds 'l' or 'r' per column (numbers go right).
** azFooter (nFooter lines) replaces the default "(N rows)" footer when
** bDefaultFooter is 0. */
typedef struct sq_table sq_table;
struct sq_table {
  const char *zTitle;        /* printed above, centred; NULL for none */
  int nCol;
  int nRow;
  const char *const *azHeader;
  const char *const *azCell;
  const char *acAlign;
  int bDefaultFooter;        /* print "(N rows)" */
  const char *const *azFooter;
  int nFooter;
  int bNoExpand;             /* print aligned even under \x (as \d does) */
};

int sq_print_table(FILE *out, const sq_table *t, const sq_popt *o);
int sq_print_result(FILE *out, const PGresult *res, const sq_popt *o);
int sq_print_rows(FILE *out, const PGresult *res, const int *aiRow, int nRow, const char *zTitle,
                  const sq_popt *o);
int sq_type_is_numeric(Oid iType);
const char *sq_bytes_text(char *zBuf, size_t nBuf, double rBytes);

/* ---- display width (width.c) ------------------------------------------ */

/* One display line of a cell. */
typedef struct sq_line sq_line;
struct sq_line {
  char *z;                   /* the text, tabs expanded, controls escaped; owned */
  int nWidth;                /* its display width in columns */
};

int sq_char_width(unsigned cp);
int sq_utf8_decode(const char *z, size_t n, unsigned *pcp);
int sq_text_width(const char *z);
int sq_cell_format(const char *z, sq_line **paLine, int *pnLine, int *pnWidth);
void sq_cell_free(sq_line *aLine, int nLine);

/* ---- the statement splitter (split.c) ---------------------------------- */

/* Where the scanner is between calls. */
typedef enum sq_lex {
  SQ_LEX_NORMAL,             /* SQL text */
  SQ_LEX_QUOTE,              /* '...' */
  SQ_LEX_EQUOTE,             /* E'...' (backslash escapes) */
  SQ_LEX_IDENT,              /* "..." */
  SQ_LEX_COMMENT,            /* block comment, nested nComment deep */
  SQ_LEX_DOLLAR              /* $tag$ ... $tag$ */
} sq_lex;

/* What sq_split_scan() stopped at. */
typedef enum sq_scan {
  SQ_SCAN_EOL,               /* the line is used up; the statement goes on */
  SQ_SCAN_SEMI,              /* a ';' ended a statement: sq_split_take() */
  SQ_SCAN_META               /* a backslash at *piPos starts a meta-command */
} sq_scan;

/* The statement collected so far, and the scanner's state. */
typedef struct sq_split sq_split;
struct sq_split {
  strbuf query;              /* the statement's text; owned */
  sq_lex eLex;
  int nComment;              /* block comments open */
  int nParen;                /* parentheses open */
  char *zTag;                /* the dollar quote's "$tag$" in SQ_LEX_DOLLAR; owned */
  int bToken;                /* query holds more than blanks and comments */
};

void sq_split_init(sq_split *p);
void sq_split_free(sq_split *p);
void sq_split_reset(sq_split *p);
void sq_split_newline(sq_split *p);
sq_scan sq_split_scan(sq_split *p, const char *zLine, size_t *piPos);
char *sq_split_take(sq_split *p);
int sq_split_pending(const sq_split *p);
char sq_split_prompt(const sq_split *p);
int sq_split_count(const char *zSql);

/* ---- flags and variables (args.c) -------------------------------------- */

/* One -v NAME=VALUE or \set NAME VALUE. */
typedef struct sq_var sq_var;
struct sq_var {
  char *zName;               /* owned */
  char *zValue;              /* owned */
};

typedef struct sq_vars sq_vars;
struct sq_vars {
  sq_var *a;                 /* owned */
  int n;
};

int sq_vars_set(sq_vars *p, const char *zName, const char *zValue, char *zErr, size_t nErr);
int sq_vars_unset(sq_vars *p, const char *zName, char *zErr, size_t nErr);
const char *sq_vars_get(const sq_vars *p, const char *zName);
int sq_vars_bool(const sq_vars *p, const char *zName);
int sq_bool_parse(const char *z, int *pb);
void sq_vars_free(sq_vars *p);

/* A -c or -f, run in the order given. */
typedef struct sq_action sq_action;
struct sq_action {
  int bFile;                 /* 1: -f FILE; 0: -c COMMAND */
  const char *zArg;          /* borrowed from argv */
};

/* What the command line said. Strings are borrowed from argv. */
typedef struct sq_args sq_args;
struct sq_args {
  const char *zHost;         /* -h; NULL: PGHOST, else 127.0.0.1 */
  const char *zPort;         /* -p; NULL: PGPORT, else 5433 */
  const char *zUser;         /* -U; NULL: PGUSER, else starq */
  const char *zDb;           /* -d (a name or a connection string) */
  const char *zOutput;       /* -o FILE */
  sq_action *aAction;        /* owned */
  int nAction;
  sq_popt popt;
  sq_vars vars;              /* -v; owned (handed to the session) */
  int bQuiet;                /* -q */
  int bNoPassword;           /* -w: never prompt for a password */
  int bForcePassword;        /* -W: prompt before connecting */
  int bNoReadline;           /* -n: no libedit at a terminal */
  int bHelp;
  int bVersion;
};

int sq_args_parse(sq_args *p, int argc, char **argv, char *zErr, size_t nErr);
void sq_args_free(sq_args *p);
void sq_args_usage(FILE *out);

/* ---- the session --------------------------------------------------------- */

typedef struct sq_source sq_source;

/* Everything one run of starq holds: the connection, the settings the
** meta-commands change, where output goes and where input comes from. */
typedef struct sq_session sq_session;
struct sq_session {
  /* The server */
  PGconn *pConn;             /* owned; NULL when no connection is left */
  const sq_args *pArgs;      /* how to connect again; borrowed */
  int bConnLost;             /* a non-interactive run lost its connection */

  /* Settings */
  sq_popt popt;
  sq_vars vars;              /* owned */
  int bQuiet;                /* no command tags, no "Timing is on." */
  int bTiming;               /* \timing */
  int bExplain;              /* \explain */
  int bInteractive;          /* reading a terminal: prompts, no exit on error */

  /* Output */
  FILE *pOut;                /* results: stdout, or the \o / -o file */
  int bOutOwned;             /* pOut is a file we opened */

  /* Input, for messages and COPY FROM STDIN */
  sq_source *pSource;        /* the input being read; NULL for -c */
  const char *zInputName;    /* the script being read, for "starq:FILE:LINE: " */
  long iLine;                /* the line of it being run */
  int nDepth;                /* \i nesting */
  int bQuit;                 /* \q: stop reading, everywhere */

  /* COPY data of the statement running (\copy) */
  FILE *pCopyFile;           /* the \copy file; borrowed; NULL: none */
  int bCopyStdin;            /* \copy ... pstdin: starq's own stdin */
};

void sq_session_init(sq_session *s, sq_args *pArgs);
void sq_session_close(sq_session *s);
int sq_output_set(sq_session *s, const char *zFile);

/* ---- connecting (connect.c) --------------------------------------------- */

int sq_connect(sq_session *s);
int sq_conn_check(sq_session *s);
void sq_conninfo_print(sq_session *s);

/* ---- input (input.c) ----------------------------------------------------- */

sq_source *sq_source_file(FILE *f, const char *zName, int bOwned);
sq_source *sq_source_terminal(const char *zHistory);
char *sq_source_read(sq_source *p, const char *zPrompt);
void sq_source_history_add(sq_source *p, const char *zEntry);
int sq_source_is_terminal(const sq_source *p);
const char *sq_source_name(const sq_source *p);
long sq_source_line(const sq_source *p);
void sq_source_close(sq_source *p);

/* ---- the main loop (loop.c) ---------------------------------------------- */

int sq_loop_run(sq_session *s, sq_source *pSrc);
int sq_loop_file(sq_session *s, const char *zFile);
int sq_loop_command(sq_session *s, const char *zCommand);

/* ---- running statements (run.c, copy.c) -------------------------------- */

int sq_run_query(sq_session *s, const char *zSql);
PGresult *sq_run_hidden(sq_session *s, const char *zSql);
int sq_copy_in(sq_session *s);
int sq_copy_out(sq_session *s);
int sq_copy_meta(sq_session *s, const char *zArgs);
int sq_cancel_install(void);
int sq_cancel_pressed(void);
void sq_cancel_begin(sq_session *s);
void sq_cancel_end(void);

/* ---- meta-commands (meta.c, describe.c, explain.c, status.c) ------------ */

/* What a meta-command asks of the loop. */
typedef enum sq_meta {
  SQ_META_OK,                /* done */
  SQ_META_ERROR,             /* failed (counts for ON_ERROR_STOP) */
  SQ_META_QUIT,              /* \q */
  SQ_META_SEND,              /* \g: send the statement collected so far */
  SQ_META_RESET              /* \r: discard it */
} sq_meta;

sq_meta sq_meta_run(sq_session *s, const char *zLine, size_t *piPos);
void sq_meta_help(FILE *out);
sq_meta sq_describe_tables(sq_session *s, const char *zPattern);
sq_meta sq_describe_table(sq_session *s, const char *zName);
int sq_explain_after(sq_session *s, const char *zSql);
sq_meta sq_status_print(sq_session *s);

/* ---- messages (errors.c) ------------------------------------------------- */

/* The fields of a server error or notice that its message is made from. */
typedef struct sq_errinfo sq_errinfo;
struct sq_errinfo {
  const char *zSeverity;     /* "ERROR", "NOTICE" ... */
  const char *zPrimary;      /* the message */
  const char *zDetail;       /* or NULL */
  const char *zHint;         /* or NULL */
  const char *zContext;      /* or NULL */
  int iPosition;             /* 1-based character position in zQuery; 0: none */
  const char *zQuery;        /* the statement the position is in; or NULL */
};

void sq_error_position(strbuf *pOut, const char *zQuery, int iPos);
void sq_error_format(strbuf *pOut, const sq_errinfo *p);
void sq_error_from_result(sq_errinfo *p, const PGresult *res, const char *zQuery);
void sq_error_report(sq_session *s, const PGresult *res, const char *zQuery);
void sq_notice_receiver(void *pArg, const PGresult *res);
void sq_report_text(const sq_session *s, const char *zMsg);
void sq_report(const sq_session *s, const char *zFmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* STARQ_CLIENT_CLI_H */
