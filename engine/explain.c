/*
** engine/explain.c — EXPLAIN's text of a prepared statement: the plan, the
** backend that runs it, its kernels, and with VERBOSE the fact columns the
** kernels read (each one's encoding and stored bytes, against its plain
** bytes), whether the generic kernels can run it, and the generated
** source; with ANALYZE, the figures of the one run after them. A
** statement with a host tail shows the tail's operators, each pipeline
** indented under the input that reads its result.
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

/* Appends pipeline i's lines: its plan, the backend, its kernels; with
** bVerbose its fact columns, whether the generic kernels can run it and
** its generated source. */
static void explain_pipe(const engine_stmt *p, int i, const exec_backend *pB, int bVerbose,
                         strbuf *s) {
  const cg_program *g = &p->aProg[i];
  const plan *pl = &p->d.aPipe[i].p;
  plan_explain(pl, s);
  strbuf_puts(s, "\nBackend: ");
  exec_backend_describe(pB, s);
  strbuf_printf(s, "; %d kernels:", g->nKernel);
  for (int k = 0; k < g->nKernel; k++) strbuf_printf(s, " %s", g->aKernel[k].zName);
  if (bVerbose) {
    const char *zQuery;
    explain_fact_columns(pl, g, s);
    /* Whether a first run of the shape can take the generic kernels
    ** (codegen/generic.c) while its own compile, or why not. */
    if (g->pGeneric != NULL) strbuf_puts(s, "\nGeneric kernels: can run it");
    else strbuf_printf(s, "\nGeneric kernels: cannot run it (%s)", g->zGenericWhy ? g->zGenericWhy : "?");
    zQuery = strstr(strbuf_str(&g->src), "/* ---- the query ---- */");
    strbuf_printf(s, "\nGenerated source (after the device library, codegen/device.cuh):\n%s",
                  zQuery != NULL ? zQuery : strbuf_str(&g->src));
    while (s->n > 0 && s->z[s->n - 1] == '\n') s->z[--s->n] = 0;
  }
}

/* What the tail's explain asks of its inputs. */
typedef struct explain_input explain_input;
struct explain_input {
  const engine_stmt *p;
  const exec_backend *pB;
  int bVerbose;
};

/* Host tail input iInput: its pipeline's lines, each indented by nIndent. */
static void explain_input_lines(void *pArg, int iInput, int nIndent, strbuf *s) {
  const explain_input *x = pArg;
  strbuf t;
  const char *z;
  strbuf_init(&t);
  strbuf_printf(&t, "Pipeline %d (device)\n", iInput + 1);
  explain_pipe(x->p, iInput, x->pB, x->bVerbose, &t);
  if (strbuf_error(&t)) s->bOom = 1;
  z = strbuf_str(&t);
  while (*z != 0) {
    const char *zEnd = strchr(z, '\n');
    size_t n = zEnd != NULL ? (size_t)(zEnd - z) : strlen(z);
    strbuf_printf(s, "%*s", nIndent, "");
    strbuf_append(s, z, n);
    strbuf_puts(s, "\n");
    z += n + (zEnd != NULL);
  }
  strbuf_free(&t);
}

int engine__explain_text(const engine_stmt *p, const exec_backend *pB, int bVerbose,
                         const host_node_stats *aStats, strbuf *s, sql_error *pErr) {
  if (p->d.pTail == NULL) {
    explain_pipe(p, 0, pB, bVerbose, s);
  } else {
    /* The host tail on top, each pipeline under the input that reads it. */
    explain_input x = {p, pB, bVerbose};
    host_explain(p->d.pTail, aStats, explain_input_lines, &x, s);
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
