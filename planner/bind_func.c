/*
** planner/bind_func.c — the scalar functions that are CASE or an operator
** in disguise: coalesce, nullif, greatest, least, abs and mod. Each call,
** its arguments bound, is rewritten in place into the bound tree it means,
** which the planner, both code generators and the host already run:
**
**   coalesce(a, b, c)  CASE WHEN a IS NOT NULL THEN a WHEN b IS NOT NULL
**                      THEN b ELSE c END
**   nullif(a, b)       CASE WHEN a = b THEN NULL ELSE a END
**   greatest(a, b)     CASE WHEN b IS NOT NULL AND (a IS NULL OR b > a)
**                      THEN b ELSE a END, folded left over more arguments
**                      (least with <): NULLs ignored, as PostgreSQL does
**   abs(x)             CASE WHEN x < 0 THEN -x ELSE x END
**   mod(a, b)          a % b
**
** Types are PostgreSQL's: the arguments of coalesce, greatest and least
** unify as CASE's results do (unknown literals take the common type; "COALESCE
** types integer and text cannot be matched", 42804); nullif has its first
** argument's type; abs and mod take numbers, other arguments are 42883
** "function abs(text) does not exist". The rewritten CASE keeps the
** function's name (sql_expr.zName), which names its output column.
**
** An argument may stand in the rewritten tree more than once (a in
** coalesce's WHEN and THEN): the tree is then a DAG whose shared nodes are
** bound once; later stages only read it. greatest and least take at most
** BIND_FOLD_MAX arguments: each fold step reads the one before three
** times.
**
** String functions (upper, lower, length, substring, btrim, position ...)
** are typed here and stay calls: the planner answers a predicate on one
** of a dictionary column over its dictionary (dictfunc.c), and the
** kernels never see them; anywhere else codegen refuses them (0A000).
**
** The rounding functions round, ceil/ceiling, floor and trunc, and sqrt
** and power/pow of double precision, are typed
** here and stay calls, which codegen/mathfunc.c computes: PostgreSQL picks
** the float8 version for a double or an integer argument (float8 is the
** numeric category's preferred type) and the numeric one for a NUMERIC;
** round(x, n) and trunc(x, n) exist only for numeric, and their result's
** scale is n, which must be a constant 0..BIND_ROUND_SCALE_MAX here.
** sqrt and power of a numeric (a NUMERIC with no double beside it) are
** numeric in PostgreSQL, with a scale that depends on each value: 0A000.
**
** INTERFACE ROUTINES (bindInt.h)
**   bind__scalar_func        rewrite one of these calls, or say it is none
**   bind__registry_func      a host query's call to func/'s registry
**   bind_func_is_registry_only  a name only the registry has
**   bind__string_func_name   is this a string function typed here?
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/datetime.h"
#include "../func/func.h"
#include "bindInt.h"

#define BIND_FOLD_MAX 4
#define BIND_ROUND_SCALE_MAX 18

static const coltype bf_tBool = {COLTYPE_BOOLEAN, 0, 0, 0};

/* Makes e a node of kind eKind and type t with no children, keeping its
** name and position: a constant until children are added (bf_child). */
static void bf_reset(sql_expr *e, sql_expr_kind eKind, coltype t) {
  const char *zName = e->zName;
  int iOffset = e->iOffset;
  memset(e, 0, sizeof(*e));
  e->eKind = eKind;
  e->zName = zName;
  e->iOffset = iOffset;
  e->nHeight = 1;
  e->b.type = t;
  e->b.iSource = e->b.iColumn = e->b.iAgg = -1;
  e->b.bConstant = 1;
}

/* A new bound node of kind eKind and type t at iOffset (NULL after 53200). */
static sql_expr *bf_node(bind_ctx *p, sql_expr_kind eKind, coltype t, int iOffset) {
  sql_expr *e = arena_alloc(p->pArena, sizeof(sql_expr));
  if (e == NULL) {
    bind__oom(p);
    return NULL;
  }
  memset(e, 0, sizeof(*e));
  e->iOffset = iOffset;
  bf_reset(e, eKind, t);
  return e;
}

