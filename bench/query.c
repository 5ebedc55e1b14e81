/*
** bench/query.c — run one SELECT against a data directory on the CPU or
** the CUDA backend and print its rows, its plan or its generated source:
** the developer's way in, without a server.
**
**   query --data DIR [--backend cpu|cuda] [--repeat N] [--explain] [--verbose]
**         [--pinned BYTES] [--device BYTES] [--stride BYTES] [--no-resident]
**         [--generic on|off|always] [--wait-optimized] [--settle]
**         [--predorder SPEC] SQL
**   query --data DIR --compile-only ARCH [--repeat N] [--resident-model DEVICE] SQL
**   query --data DIR --dump FILE [--resident-model DEVICE] SQL
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
** The query goes through the engine (engine/engine.h), as the server's
** worker runs it: prepared once and kept, run --repeat times.
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
** is all of exec_run (compile, buffers, kernels, reading back,
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
#include "../engine/engine.h"

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

/* A zeroed backend: enough to plan and explain with, not to run (exec.h). */
static exec_backend query_zNoBackend;

/* Parses the flags into *q; returns 0, or 2 having printed the usage. */
typedef struct query_args query_args;
struct query_args {
  const char *zData, *zSql, *zDump, *zBackend, *zArch, *zResident, *zPredOrder;
  int bExplain, bSource, nRepeat, bWait, bSettle;
  colmem_options mo;
  stride_options so;
  exec_options xo;
};

static int query_args_parse(int argc, char **argv, query_args *q) {
  int bBad = 0;
  memset(q, 0, sizeof(*q));
  q->zBackend = "cpu";
  q->zPredOrder = "";
  q->nRepeat = 1;
  q->mo = (colmem_options){-1, -1};
  q->so = (stride_options){-1, -1, -1};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) q->zData = argv[++i];
    else if (strcmp(argv[i], "--explain") == 0) q->bExplain = 1;
    else if (strcmp(argv[i], "--verbose") == 0) q->bSource = 1;
    else if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc) q->zDump = argv[++i];
    else if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) q->zBackend = argv[++i];
    else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) q->nRepeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "--pinned") == 0 && i + 1 < argc) q->mo.nPinned = atoll(argv[++i]);
    else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) q->mo.nDevice = atoll(argv[++i]);
    else if (strcmp(argv[i], "--stride") == 0 && i + 1 < argc) q->so.nBufByte = atoll(argv[++i]);
    else if (strcmp(argv[i], "--no-resident") == 0) q->xo.bNoResident = 1;
    else if (strcmp(argv[i], "--generic") == 0 && i + 1 < argc) {
      const char *z = argv[++i];
      if (strcmp(z, "on") == 0) q->xo.eGeneric = EXEC_GENERIC_ON;
      else if (strcmp(z, "off") == 0) q->xo.eGeneric = EXEC_GENERIC_OFF;
      else if (strcmp(z, "always") == 0) q->xo.eGeneric = EXEC_GENERIC_ALWAYS;
      else bBad = 1;
    }
    else if (strcmp(argv[i], "--wait-optimized") == 0) q->bWait = 1;
    else if (strcmp(argv[i], "--settle") == 0) q->bSettle = 1;
    else if (strcmp(argv[i], "--compile-only") == 0 && i + 1 < argc) q->zArch = argv[++i];
    else if (strcmp(argv[i], "--resident-model") == 0 && i + 1 < argc) q->zResident = argv[++i];
    else if (strcmp(argv[i], "--predorder") == 0 && i + 1 < argc) q->zPredOrder = argv[++i];
    else q->zSql = argv[i];
  }
  if (q->zData == NULL || q->zSql == NULL || q->nRepeat < 1 || bBad ||
      strlen(q->zPredOrder) >= PLANNER_PREDORDER_SIZE ||
      (strcmp(q->zBackend, "cpu") != 0 && strcmp(q->zBackend, "cuda") != 0)) {
    fprintf(stderr, "usage: query --data DIR [--backend cpu|cuda] [--repeat N] [--explain] "
            "[--verbose] [--pinned BYTES] [--device BYTES] [--stride BYTES] [--no-resident] "
            "[--generic on|off|always] [--wait-optimized] [--settle] [--predorder SPEC] SQL\n"
            "       query --data DIR --compile-only ARCH [--repeat N] [--resident-model DEVICE] "
            "[--predorder SPEC] SQL\n"
            "       query --data DIR --dump FILE [--resident-model DEVICE] [--predorder SPEC] SQL\n"
            "SPEC: condition numbers joined by &, && and | (\"3&&1&2\"), or rank\n");
    return 2;
  }
  return 0;
}

