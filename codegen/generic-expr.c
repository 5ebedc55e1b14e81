/*
** codegen/generic-expr.c — the values of the generic program: the fields
** codegen made (found by what they are, cg_field.eRole), the column loads
** (emit.c's cg__load: plain, packed with its resident copy plain or
** gathered by row index, with validity), and expressions and
** conditions as value instructions, expr.c's steps one for one: the same
** types, scales, checks and NULLs, so the same values and errors. Every
** value instruction runs over a mask flag: a CASE branch's items only.
*/
#include <string.h>

#include "genericInt.h"

/* ---- fields ------------------------------------------------------------------- */

static int gen_field_where(gen *x, int (*xMatch)(const cg_field *, const void *), const void *pArg,
                           const char *zWhat) {
  for (int i = 0; i < x->g->nField; i++) {
    if (xMatch(&x->g->aField[i], pArg)) return i;
  }
  gen__fail(x, "no field for %s", zWhat);
  return 0;
}

typedef struct gen_key gen_key;
struct gen_key {
  cg_field_kind eKind;
  int iSource, iColumn, iDim, iOut;
  uint64_t nOffset;
  cg_role eRole;
  int iRole;
  const void *pOwner;
};

static int gen_match_col(const cg_field *f, const void *pArg) {
  const gen_key *k = pArg;
  return f->eKind == k->eKind && f->iSource == k->iSource && f->iColumn == k->iColumn;
}

static int gen_match_kind(const cg_field *f, const void *pArg) {
  return f->eKind == ((const gen_key *)pArg)->eKind;
}

static int gen_match_out(const cg_field *f, const void *pArg) {
  const gen_key *k = pArg;
  return f->eKind == k->eKind && f->iOut == k->iOut;
}

static int gen_match_nrow(const cg_field *f, const void *pArg) {
  return f->eKind == CG_FIELD_NROW && f->iSource == ((const gen_key *)pArg)->iSource;
}

static int gen_match_lookup(const cg_field *f, const void *pArg) {
  const gen_key *k = pArg;
  return f->eKind == CG_FIELD_LOOKUP && f->iDim == k->iDim && f->nOffset == k->nOffset;
}

static int gen_match_role(const cg_field *f, const void *pArg) {
  const gen_key *k = pArg;
  return (f->eKind == CG_FIELD_PARAM_INT || f->eKind == CG_FIELD_PARAM_FLOAT) &&
         f->eRole == k->eRole && (k->pOwner != NULL ? f->pOwner == k->pOwner : f->iRole == k->iRole);
}

static int gen_match_codes(const cg_field *f, const void *pArg) {
  return f->eKind == CG_FIELD_CODESET && f->aBit == ((const gen_key *)pArg)->pOwner;
}

int gen__f_col(gen *x, cg_field_kind e, int s, int iCol) {
  gen_key k = {e, s, iCol, -1, -1, 0, CG_ROLE_NONE, -1, NULL};
  return gen_field_where(x, gen_match_col, &k, "a column");
}

int gen__f_kind(gen *x, cg_field_kind e) {
  gen_key k = {e, -1, -1, -1, -1, 0, CG_ROLE_NONE, -1, NULL};
  return gen_field_where(x, gen_match_kind, &k, "the query");
}

int gen__f_out(gen *x, cg_field_kind e, int iOut) {
  gen_key k = {e, -1, -1, -1, iOut, 0, CG_ROLE_NONE, -1, NULL};
  return gen_field_where(x, gen_match_out, &k, "an output");
}

int gen__f_nrow(gen *x, int s) {
  gen_key k = {CG_FIELD_NROW, s, -1, -1, -1, 0, CG_ROLE_NONE, -1, NULL};
  return gen_field_where(x, gen_match_nrow, &k, "a table's rows");
}

int gen__f_lookup(gen *x, int d, uint64_t nOffset) {
  gen_key k = {CG_FIELD_LOOKUP, -1, -1, d, -1, nOffset, CG_ROLE_NONE, -1, NULL};
  return gen_field_where(x, gen_match_lookup, &k, "a lookup");
}

int gen__f_role(gen *x, cg_role e, int i, const void *pOwner) {
  gen_key k = {CG_FIELD_PARAM_INT, -1, -1, -1, -1, 0, e, i, pOwner};
  return gen_field_where(x, gen_match_role, &k, "a parameter");
}

/* ---- columns ----------------------------------------------------------------- */

static int gen_type_of(coltype t) {
  switch (t.eId) {
    case COLTYPE_SMALLINT: return SQG_T_I16;
    case COLTYPE_INTEGER: case COLTYPE_DATE: return SQG_T_I32;
    case COLTYPE_DOUBLE: return SQG_T_F64;
    case COLTYPE_BIGINT: case COLTYPE_DECIMAL: return SQG_T_I64;
    default: return SQG_T_U32;
  }
}