/* e gets child c: its height, constness and aggregates. */
static void bf_child(sql_expr *e, const sql_expr *c) {
  if (c == NULL) return;
  if (c->nHeight + 1 > e->nHeight) e->nHeight = c->nHeight + 1;
  e->b.bConstant = e->b.bConstant && c->b.bConstant;
  e->b.bHasAgg = e->b.bHasAgg || c->b.bHasAgg;
}

/* x IS NOT NULL, or NULL after 53200. */
static sql_expr *bf_not_null(bind_ctx *p, sql_expr *x) {
  sql_expr *e = bf_node(p, SQL_EXPR_IS_NULL, bf_tBool, x->iOffset);
  if (e == NULL) return NULL;
  e->bNot = 1;
  e->pLeft = x;
  bf_child(e, x);
  return e;
}

/* a op b of bound a and b, typed as the binder types it (bind__binary_typed). */
static sql_expr *bf_binary(bind_ctx *p, sql_op eOp, sql_expr *a, sql_expr *b, int iOffset) {
  sql_expr *e = bf_node(p, SQL_EXPR_BINARY, bf_tBool, iOffset);
  if (e == NULL) return NULL;
  e->eOp = eOp;
  e->pLeft = a;
  e->pRight = b;
  if (bind__binary_typed(p, e) != 0) return NULL;
  bf_child(e, a);
  bf_child(e, b);
  return e;
}

/* Makes e (in place) CASE WHEN aWhen[i] THEN aThen[i] ... ELSE pElse END of
** type t, keeping its name. Returns 0 or -1. */
static int bf_case(bind_ctx *p, sql_expr *e, int n, sql_expr **aWhen, sql_expr **aThen,
                   sql_expr *pElse, coltype t) {
  sql_expr_list *pList = arena_alloc(p->pArena, sizeof(sql_expr_list));
  sql_expr_item *a = arena_alloc(p->pArena, sizeof(sql_expr_item) * (size_t)(2 * n + 1));
  if (pList == NULL || a == NULL) return bind__oom(p);
  memset(a, 0, sizeof(sql_expr_item) * (size_t)(2 * n + 1));
  for (int i = 0; i < n; i++) {
    a[2 * i].pExpr = aWhen[i];
    a[2 * i + 1].pExpr = aThen[i];
  }
  pList->n = pList->nAlloc = 2 * n;
  pList->a = a;
  bf_reset(e, SQL_EXPR_CASE, t);
  e->pList = pList;
  e->pRight = pElse;
  for (int i = 0; i < 2 * n; i++) bf_child(e, a[i].pExpr);
  bf_child(e, pElse);
  return 0;
}

static int bf_is_number(coltype t) {
  return t.eId == COLTYPE_SMALLINT || t.eId == COLTYPE_INTEGER || t.eId == COLTYPE_BIGINT ||
         t.eId == COLTYPE_DECIMAL || t.eId == COLTYPE_DOUBLE;
}

static int bf_coalesce(bind_ctx *p, sql_expr *e, sql_expr **a, int n) {
  sql_expr **aWhen = arena_alloc(p->pArena, sizeof(sql_expr *) * (size_t)n);
  coltype t;
  if (aWhen == NULL) return bind__oom(p);
  if (bind__unify(p, a, n, "COALESCE", &t) != 0) return -1;
  for (int i = 0; i < n - 1; i++) {
    if ((aWhen[i] = bf_not_null(p, a[i])) == NULL) return -1;
  }
  return bf_case(p, e, n - 1, aWhen, a, a[n - 1], t);
}

static int bf_nullif(bind_ctx *p, sql_expr *e, sql_expr **a) {
  sql_expr *pEq, *pNull;
  if ((pEq = bf_binary(p, SQL_OP_EQ, a[0], a[1], e->iOffset)) == NULL) return -1;
  if ((pNull = bf_node(p, SQL_EXPR_NULL, a[0]->b.type, e->iOffset)) == NULL) return -1;
  return bf_case(p, e, 1, &pEq, &pNull, a[0], a[0]->b.type);
}

