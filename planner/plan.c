/*
** planner/plan.c — plan_build: a bound SELECT to the physical plan of
** plan.h, in the order the decisions depend on each other:
**
**   1. sources      per FROM item: rows, and lazily its statistics and
**                   dictionaries (read once per plan)
**   2. shape        shape.c: scanned table, dimensions, lookups, conjuncts
**   3. uses         which columns each table supplies, so a dimension
**                   knows whether it only filters or also supplies payload
**   4. predicates   selectivities: exact from dictionaries where a
**                   predicate reads one string column (codeset.c), else
**                   from statistics (estimate.c)
**   5. conditions   the SCAN's fact predicates and probes, ordered and
**                   grouped by paper 004's dynamic program (predorder.c)
**   6. grouping     grouping.c: keys, aggregates, groupby.h's strategy,
**                   sized by the rows step 5 lets through
**   7. estimates    bytes touched and the cost model's seconds
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/parser.h"
#include "planInt.h"

/* The kernels see at most this many FROM items (a 64-bit mask of them). */
#define PLAN_MAX_SOURCE 64

int plan__oom(plan_ctx *c) {
  sql_error_set(c->pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while planning");
  return -1;
}

const col_stats *plan__stats(plan_ctx *c, int s, int iCol) {
  plan_source *src = &c->p->aSource[s];
  char zErr[256];
  if (!src->abStats[iCol]) {
    if (cat_stats_get(c->pCat, src->pTable->iId, iCol, &src->aStats[iCol], zErr, sizeof(zErr)) != 0) {
      sql_error_set(c->pErr, SQLSTATE_IO_ERROR, -1, "statistics of \"%s\".\"%s\": %s",
                    src->pTable->zName, src->pTable->aCol[iCol].zName, zErr);
      return NULL;
    }
    src->abStats[iCol] = 1;
  }
  return &src->aStats[iCol];
}

const store_dict *plan__dict(plan_ctx *c, int s, int iCol) {
  static const uint64_t aNoOff[1] = {0};
  plan_source *src = &c->p->aSource[s];
  char zPath[4096], zErr[512];
  if (src->abDict[iCol]) return &src->aDict[iCol];
  if (src->pTable->iGen == 0) {          /* no data yet: an empty dictionary */
    memset(&src->aDict[iCol], 0, sizeof(store_dict));
    src->aDict[iCol].aOff = aNoOff;
    src->aDict[iCol].zText = "";
    src->abDict[iCol] = 2;
    return &src->aDict[iCol];
  }
  if (cat_file_path(c->pCat, src->pTable, src->pTable->iGen, iCol, STORE_DICT, zPath,
                    sizeof(zPath)) == NULL ||
      store_dict_open(&src->aDict[iCol], zPath, zErr, sizeof(zErr)) != 0) {
    sql_error_set(c->pErr, SQLSTATE_IO_ERROR, -1, "dictionary of \"%s\".\"%s\": %s",
                  src->pTable->zName, src->pTable->aCol[iCol].zName, zErr);
    return NULL;
  }
  src->abDict[iCol] = 1;
  return &src->aDict[iCol];
}

plan_mask plan__sources(const sql_expr *e) {
  plan_mask m = 0;
  if (e == NULL || e->b.bConstant) return 0;
  if (e->eKind == SQL_EXPR_COLUMN) return (plan_mask)1 << e->b.iSource;
  m |= plan__sources(e->pLeft) | plan__sources(e->pRight);
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) m |= plan__sources(e->pList->a[i].pExpr);
  return m;
}

/* Per-column byte count of a predicate: each column once. */
typedef struct plan_bytes plan_bytes;
struct plan_bytes {
  const plan *p;
  int n;
  int aSeen[32];
  int nByte;
};

static void plan_bytes_add(void *pArg, const sql_expr *e) {
  plan_bytes *b = pArg;
  int id = e->b.iSource * 4096 + e->b.iColumn;
  for (int i = 0; i < b->n; i++) {
    if (b->aSeen[i] == id) return;
  }
  if (b->n < 32) b->aSeen[b->n++] = id;
  b->nByte += plan__col_row_bytes(b->p, e->b.iSource, e->b.iColumn);
}

