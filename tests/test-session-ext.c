/*
** tests/test-session-ext.c — server/session.h's extended query protocol
** (statements, portals, PortalSuspended, skip-to-Sync, formats, Close,
** Flush), COPY FROM STDIN, backpressure, and an engine that answers later.
*/
#include "../server/pgwire.h"
#include "pgclient.h"
#include "test.h"

/* Parse + Bind + Execute(nMax) of zSql on the unnamed statement and portal. */
static void ext_run(pgc *c, const char *zSql, int32_t nMax) {
  pgc_parse(&c->msg, "", zSql, 0, NULL);
  pgc_bind(&c->msg, "", "", 0, NULL, 0, NULL, NULL, 0, NULL);
  pgc_execute(&c->msg, "", nMax);
}

static void login(pgc *c, const pg_session_config *pCfg) {
  pgc_open(c, pCfg);
  pgc_login(c, "alice");
}

TEST_IMPL(session_extended) {
  const uint32_t aType[] = {PGWIRE_OID_INT4, 0};
  const char *azValue[] = {"42", "hi"};
  const char *azNull[] = {"7", NULL};
  const int anNull[] = {1, -1};
  pgc c;

  /* byte by byte as well as whole */
  for (size_t nChunk = 0; nChunk <= 1; nChunk++) {
    login(&c, NULL);
    c.nChunk = nChunk;
    pgc_parse(&c.msg, "s1", "ECHO $1 $2", 2, aType);
    pgc_bind(&c.msg, "p1", "s1", 0, NULL, 2, azValue, NULL, 0, NULL);
    pgc_describe(&c.msg, 'S', "s1");
    pgc_describe(&c.msg, 'P', "p1");
    pgc_execute(&c.msg, "p1", 0);
    pgc_empty(&c.msg, 'S');
    ASSERT_STR_EQ(pgc_roundtrip(&c), "1 2 t(23,25) T($1:23,$2:25) T($1:23,$2:25) D(42,hi) C(SELECT 1) Z(I)");
    ASSERT_STR_EQ(strbuf_str(&c.log), "P(ECHO $1 $2) X(ECHO $1 $2|42,hi)");
    strbuf_reset(&c.log);

    /* The named statement outlives Sync; its portal does not. */
    pgc_bind(&c.msg, "p1", "s1", 0, NULL, 2, azNull, anNull, 0, NULL);
    pgc_execute(&c.msg, "p1", 0);
    pgc_empty(&c.msg, 'S');
    ASSERT_STR_EQ(pgc_roundtrip(&c), "2 D(7,NULL) C(SELECT 1) Z(I)");
    ASSERT_STR_EQ(strbuf_str(&c.log), "X(ECHO $1 $2|7,NULL)");
    strbuf_reset(&c.log);

    /* The unnamed statement and portal; a command; a Query in between
    ** ends the unnamed statement. */
    ext_run(&c, "SELECT 7", 0);
    pgc_describe(&c.msg, 'P', "");
    pgc_empty(&c.msg, 'S');
    ASSERT_STR_EQ(pgc_roundtrip(&c), "1 2 D(7) C(SELECT 1) T(?column?:23) Z(I)");
    ext_run(&c, "SET x", 0);
    pgc_describe(&c.msg, 'S', "");
    pgc_empty(&c.msg, 'S');
    ASSERT_STR_EQ(pgc_roundtrip(&c), "1 2 C(SET) t() n Z(I)");
    pgc_query(&c.msg, "SELECT 1");
    pgc_bind(&c.msg, "", "", 0, NULL, 0, NULL, NULL, 0, NULL);
    pgc_empty(&c.msg, 'S');
    ASSERT_STR_EQ(pgc_roundtrip(&c), "T(?column?:23) D(1) C(SELECT 1) Z(I) E(26000) Z(I)");
    ASSERT_STR_EQ(c.zErrMsg, "unnamed prepared statement does not exist");

    /* An empty statement: no job, NoData, EmptyQueryResponse. */
    strbuf_reset(&c.log);
    ext_run(&c, " -- nothing ", 0);
    pgc_describe(&c.msg, 'P', "");
    pgc_execute(&c.msg, "", 0);
    pgc_empty(&c.msg, 'S');
    ASSERT_STR_EQ(pgc_roundtrip(&c), "1 2 I n I Z(I)");
    ASSERT_STR_EQ(strbuf_str(&c.log), "");
    pgc_close_all(&c);
  }
  return 0;
}

