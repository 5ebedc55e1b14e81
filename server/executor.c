/*
** server/executor.c — the executor (executor.h), in process: one backend
** for the whole daemon, and SQL text taken through parse, bind, plan
** (with the backend's cost model), code generation and exec_select() on
** the calling executor thread. This file is the seam the device-worker
** process will replace: everything that touches the backend is here.
**
** Catalog handles: a cat is used by one thread at a time, so each query
** borrows one from a free list (opening another when none is free); the
** list grows to the number of executor threads and stays there.
**
** INTERFACE ROUTINES
**   executor_open, executor_close, executor_select, executor_explain,
**   executor_cat_get, executor_cat_put, executor_info, executor_backend_info,
**   executor_table_bytes
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../parser/parser.h"
#include "../runtime/explain.h"
#include "../worker/worker.h"
#include "executor.h"

/* A catalog handle on the free list. */
typedef struct executor_cat executor_cat;
struct executor_cat {
  cat *pCat;
  executor_cat *pNext;
};

struct executor {
  char *zDataDir;          /* owned */
  exec_bandwidth bw;       /* in process: measured at open */
  exec_backend be;         /* the one backend; its column cache is shared */
  pthread_mutex_t mu;      /* guards pFree */
  executor_cat *pFree;     /* handles not lent out */
  cat *pMain;              /* the handle opened first (preload); on the list too */
  worker *pWorker;         /* bWorker: where queries run; NULL: here, on be */
};

/* Opens the backend zBackend names; auto falls back to the CPU, logging
** why CUDA could not be used. */
static int executor_backend_open(executor *ex, const char *zBackend, char *zErr, size_t nErr) {
  char zWhy[1024];
  if (strcmp(zBackend, "cpu") != 0) {
    if (exec_backend_cuda(&ex->be, NULL, zWhy, sizeof(zWhy)) == 0) {
      const cuda_device_info *pInfo = cuda_device_info_get(ex->be.pCuda);
      log_printf(LOG_LEVEL_INFO, "executor: CUDA backend on %s", pInfo->zName);
      return 0;
    }
    if (strcmp(zBackend, "cuda") == 0) {
      snprintf(zErr, nErr, "the CUDA backend is not available: %s", zWhy);
      return -1;
    }
    log_printf(LOG_LEVEL_WARN, "executor: no CUDA backend (%s); running on the CPU", zWhy);
  }
  if (exec_backend_cpu(&ex->be, 0, NULL, zErr, nErr) != 0) return -1;
  log_printf(LOG_LEVEL_INFO, "executor: CPU backend");
  return 0;
}

/* Starts the device worker with the executor's options. */
static int executor_worker_start(executor *ex, const executor_options *pOpt, char *zErr,
                                 size_t nErr) {
  worker_config c;
  worker_config_init(&c);
  c.zDataDir = pOpt->zDataDir;
  c.zBackend = pOpt->zBackend;
  c.mem.nPinned = pOpt->nPinnedBudget;
  c.mem.nDevice = pOpt->nDeviceBudget;
  c.bPreload = 1;
  c.nQuery = pOpt->nQuery > 0 ? pOpt->nQuery : 4;
  c.nBandwidthProbe = pOpt->nBandwidthProbe;
  if (worker_start(&c, &ex->pWorker, zErr, nErr) != 0) return -1;
  log_printf(LOG_LEVEL_INFO, "executor: queries run in the device worker");
  return 0;
}

/* Measures the bandwidth floors in process; a failure leaves them unknown
** and is logged (they are for reports; queries run without them). */
static void executor_bandwidth(executor *ex, int64_t nProbe) {
  char zErr[1024];
  if (nProbe <= 0 || ex->be.eKind != EXEC_BACKEND_CUDA) return;
  if (exec_backend_bandwidth(&ex->be, (uint64_t)nProbe, &ex->bw, zErr, sizeof(zErr)) != 0) {
    log_printf(LOG_LEVEL_WARN, "executor: the bandwidth floors could not be measured: %s", zErr);
    return;
  }
  log_printf(LOG_LEVEL_INFO, "executor: measured zero-copy %.1f GB/s, device memory %.1f GB/s",
             ex->bw.rZeroCopy / 1e9, ex->bw.rDevice / 1e9);
}

