/*
** planner/bind_unsupported.c — what the parser reads and starq cannot run
** yet, refused by the binder with 0A000 "<construct> is not supported
** yet", positioned at the construct, so that no later stage ever sees a
** tree it does not know.
**
** The parser builds full trees for PostgreSQL's SQL (parser/ast.h): set
** operations, WITH, VALUES, subqueries, outer and parenthesized joins,
** functions in FROM, window functions, grouping sets, FILTER, arrays,
** COLLATE, the operators and types PostgreSQL has. Each is refused here
** where the binder first meets it, before its parts are bound where they
** hold something the binder never enters (a subquery, a window, a FILTER,
** whose parameters engine/param.c does not replace either). As later
** issues give them meaning, their cases move from here into the binder.
**
** INTERFACE ROUTINES (bindInt.h)
**   bind__refuse_query     a query's clauses (before anything is bound)
**   bind__refuse_source    a FROM item (before its table is loaded)
**   bind__refuse_expr      an expression kind, operator or call's clause
**   bind__type_text        a type's name in messages
*/
#include <stdio.h>
#include <string.h>

#include "../parser/parser.h"
#include "bindInt.h"

/* Records 0A000 "<zWhat> not supported yet" at iOffset (zWhat says "is"
** or "are"); returns -1. */
static int bind_refuse(bind_ctx *p, int iOffset, const char *zWhat) {
  sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, iOffset, "%s not supported yet", zWhat);
  return -1;
}

const char *bind__type_text(coltype t, int nArrayDim, char *z, size_t n) {
  const char *zName = bind__coltype_name(t);
  if (t.eId == COLTYPE_NUMERIC && t.nPrecision > 0) {
    snprintf(z, n, "numeric(%d,%d)%s", t.nPrecision, t.nScale, nArrayDim > 0 ? "[]" : "");
  } else {
    snprintf(z, n, "%s%s", zName, nArrayDim > 0 ? "[]" : "");
  }
  return z;
}

int bind__refuse_query(bind_ctx *p, const sql_select *s) {
  char zWhat[64];
  switch (s->eOp) {
    case SQL_SELECT_UNION:
    case SQL_SELECT_INTERSECT:
    case SQL_SELECT_EXCEPT: {
      static const char *const azOp[] = {"", "", "UNION", "INTERSECT", "EXCEPT"};
      snprintf(zWhat, sizeof(zWhat), "%s%s is", azOp[s->eOp], s->bAll ? " ALL" : "");
      return bind_refuse(p, s->iOffset, zWhat);
    }
    case SQL_SELECT_VALUES: return bind_refuse(p, s->iOffset, "VALUES lists are");
    case SQL_SELECT_SIMPLE: break;
  }
  if (s->pWith != NULL && (p->pEnv == NULL || !p->pEnv->bOwnWith)) {
    return bind_refuse(p, s->pWith->iOffset,
                       s->pWith->bRecursive ? "WITH RECURSIVE is" : "WITH is");
  }
  if (s->pDistinctOn != NULL) return bind_refuse(p, s->iDistinctOnOffset, "SELECT DISTINCT ON is");
  if (s->pWindows != NULL && s->pWindows->n > 0) {
    return bind_refuse(p, s->pWindows->a[0]->iOffset, "the WINDOW clause is");
  }
  if (s->bWithTies) return bind_refuse(p, s->iFetchOffset, "FETCH FIRST ... WITH TIES is");
  return 0;
}

