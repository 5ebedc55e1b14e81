/*
** codegen/generic.c — a plan as the generic kernels' program: the
** instructions of codegen/generic-ops.h that codegen/device-generic.cuh
** runs. Each step is the step codegen writes as C for the same plan (the
** writers follow emit.c, scan.c, final.c and expr.c one for one:
** genericInt.h says which file has which), so the generic run loads the
** same columns, evaluates the same conditions in the same order and
** grouping, raises the same errors and gives the same rows; it only reads
** its plan from its arguments instead of being compiled from it.
**
** The program shares codegen's fields (the runtime fills them as for the
** compiled kernels), which is why codegen's parameters say what they hold
** (cg_field.eRole): a literal's parameter is found by its sql_expr, a code
** range's by its predicate, a lookup's by its dimension.
**
** What the generic kernels cannot run — more registers, flags,
** accumulators, kernels or argument words than they have — leaves
** g->pGeneric NULL with the reason: that shape waits for its own kernels,
** as before.
**
** INTERFACE ROUTINES
**   codegen_generic_build   plan -> g->pGeneric (codegen.h)
**   codegen_kernel_select   a launch's kernel, in its argument block
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "genericInt.h"

/* ---- writing ---------------------------------------------------------------- */

void gen__fail(gen *x, const char *zFmt, ...) {
  va_list ap;
  if (x->bFail) return;
  x->bFail = 1;
  va_start(ap, zFmt);
  vsnprintf(x->zWhy, sizeof(x->zWhy), zFmt, ap);
  va_end(ap);
}

/* Appends one instruction: opcode and up to nine operands (unset: -1). */
void gen__ins(gen *x, int op, int d, int a, int b, int m, int ox, int oy, int oz, int ou,
                    int ov) {
  int *in;
  if (x->bFail) return;
  if (x->nCode + SQG_INS > x->nAlloc) {
    int nNew = x->nAlloc ? 2 * x->nAlloc : 1024;
    int *aNew = arena_alloc(x->pArena, sizeof(int) * (size_t)nNew);
    if (aNew == NULL) {
      gen__fail(x, "out of memory");
      return;
    }
    if (x->nCode) memcpy(aNew, x->aCode, sizeof(int) * (size_t)x->nCode);
    x->aCode = aNew;
    x->nAlloc = nNew;
  }
  in = &x->aCode[x->nCode];
  in[SQG_O_OP] = op;
  in[SQG_O_D] = d;
  in[SQG_O_A] = a;
  in[SQG_O_B] = b;
  in[SQG_O_M] = m;
  in[SQG_O_X] = ox;
  in[SQG_O_Y] = oy;
  in[SQG_O_Z] = oz;
  in[SQG_O_U] = ou;
  in[SQG_O_V] = ov;
  x->nCode += SQG_INS;
}

/* The shortest forms: a value instruction d = op(a, b) over mask m. */
void gen__op(gen *x, int op, int d, int a, int b, int m, int ox, int oy, int oz, int ou) {
  gen__ins(x, op, d, a, b, m, ox, oy, oz, ou, -1);
}

int gen__reg(gen *x) {
  if (x->nReg >= SQG_NREG) {
    gen__fail(x, "more than %d registers", SQG_NREG);
    return 0;
  }
  return x->nReg++;
}

int gen__flag(gen *x) {
  if (x->nFlag >= SQG_NFLAG) {
    gen__fail(x, "more than %d flags", SQG_NFLAG);
    return 0;
  }
  return x->nFlag++;
}

/* ---- sections ------------------------------------------------------------------ */

