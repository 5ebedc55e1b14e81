/*
** clients/cli/loop.c — the session and its main loop, psql's MainLoop:
** lines in from a source, through the splitter, statements and
** meta-commands out, in order, until the input ends or \q.
**
** The loop decides what a failure means, by psql's rules. In a script
** (a file or a pipe) a failed statement or meta-command prints its error
** and the script goes on, unless ON_ERROR_STOP is set: then the script
** stops and starq exits 3. A lost connection ends a script with exit 2.
** At a terminal nothing stops the loop but \q or the end of input. A text
** left without its ';' at the end of a script is sent anyway; at a
** terminal it is dropped. -c runs its text as one query string (all its
** results printed), or as meta-commands if it starts with a backslash.
**
** INTERFACE ROUTINES
**   sq_session_init / sq_session_close   a session's settings and output
**   sq_output_set     \o FILE, -o FILE: where results go
**   sq_loop_run       read a source to its end
**   sq_loop_file      -f FILE, \i FILE
**   sq_loop_command   -c COMMAND
*/
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* How deep \i may nest: a file that includes itself stops here. */
#define LOOP_DEPTH_MAX 32

/* Sets up s from the command line; the variables move from *pArgs to
** the session. */
void sq_session_init(sq_session *s, sq_args *pArgs) {
  memset(s, 0, sizeof(*s));
  s->pArgs = pArgs;
  s->popt = pArgs->popt;
  s->vars = pArgs->vars;
  memset(&pArgs->vars, 0, sizeof(pArgs->vars));
  s->bQuiet = pArgs->bQuiet || sq_vars_bool(&s->vars, "QUIET");
  s->pOut = stdout;
}

/* Closes the connection and the output file. */
void sq_session_close(sq_session *s) {
  sq_output_set(s, NULL);
  if (s->pConn != NULL) PQfinish(s->pConn);
  s->pConn = NULL;
  sq_vars_free(&s->vars);
}

/* Sends results to zFile from now on (NULL: back to stdout). Returns 0,
** or -1 if the file cannot be opened (reported; output stays as it was). */
int sq_output_set(sq_session *s, const char *zFile) {
  FILE *f = stdout;
  if (zFile != NULL && zFile[0] == '|') {
    sq_report(s, "\\o: output to a program is not supported by starq");
    return -1;
  }
  if (zFile != NULL && (f = fopen(zFile, "w")) == NULL) {
    sq_report(s, "%s: %s", zFile, strerror(errno));
    return -1;
  }
  if (s->bOutOwned && fclose(s->pOut) != 0) {
    sq_report(s, "could not write the output file: %s", strerror(errno));
  }
  s->pOut = f;
  s->bOutOwned = f != stdout;
  return 0;
}

/* What the loop does after a statement or meta-command failed. Returns
** 1 if it must stop, setting *pRc. */
static int loop_failed(sq_session *s, int *pRc) {
  if (s->bConnLost) {
    *pRc = SQ_EXIT_BADCONN;
    return 1;
  }
  if (!s->bInteractive && sq_vars_bool(&s->vars, "ON_ERROR_STOP")) {
    *pRc = SQ_EXIT_USER;
    return 1;
  }
  return 0;
}

/* Runs the statement collected in sp (if it holds one). Returns 0, or -1
** if it failed. */
static int loop_send(sq_session *s, sq_split *sp, sq_source *pSrc) {
  char *zSql;
  int rc;
  if (!sq_split_pending(sp)) {
    sq_split_reset(sp);
    return 0;
  }
  zSql = sq_split_take(sp);
  if (zSql == NULL) {
    sq_report(s, "out of memory");
    return -1;
  }
  sq_source_history_add(pSrc, zSql);
  rc = sq_run_query(s, zSql);
  free(zSql);
  return rc;
}

/* The words psql takes alone on a line at the start of a statement. */
static int loop_bare_word(sq_session *s, const char *zLine) {
  if (strcmp(zLine, "quit") == 0 || strcmp(zLine, "exit") == 0) {
    s->bQuit = 1;
    return 1;
  }
  if (strcmp(zLine, "help") == 0) {
    printf("You are using starq, the command-line interface to starq.\n"
           "Type:  \\? for help with starq commands\n"
           "       \\q to quit\n");
    return 1;
  }
  return 0;
}