int bind__refuse_source(bind_ctx *p, const sql_src_item *pItem) {
  static const char *const azJoin[] = {"", "", "LEFT JOIN is", "RIGHT JOIN is", "FULL JOIN is",
                                       "CROSS JOIN is"};
  switch (pItem->eKind) {
    case SQL_SRC_SUBQUERY:
      if (pItem->bLateral) return bind_refuse(p, pItem->iOffset, "LATERAL is");
      return bind_refuse(p, pItem->iOffset, "a subquery in FROM is");
    case SQL_SRC_FUNCTION:
      if (pItem->bLateral) return bind_refuse(p, pItem->iOffset, "LATERAL is");
      return bind_refuse(p, pItem->pFunc->iOffset, "a function in FROM is");
    case SQL_SRC_JOIN: return bind_refuse(p, pItem->iOffset, "a parenthesized join is");
    case SQL_SRC_TABLE: break;
  }
  if (pItem->bNatural) return bind_refuse(p, pItem->iJoinOffset, "NATURAL JOIN is");
  if (pItem->eJoin != SQL_JOIN_COMMA && pItem->eJoin != SQL_JOIN_INNER) {
    return bind_refuse(p, pItem->iJoinOffset, azJoin[pItem->eJoin]);
  }
  if (pItem->nUsing > 0) return bind_refuse(p, pItem->iUsingOffset, "JOIN ... USING is");
  if (pItem->nColAlias > 0) {
    return bind_refuse(p, pItem->iAliasOffset, "a column alias list in FROM is");
  }
  return 0;
}

/* The keyword a call in SQL's own syntax was written with. */
static const char *bind_sql_syntax_name(const char *zName, char *z, size_t n) {
  if (strcmp(zName, "btrim") == 0 || strcmp(zName, "ltrim") == 0 || strcmp(zName, "rtrim") == 0) {
    zName = "trim";
  }
  snprintf(z, n, "%s is", zName);
  for (char *c = z; *c && *c != ' '; c++) {
    if (*c >= 'a' && *c <= 'z') *c = (char)(*c - ('a' - 'A'));
  }
  return z;
}

/* Refuses an operator eOp (with its text zName when NAMED) written at
** iOffset; 0 if the binder types it. */
static int bind_refuse_operator(bind_ctx *p, const sql_expr *e) {
  char zWhat[80];
  if (e->zSchema != NULL && strcmp(e->zSchema, "pg_catalog") != 0) {
    /* PostgreSQL's operators live in pg_catalog; starq has no others. */
    sql_error_set(p->pErr, SQLSTATE_UNDEFINED_FUNCTION, e->iOffset,
                  "operator does not exist: %s.%s", e->zSchema,
                  e->eOp == SQL_OP_NAMED ? e->zName : sql_op_text(e->eOp));
    return -1;
  }
  switch (e->eOp) {
    case SQL_OP_IS_DISTINCT:
      return bind_refuse(p, e->iOffset,
                         e->bNot ? "IS NOT DISTINCT FROM is" : "IS DISTINCT FROM is");
    case SQL_OP_POW:
    case SQL_OP_CONCAT:
    case SQL_OP_REGEX:
    case SQL_OP_IREGEX:
    case SQL_OP_NOT_REGEX:
    case SQL_OP_NOT_IREGEX:
    case SQL_OP_NAMED:
      snprintf(zWhat, sizeof(zWhat), "operator %s is",
               e->eOp == SQL_OP_NAMED ? e->zName : sql_op_text(e->eOp));
      return bind_refuse(p, e->iOffset, zWhat);
    default:
      return 0;
  }
}

/* Refuses the clauses of a call the binder does not run: OVER,
** WITHIN GROUP, ORDER BY in the arguments, and SQL's own syntax for the
** functions it does not know. */
static int bind_refuse_call(bind_ctx *p, const sql_expr *e) {
  char zName[40];
  if (e->pWin != NULL) return bind_refuse(p, e->pWin->iOffset, "window functions are");
  if (e->bWithinGroup) return bind_refuse(p, e->iOffset, "WITHIN GROUP is");
  if (e->pOrderBy != NULL && (e->zName == NULL || (strcmp(e->zName, "string_agg") != 0 &&
                                                     strcmp(e->zName, "array_agg") != 0))) {
    return bind_refuse(p, e->pOrderBy->a[0].pExpr->iOffset, "ORDER BY in aggregate arguments is");
  }
  if (e->bSqlSyntax && !bind__string_func_name(e->zName)) {
    return bind_refuse(p, e->iOffset, bind_sql_syntax_name(e->zName, zName, sizeof(zName)));
  }
  return 0;
}