static int gen_for_of(coltype t, uint8_t eEnc) {
  if (eEnc == STORE_ENC_FOR_DATE) return SQG_F_DATE;
  switch (t.eId) {
    case COLTYPE_SMALLINT: return SQG_F_I16;
    case COLTYPE_INTEGER: case COLTYPE_DATE: return SQG_F_I32;
    default: return SQG_F_I64;
  }
}

/* Loads column (s, iCol) for flag 0's items, gathered by row register
** iRow (-1: the tile's rows), unless this kernel has it (cg__load). */
void gen__load(gen *x, int s, int iCol, int iRow) {
  const plan *p = x->p;
  const cat_column *col = &p->aSource[s].pTable->aCol[iCol];
  int d, iValid = -1;
  if (x->bFail || x->aaReg[s][iCol] >= 0) return;
  d = gen__reg(x);
  x->aaReg[s][iCol] = d;
  if (!col->bNotNull) iValid = gen__f_col(x, CG_FIELD_VALID, s, iCol);
  if (cg__col_packed(p, s, iCol)) {
    gen__ins(x, iRow < 0 ? SQG_LOAD : SQG_GATHER, d, iRow, -1, 0, gen__f_col(x, CG_FIELD_COLUMN, s, iCol),
            gen_type_of(col->type), iValid, gen__f_col(x, CG_FIELD_PACKED, s, iCol),
            gen__f_col(x, CG_FIELD_PLAIN, s, iCol));
    gen__ins(x, SQG_PACKED, -1, -1, -1, -1, -1, 0, gen_for_of(col->type, p->aSource[s].aEnc[iCol]),
            -1, -1);
  } else {
    gen__ins(x, iRow < 0 ? SQG_LOAD : SQG_GATHER, d, iRow, -1, 0, gen__f_col(x, CG_FIELD_COLUMN, s, iCol),
            gen_type_of(col->type), iValid, -1, -1);
  }
}

typedef struct gen_walk gen_walk;
struct gen_walk {
  gen *x;
  int s;                   /* only this item's columns (-1: any, by row ids) */
};

static void gen_load_walk(void *pArg, const sql_expr *e) {
  gen_walk *w = pArg;
  gen *x = w->x;
  const plan *p = x->p;
  int s = e->b.iSource, iRow = -1;
  if (w->s >= 0 && s != w->s) return;
  if (w->s < 0 && p->iFact >= 0 && s != p->iFact && p->aiDimOf[s] >= 0) {
    iRow = x->aRowReg[p->aiDimOf[s]];
    if (iRow < 0) {
      gen__fail(x, "a dimension column without its row index");
      return;
    }
  }
  gen__load(x, s, e->b.iColumn, iRow);
}

/* Loads every column of FROM item s below e (cg__load_expr). */
void gen__load_expr(gen *x, const sql_expr *e, int s) {
  gen_walk w = {x, s};
  sql_expr_walk_columns(e, gen_load_walk, &w);
}

/* ---- expressions (expr.c, step for step) ---------------------------------------- */

int gen__expr(gen *x, const sql_expr *e, int m, gen_val *pv);

static void gen_val_init(gen_val *v, coltype t, int r) {
  memset(v, 0, sizeof(*v));
  v->type = t;
  v->bFloat = t.eId == COLTYPE_DOUBLE;
  v->nScale = t.eId == COLTYPE_DECIMAL ? t.nScale : 0;
  v->r = r;
}

static int gen_is_int(coltype t) {
  return t.eId == COLTYPE_SMALLINT || t.eId == COLTYPE_INTEGER || t.eId == COLTYPE_BIGINT;
}

static int gen_is_int32(const gen_val *v) {
  return !v->bFloat && v->nScale == 0 &&
         (v->type.eId == COLTYPE_SMALLINT || v->type.eId == COLTYPE_INTEGER);
}

/* The range an integer result of type t is checked against (cgx_int_range). */
static int gen_range_of(coltype t) {
  return t.eId == COLTYPE_SMALLINT ? SQG_R_SMALLINT : t.eId == COLTYPE_INTEGER ? SQG_R_INTEGER
                                                                                : SQG_R_NONE;
}

/* *pv = op(a, b) of type pv->type, range-checked (cgx_int_result). */
static void gen_int_result(gen *x, gen_val *pv, int op, int a, int b, int m, int n) {
  pv->r = gen__reg(x);
  gen__op(x, SQG_IOP, pv->r, a, b, m, op, gen_range_of(pv->type), n, 0);
}

void gen__as(gen *x, gen_val *v, coltype t, int m) {
  int nScale = t.eId == COLTYPE_DECIMAL ? t.nScale : 0;
  if (t.eId == COLTYPE_DOUBLE) {
    int r;
    if (v->bFloat) return;
    r = gen__reg(x);
    gen__op(x, SQG_TOF, r, v->r, -1, m, v->nScale, -1, -1, -1);
    v->r = r;
    v->bFloat = 1;
    v->nScale = 0;
  } else if (!v->bFloat && nScale > v->nScale) {
    int r = gen__reg(x);
    gen__op(x, SQG_IOP, r, v->r, -1, m, SQG_I_SCALE, SQG_R_NONE, nScale - v->nScale, 0);
    v->r = r;
    v->nScale = nScale;
  }
  v->type = t;
}

