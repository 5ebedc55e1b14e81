/*
** parser/deparse-select.c — a query back to SQL text: WITH, SELECT with
** its clauses, VALUES, set operations (parenthesized where PostgreSQL's
** precedence or a clause of an operand needs it), FROM items and joins,
** windows, ORDER BY, LIMIT / FETCH FIRST and OFFSET. Expressions are
** deparse.c's; the two call each other for subqueries.
**
** INTERFACE ROUTINES
**   sql_select_deparse    a query (parser.h)
**   sql__deparse_order, sql__deparse_window (parseInt.h)
*/
#include <string.h>

#include "parseInt.h"

static void deparse_names(strbuf *s, int n, const char *const *az) {
  strbuf_puts(s, "(");
  for (int i = 0; i < n; i++) {
    if (i > 0) strbuf_puts(s, ", ");
    sql__deparse_name(s, az[i]);
  }
  strbuf_puts(s, ")");
}

void sql__deparse_order(strbuf *s, const sql_expr_list *p) {
  for (int i = 0; p != NULL && i < p->n; i++) {
    const sql_expr_item *pItem = &p->a[i];
    if (i > 0) strbuf_puts(s, ", ");
    sql_expr_deparse(s, pItem->pExpr);
    if (pItem->bDesc) strbuf_puts(s, " DESC");
    if (pItem->eNulls == SQL_NULLS_FIRST) strbuf_puts(s, " NULLS FIRST");
    if (pItem->eNulls == SQL_NULLS_LAST) strbuf_puts(s, " NULLS LAST");
  }
}

/* ---- windows ------------------------------------------------------------------ */

static void deparse_bound(strbuf *s, sql_frame_bound e, const sql_expr *pExpr) {
  switch (e) {
    case SQL_BOUND_UNBOUNDED_PRECEDING: strbuf_puts(s, "UNBOUNDED PRECEDING"); break;
    case SQL_BOUND_UNBOUNDED_FOLLOWING: strbuf_puts(s, "UNBOUNDED FOLLOWING"); break;
    case SQL_BOUND_CURRENT_ROW: strbuf_puts(s, "CURRENT ROW"); break;
    case SQL_BOUND_PRECEDING:
    case SQL_BOUND_FOLLOWING:
      sql_expr_deparse(s, pExpr);
      strbuf_puts(s, e == SQL_BOUND_PRECEDING ? " PRECEDING" : " FOLLOWING");
      break;
    case SQL_BOUND_NONE: break;
  }
}

/* Writes the inside of a window's parentheses. */
static void deparse_window_spec(strbuf *s, const sql_window *w) {
  static const char *const azUnit[] = {"", "ROWS", "RANGE", "GROUPS"};
  static const char *const azExclude[] = {"", " EXCLUDE CURRENT ROW", " EXCLUDE GROUP",
                                          " EXCLUDE TIES"};
  const char *zSep = "";
  if (w->zBase != NULL) {
    sql__deparse_name(s, w->zBase);
    zSep = " ";
  }
  if (w->pPartition != NULL) {
    strbuf_printf(s, "%sPARTITION BY ", zSep);
    sql__deparse_list(s, w->pPartition, 0);
    zSep = " ";
  }
  if (w->pOrderBy != NULL) {
    strbuf_printf(s, "%sORDER BY ", zSep);
    sql__deparse_order(s, w->pOrderBy);
    zSep = " ";
  }
  if (w->eUnit != SQL_FRAME_NONE) {
    strbuf_printf(s, "%s%s ", zSep, azUnit[w->eUnit]);
    if (w->bBetween) strbuf_puts(s, "BETWEEN ");
    deparse_bound(s, w->eStart, w->pStart);
    if (w->bBetween) {
      strbuf_puts(s, " AND ");
      deparse_bound(s, w->eEnd, w->pEnd);
    }
    strbuf_puts(s, azExclude[w->eExclude]);
  }
}

void sql__deparse_window(strbuf *s, const sql_window *w) {
  if (w->zRef != NULL) {
    sql__deparse_name(s, w->zRef);
    return;
  }
  strbuf_puts(s, "(");
  deparse_window_spec(s, w);
  strbuf_puts(s, ")");
}

/* ---- FROM -------------------------------------------------------------------- */

