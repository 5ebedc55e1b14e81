/*
** common/json.c — the JSON writer of json.h.
**
** The writer keeps one frame per open container: its kind and whether it
** has a member yet, which is all that placing commas and checking the
** order of calls needs. It never reads back what it wrote.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json.h"

void json_init(json_writer *w, strbuf *pOut) {
  memset(w, 0, sizeof(*w));
  w->pOut = pOut;
}

int json_error(const json_writer *w) { return w->bMisuse || strbuf_error(w->pOut); }

/* Gets ready for a value: checks that one may come here and writes the
** comma before it. Returns 0, or -1 (sticky) if a value is out of place. */
static int json__value_begin(json_writer *w) {
  if (w->bMisuse) return -1;
  if (w->nDepth == 0) {
    if (w->bRootDone) goto misuse;
    return 0;
  }
  if (w->aKind[w->nDepth - 1] == '{') {
    if (!w->bKeyDone) goto misuse;
    w->bKeyDone = 0;
    return 0;
  }
  if (w->abMember[w->nDepth - 1]) strbuf_append(w->pOut, ",", 1);
  w->abMember[w->nDepth - 1] = 1;
  return 0;
misuse:
  w->bMisuse = 1;
  return -1;
}

/* Marks a value finished: at depth 0 that is the whole text. */
static void json__value_end(json_writer *w) {
  if (w->nDepth == 0) w->bRootDone = 1;
}

static void json__open(json_writer *w, char cKind) {
  if (json__value_begin(w) != 0) return;
  if (w->nDepth == JSON_DEPTH_MAX) {
    w->bMisuse = 1;
    return;
  }
  w->aKind[w->nDepth] = cKind;
  w->abMember[w->nDepth] = 0;
  w->nDepth++;
  strbuf_append(w->pOut, &cKind, 1);
}

static void json__close(json_writer *w, char cKind) {
  if (w->bMisuse) return;
  if (w->nDepth == 0 || w->aKind[w->nDepth - 1] != cKind || w->bKeyDone) {
    w->bMisuse = 1;
    return;
  }
  w->nDepth--;
  strbuf_append(w->pOut, cKind == '{' ? "}" : "]", 1);
  json__value_end(w);
}

void json_object_begin(json_writer *w) { json__open(w, '{'); }
void json_object_end(json_writer *w) { json__close(w, '{'); }
void json_array_begin(json_writer *w) { json__open(w, '['); }
void json_array_end(json_writer *w) { json__close(w, '['); }

void json_key(json_writer *w, const char *zKey) {
  if (w->bMisuse) return;
  if (w->nDepth == 0 || w->aKind[w->nDepth - 1] != '{' || w->bKeyDone) {
    w->bMisuse = 1;
    return;
  }
  if (w->abMember[w->nDepth - 1]) strbuf_append(w->pOut, ",", 1);
  w->abMember[w->nDepth - 1] = 1;
  strbuf_append(w->pOut, "\"", 1);
  json_string_escape(w->pOut, zKey, strlen(zKey));
  strbuf_append(w->pOut, "\":", 2);
  w->bKeyDone = 1;
}

/* ---- string escaping ------------------------------------------------------ */

/* Returns the length of the well-formed UTF-8 sequence at a[0..n), or 0 if
** the bytes there do not start one (Unicode's table 3-7: no overlong
** forms, no surrogates, nothing past U+10FFFF). a[0] is at least 0x80. */
static size_t json__utf8_len(const unsigned char *a, size_t n) {
  unsigned char c = a[0], lo = 0x80, hi = 0xbf;
  size_t nSeq;
  if (c >= 0xc2 && c <= 0xdf) {
    nSeq = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    nSeq = 3;
    if (c == 0xe0) lo = 0xa0;       /* overlong below U+0800 */
    if (c == 0xed) hi = 0x9f;       /* surrogates U+D800..DFFF */
  } else if (c >= 0xf0 && c <= 0xf4) {
    nSeq = 4;
    if (c == 0xf0) lo = 0x90;       /* overlong below U+10000 */
    if (c == 0xf4) hi = 0x8f;       /* past U+10FFFF */
  } else {
    return 0;
  }
  if (n < nSeq || a[1] < lo || a[1] > hi) return 0;
  for (size_t i = 2; i < nSeq; i++) {
    if (a[i] < 0x80 || a[i] > 0xbf) return 0;
  }
  return nSeq;
}

