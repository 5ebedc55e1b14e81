/*
** planner/dag_query.c — a SELECT over derived tables and non-recursive
** CTEs (issue 25): each derived table and each CTE is built like any
** query of the statement (a star query becomes a device pipeline, a set
** operation or another such SELECT a host subtree), and the SELECT's
** own clauses become the host tail above them:
**
**   FROM       the relations side by side: joins (inner, LEFT, RIGHT,
**              FULL) hashed on the ON's equalities between the two sides
**              (a comma join on WHERE's), the rest of the ON checked on
**              each pair
**   WHERE      HN_FILTER
**   GROUP BY   HN_AGG: keys, then the aggregates (count, sum, avg, min,
**   HAVING     max, DISTINCT), HAVING an HN_FILTER over them
**   OVER       an HN_WINDOW per window call (dag_window.c)
**   select     HN_PROJECT of the select list and the ORDER BY expressions
**              it lacks, HN_DISTINCT, HN_SORT, HN_LIMIT, and a last
**              HN_PROJECT dropping the sort-only columns
**
** The SELECT is bound by the binder itself (bind_select_env), which sees
** each derived table and CTE as a relation with the columns its query
** makes, so names, types, grouping and errors are the binder's as for
** any SELECT. A table of the catalog beside them is read whole by a
** pipeline of its own (a dimension beside an aggregate of the fact table;
** past the host's memory budget, 53200). A CTE is one HN_SHARED node, made once however often it is
** read. A CTE's scope is the statement below its WITH, the CTEs after it
** included; a CTE name hides a table of that name, as in PostgreSQL.
**
** INTERFACE ROUTINES (dagInt.h)
**   dag__is_host_query, dag__host_query
*/
#include <string.h>

#include "dagInt.h"

/* The CTEs of one WITH, those built so far visible. */
struct dag_scope {
  const sql_with *pWith;
  dag_rel *aRel;           /* per CTE: its rows (an HN_SHARED node) */
  int nBuilt;              /* CTEs 0..nBuilt-1 may be named */
  dag_scope *pUp;
};

/* The built CTE an unqualified name refers to, or NULL. */
/* The virtual relation FROM item it names (pg_catalog.x,
** information_schema.x, or x that the search path finds in pg_catalog
** before public, as PostgreSQL's does), or NULL. */
static const vrel *dq_vrel_find(const sql_src_item *it) {
  if (it->eKind != SQL_SRC_TABLE || it->zName == NULL) return NULL;
  if (it->zSchema == NULL) return vrel_find(NULL, it->zName);
  if (strcmp(it->zSchema, "pg_catalog") != 0 && strcmp(it->zSchema, "information_schema") != 0) {
    return NULL;
  }
  return vrel_find(it->zSchema, it->zName);
}

static const dag_rel *dq_cte_find(const dag_ctx *c, const char *zName) {
  for (const dag_scope *s = c->pScope; s != NULL; s = s->pUp) {
    for (int i = s->nBuilt - 1; i >= 0; i--) {
      if (strcmp(s->pWith->aCte[i].zName, zName) == 0) return &s->aRel[i];
    }
  }
  return NULL;
}

/* 1 if expression e calls a function only func/'s registry has (version(),
** current_setting(), ...) or casts to regclass and its kin: the host
** executor runs it. */
static int dq_expr_calls_registry(const sql_expr *e) {
  if (e == NULL) return 0;
  if (e->eKind == SQL_EXPR_FUNC && bind_func_is_registry_only(e->zName)) return 1;
  if (e->eKind == SQL_EXPR_CAST && e->nCastDim == 0 && bind__is_oid_type(e->castType.eId)) return 1;
  if (dq_expr_calls_registry(e->pLeft) || dq_expr_calls_registry(e->pRight)) return 1;
  for (int i = 0; e->pList != NULL && i < e->pList->n; i++) {
    if (dq_expr_calls_registry(e->pList->a[i].pExpr)) return 1;
  }
  return 0;
}

static int dq_calls_registry(const sql_select *s) {
  for (int i = 0; s->pItems != NULL && i < s->pItems->n; i++) {
    if (dq_expr_calls_registry(s->pItems->a[i].pExpr)) return 1;
  }
  return dq_expr_calls_registry(s->pWhere);
}

int dag__is_host_query(const dag_ctx *c, const sql_select *s) {
  if (s->eOp != SQL_SELECT_SIMPLE) return 0;
  if (s->pWith != NULL && !s->pWith->bRecursive) return 1;
  if ((s->pFrom == NULL || s->pFrom->n == 0) && dq_calls_registry(s)) return 1;
  for (int i = 0; s->pFrom != NULL && i < s->pFrom->n; i++) {
    const sql_src_item *it = &s->pFrom->a[i];
    if (it->eKind == SQL_SRC_SUBQUERY && !it->bLateral) return 1;
    if (it->eKind == SQL_SRC_TABLE && it->zSchema == NULL && dq_cte_find(c, it->zName) != NULL) return 1;
    if (dq_vrel_find(it) != NULL || dag__is_series(it)) return 1;
  }
  return 0;
}

/* ---- the relations of FROM ------------------------------------------------------ */

/* What the binder asks the FROM items of one SELECT about. */
typedef struct dq_from dq_from;
struct dq_from {
  dag_ctx *c;
  const sql_select *s;
  dag_rel *aRel;           /* per FROM item: its rows */
  const bound_select *b;   /* the SELECT as bound so far */
  dag_outer *pOuter;       /* the query enclosing it, or NULL */
};

