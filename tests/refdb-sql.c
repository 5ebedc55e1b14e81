/*
** tests/refdb-sql.c — turns a query in starq's dialect (PostgreSQL's) into
** one SQLite runs with the same meaning, for the reference engine.
**
** It works on tokens, not on a parse tree: the text is cut into words,
** strings, numbers and punctuation by a lexer of its own (not starq's, so
** that the reference shares no code with the engine under test), and a
** few passes splice tokens in and out, each one rewrite:
**
**   1. typed literals   DATE 'x' and TYPE 'x'
**   2. :: casts         x::T becomes CAST(x AS T)
**   3. CAST             what each target type means in SQLite
**   4. ORDER BY         PostgreSQL's NULL placement, made explicit
**   5. LIMIT / OFFSET   SQLite's order and spelling
**   6. LIKE             PostgreSQL's default escape character
**
** Tokens the passes make carry a flag so that a later pass does not
** rewrite them again (the CASTs that pass 3 writes, for one). Anything the
** passes do not recognise goes through untouched; refdb.h lists the
** rewrites and tests/README.md what is left out.
**
** INTERFACE ROUTINES
**   refdb_sql_translate
*/
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/arena.h"
#include "refdb.h"

/* ---- tokens ----------------------------------------------------------- */

typedef enum rtok_kind {
  RT_SPACE,                /* blanks, and comments once dropped */
  RT_WORD,                 /* keyword or unquoted identifier */
  RT_QUOTED,               /* "identifier" */
  RT_STRING,               /* 'text' */
  RT_NUMBER,
  RT_DCOLON,               /* :: */
  RT_LP, RT_RP, RT_COMMA, RT_SEMI, RT_DOT,
  RT_OTHER,                /* any other byte: operators */
} rtok_kind;

/* One token. Its text is not NUL-terminated and lives in the input or
** in the translation's arena. */
typedef struct rtok rtok;
struct rtok {
  const char *z;
  int n;
  rtok_kind e;
  int bMade;               /* written by a pass: not to be rewritten */
};

/* A statement being translated: its tokens and the memory of the ones
** the passes write. */
typedef struct rsql rsql;
struct rsql {
  rtok *a;                 /* owned */
  int n, nAlloc;
  arena mem;               /* texts of made tokens */
  int bOom;                /* memory ran out: the translation fails */
};

/* Returns the length of the token at z and sets *pe to its kind. */
static int rsql_lex_one(const char *z, rtok_kind *pe) {
  int i = 1;
  unsigned char c = (unsigned char)z[0];
  if (isspace(c)) {
    while (isspace((unsigned char)z[i])) i++;
    *pe = RT_SPACE;
  } else if (c == '-' && z[1] == '-') {
    while (z[i] != 0 && z[i] != '\n') i++;
    *pe = RT_SPACE;
  } else if (c == '/' && z[1] == '*') {
    /* PostgreSQL nests block comments; SQLite does not, hence the drop. */
    int nDepth = 1;
    for (i = 2; z[i] != 0 && nDepth > 0; i++) {
      if (z[i] == '/' && z[i + 1] == '*') nDepth++, i++;
      else if (z[i] == '*' && z[i + 1] == '/') nDepth--, i++;
    }
    *pe = RT_SPACE;
  } else if (c == '\'' || c == '"') {
    for (; z[i] != 0; i++) {
      if (z[i] == (char)c && z[i + 1] != (char)c) break;
      if (z[i] == (char)c) i++;
    }
    if (z[i] != 0) i++;
    *pe = c == '"' ? RT_QUOTED : RT_STRING;
  } else if (isdigit(c) || (c == '.' && isdigit((unsigned char)z[1]))) {
    while (isdigit((unsigned char)z[i]) || z[i] == '.') i++;
    if ((z[i] == 'e' || z[i] == 'E') &&
        (isdigit((unsigned char)z[i + 1]) ||
         ((z[i + 1] == '+' || z[i + 1] == '-') && isdigit((unsigned char)z[i + 2])))) {
      i += 2;
      while (isdigit((unsigned char)z[i])) i++;
    }
    *pe = RT_NUMBER;
  } else if (isalpha(c) || c == '_' || c >= 0x80) {
    while (isalnum((unsigned char)z[i]) || z[i] == '_' || z[i] == '$' ||
           (unsigned char)z[i] >= 0x80) {
      i++;
    }
    *pe = RT_WORD;
  } else if (c == ':' && z[1] == ':') {
    i = 2;
    *pe = RT_DCOLON;
  } else {
    *pe = c == '(' ? RT_LP : c == ')' ? RT_RP : c == ',' ? RT_COMMA
        : c == ';' ? RT_SEMI : c == '.' ? RT_DOT : RT_OTHER;
  }
  return i;
}

