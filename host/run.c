/*
** host/run.c — host_run: one run of a host plan. Each node makes its whole
** result (a host_rel) from its inputs' results, depth first; a run keeps
** what must be made once however often it is read: device inputs, shared
** results (CTEs read twice), uncorrelated subqueries, and a correlated
** subquery's rows per distinct parameter tuple.
**
** Memory: every row and value of a run comes from the caller's arena; the
** bytes it has handed out since the run began are checked against
** host_config.nMemoryBudget as rows are added, and past it the run ends
** with 53200 naming the size (the server stays up, nothing is half-sent).
**
** INTERFACE ROUTINES
**   host_run (host.h)
**   host__node_run, host__rel_add, host__row_new, host__check, host__oom,
**   host__subplan_eval (hostInt.h)
*/
#include <stdlib.h>
#include <string.h>

#include "../common/timer.h"
#include "../parser/ast.h"
#include "hostInt.h"

/* What a run keeps of one subplan. */
struct host_sub_state {
  int bDone;               /* uncorrelated: rel made */
  host_rel rel;            /* uncorrelated: its rows */
  host_hash *pSet;         /* uncorrelated ANY (=) / ALL (<>): its rows by value */
  int bSetNull;            /* ... and whether a row holds a NULL */
  host_hash *pMemo;        /* correlated: parameter tuple -> host_rel * */
};

