/*
** server/pgwire-decode.c — frontend messages from bytes: where each one
** ends in the stream (pgwire_frame_next) and what its body says (the
** pgwire_*_decode functions of pgwire.h).
**
** Every read goes through a bounded reader that fails instead of running
** past the body, so a length word, count or string that lies makes the
** decode fail with a message saying which. The decoders check structure
** only: whether a name exists, a format code is known or a count matches
** a statement is the session's business.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pgwire.h"

/* Writes a message into the caller's buffer and returns rc. */
static int pgwire__fail(int rc, char *zErr, size_t nErr, const char *zFmt, ...)
    __attribute__((format(printf, 4, 5)));
static int pgwire__fail(int rc, char *zErr, size_t nErr, const char *zFmt, ...) {
  va_list ap;
  if (nErr > 0) {
    va_start(ap, zFmt);
    vsnprintf(zErr, nErr, zFmt, ap);
    va_end(ap);
  }
  return rc;
}

/* ---- framing ---------------------------------------------------------------- */

/* Returns the largest length word allowed for typed message cType, or 0
** if cType is not a frontend message type. Messages that only ever carry
** a name or nothing get the small limit, as in PostgreSQL's SocketBackend. */
static uint32_t pgwire__type_limit(unsigned char cType, uint32_t nMax) {
  uint32_t nSmall = nMax < PGWIRE_SMALL_MAX ? nMax : PGWIRE_SMALL_MAX;
  switch (cType) {
    case PGWIRE_MSG_BIND:
    case PGWIRE_MSG_PARSE:
    case PGWIRE_MSG_QUERY:
    case PGWIRE_MSG_COPY_DATA:
    case PGWIRE_MSG_FUNCTION_CALL:
      return nMax;
    case PGWIRE_MSG_CLOSE:
    case PGWIRE_MSG_DESCRIBE:
    case PGWIRE_MSG_EXECUTE:
    case PGWIRE_MSG_FLUSH:
    case PGWIRE_MSG_SYNC:
    case PGWIRE_MSG_TERMINATE:
    case PGWIRE_MSG_COPY_DONE:
    case PGWIRE_MSG_COPY_FAIL:
    case PGWIRE_MSG_PASSWORD:
      return nSmall;
    default:
      return 0;
  }
}

int pgwire_frame_next(const void *pBuf, size_t n, int bStartup, uint32_t nMax,
                      pgwire_frame *pF, char *zErr, size_t nErr) {
  const unsigned char *a = pBuf;
  size_t nHead = bStartup ? 4 : 5;
  uint32_t nLen, nLimit;

  if (n == 0) return PGWIRE_MORE;
  if (bStartup) {
    nLimit = nMax < PGWIRE_SMALL_MAX ? nMax : PGWIRE_SMALL_MAX;
  } else {
    nLimit = pgwire__type_limit(a[0], nMax);
    if (nLimit == 0) {
      return pgwire__fail(PGWIRE_EPROTO, zErr, nErr, "invalid frontend message type %d", a[0]);
    }
  }
  if (n < nHead) return PGWIRE_MORE;
  nLen = pgwire_get_u32(a + nHead - 4);
  if (nLen < (bStartup ? 8u : 4u) || nLen > 0x7FFFFFFFu) {
    return pgwire__fail(PGWIRE_EPROTO, zErr, nErr, "invalid %s length %u",
                        bStartup ? "startup packet" : "message", nLen);
  }
  if (nLen > nLimit) {
    return pgwire__fail(PGWIRE_ETOOBIG, zErr, nErr,
                        "%s of %u bytes is longer than the limit of %u bytes",
                        bStartup ? "startup packet" : "message", nLen, nLimit);
  }
  if (n - (nHead - 4) < nLen) return PGWIRE_MORE;
  pF->cType = bStartup ? 0 : (char)a[0];
  pF->aBody = a + nHead;
  pF->nBody = nLen - 4;
  pF->nWire = nHead - 4 + nLen;
  return PGWIRE_OK;
}

