/*
** parser/ast-expr.c — the constructors of expression nodes: literals,
** names, operators and predicates, calls (with their ORDER BY, WITHIN
** GROUP, FILTER and OVER), SQL's own syntax for some calls, subqueries,
** arrays, rows and grouping sets.
**
** Every node's height (ast.h nHeight) is computed as it is made and kept
** at most SQL_DEPTH_MAX (54000 beyond), counting what a node holds outside
** pLeft, pRight and pList too (a subquery, a window, a filter), so that any
** later walk may recurse. A flat chain of AND or of OR ("a OR b OR c ...",
** as long as a generated IN list) is not nesting: it is built as a
** balanced tree as it grows (sql_chain below), so its height is about
** 2 log2 n and its consumers still see binary AND/OR nodes, in the order
** written.
**
** INTERFACE ROUTINES (declared in parseInt.h)
**   sql_expr_*            expression nodes
**   sql__expr_height_raise, sql__list_height
*/
#include <string.h>

#include "parser/parse.h"
#include "parseInt.h"

/* ---- heights ---------------------------------------------------------------- */

static int sql_height(const sql_expr *e) {
  return e ? e->nHeight : 0;
}

int sql__list_height(const sql_expr_list *pList) {
  int h = 0;
  for (int i = 0; pList != NULL && i < pList->n; i++) {
    if (sql_height(pList->a[i].pExpr) > h) h = sql_height(pList->a[i].pExpr);
  }
  return h;
}

static void sql_error_depth(sql_parse_ctx *p, int iOffset) {
  sql_error_set(p->pErr, SQLSTATE_PROGRAM_LIMIT, iOffset,
                "statement is nested more than %d levels deep", SQL_DEPTH_MAX);
}

sql_expr *sql__expr_height_raise(sql_parse_ctx *p, sql_expr *e, int nChild, int iOffset) {
  if (sql_parse_failed(p)) return NULL;
  if (nChild + 1 > SQL_DEPTH_MAX) {
    sql_error_depth(p, iOffset);
    return NULL;
  }
  if (nChild + 1 > e->nHeight) e->nHeight = nChild + 1;
  return e;
}

/* Returns a new node of kind eKind at byte iOffset over the given children,
** its height computed; NULL after recording 54000 if the tree would grow
** past SQL_DEPTH_MAX, so that no later walk recurses without bound. */
static sql_expr *sql_expr_node(sql_parse_ctx *p, sql_expr_kind eKind, int iOffset,
                               sql_expr *pLeft, sql_expr *pRight, sql_expr_list *pList) {
  sql_expr *e;
  int nHeight = sql_height(pLeft);
  if (sql_height(pRight) > nHeight) nHeight = sql_height(pRight);
  if (sql__list_height(pList) > nHeight) nHeight = sql__list_height(pList);
  if (nHeight + 1 > SQL_DEPTH_MAX) {
    sql_error_depth(p, iOffset);
    return NULL;
  }
  e = sql__alloc(p, sizeof(*e));
  if (e == NULL) return NULL;
  e->eKind = eKind;
  e->iOffset = iOffset;
  e->pLeft = pLeft;
  e->pRight = pRight;
  e->pList = pList;
  e->nHeight = nHeight + 1;
  return e;
}

/* ---- literals and names ---------------------------------------------------------- */

sql_expr *sql_expr_literal(sql_parse_ctx *p, sql_expr_kind eKind, sql_token t) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, eKind, sql_token_offset(p, t), NULL, NULL, NULL);
  if (e == NULL) return NULL;
  switch (eKind) {
    case SQL_EXPR_STRING: e->zText = sql__string_text(p, t); break;
    case SQL_EXPR_BOOL: e->bValue = (t.z[0] | 0x20) == 't'; break;
    case SQL_EXPR_NULL: break;
    default:
      e->zText = arena_strndup(p->pArena, t.z, (size_t)t.n);
      if (e->zText == NULL) sql__error_oom(p);
      break;
  }
  return sql_parse_failed(p) ? NULL : e;
}

