/*
** server/stmt.c — a statement's meaning (stmt.h): the job's life from
** the session's pg_job to its outcome, and the dispatch on the kind of
** statement. Runs on an executor thread, except stmt_job_new, the
** cancel outcome, the status's rendering and the free, which the loop
** calls.
**
** The daemon classifies a statement once: it parses the text here, and
** works out itself what is the server's (SET, SHOW, transactions, DDL,
** COPY); a SELECT, an EXPLAIN of one, or the description of a prepared
** SELECT goes to the executor as structure — its kind, where its SELECT
** begins, EXPLAIN's options, the parameters' values (engine_request) —
** never as SQL text rebuilt around it. The engine, in the device worker or
** in this process, parses that SELECT and nothing else.
*/
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "../parser/parser.h"
#include "../planner/bind.h"
#include "stmt.h"

void stmt_settings_default(stmt_settings *p, const stmt_ctx *pCtx) {
  memset(p, 0, sizeof(*p));
  p->bResident = 1;
  p->bStagePacked = 1;
  p->bSharedScans = 1;
  p->bGenericKernels = pCtx == NULL || !pCtx->bNoGeneric;
  snprintf(p->zDateStyle, sizeof(p->zDateStyle), "ISO, MDY");
  snprintf(p->zTimeZone, sizeof(p->zTimeZone), "UTC");
  snprintf(p->zClientEncoding, sizeof(p->zClientEncoding), "UTF8");
  snprintf(p->zSearchPath, sizeof(p->zSearchPath), "\"$user\", public");
  p->iExtraFloatDigits = 1;
}

/* PREPARE: the type of each $n, the client's where it gave one, else text
** (the parameter then goes in as a quoted literal that the binder types
** from its context). */
static int stmt_job_param_types(stmt_job *j, const pg_job *pJob) {
  int n = stmt_param_count(pJob->zSql != NULL ? pJob->zSql : "");
  if (pJob->nParamType > n) n = pJob->nParamType;
  j->nParamType = n;
  if (n == 0) return 0;
  j->aParamType = calloc((size_t)n, sizeof(uint32_t));
  if (j->aParamType == NULL) return -1;
  for (int i = 0; i < n; i++) {
    uint32_t t = i < pJob->nParamType ? pJob->aParamType[i] : 0;
    j->aParamType[i] = t != 0 ? t : PGWIRE_OID_TEXT;
  }
  return 0;
}

/* Copies the session's parameter values into the job: the session's are
** gone once the job is out. Returns 0, or -1 out of memory. */
static int stmt_job_params(stmt_job *j, const pg_job *pJob) {
  if (pJob->nParam <= 0) return 0;
  if ((j->aParam = calloc((size_t)pJob->nParam, sizeof(engine_param))) == NULL) return -1;
  j->nParam = pJob->nParam;
  for (int i = 0; i < pJob->nParam; i++) {
    j->aParam[i].iType = pJob->aParam[i].iType;
    if (pJob->aParam[i].z != NULL && (j->aParam[i].z = strdup(pJob->aParam[i].z)) == NULL) return -1;
  }
  return 0;
}

stmt_job *stmt_job_new(const stmt_ctx *pCtx, const pg_job *pJob, const stmt_settings *pSet) {
  stmt_job *j = calloc(1, sizeof(*j));
  struct timespec ts;
  if (j == NULL) return NULL;
  j->pCtx = pCtx;
  j->eKind = pJob->eKind;
  j->cTxn = pJob->cTxn;
  j->bExtended = pJob->bExtended;
  j->set = *pSet;
  atomic_init(&j->bCancel, 0);
  atomic_init(&j->eAbandon, QUERY_OK);
  strbuf_init(&j->colNames);
  /* DESCRIBE_CURSOR's text is the cursor's name. */
  const char *zText = pJob->eKind == PG_JOB_DESCRIBE_CURSOR ? pJob->zPortal : pJob->zSql;
  if ((j->zSql = strdup(zText != NULL ? zText : "")) == NULL ||
      (pJob->eKind == PG_JOB_EXECUTE && stmt_job_params(j, pJob) != 0) ||
      (pJob->eKind == PG_JOB_PREPARE && stmt_job_param_types(j, pJob) != 0)) {
    stmt_job_free(j);
    return NULL;
  }
  if (pJob->eKind == PG_JOB_COPY_DATA && pJob->nData > 0) {
    if ((j->pData = malloc(pJob->nData)) == NULL) {
      stmt_job_free(j);
      return NULL;
    }
    memcpy(j->pData, pJob->pData, pJob->nData);
    j->nData = pJob->nData;
  }
  clock_gettime(CLOCK_REALTIME, &ts);
  j->tStart = (double)ts.tv_sec + ts.tv_nsec / 1e9;
  return j;
}