static void deparse_from(strbuf *s, const sql_src_list *pList);

static void deparse_src_alias(strbuf *s, const sql_src_item *pItem) {
  if (pItem->zAlias != NULL) {
    strbuf_puts(s, " AS ");
    sql__deparse_name(s, pItem->zAlias);
  }
  if (pItem->nColAlias > 0) deparse_names(s, pItem->nColAlias, pItem->azColAlias);
}

static void deparse_src_join(strbuf *s, const sql_src_item *pItem) {
  static const char *const azJoin[] = {", ", " JOIN ", " LEFT JOIN ", " RIGHT JOIN ",
                                       " FULL JOIN ", " CROSS JOIN "};
  if (pItem->bNatural) {
    strbuf_puts(s, " NATURAL");
    strbuf_puts(s, pItem->eJoin == SQL_JOIN_INNER ? " JOIN " : azJoin[pItem->eJoin]);
  } else {
    strbuf_puts(s, azJoin[pItem->eJoin]);
  }
}

static void deparse_src_item(strbuf *s, const sql_src_item *pItem) {
  switch (pItem->eKind) {
    case SQL_SRC_TABLE:
      if (pItem->zSchema != NULL) {
        sql__deparse_name(s, pItem->zSchema);
        strbuf_puts(s, ".");
      }
      sql__deparse_name(s, pItem->zName);
      break;
    case SQL_SRC_SUBQUERY:
      if (pItem->bLateral) strbuf_puts(s, "LATERAL ");
      strbuf_puts(s, "(");
      sql_select_deparse(s, pItem->pSelect);
      strbuf_puts(s, ")");
      break;
    case SQL_SRC_FUNCTION:
      if (pItem->bLateral) strbuf_puts(s, "LATERAL ");
      sql_expr_deparse(s, pItem->pFunc);
      if (pItem->bOrdinality) strbuf_puts(s, " WITH ORDINALITY");
      break;
    case SQL_SRC_JOIN:
      strbuf_puts(s, "(");
      deparse_from(s, pItem->pNested);
      strbuf_puts(s, ")");
      break;
  }
  deparse_src_alias(s, pItem);
  if (pItem->pOn != NULL) {
    strbuf_puts(s, " ON ");
    sql_expr_deparse(s, pItem->pOn);
  }
  if (pItem->nUsing > 0) {
    strbuf_puts(s, " USING ");
    deparse_names(s, pItem->nUsing, pItem->azUsing);
  }
}

static void deparse_from(strbuf *s, const sql_src_list *pList) {
  for (int i = 0; pList != NULL && i < pList->n; i++) {
    if (i > 0) deparse_src_join(s, &pList->a[i]);
    deparse_src_item(s, &pList->a[i]);
  }
}

/* ---- queries ------------------------------------------------------------------- */

static void deparse_with(strbuf *s, const sql_with *w) {
  static const char *const azMat[] = {"", "MATERIALIZED ", "NOT MATERIALIZED "};
  strbuf_puts(s, w->bRecursive ? "WITH RECURSIVE " : "WITH ");
  for (int i = 0; i < w->nCte; i++) {
    const sql_cte *c = &w->aCte[i];
    if (i > 0) strbuf_puts(s, ", ");
    sql__deparse_name(s, c->zName);
    if (c->nCol > 0) deparse_names(s, c->nCol, c->azCol);
    strbuf_printf(s, " AS %s(", azMat[c->eMaterialized]);
    sql_select_deparse(s, c->pSelect);
    strbuf_puts(s, ")");
  }
  strbuf_puts(s, " ");
}

