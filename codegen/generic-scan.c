/*
** codegen/generic-scan.c — the SCAN's section of the generic program,
** scan.c's steps as instructions: the conditions in the optimizer's order
** and grouping (a `&&` as SQG_ANY, a `&` group's pass and hit flags), the
** probes, the row indexes of payload dimensions, the residuals, then each
** item's group slot and aggregate updates (scalar ones in a thread's
** accumulators, flushed after the tiles) or its output row. Group tables
** stay in global memory: a shared-memory table and its replicas are how
** the compiled SCAN gets there faster, with the same states at the end.
*/
#include "genericInt.h"

/* ---- SCAN (scan.c) ------------------------------------------------------------- */

static int gen_sum_checked(const plan *p, const plan_agg *g) {
  coltype t = g->argType;
  return !(t.eId == COLTYPE_SMALLINT || t.eId == COLTYPE_INTEGER) || p->nFactRow >= 4294967296.0;
}

/* Probes dimension d for flag iFlag's items (scan_probe). */
static void gen_probe(gen *x, int d, int iFlag) {
  const plan *p = x->p;
  const plan_dim *pDim = &p->aDim[d];
  const plan_lookup *l = &pDim->lookup;
  const cat_column *fk = &p->aSource[p->iFact].pTable->aCol[pDim->iFactCol];
  int iFk, iLut = gen__f_lookup(x, d, 0);
  if (!pDim->bUnique) {
    gen__fail(x, "a join on a key that is not unique");
    return;
  }
  gen__load(x, p->iFact, pDim->iFactCol, -1);
  iFk = x->aaReg[p->iFact][pDim->iFactCol];
  if (!fk->bNotNull) gen__ins(x, SQG_FNOTNULL, iFlag, iFk, -1, -1, -1, -1, -1, -1, -1);
  if (l->bBits) {
    gen__ins(x, SQG_PROBE_BITS, iFlag, iFk, -1, -1, gen__f_lookup(x, d, l->nBitOff),
            gen__f_role(x, CG_ROLE_LUT_BMIN, d, NULL), gen__f_role(x, CG_ROLE_LUT_BSLOTS, d, NULL), -1,
            -1);
    return;
  }
  x->aRowReg[d] = gen__reg(x);
  switch (l->eKind) {
    case PLAN_LOOKUP_ARRAY:
    case PLAN_LOOKUP_DATE:
      gen__ins(x, l->eKind == PLAN_LOOKUP_ARRAY ? SQG_PROBE_ARRAY : SQG_PROBE_DATE, iFlag, iFk,
              x->aRowReg[d], -1, iLut, gen__f_role(x, CG_ROLE_LUT_MIN, d, NULL),
              gen__f_role(x, CG_ROLE_LUT_SLOTS, d, NULL), -1, -1);
      break;
    default:
      gen__ins(x, SQG_PROBE_HASH, iFlag, iFk, x->aRowReg[d], -1, iLut,
              gen__f_role(x, CG_ROLE_LUT_SLOTS, d, NULL), -1, -1, -1);
      break;
  }
}

/* The end of the group of conditions that starts at i (scan_group_end). */
static int gen_group_end(const plan *p, int i) {
  int j = i + 1;
  while (j < p->order.nCond && p->order.aJoin[j] == PREDORDER_JOIN_NOBRANCH) j++;
  return j;
}

/* The conditions [iFirst, iEnd): one, or a no-branch group (scan_group). */
static int gen_cond_group(gen *x, int iFirst, int iEnd) {
  const plan *p = x->p;
  int bOne = iEnd - iFirst == 1, iPass = 0, nFlag0 = x->nFlag;
  if (!bOne) {
    for (int i = iFirst; i < iEnd; i++) {
      int w = p->aCondWhat[p->order.aOrder[i]];
      if (w >= 0) gen__load_expr(x, p->aFactPred[w].pExpr, p->iFact);
      else gen__load(x, p->iFact, p->aDim[-1 - w].iFactCol, -1);
    }
    iPass = gen__flag(x);
    gen__ins(x, SQG_FCOPY, iPass, 0, -1, -1, -1, -1, -1, -1, -1);
  }
  for (int i = iFirst; i < iEnd; i++) {
    int w = p->aCondWhat[p->order.aOrder[i]];
    if (w >= 0) {
      gen__load_expr(x, p->aFactPred[w].pExpr, p->iFact);
      if (gen__pred(x, &p->aFactPred[w], iPass) != 0) return -1;
    } else if (bOne) {
      gen_probe(x, -1 - w, 0);
    } else {
      int iHit = gen__flag(x);
      gen__ins(x, SQG_FCOPY, iHit, 0, -1, -1, -1, -1, -1, -1, -1);
      gen_probe(x, -1 - w, iHit);
      gen__ins(x, SQG_FAND, iPass, iHit, -1, -1, -1, -1, -1, -1, -1);
    }
  }
  if (!bOne) gen__ins(x, SQG_FCOPY, 0, iPass, -1, -1, -1, -1, -1, -1, -1);
  x->nFlag = nFlag0;
  return x->bFail ? -1 : 0;
}

