/*
** tests/test-exec-semijoin.c — semi-join bits (planner/plan.h, plan_lookup)
** against SQLite, where the bits and the row lookup would disagree if
** either were wrong, on the CPU backend and on the mock GPU.
**
** A filtered dimension with an array or date lookup is probed by its bits;
** the row index of a row that passed every condition comes from key - min
** (dense keys, each row in its own slot) or from the slots. The tables:
**   dd    keys 1..40 in row order: dense, row index = key - min
**   dm    keys 1..40 shuffled: dense by the statistics, but out of place,
**         which only its BUILD sees: the SCAN must read the slots
**   dg    keys 1..41 with 17 missing: not dense (a slot more than rows)
**   dc    the days of 2021: a date map; where it supplies no payload its
**         bits cover its raw yyyymmdd keys (fact dates of 2020 and 2022
**         fall outside them)
**   dw    the days of February 2021: an array over DATE keys, with bits
**   ds    sparse keys: a hash lookup, no bits
** The fact table's foreign keys are NULL, outside every range (below,
** above, far above) or missing from the dimension on their own periods;
** the filters pass some rows, none and every one.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-exec.h"
#include "test-plan.h"
#include "test.h"

#define SJ_FACT_ROWS 300
#define SJ_DIM_ROWS 40

static const char *const sj_azCreate[] = {
  "CREATE TABLE dd (k INTEGER PRIMARY KEY, grp VARCHAR(4), v INTEGER)",
  "CREATE TABLE dm (k INTEGER PRIMARY KEY, grp VARCHAR(4), v INTEGER)",
  "CREATE TABLE dg (k INTEGER PRIMARY KEY, grp VARCHAR(4), v INTEGER)",
  "CREATE TABLE dc (day DATE PRIMARY KEY, q INTEGER)",
  "CREATE TABLE dw (wd DATE PRIMARY KEY, w INTEGER)",
  "CREATE TABLE ds (k INTEGER PRIMARY KEY, v INTEGER)",
  "CREATE TABLE f (id INTEGER NOT NULL, a INTEGER REFERENCES dd, b INTEGER REFERENCES dm,"
  " c INTEGER REFERENCES dg, dt DATE REFERENCES dc, s INTEGER REFERENCES ds, x INTEGER,"
  " wk DATE REFERENCES dw)",
};

/* One dimension row of key k: its group cycles through four codes. */
static void sj_dim_row(strbuf *s, int k) {
  static const char *const azGrp[] = {"a", "b", "c", "d"};
  strbuf_printf(s, "%d,%s,%d\n", k, azGrp[k % 4], k * 3 - 50);
}

/* A foreign key for fact row r: NULL, out of range or in it. */
static void sj_fk(strbuf *s, int r, int m) {
  static const int aOut[] = {0, -3, SJ_DIM_ROWS + 1, SJ_DIM_ROWS + 5, 1000000};
  int i = (r * 7 + m) % 23;
  if (i == 0) return;                                   /* NULL */
  if (i < 6) strbuf_printf(s, "%d", aOut[i - 1]);
  else strbuf_printf(s, "%d", 1 + (r * 13 + m * 5) % SJ_DIM_ROWS);
}

