/*
** tests/test-session.c — server/session.h: startup and authentication,
** SSLRequest and CancelRequest, the simple query protocol, transaction
** status, and bytes that are too many or make no sense. The extended
** protocol, COPY and backpressure are in test-session-ext.c.
*/
#include "../server/pgwire.h"
#include "../server/scram.h"
#include "pgclient.h"
#include "test.h"

/* The ParameterStatus messages every login sends, between application_name
** and session_authorization. */
#define LOGIN_PARAMS                                                         \
  "S(client_encoding=UTF8) S(DateStyle=ISO, MDY) "                           \
  "S(default_transaction_read_only=off) S(in_hot_standby=off) "              \
  "S(integer_datetimes=on) S(IntervalStyle=postgres) S(is_superuser=on) "    \
  "S(server_encoding=UTF8) S(server_version=15.0 (starq)) "

/* ---- startup ------------------------------------------------------------------ */

TEST_IMPL(session_startup_trust) {
  const char *azKV[] = {"user", "alice", "database", "ssb", "application_name", "psql",
                        "extra_float_digits", "3", NULL};
  const char *azOpt[] = {"user", "bob", "_pq_.compression", "on", NULL};
  pg_session_config cfg;
  pgc c;

  pg_session_config_default(&cfg);
  cfg.bLoopback = 1;
  cfg.iPid = 4242;
  cfg.iSecret = -7;
  /* whole, then one, two and three bytes at a time */
  for (size_t nChunk = 0; nChunk <= 3; nChunk++) {
    pgc_open(&c, &cfg);
    c.nChunk = nChunk;
    pgc_startup(&c.msg, PGWIRE_PROTOCOL_3_0, azKV);
    ASSERT_STR_EQ(pgc_roundtrip(&c),
                  "R(0) S(application_name=psql) " LOGIN_PARAMS
                  "S(session_authorization=alice) S(standard_conforming_strings=on) "
                  "S(TimeZone=UTC) K(4242,4294967289) Z(I)");
    ASSERT_STR_EQ(pg_session_param(c.s, "user"), "alice");
    ASSERT_STR_EQ(pg_session_param(c.s, "database"), "ssb");
    ASSERT_STR_EQ(pg_session_param(c.s, "extra_float_digits"), "3");
    ASSERT(pg_session_param(c.s, "options") == NULL);
    ASSERT_EQ(pg_session_txn_status(c.s), 'I');
    ASSERT_EQ(pg_session_flags(c.s), 0);
    pgc_empty(&c.msg, 'X');
    ASSERT_STR_EQ(pgc_roundtrip(&c), "");
    ASSERT_EQ(pg_session_flags(c.s), PG_SESSION_CLOSE);
    /* Nothing is read after Terminate. */
    pgc_query(&c.msg, "SELECT 1");
    ASSERT_STR_EQ(pgc_roundtrip(&c), "");
    ASSERT_STR_EQ(strbuf_str(&c.log), "");
    pgc_close_all(&c);
  }

  /* Protocol 3.2 and an option: told 3.0 and which option is unknown;
  ** the database defaults to the user. */
  pgc_open(&c, NULL);
  pgc_startup(&c.msg, PGWIRE_PROTOCOL_3_0 | 2, azOpt);
  ASSERT_STR_EQ(pgc_roundtrip(&c),
                "v(0:_pq_.compression) R(0) S(application_name=) " LOGIN_PARAMS
                "S(session_authorization=bob) S(standard_conforming_strings=on) "
                "S(TimeZone=UTC) K(0,0) Z(I)");
  ASSERT_STR_EQ(pg_session_param(c.s, "database"), "bob");
  pgc_close_all(&c);
  return 0;
}

/* The daemon's verifier store: alice's password is "secret". */
static int verifier_lookup(void *pCtx, const char *zUser, char *zOut, size_t nOut) {
  (void)pCtx;
  if (strcmp(zUser, "alice") != 0) return -1;
  return scram_verifier_make("secret", NULL, 0, 4096, zOut, nOut);
}

