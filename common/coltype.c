/*
** common/coltype.c — names, widths and checks of the column types of
** coltype.h.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "coltype.h"

int coltype_width(coltype t) {
  switch (t.eId) {
    case COLTYPE_SMALLINT: return 2;
    case COLTYPE_INTEGER: return 4;
    case COLTYPE_BIGINT: return 8;
    case COLTYPE_DOUBLE: return 8;
    case COLTYPE_DECIMAL: return 8;
    case COLTYPE_DATE: return 4;
    case COLTYPE_TIMESTAMP:
    case COLTYPE_TIMESTAMPTZ: return 8;
    case COLTYPE_CHAR:
    case COLTYPE_VARCHAR:
    case COLTYPE_TEXT: return 4;
    case COLTYPE_BOOLEAN:
    case COLTYPE_UNKNOWN:
    COLTYPE_CASE_NAMED_ONLY: return 0;     /* not storable */
  }
  return 0;
}

int coltype_is_string(coltype t) {
  return t.eId == COLTYPE_CHAR || t.eId == COLTYPE_VARCHAR || t.eId == COLTYPE_TEXT;
}

int coltype_check(coltype t, char *zErr, size_t nErr) {
  if (t.eId == COLTYPE_BOOLEAN || t.eId == COLTYPE_UNKNOWN) {
    snprintf(zErr, nErr, "type %s cannot be stored in a column",
             t.eId == COLTYPE_BOOLEAN ? "BOOLEAN" : "UNKNOWN");
    return -1;
  }
  if (coltype_width(t) == 0) {
    snprintf(zErr, nErr, "unknown type number %d", (int)t.eId);
    return -1;
  }
  if (t.eId == COLTYPE_DECIMAL) {
    if (t.nPrecision < 1 || t.nPrecision > COLTYPE_DECIMAL_PRECISION_MAX) {
      snprintf(zErr, nErr, "DECIMAL precision %d is out of range 1..%d", t.nPrecision,
               COLTYPE_DECIMAL_PRECISION_MAX);
      return -1;
    }
    if (t.nScale < 0 || t.nScale > t.nPrecision) {
      snprintf(zErr, nErr, "DECIMAL scale %d is out of range 0..%d", t.nScale, t.nPrecision);
      return -1;
    }
  } else if (t.eId == COLTYPE_TIMESTAMP || t.eId == COLTYPE_TIMESTAMPTZ) {
    if (t.nPrecision != 0 || t.nScale < 0 || t.nScale > COLTYPE_TIME_PRECISION_MAX) {
      snprintf(zErr, nErr, "TIMESTAMP precision %d is out of range 0..%d", t.nScale,
               COLTYPE_TIME_PRECISION_MAX);
      return -1;
    }
  } else if (t.nPrecision != 0 || t.nScale != 0) {
    snprintf(zErr, nErr, "only DECIMAL takes a precision and scale");
    return -1;
  }
  if (t.eId == COLTYPE_CHAR || t.eId == COLTYPE_VARCHAR) {
    if (t.nLength < 1 || t.nLength > COLTYPE_LENGTH_MAX) {
      snprintf(zErr, nErr, "%s length %d is out of range 1..%d",
               t.eId == COLTYPE_CHAR ? "CHAR" : "VARCHAR", t.nLength, COLTYPE_LENGTH_MAX);
      return -1;
    }
  } else if (t.nLength != 0) {
    snprintf(zErr, nErr, "only CHAR and VARCHAR take a length");
    return -1;
  }
  return 0;
}

/* Writes TIMESTAMP, TIME and their WITH TIME ZONE forms, with the
** precision when it is not the default. */
static void coltype_format_time(coltype t, char *z, size_t n) {
  const char *zName = t.eId == COLTYPE_TIME || t.eId == COLTYPE_TIMETZ ? "TIME" : "TIMESTAMP";
  const char *zZone = t.eId == COLTYPE_TIMESTAMPTZ || t.eId == COLTYPE_TIMETZ ? " WITH TIME ZONE"
                                                                               : "";
  if (t.nScale != COLTYPE_TIME_PRECISION_MAX) {
    snprintf(z, n, "%s(%d)%s", zName, t.nScale, zZone);
  } else {
    snprintf(z, n, "%s%s", zName, zZone);
  }
}

