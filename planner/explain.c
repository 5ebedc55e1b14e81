/*
** planner/explain.c — plan_explain: the plan as an indented tree, read
** top-down the way the query finishes and bottom-up the way it runs:
**
**   Result                       ORDER BY, LIMIT, output (FINALIZER, host)
**   -> Aggregate                 group keys, aggregates, groupby.h's plan
**      -> Scan <fact>            the SCAN kernel: conditions in the
**                                optimizer's order and grouping
**         -> Build <dimension>   one BUILD kernel per dimension
**
** Every estimate says where it came from: "exact" when a dictionary
** answered it, else the statistic it was computed from.
*/
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../parser/parser.h"
#include "planInt.h"

static const char *explain_est(plan_est e) {
  switch (e) {
    case PLAN_EST_DICT: return "exact: dictionary";
    case PLAN_EST_RANGE: return "min/max";
    case PLAN_EST_DISTINCT: return "distinct count";
    case PLAN_EST_NULLS: return "NULL count";
    case PLAN_EST_CONST: return "constant";
    case PLAN_EST_COMBINED: return "combined";
    default: return "default guess";
  }
}

static void explain_bytes(strbuf *s, double n) {
  if (n >= 1e9) strbuf_printf(s, "%.2f GB", n / 1e9);
  else if (n >= 1e6) strbuf_printf(s, "%.1f MB", n / 1e6);
  else if (n >= 1e3) strbuf_printf(s, "%.1f KB", n / 1e3);
  else strbuf_printf(s, "%.0f B", n);
}

static void explain_secs(strbuf *s, double r) {
  if (r >= 1) strbuf_printf(s, "%.2f s", r);
  else if (r >= 1e-3) strbuf_printf(s, "%.2f ms", r * 1e3);
  else strbuf_printf(s, "%.1f µs", r * 1e6);
}

static void explain_line(strbuf *s, int nIndent, const char *zFmt, ...)
    __attribute__((format(printf, 3, 4)));
static void explain_line(strbuf *s, int nIndent, const char *zFmt, ...) {
  va_list ap;
  if (s->n > 0) strbuf_puts(s, "\n");
  strbuf_repeat(s, ' ', (size_t)nIndent);
  va_start(ap, zFmt);
  strbuf_vprintf(s, zFmt, ap);
  va_end(ap);
}

static const char *explain_col(const plan *p, int s, int i) {
  return p->aSource[s].pTable->aCol[i].zName;
}

static void explain_pred(strbuf *s, int nIndent, const char *zTag, const plan_pred *q) {
  explain_line(s, nIndent, "%s", zTag);
  sql_expr_deparse(s, q->pExpr);
  strbuf_printf(s, "  sel %.4g (%s)", q->rSel, explain_est(q->eEst));
  if (q->pCodes != NULL) {
    const plan_codeset *cs = q->pCodes;
    if (cs->nPass == 0) strbuf_printf(s, ", no code of %" PRIu64 " passes", cs->nCode);
    else if (cs->bRange && cs->iLo == cs->iHi) strbuf_printf(s, ", code %u", cs->iLo);
    else if (cs->bRange) strbuf_printf(s, ", codes %u..%u", cs->iLo, cs->iHi);
    else strbuf_printf(s, ", %" PRIu64 " codes (bitmap)", cs->nPass);
    strbuf_printf(s, " of %" PRIu64, cs->nCode);
  }
}

static void explain_lookup(const plan *p, strbuf *s, const plan_dim *d) {
  const plan_lookup *l = &d->lookup;
  const char *zKey = explain_col(p, d->iSource, d->iKeyCol);
  switch (l->eKind) {
    case PLAN_LOOKUP_ARRAY:
      strbuf_printf(s, "direct array on %s %" PRId64 "..%" PRId64, zKey, l->iMin, l->iMax);
      break;
    case PLAN_LOOKUP_DATE:
      strbuf_printf(s, "date offset map on %s, years %d..%" PRId64, zKey, l->iYearMin,
                    l->iMax / 10000);
      break;
    default:
      strbuf_printf(s, "hash table on %s (%d-byte keys%s)", zKey, l->nKeyByte,
                    d->bUnique ? "" : ", every match probed");
      break;
  }
  strbuf_printf(s, ": %" PRIu64 " slots × %d B = ", l->nSlot, l->nSlotByte);
  explain_bytes(s, (double)l->nByte);
}

/* The semi-join bits the SCAN probes instead of the slots (plan.h):
** bench/probe-floors.py reads this line's size. */
static void explain_bits(strbuf *s, int nIndent, const plan_dim *d) {
  const plan_lookup *l = &d->lookup;
  if (!l->bBits) return;
  explain_line(s, nIndent, "probe: bitset of the rows that pass, %" PRIu64 " bits = ", l->nBitSlot);
  explain_bytes(s, (double)l->nBitByte);
  if (!d->bPayload) strbuf_puts(s, "; slots never read");
  else if (l->bDense) strbuf_puts(s, "; row index = key - min unless the BUILD finds a key out of place");
  else strbuf_puts(s, "; slots read for the payload of rows that pass every condition");
  if (l->eKind == PLAN_LOOKUP_DATE) {
    strbuf_printf(s, " (bits over the keys %" PRId64 "..%" PRId64 ")", l->iBitMin,
                  l->iBitMin + (int64_t)l->nBitSlot - 1);
  }
}

