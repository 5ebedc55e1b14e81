/*
** server/session.h — one client connection's PostgreSQL protocol state
** machine, between a transport that moves bytes and an engine that runs
** statements. It never blocks, never touches a socket and never plans or
** executes anything itself.
**
** The daemon (the transport) feeds it the bytes it reads, writes out the
** bytes it produces, and looks at its flags after every call:
**
**   s = pg_session_new(&cfg, &engine);
**   on read:          pg_session_feed(s, buf, n);
**   on job outcome:   pg_session_job_done(s, &outcome);       (loop thread)
**   on write done:    pg_session_output_done(s, n);
**   after each call:  unless a write is in flight, p = pg_session_output(s, &n)
**                     and if p != NULL, write p[0..n) (the bytes stay put
**                     until output_done);
**                     flags = pg_session_flags(s):
**                       PG_SESSION_CLOSE       close once the output is written
**                       PG_SESSION_READ_PAUSE  stop reading until it clears
**                       PG_SESSION_JOB         a job is out with the engine
**   on close:         wait for an outstanding job's pg_session_job_done()
**                     (cancel it through the engine), then pg_session_free(s).
**
** Output is never held back (so Flush needs nothing): whatever the
** session has to say is there to write after the call that produced it.
**
** The engine (pg_engine) is told to start jobs: prepare a statement text,
** execute a statement with bound parameters, take COPY data. It may run
** them anywhere, but reports each outcome back on the loop's thread with
** pg_session_job_done(), possibly before its xJobStart returns. At most one
** job is out at a time; input that arrives meanwhile waits in the session
** (pipelined Parse/Bind/Execute/Sync are worked through one by one as jobs
** finish), and once that backlog passes cfg.nInputHigh the session asks
** for reading to pause.
**
** Result rows come from a result object (pg_result_ops) whose values the
** engine gives as PostgreSQL's text output; the session encodes DataRows
** (binary ones too, from the column's type OID) a few at a time, adding
** rows only while the unwritten output stays within cfg.nOutputHigh (a
** single row larger than that goes out alone), and continues in
** pg_session_output_done() as the socket drains: a slow client stalls only
** itself, and holds at most the high-water mark of encoded output.
**
** What the session does itself: startup (SSLRequest is answered 'S' when
** the daemon does TLS, which it then runs under the session: bytes in and
** out are plain here; else 'N', as GSSENCRequest always is; protocol 3.0, with NegotiateProtocolVersion for newer
** minor versions and _pq_ options), trust or SCRAM-SHA-256 authentication,
** the ParameterStatus set clients need, BackendKeyData, CancelRequest
** (handed to the daemon), splitting a simple Query into statements,
** named and unnamed statements and portals, parameter and result formats,
** row limits and PortalSuspended, skip-to-Sync after an error, transaction
** status (from BEGIN / COMMIT / ROLLBACK tags, or the engine's say), COPY
** FROM STDIN framing, and every protocol error. What it leaves to the
** engine: the meaning of every statement (SET, SHOW, BEGIN and pg_catalog
** queries included) and its parameters' types.
**
** Threads: a session belongs to the loop thread; every function here is
** called there, and none from inside another, except pg_session_job_done()
** from the engine's xJobStart. Job memory (pg_job and what it points to)
** stays valid and unchanged until the job's pg_session_job_done(), so an
** executor thread may read it.
**
** INTERFACE ROUTINES
**   pg_session_config_default  defaults for pg_session_config
**   pg_session_new / _free     a session for one connection
**   pg_session_feed            bytes read from the client
**   pg_session_job_done        the outcome of the job the engine was given
**   pg_session_output / _done  bytes to write, and how many were written
**   pg_session_rows_ready      more rows of a streamed result
**   pg_session_flags           close / pause reading / job out
**   pg_session_fatal           end the session with a FATAL error (shutdown)
**   pg_session_param           a startup parameter (user, database, ...)
**   pg_session_txn_status      'I', 'T' or 'E'
*/
#ifndef STARQ_SESSION_H
#define STARQ_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "../common/strbuf.h"
#include "pgwire.h"

typedef struct pg_session pg_session;

/* ---- configuration (the daemon's, per connection) ---------------------- */

/* Who must authenticate. */
typedef enum pg_auth_policy {
  PG_AUTH_TRUST_LOOPBACK = 0,  /* trust loopback peers, SCRAM for the rest (default) */
  PG_AUTH_TRUST,               /* trust everyone */
  PG_AUTH_SCRAM,               /* SCRAM-SHA-256 for everyone */
} pg_auth_policy;

