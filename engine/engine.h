/*
** engine/engine.h — the query engine: the one place that drives the layers
** below it. A statement's text goes through parse, bind, plan and codegen
** once (engine prepares it, and keeps it for the next time the same text
** comes back), and the program that comes out is run on the backend or
** explained — with the options the statement runs with, so that EXPLAIN
** shows the plan that runs.
**
**   parser/   text -> parse tree
**   planner/  parse tree -> bound statement -> plan (a DAG of pipelines)
**   codegen/  plan -> program (kernels' source, fields, what the runtime
**             needs to run it)
**   runtime/  program -> result, on the CPU or a GPU
**
** Every caller that runs SQL comes through here: the device worker
** (worker/serve.c), the server's in-process executor (server/executor.c),
** the benchmarks and the tests. None of them calls the planner and code
** generation in sequence itself.
**
** A statement arrives as the server classified it (engine_request): its
** kind, where its SELECT begins, its EXPLAIN options and its parameters'
** values — structure, never SQL text rebuilt around it. The engine parses
** the SELECT's text once; $n markers are parameters whose values the
** request carries (engine/param.c puts them into the parse tree).
**
** Catalog handles: a cat is one thread's at a time, so each statement
** borrows a slot — a handle and the statements prepared on it
** (engine/stmtcache.c) — from a free list, the last one returned first so
** that a lone client keeps one warm; the list grows to the number of
** statements ever run at once.
**
** Lifetimes: an engine owns its slots and, unless the caller lent one
** (engine_config.pBackend), its backend. Results belong to the caller
** (exec_result_free). engine_execute may run on any number of threads at
** once; engine_open and engine_close on one, with nothing running.
**
** INTERFACE ROUTINES
**   engine_config_init   defaults
**   engine_open          catalog, backend, preload, bandwidth floors
**   engine_close
**   engine_warm          fill the device-resident cache in the background
**   engine_execute       one classified statement: rows, EXPLAIN's text,
**                        or (DESCRIBE) the columns it would return
**   engine_prepare       a statement's plan and program, not run (tools)
**   engine_backend       the backend, for status reports
**   engine_bandwidth     the floors measured at open
**   engine_model         the cost model a statement would be planned with
*/
#ifndef STARQ_ENGINE_H
#define STARQ_ENGINE_H

#include <stdint.h>

#include "../codegen/codegen.h"
#include "../common/sqlerr.h"
#include "../planner/model.h"
#include "../planner/plan.h"
#include "../runtime/exec.h"

typedef struct engine engine;

/* How the engine opens. Make one with engine_config_init(): a zeroed
** struct would pin nothing (budgets of 0 bytes). Strings are the caller's
** and must outlive engine_open() only. */
typedef struct engine_config engine_config;
struct engine_config {
  const char *zDataDir;    /* the data directory (required) */
  const char *zBackend;    /* "cpu", "cuda", or "auto" (NULL): the GPU when
                           ** it opens, else the CPU (the reason logged) */
  exec_backend *pBackend;  /* or a backend the caller made and keeps: then
                           ** zBackend, nCpuThread, zCacheDir and the budgets
                           ** are not used, and engine_close leaves it open */
  colmem_options mem;      /* pinned and device budgets (negative: defaults) */
  stride_options stride;   /* stride buffers (negative: defaults) */
  int bPreload;            /* pin the catalog's columns at open */
  int nCpuThread;          /* CPU backend threads (0: one per CPU) */
  const char *zCacheDir;   /* the kernel caches' root, DIR/cpu and DIR/cuda;
                           ** NULL: $XDG_CACHE_HOME/starq or ~/.cache/starq */
  int64_t nBandwidthProbe; /* bytes read at open to measure the floors
                           ** (exec_backend_bandwidth); 0: not measured */
};

/* Starts filling the device-resident cache in the background
** (colmem_warm_start): xDone(pArg) when it is done. Nothing on the CPU
** backend. Returns 0, or -1 with zErr. */
int engine_warm(engine *e, colmem_warm_fn xDone, void *pArg, char *zErr, size_t nErr);

/* Sets *p to the defaults: auto backend, default budgets, no preload, no
** bandwidth probe. */
void engine_config_init(engine_config *p);

/* Opens the catalog of p->zDataDir and the backend, configures its
** budgets, pins the columns (bPreload) and measures the bandwidth floors
** (nBandwidthProbe). Returns 0 with *pp, or -1 with zErr saying why: the
** catalog's error, or the CUDA backend's (e.g. "no CUDA driver: ...")
** when zBackend is "cuda" and it does not open. */
int engine_open(engine **pp, const engine_config *p, char *zErr, size_t nErr);
void engine_close(engine *e);

