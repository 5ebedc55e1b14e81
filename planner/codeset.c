/*
** planner/codeset.c — a predicate on one dictionary-encoded column,
** evaluated over the column's sorted dictionary instead of its rows.
**
** The result is the set of codes that pass (plan_codeset): kernels test a
** code against a range or a bitmap and never touch a string, and the
** predicate's selectivity is exact, the code frequencies of the passing
** codes over the rows (stats.h keeps one count per code). A range is the
** common case (=, <, BETWEEN, a LIKE prefix): codes keep string order.
**
** Forms handled: comparisons and BETWEEN with string literals, IN lists,
** LIKE with PostgreSQL's wildcards (% any run, _ one character, \ escapes),
** and AND, OR, NOT over them, in SQL's three-valued logic (a NULL literal
** makes a comparison NULL; NULL rows never pass, so the set only needs to
** say which strings pass). Anything else is left to estimate.c and the
** kernels reject it (0A000 from codegen, not a wrong answer).
**
** The same evaluation answers boolean subtrees of other expressions
** (plan_exprset: a comparison inside a CASE, one side of an OR across
** tables, an output), so that no kernel compares strings anywhere.
**
** Strings compare as bytes (memcmp, shorter prefix first): the "C"
** collation, which is what the dictionaries are sorted by.
*/
#include <stdlib.h>
#include <string.h>

#include "planInt.h"

/* CS_ERR: memory ran out evaluating a term; it wins over every value. */
typedef enum cs_tri { CS_FALSE = 0, CS_TRUE = 1, CS_NULL = 2, CS_ERR = 3 } cs_tri;

/* 1 if e can be a term (dictfunc.c): a column or a function call. */
static int cs_is_term(const sql_expr *e) {
  return e->eKind == SQL_EXPR_COLUMN || (e->eKind == SQL_EXPR_FUNC && e->b.iAgg < 0);
}

/* 1 if e is a constant a term is compared with. */
static int cs_is_const(const sql_expr *e) {
  return e->eKind == SQL_EXPR_STRING || e->eKind == SQL_EXPR_NULL || e->eKind == SQL_EXPR_INTEGER;
}

/* Returns 1 if e is made only of forms this file evaluates, reading only
** string column (s, col) (set from the first column seen; -1 before),
** directly or through string functions (terms, dictfunc.c). */
static int cs_supported(const sql_expr *e, int *ps, int *pcol) {
  if (e == NULL) return 0;
  switch (e->eKind) {
    case SQL_EXPR_STRING:
    case SQL_EXPR_NULL:
    case SQL_EXPR_BOOL:
      return 1;
    case SQL_EXPR_UNARY:
      return e->eOp == SQL_OP_NOT && cs_supported(e->pLeft, ps, pcol);
    case SQL_EXPR_BINARY: {
      const sql_expr *t, *k;
      if (e->eOp == SQL_OP_AND || e->eOp == SQL_OP_OR) {
        return cs_supported(e->pLeft, ps, pcol) && cs_supported(e->pRight, ps, pcol);
      }
      if (e->eOp < SQL_OP_EQ || e->eOp > SQL_OP_GE) return 0;
      /* One side a term, the other a constant. */
      if (cs_is_term(e->pLeft) == cs_is_term(e->pRight)) return 0;
      t = cs_is_term(e->pLeft) ? e->pLeft : e->pRight;
      k = t == e->pLeft ? e->pRight : e->pLeft;
      return cs_is_const(k) && plan__term_ok(t, ps, pcol);
    }
    case SQL_EXPR_BETWEEN:
    case SQL_EXPR_IN:
      if (e->pLeft == NULL || !cs_is_term(e->pLeft) || e->pList == NULL) return 0;
      for (int i = 0; i < e->pList->n; i++) {
        if (!cs_is_const(e->pList->a[i].pExpr)) return 0;
      }
      return plan__term_ok(e->pLeft, ps, pcol);
    case SQL_EXPR_LIKE:
      return (e->eOp == SQL_OP_LIKE || e->eOp == SQL_OP_ILIKE) && e->pLeft != NULL &&
             cs_is_term(e->pLeft) && e->pRight != NULL &&
             (e->pRight->eKind == SQL_EXPR_STRING || e->pRight->eKind == SQL_EXPR_NULL) &&
             (e->pList == NULL || e->pList->n == 0) && plan__term_ok(e->pLeft, ps, pcol);
    default:
      return 0;
  }
}

