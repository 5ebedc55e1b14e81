/*
** codegen/final.c — codegen_build, and the kernels around the SCAN: INIT
** (an empty group table), FINAL (groups to output rows) and VALUES (a
** query without FROM), plus the result's columns and sort order.
*/
#include <stdio.h>
#include <string.h>

#include "codegenInt.h"

/* ---- outputs -------------------------------------------------------------------- */

/* The argument of e when e is a MIN or MAX aggregate, else NULL: over a
** string it is over codes or string-table indexes, whose order is the
** strings'. */
static const sql_expr *fin_minmax_arg(const sql_expr *e) {
  if (e->eKind != SQL_EXPR_FUNC || e->b.iAgg < 0 || e->pList == NULL || e->pList->n != 1) return NULL;
  if (strcmp(e->zName, "min") != 0 && strcmp(e->zName, "max") != 0) return NULL;
  return e->pList->a[0].pExpr;
}

/* 1 if values of type t are integers the host prints as text exactly as
** PostgreSQL's output function does (so text of them is made there). */
static int fin_host_printable(const sql_expr *v) {
  coltype t = v->b.type;
  if (v->eKind == SQL_EXPR_NULL) return 0;
  /* a DECIMAL column: kernels carry it at its type's scale */
  if (t.eId == COLTYPE_DECIMAL) return v->eKind == SQL_EXPR_COLUMN;
  return t.eId == COLTYPE_SMALLINT || t.eId == COLTYPE_INTEGER || t.eId == COLTYPE_BIGINT ||
         t.eId == COLTYPE_DATE;
}

/* If string value e is "[lit ||] v [|| lit]" of one value v the host can
** print (a number or date, or its cast to text or varchar(n)), fills o's
** host text fields and returns v; else NULL. A string output of a column
** too wide for a string map (lo_revenue::text) is made so, for outputs
** only: the kernels carry v, the result its text. */
static const sql_expr *fin_host_text(const sql_expr *e, cg_output *o) {
  if (e->eKind == SQL_EXPR_CAST && (e->b.type.eId == COLTYPE_TEXT || e->b.type.eId == COLTYPE_VARCHAR) &&
      fin_host_printable(e->pLeft)) {
    o->nTextLen = e->b.type.eId == COLTYPE_VARCHAR ? e->b.type.nLength : 0;
    return e->pLeft;
  }
  if (e->eKind == SQL_EXPR_BINARY && e->eOp == SQL_OP_CONCAT) {
    int bLitLeft = e->pLeft->eKind == SQL_EXPR_STRING, bLitRight = e->pRight->eKind == SQL_EXPR_STRING;
    const sql_expr *v = bLitLeft ? e->pRight : e->pLeft, *pInner;
    if (bLitLeft == bLitRight) return NULL;
    if (fin_host_printable(v)) pInner = v;
    else if ((pInner = fin_host_text(v, o)) == NULL || o->nTextLen > 0) return NULL;
    if (bLitLeft && *o->zPrefix == 0) o->zPrefix = e->pLeft->zText != NULL ? e->pLeft->zText : "";
    else if (bLitRight && *o->zSuffix == 0) o->zSuffix = e->pRight->zText != NULL ? e->pRight->zText : "";
    else return NULL;
    return pInner;
  }
  return NULL;
}

