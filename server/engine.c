/*
** server/engine.c — a statement's meaning (engine.h): the job's life from
** the session's pg_job to its outcome, and the dispatch on the kind of
** statement. Runs on an executor thread, except engine_job_new, the
** cancel outcome and the free, which the loop calls.
**
** Describing (PREPARE) binds a SELECT to learn its columns without running
** it; executing parses the text again (a prepared statement keeps no parse
** tree: re-parsing a star query takes microseconds).
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
#include "engine.h"

void engine_settings_default(engine_settings *p, const engine_ctx *pCtx) {
  memset(p, 0, sizeof(*p));
  p->bResident = 1;
  p->bStagePacked = 1;
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
static int engine_job_param_types(engine_job *j, const pg_job *pJob) {
  int n = engine_param_count(pJob->zSql != NULL ? pJob->zSql : "");
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

/* Returns 1 if zSql holds "starq.status" in any case: SHOW starq.status
** may be among its statements, and the status is rendered for it now. */
static int engine_names_status(const char *zSql) {
  static const char zWant[] = "starq.status";
  for (const char *z = zSql; *z; z++) {
    if (strncasecmp(z, zWant, sizeof(zWant) - 1) == 0) return 1;
  }
  return 0;
}

engine_job *engine_job_new(const engine_ctx *pCtx, const pg_job *pJob, const engine_settings *pSet) {
  engine_job *j = calloc(1, sizeof(*j));
  struct timespec ts;
  if (j == NULL) return NULL;
  j->pCtx = pCtx;
  j->eKind = pJob->eKind;
  j->cTxn = pJob->cTxn;
  j->bExtended = pJob->bExtended;
  j->nParam = pJob->nParam;
  if (pJob->eKind == PG_JOB_EXECUTE && pJob->nParam > 0 && pJob->zSql != NULL) {
    j->zSql = engine_param_bind(pJob->zSql, pJob->nParam, pJob->aParam, j->zPreError,
                                sizeof(j->zPreError));
    if (j->zSql == NULL && j->zPreError[0] == 0) {
      free(j);
      return NULL;
    }
  }
  if (j->zSql == NULL) j->zSql = strdup(pJob->zSql != NULL ? pJob->zSql : "");
  if (j->zSql == NULL) {
    free(j);
    return NULL;
  }
  if (pJob->eKind == PG_JOB_PREPARE && engine_job_param_types(j, pJob) != 0) {
    free(j->zSql);
    free(j);
    return NULL;
  }
  j->set = *pSet;
  if (pCtx->xStatusJson != NULL && engine_names_status(j->zSql)) {
    j->zStatusJson = pCtx->xStatusJson(pCtx->pStatusArg);   /* NULL: SHOW says so */
  }
  if (pJob->eKind == PG_JOB_COPY_DATA && pJob->nData > 0) {
    j->pData = malloc(pJob->nData);
    if (j->pData == NULL) {
      free(j->zSql);
      free(j);
      return NULL;
    }
    memcpy(j->pData, pJob->pData, pJob->nData);
    j->nData = pJob->nData;
  }
  atomic_init(&j->bCancel, 0);
  strbuf_init(&j->colNames);
  clock_gettime(CLOCK_REALTIME, &ts);
  j->tStart = (double)ts.tv_sec + ts.tv_nsec / 1e9;
  return j;
}

void engine_job_free(engine_job *j) {
  if (j == NULL) return;
  if (j->out.eKind == PG_OUTCOME_ROWS && j->out.pRes != NULL) j->out.pOps->xFree(j->out.pRes);
  free(j->aCol);
  strbuf_free(&j->colNames);
  engine_copy_free(j->pCopy);
  free(j->aParamType);
  free(j->pData);
  free(j->zStatusJson);
  free(j->zSql);
  free(j);
}

void engine_job_cancel_outcome(engine_job *j, int bTimeout) {
  if (j->out.eKind == PG_OUTCOME_ROWS && j->out.pRes != NULL) j->out.pOps->xFree(j->out.pRes);
  j->out.pRes = NULL;
  memset(&j->out, 0, sizeof(j->out));
  engine_job_error(j, "57014", -1, "canceling statement due to %s",
                   bTimeout ? "statement timeout" : "user request");
}

static void engine_command(engine_job *j, const char *zTag) {
  snprintf(j->zTag, sizeof(j->zTag), "%s", zTag);
  j->out.eKind = PG_OUTCOME_COMMAND;
  j->out.zTag = j->zTag;
}

