/*
** tests/test-parse-print.c — prints a parse tree as one S-expression per
** statement, so that parser tests compare text with text. It reads the
** tree exactly as the binder will (every field that the grammar sets is
** shown), and is test code only: the server never prints trees.
**
** The format, by example:
**
**   (select :distinct (items (sum (mul (col lo_extendedprice) (col lo_discount)))
**        :as revenue *) (from lineorder (date :as d) (join part :on (eq ...)))
**        (where E) (group E ...) (having E) (order E :desc :nulls-first ...)
**        (limit E) (offset E))
**
**   literals   42  1.5e3  'it''s'  (date '1997-12-31')  null  true
**   columns    (col name)  (col t.name)  (col "Quoted")  *  t.*
**   operators  (add a b) sub mul div mod eq ne lt le gt ge and or,
**              (neg a) (pos a) (not a), (is-null a) (is-not-null a),
**              (between a lo hi) (not-between ...), (in a x y) (not-in ...),
**              (like a p) (not-like a p), (cast a DECIMAL(15,2)),
**              (case [operand] (when w t) ... [(else e)]),
**              (name args) (name *) (name distinct args)
**   statements (create-table [:if-not-exists] t (column c TYPE [:not-null]
**              [:primary-key] [:references t2[(c2)]]) (primary-key a b)
**              (foreign-key (a) :references t2 [(b)])), (drop-table
**              [:if-exists] t), (copy t 'path' [:format f] [:header]
**              [:delimiter 'c'] [:null 's']), (explain [:analyze]
**              [:verbose] STMT), (show-tables), (show name), (set name
**              'value') or (set name default), (begin), (commit),
**              (rollback)
**
** With PARSE_PRINT_OFFSETS every expression, FROM item, alias and column
** gets "@N" (its byte offset) and every statement "[offset+length]".
*/
#include <stdarg.h>

#include "test-parse.h"
#include "test.h"

/* A growing output string. */
typedef struct pp_buf pp_buf;
struct pp_buf {
  char *z;
  size_t n;
  size_t nAlloc;
  unsigned mFlags;
};

static void pp_printf(pp_buf *b, const char *zFmt, ...) __attribute__((format(printf, 2, 3)));
static void pp_printf(pp_buf *b, const char *zFmt, ...) {
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

static void pp_offset(pp_buf *b, int iOffset) {
  if (b->mFlags & PARSE_PRINT_OFFSETS) pp_printf(b, "@%d", iOffset);
}

/* Prints z as a SQL string literal. */
static void pp_string(pp_buf *b, const char *z) {
  ASSERT(z != NULL);
  pp_printf(b, "'");
  for (; *z; z++) pp_printf(b, *z == '\'' ? "''" : "%c", *z);
  pp_printf(b, "'");
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
    case SQL_OP_NONE: break;
  }
  FAIL("operator %d", (int)e);
}

static void pp_expr(pp_buf *b, const sql_expr *e);

/* Prints the expressions of pList, each preceded by a space. */
static void pp_list(pp_buf *b, const sql_expr_list *pList) {
  ASSERT(pList != NULL && pList->n > 0 && pList->n <= pList->nAlloc);
  for (int i = 0; i < pList->n; i++) {
    pp_printf(b, " ");
    pp_expr(b, pList->a[i].pExpr);
  }
}