int plan__col_row_bytes(const plan *p, int s, int iCol) {
  const plan_source *src = &p->aSource[s];
  int nWidth = coltype_width(src->pTable->aCol[iCol].type);
  if (p->model.bResident && src->aEnc != NULL && src->aEnc[iCol] != 0) {
    return nWidth;                     /* read from its plain resident copy (runtime/colmem.c) */
  }
  if (src->anStored != NULL && src->anStored[iCol] > 0 && src->pTable->nRow > 0) {
    /* A FOR-bitpacked column: its bytes a row, rounded up (the predicate
    ** order's model counts whole bytes). */
    uint64_t n = (src->anStored[iCol] + (uint64_t)src->pTable->nRow - 1) / (uint64_t)src->pTable->nRow;
    if (n < (uint64_t)nWidth) return (int)n;
  }
  return nWidth;
}

/* Reads the header of the values file of each integer-like column of a
** table with a foreign key (the only ones loader/sink.c FOR-bitpacks):
** its encoding (the SCAN decodes a FOR-bitpacked one, codegen/scan.c) and
** its stored bytes (what reading it costs), as the catalog's cache has
** them (cat_file_info: one open a file while the catalog is unchanged,
** not one a query). Every such column, not only
** the ones used so far: grouping marks its keys later. A file that cannot
** be read is taken as plain: the runtime reports the error when it maps
** it, before any kernel runs. */
static int plan_encodings(plan_ctx *c) {
  plan *p = c->p;
  for (int s = 0; s < p->nSource; s++) {
    plan_source *src = &p->aSource[s];
    int n = src->pTable->nCol;
    src->aEnc = arena_alloc(c->pArena, (size_t)n + 1);
    src->anStored = arena_alloc(c->pArena, sizeof(uint64_t) * ((size_t)n + 1));
    if (src->aEnc == NULL || src->anStored == NULL) return plan__oom(c);
    memset(src->aEnc, 0, (size_t)n + 1);
    memset(src->anStored, 0, sizeof(uint64_t) * ((size_t)n + 1));
    for (int i = 0; i < n && src->pTable->iGen != 0; i++) {
      char zErr[256];
      store_enc e;
      uint64_t nPayload;
      if (src->pTable->nFkey == 0 || !store_for_type_ok(src->pTable->aCol[i].type.eId)) continue;
      if (cat_file_info(c->pCat, src->pTable, src->pTable->iGen, i, &e, &nPayload, zErr,
                        sizeof(zErr)) != 0) {
        continue;
      }
      if (store_enc_packed(e)) {
        src->aEnc[i] = (uint8_t)e;
        src->anStored[i] = nPayload;
      }
    }
  }
  return 0;
}

int plan__pred_bytes(plan_ctx *c, const sql_expr *e) {
  plan_bytes b;
  memset(&b, 0, sizeof(b));
  b.p = c->p;
  sql_expr_walk_columns(e, plan_bytes_add, &b);
  return b.nByte;
}

/* Calls xVisit on each expression of the query the kernels compute: the
** select list, HAVING, ORDER BY, GROUP BY, and every condition (with
** bSkipCoded not those a code set answers whole). Stops at the first
** nonzero return and returns it. */
static int plan_each_pred(plan_ctx *c, const plan_pred *a, int n, int bSkipCoded,
                          int (*xVisit)(plan_ctx *, const sql_expr *)) {
  for (int i = 0; i < n; i++) {
    int rc = bSkipCoded && a[i].pCodes != NULL ? 0 : xVisit(c, a[i].pExpr);
    if (rc != 0) return rc;
  }
  return 0;
}

