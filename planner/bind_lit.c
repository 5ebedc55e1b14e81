/*
** planner/bind_lit.c — literals: the type of a number as written, dates
** checked and written canonically, string literals read as the type their
** context gives them, and the little constant folding the binder needs
** (LIMIT/OFFSET values, division by a constant zero).
**
** A literal that the binder retypes is rewritten in place, so that what
** the planner sees is a literal of its final type: DATE nodes carry
** "YYYY-MM-DD", INTEGER nodes "-"? digits without leading zeros (the sign
** only where the binder put it: a string such as '-5' read as a number,
** or -9223372036854775808), DECIMAL nodes their text as written (typed
** DOUBLE PRECISION where the context is one; 'NaN' and 'Infinity' then
** stay STRING nodes typed DOUBLE), BOOL nodes bValue. A rewritten tree
** binds again without error; a literal that context had typed then has
** its own type ('5' read as SMALLINT is the INTEGER 5 the second time). A number's range against its type is checked here; a
** DECIMAL literal has the precision and scale of its digits ('1.50' is
** DECIMAL(3,2)), so comparing it with a DECIMAL(15,2) column never rounds
** it, as PostgreSQL's unconstrained numeric would not.
**
** INTERFACE ROUTINES
**   bind__number, bind__date, bind__literal_coerce, bind__is_unknown,
**   bind__const_double, bind__const_int (bindInt.h)
*/
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/datetime.h"
#include "bindInt.h"

int bind__is_unknown(const sql_expr *e) {
  return e != NULL && (e->eKind == SQL_EXPR_STRING || e->eKind == SQL_EXPR_NULL);
}

/* ---- numbers --------------------------------------------------------------- */

/* What a numeric text holds: its digits (leading zeros dropped), where the
** decimal point was and its exponent. */
typedef struct bind_num bind_num;
struct bind_num {
  int bNeg;
  int nDigit;              /* significant digits of the mantissa */
  int nFrac;               /* mantissa digits after the point (zeros included) */
  long nExp;               /* the exponent */
  int bPoint;              /* a '.' or an exponent was written */
  char zDigit[40];         /* the first digits, for integers */
};

/* Parses [space][sign]digits[.digits][e[sign]digits][space]. Returns 0, or
** -1 if z is not a number. */
static int bind_num_parse(const char *z, int bSign, bind_num *n) {
  int nMant = 0;
  memset(n, 0, sizeof(*n));
  while (isspace((unsigned char)*z)) z++;
  if (bSign && (*z == '-' || *z == '+')) n->bNeg = *z++ == '-';
  for (; isdigit((unsigned char)*z) || *z == '.'; z++) {
    if (*z == '.') {
      if (n->bPoint) return -1;
      n->bPoint = 1;
      continue;
    }
    nMant++;
    if (n->bPoint) n->nFrac++;
    if (n->nDigit == 0 && *z == '0') continue;
    if (n->nDigit < (int)sizeof(n->zDigit) - 1) n->zDigit[n->nDigit] = *z;
    n->nDigit++;
  }
  if (nMant == 0) return -1;
  if (*z == 'e' || *z == 'E') {
    int bNegExp = 0, nExpDigit = 0;
    z++;
    if (*z == '-' || *z == '+') bNegExp = *z++ == '-';
    for (; isdigit((unsigned char)*z); z++, nExpDigit++) {
      if (n->nExp < 100000) n->nExp = n->nExp * 10 + (*z - '0');
    }
    if (nExpDigit == 0) return -1;
    if (bNegExp) n->nExp = -n->nExp;
    n->bPoint = 1;
  }
  while (isspace((unsigned char)*z)) z++;
  return *z == 0 ? 0 : -1;
}