static int fin_output_add(cg_ctx *c, const sql_expr *e, const char *zName, coltype t, int bHidden) {
  cg_program *g = c->pProg;
  cg_output *o = &g->aOut[g->nOut];
  char zField[32];
  int i;
  memset(o, 0, sizeof(*o));
  o->zName = zName;
  o->pExpr = e;
  o->type = t;
  o->bFloat = t.eId == COLTYPE_DOUBLE;
  o->bHidden = bHidden;
  o->iSource = o->iColumn = -1;
  const sql_expr *pArg = fin_minmax_arg(e);
  if (coltype_is_string(t) && e->eKind == SQL_EXPR_COLUMN) {
    o->bDict = 1;
    o->iSource = e->b.iSource;
    o->iColumn = e->b.iColumn;
  } else if (coltype_is_string(t) && pArg != NULL &&
             (pArg->eKind == SQL_EXPR_COLUMN || plan_dictcase_column(pArg) != NULL)) {
    const sql_expr *pCol = pArg->eKind == SQL_EXPR_COLUMN ? pArg : plan_dictcase_column(pArg);
    o->bDict = 1;                        /* min/max of codes: a code */
    o->iSource = pCol->b.iSource;
    o->iColumn = pCol->b.iColumn;
  } else if (coltype_is_string(t) && pArg != NULL &&
             (plan_strlist_expr(pArg) || plan_strmap_find(c->p, pArg) != NULL)) {
    o->bStrList = 1;                     /* min/max of indexes: an index */
  } else if (coltype_is_string(t) || t.eId == COLTYPE_UNKNOWN) {
    if (!plan_strlist_expr(e) && plan_strmap_find(c->p, e) == NULL) {
      const sql_expr *v;
      o->zPrefix = o->zSuffix = "";
      if (!bHidden && (v = fin_host_text(e, o)) != NULL) {
        o->bHostText = 1;
        o->textOf = v->b.type;
        o->pExpr = v;
        goto fields;
      }
      sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                    "string values other than columns, literals and CASE of them are not "
                    "supported in results yet");
      return -1;
    }
    o->bStrList = 1;
    if (t.eId == COLTYPE_UNKNOWN) o->type = (coltype){COLTYPE_TEXT, 0, 0, 0};
  }
fields:
  snprintf(zField, sizeof(zField), "out%d", g->nOut);
  if ((i = cg__field(c, CG_FIELD_OUT_VALUE, zField)) < 0) return -1;
  g->aField[i].iOut = g->nOut;
  snprintf(zField, sizeof(zField), "out%d_null", g->nOut);
  if ((i = cg__field(c, CG_FIELD_OUT_NULL, zField)) < 0) return -1;
  g->aField[i].iOut = g->nOut;
  return g->nOut++;
}

int cg__outputs(cg_ctx *c) {
  const plan *p = c->p;
  const bound_select *b = p->pBound;
  const sql_expr_list *pOrder = p->pSelect->pOrderBy;
  cg_program *g = c->pProg;
  int nOrder = pOrder != NULL ? pOrder->n : 0;
  g->nStr = p->nStr;
  g->azStr = (const char **)p->azStr;
  g->aOut = arena_alloc(c->pArena, sizeof(cg_output) * (size_t)(b->nOutput + nOrder + 1));
  g->aSort = arena_alloc(c->pArena, sizeof(cg_sort) * (size_t)(nOrder + 1));
  if (g->aOut == NULL || g->aSort == NULL) return cg__oom(c);
  for (int i = 0; i < b->nOutput; i++) {
    if (fin_output_add(c, b->pItems->a[i].pExpr, b->aOutput[i].zName, b->aOutput[i].type, 0) < 0) {
      return -1;
    }
  }
  for (int i = 0; i < nOrder; i++) {
    const sql_expr_item *it = &pOrder->a[i];
    int iOut = -1;
    for (int j = 0; j < g->nOut && iOut < 0; j++) {
      if (g->aOut[j].pExpr == it->pExpr) iOut = j;
    }
    if (iOut < 0) iOut = fin_output_add(c, it->pExpr, "?sort?", it->pExpr->b.type, 1);
    if (iOut < 0) return -1;
    if (g->aOut[iOut].bHostText) {
      sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, it->pExpr->iOffset,
                    "ORDER BY the text of a value of a wide range is not supported yet");
      return -1;
    }
    g->aSort[i].iOut = iOut;
    g->aSort[i].bDesc = it->bDesc;
    g->aSort[i].bNullsFirst = it->eNulls == SQL_NULLS_FIRST ||
                              (it->eNulls == SQL_NULLS_DEFAULT && it->bDesc);
  }
  g->nSort = nOrder;
  if (cg__field(c, CG_FIELD_OUT_COUNT, "out_count") < 0 ||
      cg__field(c, CG_FIELD_OUT_CAP, "out_cap") < 0) {
    return -1;
  }
  return 0;
}

