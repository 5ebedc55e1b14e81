/*
** common/jsonread.c — the strict JSON reader (jsonread.h): a recursive
** descent over the bytes, bounded in depth, building values in place.
**
** Containers grow their member arrays by doubling; a failure anywhere
** frees what was built so far through the same json_value_free() the
** caller would use, so there is one cleanup path.
**
** INTERFACE ROUTINES
**   json_parse, json_value_free, json_get, json_num, json_str, json_bool_get
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"
#include "strbuf.h"

/* The reader's state: the text and how far it has got. */
typedef struct json_reader json_reader;
struct json_reader {
  const char *z;           /* the text; not owned */
  size_t n;                /* its bytes */
  size_t i;                /* the next byte to read */
  char *zErr;              /* the caller's buffer */
  size_t nErr;
  int bFailed;             /* an error was written; the first one wins */
};

/* Records the first error, at the current byte. Returns -1. */
static int json_fail(json_reader *r, const char *zFmt, ...) __attribute__((format(printf, 2, 3)));
static int json_fail(json_reader *r, const char *zFmt, ...) {
  va_list ap;
  int k;
  if (r->bFailed || r->nErr == 0) return -1;
  r->bFailed = 1;
  k = snprintf(r->zErr, r->nErr, "at byte %zu: ", r->i);
  if (k < 0 || (size_t)k >= r->nErr) return -1;
  va_start(ap, zFmt);
  vsnprintf(r->zErr + k, r->nErr - (size_t)k, zFmt, ap);
  va_end(ap);
  return -1;
}

static void json_space_skip(json_reader *r) {
  while (r->i < r->n && (r->z[r->i] == ' ' || r->z[r->i] == '\t' || r->z[r->i] == '\n' ||
                         r->z[r->i] == '\r')) {
    r->i++;
  }
}

/* The next byte, or -1 at the end. */
static int json_peek(const json_reader *r) {
  return r->i < r->n ? (unsigned char)r->z[r->i] : -1;
}

/* Consumes the literal zWord if the text has it here. */
static int json_word(json_reader *r, const char *zWord) {
  size_t k = strlen(zWord);
  if (r->n - r->i < k || memcmp(r->z + r->i, zWord, k) != 0) return 0;
  r->i += k;
  return 1;
}

/* ---- numbers ----------------------------------------------------------- */

static int json_digits(json_reader *r) {
  size_t i0 = r->i;
  while (r->i < r->n && r->z[r->i] >= '0' && r->z[r->i] <= '9') r->i++;
  return r->i > i0;
}

/* RFC 8259's number grammar, checked here; strtod converts the span. */
static int json_number_read(json_reader *r, json_value *v) {
  size_t i0 = r->i;
  char aBuf[64], *zNum = aBuf, *zEnd;
  size_t k;
  if (json_peek(r) == '-') r->i++;
  if (json_peek(r) == '0') {
    r->i++;
  } else if (!json_digits(r)) {
    return json_fail(r, "expected a digit");
  }
  if (json_peek(r) == '.') {
    r->i++;
    if (!json_digits(r)) return json_fail(r, "expected a digit after '.'");
  }
  if (json_peek(r) == 'e' || json_peek(r) == 'E') {
    r->i++;
    if (json_peek(r) == '+' || json_peek(r) == '-') r->i++;
    if (!json_digits(r)) return json_fail(r, "expected a digit in the exponent");
  }
  k = r->i - i0;
  if (k >= sizeof(aBuf) && (zNum = malloc(k + 1)) == NULL) return json_fail(r, "out of memory");
  memcpy(zNum, r->z + i0, k);
  zNum[k] = 0;
  v->eKind = JSON_NUMBER;
  v->r = strtod(zNum, &zEnd);
  if (zNum != aBuf) free(zNum);
  return 0;
}

/* ---- strings ----------------------------------------------------------- */

/* Reads the 4 hex digits of a \u escape. Returns the unit, or -1. */
static long json_hex4(json_reader *r) {
  long u = 0;
  if (r->n - r->i < 4) return -1;
  for (int k = 0; k < 4; k++) {
    char c = r->z[r->i + (size_t)k];
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (d < 0) return -1;
    u = u * 16 + d;
  }
  r->i += 4;
  return u;
}

/* Appends code point u as UTF-8. */
static void json_utf8_put(strbuf *s, unsigned long u) {
  char a[4];
  size_t n;
  if (u < 0x80) {
    a[0] = (char)u;
    n = 1;
  } else if (u < 0x800) {
    a[0] = (char)(0xC0 | (u >> 6));
    a[1] = (char)(0x80 | (u & 0x3F));
    n = 2;
  } else if (u < 0x10000) {
    a[0] = (char)(0xE0 | (u >> 12));
    a[1] = (char)(0x80 | ((u >> 6) & 0x3F));
    a[2] = (char)(0x80 | (u & 0x3F));
    n = 3;
  } else {
    a[0] = (char)(0xF0 | (u >> 18));
    a[1] = (char)(0x80 | ((u >> 12) & 0x3F));
    a[2] = (char)(0x80 | ((u >> 6) & 0x3F));
    a[3] = (char)(0x80 | (u & 0x3F));
    n = 4;
  }
  strbuf_append(s, a, n);
}

