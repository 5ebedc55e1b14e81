/*
** tests/test-pgwire.c — server/pgwire.h on its own: framing over every way
** a stream can be cut, each decoder's fields and its every error path,
** the exact bytes of backend messages, and the binary value forms.
*/
#include "../server/pgwire.h"
#include "pgclient.h"
#include "test.h"

/* ---- framing ------------------------------------------------------------------ */

typedef struct frame_ref frame_ref;
struct frame_ref {
  char cType;
  size_t iBody;            /* offset of the body in the stream */
  uint32_t nBody;
};

/* Frames the whole stream a[0..n) into aRef; returns the count. */
static int frame_all(const unsigned char *a, size_t n, int bStartup, frame_ref *aRef, int nMax) {
  size_t i = 0;
  int k = 0;
  char zErr[128];
  while (i < n) {
    pgwire_frame f;
    ASSERT_EQ(pgwire_frame_next(a + i, n - i, bStartup && k < 2, 1 << 20, &f, zErr, sizeof(zErr)), PGWIRE_OK);
    ASSERT(k < nMax);
    aRef[k].cType = f.cType;
    aRef[k].iBody = (size_t)(f.aBody - a);
    aRef[k].nBody = f.nBody;
    k++;
    i += f.nWire;
  }
  return k;
}

/* Delivers the stream in pieces of the sizes that next_size() gives and
** checks that the frames found as bytes arrive are the reference ones. */
static void frame_chunked(const unsigned char *a, size_t n, int bStartup, const frame_ref *aRef,
                          int nRef, size_t (*next_size)(size_t *), size_t iSeed) {
  strbuf buf;
  size_t iFed = 0, iUsed = 0;
  int k = 0;
  char zErr[128];
  strbuf_init(&buf);
  while (iFed < n) {
    size_t nPiece = next_size(&iSeed);
    if (nPiece > n - iFed) nPiece = n - iFed;
    strbuf_append(&buf, (const char *)a + iFed, nPiece);
    iFed += nPiece;
    for (;;) {
      pgwire_frame f;
      int rc = pgwire_frame_next(buf.z + iUsed, buf.n - iUsed, bStartup && k < 2, 1 << 20, &f, zErr,
                                 sizeof(zErr));
      if (rc == PGWIRE_MORE) break;
      ASSERT_EQ(rc, PGWIRE_OK);
      ASSERT(k < nRef);
      ASSERT_EQ(f.cType, aRef[k].cType);
      ASSERT_EQ(f.nBody, aRef[k].nBody);
      ASSERT(memcmp(f.aBody, a + aRef[k].iBody, f.nBody) == 0);
      ASSERT_EQ((size_t)(f.aBody - (const unsigned char *)buf.z), aRef[k].iBody);
      iUsed += f.nWire;
      k++;
    }
  }
  ASSERT_EQ(k, nRef);
  ASSERT_EQ(iUsed, buf.n);
  strbuf_free(&buf);
}

static size_t size_fixed(size_t *p) { return *p; }

static size_t size_random(size_t *p) {
  *p = *p * 6364136223846793005ULL + 1442695040888963407ULL;
  return 1 + (*p >> 33) % 23;
}

