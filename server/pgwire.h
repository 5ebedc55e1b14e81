/*
** server/pgwire.h — the bytes of PostgreSQL's frontend/backend protocol,
** version 3.0: finding message boundaries in a stream, decoding what a
** client sends, encoding what the server answers, and the binary forms of
** the value types starq sends and receives.
**
** Nothing here knows about sockets, sessions or SQL. Decoders read a
** message body that the framer found and check every length, count and
** NUL-terminated string against its bounds, so a hostile body can make
** them fail but never read outside it; the structs they fill point into
** that body and live as long as it does. Encoders append whole messages
** to a strbuf (common/strbuf.h), whose errors are sticky: one check after
** a run of encodes says whether memory ran out.
**
** INTERFACE ROUTINES
**   pgwire_frame_next        one whole message at the head of a buffer
**   pgwire_startup_decode    StartupMessage, SSLRequest, GSSENCRequest, CancelRequest
**   pgwire_query_decode      Query
**   pgwire_parse_decode      Parse
**   pgwire_bind_decode       Bind (pgwire_bind_value_next walks its values)
**   pgwire_target_decode     Describe and Close
**   pgwire_execute_decode    Execute
**   pgwire_empty_decode      Sync, Flush, Terminate, CopyDone
**   pgwire_string_decode     PasswordMessage, CopyFail
**   pgwire_sasl_initial_decode  SASLInitialResponse
**   pgwire_put_*             backend messages
**   pgwire_binary_*          binary forms of int2/4/8, float4/8, bool, date, text
*/
#ifndef STARQ_PGWIRE_H
#define STARQ_PGWIRE_H

#include <stddef.h>
#include <stdint.h>

#include "../common/strbuf.h"

/* ---- message types ------------------------------------------------------ */

/* Frontend (client to server) message types. */
#define PGWIRE_MSG_BIND           'B'
#define PGWIRE_MSG_CLOSE          'C'
#define PGWIRE_MSG_DESCRIBE       'D'
#define PGWIRE_MSG_EXECUTE        'E'
#define PGWIRE_MSG_FUNCTION_CALL  'F'
#define PGWIRE_MSG_FLUSH          'H'
#define PGWIRE_MSG_PARSE          'P'
#define PGWIRE_MSG_QUERY          'Q'
#define PGWIRE_MSG_SYNC           'S'
#define PGWIRE_MSG_TERMINATE      'X'
#define PGWIRE_MSG_COPY_DATA      'd'
#define PGWIRE_MSG_COPY_DONE      'c'
#define PGWIRE_MSG_COPY_FAIL      'f'
#define PGWIRE_MSG_PASSWORD       'p'   /* also SASLInitialResponse, SASLResponse */

/* Backend (server to client) message types. */
#define PGWIRE_MSG_AUTH             'R'
#define PGWIRE_MSG_PARAMETER_STATUS 'S'
#define PGWIRE_MSG_BACKEND_KEY      'K'
#define PGWIRE_MSG_READY            'Z'
#define PGWIRE_MSG_ROW_DESCRIPTION  'T'
#define PGWIRE_MSG_DATA_ROW         'D'
#define PGWIRE_MSG_COMMAND_COMPLETE 'C'
#define PGWIRE_MSG_EMPTY_QUERY      'I'
#define PGWIRE_MSG_ERROR            'E'
#define PGWIRE_MSG_NOTICE           'N'
#define PGWIRE_MSG_PARSE_COMPLETE   '1'
#define PGWIRE_MSG_BIND_COMPLETE    '2'
#define PGWIRE_MSG_CLOSE_COMPLETE   '3'
#define PGWIRE_MSG_NO_DATA          'n'
#define PGWIRE_MSG_PARAMETER_DESCRIPTION 't'
#define PGWIRE_MSG_PORTAL_SUSPENDED 's'
#define PGWIRE_MSG_COPY_IN_RESPONSE 'G'
#define PGWIRE_MSG_COPY_OUT_RESPONSE 'H'
#define PGWIRE_MSG_NEGOTIATE_VERSION 'v'

/* The first word of an untyped startup-phase message. */
#define PGWIRE_PROTOCOL_3_0       196608u     /* 3 << 16 | 0 */
#define PGWIRE_CANCEL_REQUEST     80877102u   /* 1234 << 16 | 5678 */
#define PGWIRE_SSL_REQUEST        80877103u   /* 1234 << 16 | 5679 */
#define PGWIRE_GSSENC_REQUEST     80877104u   /* 1234 << 16 | 5680 */
#define PGWIRE_VERSION_MAJOR(v)   ((v) >> 16)
#define PGWIRE_VERSION_MINOR(v)   ((v) & 0xFFFF)