/* Copies the data of the Authentication message with code iCode in c->got. */
static void auth_data(pgc *c, int iCode, char *zOut, size_t nOut) {
  const unsigned char *a = (const unsigned char *)c->got.z;
  for (size_t i = 0; i + 9 <= c->got.n;) {
    uint32_t nLen = pgwire_get_u32(a + i + 1);
    if (a[i] == 'R' && (int)pgwire_get_u32(a + i + 5) == iCode) {
      size_t n = nLen - 8;
      ASSERT(n < nOut);
      memcpy(zOut, a + i + 9, n);
      zOut[n] = 0;
      return;
    }
    i += 1 + nLen;
  }
  FAIL("no authentication message %d", iCode);
}

/* Logs in as zUser with zPassword over SCRAM; returns the summary of the
** server's answer to the client's final message, and the salt it used. */
static const char *scram_login(pgc *c, const char *zUser, const char *zPassword, char *zSalt) {
  const char *azKV[] = {"user", zUser, NULL};
  const char *zFirst = "n,,n=,r=fyko+d2lbbFgONRv9qkxdawL";
  char zServerFirst[256], zServerFinal[256];
  strbuf final, want;
  const char *zGot;

  pgc_startup(&c->msg, PGWIRE_PROTOCOL_3_0, azKV);
  ASSERT_STR_EQ(pgc_roundtrip(c), "R(10:SCRAM-SHA-256)");
  pgc_sasl_initial(&c->msg, "SCRAM-SHA-256", zFirst, (int)strlen(zFirst));
  pgc_send(c);
  auth_data(c, PGWIRE_AUTH_SASL_CONTINUE, zServerFirst, sizeof(zServerFirst));
  ASSERT_STR_EQ(pgc_read(c), "R(11)");
  ASSERT_EQ(strncmp(zServerFirst, "r=fyko+d2lbbFgONRv9qkxdawL", 26), 0);
  snprintf(zSalt, 64, "%.*s", (int)strcspn(strstr(zServerFirst, ",s=") + 3, ","),
           strstr(zServerFirst, ",s=") + 3);

  strbuf_init(&final);
  strbuf_init(&want);
  pgc_scram_final(zPassword, zFirst + 3, zServerFirst, &final, &want);
  pgc_sasl_response(&c->msg, final.z, final.n);
  pgc_send(c);
  if (c->got.n > 0 && c->got.z[0] == 'R') {
    auth_data(c, PGWIRE_AUTH_SASL_FINAL, zServerFinal, sizeof(zServerFinal));
    ASSERT_STR_EQ(zServerFinal, strbuf_str(&want));   /* the server proves itself */
  }
  zGot = pgc_read(c);
  strbuf_free(&final);
  strbuf_free(&want);
  return zGot;
}