sql_expr *sql_expr_one(sql_parse_ctx *p, sql_token t) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, SQL_EXPR_INTEGER, sql_token_offset(p, t), NULL, NULL, NULL);
  if (e == NULL) return NULL;
  e->zText = arena_strndup(p->pArena, "1", 1);
  if (e->zText == NULL) sql__error_oom(p);
  return sql_parse_failed(p) ? NULL : e;
}

sql_expr *sql_expr_param(sql_parse_ctx *p, sql_token t) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, SQL_EXPR_PARAM, sql_token_offset(p, t), NULL, NULL, NULL);
  if (e == NULL) return NULL;
  e->iParam = atoi(t.z + 1);   /* the lexer checked it: $1 .. $65535 */
  return e;
}

sql_expr *sql_expr_typed_literal(sql_parse_ctx *p, sql_token tType, sql_type t, sql_token tValue) {
  sql_expr *e, *pValue;
  if (sql_parse_failed(p)) return NULL;
  if (t.t.eId == COLTYPE_DATE && t.nArrayDim == 0) {
    e = sql_expr_literal(p, SQL_EXPR_STRING, tValue);
    if (e == NULL) return NULL;
    e->eKind = SQL_EXPR_DATE;
    e->iOffset = sql_token_offset(p, tType);
    return e;
  }
  /* INTEGER '5' is CAST('5' AS INTEGER), as in PostgreSQL. */
  pValue = sql_expr_literal(p, SQL_EXPR_STRING, tValue);
  return sql_expr_cast(p, tType, pValue, t);
}

sql_expr *sql_expr_column(sql_parse_ctx *p, const sql_token *pSchema, const sql_token *pTable,
                          sql_token tName) {
  sql_expr *e;
  sql_token tFirst = pSchema ? *pSchema : pTable ? *pTable : tName;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, SQL_EXPR_COLUMN, sql_token_offset(p, tFirst), NULL, NULL, NULL);
  if (e == NULL) return NULL;
  e->zName = sql__name_text(p, tName);
  e->bQuoted = tName.z[0] == '"';
  if (pTable != NULL) e->zTable = sql__name_text(p, *pTable);
  if (pSchema != NULL) e->zSchema = sql__name_text(p, *pSchema);
  return sql_parse_failed(p) ? NULL : e;
}

sql_expr *sql_expr_star(sql_parse_ctx *p, const sql_token *pSchema, const sql_token *pTable,
                        sql_token tStar) {
  sql_expr *e;
  sql_token tFirst = pSchema ? *pSchema : pTable ? *pTable : tStar;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, SQL_EXPR_STAR, sql_token_offset(p, tFirst), NULL, NULL, NULL);
  if (e == NULL) return NULL;
  if (pTable != NULL) e->zTable = sql__name_text(p, *pTable);
  if (pSchema != NULL) e->zSchema = sql__name_text(p, *pSchema);
  return sql_parse_failed(p) ? NULL : e;
}

/* ---- AND and OR chains -------------------------------------------------------------- */

/* One perfect subtree of a chain being built: 2^k operands joined by the
** chain's operator, and the spine node that joins it to the smaller
** subtrees after it (kept for reuse as the chain grows). */
typedef struct sql_chain_slot sql_chain_slot;
struct sql_chain_slot {
  sql_expr *pTree;         /* the subtree */
  int nSize;               /* its operands: a power of two */
  int iFirstOp;            /* the offset of the operator before its first operand */
  sql_expr *pSpine;        /* a node of the spine, or NULL until needed */
};

/* A flat chain "x1 op x2 op ... op xn" (op AND or OR) kept as a binary
** counter: subtrees of 2^k operands, largest first, as the bits of n, each
** joined to those after it by a spine node. Appending an operand merges
** the equal-sized subtrees at the end, as a carry does, and relinks the
** spine, so that the tree is valid and about 2 log2 n high after every
** operand, each internal node is positioned at the operator before its
** right subtree (as in a left-deep tree), and left to right is the order
** written. */
struct sql_chain {
  sql_op eOp;
  sql_expr *pRoot;         /* the tree's root: the only node the grammar holds */
  int nSlot;
  int nAlloc;
  sql_chain_slot *a;
};

