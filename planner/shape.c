/*
** planner/shape.c — the shape of a query's joins: which FROM item the SCAN
** streams and which become dimensions built into lookup structures, which
** conjunct goes where, and each dimension's lookup structure.
**
** Every WHERE and ON conjunct is one of:
**   a join edge    a.x = b.y between two FROM items, on integer or DATE
**                  columns (string codes of two dictionaries do not compare)
**   local          it reads one FROM item: pushed into that item's BUILD,
**                  or evaluated by the SCAN if it is the scanned item
**   residual       it reads several: evaluated by the SCAN after the probes
**   constant       it reads none: evaluated by the SCAN (FALSE: no rows)
**
** The joins must form a star: one centre joined directly to every other
** item. The centre is the item whose declared foreign keys the edges
** follow (a fact table); failing that, the one with more rows, so the
** smaller side is built (paper 001 §3). Each other item is probed by one
** edge (a declared one where it has one); further equalities between the
** same items, or between two dimensions, are residuals checked after the
** probes. Chains (snowflakes) and cross joins are refused with 0A000: a
** wrong answer is never an option.
*/
#include <string.h>
#include <strings.h>

#include "planInt.h"

/* An equality between columns of two FROM items. */
typedef struct shape_edge shape_edge;
struct shape_edge {
  const sql_expr *pExpr;
  int s[2];                /* FROM items */
  int c[2];                /* their columns */
};

/* Days in the month-grid slot map of PLAN_LOOKUP_DATE. */
#define SHAPE_DATE_SLOTS_PER_YEAR 372

/* A date map gets semi-join bits over its raw yyyymmdd keys while they span
** at most this many (256 KB of bits: about two centuries). */
#define SHAPE_DATE_BITS_MAX 2097152.0

/* A direct array is chosen while the key range has at most this many
** slots per row: beyond, most of the array is holes and a hash table is
** smaller and as fast once it is out of L2. */
#define SHAPE_ARRAY_SPARSITY 4.0

/* Splits e on AND into the list of conjuncts (pnAlloc grows it). */
static int shape_conjuncts(plan_ctx *c, sql_expr *e, sql_expr ***papOut, int *pn, int *pnAlloc) {
  if (e == NULL) return 0;
  if (e->eKind == SQL_EXPR_BINARY && e->eOp == SQL_OP_AND) {
    if (shape_conjuncts(c, e->pLeft, papOut, pn, pnAlloc) != 0) return -1;
    return shape_conjuncts(c, e->pRight, papOut, pn, pnAlloc);
  }
  if (*pn == *pnAlloc) {
    int nNew = *pnAlloc ? *pnAlloc * 2 : 16;
    sql_expr **aNew = arena_alloc(c->pArena, sizeof(*aNew) * (size_t)nNew);
    if (aNew == NULL) return plan__oom(c);
    if (*pn) memcpy(aNew, *papOut, sizeof(*aNew) * (size_t)*pn);
    *papOut = aNew;
    *pnAlloc = nNew;
  }
  (*papOut)[(*pn)++] = e;
  return 0;
}

static int shape_joinable(coltype t) {
  return t.eId == COLTYPE_SMALLINT || t.eId == COLTYPE_INTEGER || t.eId == COLTYPE_BIGINT ||
         t.eId == COLTYPE_DATE;
}

/* Returns 1 if e is an equality of two columns of different FROM items
** that a lookup structure can join, filling *pEdge. */
static int shape_is_edge(const sql_expr *e, shape_edge *pEdge) {
  const sql_expr *a = e->pLeft, *b = e->pRight;
  if (e->eKind != SQL_EXPR_BINARY || e->eOp != SQL_OP_EQ) return 0;
  if (a->eKind != SQL_EXPR_COLUMN || b->eKind != SQL_EXPR_COLUMN) return 0;
  if (a->b.iSource == b->b.iSource) return 0;
  if (!shape_joinable(a->b.type) || !shape_joinable(b->b.type)) return 0;
  if ((a->b.type.eId == COLTYPE_DATE) != (b->b.type.eId == COLTYPE_DATE)) return 0;
  pEdge->pExpr = e;
  pEdge->s[0] = a->b.iSource;
  pEdge->c[0] = a->b.iColumn;
  pEdge->s[1] = b->b.iSource;
  pEdge->c[1] = b->b.iColumn;
  return 1;
}

