/*
** codegen/expr.c — one bound SQL expression as C statements: each node
** becomes a temporary (t<N>) and, where it can be NULL, a NULL flag, so
** the emitted code reads top to bottom like the expression's evaluation.
**
** Semantics are PostgreSQL's: integer results are checked against their
** type's range (22003), division by zero is 22012 for every numeric type,
** DECIMALs are scaled integers rescaled where their scales meet, AND / OR
** / NOT follow three-valued logic, CASE evaluates only the branch it takes,
** and nothing that is NULL raises an error. Every literal is a parameter
** (a member of struct q_args), never text in the source.
**
** Strings never reach a kernel as text: a predicate on a dictionary column
** was resolved by the planner into a code set (cg__cond tests it), as was
** any boolean subtree of one dictionary column (plan_exprset: a
** comparison inside a CASE or an OR across tables), and a string column
** in an output is its code, decoded by the runtime. What is left (a
** string compared with another table's string) is refused with 0A000.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/value.h"
#include "codegenInt.h"

void cg__line(cgx *x, const char *zFmt, ...) {
  va_list ap;
  strbuf_repeat(x->s, ' ', (size_t)x->nIndent);
  va_start(ap, zFmt);
  strbuf_vprintf(x->s, zFmt, ap);
  va_end(ap);
  strbuf_puts(x->s, "\n");
}

static int cgx_refuse(cgx *x, const sql_expr *e, const char *zWhat) {
  sql_error_set(x->c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e != NULL ? e->iOffset : -1,
                "%s is not supported in starq's kernels yet", zWhat);
  return -1;
}

static int cgx_is_int(coltype t) {
  return t.eId == COLTYPE_SMALLINT || t.eId == COLTYPE_INTEGER || t.eId == COLTYPE_BIGINT;
}

/* A value that holds a SMALLINT or INTEGER: within 32 bits (columns are
** int registers, literals parsed as their type, results range-checked by
** cgx_int_result). */
static int cgx_is_int32(const cg_val *v) {
  return !v->bFloat && v->nScale == 0 &&
         (v->type.eId == COLTYPE_SMALLINT || v->type.eId == COLTYPE_INTEGER);
}

static void cgx_val_init(cg_val *v, coltype t) {
  memset(v, 0, sizeof(*v));
  v->type = t;
  v->bFloat = t.eId == COLTYPE_DOUBLE;
  v->nScale = t.eId == COLTYPE_DECIMAL ? t.nScale : 0;
  snprintf(v->zNull, sizeof(v->zNull), "0");
}

static int cgx_nullable(const cg_val *v) { return strcmp(v->zNull, "0") != 0; }

/* A new temporary's name. */
static void cgx_temp(cgx *x, char *z, size_t n) { snprintf(z, n, "t%d", (*x->pnTemp)++); }

/* "a || b" of two NULL flags, simplified. */
static void cgx_null_or(const cg_val *a, const cg_val *b, char *z, size_t n) {
  if (!cgx_nullable(a)) snprintf(z, n, "%s", b->zNull);
  else if (!cgx_nullable(b)) snprintf(z, n, "%s", a->zNull);
  else snprintf(z, n, "(%s || %s)", a->zNull, b->zNull);
}

/* Stores v's NULL flag in a temporary (so later uses stay short). */
static void cgx_pin_null(cgx *x, cg_val *v) {
  char zT[32];
  if (!cgx_nullable(v) || strncmp(v->zNull, "t", 1) == 0) return;
  cgx_temp(x, zT, sizeof(zT));
  cg__line(x, "int %s = %s;", zT, v->zNull);
  snprintf(v->zNull, sizeof(v->zNull), "%s", zT);
}

/* ---- literals ------------------------------------------------------------------- */

/* The stored value of literal text z as type t (integer-like types): the
** loader's parser, so a literal means exactly what the same text in a
** loaded file means (DECIMAL scaled by 10^s, DATE as yyyymmdd). */
static int cgx_literal_value(coltype t, const char *z, int64_t *pv) {
  union {
    int16_t i16;
    int32_t i32;
    int64_t i64;
  } u;
  char zWhy[160];
  if (value_parse(t, z, strlen(z), &u, zWhy, sizeof(zWhy)) != 0) return -1;
  switch (coltype_width(t)) {
    case 2: *pv = u.i16; break;
    case 4: *pv = u.i32; break;
    default: *pv = u.i64; break;
  }
  return 0;
}

/* A parameter field (a long long) holding v, read as zCast: "(int)" for a
** literal whose type has at most 32 bits (it parsed as that type, so it
** fits), compared with a column of 32 bits or fewer in one 32-bit
** instruction, not a sign extension and a 64-bit pair (H100 SASS of
** Q1.1's SCAN: 7 instructions an item for BETWEEN); "(unsigned)" for a
** bound of dictionary codes, unsigned 32-bit registers; else "". */
static int cgx_param(cgx *x, const char *zCast, int64_t v, cg_role eRole, const void *pOwner,
                     cg_val *pv) {
  char zName[32];
  int i;
  snprintf(zName, sizeof(zName), "p%d", x->c->pProg->nField);
  if ((i = cg__field(x->c, CG_FIELD_PARAM_INT, zName)) < 0) return -1;
  x->c->pProg->aField[i].iValue = v;
  x->c->pProg->aField[i].eRole = eRole;
  x->c->pProg->aField[i].pOwner = pOwner;
  snprintf(pv->z, sizeof(pv->z), "%sa.%s", zCast, x->c->pProg->aField[i].zName);
  return 0;
}

/* The cast that reads a literal of type t from its parameter field. */
static const char *cgx_param_cast(coltype t) {
  int b32 = t.eId == COLTYPE_DATE || t.eId == COLTYPE_SMALLINT || t.eId == COLTYPE_INTEGER;
  return b32 ? "(int)" : "";
}