static void engine_error_sql(engine_job *j, const sql_error *e) {
  engine_job_error(j, e->zState[0] ? e->zState : SQLSTATE_INTERNAL_ERROR, e->iOffset, "%s",
                   e->zMsg);
}

/* Sleeps for the tests' delay, in small steps that notice a cancel. */
static void engine_test_delay(engine_job *j) {
  for (int ms = 0; ms < j->pCtx->msTestDelay && !atomic_load(&j->bCancel); ms += 5) {
    usleep(5000);
  }
}

/* Records a finished query in /status's ring and the metrics. */
static void engine_query_record(engine_job *j, const exec_result *r, double secs) {
  query_outcome e = QUERY_OK;
  int64_t nRow = 0;
  uint64_t nBytes = 0;
  if (j->out.eKind == PG_OUTCOME_ERROR) {
    e = strcmp(j->zState, "57014") == 0 ? QUERY_CANCELLED : QUERY_ERROR;
  } else if (r != NULL) {
    nRow = r->nRow;
    nBytes = r->nColumnBytes;
  }
  if (j->pCtx->pRecent != NULL) {
    status_recent_add(j->pCtx->pRecent, j->zSql, j->tStart, secs, nRow, (int64_t)nBytes, e);
  }
  engine_last_query_set(j, r, secs);
  if (j->pCtx->pMetrics != NULL) {
    metrics_starq_query_end(j->pCtx->pMetrics, e, secs, nBytes);
    if (r != NULL && e == QUERY_OK) {
      metrics_starq_kernel_lookup(j->pCtx->pMetrics, r->bCacheHit, r->rCompileSeconds);
    }
  }
}

/* SELECT: the executor runs it; the rows go to the session. */
/* The executor's options of a job's session settings. */
static exec_options engine_exec_options(engine_job *j) {
  exec_options xo = {.bNoResident = !j->set.bResident, .bNoStage = !j->set.bStagePacked,
                     .pbCancel = &j->bCancel,
                     .eGeneric = j->set.bGenericAlways    ? EXEC_GENERIC_ALWAYS
                                 : j->set.bGenericKernels ? EXEC_GENERIC_ON
                                                          : EXEC_GENERIC_OFF};
  return xo;
}

static void engine_select(engine_job *j) {
  exec_result *r = calloc(1, sizeof(*r));
  exec_options xo = engine_exec_options(j);
  const char *azName[ENGINE_COL_MAX];
  coltype aType[ENGINE_COL_MAX];
  sql_error e;
  double t0 = timer_now();
  j->bQuery = 1;
  sql_error_clear(&e);
  if (r == NULL) {
    engine_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return;
  }
  engine_test_delay(j);
  if (atomic_load(&j->bCancel)) {
    sql_error_set(&e, "57014", -1, "canceling statement due to user request");
  } else if (executor_select(j->pCtx->ex, j->zSql, &xo, r, &e) == 0) {
    int nCol = r->nCol < ENGINE_COL_MAX ? r->nCol : ENGINE_COL_MAX;
    for (int c = 0; c < nCol; c++) {
      azName[c] = r->aCol[c].zName;
      aType[c] = r->aCol[c].type;
    }
    engine_query_record(j, r, timer_now() - t0);
    engine_job_rows(j, nCol, azName, aType, &engine_exec_ops, r);
    return;
  }
  engine_error_sql(j, &e);
  engine_query_record(j, NULL, timer_now() - t0);
  exec_result_free(r);
  free(r);
}