/* Opens a kernel's section: its entry, its header, and a clean register
** file. The header's offsets are set as its runs end (gen__run_end). */
void gen__section(gen *x, int iKernel, int eKind, int iRows, int iSlots) {
  const plan *p = x->p;
  x->aCode[iKernel] = x->nCode;
  x->iHead = x->nCode;
  gen__ins(x, eKind, iRows, iSlots, -1, -1, gen__f_kind(x, CG_FIELD_ERROR), -1, -1, -1, -1);
  if (x->bFail) return;
  /* the header's slots (SQG_H_*), not an instruction's */
  x->aCode[x->iHead + SQG_H_KIND] = eKind;
  x->aCode[x->iHead + SQG_H_ROWS] = iRows;
  x->aCode[x->iHead + SQG_H_SLOTS] = iSlots;
  x->aCode[x->iHead + SQG_H_ERR] = gen__f_kind(x, CG_FIELD_ERROR);
  for (int s = 0; s < p->nSource; s++) {
    for (int i = 0; i < p->aSource[s].pTable->nCol; i++) x->aaReg[s][i] = -1;
  }
  for (int d = 0; d < p->nDim; d++) x->aRowReg[d] = -1;
  x->nReg = 0;
  x->nFlag = 1;
}

/* Ends the section's current run; iSlot: SQG_H_BODY or SQG_H_POST for the
** run that starts next, -1 after the last. */
void gen__run_end(gen *x, int iSlot) {
  gen__ins(x, SQG_END, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  if (!x->bFail && iSlot >= 0) x->aCode[x->iHead + iSlot] = x->nCode - x->iHead;
}

/* ---- BUILD (cg__emit_build) ------------------------------------------------------ */

static void gen_build(gen *x, int iKernel, int d) {
  const plan *p = x->p;
  const plan_dim *pDim = &p->aDim[d];
  const plan_lookup *l = &pDim->lookup;
  const cat_table *t = p->aSource[pDim->iSource].pTable;
  int s = pDim->iSource, iKey, eKind;
  gen__section(x, iKernel, SQG_K_TILE, gen__f_nrow(x, s), -1);
  gen__run_end(x, SQG_H_BODY);
  if (l->bDense) {
    gen__load(x, s, pDim->iKeyCol, -1);
    gen__ins(x, SQG_DENSE_CHECK, -1, x->aaReg[s][pDim->iKeyCol], -1, 0,
            gen__f_role(x, CG_ROLE_LUT_MIN, d, NULL), gen__f_lookup(x, d, l->nMovedOff), -1, -1, -1);
  }
  for (int q = 0; q < pDim->nPred; q++) {
    gen__load_expr(x, pDim->aPred[q].pExpr, s);
    if (gen__pred(x, &pDim->aPred[q], 0) != 0) return;
  }
  gen__load(x, s, pDim->iKeyCol, -1);
  iKey = x->aaReg[s][pDim->iKeyCol];
  if (!t->aCol[pDim->iKeyCol].bNotNull) {
    gen__ins(x, SQG_FNOTNULL, 0, iKey, -1, -1, -1, -1, -1, -1, -1);   /* NULL never joins */
  }
  eKind = l->eKind == PLAN_LOOKUP_HASH ? SQG_L_HASH : l->eKind == PLAN_LOOKUP_DATE ? SQG_L_DATE
                                                                                   : SQG_L_ARRAY;
  gen__ins(x, SQG_INSERT, -1, iKey, -1, 0, gen__f_lookup(x, d, 0), eKind,
          gen__f_role(x, CG_ROLE_LUT_MIN, d, NULL), gen__f_role(x, CG_ROLE_LUT_SLOTS, d, NULL),
          l->bBits && eKind != SQG_L_HASH ? gen__f_lookup(x, d, l->nBitOff) : -1);
  if (l->bBits && eKind != SQG_L_HASH) {
    gen__ins(x, SQG_BITS, -1, -1, -1, -1, gen__f_role(x, CG_ROLE_LUT_BMIN, d, NULL),
            gen__f_role(x, CG_ROLE_LUT_BSLOTS, d, NULL), -1, -1, -1);
  }
  gen__run_end(x, SQG_H_POST);
  gen__run_end(x, -1);
}

/* ---- INIT and FINAL (final.c) ---------------------------------------------------- */

/* The initial values of a slot's state (cg__emit_state_init). */
static void gen_state_init(gen *x, int iGroups) {
  const plan *p = x->p;
  int nState = p->nStateByte / 8;
  if (!p->bCountInSum) gen__ins(x, SQG_INIT_WORD, -1, -1, -1, -1, iGroups, nState, 0, SQG_V_ZERO, -1);
  for (int i = 0; i < p->nAgg; i++) {
    const plan_agg *g = &p->aAgg[i];
    int v = SQG_V_ZERO;
    if (g->iCountOffset >= 0) {
      gen__ins(x, SQG_INIT_WORD, -1, -1, -1, -1, iGroups, nState, g->iCountOffset / 8, SQG_V_ZERO, -1);
    }
    if (g->iValueOffset < 0) continue;
    if (g->eFunc == PLAN_AGG_MIN) v = g->bFloat ? SQG_V_FMAX : SQG_V_MAX;
    if (g->eFunc == PLAN_AGG_MAX) v = g->bFloat ? SQG_V_FMIN : SQG_V_MIN;
    gen__ins(x, SQG_INIT_WORD, -1, -1, -1, -1, iGroups, nState, g->iValueOffset / 8, v, -1);
  }
}

static void gen_init(gen *x, int iKernel) {
  gen__section(x, iKernel, SQG_K_SLOT, -1, gen__f_kind(x, CG_FIELD_GROUP_SLOTS));
  gen__run_end(x, SQG_H_BODY);
  if (x->p->group.eKind == GROUPBY_HASH) {
    gen__ins(x, SQG_INIT_KEY, -1, -1, -1, -1, gen__f_kind(x, CG_FIELD_GROUP_KEYS), -1, -1, -1, -1);
  }
  gen_state_init(x, gen__f_kind(x, CG_FIELD_GROUPS));
  gen__run_end(x, SQG_H_POST);
  gen__run_end(x, -1);
}

/* The output row of the values in aR (cg__emit_out_write), for mask m. */
void gen__out_write(gen *x, const int *aR, int m) {
  const cg_program *g = x->g;
  int iIdx = gen__reg(x), mOk = gen__flag(x);
  gen__ins(x, SQG_OUT_IDX, iIdx, -1, mOk, m, gen__f_kind(x, CG_FIELD_OUT_COUNT),
          gen__f_kind(x, CG_FIELD_OUT_CAP), -1, -1, -1);
  for (int i = 0; i < g->nOut; i++) {
    gen__ins(x, SQG_OUT_COL, -1, aR[i], iIdx, mOk, gen__f_out(x, CG_FIELD_OUT_VALUE, i),
            gen__f_out(x, CG_FIELD_OUT_NULL, i), -1, -1, -1);
  }
}

/* HAVING, the outputs and the row write, in group mode (fin_emit_rows). */
static int gen_rows(gen *x, const sql_expr *pHaving) {
  const cg_program *g = x->g;
  int *aR = arena_alloc(x->pArena, sizeof(int) * (size_t)(g->nOut + 1));
  if (aR == NULL) {
    gen__fail(x, "out of memory");
    return -1;
  }
  if (pHaving != NULL) {
    plan_pred q;
    int r;
    memset(&q, 0, sizeof(q));
    q.pExpr = (sql_expr *)pHaving;
    q.iDictCol = -1;
    if (gen__cond(x, &q, 0, &r) != 0) return -1;
    gen__ins(x, SQG_SKIPIFNOT, -1, r, -1, 0, -1, -1, -1, -1, -1);
  }
  for (int i = 0; i < g->nOut; i++) {
    gen_val v;
    if (gen__expr(x, g->aOut[i].pExpr, 0, &v) != 0) return -1;
    if (g->aOut[i].bFloat || g->aOut[i].type.eId == COLTYPE_DECIMAL) gen__as(x, &v, g->aOut[i].type, 0);
    aR[i] = v.r;
  }
  gen__out_write(x, aR, 0);
  return 0;
}

/* Group mode's key and aggregate registers. */
static int gen_group_regs(gen *x) {
  const plan *p = x->p;
  x->aKeyReg = arena_alloc(x->pArena, sizeof(int) * (size_t)(p->nKey + 1));
  x->aAggReg = arena_alloc(x->pArena, sizeof(int) * (size_t)(p->nAgg + 1));
  if (x->aKeyReg == NULL || x->aAggReg == NULL) {
    gen__fail(x, "out of memory");
    return -1;
  }
  x->bGroup = 1;
  return 0;
}

static void gen_final(gen *x, int iKernel) {
  const plan *p = x->p;
  const groupby_plan *gp = &p->group;
  int iGroups = gen__f_kind(x, CG_FIELD_GROUPS), nState = p->nStateByte / 8, iCode, eSlot;
  gen__section(x, iKernel, SQG_K_SLOT, -1, gen__f_kind(x, CG_FIELD_GROUP_SLOTS));
  gen__run_end(x, SQG_H_BODY);
  if (gen_group_regs(x) != 0) return;
  iCode = gen__reg(x);
  eSlot = gp->eKind == GROUPBY_HASH ? 1 : gp->eKind == GROUPBY_DENSE ? 0 : 2;
  gen__ins(x, SQG_FIN_SLOT, iCode, -1, -1, -1, eSlot, iGroups, nState,
          gp->eKind == GROUPBY_HASH ? gen__f_kind(x, CG_FIELD_GROUP_KEYS) : -1, -1);
  for (int j = 0; j < p->nKey; j++) {
    x->aKeyReg[j] = gen__reg(x);
    gen__ins(x, SQG_FIN_KEY, x->aKeyReg[j], iCode, -1, -1,
            gen__f_role(x, CG_ROLE_GROUP_STRIDE, j, NULL), gen__f_role(x, CG_ROLE_GROUP_DOM, j, NULL),
            gen__f_role(x, CG_ROLE_GROUP_MIN, j, NULL), p->aKey[j].bNullable, -1);
  }
  for (int i = 0; i < p->nAgg; i++) {
    const plan_agg *g = &p->aAgg[i];
    int iCount = g->iCountOffset >= 0 ? g->iCountOffset / 8 : 0, eKind = SQG_FA_VALUE, nScale = 0;
    switch (g->eFunc) {
      case PLAN_AGG_COUNT_STAR: case PLAN_AGG_COUNT: eKind = SQG_FA_COUNT; break;
      case PLAN_AGG_AVG:
        eKind = g->bFloat ? SQG_FA_AVG_F : SQG_FA_AVG_I;
        nScale = g->argType.eId == COLTYPE_DECIMAL ? g->argType.nScale : 0;
        break;
      default: break;
    }
    x->aAggReg[i] = gen__reg(x);
    gen__ins(x, SQG_FIN_AGG, x->aAggReg[i], -1, nScale, -1, eKind, g->iValueOffset / 8, iCount,
            iGroups, nState);
  }
  if (gen_rows(x, p->pSelect->pHaving) != 0) return;
  gen__run_end(x, SQG_H_POST);
  gen__run_end(x, -1);
  x->bGroup = 0;
}

static void gen_values(gen *x, int iKernel) {
  const plan *p = x->p;
  gen__section(x, iKernel, SQG_K_ONCE, -1, -1);
  gen__run_end(x, SQG_H_BODY);
  if (gen_group_regs(x) != 0) return;
  for (int i = 0; i < p->nFactPred; i++) {
    int r;
    if (gen__cond(x, &p->aFactPred[i], 0, &r) != 0) return;
    gen__ins(x, SQG_SKIPIFNOT, -1, r, -1, 0, -1, -1, -1, -1, -1);
  }
  if (gen_rows(x, NULL) != 0) return;
  gen__run_end(x, SQG_H_POST);
  gen__run_end(x, -1);
  x->bGroup = 0;
}

/* ---- the program ------------------------------------------------------------------ */

void codegen_kernel_select(const cg_program *g, uint64_t *aArg, int iKernel) {
  if (g->bGeneric) aArg[SQG_W_KERNEL] = (uint64_t)iKernel;
}

/* The instructions of every kernel of g, in g's kernel order. */
static void gen_program(gen *x) {
  const cg_program *g = x->g;
  x->nCode = g->nKernel;                   /* the entries, set per section */
  if (x->nCode > x->nAlloc) gen__fail(x, "out of memory");
  for (int i = 0; i < g->nKernel && !x->bFail; i++) {
    const cg_kernel *k = &g->aKernel[i];
    switch (k->eKind) {
      case CG_KERNEL_BUILD: gen_build(x, i, k->iDim); break;
      case CG_KERNEL_INIT: gen_init(x, i); break;
      case CG_KERNEL_SCAN: gen__scan(x, i); break;
      case CG_KERNEL_FINAL: gen_final(x, i); break;
      default: gen_values(x, i); break;
    }
  }
}

/* The generic program of g: its fields and kernels, and the
** instructions after the fields, padded to SQG_WORDS words whose last
** says where they start. */
static int gen_finish(gen *x, cg_program *g) {
  cg_program *q;
  uint64_t *aTail;
  int nWord = (x->nCode + 1) / 2, nTail = SQG_WORDS - g->nField;
  if (g->nField + nWord + 2 > SQG_WORDS) {
    gen__fail(x, "%d argument words, more than %d", g->nField + nWord + 2, SQG_WORDS);
    return 0;
  }
  q = arena_alloc(x->pArena, sizeof(*q));
  aTail = arena_alloc(x->pArena, sizeof(uint64_t) * (size_t)nTail);
  if (q == NULL || aTail == NULL) return -1;
  memcpy(q, g, sizeof(*q));
  strbuf_init(&q->src);
  q->hSrc.h1 = q->hSrc.h2 = 0;
  q->pGeneric = NULL;
  q->bGeneric = 1;
  q->nArgWord = SQG_WORDS;
  memset(aTail, 0, sizeof(uint64_t) * (size_t)nTail);
  memcpy(aTail, x->aCode, sizeof(int) * (size_t)x->nCode);
  aTail[SQG_W_CODE - g->nField] = (uint64_t)g->nField;
  q->aArgTail = aTail;
  g->pGeneric = q;
  return 0;
}

int codegen_generic_build(const plan *p, arena *pArena, cg_program *g, sql_error *pErr) {
  gen x;
  memset(&x, 0, sizeof(x));
  x.p = p;
  x.g = g;
  x.pArena = pArena;
  g->pGeneric = NULL;
  g->zGenericWhy = NULL;
  x.aaReg = arena_alloc(pArena, sizeof(int *) * (size_t)(p->nSource + 1));
  x.aRowReg = arena_alloc(pArena, sizeof(int) * (size_t)(p->nDim + 1));
  if (x.aaReg == NULL || x.aRowReg == NULL) goto oom;
  for (int s = 0; s < p->nSource; s++) {
    x.aaReg[s] = arena_alloc(pArena, sizeof(int) * (size_t)(p->aSource[s].pTable->nCol + 1));
    if (x.aaReg[s] == NULL) goto oom;
  }
  if (g->nKernel > SQG_KERNELS) {
    gen__fail(&x, "%d kernels, more than %d", g->nKernel, SQG_KERNELS);
  } else {
    gen__ins(&x, SQG_END, -1, -1, -1, -1, -1, -1, -1, -1, -1);   /* room for the entries */
    gen_program(&x);
    if (!x.bFail && gen_finish(&x, g) != 0) goto oom;
  }
  if (x.bFail) {
    if (strcmp(x.zWhy, "out of memory") == 0) goto oom;
    g->zGenericWhy = arena_strndup(pArena, x.zWhy, strlen(x.zWhy));
  }
  return 0;
oom:
  sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while generating code");
  return -1;
}