/* Looks up the SCRAM verifier of user zUser (scram.h's format) into
** zOut[0..nOut). Returns 0, or -1 if the user has none (the exchange is
** then run against a mock verifier and fails, as PostgreSQL does). */
typedef int (*pg_verifier_fn)(void *pCtx, const char *zUser, char *zOut, size_t nOut);

/* A CancelRequest arrived (on a connection of its own, which the session
** then closes): cancel what the session with this key is running, if the
** secret matches. */
typedef void (*pg_cancel_fn)(void *pCtx, int32_t iPid, int32_t iSecret);

/* The client has authenticated (pg_session_param(s, "user"), "database"
** and the rest are there to look at): return 0 to let it in, or -1 with
** *pErr filled (strings that outlive the call) to refuse it with that
** FATAL error (53300 too many connections, 3D000 no such database, 57P03
** starting up). */
typedef int (*pg_accept_fn)(void *pCtx, pg_session *s, pgwire_error *pErr);

/* The session ends with a FATAL error (zState, zMsg), which it sends now:
** for the daemon's log and its count of failed logins (28P01, 28000). */
typedef void (*pg_fatal_fn)(void *pCtx, pg_session *s, const char *zState, const char *zMsg);

typedef struct pg_session_config pg_session_config;
struct pg_session_config {
  /* Limits */
  uint32_t nMaxMessage;    /* largest frontend message, length word included;
                           ** larger ones end the session with 54000 */
  size_t nOutputHigh;      /* rows are encoded while unwritten output is below this */
  size_t nInputHigh;       /* READ_PAUSE when this much input waits behind a job */
  int nMaxStatements;      /* named prepared statements per session (54000 beyond) */
  int nMaxPortals;         /* named portals per session (54000 beyond) */
  size_t nCopyChunk;       /* CopyData bytes handed to the engine per job, at most
                           ** (one message larger than this goes whole) */
  /* Identity */
  int32_t iPid;            /* BackendKeyData: the key of this session ... */
  int32_t iSecret;         /* ... which a CancelRequest must present */
  const char *zServerVersion;  /* ParameterStatus server_version; not copied */
  int bSuperuser;          /* ParameterStatus is_superuser */
  /* Authentication */
  pg_auth_policy eAuth;
  int bLoopback;           /* the peer connected over loopback */
  int bTls;                /* the daemon can do TLS: SSLRequest gets 'S' */
  /* Callbacks, each given pCtx; any may be NULL (no verifier: every
  ** password fails; no cancel: CancelRequest is ignored; no accept: all in) */
  void *pCtx;
  pg_verifier_fn xVerifier;
  pg_cancel_fn xCancel;
  pg_accept_fn xAccept;
  pg_fatal_fn xFatal;
};

/* Fills *p with the defaults: 16 MiB messages, 256 KiB output, 1 MiB
** input, 10000 statements and portals, 1 MiB copy chunks, server_version
** "15.0 (starq)", superuser on, trust on loopback, key 0/0, no callbacks. */
void pg_session_config_default(pg_session_config *p);

/* ---- the engine's side ------------------------------------------------- */

/* What a job asks for. */
typedef enum pg_job_kind {
  PG_JOB_PREPARE = 1,  /* Parse: describe zSql: its parameter types and the
                       ** columns it returns -> PG_OUTCOME_PREPARED or ERROR */
  PG_JOB_EXECUTE,      /* run zSql with aParam -> ROWS, COMMAND, COPY_IN or ERROR */
  PG_JOB_COPY_DATA,    /* COPY FROM STDIN data -> COMMAND (tag ignored) or ERROR */
  PG_JOB_COPY_DONE,    /* the client's data ended: finish -> COMMAND ("COPY n") or ERROR */
  PG_JOB_COPY_FAIL,    /* the client gave up (zCopyFail): discard -> any outcome */
  PG_JOB_DESCRIBE_CURSOR, /* Describe of a portal the session does not hold:
                       ** a cursor DECLAREd by SQL (zPortal) -> PREPARED
                       ** (its columns) or ERROR */
} pg_job_kind;

/* A bound parameter, always as text: binary parameters are converted by
** the session from their type (pgwire_binary_to_text). */
typedef struct pg_param pg_param;
struct pg_param {
  const char *z;           /* NUL-terminated text, no NUL inside; NULL for SQL NULL */
  size_t n;                /* its length */
  uint32_t iType;          /* the statement's type OID for it, 0 if unknown */
};