/* The DECIMAL type a parsed number needs. Returns 0, or -1 if it needs
** more than 18 digits. */
static int bind_num_decimal(const bind_num *n, coltype *pt) {
  long nScale = n->nFrac - n->nExp, nPrec = n->nDigit;
  coltype t = {COLTYPE_DECIMAL, 0, 0, 0};
  /* Zeros between the last digit and the point count as digits:
  ** 1e3 is 1000, DECIMAL(4,0). Trailing fraction digits are kept. */
  if (nScale < 0) {
    nPrec += n->nDigit > 0 ? -nScale : 0;
    nScale = 0;
  }
  if (nPrec < nScale) nPrec = nScale;
  if (nPrec < 1) nPrec = 1;
  if (nPrec > COLTYPE_DECIMAL_PRECISION_MAX) return -1;
  t.nPrecision = (int32_t)nPrec;
  t.nScale = (int32_t)nScale;
  *pt = t;
  return 0;
}

/* Returns the integer value of a parsed number with no point, or sets *pb
** if it does not fit an int64 (negative values may reach -2^63). */
static int64_t bind_num_int(const bind_num *n, int *pbOverflow) {
  uint64_t v = 0, nMax = n->bNeg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  *pbOverflow = 0;
  if (n->nDigit > 19) {
    *pbOverflow = 1;
    return 0;
  }
  for (int i = 0; i < n->nDigit; i++) {
    unsigned d = (unsigned)(n->zDigit[i] - '0');
    if (v > (nMax - d) / 10) {
      *pbOverflow = 1;
      return 0;
    }
    v = v * 10 + d;
  }
  return n->bNeg ? (int64_t)(0 - v) : (int64_t)v;
}

/* Writes a parsed integer canonically into the arena: [-]digits. */
static const char *bind_num_text(bind_ctx *p, const bind_num *n) {
  char z[48];
  snprintf(z, sizeof(z), "%s%.*s", n->bNeg && n->nDigit > 0 ? "-" : "", n->nDigit > 0 ? n->nDigit : 1,
           n->nDigit > 0 ? n->zDigit : "0");
  return bind__strdup(p, z);
}

int bind__number(bind_ctx *p, sql_expr *e) {
  bind_num n;
  /* A sign is the binder's own (see above), met when a tree is bound again. */
  if (e->zText == NULL || bind_num_parse(e->zText, 1, &n) != 0 ||
      (e->eKind == SQL_EXPR_INTEGER && n.bPoint)) {
    sql_error_set(p->pErr, SQLSTATE_INVALID_TEXT_REP, e->iOffset,
                  "invalid input syntax for type %s: \"%s\"",
                  e->eKind == SQL_EXPR_INTEGER ? "integer" : "numeric",
                  e->zText != NULL ? e->zText : "");
    return -1;
  }
  if (e->eKind == SQL_EXPR_INTEGER) {
    int bOverflow;
    int64_t v = bind_num_int(&n, &bOverflow);
    /* PostgreSQL makes a longer integer NUMERIC; starq's DECIMAL has 18
    ** digits, fewer than any integer past BIGINT. */
    if (bOverflow) {
      sql_error_set(p->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, e->iOffset,
                    "value \"%s\" is out of range for type bigint", e->zText);
      return -1;
    }
    e->b.type.eId = v >= INT32_MIN && v <= INT32_MAX ? COLTYPE_INTEGER : COLTYPE_BIGINT;
    return 0;
  }
  if (bind_num_decimal(&n, &e->b.type) != 0) {
    sql_error_set(p->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, e->iOffset,
                  "value \"%s\" is out of range: starq's DECIMAL holds at most %d digits",
                  e->zText, COLTYPE_DECIMAL_PRECISION_MAX);
    return -1;
  }
  return 0;
}

/* ---- dates ------------------------------------------------------------------- */

/* The words whose date depends on the clock ("today", "now", ...): a
** literal is folded when the statement is bound, which is not when it
** runs, so starq refuses them as it always has. */
static int bind_date_is_relative(const char *z) {
  static const char *const azWord[] = {"now", "today", "tomorrow", "yesterday"};
  while (*z) {
    size_t n = 0;
    while (isalpha((unsigned char)z[n])) n++;
    for (size_t i = 0; n > 0 && i < sizeof(azWord) / sizeof(azWord[0]); i++) {
      if (strlen(azWord[i]) == n && strncasecmp(z, azWord[i], n) == 0) return 1;
    }
    z += n > 0 ? n : 1;
  }
  return 0;
}

