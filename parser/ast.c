/*
** parser/ast.c — the constructors the grammar's actions call, and the
** error reports of the parse. Each constructor turns tokens into arena
** nodes (identifiers folded or dequoted, string literals unquoted) and
** decides what the grammar leaves open: whether a type name exists, how
** deep an expression has grown, which unsupported construct was met. A
** flat chain of AND or of OR ("a OR b OR c ...", as long as a generated
** predicate) is not nesting: it is built as a balanced tree as it grows
** (sql_chain below), so its height is about 2 log2 n and its consumers
** still see binary AND/OR nodes, in the order written.
**
** Statement-level constructors are in stmt.c; the driver that feeds the
** lexer's tokens to the lemon engine is in parser.c. Nothing here knows
** the catalog: whether a table, column or function exists is the
** binder's question (planner/bind.h).
**
** Every constructor returns NULL (or a zero value) as soon as an error is
** recorded, so an action never needs to test its children (parseInt.h).
**
** INTERFACE ROUTINES (declared in parseInt.h)
**   sql__error_*        42601 syntax errors, 53200
**   sql_unsupported     0A000 for what starq recognises but does not run
**   sql__alloc, sql__grow                  arena memory for the parser
**   sql__name_text, sql__string_text, sql__span_text   token text
**   sql_expr_*          expression nodes
**   sql_type_new        a type name and its modifiers to a coltype
**   sql_*_append        list growth in the arena
**   sql_select_*        SELECT
*/
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parser/parse.h"
#include "parseInt.h"

/* ---- errors and memory ---------------------------------------------------- */

/* Longest piece of text quoted in an "at or near" message; PostgreSQL
** quotes the whole token, which for a runaway string is the whole rest of
** the input. */
#define SQL_NEAR_MAX 128

/* Returns how many bytes of z[0..n) to quote: at most SQL_NEAR_MAX, cut
** at a UTF-8 character boundary. */
int sql__near_len(const char *z, int n) {
  if (n <= SQL_NEAR_MAX) return n;
  n = SQL_NEAR_MAX;
  while (n > 0 && ((unsigned char)z[n] & 0xC0) == 0x80) n--;
  return n;
}

void sql__error_syntax(sql_parse_ctx *p, sql_token t) {
  if (t.n == 0) {
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, sql_token_offset(p, t),
                  "syntax error at end of input");
  } else {
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, sql_token_offset(p, t),
                  "syntax error at or near \"%.*s\"", sql__near_len(t.z, t.n), t.z);
  }
}

