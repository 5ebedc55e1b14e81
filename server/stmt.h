/*
** server/stmt.h — the meaning of each statement a session hands over:
** what the daemon's pg_engine does with a job, on an executor thread.
**
** A job (stmt_job) is made on the loop thread from the session's pg_job
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
** catalog queries (stmt-pgcatalog.c).
**
** INTERFACE ROUTINES
**   stmt_settings_default   a new session's settings
**   stmt_job_new            a job from a session's pg_job (loop thread)
**   stmt_job_run            work it out (executor thread)
**   stmt_job_cancel_outcome turn the outcome into 57014 (loop thread)
**   stmt_job_free           free it and what was not handed over
*/
#ifndef STARQ_STMT_H
#define STARQ_STMT_H

#include <stdatomic.h>

#include "../engine/engine.h"
#include "executor.h"
#include "metrics-starq.h"
#include "pool.h"
#include "session.h"
#include "status.h"

/* Room for SHOW starq.last_query's JSON. */
#define STMT_LAST_QUERY_SIZE 8192

/* A session's settings (SET / SHOW). Plain values: copied into each job. */
typedef struct stmt_settings stmt_settings;
struct stmt_settings {
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
  int bSharedScans;        /* starq.shared_scans: a streamed scan shares its
                           ** strides with statements scanning the same
                           ** table at once (exec_options.bNoShare off) */
  int bGenericAlways;      /* starq.generic_always: every query runs on the
                           ** generic kernels (to compare them) */
  int64_t nResultMemory;   /* starq.result_memory_limit: the most bytes a
                           ** result held whole may take (a sorted or
                           ** aggregated one: exec_options.nResultLimit);
                           ** 0: no limit */
  char zApplicationName[64];
  char zResetApplicationName[64];  /* what RESET and DEFAULT give it: the
                           ** startup packet's application_name, or "" */
  char zDateStyle[32];
  char zTimeZone[64];
  char zClientEncoding[16];
  char zSearchPath[64];
  int iExtraFloatDigits;
  char zUser[64];           /* the session's user and database (the
                           ** startup packet's), "" before it has one; */
  char zDatabase[64];      /* not settings: SET does not reach them */
  int32_t iPid;            /* its BackendKeyData pid: pg_backend_pid() */
  char zLastQuery[STMT_LAST_QUERY_SIZE];  /* SHOW starq.last_query: the JSON
                           ** of the previous query (stmt-stats.c); "" */
};

/* What every job needs of the daemon; lives as long as the daemon. */
typedef struct stmt_ctx stmt_ctx;
struct stmt_ctx {
  executor *ex;
  metrics_starq *pMetrics;
  status_recent *pRecent;
  const char *zImportDir;  /* COPY FROM a server file reads below it; NULL: off */
  int bNoGeneric;          /* --generic-kernels 0: starq.generic_kernels is off by default */
  int bStatusLiterals;     /* --status-sql-literals: /status shows literals */
  /* The /status document (malloc'd), for SHOW starq.status; called on the
  ** loop thread by stmt_job_finish. NULL: not available. */
  char *(*xStatusJson)(void *pArg);
  void *pStatusArg;
};

/* A SELECT's rows streamed to the loop (stmt-stream.c), and the
** connection's wake-up they come with. */
typedef struct stmt_stream stmt_stream;
typedef struct stmt_wake stmt_wake;
/* A connection's cursors (stmt-cursor.c). */
typedef struct stmt_cursors stmt_cursors;

/* A COPY FROM STDIN in progress (stmt-copy.c). */
typedef struct stmt_copy stmt_copy;

/* The most settings one statement reports (RESET ALL: every reported one). */
#define STMT_REPORT_MAX 8

/* Room for a result's column descriptions. */
#define STMT_COL_MAX 1024

