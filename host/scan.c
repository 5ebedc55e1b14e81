/*
** host/scan.c — the leaves of a host plan that make rows from nothing but
** the plan: VALUES lists, virtual relations (catalog/vrel.h: pg_catalog's
** and information_schema's tables, computed when read) and
** generate_series. A device pipeline's result, the other leaf, is the
** caller's (host_config.xInput; run.c).
**
** INTERFACE ROUTINES (hostInt.h)
**   host__scan_values, host__scan_vrel, host__scan_series
*/
#include <string.h>

#include "hostInt.h"

int host__scan_values(host_run_ctx *x, const host_node *n, host_rel *pOut) {
  for (int r = 0; r < n->nRow; r++) {
    datum *a = host__row_new(x, n->nCol);
    if (a == NULL) return -1;
    for (int c = 0; c < n->nCol; c++) {
      if (host__eval(x, n->apExpr[r * n->nCol + c], NULL, &a[c]) != 0) return -1;
    }
    if (host__rel_add(x, pOut, a) != 0) return -1;
  }
  return 0;
}

/* What a virtual relation's scan hands each row to. */
typedef struct host_vrel_scan host_vrel_scan;
struct host_vrel_scan {
  host_run_ctx *x;
  const host_node *n;
  host_rel *pOut;
};

static int host_vrel_row(void *pArg, const datum *aVal) {
  host_vrel_scan *p = pArg;
  datum *a = host__row_new(p->x, p->n->nCol);
  if (a == NULL) return -1;
  for (int c = 0; c < p->n->nCol; c++) {
    a[c] = aVal[c];
    if (!a[c].bNull) a[c].type = p->n->aType[c];
    else a[c].type = p->n->aType[c];
    if (host__datum_own(p->x, &a[c]) != 0) return -1;
  }
  return host__rel_add(p->x, p->pOut, a);
}

int host__scan_vrel(host_run_ctx *x, const host_node *n, host_rel *pOut) {
  host_vrel_scan s;
  int rc;
  s.x = x;
  s.n = n;
  s.pOut = pOut;
  rc = n->pVrel->xScan(&x->fc, host_vrel_row, &s, x->pErr);
  if (rc == 0) return 0;
  if (x->pErr->zState[0] == 0) {
    sql_error_set(x->pErr, SQLSTATE_INTERNAL_ERROR, -1, "scan of %s.%s failed", n->pVrel->zSchema,
                  n->pVrel->zName);
  }
  return -1;
}

/* generate_series(start, stop[, step]) over integers: PostgreSQL's, with
** its errors (a zero step is 22023). */
int host__scan_series(host_run_ctx *x, const host_node *n, host_rel *pOut) {
  datum a[3];
  int64_t iStep = 1;
  for (int i = 0; i < n->nExpr; i++) {
    if (host__eval(x, n->apExpr[i], NULL, &a[i]) != 0) return -1;
    if (a[i].bNull) return 0;                /* strict: no rows */
  }
  if (n->nExpr == 3) iStep = a[2].u.i;
  if (iStep == 0) {
    sql_error_set(x->pErr, SQLSTATE_INVALID_PARAMETER, -1, "step size cannot equal zero");
    return -1;
  }
  for (int64_t v = a[0].u.i; iStep > 0 ? v <= a[1].u.i : v >= a[1].u.i;) {
    datum *r = host__row_new(x, 1);
    if (r == NULL) return -1;
    r[0] = datum_int(n->aType[0].eId, v);
    r[0].type = n->aType[0];
    if (host__rel_add(x, pOut, r) != 0) return -1;
    if (__builtin_add_overflow(v, iStep, &v)) break;
  }
  return 0;
}