/* Makes the columns of rel (named by azAlias[0..nAlias) first, then its
** own names) into a definition named zName for the binder. */
static int dq_table(dag_ctx *c, const char *zName, const dag_rel *rel, int nAlias,
                    const char *const *azAlias, int iOffset, cat_table **ppTable) {
  cat_table *t = cat_table_new(zName);
  char zErr[256];
  if (t == NULL) return dag__oom(c);
  for (int i = 0; i < rel->pNode->nCol; i++) {
    const char *zCol = i < nAlias ? azAlias[i] : rel->aOut[i].zName;
    if (cat_table_add_virtual_column(t, zCol, rel->pNode->aType[i], 0, zErr, sizeof(zErr)) != 0) {
      sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, iOffset,
                    "a derived table or CTE with two columns named \"%s\" is not supported yet", zCol);
      cat_table_free(t);
      return -1;
    }
  }
  *ppTable = t;
  return 0;
}

/* bind_env.xRelation: a FROM item of the SELECT being bound. */
static int dq_relation(void *pArg, const sql_src_item *pItem, cat_table **ppTable, sql_error *pErr) {
  dq_from *f = pArg;
  int i = (int)(pItem - f->s->pFrom->a);
  const dag_rel *rel;
  (void)pErr;
  if (i < 0 || i >= f->s->pFrom->n || f->aRel[i].pNode == NULL) return 0;
  rel = &f->aRel[i];
  if (pItem->nColAlias > rel->pNode->nCol) {
    sql_error_set(f->c->pErr, SQLSTATE_INVALID_COLUMN_REF, pItem->iAliasOffset,
                  "table \"%s\" has %d columns available but %d columns specified",
                  pItem->zAlias != NULL ? pItem->zAlias : pItem->zName, rel->pNode->nCol,
                  pItem->nColAlias);
    return -1;
  }
  if (dq_table(f->c, pItem->zAlias != NULL ? pItem->zAlias : pItem->zName != NULL ? pItem->zName : rel->aOut[0].zName, rel, pItem->nColAlias,
               pItem->azColAlias, pItem->iOffset, ppTable) != 0) {
    return -1;
  }
  return 1;
}

/* bind_env.xOuter: column e, which the subquery lacks, as a column of
** the enclosing SELECT's FROM, its parameter; one level up only. */
static int dq_outer_column(void *pArg, sql_expr *e, sql_error *pErr) {
  dq_from *f = pArg;
  dag_outer *o = f->pOuter;
  const dq_from *of = o->pFrom;
  const bound_select *b = of->b;
  int iSource = -1, iColumn = -1, k;
  sql_expr *x, **ap;
  if (e->zSchema != NULL) return 0;
  for (int s = 0; s < b->nSource; s++) {
    const cat_table *t = b->aSource[s].pTable;
    if (e->zTable != NULL && strcmp(b->aSource[s].zAlias, e->zTable) != 0) continue;
    for (int j = 0; j < t->nCol; j++) {
      if (strcasecmp(t->aCol[j].zName, e->zName) != 0) continue;
      if (iSource >= 0) {
        sql_error_set(pErr, SQLSTATE_AMBIGUOUS_COLUMN, e->iOffset, "column reference \"%s\" is ambiguous",
                      e->zName);
        return -1;
      }
      iSource = s;
      iColumn = j;
    }
  }
  if (iSource < 0) return 0;
  for (k = 0; k < o->nParam; k++) {
    if (o->apParam[k]->b.iSource == iSource && o->apParam[k]->b.iColumn == iColumn) break;
  }
  if (k == o->nParam) {
    x = arena_alloc(f->c->pArena, sizeof(sql_expr));
    ap = arena_alloc(f->c->pArena, sizeof(sql_expr *) * (size_t)(o->nParam + 1));
    if (x == NULL || ap == NULL) return dag__oom(f->c);
    *x = *e;
    memset(&x->b, 0, sizeof(x->b));
    x->b.iSource = iSource;
    x->b.iColumn = iColumn;
    x->b.iAgg = -1;
    x->b.type = b->aSource[iSource].pTable->aCol[iColumn].type;
    if (o->nParam > 0) memcpy(ap, o->apParam, sizeof(sql_expr *) * (size_t)o->nParam);
    ap[o->nParam++] = x;
    o->apParam = ap;
  }
  e->b.iSource = BIND_SOURCE_OUTER;
  e->b.iColumn = k;
  e->b.iAgg = -1;
  e->b.bConstant = 0;
  e->b.type = o->apParam[k]->b.type;
  return 1;
}

