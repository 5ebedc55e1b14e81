/*
** tests/test-list.h — every C test of the project, in the order they run.
** Adding a test is one line X(name, seconds) in its folder's section: the
** name is the test's TEST_IMPL name, seconds its time limit.
*/
#ifndef STARQ_TEST_LIST_H
#define STARQ_TEST_LIST_H

/* ssb-data/: the generator */
#define TEST_LIST_GEN(X)                                                     \
  X(gen_calendar, 10)                                                        \
  X(gen_scale, 10)                                                           \
  X(gen_rand, 10)                                                            \
  X(gen_flags_bad, 60)                                                       \
  X(gen_deterministic, 120)                                                  \
  X(gen_interrupted, 120)                                                    \
  X(gen_data_sf001, 120)                                                     \
  X(gen_data_sf01, 300)                                                      \
  X(gen_data_sf1, 900)

/* common/: shared types */
#define TEST_LIST_COMMON(X)                                                  \
  X(coltype_names, 10)

/* storage/: column files, dictionaries, bitmaps, statistics */
#define TEST_LIST_STORE(X)

/* catalog/: the SQLite catalog */
#define TEST_LIST_CAT(X)

/* loader/: values, text formats, loads */
#define TEST_LIST_LOAD(X)

#define TEST_LIST(X)                                                         \
  TEST_LIST_GEN(X) TEST_LIST_COMMON(X) TEST_LIST_STORE(X) TEST_LIST_CAT(X)   \
  TEST_LIST_LOAD(X)

#define TEST_DECLARE(name, seconds) int test_##name(void);
TEST_LIST(TEST_DECLARE)

#endif /* STARQ_TEST_LIST_H */