static int gen_literal(gen *x, const sql_expr *e, int m, gen_val *pv) {
  coltype t = e->b.type;
  gen_val_init(pv, t, 0);
  switch (e->eKind) {
    case SQL_EXPR_NULL:
      pv->r = gen__reg(x);
      gen__op(x, SQG_CONST, pv->r, -1, -1, m, 0, 1, -1, -1);
      return 0;
    case SQL_EXPR_BOOL:
      pv->r = gen__reg(x);
      gen__op(x, SQG_CONST, pv->r, -1, -1, m, e->bValue ? 1 : 0, 0, -1, -1);
      return 0;
    case SQL_EXPR_DATE: {
      coltype td = {COLTYPE_DATE, 0, 0, 0};
      gen_val_init(pv, td, gen__reg(x));
      gen__op(x, SQG_PARAM, pv->r, -1, -1, m, gen__f_role(x, CG_ROLE_LITERAL, -1, e), -1, -1, -1);
      return 0;
    }
    default:
      break;
  }
  if (t.eId == COLTYPE_DOUBLE || gen_is_int(t) || t.eId == COLTYPE_DECIMAL ||
      (e->eKind == SQL_EXPR_STRING && coltype_is_string(t))) {
    gen_key k = {CG_FIELD_PARAM_INT, -1, -1, -1, -1, 0, CG_ROLE_LITERAL, -1, e};
    pv->r = gen__reg(x);
    gen__op(x, SQG_PARAM, pv->r, -1, -1, m, gen_field_where(x, gen_match_role, &k, "a literal"), -1,
           -1, -1);
    return 0;
  }
  gen__fail(x, "a literal codegen refuses");
  return -1;
}

static int gen_arith(gen *x, const sql_expr *e, int m, gen_val *pv) {
  gen_val a, b;
  coltype rt = e->b.type;
  if (gen__expr(x, e->pLeft, m, &a) != 0 || gen__expr(x, e->pRight, m, &b) != 0) return -1;
  gen_val_init(pv, rt, 0);
  if (rt.eId == COLTYPE_DATE) {                  /* date +- integer */
    const gen_val *d = a.type.eId == COLTYPE_DATE ? &a : &b, *n = d == &a ? &b : &a;
    gen_int_result(x, pv, e->eOp == SQL_OP_SUB ? SQG_I_DATE_SUB : SQG_I_DATE_ADD, d->r, n->r, m, 0);
    return 0;
  }
  if (a.type.eId == COLTYPE_DATE && b.type.eId == COLTYPE_DATE) {
    gen_int_result(x, pv, SQG_I_DATE_DIFF, a.r, b.r, m, 0);
    return 0;
  }
  if (rt.eId == COLTYPE_DOUBLE) {
    int op = e->eOp == SQL_OP_DIV ? SQG_FO_DIV : e->eOp == SQL_OP_ADD ? SQG_FO_ADD
             : e->eOp == SQL_OP_SUB                                  ? SQG_FO_SUB
                                                                     : SQG_FO_MUL;
    gen__as(x, &a, rt, m);
    gen__as(x, &b, rt, m);
    pv->r = gen__reg(x);
    gen__op(x, SQG_FOP, pv->r, a.r, b.r, m, op, -1, -1, -1);
    return 0;
  }
  if (a.bFloat || b.bFloat) {
    gen__fail(x, "a mix of numeric types");
    return -1;
  }
  if (gen_is_int32(&a) && gen_is_int32(&b) &&
      (e->eOp == SQL_OP_MUL || e->eOp == SQL_OP_ADD || e->eOp == SQL_OP_SUB)) {
    int op = e->eOp == SQL_OP_MUL ? SQG_I_MUL32 : e->eOp == SQL_OP_ADD ? SQG_I_ADD32 : SQG_I_SUB32;
    gen_int_result(x, pv, op, a.r, b.r, m, 0);
    return 0;
  }
  switch (e->eOp) {
    case SQL_OP_MUL:
      gen_int_result(x, pv, SQG_I_MUL, a.r, b.r, m, 0);
      break;
    case SQL_OP_DIV:
      if (rt.eId == COLTYPE_DECIMAL) {
        gen_int_result(x, pv, SQG_I_DDIV, a.r, b.r, m, pv->nScale - a.nScale + b.nScale);
      } else {
        gen_int_result(x, pv, SQG_I_DIV, a.r, b.r, m, 0);
      }
      break;
    default:
      gen__as(x, &a, rt, m);
      gen__as(x, &b, rt, m);
      gen_int_result(x, pv,
                     e->eOp == SQL_OP_ADD ? SQG_I_ADD : e->eOp == SQL_OP_SUB ? SQG_I_SUB : SQG_I_MOD,
                     a.r, b.r, m, 0);
      break;
  }
  return 0;
}