typedef struct stmt_job stmt_job;
struct stmt_job {
  pool_task task;          /* first: the pool hands this back */
  void *pConn;             /* the connection waiting for it; NULL once orphaned
                           ** (loop thread only) */
  const stmt_ctx *pCtx;
  /* In: copies of the session's job */
  pg_job_kind eKind;
  char cTxn;
  int bExtended;
  char *zSql;              /* the statement's text, $n markers and all; owned */
  int nParam;              /* EXECUTE: the parameters' values; owned, each */
  engine_param *aParam;    /* value too (NULL: SQL NULL) */
  stmt_settings set;     /* the settings it runs with; SET changes them here */
  int nParamType;          /* PREPARE: parameter types, the client's where it */
  uint32_t *aParamType;    /* gave them, else text; owned */
  char *pData;             /* COPY_DATA: a copy of the data; owned */
  size_t nData;
  stmt_copy *pCopy;      /* the connection's COPY, lent for the job; owned
                           ** by the job while it is out (freed with it) */
  _Atomic int bCancel;     /* set by the loop: stop between kernels */
  stmt_stream *pStream;    /* a reference, or NULL: a SELECT's rows go
                           ** through it once they pass one batch; its
                           ** ROWS outcome is then out before the run ends
                           ** (stmt_stream_started) */
  int bDelivered;          /* loop thread: that outcome went to the session */
  exec_sink sink;          /* the run's sink into pStream */
  stmt_cursors *pCursors;  /* the connection's cursors (a reference), or NULL */
  const sql_copy *pCopyTo; /* COPY ... TO STDOUT: its rows go out in its
                           ** format (stmt-copyout.c); the parse tree's,
                           ** during stmt_job_run only */
  _Atomic int eAbandon;    /* set by the loop before bCancel when the
                           ** session stopped waiting: the query_outcome
                           ** it counts as (cancelled, timeout,
                           ** disconnected); 0 (QUERY_OK): waited for */
  /* Out */
  int bQuery;              /* a SELECT or EXPLAIN: cancel and timeouts apply */
  char *pSettingPairs;     /* the statement's settings for current_setting()
                           ** (stmt_setting_pairs); owned */
  size_t nSettingPairs;
  int bSettingsChanged;    /* set holds new settings for the session */
  int bWantStatus;         /* SHOW starq.status: the outcome is made on the
                           ** loop thread, which owns the status
                           ** (stmt_job_finish) */
  double tStart;           /* Unix seconds, when it was submitted */
  pg_outcome out;          /* what pg_session_job_done() gets */
  pgwire_column *aCol;     /* out.aCol; owned, names in colNames */
  strbuf colNames;
  char zTag[64];
  char zState[6];
  char zMsg[600];
  char zDetail[256];
  char zRelease[64];       /* out.zRelease: DEALLOCATE's statement name */
  /* The ParameterStatus messages a SET, RESET or DISCARD ALL sends:
  ** nReport of them, names and values in azParam (pairs), texts here. */
  int nReport;
  const char *azParam[2 * STMT_REPORT_MAX];
  char azParamName[STMT_REPORT_MAX][64];
  char azParamValue[STMT_REPORT_MAX][64];
};

/* Fills *p with a new session's settings, pCtx's server-wide defaults
** (NULL: none) included. */
void stmt_settings_default(stmt_settings *p, const stmt_ctx *pCtx);

/* Makes a job from the session's pJob with settings pSet. Returns NULL if
** memory ran out. Loop thread. */
stmt_job *stmt_job_new(const stmt_ctx *pCtx, const pg_job *pJob, const stmt_settings *pSet);

/* Returns zSql with each literal (string or number) replaced by a
** parameter marker numbered after the $n it has, as pg_stat_statements
** shows statements: for /status, which needs no login (malloc'd; NULL out
** of memory). stmt-stats.c. */
char *stmt_sql_elided(const char *zSql);

/* Works the job out into its outcome. Executor thread. */
void stmt_job_run(stmt_job *j);

/* Replaces the outcome with 57014 (bTimeout: "statement timeout", else
** "user request"), freeing any result. Loop thread, before job_done. */
void stmt_job_cancel_outcome(stmt_job *j, int bTimeout);

/* Frees the job and a result the session did not take. */
void stmt_job_free(stmt_job *j);

/* ---- stmt-result.c: result sets --------------------------------------- */

/* A result of text values built by the engine (EXPLAIN, SHOW, catalog). */
typedef struct stmt_text stmt_text;
stmt_text *stmt_text_new(int nCol);
/* Appends a row of nCol values (NULL for SQL NULL). Returns 0 or -1. */
int stmt_text_row(stmt_text *t, const char *const *azValue);
extern const pg_result_ops stmt_text_ops;
/* The ops over an exec_result allocated with malloc (freed with it). */
extern const pg_result_ops stmt_exec_ops;

/* Fills *pCol to describe a column of type t named zName (not copied). */
void stmt_column_describe(coltype t, const char *zName, pgwire_column *pCol);

