/*
** common/jsonread.h — a small strict JSON reader: one text in, a tree of
** json_value out. The clients read the server's figures with it (SHOW
** starq.last_query, SHOW starq.status) and the tests read /status.
**
** Strict to RFC 8259: one value with only white space around it; no
** comments, trailing commas, single quotes, NaN or leading zeros; control
** characters and bytes that are not well-formed UTF-8 in strings are
** refused; \u escapes are decoded to UTF-8 with surrogate pairs joined (a
** lone surrogate is refused). Nesting deeper than JSONREAD_DEPTH_MAX is
** refused rather than recursed into, so hostile input cannot exhaust the
** stack. Duplicate keys are kept; json_get() finds the first.
**
** A tree is one allocation per container and per string, owned by its
** root: json_value_free() of the root frees all of it.
**
** INTERFACE ROUTINES
**   json_parse        text to tree, or where and why it is not JSON
**   json_value_free   free a tree
**   json_get          an object's member by key
**   json_num / json_str / json_bool_get   a value, or a default
*/
#ifndef STARQ_JSONREAD_H
#define STARQ_JSONREAD_H

#include <stddef.h>

#include "json.h"

/* The writer's limit: what is read can always be written back. */
#define JSONREAD_DEPTH_MAX JSON_DEPTH_MAX

typedef enum json_kind { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_kind;

/* One value. Which fields are live follows eKind. */
typedef struct json_value json_value;
struct json_value {
  json_kind eKind;
  int bBool;               /* JSON_BOOL */
  double r;                /* JSON_NUMBER */
  char *z;                 /* JSON_STRING: decoded UTF-8, NUL-terminated
                           ** (an embedded \u0000 ends it early) */
  int n;                   /* JSON_ARRAY / JSON_OBJECT: members */
  json_value *a;           /* the members, in order */
  char **azKey;            /* JSON_OBJECT: the members' keys, decoded */
};

/* Parses the n bytes at z (one JSON value, nothing after it but space).
** Returns 0 with *pp (free with json_value_free), or -1 with *pp NULL and
** zErr saying where and why ("at byte 17: expected ':'"). */
int json_parse(const char *z, size_t n, json_value **pp, char *zErr, size_t nErr);

/* Frees a tree json_parse() returned; NULL is a no-op. */
void json_value_free(json_value *p);

/* The member zKey of object p; NULL if p is NULL, not an object, or lacks it. */
const json_value *json_get(const json_value *p, const char *zKey);

/* p's number, or rDefault if p is NULL or not a number. */
double json_num(const json_value *p, double rDefault);

/* p's string, or zDefault if p is NULL or not a string. */
const char *json_str(const json_value *p, const char *zDefault);

/* p's boolean (0 or 1), or bDefault if p is NULL or not a boolean. */
int json_bool_get(const json_value *p, int bDefault);

#endif /* STARQ_JSONREAD_H */
