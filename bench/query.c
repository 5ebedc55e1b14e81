/*
** bench/query.c — run one SELECT against a data directory on the CPU or
** the CUDA backend and print its rows, its plan or its generated source:
** the developer's way in until the server speaks for the engine.
**
**   query --data DIR [--backend cpu|cuda] [--repeat N] [--explain] [--verbose]
**         [--pinned BYTES] [--device BYTES] [--stride BYTES] [--no-resident]
**         [--generic on|off|always] [--wait-optimized] [--settle] SQL
**   query --data DIR --compile-only ARCH [--repeat N] SQL
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
** session setting that keeps fact columns out of device memory. A run
** plans with the backend's cost model, as the server's worker does, so a
** CUDA run with a device budget gets the resident plan (launch bounds, no
** staging) that the server would compile; --dump and --compile-only plan
** with the default model.
**
** $STARQ_PREDORDER forces the SCAN's condition plan (planner/README.md,
** step 6: "3&&1&2"), to time plans the model would not choose.
**
** --generic is starq.generic_kernels (exec.h exec_generic): on (the
** server's default: a new shape's first run on the generic kernels while
** its own kernels compile in the background), off (the first run waits
** for its own compile), or always (every run on them, where they can run
** it: to measure them). --wait-optimized waits for the background
** compiler after the first run, so the later runs time the shape's own
** kernels. --settle waits, before the first run, for what the backend
** compiles in the background at its open (the generic kernels, on an
** empty cache), so that a new shape's first run is what a server that has
** been up a while gives.
**
** --compile-only ARCH needs no GPU, no driver: NVRTC alone compiles the
** query's module for ARCH ("sm_90") the way the CUDA backend does on a
** miss (runtime/cuda-compile.c), --repeat times per way, and prints the
** best wall and CPU time of each: both sides of every packed load, then
** only the plain side (a run on resident columns), then only the decode
** (a streamed run): SQ_PATH, runtime/README.md. Each compile gets a global
** of its own appended, so no cache below NVRTC answers (bench/RESULTS.md).
**
** Timing line: "(R rows, T s: compile C s, kernels K s, columns B bytes[,
** cached][, generic kernels], columns P pinned / D resident / S
** streamed[, N strides][; first load: PARTS])" — T
** is all of exec_select (compile, buffers, kernels, reading back,
** sorting), K the launches alone, each until its kernel finished, B the
** bytes of the column files the kernels read (the traffic floor), C what
** the run waited for the compiler. PARTS, on a CUDA run that compiled:
** where the module's first load went (NVRTC's wall and CPU, the module
** load, the rest: runtime/exec-module.c).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../codegen/codegen.h"
#include "../parser/parser.h"
#include "../runtime/explain.h"

extern const char runtime_cpu_shim[];

/* Compiles g's module for zArch with NVRTC alone, nRepeat times each way,
** and prints the best of each. Returns 0, or 1 with the error printed. */
static int query_compile_only(const cg_program *g, const char *zArch, int nRepeat) {
  static const struct {
    const char *zName;
    cuda_path ePath;
  } aWay[] = {
    {"both paths", CUDA_PATH_ANY},
    {"plain (resident)", CUDA_PATH_PLAIN},
    {"packed (host)", CUDA_PATH_PACKED},
  };
  cuda_options co;
  cuda_device *d;
  cuda_module_info info;
  const char **azKernel = calloc((size_t)g->nKernel + 1, sizeof(char *));
  const char *azWarm[] = {"t_warm"};
  cuda_load_options lo;
  char zErr[8192];
  int rc = 1, iUniq = 0;
  strbuf src;
  memset(&co, 0, sizeof(co));
  co.zCompileOnly = zArch;
  strbuf_init(&src);
  if (azKernel == NULL) return 1;
  for (int i = 0; i < g->nKernel; i++) azKernel[i] = g->aKernel[i].zName;
  if (cuda_device_open(&co, &d, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "query: %s\n", zErr);
    free(azKernel);
    return 1;
  }
  /* NVRTC's own start-up (its builtins library) is paid once a process. */
  memset(&lo, 0, sizeof(lo));
  lo.zSource = "__global__ void t_warm(int *p) { *p = 1; }\n";
  lo.nKernel = 1;
  lo.azKernel = azWarm;
  if (cuda_module_compile(d, &lo, &info, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "query: %s\n", zErr);
    goto out;
  }
  printf("NVRTC %d.%d for %s, %d kernels, NVRTC start-up %.1f ms\n",
         cuda_device_info_get(d)->iNvrtcMajor, cuda_device_info_get(d)->iNvrtcMinor, zArch,
         g->nKernel, info.rCompileSeconds * 1e3);
  lo.nKernel = g->nKernel;
  lo.azKernel = azKernel;
  for (size_t w = 0; w < sizeof(aWay) / sizeof(aWay[0]); w++) {
    double rBest = 0, rCpu = 0;
    size_t nImage = 0;
    lo.ePath = aWay[w].ePath;
    for (int i = 0; i < nRepeat; i++) {
      strbuf_reset(&src);
      strbuf_printf(&src, "%s\n__device__ int sq_uniq_%d_%d;\n", strbuf_str(&g->src), (int)getpid(),
                    iUniq++);
      lo.zSource = strbuf_str(&src);
      if (strbuf_error(&src) || cuda_module_compile(d, &lo, &info, zErr, sizeof(zErr)) != 0) {
        fprintf(stderr, "query: %s\n", strbuf_error(&src) ? "out of memory" : zErr);
        goto out;
      }
      if (i == 0 || info.rCompileSeconds < rBest) rBest = info.rCompileSeconds;
      /* CPU times too are the best seen: the least disturbed by other work. */
      if (i == 0 || info.rCpuSeconds < rCpu) rCpu = info.rCpuSeconds;
      nImage = info.nImage;
    }
    printf("compile %-17s wall %6.1f ms, CPU %6.1f ms; %6zu bytes (best of %d)\n", aWay[w].zName,
           rBest * 1e3, rCpu * 1e3, nImage, nRepeat);
  }
  rc = 0;
out:
  strbuf_free(&src);
  cuda_device_close(d);
  free(azKernel);
  return rc;
}

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

