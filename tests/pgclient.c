/*
** tests/pgclient.c — frontend messages as a client writes them, and the
** backend's messages read back into the summary of pgclient.h. Written
** from the protocol's documentation, not from server/pgwire-decode.c, so
** the server's reading is checked against an independent writing; the
** message framing helpers of pgwire.h (type, length word) are shared.
*/
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include "../server/pgwire.h"
#include "pgclient.h"
#include "test.h"

/* ---- frontend messages --------------------------------------------------- */

void pgc_startup(strbuf *b, uint32_t iVersion, const char *const *azKV) {
  size_t iStart = b->n;
  pgwire_put_int32(b, 0);
  pgwire_put_int32(b, (int32_t)iVersion);
  for (int i = 0; azKV != NULL && azKV[i] != NULL; i++) pgwire_put_cstr(b, azKV[i]);
  pgwire_put_cstr(b, "");
  ASSERT(!strbuf_error(b));
  size_t n = b->n - iStart;
  b->z[iStart] = (char)(n >> 24);
  b->z[iStart + 1] = (char)(n >> 16);
  b->z[iStart + 2] = (char)(n >> 8);
  b->z[iStart + 3] = (char)n;
}

void pgc_request(strbuf *b, uint32_t iCode) {
  pgwire_put_int32(b, 8);
  pgwire_put_int32(b, (int32_t)iCode);
}

void pgc_cancel(strbuf *b, int32_t iPid, int32_t iSecret) {
  pgwire_put_int32(b, 16);
  pgwire_put_int32(b, (int32_t)PGWIRE_CANCEL_REQUEST);
  pgwire_put_int32(b, iPid);
  pgwire_put_int32(b, iSecret);
}

void pgc_query(strbuf *b, const char *zSql) {
  size_t i = pgwire_msg_begin(b, 'Q');
  pgwire_put_cstr(b, zSql);
  pgwire_msg_end(b, i);
}

void pgc_parse(strbuf *b, const char *zName, const char *zSql, int nType, const uint32_t *aType) {
  size_t i = pgwire_msg_begin(b, 'P');
  pgwire_put_cstr(b, zName);
  pgwire_put_cstr(b, zSql);
  pgwire_put_int16(b, nType);
  for (int j = 0; j < nType; j++) pgwire_put_int32(b, (int32_t)aType[j]);
  pgwire_msg_end(b, i);
}

void pgc_bind(strbuf *b, const char *zPortal, const char *zStmt, int nParamFormat,
              const int16_t *aParamFormat, int nParam, const char *const *azValue,
              const int *anValue, int nResultFormat, const int16_t *aResultFormat) {
  size_t i = pgwire_msg_begin(b, 'B');
  pgwire_put_cstr(b, zPortal);
  pgwire_put_cstr(b, zStmt);
  pgwire_put_int16(b, nParamFormat);
  for (int j = 0; j < nParamFormat; j++) pgwire_put_int16(b, aParamFormat[j]);
  pgwire_put_int16(b, nParam);
  for (int j = 0; j < nParam; j++) {
    int n = anValue != NULL ? anValue[j] : (int)strlen(azValue[j]);
    pgwire_put_int32(b, n);
    if (n > 0) strbuf_append(b, azValue[j], (size_t)n);
  }
  pgwire_put_int16(b, nResultFormat);
  for (int j = 0; j < nResultFormat; j++) pgwire_put_int16(b, aResultFormat[j]);
  pgwire_msg_end(b, i);
}

void pgc_describe(strbuf *b, char cKind, const char *zName) {
  size_t i = pgwire_msg_begin(b, 'D');
  strbuf_append(b, &cKind, 1);
  pgwire_put_cstr(b, zName);
  pgwire_msg_end(b, i);
}

void pgc_execute(strbuf *b, const char *zPortal, int32_t nMax) {
  size_t i = pgwire_msg_begin(b, 'E');
  pgwire_put_cstr(b, zPortal);
  pgwire_put_int32(b, nMax);
  pgwire_msg_end(b, i);
}

void pgc_close(strbuf *b, char cKind, const char *zName) {
  size_t i = pgwire_msg_begin(b, 'C');
  strbuf_append(b, &cKind, 1);
  pgwire_put_cstr(b, zName);
  pgwire_msg_end(b, i);
}

