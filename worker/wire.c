/*
** worker/wire.c — frames on the supervisor's socket, the buffers and
** readers that encode and decode bodies, and the small messages: QUERY,
** HELLO and LOST. The big one, ANSWER, is wire-result.c's. The layouts
** are in wire.h.
**
** Reading a frame grows its buffer as bytes arrive — by doubling, from at
** most 1 MiB — rather than allocating what the header claims: a peer
** that lies about a length costs at most twice the bytes it really sent.
*/
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../common/le.h"
#include "../common/timer.h"
#include "wire.h"

/* The first buffer of a frame being read, at most. */
#define WIRE_RECV_FIRST ((size_t)1 << 20)

/* ---- writing --------------------------------------------------------------- */

/* Makes room for n more bytes; sets bOom when it cannot. */
static int wire_buf_grow(wire_buf *b, size_t n) {
  size_t nNew;
  unsigned char *a;
  if (b->bOom) return -1;
  if (n <= b->nAlloc - b->n) return 0;
  if (n > SIZE_MAX / 2 - b->n) {
    b->bOom = 1;
    return -1;
  }
  nNew = b->nAlloc ? b->nAlloc : 256;
  while (nNew - b->n < n) nNew *= 2;
  if ((a = realloc(b->a, nNew)) == NULL) {
    b->bOom = 1;
    return -1;
  }
  b->a = a;
  b->nAlloc = nNew;
  return 0;
}

void wire_buf_init(wire_buf *b, wire_type eType) {
  memset(b, 0, sizeof(*b));
  if (wire_buf_grow(b, WIRE_HEADER_SIZE) != 0) return;
  memset(b->a, 0, WIRE_HEADER_SIZE);
  b->a[0] = (unsigned char)eType;
  b->n = WIRE_HEADER_SIZE;
}

void wire_buf_free(wire_buf *b) {
  free(b->a);
  memset(b, 0, sizeof(*b));
}

static void wire_put_le(wire_buf *b, uint64_t v, int nByte) {
  if (wire_buf_grow(b, (size_t)nByte) != 0) return;
  le_put(b->a + b->n, v, nByte);
  b->n += (size_t)nByte;
}

void wire_put_u8(wire_buf *b, unsigned v) { wire_put_le(b, v, 1); }
void wire_put_u32(wire_buf *b, uint32_t v) { wire_put_le(b, v, 4); }
void wire_put_u64(wire_buf *b, uint64_t v) { wire_put_le(b, v, 8); }

void wire_put_f64(wire_buf *b, double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof(u));
  wire_put_le(b, u, 8);
}

unsigned char *wire_put_space(wire_buf *b, size_t n) {
  unsigned char *p;
  if (wire_buf_grow(b, n) != 0) return NULL;
  p = b->a + b->n;
  b->n += n;
  return p;
}

void wire_put_bytes(wire_buf *b, const void *p, size_t n) {
  if (n == 0 || wire_buf_grow(b, n) != 0) return;
  memcpy(b->a + b->n, p, n);
  b->n += n;
}

void wire_put_str(wire_buf *b, const char *z, size_t n) {
  if (n > UINT32_MAX) {
    b->bOom = 1;
    return;
  }
  wire_put_u32(b, (uint32_t)n);
  wire_put_bytes(b, z, n);
}

int wire_frame_send(int fd, wire_buf *b, char *zErr, size_t nErr) {
  size_t nDone = 0;
  if (b->bOom || b->a == NULL) {
    snprintf(zErr, nErr, "out of memory building a frame for the device worker's socket");
    return -1;
  }
  le_put(b->a + 1, (uint64_t)(b->n - WIRE_HEADER_SIZE), 8);
  while (nDone < b->n) {
    ssize_t k = send(fd, b->a + nDone, b->n - nDone, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) {
      snprintf(zErr, nErr, "send: %s", k < 0 ? strerror(errno) : "nothing written");
      return -1;
    }
    nDone += (size_t)k;
  }
  return 0;
}

/* ---- reading --------------------------------------------------------------- */

/* Reads exactly n bytes. Returns n, fewer at the end of the stream, or -1
** with errno. A peer that died with bytes of ours unread resets the
** connection: for the reader that is the end of the stream too. */
static ssize_t wire_read_full(int fd, unsigned char *a, size_t n) {
  size_t nDone = 0;
  while (nDone < n) {
    ssize_t k = read(fd, a + nDone, n - nDone);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0 && errno == ECONNRESET) break;
    if (k < 0) return -1;
    if (k == 0) break;
    nDone += (size_t)k;
  }
  return (ssize_t)nDone;
}

