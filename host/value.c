/*
** host/value.c — single values as the host executor needs them: their
** order (PostgreSQL's, across the numeric types), equality and hashing
** for grouping and joins, their text output, and casts.
**
** Numbers of different types compare by value: integers exactly, then
** numeric (128-bit) when either side is one, then double when either
** side is floating (PostgreSQL's implicit casts go the same way). Strings
** compare by bytes, the C collation starq's dictionaries keep.
**
** INTERFACE ROUTINES
**   host_datum_cmp, host_datum_text (host.h)
**   host__datum_eq, host__datum_hash, host__sort_cmp, host__datum_own,
**   host__cast, host__is_int, host__is_numeric, host__is_text (hostInt.h)
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/hash128.h"
#include "../common/tz.h"
#include "hostInt.h"

int host__is_int(coltype_id e) {
  switch (e) {
    case COLTYPE_SMALLINT:
    case COLTYPE_INTEGER:
    case COLTYPE_BIGINT:
    case COLTYPE_OID:
    case COLTYPE_REGCLASS:
    case COLTYPE_REGTYPE:
    case COLTYPE_REGPROC:
    case COLTYPE_REGNAMESPACE:
      return 1;
    default:
      return 0;
  }
}

/* 1 for the object identifier types whose text is a name (func/reg.c). */
static int host_is_reg(coltype_id e) {
  return e == COLTYPE_REGCLASS || e == COLTYPE_REGTYPE || e == COLTYPE_REGPROC ||
         e == COLTYPE_REGNAMESPACE;
}

int host__is_numeric(coltype_id e) { return e == COLTYPE_DECIMAL || e == COLTYPE_NUMERIC; }

static int host_is_float(coltype_id e) { return e == COLTYPE_DOUBLE || e == COLTYPE_FLOAT4; }

int host__is_text(coltype_id e) {
  switch (e) {
    case COLTYPE_CHAR:
    case COLTYPE_VARCHAR:
    case COLTYPE_TEXT:
    case COLTYPE_NAME:
    case COLTYPE_PGCHAR:
    case COLTYPE_UNKNOWN:
      return 1;
    default:
      return 0;
  }
}

/* A number as a double, whatever its type. */
static double host_as_double(const datum *d) {
  if (host_is_float(d->type.eId)) return d->u.r;
  if (host__is_numeric(d->type.eId)) return numeric_to_double(&d->u.n);
  return (double)d->u.i;
}

/* A non-floating number as numeric. */
static numeric host_as_numeric(const datum *d) {
  if (host__is_numeric(d->type.eId)) return d->u.n;
  return numeric_from_int64(d->u.i);
}

