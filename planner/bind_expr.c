/*
** planner/bind_expr.c — typing expressions by PostgreSQL's rules, with
** starq's fixed-width types (bind.h states the rules).
**
** Each node is bound after its children (so an error inside an argument
** is reported before one about the whole, as PostgreSQL does) and gets
** its type, whether it is constant and whether an aggregate is below it.
**
** Unknown-typed literals: a string literal or NULL has no type of its
** own until context gives it one, as in PostgreSQL. Next to a typed
** operand it takes that operand's type: the text is checked then (so
** d_datekey = '1997-13-01' fails here with 22008, not at run time) and
** the node is rewritten as a literal of that type (bind_lit.c). A string
** literal that nothing types stays SQL_EXPR_STRING with type TEXT; a NULL
** that nothing types stays COLTYPE_UNKNOWN.
**
** Operand mismatches are 42804 ("operator does not exist: date =
** integer") where PostgreSQL says 42883: starq keeps 42883 for unknown
** functions, so a client can tell a misspelt function from a type error.
**
** INTERFACE ROUTINES
**   bind__expr, bind__condition, bind__unify,
**   bind__type_name, bind__coltype_name (bindInt.h)
*/
#include <string.h>

#include "../parser/parser.h"
#include "bindInt.h"

/* Type families: what compares with what. */
typedef enum bind_family {
  BIND_FAMILY_NONE = 0,
  BIND_FAMILY_NUMBER,
  BIND_FAMILY_STRING,
  BIND_FAMILY_DATE,
  BIND_FAMILY_BOOL,
} bind_family;

static const coltype bind_tText = {COLTYPE_TEXT, 0, 0, 0};
static const coltype bind_tBool = {COLTYPE_BOOLEAN, 0, 0, 0};
static const coltype bind_tInt = {COLTYPE_INTEGER, 0, 0, 0};
static const coltype bind_tDate = {COLTYPE_DATE, 0, 0, 0};

static int bind_is_int(coltype t) {
  return t.eId == COLTYPE_SMALLINT || t.eId == COLTYPE_INTEGER || t.eId == COLTYPE_BIGINT;
}

static bind_family bind_family_of(coltype t) {
  switch (t.eId) {
    case COLTYPE_SMALLINT:
    case COLTYPE_INTEGER:
    case COLTYPE_BIGINT:
    case COLTYPE_DOUBLE:
    case COLTYPE_DECIMAL: return BIND_FAMILY_NUMBER;
    case COLTYPE_CHAR:
    case COLTYPE_VARCHAR:
    case COLTYPE_TEXT: return BIND_FAMILY_STRING;
    case COLTYPE_DATE: return BIND_FAMILY_DATE;
    case COLTYPE_BOOLEAN: return BIND_FAMILY_BOOL;
    /* The catalog's types, in virtual relations (host queries only):
    ** name and "char" compare as strings, oids as integers. */
    case COLTYPE_NAME:
    case COLTYPE_PGCHAR: return BIND_FAMILY_STRING;
    case COLTYPE_OID:
    case COLTYPE_REGCLASS:
    case COLTYPE_REGTYPE:
    case COLTYPE_REGPROC:
    case COLTYPE_REGNAMESPACE: return BIND_FAMILY_NUMBER;
    case COLTYPE_UNKNOWN:
    case COLTYPE_TIMESTAMP: case COLTYPE_TIMESTAMPTZ: case COLTYPE_TIME: case COLTYPE_TIMETZ:
    case COLTYPE_INTERVAL: case COLTYPE_NUMERIC: case COLTYPE_FLOAT4: case COLTYPE_ARRAY:
    case COLTYPE_INT2VECTOR: case COLTYPE_OIDVECTOR: case COLTYPE_ACLITEM:
    case COLTYPE_PG_NODE_TREE: case COLTYPE_XID: case COLTYPE_INET: case COLTYPE_BYTEA:
    case COLTYPE_ANYARRAY: break;            /* refused where named: bind_cast */
  }
  return BIND_FAMILY_NONE;
}

