/*
** engine/tail.c — a prepared statement's run. A statement of one pipeline
** and no host tail runs its program through exec_run, exactly as before
** plans were DAGs. One with a host tail runs the tail (host_run), which
** asks for its inputs: each is a pipeline's program run through exec_run,
** its result turned into rows of datums; the tail's rows are turned back
** into an exec_result, so that the server, the worker's wire and the
** tests read it like any other.
**
** A pipeline result's values become datums of the column's type (DATE
** from yyyymmdd to days, DECIMAL's scaled integer to numeric, a string
** code to its text); the tail's output goes back as integers and doubles
** where the result has a column of that kind, else as the value's text
** carried by the result (aStrOff): numeric, dates, strings.
**
** INTERFACE ROUTINES (engineInt.h)
**   engine__run
*/
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "../common/timer.h"
#include "../common/tz.h"
#include "engineInt.h"

/* Seconds from 1970-01-01 to 2000-01-01 UTC, PostgreSQL's epoch. */
#define TAIL_UNIX_2000 946684800

/* The most bytes a host tail's rows may take: past it, 53200 naming the
** size (the server stays up). Results the tail finishes are small; this
** bounds a set operation over pipelines that are not. */
#define ENGINE_TAIL_MEMORY ((uint64_t)4 << 30)

/* One run of a tail: what its inputs are made with, and the figures of
** the pipelines' runs, summed. */
typedef struct tail_run tail_run;
struct tail_run {
  engine *e;
  engine_slot *s;
  const engine_stmt *p;
  const exec_options *pOpt;
  exec_result fig;
};

/* Adds run r's figures to t's. */
static void tail_figures_add(exec_result *t, const exec_result *r) {
  t->rKernelSeconds += r->rKernelSeconds;
  t->rPrepareSeconds += r->rPrepareSeconds;
  t->rOutputSeconds += r->rOutputSeconds;
  t->rCompileSeconds += r->rCompileSeconds;
  t->bCacheHit = t->nStride == 0 ? r->bCacheHit : t->bCacheHit && r->bCacheHit;
  t->bGeneric |= r->bGeneric;
  t->nColumnBytes += r->nColumnBytes;
  t->nFactBytes += r->nFactBytes;
  t->nColPinned += r->nColPinned;
  t->nColResident += r->nColResident;
  t->nColStreamed += r->nColStreamed;
  t->nColPinnedNow += r->nColPinnedNow;
  t->nStride += r->nStride;
  t->nStreamBytes += r->nStreamBytes;
  t->rStreamWaitSeconds += r->rStreamWaitSeconds;
  for (int i = 0; i < r->nKernel && t->nKernel < EXEC_KERNELS_MAX; i++) {
    t->aKernel[t->nKernel++] = r->aKernel[i];
  }
}

/* Value (iRow, iCol) of r as a datum of the column's type; strings are
** copied into pA. Returns 0, or -1 out of memory. */
static int tail_datum(const exec_result *r, int64_t iRow, int iCol, arena *pA, strbuf *pScratch,
                      datum *d) {
  const exec_column *c = &r->aCol[iCol];
  int64_t v;
  *d = datum_null(c->type.eId);
  d->type = c->type;
  if (c->aNull[iRow]) return 0;
  d->bNull = 0;
  if (c->bFloat) {
    d->u.r = c->aFloat[iRow];
    return 0;
  }
  v = c->aInt[iRow];
  switch (c->type.eId) {
    case COLTYPE_DECIMAL:
      d->u.n = numeric_from_int64(v);
      d->u.n.scale = c->type.nScale;
      return 0;
    case COLTYPE_DATE: {
      int32_t iDay;
      if (dt_date_from_yyyymmdd((int32_t)v, &iDay) != DT_OK) return -1;
      d->u.i = iDay;
      return 0;
    }
    case COLTYPE_CHAR:
    case COLTYPE_VARCHAR:
    case COLTYPE_TEXT: {
      char *z;
      strbuf_reset(pScratch);
      exec_result_text(r, iRow, iCol, pScratch);
      if (strbuf_error(pScratch) || (z = arena_alloc(pA, pScratch->n + 1)) == NULL) return -1;
      memcpy(z, strbuf_str(pScratch), pScratch->n);
      d->u.s.z = z;
      d->u.s.n = (uint32_t)pScratch->n;
      return 0;
    }
    default:
      d->u.i = v;
      return 0;
  }
}