int wire_frame_recv(int fd, wire_frame *pf, char *zErr, size_t nErr) {
  unsigned char aHead[WIRE_HEADER_SIZE];
  uint64_t nBody;
  size_t nGot = 0, nAlloc;
  ssize_t k;
  memset(pf, 0, sizeof(*pf));
  k = wire_read_full(fd, aHead, sizeof(aHead));
  if (k == 0) return 0;
  if (k < 0) {
    snprintf(zErr, nErr, "read: %s", strerror(errno));
    return -1;
  }
  if ((size_t)k < sizeof(aHead)) {
    snprintf(zErr, nErr, "a frame header cut short: %zd of %d bytes", k, WIRE_HEADER_SIZE);
    return -1;
  }
  if (aHead[0] < WIRE_QUERY || aHead[0] > WIRE_TYPE_LAST) {
    snprintf(zErr, nErr, "a frame of unknown type %u", aHead[0]);
    return -1;
  }
  nBody = le_get(aHead + 1, 8);
  if (nBody > WIRE_FRAME_MAX) {
    snprintf(zErr, nErr, "a frame of %llu bytes, over the limit of %llu",
             (unsigned long long)nBody, (unsigned long long)WIRE_FRAME_MAX);
    return -1;
  }
  nAlloc = nBody < WIRE_RECV_FIRST ? (size_t)nBody : WIRE_RECV_FIRST;
  if ((pf->a = malloc(nAlloc ? nAlloc : 1)) == NULL) goto out_oom;
  while (nGot < nBody) {
    if (nGot == nAlloc) {
      unsigned char *a;
      nAlloc = nBody / 2 < nAlloc ? (size_t)nBody : nAlloc * 2;
      if ((a = realloc(pf->a, nAlloc)) == NULL) goto out_oom;
      pf->a = a;
    }
    k = wire_read_full(fd, pf->a + nGot, nAlloc - nGot);
    if (k < 0) {
      snprintf(zErr, nErr, "read: %s", strerror(errno));
      goto out_free;
    }
    nGot += (size_t)k;
    if (nGot < nAlloc && nGot < nBody) {
      snprintf(zErr, nErr, "a frame cut short: %zu of %llu body bytes", nGot,
               (unsigned long long)nBody);
      goto out_free;
    }
  }
  pf->eType = (wire_type)aHead[0];
  pf->n = (size_t)nBody;
  return 1;
out_oom:
  snprintf(zErr, nErr, "out of memory reading a frame of %llu bytes", (unsigned long long)nBody);
out_free:
  wire_frame_free(pf);
  return -1;
}

int wire_fd_wait(int fd, double rSpinUntil, int msWait) {
  struct pollfd pfd;
  int rc;
  pfd.fd = fd;
  pfd.events = POLLIN;
  /* Spinning: a zero-timeout poll is a system call that never sleeps, so
  ** the thread stays on its core and sees the bytes the moment they land. */
  while (rSpinUntil > 0 && timer_now() < rSpinUntil) {
    pfd.revents = 0;
    if ((rc = poll(&pfd, 1, 0)) != 0) {
      if (rc < 0 && errno == EINTR) continue;
      return rc > 0 ? 1 : -1;
    }
  }
  do {
    pfd.revents = 0;
    rc = poll(&pfd, 1, msWait);
  } while (rc < 0 && errno == EINTR);
  return rc > 0 ? 1 : rc;
}

void wire_frame_free(wire_frame *pf) {
  free(pf->a);
  memset(pf, 0, sizeof(*pf));
}

void wire_reader_init(wire_reader *r, const unsigned char *a, size_t n) {
  r->a = a;
  r->n = a != NULL ? n : 0;
  r->i = 0;
  r->zErr[0] = 0;
}

int wire_reader_fail(wire_reader *r, const char *zFmt, ...) {
  va_list ap;
  if (r->zErr[0] != 0) return -1;
  va_start(ap, zFmt);
  vsnprintf(r->zErr, sizeof(r->zErr), zFmt, ap);
  va_end(ap);
  if (r->zErr[0] == 0) snprintf(r->zErr, sizeof(r->zErr), "?");
  return -1;
}

int wire_reader_end(wire_reader *r, const char *zWhat, char *zErr, size_t nErr) {
  if (!wire_reader_failed(r) && r->i != r->n) {
    wire_reader_fail(r, "%zu bytes left over", r->n - r->i);
  }
  if (!wire_reader_failed(r)) return 0;
  snprintf(zErr, nErr, "a bad %s message from the device worker's socket: %s", zWhat, r->zErr);
  return -1;
}