const char *bind__coltype_name(coltype t) {
  switch (t.eId) {
    case COLTYPE_SMALLINT: return "smallint";
    case COLTYPE_INTEGER: return "integer";
    case COLTYPE_BIGINT: return "bigint";
    case COLTYPE_DOUBLE: return "double precision";
    case COLTYPE_DECIMAL: return "numeric";
    case COLTYPE_DATE: return "date";
    case COLTYPE_CHAR: return "character";
    case COLTYPE_VARCHAR: return "character varying";
    case COLTYPE_TEXT: return "text";
    case COLTYPE_BOOLEAN: return "boolean";
    case COLTYPE_TIMESTAMP: return "timestamp without time zone";
    case COLTYPE_TIMESTAMPTZ: return "timestamp with time zone";
    case COLTYPE_TIME: return "time without time zone";
    case COLTYPE_TIMETZ: return "time with time zone";
    case COLTYPE_INTERVAL: return "interval";
    case COLTYPE_NUMERIC: return "numeric";
    case COLTYPE_FLOAT4: return "real";
    case COLTYPE_OID: return "oid";
    case COLTYPE_REGCLASS: return "regclass";
    case COLTYPE_REGTYPE: return "regtype";
    case COLTYPE_REGPROC: return "regproc";
    case COLTYPE_NAME: return "name";
    case COLTYPE_PGCHAR: return "\"char\"";
    case COLTYPE_ARRAY: return "anyarray";
    case COLTYPE_INT2VECTOR: return "int2vector";
    case COLTYPE_OIDVECTOR: return "oidvector";
    case COLTYPE_ACLITEM: return "aclitem";
    case COLTYPE_PG_NODE_TREE: return "pg_node_tree";
    case COLTYPE_XID: return "xid";
    case COLTYPE_INET: return "inet";
    case COLTYPE_BYTEA: return "bytea";
    case COLTYPE_ANYARRAY: return "anyarray";
    case COLTYPE_REGNAMESPACE: return "regnamespace";
    case COLTYPE_UNKNOWN: break;
  }
  return "unknown";
}

const char *bind__type_name(const sql_expr *e) {
  if (e->eKind == SQL_EXPR_STRING) return "unknown";
  return bind__coltype_name(e->b.type);
}

/* Returns 1 if e is a string literal, or a NULL nothing has typed yet. */
static int bind_untyped(const sql_expr *e) {
  return e->eKind == SQL_EXPR_STRING ||
         (e->eKind == SQL_EXPR_NULL && e->b.type.eId == COLTYPE_UNKNOWN);
}

/* Folds child c's flags into parent e (whose bConstant starts at 1). */
static void bind_inherit(sql_expr *e, const sql_expr *c) {
  if (c == NULL) return;
  e->b.bConstant = e->b.bConstant && c->b.bConstant;
  e->b.bHasAgg = e->b.bHasAgg || c->b.bHasAgg;
}

/* Records 42883 "operator does not exist: a op b" (b NULL: prefix op), as
** PostgreSQL does for every operator its resolution finds no candidate for. */
static int bind_no_operator(bind_ctx *p, const sql_expr *a, const char *zOp, const sql_expr *b,
                            int iOffset) {
  if (b == NULL) {
    sql_error_set(p->pErr, SQLSTATE_UNDEFINED_FUNCTION, iOffset,
                  "operator does not exist: %s %s", zOp, bind__type_name(a));
  } else {
    sql_error_set(p->pErr, SQLSTATE_UNDEFINED_FUNCTION, iOffset,
                  "operator does not exist: %s %s %s", bind__type_name(a), zOp,
                  bind__type_name(b));
  }
  return -1;
}

/* ---- numeric result types ------------------------------------------------- */

/* Decimal digits an integer type needs, for mixing it with DECIMAL. */
static int bind_int_digits(coltype t) {
  return t.eId == COLTYPE_SMALLINT ? 5 : t.eId == COLTYPE_INTEGER ? 10 : 19;
}

/* Sets *pp and *ps to t's precision and scale as a DECIMAL. */
static void bind_as_decimal(coltype t, int *pp, int *ps) {
  if (t.eId == COLTYPE_DECIMAL) {
    *pp = t.nPrecision;
    *ps = t.nScale;
  } else {
    *pp = bind_int_digits(t);
    *ps = 0;
  }
}

static coltype bind_decimal(int nPrecision, int nScale) {
  coltype t = {COLTYPE_DECIMAL, 0, 0, 0};
  if (nPrecision > COLTYPE_DECIMAL_PRECISION_MAX) nPrecision = COLTYPE_DECIMAL_PRECISION_MAX;
  if (nPrecision < nScale) nPrecision = nScale;
  if (nPrecision < 1) nPrecision = 1;
  t.nPrecision = nPrecision;
  t.nScale = nScale;
  return t;
}

