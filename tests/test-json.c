/*
** tests/test-json.c — common/json.c and strbuf_double(): string escaping
** of quotes, control bytes and invalid UTF-8, with every output checked by
** tests/jsoncheck.c; numbers; the writer refusing calls out of order.
*/
#include <math.h>

#include "../common/json.h"
#include "jsoncheck.h"
#include "test.h"

TEST_IMPL(strbuf_double_text) {
  static const struct {
    double v;
    const char *zWant;
  } aCase[] = {
      {0, "0"}, {-0.0, "-0"}, {1, "1"}, {30, "30"}, {60, "60"}, {2.5, "2.5"}, {0.1, "0.1"},
      {0.0001, "0.0001"}, {0.00025, "0.00025"}, {1e-05, "1e-05"}, {50.7e9, "50700000000"},
      {123456789012345, "123456789012345"}, {1e15, "1e+15"}, {1.5e300, "1.5e+300"},
      {-2.75, "-2.75"}, {1.0 / 3, "0.3333333333333333"}, {5e-324, "5e-324"},
      {1.7976931348623157e308, "1.7976931348623157e+308"}, {100, "100"}, {120.5, "120.5"},
  };
  for (size_t i = 0; i < sizeof(aCase) / sizeof(aCase[0]); i++) {
    strbuf s;
    strbuf_init(&s);
    strbuf_double(&s, aCase[i].v);
    ASSERT_STR_EQ(strbuf_str(&s), aCase[i].zWant);
    ASSERT(strtod(strbuf_str(&s), NULL) == aCase[i].v);
    strbuf_free(&s);
  }
  return 0;
}

/* Writes the n bytes at z as one JSON string, checks the text, and
** requires it to be zWant. */
static void expect_string(const char *z, size_t n, const char *zWant) {
  strbuf s;
  json_writer w;
  char zErr[256];
  strbuf_init(&s);
  json_init(&w, &s);
  json_string_n(&w, z, n);
  ASSERT_EQ(json_error(&w), 0);
  if (jsoncheck(strbuf_str(&s), s.n, zErr, sizeof(zErr)) != 0) FAIL("%s: %s", zErr, strbuf_str(&s));
  ASSERT_STR_EQ(strbuf_str(&s), zWant);
  strbuf_free(&s);
}
#define EXPECT_STRING(lit, want) expect_string(lit, sizeof(lit) - 1, want)

TEST_IMPL(json_escape) {
  EXPECT_STRING("plain", "\"plain\"");
  EXPECT_STRING("", "\"\"");
  EXPECT_STRING("q\"b\\s/", "\"q\\\"b\\\\s/\"");
  EXPECT_STRING("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"");
  EXPECT_STRING("a\0b\x01\x1f\x7f", "\"a\\u0000b\\u0001\\u001f\\u007f\"");
  /* Valid UTF-8 passes as it is: 2, 3 and 4 bytes, and the edges. */
  EXPECT_STRING("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
  EXPECT_STRING("\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf4\x8f\xbf\xbf",
                "\"\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf4\x8f\xbf\xbf\"");
  /* Line and paragraph separators are escaped, for <script>. */
  EXPECT_STRING("a\xe2\x80\xa8" "b\xe2\x80\xa9", "\"a\\u2028b\\u2029\"");
  /* Invalid: one U+FFFD per bad byte. */
  EXPECT_STRING("\x80", "\"\\ufffd\"");                               /* lone continuation */
  EXPECT_STRING("a\xff" "b", "\"a\\ufffdb\"");
  EXPECT_STRING("\xc0\xaf", "\"\\ufffd\\ufffd\"");                     /* overlong '/' */
  EXPECT_STRING("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");           /* overlong */
  EXPECT_STRING("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");           /* surrogate */
  EXPECT_STRING("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* past U+10FFFF */
  EXPECT_STRING("\xf5\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
  EXPECT_STRING("\xe2\x82", "\"\\ufffd\\ufffd\"");                     /* truncated at the end */
  EXPECT_STRING("\xe2\x82z", "\"\\ufffd\\ufffdz\"");                   /* truncated inside */
  EXPECT_STRING("\xc3\xc3\xa9", "\"\\ufffd\xc3\xa9\"");

  /* Every single byte and every pair of bytes gives valid JSON. */
  for (int a = 0; a < 256; a++) {
    for (int b = 0; b < 256; b++) {
      char z[3] = {(char)a, (char)b, (char)0xe2};
      strbuf s;
      json_writer w;
      char zErr[128];
      strbuf_init(&s);
      json_init(&w, &s);
      json_string_n(&w, z, (a + b) % 3 + 1);
      if (jsoncheck(strbuf_str(&s), s.n, zErr, sizeof(zErr)) != 0) FAIL("%02x %02x: %s", a, b, zErr);
      strbuf_free(&s);
    }
  }
  return 0;
}

TEST_IMPL(json_writer) {
  strbuf s;
  json_writer w;
  char zErr[256];

  strbuf_init(&s);
  json_init(&w, &s);
  json_object_begin(&w);
  json_key(&w, "a");
  json_array_begin(&w);
  json_int(&w, -9223372036854775807LL - 1);
  json_uint(&w, 18446744073709551615ULL);
  json_double(&w, 0.1);
  json_double(&w, 1e300);
  json_double(&w, -0.0);
  json_double(&w, NAN);
  json_double(&w, INFINITY);
  json_bool(&w, 1);
  json_bool(&w, 0);
  json_null(&w);
  json_string(&w, NULL);
  json_object_begin(&w);
  json_object_end(&w);
  json_array_begin(&w);
  json_array_end(&w);
  json_array_end(&w);
  json_key(&w, "k\"\n");
  json_double(&w, 50.7e9);
  json_object_end(&w);
  ASSERT_EQ(json_error(&w), 0);
  ASSERT_STR_EQ(strbuf_str(&s), "{\"a\":[-9223372036854775808,18446744073709551615,0.1,1e+300,-0,"
                                "null,null,true,false,null,null,{},[]],\"k\\\"\\n\":50700000000}");
  ASSERT_EQ(jsoncheck(strbuf_str(&s), s.n, zErr, sizeof(zErr)), 0);

  /* Calls out of order are refused, and stay refused. */
  {
    static const int aCase[] = {0, 1, 2, 3, 4, 5, 6};
    for (size_t i = 0; i < sizeof(aCase) / sizeof(aCase[0]); i++) {
      strbuf_reset(&s);
      json_init(&w, &s);
      switch (aCase[i]) {
        case 0:   /* a value where a key is due */
          json_object_begin(&w);
          json_int(&w, 1);
          break;
        case 1:   /* a key in an array */
          json_array_begin(&w);
          json_key(&w, "x");
          break;
        case 2:   /* a close of the wrong kind */
          json_object_begin(&w);
          json_array_end(&w);
          break;
        case 3:   /* a close with a key waiting */
          json_object_begin(&w);
          json_key(&w, "x");
          json_object_end(&w);
          break;
        case 4:   /* two top-level values */
          json_int(&w, 1);
          json_int(&w, 2);
          break;
        case 5:   /* a close with nothing open */
          json_array_end(&w);
          break;
        case 6:   /* too deep */
          for (int d = 0; d <= JSON_DEPTH_MAX; d++) json_array_begin(&w);
          break;
      }
      if (!json_error(&w)) FAIL("case %zu was not refused", i);
      json_null(&w);
      ASSERT_EQ(json_error(&w), 1);
    }
  }
  strbuf_free(&s);
  return 0;
}