/* How a and b compare (cgx_unify): as codes or integers, as doubles, or
** both widened to one scale in 128 bits (*pnA, *pnB: their shifts). */
static int gen_unify(gen *x, const sql_expr *e, gen_val *a, gen_val *b, int m, int *pOp, int *pnA,
                     int *pnB) {
  *pOp = SQG_ICMP;
  *pnA = *pnB = 0;
  if (coltype_is_string(a->type) || coltype_is_string(b->type)) {
    const sql_expr *l = e->pLeft, *r = e->pRight;
    if (l != NULL && r != NULL && l->eKind == SQL_EXPR_COLUMN && r->eKind == SQL_EXPR_COLUMN &&
        l->b.iSource == r->b.iSource && l->b.iColumn == r->b.iColumn) {
      return 0;
    }
    gen__fail(x, "comparing strings of two columns");
    return -1;
  }
  if (a->bFloat || b->bFloat) {
    coltype d = {COLTYPE_DOUBLE, 0, 0, 0};
    gen__as(x, a, d, m);
    gen__as(x, b, d, m);
    *pOp = SQG_FCMP;
  } else if (a->nScale != b->nScale) {
    int nScale = a->nScale > b->nScale ? a->nScale : b->nScale;
    *pOp = SQG_WCMP;
    *pnA = nScale - a->nScale;
    *pnB = nScale - b->nScale;
  }
  return 0;
}

static int gen_cmp_of(sql_op e) {
  switch (e) {
    case SQL_OP_EQ: return SQG_C_EQ;
    case SQL_OP_NE: return SQG_C_NE;
    case SQL_OP_LT: return SQG_C_LT;
    case SQL_OP_LE: return SQG_C_LE;
    case SQL_OP_GT: return SQG_C_GT;
    default: return SQG_C_GE;
  }
}

/* *pv = a eOp b once unified (gen_unify's op and shifts). */
static void gen_compare(gen *x, int op, int nA, int nB, sql_op eOp, const gen_val *a,
                        const gen_val *b, int m, gen_val *pv) {
  coltype tb = {COLTYPE_BOOLEAN, 0, 0, 0};
  gen_val_init(pv, tb, gen__reg(x));
  gen__op(x, op, pv->r, a->r, b->r, m, gen_cmp_of(eOp), nA, nB, -1);
}

static void gen_bool_op(gen *x, int op, const gen_val *a, const gen_val *b, int m, gen_val *pv) {
  coltype tb = {COLTYPE_BOOLEAN, 0, 0, 0};
  gen_val_init(pv, tb, gen__reg(x));
  gen__op(x, op, pv->r, a->r, b != NULL ? b->r : -1, m, -1, -1, -1, -1);
}

/* a op b of a comparison node e (its pLeft and pRight are a's and b's). */
static int gen_compare_expr(gen *x, const sql_expr *e, sql_op eOp, gen_val a, gen_val b, int m,
                            gen_val *pv) {
  int op, nA, nB;
  if (gen_unify(x, e, &a, &b, m, &op, &nA, &nB) != 0) return -1;
  gen_compare(x, op, nA, nB, eOp, &a, &b, m, pv);
  return 0;
}

static int gen_between(gen *x, const sql_expr *e, int m, gen_val *pv) {
  gen_val v, lo, hi, c1, c2, r;
  sql_expr fake;
  if (gen__expr(x, e->pLeft, m, &v) != 0 || gen__expr(x, e->pList->a[0].pExpr, m, &lo) != 0 ||
      gen__expr(x, e->pList->a[1].pExpr, m, &hi) != 0) {
    return -1;
  }
  memset(&fake, 0, sizeof(fake));
  fake.pLeft = e->pLeft;
  fake.pRight = e->pList->a[0].pExpr;
  if (gen_compare_expr(x, &fake, SQL_OP_GE, v, lo, m, &c1) != 0) return -1;
  fake.pRight = e->pList->a[1].pExpr;
  if (gen_compare_expr(x, &fake, SQL_OP_LE, v, hi, m, &c2) != 0) return -1;
  gen_bool_op(x, SQG_AND3, &c1, &c2, m, &r);
  if (e->bNot) gen_bool_op(x, SQG_NOT, &r, NULL, m, pv);
  else *pv = r;
  return 0;
}

static int gen_match_inlist(const cg_field *f, const void *pArg) {
  return f->eKind == CG_FIELD_INLIST && f->pOwner == ((const gen_key *)pArg)->pOwner;
}

/* The field codegen made for IN node e's sorted constants (cgx_in_sorted),
** or -1 where it compares one by one. */
static int gen_inlist_field(gen *x, const sql_expr *e) {
  gen_key k = {CG_FIELD_INLIST, -1, -1, -1, -1, 0, CG_ROLE_NONE, -1, e};
  for (int i = 0; i < x->g->nField; i++) {
    if (gen_match_inlist(&x->g->aField[i], &k)) return i;
  }
  return -1;
}

