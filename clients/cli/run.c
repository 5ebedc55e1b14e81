/*
** clients/cli/run.c — one statement (or a -c string of several) sent to
** the server, and every result it gives back printed as it arrives, as
** psql 15 prints them: rows as a table, a command's tag ("CREATE TABLE",
** "COPY 3") unless -q, an error in libpq's shape, COPY data pumped from
** or to where it belongs. \timing adds "Time: 1.234 ms" (send to last
** result, printing not counted), \explain the plan and the server's
** figures after a SELECT.
**
** Ctrl-C while a statement runs sends the server a cancel request; the
** handler only calls PQcancel(), which is safe in a signal handler, and
** sets a flag the loop reads.
**
** INTERFACE ROUTINES
**   sq_run_query     run SQL text, print its results; 0 if all went well
**   sq_run_hidden    run a query of the client's own (\d, \status), no printing
**   sq_cancel_begin / sq_cancel_end   Ctrl-C cancels the statement between them
**   sq_cancel_install / sq_cancel_pressed   the SIGINT handler and its flag
*/
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"

/* The cancel object of the statement running, for the signal handler. */
static PGcancel *volatile run_pCancel;
static volatile sig_atomic_t run_bCancelPressed;

/* SIGINT: cancel the statement running, and note the press. */
static void run_sigint(int iSig) {
  PGcancel *p = run_pCancel;
  char zErr[256];
  (void)iSig;
  run_bCancelPressed = 1;
  if (p != NULL) (void)PQcancel(p, zErr, sizeof(zErr));
}

/* Installs the SIGINT handler. Returns 0, or -1 if sigaction failed. */
int sq_cancel_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = run_sigint;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  return sigaction(SIGINT, &sa, NULL);
}

/* Returns 1 if Ctrl-C was pressed since the last call, and clears it. */
int sq_cancel_pressed(void) {
  int b = run_bCancelPressed;
  run_bCancelPressed = 0;
  return b;
}

/* Swaps the handler's cancel object with SIGINT blocked, so the handler
** never sees one being freed. Returns the old one. */
static PGcancel *run_cancel_swap(PGcancel *pNew) {
  sigset_t block, old;
  PGcancel *pOld;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigprocmask(SIG_BLOCK, &block, &old);
  pOld = run_pCancel;
  run_pCancel = pNew;
  sigprocmask(SIG_SETMASK, &old, NULL);
  return pOld;
}

/* From here until sq_cancel_end(), Ctrl-C cancels s's statement. */
void sq_cancel_begin(sq_session *s) {
  PQfreeCancel(run_cancel_swap(s->pConn ? PQgetCancel(s->pConn) : NULL));
}

void sq_cancel_end(void) {
  PQfreeCancel(run_cancel_swap(NULL));
}

/* Seconds on a monotonic clock. */
static double run_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Prints "Time: ..." as psql's \timing does: milliseconds, and from one
** second on the same as [[dd ]hh:]mm:ss.sss too. */
static void run_timing_print(double rMs) {
  double rSec, rMin, rHour, rDay;
  if (rMs < 1000.0) {
    printf("Time: %.3f ms\n", rMs);
    return;
  }
  rSec = rMs / 1000.0;
  rMin = floor(rSec / 60.0);
  rSec -= 60.0 * rMin;
  if (rMin < 60.0) {
    printf("Time: %.3f ms (%02d:%06.3f)\n", rMs, (int)rMin, rSec);
    return;
  }
  rHour = floor(rMin / 60.0);
  rMin -= 60.0 * rHour;
  if (rHour < 24.0) {
    printf("Time: %.3f ms (%02d:%02d:%06.3f)\n", rMs, (int)rHour, (int)rMin, rSec);
    return;
  }
  rDay = floor(rHour / 24.0);
  rHour -= 24.0 * rDay;
  printf("Time: %.3f ms (%.0f d %02d:%02d:%06.3f)\n", rMs, rDay, (int)rHour, (int)rMin, rSec);
}