static void sj_open(void) {
  cat *pCat;
  char zErr[512];
  strbuf s;
  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("cat_open: %s", zErr);
  for (size_t i = 0; i < sizeof(sj_azCreate) / sizeof(sj_azCreate[0]); i++) {
    plantest_sql_table(pCat, sj_azCreate[i]);
  }
  strbuf_init(&s);
  for (int k = 1; k <= SJ_DIM_ROWS; k++) sj_dim_row(&s, k);
  plantest_load(pCat, "dd", strbuf_str(&s));
  strbuf_reset(&s);
  for (int i = 0; i < SJ_DIM_ROWS; i++) sj_dim_row(&s, 1 + (i * 17) % SJ_DIM_ROWS);  /* 17 is prime to 40 */
  plantest_load(pCat, "dm", strbuf_str(&s));
  strbuf_reset(&s);
  for (int k = 1; k <= SJ_DIM_ROWS + 1; k++) {
    if (k != 17) sj_dim_row(&s, k);
  }
  plantest_load(pCat, "dg", strbuf_str(&s));
  strbuf_reset(&s);
  for (int m = 1; m <= 12; m++) {
    for (int d = 1; d <= 28; d++) {
      if (d % 9 != 4) strbuf_printf(&s, "2021-%02d-%02d,%d\n", m, d, (m + d) % 3);
    }
  }
  plantest_load(pCat, "dc", strbuf_str(&s));
  strbuf_reset(&s);
  for (int d = 1; d <= 28; d++) {
    if (d % 9 != 4) strbuf_printf(&s, "2021-02-%02d,%d\n", d, d % 4);
  }
  plantest_load(pCat, "dw", strbuf_str(&s));
  plantest_load(pCat, "ds", "5,1\n500,2\n50000,3\n");
  strbuf_reset(&s);
  for (int r = 0; r < SJ_FACT_ROWS; r++) {
    strbuf_printf(&s, "%d,", r);
    sj_fk(&s, r, 0);
    strbuf_puts(&s, ",");
    sj_fk(&s, r, 1);
    strbuf_puts(&s, ",");
    sj_fk(&s, r, 2);
    strbuf_puts(&s, ",");
    if (r % 11 != 3) strbuf_printf(&s, "%d-%02d-%02d", r % 13 == 5 ? 2022 : r % 13 == 8 ? 2020 : 2021, 1 + r % 12, 1 + r % 28);
    strbuf_printf(&s, ",%d,%d,", r % 5 == 0 ? 5 : r % 5 == 1 ? 500 : 7, r % 17);
    if (r % 10 != 7) strbuf_printf(&s, "2021-%02d-%02d\n", 1 + r % 3, 1 + (r * 3) % 28);
    else strbuf_puts(&s, "\n");
  }
  ASSERT(!strbuf_error(&s));
  plantest_load(pCat, "f", strbuf_str(&s));
  strbuf_free(&s);
  cat_close(pCat);
}

static const char *const sj_azQuery[] = {
  /* payload through key - min, the slots, and the slots of a shuffled table */
  "SELECT dd.v, count(*), sum(x) FROM f JOIN dd ON a = dd.k WHERE dd.grp = 'b' GROUP BY dd.v",
  "SELECT dm.v, count(*), sum(x) FROM f JOIN dm ON b = dm.k WHERE dm.grp IN ('a', 'c') GROUP BY dm.v",
  "SELECT dg.v, count(*), sum(x) FROM f JOIN dg ON c = dg.k WHERE dg.grp <> 'd' GROUP BY dg.v",
  "SELECT id, dd.v, dm.v, dg.v FROM f, dd, dm, dg WHERE a = dd.k AND b = dm.k AND c = dg.k"
  " AND dd.v > 0 AND dm.grp <> 'a' AND dg.v < 60 ORDER BY id",
  /* filter only: the bits alone */
  "SELECT count(*), sum(x) FROM f, dd, dm WHERE a = dd.k AND b = dm.k AND dd.grp = 'c'"
  " AND dm.v >= 10",
  /* filters that pass nothing and everything */
  "SELECT count(*), sum(x) FROM f JOIN dd ON a = dd.k WHERE dd.grp = 'z'",
  "SELECT dd.grp, count(*) FROM f JOIN dd ON a = dd.k WHERE dd.v > -1000 GROUP BY dd.grp",
  "SELECT dm.grp, count(*), min(id) FROM f JOIN dm ON b = dm.k WHERE dm.v > -1000 GROUP BY dm.grp",
  "SELECT id FROM f JOIN dg ON c = dg.k WHERE dg.v > 1000 OR dg.v < -1000 ORDER BY id",
  /* a filtered date map: its bits alone, then beside other bits */
  "SELECT count(*), sum(x) FROM f JOIN dc ON dt = day WHERE q = 2",
  "SELECT count(*), min(id), max(id) FROM f JOIN dc ON dt = day WHERE q >= 0",
  "SELECT q, dd.v, count(*) FROM f, dc, dd WHERE dt = day AND a = dd.k AND q > 0 AND dd.grp <> 'a'"
  " GROUP BY q, dd.v",
  "SELECT count(*) FROM f, dc, dm WHERE dt = day AND b = dm.k AND q = 1 AND dm.grp = 'b'",
  /* an array over DATE keys with bits, outside keys in January and March */
  "SELECT w, count(*), sum(x) FROM f JOIN dw ON wk = wd WHERE w > 0 GROUP BY w",
  "SELECT id, w, q FROM f, dw, dc WHERE wk = wd AND dt = day AND w <> 2 AND q <> 1 ORDER BY id",
  /* a residual over two dimensions' payload, and a hash lookup beside the bits */
  "SELECT id, dd.v, dm.v FROM f, dd, dm WHERE a = dd.k AND b = dm.k AND dd.grp <> 'a'"
  " AND dm.grp <> 'b' AND dd.v < dm.v ORDER BY id",
  "SELECT ds.v, dd.grp, count(*) FROM f, dd, ds WHERE a = dd.k AND s = ds.k AND dd.grp < 'c'"
  " AND ds.v > 1 GROUP BY ds.v, dd.grp",
};

