/*
** tests/test-catalog-cache.c — the definition cache of catalog/cache.c
** never serves a stale definition: not after this handle's own writes,
** not after another connection's commits.
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