/* greatest (bGreatest) or least of a[0..n), folded left. */
static int bf_extreme(bind_ctx *p, sql_expr *e, sql_expr **a, int n, int bGreatest) {
  sql_expr *r = a[0];
  coltype t;
  if (n > BIND_FOLD_MAX) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "%s with more than %d arguments is not supported yet", e->zName, BIND_FOLD_MAX);
    return -1;
  }
  if (bind__unify(p, a, n, bGreatest ? "GREATEST" : "LEAST", &t) != 0) return -1;
  for (int i = 1; i < n; i++) {
    sql_expr *pBetter, *pRNull, *pOr, *pWhen, *pANotNull;
    if ((pANotNull = bf_not_null(p, a[i])) == NULL ||
        (pRNull = bf_node(p, SQL_EXPR_IS_NULL, bf_tBool, r->iOffset)) == NULL) {
      return -1;
    }
    pRNull->pLeft = r;
    bf_child(pRNull, r);
    if ((pBetter = bf_binary(p, bGreatest ? SQL_OP_GT : SQL_OP_LT, a[i], r, e->iOffset)) == NULL ||
        (pOr = bf_binary(p, SQL_OP_OR, pRNull, pBetter, e->iOffset)) == NULL ||
        (pWhen = bf_binary(p, SQL_OP_AND, pANotNull, pOr, e->iOffset)) == NULL) {
      return -1;
    }
    if (i < n - 1) {
      sql_expr *pStep = bf_node(p, SQL_EXPR_CASE, t, e->iOffset);
      if (pStep == NULL) return -1;
      pStep->zName = e->zName;
      if (bf_case(p, pStep, 1, &pWhen, &a[i], r, t) != 0) return -1;
      r = pStep;
    } else {
      return bf_case(p, e, 1, &pWhen, &a[i], r, t);
    }
  }
  return bf_case(p, e, 0, NULL, NULL, a[0], t);   /* one argument: itself */
}

static int bf_abs(bind_ctx *p, sql_expr *e, sql_expr *x) {
  coltype tInt = {COLTYPE_INTEGER, 0, 0, 0};
  sql_expr *pZero, *pNeg, *pLt;
  if ((pZero = bf_node(p, SQL_EXPR_INTEGER, tInt, e->iOffset)) == NULL) return -1;
  pZero->zText = "0";
  if ((pLt = bf_binary(p, SQL_OP_LT, x, pZero, e->iOffset)) == NULL) return -1;
  if ((pNeg = bf_node(p, SQL_EXPR_UNARY, x->b.type, e->iOffset)) == NULL) return -1;
  pNeg->eOp = SQL_OP_NEG;
  pNeg->pLeft = x;
  bf_child(pNeg, x);
  return bf_case(p, e, 1, &pLt, &pNeg, x, x->b.type);
}

/* Makes e (in place) a % b. */
static int bf_mod(bind_ctx *p, sql_expr *e, sql_expr *a, sql_expr *b) {
  bf_reset(e, SQL_EXPR_BINARY, a->b.type);
  e->eOp = SQL_OP_MOD;
  e->pLeft = a;
  e->pRight = b;
  bf_child(e, a);
  bf_child(e, b);
  return bind__binary_typed(p, e);
}

/* 42883 "function name(types) does not exist". */
static int bf_no_function(bind_ctx *p, const sql_expr *e, sql_expr **a, int n) {
  char zArgs[256];
  size_t k = 0;
  zArgs[0] = 0;
  for (int i = 0; i < n && k < sizeof(zArgs); i++) {
    int m = snprintf(zArgs + k, sizeof(zArgs) - k, "%s%s", i ? ", " : "", bind__type_name(a[i]));
    if (m < 0) break;
    k += (size_t)m;
  }
  /* SQL's own syntax (EXTRACT, SUBSTRING ... FROM) names pg_catalog's. */
  sql_error_set(p->pErr, SQLSTATE_UNDEFINED_FUNCTION, e->iOffset, "function %s%s(%s) does not exist",
                e->bSqlSyntax ? "pg_catalog." : "", e->zName, zArgs);
  return -1;
}

/* ---- string functions ---------------------------------------------------------- */

/* A string function's signature: its arguments ('s' a string, 'i' an
** integer; upper case: optional) and its result ('s' text, 'i' integer). */
typedef struct bf_strfunc bf_strfunc;
struct bf_strfunc {
  const char *zName;
  const char *zArgs;
  char cResult;
};

