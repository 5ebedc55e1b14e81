/*
** engine/engineInt.h — what the engine's files share: the engine's
** struct, the slots statements run on, a prepared statement, and the
** statement cache that keeps prepared statements per slot.
**
**   engine.c     open, close, slots, engine_execute's dispatch
**   prepare.c    a statement's text to its program: parse, parameters,
**                bind, cost model, plan, codegen
**   param.c      $n parameters into the parse tree
**   stmtcache.c  prepared statements kept per slot
**   explain.c    EXPLAIN's text, and ANALYZE's figures of one run
**   tail.c       a statement's run: its one pipeline, or its pipelines
**                fed to its host tail
**   rows.c       results the engine builds itself (EXPLAIN's lines, a
**                DESCRIBE's columns)
**   now.c        now() and its kin: one value per statement
**   zone.c       timestamptz results in the session's TimeZone
*/
#ifndef STARQ_ENGINE_INT_H
#define STARQ_ENGINE_INT_H

#include <pthread.h>

#include "../catalog/catalog.h"
#include "../codegen/codegen.h"
#include "../common/arena.h"
#include "../common/tz.h"
#include "../parser/parser.h"
#include "../planner/dag.h"
#include "../planner/plan.h"
#include "engine.h"

typedef struct stmtcache stmtcache;

/* A catalog handle and the statements prepared on it: what one statement
** runs with. On the engine's free list while no statement holds it. */
typedef struct engine_slot engine_slot;
struct engine_slot {
  cat *pCat;               /* owned */
  stmtcache *pCache;       /* owned */
  engine_slot *pNext;      /* on the free list */
};

struct engine {
  char *zDataDir;          /* owned */
  exec_backend be;         /* the backend the engine opened, if it did */
  exec_backend *pB;        /* the one statements run on: &be, or the caller's */
  int bOwnBackend;         /* pB is &be: closed with the engine */
  exec_bandwidth bw;       /* measured at open (0: not measured) */
  char zCpuCache[4096];    /* the backends' cache folders point here */
  char zCudaCache[4096];
  pthread_mutex_t mu;      /* guards pFree */
  engine_slot *pFree;      /* slots no statement holds; last returned first */
};

/* A statement prepared: its parse tree, its plan (planner/dag.h: device
** pipelines and a host tail) and a program per pipeline, all its own (the
** plans hold copies of the catalog's definitions), so that it outlives
** the catalog's cache and can run again as it is. Runs read it only
** (exec_run and host_run take it const). */
struct engine_stmt {
  char *zKey;              /* what a later statement must match to reuse it:
                           ** the SELECT's text, then each parameter; in the
                           ** same allocation */
  size_t nKey;
  const char *zSql;        /* the SELECT's text: the start of zKey, which the
                           ** parse tree points into */
  int bNoResident;         /* exec_options.bNoResident it was planned with */
  int bNow;                /* it holds now() or its kin (now.c): never kept */
  uint64_t h;              /* hash of zKey and bNoResident */
  uint64_t iUsed;          /* the cache's clock when last found */
  arena a;                 /* the parse tree, binding, plans and programs */
  sql_script s;
  plan_dag d;              /* freed with the statement (zeroed: nothing) */
  cg_program *aProg;       /* d.nPipe programs, one per pipeline (in a) */
  int nProg;               /* of which built (codegen_free'd) */
  exec_front front;        /* what preparing it took */
};

/* ---- engine.c -------------------------------------------------------------- */

/* Borrows a slot (opening a catalog handle when none is free), or returns
** NULL with zErr. */
engine_slot *engine__slot_get(engine *e, char *zErr, size_t nErr);
void engine__slot_put(engine *e, engine_slot *s);

/* ---- prepare.c ------------------------------------------------------------- */

/* The statement pReq names, prepared on slot s (the catalog held): the
** one kept in s's cache for the same text, parameters and plan-changing
** options, or a new one, which is then kept (*pbKept 1) or is the
** caller's to free (*pbKept 0: the cache keeps nothing now). The SELECT's
** text is zSql + iSelect; errors' positions are moved to offsets into
** zSql. Returns the statement, or NULL with *pErr. */
engine_stmt *engine__prepare(engine *e, engine_slot *s, const engine_request *pReq, int *pbKept,
                             sql_error *pErr);

/* Parses and binds pReq's SELECT into the caller's arena (DESCRIBE: no
** plan). Returns 0 with *pD, or -1 with *pErr. plan_dag_free(pD) either
** way. */
int engine__bind(engine_slot *s, const engine_request *pReq, arena *pA, plan_dag *pD,
                 sql_error *pErr);

void engine__stmt_free(engine_stmt *p);

/* ---- param.c --------------------------------------------------------------- */

