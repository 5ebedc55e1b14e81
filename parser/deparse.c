/*
** parser/deparse.c — a parse tree back to SQL text, for EXPLAIN and error
** messages: what the user wrote, normalised (keywords upper case, names as
** folded and quoted only where they must be, parentheses only where
** precedence needs them), and always SQL that parses back to the same
** tree. Queries (subqueries, windows' clauses) are deparse-select.c's.
**
** Precedence follows PostgreSQL's grammar, loosest first: OR, AND, NOT,
** comparisons (and IS, LIKE, BETWEEN, IN), other operators (||, ~, @>),
** + -, * / %, ^, COLLATE, unary minus. A child is parenthesized when it
** binds more loosely than its parent, or as tightly on the right of a
** left-associative operator (a - (b - c)).
**
** INTERFACE ROUTINES
**   sql_expr_deparse     an expression (parser.h)
**   sql_op_text          an operator's spelling (parser.h)
**   sql__deparse_name, sql__deparse_list, sql__deparse_type (parseInt.h)
*/
#include <string.h>

#include "parser/parse.h"
#include "parseInt.h"

enum {
  DEPARSE_OR = 1,
  DEPARSE_AND,
  DEPARSE_NOT,
  DEPARSE_CMP,
  DEPARSE_OP,
  DEPARSE_ADD,
  DEPARSE_MUL,
  DEPARSE_POW,
  DEPARSE_COLLATE,
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
    case SQL_OP_POW: return "^";
    case SQL_OP_CONCAT: return "||";
    case SQL_OP_REGEX: return "~";
    case SQL_OP_IREGEX: return "~*";
    case SQL_OP_NOT_REGEX: return "!~";
    case SQL_OP_NOT_IREGEX: return "!~*";
    case SQL_OP_IS_DISTINCT: return "IS DISTINCT FROM";
    case SQL_OP_LIKE: return "LIKE";
    case SQL_OP_ILIKE: return "ILIKE";
    case SQL_OP_SIMILAR: return "SIMILAR TO";
    case SQL_OP_IS_TRUE: return "IS TRUE";
    case SQL_OP_IS_FALSE: return "IS FALSE";
    case SQL_OP_IS_UNKNOWN: return "IS UNKNOWN";
    case SQL_OP_NAMED:
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
        case SQL_OP_POW: return DEPARSE_POW;
        case SQL_OP_EQ: case SQL_OP_NE: case SQL_OP_LT: case SQL_OP_LE: case SQL_OP_GT:
        case SQL_OP_GE: case SQL_OP_IS_DISTINCT:
          return e->zSchema != NULL ? DEPARSE_OP : DEPARSE_CMP;
        default: return DEPARSE_OP;
      }
    case SQL_EXPR_UNARY:
      if (e->eOp == SQL_OP_NOT) return DEPARSE_NOT;
      return e->eOp == SQL_OP_NAMED || e->zSchema != NULL ? DEPARSE_OP : DEPARSE_UNARY;
    case SQL_EXPR_IS_NULL:
    case SQL_EXPR_IS_BOOL:
    case SQL_EXPR_BETWEEN:
    case SQL_EXPR_IN:
    case SQL_EXPR_LIKE:
    case SQL_EXPR_ANY:
      return DEPARSE_CMP;
    case SQL_EXPR_COLLATE:
      return DEPARSE_COLLATE;
    default:
      return DEPARSE_ATOM;
  }
}

/* Returns 1 if z must be quoted to read back as the same name: it is not
** a lower-case word, or it is a keyword the grammar reserves. */
static int deparse_needs_quotes(const char *z) {
  int eCode;
  if (!((*z >= 'a' && *z <= 'z') || *z == '_' || (unsigned char)*z >= 0x80)) return 1;
  for (const char *c = z; *c; c++) {
    if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' || *c == '$' ||
          (unsigned char)*c >= 0x80)) {
      return 1;
    }
  }
  eCode = sql__keyword_code(z, (int)strlen(z));
  return eCode != TK_ID && sqlParserFallback(eCode) == 0;
}