TEST_IMPL(session_startup_scram) {
  pg_session_config cfg;
  char zSalt1[64], zSalt2[64];
  const char *zGot;
  pgc c;

  pg_session_config_default(&cfg);
  cfg.eAuth = PG_AUTH_SCRAM;
  cfg.bLoopback = 1;
  cfg.xVerifier = verifier_lookup;

  pgc_open(&c, &cfg);
  zGot = scram_login(&c, "alice", "secret", zSalt1);
  ASSERT_EQ(strncmp(zGot, "R(12) R(0) S(application_name=) ", 32), 0);
  ASSERT(strstr(zGot, "S(session_authorization=alice)") != NULL);
  ASSERT_STR_EQ(zGot + strlen(zGot) - 5, " Z(I)");
  pgc_query(&c.msg, "SELECT 5");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "T(?column?:23) D(5) C(SELECT 1) Z(I)");
  pgc_close_all(&c);

  /* A wrong password. */
  pgc_open(&c, &cfg);
  ASSERT_STR_EQ(scram_login(&c, "alice", "Secret", zSalt1), "FATAL(28P01)");
  ASSERT_STR_EQ(c.zErrMsg, "password authentication failed for user \"alice\"");
  ASSERT_EQ(pg_session_flags(c.s), PG_SESSION_CLOSE);
  pgc_close_all(&c);

  /* No such user: the same exchange, the same failure, and a salt that
  ** stays the same from one attempt to the next. */
  pgc_open(&c, &cfg);
  ASSERT_STR_EQ(scram_login(&c, "mallory", "secret", zSalt1), "FATAL(28P01)");
  pgc_close_all(&c);
  pgc_open(&c, &cfg);
  ASSERT_STR_EQ(scram_login(&c, "mallory", "secret", zSalt2), "FATAL(28P01)");
  pgc_close_all(&c);
  ASSERT_STR_EQ(zSalt1, zSalt2);

  /* Trust on loopback asks no password there, SCRAM elsewhere. */
  cfg.eAuth = PG_AUTH_TRUST_LOOPBACK;
  pgc_open(&c, &cfg);
  pgc_login(&c, "alice");
  pgc_close_all(&c);
  cfg.bLoopback = 0;
  pgc_open(&c, &cfg);
  zGot = scram_login(&c, "alice", "secret", zSalt1);
  ASSERT_EQ(strncmp(zGot, "R(12) R(0) ", 11), 0);
  pgc_close_all(&c);

  /* SCRAM messages that are wrong. */
  pgc_open(&c, &cfg);
  pgc_startup(&c.msg, PGWIRE_PROTOCOL_3_0, (const char *const[]){"user", "alice", NULL});
  pgc_sasl_initial(&c.msg, "SCRAM-SHA-1", "n,,n=,r=abc", 11);
  ASSERT_STR_EQ(pgc_roundtrip(&c), "R(10:SCRAM-SHA-256) FATAL(08P01)");
  ASSERT_STR_EQ(c.zErrMsg, "client selected an invalid SASL authentication mechanism");
  pgc_close_all(&c);
  pgc_open(&c, &cfg);
  pgc_startup(&c.msg, PGWIRE_PROTOCOL_3_0, (const char *const[]){"user", "alice", NULL});
  pgc_sasl_initial(&c.msg, "SCRAM-SHA-256", "p=tls-unique,,n=,r=abc", 22);
  ASSERT_STR_EQ(pgc_roundtrip(&c), "R(10:SCRAM-SHA-256) FATAL(08P01)");
  ASSERT_STR_EQ(c.zErrMsg, "malformed SCRAM message");
  ASSERT_STR_EQ(c.zErrDetail, "channel binding is not supported without SSL");
  pgc_close_all(&c);
  pgc_open(&c, &cfg);
  pgc_startup(&c.msg, PGWIRE_PROTOCOL_3_0, (const char *const[]){"user", "alice", NULL});
  pgc_sasl_initial(&c.msg, "SCRAM-SHA-256", NULL, -1);
  ASSERT_STR_EQ(pgc_roundtrip(&c), "R(10:SCRAM-SHA-256) FATAL(08P01)");
  pgc_close_all(&c);
  pgc_open(&c, &cfg);
  pgc_startup(&c.msg, PGWIRE_PROTOCOL_3_0, (const char *const[]){"user", "alice", NULL});
  pgc_query(&c.msg, "SELECT 1");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "R(10:SCRAM-SHA-256) FATAL(08P01)");
  ASSERT_STR_EQ(c.zErrMsg, "expected SASL response, got message type 81");
  ASSERT_STR_EQ(strbuf_str(&c.log), "");
  pgc_close_all(&c);
  return 0;
}

/* The daemon refuses the connection, as when it has too many. */
static int accept_refuse(void *pCtx, pg_session *s, pgwire_error *pErr) {
  (void)pCtx;
  ASSERT_STR_EQ(pg_session_param(s, "user"), "alice");
  pErr->zState = "53300";
  pErr->zMsg = "sorry, too many clients already";
  return -1;
}

/* Starts a session with one startup packet and returns the answer. */
static const char *startup_answer(pgc *c, uint32_t iVersion, const char *const *azKV) {
  pgc_startup(&c->msg, iVersion, azKV);
  return pgc_roundtrip(c);
}

