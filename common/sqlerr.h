/*
** common/sqlerr.h — an SQL error as a client sees it: a PostgreSQL
** SQLSTATE, a message, and where in the statement text it was found.
**
** The lexer, parser and binder record the first error on their context
** and stop (as SQLite's sqlite3ErrorMsg does) rather than unwind; the
** server turns the record into an ErrorResponse with the same fields.
*/
#ifndef STARQ_SQLERR_H
#define STARQ_SQLERR_H

#include <stddef.h>

/* The SQLSTATEs starq raises (PostgreSQL's codes and meanings). */
#define SQLSTATE_SYNTAX_ERROR          "42601"
#define SQLSTATE_UNDEFINED_TABLE       "42P01"
#define SQLSTATE_UNDEFINED_COLUMN      "42703"
#define SQLSTATE_AMBIGUOUS_COLUMN      "42702"
#define SQLSTATE_DUPLICATE_TABLE       "42P07"
#define SQLSTATE_DUPLICATE_COLUMN      "42701"
#define SQLSTATE_DUPLICATE_ALIAS       "42712"
#define SQLSTATE_DATATYPE_MISMATCH     "42804"
#define SQLSTATE_UNDEFINED_FUNCTION    "42883"
#define SQLSTATE_GROUPING_ERROR        "42803"
#define SQLSTATE_INVALID_COLUMN_REF    "42P10"   /* bad ORDER BY / GROUP BY ordinal */
#define SQLSTATE_INVALID_FOREIGN_KEY   "42830"
#define SQLSTATE_INVALID_TABLE_DEF     "42P16"
#define SQLSTATE_UNDEFINED_OBJECT      "42704"   /* unknown type or parameter */
#define SQLSTATE_UNDEFINED_PARAMETER   "42P02"   /* $n with no value */
#define SQLSTATE_INSUFFICIENT_PRIVILEGE "42501"  /* COPY outside the import dir */
#define SQLSTATE_DIVISION_BY_ZERO      "22012"
#define SQLSTATE_NUMERIC_OUT_OF_RANGE  "22003"
#define SQLSTATE_INVALID_POWER_ARGUMENT "2201F"  /* sqrt(-1), power(0, -1) */
#define SQLSTATE_INVALID_DATETIME      "22008"
#define SQLSTATE_INVALID_TEXT_REP      "22P02"   /* a literal that is not its type */
#define SQLSTATE_STRING_TOO_LONG       "22001"
#define SQLSTATE_FEATURE_NOT_SUPPORTED "0A000"
#define SQLSTATE_OUT_OF_MEMORY         "53200"
#define SQLSTATE_DISK_FULL             "53100"
#define SQLSTATE_PROGRAM_LIMIT         "54000"   /* statement too long or deep */
#define SQLSTATE_INTERNAL_ERROR        "XX000"
/* Added for the binder (planner/bind*.c): */
#define SQLSTATE_CANNOT_COERCE         "42846"   /* CAST between types with no cast */
#define SQLSTATE_AMBIGUOUS_FUNCTION    "42725"   /* sum(NULL): no one candidate */
#define SQLSTATE_WRONG_OBJECT_TYPE     "42809"   /* COPY from a directory */
#define SQLSTATE_INVALID_DATETIME_FORMAT "22007" /* '1997-1x-01'::date */
#define SQLSTATE_INVALID_PARAMETER     "22023"   /* bad COPY option, type modifier */
#define SQLSTATE_INVALID_LIMIT         "2201W"   /* LIMIT -1 */
#define SQLSTATE_INVALID_OFFSET        "2201X"   /* OFFSET -1 */
#define SQLSTATE_UNDEFINED_FILE        "58P01"   /* COPY from a missing file */
#define SQLSTATE_IO_ERROR              "58030"
#define SQLSTATE_STACK_DEPTH           "54001"   /* expression nested too deeply to bind */
/* Added for the catalog functions (func/catalog.c): */
#define SQLSTATE_UNDEFINED_SCHEMA      "3F000"   /* has_schema_privilege('nope', ...) */
#define SQLSTATE_UNDEFINED_DATABASE    "3D000"   /* has_database_privilege('nope', ...) */
#define SQLSTATE_INVALID_NAME          "42602"   /* has_table_privilege('a.b.c', ...) */

typedef struct sql_error sql_error;
struct sql_error {
  char zState[6];          /* SQLSTATE; "" while there is no error */
  int iOffset;             /* byte offset into the statement text, or -1 */
  char zMsg[512];          /* the message, no trailing period (PostgreSQL style) */
};

/* Clears e: no error. */
void sql_error_clear(sql_error *e);

/* Records an error unless one is recorded already (the first one wins).
** iOffset is a byte offset into the SQL text, or -1 if it has none. */
void sql_error_set(sql_error *e, const char *zState, int iOffset, const char *zFmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Returns the 1-based character (UTF-8 code point) position of byte
** iOffset of zSql, as PostgreSQL reports it, or 0 if iOffset is -1. */
int sql_error_position(const char *zSql, int iOffset);

#endif /* STARQ_SQLERR_H */