/* One job. Everything it points to is the session's and stays valid until
** pg_session_job_done(). */
typedef struct pg_job pg_job;
struct pg_job {
  pg_job_kind eKind;
  char cTxn;               /* transaction status before it: 'I', 'T' or 'E' (in
                           ** 'E' PostgreSQL answers 25P02 to all but COMMIT and
                           ** ROLLBACK, and COMMIT's tag is "ROLLBACK") */
  int bExtended;           /* from the extended protocol (Parse/Execute), not Query */
  /* PREPARE and EXECUTE */
  const char *zSql;        /* one statement, without its ';'; error positions
                           ** are counted in this text */
  const char *zStmtName;   /* the prepared statement's name ("" unnamed), or
                           ** NULL for a statement of a simple Query */
  /* PREPARE */
  int nParamType;          /* the types the client gave ($1..$n; 0 = infer) */
  const uint32_t *aParamType;
  /* EXECUTE */
  void *pStmt;             /* the engine's handle from PREPARE, or NULL */
  const char *zPortal;     /* the portal ("" unnamed), NULL for simple Query */
  int nParam;
  const pg_param *aParam;
  int64_t nMaxRows;        /* this Execute's row limit (0: all); the session
                           ** does the limiting, this is only a hint */
  /* COPY_DATA */
  const void *pData;       /* whole CopyData payloads, concatenated */
  size_t nData;
  /* COPY_FAIL */
  const char *zCopyFail;   /* the client's reason */
};

/* A result set the session reads rows from. The engine keeps the object;
** the session calls xFree once it is done with it. */
typedef struct pg_result_ops pg_result_ops;
struct pg_result_ops {
  /* The number of rows. */
  int64_t (*xRowCount)(void *pRes);
  /* Appends value (iRow, iCol) to pOut as PostgreSQL's text output.
  ** Returns 0, 1 for SQL NULL (nothing appended), or -1 if it cannot
  ** (the statement then fails with XX000). */
  int (*xValue)(void *pRes, int64_t iRow, int iCol, strbuf *pOut);
  void (*xFree)(void *pRes);
  /* NULL for a result whose rows are all there. Else the rows are still
  ** coming (xRowCount grows): returns 1 while more may come, 0 once
  ** xRowCount counts them all, or -1 when the statement failed after the
  ** rows counted, *pErr saying why (its strings valid until xFree). The
  ** session sends what there is, then waits for pg_session_rows_ready(). */
  int (*xStatus)(void *pRes, pgwire_error *pErr);
};

/* What a job came to. */
typedef enum pg_outcome_kind {
  PG_OUTCOME_ERROR = 1,    /* error: the statement failed */
  PG_OUTCOME_COMMAND,      /* done, no rows: zTag ("SET", "BEGIN", "COPY 5") */
  PG_OUTCOME_ROWS,         /* a result set: aCol, pOps/pRes, zTag */
  PG_OUTCOME_PREPARED,     /* PREPARE: aParamType, aCol (nCol 0: returns no
                           ** rows), pStmt */
  PG_OUTCOME_COPY_IN,      /* EXECUTE of COPY ... FROM STDIN: nCopyCol,
                           ** bCopyBinary; COPY_DATA jobs follow */
  PG_OUTCOME_COPY_OUT,     /* EXECUTE of COPY ... TO STDOUT: nCopyCol,
                           ** bCopyBinary, and pOps/pRes whose rows are the
                           ** data: each row's column 0 is one CopyData's
                           ** bytes; "COPY n" counts the rows sent less
                           ** nCopyExtra (a header, a binary trailer) */
} pg_outcome_kind;

/* What a COMMAND outcome drops of the session's state, which only the
** session holds: its prepared statements and portals. */
typedef enum pg_release {
  PG_RELEASE_NONE = 0,
  PG_RELEASE_STMT,         /* DEALLOCATE name: 26000 if there is none */
  PG_RELEASE_STMTS,        /* DEALLOCATE ALL: every named statement */
  PG_RELEASE_SESSION       /* DISCARD ALL: every named statement and every
                           ** named portal */
} pg_release;