TEST_IMPL(session_startup_errors) {
  pg_session_config cfg;
  pgc c;

  pgc_open(&c, NULL);
  ASSERT_STR_EQ(startup_answer(&c, 2 << 16, (const char *const[]){"user", "a", NULL}), "FATAL(0A000)");
  ASSERT_STR_EQ(c.zErrMsg, "unsupported frontend protocol 2.0: server supports 3.0 to 3.0");
  ASSERT_EQ(pg_session_flags(c.s), PG_SESSION_CLOSE);
  pgc_close_all(&c);

  pgc_open(&c, NULL);
  ASSERT_STR_EQ(startup_answer(&c, PGWIRE_PROTOCOL_3_0, (const char *const[]){"database", "a", NULL}),
                "FATAL(28000)");
  ASSERT_STR_EQ(c.zErrMsg, "no PostgreSQL user name specified in startup packet");
  pgc_close_all(&c);

  pgc_open(&c, NULL);
  ASSERT_STR_EQ(startup_answer(&c, PGWIRE_PROTOCOL_3_0,
                               (const char *const[]){"user", "a", "client_encoding", "LATIN1", NULL}),
                "FATAL(22023)");
  ASSERT_STR_EQ(c.zErrMsg, "invalid value for parameter \"client_encoding\": \"LATIN1\"");
  pgc_close_all(&c);

  pgc_open(&c, NULL);
  ASSERT(strstr(startup_answer(&c, PGWIRE_PROTOCOL_3_0,
                               (const char *const[]){"user", "a", "client_encoding", "utf-8", NULL}),
                "S(client_encoding=UTF8)") != NULL);
  pgc_close_all(&c);
  pgc_open(&c, NULL);
  ASSERT(strstr(startup_answer(&c, PGWIRE_PROTOCOL_3_0,
                               (const char *const[]){"user", "a", "client_encoding", "SQL_ASCII", NULL}),
                "S(client_encoding=SQL_ASCII)") != NULL);
  pgc_close_all(&c);

  pgc_open(&c, NULL);
  ASSERT_STR_EQ(startup_answer(&c, PGWIRE_PROTOCOL_3_0,
                               (const char *const[]){"user", "a", "replication", "database", NULL}),
                "FATAL(0A000)");
  pgc_close_all(&c);

  /* A typed message where the startup packet belongs. */
  pgc_open(&c, NULL);
  pgc_query(&c.msg, "SELECT 1");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "FATAL(54000)");
  pgc_close_all(&c);
  pgc_open(&c, NULL);
  strbuf_append(&c.msg, "\0\0\0\5x", 5);
  ASSERT_STR_EQ(pgc_roundtrip(&c), "FATAL(08P01)");
  ASSERT_STR_EQ(c.zErrMsg, "invalid startup packet length 5");
  pgc_close_all(&c);

  /* The daemon says no. */
  pg_session_config_default(&cfg);
  cfg.bLoopback = 1;
  cfg.xAccept = accept_refuse;
  pgc_open(&c, &cfg);
  ASSERT_STR_EQ(startup_answer(&c, PGWIRE_PROTOCOL_3_0, (const char *const[]){"user", "alice", NULL}),
                "FATAL(53300)");
  ASSERT_STR_EQ(c.zErrMsg, "sorry, too many clients already");
  pgc_close_all(&c);
  return 0;
}

/* ---- SSLRequest, GSSENCRequest, CancelRequest --------------------------------------- */

static int32_t cancel_aKey[3];

static void cancel_record(void *pCtx, int32_t iPid, int32_t iSecret) {
  (void)pCtx;
  cancel_aKey[0]++;
  cancel_aKey[1] = iPid;
  cancel_aKey[2] = iSecret;
}