void stmt_job_free(stmt_job *j) {
  if (j == NULL) return;
  if ((j->out.eKind == PG_OUTCOME_ROWS || j->out.eKind == PG_OUTCOME_COPY_OUT) &&
      j->out.pRes != NULL) {
    j->out.pOps->xFree(j->out.pRes);
  }
  stmt_stream_unref(j->pStream);
  stmt_cursors_unref(j->pCursors);
  free(j->aCol);
  strbuf_free(&j->colNames);
  stmt_copy_free(j->pCopy);
  free(j->aParamType);
  for (int i = 0; j->aParam != NULL && i < j->nParam; i++) free((char *)j->aParam[i].z);
  free(j->aParam);
  free(j->pData);
  free(j->zSql);
  free(j->pSettingPairs);
  free(j);
}

void stmt_job_cancel_outcome(stmt_job *j, int bTimeout) {
  if ((j->out.eKind == PG_OUTCOME_ROWS || j->out.eKind == PG_OUTCOME_COPY_OUT) &&
      j->out.pRes != NULL) {
    j->out.pOps->xFree(j->out.pRes);
  }
  j->out.pRes = NULL;
  memset(&j->out, 0, sizeof(j->out));
  stmt_job_error(j, "57014", -1, "canceling statement due to %s",
                   bTimeout ? "statement timeout" : "user request");
}

void stmt_job_command(stmt_job *j, const char *zTag) {
  snprintf(j->zTag, sizeof(j->zTag), "%s", zTag);
  j->out.eKind = PG_OUTCOME_COMMAND;
  j->out.zTag = j->zTag;
}

void stmt_job_error_sql(stmt_job *j, const sql_error *e) {
  stmt_job_error(j, e->zState[0] ? e->zState : SQLSTATE_INTERNAL_ERROR, e->iOffset, "%s",
                   e->zMsg);
}

/* Records a finished query in /status's ring and the metrics. */
static void stmt_query_record(stmt_job *j, const exec_result *r, double secs) {
  query_outcome e = QUERY_OK;
  int64_t nRow = 0;
  uint64_t nBytes = 0;
  if (atomic_load(&j->eAbandon) != QUERY_OK) {
    /* Whatever it came to, nobody had the answer: it counts by why. */
    e = (query_outcome)atomic_load(&j->eAbandon);
  } else if (r == NULL) {
    e = strcmp(j->zState, "57014") == 0 ? QUERY_CANCELLED : QUERY_ERROR;
  } else {
    nRow = r->nRow + r->nRowStreamed;
    nBytes = r->nColumnBytes;
  }
  if (j->pCtx->pRecent != NULL) {
    char *zShown = j->pCtx->bStatusLiterals ? NULL : stmt_sql_elided(j->zSql);
    status_recent_add(j->pCtx->pRecent, j->pCtx->bStatusLiterals ? j->zSql : zShown, j->tStart,
                      secs, nRow, (int64_t)nBytes, e);
    free(zShown);
  }
  stmt_last_query_set(j, r, secs);
  if (j->pCtx->pMetrics != NULL) {
    metrics_starq_query_end(j->pCtx->pMetrics, e, secs, nBytes);
    if (r != NULL && e == QUERY_OK) {
      metrics_starq_kernel_lookup(j->pCtx->pMetrics, r->bCacheHit, r->rCompileSeconds);
      if (r->nColStreamed > 0) metrics_starq_strides(j->pCtx->pMetrics, r->nStride, r->nShareStride);
    }
  }
}