static int gen_in(gen *x, const sql_expr *e, int m, gen_val *pv) {
  gen_val v, acc;
  sql_expr fake;
  int iList;
  if (gen__expr(x, e->pLeft, m, &v) != 0) return -1;
  if ((iList = gen_inlist_field(x, e)) >= 0) {
    int bNull = 0;
    coltype tb = {COLTYPE_BOOLEAN, 0, 0, 0};
    for (int i = 0; i < e->pList->n; i++) bNull |= e->pList->a[i].pExpr->eKind == SQL_EXPR_NULL;
    gen_val_init(&acc, tb, gen__reg(x));
    gen__op(x, SQG_INLIST, acc.r, v.r, -1, m, iList, gen__f_role(x, CG_ROLE_INLIST_N, -1, e), bNull,
            -1);
    if (e->bNot) gen_bool_op(x, SQG_NOT, &acc, NULL, m, pv);
    else *pv = acc;
    return 0;
  }
  memset(&fake, 0, sizeof(fake));
  fake.pLeft = e->pLeft;
  for (int i = 0; i < e->pList->n; i++) {
    gen_val w, c;
    if (gen__expr(x, e->pList->a[i].pExpr, m, &w) != 0) return -1;
    fake.pRight = e->pList->a[i].pExpr;
    if (gen_compare_expr(x, &fake, SQL_OP_EQ, v, w, m, &c) != 0) return -1;
    if (i == 0) {
      acc = c;
    } else {
      gen_val o;
      gen_bool_op(x, SQG_OR3, &acc, &c, m, &o);
      acc = o;
    }
  }
  if (e->bNot) gen_bool_op(x, SQG_NOT, &acc, NULL, m, pv);
  else *pv = acc;
  return 0;
}

/* CASE: each branch under the flag of the items that take it, so only
** they evaluate it (and raise its errors), as codegen's if / else. */
static int gen_case(gen *x, const sql_expr *e, int m, gen_val *pv) {
  coltype rt = e->b.type;
  int nWhen = e->pList != NULL ? e->pList->n / 2 : 0, mRest = m, nFlag0 = x->nFlag;
  int mThen, amElse[2];
  gen_val base;
  if (coltype_is_string(rt) && !plan_strlist_expr(e) && plan_dictcase_column(e) == NULL) {
    gen__fail(x, "this CASE of strings");
    return -1;
  }
  if (e->pLeft != NULL && gen__expr(x, e->pLeft, m, &base) != 0) return -1;
  gen_val_init(pv, rt, gen__reg(x));
  gen__op(x, SQG_CONST, pv->r, -1, -1, m, 0, 1, -1, -1);
  /* The items a branch takes, and those left for the next WHEN: two
  ** flags in turn, so that the one read is never the one written. */
  mThen = gen__flag(x);
  amElse[0] = gen__flag(x);
  amElse[1] = gen__flag(x);
  for (int i = 0; i < nWhen; i++) {
    const sql_expr *w = e->pList->a[2 * i].pExpr;
    gen_val c, r;
    int mElse = amElse[i & 1];
    if (e->pLeft != NULL) {
      gen_val wv;
      sql_expr fake;
      memset(&fake, 0, sizeof(fake));
      fake.pLeft = e->pLeft;
      fake.pRight = (sql_expr *)w;
      if (gen__expr(x, w, mRest, &wv) != 0 ||
          gen_compare_expr(x, &fake, SQL_OP_EQ, base, wv, mRest, &c) != 0) {
        return -1;
      }
    } else if (gen__expr(x, w, mRest, &c) != 0) {
      return -1;
    }
    gen__ins(x, SQG_FCOND, mThen, c.r, -1, mRest, -1, -1, -1, -1, -1);
    gen__ins(x, SQG_FANDNOT, mElse, mThen, -1, mRest, -1, -1, -1, -1, -1);
    if (gen__expr(x, e->pList->a[2 * i + 1].pExpr, mThen, &r) != 0) return -1;
    gen__as(x, &r, rt, mThen);
    gen__op(x, SQG_MOV, pv->r, r.r, -1, mThen, -1, -1, -1, -1);
    mRest = mElse;
  }
  if (e->pRight != NULL) {
    gen_val r;
    if (gen__expr(x, e->pRight, mRest, &r) != 0) return -1;
    gen__as(x, &r, rt, mRest);
    gen__op(x, SQG_MOV, pv->r, r.r, -1, mRest, -1, -1, -1, -1);
  }
  x->nFlag = nFlag0;                       /* its flags are free again */
  return 0;
}