/* Returns 1 if the SQL text is a single SELECT (or WITH ... SELECT):
** what \explain explains. */
static int run_is_select(const char *zSql) {
  const char *z = zSql;
  for (;;) {
    while (isspace((unsigned char)*z) || *z == '(') z++;
    if (z[0] == '-' && z[1] == '-') {
      z = strchr(z, '\n');
      if (z == NULL) return 0;
    } else if (z[0] == '/' && z[1] == '*') {
      z = strstr(z + 2, "*/");
      if (z == NULL) return 0;
      z += 2;
    } else {
      break;
    }
  }
  if (strncasecmp(z, "select", 6) != 0 && strncasecmp(z, "with", 4) != 0) return 0;
  return sq_split_count(zSql) == 1;
}

/* Handles one result of zSql. Returns 0, or -1 if it is an error (the
** message is printed). *pnRows counts result sets with rows. */
static int run_result(sq_session *s, const PGresult *res, const char *zSql, int *pnRows) {
  switch (PQresultStatus(res)) {
    case PGRES_TUPLES_OK:
      (*pnRows)++;
      if (sq_print_result(s->pOut, res, &s->popt) != 0) {
        sq_report(s, "out of memory printing the result");
        return -1;
      }
      return 0;
    case PGRES_COMMAND_OK:
      if (!s->bQuiet) {
        fprintf(s->pOut, "%s\n", PQcmdStatus((PGresult *)res));
        fflush(s->pOut);
      }
      return 0;
    case PGRES_EMPTY_QUERY:
      return 0;
    case PGRES_COPY_IN:
      return sq_copy_in(s);
    case PGRES_COPY_OUT:
      return sq_copy_out(s);
    default:
      sq_error_report(s, res, zSql);
      return -1;
  }
}

/* Sends zSql (one statement, or several as -c gives them) and prints each
** result. Returns 0 if every one succeeded, -1 otherwise (the error is
** printed; s->bConnLost says whether the connection went with it). */
int sq_run_query(sq_session *s, const char *zSql) {
  double tStart, tPrint = 0;
  int rc = 0, nRows = 0;
  PGresult *res;
  if (s->pConn == NULL) {
    sq_report(s, "You are currently not connected to a database.");
    return -1;
  }
  tStart = run_now();
  sq_cancel_begin(s);
  if (!PQsendQuery(s->pConn, zSql)) {
    sq_cancel_end();
    sq_error_report(s, NULL, zSql);
    sq_conn_check(s);
    return -1;
  }
  while ((res = PQgetResult(s->pConn)) != NULL) {
    double t = run_now();
    if (run_result(s, res, zSql, &nRows) != 0) rc = -1;
    PQclear(res);
    tPrint += run_now() - t;
  }
  sq_cancel_end();
  if (s->bTiming) run_timing_print((run_now() - tStart - tPrint) * 1000.0);
  if (sq_conn_check(s) != 0) return -1;
  if (rc == 0 && s->bExplain && nRows == 1 && run_is_select(zSql)) rc = sq_explain_after(s, zSql);
  return rc;
}

/* Runs a query of the client's own (\d's catalog queries, SHOW for
** \status) and returns its result, which the caller clears; NULL after
** printing the error. The connection is checked as after any statement. */
PGresult *sq_run_hidden(sq_session *s, const char *zSql) {
  PGresult *res;
  if (s->pConn == NULL) {
    sq_report(s, "You are currently not connected to a database.");
    return NULL;
  }
  sq_cancel_begin(s);
  res = PQexec(s->pConn, zSql);
  sq_cancel_end();
  if (res == NULL || PQresultStatus(res) != PGRES_TUPLES_OK) {
    sq_error_report(s, res, zSql);
    PQclear(res);
    sq_conn_check(s);
    return NULL;
  }
  return res;
}
