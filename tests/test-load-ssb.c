/*
** tests/test-load-ssb.c — SSB data through the column store, end to end:
** every stored value equals its .tbl text, direct generation into the
** store equals generating text and loading it, the statistics equal a
** brute-force count, and a load killed midway leaves the previous data.
**
** The reference is the .tbl text itself, split here by the test and never
** by the loader's parser: stored values are decoded back to text (strings
** through their dictionaries) and compared field by field.
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../catalog/catalog.h"
#include "../storage/stats.h"
#include "../storage/store.h"
#include "test.h"

static const char *const lssb_azTable[] = {"date", "supplier", "customer", "part", "lineorder"};
#define LSSB_TABLES 5

/* One column of a stored table, mapped. */
typedef struct lssb_col lssb_col;
struct lssb_col {
  store_map m;
  store_dict d;
  int bString;
};

/* Writes stored value iRow of column c as .tbl text into z. */
static void lssb_value_text(const lssb_col *c, uint64_t iRow, char *z, size_t n) {
  if (c->bString) {
    size_t nStr;
    const uint32_t *aCode = c->m.aData;
    const char *zStr;
    ASSERT(aCode[iRow] < c->d.n);
    zStr = store_dict_str(&c->d, aCode[iRow], &nStr);
    snprintf(z, n, "%.*s", (int)nStr, zStr);
    return;
  }
  switch (c->m.nWidth) {
    case 2: snprintf(z, n, "%d", ((const int16_t *)c->m.aData)[iRow]); break;
    case 4: snprintf(z, n, "%d", ((const int32_t *)c->m.aData)[iRow]); break;
    default: snprintf(z, n, "%lld", (long long)((const int64_t *)c->m.aData)[iRow]); break;
  }
}

