/*
** tests/test-exec-skew.c — grouped aggregation over skewed groups against
** SQLite: the shared-memory group table and its replicas of hot groups
** (planner/groupby_hot.c, codegen/scan.c; paper 000 §3), on the CPU
** backend and on the mock GPU (tests/mock: the same kernels by cc, shared
** memory as thread-local statics).
**
** Four tables, Zipf-distributed string groups with θ = 0 and θ = 2, few
** (12) and many (1024) of them, NULL groups among them (hot in one
** table), nullable INTEGER, BIGINT and DOUBLE values: every aggregate
** kind goes through the replicas, their fold and the block-end merge. On
** the CPU a block is one thread, and the replica a thread takes rotates
** with the block index, so different blocks fill different replicas and
** the fold of every replica is checked. The plans are checked too: the
** skewed tables get replicas (EXPLAIN says so, the kernel reads the map),
** 1024 uniform groups a plain shared table — 12 uniform groups are each
** 8% of the rows, so hot by the same rule (paper 003's Region I).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-exec.h"
#include "test-plan.h"
#include "test.h"

/* One table: its name, groups, θ, rows, and a NULL group every nNullEvery
** rows. Rows must pass 264 blocks x groups (the H100 grid) for the planner
** to keep per-block copies, i.e. a shared table. */
typedef struct skew_table skew_table;
struct skew_table {
  const char *zName;
  int nGroup;
  double theta;
  int nRow;
  int nNullEvery;
  int bHot;                /* the plan must replicate */
};

static const skew_table skew_aTable[] = {
  {"few_u", 12, 0.0, 20000, 101, 1},      /* each group 8% of the rows: hot too */
  {"few_z", 12, 2.0, 20000, 9, 1},        /* NULL is 11% of the rows: hot */
  {"many_u", 1024, 0.0, 300000, 211, 0},
  {"many_z", 1024, 2.0, 300000, 211, 1},
};

/* The CSV of table t: id, g, v, b, d. Rank r of Zipf(θ) gets its share
** of the rows, rounded (the rest to rank 0), as label (r * 37 + 11) % n,
** so the hot groups are not the first codes; the rows are then shuffled
** by an LCG (Fisher-Yates), so every block sees every group. */
static void skew_csv(const skew_table *t, strbuf *s) {
  int *aRank = malloc(sizeof(int) * (size_t)t->nRow);
  double rSum = 0;
  int n = 0;
  unsigned long long x = 0x9e3779b97f4a7c15ull;
  ASSERT(aRank != NULL);
  for (int r = 0; r < t->nGroup; r++) rSum += 1.0 / pow(r + 1, t->theta);
  for (int r = t->nGroup - 1; r >= 0; r--) {
    int k = (int)(t->nRow / pow(r + 1, t->theta) / rSum + 0.5);
    for (int i = 0; i < k && n < t->nRow; i++) aRank[n++] = r;
  }
  while (n < t->nRow) aRank[n++] = 0;
  for (int i = t->nRow - 1; i > 0; i--) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    int j = (int)((x >> 33) % (unsigned long long)(i + 1)), tmp = aRank[i];
    aRank[i] = aRank[j];
    aRank[j] = tmp;
  }
  for (int i = 0; i < t->nRow; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    strbuf_printf(s, "%d,", i);
    if (i % t->nNullEvery != 0) strbuf_printf(s, "g%04d", (aRank[i] * 37 + 11) % t->nGroup);
    strbuf_puts(s, ",");
    if (i % 17 != 3) strbuf_printf(s, "%d", (int)(x >> 40) % 100);
    strbuf_printf(s, ",%lld,%.2f\n", (long long)(x >> 20) - (1ll << 43), (double)(i % 40) * 0.25 - 3);
  }
  free(aRank);
}

/* A fresh data directory ./data with the four tables. */
static void skew_open(void) {
  cat *pCat;
  char zErr[512];
  strbuf s;
  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("cat_open: %s", zErr);
  strbuf_init(&s);
  for (size_t i = 0; i < sizeof(skew_aTable) / sizeof(skew_aTable[0]); i++) {
    char zSql[256];
    snprintf(zSql, sizeof(zSql), "CREATE TABLE %s (id INTEGER NOT NULL, g VARCHAR(8), v INTEGER,"
             " b BIGINT, d DOUBLE PRECISION)", skew_aTable[i].zName);
    plantest_sql_table(pCat, zSql);
    strbuf_reset(&s);
    skew_csv(&skew_aTable[i], &s);
    ASSERT(!strbuf_error(&s));
    plantest_load(pCat, skew_aTable[i].zName, strbuf_str(&s));
  }
  strbuf_free(&s);
  cat_close(pCat);
}

/* The queries, each over every table (%s), against SQLite. */
static const char *const skew_azQuery[] = {
  "SELECT g, sum(v), count(*) FROM %s GROUP BY g",
  "SELECT g, count(v), min(v), max(v), avg(v), sum(b), min(b), sum(d), min(d), max(d), avg(d)"
  " FROM %s GROUP BY g ORDER BY g NULLS FIRST",
  "SELECT g, count(*), sum(v) FROM %s WHERE v > 40 GROUP BY g HAVING count(*) > 3",
};

/* Checks every query on every table, and that the plans replicate hot
** groups exactly on the skewed tables. */
static void skew_check(exectest *t) {
  for (size_t i = 0; i < sizeof(skew_aTable) / sizeof(skew_aTable[0]); i++) {
    const skew_table *pT = &skew_aTable[i];
    char zSql[512];
    for (size_t q = 0; q < sizeof(skew_azQuery) / sizeof(skew_azQuery[0]); q++) {
      snprintf(zSql, sizeof(zSql), skew_azQuery[q], pT->zName);
      ASSERT(exectest_check(t, zSql, strstr(zSql, "ORDER BY") != NULL) > 0);
    }
    snprintf(zSql, sizeof(zSql), skew_azQuery[0], pT->zName);
    char *zPlan = exectest_explain_text(t->pEngine, t->pOpt, zSql, 1);
    if (strstr(zPlan, "dense array in shared memory") == NULL) FAIL("%s: %s", pT->zName, zPlan);
    if ((strstr(zPlan, "hot group") != NULL) != pT->bHot) FAIL("%s: %s", pT->zName, zPlan);
    if ((strstr(zPlan, "sq_gt_slot(g_map, code)") != NULL) != pT->bHot) {
      FAIL("%s: kernel: %s", pT->zName, zPlan);
    }
    ASSERT(strstr(zPlan, "merge the block's groups into the global table") != NULL);
    if (pT->nNullEvery < 20) {                /* NULL's code is the last: 12 */
      ASSERT(strstr(zPlan, "code 12 (") != NULL);
    }
    free(zPlan);
  }
}

TEST_IMPL(exec_skew_groupby) {
  exectest t;
  skew_open();
  exectest_open(&t, NULL);
  skew_check(&t);
  exectest_close(&t);
  return 0;
}

TEST_IMPL(exec_skew_groupby_mock) {
  exectest t;
  skew_open();
  exectest_open_mock(&t, NULL);
  skew_check(&t);
  exectest_close(&t);
  return 0;
}
