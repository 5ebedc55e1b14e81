/*
** planner/bind_gset.c — grouping sets: GROUP BY ROLLUP (...), CUBE (...),
** GROUPING SETS (...), (a, b) and (), and the grouping() operation.
**
** PostgreSQL's meaning: each GROUP BY item stands for a list of sets of
** expressions (an expression: one set of one; (a, b): one set of both;
** (): the empty set; ROLLUP (e1, ..., en): the n + 1 prefixes, longest
** first; CUBE (e1, ..., en): all 2^n subsets; GROUPING SETS (...): its
** items' lists one after another), and the query groups by every set of
** the cross product of its items' lists, duplicates kept. A row of a set
** has NULL in each grouped expression the set leaves out; grouping(x, y)
** says, one bit per argument (the first the most significant), which of
** its arguments the row's set leaves out.
**
** The binder keeps GROUP BY a flat list: every distinct expression the
** sets name, each bound where it is written (ordinals and output names
** as bind_agg.c resolves them), so that the grouping check and every
** later stage see the plain GROUP BY they know; the sets become masks
** over that list (bound_select.amGroupSet, bit k: item k). Only a query
** the host runs takes them (bind_env set): a star query with grouping
** sets is split by the DAG first (planner/dag_gset.c), so that the device
** groups by the finest set and the host rolls up.
**
** INTERFACE ROUTINES (bindInt.h)
**   bind__group_sets       flatten GROUP BY's sets into masks
**   bind__grouping_func    bind grouping(...)
**   bind__grouping_args    the grouping check of grouping()'s arguments
**   bind__is_grouping      is a node grouping(...)?
*/
#include <string.h>

#include "bindInt.h"

/* PostgreSQL's limit on the sets of one GROUP BY. */
#define BIND_GSET_MAX 4096
/* The masks are 32 bits; grouping() reads them as a positive integer. */
#define BIND_GSET_KEYS 31

/* A list of sets being built: masks over the flat list. */
typedef struct bind_gsets bind_gsets;
struct bind_gsets {
  int n, nAlloc;
  uint32_t *a;
};

/* What the flattening carries. */
typedef struct bind_gflat bind_gflat;
struct bind_gflat {
  bind_ctx *p;
  sql_expr_list *pFlat;    /* the distinct expressions, in order met */
  int nAlloc;
};

static int bind_gset_is_syntax(const sql_expr *e) {
  return e->eKind == SQL_EXPR_ROW || e->eKind == SQL_EXPR_ROLLUP || e->eKind == SQL_EXPR_CUBE ||
         e->eKind == SQL_EXPR_GROUPING_SETS;
}

static int bind_gsets_add(bind_ctx *p, bind_gsets *s, uint32_t m, int iOffset) {
  if (s->n == BIND_GSET_MAX) {
    sql_error_set(p->pErr, "54001", iOffset, "too many grouping sets present (maximum %d)",
                  BIND_GSET_MAX);
    return -1;
  }
  if (s->n == s->nAlloc) {
    int nNew = s->nAlloc ? 2 * s->nAlloc : 8;
    uint32_t *a = arena_alloc(p->pArena, sizeof(uint32_t) * (size_t)nNew);
    if (a == NULL) return bind__oom(p);
    if (s->n > 0) memcpy(a, s->a, sizeof(uint32_t) * (size_t)s->n);
    s->a = a;
    s->nAlloc = nNew;
  }
  s->a[s->n++] = m;
  return 0;
}

