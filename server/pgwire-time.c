/*
** server/pgwire-time.c — the binary form of timestamp and timestamptz
** (PostgreSQL's: a big-endian int64 of microseconds since 2000-01-01,
** UTC for timestamptz) to and from the text the engine speaks. Kept apart
** from pgwire-binary.c so that file need not see common/'s numeric names.
**
** INTERFACE ROUTINES
**   pgwire__timestamp_from_text   result text to binary
**   pgwire__timestamp_to_text     a binary parameter to text
*/
#include "../common/datetime.h"
#include "../common/tz.h"
#include "pgwire.h"

int pgwire__timestamp_from_text(uint32_t iOid, const char *z, size_t n, strbuf *s) {
  dt_session ses = {NULL, DT_ORDER_YMD, 0};
  sql_error err;
  int64_t ts;
  unsigned char a[8];
  sql_error_clear(&err);
  if ((iOid == PGWIRE_OID_TIMESTAMPTZ ? dt_timestamptz_parse(z, n, &ses, &ts, &err)
                                      : dt_timestamp_parse(z, n, &ses, &ts, &err)) != 0) {
    return -1;
  }
  dt_timestamp_send(ts, a);
  strbuf_append(s, (const char *)a, sizeof(a));
  return 0;
}

int pgwire__timestamp_to_text(uint32_t iOid, int64_t ts, strbuf *s) {
  char z[DT_TEXT_MAX];
  if ((iOid == PGWIRE_OID_TIMESTAMPTZ ? dt_timestamptz_format(ts, tz_zone_fixed(0), z, sizeof(z))
                                      : dt_timestamp_format(ts, z, sizeof(z))) < 0) {
    return -1;
  }
  strbuf_puts(s, z);
  return 0;
}
