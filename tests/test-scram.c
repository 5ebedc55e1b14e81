/*
** tests/test-scram.c — server/scram.h: RFC 7677's example exchange to the
** byte, verifiers made and parsed, exchanges against a client written on
** libcrypto alone (pgclient.c), and every malformed message refused.
*/
#include "../server/scram.h"
#include "pgclient.h"
#include "test.h"

/* RFC 7677, section 3: user "user", password "pencil". */
#define RFC_CLIENT_FIRST "n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
#define RFC_SERVER_NONCE "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"
#define RFC_SERVER_FIRST                                                     \
  "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"                    \
  "s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
#define RFC_CLIENT_FINAL                                                     \
  "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"             \
  "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
#define RFC_SERVER_FINAL "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="

/* The RFC's verifier: its salt, 4096 iterations, password "pencil". */
static void rfc_verifier(scram_verifier *v) {
  unsigned char aSalt[16];
  char zVerifier[SCRAM_VERIFIER_MAX];
  ASSERT_EQ(scram_b64_decode("W22ZaJ0SNY7soEsUEjb6gQ==", 24, aSalt, sizeof(aSalt)), 16);
  ASSERT_EQ(scram_verifier_make("pencil", aSalt, 16, 4096, zVerifier, sizeof(zVerifier)), 0);
  ASSERT_EQ(strncmp(zVerifier, "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$", 44), 0);
  ASSERT_EQ(scram_verifier_parse(zVerifier, v), 0);
}

/* Runs the server's first step of an exchange on client-first zFirst. */
static int run_first(scram_server *p, const char *zFirst, const char *zNonce, strbuf *pOut,
                     char *zErr) {
  return scram_server_first(p, zFirst, strlen(zFirst), zNonce, pOut, zErr, 128);
}

TEST_IMPL(scram_rfc7677) {
  scram_verifier v;
  scram_server srv;
  strbuf out, final, want;
  char zErr[128];

  rfc_verifier(&v);
  strbuf_init(&out);
  scram_server_init(&srv, &v, "user");
  ASSERT_EQ(run_first(&srv, RFC_CLIENT_FIRST, RFC_SERVER_NONCE, &out, zErr), SCRAM_OK);
  ASSERT_STR_EQ(strbuf_str(&out), RFC_SERVER_FIRST);
  strbuf_reset(&out);
  ASSERT_EQ(scram_server_final(&srv, RFC_CLIENT_FINAL, strlen(RFC_CLIENT_FINAL), &out, zErr,
                               sizeof(zErr)),
            SCRAM_OK);
  ASSERT_STR_EQ(strbuf_str(&out), RFC_SERVER_FINAL);
  scram_server_free(&srv);

  /* The test's own client computes the RFC's proof too. */
  strbuf_init(&final);
  strbuf_init(&want);
  pgc_scram_final("pencil", RFC_CLIENT_FIRST + 3, RFC_SERVER_FIRST, &final, &want);
  ASSERT_STR_EQ(strbuf_str(&final), RFC_CLIENT_FINAL);
  ASSERT_STR_EQ(strbuf_str(&want), RFC_SERVER_FINAL);

  /* One bit off in the proof: refused. */
  {
    char zBad[] = RFC_CLIENT_FINAL;
    zBad[strlen(zBad) - 3] ^= 1;
    scram_server_init(&srv, &v, "user");
    strbuf_reset(&out);
    ASSERT_EQ(run_first(&srv, RFC_CLIENT_FIRST, RFC_SERVER_NONCE, &out, zErr), SCRAM_OK);
    ASSERT_EQ(scram_server_final(&srv, zBad, strlen(zBad), &out, zErr, sizeof(zErr)), SCRAM_EFAIL);
    ASSERT_STR_EQ(zErr, "password authentication failed");
    scram_server_free(&srv);
  }
  strbuf_free(&out);
  strbuf_free(&final);
  strbuf_free(&want);
  return 0;
}