/* memcmp order of x[0..nx) and y[0..ny). */
static int cs_cmp(const char *x, size_t nx, const char *y, size_t ny) {
  int r = memcmp(x, y, nx < ny ? nx : ny);
  if (r != 0) return r;
  return nx < ny ? -1 : nx > ny;
}

/* Bytes of the UTF-8 character starting at z (1 for a stray byte). */
static size_t cs_utf8_len(const char *z, size_t n) {
  unsigned char b = (unsigned char)z[0];
  size_t k = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
  return k <= n ? k : n;
}

/* SQL LIKE: does s[0..ns) match pattern p (NUL-terminated)? Iterative,
** backtracking only to the last %, so it is linear-ish and never recurses. */
static int cs_like(const char *s, size_t ns, const char *p) {
  size_t i = 0;
  const char *pStar = NULL;
  size_t iStar = 0;
  while (i < ns) {
    if (*p == '%') {
      while (*p == '%') p++;
      pStar = p;
      iStar = i;
      continue;
    }
    if (*p == '_') {
      i += cs_utf8_len(s + i, ns - i);
      p++;
      continue;
    }
    if (*p != 0) {
      const char *q = *p == '\\' && p[1] != 0 ? p + 1 : p;
      size_t k = cs_utf8_len(q, strlen(q));
      if (k <= ns - i && memcmp(s + i, q, k) == 0) {
        i += k;
        p = q + k;
        continue;
      }
    }
    if (pStar == NULL) return 0;
    iStar += cs_utf8_len(s + iStar, ns - iStar);   /* % swallows one more character */
    i = iStar;
    p = pStar;
  }
  while (*p == '%') p++;
  return *p == 0;
}

static cs_tri cs_not(cs_tri a) {
  return a == CS_NULL || a == CS_ERR ? a : a == CS_TRUE ? CS_FALSE : CS_TRUE;
}

static cs_tri cs_and(cs_tri a, cs_tri b) {
  if (a == CS_ERR || b == CS_ERR) return CS_ERR;
  if (a == CS_FALSE || b == CS_FALSE) return CS_FALSE;
  return a == CS_NULL || b == CS_NULL ? CS_NULL : CS_TRUE;
}

static cs_tri cs_or(cs_tri a, cs_tri b) {
  if (a == CS_ERR || b == CS_ERR) return CS_ERR;
  if (a == CS_TRUE || b == CS_TRUE) return CS_TRUE;
  return a == CS_NULL || b == CS_NULL ? CS_NULL : CS_FALSE;
}

static cs_tri cs_compare(sql_op eOp, int r) {
  switch (eOp) {
    case SQL_OP_EQ: return r == 0;
    case SQL_OP_NE: return r != 0;
    case SQL_OP_LT: return r < 0;
    case SQL_OP_LE: return r <= 0;
    case SQL_OP_GT: return r > 0;
    default: return r >= 0;
  }
}

/* The order of term value v and constant k (v's kind: an integer or a
** string), into *pr; CS_NULL if either is NULL, else CS_TRUE. */
static cs_tri cs_cmp_term(const plan_term *v, const sql_expr *k, int *pr) {
  if (v->bNull || k->eKind == SQL_EXPR_NULL) return CS_NULL;
  if (v->bInt) {
    int64_t x = strtoll(k->zText, NULL, 10);
    *pr = (v->i > x) - (v->i < x);
  } else {
    *pr = cs_cmp(strbuf_str(&v->s), v->s.n, k->zText, strlen(k->zText));
  }
  return CS_TRUE;
}

/* z[0..n) with ASCII letters in lower case, into o (ILIKE's folding under
** the "C" collation). */
static void cs_fold(const char *z, size_t n, strbuf *o) {
  strbuf_reset(o);
  for (size_t i = 0; i < n; i++) {
    char c = z[i] >= 'A' && z[i] <= 'Z' ? (char)(z[i] - 'A' + 'a') : z[i];
    strbuf_append(o, &c, 1);
  }
}