static int gen_cast(gen *x, const sql_expr *e, int m, gen_val *pv) {
  coltype t = e->castType;
  gen_val v;
  int op;
  if (gen__expr(x, e->pLeft, m, &v) != 0) return -1;
  gen_val_init(pv, t, v.r);
  if (t.eId == v.type.eId && t.eId != COLTYPE_DECIMAL) {
    *pv = v;
    pv->type = t;
    if (gen_is_int(t)) gen_int_result(x, pv, SQG_I_SAME, v.r, -1, m, 0);
    return 0;
  }
  if (t.eId == COLTYPE_DOUBLE && (gen_is_int(v.type) || v.type.eId == COLTYPE_DECIMAL)) {
    gen__as(x, &v, t, m);
    *pv = v;
    return 0;
  }
  if (t.eId == COLTYPE_BOOLEAN && gen_is_int(v.type)) {
    pv->r = gen__reg(x);
    gen__op(x, SQG_TOBOOL, pv->r, v.r, -1, m, -1, -1, -1, -1);
    return 0;
  }
  if (gen_is_int(t) && v.type.eId == COLTYPE_BOOLEAN) return 0;
  if (gen_is_int(t) || t.eId == COLTYPE_DECIMAL) {
    int nScale = t.eId == COLTYPE_DECIMAL ? t.nScale : 0, n;
    if (v.bFloat) {
      op = SQG_I_F2I;
      n = nScale;
    } else if (gen_is_int(v.type) || v.type.eId == COLTYPE_DECIMAL) {
      op = v.nScale <= nScale ? SQG_I_SCALE : SQG_I_UNSCALE;
      n = v.nScale <= nScale ? nScale - v.nScale : v.nScale - nScale;
    } else {
      gen__fail(x, "this cast");
      return -1;
    }
    pv->r = gen__reg(x);
    if (t.eId == COLTYPE_DECIMAL) {
      gen__op(x, SQG_IOP, pv->r, v.r, -1, m, op, SQG_R_DECIMAL, n, t.nPrecision);
    } else {
      gen__op(x, SQG_IOP, pv->r, v.r, -1, m, op, gen_range_of(t), n, 0);
    }
    return 0;
  }
  gen__fail(x, "this cast");
  return -1;
}

static int gen_column(gen *x, const sql_expr *e, gen_val *pv) {
  const plan *p = x->p;
  const cat_column *col = &p->aSource[e->b.iSource].pTable->aCol[e->b.iColumn];
  gen_val_init(pv, col->type, 0);
  if (x->bGroup) {
    for (int i = 0; i < p->nKey; i++) {
      if (p->aKey[i].iSource == e->b.iSource && p->aKey[i].iColumn == e->b.iColumn) {
        pv->r = x->aKeyReg[i];
        return 0;
      }
    }
    gen__fail(x, "a column outside GROUP BY");
    return -1;
  }
  pv->r = x->aaReg[e->b.iSource][e->b.iColumn];
  if (pv->r < 0) {
    gen__fail(x, "a column not loaded");
    return -1;
  }
  return 0;
}

/* A subtree the planner answered over its dictionary (cgx_exprset). */
static int gen_exprset(gen *x, const plan_exprset *xs, int m, gen_val *pv) {
  coltype tb = {COLTYPE_BOOLEAN, 0, 0, 0};
  const plan_codeset *cs = &xs->codes;
  int nr = xs->eNullRow == PLAN_NULLROW_TRUE ? SQG_NR_TRUE
           : xs->eNullRow == PLAN_NULLROW_NULL ? SQG_NR_NULL : SQG_NR_FALSE;
  gen_val col;
  if (gen_column(x, cg__first_column(xs->pExpr), &col) != 0) return -1;
  gen_val_init(pv, tb, gen__reg(x));
  if (cs->bRange) {                      /* none passing: the range 1..0 */
    gen__op(x, SQG_CRANGE, pv->r, col.r, -1, m, gen__f_role(x, CG_ROLE_CODES_LO, -1, xs),
            gen__f_role(x, CG_ROLE_CODES_HI, -1, xs), nr, -1);
  } else {
    gen_key k = {CG_FIELD_CODESET, -1, -1, -1, -1, 0, CG_ROLE_NONE, -1, cs->aBit};
    gen__op(x, SQG_CODES, pv->r, col.r, -1, m, gen_field_where(x, gen_match_codes, &k, "a code set"),
            -1, nr, -1);
  }
  return 0;
}

static int gen_match_map(const cg_field *f, const void *pArg) {
  return f->eKind == CG_FIELD_MAP && f->pOwner == ((const gen_key *)pArg)->pOwner;
}