/* EXPLAIN ANALYZE: runs the query through the executor and appends what
** the run took: rows, time by phase, column bytes and where they were
** read from, and each kernel's launches and time. The rows are dropped. */
static int engine_explain_analyze(engine_job *j, const sql_stmt *pStmt, strbuf *s, sql_error *pErr) {
  exec_result r;
  exec_options xo = engine_exec_options(j);
  const char *zInner = j->zSql + pStmt->pExplain->iOffset;
  double t0 = timer_now();
  if (executor_select(j->pCtx->ex, zInner, &xo, &r, pErr) != 0) {
    /* Positions are in the explained statement: shift them to the whole. */
    if (pErr->iOffset >= 0) pErr->iOffset += pStmt->pExplain->iOffset;
    exec_result_free(&r);
    return -1;
  }
  engine_query_record(j, &r, timer_now() - t0);
  strbuf_printf(s, "\nExecution: %lld rows in %.3f ms (compile %.3f ms%s%s, prepare %.3f ms, "
                "kernels %.3f ms, output %.3f ms)",
                (long long)r.nRow, r.rSeconds * 1e3, r.rCompileSeconds * 1e3,
                r.bCacheHit ? ", cached" : "",
                r.bGeneric ? ", generic kernels" : "",
                r.rPrepareSeconds * 1e3, r.rKernelSeconds * 1e3, r.rOutputSeconds * 1e3);
  strbuf_printf(s, "\nColumns: %llu bytes read (%llu of the fact table): %d pinned, %d resident, "
                "%d streamed",
                (unsigned long long)r.nColumnBytes, (unsigned long long)r.nFactBytes, r.nColPinned,
                r.nColResident, r.nColStreamed);
  if (r.nStride > 1) strbuf_printf(s, " in %d strides", r.nStride);
  for (int i = 0; i < r.nKernel; i++) {
    strbuf_printf(s, "\nKernel %s: %d launch%s, %.3f ms", r.aKernel[i].zName, r.aKernel[i].nLaunch,
                  r.aKernel[i].nLaunch == 1 ? "" : "es", r.aKernel[i].rSeconds * 1e3);
  }
  exec_result_free(&r);
  return 0;
}

/* EXPLAIN [ANALYZE] [VERBOSE]: one text row per line, column "QUERY PLAN". */
static void engine_explain(engine_job *j, const sql_stmt *pStmt) {
  static const char *azName[] = {"QUERY PLAN"};
  coltype t = {COLTYPE_TEXT, 0, 0, 0};
  engine_text *pText = engine_text_new(1);
  strbuf s;
  sql_error e;
  j->bQuery = 1;
  sql_error_clear(&e);
  strbuf_init(&s);
  if (pText == NULL) {
    engine_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
  } else if (executor_explain(j->pCtx->ex, j->zSql, pStmt->bVerbose, &s, &e) != 0 ||
             (pStmt->bAnalyze && engine_explain_analyze(j, pStmt, &s, &e) != 0)) {
    engine_error_sql(j, &e);
    engine_text_ops.xFree(pText);
  } else {
    char *z = s.z, *zEnd;
    int rc = 0;
    while (rc == 0 && z != NULL && *z) {
      const char *az[1];
      zEnd = strchr(z, '\n');
      if (zEnd != NULL) *zEnd = 0;
      az[0] = z;
      rc = engine_text_row(pText, az);
      z = zEnd != NULL ? zEnd + 1 : NULL;
    }
    snprintf(j->zTag, sizeof(j->zTag), "EXPLAIN");
    j->out.zTag = j->zTag;
    if (rc != 0) {
      engine_text_ops.xFree(pText);
      engine_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    } else {
      engine_job_rows(j, 1, azName, &t, &engine_text_ops, pText);
    }
  }
  strbuf_free(&s);
}

/* SHOW TABLES: name and rows of every table. */
static void engine_show_tables(engine_job *j, cat *pCat) {
  static const char *azName[] = {"name", "rows"};
  coltype aType[2] = {{COLTYPE_TEXT, 0, 0, 0}, {COLTYPE_BIGINT, 0, 0, 0}};
  engine_text *pText = engine_text_new(2);
  char **az = NULL, zErr[512];
  int n = 0, rc = 0;
  if (pText == NULL || cat_table_names(pCat, &az, &n, zErr, sizeof(zErr)) != 0) {
    if (pText != NULL) engine_text_ops.xFree(pText);
    engine_job_error(j, SQLSTATE_IO_ERROR, -1, "cannot list tables: %s", pText ? zErr : "out of memory");
    return;
  }
  for (int i = 0; i < n; i++) {
    cat_table *t;
    char zRows[32];
    const char *azRow[2] = {az[i], zRows};
    if (cat_table_get(pCat, az[i], &t, zErr, sizeof(zErr)) != 0) continue;
    snprintf(zRows, sizeof(zRows), "%lld", (long long)t->nRow);
    cat_table_free(t);
    if (rc == 0) rc = engine_text_row(pText, azRow);
  }
  for (int i = 0; i < n; i++) free(az[i]);
  free(az);
  if (rc != 0) {
    engine_text_ops.xFree(pText);
    engine_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return;
  }
  snprintf(j->zTag, sizeof(j->zTag), "SHOW");
  j->out.zTag = j->zTag;
  engine_job_rows(j, 2, azName, aType, &engine_text_ops, pText);
}

