/*
** server/engine.h — the meaning of each statement a session hands over:
** what the daemon's pg_engine does with a job, on an executor thread.
**
** A job (engine_job) is made on the loop thread from the session's pg_job
** with copies of everything the executor thread reads (the SQL text, the
** session's settings), so it can outlive the session's job: a cancelled
** or timed-out query is answered at once and its job is orphaned, left
** to finish on its thread and be freed when it reports back. The thread
** fills the job's outcome (pg_outcome plus the memory its pointers reach)
** and never touches the connection; a SET comes back as new settings,
** which the loop applies.
**
** Statements: SELECT and EXPLAIN through the executor (executor.h);
** SET / SHOW of the session's settings; BEGIN / COMMIT / ROLLBACK as
** transactions without effect (25P02 inside a failed one); SHOW TABLES;
** CREATE TABLE and DROP TABLE through the catalog; psql's \dt and \d
** catalog queries (engine-pgcatalog.c).
**
** INTERFACE ROUTINES
**   engine_settings_default   a new session's settings
**   engine_job_new            a job from a session's pg_job (loop thread)
**   engine_job_run            work it out (executor thread)
**   engine_job_cancel_outcome turn the outcome into 57014 (loop thread)
**   engine_job_free           free it and what was not handed over
*/
#ifndef STARQ_ENGINE_H
#define STARQ_ENGINE_H

#include <stdatomic.h>

#include "executor.h"
#include "metrics-starq.h"
#include "pool.h"
#include "session.h"
#include "status.h"

/* Room for SHOW starq.last_query's JSON. */
#define ENGINE_LAST_QUERY_SIZE 8192

/* A session's settings (SET / SHOW). Plain values: copied into each job. */
typedef struct engine_settings engine_settings;
struct engine_settings {
  int msStatementTimeout;  /* statement_timeout; 0: none */
  int bResident;           /* starq.resident: fact columns may live in device memory */
  int bStagePacked;        /* starq.stage_packed: packed tiles read from host
                           ** memory go through shared memory (exec_options
                           ** bNoStage off) */
  int bGenericKernels;     /* starq.generic_kernels (old name starq.jit_tier):
                           ** a new shape runs on the generic kernels,
                           ** compiled once for every query, while its own
                           ** compile in the background; off: it waits for
                           ** its own (exec_options.eGeneric) */
  int bGenericAlways;      /* starq.generic_always: every query runs on the
                           ** generic kernels (to compare them) */
  char zApplicationName[64];
  char zDateStyle[32];
  char zTimeZone[64];
  char zClientEncoding[16];
  char zSearchPath[64];
  int iExtraFloatDigits;
  char zLastQuery[ENGINE_LAST_QUERY_SIZE];  /* SHOW starq.last_query: the JSON
                           ** of the previous query (engine-stats.c); "" */
};

/* What every job needs of the daemon; lives as long as the daemon. */
typedef struct engine_ctx engine_ctx;
struct engine_ctx {
  executor *ex;
  metrics_starq *pMetrics;
  status_recent *pRecent;
  const char *zImportDir;  /* COPY FROM a server file reads below it; NULL: off */
  int bNoGeneric;          /* --generic-kernels 0: starq.generic_kernels is off by default */
  int msTestDelay;         /* tests: each SELECT sleeps this long first
                           ** (STARQD_TEST_QUERY_DELAY_MS), so cancel and
                           ** timeouts meet a running query */
  /* The /status document (malloc'd), for SHOW starq.status; called on the
  ** loop thread by engine_job_new. NULL: not available. */
  char *(*xStatusJson)(void *pArg);
  void *pStatusArg;
};

/* A COPY FROM STDIN in progress (engine-copy.c). */
typedef struct engine_copy engine_copy;

/* Room for a result's column descriptions. */
#define ENGINE_COL_MAX 1024

typedef struct engine_job engine_job;
struct engine_job {
  pool_task task;          /* first: the pool hands this back */
  void *pConn;             /* the connection waiting for it; NULL once orphaned
                           ** (loop thread only) */
  const engine_ctx *pCtx;
  /* In: copies of the session's job */
  pg_job_kind eKind;
  char cTxn;
  int bExtended;
  int nParam;
  char *zSql;              /* owned */
  engine_settings set;     /* the settings it runs with; SET changes them here */
  int nParamType;          /* PREPARE: parameter types, the client's where it */
  uint32_t *aParamType;    /* gave them, else text; owned */
  char zPreError[256];     /* an error found while making the job (a bad $n) */
  char *zStatusJson;       /* the /status document when the text names
                           ** starq.status (made on the loop thread); owned */
  char *pData;             /* COPY_DATA: a copy of the data; owned */
  size_t nData;
  engine_copy *pCopy;      /* the connection's COPY, lent for the job; owned
                           ** by the job while it is out (freed with it) */
  _Atomic int bCancel;     /* set by the loop: stop between kernels */
  /* Out */
  int bQuery;              /* a SELECT or EXPLAIN: cancel and timeouts apply */
  int bSettingsChanged;    /* set holds new settings for the session */
  double tStart;           /* Unix seconds, when it was submitted */
  pg_outcome out;          /* what pg_session_job_done() gets */
  pgwire_column *aCol;     /* out.aCol; owned, names in colNames */
  strbuf colNames;
  char zTag[64];
  char zState[6];
  char zMsg[600];
  char zDetail[256];
  const char *azParam[2];  /* a ParameterStatus the SET changed */
  char zParamName[64];
  char zParamValue[64];
};

