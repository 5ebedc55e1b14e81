/*
** parser/tokenize.c — the SQL lexer: cuts text into tokens the way
** PostgreSQL's scan.l does, by hand, as SQLite's tokenize.c does.
**
** The first byte of a token picks a character class from a 256-entry
** table and a switch on the class finds the token's end and type. Words
** are then looked up in the keyword table (sorted, binary search on the
** lower-cased word). The lexer allocates nothing and never looks past the
** terminating NUL; it does not judge tokens beyond their shape: an
** unterminated string or comment comes back as TK_ILLEGAL running to the
** end of the text, and the driver (parser.c) turns that into PostgreSQL's
** message. Identifiers are returned as written: folding and dequoting are
** the constructors' job.
**
** Accepted spellings, as PostgreSQL with standard_conforming_strings:
**   'it''s'          string (no backslash escapes; E'' is not supported)
**   "Mixed ""x"""    quoted identifier
**   42  1.5  .5  1.  1e10  1.5E-3   numbers; 1e and 123abc are errors
**   -- comment       to the end of the line
**   / * ... * /      comments, nested as in PostgreSQL
**   <> != <= >= ::   the two-byte operators
**
** INTERFACE ROUTINES
**   sql_token_next       one token and its class, for tools (parser.h)
**   sql__token_get       one token and its TK_ code, for the parser
**   sql__keyword_code    the TK_ code of a word
**   sql__keyword_check   the keyword table is sorted (for the tests)
**   sql__word_start      whether a byte starts a word
*/
#include <string.h>

#include "parser/parse.h"
#include "parseInt.h"

/* ---- character classes ------------------------------------------------------- */

enum {
  CC_ILLEGAL = 0,  /* starts no token */
  CC_SPACE,        /* blank, tab, newline, CR, FF, VT */
  CC_ID,           /* letter, '_' or a byte >= 0x80: starts a word */
  CC_DIGIT,
  CC_DOLLAR,       /* '$': inside words, or $n, a parameter marker */
  CC_QUOTE,        /* ' */
  CC_DQUOTE,       /* " */
  CC_MINUS,        /* - or -- comment */
  CC_SLASH,        /* / or a comment */
  CC_DOT,          /* . or a number like .5 */
  CC_LT,           /* < <= <> */
  CC_GT,           /* > >= */
  CC_EQ,           /* = */
  CC_BANG,         /* != */
  CC_COLON,        /* :: */
  CC_LP, CC_RP, CC_COMMA, CC_SEMI, CC_PLUS, CC_STAR, CC_PERCENT,
  CC_NUL,          /* the end of the text */
};

/* The class of every byte; bytes >= 0x80 are parts of UTF-8 letters. */
static const unsigned char aiClass[256] = {
/*       x0  x1  x2  x3  x4  x5  x6  x7  x8  x9  xa  xb  xc  xd  xe  xf */
/* 0x */ 22,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  1,  1,  0,  0,
/* 1x */  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
/* 2x */  1, 13,  6,  0,  4, 21,  0,  5, 15, 16, 20, 19, 17,  7,  9,  8,
/* 3x */  3,  3,  3,  3,  3,  3,  3,  3,  3,  3, 14, 18, 10, 12, 11,  0,
/* 4x */  0,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
/* 5x */  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  0,  0,  0,  0,  2,
/* 6x */  0,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
/* 7x */  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  0,  0,  0,  0,  0,
/* 8x */  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
/* 9x */  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
/* ax */  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
/* bx */  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
/* cx */  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
/* dx */  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
/* ex */  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
/* fx */  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
};

#define sql_class(c) (aiClass[(unsigned char)(c)])

/* Returns 1 if c may continue a word: letters, digits, '_', '$', UTF-8. */
static int sql_is_word_char(char c) {
  int e = sql_class(c);
  return e == CC_ID || e == CC_DIGIT || e == CC_DOLLAR;
}