/* The executor's options of a job's session settings. */
static exec_options stmt_exec_options(stmt_job *j) {
  exec_options xo = {.bNoResident = !j->set.bResident, .bNoStage = !j->set.bStagePacked,
                     .bNoShare = !j->set.bSharedScans,
                     .pbCancel = &j->bCancel, .nResultLimit = (uint64_t)j->set.nResultMemory,
                     .eGeneric = j->set.bGenericAlways    ? EXEC_GENERIC_ALWAYS
                                 : j->set.bGenericKernels ? EXEC_GENERIC_ON
                                                          : EXEC_GENERIC_OFF};
  return xo;
}

/* The request for pStmt of the job's text: a SELECT, or EXPLAIN of one. */
static engine_request stmt_request(stmt_job *j, engine_kind eKind, const sql_stmt *pStmt) {
  engine_request q;
  memset(&q, 0, sizeof(q));
  q.eKind = eKind;
  q.zSql = j->zSql;
  q.iSelect = pStmt->eKind == SQL_STMT_EXPLAIN ? pStmt->pExplain->iOffset : pStmt->iOffset;
  q.mExplain = (pStmt->bAnalyze ? ENGINE_EXPLAIN_ANALYZE : 0) |
               (pStmt->bVerbose ? ENGINE_EXPLAIN_VERBOSE : 0);
  q.nParam = j->nParam;
  q.aParam = j->aParam;
  q.opt = stmt_exec_options(j);
  q.zUser = j->set.zUser[0] != 0 ? j->set.zUser : NULL;
  q.zDatabase = j->set.zDatabase[0] != 0 ? j->set.zDatabase : NULL;
  q.iBackendPid = j->set.iPid;
  free(j->pSettingPairs);
  /* Out of memory: current_setting() finds none, and says so. */
  j->pSettingPairs = stmt_setting_pairs(&j->set, &j->nSettingPairs);
  q.pSettings = j->pSettingPairs;
  q.nSettings = j->pSettingPairs != NULL ? j->nSettingPairs : 0;
  return q;
}

/* Fills azName and aType (STMT_COL_MAX each) from r's columns; returns
** their number. */
static int stmt_result_columns(const exec_result *r, const char **azName, coltype *aType) {
  int nCol = r->nCol < STMT_COL_MAX ? r->nCol : STMT_COL_MAX;
  for (int c = 0; c < nCol; c++) {
    azName[c] = r->aCol[c].zName;
    aType[c] = r->aCol[c].type;
  }
  return nCol;
}

int stmt_result_rows(stmt_job *j, const exec_result *r, const pg_result_ops *pOps, void *pRes) {
  const char *azName[STMT_COL_MAX];
  coltype aType[STMT_COL_MAX];
  int nCol = stmt_result_columns(r, azName, aType);
  return stmt_job_rows(j, nCol, azName, aType, pOps, pRes);
}

int stmt_select_run(stmt_job *j, const sql_stmt *pStmt, exec_result *r, sql_error *pErr) {
  engine_request q = stmt_request(j, ENGINE_SELECT, pStmt);   /* the whole DECLARE */
  j->bQuery = 1;
  if (atomic_load(&j->bCancel)) {
    sql_error_set(pErr, "57014", -1, "canceling statement due to user request");
    return -1;
  }
  return executor_execute(j->pCtx->ex, &q, r, pErr);
}

/* Gives the job its outcome over the rows (pOps, pRes; taken over) of a
** query whose columns are r's: a result set, or COPY's data. Returns 0,
** or -1 with *pErr. */
static int stmt_query_outcome(stmt_job *j, const exec_result *r, const pg_result_ops *pOps,
                              void *pRes, sql_error *pErr) {
  const char *azName[STMT_COL_MAX];
  coltype aType[STMT_COL_MAX];
  int nCol = stmt_result_columns(r, azName, aType);
  if (j->pCopyTo != NULL) {
    return stmt_copyout_rows(j, j->pCopyTo, nCol, azName, aType, pOps, pRes, pErr);
  }
  if (stmt_job_rows(j, nCol, azName, aType, pOps, pRes) != 0) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return -1;
  }
  return 0;
}