/* Checks zText as a date for node e, as PostgreSQL's date_in reads it
** (dt_date_parse: ISO with a time of day or a zone after it, which a date
** drops, "1998-01-02 00:00:00+00" as pgjdbc's setTimestamp sends it,
** yyyymmdd, month names, DateStyle MDY), and on success rewrites e as a
** DATE literal with canonical text. Years run 1..9999: starq stores dates
** as yyyymmdd and has no BC or infinity. */
static int bind_date_set(bind_ctx *p, sql_expr *e, const char *zText) {
  dt_session ses;
  sql_error err;
  char z[16];
  int32_t date;
  int y, m, d;
  memset(&ses, 0, sizeof(ses));
  sql_error_clear(&err);
  if (bind_date_is_relative(zText)) {
    sql_error_set(p->pErr, SQLSTATE_INVALID_DATETIME_FORMAT, e->iOffset,
                  "invalid input syntax for type date: \"%s\"", zText);
    return -1;
  }
  if (dt_date_parse(zText, strlen(zText), &ses, &date, &err) != 0) {
    sql_error_set(p->pErr, err.zState, e->iOffset, "%s", err.zMsg);
    return -1;
  }
  if (date == DT_DATE_NOBEGIN || date == DT_DATE_NOEND) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "infinite dates are not supported: \"%s\"", zText);
    return -1;
  }
  dt_date_to_ymd(date, &y, &m, &d);
  if (y < 1 || y > 9999) {
    sql_error_set(p->pErr, SQLSTATE_INVALID_DATETIME, e->iOffset,
                  "date/time field value out of range: \"%s\"", zText);
    return -1;
  }
  snprintf(z, sizeof(z), "%04d-%02d-%02d", y, m, d);
  if ((e->zText = bind__strdup(p, z)) == NULL) return -1;
  e->eKind = SQL_EXPR_DATE;
  memset(&e->b.type, 0, sizeof(e->b.type));
  e->b.type.eId = COLTYPE_DATE;
  return 0;
}

int bind__date(bind_ctx *p, sql_expr *e) {
  return bind_date_set(p, e, e->zText != NULL ? e->zText : "");
}

/* ---- unknown literals given a type ------------------------------------------ */

/* Reads a boolean as PostgreSQL's boolin does: t/true/y/yes/on/1 and
** f/false/n/no/off/0, any case, any unique prefix, blanks around.
** Returns 1 or 0, or -1 if it is neither. */
static int bind_bool_parse(const char *z) {
  static const struct { const char *zWord; int nMin; int bValue; } aWord[] = {
      {"true", 1, 1}, {"yes", 1, 1}, {"on", 2, 1}, {"1", 1, 1},
      {"false", 1, 0}, {"no", 1, 0}, {"off", 2, 0}, {"0", 1, 0},
  };
  size_t n;
  while (isspace((unsigned char)*z)) z++;
  n = strlen(z);
  while (n > 0 && isspace((unsigned char)z[n - 1])) n--;
  for (size_t i = 0; i < sizeof(aWord) / sizeof(aWord[0]); i++) {
    if (n >= (size_t)aWord[i].nMin && n <= strlen(aWord[i].zWord) &&
        strncasecmp(z, aWord[i].zWord, n) == 0) {
      return aWord[i].bValue;
    }
  }
  return -1;
}

