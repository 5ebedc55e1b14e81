/*
** planner/dag.c — a statement split into device pipelines and a host
** tail (dag.h). Each SIMPLE SELECT is bound by bind_select and becomes a
** pipeline; the set operations over them, with the ORDER BY, LIMIT and
** OFFSET written over a set operation, become the host tail: HN_SETOP
** over HN_INPUT leaves, HN_PROJECT where an operand's column must be cast
** to the type both sides resolve to, HN_SORT and HN_LIMIT above.
**
** Type resolution is PostgreSQL's select_common_type for the types the
** pipelines produce: within the numeric category the wider type wins
** (smallint < integer < bigint < numeric < real < double precision;
** numeric of different modifiers is numeric without one), strings of
** different types are text, date beside timestamp is timestamp; types of
** different categories are 42804 at the right operand's column.
**
** INTERFACE ROUTINES
**   plan_dag_bind, plan_dag_plan, plan_dag_free (dag.h)
*/
#include <stdlib.h>
#include <string.h>

#include "dagInt.h"

int dag__oom(dag_ctx *c) {
  sql_error_set(c->pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory planning the statement");
  return -1;
}

host_node *dag__node_new(dag_ctx *c, host_node_kind e, int nCol) {
  host_node *n = arena_alloc(c->pArena, sizeof(host_node));
  if (n == NULL) return NULL;
  memset(n, 0, sizeof(*n));
  n->eKind = e;
  n->iId = c->pTail->nNode++;
  n->nCol = nCol;
  n->nLimit = -1;
  n->aType = arena_alloc(c->pArena, sizeof(coltype) * (size_t)(nCol > 0 ? nCol : 1));
  return n->aType != NULL ? n : NULL;
}

host_expr *dag__expr_col(dag_ctx *c, int iCol, coltype t) {
  host_expr *e = arena_alloc(c->pArena, sizeof(host_expr));
  if (e == NULL) return NULL;
  memset(e, 0, sizeof(*e));
  e->eKind = HX_COL;
  e->iCol = iCol;
  e->type = t;
  return e;
}

/* ---- type resolution ----------------------------------------------------------- */

/* The place of a numeric type in PostgreSQL's implicit widening, or 0. */
static int dag_numeric_rank(coltype_id e) {
  switch (e) {
    case COLTYPE_SMALLINT: return 1;
    case COLTYPE_INTEGER: return 2;
    case COLTYPE_BIGINT: return 3;
    case COLTYPE_DECIMAL:
    case COLTYPE_NUMERIC: return 4;
    case COLTYPE_FLOAT4: return 5;
    case COLTYPE_DOUBLE: return 6;
    default: return 0;
  }
}

static int dag_is_string(coltype_id e) {
  return e == COLTYPE_CHAR || e == COLTYPE_VARCHAR || e == COLTYPE_TEXT || e == COLTYPE_NAME ||
         e == COLTYPE_UNKNOWN;
}

/* The type a and b resolve to, into *pOut; -1 where they cannot be matched. */
static int dag_common_type(coltype a, coltype b, coltype *pOut) {
  int ra = dag_numeric_rank(a.eId), rb = dag_numeric_rank(b.eId);
  memset(pOut, 0, sizeof(*pOut));
  if (a.eId == b.eId && a.nPrecision == b.nPrecision && a.nScale == b.nScale &&
      a.nLength == b.nLength) {
    *pOut = a;
    return 0;
  }
  if (ra > 0 && rb > 0) {
    int r = ra > rb ? ra : rb;
    if (r == 4) pOut->eId = COLTYPE_NUMERIC;    /* mixed modifiers: numeric alone */
    else *pOut = ra > rb ? a : b;
    return 0;
  }
  if (dag_is_string(a.eId) && dag_is_string(b.eId)) {
    if (a.eId == COLTYPE_UNKNOWN) *pOut = b;
    else if (b.eId == COLTYPE_UNKNOWN) *pOut = a;
    else pOut->eId = a.eId == b.eId ? a.eId : COLTYPE_TEXT;
    return 0;
  }
  if ((a.eId == COLTYPE_DATE || a.eId == COLTYPE_TIMESTAMP) &&
      (b.eId == COLTYPE_DATE || b.eId == COLTYPE_TIMESTAMP)) {
    pOut->eId = COLTYPE_TIMESTAMP;
    return 0;
  }
  if (a.eId == b.eId) {
    *pOut = a;
    return 0;
  }
  return -1;
}

/* r with column i cast to aType[i] where its type differs: r's node
** under a PROJECT, or r's node itself. */
static host_node *dag_cast_to(dag_ctx *c, const dag_rel *r, int nCol, const coltype *aType) {
  host_node *n;
  int bCast = 0;
  for (int i = 0; i < nCol; i++) {
    const coltype *t = &r->pNode->aType[i];
    bCast |= t->eId != aType[i].eId || t->nPrecision != aType[i].nPrecision ||
             t->nScale != aType[i].nScale || t->nLength != aType[i].nLength;
  }
  if (!bCast) return r->pNode;
  if ((n = dag__node_new(c, HN_PROJECT, nCol)) == NULL) return NULL;
  n->pLeft = r->pNode;
  n->rEst = r->pNode->rEst;
  n->nExpr = nCol;
  if ((n->apExpr = arena_alloc(c->pArena, sizeof(host_expr *) * (size_t)nCol)) == NULL) return NULL;
  for (int i = 0; i < nCol; i++) {
    host_expr *e = dag__expr_col(c, i, r->pNode->aType[i]);
    n->aType[i] = aType[i];
    n->apExpr[i] = e;
    if (e == NULL) return NULL;
    if (memcmp(&r->pNode->aType[i], &aType[i], sizeof(coltype)) != 0) {
      host_expr *x = arena_alloc(c->pArena, sizeof(host_expr));
      host_expr **ap = arena_alloc(c->pArena, sizeof(host_expr *));
      if (x == NULL || ap == NULL) return NULL;
      memset(x, 0, sizeof(*x));
      x->eKind = HX_CAST;
      x->type = aType[i];
      x->nArg = 1;
      ap[0] = e;
      x->apArg = ap;
      n->apExpr[i] = x;
    }
  }
  return n;
}

/* ---- the tree ------------------------------------------------------------------- */

bound_select *dag__bound_new(dag_ctx *c) {
  plan_dag *d = c->pDag;
  bound_select *b = arena_alloc(c->pArena, sizeof(bound_select));
  bound_select **ap = arena_alloc(c->pArena, sizeof(bound_select *) * (size_t)(d->nHostBound + 1));
  if (b == NULL || ap == NULL) {
    dag__oom(c);
    return NULL;
  }
  memset(b, 0, sizeof(*b));
  if (d->nHostBound > 0) memcpy(ap, d->apHostBound, sizeof(bound_select *) * (size_t)d->nHostBound);
  ap[d->nHostBound++] = b;
  d->apHostBound = ap;
  return b;
}


/* A SIMPLE SELECT: a new pipeline, read by an HN_INPUT. */
static int dag_pipe_add(dag_ctx *c, sql_select *s, dag_rel *pOut) {
  plan_dag *d = c->pDag;
  plan_pipe *pp;
  host_node *n;
  if (d->nPipe == c->nPipeAlloc) {
    int nNew = c->nPipeAlloc ? 2 * c->nPipeAlloc : 4;
    plan_pipe *a = arena_alloc(c->pArena, sizeof(plan_pipe) * (size_t)nNew);
    if (a == NULL) return dag__oom(c);
    memset(a, 0, sizeof(plan_pipe) * (size_t)nNew);
    if (d->nPipe > 0) memcpy(a, d->aPipe, sizeof(plan_pipe) * (size_t)d->nPipe);
    d->aPipe = a;
    c->nPipeAlloc = nNew;
  }
  pp = &d->aPipe[d->nPipe++];
  if (bind_select(c->pCat, s, c->pArena, &pp->b, c->pErr) != 0) return -1;
  pOut->aOut = pp->b.aOutput;
  pOut->pFirst = s;
  if (c->pTail == NULL) return 0;             /* a plain SELECT: no tail */
  if ((n = dag__node_new(c, HN_INPUT, pp->b.nOutput)) == NULL) return dag__oom(c);
  n->iInput = d->nPipe - 1;
  c->pTail->nInput = d->nPipe;
  for (int i = 0; i < pp->b.nOutput; i++) n->aType[i] = pp->b.aOutput[i].type;
  pOut->pNode = n;
  return 0;
}

/* Where column i of SIMPLE SELECT s is written (its select-list item). */
static int dag_item_offset(const sql_select *s, int i) {
  if (s->pItems != NULL && i < s->pItems->n && s->pItems->a[i].pExpr != NULL) {
    return s->pItems->a[i].pExpr->iOffset;
  }
  return s->iOffset;
}

/* The leftmost SIMPLE SELECT of s. */
static const sql_select *dag_first_simple(const sql_select *s) {
  while (s->eOp != SQL_SELECT_SIMPLE && s->eOp != SQL_SELECT_VALUES && s->pLeft != NULL) s = s->pLeft;
  return s;
}

static const char *dag_setop_name(const sql_select *s) {
  return s->eOp == SQL_SELECT_UNION ? "UNION" : s->eOp == SQL_SELECT_INTERSECT ? "INTERSECT" : "EXCEPT";
}

/* pLeft op pRight. */
static int dag_setop(dag_ctx *c, sql_select *s, dag_rel *pOut) {
  dag_rel l, r;
  const sql_select *pRightFirst;
  host_node *n, *pl, *pr;
  int nCol;
  coltype *aType;
  if (dag__rel_build(c, s->pLeft, &l) != 0 || dag__rel_build(c, s->pRight, &r) != 0) return -1;
  pRightFirst = dag_first_simple(s->pRight);
  nCol = l.pNode->nCol;
  if (r.pNode->nCol != nCol) {
    sql_error_set(c->pErr, SQLSTATE_SYNTAX_ERROR, dag_item_offset(pRightFirst, 0),
                  "each %s query must have the same number of columns", dag_setop_name(s));
    return -1;
  }
  if ((aType = arena_alloc(c->pArena, sizeof(coltype) * (size_t)(nCol + 1))) == NULL) return dag__oom(c);
  for (int i = 0; i < nCol; i++) {
    if (dag_common_type(l.pNode->aType[i], r.pNode->aType[i], &aType[i]) != 0) {
      sql_error_set(c->pErr, SQLSTATE_DATATYPE_MISMATCH, dag_item_offset(pRightFirst, i),
                    "%s types %s and %s cannot be matched", dag_setop_name(s),
                    bind__coltype_name(l.pNode->aType[i]), bind__coltype_name(r.pNode->aType[i]));
      return -1;
    }
  }
  if ((pl = dag_cast_to(c, &l, nCol, aType)) == NULL || (pr = dag_cast_to(c, &r, nCol, aType)) == NULL ||
      (n = dag__node_new(c, HN_SETOP, nCol)) == NULL) {
    return dag__oom(c);
  }
  memcpy(n->aType, aType, sizeof(coltype) * (size_t)nCol);
  n->pLeft = pl;
  n->pRight = pr;
  n->bAll = s->bAll;
  n->eSetOp = s->eOp == SQL_SELECT_UNION       ? HOST_SETOP_UNION
              : s->eOp == SQL_SELECT_INTERSECT ? HOST_SETOP_INTERSECT
                                               : HOST_SETOP_EXCEPT;
  n->rEst = n->eSetOp == HOST_SETOP_UNION     ? pl->rEst + pr->rEst
            : n->eSetOp == HOST_SETOP_EXCEPT ? pl->rEst
            : pl->rEst < pr->rEst            ? pl->rEst
                                             : pr->rEst;
  /* The leftmost operand names the columns; the types are the resolved ones. */
  if ((pOut->aOut = arena_alloc(c->pArena, sizeof(bind_output) * (size_t)(nCol + 1))) == NULL) {
    return dag__oom(c);
  }
  for (int i = 0; i < nCol; i++) {
    pOut->aOut[i].zName = l.aOut[i].zName;
    pOut->aOut[i].type = aType[i];
  }
  pOut->pNode = n;
  pOut->pFirst = l.pFirst;
  return 0;
}

/* Where e starts as PostgreSQL's exprLocation places it: an operator at
** the leftmost of itself and its left operand. */
int dag__expr_start(const sql_expr *e) {
  int i = e->iOffset;
  while (e->pLeft != NULL && (e->eKind == SQL_EXPR_BINARY || e->eKind == SQL_EXPR_BETWEEN ||
                              e->eKind == SQL_EXPR_LIKE || e->eKind == SQL_EXPR_IS_NULL)) {
    e = e->pLeft;
    if (e->iOffset < i) i = e->iOffset;
  }
  return i;
}

/* One ORDER BY item over a set operation's result: an output column's
** name or its ordinal (PostgreSQL allows nothing else there). */
static int dag_order_key(dag_ctx *c, const dag_rel *r, const sql_expr_item *it, host_sort *pKey) {
  const sql_expr *e = it->pExpr;
  int nCol = r->pNode->nCol, iCol = -1;
  if (e->eKind == SQL_EXPR_INTEGER) {
    long long v = strtoll(e->zText, NULL, 10);
    if (v < 1 || v > nCol) {
      sql_error_set(c->pErr, SQLSTATE_INVALID_COLUMN_REF, e->iOffset,
                    "ORDER BY position %lld is not in select list", v);
      return -1;
    }
    iCol = (int)v - 1;
  } else if (e->eKind == SQL_EXPR_COLUMN && e->zTable == NULL) {
    for (int i = 0; i < nCol; i++) {
      if (strcmp(r->aOut[i].zName, e->zName) != 0) continue;
      if (iCol >= 0) {
        sql_error_set(c->pErr, "42702", e->iOffset, "ORDER BY \"%s\" is ambiguous", e->zName);
        return -1;
      }
      iCol = i;
    }
    if (iCol < 0) {
      sql_error_set(c->pErr, SQLSTATE_UNDEFINED_COLUMN, e->iOffset, "column \"%s\" does not exist",
                    e->zName);
      return -1;
    }
  } else {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, dag__expr_start(e),
                  "invalid UNION/INTERSECT/EXCEPT ORDER BY clause");
    return -1;
  }
  if ((pKey->pExpr = dag__expr_col(c, iCol, r->pNode->aType[iCol])) == NULL) return dag__oom(c);
  pKey->bDesc = it->bDesc;
  pKey->bNullsFirst = it->eNulls == SQL_NULLS_DEFAULT ? it->bDesc : it->eNulls == SQL_NULLS_FIRST;
  return 0;
}