void sql__error_oom(sql_parse_ctx *p) {
  sql_error_set(p->pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
}

/* Returns n zeroed bytes from the parse's arena, or NULL after recording
** 53200. */
void *sql__alloc(sql_parse_ctx *p, size_t n) {
  void *v = arena_alloc(p->pArena, n);
  if (v == NULL) sql__error_oom(p);
  return v;
}

/* Makes room for one more element in the array *pa of *pnAlloc elements
** of size sz, n of them in use, by doubling it in the arena (the old copy
** stays there until the arena dies). Returns 0, or -1 if memory ran out. */
int sql__grow(sql_parse_ctx *p, void **pa, int *pnAlloc, int n, size_t sz) {
  void *aNew;
  int nNew;
  if (n < *pnAlloc) return 0;
  nNew = *pnAlloc ? *pnAlloc * 2 : 4;
  aNew = sql__alloc(p, (size_t)nNew * sz);
  if (aNew == NULL) return -1;
  if (n > 0) memcpy(aNew, *pa, (size_t)n * sz);
  *pa = aNew;
  *pnAlloc = nNew;
  return 0;
}

/* Writes keyword t in upper case into z (at least 16 bytes) and returns z. */
static const char *sql_upper(sql_token t, char *z) {
  int n = t.n < 15 ? t.n : 15;
  for (int i = 0; i < n; i++) {
    char c = t.z[i];
    z[i] = (c >= 'a' && c <= 'z') ? (char)(c - ('a' - 'A')) : c;
  }
  z[n] = 0;
  return z;
}

void *sql_unsupported(sql_parse_ctx *p, sql_token t) {
  char zKw[16];
  const char *zMsg;
  if (sql_parse_failed(p)) return NULL;
  switch (sql__keyword_code(t.z, t.n)) {
    case TK_SELECT: zMsg = "subqueries are not supported"; break;
    case TK_WITH: zMsg = "WITH queries are not supported"; break;
    case TK_OVER: zMsg = "window functions are not supported"; break;
    case TK_FILTER: zMsg = "FILTER on aggregates is not supported"; break;
    case TK_INSERT: zMsg = "INSERT is not supported: starq loads data with COPY"; break;
    case TK_UPDATE:
    case TK_DELETE:
    case TK_TRUNCATE:
      zMsg = "%s is not supported: starq loads tables with COPY and removes them with DROP TABLE";
      break;
    case TK_ALTER: zMsg = "ALTER is not supported: drop the table and create it again"; break;
    case TK_USING: zMsg = "JOIN ... USING is not supported: use JOIN ... ON"; break;
    case TK_ILIKE: zMsg = "ILIKE is not supported: use LIKE"; break;
    case TK_TRUE:
    case TK_FALSE: zMsg = "IS [NOT] %s is not supported: compare with = instead"; break;
    case TK_DISTINCT: zMsg = "IS [NOT] DISTINCT FROM is not supported"; break;
    case TK_UNIQUE:
    case TK_CHECK: zMsg = "%s constraints are not supported"; break;
    case TK_DEFAULT: zMsg = "column DEFAULT values are not supported"; break;
    case TK_TO: zMsg = "COPY TO is not supported: starq only loads files"; break;
    case TK_ON: zMsg = "SELECT DISTINCT ON is not supported"; break;
    case TK_CROSS: zMsg = "CROSS JOIN is not supported: list the tables with commas"; break;
    case TK_LEFT:
    case TK_RIGHT:
    case TK_FULL:
    case TK_NATURAL:
      zMsg = "%s joins are not supported: only [INNER] JOIN ... ON and comma joins are";
      break;
    default: zMsg = "%s is not supported"; break;
  }
  /* Each message has at most one %s, the keyword. */
  sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, sql_token_offset(p, t), zMsg,
                sql_upper(t, zKw));
  return NULL;
}

int sql_join_unsupported(sql_parse_ctx *p, sql_token t) {
  sql_unsupported(p, t);
  return SQL_JOIN_INNER;
}

/* ---- names and text ---------------------------------------------------- */

