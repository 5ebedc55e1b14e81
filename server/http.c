/*
** server/http.c — the request-head parser and response writer of http.h.
**
** The parser is line-driven. Bytes are copied into the parser's buffer up
** to the next LF, with the line's limit and the head's limit checked
** before each copy, so an over-long line fails as soon as it is too long,
** not when it ends. Each complete line is parsed at once and cut in place
** (NUL-terminated), and the request's strings point at the pieces. The
** grammar is RFC 9112's, read strictly: single spaces in the request line,
** no space before a field's colon, no obsolete line folding, no control
** bytes; a lone LF ends a line as CRLF does, and empty lines before the
** request line are skipped, as the RFC allows.
**
** The writer builds a whole response in a strbuf, so the connection sends
** it in one write.
*/
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "http.h"

/* Parser states (eState). */
#define HTTP__LINE    0     /* receiving the request line */
#define HTTP__HEADERS 1     /* receiving header lines */
#define HTTP__DONE    2     /* a complete request in req */
#define HTTP__ERROR   3     /* failed: iStatus, zWhy */

/* Fields seen (mSeen). */
#define HTTP__SEEN_HOST      0x01
#define HTTP__SEEN_LENGTH    0x02
#define HTTP__SEEN_TE        0x04
#define HTTP__SEEN_CLOSE     0x08
#define HTTP__SEEN_KEEPALIVE 0x10

/* Empty lines skipped before a request line; more is not a client. */
#define HTTP__BLANK_MAX 8

static const http_limits http__default_limits = {4096, 4096, HTTP_HEAD_MAX, 64};

void http_parser_init(http_parser *p, const http_limits *pLim) {
  http_limits lim = http__default_limits;
  if (pLim != NULL) {
    if (pLim->nLineMax > 0) lim.nLineMax = pLim->nLineMax;
    if (pLim->nHeaderLineMax > 0) lim.nHeaderLineMax = pLim->nHeaderLineMax;
    if (pLim->nHeadMax > 0 && pLim->nHeadMax < HTTP_HEAD_MAX) lim.nHeadMax = pLim->nHeadMax;
    if (pLim->nHeaderMax > 0) lim.nHeaderMax = pLim->nHeaderMax;
  }
  p->lim = lim;
  http_parser_reset(p);
}

void http_parser_reset(http_parser *p) {
  memset(&p->req, 0, sizeof(p->req));
  p->iStatus = 0;
  p->zWhy = NULL;
  p->eState = HTTP__LINE;
  p->nBlank = 0;
  p->nBuf = 0;
  p->iLine = 0;
  p->nLength = -1;
  p->mSeen = 0;
}

/* Fails the parse. Returns HTTP_PARSE_ERROR, for tail calls. */
static http_parse_rc http__fail(http_parser *p, int iStatus, const char *zWhy) {
  p->eState = HTTP__ERROR;
  p->iStatus = iStatus;
  p->zWhy = zWhy;
  return HTTP_PARSE_ERROR;
}