/* ORDER BY, LIMIT and OFFSET written over set operation s, on r. */
static int dag_order_limit(dag_ctx *c, sql_select *s, dag_rel *r) {
  int64_t nLimit = -1, nOffset = 0;
  host_node *n;
  if (s->pOrderBy != NULL && s->pOrderBy->n > 0) {
    if ((n = dag__node_new(c, HN_SORT, r->pNode->nCol)) == NULL) return dag__oom(c);
    memcpy(n->aType, r->pNode->aType, sizeof(coltype) * (size_t)n->nCol);
    n->pLeft = r->pNode;
    n->rEst = r->pNode->rEst;
    n->nSort = s->pOrderBy->n;
    if ((n->aSort = arena_alloc(c->pArena, sizeof(host_sort) * (size_t)n->nSort)) == NULL) {
      return dag__oom(c);
    }
    memset(n->aSort, 0, sizeof(host_sort) * (size_t)n->nSort);
    for (int i = 0; i < n->nSort; i++) {
      if (dag_order_key(c, r, &s->pOrderBy->a[i], &n->aSort[i]) != 0) return -1;
    }
    r->pNode = n;
  }
  if (s->pLimit == NULL && s->pOffset == NULL) return 0;
  if (bind_limits(c->pCat, s, c->pArena, &nLimit, &nOffset, c->pErr) != 0) return -1;
  if (nLimit < 0 && nOffset == 0) return 0;
  if ((n = dag__node_new(c, HN_LIMIT, r->pNode->nCol)) == NULL) return dag__oom(c);
  memcpy(n->aType, r->pNode->aType, sizeof(coltype) * (size_t)n->nCol);
  n->pLeft = r->pNode;
  n->nLimit = nLimit;
  n->nOffset = nOffset;
  n->rEst = r->pNode->rEst - (double)nOffset;
  if (n->rEst < 0) n->rEst = 0;
  if (nLimit >= 0 && n->rEst > (double)nLimit) n->rEst = (double)nLimit;
  r->pNode = n;
  return 0;
}

