/*
** tests/test-exec.h — running SQL through starq's whole engine (parse,
** bind, plan, codegen, CPU backend) and through SQLite (tests/refdb.h) on
** the same data directory, and comparing the two.
*/
#ifndef STARQ_TEST_EXEC_H
#define STARQ_TEST_EXEC_H

#include "../engine/engine.h"
#include "../runtime/exec.h"
#include "../worker/worker.h"
#include "refdb.h"

typedef struct exectest exectest;
struct exectest {
  cat *pCat;
  refdb *pRef;
  exec_backend be;
  engine *pEngine;         /* over be and ./data: how queries run */
  const exec_options *pOpt;  /* the session settings queries run with (NULL: defaults) */
  void (*xPlan)(plan *p);  /* tests: edits each plan before its code is
                           ** generated (NULL: none), for plans the
                           ** optimizer would not choose on test data */
  exec_result last;        /* the last run's figures (no columns): cache hit, columns mapped */
  const char *zLabel;      /* said first by every failure (a generated query's
                           ** seed and index), or NULL; owned by the caller */
  worker *pWorker;         /* when set, queries run on this device worker
                           ** (worker/worker.h) instead of in-process on be */
  int bGenericFirst;       /* a new shape's first run takes the generic
                           ** kernels, as a server's does (exec_options
                           ** .eGeneric ON). 0, the default: where pOpt
                           ** leaves eGeneric ON it runs OFF — the suites
                           ** check each shape's own kernels against SQLite,
                           ** which a first run on the generic kernels would
                           ** leave unrun (exec_generic_* check those) */
};

/* Generates SSB at scale zSf into ./data (unless zSf is NULL: then ./data
** must exist), opens it, loads it into SQLite, starts a CPU pool with a
** kernel cache in ./cache, the generic kernels' module in the suite's
** shared cache (exectest_generic_cache) — or, with STARQ_TEST_BACKEND=cuda
** in the environment, the CUDA backend on device 0 (the same suite on a
** GPU). */
void exectest_open(exectest *t, const char *zSf);

/* The directory every CPU backend of the suite caches the generic
** kernels' module in (cpu_options.zGenericCacheDir): beside the build's
** binaries (STARQ_BIN/../test-cache), so that it is compiled once for all
** the tests of a build, not once per test. */
const char *exectest_generic_cache(void);

/* The same on a CPU backend of compiler and caches pOpt. */
void exectest_open_cpu(exectest *t, const char *zSf, const cpu_options *pOpt);

/* The same on the CUDA backend that pOpt describes (the tests' mock
** driver, tests/mock/cuda-mock.c, in CI). */
void exectest_open_cuda(exectest *t, const char *zSf, const cuda_options *pOpt);
/* exectest_open_cuda on the mock driver with its defaults (kernel cache
** in ./cudacache). */
void exectest_open_mock(exectest *t, const char *zSf);
void exectest_close(exectest *t);

/* The 13 SSB queries against SQLite, in order (11 at least not empty). */
void exectest_ssb_all(exectest *t);

/* The 13 SSB queries and the results every later run of them must give:
** for threads that run them at once and compare. */
#define EXECTEST_SSB_N 13
typedef struct exectest_ssb_set exectest_ssb_set;
struct exectest_ssb_set {
  char *azSql[EXECTEST_SSB_N];
  char *azWant[EXECTEST_SSB_N];  /* exectest_result_dump of the checked run */
};
extern const char *const exectest_azSsb[EXECTEST_SSB_N];   /* "q1.1" ... */

/* Reads the queries and checks each against SQLite (with t->pOpt); their
** results become the wanted ones. exectest_ssb_set_free frees them. */
void exectest_ssb_set_init(exectest *t, exectest_ssb_set *p);
void exectest_ssb_set_free(exectest_ssb_set *p);

/* The edge cases of exec_edges against SQLite (SSB data open). */
void exectest_edges(exectest *t);

/* 1 when the environment's STARQ_TEST_GENERIC is "always": every query
** runs on the generic kernels (codegen/generic.c), and exectest_check
** fails one that did not, so the whole suite can check them. */
int exectest_generic_always(void);

/* Runs zSql in starq — on t->pWorker if set, else in-process through
** t->pEngine (with t->xPlan: planned and generated here, the plan
** edited) — into *pRes. Returns 0, or -1 with *pErr. exec_result_free(pRes)
** either way. */
int exectest_exec(exectest *t, const char *zSql, exec_result *pRes, sql_error *pErr);

/* Works out statement zSql of kind eKind (EXPLAIN's options mExplain)
** through engine e with options pOpt (NULL: defaults): what a test's own
** threads call. Returns 0, or -1 with *pErr. */
int exectest_request(engine *e, engine_kind eKind, int mExplain, const exec_options *pOpt,
                     const char *zSql, exec_result *pRes, sql_error *pErr);

/* Returns EXPLAIN's text (VERBOSE's with bVerbose) of the SELECT zSql
** through engine e with options pOpt (NULL: defaults) (malloc'd). Fails
** the test on any error. */
char *exectest_explain_text(engine *e, const exec_options *pOpt, const char *zSql, int bVerbose);

/* Writes r as text (malloc'd): each column's name and type, then every row,
** values as exec_result_text prints them, '|' between them, NULL as \N.
** Two results are the same to a client when their dumps are. */
char *exectest_result_dump(const exec_result *r);

/* Runs zSql in starq (exectest_exec). Returns 0 with *ppGot set (booleans
** as 1/0, as SQLite gives them), or -1 with *pErr set. */
int exectest_run(exectest *t, const char *zSql, refdb_result **ppGot, sql_error *pErr);

/* Runs zSql in both engines and fails the test if the results differ
** (bOrdered: row order too). Returns the number of rows. */
int64_t exectest_check(exectest *t, const char *zSql, int bOrdered);

/* Runs zSql in starq and fails the test unless it fails with zState. */
void exectest_error(exectest *t, const char *zSql, const char *zState);

/* The kernel source starq generates for zSql, planned with pModel (NULL:
** the defaults) and edited by t->xPlan, into s. */
void exectest_source(exectest *t, const planner_model *pModel, const char *zSql, strbuf *s);

#endif /* STARQ_TEST_EXEC_H */
