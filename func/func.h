/*
** func/func.h — SQL functions: the one registry the binder resolves calls
** against, the host executor calls, pg_proc lists and codegen maps to
** device code. A function is written once here, over datums, with
** PostgreSQL 15's semantics; where the kernels have it too, the device
** version must agree with this one (tests compare them).
**
** Layering: func/ sits above catalog/ (catalog functions such as
** pg_get_constraintdef read it through func_ctx) and below planner/ and
** runtime/, which both include this header.
**
** A name maps to one or more overloads (func_def), each with fixed
** argument types, or variadic. Overload resolution (PostgreSQL's rules:
** exact match, then implicit casts, preferring the type category's
** preferred type) is the binder's; this registry only lists candidates.
**
** INTERFACE ROUTINES
**   func_candidates   every overload of a name
**   func_by_oid       one overload by its pg_proc oid
**   func_each         every function, for pg_proc
*/
#ifndef STARQ_FUNC_H
#define STARQ_FUNC_H

#include <stdint.h>

#include "../common/arena.h"
#include "../common/datum.h"
#include "../common/sqlerr.h"
#include "../common/strbuf.h"

typedef struct cat cat;
typedef struct tz_zone tz_zone;
typedef struct vrel vrel;

/* What a call may read besides its arguments: one per statement, so
** now() and current_timestamp are one value per statement. */
typedef struct func_ctx func_ctx;
struct func_ctx {
  arena *pArena;           /* results' variable-length payloads */
  const tz_zone *pZone;    /* the session's TimeZone */
  int64_t iNow;            /* the statement's start, microseconds since
                           ** 2000-01-01 UTC (now(), current_timestamp) */
  cat *pCat;               /* catalog functions; NULL where none is open */
  const char *zUser;       /* current_user, session_user */
  const char *zDatabase;   /* current_database() */
  int iBackendPid;         /* pg_backend_pid() */
  /* current_setting(name): the session's value or NULL if unknown. */
  const char *(*xSetting)(void *pArg, const char *zName);
  void *pSettingArg;
  /* pg_catalog's and information_schema's relations (catalog/vrel.h:
  ** vrel_find, vrel_each, which live above this layer), for the catalog
  ** functions that take a relation's oid or name; NULL: none known. */
  const vrel *(*xVrelFind)(const char *zSchema, const char *zName);
  int (*xVrelEach)(int (*x)(void *pArg, const vrel *p), void *pArg);
};

typedef enum func_kind {
  FUNC_SCALAR = 1,
  FUNC_AGGREGATE = 2,
  FUNC_WINDOW = 3,
  FUNC_SET = 4             /* set-returning: unnest, generate_series */
} func_kind;

/* mFlag bits */
#define FUNC_STRICT    0x01   /* a NULL argument gives NULL without a call */
#define FUNC_VOLATILE  0x02   /* random(): never folded at bind time */
#define FUNC_STABLE    0x04   /* now(), current_setting(): one value per statement */
#define FUNC_DEVICE    0x08   /* the kernels have it (codegen's table maps eId) */
#define FUNC_VARIADIC  0x10   /* the last argument type repeats */

#define FUNC_ARGS_MAX 8

/* Calls one overload: aArg[0..nArg) already of its argument types (the
** binder inserted the casts). Writes the result, of the overload's result
** type, to *pOut (variable-length payloads from pCtx->pArena). Returns 0,
** or -1 with *pErr set (PostgreSQL's SQLSTATE and message). */
typedef int (*func_host_fn)(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                            sql_error *pErr);

typedef struct func_def func_def;
struct func_def {
  const char *zName;       /* lower case, as pg_proc.proname */
  uint32_t oid;            /* PostgreSQL's pg_proc oid where it has one */
  int eId;                 /* starq's number for the overload: codegen's key */
  func_kind eKind;
  int nArg;
  coltype_id aArg[FUNC_ARGS_MAX];
  coltype_id eResult;      /* COLTYPE_UNKNOWN: the binder derives it
                           ** (coalesce, greatest: the common type) */
  unsigned mFlag;
  func_host_fn xHost;      /* FUNC_SCALAR; NULL for aggregates and window
                           ** functions, which the executors implement */
};

/* The type f returns: eResult, with its element's type where that is
** COLTYPE_ARRAY (current_schemas() returns name[]). */
coltype func_result_type(const func_def *f);

/* Sets *pn to the number of overloads named zName (lower case) and
** returns them, or NULL and 0 for an unknown name. */
const func_def *func_candidates(const char *zName, int *pn);

/* Returns the overload with pg_proc oid `oid`, or NULL. */
const func_def *func_by_oid(uint32_t oid);

/* Calls x(pArg, f) for every overload; stops at the first nonzero return
** and returns it. */
int func_each(int (*x)(void *pArg, const func_def *f), void *pArg);

/* The object identifier types (regclass, regtype, regnamespace,
** regproc: reg.c). func_reg_in reads z[0..n) as a value of type eType (or oid): a
** number is the oid itself, "-" is 0, a name is looked up as PostgreSQL
** does (42P01, 42704, 3F000, 42883 when nothing has it). func_reg_out
** appends d's text: the object's name, its number when no object has
** that oid, "-" for 0. Both return 0, or -1 with *pErr. */
int func_reg_in(func_ctx *pCtx, coltype_id eType, const char *z, size_t n, datum *pOut,
                sql_error *pErr);
int func_reg_out(func_ctx *pCtx, const datum *d, strbuf *s, sql_error *pErr);

#endif /* STARQ_FUNC_H */
