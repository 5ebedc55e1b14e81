/*
** host/window.c — window functions over one PARTITION BY / ORDER BY: the
** input rows sorted by partition then order keys, each partition walked
** with its peer groups (rows equal in the order keys), each function's
** value appended to its row. Frames are PostgreSQL's: ROWS, RANGE (with
** offsets on a single numeric or date order key) and GROUPS, with the
** default RANGE UNBOUNDED PRECEDING to CURRENT ROW (the whole partition
** when there is no ORDER BY, every row then being a peer). Aggregates
** over a frame that only grows are folded incrementally; a frame that
** moves is folded again (inputs here are small).
**
** INTERFACE ROUTINES (hostInt.h)
**   host__window
*/
#include <stdlib.h>
#include <string.h>

#include "../parser/ast.h"
#include "hostInt.h"

/* A row with its partition and order keys. */
typedef struct host_wrow host_wrow;
struct host_wrow {
  datum *aKey;             /* nKey partition values, then nSort order values */
  datum *aRow;
  int64_t iIn;             /* its input position (ties keep input order) */
};

static int host_wrow_cmp_part(const host_node *n, const host_wrow *a, const host_wrow *b) {
  for (int k = 0; k < n->nKey; k++) {
    int c = host__sort_cmp(&a->aKey[k], &b->aKey[k], 0, 0);
    if (c != 0) return c;
  }
  return 0;
}

static int host_wrow_cmp_order(const host_node *n, const host_wrow *a, const host_wrow *b) {
  for (int k = 0; k < n->nSort; k++) {
    int c = host__sort_cmp(&a->aKey[n->nKey + k], &b->aKey[n->nKey + k], n->aSort[k].bDesc,
                           n->aSort[k].bNullsFirst);
    if (c != 0) return c;
  }
  return 0;
}

static int host_wrow_cmp(const host_node *n, const host_wrow *a, const host_wrow *b) {
  int c = host_wrow_cmp_part(n, a, b);
  if (c == 0) c = host_wrow_cmp_order(n, a, b);
  if (c == 0) c = a->iIn < b->iIn ? -1 : a->iIn > b->iIn;
  return c;
}

/* qsort's context, since qsort_r is not C11: one sort at a time per thread. */
static _Thread_local const host_node *host_pWsortNode;

static int host_wrow_qcmp(const void *pa, const void *pb) {
  return host_wrow_cmp(host_pWsortNode, pa, pb);
}

/* Sorts a[0..m) by partition, order and input position: a total order,
** so the result is the same whatever qsort does with ties. */
static void host_wsort_rows(const host_node *n, host_wrow *a, int64_t m) {
  host_pWsortNode = n;
  qsort(a, (size_t)m, sizeof(host_wrow), host_wrow_qcmp);
  host_pWsortNode = NULL;
}

/* The state of one partition's walk. */
typedef struct host_wpart host_wpart;
struct host_wpart {
  host_run_ctx *x;
  const host_node *n;
  host_wrow *a;            /* the sorted rows */
  int64_t p0, p1;          /* the partition: a[p0..p1) */
  int64_t *aPeerStart;     /* per row: its peer group's first row */
  int64_t *aPeerEnd;       /* ... and one past its last */
  int64_t *aGroup;         /* per row: its peer group's number from 0 */
};

/* Evaluates offset expression e on row r as a non-negative integer. */
static int host_win_offset(host_wpart *w, const host_expr *e, const datum *aRow, int64_t *pv, datum *pRaw) {
  datum v;
  if (host__eval(w->x, e, aRow, &v) != 0) return -1;
  if (v.bNull) {
    sql_error_set(w->x->pErr, "22013", -1, "frame starting offset must not be null");
    return -1;
  }
  if (pRaw != NULL) *pRaw = v;
  if (host__is_int(v.type.eId)) {
    if (v.u.i < 0) {
      sql_error_set(w->x->pErr, "22013", -1, "frame starting offset must not be negative");
      return -1;
    }
    *pv = v.u.i;
  } else {
    *pv = 0;
  }
  return 0;
}