/* ---- the bounded reader ------------------------------------------------------ */

typedef struct pgwire_reader pgwire_reader;
struct pgwire_reader {
  const unsigned char *a;  /* the body; not owned */
  uint32_t n;              /* its size */
  uint32_t i;              /* the next byte to read */
  char *zErr;              /* the caller's message buffer */
  size_t nErr;
};

static int reader_short(pgwire_reader *r) {
  return pgwire__fail(PGWIRE_EPROTO, r->zErr, r->nErr, "insufficient data left in message");
}

static int reader_bytes(pgwire_reader *r, uint32_t nWant, const unsigned char **pa) {
  if (r->n - r->i < nWant) return reader_short(r);
  *pa = r->a + r->i;
  r->i += nWant;
  return PGWIRE_OK;
}

static int reader_u32(pgwire_reader *r, uint32_t *pv) {
  const unsigned char *p = NULL;
  if (reader_bytes(r, 4, &p) != PGWIRE_OK) return PGWIRE_EPROTO;
  *pv = pgwire_get_u32(p);
  return PGWIRE_OK;
}

static int reader_i32(pgwire_reader *r, int32_t *pv) {
  uint32_t v;
  if (reader_u32(r, &v) != PGWIRE_OK) return PGWIRE_EPROTO;
  *pv = (int32_t)v;
  return PGWIRE_OK;
}

/* Counts are unsigned 16-bit words, as pq_getmsgint(msg, 2) reads them. */
static int reader_count(pgwire_reader *r, int *pv) {
  const unsigned char *p = NULL;
  if (reader_bytes(r, 2, &p) != PGWIRE_OK) return PGWIRE_EPROTO;
  *pv = (int)((unsigned)p[0] << 8 | p[1]);
  return PGWIRE_OK;
}

/* Reads a NUL-terminated string that ends inside the body. */
static int reader_str(pgwire_reader *r, const char **pz) {
  const unsigned char *pEnd = NULL;
  if (r->i < r->n) pEnd = memchr(r->a + r->i, 0, r->n - r->i);
  if (pEnd == NULL) {
    return pgwire__fail(PGWIRE_EPROTO, r->zErr, r->nErr, "invalid string in message");
  }
  *pz = (const char *)(r->a + r->i);
  r->i = (uint32_t)(pEnd - r->a) + 1;
  return PGWIRE_OK;
}

static int reader_end(pgwire_reader *r) {
  if (r->i != r->n) {
    return pgwire__fail(PGWIRE_EPROTO, r->zErr, r->nErr, "invalid message format");
  }
  return PGWIRE_OK;
}

static void reader_init(pgwire_reader *r, const unsigned char *a, uint32_t n,
                        char *zErr, size_t nErr) {
  static const unsigned char aNone[1];
  r->a = a != NULL ? a : aNone;    /* NULL + 0 is undefined */
  r->n = a != NULL ? n : 0;
  r->i = 0;
  r->zErr = zErr;
  r->nErr = nErr;
  if (nErr > 0) zErr[0] = 0;
}

/* ---- decoders -------------------------------------------------------------- */

/* Reads a StartupMessage's name/value pairs: a list ended by an empty name. */
static int pgwire__startup_params(pgwire_reader *r, pgwire_startup *p) {
  for (;;) {
    const char *zName, *zValue;
    if (r->i == r->n) {
      return pgwire__fail(PGWIRE_EPROTO, r->zErr, r->nErr,
                          "invalid startup packet layout: expected terminator as last byte");
    }
    if (reader_str(r, &zName) != PGWIRE_OK) return PGWIRE_EPROTO;
    if (zName[0] == 0) break;
    if (reader_str(r, &zValue) != PGWIRE_OK) return PGWIRE_EPROTO;
    if (p->nParam == PGWIRE_STARTUP_PARAMS_MAX) {
      return pgwire__fail(PGWIRE_EPROTO, r->zErr, r->nErr,
                          "startup packet has more than %d parameters", PGWIRE_STARTUP_PARAMS_MAX);
    }
    p->azName[p->nParam] = zName;
    p->azValue[p->nParam] = zValue;
    p->nParam++;
  }
  return reader_end(r);
}