int dag__rel_build(dag_ctx *c, sql_select *s, dag_rel *pOut) {
  int bTables;
  memset(pOut, 0, sizeof(*pOut));
  if (s->pWith != NULL && s->eOp != SQL_SELECT_SIMPLE) {
    if (s->pWith->bRecursive || s->eOp == SQL_SELECT_VALUES) {
      sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, s->pWith->iOffset, "%s not supported yet",
                    s->pWith->bRecursive ? "WITH RECURSIVE is" : "WITH is");
      return -1;
    }
    return dag__with_setop(c, s, pOut);
  }
  switch (s->eOp) {
    case SQL_SELECT_UNION:
    case SQL_SELECT_INTERSECT:
    case SQL_SELECT_EXCEPT:
      if (dag_setop(c, s, pOut) != 0) return -1;
      return dag_order_limit(c, s, pOut);
    case SQL_SELECT_SIMPLE:
      if (dag__name_windows(c, s) != 0) return -1;
      /* Whether s reads only tables, told before decorrelation adds its
      ** derived tables, which the split joins on the host. */
      bTables = !dag__is_host_query(c, s);
      if (dag__has_where_subquery(s) && dag__decorrelate(c, s) != 0) return -1;
      if (bTables && (dag__needs_split(s) || dag__has_cross_dim(c, s)) && dag__lift_split(c, s) != 0) return -1;
      if (!dag__is_host_query(c, s) && !dag__has_window(s) && dag__has_host_agg(s) &&
          dag__lift_distinct(c, s) != 0) {
        return -1;
      }
      if (!dag__is_host_query(c, s) && dag__has_window(s) && dag__lift_windows(c, s) != 0) return -1;
      if (dag__is_host_query(c, s)) return dag__host_query(c, s, pOut);
      break;
    case SQL_SELECT_VALUES:
      break;
  }
  return dag_pipe_add(c, s, pOut);
}

