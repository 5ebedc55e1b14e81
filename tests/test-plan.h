/*
** tests/test-plan.h — helpers the planner tests share (test-plan.c): a
** data directory with SSB at SF 0.01 and a few small tables for the
** non-star shapes, and one call that parses, binds and plans a query.
*/
#ifndef STARQ_TEST_PLAN_H
#define STARQ_TEST_PLAN_H

#include "../catalog/catalog.h"
#include "../parser/parser.h"
#include "../planner/planInt.h"

/* What plantest_plan() keeps alive until plantest_done(). */
typedef struct plantest plantest;
struct plantest {
  arena a;
  bound_select b;
  plan p;
  sql_error e;
  strbuf explain;          /* the plan's EXPLAIN text, when it planned */
  int rc;                  /* plan_build's (or bind's) return code */
};

/* Generates SSB SF 0.01 into ./data and adds the extra tables:
**   t_big(k INTEGER, x INTEGER)                 60 rows, no keys
**   t_small(k INTEGER, name VARCHAR(10))        3 rows, no keys
**   t_sparse(id BIGINT PRIMARY KEY, w INTEGER)  5 rows, ids 1000 apart
**   t_fact(id INTEGER, sk BIGINT REFERENCES t_sparse, v INTEGER)  40 rows */
cat *plantest_open(void);
/* The same with the fact columns stored plain (--compress off): for the
** tests whose premise is that every fact column costs the same to read. */
cat *plantest_open_plain(void);

/* Creates a table from its CREATE TABLE statement, or fails the test. */
void plantest_sql_table(cat *pCat, const char *zSql);

/* Loads zCsv (CSV rows separated by '\n'; an unquoted empty field is
** NULL) into table zTable through a file ./<zTable>.csv, or fails. */
void plantest_load(cat *pCat, const char *zTable, const char *zCsv);

/* Parses, binds and plans zSql (one SELECT; it must parse and bind). */
void plantest_plan(cat *pCat, const char *zSql, plantest *t);
/* The same, planned with model pModel (NULL: the default). */
void plantest_plan_model(cat *pCat, const char *zSql, const planner_model *pModel, plantest *t);
void plantest_done(plantest *t);

/* The index in p->aDim of the dimension whose table is zTable, or fails. */
int plantest_dim(const plan *p, const char *zTable);

/* The text of SSB query zName ("q2.1"), owned by the caller. */
char *plantest_ssb(const char *zName);

#endif /* STARQ_TEST_PLAN_H */
