/*
** planner/dag_expr.c — a bound expression (parser/ast.h, typed by the
** binder) as a host expression (host/host.h) over the host row a query's
** clauses read: before grouping the FROM items' columns side by side,
** after it the group keys and the aggregates (dagInt.h: dag_xlate).
**
** Every node keeps the type the binder gave it, so the host computes
** what the device would: the same result types, the same overflow
** checks. Literals are their text cast to their bound type when the
** tail runs (the host's casts are PostgreSQL's input functions).
**
** INTERFACE ROUTINES (dagInt.h)
**   dag__expr
*/
#include <string.h>

#include "dagInt.h"

static host_expr *dx_new(dag_xlate *t, host_expr_kind e, coltype type, int nArg) {
  host_expr *x = arena_alloc(t->c->pArena, sizeof(host_expr));
  if (x == NULL) {
    dag__oom(t->c);
    return NULL;
  }
  memset(x, 0, sizeof(*x));
  x->eKind = e;
  x->type = type;
  x->nArg = nArg;
  if (nArg > 0 && (x->apArg = arena_alloc(t->c->pArena, sizeof(host_expr *) * (size_t)nArg)) == NULL) {
    dag__oom(t->c);
    return NULL;
  }
  return x;
}

static const coltype dx_tBool = {COLTYPE_BOOLEAN, 0, 0, 0};

/* A type a value of the host may have: a bare NULL or an untyped
** string is text, as PostgreSQL resolves an unknown output column. */
static coltype dx_type(const sql_expr *e) {
  coltype t = e->b.type;
  if (t.eId == COLTYPE_UNKNOWN) t.eId = COLTYPE_TEXT;
  return t;
}

/* A literal: its text, cast to its bound type where that is not text. */
static host_expr *dx_literal(dag_xlate *t, const sql_expr *e) {
  coltype ty = dx_type(e);
  host_expr *k = dx_new(t, HX_CONST, ty, 0), *c;
  if (k == NULL) return NULL;
  switch (e->eKind) {
    case SQL_EXPR_NULL:
      k->v = datum_null(ty.eId);
      k->v.type = ty;
      return k;
    case SQL_EXPR_BOOL:
      k->v = datum_bool(e->bValue);
      return k;
    default:
      break;
  }
  k->v = datum_text(COLTYPE_UNKNOWN, e->zText, (uint32_t)strlen(e->zText));
  k->type.eId = COLTYPE_UNKNOWN;
  if (ty.eId == COLTYPE_TEXT || ty.eId == COLTYPE_VARCHAR || ty.eId == COLTYPE_CHAR) {
    k->v.type = ty;
    k->type = ty;
    return k;
  }
  if ((c = dx_new(t, HX_CAST, ty, 1)) == NULL) return NULL;
  c->apArg[0] = k;
  return c;
}

/* The refusal of what the host cannot compute yet, at e. */
static host_expr *dx_refuse(dag_xlate *t, const sql_expr *e, const char *zWhat) {
  sql_error_set(t->c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                "%s over a derived table or CTE is not supported yet", zWhat);
  return NULL;
}

/* A node over the translations of a0 and a1 (a1 NULL: one argument). */
static host_expr *dx_op(dag_xlate *t, host_expr_kind eKind, int eOp, coltype ty, const sql_expr *a0,
                        const sql_expr *a1) {
  host_expr *x = dx_new(t, eKind, ty, a1 != NULL ? 2 : 1);
  if (x == NULL) return NULL;
  x->eOp = eOp;
  if ((x->apArg[0] = dag__expr(t, a0)) == NULL) return NULL;
  if (a1 != NULL && (x->apArg[1] = dag__expr(t, a1)) == NULL) return NULL;
  return x;
}

static host_expr *dx_binary(dag_xlate *t, const sql_expr *e) {
  switch (e->eOp) {
    case SQL_OP_ADD:
    case SQL_OP_SUB:
    case SQL_OP_MUL:
    case SQL_OP_DIV:
    case SQL_OP_MOD: return dx_op(t, HX_ARITH, e->eOp, dx_type(e), e->pLeft, e->pRight);
    case SQL_OP_EQ:
    case SQL_OP_NE:
    case SQL_OP_LT:
    case SQL_OP_LE:
    case SQL_OP_GT:
    case SQL_OP_GE: return dx_op(t, HX_CMP, e->eOp, dx_tBool, e->pLeft, e->pRight);
    case SQL_OP_AND: return dx_op(t, HX_AND, 0, dx_tBool, e->pLeft, e->pRight);
    case SQL_OP_OR: return dx_op(t, HX_OR, 0, dx_tBool, e->pLeft, e->pRight);
    default: return dx_refuse(t, e, "this operator");
  }
}

