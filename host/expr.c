/*
** host/expr.c — evaluating a host_expr over one row: PostgreSQL's
** arithmetic (overflow is 22003, division by zero 22012), comparisons
** across the numeric types, three-valued AND / OR / NOT, CASE, casts, IN
** lists, LIKE, calls through the function registry (func.h's xHost) and
** subqueries (run.c).
**
** The planner has typed every node and put casts where PostgreSQL would:
** operands of one arithmetic node are of one family, and its result type
** says how to compute (an integer type: checked int64 arithmetic in its
** range; DECIMAL/NUMERIC: numeric; DOUBLE: double).
**
** INTERFACE ROUTINES (hostInt.h)
**   host__eval, host__eval_true, host__compare_op, host__add
*/
#include <math.h>
#include <string.h>

#include "../parser/ast.h"
#include "hostInt.h"

static const char *host_int_type_name(coltype_id e) {
  return e == COLTYPE_SMALLINT ? "smallint" : e == COLTYPE_INTEGER ? "integer" : "bigint";
}

static int host_out_of_range(host_run_ctx *x, coltype_id e) {
  sql_error_set(x->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, -1, "%s out of range", host_int_type_name(e));
  return -1;
}

static int host_div_zero(host_run_ctx *x) {
  sql_error_set(x->pErr, SQLSTATE_DIVISION_BY_ZERO, -1, "division by zero");
  return -1;
}

/* Integer a op b in type e's range. */
static int host_arith_int(host_run_ctx *x, int eOp, coltype_id e, int64_t a, int64_t b, int64_t *pv) {
  int64_t v = 0;
  switch (eOp) {
    case SQL_OP_ADD:
      if (__builtin_add_overflow(a, b, &v)) return host_out_of_range(x, e);
      break;
    case SQL_OP_SUB:
      if (__builtin_sub_overflow(a, b, &v)) return host_out_of_range(x, e);
      break;
    case SQL_OP_MUL:
      if (__builtin_mul_overflow(a, b, &v)) return host_out_of_range(x, e);
      break;
    case SQL_OP_DIV:
      if (b == 0) return host_div_zero(x);
      if (b == -1) {
        if (__builtin_sub_overflow((int64_t)0, a, &v)) return host_out_of_range(x, e);
      } else {
        v = a / b;
      }
      break;
    case SQL_OP_MOD:
      if (b == 0) return host_div_zero(x);
      v = b == -1 ? 0 : a % b;
      break;
    default:
      sql_error_set(x->pErr, SQLSTATE_INTERNAL_ERROR, -1, "unknown arithmetic operator %d", eOp);
      return -1;
  }
  if ((e == COLTYPE_SMALLINT && (v < INT16_MIN || v > INT16_MAX)) ||
      (e == COLTYPE_INTEGER && (v < INT32_MIN || v > INT32_MAX))) {
    return host_out_of_range(x, e);
  }
  *pv = v;
  return 0;
}

static int host_arith_double(host_run_ctx *x, int eOp, double a, double b, double *pv) {
  double v;
  switch (eOp) {
    case SQL_OP_ADD: v = a + b; break;
    case SQL_OP_SUB: v = a - b; break;
    case SQL_OP_MUL: v = a * b; break;
    case SQL_OP_DIV:
      if (b == 0.0) return host_div_zero(x);
      v = a / b;
      break;
    default:
      sql_error_set(x->pErr, SQLSTATE_INTERNAL_ERROR, -1, "operator %d on double precision", eOp);
      return -1;
  }
  if (isinf(v) && !isinf(a) && !isinf(b)) {
    sql_error_set(x->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, -1, "value out of range: overflow");
    return -1;
  }
  if (v == 0.0 && a != 0.0 && b != 0.0 && eOp != SQL_OP_ADD && eOp != SQL_OP_SUB) {
    sql_error_set(x->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, -1, "value out of range: underflow");
    return -1;
  }
  *pv = v;
  return 0;
}