/* Reads string literal e as a number of type t and rewrites it. */
static int bind_coerce_number(bind_ctx *p, sql_expr *e, coltype t) {
  const char *zText = e->zText != NULL ? e->zText : "";
  const char *zType = bind__coltype_name(t);
  bind_num n;

  if (t.eId == COLTYPE_DOUBLE) {
    /* float8in: a number, or NaN / Infinity spelt out. */
    char *zEnd;
    errno = 0;
    (void)strtod(zText, &zEnd);
    while (isspace((unsigned char)*zEnd)) zEnd++;
    if (zEnd == zText || *zEnd != 0) goto invalid;
    if (errno == ERANGE) {
      sql_error_set(p->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, e->iOffset,
                    "\"%s\" is out of range for type double precision", zText);
      return -1;
    }
    /* NaN and Infinity stay strings (typed DOUBLE): no number node holds them. */
    if (bind_num_parse(zText, 1, &n) == 0) e->eKind = SQL_EXPR_DECIMAL;
    e->b.type = t;
    return 0;
  }
  if (bind_num_parse(zText, 1, &n) != 0) goto invalid;
  if (t.eId == COLTYPE_DECIMAL) {
    if (bind_num_decimal(&n, &e->b.type) != 0) {
      sql_error_set(p->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, e->iOffset,
                    "value \"%s\" is out of range: starq's DECIMAL holds at most %d digits",
                    zText, COLTYPE_DECIMAL_PRECISION_MAX);
      return -1;
    }
    e->eKind = SQL_EXPR_DECIMAL;
    return 0;
  }
  if (n.bPoint) goto invalid;                   /* '1.5' is not an integer */
  {
    int bOverflow;
    int64_t v = bind_num_int(&n, &bOverflow);
    int64_t nMin = t.eId == COLTYPE_SMALLINT ? INT16_MIN
                 : t.eId == COLTYPE_INTEGER  ? INT32_MIN : INT64_MIN;
    int64_t nMax = t.eId == COLTYPE_SMALLINT ? INT16_MAX
                 : t.eId == COLTYPE_INTEGER  ? INT32_MAX : INT64_MAX;
    if (bOverflow || v < nMin || v > nMax) {
      sql_error_set(p->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, e->iOffset,
                    "value \"%s\" is out of range for type %s", zText, zType);
      return -1;
    }
    if ((e->zText = bind_num_text(p, &n)) == NULL) return -1;
    e->eKind = SQL_EXPR_INTEGER;
    e->b.type = t;
    return 0;
  }
invalid:
  sql_error_set(p->pErr, SQLSTATE_INVALID_TEXT_REP, e->iOffset,
                "invalid input syntax for type %s: \"%s\"", zType, zText);
  return -1;
}

int bind__literal_coerce(bind_ctx *p, sql_expr *e, coltype t) {
  if (e->eKind == SQL_EXPR_NULL) {
    e->b.type = t;
    return 0;
  }
  if (e->eKind != SQL_EXPR_STRING) return 0;
  if (bind__is_oid_type(t.eId)) {
    /* regclass and its kin compare through oid's operators (binary
    ** coercible), so the literal is an oid there, as in PostgreSQL. */
    return bind__reg_literal(p, e, (coltype){COLTYPE_OID, 0, 0, 0});
  }
  switch (t.eId) {
    case COLTYPE_DATE:
      return bind_date_set(p, e, e->zText != NULL ? e->zText : "");
    case COLTYPE_SMALLINT:
    case COLTYPE_INTEGER:
    case COLTYPE_BIGINT:
    case COLTYPE_DECIMAL:
    case COLTYPE_DOUBLE:
      return bind_coerce_number(p, e, t);
    case COLTYPE_BOOLEAN: {
      int b = bind_bool_parse(e->zText != NULL ? e->zText : "");
      if (b < 0) {
        sql_error_set(p->pErr, SQLSTATE_INVALID_TEXT_REP, e->iOffset,
                      "invalid input syntax for type boolean: \"%s\"",
                      e->zText != NULL ? e->zText : "");
        return -1;
      }
      e->eKind = SQL_EXPR_BOOL;
      e->bValue = (unsigned)b;
      memset(&e->b.type, 0, sizeof(e->b.type));
      e->b.type.eId = COLTYPE_BOOLEAN;
      return 0;
    }
    case COLTYPE_CHAR:
    case COLTYPE_VARCHAR:
    case COLTYPE_TEXT:
    case COLTYPE_UNKNOWN:
      return 0;                                 /* text it is, and stays */
    COLTYPE_CASE_NAMED_ONLY:
      return 0;                                 /* refused before: bind_cast */
  }
  return 0;
}