int plan__each_expr(plan_ctx *c, int bSkipCoded, int (*xVisit)(plan_ctx *, const sql_expr *)) {
  const plan *p = c->p;
  const sql_select *pSel = p->pSelect;
  const sql_expr_list *aList[3] = {p->pBound->pItems, pSel->pOrderBy, pSel->pGroupBy};
  int rc;
  for (int l = 0; l < 3; l++) {
    for (int i = 0; aList[l] != NULL && i < aList[l]->n; i++) {
      if ((rc = xVisit(c, aList[l]->a[i].pExpr)) != 0) return rc;
    }
  }
  if ((rc = xVisit(c, pSel->pHaving)) != 0 ||
      (rc = plan_each_pred(c, p->aFactPred, p->nFactPred, bSkipCoded, xVisit)) != 0 ||
      (rc = plan_each_pred(c, p->aResidual, p->nResidual, bSkipCoded, xVisit)) != 0) {
    return rc;
  }
  for (int d = 0; d < p->nDim; d++) {
    if ((rc = plan_each_pred(c, p->aDim[d].aPred, p->aDim[d].nPred, bSkipCoded, xVisit)) != 0) {
      return rc;
    }
  }
  return 0;
}

/* ---- 1. sources -------------------------------------------------------------- */

static int plan_sources(plan_ctx *c) {
  plan *p = c->p;
  const bound_select *b = p->pBound;
  if (b->nSource > PLAN_MAX_SOURCE) {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                  "a query may read at most %d tables", PLAN_MAX_SOURCE);
    return -1;
  }
  p->nSource = b->nSource;
  p->aSource = arena_alloc(c->pArena, sizeof(plan_source) * (size_t)(b->nSource + 1));
  p->aiDimOf = arena_alloc(c->pArena, sizeof(int) * (size_t)(b->nSource + 1));
  if (p->aSource == NULL || p->aiDimOf == NULL) return plan__oom(c);
  for (int s = 0; s < b->nSource; s++) {
    plan_source *src = &p->aSource[s];
    size_t n = (size_t)b->aSource[s].pTable->nCol;
    src->pTable = b->aSource[s].pTable;
    src->zAlias = b->aSource[s].zAlias;
    src->nRow = (double)src->pTable->nRow;
    src->rSel = 1;
    src->aUse = arena_alloc(c->pArena, n);
    src->abStats = arena_alloc(c->pArena, n);
    src->abDict = arena_alloc(c->pArena, n);
    src->aStats = arena_alloc(c->pArena, sizeof(col_stats) * n);
    src->aDict = arena_alloc(c->pArena, sizeof(store_dict) * n);
    if (!src->aUse || !src->abStats || !src->abDict || !src->aStats || !src->aDict) {
      return plan__oom(c);
    }
  }
  return 0;
}

/* ---- 3. uses -------------------------------------------------------------------- */

static void plan_use_payload(void *pArg, const sql_expr *e) {
  plan *p = pArg;
  p->aSource[e->b.iSource].aUse[e->b.iColumn] |= PLAN_USE_PAYLOAD;
}

static void plan_use_pred(void *pArg, const sql_expr *e) {
  plan *p = pArg;
  p->aSource[e->b.iSource].aUse[e->b.iColumn] |= PLAN_USE_PRED;
}

static void plan_uses(plan *p) {
  const sql_select *pSel = p->pSelect;
  const bound_select *b = p->pBound;
  for (int i = 0; i < b->pItems->n; i++) sql_expr_walk_columns(b->pItems->a[i].pExpr, plan_use_payload, p);
  sql_expr_walk_columns(pSel->pHaving, plan_use_payload, p);
  for (int i = 0; pSel->pOrderBy != NULL && i < pSel->pOrderBy->n; i++) {
    sql_expr_walk_columns(pSel->pOrderBy->a[i].pExpr, plan_use_payload, p);
  }
  for (int i = 0; pSel->pGroupBy != NULL && i < pSel->pGroupBy->n; i++) {
    sql_expr_walk_columns(pSel->pGroupBy->a[i].pExpr, plan_use_payload, p);
  }
  for (int i = 0; i < p->nResidual; i++) sql_expr_walk_columns(p->aResidual[i].pExpr, plan_use_payload, p);
  for (int i = 0; i < p->nFactPred; i++) sql_expr_walk_columns(p->aFactPred[i].pExpr, plan_use_pred, p);
  for (int d = 0; d < p->nDim; d++) {
    plan_dim *pDim = &p->aDim[d];
    const plan_source *src = &p->aSource[pDim->iSource];
    for (int i = 0; i < pDim->nPred; i++) sql_expr_walk_columns(pDim->aPred[i].pExpr, plan_use_pred, p);
    for (int i = 0; i < src->pTable->nCol; i++) {
      if (src->aUse[i] & PLAN_USE_PAYLOAD) pDim->bPayload = 1;
    }
  }
}

