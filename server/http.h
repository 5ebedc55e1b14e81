/*
** server/http.h — HTTP/1.1 and 1.0 on the status port: an incremental
** parser of request heads for GET and HEAD, and the writer of responses.
**
** The status port serves a handful of read-only pages, so the parser
** takes no request bodies at all and holds each request head in a fixed
** buffer inside the parser: nothing it is sent can make it allocate, and
** limits on the request line, each header line, the whole head and the
** number of header fields bound what it keeps. It knows nothing of
** sockets: the connection code (http-conn.c) feeds it whatever bytes
** arrive, in pieces of any size, and it says when a head is complete and
** how many of the bytes it used, so pipelined requests that follow in the
** same read stay with the caller for the next round.
**
** Errors carry the status code to answer with: 400 for bad syntax (and a
** HTTP/1.1 request without exactly one Host), 413 for a GET or HEAD that
** announces a body, 414 for a request line over its limit, 431 for a
** header line, head or header count over its limit, 505 for an HTTP major
** version other than 1. After an error the connection is answered and
** closed: the stream cannot be trusted to find the next request. A method
** other than GET and HEAD is parsed like any other, and its request comes
** back marked HTTP_METHOD_OTHER and not keep-alive (a body we never read
** may follow), for the router to answer 405.
**
** INTERFACE ROUTINES
**   http_parser_init     a parser for one connection, with limits
**   http_parser_feed     give it bytes; a request may be complete
**   http_parser_reset    ready for the connection's next request
**   http_response_write  a whole response: status line, headers, body
**   http_error_write     the response to a parse error (closes)
**   http_status_reason   "Not Found" for 404
*/
#ifndef STARQ_HTTP_H
#define STARQ_HTTP_H

#include <stddef.h>

#include "../common/strbuf.h"

/* The most bytes a request head may have, and so the parser's buffer. */
#define HTTP_HEAD_MAX 16384

/* Status codes the status port answers with, and their reason phrases. */
#define HTTP_STATUS_MAP(X)                                                   \
  X(200, "OK")                                                               \
  X(400, "Bad Request")                                                      \
  X(404, "Not Found")                                                        \
  X(405, "Method Not Allowed")                                               \
  X(413, "Content Too Large")                                                \
  X(414, "URI Too Long")                                                     \
  X(431, "Request Header Fields Too Large")                                  \
  X(500, "Internal Server Error")                                            \
  X(503, "Service Unavailable")                                              \
  X(505, "HTTP Version Not Supported")

/* Limits on what one request head may hold. A field at 0 takes its
** default; nHeadMax is at most HTTP_HEAD_MAX. */
typedef struct http_limits http_limits;
struct http_limits {
  int nLineMax;          /* request line, without CRLF: 414 past it (4096) */
  int nHeaderLineMax;    /* one header line, without CRLF: 431 (4096) */
  int nHeadMax;          /* the whole head: 431 (HTTP_HEAD_MAX) */
  int nHeaderMax;        /* header fields: 431 past it (64) */
};

typedef enum http_method {
  HTTP_METHOD_GET,
  HTTP_METHOD_HEAD,
  HTTP_METHOD_OTHER      /* any other token: answered 405 */
} http_method;

/* One parsed request head. The strings point into the parser's buffer and
** stay valid until the next http_parser_feed() or http_parser_reset(). */
typedef struct http_request http_request;
struct http_request {
  http_method eMethod;
  const char *zMethod;   /* the method as sent ("GET") */
  const char *zPath;     /* the target's path, starting '/', no query */
  const char *zQuery;    /* what followed '?', or NULL */
  const char *zHost;     /* the Host field's value, or NULL (HTTP/1.0) */
  int iMinor;            /* HTTP/1.x: 0 or 1 (1.2 and up read as 1) */
  int bKeepAlive;        /* another request may follow on the connection */
  int nHeader;           /* header fields in the head */
};

typedef enum http_parse_rc {
  HTTP_PARSE_ERROR = -1, /* p->iStatus says what to answer; then close */
  HTTP_PARSE_MORE = 0,   /* every byte used; the head is not complete */
  HTTP_PARSE_DONE = 1    /* p->req is a complete request */
} http_parse_rc;

/* The parser of one connection. Private but for req, iStatus and zWhy;
** lives wherever its owner puts it (about 16 KiB), needs no freeing. */
typedef struct http_parser http_parser;
struct http_parser {
  http_request req;      /* read-only: the request, after HTTP_PARSE_DONE */
  int iStatus;           /* read-only: after HTTP_PARSE_ERROR, 400..505 */
  const char *zWhy;      /* read-only: after an error, a short static reason */
  http_limits lim;       /* limits in force, defaults filled in */
  int eState;            /* HTTP__* in http.c */
  int nBlank;            /* empty lines skipped before the request line */
  size_t nBuf;           /* bytes of the head in aBuf */
  size_t iLine;          /* where the line being received starts in aBuf */
  long long nLength;     /* Content-Length, or -1 when absent */
  unsigned mSeen;        /* HTTP__SEEN_* fields seen */
  char aBuf[HTTP_HEAD_MAX + 1];   /* the head; lines NUL-terminated in place */
};

/* Readies p for a connection's first request. pLim may be NULL for the
** defaults. */
void http_parser_init(http_parser *p, const http_limits *pLim);

/* Parses the n bytes at a, which continue what was fed before. Sets
** *pnUsed to how many were used: all of them unless the head completed
** inside them, in which case the rest belong to the next request. Returns
** HTTP_PARSE_MORE, HTTP_PARSE_DONE (p->req holds the request) or
** HTTP_PARSE_ERROR (p->iStatus and p->zWhy say why). Once done or failed,
** it uses no more bytes and returns the same until reset. Never reads
** a[n] or beyond, whatever the bytes are. */
http_parse_rc http_parser_feed(http_parser *p, const char *a, size_t n, size_t *pnUsed);

/* Readies p for the next request on the same connection, keeping its
** limits. */
void http_parser_reset(http_parser *p);

/* What a route answers; the body is not owned and is copied out. */
typedef struct http_response http_response;
struct http_response {
  int iStatus;               /* a code of HTTP_STATUS_MAP */
  const char *zContentType;  /* "application/json" */
  const char *zBody;         /* nBody bytes; the body of a GET */
  size_t nBody;
  const char *zAllow;        /* the Allow field (for 405), or NULL */
};

/* Appends the whole response to pOut: status line (always HTTP/1.1),
** Date, Content-Type, Content-Length, Cache-Control: no-store, Connection,
** then the body unless bHead (a HEAD gets the GET's fields, no body).
** bKeepAlive says whether the connection stays open; "Connection:
** keep-alive" is written only for HTTP/1.0 (iMinor 0), to which it is not
** the default. */
void http_response_write(strbuf *pOut, const http_response *pResp, int iMinor, int bHead,
                         int bKeepAlive);

/* Appends the response to a failed parse: p->iStatus with a one-line text
** body, "Connection: close". */
void http_error_write(strbuf *pOut, const http_parser *p);

/* Returns the reason phrase of a status code, or "Unknown". */
const char *http_status_reason(int iStatus);

#endif /* STARQ_HTTP_H */
