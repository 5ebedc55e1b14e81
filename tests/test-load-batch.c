/*
** tests/test-load-batch.c — the batch that holds a load's rows
** (loader/batch.c): its growth, NULL bitmaps and string codes.
*/
#include "../loader/batch.h"
#include "test.h"

/* Returns 1 if row i of column c is present by its bitmap. */
static int lb_present(const load_col *c, int64_t i) {
  return c->aValid == NULL || ((c->aValid[i >> 6] >> (i & 63)) & 1);
}

TEST_IMPL(load_batch_rows) {
  cat_column aCol[3];
  cat_table t;
  load_batch b;
  uint32_t *aCode;
  void *pKept;
  const char *z;
  size_t n;

  memset(&t, 0, sizeof(t));
  memset(aCol, 0, sizeof(aCol));
  aCol[0].zName = "k";
  aCol[0].type = (coltype){COLTYPE_BIGINT, 0, 0, 0};
  aCol[1].zName = "s";
  aCol[1].type = (coltype){COLTYPE_VARCHAR, 5, 0, 0};
  aCol[2].zName = "d";
  aCol[2].type = (coltype){COLTYPE_DATE, 0, 0, 0};
  t.nCol = 3;
  t.aCol = aCol;

  ASSERT_EQ(load_batch_init(&b, &t, 0), 0);
  ASSERT_EQ(b.nCol, 3);
  ASSERT_EQ(b.nRow, 0);
  ASSERT_EQ(b.aCol[0].nWidth, 8);
  ASSERT_EQ(b.aCol[1].nWidth, 4);
  ASSERT_EQ(b.aCol[2].nWidth, 4);
  ASSERT_EQ(load_batch_reserve(&b, 10), 0);
  ASSERT_GE(b.nRowAlloc, 10);
  for (int64_t i = 0; i < 100; i++) {
    ASSERT_EQ(load_batch_reserve(&b, i + 1), 0);
    ASSERT_GE(b.nRowAlloc, i + 1);
    *(int64_t *)load_batch_slot(&b, 0, i) = i * 1000;
    *(int32_t *)load_batch_slot(&b, 2, i) = 19920101 + (int32_t)i;
    ASSERT_EQ(load_batch_set_str(&b, 1, i, i % 3 == 0 ? "abc" : (i % 3 == 1 ? "" : "x|y"),
                                 i % 3 == 0 ? 3 : (i % 3 == 1 ? 0 : 3)), 0);
    b.nRow = i + 1;
  }
  ASSERT(b.aCol[0].aValid == NULL);
  /* First NULL at row 70 (second bitmap word): earlier rows present. */
  *(int32_t *)load_batch_slot(&b, 2, 70) = 12345;
  ASSERT_EQ(load_batch_set_null(&b, 2, 70), 0);
  ASSERT(b.aCol[2].aValid != NULL);
  ASSERT(b.aCol[0].aValid == NULL);
  ASSERT_EQ(*(int32_t *)load_batch_slot(&b, 2, 70), 0);
  for (int64_t i = 0; i < 100; i++) ASSERT_EQ(lb_present(&b.aCol[2], i), i != 70);
  ASSERT_EQ(load_batch_set_null(&b, 2, 3), 0);
  ASSERT(!lb_present(&b.aCol[2], 3));
  /* Growing keeps values and bits, and new rows start present. */
  ASSERT_EQ(load_batch_reserve(&b, 5000), 0);
  ASSERT_GE(b.nRowAlloc, 5000);
  for (int64_t i = 0; i < 100; i++) {
    ASSERT_EQ(*(int64_t *)load_batch_slot(&b, 0, i), i * 1000);
    ASSERT_EQ(lb_present(&b.aCol[2], i), i != 70 && i != 3);
  }
  for (int64_t i = 100; i < 5000; i++) ASSERT(lb_present(&b.aCol[2], i));
  /* A NULL past the room grows the batch. */
  ASSERT_EQ(load_batch_set_null(&b, 0, b.nRowAlloc + 10), 0);
  ASSERT_GE(b.nRowAlloc, 5011);
  ASSERT(!lb_present(&b.aCol[0], 5010));
  ASSERT(lb_present(&b.aCol[0], 5009));
  ASSERT(lb_present(&b.aCol[0], 0));
  ASSERT(lb_present(&b.aCol[2], b.nRowAlloc - 1));

  /* Codes in first-seen order; equal strings share one. */
  aCode = b.aCol[1].aValue;
  ASSERT_EQ(aCode[0], 0);
  ASSERT_EQ(aCode[1], 1);
  ASSERT_EQ(aCode[2], 2);
  ASSERT_EQ(aCode[3], 0);
  ASSERT_EQ(aCode[98], 2);
  ASSERT_EQ(b.aCol[1].strs.n, 3);
  z = store_strset_str(&b.aCol[1].strs, aCode[2], &n);
  ASSERT_EQ(n, 3);
  ASSERT(memcmp(z, "x|y", 3) == 0);
  store_strset_str(&b.aCol[1].strs, aCode[1], &n);
  ASSERT_EQ(n, 0);

  /* Reset: empty, no NULLs, no strings, memory kept. */
  pKept = b.aCol[0].aValue;
  n = (size_t)b.nRowAlloc;
  load_batch_reset(&b);
  ASSERT_EQ(b.nRow, 0);
  ASSERT_EQ(b.nRowAlloc, (int64_t)n);
  ASSERT(b.aCol[0].aValue == pKept);
  ASSERT(b.aCol[0].aValid == NULL);
  ASSERT(b.aCol[2].aValid == NULL);
  ASSERT_EQ(b.aCol[1].strs.n, 0);
  ASSERT_EQ(load_batch_set_str(&b, 1, 0, "new", 3), 0);
  ASSERT_EQ(((uint32_t *)b.aCol[1].aValue)[0], 0);
  load_batch_free(&b);
  ASSERT(b.aCol == NULL);

  /* Room asked for up front; an unknown type is refused. */
  ASSERT_EQ(load_batch_init(&b, &t, 1000), 0);
  ASSERT_GE(b.nRowAlloc, 1000);
  load_batch_free(&b);
  aCol[2].type.eId = 42;
  ASSERT_EQ(load_batch_init(&b, &t, 10), -1);
  return 0;
}