void sql__deparse_name(strbuf *s, const char *z) {
  if (z == NULL) {
    strbuf_puts(s, "?");
    return;
  }
  if (!deparse_needs_quotes(z)) {
    strbuf_puts(s, z);
    return;
  }
  strbuf_puts(s, "\"");
  for (const char *c = z; *c; c++) {
    if (*c == '"') strbuf_puts(s, "\"\"");
    else strbuf_append(s, c, 1);
  }
  strbuf_puts(s, "\"");
}

/* Writes [zSchema.]zName. */
static void deparse_qname(strbuf *s, const char *zSchema, const char *zName) {
  if (zSchema != NULL) {
    sql__deparse_name(s, zSchema);
    strbuf_puts(s, ".");
  }
  sql__deparse_name(s, zName);
}

static void deparse_quoted(strbuf *s, const char *z) {
  strbuf_puts(s, "'");
  for (const char *p = z; *p; p++) {
    if (*p == '\'') strbuf_puts(s, "''");
    else strbuf_append(s, p, 1);
  }
  strbuf_puts(s, "'");
}

void sql__deparse_type(strbuf *s, coltype t, int nArrayDim) {
  char zType[64];
  strbuf_puts(s, coltype_format(t, zType, sizeof(zType)));
  for (int i = 0; i < nArrayDim; i++) strbuf_puts(s, "[]");
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

void sql__deparse_list(strbuf *s, const sql_expr_list *p, int iFrom) {
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

/* Returns 1 if operator text z lexes as one generic operator token (the
** grammar's OP), which may stand alone; "=" or "<" do not: as a prefix
** they must be written OPERATOR(=). */
static int deparse_is_op_token(const char *z) {
  int eType, n = sql__token_get(z, &eType);
  return eType == TK_OP && z[n] == 0;
}

/* Writes an operator: its spelling, or OPERATOR(schema.op). */
static void deparse_operator(strbuf *s, const sql_expr *e) {
  const char *zOp = e->eOp == SQL_OP_NAMED ? e->zName : sql_op_text(e->eOp);
  if (zOp == NULL) zOp = "?";
  if (e->zSchema != NULL) {
    strbuf_puts(s, "OPERATOR(");
    sql__deparse_name(s, e->zSchema);
    strbuf_printf(s, ".%s)", zOp);
  } else if (e->eOp == SQL_OP_NAMED && !deparse_is_op_token(zOp)) {
    strbuf_printf(s, "OPERATOR(%s)", zOp);
  } else {
    strbuf_puts(s, zOp);
  }
}

static void deparse_binary(strbuf *s, const sql_expr *e) {
  int iPrec = deparse_prec(e);
  /* Comparisons do not associate in PostgreSQL: parenthesise both. */
  deparse_child(s, e->pLeft, iPrec, iPrec == DEPARSE_CMP);
  if (e->eOp == SQL_OP_IS_DISTINCT) {
    strbuf_puts(s, e->bNot ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ");
  } else {
    strbuf_puts(s, " ");
    deparse_operator(s, e);
    strbuf_puts(s, " ");
  }
  deparse_child(s, e->pRight, iPrec, iPrec != DEPARSE_AND && iPrec != DEPARSE_OR);
}

static void deparse_unary(strbuf *s, const sql_expr *e) {
  const sql_expr *c = e->pLeft;
  deparse_operator(s, e);
  /* A space where the operand could join the operator into another token
  ** ("- -1" is not "--1", a comment; "@ -1" is not "@-", an operator). */
  if (e->eOp == SQL_OP_NOT || e->eOp == SQL_OP_NAMED || e->zSchema != NULL ||
      (c != NULL && ((c->eKind == SQL_EXPR_UNARY && c->eOp != SQL_OP_NOT) ||
                     (c->zText != NULL && (c->zText[0] == '-' || c->zText[0] == '+'))))) {
    strbuf_puts(s, " ");
  }
  deparse_child(s, c, deparse_prec(e), 0);
}

/* Returns 1 if z is the name of a keyword that calls a function without
** parentheses (CURRENT_DATE, USER, ...). */
static int deparse_is_sqlvalue(const char *z) {
  static const char *const az[] = {
    "current_catalog", "current_date", "current_role", "current_schema", "current_time",
    "current_timestamp", "current_user", "localtime", "localtimestamp", "session_user", "user",
  };
  for (size_t i = 0; i < sizeof(az) / sizeof(az[0]); i++) {
    if (strcmp(z, az[i]) == 0) return 1;
  }
  return 0;
}

/* Writes a call in SQL's own syntax (bSqlSyntax); returns 0 if its
** arguments do not fit that syntax (the caller writes a plain call). */
static int deparse_sql_syntax(strbuf *s, const sql_expr *e) {
  const sql_expr_list *a = e->pList;
  int n = a != NULL ? a->n : 0;
  const char *z = e->zName;
#define ARG(i) (a->a[(i)].pExpr)
  if (strcmp(z, "extract") == 0 && n == 2 && ARG(0)->eKind == SQL_EXPR_STRING) {
    strbuf_puts(s, "EXTRACT(");
    if (deparse_needs_quotes(ARG(0)->zText)) deparse_quoted(s, ARG(0)->zText);
    else strbuf_puts(s, ARG(0)->zText);
    strbuf_puts(s, " FROM ");
    deparse_expr(s, ARG(1));
  } else if (strcmp(z, "substring") == 0 && (n == 2 || n == 3)) {
    strbuf_puts(s, "SUBSTRING(");
    deparse_expr(s, ARG(0));
    strbuf_puts(s, " FROM ");
    deparse_expr(s, ARG(1));
    if (n == 3) {
      strbuf_puts(s, " FOR ");
      deparse_expr(s, ARG(2));
    }
  } else if (strcmp(z, "position") == 0 && n == 2) {
    /* POSITION(a IN b) is position(b, a). */
    strbuf_puts(s, "POSITION(");
    deparse_child(s, ARG(1), DEPARSE_OP, 0);
    strbuf_puts(s, " IN ");
    deparse_child(s, ARG(0), DEPARSE_OP, 0);
  } else if (strcmp(z, "overlay") == 0 && (n == 3 || n == 4)) {
    strbuf_puts(s, "OVERLAY(");
    deparse_expr(s, ARG(0));
    strbuf_puts(s, " PLACING ");
    deparse_expr(s, ARG(1));
    strbuf_puts(s, " FROM ");
    deparse_expr(s, ARG(2));
    if (n == 4) {
      strbuf_puts(s, " FOR ");
      deparse_expr(s, ARG(3));
    }
  } else if ((strcmp(z, "btrim") == 0 || strcmp(z, "ltrim") == 0 || strcmp(z, "rtrim") == 0) &&
             (n == 1 || n == 2)) {
    strbuf_printf(s, "TRIM(%s ", z[0] == 'b' ? "BOTH" : z[0] == 'l' ? "LEADING" : "TRAILING");
    if (n == 2) {
      deparse_expr(s, ARG(1));
      strbuf_puts(s, " ");
    }
    strbuf_puts(s, "FROM ");
    deparse_expr(s, ARG(0));
  } else if (n <= 1 && deparse_is_sqlvalue(z)) {
    /* CURRENT_DATE, CURRENT_TIMESTAMP(3), USER and the like. */
    for (const char *c = z; *c; c++) strbuf_printf(s, "%c", *c >= 'a' && *c <= 'z' ? *c - 32 : *c);
    if (n == 1) {
      strbuf_puts(s, "(");
      deparse_expr(s, ARG(0));
      strbuf_puts(s, ")");
    }
    return 1;
  } else {
    return 0;
  }
#undef ARG
  strbuf_puts(s, ")");
  return 1;
}

static void deparse_func(strbuf *s, const sql_expr *e) {
  if (e->bSqlSyntax && e->zName != NULL && deparse_sql_syntax(s, e)) return;
  deparse_qname(s, e->zSchema, e->zName);
  strbuf_puts(s, "(");
  if (e->bStar) strbuf_puts(s, "*");
  if (e->bDistinct) strbuf_puts(s, "DISTINCT ");
  sql__deparse_list(s, e->pList, 0);
  if (e->pOrderBy != NULL && !e->bWithinGroup) {
    strbuf_puts(s, " ORDER BY ");
    sql__deparse_order(s, e->pOrderBy);
  }
  strbuf_puts(s, ")");
  if (e->pOrderBy != NULL && e->bWithinGroup) {
    strbuf_puts(s, " WITHIN GROUP (ORDER BY ");
    sql__deparse_order(s, e->pOrderBy);
    strbuf_puts(s, ")");
  }
  if (e->pFilter != NULL) {
    strbuf_puts(s, " FILTER (WHERE ");
    deparse_expr(s, e->pFilter);
    strbuf_puts(s, ")");
  }
  if (e->pWin != NULL) {
    strbuf_puts(s, " OVER ");
    sql__deparse_window(s, e->pWin);
  }
}

/* Writes (query) for the query that expression e holds. */
static void deparse_query(strbuf *s, const sql_select *pSelect) {
  strbuf_puts(s, "(");
  sql_select_deparse(s, pSelect);
  strbuf_puts(s, ")");
}

static void deparse_like(strbuf *s, const sql_expr *e) {
  deparse_child(s, e->pLeft, DEPARSE_CMP, 1);
  strbuf_printf(s, " %s%s ", e->bNot ? "NOT " : "",
                sql_op_text(e->eOp == SQL_OP_NONE ? SQL_OP_LIKE : e->eOp));
  deparse_child(s, e->pRight, DEPARSE_CMP, 1);
  if (e->pList != NULL && e->pList->n == 1) {
    strbuf_puts(s, " ESCAPE ");
    deparse_child(s, e->pList->a[0].pExpr, DEPARSE_CMP, 1);
  }
}

static void deparse_any(strbuf *s, const sql_expr *e) {
  deparse_child(s, e->pLeft, DEPARSE_CMP, 1);
  strbuf_puts(s, " ");
  if (e->bNot) strbuf_puts(s, "NOT ");
  deparse_operator(s, e);
  strbuf_puts(s, e->bAll ? " ALL " : " ANY ");
  if (e->bSelect) {
    deparse_query(s, e->pSelect);
  } else {
    strbuf_puts(s, "(");
    deparse_expr(s, e->pRight);
    strbuf_puts(s, ")");
  }
}

/* Writes a list of grouping items, rows and arrays: "(a, b)". */
static void deparse_group(strbuf *s, const char *zWhat, const sql_expr *e) {
  strbuf_printf(s, "%s(", zWhat);
  sql__deparse_list(s, e->pList, 0);
  strbuf_puts(s, ")");
}

static void deparse_subscript(strbuf *s, const sql_expr *e) {
  const sql_expr *b = e->pLeft;
  int bParen = b != NULL && b->eKind != SQL_EXPR_COLUMN && b->eKind != SQL_EXPR_PARAM &&
               b->eKind != SQL_EXPR_SUBSCRIPT;
  if (bParen) strbuf_puts(s, "(");
  deparse_expr(s, b);
  if (bParen) strbuf_puts(s, ")");
  strbuf_puts(s, "[");
  if (e->pList != NULL && e->pList->a[0].pExpr != NULL) deparse_expr(s, e->pList->a[0].pExpr);
  if (e->bSlice) {
    strbuf_puts(s, ":");
    if (e->pList != NULL && e->pList->n > 1 && e->pList->a[1].pExpr != NULL) {
      deparse_expr(s, e->pList->a[1].pExpr);
    }
  }
  strbuf_puts(s, "]");
}

static void deparse_expr(strbuf *s, const sql_expr *e) {
  if (e == NULL) {
    strbuf_puts(s, "?");
    return;
  }
  switch (e->eKind) {
    case SQL_EXPR_COLUMN:
    case SQL_EXPR_STAR:
      if (e->zTable != NULL) {
        deparse_qname(s, e->zSchema, e->zTable);
        strbuf_puts(s, ".");
      }
      if (e->eKind == SQL_EXPR_STAR) strbuf_puts(s, "*");
      else sql__deparse_name(s, e->zName);
      break;
    case SQL_EXPR_UNARY: deparse_unary(s, e); break;
    case SQL_EXPR_BINARY: deparse_binary(s, e); break;
    case SQL_EXPR_IS_NULL:
      deparse_child(s, e->pLeft, DEPARSE_CMP, 1);
      strbuf_puts(s, e->bNot ? " IS NOT NULL" : " IS NULL");
      break;
    case SQL_EXPR_IS_BOOL:
      deparse_child(s, e->pLeft, DEPARSE_CMP, 1);
      strbuf_printf(s, " IS %s%s", e->bNot ? "NOT " : "", sql_op_text(e->eOp) + 3);
      break;
    case SQL_EXPR_BETWEEN:
      deparse_child(s, e->pLeft, DEPARSE_CMP, 1);
      strbuf_puts(s, e->bNot ? " NOT BETWEEN " : " BETWEEN ");
      if (e->bSymmetric) strbuf_puts(s, "SYMMETRIC ");
      if (e->pList != NULL && e->pList->n == 2) {
        deparse_child(s, e->pList->a[0].pExpr, DEPARSE_CMP, 1);
        strbuf_puts(s, " AND ");
        deparse_child(s, e->pList->a[1].pExpr, DEPARSE_CMP, 1);
      }
      break;
    case SQL_EXPR_IN:
      deparse_child(s, e->pLeft, DEPARSE_CMP, 1);
      strbuf_puts(s, e->bNot ? " NOT IN " : " IN ");
      if (e->bSelect) {
        deparse_query(s, e->pSelect);
      } else {
        strbuf_puts(s, "(");
        sql__deparse_list(s, e->pList, 0);
        strbuf_puts(s, ")");
      }
      break;
    case SQL_EXPR_LIKE: deparse_like(s, e); break;
    case SQL_EXPR_ANY: deparse_any(s, e); break;
    case SQL_EXPR_CASE: deparse_case(s, e); break;
    case SQL_EXPR_CAST:
      strbuf_puts(s, "CAST(");
      deparse_expr(s, e->pLeft);
      strbuf_puts(s, " AS ");
      sql__deparse_type(s, e->castType, e->nCastDim);
      strbuf_puts(s, ")");
      break;
    case SQL_EXPR_FUNC: deparse_func(s, e); break;
    case SQL_EXPR_SUBQUERY: deparse_query(s, e->pSelect); break;
    case SQL_EXPR_EXISTS:
      strbuf_puts(s, "EXISTS ");
      deparse_query(s, e->pSelect);
      break;
    case SQL_EXPR_ARRAY:
      if (e->bSelect) {
        strbuf_puts(s, "ARRAY");
        deparse_query(s, e->pSelect);
      } else {
        strbuf_puts(s, "ARRAY[");
        sql__deparse_list(s, e->pList, 0);
        strbuf_puts(s, "]");
      }
      break;
    case SQL_EXPR_SUBSCRIPT: deparse_subscript(s, e); break;
    case SQL_EXPR_COLLATE:
      deparse_child(s, e->pLeft, DEPARSE_COLLATE, 0);
      strbuf_puts(s, " COLLATE ");
      if (e->zSchema != NULL && strcmp(e->zName, "default") == 0) {
        sql__deparse_name(s, e->zSchema);
        strbuf_puts(s, ".\"default\"");
      } else {
        deparse_qname(s, e->zSchema, e->zName);
      }
      break;
    case SQL_EXPR_ROW: deparse_group(s, "", e); break;
    case SQL_EXPR_ROLLUP: deparse_group(s, "ROLLUP ", e); break;
    case SQL_EXPR_CUBE: deparse_group(s, "CUBE ", e); break;
    case SQL_EXPR_GROUPING_SETS: deparse_group(s, "GROUPING SETS ", e); break;
    case SQL_EXPR_INTEGER:
    case SQL_EXPR_DECIMAL:
    case SQL_EXPR_STRING:
    case SQL_EXPR_DATE:
    case SQL_EXPR_NULL:
    case SQL_EXPR_BOOL:
    case SQL_EXPR_PARAM:
      deparse_literal(s, e);
      break;
  }
}

void sql_expr_deparse(strbuf *s, const sql_expr *e) { deparse_expr(s, e); }
