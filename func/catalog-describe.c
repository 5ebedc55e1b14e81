/*
** func/catalog-describe.c — the catalog functions that describe objects
** for psql's \df, \dt+ and \l+ and the drivers' metadata calls:
** pg_get_function_arguments(), pg_get_function_identity_arguments(),
** pg_get_function_result() (over the function registry and the built-in
** functions pg_type names), pg_size_pretty(), and the size functions
** (pg_relation_size() and friends), which measure a table's column files
** of its current generation. starq's primary keys have no storage of
** their own, so an index is 0 bytes. pg_relation_is_publishable() says
** which relations a publication could hold (starq's tables);
** pg_get_statisticsobjdef_columns() and pg_get_triggerdef() are NULL, as
** PostgreSQL's are for an oid that names no such object: starq has no
** extended statistics and no triggers.
**
** INTERFACE ROUTINES
**   func__groupDescribe   this group's table (funcInt.h)
*/
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../catalog/pgobj.h"
#include "../catalog/vrel.h"
#include "funcInt.h"

static int fdesc_text(func_ctx *pCtx, const char *z, datum *pOut, sql_error *pErr) {
  return func__text(pCtx, COLTYPE_TEXT, z, pOut, pErr);
}

/* ---- functions' signatures ------------------------------------------------------ */

/* A function's argument and result types as pg_proc oids, from the
** registry or the built-in rows; returns 0, or -1 for an unknown oid. */
typedef struct fdesc_sig fdesc_sig;
struct fdesc_sig {
  int nArg;
  uint32_t aArg[FUNC_ARGS_MAX];
  uint32_t iResult;
  int bVariadic;
  int bSet;
};

static int fdesc_sig_get(uint32_t oid, fdesc_sig *p) {
  const func_def *f = func_by_oid(oid);
  const pgobj_proc *b;
  memset(p, 0, sizeof(*p));
  if (f != NULL) {
    coltype r = func_result_type(f);
    p->nArg = f->nArg;
    for (int i = 0; i < f->nArg && i < FUNC_ARGS_MAX; i++) {
      coltype a = {f->aArg[i], 0, 0, 0};
      p->aArg[i] = pgobj_coltype_oid(a);
    }
    p->iResult = pgobj_coltype_oid(r);
    p->bVariadic = (f->mFlag & FUNC_VARIADIC) != 0;
    p->bSet = f->eKind == FUNC_SET;
    return 0;
  }
  if ((b = pgobj_proc_by_oid(oid)) != NULL) {
    p->nArg = b->nArg;
    for (int i = 0; i < b->nArg && i < PGOBJ_PROC_ARGS_MAX; i++) p->aArg[i] = b->aArg[i];
    p->iResult = b->iResult;
    p->bSet = b->bRetSet;
    return 0;
  }
  return -1;
}

/* pg_get_function_arguments(oid) and _identity_arguments(oid): the
** argument types, "VARIADIC" before a variadic last one (its array
** type); NULL for an unknown oid. */
static int fdesc_arguments(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                           sql_error *pErr) {
  fdesc_sig sig;
  strbuf s;
  int rc;
  (void)nArg;
  if (fdesc_sig_get((uint32_t)aArg[0].u.i, &sig) != 0) {
    *pOut = datum_null(COLTYPE_TEXT);
    return 0;
  }
  strbuf_init(&s);
  for (int i = 0; i < sig.nArg; i++) {
    uint32_t t = sig.aArg[i];
    if (i > 0) strbuf_puts(&s, ", ");
    if (sig.bVariadic && i == sig.nArg - 1) {
      const pgobj_type *e = pgobj_type_by_oid(t);
      strbuf_puts(&s, "VARIADIC ");
      if (e != NULL && e->iArray != 0) t = e->iArray;
    }
    pgobj_format_type(t, PGOBJ_TYPMOD_NONE, &s);
  }
  rc = fdesc_text(pCtx, strbuf_str(&s), pOut, pErr);
  strbuf_free(&s);
  return rc;
}

