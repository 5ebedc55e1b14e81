/*
** clients/cli/width.c — how wide text is on a terminal, and a cell's text
** made ready for an aligned table, as psql's pg_wcsformat() makes it.
**
** Text is UTF-8 (starqd speaks UTF8 only). A character is 2 columns wide
** if East Asian Wide or Fullwidth, 0 if it combines with the one before,
** else 1; the tables below hold the ranges that matter for that, not the
** whole of Unicode's tables. A byte that is not valid UTF-8 counts as one
** column, as libpq counts it.
**
** For a table cell: each newline starts a display line, a tab becomes
** spaces up to the next multiple of 8, a carriage return prints as "\r"
** and another control character as "\xNN": what psql shows.
**
** INTERFACE ROUTINES
**   sq_utf8_decode    one character's code point and length
**   sq_char_width     a code point's columns
**   sq_text_width     a string's columns (newlines not special)
**   sq_cell_format    a cell split into display lines, with the widest
**   sq_cell_free      free those lines
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A range of code points, inclusive. */
typedef struct width_range width_range;
struct width_range {
  unsigned lo;
  unsigned hi;
};

/* Combining marks and other zero-width characters. */
static const width_range width_aZero[] = {
  {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05BF}, {0x05C1, 0x05C2},
  {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A}, {0x064B, 0x065F}, {0x0670, 0x0670},
  {0x06D6, 0x06DC}, {0x06DF, 0x06E4}, {0x06E7, 0x06E8}, {0x06EA, 0x06ED}, {0x0711, 0x0711},
  {0x0730, 0x074A}, {0x0900, 0x0902}, {0x093C, 0x093C}, {0x0941, 0x0948}, {0x094D, 0x094D},
  {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF},
  {0x200B, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x2064}, {0x20D0, 0x20FF}, {0xFE00, 0xFE0F},
  {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF},
};

/* East Asian Wide and Fullwidth characters, emoji presentation. */
static const width_range width_aWide[] = {
  {0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC}, {0x2614, 0x2615},
  {0x2E80, 0x303E}, {0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA000, 0xA4CF},
  {0xA960, 0xA97F}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE10, 0xFE19}, {0xFE30, 0xFE6F},
  {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6}, {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF},
  {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

/* Returns 1 if cp lies in one of the n ranges of a (sorted). */
static int width_in(unsigned cp, const width_range *a, int n) {
  int lo = 0, hi = n - 1;
  if (cp < a[0].lo || cp > a[n - 1].hi) return 0;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (cp > a[mid].hi) lo = mid + 1;
    else if (cp < a[mid].lo) hi = mid - 1;
    else return 1;
  }
  return 0;
}

/* Returns the columns code point cp takes: 0, 1 or 2; -1 for a control
** character, which the caller escapes. */
int sq_char_width(unsigned cp) {
  if (cp == 0) return 0;
  if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) return -1;
  if (width_in(cp, width_aZero, (int)(sizeof(width_aZero) / sizeof(width_aZero[0])))) return 0;
  if (width_in(cp, width_aWide, (int)(sizeof(width_aWide) / sizeof(width_aWide[0])))) return 2;
  return 1;
}

/* Decodes the UTF-8 character at z (at most n bytes, n >= 1) into *pcp.
** Returns its length in bytes; a byte that does not start a valid
** sequence is a character of its own (length 1, *pcp the byte). */
int sq_utf8_decode(const char *z, size_t n, unsigned *pcp) {
  const unsigned char *u = (const unsigned char *)z;
  unsigned cp;
  int nLen;
  if (u[0] < 0x80) {
    *pcp = u[0];
    return 1;
  }
  if (u[0] >= 0xC2 && u[0] <= 0xDF) {
    nLen = 2;
    cp = u[0] & 0x1F;
  } else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
    nLen = 3;
    cp = u[0] & 0x0F;
  } else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
    nLen = 4;
    cp = u[0] & 0x07;
  } else {
    *pcp = u[0];
    return 1;
  }
  if ((size_t)nLen > n) {
    *pcp = u[0];
    return 1;
  }
  for (int i = 1; i < nLen; i++) {
    if ((u[i] & 0xC0) != 0x80) {
      *pcp = u[0];
      return 1;
    }
    cp = (cp << 6) | (u[i] & 0x3F);
  }
  /* Overlong forms, surrogates and code points past U+10FFFF. */
  if ((nLen == 3 && cp < 0x800) || (nLen == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF)) {
    *pcp = u[0];
    return 1;
  }
  *pcp = cp;
  return nLen;
}