/* An outcome, read during pg_session_job_done() and copied where kept;
** only pRes and pStmt are handed over. */
typedef struct pg_outcome pg_outcome;
struct pg_outcome {
  pg_outcome_kind eKind;
  pgwire_error error;      /* ERROR: SQLSTATE, message, position in the job's
                           ** zSql (the session shifts it to the client's text),
                           ** detail, hint */
  const char *zTag;        /* COMMAND, ROWS: the command tag */
  int bTagCount;           /* ROWS: append " <rows sent>" to zTag ("SELECT 3") */
  int nCol;                /* ROWS, PREPARED: the columns */
  const pgwire_column *aCol;
  const pg_result_ops *pOps;  /* ROWS: the rows ... */
  void *pRes;              /* ... handed to the session (freed with pOps->xFree) */
  int nParamType;          /* PREPARED: the type of each parameter $1..$n */
  const uint32_t *aParamType;
  void *pStmt;             /* PREPARED: the engine's handle, given back in EXECUTE
                           ** jobs and freed with xStmtFree; may be NULL */
  int nCopyCol;            /* COPY_IN, COPY_OUT: columns of the data */
  int bCopyBinary;         /* COPY_IN, COPY_OUT: binary COPY format */
  int nCopyExtra;          /* COPY_OUT: rows that are not the data's */
  char cTxn;               /* any kind: the transaction status now ('I', 'T',
                           ** 'E'), or 0 to let tags decide: BEGIN and START
                           ** TRANSACTION give 'T', COMMIT and ROLLBACK 'I', an
                           ** error inside a block 'E' */
  int nParamChange;        /* COMMAND, ROWS: ParameterStatus to report first */
  const char *const *azParamChange;   /* 2 * nParamChange: name, value, ... */
  int nNotice;             /* any kind: NoticeResponses to send first */
  const pgwire_error *aNotice;
  pg_release eRelease;     /* COMMAND: what of the session's own state the
                           ** statement drops before its tag goes out
                           ** (DEALLOCATE, DISCARD ALL) */
  const char *zRelease;    /* PG_RELEASE_STMT: the statement's name */
};

/* The engine, as the daemon implements it. */
typedef struct pg_engine pg_engine;
struct pg_engine {
  void *pCtx;              /* the daemon's, typically per connection */
  /* Starts pJob for s. Must lead to exactly one pg_session_job_done(s),
  ** on the loop thread, now or later. */
  void (*xJobStart)(void *pCtx, pg_session *s, const pg_job *pJob);
  /* Frees a statement handle of a PREPARED outcome. May be NULL. */
  void (*xStmtFree)(void *pCtx, void *pStmt);
};

/* ---- the session ------------------------------------------------------- */

/* Flags of pg_session_flags(). */
#define PG_SESSION_CLOSE       0x01  /* close the connection once the output is
                                     ** written; input is no longer read */
#define PG_SESSION_READ_PAUSE  0x02  /* stop reading; it clears as the backlog goes */
#define PG_SESSION_JOB         0x04  /* a job is out: job_done must come before free */
#define PG_SESSION_TLS_START   0x08  /* SSLRequest answered 'S': every byte after
                                     ** the output now pending is TLS; the daemon
                                     ** starts it and says pg_session_tls_started */

/* Returns a session in the startup phase, or NULL if memory ran out. Both
** structs are copied; what their pointers point to must outlive it. */
pg_session *pg_session_new(const pg_session_config *pCfg, const pg_engine *pEngine);

/* Frees s, its statements (xStmtFree) and results. Not while a job is out. */
void pg_session_free(pg_session *s);

/* Takes n bytes read from the client and works through them as far as it
** can: answers go to the output, statements to the engine. */
void pg_session_feed(pg_session *s, const void *p, size_t n);

/* Reports the outcome of the job the engine was given and goes on with
** waiting input. Ignored when no job is out. */
void pg_session_job_done(pg_session *s, const pg_outcome *pOutcome);

/* Says rows of a result still coming (pg_result_ops.xStatus) arrived,
** or it ended: sends what it can. */
void pg_session_rows_ready(pg_session *s);

/* Returns the bytes waiting to be written and their number in *pn, or NULL
** with *pn 0 when there are none. They stay where they are (new output
** goes elsewhere) until pg_session_output_done() says they were written;
** until then every call returns the same bytes. */
const void *pg_session_output(pg_session *s, size_t *pn);

/* Says the first n of the bytes pg_session_output() returned are written.
** Encodes more rows and works through waiting input now that there is room. */
void pg_session_output_done(pg_session *s, size_t n);

/* Returns the PG_SESSION_* flags that hold now. */
unsigned pg_session_flags(const pg_session *s);

/* Ends the session: sends a FATAL ErrorResponse (e.g. 57P01 "terminating
** connection due to administrator command"), drops waiting input and sets
** PG_SESSION_CLOSE. An outstanding job must still be reported. */
void pg_session_fatal(pg_session *s, const char *zState, const char *zMsg);

/* Returns the value of startup parameter zName ("user", "database",
** "application_name", "options", ...) or NULL if the client sent none.
** "database" defaults to the user name. */
const char *pg_session_param(const pg_session *s, const char *zName);

/* The daemon has started TLS after PG_SESSION_TLS_START: the flag clears,
** and a[0..n) is the connection's tls-server-end-point channel binding
** (n 0: none), which makes SCRAM-SHA-256-PLUS an offer. */
void pg_session_tls_started(pg_session *s, const unsigned char *a, int n);

/* Returns the transaction status ReadyForQuery would report now. */
char pg_session_txn_status(const pg_session *s);

#endif /* STARQ_SESSION_H */