/* Returns a BINARY eOp node over a and b at iOffset, its height computed
** (checked by the caller, on the root), reusing e if it is not NULL. */
static sql_expr *sql_chain_node(sql_parse_ctx *p, sql_expr *e, sql_op eOp, int iOffset,
                                sql_expr *a, sql_expr *b) {
  if (e == NULL && (e = sql__alloc(p, sizeof(*e))) == NULL) return NULL;
  e->eKind = SQL_EXPR_BINARY;
  e->eOp = eOp;
  e->iOffset = iOffset;
  e->pLeft = a;
  e->pRight = b;
  e->nHeight = 1 + (a->nHeight > b->nHeight ? a->nHeight : b->nHeight);
  return e;
}

/* Appends operand x, written after the operator at iOp, to chain c. Returns
** the chain's new root, or NULL after an error. */
static sql_expr *sql_chain_add(sql_parse_ctx *p, struct sql_chain *c, sql_expr *x, int iOp) {
  sql_expr *pRest;
  int n;
  if (sql__grow(p, (void **)&c->a, &c->nAlloc, c->nSlot, sizeof(c->a[0])) != 0) return NULL;
  n = c->nSlot++;
  c->a[n].pTree = x;
  c->a[n].nSize = 1;
  c->a[n].iFirstOp = iOp;
  for (n = c->nSlot; n >= 2 && c->a[n - 2].nSize == c->a[n - 1].nSize; n--) {
    sql_chain_slot *l = &c->a[n - 2], *r = &c->a[n - 1];
    l->pTree = sql_chain_node(p, NULL, c->eOp, r->iFirstOp, l->pTree, r->pTree);
    if (l->pTree == NULL) return NULL;
    l->nSize *= 2;
  }
  c->nSlot = n;
  pRest = c->a[n - 1].pTree;
  for (int i = n - 2; i >= 0; i--) {
    c->a[i].pSpine = sql_chain_node(p, c->a[i].pSpine, c->eOp, c->a[i + 1].iFirstOp,
                                    c->a[i].pTree, pRest);
    if (c->a[i].pSpine == NULL) return NULL;
    pRest = c->a[i].pSpine;
  }
  if (pRest->nHeight > SQL_DEPTH_MAX) {
    sql_error_depth(p, iOp);
    return NULL;
  }
  pRest->pChain = c;
  c->pRoot = pRest;
  return pRest;
}

/* pLeft eOp pRight for AND and OR: pRight joins pLeft's chain if pLeft is
** the root of one of the same operator (written "a OR b OR c", or "(a OR
** b) OR c", which PostgreSQL flattens alike), else both start a new one. */
static sql_expr *sql_expr_chain(sql_parse_ctx *p, sql_op eOp, sql_expr *pLeft, sql_token tOp,
                                sql_expr *pRight) {
  struct sql_chain *c = pLeft->pChain;
  int iOp = sql_token_offset(p, tOp);
  if (c == NULL || c->pRoot != pLeft || c->eOp != eOp) {
    c = sql__alloc(p, sizeof(*c));
    if (c == NULL || sql__grow(p, (void **)&c->a, &c->nAlloc, 0, sizeof(c->a[0])) != 0) {
      return NULL;
    }
    c->eOp = eOp;
    c->a[0].pTree = pLeft;
    c->a[0].nSize = 1;
    c->nSlot = 1;
  }
  return sql_chain_add(p, c, pRight, iOp);
}

/* ---- operators ---------------------------------------------------------------------- */

sql_expr *sql_expr_unary(sql_parse_ctx *p, sql_op eOp, sql_token tOp, sql_expr *pExpr) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, SQL_EXPR_UNARY, sql_token_offset(p, tOp), pExpr, NULL, NULL);
  if (e != NULL) e->eOp = eOp;
  return e;
}

