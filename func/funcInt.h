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

/* reg.c: names as regclass input reads them. func__name_split splits
** z[0..n), [[catalog.]schema.]name, each part folded to lower case unless
** double-quoted, into azPart; returns the number of parts (more than
** FUNC_NAME_PARTS_MAX: FUNC_NAME_PARTS_MAX + 1), or -1 for an empty part
** or an unclosed quote. func__relation_parse reads a relation name into
** zSchema ("": none) and zName (FUNC_NAME_MAX bytes each): 42602 for
** what is no name, 42601 for too many dotted names, 0A000 for another
** database's. func__relation_oid finds relation zSchema.zName (zSchema
** "": through the search path, pg_catalog then public): *pOid 0 when
** there is none. Each returns 0 (or the count), or -1 with *pErr. */
#define FUNC_NAME_PARTS_MAX 4
#define FUNC_NAME_MAX 128
int func__name_split(const char *z, size_t n, char (*azPart)[FUNC_NAME_MAX]);
int func__relation_parse(func_ctx *pCtx, const char *z, size_t n, char *zSchema, char *zName,
                         sql_error *pErr);
int func__relation_oid(func_ctx *pCtx, const char *zSchema, const char *zName, uint32_t *pOid,
                       sql_error *pErr);

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
/* array.c: array_to_string(), array_upper(), array_lower(), cardinality(). */
extern const func_group func__groupArray;
/* string.c: replace() over text and name. */
extern const func_group func__groupString;

#endif /* STARQ_FUNC_INT_H */