/* Authentication request codes (the int32 after 'R'). */
#define PGWIRE_AUTH_OK            0
#define PGWIRE_AUTH_SASL          10
#define PGWIRE_AUTH_SASL_CONTINUE 11
#define PGWIRE_AUTH_SASL_FINAL    12

/* Type OIDs of pg_type that starq's values take. */
#define PGWIRE_OID_BOOL     16u
#define PGWIRE_OID_BYTEA    17u
#define PGWIRE_OID_CHAR     18u
#define PGWIRE_OID_NAME     19u
#define PGWIRE_OID_INT8     20u
#define PGWIRE_OID_INT2     21u
#define PGWIRE_OID_INT4     23u
#define PGWIRE_OID_TEXT     25u
#define PGWIRE_OID_OID      26u
#define PGWIRE_OID_FLOAT4   700u
#define PGWIRE_OID_FLOAT8   701u
#define PGWIRE_OID_UNKNOWN  705u
#define PGWIRE_OID_BPCHAR   1042u
#define PGWIRE_OID_VARCHAR  1043u
#define PGWIRE_OID_DATE     1082u
#define PGWIRE_OID_TIMESTAMP 1114u
#define PGWIRE_OID_TIMESTAMPTZ 1184u
#define PGWIRE_OID_NUMERIC  1700u

/* Format codes of parameters and result columns. */
#define PGWIRE_FORMAT_TEXT    0
#define PGWIRE_FORMAT_BINARY  1

/* Startup-phase messages are never longer than this (PostgreSQL's
** MAX_STARTUP_PACKET_LENGTH), nor are Describe, Close, Execute, CopyFail
** or the authentication messages (its PQ_SMALL_MESSAGE_LIMIT). */
#define PGWIRE_SMALL_MAX 10000u

/* Startup parameters beyond this many are refused. */
#define PGWIRE_STARTUP_PARAMS_MAX 64

/* ---- framing ------------------------------------------------------------ */

/* Return codes of pgwire_frame_next() and the decoders. */
#define PGWIRE_OK        0
#define PGWIRE_MORE      1    /* not a whole message yet: read more */
#define PGWIRE_EPROTO   (-1)  /* malformed: 08P01 protocol_violation */
#define PGWIRE_ETOOBIG  (-2)  /* longer than allowed: 54000 program_limit_exceeded */

/* One message found in a buffer. Its body points into that buffer. */
typedef struct pgwire_frame pgwire_frame;
struct pgwire_frame {
  char cType;                   /* type byte; 0 for an untyped startup message */
  const unsigned char *aBody;   /* the bytes after the length word; not owned */
  uint32_t nBody;               /* their number */
  size_t nWire;                 /* bytes the whole message takes in the stream */
};

/* Looks at the head of a[0..n) for one message: untyped (int32 length,
** body) when bStartup, else typed (type byte, int32 length, body). The
** type byte is checked before the length word is trusted, and the length
** against nMax (a limit on the length word, which counts itself), or the
** smaller limit of the small message types, as soon as it has arrived;
** so a client can never make the caller buffer more than the limit.
** Returns PGWIRE_OK with *pF set, PGWIRE_MORE, or PGWIRE_EPROTO /
** PGWIRE_ETOOBIG with a message in zErr. */
int pgwire_frame_next(const void *a, size_t n, int bStartup, uint32_t nMax,
                      pgwire_frame *pF, char *zErr, size_t nErr);

/* ---- decoders ------------------------------------------------------------
** Each takes a body found by pgwire_frame_next() and returns PGWIRE_OK, or
** PGWIRE_EPROTO with the reason in zErr. Bytes left over after the last
** field are an error too, as in PostgreSQL's pq_getmsgend(). */

/* An untyped startup-phase message: the first word says which. */
typedef struct pgwire_startup pgwire_startup;
struct pgwire_startup {
  uint32_t iCode;          /* a protocol version, or PGWIRE_*_REQUEST */
  int32_t iPid;            /* CancelRequest: the backend's process id */
  int32_t iSecret;         /* CancelRequest: its secret key */
  int nParam;              /* StartupMessage: name/value pairs */
  const char *azName[PGWIRE_STARTUP_PARAMS_MAX];
  const char *azValue[PGWIRE_STARTUP_PARAMS_MAX];
};
int pgwire_startup_decode(const unsigned char *a, uint32_t n, pgwire_startup *p,
                          char *zErr, size_t nErr);