static void pp_expr(pp_buf *b, const sql_expr *e) {
  char zType[64];
  ASSERT(e != NULL);
  /* Heights are what keeps every walk of the tree bounded. */
  ASSERT(e->nHeight >= 1 && e->nHeight <= SQL_DEPTH_MAX);
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
      pp_printf(b, "%s%s*", e->zTable ? e->zTable : "", e->zTable ? "." : "");
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
      pp_printf(b, "col");
      pp_offset(b, e->iOffset);
      pp_printf(b, e->bQuoted ? " %s%s\"%s\"" : " %s%s%s", e->zTable ? e->zTable : "",
                e->zTable ? "." : "", e->zName);
      break;
    case SQL_EXPR_UNARY:
    case SQL_EXPR_BINARY:
      pp_printf(b, "%s", pp_op_name(e->eOp));
      pp_offset(b, e->iOffset);
      pp_printf(b, " ");
      pp_expr(b, e->pLeft);
      if (e->eKind == SQL_EXPR_BINARY) {
        pp_printf(b, " ");
        pp_expr(b, e->pRight);
      }
      break;
    case SQL_EXPR_IS_NULL:
      pp_printf(b, "%s", e->bNot ? "is-not-null" : "is-null");
      pp_offset(b, e->iOffset);
      pp_printf(b, " ");
      pp_expr(b, e->pLeft);
      break;
    case SQL_EXPR_BETWEEN:
    case SQL_EXPR_IN:
      pp_printf(b, "%s%s", e->bNot ? "not-" : "", e->eKind == SQL_EXPR_IN ? "in" : "between");
      pp_offset(b, e->iOffset);
      pp_printf(b, " ");
      pp_expr(b, e->pLeft);
      pp_list(b, e->pList);
      if (e->eKind == SQL_EXPR_BETWEEN) ASSERT_EQ(e->pList->n, 2);
      break;
    case SQL_EXPR_LIKE:
      pp_printf(b, "%s", e->bNot ? "not-like" : "like");
      pp_offset(b, e->iOffset);
      pp_printf(b, " ");
      pp_expr(b, e->pLeft);
      pp_printf(b, " ");
      pp_expr(b, e->pRight);
      break;
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
      break;
    case SQL_EXPR_FUNC:
      pp_printf(b, "%s", e->zName);
      pp_offset(b, e->iOffset);
      if (e->bDistinct) pp_printf(b, " distinct");
      if (e->bStar) {
        ASSERT(e->pList == NULL);
        pp_printf(b, " *");
      } else if (e->pList != NULL) {
        pp_list(b, e->pList);
      }
      break;
    default: FAIL("expression kind %d", (int)e->eKind);
  }
  pp_printf(b, ")");
}

/* ---- SELECT ------------------------------------------------------------------ */

static void pp_select(pp_buf *b, const sql_select *s) {
  ASSERT(s != NULL && s->pItems != NULL);
  pp_printf(b, "(select%s (items", s->bDistinct ? " :distinct" : "");
  for (int i = 0; i < s->pItems->n; i++) {
    const sql_expr_item *pItem = &s->pItems->a[i];
    pp_printf(b, " ");
    pp_expr(b, pItem->pExpr);
    if (pItem->zAlias != NULL) {
      pp_printf(b, " :as %s", pItem->zAlias);
      pp_offset(b, pItem->iAliasOffset);
    }
    ASSERT(!pItem->bDesc && pItem->eNulls == SQL_NULLS_DEFAULT);
  }
  pp_printf(b, ")");
  if (s->pFrom != NULL) {
    ASSERT(s->pFrom->n > 0);
    pp_printf(b, " (from");
    for (int i = 0; i < s->pFrom->n; i++) {
      const sql_src_item *pSrc = &s->pFrom->a[i];
      int bParen = pSrc->zAlias != NULL || pSrc->eJoin != SQL_JOIN_COMMA;
      ASSERT(i > 0 || pSrc->eJoin == SQL_JOIN_COMMA);
      ASSERT((pSrc->pOn != NULL) == (pSrc->eJoin == SQL_JOIN_INNER));
      pp_printf(b, " %s%s", bParen ? "(" : "", pSrc->eJoin == SQL_JOIN_INNER ? "join " : "");
      pp_printf(b, "%s", pSrc->zName);
      pp_offset(b, pSrc->iOffset);
      if (pSrc->zAlias != NULL) pp_printf(b, " :as %s", pSrc->zAlias);
      if (pSrc->pOn != NULL) {
        pp_printf(b, " :on ");
        pp_expr(b, pSrc->pOn);
      }
      if (bParen) pp_printf(b, ")");
    }
    pp_printf(b, ")");
  }
  if (s->pWhere != NULL) {
    pp_printf(b, " (where ");
    pp_expr(b, s->pWhere);
    pp_printf(b, ")");
  }
  if (s->pGroupBy != NULL) {
    pp_printf(b, " (group");
    pp_list(b, s->pGroupBy);
    pp_printf(b, ")");
  }
  if (s->pHaving != NULL) {
    pp_printf(b, " (having ");
    pp_expr(b, s->pHaving);
    pp_printf(b, ")");
  }
  if (s->pOrderBy != NULL) {
    pp_printf(b, " (order");
    for (int i = 0; i < s->pOrderBy->n; i++) {
      const sql_expr_item *pItem = &s->pOrderBy->a[i];
      pp_printf(b, " ");
      pp_expr(b, pItem->pExpr);
      if (pItem->bDesc) pp_printf(b, " :desc");
      if (pItem->eNulls != SQL_NULLS_DEFAULT) {
        pp_printf(b, pItem->eNulls == SQL_NULLS_FIRST ? " :nulls-first" : " :nulls-last");
      }
      ASSERT(pItem->zAlias == NULL);
    }
    pp_printf(b, ")");
  }
  if (s->pLimit != NULL) {
    pp_printf(b, " (limit ");
    pp_expr(b, s->pLimit);
    pp_printf(b, ")");
  }
  if (s->pOffset != NULL) {
    pp_printf(b, " (offset ");
    pp_expr(b, s->pOffset);
    pp_printf(b, ")");
  }
  pp_printf(b, ")");
}