static void engine_create_table(engine_job *j, cat *pCat, const sql_stmt *pStmt) {
  cat_table *pDef = NULL;
  sql_error e;
  char zErr[512];
  sql_error_clear(&e);
  if (bind_create_table(pCat, pStmt->pCreate, &pDef, &e) != 0) {
    engine_error_sql(j, &e);
    return;
  }
  if (pDef != NULL && cat_table_create(pCat, pDef, zErr, sizeof(zErr)) != 0) {
    engine_job_error(j, SQLSTATE_IO_ERROR, pStmt->pCreate->iOffset, "%s", zErr);
  } else {
    engine_command(j, "CREATE TABLE");
  }
  cat_table_free(pDef);
}

static void engine_drop_table(engine_job *j, cat *pCat, const sql_stmt *pStmt) {
  cat_table *t;
  char zErr[512];
  if (cat_table_get(pCat, pStmt->zName, &t, zErr, sizeof(zErr)) != 0) {
    if (pStmt->bIfExists) {
      engine_command(j, "DROP TABLE");
    } else {
      engine_job_error(j, SQLSTATE_UNDEFINED_TABLE, -1, "table \"%s\" does not exist",
                       pStmt->zName);
    }
    return;
  }
  cat_table_free(t);
  if (cat_table_drop(pCat, pStmt->zName, zErr, sizeof(zErr)) != 0) {
    engine_job_error(j, SQLSTATE_IO_ERROR, pStmt->iOffset, "%s", zErr);
  } else {
    engine_command(j, "DROP TABLE");
  }
}

/* BEGIN, COMMIT, ROLLBACK: no effect but the status the tags give. */
static void engine_transaction(engine_job *j, sql_stmt_kind eKind) {
  if (eKind == SQL_STMT_BEGIN) {
    engine_command(j, "BEGIN");
  } else if (eKind == SQL_STMT_COMMIT) {
    engine_command(j, j->cTxn == 'E' ? "ROLLBACK" : "COMMIT");
  } else {
    engine_command(j, "ROLLBACK");
  }
}

/* PREPARE: the parameters and the columns the statement will return. */
static void engine_describe(engine_job *j, cat *pCat, sql_stmt *pStmt, arena *pA) {
  static const char *azPlan[] = {"QUERY PLAN"};
  coltype tText = {COLTYPE_TEXT, 0, 0, 0};
  j->out.eKind = PG_OUTCOME_PREPARED;
  if (pStmt == NULL) return;
  if (pStmt->eKind == SQL_STMT_SELECT) {
    bound_select b;
    sql_error e;
    const char *azName[ENGINE_COL_MAX];
    coltype aType[ENGINE_COL_MAX];
    int nCol;
    sql_error_clear(&e);
    if (bind_select(pCat, pStmt->pSelect, pA, &b, &e) != 0) {
      engine_error_sql(j, &e);
      bind_select_free(&b);
      return;
    }
    nCol = b.nOutput < ENGINE_COL_MAX ? b.nOutput : ENGINE_COL_MAX;
    for (int c = 0; c < nCol; c++) {
      azName[c] = b.aOutput[c].zName;
      aType[c] = b.aOutput[c].type;
    }
    if (engine_job_rows(j, nCol, azName, aType, &engine_text_ops, engine_text_new(0)) == 0) {
      engine_text_ops.xFree((void *)j->out.pRes);
      j->out.pRes = NULL;
      j->out.pOps = NULL;
      j->out.eKind = PG_OUTCOME_PREPARED;
    }
    bind_select_free(&b);
  } else if (pStmt->eKind == SQL_STMT_EXPLAIN || pStmt->eKind == SQL_STMT_SHOW ||
             pStmt->eKind == SQL_STMT_SHOW_TABLES) {
    const char *azShow[] = {pStmt->zName != NULL ? pStmt->zName : "name"};
    if (engine_job_rows(j, 1, pStmt->eKind == SQL_STMT_EXPLAIN ? azPlan : azShow, &tText,
                        &engine_text_ops, engine_text_new(0)) == 0) {
      engine_text_ops.xFree((void *)j->out.pRes);
      j->out.pRes = NULL;
      j->out.pOps = NULL;
      j->out.eKind = PG_OUTCOME_PREPARED;
    }
  }
}