/* Returns identifier t as an arena string: a "quoted" one without its
** quotes and with "" turned into ", any other folded to lower case (ASCII
** letters only, as PostgreSQL does for UTF-8). NULL if memory ran out. */
char *sql__name_text(sql_parse_ctx *p, sql_token t) {
  char *z = sql__alloc(p, (size_t)t.n + 1);
  int j = 0;
  if (z == NULL) return NULL;
  if (t.z[0] == '"') {
    for (int i = 1; i < t.n - 1; i++) {
      z[j++] = t.z[i];
      if (t.z[i] == '"') i++;
    }
  } else {
    for (int i = 0; i < t.n; i++) {
      char c = t.z[i];
      z[j++] = (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : c;
    }
  }
  z[j] = 0;
  return z;
}

/* Returns string literal t ('...') as an arena string without its quotes
** and with '' turned into '. */
char *sql__string_text(sql_parse_ctx *p, sql_token t) {
  char *z = sql__alloc(p, (size_t)t.n);
  int j = 0;
  if (z == NULL) return NULL;
  for (int i = 1; i < t.n - 1; i++) {
    z[j++] = t.z[i];
    if (t.z[i] == '\'') i++;
  }
  z[j] = 0;
  return z;
}

/* Returns the text of a span of tokens (a dotted name, a two-word type
** name, a signed number): identifiers as sql__name_text(), strings as
** sql__string_text(), other tokens as written, one space between two
** words and none elsewhere. */
char *sql__span_text(sql_parse_ctx *p, sql_token t) {
  char *z = sql__alloc(p, (size_t)t.n + 1);
  int i = 0, j = 0, bPrevWord = 0;
  if (z == NULL) return NULL;
  while (i < t.n) {
    int eType, n = sql__token_get(t.z + i, &eType);
    sql_token u = {t.z + i, n};
    const char *zPart = NULL;
    int bWord = 0;
    if (eType == TK_SPACE) {
      i += n;
      continue;
    }
    if (eType == TK_STRING) {
      zPart = sql__string_text(p, u);
    } else if (eType != TK_INTEGER && eType != TK_DECIMAL && sql__word_start(t.z[i])) {
      zPart = sql__name_text(p, u);
      bWord = 1;
    } else {
      memcpy(z + j, u.z, (size_t)n);
      j += n;
    }
    if (zPart != NULL) {
      size_t nPart = strlen(zPart);
      if (bWord && bPrevWord) z[j++] = ' ';
      memcpy(z + j, zPart, nPart);
      j += (int)nPart;
    }
    bPrevWord = bWord;
    i += n;
  }
  z[j] = 0;
  return sql_parse_failed(p) ? NULL : z;
}

/* ---- expressions ----------------------------------------------------------- */

static int sql_height(const sql_expr *e) {
  return e ? e->nHeight : 0;
}

static void sql_error_depth(sql_parse_ctx *p, int iOffset) {
  sql_error_set(p->pErr, SQLSTATE_PROGRAM_LIMIT, iOffset,
                "statement is nested more than %d levels deep", SQL_DEPTH_MAX);
}

/* Returns a new node of kind eKind at byte iOffset over the given children,
** its height computed; NULL after recording 54000 if the tree would grow
** past SQL_DEPTH_MAX, so that no later walk recurses without bound. */
static sql_expr *sql_expr_node(sql_parse_ctx *p, sql_expr_kind eKind, int iOffset,
                               sql_expr *pLeft, sql_expr *pRight, sql_expr_list *pList) {
  sql_expr *e;
  int nHeight = sql_height(pLeft);
  if (sql_height(pRight) > nHeight) nHeight = sql_height(pRight);
  for (int i = 0; pList != NULL && i < pList->n; i++) {
    if (sql_height(pList->a[i].pExpr) > nHeight) nHeight = sql_height(pList->a[i].pExpr);
  }
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

sql_expr *sql_expr_literal(sql_parse_ctx *p, sql_expr_kind eKind, sql_token t) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, eKind, sql_token_offset(p, t), NULL, NULL, NULL);
  if (e == NULL) return NULL;
  switch (eKind) {
    case SQL_EXPR_STRING: e->zText = sql__string_text(p, t); break;
    case SQL_EXPR_BOOL: e->bValue = (t.z[0] | 0x20) == 't'; break;
    case SQL_EXPR_NULL: break;
    default: e->zText = arena_strndup(p->pArena, t.z, (size_t)t.n); break;
  }
  if (eKind != SQL_EXPR_BOOL && eKind != SQL_EXPR_NULL && e->zText == NULL) sql__error_oom(p);
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

sql_expr *sql_expr_typed_literal(sql_parse_ctx *p, sql_token tType, sql_token tValue) {
  sql_expr *e, *pValue;
  const char *zType;
  coltype t;
  if (sql_parse_failed(p)) return NULL;
  zType = sql__name_text(p, tType);
  if (zType == NULL) return NULL;
  if (strcmp(zType, "date") == 0) {
    e = sql_expr_literal(p, SQL_EXPR_STRING, tValue);
    if (e == NULL) return NULL;
    e->eKind = SQL_EXPR_DATE;
    e->iOffset = sql_token_offset(p, tType);
    return e;
  }
  /* INTEGER '5' is CAST('5' AS INTEGER), as in PostgreSQL. */
  t = sql_type_new(p, tType, NULL, NULL);
  pValue = sql_expr_literal(p, SQL_EXPR_STRING, tValue);
  return sql_expr_cast(p, tType, pValue, t);
}

sql_expr *sql_expr_column(sql_parse_ctx *p, const sql_token *pTable, sql_token tName) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, SQL_EXPR_COLUMN, sql_token_offset(p, pTable ? *pTable : tName),
                    NULL, NULL, NULL);
  if (e == NULL) return NULL;
  e->zName = sql__name_text(p, tName);
  e->bQuoted = tName.z[0] == '"';
  if (pTable != NULL) e->zTable = sql__name_text(p, *pTable);
  return sql_parse_failed(p) ? NULL : e;
}

