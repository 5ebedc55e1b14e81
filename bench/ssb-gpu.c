/*
** bench/ssb-gpu.c — the 13 SSB queries on the CUDA backend, streamed and
** resident, each beside its physical floor measured in the same process.
**
**   ssb-gpu --data DIR [--queries DIR] [--repeat N] [--strided] [--fault]
**
** Floors: a read kernel measures, here and now, the zero-copy bandwidth
** (a buffer of pinned host memory read over PCIe) and the device-memory
** bandwidth (the same kernel on a device buffer); each query's floor is
** the fact-table bytes it touched (every fact column file it reads, once)
** over each.
**
** Paths, each run after one untimed warm-up, best and median of N:
**   streamed  fact columns from pinned host memory by zero-copy (the whole
**             table pinned at start: exec_backend_preload), dimensions in
**             device memory — the session setting resident = off
**   resident  fact columns in the device-resident cache
**   strided   (--strided) a pinned budget of 0: fact columns copied
**             through the pinned stride buffers while the GPU reads the
**             previous stride
** Queries run through the engine (engine_execute), prepared once a path
** and kept. Times are all of the program's run (buffers, every kernel,
** reading the result back, sorting: exec_result.rSeconds), the
** server-side figure less the statement's lookup; "kern" is the kernels
** alone.
** Every path's rows must equal the streamed path's ("same").
**
** --fault: at the end, a kernel writes to an illegal address; the
** context is rebuilt (cuda_device_recover) and every query runs again on
** the same backend — columns pinned and loaded again — and must give the
** same rows.
**
** Output: Markdown tables, ready for bench/RESULTS.md.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/timer.h"
#include "../engine/engine.h"

#define SSB_N 13
static const char *const azQuery[SSB_N] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                           "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};

typedef enum bench_path { PATH_STREAMED, PATH_RESIDENT, PATH_STRIDED, PATH_N } bench_path;
static const char *const azPath[PATH_N] = {"streamed", "resident", "strided"};

/* One query. The engine prepares it once a path (the cost model knows
** where the fact columns are read from: engine_model) and keeps it. */
typedef struct bench_query bench_query;
struct bench_query {
  const char *zName;
  char *zSql;
  int bOk;
  uint64_t nFact;          /* fact bytes touched */
  double aBest[PATH_N], aMedian[PATH_N], aKernel[PATH_N];
  int aSame[PATH_N];
  char aBreak[PATH_N][512];  /* the best run's time by phase and kernel */
  char *zRows;             /* the streamed path's rows, as text */
};

static char *bench_read(const char *zPath) {
  FILE *f = fopen(zPath, "rb");
  char *z;
  long n;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  z = malloc((size_t)n + 1);
  if (z != NULL && fread(z, 1, (size_t)n, f) != (size_t)n) {
    free(z);
    z = NULL;
  }
  if (z != NULL) z[n] = 0;
  fclose(f);
  return z;
}

/* ---- bandwidth floors ------------------------------------------------------ */

/* Measures the zero-copy and the device-memory read bandwidth over 2 GiB. */
static int bench_floors(exec_backend *pB, double *prZc, double *prDev) {
  exec_bandwidth bw;
  char zErr[8192];
  if (exec_backend_bandwidth(pB, (uint64_t)2 << 30, &bw, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "ssb-gpu: bandwidth: %s\n", zErr);
    return -1;
  }
  *prZc = bw.rZeroCopy;
  *prDev = bw.rDevice;
  return *prZc > 0 && *prDev > 0 ? 0 : -1;
}

/* ---- queries ------------------------------------------------------------------ */

static char *bench_rows(const exec_result *r) {
  strbuf s;
  char *z;
  strbuf_init(&s);
  for (int64_t i = 0; i < r->nRow; i++) {
    for (int c = 0; c < r->nCol; c++) {
      if (c) strbuf_puts(&s, "|");
      exec_result_text(r, i, c, &s);
    }
    strbuf_puts(&s, "\n");
  }
  z = strdup(strbuf_str(&s));
  strbuf_free(&s);
  return z;
}

static int bench_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Writes where r's time went, in ms: before the kernels, each kernel
** (xN: launches), after them. */
static void bench_breakdown(const exec_result *r, char *z, size_t n) {
  size_t k = (size_t)snprintf(z, n, "prepare %.3f", r->rPrepareSeconds * 1e3);
  for (int i = 0; i < r->nKernel && k < n; i++) {
    const exec_kernel_time *t = &r->aKernel[i];
    k += (size_t)snprintf(z + k, n - k, ", %s %.3f", t->zName + (strncmp(t->zName, "q_", 2) ? 0 : 2),
                          t->rSeconds * 1e3);
    if (t->nLaunch > 1 && k < n) k += (size_t)snprintf(z + k, n - k, " x%d", t->nLaunch);
  }
  if (k < n) snprintf(z + k, n - k, ", output %.3f", r->rOutputSeconds * 1e3);
}