/* EXECUTE of one parsed statement. */
static void engine_execute(engine_job *j, cat *pCat, sql_stmt *pStmt) {
  if (j->cTxn == 'E' && pStmt->eKind != SQL_STMT_COMMIT && pStmt->eKind != SQL_STMT_ROLLBACK) {
    engine_job_error(j, "25P02",
                     -1, "current transaction is aborted, commands ignored until end of transaction block");
    return;
  }
  switch (pStmt->eKind) {
    case SQL_STMT_SELECT: engine_select(j); break;
    case SQL_STMT_EXPLAIN: engine_explain(j, pStmt); break;
    case SQL_STMT_SET: engine_set(j, pStmt->zName, pStmt->zValue, -1); break;
    case SQL_STMT_SHOW: engine_show(j, pStmt->zName, -1); break;
    case SQL_STMT_SHOW_TABLES: engine_show_tables(j, pCat); break;
    case SQL_STMT_BEGIN:
    case SQL_STMT_COMMIT:
    case SQL_STMT_ROLLBACK: engine_transaction(j, pStmt->eKind); break;
    case SQL_STMT_CREATE_TABLE: engine_create_table(j, pCat, pStmt); break;
    case SQL_STMT_DROP_TABLE: engine_drop_table(j, pCat, pStmt); break;
    case SQL_STMT_COPY:
      if (pStmt->pCopy->bStdin) {
        engine_copy_begin(j, pCat, pStmt->pCopy);
      } else {
        engine_copy_file(j, pCat, pStmt->pCopy);
      }
      break;
    default:
      engine_job_error(j, SQLSTATE_FEATURE_NOT_SUPPORTED, pStmt->iOffset,
                       "this statement is not supported by the server yet");
      break;
  }
}

void engine_job_run(engine_job *j) {
  char zErr[512], *zDescribe = NULL;
  cat *pCat;
  arena a;
  sql_script s;
  sql_error e;
  if (atomic_load(&j->bCancel)) {
    /* Cancelled while it waited in the queue: the client has its answer. */
    engine_job_error(j, "57014", -1, "canceling statement due to user request");
    return;
  }
  if (j->eKind == PG_JOB_COPY_DATA) {
    engine_copy_data(j);
    return;
  }
  if (j->eKind == PG_JOB_COPY_FAIL) {
    engine_copy_free(j->pCopy);   /* the session reports the client's reason */
    j->pCopy = NULL;
    engine_command(j, "COPY");
    return;
  }
  if (j->eKind == PG_JOB_EXECUTE && j->cTxn != 'E' && engine_pgcatalog(j, j->zSql)) return;
  if (j->zPreError[0]) {
    engine_job_error(j, "08P01", -1, "%s", j->zPreError);
    return;
  }
  pCat = executor_cat_get(j->pCtx->ex, zErr, sizeof(zErr));
  if (pCat == NULL) {
    engine_job_error(j, SQLSTATE_IO_ERROR, -1, "%s", zErr);
    return;
  }
  if (j->eKind == PG_JOB_COPY_DONE) {
    engine_copy_done(j, pCat);
    executor_cat_put(j->pCtx->ex, pCat);
    return;
  }
  if (j->eKind == PG_JOB_PREPARE && j->nParamType > 0) {
    /* Described with every $n as NULL, which the binder types from its
    ** context; the text keeps its markers for Bind. */
    pg_param *aNull = calloc((size_t)j->nParamType, sizeof(pg_param));
    char *zBound = aNull != NULL ? engine_param_bind(j->zSql, j->nParamType, aNull, zErr, sizeof(zErr))
                                 : NULL;
    free(aNull);
    if (zBound == NULL) {
      engine_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
      executor_cat_put(j->pCtx->ex, pCat);
      return;
    }
    zDescribe = zBound;
  }
  arena_init(&a);
  sql_error_clear(&e);
  if (sql_parse(zDescribe != NULL ? zDescribe : j->zSql, &a, &s, &e) != 0) {
    engine_error_sql(j, &e);
  } else if (s.nStmt > 1) {
    engine_job_error(j, SQLSTATE_SYNTAX_ERROR, -1,
                     "cannot insert multiple commands into a prepared statement");
  } else if (j->eKind == PG_JOB_PREPARE) {
    engine_describe(j, pCat, s.nStmt ? s.apStmt[0] : NULL, &a);
    if (j->out.eKind == PG_OUTCOME_PREPARED) {
      j->out.nParamType = j->nParamType;
      j->out.aParamType = j->aParamType;
    }
  } else if (s.nStmt == 0) {
    engine_command(j, "");   /* the session answers an empty query itself */
  } else {
    engine_execute(j, pCat, s.apStmt[0]);
  }
  arena_free(&a);
  free(zDescribe);
  executor_cat_put(j->pCtx->ex, pCat);
}
