/*
** bench/query.c — run one SELECT against a data directory on the CPU or
** the CUDA backend and print its rows, its plan or its generated source:
** the developer's way in until the server speaks for the engine.
**
**   query --data DIR [--backend cpu|cuda] [--repeat N] [--explain] [--verbose]
**         [--pinned BYTES] [--device BYTES] [--stride BYTES] [--no-resident]
**         [--tier tiered|optimized|fast] [--generic on|off|always]
**         [--wait-optimized] [--settle] [--predorder SPEC] SQL
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
** --predorder SPEC plans the SCAN's conditions by SPEC instead of the
** optimizer's choice, to time plans the model would not choose: the plan
** spelled out ("3&&1&2": condition numbers, fact predicates first, then
** the probes, joined by &, && and |; planner/README.md, step 6), or
** "rank" for the search over the rank order alone (planner_model.
** zPredOrder). A plan that does not fit the query is an error (22023).
** --explain and --verbose show the plan that runs, forced or not.
**
** --tier is how CUDA compiles a shape it has in no cache (exec.h
** exec_compile): tiered (the server's default: the first run on kernels
** compiled fast, the optimized ones compiling meanwhile), optimized
** (waited for), fast (the fast tier's kernels on every run: to compare
** their speed with the optimized ones'). --generic is starq.generic_kernels:
** on (a new shape's first run on the generic kernels while its own
** kernels compile), off, or always (every run on them, where they can run it: to
** measure them). --wait-optimized waits for the
** background compile after the first run, so the later runs time the
** optimized kernels. --settle waits, before the first run, for what the
** device does in the background at its open (the device library, NVRTC's
** warm-up), so that a new shape's first run waits only for its own
** compile, as in a server that has been up a while.
**
** --compile-only ARCH needs no GPU, no driver: NVRTC alone compiles the
** query's module for ARCH ("sm_90") the way the CUDA backend does on a
** miss (runtime/cuda-compile.c), --repeat times per way, and prints the
** best wall time of each: split (one program per kernel, on the backend's
** compile threads) at the fast tier — both sides of every packed load,
** then only the plain side (a run on resident columns), then only the
** decode (a streamed run): -DSQ_PATH, runtime/README.md — and at the
** optimized tier, and whole (one program, as before the split) optimized. Each compile gets a global of
** its own appended, so no cache below NVRTC answers (bench/RESULTS.md).
**
** Timing line: "(R rows, T s: compile C s, kernels K s, columns B bytes[,
** cached][, fast tier], columns P pinned / D resident / S streamed[, N
** strides][; first load: PARTS])" — T
** is all of exec_select (compile, buffers, kernels, reading back,
** sorting), K the launches alone, each until its kernel finished, B the
** bytes of the column files the kernels read (the traffic floor). PARTS,
** on a CUDA run that compiled: where the module's first load went (NVRTC's
** wall, each program's wall/CPU, the library, the link, the module load,
** the rest: runtime/exec-backend.c); C is the NVRTC wall of it.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../codegen/codegen.h"
#include "../engine/engine.h"
#include "../parser/parser.h"

extern const char runtime_cpu_shim[];

/* Compiles g's module for zArch with NVRTC alone, nRepeat times each way,
** and prints the best of each. Returns 0, or 1 with the error printed. */
static int query_compile_only(const cg_program *g, const char *zArch, int nRepeat) {
  static const struct {
    const char *zName;
    int bSplit;
    cuda_tier eTier;
    cuda_path ePath;
    int bWhole;            /* the fast tier not linked with the library */
  } aWay[] = {
    {"split, fast tier", 1, CUDA_TIER_FAST, CUDA_PATH_ANY, 0},
    {"split, fast plain", 1, CUDA_TIER_FAST, CUDA_PATH_PLAIN, 0},
    {"split, fast packed", 1, CUDA_TIER_FAST, CUDA_PATH_PACKED, 0},
    {"split, unlinked plain", 1, CUDA_TIER_FAST, CUDA_PATH_PLAIN, 1},
    {"split, optimized", 1, CUDA_TIER_OPTIMIZED, CUDA_PATH_ANY, 0},
    {"whole, optimized", 0, CUDA_TIER_OPTIMIZED, CUDA_PATH_ANY, 0},
  };
  cuda_options co;
  cuda_device *d;
  cuda_module_info info;
  const char **azKernel = calloc((size_t)g->nKernel + 1, sizeof(char *));
  const char *azWarm[] = {"t_warm"};
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
  if (cuda_module_compile(d, "__global__ void t_warm(int *p) { *p = 1; }\n", 1, azWarm, NULL,
                          CUDA_TIER_OPTIMIZED, &info, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "query: %s\n", zErr);
    goto out;
  }
  printf("NVRTC %d.%d for %s, %d kernels, %d compile threads, NVRTC start-up %.1f ms\n",
         cuda_device_info_get(d)->iNvrtcMajor, cuda_device_info_get(d)->iNvrtcMinor, zArch,
         g->nKernel, cuda_device_info_get(d)->nCompileThread, info.rCompileSeconds * 1e3);
  for (size_t w = 0; w < sizeof(aWay) / sizeof(aWay[0]); w++) {
    cuda_load_options lo = {aWay[w].bSplit, CUDA_COMPILE_OPTIMIZED, aWay[w].ePath,
                            aWay[w].bWhole};
    double rBest = 0, rSlowest = 0, rCpu = 0, rSlowestCpu = 0;
    size_t nImage = 0;
    int nProgram = 0;
    for (int i = 0; i < nRepeat; i++) {
      strbuf_reset(&src);
      strbuf_printf(&src, "%s\n%s\n__device__ int sq_uniq_%d_%d;\n", runtime_cpu_shim,
                    strbuf_str(&g->src), (int)getpid(), iUniq++);
      if (strbuf_error(&src) || cuda_module_compile(d, strbuf_str(&src), g->nKernel, azKernel, &lo,
                                                    aWay[w].eTier, &info, zErr, sizeof(zErr)) != 0) {
        fprintf(stderr, "query: %s\n", strbuf_error(&src) ? "out of memory" : zErr);
        goto out;
      }
      if (i == 0 || info.rCompileSeconds < rBest) {
        rBest = info.rCompileSeconds;
        rSlowest = info.rSlowestSeconds;
      }
      /* CPU times too are the best seen: the least disturbed by other work. */
      if (i == 0 || info.rCpuSeconds < rCpu) rCpu = info.rCpuSeconds;
      if (i == 0 || info.rSlowestCpuSeconds < rSlowestCpu) rSlowestCpu = info.rSlowestCpuSeconds;
      nProgram = info.nProgram;
      nImage = info.nImage;
      /* The library the linked fast tier compiles once a process: the
      ** first linked compile waited that long for it. */
      if (info.rLibSeconds > 0) printf("library (once a process): waited %6.1f ms for it\n",
                                       info.rLibSeconds * 1e3);
    }
    printf("compile %-21s %d program%s wall %6.1f ms (slowest program %6.1f); CPU %6.1f ms "
           "(slowest program %6.1f); %6zu bytes (best of %d)\n", aWay[w].zName, nProgram,
           nProgram == 1 ? ": " : "s:", rBest * 1e3, rSlowest * 1e3, rCpu * 1e3,
           rSlowestCpu * 1e3, nImage, nRepeat);
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
  const char *zResident = NULL, *zPredOrder = "";
  static const struct {
    const char *zName;
    exec_compile e;
  } aTier[] = {{"tiered", EXEC_COMPILE_TIERED},
               {"optimized", EXEC_COMPILE_OPTIMIZED},
               {"fast", EXEC_COMPILE_FAST}};
  int bExplain = 0, bSource = 0, rc = 1, nRepeat = 1, bWait = 0, bBadTier = 0, bSettle = 0;
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
    else if (strcmp(argv[i], "--tier") == 0 && i + 1 < argc) {
      const char *zTier = argv[++i];
      bBadTier = 1;
      for (size_t t = 0; t < sizeof(aTier) / sizeof(aTier[0]); t++) {
        if (strcmp(zTier, aTier[t].zName) == 0) {
          xo.eCompile = aTier[t].e;
          bBadTier = 0;
        }
      }
    }
    else if (strcmp(argv[i], "--generic") == 0 && i + 1 < argc) {
      const char *z = argv[++i];
      if (strcmp(z, "on") == 0) xo.eGeneric = EXEC_GENERIC_ON;
      else if (strcmp(z, "off") == 0) xo.eGeneric = EXEC_GENERIC_OFF;
      else if (strcmp(z, "always") == 0) xo.eGeneric = EXEC_GENERIC_ALWAYS;
      else bBadTier = 1;
    }
    else if (strcmp(argv[i], "--wait-optimized") == 0) bWait = 1;
    else if (strcmp(argv[i], "--settle") == 0) bSettle = 1;
    else if (strcmp(argv[i], "--compile-only") == 0 && i + 1 < argc) zArch = argv[++i];
    else if (strcmp(argv[i], "--resident-model") == 0 && i + 1 < argc) zResident = argv[++i];
    else if (strcmp(argv[i], "--predorder") == 0 && i + 1 < argc) zPredOrder = argv[++i];
    else zSql = argv[i];
  }
  if (zData == NULL || zSql == NULL || nRepeat < 1 || bBadTier ||
      strlen(zPredOrder) >= PLANNER_PREDORDER_SIZE ||
      (strcmp(zBackend, "cpu") != 0 && strcmp(zBackend, "cuda") != 0)) {
    fprintf(stderr, "usage: query --data DIR [--backend cpu|cuda] [--repeat N] [--explain] "
            "[--verbose] [--pinned BYTES] [--device BYTES] [--stride BYTES] [--no-resident] "
            "[--tier tiered|optimized|fast] [--generic on|off|always] [--wait-optimized] "
            "[--settle] [--predorder SPEC] SQL\n"
            "       query --data DIR --compile-only ARCH [--repeat N] [--resident-model DEVICE] "
            "[--predorder SPEC] SQL\n"
            "       query --data DIR --dump FILE [--resident-model DEVICE] [--predorder SPEC] SQL\n"
            "SPEC: condition numbers joined by &, && and | (\"3&&1&2\"), or rank\n");
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
  if (zDump != NULL || zArch != NULL) {
    /* The default model, or as exec_backend_model plans for a device with
    ** resident columns: DEVICE is "name/arch", as EXPLAIN names it. */
    if (planner_model_default(zResident != NULL ? zResident : "default", &model, zErr,
                              sizeof(zErr)) != 0) {
      fprintf(stderr, "query: %s\n", zErr);
      goto out;
    }
    if (zResident != NULL) {
      model.pred.rScanBw = model.pred.rDevBw;
      model.bResident = 1;
    }
    snprintf(model.zPredOrder, sizeof(model.zPredOrder), "%s", zPredOrder);
    if (query_plan(pCat, &b, &model, &a, &p, &g) != 0) goto out;
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
      exec_backend_model(&be, &xo, &model, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "query: %s\n", zErr);
    exec_backend_close(&be);
    goto out;
  }
  snprintf(model.zPredOrder, sizeof(model.zPredOrder), "%s", zPredOrder);
  if (query_plan(pCat, &b, &model, &a, &p, &g) != 0) {
    exec_backend_close(&be);
    goto out;
  }
  if (bSettle) exec_backend_compile_wait(&be);
  if (bExplain || bSource) {
    /* The plan that runs: with the run's options and --predorder. */
    engine_config c;
    engine_request q;
    engine *pEngine;
    exec_result x;
    strbuf line;
    engine_config_init(&c);
    c.zDataDir = zData;
    c.pBackend = &be;
    memset(&q, 0, sizeof(q));
    memset(&x, 0, sizeof(x));
    q.eKind = ENGINE_EXPLAIN;
    q.mExplain = bSource ? ENGINE_EXPLAIN_VERBOSE : 0;
    q.zSql = zSql;
    q.opt = xo;
    q.pModel = &model;
    strbuf_init(&line);
    if (engine_open(&pEngine, &c, zErr, sizeof(zErr)) != 0) {
      fprintf(stderr, "query: %s\n", zErr);
    } else if (engine_execute(pEngine, &q, &x, &e) == 0) {
      for (int64_t i = 0; i < x.nRow; i++) {
        strbuf_reset(&line);
        exec_result_text(&x, i, 0, &line);
        printf("%s\n", strbuf_str(&line));
      }
      printf("\n");
    }
    exec_result_free(&x);
    strbuf_free(&line);
    engine_close(pEngine);
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
           r.bFastTier ? ", fast tier" : r.bGeneric ? ", generic kernels" : "");
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
