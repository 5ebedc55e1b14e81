/*
** parser/ast-select.c — the constructors of queries: SELECT, VALUES,
** TABLE, set operations, WITH, FROM items and joins, windows and their
** frames, DISTINCT ON, LIMIT / OFFSET / FETCH FIRST.
**
** A query's height (ast.h sql_select.nHeight) is that of the tallest
** expression in it, its windows included, where a query it holds (in FROM,
** in WITH) counts one more than that query's height; it is checked against
** SQL_DEPTH_MAX as the query grows. An expression that holds a query is
** one taller than it (ast-expr.c).
**
** Errors PostgreSQL's grammar reports are reported here with its words:
** a derived table without an alias, a second ORDER BY, LIMIT or WITH on a
** parenthesized query, WITH TIES without ORDER BY, and impossible window
** frames.
**
** INTERFACE ROUTINES (declared in parseInt.h)
**   sql_select_*, sql_with_*, sql_cte_new, sql_limit_*
**   sql_src_*             FROM items
**   sql_window_*, sql_frame_new, sql__window_height
*/
#include <string.h>

#include "parser/parse.h"
#include "parseInt.h"

/* ---- heights ---------------------------------------------------------------- */

static int sql_expr_height(const sql_expr *e) {
  return e != NULL ? e->nHeight : 0;
}

/* Raises pSelect's height to nChild, the height of something it holds (a
** query it holds counts one more). Returns pSelect, or NULL after 54000
** at iOffset. */
static sql_select *sql_select_raise(sql_parse_ctx *p, sql_select *s, int nChild, int iOffset) {
  if (sql_parse_failed(p)) return NULL;
  if (nChild > SQL_DEPTH_MAX) {
    sql_error_set(p->pErr, SQLSTATE_PROGRAM_LIMIT, iOffset,
                  "statement is nested more than %d levels deep", SQL_DEPTH_MAX);
    return NULL;
  }
  if (nChild > s->nHeight) s->nHeight = nChild;
  return s;
}

int sql__window_height(const sql_window *w) {
  int h = sql__list_height(w->pPartition);
  if (sql__list_height(w->pOrderBy) > h) h = sql__list_height(w->pOrderBy);
  if (sql_expr_height(w->pStart) > h) h = sql_expr_height(w->pStart);
  if (sql_expr_height(w->pEnd) > h) h = sql_expr_height(w->pEnd);
  return h;
}

/* The height of a FROM list: its ON conditions, and one more than its
** subqueries and functions. */
static int sql_src_height(const sql_src_list *pList) {
  int h = 0;
  for (int i = 0; pList != NULL && i < pList->n; i++) {
    const sql_src_item *pItem = &pList->a[i];
    int hItem = sql_expr_height(pItem->pOn);
    if (pItem->pSelect != NULL && pItem->pSelect->nHeight + 1 > hItem) {
      hItem = pItem->pSelect->nHeight + 1;
    }
    if (sql_expr_height(pItem->pFunc) > hItem) hItem = sql_expr_height(pItem->pFunc);
    if (pItem->pNested != NULL && sql_src_height(pItem->pNested) + 1 > hItem) {
      hItem = sql_src_height(pItem->pNested) + 1;
    }
    if (hItem > h) h = hItem;
  }
  return h;
}

/* ---- SELECT, VALUES, TABLE, set operations ------------------------------------- */

static sql_select *sql_select_alloc(sql_parse_ctx *p, sql_select_op eOp, sql_token t) {
  sql_select *s = sql__alloc(p, sizeof(*s));
  if (s == NULL) return NULL;
  s->eOp = eOp;
  s->iOffset = sql_token_offset(p, t);
  s->nHeight = 1;
  return s;
}