sql_expr *sql_expr_binary(sql_parse_ctx *p, sql_op eOp, sql_expr *pLeft, sql_token tOp,
                          sql_expr *pRight) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  if (eOp == SQL_OP_AND || eOp == SQL_OP_OR) return sql_expr_chain(p, eOp, pLeft, tOp, pRight);
  e = sql_expr_node(p, SQL_EXPR_BINARY, sql_token_offset(p, tOp), pLeft, pRight, NULL);
  if (e != NULL) e->eOp = eOp;
  return e;
}

/* Returns the sql_op of operator text z[0..n): binary (bPrefix 0) or
** prefix; NAMED for an operator without its own. */
static sql_op sql_op_of(const char *z, int n, int bPrefix) {
  static const struct {
    const char *z;
    sql_op eBinary;
    sql_op ePrefix;
  } aOp[] = {
    {"+", SQL_OP_ADD, SQL_OP_PLUS},       {"-", SQL_OP_SUB, SQL_OP_NEG},
    {"*", SQL_OP_MUL, SQL_OP_NAMED},      {"/", SQL_OP_DIV, SQL_OP_NAMED},
    {"%", SQL_OP_MOD, SQL_OP_NAMED},      {"^", SQL_OP_POW, SQL_OP_NAMED},
    {"=", SQL_OP_EQ, SQL_OP_NAMED},       {"<>", SQL_OP_NE, SQL_OP_NAMED},
    {"!=", SQL_OP_NE, SQL_OP_NAMED},      {"<", SQL_OP_LT, SQL_OP_NAMED},
    {"<=", SQL_OP_LE, SQL_OP_NAMED},      {">", SQL_OP_GT, SQL_OP_NAMED},
    {">=", SQL_OP_GE, SQL_OP_NAMED},      {"||", SQL_OP_CONCAT, SQL_OP_NAMED},
    {"~", SQL_OP_REGEX, SQL_OP_NAMED},    {"~*", SQL_OP_IREGEX, SQL_OP_NAMED},
    {"!~", SQL_OP_NOT_REGEX, SQL_OP_NAMED}, {"!~*", SQL_OP_NOT_IREGEX, SQL_OP_NAMED},
  };
  for (size_t i = 0; i < sizeof(aOp) / sizeof(aOp[0]); i++) {
    if ((int)strlen(aOp[i].z) == n && memcmp(aOp[i].z, z, (size_t)n) == 0) {
      return bPrefix ? aOp[i].ePrefix : aOp[i].eBinary;
    }
  }
  return SQL_OP_NAMED;
}

sql_expr *sql_expr_operator(sql_parse_ctx *p, sql_expr *pLeft, sql_qname op, sql_token tAt,
                            sql_expr *pRight) {
  sql_expr *e;
  sql_op eOp;
  if (sql_parse_failed(p)) return NULL;
  eOp = sql_op_of(op.tName.z, op.tName.n, pLeft == NULL);
  if (pLeft == NULL) {
    e = sql_expr_node(p, SQL_EXPR_UNARY, sql_token_offset(p, tAt), pRight, NULL, NULL);
  } else {
    e = sql_expr_node(p, SQL_EXPR_BINARY, sql_token_offset(p, tAt), pLeft, pRight, NULL);
  }
  if (e == NULL) return NULL;
  e->eOp = eOp;
  if (eOp == SQL_OP_NAMED) {
    e->zName = arena_strndup(p->pArena, op.tName.z, (size_t)op.tName.n);
    if (e->zName == NULL) sql__error_oom(p);
  }
  if (op.tSchema.z != NULL) e->zSchema = sql__name_text(p, op.tSchema);
  return sql_parse_failed(p) ? NULL : e;
}

/* ---- predicates ------------------------------------------------------------------- */