/* RANGE with an offset: the first row (bStart) or one past the last whose
** order key lies within cur -+ off (direction by the sort's DESC). */
static int host_win_range(host_wpart *w, int64_t i, const datum *pOff, int bPreceding, int bStart,
                          int64_t *pPos) {
  const host_node *n = w->n;
  const datum *cur = &w->a[i].aKey[n->nKey];
  datum bound;
  int bDesc = n->nSort > 0 && n->aSort[0].bDesc;
  int bBack = bPreceding != bDesc;           /* towards smaller keys */
  coltype t = cur->type;
  if (cur->bNull) {                          /* NULLs: the NULL peers */
    *pPos = bStart ? w->aPeerStart[i] : w->aPeerEnd[i];
    return 0;
  }
  if (cur->type.eId == COLTYPE_DATE) {
    bound = *cur;
    bound.u.i += bBack ? -pOff->u.i : pOff->u.i;
  } else {
    datum off = *pOff;
    if (bBack) {
      datum z = off;
      if (host__is_numeric(off.type.eId)) off.u.n = numeric_neg(&off.u.n);
      else if (off.type.eId == COLTYPE_DOUBLE) off.u.r = -off.u.r;
      else off.u.i = -off.u.i;
      (void)z;
    }
    if (host__is_int(t.eId)) t.eId = COLTYPE_BIGINT;
    if (host__is_numeric(off.type.eId) && host__is_int(t.eId)) t.eId = COLTYPE_NUMERIC;
    if (host__add(w->x, cur, &off, t, &bound) != 0) return -1;
  }
  /* Walk: rows in [p0, p1) ordered; find the frame edge. */
  if (bStart) {
    int64_t j = w->p0;
    while (j < w->p1) {
      const datum *k = &w->a[j].aKey[n->nKey];
      int c;
      if (k->bNull) {
        if (n->aSort[0].bNullsFirst) {
          j++;
          continue;
        }
        break;
      }
      c = host_datum_cmp(k, &bound);
      if (bDesc ? c <= 0 : c >= 0) break;
      j++;
    }
    *pPos = j;
  } else {
    int64_t j = w->p1;
    while (j > w->p0) {
      const datum *k = &w->a[j - 1].aKey[n->nKey];
      int c;
      if (k->bNull) {
        if (!n->aSort[0].bNullsFirst) {
          j--;
          continue;
        }
        break;
      }
      c = host_datum_cmp(k, &bound);
      if (bDesc ? c >= 0 : c <= 0) break;
      j--;
    }
    *pPos = j;
  }
  return 0;
}

/* The frame [*pS, *pE) of function f for row i. */
static int host_win_frame(host_wpart *w, const host_win *f, int64_t i, int64_t *pS, int64_t *pE) {
  int64_t s = w->p0, e = w->p1, off;
  datum raw;
  const datum *aRow = w->a[i].aRow;
  switch (f->eStart) {
    case HOST_BOUND_UNBOUNDED_PRECEDING: s = w->p0; break;
    case HOST_BOUND_CURRENT_ROW:
      s = f->eUnit == HOST_FRAME_ROWS ? i : w->aPeerStart[i];
      break;
    case HOST_BOUND_PRECEDING:
    case HOST_BOUND_FOLLOWING: {
      int bPre = f->eStart == HOST_BOUND_PRECEDING;
      if (host_win_offset(w, f->pStartOffset, aRow, &off, &raw) != 0) return -1;
      if (f->eUnit == HOST_FRAME_ROWS) {
        s = bPre ? i - off : i + off;
      } else if (f->eUnit == HOST_FRAME_GROUPS) {
        int64_t g = w->aGroup[i] + (bPre ? -off : off), j = w->p0;
        while (j < w->p1 && w->aGroup[j] < g) j++;
        s = j;
      } else if (host_win_range(w, i, &raw, bPre, 1, &s) != 0) {
        return -1;
      }
      break;
    }
    case HOST_BOUND_UNBOUNDED_FOLLOWING: s = w->p1; break;
  }
  switch (f->eEnd) {
    case HOST_BOUND_UNBOUNDED_FOLLOWING: e = w->p1; break;
    case HOST_BOUND_CURRENT_ROW:
      e = f->eUnit == HOST_FRAME_ROWS ? i + 1 : w->aPeerEnd[i];
      break;
    case HOST_BOUND_PRECEDING:
    case HOST_BOUND_FOLLOWING: {
      int bPre = f->eEnd == HOST_BOUND_PRECEDING;
      if (host_win_offset(w, f->pEndOffset, aRow, &off, &raw) != 0) return -1;
      if (f->eUnit == HOST_FRAME_ROWS) {
        e = (bPre ? i - off : i + off) + 1;
      } else if (f->eUnit == HOST_FRAME_GROUPS) {
        int64_t g = w->aGroup[i] + (bPre ? -off : off), j = w->p0;
        while (j < w->p1 && w->aGroup[j] <= g) j++;
        e = j;
      } else if (host_win_range(w, i, &raw, bPre, 0, &e) != 0) {
        return -1;
      }
      break;
    }
    case HOST_BOUND_UNBOUNDED_PRECEDING: e = w->p0; break;
  }
  if (s < w->p0) s = w->p0;
  if (e > w->p1) e = w->p1;
  if (e < s) e = s;
  *pS = s;
  *pE = e;
  return 0;
}

