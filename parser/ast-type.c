/*
** parser/ast-type.c — type names to coltypes: the names of casts, typed
** literals and column definitions, as PostgreSQL spells them (one word,
** pg_catalog.word, DOUBLE PRECISION, CHARACTER VARYING(n), NUMERIC(p, s),
** TIMESTAMP(p) WITH TIME ZONE, INTERVAL DAY TO SECOND(p), "char", with []
** for arrays).
**
** Types starq stores come from coltype_parse(); the PostgreSQL types that
** SQL names but nothing stores yet (timestamps, intervals, wide NUMERIC,
** oid and the reg* types, name, "char", real) get their coltype ids, which
** the binder refuses (0A000) until they have meaning; a few others are
** refused here. Unknown names are 42704 "type ... does not exist".
**
** INTERFACE ROUTINES (declared in parseInt.h)
**   sql_type_new, sql_type_qualified, sql_type_time, sql_type_interval,
**   sql_type_array, sql_ifields_new
*/
#include <string.h>

#include "parser/parse.h"
#include "parseInt.h"

/* Types PostgreSQL has and starq does not name: refused with 0A000 rather
** than PostgreSQL's 42704, which would claim they do not exist at all. */
static const char *const azTypeUnsupported[] = {
  "bytea", "json", "jsonb", "money", "uuid", "xml",
};

/* PostgreSQL's names of the types starq names without storing them. */
static const struct {
  const char *zName;
  coltype_id eId;
} aTypeNamed[] = {
  {"timestamp", COLTYPE_TIMESTAMP}, {"timestamptz", COLTYPE_TIMESTAMPTZ},
  {"time", COLTYPE_TIME},           {"timetz", COLTYPE_TIMETZ},
  {"interval", COLTYPE_INTERVAL},   {"real", COLTYPE_FLOAT4},
  {"float4", COLTYPE_FLOAT4},       {"oid", COLTYPE_OID},
  {"regclass", COLTYPE_REGCLASS},   {"regtype", COLTYPE_REGTYPE},
  {"regproc", COLTYPE_REGPROC},     {"name", COLTYPE_NAME},
  {"regnamespace", COLTYPE_REGNAMESPACE},
};

/* The largest NUMERIC precision PostgreSQL takes. */
#define SQL_NUMERIC_PRECISION_MAX 1000

static int sql_has_capital(const char *z) {
  for (; *z; z++) {
    if (*z >= 'A' && *z <= 'Z') return 1;
  }
  return 0;
}

/* Reads the modifier token t (digits) as an int, or -1 past 10^9. */
static int sql_type_arg(const sql_token *t) {
  long v = 0;
  for (int i = 0; i < t->n; i++) {
    v = v * 10 + (t->z[i] - '0');
    if (v > 1000000000) return -1;
  }
  return (int)v;
}

/* Returns fractional-second digits p as PostgreSQL keeps them: more than 6
** is 6 (PostgreSQL warns and reduces it). */
static int sql_time_precision(const sql_token *pPrec) {
  int n;
  if (pPrec == NULL || pPrec->z == NULL) return COLTYPE_TIME_PRECISION_MAX;
  n = sql_type_arg(pPrec);
  return n < 0 || n > COLTYPE_TIME_PRECISION_MAX ? COLTYPE_TIME_PRECISION_MAX : n;
}

