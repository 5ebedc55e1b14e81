/*
** tests/test-list.h — every C test of the project, in the order they run.
** Adding a test means one TEST_DECLARE and one TEST_ENTRY here.
*/
#ifndef STARQ_TEST_LIST_H
#define STARQ_TEST_LIST_H

#define TEST_DECLARE(name) int test_##name(void);

/* ssb-data/: the generator */
TEST_DECLARE(gen_calendar)
TEST_DECLARE(gen_scale)
TEST_DECLARE(gen_rand)
TEST_DECLARE(gen_flags_bad)
TEST_DECLARE(gen_deterministic)
TEST_DECLARE(gen_interrupted)
TEST_DECLARE(gen_data_sf001)
TEST_DECLARE(gen_data_sf01)
TEST_DECLARE(gen_data_sf1)

/* One entry per test: name and time limit in seconds. */
#define TEST_LIST(X)                                                         \
  X(gen_calendar, 10)                                                        \
  X(gen_scale, 10)                                                           \
  X(gen_rand, 10)                                                            \
  X(gen_flags_bad, 60)                                                       \
  X(gen_deterministic, 120)                                                  \
  X(gen_interrupted, 120)                                                    \
  X(gen_data_sf001, 120)                                                     \
  X(gen_data_sf01, 300)                                                      \
  X(gen_data_sf1, 900)

#endif /* STARQ_TEST_LIST_H */