sql_select *sql_select_new(sql_parse_ctx *p, sql_token tSelect, const sql_distinct *pDistinct,
                           sql_expr_list *pItems, sql_src_list *pFrom, sql_expr *pWhere,
                           sql_expr_list *pGroupBy, sql_expr *pHaving, sql_window_list *pWindows) {
  sql_select *s;
  int h;
  if (sql_parse_failed(p)) return NULL;
  s = sql_select_alloc(p, SQL_SELECT_SIMPLE, tSelect);
  if (s == NULL) return NULL;
  s->bDistinct = pDistinct->bDistinct != 0;
  s->pDistinctOn = pDistinct->pOn;
  if (pDistinct->tOn.z != NULL) s->iDistinctOnOffset = sql_token_offset(p, pDistinct->tOn);
  s->pItems = pItems;
  s->pFrom = pFrom;
  s->pWhere = pWhere;
  s->pGroupBy = pGroupBy;
  s->pHaving = pHaving;
  s->pWindows = pWindows;
  h = sql__list_height(pItems);
  if (sql__list_height(pDistinct->pOn) > h) h = sql__list_height(pDistinct->pOn);
  if (sql_src_height(pFrom) > h) h = sql_src_height(pFrom);
  if (sql_expr_height(pWhere) > h) h = sql_expr_height(pWhere);
  if (sql__list_height(pGroupBy) > h) h = sql__list_height(pGroupBy);
  if (sql_expr_height(pHaving) > h) h = sql_expr_height(pHaving);
  for (int i = 0; pWindows != NULL && i < pWindows->n; i++) {
    if (sql__window_height(pWindows->a[i]) > h) h = sql__window_height(pWindows->a[i]);
  }
  return sql_select_raise(p, s, h, s->iOffset);
}

sql_select *sql_select_values(sql_parse_ctx *p, sql_token tValues, sql_expr_list *pRows) {
  sql_select *s;
  if (sql_parse_failed(p)) return NULL;
  /* PostgreSQL's transformValuesClause: every row as wide as the first. */
  for (int i = 1; i < pRows->n; i++) {
    const sql_expr *pRow = pRows->a[i].pExpr;
    if (pRow->pList->n != pRows->a[0].pExpr->pList->n) {
      sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, pRow->iOffset,
                    "VALUES lists must all be the same length");
      return NULL;
    }
  }
  s = sql_select_alloc(p, SQL_SELECT_VALUES, tValues);
  if (s == NULL) return NULL;
  s->pValues = pRows;
  return sql_select_raise(p, s, sql__list_height(pRows), s->iOffset);
}

sql_select *sql_select_table(sql_parse_ctx *p, sql_token tTable, sql_qname name) {
  sql_alias none = sql_alias_new(sql_token_none(), NULL);
  sql_distinct all = sql_distinct_new(0, sql_token_none(), NULL);
  sql_expr_list *pItems;
  if (sql_parse_failed(p)) return NULL;
  pItems = sql_select_item_append(p, NULL, sql_expr_star(p, NULL, NULL, tTable), sql_token_none());
  return sql_select_new(p, tTable, &all, pItems,
                        sql_src_append(p, NULL, sql_src_table(p, name, &none)), NULL, NULL, NULL,
                        NULL);
}

sql_select *sql_select_compound(sql_parse_ctx *p, sql_select *pLeft, sql_token tOp,
                                sql_select_op eOp, int bAll, sql_select *pRight) {
  sql_select *s;
  if (sql_parse_failed(p)) return NULL;
  s = sql_select_alloc(p, eOp, tOp);
  if (s == NULL) return NULL;
  s->bAll = bAll != 0;
  s->pLeft = pLeft;
  s->pRight = pRight;
  /* A chain of set operations is a left-deep tree that walks recurse
  ** into: each one counts. */
  return sql_select_raise(p, s,
                          1 + (pLeft->nHeight > pRight->nHeight ? pLeft->nHeight : pRight->nHeight),
                          s->iOffset);
}