/* Makes one of the predicates that take NOT in the middle (IS [NOT] NULL,
** [NOT] BETWEEN, [NOT] IN, [NOT] LIKE, ...), positioned at its operator. */
static sql_expr *sql_expr_negatable(sql_parse_ctx *p, sql_expr_kind eKind, sql_token tOp,
                                    int bNot, sql_expr *pLeft, sql_expr *pRight,
                                    sql_expr_list *pList) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, eKind, sql_token_offset(p, tOp), pLeft, pRight, pList);
  if (e != NULL) e->bNot = bNot != 0;
  return e;
}

sql_expr *sql_expr_is_null(sql_parse_ctx *p, sql_expr *pLeft, sql_token tIs, int bNot) {
  return sql_expr_negatable(p, SQL_EXPR_IS_NULL, tIs, bNot, pLeft, NULL, NULL);
}

sql_expr *sql_expr_is_bool(sql_parse_ctx *p, sql_expr *pLeft, sql_token tIs, int bNot, sql_op eOp) {
  sql_expr *e = sql_expr_negatable(p, SQL_EXPR_IS_BOOL, tIs, bNot, pLeft, NULL, NULL);
  if (e != NULL) e->eOp = eOp;
  return e;
}

sql_expr *sql_expr_is_distinct(sql_parse_ctx *p, sql_expr *pLeft, sql_token tIs, int bNot,
                               sql_expr *pRight) {
  sql_expr *e = sql_expr_negatable(p, SQL_EXPR_BINARY, tIs, bNot, pLeft, pRight, NULL);
  if (e != NULL) e->eOp = SQL_OP_IS_DISTINCT;
  return e;
}

sql_expr *sql_expr_between(sql_parse_ctx *p, sql_expr *pLeft, sql_token tOp, int bNot,
                           int bSymmetric, sql_expr *pLow, sql_expr *pHigh) {
  sql_expr_list *pList;
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  pList = sql_expr_list_append(p, sql_expr_list_append(p, NULL, pLow), pHigh);
  if (pList == NULL) return NULL;
  e = sql_expr_negatable(p, SQL_EXPR_BETWEEN, tOp, bNot, pLeft, NULL, pList);
  if (e != NULL) e->bSymmetric = bSymmetric != 0;
  return e;
}

sql_expr *sql_expr_in(sql_parse_ctx *p, sql_expr *pLeft, sql_token tOp, int bNot,
                      sql_expr_list *pList) {
  return sql_expr_negatable(p, SQL_EXPR_IN, tOp, bNot, pLeft, NULL, pList);
}

/* Sets e's query operand pSelect (bSelect) and raises e's height over it. */
static sql_expr *sql_expr_set_select(sql_parse_ctx *p, sql_expr *e, sql_select *pSelect) {
  if (e == NULL) return NULL;
  e->pSelect = pSelect;
  e->bSelect = 1;
  return sql__expr_height_raise(p, e, sql__select_height(pSelect), e->iOffset);
}

sql_expr *sql_expr_in_select(sql_parse_ctx *p, sql_expr *pLeft, sql_token tOp, int bNot,
                             sql_select *pSelect) {
  sql_expr *e = sql_expr_negatable(p, SQL_EXPR_IN, tOp, bNot, pLeft, NULL, NULL);
  return sql_expr_set_select(p, e, pSelect);
}

sql_expr *sql_expr_like(sql_parse_ctx *p, sql_expr *pLeft, const sql_opref *pOp,
                        sql_expr *pPattern, sql_expr *pEscape, sql_token tEscape) {
  sql_expr_list *pList = NULL;
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  if (pEscape != NULL && (pList = sql_expr_list_append(p, NULL, pEscape)) == NULL) return NULL;
  e = sql_expr_negatable(p, SQL_EXPR_LIKE, pOp->tAt, pOp->bNot, pLeft, pPattern, pList);
  if (e == NULL) return NULL;
  e->eOp = pOp->eOp;
  if (tEscape.z != NULL) e->iClauseOffset = sql_token_offset(p, tEscape);
  return e;
}