int executor_open(executor **pp, const executor_options *pOpt, char *zErr, size_t nErr) {
  executor *ex = calloc(1, sizeof(*ex));
  colmem_options mo = {pOpt->nPinnedBudget, pOpt->nDeviceBudget};
  stride_options so = {-1, -1, -1};
  int64_t nPinned;
  *pp = NULL;
  if (ex == NULL || (ex->zDataDir = strdup(pOpt->zDataDir)) == NULL) {
    free(ex);
    snprintf(zErr, nErr, "executor: out of memory");
    return -1;
  }
  pthread_mutex_init(&ex->mu, NULL);
  ex->pMain = executor_cat_get(ex, zErr, nErr);
  if (ex->pMain == NULL) goto fail;
  if (pOpt->bWorker) {
    if (executor_worker_start(ex, pOpt, zErr, nErr) != 0) goto fail;
    executor_cat_put(ex, ex->pMain);
    ex->pMain = NULL;
    *pp = ex;
    return 0;
  }
  if (executor_backend_open(ex, pOpt->zBackend, zErr, nErr) != 0) goto fail;
  if (exec_backend_configure(&ex->be, &mo, &so, zErr, nErr) != 0) goto fail_backend;
  nPinned = exec_backend_preload(&ex->be, ex->pMain, 1, zErr, nErr);
  if (nPinned < 0) goto fail_backend;
  log_printf(LOG_LEVEL_INFO, "executor: %lld bytes of columns pinned", (long long)nPinned);
  executor_bandwidth(ex, pOpt->nBandwidthProbe);
  executor_cat_put(ex, ex->pMain);
  *pp = ex;
  return 0;
fail_backend:
  exec_backend_close(&ex->be);
fail:
  if (ex->pMain != NULL) executor_cat_put(ex, ex->pMain);
  ex->pMain = NULL;
  executor_close(ex);
  return -1;
}

void executor_close(executor *ex) {
  if (ex == NULL) return;
  if (ex->pWorker != NULL) worker_stop(ex->pWorker);
  if (ex->pMain != NULL) exec_backend_close(&ex->be);
  while (ex->pFree != NULL) {
    executor_cat *c = ex->pFree;
    ex->pFree = c->pNext;
    cat_close(c->pCat);
    free(c);
  }
  pthread_mutex_destroy(&ex->mu);
  free(ex->zDataDir);
  free(ex);
}

cat *executor_cat_get(executor *ex, char *zErr, size_t nErr) {
  executor_cat *c;
  cat *pCat;
  pthread_mutex_lock(&ex->mu);
  c = ex->pFree;
  if (c != NULL) ex->pFree = c->pNext;
  pthread_mutex_unlock(&ex->mu);
  if (c != NULL) {
    pCat = c->pCat;
    free(c);
    return pCat;
  }
  if (cat_open(&pCat, ex->zDataDir, zErr, nErr) != 0) return NULL;
  return pCat;
}

void executor_cat_put(executor *ex, cat *pCat) {
  executor_cat *c = malloc(sizeof(*c));
  if (c == NULL) {
    cat_close(pCat);   /* out of memory: the next get opens another */
    return;
  }
  c->pCat = pCat;
  pthread_mutex_lock(&ex->mu);
  c->pNext = ex->pFree;
  ex->pFree = c;
  pthread_mutex_unlock(&ex->mu);
}

/* Parses zSql, which must be one SELECT (or with bExplain, an EXPLAIN of
** one), into *pScript. Returns its SELECT, or NULL with *pErr. */
static sql_select *executor_parse(const char *zSql, int bExplain, arena *pA, sql_script *pScript,
                                  sql_error *pErr) {
  sql_stmt *pStmt;
  if (sql_parse(zSql, pA, pScript, pErr) != 0) return NULL;
  if (pScript->nStmt != 1) {
    sql_error_set(pErr, SQLSTATE_SYNTAX_ERROR, -1, "expected exactly one statement");
    return NULL;
  }
  pStmt = pScript->apStmt[0];
  if (bExplain && pStmt->eKind == SQL_STMT_EXPLAIN) pStmt = pStmt->pExplain;
  if (pStmt == NULL || pStmt->eKind != SQL_STMT_SELECT) {
    sql_error_set(pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, -1, "expected a SELECT");
    return NULL;
  }
  return pStmt->pSelect;
}

