/*
** planner/dictfunc.c — string functions of one dictionary column,
** evaluated on the host once per dictionary string: the "terms" a code set
** compares (codeset.c), so that upper(c_name) LIKE 'CUSTOMER#0000001%' or
** length(p_name) > 15 are answered over the dictionary like any predicate
** on the column, and the kernels test a code.
**
** A term is the column itself, or one of these functions of a term with
** constant arguments: upper, lower (ASCII letters, as PostgreSQL's "C"
** collation), length / char_length / character_length (characters of
** UTF-8), octet_length, substr / substring (from [, count]), left, right,
** replace, btrim / ltrim / rtrim (characters [default ' ']), position /
** strpos. A term's value is a string
** or an integer; NULL where the column is (every one is strict) or a
** constant argument is NULL.
**
** INTERFACE ROUTINES (planInt.h)
**   plan__term_ok     is e a term, of which column?
**   plan__term_eval   e's value for one dictionary string
**   plan__term_known  is call e one of the functions of this file?
**   plan__term_apply  the function of call e applied to one string
**   plan__utf8_len, plan__utf8_offset  characters of UTF-8
*/
#include <stdlib.h>
#include <string.h>

#include "planInt.h"

/* Bytes of the UTF-8 character at z (1 for a stray byte), at most n. */
static size_t df_char_len(const char *z, size_t n) {
  unsigned char b = (unsigned char)z[0];
  size_t k = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
  return k <= n ? k : n;
}

/* Characters in z[0..n). */
static int64_t df_chars(const char *z, size_t n) {
  int64_t c = 0;
  for (size_t i = 0; i < n; i += df_char_len(z + i, n - i)) c++;
  return c;
}

/* The byte offset of character k (0-based; clamped to n) of z[0..n). */
static size_t df_offset(const char *z, size_t n, int64_t k) {
  size_t i = 0;
  while (k-- > 0 && i < n) i += df_char_len(z + i, n - i);
  return i;
}

/* 1 if e is an integer literal, negated or not. */
static int df_is_int(const sql_expr *e) {
  if (e->eKind == SQL_EXPR_UNARY && e->eOp == SQL_OP_NEG) e = e->pLeft;
  return e->eKind == SQL_EXPR_INTEGER;
}

/* 1 if e is a literal this file reads as a constant argument. */
static int df_is_const(const sql_expr *e) {
  return e->eKind == SQL_EXPR_STRING || e->eKind == SQL_EXPR_NULL || df_is_int(e);
}

static int df_name_is(const sql_expr *e, const char *z) { return strcmp(e->zName, z) == 0; }

/* 1 if df_apply computes call e's function (the others are values only:
** strval.c). */
int plan__term_known(const sql_expr *e) {
  static const char *const azName[] = {
      "upper", "lower", "length", "char_length", "character_length", "octet_length", "substr",
      "substring", "left", "right", "replace", "btrim", "ltrim", "rtrim", "position", "strpos"};
  for (size_t i = 0; i < sizeof(azName) / sizeof(azName[0]); i++) {
    if (df_name_is(e, azName[i])) return 1;
  }
  return 0;
}

int plan__term_ok(const sql_expr *e, int *ps, int *pcol) {
  int n;
  if (e == NULL) return 0;
  if (e->eKind == SQL_EXPR_COLUMN) {
    if (!coltype_is_string(e->b.type)) return 0;
    if (*ps < 0) {
      *ps = e->b.iSource;
      *pcol = e->b.iColumn;
    }
    return e->b.iSource == *ps && e->b.iColumn == *pcol;
  }
  if (e->eKind != SQL_EXPR_FUNC || e->b.iAgg >= 0 || e->pList == NULL || e->zName == NULL) return 0;
  if (!plan__term_known(e)) return 0;
  n = e->pList->n;
  for (int i = 1; i < n; i++) {
    if (!df_is_const(e->pList->a[i].pExpr)) return 0;
  }
  /* a negative count is an error for every row: left to refuse */
  if ((df_name_is(e, "substr") || df_name_is(e, "substring")) && n == 3 &&
      e->pList->a[2].pExpr->eKind == SQL_EXPR_UNARY) {
    return 0;
  }
  return n >= 1 && plan__term_ok(e->pList->a[0].pExpr, ps, pcol);
}

/* Integer constant argument i of call e into *pv; 1 if it is NULL. */
static int df_arg_int(const sql_expr *e, int i, int64_t *pv) {
  const sql_expr *a = e->pList->a[i].pExpr;
  int bNeg = a->eKind == SQL_EXPR_UNARY;
  if (a->eKind == SQL_EXPR_NULL) return 1;
  if (bNeg) a = a->pLeft;
  *pv = strtoll(a->zText, NULL, 10);
  if (bNeg) *pv = -*pv;
  return 0;
}

/* String constant argument i of call e (NULL for a NULL literal). */
static const char *df_arg_str(const sql_expr *e, int i) {
  const sql_expr *a = e->pList->a[i].pExpr;
  return a->eKind == SQL_EXPR_NULL ? NULL : a->zText != NULL ? a->zText : "";
}

/* 1 if character c[0..nc) is one of the characters of zSet. */
static int df_in_set(const char *c, size_t nc, const char *zSet) {
  size_t nSet = strlen(zSet);
  for (size_t i = 0; i < nSet; i += df_char_len(zSet + i, nSet - i)) {
    if (df_char_len(zSet + i, nSet - i) == nc && memcmp(zSet + i, c, nc) == 0) return 1;
  }
  return 0;
}