/* bind_env.xSubquery: subquery expression e of the SELECT being bound,
** built as a query of its own and kept as a subplan of the tail. A host
** query inside may name the columns of this SELECT's FROM (correlated):
** they become the subplan's parameters (c->apSubOuter). */
static int dq_subquery(void *pArg, sql_expr *e, int *pnCol, coltype *aType, sql_error *pErr) {
  dq_from *f = pArg;
  dag_ctx *c = f->c;
  host_plan *pTail = c->pTail;
  host_subplan *s, **apSub;
  const sql_expr **apExpr;
  dag_outer o, *pSaved = c->pOuter, *pO = NULL, **apOuter;
  dag_rel r;
  int rc;
  (void)pErr;
  memset(&o, 0, sizeof(o));
  o.pFrom = f;
  c->pOuter = &o;
  rc = dag__rel_build(c, e->pSelect, &r);
  c->pOuter = pSaved;
  if (rc != 0) {
    /* A name the subquery cannot resolve alone may be the outer query's:
    ** a correlated subquery, which starq does not run yet. */
    if (strcmp(c->pErr->zState, SQLSTATE_UNDEFINED_COLUMN) == 0 ||
        strcmp(c->pErr->zState, SQLSTATE_UNDEFINED_TABLE) == 0) {
      sql_error e2 = *c->pErr;
      sql_error_clear(c->pErr);
      sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e2.iOffset,
                    "correlated subqueries are not supported yet (%s)", e2.zMsg);
    }
    return -1;
  }
  *pnCol = r.pNode->nCol;
  for (int i = 0; i < r.pNode->nCol && i < 8; i++) aType[i] = r.pNode->aType[i];
  s = arena_alloc(c->pArena, sizeof(host_subplan));
  apSub = arena_alloc(c->pArena, sizeof(host_subplan *) * (size_t)(pTail->nSubplan + 1));
  apExpr = arena_alloc(c->pArena, sizeof(sql_expr *) * (size_t)(c->nSub + 1));
  apOuter = arena_alloc(c->pArena, sizeof(dag_outer *) * (size_t)(c->nSub + 1));
  if (o.nParam > 0 && (pO = arena_alloc(c->pArena, sizeof(dag_outer))) != NULL) *pO = o;
  if (s == NULL || apSub == NULL || apExpr == NULL || apOuter == NULL || (o.nParam > 0 && pO == NULL)) {
    return dag__oom(c);
  }
  memset(s, 0, sizeof(*s));
  s->iId = pTail->nSubplan;
  s->pPlan = r.pNode;
  if (pTail->nSubplan > 0) memcpy(apSub, pTail->apSub, sizeof(host_subplan *) * (size_t)pTail->nSubplan);
  apSub[pTail->nSubplan++] = s;
  pTail->apSub = apSub;
  /* apSubExpr[i] is the expression of pTail->apSub[i]. */
  if (c->nSub > 0) memcpy(apExpr, c->apSubExpr, sizeof(sql_expr *) * (size_t)c->nSub);
  if (c->nSub > 0) memcpy(apOuter, c->apSubOuter, sizeof(dag_outer *) * (size_t)c->nSub);
  apOuter[c->nSub] = pO;
  c->apSubOuter = apOuter;
  apExpr[c->nSub++] = e;
  c->apSubExpr = apExpr;
  return 0;
}

/* Builds every FROM item of s into f->aRel: a subquery's query, a CTE's
** shared rows; a table of the catalog beside them is refused. */
/* A scan of virtual relation v, its rows whole. */
static int dq_vrel_scan(dag_ctx *c, const vrel *v, dag_rel *pOut) {
  host_node *n = dag__node_new(c, HN_VREL, v->nCol);
  bind_output *aOut = arena_alloc(c->pArena, sizeof(bind_output) * (size_t)(v->nCol + 1));
  if (n == NULL || aOut == NULL) return dag__oom(c);
  for (int i = 0; i < v->nCol; i++) {
    n->aType[i] = v->aCol[i].type;
    aOut[i].zName = v->aCol[i].zName;
    aOut[i].type = v->aCol[i].type;
  }
  n->pVrel = v;
  n->rEst = v->nRowEstimate;
  pOut->pNode = n;
  pOut->aOut = aOut;
  return 0;
}

static int dq_from_build(dag_ctx *c, sql_select *s, dq_from *f) {
  int n = s->pFrom != NULL ? s->pFrom->n : 0;
  f->c = c;
  f->s = s;
  if ((f->aRel = arena_alloc(c->pArena, sizeof(dag_rel) * (size_t)(n + 1))) == NULL) return dag__oom(c);
  memset(f->aRel, 0, sizeof(dag_rel) * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    sql_src_item *it = &s->pFrom->a[i];
    const dag_rel *pCte;
    const vrel *pVrel;
    if (it->eKind == SQL_SRC_SUBQUERY && !it->bLateral) {
      if (it->zAlias == NULL) {
        sql_error_set(c->pErr, SQLSTATE_SYNTAX_ERROR, it->iOffset, "subquery in FROM must have an alias");
        return -1;
      }
      if (dag__rel_build(c, it->pSelect, &f->aRel[i]) != 0) return -1;
    } else if (it->eKind == SQL_SRC_TABLE && it->zSchema == NULL &&
               (pCte = dq_cte_find(c, it->zName)) != NULL) {
      f->aRel[i] = *pCte;
    } else if (dag__is_series(it)) {
      if (dag__series_build(c, it, &f->aRel[i]) != 0) return -1;
    } else if ((pVrel = dq_vrel_find(it)) != NULL) {
      if (dq_vrel_scan(c, pVrel, &f->aRel[i]) != 0) return -1;
    } else if (it->eKind == SQL_SRC_TABLE && it->zSchema != NULL &&
               (strcmp(it->zSchema, "pg_catalog") == 0 || strcmp(it->zSchema, "information_schema") == 0)) {
      sql_error_set(c->pErr, SQLSTATE_UNDEFINED_TABLE, it->iOffset, "relation \"%s.%s\" does not exist",
                    it->zSchema, it->zName);
      return -1;
    }
    /* Anything else: the binder binds it (a missing table is its 42P01)
    ** or refuses it, positioned; a table of the catalog that binds is
    ** read by a pipeline of its own (dq_clauses). */
  }
  return 0;
}