/* Returns 1 if column iFk of FROM item sFk is declared as a foreign key to
** the one-column primary key iPk of item sPk. */
static int shape_declared(const plan *p, int sFk, int iFk, int sPk, int iPk) {
  const cat_table *f = p->aSource[sFk].pTable, *t = p->aSource[sPk].pTable;
  if (t->nPkey != 1 || t->aiPkey[0] != iPk) return 0;
  for (int k = 0; k < f->nFkey; k++) {
    const cat_fkey *fk = &f->aFkey[k];
    if (fk->nCol == 1 && fk->aiCol[0] == iFk && strcasecmp(fk->zRefTable, t->zName) == 0 &&
        fk->aiRefCol[0] == iPk) {
      return 1;
    }
  }
  return 0;
}

/* Picks, for centre s, one edge to every other FROM item (a declared one
** where there is one) into aiPick (by item; -1 for s). Returns -1 if some
** item has no edge to s, else the number of picked edges that follow a
** declared key. */
static int shape_pick(const plan *p, const shape_edge *aEdge, int nEdge, int s, int *aiPick) {
  int nDeclared = 0;
  for (int t = 0; t < p->nSource; t++) {
    int iPick = -1, bPickDeclared = 0;
    if (t == s) {
      aiPick[t] = -1;
      continue;
    }
    for (int i = 0; i < nEdge; i++) {
      const shape_edge *g = &aEdge[i];
      int k = g->s[0] == s && g->s[1] == t ? 0 : g->s[1] == s && g->s[0] == t ? 1 : -1;
      int bDeclared;
      if (k < 0) continue;
      bDeclared = shape_declared(p, s, g->c[k], t, g->c[1 - k]);
      if (iPick < 0 || (bDeclared && !bPickDeclared)) {
        iPick = i;
        bPickDeclared = bDeclared;
      }
    }
    if (iPick < 0) return -1;
    aiPick[t] = iPick;
    nDeclared += bPickDeclared;
  }
  return nDeclared;
}

/* Returns the centre: the FROM item joined directly to every other one,
** preferring the one whose joins follow the most declared keys, then the
** one with more rows; fills aiPick with its edges. -1 if none is. */
static int shape_centre(plan_ctx *c, const shape_edge *aEdge, int nEdge, int *aiPick) {
  const plan *p = c->p;
  int iBest = -1, nBest = -1;
  int *aiTry = arena_alloc(c->pArena, sizeof(int) * (size_t)p->nSource);
  if (aiTry == NULL) {
    plan__oom(c);
    return -1;
  }
  for (int s = 0; s < p->nSource; s++) {
    int n = shape_pick(p, aEdge, nEdge, s, aiTry);
    if (n < 0) continue;
    if (n > nBest || (n == nBest && p->aSource[s].nRow > p->aSource[iBest].nRow)) {
      iBest = s;
      nBest = n;
      memcpy(aiPick, aiTry, sizeof(int) * (size_t)p->nSource);
    }
  }
  return iBest;
}

/* Explains why no centre exists, as a 0A000 error. */
static int shape_refuse(plan_ctx *c, const shape_edge *aEdge, int nEdge) {
  plan *p = c->p;
  for (int s = p->nSource - 1; s >= 0; s--) {   /* the table joined in last */
    int bJoined = 0;
    for (int i = 0; i < nEdge; i++) bJoined |= aEdge[i].s[0] == s || aEdge[i].s[1] == s;
    if (!bJoined) {
      const sql_src_item *pItem = &p->pSelect->pFrom->a[s];
      sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, pItem->iOffset,
                    "cross joins are not supported: \"%s\" is joined to no other table by an"
                    " equality of integer or date columns", p->aSource[s].zAlias);
      return -1;
    }
  }
  sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, nEdge > 0 ? aEdge[0].pExpr->iOffset : -1,
                "only star joins are supported: one table must be joined directly to every"
                " other (snowflakes and chains are not)");
  return -1;
}

