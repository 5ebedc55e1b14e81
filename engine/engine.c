/*
** engine/engine.c — the engine's life (open, close), the slots statements
** run on, and engine_execute: one classified statement worked out into a
** result. Preparing is prepare.c's, EXPLAIN's text explain.c's.
**
** INTERFACE ROUTINES
**   engine_config_init, engine_open, engine_close, engine_warm, engine_execute,
**   engine_backend, engine_bandwidth, engine_model
**   engine__slot_get, engine__slot_put (engineInt.h)
*/
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "engineInt.h"

/* The column EXPLAIN's rows are in, as PostgreSQL names it. */
#define ENGINE_EXPLAIN_COLUMN "QUERY PLAN"

void engine_config_init(engine_config *p) {
  memset(p, 0, sizeof(*p));
  p->mem.nPinned = p->mem.nDevice = -1;
  p->stride.nBufByte = -1;
  p->stride.nBufMax = p->stride.nThread = -1;
}

/* ---- slots ------------------------------------------------------------------ */

engine_slot *engine__slot_get(engine *e, char *zErr, size_t nErr) {
  engine_slot *s;
  pthread_mutex_lock(&e->mu);
  s = e->pFree;
  if (s != NULL) e->pFree = s->pNext;
  pthread_mutex_unlock(&e->mu);
  if (s != NULL) return s;
  if ((s = calloc(1, sizeof(*s))) == NULL || stmtcache_open(&s->pCache) != 0) {
    free(s);
    snprintf(zErr, nErr, "out of memory for a catalog handle");
    return NULL;
  }
  if (cat_open(&s->pCat, e->zDataDir, zErr, nErr) != 0) {
    stmtcache_close(s->pCache);
    free(s);
    return NULL;
  }
  return s;
}

void engine__slot_put(engine *e, engine_slot *s) {
  pthread_mutex_lock(&e->mu);
  s->pNext = e->pFree;
  e->pFree = s;
  pthread_mutex_unlock(&e->mu);
}

static void engine_slot_free(engine_slot *s) {
  stmtcache_close(s->pCache);
  cat_close(s->pCat);
  free(s);
}

/* ---- open and close ------------------------------------------------------------ */

/* Opens the backend p->zBackend names; "auto" falls back to the CPU,
** logging why the GPU could not be used. */
static int engine_backend_open(engine *e, const engine_config *p, char *zErr, size_t nErr) {
  cpu_options po = {0};
  cuda_options co = {0};
  const char *zWant = p->zBackend != NULL ? p->zBackend : "auto";
  if (p->zCacheDir != NULL) {
    snprintf(e->zCpuCache, sizeof(e->zCpuCache), "%s/cpu", p->zCacheDir);
    snprintf(e->zCudaCache, sizeof(e->zCudaCache), "%s/cuda", p->zCacheDir);
    po.zCacheDir = e->zCpuCache;
    co.zCacheDir = e->zCudaCache;
  }
  if (strcmp(zWant, "cpu") != 0) {
    if (exec_backend_cuda(&e->be, &co, zErr, nErr) == 0) return 0;
    if (strcmp(zWant, "cuda") == 0) return -1;
    log_printf(LOG_LEVEL_WARN, "engine: no GPU, running on the CPU: %s", zErr);
  }
  return exec_backend_cpu(&e->be, p->nCpuThread, &po, zErr, nErr);
}

/* Measures the bandwidth floors, if asked; a failure leaves them unknown
** (0) and is logged: the floors are for reports, queries run without. */
static void engine_bandwidth_probe(engine *e, int64_t nProbe) {
  char zErr[1024];
  if (nProbe <= 0 || e->pB->eKind != EXEC_BACKEND_CUDA) return;
  if (exec_backend_bandwidth(e->pB, (uint64_t)nProbe, &e->bw, zErr, sizeof(zErr)) != 0) {
    log_printf(LOG_LEVEL_WARN, "engine: the bandwidth floors could not be measured: %s", zErr);
    return;
  }
  log_printf(LOG_LEVEL_INFO, "engine: measured zero-copy %.1f GB/s, device memory %.1f GB/s",
             e->bw.rZeroCopy / 1e9, e->bw.rDevice / 1e9);
}

/* The backend's part of engine_open: open or adopt it, budgets, preload,
** floors. */
static int engine_backend_start(engine *e, const engine_config *p, char *zErr, size_t nErr) {
  engine_slot *s;
  int64_t nPinned;
  if (p->pBackend != NULL) {
    e->pB = p->pBackend;
  } else {
    if (engine_backend_open(e, p, zErr, nErr) != 0) return -1;
    e->pB = &e->be;
    e->bOwnBackend = 1;
    if (exec_backend_configure(e->pB, &p->mem, &p->stride, zErr, nErr) != 0) return -1;
  }
  if (p->bPreload) {
    if ((s = engine__slot_get(e, zErr, nErr)) == NULL) return -1;
    nPinned = exec_backend_preload(e->pB, s->pCat, 1, zErr, nErr);
    engine__slot_put(e, s);
    if (nPinned < 0) return -1;
    log_printf(LOG_LEVEL_INFO, "engine: %lld bytes of columns pinned", (long long)nPinned);
  }
  engine_bandwidth_probe(e, p->nBandwidthProbe);
  return 0;
}