int bind__refuse_expr(bind_ctx *p, const sql_expr *e) {
  char zWhat[80];
  switch (e->eKind) {
    case SQL_EXPR_SUBQUERY: return bind_refuse(p, e->iOffset, "scalar subqueries are");
    case SQL_EXPR_EXISTS: return bind_refuse(p, e->iOffset, "EXISTS subqueries are");
    case SQL_EXPR_IN:
      if (!e->bSelect) return 0;
      return bind_refuse(p, e->iOffset, e->bNot ? "NOT IN subqueries are" : "IN subqueries are");
    case SQL_EXPR_ANY:
      snprintf(zWhat, sizeof(zWhat), "%s %s", e->bAll ? "ALL" : "ANY",
               e->bSelect ? "subqueries are" : "(array) is");
      return bind_refuse(p, e->iOffset, zWhat);
    case SQL_EXPR_ARRAY:
      return bind_refuse(p, e->iOffset,
                         e->bSelect ? "ARRAY subqueries are" : "ARRAY constructors are");
    case SQL_EXPR_SUBSCRIPT: return bind_refuse(p, e->iOffset, "array subscripts are");
    case SQL_EXPR_COLLATE: return bind_refuse(p, e->iOffset, "COLLATE is");
    case SQL_EXPR_IS_BOOL:
      snprintf(zWhat, sizeof(zWhat), "IS %s%s is", e->bNot ? "NOT " : "", sql_op_text(e->eOp) + 3);
      return bind_refuse(p, e->iOffset, zWhat);
    case SQL_EXPR_ROW:
      return bind_refuse(p, e->iOffset, e->pList == NULL ? "the empty grouping set () is"
                                                         : "row constructors are");
    case SQL_EXPR_ROLLUP: return bind_refuse(p, e->iOffset, "ROLLUP is");
    case SQL_EXPR_CUBE: return bind_refuse(p, e->iOffset, "CUBE is");
    case SQL_EXPR_GROUPING_SETS: return bind_refuse(p, e->iOffset, "GROUPING SETS is");
    case SQL_EXPR_UNARY:
    case SQL_EXPR_BINARY: return bind_refuse_operator(p, e);
    case SQL_EXPR_BETWEEN:
      return e->bSymmetric ? bind_refuse(p, e->iOffset, "BETWEEN SYMMETRIC is") : 0;
    case SQL_EXPR_LIKE:
      if (e->eOp == SQL_OP_SIMILAR) return bind_refuse(p, e->iOffset, "SIMILAR TO is");
      if (e->pList != NULL) return bind_refuse(p, e->iClauseOffset, "LIKE ... ESCAPE is");
      return 0;
    case SQL_EXPR_CAST:
      if (e->nCastDim > 0) return bind_refuse(p, e->iOffset, "array types are");
      if ((e->castType.eId == COLTYPE_TIMESTAMP || e->castType.eId == COLTYPE_TIMESTAMPTZ) &&
          e->castType.nScale != COLTYPE_TIME_PRECISION_MAX) {
        return bind_refuse(p, e->iOffset, "a timestamp precision other than 6 is");
      }
      if (e->castType.eId > COLTYPE_UNKNOWN && e->castType.eId != COLTYPE_TIMESTAMP &&
          e->castType.eId != COLTYPE_TIMESTAMPTZ) {
        char zType[64];
        snprintf(zWhat, sizeof(zWhat), "type %s is",
                 bind__type_text(e->castType, 0, zType, sizeof(zType)));
        return bind_refuse(p, e->iOffset, zWhat);
      }
      return 0;
    case SQL_EXPR_FUNC: return bind_refuse_call(p, e);
    case SQL_EXPR_INTEGER:
    case SQL_EXPR_DECIMAL:
    case SQL_EXPR_STRING:
    case SQL_EXPR_DATE:
    case SQL_EXPR_NULL:
    case SQL_EXPR_BOOL:
    case SQL_EXPR_COLUMN:
    case SQL_EXPR_STAR:
    case SQL_EXPR_IS_NULL:
    case SQL_EXPR_CASE:
    case SQL_EXPR_PARAM:
      return 0;
  }
  return 0;
}
