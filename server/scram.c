/*
** server/scram.c — SCRAM-SHA-256, the server's side (scram.h), on
** OpenSSL's libcrypto: PBKDF2-HMAC-SHA256 for salted passwords, HMAC and
** SHA-256 for keys and signatures, RAND_bytes for salts and nonces, and
** CRYPTO_memcmp so that checking a proof takes the same time however
** much of it is right.
**
** The exchange, with AuthMessage = client-first-bare "," server-first ","
** client-final-without-proof:
**
**   ClientSignature = HMAC(StoredKey, AuthMessage)
**   ClientKey       = ClientProof XOR ClientSignature
**   accept iff        SHA-256(ClientKey) == StoredKey
**   ServerSignature = HMAC(ServerKey, AuthMessage), sent as "v=..."
*/
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include "scram.h"

#define SCRAM_PREFIX "SCRAM-SHA-256$"

/* ---- base64 ------------------------------------------------------------------ */

static const char scram_aB64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void scram_b64_encode(strbuf *s, const unsigned char *a, size_t n) {
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)a[i] << 16;
    char z[4];
    if (i + 1 < n) v |= (uint32_t)a[i + 1] << 8;
    if (i + 2 < n) v |= a[i + 2];
    z[0] = scram_aB64[v >> 18 & 63];
    z[1] = scram_aB64[v >> 12 & 63];
    z[2] = i + 1 < n ? scram_aB64[v >> 6 & 63] : '=';
    z[3] = i + 2 < n ? scram_aB64[v & 63] : '=';
    strbuf_append(s, z, 4);
  }
}

static int scram_b64_value(char c) {
  const char *p = c != 0 ? strchr(scram_aB64, c) : NULL;
  return p != NULL ? (int)(p - scram_aB64) : -1;
}

int scram_b64_decode(const char *z, size_t n, unsigned char *aOut, size_t nOut) {
  size_t nByte = 0;
  if (n % 4 != 0) return -1;
  for (size_t i = 0; i < n; i += 4) {
    int nPad = (z[i + 3] == '=') + (z[i + 2] == '=' && z[i + 3] == '=');
    uint32_t v = 0;
    if (nPad > 0 && i + 4 != n) return -1;     /* padding only at the end */
    for (int j = 0; j < 4 - nPad; j++) {
      int d = scram_b64_value(z[i + j]);
      if (d < 0) return -1;
      v |= (uint32_t)d << (18 - 6 * j);
    }
    if (nByte + 3 - (size_t)nPad > nOut) return -1;
    aOut[nByte++] = (unsigned char)(v >> 16);
    if (nPad < 2) aOut[nByte++] = (unsigned char)(v >> 8);
    if (nPad < 1) aOut[nByte++] = (unsigned char)v;
  }
  return (int)nByte;
}

/* ---- keys ------------------------------------------------------------------ */

static int scram_hmac(const unsigned char *aKey, const void *p, size_t n,
                      unsigned char aOut[SCRAM_KEY_LEN]) {
  unsigned int nOut = 0;
  return HMAC(EVP_sha256(), aKey, SCRAM_KEY_LEN, p, n, aOut, &nOut) != NULL &&
                 nOut == SCRAM_KEY_LEN
             ? 0
             : -1;
}

/* Fills p's keys from a password and p's salt and iteration count. */
static int scram_keys_derive(const char *zPassword, scram_verifier *p) {
  unsigned char aSalted[SCRAM_KEY_LEN], aClientKey[SCRAM_KEY_LEN];
  int rc = -1;
  if (PKCS5_PBKDF2_HMAC(zPassword, (int)strlen(zPassword), p->aSalt, p->nSalt, p->nIter,
                        EVP_sha256(), SCRAM_KEY_LEN, aSalted) == 1 &&
      scram_hmac(aSalted, "Client Key", 10, aClientKey) == 0 &&
      SHA256(aClientKey, SCRAM_KEY_LEN, p->aStoredKey) != NULL &&
      scram_hmac(aSalted, "Server Key", 10, p->aServerKey) == 0) {
    rc = 0;
  }
  OPENSSL_cleanse(aSalted, sizeof(aSalted));
  OPENSSL_cleanse(aClientKey, sizeof(aClientKey));
  return rc;
}