int executor_select(executor *ex, const char *zSql, const exec_options *pOpt, exec_result *pRes,
                    sql_error *pErr) {
  char zErr[512];
  cat *pCat;
  arena a;
  sql_script s;
  sql_select *pSelect;
  bound_select b;
  planner_model model;
  plan p;
  cg_program g;
  int rc = -1;
  memset(pRes, 0, sizeof(*pRes));
  memset(&b, 0, sizeof(b));
  memset(&p, 0, sizeof(p));
  memset(&g, 0, sizeof(g));
  if (ex->pWorker != NULL) return worker_query(ex->pWorker, zSql, pOpt, pRes, pErr);
  pCat = executor_cat_get(ex, zErr, sizeof(zErr));
  if (pCat == NULL) {
    sql_error_set(pErr, SQLSTATE_IO_ERROR, -1, "%s", zErr);
    return -1;
  }
  arena_init(&a);
  /* One look at whether the catalog changed, for the whole statement. */
  if (cat_cache_hold(pCat, zErr, sizeof(zErr)) != 0) {
    sql_error_set(pErr, SQLSTATE_IO_ERROR, -1, "%s", zErr);
    goto out;
  }
  pSelect = executor_parse(zSql, 0, &a, &s, pErr);
  if (pSelect == NULL || bind_select(pCat, pSelect, &a, &b, pErr) != 0) goto out;
  if (exec_backend_model(&ex->be, pOpt, &model, zErr, sizeof(zErr)) != 0) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "%s", zErr);
    goto out;
  }
  if (plan_build(pCat, &b, &model, &a, &p, pErr) != 0) goto out;
  if (codegen_build(&p, &a, &g, pErr) != 0) goto out;
  rc = exec_select(pCat, &p, &g, &ex->be, pOpt, pRes, pErr);
  if (rc != 0 && exec_backend_lost(&ex->be)) {
    log_printf(LOG_LEVEL_ERROR, "executor: the GPU is lost for this process: %s", pErr->zMsg);
  }
out:
  cat_cache_release(pCat);
  codegen_free(&g);
  plan_free(&p);
  bind_select_free(&b);
  arena_free(&a);
  executor_cat_put(ex, pCat);
  return rc;
}

/* EXPLAIN through the worker: its rows are the lines of the text. */
static int executor_worker_explain(executor *ex, const char *zSql, strbuf *pOut,
                                   sql_error *pErr) {
  exec_result r;
  int rc = worker_query(ex->pWorker, zSql, NULL, &r, pErr);
  for (int64_t i = 0; rc == 0 && i < r.nRow; i++) {
    if (i > 0) strbuf_puts(pOut, "\n");
    exec_result_text(&r, i, 0, pOut);
  }
  exec_result_free(&r);
  return rc;
}

int executor_explain(executor *ex, const char *zSql, int bVerbose, strbuf *pOut,
                     sql_error *pErr) {
  char zErr[512];
  cat *pCat;
  arena a;
  sql_script s;
  sql_select *pSelect;
  int rc = -1;
  if (ex->pWorker != NULL) {
    /* The worker runs plain EXPLAIN [VERBOSE] of the SELECT (ANALYZE is
    ** the caller's, through executor_select); positions it reports are
    ** moved back into zSql. */
    const char *zInner = zSql;
    strbuf q;
    int nPrefix;
    arena_init(&a);
    pSelect = executor_parse(zSql, 1, &a, &s, pErr);
    if (pSelect != NULL && s.apStmt[0]->eKind == SQL_STMT_EXPLAIN) {
      zInner = zSql + s.apStmt[0]->pExplain->iOffset;
    }
    arena_free(&a);
    if (pSelect == NULL) return -1;
    strbuf_init(&q);
    strbuf_printf(&q, "EXPLAIN %s", bVerbose ? "VERBOSE " : "");
    nPrefix = (int)q.n;
    strbuf_puts(&q, zInner);
    rc = executor_worker_explain(ex, strbuf_str(&q), pOut, pErr);
    if (rc != 0 && pErr->iOffset >= nPrefix) pErr->iOffset += (int)(zInner - zSql) - nPrefix;
    strbuf_free(&q);
    return rc;
  }
  pCat = executor_cat_get(ex, zErr, sizeof(zErr));
  if (pCat == NULL) {
    sql_error_set(pErr, SQLSTATE_IO_ERROR, -1, "%s", zErr);
    return -1;
  }
  arena_init(&a);
  pSelect = executor_parse(zSql, 1, &a, &s, pErr);
  if (pSelect != NULL) rc = exec_explain(pCat, &ex->be, pSelect, bVerbose, &a, pOut, pErr);
  arena_free(&a);
  executor_cat_put(ex, pCat);
  return rc;
}