/* Function f's values for every row of the partition into column iCol. */
static int host_win_fill(host_wpart *w, const host_win *f, int iCol) {
  host_run_ctx *x = w->x;
  int64_t n = w->p1 - w->p0;
  host_agg_state st;
  int64_t sPrev = -1, ePrev = -1;
  datum vPrev;
  memset(&st, 0, sizeof(st));
  vPrev = datum_null(f->type.eId);
  for (int64_t i = w->p0; i < w->p1; i++) {
    datum *pOut = &w->a[i].aRow[iCol];
    const datum *aRow = w->a[i].aRow;
    int64_t s, e;
    *pOut = datum_null(f->type.eId);
    pOut->type = f->type;
    switch (f->eFunc) {
      case HOST_WIN_ROW_NUMBER:
        *pOut = datum_int(COLTYPE_BIGINT, i - w->p0 + 1);
        break;
      case HOST_WIN_RANK:
        *pOut = datum_int(COLTYPE_BIGINT, w->aPeerStart[i] - w->p0 + 1);
        break;
      case HOST_WIN_DENSE_RANK:
        *pOut = datum_int(COLTYPE_BIGINT, w->aGroup[i] + 1);
        break;
      case HOST_WIN_PERCENT_RANK:
        *pOut = datum_float(n > 1 ? (double)(w->aPeerStart[i] - w->p0) / (double)(n - 1) : 0.0);
        break;
      case HOST_WIN_CUME_DIST:
        *pOut = datum_float((double)(w->aPeerEnd[i] - w->p0) / (double)n);
        break;
      case HOST_WIN_NTILE: {
        datum k;
        int64_t per, rem, r = i - w->p0, b;
        if (host__eval(x, f->apArg[0], aRow, &k) != 0) return -1;
        if (k.bNull) break;
        if (k.u.i <= 0) {
          sql_error_set(x->pErr, "22014", -1, "argument of ntile must be greater than zero");
          return -1;
        }
        per = n / k.u.i;
        rem = n % k.u.i;
        /* The first rem buckets hold per + 1 rows. */
        if (r < rem * (per + 1)) b = r / (per + 1);
        else b = rem + (per > 0 ? (r - rem * (per + 1)) / per : 0);
        *pOut = datum_int(COLTYPE_INTEGER, b + 1);
        break;
      }
      case HOST_WIN_LAG:
      case HOST_WIN_LEAD: {
        int64_t off = 1, j;
        if (f->nArg > 1) {
          datum o;
          if (host__eval(x, f->apArg[1], aRow, &o) != 0) return -1;
          if (o.bNull) break;
          off = o.u.i;
        }
        j = f->eFunc == HOST_WIN_LAG ? i - off : i + off;
        if (j >= w->p0 && j < w->p1) {
          if (host__eval(x, f->apArg[0], w->a[j].aRow, pOut) != 0) return -1;
        } else if (f->nArg > 2) {
          if (host__eval(x, f->apArg[2], aRow, pOut) != 0) return -1;
        }
        break;
      }
      case HOST_WIN_FIRST_VALUE:
      case HOST_WIN_LAST_VALUE:
      case HOST_WIN_NTH_VALUE: {
        int64_t j;
        if (host_win_frame(w, f, i, &s, &e) != 0) return -1;
        if (f->eFunc == HOST_WIN_NTH_VALUE) {
          datum nth;
          if (host__eval(x, f->apArg[1], aRow, &nth) != 0) return -1;
          if (nth.bNull) break;
          if (nth.u.i <= 0) {
            sql_error_set(x->pErr, "22016", -1, "argument of nth_value must be greater than zero");
            return -1;
          }
          j = s + nth.u.i - 1;
        } else {
          j = f->eFunc == HOST_WIN_FIRST_VALUE ? s : e - 1;
        }
        if (j >= s && j < e && host__eval(x, f->apArg[0], w->a[j].aRow, pOut) != 0) return -1;
        break;
      }
      case HOST_WIN_AGG:
        if (host_win_frame(w, f, i, &s, &e) != 0) return -1;
        if (s == sPrev && e == ePrev) {
          *pOut = vPrev;
          break;
        }
        if (s != sPrev || e < ePrev) {
          memset(&st, 0, sizeof(st));
          ePrev = s;
        }
        for (int64_t j = ePrev; j < e; j++) {
          if (host__agg_step(x, &f->agg, &st, w->a[j].aRow) != 0) return -1;
        }
        if (host__agg_final(x, &f->agg, &st, pOut) != 0) return -1;
        sPrev = s;
        ePrev = e;
        vPrev = *pOut;
        break;
    }
    if (f->eFunc != HOST_WIN_LAG && f->eFunc != HOST_WIN_LEAD && f->eFunc != HOST_WIN_FIRST_VALUE &&
        f->eFunc != HOST_WIN_LAST_VALUE && f->eFunc != HOST_WIN_NTH_VALUE && !pOut->bNull) {
      pOut->type = f->type;
    }
  }
  return 0;
}