/* ---- 4. predicates ---------------------------------------------------------------- */

static int plan_pred_estimate(plan_ctx *c, plan_pred *q) {
  int rc;
  q->nByte = plan__pred_bytes(c, q->pExpr);
  if (q->iSource < 0) {                  /* a residual: nothing to go on */
    q->rSel = plan__selectivity(c, -1, q->pExpr, &q->eEst);
    return 0;
  }
  rc = plan__codeset(c, q);
  if (rc < 0) return -1;
  if (rc == 0) q->rSel = plan__selectivity(c, q->iSource, q->pExpr, &q->eEst);
  return 0;
}

static int plan_predicates(plan_ctx *c) {
  plan *p = c->p;
  for (int i = 0; i < p->nFactPred; i++) {
    if (plan_pred_estimate(c, &p->aFactPred[i]) != 0) return -1;
  }
  for (int i = 0; i < p->nResidual; i++) {
    if (plan_pred_estimate(c, &p->aResidual[i]) != 0) return -1;
  }
  for (int d = 0; d < p->nDim; d++) {
    plan_dim *pDim = &p->aDim[d];
    int bExact = 1;
    pDim->rSel = 1;
    for (int i = 0; i < pDim->nPred; i++) {
      if (plan_pred_estimate(c, &pDim->aPred[i]) != 0) return -1;
      pDim->rSel *= pDim->aPred[i].rSel;
      bExact &= pDim->aPred[i].eEst == PLAN_EST_DICT;
    }
    pDim->eEst = pDim->nPred == 0 ? PLAN_EST_CONST
                 : pDim->nPred == 1 ? pDim->aPred[0].eEst
                 : bExact ? PLAN_EST_DICT : PLAN_EST_COMBINED;
    p->aSource[pDim->iSource].rSel = pDim->rSel;
  }
  return 0;
}

/* ---- 5. conditions ---------------------------------------------------------------- */


/* Warp instructions one probe costs per row beside its memory access, by
** the kind of lookup (codegen/device.cuh): a direct array subtracts and
** tests a range; a date offset map splits yyyymmdd by three divisions by
** constants (each a multiply-high and shifts) and checks month and day; a
** hash probe runs Murmur3's finaliser (two 64-bit multiplies, emulated in
** 32-bit halves) and compares keys along its probe sequence. Semi-join
** bits cost what an array does, whatever the lookup. */
static int plan_probe_ops(plan_lookup_kind e) {
  switch (e) {
    case PLAN_LOOKUP_ARRAY: return 4;
    case PLAN_LOOKUP_DATE: return 24;
    default: return 32;
  }
}

/* Rows per run of equal values of fact column iCol (storage/stats.h
** nRun) into *pr, 0 when its statistics do not say. Returns 0, or -1 with
** the error set (the catalog could not be read). */
static int plan_col_run(plan_ctx *c, int iCol, double *pr) {
  const col_stats *st = plan__stats(c, c->p->iFact, iCol);
  if (st == NULL) return -1;
  *pr = st->nRun > 0 && st->nRow > 0 ? (double)st->nRow / (double)st->nRun : 0.0;
  return 0;
}

typedef struct plan_run plan_run;
struct plan_run {
  plan_ctx *c;
  double r;                /* least run so far; -1: none seen; 0: unknown */
  int rc;
};

static void plan_run_add(void *pArg, const sql_expr *e) {
  plan_run *w = pArg;
  double r;
  if (w->rc != 0 || e->b.iSource != w->c->p->iFact || w->r == 0.0) return;
  if ((w->rc = plan_col_run(w->c, e->b.iColumn, &r)) != 0) return;
  if (w->r < 0.0 || r < w->r) w->r = r;
}