/* Fills *p with a new session's settings, pCtx's server-wide defaults
** (NULL: none) included. */
void engine_settings_default(engine_settings *p, const engine_ctx *pCtx);

/* Makes a job from the session's pJob with settings pSet. Returns NULL if
** memory ran out. Loop thread. */
engine_job *engine_job_new(const engine_ctx *pCtx, const pg_job *pJob, const engine_settings *pSet);

/* Works the job out into its outcome. Executor thread. */
void engine_job_run(engine_job *j);

/* Replaces the outcome with 57014 (bTimeout: "statement timeout", else
** "user request"), freeing any result. Loop thread, before job_done. */
void engine_job_cancel_outcome(engine_job *j, int bTimeout);

/* Frees the job and a result the session did not take. */
void engine_job_free(engine_job *j);

/* ---- engine-result.c: result sets --------------------------------------- */

/* A result of text values built by the engine (EXPLAIN, SHOW, catalog). */
typedef struct engine_text engine_text;
engine_text *engine_text_new(int nCol);
/* Appends a row of nCol values (NULL for SQL NULL). Returns 0 or -1. */
int engine_text_row(engine_text *t, const char *const *azValue);
extern const pg_result_ops engine_text_ops;
/* The ops over an exec_result allocated with malloc (freed with it). */
extern const pg_result_ops engine_exec_ops;

/* Fills *pCol to describe a column of type t named zName (not copied). */
void engine_column_describe(coltype t, const char *zName, pgwire_column *pCol);

/* Gives the job a ROWS outcome: nCol columns of aType named azName, and
** the result (pOps, pRes) handed to the session. Returns 0, or -1 when
** memory ran out (the result is then freed). */
int engine_job_rows(engine_job *j, int nCol, const char *const *azName, const coltype *aType,
                    const pg_result_ops *pOps, void *pRes);

/* Sets an ERROR outcome. */
void engine_job_error(engine_job *j, const char *zState, int iOffset, const char *zFmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- engine-copy.c: COPY FROM STDIN ------------------------------------- */

/* EXECUTE of COPY t FROM STDIN: a COPY_IN outcome and j->pCopy. */
void engine_copy_begin(engine_job *j, cat *pCat, const sql_copy *pCopy);
/* EXECUTE of COPY t FROM 'file': the load, below the import directory. */
void engine_copy_file(engine_job *j, cat *pCat, const sql_copy *pCopy);
/* COPY_DATA, and COPY_DONE (the load: "COPY n"). */
void engine_copy_data(engine_job *j);
void engine_copy_done(engine_job *j, cat *pCat);
/* Ends a copy: closes and removes its spool file. NULL is a no-op. */
void engine_copy_free(engine_copy *c);

/* ---- engine-param.c: $n parameters --------------------------------------- */

/* Returns the highest parameter number $n in zSql, 0 if none. */
int engine_param_count(const char *zSql);
/* Returns zSql with parameter i's value in place of each $i (malloc'd),
** or NULL with zErr (a $n past nParam). */
char *engine_param_bind(const char *zSql, int nParam, const pg_param *aParam, char *zErr,
                        size_t nErr);

/* ---- engine-set.c: SET and SHOW ---------------------------------------- */

/* SET zName = zValue (NULL: DEFAULT) on j->set. */
void engine_set(engine_job *j, const char *zName, const char *zValue, int iOffset);
/* SHOW zName ("all": every setting). */
void engine_show(engine_job *j, const char *zName, int iOffset);

/* ---- engine-stats.c: the server's figures as SQL answers ----------------- */

/* Records the outcome of SELECT or EXPLAIN ANALYZE j (r: its result, or
** NULL when it failed; secs: its execution) as the session's last query. */
void engine_last_query_set(engine_job *j, const exec_result *r, double secs);
/* SHOW starq.last_query / starq.status: answers it and returns 1, or
** returns 0 when zName is neither. */
int engine_show_starq(engine_job *j, const char *zName);

/* ---- engine-pgcatalog.c: psql's catalog queries ------------------------ */

/* Answers zSql if it is one of the catalog queries psql 15's \dt and \d
** send; returns 1 when it did (the outcome set), 0 otherwise. */
int engine_pgcatalog(engine_job *j, const char *zSql);

#endif /* STARQ_ENGINE_H */
