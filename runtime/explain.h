/*
** runtime/explain.h — EXPLAIN: a SELECT's plan as text, with the backend
** that would run it, and with VERBOSE the kernels codegen writes for it.
**
** This is what the EXPLAIN statement returns (one output row per line,
** PostgreSQL's "QUERY PLAN" column); the server and tools call it.
*/
#ifndef STARQ_EXPLAIN_H
#define STARQ_EXPLAIN_H

#include "exec.h"

/* Binds and plans pSelect against pCat, and appends EXPLAIN's text for
** backend pB to s: the plan tree (planner/plan.h), the backend line and,
** with bVerbose, the generated source of the query's kernels (without the
** device library, which is the same for every query). Returns 0, or -1
** with *pErr set (the errors of binding, planning and code generation). */
int exec_explain(cat *pCat, const exec_backend *pB, sql_select *pSelect, int bVerbose,
                 arena *pArena, strbuf *s, sql_error *pErr);

/* Appends EXPLAIN's text of plan p and the program g generated from it
** to s, as exec_explain() does: for a caller that built them itself, so
** that EXPLAIN shows the plan that runs (bench/query, whose plan may be
** forced: planner_model.zPredOrder). Returns 0, or -1 if s ran out of
** memory. */
int exec_explain_plan(const exec_backend *pB, const plan *p, const cg_program *g, int bVerbose,
                      strbuf *s);

#endif /* STARQ_EXPLAIN_H */