int sql__word_start(char c) {
  return sql_class(c) == CC_ID || c == '"';
}

static int sql_is_digit(char c) {
  return (unsigned)(c - '0') < 10u;
}

/* ---- keywords ---------------------------------------------------------------- */

/* Every keyword, sorted by name (strcmp order) for the binary search. A
** word not here is an identifier. Which keywords are reserved is the
** grammar's business (%fallback in parse.y), not this table's. */
typedef struct sql_keyword sql_keyword;
struct sql_keyword {
  const char *zName;       /* lower case */
  int eType;               /* TK_ code */
};

static const sql_keyword aKeyword[] = {
  {"abort", TK_ABORT},         {"all", TK_ALL},             {"alter", TK_ALTER},
  {"analyze", TK_ANALYZE},     {"and", TK_AND},             {"as", TK_AS},
  {"asc", TK_ASC},             {"begin", TK_BEGIN},         {"between", TK_BETWEEN},
  {"by", TK_BY},               {"case", TK_CASE},           {"cast", TK_CAST},
  {"char", TK_CHAR},           {"character", TK_CHARACTER}, {"check", TK_CHECK},
  {"commit", TK_COMMIT},       {"constraint", TK_CONSTRAINT}, {"copy", TK_COPY},
  {"create", TK_CREATE},       {"cross", TK_CROSS},         {"default", TK_DEFAULT},
  {"delete", TK_DELETE},       {"desc", TK_DESC},           {"distinct", TK_DISTINCT},
  {"double", TK_DOUBLE},       {"drop", TK_DROP},           {"else", TK_ELSE},
  {"end", TK_END},             {"except", TK_EXCEPT},       {"exists", TK_EXISTS},
  {"explain", TK_EXPLAIN},     {"false", TK_FALSE},         {"fetch", TK_FETCH},
  {"filter", TK_FILTER},       {"first", TK_FIRST},         {"for", TK_FOR},
  {"foreign", TK_FOREIGN},     {"from", TK_FROM},           {"full", TK_FULL},
  {"group", TK_GROUP},         {"having", TK_HAVING},       {"if", TK_IF},
  {"ilike", TK_ILIKE},         {"in", TK_IN},               {"inner", TK_INNER},
  {"insert", TK_INSERT},       {"intersect", TK_INTERSECT}, {"into", TK_INTO},
  {"is", TK_IS},               {"join", TK_JOIN},           {"key", TK_KEY},
  {"last", TK_LAST},           {"lateral", TK_LATERAL},     {"left", TK_LEFT},
  {"like", TK_LIKE},           {"limit", TK_LIMIT},         {"natural", TK_NATURAL},
  {"not", TK_NOT},             {"null", TK_NULL},           {"nulls", TK_NULLS},
  {"offset", TK_OFFSET},       {"on", TK_ON},               {"or", TK_OR},
  {"order", TK_ORDER},         {"over", TK_OVER},           {"precision", TK_PRECISION},
  {"primary", TK_PRIMARY},     {"references", TK_REFERENCES}, {"right", TK_RIGHT},
  {"rollback", TK_ROLLBACK},   {"select", TK_SELECT},       {"set", TK_SET},
  {"show", TK_SHOW},           {"start", TK_START},         {"table", TK_TABLE},
  {"tables", TK_TABLES},       {"then", TK_THEN},           {"to", TK_TO},
  {"transaction", TK_TRANSACTION}, {"true", TK_TRUE},       {"truncate", TK_TRUNCATE},
  {"union", TK_UNION},         {"unique", TK_UNIQUE},       {"update", TK_UPDATE},
  {"using", TK_USING},         {"varying", TK_VARYING},     {"verbose", TK_VERBOSE},
  {"when", TK_WHEN},           {"where", TK_WHERE},         {"window", TK_WINDOW},
  {"with", TK_WITH},           {"work", TK_WORK},
};

#define N_KEYWORD ((int)(sizeof(aKeyword) / sizeof(aKeyword[0])))
#define KEYWORD_LEN_MAX 11       /* "transaction" */

