/*
** host/sort.c — ordering and duplicates: ORDER BY (a stable merge sort on
** keys computed once per row, NULLs where PostgreSQL puts them), DISTINCT
** and DISTINCT ON (the first row of each distinct tuple, in input order),
** and the set operations UNION / INTERSECT / EXCEPT with and without ALL
** (rows counted per distinct tuple on each side; NULLs are equal here, as
** SQL's set operations treat them).
**
** INTERFACE ROUTINES (hostInt.h)
**   host__sort, host__distinct, host__setop
*/
#include <stdlib.h>
#include <string.h>

#include "hostInt.h"

/* A row with its sort keys. */
typedef struct host_keyed host_keyed;
struct host_keyed {
  datum *aKey;
  datum *aRow;
};

static int host_keyed_cmp(const host_node *n, const host_keyed *a, const host_keyed *b) {
  for (int k = 0; k < n->nSort; k++) {
    int c = host__sort_cmp(&a->aKey[k], &b->aKey[k], n->aSort[k].bDesc, n->aSort[k].bNullsFirst);
    if (c != 0) return c;
  }
  return 0;
}

/* Merge sort of a[0..n) using scratch t: stable, O(n log n). */
static void host_merge_sort(const host_node *nd, host_keyed *a, host_keyed *t, int64_t n) {
  int64_t m, i, j, k;
  if (n < 2) return;
  m = n / 2;
  host_merge_sort(nd, a, t, m);
  host_merge_sort(nd, a + m, t, n - m);
  if (host_keyed_cmp(nd, &a[m - 1], &a[m]) <= 0) return;
  memcpy(t, a, sizeof(host_keyed) * (size_t)n);
  for (i = 0, j = m, k = 0; k < n; k++) {
    if (j >= n || (i < m && host_keyed_cmp(nd, &t[i], &t[j]) <= 0)) a[k] = t[i++];
    else a[k] = t[j++];
  }
}

int host__sort(host_run_ctx *x, const host_node *n, const host_rel *pIn, host_rel *pOut) {
  host_keyed *a, *t;
  if (pIn->nRow == 0) return 0;
  a = malloc(sizeof(host_keyed) * (size_t)pIn->nRow);
  t = malloc(sizeof(host_keyed) * (size_t)pIn->nRow);
  if (a == NULL || t == NULL) {
    free(a);
    free(t);
    return host__oom(x);
  }
  for (int64_t i = 0; i < pIn->nRow; i++) {
    a[i].aRow = pIn->apRow[i];
    if ((a[i].aKey = host__row_new(x, n->nSort)) == NULL) goto out_fail;
    for (int k = 0; k < n->nSort; k++) {
      if (host__eval(x, n->aSort[k].pExpr, a[i].aRow, &a[i].aKey[k]) != 0) goto out_fail;
    }
  }
  host_merge_sort(n, a, t, pIn->nRow);
  for (int64_t i = 0; i < pIn->nRow; i++) {
    if (host__rel_add(x, pOut, a[i].aRow) != 0) goto out_fail;
  }
  free(a);
  free(t);
  return 0;
out_fail:
  free(a);
  free(t);
  return -1;
}

int host__distinct(host_run_ctx *x, const host_node *n, const host_rel *pIn, host_rel *pOut) {
  int nKey = n->nOn > 0 ? n->nOn : n->nCol;
  host_hash *h = host__hash_new(x, nKey);
  datum *aKey = host__row_new(x, nKey);
  if (h == NULL || aKey == NULL) return -1;
  for (int64_t i = 0; i < pIn->nRow; i++) {
    const datum *aRow = pIn->apRow[i], *aK = aRow;
    void **pp;
    int bNew;
    if (n->nOn > 0) {
      for (int k = 0; k < n->nOn; k++) {
        if (host__eval(x, n->apExpr[k], aRow, &aKey[k]) != 0) return -1;
      }
      aK = aKey;
    }
    if (host__hash_find(x, h, aK, 1, &pp, &bNew) != 0) return -1;
    if (bNew && host__rel_add(x, pOut, pIn->apRow[i]) != 0) return -1;
  }
  return 0;
}

/* Per distinct tuple: how often on each side, and its first row. */
typedef struct host_setop_count host_setop_count;
struct host_setop_count {
  int64_t nLeft, nRight;
  datum *aRow;
};

typedef struct host_setop_out host_setop_out;
struct host_setop_out {
  host_run_ctx *x;
  const host_node *n;
  host_rel *pOut;
};

static int host_setop_emit(void *pArg, const datum *aKey, void *pVal) {
  host_setop_out *o = pArg;
  host_setop_count *c = pVal;
  int64_t nCopy = 0;
  (void)aKey;
  switch (o->n->eSetOp) {
    case HOST_SETOP_UNION:
      nCopy = 1;
      break;
    case HOST_SETOP_INTERSECT:
      nCopy = o->n->bAll ? (c->nLeft < c->nRight ? c->nLeft : c->nRight) : (c->nLeft > 0 && c->nRight > 0);
      break;
    case HOST_SETOP_EXCEPT:
      nCopy = o->n->bAll ? (c->nLeft > c->nRight ? c->nLeft - c->nRight : 0)
                         : (c->nLeft > 0 && c->nRight == 0);
      break;
  }
  for (int64_t i = 0; i < nCopy; i++) {
    if (host__rel_add(o->x, o->pOut, c->aRow) != 0) return -1;
  }
  return 0;
}

int host__setop(host_run_ctx *x, const host_node *n, const host_rel *pL, const host_rel *pR,
                host_rel *pOut) {
  host_hash *h;
  host_setop_out o;
  if (n->eSetOp == HOST_SETOP_UNION && n->bAll) {
    for (int64_t i = 0; i < pL->nRow; i++) {
      if (host__rel_add(x, pOut, pL->apRow[i]) != 0) return -1;
    }
    for (int64_t i = 0; i < pR->nRow; i++) {
      if (host__rel_add(x, pOut, pR->apRow[i]) != 0) return -1;
    }
    return 0;
  }
  if ((h = host__hash_new(x, n->nCol)) == NULL) return -1;
  for (int side = 0; side < 2; side++) {
    const host_rel *r = side == 0 ? pL : pR;
    for (int64_t i = 0; i < r->nRow; i++) {
      void **pp;
      int bNew;
      host_setop_count *c;
      if (host__hash_find(x, h, r->apRow[i], 1, &pp, &bNew) != 0) return -1;
      if (bNew) {
        if ((c = arena_alloc(x->pArena, sizeof(*c))) == NULL) return host__oom(x);
        memset(c, 0, sizeof(*c));
        c->aRow = r->apRow[i];
        *pp = c;
      }
      c = *pp;
      if (side == 0) c->nLeft++;
      else c->nRight++;
    }
  }
  o.x = x;
  o.n = n;
  o.pOut = pOut;
  return host__hash_each(h, host_setop_emit, &o);
}