/* pg_get_function_result(oid): "SETOF type" for a set-returning one. */
static int fdesc_result(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                        sql_error *pErr) {
  fdesc_sig sig;
  strbuf s;
  int rc;
  (void)nArg;
  if (fdesc_sig_get((uint32_t)aArg[0].u.i, &sig) != 0 || sig.iResult == 0) {
    *pOut = datum_null(COLTYPE_TEXT);
    return 0;
  }
  strbuf_init(&s);
  if (sig.bSet) strbuf_puts(&s, "SETOF ");
  pgobj_format_type(sig.iResult, PGOBJ_TYPMOD_NONE, &s);
  rc = fdesc_text(pCtx, strbuf_str(&s), pOut, pErr);
  strbuf_free(&s);
  return rc;
}

/* ---- sizes ------------------------------------------------------------------------ */

/* pg_size_pretty(bigint): bytes below 10 kB, then the largest unit that
** keeps the number below 20 thousand, halves rounded away from zero (the
** one extra bit kept at each step). */
static int fdesc_size_pretty(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                             sql_error *pErr) {
  static const char *const azUnit[] = {"kB", "MB", "GB", "TB", "PB"};
  int64_t v = aArg[0].u.i;
  char z[64];
  (void)nArg;
  if (v > -10240 && v < 10240) {
    snprintf(z, sizeof(z), "%lld bytes", (long long)v);
  } else {
    int i = 0;
    v /= 1 << 9;   /* kB, with one more bit for the rounding */
    while (i < 4 && (v <= -(20 * 1024 - 1) || v >= 20 * 1024 - 1)) {
      v /= 1 << 10;
      i++;
    }
    v = (v + (v < 0 ? -1 : 1)) / 2;
    snprintf(z, sizeof(z), "%lld %s", (long long)v, azUnit[i]);
  }
  return fdesc_text(pCtx, z, pOut, pErr);
}

/* Adds up the sizes of the files in directory zDir. */
static int64_t fdesc_dir_bytes(const char *zDir) {
  DIR *d = opendir(zDir);
  struct dirent *e;
  int64_t n = 0;
  if (d == NULL) return 0;
  while ((e = readdir(d)) != NULL) {
    char zPath[4096];
    struct stat st;
    if (e->d_name[0] == '.') continue;
    snprintf(zPath, sizeof(zPath), "%s/%s", zDir, e->d_name);
    if (stat(zPath, &st) == 0 && S_ISREG(st.st_mode)) n += st.st_size;
  }
  closedir(d);
  return n;
}

/* The bytes of table t's current generation. */
static int64_t fdesc_table_bytes(func_ctx *pCtx, const cat_table *t) {
  char zDir[4096];
  if (t->zLocation == NULL || pCtx->pCat == NULL) return 0;
  snprintf(zDir, sizeof(zDir), "%s/%s", cat_data_dir(pCtx->pCat), t->zLocation);
  return fdesc_dir_bytes(zDir);
}

/* What a size function measures of a table: its data, its indexes, both. */
typedef enum fdesc_part { FDESC_DATA = 1, FDESC_INDEXES, FDESC_TOTAL } fdesc_part;

/* xVrelEach's visitor: stops at the relation with oid *pArg. */
static int fdesc_vrel_is(void *pArg, const vrel *p) {
  return p->oid == *(const uint32_t *)pArg;
}

