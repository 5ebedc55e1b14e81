/*
** planner/dag_snow.c — conditions between two dimensions of a star query
** (a snowflake: customer and supplier of one order in one city, WHERE
** c_city = s_city): the star core probes each dimension from the fact
** table and cannot compare two of them (two dictionaries' codes do not
** compare, and a non-key join is no probe). Such a condition is the
** host's: the split (dag_gset.c) groups the star query on the device by
** the columns it reads, besides the query's own keys, and filters and
** re-aggregates on the host.
**
** A conjunct is such a condition when its columns belong to two or more
** FROM items and none of them is a fact table (a table with foreign
** keys), and which is not an equality with a table's primary key:
** those are the star's joins and its own conditions. A column's item is told by its qualifier, or, bare, by the
** catalog (the one item whose table has the name).
**
** INTERFACE ROUTINES (dagInt.h)
**   dag__has_cross_dim, dag__is_cross_dim
*/
#include <string.h>

#include "dagInt.h"

/* The index of the FROM item of f (tables a) that column e reads, -1 if
** none can be told. */
static int dn_col_item(const sql_src_list *f, cat_table **a, const sql_expr *e) {
  int iFound = -1;
  if (e->zSchema != NULL) return -1;
  for (int i = 0; i < f->n; i++) {
    const sql_src_item *it = &f->a[i];
    const char *zName = it->zAlias != NULL ? it->zAlias : it->zName;
    if (it->eKind != SQL_SRC_TABLE || a[i] == NULL) continue;
    if (e->zTable != NULL) {
      if (zName != NULL && strcmp(zName, e->zTable) == 0) return i;
    } else if (cat_table_column(a[i], e->zName) >= 0) {
      if (iFound >= 0) return -1;            /* ambiguous: the binder's */
      iFound = i;
    }
  }
  return iFound;
}

/* Marks in abSeen the items whose columns e reads; returns -1 if one
** cannot be told, else 0. */
static int dn_items(const sql_src_list *f, cat_table **a, const sql_expr *e, unsigned char *abSeen) {
  if (e == NULL) return 0;
  if (e->pSelect != NULL || e->pWin != NULL) return -1;
  if (e->eKind == SQL_EXPR_COLUMN) {
    int i = dn_col_item(f, a, e);
    if (i < 0) return -1;
    abSeen[i] = 1;
    return 0;
  }
  if (dn_items(f, a, e->pLeft, abSeen) != 0 || dn_items(f, a, e->pRight, abSeen) != 0) return -1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (dn_items(f, a, e->pList->a[i].pExpr, abSeen) != 0) return -1;
  }
  return 0;
}

/* Returns 1 if e is a column that is the whole primary key of its table
** (an edge the star core joins on, whatever the schema declares). */
static int dn_is_pkey(const sql_src_list *f, cat_table **a, const sql_expr *e) {
  int i;
  if (e->eKind != SQL_EXPR_COLUMN || (i = dn_col_item(f, a, e)) < 0) return 0;
  return a[i]->nPkey == 1 && a[i]->aiPkey[0] == cat_table_column(a[i], e->zName);
}

int dag__is_cross_dim(dag_ctx *c, const sql_src_list *f, cat_table **a, const sql_expr *e) {
  unsigned char *abSeen;
  int nItem = 0;
  if (f == NULL || f->n < 2) return 0;
  if (e->eKind == SQL_EXPR_BINARY && e->eOp == SQL_OP_EQ &&
      (dn_is_pkey(f, a, e->pLeft) || dn_is_pkey(f, a, e->pRight))) {
    return 0;
  }
  if ((abSeen = arena_alloc(c->pArena, (size_t)f->n)) == NULL) return dag__oom(c);
  memset(abSeen, 0, (size_t)f->n);
  if (dn_items(f, a, e, abSeen) != 0) return 0;
  for (int i = 0; i < f->n; i++) {
    if (!abSeen[i]) continue;
    if (a[i]->nFkey > 0) return 0;           /* the fact table's: the star's */
    nItem++;
  }
  return nItem >= 2;
}

/* Returns 1 if e compares (or joins) two expressions that both read
** columns: what may be a condition between two tables. */
static int dn_is_literal(const sql_expr *e) {
  return e->eKind == SQL_EXPR_INTEGER || e->eKind == SQL_EXPR_DECIMAL || e->eKind == SQL_EXPR_STRING ||
         e->eKind == SQL_EXPR_DATE || e->eKind == SQL_EXPR_NULL || e->eKind == SQL_EXPR_BOOL ||
         e->eKind == SQL_EXPR_PARAM;
}

static int dn_maybe(const sql_expr *e) {
  return e->eKind == SQL_EXPR_BINARY && e->eOp >= SQL_OP_EQ && e->eOp <= SQL_OP_GE && e->pLeft != NULL &&
         e->pRight != NULL && !dn_is_literal(e->pLeft) && !dn_is_literal(e->pRight);
}

/* Returns 1 if a conjunct of e (a WHERE or an inner join's ON) is a
** condition between dimensions. */
static int dn_any(dag_ctx *c, const sql_src_list *f, cat_table **a, sql_expr *e) {
  sql_expr **ap = NULL;
  int n = 0;
  if (dag__conjuncts(c, e, &ap, &n) != 0) return 0;
  for (int i = 0; i < n; i++) {
    if (dn_maybe(ap[i]) && dag__is_cross_dim(c, f, a, ap[i]) == 1) return 1;
  }
  return 0;
}

int dag__has_cross_dim(dag_ctx *c, const sql_select *s) {
  const sql_src_list *f = s->pFrom;
  cat_table **a;
  int bMaybe = 0, r = 0;
  sql_expr **ap = NULL;
  int n = 0;
  if (s->eOp != SQL_SELECT_SIMPLE || f == NULL || f->n < 3) return 0;
  /* Cheap first: a comparison of two expressions, in WHERE or an ON. */
  if (dag__conjuncts(c, s->pWhere, &ap, &n) != 0) return 0;
  for (int i = 1; i < f->n; i++) {
    if (f->a[i].eJoin == SQL_JOIN_INNER && dag__conjuncts(c, f->a[i].pOn, &ap, &n) != 0) return 0;
  }
  for (int i = 0; i < n && !bMaybe; i++) bMaybe = dn_maybe(ap[i]);
  if (!bMaybe) return 0;
  if ((a = arena_alloc(c->pArena, sizeof(cat_table *) * (size_t)f->n)) == NULL) return 0;
  dag__tables_get(c->pCat, f, a);
  r = dn_any(c, f, a, s->pWhere);
  for (int i = 1; i < f->n && !r; i++) {
    if (f->a[i].eJoin == SQL_JOIN_INNER) r = dn_any(c, f, a, f->a[i].pOn);
  }
  dag__tables_free(f, a);
  return r;
}
