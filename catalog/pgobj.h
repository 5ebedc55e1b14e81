/*
** catalog/pgobj.h — starq's objects as PostgreSQL's catalog names them:
** the object ids clients see (fixed PostgreSQL OIDs for what is built in,
** stable ones derived from catalog ids for tables, their primary-key
** indexes and constraints, their foreign keys), the built-in types and
** the functions their regproc columns name, identifiers quoted as
** quote_ident() quotes them, and the tables of one statement's catalog.
** pg_catalog's relations (vrel.h) and the catalog functions (func/)
** both read it, so a name or an oid is computed in one place.
**
** OIDs of starq's objects (PostgreSQL numbers user objects from 16384 up;
** catalog ids are never reused, so neither is an oid):
**
**   the database                      16384
**   table with catalog id N           16384 + 8 N
**   its primary key's index           16384 + 8 N + 1
**   its primary key constraint        16384 + 8 N + 2
**   foreign key k (0-based) of N      0x40000000 + 256 N + k
**
** Every table lives in schema public (2200). Roles: the session's user
** is the bootstrap superuser (10), the owner of everything.
**
** INTERFACE ROUTINES
**   pgobj_table_oid, pgobj_index_oid, pgobj_pkey_oid, pgobj_fkey_oid
**   pgobj_oid_decode      what a user object's oid names
**   pgobj_tables_load / _free, pgobj_table_by_id / _by_name
**   pgobj_pkey_name, pgobj_fkey_name   PostgreSQL's generated names
**   pgobj_type_by_oid, pgobj_type_by_name, pgobj_type_at, pgobj_type_count
**   pgobj_coltype_oid, pgobj_coltype_typmod, pgobj_oid_coltype
**   pgobj_format_type     format_type(oid, typmod)
**   pgobj_proc_by_oid, pgobj_proc_at, pgobj_proc_count
**   pgobj_keyword, pgobj_keyword_at, pgobj_keyword_count
**   pgobj_quote_ident     quote_ident()
**   pgobj_schema_oid, pgobj_schema_name, pgobj_schema_comment
*/
#ifndef STARQ_PGOBJ_H
#define STARQ_PGOBJ_H

#include <stdint.h>

#include "../common/coltype.h"
#include "../common/sqlerr.h"
#include "../common/strbuf.h"
#include "catalog.h"

/* Fixed oids of PostgreSQL 15. */
#define PGOBJ_NS_PG_CATALOG 11u
#define PGOBJ_NS_PG_TOAST 99u
#define PGOBJ_NS_PUBLIC 2200u
#define PGOBJ_NS_INFORMATION_SCHEMA 13207u
#define PGOBJ_ROLE_OWNER 10u
#define PGOBJ_ROLE_DATABASE_OWNER 6171u
#define PGOBJ_DATABASE 16384u
#define PGOBJ_TABLESPACE_DEFAULT 1663u
#define PGOBJ_TABLESPACE_GLOBAL 1664u
#define PGOBJ_AM_HEAP 2u
#define PGOBJ_AM_BTREE 403u
#define PGOBJ_COLLATION_DEFAULT 100u
#define PGOBJ_COLLATION_C 950u
#define PGOBJ_FIRST_USER_OID 16384u

/* The pg_class oids of the catalogs that pg_description and friends name
** by classoid. */
#define PGOBJ_CLASS_PG_CLASS 1259u
#define PGOBJ_CLASS_PG_NAMESPACE 2615u
#define PGOBJ_CLASS_PG_DATABASE 1262u
#define PGOBJ_CLASS_PG_CONSTRAINT 2606u
#define PGOBJ_CLASS_PG_PROC 1255u
#define PGOBJ_CLASS_PG_TYPE 1247u

/* ---- oids of starq's objects ---------------------------------------------------- */

uint32_t pgobj_table_oid(int64_t iId);
uint32_t pgobj_index_oid(int64_t iId);
uint32_t pgobj_pkey_oid(int64_t iId);
uint32_t pgobj_fkey_oid(int64_t iId, int k);

typedef enum pgobj_kind {
  PGOBJ_NONE = 0,
  PGOBJ_TABLE,
  PGOBJ_INDEX,             /* a table's primary key index */
  PGOBJ_PKEY,              /* a table's primary key constraint */
  PGOBJ_FKEY               /* foreign key *pk of a table */
} pgobj_kind;

/* What user object oid names (its table's catalog id in *piId, the
** foreign key's position in *pk), or PGOBJ_NONE for any other oid. The
** object may not exist: look the table up. */
pgobj_kind pgobj_oid_decode(uint32_t oid, int64_t *piId, int *pk);

/* ---- one statement's tables ---------------------------------------------------- */

/* Every table of the catalog, read once, ordered by catalog id. */
typedef struct pgobj_tables pgobj_tables;
struct pgobj_tables {
  int n;
  cat_table **ap;          /* owned, each */
};

/* Reads every table of pCat (through its cache: hold it for the statement,
** cat_cache_hold). Returns 0, or -1 with *pErr (58030). */
int pgobj_tables_load(cat *pCat, pgobj_tables *p, sql_error *pErr);
void pgobj_tables_free(pgobj_tables *p);