/* The type of a op b for numbers a and b. Integers widen to the wider;
** DOUBLE wins over all; otherwise DECIMAL, whose scale follows the
** operator (+ - %: the larger; *: the sum; /: at least 6) and whose
** precision is capped at 18 (overflow of the integer digits is checked at
** run time, 22003, as for SUM). A scale past 18 cannot be stored at all:
** 0A000 rather than a silently rounded result. */
static int bind_numeric_result(bind_ctx *p, sql_expr *e, coltype a, coltype b, coltype *pt) {
  int pa, sa, pb, sb, s, nInt;
  if (a.eId == COLTYPE_DOUBLE || b.eId == COLTYPE_DOUBLE) {
    coltype t = {COLTYPE_DOUBLE, 0, 0, 0};
    *pt = t;
    return 0;
  }
  if (bind_is_int(a) && bind_is_int(b)) {
    *pt = a.eId >= b.eId ? a : b;          /* SMALLINT < INTEGER < BIGINT */
    return 0;
  }
  bind_as_decimal(a, &pa, &sa);
  bind_as_decimal(b, &pb, &sb);
  switch (e->eOp) {
    case SQL_OP_MUL:
      s = sa + sb;
      nInt = (pa - sa) + (pb - sb);
      break;
    case SQL_OP_DIV:
      s = sa > sb ? sa : sb;
      if (s < 6) s = 6;
      nInt = (pa - sa) + sb;
      break;
    case SQL_OP_MOD:
      s = sa > sb ? sa : sb;
      nInt = (pa - sa) < (pb - sb) ? (pa - sa) : (pb - sb);
      break;
    default:                                /* + - */
      s = sa > sb ? sa : sb;
      nInt = ((pa - sa) > (pb - sb) ? (pa - sa) : (pb - sb)) + 1;
      break;
  }
  if (s > COLTYPE_DECIMAL_PRECISION_MAX) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "numeric result of %s would need %d digits after the decimal point;"
                  " starq's DECIMAL holds at most %d digits", sql_op_text(e->eOp), s,
                  COLTYPE_DECIMAL_PRECISION_MAX);
    return -1;
  }
  *pt = bind_decimal(nInt + s, s);
  return 0;
}

/* ---- conditions and comparisons ------------------------------------------ */

/* Checks that bound e is BOOLEAN, giving an unknown literal that type;
** zWhat names the construct in "argument of WHERE must be type boolean". */
static int bind_want_bool(bind_ctx *p, sql_expr *e, const char *zWhat) {
  if (bind__is_unknown(e)) return bind__literal_coerce(p, e, bind_tBool);
  if (e->b.type.eId == COLTYPE_BOOLEAN) return 0;
  sql_error_set(p->pErr, SQLSTATE_DATATYPE_MISMATCH, e->iOffset,
                "argument of %s must be type boolean, not type %s", zWhat, bind__type_name(e));
  return -1;
}

int bind__condition(bind_ctx *p, sql_expr *e, const char *zWhat) {
  if (bind__expr(p, e) != 0) return -1;
  return bind_want_bool(p, e, zWhat);
}

/* Checks a zOp b for a comparison: both of one family, an unknown literal
** first taking the other side's type (two unknowns compare as text). */
static int bind_compare(bind_ctx *p, sql_expr *a, sql_expr *b, const char *zOp, int iOffset) {
  int bUnknownA = bind__is_unknown(a), bUnknownB = bind__is_unknown(b);
  bind_family fa, fb;
  if (bUnknownA && bUnknownB) {
    return bind__literal_coerce(p, a, bind_tText) || bind__literal_coerce(p, b, bind_tText) ? -1
                                                                                          : 0;
  }
  if (bUnknownA) return bind__literal_coerce(p, a, b->b.type);
  if (bUnknownB) return bind__literal_coerce(p, b, a->b.type);
  fa = bind_family_of(a->b.type);
  fb = bind_family_of(b->b.type);
  if (fa != BIND_FAMILY_NONE && fa == fb) return 0;
  return bind_no_operator(p, a, zOp, b, iOffset);
}

int bind__comparable(coltype a, coltype b) {
  bind_family fa = bind_family_of(a);
  return fa != BIND_FAMILY_NONE && fa == bind_family_of(b);
}

/* ---- operators ------------------------------------------------------------- */