/* Cuts zSql into p's tokens. Comments become single blanks. */
static void rsql_lex(rsql *p, const char *zSql) {
  int nMax = (int)strlen(zSql) + 1;
  p->a = malloc(sizeof(rtok) * (size_t)nMax);
  if (p->a == NULL) {
    p->bOom = 1;
    return;
  }
  p->nAlloc = nMax;
  while (*zSql != 0) {
    rtok t = {zSql, 0, RT_SPACE, 0};
    t.n = rsql_lex_one(zSql, &t.e);
    zSql += t.n;
    if (t.e == RT_SPACE && !isspace((unsigned char)t.z[0])) {
      t.z = " ";
      t.n = 1;
    }
    p->a[p->n++] = t;
  }
}

/* Replaces nDel tokens at i with the nIns tokens of aIns. */
static void rsql_splice(rsql *p, int i, int nDel, const rtok *aIns, int nIns) {
  int nNew = p->n - nDel + nIns;
  if (p->bOom) return;
  if (nNew > p->nAlloc) {
    rtok *aNew = realloc(p->a, sizeof(rtok) * (size_t)(nNew * 2));
    if (aNew == NULL) {
      p->bOom = 1;
      return;
    }
    p->a = aNew;
    p->nAlloc = nNew * 2;
  }
  memmove(&p->a[i + nIns], &p->a[i + nDel], sizeof(rtok) * (size_t)(p->n - i - nDel));
  memcpy(&p->a[i], aIns, sizeof(rtok) * (size_t)nIns);
  p->n = nNew;
}

/* Whether token t is the word zWord, in any case. */
static int rsql_is(const rtok *t, const char *zWord) {
  return t->e == RT_WORD && (size_t)t->n == strlen(zWord) && strncasecmp(t->z, zWord, (size_t)t->n) == 0;
}

/* The index of the first token after i that is not a blank (p->n if none). */
static int rsql_next(const rsql *p, int i) {
  for (i++; i < p->n && p->a[i].e == RT_SPACE; i++) {}
  return i;
}

/* The index of the last token before i that is not a blank (-1 if none). */
static int rsql_prev(const rsql *p, int i) {
  for (i--; i >= 0 && p->a[i].e == RT_SPACE; i--) {}
  return i;
}

/* The index of the ')' that closes the '(' at i, or -1. */
static int rsql_close(const rsql *p, int i) {
  int nDepth = 0;
  for (; i < p->n; i++) {
    nDepth += p->a[i].e == RT_LP;
    nDepth -= p->a[i].e == RT_RP;
    if (nDepth == 0) return i;
  }
  return -1;
}

/* The index of the '(' that the ')' at i closes, or -1. */
static int rsql_open(const rsql *p, int i) {
  int nDepth = 0;
  for (; i >= 0; i--) {
    nDepth += p->a[i].e == RT_RP;
    nDepth -= p->a[i].e == RT_LP;
    if (nDepth == 0) return i;
  }
  return -1;
}

/* ---- building replacements ---------------------------------------------- */

/* Tokens being put together to replace a range of the statement: made
** ones, and copies of other ranges of it. */
typedef struct rbuild rbuild;
struct rbuild {
  rsql *p;
  rtok *a;                 /* owned */
  int n, nAlloc;
};

