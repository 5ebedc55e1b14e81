/*
** tests/test-load-types.c — loads of every column type through starq-load:
** values and NULLs read back from the column files, dictionaries that keep
** string order across appends, statistics against a count made here, and
** every kind of bad input refused with its message while the table stays
** as it was.
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <unistd.h>

#include "../catalog/catalog.h"
#include "../storage/stats.h"
#include "../storage/store.h"
#include "test.h"

#define LT_NCOL 9

static const char *const lt_azCol[LT_NCOL] = {
  "c_small", "c_int", "c_big", "c_dbl", "c_dec", "c_date", "c_char", "c_vchar", "c_text",
};
static const char *const lt_azType[LT_NCOL] = {
  "SMALLINT", "INTEGER", "BIGINT", "DOUBLE PRECISION", "DECIMAL(10,2)", "DATE", "CHAR(5)",
  "VARCHAR(8)", "TEXT",
};

static const char lt_zHeader[] = "c_small,c_int,c_big,c_dbl,c_dec,c_date,c_char,c_vchar,c_text\n";

/* Row 2: an unquoted empty field is NULL, a quoted one an empty string.
** Row 3: NULL everywhere but the key, and a newline inside quotes. */
static const char lt_zFirst[] =
  "-32768,1,9223372036854775807,1.5,12.34,1997-12-31,abc,\"x,y\",hello\n"
  "32767,2,-9223372036854775808,-0.25,-0.05,00010101,,\"\",\n"
  ",3,,,,,,,\"line1\nline2\"\n"
  "5,4,0,-1e300,99999999.99,9999-12-31,zzzzz,\xc3\xa9,\"quote\"\"d\"\n";

/* New strings that sort between old ones, so old codes must move. */
static const char lt_zSecond[] =
  "7,5,42,2.5,0.5,2000-02-29,b,m,hello\n"
  "8,6,43,,1,1992-01-01,abd,aa,a\n";

/* Only strings the table has already. */
static const char lt_zThird[] = "9,7,44,3.5,2,1992-01-02,abc,m,hello\n";

static void lt_write(const char *zPath, const char *zHeader, const char *zBody) {
  FILE *f = fopen(zPath, "w");
  ASSERT(f != NULL);
  if (zHeader) fputs(zHeader, f);
  fputs(zBody, f);
  ASSERT_EQ(fclose(f), 0);
}