/* host_config.xInput: pipeline iInput run, its result as rows. */
static int tail_input(void *pArg, int iInput, arena *pA, host_rel *pOut, sql_error *pErr) {
  tail_run *t = pArg;
  const engine_stmt *p = t->p;
  exec_result r;
  strbuf scratch;
  int rc = -1;
  memset(&r, 0, sizeof(r));
  strbuf_init(&scratch);
  if (exec_run(t->s->pCat, &p->aProg[iInput], t->e->pB, t->pOpt, &r, pErr) != 0) goto out;
  tail_figures_add(&t->fig, &r);
  pOut->nCol = r.nCol;
  pOut->nRow = pOut->nAlloc = r.nRow;
  if ((pOut->apRow = arena_alloc(pA, sizeof(datum *) * (size_t)(r.nRow + 1))) == NULL) goto out_oom;
  for (int64_t i = 0; i < r.nRow; i++) {
    datum *a = arena_alloc(pA, sizeof(datum) * (size_t)(r.nCol + 1));
    if (a == NULL) goto out_oom;
    for (int k = 0; k < r.nCol; k++) {
      if (tail_datum(&r, i, k, pA, &scratch, &a[k]) != 0) goto out_oom;
    }
    pOut->apRow[i] = a;
  }
  rc = 0;
  goto out;
out_oom:
  sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory reading pipeline %d's result",
                iInput + 1);
out:
  strbuf_free(&scratch);
  exec_result_free(&r);
  return rc;
}

/* Column iCol of the tail's rows into c, of type t; a regclass (and its
** kin) as the name fc's catalog gives it. Returns 0, -1 out of memory, or
** -2 with *pErr. */
static int tail_column(func_ctx *fc, const host_rel *pRows, int iCol, coltype t, exec_column *c,
                       sql_error *pErr) {
  int64_t n = pRows->nRow;
  strbuf s;
  c->type = t;
  c->aNull = malloc((size_t)n + 1);
  if (c->aNull == NULL) return -1;
  for (int64_t r = 0; r < n; r++) c->aNull[r] = pRows->apRow[r][iCol].bNull;
  switch (t.eId) {
    case COLTYPE_DOUBLE:
    case COLTYPE_FLOAT4:
      c->bFloat = 1;
      if ((c->aFloat = malloc(sizeof(double) * (size_t)(n + 1))) == NULL) return -1;
      for (int64_t r = 0; r < n; r++) c->aFloat[r] = pRows->apRow[r][iCol].bNull ? 0 : pRows->apRow[r][iCol].u.r;
      return 0;
    case COLTYPE_SMALLINT:
    case COLTYPE_INTEGER:
    case COLTYPE_BIGINT:
    case COLTYPE_BOOLEAN:
      if ((c->aInt = malloc(sizeof(int64_t) * (size_t)(n + 1))) == NULL) return -1;
      for (int64_t r = 0; r < n; r++) c->aInt[r] = pRows->apRow[r][iCol].bNull ? 0 : pRows->apRow[r][iCol].u.i;
      return 0;
    default:
      break;
  }
  /* Anything else as its text, carried by the result. */
  c->aInt = malloc(sizeof(int64_t) * (size_t)(n + 1));
  c->aStrOff = malloc(sizeof(uint64_t) * (size_t)(n + 1));
  if (c->aInt == NULL || c->aStrOff == NULL) return -1;
  strbuf_init(&s);
  c->aStrOff[0] = 0;
  for (int64_t r = 0; r < n; r++) {
    const datum *d = &pRows->apRow[r][iCol];
    int bReg = t.eId == COLTYPE_REGCLASS || t.eId == COLTYPE_REGTYPE || t.eId == COLTYPE_REGPROC ||
               t.eId == COLTYPE_REGNAMESPACE;
    if (!d->bNull && bReg && func_reg_out(fc, d, &s, pErr) != 0) {
      strbuf_free(&s);
      return -2;
    }
    if (!d->bNull && !bReg) host_datum_text(d, &s);
    c->aInt[r] = r;
    c->aStrOff[r + 1] = s.n;
  }
  c->nStr = (uint64_t)n;
  if (strbuf_error(&s) || (c->zStr = malloc(s.n + 1)) == NULL) {
    strbuf_free(&s);
    return -1;
  }
  if (s.n > 0) memcpy(c->zStr, s.z, s.n);
  c->zStr[s.n] = 0;
  strbuf_free(&s);
  return 0;
}