int scram_verifier_make(const char *zPassword, const unsigned char *aSalt, int nSalt,
                        int nIter, char *zOut, size_t nOut) {
  scram_verifier v;
  strbuf s;
  int rc = -1;
  if (nIter < 1) return -1;
  memset(&v, 0, sizeof(v));
  v.nIter = nIter;
  if (aSalt == NULL) {
    v.nSalt = SCRAM_SALT_LEN;
    if (RAND_bytes(v.aSalt, SCRAM_SALT_LEN) != 1) return -1;
  } else {
    if (nSalt < 1 || nSalt > SCRAM_SALT_MAX) return -1;
    v.nSalt = nSalt;
    memcpy(v.aSalt, aSalt, (size_t)nSalt);
  }
  if (scram_keys_derive(zPassword, &v) != 0) return -1;
  strbuf_init(&s);
  strbuf_printf(&s, SCRAM_PREFIX "%d:", nIter);
  scram_b64_encode(&s, v.aSalt, (size_t)v.nSalt);
  strbuf_puts(&s, "$");
  scram_b64_encode(&s, v.aStoredKey, SCRAM_KEY_LEN);
  strbuf_puts(&s, ":");
  scram_b64_encode(&s, v.aServerKey, SCRAM_KEY_LEN);
  if (!strbuf_error(&s) && s.n < nOut) {
    memcpy(zOut, s.z, s.n + 1);
    rc = 0;
  }
  strbuf_free(&s);
  return rc;
}

/* Decodes base64 z[0..n) into exactly nWant bytes (or 1..nWant when
** bUpTo). Returns the byte count or -1. */
static int scram_b64_field(const char *z, size_t n, unsigned char *aOut, int nWant, int bUpTo) {
  int nGot = scram_b64_decode(z, n, aOut, (size_t)nWant);
  if (nGot < 1 || (!bUpTo && nGot != nWant)) return -1;
  return nGot;
}

int scram_verifier_parse(const char *z, scram_verifier *p) {
  size_t nPrefix = strlen(SCRAM_PREFIX);
  const char *zSalt, *zStored, *zServer;
  long nIter = 0;

  memset(p, 0, sizeof(*p));
  if (strncmp(z, SCRAM_PREFIX, nPrefix) != 0) return -1;
  z += nPrefix;
  while (*z >= '0' && *z <= '9' && nIter <= INT_MAX) nIter = nIter * 10 + (*z++ - '0');
  if (nIter < 1 || nIter > INT_MAX || *z != ':') return -1;
  zSalt = z + 1;
  zStored = strchr(zSalt, '$');
  if (zStored == NULL) return -1;
  zServer = strchr(++zStored, ':');
  if (zServer == NULL) return -1;
  zServer++;
  p->nIter = (int)nIter;
  p->nSalt = scram_b64_field(zSalt, (size_t)(zStored - 1 - zSalt), p->aSalt, SCRAM_SALT_MAX, 1);
  if (p->nSalt < 0 ||
      scram_b64_field(zStored, (size_t)(zServer - 1 - zStored), p->aStoredKey, SCRAM_KEY_LEN,
                      0) < 0 ||
      scram_b64_field(zServer, strlen(zServer), p->aServerKey, SCRAM_KEY_LEN, 0) < 0) {
    return -1;
  }
  return 0;
}

/* ---- the mock verifier ------------------------------------------------------- */

/* A random key made once per process: mock salts derived from it stay the
** same for a user name across attempts (a changing salt would say "no such
** user"), but cannot be predicted from outside. */
static unsigned char scram_aMockKey[SCRAM_KEY_LEN];
static pthread_once_t scram_mockOnce = PTHREAD_ONCE_INIT;

static void scram_mock_key_make(void) {
  if (RAND_bytes(scram_aMockKey, SCRAM_KEY_LEN) != 1) {
    memset(scram_aMockKey, 0x5a, SCRAM_KEY_LEN);   /* still fails every proof */
  }
}