/* Records PostgreSQL's error for a clause given twice ("multiple ORDER BY
** clauses not allowed") at iOffset. */
static sql_select *sql_select_twice(sql_parse_ctx *p, const char *zClause, int iOffset) {
  sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, iOffset, "multiple %s clauses not allowed",
                zClause);
  return NULL;
}

sql_select *sql_select_finish(sql_parse_ctx *p, sql_with *pWith, sql_select *pSelect,
                              sql_expr_list *pOrderBy, sql_limit limit) {
  int h = 0;
  if (sql_parse_failed(p)) return NULL;
  /* A parenthesized query may already have these: PostgreSQL's
  ** insertSelectOptions() then refuses a second one. */
  if (pOrderBy != NULL) {
    if (pSelect->pOrderBy != NULL) {
      return sql_select_twice(p, "ORDER BY", pOrderBy->a[0].pExpr->iOffset);
    }
    pSelect->pOrderBy = pOrderBy;
  }
  if (limit.pOffset != NULL) {
    if (pSelect->pOffset != NULL) return sql_select_twice(p, "OFFSET", limit.pOffset->iOffset);
    pSelect->pOffset = limit.pOffset;
  }
  if (limit.pLimit != NULL) {
    if (pSelect->pLimit != NULL) return sql_select_twice(p, "LIMIT", limit.pLimit->iOffset);
    pSelect->pLimit = limit.pLimit;
    pSelect->bWithTies = limit.bWithTies != 0;
    if (limit.tFetch.z != NULL) pSelect->iFetchOffset = sql_token_offset(p, limit.tFetch);
  }
  if (pSelect->bWithTies && pSelect->pOrderBy == NULL) {
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, pSelect->iFetchOffset,
                  "WITH TIES cannot be specified without ORDER BY clause");
    return NULL;
  }
  if (pWith != NULL) {
    if (pSelect->pWith != NULL) return sql_select_twice(p, "WITH", pWith->iOffset);
    pSelect->pWith = pWith;
    for (int i = 0; i < pWith->nCte; i++) {
      if (pWith->aCte[i].pSelect->nHeight + 1 > h) h = pWith->aCte[i].pSelect->nHeight + 1;
    }
  }
  if (sql__list_height(pOrderBy) > h) h = sql__list_height(pOrderBy);
  if (sql_expr_height(limit.pLimit) > h) h = sql_expr_height(limit.pLimit);
  if (sql_expr_height(limit.pOffset) > h) h = sql_expr_height(limit.pOffset);
  return sql_select_raise(p, pSelect, h, pSelect->iOffset);
}

/* ---- WITH ------------------------------------------------------------------------ */

sql_with *sql_with_new(sql_parse_ctx *p, sql_token tWith, int bRecursive) {
  sql_with *w;
  if (sql_parse_failed(p)) return NULL;
  w = sql__alloc(p, sizeof(*w));
  if (w == NULL) return NULL;
  w->iOffset = sql_token_offset(p, tWith);
  w->bRecursive = bRecursive != 0;
  return w;
}

sql_with *sql_with_append(sql_parse_ctx *p, sql_with *pWith, sql_cte *pCte) {
  if (sql_parse_failed(p)) return NULL;
  for (int i = 0; i < pWith->nCte; i++) {
    if (strcmp(pWith->aCte[i].zName, pCte->zName) == 0) {
      sql_error_set(p->pErr, "42712", pCte->iOffset,
                    "WITH query name \"%s\" specified more than once", pCte->zName);
      return NULL;
    }
  }
  if (sql__grow(p, (void **)&pWith->aCte, &pWith->nAlloc, pWith->nCte,
                sizeof(pWith->aCte[0])) != 0) {
    return NULL;
  }
  pWith->aCte[pWith->nCte++] = *pCte;
  return pWith;
}