/* ---- INIT ------------------------------------------------------------------------ */

/* An emitter writing into s at indentation nIndent, in mode e; in group
** mode also the names of keys and aggregates. */
static int fin_cgx_init(cg_ctx *c, cgx *x, strbuf *s, int nIndent, cgx_mode e, int *pnTemp);

static void fin_slot_loop(cgx *x) {
  cg__line(x, "for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < a.group_slots;");
  cg__line(x, "     i += (long long)gridDim.x * blockDim.x) {");
  x->nIndent += 2;
}

void cg__emit_state_init(cgx *x, uint64_t nStride) {
  const plan *p = x->c->p;
  if (!p->bCountInSum) cg__line(x, "st[0] = 0;");   /* the row count */
  for (int i = 0; i < p->nAgg; i++) {
    const plan_agg *g = &p->aAgg[i];
    uint64_t iValue = (uint64_t)(g->iValueOffset / 8) * nStride;
    if (g->iCountOffset >= 0) {
      cg__line(x, "st[%llu] = 0;", (unsigned long long)((uint64_t)(g->iCountOffset / 8) * nStride));
    }
    if (g->iValueOffset < 0) continue;
    if (g->eFunc == PLAN_AGG_MIN || g->eFunc == PLAN_AGG_MAX) {
      int bMin = g->eFunc == PLAN_AGG_MIN;
      if (g->bFloat) {
        cg__line(x, "st[%llu] = %s;", (unsigned long long)iValue,
                 bMin ? "0x7ff0000000000000ll" : "(long long)0xfff0000000000000ull");
      } else {
        cg__line(x, "st[%llu] = %s;", (unsigned long long)iValue, bMin ? "INT64_MAX" : "INT64_MIN");
      }
    } else {
      cg__line(x, "st[%llu] = 0;   /* 0 and 0.0 have the same bits */", (unsigned long long)iValue);
    }
  }
}

int cg__emit_init(cg_ctx *c, strbuf *s) {
  const plan *p = c->p;
  cgx x;
  int nTemp = 0;
  if (fin_cgx_init(c, &x, s, 2, CGX_ROW, &nTemp) != 0) return -1;
  cg__kernel_begin(c, s, "q_init", CG_KERNEL_INIT, 0);
  strbuf_printf(s, "/* INIT: an empty group table (%s) */\n__global__ void q_init(const struct q_args a) {\n",
                groupby_kind_name(p->group.eKind));
  fin_slot_loop(&x);
  if (p->group.eKind == GROUPBY_HASH) cg__line(&x, "a.group_keys[i] = ~0ull;");
  cg__line(&x, "long long *st = a.groups + i * %d;", p->nStateByte / 8);
  cg__emit_state_init(&x, 1);
  x.nIndent -= 2;
  cg__line(&x, "}");
  cg__kernel_end(s, "q_init");
  return 0;
}

/* ---- FINAL ----------------------------------------------------------------------- */

/* Declares agg<i> and agg<i>_null: aggregate i's final value from state st. */
static void fin_agg_final(cgx *x, int i) {
  const plan *p = x->c->p;
  const plan_agg *g = &p->aAgg[i];
  char zCount[32];
  snprintf(zCount, sizeof(zCount), "st[%d]", g->iCountOffset >= 0 ? g->iCountOffset / 8 : 0);
  switch (g->eFunc) {
    case PLAN_AGG_COUNT_STAR:
    case PLAN_AGG_COUNT:
      cg__line(x, "long long agg%d = %s;", i, zCount);
      cg__line(x, "int agg%d_null = 0;", i);
      return;
    case PLAN_AGG_AVG:
      if (g->bFloat) {
        cg__line(x, "double agg%d = %s > 0 ? ((const double *)st)[%d] / (double)%s : 0.0;", i,
                 zCount, g->iValueOffset / 8, zCount);
      } else {
        int nScale = g->argType.eId == COLTYPE_DECIMAL ? g->argType.nScale : 0;
        cg__line(x, "double agg%d = %s > 0 ? (double)st[%d] / 1e%d / (double)%s : 0.0;", i, zCount,
                 g->iValueOffset / 8, nScale, zCount);
      }
      break;
    default:
      if (g->bFloat) cg__line(x, "double agg%d = ((const double *)st)[%d];", i, g->iValueOffset / 8);
      else cg__line(x, "long long agg%d = st[%d];", i, g->iValueOffset / 8);
      break;
  }
  cg__line(x, "int agg%d_null = %s == 0;", i, zCount);
}

