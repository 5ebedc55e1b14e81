/*
** tests/xmlcheck.c — the XML well-formedness check of xmlcheck.h: a
** single pass over the bytes with a stack of open element names.
*/
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "xmlcheck.h"

#define XC_DEPTH_MAX 256
#define XC_ATTR_MAX 64

/* The state of one check. */
typedef struct xc xc;
struct xc {
  const char *z;
  size_t n, i;             /* the text, its length, the position */
  char *zErr;
  size_t nErr;
  size_t aiOpen[XC_DEPTH_MAX];   /* where each open element's name starts */
  size_t anOpen[XC_DEPTH_MAX];   /* and its length */
  int nOpen;
};

/* Writes "at byte N: message" and returns -1. */
static int xc_fail(xc *p, const char *zFmt, ...) {
  va_list ap;
  int k = snprintf(p->zErr, p->nErr, "at byte %zu: ", p->i);
  va_start(ap, zFmt);
  if (k >= 0 && (size_t)k < p->nErr) vsnprintf(p->zErr + k, p->nErr - (size_t)k, zFmt, ap);
  va_end(ap);
  return -1;
}

/* Returns 1 if the text at the position starts with zLit. */
static int xc_at(const xc *p, const char *zLit) {
  size_t n = strlen(zLit);
  return p->n - p->i >= n && memcmp(p->z + p->i, zLit, n) == 0;
}

/* Checks that every byte is a character XML allows, in valid UTF-8. */
static int xc_chars(xc *p) {
  const unsigned char *a = (const unsigned char *)p->z;
  for (p->i = 0; p->i < p->n;) {
    unsigned c = a[p->i];
    size_t nSeq = c < 0x80 ? 1 : (c >= 0xc2 && c <= 0xdf) ? 2 : (c >= 0xe0 && c <= 0xef) ? 3
                                                              : (c >= 0xf0 && c <= 0xf4) ? 4 : 0;
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return xc_fail(p, "control character 0x%02x", c);
    if (nSeq == 0 || p->i + nSeq > p->n) return xc_fail(p, "invalid UTF-8");
    for (size_t k = 1; k < nSeq; k++) {
      if ((a[p->i + k] & 0xc0) != 0x80) return xc_fail(p, "invalid UTF-8");
    }
    /* Overlong forms, surrogates and code points past U+10FFFF. */
    if ((c == 0xe0 && a[p->i + 1] < 0xa0) || (c == 0xed && a[p->i + 1] > 0x9f) ||
        (c == 0xf0 && a[p->i + 1] < 0x90) || (c == 0xf4 && a[p->i + 1] > 0x8f)) {
      return xc_fail(p, "invalid UTF-8");
    }
    p->i += nSeq;
  }
  p->i = 0;
  return 0;
}

static int xc_name_start(unsigned char c) { return isalpha(c) || c == '_' || c == ':' || c >= 0x80; }
static int xc_name_char(unsigned char c) { return xc_name_start(c) || isdigit(c) || c == '-' || c == '.'; }

/* Reads a name at the position; returns its length, 0 if there is none. */
static size_t xc_name(xc *p) {
  size_t i0 = p->i;
  if (p->i >= p->n || !xc_name_start((unsigned char)p->z[p->i])) return 0;
  while (p->i < p->n && xc_name_char((unsigned char)p->z[p->i])) p->i++;
  return p->i - i0;
}

/* Skips white space; returns how much. */
static size_t xc_space(xc *p) {
  size_t i0 = p->i;
  while (p->i < p->n && strchr(" \t\r\n", p->z[p->i]) != NULL && p->z[p->i] != 0) p->i++;
  return p->i - i0;
}

