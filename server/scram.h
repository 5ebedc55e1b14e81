/*
** server/scram.h — SCRAM-SHA-256 (RFC 5802, RFC 7677), the server's side,
** as PostgreSQL speaks it inside AuthenticationSASL: no channel binding
** (starq has no TLS), no authorization identity, and the user name in the
** SCRAM messages ignored in favour of the startup packet's.
**
** A user's secret is a verifier in PostgreSQL's format (what pg_authid
** holds for SCRAM passwords), so verifiers can be moved between the two:
**
**   SCRAM-SHA-256$<iterations>:<salt base64>$<StoredKey base64>:<ServerKey base64>
**
** Passwords are used as their bytes: SASLprep is not applied, which gives
** the same verifier as PostgreSQL for every password that is printable
** ASCII (and libpq, which prepares the password, agrees on those).
**
** INTERFACE ROUTINES
**   scram_verifier_make    a verifier from a password (random salt)
**   scram_verifier_parse   a verifier string into its parts
**   scram_server_init      one exchange, for a user's verifier or a mock one
**   scram_server_first     client-first-message -> server-first-message
**   scram_server_final     client-final-message -> server-final-message
*/
#ifndef STARQ_SCRAM_H
#define STARQ_SCRAM_H

#include <stddef.h>

#include "../common/strbuf.h"

#define SCRAM_KEY_LEN        32     /* SHA-256 */
#define SCRAM_SALT_LEN       16     /* of new verifiers, as PostgreSQL */
#define SCRAM_SALT_MAX       64
#define SCRAM_ITERATIONS     4096   /* of new verifiers, as PostgreSQL */
#define SCRAM_NONCE_LEN      18     /* random bytes of the server's nonce */
#define SCRAM_VERIFIER_MAX   256    /* room for any verifier string */

/* Return codes of the exchange. */
#define SCRAM_OK     0
#define SCRAM_EBAD  (-1)   /* a malformed message: 08P01 */
#define SCRAM_EFAIL (-2)   /* a wrong proof (or no such user): 28P01 */

/* A parsed verifier. */
typedef struct scram_verifier scram_verifier;
struct scram_verifier {
  int nIter;
  int nSalt;
  unsigned char aSalt[SCRAM_SALT_MAX];
  unsigned char aStoredKey[SCRAM_KEY_LEN];
  unsigned char aServerKey[SCRAM_KEY_LEN];
};

/* Writes the verifier of zPassword with nIter iterations and a salt of
** aSalt[0..nSalt), or a fresh random one of SCRAM_SALT_LEN bytes when
** aSalt is NULL, into zOut (SCRAM_VERIFIER_MAX bytes suffice). Returns 0,
** or -1 if libcrypto failed or an argument is out of range. */
int scram_verifier_make(const char *zPassword, const unsigned char *aSalt, int nSalt,
                        int nIter, char *zOut, size_t nOut);

/* Parses a verifier string. Returns 0, or -1 if it is not one. */
int scram_verifier_parse(const char *z, scram_verifier *p);

/* Where an exchange stands. */
typedef enum scram_state {
  SCRAM_STATE_FIRST = 0,     /* waiting for client-first-message */
  SCRAM_STATE_FINAL,         /* waiting for client-final-message */
  SCRAM_STATE_DONE,          /* finished, well or not */
} scram_state;

/* One exchange. Fields are private. */
typedef struct scram_server scram_server;
struct scram_server {
  scram_state eState;
  int bMock;                 /* no such user: the exchange runs, then fails */
  scram_verifier v;
  char zGs2[32];             /* the client's gs2 header: "n,,", "y,," or
                             ** "p=tls-server-end-point,," */
  int nGs2;
  unsigned char aCbind[64];  /* tls-server-end-point of the connection's
                             ** certificate (scram_server_channel_binding) */
  int nCbind;                /* 0: no TLS, so no channel binding */
  int bPlus;                 /* the client chose SCRAM-SHA-256-PLUS */
  strbuf clientFirstBare;    /* client-first-message-bare */
  strbuf serverFirst;        /* server-first-message */
  strbuf nonce;              /* client nonce + server nonce */
};

/* Starts an exchange against verifier pV, or, when pV is NULL (no such
** user, or no password), against a mock verifier derived from zUser, so
** the exchange looks the same to the client and fails at the end, as
** PostgreSQL does to keep user names from being probed. */
void scram_server_init(scram_server *p, const scram_verifier *pV, const char *zUser);
void scram_server_free(scram_server *p);

/* Before the first message, on a TLS connection: a[0..n) is the
** tls-server-end-point channel binding (RFC 5929: the server
** certificate's hash), and bPlus says whether the client chose
** SCRAM-SHA-256-PLUS, which then requires it ("p=" in the gs2 header);
** a client that chose plain SCRAM-SHA-256 must not say "y" (it would
** mean a man in the middle hid the -PLUS offer from it). */
void scram_server_channel_binding(scram_server *p, const unsigned char *a, int n, int bPlus);

/* Reads client-first-message z[0..n) and appends server-first-message to
** pOut. zServerNonce is the server's nonce (printable, no comma), or NULL
** for a fresh random one. Returns SCRAM_OK or SCRAM_EBAD (reason in zErr). */
int scram_server_first(scram_server *p, const char *z, size_t n, const char *zServerNonce,
                       strbuf *pOut, char *zErr, size_t nErr);

/* Reads client-final-message z[0..n), checks the proof in constant time
** and, if it holds, appends server-final-message to pOut. Returns SCRAM_OK,
** SCRAM_EBAD (malformed; reason in zErr) or SCRAM_EFAIL (wrong password). */
int scram_server_final(scram_server *p, const char *z, size_t n, strbuf *pOut,
                       char *zErr, size_t nErr);

/* Base64 (RFC 4648, with padding), for the SCRAM attributes. Encode
** appends to s. Decode writes at most nOut bytes to aOut and returns
** their number, or -1 if z[0..n) is not base64 or does not fit. */
void scram_b64_encode(strbuf *s, const unsigned char *a, size_t n);
int scram_b64_decode(const char *z, size_t n, unsigned char *aOut, size_t nOut);

#endif /* STARQ_SCRAM_H */