TEST_IMPL(session_suspend) {
  pgc c;
  login(&c, NULL);
  ext_run(&c, "ROWS 5", 2);
  pgc_execute(&c.msg, "", 2);
  pgc_execute(&c.msg, "", 2);
  pgc_execute(&c.msg, "", 2);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c),
                "1 2 D(1,row1,0.5,f,2000-01-02,10000000000,1) D(2,row2,1,t,2000-01-03,20000000000,2) s "
                "D(3,row3,1.5,f,2000-01-04,30000000000,NULL) D(4,row4,2,t,2000-01-05,40000000000,4) s "
                "D(5,row5,2.5,f,2000-01-06,50000000000,5) C(SELECT 1) C(SELECT 0) Z(I)");
  ASSERT_STR_EQ(strbuf_str(&c.log), "P(ROWS 5) X(ROWS 5)");   /* run once, read in parts */

  /* A limit that ends exactly at the last row, then none left. */
  ext_run(&c, "ROWS 2", 2);
  pgc_execute(&c.msg, "", 0);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c),
                "1 2 D(1,row1,0.5,f,2000-01-02,10000000000,1) D(2,row2,1,t,2000-01-03,20000000000,2) s "
                "C(SELECT 0) Z(I)");

  /* Outside a block the portal ends at Sync; inside it lives on. */
  ext_run(&c, "ROWS 3", 1);
  pgc_empty(&c.msg, 'S');
  pgc_execute(&c.msg, "", 1);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c),
                "1 2 D(1,row1,0.5,f,2000-01-02,10000000000,1) s Z(I) E(34000) Z(I)");
  pgc_query(&c.msg, "BEGIN");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(BEGIN) Z(T)");
  pgc_parse(&c.msg, "", "ROWS 3", 0, NULL);
  pgc_bind(&c.msg, "cur", "", 0, NULL, 0, NULL, NULL, 0, NULL);
  pgc_execute(&c.msg, "cur", 1);
  pgc_empty(&c.msg, 'S');
  pgc_execute(&c.msg, "cur", 5);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c),
                "1 2 D(1,row1,0.5,f,2000-01-02,10000000000,1) s Z(T) "
                "D(2,row2,1,t,2000-01-03,20000000000,2) D(3,row3,1.5,f,2000-01-04,30000000000,NULL) "
                "C(SELECT 2) Z(T)");
  pgc_query(&c.msg, "COMMIT");
  pgc_execute(&c.msg, "cur", 0);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(COMMIT) Z(I) E(34000) Z(I)");

  /* A command portal cannot be run twice. */
  ext_run(&c, "SET x", 0);
  pgc_execute(&c.msg, "", 0);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "1 2 C(SET) E(55000) Z(I)");
  pgc_close_all(&c);
  return 0;
}

