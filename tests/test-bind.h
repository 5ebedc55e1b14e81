/*
** tests/test-bind.h — helpers the binder tests share (defined in
** test-bind.c).
*/
#ifndef STARQ_TEST_BIND_H
#define STARQ_TEST_BIND_H

#include "../catalog/catalog.h"
#include "../parser/parser.h"
#include "../planner/bind.h"

/* A catalog in ./data with the SSB tables and the extra test tables. */
cat *bindtest_cat_open(void);
/* Parses one statement; fails the test if it does not parse. */
sql_stmt *bindtest_parse(const char *zSql, arena *pArena);
/* Parses and binds one SELECT; returns bind_select's result. */
int bindtest_select(cat *pCat, const char *zSql, arena *pArena, bound_select *pOut,
                    sql_error *pErr);
/* The SQL spelling of a type, in a static buffer. */
const char *bindtest_type(coltype t);
/* Binds zSql, failing the test with the error if it does not bind. */
void bindtest_ok(cat *pCat, const char *zSql, arena *pArena, bound_select *pOut);
/* Fails unless SELECT zExpr FROM zFrom binds with output type zWant. */
void bindtest_expr_type(cat *pCat, const char *zExpr, const char *zFrom, const char *zWant);

/* Fills a[0..n) with the conjuncts of e in the order written (an AND
** chain is a balanced tree: parser/ast-expr.c) and returns n; fails the
** test past nMax. */
int bindtest_conjuncts(const sql_expr *e, const sql_expr **a, int nMax);

#endif /* STARQ_TEST_BIND_H */