int pgwire_startup_decode(const unsigned char *a, uint32_t n, pgwire_startup *p,
                          char *zErr, size_t nErr) {
  pgwire_reader r;
  reader_init(&r, a, n, zErr, nErr);
  memset(p, 0, sizeof(*p));
  if (reader_u32(&r, &p->iCode) != PGWIRE_OK) return PGWIRE_EPROTO;
  switch (p->iCode) {
    case PGWIRE_CANCEL_REQUEST:
      if (reader_i32(&r, &p->iPid) != PGWIRE_OK || reader_i32(&r, &p->iSecret) != PGWIRE_OK) {
        return PGWIRE_EPROTO;
      }
      return reader_end(&r);
    case PGWIRE_SSL_REQUEST:
    case PGWIRE_GSSENC_REQUEST:
      return reader_end(&r);
    default:
      /* Another major version may lay its packet out otherwise: the
      ** session refuses the version without looking further. */
      if (PGWIRE_VERSION_MAJOR(p->iCode) != 3) return PGWIRE_OK;
      return pgwire__startup_params(&r, p);
  }
}

int pgwire_query_decode(const unsigned char *a, uint32_t n, const char **pzSql,
                        char *zErr, size_t nErr) {
  pgwire_reader r;
  reader_init(&r, a, n, zErr, nErr);
  if (reader_str(&r, pzSql) != PGWIRE_OK) return PGWIRE_EPROTO;
  return reader_end(&r);
}

int pgwire_parse_decode(const unsigned char *a, uint32_t n, pgwire_parse *p,
                        char *zErr, size_t nErr) {
  pgwire_reader r;
  reader_init(&r, a, n, zErr, nErr);
  if (reader_str(&r, &p->zName) != PGWIRE_OK || reader_str(&r, &p->zSql) != PGWIRE_OK ||
      reader_count(&r, &p->nParamType) != PGWIRE_OK ||
      reader_bytes(&r, 4 * (uint32_t)p->nParamType, &p->aParamType) != PGWIRE_OK) {
    return PGWIRE_EPROTO;
  }
  return reader_end(&r);
}

/* Reads a count and an array of that many int16 format codes. */
static int pgwire__formats(pgwire_reader *r, int *pnFormat, const unsigned char **paFormat) {
  if (reader_count(r, pnFormat) != PGWIRE_OK) return PGWIRE_EPROTO;
  return reader_bytes(r, 2 * (uint32_t)*pnFormat, paFormat);
}

int pgwire_bind_decode(const unsigned char *a, uint32_t n, pgwire_bind *p,
                       char *zErr, size_t nErr) {
  pgwire_reader r;
  reader_init(&r, a, n, zErr, nErr);
  if (reader_str(&r, &p->zPortal) != PGWIRE_OK || reader_str(&r, &p->zStmt) != PGWIRE_OK ||
      pgwire__formats(&r, &p->nParamFormat, &p->aParamFormat) != PGWIRE_OK ||
      reader_count(&r, &p->nParam) != PGWIRE_OK) {
    return PGWIRE_EPROTO;
  }
  if (p->nParamFormat > 1 && p->nParamFormat != p->nParam) {
    return pgwire__fail(PGWIRE_EPROTO, zErr, nErr,
                        "bind message has %d parameter formats but %d parameters",
                        p->nParamFormat, p->nParam);
  }
  p->aParam = r.a + r.i;
  for (int i = 0; i < p->nParam; i++) {
    const unsigned char *pValue;
    int32_t nValue;
    if (reader_i32(&r, &nValue) != PGWIRE_OK) return PGWIRE_EPROTO;
    if (nValue < -1) {
      return pgwire__fail(PGWIRE_EPROTO, zErr, nErr, "invalid length %d of bind parameter %d",
                          nValue, i + 1);
    }
    if (nValue > 0 && reader_bytes(&r, (uint32_t)nValue, &pValue) != PGWIRE_OK) {
      return PGWIRE_EPROTO;
    }
  }
  if (pgwire__formats(&r, &p->nResultFormat, &p->aResultFormat) != PGWIRE_OK) {
    return PGWIRE_EPROTO;
  }
  return reader_end(&r);
}

