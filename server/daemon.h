/*
** server/daemon.h — starqd as a whole: one libuv loop serving the SQL
** port (a pg_session per connection, conn.c) and the status port
** (http-conn.h), with queries on the executor threads (pool.h,
** stmt.h, executor.h).
**
** Lifecycle: daemon_open() opens the executor (catalog, backend, preload)
** and binds both ports; daemon_run() runs the loop until shutdown.
** SIGTERM or SIGINT starts a graceful shutdown: the listeners close,
** idle sessions get FATAL 57P01, sessions with a query running get it as
** soon as the query ends, and the loop ends when every connection has
** closed. A second signal exits at once.
**
** INTERFACE ROUTINES
**   daemon_open / daemon_run / daemon_close
*/
#ifndef STARQ_DAEMON_H
#define STARQ_DAEMON_H

#include "config.h"

typedef struct starqd starqd;

/* Opens everything cfg names. Returns 0, or -1 with zErr. */
int daemon_open(starqd **pp, const daemon_config *pCfg, char *zErr, size_t nErr);

/* Runs the loop until shutdown. Returns 0, or -1 if the loop failed. */
int daemon_run(starqd *d);

void daemon_close(starqd *d);

#endif /* STARQ_DAEMON_H */