sql_expr *sql_expr_star(sql_parse_ctx *p, const sql_token *pTable, sql_token tStar) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, SQL_EXPR_STAR, sql_token_offset(p, pTable ? *pTable : tStar),
                    NULL, NULL, NULL);
  if (e != NULL && pTable != NULL) e->zTable = sql__name_text(p, *pTable);
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

/* Makes one of the predicates that take NOT in the middle (IS [NOT] NULL,
** [NOT] BETWEEN, [NOT] IN, [NOT] LIKE), positioned at its operator. */
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

sql_expr *sql_expr_between(sql_parse_ctx *p, sql_expr *pLeft, sql_token tOp, int bNot,
                           sql_expr *pLow, sql_expr *pHigh) {
  sql_expr_list *pList;
  if (sql_parse_failed(p)) return NULL;
  pList = sql_expr_list_append(p, sql_expr_list_append(p, NULL, pLow), pHigh);
  if (pList == NULL) return NULL;
  return sql_expr_negatable(p, SQL_EXPR_BETWEEN, tOp, bNot, pLeft, NULL, pList);
}

sql_expr *sql_expr_in(sql_parse_ctx *p, sql_expr *pLeft, sql_token tOp, int bNot,
                      sql_expr_list *pList) {
  return sql_expr_negatable(p, SQL_EXPR_IN, tOp, bNot, pLeft, NULL, pList);
}

sql_expr *sql_expr_like(sql_parse_ctx *p, sql_expr *pLeft, sql_token tOp, int bNot,
                        sql_expr *pPattern) {
  return sql_expr_negatable(p, SQL_EXPR_LIKE, tOp, bNot, pLeft, pPattern, NULL);
}

sql_expr *sql_expr_case(sql_parse_ctx *p, sql_token tCase, sql_expr *pOperand,
                        sql_expr_list *pWhenThen, sql_expr *pElse) {
  if (sql_parse_failed(p)) return NULL;
  return sql_expr_node(p, SQL_EXPR_CASE, sql_token_offset(p, tCase), pOperand, pElse,
                       pWhenThen);
}

sql_expr *sql_expr_cast(sql_parse_ctx *p, sql_token tOp, sql_expr *pExpr, coltype t) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, SQL_EXPR_CAST, sql_token_offset(p, tOp), pExpr, NULL, NULL);
  if (e != NULL) e->castType = t;
  return e;
}

sql_expr *sql_expr_func(sql_parse_ctx *p, sql_token tName, sql_expr_list *pArgs,
                        int bDistinct, int bStar) {
  sql_expr *e;
  if (sql_parse_failed(p)) return NULL;
  e = sql_expr_node(p, SQL_EXPR_FUNC, sql_token_offset(p, tName), NULL, NULL, pArgs);
  if (e == NULL) return NULL;
  e->zName = sql__name_text(p, tName);
  e->bDistinct = bDistinct != 0;
  e->bStar = bStar != 0;
  return sql_parse_failed(p) ? NULL : e;
}

/* ---- types ----------------------------------------------------------------- */

/* Types PostgreSQL has and starq does not: refused with 0A000 rather than
** PostgreSQL's 42704, which would claim they do not exist at all. */
static const char *const azTypeUnsupported[] = {
  "bytea", "float4", "interval", "json", "jsonb", "money", "real", "time",
  "timestamp", "timestamptz", "timetz", "uuid",
};

static int sql_has_capital(const char *z) {
  for (; *z; z++) {
    if (*z >= 'A' && *z <= 'Z') return 1;
  }
  return 0;
}

/* Reads the modifier token t (digits) as an int, or -1 past 10^9. */
static int sql_type_arg(const sql_token *t) {
  long v = 0;
  for (int i = 0; i < t->n; i++) {
    v = v * 10 + (t->z[i] - '0');
    if (v > 1000000000) return -1;
  }
  return (int)v;
}