/* A whole exchange with a random server nonce: the client's password
** against verifier zVerifier (NULL: no such user). Returns the final code. */
static int exchange(const char *zVerifier, const char *zPassword) {
  scram_verifier v;
  scram_server srv;
  strbuf out, final, want;
  char zErr[128];
  int rc;
  if (zVerifier != NULL) ASSERT_EQ(scram_verifier_parse(zVerifier, &v), 0);
  scram_server_init(&srv, zVerifier != NULL ? &v : NULL, "bob");
  strbuf_init(&out);
  strbuf_init(&final);
  strbuf_init(&want);
  ASSERT_EQ(run_first(&srv, "n,,n=,r=clientnonce123", NULL, &out, zErr), SCRAM_OK);
  ASSERT_EQ(strncmp(strbuf_str(&out), "r=clientnonce123", 16), 0);
  ASSERT(strlen(strbuf_str(&out)) > 16 + 20);     /* the server added its nonce */
  pgc_scram_final(zPassword, "n=,r=clientnonce123", strbuf_str(&out), &final, &want);
  strbuf_reset(&out);
  rc = scram_server_final(&srv, final.z, final.n, &out, zErr, sizeof(zErr));
  if (rc == SCRAM_OK) ASSERT_STR_EQ(strbuf_str(&out), strbuf_str(&want));
  if (rc != SCRAM_OK) ASSERT_EQ(out.n, 0);
  scram_server_free(&srv);
  strbuf_free(&out);
  strbuf_free(&final);
  strbuf_free(&want);
  return rc;
}

TEST_IMPL(scram_verifier) {
  char z1[SCRAM_VERIFIER_MAX], z2[SCRAM_VERIFIER_MAX];
  scram_verifier v;

  ASSERT_EQ(scram_verifier_make("correct horse", NULL, 0, 4096, z1, sizeof(z1)), 0);
  ASSERT_EQ(scram_verifier_make("correct horse", NULL, 0, 4096, z2, sizeof(z2)), 0);
  ASSERT(strcmp(z1, z2) != 0);                     /* fresh salts */
  ASSERT_EQ(scram_verifier_parse(z1, &v), 0);
  ASSERT_EQ(v.nIter, 4096);
  ASSERT_EQ(v.nSalt, SCRAM_SALT_LEN);
  ASSERT_EQ(exchange(z1, "correct horse"), SCRAM_OK);
  ASSERT_EQ(exchange(z2, "correct horse"), SCRAM_OK);
  ASSERT_EQ(exchange(z1, "wrong horse"), SCRAM_EFAIL);
  ASSERT_EQ(exchange(z1, ""), SCRAM_EFAIL);
  ASSERT_EQ(exchange(NULL, "correct horse"), SCRAM_EFAIL);   /* mock: always fails */
  ASSERT_EQ(exchange(NULL, ""), SCRAM_EFAIL);

  /* Too small an output buffer, bad arguments. */
  ASSERT_EQ(scram_verifier_make("x", NULL, 0, 4096, z1, 20), -1);
  ASSERT_EQ(scram_verifier_make("x", NULL, 0, 0, z1, sizeof(z1)), -1);
  ASSERT_EQ(scram_verifier_make("x", (const unsigned char *)"s", 0, 10, z1, sizeof(z1)), -1);

  /* Strings that are not verifiers. */
  static const char *const azBad[] = {
      "",
      "md5abcdef",
      "SCRAM-SHA-256$0:W22ZaJ0SNY7soEsUEjb6gQ==$AAAA:AAAA",
      "SCRAM-SHA-256$4096W22ZaJ0SNY7soEsUEjb6gQ==",
      "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==",
      "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$AAAA:AAAA",            /* short keys */
      "SCRAM-SHA-256$99999999999:W22ZaJ0SNY7soEsUEjb6gQ==$AAAA:AAAA",
      "SCRAM-SHA-256$4096:!!!!$AAAA:AAAA",
      "SCRAM-SHA-256$4096:$AAAA:AAAA",
  };
  for (size_t i = 0; i < sizeof(azBad) / sizeof(azBad[0]); i++) {
    if (scram_verifier_parse(azBad[i], &v) == 0) FAIL("parsed \"%s\"", azBad[i]);
  }
  return 0;
}

/* Client-final zFinal after the RFC's first step: expects SCRAM_EBAD. */
static void final_bad(const char *zFinal) {
  scram_verifier v;
  scram_server srv;
  strbuf out;
  char zErr[128];
  rfc_verifier(&v);
  strbuf_init(&out);
  scram_server_init(&srv, &v, "user");
  ASSERT_EQ(run_first(&srv, RFC_CLIENT_FIRST, RFC_SERVER_NONCE, &out, zErr), SCRAM_OK);
  strbuf_reset(&out);
  if (scram_server_final(&srv, zFinal, strlen(zFinal), &out, zErr, sizeof(zErr)) != SCRAM_EBAD) {
    FAIL("accepted client-final \"%s\"", zFinal);
  }
  ASSERT(zErr[0] != 0);
  ASSERT_EQ(out.n, 0);
  scram_server_free(&srv);
  strbuf_free(&out);
}