/* What a statement is, as the server classified it. */
typedef enum engine_kind {
  ENGINE_SELECT = 1,       /* run it: its rows */
  ENGINE_EXPLAIN,          /* its plan as rows of one TEXT column, "QUERY
                           ** PLAN"; with ENGINE_EXPLAIN_ANALYZE it runs
                           ** too, once, and its figures follow the plan */
  ENGINE_DESCRIBE          /* bind it: the columns it would return, no rows
                           ** (a prepared statement's RowDescription);
                           ** parameters without a value are NULL */
} engine_kind;

/* EXPLAIN's options (engine_request.mExplain). */
#define ENGINE_EXPLAIN_ANALYZE 0x1
#define ENGINE_EXPLAIN_VERBOSE 0x2

/* A parameter's value ($n is aParam[n - 1]), in PostgreSQL's text form.
** A number the client typed as a number goes in as that number; any other
** value as an untyped string literal, typed by its context as PostgreSQL
** types an unknown literal; z NULL is SQL NULL. */
typedef struct engine_param engine_param;
struct engine_param {
  const char *z;           /* NUL-terminated text, or NULL for NULL */
  uint32_t iType;          /* the client's type OID for it, 0 if unknown */
};

/* One statement to work out. Everything it points at is the caller's
** and must stay valid for the call. */
typedef struct engine_request engine_request;
struct engine_request {
  engine_kind eKind;
  const char *zSql;        /* the statement's text; errors' positions are
                           ** byte offsets into it */
  int iSelect;             /* where its SELECT begins in zSql (after
                           ** "EXPLAIN ANALYZE ..."), or its COPY ... TO
                           ** (whose rows are its query's, or its table's)
                           ** or DECLARE ... CURSOR (its query's); 0 for a
                           ** SELECT */
  int mExplain;            /* ENGINE_EXPLAIN_* */
  int nParam;
  const engine_param *aParam;
  exec_options opt;        /* the session's settings, pbCancel included */
  /* Who asks (current_user, current_database(), pg_backend_pid()) and the
  ** session's settings as current_setting() reads them: pSettings holds
  ** nSettings bytes of "name NUL value NUL" pairs. NULL and 0 where there
  ** is no session (tools): those functions then say so. */
  const char *zUser;
  const char *zDatabase;
  int iBackendPid;
  const char *pSettings;
  size_t nSettings;
  /* Tools only (benchmarks and tests that measure plans the optimizer
  ** would not choose); the server sets neither. A statement prepared with
  ** either is not kept. */
  const planner_model *pModel;  /* plan with this cost model (NULL: the
                           ** backend's, engine_model) */
  void (*xPlanEdit)(plan *p, void *pArg);  /* called with the plan before
                           ** codegen, with pPlanEditArg (NULL: none) */
  void *pPlanEditArg;
};

/* Works out one statement into *pRes: a SELECT's rows; EXPLAIN's text as
** rows (with ANALYZE, the figures of its one run: times, bytes, kernels);
** DESCRIBE's columns, with no rows. A SELECT with a sink (opt.pSink)
** streams: its rows go to the sink batch by batch as they are made,
** but for the last batch, which comes in *pRes (so a result of one batch
** costs the sink nothing: it is never called); pRes->nRowStreamed counts
** the rows the sink had. A SELECT whose text, parameters and
** plan-changing options were prepared before on the slot it runs on, at
** the catalog's current generation, runs as it was prepared
** (pRes->front.bCached); else it is prepared and kept. Returns 0, or -1
** with *pErr: the statement's own error (SQLSTATE, message, byte offset
** into zSql), 57014 when pReq->opt.pbCancel was set. exec_result_free(pRes)
** either way. */
int engine_execute(engine *e, const engine_request *pReq, exec_result *pRes, sql_error *pErr);

/* A statement prepared and not run: what the layers make of pReq's
** SELECT, for tools that look at it (bench/query --dump writes its
** program's source). Returns 0 with *pp (engine_stmt_free), or -1 with
** *pErr. */
typedef struct engine_stmt engine_stmt;
int engine_prepare(engine *e, const engine_request *pReq, engine_stmt **pp, sql_error *pErr);
const plan *engine_stmt_plan(const engine_stmt *p);
const cg_program *engine_stmt_program(const engine_stmt *p);
void engine_stmt_free(engine_stmt *p);

/* The backend the engine runs on (its column cache, device, kernels'
** caches), for status reports: read it, don't close it. */
exec_backend *engine_backend(engine *e);

/* The bandwidth floors measured at open (zeros: not measured). */
exec_bandwidth engine_bandwidth(const engine *e);

/* Fills *pModel with the cost model a statement run with options pOpt
** (NULL: defaults) is planned with on this engine's backend: the device's
** constants, the fact scan read from device memory when the resident
** cache may hold the columns, else from pinned host memory over zero-copy.
** Returns 0, or -1 with zErr. */
int engine_model(engine *e, const exec_options *pOpt, planner_model *pModel, char *zErr,
                 size_t nErr);

#endif /* STARQ_ENGINE_H */