int sql__keyword_code(const char *z, int n) {
  char zLower[KEYWORD_LEN_MAX + 1];
  int lo = 0, hi = N_KEYWORD - 1;
  if (n < 2 || n > KEYWORD_LEN_MAX) return TK_ID;
  for (int i = 0; i < n; i++) {
    char c = z[i];
    zLower[i] = (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : c;
  }
  zLower[n] = 0;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    int c = strcmp(zLower, aKeyword[mid].zName);
    if (c == 0) return aKeyword[mid].eType;
    if (c < 0) hi = mid - 1; else lo = mid + 1;
  }
  return TK_ID;
}

int sql__keyword_check(void) {
  for (int i = 0; i < N_KEYWORD; i++) {
    const char *z = aKeyword[i].zName;
    int n = (int)strlen(z);
    if (i > 0 && strcmp(aKeyword[i - 1].zName, z) >= 0) return i + 1;
    if (n > KEYWORD_LEN_MAX || sql__keyword_code(z, n) != aKeyword[i].eType) return i + 1;
  }
  return 0;
}

/* ---- tokens ------------------------------------------------------------------ */

/* Returns the length of a number starting at z (a digit, or '.' and a
** digit), setting *peType to TK_INTEGER, TK_DECIMAL, or TK_ILLEGAL when a
** letter follows without a space ("123abc", "1e"): PostgreSQL 15 calls
** that trailing junk, and the junk is part of the token it reports. */
static int sql_number_len(const char *z, int *peType) {
  int i = 0;
  *peType = TK_INTEGER;
  while (sql_is_digit(z[i])) i++;
  if (z[i] == '.') {
    i++;
    *peType = TK_DECIMAL;
    while (sql_is_digit(z[i])) i++;
  }
  if (z[i] == 'e' || z[i] == 'E') {
    int j = i + 1;
    if (z[j] == '+' || z[j] == '-') j++;
    if (sql_is_digit(z[j])) {
      while (sql_is_digit(z[j])) j++;
      i = j;
      *peType = TK_DECIMAL;
    } else if (j > i + 1) {
      /* "1e+" with no digits: the junk is through the sign, as in
      ** PostgreSQL's realfail rule. */
      *peType = TK_ILLEGAL;
      return j;
    }
  }
  if (sql_is_word_char(z[i])) {
    while (sql_is_word_char(z[i])) i++;
    *peType = TK_ILLEGAL;
  }
  return i;
}

/* Returns the length of a '...' or "..." token starting at z, doubled
** quotes included, setting *peType to eType, or to TK_ILLEGAL (and the
** length to the end of the text) if the closing quote is missing. */
static int sql_quoted_len(const char *z, int eType, int *peType) {
  char q = z[0];
  int i = 1;
  for (;;) {
    if (z[i] == 0) {
      *peType = TK_ILLEGAL;
      return i;
    }
    if (z[i] == q) {
      if (z[i + 1] != q) break;
      i++;
    }
    i++;
  }
  *peType = eType;
  return i + 1;
}

/* Returns the length of a / * comment * / starting at z, nested comments
** included, or the length to the end of the text with *peType TK_ILLEGAL
** if it is not closed. */
static int sql_comment_len(const char *z, int *peType) {
  int i = 2, nDepth = 1;
  while (z[i] != 0) {
    if (z[i] == '*' && z[i + 1] == '/') {
      i += 2;
      if (--nDepth == 0) {
        *peType = TK_SPACE;
        return i;
      }
    } else if (z[i] == '/' && z[i + 1] == '*') {
      i += 2;
      nDepth++;
    } else {
      i++;
    }
  }
  *peType = TK_ILLEGAL;
  return i;
}