TEST_IMPL(session_skip_to_sync) {
  const char *azOne[] = {"1"};
  const int16_t aBad[] = {2};
  const int16_t aTwo[] = {0, 0};
  pgc c;
  login(&c, NULL);

  /* After an error, everything up to Sync is dropped unseen. */
  pgc_parse(&c.msg, "s", "SELECT 1", 0, NULL);
  pgc_bind(&c.msg, "", "nosuch", 0, NULL, 0, NULL, NULL, 0, NULL);
  pgc_execute(&c.msg, "", 0);
  pgc_parse(&c.msg, "t", "SELECT 2", 0, NULL);
  pgc_describe(&c.msg, 'S', "s");
  pgc_query(&c.msg, "SELECT 3");
  pgc_empty(&c.msg, 'H');
  pgc_empty(&c.msg, 'S');
  pgc_describe(&c.msg, 'S', "t");
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "1 E(26000) Z(I) E(26000) Z(I)");
  ASSERT_STR_EQ(strbuf_str(&c.log), "P(SELECT 1)");
  ASSERT_STR_EQ(c.zErrMsg, "prepared statement \"t\" does not exist");

  /* The engine refusing a Parse; the position counts from the text's start. */
  pgc_parse(&c.msg, "", "  ERROR 4", 0, NULL);
  pgc_bind(&c.msg, "", "", 0, NULL, 0, NULL, NULL, 0, NULL);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "E(42601) Z(I)");
  ASSERT_EQ(c.iErrPos, 6);

  /* Errors of the session's own, each followed by a working Sync. */
  pgc_parse(&c.msg, "", "SELECT 1; SELECT 2", 0, NULL);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "E(42601) Z(I)");
  ASSERT_STR_EQ(c.zErrMsg, "cannot insert multiple commands into a prepared statement");
  pgc_parse(&c.msg, "s", "SELECT 2", 0, NULL);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "E(42P05) Z(I)");
  pgc_bind(&c.msg, "", "s", 0, NULL, 1, azOne, NULL, 0, NULL);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "E(08P01) Z(I)");
  ASSERT_STR_EQ(c.zErrMsg, "bind message supplies 1 parameters, but prepared statement \"s\" requires 0");
  pgc_bind(&c.msg, "", "s", 0, NULL, 0, NULL, NULL, 1, aBad);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "E(22023) Z(I)");
  ASSERT_STR_EQ(c.zErrMsg, "unsupported format code: 2");
  pgc_bind(&c.msg, "", "s", 0, NULL, 0, NULL, NULL, 2, aTwo);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "E(08P01) Z(I)");
  ASSERT_STR_EQ(c.zErrMsg, "bind message has 2 result formats but query has 1 columns");
  pgc_bind(&c.msg, "p", "s", 0, NULL, 0, NULL, NULL, 0, NULL);
  pgc_bind(&c.msg, "p", "s", 0, NULL, 0, NULL, NULL, 0, NULL);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "2 E(42P03) Z(I)");
  pgc_execute(&c.msg, "nosuch", 0);
  pgc_empty(&c.msg, 'S');
  pgc_describe(&c.msg, 'P', "nosuch");
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "E(34000) Z(I) E(34000) Z(I)");

  /* An engine error at Execute skips the rest too. */
  strbuf_reset(&c.log);
  ext_run(&c, "LATEERROR", 0);
  pgc_execute(&c.msg, "", 0);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "1 2 E(42601) Z(I)");
  ASSERT_STR_EQ(strbuf_str(&c.log), "P(LATEERROR) X(LATEERROR)");
  pgc_close_all(&c);
  return 0;
}

