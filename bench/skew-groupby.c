/*
** bench/skew-groupby.c — grouped aggregation over Zipf-distributed groups:
** the contention papers 000 (Sitaridi & Ross, DaMoN 2012) and 003
** (Karnagel et al., ADMS 2015) describe, and what replicas of hot groups
** in a shared-memory table (paper 000 §3, planner/groupby_hot.c) win.
**
**   skew-groupby --data DIR [--backend cpu|cuda] [--rows N] [--theta LIST]
**                [--modes LIST] [--repeat R] [--no-resident] [--explain]
**
** Data: one table zipf(g000, g050, g100, g150, g200, v) of N rows in DIR
** (made once, through the loader into the column store, kept while its
** row count matches): column gXYZ holds one of 1024 groups ("g0000" ..
** "g1023", dictionary codes) drawn from Zipf(θ = XYZ / 100), rank r being
** group (37 r + 11) mod 1024 so the hot groups are not the first codes;
** v is an INTEGER in 0..999. Deterministic: row i's values depend on i
** alone (splitmix64), whatever the threads. The loader keeps each
** column's code frequencies, which the optimizer reads.
**
** Per θ it runs SELECT gXYZ, sum(v), count(*) FROM zipf GROUP BY gXYZ with
** the group table of each mode:
**   auto        the optimizer's choice
**   global      one table in global memory, global atomics (the plan's
**               grid; paper 003 §2)
**   shared      a plain table per block in shared memory (paper 003 §5.1)
**   replicated  the shared table with replicas of the hot groups: the
**               optimizer's, or, where it chose none, the 32 most frequent
**               groups forced (paper 000 §3)
** and prints, per run: the kernels' time (best and median of R warm runs;
** a first run compiles and loads the columns), rows/s, GB/s of the
** columns, and the physical floor — the column bytes over the bandwidth
** they are read at (device memory when resident, else zero-copy PCIe),
** measured in this run (exec_backend_bandwidth). On the CPU the floor is
** not measured ("-").
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "../engine/engine.h"
#include "../loader/feed.h"

#define SKEW_GROUPS 1024
#define SKEW_THETAS 5
#define SKEW_CHUNK 65536
#define SKEW_TABLE "zipf"
#define SKEW_MAX_REPEAT 100
#define SKEW_PROBE_BYTES (512ull << 20)

/* θ x 100 of each grouping column, in table order (v follows). */
static const int skew_aTheta[SKEW_THETAS] = {0, 50, 100, 150, 200};

/* What the generator's threads share, read-only. */
typedef struct skew_gen skew_gen;
struct skew_gen {
  int64_t nRow;
  double aaCdf[SKEW_THETAS][SKEW_GROUPS];  /* cumulative share of ranks 0..r */
  char aaLabel[SKEW_GROUPS][8];            /* rank r's group name */
};