/* Builds the CTEs of s's WITH, each in the scope of those before it. */
static int dq_with_build(dag_ctx *c, const sql_with *w, dag_scope *pScope) {
  memset(pScope, 0, sizeof(*pScope));
  pScope->pWith = w;
  pScope->pUp = c->pScope;
  if ((pScope->aRel = arena_alloc(c->pArena, sizeof(dag_rel) * (size_t)(w->nCte + 1))) == NULL) {
    return dag__oom(c);
  }
  c->pScope = pScope;
  for (int i = 0; i < w->nCte; i++) {
    const sql_cte *pCte = &w->aCte[i];
    dag_rel r;
    host_node *n;
    for (int j = 0; j < i; j++) {
      if (strcmp(w->aCte[j].zName, pCte->zName) == 0) {
        sql_error_set(c->pErr, "42712", pCte->iOffset, "WITH query name \"%s\" specified more than once",
                      pCte->zName);
        return -1;
      }
    }
    if (dag__rel_build(c, pCte->pSelect, &r) != 0) return -1;
    if (pCte->nCol > r.pNode->nCol) {
      sql_error_set(c->pErr, SQLSTATE_INVALID_COLUMN_REF, pCte->iOffset,
                    "WITH query \"%s\" has %d columns available but %d columns specified", pCte->zName,
                    r.pNode->nCol, pCte->nCol);
      return -1;
    }
    /* Made once per run, however many times it is read. */
    if ((n = dag__node_new(c, HN_SHARED, r.pNode->nCol)) == NULL) return dag__oom(c);
    memcpy(n->aType, r.pNode->aType, sizeof(coltype) * (size_t)n->nCol);
    n->pLeft = r.pNode;
    n->iShared = c->pTail->nShared++;
    n->zLabel = pCte->zName;
    r.pNode = n;
    if (pCte->nCol > 0) {
      bind_output *a = arena_alloc(c->pArena, sizeof(bind_output) * (size_t)n->nCol);
      if (a == NULL) return dag__oom(c);
      memcpy(a, r.aOut, sizeof(bind_output) * (size_t)n->nCol);
      for (int k = 0; k < pCte->nCol; k++) a[k].zName = pCte->azCol[k];
      r.aOut = a;
    }
    pScope->aRel[i] = r;
    pScope->nBuilt = i + 1;
  }
  return 0;
}

/* A table of the catalog beside derived tables: its rows, all columns in
** table order (the order the SELECT was bound against), from a pipeline
** of its own (SELECT * FROM it), into *pOut. */
static int dq_table_pipe(dag_ctx *c, const sql_src_item *pItem, dag_rel *pOut) {
  sql_select *s = arena_alloc(c->pArena, sizeof(sql_select));
  sql_expr *pStar = arena_alloc(c->pArena, sizeof(sql_expr));
  sql_expr_list *pItems = arena_alloc(c->pArena, sizeof(sql_expr_list));
  sql_src_list *pFrom = arena_alloc(c->pArena, sizeof(sql_src_list));
  sql_expr_item *aItem = arena_alloc(c->pArena, sizeof(sql_expr_item));
  sql_src_item *aSrc = arena_alloc(c->pArena, sizeof(sql_src_item));
  if (s == NULL || pStar == NULL || pItems == NULL || pFrom == NULL || aItem == NULL || aSrc == NULL) {
    return dag__oom(c);
  }
  memset(s, 0, sizeof(*s));
  memset(pStar, 0, sizeof(*pStar));
  memset(aItem, 0, sizeof(*aItem));
  memset(aSrc, 0, sizeof(*aSrc));
  pStar->eKind = SQL_EXPR_STAR;
  pStar->iOffset = pItem->iOffset;
  pStar->nHeight = 1;
  aItem->pExpr = pStar;
  pItems->n = pItems->nAlloc = 1;
  pItems->a = aItem;
  aSrc->eKind = SQL_SRC_TABLE;
  aSrc->zSchema = pItem->zSchema;
  aSrc->zName = pItem->zName;
  aSrc->iOffset = pItem->iOffset;
  pFrom->n = pFrom->nAlloc = 1;
  pFrom->a = aSrc;
  s->eOp = SQL_SELECT_SIMPLE;
  s->iOffset = pItem->iOffset;
  s->pItems = pItems;
  s->pFrom = pFrom;
  s->nHeight = 1;
  return dag__rel_build(c, s, pOut);
}

/* ---- the SELECT's clauses ---------------------------------------------------------- */

