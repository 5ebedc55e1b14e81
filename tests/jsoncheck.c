/*
** tests/jsoncheck.c — the JSON validator of jsoncheck.h: a recursive
** descent over RFC 8259's grammar that stops at the first fault.
*/
#include <stdio.h>
#include <string.h>

#include "jsoncheck.h"

typedef struct jc jc;
struct jc {
  const unsigned char *a;
  size_t n, i;
  int nDepth;
  char *zErr;
  size_t nErr;
  int bFail;
};

static int jc_fail(jc *p, const char *zWhy) {
  if (!p->bFail) snprintf(p->zErr, p->nErr, "at byte %zu: %s", p->i, zWhy);
  p->bFail = 1;
  return -1;
}

static void jc_ws(jc *p) {
  while (p->i < p->n && strchr(" \t\r\n", p->a[p->i]) != NULL && p->a[p->i] != 0) p->i++;
}

static int jc_lit(jc *p, const char *z) {
  size_t n = strlen(z);
  if (p->n - p->i < n || memcmp(p->a + p->i, z, n) != 0) return jc_fail(p, "bad literal");
  p->i += n;
  return 0;
}

static int jc_digits(jc *p) {
  size_t i0 = p->i;
  while (p->i < p->n && p->a[p->i] >= '0' && p->a[p->i] <= '9') p->i++;
  return p->i > i0 ? 0 : jc_fail(p, "digit expected");
}

static int jc_number(jc *p) {
  if (p->i < p->n && p->a[p->i] == '-') p->i++;
  if (p->i < p->n && p->a[p->i] == '0') {
    p->i++;
  } else if (jc_digits(p) != 0) {
    return -1;
  }
  if (p->i < p->n && p->a[p->i] == '.') {
    p->i++;
    if (jc_digits(p) != 0) return -1;
  }
  if (p->i < p->n && (p->a[p->i] == 'e' || p->a[p->i] == 'E')) {
    p->i++;
    if (p->i < p->n && (p->a[p->i] == '+' || p->a[p->i] == '-')) p->i++;
    if (jc_digits(p) != 0) return -1;
  }
  return 0;
}

/* One UTF-8 character at p->i (first byte >= 0x80), checked by value. */
static int jc_utf8(jc *p) {
  unsigned c = p->a[p->i], cp, nMore;
  if (c >= 0xc0 && c < 0xe0) { cp = c & 0x1f; nMore = 1; }
  else if (c >= 0xe0 && c < 0xf0) { cp = c & 0x0f; nMore = 2; }
  else if (c >= 0xf0 && c < 0xf8) { cp = c & 0x07; nMore = 3; }
  else return jc_fail(p, "bad UTF-8 lead byte");
  if (p->n - p->i <= nMore) return jc_fail(p, "truncated UTF-8");
  for (unsigned k = 1; k <= nMore; k++) {
    unsigned b = p->a[p->i + k];
    if ((b & 0xc0) != 0x80) return jc_fail(p, "bad UTF-8 continuation");
    cp = (cp << 6) | (b & 0x3f);
  }
  if ((nMore == 1 && cp < 0x80) || (nMore == 2 && cp < 0x800) || (nMore == 3 && cp < 0x10000)) {
    return jc_fail(p, "overlong UTF-8");
  }
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return jc_fail(p, "UTF-8 out of range");
  p->i += nMore + 1;
  return 0;
}

static int jc_string(jc *p) {
  p->i++;   /* the opening quote */
  while (p->i < p->n) {
    unsigned char c = p->a[p->i];
    if (c == '"') {
      p->i++;
      return 0;
    }
    if (c < 0x20) return jc_fail(p, "raw control byte in a string");
    if (c == '\\') {
      if (++p->i >= p->n) break;
      c = p->a[p->i];
      if (c == 'u') {
        for (int k = 1; k <= 4; k++) {
          if (p->i + (size_t)k >= p->n || strchr("0123456789abcdefABCDEF", p->a[p->i + k]) == NULL ||
              p->a[p->i + k] == 0) {
            return jc_fail(p, "bad \\u escape");
          }
        }
        p->i += 5;
      } else if (c != 0 && strchr("\"\\/bfnrt", c) != NULL) {
        p->i++;
      } else {
        return jc_fail(p, "bad escape");
      }
    } else if (c >= 0x80) {
      if (jc_utf8(p) != 0) return -1;
    } else {
      p->i++;
    }
  }
  return jc_fail(p, "unterminated string");
}