static int fin_names(cg_ctx *c, cgx *x) {
  const plan *p = c->p;
  int n = p->nKey + p->nAgg + 1;
  x->azKey = arena_alloc(c->pArena, sizeof(char *) * (size_t)n);
  x->azKeyNull = arena_alloc(c->pArena, sizeof(char *) * (size_t)n);
  x->azAgg = arena_alloc(c->pArena, sizeof(char *) * (size_t)n);
  x->azAggNull = arena_alloc(c->pArena, sizeof(char *) * (size_t)n);
  if (!x->azKey || !x->azKeyNull || !x->azAgg || !x->azAggNull) return cg__oom(c);
  for (int i = 0; i < p->nKey || i < p->nAgg; i++) {
    char z[32];
    snprintf(z, sizeof(z), "key%d", i);
    x->azKey[i] = arena_strndup(c->pArena, z, strlen(z));
    snprintf(z, sizeof(z), "key%d_null", i);
    x->azKeyNull[i] = arena_strndup(c->pArena, z, strlen(z));
    snprintf(z, sizeof(z), "agg%d", i);
    x->azAgg[i] = arena_strndup(c->pArena, z, strlen(z));
    snprintf(z, sizeof(z), "agg%d_null", i);
    x->azAggNull[i] = arena_strndup(c->pArena, z, strlen(z));
    if (!x->azKey[i] || !x->azKeyNull[i] || !x->azAgg[i] || !x->azAggNull[i]) return cg__oom(c);
  }
  return 0;
}

static int fin_cgx_init(cg_ctx *c, cgx *x, strbuf *s, int nIndent, cgx_mode e, int *pnTemp) {
  memset(x, 0, sizeof(*x));
  x->c = c;
  x->s = s;
  x->nIndent = nIndent;
  x->pnTemp = pnTemp;
  x->eMode = e;
  return e == CGX_GROUP ? fin_names(c, x) : 0;
}

/* HAVING, the output expressions, and the row write, in group mode. */
static int fin_emit_rows(cgx *x, const sql_expr *pHaving) {
  const cg_program *g = x->c->pProg;
  cg_val *aV = arena_alloc(x->c->pArena, sizeof(cg_val) * (size_t)(g->nOut + 1));
  if (aV == NULL) return cg__oom(x->c);
  if (pHaving != NULL) {
    plan_pred q;
    char zFlag[512];
    memset(&q, 0, sizeof(q));
    q.pExpr = (sql_expr *)pHaving;
    q.iDictCol = -1;
    cg__line(x, "/* HAVING */");
    if (cg__cond(x, &q, zFlag, sizeof(zFlag)) != 0) return -1;
    cg__line(x, "if (!%s) continue;", zFlag);
  }
  for (int i = 0; i < g->nOut; i++) {
    if (cg__expr(x, g->aOut[i].pExpr, &aV[i]) != 0) return -1;
    if (g->aOut[i].bFloat || g->aOut[i].type.eId == COLTYPE_DECIMAL) cg__as(x, &aV[i], g->aOut[i].type);
  }
  cg__emit_out_write(x, aV);
  return 0;
}