static void rbuild_tok(rbuild *b, rtok_kind e, const char *z, int n) {
  if (b->n == b->nAlloc) {
    int nNew = b->nAlloc ? b->nAlloc * 2 : 32;
    rtok *aNew = realloc(b->a, sizeof(rtok) * (size_t)nNew);
    if (aNew == NULL) {
      b->p->bOom = 1;
      return;
    }
    b->a = aNew;
    b->nAlloc = nNew;
  }
  b->a[b->n].z = z;
  b->a[b->n].n = n < 0 ? (int)strlen(z) : n;
  b->a[b->n].e = e;
  b->a[b->n].bMade = 1;
  b->n++;
}

/* Appends made tokens spelled in zText: words, '(', ')', ',' and blanks,
** as in "CAST ( ". Each word becomes a token of its own. */
static void rbuild_text(rbuild *b, const char *zText) {
  while (*zText != 0 && !b->p->bOom) {
    rtok_kind e;
    int n = rsql_lex_one(zText, &e);
    rbuild_tok(b, e, zText, n);
    zText += n;
  }
}

/* Appends copies of the statement's tokens [iFirst, iLast]. */
static void rbuild_copy(rbuild *b, int iFirst, int iLast) {
  for (int i = iFirst; i <= iLast && !b->p->bOom; i++) {
    rtok t = b->p->a[i];
    rbuild_tok(b, t.e, t.z, t.n);
    b->a[b->n - 1].bMade = t.bMade;
  }
}

/* Appends CAST(x AS T) of the statement's operand tokens [iX, iXEnd] and
** type tokens [iT, iTEnd], for pass 3 to rewrite: its CAST is not marked
** made. */
static void rbuild_cast(rbuild *b, int iX, int iXEnd, int iT, int iTEnd) {
  rbuild_text(b, "CAST(");
  if (!b->p->bOom) b->a[b->n - 2].bMade = 0;
  rbuild_copy(b, iX, iXEnd);
  rbuild_text(b, " AS ");
  rbuild_copy(b, iT, iTEnd);
  rbuild_text(b, ")");
}


/* Appends a made token holding a printf-style text kept in the arena. */
static void rbuild_fmt(rbuild *b, rtok_kind e, const char *zFmt, ...)
    __attribute__((format(printf, 3, 4)));
static void rbuild_fmt(rbuild *b, rtok_kind e, const char *zFmt, ...) {
  char zBuf[256];
  char *z;
  va_list ap;
  va_start(ap, zFmt);
  vsnprintf(zBuf, sizeof(zBuf), zFmt, ap);
  va_end(ap);
  z = arena_strndup(&b->p->mem, zBuf, strlen(zBuf));
  if (z == NULL) {
    b->p->bOom = 1;
    return;
  }
  rbuild_tok(b, e, z, -1);
}

/* Replaces tokens [iFirst, iLast] of the statement with what b holds, and
** empties b for the next use. Returns the index after the replacement. */
static int rbuild_put(rbuild *b, int iFirst, int iLast) {
  int nIns = b->n;
  rsql_splice(b->p, iFirst, iLast - iFirst + 1, b->a, b->n);
  b->n = 0;
  return iFirst + nIns;
}

/* ---- 1. typed literals ---------------------------------------------------- */

