/*
** planner/bind_chain.c — a long flat chain "x = 1 OR x = 2 OR ..." (or
** "x <> 1 AND x <> 2 AND ...") over one column, rewritten before binding
** as "x IN (1, 2, ...)" ("x NOT IN (...)"): the same three-valued answer
** in PostgreSQL, and one kernel argument (a sorted list) however long,
** where ten thousand comparisons would be ten thousand lines of kernel
** source for the compiler. The parser keeps such chains balanced
** (parser/ast-expr.c), so walking one recurses only as deep as its log.
**
** INTERFACE ROUTINES (bindInt.h)
**   bind__chain_to_in   the rewrite, where it applies
*/
#include <string.h>

#include "bindInt.h"

/* The fewest terms a chain has before it is rewritten: short chains keep
** the form written (EXPLAIN shows it). */
#define BIND_CHAIN_IN_MIN 16

static int bc_str_eq(const char *a, const char *b) {
  return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* 1 if e is a literal an IN list takes as written: a number (negated or
** not), a string or a DATE literal. */
static int bc_is_literal(const sql_expr *e) {
  if (e->eKind == SQL_EXPR_UNARY && e->eOp == SQL_OP_NEG && e->pLeft != NULL) e = e->pLeft;
  return e->eKind == SQL_EXPR_INTEGER || e->eKind == SQL_EXPR_DECIMAL ||
         e->eKind == SQL_EXPR_STRING || e->eKind == SQL_EXPR_DATE;
}

/* 1 if a and b name the same column the same way (not yet bound). */
static int bc_same_column(const sql_expr *a, const sql_expr *b) {
  return a->eKind == SQL_EXPR_COLUMN && b->eKind == SQL_EXPR_COLUMN && a->bQuoted == b->bQuoted &&
         bc_str_eq(a->zName, b->zName) && bc_str_eq(a->zTable, b->zTable) &&
         bc_str_eq(a->zSchema, b->zSchema);
}

/* The most columns one chain's terms may compare: each becomes one IN. */
#define BIND_CHAIN_COLS 8

/* A chain's terms on one column. */
typedef struct bc_bucket bc_bucket;
struct bc_bucket {
  sql_expr *pCol;          /* the first term's column */
  sql_expr *pTerm;         /* the first term, kept as written when alone */
  int n;                   /* terms */
  sql_expr **aLit;         /* their literals (second walk) */
};

/* Walks chain e of operator eChain, whose leaves must be "column eCmp
** literal" (either way round) on at most BIND_CHAIN_COLS columns, counting
** each column's terms in a (the first walk, aLit NULL) or filling its
** literals. Returns 1 if every leaf fits. */
static int bc_leaves(sql_expr *e, sql_op eChain, sql_op eCmp, bc_bucket *a, int *pnCol) {
  sql_expr *pCol, *pLit;
  int i;
  if (e->eKind == SQL_EXPR_BINARY && e->eOp == eChain && e->pLeft != NULL && e->pRight != NULL) {
    return bc_leaves(e->pLeft, eChain, eCmp, a, pnCol) && bc_leaves(e->pRight, eChain, eCmp, a, pnCol);
  }
  if (e->eKind != SQL_EXPR_BINARY || e->eOp != eCmp || e->zSchema != NULL || e->pLeft == NULL ||
      e->pRight == NULL) {
    return 0;
  }
  pCol = e->pLeft->eKind == SQL_EXPR_COLUMN ? e->pLeft : e->pRight;
  pLit = pCol == e->pLeft ? e->pRight : e->pLeft;
  if (!bc_is_literal(pLit) || pCol->eKind != SQL_EXPR_COLUMN) return 0;
  for (i = 0; i < *pnCol && !bc_same_column(a[i].pCol, pCol); i++) {
  }
  if (i == *pnCol) {
    if (i == BIND_CHAIN_COLS) return 0;
    memset(&a[i], 0, sizeof(a[i]));
    a[i].pCol = pCol;
    a[i].pTerm = e;
    (*pnCol)++;
  }
  if (a[i].aLit != NULL) a[i].aLit[a[i].n] = pLit;
  a[i].n++;
  return 1;
}

/* Makes bucket b's terms one node: the term itself when alone, else
** "column [NOT] IN (literals)". Returns it, or NULL (53200 set). */
static sql_expr *bc_in(bind_ctx *p, const bc_bucket *b, int bNot, int iOffset) {
  sql_expr *e;
  sql_expr_list *pList;
  if (b->n == 1) return b->pTerm;
  e = arena_alloc(p->pArena, sizeof(sql_expr));
  pList = arena_alloc(p->pArena, sizeof(sql_expr_list));
  if (e == NULL || pList == NULL ||
      (pList->a = arena_alloc(p->pArena, sizeof(sql_expr_item) * (size_t)b->n)) == NULL) {
    bind__oom(p);
    return NULL;
  }
  memset(e, 0, sizeof(*e));
  memset(pList->a, 0, sizeof(sql_expr_item) * (size_t)b->n);
  for (int i = 0; i < b->n; i++) pList->a[i].pExpr = b->aLit[i];
  pList->n = pList->nAlloc = b->n;
  e->eKind = SQL_EXPR_IN;
  e->iOffset = iOffset;
  e->bNot = (unsigned)bNot;
  e->pLeft = b->pCol;
  e->pList = pList;
  return e;
}

int bind__chain_to_in(bind_ctx *p, sql_expr *e) {
  sql_op eChain = e->eOp, eCmp = eChain == SQL_OP_OR ? SQL_OP_EQ : SQL_OP_NE;
  bc_bucket a[BIND_CHAIN_COLS];
  sql_expr *pAcc = NULL;
  int nCol = 0, nTerm = 0;
  if (e->eKind != SQL_EXPR_BINARY || (eChain != SQL_OP_OR && eChain != SQL_OP_AND)) return 0;
  if (!bc_leaves(e, eChain, eCmp, a, &nCol)) return 0;
  for (int i = 0; i < nCol; i++) nTerm += a[i].n;
  if (nTerm < BIND_CHAIN_IN_MIN) return 0;
  for (int i = 0; i < nCol; i++) {
    if ((a[i].aLit = arena_alloc(p->pArena, sizeof(sql_expr *) * (size_t)a[i].n)) == NULL) {
      return bind__oom(p);
    }
    a[i].n = 0;
  }
  {
    int nAgain = nCol;
    bc_leaves(e, eChain, eCmp, a, &nAgain);
  }
  for (int i = 0; i < nCol; i++) {
    sql_expr *x = bc_in(p, &a[i], eChain == SQL_OP_AND, e->iOffset);
    if (x == NULL) return -1;
    if (pAcc != NULL) {
      sql_expr *y = arena_alloc(p->pArena, sizeof(sql_expr));
      if (y == NULL) return bind__oom(p);
      memset(y, 0, sizeof(*y));
      y->eKind = SQL_EXPR_BINARY;
      y->eOp = eChain;
      y->iOffset = e->iOffset;
      y->pLeft = pAcc;
      y->pRight = x;
      x = y;
    }
    pAcc = x;
  }
  *e = *pAcc;
  return 1;
}