void pgc_empty(strbuf *b, char cType) { pgwire_msg_end(b, pgwire_msg_begin(b, cType)); }

void pgc_copy_data(strbuf *b, const char *z, size_t n) {
  size_t i = pgwire_msg_begin(b, 'd');
  strbuf_append(b, z, n);
  pgwire_msg_end(b, i);
}

void pgc_copy_fail(strbuf *b, const char *zMsg) {
  size_t i = pgwire_msg_begin(b, 'f');
  pgwire_put_cstr(b, zMsg);
  pgwire_msg_end(b, i);
}

void pgc_sasl_initial(strbuf *b, const char *zMech, const char *z, int n) {
  size_t i = pgwire_msg_begin(b, 'p');
  pgwire_put_cstr(b, zMech);
  pgwire_put_int32(b, n);
  if (n > 0) strbuf_append(b, z, (size_t)n);
  pgwire_msg_end(b, i);
}

void pgc_sasl_response(strbuf *b, const char *z, size_t n) {
  size_t i = pgwire_msg_begin(b, 'p');
  strbuf_append(b, z, n);
  pgwire_msg_end(b, i);
}

/* ---- reading backend messages ---------------------------------------------- */

/* A cursor over one message body; running past it fails the test. */
typedef struct pgc_cursor pgc_cursor;
struct pgc_cursor {
  const unsigned char *a;
  size_t n, i;
};

static uint32_t cur_u32(pgc_cursor *c) {
  uint32_t v;
  if (c->n - c->i < 4) FAIL("backend message too short for an int32");
  v = pgwire_get_u32(c->a + c->i);
  c->i += 4;
  return v;
}

static int cur_i16(pgc_cursor *c) {
  int v;
  if (c->n - c->i < 2) FAIL("backend message too short for an int16");
  v = pgwire_get_i16(c->a + c->i);
  c->i += 2;
  return v;
}

static const char *cur_str(pgc_cursor *c) {
  const char *z = (const char *)c->a + c->i;
  const unsigned char *pEnd = memchr(c->a + c->i, 0, c->n - c->i);
  if (pEnd == NULL) FAIL("backend string without NUL");
  c->i = (size_t)(pEnd - c->a) + 1;
  return z;
}

/* Appends bytes as text if all are printable, else as 0x<hex>. */
static void sum_bytes(strbuf *s, const unsigned char *a, size_t n) {
  int bText = 1;
  for (size_t i = 0; i < n; i++) bText &= a[i] >= 0x20 && a[i] < 0x7F;
  if (bText) {
    strbuf_append(s, (const char *)a, n);
    return;
  }
  strbuf_puts(s, "0x");
  for (size_t i = 0; i < n; i++) strbuf_printf(s, "%02x", a[i]);
}

static void sum_error(pgc *pc, strbuf *s, char cType, pgc_cursor *c) {
  char zSeverity[16] = "";
  pc->zErrCode[0] = pc->zErrMsg[0] = pc->zErrDetail[0] = pc->zErrHint[0] = 0;
  pc->iErrPos = 0;
  for (;;) {
    const char *z;
    if (c->i >= c->n) FAIL("error response without its terminator");
    char cField = (char)c->a[c->i++];
    if (cField == 0) break;
    z = cur_str(c);
    switch (cField) {
      case 'V': snprintf(zSeverity, sizeof(zSeverity), "%s", z); break;
      case 'C': snprintf(pc->zErrCode, sizeof(pc->zErrCode), "%s", z); break;
      case 'M': snprintf(pc->zErrMsg, sizeof(pc->zErrMsg), "%s", z); break;
      case 'D': snprintf(pc->zErrDetail, sizeof(pc->zErrDetail), "%s", z); break;
      case 'H': snprintf(pc->zErrHint, sizeof(pc->zErrHint), "%s", z); break;
      case 'P': pc->iErrPos = atoi(z); break;
      default: break;
    }
  }
  if (cType == 'N') {
    strbuf_printf(s, "N(%s)", pc->zErrCode);
  } else {
    strbuf_printf(s, "%s(%s)", strcmp(zSeverity, "FATAL") == 0 ? "FATAL" : "E", pc->zErrCode);
  }
}

