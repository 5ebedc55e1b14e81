/*
** server/sessionInt.h — the session's private structures and the calls
** between its files:
**
**   session.c           lifecycle, buffers, the main loop and dispatch,
**                       jobs, errors, transaction status
**   session-startup.c   startup packets, authentication, the login burst
**   session-simple.c    Query: statement splitting, one job per statement
**   session-extended.c  Parse, Bind, Describe, Execute, Close, Sync
**   session-stmt.c      prepared statements and portals
**   session-rows.c      RowDescription and DataRows with backpressure
**   session-copy.c      COPY FROM STDIN
*/
#ifndef STARQ_SESSION_INT_H
#define STARQ_SESSION_INT_H

#include "scram.h"
#include "session.h"

/* What the session reads next. */
typedef enum session_phase {
  SESSION_STARTUP = 0,      /* an untyped startup packet */
  SESSION_AUTH_SASL,        /* SASLInitialResponse */
  SESSION_AUTH_SASL_FINAL,  /* SASLResponse (client-final-message) */
  SESSION_READY,            /* queries, simple and extended */
  SESSION_COPY_IN,          /* CopyData, CopyDone, CopyFail */
  SESSION_CLOSED,           /* nothing: closing after a FATAL or Terminate */
} session_phase;

/* Which job is out, and so what its outcome continues. */
typedef enum session_wait {
  SESSION_WAIT_NONE = 0,
  SESSION_WAIT_SIMPLE,      /* EXECUTE of a statement of a Query */
  SESSION_WAIT_PARSE,       /* PREPARE for a Parse */
  SESSION_WAIT_EXECUTE,     /* EXECUTE for an Execute */
  SESSION_WAIT_COPY_DATA,
  SESSION_WAIT_COPY_DONE,
  SESSION_WAIT_COPY_FAIL,
  SESSION_WAIT_DESCRIBE,    /* DESCRIBE_CURSOR for a Describe */
} session_wait;

/* A prepared statement: named, unnamed, or the one a Parse is making. */
typedef struct session_stmt session_stmt;
struct session_stmt {
  char *zName;             /* "" for the unnamed one; owned */
  char *zSql;              /* the statement, without ';' or surrounding space; owned */
  int iCharOffset;         /* characters of the client's text before zSql */
  int bEmpty;              /* only space and comments: EmptyQueryResponse */
  int nParam;
  uint32_t *aParamType;    /* nParam type OIDs; owned */
  int nCol;
  pgwire_column *aCol;     /* nCol columns, names owned */
  void *pEngineStmt;       /* the engine's handle (xStmtFree), or NULL */
  int nRef;                /* the statement list's reference + one per portal */
  session_stmt *pNext;     /* the session's list */
};

/* Rows being sent from a result. */
typedef struct session_rows session_rows;
struct session_rows {
  const pg_result_ops *pOps;  /* NULL when no result is held */
  void *pRes;              /* owned: freed with pOps->xFree */
  int64_t nRow;            /* rows in the result */
  int64_t iRow;            /* the next row to send */
  int nCol;
  uint32_t *aType;         /* nCol type OIDs; owned */
  int16_t *aFormat;        /* nCol format codes; owned */
  char *zTag;              /* the command tag; owned */
  int bTagCount;           /* append the rows sent to the tag */
  int bCopyOut;            /* COPY TO STDOUT: each row's column 0 is a
                           ** CopyData; CopyDone and "COPY n" end it */
  int nCopyExtra;          /* bCopyOut: rows that are not counted */
};

/* Where a portal stands. */
typedef enum session_portal_state {
  PORTAL_NEW = 0,          /* bound, not yet run */
  PORTAL_ROWS,             /* run: rows.pOps holds the result, maybe all sent */
  PORTAL_DONE,             /* run to completion as a command */
} session_portal_state;

/* A portal: a statement with bound parameters and result formats. */
typedef struct session_portal session_portal;
struct session_portal {
  char *zName;             /* "" for the unnamed one; owned */
  session_stmt *pStmt;     /* a reference */
  int nParam;
  pg_param *aParam;        /* owned; texts in values */
  strbuf values;           /* the parameters' texts, each NUL-terminated */
  int nFormat;             /* result format codes as Bind gave them (0/1/N) */
  int16_t *aFormat;        /* owned */
  session_portal_state eState;
  session_rows rows;       /* PORTAL_ROWS: the result */
  session_portal *pNext;   /* the session's list (not the simple query's) */
};

/* A simple Query being worked through. */
typedef struct session_simple session_simple;
struct session_simple {
  int bActive;             /* a Query is being worked through */
  int bAbort;              /* an error: skip the rest, send ReadyForQuery */
  int bAny;                /* some statement was found (else EmptyQueryResponse) */
  strbuf text;             /* the client's whole text */
  size_t iPos;             /* where the next statement is looked for */
  session_stmt stmt;       /* the statement being run (never in the list) */
  session_portal portal;   /* its rows (never in the list) */
};

struct pg_session {
  pg_session_config cfg;
  pg_engine engine;
  session_phase ePhase;
  char cTxn;               /* 'I', 'T' or 'E' */
  int bSkip;               /* an extended-protocol error: drop all until Sync */
  int bRunning;            /* inside session__run(): no re-entry */

  /* Input: bytes fed, not yet worked through */
  strbuf in;
  size_t iIn;              /* the first byte not yet consumed */

  /* Output: aOut[iFill] takes new messages; aOut[!iFill] may be lent to
  ** the daemon (bLent) until it says the bytes are written */
  strbuf aOut[2];
  int iFill;
  int bLent;
  size_t iLentDone;        /* bytes of the lent buffer already written */
  strbuf scratch;          /* a value's text before its binary form */