/* Sets the names, bLost and (when ready) the floors of *p from what the
** worker says of its backend: "cuda (name, ...)" or "cpu (...)". */
static void executor_worker_name(executor_device *p, const char *zBackend, const char *zDevice,
                                 int bReady, const exec_bandwidth *pBw) {
  const char *z = zBackend;
  snprintf(p->zBackend, sizeof(p->zBackend), "%s", strncmp(z, "cuda", 4) == 0 ? "cuda" : "cpu");
  if (strchr(z, '(') != NULL) z = strchr(z, '(') + 1;
  snprintf(p->zName, sizeof(p->zName), "%s", z);
  if (strchr(p->zName, ',') != NULL) *strchr(p->zName, ',') = 0;
  if (strchr(p->zName, ')') != NULL) *strchr(p->zName, ')') = 0;
  if (zDevice[0] != 0) snprintf(p->zName, sizeof(p->zName), "%s", zDevice);
  p->bLost = !bReady;
  if (bReady) p->bw = *pBw;
}

void executor_backend_info(executor *ex, executor_device *p) {
  memset(p, 0, sizeof(*p));
  if (ex->pWorker != NULL) {
    worker_backend b;
    worker_backend_get(ex->pWorker, &b);
    executor_worker_name(p, b.zBackend, b.zDevice, b.bReady, &b.bw);
    return;
  }
  snprintf(p->zBackend, sizeof(p->zBackend), "%s", ex->be.zName ? ex->be.zName : "cpu");
  if (ex->be.eKind == EXEC_BACKEND_CUDA) {
    snprintf(p->zName, sizeof(p->zName), "%s", cuda_device_info_get(ex->be.pCuda)->zName);
    p->bLost = exec_backend_lost(&ex->be);
    p->bw = ex->bw;
  } else {
    snprintf(p->zName, sizeof(p->zName), "host CPU (generated kernels compiled with cc)");
  }
}

void executor_info(executor *ex, executor_device *p) {
  colmem_stats st;
  if (ex->pWorker != NULL) {
    worker_stats ws;
    memset(p, 0, sizeof(*p));
    worker_stats_get(ex->pWorker, &ws);
    executor_worker_name(p, ws.zBackend, ws.dev.zDevice, ws.bReady, &ws.dev.bw);
    p->nPinned = ws.nPreloaded;
    if (ws.bReady) {
      p->nMemUsed = ws.dev.nMemUsed;
      p->nMemTotal = ws.dev.nMemTotal;
      p->nPinned = ws.dev.nPinned;
      p->nResident = ws.dev.nResident;
    }
    return;
  }
  executor_backend_info(ex, p);
  if (ex->be.eKind == EXEC_BACKEND_CUDA) {
    uint64_t nFree = 0, nTotal = 0;
    char zErr[256];
    if (cuda_mem_info(ex->be.pCuda, &nFree, &nTotal, zErr, sizeof(zErr)) == 0) {
      p->nMemTotal = (int64_t)nTotal;
      p->nMemUsed = (int64_t)(nTotal - nFree);
    }
  }
  if (ex->be.pMem != NULL) {
    colmem_stats_get(ex->be.pMem, &st);
    p->nPinned = (int64_t)st.nPinned;
    p->nResident = (int64_t)st.nResident;
  }
}

void executor_table_bytes(executor *ex, colmem_table_use *a, int n) {
  for (int i = 0; i < n; i++) a[i].nPinned = a[i].nResident = 0;
  if (ex->pWorker != NULL) {
    worker_stats *st = malloc(sizeof(*st));   /* ~7 KB: one copy for all n */
    if (st == NULL) return;
    worker_stats_get(ex->pWorker, st);
    for (int j = 0; j < st->dev.nTable; j++) {
      for (int i = 0; i < n; i++) {
        if (a[i].iTable == st->dev.aTable[j].iTable) a[i] = st->dev.aTable[j];
      }
    }
    free(st);
  } else if (ex->be.pMem != NULL) {
    for (int i = 0; i < n; i++) {
      colmem_table_bytes(ex->be.pMem, a[i].iTable, &a[i].nPinned, &a[i].nResident);
    }
  }
}