static const bf_strfunc bf_aStr[] = {
    {"upper", "s", 's'},         {"lower", "s", 's'},           {"length", "s", 'i'},
    {"char_length", "s", 'i'},   {"character_length", "s", 'i'}, {"octet_length", "s", 'i'},
    {"substr", "siI", 's'},      {"substring", "siI", 's'},     {"left", "si", 's'},
    {"right", "si", 's'},        {"replace", "sss", 's'},       {"btrim", "sS", 's'},
    {"ltrim", "sS", 's'},        {"rtrim", "sS", 's'},          {"position", "ss", 'i'},
    {"strpos", "ss", 'i'},
    /* values only (strval.c's maps): no code set answers them */
    {"lpad", "siS", 's'},        {"rpad", "siS", 's'},          {"initcap", "s", 's'},
    {"split_part", "ssi", 's'},  {"repeat", "si", 's'},         {"reverse", "s", 's'},
    {"md5", "s", 's'},
};

static const bf_strfunc *bf_str_find(const char *zName) {
  for (size_t i = 0; i < sizeof(bf_aStr) / sizeof(bf_aStr[0]); i++) {
    if (strcmp(bf_aStr[i].zName, zName) == 0) return &bf_aStr[i];
  }
  return NULL;
}

int bind__string_func_name(const char *zName) {
  return bf_str_find(zName) != NULL || strcmp(zName, "extract") == 0 ||
         strcmp(zName, "concat") == 0 || strcmp(zName, "concat_ws") == 0;
}

/* Types call e of string function f: unknown literals become text or
** integer as the signature says; other arguments must be of its kinds
** (42883 otherwise). e stays a call; the planner answers it over the
** dictionary of the column it reads, the kernels never see it. */
static int bf_string(bind_ctx *p, sql_expr *e, sql_expr **a, int n, const bf_strfunc *f) {
  static const coltype tText = {COLTYPE_TEXT, 0, 0, 0}, tInt = {COLTYPE_INTEGER, 0, 0, 0};
  size_t nMax = strlen(f->zArgs), nMin = 0;
  while (nMin < nMax && f->zArgs[nMin] >= 'a') nMin++;
  if ((size_t)n < nMin || (size_t)n > nMax) return bf_no_function(p, e, a, n);
  for (int i = 0; i < n; i++) {
    int bString = f->zArgs[i] == 's' || f->zArgs[i] == 'S';
    coltype t = a[i]->b.type;
    if (bind__is_unknown(a[i])) {
      if (bind__literal_coerce(p, a[i], bString ? tText : tInt) != 0) return -1;
    } else if (bString ? !coltype_is_string(t)
                       : t.eId != COLTYPE_INTEGER && t.eId != COLTYPE_SMALLINT) {
      return bf_no_function(p, e, a, n);
    }
  }
  e->b.type = f->cResult == 's' ? tText : tInt;
  return 0;
}

/* concat(any, ...) and concat_ws(text, any, ...): text of every non-NULL
** argument (an unknown literal is text), as PostgreSQL's variadic "any". */
static int bf_concat(bind_ctx *p, sql_expr *e, int n) {
  static const coltype tText = {COLTYPE_TEXT, 0, 0, 0};
  int bWs = e->zName[6] == '_';
  if (n < 1 || (bWs && !coltype_is_string(e->pList->a[0].pExpr->b.type) &&
                !bind__is_unknown(e->pList->a[0].pExpr))) {
    sql_expr **a = arena_alloc(p->pArena, sizeof(sql_expr *) * (size_t)(n + 1));
    if (a == NULL) return bind__oom(p);
    for (int i = 0; i < n; i++) a[i] = e->pList->a[i].pExpr;
    return bf_no_function(p, e, a, n);
  }
  for (int i = 0; i < n; i++) {
    sql_expr *a = e->pList->a[i].pExpr;
    if (bind__is_unknown(a) && bind__literal_coerce(p, a, tText) != 0) return -1;
  }
  e->b.type = tText;
  return 0;
}

