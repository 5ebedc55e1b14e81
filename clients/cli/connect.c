/*
** clients/cli/connect.c — the connection to the server: made from the
** flags, the PG* environment variables and starq's defaults; a password
** asked for when the server wants one; checked after each statement.
**
** The flags, PG* variables and defaults are weighed as in
** clients/common/conn.h, shared with starq-bench. -d may be a connection
** string or URI: libpq expands it, and what it says wins over those
** defaults (they come before it in the keyword list).
**
** A connection that goes bad ends a script with exit code 2; at a
** terminal starq tries once to reconnect, as psql does.
**
** INTERFACE ROUTINES
**   sq_connect          connect (asking for a password if need be)
**   sq_conn_check       after a statement: is the connection still good?
**   sq_conninfo_print   \conninfo
*/
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "../common/conn.h"
#include "cli.h"

/* Reads a password from the terminal with echo off into zOut. Returns 0,
** or -1 when there is no terminal to ask. */
static int connect_password_read(const char *zUser, char *zOut, size_t nOut) {
  FILE *f = fopen("/dev/tty", "r+");
  struct termios old, quiet;
  int bTerm;
  size_t n;
  if (f == NULL) return -1;
  fprintf(f, "Password for user %s: ", zUser ? zUser : "starq");
  fflush(f);
  bTerm = tcgetattr(fileno(f), &old) == 0;
  if (bTerm) {
    quiet = old;
    quiet.c_lflag &= ~(tcflag_t)ECHO;
    if (tcsetattr(fileno(f), TCSAFLUSH, &quiet) != 0) bTerm = 0;
  }
  if (fgets(zOut, (int)nOut, f) == NULL) zOut[0] = 0;
  if (bTerm && tcsetattr(fileno(f), TCSAFLUSH, &old) != 0) {
    fputs("starq: warning: could not restore the terminal's echo\n", stderr);
  }
  fputc('\n', f);
  fclose(f);
  n = strlen(zOut);
  while (n > 0 && (zOut[n - 1] == '\n' || zOut[n - 1] == '\r')) zOut[--n] = 0;
  return 0;
}

/* Makes one connection attempt with zPassword (NULL: libpq's own). */
static PGconn *connect_try(const sq_args *a, const char *zPassword) {
  const char *azKey[CLIENT_CONN_NPARAM + 3], *azVal[CLIENT_CONN_NPARAM + 3];
  int n = client_conn_params(azKey, azVal, a->zHost, a->zPort, a->zUser, zPassword, a->zDb);
  azKey[n] = "fallback_application_name";
  azVal[n++] = "starq";
  azKey[n] = "client_encoding";
  azVal[n++] = "UTF8";
  azKey[n] = NULL;
  azVal[n] = NULL;
  return PQconnectdbParams(azKey, azVal, 1);
}

/* Connects as the flags say into s->pConn, asking for a password at the
** terminal if the server wants one and -w was not given. Returns 0, or -1
** after printing why (s->pConn is then NULL). */
int sq_connect(sq_session *s) {
  const sq_args *a = s->pArgs;
  char zPassword[256];
  int bAsked = 0;
  PGconn *pConn;
  if (a->bForcePassword && connect_password_read(a->zUser, zPassword, sizeof(zPassword)) == 0) {
    bAsked = 1;
  }
  pConn = connect_try(a, bAsked ? zPassword : NULL);
  if (pConn != NULL && PQstatus(pConn) == CONNECTION_BAD && PQconnectionNeedsPassword(pConn) &&
      !bAsked && !a->bNoPassword &&
      connect_password_read(PQuser(pConn), zPassword, sizeof(zPassword)) == 0) {
    PQfinish(pConn);
    pConn = connect_try(a, zPassword);
  }
  memset(zPassword, 0, sizeof(zPassword));
  if (pConn == NULL) {
    fprintf(stderr, "starq: error: out of memory\n");
    return -1;
  }
  if (PQstatus(pConn) != CONNECTION_OK) {
    fprintf(stderr, "starq: error: %s", PQerrorMessage(pConn));
    PQfinish(pConn);
    return -1;
  }
  PQsetNoticeReceiver(pConn, sq_notice_receiver, s);
  s->pConn = pConn;
  return 0;
}

/* Checks the connection after a statement. Returns 0 if it is good; -1
** if it is gone: a script is marked to end with exit code 2, while at a
** terminal starq tries to reconnect (and goes on without a connection if
** that fails). */
int sq_conn_check(sq_session *s) {
  if (s->pConn != NULL && PQstatus(s->pConn) == CONNECTION_OK) return 0;
  if (!s->bInteractive) {
    sq_report(s, "connection to server was lost");
    s->bConnLost = 1;
    return -1;
  }
  fputs("The connection to the server was lost. Attempting reset: ", stderr);
  if (s->pConn != NULL) {
    PQreset(s->pConn);
    if (PQstatus(s->pConn) == CONNECTION_OK) {
      fputs("Succeeded.\n", stderr);
      return -1;
    }
    PQfinish(s->pConn);
    s->pConn = NULL;
  }
  fputs("Failed.\n", stderr);
  return -1;
}

/* \conninfo: where the session is connected, in psql's words. */
void sq_conninfo_print(sq_session *s) {
  if (s->pConn == NULL) {
    printf("You are currently not connected to a database.\n");
    return;
  }
  printf("You are connected to database \"%s\" as user \"%s\" on host \"%s\" at port \"%s\".\n",
         PQdb(s->pConn), PQuser(s->pConn), PQhost(s->pConn), PQport(s->pConn));
}