coltype sql_type_new(sql_parse_ctx *p, sql_token tName, const sql_token *pArg1,
                     const sql_token *pArg2) {
  coltype t = {0, 0, 0, 0};
  char zErr[200], *zType;
  const char *zName;
  int iOffset = sql_token_offset(p, tName), nArg1 = pArg1 ? sql_type_arg(pArg1) : 0;
  size_t nType;
  if (sql_parse_failed(p)) return t;
  zName = sql__span_text(p, tName);
  if (zName == NULL) return t;
  for (size_t i = 0; i < sizeof(azTypeUnsupported) / sizeof(azTypeUnsupported[0]); i++) {
    if (strcmp(zName, azTypeUnsupported[i]) == 0) {
      sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, iOffset,
                    "type %s is not supported", zName);
      return t;
    }
  }
  if (pArg1 == NULL) {
    /* Words coltype_parse() does not take alone: BOOLEAN is the type of
    ** predicates (casts only; the catalog refuses it for columns), FLOAT is
    ** PostgreSQL's float8, and VARCHAR without a length is unbounded, which
    ** for a dictionary-coded column is TEXT. */
    if (strcmp(zName, "boolean") == 0 || strcmp(zName, "bool") == 0) {
      t.eId = COLTYPE_BOOLEAN;
      return t;
    }
    if (strcmp(zName, "float") == 0) zName = "float8";
    if (strcmp(zName, "varchar") == 0 || strcmp(zName, "character varying") == 0 ||
        strcmp(zName, "char varying") == 0) {
      zName = "text";
    }
  } else if ((strcmp(zName, "decimal") == 0 || strcmp(zName, "numeric") == 0) &&
             (nArg1 < 0 || nArg1 > COLTYPE_DECIMAL_PRECISION_MAX)) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, iOffset,
                  "DECIMAL precision %.*s is more than the %d digits starq stores", pArg1->n,
                  pArg1->z, COLTYPE_DECIMAL_PRECISION_MAX);
    return t;
  }
  nType = strlen(zName) + (pArg1 ? (size_t)pArg1->n : 0) + (pArg2 ? (size_t)pArg2->n : 0) + 4;
  zType = sql__alloc(p, nType);
  if (zType == NULL) return t;
  if (pArg2 != NULL) {
    snprintf(zType, nType, "%s(%.*s,%.*s)", zName, pArg1->n, pArg1->z, pArg2->n, pArg2->z);
  } else if (pArg1 != NULL) {
    snprintf(zType, nType, "%s(%.*s)", zName, pArg1->n, pArg1->z);
  } else {
    snprintf(zType, nType, "%s", zName);
  }
  /* Only a quoted name can hold capitals, and PostgreSQL matches quoted
  ** type names exactly: "Int" is no type, though coltype_parse() would
  ** take it for INT. coltype_parse() says "unknown type" only when the
  ** name itself is unknown; anything else is a known type with bad
  ** modifiers. */
  if (sql_has_capital(zName) || coltype_parse(zType, &t, zErr, sizeof(zErr)) != 0) {
    char zBare[200];
    if (sql_has_capital(zName) || strncmp(zErr, "unknown type", 12) == 0) {
      sql_error_set(p->pErr, SQLSTATE_UNDEFINED_OBJECT, iOffset, "type \"%s\" does not exist",
                    zName);
    } else if (pArg1 != NULL && strncmp(zErr, "malformed", 9) == 0 && nArg1 >= 0 &&
               coltype_parse(zName, &t, zBare, sizeof(zBare)) == 0) {
      /* INT(4), TEXT(10): the name alone is a type, the modifiers are not. */
      sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, iOffset,
                    "type modifier is not allowed for type \"%s\"", zName);
    } else {
      sql_error_set(p->pErr, SQLSTATE_INVALID_PARAMETER, iOffset, "%s", zErr);
    }
    memset(&t, 0, sizeof(t));
  }
  return t;
}

/* ---- lists -------------------------------------------------------------- */

/* Returns pList (a new list if NULL) with one more zeroed item, or NULL. */
static sql_expr_item *sql_expr_list_add(sql_parse_ctx *p, sql_expr_list **ppList) {
  sql_expr_list *pList = *ppList;
  if (pList == NULL) {
    pList = sql__alloc(p, sizeof(*pList));
    if (pList == NULL) return NULL;
    *ppList = pList;
  }
  if (sql__grow(p, (void **)&pList->a, &pList->nAlloc, pList->n, sizeof(pList->a[0])) != 0) {
    return NULL;
  }
  return &pList->a[pList->n++];
}