/* ---- the interface -------------------------------------------------------------- */

int plan_dag_bind(cat *pCat, sql_select *pSelect, arena *pArena, plan_dag *pDag, sql_error *pErr) {
  dag_ctx c;
  dag_rel r;
  memset(pDag, 0, sizeof(*pDag));
  memset(&c, 0, sizeof(c));
  sql_error_clear(pErr);
  c.pCat = pCat;
  c.pArena = pArena;
  c.pErr = pErr;
  c.pDag = pDag;
  if (pSelect == NULL) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "no SELECT to bind");
    return -1;
  }
  /* A plain SELECT (or one the binder refuses) is one pipeline, no tail. */
  if ((pSelect->eOp != SQL_SELECT_SIMPLE && pSelect->eOp != SQL_SELECT_VALUES) ||
      dag__is_host_query(&c, pSelect) || dag__has_window(pSelect) || dag__has_host_agg(pSelect) ||
      dag__needs_split(pSelect) || dag__has_cross_dim(&c, pSelect)) {
    if ((c.pTail = arena_alloc(pArena, sizeof(host_plan))) == NULL) return dag__oom(&c);
    memset(c.pTail, 0, sizeof(host_plan));
  }
  if (dag__rel_build(&c, pSelect, &r) != 0) return -1;
  pDag->pTail = c.pTail;
  if (c.pTail != NULL) {
    c.pTail->pRoot = r.pNode;
    pDag->nOut = r.pNode->nCol;
  } else {
    pDag->nOut = pDag->aPipe[0].b.nOutput;
  }
  pDag->aOut = r.aOut;
  return 0;
}

