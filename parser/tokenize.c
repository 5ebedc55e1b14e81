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
** message. Identifiers and strings are returned as written: folding,
** dequoting and escapes are the constructors' job (ast.c).
**
** Accepted spellings, as PostgreSQL with standard_conforming_strings:
**   'it''s'          string
**   E'it\'s\n'       string with backslash escapes (decoded by ast.c)
**   $$it's$$  $tag$x$tag$   dollar-quoted string: no escapes at all
**   B'101' X'1F' U&'d\0061t'   bit strings and Unicode-escaped strings:
**                    lexed whole (TK_BITSTR, TK_USTRING), refused by the
**                    grammar
**   "Mixed ""x"""    quoted identifier (U&"..." is TK_USTRING)
**   42  1.5  .5  1.  1e10  1.5E-3   numbers; 1e and 123abc are errors
**   -- comment       to the end of the line
**   / * ... * /      comments, nested as in PostgreSQL
**   operators        the longest run of + - * / < > = ~ ! @ # % ^ & | ` ?
**                    that holds no comment start, less any trailing + or -
**                    unless it holds one of ~ ! @ # % ^ & | ` ? (so that
**                    a<-1 is a < -1); + - * / % ^ < > = alone, <= >= <>
**                    and != have their own codes, every other one is
**                    TK_OP ("||", "~*", "!~", "@>", "=>")
**   :: : [ ] ( ) , ; .   punctuation
**   $1               a parameter marker
**
** INTERFACE ROUTINES
**   sql_token_next       one token and its class, for tools (parser.h)
**   sql__token_get       one token and its TK_ code, for the parser
**   sql__keyword_code    the TK_ code of a word
**   sql__keyword_check   the keyword table is sorted (for the tests)
**   sql__word_start      whether a byte starts a word
**   sql__dollar_tag_len  the length of a dollar quote's opening tag
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
  CC_DOLLAR,       /* '$': inside words, $n, or a dollar quote */
  CC_QUOTE,        /* ' */
  CC_DQUOTE,       /* " */
  CC_OP,           /* a character of operators: + - * / < > = ~ ! @ # % ^ & | ` ? */
  CC_DOT,          /* . or a number like .5 */
  CC_COLON,        /* : or :: */
  CC_LP, CC_RP, CC_LB, CC_RB, CC_COMMA, CC_SEMI,
  CC_NUL,          /* the end of the text */
};