TEST_IMPL(pgwire_frame_chunks) {
  const char *azKV[] = {"user", "u", "database", "d", NULL};
  const char *azValue[] = {"1", "two"};
  char zBig[3000];
  strbuf b;
  frame_ref aRef[32];
  int nRef;

  memset(zBig, 'x', sizeof(zBig));
  strbuf_init(&b);
  pgc_request(&b, PGWIRE_SSL_REQUEST);
  pgc_startup(&b, PGWIRE_PROTOCOL_3_0, azKV);
  pgc_query(&b, "SELECT 1; SELECT 2");
  pgc_parse(&b, "s", "ECHO $1 $2", 0, NULL);
  pgc_bind(&b, "", "s", 0, NULL, 2, azValue, NULL, 0, NULL);
  pgc_describe(&b, 'P', "");
  pgc_execute(&b, "", 0);
  pgc_empty(&b, 'S');
  pgc_copy_data(&b, zBig, sizeof(zBig));
  pgc_empty(&b, 'c');
  pgc_empty(&b, 'X');
  ASSERT(!strbuf_error(&b));

  nRef = frame_all((const unsigned char *)b.z, b.n, 1, aRef, 32);
  ASSERT_EQ(nRef, 11);
  ASSERT_EQ(aRef[0].cType, 0);
  ASSERT_EQ(aRef[0].nBody, 4);
  ASSERT_EQ(aRef[1].cType, 0);
  ASSERT_EQ(aRef[2].cType, 'Q');
  ASSERT_EQ(aRef[8].cType, 'd');
  ASSERT_EQ(aRef[8].nBody, sizeof(zBig));
  ASSERT_EQ(aRef[10].cType, 'X');
  ASSERT_EQ(aRef[10].nBody, 0);

  for (size_t nPiece = 1; nPiece <= 9; nPiece++) {
    frame_chunked((const unsigned char *)b.z, b.n, 1, aRef, nRef, size_fixed, nPiece);
  }
  for (size_t iSeed = 1; iSeed <= 50; iSeed++) {
    frame_chunked((const unsigned char *)b.z, b.n, 1, aRef, nRef, size_random, iSeed);
  }
  /* Every prefix is either "more" or whole messages: never an error. */
  for (size_t n = 0; n < b.n; n++) {
    size_t i = 0;
    int k = 0;
    char zErr[128];
    for (;;) {
      pgwire_frame f;
      int rc = pgwire_frame_next(b.z + i, n - i, k < 2, 1 << 20, &f, zErr, sizeof(zErr));
      if (rc == PGWIRE_MORE) break;
      ASSERT_EQ(rc, PGWIRE_OK);
      i += f.nWire;
      k++;
    }
  }
  strbuf_free(&b);
  return 0;
}

/* Frames a[0..n) once and returns the code, with the message in zErr. */
static int frame_once(const char *a, size_t n, int bStartup, uint32_t nMax, char *zErr) {
  pgwire_frame f;
  return pgwire_frame_next(a, n, bStartup, nMax, &f, zErr, 128);
}

TEST_IMPL(pgwire_frame_errors) {
  char zErr[128];
  /* An unknown type is refused on its first byte, before any length. */
  ASSERT_EQ(frame_once("z", 1, 0, 1000, zErr), PGWIRE_EPROTO);
  ASSERT_STR_EQ(zErr, "invalid frontend message type 122");
  ASSERT_EQ(frame_once("R\0\0\0\4", 5, 0, 1000, zErr), PGWIRE_EPROTO);   /* a backend type */
  ASSERT_EQ(frame_once("", 0, 0, 1000, zErr), PGWIRE_MORE);
  ASSERT_EQ(frame_once("Q\0\0", 3, 0, 1000, zErr), PGWIRE_MORE);
  /* Lengths below 4 (the length word itself) are malformed. */
  ASSERT_EQ(frame_once("Q\0\0\0\3", 5, 0, 1000, zErr), PGWIRE_EPROTO);
  ASSERT_STR_EQ(zErr, "invalid message length 3");
  ASSERT_EQ(frame_once("Q\x80\0\0\0", 5, 0, 1000, zErr), PGWIRE_EPROTO);
  /* Over the limit: refused as soon as the length word is in, body or not. */
  ASSERT_EQ(frame_once("Q\0\0\x03\xe9", 5, 0, 1000, zErr), PGWIRE_ETOOBIG);
  ASSERT_STR_EQ(zErr, "message of 1001 bytes is longer than the limit of 1000 bytes");
  ASSERT_EQ(frame_once("Q\0\0\x03\xe8", 5, 0, 1000, zErr), PGWIRE_MORE);
  /* Small types get PostgreSQL's small limit whatever the large one is. */
  ASSERT_EQ(frame_once("S\0\0\x27\x11", 5, 0, 1u << 30, zErr), PGWIRE_ETOOBIG);
  ASSERT_EQ(frame_once("E\0\0\x27\x10", 5, 0, 1u << 30, zErr), PGWIRE_MORE);
  ASSERT_EQ(frame_once("d\0\x10\0\0", 5, 0, 1u << 30, zErr), PGWIRE_MORE);
  /* Startup packets: at least 8 bytes, at most 10000. */
  ASSERT_EQ(frame_once("\0\0\0\7", 4, 1, 1u << 30, zErr), PGWIRE_EPROTO);
  ASSERT_STR_EQ(zErr, "invalid startup packet length 7");
  ASSERT_EQ(frame_once("\0\0\x27\x11", 4, 1, 1u << 30, zErr), PGWIRE_ETOOBIG);
  ASSERT_EQ(frame_once("\0\0\0\x08\x04\xd2", 6, 1, 1u << 30, zErr), PGWIRE_MORE);
  /* A typed message read as a startup packet is far too long. */
  ASSERT_EQ(frame_once("Q\0\0\0\x0dSELECT 1", 14, 1, 1u << 30, zErr), PGWIRE_ETOOBIG);
  return 0;
}