/* The sink of a SELECT's run (exec_sink): its first batch makes the job's
** outcome, over the stream, which the loop may hand to the session at
** once; every batch goes into the stream, waiting for room. */
static int stmt_query_batch(void *pArg, exec_result *pBatch, sql_error *pErr) {
  stmt_job *j = pArg;
  if (!stmt_stream_started(j->pStream) &&
      stmt_query_outcome(j, pBatch, &stmt_stream_ops, stmt_stream_ref(j->pStream), pErr) != 0) {
    exec_result_free(pBatch);
    free(pBatch);
    return -1;
  }
  return stmt_stream_push(j->pStream, pBatch, pErr);
}

/* The end of a SELECT whose rows went into the stream: its last batch
** (the result's rows) and its end, or its error after the rows sent. The
** job's outcome is the stream's already. */
static void stmt_query_streamed(stmt_job *j, int rc, exec_result *r, const sql_error *pErr,
                                double secs) {
  sql_error e;
  if (rc != 0) {
    snprintf(j->zState, sizeof(j->zState), "%s", pErr->zState);
    stmt_query_record(j, NULL, secs);
    stmt_stream_end(j->pStream, pErr);
    exec_result_free(r);
    free(r);
    return;
  }
  stmt_query_record(j, r, secs);
  sql_error_clear(&e);
  if (r->nRow > 0) {
    rc = stmt_stream_push(j->pStream, r, &e);    /* takes r */
  } else {
    exec_result_free(r);
    free(r);
  }
  stmt_stream_end(j->pStream, rc == 0 ? NULL : &e);
}

/* SELECT, or EXPLAIN [ANALYZE] of one: the executor works it out, and the
** rows go to the session (EXPLAIN's: one "QUERY PLAN" row per line). A
** SELECT's rows past one batch are streamed (stmt-stream.c). A run is
** recorded for /status, the metrics and SHOW starq.last_query. */
static void stmt_query(stmt_job *j, const sql_stmt *pStmt) {
  exec_result *r = calloc(1, sizeof(*r));
  engine_request q;
  sql_error e;
  double t0 = timer_now();
  int bRun = pStmt->eKind != SQL_STMT_EXPLAIN || pStmt->bAnalyze, rc;
  j->bQuery = 1;
  sql_error_clear(&e);
  if (r == NULL) {
    stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return;
  }
  if (pStmt->eKind == SQL_STMT_EXPLAIN &&
      (pStmt->pExplain == NULL || pStmt->pExplain->eKind != SQL_STMT_SELECT)) {
    stmt_job_error(j, SQLSTATE_FEATURE_NOT_SUPPORTED,
                   pStmt->pExplain != NULL ? pStmt->pExplain->iOffset : pStmt->iOffset,
                   "EXPLAIN explains a SELECT only");
    free(r);
    return;
  }
  q = stmt_request(j, pStmt->eKind == SQL_STMT_EXPLAIN ? ENGINE_EXPLAIN : ENGINE_SELECT, pStmt);
  if (pStmt->eKind != SQL_STMT_EXPLAIN && j->pStream != NULL) {
    j->sink.xBatch = stmt_query_batch;
    j->sink.pArg = j;
    q.opt.pSink = &j->sink;
  }
  if (atomic_load(&j->bCancel)) {
    sql_error_set(&e, "57014", -1, "canceling statement due to user request");
    rc = -1;
  } else {
    rc = executor_execute(j->pCtx->ex, &q, r, &e);
    if (q.opt.pSink != NULL && stmt_stream_started(j->pStream)) {
      stmt_query_streamed(j, rc, r, &e, timer_now() - t0);
      return;
    }
  }
  if (rc == 0) {
    if (bRun) stmt_query_record(j, r, timer_now() - t0);
    if (pStmt->eKind == SQL_STMT_EXPLAIN) {
      snprintf(j->zTag, sizeof(j->zTag), "EXPLAIN");
      j->out.zTag = j->zTag;
    }
    if (stmt_query_outcome(j, r, &stmt_exec_ops, r, &e) != 0) stmt_job_error_sql(j, &e);
    return;
  }
  stmt_job_error_sql(j, &e);
  if (bRun) stmt_query_record(j, NULL, timer_now() - t0);
  exec_result_free(r);
  free(r);
}

