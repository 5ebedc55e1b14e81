/*
** tests/test-load-compress.c — loads into a compressed fact table through
** starq-load: the first load packs the columns (FOR with blocks of runs,
** day slots for a DATE column with NULLs and edge dates), `--append`
** unpacks the old rows, adds the new ones and packs the whole column
** again, `--append --compress off` leaves it plain, an append that fails
** leaves the packed generation as it was, and a bad --compress value is
** refused with exit 2.
**
** The reference is the rows themselves: each is a function of its number
** (lc_row), and every value is read back from the column files (through
** store_for_get for a packed one) and the validity bitmaps.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../catalog/catalog.h"
#include "../storage/store.h"
#include "test-plan.h"
#include "test.h"

#define LC_FIRST 1000       /* rows of the first load */
#define LC_ROWS 2300        /* rows after the append */

/* The values of row r: id, dk (runs of 3, a key of dim), dt (yyyymmdd, 0
** for NULL; edge dates among SSB's years), v (runs of 5, past INTEGER). */
typedef struct lc_row lc_row;
struct lc_row {
  int32_t id, dk, dt;
  int64_t v;
};

static lc_row lc_value(int r) {
  static const int32_t aEdge[] = {10101, 19000101, 20000229, 99991231, 19960229};
  lc_row x;
  x.id = r;
  x.dk = r / 3 % 50 + 1;
  if (r % 13 == 5) x.dt = 0;
  else if (r % 97 == 0) x.dt = aEdge[r / 97 % 5];
  else x.dt = 1992 * 10000 + (r / 4 % 7) * 10000 + (r / 4 * 7 % 12 + 1) * 100 + r / 4 * 11 % 28 + 1;
  x.v = (int64_t)(r / 5) * 1000000007ll - 3000000000ll;
  return x;
}

/* Writes rows [r0, r1) as CSV to zPath. */
static void lc_write(const char *zPath, int r0, int r1) {
  FILE *f = fopen(zPath, "w");
  ASSERT(f != NULL);
  for (int r = r0; r < r1; r++) {
    lc_row x = lc_value(r);
    fprintf(f, "%d,%d,", x.id, x.dk);
    if (x.dt != 0) fprintf(f, "%04d-%02d-%02d", x.dt / 10000, x.dt / 100 % 100, x.dt % 100);
    fprintf(f, ",%lld\n", (long long)x.v);
  }
  ASSERT_EQ(fclose(f), 0);
}

/* Opens (creating) the catalog of a fresh data directory ./data with
** dim(dk, name) and f(id NOT NULL, dk REFERENCES dim, dt DATE, v BIGINT). */
static cat *lc_open(void) {
  cat *pCat;
  char zErr[512];
  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("cat_open: %s", zErr);
  return pCat;
}

static void lc_create(void) {
  cat *pCat = lc_open();
  plantest_sql_table(pCat, "CREATE TABLE dim (dk INTEGER PRIMARY KEY, name VARCHAR(8))");
  plantest_sql_table(pCat, "CREATE TABLE f (id INTEGER NOT NULL, dk INTEGER REFERENCES dim,"
                           " dt DATE, v BIGINT)");
  cat_close(pCat);
}

/* Runs starq-load on zCsv into f with the extra flags (NULL-ended);
** returns its exit code, its stderr in *pzErr (malloc'd). */
static int lc_load(const char *zCsv, const char *const *azFlag, char **pzErr) {
  const char *azArgv[16] = {"starq-load", "--data-dir", "data", "--quiet"};
  int n = 4, rc;
  test_proc p;
  for (int i = 0; azFlag != NULL && azFlag[i] != NULL; i++) azArgv[n++] = azFlag[i];
  azArgv[n++] = "f";
  azArgv[n++] = zCsv;
  azArgv[n] = NULL;
  rc = test_run(&p, azArgv);
  *pzErr = strdup(p.zErr);
  test_proc_free(&p);
  return rc;
}

