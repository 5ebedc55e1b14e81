/*
** server/conn-tls.c — TLS on SQL connections, with OpenSSL, under the
** session: after the session answers an SSLRequest with 'S'
** (PG_SESSION_TLS_START), what the socket reads goes into OpenSSL's read
** memory BIO and what OpenSSL decrypts into the session; the session's
** output is encrypted into the write memory BIO, whose bytes libuv writes.
** OpenSSL never touches the socket, so the loop stays libuv's.
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

/* A connection's TLS state (conn.pTls). */
struct conn_tls {
  SSL *ssl;                /* owns both BIOs */
  BIO *rbio;               /* what the socket read, for OpenSSL */
  BIO *wbio;               /* what OpenSSL wrote, for the socket */
};

/* Writes OpenSSL's first queued error (or zWhat alone) into zErr. */
static void conn_tls_error(const char *zWhat, char *zErr, size_t nErr) {
  unsigned long e = ERR_get_error();
  char zSsl[256];
  if (e == 0) {
    snprintf(zErr, nErr, "%s", zWhat);
  } else {
    ERR_error_string_n(e, zSsl, sizeof(zSsl));
    snprintf(zErr, nErr, "%s: %s", zWhat, zSsl);
  }
  ERR_clear_error();
}

int conn_tls_ctx_open(const char *zCert, const char *zKey, SSL_CTX **pp, char *zErr,
                      size_t nErr) {
  SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
  char zWhat[PATH_MAX + 64];
  *pp = NULL;
  if (ctx == NULL) {
    conn_tls_error("SSL_CTX_new", zErr, nErr);
    return -1;
  }
  /* PostgreSQL 15's default ssl_min_protocol_version; no renegotiation. */
  if (SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) != 1) {
    conn_tls_error("SSL_CTX_set_min_proto_version", zErr, nErr);
    goto out_free;
  }
  SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
  if (SSL_CTX_use_certificate_chain_file(ctx, zCert) != 1) {
    snprintf(zWhat, sizeof(zWhat), "--ssl-cert %s", zCert);
    conn_tls_error(zWhat, zErr, nErr);
    goto out_free;
  }
  if (SSL_CTX_use_PrivateKey_file(ctx, zKey, SSL_FILETYPE_PEM) != 1) {
    snprintf(zWhat, sizeof(zWhat), "--ssl-key %s", zKey);
    conn_tls_error(zWhat, zErr, nErr);
    goto out_free;
  }
  if (SSL_CTX_check_private_key(ctx) != 1) {
    conn_tls_error("--ssl-key does not match --ssl-cert", zErr, nErr);
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
  conn_tls *t = calloc(1, sizeof(*t));
  char zErr[300];
  if (t == NULL) return -1;
  if ((t->ssl = SSL_new(ctx)) == NULL || (t->rbio = BIO_new(BIO_s_mem())) == NULL ||
      (t->wbio = BIO_new(BIO_s_mem())) == NULL) {
    conn_tls_error("SSL_new", zErr, sizeof(zErr));
    log_printf(LOG_LEVEL_ERROR, "conn %d: %s", (int)c->iPid, zErr);
    BIO_free(t->rbio);
    SSL_free(t->ssl);
    free(t);
    return -1;
  }
  SSL_set_bio(t->ssl, t->rbio, t->wbio);   /* the SSL owns them from here */
  SSL_set_accept_state(t->ssl);
  c->pTls = t;
  return 0;
}

void conn_tls_free(conn *c) {
  if (c->pTls == NULL) return;
  SSL_free(c->pTls->ssl);
  free(c->pTls);
  c->pTls = NULL;
  free(c->pTlsWrite);
  c->pTlsWrite = NULL;
}

/* Logs why TLS failed on c (at INFO: a client's doing, most often). */
static int conn_tls_fail(conn *c, SSL *ssl, int rc, const char *zWhat) {
  char zErr[300];
  int e = SSL_get_error(ssl, rc);
  conn_tls_error(zWhat, zErr, sizeof(zErr));
  log_printf(LOG_LEVEL_INFO, "conn %d from %s: TLS: %s (SSL_get_error %d)", (int)c->iPid,
             c->zHost, zErr, e);
  return -1;
}

int conn_tls_read(conn *c, const char *p, size_t n) {
  conn_tls *t = c->pTls;
  char aPlain[16384];
  if (n > 0 && BIO_write(t->rbio, p, (int)n) != (int)n) {
    return conn_tls_fail(c, t->ssl, 0, "BIO_write");
  }
  if (!SSL_is_init_finished(t->ssl)) {
    int rc = SSL_do_handshake(t->ssl);
    if (rc <= 0) {
      return SSL_get_error(t->ssl, rc) == SSL_ERROR_WANT_READ
                 ? 0
                 : conn_tls_fail(c, t->ssl, rc, "handshake");
    }
  }
  for (;;) {
    int k = SSL_read(t->ssl, aPlain, sizeof(aPlain));
    if (k > 0) {
      pg_session_feed(c->s, aPlain, (size_t)k);
      continue;
    }
    switch (SSL_get_error(t->ssl, k)) {
      case SSL_ERROR_WANT_READ: return 0;
      case SSL_ERROR_ZERO_RETURN: return -1;   /* close_notify: the client is done */
      default: return conn_tls_fail(c, t->ssl, k, "read");
    }
  }
}

int conn_tls_write(conn *c, uv_write_cb xDone) {
  conn_tls *t = c->pTls;
  size_t nPending;
  uv_buf_t b;
  int rc;
  if (c->nWriting > 0) return 0;
  if (SSL_is_init_finished(t->ssl)) {
    size_t n;
    const char *p = pg_session_output(c->s, &n);
    if (p != NULL && n > 0) {
      size_t nDone = 0;
      while (nDone < n) {
        int k = SSL_write(t->ssl, p + nDone, (int)(n - nDone > 1 << 20 ? 1 << 20 : n - nDone));
        if (k <= 0) return conn_tls_fail(c, t->ssl, k, "write");
        nDone += (size_t)k;
      }
      pg_session_output_done(c->s, n);
    }
  }
  nPending = BIO_ctrl_pending(t->wbio);
  if (nPending == 0) return 0;
  if ((c->pTlsWrite = malloc(nPending)) == NULL) return -1;
  if (BIO_read(t->wbio, c->pTlsWrite, (int)nPending) != (int)nPending) {
    return conn_tls_fail(c, t->ssl, 0, "BIO_read");
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
  if (c->pTls == NULL || !SSL_is_init_finished(c->pTls->ssl)) {
    z[0] = 0;
    return;
  }
  snprintf(z, n, "%s, cipher %s", SSL_get_version(c->pTls->ssl),
           SSL_get_cipher_name(c->pTls->ssl));
}
