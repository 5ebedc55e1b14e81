/*
** tests/pgclient.h — the client's side of the PostgreSQL protocol, for the
** server's tests: frontend messages built byte by byte, backend messages
** read back into a one-line summary to compare, and a fake engine behind a
** pg_session (server/session.h) that answers statements by a small script
** language, now or when the test says.
**
** Summary of backend messages, one token each, space-separated:
**   R(0) R(10:SCRAM-SHA-256) R(11) R(12)     Authentication*
**   S(name=value)  K(pid,secret)  Z(I)       ParameterStatus, BackendKeyData, ReadyForQuery
**   T(name:oid,...)   name:oid:b when binary RowDescription
**   D(v,...)   NULL for SQL NULL, 0x<hex> for bytes that are not printable
**   C(tag)  I  1  2  3  n  s                 CommandComplete, EmptyQuery, Parse/Bind/
**                                            CloseComplete, NoData, PortalSuspended
**   t(oid,...)  G(format,ncol)  v(minor:opt,...)
**   E(code) FATAL(code) N(code)              ErrorResponse (ERROR, FATAL), NoticeResponse
** The fields of the last error summarised are kept in the pgc.
**
** The fake engine's statements (the text of each job):
**   SELECT <int>      one row, one int4 column "?column?"
**   ROWS <n>          n rows of (i int4, t text, f float8, b bool, d date,
**                     g int8, h int2 NULL every third row)
**   ECHO              one row: each parameter as a column of its type
**   BEGIN, START TRANSACTION, COMMIT, ROLLBACK, SET ...   their tags
**   ERROR [<pos>]     42601 "fake error" at <pos>, with a detail and a hint
**   LATEERROR         the same error, but at EXECUTE only (PREPARE succeeds)
**   COPY              COPY_IN of 2 columns; data lines are counted for "COPY n",
**                     data holding "bad" fails with 22P02
**   NOTICE            tag "DO", a notice and application_name=fake
**   BADVALUE          2 rows, the second of which cannot be produced
**   BADBIN            an int4 column whose text is "abc"
**   TXN <c>           tag "TXN", transaction status <c>
**   anything else     tag "OK"
** In transaction status E every statement but COMMIT and ROLLBACK fails
** with 25P02, and COMMIT's tag is ROLLBACK, as in PostgreSQL. PREPARE jobs
** describe the same columns, parameters untyped by the client being text.
*/
#ifndef STARQ_PGCLIENT_H
#define STARQ_PGCLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "../common/strbuf.h"
#include "../server/session.h"

/* ---- frontend messages --------------------------------------------------- */

/* StartupMessage of protocol iVersion; azKV: name, value, ..., NULL. */
void pgc_startup(strbuf *b, uint32_t iVersion, const char *const *azKV);
void pgc_request(strbuf *b, uint32_t iCode);        /* SSLRequest, GSSENCRequest */
void pgc_cancel(strbuf *b, int32_t iPid, int32_t iSecret);
void pgc_query(strbuf *b, const char *zSql);
void pgc_parse(strbuf *b, const char *zName, const char *zSql, int nType, const uint32_t *aType);
/* anValue: lengths (-1: NULL), or NULL for strlen of each azValue. */
void pgc_bind(strbuf *b, const char *zPortal, const char *zStmt, int nParamFormat,
              const int16_t *aParamFormat, int nParam, const char *const *azValue,
              const int *anValue, int nResultFormat, const int16_t *aResultFormat);
void pgc_describe(strbuf *b, char cKind, const char *zName);
void pgc_execute(strbuf *b, const char *zPortal, int32_t nMax);
void pgc_close(strbuf *b, char cKind, const char *zName);
void pgc_empty(strbuf *b, char cType);               /* Sync, Flush, Terminate, CopyDone */
void pgc_copy_data(strbuf *b, const char *z, size_t n);
void pgc_copy_fail(strbuf *b, const char *zMsg);
void pgc_sasl_initial(strbuf *b, const char *zMech, const char *z, int n);   /* n -1: none */
void pgc_sasl_response(strbuf *b, const char *z, size_t n);

/* The client's side of SCRAM-SHA-256, on libcrypto alone: from the password,
** client-first-message-bare and server-first-message, appends
** client-final-message (channel binding "n,,") to pFinal and the
** server-final-message the server must answer with to pWant. */
void pgc_scram_final(const char *zPassword, const char *zFirstBare, const char *zServerFirst,
                     strbuf *pFinal, strbuf *pWant);

/* ---- a session with a fake engine --------------------------------------- */

typedef struct pgc pgc;
struct pgc {
  pg_session *s;
  pg_session_config cfg;
  strbuf msg;              /* messages the test is building */
  strbuf got;              /* output taken from the session, unread */
  size_t nChunk;           /* pgc_send feeds in pieces of this size (0: whole) */
  int bAsync;              /* the engine holds jobs until pgc_finish() */
  int bHold;               /* pgc_send takes no output (backpressure tests) */
  const pg_job *pHeld;     /* the held job */
  strbuf log;              /* jobs seen: "P(sql) X(sql|p1,p2) CD(n) CE CF(msg)" */
  strbuf copy;             /* COPY data received */
  int nStmtLive;           /* engine statement handles not freed */
  int nResultLive;         /* results not freed */
  char zErrCode[6];        /* the last error summarised: SQLSTATE, */
  char zErrMsg[256];       /* message, */
  char zErrDetail[256];    /* detail, */
  char zErrHint[256];      /* hint, */
  int iErrPos;             /* position (0: none) */
  char zSummary[16384];    /* what pgc_read returned */
};

/* Opens a session (pCfg NULL: defaults, trust) on the fake engine. */
void pgc_open(pgc *c, const pg_session_config *pCfg);
/* Frees the session (finishing a held job first) and checks that every
** statement handle and result of the engine was freed. */
void pgc_close_all(pgc *c);

/* Feeds c->msg to the session (in pieces of c->nChunk), taking its output
** into c->got after each piece; then empties c->msg. */
void pgc_send(pgc *c);
/* Takes every byte of output the session has into c->got. */
void pgc_drain(pgc *c);
/* Returns the summary of c->got (and empties it). */
const char *pgc_read(pgc *c);
/* Sends msg and returns the summary of the answer. */
const char *pgc_roundtrip(pgc *c);
/* Completes the job the engine holds (bAsync). Returns 0, or -1 if none. */
int pgc_finish(pgc *c);

/* Logs in as zUser with trust and checks the burst ends in Z(I). */
void pgc_login(pgc *c, const char *zUser);

/* Summarises backend messages a[0..n) into c->zSummary; fails the test if
** they are not well-formed messages. */
const char *pgc_summarize(pgc *c, const unsigned char *a, size_t n);

#endif /* STARQ_PGCLIENT_H */