static void explain_build(const plan *p, strbuf *s, int nIndent, const plan_dim *d) {
  const plan_source *src = &p->aSource[d->iSource];
  int nPayload = 0;
  explain_line(s, nIndent, "-> Build %s", src->zAlias);
  if (strcmp(src->zAlias, src->pTable->zName) != 0) strbuf_printf(s, " (%s)", src->pTable->zName);
  strbuf_printf(s, "  rows %.0f -> %.0f, sel %.4g (%s)", src->nRow, src->nRow * d->rSel, d->rSel,
                explain_est(d->eEst));
  explain_line(s, nIndent + 5, "join: %s.%s = %s.%s (%s)", p->aSource[p->iFact].zAlias,
               explain_col(p, p->iFact, d->iFactCol), src->zAlias,
               explain_col(p, d->iSource, d->iKeyCol),
               d->bDeclared ? "declared foreign key" : d->bUnique ? "primary key, not declared"
                                                                   : "no key: hash join");
  explain_line(s, nIndent + 5, "lookup: ");
  explain_lookup(p, s, d);
  explain_bits(s, nIndent + 5, d);
  for (int i = 0; i < d->nPred; i++) explain_pred(s, nIndent + 5, "filter: ", &d->aPred[i]);
  explain_line(s, nIndent + 5, "%s", d->bPayload ? "supplies: " : "filter only");
  for (int i = 0; d->bPayload && i < src->pTable->nCol; i++) {
    if (src->aUse[i] & PLAN_USE_PAYLOAD) {
      strbuf_printf(s, "%s%s", nPayload++ ? ", " : "", explain_col(p, d->iSource, i));
    }
  }
}

/* The name of condition i in the ordering notation: a probe by its
** table, a fact predicate by its first column. */
static void explain_cond_names(const plan *p, const char **azName, char (*azBuf)[64]) {
  for (int i = 0; i < p->nCond; i++) {
    int w = p->aCondWhat[i];
    if (w < 0) {
      snprintf(azBuf[i], 64, "join(%s)", p->aSource[p->aDim[-1 - w].iSource].zAlias);
    } else {
      const sql_expr *e = p->aFactPred[w].pExpr;
      while (e != NULL && e->eKind != SQL_EXPR_COLUMN) e = e->pLeft;
      if (e != NULL) snprintf(azBuf[i], 64, "%s", e->zName);
      else snprintf(azBuf[i], 64, "const%d", w);
      for (int j = 0; j < i; j++) {
        if (strcmp(azBuf[j], azBuf[i]) == 0) {
          size_t n = strlen(azBuf[i]);
          snprintf(azBuf[i] + n, 64 - n, "#%d", i);
          break;
        }
      }
    }
    azName[i] = azBuf[i];
  }
}

/* What EXPLAIN says of an order the caller imposed (planner_model.
** zPredOrder), so a measured plan is never read as the model's choice. */
static const char *explain_order_imposed(const plan *p) {
  if (p->model.zPredOrder[0] == 0) return "";
  return strcmp(p->model.zPredOrder, "rank") == 0 ? ", rank order searched alone" : ", forced";
}

static void explain_scan(const plan *p, strbuf *s, int nIndent) {
  const plan_source *src = &p->aSource[p->iFact];
  const char *zRole = p->eKind == PLAN_SCAN ? "table" : p->eKind == PLAN_STAR ? "fact table"
                                                                              : "probe side";
  explain_line(s, nIndent, "-> Scan %s (%s)  rows %.0f -> %.0f, sel %.4g, reads ", src->zAlias,
               zRole, src->nRow, p->nRowOut, p->rScanSel);
  explain_bytes(s, (double)p->nScanByte);
  strbuf_puts(s, ", cost ");
  explain_secs(s, p->rScanCost);
  if (p->bFalse) explain_line(s, nIndent + 5, "a condition is constant FALSE or NULL: no row passes");
  if (p->nCond > 0) {
    const char *azName[PREDORDER_MAX_DP + 64];
    char azBuf[PREDORDER_MAX_DP + 64][64];
    char zOrder[1024];
    int nShown = p->nCond < PREDORDER_MAX_DP + 64 ? p->nCond : PREDORDER_MAX_DP + 64;
    if (nShown == p->nCond) {
      explain_cond_names(p, azName, azBuf);
      predorder_plan_format(&p->order, azName, zOrder, sizeof(zOrder));
    } else {
      predorder_plan_format(&p->order, NULL, zOrder, sizeof(zOrder));
    }
    explain_line(s, nIndent + 5, "conditions: %s  (%d kernel%s%s%s)", zOrder, p->order.nKernel,
                 p->order.nKernel > 1 ? "s" : "", p->order.bFallback ? ", rank order only" : "",
                 explain_order_imposed(p));
    for (int i = 0; i < p->order.nCond; i++) {
      int k = p->order.aOrder[i], w = p->aCondWhat[k];
      double r = predorder_rank(&p->model.pred, &p->aCond[k]);
      if (w >= 0) {
        char zTag[96];
        snprintf(zTag, sizeof(zTag), "%d. ", i + 1);
        explain_pred(s, nIndent + 7, zTag, &p->aFactPred[w]);
        strbuf_printf(s, ", %d B/row, rank %.3g", p->aFactPred[w].nByte, r);
      } else {
        const plan_dim *d = &p->aDim[-1 - w];
        explain_line(s, nIndent + 7, "%d. probe %s by %s  sel %.4g, %d B/row, rank %.3g", i + 1,
                     p->aSource[d->iSource].zAlias, explain_col(p, p->iFact, d->iFactCol), d->rSel,
                     p->aCond[k].nByte, r);
      }
    }
  }
  for (int i = 0; i < p->nResidual; i++) {
    explain_pred(s, nIndent + 5, "after probes: ", &p->aResidual[i]);
  }
  for (int d = 0; d < p->nDim; d++) explain_build(p, s, nIndent + 3, &p->aDim[d]);
}