TEST_IMPL(session_binary) {
  const int16_t aBinary[] = {1};
  const int16_t aMixed[] = {0, 1, 1, 1, 1, 1, 1};
  const uint32_t aType[] = {PGWIRE_OID_INT4, PGWIRE_OID_FLOAT8, PGWIRE_OID_BOOL, PGWIRE_OID_DATE,
                            PGWIRE_OID_INT8, PGWIRE_OID_INT2, PGWIRE_OID_TEXT};
  const int16_t aParamFormat[] = {1, 1, 1, 1, 1, 1, 0};
  const char *azValue[] = {"\xff\xff\xff\xfb", "\x40\x04\0\0\0\0\0\0", "\1", "\0\0\0\0",
                           "\x80\0\0\0\0\0\0\0", "\0\x2a", "plain"};
  const int anValue[] = {4, 8, 1, 4, 8, 2, 5};
  const uint32_t aTimestamp[] = {1186};   /* interval */
  const char *azShort[] = {"\0\0\1"};
  const int anShort[] = {3};
  pgc c;
  login(&c, NULL);

  /* Every column binary: the DataRows carry PostgreSQL's binary forms. */
  pgc_parse(&c.msg, "", "ROWS 3", 0, NULL);
  pgc_bind(&c.msg, "", "", 0, NULL, 0, NULL, NULL, 1, aBinary);
  pgc_describe(&c.msg, 'P', "");
  pgc_execute(&c.msg, "", 0);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c),
                "1 2 T(i:23:b,t:25:b,f:701:b,b:16:b,d:1082:b,g:20:b,h:21:b) "
                "D(0x00000001,row1,0x3fe0000000000000,0x00,0x00000001,0x00000002540be400,0x0001) "
                "D(0x00000002,row2,0x3ff0000000000000,0x01,0x00000002,0x00000004a817c800,0x0002) "
                "D(0x00000003,row3,0x3ff8000000000000,0x00,0x00000003,0x00000006fc23ac00,NULL) "
                "C(SELECT 3) Z(I)");

  /* Formats per column. */
  pgc_parse(&c.msg, "", "ROWS 1", 0, NULL);
  pgc_bind(&c.msg, "", "", 0, NULL, 0, NULL, NULL, 7, aMixed);
  pgc_execute(&c.msg, "", 0);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c),
                "1 2 D(1,row1,0x3fe0000000000000,0x00,0x00000001,0x00000002540be400,0x0001) "
                "C(SELECT 1) Z(I)");

  /* Binary parameters reach the engine as text. */
  pgc_parse(&c.msg, "", "ECHO $1 $2 $3 $4 $5 $6 $7", 7, aType);
  pgc_bind(&c.msg, "", "", 7, aParamFormat, 7, azValue, anValue, 0, NULL);
  pgc_execute(&c.msg, "", 0);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c),
                "1 2 D(-5,2.5,t,2000-01-01,-9223372036854775808,42,plain) C(SELECT 1) Z(I)");

  /* Bytes that are not a value of the parameter's type. */
  pgc_parse(&c.msg, "", "ECHO $1", 1, aType);
  pgc_bind(&c.msg, "", "", 1, aBinary, 1, azShort, anShort, 0, NULL);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "1 E(22P03) Z(I)");
  ASSERT_STR_EQ(c.zErrMsg, "incorrect binary data format in bind parameter 1");

  /* A text parameter with a NUL in it. */
  pgc_parse(&c.msg, "", "ECHO $1", 0, NULL);
  pgc_bind(&c.msg, "", "", 0, NULL, 1, azShort, anShort, 0, NULL);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "1 E(22021) Z(I)");

  /* A type without a binary form here (interval), both ways. */
  pgc_parse(&c.msg, "", "ECHO $1", 1, aTimestamp);
  pgc_bind(&c.msg, "", "", 0, NULL, 1, (const char *[]){"1.5"}, NULL, 1, aBinary);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "1 E(42883) Z(I)");
  ASSERT_STR_EQ(c.zErrMsg, "no binary output function available for type with OID 1186");
  pgc_parse(&c.msg, "", "ECHO $1", 1, aTimestamp);
  pgc_bind(&c.msg, "", "", 1, aBinary, 1, (const char *[]){"1.5"}, NULL, 0, NULL);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "1 E(42883) Z(I)");

  /* A value the engine gives that has no binary form of its type. */
  pgc_parse(&c.msg, "", "BADBIN", 0, NULL);
  pgc_bind(&c.msg, "", "", 0, NULL, 0, NULL, NULL, 1, aBinary);
  pgc_execute(&c.msg, "", 0);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "1 2 E(XX000) Z(I)");
  ASSERT_STR_EQ(c.zErrMsg, "could not send row 1: a value has no binary form of its type");
  pgc_close_all(&c);
  return 0;
}

TEST_IMPL(session_close_flush) {
  pgc c;
  login(&c, NULL);

  /* Output is never held back, so a Flush finds it there. */
  pgc_parse(&c.msg, "s", "SELECT 4", 0, NULL);
  pgc_empty(&c.msg, 'H');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "1");
  pgc_bind(&c.msg, "p", "s", 0, NULL, 0, NULL, NULL, 0, NULL);
  pgc_empty(&c.msg, 'H');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "2");

  /* Closing the statement leaves its portal runnable. */
  pgc_close(&c.msg, 'S', "s");
  pgc_describe(&c.msg, 'S', "s");
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "3 E(26000) Z(I)");
  ASSERT_EQ(c.nStmtLive, 0);   /* the Sync ended the portal and with it the statement */

  pgc_query(&c.msg, "BEGIN");
  pgc_parse(&c.msg, "s", "SELECT 4", 0, NULL);
  pgc_bind(&c.msg, "p", "s", 0, NULL, 0, NULL, NULL, 0, NULL);
  pgc_close(&c.msg, 'S', "s");
  pgc_empty(&c.msg, 'H');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(BEGIN) Z(T) 1 2 3");
  ASSERT_EQ(c.nStmtLive, 1);
  pgc_execute(&c.msg, "p", 0);
  pgc_close(&c.msg, 'P', "p");
  pgc_execute(&c.msg, "p", 0);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "D(4) C(SELECT 1) 3 E(34000) Z(E)");
  ASSERT_EQ(c.nStmtLive, 0);

  /* Closing what does not exist is fine. */
  pgc_query(&c.msg, "ROLLBACK");
  pgc_close(&c.msg, 'S', "nosuch");
  pgc_close(&c.msg, 'P', "nosuch");
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(ROLLBACK) Z(I) 3 3 Z(I)");
  pgc_close_all(&c);
  return 0;
}