/* extract(field FROM d) and date_part('field', d) of a DATE: NUMERIC
** (a DECIMAL of scale 0: every field of a date is whole) and DOUBLE
** PRECISION, the field a literal, checked here with PostgreSQL's errors
** (22023 not recognized, 0A000 not supported for type date). The planner
** computes them per day of the column (valmap.c). */
static int bf_date_field(bind_ctx *p, sql_expr *e, sql_expr **a, int n) {
  static const coltype tDouble = {COLTYPE_DOUBLE, 0, 0, 0};
  coltype tNum = {COLTYPE_DECIMAL, 0, COLTYPE_DECIMAL_PRECISION_MAX, 0};
  int32_t d = 0;
  int bNull;
  numeric v;
  double r;
  if (n != 2 || a[0]->eKind != SQL_EXPR_STRING || a[1]->b.type.eId != COLTYPE_DATE) {
    if (n == 2 && a[0]->eKind != SQL_EXPR_STRING) {
      sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, a[0]->iOffset,
                    "%s with a unit other than a literal is not supported yet", e->zName);
      return -1;
    }
    return bf_no_function(p, e, a, n);
  }
  if (e->zName[0] == 'e' ? dt_extract(DT_TYPE_DATE, a[0]->zText, &d, NULL, &v, &bNull, p->pErr) != 0
                         : dt_date_part(DT_TYPE_DATE, a[0]->zText, &d, NULL, &r, &bNull, p->pErr) != 0) {
    return -1;                           /* PostgreSQL says where not */
  }
  e->b.type = e->zName[0] == 'e' ? tNum : tDouble;
  return 0;
}

/* ---- rounding functions ----------------------------------------------------------- */

int bind_math_func_name(const char *zName) {
  static const char *const az[] = {"round", "ceil", "ceiling", "floor", "trunc", "sqrt", "power",
                                   "pow"};
  for (size_t i = 0; i < sizeof(az) / sizeof(az[0]); i++) {
    if (strcmp(az[i], zName) == 0) return 1;
  }
  return 0;
}

/* Is e an aggregate avg() or has one below it? (starq's avg is double
** precision where PostgreSQL's of integers and numerics is numeric.) */
static int bf_has_avg(const sql_expr *e) {
  if (e == NULL) return 0;
  if (e->eKind == SQL_EXPR_FUNC && e->b.iAgg >= 0 && e->zName != NULL && strcmp(e->zName, "avg") == 0) {
    return 1;
  }
  if (bf_has_avg(e->pLeft) || bf_has_avg(e->pRight)) return 1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (bf_has_avg(e->pList->a[i].pExpr)) return 1;
  }
  return 0;
}

/* Types rounding call e (bind_math_func_name) over arguments a[0..n). */
static int bf_math(bind_ctx *p, sql_expr *e, sql_expr **a, int n) {
  coltype tDouble = {COLTYPE_DOUBLE, 0, 0, 0};
  coltype tNum = {COLTYPE_DECIMAL, COLTYPE_DECIMAL_PRECISION_MAX, 0, 0};
  coltype_id eArg = n >= 1 ? a[0]->b.type.eId : COLTYPE_UNKNOWN;
  int bInt = eArg == COLTYPE_SMALLINT || eArg == COLTYPE_INTEGER || eArg == COLTYPE_BIGINT;
  if (n < 1 || n > 2 || (!bInt && eArg != COLTYPE_DECIMAL && eArg != COLTYPE_DOUBLE)) {
    return bf_no_function(p, e, a, n);
  }
  if (e->zName[0] == 's' || e->zName[0] == 'p') {     /* sqrt, power, pow */
    int nWant = e->zName[0] == 's' ? 1 : 2, bNum = eArg == COLTYPE_DECIMAL;
    if (n != nWant) return bf_no_function(p, e, a, n);
    if (n == 2) {
      coltype_id e2 = a[1]->b.type.eId;
      if (e2 != COLTYPE_SMALLINT && e2 != COLTYPE_INTEGER && e2 != COLTYPE_BIGINT &&
          e2 != COLTYPE_DECIMAL && e2 != COLTYPE_DOUBLE) {
        return bf_no_function(p, e, a, n);
      }
      bNum |= e2 == COLTYPE_DECIMAL && eArg != COLTYPE_DOUBLE;
      bNum &= a[1]->b.type.eId != COLTYPE_DOUBLE;
    }
    if (bNum) {
      /* The numeric versions' result scales depend on each value. */
      sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                    "%s of numeric is not supported yet", e->zName);
      return -1;
    }
    e->b.type = tDouble;
    return 0;
  }
  if (n == 1) {
    e->b.type = eArg == COLTYPE_DECIMAL ? tNum : tDouble;
    return 0;
  }
  /* round(x, n), trunc(x, n): numeric only. */
  if ((strcmp(e->zName, "round") != 0 && strcmp(e->zName, "trunc") != 0) ||
      (a[1]->b.type.eId != COLTYPE_SMALLINT && a[1]->b.type.eId != COLTYPE_INTEGER)) {
    return bf_no_function(p, e, a, n);
  }
  if (eArg == COLTYPE_DOUBLE) {
    if (bf_has_avg(a[0])) {
      sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                    "%s(avg(...), n) is not supported yet: starq's avg is double precision", e->zName);
      return -1;
    }
    return bf_no_function(p, e, a, n);
  }
  if (a[1]->eKind != SQL_EXPR_INTEGER || a[1]->zText == NULL || strlen(a[1]->zText) > 2 ||
      atoi(a[1]->zText) > BIND_ROUND_SCALE_MAX) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, a[1]->iOffset,
                  "%s(x, n) with n other than a constant 0 to %d is not supported yet", e->zName,
                  BIND_ROUND_SCALE_MAX);
    return -1;
  }
  tNum.nScale = atoi(a[1]->zText);
  e->b.type = tNum;
  return 0;
}