sql_expr *sql_expr_any(sql_parse_ctx *p, sql_expr *pLeft, const sql_opref *pOp, sql_token tQuant,
                       sql_expr *pArray, sql_select *pSelect) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_negatable(p, SQL_EXPR_ANY, pOp->tAt, pOp->bNot, pLeft, pArray, NULL);
  if (e == NULL) return NULL;
  e->eOp = pOp->eOp;
  e->bAll = sql__keyword_code(tQuant.z, tQuant.n) == TK_ALL;
  if (pOp->eOp == SQL_OP_NAMED) {
    sql_op eOp = sql_op_of(pOp->name.tName.z, pOp->name.tName.n, 0);
    e->eOp = eOp;
    if (eOp == SQL_OP_NAMED) {
      e->zName = arena_strndup(p->pArena, pOp->name.tName.z, (size_t)pOp->name.tName.n);
      if (e->zName == NULL) sql__error_oom(p);
    }
    if (pOp->name.tSchema.z != NULL) e->zSchema = sql__name_text(p, pOp->name.tSchema);
  }
  if (sql_parse_failed(p)) return NULL;
  return pSelect != NULL ? sql_expr_set_select(p, e, pSelect) : e;
}

/* ---- queries, arrays, rows ---------------------------------------------------------- */

sql_expr *sql_expr_subquery(sql_parse_ctx *p, sql_expr_kind eKind, sql_token t,
                            sql_select *pSelect) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, eKind, sql_token_offset(p, t), NULL, NULL, NULL);
  if (e == NULL) return NULL;
  e = sql_expr_set_select(p, e, pSelect);
  if (e != NULL && eKind != SQL_EXPR_ARRAY) e->bSelect = 0;   /* the kind says it */
  return e;
}

sql_expr *sql_expr_array(sql_parse_ctx *p, sql_token tAt, sql_expr_list *pList) {
  if (sql_parse_failed(p)) return NULL;
  return sql_expr_node(p, SQL_EXPR_ARRAY, sql_token_offset(p, tAt), NULL, NULL, pList);
}

sql_expr *sql_expr_subscript(sql_parse_ctx *p, sql_expr *pExpr, sql_token tLb, sql_expr *pLow,
                             sql_expr *pHigh, int bSlice) {
  sql_expr_list *pList;
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  pList = sql_expr_list_append(p, NULL, pLow);
  if (bSlice) pList = sql_expr_list_append(p, pList, pHigh);
  if (pList == NULL) return NULL;
  e = sql_expr_node(p, SQL_EXPR_SUBSCRIPT, sql_token_offset(p, tLb), pExpr, NULL, pList);
  if (e != NULL) e->bSlice = bSlice != 0;
  return e;
}

sql_expr *sql_expr_row(sql_parse_ctx *p, sql_token tLp, sql_expr_list *pList) {
  if (sql_parse_failed(p)) return NULL;
  return sql_expr_node(p, SQL_EXPR_ROW, sql_token_offset(p, tLp), NULL, NULL, pList);
}

sql_expr *sql_expr_grouping(sql_parse_ctx *p, sql_expr_kind eKind, sql_token tAt,
                            sql_expr_list *pList) {
  if (sql_parse_failed(p)) return NULL;
  return sql_expr_node(p, eKind, sql_token_offset(p, tAt), NULL, NULL, pList);
}

/* ---- CASE, casts, collations ---------------------------------------------------------- */

sql_expr *sql_expr_case(sql_parse_ctx *p, sql_token tCase, sql_expr *pOperand,
                        sql_expr_list *pWhenThen, sql_expr *pElse) {
  if (sql_parse_failed(p)) return NULL;
  return sql_expr_node(p, SQL_EXPR_CASE, sql_token_offset(p, tCase), pOperand, pElse,
                       pWhenThen);
}

sql_expr *sql_expr_cast(sql_parse_ctx *p, sql_token tOp, sql_expr *pExpr, sql_type t) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, SQL_EXPR_CAST, sql_token_offset(p, tOp), pExpr, NULL, NULL);
  if (e == NULL) return NULL;
  e->castType = t.t;
  e->nCastDim = t.nArrayDim;
  return e;
}