/* If e is column = column between the left side (row columns [0, nLeft))
** and the right (columns [nLeft, nEnd)) of one type, adds it to join j's
** hash keys and returns 1; else 0, or -1 out of memory. */
static int dq_key_pair(dag_xlate *t, host_node *j, const sql_expr *e, int nLeft, int nEnd) {
  int a, b, iL, iR;
  if (e->eKind != SQL_EXPR_BINARY || e->eOp != SQL_OP_EQ || e->pLeft->eKind != SQL_EXPR_COLUMN ||
      e->pRight->eKind != SQL_EXPR_COLUMN || j->nKey >= 8 ||
      e->pLeft->b.type.eId != e->pRight->b.type.eId || e->pLeft->b.iSource == BIND_SOURCE_OUTER ||
      e->pRight->b.iSource == BIND_SOURCE_OUTER) {
    return 0;  /* an enclosing row's column is a parameter, no join key */
  }
  a = t->aOff[e->pLeft->b.iSource] + e->pLeft->b.iColumn;
  b = t->aOff[e->pRight->b.iSource] + e->pRight->b.iColumn;
  iL = a < b ? a : b;
  iR = a < b ? b : a;
  if (iL >= nLeft || iR < nLeft || iR >= nEnd) return 0;
  if ((j->apLeftKey[j->nKey] = dag__expr_col(t->c, iL, j->aType[iL])) == NULL ||
      (j->apRightKey[j->nKey] = dag__expr_col(t->c, iR - nLeft, j->aType[iR])) == NULL) {
    return dag__oom(t->c);
  }
  j->nKey++;
  return 1;
}

/* Splits join condition e into equalities between a column of the left
** side and one of the right, which key the hash join, and the rest
** (*ppRest, NULL if none). Returns 0 or -1. */
static int dq_join_keys(dag_xlate *t, host_node *j, const sql_expr *e, int nLeft, host_expr **ppRest) {
  int rc;
  if (e->eKind == SQL_EXPR_BINARY && e->eOp == SQL_OP_AND) {
    host_expr *l = NULL, *r = NULL;
    if (dq_join_keys(t, j, e->pLeft, nLeft, &l) != 0 || dq_join_keys(t, j, e->pRight, nLeft, &r) != 0) {
      return -1;
    }
    if (l != NULL && r != NULL) {
      host_expr *x = arena_alloc(t->c->pArena, sizeof(host_expr));
      host_expr **ap = arena_alloc(t->c->pArena, sizeof(host_expr *) * 2);
      if (x == NULL || ap == NULL) return dag__oom(t->c);
      memset(x, 0, sizeof(*x));
      x->eKind = HX_AND;
      x->type.eId = COLTYPE_BOOLEAN;
      x->nArg = 2;
      ap[0] = l;
      ap[1] = r;
      x->apArg = ap;
      *ppRest = x;
    } else {
      *ppRest = l != NULL ? l : r;
    }
    return 0;
  }
  if ((rc = dq_key_pair(t, j, e, nLeft, j->nCol)) != 0) {
    *ppRest = NULL;
    return rc < 0 ? -1 : 0;
  }
  return (*ppRest = dag__expr(t, e)) != NULL ? 0 : -1;
}

/* Hashes comma join j on WHERE's equalities between its sides (columns
** [0, nLeft) and [nLeft, nEnd)); WHERE itself is still checked above. */
static int dq_where_keys(dag_xlate *t, host_node *j, const sql_expr *e, int nLeft, int nEnd) {
  if (e->eKind == SQL_EXPR_BINARY && e->eOp == SQL_OP_AND) {
    if (dq_where_keys(t, j, e->pLeft, nLeft, nEnd) != 0) return -1;
    return dq_where_keys(t, j, e->pRight, nLeft, nEnd);
  }
  return dq_key_pair(t, j, e, nLeft, nEnd) < 0 ? -1 : 0;
}

/* The FROM items side by side, joined as written, into *ppOut. */
static int dq_from_join(dag_xlate *t, const sql_select *s, const dq_from *f, host_node **ppOut) {
  host_node *pAcc = f->aRel[0].pNode;
  for (int i = 1; i < s->pFrom->n; i++) {
    const sql_src_item *it = &s->pFrom->a[i];
    host_node *r = f->aRel[i].pNode, *j;
    int nLeft = pAcc->nCol;
    if ((j = dag__node_new(t->c, HN_JOIN, nLeft + r->nCol)) == NULL) return dag__oom(t->c);
    memcpy(j->aType, pAcc->aType, sizeof(coltype) * (size_t)nLeft);
    memcpy(j->aType + nLeft, r->aType, sizeof(coltype) * (size_t)r->nCol);
    j->pLeft = pAcc;
    j->pRight = r;
    j->eJoin = it->eJoin == SQL_JOIN_LEFT    ? HOST_JOIN_LEFT
               : it->eJoin == SQL_JOIN_RIGHT ? HOST_JOIN_RIGHT
               : it->eJoin == SQL_JOIN_FULL  ? HOST_JOIN_FULL
                                             : HOST_JOIN_INNER;
    j->rEst = pAcc->rEst > r->rEst ? pAcc->rEst : r->rEst;
    j->apLeftKey = arena_alloc(t->c->pArena, sizeof(host_expr *) * 8);
    j->apRightKey = arena_alloc(t->c->pArena, sizeof(host_expr *) * 8);
    if (j->apLeftKey == NULL || j->apRightKey == NULL) return dag__oom(t->c);
    if (it->pOn != NULL && dq_join_keys(t, j, it->pOn, nLeft, &j->pPred) != 0) return -1;
    if (it->eJoin == SQL_JOIN_COMMA && s->pWhere != NULL &&
        dq_where_keys(t, j, s->pWhere, nLeft, nLeft + r->nCol) != 0) {
      return -1;
    }
    pAcc = j;
  }
  *ppOut = pAcc;
  return 0;
}