int engine_open(engine **pp, const engine_config *p, char *zErr, size_t nErr) {
  engine *e = calloc(1, sizeof(*e));
  engine_slot *s;
  *pp = NULL;
  if (e == NULL || p->zDataDir == NULL || (e->zDataDir = strdup(p->zDataDir)) == NULL) {
    free(e);
    snprintf(zErr, nErr, p->zDataDir == NULL ? "engine: no data directory" : "engine: out of memory");
    return -1;
  }
  pthread_mutex_init(&e->mu, NULL);
  /* The catalog first: a data directory that does not open is the error
  ** to report, not what the backend then says. */
  if ((s = engine__slot_get(e, zErr, nErr)) == NULL) goto out_close;
  engine__slot_put(e, s);
  if (engine_backend_start(e, p, zErr, nErr) != 0) goto out_close;
  *pp = e;
  return 0;
out_close:
  engine_close(e);
  return -1;
}

int engine_warm(engine *e, colmem_warm_fn xDone, void *pArg, char *zErr, size_t nErr) {
  engine_slot *s;
  int rc;
  if ((s = engine__slot_get(e, zErr, nErr)) == NULL) return -1;
  rc = colmem_warm_start(e->pB->pMem, s->pCat, xDone, pArg, zErr, nErr);
  engine__slot_put(e, s);
  return rc;
}

void engine_close(engine *e) {
  if (e == NULL) return;
  while (e->pFree != NULL) {
    engine_slot *s = e->pFree;
    e->pFree = s->pNext;
    engine_slot_free(s);
  }
  if (e->bOwnBackend) exec_backend_close(&e->be);
  pthread_mutex_destroy(&e->mu);
  free(e->zDataDir);
  free(e);
}

exec_backend *engine_backend(engine *e) {
  return e->pB;
}

exec_bandwidth engine_bandwidth(const engine *e) {
  return e->bw;
}

/* ---- statements ------------------------------------------------------------------ */

/* Returns 1 (with 57014 on pErr) when the request's cancel flag is set. */
static int engine_cancelled(const engine_request *pReq, sql_error *pErr) {
  if (pReq->opt.pbCancel == NULL || !*pReq->opt.pbCancel) return 0;
  sql_error_set(pErr, "57014", -1, "canceling statement due to user request");
  return 1;
}

/* DESCRIBE: the SELECT bound, its columns as the result. */
static int engine_describe(engine_slot *s, const engine_request *pReq, exec_result *pRes,
                           sql_error *pErr) {
  arena a;
  plan_dag d;
  int rc;
  arena_init(&a);
  rc = engine__bind(s, pReq, &a, &d, pErr);
  if (rc == 0) rc = engine__describe_rows(&d, pRes, pErr);
  plan_dag_free(&d);
  arena_free(&a);
  return rc;
}

/* EXPLAIN [ANALYZE] [VERBOSE] of prepared statement p: its text as rows;
** with ANALYZE the figures of its one run come with them. */
static int engine_explain(engine *e, engine_slot *sl, const engine_stmt *p,
                          const engine_request *pReq, exec_result *pRes, sql_error *pErr) {
  int bAnalyze = (pReq->mExplain & ENGINE_EXPLAIN_ANALYZE) != 0;
  host_node_stats *aStats = NULL;
  exec_result run;
  strbuf s;
  int rc = -1;
  memset(&run, 0, sizeof(run));
  strbuf_init(&s);
  /* ANALYZE runs first, so that the tail's lines carry its figures. */
  if (bAnalyze && p->d.pTail != NULL &&
      (aStats = calloc((size_t)p->d.pTail->nNode + 1, sizeof(host_node_stats))) == NULL) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory writing EXPLAIN");
    goto out;
  }
  if (bAnalyze) {
    exec_options xo = pReq->opt;
    xo.pSink = NULL;                     /* its rows are not the answer */
    if (engine__run(e, sl, p, pReq, &xo, &run, aStats, pErr) != 0) goto out;
  }
  if (engine__explain_text(p, e->pB, (pReq->mExplain & ENGINE_EXPLAIN_VERBOSE) != 0, aStats, &s,
                           pErr) != 0) {
    goto out;
  }
  if (bAnalyze) {
    run.front = p->front;
    engine__explain_analyze(&run, &s);
  }
  if (strbuf_error(&s)) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory writing EXPLAIN");
    goto out;
  }
  rc = engine__text_rows(ENGINE_EXPLAIN_COLUMN, strbuf_str(&s), s.n, pRes, pErr);
  if (rc == 0 && (pReq->mExplain & ENGINE_EXPLAIN_ANALYZE)) exec_result_figures_copy(pRes, &run);
out:
  free(aStats);
  exec_result_free(&run);
  strbuf_free(&s);
  return rc;
}