sql_cte *sql_cte_new(sql_parse_ctx *p, sql_token tName, sql_name_list *pCols,
                     sql_cte_materialized eMaterialized, sql_select *pSelect) {
  sql_cte *c;
  if (sql_parse_failed(p)) return NULL;
  c = sql__alloc(p, sizeof(*c));
  if (c == NULL) return NULL;
  c->zName = sql__name_text(p, tName);
  c->iOffset = sql_token_offset(p, tName);
  if (pCols != NULL) {
    c->nCol = pCols->n;
    c->azCol = pCols->az;
  }
  c->eMaterialized = eMaterialized;
  c->pSelect = pSelect;
  return sql_parse_failed(p) ? NULL : c;
}

/* ---- LIMIT, OFFSET, FETCH FIRST ---------------------------------------------------- */

sql_limit sql_limit_count(sql_parse_ctx *p, sql_expr *pCount, sql_token tFetch, int bWithTies) {
  sql_limit l;
  memset(&l, 0, sizeof(l));
  if (sql_parse_failed(p)) return l;
  l.pLimit = pCount;
  l.bWithTies = bWithTies != 0;
  l.tFetch = tFetch;
  return l;
}

sql_limit sql_limit_new(sql_parse_ctx *p, const sql_limit *pLimit, sql_expr *pOffset) {
  sql_limit l;
  memset(&l, 0, sizeof(l));
  if (sql_parse_failed(p)) return l;
  if (pLimit != NULL) l = *pLimit;
  l.pOffset = pOffset;
  return l;
}

/* ---- FROM -------------------------------------------------------------------------- */

/* Returns a new FROM item of kind eKind at token t with alias *pAlias. */
static sql_src_item *sql_src_new(sql_parse_ctx *p, sql_src_kind eKind, sql_token t,
                                 const sql_alias *pAlias) {
  sql_src_item *pItem = sql__alloc(p, sizeof(*pItem));
  if (pItem == NULL) return NULL;
  pItem->eKind = eKind;
  pItem->iOffset = sql_token_offset(p, t);
  if (pAlias->tName.z != NULL) {
    pItem->zAlias = sql__name_text(p, pAlias->tName);
    pItem->iAliasOffset = sql_token_offset(p, pAlias->tName);
  }
  if (pAlias->pCols != NULL) {
    pItem->nColAlias = pAlias->pCols->n;
    pItem->azColAlias = pAlias->pCols->az;
  }
  return sql_parse_failed(p) ? NULL : pItem;
}

sql_src_item *sql_src_table(sql_parse_ctx *p, sql_qname name, const sql_alias *pAlias) {
  sql_src_item *pItem;
  if (sql_parse_failed(p)) return NULL;
  pItem = sql_src_new(p, SQL_SRC_TABLE, name.tSchema.z != NULL ? name.tSchema : name.tName, pAlias);
  if (pItem == NULL) return NULL;
  pItem->zName = sql__name_text(p, name.tName);
  if (name.tSchema.z != NULL) pItem->zSchema = sql__name_text(p, name.tSchema);
  return sql_parse_failed(p) ? NULL : pItem;
}

sql_src_item *sql_src_subquery(sql_parse_ctx *p, sql_token tAt, int bLateral, sql_select *pSelect,
                               const sql_alias *pAlias) {
  sql_src_item *pItem;
  if (sql_parse_failed(p)) return NULL;
  if (pAlias->tName.z == NULL) {
    /* PostgreSQL 15's grammar; 16 makes the alias optional. */
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, sql_token_offset(p, tAt),
                  "subquery in FROM must have an alias");
    return NULL;
  }
  pItem = sql_src_new(p, SQL_SRC_SUBQUERY, tAt, pAlias);
  if (pItem == NULL) return NULL;
  pItem->pSelect = pSelect;
  pItem->bLateral = bLateral != 0;
  return pItem;
}

