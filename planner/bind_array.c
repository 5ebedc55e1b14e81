/*
** planner/bind_array.c — arrays in host queries: a subscript (x[i]) and a
** comparison with ANY or ALL of an array (a = ANY (x)), over the arrays
** pg_catalog's relations and functions hold (pg_constraint.conkey int2[],
** pg_index.indkey int2vector, current_schemas() name[]). The host
** evaluates them as PostgreSQL does (host/expr.c): an int2vector or
** oidvector counts from 0, an array from 1 (every array starq makes
** starts there); a subscript out of range or NULL is NULL; ANY is true
** if one comparison is, else NULL if one was NULL, else false, and ALL
** the converse.
**
** Kernels know no arrays: outside a host query both are refused as
** before (0A000), and so are slices, ANY over a subquery or with LIKE,
** and an array written as a string literal.
**
** INTERFACE ROUTINES
**   bind__subscript, bind__any_array  (bindInt.h)
*/
#include <stdio.h>
#include <string.h>

#include "../parser/parser.h"
#include "bindInt.h"

static int bind_array_is_host(const bind_ctx *p) {
  return p->pEnv != NULL && p->pEnv->bHostFuncs;
}

/* Sets *pElem to the element type of array type t and returns 1, or
** returns 0 if t is no array. */
static int bind_array_elem(coltype t, coltype *pElem) {
  memset(pElem, 0, sizeof(*pElem));
  switch (t.eId) {
    case COLTYPE_ARRAY: *pElem = coltype_elem(t); return 1;
    case COLTYPE_INT2VECTOR: pElem->eId = COLTYPE_SMALLINT; return 1;
    case COLTYPE_OIDVECTOR: pElem->eId = COLTYPE_OID; return 1;
    default: return 0;
  }
}

static void bind_array_inherit(sql_expr *e, const sql_expr *c) {
  e->b.bConstant = e->b.bConstant && c->b.bConstant;
  e->b.bHasAgg = e->b.bHasAgg || c->b.bHasAgg;
}

int bind__subscript(bind_ctx *p, sql_expr *e) {
  sql_expr *a = e->pLeft, *i;
  coltype elem;
  if (!bind_array_is_host(p) || e->bSlice || e->pList == NULL || e->pList->n != 1) {
    return bind__refuse_expr(p, e);
  }
  i = e->pList->a[0].pExpr;
  if (bind__expr(p, a) != 0 || bind__expr(p, i) != 0) return -1;
  bind_array_inherit(e, a);
  bind_array_inherit(e, i);
  if (!bind_array_elem(a->b.type, &elem)) {
    sql_error_set(p->pErr, SQLSTATE_DATATYPE_MISMATCH, e->iOffset,
                  "cannot subscript type %s because it does not support subscripting",
                  bind__type_name(a));
    return -1;
  }
  if (bind__is_unknown(i)) {
    static const coltype tInt = {COLTYPE_INTEGER, 0, 0, 0};
    if (bind__literal_coerce(p, i, tInt) != 0) return -1;
  }
  if (i->b.type.eId != COLTYPE_SMALLINT && i->b.type.eId != COLTYPE_INTEGER &&
      i->b.type.eId != COLTYPE_BIGINT) {
    sql_error_set(p->pErr, SQLSTATE_DATATYPE_MISMATCH, i->iOffset, "array subscript must have type integer");
    return -1;
  }
  e->b.type = elem;
  return 0;
}

int bind__any_array(bind_ctx *p, sql_expr *e) {
  sql_expr *a = e->pLeft, *r = e->pRight;
  coltype elem;
  if (!bind_array_is_host(p) || e->bSelect || r == NULL || e->eOp < SQL_OP_EQ || e->eOp > SQL_OP_GE) {
    return bind__refuse_expr(p, e);
  }
  if (bind__expr(p, a) != 0 || bind__expr(p, r) != 0) return -1;
  bind_array_inherit(e, a);
  bind_array_inherit(e, r);
  if (bind__is_unknown(r)) return bind__refuse_expr(p, e);
  if (!bind_array_elem(r->b.type, &elem)) {
    sql_error_set(p->pErr, SQLSTATE_WRONG_OBJECT_TYPE, e->iOffset,
                  "op ANY/ALL (array) requires array on right side");
    return -1;
  }
  if (bind__is_unknown(a)) {
    if (bind__literal_coerce(p, a, elem) != 0) return -1;
  } else if (!bind__comparable(a->b.type, elem)) {
    sql_error_set(p->pErr, SQLSTATE_UNDEFINED_FUNCTION, e->iOffset, "operator does not exist: %s %s %s",
                  bind__type_name(a), sql_op_text(e->eOp), bind__coltype_name(elem));
    return -1;
  }
  e->b.type.eId = COLTYPE_BOOLEAN;
  return 0;
}