/* Checks the reference at '&': a predefined entity or a character
** reference. */
static int xc_ref(xc *p) {
  static const char *const azEnt[] = {"amp;", "lt;", "gt;", "quot;", "apos;"};
  size_t i0 = p->i++;
  if (xc_at(p, "#x")) {
    size_t iDigit = p->i += 2;
    while (p->i < p->n && isxdigit((unsigned char)p->z[p->i])) p->i++;
    if (p->i == iDigit || !xc_at(p, ";")) return (p->i = i0, xc_fail(p, "bad character reference"));
    p->i++;
    return 0;
  }
  if (xc_at(p, "#")) {
    size_t iDigit = ++p->i;
    while (p->i < p->n && isdigit((unsigned char)p->z[p->i])) p->i++;
    if (p->i == iDigit || !xc_at(p, ";")) return (p->i = i0, xc_fail(p, "bad character reference"));
    p->i++;
    return 0;
  }
  for (size_t k = 0; k < sizeof(azEnt) / sizeof(azEnt[0]); k++) {
    if (xc_at(p, azEnt[k])) {
      p->i += strlen(azEnt[k]);
      return 0;
    }
  }
  p->i = i0;
  return xc_fail(p, "'&' that starts no known entity");
}

/* Checks character data up to the next '<'. */
static int xc_text(xc *p) {
  while (p->i < p->n && p->z[p->i] != '<') {
    if (p->z[p->i] == '&') {
      if (xc_ref(p) != 0) return -1;
    } else if (xc_at(p, "]]>")) {
      return xc_fail(p, "\"]]>\" in text");
    } else {
      p->i++;
    }
  }
  return 0;
}

/* Skips past the first zEnd, or fails naming zWhat. */
static int xc_skip_to(xc *p, const char *zEnd, const char *zWhat) {
  const char *zHit = memmem(p->z + p->i, p->n - p->i, zEnd, strlen(zEnd));
  if (zHit == NULL) return xc_fail(p, "%s not closed", zWhat);
  p->i = (size_t)(zHit - p->z) + strlen(zEnd);
  return 0;
}

/* Checks a comment, a processing instruction or CDATA at '<'. Returns 1
** if there was none there, 0 if one was checked, -1 if it was bad. */
static int xc_misc(xc *p, int bInElement) {
  if (xc_at(p, "<!--")) {
    size_t i0 = p->i += 4;
    if (xc_skip_to(p, "-->", "comment") != 0) return -1;
    if (memmem(p->z + i0, p->i - 3 - i0, "--", 2) != NULL) return xc_fail(p, "\"--\" inside a comment");
    return 0;
  }
  if (xc_at(p, "<?")) {
    p->i += 2;
    if (xc_name(p) == 0) return xc_fail(p, "processing instruction without a target");
    return xc_skip_to(p, "?>", "processing instruction");
  }
  if (bInElement && xc_at(p, "<![CDATA[")) {
    p->i += 9;
    return xc_skip_to(p, "]]>", "CDATA section");
  }
  if (xc_at(p, "<!")) return xc_fail(p, "declarations (DOCTYPE) are not accepted");
  return 1;
}