/* Writes INTERVAL with its fields qualifier (PostgreSQL's spelling: the
** first field TO the last) and precision. */
static void coltype_format_interval(coltype t, char *z, size_t n) {
  static const char *const azField[] = {"YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"};
  int iFirst = -1, iLast = -1;
  size_t k;
  for (int i = 0; i < 6; i++) {
    if (t.nLength & (1 << i)) {
      if (iFirst < 0) iFirst = i;
      iLast = i;
    }
  }
  k = (size_t)snprintf(z, n, "INTERVAL");
  if (iFirst >= 0 && k < n) k += (size_t)snprintf(z + k, n - k, " %s", azField[iFirst]);
  if (iLast > iFirst && k < n) k += (size_t)snprintf(z + k, n - k, " TO %s", azField[iLast]);
  if (t.nScale != COLTYPE_TIME_PRECISION_MAX && k < n) {
    snprintf(z + k, n - k, "(%d)", t.nScale);
  }
}

char *coltype_format(coltype t, char *z, size_t n) {
  switch (t.eId) {
    case COLTYPE_SMALLINT: snprintf(z, n, "SMALLINT"); break;
    case COLTYPE_INTEGER: snprintf(z, n, "INTEGER"); break;
    case COLTYPE_BIGINT: snprintf(z, n, "BIGINT"); break;
    case COLTYPE_DOUBLE: snprintf(z, n, "DOUBLE PRECISION"); break;
    case COLTYPE_DECIMAL: snprintf(z, n, "DECIMAL(%d,%d)", t.nPrecision, t.nScale); break;
    case COLTYPE_DATE: snprintf(z, n, "DATE"); break;
    case COLTYPE_CHAR: snprintf(z, n, "CHAR(%d)", t.nLength); break;
    case COLTYPE_VARCHAR: snprintf(z, n, "VARCHAR(%d)", t.nLength); break;
    case COLTYPE_TEXT: snprintf(z, n, "TEXT"); break;
    case COLTYPE_BOOLEAN: snprintf(z, n, "BOOLEAN"); break;
    case COLTYPE_UNKNOWN: snprintf(z, n, "UNKNOWN"); break;
    case COLTYPE_TIMESTAMP:
    case COLTYPE_TIMESTAMPTZ:
    case COLTYPE_TIME:
    case COLTYPE_TIMETZ:
      coltype_format_time(t, z, n);
      break;
    case COLTYPE_INTERVAL: coltype_format_interval(t, z, n); break;
    case COLTYPE_NUMERIC:
      if (t.nPrecision > 0) {
        snprintf(z, n, "NUMERIC(%d,%d)", t.nPrecision, t.nScale);
      } else {
        snprintf(z, n, "NUMERIC");
      }
      break;
    case COLTYPE_FLOAT4: snprintf(z, n, "REAL"); break;
    case COLTYPE_OID: snprintf(z, n, "OID"); break;
    case COLTYPE_REGCLASS: snprintf(z, n, "REGCLASS"); break;
    case COLTYPE_REGTYPE: snprintf(z, n, "REGTYPE"); break;
    case COLTYPE_REGPROC: snprintf(z, n, "REGPROC"); break;
    case COLTYPE_NAME: snprintf(z, n, "NAME"); break;
    case COLTYPE_PGCHAR: snprintf(z, n, "\"char\""); break;
    case COLTYPE_ARRAY: {
      size_t k;
      coltype_format(coltype_elem(t), z, n);
      k = strlen(z);
      if (k < n) snprintf(z + k, n - k, "[]");
      break;
    }
    case COLTYPE_INT2VECTOR: snprintf(z, n, "INT2VECTOR"); break;
    case COLTYPE_OIDVECTOR: snprintf(z, n, "OIDVECTOR"); break;
    case COLTYPE_ACLITEM: snprintf(z, n, "ACLITEM"); break;
    case COLTYPE_PG_NODE_TREE: snprintf(z, n, "PG_NODE_TREE"); break;
    case COLTYPE_XID: snprintf(z, n, "XID"); break;
    case COLTYPE_INET: snprintf(z, n, "INET"); break;
    case COLTYPE_BYTEA: snprintf(z, n, "BYTEA"); break;
    case COLTYPE_ANYARRAY: snprintf(z, n, "ANYARRAY"); break;
    case COLTYPE_REGNAMESPACE: snprintf(z, n, "REGNAMESPACE"); break;
    default: snprintf(z, n, "?%d", (int)t.eId); break;
  }
  return z;
}

/* ---- parsing type names -------------------------------------------------- */

