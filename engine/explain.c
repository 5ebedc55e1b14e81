/*
** engine/explain.c — EXPLAIN's text of a prepared statement: the plan, the
** backend that runs it, its kernels, and with VERBOSE the fact columns the
** kernels read (each one's encoding and stored bytes, against its plain
** bytes), whether the generic kernels can run it, and the generated
** source; with ANALYZE, the figures of the one run after them.
**
** The statement is the one that runs: prepared with the request's options
** (engine__prepare), so EXPLAIN after SET starq.resident = off shows the
** streamed plan the SELECT runs.
**
** INTERFACE ROUTINES (engineInt.h)
**   engine__explain_text, engine__explain_analyze
*/
#include <inttypes.h>
#include <string.h>

#include "engineInt.h"

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

int engine__explain_text(const engine_stmt *p, const exec_backend *pB, int bVerbose, strbuf *s,
                         sql_error *pErr) {
  const cg_program *g = &p->g;
  plan_explain(&p->p, s);
  strbuf_puts(s, "\nBackend: ");
  exec_backend_describe(pB, s);
  strbuf_printf(s, "; %d kernels:", g->nKernel);
  for (int i = 0; i < g->nKernel; i++) strbuf_printf(s, " %s", g->aKernel[i].zName);
  if (bVerbose) {
    const char *zQuery;
    explain_fact_columns(&p->p, g, s);
    /* Whether a first run of the shape can take the generic kernels
    ** (codegen/generic.c) while its own compile, or why not. */
    if (g->pGeneric != NULL) strbuf_puts(s, "\nGeneric kernels: can run it");
    else strbuf_printf(s, "\nGeneric kernels: cannot run it (%s)", g->zGenericWhy ? g->zGenericWhy : "?");
    zQuery = strstr(strbuf_str(&g->src), "/* ---- the query ---- */");
    strbuf_printf(s, "\nGenerated source (after the device library, codegen/device.cuh):\n%s",
                  zQuery != NULL ? zQuery : strbuf_str(&g->src));
    while (s->n > 0 && s->z[s->n - 1] == '\n') s->z[--s->n] = 0;
  }
  if (strbuf_error(s)) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory writing EXPLAIN");
    return -1;
  }
  return 0;
}

void engine__explain_analyze(const exec_result *r, strbuf *s) {
  const exec_front *f = &r->front;
  strbuf_printf(s, "\nPlanning: %.3f ms%s (parse %.3f ms, bind %.3f ms, plan %.3f ms, codegen %.3f ms)",
                (f->rParseSeconds + f->rBindSeconds + f->rPlanSeconds + f->rCodegenSeconds) * 1e3,
                f->bCached ? ", prepared before" : "", f->rParseSeconds * 1e3, f->rBindSeconds * 1e3,
                f->rPlanSeconds * 1e3, f->rCodegenSeconds * 1e3);
  strbuf_printf(s, "\nExecution: %lld rows in %.3f ms (compile %.3f ms%s%s, prepare %.3f ms, "
                "kernels %.3f ms, output %.3f ms)",
                (long long)r->nRow, r->rSeconds * 1e3, r->rCompileSeconds * 1e3,
                r->bCacheHit ? ", cached" : "",
                r->bGeneric ? ", generic kernels" : "",
                r->rPrepareSeconds * 1e3, r->rKernelSeconds * 1e3, r->rOutputSeconds * 1e3);
  strbuf_printf(s, "\nColumns: %llu bytes read (%llu of the fact table): %d pinned, %d resident, "
                "%d streamed",
                (unsigned long long)r->nColumnBytes, (unsigned long long)r->nFactBytes, r->nColPinned,
                r->nColResident, r->nColStreamed);
  if (r->nStride > 1) strbuf_printf(s, " in %d strides", r->nStride);
  if (r->nColStreamed > 0 && r->nShareWith > 0) {
    strbuf_printf(s, "\nShared scan: %d of %d strides read with other statements (%d at most)",
                  r->nShareStride, r->nStride, r->nShareWith);
  } else if (r->nColStreamed > 0) {
    strbuf_printf(s, "\nShared scan: read alone");
  }
  for (int i = 0; i < r->nKernel; i++) {
    strbuf_printf(s, "\nKernel %s: %d launch%s, %.3f ms", r->aKernel[i].zName, r->aKernel[i].nLaunch,
                  r->aKernel[i].nLaunch == 1 ? "" : "es", r->aKernel[i].rSeconds * 1e3);
  }
}
