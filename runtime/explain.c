/*
** runtime/explain.c — exec_explain: the plan, the backend, and with
** VERBOSE the kernels, as one text.
*/
#include <string.h>

#include "explain.h"

int exec_explain(cat *pCat, const exec_backend *pB, sql_select *pSelect, int bVerbose,
                 arena *pArena, strbuf *s, sql_error *pErr) {
  bound_select b;
  planner_model m;
  plan p;
  cg_program g;
  int rc = -1;
  memset(&p, 0, sizeof(p));
  memset(&g, 0, sizeof(g));
  if (bind_select(pCat, pSelect, pArena, &b, pErr) != 0) goto out;
  /* The cost model the query would run with, so EXPLAIN shows its plan. */
  if (exec_backend_model(pB, pCat, NULL, &m, pErr->zMsg, sizeof(pErr->zMsg)) != 0) {
    memcpy(pErr->zState, SQLSTATE_INTERNAL_ERROR, 6);
    goto out;
  }
  if (plan_build(pCat, &b, &m, pArena, &p, pErr) != 0) goto out;
  plan_explain(&p, s);
  /* Code generation runs for plain EXPLAIN too, so that what EXPLAIN
  ** accepts is exactly what would run (a 0A000 shows here, not later). */
  if (codegen_build(&p, pArena, &g, pErr) != 0) goto out;
  strbuf_puts(s, "\nBackend: ");
  exec_backend_describe(pB, s);
  strbuf_printf(s, "; %d kernels:", g.nKernel);
  for (int i = 0; i < g.nKernel; i++) strbuf_printf(s, " %s", g.aKernel[i].zName);
  if (bVerbose) {
    const char *zQuery = strstr(strbuf_str(&g.src), "/* ---- the query ---- */");
    strbuf_printf(s, "\nGenerated source (after the device library, codegen/device.cuh):\n%s",
                  zQuery != NULL ? zQuery : strbuf_str(&g.src));
    while (s->n > 0 && s->z[s->n - 1] == '\n') s->z[--s->n] = 0;
  }
  rc = strbuf_error(s) ? -1 : 0;
  if (rc != 0) sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory writing EXPLAIN");
out:
  codegen_free(&g);
  plan_free(&p);
  bind_select_free(&b);
  return rc;
}