/* Decodes a \u escape (the "\u" already read), joining a surrogate pair. */
static int json_escape_u(json_reader *r, strbuf *s) {
  long u = json_hex4(r), lo;
  if (u < 0) return json_fail(r, "expected 4 hex digits after \\u");
  if (u >= 0xDC00 && u <= 0xDFFF) return json_fail(r, "a lone low surrogate");
  if (u >= 0xD800 && u <= 0xDBFF) {
    if (!json_word(r, "\\u") || (lo = json_hex4(r)) < 0xDC00 || lo > 0xDFFF) {
      return json_fail(r, "a high surrogate without its low half");
    }
    u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
  }
  json_utf8_put(s, (unsigned long)u);
  return 0;
}

/* Returns the length of the well-formed UTF-8 sequence at z[0..n) (n >=
** 1, z[0] >= 0x80), or 0 if it is not one: overlong forms, surrogates
** and code points past U+10FFFF are not. */
static size_t json_utf8_len(const unsigned char *z, size_t n) {
  size_t k = z[0] >= 0xC2 && z[0] <= 0xDF ? 2 : z[0] >= 0xE0 && z[0] <= 0xEF ? 3
           : z[0] >= 0xF0 && z[0] <= 0xF4 ? 4 : 0;
  unsigned lo = 0x80, hi = 0xBF;
  if (k == 0 || n < k) return 0;
  if (z[0] == 0xE0) lo = 0xA0;
  if (z[0] == 0xED) hi = 0x9F;
  if (z[0] == 0xF0) lo = 0x90;
  if (z[0] == 0xF4) hi = 0x8F;
  if (z[1] < lo || z[1] > hi) return 0;
  for (size_t i = 2; i < k; i++) {
    if (z[i] < 0x80 || z[i] > 0xBF) return 0;
  }
  return k;
}

/* Reads a string (at its opening quote) into a malloc'd *pz. */
static int json_string_read(json_reader *r, char **pz) {
  static const char zFrom[] = "\"\\/bfnrt", zTo[] = "\"\\/\b\f\n\r\t";
  strbuf s;
  strbuf_init(&s);
  r->i++;
  for (;;) {
    int c = json_peek(r);
    if (c < 0) {
      json_fail(r, "a string is not closed");
      goto out_free;
    }
    r->i++;
    if (c == '"') break;
    if (c < 0x20) {
      r->i--;
      json_fail(r, "a control character in a string");
      goto out_free;
    }
    if (c >= 0x80) {
      size_t k = json_utf8_len((const unsigned char *)r->z + r->i - 1, r->n - r->i + 1);
      if (k == 0) {
        r->i--;
        json_fail(r, "a string is not UTF-8");
        goto out_free;
      }
      strbuf_append(&s, r->z + r->i - 1, k);
      r->i += k - 1;
      continue;
    }
    if (c != '\\') {
      strbuf_append(&s, r->z + r->i - 1, 1);
      continue;
    }
    c = json_peek(r);
    r->i++;
    if (c == 'u') {
      if (json_escape_u(r, &s) != 0) goto out_free;
    } else if (c > 0 && strchr(zFrom, c) != NULL) {
      strbuf_append(&s, &zTo[strchr(zFrom, c) - zFrom], 1);
    } else {
      r->i--;
      json_fail(r, "an unknown escape");
      goto out_free;
    }
  }
  if (strbuf_error(&s)) {
    json_fail(r, "out of memory");
    goto out_free;
  }
  *pz = strbuf_take(&s);
  if (*pz == NULL) *pz = strdup("");
  if (*pz == NULL) return json_fail(r, "out of memory");
  return 0;
out_free:
  strbuf_free(&s);
  return -1;
}

/* ---- containers -------------------------------------------------------- */

static int json_value_read(json_reader *r, json_value *v, int nDepth);

/* Makes room for one more member of container v. */
static int json_member_grow(json_reader *r, json_value *v, int *pnAlloc) {
  if (v->n < *pnAlloc) return 0;
  int nNew = *pnAlloc ? *pnAlloc * 2 : 4;
  json_value *a = realloc(v->a, (size_t)nNew * sizeof(*a));
  if (a == NULL) return json_fail(r, "out of memory");
  v->a = a;
  if (v->eKind == JSON_OBJECT) {
    char **az = realloc(v->azKey, (size_t)nNew * sizeof(*az));
    if (az == NULL) return json_fail(r, "out of memory");
    v->azKey = az;
  }
  *pnAlloc = nNew;
  return 0;
}