TEST_IMPL(session_copy_in) {
  pgc c;
  login(&c, NULL);

  /* psql's \copy: data in pieces, Flush and Sync ignored in between. */
  pgc_query(&c.msg, "COPY");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "G(0,2)");
  pgc_copy_data(&c.msg, "1\ta\n2\t", 6);
  pgc_copy_data(&c.msg, "b\n", 2);
  pgc_empty(&c.msg, 'H');
  pgc_empty(&c.msg, 'S');
  pgc_copy_data(&c.msg, "3\tc\n", 4);
  pgc_empty(&c.msg, 'c');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "C(COPY 3) Z(I)");
  /* The first two CopyData went to the engine as one job. */
  ASSERT_STR_EQ(strbuf_str(&c.log), "X(COPY) CD(8) CD(4) CE");
  strbuf_reset(&c.log);

  /* CopyFail. */
  pgc_query(&c.msg, "COPY");
  pgc_copy_data(&c.msg, "1\ta\n", 4);
  pgc_copy_fail(&c.msg, "the user pressed ^C");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "G(0,2) E(57014) Z(I)");
  ASSERT_STR_EQ(c.zErrMsg, "COPY from stdin failed: the user pressed ^C");
  ASSERT_STR_EQ(strbuf_str(&c.log), "X(COPY) CD(4) CF(the user pressed ^C)");
  strbuf_reset(&c.log);

  /* Bad data: the copy ends; what the client still sends is dropped. */
  pgc_query(&c.msg, "COPY; SELECT 1");
  pgc_copy_data(&c.msg, "bad\n", 4);
  pgc_send(&c);
  pgc_copy_data(&c.msg, "more\n", 5);
  pgc_empty(&c.msg, 'c');
  pgc_query(&c.msg, "SELECT 2");
  pgc_send(&c);
  ASSERT_STR_EQ(pgc_read(&c), "G(0,2) E(22P02) Z(I) T(?column?:23) D(2) C(SELECT 1) Z(I)");
  ASSERT_STR_EQ(strbuf_str(&c.log), "X(COPY) CD(4) X(SELECT 2)");
  strbuf_reset(&c.log);

  /* A copy, then the Query's next statement. */
  pgc_query(&c.msg, "COPY; SELECT 1");
  pgc_copy_data(&c.msg, "x\ty\n", 4);
  pgc_empty(&c.msg, 'c');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "G(0,2) C(COPY 1) T(?column?:23) D(1) C(SELECT 1) Z(I)");

  /* Through the extended protocol. */
  ext_run(&c, "COPY", 0);
  pgc_copy_data(&c.msg, "x\ty\n", 4);
  pgc_empty(&c.msg, 'c');
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "1 2 G(0,2) C(COPY 1) Z(I)");
  ext_run(&c, "COPY", 0);
  pgc_copy_data(&c.msg, "bad\n", 4);
  pgc_empty(&c.msg, 'c');
  pgc_execute(&c.msg, "", 0);
  pgc_empty(&c.msg, 'S');
  ASSERT_STR_EQ(pgc_roundtrip(&c), "1 2 G(0,2) E(22P02) Z(I)");

  /* Anything else during a copy is a protocol violation. */
  pgc_query(&c.msg, "COPY");
  pgc_query(&c.msg, "SELECT 1");
  ASSERT_STR_EQ(pgc_roundtrip(&c), "G(0,2) FATAL(08P01)");
  ASSERT_STR_EQ(c.zErrMsg, "unexpected message type 0x51 during COPY from stdin");
  pgc_close_all(&c);
  return 0;
}

/* Counts the DataRows and ReadyForQuerys in a chunk of output, checking
** that it holds whole messages only. */
static void count_messages(const void *p, size_t n, int *pnRow, int *pnReady) {
  const unsigned char *a = p;
  for (size_t i = 0; i < n;) {
    ASSERT(n - i >= 5);
    *pnRow += a[i] == 'D';
    *pnReady += a[i] == 'Z';
    i += 1 + pgwire_get_u32(a + i + 1);
    ASSERT(i <= n);
  }
}