/* Returns 1 if c may appear in a token (a method, a field name). */
static int http__is_tchar(unsigned char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return 1;
  return c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

/* ---- the request line -------------------------------------------------- */

/* Sets req.zPath and req.zQuery from the target z (visible ASCII, cut in
** place). GET and HEAD take origin-form ("/x?y") and absolute-form
** ("http://host/x"); a method answered 405 anyway may have any target. */
static http_parse_rc http__target(http_parser *p, char *z) {
  char *zQ;
  if (z[0] != '/') {
    size_t nScheme = strncasecmp(z, "http://", 7) == 0 ? 7 : strncasecmp(z, "https://", 8) == 0 ? 8 : 0;
    if (nScheme == 0) {
      if (p->req.eMethod != HTTP_METHOD_OTHER) return http__fail(p, 400, "bad request target");
      p->req.zPath = z;
      return HTTP_PARSE_MORE;
    }
    z += nScheme;
    if (*z == 0 || *z == '/' || *z == '?') return http__fail(p, 400, "request target without a host");
    z += strcspn(z, "/?");
    if (*z != '/') {
      /* "http://host" or "http://host?q": the path is "/". */
      p->req.zPath = "/";
      if (*z == '?') p->req.zQuery = z + 1;
      return HTTP_PARSE_MORE;
    }
  }
  p->req.zPath = z;
  zQ = strchr(z, '?');
  if (zQ != NULL) {
    *zQ = 0;
    p->req.zQuery = zQ + 1;
  }
  return HTTP_PARSE_MORE;
}

/* Parses "METHOD SP target SP HTTP/d.d" (n bytes at z, no line end). */
static http_parse_rc http__request_line(http_parser *p, char *z, size_t n) {
  size_t i = 0, iTarget;
  const char *zVer;

  while (i < n && http__is_tchar((unsigned char)z[i])) i++;
  if (i == 0 || i == n || z[i] != ' ') return http__fail(p, 400, "bad method");
  z[i++] = 0;
  iTarget = i;
  while (i < n && (unsigned char)z[i] > 0x20 && (unsigned char)z[i] < 0x7f) i++;
  if (i == iTarget || i == n || z[i] != ' ') return http__fail(p, 400, "bad request target");
  z[i++] = 0;
  zVer = z + i;
  if (n - i != 8 || memcmp(zVer, "HTTP/", 5) != 0 || zVer[5] < '0' || zVer[5] > '9' ||
      zVer[6] != '.' || zVer[7] < '0' || zVer[7] > '9') {
    return http__fail(p, 400, "bad HTTP version");
  }
  if (zVer[5] != '1') return http__fail(p, 505, "only HTTP/1.0 and HTTP/1.1 are served");
  p->req.iMinor = zVer[7] == '0' ? 0 : 1;
  p->req.zMethod = z;
  if (strcmp(z, "GET") == 0) {
    p->req.eMethod = HTTP_METHOD_GET;
  } else if (strcmp(z, "HEAD") == 0) {
    p->req.eMethod = HTTP_METHOD_HEAD;
  } else {
    p->req.eMethod = HTTP_METHOD_OTHER;
  }
  return http__target(p, z + iTarget);
}

/* ---- header fields ------------------------------------------------------ */

/* Reads a Content-Length value: digits only; a second one must agree. */
static http_parse_rc http__content_length(http_parser *p, const char *zVal) {
  long long n = 0;
  if (*zVal == 0) return http__fail(p, 400, "empty Content-Length");
  for (const char *z = zVal; *z != 0; z++) {
    if (*z < '0' || *z > '9') return http__fail(p, 400, "bad Content-Length");
    /* Any length past this is refused as a body all the same. */
    if (n < 1000000000000000LL) n = n * 10 + (*z - '0');
  }
  if ((p->mSeen & HTTP__SEEN_LENGTH) && n != p->nLength) {
    return http__fail(p, 400, "conflicting Content-Length fields");
  }
  p->mSeen |= HTTP__SEEN_LENGTH;
  p->nLength = n;
  return HTTP_PARSE_MORE;
}

/* Notes the "close" and "keep-alive" options of a Connection field (a
** comma-separated list of tokens, any case). */
static void http__connection(http_parser *p, const char *zVal) {
  while (*zVal != 0) {
    size_t n;
    zVal += strspn(zVal, " \t,");
    n = strcspn(zVal, " \t,");
    if (n == 5 && strncasecmp(zVal, "close", 5) == 0) p->mSeen |= HTTP__SEEN_CLOSE;
    if (n == 10 && strncasecmp(zVal, "keep-alive", 10) == 0) p->mSeen |= HTTP__SEEN_KEEPALIVE;
    zVal += n;
  }
}

/* Takes note of the fields that matter here; the rest are checked for
** syntax only. */
static http_parse_rc http__field(http_parser *p, const char *zName, const char *zVal) {
  if (strcasecmp(zName, "host") == 0) {
    if (p->mSeen & HTTP__SEEN_HOST) return http__fail(p, 400, "more than one Host field");
    p->mSeen |= HTTP__SEEN_HOST;
    p->req.zHost = zVal;
  } else if (strcasecmp(zName, "content-length") == 0) {
    return http__content_length(p, zVal);
  } else if (strcasecmp(zName, "transfer-encoding") == 0) {
    p->mSeen |= HTTP__SEEN_TE;
  } else if (strcasecmp(zName, "connection") == 0) {
    http__connection(p, zVal);
  }
  return HTTP_PARSE_MORE;
}

/* The empty line: checks the head as a whole and settles keep-alive. */
static http_parse_rc http__head_end(http_parser *p) {
  http_request *r = &p->req;
  if (r->iMinor == 1 && !(p->mSeen & HTTP__SEEN_HOST)) {
    return http__fail(p, 400, "an HTTP/1.1 request without a Host field");
  }
  if ((p->mSeen & HTTP__SEEN_TE) && (p->mSeen & HTTP__SEEN_LENGTH)) {
    return http__fail(p, 400, "both Transfer-Encoding and Content-Length");
  }
  if (r->eMethod != HTTP_METHOD_OTHER && ((p->mSeen & HTTP__SEEN_TE) || p->nLength > 0)) {
    return http__fail(p, 413, "a GET or HEAD request may not have a body");
  }
  if (r->eMethod == HTTP_METHOD_OTHER) {
    r->bKeepAlive = 0;
  } else if (r->iMinor == 0) {
    r->bKeepAlive = (p->mSeen & HTTP__SEEN_KEEPALIVE) && !(p->mSeen & HTTP__SEEN_CLOSE);
  } else {
    r->bKeepAlive = !(p->mSeen & HTTP__SEEN_CLOSE);
  }
  p->eState = HTTP__DONE;
  return HTTP_PARSE_DONE;
}

/* Parses "name: value" (n bytes at z, no line end), or the empty line. */
static http_parse_rc http__header_line(http_parser *p, char *z, size_t n) {
  size_t i = 0, iVal, iEnd;
  if (n == 0) return http__head_end(p);
  if (z[0] == ' ' || z[0] == '\t') return http__fail(p, 400, "obsolete line folding");
  if (++p->req.nHeader > p->lim.nHeaderMax) return http__fail(p, 431, "too many header fields");
  while (i < n && http__is_tchar((unsigned char)z[i])) i++;
  if (i == 0 || i == n || z[i] != ':') return http__fail(p, 400, "bad header field name");
  z[i] = 0;
  iVal = i + 1;
  while (iVal < n && (z[iVal] == ' ' || z[iVal] == '\t')) iVal++;
  iEnd = n;
  while (iEnd > iVal && (z[iEnd - 1] == ' ' || z[iEnd - 1] == '\t')) iEnd--;
  for (size_t k = iVal; k < iEnd; k++) {
    unsigned char c = (unsigned char)z[k];
    if ((c < 0x20 && c != '\t') || c == 0x7f) return http__fail(p, 400, "bad header field value");
  }
  z[iEnd] = 0;
  return http__field(p, z, z + iVal);
}

/* ---- lines ---------------------------------------------------------------- */

/* Parses the line that ends with the LF at aBuf[nBuf-1]. */
static http_parse_rc http__line(http_parser *p) {
  char *z = p->aBuf + p->iLine;
  size_t n = p->nBuf - 1 - p->iLine;
  size_t nMax = p->eState == HTTP__LINE ? (size_t)p->lim.nLineMax : (size_t)p->lim.nHeaderLineMax;

  if (n > 0 && z[n - 1] == '\r') n--;
  if (n > nMax) return http__fail(p, p->eState == HTTP__LINE ? 414 : 431, "line too long");
  z[n] = 0;
  p->iLine = p->nBuf;
  if (p->eState == HTTP__HEADERS) return http__header_line(p, z, n);
  if (n == 0) {
    /* An empty line before the request line is skipped and forgotten. */
    if (++p->nBlank > HTTP__BLANK_MAX) return http__fail(p, 400, "no request line");
    p->nBuf = p->iLine = 0;
    return HTTP_PARSE_MORE;
  }
  p->eState = HTTP__HEADERS;
  return http__request_line(p, z, n);
}

http_parse_rc http_parser_feed(http_parser *p, const char *a, size_t n, size_t *pnUsed) {
  size_t i = 0;
  *pnUsed = 0;
  if (p->eState == HTTP__DONE) return HTTP_PARSE_DONE;
  if (p->eState == HTTP__ERROR) return HTTP_PARSE_ERROR;
  while (i < n) {
    const char *pLf = memchr(a + i, '\n', n - i);
    size_t nTake = pLf != NULL ? (size_t)(pLf - (a + i)) + 1 : n - i;
    size_t nLine = p->nBuf - p->iLine + nTake - (pLf != NULL);   /* without the LF */
    int bFirst = p->eState == HTTP__LINE;
    size_t nMax = bFirst ? (size_t)p->lim.nLineMax : (size_t)p->lim.nHeaderLineMax;
    http_parse_rc rc;

    /* A line may hold its limit and a CR; the head must fit the buffer. */
    if (nLine > nMax + 1) return http__fail(p, bFirst ? 414 : 431, "line too long");
    if (p->nBuf + nTake > (size_t)p->lim.nHeadMax) {
      return http__fail(p, bFirst ? 414 : 431, "request head too large");
    }
    memcpy(p->aBuf + p->nBuf, a + i, nTake);
    p->nBuf += nTake;
    i += nTake;
    *pnUsed = i;
    if (pLf == NULL) break;
    rc = http__line(p);
    if (rc != HTTP_PARSE_MORE) return rc;
  }
  return HTTP_PARSE_MORE;
}

/* ---- responses ------------------------------------------------------------ */

const char *http_status_reason(int iStatus) {
  switch (iStatus) {
#define HTTP__REASON(code, text) case code: return text;
    HTTP_STATUS_MAP(HTTP__REASON)
#undef HTTP__REASON
    default: return "Unknown";
  }
}

/* Appends "Date: ..." in RFC 9110's IMF-fixdate, spelled out here rather
** than by strftime so that no locale can change it. */
static void http__date_write(strbuf *pOut) {
  static const char *const azDay[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char *const azMon[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  time_t t = time(NULL);
  struct tm tm;
  if (gmtime_r(&t, &tm) == NULL) return;
  strbuf_printf(pOut, "Date: %s, %02d %s %04d %02d:%02d:%02d GMT\r\n", azDay[tm.tm_wday % 7],
                tm.tm_mday, azMon[tm.tm_mon % 12], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                tm.tm_sec);
}

void http_response_write(strbuf *pOut, const http_response *pResp, int iMinor, int bHead,
                         int bKeepAlive) {
  strbuf_printf(pOut, "HTTP/1.1 %d %s\r\n", pResp->iStatus, http_status_reason(pResp->iStatus));
  http__date_write(pOut);
  strbuf_puts(pOut, "Server: starq\r\n");
  if (pResp->zContentType != NULL) {
    strbuf_printf(pOut, "Content-Type: %s\r\n", pResp->zContentType);
  }
  strbuf_printf(pOut, "Content-Length: %zu\r\n", pResp->nBody);
  strbuf_puts(pOut, "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n");
  if (pResp->zAllow != NULL) strbuf_printf(pOut, "Allow: %s\r\n", pResp->zAllow);
  if (!bKeepAlive) {
    strbuf_puts(pOut, "Connection: close\r\n");
  } else if (iMinor == 0) {
    strbuf_puts(pOut, "Connection: keep-alive\r\n");
  }
  strbuf_puts(pOut, "\r\n");
  if (!bHead) strbuf_append(pOut, pResp->zBody != NULL ? pResp->zBody : "", pResp->nBody);
}

void http_error_write(strbuf *pOut, const http_parser *p) {
  char zBody[160];
  http_response r;
  int iStatus = p->iStatus != 0 ? p->iStatus : 400;
  int n = snprintf(zBody, sizeof(zBody), "%d %s: %s\n", iStatus, http_status_reason(iStatus),
                   p->zWhy != NULL ? p->zWhy : "bad request");
  memset(&r, 0, sizeof(r));
  r.iStatus = iStatus;
  r.zContentType = "text/plain; charset=utf-8";
  r.zBody = zBody;
  r.nBody = n < 0 ? 0 : (size_t)n < sizeof(zBody) ? (size_t)n : sizeof(zBody) - 1;
  /* The request line may not have been read, so its version is unknown:
  ** 1.1 framing, and the connection closes either way. */
  http_response_write(pOut, &r, 1, 0, 0);
}