/* Reads f's columns back and checks nRow rows against lc_value and each
** column's encoding against aeWant (id, dk, dt, v). Returns f's
** generation. */
static int64_t lc_check(int64_t nRow, const store_enc *aeWant) {
  cat *pCat;
  cat_table *t;
  char zErr[512], zPath[4096];
  int64_t iGen;
  pCat = lc_open();
  if (cat_table_get(pCat, "f", &t, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(t->nRow, nRow);
  for (int i = 0; i < 4; i++) {
    store_map m, v;
    cat_file_path(pCat, t, t->iGen, i, STORE_VALUES, zPath, sizeof(zPath));
    CALL_OK(store_map_open(&m, zPath, STORE_VALUES, t->aCol[i].type.eId, zErr, sizeof(zErr)));
    if (m.eEnc != aeWant[i]) FAIL("column %d: encoding %s, wanted %s", i, store_enc_name(m.eEnc),
                                  store_enc_name(aeWant[i]));
    memset(&v, 0, sizeof(v));
    if (!t->aCol[i].bNotNull) {
      cat_file_path(pCat, t, t->iGen, i, STORE_VALIDITY, zPath, sizeof(zPath));
      CALL_OK(store_map_open(&v, zPath, STORE_VALIDITY, 0, zErr, sizeof(zErr)));
    }
    for (int64_t r = 0; r < nRow; r++) {
      lc_row x = lc_value((int)r);
      int64_t aWant[4] = {x.id, x.dk, x.dt, x.v}, got;
      int bValid = v.aData == NULL || ((((const uint64_t *)v.aData)[r / 64] >> (r % 64)) & 1);
      if (store_enc_packed(m.eEnc)) {
        got = store_for_get(&m, (uint64_t)r);
      } else if (m.nWidth == 8) {
        got = ((const int64_t *)m.aData)[r];
      } else {
        got = ((const int32_t *)m.aData)[r];
      }
      ASSERT_EQ(bValid, !(i == 2 && x.dt == 0));
      if (got != aWant[i]) FAIL("column %d row %lld: %lld, wanted %lld", i, (long long)r,
                                (long long)got, (long long)aWant[i]);
    }
    store_map_close(&m);
    store_map_close(&v);
  }
  iGen = t->iGen;
  cat_table_free(t);
  cat_close(pCat);
  return iGen;
}

TEST_IMPL(load_append_compressed) {
  static const store_enc aePacked[] = {STORE_ENC_FOR, STORE_ENC_FOR, STORE_ENC_FOR_DATE,
                                       STORE_ENC_FOR};
  static const store_enc aePlain[] = {STORE_ENC_PLAIN, STORE_ENC_PLAIN, STORE_ENC_PLAIN,
                                      STORE_ENC_PLAIN};
  static const char *const azAppend[] = {"--append", NULL};
  static const char *const azAppendOff[] = {"--append", "--compress", "off", NULL};
  cat *pCat;
  strbuf s;
  char *zErr;
  int64_t iGen;
  lc_create();
  pCat = lc_open();
  strbuf_init(&s);
  for (int k = 1; k <= 50; k++) strbuf_printf(&s, "%d,n%d\n", k, k);
  plantest_load(pCat, "dim", strbuf_str(&s));
  strbuf_free(&s);
  cat_close(pCat);

  lc_write("first.csv", 0, LC_FIRST);
  if (lc_load("first.csv", NULL, &zErr) != 0) FAIL("load: %s", zErr);
  free(zErr);
  lc_check(LC_FIRST, aePacked);

  /* Append: the old packed rows come back plain, the column packs again. */
  lc_write("second.csv", LC_FIRST, LC_ROWS - 300);
  if (lc_load("second.csv", azAppend, &zErr) != 0) FAIL("append: %s", zErr);
  free(zErr);
  iGen = lc_check(LC_ROWS - 300, aePacked);

  /* A failing append (row 7 of the file has no date) leaves it as it was. */
  {
    FILE *f = fopen("bad.csv", "w");
    ASSERT(f != NULL);
    for (int r = 0; r < 6; r++) fprintf(f, "%d,1,1995-01-01,5\n", LC_ROWS + r);
    fprintf(f, "9,1,1995-02-30,5\n");
    ASSERT_EQ(fclose(f), 0);
  }
  ASSERT_EQ(lc_load("bad.csv", azAppend, &zErr), 1);
  ASSERT(strstr(zErr, "1995-02-30") != NULL);
  free(zErr);
  ASSERT_EQ(lc_check(LC_ROWS - 300, aePacked), iGen);

  /* --compress off on an append: every column of the new generation plain. */
  lc_write("third.csv", LC_ROWS - 300, LC_ROWS);
  if (lc_load("third.csv", azAppendOff, &zErr) != 0) FAIL("append off: %s", zErr);
  free(zErr);
  lc_check(LC_ROWS, aePlain);
  return 0;
}

/* A --compress value starq-load does not know: exit 2, the usage, and the
** table untouched (no generation made). */
TEST_IMPL(load_compress_bad_flag) {
  static const char *const azBad[][3] = {{"--compress", "fast", NULL}, {"--compress", "", NULL},
                                         {"--compress", "AUTO", NULL}};
  cat *pCat;
  lc_create();
  lc_write("first.csv", 0, 10);
  for (size_t i = 0; i < sizeof(azBad) / sizeof(azBad[0]); i++) {
    char *zErr, zWant[64];
    snprintf(zWant, sizeof(zWant), "unknown --compress \"%s\" (expected auto or off)", azBad[i][1]);
    ASSERT_EQ(lc_load("first.csv", azBad[i], &zErr), 2);
    if (strstr(zErr, zWant) == NULL || strstr(zErr, "usage:") == NULL) FAIL("stderr:\n%s", zErr);
    free(zErr);
  }
  pCat = lc_open();
  {
    cat_table *t;
    char zErr[256];
    if (cat_table_get(pCat, "f", &t, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
    ASSERT_EQ(t->iGen, 0);
    cat_table_free(t);
  }
  cat_close(pCat);
  return 0;
}