static void sum_row_description(strbuf *s, pgc_cursor *c) {
  int nCol = cur_i16(c);
  strbuf_puts(s, "T(");
  for (int i = 0; i < nCol; i++) {
    const char *zName = cur_str(c);
    uint32_t iType;
    int iFormat;
    cur_u32(c);          /* table */
    cur_i16(c);          /* attribute */
    iType = cur_u32(c);
    cur_i16(c);          /* typlen */
    cur_u32(c);          /* typmod */
    iFormat = cur_i16(c);
    strbuf_printf(s, "%s%s:%u%s", i ? "," : "", zName, iType, iFormat ? ":b" : "");
  }
  strbuf_puts(s, ")");
}

static void sum_data_row(strbuf *s, pgc_cursor *c) {
  int nCol = cur_i16(c);
  strbuf_puts(s, "D(");
  for (int i = 0; i < nCol; i++) {
    int32_t n = (int32_t)cur_u32(c);
    if (i > 0) strbuf_puts(s, ",");
    if (n == -1) {
      strbuf_puts(s, "NULL");
      continue;
    }
    if (n < 0 || (size_t)n > c->n - c->i) FAIL("bad value length %d in a DataRow", n);
    sum_bytes(s, c->a + c->i, (size_t)n);
    c->i += (size_t)n;
  }
  strbuf_puts(s, ")");
}

/* Appends the summary of one message of type cType and body c. */
static void sum_message(pgc *pc, strbuf *s, char cType, pgc_cursor *c) {
  switch (cType) {
    case 'R': {
      uint32_t iCode = cur_u32(c);
      strbuf_printf(s, "R(%u", iCode);
      if (iCode == 10) {
        for (const char *z = cur_str(c); z[0] != 0; z = cur_str(c)) strbuf_printf(s, ":%s", z);
      }
      c->i = c->n;       /* SASL data is read by the SCRAM tests themselves */
      strbuf_puts(s, ")");
      break;
    }
    case 'S': {
      const char *zName = cur_str(c);
      strbuf_printf(s, "S(%s=%s)", zName, cur_str(c));
      break;
    }
    case 'K': {
      uint32_t iPid = cur_u32(c);
      strbuf_printf(s, "K(%u,%u)", iPid, cur_u32(c));
      break;
    }
    case 'Z':
      if (c->n != 1) FAIL("ReadyForQuery of %zu bytes", c->n);
      strbuf_printf(s, "Z(%c)", c->a[c->i++]);
      break;
    case 'T': sum_row_description(s, c); break;
    case 'D': sum_data_row(s, c); break;
    case 'C': strbuf_printf(s, "C(%s)", cur_str(c)); break;
    case 'E':
    case 'N': sum_error(pc, s, cType, c); break;
    case 't': {
      int n = cur_i16(c);
      strbuf_puts(s, "t(");
      for (int i = 0; i < n; i++) strbuf_printf(s, "%s%u", i ? "," : "", cur_u32(c));
      strbuf_puts(s, ")");
      break;
    }
    case 'G': {
      int iFormat;
      if (c->n < 1) FAIL("empty CopyInResponse");
      iFormat = c->a[c->i++];
      int nCol = cur_i16(c);
      for (int i = 0; i < nCol; i++) cur_i16(c);
      strbuf_printf(s, "G(%d,%d)", iFormat, nCol);
      break;
    }
    case 'v': {
      uint32_t iMinor = cur_u32(c), nOpt = cur_u32(c);
      strbuf_printf(s, "v(%u", iMinor);
      for (uint32_t i = 0; i < nOpt; i++) strbuf_printf(s, "%s%s", i ? "," : ":", cur_str(c));
      strbuf_puts(s, ")");
      break;
    }
    case 'I': case '1': case '2': case '3': case 'n': case 's':
      strbuf_append(s, &cType, 1);
      break;
    default:
      FAIL("unknown backend message type 0x%02x", (unsigned char)cType);
  }
  if (c->i != c->n) FAIL("backend message '%c' has %zu bytes left over", cType, c->n - c->i);
}