/* Runs q on path e: one warm-up, then nRepeat timed runs. */
static int bench_run(engine *pEngine, bench_query *q, bench_path e, int nRepeat) {
  engine_request req;
  double *a = calloc((size_t)nRepeat, sizeof(double));
  double rKernel = 1e30;
  sql_error err;
  memset(&req, 0, sizeof(req));
  req.eKind = ENGINE_SELECT;
  req.zSql = q->zSql;
  /* The shape's own kernels, never the generic ones: these runs are timed. */
  req.opt = (exec_options){.bNoResident = e != PATH_RESIDENT, .eGeneric = EXEC_GENERIC_OFF};
  for (int i = -1; i < nRepeat; i++) {
    exec_result r;
    if (engine_execute(pEngine, &req, &r, &err) != 0) {
      fprintf(stderr, "ssb-gpu: %s (%s): %s: %s\n", q->zName, azPath[e], err.zState, err.zMsg);
      exec_result_free(&r);
      free(a);
      return -1;
    }
    if (i < 0) {
      char *z = bench_rows(&r);
      q->nFact = r.nFactBytes;
      if (e == PATH_STREAMED) q->zRows = z;
      else {
        q->aSame[e] = strcmp(z, q->zRows) == 0;
        free(z);
      }
      if (e == PATH_STREAMED) q->aSame[e] = 1;
    } else {
      a[i] = r.rSeconds;
      if (r.rKernelSeconds < rKernel) rKernel = r.rKernelSeconds;
      if (i == 0 || r.rSeconds <= a[0]) bench_breakdown(&r, q->aBreak[e], sizeof(q->aBreak[e]));
    }
    exec_result_free(&r);
  }
  qsort(a, (size_t)nRepeat, sizeof(double), bench_cmp);
  q->aBest[e] = a[0];
  q->aMedian[e] = a[nRepeat / 2];
  q->aKernel[e] = rKernel;
  free(a);
  return 0;
}

/* A real fault on the real driver, then every query again. */
static int bench_fault(engine *pEngine, exec_backend *pB, bench_query *aQ, int nRepeat) {
  static const char zBad[] =
      "struct bad_args { unsigned long long p; };\n"
      "__global__ void bad(const struct bad_args a) { *(volatile int *)a.p = 1; }\n";
  const char *azK[] = {"bad"};
  cuda_load_options lo = {.zSource = zBad, .nKernel = 1, .azKernel = azK};
  struct { uint64_t p; } args = {16};
  cuda_device *d = pB->pCuda;
  cuda_module *m;
  cuda_kernel *k;
  char zErr[2048];
  unsigned iEpoch = cuda_device_use_begin(d);
  int rc = cuda_module_load(d, &lo, &m, NULL, zErr, sizeof(zErr));
  double t0;
  if (rc != 0) {
    cuda_device_use_end(d);
    printf("\nfault: %s\n", zErr);
    return -1;
  }
  if ((rc = cuda_module_kernel(m, "bad", &k, zErr, sizeof(zErr))) == 0) {
    rc = cuda_kernel_launch(d, k, 1, 32, 0, &args, sizeof(args), zErr, sizeof(zErr));
  }
  cuda_module_release(m);
  cuda_device_use_end(d);
  printf("\nfault: the launch said: %s\n", rc != 0 ? zErr : "nothing (no fault?)");
  t0 = timer_now();
  if (cuda_device_recover(d, iEpoch, zErr, sizeof(zErr)) != 0) {
    printf("fault: rebuilding failed: %s\n", zErr);
    return -1;
  }
  printf("fault: context rebuilt in %.3f s (epoch %u)\n", timer_now() - t0, cuda_device_epoch(d));
  rc = 0;
  for (int i = 0; i < SSB_N; i++) {
    if (!aQ[i].bOk || bench_run(pEngine, &aQ[i], PATH_RESIDENT, nRepeat) != 0) rc = -1;
    else if (!aQ[i].aSame[PATH_RESIDENT]) rc = -1;
  }
  printf("fault: all 13 queries after the rebuild: %s\n", rc == 0 ? "same rows" : "DIFFERENT or failed");
  return rc;
}

static void bench_table(const bench_query *aQ, bench_path e, double rBw, const char *zBw) {
  double rSum = 0, rFloorSum = 0;
  printf("\n%s path, floor = fact bytes / %s (%.1f GB/s measured)\n\n", azPath[e], zBw, rBw / 1e9);
  printf("| query | same | best ms | median ms | kernels ms | fact MB | floor ms | best / floor |\n");
  printf("|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < SSB_N; i++) {
    const bench_query *q = &aQ[i];
    double rFloor = (double)q->nFact / rBw;
    if (!q->bOk) continue;
    rSum += q->aBest[e];
    rFloorSum += rFloor;
    printf("| %s | %s | %.3f | %.3f | %.3f | %.1f | %.3f | %.2f |\n", q->zName,
           q->aSame[e] ? "yes" : "NO", q->aBest[e] * 1e3, q->aMedian[e] * 1e3, q->aKernel[e] * 1e3,
           (double)q->nFact / 1e6, rFloor * 1e3, q->aBest[e] / rFloor);
  }
  printf("| all | | %.3f | | | | %.3f | %.2f |\n", rSum * 1e3, rFloorSum * 1e3, rSum / rFloorSum);
  printf("\nwhere the best run's time went (ms):\n\n");
  for (int i = 0; i < SSB_N; i++) {
    if (aQ[i].bOk) printf("- %s: %s\n", aQ[i].zName, aQ[i].aBreak[e]);
  }
}