/* Types a + - * / % b. Numbers give numbers; a date plus or minus an
** integer is a date and a date minus a date is an integer, as in
** PostgreSQL. A constant division by a constant zero is 22012 now. */
static int bind_arith(bind_ctx *p, sql_expr *e) {
  sql_expr *a = e->pLeft, *b = e->pRight;
  const char *zOp = sql_op_text(e->eOp);
  bind_family fa, fb;

  if (bind__is_unknown(a) && bind__is_unknown(b)) {
    sql_error_set(p->pErr, SQLSTATE_AMBIGUOUS_FUNCTION, e->iOffset,
                  "operator is not unique: unknown %s unknown", zOp);
    return -1;
  }
  /* An unknown literal takes the other side's type where that type has
  ** arithmetic: a number's, or next to a date an integer for + and a
  ** date for - (date - '1997-01-01' is a date difference). */
  for (int i = 0; i < 2; i++) {
    sql_expr *u = i == 0 ? a : b, *k = i == 0 ? b : a;
    bind_family fk = bind_family_of(k->b.type);
    if (!bind__is_unknown(u)) continue;
    if (fk == BIND_FAMILY_NUMBER) {
      if (bind__literal_coerce(p, u, k->b.type) != 0) return -1;
    } else if (fk == BIND_FAMILY_DATE && (e->eOp == SQL_OP_ADD || e->eOp == SQL_OP_SUB)) {
      int bDate = e->eOp == SQL_OP_SUB;
      if (bind__literal_coerce(p, u, bDate ? bind_tDate : bind_tInt) != 0) return -1;
    }
  }
  fa = bind_family_of(a->b.type);
  fb = bind_family_of(b->b.type);
  if (bind_untyped(a) || bind_untyped(b)) return bind_no_operator(p, a, zOp, b, e->iOffset);
  if (fa == BIND_FAMILY_NUMBER && fb == BIND_FAMILY_NUMBER &&
      !(e->eOp == SQL_OP_MOD &&
        (a->b.type.eId == COLTYPE_DOUBLE || b->b.type.eId == COLTYPE_DOUBLE))) {
    /* (PostgreSQL has no % for double precision.) */
    double r;
    if (bind_numeric_result(p, e, a->b.type, b->b.type, &e->b.type) != 0) return -1;
    if ((e->eOp == SQL_OP_DIV || e->eOp == SQL_OP_MOD) && a->b.bConstant && b->b.bConstant &&
        bind__const_double(b, &r) && r == 0.0) {
      sql_error_set(p->pErr, SQLSTATE_DIVISION_BY_ZERO, e->iOffset, "division by zero");
      return -1;
    }
    return 0;
  }
  if (fa == BIND_FAMILY_DATE && bind_is_int(b->b.type) &&
      (e->eOp == SQL_OP_ADD || e->eOp == SQL_OP_SUB)) {
    e->b.type = bind_tDate;
    return 0;
  }
  if (bind_is_int(a->b.type) && fb == BIND_FAMILY_DATE && e->eOp == SQL_OP_ADD) {
    e->b.type = bind_tDate;
    return 0;
  }
  if (fa == BIND_FAMILY_DATE && fb == BIND_FAMILY_DATE && e->eOp == SQL_OP_SUB) {
    e->b.type = bind_tInt;
    return 0;
  }
  return bind_no_operator(p, a, zOp, b, e->iOffset);
}

/* A host query's a ~ b, ~*, !~, !~*: PostgreSQL's functions behind them
** (textregexeq and its kin, name... for a name on the left), called
** through func/'s registry. Returns 0, -1, or 1 if e is no such operator
** or no overload fits (then refused as before). */
static int bind_regex_op(bind_ctx *p, sql_expr *e) {
  static const char *const azText[] = {"textregexeq", "texticregexeq", "textregexne", "texticregexne"};
  static const char *const azName[] = {"nameregexeq", "nameicregexeq", "nameregexne", "nameicregexne"};
  sql_expr_list *pList;
  sql_expr *a = e->pLeft, *b = e->pRight;
  int i, rc;
  switch (e->eOp) {
    case SQL_OP_REGEX: i = 0; break;
    case SQL_OP_IREGEX: i = 1; break;
    case SQL_OP_NOT_REGEX: i = 2; break;
    case SQL_OP_NOT_IREGEX: i = 3; break;
    default: return 1;
  }
  if (e->zSchema != NULL && strcmp(e->zSchema, "pg_catalog") != 0) return 1;
  pList = arena_alloc(p->pArena, sizeof(sql_expr_list));
  if (pList == NULL || (pList->a = arena_alloc(p->pArena, sizeof(sql_expr_item) * 2)) == NULL) {
    return bind__oom(p);
  }
  memset(pList->a, 0, sizeof(sql_expr_item) * 2);
  pList->n = pList->nAlloc = 2;
  pList->a[0].pExpr = a;
  pList->a[1].pExpr = b;
  e->eKind = SQL_EXPR_FUNC;
  e->zName = a->b.type.eId == COLTYPE_NAME ? azName[i] : azText[i];
  e->pList = pList;
  e->pLeft = e->pRight = NULL;
  if ((rc = bind__registry_func(p, e)) != 0) {
    /* Back as it was written, for the refusal. */
    e->eKind = SQL_EXPR_BINARY;
    e->pLeft = a;
    e->pRight = b;
    e->pList = NULL;
    return rc;
  }
  bind_inherit(e, a);
  bind_inherit(e, b);
  return 0;
}

/* a || b: text || text, or a string beside any other type (anytextcat,
** textanycat: its output text); unknown literals are text. Two operands
** of no string type have no candidate (42883), as in PostgreSQL. */
static int bind_concat(bind_ctx *p, sql_expr *e) {
  sql_expr *a = e->pLeft, *b = e->pRight;
  int bA = coltype_is_string(a->b.type) || bind_untyped(a);
  int bB = coltype_is_string(b->b.type) || bind_untyped(b);
  if (!bA && !bB) return bind_no_operator(p, a, "||", b, e->iOffset);
  if (bind_untyped(a) && bind__literal_coerce(p, a, bind_tText) != 0) return -1;
  if (bind_untyped(b) && bind__literal_coerce(p, b, bind_tText) != 0) return -1;
  e->b.type = bind_tText;
  return 0;
}

static int bind_expr_kind(bind_ctx *p, sql_expr *e);

