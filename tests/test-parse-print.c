/*
** tests/test-parse-print.c — prints a parse tree as one S-expression per
** statement, so that parser tests compare text with text. It reads the
** tree exactly as the binder will (every field that the grammar sets is
** shown), and is test code only: the server never prints trees. This file
** prints expressions and windows; test-parse-print-stmt.c queries and
** statements.
**
** Expressions, by example:
**
**   literals   42  1.5e3  'it''s'  (date '1997-12-31')  null  true  $1
**   columns    (col name)  (col t.name)  (col s.t.name)  (col "Quoted")
**              *  t.*  s.t.*
**   operators  (add a b) sub mul div mod pow eq ne lt le gt ge and or
**              concat regex iregex not-regex not-iregex, (op @> a b) for
**              any other, with :schema s for OPERATOR(s.op); (neg a)
**              (pos a) (not a) (op @ a); (is-distinct a b)
**              (is-not-distinct a b)
**   predicates (is-null a) (is-not-null a) (is-true a) (is-not-false a)
**              (is-unknown a), (between [:symmetric] a lo hi)
**              (not-between ...), (in a x y) (in a (select ...)) (not-in
**              ...), (like a p [:escape e]) ilike similar with not-,
**              (any eq a (select ...)) (all lt a arr) (any not-like ...)
**   others     (cast a DECIMAL(15,2)) (cast a TEXT[]),
**              (case [operand] (when w t) ... [(else e)]),
**              (subquery (select ...)) (exists (select ...)),
**              (array 1 2) (array (select ...)), (subscript a i)
**              (slice a lo hi) with _ for an omitted bound,
**              (collate a "C") (collate a pg_catalog.default),
**              (row a b) (row) (rollup ...) (cube ...) (grouping-sets ...)
**   calls      (name args) (name *) (name distinct args) (s.name args),
**              :sql for SQL's own syntax, then :order (E ...),
**              :within-group (E ...), :filter E, :over W
**   windows    w, or (window [:base w] [:partition E ...] [:order E ...]
**              [:rows|:range|:groups START [:and END]] [:exclude x]) with
**              bounds unbounded-preceding (preceding E) current-row
**              (following E) unbounded-following
**
** With PARSE_PRINT_OFFSETS every expression, FROM item, alias and column
** gets "@N" (its byte offset) and every statement "[offset+length]".
*/
#include <stdarg.h>

#include "test-parse.h"
#include "test.h"

void pp_printf(pp_buf *b, const char *zFmt, ...) {
  va_list ap;
  int n;
  va_start(ap, zFmt);
  n = vsnprintf(NULL, 0, zFmt, ap);
  va_end(ap);
  ASSERT(n >= 0);
  if (b->n + (size_t)n + 1 > b->nAlloc) {
    b->nAlloc = (b->n + (size_t)n + 1) * 2;
    b->z = realloc(b->z, b->nAlloc);
    ASSERT(b->z != NULL);
  }
  va_start(ap, zFmt);
  vsnprintf(b->z + b->n, b->nAlloc - b->n, zFmt, ap);
  va_end(ap);
  b->n += (size_t)n;
}

void pp_offset(pp_buf *b, int iOffset) {
  if (b->mFlags & PARSE_PRINT_OFFSETS) pp_printf(b, "@%d", iOffset);
}

void pp_string(pp_buf *b, const char *z) {
  ASSERT(z != NULL);
  pp_printf(b, "'");
  for (; *z; z++) pp_printf(b, *z == '\'' ? "''" : "%c", *z);
  pp_printf(b, "'");
}

void pp_names(pp_buf *b, int n, const char *const *az) {
  pp_printf(b, "(");
  for (int i = 0; i < n; i++) pp_printf(b, "%s%s", i ? " " : "", az[i]);
  pp_printf(b, ")");
}

