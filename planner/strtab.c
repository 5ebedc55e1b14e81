/*
** planner/strtab.c — the plan's string table: every string literal that a
** string-valued expression other than a column can take as its value (a
** literal, a CASE whose results are literals or NULL) in the select list,
** ORDER BY or GROUP BY, or as the argument of an aggregate there (min,
** max), and every string a string map (strval.c) takes, sorted in byte
** order and unique.
**
** The kernels never hold a string: such an expression's value is the
** index of its string in this table, a literal's index a kernel parameter.
** Sorted, the indexes compare as the strings do (the "C" collation, as the
** dictionaries), so ORDER BY and GROUP BY work on them unchanged; the
** result carries the table and prints the strings (runtime/result.c).
**
** INTERFACE ROUTINES
**   plan_strlist_expr   is this string expression held by the table?
**   plan_str_index      a literal's index
**   plan_dictcase_column  a CASE whose values are one column's codes
**   plan__strtab        builds the table (plan_build)
*/
#include <stdlib.h>
#include <string.h>

#include "planInt.h"

int plan_strlist_expr(const sql_expr *e) {
  switch (e->eKind) {
    case SQL_EXPR_STRING:
    case SQL_EXPR_NULL:
      return 1;
    case SQL_EXPR_CASE:
      for (int i = 1; e->pList != NULL && i < e->pList->n; i += 2) {
        if (!plan_strlist_expr(e->pList->a[i].pExpr)) return 0;
      }
      return e->pRight == NULL || plan_strlist_expr(e->pRight);
    default:
      return 0;
  }
}

/* A value the table holds: a string-typed (or untyped) expression that is
** not a column, made of literals. */
static int strtab_holds(const sql_expr *e) {
  return e->eKind != SQL_EXPR_COLUMN && (coltype_is_string(e->b.type) || e->b.type.eId == COLTYPE_UNKNOWN) &&
         plan_strlist_expr(e);
}

/* Appends the literals that are values of e (not those it compares) to
** az (when not NULL) and counts them in *pn. */
static void strtab_collect(const sql_expr *e, const char **az, int *pn) {
  if (e->eKind == SQL_EXPR_STRING) {
    if (az != NULL) az[*pn] = e->zText != NULL ? e->zText : "";
    (*pn)++;
  } else if (e->eKind == SQL_EXPR_CASE) {
    for (int i = 1; e->pList != NULL && i < e->pList->n; i += 2) {
      strtab_collect(e->pList->a[i].pExpr, az, pn);
    }
    if (e->pRight != NULL) strtab_collect(e->pRight, az, pn);
  }
}

/* Every expression the table serves: the select list, ORDER BY, GROUP BY. */
static void strtab_walk(const plan *p, const char **az, int *pn) {
  const sql_select *pSel = p->pSelect;
  const sql_expr_list *aList[3] = {p->pBound->pItems, pSel->pOrderBy, pSel->pGroupBy};
  for (int l = 0; l < 3; l++) {
    for (int i = 0; aList[l] != NULL && i < aList[l]->n; i++) {
      const sql_expr *e = aList[l]->a[i].pExpr;
      if (strtab_holds(e)) strtab_collect(e, az, pn);
      /* min and max of such values: over their indexes */
      if (e->eKind == SQL_EXPR_FUNC && e->b.iAgg >= 0 && e->pList != NULL && e->pList->n == 1 &&
          strtab_holds(e->pList->a[0].pExpr)) {
        strtab_collect(e->pList->a[0].pExpr, az, pn);
      }
    }
  }
}

static int strtab_cmp(const void *pa, const void *pb) {
  return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

int plan__strtab(plan_ctx *c) {
  plan *p = c->p;
  int n = 0, nUniq = 0, nMap = plan__strmaps_strings(p, NULL);
  strtab_walk(p, NULL, &n);
  p->azStr = arena_alloc(c->pArena, sizeof(char *) * (size_t)(n + nMap + 1));
  if (p->azStr == NULL) return plan__oom(c);
  n = 0;
  strtab_walk(p, p->azStr, &n);
  n += plan__strmaps_strings(p, p->azStr + n);
  qsort(p->azStr, (size_t)n, sizeof(char *), strtab_cmp);
  for (int i = 0; i < n; i++) {
    if (nUniq == 0 || strcmp(p->azStr[nUniq - 1], p->azStr[i]) != 0) p->azStr[nUniq++] = p->azStr[i];
  }
  p->nStr = nUniq;
  plan__strmaps_resolve(p);
  return 0;
}

const sql_expr *plan_dictcase_column(const sql_expr *e) {
  const sql_expr *pCol = NULL;
  if (e->eKind != SQL_EXPR_CASE || !coltype_is_string(e->b.type)) return NULL;
  for (int i = 0; i <= (e->pList != NULL ? e->pList->n / 2 : 0); i++) {
    const sql_expr *v = e->pList != NULL && i < e->pList->n / 2 ? e->pList->a[2 * i + 1].pExpr : e->pRight;
    if (v == NULL || v->eKind == SQL_EXPR_NULL) continue;
    if (v->eKind == SQL_EXPR_CASE) v = plan_dictcase_column(v);
    if (v == NULL || v->eKind != SQL_EXPR_COLUMN) return NULL;
    if (pCol != NULL && (pCol->b.iSource != v->b.iSource || pCol->b.iColumn != v->b.iColumn)) return NULL;
    pCol = v;
  }
  return pCol;
}

int plan_str_index(const plan *p, const char *z) {
  int lo = 0, hi = p->nStr - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2, r = strcmp(p->azStr[mid], z);
    if (r == 0) return mid;
    if (r < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
