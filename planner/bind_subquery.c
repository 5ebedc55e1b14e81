/*
** planner/bind_subquery.c — subqueries used as expressions: a scalar
** subquery, EXISTS, x [NOT] IN (SELECT ...). The binder does not build
** them: the environment of the SELECT does (bind_env.xSubquery: the
** statement's DAG makes each a query of its own, dag_query.c), and tells
** the binder the columns it makes, from which the expression is typed
** and checked as PostgreSQL checks it. Without an environment that
** builds them, they are refused (0A000) as before.
**
** INTERFACE ROUTINES (bindInt.h)
**   bind__subquery
*/
#include "bindInt.h"

int bind__subquery(bind_ctx *p, sql_expr *e) {
  coltype aType[8];
  int nCol = 0;
  sql_expr *x = e->eKind == SQL_EXPR_IN ? e->pLeft : NULL;
  if (p->pEnv == NULL || p->pEnv->xSubquery == NULL || e->pSelect == NULL) {
    return bind__refuse_expr(p, e);
  }
  if (x != NULL && bind__expr(p, x) != 0) return -1;
  if (p->pEnv->xSubquery(p->pEnv->pArg, e, &nCol, aType, p->pErr) != 0) return -1;
  e->b.bConstant = 0;                        /* its rows are the run's */
  switch (e->eKind) {
    case SQL_EXPR_SUBQUERY:
      if (nCol != 1) {
        sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, e->iOffset, "subquery must return only one column");
        return -1;
      }
      e->b.type = aType[0];
      return 0;
    case SQL_EXPR_EXISTS:
      e->b.type.eId = COLTYPE_BOOLEAN;
      return 0;
    default:
      break;
  }
  /* x [NOT] IN (SELECT c): x = c for each row. */
  if (nCol != 1) {
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, e->iOffset,
                  nCol > 1 ? "subquery has too many columns" : "subquery has too few columns");
    return -1;
  }
  e->b.type.eId = COLTYPE_BOOLEAN;
  e->b.bHasAgg = x->b.bHasAgg;
  if (bind__is_unknown(x)) return bind__literal_coerce(p, x, aType[0]);
  if (!bind__comparable(x->b.type, aType[0])) {
    sql_error_set(p->pErr, SQLSTATE_UNDEFINED_FUNCTION, e->iOffset, "operator does not exist: %s = %s",
                  bind__coltype_name(x->b.type), bind__coltype_name(aType[0]));
    return -1;
  }
  return 0;
}