static void scram_verifier_mock(const char *zUser, scram_verifier *p) {
  unsigned char aDigest[SCRAM_KEY_LEN];
  pthread_once(&scram_mockOnce, scram_mock_key_make);
  memset(p, 0, sizeof(*p));
  p->nIter = SCRAM_ITERATIONS;
  p->nSalt = SCRAM_SALT_LEN;
  if (scram_hmac(scram_aMockKey, zUser, strlen(zUser), aDigest) != 0) {
    memset(aDigest, 0, sizeof(aDigest));
  }
  memcpy(p->aSalt, aDigest, SCRAM_SALT_LEN);
  /* StoredKey and ServerKey stay zero: no ClientKey hashes to zero. */
}

/* ---- the exchange ------------------------------------------------------------ */

void scram_server_init(scram_server *p, const scram_verifier *pV, const char *zUser) {
  memset(p, 0, sizeof(*p));
  strbuf_init(&p->clientFirstBare);
  strbuf_init(&p->serverFirst);
  strbuf_init(&p->nonce);
  if (pV != NULL) {
    p->v = *pV;
  } else {
    p->bMock = 1;
    scram_verifier_mock(zUser != NULL ? zUser : "", &p->v);
  }
}

void scram_server_channel_binding(scram_server *p, const unsigned char *a, int n, int bPlus) {
  if (n < 0 || n > (int)sizeof(p->aCbind)) n = 0;
  if (n > 0) memcpy(p->aCbind, a, (size_t)n);
  p->nCbind = n;
  p->bPlus = bPlus && n > 0;
}

void scram_server_free(scram_server *p) {
  strbuf_free(&p->clientFirstBare);
  strbuf_free(&p->serverFirst);
  strbuf_free(&p->nonce);
  OPENSSL_cleanse(&p->v, sizeof(p->v));
}

static int scram_fail(scram_server *p, int rc, char *zErr, size_t nErr, const char *zWhy) {
  p->eState = SCRAM_STATE_DONE;
  if (nErr > 0) snprintf(zErr, nErr, "%s", zWhy);
  return rc;
}

/* Reads the attribute "c=value" at z[*pi..n) up to the next comma or the
** end; *pzValue and *pnValue are the value. Returns 0, or -1 if the attribute
** is not there. */
static int scram_attr(const char *z, size_t n, size_t *pi, char c, const char **pzValue,
                      size_t *pnValue) {
  size_t i = *pi, j;
  if (n - i < 2 || z[i] != c || z[i + 1] != '=') return -1;
  for (j = i + 2; j < n && z[j] != ','; j++) {
  }
  *pzValue = z + i + 2;
  *pnValue = j - i - 2;
  *pi = j < n ? j + 1 : j;
  return 0;
}

/* A nonce is printable ASCII without commas (RFC 5802's "printable"). */
static int scram_nonce_ok(const char *z, size_t n) {
  if (n == 0) return 0;
  for (size_t i = 0; i < n; i++) {
    if (z[i] < 0x21 || z[i] > 0x7E || z[i] == ',') return 0;
  }
  return 1;
}