/* Binds leaf item it (an expression of GROUP BY) and returns its bit in
** the flat list, adding it there if no equal expression is, or -1. */
static int bind_gset_leaf(bind_gflat *f, sql_expr_item *it, uint32_t *pm) {
  bind_ctx *p = f->p;
  sql_expr_list *l = f->pFlat;
  if (bind__group_item(p, it) != 0) return -1;
  for (int k = 0; k < l->n; k++) {
    if (bind__expr_equal(l->a[k].pExpr, it->pExpr)) {
      *pm = 1u << k;
      return 0;
    }
  }
  if (l->n == BIND_GSET_KEYS) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, it->pExpr->iOffset,
                  "grouping sets over more than %d expressions are not supported yet", BIND_GSET_KEYS);
    return -1;
  }
  if (l->n == f->nAlloc) {
    int nNew = f->nAlloc ? 2 * f->nAlloc : 8;
    sql_expr_item *a = arena_alloc(p->pArena, sizeof(sql_expr_item) * (size_t)nNew);
    if (a == NULL) return bind__oom(p);
    if (l->n > 0) memcpy(a, l->a, sizeof(sql_expr_item) * (size_t)l->n);
    l->a = a;
    l->nAlloc = f->nAlloc = nNew;
  }
  l->a[l->n] = *it;
  *pm = 1u << l->n;
  l->n++;
  return 0;
}

/* The mask of an element of ROLLUP or CUBE, or of a ROW: an expression,
** or a parenthesized list of them. */
static int bind_gset_elem(bind_gflat *f, sql_expr_item *it, uint32_t *pm) {
  sql_expr *e = it->pExpr;
  *pm = 0;
  if (e->eKind == SQL_EXPR_ROW) {
    for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
      uint32_t m;
      if (bind_gset_elem(f, &e->pList->a[i], &m) != 0) return -1;
      *pm |= m;
    }
    return 0;
  }
  if (bind_gset_is_syntax(e)) {
    /* ROLLUP (a, CUBE (b)): PostgreSQL's grammar has no such thing. */
    sql_error_set(f->p->pErr, SQLSTATE_SYNTAX_ERROR, e->iOffset, "syntax error at or near \"(\"");
    return -1;
  }
  return bind_gset_leaf(f, it, pm);
}

/* Appends the sets GROUP BY item it stands for to *pOut. */
static int bind_gset_item(bind_gflat *f, sql_expr_item *it, bind_gsets *pOut) {
  bind_ctx *p = f->p;
  sql_expr *e = it->pExpr;
  int n = e->pList != NULL ? e->pList->n : 0;
  uint32_t am[BIND_GSET_KEYS], m = 0;
  switch (e->eKind) {
    case SQL_EXPR_ROLLUP:
    case SQL_EXPR_CUBE:
      if (n > BIND_GSET_KEYS) {
        sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                      "grouping sets over more than %d expressions are not supported yet", BIND_GSET_KEYS);
        return -1;
      }
      for (int i = 0; i < n; i++) {
        if (bind_gset_elem(f, &e->pList->a[i], &am[i]) != 0) return -1;
      }
      if (e->eKind == SQL_EXPR_ROLLUP) {
        for (int k = n; k >= 0; k--) {
          m = 0;
          for (int i = 0; i < k; i++) m |= am[i];
          if (bind_gsets_add(p, pOut, m, e->iOffset) != 0) return -1;
        }
        return 0;
      }
      if (n > 12) {
        sql_error_set(p->pErr, "54001", e->iOffset,
                      "too many grouping sets present (maximum %d)", BIND_GSET_MAX);
        return -1;
      }
      /* All subsets, the whole first, as PostgreSQL lists them. */
      for (uint32_t s = (1u << n) - 1;; s--) {
        m = 0;
        for (int i = 0; i < n; i++) {
          if (s & (1u << (n - 1 - i))) m |= am[i];
        }
        if (bind_gsets_add(p, pOut, m, e->iOffset) != 0) return -1;
        if (s == 0) break;
      }
      return 0;
    case SQL_EXPR_GROUPING_SETS:
      for (int i = 0; i < n; i++) {
        if (bind_gset_item(f, &e->pList->a[i], pOut) != 0) return -1;
      }
      return 0;
    default:
      if (bind_gset_elem(f, it, &m) != 0) return -1;
      return bind_gsets_add(p, pOut, m, e->iOffset);
  }
}