/* SHOW TABLES: name and rows of every table. */
static void stmt_show_tables(stmt_job *j, cat *pCat) {
  static const char *azName[] = {"name", "rows"};
  coltype aType[2] = {{COLTYPE_TEXT, 0, 0, 0}, {COLTYPE_BIGINT, 0, 0, 0}};
  stmt_text *pText = stmt_text_new(2);
  char **az = NULL, zErr[512];
  int n = 0, rc = 0;
  if (pText == NULL || cat_table_names(pCat, &az, &n, zErr, sizeof(zErr)) != 0) {
    if (pText != NULL) stmt_text_ops.xFree(pText);
    stmt_job_error(j, SQLSTATE_IO_ERROR, -1, "cannot list tables: %s", pText ? zErr : "out of memory");
    return;
  }
  for (int i = 0; i < n; i++) {
    cat_table *t;
    char zRows[32];
    const char *azRow[2] = {az[i], zRows};
    if (cat_table_get(pCat, az[i], &t, zErr, sizeof(zErr)) != 0) continue;
    snprintf(zRows, sizeof(zRows), "%lld", (long long)t->nRow);
    cat_table_free(t);
    if (rc == 0) rc = stmt_text_row(pText, azRow);
  }
  for (int i = 0; i < n; i++) free(az[i]);
  free(az);
  if (rc != 0) {
    stmt_text_ops.xFree(pText);
    stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return;
  }
  snprintf(j->zTag, sizeof(j->zTag), "SHOW");
  j->out.zTag = j->zTag;
  stmt_job_rows(j, 2, azName, aType, &stmt_text_ops, pText);
}

static void stmt_create_table(stmt_job *j, cat *pCat, const sql_stmt *pStmt) {
  cat_table *pDef = NULL;
  sql_error e;
  char zErr[512];
  sql_error_clear(&e);
  if (bind_create_table(pCat, pStmt->pCreate, &pDef, &e) != 0) {
    stmt_job_error_sql(j, &e);
    return;
  }
  if (pDef != NULL && cat_table_create(pCat, pDef, zErr, sizeof(zErr)) != 0) {
    stmt_job_error(j, SQLSTATE_IO_ERROR, pStmt->pCreate->iOffset, "%s", zErr);
  } else {
    stmt_job_command(j, "CREATE TABLE");
  }
  cat_table_free(pDef);
}

static void stmt_drop_table(stmt_job *j, cat *pCat, const sql_stmt *pStmt) {
  cat_table *t;
  char zErr[512];
  if (cat_table_get(pCat, pStmt->zName, &t, zErr, sizeof(zErr)) != 0) {
    if (pStmt->bIfExists) {
      stmt_job_command(j, "DROP TABLE");
    } else {
      stmt_job_error(j, SQLSTATE_UNDEFINED_TABLE, -1, "table \"%s\" does not exist",
                       pStmt->zName);
    }
    return;
  }
  cat_table_free(t);
  if (cat_table_drop(pCat, pStmt->zName, zErr, sizeof(zErr)) != 0) {
    stmt_job_error(j, SQLSTATE_IO_ERROR, pStmt->iOffset, "%s", zErr);
  } else {
    stmt_job_command(j, "DROP TABLE");
  }
}

/* BEGIN, COMMIT, ROLLBACK: no effect but the status the tags give. */
static void stmt_transaction(stmt_job *j, sql_stmt_kind eKind) {
  if (eKind == SQL_STMT_BEGIN) {
    stmt_job_command(j, "BEGIN");
  } else if (eKind == SQL_STMT_COMMIT) {
    stmt_job_command(j, j->cTxn == 'E' ? "ROLLBACK" : "COMMIT");
    stmt_cursors_txn_end(j->pCursors, j->cTxn != 'E');
  } else {
    stmt_job_command(j, "ROLLBACK");
    stmt_cursors_txn_end(j->pCursors, 0);
  }
}