/* A comparison, BETWEEN, IN or LIKE of term value v. */
static cs_tri cs_eval_leaf(const sql_expr *e, const plan_term *v) {
  int r;
  cs_tri t, x;
  switch (e->eKind) {
    case SQL_EXPR_BINARY: {
      int bTermLeft = cs_is_term(e->pLeft);
      if ((t = cs_cmp_term(v, bTermLeft ? e->pRight : e->pLeft, &r)) != CS_TRUE) return t;
      return cs_compare(e->eOp, bTermLeft ? r : -r);
    }
    case SQL_EXPR_BETWEEN: {
      cs_tri a = cs_cmp_term(v, e->pList->a[0].pExpr, &r);
      cs_tri b;
      if (a == CS_TRUE) a = (cs_tri)(r >= 0);
      b = cs_cmp_term(v, e->pList->a[1].pExpr, &r);
      if (b == CS_TRUE) b = (cs_tri)(r <= 0);
      x = cs_and(a, b);
      return e->bNot ? cs_not(x) : x;
    }
    case SQL_EXPR_IN:
      x = CS_FALSE;
      for (int i = 0; i < e->pList->n && x != CS_TRUE; i++) {
        t = cs_cmp_term(v, e->pList->a[i].pExpr, &r);
        x = cs_or(x, t == CS_TRUE ? (cs_tri)(r == 0) : t);
      }
      return e->bNot ? cs_not(x) : x;
    case SQL_EXPR_LIKE: {
      if (v->bNull || e->pRight->eKind == SQL_EXPR_NULL) return CS_NULL;
      if (e->eOp == SQL_OP_ILIKE) {
        strbuf sv, sp;
        strbuf_init(&sv);
        strbuf_init(&sp);
        cs_fold(strbuf_str(&v->s), v->s.n, &sv);
        cs_fold(e->pRight->zText, strlen(e->pRight->zText), &sp);
        x = strbuf_error(&sv) || strbuf_error(&sp) ? CS_ERR
                                                   : (cs_tri)cs_like(strbuf_str(&sv), sv.n, strbuf_str(&sp));
        strbuf_free(&sv);
        strbuf_free(&sp);
        if (x == CS_ERR) return x;
      } else {
        x = (cs_tri)cs_like(strbuf_str(&v->s), v->s.n, e->pRight->zText);
      }
      return e->bNot ? cs_not(x) : x;
    }
    default:
      return CS_NULL;
  }
}

/* e evaluated for a row whose column holds s[0..ns), or is NULL where s is
** NULL. */
static cs_tri cs_eval(const sql_expr *e, const char *s, size_t ns) {
  switch (e->eKind) {
    case SQL_EXPR_BOOL: return e->bValue ? CS_TRUE : CS_FALSE;
    case SQL_EXPR_NULL: return CS_NULL;
    case SQL_EXPR_UNARY: return cs_not(cs_eval(e->pLeft, s, ns));
    case SQL_EXPR_BINARY:
      if (e->eOp == SQL_OP_AND) return cs_and(cs_eval(e->pLeft, s, ns), cs_eval(e->pRight, s, ns));
      if (e->eOp == SQL_OP_OR) return cs_or(cs_eval(e->pLeft, s, ns), cs_eval(e->pRight, s, ns));
      break;
    default:
      break;
  }
  {
    const sql_expr *pTerm = e->eKind == SQL_EXPR_BINARY && !cs_is_term(e->pLeft) ? e->pRight : e->pLeft;
    plan_term v;
    cs_tri x;
    memset(&v, 0, sizeof(v));
    strbuf_init(&v.s);
    x = plan__term_eval(pTerm, s, ns, &v) != 0 ? CS_ERR : cs_eval_leaf(e, &v);
    strbuf_free(&v.s);
    return x;
  }
}

/* Fills cs with the codes of column (s, col)'s dictionary d for which e is
** TRUE; *pnHit gets their rows (from st's frequencies), *pbNull is set if
** e is NULL for some string (a NULL literal in it). Returns 0 or -1. */
static int cs_fill(plan_ctx *c, const sql_expr *e, const store_dict *d, const col_stats *st,
                   plan_codeset *cs, uint64_t *pnHit, int *pbNull) {
  memset(cs, 0, sizeof(*cs));
  cs->nCode = d->n;
  cs->aBit = arena_alloc(c->pArena, sizeof(uint64_t) * (size_t)((d->n + 63) / 64 + 1));
  if (cs->aBit == NULL) return plan__oom(c);
  *pnHit = 0;
  *pbNull = 0;
  for (uint64_t i = 0; i < d->n; i++) {
    size_t n;
    const char *z = store_dict_str(d, i, &n);
    cs_tri t = cs_eval(e, z, n);
    if (t == CS_ERR) return plan__oom(c);
    if (t == CS_TRUE) {
      cs->aBit[i / 64] |= 1ull << (i % 64);
      if (cs->nPass++ == 0) cs->iLo = (uint32_t)i;
      cs->iHi = (uint32_t)i;
      if (st->aFreq != NULL && i < st->nFreq) *pnHit += st->aFreq[i];
    } else if (t == CS_NULL) {
      *pbNull = 1;
    }
  }
  /* Codes keep string order, so most predicates pass one run of codes. */
  cs->bRange = cs->nPass == 0 || (uint64_t)cs->iHi - cs->iLo + 1 == cs->nPass;
  return 0;
}