/* The class of every byte; bytes >= 0x80 are parts of UTF-8 letters. */
static const unsigned char aiClass[256] = {
/*       x0  x1  x2  x3  x4  x5  x6  x7  x8  x9  xa  xb  xc  xd  xe  xf */
/* 0x */ 16,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  1,  1,  0,  0,
/* 1x */  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
/* 2x */  1,  7,  6,  7,  4,  7,  7,  5, 10, 11,  7,  7, 14,  7,  8,  7,
/* 3x */  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  9, 15,  7,  7,  7,  7,
/* 4x */  7,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
/* 5x */  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2, 12,  0, 13,  7,  2,
/* 6x */  7,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
/* 7x */  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  0,  7,  0,  7,  0,
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
  {"abort", TK_ABORT}, {"absolute", TK_ABSOLUTE}, {"all", TK_ALL}, {"alter", TK_ALTER},
  {"analyze", TK_ANALYZE}, {"and", TK_AND}, {"any", TK_ANY}, {"array", TK_ARRAY}, {"as", TK_AS},
  {"asc", TK_ASC}, {"asymmetric", TK_ASYMMETRIC}, {"backward", TK_BACKWARD}, {"begin", TK_BEGIN},
  {"between", TK_BETWEEN}, {"binary", TK_BINARY}, {"both", TK_BOTH}, {"by", TK_BY},
  {"case", TK_CASE}, {"cast", TK_CAST}, {"chain", TK_CHAIN}, {"char", TK_CHAR},
  {"character", TK_CHARACTER}, {"characteristics", TK_CHARACTERISTICS}, {"check", TK_CHECK},
  {"close", TK_CLOSE}, {"collate", TK_COLLATE}, {"commit", TK_COMMIT},
  {"committed", TK_COMMITTED}, {"constraint", TK_CONSTRAINT}, {"copy", TK_COPY},
  {"create", TK_CREATE}, {"cross", TK_CROSS}, {"csv", TK_CSV}, {"cube", TK_CUBE},
  {"current", TK_CURRENT}, {"current_catalog", TK_CURRENT_CATALOG},
  {"current_date", TK_CURRENT_DATE}, {"current_role", TK_CURRENT_ROLE},
  {"current_schema", TK_CURRENT_SCHEMA}, {"current_time", TK_CURRENT_TIME},
  {"current_timestamp", TK_CURRENT_TIMESTAMP}, {"current_user", TK_CURRENT_USER},
  {"cursor", TK_CURSOR}, {"day", TK_DAY}, {"deallocate", TK_DEALLOCATE}, {"declare", TK_DECLARE},
  {"default", TK_DEFAULT}, {"deferrable", TK_DEFERRABLE}, {"delete", TK_DELETE},
  {"delimiter", TK_DELIMITER}, {"desc", TK_DESC}, {"discard", TK_DISCARD},
  {"distinct", TK_DISTINCT}, {"double", TK_DOUBLE}, {"drop", TK_DROP}, {"else", TK_ELSE},
  {"encoding", TK_ENCODING}, {"end", TK_END}, {"escape", TK_ESCAPE}, {"except", TK_EXCEPT},
  {"exclude", TK_EXCLUDE}, {"exists", TK_EXISTS}, {"explain", TK_EXPLAIN},
  {"extract", TK_EXTRACT}, {"false", TK_FALSE}, {"fetch", TK_FETCH}, {"filter", TK_FILTER},
  {"first", TK_FIRST}, {"following", TK_FOLLOWING}, {"for", TK_FOR}, {"force", TK_FORCE},
  {"foreign", TK_FOREIGN}, {"forward", TK_FORWARD}, {"freeze", TK_FREEZE}, {"from", TK_FROM},
  {"full", TK_FULL}, {"group", TK_GROUP}, {"grouping", TK_GROUPING}, {"groups", TK_GROUPS},
  {"having", TK_HAVING}, {"header", TK_HEADER}, {"hold", TK_HOLD}, {"hour", TK_HOUR},
  {"if", TK_IF}, {"ilike", TK_ILIKE}, {"in", TK_IN}, {"inner", TK_INNER},
  {"insensitive", TK_INSENSITIVE}, {"insert", TK_INSERT}, {"intersect", TK_INTERSECT},
  {"interval", TK_INTERVAL}, {"into", TK_INTO}, {"is", TK_IS}, {"isolation", TK_ISOLATION},
  {"join", TK_JOIN}, {"key", TK_KEY}, {"last", TK_LAST}, {"lateral", TK_LATERAL},
  {"leading", TK_LEADING}, {"left", TK_LEFT}, {"level", TK_LEVEL}, {"like", TK_LIKE},
  {"limit", TK_LIMIT}, {"local", TK_LOCAL}, {"localtime", TK_LOCALTIME},
  {"localtimestamp", TK_LOCALTIMESTAMP}, {"materialized", TK_MATERIALIZED},
  {"minute", TK_MINUTE}, {"month", TK_MONTH}, {"move", TK_MOVE}, {"names", TK_NAMES},
  {"natural", TK_NATURAL}, {"next", TK_NEXT}, {"no", TK_NO}, {"not", TK_NOT}, {"null", TK_NULL},
  {"nulls", TK_NULLS}, {"offset", TK_OFFSET}, {"on", TK_ON}, {"only", TK_ONLY},
  {"operator", TK_OPERATOR}, {"or", TK_OR}, {"order", TK_ORDER}, {"ordinality", TK_ORDINALITY},
  {"others", TK_OTHERS}, {"outer", TK_OUTER}, {"over", TK_OVER}, {"overlay", TK_OVERLAY},
  {"partition", TK_PARTITION}, {"placing", TK_PLACING}, {"plans", TK_PLANS},
  {"position", TK_POSITION}, {"preceding", TK_PRECEDING}, {"precision", TK_PRECISION},
  {"prepare", TK_PREPARE}, {"primary", TK_PRIMARY}, {"prior", TK_PRIOR}, {"program", TK_PROGRAM},
  {"quote", TK_QUOTE}, {"range", TK_RANGE}, {"read", TK_READ}, {"recursive", TK_RECURSIVE},
  {"references", TK_REFERENCES}, {"relative", TK_RELATIVE}, {"release", TK_RELEASE},
  {"repeatable", TK_REPEATABLE}, {"reset", TK_RESET}, {"right", TK_RIGHT},
  {"rollback", TK_ROLLBACK}, {"rollup", TK_ROLLUP}, {"row", TK_ROW}, {"rows", TK_ROWS},
  {"savepoint", TK_SAVEPOINT}, {"schema", TK_SCHEMA}, {"scroll", TK_SCROLL},
  {"second", TK_SECOND}, {"select", TK_SELECT}, {"sequences", TK_SEQUENCES},
  {"serializable", TK_SERIALIZABLE}, {"session", TK_SESSION}, {"session_user", TK_SESSION_USER},
  {"set", TK_SET}, {"sets", TK_SETS}, {"show", TK_SHOW}, {"similar", TK_SIMILAR},
  {"some", TK_SOME}, {"start", TK_START}, {"substring", TK_SUBSTRING},
  {"symmetric", TK_SYMMETRIC}, {"table", TK_TABLE}, {"tables", TK_TABLES}, {"temp", TK_TEMP},
  {"temporary", TK_TEMPORARY}, {"then", TK_THEN}, {"ties", TK_TIES}, {"time", TK_TIME},
  {"timestamp", TK_TIMESTAMP}, {"to", TK_TO}, {"trailing", TK_TRAILING},
  {"transaction", TK_TRANSACTION}, {"treat", TK_TREAT}, {"trim", TK_TRIM}, {"true", TK_TRUE},
  {"truncate", TK_TRUNCATE}, {"unbounded", TK_UNBOUNDED}, {"uncommitted", TK_UNCOMMITTED},
  {"union", TK_UNION}, {"unique", TK_UNIQUE}, {"unknown", TK_UNKNOWN}, {"update", TK_UPDATE},
  {"user", TK_USER}, {"using", TK_USING}, {"values", TK_VALUES}, {"varying", TK_VARYING},
  {"verbose", TK_VERBOSE}, {"when", TK_WHEN}, {"where", TK_WHERE}, {"window", TK_WINDOW},
  {"with", TK_WITH}, {"within", TK_WITHIN}, {"without", TK_WITHOUT}, {"work", TK_WORK},
  {"write", TK_WRITE}, {"year", TK_YEAR}, {"zone", TK_ZONE},
};