/* ---- other statements --------------------------------------------------------- */

static void pp_create(pp_buf *b, const sql_create *c) {
  char zType[64];
  pp_printf(b, "(create-table%s %s", c->bIfNotExists ? " :if-not-exists" : "", c->zName);
  pp_offset(b, c->iOffset);
  for (int i = 0; i < c->nCol; i++) {
    const sql_column_def *d = &c->aCol[i];
    pp_printf(b, " (column %s", d->zName);
    pp_offset(b, d->iOffset);
    pp_printf(b, " %s", coltype_format(d->type, zType, sizeof(zType)));
    if (d->bNotNull) pp_printf(b, " :not-null");
    if (d->bPrimaryKey) pp_printf(b, " :primary-key");
    if (d->zRefTable != NULL) {
      pp_printf(b, " :references %s", d->zRefTable);
      pp_offset(b, d->iRefOffset);
      if (d->zRefColumn != NULL) pp_printf(b, "(%s)", d->zRefColumn);
    } else {
      ASSERT(d->zRefColumn == NULL);
    }
    pp_printf(b, ")");
  }
  for (int i = 0; i < c->nKey; i++) {
    const sql_table_key *k = &c->aKey[i];
    pp_printf(b, " (%s", k->bForeign ? "foreign-key (" : "primary-key ");
    ASSERT(k->nCol > 0);
    for (int j = 0; j < k->nCol; j++) pp_printf(b, "%s%s", j ? " " : "", k->azCol[j]);
    if (k->bForeign) {
      pp_printf(b, ") :references %s", k->zRefTable);
      if (k->nRefCol > 0) {
        pp_printf(b, " (");
        for (int j = 0; j < k->nRefCol; j++) pp_printf(b, "%s%s", j ? " " : "", k->azRefCol[j]);
        pp_printf(b, ")");
      }
    } else {
      ASSERT(k->zRefTable == NULL && k->nRefCol == 0);
    }
    pp_printf(b, ")");
    pp_offset(b, k->iOffset);
  }
  pp_printf(b, ")");
}

