/*
** server/pgwire-encode.c — backend messages as bytes (the pgwire_put_*
** functions of pgwire.h).
**
** Each function appends one whole message to a strbuf: the type byte, a
** length word patched in when the body is complete, the body. Callers
** build a reply message by message and hand the buffer to the socket
** whole, so an error halfway through a reply never leaves half a message
** on the wire (the NOTE in PostgreSQL's pqcomm.c). strbuf's errors are
** sticky; the session checks once after encoding.
*/
#include <stdio.h>
#include <string.h>

#include "pgwire.h"

size_t pgwire_msg_begin(strbuf *s, char cType) {
  static const char aHead[5] = {0};
  size_t iStart = s->n;
  strbuf_append(s, aHead, sizeof(aHead));
  if (!strbuf_error(s)) s->z[iStart] = cType;
  return iStart;
}

void pgwire_msg_end(strbuf *s, size_t iStart) {
  unsigned char *p;
  size_t nLen;
  if (strbuf_error(s) || s->n < iStart + 5) return;
  nLen = s->n - iStart - 1;
  p = (unsigned char *)s->z + iStart + 1;
  p[0] = (unsigned char)(nLen >> 24);
  p[1] = (unsigned char)(nLen >> 16);
  p[2] = (unsigned char)(nLen >> 8);
  p[3] = (unsigned char)nLen;
}

void pgwire_put_int16(strbuf *s, int v) {
  char a[2] = {(char)((unsigned)v >> 8), (char)v};
  strbuf_append(s, a, 2);
}

void pgwire_put_int32(strbuf *s, int32_t v) {
  uint32_t u = (uint32_t)v;
  char a[4] = {(char)(u >> 24), (char)(u >> 16), (char)(u >> 8), (char)u};
  strbuf_append(s, a, 4);
}

void pgwire_put_cstr(strbuf *s, const char *z) { strbuf_append(s, z, strlen(z) + 1); }

void pgwire_put_empty(strbuf *s, char cType) { pgwire_msg_end(s, pgwire_msg_begin(s, cType)); }

void pgwire_put_auth(strbuf *s, int32_t iCode, const void *pData, size_t nData) {
  size_t i = pgwire_msg_begin(s, PGWIRE_MSG_AUTH);
  pgwire_put_int32(s, iCode);
  if (nData > 0) strbuf_append(s, pData, nData);
  pgwire_msg_end(s, i);
}

void pgwire_put_auth_sasl(strbuf *s, const char *const *azMech, int nMech) {
  size_t i = pgwire_msg_begin(s, PGWIRE_MSG_AUTH);
  pgwire_put_int32(s, PGWIRE_AUTH_SASL);
  for (int j = 0; j < nMech; j++) pgwire_put_cstr(s, azMech[j]);
  pgwire_put_cstr(s, "");
  pgwire_msg_end(s, i);
}

void pgwire_put_parameter_status(strbuf *s, const char *zName, const char *zValue) {
  size_t i = pgwire_msg_begin(s, PGWIRE_MSG_PARAMETER_STATUS);
  pgwire_put_cstr(s, zName);
  pgwire_put_cstr(s, zValue);
  pgwire_msg_end(s, i);
}

void pgwire_put_backend_key(strbuf *s, int32_t iPid, int32_t iSecret) {
  size_t i = pgwire_msg_begin(s, PGWIRE_MSG_BACKEND_KEY);
  pgwire_put_int32(s, iPid);
  pgwire_put_int32(s, iSecret);
  pgwire_msg_end(s, i);
}

void pgwire_put_ready(strbuf *s, char cTxn) {
  size_t i = pgwire_msg_begin(s, PGWIRE_MSG_READY);
  strbuf_append(s, &cTxn, 1);
  pgwire_msg_end(s, i);
}