/* A cursor over a type name; words are compared case-insensitively. */
typedef struct coltype_cursor coltype_cursor;
struct coltype_cursor {
  const char *z;
};

static void coltype__skip_space(coltype_cursor *c) {
  while (isspace((unsigned char)*c->z)) c->z++;
}

/* Consumes word zWord if it comes next as a whole word; returns 1 if so. */
static int coltype__word(coltype_cursor *c, const char *zWord) {
  size_t n = strlen(zWord);
  coltype__skip_space(c);
  if (strncasecmp(c->z, zWord, n) != 0) return 0;
  if (isalnum((unsigned char)c->z[n]) || c->z[n] == '_') return 0;
  c->z += n;
  return 1;
}

static int coltype__char(coltype_cursor *c, char ch) {
  coltype__skip_space(c);
  if (*c->z != ch) return 0;
  c->z++;
  return 1;
}

/* Reads a whole number up to 10^9; returns -1 if there is none. */
static int32_t coltype__number(coltype_cursor *c) {
  int64_t v = 0;
  coltype__skip_space(c);
  if (!isdigit((unsigned char)*c->z)) return -1;
  while (isdigit((unsigned char)*c->z)) {
    v = v * 10 + (*c->z++ - '0');
    if (v > 1000000000) return -1;
  }
  return (int32_t)v;
}

/* Reads "(n)" into *pn; returns 0 if absent (leaving *pn), -1 if malformed. */
static int coltype__length(coltype_cursor *c, int32_t *pn) {
  if (!coltype__char(c, '(')) return 0;
  *pn = coltype__number(c);
  return (*pn >= 0 && coltype__char(c, ')')) ? 0 : -1;
}

int coltype_parse(const char *z, coltype *pt, char *zErr, size_t nErr) {
  coltype_cursor c = {z};
  coltype t = {0, 0, 0, 0};
  int rc = 0;

  if (coltype__word(&c, "SMALLINT") || coltype__word(&c, "INT2")) {
    t.eId = COLTYPE_SMALLINT;
  } else if (coltype__word(&c, "INTEGER") || coltype__word(&c, "INT") ||
             coltype__word(&c, "INT4")) {
    t.eId = COLTYPE_INTEGER;
  } else if (coltype__word(&c, "BIGINT") || coltype__word(&c, "INT8")) {
    t.eId = COLTYPE_BIGINT;
  } else if (coltype__word(&c, "DOUBLE")) {
    coltype__word(&c, "PRECISION");
    t.eId = COLTYPE_DOUBLE;
  } else if (coltype__word(&c, "FLOAT8")) {
    t.eId = COLTYPE_DOUBLE;
  } else if (coltype__word(&c, "DECIMAL") || coltype__word(&c, "NUMERIC")) {
    t.eId = COLTYPE_DECIMAL;
    t.nPrecision = COLTYPE_DECIMAL_PRECISION_MAX;
    if (coltype__char(&c, '(')) {
      t.nPrecision = coltype__number(&c);
      if (coltype__char(&c, ',')) t.nScale = coltype__number(&c);
      if (t.nPrecision < 0 || t.nScale < 0 || !coltype__char(&c, ')')) rc = -1;
    }
  } else if (coltype__word(&c, "DATE")) {
    t.eId = COLTYPE_DATE;
  } else if (coltype__word(&c, "CHARACTER") || coltype__word(&c, "CHAR")) {
    if (coltype__word(&c, "VARYING")) {
      t.eId = COLTYPE_VARCHAR;
      rc = coltype__length(&c, &t.nLength);
      if (t.nLength == 0) rc = -1;
    } else {
      t.eId = COLTYPE_CHAR;
      t.nLength = 1;                 /* SQL: CHAR alone is CHAR(1) */
      rc = coltype__length(&c, &t.nLength);
    }
  } else if (coltype__word(&c, "VARCHAR")) {
    t.eId = COLTYPE_VARCHAR;
    rc = coltype__length(&c, &t.nLength);
    if (t.nLength == 0) rc = -1;
  } else if (coltype__word(&c, "TEXT")) {
    t.eId = COLTYPE_TEXT;
  } else {
    snprintf(zErr, nErr, "unknown type \"%s\"", z);
    return -1;
  }
  coltype__skip_space(&c);
  if (rc != 0 || *c.z != 0) {
    snprintf(zErr, nErr, "malformed type \"%s\"", z);
    return -1;
  }
  if (coltype_check(t, zErr, nErr) != 0) return -1;
  *pt = t;
  return 0;
}
