/*
** server/tls-mem.h — one TLS server session through OpenSSL's memory
** BIOs: the caller moves the bytes between the socket and OpenSSL, so
** OpenSSL never touches a socket and a libuv loop keeps them. The SQL
** port (conn-tls.c, after an SSLRequest) and the status port
** (http-conn.c, with --http-ssl) each hold one per connection.
**
** The caller's round: ciphertext read from the socket goes in with
** tls_mem_put (which runs the handshake as far as it can); plain text
** comes out of tls_mem_read; plain text to send goes in with
** tls_mem_write once tls_mem_ready; whatever OpenSSL has for the peer —
** handshake records included — comes out of tls_mem_take, for one
** socket write.
**
** INTERFACE ROUTINES
**   tls_mem_new, tls_mem_free
**   tls_mem_put      ciphertext in; the handshake
**   tls_mem_read     plain text out
**   tls_mem_write    plain text in, once ready
**   tls_mem_close_notify  the peer is told the session ends
**   tls_mem_take     ciphertext out, for the socket
**   tls_mem_ready    whether the handshake is done
**   tls_mem_describe "TLSv1.3, cipher ..."
**   tls_mem_error    OpenSSL's first queued error as text
*/
#ifndef STARQ_TLS_MEM_H
#define STARQ_TLS_MEM_H

#include <stddef.h>

struct ssl_ctx_st;
typedef struct tls_mem tls_mem;

/* A server session under ctx (not owned). Returns it, or NULL with zErr. */
tls_mem *tls_mem_new(struct ssl_ctx_st *ctx, char *zErr, size_t nErr);
void tls_mem_free(tls_mem *t);

/* Takes n bytes the socket read and moves the handshake on. Returns 0, or
** -1 with zErr when the peer's bytes are no TLS it accepts. */
int tls_mem_put(tls_mem *t, const char *p, size_t n, char *zErr, size_t nErr);

/* Decrypts into p (at most n bytes). Returns the bytes, 0 when no whole
** record is there yet, or -1: zErr empty when the peer closed the
** session (close_notify), else why. */
int tls_mem_read(tls_mem *t, char *p, size_t n, char *zErr, size_t nErr);

/* Encrypts p[0..n) (the handshake done). Returns 0, or -1 with zErr. */
int tls_mem_write(tls_mem *t, const char *p, size_t n, char *zErr, size_t nErr);

/* Queues the close_notify alert for the peer. */
void tls_mem_close_notify(tls_mem *t);

/* Returns what OpenSSL has for the peer, malloc'd, its size in *pn; NULL
** with *pn 0 when there is nothing, NULL with zErr (*pn nonzero) when it
** cannot be had. */
char *tls_mem_take(tls_mem *t, size_t *pn, char *zErr, size_t nErr);

int tls_mem_ready(const tls_mem *t);

/* "TLSv1.3, cipher TLS_AES_256_GCM_SHA384", or "" before the handshake. */
void tls_mem_describe(const tls_mem *t, char *z, size_t n);

/* Writes OpenSSL's first queued error (or zWhat alone) into zErr as
** "zWhat: reason", and clears the queue. */
void tls_mem_error(const char *zWhat, char *zErr, size_t nErr);

#endif /* STARQ_TLS_MEM_H */
