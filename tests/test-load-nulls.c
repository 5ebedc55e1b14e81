/*
** tests/test-load-nulls.c — NULLs across many rows and unaligned appends:
** the sink appends validity bits a word at a time, shifting each batch to
** where the table ends, so batches of 70, 100 and 3 rows (none a multiple
** of 64) must leave every row's bit right, in a numeric and a string
** column, and the NULL counts in the statistics must match.
*/
#include "../catalog/catalog.h"
#include "../storage/store.h"
#include "test.h"

#define LN_ROWS (70 + 100 + 3)

/* Row k (counted across all loads) is NULL in both columns when k % 3 == 0
** or k % 64 == 63, so NULLs fall on word edges too. */
static int ln_is_null(int k) {
  return k % 3 == 0 || k % 64 == 63;
}

/* Writes rows iFirst .. iFirst+n-1 as CSV: key, a nullable int, a nullable text. */
static void ln_write(const char *zPath, int iFirst, int n) {
  FILE *f = fopen(zPath, "w");
  ASSERT(f != NULL);
  for (int k = iFirst; k < iFirst + n; k++) {
    if (ln_is_null(k)) {
      fprintf(f, "%d,,\n", k);
    } else {
      fprintf(f, "%d,%d,s%03d\n", k, k * 10, k % 50);
    }
  }
  ASSERT_EQ(fclose(f), 0);
}

static void ln_load(const char *zPath, int bAppend) {
  const char *azArgv[] = {"starq-load", "--data-dir", "data", "t", zPath, "--quiet",
                          bAppend ? "--append" : NULL, NULL};
  test_proc p;
  if (test_run(&p, azArgv) != 0) FAIL("starq-load %s: %s", zPath, p.zErr);
  test_proc_free(&p);
}

/* Checks column iCol's validity bits and values against ln_is_null. */
static void ln_check_column(cat *pCat, const cat_table *t, int iCol) {
  char zPath[4096], zErr[512];
  store_map v, m;
  const uint64_t *aBit;
  int64_t nNull = 0;
  col_stats s;

  cat_file_path(pCat, t, t->iGen, iCol, STORE_VALIDITY, zPath, sizeof(zPath));
  CALL_OK(store_map_open(&v, zPath, STORE_VALIDITY, 0, zErr, sizeof(zErr)));
  cat_file_path(pCat, t, t->iGen, iCol, STORE_VALUES, zPath, sizeof(zPath));
  CALL_OK(store_map_open(&m, zPath, STORE_VALUES, t->aCol[iCol].type.eId, zErr, sizeof(zErr)));
  ASSERT_EQ(v.nRow, LN_ROWS);
  aBit = v.aData;
  for (int k = 0; k < LN_ROWS; k++) {
    int bPresent = (aBit[k / 64] >> (k % 64)) & 1;
    if (bPresent == ln_is_null(k)) {
      FAIL("%s row %d: validity bit %d, the row is %s", t->aCol[iCol].zName, k, bPresent,
           ln_is_null(k) ? "NULL" : "present");
    }
    if (iCol == 1 && bPresent) ASSERT_EQ(((const int32_t *)m.aData)[k], k * 10);
    nNull += !bPresent;
  }
  CALL_OK(cat_stats_get(pCat, t->iId, iCol, &s, zErr, sizeof(zErr)));
  ASSERT_EQ(s.nNull, nNull);
  ASSERT_EQ(s.nRow, LN_ROWS);
  stats_free(&s);
  store_map_close(&m);
  store_map_close(&v);
}

TEST_IMPL(load_nulls_unaligned) {
  static const coltype aType[3] = {
    {COLTYPE_INTEGER, 0, 0, 0}, {COLTYPE_INTEGER, 0, 0, 0}, {COLTYPE_TEXT, 0, 0, 0},
  };
  static const char *const azName[3] = {"k", "v", "s"};
  cat *pCat;
  cat_table *t = cat_table_new("t");
  char zErr[512];

  ASSERT(t != NULL);
  for (int i = 0; i < 3; i++) {
    CALL_OK(cat_table_add_column(t, azName[i], aType[i], i == 0, zErr, sizeof(zErr)));
  }
  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  CALL_OK(cat_table_create(pCat, t, zErr, sizeof(zErr)));
  cat_table_free(t);
  cat_close(pCat);

  ln_write("a.csv", 0, 70);
  ln_write("b.csv", 70, 100);
  ln_write("c.csv", 170, 3);
  ln_load("a.csv", 0);
  ln_load("b.csv", 1);
  ln_load("c.csv", 1);

  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  CALL_OK(cat_table_get(pCat, "t", &t, zErr, sizeof(zErr)));
  ASSERT_EQ(t->nRow, LN_ROWS);
  ln_check_column(pCat, t, 1);
  ln_check_column(pCat, t, 2);
  cat_table_free(t);
  cat_close(pCat);
  return 0;
}