static void lssb_col_open(cat *pCat, const cat_table *t, int i, lssb_col *c) {
  char zPath[4096], zErr[512];
  memset(c, 0, sizeof(*c));
  c->bString = coltype_is_string(t->aCol[i].type);
  ASSERT(cat_file_path(pCat, t, t->iGen, i, STORE_VALUES, zPath, sizeof(zPath)) != NULL);
  if (store_map_open(&c->m, zPath, STORE_VALUES, t->aCol[i].type.eId, zErr, sizeof(zErr)) != 0) {
    FAIL("%s", zErr);
  }
  ASSERT_EQ(c->m.nRow, t->nRow);
  ASSERT_EQ((uintptr_t)c->m.aData % 64, 0);
  /* lineorder's integer columns are FOR-bitpacked: read their plain values. */
  if (store_map_decode(&c->m, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  if (c->bString) {
    cat_file_path(pCat, t, t->iGen, i, STORE_DICT, zPath, sizeof(zPath));
    if (store_dict_open(&c->d, zPath, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  }
}

static void lssb_col_close(lssb_col *c) {
  if (c->bString) store_dict_close(&c->d);
  store_map_close(&c->m);
}

/* Per-column brute-force statistics gathered from the text. */
typedef struct lssb_truth lssb_truth;
struct lssb_truth {
  int64_t iMin, iMax;
  int64_t *aVal;           /* every value, to count distinct ones */
};

static int lssb_cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Checks stored table zTable against zDir/zTable.tbl value by value, and
** its statistics against counts made here. */
static void lssb_table_check(cat *pCat, const char *zDir, const char *zTable) {
  char zPath[4096], zErr[512], zVal[256];
  cat_table *t;
  lssb_col *aCol;
  lssb_truth *aTruth;
  size_t nText;
  char *zText, *p;
  int64_t iRow = 0;

  snprintf(zPath, sizeof(zPath), "%s/%s.tbl", zDir, zTable);
  zText = test_file_read(zPath, &nText);
  if (cat_table_get(pCat, zTable, &t, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  aCol = calloc((size_t)t->nCol, sizeof(*aCol));
  aTruth = calloc((size_t)t->nCol, sizeof(*aTruth));
  ASSERT(aCol != NULL && aTruth != NULL);
  for (int i = 0; i < t->nCol; i++) {
    lssb_col_open(pCat, t, i, &aCol[i]);
    aTruth[i].aVal = malloc(sizeof(int64_t) * (size_t)(t->nRow + 1));
    aTruth[i].iMin = INT64_MAX;
    aTruth[i].iMax = INT64_MIN;
  }

  for (p = zText; p < zText + nText; iRow++) {
    ASSERT_LT(iRow, t->nRow);
    for (int i = 0; i < t->nCol; i++) {
      char *zBar = strchr(p, '|');
      ASSERT(zBar != NULL);
      lssb_value_text(&aCol[i], (uint64_t)iRow, zVal, sizeof(zVal));
      if ((size_t)(zBar - p) != strlen(zVal) || memcmp(p, zVal, strlen(zVal)) != 0) {
        FAIL("%s row %lld column %s: stored \"%s\", the file has \"%.*s\"", zTable,
             (long long)iRow, t->aCol[i].zName, zVal, (int)(zBar - p), p);
      }
      {
        int64_t v = aCol[i].bString ? ((const uint32_t *)aCol[i].m.aData)[iRow] : strtoll(p, NULL, 10);
        aTruth[i].aVal[iRow] = v;
        if (v < aTruth[i].iMin) aTruth[i].iMin = v;
        if (v > aTruth[i].iMax) aTruth[i].iMax = v;
      }
      p = zBar + 1;
    }
    ASSERT_EQ(*p, '\n');
    p++;
  }
  ASSERT_EQ(iRow, t->nRow);

  for (int i = 0; i < t->nCol; i++) {
    col_stats s;
    int64_t nDistinct = 0;
    if (cat_stats_get(pCat, t->iId, i, &s, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
    qsort(aTruth[i].aVal, (size_t)t->nRow, sizeof(int64_t), lssb_cmp_i64);
    for (int64_t r = 0; r < t->nRow; r++) {
      nDistinct += r == 0 || aTruth[i].aVal[r] != aTruth[i].aVal[r - 1];
    }
    ASSERT_EQ(s.nRow, t->nRow);
    ASSERT_EQ(s.nNull, 0);
    ASSERT(s.bMinMax);
    ASSERT_EQ(s.min.i, aTruth[i].iMin);
    ASSERT_EQ(s.max.i, aTruth[i].iMax);
    if (aCol[i].bString) {
      /* Exact: the dictionary holds exactly the strings that occur, and
      ** the frequencies are per code. */
      ASSERT(s.bExact);
      ASSERT_EQ(s.nDistinct, nDistinct);
      ASSERT_EQ(s.nDistinct, (int64_t)aCol[i].d.n);
      ASSERT_EQ(s.nFreq, aCol[i].d.n);
      for (int64_t r = 0, iRun = 0; r < t->nRow; r = iRun) {
        uint64_t code = (uint64_t)aTruth[i].aVal[r];
        for (iRun = r; iRun < t->nRow && aTruth[i].aVal[iRun] == aTruth[i].aVal[r]; iRun++) {}
        if (s.aFreq[code] != (uint64_t)(iRun - r)) {
          FAIL("%s.%s: code %llu occurs %lld times, statistics say %llu", zTable,
               t->aCol[i].zName, (unsigned long long)code, (long long)(iRun - r),
               (unsigned long long)s.aFreq[code]);
        }
      }
    } else {
      /* HyperLogLog with 2^14 registers: 0.8% standard error; allow 4%. */
      double rErr = (double)(s.nDistinct - nDistinct) / (double)nDistinct;
      if (rErr > 0.04 || rErr < -0.04) {
        FAIL("%s.%s: %lld distinct values, statistics estimate %lld", zTable,
             t->aCol[i].zName, (long long)nDistinct, (long long)s.nDistinct);
      }
    }
    stats_free(&s);
  }

  for (int i = 0; i < t->nCol; i++) {
    lssb_col_close(&aCol[i]);
    free(aTruth[i].aVal);
  }
  free(aCol);
  free(aTruth);
  cat_table_free(t);
  free(zText);
}

static void lssb_gen_tbl(const char *zSf, const char *zOut) {
  const char *azGen[] = {"starq-gen", "--sf", zSf, "--out", zOut, "--quiet", NULL};
  test_run_ok(azGen);
}

static void lssb_load_ssb(const char *zData, const char *zTbl) {
  const char *azLoad[] = {"starq-load", "--data-dir", zData, "--ssb", zTbl, "--quiet", NULL};
  test_run_ok(azLoad);
}

static void lssb_check_all(const char *zData, const char *zTbl) {
  cat *pCat;
  char zErr[512];
  if (cat_open(&pCat, zData, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  for (int i = 0; i < LSSB_TABLES; i++) lssb_table_check(pCat, zTbl, lssb_azTable[i]);
  cat_close(pCat);
}

TEST_IMPL(load_ssb_sf001) {
  lssb_gen_tbl("0.01", "tbl");
  lssb_load_ssb("data", "tbl");
  lssb_check_all("data", "tbl");
  return 0;
}

TEST_IMPL(load_ssb_sf1) {
  lssb_gen_tbl("1", "tbl");
  lssb_load_ssb("data", "tbl");
  lssb_check_all("data", "tbl");
  return 0;
}

/* Returns the bytes of a whole file (header included) for comparison. */
static char *lssb_slurp(const char *zPath, size_t *pn) {
  return test_file_read(zPath, pn);
}

/* Direct generation must store exactly what generating text and loading
** it stores: the same files, byte for byte, and the same statistics. */
TEST_IMPL(load_store_equals_tbl) {
  const char *azStore[] = {"starq-gen", "--sf", "0.02", "--out", "direct", "--format", "store",
                           "--quiet", "--threads", "3", NULL};
  cat *pA, *pB;
  char zErr[512];

  lssb_gen_tbl("0.02", "tbl");
  lssb_load_ssb("loaded", "tbl");
  test_run_ok(azStore);
  if (cat_open(&pA, "loaded", zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  if (cat_open(&pB, "direct", zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  for (int i = 0; i < LSSB_TABLES; i++) {
    cat_table *a, *b;
    ASSERT_EQ(cat_table_get(pA, lssb_azTable[i], &a, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(cat_table_get(pB, lssb_azTable[i], &b, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(a->nRow, b->nRow);
    for (int j = 0; j < a->nCol; j++) {
      for (int k = STORE_VALUES; k <= STORE_DICT; k++) {
        char zPa[4096], zPb[4096];
        size_t na, nb;
        char *za, *zb;
        if (k == STORE_VALIDITY) continue;
        if (k == STORE_DICT && !coltype_is_string(a->aCol[j].type)) continue;
        cat_file_path(pA, a, a->iGen, j, (store_kind)k, zPa, sizeof(zPa));
        cat_file_path(pB, b, b->iGen, j, (store_kind)k, zPb, sizeof(zPb));
        za = lssb_slurp(zPa, &na);
        zb = lssb_slurp(zPb, &nb);
        if (na != nb || memcmp(za, zb, na) != 0) FAIL("%s and %s differ", zPa, zPb);
        free(za);
        free(zb);
      }
      {
        col_stats sa, sb;
        ASSERT_EQ(cat_stats_get(pA, a->iId, j, &sa, zErr, sizeof(zErr)), 0);
        ASSERT_EQ(cat_stats_get(pB, b->iId, j, &sb, zErr, sizeof(zErr)), 0);
        ASSERT_EQ(sa.nDistinct, sb.nDistinct);
        ASSERT_EQ(sa.min.i, sb.min.i);
        ASSERT_EQ(sa.max.i, sb.max.i);
        stats_free(&sa);
        stats_free(&sb);
      }
    }
    cat_table_free(a);
    cat_table_free(b);
  }
  cat_close(pA);
  cat_close(pB);
  return 0;
}

/* Returns the number of generation directories under zData/t<iId>. */
static int lssb_gen_dirs(const char *zData, int64_t iId) {
  char zDir[4096];
  DIR *d;
  struct dirent *e;
  int n = 0;
  snprintf(zDir, sizeof(zDir), "%s/t%lld", zData, (long long)iId);
  if ((d = opendir(zDir)) == NULL) return 0;
  while ((e = readdir(d)) != NULL) n += e->d_name[0] == 'g';
  closedir(d);
  return n;
}

/* Waits until the generation of table iId other than iCurGen has a file
** zFile of at least nMin bytes. Returns 1 when it has, 0 if the load
** process pid ended first (or 60 s passed). */
static int lssb_wait_progress(const char *zData, int64_t iId, int64_t iCurGen,
                              const char *zFile, off_t nMin, int pid) {
  char zDir[4096];
  snprintf(zDir, sizeof(zDir), "%s/t%lld", zData, (long long)iId);
  for (int i = 0; i < 600000; i++) {
    DIR *d = opendir(zDir);
    struct dirent *e;
    int bFound = 0;
    if (d != NULL) {
      while (!bFound && (e = readdir(d)) != NULL) {
        char zPath[8192];
        struct stat st;
        if (e->d_name[0] != 'g' || atoll(e->d_name + 1) == iCurGen) continue;
        snprintf(zPath, sizeof(zPath), "%s/%s/%s", zDir, e->d_name, zFile);
        bFound = stat(zPath, &st) == 0 && st.st_size >= nMin;
      }
      closedir(d);
    }
    if (bFound) return 1;
    if (kill(pid, 0) != 0) return 0;
    usleep(100);
  }
  return 0;
}

/* kill -9 a load of SF 1 lineorder over SF 0.01 data at several moments,
** found by watching the new generation's files: as soon as it exists,
** while the values stream in, and once the dictionaries are being written
** (the commit phase). Every time, the table must still be the SF 0.01 data
** with its statistics, and the next open must remove the dead load. */
TEST_IMPL(load_kill_midway) {
  const char *azLoad[] = {"starq-load", "--data-dir", "data", "lineorder", "big/lineorder.tbl",
                          "--threads", "1", "--quiet", NULL};
  static const struct {
    const char *zFile;     /* in the new generation */
    off_t nMin;            /* kill once it has this many bytes */
  } aPoint[] = {
    {"c0.col", 0},                  /* the generation exists */
    {"c0.col", 4 << 20},            /* lo_orderkey is 48 MB at SF 1 */
    {"c0.col", 24 << 20},
    {"c0.col", 44 << 20},
    {"c6.dict", 0},                 /* dictionaries: the commit is near */
  };
  cat *pCat;
  cat_table *t;
  char zErr[512];
  int64_t iId, nRow, iGen;

  lssb_gen_tbl("0.01", "small");
  lssb_gen_tbl("1", "big");
  lssb_load_ssb("data", "small");
  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(cat_table_get(pCat, "lineorder", &t, zErr, sizeof(zErr)), 0);
  iId = t->iId;
  nRow = t->nRow;
  iGen = t->iGen;
  cat_table_free(t);
  cat_close(pCat);

  for (size_t k = 0; k < sizeof(aPoint) / sizeof(aPoint[0]); k++) {
    int pid = test_spawn(azLoad);
    if (!lssb_wait_progress("data", iId, iGen, aPoint[k].zFile, aPoint[k].nMin, pid)) {
      FAIL("point %zu: the load ended (exit %d) before %s reached %lld bytes", k,
           test_wait(pid), aPoint[k].zFile, (long long)aPoint[k].nMin);
    }
    kill(pid, SIGKILL);
    ASSERT_EQ(test_wait(pid), 128 + SIGKILL);

    if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("after kill %zu: %s", k, zErr);
    ASSERT_EQ(lssb_gen_dirs("data", iId), 1);    /* the dead load's files are gone */
    ASSERT_EQ(cat_table_get(pCat, "lineorder", &t, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(t->nRow, nRow);
    ASSERT_EQ(t->iGen, iGen);
    cat_table_free(t);
    lssb_table_check(pCat, "small", "lineorder");
    cat_close(pCat);
  }
  return 0;
}

/* The loader takes the reference generator's output as it is: a sample of
** dbgen lines (tests/data/dbgen) loads, and every value reads back equal
** to its text. */
TEST_IMPL(load_dbgen_sample) {
  char zDir[4096];
  snprintf(zDir, sizeof(zDir), "%s", test_src("tests/data/dbgen"));
  lssb_load_ssb("data", zDir);
  lssb_check_all("data", zDir);
  return 0;
}