/* Sets o to z[0..n) trimmed at the left (bLeft) and right (bRight). */
static void df_trim(const char *z, size_t n, const char *zSet, int bLeft, int bRight, plan_term *o) {
  size_t i = 0, j = n;
  while (bLeft && i < n && df_in_set(z + i, df_char_len(z + i, n - i), zSet)) {
    i += df_char_len(z + i, n - i);
  }
  while (bRight && j > i) {
    size_t k = j - 1;
    while (k > i && ((unsigned char)z[k] & 0xC0) == 0x80) k--;   /* the last character's start */
    if (!df_in_set(z + k, j - k, zSet)) break;
    j = k;
  }
  strbuf_append(&o->s, z + i, j - i);
}

/* The function of call e applied to string z[0..n) into o. */
static void df_apply(const sql_expr *e, const char *z, size_t n, plan_term *o) {
  int64_t a = 0, b = 0;
  int nArg = e->pList->n;
  if (df_name_is(e, "upper") || df_name_is(e, "lower")) {
    int bUp = e->zName[0] == 'u';
    for (size_t i = 0; i < n; i++) {
      char c = z[i];
      if (bUp && c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
      if (!bUp && c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
      strbuf_append(&o->s, &c, 1);
    }
  } else if (df_name_is(e, "length") || df_name_is(e, "char_length") ||
             df_name_is(e, "character_length")) {
    o->bInt = 1;
    o->i = df_chars(z, n);
  } else if (df_name_is(e, "octet_length")) {
    o->bInt = 1;
    o->i = (int64_t)n;
  } else if (df_name_is(e, "substr") || df_name_is(e, "substring")) {
    int64_t iStart, iEnd;
    if (df_arg_int(e, 1, &a) || (nArg == 3 && df_arg_int(e, 2, &b))) {
      o->bNull = 1;
      return;
    }
    iStart = a < 1 ? 1 : a;                 /* 1-based, [iStart, iEnd) */
    iEnd = nArg == 3 ? a + b : INT64_MAX;
    if (iEnd > iStart) {
      size_t i0 = df_offset(z, n, iStart - 1), i1 = iEnd == INT64_MAX ? n : df_offset(z, n, iEnd - 1);
      strbuf_append(&o->s, z + i0, i1 - i0);
    }
  } else if (df_name_is(e, "left") || df_name_is(e, "right")) {
    int64_t nChar = df_chars(z, n), k;
    if (df_arg_int(e, 1, &a)) {
      o->bNull = 1;
      return;
    }
    k = a >= 0 ? (a < nChar ? a : nChar) : (nChar + a > 0 ? nChar + a : 0);   /* characters kept */
    if (e->zName[0] == 'l') strbuf_append(&o->s, z, df_offset(z, n, k));
    else {
      size_t i0 = df_offset(z, n, nChar - k);
      strbuf_append(&o->s, z + i0, n - i0);
    }
  } else if (df_name_is(e, "replace")) {
    const char *zFrom = df_arg_str(e, 1), *zTo = df_arg_str(e, 2);
    size_t nFrom;
    if (zFrom == NULL || zTo == NULL) {
      o->bNull = 1;
      return;
    }
    nFrom = strlen(zFrom);
    for (size_t i = 0; i < n;) {
      if (nFrom > 0 && n - i >= nFrom && memcmp(z + i, zFrom, nFrom) == 0) {
        strbuf_puts(&o->s, zTo);
        i += nFrom;
      } else {
        strbuf_append(&o->s, z + i, 1);
        i++;
      }
    }
  } else if (df_name_is(e, "btrim") || df_name_is(e, "ltrim") || df_name_is(e, "rtrim")) {
    const char *zSet = nArg == 2 ? df_arg_str(e, 1) : " ";
    if (zSet == NULL) {
      o->bNull = 1;
      return;
    }
    df_trim(z, n, zSet, e->zName[0] != 'r', e->zName[0] != 'l', o);
  } else {                                  /* position, strpos: characters */
    const char *zSub = df_arg_str(e, 1);
    size_t nSub;
    if (zSub == NULL) {
      o->bNull = 1;
      return;
    }
    o->bInt = 1;
    nSub = strlen(zSub);
    for (size_t i = 0; i + nSub <= n; i++) {
      if (memcmp(z + i, zSub, nSub) == 0) {
        o->i = df_chars(z, i) + 1;
        return;
      }
    }
  }
}

void plan__term_apply(const sql_expr *e, const char *z, size_t n, plan_term *o) {
  df_apply(e, z, n, o);
}

size_t plan__utf8_len(const char *z, size_t n) { return df_char_len(z, n); }

size_t plan__utf8_offset(const char *z, size_t n, int64_t k) { return df_offset(z, n, k); }

int plan__term_eval(const sql_expr *e, const char *z, size_t n, plan_term *o) {
  plan_term in;
  strbuf_reset(&o->s);
  o->bNull = o->bInt = 0;
  o->i = 0;
  if (z == NULL) {
    o->bNull = 1;
    return 0;
  }
  if (e->eKind == SQL_EXPR_COLUMN) {
    strbuf_append(&o->s, z, n);
    return strbuf_error(&o->s) ? -1 : 0;
  }
  memset(&in, 0, sizeof(in));
  strbuf_init(&in.s);
  if (plan__term_eval(e->pList->a[0].pExpr, z, n, &in) != 0) {
    strbuf_free(&in.s);
    return -1;
  }
  if (in.bNull || in.bInt) o->bNull = 1;
  else df_apply(e, strbuf_str(&in.s), in.s.n, o);
  strbuf_free(&in.s);
  return strbuf_error(&o->s) ? -1 : 0;
}