/* PostgreSQL's float order: NaN above everything, equal to itself. */
static int host_double_cmp(double a, double b) {
  if (isnan(a)) return isnan(b) ? 0 : 1;
  if (isnan(b)) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

static int host_bytes_cmp(const char *a, uint32_t na, const char *b, uint32_t nb) {
  int c = memcmp(a, b, na < nb ? na : nb);
  if (c != 0) return c < 0 ? -1 : 1;
  return na < nb ? -1 : na > nb ? 1 : 0;
}

int host_datum_cmp(const datum *a, const datum *b) {
  coltype_id ea = a->type.eId, eb = b->type.eId;
  if ((host__is_int(ea) || ea == COLTYPE_BOOLEAN || ea == COLTYPE_DATE || ea == COLTYPE_TIMESTAMP ||
       ea == COLTYPE_TIMESTAMPTZ || ea == COLTYPE_TIME) &&
      (ea == eb || (host__is_int(ea) && host__is_int(eb)))) {
    return a->u.i < b->u.i ? -1 : a->u.i > b->u.i ? 1 : 0;
  }
  if (host_is_float(ea) || host_is_float(eb)) return host_double_cmp(host_as_double(a), host_as_double(b));
  if (host__is_numeric(ea) || host__is_numeric(eb)) {
    numeric x = host_as_numeric(a), y = host_as_numeric(b);
    return numeric_cmp(&x, &y);
  }
  if (host__is_text(ea) && host__is_text(eb)) {
    return host_bytes_cmp(a->u.s.z, a->u.s.n, b->u.s.z, b->u.s.n);
  }
  if (ea == COLTYPE_INTERVAL && eb == COLTYPE_INTERVAL) return dt_interval_cmp(&a->u.iv, &b->u.iv);
  /* Dates beside timestamps: the date's midnight. */
  if ((ea == COLTYPE_DATE || eb == COLTYPE_DATE) &&
      (ea == COLTYPE_TIMESTAMP || eb == COLTYPE_TIMESTAMP || ea == COLTYPE_TIMESTAMPTZ ||
       eb == COLTYPE_TIMESTAMPTZ)) {
    int64_t x = a->u.i, y = b->u.i;
    if (ea == COLTYPE_DATE) dt_date_to_timestamp((int32_t)x, &x);
    if (eb == COLTYPE_DATE) dt_date_to_timestamp((int32_t)y, &y);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a->u.i < b->u.i ? -1 : a->u.i > b->u.i ? 1 : 0;
}

int host__datum_eq(const datum *a, const datum *b) {
  if (host__is_text(a->type.eId) && host__is_text(b->type.eId)) {
    return a->u.s.n == b->u.s.n && memcmp(a->u.s.z, b->u.s.z, a->u.s.n) == 0;
  }
  return host_datum_cmp(a, b) == 0;
}

uint64_t host__datum_hash(const datum *d) {
  coltype_id e = d->type.eId;
  if (host__is_text(e)) {
    uint64_t h = 1469598103934665603ULL;
    for (uint32_t i = 0; i < d->u.s.n; i++) h = (h ^ (unsigned char)d->u.s.z[i]) * 1099511628211ULL;
    return hash128_fmix64(h);
  }
  if (host_is_float(e)) {
    double r = d->u.r;
    uint64_t u;
    if (r == 0.0) r = 0.0;                   /* -0 = 0 */
    if (isnan(r)) r = NAN;
    memcpy(&u, &r, 8);
    return hash128_fmix64(u);
  }
  if (host__is_numeric(e)) {
    /* Equal values of different scales hash alike: trailing zeros off. */
    numeric n = d->u.n, ten = numeric_from_int64(10), q, r;
    while (n.eKind == NUMERIC_FINITE && n.scale > 0) {
      numeric t = n;
      t.scale = 0;
      if (numeric_mod(&t, &ten, &r) != NUMERIC_OK || numeric_sign(&r) != 0) break;
      if (numeric_div_trunc(&t, &ten, &q) != NUMERIC_OK) break;
      q.scale = n.scale - 1;
      n = q;
    }
    return hash128_fmix64(n.lo ^ hash128_fmix64(n.hi) ^ ((uint64_t)n.scale << 40) ^ ((uint64_t)n.eKind << 56));
  }
  if (e == COLTYPE_INTERVAL) {
    return hash128_fmix64((uint64_t)d->u.iv.time ^ hash128_fmix64((uint64_t)d->u.iv.day << 32 ^ (uint64_t)d->u.iv.month));
  }
  return hash128_fmix64((uint64_t)d->u.i);
}

int host__sort_cmp(const datum *a, const datum *b, int bDesc, int bNullsFirst) {
  int c;
  if (a->bNull || b->bNull) {
    if (a->bNull && b->bNull) return 0;
    return (a->bNull ? -1 : 1) * (bNullsFirst ? 1 : -1);
  }
  c = host_datum_cmp(a, b);
  return bDesc ? -c : c;
}

int host__datum_own(host_run_ctx *x, datum *d) {
  if (d->bNull || !host__is_text(d->type.eId) || d->u.s.n == 0) return 0;
  char *z = arena_alloc(x->pArena, d->u.s.n);
  if (z == NULL) return host__oom(x);
  memcpy(z, d->u.s.z, d->u.s.n);
  d->u.s.z = z;
  return 0;
}

/* ---- text out ------------------------------------------------------------- */

/* float4's shortest text that reads back as the same float. */
static void host_float4_text(float f, strbuf *s) {
  char z[32];
  if (isnan(f)) {
    strbuf_puts(s, "NaN");
    return;
  }
  if (isinf(f)) {
    strbuf_puts(s, f > 0 ? "Infinity" : "-Infinity");
    return;
  }
  for (int p = 1; p <= 9; p++) {
    snprintf(z, sizeof(z), "%.*g", p, (double)f);
    if (strtof(z, NULL) == f) break;
  }
  strbuf_puts(s, z);
}

/* Appends array element e as array_out writes it: NULL bare, else the
** element's text in double quotes, with \ before " and \, where it is
** empty, is "NULL" in any case, or holds a brace, comma, quote, backslash
** or white space. */
void host__array_elem_text(const datum *e, strbuf *s) {
  strbuf t;
  int bQuote;
  if (e->bNull) {
    strbuf_puts(s, "NULL");
    return;
  }
  strbuf_init(&t);
  host_datum_text(e, &t);
  bQuote = t.n == 0 || (t.n == 4 && strncasecmp(t.z, "null", 4) == 0);
  for (size_t i = 0; i < t.n && !bQuote; i++) bQuote = t.z[i] != 0 && strchr("{},\"\\ \t\n\r\v\f", t.z[i]) != NULL;
  if (!bQuote) {
    strbuf_append(s, t.z, t.n);
  } else {
    strbuf_puts(s, "\"");
    for (size_t i = 0; i < t.n; i++) {
      if (t.z[i] == '"' || t.z[i] == '\\') strbuf_puts(s, "\\");
      strbuf_append(s, &t.z[i], 1);
    }
    strbuf_puts(s, "\"");
  }
  strbuf_free(&t);
}

void host_datum_text(const datum *d, strbuf *s) {
  char z[NUMERIC_TEXT_MAX + 64];
  switch (d->type.eId) {
    case COLTYPE_ARRAY:            /* {a,b}: array_out */
      strbuf_puts(s, "{");
      for (uint32_t i = 0; i < d->u.a.n; i++) {
        if (i > 0) strbuf_puts(s, ",");
        host__array_elem_text(&d->u.a.a[i], s);
      }
      strbuf_puts(s, "}");
      return;
    case COLTYPE_INT2VECTOR:       /* 1 2: int2vectorout, oidvectorout */
    case COLTYPE_OIDVECTOR:
      for (uint32_t i = 0; i < d->u.a.n; i++) {
        if (i > 0) strbuf_puts(s, " ");
        host_datum_text(&d->u.a.a[i], s);
      }
      return;
    case COLTYPE_BOOLEAN:
      strbuf_puts(s, d->u.i ? "t" : "f");
      return;
    case COLTYPE_DOUBLE:
      if (isnan(d->u.r)) strbuf_puts(s, "NaN");
      else if (isinf(d->u.r)) strbuf_puts(s, d->u.r > 0 ? "Infinity" : "-Infinity");
      else strbuf_double(s, d->u.r);
      return;
    case COLTYPE_FLOAT4:
      host_float4_text((float)d->u.r, s);
      return;
    case COLTYPE_DECIMAL:
    case COLTYPE_NUMERIC:
      numeric_format(&d->u.n, z, sizeof(z));
      strbuf_puts(s, z);
      return;
    case COLTYPE_DATE:
      dt_date_format((int32_t)d->u.i, z, sizeof(z));
      strbuf_puts(s, z);
      return;
    case COLTYPE_TIMESTAMP:
      dt_timestamp_format(d->u.i, z, sizeof(z));
      strbuf_puts(s, z);
      return;
    case COLTYPE_TIMESTAMPTZ:
      dt_timestamptz_format(d->u.i, NULL, z, sizeof(z));
      strbuf_puts(s, z);
      return;
    case COLTYPE_TIME:
      dt_time_format(d->u.i, z, sizeof(z));
      strbuf_puts(s, z);
      return;
    case COLTYPE_INTERVAL:
      dt_interval_format(&d->u.iv, z, sizeof(z));
      strbuf_puts(s, z);
      return;
    case COLTYPE_OID:
    case COLTYPE_REGCLASS:
    case COLTYPE_REGTYPE:
    case COLTYPE_REGPROC:
      strbuf_printf(s, "%llu", (unsigned long long)(uint32_t)d->u.i);
      return;
    default:
      break;
  }
  if (host__is_text(d->type.eId)) {
    strbuf_append(s, d->u.s.z, d->u.s.n);
    return;
  }
  strbuf_printf(s, "%lld", (long long)d->u.i);
}

/* ---- casts ------------------------------------------------------------------ */

static const char *host_int_name(coltype_id e) {
  return e == COLTYPE_SMALLINT ? "smallint" : e == COLTYPE_INTEGER ? "integer" : "bigint";
}

/* Checks integer v against type e's range (22003 out of it). */
static int host_int_fits(host_run_ctx *x, coltype_id e, int64_t v) {
  int bOk = e == COLTYPE_SMALLINT ? v >= INT16_MIN && v <= INT16_MAX
          : e == COLTYPE_INTEGER  ? v >= INT32_MIN && v <= INT32_MAX
          : e == COLTYPE_OID      ? v >= 0 && v <= (int64_t)UINT32_MAX
                                  : 1;
  if (bOk) return 0;
  sql_error_set(x->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, -1, "%s out of range",
                e == COLTYPE_OID ? "OID" : host_int_name(e));
  return -1;
}

/* The first and last bytes of z[0..n) that are not blanks. */
static void host_trim(const char **pz, size_t *pn) {
  const char *z = *pz;
  size_t n = *pn;
  while (n > 0 && (*z == ' ' || *z == '\t' || *z == '\n' || *z == '\r')) z++, n--;
  while (n > 0 && (z[n - 1] == ' ' || z[n - 1] == '\t' || z[n - 1] == '\n' || z[n - 1] == '\r')) n--;
  *pz = z;
  *pn = n;
}

static int host_bad_input(host_run_ctx *x, const char *zType, const char *z, size_t n) {
  sql_error_set(x->pErr, SQLSTATE_INVALID_TEXT_REP, -1, "invalid input syntax for type %s: \"%.*s\"",
                zType, (int)(n > 200 ? 200 : n), z);
  return -1;
}

/* Text z[0..n) to a value of type t, as that type's input function. */
static int host_from_text(host_run_ctx *x, const char *z0, size_t n0, coltype t, datum *pOut) {
  const char *z = z0;
  size_t n = n0;
  char zBuf[128];
  dt_session ses;
  memset(&ses, 0, sizeof(ses));
  ses.pZone = x->fc.pZone;
  ses.tNow = x->fc.iNow;
  if (host_is_reg(t.eId)) return func_reg_in(&x->fc, t.eId, z0, n0, pOut, x->pErr);
  *pOut = datum_null(t.eId);
  pOut->type = t;
  pOut->bNull = 0;
  if (host__is_int(t.eId)) {
    char *zEnd;
    long long v;
    host_trim(&z, &n);
    if (n == 0 || n >= sizeof(zBuf)) return host_bad_input(x, host_int_name(t.eId), z0, n0);
    memcpy(zBuf, z, n);
    zBuf[n] = 0;
    errno = 0;
    v = strtoll(zBuf, &zEnd, 10);
    if (*zEnd != 0) return host_bad_input(x, t.eId == COLTYPE_OID ? "oid" : host_int_name(t.eId), z0, n0);
    if (errno == ERANGE) {
      sql_error_set(x->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, -1,
                    "value \"%.*s\" is out of range for type %s", (int)n0, z0, host_int_name(t.eId));
      return -1;
    }
    pOut->u.i = v;
    if (t.eId == COLTYPE_SMALLINT || t.eId == COLTYPE_INTEGER) {
      if (host_int_fits(x, t.eId, v) != 0) {
        sql_error_set(x->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, -1,
                      "value \"%.*s\" is out of range for type %s", (int)n0, z0, host_int_name(t.eId));
        return -1;
      }
    }
    return 0;
  }
  if (host_is_float(t.eId)) {
    char *zEnd;
    host_trim(&z, &n);
    if (n == 0 || n >= sizeof(zBuf)) {
      return host_bad_input(x, t.eId == COLTYPE_FLOAT4 ? "real" : "double precision", z0, n0);
    }
    memcpy(zBuf, z, n);
    zBuf[n] = 0;
    pOut->u.r = strtod(zBuf, &zEnd);
    if (*zEnd != 0) return host_bad_input(x, t.eId == COLTYPE_FLOAT4 ? "real" : "double precision", z0, n0);
    if (t.eId == COLTYPE_FLOAT4) pOut->u.r = (float)pOut->u.r;
    return 0;
  }
  if (host__is_numeric(t.eId)) {
    if (numeric_parse(z, n, &pOut->u.n, x->pErr) != 0) return -1;
    if (t.nPrecision > 0) {
      numeric r;
      int rc = numeric_typmod_apply(&pOut->u.n, t.nPrecision, t.nScale, &r);
      if (rc != NUMERIC_OK) {
        numeric_error(rc, "numeric", x->pErr);
        return -1;
      }
      pOut->u.n = r;
    }
    return 0;
  }
  switch (t.eId) {
    case COLTYPE_BOOLEAN: {
      static const char *const azTrue[] = {"t", "true", "y", "yes", "on", "1"};
      static const char *const azFalse[] = {"f", "false", "n", "no", "off", "0"};
      host_trim(&z, &n);
      for (int i = 0; i < 6; i++) {
        size_t k = strlen(azTrue[i]);
        if (n > 0 && n <= k && strncasecmp(z, azTrue[i], n) == 0 && (n > 1 || i != 4)) {
          pOut->u.i = 1;
          return 0;
        }
        k = strlen(azFalse[i]);
        if (n > 0 && n <= k && strncasecmp(z, azFalse[i], n) == 0 && (n > 1 || i != 4)) {
          pOut->u.i = 0;
          return 0;
        }
      }
      return host_bad_input(x, "boolean", z0, n0);
    }
    case COLTYPE_DATE: {
      int32_t v;
      if (dt_date_parse(z, n, &ses, &v, x->pErr) != 0) return -1;
      pOut->u.i = v;
      return 0;
    }
    case COLTYPE_TIMESTAMP:
      return dt_timestamp_parse(z, n, &ses, &pOut->u.i, x->pErr);
    case COLTYPE_TIMESTAMPTZ:
      return dt_timestamptz_parse(z, n, &ses, &pOut->u.i, x->pErr);
    case COLTYPE_TIME:
      return dt_time_parse(z, n, &ses, &pOut->u.i, x->pErr);
    case COLTYPE_INTERVAL:
      return dt_interval_parse(z, n, &pOut->u.iv, x->pErr);
    default:
      break;
  }
  if (host__is_text(t.eId)) {
    *pOut = datum_text(t.eId, z0, (uint32_t)n0);
    pOut->type = t;
    return 0;
  }
  sql_error_set(x->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1, "a cast to type %d is not supported yet",
                (int)t.eId);
  return -1;
}

/* Keeps the first n characters (UTF-8) of a string: varchar(n)'s and
** char(n)'s explicit cast. */
static uint32_t host_utf8_prefix(const char *z, uint32_t nByte, int32_t nChar) {
  uint32_t i = 0;
  int32_t c = 0;
  while (i < nByte && c < nChar) {
    unsigned char b = (unsigned char)z[i];
    i += b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    c++;
  }
  return i > nByte ? nByte : i;
}

int host__cast(host_run_ctx *x, const datum *d, coltype t, datum *pOut) {
  coltype_id ef = d->type.eId, et = t.eId;
  int rc;
  if (host__is_text(et)) {
    datum r;
    if (host__is_text(ef)) {
      r = *d;
    } else {
      strbuf s;
      char *z;
      strbuf_init(&s);
      if (host_is_reg(ef)) {
        if (func_reg_out(&x->fc, d, &s, x->pErr) != 0) {
          strbuf_free(&s);
          return -1;
        }
      } else {
        host_datum_text(d, &s);
      }
      if (strbuf_error(&s) || (z = arena_alloc(x->pArena, s.n + 1)) == NULL) {
        strbuf_free(&s);
        return host__oom(x);
      }
      memcpy(z, s.z, s.n);
      r = datum_text(et, z, (uint32_t)s.n);
      strbuf_free(&s);
    }
    r.type = t;
    if ((et == COLTYPE_VARCHAR || et == COLTYPE_CHAR) && t.nLength > 0) {
      r.u.s.n = host_utf8_prefix(r.u.s.z, r.u.s.n, t.nLength);
    }
    *pOut = r;
    return 0;
  }
  if (host__is_text(ef)) return host_from_text(x, d->u.s.z, d->u.s.n, t, pOut);

  *pOut = *d;
  pOut->type = t;
  if (host__is_int(et)) {
    int64_t v;
    if (host__is_int(ef) || ef == COLTYPE_BOOLEAN) {
      v = d->u.i;
    } else if (host_is_float(ef)) {
      double r = rint(d->u.r);
      if (isnan(r) || r < -9.2233720368547758e18 || r >= 9.2233720368547758e18) {
        sql_error_set(x->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, -1, "%s out of range", host_int_name(et));
        return -1;
      }
      v = (int64_t)r;
    } else if (host__is_numeric(ef)) {
      rc = numeric_to_int64(&d->u.n, INT64_MIN, INT64_MAX, &v);
      if (rc != NUMERIC_OK) {
        numeric_error(rc, host_int_name(et), x->pErr);
        return -1;
      }
    } else {
      goto no_cast;
    }
    if (host_int_fits(x, et, v) != 0) return -1;
    pOut->u.i = v;
    return 0;
  }
  if (host_is_float(et)) {
    if (host__is_int(ef) || host_is_float(ef) || host__is_numeric(ef)) {
      pOut->u.r = host_as_double(d);
      if (et == COLTYPE_FLOAT4) pOut->u.r = (float)pOut->u.r;
      return 0;
    }
    goto no_cast;
  }
  if (host__is_numeric(et)) {
    numeric n;
    if (host__is_int(ef)) n = numeric_from_int64(d->u.i);
    else if (host__is_numeric(ef)) n = d->u.n;
    else if (host_is_float(ef)) {
      if (numeric_from_double(d->u.r, &n, x->pErr) != 0) return -1;
    } else goto no_cast;
    if (t.nPrecision > 0) {
      numeric r;
      rc = numeric_typmod_apply(&n, t.nPrecision, t.nScale, &r);
      if (rc != NUMERIC_OK) {
        numeric_error(rc, "numeric", x->pErr);
        return -1;
      }
      n = r;
    }
    pOut->u.n = n;
    return 0;
  }
  if (et == COLTYPE_BOOLEAN && host__is_int(ef)) {
    pOut->u.i = d->u.i != 0;
    return 0;
  }
  if (et == ef) return 0;
  if (et == COLTYPE_TIMESTAMP && ef == COLTYPE_DATE) {
    rc = dt_date_to_timestamp((int32_t)d->u.i, &pOut->u.i);
    if (rc != 0) goto out_range;
    return 0;
  }
  if (et == COLTYPE_DATE && ef == COLTYPE_TIMESTAMP) {
    int32_t v;
    if (dt_timestamp_to_date(d->u.i, &v) != 0) goto out_range;
    pOut->u.i = v;
    return 0;
  }
no_cast:
  sql_error_set(x->pErr, SQLSTATE_CANNOT_COERCE, -1, "cannot cast type %d to %d", (int)ef, (int)et);
  return -1;
out_range:
  sql_error_set(x->pErr, SQLSTATE_INVALID_DATETIME, -1, "date out of range");
  return -1;
}