TEST_IMPL(session_ssl_cancel) {
  pg_session_config cfg;
  pgc c;

  pg_session_config_default(&cfg);
  cfg.bLoopback = 1;
  cfg.xCancel = cancel_record;
  pgc_open(&c, &cfg);
  pgc_request(&c.msg, PGWIRE_SSL_REQUEST);
  pgc_send(&c);
  ASSERT_EQ(c.got.n, 1);                       /* one byte, not a message */
  ASSERT_EQ(c.got.z[0], 'N');
  strbuf_reset(&c.got);
  pgc_request(&c.msg, PGWIRE_GSSENC_REQUEST);
  pgc_send(&c);
  ASSERT_EQ(c.got.n, 1);
  ASSERT_EQ(c.got.z[0], 'N');
  strbuf_reset(&c.got);
  pgc_login(&c, "alice");                      /* then the real startup */
  pgc_close_all(&c);

  pgc_open(&c, &cfg);
  pgc_request(&c.msg, PGWIRE_SSL_REQUEST);
  pgc_request(&c.msg, PGWIRE_SSL_REQUEST);
  pgc_send(&c);
  ASSERT_EQ(c.got.z[0], 'N');
  ASSERT_STR_EQ(pgc_summarize(&c, (const unsigned char *)c.got.z + 1, c.got.n - 1), "FATAL(08P01)");
  strbuf_reset(&c.got);
  pgc_close_all(&c);

  /* A cancel connection: the key goes to the daemon, nothing comes back. */
  pgc_open(&c, &cfg);
  pgc_cancel(&c.msg, 4242, -7);
  ASSERT_STR_EQ(pgc_roundtrip(&c), "");
  ASSERT_EQ(cancel_aKey[0], 1);
  ASSERT_EQ(cancel_aKey[1], 4242);
  ASSERT_EQ(cancel_aKey[2], -7);
  ASSERT_EQ(pg_session_flags(c.s), PG_SESSION_CLOSE);
  pgc_close_all(&c);

  /* After SSLRequest too; and a cancel of the wrong size is refused. */
  pgc_open(&c, &cfg);
  pgc_request(&c.msg, PGWIRE_SSL_REQUEST);
  pgc_cancel(&c.msg, 1, 2);
  pgc_send(&c);
  ASSERT_EQ(c.got.n, 1);
  strbuf_reset(&c.got);
  ASSERT_EQ(cancel_aKey[0], 2);
  pgc_close_all(&c);
  pgc_open(&c, &cfg);
  strbuf_append(&c.msg, "\0\0\0\x0c\x04\xd2\x16\x2e\0\0\0\1", 12);
  ASSERT_STR_EQ(pgc_roundtrip(&c), "FATAL(08P01)");
  ASSERT_EQ(cancel_aKey[0], 2);
  pgc_close_all(&c);
  return 0;
}

/* ---- simple query ----------------------------------------------------------------- */