TEST_IMPL(session_backpressure) {
  pg_session_config cfg;
  strbuf big;
  int nRow = 0, nReady = 0, nRound = 0;
  size_t n;
  const void *p;
  pgc c;

  pg_session_config_default(&cfg);
  cfg.bLoopback = 1;
  cfg.nOutputHigh = 4096;
  cfg.nInputHigh = 2048;
  login(&c, &cfg);
  c.bHold = 1;                     /* a client that reads only when the test says */
  pgc_query(&c.msg, "ROWS 2000");
  pgc_send(&c);
  while (nReady < 201) {
    size_t nAgain;
    int nReadyBefore = nReady;
    p = pg_session_output(c.s, &n);
    ASSERT(p != NULL);
    ASSERT(pg_session_output(c.s, &nAgain) == p);   /* lent bytes stay put */
    ASSERT_EQ(nAgain, n);
    count_messages(p, n, &nRow, &nReady);
    /* Never more than the mark waits while rows remain; once they are
    ** sent, the messages of one more query may pass it. */
    ASSERT_LE(n, cfg.nOutputHigh + (nReady > nReadyBefore ? 100 : 0));
    if (nRound == 3) {
      /* While it waits, pipelined queries pile up until reading pauses. */
      ASSERT_EQ(pg_session_flags(c.s), 0);
      for (int i = 0; i < 200; i++) pgc_query(&c.msg, "SELECT 1");
      pgc_send(&c);
      ASSERT_EQ(pg_session_flags(c.s), PG_SESSION_READ_PAUSE);
    }
    pg_session_output_done(c.s, n);
    nRound++;
  }
  ASSERT(nRound > 30);
  ASSERT_EQ(nRow, 2000 + 200);
  ASSERT(pg_session_output(c.s, &n) == NULL);
  ASSERT_EQ(pg_session_flags(c.s), 0);              /* reading resumes */

  /* A row larger than the mark goes out alone. */
  strbuf_init(&big);
  strbuf_repeat(&big, 'v', 10000);
  pgc_parse(&c.msg, "", "ECHO $1", 0, NULL);
  pgc_bind(&c.msg, "", "", 0, NULL, 1, (const char *[]){big.z}, NULL, 0, NULL);
  pgc_execute(&c.msg, "", 0);
  pgc_empty(&c.msg, 'S');
  pgc_send(&c);
  p = pg_session_output(c.s, &n);
  ASSERT_EQ(n, 10);                                 /* ParseComplete, BindComplete */
  pg_session_output_done(c.s, n);
  p = pg_session_output(c.s, &n);
  ASSERT_EQ(((const char *)p)[0], 'D');
  ASSERT_EQ(n, 10011 + 14);                         /* the row, CommandComplete */
  pg_session_output_done(c.s, n);
  c.bHold = 0;
  pgc_drain(&c);
  ASSERT_STR_EQ(pgc_read(&c), "Z(I)");
  strbuf_free(&big);
  pgc_close_all(&c);
  return 0;
}

TEST_IMPL(session_pipeline_async) {
  const char *zWant =
      "1 2 D(1) C(SELECT 1) Z(I) 1 2 E(42601) Z(I) T(?column?:23) D(3) C(SELECT 1) "
      "C(BEGIN) Z(T) 1 2 C(ROLLBACK) Z(I)";
  for (int bAsync = 0; bAsync <= 1; bAsync++) {
    for (size_t nChunk = 0; nChunk <= 7; nChunk += 7) {
      pgc c;
      int nJob = 0;
      login(&c, NULL);
      c.bAsync = bAsync;
      c.nChunk = nChunk;
      /* Everything at once, as a pipelining client sends it. */
      ext_run(&c, "SELECT 1", 0);
      pgc_empty(&c.msg, 'S');
      ext_run(&c, "LATEERROR", 0);
      pgc_empty(&c.msg, 'S');
      pgc_query(&c.msg, "SELECT 3; BEGIN");
      ext_run(&c, "ROLLBACK", 0);
      pgc_empty(&c.msg, 'S');
      pgc_send(&c);
      if (bAsync) {
        /* One job at a time; each answer lets the next message through. */
        while (pg_session_flags(c.s) & PG_SESSION_JOB) {
          ASSERT(c.pHeld != NULL);
          ASSERT_EQ(pgc_finish(&c), 0);
          nJob++;
        }
        ASSERT_EQ(nJob, 8);
      }
      ASSERT_STR_EQ(pgc_read(&c), zWant);
      ASSERT_STR_EQ(strbuf_str(&c.log),
                    "P(SELECT 1) X(SELECT 1) P(LATEERROR) X(LATEERROR) X(SELECT 3) X(BEGIN) "
                    "P(ROLLBACK) X(ROLLBACK)");
      pgc_close_all(&c);
    }
  }
  return 0;
}
