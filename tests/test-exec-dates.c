/*
** tests/test-exec-dates.c — packed DATE columns through the kernels,
** against SQLite: a fact table whose dates the loader stores as day slots
** (storage/colfor.c, STORE_ENC_FOR_DATE) and in blocks of runs, decoded
** in the SCAN by sq_load_for_date (codegen/device.cuh).
**
** ev.d1 is nullable and holds the type's edge dates (0001-01-01,
** 9999-12-31), 1900's (not a leap year) and leap days among SSB's years,
** so its blocks span NULL's 0 to year 9999; ev.d2 is NOT NULL and holds
** an order's date on its 1 to 7 lines, as lo_orderdate does (blocks of
** runs). Every query goes through exectest_check: filters on dates (so
** decoded values are compared with literals), grouping and ordering by
** them, MIN/MAX, a join. The files are checked to be what is meant.
*/
#include <stdio.h>
#include <string.h>

#include "../storage/store.h"
#include "test-exec.h"
#include "test-plan.h"
#include "test.h"

#define ED_ROWS 3001

/* Row r of ev as CSV: id, k (a key of kd), d1 (NULL every 11th), d2, amt. */
static void ed_row(strbuf *s, int r) {
  static const char *const azEdge[] = {"0001-01-01", "9999-12-31", "1900-02-28", "1900-03-01",
                                       "2000-02-29", "1996-02-29", "1992-01-01", "1998-12-31"};
  int o = r / 4;                                 /* an "order" of about four lines */
  strbuf_printf(s, "%d,%d,", r, r % 9 + 1);
  if (r % 11 == 3) {
    /* NULL */
  } else if (r % 5 == 0) {
    strbuf_puts(s, azEdge[r / 5 % 8]);
  } else {
    strbuf_printf(s, "%04d-%02d-%02d", 1992 + r % 7, 1 + r * 7 % 12, 1 + r * 13 % 28);
  }
  strbuf_printf(s, ",%04d-%02d-%02d,%d\n", 1992 + o % 7, 1 + o * 5 % 12, 1 + o * 3 % 28,
                r * 37 % 1000 - 400);
}

/* The encoding of column iCol of ev's values file, from its header. */
static store_enc ed_encoding(cat *pCat, int iCol) {
  cat_table *t;
  char zErr[512], zPath[4096];
  store_enc e;
  uint64_t nPayload;
  if (cat_table_get(pCat, "ev", &t, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  cat_file_path(pCat, t, t->iGen, iCol, STORE_VALUES, zPath, sizeof(zPath));
  CALL_OK(store_file_info(zPath, &e, &nPayload, zErr, sizeof(zErr)));
  cat_table_free(t);
  return e;
}

TEST_IMPL(exec_for_dates) {
  static const char *const azQuery[] = {
    "SELECT count(*), min(d1), max(d1), min(d2), max(d2), count(d1) FROM ev",
    "SELECT d1, count(*), sum(amt) FROM ev GROUP BY d1 ORDER BY d1 NULLS FIRST",
    "SELECT id, d1, d2 FROM ev WHERE d1 = DATE '2000-02-29' OR d1 = DATE '1996-02-29' ORDER BY id",
    "SELECT id, d1 FROM ev WHERE d1 > DATE '9999-12-30' OR d1 < DATE '0002-01-01' ORDER BY id",
    "SELECT count(*) FROM ev WHERE d1 BETWEEN DATE '1900-02-28' AND DATE '1900-03-01'",
    "SELECT id FROM ev WHERE d1 IS NULL ORDER BY id",
    "SELECT d2, count(*) FROM ev WHERE d2 >= DATE '1995-03-01' AND d2 < DATE '1996-03-01'"
    " GROUP BY d2 ORDER BY d2",
    "SELECT grp, sum(amt), min(d2), max(d1) FROM ev, kd WHERE ev.k = kd.k AND d2 > d1"
    " GROUP BY grp ORDER BY grp",
    "SELECT id, d2 FROM ev WHERE d2 = DATE '1998-06-04' ORDER BY id",
  };
  exectest t;
  cat *pCat;
  char zErr[512];
  strbuf s;
  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("cat_open: %s", zErr);
  plantest_sql_table(pCat, "CREATE TABLE kd (k INTEGER PRIMARY KEY, grp VARCHAR(4))");
  plantest_sql_table(pCat, "CREATE TABLE ev (id INTEGER NOT NULL, k INTEGER REFERENCES kd,"
                           " d1 DATE, d2 DATE NOT NULL, amt INTEGER)");
  plantest_load(pCat, "kd", "1,a\n2,b\n3,c\n4,a\n5,b\n6,c\n7,a\n8,b\n9,c\n");
  strbuf_init(&s);
  for (int r = 0; r < ED_ROWS; r++) ed_row(&s, r);
  ASSERT(!strbuf_error(&s));
  plantest_load(pCat, "ev", strbuf_str(&s));
  strbuf_free(&s);
  /* What the test is for: both date columns as day slots. */
  ASSERT_EQ(ed_encoding(pCat, 2), STORE_ENC_FOR_DATE);
  ASSERT_EQ(ed_encoding(pCat, 3), STORE_ENC_FOR_DATE);
  cat_close(pCat);

  exectest_open(&t, NULL);
  for (size_t i = 0; i < sizeof(azQuery) / sizeof(azQuery[0]); i++) {
    exectest_check(&t, azQuery[i], strstr(azQuery[i], "ORDER BY") != NULL);
  }
  exectest_close(&t);
  return 0;
}