TEST_IMPL(session_simple_multi) {
  pgc c;
  pgc_open(&c, NULL);
  pgc_login(&c, "alice");

  pgc_query(&c.msg, "SELECT 1; SELECT 2");
  ASSERT_STR_EQ(pgc_roundtrip(&c),
                "T(?column?:23) D(1) C(SELECT 1) T(?column?:23) D(2) C(SELECT 1) Z(I)");
  ASSERT_STR_EQ(strbuf_str(&c.log), "X(SELECT 1) X(SELECT 2)");
  strbuf_reset(&c.log);

  /* An error in the middle: what follows is skipped, one ReadyForQuery. */
  pgc_query(&c.msg, "SELECT 1; ERROR 3; SELECT 2");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "T(?column?:23) D(1) C(SELECT 1) E(42601) Z(I)");
  ASSERT_STR_EQ(strbuf_str(&c.log), "X(SELECT 1) X(ERROR 3)");
  ASSERT_STR_EQ(c.zErrMsg, "fake error");
  ASSERT_STR_EQ(c.zErrDetail, "fake detail");
  ASSERT_STR_EQ(c.zErrHint, "fake hint");
  ASSERT_EQ(c.iErrPos, 13);                    /* 3 in the statement, 10 before it */
  strbuf_reset(&c.log);

  /* Positions count characters of the whole text, not bytes. */
  pgc_query(&c.msg, "SELECT 1 /* é */; ERROR 2");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "T(?column?:23) D(1) C(SELECT 1) E(42601) Z(I)");
  ASSERT_EQ(c.iErrPos, 20);
  strbuf_reset(&c.log);

  /* Splitting: quotes, quoted names, comments and parentheses keep their
  ** semicolons; empty statements are skipped; trailing space is cut. */
  pgc_query(&c.msg,
            "BEGIN ';' ; ; SET \"a;b\" -- x;y\n; SET E'\\';' /* ; */ ;SET (1;2)  ;\n -- end;");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(BEGIN) C(SET) C(SET) C(SET) Z(T)");
  ASSERT_STR_EQ(strbuf_str(&c.log),
                "X(BEGIN ';') X(SET \"a;b\") X(SET E'\\';') X(SET (1;2))");
  strbuf_reset(&c.log);
  pgc_query(&c.msg, "ROLLBACK; SELECT 'unterminated; SELECT 2");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(ROLLBACK) T(?column?:23) D(0) C(SELECT 1) Z(I)");
  ASSERT_STR_EQ(strbuf_str(&c.log), "X(ROLLBACK) X(SELECT 'unterminated; SELECT 2)");
  strbuf_reset(&c.log);

  /* Notices and parameter changes come before the answer. */
  pgc_query(&c.msg, "NOTICE");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "N(00000) S(application_name=fake) C(DO) Z(I)");

  /* A result of many rows, and of none. */
  pgc_query(&c.msg, "ROWS 3; ROWS 0");
  ASSERT_STR_EQ(pgc_roundtrip(&c),
                "T(i:23,t:25,f:701,b:16,d:1082,g:20,h:21) "
                "D(1,row1,0.5,f,2000-01-02,10000000000,1) "
                "D(2,row2,1,t,2000-01-03,20000000000,2) "
                "D(3,row3,1.5,f,2000-01-04,30000000000,NULL) C(SELECT 3) "
                "T(i:23,t:25,f:701,b:16,d:1082,g:20,h:21) C(SELECT 0) Z(I)");

  /* A value the engine cannot produce fails the statement mid-result. */
  pgc_query(&c.msg, "BADVALUE; SELECT 1");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "T(?column?:23) D(1) E(XX000) Z(I)");
  ASSERT_STR_EQ(c.zErrMsg, "could not send row 2: the engine could not produce a value");
  pgc_close_all(&c);
  return 0;
}

TEST_IMPL(session_simple_empty) {
  static const char *const azEmpty[] = {"", " ", ";", " ; ;\n", "-- only a comment", "/* x; */ ;"};
  pgc c;
  pgc_open(&c, NULL);
  pgc_login(&c, "alice");
  for (size_t i = 0; i < sizeof(azEmpty) / sizeof(azEmpty[0]); i++) {
    pgc_query(&c.msg, azEmpty[i]);
    ASSERT_STR_EQ(pgc_roundtrip(&c), "I Z(I)");
  }
  ASSERT_STR_EQ(strbuf_str(&c.log), "");
  pgc_close_all(&c);
  return 0;
}

/* ---- transaction status ------------------------------------------------------------- */