/* ---- decoders ------------------------------------------------------------------ */

/* Takes the body of the one message in b. */
static const unsigned char *body_of(const strbuf *b, int bStartup, uint32_t *pn) {
  pgwire_frame f;
  char zErr[128];
  ASSERT_EQ(pgwire_frame_next(b->z, b->n, bStartup, 1 << 20, &f, zErr, sizeof(zErr)), PGWIRE_OK);
  ASSERT_EQ(f.nWire, b->n);
  *pn = f.nBody;
  return f.aBody;
}

typedef int (*decode_fn)(const unsigned char *a, uint32_t n, char *zErr, size_t nErr);

/* Every truncation of a valid body fails, and so does one byte more. */
static void decode_truncations(const unsigned char *a, uint32_t n, decode_fn xDecode) {
  char zErr[128];
  unsigned char *aCopy = malloc((size_t)n + 1);
  ASSERT(aCopy != NULL);
  memcpy(aCopy, a, n);
  ASSERT_EQ(xDecode(aCopy, n, zErr, sizeof(zErr)), PGWIRE_OK);
  for (uint32_t i = 0; i < n; i++) {
    /* a fresh allocation per length, so ASan sees a read past it */
    unsigned char *aCut = malloc(i > 0 ? i : 1);
    ASSERT(aCut != NULL);
    memcpy(aCut, a, i);
    if (xDecode(i ? aCut : NULL, i, zErr, sizeof(zErr)) != PGWIRE_EPROTO) {
      FAIL("a body cut to %u of %u bytes decoded", i, n);
    }
    ASSERT(zErr[0] != 0);
    free(aCut);
  }
  aCopy[n] = 'x';
  ASSERT_EQ(xDecode(aCopy, n + 1, zErr, sizeof(zErr)), PGWIRE_EPROTO);
  free(aCopy);
}

static int dec_startup(const unsigned char *a, uint32_t n, char *zErr, size_t nErr) {
  pgwire_startup p;
  return pgwire_startup_decode(a, n, &p, zErr, nErr);
}
static int dec_query(const unsigned char *a, uint32_t n, char *zErr, size_t nErr) {
  const char *z;
  return pgwire_query_decode(a, n, &z, zErr, nErr);
}
static int dec_parse(const unsigned char *a, uint32_t n, char *zErr, size_t nErr) {
  pgwire_parse p;
  return pgwire_parse_decode(a, n, &p, zErr, nErr);
}
static int dec_bind(const unsigned char *a, uint32_t n, char *zErr, size_t nErr) {
  pgwire_bind p;
  return pgwire_bind_decode(a, n, &p, zErr, nErr);
}
static int dec_target(const unsigned char *a, uint32_t n, char *zErr, size_t nErr) {
  pgwire_target p;
  return pgwire_target_decode(a, n, &p, zErr, nErr);
}
static int dec_execute(const unsigned char *a, uint32_t n, char *zErr, size_t nErr) {
  const char *z;
  int32_t nMax;
  return pgwire_execute_decode(a, n, &z, &nMax, zErr, nErr);
}
static int dec_sasl(const unsigned char *a, uint32_t n, char *zErr, size_t nErr) {
  const char *z;
  const unsigned char *p;
  int32_t nData;
  return pgwire_sasl_initial_decode(a, n, &z, &p, &nData, zErr, nErr);
}

