/*
** planner/dag.h — a statement's whole plan: one or more device pipelines
** joined by materialised intermediates, and an optional host tail over
** their results (DESIGN decision 8; issue 23).
**
** A pipeline is what plan.h plans and codegen turns into kernels: one
** star core (builds, one fused SCAN, final). Its result is a
** materialised intermediate. The host tail (host/host.h) is a plan of
** relational operators whose leaves HN_INPUT i read pipeline i's result:
** what the device does not run over results that are small (set
** operations, sorting and limits over them). Pipelines do not read one
** another yet; when a later pipeline reads an earlier one's result as a
** table, it is listed after it, so aPipe's order is always a valid order
** to run them in.
**
** A plain SELECT is one pipeline and no tail: the same bound_select,
** plan and program as before there was a DAG, run by the same code path.
**
** The binder and the planner of a pipeline are bind.h's and plan.h's;
** this file splits a statement into pipelines and builds the tail, in two
** steps so that the engine times binding and planning apart:
**
**   plan_dag_bind   parse tree -> pipelines bound, the tail built, the
**                   statement's output columns known (DESCRIBE stops here)
**   plan_dag_plan   each pipeline planned (plan_build)
**
** Lifetime: everything lives in the arena given to plan_dag_bind, except
** what bind_select_free and plan_free release, which plan_dag_free does
** for every pipeline.
**
** INTERFACE ROUTINES
**   plan_dag_bind, plan_dag_plan, plan_dag_free
*/
#ifndef STARQ_PLAN_DAG_H
#define STARQ_PLAN_DAG_H

#include "../host/host.h"
#include "plan.h"

/* One device pipeline: a SELECT the star core runs. */
typedef struct plan_pipe plan_pipe;
struct plan_pipe {
  bound_select b;          /* its binding (b.pSelect: its parse tree) */
  plan p;                  /* valid after plan_dag_plan */
  int bPlanned;            /* p was built (plan_free it) */
};

/* The statement's plan. */
typedef struct plan_dag plan_dag;
struct plan_dag {
  int nPipe;
  plan_pipe *aPipe;        /* in an order they may run in */
  host_plan *pTail;        /* NULL: aPipe[nPipe - 1]'s result is the answer */
  int nOut;                /* the statement's output columns */
  bind_output *aOut;       /* names and types (the tail's, or the pipeline's) */
  int nHostBound;          /* private: the bindings of SELECTs the tail runs */
  bound_select **apHostBound;  /* (over derived tables, CTEs), freed with it */
};

/* Binds pSelect against pCat into *pDag, from pArena: each SIMPLE SELECT
** of it a pipeline; set operations, and ORDER BY / LIMIT / OFFSET over
** them, the host tail. Returns 0, or -1 with *pErr: the binder's errors,
** 42601 for operands of different widths, 42804 for columns whose types
** cannot be matched, 0A000 for what is not supported yet (positioned).
** Call plan_dag_free() either way. */
int plan_dag_bind(cat *pCat, sql_select *pSelect, arena *pArena, plan_dag *pDag, sql_error *pErr);

/* Plans every pipeline of a bound DAG for the device pModel describes,
** calling xEdit (if not NULL) on each plan. Returns 0, or -1 with *pErr
** (plan_build's errors). */
int plan_dag_plan(cat *pCat, plan_dag *pDag, const planner_model *pModel, arena *pArena,
                  void (*xEdit)(plan *p, void *pArg), void *pEditArg, sql_error *pErr);

void plan_dag_free(plan_dag *pDag);

#endif /* STARQ_PLAN_DAG_H */