/* Chooses dimension d's lookup structure from its key column's range. */
static int shape_lookup(plan_ctx *c, plan_dim *d) {
  const plan_source *src = &c->p->aSource[d->iSource];
  coltype t = src->pTable->aCol[d->iKeyCol].type;
  const col_stats *st = plan__stats(c, d->iSource, d->iKeyCol);
  plan_lookup *l = &d->lookup;
  double nRow = src->nRow > 1 ? src->nRow : 1;
  if (st == NULL) return -1;
  l->iMin = st->bMinMax ? st->min.i : 0;
  l->iMax = st->bMinMax ? st->max.i : -1;
  l->nSlotByte = 4;
  if (d->bUnique && st->bMinMax && t.eId == COLTYPE_DATE) {
    int y0 = (int)(l->iMin / 10000), y1 = (int)(l->iMax / 10000);
    double nSlot = (double)(y1 - y0 + 1) * SHAPE_DATE_SLOTS_PER_YEAR;
    if (nSlot <= SHAPE_ARRAY_SPARSITY * nRow) {
      l->eKind = PLAN_LOOKUP_DATE;
      l->iYearMin = y0;
      l->nSlot = (uint64_t)nSlot;
    }
  }
  if (l->eKind == 0 && d->bUnique && st->bMinMax) {
    double nRange = (double)l->iMax - (double)l->iMin + 1;
    if (nRange <= SHAPE_ARRAY_SPARSITY * nRow && nRange < 4294967295.0) {
      l->eKind = PLAN_LOOKUP_ARRAY;
      l->nSlot = (uint64_t)nRange;
    }
  }
  if (l->eKind == 0) {
    /* Half full at most, for every row, so the BUILD never overflows. */
    uint64_t n = 16;
    while ((double)n < 2 * nRow) n *= 2;
    l->eKind = PLAN_LOOKUP_HASH;
    l->nSlot = n;
    l->nKeyByte = coltype_width(t) > 4 ? 8 : 4;
    /* The kernels' slot (sq_hslot of codegen/device.cuh) holds an 8-byte
    ** key and an 8-byte row index whatever the key's width; 8-byte slots
    ** for 4-byte keys made the BUILD write past the table's end. */
    l->nSlotByte = 16;
  }
  l->nByte = l->nSlot * (uint64_t)l->nSlotByte;
  return 0;
}

/* Decides, once d's filters are filed, whether its lookup gets semi-join
** bits and whether its keys are expected to be dense (plan.h, plan_lookup),
** and lays out the buffer. A dimension without filters keeps its slots
** alone: every key in them joins, and the slot is the probe. A date map
** that supplies no payload gets bits over its raw keys, when they span few
** enough: its probe was the yyyymmdd arithmetic of sq_date_slot, which the
** bits' subtract-and-test replaces (H100, SF 20 resident, kernels: Q1.2
** 0.333 -> 0.300 ms, Q1.3 0.284 -> 0.260). With payload the rows left must
** still split yyyymmdd for their slot, and bits then cost more than they
** save (Q3.1 0.903 -> 1.062 ms; Q3.2-Q4.3 -6 to +4 %). Bits over the map's
** own slots would keep that arithmetic and only cost registers (Q1.1's
** resident SCAN spilled 76 bytes with them, 32 without: ptxas, sm_90, 32
** registers). */
static void shape_lookup_bits(const plan *p, plan_dim *d) {
  plan_lookup *l = &d->lookup;
  const cat_table *t = p->aSource[d->iSource].pTable;
  l->nAllocByte = l->nByte;
  if (d->nPred == 0 || !d->bUnique) return;
  if (l->eKind == PLAN_LOOKUP_ARRAY) {
    l->iBitMin = l->iMin;
    l->nBitSlot = l->nSlot;
  } else if (l->eKind == PLAN_LOOKUP_DATE && !d->bPayload && l->iMax >= l->iMin &&
             (double)l->iMax - (double)l->iMin < SHAPE_DATE_BITS_MAX) {
    l->iBitMin = l->iMin;
    l->nBitSlot = (uint64_t)(l->iMax - l->iMin + 1);
  } else {
    return;
  }
  l->bBits = 1;
  l->nBitOff = (l->nByte + 7) & ~(uint64_t)7;
  l->nBitByte = (l->nBitSlot + 31) / 32 * 4;
  l->nAllocByte = l->nBitOff + l->nBitByte;
  /* Dense keys cover exactly one slot a row; whether each row holds its
  ** own slot only the BUILD can tell (it flags a row out of place). */
  if (l->eKind == PLAN_LOOKUP_ARRAY && t->aCol[d->iKeyCol].bNotNull &&
      (double)l->nSlot == (double)t->nRow) {
    l->bDense = 1;
    l->nMovedOff = (l->nAllocByte + 7) & ~(uint64_t)7;
    l->nAllocByte = l->nMovedOff + 8;
  }
}

