/*
** tests/test-catalog-gen.c — generations and statistics in the catalog
** (catalog/gen.c, catalog/files.c, catalog/stats.c): begin, commit and
** abort; the old generation removed after a commit; orphans swept at open,
** including those of a load that crashed (a forked child that exits between
** begin and commit); numbers never reused; statistics stored bit for bit.
*/
#include <math.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../catalog/catalog.h"
#include "test.h"

static const coltype T_INT = {COLTYPE_INTEGER, 0, 0, 0};
static const coltype T_DOUBLE = {COLTYPE_DOUBLE, 0, 0, 0};
static const coltype T_VARCHAR = {COLTYPE_VARCHAR, 10, 0, 0};
static const coltype T_DECIMAL = {COLTYPE_DECIMAL, 0, 10, 2};

static int dir_exists(const char *zPath) {
  struct stat st;
  return stat(zPath, &st) == 0 && S_ISDIR(st.st_mode);
}

static void file_put(const char *zPath, const char *z) {
  FILE *f = fopen(zPath, "w");
  if (f == NULL) FAIL("fopen %s failed", zPath);
  ASSERT(fputs(z, f) >= 0);
  ASSERT_EQ(fclose(f), 0);
}

/* Creates a table zName of one INTEGER column "x". */
static cat_table *table_make(cat *pCat, const char *zName) {
  char zErr[256];
  cat_table *t = cat_table_new(zName);
  ASSERT(t != NULL);
  CALL_OK(cat_table_add_column(t, "x", T_INT, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_create(pCat, t, zErr, sizeof(zErr)));
  return t;
}

/* Commits generation iGen of t with empty statistics counting nRow rows. */
static int gen_commit_plain(cat *pCat, cat_table *t, int64_t iGen, int64_t nRow, char *zErr,
                            size_t nErr) {
  col_stats *aStats = calloc((size_t)t->nCol, sizeof(*aStats));
  int rc;
  ASSERT(aStats != NULL);
  for (int i = 0; i < t->nCol; i++) {
    ASSERT_EQ(stats_init(&aStats[i], t->aCol[i].type), 0);
    aStats[i].nRow = nRow;
  }
  rc = cat_gen_commit(pCat, t, iGen, nRow, aStats, zErr, nErr);
  for (int i = 0; i < t->nCol; i++) stats_free(&aStats[i]);
  free(aStats);
  return rc;
}

/* Asserts what the catalog says about table zName right now. */
static void table_assert_gen(cat *pCat, const char *zName, int64_t iGen, int64_t nRow) {
  char zErr[256], zLoc[64];
  cat_table *t;
  CALL_OK(cat_table_get(pCat, zName, &t, zErr, sizeof(zErr)));
  ASSERT_EQ(t->iGen, iGen);
  ASSERT_EQ(t->nRow, nRow);
  if (iGen == 0) {
    ASSERT(t->zLocation == NULL);
  } else {
    snprintf(zLoc, sizeof(zLoc), "t%lld/g%lld", (long long)t->iId, (long long)iGen);
    ASSERT(t->zLocation != NULL);
    ASSERT_STR_EQ(t->zLocation, zLoc);
  }
  cat_table_free(t);
}

/* ---- statistics ------------------------------------------------------------ */

static void stats_assert_same(const col_stats *a, const col_stats *b) {
  ASSERT_EQ(a->type.eId, b->type.eId);
  ASSERT_EQ(a->nRow, b->nRow);
  ASSERT_EQ(a->nNull, b->nNull);
  ASSERT_EQ(a->bMinMax, b->bMinMax);
  if (a->bMinMax && a->type.eId == COLTYPE_DOUBLE) {
    ASSERT(a->min.r == b->min.r);
    ASSERT(a->max.r == b->max.r);
  } else if (a->bMinMax) {
    ASSERT_EQ(a->min.i, b->min.i);
    ASSERT_EQ(a->max.i, b->max.i);
  }
  ASSERT_EQ(a->nDistinct, b->nDistinct);
  ASSERT_EQ(a->nRun, b->nRun);
  ASSERT_EQ(a->bExact, b->bExact);
  ASSERT((a->aHll == NULL) == (b->aHll == NULL));
  if (a->aHll != NULL) ASSERT(memcmp(a->aHll, b->aHll, STATS_HLL_SIZE) == 0);
  ASSERT_EQ(a->nFreq, b->nFreq);
  for (uint64_t i = 0; i < a->nFreq; i++) {
    if (a->aFreq[i] != b->aFreq[i]) {
      FAIL("aFreq[%llu]: %llu vs %llu", (unsigned long long)i,
           (unsigned long long)a->aFreq[i], (unsigned long long)b->aFreq[i]);
    }
  }
}

TEST_IMPL(cat_stats_roundtrip) {
  static const coltype aType[] = {
      {COLTYPE_INTEGER, 0, 0, 0}, {COLTYPE_DOUBLE, 0, 0, 0}, {COLTYPE_VARCHAR, 10, 0, 0},
      {COLTYPE_DECIMAL, 0, 10, 2}, {COLTYPE_DATE, 0, 0, 0}};
  enum { N_COL = 5 };
  char zErr[512];
  cat *pCat;
  cat_table *t;
  col_stats aStats[N_COL], got;
  int64_t iGen;

  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  t = cat_table_new("facts");
  CALL_OK(cat_table_add_column(t, "i", T_INT, 1, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "d", T_DOUBLE, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "s", T_VARCHAR, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "m", T_DECIMAL, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "e", aType[4], 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_create(pCat, t, zErr, sizeof(zErr)));

  /* No data yet: zero counts, of the column's type. */
  for (int i = 0; i < N_COL; i++) {
    CALL_OK(cat_stats_get(pCat, t->iId, i, &got, zErr, sizeof(zErr)));
    ASSERT_EQ(got.type.eId, aType[i].eId);
    ASSERT_EQ(got.type.nLength, aType[i].nLength);
    ASSERT_EQ(got.type.nPrecision, aType[i].nPrecision);
    ASSERT_EQ(got.nRow, 0);
    ASSERT_EQ(got.bMinMax, 0);
    ASSERT_EQ(got.nFreq, 0);
    stats_free(&got);
  }
  CALL_ERR(cat_stats_get(pCat, t->iId, N_COL, &got, zErr, sizeof(zErr)),
          "table id 1 has no column 5");
  stats_free(&got);

  for (int i = 0; i < N_COL; i++) {
    ASSERT_EQ(stats_init(&aStats[i], aType[i]), 0);
    aStats[i].nRow = 1000;
    if (aStats[i].aHll != NULL) {
      for (uint32_t k = 0; k < STATS_HLL_SIZE; k++) {
        aStats[i].aHll[k] = (uint8_t)((k * 7 + (uint32_t)i) % 51);
      }
    }
  }
  aStats[0].nNull = 0;                        /* INTEGER */
  aStats[0].bMinMax = 1;
  aStats[0].min.i = -7;
  aStats[0].max.i = (int64_t)1 << 40;
  aStats[0].nDistinct = 998;
  aStats[1].nNull = 3;                        /* DOUBLE */
  aStats[1].bMinMax = 1;
  aStats[1].min.r = -INFINITY;
  aStats[1].max.r = 1.5e300;
  aStats[1].nDistinct = 12;
  ASSERT_EQ(stats_freq_resize(&aStats[2], 4), 0);   /* VARCHAR */
  aStats[2].aFreq[0] = 1;
  aStats[2].aFreq[1] = 0;
  aStats[2].aFreq[2] = 0x0102030405060708ull;
  aStats[2].aFreq[3] = 0xfffffffffffffffeull;
  aStats[2].nNull = 5;
  aStats[2].bMinMax = 1;
  aStats[2].min.i = 0;
  aStats[2].max.i = 3;
  aStats[2].nDistinct = 3;
  aStats[2].bExact = 1;
  aStats[3].nNull = 1;                        /* DECIMAL: the scaled integer */
  aStats[3].bMinMax = 1;
  aStats[3].min.i = INT64_MIN;
  aStats[3].max.i = INT64_MAX;
  aStats[3].nDistinct = 2;
  aStats[4].nNull = 1000;                     /* DATE, all NULL: no min/max */
  aStats[4].nRun = 1;
  aStats[0].nRun = 250;                       /* runs: 4 rows each */
  aStats[1].nRun = -1;                        /* unknown: stored as NULL */

  /* Statistics that do not fit the table are refused, changing nothing. */
  CALL_OK(cat_gen_begin(pCat, t, &iGen, zErr, sizeof(zErr)));
  CALL_ERR(cat_gen_commit(pCat, t, iGen, 999, aStats, zErr, sizeof(zErr)),
          "statistics of column \"i\" count 1000 rows, but the generation holds 999");
  aStats[1].type.eId = COLTYPE_BIGINT;
  CALL_ERR(cat_gen_commit(pCat, t, iGen, 1000, aStats, zErr, sizeof(zErr)),
          "statistics of column \"d\" are for type BIGINT, not DOUBLE PRECISION");
  aStats[1].type.eId = COLTYPE_DOUBLE;
  aStats[3].nNull = 1001;
  CALL_ERR(cat_gen_commit(pCat, t, iGen, 1000, aStats, zErr, sizeof(zErr)),
          "statistics of column \"m\" are inconsistent (1001 NULLs, 2 distinct, 1000 rows)");
  aStats[3].nNull = 1;
  table_assert_gen(pCat, "facts", 0, 0);

  CALL_OK(cat_gen_commit(pCat, t, iGen, 1000, aStats, zErr, sizeof(zErr)));
  for (int bReopen = 0; bReopen < 2; bReopen++) {
    if (bReopen) {
      cat_close(pCat);
      CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
    }
    for (int i = 0; i < N_COL; i++) {
      CALL_OK(cat_stats_get(pCat, t->iId, i, &got, zErr, sizeof(zErr)));
      stats_assert_same(&aStats[i], &got);
      stats_free(&got);
    }
  }

  /* A second load replaces every column's statistics. */
  aStats[2].nFreq = 1;
  aStats[2].aFreq[0] = 77;
  aStats[2].nDistinct = 1;
  aStats[0].bMinMax = 0;
  aStats[0].nNull = 1000;
  aStats[0].aHll[0] = 63;
  CALL_OK(cat_gen_begin(pCat, t, &iGen, zErr, sizeof(zErr)));
  CALL_OK(cat_gen_commit(pCat, t, iGen, 1000, aStats, zErr, sizeof(zErr)));
  for (int i = 0; i < N_COL; i++) {
    CALL_OK(cat_stats_get(pCat, t->iId, i, &got, zErr, sizeof(zErr)));
    stats_assert_same(&aStats[i], &got);
    stats_free(&got);
  }

  /* Statistics a version-2 catalog stored have no runs: unknown (-1). */
  cat_close(pCat);
  test_sql_exec("data/catalog.db", "UPDATE column_stats SET run_count = NULL");
  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  CALL_OK(cat_stats_get(pCat, t->iId, 0, &got, zErr, sizeof(zErr)));
  ASSERT_EQ(got.nRun, -1);
  stats_free(&got);

  for (int i = 0; i < N_COL; i++) stats_free(&aStats[i]);
  cat_table_free(t);
  cat_close(pCat);
  return 0;
}

/* ---- generations ----------------------------------------------------------- */

TEST_IMPL(cat_gen_commit) {
  char zErr[512], zPath[256];
  cat *pCat;
  cat_table *t, *pStale;
  int64_t iGen;

  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  t = table_make(pCat, "t");
  ASSERT_EQ(t->iId, 1);

  /* The first generation: a directory, files in it, then the switch. */
  CALL_OK(cat_gen_begin(pCat, t, &iGen, zErr, sizeof(zErr)));
  ASSERT_EQ(iGen, 1);
  ASSERT(dir_exists("data/t1/g1"));
  ASSERT(cat_file_path(pCat, t, iGen, 0, STORE_VALUES, zPath, sizeof(zPath)) == zPath);
  ASSERT_STR_EQ(zPath, "data/t1/g1/c0.col");
  file_put(zPath, "one");
  table_assert_gen(pCat, "t", 0, 0);
  ASSERT_EQ(t->iGen, 0);
  CALL_OK(gen_commit_plain(pCat, t, iGen, 3, zErr, sizeof(zErr)));
  ASSERT_EQ(t->iGen, 1);
  ASSERT_EQ(t->nRow, 3);
  ASSERT_STR_EQ(t->zLocation, "t1/g1");
  table_assert_gen(pCat, "t", 1, 3);
  ASSERT(test_file_exists("data/t1/g1/c0.col"));

  /* The second: the first is removed once the second is current. */
  CALL_OK(cat_gen_begin(pCat, t, &iGen, zErr, sizeof(zErr)));
  ASSERT_EQ(iGen, 2);
  ASSERT(dir_exists("data/t1/g1"));
  CALL_OK(gen_commit_plain(pCat, t, iGen, 5, zErr, sizeof(zErr)));
  ASSERT(!dir_exists("data/t1/g1"));
  ASSERT(dir_exists("data/t1/g2"));
  table_assert_gen(pCat, "t", 2, 5);

  /* An aborted one leaves the current one alone. */
  CALL_OK(cat_gen_begin(pCat, t, &iGen, zErr, sizeof(zErr)));
  ASSERT_EQ(iGen, 3);
  file_put("data/t1/g3/c0.col", "three");
  cat_gen_abort(pCat, t, iGen);
  ASSERT(!dir_exists("data/t1/g3"));
  ASSERT(dir_exists("data/t1/g2"));
  table_assert_gen(pCat, "t", 2, 5);
  CALL_ERR(gen_commit_plain(pCat, t, 3, 1, zErr, sizeof(zErr)),
          "generation 3 of table \"t\" was not begun by this catalog handle");

  /* Aborting what this handle did not begin removes nothing. */
  cat_gen_abort(pCat, t, 2);
  ASSERT(dir_exists("data/t1/g2"));

  /* A load that read the table before another load committed is refused:
  ** committing would drop the other load's rows. */
  CALL_OK(cat_table_get(pCat, "t", &pStale, zErr, sizeof(zErr)));
  CALL_OK(cat_gen_begin(pCat, t, &iGen, zErr, sizeof(zErr)));
  CALL_OK(gen_commit_plain(pCat, t, iGen, 7, zErr, sizeof(zErr)));
  ASSERT_EQ(iGen, 4);
  CALL_OK(cat_gen_begin(pCat, pStale, &iGen, zErr, sizeof(zErr)));
  ASSERT_EQ(iGen, 5);
  CALL_ERR(gen_commit_plain(pCat, pStale, iGen, 9, zErr, sizeof(zErr)),
          "table \"t\" was loaded by someone else since it was read (generation 4, not 2); "
          "read it again and repeat the load");
  ASSERT_EQ(pStale->iGen, 2);
  ASSERT(dir_exists("data/t1/g5"));           /* still the caller's, to abort */
  table_assert_gen(pCat, "t", 4, 7);
  cat_gen_abort(pCat, pStale, iGen);
  ASSERT(!dir_exists("data/t1/g5"));
  ASSERT(dir_exists("data/t1/g4"));
  cat_table_free(pStale);

  /* Paths of every kind; a buffer too small gets NULL. */
  ASSERT(cat_file_path(pCat, t, 4, 12, STORE_VALIDITY, zPath, sizeof(zPath)) != NULL);
  ASSERT_STR_EQ(zPath, "data/t1/g4/c12.null");
  ASSERT(cat_file_path(pCat, t, 4, 0, STORE_DICT, zPath, sizeof(zPath)) != NULL);
  ASSERT_STR_EQ(zPath, "data/t1/g4/c0.dict");
  ASSERT(cat_file_path(pCat, t, 4, 0, STORE_DICT, zPath, 18) == NULL);
  ASSERT(cat_file_path(pCat, t, 4, 0, STORE_DICT, zPath, 19) != NULL);

  /* Closing with a generation still begun removes it. */
  CALL_OK(cat_gen_begin(pCat, t, &iGen, zErr, sizeof(zErr)));
  ASSERT(dir_exists("data/t1/g6"));
  cat_close(pCat);
  ASSERT(!dir_exists("data/t1/g6"));
  ASSERT(dir_exists("data/t1/g4"));
  cat_table_free(t);
  return 0;
}

TEST_IMPL(cat_gen_numbers) {
  char zErr[512];
  cat *pCat;
  cat_table *a, *b;
  int64_t iGen;

  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  a = table_make(pCat, "a");
  b = table_make(pCat, "b");
  CALL_OK(cat_gen_begin(pCat, a, &iGen, zErr, sizeof(zErr)));
  ASSERT_EQ(iGen, 1);
  cat_gen_abort(pCat, a, iGen);
  CALL_OK(cat_gen_begin(pCat, a, &iGen, zErr, sizeof(zErr)));
  ASSERT_EQ(iGen, 2);
  CALL_OK(gen_commit_plain(pCat, a, iGen, 1, zErr, sizeof(zErr)));
  CALL_OK(cat_gen_begin(pCat, a, &iGen, zErr, sizeof(zErr)));
  ASSERT_EQ(iGen, 3);
  cat_gen_abort(pCat, a, iGen);
  /* Each table counts on its own. */
  CALL_OK(cat_gen_begin(pCat, b, &iGen, zErr, sizeof(zErr)));
  ASSERT_EQ(iGen, 1);
  cat_gen_abort(pCat, b, iGen);
  cat_close(pCat);

  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  CALL_OK(cat_gen_begin(pCat, a, &iGen, zErr, sizeof(zErr)));
  ASSERT_EQ(iGen, 4);
  cat_gen_abort(pCat, a, iGen);
  CALL_OK(cat_gen_begin(pCat, b, &iGen, zErr, sizeof(zErr)));
  ASSERT_EQ(iGen, 2);
  cat_gen_abort(pCat, b, iGen);
  table_assert_gen(pCat, "a", 2, 1);
  cat_close(pCat);
  cat_table_free(a);
  cat_table_free(b);
  return 0;
}

TEST_IMPL(cat_gen_orphans) {
  char zErr[512];
  cat *pCat, *pOther;
  cat_table *a, *b, *c;
  int64_t iGen, iPending;

  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  a = table_make(pCat, "a");                  /* t1 */
  b = table_make(pCat, "b");                  /* t2 */
  c = table_make(pCat, "c");                  /* t3, dropped below */
  CALL_OK(cat_gen_begin(pCat, a, &iGen, zErr, sizeof(zErr)));
  file_put("data/t1/g1/c0.col", "current");
  CALL_OK(gen_commit_plain(pCat, a, iGen, 1, zErr, sizeof(zErr)));
  CALL_OK(cat_table_drop(pCat, "c", zErr, sizeof(zErr)));
  cat_close(pCat);

  /* What crashes and failed removals leave, and things that are not ours. */
  ASSERT_EQ(mkdir("data/t1/g7", 0777), 0);
  file_put("data/t1/g7/c0.col", "orphan");
  ASSERT_EQ(mkdir("data/t1/g0", 0777), 0);    /* not a generation name */
  file_put("data/t1/notes.txt", "mine");
  ASSERT_EQ(mkdir("data/t2", 0777), 0);
  ASSERT_EQ(mkdir("data/t2/g3", 0777), 0);
  ASSERT_EQ(mkdir("data/t3", 0777), 0);       /* a dropped table's */
  ASSERT_EQ(mkdir("data/t3/g1", 0777), 0);
  file_put("data/t3/g1/c0.col", "dropped");
  ASSERT_EQ(mkdir("data/t99", 0777), 0);      /* a table that never was */
  ASSERT_EQ(mkdir("data/t99/g2", 0777), 0);
  ASSERT_EQ(mkdir("data/t01", 0777), 0);      /* not a table name */
  ASSERT_EQ(mkdir("data/t01/g1", 0777), 0);
  ASSERT_EQ(mkdir("data/other", 0777), 0);
  ASSERT_EQ(mkdir("data/other/g1", 0777), 0);
  ASSERT_EQ(symlink("../other", "data/t1/g8"), 0);

  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  ASSERT(dir_exists("data/t1/g1"));
  ASSERT(test_file_exists("data/t1/g1/c0.col"));
  ASSERT(!dir_exists("data/t1/g7"));
  ASSERT(dir_exists("data/t1/g0"));
  ASSERT(test_file_exists("data/t1/notes.txt"));
  ASSERT(!dir_exists("data/t2/g3"));
  ASSERT(dir_exists("data/t2"));              /* its table exists */
  ASSERT(!dir_exists("data/t3"));
  ASSERT(!dir_exists("data/t99"));
  ASSERT(dir_exists("data/t01/g1"));
  ASSERT(dir_exists("data/other/g1"));        /* the link went, not its target */
  ASSERT(!test_file_exists("data/t1/g8"));
  table_assert_gen(pCat, "a", 1, 1);

  /* A generation another handle is writing survives that handle's sweep. */
  CALL_OK(cat_gen_begin(pCat, b, &iPending, zErr, sizeof(zErr)));
  ASSERT_EQ(iPending, 1);
  file_put("data/t2/g1/c0.col", "being written");
  CALL_OK(cat_open(&pOther, "data", zErr, sizeof(zErr)));
  ASSERT(test_file_exists("data/t2/g1/c0.col"));
  cat_close(pOther);
  CALL_OK(gen_commit_plain(pCat, b, iPending, 2, zErr, sizeof(zErr)));
  CALL_OK(cat_open(&pOther, "data", zErr, sizeof(zErr)));
  ASSERT(test_file_exists("data/t2/g1/c0.col"));   /* now current */
  table_assert_gen(pOther, "b", 1, 2);
  cat_close(pOther);

  cat_close(pCat);
  cat_table_free(a);
  cat_table_free(b);
  cat_table_free(c);
  return 0;
}

/* The child of cat_gen_crash: begins a generation of table "t", writes a
** file into it and exits at once, as a load killed before its commit. */
static void crash_child(void) {
  char zErr[512], zPath[256];
  cat *pCat;
  cat_table *t;
  int64_t iGen;
  FILE *f;
  if (cat_open(&pCat, "data", zErr, sizeof(zErr)) != 0) _exit(2);
  if (cat_table_get(pCat, "t", &t, zErr, sizeof(zErr)) != 0) _exit(3);
  if (cat_gen_begin(pCat, t, &iGen, zErr, sizeof(zErr)) != 0 || iGen != 2) _exit(4);
  if (cat_file_path(pCat, t, iGen, 0, STORE_VALUES, zPath, sizeof(zPath)) == NULL) _exit(5);
  if ((f = fopen(zPath, "w")) == NULL || fputs("half a load", f) < 0 || fclose(f) != 0) {
    _exit(6);
  }
  _exit(0);
}

TEST_IMPL(cat_gen_crash) {
  char zErr[512];
  cat *pCat;
  cat_table *t;
  int64_t iGen;
  int status;
  pid_t pid;
  size_t n;
  char *z;

  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  t = table_make(pCat, "t");
  CALL_OK(cat_gen_begin(pCat, t, &iGen, zErr, sizeof(zErr)));
  file_put("data/t1/g1/c0.col", "committed");
  CALL_OK(gen_commit_plain(pCat, t, iGen, 9, zErr, sizeof(zErr)));
  cat_close(pCat);

  fflush(stdout);
  fflush(stderr);
  pid = fork();
  ASSERT(pid >= 0);
  if (pid == 0) crash_child();
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  /* The crash left its generation behind. */
  ASSERT(test_file_exists("data/t1/g2/c0.col"));

  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  ASSERT(!dir_exists("data/t1/g2"));
  table_assert_gen(pCat, "t", 1, 9);
  z = test_file_read("data/t1/g1/c0.col", &n);
  ASSERT_STR_EQ(z, "committed");
  free(z);
  /* The crashed load spent number 2 for good. */
  CALL_OK(cat_gen_begin(pCat, t, &iGen, zErr, sizeof(zErr)));
  ASSERT_EQ(iGen, 3);
  cat_gen_abort(pCat, t, iGen);
  cat_close(pCat);
  cat_table_free(t);
  return 0;
}