/* splitmix64: a row's random word from its index and column. */
static uint64_t skew_mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* The rank whose cumulative share first passes u in [0, 1). */
static int skew_rank(const double *aCdf, double u) {
  int lo = 0, hi = SKEW_GROUPS - 1;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (aCdf[mid] > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

static void skew_gen_init(skew_gen *g, int64_t nRow) {
  g->nRow = nRow;
  for (int t = 0; t < SKEW_THETAS; t++) {
    double rSum = 0, rAcc = 0, theta = skew_aTheta[t] / 100.0;
    for (int r = 0; r < SKEW_GROUPS; r++) rSum += 1.0 / pow(r + 1, theta);
    for (int r = 0; r < SKEW_GROUPS; r++) {
      rAcc += 1.0 / pow(r + 1, theta) / rSum;
      g->aaCdf[t][r] = r == SKEW_GROUPS - 1 ? 1.0 : rAcc;
    }
  }
  for (int r = 0; r < SKEW_GROUPS; r++) {
    snprintf(g->aaLabel[r], sizeof(g->aaLabel[r]), "g%04d", (r * 37 + 11) % SKEW_GROUPS);
  }
}

/* Fills chunk iChunk's rows (load_fill_fn). */
static int skew_fill(void *pCtx, load_batch *b, int64_t iChunk, char *zErr, size_t nErr) {
  const skew_gen *g = pCtx;
  int64_t iFirst = iChunk * SKEW_CHUNK, n = g->nRow - iFirst;
  if (n > SKEW_CHUNK) n = SKEW_CHUNK;
  if (load_batch_reserve(b, n) != 0) goto out_oom;
  for (int64_t i = 0; i < n; i++) {
    uint64_t iRow = (uint64_t)(iFirst + i);
    for (int t = 0; t < SKEW_THETAS; t++) {
      uint64_t x = skew_mix(iRow * (SKEW_THETAS + 1) + (uint64_t)t);
      const char *z = g->aaLabel[skew_rank(g->aaCdf[t], (double)(x >> 11) * 0x1p-53)];
      if (load_batch_set_str(b, t, i, z, strlen(z)) != 0) goto out_oom;
    }
    int32_t v = (int32_t)(skew_mix(iRow * (SKEW_THETAS + 1) + SKEW_THETAS) % 1000);
    memcpy(load_batch_slot(b, SKEW_THETAS, i), &v, sizeof(v));
  }
  b->nRow = n;
  return 0;
out_oom:
  snprintf(zErr, nErr, "out of memory generating %s", SKEW_TABLE);
  return -1;
}

/* Creates table zipf (dropping one of another size) and loads N rows, or
** keeps the one there when it has N rows. Returns 0, or -1 with zErr. */
static int skew_data(cat *pCat, int64_t nRow, char *zErr, size_t nErr) {
  cat_table *t = NULL;
  load_sink *pSink = NULL;
  skew_gen *g;
  int64_t nDone = 0, nFed = 0;
  int rc = -1;
  if (cat_table_get(pCat, SKEW_TABLE, &t, zErr, nErr) == 0) {
    int bSame = t->nRow == nRow && t->nCol == SKEW_THETAS + 1;
    cat_table_free(t);
    if (bSame) return 0;
    if (cat_table_drop(pCat, SKEW_TABLE, zErr, nErr) != 0) return -1;
  }
  t = cat_table_new(SKEW_TABLE);
  if (t == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  for (int i = 0; i < SKEW_THETAS; i++) {
    char zCol[8];
    coltype ty = {COLTYPE_VARCHAR, 8, 0, 0};
    snprintf(zCol, sizeof(zCol), "g%03d", skew_aTheta[i]);
    if (cat_table_add_column(t, zCol, ty, 1, zErr, nErr) != 0) goto out_table;
  }
  {
    coltype ty = {COLTYPE_INTEGER, 0, 0, 0};
    if (cat_table_add_column(t, "v", ty, 1, zErr, nErr) != 0) goto out_table;
  }
  if (cat_table_create(pCat, t, zErr, nErr) != 0) goto out_table;
  cat_table_free(t);
  t = NULL;
  if (cat_table_get(pCat, SKEW_TABLE, &t, zErr, nErr) != 0) return -1;
  if ((g = malloc(sizeof(*g))) == NULL) {
    snprintf(zErr, nErr, "out of memory");
    goto out_table;
  }
  skew_gen_init(g, nRow);
  fprintf(stderr, "skew-groupby: generating %lld rows into %s\n", (long long)nRow, SKEW_TABLE);
  if (load_sink_open(&pSink, pCat, t, 0, zErr, nErr) == 0) {
    load_feed f = {pSink, t, (nRow + SKEW_CHUNK - 1) / SKEW_CHUNK, 16, SKEW_CHUNK, g,
                   skew_fill, NULL};
    if (load_feed_run(&f, &nFed, zErr, nErr) != 0) load_sink_abort(pSink);
    else if (load_sink_commit(pSink, &nDone, zErr, nErr) == 0) rc = 0;
  }
  free(g);
out_table:
  cat_table_free(t);
  return rc;
}

/* ---- running ----------------------------------------------------------------- */

typedef enum skew_mode { SKEW_AUTO, SKEW_GLOBAL, SKEW_SHARED, SKEW_REPLICATED } skew_mode;
static const char *const skew_azMode[] = {"auto", "global", "shared", "replicated"};

/* The most frequent codes of column iCol, for a forced replication. */
static int skew_hot_input(cat *pCat, const plan *p, groupby_input *pIn, char *zErr, size_t nErr) {
  const plan_key *k = &p->aKey[0];
  col_stats st;
  memset(pIn, 0, sizeof(*pIn));
  if (cat_stats_get(pCat, p->aSource[k->iSource].pTable->iId, k->iColumn, &st, zErr, nErr) != 0) {
    return -1;
  }
  for (uint64_t c = 0; c < st.nFreq && st.nRow > 0; c++) {
    groupby_hot_add(pIn, c, (double)st.aFreq[c] / (double)st.nRow);
  }
  stats_free(&st);
  return 0;
}

/* Turns the optimizer's group plan into mode e's. Returns 0, or -1 with
** zErr when the plan is not a dense table in shared memory (which the
** other modes are variants of). */
static int skew_mode_apply(cat *pCat, plan *p, skew_mode e, char *zErr, size_t nErr) {
  groupby_plan *g = &p->group;
  groupby_input in;
  if (e == SKEW_AUTO) return 0;
  if (g->eKind != GROUPBY_DENSE || g->ePlace != GROUPBY_PLACE_SHARED) {
    snprintf(zErr, nErr, "the optimizer chose no dense shared table (more rows needed)");
    return -1;
  }
  switch (e) {
    case SKEW_GLOBAL:
      g->ePlace = GROUPBY_PLACE_GLOBAL;
      g->nHot = 0;
      g->nSharedByte = 0;
      g->nCopy = 1;
      break;
    case SKEW_SHARED:
      g->nHot = 0;
      g->nShSlot = g->nSlot;
      g->nSharedByte = g->nSlot * (uint64_t)g->nSlotByte;
      break;
    default:
      if (g->nHot > 0) break;
      if (skew_hot_input(pCat, p, &in, zErr, nErr) != 0) return -1;
      if (groupby_plan_replicate(g, &p->model.dev, &in, 1) == 0) {
        snprintf(zErr, nErr, "no replicas fit the shared-memory budget");
        return -1;
      }
      break;
  }
  return 0;
}

static int skew_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Everything one run needs. */
typedef struct skew_run skew_run;
struct skew_run {
  cat *pCat;
  exec_backend *pB;
  engine *pEngine;         /* over pB: how the query runs */
  exec_options xo;
  exec_bandwidth bw;
  int nRepeat;
  int bExplain;
};

/* What a plan edit needs: the catalog, the mode, where an error goes. */
typedef struct skew_edit skew_edit;
struct skew_edit {
  cat *pCat;
  skew_mode e;
  int rc;
  char zErr[512];
  char zPlan[512];         /* the group table's plan, as EXPLAIN says it */
  double nFactRow;
  int nHot;
};

/* The engine's plan edit (engine_request.xPlanEdit): the mode's table. */
static void skew_plan_edit(plan *p, void *pArg) {
  skew_edit *x = pArg;
  x->rc = skew_mode_apply(x->pCat, p, x->e, x->zErr, sizeof(x->zErr));
  groupby_plan_explain(&p->group, x->zPlan, sizeof(x->zPlan));
  x->nFactRow = p->nFactRow;
  x->nHot = p->group.nHot;
}

/* Plans, generates and runs the query of column iTheta in mode e through
** the engine (the plan edited for the mode); prints one line. Returns 0,
** or -1 (the line says why). */
static int skew_run_one(skew_run *x, int iTheta, skew_mode e) {
  char zSql[160];
  double aKernel[SKEW_MAX_REPEAT];
  engine_request q;
  skew_edit ed;
  sql_error err;
  exec_result r;
  int rc = -1;
  snprintf(zSql, sizeof(zSql), "SELECT g%03d, sum(v), count(*) FROM %s GROUP BY g%03d",
           skew_aTheta[iTheta], SKEW_TABLE, skew_aTheta[iTheta]);
  memset(&r, 0, sizeof(r));
  memset(&ed, 0, sizeof(ed));
  ed.pCat = x->pCat;
  ed.e = e;
  memset(&q, 0, sizeof(q));
  q.eKind = ENGINE_SELECT;
  q.zSql = zSql;
  q.opt = x->xo;
  q.xPlanEdit = skew_plan_edit;
  q.pPlanEditArg = &ed;
  printf("%5.2f  %-10s ", skew_aTheta[iTheta] / 100.0, skew_azMode[e]);
  /* Each run prepares the statement again (an edited plan is never kept)
  ** and finds its kernels in the module cache; the kernels' time is
  ** timed apart. Run 0 compiles and loads the columns. */
  for (int i = 0; i <= x->nRepeat; i++) {
    exec_result_free(&r);
    if (engine_execute(x->pEngine, &q, &r, &err) != 0 || ed.rc != 0) {
      printf("%s%s%s\n", ed.rc != 0 ? ed.zErr : err.zState, ed.rc != 0 ? "" : ": ",
             ed.rc != 0 ? "" : err.zMsg);
      goto out;
    }
    if (i > 0) aKernel[i - 1] = r.rKernelSeconds;
  }
  qsort(aKernel, (size_t)x->nRepeat, sizeof(double), skew_cmp);
  double rBest = aKernel[0], rMed = aKernel[x->nRepeat / 2], rN = ed.nFactRow;
  int bResident = r.nColResident > 0 && r.nColPinned == 0 && r.nColStreamed == 0;
  double rBw = bResident ? x->bw.rDevice : x->bw.rZeroCopy;
  printf("%9.3f %9.3f %9.3f %8.2f ", rBest * 1e3, rMed * 1e3, rN / rBest / 1e9,
         (double)r.nFactBytes / rBest / 1e9);
  if (rBw > 0) {
    double rFloor = (double)r.nFactBytes / rBw;
    printf("%9.3f %6.2fx", rFloor * 1e3, rBest / rFloor);
  } else {
    printf("%9s %7s", "-", "-");
  }
  printf("  %s, %d hot\n", bResident ? "resident" : "host", ed.nHot);
  if (x->bExplain) printf("       %s\n", ed.zPlan);
  rc = 0;
out:
  exec_result_free(&r);
  return rc;
}

static int skew_usage(void) {
  fprintf(stderr, "usage: skew-groupby --data DIR [--backend cpu|cuda] [--rows N] "
                  "[--theta 0,0.5,1,1.5,2] [--modes auto,global,shared,replicated] [--repeat R] "
                  "[--no-resident] [--explain]\n");
  return 2;
}

/* Parses a comma list of names of az (n) into the bit mask *pm. */
static int skew_parse_list(const char *z, const char *const *az, int n, unsigned *pm, int bTheta) {
  *pm = 0;
  while (*z) {
    size_t k = strcspn(z, ",");
    int i = 0;
    if (bTheta) {
      char *zEnd;
      double t = strtod(z, &zEnd);
      for (i = 0; i < n && (zEnd != z + k || fabs(t * 100 - skew_aTheta[i]) > 1e-6); i++) {}
    } else {
      for (i = 0; i < n && !(strlen(az[i]) == k && strncmp(z, az[i], k) == 0); i++) {}
    }
    if (i == n) return -1;
    *pm |= 1u << i;
    z += k + (z[k] == ',');
  }
  return *pm ? 0 : -1;
}

int main(int argc, char **argv) {
  const char *zData = NULL, *zBackend = "cpu";
  int64_t nRow = 0;
  unsigned mTheta = (1u << SKEW_THETAS) - 1, mMode = 0xf;
  skew_run x;
  char zErr[512];
  exec_backend be;
  int rc = 0;
  memset(&x, 0, sizeof(x));
  x.xo.eGeneric = EXEC_GENERIC_OFF;          /* timed runs: the shape's own kernels */
  x.nRepeat = 5;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) zData = argv[++i];
    else if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) zBackend = argv[++i];
    else if (strcmp(argv[i], "--rows") == 0 && i + 1 < argc) nRow = atoll(argv[++i]);
    else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) x.nRepeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "--no-resident") == 0) x.xo.bNoResident = 1;
    else if (strcmp(argv[i], "--explain") == 0) x.bExplain = 1;
    else if (strcmp(argv[i], "--theta") == 0 && i + 1 < argc) {
      if (skew_parse_list(argv[++i], NULL, SKEW_THETAS, &mTheta, 1) != 0) return skew_usage();
    } else if (strcmp(argv[i], "--modes") == 0 && i + 1 < argc) {
      if (skew_parse_list(argv[++i], skew_azMode, 4, &mMode, 0) != 0) return skew_usage();
    } else {
      return skew_usage();
    }
  }
  if (zData == NULL || x.nRepeat < 1 || x.nRepeat > SKEW_MAX_REPEAT || nRow < 0 ||
      (strcmp(zBackend, "cpu") != 0 && strcmp(zBackend, "cuda") != 0)) {
    return skew_usage();
  }
  if (nRow == 0) nRow = strcmp(zBackend, "cuda") == 0 ? 128ll << 20 : 4ll << 20;
  if (cat_open(&x.pCat, zData, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "skew-groupby: %s\n", zErr);
    return 1;
  }
  if (skew_data(x.pCat, nRow, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "skew-groupby: %s\n", zErr);
    cat_close(x.pCat);
    return 1;
  }
  if (strcmp(zBackend, "cuda") == 0 ? exec_backend_cuda(&be, NULL, zErr, sizeof(zErr))
                                     : exec_backend_cpu(&be, 0, NULL, zErr, sizeof(zErr))) {
    fprintf(stderr, "skew-groupby: the %s backend is not available: %s\n", zBackend, zErr);
    cat_close(x.pCat);
    return 1;
  }
  x.pB = &be;
  {
    engine_config c;
    engine_config_init(&c);
    c.zDataDir = zData;
    c.pBackend = &be;
    if (engine_open(&x.pEngine, &c, zErr, sizeof(zErr)) != 0) {
      fprintf(stderr, "skew-groupby: %s\n", zErr);
      exec_backend_close(&be);
      cat_close(x.pCat);
      return 1;
    }
  }
  if (exec_backend_bandwidth(&be, strcmp(zBackend, "cuda") == 0 ? SKEW_PROBE_BYTES : 0, &x.bw, zErr,
                             sizeof(zErr)) != 0) {
    fprintf(stderr, "skew-groupby: bandwidth: %s\n", zErr);
  }
  {
    strbuf d;
    strbuf_init(&d);
    exec_backend_describe(&be, &d);
    printf("skew-groupby: %lld rows, %d groups; %s; zero-copy %.1f GB/s, device %.1f GB/s\n",
           (long long)nRow, SKEW_GROUPS, strbuf_str(&d), x.bw.rZeroCopy / 1e9, x.bw.rDevice / 1e9);
    strbuf_free(&d);
  }
  printf("%5s  %-10s %9s %9s %9s %8s %9s %7s  %s\n", "theta", "mode", "best ms", "med ms",
         "Grows/s", "GB/s", "floor ms", "x floor", "columns, hot groups");
  for (int t = 0; t < SKEW_THETAS; t++) {
    if (!(mTheta & (1u << t))) continue;
    for (int e = 0; e < 4; e++) {
      if ((mMode & (1u << e)) && skew_run_one(&x, t, (skew_mode)e) != 0) rc = 1;
    }
  }
  engine_close(x.pEngine);
  exec_backend_close(&be);
  cat_close(x.pCat);
  return rc;
}