sql_expr_list *sql_expr_list_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pExpr) {
  sql_expr_item *pItem;
  if (sql_parse_failed(p)) return NULL;
  pItem = sql_expr_list_add(p, &pList);
  if (pItem == NULL) return NULL;
  pItem->pExpr = pExpr;
  return pList;
}

sql_expr_list *sql_case_when_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pWhen,
                                    sql_expr *pThen) {
  return sql_expr_list_append(p, sql_expr_list_append(p, pList, pWhen), pThen);
}

sql_expr_list *sql_select_item_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pExpr,
                                      sql_token tAlias) {
  sql_expr_item *pItem;
  if (sql_parse_failed(p)) return NULL;
  pItem = sql_expr_list_add(p, &pList);
  if (pItem == NULL) return NULL;
  pItem->pExpr = pExpr;
  if (tAlias.z != NULL) {
    pItem->zAlias = sql__name_text(p, tAlias);
    pItem->iAliasOffset = sql_token_offset(p, tAlias);
  }
  return sql_parse_failed(p) ? NULL : pList;
}

sql_expr_list *sql_order_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pExpr,
                                int bDesc, sql_nulls eNulls) {
  sql_expr_item *pItem;
  if (sql_parse_failed(p)) return NULL;
  pItem = sql_expr_list_add(p, &pList);
  if (pItem == NULL) return NULL;
  pItem->pExpr = pExpr;
  pItem->bDesc = bDesc != 0;
  pItem->eNulls = eNulls;
  return pList;
}

sql_src_list *sql_src_append(sql_parse_ctx *p, sql_src_list *pList, sql_join eJoin,
                             sql_token tName, sql_token tAlias, sql_expr *pOn) {
  sql_src_item *pItem;
  if (sql_parse_failed(p)) return NULL;
  if (pList == NULL && (pList = sql__alloc(p, sizeof(*pList))) == NULL) return NULL;
  if (sql__grow(p, (void **)&pList->a, &pList->nAlloc, pList->n, sizeof(pList->a[0])) != 0) {
    return NULL;
  }
  pItem = &pList->a[pList->n++];
  pItem->zName = sql__name_text(p, tName);
  pItem->iOffset = sql_token_offset(p, tName);
  if (tAlias.z != NULL) pItem->zAlias = sql__name_text(p, tAlias);
  pItem->eJoin = eJoin;
  pItem->pOn = pOn;
  return sql_parse_failed(p) ? NULL : pList;
}

sql_name_list *sql_name_list_append(sql_parse_ctx *p, sql_name_list *pList, sql_token tName) {
  if (sql_parse_failed(p)) return NULL;
  if (pList == NULL && (pList = sql__alloc(p, sizeof(*pList))) == NULL) return NULL;
  if (sql__grow(p, (void **)&pList->az, &pList->nAlloc, pList->n, sizeof(pList->az[0])) != 0) {
    return NULL;
  }
  pList->az[pList->n++] = sql__name_text(p, tName);
  return sql_parse_failed(p) ? NULL : pList;
}

/* ---- SELECT -------------------------------------------------------------- */

sql_select *sql_select_new(sql_parse_ctx *p, int bDistinct, sql_expr_list *pItems,
                           sql_src_list *pFrom, sql_expr *pWhere, sql_expr_list *pGroupBy,
                           sql_expr *pHaving) {
  sql_select *s;
  if (sql_parse_failed(p)) return NULL;
  s = sql__alloc(p, sizeof(*s));
  if (s == NULL) return NULL;
  s->bDistinct = bDistinct != 0;
  s->pItems = pItems;
  s->pFrom = pFrom;
  s->pWhere = pWhere;
  s->pGroupBy = pGroupBy;
  s->pHaving = pHaving;
  return s;
}

sql_select *sql_select_finish(sql_parse_ctx *p, sql_select *pSelect, sql_expr_list *pOrderBy,
                              sql_limit limit) {
  if (sql_parse_failed(p)) return NULL;
  pSelect->pOrderBy = pOrderBy;
  pSelect->pLimit = limit.pLimit;
  pSelect->pOffset = limit.pOffset;
  return pSelect;
}

sql_limit sql_limit_new(sql_expr *pLimit, sql_expr *pOffset) {
  sql_limit l;
  l.pLimit = pLimit;
  l.pOffset = pOffset;
  return l;
}