/* Gives the job a ROWS outcome: nCol columns of aType named azName, and
** the result (pOps, pRes) handed to the session. Returns 0, or -1 when
** memory ran out (the result is then freed). */
int stmt_job_rows(stmt_job *j, int nCol, const char *const *azName, const coltype *aType,
                    const pg_result_ops *pOps, void *pRes);

/* Gives the job a ROWS outcome over pOps/pRes (taken over) with r's
** columns. Returns 0, or -1 (the rows freed, the outcome 53200). */
int stmt_result_rows(stmt_job *j, const exec_result *r, const pg_result_ops *pOps, void *pRes);

/* Runs pStmt's query (DECLARE's: the engine takes it from the statement)
** whole into *r. Returns
** 0, or -1 with *pErr. Executor thread. */
int stmt_select_run(stmt_job *j, const sql_stmt *pStmt, exec_result *r, sql_error *pErr);

/* A COMMAND outcome with tag zTag; an ERROR outcome from *e. */
void stmt_job_command(stmt_job *j, const char *zTag);
void stmt_job_error_sql(stmt_job *j, const sql_error *e);

/* Sets an ERROR outcome. */
void stmt_job_error(stmt_job *j, const char *zState, int iOffset, const char *zFmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- stmt-stream.c: streamed rows ------------------------------------- */

/* The connection's wake-up: pAsync is sent when a stream has news. The
** connection detaches it before closing the handle; threads holding a
** reference then wake no one. */
stmt_wake *stmt_wake_new(uv_async_t *pAsync);
void stmt_wake_detach(stmt_wake *w);
void stmt_wake_unref(stmt_wake *w);

/* A stream with one reference, waking pWake (may be NULL). NULL: out of
** memory. */
stmt_stream *stmt_stream_new(stmt_wake *pWake);
stmt_stream *stmt_stream_ref(stmt_stream *p);
void stmt_stream_unref(stmt_stream *p);
/* Queues pBatch (taken over), waiting while the queue is full. Returns
** 0, or -1 with *pErr once the consumer stopped (57014) or out of memory.
** Executor thread. */
int stmt_stream_push(stmt_stream *p, exec_result *pBatch, sql_error *pErr);
/* No more batches: the run succeeded (pErr NULL) or failed. */
void stmt_stream_end(stmt_stream *p, const sql_error *pErr);
/* The consumer stops the run: pushes fail with 57014 zMsg, and the rows
** end with that error. */
void stmt_stream_cancel(stmt_stream *p, const char *zMsg);
/* 1 once a batch was pushed: the job's ROWS outcome is ready. */
int stmt_stream_started(stmt_stream *p);
/* The rows, for the session (pRes: a reference to the stream). */
extern const pg_result_ops stmt_stream_ops;

/* ---- stmt-cursor.c: DECLARE, FETCH, MOVE, CLOSE ------------------------ */

stmt_cursors *stmt_cursors_new(void);
stmt_cursors *stmt_cursors_ref(stmt_cursors *p);
void stmt_cursors_unref(stmt_cursors *p);
/* The transaction block ends: COMMIT (bCommit) keeps WITH HOLD cursors,
** ROLLBACK keeps those declared before the block. NULL is a no-op. */
void stmt_cursors_txn_end(stmt_cursors *p, int bCommit);
void stmt_declare(stmt_job *j, const sql_stmt *pStmt);
void stmt_fetch(stmt_job *j, const sql_stmt *pStmt);   /* and MOVE */
void stmt_close(stmt_job *j, const sql_stmt *pStmt);
/* A ROWS outcome with the columns of cursor zName (what FETCH returns)
** and no rows. Returns 0, or -1 with the job's error (34000: no such
** cursor, or bPortal: portal, as a protocol Describe names it). */
int stmt_cursor_describe(stmt_job *j, const char *zName, int bPortal);

/* ---- stmt-copyout.c: COPY TO STDOUT ------------------------------------ */

/* Checks COPY ... TO's options as PostgreSQL does. Returns 0, or -1 with
** *pErr. */
int stmt_copyout_check(const sql_copy *pCopy, sql_error *pErr);

/* Gives the job a COPY_OUT outcome: the rows (pOps, pRes, taken over) of
** nCol columns named azName of types aType, written as pCopy says.
** Returns 0, or -1 with *pErr (the rows freed). */
int stmt_copyout_rows(stmt_job *j, const sql_copy *pCopy, int nCol, const char *const *azName,
                      const coltype *aType, const pg_result_ops *pOps, void *pRes,
                      sql_error *pErr);

/* ---- stmt-copybin.c: COPY FROM STDIN's binary format ----------------- */

typedef struct copybin copybin;
/* A reader of rows of nField fields of types aType (copied). NULL: out
** of memory. */
copybin *copybin_new(int nField, const uint32_t *aType);
void copybin_free(copybin *b);
/* Takes n bytes of the data and appends the CSV line of each row they
** complete to out. Returns 0, or -1 with zState (6 bytes) and zErr. */
int copybin_feed(copybin *b, const void *p, size_t n, strbuf *out, char *zState, char *zErr,
                 size_t nErr);
/* The data ended: returns 0 if it was whole, or -1 with zErr (22P04). */
int copybin_end(copybin *b, char *zErr, size_t nErr);

/* ---- stmt-copy.c: COPY FROM STDIN ------------------------------------- */

/* EXECUTE of COPY t FROM STDIN: a COPY_IN outcome and j->pCopy. */
void stmt_copy_begin(stmt_job *j, cat *pCat, const sql_copy *pCopy);
/* EXECUTE of COPY t FROM 'file': the load, below the import directory. */
void stmt_copy_file(stmt_job *j, cat *pCat, const sql_copy *pCopy);
/* COPY_DATA, and COPY_DONE (the load: "COPY n"). */
void stmt_copy_data(stmt_job *j);
void stmt_copy_done(stmt_job *j, cat *pCat);
/* Ends a copy: closes and removes its spool file. NULL is a no-op. */
void stmt_copy_free(stmt_copy *c);

/* The name of a COPY's spool file in the data directory begins so. */
#define STMT_COPY_SPOOL_PREFIX ".copy-"

/* Removes the spool files in zDataDir that no COPY holds (those of a
** server that was killed). Returns how many. At start. */
int stmt_copy_sweep(const char *zDataDir);

/* ---- stmt-param.c: $n parameters --------------------------------------- */

/* Returns the highest parameter number $n in zSql, 0 if none. */
int stmt_param_count(const char *zSql);

/* ---- stmt-set.c: SET and SHOW ---------------------------------------- */

/* SET zName = zValue (NULL: DEFAULT) on j->set. */
void stmt_set(stmt_job *j, const char *zName, const char *zValue, int iOffset);
/* SHOW zName ("all": every setting). */
void stmt_show(stmt_job *j, const char *zName, int iOffset);
/* Every setting SHOW knows with its value in *p, as "name NUL value NUL"
** pairs in a new buffer of *pn bytes; NULL out of memory. */
char *stmt_setting_pairs(const stmt_settings *p, size_t *pn);
/* RESET zName ("all": every setting), tagged zTag (RESET; DISCARD ALL
** resets too). */
void stmt_reset(stmt_job *j, const char *zName, const char *zTag, int iOffset);

/* ---- stmt-session.c: the session's own commands ------------------------- */

/* SET TRANSACTION, SET SESSION CHARACTERISTICS AS TRANSACTION, DEALLOCATE
** and DISCARD: pStmt is of one of those kinds. */
void stmt_session_command(stmt_job *j, const sql_stmt *pStmt);

/* ---- stmt-stats.c: the server's figures as SQL answers ----------------- */

/* Records the outcome of SELECT or EXPLAIN ANALYZE j (r: its result, or
** NULL when it failed; secs: its execution) as the session's last query. */
void stmt_last_query_set(stmt_job *j, const exec_result *r, double secs);
/* SHOW starq.last_query / starq.status: answers it (the status: marks
** the job for stmt_job_finish) and returns 1, or returns 0 when zName is
** neither. */
int stmt_show_starq(stmt_job *j, const char *zName);
/* What of a job's outcome the loop thread makes, as the job comes back:
** SHOW starq.status's document. Loop thread. */
void stmt_job_finish(stmt_job *j);

/* ---- stmt-pgcatalog.c: psql's catalog queries ------------------------ */

/* Answers zSql if it is one of the catalog queries psql 15's \dt and \d
** send; returns 1 when it did (the outcome set), 0 otherwise. */
int stmt_pgcatalog(stmt_job *j, const char *zSql);

#endif /* STARQ_STMT_H */