/* The run length of the rows a fact predicate passes, its columns' least,
** into *pr. Returns 0 or -1 (error set). */
static int plan_pred_run(plan_ctx *c, const sql_expr *e, double *pr) {
  plan_run w = {c, -1.0, 0};
  sql_expr_walk_columns(e, plan_run_add, &w);
  *pr = w.r < 0.0 ? 0.0 : w.r;
  return w.rc;
}

/* Refuses the predicate order the caller spelled out (planner_model.
** zPredOrder) where it does not fit this query. Returns -1 with 22023 set. */
static int plan_order_refused(plan_ctx *c) {
  const plan *p = c->p;
  if (p->nCond == 0) {
    sql_error_set(c->pErr, SQLSTATE_INVALID_PARAMETER, -1,
                  "predicate order \"%s\": the query's scan has no conditions to order",
                  p->model.zPredOrder);
  } else {
    sql_error_set(c->pErr, SQLSTATE_INVALID_PARAMETER, -1,
                  "predicate order \"%s\" does not fit the query's %d condition%s (1 to %d: "
                  "fact predicates, then dimension probes; each once)",
                  p->model.zPredOrder, p->nCond, p->nCond == 1 ? "" : "s", p->nCond);
  }
  return -1;
}

static int plan_conditions(plan_ctx *c) {
  plan *p = c->p;
  int n = p->nFactPred + p->nDim, k = 0;
  const char *zForce = p->model.zPredOrder;
  int bRank = strcmp(zForce, "rank") == 0;
  if (n == 0) return zForce[0] != 0 && !bRank ? plan_order_refused(c) : 0;
  p->aCond = arena_alloc(c->pArena, sizeof(predorder_cond) * (size_t)n);
  p->aCondWhat = arena_alloc(c->pArena, sizeof(int) * (size_t)n);
  if (p->aCond == NULL || p->aCondWhat == NULL) return plan__oom(c);
  for (int i = 0; i < p->nFactPred; i++, k++) {
    p->aCond[k].rSel = p->aFactPred[i].rSel;
    p->aCond[k].nByte = p->aFactPred[i].nByte;
    if (plan_pred_run(c, p->aFactPred[i].pExpr, &p->aCond[k].rRun) != 0) return -1;
    p->aCondWhat[k] = i;
  }
  for (int d = 0; d < p->nDim; d++, k++) {
    const plan_dim *pDim = &p->aDim[d];
    p->aCond[k].rSel = pDim->rSel;
    p->aCond[k].nByte = plan__col_row_bytes(p, p->iFact, pDim->iFactCol);
    if (plan_col_run(c, pDim->iFactCol, &p->aCond[k].rRun) != 0) return -1;
    p->aCond[k].bProbe = 1;
    /* With semi-join bits the probe reads the bits: the slots are read
    ** after every condition, for the payload of the rows left. */
    p->aCond[k].nLookupByte = pDim->lookup.bBits ? pDim->lookup.nBitByte : pDim->lookup.nByte;
    p->aCond[k].nOp = plan_probe_ops(pDim->lookup.bBits ? PLAN_LOOKUP_ARRAY : pDim->lookup.eKind);
    p->aCondWhat[k] = -1 - d;
    p->aDim[d].iCond = k;
  }
  p->nCond = n;
  unsigned mFlag = PREDORDER_MULTI_KERNEL | (bRank ? PREDORDER_RANK_ONLY : 0);
  int rc = predorder_plan_choose(&p->model.pred, p->aCond, n, p->nFactRow, mFlag, &p->order);
  if (rc != 0) {
    if (rc == -ENOMEM) return plan__oom(c);
    sql_error_set(c->pErr, SQLSTATE_INTERNAL_ERROR, -1, "the predicate order could not be planned");
    return -1;
  }
  /* A plan to measure instead of the model's: the chosen plan's arrays
  ** take it, costed by the same model. */
  if (zForce[0] != 0 && !bRank &&
      predorder_plan_force(&p->model.pred, p->aCond, p->nFactRow, zForce, &p->order) != 0) {
    return plan_order_refused(c);
  }
  return 0;
}