static const char *pp_op_name(sql_op e) {
  switch (e) {
    case SQL_OP_ADD: return "add";
    case SQL_OP_SUB: return "sub";
    case SQL_OP_MUL: return "mul";
    case SQL_OP_DIV: return "div";
    case SQL_OP_MOD: return "mod";
    case SQL_OP_EQ: return "eq";
    case SQL_OP_NE: return "ne";
    case SQL_OP_LT: return "lt";
    case SQL_OP_LE: return "le";
    case SQL_OP_GT: return "gt";
    case SQL_OP_GE: return "ge";
    case SQL_OP_AND: return "and";
    case SQL_OP_OR: return "or";
    case SQL_OP_NEG: return "neg";
    case SQL_OP_PLUS: return "pos";
    case SQL_OP_NOT: return "not";
    case SQL_OP_POW: return "pow";
    case SQL_OP_CONCAT: return "concat";
    case SQL_OP_REGEX: return "regex";
    case SQL_OP_IREGEX: return "iregex";
    case SQL_OP_NOT_REGEX: return "not-regex";
    case SQL_OP_NOT_IREGEX: return "not-iregex";
    case SQL_OP_NAMED: return "op";
    case SQL_OP_IS_DISTINCT: return "is-distinct";
    case SQL_OP_LIKE: return "like";
    case SQL_OP_ILIKE: return "ilike";
    case SQL_OP_SIMILAR: return "similar";
    case SQL_OP_IS_TRUE: return "is-true";
    case SQL_OP_IS_FALSE: return "is-false";
    case SQL_OP_IS_UNKNOWN: return "is-unknown";
    case SQL_OP_NONE: break;
  }
  FAIL("operator %d", (int)e);
}

void pp_list(pp_buf *b, const sql_expr_list *pList) {
  ASSERT(pList != NULL && pList->n > 0 && pList->n <= pList->nAlloc);
  for (int i = 0; i < pList->n; i++) {
    pp_printf(b, " ");
    pp_expr(b, pList->a[i].pExpr);
  }
}

void pp_order(pp_buf *b, const sql_expr_list *pList) {
  ASSERT(pList != NULL && pList->n > 0);
  for (int i = 0; i < pList->n; i++) {
    const sql_expr_item *pItem = &pList->a[i];
    pp_printf(b, " ");
    pp_expr(b, pItem->pExpr);
    if (pItem->bDesc) pp_printf(b, " :desc");
    if (pItem->eNulls != SQL_NULLS_DEFAULT) {
      pp_printf(b, pItem->eNulls == SQL_NULLS_FIRST ? " :nulls-first" : " :nulls-last");
    }
    ASSERT(pItem->zAlias == NULL);
  }
}

/* ---- windows ---------------------------------------------------------------- */

static void pp_bound(pp_buf *b, sql_frame_bound e, const sql_expr *x) {
  switch (e) {
    case SQL_BOUND_UNBOUNDED_PRECEDING: ASSERT(x == NULL); pp_printf(b, "unbounded-preceding"); break;
    case SQL_BOUND_UNBOUNDED_FOLLOWING: ASSERT(x == NULL); pp_printf(b, "unbounded-following"); break;
    case SQL_BOUND_CURRENT_ROW: ASSERT(x == NULL); pp_printf(b, "current-row"); break;
    case SQL_BOUND_PRECEDING:
    case SQL_BOUND_FOLLOWING:
      pp_printf(b, "(%s ", e == SQL_BOUND_PRECEDING ? "preceding" : "following");
      pp_expr(b, x);
      pp_printf(b, ")");
      break;
    case SQL_BOUND_NONE: FAIL("a frame without a bound");
  }
}