/* Returns the display width of z: control characters count 1, as libpq
** counts them when it places the caret under an error. */
int sq_text_width(const char *z) {
  size_t n = strlen(z), i = 0;
  int nWidth = 0;
  while (i < n) {
    unsigned cp;
    int w;
    i += (size_t)sq_utf8_decode(z + i, n - i, &cp);
    w = sq_char_width(cp);
    nWidth += w < 0 ? 1 : w;
  }
  return nWidth;
}

/* Adds one display line (the nText bytes at zText, nWidth columns) to the
** cell's array. Returns 0, or -1 if out of memory. */
static int width_line_add(sq_line **paLine, int *pnLine, const char *zText, size_t nText,
                          int nWidth) {
  sq_line *aNew = realloc(*paLine, sizeof(sq_line) * (size_t)(*pnLine + 1));
  char *z = malloc(nText + 1);
  if (aNew == NULL || z == NULL) {
    free(z);
    if (aNew != NULL) *paLine = aNew;
    return -1;
  }
  memcpy(z, zText, nText);
  z[nText] = 0;
  aNew[*pnLine].z = z;
  aNew[*pnLine].nWidth = nWidth;
  *paLine = aNew;
  (*pnLine)++;
  return 0;
}

/* Splits cell text z (NULL prints empty) into display lines: *paLine gets
** *pnLine lines (at least one; free with sq_cell_free) and *pnWidth the
** widest line's width. Returns 0, or -1 if out of memory (nothing to
** free). */
int sq_cell_format(const char *z, sq_line **paLine, int *pnLine, int *pnWidth) {
  strbuf line;
  size_t n = z ? strlen(z) : 0, i = 0;
  int nWidth = 0, rc = 0;
  *paLine = NULL;
  *pnLine = 0;
  *pnWidth = 0;
  strbuf_init(&line);
  for (;;) {
    unsigned cp;
    int nLen, w;
    if (i >= n || z[i] == '\n') {
      if (strbuf_error(&line) ||
          width_line_add(paLine, pnLine, strbuf_str(&line), line.n, nWidth) != 0) {
        rc = -1;
        break;
      }
      if (nWidth > *pnWidth) *pnWidth = nWidth;
      if (i >= n) break;
      strbuf_reset(&line);
      nWidth = 0;
      i++;
      continue;
    }
    nLen = sq_utf8_decode(z + i, n - i, &cp);
    w = sq_char_width(cp);
    if (cp == '\t') {
      do {
        strbuf_append(&line, " ", 1);
        nWidth++;
      } while (nWidth % 8 != 0);
    } else if (cp == '\r') {
      strbuf_puts(&line, "\\r");
      nWidth += 2;
    } else if (w < 0) {
      strbuf_printf(&line, "\\x%02X", cp);
      nWidth += 4;
    } else {
      strbuf_append(&line, z + i, (size_t)nLen);
      nWidth += w;
    }
    i += (size_t)nLen;
  }
  strbuf_free(&line);
  if (rc != 0) {
    sq_cell_free(*paLine, *pnLine);
    *paLine = NULL;
    *pnLine = 0;
  }
  return rc;
}

void sq_cell_free(sq_line *aLine, int nLine) {
  for (int i = 0; i < nLine; i++) free(aLine[i].z);
  free(aLine);
}
