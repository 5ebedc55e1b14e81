/*
** parser/ast.c — what every constructor of the parse tree needs: the
** parse's errors (42601 syntax, 53200, 0A000 for what is refused before a
** tree is built), arena memory, the text of tokens (identifiers folded or
** dequoted, strings unquoted and their escapes decoded), and the lists the
** grammar grows.
**
** The constructors themselves are by concept: expressions in ast-expr.c,
** type names in ast-type.c, queries in ast-select.c, statements in
** stmt.c, stmt-copy.c and stmt-session.c. The driver that feeds the
** lexer's tokens to the lemon engine is parser.c. Nothing here knows the
** catalog: whether a table, column or function exists is the binder's
** question (planner/bind.h).
**
** Every constructor returns NULL (or a zero value) as soon as an error is
** recorded, so an action never needs to test its children (parseInt.h).
**
** INTERFACE ROUTINES (declared in parseInt.h)
**   sql__error_*        42601 syntax errors, 53200
**   sql_unsupported, sql_unsupported_refs   0A000 at parse time
**   sql__alloc, sql__grow                  arena memory for the parser
**   sql__name_text, sql__string_text, sql__span_text   token text
**   sql_*_append, sql_expr_list_prepend, sql_expr_list3, sql_name_list_at
*/
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/value.h"
#include "parser/parse.h"
#include "parseInt.h"

/* ---- errors and memory ---------------------------------------------------- */

/* Longest piece of text quoted in an "at or near" message; PostgreSQL
** quotes the whole token, which for a runaway string is the whole rest of
** the input. */
#define SQL_NEAR_MAX 128

/* Returns how many bytes of z[0..n) to quote: at most SQL_NEAR_MAX, cut
** at a UTF-8 character boundary. */
int sql__near_len(const char *z, int n) {
  if (n <= SQL_NEAR_MAX) return n;
  n = SQL_NEAR_MAX;
  while (n > 0 && ((unsigned char)z[n] & 0xC0) == 0x80) n--;
  return n;
}

void sql__error_syntax(sql_parse_ctx *p, sql_token t) {
  if (t.n == 0) {
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, sql_token_offset(p, t),
                  "syntax error at end of input");
  } else {
    sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, sql_token_offset(p, t),
                  "syntax error at or near \"%.*s\"", sql__near_len(t.z, t.n), t.z);
  }
}

void sql__error_oom(sql_parse_ctx *p) {
  sql_error_set(p->pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
}

/* Returns n zeroed bytes from the parse's arena, or NULL after recording
** 53200. */
void *sql__alloc(sql_parse_ctx *p, size_t n) {
  void *v = arena_alloc(p->pArena, n);
  if (v == NULL) sql__error_oom(p);
  return v;
}

/* Makes room for one more element in the array *pa of *pnAlloc elements
** of size sz, n of them in use, by doubling it in the arena (the old copy
** stays there until the arena dies). Returns 0, or -1 if memory ran out. */
int sql__grow(sql_parse_ctx *p, void **pa, int *pnAlloc, int n, size_t sz) {
  void *aNew;
  int nNew;
  if (n < *pnAlloc) return 0;
  nNew = *pnAlloc ? *pnAlloc * 2 : 4;
  aNew = sql__alloc(p, (size_t)nNew * sz);
  if (aNew == NULL) return -1;
  if (n > 0) memcpy(aNew, *pa, (size_t)n * sz);
  *pa = aNew;
  *pnAlloc = nNew;
  return 0;
}

/* Writes keyword t in upper case into z (at least 24 bytes) and returns z. */
static const char *sql_upper(sql_token t, char *z) {
  int n = t.n < 23 ? t.n : 23;
  for (int i = 0; i < n; i++) {
    char c = t.z[i];
    z[i] = (c >= 'a' && c <= 'z') ? (char)(c - ('a' - 'A')) : c;
  }
  z[n] = 0;
  return z;
}

/* What is refused before a tree is built: statements starq will never run
** (INSERT, ...), constraints it does not keep, and the few constructs
** PostgreSQL itself treats as outside plain SQL. What parses into a tree
** is refused later, by the binder (planner/bind.h). */
void *sql_unsupported(sql_parse_ctx *p, sql_token t) {
  char zKw[24];
  const char *zMsg;
  if (sql_parse_failed(p)) return NULL;
  switch (sql__keyword_code(t.z, t.n)) {
    case TK_INSERT: zMsg = "INSERT is not supported: starq loads data with COPY"; break;
    case TK_UPDATE:
    case TK_DELETE:
    case TK_TRUNCATE:
      zMsg = "%s is not supported: starq loads tables with COPY and removes them with DROP TABLE";
      break;
    case TK_ALTER: zMsg = "ALTER is not supported: drop the table and create it again"; break;
    case TK_UNIQUE:
    case TK_CHECK: zMsg = "%s constraints are not supported"; break;
    case TK_DEFAULT: zMsg = "column DEFAULT values are not supported"; break;
    case TK_TREAT: zMsg = "TREAT is not supported"; break;
    case TK_PROGRAM: zMsg = "COPY ... PROGRAM is not supported: starq reads no commands"; break;
    case TK_LOCAL: zMsg = "SET LOCAL is not supported yet"; break;
    case TK_CHAIN: zMsg = "AND CHAIN is not supported yet"; break;
    case TK_INTERVAL: zMsg = "SET TIME ZONE INTERVAL is not supported: give the zone's name"; break;
    default:
      if (t.n > 1 && t.z[1] == '\'') {
        zMsg = "bit-string constants are not supported";
      } else if ((t.z[0] == 'u' || t.z[0] == 'U') && t.n > 1 && t.z[1] == '&') {
        zMsg = "Unicode escapes (U&) are not supported: use E'\\u...' strings";
      } else if (t.z[0] == '.') {
        zMsg = "field selection (x).f is not supported";
      } else {
        zMsg = "%s is not supported";
      }
      break;
  }
  /* Each message has at most one %s, the keyword. */
  sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, sql_token_offset(p, t), zMsg,
                sql_upper(t, zKw));
  return NULL;
}