/* The tail's rows as *pRes, with the statement's column names. */
static int tail_result(func_ctx *fc, const plan_dag *d, const host_rel *pRows, exec_result *pRes,
                       sql_error *pErr) {
  int rc;
  if ((pRes->aCol = calloc((size_t)d->nOut + 1, sizeof(exec_column))) == NULL) goto out_oom;
  pRes->nRow = pRows->nRow;
  for (int i = 0; i < d->nOut; i++) {
    exec_column *c = &pRes->aCol[i];
    pRes->nCol = i + 1;
    if ((c->zName = strdup(d->aOut[i].zName)) == NULL) goto out_oom;
    if ((rc = tail_column(fc, pRows, i, d->aOut[i].type, c, pErr)) == -2) return -1;
    if (rc != 0) goto out_oom;
  }
  return 0;
out_oom:
  sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory building the result");
  return -1;
}

/* func_ctx.xSetting: the request's value of setting zName (any case). */
static const char *tail_setting(void *pArg, const char *zName) {
  return engine__setting(pArg, zName);
}

/* What the tail's function calls read: the session of pReq, the catalog
** of slot s, the statement's start. */
static void tail_func_ctx(engine_slot *s, const engine_request *pReq, func_ctx *fc) {
  struct timespec ts;
  const char *zZone = tail_setting((void *)pReq, "timezone");
  sql_error e;
  memset(fc, 0, sizeof(*fc));
  fc->pCat = s->pCat;
  fc->zUser = pReq->zUser;
  fc->zDatabase = pReq->zDatabase;
  fc->iBackendPid = pReq->iBackendPid;
  fc->xSetting = tail_setting;
  fc->pSettingArg = (void *)pReq;
  fc->xVrelFind = vrel_find;
  fc->xVrelEach = vrel_each;
  if (clock_gettime(CLOCK_REALTIME, &ts) == 0) {
    fc->iNow = ((int64_t)ts.tv_sec - TAIL_UNIX_2000) * 1000000 + ts.tv_nsec / 1000;
  }
  if (zZone == NULL || tz_zone_find(zZone, &fc->pZone, &e) != 0) fc->pZone = tz_zone_fixed(0);
}

int engine__run(engine *e, engine_slot *s, const engine_stmt *p, const engine_request *pReq,
                const exec_options *pOpt, exec_result *pRes, host_node_stats *aStats,
                sql_error *pErr) {
  func_ctx fc;
  host_config cfg;
  tail_run t;
  host_rel rows;
  arena a;
  double t0;
  int rc;
  if (p->d.pTail == NULL) return exec_run(s->pCat, &p->aProg[0], e->pB, pOpt, pRes, pErr);
  t0 = timer_now();
  memset(&t, 0, sizeof(t));
  t.e = e;
  t.s = s;
  t.p = p;
  t.pOpt = pOpt;
  memset(&cfg, 0, sizeof(cfg));
  cfg.xInput = tail_input;
  cfg.pInputArg = &t;
  cfg.nMemoryBudget = ENGINE_TAIL_MEMORY;
  cfg.pbCancel = pOpt != NULL ? pOpt->pbCancel : NULL;
  tail_func_ctx(s, pReq, &fc);
  cfg.pFunc = &fc;
  arena_init(&a);
  rc = host_run(p->d.pTail, &cfg, &a, &rows, aStats, pErr);
  if (rc == 0) rc = tail_result(&fc, &p->d, &rows, pRes, pErr);
  arena_free(&a);
  t.fig.rSeconds = timer_now() - t0;
  if (rc == 0) exec_result_figures_copy(pRes, &t.fig);
  return rc;
}