/* Query: the SQL text (no NUL inside). */
int pgwire_query_decode(const unsigned char *a, uint32_t n, const char **pzSql,
                        char *zErr, size_t nErr);

/* Parse: a statement name, its text and the parameter types the client
** gave (0 leaves one to the server). */
typedef struct pgwire_parse pgwire_parse;
struct pgwire_parse {
  const char *zName;            /* "" for the unnamed statement */
  const char *zSql;
  int nParamType;
  const unsigned char *aParamType;  /* nParamType big-endian uint32 OIDs */
};
int pgwire_parse_decode(const unsigned char *a, uint32_t n, pgwire_parse *p,
                        char *zErr, size_t nErr);

/* Bind: a portal from a statement, with parameter values and the formats
** of parameters and result columns. Format code arrays hold 0, 1 (one
** code for all) or as many codes as there are parameters (resp. result
** columns); the decoder checks the parameter side, which the message
** alone determines. Format code values are not checked here. */
typedef struct pgwire_bind pgwire_bind;
struct pgwire_bind {
  const char *zPortal;
  const char *zStmt;
  int nParamFormat;
  const unsigned char *aParamFormat;   /* nParamFormat big-endian int16 */
  int nParam;
  const unsigned char *aParam;         /* nParam of (int32 length or -1, bytes) */
  int nResultFormat;
  const unsigned char *aResultFormat;  /* nResultFormat big-endian int16 */
};
int pgwire_bind_decode(const unsigned char *a, uint32_t n, pgwire_bind *p,
                       char *zErr, size_t nErr);

/* Reads the parameter value at *piOff of p->aParam (start with *piOff 0)
** and moves *piOff past it: *pa and *pn are its bytes, *pn -1 for NULL.
** Only for a struct that pgwire_bind_decode() filled, which checked them. */
void pgwire_bind_value_next(const pgwire_bind *p, size_t *piOff,
                            const unsigned char **pa, int32_t *pn);

/* The format code of parameter (or result column) i, by the 0/1/N rule. */
int pgwire_format_of(const unsigned char *aFormat, int nFormat, int i);

/* Describe and Close: 'S' (statement) or 'P' (portal), and a name. */
typedef struct pgwire_target pgwire_target;
struct pgwire_target {
  char cKind;
  const char *zName;
};
int pgwire_target_decode(const unsigned char *a, uint32_t n, pgwire_target *p,
                         char *zErr, size_t nErr);

/* Execute: a portal and a row limit (0 or less: no limit). */
int pgwire_execute_decode(const unsigned char *a, uint32_t n, const char **pzPortal,
                          int32_t *pnMaxRow, char *zErr, size_t nErr);

/* Sync, Flush, Terminate and CopyDone carry nothing. */
int pgwire_empty_decode(const unsigned char *a, uint32_t n, char *zErr, size_t nErr);

/* PasswordMessage and CopyFail: one string. */
int pgwire_string_decode(const unsigned char *a, uint32_t n, const char **pz,
                         char *zErr, size_t nErr);

/* SASLInitialResponse: the mechanism and the client's first message
** (*pnData -1 when absent). A SASLResponse is its body, undecoded. */
int pgwire_sasl_initial_decode(const unsigned char *a, uint32_t n, const char **pzMech,
                               const unsigned char **paData, int32_t *pnData,
                               char *zErr, size_t nErr);

/* Reads big-endian integers (from arrays the decoders checked). */
static inline uint32_t pgwire_get_u32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline int16_t pgwire_get_i16(const unsigned char *p) {
  return (int16_t)(uint16_t)((unsigned)p[0] << 8 | p[1]);
}

/* ---- encoders ------------------------------------------------------------ */

/* A result column as RowDescription describes it. */
typedef struct pgwire_column pgwire_column;
struct pgwire_column {
  const char *zName;       /* the column's name; not owned */
  uint32_t iTableOid;      /* the table it comes from, or 0 */
  int16_t iAttr;           /* its attribute number there, or 0 */
  uint32_t iTypeOid;       /* PGWIRE_OID_* */
  int16_t nTypeLen;        /* pg_type.typlen: 4 for int4, -1 for varlena */
  int32_t iTypmod;         /* type modifier, -1 if none */
};