sql_expr *sql_unsupported_refs(sql_parse_ctx *p, sql_token t) {
  const char *z;
  if (sql_parse_failed(p)) return NULL;
  z = sql__span_text(p, t);
  if (z == NULL) return NULL;
  sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, sql_token_offset(p, t),
                "cross-database references are not implemented: %s", z);
  return NULL;
}

/* ---- names and text ---------------------------------------------------- */

/* Returns identifier t as an arena string: a "quoted" one without its
** quotes and with "" turned into ", any other folded to lower case (ASCII
** letters only, as PostgreSQL does for UTF-8). NULL if memory ran out. */
char *sql__name_text(sql_parse_ctx *p, sql_token t) {
  char *z = sql__alloc(p, (size_t)t.n + 1);
  int j = 0;
  if (z == NULL) return NULL;
  if (t.z[0] == '"') {
    for (int i = 1; i < t.n - 1; i++) {
      z[j++] = t.z[i];
      if (t.z[i] == '"') i++;
    }
  } else {
    for (int i = 0; i < t.n; i++) {
      char c = t.z[i];
      z[j++] = (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : c;
    }
  }
  z[j] = 0;
  return z;
}

/* Returns the value of hex digit c, or -1. */
static int sql_hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Appends code point c as UTF-8 to z at *pj. */
static void sql_utf8_put(char *z, int *pj, unsigned c) {
  int j = *pj;
  if (c < 0x80) {
    z[j++] = (char)c;
  } else if (c < 0x800) {
    z[j++] = (char)(0xC0 | (c >> 6));
    z[j++] = (char)(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    z[j++] = (char)(0xE0 | (c >> 12));
    z[j++] = (char)(0x80 | ((c >> 6) & 0x3F));
    z[j++] = (char)(0x80 | (c & 0x3F));
  } else {
    z[j++] = (char)(0xF0 | (c >> 18));
    z[j++] = (char)(0x80 | ((c >> 12) & 0x3F));
    z[j++] = (char)(0x80 | ((c >> 6) & 0x3F));
    z[j++] = (char)(0x80 | (c & 0x3F));
  }
  *pj = j;
}

/* Reads \u (nDigit 4) or \U (8) hex digits at z into *pc; returns how many
** bytes were read, or 0 if they are not all there. */
static int sql_unicode_digits(const char *z, int nDigit, unsigned *pc) {
  unsigned c = 0;
  for (int i = 0; i < nDigit; i++) {
    int h = sql_hex(z[i]);
    if (h < 0) return 0;
    c = c * 16 + (unsigned)h;
  }
  *pc = c;
  return nDigit;
}

/* Decodes the body of E'...' (z[0..n), between the quotes) into zOut, as
** PostgreSQL's scanner does: \b \f \n \r \t, \ooo octal, \xhh hex,
** \uXXXX and \UXXXXXXXX code points (a surrogate pair makes one), any
** other \c is c; '' is '. Returns the length written, or -1 with the
** error recorded at iOffset. */
static int sql_escape_decode(sql_parse_ctx *p, const char *z, int n, char *zOut, int iOffset) {
  int j = 0;
  for (int i = 0; i < n; i++) {
    char c = z[i];
    if (c == '\'') {
      zOut[j++] = '\'';
      i++;
      continue;
    }
    if (c != '\\' || i + 1 >= n) {
      zOut[j++] = c;
      continue;
    }
    c = z[++i];
    switch (c) {
      case 'b': zOut[j++] = '\b'; break;
      case 'f': zOut[j++] = '\f'; break;
      case 'n': zOut[j++] = '\n'; break;
      case 'r': zOut[j++] = '\r'; break;
      case 't': zOut[j++] = '\t'; break;
      case 'x': {
        int v = 0, k = 0;
        while (k < 2 && i + 1 < n && sql_hex(z[i + 1]) >= 0) {
          v = v * 16 + sql_hex(z[++i]);
          k++;
        }
        zOut[j++] = k > 0 ? (char)v : 'x';
        break;
      }
      case 'u':
      case 'U': {
        unsigned cp, lo;
        int nDigit = c == 'u' ? 4 : 8;
        if (i + nDigit >= n || sql_unicode_digits(z + i + 1, nDigit, &cp) == 0) goto invalid_escape;
        i += nDigit;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          /* A high surrogate must be followed by \u of a low one. */
          if (i + 6 >= n || z[i + 1] != '\\' || z[i + 2] != 'u' ||
              sql_unicode_digits(z + i + 3, 4, &lo) == 0 || lo < 0xDC00 || lo > 0xDFFF) {
            goto invalid_pair;
          }
          i += 6;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          goto invalid_pair;
        }
        if (cp == 0 || cp > 0x10FFFF) goto invalid_escape;
        sql_utf8_put(zOut, &j, cp);
        break;
      }
      default:
        if (c >= '0' && c <= '7') {
          int v = c - '0', k = 1;
          while (k < 3 && i + 1 < n && z[i + 1] >= '0' && z[i + 1] <= '7') {
            v = v * 8 + (z[++i] - '0');
            k++;
          }
          zOut[j++] = (char)v;
        } else {
          zOut[j++] = c;
        }
        break;
    }
  }
  return j;
invalid_escape:
  sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, iOffset, "invalid Unicode escape value");
  return -1;
invalid_pair:
  sql_error_set(p->pErr, SQLSTATE_SYNTAX_ERROR, iOffset, "invalid Unicode surrogate pair");
  return -1;
}

