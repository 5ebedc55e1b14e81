/*
** host/explain.c — a host plan as EXPLAIN's lines: one line per node,
** indented under its parent the way PostgreSQL's EXPLAIN indents ("->"),
** with the node's estimate and, after a run, its actual rows, loops and
** time. An input (a device pipeline's result) is described by the
** caller, which knows the pipeline: this folder knows no kernels.
**
** INTERFACE ROUTINES
**   host_explain (host.h)
*/
#include <string.h>

#include "hostInt.h"

/* The words EXPLAIN uses for node n. */
static const char *host_node_name(const host_node *n) {
  static const char *const azJoin[] = {"", "Hash Join", "Hash Left Join", "Hash Right Join",
                                       "Hash Full Join", "Hash Semi Join", "Hash Anti Join"};
  static const char *const azSetop[] = {"", "Union", "Intersect", "Except"};
  switch (n->eKind) {
    case HN_VALUES: return "Values Scan";
    case HN_VREL: return "Virtual Scan";
    case HN_INPUT: return "Pipeline Result";
    case HN_SERIES: return "Function Scan on generate_series";
    case HN_FILTER: return "Filter";
    case HN_PROJECT: return "Project";
    case HN_JOIN:
      if (n->nKey == 0) return "Nested Loop";
      if (n->eJoin >= HOST_JOIN_INNER && n->eJoin <= HOST_JOIN_ANTI) return azJoin[n->eJoin];
      return "Join";
    case HN_AGG: return n->nKey > 0 || n->nSet > 0 ? "HashAggregate" : "Aggregate";
    case HN_WINDOW: return "WindowAgg";
    case HN_SORT: return "Sort";
    case HN_LIMIT: return "Limit";
    case HN_DISTINCT: return n->nOn > 0 ? "Unique On" : "HashAggregate (distinct)";
    case HN_SETOP:
      if (n->eSetOp >= HOST_SETOP_UNION && n->eSetOp <= HOST_SETOP_EXCEPT) return azSetop[n->eSetOp];
      return "SetOp";
    case HN_SHARED: return "CTE Scan";
  }
  return "?";
}

static void host_explain_node(const host_node *n, const host_node_stats *aStats,
                              host_explain_input_fn xInput, void *pArg, int nIndent, int bChild,
                              strbuf *s) {
  if (bChild) strbuf_printf(s, "%*s->  ", nIndent, "");
  else strbuf_printf(s, "%*s", nIndent, "");
  strbuf_puts(s, host_node_name(n));
  if (n->eKind == HN_SETOP && n->bAll) strbuf_puts(s, " All");
  if (n->eKind == HN_VREL && n->pVrel != NULL) {
    strbuf_printf(s, " on %s.%s", n->pVrel->zSchema, n->pVrel->zName);
  }
  if (n->eKind == HN_INPUT) strbuf_printf(s, " %d", n->iInput + 1);
  if (n->eKind == HN_AGG && n->nSet > 0) strbuf_printf(s, " of %d grouping sets", n->nSet);
  if (n->zLabel != NULL) strbuf_printf(s, " (%s)", n->zLabel);
  strbuf_printf(s, "  (host, rows=%.0f)", n->rEst);
  if (aStats != NULL && n->iId >= 0) {
    const host_node_stats *t = &aStats[n->iId];
    strbuf_printf(s, " (actual rows=%lld loops=%d time=%.3f ms)", (long long)t->nRow, t->nLoop,
                  t->rSeconds * 1e3);
  }
  strbuf_puts(s, "\n");
  /* Children sit 6 columns right of the arrow, as PostgreSQL lays them out. */
  nIndent = bChild ? nIndent + 6 : nIndent + 2;
  if (n->eKind == HN_INPUT) {
    if (xInput != NULL) xInput(pArg, n->iInput, nIndent, s);
    return;
  }
  if (n->pLeft != NULL) host_explain_node(n->pLeft, aStats, xInput, pArg, nIndent, 1, s);
  if (n->pRight != NULL) host_explain_node(n->pRight, aStats, xInput, pArg, nIndent, 1, s);
}

void host_explain(const host_plan *p, const host_node_stats *aStats, host_explain_input_fn xInput,
                  void *pArg, strbuf *s) {
  static const char *const azSub[] = {"", "scalar", "EXISTS", "ANY", "ALL", "ARRAY"};
  if (p == NULL || p->pRoot == NULL) return;
  host_explain_node(p->pRoot, aStats, xInput, pArg, 0, 0, s);
  /* Each subquery's plan after the tree, as PostgreSQL lists SubPlans. */
  for (int i = 0; p->apSub != NULL && i < p->nSubplan; i++) {
    const host_subplan *u = p->apSub[i];
    if (u == NULL) continue;
    strbuf_printf(s, "  SubPlan %d (%s%s)\n", i + 1,
                  u->eKind >= HOST_SUB_SCALAR && u->eKind <= HOST_SUB_ARRAY ? azSub[u->eKind] : "?",
                  u->nParam > 0 ? ", correlated" : "");
    host_explain_node(u->pPlan, aStats, xInput, pArg, 4, 1, s);
  }
}
