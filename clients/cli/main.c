/*
** clients/cli/main.c — starq, the psql-like command-line client.
**
**   starq [OPTION]... [DBNAME [USERNAME]]
**
** Reads the flags, connects, then runs the -c and -f actions in order, or
** else reads standard input: a terminal interactively (prompt, line
** editing, history), a pipe as a script. The work is in the modules
** cli.h lists.
**
** Exit codes (psql's): 0 ok, 1 a fatal error of starq itself (a bad flag,
** a missing file, a failed -c), 2 the connection could not be made or was
** lost, 3 a script stopped by ON_ERROR_STOP.
*/
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Runs the -c and -f actions in order. Returns the exit code of the last
** one run (an ON_ERROR_STOP failure stops there, as psql does). */
static int main_actions(sq_session *s, const sq_args *a) {
  int rc = SQ_EXIT_OK;
  for (int i = 0; i < a->nAction && !s->bQuit; i++) {
    rc = a->aAction[i].bFile ? sq_loop_file(s, a->aAction[i].zArg)
                             : sq_loop_command(s, a->aAction[i].zArg);
    if (rc == SQ_EXIT_BADCONN) break;
    if (rc != SQ_EXIT_OK && sq_vars_bool(&s->vars, "ON_ERROR_STOP")) break;
  }
  return rc;
}

/* Reads standard input to its end: interactively at a terminal, else as
** a script. Returns the exit code. */
static int main_stdin(sq_session *s, const sq_args *a) {
  sq_source *pSrc;
  int rc;
  if (s->bInteractive) {
    char zHistory[4096];
    const char *zEnv = getenv("STARQ_HISTORY"), *zHome = getenv("HOME");
    int bHistory = !a->bNoReadline;
    if (zEnv != NULL) snprintf(zHistory, sizeof(zHistory), "%s", zEnv);
    else if (zHome != NULL) snprintf(zHistory, sizeof(zHistory), "%s/.starq_history", zHome);
    else bHistory = 0;
    pSrc = sq_source_terminal(bHistory ? zHistory : NULL);
    if (pSrc != NULL && !s->bQuiet) {
      const char *zServer = PQparameterStatus(s->pConn, "server_version");
      printf("starq (%s, server %s)\nType \"\\?\" for help, \"\\q\" to quit.\n\n", SQ_VERSION,
             zServer ? zServer : "?");
    }
  } else {
    pSrc = sq_source_file(stdin, NULL, 0);
  }
  if (pSrc == NULL) {
    fprintf(stderr, "starq: error: out of memory\n");
    return SQ_EXIT_FAILURE;
  }
  rc = sq_loop_run(s, pSrc);
  sq_source_close(pSrc);
  return rc;
}

int main(int argc, char **argv) {
  sq_args a;
  sq_session s;
  char zErr[512];
  int rc;
  if (sq_args_parse(&a, argc, argv, zErr, sizeof(zErr)) != 0) {
    /* A bad variable was reported already, without the hint (as psql). */
    if (zErr[0] != 0) {
      fprintf(stderr, "starq: %s\n", zErr);
      fprintf(stderr, "starq: hint: Try \"starq --help\" for more information.\n");
    }
    sq_args_free(&a);
    return SQ_EXIT_FAILURE;
  }
  if (a.bHelp || a.bVersion) {
    if (a.bHelp) sq_args_usage(stdout);
    else printf("starq (starq) %s\n", SQ_VERSION);
    sq_args_free(&a);
    return SQ_EXIT_OK;
  }
  sq_session_init(&s, &a);
  s.bInteractive = a.nAction == 0 && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  if (a.zOutput != NULL && sq_output_set(&s, a.zOutput) != 0) {
    rc = SQ_EXIT_FAILURE;
  } else if (sq_cancel_install() != 0) {
    fprintf(stderr, "starq: error: could not install the SIGINT handler\n");
    rc = SQ_EXIT_FAILURE;
  } else if (sq_connect(&s) != 0) {
    rc = SQ_EXIT_BADCONN;
  } else if (a.nAction > 0) {
    rc = main_actions(&s, &a);
  } else {
    rc = main_stdin(&s, &a);
  }
  sq_session_close(&s);
  sq_args_free(&a);
  return rc;
}