sql_src_item *sql_src_function(sql_parse_ctx *p, sql_token tLateral, sql_expr *pFunc,
                               int bOrdinality, const sql_alias *pAlias) {
  sql_src_item *pItem;
  sql_token tAt = tLateral;
  if (sql_parse_failed(p)) return NULL;
  if (tAt.z == NULL) {
    tAt.z = p->zSql + pFunc->iOffset;
    tAt.n = 0;
  }
  pItem = sql_src_new(p, SQL_SRC_FUNCTION, tAt, pAlias);
  if (pItem == NULL) return NULL;
  pItem->pFunc = pFunc;
  pItem->bLateral = tLateral.z != NULL;
  pItem->bOrdinality = bOrdinality != 0;
  return pItem;
}

sql_src_item *sql_src_nested(sql_parse_ctx *p, sql_token tLp, sql_src_list *pList,
                             const sql_alias *pAlias) {
  sql_src_item *pItem;
  if (sql_parse_failed(p)) return NULL;
  pItem = sql_src_new(p, SQL_SRC_JOIN, tLp, pAlias);
  if (pItem == NULL) return NULL;
  pItem->pNested = pList;
  return pItem;
}

sql_src_item *sql_src_join(sql_parse_ctx *p, sql_src_item *pItem, sql_joinop op, sql_expr *pOn,
                           sql_name_list *pUsing, sql_token tUsing) {
  if (sql_parse_failed(p)) return NULL;
  pItem->eJoin = op.eJoin;
  pItem->bNatural = op.bNatural != 0;
  pItem->iJoinOffset = sql_token_offset(p, op.t);
  pItem->pOn = pOn;
  if (pUsing != NULL) {
    pItem->nUsing = pUsing->n;
    pItem->azUsing = pUsing->az;
    pItem->iUsingOffset = sql_token_offset(p, tUsing);
  }
  return pItem;
}

sql_src_list *sql_src_append(sql_parse_ctx *p, sql_src_list *pList, sql_src_item *pItem) {
  if (sql_parse_failed(p)) return NULL;
  if (pList == NULL && (pList = sql__alloc(p, sizeof(*pList))) == NULL) return NULL;
  if (sql__grow(p, (void **)&pList->a, &pList->nAlloc, pList->n, sizeof(pList->a[0])) != 0) {
    return NULL;
  }
  pList->a[pList->n++] = *pItem;
  return pList;
}

/* ---- windows ------------------------------------------------------------------------- */

sql_window *sql_window_new(sql_parse_ctx *p, sql_expr_list *pPartition, sql_expr_list *pOrderBy,
                           sql_frame frame) {
  sql_window *w;
  if (sql_parse_failed(p)) return NULL;
  w = sql__alloc(p, sizeof(*w));
  if (w == NULL) return NULL;
  w->pPartition = pPartition;
  w->pOrderBy = pOrderBy;
  w->eUnit = frame.eUnit;
  if (frame.eUnit != SQL_FRAME_NONE) {
    w->iFrameOffset = sql_token_offset(p, frame.tUnit);
    w->bBetween = frame.bBetween != 0;
    w->eStart = frame.start.eBound;
    w->pStart = frame.start.pExpr;
    w->eEnd = frame.end.eBound;
    w->pEnd = frame.end.pExpr;
    w->eExclude = frame.eExclude;
  }
  return w;
}

sql_window *sql_window_base(sql_parse_ctx *p, sql_window *pWin, sql_token tBase) {
  if (sql_parse_failed(p)) return NULL;
  pWin->zBase = sql__name_text(p, tBase);
  return sql_parse_failed(p) ? NULL : pWin;
}

sql_window *sql_window_ref(sql_parse_ctx *p, sql_token tName) {
  sql_window *w;
  if (sql_parse_failed(p)) return NULL;
  w = sql__alloc(p, sizeof(*w));
  if (w == NULL) return NULL;
  w->zRef = sql__name_text(p, tName);
  w->iOffset = sql_token_offset(p, tName);
  return sql_parse_failed(p) ? NULL : w;
}

