/*
** tests/test-jsonread.c — the strict JSON reader (common/jsonread.h):
** what the writer writes reads back the same, escapes and surrogate pairs
** decode, and every kind of malformed text is refused with where and why.
*/
#include "../common/json.h"
#include "../common/jsonread.h"
#include "test.h"

/* Parses z, failing the test unless it is JSON. */
static json_value *jsonread_ok(const char *z) {
  json_value *v;
  char zErr[128];
  if (json_parse(z, strlen(z), &v, zErr, sizeof(zErr)) != 0) FAIL("%s: %s", z, zErr);
  return v;
}

/* Fails unless z is refused with an error containing zWant. */
static void jsonread_bad(const char *z, size_t n, const char *zWant) {
  json_value *v = (json_value *)1;
  char zErr[128];
  if (json_parse(z, n, &v, zErr, sizeof(zErr)) == 0) FAIL("accepted: %.*s", (int)n, z);
  ASSERT(v == NULL);
  if (strstr(zErr, zWant) == NULL) FAIL("%.*s: got \"%s\", wanted \"%s\"", (int)n, z, zErr, zWant);
}

TEST_IMPL(json_read) {
  strbuf s;
  json_writer w;
  json_value *v;
  const json_value *k;
  /* What the writer writes reads back. */
  strbuf_init(&s);
  json_init(&w, &s);
  json_object_begin(&w);
  json_field_string(&w, "sql", "SELECT 'a\"b\\c\n\x01' -- \xc3\xa9");
  json_field_int(&w, "rows", -42);
  json_field_double(&w, "seconds", 0.00312);
  json_field_double(&w, "big", 5.07e10);
  json_field_bool(&w, "cached", 1);
  json_key(&w, "kernels");
  json_array_begin(&w);
  json_object_begin(&w);
  json_field_string(&w, "name", "scan");
  json_object_end(&w);
  json_null(&w);
  json_array_begin(&w);
  json_array_end(&w);
  json_array_end(&w);
  json_key(&w, "empty");
  json_object_begin(&w);
  json_object_end(&w);
  json_object_end(&w);
  ASSERT_EQ(json_error(&w), 0);
  v = jsonread_ok(strbuf_str(&s));
  ASSERT_EQ(v->eKind, JSON_OBJECT);
  ASSERT_EQ(v->n, 7);
  ASSERT_STR_EQ(json_str(json_get(v, "sql"), ""), "SELECT 'a\"b\\c\n\x01' -- \xc3\xa9");
  ASSERT(json_num(json_get(v, "rows"), 0) == -42);
  ASSERT(json_num(json_get(v, "seconds"), 0) == 0.00312);
  ASSERT(json_num(json_get(v, "big"), 0) == 5.07e10);
  ASSERT_EQ(json_bool_get(json_get(v, "cached"), 0), 1);
  k = json_get(v, "kernels");
  ASSERT(k != NULL && k->eKind == JSON_ARRAY && k->n == 3);
  ASSERT_STR_EQ(json_str(json_get(&k->a[0], "name"), ""), "scan");
  ASSERT_EQ(k->a[1].eKind, JSON_NULL);
  ASSERT(k->a[2].eKind == JSON_ARRAY && k->a[2].n == 0);
  ASSERT(json_get(v, "empty")->eKind == JSON_OBJECT && json_get(v, "empty")->n == 0);
  /* Defaults for what is missing or of another kind. */
  ASSERT(json_get(v, "nope") == NULL && json_get(k, "name") == NULL && json_get(NULL, "x") == NULL);
  ASSERT(json_num(json_get(v, "sql"), 7) == 7);
  ASSERT_STR_EQ(json_str(json_get(v, "rows"), "d"), "d");
  ASSERT_EQ(json_bool_get(NULL, 1), 1);
  json_value_free(v);
  strbuf_free(&s);

  /* Escapes: every short one, \u in all UTF-8 lengths, a surrogate pair. */
  v = jsonread_ok(" [\"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\u0041\\u00e9\\u20AC\\ud83d\\ude00\"] ");
  ASSERT_STR_EQ(v->a[0].z, "\"\\/\b\f\n\r\t");
  ASSERT_STR_EQ(v->a[1].z, "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
  json_value_free(v);
  /* Numbers in every form the grammar allows; scalars at the top. */
  v = jsonread_ok("[0, -0, 1.5e3, -2E-2, 10e+1, 123456789012]");
  ASSERT(v->a[0].r == 0 && v->a[2].r == 1500 && v->a[3].r == -0.02 && v->a[4].r == 100 &&
         v->a[5].r == 123456789012.0);
  json_value_free(v);
  v = jsonread_ok("true");
  ASSERT(v->eKind == JSON_BOOL && v->bBool == 1);
  json_value_free(v);
  v = jsonread_ok("\"\"");
  ASSERT(v->eKind == JSON_STRING && v->z[0] == 0);
  json_value_free(v);
  /* Duplicate keys: the first is found. */
  v = jsonread_ok("{\"a\":1,\"a\":2}");
  ASSERT(json_num(json_get(v, "a"), 0) == 1 && v->n == 2);
  json_value_free(v);
  return 0;
}

TEST_IMPL(json_read_errors) {
  char aDeep[2 * JSONREAD_DEPTH_MAX + 8];
  jsonread_bad("", 0, "at byte 0: expected a value, found the end");
  jsonread_bad("   ", 3, "found the end");
  jsonread_bad("{\"a\" 1}", 7, "at byte 5: expected ':'");
  jsonread_bad("{\"a\":1,}", 8, "at byte 7: expected a key");
  jsonread_bad("[1,]", 4, "expected a value");
  jsonread_bad("[1 2]", 5, "expected ',' or ']'");
  jsonread_bad("{1:2}", 5, "expected a key");
  jsonread_bad("[1] x", 5, "at byte 4: text after the value");
  jsonread_bad("01", 2, "text after the value");
  jsonread_bad("-", 1, "expected a digit");
  jsonread_bad("1.", 2, "after '.'");
  jsonread_bad("1e", 2, "exponent");
  jsonread_bad(".5", 2, "expected a value");
  jsonread_bad("NaN", 3, "expected a value");
  jsonread_bad("tru", 3, "expected a value");
  jsonread_bad("nul", 3, "expected a value");
  jsonread_bad("'a'", 3, "expected a value");
  jsonread_bad("\"abc", 4, "not closed");
  jsonread_bad("\"a\tb\"", 5, "at byte 2: a control character");
  jsonread_bad("\"\\x\"", 4, "an unknown escape");
  jsonread_bad("\"\\u12\"", 6, "4 hex digits");
  jsonread_bad("\"\\ude00\"", 8, "lone low surrogate");
  jsonread_bad("\"\\ud83d\"", 8, "without its low half");
  jsonread_bad("\"\\ud83d\\u0041\"", 14, "without its low half");
  jsonread_bad("\"a\xdb\"", 4, "at byte 2: a string is not UTF-8");
  jsonread_bad("\"\xc0\xaf\"", 4, "not UTF-8");        /* overlong */
  jsonread_bad("\"\xed\xa0\x80\"", 5, "not UTF-8");    /* a surrogate */
  jsonread_bad("\"\xf4\x90\x80\x80\"", 6, "not UTF-8"); /* past U+10FFFF */
  jsonread_bad("\"\xe2\x82\"", 4, "not UTF-8");        /* cut short */
  jsonread_bad("[1]\0", 4, "text after the value");
  jsonread_bad("/* c */ 1", 9, "expected a value");
  /* Depth: the limit is fine, one more is refused, not recursed into. */
  memset(aDeep, '[', JSONREAD_DEPTH_MAX);
  memset(aDeep + JSONREAD_DEPTH_MAX, ']', JSONREAD_DEPTH_MAX);
  {
    json_value *v;
    char zErr[128];
    strbuf s;
    json_writer w;
    ASSERT_EQ(json_parse(aDeep, 2 * JSONREAD_DEPTH_MAX, &v, zErr, sizeof(zErr)), 0);
    json_value_free(v);
    /* ... and the writer can write it back (the JSON fuzzer's round trip). */
    strbuf_init(&s);
    json_init(&w, &s);
    for (int d = 0; d < JSONREAD_DEPTH_MAX; d++) json_array_begin(&w);
    for (int d = 0; d < JSONREAD_DEPTH_MAX; d++) json_array_end(&w);
    ASSERT(!json_error(&w) && s.n == 2 * JSONREAD_DEPTH_MAX);
    strbuf_free(&s);
  }
  memset(aDeep, '[', JSONREAD_DEPTH_MAX + 1);
  memset(aDeep + JSONREAD_DEPTH_MAX + 1, ']', JSONREAD_DEPTH_MAX + 1);
  jsonread_bad(aDeep, 2 * JSONREAD_DEPTH_MAX + 2, "nested deeper than 64");
  /* An error part-way through a big object leaks nothing (LeakSanitizer). */
  jsonread_bad("{\"a\":[1,{\"b\":\"c\"}],\"d\":{\"e\":[true,", 34, "found the end");
  return 0;
}
