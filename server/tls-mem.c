/*
** server/tls-mem.c — a TLS server session over memory BIOs (tls-mem.h).
**
** INTERFACE ROUTINES (tls-mem.h)
**   tls_mem_new, tls_mem_free, tls_mem_put, tls_mem_read, tls_mem_write,
**   tls_mem_close_notify, tls_mem_take, tls_mem_ready, tls_mem_describe,
**   tls_mem_error
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "tls-mem.h"

struct tls_mem {
  SSL *ssl;                /* owns both BIOs */
  BIO *rbio;               /* what the socket read, for OpenSSL */
  BIO *wbio;               /* what OpenSSL wrote, for the socket */
};

/* The most plain text one SSL_write takes. */
#define TLS_MEM_WRITE_MAX (1 << 20)

void tls_mem_error(const char *zWhat, char *zErr, size_t nErr) {
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

/* Fills zErr for a failed call zWhat that returned rc. Returns -1. */
static int tls_mem_fail(tls_mem *t, int rc, const char *zWhat, char *zErr, size_t nErr) {
  char zWhy[300];
  int e = SSL_get_error(t->ssl, rc);
  tls_mem_error(zWhat, zWhy, sizeof(zWhy));
  snprintf(zErr, nErr, "%s (SSL_get_error %d)", zWhy, e);
  return -1;
}

tls_mem *tls_mem_new(struct ssl_ctx_st *ctx, char *zErr, size_t nErr) {
  tls_mem *t = calloc(1, sizeof(*t));
  if (t == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return NULL;
  }
  if ((t->ssl = SSL_new(ctx)) == NULL || (t->rbio = BIO_new(BIO_s_mem())) == NULL ||
      (t->wbio = BIO_new(BIO_s_mem())) == NULL) {
    tls_mem_error("SSL_new", zErr, nErr);
    BIO_free(t->rbio);
    SSL_free(t->ssl);
    free(t);
    return NULL;
  }
  SSL_set_bio(t->ssl, t->rbio, t->wbio);   /* the SSL owns them from here */
  SSL_set_accept_state(t->ssl);
  return t;
}

void tls_mem_free(tls_mem *t) {
  if (t == NULL) return;
  SSL_free(t->ssl);
  free(t);
}

int tls_mem_put(tls_mem *t, const char *p, size_t n, char *zErr, size_t nErr) {
  if (n > 0 && BIO_write(t->rbio, p, (int)n) != (int)n) {
    return tls_mem_fail(t, 0, "BIO_write", zErr, nErr);
  }
  if (!SSL_is_init_finished(t->ssl)) {
    int rc = SSL_do_handshake(t->ssl);
    if (rc <= 0 && SSL_get_error(t->ssl, rc) != SSL_ERROR_WANT_READ) {
      return tls_mem_fail(t, rc, "handshake", zErr, nErr);
    }
  }
  return 0;
}

int tls_mem_read(tls_mem *t, char *p, size_t n, char *zErr, size_t nErr) {
  int k;
  if (!SSL_is_init_finished(t->ssl) || n == 0) return 0;
  k = SSL_read(t->ssl, p, n > INT32_MAX ? INT32_MAX : (int)n);
  if (k > 0) return k;
  switch (SSL_get_error(t->ssl, k)) {
    case SSL_ERROR_WANT_READ: return 0;
    case SSL_ERROR_ZERO_RETURN:              /* close_notify: the peer is done */
      if (nErr > 0) zErr[0] = 0;
      ERR_clear_error();
      return -1;
    default: return tls_mem_fail(t, k, "read", zErr, nErr);
  }
}

int tls_mem_write(tls_mem *t, const char *p, size_t n, char *zErr, size_t nErr) {
  size_t nDone = 0;
  while (nDone < n) {
    size_t nPart = n - nDone > TLS_MEM_WRITE_MAX ? TLS_MEM_WRITE_MAX : n - nDone;
    int k = SSL_write(t->ssl, p + nDone, (int)nPart);
    if (k <= 0) return tls_mem_fail(t, k, "write", zErr, nErr);
    nDone += (size_t)k;
  }
  return 0;
}

void tls_mem_close_notify(tls_mem *t) {
  if (SSL_is_init_finished(t->ssl)) (void)SSL_shutdown(t->ssl);
  ERR_clear_error();
}

char *tls_mem_take(tls_mem *t, size_t *pn, char *zErr, size_t nErr) {
  size_t n = BIO_ctrl_pending(t->wbio);
  char *p;
  *pn = n;
  if (n == 0) return NULL;
  if ((p = malloc(n)) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return NULL;
  }
  if (BIO_read(t->wbio, p, (int)n) != (int)n) {
    free(p);
    tls_mem_fail(t, 0, "BIO_read", zErr, nErr);
    return NULL;
  }
  return p;
}

int tls_mem_ready(const tls_mem *t) { return SSL_is_init_finished(t->ssl); }

void tls_mem_describe(const tls_mem *t, char *z, size_t n) {
  if (t == NULL || !SSL_is_init_finished(t->ssl)) {
    if (n > 0) z[0] = 0;
    return;
  }
  snprintf(z, n, "%s, cipher %s", SSL_get_version(t->ssl), SSL_get_cipher_name(t->ssl));
}