void pp_window(pp_buf *b, const sql_window *w, int bDefinition) {
  static const char *const azUnit[] = {"", "rows", "range", "groups"};
  static const char *const azExclude[] = {"", "current-row", "group", "ties"};
  ASSERT(w != NULL);
  ASSERT((w->zName != NULL) == (bDefinition != 0));
  if (w->zRef != NULL) {
    ASSERT(w->zBase == NULL && w->pPartition == NULL && w->pOrderBy == NULL);
    ASSERT(w->eUnit == SQL_FRAME_NONE);
    pp_printf(b, "%s", w->zRef);
    pp_offset(b, w->iOffset);
    return;
  }
  pp_printf(b, "(window");
  pp_offset(b, w->iOffset);
  if (w->zName != NULL) pp_printf(b, " :name %s", w->zName);
  if (w->zBase != NULL) pp_printf(b, " :base %s", w->zBase);
  if (w->pPartition != NULL) {
    pp_printf(b, " :partition");
    pp_list(b, w->pPartition);
  }
  if (w->pOrderBy != NULL) {
    pp_printf(b, " :order");
    pp_order(b, w->pOrderBy);
  }
  if (w->eUnit != SQL_FRAME_NONE) {
    pp_printf(b, " :%s", azUnit[w->eUnit]);
    pp_offset(b, w->iFrameOffset);
    pp_printf(b, " ");
    pp_bound(b, w->eStart, w->pStart);
    if (w->bBetween) {
      pp_printf(b, " :and ");
      pp_bound(b, w->eEnd, w->pEnd);
    } else {
      ASSERT(w->eEnd == SQL_BOUND_CURRENT_ROW && w->pEnd == NULL);
    }
    if (w->eExclude != SQL_EXCLUDE_NO_OTHERS) pp_printf(b, " :exclude %s", azExclude[w->eExclude]);
  } else {
    ASSERT(w->eStart == SQL_BOUND_NONE && w->pStart == NULL && w->pEnd == NULL);
  }
  pp_printf(b, ")");
}

/* ---- expressions -------------------------------------------------------------- */

/* Prints ":schema s" for an operator written OPERATOR(s.op). */
static void pp_schema(pp_buf *b, const sql_expr *e) {
  if (e->zSchema != NULL) pp_printf(b, " :schema %s", e->zSchema);
}

static void pp_operator(pp_buf *b, const sql_expr *e) {
  if (e->eOp == SQL_OP_IS_DISTINCT) {
    ASSERT(e->eKind == SQL_EXPR_BINARY);
    pp_printf(b, "%s", e->bNot ? "is-not-distinct" : "is-distinct");
  } else {
    ASSERT(!e->bNot);
    pp_printf(b, "%s", pp_op_name(e->eOp));
    if (e->eOp == SQL_OP_NAMED) pp_printf(b, " %s", e->zName);
  }
  ASSERT(e->eOp == SQL_OP_NAMED || e->zName == NULL);
  pp_offset(b, e->iOffset);
  pp_schema(b, e);
  pp_printf(b, " ");
  pp_expr(b, e->pLeft);
  if (e->eKind == SQL_EXPR_BINARY) {
    pp_printf(b, " ");
    pp_expr(b, e->pRight);
  }
}

static void pp_func(pp_buf *b, const sql_expr *e) {
  pp_printf(b, "%s%s%s", e->zSchema ? e->zSchema : "", e->zSchema ? "." : "", e->zName);
  pp_offset(b, e->iOffset);
  if (e->bSqlSyntax) pp_printf(b, " :sql");
  if (e->bDistinct) pp_printf(b, " distinct");
  if (e->bStar) {
    ASSERT(e->pList == NULL);
    pp_printf(b, " *");
  } else if (e->pList != NULL) {
    pp_list(b, e->pList);
  }
  if (e->pOrderBy != NULL) {
    pp_printf(b, e->bWithinGroup ? " :within-group (" : " :order (");
    pp_order(b, e->pOrderBy);
    pp_printf(b, ")");
  } else {
    ASSERT(!e->bWithinGroup);
  }
  if (e->pFilter != NULL) {
    pp_printf(b, " :filter");
    pp_offset(b, e->iClauseOffset);
    pp_printf(b, " ");
    pp_expr(b, e->pFilter);
  }
  if (e->pWin != NULL) {
    pp_printf(b, " :over ");
    pp_window(b, e->pWin, 0);
  }
}

