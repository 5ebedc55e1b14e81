/*
** common/strbuf.c — the growable string of strbuf.h.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

void strbuf_init(strbuf *s) { memset(s, 0, sizeof(*s)); }

void strbuf_free(strbuf *s) {
  free(s->z);
  memset(s, 0, sizeof(*s));
}

void strbuf_reset(strbuf *s) {
  s->n = 0;
  s->bOom = 0;
  if (s->z != NULL) s->z[0] = 0;
}

/* Makes room for n more bytes and the NUL. Returns 0, or -1 (sticky). */
static int strbuf_grow(strbuf *s, size_t n) {
  size_t nNeed;
  char *zNew;
  if (s->bOom) return -1;
  nNeed = s->n + n + 1;
  if (nNeed < s->n) goto oom;
  if (nNeed <= s->nAlloc) return 0;
  size_t nNew = s->nAlloc > 0 ? s->nAlloc : 256;
  while (nNew < nNeed) {
    if (nNew > ((size_t)-1) / 2) goto oom;
    nNew *= 2;
  }
  zNew = realloc(s->z, nNew);
  if (zNew == NULL) goto oom;
  s->z = zNew;
  s->nAlloc = nNew;
  return 0;
oom:
  s->bOom = 1;
  return -1;
}

void strbuf_append(strbuf *s, const char *z, size_t n) {
  if (strbuf_grow(s, n) != 0) return;
  memcpy(s->z + s->n, z, n);
  s->n += n;
  s->z[s->n] = 0;
}

void strbuf_puts(strbuf *s, const char *z) { strbuf_append(s, z, strlen(z)); }

void strbuf_vprintf(strbuf *s, const char *zFmt, va_list ap) {
  va_list ap2;
  int n;
  va_copy(ap2, ap);
  n = vsnprintf(NULL, 0, zFmt, ap2);
  va_end(ap2);
  if (n < 0) {
    s->bOom = 1;
    return;
  }
  if (strbuf_grow(s, (size_t)n) != 0) return;
  vsnprintf(s->z + s->n, (size_t)n + 1, zFmt, ap);
  s->n += (size_t)n;
}

void strbuf_printf(strbuf *s, const char *zFmt, ...) {
  va_list ap;
  va_start(ap, zFmt);
  strbuf_vprintf(s, zFmt, ap);
  va_end(ap);
}

/* Finds the fewest significant digits that read back as v, then lays
** them out in plain notation when the decimal exponent is in -4..14 and
** in scientific notation otherwise, as PostgreSQL and JavaScript do: %g
** alone would write 30 as "3e+01" at one digit of precision. */
void strbuf_double(strbuf *s, double v) {
  char z[40], aDig[20];
  const char *p = z;
  int nDig = 0, iExp;
  for (int n = 1; n <= 17; n++) {
    snprintf(z, sizeof(z), "%.*e", n - 1, v);
    if (strtod(z, NULL) == v) break;
  }
  if (*p == '-') {
    strbuf_append(s, "-", 1);
    p++;
  }
  for (; *p != 0 && *p != 'e'; p++) {
    if (*p != '.' && nDig < (int)sizeof(aDig)) aDig[nDig++] = *p;
  }
  iExp = *p == 'e' ? atoi(p + 1) : 0;
  while (nDig > 1 && aDig[nDig - 1] == '0') nDig--;
  if (iExp < -4 || iExp >= 15) {
    strbuf_append(s, aDig, 1);
    if (nDig > 1) {
      strbuf_append(s, ".", 1);
      strbuf_append(s, aDig + 1, (size_t)nDig - 1);
    }
    strbuf_printf(s, "e%c%02d", iExp < 0 ? '-' : '+', iExp < 0 ? -iExp : iExp);
  } else if (iExp < 0) {
    strbuf_append(s, "0.", 2);
    strbuf_repeat(s, '0', (size_t)(-iExp - 1));
    strbuf_append(s, aDig, (size_t)nDig);
  } else {
    for (int i = 0; i <= iExp; i++) strbuf_append(s, i < nDig ? &aDig[i] : "0", 1);
    if (nDig > iExp + 1) {
      strbuf_append(s, ".", 1);
      strbuf_append(s, aDig + iExp + 1, (size_t)(nDig - iExp - 1));
    }
  }
}

void strbuf_repeat(strbuf *s, char c, size_t n) {
  if (strbuf_grow(s, n) != 0) return;
  memset(s->z + s->n, c, n);
  s->n += n;
  s->z[s->n] = 0;
}

const char *strbuf_str(const strbuf *s) { return s->z != NULL ? s->z : ""; }

char *strbuf_take(strbuf *s) {
  char *z = NULL;
  if (!s->bOom) z = s->z != NULL ? s->z : strdup("");
  else free(s->z);
  memset(s, 0, sizeof(*s));
  return z;
}
