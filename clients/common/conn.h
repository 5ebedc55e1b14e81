/*
** clients/common/conn.h — where starq's clients connect when nothing says
** otherwise, kept in one place for starq (clients/cli/connect.c) and
** starq-bench (clients/bench/server.c).
**
** Each of host, port, user and database comes from its flag; failing that
** from its PG* variable, which libpq reads itself when it is given NULL;
** failing that from starq's default (127.0.0.1, 5433, starq, starq) rather
** than libpq's (a Unix socket and port 5432, where starqd does not listen).
**
** Header only, so that each program's own source list links it without a
** library of its own.
**
** INTERFACE ROUTINES
**   client_conn_params   the keywords above, ready for PQconnectdbParams
*/
#ifndef STARQ_CLIENTS_CONN_H
#define STARQ_CLIENTS_CONN_H

#include <stdlib.h>

#define CLIENT_CONN_NPARAM 5 /* entries client_conn_params writes */

/* Returns the value for a connection keyword: zFlag if given, NULL when
** the variable zEnv is set (libpq then reads it), else zDefault. */
static inline const char *client_conn__param(const char *zFlag, const char *zEnv, const char *zDefault) {
  if (zFlag != NULL) return zFlag;
  return getenv(zEnv) != NULL ? NULL : zDefault;
}

/* Writes host, port, user, password and dbname, in that order, into
** azKey and azVal from the flags given (each NULL if not given) and
** returns CLIENT_CONN_NPARAM. dbname comes last so that a connection
** string given as -d (with expand_dbname) overrides what precedes it. A
** NULL zPassword leaves the password to libpq (PGPASSWORD, ~/.pgpass). */
static inline int client_conn_params(const char **azKey, const char **azVal, const char *zHost,
                                     const char *zPort, const char *zUser, const char *zPassword,
                                     const char *zDb) {
  azKey[0] = "host";
  azVal[0] = client_conn__param(zHost, "PGHOST", "127.0.0.1");
  azKey[1] = "port";
  azVal[1] = client_conn__param(zPort, "PGPORT", "5433");
  azKey[2] = "user";
  azVal[2] = client_conn__param(zUser, "PGUSER", "starq");
  azKey[3] = "password";
  azVal[3] = zPassword;
  azKey[4] = "dbname";
  azVal[4] = client_conn__param(zDb, "PGDATABASE", "starq");
  return CLIENT_CONN_NPARAM;
}

#endif /* STARQ_CLIENTS_CONN_H */