const unsigned char *wire_get_bytes(wire_reader *r, size_t n, const char *zField) {
  const unsigned char *p;
  if (wire_reader_failed(r)) return NULL;
  if (n > r->n - r->i) {
    wire_reader_fail(r, "%s cut short (%zu bytes wanted, %zu left)", zField, n, r->n - r->i);
    return NULL;
  }
  p = r->a + r->i;
  r->i += n;
  return p;
}

static uint64_t wire_get_le(wire_reader *r, int nByte, const char *zField) {
  const unsigned char *p = wire_get_bytes(r, (size_t)nByte, zField);
  return p != NULL ? le_get(p, nByte) : 0;
}

unsigned wire_get_u8(wire_reader *r, const char *zField) { return (unsigned)wire_get_le(r, 1, zField); }
uint32_t wire_get_u32(wire_reader *r, const char *zField) { return (uint32_t)wire_get_le(r, 4, zField); }
uint64_t wire_get_u64(wire_reader *r, const char *zField) { return wire_get_le(r, 8, zField); }

double wire_get_f64(wire_reader *r, const char *zField) {
  uint64_t u = wire_get_le(r, 8, zField);
  double v;
  memcpy(&v, &u, sizeof(v));
  return v;
}

int wire_get_bool(wire_reader *r, const char *zField) {
  unsigned v = wire_get_u8(r, zField);
  if (v > 1) wire_reader_fail(r, "%s is %u, not 0 or 1", zField, v);
  return v == 1;
}

const char *wire_get_str(wire_reader *r, size_t nMax, size_t *pn, const char *zField) {
  uint32_t n = wire_get_u32(r, zField);
  const unsigned char *p;
  *pn = 0;
  if (wire_reader_failed(r)) return NULL;
  if (n > nMax) {
    wire_reader_fail(r, "%s of %u bytes, over its limit of %zu", zField, n, nMax);
    return NULL;
  }
  if ((p = wire_get_bytes(r, n, zField)) == NULL) return NULL;
  *pn = n;
  return (const char *)p;
}

void wire_get_cstr(wire_reader *r, char *z, size_t nz, const char *zField) {
  size_t n;
  const char *p = wire_get_str(r, nz - 1, &n, zField);
  z[0] = 0;
  if (p == NULL) return;
  if (memchr(p, 0, n) != NULL) {
    wire_reader_fail(r, "%s has a NUL byte", zField);
    return;
  }
  memcpy(z, p, n);
  z[n] = 0;
}

/* ---- QUERY, HELLO, LOST ---------------------------------------------------- */

/* The option bits of pOpt. */
static uint32_t wire_opt_flags(const exec_options *pOpt) {
  uint32_t m = 0;
  if (pOpt->bNoResident) m |= WIRE_OPT_NO_RESIDENT;
  if (pOpt->bNoStage) m |= WIRE_OPT_NO_STAGE;
  if (pOpt->bNoShare) m |= WIRE_OPT_NO_SHARE;
  if (pOpt->eGeneric == EXEC_GENERIC_OFF) m |= WIRE_OPT_GENERIC_OFF;
  if (pOpt->eGeneric == EXEC_GENERIC_ALWAYS) m |= WIRE_OPT_GENERIC_ALWAYS;
  if (pOpt->pSink != NULL) m |= WIRE_OPT_STREAM;
  return m;
}

/* Sets *pOpt from option bits m, failing r on bits that mean nothing or
** contradict each other. */
static void wire_opt_read(wire_reader *r, uint32_t m, exec_options *pOpt) {
  if (wire_reader_failed(r)) return;
  if ((m & ~WIRE_OPT_ALL) != 0) {
    wire_reader_fail(r, "unknown option bits 0x%x", m & ~WIRE_OPT_ALL);
  } else if ((m & WIRE_OPT_GENERIC_OFF) && (m & WIRE_OPT_GENERIC_ALWAYS)) {
    wire_reader_fail(r, "two uses of the generic kernels (option bits 0x%x)", m);
  }
  pOpt->bNoResident = (m & WIRE_OPT_NO_RESIDENT) != 0;
  pOpt->bNoStage = (m & WIRE_OPT_NO_STAGE) != 0;
  pOpt->bNoShare = (m & WIRE_OPT_NO_SHARE) != 0;
  pOpt->eGeneric = (m & WIRE_OPT_GENERIC_OFF)      ? EXEC_GENERIC_OFF
                   : (m & WIRE_OPT_GENERIC_ALWAYS) ? EXEC_GENERIC_ALWAYS
                                                   : EXEC_GENERIC_ON;
}

