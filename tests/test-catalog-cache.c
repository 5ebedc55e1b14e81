/*
** tests/test-catalog-cache.c — the caches of catalog/cache.c
** (definitions, statistics, values files' headers) never serve a stale
** entry: not after this handle's own writes, not after another
** connection's commits; and cat_cache_hold() keeps one state for a
** statement until released.
*/
#include "../catalog/catalog.h"
#include "test.h"

static cat *cc_open(void) {
  cat *p;
  char zErr[512];
  if (cat_open(&p, "data", zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  return p;
}

static void cc_create(cat *p, const char *zName) {
  cat_table *t = cat_table_new(zName);
  coltype ti = {COLTYPE_INTEGER, 0, 0, 0};
  char zErr[512];
  ASSERT(t != NULL);
  ASSERT_EQ(cat_table_add_column(t, "a", ti, 1, zErr, sizeof(zErr)), 0);
  if (cat_table_create(p, t, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  cat_table_free(t);
}

/* Commits an empty generation claiming nRow rows of table zName. */
static void cc_commit_rows(cat *p, const char *zName, int64_t nRow) {
  cat_table *t;
  col_stats s;
  int64_t iGen;
  char zErr[512];
  ASSERT_EQ(cat_table_get(p, zName, &t, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(cat_gen_begin(p, t, &iGen, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(stats_init(&s, t->aCol[0].type), 0);
  s.nRow = nRow;
  if (cat_gen_commit(p, t, iGen, nRow, &s, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  stats_free(&s);
  cat_table_free(t);
}

static int64_t cc_rows(cat *p, const char *zName) {
  cat_table *t;
  char zErr[512];
  int64_t n;
  if (cat_table_get(p, zName, &t, zErr, sizeof(zErr)) != 0) return -1;
  n = t->nRow;
  cat_table_free(t);
  return n;
}

TEST_IMPL(cat_cache_coherent) {
  cat *pA = cc_open(), *pB;
  cat_table *t;
  char zErr[512];

  cc_create(pA, "t");
  ASSERT_EQ(cc_rows(pA, "t"), 0);
  ASSERT_EQ(cc_rows(pA, "T"), 0);           /* cached, and names still fold */

  /* The copy handed out is the caller's: changing it changes no cache. */
  ASSERT_EQ(cat_table_get(pA, "t", &t, zErr, sizeof(zErr)), 0);
  t->nRow = 99;
  free(t->aCol[0].zName);
  t->aCol[0].zName = NULL;
  t->nCol = 0;
  cat_table_free(t);
  ASSERT_EQ(cat_table_get(pA, "t", &t, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(t->nRow, 0);
  ASSERT_EQ(t->nCol, 1);
  ASSERT_STR_EQ(t->aCol[0].zName, "a");
  cat_table_free(t);

  /* Another connection loads: the next read sees it. */
  pB = cc_open();
  cc_commit_rows(pB, "t", 5);
  ASSERT_EQ(cc_rows(pA, "t"), 5);

  /* This handle loads: its own next read sees it. */
  cc_commit_rows(pA, "t", 7);
  ASSERT_EQ(cc_rows(pA, "t"), 7);
  ASSERT_EQ(cc_rows(pB, "t"), 7);

  /* Another connection creates and drops tables. */
  ASSERT_EQ(cc_rows(pA, "u"), -1);
  cc_create(pB, "u");
  ASSERT_EQ(cc_rows(pA, "u"), 0);
  ASSERT_EQ(cat_table_drop(pB, "u", zErr, sizeof(zErr)), 0);
  ASSERT_EQ(cc_rows(pA, "u"), -1);

  /* This handle drops a table it has cached. */
  ASSERT_EQ(cat_table_drop(pA, "t", zErr, sizeof(zErr)), 0);
  ASSERT_EQ(cat_table_get(pA, "t", &t, zErr, sizeof(zErr)), -1);
  ASSERT(strstr(zErr, "no table named \"t\"") != NULL);

  cat_close(pB);
  cat_close(pA);
  return 0;
}

/* Returns the row count the statistics of t's column a say. */
static int64_t cc_stats_rows(cat *p, const char *zName) {
  cat_table *t;
  col_stats s;
  char zErr[512];
  int64_t n;
  if (cat_table_get(p, zName, &t, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  if (cat_stats_get(p, t->iId, 0, &s, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  n = s.nRow;
  /* The copy is the caller's: scribbling on it changes no cache. */
  s.nRow = -5;
  if (s.aHll != NULL) memset(s.aHll, 0xff, STATS_HLL_SIZE);
  stats_free(&s);
  cat_table_free(t);
  return n;
}

TEST_IMPL(cat_cache_stats) {
  cat *pA = cc_open(), *pB = cc_open();
  cat_table *t;
  store_enc e;
  uint64_t n;
  char zErr[512];

  /* Statistics: cached copies, never stale after either handle's loads. */
  cc_create(pA, "t");
  ASSERT_EQ(cc_stats_rows(pA, "t"), 0);
  ASSERT_EQ(cc_stats_rows(pA, "t"), 0);
  cc_commit_rows(pB, "t", 5);
  ASSERT_EQ(cc_stats_rows(pA, "t"), 5);
  ASSERT_EQ(cc_stats_rows(pA, "t"), 5);
  cc_commit_rows(pA, "t", 9);
  ASSERT_EQ(cc_stats_rows(pA, "t"), 9);
  ASSERT_EQ(cc_stats_rows(pB, "t"), 9);

  /* Held, the handle sees the state of the hold; its own writes empty the
  ** cache all the same; released, it sees the latest. */
  ASSERT_EQ(cat_cache_hold(pA, zErr, sizeof(zErr)), 0);
  cc_commit_rows(pB, "t", 11);
  ASSERT_EQ(cc_rows(pA, "t"), 9);
  ASSERT_EQ(cc_stats_rows(pA, "t"), 9);
  cat_cache_release(pA);
  ASSERT_EQ(cc_rows(pA, "t"), 11);
  ASSERT_EQ(cc_stats_rows(pA, "t"), 11);
  ASSERT_EQ(cat_cache_hold(pA, zErr, sizeof(zErr)), 0);
  cc_commit_rows(pA, "t", 12);
  ASSERT_EQ(cc_rows(pA, "t"), 12);
  ASSERT_EQ(cc_stats_rows(pA, "t"), 12);
  cat_cache_release(pA);

  /* A values file's header that cannot be read is an error, every time. */
  ASSERT_EQ(cat_table_get(pA, "t", &t, zErr, sizeof(zErr)), 0);
  for (int i = 0; i < 2; i++) {
    zErr[0] = 0;
    ASSERT_EQ(cat_file_info(pA, t, t->iGen, 0, &e, &n, zErr, sizeof(zErr)), -1);
    ASSERT(zErr[0] != 0);
  }
  cat_table_free(t);

  cat_close(pB);
  cat_close(pA);
  return 0;
}

/* Returns pCat's cache generation as a statement holding it sees it. */
static uint64_t cc_generation(cat *p) {
  char zErr[512];
  uint64_t iGen;
  if (cat_cache_hold(p, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  iGen = cat_cache_generation(p);
  cat_cache_release(p);
  return iGen;
}

/* cat_cache_generation (what the worker's statement cache keys on): the
** same while nothing is committed, another after any commit by another
** connection (DDL, a load) or a write by this handle, and 0
** while the cache is not held. */
TEST_IMPL(cat_cache_generation) {
  cat *pA = cc_open(), *pB = cc_open();
  uint64_t g0, g1, g2, g3;
  ASSERT_EQ(cat_cache_generation(pA), 0);
  g0 = cc_generation(pA);
  ASSERT(g0 != 0);
  ASSERT_EQ(cc_rows(pA, "t"), -1);
  ASSERT_EQ(cc_generation(pA), g0);
  ASSERT_EQ(cc_generation(pA), g0);
  cc_create(pB, "t");                         /* DDL elsewhere */
  g1 = cc_generation(pA);
  ASSERT(g1 != 0 && g1 != g0);
  ASSERT_EQ(cc_generation(pA), g1);
  cc_commit_rows(pB, "t", 3);                 /* a load elsewhere */
  g2 = cc_generation(pA);
  ASSERT(g2 != g1 && g2 != g0);
  cc_create(pB, "u");                         /* another table's DDL elsewhere */
  g3 = cc_generation(pA);
  ASSERT(g3 != g2);
  cc_commit_rows(pA, "t", 4);                 /* this handle's own write */
  ASSERT(cc_generation(pA) != g3);
  ASSERT_EQ(cat_cache_generation(pA), 0);
  cat_close(pB);
  cat_close(pA);
  return 0;
}