/* Reads a date as PostgreSQL reads its ISO forms (Y-M-D, Y/M/D with a
** year of four digits, or YYYYMMDD, blanks around) from the n bytes of
** string literal z (quotes included). Returns 1 and sets *pv to yyyymmdd,
** or 0 if it is not such a date. */
static int rsql_date_parse(const char *z, int n, int *pv) {
  static const int aDays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  char zBuf[64], cSep = 0, cEnd = 0;
  int y, m, d, nY = 0, nRead = 0;
  if (n < 2 || n - 2 >= (int)sizeof(zBuf)) return 0;
  memcpy(zBuf, z + 1, (size_t)(n - 2));
  zBuf[n - 2] = 0;
  if (sscanf(zBuf, " %*[0-9]%n", &nY) == 0 && nY == 8 &&
      sscanf(zBuf, " %4d%2d%2d %c", &y, &m, &d, &cEnd) == 3) {
    /* YYYYMMDD */
  } else if (sscanf(zBuf, " %d%c%d%c%d %n", &y, &cSep, &m, &cEnd, &d, &nRead) == 5 &&
             (cSep == '-' || cSep == '/') && cEnd == cSep && zBuf[nRead] == 0) {
    /* Y-M-D or Y/M/D */
  } else {
    return 0;
  }
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > aDays[m - 1]) return 0;
  if (m == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)) return 0;
  *pv = y * 10000 + m * 100 + d;
  return 1;
}

/* Appends string literal (i) as a date 'YYYY-MM-DD', or as it is when it
** is no date (SQLite then compares its text, and the engines disagree:
** the test is meant to notice). */
static void rbuild_date(rbuild *b, int i) {
  const rtok *t = &b->p->a[i];
  int v;
  if (rsql_date_parse(t->z, t->n, &v)) {
    rbuild_fmt(b, RT_STRING, "'%04d-%02d-%02d'", v / 10000, v / 100 % 100, v % 100);
  } else {
    rbuild_copy(b, i, i);
  }
}

/* Whether token t is a type name that may prefix a literal. */
static int rsql_literal_type(const rtok *t) {
  static const char *const azType[] = {
      "date", "smallint", "int2", "integer", "int", "int4", "bigint", "int8", "decimal",
      "numeric", "real", "float", "float4", "float8", "text", "varchar", "char",
      "character", "bool", "boolean",
  };
  for (size_t k = 0; k < sizeof(azType) / sizeof(azType[0]); k++) {
    if (rsql_is(t, azType[k])) return 1;
  }
  return 0;
}

/* DATE 'x' becomes the date's text; TYPE 'x' becomes CAST('x' AS TYPE)
** for pass 3 to finish. */
static void rsql_typed_literals(rsql *p, rbuild *b) {
  for (int i = 0; i < p->n && !p->bOom; i++) {
    int j = rsql_next(p, i);
    if (j >= p->n || p->a[j].e != RT_STRING || !rsql_literal_type(&p->a[i])) continue;
    if (rsql_is(&p->a[i], "date")) {
      rbuild_date(b, j);
    } else {
      rbuild_cast(b, j, j, i, i);
    }
    i = rbuild_put(b, i, j) - 1;
  }
}

/* ---- 2. :: casts ---------------------------------------------------------- */

/* Words that end an operand rather than name a function before '('. */
static int rsql_operator_word(const rtok *t) {
  static const char *const azWord[] = {
      "and", "or", "not", "in", "like", "between", "is", "when", "then", "else", "case",
      "select", "where", "by", "on", "having", "as", "from", "distinct", "all", "limit",
      "offset", "join", "using", "exists",
  };
  for (size_t k = 0; k < sizeof(azWord) / sizeof(azWord[0]); k++) {
    if (rsql_is(t, azWord[k])) return 1;
  }
  return 0;
}

/* Returns the first token of the operand that ends at token iEnd: a
** parenthesised expression or a call (CAST included), CASE ... END, a
** qualified name, or one token. */
static int rsql_operand_start(const rsql *p, int iEnd) {
  int i = iEnd, j;
  if (p->a[iEnd].e == RT_RP) {
    i = rsql_open(p, iEnd);
    if (i < 0) return iEnd;
    j = rsql_prev(p, i);
    if (j >= 0 && (p->a[j].e == RT_WORD || p->a[j].e == RT_QUOTED) && !rsql_operator_word(&p->a[j])) {
      i = j;
    }
  } else if (rsql_is(&p->a[iEnd], "end")) {
    int nDepth = 0;
    for (; i >= 0; i--) {
      nDepth += rsql_is(&p->a[i], "end");
      nDepth -= rsql_is(&p->a[i], "case");
      if (nDepth == 0) break;
    }
    if (i < 0) i = iEnd;
  } else if (p->a[iEnd].e == RT_WORD || p->a[iEnd].e == RT_QUOTED) {
    while ((j = rsql_prev(p, i)) > 0 && p->a[j].e == RT_DOT) {
      int k = rsql_prev(p, j);
      if (k < 0 || (p->a[k].e != RT_WORD && p->a[k].e != RT_QUOTED)) break;
      i = k;
    }
  }
  return i;
}