static void pp_copy(pp_buf *b, const sql_copy *c) {
  pp_printf(b, "(copy %s", c->zTable);
  pp_offset(b, c->iOffset);
  pp_printf(b, " ");
  if (c->bStdin) pp_printf(b, "stdin");
  else pp_string(b, c->zPath);
  pp_offset(b, c->iPathOffset);
  if (c->zFormat != NULL) pp_printf(b, " :format %s", c->zFormat);
  if (c->bHeader) pp_printf(b, " :header");
  if (c->zDelimiter != NULL) {
    pp_printf(b, " :delimiter ");
    pp_string(b, c->zDelimiter);
  }
  if (c->zNull != NULL) {
    pp_printf(b, " :null ");
    pp_string(b, c->zNull);
  }
  pp_printf(b, ")");
}

static void pp_stmt(pp_buf *b, const sql_stmt *s) {
  ASSERT(s != NULL);
  switch (s->eKind) {
    case SQL_STMT_SELECT: pp_select(b, s->pSelect); break;
    case SQL_STMT_CREATE_TABLE: pp_create(b, s->pCreate); break;
    case SQL_STMT_DROP_TABLE:
      pp_printf(b, "(drop-table%s %s)", s->bIfExists ? " :if-exists" : "", s->zName);
      break;
    case SQL_STMT_COPY: pp_copy(b, s->pCopy); break;
    case SQL_STMT_EXPLAIN:
      ASSERT(s->pExplain != NULL && s->pExplain->eKind != SQL_STMT_EXPLAIN);
      pp_printf(b, "(explain%s%s ", s->bAnalyze ? " :analyze" : "", s->bVerbose ? " :verbose" : "");
      pp_stmt(b, s->pExplain);
      pp_printf(b, ")");
      break;
    case SQL_STMT_SHOW_TABLES: pp_printf(b, "(show-tables)"); break;
    case SQL_STMT_SHOW: pp_printf(b, "(show %s)", s->zName); break;
    case SQL_STMT_SET:
      pp_printf(b, "(set %s ", s->zName);
      if (s->zValue != NULL) pp_string(b, s->zValue); else pp_printf(b, "default");
      pp_printf(b, ")");
      break;
    case SQL_STMT_BEGIN: pp_printf(b, "(begin)"); break;
    case SQL_STMT_COMMIT: pp_printf(b, "(commit)"); break;
    case SQL_STMT_ROLLBACK: pp_printf(b, "(rollback)"); break;
    default: FAIL("statement kind %d", (int)s->eKind);
  }
  if (b->mFlags & PARSE_PRINT_OFFSETS) pp_printf(b, "[%d+%d]", s->iOffset, s->nLength);
}

char *parse_print_script(const sql_script *pScript, unsigned mFlags) {
  pp_buf b = {NULL, 0, 0, mFlags};
  pp_printf(&b, "%s", "");
  for (int i = 0; i < pScript->nStmt; i++) {
    if (i > 0) pp_printf(&b, "\n");
    pp_stmt(&b, pScript->apStmt[i]);
  }
  return b.z;
}

char *parse_dump(const char *zSql, unsigned mFlags) {
  arena a;
  sql_script script;
  sql_error err;
  char *z;
  arena_init(&a);
  /* Poison the outputs so that a field the parser forgets shows. */
  memset(&script, 0x5a, sizeof(script));
  memset(&err, 0x5a, sizeof(err));
  if (sql_parse(zSql, &a, &script, &err) == 0) {
    ASSERT_STR_EQ(err.zState, "");
    z = parse_print_script(&script, mFlags);
  } else {
    pp_buf b = {NULL, 0, 0, 0};
    ASSERT_EQ(strlen(err.zState), 5);
    ASSERT(err.zMsg[0] != 0);
    ASSERT_EQ(script.nStmt, 0);
    ASSERT(script.apStmt == NULL);
    ASSERT(err.iOffset >= 0 && (size_t)err.iOffset <= strlen(zSql));
    pp_printf(&b, "error %s @%d: %s", err.zState, err.iOffset, err.zMsg);
    z = b.z;
  }
  arena_free(&a);
  return z;
}