sql_expr *sql_expr_collate(sql_parse_ctx *p, sql_expr *pExpr, sql_token tCollate, sql_qname name) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, SQL_EXPR_COLLATE, sql_token_offset(p, tCollate), pExpr, NULL, NULL);
  if (e == NULL) return NULL;
  e->zName = sql__name_text(p, name.tName);
  if (name.tSchema.z != NULL) e->zSchema = sql__name_text(p, name.tSchema);
  return sql_parse_failed(p) ? NULL : e;
}

/* ---- calls -------------------------------------------------------------------------- */

sql_expr *sql_expr_func(sql_parse_ctx *p, sql_qname name, sql_expr_list *pArgs, int bDistinct,
                        int bStar, sql_expr_list *pOrderBy) {
  sql_token tFirst = name.tSchema.z != NULL ? name.tSchema : name.tName;
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, SQL_EXPR_FUNC, sql_token_offset(p, tFirst), NULL, NULL, pArgs);
  if (e == NULL) return NULL;
  e->zName = sql__name_text(p, name.tName);
  if (name.tSchema.z != NULL) e->zSchema = sql__name_text(p, name.tSchema);
  e->bDistinct = bDistinct != 0;
  e->bStar = bStar != 0;
  e->pOrderBy = pOrderBy;
  if (sql_parse_failed(p)) return NULL;
  return sql__expr_height_raise(p, e, sql__list_height(pOrderBy), e->iOffset);
}

sql_expr *sql_expr_func_tail(sql_parse_ctx *p, sql_expr *pFunc, const sql_tail *pWithin,
                             const sql_tail *pFilter, sql_window *pWin) {
  if (sql_parse_failed(p)) return NULL;
  if (pWithin->t.z != NULL) {
    /* PostgreSQL's grammar checks these; the order of the aggregate's
    ** arguments is then the WITHIN GROUP's. */
    const char *zWhy = pFunc->pOrderBy != NULL ? "multiple ORDER BY clauses"
                       : pFunc->bDistinct     ? "DISTINCT"
                                              : NULL;
    if (zWhy != NULL) {
      sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, pFunc->iOffset,
                    "cannot use %s with WITHIN GROUP", zWhy);
      return NULL;
    }
    pFunc->pOrderBy = pWithin->pList;
    pFunc->bWithinGroup = 1;
    if (sql__expr_height_raise(p, pFunc, sql__list_height(pWithin->pList), pFunc->iOffset) ==
        NULL) {
      return NULL;
    }
  }
  if (pFilter->t.z != NULL) {
    pFunc->pFilter = pFilter->pExpr;
    pFunc->iClauseOffset = sql_token_offset(p, pFilter->t);
    if (sql__expr_height_raise(p, pFunc, sql_height(pFilter->pExpr), pFunc->iOffset) == NULL) {
      return NULL;
    }
  }
  if (pWin != NULL) {
    pFunc->pWin = pWin;
    return sql__expr_height_raise(p, pFunc, sql__window_height(pWin), pFunc->iOffset);
  }
  return pFunc;
}

sql_expr *sql_expr_special(sql_parse_ctx *p, sql_token tKw, const char *zName,
                           sql_expr_list *pArgs) {
  sql_expr *e = sql_expr_keyword_call(p, tKw, pArgs);
  if (e == NULL) return NULL;
  e->bSqlSyntax = 1;
  if (zName != NULL) e->zName = zName;
  return e;
}

sql_expr *sql_expr_keyword_call(sql_parse_ctx *p, sql_token tKw, sql_expr_list *pArgs) {
  return sql_expr_func(p, sql_qname_new(sql_token_none(), tKw), pArgs, 0, 0, NULL);
}

sql_expr *sql_expr_field(sql_parse_ctx *p, sql_token t) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, SQL_EXPR_STRING, sql_token_offset(p, t), NULL, NULL, NULL);
  if (e == NULL) return NULL;
  e->zText = sql__name_text(p, t);
  return sql_parse_failed(p) ? NULL : e;
}
