/*
** tests/test-exec-files.c — a data directory whose files went missing
** under the catalog: planning a predicate on a string column whose
** dictionary is gone, and running a query whose column file is gone, are
** clear 58030 errors naming the column, not crashes; queries that do not
** need the missing files still run.
*/
#include <string.h>
#include <unistd.h>

#include "test-exec.h"
#include "test.h"

/* Removes file kind eKind of column zCol of table zTable. */
static void filestest_remove(cat *pCat, const char *zTable, const char *zCol, store_kind eKind) {
  cat_table *t;
  char zErr[512], zPath[4096];
  CALL_OK(cat_table_get(pCat, zTable, &t, zErr, sizeof(zErr)));
  ASSERT(cat_file_path(pCat, t, t->iGen, cat_table_column(t, zCol), eKind, zPath, sizeof(zPath)) != NULL);
  ASSERT_EQ(unlink(zPath), 0);
  cat_table_free(t);
}

TEST_IMPL(exec_missing_files) {
  exectest t;
  refdb_result *pGot;
  sql_error e;
  exectest_open(&t, "0.01");      /* SQLite holds its copy before the files go */
  filestest_remove(t.pCat, "supplier", "s_region", STORE_DICT);
  filestest_remove(t.pCat, "lineorder", "lo_revenue", STORE_VALUES);

  ASSERT_EQ(exectest_run(&t, "SELECT count(*) FROM supplier WHERE s_region = 'ASIA'", &pGot, &e), -1);
  ASSERT_STR_EQ(e.zState, "58030");
  ASSERT(strstr(e.zMsg, "\"supplier\".\"s_region\"") != NULL);

  ASSERT_EQ(exectest_run(&t, "SELECT sum(lo_revenue) FROM lineorder", &pGot, &e), -1);
  ASSERT_STR_EQ(e.zState, "58030");
  ASSERT(strstr(e.zMsg, "\"lineorder\".\"lo_revenue\"") != NULL);

  /* What the missing files do not touch still answers as SQLite does. */
  exectest_check(&t, "SELECT s_nation, count(*) FROM supplier GROUP BY s_nation", 0);
  exectest_check(&t, "SELECT sum(lo_quantity) FROM lineorder WHERE lo_discount < 3", 0);
  exectest_close(&t);
  return 0;
}
