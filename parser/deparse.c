/*
** parser/deparse.c — a parse tree back to SQL text, for EXPLAIN and error
** messages: what the user wrote, normalised (keywords upper case, names as
** folded, parentheses only where precedence needs them).
**
** Precedence follows PostgreSQL's grammar, loosest first: OR, AND, NOT,
** comparisons (and IS, LIKE, BETWEEN, IN), + -, * / %, unary minus. A
** child is parenthesised when it binds more loosely than its parent, or
** as tightly on the right of a left-associative operator (a - (b - c)).
*/
#include <string.h>

#include "parser.h"

enum {
  DEPARSE_OR = 1,
  DEPARSE_AND,
  DEPARSE_NOT,
  DEPARSE_CMP,
  DEPARSE_ADD,
  DEPARSE_MUL,
  DEPARSE_UNARY,
  DEPARSE_ATOM
};

const char *sql_op_text(sql_op e) {
  switch (e) {
    case SQL_OP_ADD: case SQL_OP_PLUS: return "+";
    case SQL_OP_SUB: case SQL_OP_NEG: return "-";
    case SQL_OP_MUL: return "*";
    case SQL_OP_DIV: return "/";
    case SQL_OP_MOD: return "%";
    case SQL_OP_EQ: return "=";
    case SQL_OP_NE: return "<>";
    case SQL_OP_LT: return "<";
    case SQL_OP_LE: return "<=";
    case SQL_OP_GT: return ">";
    case SQL_OP_GE: return ">=";
    case SQL_OP_AND: return "AND";
    case SQL_OP_OR: return "OR";
    case SQL_OP_NOT: return "NOT";
    case SQL_OP_NONE: break;
  }
  return "?";
}

static int deparse_prec(const sql_expr *e) {
  switch (e->eKind) {
    case SQL_EXPR_BINARY:
      switch (e->eOp) {
        case SQL_OP_OR: return DEPARSE_OR;
        case SQL_OP_AND: return DEPARSE_AND;
        case SQL_OP_ADD: case SQL_OP_SUB: return DEPARSE_ADD;
        case SQL_OP_MUL: case SQL_OP_DIV: case SQL_OP_MOD: return DEPARSE_MUL;
        default: return DEPARSE_CMP;
      }
    case SQL_EXPR_UNARY:
      return e->eOp == SQL_OP_NOT ? DEPARSE_NOT : DEPARSE_UNARY;
    case SQL_EXPR_IS_NULL:
    case SQL_EXPR_BETWEEN:
    case SQL_EXPR_IN:
    case SQL_EXPR_LIKE:
      return DEPARSE_CMP;
    default:
      return DEPARSE_ATOM;
  }
}

static void deparse_quoted(strbuf *s, const char *z) {
  strbuf_puts(s, "'");
  for (const char *p = z; *p; p++) {
    if (*p == '\'') strbuf_puts(s, "''");
    else strbuf_append(s, p, 1);
  }
  strbuf_puts(s, "'");
}

static void deparse_expr(strbuf *s, const sql_expr *e);

/* Writes child c of an operator of precedence iPrec, in parentheses if it
** binds more loosely (or as loosely and bStrict). */
static void deparse_child(strbuf *s, const sql_expr *c, int iPrec, int bStrict) {
  int iChild = c != NULL ? deparse_prec(c) : DEPARSE_ATOM;
  int bParen = iChild < iPrec || (bStrict && iChild == iPrec);
  if (bParen) strbuf_puts(s, "(");
  deparse_expr(s, c);
  if (bParen) strbuf_puts(s, ")");
}

static void deparse_list(strbuf *s, const sql_expr_list *p, int iFrom) {
  for (int i = iFrom; p != NULL && i < p->n; i++) {
    if (i > iFrom) strbuf_puts(s, ", ");
    deparse_expr(s, p->a[i].pExpr);
  }
}

static void deparse_literal(strbuf *s, const sql_expr *e) {
  const char *z = e->zText != NULL ? e->zText : "";
  switch (e->eKind) {
    case SQL_EXPR_STRING: deparse_quoted(s, z); break;
    case SQL_EXPR_DATE: strbuf_puts(s, "DATE "); deparse_quoted(s, z); break;
    case SQL_EXPR_NULL: strbuf_puts(s, "NULL"); break;
    case SQL_EXPR_BOOL: strbuf_puts(s, e->bValue ? "TRUE" : "FALSE"); break;
    case SQL_EXPR_PARAM: strbuf_printf(s, "$%d", e->iParam); break;
    default: strbuf_puts(s, z); break;
  }
}