/* Turns the job's ROWS outcome into a PREPARED one with its columns. */
static void stmt_rows_prepared(stmt_job *j) {
  j->out.pOps->xFree(j->out.pRes);
  j->out.pRes = NULL;
  j->out.pOps = NULL;
  j->out.eKind = PG_OUTCOME_PREPARED;
  j->out.nParamType = j->nParamType;
  j->out.aParamType = j->aParamType;
}

/* Gives the job a PREPARED outcome whose statement returns nCol columns
** named azName of types aType (none: it returns no rows). */
static void stmt_prepared(stmt_job *j, int nCol, const char *const *azName, const coltype *aType) {
  if (nCol > 0 &&
      stmt_job_rows(j, nCol, azName, aType, &stmt_text_ops, stmt_text_new(0)) == 0) {
    stmt_text_ops.xFree((void *)j->out.pRes);
    j->out.pRes = NULL;
    j->out.pOps = NULL;
  }
  if (j->out.eKind == PG_OUTCOME_ERROR) return;
  j->out.eKind = PG_OUTCOME_PREPARED;
  j->out.nParamType = j->nParamType;
  j->out.aParamType = j->aParamType;
}

/* PREPARE: the parameters and the columns the statement will return — a
** SELECT's as the engine binds it (parameters NULL), EXPLAIN's and SHOW's
** one text column. */
static void stmt_describe(stmt_job *j, const sql_stmt *pStmt) {
  static const char *azPlan[] = {"QUERY PLAN"};
  coltype tText = {COLTYPE_TEXT, 0, 0, 0};
  if (pStmt != NULL && pStmt->eKind == SQL_STMT_SELECT) {
    engine_request q = stmt_request(j, ENGINE_DESCRIBE, pStmt);
    const char *azName[STMT_COL_MAX];
    coltype aType[STMT_COL_MAX];
    exec_result r;
    sql_error e;
    int nCol;
    q.nParam = 0;   /* described with every $n NULL, typed by its context */
    sql_error_clear(&e);
    if (executor_execute(j->pCtx->ex, &q, &r, &e) != 0) {
      stmt_job_error_sql(j, &e);
      exec_result_free(&r);
      return;
    }
    nCol = r.nCol < STMT_COL_MAX ? r.nCol : STMT_COL_MAX;
    for (int c = 0; c < nCol; c++) {
      azName[c] = r.aCol[c].zName;
      aType[c] = r.aCol[c].type;
    }
    stmt_prepared(j, nCol, azName, aType);
    exec_result_free(&r);
  } else if (pStmt != NULL && pStmt->eKind == SQL_STMT_FETCH && !pStmt->bMove) {
    if (stmt_cursor_describe(j, pStmt->zName, 0) == 0) stmt_rows_prepared(j);
  } else if (pStmt != NULL && (pStmt->eKind == SQL_STMT_EXPLAIN || pStmt->eKind == SQL_STMT_SHOW ||
                               pStmt->eKind == SQL_STMT_SHOW_TABLES)) {
    const char *azShow[] = {pStmt->zName != NULL ? pStmt->zName : "name"};
    stmt_prepared(j, 1, pStmt->eKind == SQL_STMT_EXPLAIN ? azPlan : azShow, &tText);
  } else {
    stmt_prepared(j, 0, NULL, NULL);
  }
}

/* Returns 1 if table t has a column zName. */
static int stmt_table_has(const cat_table *t, const char *zName) {
  for (int i = 0; i < t->nCol; i++) {
    if (strcmp(t->aCol[i].zName, zName) == 0) return 1;
  }
  return 0;
}