/* The fields of an ErrorResponse or NoticeResponse. Strings not owned. */
typedef struct pgwire_error pgwire_error;
struct pgwire_error {
  const char *zSeverity;   /* "ERROR", "FATAL", "WARNING", "NOTICE"; NULL: "ERROR" */
  const char *zState;      /* SQLSTATE, five characters */
  const char *zMsg;        /* primary message: no capital, no period */
  const char *zDetail;     /* D, or NULL */
  const char *zHint;       /* H, or NULL */
  int iPosition;           /* P: 1-based character in the query text, or 0 */
};

/* Starts a message of type cType in s (its length word left to fill) and
** returns where it starts; pgwire_msg_end() fills the length. Between the
** two, append the body with the pgwire_put_int* helpers or strbuf_append. */
size_t pgwire_msg_begin(strbuf *s, char cType);
void pgwire_msg_end(strbuf *s, size_t iStart);

void pgwire_put_int16(strbuf *s, int v);
void pgwire_put_int32(strbuf *s, int32_t v);
void pgwire_put_cstr(strbuf *s, const char *z);       /* with its NUL */

/* A message with no body: ParseComplete, BindComplete, CloseComplete,
** NoData, PortalSuspended, EmptyQueryResponse, CopyDone. */
void pgwire_put_empty(strbuf *s, char cType);

/* AuthenticationOk, SASL (the mechanism list), SASLContinue, SASLFinal. */
void pgwire_put_auth(strbuf *s, int32_t iCode, const void *pData, size_t nData);
void pgwire_put_auth_sasl(strbuf *s, const char *const *azMech, int nMech);
void pgwire_put_parameter_status(strbuf *s, const char *zName, const char *zValue);
void pgwire_put_backend_key(strbuf *s, int32_t iPid, int32_t iSecret);
void pgwire_put_ready(strbuf *s, char cTxn);
/* aFormat: one code per column, or NULL for text throughout. */
void pgwire_put_row_description(strbuf *s, int nCol, const pgwire_column *aCol,
                                const int16_t *aFormat);
void pgwire_put_parameter_description(strbuf *s, int nParam, const uint32_t *aType);
void pgwire_put_command_complete(strbuf *s, const char *zTag);
/* cType: PGWIRE_MSG_ERROR or PGWIRE_MSG_NOTICE. */
void pgwire_put_error(strbuf *s, char cType, const pgwire_error *e);
/* CopyInResponse: overall format and nCol column formats, all the same. */
void pgwire_put_copy_in_response(strbuf *s, int bBinary, int nCol);
/* CopyOutResponse: the same fields. */
void pgwire_put_copy_out_response(strbuf *s, int bBinary, int nCol);
/* NegotiateProtocolVersion: the newest minor version served, and the
** protocol options (_pq_.*) not recognized. */
void pgwire_put_negotiate_version(strbuf *s, uint32_t iMinor, int nOpt,
                                  const char *const *azOpt);

/* ---- binary values -------------------------------------------------------- */

/* Returns 1 if values of type iOid have a binary form here: int2, int4,
** int8, oid, float4, float8, bool, date, and the text-like types (text,
** varchar, bpchar, name, unknown), whose binary form is their text. */
int pgwire_binary_supported(uint32_t iOid);

/* Appends the binary form of the text value z[0..n) of type iOid (as
** PostgreSQL prints it) to s. Returns 0, or -1 if the text is not a value
** of the type or the type has no binary form here. */
int pgwire_binary_from_text(uint32_t iOid, const char *z, size_t n, strbuf *s);

/* Appends the text form of the binary value a[0..n) of type iOid to s.
** Returns 0, or -1 if the bytes are not a value of the type (a wrong
** length, a bool other than 0 or 1, a date out of range). */
int pgwire_binary_to_text(uint32_t iOid, const unsigned char *a, size_t n, strbuf *s);

/* pgwire-time.c, for the two above: a timestamp's or timestamptz's text
** (a timestamptz's with its offset) to its binary form appended to s, and
** microseconds since 2000-01-01 to text (a timestamptz's in UTC, with its
** offset, which the engine reads whatever the session's zone). Return 0,
** or -1 if the value is not one of the type. */
int pgwire__timestamp_from_text(uint32_t iOid, const char *z, size_t n, strbuf *s);
int pgwire__timestamp_to_text(uint32_t iOid, int64_t ts, strbuf *s);

#endif /* STARQ_PGWIRE_H */
