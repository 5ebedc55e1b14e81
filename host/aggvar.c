/*
** host/aggvar.c — var_pop, var_samp, stddev_pop, stddev_samp (variance
** and stddev are the _samp ones) and bit_and, bit_or, as PostgreSQL
** computes them.
**
** Over integers and NUMERIC the result is numeric, from exact sums: the
** count N, the sum of the values and of their squares in 128-bit numeric,
** then PostgreSQL's numeric_stddev_internal: (N * sumX2 - sumX^2) /
** (N * (N - 1)) (N * N for the population), at the division's scale
** (select_div_scale), 0 when the numerator is not positive, the square
** root for stddev rounded to that scale. Over doubles it is double, by
** PostgreSQL's float8_accum (Youngs-Cramer) one value at a time, and by
** its float8_combine for a value counted more than once; a different
** order of the rows may change the last bits, as it may in PostgreSQL.
**
** A value may come with a count (the star query's rows grouped by value,
** dag_distinct.c): it is folded that many times.
**
** INTERFACE ROUTINES (hostInt.h)
**   host__agg_var_step, host__agg_var_final
*/
#include <math.h>
#include <string.h>

#include "hostInt.h"

static int host_numeric_rc(host_run_ctx *x, int rc) {
  if (rc == NUMERIC_OK) return 0;
  numeric_error(rc, "bigint", x->pErr);
  return -1;
}

/* Folds v (not NULL) counted w times into s. */
int host__agg_var_step(host_run_ctx *x, const host_agg *a, host_agg_state *s, const datum *v, int64_t w) {
  if (a->eFunc == HOST_AGG_BIT_AND || a->eFunc == HOST_AGG_BIT_OR) {
    if (!s->bHave) {
      s->acc = *v;
      s->bHave = 1;
    } else if (a->eFunc == HOST_AGG_BIT_AND) {
      s->acc.u.i &= v->u.i;
    } else {
      s->acc.u.i |= v->u.i;
    }
    return 0;
  }
  if (v->type.eId == COLTYPE_DOUBLE || v->type.eId == COLTYPE_FLOAT4) {
    double r = v->u.r, n1 = s->rN;
    if (w == 1 || n1 == 0) {           /* float8_accum, w times */
      for (int64_t i = 0; i < w; i++) {
        double nOld = s->rN, sxOld = s->rSx;
        s->rN += 1.0;
        s->rSx += r;
        if (nOld > 0.0) {
          double tmp = r * s->rN - s->rSx;
          s->rSxx += tmp * tmp / (s->rN * nOld);
          if (isinf(s->rSx) || isinf(s->rSxx)) {
            if (!isinf(sxOld) && !isinf(r)) {
              sql_error_set(x->pErr, "22003", -1, "value out of range: overflow");
              return -1;
            }
            s->rSxx = NAN;
          }
        } else if (isnan(r) || isinf(r)) {
          s->rSxx = NAN;
        }
        if ((i & 4095) == 4095 && host__check(x) != 0) return -1;
      }
    } else {                           /* float8_combine with (w, w*r, 0) */
      double n2 = (double)w, sx2 = r * n2, sxx2 = isnan(r) || isinf(r) ? NAN : 0.0;
      double tmp = s->rSx / n1 - sx2 / n2, sxx1 = s->rSxx;
      s->rN = n1 + n2;
      s->rSx += sx2;
      s->rSxx = sxx1 + sxx2 + n1 * n2 * tmp * tmp / s->rN;
      if (isinf(s->rSxx) && !isinf(sxx1) && !isinf(sxx2)) {
        sql_error_set(x->pErr, "22003", -1, "value out of range: overflow");
        return -1;
      }
    }
    return 0;
  } else {
    coltype tNum = {COLTYPE_NUMERIC, 0, 0, 0};
    datum n;
    numeric nw = numeric_from_int64(w), t, t2;
    if (host__cast(x, v, tNum, &n) != 0) return -1;
    if (n.u.n.eKind != NUMERIC_FINITE) {
      sql_error_set(x->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                    "variance of NaN or infinity is not supported yet");
      return -1;
    }
    if (host_numeric_rc(x, numeric_mul(&n.u.n, &nw, &t)) != 0 ||
        host_numeric_rc(x, numeric_mul(&n.u.n, &n.u.n, &t2)) != 0 ||
        host_numeric_rc(x, numeric_mul(&t2, &nw, &t2)) != 0) {
      return -1;
    }
    if (!s->bHave) {
      s->sumX = t;
      s->sumX2 = t2;
      s->bHave = 1;
    } else if (host_numeric_rc(x, numeric_add(&s->sumX, &t, &s->sumX)) != 0 ||
               host_numeric_rc(x, numeric_add(&s->sumX2, &t2, &s->sumX2)) != 0) {
      return -1;
    }
    s->nCount += w;
    return 0;
  }
}

/* The result over doubles: NULL below the count the formula needs. */
static int host_var_double(const host_agg *a, const host_agg_state *s, datum *pOut) {
  int bSamp = a->eFunc == HOST_AGG_VAR_SAMP || a->eFunc == HOST_AGG_STDDEV_SAMP;
  double r;
  if (s->rN == 0.0 || (bSamp && s->rN <= 1.0)) return 0;
  r = s->rSxx / (bSamp ? s->rN - 1.0 : s->rN);
  if (a->eFunc == HOST_AGG_STDDEV_POP || a->eFunc == HOST_AGG_STDDEV_SAMP) r = sqrt(r);
  *pOut = datum_float(r);
  pOut->type = a->type;
  return 0;
}

int host__agg_var_final(host_run_ctx *x, const host_agg *a, const host_agg_state *s, datum *pOut) {
  int bSamp = a->eFunc == HOST_AGG_VAR_SAMP || a->eFunc == HOST_AGG_STDDEV_SAMP;
  numeric vN, vD, sq, num, q;
  *pOut = datum_null(a->type.eId);
  pOut->type = a->type;
  if (a->eFunc == HOST_AGG_BIT_AND || a->eFunc == HOST_AGG_BIT_OR) {
    if (s->bHave) {
      *pOut = s->acc;
      pOut->type = a->type;
    }
    return 0;
  }
  if (a->type.eId == COLTYPE_DOUBLE) return host_var_double(a, s, pOut);
  if (!s->bHave || s->nCount == 0 || (bSamp && s->nCount <= 1)) return 0;
  vN = numeric_from_int64(s->nCount);
  vD = numeric_from_int64(bSamp ? s->nCount - 1 : s->nCount);
  if (host_numeric_rc(x, numeric_mul(&s->sumX, &s->sumX, &sq)) != 0 ||
      host_numeric_rc(x, numeric_mul(&vN, &s->sumX2, &num)) != 0 ||
      host_numeric_rc(x, numeric_sub(&num, &sq, &num)) != 0) {
    return -1;
  }
  memset(&pOut->u, 0, sizeof(pOut->u));
  pOut->bNull = 0;
  if (numeric_sign(&num) <= 0) {
    pOut->u.n = numeric_from_int64(0);
    return 0;
  }
  if (host_numeric_rc(x, numeric_mul(&vN, &vD, &vD)) != 0 ||
      host_numeric_rc(x, numeric_div(&num, &vD, &q)) != 0) {
    return -1;
  }
  if ((a->eFunc == HOST_AGG_STDDEV_POP || a->eFunc == HOST_AGG_STDDEV_SAMP) &&
      host_numeric_rc(x, numeric_sqrt(&q, q.scale, &q)) != 0) {
    return -1;
  }
  pOut->u.n = q;
  return 0;
}