static void deparse_case(strbuf *s, const sql_expr *e) {
  strbuf_puts(s, "CASE");
  if (e->pLeft != NULL) {
    strbuf_puts(s, " ");
    deparse_expr(s, e->pLeft);
  }
  for (int i = 0; e->pList != NULL && i + 1 < e->pList->n; i += 2) {
    strbuf_puts(s, " WHEN ");
    deparse_expr(s, e->pList->a[i].pExpr);
    strbuf_puts(s, " THEN ");
    deparse_expr(s, e->pList->a[i + 1].pExpr);
  }
  if (e->pRight != NULL) {
    strbuf_puts(s, " ELSE ");
    deparse_expr(s, e->pRight);
  }
  strbuf_puts(s, " END");
}

static void deparse_func(strbuf *s, const sql_expr *e) {
  strbuf_printf(s, "%s(", e->zName != NULL ? e->zName : "?");
  if (e->bStar) strbuf_puts(s, "*");
  if (e->bDistinct) strbuf_puts(s, "DISTINCT ");
  deparse_list(s, e->pList, 0);
  strbuf_puts(s, ")");
}

static void deparse_expr(strbuf *s, const sql_expr *e) {
  char zType[64];
  if (e == NULL) {
    strbuf_puts(s, "?");
    return;
  }
  switch (e->eKind) {
    case SQL_EXPR_COLUMN:
      if (e->zTable != NULL) strbuf_printf(s, "%s.", e->zTable);
      strbuf_puts(s, e->zName != NULL ? e->zName : "?");
      break;
    case SQL_EXPR_STAR:
      if (e->zTable != NULL) strbuf_printf(s, "%s.", e->zTable);
      strbuf_puts(s, "*");
      break;
    case SQL_EXPR_UNARY:
      strbuf_puts(s, sql_op_text(e->eOp));
      if (e->eOp == SQL_OP_NOT) strbuf_puts(s, " ");
      deparse_child(s, e->pLeft, deparse_prec(e), 0);
      break;
    case SQL_EXPR_BINARY: {
      int iPrec = deparse_prec(e);
      /* Comparisons do not associate in PostgreSQL: parenthesise both. */
      deparse_child(s, e->pLeft, iPrec, iPrec == DEPARSE_CMP);
      strbuf_printf(s, " %s ", sql_op_text(e->eOp));
      deparse_child(s, e->pRight, iPrec, iPrec != DEPARSE_AND && iPrec != DEPARSE_OR);
      break;
    }
    case SQL_EXPR_IS_NULL:
      deparse_child(s, e->pLeft, DEPARSE_CMP, 1);
      strbuf_puts(s, e->bNot ? " IS NOT NULL" : " IS NULL");
      break;
    case SQL_EXPR_BETWEEN:
      deparse_child(s, e->pLeft, DEPARSE_CMP, 1);
      strbuf_puts(s, e->bNot ? " NOT BETWEEN " : " BETWEEN ");
      if (e->pList != NULL && e->pList->n == 2) {
        deparse_child(s, e->pList->a[0].pExpr, DEPARSE_CMP, 1);
        strbuf_puts(s, " AND ");
        deparse_child(s, e->pList->a[1].pExpr, DEPARSE_CMP, 1);
      }
      break;
    case SQL_EXPR_IN:
      deparse_child(s, e->pLeft, DEPARSE_CMP, 1);
      strbuf_puts(s, e->bNot ? " NOT IN (" : " IN (");
      deparse_list(s, e->pList, 0);
      strbuf_puts(s, ")");
      break;
    case SQL_EXPR_LIKE:
      deparse_child(s, e->pLeft, DEPARSE_CMP, 1);
      strbuf_puts(s, e->bNot ? " NOT LIKE " : " LIKE ");
      deparse_child(s, e->pRight, DEPARSE_CMP, 1);
      break;
    case SQL_EXPR_CASE:
      deparse_case(s, e);
      break;
    case SQL_EXPR_CAST:
      strbuf_puts(s, "CAST(");
      deparse_expr(s, e->pLeft);
      strbuf_printf(s, " AS %s)", coltype_format(e->castType, zType, sizeof(zType)));
      break;
    case SQL_EXPR_FUNC:
      deparse_func(s, e);
      break;
    default:
      deparse_literal(s, e);
      break;
  }
}

void sql_expr_deparse(strbuf *s, const sql_expr *e) { deparse_expr(s, e); }