/* x [NOT] BETWEEN lo AND hi: x >= lo AND x <= hi, negated for NOT. */
static host_expr *dx_between(dag_xlate *t, const sql_expr *e) {
  host_expr *pAnd = dx_new(t, HX_AND, dx_tBool, 2), *pNot;
  if (pAnd == NULL) return NULL;
  if ((pAnd->apArg[0] = dx_op(t, HX_CMP, SQL_OP_GE, dx_tBool, e->pLeft, e->pList->a[0].pExpr)) == NULL ||
      (pAnd->apArg[1] = dx_op(t, HX_CMP, SQL_OP_LE, dx_tBool, e->pLeft, e->pList->a[1].pExpr)) == NULL) {
    return NULL;
  }
  if (!e->bNot) return pAnd;
  if ((pNot = dx_new(t, HX_NOT, dx_tBool, 1)) == NULL) return NULL;
  pNot->apArg[0] = pAnd;
  return pNot;
}

static host_expr *dx_in(dag_xlate *t, const sql_expr *e) {
  int n = e->pList != NULL ? e->pList->n : 0;
  host_expr *x = dx_new(t, HX_IN_LIST, dx_tBool, n + 1);
  if (x == NULL) return NULL;
  x->bNot = e->bNot;
  if ((x->apArg[0] = dag__expr(t, e->pLeft)) == NULL) return NULL;
  for (int i = 0; i < n; i++) {
    if ((x->apArg[i + 1] = dag__expr(t, e->pList->a[i].pExpr)) == NULL) return NULL;
  }
  return x;
}

/* CASE: searched as it is; a simple CASE's WHENs become operand = WHEN. */
static host_expr *dx_case(dag_xlate *t, const sql_expr *e) {
  int nPair = e->pList->n / 2;
  host_expr *x = dx_new(t, HX_CASE, dx_type(e), 2 * nPair + 1);
  if (x == NULL) return NULL;
  for (int i = 0; i < nPair; i++) {
    const sql_expr *w = e->pList->a[2 * i].pExpr;
    host_expr *h = e->pLeft != NULL ? dx_op(t, HX_CMP, SQL_OP_EQ, dx_tBool, e->pLeft, w) : dag__expr(t, w);
    if (h == NULL || (x->apArg[2 * i + 1] = dag__expr(t, e->pList->a[2 * i + 1].pExpr)) == NULL) {
      return NULL;
    }
    x->apArg[2 * i] = h;
  }
  if (e->pRight != NULL && (x->apArg[2 * nPair] = dag__expr(t, e->pRight)) == NULL) return NULL;
  return x;
}

/* After grouping: the GROUP BY item or aggregate e is, or -1. */
static int dx_post_column(const dag_xlate *t, const sql_expr *e) {
  for (int k = 0; t->pGroup != NULL && k < t->pGroup->n; k++) {
    if (bind__expr_equal(t->pGroup->a[k].pExpr, e)) return k;
  }
  if (e->eKind == SQL_EXPR_FUNC && e->b.iAgg >= 0) return t->nKey + e->b.iAgg;
  return -1;
}

host_subplan *dag__subplan_of(const dag_ctx *c, const sql_expr *e) {
  for (int i = 0; i < c->nSub; i++) {
    if (c->apSubExpr[i] == e) return c->pTail->apSub[i];
  }
  return NULL;
}

/* The enclosing row's columns subquery expression e names, or NULL. */
static const dag_outer *dx_subplan_outer(const dag_ctx *c, const sql_expr *e) {
  for (int i = 0; i < c->nSub; i++) {
    if (c->apSubExpr[i] == e) return c->apSubOuter[i];
  }
  return NULL;
}

/* A subquery expression: its subplan, built when the binder met it. */
static host_expr *dx_subplan(dag_xlate *t, const sql_expr *e) {
  host_subplan *s = dag__subplan_of(t->c, e);
  const dag_outer *o;
  host_expr *x;
  if (s == NULL) {
    sql_error_set(t->c->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "a subquery that was not built");
    return NULL;
  }
  if ((x = dx_new(t, HX_SUBPLAN, e->eKind == SQL_EXPR_SUBQUERY ? dx_type(e) : dx_tBool, 0)) == NULL) {
    return NULL;
  }
  x->pSub = s;
  if ((o = dx_subplan_outer(t->c, e)) != NULL) {
    /* Correlated: the enclosing row's columns it names, evaluated here. */
    s->nParam = o->nParam;
    if ((s->apParam = arena_alloc(t->c->pArena, sizeof(host_expr *) * (size_t)o->nParam)) == NULL) {
      dag__oom(t->c);
      return NULL;
    }
    for (int i = 0; i < o->nParam; i++) {
      if ((s->apParam[i] = dag__expr(t, o->apParam[i])) == NULL) return NULL;
    }
  }
  if (e->eKind == SQL_EXPR_IN) {
    /* IN is = ANY, NOT IN is <> ALL: NULL where PostgreSQL says NULL. */
    s->eKind = e->bNot ? HOST_SUB_ALL : HOST_SUB_ANY;
    s->eOp = e->bNot ? SQL_OP_NE : SQL_OP_EQ;
    s->nTest = 1;
    if ((s->apTest = arena_alloc(t->c->pArena, sizeof(host_expr *))) == NULL) {
      dag__oom(t->c);
      return NULL;
    }
    if ((s->apTest[0] = dag__expr(t, e->pLeft)) == NULL) return NULL;
  } else {
    s->eKind = e->eKind == SQL_EXPR_EXISTS ? HOST_SUB_EXISTS : HOST_SUB_SCALAR;
    s->type = dx_type(e);
  }
  return x;
}