/* The size of relation oid (part e), or NULL: an unknown oid. A catalog
** relation is computed when read and takes no bytes. */
static int fdesc_relation_size(func_ctx *pCtx, uint32_t oid, fdesc_part e, datum *pOut,
                               sql_error *pErr) {
  pgobj_tables tabs;
  int64_t iId;
  int k;
  const cat_table *t;
  pgobj_kind eKind = pgobj_oid_decode(oid, &iId, &k);
  *pOut = datum_null(COLTYPE_BIGINT);
  if (eKind == PGOBJ_NONE && pCtx->xVrelEach != NULL && pCtx->xVrelEach(fdesc_vrel_is, &oid)) {
    *pOut = datum_int(COLTYPE_BIGINT, 0);
    return 0;
  }
  if (eKind != PGOBJ_TABLE && eKind != PGOBJ_INDEX) return 0;
  if (pCtx->pCat == NULL) return 0;
  if (pgobj_tables_load(pCtx->pCat, &tabs, pErr) != 0) return -1;
  t = pgobj_table_by_id(&tabs, iId);
  if (t != NULL && (eKind == PGOBJ_TABLE || t->nPkey > 0)) {
    int64_t n = eKind == PGOBJ_TABLE && e != FDESC_INDEXES ? fdesc_table_bytes(pCtx, t) : 0;
    *pOut = datum_int(COLTYPE_BIGINT, n);
  }
  pgobj_tables_free(&tabs);
  return 0;
}

static int fdesc_size_data(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                           sql_error *pErr) {
  (void)nArg;
  return fdesc_relation_size(pCtx, (uint32_t)aArg[0].u.i, FDESC_DATA, pOut, pErr);
}

static int fdesc_size_indexes(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                              sql_error *pErr) {
  (void)nArg;
  return fdesc_relation_size(pCtx, (uint32_t)aArg[0].u.i, FDESC_INDEXES, pOut, pErr);
}

static int fdesc_size_total(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                            sql_error *pErr) {
  (void)nArg;
  return fdesc_relation_size(pCtx, (uint32_t)aArg[0].u.i, FDESC_TOTAL, pOut, pErr);
}

/* pg_database_size(name | oid): every table's bytes; 3D000 for another
** database's name, NULL for another oid. */
static int fdesc_database_size(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                               sql_error *pErr) {
  pgobj_tables tabs;
  int64_t n = 0;
  const char *zDb = pCtx->zDatabase != NULL ? pCtx->zDatabase : "starq";
  (void)nArg;
  if (aArg[0].type.eId == COLTYPE_OID) {
    if (aArg[0].u.i != PGOBJ_DATABASE) {
      *pOut = datum_null(COLTYPE_BIGINT);
      return 0;
    }
  } else if (strlen(zDb) != aArg[0].u.s.n || memcmp(zDb, aArg[0].u.s.z, aArg[0].u.s.n) != 0) {
    sql_error_set(pErr, SQLSTATE_UNDEFINED_DATABASE, -1, "database \"%.*s\" does not exist",
                  (int)aArg[0].u.s.n, aArg[0].u.s.z);
    return -1;
  }
  if (pCtx->pCat != NULL) {
    if (pgobj_tables_load(pCtx->pCat, &tabs, pErr) != 0) return -1;
    for (int i = 0; i < tabs.n; i++) n += fdesc_table_bytes(pCtx, tabs.ap[i]);
    pgobj_tables_free(&tabs);
  }
  *pOut = datum_int(COLTYPE_BIGINT, n);
  return 0;
}

/* ---- objects starq has none of ---------------------------------------------------- */

/* pg_relation_is_publishable(regclass): true for a user table, false for
** an index or a catalog relation, NULL for an oid that names none. */
static int fdesc_publishable_visit(void *pArg, const vrel *p) {
  return p->oid == *(uint32_t *)pArg;
}

static int fdesc_publishable(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                             sql_error *pErr) {
  uint32_t oid = (uint32_t)aArg[0].u.i;
  pgobj_tables tabs;
  int64_t iId;
  int k, iPub = -1;
  pgobj_kind e = pgobj_oid_decode(oid, &iId, &k);
  (void)nArg;
  if (e != PGOBJ_NONE && pCtx->pCat != NULL) {
    if (pgobj_tables_load(pCtx->pCat, &tabs, pErr) != 0) return -1;
    if (pgobj_table_by_id(&tabs, iId) != NULL) {
      if (e == PGOBJ_TABLE) iPub = 1;
      else if (e == PGOBJ_INDEX && pgobj_table_by_id(&tabs, iId)->nPkey > 0) iPub = 0;
    }
    pgobj_tables_free(&tabs);
  } else if (e == PGOBJ_NONE && pCtx->xVrelEach != NULL &&
             pCtx->xVrelEach(fdesc_publishable_visit, &oid) != 0) {
    iPub = 0;
  }
  *pOut = iPub < 0 ? datum_null(COLTYPE_BOOLEAN) : datum_bool(iPub);
  return 0;
}