/* The row indexes of the dimensions probed by their bits that supply
** payload, for the rows left (scan_rows). */
static void gen_rows_left(gen *x) {
  const plan *p = x->p;
  for (int d = 0; d < p->nDim; d++) {
    const plan_dim *pDim = &p->aDim[d];
    const plan_lookup *l = &pDim->lookup;
    if (!l->bBits || !pDim->bPayload) continue;
    x->aRowReg[d] = gen__reg(x);
    gen__ins(x, SQG_ROW_ARRAY, -1, x->aaReg[p->iFact][pDim->iFactCol], x->aRowReg[d], -1,
            gen__f_lookup(x, d, 0), gen__f_role(x, CG_ROLE_LUT_MIN, d, NULL),
            l->bDense ? gen__f_lookup(x, d, l->nMovedOff) : -1, -1, -1);
  }
}

/* Scalar aggregates' thread accumulators (scan_scalar_registers): 0 the
** row count, then each aggregate's value and count where it has them. */
static int gen_acc_value(gen *x, int i) { return x->aAccValue[i]; }
static int gen_acc_count(gen *x, int i) { return x->aAccCount[i]; }

static int gen_acc_assign(gen *x) {
  const plan *p = x->p;
  int n = 1;
  x->aAccValue = arena_alloc(x->pArena, sizeof(int) * (size_t)(p->nAgg + 1));
  x->aAccCount = arena_alloc(x->pArena, sizeof(int) * (size_t)(p->nAgg + 1));
  if (x->aAccValue == NULL || x->aAccCount == NULL) {
    gen__fail(x, "out of memory");
    return -1;
  }
  for (int i = 0; i < p->nAgg; i++) {
    const plan_agg *g = &p->aAgg[i];
    x->aAccValue[i] = g->pArg != NULL && g->iValueOffset >= 0 ? n++ : -1;
    x->aAccCount[i] = g->pArg != NULL && g->iCountOffset >= 0 ? n++ : -1;
  }
  if (n > SQG_NACC) {
    gen__fail(x, "%d accumulators, more than %d", n, SQG_NACC);
    return -1;
  }
  return 0;
}

static int gen_agg_kind(const plan *p, const plan_agg *g) {
  switch (g->eFunc) {
    case PLAN_AGG_SUM:
    case PLAN_AGG_AVG:
      return g->bFloat ? SQG_A_SUM_F : gen_sum_checked(p, g) ? SQG_A_SUM_CHECKED : SQG_A_SUM;
    case PLAN_AGG_MIN: return g->bFloat ? SQG_A_MIN_F : SQG_A_MIN;
    case PLAN_AGG_MAX: return g->bFloat ? SQG_A_MAX_F : SQG_A_MAX;
    default: return SQG_A_COUNT;
  }
}

/* Per item: the group slot and the aggregates' updates (scan_agg_update,
** scan_group_slot). */
static int gen_aggregate(gen *x) {
  const plan *p = x->p;
  int bScalar = p->group.eKind == GROUPBY_SCALAR, iSlot = -1, nState = p->nStateByte / 8;
  int iGroups = gen__f_kind(x, CG_FIELD_GROUPS);
  for (int j = 0; j < p->nKey; j++) gen__load_expr(x, p->aKey[j].pExpr, -1);
  for (int i = 0; i < p->nAgg; i++) {
    if (p->aAgg[i].pArg != NULL) gen__load_expr(x, p->aAgg[i].pArg, -1);
  }
  if (!bScalar) {
    int iCode = gen__reg(x);
    int bHash = p->group.eKind == GROUPBY_HASH;
    gen__op(x, SQG_CONST, iCode, -1, -1, 0, 0, 0, -1, -1);
    for (int j = 0; j < p->nKey; j++) {
      gen_val v;
      if (gen__expr(x, p->aKey[j].pExpr, 0, &v) != 0) return -1;
      gen__ins(x, SQG_GCODE, iCode, v.r, -1, 0, gen__f_role(x, CG_ROLE_GROUP_MIN, j, NULL),
              gen__f_role(x, CG_ROLE_GROUP_DOM, j, NULL), gen__f_role(x, CG_ROLE_GROUP_STRIDE, j, NULL),
              -1, -1);
    }
    iSlot = gen__reg(x);
    gen__ins(x, SQG_GSLOT, iSlot, iCode, -1, 0, bHash,
            bHash ? gen__f_kind(x, CG_FIELD_GROUP_KEYS) : -1,
            bHash ? gen__f_kind(x, CG_FIELD_GROUP_MASK) : -1, -1, -1);
    if (!p->bCountInSum) gen__ins(x, SQG_AGG_ROWS, -1, -1, iSlot, 0, iGroups, nState, -1, -1, -1);
  } else {
    gen__ins(x, SQG_SACC_ROWS, -1, -1, -1, 0, -1, -1, -1, -1, -1);
  }
  for (int i = 0; i < p->nAgg; i++) {
    const plan_agg *g = &p->aAgg[i];
    gen_val v;
    if (g->pArg == NULL) continue;                      /* COUNT(*): the row count */
    if (gen__expr(x, g->pArg, 0, &v) != 0) return -1;
    if ((g->eFunc == PLAN_AGG_SUM || g->eFunc == PLAN_AGG_AVG) && g->bFloat) {
      gen__as(x, &v, g->argType, 0);
    }
    if (bScalar) {
      gen__ins(x, SQG_SACC, -1, v.r, -1, 0, gen_agg_kind(p, g), gen_acc_value(x, i),
              g->iCountOffset >= 0 ? gen_acc_count(x, i) : -1, -1, -1);
    } else {
      gen__ins(x, SQG_AGG, -1, v.r, iSlot, 0, gen_agg_kind(p, g), g->iValueOffset / 8,
              g->iCountOffset >= 0 ? g->iCountOffset / 8 : -1, iGroups, nState);
    }
  }
  return x->bFail ? -1 : 0;
}