/* COPY t [(cols)] TO: its column list and FORCE_QUOTE name columns of t,
** as PostgreSQL's CopyGetAttnums requires (before it asks whether COPY
** writes a FORCE_QUOTE column: stmt-copyout.c). Returns 0, or -1 with the
** job's error (the table's own absence is the query's to report). */
static int stmt_copy_to_names_check(stmt_job *j, const sql_copy *pCopy) {
  char zErr[512];
  cat *pCat = executor_cat_get(j->pCtx->ex, zErr, sizeof(zErr));
  cat_table *t = NULL;
  const char *zBad = NULL;
  if (pCat == NULL) {
    stmt_job_error(j, SQLSTATE_IO_ERROR, -1, "%s", zErr);
    return -1;
  }
  if (cat_table_get(pCat, pCopy->zTable, &t, zErr, sizeof(zErr)) == 0) {
    for (int k = 0; zBad == NULL && k < pCopy->nCol; k++) {
      if (!stmt_table_has(t, pCopy->azCol[k])) zBad = pCopy->azCol[k];
    }
    for (int k = 0; zBad == NULL && k < pCopy->nForceQuote; k++) {
      if (!stmt_table_has(t, pCopy->azForceQuote[k])) zBad = pCopy->azForceQuote[k];
    }
    if (zBad != NULL) {
      stmt_job_error(j, SQLSTATE_UNDEFINED_COLUMN, -1,
                     "column \"%s\" of relation \"%s\" does not exist", zBad, pCopy->zTable);
    }
    cat_table_free(t);
  }
  executor_cat_put(j->pCtx->ex, pCat);
  return zBad != NULL ? -1 : 0;
}

/* COPY ... TO STDOUT: the rows of its query, or of its table's columns,
** in its format. A server file is PostgreSQL's superuser's; not here. */
static void stmt_copy_to(stmt_job *j, const sql_stmt *pStmt) {
  if (!pStmt->pCopy->bStdin) {
    stmt_job_error(j, SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                   "must be superuser or have privileges of the pg_write_server_files role to "
                   "COPY to a file");
    snprintf(j->zDetail, sizeof(j->zDetail), "%s",
             "Anyone can COPY to stdout or from stdin. psql's \\copy command also works for "
             "anyone.");
    j->out.error.zHint = j->zDetail;
    return;
  }
  sql_error e;
  sql_error_clear(&e);
  if (stmt_copyout_check(pStmt->pCopy, &e) != 0) {
    stmt_job_error_sql(j, &e);
    return;
  }
  if (pStmt->pCopy->zTable != NULL &&
      (pStmt->pCopy->nCol > 0 || pStmt->pCopy->nForceQuote > 0) &&
      stmt_copy_to_names_check(j, pStmt->pCopy) != 0) {
    return;
  }
  j->pCopyTo = pStmt->pCopy;
  stmt_query(j, pStmt);
  j->pCopyTo = NULL;
}

/* The statements the daemon works out with the catalog alone. */
static void stmt_catalog(stmt_job *j, const sql_stmt *pStmt) {
  char zErr[512];
  cat *pCat = executor_cat_get(j->pCtx->ex, zErr, sizeof(zErr));
  if (pCat == NULL) {
    stmt_job_error(j, SQLSTATE_IO_ERROR, -1, "%s", zErr);
    return;
  }
  switch (pStmt->eKind) {
    case SQL_STMT_SHOW_TABLES: stmt_show_tables(j, pCat); break;
    case SQL_STMT_CREATE_TABLE: stmt_create_table(j, pCat, pStmt); break;
    case SQL_STMT_DROP_TABLE: stmt_drop_table(j, pCat, pStmt); break;
    case SQL_STMT_COPY:
      if (pStmt->pCopy->bStdin) {
        stmt_copy_begin(j, pCat, pStmt->pCopy);
      } else {
        stmt_copy_file(j, pCat, pStmt->pCopy);
      }
      break;
    default: break;
  }
  executor_cat_put(j->pCtx->ex, pCat);
}