static void deparse_simple(strbuf *s, const sql_select *p) {
  strbuf_puts(s, "SELECT ");
  if (p->pDistinctOn != NULL) {
    strbuf_puts(s, "DISTINCT ON (");
    sql__deparse_list(s, p->pDistinctOn, 0);
    strbuf_puts(s, ") ");
  } else if (p->bDistinct) {
    strbuf_puts(s, "DISTINCT ");
  }
  for (int i = 0; p->pItems != NULL && i < p->pItems->n; i++) {
    const sql_expr_item *pItem = &p->pItems->a[i];
    if (i > 0) strbuf_puts(s, ", ");
    sql_expr_deparse(s, pItem->pExpr);
    if (pItem->zAlias != NULL) {
      strbuf_puts(s, " AS ");
      sql__deparse_name(s, pItem->zAlias);
    }
  }
  if (p->pFrom != NULL) {
    strbuf_puts(s, " FROM ");
    deparse_from(s, p->pFrom);
  }
  if (p->pWhere != NULL) {
    strbuf_puts(s, " WHERE ");
    sql_expr_deparse(s, p->pWhere);
  }
  if (p->pGroupBy != NULL) {
    strbuf_puts(s, " GROUP BY ");
    sql__deparse_list(s, p->pGroupBy, 0);
  }
  if (p->pHaving != NULL) {
    strbuf_puts(s, " HAVING ");
    sql_expr_deparse(s, p->pHaving);
  }
  for (int i = 0; p->pWindows != NULL && i < p->pWindows->n; i++) {
    const sql_window *w = p->pWindows->a[i];
    strbuf_puts(s, i == 0 ? " WINDOW " : ", ");
    sql__deparse_name(s, w->zName);
    strbuf_puts(s, " AS (");
    deparse_window_spec(s, w);
    strbuf_puts(s, ")");
  }
}

/* Returns how tightly a query binds as an operand of a set operation:
** INTERSECT over UNION and EXCEPT, a plain query over both; a query with
** its own WITH, ORDER BY or LIMIT must stand in parentheses (0). */
static int deparse_set_prec(const sql_select *p) {
  if (p->pWith != NULL || p->pOrderBy != NULL || p->pLimit != NULL || p->pOffset != NULL) return 0;
  switch (p->eOp) {
    case SQL_SELECT_UNION:
    case SQL_SELECT_EXCEPT: return 1;
    case SQL_SELECT_INTERSECT: return 2;
    default: return 3;
  }
}

static void deparse_operand(strbuf *s, const sql_select *p, int bParen) {
  if (bParen) strbuf_puts(s, "(");
  sql_select_deparse(s, p);
  if (bParen) strbuf_puts(s, ")");
}

void sql_select_deparse(strbuf *s, const sql_select *p) {
  static const char *const azOp[] = {"", "", " UNION ", " INTERSECT ", " EXCEPT "};
  if (p == NULL) {
    strbuf_puts(s, "?");
    return;
  }
  if (p->pWith != NULL) deparse_with(s, p->pWith);
  switch (p->eOp) {
    case SQL_SELECT_SIMPLE: deparse_simple(s, p); break;
    case SQL_SELECT_VALUES:
      strbuf_puts(s, "VALUES ");
      sql__deparse_list(s, p->pValues, 0);
      break;
    case SQL_SELECT_UNION:
    case SQL_SELECT_INTERSECT:
    case SQL_SELECT_EXCEPT: {
      int iPrec = p->eOp == SQL_SELECT_INTERSECT ? 2 : 1;
      /* Left-associative: the left operand may be as loose, the right not. */
      deparse_operand(s, p->pLeft, deparse_set_prec(p->pLeft) < iPrec);
      strbuf_printf(s, "%s%s", azOp[p->eOp], p->bAll ? "ALL " : "");
      deparse_operand(s, p->pRight, deparse_set_prec(p->pRight) <= iPrec);
      break;
    }
  }
  if (p->pOrderBy != NULL) {
    strbuf_puts(s, " ORDER BY ");
    sql__deparse_order(s, p->pOrderBy);
  }
  if (p->pLimit != NULL && p->bWithTies) {
    /* FETCH FIRST takes a constant or a parenthesized expression. */
    int bParen = p->pLimit->eKind != SQL_EXPR_INTEGER && p->pLimit->eKind != SQL_EXPR_PARAM;
    strbuf_puts(s, bParen ? " FETCH FIRST (" : " FETCH FIRST ");
    sql_expr_deparse(s, p->pLimit);
    strbuf_puts(s, bParen ? ") ROWS WITH TIES" : " ROWS WITH TIES");
  } else if (p->pLimit != NULL) {
    strbuf_puts(s, " LIMIT ");
    sql_expr_deparse(s, p->pLimit);
  }
  if (p->pOffset != NULL) {
    strbuf_puts(s, " OFFSET ");
    sql_expr_deparse(s, p->pOffset);
  }
}