/* Returns the last token of the type name that starts at token i: one
** word, or DOUBLE PRECISION, CHARACTER VARYING, CHAR VARYING, then an
** optional parenthesised modifier. */
static int rsql_type_end(const rsql *p, int i) {
  int j;
  if (i >= p->n || p->a[i].e != RT_WORD) return -1;
  j = rsql_next(p, i);
  if (j < p->n && ((rsql_is(&p->a[i], "double") && rsql_is(&p->a[j], "precision")) ||
                   ((rsql_is(&p->a[i], "character") || rsql_is(&p->a[i], "char")) &&
                    rsql_is(&p->a[j], "varying")))) {
    i = j;
    j = rsql_next(p, i);
  }
  if (j < p->n && p->a[j].e == RT_LP) {
    int k = rsql_close(p, j);
    if (k > 0) i = k;
  }
  return i;
}

/* x::T becomes CAST(x AS T); chains nest as they bind: a::b::c is
** CAST(CAST(a AS b) AS c). */
static void rsql_dcolons(rsql *p, rbuild *b) {
  for (int i = 0; i < p->n && !p->bOom; i++) {
    int iEnd, iStart, iType, iTypeEnd;
    if (p->a[i].e != RT_DCOLON) continue;
    iEnd = rsql_prev(p, i);
    iType = rsql_next(p, i);
    iTypeEnd = rsql_type_end(p, iType);
    if (iEnd < 0 || iTypeEnd < 0) continue;
    iStart = rsql_operand_start(p, iEnd);
    rbuild_cast(b, iStart, iEnd, iType, iTypeEnd);
    /* Go on from the new CAST's end: a chained :: takes it as its operand. */
    i = rbuild_put(b, iStart, iTypeEnd) - 1;
  }
}

/* ---- 3. CAST -------------------------------------------------------------- */

/* Whether tokens [i, j] (blanks around ignored) are one token of kind e;
** sets *pi to it. */
static int rsql_single(const rsql *p, int i, int j, rtok_kind e, int *pi) {
  int k = rsql_next(p, i - 1);
  if (k > j || p->a[k].e != e || rsql_next(p, k) <= j) return 0;
  *pi = k;
  return 1;
}

/* PostgreSQL's boolean input (t, true, yes, on, 1 and their opposites,
** any unique prefix, any case) of string literal t: 1, 0, or -1. */
static int rsql_bool_literal(const rtok *t) {
  static const struct { const char *zWord; int nMin, bValue; } aWord[] = {
      {"true", 1, 1}, {"yes", 1, 1}, {"on", 2, 1}, {"1", 1, 1},
      {"false", 1, 0}, {"no", 1, 0}, {"off", 2, 0}, {"0", 1, 0},
  };
  const char *z = t->z + 1;
  int n = t->n - 2;
  while (n > 0 && isspace((unsigned char)*z)) z++, n--;
  while (n > 0 && isspace((unsigned char)z[n - 1])) n--;
  for (size_t k = 0; k < sizeof(aWord) / sizeof(aWord[0]); k++) {
    if (n >= aWord[k].nMin && n <= (int)strlen(aWord[k].zWord) &&
        strncasecmp(z, aWord[k].zWord, (size_t)n) == 0) {
      return aWord[k].bValue;
    }
  }
  return -1;
}