static void lt_create(void) {
  cat *pCat;
  cat_table *t = cat_table_new("t_all");
  const char *zKey = "c_int";
  char zErr[512];
  ASSERT(t != NULL);
  for (int i = 0; i < LT_NCOL; i++) {
    coltype type;
    ASSERT_EQ(coltype_parse(lt_azType[i], &type, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(cat_table_add_column(t, lt_azCol[i], type, 0, zErr, sizeof(zErr)), 0);
  }
  ASSERT_EQ(cat_table_set_pkey(t, 1, &zKey, zErr, sizeof(zErr)), 0);
  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  if (cat_table_create(pCat, t, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  cat_table_free(t);
  cat_close(pCat);
}

/* Runs starq-load on t_all; returns its exit code, stderr in *pzErr. */
static int lt_load(const char *zFile, int bAppend, char **pzErr) {
  const char *azArgv[] = {"starq-load", "--data-dir", "data", "--header", "t_all", zFile,
                          "--quiet", bAppend ? "--append" : NULL, NULL};
  test_proc p;
  int rc = test_run(&p, azArgv);
  if (pzErr) {
    *pzErr = p.zErr;
    p.zErr = NULL;
  }
  test_proc_free(&p);
  return rc;
}

/* The stored table, decoded: each value as text ("NULL" for NULL). */
typedef struct lt_table lt_table;
struct lt_table {
  int64_t nRow, iGen;
  char *azVal[16][LT_NCOL];      /* owned */
  uint32_t aCode[16][LT_NCOL];   /* strings: the stored code */
};

static void lt_read(lt_table *r) {
  cat *pCat;
  cat_table *t;
  char zErr[512], zPath[4096];
  memset(r, 0, sizeof(*r));
  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  if (cat_table_get(pCat, "t_all", &t, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  r->nRow = t->nRow;
  r->iGen = t->iGen;
  ASSERT_LE(r->nRow, 16);
  for (int i = 0; i < LT_NCOL && r->nRow > 0; i++) {
    store_map m, v;
    store_dict d;
    int bString = coltype_is_string(t->aCol[i].type);
    cat_file_path(pCat, t, t->iGen, i, STORE_VALUES, zPath, sizeof(zPath));
    if (store_map_open(&m, zPath, STORE_VALUES, t->aCol[i].type.eId, zErr, sizeof(zErr)) != 0) {
      FAIL("%s", zErr);
    }
    /* Nullable columns carry a validity bitmap; NOT NULL ones (the key)
    ** must not. */
    cat_file_path(pCat, t, t->iGen, i, STORE_VALIDITY, zPath, sizeof(zPath));
    if (t->aCol[i].bNotNull) {
      ASSERT(!test_file_exists(zPath));
    } else {
      if (store_map_open(&v, zPath, STORE_VALIDITY, 0, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
      ASSERT_EQ(v.nRow, r->nRow);
    }
    if (bString) {
      cat_file_path(pCat, t, t->iGen, i, STORE_DICT, zPath, sizeof(zPath));
      if (store_dict_open(&d, zPath, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
    }
    for (int64_t j = 0; j < r->nRow; j++) {
      char z[128];
      const void *a = m.aData;
      int bValid = t->aCol[i].bNotNull || ((((const uint64_t *)v.aData)[j / 64] >> (j % 64)) & 1);
      if (!bValid) {
        snprintf(z, sizeof(z), "NULL");
      } else if (bString) {
        size_t n;
        const char *zs;
        r->aCode[j][i] = ((const uint32_t *)a)[j];
        zs = store_dict_str(&d, r->aCode[j][i], &n);
        snprintf(z, sizeof(z), "%.*s", (int)n, zs);
      } else {
        switch (t->aCol[i].type.eId) {
          case COLTYPE_SMALLINT: snprintf(z, sizeof(z), "%d", ((const int16_t *)a)[j]); break;
          case COLTYPE_INTEGER:
          case COLTYPE_DATE: snprintf(z, sizeof(z), "%d", ((const int32_t *)a)[j]); break;
          case COLTYPE_DOUBLE: snprintf(z, sizeof(z), "%g", ((const double *)a)[j]); break;
          default: snprintf(z, sizeof(z), "%lld", (long long)((const int64_t *)a)[j]); break;
        }
      }
      r->azVal[j][i] = strdup(z);
    }
    if (bString) store_dict_close(&d);
    if (!t->aCol[i].bNotNull) store_map_close(&v);
    store_map_close(&m);
  }
  cat_table_free(t);
  cat_close(pCat);
}

static void lt_free(lt_table *r) {
  for (int j = 0; j < 16; j++) {
    for (int i = 0; i < LT_NCOL; i++) free(r->azVal[j][i]);
  }
}

/* The expected decoded rows after each step. */
static const char *const lt_aaFirst[4][LT_NCOL] = {
  {"-32768", "1", "9223372036854775807", "1.5", "1234", "19971231", "abc", "x,y", "hello"},
  {"32767", "2", "-9223372036854775808", "-0.25", "-5", "10101", "NULL", "", "NULL"},
  {"NULL", "3", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "line1\nline2"},
  {"5", "4", "0", "-1e+300", "9999999999", "99991231", "zzzzz", "\xc3\xa9", "quote\"d"},
};
static const char *const lt_aaSecond[2][LT_NCOL] = {
  {"7", "5", "42", "2.5", "50", "20000229", "b", "m", "hello"},
  {"8", "6", "43", "NULL", "100", "19920101", "abd", "aa", "a"},
};

static void lt_expect_rows(const lt_table *r, int64_t iFirst, const char *const (*aa)[LT_NCOL],
                           int n) {
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < LT_NCOL; i++) {
      if (strcmp(r->azVal[iFirst + j][i], aa[j][i]) != 0) {
        FAIL("row %lld column %s: stored \"%s\", expected \"%s\"", (long long)(iFirst + j),
             lt_azCol[i], r->azVal[iFirst + j][i], aa[j][i]);
      }
    }
  }
}

/* Codes must order as their strings do (memcmp order), for every pair of
** non-NULL values of every string column. */
static void lt_expect_code_order(const lt_table *r) {
  for (int i = 6; i < LT_NCOL; i++) {
    for (int64_t a = 0; a < r->nRow; a++) {
      for (int64_t b = 0; b < r->nRow; b++) {
        int cs, cc;
        if (!strcmp(r->azVal[a][i], "NULL") || !strcmp(r->azVal[b][i], "NULL")) continue;
        cs = strcmp(r->azVal[a][i], r->azVal[b][i]);
        cc = (r->aCode[a][i] > r->aCode[b][i]) - (r->aCode[a][i] < r->aCode[b][i]);
        if ((cs > 0) - (cs < 0) != cc) {
          FAIL("%s: \"%s\" has code %u and \"%s\" code %u", lt_azCol[i], r->azVal[a][i],
               r->aCode[a][i], r->azVal[b][i], r->aCode[b][i]);
        }
      }
    }
  }
}

/* Checks the stored statistics against the decoded table; bFirst: the
** rows of lt_zFirst are in it, so their extremes are the min and max.
** nLoad loads built it: a load that appends cannot see the previous
** load's last row, so a run across their boundary may count twice (runs
** are a planner's estimate: storage/stats.h). */
static void lt_expect_stats(const lt_table *r, int bFirst, int nLoad) {
  cat *pCat;
  cat_table *t;
  char zErr[512];
  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(cat_table_get(pCat, "t_all", &t, zErr, sizeof(zErr)), 0);
  for (int i = 0; i < LT_NCOL; i++) {
    col_stats s;
    int64_t nNull = 0, nDistinct = 0;
    ASSERT_EQ(cat_stats_get(pCat, t->iId, i, &s, zErr, sizeof(zErr)), 0);
    for (int64_t a = 0; a < r->nRow; a++) {
      int bNew = 1;
      if (!strcmp(r->azVal[a][i], "NULL")) {
        nNull++;
        continue;
      }
      for (int64_t b = 0; b < a; b++) bNew &= strcmp(r->azVal[a][i], r->azVal[b][i]) != 0;
      nDistinct += bNew;
    }
    ASSERT_EQ(s.nRow, r->nRow);
    {
      /* Runs of equal adjacent rows, NULL a value of its own (the text is
      ** decoded from the stored values, so equal text is equal bits). */
      int64_t nRun = 0;
      for (int64_t a = 0; a < r->nRow; a++) nRun += a == 0 || strcmp(r->azVal[a][i], r->azVal[a - 1][i]) != 0;
      if (s.nRun < nRun || s.nRun > nRun + nLoad - 1) {
        FAIL("%s: %lld runs, statistics say %lld (%d loads)", lt_azCol[i], (long long)nRun,
             (long long)s.nRun, nLoad);
      }
    }
    if (s.nNull != nNull) FAIL("%s: %lld NULLs, statistics say %lld", lt_azCol[i], (long long)nNull, (long long)s.nNull);
    if (s.nDistinct != nDistinct) {
      FAIL("%s: %lld distinct, statistics say %lld", lt_azCol[i], (long long)nDistinct,
           (long long)s.nDistinct);
    }
    if (coltype_is_string(t->aCol[i].type)) {
      ASSERT(s.bExact);
      for (uint64_t c = 0; c < s.nFreq; c++) {
        uint64_t n = 0;
        for (int64_t a = 0; a < r->nRow; a++) {
          n += strcmp(r->azVal[a][i], "NULL") != 0 && r->aCode[a][i] == c;
        }
        ASSERT_EQ(s.aFreq[c], n);
      }
    }
    stats_free(&s);
  }
  /* Spot checks of min and max in stored form. */
  if (bFirst) {
    col_stats s;
    ASSERT_EQ(cat_stats_get(pCat, t->iId, 0, &s, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(s.min.i, -32768);
    ASSERT_EQ(s.max.i, 32767);
    stats_free(&s);
    ASSERT_EQ(cat_stats_get(pCat, t->iId, 5, &s, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(s.min.i, 10101);
    ASSERT_EQ(s.max.i, 99991231);
    stats_free(&s);
    ASSERT_EQ(cat_stats_get(pCat, t->iId, 3, &s, zErr, sizeof(zErr)), 0);
    ASSERT(s.min.r == -1e300);
    stats_free(&s);
  }
  cat_table_free(t);
  cat_close(pCat);
}

TEST_IMPL(load_types_append) {
  lt_table r;
  char *zErr;
  lt_create();

  lt_write("first.csv", lt_zHeader, lt_zFirst);
  if (lt_load("first.csv", 0, &zErr) != 0) FAIL("load: %s", zErr);
  free(zErr);
  lt_read(&r);
  ASSERT_EQ(r.nRow, 4);
  lt_expect_rows(&r, 0, lt_aaFirst, 4);
  lt_expect_code_order(&r);
  lt_expect_stats(&r, 1, 1);
  lt_free(&r);

  /* Append strings that sort between old ones: old rows read the same,
  ** through new codes. */
  lt_write("second.csv", lt_zHeader, lt_zSecond);
  if (lt_load("second.csv", 1, &zErr) != 0) FAIL("append: %s", zErr);
  free(zErr);
  lt_read(&r);
  ASSERT_EQ(r.nRow, 6);
  lt_expect_rows(&r, 0, lt_aaFirst, 4);
  lt_expect_rows(&r, 4, lt_aaSecond, 2);
  lt_expect_code_order(&r);
  lt_expect_stats(&r, 1, 2);
  lt_free(&r);

  /* Append only known strings. */
  lt_write("third.csv", lt_zHeader, lt_zThird);
  if (lt_load("third.csv", 1, &zErr) != 0) FAIL("append: %s", zErr);
  free(zErr);
  lt_read(&r);
  ASSERT_EQ(r.nRow, 7);
  lt_expect_rows(&r, 0, lt_aaFirst, 4);
  lt_expect_rows(&r, 4, lt_aaSecond, 2);
  ASSERT_STR_EQ(r.azVal[6][7], "m");
  lt_expect_code_order(&r);
  lt_expect_stats(&r, 1, 3);
  lt_free(&r);

  /* Without --append the file replaces the rows. */
  if (lt_load("second.csv", 0, &zErr) != 0) FAIL("replace: %s", zErr);
  free(zErr);
  lt_read(&r);
  ASSERT_EQ(r.nRow, 2);
  lt_expect_rows(&r, 0, lt_aaSecond, 2);
  lt_expect_stats(&r, 0, 1);
  lt_free(&r);
  return 0;
}

/* One bad input: the file's body and phrases its error must contain. */
typedef struct lt_bad lt_bad;
struct lt_bad {
  const char *zBody;
  const char *azWant[3];
};

TEST_IMPL(load_bad_input) {
  static const lt_bad aCase[] = {
    {"1,1,1,1,1,1992-01-01,a,b,c\n2,abc,1,1,1,1992-01-01,a,b,c\n",
     {"bad.csv:3: column c_int: found \"abc\", expected", NULL}},
    {"1,1,1,1,1,1992-01-01,a,b,c\n1,2,3\n", {"bad.csv:3: ", "9 fields", NULL}},
    {"1,1,1,1,1,1992-01-01,abcdef,b,c\n",
     {"bad.csv:2: column c_char: found \"abcdef\", expected", "5 characters", NULL}},
    {"1,1,1,1,1,1997-02-29,a,b,c\n", {"bad.csv:2: column c_date: found \"1997-02-29\"", NULL}},
    {"1,,1,1,1,1992-01-01,a,b,c\n", {"bad.csv:2: column c_int:", NULL}},
    {"1,1,1,1,123456789.00,1992-01-01,a,b,c\n", {"bad.csv:2: column c_dec: found \"123456789.00\"", NULL}},
    {"40000,1,1,1,1,1992-01-01,a,b,c\n", {"bad.csv:2: column c_small: found \"40000\"", NULL}},
    {"1,1,1,1,1,1992-01-01,a,b,\xff\xfe\n", {"bad.csv:2: column c_text:", NULL}},
    {"1,1,1,1,1,1992-01-01,a,b,\"never closed\n", {"bad.csv:2: found \"\\\"never closed", "expected a closing \" before the end", NULL}},
    {"1,1,1,x1,1,1992-01-01,a,b,c\n", {"bad.csv:2: column c_dbl: found \"x1\"", NULL}},
  };
  lt_table before, after;
  char *zErr;

  lt_create();
  lt_write("good.csv", lt_zHeader, lt_zFirst);
  if (lt_load("good.csv", 0, &zErr) != 0) FAIL("load: %s", zErr);
  free(zErr);
  lt_read(&before);

  for (size_t k = 0; k < sizeof(aCase) / sizeof(aCase[0]); k++) {
    for (int bAppend = 0; bAppend <= 1; bAppend++) {
      lt_write("bad.csv", lt_zHeader, aCase[k].zBody);
      if (lt_load("bad.csv", bAppend, &zErr) != 1) FAIL("case %zu loaded: %s", k, zErr);
      for (int w = 0; aCase[k].azWant[w] != NULL; w++) {
        if (strstr(zErr, aCase[k].azWant[w]) == NULL) {
          FAIL("case %zu: wanted \"%s\" in:\n%s", k, aCase[k].azWant[w], zErr);
        }
      }
      free(zErr);
      lt_read(&after);
      ASSERT_EQ(after.nRow, before.nRow);
      ASSERT_EQ(after.iGen, before.iGen);
      lt_expect_rows(&after, 0, lt_aaFirst, 4);
      lt_free(&after);
    }
  }

  /* Errors outside the file's text. */
  ASSERT_EQ(lt_load("missing.csv", 0, &zErr), 1);
  ASSERT(strstr(zErr, "open missing.csv: No such file or directory") != NULL);
  free(zErr);
  {
    const char *azArgv[] = {"starq-load", "--data-dir", "data", "nosuch", "good.csv", NULL};
    test_proc p;
    ASSERT_EQ(test_run(&p, azArgv), 1);
    ASSERT(strstr(p.zErr, "nosuch") != NULL);
    test_proc_free(&p);
  }
  {
    const char *azArgv[] = {"starq-load", "t_all", "good.csv", NULL};
    test_proc p;
    ASSERT_EQ(test_run(&p, azArgv), 2);
    ASSERT(strstr(p.zErr, "--data-dir is required") != NULL);
    ASSERT(strstr(p.zErr, "usage:") != NULL);
    test_proc_free(&p);
  }
  {
    const char *azArgv[] = {"starq-load", "--data-dir", "data", "--delimiter", "ab", "t_all",
                            "good.csv", NULL};
    test_proc p;
    ASSERT_EQ(test_run(&p, azArgv), 2);
    ASSERT(strstr(p.zErr, "--delimiter must be one character") != NULL);
    test_proc_free(&p);
  }
  for (int k = 0; k < 4; k++) {
    static const char *const azBad[] = {"0", "257", "+2", "2x"};
    const char *azArgv[] = {"starq-load", "--data-dir", "data", "--threads", azBad[k], "t_all",
                            "good.csv", NULL};
    test_proc p;
    ASSERT_EQ(test_run(&p, azArgv), 2);
    ASSERT(strstr(p.zErr, "--threads must be a whole number from 1 to 256") != NULL);
    test_proc_free(&p);
  }
  lt_read(&after);
  ASSERT_EQ(after.iGen, before.iGen);
  lt_free(&after);
  lt_free(&before);
  return 0;
}