/* The table with catalog id iId / named zName (exactly: the binder has
** folded it), or NULL. */
const cat_table *pgobj_table_by_id(const pgobj_tables *p, int64_t iId);
const cat_table *pgobj_table_by_name(const pgobj_tables *p, const char *zName);

/* Appends PostgreSQL's name for table t's primary key (and its index):
** "<table>_pkey"; and for its foreign key k: "<table>_<col>[_<col>]_fkey". */
void pgobj_pkey_name(const cat_table *t, strbuf *s);
void pgobj_fkey_name(const cat_table *t, int k, strbuf *s);

/* ---- types ----------------------------------------------------------------------- */

/* A row of pg_type, as PostgreSQL 15 has it (typnamespace 11, typowner
** 10, no domains). Function columns are pg_proc oids (0: none). */
typedef struct pgobj_type pgobj_type;
struct pgobj_type {
  uint32_t oid;
  const char *zName;       /* typname */
  int16_t nLen;            /* typlen */
  char bByVal;
  char cType;              /* typtype: b, p, r, c */
  char cCategory;
  char bPreferred;
  char cDelim;
  uint32_t iSubscript, iElem, iArray;
  uint32_t iInput, iOutput, iReceive, iSend, iModIn, iModOut, iAnalyze;
  char cAlign, cStorage;
  uint32_t iCollation;
  const char *zFormat;     /* format_type(oid, NULL): "integer", "character varying" */
};

const pgobj_type *pgobj_type_by_oid(uint32_t oid);
int pgobj_type_count(void);
const pgobj_type *pgobj_type_at(int i);

/* The type a name means in a cast to regtype or in a type name: typname
** ("int4", "_int4", "bpchar"), the SQL spelling ("integer", "character
** varying", "double precision", "timestamp with time zone"), an alias
** ("int", "float", "decimal", "varchar", "char", "bool", "timestamptz"),
** any of them followed by "[]" for its array type, with an optional
** "pg_catalog." and a modifier that is ignored ("varchar(10)"). Case is
** folded outside double quotes. Returns NULL for an unknown name. */
const pgobj_type *pgobj_type_by_name(const char *z, size_t n);

/* The pg_type oid of an expression or column of type t (0: none), and
** its typmod as pg_attribute.atttypmod and RowDescription carry it. */
uint32_t pgobj_coltype_oid(coltype t);
int32_t pgobj_coltype_typmod(coltype t);

/* The coltype of a type oid with typmod (a coltype a value of that type
** can be held in); returns 0 with *pt set, or -1 for a type starq has no
** coltype for. */
int pgobj_oid_coltype(uint32_t oid, int32_t typmod, coltype *pt);

/* format_type()'s typmod NULL (which differs from -1 for bpchar only). */
#define PGOBJ_TYPMOD_NONE INT32_MIN

/* Appends format_type(oid, typmod): typmod -1 is "no modifier",
** PGOBJ_TYPMOD_NONE none given; oid 0 is "-", an unknown oid "???". */
void pgobj_format_type(uint32_t oid, int32_t typmod, strbuf *s);

/* ---- functions -------------------------------------------------------------------- */

/* A pg_proc row of a built-in function the catalog names (types' I/O,
** typmod and subscript functions, access method handlers). */
#define PGOBJ_PROC_ARGS_MAX 3
typedef struct pgobj_proc pgobj_proc;
struct pgobj_proc {
  uint32_t oid;
  const char *zName;
  int nArg;
  uint32_t iResult;
  uint32_t aArg[PGOBJ_PROC_ARGS_MAX];
  char bStrict, bRetSet;
  char cVolatile, cParallel;
  uint32_t iLang;          /* 12: internal */
  const char *zSrc;
};

const pgobj_proc *pgobj_proc_by_oid(uint32_t oid);
int pgobj_proc_count(void);
const pgobj_proc *pgobj_proc_at(int i);

/* ---- keywords and identifiers ------------------------------------------------------ */

/* PostgreSQL 15's keywords (pg_get_keywords): category U unreserved, C
** unreserved but not a function or type name, T reserved but a function
** or type name, R reserved. */
typedef struct pgobj_keyword_def pgobj_keyword_def;
struct pgobj_keyword_def {
  const char *zWord;
  char cCategory;
  char bBareLabel;         /* may be a column label without AS */
};

/* The keyword z (lower case), or NULL. */
const pgobj_keyword_def *pgobj_keyword(const char *z, size_t n);
int pgobj_keyword_count(void);
const pgobj_keyword_def *pgobj_keyword_at(int i);

/* Appends z[0..n) as quote_ident() gives it: as it is when it is a lower
** case identifier that is not a keyword other than an unreserved one, else
** in double quotes with quotes doubled. */
void pgobj_quote_ident(const char *z, size_t n, strbuf *s);

/* ---- schemas -------------------------------------------------------------------------- */

/* The oid of schema zName (pg_catalog, pg_toast, public,
** information_schema), or 0. */
uint32_t pgobj_schema_oid(const char *z, size_t n);
/* Its name, or NULL. */
const char *pgobj_schema_name(uint32_t oid);
/* Its comment (pg_description), or NULL. */
const char *pgobj_schema_comment(uint32_t oid);

#endif /* STARQ_PGOBJ_H */