/* A node over pIn of nCol columns whose values are ap[0..nCol). */
static host_node *dq_project(dag_ctx *c, host_node *pIn, int nCol, host_expr **ap) {
  host_node *n = dag__node_new(c, HN_PROJECT, nCol);
  if (n == NULL) return NULL;
  n->pLeft = pIn;
  n->rEst = pIn->rEst;
  n->nExpr = nCol;
  n->apExpr = ap;
  for (int i = 0; i < nCol; i++) n->aType[i] = ap[i]->type;
  return n;
}

static host_node *dq_filter(dag_ctx *c, host_node *pIn, host_expr *pPred) {
  host_node *n = dag__node_new(c, HN_FILTER, pIn->nCol);
  if (n == NULL) return NULL;
  memcpy(n->aType, pIn->aType, sizeof(coltype) * (size_t)pIn->nCol);
  n->pLeft = pIn;
  n->pPred = pPred;
  n->rEst = pIn->rEst;
  return n;
}

/* The aggregate function of call e. */
static int dq_agg_func(dag_ctx *c, const sql_expr *e, host_agg_func *pe) {
  static const struct {
    const char *zName;
    host_agg_func e;
  } aFunc[] = {{"count", HOST_AGG_COUNT}, {"sum", HOST_AGG_SUM}, {"avg", HOST_AGG_AVG},
               {"min", HOST_AGG_MIN},     {"max", HOST_AGG_MAX},
               {"bool_and", HOST_AGG_BOOL_AND}, {"bool_or", HOST_AGG_BOOL_OR},
               {"every", HOST_AGG_BOOL_AND},
               {"var_pop", HOST_AGG_VAR_POP}, {"var_samp", HOST_AGG_VAR_SAMP},
               {"variance", HOST_AGG_VAR_SAMP}, {"stddev_pop", HOST_AGG_STDDEV_POP},
               {"stddev_samp", HOST_AGG_STDDEV_SAMP}, {"stddev", HOST_AGG_STDDEV_SAMP},
               {"bit_and", HOST_AGG_BIT_AND}, {"bit_or", HOST_AGG_BIT_OR},
               {"string_agg", HOST_AGG_STRING_AGG}, {"array_agg", HOST_AGG_ARRAY_AGG}};
  if (e->bStar) {
    *pe = HOST_AGG_COUNT_STAR;
    return 0;
  }
  for (size_t i = 0; i < sizeof(aFunc) / sizeof(aFunc[0]); i++) {
    if (strcmp(e->zName, aFunc[i].zName) == 0) {
      *pe = aFunc[i].e;
      return 0;
    }
  }
  sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                "aggregate %s over a derived table or CTE is not supported yet", e->zName);
  return -1;
}

/* string_agg's and array_agg's ORDER BY, into a; which collect their
** values (always for array_agg; string_agg when sorted or counted). */
static int dq_agg_order(dag_xlate *t, const sql_expr *e, host_agg *a) {
  const sql_expr_list *o = e->pOrderBy;
  int n = o != NULL ? o->n : 0;
  if (a->eFunc != HOST_AGG_STRING_AGG && a->eFunc != HOST_AGG_ARRAY_AGG) return 0;
  a->bCollect = a->eFunc == HOST_AGG_ARRAY_AGG || n > 0 || a->nArg == 3;
  if (n == 0) return 0;
  a->apOrder = arena_alloc(t->c->pArena, sizeof(host_expr *) * (size_t)n);
  a->abDesc = arena_alloc(t->c->pArena, (size_t)n);
  a->abNullsFirst = arena_alloc(t->c->pArena, (size_t)n);
  if (a->apOrder == NULL || a->abDesc == NULL || a->abNullsFirst == NULL) return dag__oom(t->c);
  for (int k = 0; k < n; k++) {
    if ((a->apOrder[k] = dag__expr(t, o->a[k].pExpr)) == NULL) return -1;
    a->abDesc[k] = o->a[k].bDesc;
    a->abNullsFirst[k] = o->a[k].eNulls == SQL_NULLS_FIRST || (o->a[k].eNulls == SQL_NULLS_DEFAULT && o->a[k].bDesc);
  }
  a->nOrder = n;
  return 0;
}

/* GROUP BY and the aggregates of b over pIn into *ppOut. */
static int dq_aggregate(dag_xlate *t, const bound_select *b, host_node *pIn, host_node **ppOut) {
  const sql_expr_list *g = b->pSelect->pGroupBy;
  int nKey = g != NULL ? g->n : 0;
  host_node *n = dag__node_new(t->c, HN_AGG, nKey + b->nAgg + (b->nGroupSet > 0));
  if (n == NULL) return dag__oom(t->c);
  n->pLeft = pIn;
  n->rEst = nKey > 0 ? pIn->rEst / 10 + 1 : 1;
  n->nKey = nKey;
  n->nAgg = b->nAgg;
  /* Grouping sets: a last column, the mask of the keys a row's set
  ** leaves out (what grouping() reads: dag_expr.c). */
  n->nSet = b->nGroupSet;
  n->amSet = b->amGroupSet;
  if (n->nSet > 0) {
    n->aType[nKey + b->nAgg] = (coltype){COLTYPE_INTEGER, 0, 0, 0};
    n->rEst *= n->nSet;
  }
  n->apKey = arena_alloc(t->c->pArena, sizeof(host_expr *) * (size_t)(nKey + 1));
  n->aAgg = arena_alloc(t->c->pArena, sizeof(host_agg) * (size_t)(b->nAgg + 1));
  if (n->apKey == NULL || n->aAgg == NULL) return dag__oom(t->c);
  memset(n->aAgg, 0, sizeof(host_agg) * (size_t)(b->nAgg + 1));
  for (int k = 0; k < nKey; k++) {
    if ((n->apKey[k] = dag__expr(t, g->a[k].pExpr)) == NULL) return -1;
    n->aType[k] = n->apKey[k]->type;
  }
  for (int i = 0; i < b->nAgg; i++) {
    const sql_expr *e = b->apAgg[i];
    host_agg *a = &n->aAgg[i];
    if (dq_agg_func(t->c, e, &a->eFunc) != 0) return -1;
    a->type = e->b.type;
    a->bDistinct = e->bDistinct;
    if (a->eFunc != HOST_AGG_COUNT_STAR) {
      a->nArg = e->pList->n > 3 ? 3 : e->pList->n;
      for (int k = 0; k < a->nArg; k++) {
        if ((a->apArg[k] = dag__expr(t, e->pList->a[k].pExpr)) == NULL) return -1;
      }
    }
    if (dq_agg_order(t, e, a) != 0) return -1;
    n->aType[nKey + i] = a->type;
  }
  *ppOut = n;
  return 0;
}

