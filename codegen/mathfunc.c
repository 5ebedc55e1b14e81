/*
** codegen/mathfunc.c — the rounding functions as C: round, ceil/ceiling,
** floor and trunc of a double (the float8 versions, which PostgreSQL also
** picks for an integer argument) and of a DECIMAL (the numeric versions,
** round(x, n) and trunc(x, n) included), typed by planner/bind_func.c;
** and sqrt and power of doubles (device.cuh's sq_fsqrt and sq_fpow:
** PostgreSQL's errors, 2201F and 22003).
**
** PostgreSQL's float8 round is rint(), half to even; its numeric round is
** half away from zero (sq_unscale_round, as the cast to a smaller scale).
** A numeric result's scale is its type's (n, or 0), so the kernel text
** names it and two scales are two kernels, never one kernel's parameter.
**
** INTERFACE ROUTINES (codegenInt.h)
**   cg__math_func          emit one call of these
*/
#include <stdio.h>
#include <string.h>

#include "codegenInt.h"

int cg__math_func(cgx *x, const sql_expr *e, cg_val *pv) {
  const char *zName = e->zName;
  coltype t = e->b.type;
  cg_val v;
  char zT[32], zExpr[192];
  long long nPow = 1;
  int d;
  if (cg__expr(x, e->pList->a[0].pExpr, &v) != 0) return -1;
  memset(pv, 0, sizeof(*pv));
  pv->type = t;
  snprintf(pv->zNull, sizeof(pv->zNull), "%s", v.zNull);
  snprintf(zT, sizeof(zT), "t%d", (*x->pnTemp)++);
  if (strcmp(zName, "sqrt") == 0) {
    cg__as(x, &v, t);
    pv->bFloat = 1;
    cg__line(x, "double %s = %s ? 0.0 : sq_fsqrt(%s, a.err);", zT, pv->zNull, v.z);
    snprintf(pv->z, sizeof(pv->z), "%s", zT);
    return 0;
  }
  if (zName[0] == 'p') {                               /* power, pow */
    cg_val w;
    if (cg__expr(x, e->pList->a[1].pExpr, &w) != 0) return -1;
    cg__as(x, &v, t);
    cg__as(x, &w, t);
    pv->bFloat = 1;
    if (strcmp(v.zNull, "0") == 0) snprintf(pv->zNull, sizeof(pv->zNull), "%s", w.zNull);
    else if (strcmp(w.zNull, "0") != 0) snprintf(pv->zNull, sizeof(pv->zNull), "(%s || %s)", v.zNull, w.zNull);
    cg__line(x, "double %s = %s ? 0.0 : sq_fpow(%s, %s, a.err);", zT, pv->zNull, v.z, w.z);
    snprintf(pv->z, sizeof(pv->z), "%s", zT);
    return 0;
  }
  if (t.eId == COLTYPE_DOUBLE) {
    const char *zFn = strcmp(zName, "round") == 0   ? "rint"
                      : strcmp(zName, "floor") == 0 ? "floor"
                      : strcmp(zName, "trunc") == 0 ? "trunc"
                                                    : "ceil";
    cg__as(x, &v, t);
    pv->bFloat = 1;
    cg__line(x, "double %s = %s(%s);", zT, zFn, v.z);
    snprintf(pv->z, sizeof(pv->z), "%s", zT);
    return 0;
  }
  /* A DECIMAL (or an integer, scale 0) to scale t.nScale. */
  pv->nScale = t.nScale;
  d = v.nScale - t.nScale;
  if (d <= 0) {
    snprintf(zExpr, sizeof(zExpr), "sq_scale(%s, %d, a.err)", v.z, -d);
  } else {
    for (int i = 0; i < d; i++) nPow *= 10;
    cg__line(x, "long long %s_x = %s;", zT, v.z);
    if (strcmp(zName, "round") == 0) {
      snprintf(zExpr, sizeof(zExpr), "sq_unscale_round(%s_x, %d)", zT, d);
    } else if (strcmp(zName, "trunc") == 0) {
      snprintf(zExpr, sizeof(zExpr), "(%s_x / %lldll)", zT, nPow);
    } else if (strcmp(zName, "floor") == 0) {
      snprintf(zExpr, sizeof(zExpr), "(%s_x / %lldll - (%s_x %% %lldll < 0))", zT, nPow, zT, nPow);
    } else {
      snprintf(zExpr, sizeof(zExpr), "(%s_x / %lldll + (%s_x %% %lldll > 0))", zT, nPow, zT, nPow);
    }
  }
  cg__line(x, "long long %s = %s ? 0 : %s;", zT, pv->zNull, zExpr);
  snprintf(pv->z, sizeof(pv->z), "%s", zT);
  return 0;
}
