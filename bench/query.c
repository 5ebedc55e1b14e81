/*
** bench/query.c — run one SELECT against a data directory on the CPU or
** the CUDA backend and print its rows, its plan or its generated source:
** the developer's way in until the server speaks for the engine.
**
**   query --data DIR [--backend cpu|cuda] [--repeat N] [--explain] [--verbose]
**         [--pinned BYTES] [--device BYTES] [--stride BYTES] [--no-resident] SQL
**
** --backend picks where the kernels run (default cpu); cuda fails with the
** reason when there is no usable GPU, driver or NVRTC. --explain prints
** EXPLAIN's text, --verbose EXPLAIN VERBOSE's (the plan and the generated
** kernels), before the rows. --repeat runs the query N times in this
** process and prints the rows of the first run and a timing line per run:
** the first pays for compiling (or a disk-cache read), the rest find the
** module loaded. --dump FILE writes the whole source as NVRTC would
** compile it (the shim's CUDA prelude, the device library, the query) and
** runs nothing: bench/device.sh nvrtc-check compiles such files on the
** GPU machine. --pinned, --device and --stride set the column cache's
** budgets and the stride buffers' size (runtime/colmem.h, stride.h; a
** pinned budget of 0 streams every fact column); --no-resident is the
** session setting that keeps fact columns out of device memory.
**
** Timing line: "(R rows, T s: compile C s, kernels K s, columns B bytes[,
** cached], columns P pinned / D resident / S streamed[, N strides])" — T
** is all of exec_select (compile, buffers, kernels, reading back,
** sorting), K the launches alone, each until its kernel finished, B the
** bytes of the column files the kernels read (the traffic floor).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../codegen/codegen.h"
#include "../parser/parser.h"
#include "../runtime/explain.h"

extern const char runtime_cpu_shim[];

/* Prints the result's header and rows, '|' between values. */
static void query_rows_print(const exec_result *r) {
  strbuf line;
  strbuf_init(&line);
  for (int c = 0; c < r->nCol; c++) printf("%s%s", c ? "|" : "", r->aCol[c].zName);
  printf("\n");
  for (int64_t i = 0; i < r->nRow; i++) {
    strbuf_reset(&line);
    for (int c = 0; c < r->nCol; c++) {
      if (c) strbuf_puts(&line, "|");
      exec_result_text(r, i, c, &line);
    }
    printf("%s\n", strbuf_str(&line));
  }
  strbuf_free(&line);
}

int main(int argc, char **argv) {
  const char *zData = NULL, *zSql = NULL, *zDump = NULL, *zBackend = "cpu";
  int bExplain = 0, bSource = 0, rc = 1, nRepeat = 1;
  colmem_options mo = {-1, -1};
  stride_options so = {-1, -1, -1};
  exec_options xo = {.bNoResident = 0};
  char zErr[512];
  cat *pCat;
  arena a;
  sql_script s;
  sql_error e;
  bound_select b;
  plan p;
  cg_program g;
  exec_backend be;
  exec_result r;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) zData = argv[++i];
    else if (strcmp(argv[i], "--explain") == 0) bExplain = 1;
    else if (strcmp(argv[i], "--verbose") == 0) bSource = 1;
    else if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc) zDump = argv[++i];
    else if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) zBackend = argv[++i];
    else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) nRepeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "--pinned") == 0 && i + 1 < argc) mo.nPinned = atoll(argv[++i]);
    else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) mo.nDevice = atoll(argv[++i]);
    else if (strcmp(argv[i], "--stride") == 0 && i + 1 < argc) so.nBufByte = atoll(argv[++i]);
    else if (strcmp(argv[i], "--no-resident") == 0) xo.bNoResident = 1;
    else zSql = argv[i];
  }
  if (zData == NULL || zSql == NULL || nRepeat < 1 ||
      (strcmp(zBackend, "cpu") != 0 && strcmp(zBackend, "cuda") != 0)) {
    fprintf(stderr, "usage: query --data DIR [--backend cpu|cuda] [--repeat N] [--explain] "
            "[--verbose] [--pinned BYTES] [--device BYTES] [--stride BYTES] [--no-resident] SQL\n");
    return 2;
  }
  if (cat_open(&pCat, zData, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "query: %s\n", zErr);
    return 1;
  }
  arena_init(&a);
  memset(&b, 0, sizeof(b));
  memset(&p, 0, sizeof(p));
  memset(&g, 0, sizeof(g));
  memset(&r, 0, sizeof(r));
  memset(&be, 0, sizeof(be));
  if (sql_parse(zSql, &a, &s, &e) != 0 || s.nStmt != 1 ||
      bind_select(pCat, s.apStmt[0]->pSelect, &a, &b, &e) != 0 ||
      plan_build(pCat, &b, NULL, &a, &p, &e) != 0 || codegen_build(&p, &a, &g, &e) != 0) {
    fprintf(stderr, "ERROR: %s: %s (at byte %d)\n", e.zState, e.zMsg, e.iOffset);
    goto out;
  }
  if (zDump != NULL) {
    FILE *f = fopen(zDump, "w");
    if (f == NULL || fprintf(f, "%s\n%s", runtime_cpu_shim, strbuf_str(&g.src)) < 0 || fclose(f) != 0) {
      fprintf(stderr, "query: cannot write %s\n", zDump);
      goto out;
    }
    rc = 0;
    goto out;
  }
  if (strcmp(zBackend, "cuda") == 0 ? exec_backend_cuda(&be, NULL, zErr, sizeof(zErr))
                                     : exec_backend_cpu(&be, 0, NULL, zErr, sizeof(zErr))) {
    fprintf(stderr, "query: the %s backend is not available: %s\n", zBackend, zErr);
    goto out;
  }
  if (exec_backend_configure(&be, &mo, &so, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "query: %s\n", zErr);
    exec_backend_close(&be);
    goto out;
  }
  if (bExplain || bSource) {
    strbuf x;
    arena a2;
    sql_script s2;
    arena_init(&a2);
    strbuf_init(&x);
    /* EXPLAIN binds its own copy: binding rewrites literals in place. */
    if (sql_parse(zSql, &a2, &s2, &e) == 0 &&
        exec_explain(pCat, &be, s2.apStmt[0]->pSelect, bSource, &a2, &x, &e) == 0) {
      printf("%s\n\n", strbuf_str(&x));
    }
    strbuf_free(&x);
    arena_free(&a2);
  }
  for (int iRun = 0; iRun < nRepeat; iRun++) {
    exec_result_free(&r);
    if (exec_select(pCat, &p, &g, &be, &xo, &r, &e) != 0) {
      fprintf(stderr, "ERROR: %s: %s\n", e.zState, e.zMsg);
      rc = 1;
      break;
    }
    if (iRun == 0) query_rows_print(&r);
    printf("(%lld rows, %.4f s: compile %.4f s, kernels %.4f s, columns %llu bytes%s",
           (long long)r.nRow, r.rSeconds, r.rCompileSeconds, r.rKernelSeconds,
           (unsigned long long)r.nColumnBytes, r.bCacheHit ? ", cached" : "");
    printf(", columns %d pinned / %d resident / %d streamed", r.nColPinned, r.nColResident,
           r.nColStreamed);
    if (r.nStride > 1) printf(", %d strides", r.nStride);
    printf(")\n");
    rc = 0;
  }
  exec_backend_close(&be);
out:
  exec_result_free(&r);
  codegen_free(&g);
  plan_free(&p);
  bind_select_free(&b);
  arena_free(&a);
  cat_close(pCat);
  return rc;
}