static int bind_binary(bind_ctx *p, sql_expr *e) {
  int rc;
  if (e->pLeft == NULL || e->pRight == NULL) {
    sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "operator without an operand");
    return -1;
  }
  if ((rc = bind__chain_to_in(p, e)) != 0) return rc < 0 ? -1 : bind_expr_kind(p, e);
  if (bind__expr(p, e->pLeft) != 0 || bind__expr(p, e->pRight) != 0) return -1;
  if (p->pEnv != NULL && p->pEnv->bHostFuncs) {
    rc = bind_regex_op(p, e);
    if (rc <= 0) return rc;
  }
  if (e->eOp == SQL_OP_CONCAT && (e->zSchema == NULL || strcmp(e->zSchema, "pg_catalog") == 0)) {
    bind_inherit(e, e->pLeft);
    bind_inherit(e, e->pRight);
    return bind_concat(p, e);
  }
  if (bind__refuse_expr(p, e) != 0) return -1;
  bind_inherit(e, e->pLeft);
  bind_inherit(e, e->pRight);
  return bind__binary_typed(p, e);
}

int bind__binary_typed(bind_ctx *p, sql_expr *e) {
  switch (e->eOp) {
    case SQL_OP_ADD:
    case SQL_OP_SUB:
    case SQL_OP_MUL:
    case SQL_OP_DIV:
    case SQL_OP_MOD:
      return bind_arith(p, e);
    case SQL_OP_EQ:
    case SQL_OP_NE:
    case SQL_OP_LT:
    case SQL_OP_LE:
    case SQL_OP_GT:
    case SQL_OP_GE:
      e->b.type = bind_tBool;
      return bind_compare(p, e->pLeft, e->pRight, sql_op_text(e->eOp), e->iOffset);
    case SQL_OP_AND:
    case SQL_OP_OR:
      e->b.type = bind_tBool;
      if (bind_want_bool(p, e->pLeft, sql_op_text(e->eOp)) != 0) return -1;
      return bind_want_bool(p, e->pRight, sql_op_text(e->eOp));
    default:
      break;
  }
  sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "unknown binary operator %d",
                (int)e->eOp);
  return -1;
}

/* The literal 9223372036854775808 under a minus sign: -2^63, which fits a
** BIGINT although its digits alone do not. */
static int bind_is_int64_min(const sql_expr *e) {
  const char *z;
  if (e->eOp != SQL_OP_NEG || e->pLeft == NULL || e->pLeft->eKind != SQL_EXPR_INTEGER ||
      e->pLeft->zText == NULL) {
    return 0;
  }
  z = e->pLeft->zText;
  while (*z == '0' && z[1] != 0) z++;
  return strcmp(z, "9223372036854775808") == 0;
}

static int bind_unary(bind_ctx *p, sql_expr *e) {
  sql_expr *a = e->pLeft;
  if (a == NULL) {
    sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "operator without an operand");
    return -1;
  }
  if (bind__refuse_expr(p, e) != 0) return -1;
  if (bind_is_int64_min(e)) {
    /* Folded into one BIGINT literal; its text keeps the sign. */
    e->eKind = SQL_EXPR_INTEGER;
    e->eOp = SQL_OP_NONE;
    e->zText = "-9223372036854775808";
    e->pLeft = NULL;
    e->b.type.eId = COLTYPE_BIGINT;
    return 0;
  }
  if (bind__expr(p, a) != 0) return -1;
  bind_inherit(e, a);
  if (e->eOp == SQL_OP_NOT) {
    e->b.type = bind_tBool;
    return bind_want_bool(p, a, "NOT");
  }
  if (e->eOp != SQL_OP_NEG && e->eOp != SQL_OP_PLUS) {
    sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "unknown unary operator %d",
                  (int)e->eOp);
    return -1;
  }
  if (bind__is_unknown(a)) {
    sql_error_set(p->pErr, SQLSTATE_AMBIGUOUS_FUNCTION, e->iOffset,
                  "operator is not unique: %s unknown", sql_op_text(e->eOp));
    return -1;
  }
  if (bind_family_of(a->b.type) != BIND_FAMILY_NUMBER) {
    return bind_no_operator(p, a, sql_op_text(e->eOp), NULL, e->iOffset);
  }
  e->b.type = a->b.type;
  return 0;
}

/* ---- predicates --------------------------------------------------------------- */