void wire_query_encode(wire_buf *b, uint64_t iId, const engine_request *pReq) {
  wire_put_u64(b, iId);
  wire_put_u32(b, wire_opt_flags(&pReq->opt));
  wire_put_u64(b, pReq->opt.nResultLimit);
  wire_put_u8(b, (unsigned)pReq->eKind);
  wire_put_u8(b, (unsigned)pReq->mExplain);
  wire_put_u32(b, (uint32_t)pReq->iSelect);
  wire_put_str(b, pReq->zSql, strlen(pReq->zSql));
  wire_put_u32(b, (uint32_t)pReq->nParam);
  for (int i = 0; i < pReq->nParam; i++) {
    const engine_param *v = &pReq->aParam[i];
    wire_put_u32(b, v->iType);
    wire_put_u8(b, v->z == NULL);
    if (v->z != NULL) wire_put_str(b, v->z, strlen(v->z));
  }
  /* The session: user, database, pid, settings ("" for a NULL name). */
  wire_put_str(b, pReq->zUser != NULL ? pReq->zUser : "", pReq->zUser != NULL ? strlen(pReq->zUser) : 0);
  wire_put_str(b, pReq->zDatabase != NULL ? pReq->zDatabase : "",
               pReq->zDatabase != NULL ? strlen(pReq->zDatabase) : 0);
  wire_put_u32(b, (uint32_t)pReq->iBackendPid);
  wire_put_str(b, pReq->pSettings != NULL ? pReq->pSettings : "", pReq->pSettings != NULL ? pReq->nSettings : 0);
}

static char *wire_get_text(wire_reader *r, const char *zField);

/* Reads the session of a QUERY into q. */
static void wire_query_session(wire_reader *r, wire_query *q) {
  size_t n;
  const char *z;
  q->zUser = wire_get_text(r, "the user");
  q->zDatabase = wire_get_text(r, "the database");
  q->req.zUser = q->zUser != NULL && q->zUser[0] != 0 ? q->zUser : NULL;
  q->req.zDatabase = q->zDatabase != NULL && q->zDatabase[0] != 0 ? q->zDatabase : NULL;
  q->req.iBackendPid = (int)wire_get_u32(r, "the backend pid");
  z = wire_get_str(r, UINT32_MAX, &n, "the settings");
  if (z == NULL || n == 0) return;
  /* Pairs of NUL-terminated strings: the last byte must end one. */
  if (z[n - 1] != 0) {
    wire_reader_fail(r, "settings not NUL-terminated");
    return;
  }
  if ((q->pSettings = malloc(n)) == NULL) {
    wire_reader_fail(r, "out of memory for %zu bytes of settings", n);
    return;
  }
  memcpy(q->pSettings, z, n);
  q->req.pSettings = q->pSettings;
  q->req.nSettings = n;
}

/* A string of r as a new NUL-terminated copy, or NULL (r failed: a NUL
** byte inside, or memory). */
static char *wire_get_text(wire_reader *r, const char *zField) {
  size_t n;
  const char *z = wire_get_str(r, UINT32_MAX, &n, zField);
  char *zCopy;
  if (z == NULL) return NULL;
  if (memchr(z, 0, n) != NULL) {
    wire_reader_fail(r, "%s has a NUL byte", zField);
    return NULL;
  }
  if ((zCopy = malloc(n + 1)) == NULL) {
    wire_reader_fail(r, "out of memory for %zu bytes of %s", n, zField);
    return NULL;
  }
  memcpy(zCopy, z, n);
  zCopy[n] = 0;
  return zCopy;
}

/* Reads the parameters of a QUERY into q. */
static void wire_query_params(wire_reader *r, wire_query *q) {
  uint32_t n = wire_get_u32(r, "the parameter count");
  if (wire_reader_failed(r)) return;
  /* Each takes 5 bytes at least: a count past what is left lies. */
  if (n > WIRE_PARAM_MAX || (uint64_t)n * 5 > r->n - r->i) {
    wire_reader_fail(r, "%u parameters", n);
    return;
  }
  if (n > 0 && (q->aParam = calloc(n, sizeof(engine_param))) == NULL) {
    wire_reader_fail(r, "out of memory for %u parameters", n);
    return;
  }
  q->req.nParam = (int)n;
  q->req.aParam = q->aParam;
  for (uint32_t i = 0; i < n && !wire_reader_failed(r); i++) {
    q->aParam[i].iType = wire_get_u32(r, "a parameter's type");
    if (!wire_get_bool(r, "a parameter's NULL flag")) {
      q->aParam[i].z = wire_get_text(r, "a parameter's value");
    }
  }
}