/* A number as the type arithmetic of type t computes in. */
static int host_to(host_run_ctx *x, const datum *d, coltype t, datum *pOut) {
  if (d->type.eId == t.eId && !host__is_numeric(t.eId)) {
    *pOut = *d;
    return 0;
  }
  if (host__is_numeric(t.eId)) {
    coltype u = t;
    u.nPrecision = 0;                        /* no rounding on the way in */
    u.eId = COLTYPE_NUMERIC;
    if (host__is_numeric(d->type.eId)) {
      *pOut = *d;
      return 0;
    }
    return host__cast(x, d, u, pOut);
  }
  return host__cast(x, d, t, pOut);
}

static int host_arith(host_run_ctx *x, int eOp, const datum *a, const datum *b, coltype t,
                      datum *pOut) {
  datum ca, cb;
  coltype_id ea = a->type.eId, eb = b->type.eId;
  *pOut = datum_null(t.eId);
  pOut->type = t;
  pOut->bNull = 0;
  /* Dates: date +- integer, date - date. */
  if (ea == COLTYPE_DATE || eb == COLTYPE_DATE) {
    if (ea == COLTYPE_DATE && eb == COLTYPE_DATE) {
      pOut->u.i = a->u.i - b->u.i;
      return 0;
    }
    {
      int64_t nDay = ea == COLTYPE_DATE ? b->u.i : a->u.i, iDate = ea == COLTYPE_DATE ? a->u.i : b->u.i;
      int32_t r;
      if (eOp == SQL_OP_SUB) nDay = -nDay;
      if (dt_date_add_days((int32_t)iDate, nDay, &r) != 0) {
        sql_error_set(x->pErr, SQLSTATE_INVALID_DATETIME, -1, "date out of range");
        return -1;
      }
      pOut->u.i = r;
      return 0;
    }
  }
  if (host__is_int(t.eId)) {
    if (host_to(x, a, t, &ca) != 0 || host_to(x, b, t, &cb) != 0) return -1;
    return host_arith_int(x, eOp, t.eId, ca.u.i, cb.u.i, &pOut->u.i);
  }
  if (t.eId == COLTYPE_DOUBLE || t.eId == COLTYPE_FLOAT4) {
    if (host_to(x, a, t, &ca) != 0 || host_to(x, b, t, &cb) != 0) return -1;
    return host_arith_double(x, eOp, ca.u.r, cb.u.r, &pOut->u.r);
  }
  if (host__is_numeric(t.eId)) {
    int rc;
    if (host_to(x, a, t, &ca) != 0 || host_to(x, b, t, &cb) != 0) return -1;
    switch (eOp) {
      case SQL_OP_ADD: rc = numeric_add(&ca.u.n, &cb.u.n, &pOut->u.n); break;
      case SQL_OP_SUB: rc = numeric_sub(&ca.u.n, &cb.u.n, &pOut->u.n); break;
      case SQL_OP_MUL: rc = numeric_mul(&ca.u.n, &cb.u.n, &pOut->u.n); break;
      case SQL_OP_DIV: rc = numeric_div(&ca.u.n, &cb.u.n, &pOut->u.n); break;
      case SQL_OP_MOD: rc = numeric_mod(&ca.u.n, &cb.u.n, &pOut->u.n); break;
      default: rc = NUMERIC_E_OVERFLOW; break;
    }
    if (rc != NUMERIC_OK) {
      numeric_error(rc, "numeric", x->pErr);
      return -1;
    }
    return 0;
  }
  sql_error_set(x->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1, "arithmetic on this type is not supported yet");
  return -1;
}

int host__add(host_run_ctx *x, const datum *a, const datum *b, coltype t, datum *pOut) {
  return host_arith(x, SQL_OP_ADD, a, b, t, pOut);
}

int host__compare_op(int eOp, const datum *a, const datum *b) {
  int c = host__is_text(a->type.eId) && host__is_text(b->type.eId) && (eOp == SQL_OP_EQ || eOp == SQL_OP_NE)
              ? !host__datum_eq(a, b)
              : host_datum_cmp(a, b);
  switch (eOp) {
    case SQL_OP_EQ: return c == 0;
    case SQL_OP_NE: return c != 0;
    case SQL_OP_LT: return c < 0;
    case SQL_OP_LE: return c <= 0;
    case SQL_OP_GT: return c > 0;
    case SQL_OP_GE: return c >= 0;
    default: return 0;
  }
}

/* ---- LIKE ------------------------------------------------------------------- */