TEST_IMPL(scram_errors) {
  static const char *const azBadFirst[] = {
      "",
      "n",
      "n,",
      "x,,n=,r=abc",
      "p=tls-server-end-point,,n=,r=abc",     /* channel binding */
      "n,a=admin,n=,r=abc",                   /* authzid */
      "n,,m=ext,n=,r=abc",                    /* mandatory extension */
      "n,,n=user",                            /* no nonce */
      "n,,r=abc",                             /* no user name */
      "n,,n=,r=",                             /* empty nonce */
      "n,,n=,r=a\001b",                       /* unprintable nonce */
  };
  const char *zNonce = "rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
  char zBuf[256], zErr[128];
  scram_verifier v;
  scram_server srv;
  strbuf out;

  rfc_verifier(&v);
  strbuf_init(&out);
  for (size_t i = 0; i < sizeof(azBadFirst) / sizeof(azBadFirst[0]); i++) {
    scram_server_init(&srv, &v, "user");
    if (run_first(&srv, azBadFirst[i], NULL, &out, zErr) != SCRAM_EBAD) {
      FAIL("accepted client-first \"%s\"", azBadFirst[i]);
    }
    ASSERT_EQ(out.n, 0);
    /* a failed exchange stays failed */
    ASSERT_EQ(scram_server_final(&srv, RFC_CLIENT_FINAL, strlen(RFC_CLIENT_FINAL), &out, zErr,
                                 sizeof(zErr)),
              SCRAM_EBAD);
    scram_server_free(&srv);
  }
  /* The final step before the first. */
  scram_server_init(&srv, &v, "user");
  ASSERT_EQ(scram_server_final(&srv, RFC_CLIENT_FINAL, strlen(RFC_CLIENT_FINAL), &out, zErr,
                               sizeof(zErr)),
            SCRAM_EBAD);
  scram_server_free(&srv);

  final_bad("");
  final_bad("c=biws");
  snprintf(zBuf, sizeof(zBuf), "c=eSws,r=%s,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=", zNonce);
  final_bad(zBuf);                            /* "y,," is not what the client said */
  snprintf(zBuf, sizeof(zBuf), "c=biws,r=%sX,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=", zNonce);
  final_bad(zBuf);                            /* another nonce */
  snprintf(zBuf, sizeof(zBuf), "c=biws,r=%s", zNonce);
  final_bad(zBuf);                            /* no proof */
  snprintf(zBuf, sizeof(zBuf), "c=biws,r=%s,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ", zNonce);
  final_bad(zBuf);                            /* not base64 */
  snprintf(zBuf, sizeof(zBuf), "c=biws,r=%s,p=AAAA", zNonce);
  final_bad(zBuf);                            /* a short proof */
  snprintf(zBuf, sizeof(zBuf), "c=biws,r=%s,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=,x=1", zNonce);
  final_bad(zBuf);                            /* the proof not last */

  /* An extension between the nonce and the proof is allowed (and is part
  ** of AuthMessage, so the RFC's proof no longer fits). */
  {
    strbuf_reset(&out);
    scram_server_init(&srv, &v, "user");
    ASSERT_EQ(run_first(&srv, RFC_CLIENT_FIRST, RFC_SERVER_NONCE, &out, zErr), SCRAM_OK);
    snprintf(zBuf, sizeof(zBuf), "c=biws,r=%s,x=1,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=", zNonce);
    ASSERT_EQ(scram_server_final(&srv, zBuf, strlen(zBuf), &out, zErr, sizeof(zErr)), SCRAM_EFAIL);
    scram_server_free(&srv);
  }

  /* base64 */
  {
    unsigned char a[8];
    strbuf_reset(&out);
    scram_b64_encode(&out, (const unsigned char *)"ab", 2);
    ASSERT_STR_EQ(strbuf_str(&out), "YWI=");
    ASSERT_EQ(scram_b64_decode("YWI=", 4, a, sizeof(a)), 2);
    ASSERT_EQ(scram_b64_decode("YWJj", 4, a, sizeof(a)), 3);
    ASSERT_EQ(scram_b64_decode("YQ==", 4, a, sizeof(a)), 1);
    ASSERT_EQ(scram_b64_decode("YWI", 3, a, sizeof(a)), -1);
    ASSERT_EQ(scram_b64_decode("Y=I=", 4, a, sizeof(a)), -1);
    ASSERT_EQ(scram_b64_decode("YQ==YWJj", 8, a, sizeof(a)), -1);
    ASSERT_EQ(scram_b64_decode("YW*j", 4, a, sizeof(a)), -1);
    ASSERT_EQ(scram_b64_decode("YWJjYWJj", 8, a, 5), -1);
  }
  strbuf_free(&out);
  return 0;
}

