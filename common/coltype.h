/*
** common/coltype.h — the SQL column types starq stores, and how each is
** laid out in a column file.
**
** Every stored value is fixed-width little-endian (DESIGN.md decision 6):
**
**   type              stored as                       width
**   SMALLINT          int16                           2
**   INTEGER           int32                           4
**   BIGINT            int64                           8
**   DOUBLE PRECISION  IEEE-754 double                 8
**   DECIMAL(p, s)     int64, the value times 10^s     8     (p <= 18)
**   DATE              int32 yyyymmdd                  4
**   TIMESTAMP         int64 microseconds since        8
**   TIMESTAMPTZ         2000-01-01 (UTC for tz), as PostgreSQL
**   CHAR(n)           uint32 code into the column's   4
**   VARCHAR(n)          sorted dictionary
**   TEXT
**
** String codes keep string order (byte order, as PostgreSQL's "C"
** collation), so equality and ranges on strings become integer tests.
** CHAR(n) keeps its text as given (no blank padding); n, like VARCHAR's,
** is a limit in characters (UTF-8 code points) checked on load.
*/
#ifndef STARQ_COLTYPE_H
#define STARQ_COLTYPE_H

#include <stddef.h>
#include <stdint.h>

/* Numbers are stored in the catalog: never renumber. */
typedef enum coltype_id {
  COLTYPE_SMALLINT = 1,
  COLTYPE_INTEGER = 2,
  COLTYPE_BIGINT = 3,
  COLTYPE_DOUBLE = 4,
  COLTYPE_DECIMAL = 5,
  COLTYPE_DATE = 6,
  COLTYPE_CHAR = 7,
  COLTYPE_VARCHAR = 8,
  COLTYPE_TEXT = 9,
  /* Types of expressions only, never of a stored column: */
  COLTYPE_BOOLEAN = 10,    /* predicates */
  COLTYPE_UNKNOWN = 11,    /* a NULL literal before context gives it a type */
  /* Stored, as PostgreSQL's int64 microseconds since 2000-01-01 (UTC
  ** for timestamptz, shown in the session's TimeZone): */
  COLTYPE_TIMESTAMP = 12,  /* timestamp [(p)] [without time zone]: nScale p */
  COLTYPE_TIMESTAMPTZ = 13,/* timestamp [(p)] with time zone: nScale p */
  /* PostgreSQL's types that SQL may name (casts, typed literals, column
  ** definitions) but that nothing stores or computes yet: the parser
  ** names them, the binder refuses them (0A000), coltype_width() is 0. */
  COLTYPE_TIME = 14,       /* time [(p)] [without time zone]: nScale p */
  COLTYPE_TIMETZ = 15,     /* time [(p)] with time zone: nScale p */
  COLTYPE_INTERVAL = 16,   /* interval [fields] [(p)]: nScale p, nLength the
                           ** fields (COLTYPE_INTERVAL_* mask, 0: all) */
  COLTYPE_NUMERIC = 17,    /* numeric without a precision, or wider than
                           ** DECIMAL holds: nPrecision (0: none), nScale */
  COLTYPE_FLOAT4 = 18,     /* real, float4 */
  COLTYPE_OID = 19,        /* oid */
  COLTYPE_REGCLASS = 20,   /* regclass */
  COLTYPE_REGTYPE = 21,    /* regtype */
  COLTYPE_REGPROC = 22,    /* regproc */
  COLTYPE_NAME = 23,       /* name: PostgreSQL's 63-byte identifier type */
  COLTYPE_PGCHAR = 24,     /* "char": PostgreSQL's one-byte internal type */
  /* pg_catalog's own types, so its relations' columns have PostgreSQL's
  ** types (catalog/vrel.h): */
  COLTYPE_ARRAY = 25,      /* an array (1-based, one dimension) of
                           ** coltype_elem(t) */
  COLTYPE_INT2VECTOR = 26, /* int2vector: smallints, 0-based (pg_index.indkey) */
  COLTYPE_OIDVECTOR = 27,  /* oidvector: oids, 0-based (pg_index.indclass) */
  COLTYPE_ACLITEM = 28,    /* aclitem: one grant (pg_class.relacl's elements) */
  COLTYPE_PG_NODE_TREE = 29, /* pg_node_tree: a stored expression (pg_attrdef.adbin) */
  COLTYPE_XID = 30,        /* xid: a transaction id (pg_class.relfrozenxid) */
  COLTYPE_INET = 31,       /* inet (pg_stat_activity.client_addr) */
  COLTYPE_BYTEA = 32,      /* bytea (pg_trigger.tgargs) */
  COLTYPE_ANYARRAY = 33,   /* anyarray (pg_attribute.attmissingval) */
  COLTYPE_REGNAMESPACE = 34, /* regnamespace: a schema's oid, shown by name */
} coltype_id;