int host__oom(host_run_ctx *x) {
  sql_error_set(x->pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory in the host executor");
  return -1;
}

int host__check(host_run_ctx *x) {
  uint64_t nUsed = x->pArena->nTotal - x->nBaseBytes;
  if (x->pConfig->pbCancel != NULL && *x->pConfig->pbCancel) {
    sql_error_set(x->pErr, "57014", -1, "canceling statement due to user request");
    return -1;
  }
  if (x->pConfig->nMemoryBudget > 0 && nUsed > x->pConfig->nMemoryBudget) {
    sql_error_set(x->pErr, SQLSTATE_OUT_OF_MEMORY, -1,
                  "the host executor's intermediate results need more than %llu bytes",
                  (unsigned long long)x->pConfig->nMemoryBudget);
    return -1;
  }
  return 0;
}

datum *host__row_new(host_run_ctx *x, int n) {
  datum *a = arena_alloc(x->pArena, sizeof(datum) * (size_t)(n > 0 ? n : 1));
  if (a == NULL) host__oom(x);
  return a;
}

int host__rel_add(host_run_ctx *x, host_rel *r, datum *aRow) {
  if (r->nRow == r->nAlloc) {
    int64_t nNew = r->nAlloc ? 2 * r->nAlloc : 16;
    datum **ap = arena_alloc(x->pArena, sizeof(datum *) * (size_t)nNew);
    if (ap == NULL) return host__oom(x);
    if (r->nRow > 0) memcpy(ap, r->apRow, sizeof(datum *) * (size_t)r->nRow);
    r->apRow = ap;
    r->nAlloc = nNew;
    if (host__check(x) != 0) return -1;
  }
  r->apRow[r->nRow++] = aRow;
  return 0;
}

/* ---- simple operators ------------------------------------------------------ */

static int host_filter(host_run_ctx *x, const host_node *n, const host_rel *pIn, host_rel *pOut) {
  for (int64_t i = 0; i < pIn->nRow; i++) {
    int b;
    if (host__eval_true(x, n->pPred, pIn->apRow[i], &b) != 0) return -1;
    if (b && host__rel_add(x, pOut, pIn->apRow[i]) != 0) return -1;
  }
  return 0;
}

static int host_project(host_run_ctx *x, const host_node *n, const host_rel *pIn, host_rel *pOut) {
  for (int64_t i = 0; i < pIn->nRow; i++) {
    datum *a = host__row_new(x, n->nExpr);
    if (a == NULL) return -1;
    for (int c = 0; c < n->nExpr; c++) {
      if (host__eval(x, n->apExpr[c], pIn->apRow[i], &a[c]) != 0) return -1;
    }
    if (host__rel_add(x, pOut, a) != 0) return -1;
  }
  return 0;
}

static int host_limit(host_run_ctx *x, const host_node *n, const host_rel *pIn, host_rel *pOut) {
  int64_t iEnd = pIn->nRow;
  if (n->nLimit >= 0 && n->nOffset + n->nLimit < iEnd) iEnd = n->nOffset + n->nLimit;
  for (int64_t i = n->nOffset; i < iEnd; i++) {
    if (host__rel_add(x, pOut, pIn->apRow[i]) != 0) return -1;
  }
  return 0;
}

static int host_input(host_run_ctx *x, const host_node *n, host_rel *pOut) {
  if (n->iInput < 0 || n->iInput >= x->pPlan->nInput || x->pConfig->xInput == NULL) {
    sql_error_set(x->pErr, SQLSTATE_INTERNAL_ERROR, -1, "host plan input %d has no producer", n->iInput);
    return -1;
  }
  if (!x->abInput[n->iInput]) {
    host_rel *r = &x->aInput[n->iInput];
    memset(r, 0, sizeof(*r));
    if (x->pConfig->xInput(x->pConfig->pInputArg, n->iInput, x->pArena, r, x->pErr) != 0) return -1;
    x->abInput[n->iInput] = 1;
    if (host__check(x) != 0) return -1;
  }
  *pOut = x->aInput[n->iInput];
  return 0;
}

/* ---- the dispatcher ---------------------------------------------------------- */

static int host_node_dispatch(host_run_ctx *x, const host_node *n, host_rel *pOut) {
  host_rel l, r;
  memset(&l, 0, sizeof(l));
  memset(&r, 0, sizeof(r));
  switch (n->eKind) {
    case HN_VALUES: return host__scan_values(x, n, pOut);
    case HN_VREL: return host__scan_vrel(x, n, pOut);
    case HN_INPUT: return host_input(x, n, pOut);
    case HN_SERIES: return host__scan_series(x, n, pOut);
    case HN_SHARED:
      if (!x->abShared[n->iShared]) {
        if (host__node_run(x, n->pLeft, &x->aShared[n->iShared]) != 0) return -1;
        x->abShared[n->iShared] = 1;
      }
      *pOut = x->aShared[n->iShared];
      return 0;
    default:
      break;
  }
  if (n->pLeft != NULL && host__node_run(x, n->pLeft, &l) != 0) return -1;
  if (n->pRight != NULL && host__node_run(x, n->pRight, &r) != 0) return -1;
  switch (n->eKind) {
    case HN_FILTER: return host_filter(x, n, &l, pOut);
    case HN_PROJECT: return host_project(x, n, &l, pOut);
    case HN_JOIN: return host__join(x, n, &l, &r, pOut);
    case HN_AGG: return host__agg(x, n, &l, pOut);
    case HN_WINDOW: return host__window(x, n, &l, pOut);
    case HN_SORT: return host__sort(x, n, &l, pOut);
    case HN_LIMIT: return host_limit(x, n, &l, pOut);
    case HN_DISTINCT: return host__distinct(x, n, &l, pOut);
    case HN_SETOP: return host__setop(x, n, &l, &r, pOut);
    default: break;
  }
  sql_error_set(x->pErr, SQLSTATE_INTERNAL_ERROR, -1, "unknown host node kind %d", (int)n->eKind);
  return -1;
}

int host__node_run(host_run_ctx *x, const host_node *n, host_rel *pOut) {
  double t0 = x->aStats != NULL ? timer_now() : 0;
  memset(pOut, 0, sizeof(*pOut));
  pOut->nCol = n->nCol;
  if (host__check(x) != 0) return -1;
  if (host_node_dispatch(x, n, pOut) != 0) return -1;
  pOut->nCol = n->nCol;
  if (x->aStats != NULL && n->iId >= 0 && n->iId < x->pPlan->nNode) {
    host_node_stats *s = &x->aStats[n->iId];
    s->nRow += pOut->nRow;
    s->nLoop++;
    s->rSeconds += timer_now() - t0;
  }
  return 0;
}

/* ---- subplans ------------------------------------------------------------------ */

/* Runs s's plan with parameters aParam into *pOut. */
static int host_sub_rows(host_run_ctx *x, const host_subplan *s, const datum *aParam, host_rel *pOut) {
  const datum *aSaved = x->aParam;
  int rc;
  x->aParam = aParam;
  rc = host__node_run(x, s->pPlan, pOut);
  x->aParam = aSaved;
  return rc;
}

/* Compares test tuple aTest with row aRow by op: 1 true, 0 false, -1 NULL. */
static int host_sub_cmp(const host_subplan *s, const datum *aTest, const datum *aRow) {
  int bNull = 0;
  for (int i = 0; i < s->nTest; i++) {
    if (aTest[i].bNull || aRow[i].bNull) {
      bNull = 1;
      continue;
    }
    if (s->nTest == 1) return host__compare_op(s->eOp, &aTest[0], &aRow[0]);
    /* Row comparisons with = and <>: all equal, or any different. */
    if (!host__compare_op(SQL_OP_EQ, &aTest[i], &aRow[i])) return s->eOp == SQL_OP_NE;
  }
  if (bNull) return -1;
  return s->eOp == SQL_OP_EQ;
}

/* ANY / ALL of aTest over rel r, by a linear walk. */
static void host_sub_anyall(const host_subplan *s, const datum *aTest, const host_rel *r, datum *pOut) {
  int bAny = s->eKind == HOST_SUB_ANY, bNull = 0;
  for (int64_t i = 0; i < r->nRow; i++) {
    int c = host_sub_cmp(s, aTest, r->apRow[i]);
    if (c < 0) bNull = 1;
    else if (c == bAny) {
      *pOut = datum_bool(bAny);
      return;
    }
  }
  if (bNull) *pOut = datum_null(COLTYPE_BOOLEAN);
  else *pOut = datum_bool(!bAny);
}

/* The answer of s from its rows r. */
static int host_sub_answer(host_run_ctx *x, const host_subplan *s, const host_rel *r,
                           const datum *aTest, datum *pOut) {
  switch (s->eKind) {
    case HOST_SUB_SCALAR:
      if (r->nRow > 1) {
        sql_error_set(x->pErr, "21000", -1, "more than one row returned by a subquery used as an expression");
        return -1;
      }
      if (r->nRow == 0) {
        *pOut = datum_null(s->type.eId);
        pOut->type = s->type;
      } else {
        *pOut = r->apRow[0][0];
      }
      return 0;
    case HOST_SUB_EXISTS:
      *pOut = datum_bool(r->nRow > 0);
      return 0;
    case HOST_SUB_ANY:
    case HOST_SUB_ALL:
      host_sub_anyall(s, aTest, r, pOut);
      return 0;
    case HOST_SUB_ARRAY:
      break;
  }
  sql_error_set(x->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1, "ARRAY subqueries are not supported yet");
  return -1;
}

/* Builds the value set of an uncorrelated IN / NOT IN. */
static int host_sub_set_build(host_run_ctx *x, const host_subplan *s, host_sub_state *st) {
  if ((st->pSet = host__hash_new(x, s->nTest)) == NULL) return -1;
  for (int64_t i = 0; i < st->rel.nRow; i++) {
    const datum *aRow = st->rel.apRow[i];
    void **pp;
    int bNull = 0;
    for (int k = 0; k < s->nTest; k++) bNull |= aRow[k].bNull;
    if (bNull) {
      st->bSetNull = 1;
      continue;
    }
    if (host__hash_find(x, st->pSet, aRow, 1, &pp, NULL) != 0) return -1;
  }
  return 0;
}

/* x IN set: true if found; else NULL if x or a row has a NULL; else false.
** ALL (<>) is its negation. */
static int host_sub_set_test(host_run_ctx *x, const host_subplan *s, host_sub_state *st,
                             const datum *aTest, datum *pOut) {
  int bAny = s->eKind == HOST_SUB_ANY, bNull = 0;
  void **pp;
  for (int k = 0; k < s->nTest; k++) bNull |= aTest[k].bNull;
  if (st->rel.nRow == 0) {
    *pOut = datum_bool(!bAny);
    return 0;
  }
  if (bNull) {
    if (s->nTest > 1) {
      host_sub_anyall(s, aTest, &st->rel, pOut);
      return 0;
    }
    *pOut = datum_null(COLTYPE_BOOLEAN);
    return 0;
  }
  if (host__hash_find(x, st->pSet, aTest, 0, &pp, NULL) != 0) return -1;
  if (pp != NULL) *pOut = datum_bool(bAny);
  else if (st->bSetNull) *pOut = datum_null(COLTYPE_BOOLEAN);
  else *pOut = datum_bool(!bAny);
  return 0;
}

int host__subplan_eval(host_run_ctx *x, const host_subplan *s, const datum *aRow, datum *pOut) {
  host_sub_state *st = &x->aSub[s->iId];
  datum aTest[8], *aParam = NULL;
  host_rel *pRows;
  if (s->nTest > 8) {
    sql_error_set(x->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1, "a row of more than 8 values compared with a subquery");
    return -1;
  }
  for (int i = 0; i < s->nTest; i++) {
    if (host__eval(x, s->apTest[i], aRow, &aTest[i]) != 0) return -1;
  }
  if (s->nParam == 0) {
    if (!st->bDone) {
      if (host_sub_rows(x, s, NULL, &st->rel) != 0) return -1;
      st->bDone = 1;
      if ((s->eKind == HOST_SUB_ANY && s->eOp == SQL_OP_EQ) ||
          (s->eKind == HOST_SUB_ALL && s->eOp == SQL_OP_NE)) {
        if (host_sub_set_build(x, s, st) != 0) return -1;
      }
    }
    if (st->pSet != NULL) return host_sub_set_test(x, s, st, aTest, pOut);
    return host_sub_answer(x, s, &st->rel, aTest, pOut);
  }
  /* Correlated: its rows per parameter tuple, remembered. */
  if ((aParam = host__row_new(x, s->nParam)) == NULL) return -1;
  for (int i = 0; i < s->nParam; i++) {
    if (host__eval(x, s->apParam[i], aRow, &aParam[i]) != 0) return -1;
  }
  if (st->pMemo == NULL && (st->pMemo = host__hash_new(x, s->nParam)) == NULL) return -1;
  {
    void **pp;
    int bNew;
    if (host__hash_find(x, st->pMemo, aParam, 1, &pp, &bNew) != 0) return -1;
    if (bNew) {
      host_rel *r = arena_alloc(x->pArena, sizeof(host_rel));
      if (r == NULL) return host__oom(x);
      *pp = r;
      if (host_sub_rows(x, s, aParam, r) != 0) return -1;
    }
    pRows = *pp;
  }
  return host_sub_answer(x, s, pRows, aTest, pOut);
}

/* ---- host_run ------------------------------------------------------------------ */

int host_run(const host_plan *p, const host_config *pConfig, arena *pArena, host_rel *pOut,
             host_node_stats *aStats, sql_error *pErr) {
  host_run_ctx x;
  int rc;
  memset(&x, 0, sizeof(x));
  memset(pOut, 0, sizeof(*pOut));
  sql_error_clear(pErr);
  x.pPlan = p;
  x.pConfig = pConfig;
  x.pArena = pArena;
  x.pErr = pErr;
  x.aStats = aStats;
  x.nBaseBytes = pArena->nTotal;
  if (pConfig->pFunc != NULL) x.fc = *pConfig->pFunc;
  x.fc.pArena = pArena;
  if (aStats != NULL) memset(aStats, 0, sizeof(host_node_stats) * (size_t)p->nNode);
  x.aShared = arena_alloc(pArena, sizeof(host_rel) * (size_t)(p->nShared + 1));
  x.abShared = arena_alloc(pArena, (size_t)p->nShared + 1);
  x.aInput = arena_alloc(pArena, sizeof(host_rel) * (size_t)(p->nInput + 1));
  x.abInput = arena_alloc(pArena, (size_t)p->nInput + 1);
  x.aSub = arena_alloc(pArena, sizeof(host_sub_state) * (size_t)(p->nSubplan + 1));
  if (x.aShared == NULL || x.abShared == NULL || x.aInput == NULL || x.abInput == NULL || x.aSub == NULL) {
    return host__oom(&x);
  }
  memset(x.abShared, 0, (size_t)p->nShared + 1);
  memset(x.abInput, 0, (size_t)p->nInput + 1);
  memset(x.aSub, 0, sizeof(host_sub_state) * (size_t)(p->nSubplan + 1));
  rc = host__node_run(&x, p->pRoot, pOut);
  host__hash_free_all(&x);
  return rc;
}
