/*
** engine/prepare.c — a statement's text to its program: parse, parameters,
** bind, the backend's cost model, plan, codegen — each timed, so that a
** result can say where its time went before the first kernel
** (exec_result.front). Binding and planning make the statement's DAG
** (planner/dag.h); each of its pipelines gets its program. A statement prepared before on the same slot, for
** the same text, parameter values and plan-changing options, at the
** catalog's current generation, is taken from the slot's cache instead.
**
** The plan follows the literals (its estimates, and so its predicate order
** and table sizes, are read from them), so a statement that differs in a
** constant or a parameter's value is prepared again; its kernels still
** come from the module cache, literals being kernel parameters.
**
** INTERFACE ROUTINES
**   engine__prepare, engine__bind, engine__stmt_free (engineInt.h)
**   engine_model, engine_prepare, engine_stmt_plan, engine_stmt_program,
**   engine_stmt_free
*/
#include <stdlib.h>
#include <string.h>

#include "../common/timer.h"
#include "../common/tz.h"
#include "engineInt.h"

int engine_model(engine *e, const exec_options *pOpt, planner_model *pModel, char *zErr,
                 size_t nErr) {
  exec_backend_traits t;
  exec_backend_traits_get(e->pB, &t);
  if (planner_model_default(t.zDevice, pModel, zErr, nErr) != 0) return -1;
  /* Where the fact columns will be read from decides how much skipping a
  ** column read is worth against a probe. */
  if ((pOpt == NULL || !pOpt->bNoResident) && t.bResidentCache) {
    pModel->pred.rScanBw = pModel->pred.rDevBw;
    pModel->bResident = 1;
  }
  return 0;
}

void engine__stmt_free(engine_stmt *p) {
  if (p == NULL) return;
  for (int i = 0; i < p->nProg; i++) codegen_free(&p->aProg[i]);
  plan_dag_free(&p->d);
  arena_free(&p->a);
  free(p);
}

/* Moves an error's position from the SELECT's text to the statement's. */
static void prepare_error_shift(const engine_request *pReq, sql_error *pErr) {
  if (pErr->iOffset >= 0) pErr->iOffset += pReq->iSelect;
}

/* Parses zSelect, which must be one SELECT, COPY ... TO or DECLARE, into
** *pScript and puts the request's parameters into it. Returns the SELECT
** (COPY's: the rows it writes), or NULL with *pErr (positioned in the
** SELECT's text). */
static sql_select *prepare_parse(const char *zSelect, const engine_request *pReq, int bNullMissing,
                                 arena *pA, sql_script *pScript, int *pbNow, sql_error *pErr) {
  sql_stmt *pStmt;
  sql_select *pSelect;
  if (sql_parse(zSelect, pA, pScript, pErr) != 0) return NULL;
  if (pScript->nStmt != 1) {
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED,
                  pScript->nStmt > 1 ? pScript->apStmt[1]->iOffset : -1,
                  "the engine runs one statement at a time, not %d", pScript->nStmt);
    return NULL;
  }
  pStmt = pScript->apStmt[0];
  if (pStmt->eKind == SQL_STMT_COPY_TO) {
    /* COPY's rows: its query's, or the table's as it reads them. */
    pSelect = pStmt->pCopy->pQuery != NULL ? pStmt->pCopy->pQuery : pStmt->pCopy->pTableQuery;
  } else if (pStmt->eKind == SQL_STMT_SELECT || pStmt->eKind == SQL_STMT_DECLARE_CURSOR) {
    pSelect = pStmt->pSelect;                    /* DECLARE's: the cursor's query */
  } else {
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, pStmt->iOffset,
                  "the engine runs a SELECT, not this statement");
    return NULL;
  }
  if (engine__params_apply(pSelect, pReq->nParam, pReq->aParam, bNullMissing, pA, pErr) != 0 ||
      engine__now_apply(pSelect, pReq, pA, pbNow, pErr) != 0) {
    return NULL;
  }
  return pSelect;
}

/* plan_dag_bind in the session's TimeZone (timestamptz literals). */
static int prepare_bind(engine_slot *s, const engine_request *pReq, sql_select *pSelect, arena *pA,
                        plan_dag *pD, sql_error *pErr) {
  int rc;
  bind_zone_set(engine__zone(pReq));
  rc = plan_dag_bind(s->pCat, pSelect, pA, pD, pErr);
  bind_zone_set(NULL);
  return rc;
}

int engine__bind(engine_slot *s, const engine_request *pReq, arena *pA, plan_dag *pD,
                 sql_error *pErr) {
  sql_script script;
  sql_select *pSelect;
  int bNow;
  memset(pD, 0, sizeof(*pD));
  pSelect = prepare_parse(pReq->zSql + pReq->iSelect, pReq, 1, pA, &script, &bNow, pErr);
  if (pSelect == NULL || prepare_bind(s, pReq, pSelect, pA, pD, pErr) != 0) {
    prepare_error_shift(pReq, pErr);
    return -1;
  }
  return 0;
}

/* A new statement for key k (the SELECT's text, a NUL, the parameters),
** nothing prepared yet, or NULL out of memory. */
static engine_stmt *prepare_stmt_new(const strbuf *k, int bNoResident) {
  engine_stmt *p = calloc(1, sizeof(*p) + k->n + 1);
  if (p == NULL) return NULL;
  p->zKey = (char *)(p + 1);
  memcpy(p->zKey, k->z, k->n);
  p->zKey[k->n] = 0;
  p->nKey = k->n;
  p->zSql = p->zKey;
  p->bNoResident = bNoResident;
  p->h = stmtcache_hash(p->zKey, p->nKey, bNoResident);
  arena_init(&p->a);
  return p;
}