/* Appends a predicate to an arena array grown by doubling. */
static plan_pred *shape_pred_add(plan_ctx *c, plan_pred **pa, int *pn, int *pnAlloc) {
  if (*pn == *pnAlloc) {
    int nNew = *pnAlloc ? *pnAlloc * 2 : 8;
    plan_pred *aNew = arena_alloc(c->pArena, sizeof(*aNew) * (size_t)nNew);
    if (aNew == NULL) return NULL;
    if (*pn) memcpy(aNew, *pa, sizeof(*aNew) * (size_t)*pn);
    *pa = aNew;
    *pnAlloc = nNew;
  }
  plan_pred *q = &(*pa)[(*pn)++];
  memset(q, 0, sizeof(*q));
  q->iDictCol = -1;
  return q;
}

/* Collects the conjuncts of WHERE and every ON. */
static int shape_collect(plan_ctx *c, sql_expr ***papConj, int *pnConj) {
  const sql_select *pSel = c->p->pSelect;
  int nAlloc = 0;
  *pnConj = 0;
  if (shape_conjuncts(c, pSel->pWhere, papConj, pnConj, &nAlloc) != 0) return -1;
  for (int i = 0; pSel->pFrom != NULL && i < pSel->pFrom->n; i++) {
    if (shape_conjuncts(c, pSel->pFrom->a[i].pOn, papConj, pnConj, &nAlloc) != 0) return -1;
  }
  return 0;
}

/* Makes every FROM item but the centre a dimension, joined by its picked edge. */
static int shape_dims(plan_ctx *c, const shape_edge *aEdge, const int *aiPick) {
  plan *p = c->p;
  p->nDim = p->nSource - 1;
  p->aDim = arena_alloc(c->pArena, sizeof(plan_dim) * (size_t)(p->nDim > 0 ? p->nDim : 1));
  if (p->aDim == NULL) return plan__oom(c);
  p->eKind = p->nSource == 1 ? PLAN_SCAN : PLAN_STAR;
  for (int s = 0, iDim = 0; s < p->nSource; s++) {
    if (s == p->iFact) continue;
    const shape_edge *g = &aEdge[aiPick[s]];
    int k = g->s[0] == p->iFact ? 0 : 1;
    plan_dim *d = &p->aDim[iDim];
    const cat_table *t = p->aSource[s].pTable;
    p->aiDimOf[s] = iDim;
    d->iSource = s;
    d->iFactCol = g->c[k];
    d->iKeyCol = g->c[1 - k];
    d->bDeclared = shape_declared(p, p->iFact, d->iFactCol, s, d->iKeyCol);
    d->bUnique = t->nPkey == 1 && t->aiPkey[0] == d->iKeyCol;
    d->rSel = 1;
    d->iCond = -1;
    if (!d->bDeclared) p->eKind = PLAN_JOIN;
    p->aSource[p->iFact].aUse[d->iFactCol] |= PLAN_USE_JOIN;
    p->aSource[s].aUse[d->iKeyCol] |= PLAN_USE_JOIN;
    if (shape_lookup(c, d) != 0) return -1;
    iDim++;
  }
  return 0;
}