int cg__emit_final(cg_ctx *c, strbuf *s) {
  const plan *p = c->p;
  const groupby_plan *gp = &p->group;
  cgx x;
  int nTemp = 0;
  if (fin_cgx_init(c, &x, s, 2, CGX_GROUP, &nTemp) != 0) return -1;
  cg__kernel_begin(c, s, "q_final", CG_KERNEL_FINAL, 0);
  strbuf_puts(s, "/* FINAL: each group becomes an output row */\n"
                 "__global__ void q_final(const struct q_args a) {\n");
  fin_slot_loop(&x);
  cg__line(&x, "const long long *st = a.groups + i * %d;", p->nStateByte / 8);
  if (gp->eKind == GROUPBY_HASH) {
    cg__line(&x, "unsigned long long code = a.group_keys[i];");
    cg__line(&x, "if (code == ~0ull) continue;");
  } else if (gp->eKind == GROUPBY_DENSE) {
    cg__line(&x, "if (st[0] == 0) continue;");
    cg__line(&x, "unsigned long long code = (unsigned long long)i;");
  }
  for (int j = 0; j < p->nKey; j++) {
    if (p->aKey[j].bExpr) {
      strbuf e;
      strbuf_init(&e);
      sql_expr_deparse(&e, p->aKey[j].pExpr);
      cg__comment_line(x.s, x.nIndent, "%s", strbuf_error(&e) ? "an expression" : strbuf_str(&e));
      strbuf_free(&e);
    } else {
      cg__comment_line(x.s, x.nIndent, "%s", p->aKey[j].pExpr->zName);
    }
    cg__line(&x, "long long key%d = (long long)(code / (unsigned long long)a.g_stride%d %% (unsigned long long)a.g_dom%d);",
             j, j, j);
    if (p->aKey[j].bNullable) cg__line(&x, "int key%d_null = key%d == a.g_dom%d - 1;", j, j, j);
    else cg__line(&x, "int key%d_null = 0;", j);
    cg__line(&x, "key%d += a.g_min%d;", j, j);
  }
  for (int i = 0; i < p->nAgg; i++) fin_agg_final(&x, i);
  if (fin_emit_rows(&x, p->pSelect->pHaving) != 0) return -1;
  x.nIndent -= 2;
  cg__line(&x, "}");
  cg__kernel_end(s, "q_final");
  return 0;
}

int cg__emit_values(cg_ctx *c, strbuf *s) {
  const plan *p = c->p;
  cgx x;
  int nTemp = 0;
  if (fin_cgx_init(c, &x, s, 4, CGX_GROUP, &nTemp) != 0) return -1;
  cg__kernel_begin(c, s, "q_values", CG_KERNEL_VALUES, 0);
  strbuf_puts(s, "/* VALUES: one row, no table */\n__global__ void q_values(const struct q_args a) {\n"
                 "  for (int once = blockIdx.x == 0 && threadIdx.x == 0; once; once = 0) {\n");
  for (int i = 0; i < p->nFactPred; i++) {
    char zFlag[512];
    if (cg__cond(&x, &p->aFactPred[i], zFlag, sizeof(zFlag)) != 0) return -1;
    cg__line(&x, "if (!%s) continue;", zFlag);
  }
  if (fin_emit_rows(&x, NULL) != 0) return -1;
  strbuf_puts(s, "  }\n");
  cg__kernel_end(s, "q_values");
  return 0;
}

/* ---- the program ---------------------------------------------------------------- */

/* The C type of a pointer to plain values of type t. */
static const char *fin_values_type(coltype t) {
  switch (t.eId) {
    case COLTYPE_SMALLINT: return "const short *";
    case COLTYPE_INTEGER: case COLTYPE_DATE: return "const int *";
    case COLTYPE_BIGINT: case COLTYPE_DECIMAL: return "const long long *";
    case COLTYPE_DOUBLE: return "const double *";
    default: return "const unsigned *";
  }
}