static int cgx_literal(cgx *x, const sql_expr *e, cg_val *pv) {
  coltype t = e->b.type;
  const char *z = e->zText != NULL ? e->zText : "";
  cgx_val_init(pv, t);
  switch (e->eKind) {
    case SQL_EXPR_NULL:
      snprintf(pv->z, sizeof(pv->z), "0");
      snprintf(pv->zNull, sizeof(pv->zNull), "1");
      return 0;
    case SQL_EXPR_BOOL:
      snprintf(pv->z, sizeof(pv->z), "%d", e->bValue ? 1 : 0);
      return 0;
    case SQL_EXPR_DATE: {
      int64_t v;
      coltype td = {COLTYPE_DATE, 0, 0, 0};
      if (cgx_literal_value(td, z, &v) != 0) return cgx_refuse(x, e, "this date literal");
      return cgx_param(x, cgx_param_cast(td), v, CG_ROLE_LITERAL, e, pv);
    }
    default:
      break;
  }
  if (t.eId == COLTYPE_DOUBLE) {
    char zName[32];
    int i;
    snprintf(zName, sizeof(zName), "p%d", x->c->pProg->nField);
    if ((i = cg__field(x->c, CG_FIELD_PARAM_FLOAT, zName)) < 0) return -1;
    x->c->pProg->aField[i].rValue = strtod(z, NULL);   /* also "NaN", "Infinity" */
    x->c->pProg->aField[i].eRole = CG_ROLE_LITERAL;
    x->c->pProg->aField[i].pOwner = e;
    snprintf(pv->z, sizeof(pv->z), "a.%s", x->c->pProg->aField[i].zName);
    return 0;
  }
  if (e->eKind == SQL_EXPR_STRING) {
    /* A value of a string output: its index in the program's sorted
    ** string table, a parameter as any literal. */
    int i = plan_str_index(x->c->p, z);
    if (i < 0) return cgx_refuse(x, e, "a string value outside a comparison or an output");
    return cgx_param(x, "", i, CG_ROLE_LITERAL, e, pv);
  }
  if (cgx_is_int(t) || t.eId == COLTYPE_DECIMAL) {
    int64_t v;
    if (cgx_literal_value(t, z, &v) != 0) {
      sql_error_set(x->c->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, e->iOffset, "value out of range");
      return -1;
    }
    return cgx_param(x, cgx_param_cast(t), v, CG_ROLE_LITERAL, e, pv);
  }
  return cgx_refuse(x, e, "this literal");
}

/* ---- conversions --------------------------------------------------------------- */

void cg__as(cgx *x, cg_val *v, coltype t) {
  char zT[32];
  int nScale = t.eId == COLTYPE_DECIMAL ? t.nScale : 0;
  if (t.eId == COLTYPE_DOUBLE) {
    if (v->bFloat) return;
    cgx_temp(x, zT, sizeof(zT));
    if (v->nScale > 0) cg__line(x, "double %s = (double)%s / 1e%d;", zT, v->z, v->nScale);
    else cg__line(x, "double %s = (double)%s;", zT, v->z);
    snprintf(v->z, sizeof(v->z), "%s", zT);
    v->bFloat = 1;
    v->nScale = 0;
  } else if (!v->bFloat && nScale > v->nScale) {
    cgx_temp(x, zT, sizeof(zT));
    cg__line(x, "long long %s = %s ? 0 : sq_scale(%s, %d, a.err);", zT, v->zNull, v->z,
             nScale - v->nScale);
    snprintf(v->z, sizeof(v->z), "%s", zT);
    v->nScale = nScale;
  }
  v->type = t;
}

/* The range a result of integer type t must stay in, or 0 for BIGINT. */
static int cgx_int_range(coltype t, const char **pzLo, const char **pzHi) {
  if (t.eId == COLTYPE_SMALLINT) {
    *pzLo = "-32768";
    *pzHi = "32767";
    return 1;
  }
  if (t.eId == COLTYPE_INTEGER) {
    *pzLo = "INT32_MIN";
    *pzHi = "INT32_MAX";
    return 1;
  }
  return 0;
}

/* Emits "long long tN = nullflag ? 0 : expr;" with the range check of
** type t, and makes *pv that temporary. */
static void cgx_int_result(cgx *x, cg_val *pv, const char *zExpr) {
  const char *zLo, *zHi;
  char zT[32];
  cgx_temp(x, zT, sizeof(zT));
  if (cgx_int_range(pv->type, &zLo, &zHi)) {
    cg__line(x, "long long %s = %s ? 0 : sq_range(%s, %s, %s, a.err);", zT, pv->zNull, zExpr,
             zLo, zHi);
  } else {
    cg__line(x, "long long %s = %s ? 0 : %s;", zT, pv->zNull, zExpr);
  }
  snprintf(pv->z, sizeof(pv->z), "%s", zT);
}

/* ---- operators ------------------------------------------------------------------ */

