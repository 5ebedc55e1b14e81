/*
** server/conn-tls.c — TLS on SQL connections, with OpenSSL, under the
** session: after the session answers an SSLRequest with 'S'
** (PG_SESSION_TLS_START), what the socket reads goes into OpenSSL's read
** memory BIO and what OpenSSL decrypts into the session; the session's
** output is encrypted into the write memory BIO, whose bytes libuv writes.
** OpenSSL never touches the socket, so the loop stays libuv's: the
** session over memory BIOs is tls-mem.c's, shared with the status port.
**
** One write at a time, as for a plain connection: a TLS write carries a
** buffer of its own (conn.pTlsWrite), freed in its callback; the
** session's output counts as written once OpenSSL has taken it.
**
** INTERFACE ROUTINES
**   conn_tls_ctx_open   the server's context from --ssl-cert and --ssl-key
**   conn_tls_ctx_close
**   conn_tls_end_point  the certificate's hash, SCRAM-SHA-256-PLUS's binding
**   conn_tls_start      a connection's TLS, after the 'S'
**   conn_tls_free
**   conn_tls_read       ciphertext in: handshake, then plain text to the session
**   conn_tls_write      the session's output out through TLS
**   conn_tls_describe   "TLSv1.3, cipher ..." for the log
*/
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "../common/log.h"
#include "daemonInt.h"
#include "tls-mem.h"

/* A connection's TLS state (conn.pTls) is a tls_mem. */
struct conn_tls {
  tls_mem *t;
};

int conn_tls_ctx_open(const char *zCert, const char *zKey, SSL_CTX **pp, char *zErr,
                      size_t nErr) {
  SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
  char zWhat[PATH_MAX + 64];
  *pp = NULL;
  if (ctx == NULL) {
    tls_mem_error("SSL_CTX_new", zErr, nErr);
    return -1;
  }
  /* PostgreSQL 15's default ssl_min_protocol_version; no renegotiation. */
  if (SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) != 1) {
    tls_mem_error("SSL_CTX_set_min_proto_version", zErr, nErr);
    goto out_free;
  }
  SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
  if (SSL_CTX_use_certificate_chain_file(ctx, zCert) != 1) {
    snprintf(zWhat, sizeof(zWhat), "--ssl-cert %s", zCert);
    tls_mem_error(zWhat, zErr, nErr);
    goto out_free;
  }
  if (SSL_CTX_use_PrivateKey_file(ctx, zKey, SSL_FILETYPE_PEM) != 1) {
    snprintf(zWhat, sizeof(zWhat), "--ssl-key %s", zKey);
    tls_mem_error(zWhat, zErr, nErr);
    goto out_free;
  }
  if (SSL_CTX_check_private_key(ctx) != 1) {
    tls_mem_error("--ssl-key does not match --ssl-cert", zErr, nErr);
    goto out_free;
  }
  *pp = ctx;
  return 0;
out_free:
  SSL_CTX_free(ctx);
  return -1;
}

void conn_tls_ctx_close(SSL_CTX *ctx) { SSL_CTX_free(ctx); }

int conn_tls_end_point(SSL_CTX *ctx, unsigned char *a, int nMax) {
  X509 *x = SSL_CTX_get0_certificate(ctx);
  const EVP_MD *md;
  unsigned int n = 0;
  int nidMd, nidPk;
  /* RFC 5929: the certificate's signature hash, SHA-256 for MD5 and SHA-1;
  ** a signature with no hash of its own (Ed25519) has no binding. */
  if (x == NULL || !OBJ_find_sigid_algs(X509_get_signature_nid(x), &nidMd, &nidPk)) return 0;
  md = nidMd == NID_md5 || nidMd == NID_sha1 ? EVP_sha256() : EVP_get_digestbynid(nidMd);
  if (md == NULL || EVP_MD_get_size(md) > nMax || X509_digest(x, md, a, &n) != 1) {
    ERR_clear_error();
    return 0;
  }
  return (int)n;
}

int conn_tls_start(conn *c, SSL_CTX *ctx) {
  conn_tls *p = calloc(1, sizeof(*p));
  char zErr[300];
  if (p == NULL || (p->t = tls_mem_new(ctx, zErr, sizeof(zErr))) == NULL) {
    if (p != NULL) log_printf(LOG_LEVEL_ERROR, "conn %d: %s", (int)c->iPid, zErr);
    free(p);
    return -1;
  }
  c->pTls = p;
  return 0;
}

void conn_tls_free(conn *c) {
  if (c->pTls == NULL) return;
  tls_mem_free(c->pTls->t);
  free(c->pTls);
  c->pTls = NULL;
  free(c->pTlsWrite);
  c->pTlsWrite = NULL;
}

/* Logs why TLS failed on c (at INFO: a client's doing, most often). */
static int conn_tls_fail(conn *c, const char *zErr) {
  log_printf(LOG_LEVEL_INFO, "conn %d from %s: TLS: %s", (int)c->iPid, c->zHost, zErr);
  return -1;
}

int conn_tls_read(conn *c, const char *p, size_t n) {
  tls_mem *t = c->pTls->t;
  char aPlain[16384], zErr[300];
  if (tls_mem_put(t, p, n, zErr, sizeof(zErr)) != 0) return conn_tls_fail(c, zErr);
  for (;;) {
    int k = tls_mem_read(t, aPlain, sizeof(aPlain), zErr, sizeof(zErr));
    if (k == 0) return 0;
    if (k < 0) return zErr[0] != 0 ? conn_tls_fail(c, zErr) : -1;  /* "": close_notify */
    pg_session_feed(c->s, aPlain, (size_t)k);
  }
}

int conn_tls_write(conn *c, uv_write_cb xDone) {
  tls_mem *t = c->pTls->t;
  char zErr[300];
  size_t nPending;
  uv_buf_t b;
  int rc;
  if (c->nWriting > 0) return 0;
  if (tls_mem_ready(t)) {
    size_t n;
    const char *p = pg_session_output(c->s, &n);
    if (p != NULL && n > 0) {
      if (tls_mem_write(t, p, n, zErr, sizeof(zErr)) != 0) return conn_tls_fail(c, zErr);
      pg_session_output_done(c->s, n);
    }
  }
  if ((c->pTlsWrite = tls_mem_take(t, &nPending, zErr, sizeof(zErr))) == NULL) {
    return nPending == 0 ? 0 : conn_tls_fail(c, zErr);
  }
  b = uv_buf_init(c->pTlsWrite, (unsigned)nPending);
  c->wr.data = c;
  if ((rc = uv_write(&c->wr, (uv_stream_t *)&c->tcp, &b, 1, xDone)) != 0) {
    log_printf(LOG_LEVEL_DEBUG, "conn %d: uv_write: %s", (int)c->iPid, uv_strerror(rc));
    return -1;
  }
  c->nWriting = nPending;
  return 0;
}

void conn_tls_describe(const conn *c, char *z, size_t n) {
  tls_mem_describe(c->pTls != NULL ? c->pTls->t : NULL, z, n);
}