/* Runs the layers over p: parse, parameters, bind, model, plan, codegen,
** timing each into p->front. Returns 0, or -1 with *pErr. */
static int prepare_layers(engine *e, engine_slot *s, const engine_request *pReq, engine_stmt *p,
                          sql_error *pErr) {
  planner_model model;
  sql_select *pSelect;
  char zErr[512];
  double t = timer_now(), tNext;
  pSelect = prepare_parse(p->zSql, pReq, 0, &p->a, &p->s, &p->bNow, pErr);
  if (pSelect == NULL) return -1;
  tNext = timer_now();
  p->front.rParseSeconds = tNext - t;
  t = tNext;
  if (prepare_bind(s, pReq, pSelect, &p->a, &p->d, pErr) != 0) return -1;
  tNext = timer_now();
  p->front.rBindSeconds = tNext - t;
  t = tNext;
  if (pReq->pModel != NULL) {
    model = *pReq->pModel;
  } else if (engine_model(e, &pReq->opt, &model, zErr, sizeof(zErr)) != 0) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "%s", zErr);
    return -1;
  }
  if (plan_dag_plan(s->pCat, &p->d, &model, &p->a, pReq->xPlanEdit, pReq->pPlanEditArg, pErr) != 0) {
    return -1;
  }
  tNext = timer_now();
  p->front.rPlanSeconds = tNext - t;
  t = tNext;
  p->aProg = arena_alloc(&p->a, sizeof(cg_program) * (size_t)p->d.nPipe);
  if (p->aProg == NULL) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory for the statement");
    return -1;
  }
  memset(p->aProg, 0, sizeof(cg_program) * (size_t)p->d.nPipe);
  for (int i = 0; i < p->d.nPipe; i++) {
    p->nProg = i + 1;
    if (codegen_build(&p->d.aPipe[i].p, &p->a, &p->aProg[i], pErr) != 0) return -1;
  }
  p->front.rCodegenSeconds = timer_now() - t;
  return 0;
}

/* An edit that changes nothing: a statement prepared with it is not kept. */
static void prepare_edit_none(plan *p, void *pArg) {
  (void)p;
  (void)pArg;
}

engine_stmt *engine__prepare(engine *e, engine_slot *s, const engine_request *pReq, int *pbKept,
                             sql_error *pErr) {
  int bNoResident = pReq->opt.bNoResident != 0;
  int bKeep = pReq->pModel == NULL && pReq->xPlanEdit == NULL;
  engine_stmt *p;
  strbuf k;
  *pbKept = 0;
  strbuf_init(&k);
  strbuf_puts(&k, pReq->zSql + pReq->iSelect);
  strbuf_append(&k, "", 1);
  engine__params_key(&k, pReq->nParam, pReq->aParam);
  /* timestamptz literals are read in the session's zone */
  strbuf_printf(&k, "TimeZone=%s", tz_zone_name(engine__zone(pReq)));
  if (strbuf_error(&k)) {
    strbuf_free(&k);
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory for the statement");
    return NULL;
  }
  p = bKeep ? stmtcache_find(s->pCache, s->pCat, k.z, k.n, bNoResident) : NULL;
  if (p != NULL) {
    strbuf_free(&k);
    memset(&p->front, 0, sizeof(p->front));
    p->front.bCached = 1;
    *pbKept = 1;
    return p;
  }
  p = prepare_stmt_new(&k, bNoResident);
  strbuf_free(&k);
  if (p == NULL) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory for the statement");
    return NULL;
  }
  if (prepare_layers(e, s, pReq, p, pErr) != 0) {
    prepare_error_shift(pReq, pErr);
    engine__stmt_free(p);
    return NULL;
  }
  /* A plan made with a tool's model or edits is not the one the text
  ** asks for: nobody else may find it. */
  if (bKeep && !p->bNow) *pbKept = stmtcache_put(s->pCache, s->pCat, p);
  return p;
}

int engine_prepare(engine *e, const engine_request *pReq, engine_stmt **pp, sql_error *pErr) {
  engine_request q = *pReq;
  char zErr[512];
  engine_slot *s;
  int bKept = 0;
  *pp = NULL;
  sql_error_clear(pErr);
  if ((s = engine__slot_get(e, zErr, sizeof(zErr))) == NULL) {
    sql_error_set(pErr, SQLSTATE_IO_ERROR, -1, "%s", zErr);
    return -1;
  }
  if (cat_cache_hold(s->pCat, zErr, sizeof(zErr)) != 0) {
    sql_error_set(pErr, SQLSTATE_IO_ERROR, -1, "%s", zErr);
  } else {
    /* The caller's own: never the slot's kept one, which the next
    ** statement on the slot may drop. */
    if (q.xPlanEdit == NULL) q.xPlanEdit = prepare_edit_none;
    *pp = engine__prepare(e, s, &q, &bKept, pErr);
    cat_cache_release(s->pCat);
  }
  engine__slot_put(e, s);
  return *pp != NULL ? 0 : -1;
}

/* A tool's view: the first pipeline (a plain SELECT's only one). */
const plan *engine_stmt_plan(const engine_stmt *p) { return &p->d.aPipe[0].p; }
const cg_program *engine_stmt_program(const engine_stmt *p) { return &p->aProg[0]; }
void engine_stmt_free(engine_stmt *p) { engine__stmt_free(p); }