/* x [NOT] BETWEEN lo AND hi: typed as PostgreSQL's rewrite, x >= lo AND
** x <= hi (NOT: x < lo OR x > hi). */
static int bind_between(bind_ctx *p, sql_expr *e) {
  sql_expr *x = e->pLeft, *lo, *hi;
  if (x == NULL || e->pList == NULL || e->pList->n != 2 || e->pList->a[0].pExpr == NULL ||
      e->pList->a[1].pExpr == NULL) {
    sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "BETWEEN without its bounds");
    return -1;
  }
  lo = e->pList->a[0].pExpr;
  hi = e->pList->a[1].pExpr;
  if (bind__expr(p, x) != 0 || bind__expr(p, lo) != 0 || bind__expr(p, hi) != 0) return -1;
  if (bind__refuse_expr(p, e) != 0) return -1;
  bind_inherit(e, x);
  bind_inherit(e, lo);
  bind_inherit(e, hi);
  e->b.type = bind_tBool;
  if (bind_compare(p, x, lo, e->bNot ? "<" : ">=", e->iOffset) != 0) return -1;
  return bind_compare(p, x, hi, e->bNot ? ">" : "<=", e->iOffset);
}

/* x [NOT] IN (list): each item compared with x as by = (NOT IN: <>). */
static int bind_in(bind_ctx *p, sql_expr *e) {
  sql_expr *x = e->pLeft;
  if (e->bSelect) return bind__subquery(p, e);
  if (bind__refuse_expr(p, e) != 0) return -1;
  if (x == NULL || e->pList == NULL || e->pList->n < 1) {
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, e->iOffset, "IN needs a list of values");
    return -1;
  }
  if (bind__expr(p, x) != 0) return -1;
  bind_inherit(e, x);
  for (int i = 0; i < e->pList->n; i++) {
    sql_expr *v = e->pList->a[i].pExpr;
    if (bind__expr(p, v) != 0) return -1;
    bind_inherit(e, v);
  }
  e->b.type = bind_tBool;
  for (int i = 0; i < e->pList->n; i++) {
    if (bind_compare(p, x, e->pList->a[i].pExpr, e->bNot ? "<>" : "=", e->iOffset) != 0) {
      return -1;
    }
  }
  return 0;
}

/* x [NOT] LIKE pattern: both strings (unknown literals become text). */
static int bind_like(bind_ctx *p, sql_expr *e) {
  sql_expr *a = e->pLeft, *b = e->pRight;
  if (a == NULL || b == NULL) {
    sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "LIKE without an operand");
    return -1;
  }
  if (bind__expr(p, a) != 0 || bind__expr(p, b) != 0) return -1;
  if (bind__refuse_expr(p, e) != 0) return -1;
  bind_inherit(e, a);
  bind_inherit(e, b);
  e->b.type = bind_tBool;
  if ((!bind__is_unknown(a) && bind_family_of(a->b.type) != BIND_FAMILY_STRING) ||
      (!bind__is_unknown(b) && bind_family_of(b->b.type) != BIND_FAMILY_STRING)) {
    const char *zOp = e->eOp == SQL_OP_ILIKE ? (e->bNot ? "!~~*" : "~~*") : e->bNot ? "!~~" : "~~";
    return bind_no_operator(p, a, zOp, b, e->iOffset);
  }
  if (bind__is_unknown(a) && bind__literal_coerce(p, a, bind_tText) != 0) return -1;
  if (bind__is_unknown(b) && bind__literal_coerce(p, b, bind_tText) != 0) return -1;
  return 0;
}

static int bind_is_null(bind_ctx *p, sql_expr *e) {
  if (e->pLeft == NULL) {
    sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "IS NULL without an operand");
    return -1;
  }
  if (bind__expr(p, e->pLeft) != 0) return -1;
  bind_inherit(e, e->pLeft);
  e->b.type = bind_tBool;
  return 0;
}

/* ---- CASE ------------------------------------------------------------------ */

/* Widens t to also hold u, both of family f. */
static coltype bind_unify_pair(coltype t, coltype u, bind_family f) {
  if (f == BIND_FAMILY_NUMBER) {
    int pt, st, pu, su, s, nInt;
    if (t.eId == COLTYPE_DOUBLE || u.eId == COLTYPE_DOUBLE) return t.eId == COLTYPE_DOUBLE ? t : u;
    if (bind_is_int(t) && bind_is_int(u)) return t.eId >= u.eId ? t : u;
    bind_as_decimal(t, &pt, &st);
    bind_as_decimal(u, &pu, &su);
    s = st > su ? st : su;
    nInt = (pt - st) > (pu - su) ? (pt - st) : (pu - su);
    return bind_decimal(nInt + s, s);
  }
  if (f == BIND_FAMILY_STRING) {
    if (t.eId == u.eId && t.nLength == u.nLength) return t;
    if (t.eId == COLTYPE_VARCHAR && u.eId == COLTYPE_VARCHAR) {
      return t.nLength >= u.nLength ? t : u;
    }
    return bind_tText;
  }
  return t;                                  /* dates, booleans: the same type */
}