static const char *fin_field_type(const cg_ctx *c, const cg_field *f) {
  switch (f->eKind) {
    case CG_FIELD_COLUMN: {
      coltype t = c->p->aSource[f->iSource].pTable->aCol[f->iColumn].type;
      if (cg__col_packed(c->p, f->iSource, f->iColumn)) return "const unsigned long long *";
      return fin_values_type(t);
    }
    case CG_FIELD_PLAIN:
      return fin_values_type(c->p->aSource[f->iSource].pTable->aCol[f->iColumn].type);
    case CG_FIELD_VALID: case CG_FIELD_CODESET: return "const unsigned long long *";
    case CG_FIELD_INLIST: case CG_FIELD_MAP: return "const long long *";
    case CG_FIELD_LOOKUP: case CG_FIELD_OUT_VALUE: return "void *";
    case CG_FIELD_GROUPS: return "long long *";
    case CG_FIELD_GROUP_KEYS: case CG_FIELD_OUT_COUNT: return "unsigned long long *";
    case CG_FIELD_OUT_NULL: return "unsigned char *";
    case CG_FIELD_ERROR: return "unsigned *";
    case CG_FIELD_PACKED: return "const unsigned *";
    case CG_FIELD_PARAM_FLOAT: return "double ";
    default: return "long long ";
  }
}

static int fin_group_fields(cg_ctx *c) {
  const plan *p = c->p;
  int i;
  if (cg__field(c, CG_FIELD_GROUPS, "groups") < 0 ||
      cg__field(c, CG_FIELD_GROUP_SLOTS, "group_slots") < 0) {
    return -1;
  }
  if (p->group.eKind == GROUPBY_HASH &&
      (cg__field(c, CG_FIELD_GROUP_KEYS, "group_keys") < 0 ||
       cg__field(c, CG_FIELD_GROUP_MASK, "group_mask") < 0)) {
    return -1;
  }
  for (int j = 0; j < p->nKey; j++) {
    char z[32];
    snprintf(z, sizeof(z), "g_min%d", j);
    if ((i = cg__param_role(c, z, p->group.aMin[j], CG_ROLE_GROUP_MIN, j)) < 0) return -1;
    snprintf(z, sizeof(z), "g_dom%d", j);
    if ((i = cg__param_role(c, z, (int64_t)p->group.aDomain[j], CG_ROLE_GROUP_DOM, j)) < 0) return -1;
    snprintf(z, sizeof(z), "g_stride%d", j);
    if ((i = cg__param_role(c, z, (int64_t)p->group.aStride[j], CG_ROLE_GROUP_STRIDE, j)) < 0) {
      return -1;
    }
  }
  /* The hot groups' codes come from statistics: parameters, so that the
  ** source says only how many there are and their replicas. */
  for (int h = 0; cg__group_shared(p) && h < p->group.nHot; h++) {
    char z[32];
    snprintf(z, sizeof(z), "g_hot%d", h);
    if ((i = cg__param(c, z, (int64_t)p->group.aHotCode[h])) < 0) return -1;
  }
  return 0;
}

/* The most times a full HASH group table is doubled: past 2^40 slots no
** device holds it (groupby_plan_grow stops before). */
#define FIN_GROW_MAX 40

/* Puts into g what the runtime reads besides the fields: the tables, the
** fact, the lookups' sizes, the estimate, the group table's block size and
** the slots a full hash table grows to. Returns 0, or -1 (memory). */
static int fin_run_facts(const plan *p, arena *pArena, cg_program *g) {
  const cat_table **apTable = arena_alloc(pArena, sizeof(*apTable) * (size_t)(p->nSource + 1));
  uint64_t *anLookup = arena_alloc(pArena, sizeof(uint64_t) * (size_t)(p->nDim + 1));
  uint64_t *aGrow = arena_alloc(pArena, sizeof(uint64_t) * FIN_GROW_MAX);
  groupby_plan gp = p->group;
  if (apTable == NULL || anLookup == NULL || aGrow == NULL) return -1;
  for (int s = 0; s < p->nSource; s++) apTable[s] = p->aSource[s].pTable;
  for (int d = 0; d < p->nDim; d++) anLookup[d] = p->aDim[d].lookup.nAllocByte;
  g->nTable = p->nSource;
  g->apTable = apTable;
  g->iFact = p->iFact;
  g->nLookup = p->nDim;
  g->anLookupByte = anLookup;
  g->bAggregate = p->bAggregate;
  g->nRowEstimate = p->nRowOut;
  g->nScanThread = p->bAggregate && p->group.nThread > 0 ? p->group.nThread : 0;
  while (p->bAggregate && g->nGroupGrow < FIN_GROW_MAX && groupby_plan_grow(&gp, &p->model.dev) == 0) {
    aGrow[g->nGroupGrow++] = gp.nSlot;
  }
  g->aGroupGrow = aGrow;
  return 0;
}

