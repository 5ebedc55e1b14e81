/*
** worker/run.c — one statement in the device worker: SQL text through
** parse, bind, plan and codegen to exec_select (as bench/query.c runs
** it), or EXPLAIN's text made into rows.
**
** The worker runs what needs the backend: SELECT and EXPLAIN [VERBOSE]
** (whose Backend: line and generated kernels are the worker's). Anything
** else — DDL, COPY, SET, transactions, several statements — is the
** server's to handle and is refused with 0A000. Error offsets are bytes of
** zSql, the text the server sent, so its positions need no translating.
*/
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../codegen/codegen.h"
#include "../parser/parser.h"
#include "../runtime/explain.h"
#include "workerInt.h"

/* The column EXPLAIN's rows are in, as PostgreSQL names it. */
#define RUN_EXPLAIN_COLUMN "QUERY PLAN"

/* Tests only: STARQ_WORKER_TEST_DELAY_MS makes every SELECT wait that
** long first, in small steps that notice a cancel, so that a cancel can be
** shown to reach a query running in the worker (the server has the same
** for queries in its own process, STARQD_TEST_QUERY_DELAY_MS). */
static void run_test_delay(const exec_options *pOpt) {
  const char *z = getenv("STARQ_WORKER_TEST_DELAY_MS");
  int ms = z != NULL ? atoi(z) : 0;
  for (int i = 0; i < ms; i += 5) {
    struct timespec ts = {0, 5000000L};
    if (pOpt != NULL && pOpt->pbCancel != NULL && *pOpt->pbCancel) return;
    nanosleep(&ts, NULL);
  }
}

static int run_select(cat *pCat, exec_backend *pB, sql_select *pSelect, const exec_options *pOpt,
                      arena *pArena, exec_result *pRes, sql_error *pErr) {
  bound_select b;
  planner_model model;
  plan p;
  cg_program g;
  char zErr[512];
  int rc = -1;
  memset(&b, 0, sizeof(b));
  memset(&p, 0, sizeof(p));
  memset(&g, 0, sizeof(g));
  run_test_delay(pOpt);
  /* One look at whether the catalog changed, for the whole statement. */
  if (cat_cache_hold(pCat, zErr, sizeof(zErr)) != 0) {
    sql_error_set(pErr, SQLSTATE_IO_ERROR, -1, "%s", zErr);
    return -1;
  }
  if (bind_select(pCat, pSelect, pArena, &b, pErr) != 0) goto out;
  /* The cost model the in-process executor plans with: where the fact
  ** columns will be read from decides the plan (exec_backend_model). */
  if (exec_backend_model(pB, pCat, pOpt, &model, zErr, sizeof(zErr)) != 0) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "%s", zErr);
    goto out;
  }
  if (plan_build(pCat, &b, &model, pArena, &p, pErr) == 0 &&
      codegen_build(&p, pArena, &g, pErr) == 0 &&
      exec_select(pCat, &p, &g, pB, pOpt, pRes, pErr) == 0) {
    rc = 0;
  }
out:
  cat_cache_release(pCat);
  codegen_free(&g);
  plan_free(&p);
  bind_select_free(&b);
  return rc;
}

/* Makes text into a result of one TEXT column, a row per line, the lines
** carried as the column's strings. Returns 0, or -1 with *pErr. */
static int run_text_rows(const char *zText, size_t nText, exec_result *pRes, sql_error *pErr) {
  exec_column *c;
  uint64_t nLine = 1, iLine = 0, iOut = 0;
  for (size_t i = 0; i < nText; i++) nLine += zText[i] == '\n';
  if ((pRes->aCol = calloc(1, sizeof(exec_column))) == NULL) goto out_oom;
  pRes->nCol = 1;
  c = &pRes->aCol[0];
  c->zName = strdup(RUN_EXPLAIN_COLUMN);
  c->type.eId = COLTYPE_TEXT;
  c->aInt = malloc(nLine * sizeof(int64_t));
  c->aNull = calloc(nLine, 1);
  c->aStrOff = malloc((nLine + 1) * sizeof(uint64_t));
  c->zStr = malloc(nText + 1);
  if (!c->zName || !c->aInt || !c->aNull || !c->aStrOff || !c->zStr) goto out_oom;
  c->aStrOff[0] = 0;
  for (size_t i = 0; i <= nText; i++) {
    if (i == nText || zText[i] == '\n') {
      c->aInt[iLine] = (int64_t)iLine;
      c->aStrOff[++iLine] = iOut;
    } else {
      c->zStr[iOut++] = zText[i];
    }
  }
  c->zStr[iOut] = 0;
  c->nStr = nLine;
  pRes->nRow = (int64_t)nLine;
  return 0;
out_oom:
  sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory building EXPLAIN's rows");
  return -1;
}

static int run_explain(cat *pCat, exec_backend *pB, const sql_stmt *pStmt, arena *pArena,
                       exec_result *pRes, sql_error *pErr) {
  strbuf s;
  int rc = -1;
  const sql_stmt *pInner = pStmt->pExplain;
  if (pStmt->bAnalyze) {
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, pStmt->iOffset,
                  "EXPLAIN ANALYZE is not supported by the device worker yet");
    return -1;
  }
  if (pInner == NULL || pInner->eKind != SQL_STMT_SELECT) {
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, pInner ? pInner->iOffset : pStmt->iOffset,
                  "EXPLAIN explains a SELECT only");
    return -1;
  }
  strbuf_init(&s);
  if (exec_explain(pCat, pB, pInner->pSelect, pStmt->bVerbose, pArena, &s, pErr) == 0) {
    rc = run_text_rows(strbuf_str(&s), s.n, pRes, pErr);
  }
  strbuf_free(&s);
  return rc;
}

int worker__sql_run(cat *pCat, exec_backend *pB, const char *zSql, const exec_options *pOpt,
                    exec_result *pRes, sql_error *pErr) {
  arena a;
  sql_script s;
  int rc = -1;
  memset(pRes, 0, sizeof(*pRes));
  sql_error_clear(pErr);
  arena_init(&a);
  if (sql_parse(zSql, &a, &s, pErr) != 0) goto out;
  if (s.nStmt != 1) {
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, s.nStmt > 1 ? s.apStmt[1]->iOffset : -1,
                  "the device worker runs one statement at a time, not %d", s.nStmt);
    goto out;
  }
  switch (s.apStmt[0]->eKind) {
    case SQL_STMT_SELECT:
      rc = run_select(pCat, pB, s.apStmt[0]->pSelect, pOpt, &a, pRes, pErr);
      break;
    case SQL_STMT_EXPLAIN:
      rc = run_explain(pCat, pB, s.apStmt[0], &a, pRes, pErr);
      break;
    default:
      sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, s.apStmt[0]->iOffset,
                    "only SELECT and EXPLAIN run on the device worker");
      break;
  }
out:
  arena_free(&a);
  return rc;
}