/* A pipeline's estimated result rows (the tail's inputs' estimates). */
static double dag_pipe_rows(const plan *p) {
  double n = p->bAggregate ? p->nGroup : p->nRowOut;
  const bound_select *b = p->pBound;
  n -= (double)b->nOffset;
  if (n < 0) n = 0;
  if (b->nLimit >= 0 && n > (double)b->nLimit) n = (double)b->nLimit;
  return n;
}

/* Sets the estimate of every input node under n. */
static void dag_inputs_estimate(host_node *n, const plan_dag *d) {
  if (n == NULL) return;
  if (n->eKind == HN_INPUT) {
    n->rEst = dag_pipe_rows(&d->aPipe[n->iInput].p);
    return;
  }
  dag_inputs_estimate(n->pLeft, d);
  dag_inputs_estimate(n->pRight, d);
}

/* Sets the estimates above the inputs again, now that they are known. */
static double dag_estimate(host_node *n) {
  double l, r;
  if (n == NULL || n->eKind == HN_INPUT) return n != NULL ? n->rEst : 0;
  l = dag_estimate(n->pLeft);
  r = dag_estimate(n->pRight);
  switch (n->eKind) {
    case HN_SETOP:
      n->rEst = n->eSetOp == HOST_SETOP_UNION ? l + r : n->eSetOp == HOST_SETOP_EXCEPT ? l : l < r ? l : r;
      break;
    case HN_LIMIT:
      n->rEst = l - (double)n->nOffset;
      if (n->rEst < 0) n->rEst = 0;
      if (n->nLimit >= 0 && n->rEst > (double)n->nLimit) n->rEst = (double)n->nLimit;
      break;
    default:
      n->rEst = l;
      break;
  }
  return n->rEst;
}