static int cgx_arith(cgx *x, const sql_expr *e, cg_val *pv) {
  cg_val a, b;
  char zT[32], zOp[256];
  coltype rt = e->b.type;
  if (cg__expr(x, e->pLeft, &a) != 0 || cg__expr(x, e->pRight, &b) != 0) return -1;
  cgx_val_init(pv, rt);
  cgx_null_or(&a, &b, pv->zNull, sizeof(pv->zNull));
  cgx_pin_null(x, pv);

  if (rt.eId == COLTYPE_DATE) {                  /* date +- integer */
    const cg_val *d = a.type.eId == COLTYPE_DATE ? &a : &b, *n = d == &a ? &b : &a;
    snprintf(zOp, sizeof(zOp), "sq_ymd(sq_days(%s) %s %s)", d->z,
             e->eOp == SQL_OP_SUB ? "-" : "+", n->z);
    cgx_int_result(x, pv, zOp);
    return 0;
  }
  if (a.type.eId == COLTYPE_DATE && b.type.eId == COLTYPE_DATE) {   /* date - date */
    snprintf(zOp, sizeof(zOp), "sq_days(%s) - sq_days(%s)", a.z, b.z);
    cgx_int_result(x, pv, zOp);
    return 0;
  }
  if (rt.eId == COLTYPE_DOUBLE) {
    cg__as(x, &a, rt);
    cg__as(x, &b, rt);
    cgx_temp(x, zT, sizeof(zT));
    if (e->eOp == SQL_OP_DIV) {
      cg__line(x, "double %s = %s ? 0.0 : sq_fdiv(%s, %s, a.err);", zT, pv->zNull, a.z, b.z);
    } else {
      const char *zC = e->eOp == SQL_OP_ADD ? "+" : e->eOp == SQL_OP_SUB ? "-" : "*";
      cg__line(x, "double %s = %s %s %s;", zT, a.z, zC, b.z);
    }
    snprintf(pv->z, sizeof(pv->z), "%s", zT);
    return 0;
  }
  if (a.bFloat || b.bFloat) return cgx_refuse(x, e, "this mix of numeric types");
  if (cgx_is_int32(&a) && cgx_is_int32(&b) &&
      (e->eOp == SQL_OP_MUL || e->eOp == SQL_OP_ADD || e->eOp == SQL_OP_SUB)) {
    /* Two values of at most 32 bits: the exact result fits 64 bits, so
    ** only the result type's range is checked (cgx_int_result). The 128-bit
    ** multiply of sq_mul was ~30 instructions an item in Q1.1's SCAN. */
    const char *zC = e->eOp == SQL_OP_MUL ? "*" : e->eOp == SQL_OP_ADD ? "+" : "-";
    snprintf(zOp, sizeof(zOp), "(long long)%s %s (long long)%s", a.z, zC, b.z);
    cgx_int_result(x, pv, zOp);
    return 0;
  }
  switch (e->eOp) {
    case SQL_OP_MUL:
      snprintf(zOp, sizeof(zOp), "sq_mul(%s, %s, a.err)", a.z, b.z);
      break;
    case SQL_OP_DIV:
      if (rt.eId == COLTYPE_DECIMAL) {
        snprintf(zOp, sizeof(zOp), "sq_ddiv(%s, %s, %d, a.err)", a.z, b.z,
                 pv->nScale - a.nScale + b.nScale);
      } else {
        snprintf(zOp, sizeof(zOp), "sq_div(%s, %s, a.err)", a.z, b.z);
      }
      break;
    default:
      cg__as(x, &a, rt);
      cg__as(x, &b, rt);
      snprintf(zOp, sizeof(zOp), "%s(%s, %s, a.err)",
               e->eOp == SQL_OP_ADD ? "sq_add" : e->eOp == SQL_OP_SUB ? "sq_sub" : "sq_mod", a.z,
               b.z);
      break;
  }
  cgx_int_result(x, pv, zOp);
  return 0;
}

/* Rescales v to nScale in 128 bits, for a comparison only. A checked
** 64-bit rescale raised 22003 where the values are merely compared (a
** BIGINT near its limit against 0.5); 128 bits hold any 18-digit value
** times 10^18, and a comparison never fails in PostgreSQL. */
static void cgx_widen(cgx *x, cg_val *v, int nScale) {
  char zT[32];
  cgx_temp(x, zT, sizeof(zT));
  cg__line(x, "__int128 %s = sq_widen(%s, %d);", zT, v->z, nScale - v->nScale);
  snprintf(v->z, sizeof(v->z), "%s", zT);
  v->nScale = nScale;
}

/* Brings a and b to one representation for comparing. */
static int cgx_unify(cgx *x, const sql_expr *e, cg_val *a, cg_val *b) {
  if (coltype_is_string(a->type) || coltype_is_string(b->type)) {
    const sql_expr *l = e->pLeft, *r = e->pRight;
    if (l != NULL && r != NULL && l->eKind == SQL_EXPR_COLUMN && r->eKind == SQL_EXPR_COLUMN &&
        l->b.iSource == r->b.iSource && l->b.iColumn == r->b.iColumn) {
      return 0;                                  /* one dictionary: codes compare */
    }
    return cgx_refuse(x, e, "comparing strings of two columns or expressions");
  }
  if (a->bFloat || b->bFloat) {
    coltype d = {COLTYPE_DOUBLE, 0, 0, 0};
    cg__as(x, a, d);
    cg__as(x, b, d);
  } else if (a->nScale != b->nScale) {
    int nScale = a->nScale > b->nScale ? a->nScale : b->nScale;
    cgx_widen(x, a, nScale);
    cgx_widen(x, b, nScale);
  }
  return 0;
}

static const char *cgx_cmp_op(sql_op e) {
  switch (e) {
    case SQL_OP_EQ: return "==";
    case SQL_OP_NE: return "!=";
    case SQL_OP_LT: return "<";
    case SQL_OP_LE: return "<=";
    case SQL_OP_GT: return ">";
    default: return ">=";
  }
}

/* *pv = a op b, NULL if either is. */
static void cgx_compare_vals(cgx *x, sql_op eOp, const cg_val *a, const cg_val *b, cg_val *pv) {
  coltype tb = {COLTYPE_BOOLEAN, 0, 0, 0};
  char zT[32];
  cgx_val_init(pv, tb);
  cgx_null_or(a, b, pv->zNull, sizeof(pv->zNull));
  cgx_temp(x, zT, sizeof(zT));
  cg__line(x, "int %s = %s %s %s;", zT, a->z, cgx_cmp_op(eOp), b->z);
  snprintf(pv->z, sizeof(pv->z), "%s", zT);
}