/* Puts the request's parameter values into the parse tree of pSelect in
** place of its $n markers (a marker past nParam is 42P02, positioned;
** with bNullMissing, NULL instead: DESCRIBE). Returns 0, or -1 with
** *pErr. */
int engine__params_apply(sql_select *pSelect, int nParam, const engine_param *aParam,
                         int bNullMissing, arena *pA, sql_error *pErr);

/* Appends the parameters to a statement's cache key. */
void engine__params_key(strbuf *s, int nParam, const engine_param *aParam);

/* ---- stmtcache.c ----------------------------------------------------------- */

/* A cache for one catalog handle: at most STMTCACHE_MAX statements, the
** least recently used dropped first; used by the thread that holds the
** slot (no locking). Returns 0, or -1 out of memory. */
int stmtcache_open(stmtcache **pp);
void stmtcache_close(stmtcache *c);

/* The statement kept for key zKey planned with bNoResident at pCat's
** current cache generation, or NULL. The catalog is held
** (cat_cache_hold). Valid until the next find or put on c. */
engine_stmt *stmtcache_find(stmtcache *c, cat *pCat, const char *zKey, size_t nKey,
                            int bNoResident);

/* Keeps p, prepared at pCat's current generation (the catalog still
** held). Returns 1 when c owns p now (valid until the next find or put),
** or 0 when nothing may be kept now: the caller frees it. */
int stmtcache_put(stmtcache *c, cat *pCat, engine_stmt *p);

/* The hash a statement's key and options are found by. */
uint64_t stmtcache_hash(const char *zKey, size_t nKey, int bNoResident);

/* ---- explain.c ------------------------------------------------------------- */

/* Appends EXPLAIN's text of prepared statement p on backend pB: the plan,
** the backend line, the kernels; with bVerbose the fact columns read and
** the generated source. A statement with a host tail: the tail's nodes
** (with aStats, a run's figures, when not NULL), each pipeline under the
** input that reads it. Returns 0, or -1 with *pErr (53200). */
int engine__explain_text(const engine_stmt *p, const exec_backend *pB, int bVerbose,
                         const host_node_stats *aStats, strbuf *s, sql_error *pErr);

/* Appends EXPLAIN ANALYZE's lines for the run r: rows and time by phase,
** the column bytes and where they were read from, each kernel. */
void engine__explain_analyze(const exec_result *r, strbuf *s);

/* ---- now.c ----------------------------------------------------------------- */

/* Replaces now(), current_timestamp, localtimestamp, current_date and
** their kin in pSelect by literals of this instant in pReq's TimeZone;
** *pbUsed says whether there was one. Returns 0, or -1 with *pErr. */
int engine__now_apply(sql_select *pSelect, const engine_request *pReq, arena *pA, int *pbUsed,
                      sql_error *pErr);

/* ---- zone.c ---------------------------------------------------------------- */

/* The value of session setting zName (any case) pReq carries, or NULL. */
const char *engine__setting(const engine_request *pReq, const char *zName);
/* The session's TimeZone pReq carries (UTC where it names none). */
const tz_zone *engine__zone(const engine_request *pReq);
/* Rewrites r's timestamptz columns as their text in pReq's TimeZone
** (nothing in UTC). Returns 0, or -1 with *pErr (53200). */
int engine__result_zone(exec_result *r, const engine_request *pReq, sql_error *pErr);

/* ---- rows.c ---------------------------------------------------------------- */

/* Makes text into *pRes: one TEXT column named zName, a row per line.
** Returns 0, or -1 with *pErr (53200). */
int engine__text_rows(const char *zName, const char *zText, size_t nText, exec_result *pRes,
                      sql_error *pErr);

/* Makes a statement's output columns into *pRes's columns, with no rows
** (DESCRIBE). Returns 0, or -1 with *pErr (53200). */
int engine__describe_rows(const plan_dag *d, exec_result *pRes, sql_error *pErr);

/* ---- tail.c ----------------------------------------------------------------- */

/* Runs prepared statement p on slot s into *pRes: its one pipeline's
** program as it is, or every pipeline its host tail reads, then the tail.
** aStats (p->d.pTail->nNode entries, or NULL) receives the tail's
** figures. It runs with pOpt (pReq's options, or the caller's copy);
** the tail's functions read pReq's session (current_user,
** current_setting ...). Returns 0, or -1 with *pErr (exec_run's and
** host_run's errors). */
int engine__run(engine *e, engine_slot *s, const engine_stmt *p, const engine_request *pReq,
                const exec_options *pOpt, exec_result *pRes, host_node_stats *aStats,
                sql_error *pErr);

#endif /* STARQ_ENGINE_INT_H */