/* The escape of an ASCII byte that JSON or a <script> forbids raw, or NULL
** for a byte that may stand as it is. z is scratch for \u00XX. */
static const char *json__ascii_escape(unsigned char c, char z[8]) {
  switch (c) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\b': return "\\b";
    case '\f': return "\\f";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: break;
  }
  if (c >= 0x20 && c != 0x7f) return NULL;
  snprintf(z, 8, "\\u%04x", c);
  return z;
}

void json_string_escape(strbuf *pOut, const char *z, size_t n) {
  const unsigned char *a = (const unsigned char *)z;
  size_t iRun = 0, i = 0;   /* a[iRun..i) is copied as it is */
  char zEsc[8];
  while (i < n) {
    const char *zRep = NULL;
    size_t nSkip = 1;
    if (a[i] < 0x80) {
      zRep = json__ascii_escape(a[i], zEsc);
    } else if ((nSkip = json__utf8_len(a + i, n - i)) == 0) {
      zRep = "\\ufffd";
      nSkip = 1;
    } else if (nSkip == 3 && a[i] == 0xe2 && a[i + 1] == 0x80 && (a[i + 2] & 0xfe) == 0xa8) {
      zRep = a[i + 2] == 0xa8 ? "\\u2028" : "\\u2029";
    }
    if (zRep != NULL) {
      strbuf_append(pOut, z + iRun, i - iRun);
      strbuf_puts(pOut, zRep);
      iRun = i + nSkip;
    }
    i += nSkip;
  }
  strbuf_append(pOut, z + iRun, n - iRun);
}

/* ---- scalars ------------------------------------------------------------ */

void json_string_n(json_writer *w, const char *z, size_t n) {
  if (json__value_begin(w) != 0) return;
  strbuf_append(w->pOut, "\"", 1);
  json_string_escape(w->pOut, z, n);
  strbuf_append(w->pOut, "\"", 1);
  json__value_end(w);
}

void json_string(json_writer *w, const char *z) {
  if (z == NULL) {
    json_null(w);
    return;
  }
  json_string_n(w, z, strlen(z));
}

void json_int(json_writer *w, int64_t v) {
  if (json__value_begin(w) != 0) return;
  strbuf_printf(w->pOut, "%lld", (long long)v);
  json__value_end(w);
}

void json_uint(json_writer *w, uint64_t v) {
  if (json__value_begin(w) != 0) return;
  strbuf_printf(w->pOut, "%llu", (unsigned long long)v);
  json__value_end(w);
}

void json_double(json_writer *w, double v) {
  if (json__value_begin(w) != 0) return;
  if (isfinite(v)) {
    strbuf_double(w->pOut, v);
  } else {
    strbuf_puts(w->pOut, "null");
  }
  json__value_end(w);
}

void json_bool(json_writer *w, int b) {
  if (json__value_begin(w) != 0) return;
  strbuf_puts(w->pOut, b ? "true" : "false");
  json__value_end(w);
}

void json_null(json_writer *w) {
  if (json__value_begin(w) != 0) return;
  strbuf_puts(w->pOut, "null");
  json__value_end(w);
}

/* ---- members ------------------------------------------------------------ */

void json_field_string(json_writer *w, const char *zKey, const char *z) {
  json_key(w, zKey);
  json_string(w, z);
}

void json_field_int(json_writer *w, const char *zKey, int64_t v) {
  json_key(w, zKey);
  json_int(w, v);
}

void json_field_uint(json_writer *w, const char *zKey, uint64_t v) {
  json_key(w, zKey);
  json_uint(w, v);
}

void json_field_double(json_writer *w, const char *zKey, double v) {
  json_key(w, zKey);
  json_double(w, v);
}

void json_field_bool(json_writer *w, const char *zKey, int b) {
  json_key(w, zKey);
  json_bool(w, b);
}