/* Three-valued AND (bAnd) or OR of a and b into *pv. */
static void cgx_logic(cgx *x, int bAnd, const cg_val *a, const cg_val *b, cg_val *pv) {
  coltype tb = {COLTYPE_BOOLEAN, 0, 0, 0};
  char zT[32], zN[32];
  cgx_val_init(pv, tb);
  cgx_temp(x, zT, sizeof(zT));
  if (!cgx_nullable(a) && !cgx_nullable(b)) {
    cg__line(x, "int %s = %s %s %s;", zT, a->z, bAnd ? "&&" : "||", b->z);
    snprintf(pv->z, sizeof(pv->z), "%s", zT);
    return;
  }
  /* The decisive value (FALSE for AND, TRUE for OR) on either side wins;
  ** else NULL on either side makes NULL. */
  cgx_temp(x, zN, sizeof(zN));
  if (bAnd) {
    cg__line(x, "int %s = !(%s) && %s && !(%s) && %s;", zT, a->zNull, a->z, b->zNull, b->z);
    cg__line(x, "int %s = !%s && !((!(%s) && !%s) || (!(%s) && !%s));", zN, zT, a->zNull, a->z,
             b->zNull, b->z);
  } else {
    cg__line(x, "int %s = (!(%s) && %s) || (!(%s) && %s);", zT, a->zNull, a->z, b->zNull, b->z);
    cg__line(x, "int %s = !%s && ((%s) || (%s));", zN, zT, a->zNull, b->zNull);
  }
  snprintf(pv->z, sizeof(pv->z), "%s", zT);
  snprintf(pv->zNull, sizeof(pv->zNull), "%s", zN);
}

static void cgx_not(cgx *x, const cg_val *a, cg_val *pv) {
  char zT[32];
  *pv = *a;
  cgx_temp(x, zT, sizeof(zT));
  cg__line(x, "int %s = !%s;", zT, a->z);
  snprintf(pv->z, sizeof(pv->z), "%s", zT);
}

static int cgx_binary(cgx *x, const sql_expr *e, cg_val *pv) {
  cg_val a, b;
  switch (e->eOp) {
    case SQL_OP_ADD: case SQL_OP_SUB: case SQL_OP_MUL: case SQL_OP_DIV: case SQL_OP_MOD:
      return cgx_arith(x, e, pv);
    case SQL_OP_AND:
    case SQL_OP_OR:
      if (cg__expr(x, e->pLeft, &a) != 0 || cg__expr(x, e->pRight, &b) != 0) return -1;
      cgx_logic(x, e->eOp == SQL_OP_AND, &a, &b, pv);
      return 0;
    case SQL_OP_CONCAT:                  /* one the planner has no map for */
      return cgx_refuse(x, e, "|| of more than small-domain columns, or outside the select list, "
                              "GROUP BY and ORDER BY,");
    default:
      if (cg__expr(x, e->pLeft, &a) != 0 || cg__expr(x, e->pRight, &b) != 0) return -1;
      if (cgx_unify(x, e, &a, &b) != 0) return -1;
      cgx_compare_vals(x, e->eOp, &a, &b, pv);
      return 0;
  }
}

static int cgx_between(cgx *x, const sql_expr *e, cg_val *pv) {
  cg_val v, lo, hi, c1, c2, r;
  sql_expr fake;
  if (cg__expr(x, e->pLeft, &v) != 0 || cg__expr(x, e->pList->a[0].pExpr, &lo) != 0 ||
      cg__expr(x, e->pList->a[1].pExpr, &hi) != 0) {
    return -1;
  }
  memset(&fake, 0, sizeof(fake));
  fake.pLeft = e->pLeft;
  fake.pRight = e->pList->a[0].pExpr;
  fake.iOffset = e->iOffset;
  {
    cg_val v2 = v;
    if (cgx_unify(x, &fake, &v, &lo) != 0) return -1;
    fake.pRight = e->pList->a[1].pExpr;
    if (cgx_unify(x, &fake, &v2, &hi) != 0) return -1;
    cgx_compare_vals(x, SQL_OP_GE, &v, &lo, &c1);
    cgx_compare_vals(x, SQL_OP_LE, &v2, &hi, &c2);
  }
  cgx_logic(x, 1, &c1, &c2, &r);
  if (e->bNot) cgx_not(x, &r, pv);
  else *pv = r;
  return 0;
}

static int cgx_i64_cmp(const void *pa, const void *pb) {
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return (a > b) - (a < b);
}

/* Digits after the point of decimal literal text z (no exponent), or -1. */
static int cgx_frac_digits(const char *z) {
  const char *zDot = strchr(z, '.');
  if (strpbrk(z, "eE") != NULL) return -1;
  return zDot == NULL ? 0 : (int)strlen(zDot + 1);
}

/* Whether IN list e can be one sorted array of constants at its left
** side's representation (integers, DECIMAL scaled, DATE yyyymmdd): a
** literal that cannot equal any left value (out of the type's range, more
** decimals than its scale) is left out. Sets *paV (codegen's arena), *pn
** and *pbNull (a NULL in the list). Returns 1, 0 (the OR of comparisons
** then), or -1 (53200). */
static int cgx_inlist_values(cgx *x, const sql_expr *e, int64_t **paV, int *pn, int *pbNull) {
  coltype t = e->pLeft->b.type;
  int n = 0, nScale = t.eId == COLTYPE_DECIMAL ? t.nScale : 0;
  int64_t *aV;
  if (!cgx_is_int(t) && t.eId != COLTYPE_DECIMAL && t.eId != COLTYPE_DATE) return 0;
  for (int i = 0; i < e->pList->n; i++) {
    const sql_expr *w = e->pList->a[i].pExpr;
    if (w->eKind == SQL_EXPR_NULL || (w->eKind == SQL_EXPR_INTEGER && t.eId != COLTYPE_DATE) ||
        (w->eKind == SQL_EXPR_DATE && t.eId == COLTYPE_DATE) ||
        (w->eKind == SQL_EXPR_DECIMAL && t.eId == COLTYPE_DECIMAL && cgx_frac_digits(w->zText) >= 0)) {
      continue;
    }
    return 0;
  }
  aV = arena_alloc(x->c->pArena, sizeof(int64_t) * (size_t)(e->pList->n + 1));
  if (aV == NULL) return -1;
  *pbNull = 0;
  for (int i = 0; i < e->pList->n; i++) {
    const sql_expr *w = e->pList->a[i].pExpr;
    if (w->eKind == SQL_EXPR_NULL) {
      *pbNull = 1;
    } else if (w->eKind == SQL_EXPR_DECIMAL && cgx_frac_digits(w->zText) > nScale) {
      continue;                          /* more decimals than any left value has */
    } else if (cgx_literal_value(t, w->zText != NULL ? w->zText : "", &aV[n]) == 0) {
      n++;                               /* else out of the left type's range */
    }
  }
  qsort(aV, (size_t)n, sizeof(int64_t), cgx_i64_cmp);
  *paV = aV;
  *pn = n;
  return 1;
}