/* A streamed SELECT's sink between the run and the caller's: it holds
** back the latest batch, so that the last one comes in the result (one
** batch: the caller's sink is never called). */
typedef struct engine_hold engine_hold;
struct engine_hold {
  exec_sink sink;          /* what the run is given */
  const exec_sink *pOut;   /* the caller's */
  const engine_request *pReq;  /* the session's TimeZone */
  exec_result *pHeld;      /* the latest batch, not passed on yet; owned */
};

static int engine_hold_batch(void *pArg, exec_result *pBatch, sql_error *pErr) {
  engine_hold *h = pArg;
  exec_result *pPrev = h->pHeld;
  h->pHeld = pBatch;
  if (pPrev != NULL && engine__result_zone(pPrev, h->pReq, pErr) != 0) {
    exec_result_free(pPrev);
    free(pPrev);
    return -1;
  }
  return pPrev != NULL ? h->pOut->xBatch(h->pOut->pArg, pPrev, pErr) : 0;
}

/* Runs statement p into *pRes, streaming as pReq->opt.pSink asks: a
** plan of one pipeline streams its batches; one with a host tail makes
** its whole result first (the tail needs its inputs whole), and its
** pipelines' rows are the tail's, never the caller's. */
static int engine_run(engine *e, engine_slot *s, const engine_stmt *p,
                      const engine_request *pReq, exec_result *pRes, sql_error *pErr) {
  engine_hold h;
  exec_options xo = pReq->opt;
  int rc;
  if (p->d.pTail != NULL) xo.pSink = NULL;
  if (xo.pSink == NULL) {
    rc = engine__run(e, s, p, pReq, &xo, pRes, NULL, pErr);
    return rc == 0 ? engine__result_zone(pRes, pReq, pErr) : rc;
  }
  memset(&h, 0, sizeof(h));
  h.sink.xBatch = engine_hold_batch;
  h.sink.pArg = &h;
  h.pOut = pReq->opt.pSink;
  h.pReq = pReq;
  xo.pSink = &h.sink;
  rc = exec_run(s->pCat, &p->aProg[0], e->pB, &xo, pRes, pErr);
  if (h.pHeld != NULL && rc == 0) {
    /* The last batch's rows (and columns) are the result's. */
    exec_result *b = h.pHeld;
    exec_result_figures_copy(b, pRes);
    b->nRowStreamed = pRes->nRowStreamed - b->nRow;
    exec_result_free(pRes);
    *pRes = *b;
    free(b);
  } else if (h.pHeld != NULL) {
    exec_result_free(h.pHeld);
    free(h.pHeld);
  }
  return rc == 0 ? engine__result_zone(pRes, pReq, pErr) : rc;
}

/* SELECT or EXPLAIN on slot s, the catalog held. */
static int engine_statement(engine *e, engine_slot *s, const engine_request *pReq,
                            exec_result *pRes, sql_error *pErr) {
  int bKept = 0, rc = -1;
  engine_stmt *p = engine__prepare(e, s, pReq, &bKept, pErr);
  if (p == NULL) return -1;
  if (!engine_cancelled(pReq, pErr)) {
    if (pReq->eKind == ENGINE_EXPLAIN) {
      rc = engine_explain(e, s, p, pReq, pRes, pErr);
    } else {
      rc = engine_run(e, s, p, pReq, pRes, pErr);
      pRes->front = p->front;
    }
  }
  if (!bKept) engine__stmt_free(p);
  return rc;
}

int engine_execute(engine *e, const engine_request *pReq, exec_result *pRes, sql_error *pErr) {
  char zErr[512];
  engine_slot *s;
  int rc = -1;
  memset(pRes, 0, sizeof(*pRes));
  sql_error_clear(pErr);
  if (engine_cancelled(pReq, pErr)) return -1;
  if ((s = engine__slot_get(e, zErr, sizeof(zErr))) == NULL) {
    sql_error_set(pErr, SQLSTATE_IO_ERROR, -1, "%s", zErr);
    return -1;
  }
  /* One look at whether the catalog changed, for the whole statement: it
  ** also says whether a kept statement is still right. */
  if (cat_cache_hold(s->pCat, zErr, sizeof(zErr)) != 0) {
    sql_error_set(pErr, SQLSTATE_IO_ERROR, -1, "%s", zErr);
    engine__slot_put(e, s);
    return -1;
  }
  switch (pReq->eKind) {
    case ENGINE_SELECT:
    case ENGINE_EXPLAIN: rc = engine_statement(e, s, pReq, pRes, pErr); break;
    case ENGINE_DESCRIBE: rc = engine_describe(s, pReq, pRes, pErr); break;
    default:
      sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "unknown statement kind %d", (int)pReq->eKind);
      break;
  }
  cat_cache_release(s->pCat);
  engine__slot_put(e, s);
  if (rc != 0 && exec_backend_lost(e->pB)) {
    log_printf(LOG_LEVEL_ERROR, "engine: the GPU is lost for this process: %s", pErr->zMsg);
  }
  return rc;
}