/* Checks that z[0..n), a decoded escape string, is UTF-8 without a NUL,
** as PostgreSQL's server encoding requires; records 22021 otherwise. */
static int sql_utf8_check(sql_parse_ctx *p, const char *z, int n, int iOffset) {
  for (int i = 0; i < n;) {
    int k = value_utf8_len((const unsigned char *)z + i, (size_t)(n - i));
    if (k == 0) {
      sql_error_set(p->pErr, "22021", iOffset,
                    "invalid byte sequence for encoding \"UTF8\": 0x%02x", (unsigned char)z[i]);
      return -1;
    }
    i += k;
  }
  return 0;
}

/* Returns string literal t as an arena string: '...' without its quotes
** and with '' turned into ', E'...' with its escapes decoded, $tag$...$tag$
** as written between the tags. NULL after an error. */
char *sql__string_text(sql_parse_ctx *p, sql_token t) {
  char *z = sql__alloc(p, (size_t)t.n + 1);
  int j = 0;
  if (z == NULL) return NULL;
  if (t.z[0] == '$') {
    int nTag = sql__dollar_tag_len(t.z);
    j = t.n - 2 * nTag;
    memcpy(z, t.z + nTag, (size_t)j);
  } else if (t.z[0] == '\'') {
    for (int i = 1; i < t.n - 1; i++) {
      z[j++] = t.z[i];
      if (t.z[i] == '\'') i++;
    }
  } else {
    /* E'...': the escapes are decoded between the quotes. */
    j = sql_escape_decode(p, t.z + 2, t.n - 3, z, sql_token_offset(p, t));
    if (j < 0 || sql_utf8_check(p, z, j, sql_token_offset(p, t)) != 0) return NULL;
  }
  z[j] = 0;
  return z;
}

/* Returns the text of a span of tokens (a dotted name, a two-word type
** name, a signed number): identifiers as sql__name_text(), strings as
** sql__string_text(), other tokens as written, one space between two
** words and none elsewhere. */
char *sql__span_text(sql_parse_ctx *p, sql_token t) {
  char *z = sql__alloc(p, (size_t)t.n + 1);
  int i = 0, j = 0, bPrevWord = 0;
  if (z == NULL) return NULL;
  while (i < t.n) {
    int eType, n = sql__token_get(t.z + i, &eType);
    sql_token u = {t.z + i, n};
    const char *zPart = NULL;
    int bWord = 0;
    if (eType == TK_SPACE) {
      i += n;
      continue;
    }
    if (eType == TK_STRING) {
      zPart = sql__string_text(p, u);
    } else if (eType != TK_INTEGER && eType != TK_DECIMAL && sql__word_start(t.z[i])) {
      zPart = sql__name_text(p, u);
      bWord = 1;
    } else {
      memcpy(z + j, u.z, (size_t)n);
      j += n;
    }
    if (zPart != NULL) {
      size_t nPart = strlen(zPart);
      if (bWord && bPrevWord) z[j++] = ' ';
      memcpy(z + j, zPart, nPart);
      j += (int)nPart;
    }
    bPrevWord = bWord;
    i += n;
  }
  z[j] = 0;
  return sql_parse_failed(p) ? NULL : z;
}