/* x IN (constants): a binary search of the sorted constants, a kernel
** argument; TRUE if found, else NULL if x or a constant is NULL, else
** FALSE. */
static int cgx_in_sorted(cgx *x, const sql_expr *e, const cg_val *v, int64_t *aV, int nV,
                         int bNull, cg_val *pv) {
  coltype tb = {COLTYPE_BOOLEAN, 0, 0, 0};
  char zName[32], zT[32], zN[32];
  cg_val cnt;
  int i;
  snprintf(zName, sizeof(zName), "in%d", x->c->pProg->nField);
  if ((i = cg__field(x->c, CG_FIELD_INLIST, zName)) < 0) return -1;
  x->c->pProg->aField[i].aBit = (const uint64_t *)aV;
  x->c->pProg->aField[i].nBitWord = (uint64_t)(nV > 0 ? nV : 1);
  x->c->pProg->aField[i].pOwner = e;
  if (cgx_param(x, "", nV, CG_ROLE_INLIST_N, e, &cnt) != 0) return -1;
  cgx_val_init(pv, tb);
  cgx_temp(x, zT, sizeof(zT));
  cg__line(x, "int %s = !(%s) && sq_in_sorted(a.%s, %s, %s);", zT, v->zNull, zName, cnt.z, v->z);
  snprintf(pv->z, sizeof(pv->z), "%s", zT);
  if (bNull) {                           /* not found is NULL */
    cgx_temp(x, zN, sizeof(zN));
    cg__line(x, "int %s = !%s;", zN, zT);
    snprintf(pv->zNull, sizeof(pv->zNull), "%s", zN);
  } else {
    snprintf(pv->zNull, sizeof(pv->zNull), "%s", v->zNull);
  }
  return 0;
}

static int cgx_in(cgx *x, const sql_expr *e, cg_val *pv) {
  cg_val v, acc;
  sql_expr fake;
  int bFirst = 1, nV, bNull, rc;
  int64_t *aV;
  if (cg__expr(x, e->pLeft, &v) != 0) return -1;
  if (!v.bFloat && (rc = cgx_inlist_values(x, e, &aV, &nV, &bNull)) != 0) {
    if (rc < 0) return cg__oom(x->c);
    if (cgx_in_sorted(x, e, &v, aV, nV, bNull, &acc) != 0) return -1;
    if (e->bNot) cgx_not(x, &acc, pv);
    else *pv = acc;
    return 0;
  }
  memset(&fake, 0, sizeof(fake));
  fake.pLeft = e->pLeft;
  fake.iOffset = e->iOffset;
  for (int i = 0; i < e->pList->n; i++) {
    cg_val w, vi = v, c;
    if (cg__expr(x, e->pList->a[i].pExpr, &w) != 0) return -1;
    fake.pRight = e->pList->a[i].pExpr;
    if (cgx_unify(x, &fake, &vi, &w) != 0) return -1;
    cgx_compare_vals(x, SQL_OP_EQ, &vi, &w, &c);
    if (bFirst) acc = c;
    else {
      cg_val o;
      cgx_logic(x, 0, &acc, &c, &o);
      acc = o;
    }
    bFirst = 0;
  }
  if (e->bNot) cgx_not(x, &acc, pv);
  else *pv = acc;
  return 0;
}

/* CASE: only the branch taken is evaluated (its errors only then). */
static int cgx_case(cgx *x, const sql_expr *e, cg_val *pv) {
  coltype rt = e->b.type;
  char zV[32], zN[32];
  int nWhen = e->pList != NULL ? e->pList->n / 2 : 0, nOpen = 0;
  cg_val base;
  if (coltype_is_string(rt) && !plan_strlist_expr(e) && plan_dictcase_column(e) == NULL) {
    return cgx_refuse(x, e, "this CASE of strings");
  }
  cgx_val_init(pv, rt);
  if (e->pLeft != NULL && cg__expr(x, e->pLeft, &base) != 0) return -1;
  cgx_temp(x, zV, sizeof(zV));
  cgx_temp(x, zN, sizeof(zN));
  cg__line(x, "%s %s = 0;", pv->bFloat ? "double" : "long long", zV);
  cg__line(x, "int %s = 1;", zN);
  for (int i = 0; i <= nWhen; i++) {
    cg_val c, r;
    if (i < nWhen) {
      const sql_expr *w = e->pList->a[2 * i].pExpr;
      if (e->pLeft != NULL) {
        cg_val b2 = base, wv;
        sql_expr fake;
        memset(&fake, 0, sizeof(fake));
        fake.pLeft = e->pLeft;
        fake.pRight = (sql_expr *)w;
        fake.iOffset = w->iOffset;
        if (cg__expr(x, w, &wv) != 0 || cgx_unify(x, &fake, &b2, &wv) != 0) return -1;
        cgx_compare_vals(x, SQL_OP_EQ, &b2, &wv, &c);
      } else if (cg__expr(x, w, &c) != 0) {
        return -1;
      }
      cg__line(x, "if (!(%s) && %s) {", c.zNull, c.z);
      x->nIndent += 2;
      if (cg__expr(x, e->pList->a[2 * i + 1].pExpr, &r) != 0) return -1;
    } else {
      if (e->pRight == NULL) break;
      if (cg__expr(x, e->pRight, &r) != 0) return -1;
    }
    cg__as(x, &r, rt);
    cg__line(x, "%s = %s;", zV, r.z);
    cg__line(x, "%s = %s;", zN, r.zNull);
    if (i < nWhen) {
      x->nIndent -= 2;
      cg__line(x, "} else {");
      x->nIndent += 2;
      nOpen++;
    }
  }
  while (nOpen-- > 0) {
    x->nIndent -= 2;
    cg__line(x, "}");
  }
  snprintf(pv->z, sizeof(pv->z), "%s", zV);
  snprintf(pv->zNull, sizeof(pv->zNull), "%s", zN);
  return 0;
}