/* Returns the length of the parameter marker $n at z (n a decimal number
** of 1 to 65535, followed by no word character), setting *peType to
** TK_PARAM; else 1, with TK_ILLEGAL (a '$' that starts no marker). */
static int sql_param_len(const char *z, int *peType) {
  int i = 1, n = 0;
  *peType = TK_ILLEGAL;
  while (sql_is_digit(z[i]) && n <= 65535) n = n * 10 + (z[i++] - '0');
  if (i == 1) return 1;
  if (n < 1 || n > 65535 || sql_is_word_char(z[i])) {
    while (sql_is_word_char(z[i])) i++;
    return i;
  }
  *peType = TK_PARAM;
  return i;
}

int sql__token_get(const char *z, int *peType) {
  int i;
  switch (sql_class(z[0])) {
    case CC_NUL:
      *peType = TK_SPACE;
      return 0;
    case CC_SPACE:
      for (i = 1; sql_class(z[i]) == CC_SPACE; i++) {}
      *peType = TK_SPACE;
      return i;
    case CC_ID:
      for (i = 1; sql_is_word_char(z[i]); i++) {}
      *peType = sql__keyword_code(z, i);
      return i;
    case CC_DIGIT:
      return sql_number_len(z, peType);
    case CC_DOLLAR:
      return sql_param_len(z, peType);
    case CC_DOT:
      if (sql_is_digit(z[1])) return sql_number_len(z, peType);
      *peType = TK_DOT;
      return 1;
    case CC_QUOTE:
      return sql_quoted_len(z, TK_STRING, peType);
    case CC_DQUOTE:
      return sql_quoted_len(z, TK_ID, peType);
    case CC_MINUS:
      if (z[1] == '-') {
        for (i = 2; z[i] != 0 && z[i] != '\n'; i++) {}
        *peType = TK_SPACE;
        return i;
      }
      *peType = TK_MINUS;
      return 1;
    case CC_SLASH:
      if (z[1] == '*') return sql_comment_len(z, peType);
      *peType = TK_SLASH;
      return 1;
    case CC_LT:
      if (z[1] == '=') { *peType = TK_LE; return 2; }
      if (z[1] == '>') { *peType = TK_NE; return 2; }
      *peType = TK_LT;
      return 1;
    case CC_GT:
      if (z[1] == '=') { *peType = TK_GE; return 2; }
      *peType = TK_GT;
      return 1;
    case CC_EQ:
      *peType = TK_EQ;
      return 1;
    case CC_BANG:
      if (z[1] == '=') { *peType = TK_NE; return 2; }
      *peType = TK_ILLEGAL;
      return 1;
    case CC_COLON:
      if (z[1] == ':') { *peType = TK_DCOLON; return 2; }
      *peType = TK_ILLEGAL;
      return 1;
    case CC_LP: *peType = TK_LP; return 1;
    case CC_RP: *peType = TK_RP; return 1;
    case CC_COMMA: *peType = TK_COMMA; return 1;
    case CC_SEMI: *peType = TK_SEMI; return 1;
    case CC_PLUS: *peType = TK_PLUS; return 1;
    case CC_STAR: *peType = TK_STAR; return 1;
    case CC_PERCENT: *peType = TK_REM; return 1;
    default:
      *peType = TK_ILLEGAL;
      return 1;
  }
}

int sql_token_next(const char *z, sql_token_class *peClass) {
  int eType;
  int n = sql__token_get(z, &eType);
  switch (eType) {
    case TK_SPACE: *peClass = SQL_TOKEN_SPACE; break;
    case TK_ILLEGAL: *peClass = SQL_TOKEN_ILLEGAL; break;
    case TK_STRING: *peClass = SQL_TOKEN_STRING; break;
    case TK_INTEGER:
    case TK_DECIMAL: *peClass = SQL_TOKEN_NUMBER; break;
    case TK_PARAM: *peClass = SQL_TOKEN_PARAM; break;
    default:
      *peClass = sql__word_start(z[0]) ? SQL_TOKEN_WORD : SQL_TOKEN_PUNCT;
      break;
  }
  return n;
}