TEST_IMPL(pgwire_decode_errors) {
  const char *azKV[] = {"user", "u", NULL};
  const char *azValue[] = {"1", NULL, ""};
  const int anValue[] = {1, -1, 0};
  const int16_t aFormat[] = {0, 1, 0};
  const uint32_t aType[] = {23, 0};
  const unsigned char *a;
  uint32_t n;
  char zErr[128];
  strbuf b;
  strbuf_init(&b);

#define DECODE_CASE(build, bStartup, fn)                                     \
  do {                                                                       \
    strbuf_reset(&b);                                                        \
    build;                                                                   \
    a = body_of(&b, bStartup, &n);                                           \
    decode_truncations(a, n, fn);                                            \
  } while (0)
  DECODE_CASE(pgc_startup(&b, PGWIRE_PROTOCOL_3_0, azKV), 1, dec_startup);
  DECODE_CASE(pgc_cancel(&b, 7, 9), 1, dec_startup);
  DECODE_CASE(pgc_query(&b, "SELECT 1"), 0, dec_query);
  DECODE_CASE(pgc_parse(&b, "s", "ECHO $1 $2", 2, aType), 0, dec_parse);
  DECODE_CASE(pgc_bind(&b, "p", "s", 3, aFormat, 3, azValue, anValue, 3, aFormat), 0, dec_bind);
  DECODE_CASE(pgc_describe(&b, 'S', "s"), 0, dec_target);
  DECODE_CASE(pgc_execute(&b, "p", 10), 0, dec_execute);
  DECODE_CASE(pgc_sasl_initial(&b, "SCRAM-SHA-256", "n,,n=,r=abc", 11), 0, dec_sasl);
#undef DECODE_CASE

  /* Specific errors, each with its message. */
  ASSERT_EQ(pgwire_empty_decode((const unsigned char *)"x", 1, zErr, sizeof(zErr)), PGWIRE_EPROTO);
  ASSERT_STR_EQ(zErr, "invalid message format");
  ASSERT_EQ(pgwire_target_decode((const unsigned char *)"Xs", 3, &(pgwire_target){0}, zErr, sizeof(zErr)),
            PGWIRE_EPROTO);
  ASSERT_STR_EQ(zErr, "invalid target type 88: expected 'S' or 'P'");
  ASSERT_EQ(pgwire_query_decode((const unsigned char *)"abc", 3, &(const char *){0}, zErr, sizeof(zErr)),
            PGWIRE_EPROTO);
  ASSERT_STR_EQ(zErr, "invalid string in message");
  /* Bind: two parameter formats for three parameters. */
  strbuf_reset(&b);
  pgc_bind(&b, "", "", 2, aFormat, 3, azValue, anValue, 0, NULL);
  a = body_of(&b, 0, &n);
  ASSERT_EQ(dec_bind(a, n, zErr, sizeof(zErr)), PGWIRE_EPROTO);
  ASSERT_STR_EQ(zErr, "bind message has 2 parameter formats but 3 parameters");
  /* Bind: a length of -2, and one longer than the message. */
  {
    static const unsigned char aNeg[] = {0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 0, 0};
    static const unsigned char aLong[] = {0, 0, 0, 0, 0, 1, 0x7f, 0xff, 0xff, 0xff, 0, 0};
    ASSERT_EQ(dec_bind(aNeg, sizeof(aNeg), zErr, sizeof(zErr)), PGWIRE_EPROTO);
    ASSERT_STR_EQ(zErr, "invalid length -2 of bind parameter 1");
    ASSERT_EQ(dec_bind(aLong, sizeof(aLong), zErr, sizeof(zErr)), PGWIRE_EPROTO);
    ASSERT_STR_EQ(zErr, "insufficient data left in message");
  }
  /* Parse: 65535 parameter types announced, none there. */
  ASSERT_EQ(dec_parse((const unsigned char *)"\0x\0\xff\xff", 5, zErr, sizeof(zErr)), PGWIRE_EPROTO);
  /* SASLInitialResponse: a length of -2. */
  ASSERT_EQ(dec_sasl((const unsigned char *)"M\0\xff\xff\xff\xfe", 6, zErr, sizeof(zErr)), PGWIRE_EPROTO);
  ASSERT_STR_EQ(zErr, "invalid SASL response length -2");
  /* Startup: a name without a value; too many parameters. */
  ASSERT_EQ(dec_startup((const unsigned char *)"\0\3\0\0user\0", 9, zErr, sizeof(zErr)), PGWIRE_EPROTO);
  strbuf_reset(&b);
  pgwire_put_int32(&b, (int32_t)PGWIRE_PROTOCOL_3_0);
  for (int i = 0; i <= PGWIRE_STARTUP_PARAMS_MAX; i++) strbuf_append(&b, "k\0v\0", 4);
  strbuf_append(&b, "", 1);
  ASSERT_EQ(dec_startup((const unsigned char *)b.z, (uint32_t)b.n, zErr, sizeof(zErr)), PGWIRE_EPROTO);
  ASSERT_STR_EQ(zErr, "startup packet has more than 64 parameters");
  /* SSLRequest and CancelRequest must be exactly their size. */
  ASSERT_EQ(dec_startup((const unsigned char *)"\x04\xd2\x16\x2f\0", 5, zErr, sizeof(zErr)), PGWIRE_EPROTO);
  strbuf_free(&b);
  return 0;
}