static int cgx_cast(cgx *x, const sql_expr *e, cg_val *pv) {
  coltype t = e->castType;
  cg_val v;
  char zExpr[160];
  if (cg__expr(x, e->pLeft, &v) != 0) return -1;
  cgx_val_init(pv, t);
  snprintf(pv->zNull, sizeof(pv->zNull), "%s", v.zNull);
  if (t.eId == v.type.eId && t.eId != COLTYPE_DECIMAL) {
    *pv = v;
    pv->type = t;
    if (cgx_is_int(t)) cgx_int_result(x, pv, v.z);
    return 0;
  }
  if (t.eId == COLTYPE_DOUBLE && (cgx_is_int(v.type) || v.type.eId == COLTYPE_DECIMAL)) {
    cg__as(x, &v, t);
    *pv = v;
    return 0;
  }
  if (t.eId == COLTYPE_BOOLEAN && cgx_is_int(v.type)) {
    snprintf(zExpr, sizeof(zExpr), "(%s != 0)", v.z);
    snprintf(pv->z, sizeof(pv->z), "%s", zExpr);
    return 0;
  }
  if (cgx_is_int(t) && v.type.eId == COLTYPE_BOOLEAN) {
    snprintf(pv->z, sizeof(pv->z), "(long long)%s", v.z);
    return 0;
  }
  if (cgx_is_int(t) || t.eId == COLTYPE_DECIMAL) {
    int nScale = t.eId == COLTYPE_DECIMAL ? t.nScale : 0;
    if (v.bFloat) {
      snprintf(zExpr, sizeof(zExpr), "sq_f2i(%s * 1e%d, a.err)", v.z, nScale);
    } else if (cgx_is_int(v.type) || v.type.eId == COLTYPE_DECIMAL) {
      if (v.nScale <= nScale) snprintf(zExpr, sizeof(zExpr), "sq_scale(%s, %d, a.err)", v.z, nScale - v.nScale);
      else snprintf(zExpr, sizeof(zExpr), "sq_unscale_round(%s, %d)", v.z, v.nScale - nScale);
    } else {
      return cgx_refuse(x, e, "this cast");
    }
    if (t.eId == COLTYPE_DECIMAL) {
      char zLim[48], zT[32];
      long long nLim = 1;
      for (int i = 0; i < t.nPrecision && i < 18; i++) nLim *= 10;
      snprintf(zLim, sizeof(zLim), "%lldll", nLim - 1);
      cgx_temp(x, zT, sizeof(zT));
      cg__line(x, "long long %s = %s ? 0 : sq_range(%s, -%s, %s, a.err);", zT, pv->zNull, zExpr,
               zLim, zLim);
      snprintf(pv->z, sizeof(pv->z), "%s", zT);
      return 0;
    }
    cgx_int_result(x, pv, zExpr);
    return 0;
  }
  return cgx_refuse(x, e, "this cast");
}

static int cgx_column(cgx *x, const sql_expr *e, cg_val *pv) {
  const cat_table *t = x->c->p->aSource[e->b.iSource].pTable;
  const cat_column *col = &t->aCol[e->b.iColumn];
  cgx_val_init(pv, col->type);
  if (x->eMode == CGX_GROUP) {
    const plan *p = x->c->p;
    for (int i = 0; i < p->nKey; i++) {
      if (p->aKey[i].iSource == e->b.iSource && p->aKey[i].iColumn == e->b.iColumn) {
        snprintf(pv->z, sizeof(pv->z), "%s", x->azKey[i]);
        snprintf(pv->zNull, sizeof(pv->zNull), "%s", x->azKeyNull[i]);
        return 0;
      }
    }
    return cgx_refuse(x, e, "a column outside GROUP BY");
  }
  const char *zVar = cg__col_var(x->c, e->b.iSource, e->b.iColumn);
  if (zVar == NULL) return -1;
  snprintf(pv->z, sizeof(pv->z), "%s[k]", zVar);
  if (!col->bNotNull) snprintf(pv->zNull, sizeof(pv->zNull), "!%s_ok[k]", zVar);
  return 0;
}

const sql_expr *cg__first_column(const sql_expr *e) {
  const sql_expr *r;
  if (e == NULL || e->eKind == SQL_EXPR_COLUMN) return e;
  if ((r = cg__first_column(e->pLeft)) != NULL || (r = cg__first_column(e->pRight)) != NULL) return r;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if ((r = cg__first_column(e->pList->a[i].pExpr)) != NULL) return r;
  }
  return NULL;
}

/* Adds a field holding code set cs's bits, its name into zName. Returns 0
** or -1. */
static int cgx_codes_field(cgx *x, const plan_codeset *cs, char *zName, size_t nName) {
  int i;
  snprintf(zName, nName, "codes%d", x->c->pProg->nField);
  if ((i = cg__field(x->c, CG_FIELD_CODESET, zName)) < 0) return -1;
  x->c->pProg->aField[i].aBit = cs->aBit;
  x->c->pProg->aField[i].nBitWord = (cs->nCode + 63) / 64;
  return 0;
}