/* Prints the kinds that hold a query or a row of expressions. */
static void pp_compound(pp_buf *b, const sql_expr *e) {
  static const char *const azName[] = {
    [SQL_EXPR_SUBQUERY] = "subquery", [SQL_EXPR_EXISTS] = "exists", [SQL_EXPR_ARRAY] = "array",
    [SQL_EXPR_ROW] = "row", [SQL_EXPR_ROLLUP] = "rollup", [SQL_EXPR_CUBE] = "cube",
    [SQL_EXPR_GROUPING_SETS] = "grouping-sets",
  };
  pp_printf(b, "%s", azName[e->eKind]);
  pp_offset(b, e->iOffset);
  if (e->eKind == SQL_EXPR_SUBQUERY || e->eKind == SQL_EXPR_EXISTS ||
      (e->eKind == SQL_EXPR_ARRAY && e->bSelect)) {
    ASSERT(e->pList == NULL && e->pSelect != NULL);
    ASSERT(e->nHeight > e->pSelect->nHeight);
    pp_printf(b, " ");
    pp_select(b, e->pSelect);
  } else if (e->pList != NULL) {
    ASSERT(e->pSelect == NULL && !e->bSelect);
    pp_list(b, e->pList);
  } else {
    ASSERT(e->eKind == SQL_EXPR_ROW || e->eKind == SQL_EXPR_ARRAY);
  }
}

static void pp_predicate(pp_buf *b, const sql_expr *e) {
  switch (e->eKind) {
    case SQL_EXPR_IS_NULL:
      pp_printf(b, "%s", e->bNot ? "is-not-null" : "is-null");
      break;
    case SQL_EXPR_IS_BOOL:
      pp_printf(b, "%s%s", e->bNot ? "is-not-" : "is-", pp_op_name(e->eOp) + 3);
      break;
    case SQL_EXPR_BETWEEN:
      ASSERT(e->pList != NULL && e->pList->n == 2);
      pp_printf(b, "%sbetween", e->bNot ? "not-" : "");
      break;
    case SQL_EXPR_IN:
      pp_printf(b, "%sin", e->bNot ? "not-" : "");
      break;
    case SQL_EXPR_LIKE:
      pp_printf(b, "%s%s", e->bNot ? "not-" : "", pp_op_name(e->eOp));
      break;
    default:
      pp_printf(b, "%s %s%s", e->bAll ? "all" : "any", e->bNot ? "not-" : "", pp_op_name(e->eOp));
      if (e->eOp == SQL_OP_NAMED) pp_printf(b, " %s", e->zName);
      break;
  }
  pp_offset(b, e->iOffset);
  if (e->bSymmetric) pp_printf(b, " :symmetric");
  if (e->eKind == SQL_EXPR_ANY) pp_schema(b, e);
  pp_printf(b, " ");
  pp_expr(b, e->pLeft);
  if (e->bSelect) {
    ASSERT(e->pList == NULL && e->pRight == NULL && e->nHeight > e->pSelect->nHeight);
    pp_printf(b, " ");
    pp_select(b, e->pSelect);
  } else if (e->pRight != NULL) {
    pp_printf(b, " ");
    pp_expr(b, e->pRight);
  }
  if (e->eKind == SQL_EXPR_LIKE && e->pList != NULL) {
    pp_printf(b, " :escape");
    pp_offset(b, e->iClauseOffset);
    pp_list(b, e->pList);
  } else if (e->pList != NULL) {
    pp_list(b, e->pList);
  }
}

