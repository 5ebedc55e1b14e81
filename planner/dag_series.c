/*
** planner/dag_series.c — generate_series(start, stop[, step]) over
** integers in the FROM of a host query (pgjdbc's metadata queries join
** one to the catalog): an HN_SERIES leaf of one column, integer, or
** bigint where an argument is bigint, as PostgreSQL resolves the call.
** Its arguments may not name other FROM items (no LATERAL): they are
** bound as the select list of a SELECT without FROM and evaluated once.
**
** INTERFACE ROUTINES (dagInt.h)
**   dag__is_series, dag__series_build
*/
#include <string.h>
#include <strings.h>

#include "dagInt.h"

int dag__is_series(const sql_src_item *it) {
  const sql_expr *e = it->pFunc;
  return it->eKind == SQL_SRC_FUNCTION && !it->bLateral && e != NULL && e->zName != NULL &&
         strcmp(e->zName, "generate_series") == 0 &&
         (e->zSchema == NULL || strcmp(e->zSchema, "pg_catalog") == 0);
}

/* The result type: bigint if an argument is, integer for smaller
** integers and NULL; 0 with *piBad the argument for anything else. */
static coltype_id ds_type(const bound_select *b, const sql_expr_list *pArg, int *piBad) {
  coltype_id eId = COLTYPE_INTEGER;
  for (int i = 0; i < pArg->n; i++) {
    if (pArg->a[i].pExpr->eKind == SQL_EXPR_NULL) continue;
    switch (b->aOutput[i].type.eId) {
      case COLTYPE_UNKNOWN:
      case COLTYPE_SMALLINT:
      case COLTYPE_INTEGER: break;
      case COLTYPE_BIGINT: eId = COLTYPE_BIGINT; break;
      default: *piBad = i; return 0;
    }
  }
  return eId;
}

int dag__series_build(dag_ctx *c, const sql_src_item *it, dag_rel *pOut) {
  const sql_expr *e = it->pFunc;
  int n = e->pList != NULL ? e->pList->n : 0;
  sql_select *s = arena_alloc(c->pArena, sizeof(sql_select));
  bound_select *b = dag__bound_new(c);
  bind_output *aOut = arena_alloc(c->pArena, sizeof(bind_output));
  bind_env env;
  dag_xlate t;
  host_node *p;
  coltype ty;
  int iBad = 0;
  if (s == NULL || b == NULL || aOut == NULL) return dag__oom(c);
  if (it->bOrdinality || n < 2 || n > 3 || e->bDistinct || e->pOrderBy != NULL || e->pFilter != NULL) {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "this form of generate_series in FROM is not supported yet");
    return -1;
  }
  memset(s, 0, sizeof(*s));
  s->eOp = SQL_SELECT_SIMPLE;
  s->iOffset = e->iOffset;
  s->pItems = e->pList;
  memset(&env, 0, sizeof(env));
  env.bHostFuncs = 1;
  if (bind_select_env(c->pCat, s, c->pArena, &env, b, c->pErr) != 0) return -1;
  memset(&ty, 0, sizeof(ty));
  if ((ty.eId = ds_type(b, e->pList, &iBad)) == 0) {
    sql_error_set(c->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "generate_series over %s is not supported yet", bind__coltype_name(b->aOutput[iBad].type));
    return -1;
  }
  if ((p = dag__node_new(c, HN_SERIES, 1)) == NULL) return dag__oom(c);
  p->aType[0] = ty;
  p->nExpr = n;
  if ((p->apExpr = arena_alloc(c->pArena, sizeof(host_expr *) * (size_t)n)) == NULL) return dag__oom(c);
  memset(&t, 0, sizeof(t));
  t.c = c;
  t.b = b;
  for (int i = 0; i < n; i++) {
    if ((p->apExpr[i] = dag__expr(&t, e->pList->a[i].pExpr)) == NULL) return -1;
  }
  p->rEst = 1000;                            /* PostgreSQL's guess for a function */
  aOut[0].zName = it->zAlias != NULL ? it->zAlias : "generate_series";
  aOut[0].type = ty;
  pOut->pNode = p;
  pOut->aOut = aOut;
  return 0;
}