int bind__group_sets(bind_ctx *p, sql_select *pSel) {
  sql_expr_list *g = pSel->pGroupBy, *pFlat;
  bind_gflat f;
  bind_gsets cur;
  int bSets = 0;
  for (int i = 0; g != NULL && i < g->n; i++) {
    if (bind_gset_is_syntax(g->a[i].pExpr)) bSets = 1;
  }
  if (!bSets) return 0;
  /* A star query's pipeline never groups by sets (dag_gset.c splits it). */
  if (p->pEnv == NULL) {
    for (int i = 0; i < g->n; i++) {
      if (bind_gset_is_syntax(g->a[i].pExpr)) return bind__refuse_expr(p, g->a[i].pExpr);
    }
  }
  if ((pFlat = arena_alloc(p->pArena, sizeof(sql_expr_list))) == NULL) return bind__oom(p);
  memset(pFlat, 0, sizeof(*pFlat));
  memset(&f, 0, sizeof(f));
  f.p = p;
  f.pFlat = pFlat;
  memset(&cur, 0, sizeof(cur));
  if (bind_gsets_add(p, &cur, 0, pSel->iOffset) != 0) return -1;
  /* The cross product of the items' lists, left to right. */
  for (int i = 0; i < g->n; i++) {
    bind_gsets one, next;
    memset(&one, 0, sizeof(one));
    memset(&next, 0, sizeof(next));
    if (bind_gset_item(&f, &g->a[i], &one) != 0) return -1;
    for (int a = 0; a < cur.n; a++) {
      for (int b = 0; b < one.n; b++) {
        if (bind_gsets_add(p, &next, cur.a[a] | one.a[b], g->a[i].pExpr->iOffset) != 0) return -1;
      }
    }
    cur = next;
  }
  pSel->pGroupBy = pFlat;
  /* One set of every expression is a plain GROUP BY. */
  if (cur.n == 1 && pFlat->n > 0 && cur.a[0] == (1u << pFlat->n) - 1) {
    return 1;
  }
  p->pOut->nGroupSet = cur.n;
  p->pOut->amGroupSet = cur.a;
  return 1;
}

/* ---- grouping() ---------------------------------------------------------- */

int bind__is_grouping(const sql_expr *e) {
  return e != NULL && e->eKind == SQL_EXPR_FUNC && e->pWin == NULL && e->b.iAgg < 0 && e->zName != NULL &&
         strcmp(e->zName, "grouping") == 0 && (e->zSchema == NULL || strcmp(e->zSchema, "pg_catalog") == 0);
}

int bind__grouping_func(bind_ctx *p, sql_expr *e) {
  const char *zWhere = NULL;
  int n = e->pList != NULL ? e->pList->n : 0;
  switch (p->eClause) {
    case BIND_CLAUSE_WHERE: zWhere = "WHERE"; break;
    case BIND_CLAUSE_ON: zWhere = "JOIN conditions"; break;
    case BIND_CLAUSE_GROUP_BY: zWhere = "GROUP BY"; break;
    case BIND_CLAUSE_LIMIT: zWhere = "LIMIT"; break;
    case BIND_CLAUSE_OFFSET: zWhere = "OFFSET"; break;
    default: break;
  }
  if (zWhere != NULL) {
    sql_error_set(p->pErr, SQLSTATE_GROUPING_ERROR, e->iOffset, "grouping operations are not allowed in %s",
                  zWhere);
    return -1;
  }
  if (n >= 32) {
    sql_error_set(p->pErr, "54023", e->iOffset, "GROUPING must have fewer than 32 arguments");
    return -1;
  }
  if (p->pEnv == NULL) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "grouping() in this query is not supported yet");
    return -1;
  }
  e->b.type = (coltype){COLTYPE_INTEGER, 0, 0, 0};
  e->b.bConstant = 0;
  e->b.bHasAgg = 1;
  p->bGroupingOp = 1;
  return 0;
}

int bind__grouping_args(bind_ctx *p, const sql_expr_list *pGroupBy, const sql_expr *e) {
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    const sql_expr *a = e->pList->a[i].pExpr;
    int bFound = 0;
    for (int k = 0; pGroupBy != NULL && k < pGroupBy->n && !bFound; k++) {
      bFound = bind__expr_equal(pGroupBy->a[k].pExpr, a);
    }
    if (!bFound) {
      sql_error_set(p->pErr, SQLSTATE_GROUPING_ERROR, a->iOffset,
                    "arguments to GROUPING must be grouping expressions of the associated query level");
      return -1;
    }
  }
  return 0;
}
