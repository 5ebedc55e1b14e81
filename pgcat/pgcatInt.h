/*
** pgcat/pgcatInt.h — private to pgcat/: how a virtual relation's rows
** are built (a vrow: one row of datums, its columns set by name), the
** column lists of every relation, and the per-file relation tables that
** vrel.c gathers.
**
** A vrow starts with every column at its relation's default: for a
** catalog table (relkind 'r') 0 or false for its fixed-width columns,
** as PostgreSQL's own rows mostly have, and NULL for text, arrays and
** expressions; for a view every column is NULL. Builders set what their
** row has and emit it. Setting a column the relation lacks is a bug the
** tests catch (vrow_emit fails with XX000 naming it).
*/
#ifndef STARQ_PGCAT_INT_H
#define STARQ_PGCAT_INT_H

#include "../catalog/pgobj.h"
#include "../catalog/vrel.h"
#include "../common/arena.h"
#include "../func/func.h"

/* Column type initializers for the column lists (cols.c). */
#define VT(e) {(e), 0, 0, 0}
#define VT_VARCHAR(n) {COLTYPE_VARCHAR, (n), 0, 0}
#define VT_TIMESTAMPTZ {COLTYPE_TIMESTAMPTZ, 0, 0, COLTYPE_TIME_PRECISION_MAX}
#define VT_ARRAY(e) {COLTYPE_ARRAY, 0, (int32_t)((uint32_t)(e) << COLTYPE_ELEM_SHIFT), 0}

/* A vrel's nCol and aCol from its column array. */
#define PGCAT_COLS(a) (int)(sizeof(a) / sizeof((a)[0])), (a)

/* The widest relation's column count. */
#define VROW_COL_MAX 80

typedef struct vrow vrow;
struct vrow {
  const vrel *pRel;
  func_ctx *pCtx;          /* its arena holds payloads built for the row */
  const char *zBad;        /* the first unknown column set, or NULL */
  int bNoMem;              /* an arena allocation failed */
  datum a[VROW_COL_MAX];
};

void pgcat__row_init(vrow *r, const vrel *p, func_ctx *pCtx);
void pgcat__row_int(vrow *r, const char *zCol, int64_t v);
void pgcat__row_float(vrow *r, const char *zCol, double v);
void pgcat__row_bool(vrow *r, const char *zCol, int b);
/* z is copied into the arena (builders pass strbuf and stack text). */
void pgcat__row_text(vrow *r, const char *zCol, const char *z);
void pgcat__row_char(vrow *r, const char *zCol, char c);
/* An array column (its element type from the column) of a[0..n) ints
** (oids, attribute numbers), copied. */
void pgcat__row_ints(vrow *r, const char *zCol, const int64_t *a, int n);
/* A text[] column of az[0..n), copied. */
void pgcat__row_texts(vrow *r, const char *zCol, const char *const *az, int n);
void pgcat__row_null(vrow *r, const char *zCol);

/* Hands the row to xRow. Returns what it returned, or -1 with *pErr
** (53200 when the arena ran out, XX000 for an unknown column). */
int pgcat__row_emit(vrow *r, vrel_row_fn xRow, void *pArg, sql_error *pErr);

/* The statement's tables, from pCtx->pCat (none when it is NULL).
** Returns 0, or -1 with *pErr. */
int pgcat__tables(func_ctx *pCtx, pgobj_tables *p, sql_error *pErr);

/* The name a user type column shows as information_schema's data_type:
** format_type without the modifier ("character varying", "numeric"). */
const char *pgcat__type_sqlname(coltype t);

/* ---- the relations, by file ------------------------------------------------- */

/* Every relation pgcat serves, in pg_class order (vrel.c). */
extern const vrel *const pgcat__aRel[];
extern const int pgcat__nRel;

/* rel-class.c: starq's tables and the relations about them. */
extern const vrel pgcat__pg_namespace, pgcat__pg_class, pgcat__pg_attribute, pgcat__pg_index,
    pgcat__pg_constraint, pgcat__pg_attrdef, pgcat__pg_description, pgcat__pg_inherits,
    pgcat__pg_tables, pgcat__pg_views;
/* rel-builtin.c: what is fixed or the session's. */
extern const vrel pgcat__pg_type, pgcat__pg_proc, pgcat__pg_am, pgcat__pg_tablespace,
    pgcat__pg_enum, pgcat__pg_collation, pgcat__pg_database, pgcat__pg_roles, pgcat__pg_user,
    pgcat__pg_settings, pgcat__pg_stat_activity;
/* rel-empty.c: objects starq never has. */
extern const vrel pgcat__pg_trigger, pgcat__pg_policy, pgcat__pg_statistic_ext, pgcat__pg_publication,
    pgcat__pg_publication_namespace, pgcat__pg_publication_rel;
/* rel-infoschema.c */
extern const vrel pgcat__is_schemata, pgcat__is_tables, pgcat__is_columns, pgcat__is_views,
    pgcat__is_table_constraints, pgcat__is_key_column_usage, pgcat__is_referential_constraints;

#endif /* STARQ_PGCAT_INT_H */
