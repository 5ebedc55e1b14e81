/*
** tests/test-cli.c — the numeric flag parsers every program shares
** (common/cli.c). The usage message itself is checked end to end by the
** programs' own flag tests (gen_flags_bad, load_bad_input).
*/
#include <math.h>

#include "../common/cli.h"
#include "test.h"

TEST_IMPL(cli_parse) {
  uint64_t v;
  double r;

  ASSERT_EQ(cli_parse_u64("0", &v), 0);
  ASSERT_EQ(v, 0);
  ASSERT_EQ(cli_parse_u64("18446744073709551615", &v), 0);
  ASSERT(v == UINT64_MAX);
  ASSERT_EQ(cli_parse_u64("18446744073709551616", &v), -1);   /* overflow */
  ASSERT_EQ(cli_parse_u64("", &v), -1);
  ASSERT_EQ(cli_parse_u64("-1", &v), -1);
  ASSERT_EQ(cli_parse_u64("+1", &v), -1);
  ASSERT_EQ(cli_parse_u64(" 1", &v), -1);
  ASSERT_EQ(cli_parse_u64("1 ", &v), -1);
  ASSERT_EQ(cli_parse_u64("1x", &v), -1);
  ASSERT_EQ(cli_parse_u64("0x10", &v), -1);

  ASSERT_EQ(cli_parse_range("1", 1, 256, &v), 0);
  ASSERT_EQ(cli_parse_range("256", 1, 256, &v), 0);
  ASSERT_EQ(v, 256);
  ASSERT_EQ(cli_parse_range("0", 1, 256, &v), -1);
  ASSERT_EQ(cli_parse_range("257", 1, 256, &v), -1);

  ASSERT_EQ(cli_parse_double("0.01", &r), 0);
  ASSERT(r == 0.01);
  ASSERT_EQ(cli_parse_double("1e3", &r), 0);
  ASSERT(r == 1000.0);
  ASSERT_EQ(cli_parse_double("", &r), -1);
  ASSERT_EQ(cli_parse_double("1.5x", &r), -1);
  ASSERT_EQ(cli_parse_double("nan", &r), -1);
  ASSERT_EQ(cli_parse_double("inf", &r), -1);
  ASSERT_EQ(cli_parse_double("1e999", &r), -1);             /* ERANGE */
  return 0;
}