static int jc_value(jc *p);

/* An object or array: cOpen at p->i. */
static int jc_container(jc *p, char cClose) {
  int bObject = cClose == '}';
  if (++p->nDepth > 64) return jc_fail(p, "too deep");
  p->i++;
  jc_ws(p);
  if (p->i < p->n && p->a[p->i] == (unsigned char)cClose) {
    p->i++;
    p->nDepth--;
    return 0;
  }
  for (;;) {
    if (bObject) {
      if (p->i >= p->n || p->a[p->i] != '"') return jc_fail(p, "key expected");
      if (jc_string(p) != 0) return -1;
      jc_ws(p);
      if (p->i >= p->n || p->a[p->i] != ':') return jc_fail(p, "':' expected");
      p->i++;
    }
    if (jc_value(p) != 0) return -1;
    jc_ws(p);
    if (p->i < p->n && p->a[p->i] == ',') {
      p->i++;
      jc_ws(p);
      continue;
    }
    if (p->i < p->n && p->a[p->i] == (unsigned char)cClose) {
      p->i++;
      p->nDepth--;
      return 0;
    }
    return jc_fail(p, "',' or close expected");
  }
}

static int jc_value(jc *p) {
  jc_ws(p);
  if (p->i >= p->n) return jc_fail(p, "value expected");
  switch (p->a[p->i]) {
    case '{': return jc_container(p, '}');
    case '[': return jc_container(p, ']');
    case '"': return jc_string(p);
    case 't': return jc_lit(p, "true");
    case 'f': return jc_lit(p, "false");
    case 'n': return jc_lit(p, "null");
    default: return jc_number(p);
  }
}

int jsoncheck(const char *z, size_t n, char *zErr, size_t nErr) {
  jc p;
  memset(&p, 0, sizeof(p));
  p.a = (const unsigned char *)z;
  p.n = n;
  p.zErr = zErr;
  p.nErr = nErr;
  if (jc_value(&p) != 0) return -1;
  jc_ws(&p);
  if (p.i != n) return jc_fail(&p, "text after the value");
  return 0;
}

int jsoncheck_member(const char *z, const char *zKey, char *zOut, size_t nOut) {
  char zPat[256];
  const char *zHit = z;
  snprintf(zPat, sizeof(zPat), "\"%s\":", zKey);
  /* Depth 1 only: count brackets (outside strings) up to each hit. */
  while ((zHit = strstr(zHit, zPat)) != NULL) {
    int nDepth = 0, bStr = 0;
    for (const char *q = z; q < zHit; q++) {
      if (bStr) {
        if (*q == '\\') q++;
        else if (*q == '"') bStr = 0;
      } else if (*q == '"') {
        bStr = 1;
      } else if (*q == '{' || *q == '[') {
        nDepth++;
      } else if (*q == '}' || *q == ']') {
        nDepth--;
      }
    }
    if (nDepth == 1 && !bStr) {
      const char *v = zHit + strlen(zPat);
      size_t n = 0;
      if (*v == '"') {
        n = 1;
        while (v[n] != 0 && v[n] != '"') n += v[n] == '\\' ? 2 : 1;
        if (v[n] == '"') n++;
      } else {
        n = strcspn(v, ",}]");
      }
      if (n >= nOut) n = nOut - 1;
      memcpy(zOut, v, n);
      zOut[n] = 0;
      return 0;
    }
    zHit++;
  }
  return -1;
}