/* The types that are not coltype_parse()'s: those starq names without
** storing, and NUMERIC wider than DECIMAL. Returns 1 with *pt set, 0 if
** zName is none of them, -1 after an error. */
static int sql_type_named(sql_parse_ctx *p, const char *zName, int bQuotedChar, int iOffset,
                          const sql_token *pArg1, const sql_token *pArg2, sql_type *pt) {
  int nArg1 = pArg1 ? sql_type_arg(pArg1) : 0, nArg2 = pArg2 ? sql_type_arg(pArg2) : 0;
  if (bQuotedChar && pArg1 == NULL) {
    pt->t.eId = COLTYPE_PGCHAR;
    return 1;
  }
  if ((strcmp(zName, "numeric") == 0 || strcmp(zName, "decimal") == 0) && pArg1 != NULL &&
      (nArg1 < 0 || nArg1 > COLTYPE_DECIMAL_PRECISION_MAX)) {
    if (nArg1 < 1 || nArg1 > SQL_NUMERIC_PRECISION_MAX) {
      sql_error_set(p->pErr, SQLSTATE_INVALID_PARAMETER, iOffset,
                    "NUMERIC precision %.*s must be between 1 and %d", pArg1->n, pArg1->z,
                    SQL_NUMERIC_PRECISION_MAX);
      return -1;
    }
    if (nArg2 < 0 || nArg2 > nArg1) {
      sql_error_set(p->pErr, SQLSTATE_INVALID_PARAMETER, iOffset,
                    "NUMERIC scale %.*s must be between 0 and precision %d", pArg2->n, pArg2->z,
                    nArg1);
      return -1;
    }
    pt->t.eId = COLTYPE_NUMERIC;
    pt->t.nPrecision = nArg1;
    pt->t.nScale = nArg2;
    return 1;
  }
  for (size_t i = 0; i < sizeof(aTypeNamed) / sizeof(aTypeNamed[0]); i++) {
    coltype_id eId = aTypeNamed[i].eId;
    int bTime = eId == COLTYPE_TIMESTAMP || eId == COLTYPE_TIMESTAMPTZ || eId == COLTYPE_TIME ||
                eId == COLTYPE_TIMETZ || eId == COLTYPE_INTERVAL;
    if (strcmp(zName, aTypeNamed[i].zName) != 0) continue;
    if (pArg2 != NULL || (pArg1 != NULL && !bTime)) {
      sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, iOffset,
                    "type modifier is not allowed for type \"%s\"", zName);
      return -1;
    }
    pt->t.eId = eId;
    if (bTime) pt->t.nScale = sql_time_precision(pArg1);
    return 1;
  }
  return 0;
}

sql_type sql_type_new(sql_parse_ctx *p, sql_token tName, const sql_token *pArg1,
                      const sql_token *pArg2) {
  sql_type r;
  coltype t = {0, 0, 0, 0};
  char zErr[200], *zType;
  const char *zName, *zDot;
  int iOffset = sql_token_offset(p, tName), nArg1 = pArg1 ? sql_type_arg(pArg1) : 0, rc;
  int bQuotedChar = tName.n >= 6 && memcmp(tName.z + tName.n - 6, "\"char\"", 6) == 0;
  size_t nType;

  memset(&r, 0, sizeof(r));
  r.tAt = tName;
  if (sql_parse_failed(p)) return r;
  zName = sql__span_text(p, tName);
  if (zName == NULL) return r;
  /* A type of pg_catalog may be named with its schema; no other schema
  ** has types. */
  if ((zDot = strchr(zName, '.')) != NULL) {
    if (strncmp(zName, "pg_catalog.", 11) != 0 || strchr(zDot + 1, '.') != NULL) {
      sql_error_set(p->pErr, SQLSTATE_UNDEFINED_OBJECT, iOffset, "type \"%s\" does not exist",
                    zName);
      return r;
    }
    zName = zDot + 1;
  }
  for (size_t i = 0; i < sizeof(azTypeUnsupported) / sizeof(azTypeUnsupported[0]); i++) {
    if (strcmp(zName, azTypeUnsupported[i]) == 0) {
      sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, iOffset,
                    "type %s is not supported", zName);
      return r;
    }
  }
  if ((rc = sql_type_named(p, zName, bQuotedChar, iOffset, pArg1, pArg2, &r)) != 0) {
    if (rc < 0) memset(&r.t, 0, sizeof(r.t));
    return r;
  }
  if (pArg1 == NULL) {
    /* Words coltype_parse() does not take alone: BOOLEAN is the type of
    ** predicates (casts only; the catalog refuses it for columns), FLOAT is
    ** PostgreSQL's float8, and VARCHAR without a length is unbounded, which
    ** for a dictionary-coded column is TEXT. */
    if (strcmp(zName, "boolean") == 0 || strcmp(zName, "bool") == 0) {
      r.t.eId = COLTYPE_BOOLEAN;
      return r;
    }
    if (strcmp(zName, "float") == 0) zName = "float8";
    if (strcmp(zName, "varchar") == 0 || strcmp(zName, "character varying") == 0 ||
        strcmp(zName, "char varying") == 0) {
      zName = "text";
    }
  }
  nType = strlen(zName) + (pArg1 ? (size_t)pArg1->n : 0) + (pArg2 ? (size_t)pArg2->n : 0) + 4;
  zType = sql__alloc(p, nType);
  if (zType == NULL) return r;
  if (pArg2 != NULL) {
    snprintf(zType, nType, "%s(%.*s,%.*s)", zName, pArg1->n, pArg1->z, pArg2->n, pArg2->z);
  } else if (pArg1 != NULL) {
    snprintf(zType, nType, "%s(%.*s)", zName, pArg1->n, pArg1->z);
  } else {
    snprintf(zType, nType, "%s", zName);
  }
  /* Only a quoted name can hold capitals, and PostgreSQL matches quoted
  ** type names exactly: "Int" is no type, though coltype_parse() would
  ** take it for INT. coltype_parse() says "unknown type" only when the
  ** name itself is unknown; anything else is a known type with bad
  ** modifiers. */
  if (sql_has_capital(zName) || coltype_parse(zType, &t, zErr, sizeof(zErr)) != 0) {
    char zBare[200];
    if (sql_has_capital(zName) || strncmp(zErr, "unknown type", 12) == 0) {
      sql_error_set(p->pErr, SQLSTATE_UNDEFINED_OBJECT, iOffset, "type \"%s\" does not exist",
                    zName);
    } else if (pArg1 != NULL && strncmp(zErr, "malformed", 9) == 0 && nArg1 >= 0 &&
               coltype_parse(zName, &t, zBare, sizeof(zBare)) == 0) {
      /* INT(4), TEXT(10): the name alone is a type, the modifiers are not. */
      sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, iOffset,
                    "type modifier is not allowed for type \"%s\"", zName);
    } else {
      sql_error_set(p->pErr, SQLSTATE_INVALID_PARAMETER, iOffset, "%s", zErr);
    }
    memset(&t, 0, sizeof(t));
  }
  r.t = t;
  return r;
}