/* Plans and generates a bound SELECT. A run plans with the backend's cost
** model, as the server's worker does (exec_backend_model: where the fact
** columns will be read from decides the plan — a resident plan's SCAN has
** launch bounds, a streamed one stages); --dump and --compile-only, which
** open no backend, plan with the default model (or, with --resident-model,
** the one a device with resident columns would use). Returns 0, or -1 having
** printed the error. */
static int query_plan(cat *pCat, const bound_select *pBound, const planner_model *pModel,
                      arena *pA, plan *pPlan, cg_program *pG) {
  sql_error e;
  sql_error_clear(&e);
  if (plan_build(pCat, pBound, pModel, pA, pPlan, &e) != 0 || codegen_build(pPlan, pA, pG, &e) != 0) {
    fprintf(stderr, "ERROR: %s: %s (at byte %d)\n", e.zState, e.zMsg, e.iOffset);
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  const char *zData = NULL, *zSql = NULL, *zDump = NULL, *zBackend = "cpu", *zArch = NULL;
  const char *zResident = NULL;
  int bExplain = 0, bSource = 0, rc = 1, nRepeat = 1, bWait = 0, bBadGeneric = 0, bSettle = 0;
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
  planner_model model;
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
    else if (strcmp(argv[i], "--generic") == 0 && i + 1 < argc) {
      const char *z = argv[++i];
      if (strcmp(z, "on") == 0) xo.eGeneric = EXEC_GENERIC_ON;
      else if (strcmp(z, "off") == 0) xo.eGeneric = EXEC_GENERIC_OFF;
      else if (strcmp(z, "always") == 0) xo.eGeneric = EXEC_GENERIC_ALWAYS;
      else bBadGeneric = 1;
    }
    else if (strcmp(argv[i], "--wait-optimized") == 0) bWait = 1;
    else if (strcmp(argv[i], "--settle") == 0) bSettle = 1;
    else if (strcmp(argv[i], "--compile-only") == 0 && i + 1 < argc) zArch = argv[++i];
    else if (strcmp(argv[i], "--resident-model") == 0 && i + 1 < argc) zResident = argv[++i];
    else zSql = argv[i];
  }
  if (zData == NULL || zSql == NULL || nRepeat < 1 || bBadGeneric ||
      (strcmp(zBackend, "cpu") != 0 && strcmp(zBackend, "cuda") != 0)) {
    fprintf(stderr, "usage: query --data DIR [--backend cpu|cuda] [--repeat N] [--explain] "
            "[--verbose] [--pinned BYTES] [--device BYTES] [--stride BYTES] [--no-resident] "
            "[--generic on|off|always] [--wait-optimized] [--settle] SQL\n"
            "       query --data DIR --compile-only ARCH [--repeat N] [--resident-model DEVICE] SQL\n"
            "       query --data DIR --dump FILE [--resident-model DEVICE] SQL\n");
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
      bind_select(pCat, s.apStmt[0]->pSelect, &a, &b, &e) != 0) {
    fprintf(stderr, "ERROR: %s: %s (at byte %d)\n", e.zState, e.zMsg, e.iOffset);
    goto out;
  }
  if (zResident != NULL) {
    /* As exec_backend_model plans for a device with resident columns:
    ** DEVICE is "name/arch", the key of its calibration rows. */
    if (planner_model_load(pCat, zResident, &model, zErr, sizeof(zErr)) != 0) {
      fprintf(stderr, "query: %s\n", zErr);
      goto out;
    }
    model.pred.rScanBw = model.pred.rDevBw;
    model.bResident = 1;
  }
  if ((zDump != NULL || zArch != NULL) &&
      query_plan(pCat, &b, zResident != NULL ? &model : NULL, &a, &p, &g) != 0) {
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
  if (zArch != NULL) {
    rc = query_compile_only(&g, zArch, nRepeat);
    goto out;
  }
  if (strcmp(zBackend, "cuda") == 0 ? exec_backend_cuda(&be, NULL, zErr, sizeof(zErr))
                                     : exec_backend_cpu(&be, 0, NULL, zErr, sizeof(zErr))) {
    fprintf(stderr, "query: the %s backend is not available: %s\n", zBackend, zErr);
    goto out;
  }
  if (exec_backend_configure(&be, &mo, &so, zErr, sizeof(zErr)) != 0 ||
      exec_backend_model(&be, pCat, &xo, &model, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "query: %s\n", zErr);
    exec_backend_close(&be);
    goto out;
  }
  if (query_plan(pCat, &b, &model, &a, &p, &g) != 0) {
    exec_backend_close(&be);
    goto out;
  }
  if (bSettle) exec_backend_compile_wait(&be);
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
    printf("(%lld rows, %.6f s: compile %.6f s, kernels %.6f s, columns %llu bytes%s%s",
           (long long)r.nRow, r.rSeconds, r.rCompileSeconds, r.rKernelSeconds,
           (unsigned long long)r.nColumnBytes, r.bCacheHit ? ", cached" : "",
           r.bGeneric ? ", generic kernels" : "");
    printf(", columns %d pinned / %d resident / %d streamed", r.nColPinned, r.nColResident,
           r.nColStreamed);
    if (r.nStride > 1) printf(", %d strides", r.nStride);
    if (r.zCompileParts[0] != 0) printf("; first load: %s", r.zCompileParts);
    printf(")\n");
    rc = 0;
    if (iRun == 0 && bWait) exec_backend_compile_wait(&be);
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