/* A subtree the planner answered over its column's dictionary: the row's
** code tested against the codes where it is TRUE; where the column is
** NULL, the value the planner found for NULL. */
static int cgx_exprset(cgx *x, const plan_exprset *xs, cg_val *pv) {
  coltype tb = {COLTYPE_BOOLEAN, 0, 0, 0};
  const plan_codeset *cs = &xs->codes;
  cg_val col;
  char zTest[192], zT[32];
  if (cgx_column(x, cg__first_column(xs->pExpr), &col) != 0) return -1;
  if (cs->bRange) {
    /* No code passes: the empty range 1..0, so that the generic kernels
    ** find the same two parameters. */
    cg_val lo, hi;
    if (cgx_param(x, "(unsigned)", cs->nPass ? cs->iLo : 1, CG_ROLE_CODES_LO, xs, &lo) != 0 ||
        cgx_param(x, "(unsigned)", cs->nPass ? cs->iHi : 0, CG_ROLE_CODES_HI, xs, &hi) != 0) {
      return -1;
    }
    snprintf(zTest, sizeof(zTest), "((unsigned)%s >= %s && (unsigned)%s <= %s)", col.z, lo.z, col.z,
             hi.z);
  } else {
    char zName[32];
    if (cgx_codes_field(x, cs, zName, sizeof(zName)) != 0) return -1;
    snprintf(zTest, sizeof(zTest), "sq_codes_in(a.%s, (unsigned)%s)", zName, col.z);
  }
  cgx_val_init(pv, tb);
  cgx_temp(x, zT, sizeof(zT));
  if (!cgx_nullable(&col)) {
    cg__line(x, "int %s = %s;", zT, zTest);
  } else if (xs->eNullRow == PLAN_NULLROW_TRUE) {
    cg__line(x, "int %s = (%s) || %s;", zT, col.zNull, zTest);
  } else {
    cg__line(x, "int %s = !(%s) && %s;", zT, col.zNull, zTest);
    if (xs->eNullRow == PLAN_NULLROW_NULL) snprintf(pv->zNull, sizeof(pv->zNull), "%s", col.zNull);
  }
  snprintf(pv->z, sizeof(pv->z), "%s", zT);
  return 0;
}

/* A date function the planner computed per day (plan_valmap): its map,
** indexed by the row's day. */
static int cgx_valmap(cgx *x, const plan_valmap *m, cg_val *pv) {
  char zName[32], zI[32], zT[32];
  cg_val d, lo, n;
  int i;
  if (cgx_column(x, m->pCol, &d) != 0) return -1;
  snprintf(zName, sizeof(zName), "map%d", x->c->pProg->nField);
  if ((i = cg__field(x->c, CG_FIELD_MAP, zName)) < 0) return -1;
  x->c->pProg->aField[i].aBit = (const uint64_t *)m->aValue;
  x->c->pProg->aField[i].nBitWord = m->nEntry;
  x->c->pProg->aField[i].pOwner = m;
  if (cgx_param(x, "", m->iMinDay, CG_ROLE_MAP_MIN, m, &lo) != 0 ||
      cgx_param(x, "", (int64_t)m->nEntry, CG_ROLE_MAP_N, m, &n) != 0) {
    return -1;
  }
  cgx_val_init(pv, m->pExpr->b.type);
  snprintf(pv->zNull, sizeof(pv->zNull), "%s", d.zNull);
  cgx_temp(x, zI, sizeof(zI));
  cg__line(x, "long long %s = %s ? 0 : sq_map_at(a.%s, %s, sq_days(%s) - %s, a.err);", zI, d.zNull,
           zName, n.z, d.z, lo.z);
  if (m->bFloat) {
    cgx_temp(x, zT, sizeof(zT));
    cg__line(x, "double %s = sq_bits_f64((unsigned long long)%s);", zT, zI);
    snprintf(pv->z, sizeof(pv->z), "%s", zT);
  } else {
    snprintf(pv->z, sizeof(pv->z), "%s", zI);
  }
  return 0;
}

/* A string map the planner computed (strval.c): the entry from the
** inputs' values, the string's index there, NULL where it is -1. */
static int cgx_strmap(cgx *x, const plan_valmap *m, cg_val *pv) {
  char zName[32], zI[32], zT[32], zTerm[256];
  strbuf s;
  cg_val n;
  int i;
  snprintf(zName, sizeof(zName), "map%d", x->c->pProg->nField);
  if ((i = cg__field(x->c, CG_FIELD_MAP, zName)) < 0) return -1;
  x->c->pProg->aField[i].aBit = (const uint64_t *)m->aValue;
  x->c->pProg->aField[i].nBitWord = m->nEntry;
  x->c->pProg->aField[i].pOwner = m;
  if (cgx_param(x, "", (int64_t)m->nEntry, CG_ROLE_MAP_N, m, &n) != 0) return -1;
  strbuf_init(&s);
  strbuf_puts(&s, "0");
  for (int k = 0; k < m->nIn; k++) {
    const plan_mapin *in = &m->aIn[k];
    cg_val v, lo, nul, st;
    if (cgx_column(x, in->pCol, &v) != 0 ||
        cgx_param(x, "", in->iLo, CG_ROLE_MAPIN_LO, in, &lo) != 0 ||
        cgx_param(x, "", (int64_t)in->nDom, CG_ROLE_MAPIN_NULL, in, &nul) != 0 ||
        cgx_param(x, "", (int64_t)in->nStride, CG_ROLE_MAPIN_STRIDE, in, &st) != 0) {
      strbuf_free(&s);
      return -1;
    }
    if (cgx_nullable(&v)) {
      snprintf(zTerm, sizeof(zTerm), " + (%s ? %s : (long long)%s - %s) * %s", v.zNull, nul.z, v.z, lo.z,
               st.z);
    } else {
      snprintf(zTerm, sizeof(zTerm), " + ((long long)%s - %s) * %s", v.z, lo.z, st.z);
    }
    strbuf_puts(&s, zTerm);
  }
  cgx_temp(x, zI, sizeof(zI));
  cgx_temp(x, zT, sizeof(zT));
  cg__line(x, "long long %s = sq_map_at(a.%s, %s, %s, a.err);", zI, zName, n.z, strbuf_str(&s));
  cg__line(x, "int %s = %s < 0;", zT, zI);
  strbuf_free(&s);
  cgx_val_init(pv, m->pExpr->b.type);
  snprintf(pv->z, sizeof(pv->z), "(%s < 0 ? 0 : %s)", zI, zI);
  snprintf(pv->zNull, sizeof(pv->zNull), "%s", zT);
  return 0;
}