int wire_query_decode(const unsigned char *a, size_t n, wire_query *q, char *zErr, size_t nErr) {
  wire_reader r;
  uint32_t mFlag, eKind, mExplain;
  memset(q, 0, sizeof(*q));
  wire_reader_init(&r, a, n);
  q->iId = wire_get_u64(&r, "the query id");
  mFlag = wire_get_u32(&r, "the options");
  wire_opt_read(&r, mFlag, &q->req.opt);
  q->bStream = (mFlag & WIRE_OPT_STREAM) != 0;
  q->req.opt.nResultLimit = wire_get_u64(&r, "the result's memory limit");
  eKind = wire_get_u8(&r, "the statement's kind");
  mExplain = wire_get_u8(&r, "EXPLAIN's options");
  q->req.iSelect = (int)wire_get_u32(&r, "where the SELECT begins");
  if (!wire_reader_failed(&r) && (eKind < ENGINE_SELECT || eKind > ENGINE_DESCRIBE)) {
    wire_reader_fail(&r, "a statement of kind %u", eKind);
  }
  if (!wire_reader_failed(&r) &&
      (mExplain & ~(unsigned)(ENGINE_EXPLAIN_ANALYZE | ENGINE_EXPLAIN_VERBOSE)) != 0) {
    wire_reader_fail(&r, "unknown EXPLAIN options 0x%x", mExplain);
  }
  q->req.eKind = (engine_kind)eKind;
  q->req.mExplain = (int)mExplain;
  q->zSql = wire_get_text(&r, "the SQL text");
  q->req.zSql = q->zSql;
  if (q->zSql != NULL && (size_t)q->req.iSelect > strlen(q->zSql)) {
    wire_reader_fail(&r, "the SELECT begins at byte %d of %zu", q->req.iSelect, strlen(q->zSql));
  }
  wire_query_params(&r, q);
  if (!wire_reader_failed(&r)) wire_query_session(&r, q);
  if (wire_reader_end(&r, "QUERY", zErr, nErr) != 0) {
    wire_query_free(q);
    return -1;
  }
  return 0;
}

void wire_query_free(wire_query *q) {
  for (int i = 0; q->aParam != NULL && i < q->req.nParam; i++) free((char *)q->aParam[i].z);
  free(q->aParam);
  free(q->zSql);
  free(q->zUser);
  free(q->zDatabase);
  free(q->pSettings);
  memset(q, 0, sizeof(*q));
}

void wire_hello_encode(wire_buf *b, const wire_hello *h) {
  wire_put_u32(b, h->iVersion);
  wire_put_u32(b, h->iPid);
  wire_put_u8(b, h->bOk ? 1 : 0);
  wire_put_str(b, h->zText, strnlen(h->zText, WIRE_TEXT_MAX));
  wire_put_u64(b, (uint64_t)h->nPreloaded);
}

int wire_hello_decode(const unsigned char *a, size_t n, wire_hello *h, char *zErr, size_t nErr) {
  wire_reader r;
  memset(h, 0, sizeof(*h));
  wire_reader_init(&r, a, n);
  h->iVersion = wire_get_u32(&r, "the version");
  h->iPid = wire_get_u32(&r, "the pid");
  h->bOk = wire_get_bool(&r, "the ok flag");
  wire_get_cstr(&r, h->zText, sizeof(h->zText), "the text");
  h->nPreloaded = (int64_t)wire_get_u64(&r, "the bytes preloaded");
  return wire_reader_end(&r, "HELLO", zErr, nErr);
}

void wire_lost_encode(wire_buf *b, const char *zWhy) {
  wire_put_str(b, zWhy, strnlen(zWhy, WIRE_TEXT_MAX));
}

int wire_lost_decode(const unsigned char *a, size_t n, char *zWhy, size_t nWhy, char *zErr,
                     size_t nErr) {
  wire_reader r;
  wire_reader_init(&r, a, n);
  wire_get_cstr(&r, zWhy, nWhy, "the reason");
  return wire_reader_end(&r, "LOST", zErr, nErr);
}
