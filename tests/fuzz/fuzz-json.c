/*
** tests/fuzz/fuzz-json.c — a libFuzzer target over the strict JSON reader
** (common/jsonread.c), which the clients run on what a server sends.
**
** Any input: no crash, no sanitizer report, no leak. An input it accepts
** must survive a round trip: written back with the JSON writer and read
** again, the second tree equals the first (numbers compared bit for bit
** unless NaN cannot arise: strtod of a JSON number never gives NaN).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/json.h"
#include "../../common/jsonread.h"

int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData);

static void fuzz_write(json_writer *w, const json_value *v) {
  switch (v->eKind) {
    case JSON_NULL: json_null(w); break;
    case JSON_BOOL: json_bool(w, v->bBool); break;
    case JSON_NUMBER: json_double(w, v->r); break;
    case JSON_STRING: json_string(w, v->z); break;
    case JSON_ARRAY:
      json_array_begin(w);
      for (int i = 0; i < v->n; i++) fuzz_write(w, &v->a[i]);
      json_array_end(w);
      break;
    case JSON_OBJECT:
      json_object_begin(w);
      for (int i = 0; i < v->n; i++) {
        json_key(w, v->azKey[i]);
        fuzz_write(w, &v->a[i]);
      }
      json_object_end(w);
      break;
  }
}

/* 1 if the trees are equal; infinities (from 1e999) are written as null. */
static int fuzz_equal(const json_value *a, const json_value *b) {
  if (a->eKind == JSON_NUMBER && (a->r - a->r != 0)) return b->eKind == JSON_NULL;
  if (a->eKind != b->eKind) return 0;
  switch (a->eKind) {
    case JSON_NULL: return 1;
    case JSON_BOOL: return a->bBool == b->bBool;
    case JSON_NUMBER: return a->r == b->r;
    case JSON_STRING: return strcmp(a->z, b->z) == 0;
    default: break;
  }
  if (a->n != b->n) return 0;
  for (int i = 0; i < a->n; i++) {
    if (a->eKind == JSON_OBJECT && strcmp(a->azKey[i], b->azKey[i]) != 0) return 0;
    if (!fuzz_equal(&a->a[i], &b->a[i])) return 0;
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *aData, size_t nData) {
  json_value *v, *v2;
  char zErr[128];
  strbuf s;
  json_writer w;
  if (json_parse((const char *)aData, nData, &v, zErr, sizeof(zErr)) != 0) {
    if (v != NULL || strncmp(zErr, "at byte ", 8) != 0) abort();
    return 0;
  }
  strbuf_init(&s);
  json_init(&w, &s);
  fuzz_write(&w, v);
  if (json_error(&w)) abort();
  if (json_parse(strbuf_str(&s), s.n, &v2, zErr, sizeof(zErr)) != 0) abort();
  if (!fuzz_equal(v, v2)) abort();
  json_value_free(v2);
  json_value_free(v);
  strbuf_free(&s);
  return 0;
}