void pgwire_bind_value_next(const pgwire_bind *p, size_t *piOff,
                            const unsigned char **pa, int32_t *pn) {
  const unsigned char *q = p->aParam + *piOff;
  int32_t nValue = (int32_t)pgwire_get_u32(q);
  *pa = q + 4;
  *pn = nValue;
  *piOff += 4 + (nValue > 0 ? (size_t)nValue : 0);
}

int pgwire_format_of(const unsigned char *aFormat, int nFormat, int i) {
  if (nFormat == 0) return PGWIRE_FORMAT_TEXT;
  return pgwire_get_i16(aFormat + 2 * (nFormat == 1 ? 0 : i));
}

int pgwire_target_decode(const unsigned char *a, uint32_t n, pgwire_target *p,
                         char *zErr, size_t nErr) {
  pgwire_reader r;
  const unsigned char *pKind = NULL;
  reader_init(&r, a, n, zErr, nErr);
  if (reader_bytes(&r, 1, &pKind) != PGWIRE_OK) return PGWIRE_EPROTO;
  if (*pKind != 'S' && *pKind != 'P') {
    return pgwire__fail(PGWIRE_EPROTO, zErr, nErr,
                        "invalid target type %d: expected 'S' or 'P'", *pKind);
  }
  p->cKind = (char)*pKind;
  if (reader_str(&r, &p->zName) != PGWIRE_OK) return PGWIRE_EPROTO;
  return reader_end(&r);
}

int pgwire_execute_decode(const unsigned char *a, uint32_t n, const char **pzPortal,
                          int32_t *pnMaxRow, char *zErr, size_t nErr) {
  pgwire_reader r;
  reader_init(&r, a, n, zErr, nErr);
  if (reader_str(&r, pzPortal) != PGWIRE_OK || reader_i32(&r, pnMaxRow) != PGWIRE_OK) {
    return PGWIRE_EPROTO;
  }
  return reader_end(&r);
}

int pgwire_empty_decode(const unsigned char *a, uint32_t n, char *zErr, size_t nErr) {
  pgwire_reader r;
  reader_init(&r, a, n, zErr, nErr);
  return reader_end(&r);
}

int pgwire_string_decode(const unsigned char *a, uint32_t n, const char **pz,
                         char *zErr, size_t nErr) {
  return pgwire_query_decode(a, n, pz, zErr, nErr);
}

int pgwire_sasl_initial_decode(const unsigned char *a, uint32_t n, const char **pzMech,
                               const unsigned char **paData, int32_t *pnData,
                               char *zErr, size_t nErr) {
  pgwire_reader r;
  reader_init(&r, a, n, zErr, nErr);
  *paData = NULL;
  if (reader_str(&r, pzMech) != PGWIRE_OK || reader_i32(&r, pnData) != PGWIRE_OK) {
    return PGWIRE_EPROTO;
  }
  if (*pnData < -1) {
    return pgwire__fail(PGWIRE_EPROTO, zErr, nErr, "invalid SASL response length %d", *pnData);
  }
  if (*pnData >= 0 && reader_bytes(&r, (uint32_t)*pnData, paData) != PGWIRE_OK) {
    return PGWIRE_EPROTO;
  }
  return reader_end(&r);
}