/* The select list (b->pItems) and the ORDER BY expressions it lacks over
** pIn, then DISTINCT, ORDER BY, LIMIT/OFFSET, into *ppOut. */
static int dq_output(dag_xlate *t, const bound_select *b, host_node *pIn, host_node **ppOut) {
  const sql_expr_list *o = b->pSelect->pOrderBy;
  int nOrder = o != NULL ? o->n : 0, nOut = b->nOutput, nCol = nOut;
  int *aiSort = arena_alloc(t->c->pArena, sizeof(int) * (size_t)(nOrder + 1));
  host_expr **ap = arena_alloc(t->c->pArena, sizeof(host_expr *) * (size_t)(nOut + nOrder + 1));
  host_node *n = NULL;
  if (aiSort == NULL || ap == NULL) return dag__oom(t->c);
  for (int i = 0; i < nOut; i++) {
    if ((ap[i] = dag__expr(t, b->pItems->a[i].pExpr)) == NULL) return -1;
  }
  for (int k = 0; k < nOrder; k++) {
    const sql_expr *e = o->a[k].pExpr;
    aiSort[k] = -1;
    for (int i = 0; i < nOut && aiSort[k] < 0; i++) {
      if (bind__expr_equal(b->pItems->a[i].pExpr, e)) aiSort[k] = i;
    }
    if (aiSort[k] >= 0) continue;
    if ((ap[nCol] = dag__expr(t, e)) == NULL) return -1;
    aiSort[k] = nCol++;
  }
  if ((n = dq_project(t->c, pIn, nCol, ap)) == NULL) return dag__oom(t->c);
  for (int i = 0; i < nOut; i++) n->aType[i] = b->aOutput[i].type.eId == COLTYPE_UNKNOWN ? n->aType[i] : b->aOutput[i].type;
  if (b->pSelect->bDistinct) {
    host_node *d = dag__node_new(t->c, HN_DISTINCT, nCol);
    if (d == NULL) return dag__oom(t->c);
    memcpy(d->aType, n->aType, sizeof(coltype) * (size_t)nCol);
    d->pLeft = n;
    d->rEst = n->rEst;
    n = d;
  }
  if (nOrder > 0) {
    host_node *s = dag__node_new(t->c, HN_SORT, nCol);
    if (s == NULL) return dag__oom(t->c);
    memcpy(s->aType, n->aType, sizeof(coltype) * (size_t)nCol);
    s->pLeft = n;
    s->rEst = n->rEst;
    s->nSort = nOrder;
    if ((s->aSort = arena_alloc(t->c->pArena, sizeof(host_sort) * (size_t)nOrder)) == NULL) {
      return dag__oom(t->c);
    }
    memset(s->aSort, 0, sizeof(host_sort) * (size_t)nOrder);
    for (int k = 0; k < nOrder; k++) {
      const sql_expr_item *it = &o->a[k];
      if ((s->aSort[k].pExpr = dag__expr_col(t->c, aiSort[k], n->aType[aiSort[k]])) == NULL) {
        return dag__oom(t->c);
      }
      s->aSort[k].bDesc = it->bDesc;
      s->aSort[k].bNullsFirst = it->eNulls == SQL_NULLS_DEFAULT ? it->bDesc : it->eNulls == SQL_NULLS_FIRST;
    }
    n = s;
  }
  if (b->nLimit >= 0 || b->nOffset > 0) {
    host_node *l = dag__node_new(t->c, HN_LIMIT, nCol);
    if (l == NULL) return dag__oom(t->c);
    memcpy(l->aType, n->aType, sizeof(coltype) * (size_t)nCol);
    l->pLeft = n;
    l->nLimit = b->nLimit;
    l->nOffset = b->nOffset;
    l->rEst = n->rEst;
    n = l;
  }
  if (nCol > nOut) {
    host_expr **apKeep = arena_alloc(t->c->pArena, sizeof(host_expr *) * (size_t)nOut);
    if (apKeep == NULL) return dag__oom(t->c);
    for (int i = 0; i < nOut; i++) {
      if ((apKeep[i] = dag__expr_col(t->c, i, n->aType[i])) == NULL) return dag__oom(t->c);
    }
    if ((n = dq_project(t->c, n, nOut, apKeep)) == NULL) return dag__oom(t->c);
  }
  *ppOut = n;
  return 0;
}