/* Scalar: the accumulators' starting values (scan_scalar_registers). */
static void gen_scalar_init(gen *x) {
  const plan *p = x->p;
  for (int i = 0; i < p->nAgg; i++) {
    const plan_agg *g = &p->aAgg[i];
    if (g->pArg == NULL || g->iValueOffset < 0) continue;
    if (g->eFunc == PLAN_AGG_MIN) {
      gen__ins(x, SQG_SACC_INIT, -1, -1, -1, -1, gen_acc_value(x, i), g->bFloat ? SQG_V_FMAX : SQG_V_MAX,
              -1, -1, -1);
    } else if (g->eFunc == PLAN_AGG_MAX) {
      gen__ins(x, SQG_SACC_INIT, -1, -1, -1, -1, gen_acc_value(x, i), g->bFloat ? SQG_V_FMIN : SQG_V_MIN,
              -1, -1, -1);
    }
  }
}

/* Scalar: the block's accumulators into the one state (scan_scalar_flush). */
static void gen_scalar_flush(gen *x) {
  const plan *p = x->p;
  int iGroups = gen__f_kind(x, CG_FIELD_GROUPS);
  gen__ins(x, SQG_SFLUSH, -1, -1, -1, -1, SQG_A_ROWS, 0, -1, 0, iGroups);
  for (int i = 0; i < p->nAgg; i++) {
    const plan_agg *g = &p->aAgg[i];
    if (g->pArg == NULL) continue;
    if (g->iCountOffset >= 0) {
      gen__ins(x, SQG_SFLUSH, -1, -1, -1, -1, SQG_A_COUNT, gen_acc_count(x, i), -1, g->iCountOffset / 8,
              iGroups);
    }
    if (g->iValueOffset < 0) continue;
    gen__ins(x, SQG_SFLUSH, -1, -1, -1, -1, gen_agg_kind(p, g), gen_acc_value(x, i),
            g->iCountOffset >= 0 ? gen_acc_count(x, i) : -1, g->iValueOffset / 8, iGroups);
  }
}

/* Non-aggregate queries: each item's output row (scan_output_row). */
static int gen_output_rows(gen *x) {
  const cg_program *g = x->g;
  int *aR = arena_alloc(x->pArena, sizeof(int) * (size_t)(g->nOut + 1));
  if (aR == NULL) {
    gen__fail(x, "out of memory");
    return -1;
  }
  for (int i = 0; i < g->nOut; i++) gen__load_expr(x, g->aOut[i].pExpr, -1);
  for (int i = 0; i < g->nOut; i++) {
    gen_val v;
    if (gen__expr(x, g->aOut[i].pExpr, 0, &v) != 0) return -1;
    if (g->aOut[i].bFloat) gen__as(x, &v, g->aOut[i].type, 0);
    aR[i] = v.r;
  }
  gen__out_write(x, aR, 0);
  return x->bFail ? -1 : 0;
}

void gen__scan(gen *x, int iKernel) {
  const plan *p = x->p;
  int bScalar = p->bAggregate && p->group.eKind == GROUPBY_SCALAR;
  gen__section(x, iKernel, SQG_K_TILE, gen__f_nrow(x, p->iFact), -1);
  if (bScalar && gen_acc_assign(x) != 0) return;
  if (bScalar) gen_scalar_init(x);
  gen__run_end(x, SQG_H_BODY);
  for (int i = 0; i < p->order.nCond;) {
    int j = gen_group_end(p, i);
    if (i > 0) gen__ins(x, SQG_ANY, -1, -1, -1, -1, -1, -1, -1, -1, -1);   /* && */
    if (gen_cond_group(x, i, j) != 0) return;
    i = j;
  }
  gen__ins(x, SQG_ANY, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  gen_rows_left(x);
  for (int i = 0; i < p->nResidual; i++) {
    gen__load_expr(x, p->aResidual[i].pExpr, -1);
    if (gen__pred(x, &p->aResidual[i], 0) != 0) return;
  }
  if (p->bAggregate ? gen_aggregate(x) != 0 : gen_output_rows(x) != 0) return;
  gen__run_end(x, SQG_H_POST);
  if (bScalar) gen_scalar_flush(x);
  gen__run_end(x, -1);
}