/* Files every non-edge conjunct as a local predicate or a residual. */
static int shape_file_preds(plan_ctx *c, sql_expr **apConj, int nConj, const uint8_t *abEdge) {
  plan *p = c->p;
  int nFactAlloc = 0, nResAlloc = 0;
  int *anDimAlloc = arena_alloc(c->pArena, sizeof(int) * (size_t)(p->nDim + 1));
  if (anDimAlloc == NULL) return plan__oom(c);
  for (int i = 0; i < nConj; i++) {
    sql_expr *e = apConj[i];
    plan_mask m = plan__sources(e);
    plan_pred *q;
    if (abEdge[i]) continue;
    if (e->eKind == SQL_EXPR_BOOL && e->bValue) continue;   /* TRUE */
    if (m == 0 && (e->eKind == SQL_EXPR_NULL || e->eKind == SQL_EXPR_BOOL)) {
      p->bFalse = 1;                                          /* FALSE, NULL */
      continue;
    }
    if (m != 0 && (m & (m - 1)) == 0 && p->iFact >= 0 && m != ((plan_mask)1 << p->iFact)) {
      int s = __builtin_ctzll(m);
      plan_dim *d = &p->aDim[p->aiDimOf[s]];
      q = shape_pred_add(c, &d->aPred, &d->nPred, &anDimAlloc[p->aiDimOf[s]]);
      if (q == NULL) return plan__oom(c);
      q->iSource = s;
    } else if (m == 0 || (m & (m - 1)) == 0) {
      q = shape_pred_add(c, &p->aFactPred, &p->nFactPred, &nFactAlloc);
      if (q == NULL) return plan__oom(c);
      q->iSource = p->iFact;
    } else {
      q = shape_pred_add(c, &p->aResidual, &p->nResidual, &nResAlloc);
      if (q == NULL) return plan__oom(c);
      q->iSource = -1;
    }
    q->pExpr = e;
  }
  return 0;
}

int plan__shape(plan_ctx *c) {
  plan *p = c->p;
  sql_expr **apConj = NULL;
  shape_edge *aEdge;
  uint8_t *abEdge;
  int nConj = 0, nEdge = 0;

  if (shape_collect(c, &apConj, &nConj) != 0) return -1;
  aEdge = arena_alloc(c->pArena, sizeof(shape_edge) * (size_t)(nConj + 1));
  abEdge = arena_alloc(c->pArena, (size_t)(nConj + 1));
  if (aEdge == NULL || abEdge == NULL) return plan__oom(c);
  for (int i = 0; i < nConj && p->nSource > 1; i++) {
    abEdge[i] = (uint8_t)shape_is_edge(apConj[i], &aEdge[nEdge]);
    nEdge += abEdge[i];
  }

  if (p->nSource == 0) {
    p->eKind = PLAN_VALUES;
    p->iFact = -1;
  } else {
    int *aiPick = arena_alloc(c->pArena, sizeof(int) * (size_t)p->nSource);
    if (aiPick == NULL) return plan__oom(c);
    aiPick[0] = -1;
    p->iFact = p->nSource == 1 ? 0 : shape_centre(c, aEdge, nEdge, aiPick);
    if (p->iFact < 0) return c->pErr->zState[0] ? -1 : shape_refuse(c, aEdge, nEdge);
    p->aiDimOf[p->iFact] = -1;
    p->nFactRow = p->aSource[p->iFact].nRow;
    if (shape_dims(c, aEdge, aiPick) != 0) return -1;
    /* Only the picked edges join; any other equality is checked after the
    ** probes, as a residual. */
    memset(abEdge, 0, (size_t)(nConj + 1));
    for (int s = 0; s < p->nSource; s++) {
      if (aiPick[s] >= 0) {
        for (int i = 0; i < nConj; i++) abEdge[i] |= apConj[i] == aEdge[aiPick[s]].pExpr;
      }
    }
  }
  return shape_file_preds(c, apConj, nConj, abEdge);
}

void plan__shape_bits(plan *p) {
  for (int d = 0; d < p->nDim; d++) shape_lookup_bits(p, &p->aDim[d]);
}