sql_type sql_type_qualified(sql_parse_ctx *p, sql_qname name) {
  return sql_type_new(p, name.tSchema.z != NULL ? sql_token_span(name.tSchema, name.tName)
                                                : name.tName,
                      NULL, NULL);
}

sql_type sql_type_time(sql_parse_ctx *p, sql_token tAt, int bTime, sql_token tPrec, int bZone) {
  sql_type r;
  memset(&r, 0, sizeof(r));
  r.tAt = tAt;
  if (sql_parse_failed(p)) return r;
  r.t.eId = bTime ? (bZone ? COLTYPE_TIMETZ : COLTYPE_TIME)
                  : (bZone ? COLTYPE_TIMESTAMPTZ : COLTYPE_TIMESTAMP);
  r.t.nScale = sql_time_precision(&tPrec);
  return r;
}

sql_type sql_type_interval(sql_parse_ctx *p, sql_token tAt, sql_ifields f, const sql_token *pPrec) {
  sql_type r;
  memset(&r, 0, sizeof(r));
  r.tAt = tAt;
  if (sql_parse_failed(p)) return r;
  r.t.eId = COLTYPE_INTERVAL;
  r.t.nLength = f.mFields;
  r.t.nScale = sql_time_precision(pPrec != NULL ? pPrec : &f.tPrec);
  return r;
}

sql_type sql_type_array(sql_parse_ctx *p, sql_type t, int nDim) {
  if (sql_parse_failed(p)) return t;
  t.nArrayDim = nDim;
  return t;
}

/* Returns the COLTYPE_INTERVAL_* bit of field keyword t. */
static int sql_ifield_bit(sql_token t) {
  switch (sql__keyword_code(t.z, t.n)) {
    case TK_YEAR: return COLTYPE_INTERVAL_YEAR;
    case TK_MONTH: return COLTYPE_INTERVAL_MONTH;
    case TK_DAY: return COLTYPE_INTERVAL_DAY;
    case TK_HOUR: return COLTYPE_INTERVAL_HOUR;
    case TK_MINUTE: return COLTYPE_INTERVAL_MINUTE;
    default: return COLTYPE_INTERVAL_SECOND;
  }
}

sql_ifields sql_ifields_new(sql_parse_ctx *p, sql_token tFirst, sql_token tLast,
                            const sql_token *pPrec) {
  sql_ifields f = sql_ifields_none();
  int mFirst = sql_ifield_bit(tFirst), mLast = tLast.z != NULL ? sql_ifield_bit(tLast) : mFirst;
  if (sql_parse_failed(p)) return f;
  /* PostgreSQL's pairs: YEAR TO MONTH, and DAY, HOUR, MINUTE to a later
  ** one of HOUR, MINUTE, SECOND; a precision only on SECOND. */
  if (tLast.z != NULL && (mLast <= mFirst || (mFirst == COLTYPE_INTERVAL_YEAR) !=
                                                 (mLast == COLTYPE_INTERVAL_MONTH) ||
                          mFirst == COLTYPE_INTERVAL_MONTH)) {
    sql__error_syntax(p, tLast);
    return f;
  }
  if (pPrec != NULL && mLast != COLTYPE_INTERVAL_SECOND) {
    sql__error_syntax(p, *pPrec);
    return f;
  }
  f.mFields = (mLast << 1) - mFirst;   /* every field from the first to the last */
  if (pPrec != NULL) f.tPrec = *pPrec;
  return f;
}