/* Reads pSrc to its end (or \q, or a stop). Returns SQ_EXIT_OK,
** SQ_EXIT_USER (ON_ERROR_STOP, or Ctrl-C in a script) or SQ_EXIT_BADCONN. */
int sq_loop_run(sq_session *s, sq_source *pSrc) {
  sq_source *pOldSrc = s->pSource;
  const char *zOldName = s->zInputName;
  long iOldLine = s->iLine;
  sq_split sp;
  char *zLine;
  int rc = SQ_EXIT_OK, bStop = 0;
  sq_split_init(&sp);
  s->pSource = pSrc;
  if (!sq_source_is_terminal(pSrc)) s->zInputName = sq_source_name(pSrc);
  while (!bStop && !s->bQuit) {
    char zPrompt[96];
    size_t iPos = 0;
    snprintf(zPrompt, sizeof(zPrompt), "%s%c> ", s->pConn ? PQdb(s->pConn) : "!",
             sq_split_prompt(&sp));
    zLine = sq_source_read(pSrc, zPrompt);
    if (zLine == NULL) {
      if (sq_source_is_terminal(pSrc) && !s->bQuiet) puts("\\q");
      break;
    }
    s->iLine = sq_source_line(pSrc);
    /* Ctrl-C at the prompt discards the statement typed so far. */
    if (s->bInteractive && sq_cancel_pressed()) sq_split_reset(&sp);
    if (s->bInteractive && sp.query.n == 0 && loop_bare_word(s, zLine)) {
      free(zLine);
      continue;
    }
    sq_split_newline(&sp);
    while (!bStop && !s->bQuit) {
      sq_scan e = sq_split_scan(&sp, zLine, &iPos);
      int bFailed = 0;
      if (e == SQ_SCAN_EOL) break;
      if (e == SQ_SCAN_SEMI) {
        bFailed = loop_send(s, &sp, pSrc) != 0;
      } else {
        size_t iStart = iPos;
        sq_meta m = sq_meta_run(s, zLine, &iPos);
        if (sq_source_is_terminal(pSrc) && sp.query.n == 0) {
          char *zCmd = strndup(zLine + iStart, iPos - iStart);
          if (zCmd != NULL) sq_source_history_add(pSrc, zCmd);
          free(zCmd);
        }
        if (m == SQ_META_QUIT) s->bQuit = 1;
        else if (m == SQ_META_SEND) bFailed = loop_send(s, &sp, pSrc) != 0;
        else if (m == SQ_META_RESET) sq_split_reset(&sp);
        else if (m == SQ_META_ERROR) bFailed = 1;
      }
      if (s->bConnLost || (bFailed && loop_failed(s, &rc))) {
        if (s->bConnLost) rc = SQ_EXIT_BADCONN;
        bStop = 1;
      } else if (!s->bInteractive && sq_cancel_pressed()) {
        rc = SQ_EXIT_USER;
        bStop = 1;
      }
    }
    free(zLine);
  }
  /* A script's last statement may lack its ';'. */
  if (!bStop && !s->bQuit && !s->bInteractive && sq_split_pending(&sp)) {
    if (loop_send(s, &sp, pSrc) != 0) loop_failed(s, &rc);
  }
  if (s->bConnLost) rc = SQ_EXIT_BADCONN;
  sq_split_free(&sp);
  s->pSource = pOldSrc;
  s->zInputName = zOldName;
  s->iLine = iOldLine;
  return rc;
}

/* Runs the commands of zFile ("-": standard input). Returns an exit code;
** SQ_EXIT_FAILURE if the file cannot be opened (reported). */
int sq_loop_file(sq_session *s, const char *zFile) {
  int bStdin = strcmp(zFile, "-") == 0, rc;
  FILE *f = bStdin ? stdin : fopen(zFile, "r");
  sq_source *pSrc;
  if (f == NULL) {
    if (s->nDepth == 0) fprintf(stderr, "starq: error: %s: %s\n", zFile, strerror(errno));
    else sq_report(s, "%s: %s", zFile, strerror(errno));
    return SQ_EXIT_FAILURE;
  }
  if (s->nDepth >= LOOP_DEPTH_MAX) {
    sq_report(s, "%s: \\i nested more than %d deep", zFile, LOOP_DEPTH_MAX);
    if (!bStdin) fclose(f);
    return SQ_EXIT_FAILURE;
  }
  pSrc = sq_source_file(f, bStdin ? "<stdin>" : zFile, !bStdin);
  if (pSrc == NULL) {
    if (!bStdin) fclose(f);
    sq_report(s, "out of memory");
    return SQ_EXIT_FAILURE;
  }
  s->nDepth++;
  rc = sq_loop_run(s, pSrc);
  s->nDepth--;
  sq_source_close(pSrc);
  return rc;
}

/* Runs one -c: meta-commands if it starts with a backslash, else the
** whole text as one query string. Returns SQ_EXIT_OK, SQ_EXIT_FAILURE if
** it failed, or SQ_EXIT_BADCONN. */
int sq_loop_command(sq_session *s, const char *zCommand) {
  int bFailed = 0;
  if (zCommand[0] == '\\') {
    size_t iPos = 0, n = strlen(zCommand);
    while (iPos < n && !s->bQuit) {
      sq_meta m;
      while (zCommand[iPos] == ' ' || zCommand[iPos] == '\t' || zCommand[iPos] == '\n') iPos++;
      if (zCommand[iPos] != '\\') break;
      m = sq_meta_run(s, zCommand, &iPos);
      if (m == SQ_META_QUIT) s->bQuit = 1;
      if (m == SQ_META_ERROR) bFailed = 1;
    }
  } else {
    bFailed = sq_run_query(s, zCommand) != 0;
  }
  if (s->bConnLost) return SQ_EXIT_BADCONN;
  return bFailed ? SQ_EXIT_FAILURE : SQ_EXIT_OK;
}
