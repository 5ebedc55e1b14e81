/*
** func/funcInt.h — private to func/: the per-group tables the registry
** (func.c) gathers. Each group of functions lives in its own file with
** one table of func_defs; adding a group is a file and a line in
** func.c's list.
*/
#ifndef STARQ_FUNC_INT_H
#define STARQ_FUNC_INT_H

#include "func.h"

/* Sets *pOut to text z of type eType (TEXT, NAME), copied into the
** statement's arena. Returns 0, or -1 with 53200. */
int func__text(func_ctx *pCtx, coltype_id eType, const char *z, datum *pOut, sql_error *pErr);

typedef struct func_group func_group;
struct func_group {
  const func_def *aDef;
  int nDef;
};

/* catalog.c: session and catalog functions (version(), current_setting,
** format_type, pg_get_constraintdef, has_*_privilege ...). */
extern const func_group func__groupCatalog;
/* catalog-describe.c: pg_get_function_*(), pg_size_pretty(), sizes. */
extern const func_group func__groupDescribe;
/* regex.c: the ~ ~* !~ !~* operators' functions. */
extern const func_group func__groupRegex;

#endif /* STARQ_FUNC_INT_H */