static int host_lower(int c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

/* Length of the UTF-8 character at z (1 for a stray byte). */
static uint32_t host_char_len(const char *z, uint32_t n) {
  unsigned char b = (unsigned char)z[0];
  uint32_t k = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
  return k > n ? n : k;
}

/* PostgreSQL's LIKE: % any run, _ one character, \ escapes the next. */
static int host_like(const char *s, uint32_t ns, const char *p, uint32_t np, int bFold) {
  while (np > 0) {
    if (p[0] == '%') {
      p++, np--;
      while (np > 0 && p[0] == '%') p++, np--;
      if (np == 0) return 1;
      for (;;) {
        if (host_like(s, ns, p, np, bFold)) return 1;
        if (ns == 0) return 0;
        {
          uint32_t k = host_char_len(s, ns);
          s += k, ns -= k;
        }
      }
    }
    if (ns == 0) return 0;
    if (p[0] == '_') {
      uint32_t k = host_char_len(s, ns);
      s += k, ns -= k;
      p++, np--;
      continue;
    }
    if (p[0] == '\\' && np > 1) p++, np--;
    {
      uint32_t k = host_char_len(p, np);
      if (k > ns) return 0;
      if (bFold ? (k != 1 || host_lower(p[0]) != host_lower(s[0])) && memcmp(p, s, k) != 0
                : memcmp(p, s, k) != 0) {
        return 0;
      }
      s += k, ns -= k;
      p += k, np -= k;
    }
  }
  return ns == 0;
}

/* ---- evaluation -------------------------------------------------------------- */

static void host_bool(datum *pOut, int b) { *pOut = datum_bool(b); }

static void host_null(datum *pOut, coltype t) {
  *pOut = datum_null(t.eId);
  pOut->type = t;
}

/* AND/OR over apArg: false (AND) or true (OR) wins over NULL. */
static int host_eval_andor(host_run_ctx *x, const host_expr *e, const datum *aRow, datum *pOut) {
  int bAnd = e->eKind == HX_AND, bNull = 0;
  for (int i = 0; i < e->nArg; i++) {
    datum v;
    if (host__eval(x, e->apArg[i], aRow, &v) != 0) return -1;
    if (v.bNull) {
      bNull = 1;
      continue;
    }
    if ((v.u.i != 0) != bAnd) {
      host_bool(pOut, !bAnd);
      return 0;
    }
  }
  if (bNull) host_null(pOut, e->type);
  else host_bool(pOut, bAnd);
  return 0;
}

static int host_eval_case(host_run_ctx *x, const host_expr *e, const datum *aRow, datum *pOut) {
  int nPair = e->nArg / 2;
  for (int i = 0; i < nPair; i++) {
    int b;
    if (host__eval_true(x, e->apArg[2 * i], aRow, &b) != 0) return -1;
    if (b) return host__eval(x, e->apArg[2 * i + 1], aRow, pOut);
  }
  if ((e->nArg & 1) != 0 && e->apArg[e->nArg - 1] != NULL) {
    return host__eval(x, e->apArg[e->nArg - 1], aRow, pOut);
  }
  host_null(pOut, e->type);
  return 0;
}

/* x [NOT] IN (list): true on a match; else NULL if x or an item is NULL. */
static int host_eval_in(host_run_ctx *x, const host_expr *e, const datum *aRow, datum *pOut) {
  datum v;
  int bNull = 0;
  if (host__eval(x, e->apArg[0], aRow, &v) != 0) return -1;
  if (v.bNull) {
    host_null(pOut, e->type);
    return 0;
  }
  for (int i = 1; i < e->nArg; i++) {
    datum w;
    if (host__eval(x, e->apArg[i], aRow, &w) != 0) return -1;
    if (w.bNull) {
      bNull = 1;
      continue;
    }
    if (host__compare_op(SQL_OP_EQ, &v, &w)) {
      host_bool(pOut, !e->bNot);
      return 0;
    }
  }
  if (bNull) host_null(pOut, e->type);
  else host_bool(pOut, e->bNot);
  return 0;
}

/* array[i]: the element, NULL out of range (PostgreSQL's subscripting). */
static int host_eval_subscript(host_run_ctx *x, const host_expr *e, const datum *aRow, datum *pOut) {
  datum a, i;
  int64_t k;
  if (host__eval(x, e->apArg[0], aRow, &a) != 0 || host__eval(x, e->apArg[1], aRow, &i) != 0) return -1;
  if (a.bNull || i.bNull) {
    host_null(pOut, e->type);
    return 0;
  }
  k = i.u.i - (a.type.eId == COLTYPE_INT2VECTOR || a.type.eId == COLTYPE_OIDVECTOR ? 0 : 1);
  if (k < 0 || k >= (int64_t)a.u.a.n) host_null(pOut, e->type);
  else *pOut = a.u.a.a[k];
  return 0;
}

/* v op ANY (array): true on a true comparison, else NULL if v or an
** element was NULL, else false; ALL the converse. An empty array answers
** false for ANY and true for ALL, whatever v is. */
static int host_eval_any_array(host_run_ctx *x, const host_expr *e, const datum *aRow, datum *pOut) {
  datum v, a;
  int bNull = 0;
  if (host__eval(x, e->apArg[0], aRow, &v) != 0 || host__eval(x, e->apArg[1], aRow, &a) != 0) return -1;
  if (a.bNull || (v.bNull && a.u.a.n > 0)) {
    host_null(pOut, e->type);
    return 0;
  }
  for (uint32_t i = 0; i < a.u.a.n; i++) {
    const datum *w = &a.u.a.a[i];
    if (w->bNull) {
      bNull = 1;
    } else if (host__compare_op(e->eOp, &v, w) != e->bAll) {
      host_bool(pOut, !e->bAll);
      return 0;
    }
  }
  if (bNull) host_null(pOut, e->type);
  else host_bool(pOut, e->bAll);
  return 0;
}

static int host_eval_func(host_run_ctx *x, const host_expr *e, const datum *aRow, datum *pOut) {
  datum aArg[FUNC_ARGS_MAX];
  int nArg = e->nArg > FUNC_ARGS_MAX ? FUNC_ARGS_MAX : e->nArg;
  for (int i = 0; i < nArg; i++) {
    if (host__eval(x, e->apArg[i], aRow, &aArg[i]) != 0) return -1;
    if (aArg[i].bNull && (e->pFunc->mFlag & FUNC_STRICT)) {
      host_null(pOut, e->type);
      return 0;
    }
  }
  if (e->pFunc->xHost == NULL) {
    sql_error_set(x->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1, "function %s has no host implementation",
                  e->pFunc->zName);
    return -1;
  }
  if (e->pFunc->xHost(&x->fc, nArg, aArg, pOut, x->pErr) != 0) return -1;
  if (!pOut->bNull && e->type.eId != COLTYPE_UNKNOWN) pOut->type = e->type;
  return 0;
}

int host__eval(host_run_ctx *x, const host_expr *e, const datum *aRow, datum *pOut) {
  datum a, b;
  switch (e->eKind) {
    case HX_CONST:
      *pOut = e->v;
      return 0;
    case HX_COL:
      *pOut = aRow[e->iCol];
      return 0;
    case HX_PARAM:
      *pOut = x->aParam[e->iCol];
      return 0;
    case HX_ARITH:
      if (host__eval(x, e->apArg[0], aRow, &a) != 0) return -1;
      if (e->nArg == 1) {
        datum z;
        if (a.bNull) {
          host_null(pOut, e->type);
          return 0;
        }
        z = a;
        if (host__is_numeric(a.type.eId)) z.u.n = numeric_from_int64(0);
        else if (a.type.eId == COLTYPE_DOUBLE || a.type.eId == COLTYPE_FLOAT4) z.u.r = 0.0;
        else z.u.i = 0;
        if (host__is_numeric(a.type.eId)) {
          *pOut = a;
          pOut->u.n = numeric_neg(&a.u.n);
          pOut->type = e->type;
          return 0;
        }
        return host_arith(x, SQL_OP_SUB, &z, &a, e->type, pOut);
      }
      if (host__eval(x, e->apArg[1], aRow, &b) != 0) return -1;
      if (a.bNull || b.bNull) {
        host_null(pOut, e->type);
        return 0;
      }
      return host_arith(x, e->eOp, &a, &b, e->type, pOut);
    case HX_CMP:
      if (host__eval(x, e->apArg[0], aRow, &a) != 0) return -1;
      if (host__eval(x, e->apArg[1], aRow, &b) != 0) return -1;
      if (a.bNull || b.bNull) host_null(pOut, e->type);
      else host_bool(pOut, host__compare_op(e->eOp, &a, &b));
      return 0;
    case HX_AND:
    case HX_OR:
      return host_eval_andor(x, e, aRow, pOut);
    case HX_NOT:
      if (host__eval(x, e->apArg[0], aRow, &a) != 0) return -1;
      if (a.bNull) host_null(pOut, e->type);
      else host_bool(pOut, a.u.i == 0);
      return 0;
    case HX_IS_NULL:
      if (host__eval(x, e->apArg[0], aRow, &a) != 0) return -1;
      host_bool(pOut, a.bNull != e->bNot);
      return 0;
    case HX_IS_DISTINCT: {
      int bDistinct;
      if (host__eval(x, e->apArg[0], aRow, &a) != 0) return -1;
      if (host__eval(x, e->apArg[1], aRow, &b) != 0) return -1;
      if (a.bNull || b.bNull) bDistinct = a.bNull != b.bNull;
      else bDistinct = !host__compare_op(SQL_OP_EQ, &a, &b);
      host_bool(pOut, bDistinct != e->bNot);
      return 0;
    }
    case HX_IS_BOOL: {
      int b2;
      if (host__eval(x, e->apArg[0], aRow, &a) != 0) return -1;
      b2 = e->eOp == SQL_OP_IS_UNKNOWN ? a.bNull
           : e->eOp == SQL_OP_IS_TRUE  ? !a.bNull && a.u.i != 0
                                       : !a.bNull && a.u.i == 0;
      host_bool(pOut, b2 != e->bNot);
      return 0;
    }
    case HX_CASE:
      return host_eval_case(x, e, aRow, pOut);
    case HX_CAST:
      if (host__eval(x, e->apArg[0], aRow, &a) != 0) return -1;
      if (a.bNull) {
        host_null(pOut, e->type);
        return 0;
      }
      return host__cast(x, &a, e->type, pOut);
    case HX_IN_LIST:
      return host_eval_in(x, e, aRow, pOut);
    case HX_LIKE:
      if (host__eval(x, e->apArg[0], aRow, &a) != 0) return -1;
      if (host__eval(x, e->apArg[1], aRow, &b) != 0) return -1;
      if (a.bNull || b.bNull) host_null(pOut, e->type);
      else host_bool(pOut, host_like(a.u.s.z, a.u.s.n, b.u.s.z, b.u.s.n, e->eOp == SQL_OP_ILIKE) != e->bNot);
      return 0;
    case HX_FUNC:
      return host_eval_func(x, e, aRow, pOut);
    case HX_SUBPLAN:
      return host__subplan_eval(x, e->pSub, aRow, pOut);
    case HX_COALESCE:
      for (int i = 0; i < e->nArg; i++) {
        if (host__eval(x, e->apArg[i], aRow, pOut) != 0) return -1;
        if (!pOut->bNull) return 0;
      }
      host_null(pOut, e->type);
      return 0;
    case HX_SUBSCRIPT:
      return host_eval_subscript(x, e, aRow, pOut);
    case HX_ANY_ARRAY:
      return host_eval_any_array(x, e, aRow, pOut);
    case HX_NULLIF:
      if (host__eval(x, e->apArg[0], aRow, &a) != 0) return -1;
      if (host__eval(x, e->apArg[1], aRow, &b) != 0) return -1;
      if (!a.bNull && !b.bNull && host__compare_op(SQL_OP_EQ, &a, &b)) host_null(pOut, e->type);
      else *pOut = a;
      return 0;
  }
  sql_error_set(x->pErr, SQLSTATE_INTERNAL_ERROR, -1, "unknown host expression kind %d", (int)e->eKind);
  return -1;
}

int host__eval_true(host_run_ctx *x, const host_expr *e, const datum *aRow, int *pb) {
  datum v;
  if (host__eval(x, e, aRow, &v) != 0) return -1;
  *pb = !v.bNull && v.u.i != 0;
  return 0;
}