int scram_server_first(scram_server *p, const char *z, size_t n, const char *zServerNonce,
                       strbuf *pOut, char *zErr, size_t nErr) {
  size_t i = 3, iBare, nUser, nNonce;
  const char *zUser, *zNonce;

  if (p->eState != SCRAM_STATE_FIRST) {
    return scram_fail(p, SCRAM_EBAD, zErr, nErr, "unexpected SCRAM message");
  }
  /* gs2-header: "n,," or "y,,", or "p=tls-server-end-point,," for
  ** channel binding (SCRAM-SHA-256-PLUS, on TLS only); "a=" would be an
  ** authzid. PostgreSQL's rules and words. */
  if (n >= 1 && z[0] == 'p') {
    static const char zType[] = "p=tls-server-end-point,";
    if (p->nCbind == 0) {
      return scram_fail(p, SCRAM_EBAD, zErr, nErr,
                        "channel binding is not supported without SSL");
    }
    if (!p->bPlus) {
      return scram_fail(p, SCRAM_EBAD, zErr, nErr,
                        "malformed SCRAM message: channel binding without SCRAM-SHA-256-PLUS");
    }
    if (n < sizeof(zType) - 1 || memcmp(z, zType, sizeof(zType) - 1) != 0) {
      return scram_fail(p, SCRAM_EBAD, zErr, nErr, "unsupported SCRAM channel-binding type");
    }
    i = sizeof(zType) - 1;
  } else {
    if (n < 2 || (z[0] != 'n' && z[0] != 'y') || z[1] != ',') {
      return scram_fail(p, SCRAM_EBAD, zErr, nErr, "malformed SCRAM message: bad GS2 header");
    }
    if (p->bPlus) {
      return scram_fail(p, SCRAM_EBAD, zErr, nErr,
                        "channel binding is required by SCRAM-SHA-256-PLUS");
    }
    if (z[0] == 'y' && p->nCbind > 0) {
      return scram_fail(p, SCRAM_EBAD, zErr, nErr, "SCRAM channel binding negotiation error");
    }
    i = 2;
  }
  if (i >= n || z[i] != ',') {
    return scram_fail(p, SCRAM_EBAD, zErr, nErr, "authorization identities are not supported");
  }
  i++;
  memcpy(p->zGs2, z, i);
  p->nGs2 = (int)i;
  iBare = i;
  if (n - i >= 2 && z[i] == 'm' && z[i + 1] == '=') {
    return scram_fail(p, SCRAM_EBAD, zErr, nErr, "unsupported SCRAM extension");
  }
  if (scram_attr(z, n, &i, 'n', &zUser, &nUser) != 0 ||
      scram_attr(z, n, &i, 'r', &zNonce, &nNonce) != 0 || !scram_nonce_ok(zNonce, nNonce)) {
    return scram_fail(p, SCRAM_EBAD, zErr, nErr, "malformed SCRAM message: expected n= and r=");
  }
  (void)zUser;   /* PostgreSQL's rule: the startup packet's user counts */
  strbuf_append(&p->clientFirstBare, z + iBare, n - iBare);
  strbuf_append(&p->nonce, zNonce, nNonce);
  if (zServerNonce != NULL) {
    strbuf_puts(&p->nonce, zServerNonce);
  } else {
    unsigned char aRand[SCRAM_NONCE_LEN];
    if (RAND_bytes(aRand, sizeof(aRand)) != 1) {
      return scram_fail(p, SCRAM_EBAD, zErr, nErr, "could not generate a nonce");
    }
    scram_b64_encode(&p->nonce, aRand, sizeof(aRand));
  }
  strbuf_printf(&p->serverFirst, "r=%s,s=", strbuf_str(&p->nonce));
  scram_b64_encode(&p->serverFirst, p->v.aSalt, (size_t)p->v.nSalt);
  strbuf_printf(&p->serverFirst, ",i=%d", p->v.nIter);
  if (strbuf_error(&p->clientFirstBare) || strbuf_error(&p->nonce) ||
      strbuf_error(&p->serverFirst)) {
    return scram_fail(p, SCRAM_EBAD, zErr, nErr, "out of memory");
  }
  strbuf_append(pOut, p->serverFirst.z, p->serverFirst.n);
  p->eState = SCRAM_STATE_FINAL;
  return SCRAM_OK;
}

/* Checks channel-binding attribute c: the client's own gs2 header again,
** followed, with "p=", by the binding data of this TLS connection. */
static int scram_cbind_ok(const scram_server *p, const char *zC, size_t nC) {
  unsigned char aGot[sizeof(p->zGs2) + sizeof(p->aCbind)], aWant[sizeof(aGot)];
  int nWant = p->nGs2;
  int nGot = scram_b64_decode(zC, nC, aGot, sizeof(aGot));
  memcpy(aWant, p->zGs2, (size_t)p->nGs2);
  if (p->zGs2[0] == 'p') {
    memcpy(aWant + nWant, p->aCbind, (size_t)p->nCbind);
    nWant += p->nCbind;
  }
  return nGot == nWant && CRYPTO_memcmp(aGot, aWant, (size_t)nWant) == 0;
}