/* The plans: which lookups have bits and which read key - min. */
static void sj_check_plans(exectest *t) {
  static const struct {
    const char *zSql;
    const char *zWant;
    const char *zNot;
  } a[] = {
    {"SELECT dd.v FROM f JOIN dd ON a = dd.k WHERE dd.grp = 'b'", "row index = key - min", NULL},
    {"SELECT dm.v FROM f JOIN dm ON b = dm.k WHERE dm.grp = 'b'", "row index = key - min", NULL},
    {"SELECT dg.v FROM f JOIN dg ON c = dg.k WHERE dg.grp = 'b'", "slots read for the payload",
     "row index = key - min"},
    {"SELECT count(*) FROM f JOIN dd ON a = dd.k WHERE dd.grp = 'b'", "slots never read", NULL},
    {"SELECT q FROM f JOIN dc ON dt = day WHERE q > 0", "date offset map", "probe: bitset"},
    {"SELECT count(*) FROM f JOIN dc ON dt = day WHERE q > 0",
     "bits over the keys 20210101..20211228", NULL},
    {"SELECT w FROM f JOIN dw ON wk = wd WHERE w > 0", "slots read for the payload", NULL},
    {"SELECT dd.v FROM f JOIN dd ON a = dd.k", NULL, "probe: bitset"},
    {"SELECT ds.v FROM f JOIN ds ON s = ds.k WHERE ds.v > 1", NULL, "probe: bitset"},
  };
  for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
    char *zPlan = exectest_explain_text(t->pEngine, t->pOpt, a[i].zSql, 1);
    if (a[i].zWant != NULL && strstr(zPlan, a[i].zWant) == NULL) FAIL("%s: %s", a[i].zSql, zPlan);
    if (a[i].zNot != NULL && strstr(zPlan, a[i].zNot) != NULL) FAIL("%s: %s", a[i].zSql, zPlan);
    free(zPlan);
  }
}

static void sj_check(exectest *t) {
  sj_check_plans(t);
  for (size_t i = 0; i < sizeof(sj_azQuery) / sizeof(sj_azQuery[0]); i++) {
    exectest_check(t, sj_azQuery[i], strstr(sj_azQuery[i], "ORDER BY") != NULL);
  }
}

TEST_IMPL(exec_semijoin) {
  exectest t;
  sj_open();
  exectest_open(&t, NULL);
  sj_check(&t);
  exectest_close(&t);
  return 0;
}

TEST_IMPL(exec_semijoin_mock) {
  exectest t;
  sj_open();
  exectest_open_mock(&t, NULL);
  sj_check(&t);
  exectest_close(&t);
  return 0;
}