int main(int argc, char **argv) {
  const char *zData = NULL, *zQueries = "ssb-data/queries";
  int nRepeat = 5, bStrided = 0, bFault = 0, rc = 0;
  char zErr[1024];
  cat *pCat;
  exec_backend be;
  engine_config ec;
  engine *pEngine = NULL;
  bench_query aQ[SSB_N];
  double rZc = 0, rDev = 0, t0;
  int64_t nPinned;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) zData = argv[++i];
    else if (strcmp(argv[i], "--queries") == 0 && i + 1 < argc) zQueries = argv[++i];
    else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) nRepeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "--strided") == 0) bStrided = 1;
    else if (strcmp(argv[i], "--fault") == 0) bFault = 1;
    else {
      fprintf(stderr, "usage: ssb-gpu --data DIR [--queries DIR] [--repeat N] [--strided] [--fault]\n");
      return 2;
    }
  }
  if (zData == NULL || nRepeat < 1) {
    fprintf(stderr, "usage: ssb-gpu --data DIR [--queries DIR] [--repeat N] [--strided] [--fault]\n");
    return 2;
  }
  if (cat_open(&pCat, zData, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "ssb-gpu: %s\n", zErr);
    return 1;
  }
  if (exec_backend_cuda(&be, NULL, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "ssb-gpu: %s\n", zErr);
    cat_close(pCat);
    return 1;
  }
  {
    strbuf s;
    strbuf_init(&s);
    exec_backend_describe(&be, &s);
    printf("backend: %s\n", strbuf_str(&s));
    strbuf_free(&s);
  }
  if (bench_floors(&be, &rZc, &rDev) != 0) {
    exec_backend_close(&be);
    cat_close(pCat);
    return 1;
  }
  printf("measured: zero-copy read %.1f GB/s, device-memory read %.1f GB/s\n", rZc / 1e9, rDev / 1e9);
  t0 = timer_now();
  nPinned = exec_backend_preload(&be, pCat, 0, zErr, sizeof(zErr));
  if (nPinned < 0) {
    fprintf(stderr, "ssb-gpu: preload: %s\n", zErr);
    rc = 1;
  } else {
    printf("pinned at start: %.2f GB in %.2f s\n", (double)nPinned / 1e9, timer_now() - t0);
  }
  engine_config_init(&ec);
  ec.zDataDir = zData;
  ec.pBackend = &be;
  if (rc == 0 && engine_open(&pEngine, &ec, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "ssb-gpu: %s\n", zErr);
    rc = 1;
  }
  memset(aQ, 0, sizeof(aQ));
  for (int i = 0; rc == 0 && i < SSB_N; i++) {
    char zPath[4096];
    bench_query *q = &aQ[i];
    q->zName = azQuery[i];
    snprintf(zPath, sizeof(zPath), "%s/%s.sql", zQueries, q->zName);
    if ((q->zSql = bench_read(zPath)) == NULL) {
      fprintf(stderr, "ssb-gpu: cannot read %s\n", zPath);
      rc = 1;
      break;
    }
    q->bOk = bench_run(pEngine, q, PATH_STREAMED, nRepeat) == 0 &&
             bench_run(pEngine, q, PATH_RESIDENT, nRepeat) == 0;
    fprintf(stderr, "  %s done\n", q->zName);
    if (!q->bOk) rc = 1;
  }
  if (rc == 0 && bStrided) {
    colmem_options mo = {0, -1};
    if (exec_backend_configure(&be, &mo, NULL, zErr, sizeof(zErr)) != 0) {
      fprintf(stderr, "ssb-gpu: %s\n", zErr);
      rc = 1;
    }
    for (int i = 0; rc == 0 && i < SSB_N; i++) {
      if (bench_run(pEngine, &aQ[i], PATH_STRIDED, nRepeat) != 0) rc = 1;
    }
  }
  {
    colmem_stats st;
    colmem_stats_get(be.pMem, &st);
    printf("device-resident cache: %.2f GB of %.2f GB budget, %llu loads, %llu evictions\n",
           (double)st.nResident / 1e9, (double)st.nResidentBudget / 1e9,
           (unsigned long long)st.nLoad, (unsigned long long)st.nEvict);
  }
  bench_table(aQ, PATH_STREAMED, rZc, "zero-copy bandwidth");
  bench_table(aQ, PATH_RESIDENT, rDev, "device-memory bandwidth");
  if (bStrided) bench_table(aQ, PATH_STRIDED, rZc, "zero-copy bandwidth");
  if (rc == 0 && bFault && bench_fault(pEngine, &be, aQ, 1) != 0) rc = 1;
  for (int i = 0; i < SSB_N; i++) {
    free(aQ[i].zSql);
    free(aQ[i].zRows);
  }
  engine_close(pEngine);
  exec_backend_close(&be);
  cat_close(pCat);
  return rc;
}