int bind__unify(bind_ctx *p, sql_expr **a, int n, const char *zWhat, coltype *pt) {
  coltype t = bind_tText;
  int bHave = 0;
  for (int i = 0; i < n; i++) {
    const sql_expr *x = a[i];
    if (x == NULL || bind__is_unknown(x)) continue;
    if (!bHave) {
      t = x->b.type;
      bHave = 1;
    } else if (bind_family_of(t) != bind_family_of(x->b.type)) {
      sql_error_set(p->pErr, SQLSTATE_DATATYPE_MISMATCH, x->iOffset,
                    "%s types %s and %s cannot be matched", zWhat, bind__coltype_name(t),
                    bind__type_name(x));
      return -1;
    } else {
      t = bind_unify_pair(t, x->b.type, bind_family_of(t));
    }
  }
  for (int i = 0; i < n; i++) {
    if (a[i] != NULL && bind__is_unknown(a[i]) && bind__literal_coerce(p, a[i], t) != 0) {
      return -1;
    }
  }
  *pt = t;
  return 0;
}

/* CASE [x] WHEN w THEN r ... [ELSE d] END. pList holds w0, r0, w1, r1, ...
** The result type unifies d first, then each r, as PostgreSQL does (its
** select_common_type sees the ELSE first). */
static int bind_case(bind_ctx *p, sql_expr *e) {
  sql_expr_list *pList = e->pList;
  sql_expr **aResult;
  int nPair;

  if (pList == NULL || pList->n < 2 || (pList->n & 1) != 0) {
    sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "CASE without WHEN ... THEN");
    return -1;
  }
  nPair = pList->n / 2;
  aResult = arena_alloc(p->pArena, sizeof(sql_expr *) * (size_t)(nPair + 1));
  if (aResult == NULL) return bind__oom(p);
  if (e->pLeft != NULL) {
    if (bind__expr(p, e->pLeft) != 0) return -1;
    bind_inherit(e, e->pLeft);
  }
  for (int i = 0; i < nPair; i++) {
    sql_expr *w = pList->a[2 * i].pExpr, *r = pList->a[2 * i + 1].pExpr;
    if (w == NULL || r == NULL) {
      sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "CASE with an empty arm");
      return -1;
    }
    if (bind__expr(p, w) != 0) return -1;
    if (e->pLeft != NULL) {
      if (bind_compare(p, e->pLeft, w, "=", w->iOffset) != 0) return -1;
    } else if (bind_want_bool(p, w, "CASE/WHEN") != 0) {
      return -1;
    }
    if (bind__expr(p, r) != 0) return -1;
    bind_inherit(e, w);
    bind_inherit(e, r);
    aResult[i + 1] = r;
  }
  if (e->pRight != NULL) {
    if (bind__expr(p, e->pRight) != 0) return -1;
    bind_inherit(e, e->pRight);
  }
  aResult[0] = e->pRight;
  return bind__unify(p, aResult, nPair + 1, "CASE", &e->b.type);
}

/* ---- CAST ------------------------------------------------------------------- */

/* Returns 1 if PostgreSQL has a cast (explicit included) from a to b:
** numbers among themselves, anything to and from strings (its I/O cast),
** boolean to and from integer, and each type to itself. */
static int bind_castable(coltype a, coltype b) {
  bind_family fa = bind_family_of(a), fb = bind_family_of(b);
  if (fa == fb) return 1;
  if (fa == BIND_FAMILY_STRING || fb == BIND_FAMILY_STRING) return 1;
  if (fa == BIND_FAMILY_BOOL && b.eId == COLTYPE_INTEGER) return 1;
  if (fb == BIND_FAMILY_BOOL && a.eId == COLTYPE_INTEGER) return 1;
  return 0;
}

static int bind_cast(bind_ctx *p, sql_expr *e) {
  sql_expr *a = e->pLeft;
  coltype t = e->castType;
  char zWhy[160];
  int rc;
  if (a == NULL) {
    sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "CAST without an operand");
    return -1;
  }
  if (bind__expr(p, a) != 0) return -1;
  if ((rc = bind__reg_cast(p, e)) <= 0) {
    bind_inherit(e, a);
    return rc;
  }
  if (bind__refuse_expr(p, e) != 0) return -1;
  bind_inherit(e, a);
  if (t.eId != COLTYPE_BOOLEAN && coltype_check(t, zWhy, sizeof(zWhy)) != 0) {
    sql_error_set(p->pErr, SQLSTATE_INVALID_PARAMETER, e->iOffset, "%s", zWhy);
    return -1;
  }
  if (bind__is_unknown(a)) {
    /* A literal is read as the target type now, as PostgreSQL does:
    ** '1997-13-01'::date fails here. Strings keep their text; the cast
    ** itself applies a length or a DECIMAL scale. */
    if (bind__literal_coerce(p, a, t) != 0) return -1;
  } else if (!bind_castable(a->b.type, t)) {
    sql_error_set(p->pErr, SQLSTATE_CANNOT_COERCE, e->iOffset, "cannot cast type %s to %s",
                  bind__coltype_name(a->b.type), bind__coltype_name(t));
    return -1;
  }
  e->b.type = t;
  return 0;
}

/* ---- the dispatcher ------------------------------------------------------- */