TEST_IMPL(session_txn_status) {
  pgc c;
  pgc_open(&c, NULL);
  pgc_login(&c, "alice");

  pgc_query(&c.msg, "BEGIN");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(BEGIN) Z(T)");
  ASSERT_EQ(pg_session_txn_status(c.s), 'T');
  pgc_query(&c.msg, "SELECT 1");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "T(?column?:23) D(1) C(SELECT 1) Z(T)");
  pgc_query(&c.msg, "ERROR");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "E(42601) Z(E)");
  pgc_query(&c.msg, "SELECT 1");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "E(25P02) Z(E)");
  pgc_query(&c.msg, "ROLLBACK");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(ROLLBACK) Z(I)");

  /* COMMIT of a failed block rolls it back. */
  pgc_query(&c.msg, "START TRANSACTION; ERROR; SELECT 1");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(START TRANSACTION) E(42601) Z(E)");
  pgc_query(&c.msg, "COMMIT");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(ROLLBACK) Z(I)");

  /* An error outside a block leaves it idle; a whole block in one Query. */
  pgc_query(&c.msg, "ERROR");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "E(42601) Z(I)");
  pgc_query(&c.msg, "BEGIN; SELECT 1; COMMIT");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(BEGIN) T(?column?:23) D(1) C(SELECT 1) C(COMMIT) Z(I)");

  /* The engine may say what the status is. */
  pgc_query(&c.msg, "TXN T");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(TXN) Z(T)");
  pgc_query(&c.msg, "TXN E");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(TXN) Z(E)");
  pgc_query(&c.msg, "TXN I");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "E(25P02) Z(E)");   /* the fake refuses it in E */
  pgc_query(&c.msg, "ROLLBACK");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(ROLLBACK) Z(I)");

  /* The extended protocol: an error of the session's own inside a block. */
  pgc_query(&c.msg, "BEGIN");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(BEGIN) Z(T)");
  pgc_bind(&c.msg, "", "nosuch", 0, NULL, 0, NULL, NULL, 0, NULL);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "E(26000) Z(E)");
  pgc_parse(&c.msg, "", "ROLLBACK", 0, NULL);
  pgc_bind(&c.msg, "", "", 0, NULL, 0, NULL, NULL, 0, NULL);
  pgc_execute(&c.msg, "", 0);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "1 2 C(ROLLBACK) Z(I)");
  pgc_close_all(&c);
  return 0;
}

/* ---- too big, and hostile ------------------------------------------------------------ */

TEST_IMPL(session_oversized) {
  pg_session_config cfg;
  char zBig[2000];
  pgc c;

  pg_session_config_default(&cfg);
  cfg.bLoopback = 1;
  cfg.nMaxMessage = 1024;
  pgc_open(&c, &cfg);
  pgc_login(&c, "alice");
  memset(zBig, 'x', sizeof(zBig) - 1);
  zBig[sizeof(zBig) - 1] = 0;
  pgc_query(&c.msg, zBig);
  /* Refused on its first five bytes: the rest is never buffered. */
  pg_session_feed(c.s, c.msg.z, 5);
  pgc_drain(&c);
  ASSERT_STR_EQ(pgc_read(&c), "FATAL(54000)");
  ASSERT_STR_EQ(c.zErrMsg, "message of 2004 bytes is longer than the limit of 1024 bytes");
  ASSERT_EQ(pg_session_flags(c.s), PG_SESSION_CLOSE);
  pgc_send(&c);
  ASSERT_STR_EQ(pgc_read(&c), "");
  pgc_close_all(&c);

  /* At the limit it goes through. */
  pgc_open(&c, &cfg);
  pgc_login(&c, "alice");
  memcpy(zBig, "SELECT 9 ", 9);
  zBig[1024 - 5] = 0;
  pgc_query(&c.msg, zBig);
  ASSERT_EQ(c.msg.n, 1025);
  ASSERT_STR_EQ(pgc_roundtrip(&c), "T(?column?:23) D(9) C(SELECT 1) Z(I)");

  /* A Sync claiming 20000 bytes. */
  strbuf_append(&c.msg, "S\0\0\x4e\x20", 5);
  ASSERT_STR_EQ(pgc_roundtrip(&c), "FATAL(54000)");
  pgc_close_all(&c);
  return 0;
}

/* Logs in, sends the bytes a[0..n) and returns the answer. */
static const char *hostile(pgc *c, const char *a, size_t n) {
  pgc_open(c, NULL);
  pgc_login(c, "alice");
  strbuf_append(&c->msg, a, n);
  return pgc_roundtrip(c);
}