/* Reads an array or object (at its opening bracket) into v, whose eKind
** the caller set. Members read so far stay in v for the caller to free. */
static int json_container_read(json_reader *r, json_value *v, int nDepth) {
  int bObject = v->eKind == JSON_OBJECT, nAlloc = 0;
  char cClose = bObject ? '}' : ']';
  if (nDepth >= JSONREAD_DEPTH_MAX) return json_fail(r, "nested deeper than %d", JSONREAD_DEPTH_MAX);
  r->i++;
  json_space_skip(r);
  if (json_peek(r) == cClose) {
    r->i++;
    return 0;
  }
  for (;;) {
    json_value *m;
    if (json_member_grow(r, v, &nAlloc) != 0) return -1;
    m = &v->a[v->n];
    memset(m, 0, sizeof(*m));
    json_space_skip(r);
    if (bObject) {
      v->azKey[v->n] = NULL;
      if (json_peek(r) != '"') return json_fail(r, "expected a key");
      if (json_string_read(r, &v->azKey[v->n]) != 0) return -1;
      json_space_skip(r);
      if (json_peek(r) != ':') {
        v->n++;   /* the key is owned now */
        return json_fail(r, "expected ':'");
      }
      r->i++;
    }
    v->n++;
    if (json_value_read(r, m, nDepth + 1) != 0) return -1;
    json_space_skip(r);
    if (json_peek(r) == cClose) {
      r->i++;
      return 0;
    }
    if (json_peek(r) != ',') return json_fail(r, "expected ',' or '%c'", cClose);
    r->i++;
  }
}

/* Reads one value of any kind into v (zeroed by the caller). */
static int json_value_read(json_reader *r, json_value *v, int nDepth) {
  int c;
  json_space_skip(r);
  c = json_peek(r);
  switch (c) {
    case '{':
      v->eKind = JSON_OBJECT;
      return json_container_read(r, v, nDepth);
    case '[':
      v->eKind = JSON_ARRAY;
      return json_container_read(r, v, nDepth);
    case '"':
      if (json_string_read(r, &v->z) != 0) return -1;
      v->eKind = JSON_STRING;
      return 0;
    case 't':
    case 'f':
      v->eKind = JSON_BOOL;
      v->bBool = c == 't';
      if (json_word(r, c == 't' ? "true" : "false")) return 0;
      break;
    case 'n':
      v->eKind = JSON_NULL;
      if (json_word(r, "null")) return 0;
      break;
    default:
      if (c == '-' || (c >= '0' && c <= '9')) return json_number_read(r, v);
      break;
  }
  return json_fail(r, c < 0 ? "expected a value, found the end" : "expected a value");
}

/* Frees what v owns (not v itself). */
static void json_value_clear(json_value *v) {
  for (int i = 0; i < v->n; i++) {
    json_value_clear(&v->a[i]);
    if (v->azKey != NULL) free(v->azKey[i]);
  }
  free(v->a);
  free(v->azKey);
  free(v->z);
}

int json_parse(const char *z, size_t n, json_value **pp, char *zErr, size_t nErr) {
  json_reader r = {z, n, 0, zErr, nErr, 0};
  json_value *v = calloc(1, sizeof(*v));
  *pp = NULL;
  if (nErr > 0) zErr[0] = 0;
  if (v == NULL) return json_fail(&r, "out of memory");
  if (json_value_read(&r, v, 0) != 0) goto out_free;
  json_space_skip(&r);
  if (r.i < r.n) {
    json_fail(&r, "text after the value");
    goto out_free;
  }
  *pp = v;
  return 0;
out_free:
  json_value_free(v);
  return -1;
}

void json_value_free(json_value *p) {
  if (p == NULL) return;
  json_value_clear(p);
  free(p);
}

const json_value *json_get(const json_value *p, const char *zKey) {
  if (p == NULL || p->eKind != JSON_OBJECT) return NULL;
  for (int i = 0; i < p->n; i++) {
    if (strcmp(p->azKey[i], zKey) == 0) return &p->a[i];
  }
  return NULL;
}

double json_num(const json_value *p, double rDefault) {
  return p != NULL && p->eKind == JSON_NUMBER ? p->r : rDefault;
}

const char *json_str(const json_value *p, const char *zDefault) {
  return p != NULL && p->eKind == JSON_STRING ? p->z : zDefault;
}

int json_bool_get(const json_value *p, int bDefault) {
  return p != NULL && p->eKind == JSON_BOOL ? p->bBool : bDefault;
}