/* ---- constant folding --------------------------------------------------------- */

int bind__const_double(const sql_expr *e, double *pr) {
  double a, b;
  if (e == NULL) return 0;
  switch (e->eKind) {
    case SQL_EXPR_INTEGER:
    case SQL_EXPR_DECIMAL:
      if (e->zText == NULL) return 0;
      *pr = strtod(e->zText, NULL);
      return 1;
    case SQL_EXPR_UNARY:
      if (e->eOp == SQL_OP_NOT || !bind__const_double(e->pLeft, &a)) return 0;
      *pr = e->eOp == SQL_OP_NEG ? -a : a;
      return 1;
    case SQL_EXPR_CAST:
      return bind__const_double(e->pLeft, pr);
    case SQL_EXPR_BINARY:
      if (!bind__const_double(e->pLeft, &a) || !bind__const_double(e->pRight, &b)) return 0;
      switch (e->eOp) {
        case SQL_OP_ADD: *pr = a + b; return 1;
        case SQL_OP_SUB: *pr = a - b; return 1;
        case SQL_OP_MUL: *pr = a * b; return 1;
        case SQL_OP_DIV:
          if (b == 0.0) return 0;
          *pr = a / b;
          /* Integer division truncates: 1/2 is 0, and 1/(1/2) divides by zero. */
          if (e->b.type.eId != COLTYPE_DOUBLE && e->b.type.eId != COLTYPE_DECIMAL) *pr = trunc(*pr);
          return 1;
        case SQL_OP_MOD:
          if (b == 0.0) return 0;
          *pr = fmod(a, b);
          return 1;
        default:
          return 0;
      }
    default:
      return 0;
  }
}

int bind__const_int(bind_ctx *p, const sql_expr *e, int64_t *pv) {
  int64_t a, b;
  int rc;
  switch (e->eKind) {
    case SQL_EXPR_NULL:
      return 0;
    case SQL_EXPR_INTEGER: {
      bind_num n;
      int bOverflow;
      if (e->zText == NULL || bind_num_parse(e->zText, 1, &n) != 0) break;
      *pv = bind_num_int(&n, &bOverflow);
      if (bOverflow) break;
      return 1;
    }
    case SQL_EXPR_CAST:
      return bind__const_int(p, e->pLeft, pv);
    case SQL_EXPR_UNARY:
      if ((rc = bind__const_int(p, e->pLeft, &a)) <= 0) return rc;
      if (e->eOp == SQL_OP_NEG) {
        if (a == INT64_MIN) goto out_of_range;
        a = -a;
      }
      *pv = a;
      return 1;
    case SQL_EXPR_BINARY:
      if ((rc = bind__const_int(p, e->pLeft, &a)) <= 0) return rc;
      if ((rc = bind__const_int(p, e->pRight, &b)) <= 0) return rc;
      switch (e->eOp) {
        case SQL_OP_ADD:
          if (__builtin_add_overflow(a, b, pv)) goto out_of_range;
          return 1;
        case SQL_OP_SUB:
          if (__builtin_sub_overflow(a, b, pv)) goto out_of_range;
          return 1;
        case SQL_OP_MUL:
          if (__builtin_mul_overflow(a, b, pv)) goto out_of_range;
          return 1;
        case SQL_OP_DIV:
        case SQL_OP_MOD:
          if (b == 0) {
            sql_error_set(p->pErr, SQLSTATE_DIVISION_BY_ZERO, e->iOffset, "division by zero");
            return -1;
          }
          if (a == INT64_MIN && b == -1) {
            if (e->eOp == SQL_OP_MOD) {
              *pv = 0;
              return 1;
            }
            goto out_of_range;
          }
          *pv = e->eOp == SQL_OP_DIV ? a / b : a % b;
          return 1;
        default:
          break;
      }
      break;
    default:
      break;
  }
  sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                "only integer constants and arithmetic on them are supported here");
  return -1;
out_of_range:
  sql_error_set(p->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, e->iOffset, "bigint out of range");
  return -1;
}