  /* Startup */
  int bSslDone, bGssDone;
  int bTlsStart;           /* 'S' sent: PG_SESSION_TLS_START until started */
  unsigned char aCbind[64];  /* TLS: the channel binding SCRAM-SHA-256-PLUS */
  int nCbind;              /* checks; 0: none (no TLS) */
  strbuf params;           /* startup parameters: name NUL value NUL ... */
  const char *zUser;       /* points into params */
  const char *zDatabase;   /* into params, or zUser */
  const char *zClientEncoding;  /* what client_encoding reports (static) */
  scram_server scram;
  int bScram;              /* scram is initialised */

  /* The job out with the engine */
  session_wait eWait;
  pg_job job;
  strbuf jobData;          /* COPY_DATA payloads, COPY_FAIL reason */

  /* Statements and portals */
  session_stmt *pStmts;
  int nNamedStmt;
  session_portal *pPortals;
  int nNamedPortal;
  session_stmt *pParsing;  /* the statement a PREPARE job describes; owned */
  session_portal *pExecuting;  /* the portal an EXECUTE job runs */
  int64_t nExecMax;        /* its Execute's row limit */
  session_portal *pActive; /* the portal whose rows are being sent */
  int64_t nActiveMax;      /* rows this Execute may send, 0: all */
  int64_t nActiveSent;     /* rows it has sent */
  int bCopyExtended;       /* the COPY came from an Execute */

  session_simple simple;
};

/* The buffer new output is appended to. */
#define SESSION_OUT(s) (&(s)->aOut[(s)->iFill])

/* session.c */
void session__run(pg_session *s);
size_t session__pending(const pg_session *s);
pg_job *session__job_new(pg_session *s, pg_job_kind eKind);
void session__job_start(pg_session *s, session_wait eWait);
void session__error_emit(pg_session *s, const pgwire_error *e);
void session__error(pg_session *s, const pgwire_error *e);
/* Returns 1 after failing the statement with 22021 if z[0..n) is not
** valid UTF-8 (the server encoding: every byte a client sends is checked
** as it comes in, whatever client_encoding says), else 0. */
int session__utf8_bad(pg_session *s, const char *z, size_t n);
void session__error_fmt(pg_session *s, const char *zState, const char *zFmt, ...)
    __attribute__((format(printf, 3, 4)));
void session__fatal(pg_session *s, const char *zState, const char *zDetail,
                    const char *zFmt, ...) __attribute__((format(printf, 4, 5)));
int session__decoded(pg_session *s, int rc, const char *zErr);
void session__ready(pg_session *s);
void session__outcome_discard(pg_session *s, const pg_outcome *o);
int session__outcome_unexpected(pg_session *s, const pg_outcome *o, const char *zJob);
int session__outcome_ends(pg_session *s, const pg_outcome *o, int iCharOffset);
void session__txn_from_tag(pg_session *s, const char *zTag);
void session__command_complete(pg_session *s, const char *zTag);
char *session__strdup(const char *z);
const char *session__param_find(const pg_session *s, const char *zName);

/* session-stmt.c */
void session__stmt_clear(pg_session *s, session_stmt *p);
void session__stmt_unref(pg_session *s, session_stmt *p);
int session__stmt_columns(session_stmt *p, int nCol, const pgwire_column *aCol);
session_stmt *session__stmt_find(pg_session *s, const char *zName);
void session__stmt_add(pg_session *s, session_stmt *p);
void session__stmt_remove(pg_session *s, const char *zName);
void session__stmts_free(pg_session *s);
void session__portal_clear(pg_session *s, session_portal *p);
session_portal *session__portal_find(pg_session *s, const char *zName);
void session__portal_add(pg_session *s, session_portal *p);
void session__portal_remove(pg_session *s, const char *zName);
void session__portals_drop(pg_session *s);
void session__unnamed_drop(pg_session *s);

/* session-startup.c */
void session__startup_message(pg_session *s, const pgwire_frame *f);
void session__auth_message(pg_session *s, const pgwire_frame *f);

/* session-simple.c */
void session__query(pg_session *s, const pgwire_frame *f);
void session__simple_next(pg_session *s);
void session__simple_outcome(pg_session *s, const pg_outcome *o);
int session__split_next(const char *zText, size_t *piPos, size_t *piStart, size_t *pnLen);
int session__split_chars(const char *z, size_t n);

/* session-extended.c */
void session__extended_message(pg_session *s, const pgwire_frame *f);
void session__parse_outcome(pg_session *s, const pg_outcome *o);
void session__execute_outcome(pg_session *s, const pg_outcome *o);
void session__describe_outcome(pg_session *s, const pg_outcome *o);

/* session-rows.c */
int session__rows_take(pg_session *s, session_portal *p, const pg_outcome *o);
int session__copy_out_take(pg_session *s, session_portal *p, const pg_outcome *o);
void session__rows_start(pg_session *s, session_portal *p, int64_t nMax);
int session__rows_pump(pg_session *s);
void session__rows_clear(session_rows *r);
int session__format_check(pg_session *s, int nFormat, const int16_t *aFormat, int nCol,
                          const pgwire_column *aCol);

/* session-copy.c */
void session__copy_begin(pg_session *s, const pg_outcome *o, int bExtended);
void session__copy_message(pg_session *s, const pgwire_frame *f);
void session__copy_outcome(pg_session *s, session_wait eWait, const pg_outcome *o);

#endif /* STARQ_SESSION_INT_H */