int codegen_build(const plan *p, arena *pArena, cg_program *g, sql_error *pErr) {
  cg_ctx c;
  strbuf body;
  int rc = -1;
  memset(g, 0, sizeof(*g));
  memset(&c, 0, sizeof(c));
  c.p = p;
  c.pArena = pArena;
  c.pErr = pErr;
  c.pProg = g;
  g->nLimit = p->pBound->nLimit;
  g->nOffset = p->pBound->nOffset;
  g->bFalse = p->bFalse;
  g->nStateByte = p->nStateByte;
  g->bGroupHash = p->bAggregate && p->group.eKind == GROUPBY_HASH;
  g->bGroupScalar = p->bAggregate && p->group.eKind == GROUPBY_SCALAR;
  g->nGroupSlot = p->bAggregate ? p->group.nSlot : 0;
  strbuf_init(&body);
  strbuf_init(&g->src);
  if (fin_run_facts(p, pArena, g) != 0) goto oom;
  c.aazColVar = arena_alloc(pArena, sizeof(char **) * (size_t)(p->nSource + 1));
  g->aKernel = arena_alloc(pArena, sizeof(cg_kernel) * (size_t)(p->nDim + 5));
  if (c.aazColVar == NULL || g->aKernel == NULL) goto oom;
  for (int s = 0; s < p->nSource; s++) {
    c.aazColVar[s] = arena_alloc(pArena, sizeof(char *) * (size_t)(p->aSource[s].pTable->nCol + 1));
    if (c.aazColVar[s] == NULL) goto oom;
  }
  if (cg__field(&c, CG_FIELD_ERROR, "err") < 0) goto out;
  if (p->bAggregate && fin_group_fields(&c) != 0) goto out;
  if (cg__outputs(&c) != 0) goto out;
  if (p->eKind == PLAN_VALUES) {
    if (p->bAggregate) {
      sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                    "aggregates without FROM are not supported");
      goto out;
    }
    if (cg__emit_values(&c, &body) != 0) goto out;
  } else {
    for (int d = 0; d < p->nDim; d++) {
      if (cg__emit_build(&c, d, &body) != 0) goto out;
    }
    if (p->bAggregate && cg__emit_init(&c, &body) != 0) goto out;
    if (cg__emit_scan(&c, &body) != 0) goto out;
    if (p->bAggregate && cg__emit_final(&c, &body) != 0) goto out;
  }

  strbuf_puts(&g->src, codegen_device_library);
  strbuf_puts(&g->src, "\n/* ---- the query ---- */\n\nstruct q_args {\n");
  for (int i = 0; i < g->nField; i++) {
    strbuf_printf(&g->src, "  %s%s;\n", fin_field_type(&c, &g->aField[i]), g->aField[i].zName);
  }
  strbuf_puts(&g->src, "};\n\n");
  strbuf_append(&g->src, strbuf_str(&body), body.n);
  if (strbuf_error(&g->src) || strbuf_error(&body)) goto oom;
  g->hSrc = hash128_of(strbuf_str(&g->src), g->src.n, 0);
  rc = codegen_generic_build(p, pArena, g, pErr);
  goto out;
oom:
  cg__oom(&c);
out:
  strbuf_free(&body);
  return rc;
}

void codegen_free(cg_program *g) { strbuf_free(&g->src); }