void pgwire_put_row_description(strbuf *s, int nCol, const pgwire_column *aCol,
                                const int16_t *aFormat) {
  size_t i = pgwire_msg_begin(s, PGWIRE_MSG_ROW_DESCRIPTION);
  pgwire_put_int16(s, nCol);
  for (int j = 0; j < nCol; j++) {
    const pgwire_column *c = &aCol[j];
    pgwire_put_cstr(s, c->zName != NULL ? c->zName : "?column?");
    pgwire_put_int32(s, (int32_t)c->iTableOid);
    pgwire_put_int16(s, c->iAttr);
    pgwire_put_int32(s, (int32_t)c->iTypeOid);
    pgwire_put_int16(s, c->nTypeLen);
    pgwire_put_int32(s, c->iTypmod);
    pgwire_put_int16(s, aFormat != NULL ? aFormat[j] : PGWIRE_FORMAT_TEXT);
  }
  pgwire_msg_end(s, i);
}

void pgwire_put_parameter_description(strbuf *s, int nParam, const uint32_t *aType) {
  size_t i = pgwire_msg_begin(s, PGWIRE_MSG_PARAMETER_DESCRIPTION);
  pgwire_put_int16(s, nParam);
  for (int j = 0; j < nParam; j++) pgwire_put_int32(s, (int32_t)aType[j]);
  pgwire_msg_end(s, i);
}

void pgwire_put_command_complete(strbuf *s, const char *zTag) {
  size_t i = pgwire_msg_begin(s, PGWIRE_MSG_COMMAND_COMPLETE);
  pgwire_put_cstr(s, zTag);
  pgwire_msg_end(s, i);
}

/* Appends one field of an ErrorResponse: its code byte and its text. */
static void pgwire__field(strbuf *s, char cCode, const char *z) {
  if (z == NULL) return;
  strbuf_append(s, &cCode, 1);
  pgwire_put_cstr(s, z);
}

void pgwire_put_error(strbuf *s, char cType, const pgwire_error *e) {
  const char *zSeverity = e->zSeverity != NULL ? e->zSeverity : "ERROR";
  size_t i = pgwire_msg_begin(s, cType);
  char zPos[16];
  /* S is the localized severity, V the one clients may parse (9.6 on):
  ** starq never translates, so both say the same. */
  pgwire__field(s, 'S', zSeverity);
  pgwire__field(s, 'V', zSeverity);
  pgwire__field(s, 'C', e->zState != NULL ? e->zState : "XX000");
  pgwire__field(s, 'M', e->zMsg != NULL ? e->zMsg : "");
  pgwire__field(s, 'D', e->zDetail);
  pgwire__field(s, 'H', e->zHint);
  if (e->iPosition > 0) {
    snprintf(zPos, sizeof(zPos), "%d", e->iPosition);
    pgwire__field(s, 'P', zPos);
  }
  strbuf_append(s, "", 1);
  pgwire_msg_end(s, i);
}

/* CopyInResponse or CopyOutResponse. */
static void pgwire_put_copy_response(strbuf *s, char cType, int bBinary, int nCol) {
  size_t i = pgwire_msg_begin(s, cType);
  char cFormat = (char)(bBinary ? 1 : 0);
  strbuf_append(s, &cFormat, 1);
  pgwire_put_int16(s, nCol);
  for (int j = 0; j < nCol; j++) pgwire_put_int16(s, cFormat);
  pgwire_msg_end(s, i);
}

void pgwire_put_copy_in_response(strbuf *s, int bBinary, int nCol) {
  pgwire_put_copy_response(s, PGWIRE_MSG_COPY_IN_RESPONSE, bBinary, nCol);
}

void pgwire_put_copy_out_response(strbuf *s, int bBinary, int nCol) {
  pgwire_put_copy_response(s, PGWIRE_MSG_COPY_OUT_RESPONSE, bBinary, nCol);
}

void pgwire_put_negotiate_version(strbuf *s, uint32_t iMinor, int nOpt,
                                  const char *const *azOpt) {
  size_t i = pgwire_msg_begin(s, PGWIRE_MSG_NEGOTIATE_VERSION);
  pgwire_put_int32(s, (int32_t)iMinor);
  pgwire_put_int32(s, nOpt);
  for (int j = 0; j < nOpt; j++) pgwire_put_cstr(s, azOpt[j]);
  pgwire_msg_end(s, i);
}
