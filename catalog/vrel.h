/*
** catalog/vrel.h — virtual relations: pg_catalog's and
** information_schema's tables, computed from starq's catalog when a
** statement reads them. The binder finds them by name like any table
** (schema-qualified or through the search path: pg_catalog first, then
** public, as PostgreSQL); the planner gives them to the host executor —
** their queries never reach a kernel.
**
** Rows are produced whole at scan time, from the catalog as the
** statement's cat_cache_hold() saw it, so one statement sees one
** consistent catalog. They are small (a row per table, column, type,
** function, setting): no statistics beyond a row estimate.
**
** INTERFACE ROUTINES
**   vrel_find    a relation by schema and name
**   vrel_each    every relation (pg_class lists them too)
*/
#ifndef STARQ_VREL_H
#define STARQ_VREL_H

#include <stdint.h>

#include "../common/coltype.h"
#include "../common/datum.h"
#include "../common/sqlerr.h"

typedef struct cat cat;
typedef struct func_ctx func_ctx;

typedef struct vrel_col vrel_col;
struct vrel_col {
  const char *zName;
  coltype type;
  int bNotNull;            /* pg_attribute.attnotnull, as PostgreSQL 15 has it */
};

/* Receives one row: aVal[0..nCol) (payloads need only live until it
** returns: copy what you keep). Returns 0 to go on, nonzero to stop
** the scan (the scan then returns that value). */
typedef int (*vrel_row_fn)(void *pArg, const datum *aVal);

typedef struct vrel vrel;
struct vrel {
  const char *zSchema;     /* "pg_catalog" or "information_schema" */
  const char *zName;
  uint32_t oid;            /* its pg_class oid (PostgreSQL's where fixed) */
  char cRelKind;           /* its pg_class.relkind: 'r' a catalog table, 'v'
                           ** a view (pg_roles, information_schema's) */
  int nCol;
  const vrel_col *aCol;
  double nRowEstimate;
  /* Produces every row. pCtx supplies the catalog, the session (user,
  ** database, settings) and an arena. Returns 0, the nonzero value xRow
  ** stopped with, or -1 with *pErr set. */
  int (*xScan)(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr);
};

/* The relation zSchema.zName (zSchema NULL: pg_catalog, the search
** path's first schema), or NULL. Names are compared exactly: the binder
** has folded unquoted identifiers to lower case. */
const vrel *vrel_find(const char *zSchema, const char *zName);

int vrel_each(int (*x)(void *pArg, const vrel *p), void *pArg);

#endif /* STARQ_VREL_H */