static void explain_aggregate(const plan *p, strbuf *s, int nIndent) {
  char zLine[512];
  groupby_plan_explain(&p->group, zLine, sizeof(zLine));
  explain_line(s, nIndent, "-> Aggregate  groups %.0f from %.0f rows", p->nGroup, p->nRowOut);
  explain_line(s, nIndent + 5, "%s", zLine);
  if (p->nKey > 0) {
    explain_line(s, nIndent + 5, "keys: ");
    for (int i = 0; i < p->nKey; i++) {
      const plan_key *k = &p->aKey[i];
      if (k->bExpr) {
        if (i) strbuf_puts(s, ", ");
        sql_expr_deparse(s, k->pExpr);
        continue;
      }
      strbuf_printf(s, "%s%s.%s%s%s", i ? ", " : "", p->aSource[k->iSource].zAlias,
                    explain_col(p, k->iSource, k->iColumn), k->bDict ? " (code)" : "",
                    k->bDependent ? " (carried)" : "");
    }
  }
  if (p->nAgg > 0) {
    explain_line(s, nIndent + 5, "aggregates: ");
    for (int i = 0; i < p->nAgg; i++) {
      if (i) strbuf_puts(s, ", ");
      sql_expr_deparse(s, p->aAgg[i].pCall);
    }
    strbuf_printf(s, "  (state %d B per group%s)", p->nStateByte,
                  p->bCountInSum ? "; no row count: every summed value is > 0, so the sum"
                                   " marks a group" : "");
  }
}

static void explain_result(const plan *p, strbuf *s) {
  const sql_select *pSel = p->pSelect;
  const bound_select *b = p->pBound;
  explain_line(s, 0, "Result  ");
  for (int i = 0; i < b->nOutput; i++) {
    strbuf_printf(s, "%s%s", i ? ", " : "", b->aOutput[i].zName);
  }
  if (pSel->pHaving != NULL) {
    explain_line(s, 5, "having: ");
    sql_expr_deparse(s, pSel->pHaving);
  }
  if (pSel->pOrderBy != NULL && pSel->pOrderBy->n > 0) {
    explain_line(s, 5, "order by: ");
    for (int i = 0; i < pSel->pOrderBy->n; i++) {
      if (i) strbuf_puts(s, ", ");
      sql_expr_deparse(s, pSel->pOrderBy->a[i].pExpr);
      if (pSel->pOrderBy->a[i].bDesc) strbuf_puts(s, " DESC");
    }
  }
  if (b->nLimit >= 0 || b->nOffset > 0) {
    explain_line(s, 5, "limit %" PRId64 " offset %" PRId64 "%s", b->nLimit, b->nOffset,
                 pSel->pOrderBy != NULL ? " (top-N)" : "");
  }
}

void plan_explain(const plan *p, strbuf *s) {
  int nIndent = 2;
  explain_result(p, s);
  if (p->eKind == PLAN_VALUES) {
    explain_line(s, nIndent, "-> Values (one row, no table)");
    return;
  }
  if (p->bAggregate) {
    explain_aggregate(p, s, nIndent);
    nIndent += 3;
  }
  explain_scan(p, s, nIndent);
  explain_line(s, 0, "Estimate: build ");
  explain_secs(s, p->rBuildCost);
  strbuf_puts(s, " reading ");
  explain_bytes(s, (double)p->nBuildByte);
  strbuf_puts(s, ", scan ");
  explain_secs(s, p->rScanCost);
  /* Where the plan reads the fact columns from decides it (model.h):
  ** EXPLAIN says which, so that it can be seen to be the one that runs. */
  strbuf_puts(s, p->model.bResident ? " from device memory" : " from host memory");
  char zModel[512];
  planner_model_describe(&p->model, zModel, sizeof(zModel));
  strbuf_printf(s, " (%s)", zModel);
}
