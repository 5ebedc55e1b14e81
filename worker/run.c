/*
** worker/run.c — one statement in the device worker: SQL text through
** parse, bind, plan and codegen to exec_select (as bench/query.c runs
** it), or EXPLAIN's text made into rows. A SELECT prepared before on the
** same catalog handle, and still right for it, skips straight to
** exec_select (stmtcache.c); one prepared now is kept for next time.
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

/* Binds, plans and generates e's SELECT, then runs it. Sets *pbPrepared
** once e could be kept (it is planned and generated, whatever exec_select
** then says). The catalog is held. */
static int run_select(cat *pCat, exec_backend *pB, stmtcache_entry *e, const exec_options *pOpt,
                      int *pbPrepared, exec_result *pRes, sql_error *pErr) {
  planner_model model;
  char zErr[512];
  *pbPrepared = 0;
  run_test_delay(pOpt);
  if (bind_select(pCat, e->s.apStmt[0]->pSelect, &e->a, &e->b, pErr) != 0) return -1;
  /* The cost model the in-process executor plans with: where the fact
  ** columns will be read from decides the plan (exec_backend_model). */
  if (exec_backend_model(pB, pOpt, &model, zErr, sizeof(zErr)) != 0) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "%s", zErr);
    return -1;
  }
  if (plan_build(pCat, &e->b, &model, &e->a, &e->p, pErr) != 0 ||
      codegen_build(&e->p, &e->a, &e->g, pErr) != 0) {
    return -1;
  }
  *pbPrepared = 1;
  return exec_select(pCat, &e->p, &e->g, pB, pOpt, pRes, pErr);
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

int worker__sql_run(cat *pCat, stmtcache *pCache, exec_backend *pB, const char *zSql,
                    const exec_options *pOpt, exec_result *pRes, sql_error *pErr) {
  stmtcache_entry *e;
  char zErr[512];
  int rc = -1, bPrepared = 0;
  memset(pRes, 0, sizeof(*pRes));
  sql_error_clear(pErr);
  /* One look at whether the catalog changed, for the whole statement: it
  ** also says whether a kept statement is still right. */
  if (cat_cache_hold(pCat, zErr, sizeof(zErr)) != 0) {
    sql_error_set(pErr, SQLSTATE_IO_ERROR, -1, "%s", zErr);
    return -1;
  }
  if ((e = stmtcache_find(pCache, pCat, zSql, pOpt)) != NULL) {
    run_test_delay(pOpt);
    rc = exec_select(pCat, &e->p, &e->g, pB, pOpt, pRes, pErr);
    cat_cache_release(pCat);
    return rc;
  }
  if ((e = stmtcache_entry_new(zSql, pOpt)) == NULL) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory for the statement");
    goto out;
  }
  if (sql_parse(e->zSql, &e->a, &e->s, pErr) != 0) goto out;
  if (e->s.nStmt != 1) {
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED,
                  e->s.nStmt > 1 ? e->s.apStmt[1]->iOffset : -1,
                  "the device worker runs one statement at a time, not %d", e->s.nStmt);
    goto out;
  }
  switch (e->s.apStmt[0]->eKind) {
    case SQL_STMT_SELECT:
      rc = run_select(pCat, pB, e, pOpt, &bPrepared, pRes, pErr);
      break;
    case SQL_STMT_EXPLAIN:
      rc = run_explain(pCat, pB, e->s.apStmt[0], &e->a, pRes, pErr);
      break;
    default:
      sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->s.apStmt[0]->iOffset,
                    "only SELECT and EXPLAIN run on the device worker");
      break;
  }
out:
  if (!bPrepared || !stmtcache_put(pCache, pCat, e)) stmtcache_entry_free(e);
  cat_cache_release(pCat);
  return rc;
}