/* The case labels of every id above that names a type nothing stores or
** computes yet, for switches that must stay exhaustive:
**   case COLTYPE_BOOLEAN:
**   COLTYPE_CASE_NAMED_ONLY:
**     return 0; */
#define COLTYPE_CASE_NAMED_ONLY                                                   \
  case COLTYPE_TIME:                                                             \
  case COLTYPE_TIMETZ: case COLTYPE_INTERVAL: case COLTYPE_NUMERIC:              \
  case COLTYPE_FLOAT4: case COLTYPE_OID: case COLTYPE_REGCLASS:                  \
  case COLTYPE_REGTYPE: case COLTYPE_REGPROC: case COLTYPE_NAME: case COLTYPE_PGCHAR:   \
  case COLTYPE_ARRAY: case COLTYPE_INT2VECTOR: case COLTYPE_OIDVECTOR:           \
  case COLTYPE_ACLITEM: case COLTYPE_PG_NODE_TREE: case COLTYPE_XID:             \
  case COLTYPE_INET: case COLTYPE_BYTEA: case COLTYPE_ANYARRAY:                  \
  case COLTYPE_REGNAMESPACE

/* INTERVAL's fields qualifier, in nLength: YEAR TO MONTH is
** COLTYPE_INTERVAL_YEAR | COLTYPE_INTERVAL_MONTH, and so on. */
#define COLTYPE_INTERVAL_YEAR   0x01
#define COLTYPE_INTERVAL_MONTH  0x02
#define COLTYPE_INTERVAL_DAY    0x04
#define COLTYPE_INTERVAL_HOUR   0x08
#define COLTYPE_INTERVAL_MINUTE 0x10
#define COLTYPE_INTERVAL_SECOND 0x20

/* Fractional-second digits of a time type whose precision is not written
** (PostgreSQL keeps microseconds). */
#define COLTYPE_TIME_PRECISION_MAX 6

#define COLTYPE_DECIMAL_PRECISION_MAX 18
#define COLTYPE_LENGTH_MAX 10485760          /* as PostgreSQL's varchar */

/* A column's type with its modifiers. A plain value, copied freely. */
typedef struct coltype coltype;
struct coltype {
  coltype_id eId;
  int32_t nLength;         /* CHAR(n), VARCHAR(n): n; INTERVAL: its fields;
                           ** otherwise 0 */
  int32_t nPrecision;      /* DECIMAL(p, s): p, 1..18; NUMERIC(p, s): p;
                           ** otherwise 0 */
  int32_t nScale;          /* DECIMAL(p, s), NUMERIC(p, s): s, 0..p; the time
                           ** types: fractional-second digits, 0..6;
                           ** otherwise 0 */
};

/* ARRAY's element type (coltype_array, coltype_elem): the element's id
** rides in nPrecision above its precision (at most 1000, 16 bits), its
** length and scale in nLength and nScale; so a coltype stays four plain
** fields. */
#define COLTYPE_ELEM_SHIFT 16

/* The type of a one-dimensional array of e (itself not an array). */
static inline coltype coltype_array(coltype e) {
  coltype a = e;
  a.eId = COLTYPE_ARRAY;
  a.nPrecision = (int32_t)(((uint32_t)e.eId << COLTYPE_ELEM_SHIFT) | (uint32_t)e.nPrecision);
  return a;
}

/* The element type of array type a. */
static inline coltype coltype_elem(coltype a) {
  coltype e = a;
  e.eId = (coltype_id)((uint32_t)a.nPrecision >> COLTYPE_ELEM_SHIFT);
  e.nPrecision = (int32_t)((uint32_t)a.nPrecision & ((1u << COLTYPE_ELEM_SHIFT) - 1));
  return e;
}

/* Returns the bytes one stored value takes (string codes: 4). */
int coltype_width(coltype t);

/* Returns 1 for CHAR, VARCHAR and TEXT: dictionary-encoded columns. */
int coltype_is_string(coltype t);

/* Returns 0 if t is a type starq can store, or -1 with the reason in zErr
** (unknown id, DECIMAL precision out of 1..18, scale out of 0..p, CHAR or
** VARCHAR length out of 1..10485760). */
int coltype_check(coltype t, char *zErr, size_t nErr);

/* Writes the SQL spelling of t ("DECIMAL(15,2)", "CHAR(10)", "DATE") into
** z and returns z. */
char *coltype_format(coltype t, char *z, size_t n);

/* Parses a SQL type name as written in DDL or a schema file: INT, INTEGER,
** INT4, SMALLINT, INT2, BIGINT, INT8, DOUBLE PRECISION, FLOAT8, DOUBLE,
** DECIMAL(p[,s]), NUMERIC(p[,s]), DATE, CHAR(n), CHARACTER(n), CHAR,
** VARCHAR(n), CHARACTER VARYING(n), TEXT; case-insensitive, spaces allowed
** around parentheses and commas. Returns 0, or -1 with a reason in zErr. */
int coltype_parse(const char *z, coltype *pt, char *zErr, size_t nErr);

#endif /* STARQ_COLTYPE_H */
