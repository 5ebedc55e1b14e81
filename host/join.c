/*
** host/join.c — joins of two materialised inputs: a hash join on the
** equality keys the planner found (the right input built, the left
** probing), or a nested loop where there are none (non-equi and cross
** joins). Every kind: INNER, LEFT, RIGHT and FULL (rows without a match
** extended with NULLs), SEMI and ANTI (the left row alone, once). A key
** that is NULL matches nothing, as = never holds for NULL; the join's
** other conditions (pPred) are checked on each candidate pair.
**
** INTERFACE ROUTINES (hostInt.h)
**   host__join
*/
#include <string.h>

#include "hostInt.h"

/* The right rows of one key: a chain in the run's arena. */
typedef struct host_join_match host_join_match;
struct host_join_match {
  int64_t iRow;
  host_join_match *pNext;
};

/* Emits left ++ right (either NULL: that side's columns NULL). */
static int host_join_emit(host_run_ctx *x, const host_node *n, int nL, const datum *aL, const datum *aR,
                          int bLeftOnly, host_rel *pOut) {
  int nOut = bLeftOnly ? nL : n->nCol;
  datum *a = host__row_new(x, nOut);
  if (a == NULL) return -1;
  for (int c = 0; c < nL; c++) {
    if (aL != NULL) a[c] = aL[c];
    else {
      a[c] = datum_null(n->aType[c].eId);
      a[c].type = n->aType[c];
    }
  }
  for (int c = nL; c < nOut; c++) {
    if (aR != NULL) a[c] = aR[c - nL];
    else {
      a[c] = datum_null(n->aType[c].eId);
      a[c].type = n->aType[c];
    }
  }
  return host__rel_add(x, pOut, a);
}

/* Does pair (aL, aR) pass the join's other conditions? Uses scratch aPair. */
static int host_join_pass(host_run_ctx *x, const host_node *n, int nL, int nR, const datum *aL,
                          const datum *aR, datum *aPair, int *pb) {
  if (n->pPred == NULL) {
    *pb = 1;
    return 0;
  }
  memcpy(aPair, aL, sizeof(datum) * (size_t)nL);
  memcpy(aPair + nL, aR, sizeof(datum) * (size_t)nR);
  return host__eval_true(x, n->pPred, aPair, pb);
}

/* Builds the right input's key table. */
static int host_join_build(host_run_ctx *x, const host_node *n, const host_rel *pR, host_hash **pph) {
  host_hash *h = host__hash_new(x, n->nKey);
  datum *aKey = host__row_new(x, n->nKey);
  if (h == NULL || aKey == NULL) return -1;
  for (int64_t i = pR->nRow - 1; i >= 0; i--) {   /* chains then run in row order */
    int bNull = 0;
    void **pp;
    host_join_match *m;
    for (int k = 0; k < n->nKey; k++) {
      if (host__eval(x, n->apRightKey[k], pR->apRow[i], &aKey[k]) != 0) return -1;
      bNull |= aKey[k].bNull;
    }
    if (bNull) continue;
    if (host__hash_find(x, h, aKey, 1, &pp, NULL) != 0) return -1;
    if ((m = arena_alloc(x->pArena, sizeof(*m))) == NULL) return host__oom(x);
    m->iRow = i;
    m->pNext = *pp;
    *pp = m;
  }
  *pph = h;
  return 0;
}

int host__join(host_run_ctx *x, const host_node *n, const host_rel *pL, const host_rel *pR,
               host_rel *pOut) {
  int nL = n->pLeft->nCol, nR = n->pRight->nCol;
  int bSemi = n->eJoin == HOST_JOIN_SEMI, bAnti = n->eJoin == HOST_JOIN_ANTI;
  int bKeepLeft = n->eJoin == HOST_JOIN_LEFT || n->eJoin == HOST_JOIN_FULL;
  int bKeepRight = n->eJoin == HOST_JOIN_RIGHT || n->eJoin == HOST_JOIN_FULL;
  uint8_t *abRightHit = NULL;
  datum *aPair = host__row_new(x, nL + nR), *aKey = host__row_new(x, n->nKey);
  host_hash *h = NULL;
  if (aPair == NULL || aKey == NULL) return -1;
  if (bKeepRight) {
    if ((abRightHit = arena_alloc(x->pArena, (size_t)pR->nRow + 1)) == NULL) return host__oom(x);
    memset(abRightHit, 0, (size_t)pR->nRow + 1);
  }
  if (n->nKey > 0 && host_join_build(x, n, pR, &h) != 0) return -1;

  for (int64_t i = 0; i < pL->nRow; i++) {
    const datum *aL = pL->apRow[i];
    int bMatched = 0;
    if (h != NULL) {
      int bNull = 0;
      void **pp = NULL;
      for (int k = 0; k < n->nKey; k++) {
        if (host__eval(x, n->apLeftKey[k], aL, &aKey[k]) != 0) return -1;
        bNull |= aKey[k].bNull;
      }
      if (!bNull && host__hash_find(x, h, aKey, 0, &pp, NULL) != 0) return -1;
      for (host_join_match *m = pp != NULL ? *pp : NULL; m != NULL; m = m->pNext) {
        int b;
        if (host_join_pass(x, n, nL, nR, aL, pR->apRow[m->iRow], aPair, &b) != 0) return -1;
        if (!b) continue;
        bMatched = 1;
        if (bSemi || bAnti) break;
        if (abRightHit != NULL) abRightHit[m->iRow] = 1;
        if (host_join_emit(x, n, nL, aL, pR->apRow[m->iRow], 0, pOut) != 0) return -1;
      }
    } else {
      for (int64_t j = 0; j < pR->nRow; j++) {
        int b;
        if (host_join_pass(x, n, nL, nR, aL, pR->apRow[j], aPair, &b) != 0) return -1;
        if (!b) continue;
        bMatched = 1;
        if (bSemi || bAnti) break;
        if (abRightHit != NULL) abRightHit[j] = 1;
        if (host_join_emit(x, n, nL, aL, pR->apRow[j], 0, pOut) != 0) return -1;
      }
      if ((i & 255) == 0 && host__check(x) != 0) return -1;
    }
    if ((bSemi && bMatched) || (bAnti && !bMatched)) {
      if (host__rel_add(x, pOut, (datum *)aL) != 0) return -1;
    } else if (bKeepLeft && !bMatched) {
      if (host_join_emit(x, n, nL, aL, NULL, 0, pOut) != 0) return -1;
    }
  }
  for (int64_t j = 0; bKeepRight && j < pR->nRow; j++) {
    if (!abRightHit[j] && host_join_emit(x, n, nL, NULL, pR->apRow[j], 0, pOut) != 0) return -1;
  }
  return 0;
}