TEST_IMPL(session_hostile) {
  pgc c;
  uint64_t iSeed = 12345;

  ASSERT_STR_EQ(hostile(&c, "z\0\0\0\4", 5), "FATAL(08P01)");
  ASSERT_STR_EQ(c.zErrMsg, "invalid frontend message type 122");
  pgc_close_all(&c);
  ASSERT_STR_EQ(hostile(&c, "Q\0\0\0\2", 5), "FATAL(08P01)");
  pgc_close_all(&c);
  ASSERT_STR_EQ(hostile(&c, "S\0\0\0\5x", 6), "FATAL(08P01)");
  ASSERT_STR_EQ(c.zErrMsg, "invalid message format");
  pgc_close_all(&c);
  ASSERT_STR_EQ(hostile(&c, "Q\0\0\0\7abc", 8), "FATAL(08P01)");   /* no NUL */
  pgc_close_all(&c);
  ASSERT_STR_EQ(hostile(&c, "B\0\0\0\010\0\0\0\0", 9), "FATAL(08P01)");
  ASSERT_STR_EQ(c.zErrMsg, "insufficient data left in message");
  pgc_close_all(&c);
  ASSERT_STR_EQ(hostile(&c, "D\0\0\0\7Xs\0", 8), "FATAL(08P01)");
  pgc_close_all(&c);
  ASSERT_STR_EQ(hostile(&c, "E\0\0\0\010\0\0\0\0", 9), "FATAL(08P01)");
  pgc_close_all(&c);
  ASSERT_STR_EQ(hostile(&c, "p\0\0\0\5x", 6), "FATAL(08P01)");
  ASSERT_STR_EQ(c.zErrMsg, "unexpected password message");
  pgc_close_all(&c);
  /* Leftovers of a failed COPY are dropped without a word; so is a
  ** function call refused, but with an error and ReadyForQuery. */
  ASSERT_STR_EQ(hostile(&c, "d\0\0\0\5xc\0\0\0\4f\0\0\0\5\0", 17), "");
  pgc_close_all(&c);
  ASSERT_STR_EQ(hostile(&c, "F\0\0\0\4", 5), "E(0A000) Z(I)");
  pgc_close_all(&c);

  /* Random bytes after login: an error or nothing, never more. */
  for (int iRound = 0; iRound < 300; iRound++) {
    char a[64];
    size_t n = 1 + iRound % 64;
    const char *zGot;
    for (size_t i = 0; i < n; i++) {
      iSeed = iSeed * 6364136223846793005ULL + 1442695040888963407ULL;
      a[i] = (char)(iSeed >> 56);
    }
    a[0] = "QPBDECSHXdcfpF"[iRound % 14];
    zGot = hostile(&c, a, n);
    /* A FATAL error is the last thing said, and the session closes. */
    if (strstr(zGot, "FATAL(") != NULL) {
      ASSERT(strchr(strstr(zGot, "FATAL("), ' ') == NULL);
      ASSERT(pg_session_flags(c.s) & PG_SESSION_CLOSE);
    }
    pgc_close_all(&c);
  }
  return 0;
}

/* ---- libpq's own bytes ---------------------------------------------------------------- */

TEST_IMPL(session_libpq_startup) {
  /* What psql 15 (libpq 15, sslmode=prefer) sent to a listening socket:
  ** an SSLRequest, then after 'N' its StartupMessage. */
  static const unsigned char aSsl[] = {0x00, 0x00, 0x00, 0x08, 0x04, 0xd2, 0x16, 0x2f};
  static const char aStartup[] =
      "\x00\x00\x00\x39\x00\x03\x00\x00user\0starq\0database\0starq\0"
      "application_name\0psql\0\0";
  pgc c;
  pgc_open(&c, NULL);
  c.nChunk = 3;
  strbuf_append(&c.msg, (const char *)aSsl, sizeof(aSsl));
  pgc_send(&c);
  ASSERT_EQ(c.got.n, 1);
  ASSERT_EQ(c.got.z[0], 'N');
  strbuf_reset(&c.got);
  strbuf_append(&c.msg, aStartup, sizeof(aStartup) - 1);
  ASSERT_EQ(c.msg.n, 0x39);
  ASSERT_STR_EQ(pgc_roundtrip(&c),
                "R(0) S(application_name=psql) " LOGIN_PARAMS
                "S(session_authorization=starq) S(standard_conforming_strings=on) "
                "S(TimeZone=UTC) K(0,0) Z(I)");
  ASSERT_STR_EQ(pg_session_param(c.s, "database"), "starq");
  pgc_close_all(&c);
  return 0;
}