#define N_KEYWORD ((int)(sizeof(aKeyword) / sizeof(aKeyword[0])))
#define KEYWORD_LEN_MAX 17       /* "current_timestamp" */

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

/* ---- numbers, strings, comments ------------------------------------------------ */

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

/* Returns the length of a '...' or "..." token whose opening quote is at
** z[iQuote], doubled quotes included (and, if bBackslash, a backslash
** escaping the next byte, as in E'...'), setting *peType to eType, or to
** TK_ILLEGAL (and the length to the end of the text) if the closing
** quote is missing. */
static int sql_quoted_len(const char *z, int iQuote, int bBackslash, int eType, int *peType) {
  char q = z[iQuote];
  int i = iQuote + 1;
  for (;;) {
    if (z[i] == 0) {
      *peType = TK_ILLEGAL;
      return i;
    }
    if (bBackslash && z[i] == '\\' && z[i + 1] != 0) {
      i += 2;
      continue;
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

int sql__dollar_tag_len(const char *z) {
  int i = 1;
  if (z[0] != '$') return 0;
  if (sql_class(z[1]) == CC_ID) {
    for (i = 2; sql_class(z[i]) == CC_ID || sql_class(z[i]) == CC_DIGIT; i++) {}
  }
  return z[i] == '$' ? i + 1 : 0;
}

/* Returns the length of the dollar-quoted string at z ($$...$$ or
** $tag$...$tag$, the tag a word without '$'), with *peType TK_STRING; or
** the length to the end of the text with TK_ILLEGAL if the closing tag is
** missing; or 0 if z starts no dollar quote. */
static int sql_dollar_len(const char *z, int *peType) {
  int nTag = sql__dollar_tag_len(z);
  if (nTag == 0) return 0;
  for (int i = nTag; z[i] != 0; i++) {
    if (z[i] == '$' && strncmp(z + i, z, (size_t)nTag) == 0) {
      *peType = TK_STRING;
      return i + nTag;
    }
  }
  *peType = TK_ILLEGAL;
  return nTag + (int)strlen(z + nTag);
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

/* ---- words and operators -------------------------------------------------------- */

/* Returns the length of the word at z: a keyword, an identifier, or one
** of the prefixed strings E'', B'', X'', U&'' and U&"". */
static int sql_word_len(const char *z, int *peType) {
  int i;
  char c = (char)(z[0] | 0x20);
  if (z[1] == '\'') {
    if (c == 'e') return sql_quoted_len(z, 1, 1, TK_STRING, peType);
    if (c == 'b' || c == 'x') return sql_quoted_len(z, 1, 0, TK_BITSTR, peType);
  }
  if (c == 'u' && z[1] == '&' && (z[2] == '\'' || z[2] == '"')) {
    return sql_quoted_len(z, 2, 0, TK_USTRING, peType);
  }
  for (i = 1; sql_is_word_char(z[i]); i++) {}
  *peType = sql__keyword_code(z, i);
  return i;
}

static int sql_is_op_char(char c) {
  return c != 0 && strchr("+-*/<>=~!@#%^&|`?", c) != NULL;
}

/* Returns the length of the operator at z (its first byte an operator
** character that starts no comment) and sets *peType, by PostgreSQL's
** rules (the header comment). */
static int sql_operator_len(const char *z, int *peType) {
  int n = 1;
  while (sql_is_op_char(z[n]) && !(z[n] == '-' && z[n + 1] == '-') &&
         !(z[n] == '/' && z[n + 1] == '*')) {
    n++;
  }
  if (n > 1 && (z[n - 1] == '+' || z[n - 1] == '-')) {
    int bKeep = 0;
    for (int i = 0; i < n - 1; i++) {
      if (strchr("~!@#%^&|`?", z[i]) != NULL) bKeep = 1;
    }
    while (!bKeep && n > 1 && (z[n - 1] == '+' || z[n - 1] == '-')) n--;
  }
  *peType = TK_OP;
  if (n == 1) {
    switch (z[0]) {
      case '+': *peType = TK_PLUS; break;
      case '-': *peType = TK_MINUS; break;
      case '*': *peType = TK_STAR; break;
      case '/': *peType = TK_SLASH; break;
      case '%': *peType = TK_REM; break;
      case '^': *peType = TK_CARET; break;
      case '<': *peType = TK_LT; break;
      case '>': *peType = TK_GT; break;
      case '=': *peType = TK_EQ; break;
      default: break;
    }
  } else if (n == 2) {
    if (z[0] == '<' && z[1] == '=') *peType = TK_LE;
    if (z[0] == '>' && z[1] == '=') *peType = TK_GE;
    if ((z[0] == '<' && z[1] == '>') || (z[0] == '!' && z[1] == '=')) *peType = TK_NE;
  }
  return n;
}

/* ---- tokens ------------------------------------------------------------------ */

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
      return sql_word_len(z, peType);
    case CC_DIGIT:
      return sql_number_len(z, peType);
    case CC_DOLLAR:
      if (sql_is_digit(z[1])) return sql_param_len(z, peType);
      if ((i = sql_dollar_len(z, peType)) > 0) return i;
      *peType = TK_ILLEGAL;
      return 1;
    case CC_DOT:
      if (sql_is_digit(z[1])) return sql_number_len(z, peType);
      *peType = TK_DOT;
      return 1;
    case CC_QUOTE:
      return sql_quoted_len(z, 0, 0, TK_STRING, peType);
    case CC_DQUOTE:
      return sql_quoted_len(z, 0, 0, TK_ID, peType);
    case CC_OP:
      if (z[0] == '-' && z[1] == '-') {
        for (i = 2; z[i] != 0 && z[i] != '\n'; i++) {}
        *peType = TK_SPACE;
        return i;
      }
      if (z[0] == '/' && z[1] == '*') return sql_comment_len(z, peType);
      return sql_operator_len(z, peType);
    case CC_COLON:
      if (z[1] == ':') {
        *peType = TK_DCOLON;
        return 2;
      }
      *peType = TK_COLON;
      return 1;
    case CC_LP: *peType = TK_LP; return 1;
    case CC_RP: *peType = TK_RP; return 1;
    case CC_LB: *peType = TK_LB; return 1;
    case CC_RB: *peType = TK_RB; return 1;
    case CC_COMMA: *peType = TK_COMMA; return 1;
    case CC_SEMI: *peType = TK_SEMI; return 1;
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
    case TK_STRING:
    case TK_BITSTR:
    case TK_USTRING: *peClass = SQL_TOKEN_STRING; break;
    case TK_INTEGER:
    case TK_DECIMAL: *peClass = SQL_TOKEN_NUMBER; break;
    case TK_PARAM: *peClass = SQL_TOKEN_PARAM; break;
    default:
      *peClass = sql__word_start(z[0]) ? SQL_TOKEN_WORD : SQL_TOKEN_PUNCT;
      break;
  }
  return n;
}