/* EXECUTE of one parsed statement. */
static void stmt_execute(stmt_job *j, const sql_stmt *pStmt) {
  if (j->cTxn == 'E' && pStmt->eKind != SQL_STMT_COMMIT && pStmt->eKind != SQL_STMT_ROLLBACK) {
    stmt_job_error(j, "25P02",
                   -1, "current transaction is aborted, commands ignored until end of transaction block");
    return;
  }
  switch (pStmt->eKind) {
    case SQL_STMT_SELECT:
    case SQL_STMT_EXPLAIN: stmt_query(j, pStmt); break;
    case SQL_STMT_COPY_TO: stmt_copy_to(j, pStmt); break;
    case SQL_STMT_DECLARE_CURSOR: stmt_declare(j, pStmt); break;
    case SQL_STMT_FETCH: stmt_fetch(j, pStmt); break;
    case SQL_STMT_CLOSE: stmt_close(j, pStmt); break;
    case SQL_STMT_SET: stmt_set(j, pStmt->zName, pStmt->zValue, -1); break;
    case SQL_STMT_SHOW: stmt_show(j, pStmt->zName, -1); break;
    case SQL_STMT_RESET: stmt_reset(j, pStmt->zName, "RESET", -1); break;
    case SQL_STMT_SET_TRANSACTION:
    case SQL_STMT_DEALLOCATE:
    case SQL_STMT_DISCARD: stmt_session_command(j, pStmt); break;
    case SQL_STMT_BEGIN:
    case SQL_STMT_COMMIT:
    case SQL_STMT_ROLLBACK: stmt_transaction(j, pStmt->eKind); break;
    case SQL_STMT_SHOW_TABLES:
    case SQL_STMT_CREATE_TABLE:
    case SQL_STMT_DROP_TABLE:
    case SQL_STMT_COPY: stmt_catalog(j, pStmt); break;
    default:
      stmt_job_error(j, SQLSTATE_FEATURE_NOT_SUPPORTED, pStmt->iOffset,
                     "this statement is not supported by the server yet");
      break;
  }
}

/* COPY_DONE: the load, with a catalog handle. */
static void stmt_copy_finish(stmt_job *j) {
  char zErr[512];
  cat *pCat = executor_cat_get(j->pCtx->ex, zErr, sizeof(zErr));
  if (pCat == NULL) {
    stmt_job_error(j, SQLSTATE_IO_ERROR, -1, "%s", zErr);
    return;
  }
  stmt_copy_done(j, pCat);
  executor_cat_put(j->pCtx->ex, pCat);
}

void stmt_job_run(stmt_job *j) {
  arena a;
  sql_script s;
  sql_error e;
  if (atomic_load(&j->bCancel)) {
    /* Cancelled while it waited in the queue: the client has its answer. */
    stmt_job_error(j, "57014", -1, "canceling statement due to user request");
    return;
  }
  switch (j->eKind) {
    case PG_JOB_COPY_DATA: stmt_copy_data(j); return;
    case PG_JOB_COPY_FAIL:
      stmt_copy_free(j->pCopy);   /* the session reports the client's reason */
      j->pCopy = NULL;
      stmt_job_command(j, "COPY");
      return;
    case PG_JOB_COPY_DONE: stmt_copy_finish(j); return;
    case PG_JOB_DESCRIBE_CURSOR:
      if (stmt_cursor_describe(j, j->zSql, 1) == 0) stmt_rows_prepared(j);
      return;
    default: break;
  }
  if (j->eKind == PG_JOB_EXECUTE && j->cTxn != 'E' && stmt_pgcatalog(j, j->zSql)) return;
  arena_init(&a);
  sql_error_clear(&e);
  if (sql_parse(j->zSql, &a, &s, &e) != 0) {
    stmt_job_error_sql(j, &e);
  } else if (s.nStmt > 1) {
    stmt_job_error(j, SQLSTATE_SYNTAX_ERROR, -1,
                   "cannot insert multiple commands into a prepared statement");
  } else if (j->eKind == PG_JOB_PREPARE) {
    stmt_describe(j, s.nStmt ? s.apStmt[0] : NULL);
  } else if (s.nStmt == 0) {
    stmt_job_command(j, "");   /* the session answers an empty query itself */
  } else {
    stmt_execute(j, s.apStmt[0]);
  }
  arena_free(&a);
}