TEST_IMPL(pgwire_decode_fields) {
  const char *azKV[] = {"user", "alice", "database", "db", "_pq_.x", "1", NULL};
  const char *azValue[] = {"42", NULL, "", "\x01\x02"};
  const int anValue[] = {2, -1, 0, 2};
  const int16_t aParamFormat[] = {0, 0, 0, 1};
  const int16_t aResultFormat[] = {1};
  const uint32_t aType[] = {23, 0, 25};
  const unsigned char *a, *pValue;
  uint32_t n;
  int32_t nValue;
  size_t iOff = 0;
  char zErr[128];
  strbuf b;
  pgwire_startup st;
  pgwire_parse pa;
  pgwire_bind bi;

  strbuf_init(&b);
  pgc_startup(&b, PGWIRE_PROTOCOL_3_0 | 2, azKV);
  a = body_of(&b, 1, &n);
  ASSERT_EQ(pgwire_startup_decode(a, n, &st, zErr, sizeof(zErr)), PGWIRE_OK);
  ASSERT_EQ(PGWIRE_VERSION_MAJOR(st.iCode), 3);
  ASSERT_EQ(PGWIRE_VERSION_MINOR(st.iCode), 2);
  ASSERT_EQ(st.nParam, 3);
  ASSERT_STR_EQ(st.azName[1], "database");
  ASSERT_STR_EQ(st.azValue[1], "db");
  ASSERT_STR_EQ(st.azName[2], "_pq_.x");

  strbuf_reset(&b);
  pgc_cancel(&b, 1234, -5);
  a = body_of(&b, 1, &n);
  ASSERT_EQ(pgwire_startup_decode(a, n, &st, zErr, sizeof(zErr)), PGWIRE_OK);
  ASSERT_EQ(st.iCode, PGWIRE_CANCEL_REQUEST);
  ASSERT_EQ(st.iPid, 1234);
  ASSERT_EQ(st.iSecret, -5);

  strbuf_reset(&b);
  pgc_parse(&b, "st", "SELECT $1", 3, aType);
  a = body_of(&b, 0, &n);
  ASSERT_EQ(pgwire_parse_decode(a, n, &pa, zErr, sizeof(zErr)), PGWIRE_OK);
  ASSERT_STR_EQ(pa.zName, "st");
  ASSERT_STR_EQ(pa.zSql, "SELECT $1");
  ASSERT_EQ(pa.nParamType, 3);
  ASSERT_EQ(pgwire_get_u32(pa.aParamType + 8), 25);

  strbuf_reset(&b);
  pgc_bind(&b, "po", "st", 4, aParamFormat, 4, azValue, anValue, 1, aResultFormat);
  a = body_of(&b, 0, &n);
  ASSERT_EQ(pgwire_bind_decode(a, n, &bi, zErr, sizeof(zErr)), PGWIRE_OK);
  ASSERT_STR_EQ(bi.zPortal, "po");
  ASSERT_STR_EQ(bi.zStmt, "st");
  ASSERT_EQ(bi.nParam, 4);
  pgwire_bind_value_next(&bi, &iOff, &pValue, &nValue);
  ASSERT_EQ(nValue, 2);
  ASSERT(memcmp(pValue, "42", 2) == 0);
  pgwire_bind_value_next(&bi, &iOff, &pValue, &nValue);
  ASSERT_EQ(nValue, -1);
  pgwire_bind_value_next(&bi, &iOff, &pValue, &nValue);
  ASSERT_EQ(nValue, 0);
  pgwire_bind_value_next(&bi, &iOff, &pValue, &nValue);
  ASSERT_EQ(nValue, 2);
  ASSERT_EQ(pValue[1], 2);
  ASSERT_EQ(pgwire_format_of(bi.aParamFormat, bi.nParamFormat, 3), 1);
  ASSERT_EQ(pgwire_format_of(bi.aParamFormat, bi.nParamFormat, 0), 0);
  /* one result format applies to every column; none means text */
  ASSERT_EQ(pgwire_format_of(bi.aResultFormat, bi.nResultFormat, 5), 1);
  ASSERT_EQ(pgwire_format_of(NULL, 0, 5), 0);
  strbuf_free(&b);
  return 0;
}