const char *pgc_summarize(pgc *pc, const unsigned char *a, size_t n) {
  strbuf s;
  size_t i = 0;
  strbuf_init(&s);
  while (i < n) {
    pgc_cursor c;
    uint32_t nLen;
    if (n - i < 5) FAIL("a partial backend message at byte %zu of %zu", i, n);
    nLen = pgwire_get_u32(a + i + 1);
    if (nLen < 4 || nLen - 4 > n - i - 5) FAIL("bad backend message length %u", nLen);
    c.a = a + i + 5;
    c.n = nLen - 4;
    c.i = 0;
    if (s.n > 0) strbuf_puts(&s, " ");
    sum_message(pc, &s, (char)a[i], &c);
    i += 1 + nLen;
  }
  ASSERT(!strbuf_error(&s));
  snprintf(pc->zSummary, sizeof(pc->zSummary), "%s", strbuf_str(&s));
  strbuf_free(&s);
  return pc->zSummary;
}

/* ---- SCRAM, the client's side ------------------------------------------------ */

/* Finds attribute "c=" in a SCRAM message and copies its value to zOut. */
static void scram_attr_get(const char *zMsg, char c, char *zOut, size_t nOut) {
  for (const char *z = zMsg; z != NULL; z = strchr(z, ',')) {
    if (*z == ',') z++;
    if (z[0] == c && z[1] == '=') {
      size_t n = strcspn(z + 2, ",");
      if (n >= nOut) FAIL("SCRAM attribute %c too long", c);
      memcpy(zOut, z + 2, n);
      zOut[n] = 0;
      return;
    }
  }
  FAIL("no attribute %c in \"%s\"", c, zMsg);
}

static void scram_b64(strbuf *s, const unsigned char *a, int n) {
  unsigned char zOut[128];
  int nOut = EVP_EncodeBlock(zOut, a, n);
  strbuf_append(s, (const char *)zOut, (size_t)nOut);
}

void pgc_scram_final(const char *zPassword, const char *zFirstBare, const char *zServerFirst,
                     strbuf *pFinal, strbuf *pWant) {
  char zNonce[256], zSalt[128], zIter[16];
  unsigned char aSalt[128], aSalted[32], aClientKey[32], aStoredKey[32], aServerKey[32];
  unsigned char aSig[32], aProof[32];
  unsigned int nOut;
  int nSalt;
  strbuf auth, final;

  scram_attr_get(zServerFirst, 'r', zNonce, sizeof(zNonce));
  scram_attr_get(zServerFirst, 's', zSalt, sizeof(zSalt));
  scram_attr_get(zServerFirst, 'i', zIter, sizeof(zIter));
  nSalt = EVP_DecodeBlock(aSalt, (const unsigned char *)zSalt, (int)strlen(zSalt));
  ASSERT(nSalt > 0);
  for (const char *z = zSalt + strlen(zSalt); z > zSalt && z[-1] == '='; z--) nSalt--;
  ASSERT(PKCS5_PBKDF2_HMAC(zPassword, (int)strlen(zPassword), aSalt, nSalt, atoi(zIter),
                           EVP_sha256(), 32, aSalted) == 1);
  ASSERT(HMAC(EVP_sha256(), aSalted, 32, (const unsigned char *)"Client Key", 10, aClientKey, &nOut));
  ASSERT(HMAC(EVP_sha256(), aSalted, 32, (const unsigned char *)"Server Key", 10, aServerKey, &nOut));
  SHA256(aClientKey, 32, aStoredKey);

  strbuf_init(&final);
  strbuf_printf(&final, "c=biws,r=%s", zNonce);
  strbuf_init(&auth);
  strbuf_printf(&auth, "%s,%s,%s", zFirstBare, zServerFirst, strbuf_str(&final));
  ASSERT(HMAC(EVP_sha256(), aStoredKey, 32, (const unsigned char *)auth.z, auth.n, aSig, &nOut));
  for (int i = 0; i < 32; i++) aProof[i] = aClientKey[i] ^ aSig[i];
  strbuf_append(pFinal, final.z, final.n);
  strbuf_puts(pFinal, ",p=");
  scram_b64(pFinal, aProof, 32);
  ASSERT(HMAC(EVP_sha256(), aServerKey, 32, (const unsigned char *)auth.z, auth.n, aSig, &nOut));
  strbuf_puts(pWant, "v=");
  scram_b64(pWant, aSig, 32);
  strbuf_free(&auth);
  strbuf_free(&final);
}