/* Checks a start tag at '<'. Sets *pbEmpty for "<x/>". */
static int xc_start_tag(xc *p, int *pbEmpty) {
  size_t aiAttr[XC_ATTR_MAX], anAttr[XC_ATTR_MAX], iName, nName;
  int nAttr = 0;
  p->i++;
  iName = p->i;
  if ((nName = xc_name(p)) == 0) return xc_fail(p, "'<' not followed by a name");
  for (;;) {
    size_t nSpace = xc_space(p), iAttr = p->i, nA;
    char q;
    if (xc_at(p, ">") || xc_at(p, "/>")) {
      *pbEmpty = xc_at(p, "/>");
      p->i += *pbEmpty ? 2 : 1;
      break;
    }
    if (nSpace == 0) return xc_fail(p, "expected white space, '>' or '/>' in a tag");
    if ((nA = xc_name(p)) == 0) return xc_fail(p, "expected an attribute name");
    for (int k = 0; k < nAttr; k++) {
      if (anAttr[k] == nA && memcmp(p->z + aiAttr[k], p->z + iAttr, nA) == 0) {
        return xc_fail(p, "attribute %.*s given twice", (int)nA, p->z + iAttr);
      }
    }
    if (nAttr == XC_ATTR_MAX) return xc_fail(p, "too many attributes for this checker");
    aiAttr[nAttr] = iAttr;
    anAttr[nAttr++] = nA;
    xc_space(p);
    if (!xc_at(p, "=")) return xc_fail(p, "expected '=' after an attribute name");
    p->i++;
    xc_space(p);
    if (!xc_at(p, "\"") && !xc_at(p, "'")) return xc_fail(p, "attribute value not quoted");
    q = p->z[p->i++];
    while (p->i < p->n && p->z[p->i] != q) {
      if (p->z[p->i] == '<') return xc_fail(p, "'<' in an attribute value");
      if (p->z[p->i] == '&') {
        if (xc_ref(p) != 0) return -1;
      } else {
        p->i++;
      }
    }
    if (p->i >= p->n) return xc_fail(p, "attribute value not closed");
    p->i++;
  }
  if (!*pbEmpty) {
    if (p->nOpen == XC_DEPTH_MAX) return xc_fail(p, "nested too deep for this checker");
    p->aiOpen[p->nOpen] = iName;
    p->anOpen[p->nOpen++] = nName;
  }
  return 0;
}

/* Checks an end tag at "</", which must close the innermost element. */
static int xc_end_tag(xc *p) {
  size_t iName, nName;
  p->i += 2;
  iName = p->i;
  if ((nName = xc_name(p)) == 0) return xc_fail(p, "'</' not followed by a name");
  xc_space(p);
  if (!xc_at(p, ">")) return xc_fail(p, "expected '>' to end </%.*s", (int)nName, p->z + iName);
  p->i++;
  if (p->nOpen == 0) return xc_fail(p, "</%.*s> closes nothing", (int)nName, p->z + iName);
  p->nOpen--;
  if (p->anOpen[p->nOpen] != nName || memcmp(p->z + p->aiOpen[p->nOpen], p->z + iName, nName) != 0) {
    return xc_fail(p, "</%.*s> closes <%.*s>", (int)nName, p->z + iName, (int)p->anOpen[p->nOpen],
                   p->z + p->aiOpen[p->nOpen]);
  }
  return 0;
}

int xmlcheck(const char *z, size_t n, char *zErr, size_t nErr) {
  xc s;
  int bRootDone = 0;
  memset(&s, 0, sizeof(s));
  s.z = z;
  s.n = n;
  s.zErr = zErr;
  s.nErr = nErr;
  if (xc_chars(&s) != 0) return -1;
  if (xc_at(&s, "\xef\xbb\xbf")) s.i += 3;   /* a byte-order mark */
  while (s.i < s.n) {
    int rc;
    if (s.nOpen > 0 && s.z[s.i] != '<') {
      if (xc_text(&s) != 0) return -1;
      continue;
    }
    if (s.nOpen == 0 && xc_space(&s) > 0) continue;
    if (s.z[s.i] != '<') return xc_fail(&s, "text outside the root element");
    if ((rc = xc_misc(&s, s.nOpen > 0)) <= 0) {
      if (rc < 0) return -1;
      continue;
    }
    if (xc_at(&s, "</")) {
      if (xc_end_tag(&s) != 0) return -1;
      bRootDone |= s.nOpen == 0;
    } else {
      int bEmpty = 0;
      if (bRootDone && s.nOpen == 0) return xc_fail(&s, "a second root element");
      if (xc_start_tag(&s, &bEmpty) != 0) return -1;
      bRootDone |= bEmpty && s.nOpen == 0;
    }
  }
  if (s.nOpen > 0) {
    return xc_fail(&s, "<%.*s> not closed at the end", (int)s.anOpen[s.nOpen - 1], s.z + s.aiOpen[s.nOpen - 1]);
  }
  if (!bRootDone) return xc_fail(&s, "no root element");
  return 0;
}