static int bind_expr_kind(bind_ctx *p, sql_expr *e) {
  switch (e->eKind) {
    case SQL_EXPR_INTEGER:
    case SQL_EXPR_DECIMAL:
      return bind__number(p, e);
    case SQL_EXPR_STRING:
      e->b.type = bind_tText;
      return 0;
    case SQL_EXPR_DATE:
      return bind__date(p, e);
    case SQL_EXPR_NULL:
      e->b.type.eId = COLTYPE_UNKNOWN;
      return 0;
    case SQL_EXPR_BOOL:
      e->b.type = bind_tBool;
      return 0;
    case SQL_EXPR_COLUMN:
      return bind__column(p, e);
    case SQL_EXPR_STAR:
      sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, e->iOffset, "syntax error at or near \"*\"");
      return -1;
    case SQL_EXPR_UNARY:
      return bind_unary(p, e);
    case SQL_EXPR_BINARY:
      return bind_binary(p, e);
    case SQL_EXPR_IS_NULL:
      return bind_is_null(p, e);
    case SQL_EXPR_BETWEEN:
      return bind_between(p, e);
    case SQL_EXPR_IN:
      return bind_in(p, e);
    case SQL_EXPR_LIKE:
      return bind_like(p, e);
    case SQL_EXPR_CASE:
      return bind_case(p, e);
    case SQL_EXPR_CAST:
      return bind_cast(p, e);
    case SQL_EXPR_FUNC:
      for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
        if (bind__expr(p, e->pList->a[i].pExpr) != 0) return -1;
        bind_inherit(e, e->pList->a[i].pExpr);
      }
      if (e->pWin != NULL && p->pEnv != NULL) return bind__window(p, e);
      if (bind__refuse_expr(p, e) != 0) return -1;
      if (e->pFilter != NULL) {
        sql_expr *pAgg;
        if (bind__condition(p, e->pFilter, "FILTER") != 0) return -1;
        if ((pAgg = bind__first_agg(e->pFilter)) != NULL) {
          sql_error_set(p->pErr, SQLSTATE_GROUPING_ERROR, pAgg->iOffset,
                        "aggregate functions are not allowed in FILTER");
          return -1;
        }
        bind_inherit(e, e->pFilter);
      }
      return bind__func(p, e);
    case SQL_EXPR_SUBQUERY:
    case SQL_EXPR_EXISTS:
      return bind__subquery(p, e);
    case SQL_EXPR_COLLATE:
      /* COLLATE pg_catalog.default (psql's name patterns): the collation
      ** every string already has; a host query takes it as a no-op. */
      if (p->pEnv != NULL && p->pEnv->bHostFuncs && e->pLeft != NULL && e->zName != NULL &&
          strcmp(e->zName, "default") == 0 &&
          (e->zSchema == NULL || strcmp(e->zSchema, "pg_catalog") == 0)) {
        sql_expr *c = e->pLeft;
        if (bind__expr(p, c) != 0) return -1;
        *e = *c;
        return 0;
      }
      return bind__refuse_expr(p, e);
    case SQL_EXPR_ANY:
      return bind__any_array(p, e);
    case SQL_EXPR_SUBSCRIPT:
      return bind__subscript(p, e);
    case SQL_EXPR_IS_BOOL:
    case SQL_EXPR_ARRAY:
    case SQL_EXPR_ROW:
    case SQL_EXPR_ROLLUP:
    case SQL_EXPR_CUBE:
    case SQL_EXPR_GROUPING_SETS:
      /* Parsed, not run yet: bind_unsupported.c refuses each (0A000). */
      return bind__refuse_expr(p, e);
    case SQL_EXPR_PARAM:
      /* The engine puts values in place of markers before binding
      ** (engine/param.c); one left is a statement bound without them. */
      sql_error_set(p->pErr, SQLSTATE_UNDEFINED_PARAMETER, e->iOffset, "there is no parameter $%d", e->iParam);
      return -1;
  }
  sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "unknown expression kind %d",
                (int)e->eKind);
  return -1;
}

int bind__expr(bind_ctx *p, sql_expr *e) {
  int rc;
  if (e == NULL) {
    sql_error_set(p->pErr, SQLSTATE_INTERNAL_ERROR, -1, "missing expression");
    return -1;
  }
  if (p->nDepth >= BIND_DEPTH_MAX) {
    sql_error_set(p->pErr, SQLSTATE_STACK_DEPTH, e->iOffset,
                  "expression is nested more than %d levels deep", BIND_DEPTH_MAX);
    return -1;
  }
  memset(&e->b, 0, sizeof(e->b));
  e->b.iSource = -1;
  e->b.iColumn = -1;
  e->b.iAgg = -1;
  e->b.bConstant = 1;                        /* cleared by columns and aggregates */
  p->nDepth++;
  rc = bind_expr_kind(p, e);
  p->nDepth--;
  return rc;
}