void pp_expr(pp_buf *b, const sql_expr *e) {
  char zType[64];
  ASSERT(e != NULL);
  /* Heights are what keeps every walk of the tree bounded. */
  ASSERT(e->nHeight >= 1 && e->nHeight <= SQL_DEPTH_MAX);
  ASSERT(e->nHeight > (e->pLeft ? e->pLeft->nHeight : 0));
  ASSERT(e->nHeight > (e->pRight ? e->pRight->nHeight : 0));
  switch (e->eKind) {
    case SQL_EXPR_INTEGER:
    case SQL_EXPR_DECIMAL: pp_printf(b, "%s", e->zText); pp_offset(b, e->iOffset); return;
    case SQL_EXPR_STRING: pp_string(b, e->zText); pp_offset(b, e->iOffset); return;
    case SQL_EXPR_NULL: pp_printf(b, "null"); pp_offset(b, e->iOffset); return;
    case SQL_EXPR_PARAM: pp_printf(b, "$%d", e->iParam); pp_offset(b, e->iOffset); return;
    case SQL_EXPR_BOOL:
      pp_printf(b, "%s", e->bValue ? "true" : "false");
      pp_offset(b, e->iOffset);
      return;
    case SQL_EXPR_STAR:
      ASSERT(e->zSchema == NULL || e->zTable != NULL);
      pp_printf(b, "%s%s%s%s*", e->zSchema ? e->zSchema : "", e->zSchema ? "." : "",
                e->zTable ? e->zTable : "", e->zTable ? "." : "");
      pp_offset(b, e->iOffset);
      return;
    default: break;
  }
  pp_printf(b, "(");
  switch (e->eKind) {
    case SQL_EXPR_DATE:
      pp_printf(b, "date");
      pp_offset(b, e->iOffset);
      pp_printf(b, " ");
      pp_string(b, e->zText);
      break;
    case SQL_EXPR_COLUMN:
      ASSERT(e->zSchema == NULL || e->zTable != NULL);
      pp_printf(b, "col");
      pp_offset(b, e->iOffset);
      pp_printf(b, " %s%s%s%s", e->zSchema ? e->zSchema : "", e->zSchema ? "." : "",
                e->zTable ? e->zTable : "", e->zTable ? "." : "");
      pp_printf(b, e->bQuoted ? "\"%s\"" : "%s", e->zName);
      break;
    case SQL_EXPR_UNARY:
    case SQL_EXPR_BINARY: pp_operator(b, e); break;
    case SQL_EXPR_IS_NULL:
    case SQL_EXPR_IS_BOOL:
    case SQL_EXPR_BETWEEN:
    case SQL_EXPR_IN:
    case SQL_EXPR_LIKE:
    case SQL_EXPR_ANY: pp_predicate(b, e); break;
    case SQL_EXPR_CASE:
      pp_printf(b, "case");
      pp_offset(b, e->iOffset);
      if (e->pLeft != NULL) {
        pp_printf(b, " ");
        pp_expr(b, e->pLeft);
      }
      ASSERT(e->pList != NULL && e->pList->n % 2 == 0);
      for (int i = 0; i < e->pList->n; i += 2) {
        pp_printf(b, " (when ");
        pp_expr(b, e->pList->a[i].pExpr);
        pp_printf(b, " ");
        pp_expr(b, e->pList->a[i + 1].pExpr);
        pp_printf(b, ")");
      }
      if (e->pRight != NULL) {
        pp_printf(b, " (else ");
        pp_expr(b, e->pRight);
        pp_printf(b, ")");
      }
      break;
    case SQL_EXPR_CAST:
      pp_printf(b, "cast");
      pp_offset(b, e->iOffset);
      pp_printf(b, " ");
      pp_expr(b, e->pLeft);
      pp_printf(b, " %s", coltype_format(e->castType, zType, sizeof(zType)));
      for (int i = 0; i < e->nCastDim; i++) pp_printf(b, "[]");
      break;
    case SQL_EXPR_FUNC: pp_func(b, e); break;
    case SQL_EXPR_SUBQUERY:
    case SQL_EXPR_EXISTS:
    case SQL_EXPR_ARRAY:
    case SQL_EXPR_ROW:
    case SQL_EXPR_ROLLUP:
    case SQL_EXPR_CUBE:
    case SQL_EXPR_GROUPING_SETS: pp_compound(b, e); break;
    case SQL_EXPR_SUBSCRIPT:
      pp_printf(b, "%s", e->bSlice ? "slice" : "subscript");
      pp_offset(b, e->iOffset);
      pp_printf(b, " ");
      pp_expr(b, e->pLeft);
      ASSERT(e->pList != NULL && e->pList->n == (e->bSlice ? 2 : 1));
      for (int i = 0; i < e->pList->n; i++) {
        pp_printf(b, " ");
        if (e->pList->a[i].pExpr != NULL) pp_expr(b, e->pList->a[i].pExpr);
        else pp_printf(b, "_");
      }
      break;
    case SQL_EXPR_COLLATE:
      pp_printf(b, "collate");
      pp_offset(b, e->iOffset);
      pp_printf(b, " ");
      pp_expr(b, e->pLeft);
      pp_printf(b, " %s%s%s", e->zSchema ? e->zSchema : "", e->zSchema ? "." : "", e->zName);
      break;
    default: FAIL("expression kind %d", (int)e->eKind);
  }
  pp_printf(b, ")");
}