/* A call the binder resolved in func/'s registry (bind__registry_func). */
static host_expr *dx_func(dag_xlate *t, const sql_expr *e) {
  int n = e->pList != NULL ? e->pList->n : 0;
  host_expr *x = dx_new(t, HX_FUNC, dx_type(e), n);
  if (x == NULL) return NULL;
  x->pFunc = e->b.pFunc;
  for (int i = 0; i < n; i++) {
    if ((x->apArg[i] = dag__expr(t, e->pList->a[i].pExpr)) == NULL) return NULL;
  }
  return x;
}

host_expr *dag__expr(dag_xlate *t, const sql_expr *e) {
  if (e->eKind == SQL_EXPR_FUNC && e->pWin != NULL) {
    for (int i = 0; i < t->nWin; i++) {
      if (t->apWin[i] == e) return dag__expr_col(t->c, t->aiWinCol[i], dx_type(e));
    }
    return dx_refuse(t, e, "a window function here");
  }
  if (t->bPost && !e->b.bConstant) {
    int iCol = dx_post_column(t, e);
    if (iCol >= 0) return dag__expr_col(t->c, iCol, dx_type(e));
  }
  switch (e->eKind) {
    case SQL_EXPR_INTEGER:
    case SQL_EXPR_DECIMAL:
    case SQL_EXPR_STRING:
    case SQL_EXPR_DATE:
    case SQL_EXPR_NULL:
    case SQL_EXPR_BOOL: return dx_literal(t, e);
    case SQL_EXPR_COLUMN:
      if (e->b.iSource == BIND_SOURCE_OUTER) {
        host_expr *x = dx_new(t, HX_PARAM, dx_type(e), 0);
        if (x != NULL) x->iCol = e->b.iColumn;
        return x;
      }
      if (t->bPost || e->b.iSource < 0) {
        sql_error_set(t->c->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset,
                      "column \"%s\" is neither grouped nor aggregated", e->zName);
        return NULL;
      }
      return dag__expr_col(t->c, t->aOff[e->b.iSource] + e->b.iColumn, dx_type(e));
    case SQL_EXPR_BINARY: return dx_binary(t, e);
    case SQL_EXPR_UNARY:
      if (e->eOp == SQL_OP_PLUS) return dag__expr(t, e->pLeft);
      if (e->eOp == SQL_OP_NEG) return dx_op(t, HX_ARITH, SQL_OP_SUB, dx_type(e), e->pLeft, NULL);
      if (e->eOp == SQL_OP_NOT) return dx_op(t, HX_NOT, 0, dx_tBool, e->pLeft, NULL);
      return dx_refuse(t, e, "this operator");
    case SQL_EXPR_IS_NULL: {
      host_expr *x = dx_op(t, HX_IS_NULL, 0, dx_tBool, e->pLeft, NULL);
      if (x != NULL) x->bNot = e->bNot;
      return x;
    }
    case SQL_EXPR_BETWEEN: return dx_between(t, e);
    case SQL_EXPR_IN: return e->bSelect ? dx_subplan(t, e) : dx_in(t, e);
    case SQL_EXPR_LIKE: {
      host_expr *x = dx_op(t, HX_LIKE, SQL_OP_LIKE, dx_tBool, e->pLeft, e->pRight);
      if (x != NULL) x->bNot = e->bNot;
      return x;
    }
    case SQL_EXPR_CASE: return dx_case(t, e);
    case SQL_EXPR_SUBQUERY:
    case SQL_EXPR_EXISTS: return dx_subplan(t, e);
    case SQL_EXPR_CAST: return dx_op(t, HX_CAST, 0, dx_type(e), e->pLeft, NULL);
    case SQL_EXPR_SUBSCRIPT: return dx_op(t, HX_SUBSCRIPT, 0, dx_type(e), e->pLeft, e->pList->a[0].pExpr);
    case SQL_EXPR_ANY: {
      host_expr *x = dx_op(t, HX_ANY_ARRAY, e->eOp, dx_tBool, e->pLeft, e->pRight);
      if (x != NULL) x->bAll = e->bAll;
      return x;
    }
    case SQL_EXPR_FUNC:
      if (e->b.iAgg >= 0) {
        sql_error_set(t->c->pErr, SQLSTATE_INTERNAL_ERROR, e->iOffset, "aggregate %s outside its group",
                      e->zName);
        return NULL;
      }
      if (e->b.pFunc != NULL) return dx_func(t, e);
      return dx_refuse(t, e, "this function");
    default: return dx_refuse(t, e, "this expression");
  }
}