/* The cost model a plan is made with: the backend's (engine_model), or
** for --dump and --compile-only, which open no backend, the defaults (or,
** with --resident-model, those of a device with resident columns); and
** --predorder. Returns 0, or -1 having printed the error. */
static int query_model(engine *pEngine, const query_args *q, planner_model *pModel) {
  char zErr[512];
  int rc;
  if (q->zDump != NULL || q->zArch != NULL) {
    rc = planner_model_default(q->zResident != NULL ? q->zResident : "default", pModel, zErr,
                               sizeof(zErr));
    if (rc == 0 && q->zResident != NULL) {
      pModel->pred.rScanBw = pModel->pred.rDevBw;
      pModel->bResident = 1;
    }
  } else {
    rc = engine_model(pEngine, &q->xo, pModel, zErr, sizeof(zErr));
  }
  if (rc != 0) {
    fprintf(stderr, "query: %s\n", zErr);
    return -1;
  }
  snprintf(pModel->zPredOrder, sizeof(pModel->zPredOrder), "%s", q->zPredOrder);
  return 0;
}

/* Prints each row of EXPLAIN's text, then a blank line. */
static void query_explain_print(const exec_result *x) {
  strbuf line;
  strbuf_init(&line);
  for (int64_t i = 0; i < x->nRow; i++) {
    strbuf_reset(&line);
    exec_result_text(x, i, 0, &line);
    printf("%s\n", strbuf_str(&line));
  }
  printf("\n");
  strbuf_free(&line);
}

/* --dump and --compile-only: the program, made and not run. */
static int query_program(engine *pEngine, const query_args *q, const engine_request *pReq) {
  engine_stmt *pStmt;
  sql_error e;
  int rc = 1;
  if (engine_prepare(pEngine, pReq, &pStmt, &e) != 0) {
    fprintf(stderr, "ERROR: %s: %s (at byte %d)\n", e.zState, e.zMsg, e.iOffset);
    return 1;
  }
  if (q->zDump != NULL) {
    const cg_program *g = engine_stmt_program(pStmt);
    FILE *f = fopen(q->zDump, "w");
    if (f == NULL || fprintf(f, "%s\n%s", runtime_cpu_shim, strbuf_str(&g->src)) < 0 || fclose(f) != 0) {
      fprintf(stderr, "query: cannot write %s\n", q->zDump);
    } else {
      rc = 0;
    }
  } else {
    rc = query_compile_only(engine_stmt_program(pStmt), q->zArch, q->nRepeat);
  }
  engine_stmt_free(pStmt);
  return rc;
}

/* Runs the query nRepeat times, printing the first run's rows and a line
** of figures per run. */
static int query_runs(engine *pEngine, exec_backend *pB, const query_args *q,
                      const engine_request *pReq) {
  engine_request x = *pReq;
  exec_result r;
  sql_error e;
  int rc = 1;
  memset(&r, 0, sizeof(r));
  if (q->bSettle) exec_backend_compile_wait(pB);
  if (q->bExplain || q->bSource) {
    x.eKind = ENGINE_EXPLAIN;
    x.mExplain = q->bSource ? ENGINE_EXPLAIN_VERBOSE : 0;
    if (engine_execute(pEngine, &x, &r, &e) == 0) query_explain_print(&r);
    exec_result_free(&r);
  }
  for (int iRun = 0; iRun < q->nRepeat; iRun++) {
    exec_result_free(&r);
    if (engine_execute(pEngine, pReq, &r, &e) != 0) {
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
    if (iRun == 0 && q->bWait) exec_backend_compile_wait(pB);
  }
  exec_result_free(&r);
  return rc;
}

int main(int argc, char **argv) {
  query_args q;
  engine_config c;
  engine_request req;
  engine *pEngine = NULL;
  exec_backend be, *pB = &query_zNoBackend;
  planner_model model;
  char zErr[512];
  int rc = 1, bRun;
  if (query_args_parse(argc, argv, &q) != 0) return 2;
  bRun = q.zDump == NULL && q.zArch == NULL;
  memset(&be, 0, sizeof(be));
  if (bRun) {
    if (strcmp(q.zBackend, "cuda") == 0 ? exec_backend_cuda(&be, NULL, zErr, sizeof(zErr))
                                         : exec_backend_cpu(&be, 0, NULL, zErr, sizeof(zErr))) {
      fprintf(stderr, "query: the %s backend is not available: %s\n", q.zBackend, zErr);
      return 1;
    }
    pB = &be;
    if (exec_backend_configure(pB, &q.mo, &q.so, zErr, sizeof(zErr)) != 0) {
      fprintf(stderr, "query: %s\n", zErr);
      goto out;
    }
  }
  query_zNoBackend.zName = "cpu";
  engine_config_init(&c);
  c.zDataDir = q.zData;
  c.pBackend = pB;
  if (engine_open(&pEngine, &c, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "query: %s\n", zErr);
    goto out;
  }
  if (query_model(pEngine, &q, &model) != 0) goto out;
  memset(&req, 0, sizeof(req));
  req.eKind = ENGINE_SELECT;
  req.zSql = q.zSql;
  req.opt = q.xo;
  /* The backend's own model unless a plan is forced or no backend runs. */
  if (!bRun || q.zPredOrder[0] != 0) req.pModel = &model;
  rc = bRun ? query_runs(pEngine, pB, &q, &req) : query_program(pEngine, &q, &req);
out:
  engine_close(pEngine);
  if (bRun) exec_backend_close(&be);
  return rc;
}