sql_window *sql_window_at(sql_parse_ctx *p, sql_window *pWin, sql_token tLp) {
  if (sql_parse_failed(p)) return NULL;
  pWin->iOffset = sql_token_offset(p, tLp);
  return pWin;
}

sql_window_list *sql_window_define(sql_parse_ctx *p, sql_window_list *pList, sql_token tName,
                                   sql_window *pWin) {
  if (sql_parse_failed(p)) return NULL;
  pWin->zName = sql__name_text(p, tName);
  pWin->iOffset = sql_token_offset(p, tName);
  if (pList == NULL && (pList = sql__alloc(p, sizeof(*pList))) == NULL) return NULL;
  for (int i = 0; pWin->zName != NULL && i < pList->n; i++) {
    if (strcmp(pList->a[i]->zName, pWin->zName) == 0) {
      sql_error_set(p->pErr, "42P20", pWin->iOffset, "window \"%s\" is already defined",
                    pWin->zName);
      return NULL;
    }
  }
  if (sql__grow(p, (void **)&pList->a, &pList->nAlloc, pList->n, sizeof(pList->a[0])) != 0) {
    return NULL;
  }
  pList->a[pList->n++] = pWin;
  return sql_parse_failed(p) ? NULL : pList;
}

/* Records PostgreSQL's 42P20 for an impossible frame bound at bound b. */
static void sql_frame_error(sql_parse_ctx *p, const sql_bound_spec *b, const char *zMsg) {
  sql_error_set(p->pErr, "42P20", b->pExpr != NULL ? b->pExpr->iOffset : sql_token_offset(p, b->t),
                "%s", zMsg);
}

sql_frame sql_frame_new(sql_parse_ctx *p, sql_token tUnit, int bBetween,
                        const sql_bound_spec *pStart, const sql_bound_spec *pEnd,
                        sql_frame_exclude eExclude) {
  sql_frame f = sql_frame_none();
  sql_frame_bound eStart = pStart->eBound;
  if (sql_parse_failed(p)) return f;
  switch (sql__keyword_code(tUnit.z, tUnit.n)) {
    case TK_ROWS: f.eUnit = SQL_FRAME_ROWS; break;
    case TK_RANGE: f.eUnit = SQL_FRAME_RANGE; break;
    default: f.eUnit = SQL_FRAME_GROUPS; break;
  }
  f.tUnit = tUnit;
  f.bBetween = bBetween != 0;
  f.start = *pStart;
  f.end = pEnd != NULL ? *pEnd : sql_bound_new(pStart->t, SQL_BOUND_CURRENT_ROW, NULL);
  f.eExclude = eExclude;
  /* PostgreSQL's grammar refuses these, in this order. */
  if (eStart == SQL_BOUND_UNBOUNDED_FOLLOWING) {
    sql_frame_error(p, pStart, "frame start cannot be UNBOUNDED FOLLOWING");
  } else if (pEnd == NULL && eStart == SQL_BOUND_FOLLOWING) {
    sql_frame_error(p, pStart, "frame starting from following row cannot end with current row");
  } else if (pEnd != NULL && pEnd->eBound == SQL_BOUND_UNBOUNDED_PRECEDING) {
    sql_frame_error(p, pEnd, "frame end cannot be UNBOUNDED PRECEDING");
  } else if (pEnd != NULL && eStart == SQL_BOUND_CURRENT_ROW &&
             pEnd->eBound == SQL_BOUND_PRECEDING) {
    sql_frame_error(p, pEnd, "frame starting from current row cannot have preceding rows");
  } else if (pEnd != NULL && eStart == SQL_BOUND_FOLLOWING &&
             (pEnd->eBound == SQL_BOUND_PRECEDING || pEnd->eBound == SQL_BOUND_CURRENT_ROW)) {
    sql_frame_error(p, pEnd, "frame starting from following row cannot have preceding rows");
  }
  return f;
}