/* Appends the SQLite form of CAST(operand AS type) for the statement's
** CAST whose operand is tokens [iX, iXEnd] and type [iT, iTEnd]. */
static void rsql_cast_one(rsql *p, rbuild *b, int iX, int iXEnd, int iT, int iTEnd) {
  const rtok *t = &p->a[iT];
  int k;
  if (rsql_is(t, "date")) {
    /* Dates are text already: a literal only needs its canonical form. */
    if (rsql_single(p, iX, iXEnd, RT_STRING, &k)) {
      rbuild_date(b, k);
    } else {
      rbuild_text(b, "(");
      rbuild_copy(b, iX, iXEnd);
      rbuild_text(b, ")");
    }
  } else if (rsql_is(t, "smallint") || rsql_is(t, "int2") || rsql_is(t, "integer") ||
             rsql_is(t, "int") || rsql_is(t, "int4") || rsql_is(t, "bigint") ||
             rsql_is(t, "int8")) {
    /* PostgreSQL rounds a fraction away; SQLite's CAST would truncate it. */
    rbuild_text(b, "(CASE WHEN typeof(");
    rbuild_copy(b, iX, iXEnd);
    rbuild_text(b, ") = 'real' THEN CAST(round(");
    rbuild_copy(b, iX, iXEnd);
    rbuild_text(b, ") AS INTEGER) ELSE CAST(");
    rbuild_copy(b, iX, iXEnd);
    rbuild_text(b, " AS INTEGER) END)");
  } else if (rsql_is(t, "decimal") || rsql_is(t, "numeric")) {
    /* DECIMAL(p, s) rounds to s places and DECIMAL(p) to none; DECIMAL
    ** keeps every digit, which a REAL does as nearly as it can. */
    const rtok *aNum[2] = {NULL, NULL};
    int nNum = 0;
    for (k = iT; k <= iTEnd; k++) {
      if (p->a[k].e == RT_NUMBER && nNum < 2) aNum[nNum++] = &p->a[k];
    }
    rbuild_text(b, nNum > 0 ? "round(CAST(" : "CAST(");
    rbuild_copy(b, iX, iXEnd);
    rbuild_text(b, " AS REAL)");
    if (nNum == 2) {
      rbuild_text(b, ", ");
      rbuild_tok(b, RT_NUMBER, aNum[1]->z, aNum[1]->n);
    }
    if (nNum > 0) rbuild_text(b, ")");
  } else if (rsql_is(t, "double") || rsql_is(t, "float") || rsql_is(t, "float4") ||
             rsql_is(t, "float8") || rsql_is(t, "real")) {
    rbuild_text(b, "CAST(");
    rbuild_copy(b, iX, iXEnd);
    rbuild_text(b, " AS REAL)");
  } else if (rsql_is(t, "bool") || rsql_is(t, "boolean")) {
    if (rsql_single(p, iX, iXEnd, RT_STRING, &k) && rsql_bool_literal(&p->a[k]) >= 0) {
      rbuild_text(b, rsql_bool_literal(&p->a[k]) ? "1" : "0");
    } else {
      rbuild_text(b, "CAST(");
      rbuild_copy(b, iX, iXEnd);
      rbuild_text(b, " AS INTEGER)");
    }
  } else {
    /* Text types, and names SQLite's affinity rules already read right. */
    rbuild_text(b, "CAST(");
    rbuild_copy(b, iX, iXEnd);
    rbuild_text(b, " AS ");
    rbuild_copy(b, iT, iTEnd);
    rbuild_text(b, ")");
  }
}