int bind__scalar_func(bind_ctx *p, sql_expr *e) {
  int n = e->pList != NULL ? e->pList->n : 0, bNumbers = 1;
  const bf_strfunc *f;
  sql_expr **a;
  if (e->zSchema != NULL && strcmp(e->zSchema, "pg_catalog") != 0) return 1;
  if (e->bStar || e->bDistinct || e->pFilter != NULL) return 1;
  if (strcmp(e->zName, "extract") == 0 || strcmp(e->zName, "date_part") == 0) {
    a = arena_alloc(p->pArena, sizeof(sql_expr *) * (size_t)(n + 1));
    if (a == NULL) return bind__oom(p);
    for (int i = 0; i < n; i++) a[i] = e->pList->a[i].pExpr;
    if (n == 2 && bind__is_unknown(a[0]) && a[0]->eKind == SQL_EXPR_STRING) {
      a[0]->b.type = (coltype){COLTYPE_TEXT, 0, 0, 0};
    }
    return bf_date_field(p, e, a, n);
  }
  if (strcmp(e->zName, "concat") == 0 || strcmp(e->zName, "concat_ws") == 0) {
    return bf_concat(p, e, n);
  }
  if ((f = bf_str_find(e->zName)) != NULL) {
    a = arena_alloc(p->pArena, sizeof(sql_expr *) * (size_t)(n + 1));
    if (a == NULL) return bind__oom(p);
    for (int i = 0; i < n; i++) a[i] = e->pList->a[i].pExpr;
    return bf_string(p, e, a, n, f);
  }
  if (bind_math_func_name(e->zName)) {
    a = arena_alloc(p->pArena, sizeof(sql_expr *) * (size_t)(n + 1));
    if (a == NULL) return bind__oom(p);
    for (int i = 0; i < n; i++) a[i] = e->pList->a[i].pExpr;
    return bf_math(p, e, a, n);
  }
  if (strcmp(e->zName, "coalesce") != 0 && strcmp(e->zName, "nullif") != 0 &&
      strcmp(e->zName, "greatest") != 0 && strcmp(e->zName, "least") != 0 &&
      strcmp(e->zName, "abs") != 0 && strcmp(e->zName, "mod") != 0) {
    return 1;
  }
  a = arena_alloc(p->pArena, sizeof(sql_expr *) * (size_t)(n + 1));
  if (a == NULL) return bind__oom(p);
  for (int i = 0; i < n; i++) {
    a[i] = e->pList->a[i].pExpr;
    bNumbers &= bf_is_number(a[i]->b.type);
  }
  switch (e->zName[0]) {
    case 'c':
      if (n < 1) return bf_no_function(p, e, a, n);
      return bf_coalesce(p, e, a, n);
    case 'n':
      if (n != 2) return bf_no_function(p, e, a, n);
      return bf_nullif(p, e, a);
    case 'g':
    case 'l':
      if (n < 1) return bf_no_function(p, e, a, n);
      return bf_extreme(p, e, a, n, e->zName[0] == 'g');
    case 'a':
      if (n != 1 || !bNumbers) return bf_no_function(p, e, a, n);
      return bf_abs(p, e, a[0]);
    default:
      if (n != 2 || !bNumbers || a[0]->b.type.eId == COLTYPE_DOUBLE ||
          a[1]->b.type.eId == COLTYPE_DOUBLE) {
        return bf_no_function(p, e, a, n);
      }
      return bf_mod(p, e, a[0], a[1]);
  }
}