/* round, ceil, floor, trunc, sqrt or power call e (mathfunc.c's cg__math_func). */
static int gen_math(gen *x, const sql_expr *e, int m, gen_val *pv) {
  coltype t = e->b.type;
  gen_val v, w;
  int op, d;
  if (gen__expr(x, e->pList->a[0].pExpr, m, &v) != 0) return -1;
  gen_val_init(&w, t, -1);
  if (e->zName[0] == 'p' && gen__expr(x, e->pList->a[1].pExpr, m, &w) != 0) return -1;
  if (e->zName[0] == 's' || e->zName[0] == 'p') {          /* sqrt, power, pow */
    gen__as(x, &v, t, m);
    if (w.r >= 0) gen__as(x, &w, t, m);
    gen_val_init(pv, t, gen__reg(x));
    gen__op(x, SQG_FOP, pv->r, v.r, w.r, m, e->zName[0] == 's' ? SQG_FO_SQRT : SQG_FO_POW, -1, -1,
            -1);
    return 0;
  }
  if (t.eId == COLTYPE_DOUBLE) {
    op = strcmp(e->zName, "round") == 0   ? SQG_FO_RINT
         : strcmp(e->zName, "floor") == 0 ? SQG_FO_FLOOR
         : strcmp(e->zName, "trunc") == 0 ? SQG_FO_TRUNC
                                          : SQG_FO_CEIL;
    gen__as(x, &v, t, m);
    gen_val_init(pv, t, gen__reg(x));
    gen__op(x, SQG_FOP, pv->r, v.r, -1, m, op, -1, -1, -1);
    return 0;
  }
  d = v.nScale - t.nScale;
  op = d <= 0                               ? SQG_I_SCALE
       : strcmp(e->zName, "round") == 0 ? SQG_I_UNSCALE
       : strcmp(e->zName, "trunc") == 0 ? SQG_I_TRUNC_D
       : strcmp(e->zName, "floor") == 0 ? SQG_I_FLOOR_D
                                        : SQG_I_CEIL_D;
  gen_val_init(pv, t, gen__reg(x));
  gen__op(x, SQG_IOP, pv->r, v.r, -1, m, op, SQG_R_NONE, d <= 0 ? -d : d, 0);
  return 0;
}

/* A date function's value map (cgx_valmap). */
static int gen_valmap(gen *x, const plan_valmap *vm, int m, gen_val *pv) {
  gen_key k = {CG_FIELD_MAP, -1, -1, -1, -1, 0, CG_ROLE_NONE, -1, vm};
  gen_val d;
  if (gen_column(x, vm->pCol, &d) != 0) return -1;
  gen_val_init(pv, vm->pExpr->b.type, gen__reg(x));
  gen__ins(x, SQG_MAP, pv->r, d.r, -1, m, gen_field_where(x, gen_match_map, &k, "a value map"),
           gen__f_role(x, CG_ROLE_MAP_MIN, -1, vm), gen__f_role(x, CG_ROLE_MAP_N, -1, vm),
           vm->bFloat, -1);
  return 0;
}

/* A string map (cgx_strmap): the entry summed input by input, then read. */
static int gen_strmap(gen *x, const plan_valmap *vm, int m, gen_val *pv) {
  gen_key k = {CG_FIELD_MAP, -1, -1, -1, -1, 0, CG_ROLE_NONE, -1, vm};
  int acc = -1;
  for (int i = 0; i < vm->nIn; i++) {
    const plan_mapin *in = &vm->aIn[i];
    gen_val v;
    int r;
    if (gen_column(x, in->pCol, &v) != 0) return -1;
    r = gen__reg(x);
    gen__op(x, SQG_MAPSTEP, r, v.r, acc, m, gen__f_role(x, CG_ROLE_MAPIN_LO, -1, in),
            gen__f_role(x, CG_ROLE_MAPIN_NULL, -1, in), gen__f_role(x, CG_ROLE_MAPIN_STRIDE, -1, in),
            -1);
    acc = r;
  }
  if (acc < 0) {                         /* no input: entry 0 */
    acc = gen__reg(x);
    gen__op(x, SQG_CONST, acc, -1, -1, m, 0, 0, -1, -1);
  }
  gen_val_init(pv, vm->pExpr->b.type, gen__reg(x));
  gen__ins(x, SQG_MAP, pv->r, acc, -1, m, gen_field_where(x, gen_match_map, &k, "a string map"),
           gen__f_role(x, CG_ROLE_MAP_N, -1, vm), gen__f_role(x, CG_ROLE_MAP_N, -1, vm), 2, -1);
  return 0;
}