/* pg_get_statisticsobjdef_columns(oid), pg_get_triggerdef(oid [, bool]). */
static int fdesc_no_object(func_ctx *pCtx, int nArg, const datum *aArg, datum *pOut,
                           sql_error *pErr) {
  (void)pCtx, (void)nArg, (void)aArg, (void)pErr;
  *pOut = datum_null(COLTYPE_TEXT);
  return 0;
}

/* ---- the table ---------------------------------------------------------------------- */

#define ST (FUNC_STABLE | FUNC_STRICT)
#define VT (FUNC_VOLATILE | FUNC_STRICT)

/* Overloads of one name are adjacent (func.c). eId: 9100 up, this group's. */
static const func_def fdesc_aDef[] = {
    {"pg_database_size", 2168, 9101, FUNC_SCALAR, 1, {COLTYPE_NAME}, COLTYPE_BIGINT, VT,
     fdesc_database_size},
    {"pg_database_size", 2324, 9102, FUNC_SCALAR, 1, {COLTYPE_OID}, COLTYPE_BIGINT, VT,
     fdesc_database_size},
    {"pg_get_function_arguments", 2162, 9103, FUNC_SCALAR, 1, {COLTYPE_OID}, COLTYPE_TEXT, ST,
     fdesc_arguments},
    {"pg_get_function_identity_arguments", 2232, 9104, FUNC_SCALAR, 1, {COLTYPE_OID},
     COLTYPE_TEXT, ST, fdesc_arguments},
    {"pg_get_function_result", 2165, 9105, FUNC_SCALAR, 1, {COLTYPE_OID}, COLTYPE_TEXT, ST,
     fdesc_result},
    {"pg_get_statisticsobjdef_columns", 6174, 9111, FUNC_SCALAR, 1, {COLTYPE_OID}, COLTYPE_TEXT,
     ST, fdesc_no_object},
    {"pg_get_triggerdef", 1662, 9112, FUNC_SCALAR, 1, {COLTYPE_OID}, COLTYPE_TEXT, ST,
     fdesc_no_object},
    {"pg_get_triggerdef", 2730, 9113, FUNC_SCALAR, 2, {COLTYPE_OID, COLTYPE_BOOLEAN},
     COLTYPE_TEXT, ST, fdesc_no_object},
    {"pg_indexes_size", 2998, 9106, FUNC_SCALAR, 1, {COLTYPE_REGCLASS}, COLTYPE_BIGINT, VT,
     fdesc_size_indexes},
    {"pg_relation_is_publishable", 6121, 9114, FUNC_SCALAR, 1, {COLTYPE_REGCLASS},
     COLTYPE_BOOLEAN, ST, fdesc_publishable},
    {"pg_relation_size", 2325, 9107, FUNC_SCALAR, 1, {COLTYPE_REGCLASS}, COLTYPE_BIGINT, VT,
     fdesc_size_data},
    {"pg_size_pretty", 2288, 9108, FUNC_SCALAR, 1, {COLTYPE_BIGINT}, COLTYPE_TEXT,
     FUNC_STRICT, fdesc_size_pretty},
    {"pg_table_size", 2997, 9109, FUNC_SCALAR, 1, {COLTYPE_REGCLASS}, COLTYPE_BIGINT, VT,
     fdesc_size_data},
    {"pg_total_relation_size", 2286, 9110, FUNC_SCALAR, 1, {COLTYPE_REGCLASS}, COLTYPE_BIGINT,
     VT, fdesc_size_total},
};

const func_group func__groupDescribe = {fdesc_aDef,
                                        (int)(sizeof(fdesc_aDef) / sizeof(fdesc_aDef[0]))};