int host__window(host_run_ctx *x, const host_node *n, const host_rel *pIn, host_rel *pOut) {
  int nIn = n->pLeft->nCol, nKeyAll = n->nKey + n->nSort;
  int64_t m = pIn->nRow;
  host_wrow *a;
  host_wpart w;
  int rc = -1;
  if (m == 0) return 0;
  a = malloc(sizeof(host_wrow) * (size_t)m);
  memset(&w, 0, sizeof(w));
  w.aPeerStart = malloc(sizeof(int64_t) * (size_t)m);
  w.aPeerEnd = malloc(sizeof(int64_t) * (size_t)m);
  w.aGroup = malloc(sizeof(int64_t) * (size_t)m);
  if (a == NULL || w.aPeerStart == NULL || w.aPeerEnd == NULL || w.aGroup == NULL) {
    host__oom(x);
    goto out_free;
  }
  for (int64_t i = 0; i < m; i++) {
    datum *aRow = host__row_new(x, n->nCol);
    if (aRow == NULL) goto out_free;
    memcpy(aRow, pIn->apRow[i], sizeof(datum) * (size_t)nIn);
    a[i].aRow = aRow;
    a[i].iIn = i;
    if ((a[i].aKey = host__row_new(x, nKeyAll)) == NULL) goto out_free;
    for (int k = 0; k < n->nKey; k++) {
      if (host__eval(x, n->apKey[k], aRow, &a[i].aKey[k]) != 0) goto out_free;
    }
    for (int k = 0; k < n->nSort; k++) {
      if (host__eval(x, n->aSort[k].pExpr, aRow, &a[i].aKey[n->nKey + k]) != 0) goto out_free;
    }
  }
  host_wsort_rows(n, a, m);
  w.x = x;
  w.n = n;
  w.a = a;
  for (int64_t p0 = 0; p0 < m;) {
    int64_t p1 = p0 + 1, g = 0;
    while (p1 < m && host_wrow_cmp_part(n, &a[p0], &a[p1]) == 0) p1++;
    for (int64_t i = p0; i < p1;) {
      int64_t j = i + 1;
      while (j < p1 && host_wrow_cmp_order(n, &a[i], &a[j]) == 0) j++;
      for (int64_t k = i; k < j; k++) {
        w.aPeerStart[k] = i;
        w.aPeerEnd[k] = j;
        w.aGroup[k] = g;
      }
      g++;
      i = j;
    }
    w.p0 = p0;
    w.p1 = p1;
    for (int f = 0; f < n->nWin; f++) {
      if (host_win_fill(&w, &n->aWin[f], nIn + f) != 0) goto out_free;
    }
    p0 = p1;
  }
  for (int64_t i = 0; i < m; i++) {
    if (host__rel_add(x, pOut, a[i].aRow) != 0) goto out_free;
  }
  rc = 0;
out_free:
  free(a);
  free(w.aPeerStart);
  free(w.aPeerEnd);
  free(w.aGroup);
  return rc;
}