/* ---- lists -------------------------------------------------------------- */

/* Returns pList (a new list if NULL) with one more zeroed item, or NULL. */
static sql_expr_item *sql_expr_list_add(sql_parse_ctx *p, sql_expr_list **ppList) {
  sql_expr_list *pList = *ppList;
  if (pList == NULL) {
    pList = sql__alloc(p, sizeof(*pList));
    if (pList == NULL) return NULL;
    *ppList = pList;
  }
  if (sql__grow(p, (void **)&pList->a, &pList->nAlloc, pList->n, sizeof(pList->a[0])) != 0) {
    return NULL;
  }
  return &pList->a[pList->n++];
}

sql_expr_list *sql_expr_list_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pExpr) {
  sql_expr_item *pItem;
  if (sql_parse_failed(p)) return NULL;
  pItem = sql_expr_list_add(p, &pList);
  if (pItem == NULL) return NULL;
  pItem->pExpr = pExpr;
  return pList;
}

sql_expr_list *sql_expr_list_prepend(sql_parse_ctx *p, sql_expr *pExpr, sql_expr_list *pList) {
  sql_expr_list *pNew = sql_expr_list_append(p, NULL, pExpr);
  for (int i = 0; pNew != NULL && i < pList->n; i++) {
    pNew = sql_expr_list_append(p, pNew, pList->a[i].pExpr);
  }
  return pNew;
}

sql_expr_list *sql_expr_list3(sql_parse_ctx *p, sql_expr *a, sql_expr *b, sql_expr *c) {
  return sql_expr_list_append(p, sql_expr_list_append(p, sql_expr_list_append(p, NULL, a), b), c);
}

sql_expr_list *sql_case_when_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pWhen,
                                    sql_expr *pThen) {
  return sql_expr_list_append(p, sql_expr_list_append(p, pList, pWhen), pThen);
}

sql_expr_list *sql_select_item_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pExpr,
                                      sql_token tAlias) {
  sql_expr_item *pItem;
  if (sql_parse_failed(p)) return NULL;
  pItem = sql_expr_list_add(p, &pList);
  if (pItem == NULL) return NULL;
  pItem->pExpr = pExpr;
  if (tAlias.z != NULL) {
    pItem->zAlias = sql__name_text(p, tAlias);
    pItem->iAliasOffset = sql_token_offset(p, tAlias);
  }
  return sql_parse_failed(p) ? NULL : pList;
}

sql_expr_list *sql_order_append(sql_parse_ctx *p, sql_expr_list *pList, sql_expr *pExpr,
                                int bDesc, sql_nulls eNulls) {
  sql_expr_item *pItem;
  if (sql_parse_failed(p)) return NULL;
  pItem = sql_expr_list_add(p, &pList);
  if (pItem == NULL) return NULL;
  pItem->pExpr = pExpr;
  pItem->bDesc = bDesc != 0;
  pItem->eNulls = eNulls;
  return pList;
}

/* Appends zText (NULL: memory ran out) to pList. */
static sql_name_list *sql_name_list_add(sql_parse_ctx *p, sql_name_list *pList, const char *zText) {
  if (sql_parse_failed(p)) return NULL;
  if (pList == NULL && (pList = sql__alloc(p, sizeof(*pList))) == NULL) return NULL;
  if (sql__grow(p, (void **)&pList->az, &pList->nAlloc, pList->n, sizeof(pList->az[0])) != 0) {
    return NULL;
  }
  pList->az[pList->n++] = zText;
  return sql_parse_failed(p) ? NULL : pList;
}

sql_name_list *sql_name_list_append(sql_parse_ctx *p, sql_name_list *pList, sql_token tName) {
  if (sql_parse_failed(p)) return NULL;
  return sql_name_list_add(p, pList, sql__name_text(p, tName));
}

sql_name_list *sql_value_list_append(sql_parse_ctx *p, sql_name_list *pList, sql_token t) {
  if (sql_parse_failed(p)) return NULL;
  return sql_name_list_add(p, pList, sql__span_text(p, t));
}

sql_name_list *sql_name_list_at(sql_parse_ctx *p, sql_name_list *pList, sql_token t) {
  if (sql_parse_failed(p)) return NULL;
  pList->iOffset = sql_token_offset(p, t);
  return pList;
}