/* ---- 7. estimates ------------------------------------------------------------------ */

/* The bytes a pass over src's columns in mUse reads: packed columns their
** stored bytes, or with bResident their plain resident copies'. */
static uint64_t plan_table_bytes(const plan_source *src, uint8_t mUse, int bResident) {
  uint64_t n = 0;
  for (int i = 0; i < src->pTable->nCol; i++) {
    if (src->aUse[i] & mUse) {
      uint64_t nPlain = (uint64_t)coltype_width(src->pTable->aCol[i].type) * (uint64_t)src->pTable->nRow;
      n += src->anStored != NULL && src->anStored[i] > 0 && !bResident ? src->anStored[i] : nPlain;
      if (!src->pTable->aCol[i].bNotNull) n += ((uint64_t)src->pTable->nRow + 7) / 8;
    }
  }
  return n;
}

static void plan_estimates(plan *p) {
  double r = p->nCond > 0 ? p->order.rSel : 1;
  for (int i = 0; i < p->nResidual; i++) r *= p->aResidual[i].rSel;
  p->rScanSel = p->bFalse ? 0 : r;
  p->nRowOut = p->iFact < 0 ? 1 : p->nFactRow * p->rScanSel;
  if (p->iFact >= 0) {
    p->nScanByte = plan_table_bytes(&p->aSource[p->iFact], 0xFF, p->model.bResident);
  }
  for (int d = 0; d < p->nDim; d++) {
    p->nBuildByte += plan_table_bytes(&p->aSource[p->aDim[d].iSource], 0xFF, p->model.bResident);
  }
  p->rScanCost = p->nCond > 0 ? p->order.rCost
                              : p->model.pred.rScanBw > 0 ? (double)p->nScanByte / p->model.pred.rScanBw : 0;
  p->rBuildCost = p->model.pred.rScanBw > 0 ? (double)p->nBuildByte / p->model.pred.rScanBw : 0;
}

int plan_build(cat *pCat, const bound_select *pBound, const planner_model *pModel,
               arena *pArena, plan *p, sql_error *pErr) {
  plan_ctx c;
  int rc;
  memset(p, 0, sizeof(*p));
  c.pCat = pCat;
  c.pArena = pArena;
  c.pErr = pErr;
  c.p = p;
  p->pBound = pBound;
  p->pSelect = pBound->pSelect;
  p->iFact = -1;
  /* A caller's model may have constants changed (a resident plan's scan
  ** bandwidth): one out of range would divide a cost by zero. */
  if (pModel != NULL) {
    p->model = *pModel;
    rc = planner_model_check(&p->model, pErr->zMsg, sizeof(pErr->zMsg));
  } else {
    rc = planner_model_default("default", &p->model, pErr->zMsg, sizeof(pErr->zMsg));
  }
  if (rc != 0) {
    memcpy(pErr->zState, SQLSTATE_INTERNAL_ERROR, 6);
    return -1;
  }

  if (p->pSelect->bDistinct && pBound->bAggregate) {
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                  "SELECT DISTINCT together with GROUP BY or aggregates is not supported");
    return -1;
  }
  if (plan_sources(&c) != 0 || plan__shape(&c) != 0) return -1;
  plan_uses(p);
  plan__shape_bits(p);
  if (plan_encodings(&c) != 0) return -1;
  if (plan_predicates(&c) != 0 || plan__exprsets(&c) != 0 || plan_conditions(&c) != 0) return -1;
  plan_estimates(p);
  if (plan__strmaps(&c) != 0 || plan__strtab(&c) != 0 || plan__valmaps(&c) != 0) return -1;
  return plan__grouping(&c);
}

void plan_free(plan *p) {
  predorder_plan_free(&p->order);
  for (int s = 0; s < p->nSource && p->aSource != NULL; s++) {
    plan_source *src = &p->aSource[s];
    for (int i = 0; i < src->pTable->nCol; i++) {
      if (src->abStats[i]) stats_free(&src->aStats[i]);
      if (src->abDict[i] == 1) store_dict_close(&src->aDict[i]);
      src->abStats[i] = src->abDict[i] = 0;
    }
  }
}