/* ---- encoders -------------------------------------------------------------------- */

static void expect_bytes(const strbuf *b, const char *aWant, size_t nWant) {
  if (b->n != nWant || memcmp(b->z, aWant, nWant) != 0) {
    fprintf(stderr, "got %zu bytes:", b->n);
    for (size_t i = 0; i < b->n; i++) fprintf(stderr, " %02x", (unsigned char)b->z[i]);
    FAIL("want %zu bytes", nWant);
  }
}

TEST_IMPL(pgwire_encode) {
  static const pgwire_column aCol[] = {{"a", 0, 0, 23, 4, -1}, {"bb", 16384, 2, 25, -1, -1}};
  static const int16_t aFormat[] = {1, 0};
  static const uint32_t aType[] = {23, 25};
  static const char *const azOpt[] = {"_pq_.x"};
  pgwire_error e = {NULL, "42601", "syntax error", "d", NULL, 12};
  strbuf b;
  pgc c;

  memset(&c, 0, sizeof(c));
  strbuf_init(&b);
  pgwire_put_ready(&b, 'I');
  expect_bytes(&b, "Z\0\0\0\5I", 6);
  strbuf_reset(&b);
  pgwire_put_command_complete(&b, "SELECT 1");
  expect_bytes(&b, "C\0\0\0\015SELECT 1\0", 14);
  strbuf_reset(&b);
  pgwire_put_error(&b, 'E', &e);
  expect_bytes(&b, "E\0\0\0\057SERROR\0VERROR\0C42601\0Msyntax error\0Dd\0P12\0\0", 48);
  strbuf_reset(&b);
  pgwire_put_auth(&b, PGWIRE_AUTH_OK, NULL, 0);
  expect_bytes(&b, "R\0\0\0\010\0\0\0\0", 9);
  strbuf_reset(&b);
  pgwire_put_backend_key(&b, 7, -1);
  expect_bytes(&b, "K\0\0\0\014\0\0\0\7\xff\xff\xff\xff", 13);
  strbuf_reset(&b);
  pgwire_put_copy_in_response(&b, 0, 2);
  expect_bytes(&b, "G\0\0\0\013\0\0\2\0\0\0\0", 12);

  /* The rest through the client's reading of them. */
  strbuf_reset(&b);
  pgwire_put_row_description(&b, 2, aCol, aFormat);
  pgwire_put_row_description(&b, 2, aCol, NULL);
  pgwire_put_parameter_description(&b, 2, aType);
  pgwire_put_parameter_status(&b, "TimeZone", "UTC");
  pgwire_put_negotiate_version(&b, 0, 1, azOpt);
  pgwire_put_auth_sasl(&b, (const char *const[]){"SCRAM-SHA-256"}, 1);
  pgwire_put_empty(&b, '1');
  pgwire_put_empty(&b, 's');
  e.zSeverity = "NOTICE";
  pgwire_put_error(&b, 'N', &e);
  ASSERT(!strbuf_error(&b));
  ASSERT_STR_EQ(pgc_summarize(&c, (const unsigned char *)b.z, b.n),
                "T(a:23:b,bb:25) T(a:23,bb:25) t(23,25) S(TimeZone=UTC) v(0:_pq_.x) "
                "R(10:SCRAM-SHA-256) 1 s N(42601)");
  ASSERT_STR_EQ(c.zErrDetail, "d");
  ASSERT_EQ(c.iErrPos, 12);
  strbuf_free(&b);
  return 0;
}

/* ---- binary values ---------------------------------------------------------------- */

/* from_text(z) must give the bytes zHex, and to_text of those must give z
** back (zBack when the text form is not the canonical one). */
static void binary_case(uint32_t iOid, const char *z, const char *zHex, const char *zBack) {
  strbuf b, t;
  char zGot[128] = "";
  strbuf_init(&b);
  strbuf_init(&t);
  if (pgwire_binary_from_text(iOid, z, strlen(z), &b) != 0) FAIL("oid %u: \"%s\" refused", iOid, z);
  for (size_t i = 0; i < b.n && 2 * i + 2 < sizeof(zGot); i++) {
    snprintf(zGot + 2 * i, 3, "%02x", (unsigned char)b.z[i]);
  }
  if (strcmp(zGot, zHex) != 0) FAIL("oid %u: \"%s\" gave %s, want %s", iOid, z, zGot, zHex);
  ASSERT_EQ(pgwire_binary_to_text(iOid, (const unsigned char *)b.z, b.n, &t), 0);
  ASSERT_STR_EQ(strbuf_str(&t), zBack != NULL ? zBack : z);
  strbuf_free(&b);
  strbuf_free(&t);
}