/* Rewrites every CAST(x AS T) that no pass made, innermost last: the
** operand is copied as it is and rewritten when the scan reaches it. */
static void rsql_casts(rsql *p, rbuild *b) {
  for (int i = 0; i < p->n && !p->bOom; i++) {
    int iLp, iRp, iAs = -1, nDepth = 0, iT;
    if (!rsql_is(&p->a[i], "cast") || p->a[i].bMade) continue;
    iLp = rsql_next(p, i);
    if (iLp >= p->n || p->a[iLp].e != RT_LP || (iRp = rsql_close(p, iLp)) < 0) continue;
    for (int k = iLp; k < iRp; k++) {
      nDepth += (p->a[k].e == RT_LP) - (p->a[k].e == RT_RP);
      if (nDepth == 1 && rsql_is(&p->a[k], "as")) iAs = k;
    }
    iT = iAs < 0 ? p->n : rsql_next(p, iAs);
    if (iT >= iRp || rsql_next(p, iLp) >= iAs) continue;
    rsql_cast_one(p, b, rsql_next(p, iLp), rsql_prev(p, iAs), iT, rsql_prev(p, iRp));
    rbuild_put(b, i, iRp);
  }
}

/* ---- 4. ORDER BY ------------------------------------------------------------ */

/* Words that end an ORDER BY list at its own depth. */
static int rsql_order_end_word(const rtok *t) {
  static const char *const azWord[] = {
      "limit", "offset", "fetch", "union", "intersect", "except", "for", "window",
      "rows", "range", "groups",
  };
  for (size_t k = 0; k < sizeof(azWord) / sizeof(azWord[0]); k++) {
    if (rsql_is(t, azWord[k])) return 1;
  }
  return 0;
}

/* Gives the sort key in tokens [iFirst, iStop) PostgreSQL's NULL placement
** unless it names one: NULLs sort as larger than any value, so last going
** up and first going down (SQLite puts them first going up). Returns the
** index that iStop's token has afterwards. */
static int rsql_nulls(rsql *p, rbuild *b, int iFirst, int iStop) {
  int iLast = rsql_prev(p, iStop), nIns;
  if (iLast < iFirst) return iStop;
  if ((rsql_is(&p->a[iLast], "first") || rsql_is(&p->a[iLast], "last")) &&
      rsql_prev(p, iLast) >= 0 && rsql_is(&p->a[rsql_prev(p, iLast)], "nulls")) {
    return iStop;
  }
  rbuild_text(b, rsql_is(&p->a[iLast], "desc") ? " NULLS FIRST" : " NULLS LAST");
  nIns = b->n;
  rbuild_put(b, iLast + 1, iLast);
  return iStop + nIns;
}

static void rsql_order_by(rsql *p, rbuild *b) {
  for (int i = 0; i < p->n && !p->bOom; i++) {
    int j = rsql_next(p, i), iItem, nDepth = 0;
    if (!rsql_is(&p->a[i], "order") || j >= p->n || !rsql_is(&p->a[j], "by")) continue;
    for (i = iItem = j + 1; !p->bOom; i++) {
      int bEnd = i >= p->n;
      if (!bEnd && p->a[i].e == RT_LP) {
        nDepth++;
      } else if (!bEnd && p->a[i].e == RT_RP) {
        bEnd = nDepth == 0;
        nDepth -= nDepth > 0;
      } else if (!bEnd && nDepth == 0) {
        bEnd = p->a[i].e == RT_SEMI || rsql_order_end_word(&p->a[i]);
      }
      if (bEnd || (nDepth == 0 && p->a[i].e == RT_COMMA)) {
        i = rsql_nulls(p, b, iItem, i);
        iItem = i + 1;
        if (bEnd) break;
      }
    }
  }
}

/* ---- 5. LIMIT and OFFSET -------------------------------------------------- */

/* One LIMIT or OFFSET clause: its keyword and its expression's tokens. */
typedef struct rclause rclause;
struct rclause {
  int iWord, iFirst, iLast;     /* iWord < 0: absent */
};

