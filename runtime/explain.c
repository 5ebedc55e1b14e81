/*
** runtime/explain.c — exec_explain: the plan, the backend, and with
** VERBOSE the fact columns the kernels read (each one's encoding and
** stored bytes, against its plain bytes) and the kernels, as one text.
**
** INTERFACE ROUTINES
**   exec_explain
*/
#include <inttypes.h>
#include <string.h>

#include "explain.h"

/* The encoding of fact column iCol of p, its payload bytes (what a scan
** moves; the planner read them from the file's header) into *pnStored
** and its bytes stored plain into *pnPlain. */
static store_enc explain_column_bytes(const plan *p, int iCol, uint64_t *pnStored,
                                      uint64_t *pnPlain) {
  const plan_source *src = &p->aSource[p->iFact];
  store_enc e = src->aEnc != NULL ? (store_enc)src->aEnc[iCol] : STORE_ENC_PLAIN;
  *pnPlain = (uint64_t)src->pTable->nRow * (uint64_t)coltype_width(src->pTable->aCol[iCol].type);
  *pnStored = store_enc_packed(e) && src->anStored[iCol] > 0 ? src->anStored[iCol] : *pnPlain;
  return e;
}

/* Appends the fact columns the program reads, in the order the kernels
** name them: a heading with their totals, then a line each with its type,
** its encoding (storage/store.h: plain, FOR, FOR-date) and its stored
** bytes beside its plain bytes.
** Nothing for a plan without a fact table. */
static void explain_fact_columns(const plan *p, const cg_program *g, strbuf *s) {
  const cat_table *t;
  uint64_t nStored = 0, nPlain = 0, nHere, nRaw;
  int nCol = 0;
  if (p->iFact < 0) return;
  t = p->aSource[p->iFact].pTable;
  for (int i = 0; i < g->nField; i++) {
    if (g->aField[i].eKind != CG_FIELD_COLUMN || g->aField[i].iSource != p->iFact) continue;
    explain_column_bytes(p, g->aField[i].iColumn, &nHere, &nRaw);
    nStored += nHere;
    nPlain += nRaw;
    nCol++;
  }
  strbuf_printf(s, "\nFact columns read (%s, %" PRId64 " rows): %d, %" PRIu64 " bytes stored, %"
                PRIu64 " plain (%.2fx)", t->zName, (int64_t)t->nRow, nCol, nStored, nPlain,
                nStored > 0 ? (double)nPlain / (double)nStored : 1.0);
  for (int i = 0; i < g->nField; i++) {
    const cg_field *f = &g->aField[i];
    char zType[64];
    store_enc e;
    if (f->eKind != CG_FIELD_COLUMN || f->iSource != p->iFact) continue;
    e = explain_column_bytes(p, f->iColumn, &nHere, &nRaw);
    strbuf_printf(s, "\n  %s %s: %s, %" PRIu64 " bytes", t->aCol[f->iColumn].zName,
                  coltype_format(t->aCol[f->iColumn].type, zType, sizeof(zType)),
                  store_enc_name(e), nHere);
    if (nHere != nRaw) {
      strbuf_printf(s, " (plain %" PRIu64 ", %.2fx)", nRaw, (double)nRaw / (double)nHere);
    }
  }
}

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
    const char *zQuery;
    explain_fact_columns(&p, &g, s);
    /* Whether a first run of the shape can take the generic kernels
    ** (codegen/generic.c) while its own compile, or why not. */
    if (g.pGeneric != NULL) strbuf_puts(s, "\nGeneric kernels: can run it");
    else strbuf_printf(s, "\nGeneric kernels: cannot run it (%s)", g.zGenericWhy ? g.zGenericWhy : "?");
    zQuery = strstr(strbuf_str(&g.src), "/* ---- the query ---- */");
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