static int binary_from(uint32_t iOid, const char *z) {
  strbuf b;
  int rc;
  strbuf_init(&b);
  rc = pgwire_binary_from_text(iOid, z, strlen(z), &b);
  strbuf_free(&b);
  return rc;
}

static int binary_to(uint32_t iOid, const char *a, size_t n) {
  strbuf b;
  int rc;
  strbuf_init(&b);
  rc = pgwire_binary_to_text(iOid, (const unsigned char *)a, n, &b);
  strbuf_free(&b);
  return rc;
}

TEST_IMPL(pgwire_binary) {
  binary_case(PGWIRE_OID_INT2, "-32768", "8000", NULL);
  binary_case(PGWIRE_OID_INT2, "32767", "7fff", NULL);
  binary_case(PGWIRE_OID_INT4, "-5", "fffffffb", NULL);
  binary_case(PGWIRE_OID_INT4, "2147483647", "7fffffff", NULL);
  binary_case(PGWIRE_OID_INT8, "10000000000", "00000002540be400", NULL);
  binary_case(PGWIRE_OID_INT8, "-9223372036854775808", "8000000000000000", NULL);
  binary_case(PGWIRE_OID_OID, "4294967295", "ffffffff", NULL);
  binary_case(PGWIRE_OID_FLOAT8, "0.5", "3fe0000000000000", NULL);
  binary_case(PGWIRE_OID_FLOAT8, "1.5", "3ff8000000000000", NULL);
  binary_case(PGWIRE_OID_FLOAT8, "Infinity", "7ff0000000000000", NULL);
  binary_case(PGWIRE_OID_FLOAT8, "-Infinity", "fff0000000000000", NULL);
  binary_case(PGWIRE_OID_FLOAT8, "0.1", "3fb999999999999a", "0.10000000000000001");
  binary_case(PGWIRE_OID_FLOAT4, "2.5", "40200000", NULL);
  binary_case(PGWIRE_OID_BOOL, "t", "01", NULL);
  binary_case(PGWIRE_OID_BOOL, "f", "00", NULL);
  binary_case(PGWIRE_OID_BOOL, "true", "01", "t");
  binary_case(PGWIRE_OID_DATE, "2000-01-01", "00000000", NULL);
  binary_case(PGWIRE_OID_DATE, "1999-12-31", "ffffffff", NULL);
  binary_case(PGWIRE_OID_DATE, "1970-01-01", "ffffd533", NULL);      /* -10957 */
  binary_case(PGWIRE_OID_DATE, "2024-02-29", "00002279", NULL);      /* 8825 */
  binary_case(PGWIRE_OID_DATE, "9999-12-31", "002c95d3", NULL);      /* 2921939 */
  binary_case(PGWIRE_OID_DATE, "0001-01-01", "fff4dbf9", NULL);      /* -730119 */
  binary_case(PGWIRE_OID_DATE, "infinity", "7fffffff", NULL);
  binary_case(PGWIRE_OID_DATE, "-infinity", "80000000", NULL);
  binary_case(PGWIRE_OID_TIMESTAMP, "2000-01-01 00:00:00", "0000000000000000", NULL);
  binary_case(PGWIRE_OID_TIMESTAMP, "1999-12-31 23:59:59.999999", "ffffffffffffffff", NULL);
  binary_case(PGWIRE_OID_TIMESTAMP, "2024-02-29 12:34:56.5", "0002b583416e1d20", NULL);
  binary_case(PGWIRE_OID_TIMESTAMP, "1970-01-01 00:00:00", "fffca2fec4c82000", NULL);
  /* a timestamptz's text carries its offset; its binary form is UTC */
  binary_case(PGWIRE_OID_TIMESTAMPTZ, "2024-02-29 14:34:56.5+02", "0002b583416e1d20",
              "2024-02-29 12:34:56.5+00");
  binary_case(PGWIRE_OID_TIMESTAMPTZ, "1970-01-01 00:00:00+00", "fffca2fec4c82000", NULL);
  /* numeric: ndigits, weight, sign, dscale, base-10000 digits */
  binary_case(PGWIRE_OID_NUMERIC, "123.4500", "000200000000000400" "7b1194", NULL);
  binary_case(PGWIRE_OID_NUMERIC, "0.0001", "0001ffff000000040001", NULL);
  binary_case(PGWIRE_OID_NUMERIC, "10000", "00010001000000000001", NULL);
  binary_case(PGWIRE_OID_NUMERIC, "-1.5", "000200004000000100011388", NULL);
  binary_case(PGWIRE_OID_NUMERIC, "-12345678.9", "000300014000000104d2162e2328", NULL);
  binary_case(PGWIRE_OID_NUMERIC, "0", "0000000000000000", NULL);
  binary_case(PGWIRE_OID_NUMERIC, "0.00", "0000000000000002", NULL);
  binary_case(PGWIRE_OID_NUMERIC, "-0.00", "0000000000000002", "0.00");
  binary_case(PGWIRE_OID_NUMERIC, "007.10", "0002000000000002000703e8", "7.10");
  binary_case(PGWIRE_OID_NUMERIC, ".5", "0001ffff000000011388", "0.5");
  binary_case(PGWIRE_OID_NUMERIC, "NaN", "00000000c0000000", NULL);
  binary_case(PGWIRE_OID_NUMERIC, "-Infinity", "00000000f0000000", NULL);
  binary_case(PGWIRE_OID_TEXT, "héllo", "68c3a96c6c6f", NULL);
  binary_case(PGWIRE_OID_VARCHAR, "", "", NULL);

  /* NaN reads back as NaN (its bits may differ in sign). */
  ASSERT_EQ(binary_from(PGWIRE_OID_FLOAT8, "NaN"), 0);
  ASSERT_EQ(binary_to(PGWIRE_OID_FLOAT8, "\x7f\xf8\0\0\0\0\0\0", 8), 0);

  /* Texts that are not values of the type. */
  ASSERT_EQ(binary_from(PGWIRE_OID_INT2, "32768"), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_INT4, "2147483648"), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_INT4, "12x"), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_INT4, ""), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_INT8, "99999999999999999999"), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_FLOAT8, "1.5e"), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_BOOL, "yes"), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_DATE, "2023-02-29"), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_DATE, "2023-13-01"), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_DATE, "2023-01-01x"), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_DATE, "0000-01-01"), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_NUMERIC, "1.5e3"), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_NUMERIC, "-"), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_NUMERIC, "."), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_NUMERIC, ""), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_TIMESTAMP, "2023-02-29 00:00:00"), -1);
  ASSERT_EQ(binary_from(PGWIRE_OID_TIMESTAMPTZ, "yesterday at noon"), -1);
  ASSERT_EQ(binary_from(1186, "1 day"), -1);                  /* interval: none here */

  /* Bytes that are not values of the type. */
  ASSERT_EQ(binary_to(PGWIRE_OID_INT4, "\0\0\1", 3), -1);
  ASSERT_EQ(binary_to(PGWIRE_OID_INT8, "\0\0\0\1", 4), -1);
  ASSERT_EQ(binary_to(PGWIRE_OID_BOOL, "\2", 1), -1);
  ASSERT_EQ(binary_to(PGWIRE_OID_TEXT, "a\0b", 3), -1);
  ASSERT_EQ(binary_to(PGWIRE_OID_DATE, "\x80\0\0\1", 4), -1);   /* before year 1 */
  ASSERT_EQ(binary_to(PGWIRE_OID_NUMERIC, "\0\0", 2), -1);
  ASSERT_EQ(binary_to(PGWIRE_OID_NUMERIC, "\0\1\0\0\0\0\0\0", 8), -1);         /* a digit short */
  ASSERT_EQ(binary_to(PGWIRE_OID_NUMERIC, "\0\1\0\0\0\0\0\0\x27\x10", 10), -1); /* 10000 */
  ASSERT_EQ(binary_to(PGWIRE_OID_NUMERIC, "\0\0\0\0\x12\x34\0\0", 8), -1);     /* sign */
  ASSERT_EQ(binary_to(PGWIRE_OID_TIMESTAMP, "\0\0\0\0\0\0\0", 7), -1);
  ASSERT_EQ(binary_to(1186, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16), -1);
  ASSERT(pgwire_binary_supported(PGWIRE_OID_DATE));
  ASSERT(pgwire_binary_supported(PGWIRE_OID_NUMERIC));
  ASSERT(pgwire_binary_supported(PGWIRE_OID_TIMESTAMP));
  ASSERT(!pgwire_binary_supported(1186));
  return 0;
}