/* The clauses of bound SELECT b over its FROM items' rows f into *pOut. */
/* A SELECT without FROM reads one row (of one column no expression uses). */
static host_node *dq_one_row(dag_ctx *c) {
  host_node *n = dag__node_new(c, HN_VALUES, 1);
  host_expr *x = arena_alloc(c->pArena, sizeof(host_expr));
  host_expr **ap = arena_alloc(c->pArena, sizeof(host_expr *));
  if (n == NULL || x == NULL || ap == NULL) {
    dag__oom(c);
    return NULL;
  }
  memset(x, 0, sizeof(*x));
  x->eKind = HX_CONST;
  x->type = (coltype){COLTYPE_BOOLEAN, 0, 0, 0};
  x->v = datum_null(COLTYPE_BOOLEAN);
  ap[0] = x;
  n->aType[0] = x->type;
  n->nRow = 1;
  n->apExpr = ap;
  n->rEst = 1;
  return n;
}

static int dq_clauses(dag_ctx *c, const bound_select *b, const dq_from *f, dag_rel *pOut) {
  const sql_select *s = b->pSelect;
  int nFrom = s->pFrom != NULL ? s->pFrom->n : 0;
  int *aOff = arena_alloc(c->pArena, sizeof(int) * (size_t)(nFrom + 1));
  dag_xlate t;
  host_node *n = NULL;
  if (aOff == NULL) return dag__oom(c);
  for (int i = 0; i < nFrom; i++) {
    if (f->aRel[i].pNode == NULL && dq_table_pipe(c, &s->pFrom->a[i], &f->aRel[i]) != 0) return -1;
  }
  aOff[0] = 0;
  for (int i = 1; i < nFrom; i++) aOff[i] = aOff[i - 1] + f->aRel[i - 1].pNode->nCol;
  memset(&t, 0, sizeof(t));
  t.c = c;
  t.b = b;
  t.aOff = aOff;
  if (nFrom == 0 ? (n = dq_one_row(c)) == NULL : dq_from_join(&t, s, f, &n) != 0) return -1;
  if (s->pWhere != NULL) {
    host_expr *p = dag__expr(&t, s->pWhere);
    if (p == NULL || (n = dq_filter(c, n, p)) == NULL) return p == NULL ? -1 : dag__oom(c);
  }
  if (b->bAggregate) {
    if (dq_aggregate(&t, b, n, &n) != 0) return -1;
    t.bPost = 1;
    t.pGroup = s->pGroupBy;
    t.nKey = s->pGroupBy != NULL ? s->pGroupBy->n : 0;
    if (s->pHaving != NULL) {
      host_expr *p = dag__expr(&t, s->pHaving);
      if (p == NULL || (n = dq_filter(c, n, p)) == NULL) return p == NULL ? -1 : dag__oom(c);
    }
  }
  if (dag__windows(&t, b, &n) != 0) return -1;
  if (dq_output(&t, b, n, &n) != 0) return -1;
  pOut->pNode = n;
  pOut->aOut = b->aOutput;
  pOut->pFirst = (sql_select *)s;
  return 0;
}

int dag__with_setop(dag_ctx *c, sql_select *s, dag_rel *pOut) {
  dag_scope scope, *pSaved = c->pScope;
  sql_select *pBody = arena_alloc(c->pArena, sizeof(sql_select));
  int rc = -1;
  if (pBody == NULL) return dag__oom(c);
  /* The set operation itself, its WITH now the scope it is built in. */
  *pBody = *s;
  pBody->pWith = NULL;
  if (dq_with_build(c, s->pWith, &scope) == 0) rc = dag__rel_build(c, pBody, pOut);
  c->pScope = pSaved;
  return rc;
}

int dag__host_query(dag_ctx *c, sql_select *s, dag_rel *pOut) {
  dag_scope scope, *pSaved = c->pScope;
  dag_outer *pOuter = c->pOuter;
  dq_from f;
  bind_env env;
  bound_select *b;
  int rc = -1;
  memset(pOut, 0, sizeof(*pOut));
  c->pOuter = NULL;                          /* not for FROM's subqueries */
  if (s->pWith != NULL && dq_with_build(c, s->pWith, &scope) != 0) goto out;
  if ((s->pFrom == NULL || s->pFrom->n == 0) && !dq_calls_registry(s)) {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, s->iOffset,
                  "a SELECT without FROM under WITH is not supported yet");
    goto out;
  }
  if (dq_from_build(c, s, &f) != 0) goto out;
  if ((b = dag__bound_new(c)) == NULL) goto out;
  f.b = b;
  f.pOuter = pOuter;
  memset(&env, 0, sizeof(env));
  env.xRelation = dq_relation;
  env.xSubquery = dq_subquery;
  if (pOuter != NULL) env.xOuter = dq_outer_column;
  env.pArg = &f;
  env.bOwnWith = 1;
  env.bHostFuncs = 1;
  if (bind_select_env(c->pCat, s, c->pArena, &env, b, c->pErr) != 0) goto out;
  rc = dq_clauses(c, b, &f, pOut);
out:
  c->pScope = pSaved;
  c->pOuter = pOuter;
  return rc;
}