int plan__codeset(plan_ctx *c, plan_pred *pred) {
  int s = -1, col = -1, bNull;
  const store_dict *d;
  const col_stats *st;
  plan_codeset *cs;
  uint64_t nHit = 0;

  if (!cs_supported(pred->pExpr, &s, &col) || s < 0) return 0;
  if ((d = plan__dict(c, s, col)) == NULL || (st = plan__stats(c, s, col)) == NULL) return -1;
  cs = arena_alloc(c->pArena, sizeof(*cs));
  if (cs == NULL) return plan__oom(c);
  if (cs_fill(c, pred->pExpr, d, st, cs, &nHit, &bNull) != 0) return -1;
  pred->pCodes = cs;
  pred->iDictCol = col;
  if (st->aFreq != NULL && st->nFreq == d->n) {
    pred->rSel = st->nRow > 0 ? (double)nHit / (double)st->nRow : 0;
    pred->eEst = PLAN_EST_DICT;
  } else {
    /* Statistics from another generation: the share of codes instead. */
    pred->rSel = d->n > 0 ? (double)cs->nPass / (double)d->n : 0;
    pred->eEst = PLAN_EST_DEFAULT;
  }
  return 1;
}

/* ---- code sets of expressions inside others ---------------------------------- */

/* Adds e (boolean, of the forms cs_supported takes, reading column (s,
** col)) to the plan's expression sets, unless some string makes it NULL
** (a NULL literal): the kernels then refuse it. Returns 0 or -1. */
static int cs_exprset_add(plan_ctx *c, const sql_expr *e, int s, int col) {
  plan *p = c->p;
  const store_dict *d;
  const col_stats *st;
  plan_exprset *x;
  plan_codeset cs;
  uint64_t nHit;
  int bNull;
  cs_tri tNull;
  if ((d = plan__dict(c, s, col)) == NULL || (st = plan__stats(c, s, col)) == NULL) return -1;
  if (cs_fill(c, e, d, st, &cs, &nHit, &bNull) != 0) return -1;
  if (bNull) return 0;
  if (p->nExprSet == p->nExprSetAlloc) {
    int nNew = p->nExprSetAlloc ? 2 * p->nExprSetAlloc : 8;
    plan_exprset *aNew = arena_alloc(c->pArena, sizeof(plan_exprset) * (size_t)nNew);
    if (aNew == NULL) return plan__oom(c);
    if (p->nExprSet > 0) memcpy(aNew, p->aExprSet, sizeof(plan_exprset) * (size_t)p->nExprSet);
    p->aExprSet = aNew;
    p->nExprSetAlloc = nNew;
  }
  if ((tNull = cs_eval(e, NULL, 0)) == CS_ERR) return plan__oom(c);
  x = &p->aExprSet[p->nExprSet++];
  x->pExpr = e;
  x->iSource = s;
  x->iColumn = col;
  x->codes = cs;
  x->eNullRow = tNull == CS_TRUE ? PLAN_NULLROW_TRUE : tNull == CS_FALSE ? PLAN_NULLROW_FALSE
                                                                          : PLAN_NULLROW_NULL;
  return 0;
}

/* Finds the largest boolean subtrees of e that read one dictionary column
** and constants only, and answers each over its dictionary. */
static int cs_exprset_walk(plan_ctx *c, const sql_expr *e) {
  int s = -1, col = -1;
  if (e == NULL || e->b.bConstant) return 0;
  if (e->b.type.eId == COLTYPE_BOOLEAN && cs_supported(e, &s, &col) && s >= 0) {
    return cs_exprset_add(c, e, s, col);
  }
  if (cs_exprset_walk(c, e->pLeft) != 0 || cs_exprset_walk(c, e->pRight) != 0) return -1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (cs_exprset_walk(c, e->pList->a[i].pExpr) != 0) return -1;
  }
  return 0;
}

int plan__exprsets(plan_ctx *c) {
  return plan__each_expr(c, 1, cs_exprset_walk);
}

const plan_exprset *plan_exprset_find(const plan *p, const sql_expr *e) {
  for (int i = 0; i < p->nExprSet; i++) {
    if (p->aExprSet[i].pExpr == e) return &p->aExprSet[i];
  }
  return NULL;
}