/* Verifies proof aProof against AuthMessage; on success appends "v=..." */
static int scram_proof_check(scram_server *p, const strbuf *pAuth,
                             const unsigned char aProof[SCRAM_KEY_LEN], strbuf *pOut) {
  unsigned char aSig[SCRAM_KEY_LEN], aClientKey[SCRAM_KEY_LEN], aStored[SCRAM_KEY_LEN];
  int bOk;
  if (scram_hmac(p->v.aStoredKey, pAuth->z, pAuth->n, aSig) != 0) return SCRAM_EFAIL;
  for (int i = 0; i < SCRAM_KEY_LEN; i++) aClientKey[i] = aProof[i] ^ aSig[i];
  if (SHA256(aClientKey, SCRAM_KEY_LEN, aStored) == NULL) return SCRAM_EFAIL;
  bOk = CRYPTO_memcmp(aStored, p->v.aStoredKey, SCRAM_KEY_LEN) == 0 && !p->bMock;
  OPENSSL_cleanse(aClientKey, sizeof(aClientKey));
  if (!bOk) return SCRAM_EFAIL;
  if (scram_hmac(p->v.aServerKey, pAuth->z, pAuth->n, aSig) != 0) return SCRAM_EFAIL;
  strbuf_puts(pOut, "v=");
  scram_b64_encode(pOut, aSig, SCRAM_KEY_LEN);
  return SCRAM_OK;
}

int scram_server_final(scram_server *p, const char *z, size_t n, strbuf *pOut,
                       char *zErr, size_t nErr) {
  size_t i = 0, nC, nNonce, nProof, iProof;
  const char *zC, *zNonce, *zProof;
  unsigned char aProof[SCRAM_KEY_LEN];
  strbuf auth;
  int rc;

  if (p->eState != SCRAM_STATE_FINAL) {
    return scram_fail(p, SCRAM_EBAD, zErr, nErr, "unexpected SCRAM message");
  }
  if (scram_attr(z, n, &i, 'c', &zC, &nC) != 0 || !scram_cbind_ok(p, zC, nC)) {
    return scram_fail(p, SCRAM_EBAD, zErr, nErr, "malformed SCRAM message: bad channel binding");
  }
  if (scram_attr(z, n, &i, 'r', &zNonce, &nNonce) != 0 || nNonce != p->nonce.n ||
      memcmp(zNonce, p->nonce.z, nNonce) != 0) {
    return scram_fail(p, SCRAM_EBAD, zErr, nErr, "malformed SCRAM message: nonce mismatch");
  }
  /* Extensions may stand between r= and p=; the proof comes last. */
  for (;;) {
    iProof = i;
    if (i >= n) return scram_fail(p, SCRAM_EBAD, zErr, nErr, "malformed SCRAM message: no proof");
    if (scram_attr(z, n, &i, 'p', &zProof, &nProof) == 0) break;
    while (i < n && z[i] != ',') i++;
    if (i < n) i++;
  }
  if (zProof + nProof != z + n ||
      scram_b64_decode(zProof, nProof, aProof, sizeof(aProof)) != SCRAM_KEY_LEN) {
    return scram_fail(p, SCRAM_EBAD, zErr, nErr, "malformed SCRAM message: bad proof");
  }
  strbuf_init(&auth);
  strbuf_append(&auth, p->clientFirstBare.z, p->clientFirstBare.n);
  strbuf_puts(&auth, ",");
  strbuf_append(&auth, p->serverFirst.z, p->serverFirst.n);
  strbuf_puts(&auth, ",");
  strbuf_append(&auth, z, iProof - 1);      /* without ",p=..." */
  rc = strbuf_error(&auth) ? SCRAM_EFAIL : scram_proof_check(p, &auth, aProof, pOut);
  strbuf_free(&auth);
  p->eState = SCRAM_STATE_DONE;
  if (rc != SCRAM_OK) return scram_fail(p, rc, zErr, nErr, "password authentication failed");
  return SCRAM_OK;
}