/* 1 if call e's arguments fit overload f as written (no casts besides an
** unknown literal's); with bImplicit, also through the implicit casts
** catalog queries lean on: oid to and from regclass and its kin (one
** value, PostgreSQL's binary-coercible casts), name or varchar to text,
** and the integers' widening (an integer datum holds any of them). */
static int bf_registry_fits(const func_def *f, sql_expr **a, int n, int bImplicit) {
  if (f->eKind != FUNC_SCALAR || (f->mFlag & FUNC_VARIADIC) || f->nArg != n) return 0;
  for (int i = 0; i < n; i++) {
    coltype_id e = a[i]->b.type.eId;
    if (bind__is_unknown(a[i]) && (a[i]->eKind == SQL_EXPR_STRING || a[i]->eKind == SQL_EXPR_NULL)) continue;
    if (f->aArg[i] == COLTYPE_ANYARRAY && e == COLTYPE_ARRAY) continue;
    if (e == f->aArg[i]) continue;
    if (bImplicit && bind__is_oid_type(f->aArg[i]) && bind__is_oid_type(e)) continue;
    if (bImplicit && f->aArg[i] == COLTYPE_TEXT &&
        (e == COLTYPE_NAME || e == COLTYPE_VARCHAR || e == COLTYPE_CHAR)) {
      continue;
    }
    if (bImplicit && ((f->aArg[i] == COLTYPE_INTEGER && e == COLTYPE_SMALLINT) ||
                      (f->aArg[i] == COLTYPE_BIGINT && (e == COLTYPE_SMALLINT || e == COLTYPE_INTEGER)))) {
      continue;
    }
    return 0;
  }
  return 1;
}

int bind__registry_func(bind_ctx *p, sql_expr *e) {
  int n = e->pList != NULL ? e->pList->n : 0, nCand = 0;
  const func_def *aCand = func_candidates(e->zName, &nCand), *f = NULL;
  sql_expr **a;
  if (aCand == NULL || e->bStar || e->bDistinct || e->pFilter != NULL || e->pWin != NULL) return 1;
  if ((a = arena_alloc(p->pArena, sizeof(sql_expr *) * (size_t)(n + 1))) == NULL) return bind__oom(p);
  for (int i = 0; i < n; i++) a[i] = e->pList->a[i].pExpr;
  for (int bImplicit = 0; bImplicit < 2 && f == NULL; bImplicit++) {
    for (int i = 0; i < nCand && f == NULL; i++) {
      if (bf_registry_fits(&aCand[i], a, n, bImplicit)) f = &aCand[i];
    }
  }
  if (f == NULL) return 1;
  if (f->xHost == NULL || f->eResult == COLTYPE_UNKNOWN) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset, "function %s is not supported yet",
                  e->zName);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    coltype t = {f->aArg[i], 0, 0, 0};
    if (!bind__is_unknown(a[i]) || a[i]->eKind != SQL_EXPR_STRING) continue;
    /* pg_table_size('lineorder'): looked up now, so a missing name fails here */
    if (bind__is_oid_type(t.eId) && bind__reg_literal(p, a[i], t) != 0) return -1;
    a[i]->b.type = t;
  }
  e->b.type = func_result_type(f);
  e->b.pFunc = f;
  return 0;
}

int bind_func_is_registry_only(const char *zName) {
  int n = 0, bScalar = 0;
  const func_def *a = zName != NULL ? func_candidates(zName, &n) : NULL;
  for (int i = 0; i < n; i++) bScalar |= a[i].eKind == FUNC_SCALAR && a[i].xHost != NULL;
  if (!bScalar || bind__string_func_name(zName) || bind_math_func_name(zName)) return 0;
  static const char *const azOwn[] = {"extract", "date_part", "coalesce", "nullif", "greatest", "least",
                                      "abs", "mod", "count", "sum", "avg", "min", "max",
                                      "bool_and", "bool_or", "every"};
  for (size_t i = 0; i < sizeof(azOwn) / sizeof(azOwn[0]); i++) {
    if (strcmp(zName, azOwn[i]) == 0) return 0;
  }
  return 1;
}