/* Runs client-first zFirst and then a client-final whose c= carries
** aCbindSent (its gs2 header, then nSent binding bytes) and a proof that
** is wrong, against a server offered aCbind with the client's choice of
** -PLUS as bPlus. Returns the first step's code when it fails, else the
** final step's: SCRAM_EFAIL means the binding was accepted (the proof is
** what failed), SCRAM_EBAD that it was not. */
static int cbind_exchange(const unsigned char *aCbind, int bPlus, const char *zFirst,
                          const char *zGs2Sent, const unsigned char *aSent, int nSent) {
  static const char zClientNonce[] = "rOprNGfwEbeRWgbNEkqO";
  unsigned char aC[128], aProof[32];
  scram_verifier v;
  scram_server srv;
  strbuf out, final;
  char zErr[128];
  size_t nGs2 = strlen(zGs2Sent);
  int rc;
  rfc_verifier(&v);
  strbuf_init(&out);
  strbuf_init(&final);
  scram_server_init(&srv, &v, "user");
  scram_server_channel_binding(&srv, aCbind, aCbind != NULL ? 32 : 0, bPlus);
  rc = run_first(&srv, zFirst, RFC_SERVER_NONCE, &out, zErr);
  if (rc == SCRAM_OK) {
    memcpy(aC, zGs2Sent, nGs2);
    if (nSent > 0) memcpy(aC + nGs2, aSent, (size_t)nSent);
    memset(aProof, 0x5a, sizeof(aProof));
    strbuf_puts(&final, "c=");
    scram_b64_encode(&final, aC, nGs2 + (size_t)nSent);
    strbuf_printf(&final, ",r=%s%s,p=", zClientNonce, RFC_SERVER_NONCE);
    scram_b64_encode(&final, aProof, sizeof(aProof));
    rc = scram_server_final(&srv, final.z, final.n, &out, zErr, sizeof(zErr));
  }
  scram_server_free(&srv);
  strbuf_free(&out);
  strbuf_free(&final);
  return rc;
}

/* SCRAM-SHA-256-PLUS (tls-server-end-point): the binding is checked
** against the connection's, and each downgrade is refused — "y" when the
** server offered -PLUS, "n" under -PLUS, "p=" under plain SCRAM-SHA-256 or
** without TLS, another binding type. The whole exchange, proof included,
** is daemon_tls's, with libpq's channel_binding=require. */
TEST_IMPL(scram_channel_binding) {
  static const char zPFirst[] = "p=tls-server-end-point,,n=,r=rOprNGfwEbeRWgbNEkqO";
  unsigned char aCbind[32], aOther[32];
  memset(aCbind, 0xab, sizeof(aCbind));
  memset(aOther, 0xac, sizeof(aOther));
  /* The binding right: the proof decides (here, wrongly made). */
  ASSERT_EQ(cbind_exchange(aCbind, 1, zPFirst, "p=tls-server-end-point,,", aCbind, 32),
            SCRAM_EFAIL);
  /* Another certificate's, or none: refused before the proof. */
  ASSERT_EQ(cbind_exchange(aCbind, 1, zPFirst, "p=tls-server-end-point,,", aOther, 32),
            SCRAM_EBAD);
  ASSERT_EQ(cbind_exchange(aCbind, 1, zPFirst, "p=tls-server-end-point,,", aCbind, 0),
            SCRAM_EBAD);
  /* Downgrades and mismatches of the first message. */
  ASSERT_EQ(cbind_exchange(aCbind, 0, "y,,n=,r=rOprNGfwEbeRWgbNEkqO", "y,,", NULL, 0),
            SCRAM_EBAD);
  ASSERT_EQ(cbind_exchange(aCbind, 1, "n,,n=,r=rOprNGfwEbeRWgbNEkqO", "n,,", NULL, 0),
            SCRAM_EBAD);
  ASSERT_EQ(cbind_exchange(aCbind, 0, zPFirst, "p=tls-server-end-point,,", aCbind, 32),
            SCRAM_EBAD);
  ASSERT_EQ(cbind_exchange(NULL, 0, zPFirst, "p=tls-server-end-point,,", aCbind, 32),
            SCRAM_EBAD);
  ASSERT_EQ(cbind_exchange(aCbind, 1, "p=tls-unique,,n=,r=rOprNGfwEbeRWgbNEkqO", "p=tls-unique,,",
                           aCbind, 32),
            SCRAM_EBAD);
  /* TLS without -PLUS: plain "n" goes on to the proof; "y" without TLS too. */
  ASSERT_EQ(cbind_exchange(aCbind, 0, "n,,n=,r=rOprNGfwEbeRWgbNEkqO", "n,,", NULL, 0),
            SCRAM_EFAIL);
  ASSERT_EQ(cbind_exchange(NULL, 0, "y,,n=,r=rOprNGfwEbeRWgbNEkqO", "y,,", NULL, 0), SCRAM_EFAIL);
  return 0;
}