int plan_dag_plan(cat *pCat, plan_dag *pDag, const planner_model *pModel, arena *pArena,
                  void (*xEdit)(plan *p, void *pArg), void *pEditArg, sql_error *pErr) {
  for (int i = 0; i < pDag->nPipe; i++) {
    plan_pipe *pp = &pDag->aPipe[i];
    pp->bPlanned = 1;
    if (plan_build(pCat, &pp->b, pModel, pArena, &pp->p, pErr) != 0) return -1;
    if (xEdit != NULL) xEdit(&pp->p, pEditArg);
  }
  if (pDag->pTail != NULL) {
    host_plan *t = pDag->pTail;
    dag_inputs_estimate(t->pRoot, pDag);
    dag_estimate(t->pRoot);
    for (int i = 0; i < t->nSubplan; i++) {
      dag_inputs_estimate(t->apSub[i]->pPlan, pDag);
      dag_estimate(t->apSub[i]->pPlan);
    }
  }
  return 0;
}

void plan_dag_free(plan_dag *pDag) {
  if (pDag == NULL) return;
  for (int i = 0; i < pDag->nPipe; i++) {
    if (pDag->aPipe[i].bPlanned) plan_free(&pDag->aPipe[i].p);
    pDag->aPipe[i].bPlanned = 0;
    bind_select_free(&pDag->aPipe[i].b);
  }
  for (int i = 0; i < pDag->nHostBound; i++) bind_select_free(pDag->apHostBound[i]);
  pDag->nHostBound = 0;
}
