/*
** tests/pgrefInt.h — what pgref.c and pgref-load.c share: the fixture's
** state and its error helpers.
*/
#ifndef STARQ_TESTS_PGREF_INT_H
#define STARQ_TESTS_PGREF_INT_H

#include <limits.h>
#include <sys/types.h>

#include "pgref.h"

struct pgref {
  char zDir[PATH_MAX];     /* absolute: the cluster's folder (data/, socket, logs) */
  char zData[PATH_MAX];    /* zDir/data */
  char zInfo[PATH_MAX + 64]; /* conninfo for database starq */
  int bSwitch;             /* 1: children run as uid/gid (we are root) */
  uid_t uid;
  gid_t gid;
  pid_t pid;               /* the postmaster, our child; 0 once stopped */
  PGconn *pConn;           /* to database starq; owned */
  pgref_timing timing;
};

/* Formats an error into zErr. */
void pgref_err(char *zErr, size_t nErr, const char *zFmt, ...) __attribute__((format(printf, 3, 4)));
/* res's error (or c's) into zErr. */
void pgref_err_result(char *zErr, size_t nErr, const PGresult *res, PGconn *c);

#endif /* STARQ_TESTS_PGREF_INT_H */