/* PostgreSQL takes LIMIT and OFFSET in either order and LIMIT ALL;
** SQLite wants LIMIT first, always, with -1 for no limit. */
static void rsql_limits(rsql *p, rbuild *b) {
  for (int i = 0; i < p->n && !p->bOom; i++) {
    rclause aC[2], *pLimit = NULL, *pOffset = NULL;
    int nC = 0, nDepth = 0, j, k;
    if ((!rsql_is(&p->a[i], "limit") && !rsql_is(&p->a[i], "offset")) || p->a[i].bMade) continue;
    aC[nC].iWord = i;
    aC[nC].iFirst = rsql_next(p, i);
    for (j = i + 1; j < p->n; j++) {
      if (p->a[j].e == RT_LP) nDepth++;
      if (p->a[j].e == RT_RP && nDepth-- == 0) break;
      if (nDepth == 0 && p->a[j].e == RT_SEMI) break;
      if (nDepth == 0 && nC == 0 && (rsql_is(&p->a[j], "limit") || rsql_is(&p->a[j], "offset"))) {
        aC[nC++].iLast = rsql_prev(p, j);
        aC[nC].iWord = j;
        aC[nC].iFirst = rsql_next(p, j);
      }
    }
    aC[nC++].iLast = rsql_prev(p, j);
    for (k = 0; k < nC && aC[k].iFirst <= aC[k].iLast; k++) {
      if (rsql_is(&p->a[aC[k].iWord], "limit")) pLimit = &aC[k];
      else pOffset = &aC[k];
    }
    if (k < nC) {                 /* a clause without its expression: SQLite says so */
      i = j;
      continue;
    }
    if (pLimit != NULL && rsql_is(&p->a[pLimit->iFirst], "all") && pLimit->iFirst == pLimit->iLast) {
      pLimit = NULL;
    }
    rbuild_text(b, "LIMIT ");
    if (pLimit != NULL) rbuild_copy(b, pLimit->iFirst, pLimit->iLast);
    else rbuild_text(b, "-1");
    if (pOffset != NULL) {
      rbuild_text(b, " OFFSET ");
      rbuild_copy(b, pOffset->iFirst, pOffset->iLast);
    }
    i = rbuild_put(b, i, aC[nC - 1].iLast) - 1;
  }
}

/* ---- 6. LIKE ---------------------------------------------------------------- */

/* In PostgreSQL '\' escapes in a LIKE pattern unless ESCAPE says
** otherwise; SQLite has no escape unless told. Only literal patterns with
** a backslash are touched. */
static void rsql_likes(rsql *p, rbuild *b) {
  for (int i = 0; i < p->n && !p->bOom; i++) {
    int j = rsql_next(p, i), k;
    if (!rsql_is(&p->a[i], "like") || j >= p->n || p->a[j].e != RT_STRING) continue;
    if (memchr(p->a[j].z, '\\', (size_t)p->a[j].n) == NULL) continue;
    k = rsql_next(p, j);
    if (k < p->n && rsql_is(&p->a[k], "escape")) continue;
    rbuild_text(b, " ESCAPE '\\'");
    i = rbuild_put(b, j + 1, j) - 1;
  }
}

/* ---- the translation ---------------------------------------------------------- */

int refdb_sql_translate(const char *zPg, char **pzSqlite) {
  rsql s;
  rbuild b;
  size_t nOut = 1;
  char *zOut = NULL;

  memset(&s, 0, sizeof(s));
  memset(&b, 0, sizeof(b));
  arena_init(&s.mem);
  b.p = &s;
  rsql_lex(&s, zPg);
  rsql_typed_literals(&s, &b);
  rsql_dcolons(&s, &b);
  rsql_casts(&s, &b);
  rsql_order_by(&s, &b);
  rsql_limits(&s, &b);
  rsql_likes(&s, &b);
  if (!s.bOom) {
    for (int i = 0; i < s.n; i++) nOut += (size_t)s.a[i].n;
    zOut = malloc(nOut);
  }
  if (zOut != NULL) {
    size_t k = 0;
    for (int i = 0; i < s.n; i++) {
      memcpy(zOut + k, s.a[i].z, (size_t)s.a[i].n);
      k += (size_t)s.a[i].n;
    }
    zOut[k] = 0;
  }
  free(b.a);
  free(s.a);
  arena_free(&s.mem);
  *pzSqlite = zOut;
  return zOut != NULL ? 0 : -1;
}