int cg__expr(cgx *x, const sql_expr *e, cg_val *pv) {
  cg_val a;
  const plan_exprset *xs;
  if (x->eMode == CGX_GROUP && e->eKind != SQL_EXPR_COLUMN) {
    int j = plan_key_find(x->c->p, e);   /* an expression key: its value */
    if (j >= 0) {
      cgx_val_init(pv, x->c->p->aKey[j].type);
      snprintf(pv->z, sizeof(pv->z), "%s", x->azKey[j]);
      snprintf(pv->zNull, sizeof(pv->zNull), "%s", x->azKeyNull[j]);
      return 0;
    }
  }
  xs = x->c->p->nExprSet > 0 ? plan_exprset_find(x->c->p, e) : NULL;
  if (xs != NULL) return cgx_exprset(x, xs, pv);
  if (x->c->p->nValMap > 0 && coltype_is_string(e->b.type) && plan_strmap_find(x->c->p, e) != NULL) {
    return cgx_strmap(x, plan_strmap_find(x->c->p, e), pv);
  }
  switch (e->eKind) {
    case SQL_EXPR_COLUMN:
      return cgx_column(x, e, pv);
    case SQL_EXPR_FUNC:
      if (e->b.iAgg < 0 && plan_valmap_find(x->c->p, e) != NULL) {
        return cgx_valmap(x, plan_valmap_find(x->c->p, e), pv);
      }
      if (e->b.iAgg < 0 && e->pList != NULL && bind_math_func_name(e->zName)) {
        return cg__math_func(x, e, pv);
      }
      if (x->eMode != CGX_GROUP || e->b.iAgg < 0) return cgx_refuse(x, e, "this function");
      cgx_val_init(pv, e->b.type);
      snprintf(pv->z, sizeof(pv->z), "%s", x->azAgg[e->b.iAgg]);
      snprintf(pv->zNull, sizeof(pv->zNull), "%s", x->azAggNull[e->b.iAgg]);
      return 0;
    case SQL_EXPR_UNARY:
      if (cg__expr(x, e->pLeft, &a) != 0) return -1;
      if (e->eOp == SQL_OP_NOT) {
        cgx_not(x, &a, pv);
      } else if (e->eOp == SQL_OP_PLUS) {
        *pv = a;
      } else if (a.bFloat) {
        char zT[32];
        *pv = a;
        cgx_temp(x, zT, sizeof(zT));
        cg__line(x, "double %s = -%s;", zT, a.z);
        snprintf(pv->z, sizeof(pv->z), "%s", zT);
      } else {
        char zOp[160];
        *pv = a;
        pv->type = e->b.type;
        snprintf(zOp, sizeof(zOp), "sq_sub(0, %s, a.err)", a.z);
        cgx_int_result(x, pv, zOp);
      }
      return 0;
    case SQL_EXPR_BINARY:
      return cgx_binary(x, e, pv);
    case SQL_EXPR_IS_NULL: {
      coltype tb = {COLTYPE_BOOLEAN, 0, 0, 0};
      if (cg__expr(x, e->pLeft, &a) != 0) return -1;
      cgx_val_init(pv, tb);
      snprintf(pv->z, sizeof(pv->z), "%s(%s)", e->bNot ? "!" : "", a.zNull);
      return 0;
    }
    case SQL_EXPR_BETWEEN:
      return cgx_between(x, e, pv);
    case SQL_EXPR_IN:
      return cgx_in(x, e, pv);
    case SQL_EXPR_CASE:
      return cgx_case(x, e, pv);
    case SQL_EXPR_CAST:
      return cgx_cast(x, e, pv);
    case SQL_EXPR_LIKE:
      return cgx_refuse(x, e, "LIKE on anything but one dictionary column");
    case SQL_EXPR_STAR:
      return cgx_refuse(x, e, "*");
    default:
      return cgx_literal(x, e, pv);
  }
}

int cg__cond(cgx *x, const plan_pred *q, char *zFlag, size_t nFlag) {
  cg_val v;
  if (q->pCodes != NULL) {
    const plan_codeset *cs = q->pCodes;
    const char *zVar = cg__col_var(x->c, q->iSource, q->iDictCol);
    const cat_column *col = &x->c->p->aSource[q->iSource].pTable->aCol[q->iDictCol];
    char zOk[96] = "";
    if (zVar == NULL) return -1;
    if (!col->bNotNull) snprintf(zOk, sizeof(zOk), "%s_ok[k] && ", zVar);
    if (cs->nPass == 0) {
      snprintf(zFlag, nFlag, "0");
    } else if (cs->bRange) {
      cg_val lo, hi;
      if (cgx_param(x, "(unsigned)", cs->iLo, CG_ROLE_CODES_LO, q, &lo) != 0 ||
          cgx_param(x, "(unsigned)", cs->iHi, CG_ROLE_CODES_HI, q, &hi) != 0) {
        return -1;
      }
      snprintf(zFlag, nFlag, "(%s%s[k] >= %s && %s[k] <= %s)", zOk, zVar, lo.z, zVar, hi.z);
    } else {
      char zName[32];
      if (cgx_codes_field(x, cs, zName, sizeof(zName)) != 0) return -1;
      snprintf(zFlag, nFlag, "(%ssq_codes_in(a.%s, %s[k]))", zOk, zName, zVar);
    }
    return 0;
  }
  if (cg__expr(x, q->pExpr, &v) != 0) return -1;
  if (cgx_nullable(&v)) snprintf(zFlag, nFlag, "(!(%s) && %s)", v.zNull, v.z);
  else snprintf(zFlag, nFlag, "%s", v.z);
  return 0;
}