int gen__expr(gen *x, const sql_expr *e, int m, gen_val *pv) {
  gen_val a;
  const plan_exprset *xs;
  if (x->bFail) return -1;
  if (x->bGroup && e->eKind != SQL_EXPR_COLUMN) {
    int j = plan_key_find(x->p, e);      /* an expression key: its register */
    if (j >= 0) {
      gen_val_init(pv, x->p->aKey[j].type, x->aKeyReg[j]);
      return 0;
    }
  }
  xs = x->p->nExprSet > 0 ? plan_exprset_find(x->p, e) : NULL;
  if (xs != NULL) return gen_exprset(x, xs, m, pv);
  if (x->p->nValMap > 0 && coltype_is_string(e->b.type) && plan_strmap_find(x->p, e) != NULL) {
    return gen_strmap(x, plan_strmap_find(x->p, e), m, pv);
  }
  switch (e->eKind) {
    case SQL_EXPR_COLUMN:
      return gen_column(x, e, pv);
    case SQL_EXPR_FUNC:
      if (e->b.iAgg < 0 && plan_valmap_find(x->p, e) != NULL) {
        return gen_valmap(x, plan_valmap_find(x->p, e), m, pv);
      }
      if (e->b.iAgg < 0 && e->pList != NULL && bind_math_func_name(e->zName)) {
        return gen_math(x, e, m, pv);
      }
      if (!x->bGroup || e->b.iAgg < 0) {
        gen__fail(x, "a function");
        return -1;
      }
      gen_val_init(pv, e->b.type, x->aAggReg[e->b.iAgg]);
      return 0;
    case SQL_EXPR_UNARY:
      if (gen__expr(x, e->pLeft, m, &a) != 0) return -1;
      if (e->eOp == SQL_OP_NOT) {
        *pv = a;
        pv->r = gen__reg(x);
        gen__op(x, SQG_NOT, pv->r, a.r, -1, m, -1, -1, -1, -1);
      } else if (e->eOp == SQL_OP_PLUS) {
        *pv = a;
      } else if (a.bFloat) {
        *pv = a;
        pv->r = gen__reg(x);
        gen__op(x, SQG_FOP, pv->r, a.r, -1, m, SQG_FO_NEG, -1, -1, -1);
      } else {
        *pv = a;
        pv->type = e->b.type;
        gen_int_result(x, pv, SQG_I_NEG, a.r, -1, m, 0);
      }
      return 0;
    case SQL_EXPR_BINARY:
      switch (e->eOp) {
        case SQL_OP_ADD: case SQL_OP_SUB: case SQL_OP_MUL: case SQL_OP_DIV: case SQL_OP_MOD:
          return gen_arith(x, e, m, pv);
        case SQL_OP_CONCAT:
          gen__fail(x, "||");
          return -1;
        case SQL_OP_AND:
        case SQL_OP_OR: {
          gen_val b;
          if (gen__expr(x, e->pLeft, m, &a) != 0 || gen__expr(x, e->pRight, m, &b) != 0) return -1;
          gen_bool_op(x, e->eOp == SQL_OP_AND ? SQG_AND3 : SQG_OR3, &a, &b, m, pv);
          return 0;
        }
        default: {
          gen_val b;
          if (gen__expr(x, e->pLeft, m, &a) != 0 || gen__expr(x, e->pRight, m, &b) != 0) return -1;
          return gen_compare_expr(x, e, e->eOp, a, b, m, pv);
        }
      }
    case SQL_EXPR_IS_NULL: {
      coltype tb = {COLTYPE_BOOLEAN, 0, 0, 0};
      if (gen__expr(x, e->pLeft, m, &a) != 0) return -1;
      gen_val_init(pv, tb, gen__reg(x));
      gen__op(x, SQG_ISNULL, pv->r, a.r, -1, m, e->bNot ? 1 : 0, -1, -1, -1);
      return 0;
    }
    case SQL_EXPR_BETWEEN:
      return gen_between(x, e, m, pv);
    case SQL_EXPR_IN:
      return gen_in(x, e, m, pv);
    case SQL_EXPR_CASE:
      return gen_case(x, e, m, pv);
    case SQL_EXPR_CAST:
      return gen_cast(x, e, m, pv);
    case SQL_EXPR_LIKE:
    case SQL_EXPR_STAR:
      gen__fail(x, "an expression codegen refuses");
      return -1;
    default:
      return gen_literal(x, e, m, pv);
  }
}

/* A condition's value (cg__cond): TRUE where the predicate is, over mask m. */
int gen__cond(gen *x, const plan_pred *q, int m, int *pr) {
  gen_val v;
  if (q->pCodes != NULL) {
    const plan_codeset *cs = q->pCodes;
    int c = x->aaReg[q->iSource][q->iDictCol];
    if (c < 0) {
      gen__fail(x, "a code set's column not loaded");
      return -1;
    }
    *pr = gen__reg(x);
    if (cs->nPass == 0) {
      gen__op(x, SQG_CONST, *pr, -1, -1, m, 0, 0, -1, -1);
    } else if (cs->bRange) {
      gen__op(x, SQG_CRANGE, *pr, c, -1, m, gen__f_role(x, CG_ROLE_CODES_LO, -1, q),
             gen__f_role(x, CG_ROLE_CODES_HI, -1, q), -1, -1);
    } else {
      gen_key k = {CG_FIELD_CODESET, -1, -1, -1, -1, 0, CG_ROLE_NONE, -1, cs->aBit};
      gen__op(x, SQG_CODES, *pr, c, -1, m, gen_field_where(x, gen_match_codes, &k, "a code set"), -1,
             -1, -1);
    }
    return 0;
  }
  if (gen__expr(x, q->pExpr, m, &v) != 0) return -1;
  *pr = v.r;
  return 0;
}

/* flag zInto &= q for flag 0's items (cg__emit_pred); its temporaries free
** after. */
int gen__pred(gen *x, const plan_pred *q, int iInto) {
  int r, nReg0 = x->nReg;
  if (gen__cond(x, q, 0, &r) != 0) return -1;
  gen__ins(x, SQG_FILTER, iInto, r, -1, 0, -1, -1, -1, -1, -1);
  x->nReg = nReg0;
  return 0;
}
