/*
** common/json.h — a small streaming JSON writer: objects, arrays, keys and
** scalars appended to a strbuf, with the commas and the string escaping
** done here so that no caller can get them wrong.
**
** Strings are escaped for any bytes at all: quote, backslash and every
** control character are escaped, and a byte sequence that is not valid
** UTF-8 (a stray continuation byte, a truncated or overlong sequence, a
** surrogate, a code point past U+10FFFF) becomes U+FFFD, one per bad byte,
** so the output is always valid UTF-8 and valid JSON. U+2028 and U+2029
** are escaped too, so the text can sit inside a <script>.
**
** Misuse (a value where a key is due, a close that matches no open, nesting
** past JSON_DEPTH_MAX) is sticky, like an allocation failure in the strbuf:
** the writer stops writing and json_error() says so, so a long run of
** calls needs one check at the end.
**
** INTERFACE ROUTINES
**   json_init            start writing into a strbuf
**   json_object_begin / json_object_end / json_array_begin / json_array_end
**   json_key             the key of the next member of an object
**   json_string / json_string_n / json_int / json_uint / json_double /
**   json_bool / json_null   one value
**   json_field_string / _int / _uint / _double / _bool   a key and its value
**   json_error           whether anything went wrong
**   json_string_escape   the escaped body of a string, without its quotes
*/
#ifndef STARQ_JSON_H
#define STARQ_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

/* The reader (jsonread.h) refuses deeper text at this same depth, so any
** tree it accepts can be written back. */
#define JSON_DEPTH_MAX 64

typedef struct json_writer json_writer;
struct json_writer {
  strbuf *pOut;                   /* where the text goes; not owned */
  int nDepth;                     /* open containers */
  char aKind[JSON_DEPTH_MAX];     /* '{' or '[' for each open container */
  char abMember[JSON_DEPTH_MAX];  /* 1 once that container has a member */
  int bKeyDone;                   /* a key was written; its value is due */
  int bRootDone;                  /* the top-level value is complete */
  int bMisuse;                    /* a call out of order; sticky */
};

void json_init(json_writer *w, strbuf *pOut);

void json_object_begin(json_writer *w);
void json_object_end(json_writer *w);
void json_array_begin(json_writer *w);
void json_array_end(json_writer *w);

/* Writes the key of the next member; only inside an object, once per
** value. */
void json_key(json_writer *w, const char *zKey);

/* A string value; NULL writes null. */
void json_string(json_writer *w, const char *z);
void json_string_n(json_writer *w, const char *z, size_t n);
void json_int(json_writer *w, int64_t v);
void json_uint(json_writer *w, uint64_t v);
/* The shortest decimal that reads back as v (strbuf_double: 50700000000,
** 0.001, 1e+300); NaN and the infinities, which JSON cannot say, are
** written as null. */
void json_double(json_writer *w, double v);
void json_bool(json_writer *w, int b);
void json_null(json_writer *w);

/* A member of an object in one call: json_key() and then the value. */
void json_field_string(json_writer *w, const char *zKey, const char *z);
void json_field_int(json_writer *w, const char *zKey, int64_t v);
void json_field_uint(json_writer *w, const char *zKey, uint64_t v);
void json_field_double(json_writer *w, const char *zKey, double v);
void json_field_bool(json_writer *w, const char *zKey, int b);

/* Returns 1 if a call was out of order or an allocation failed, else 0.
** After the top-level value is closed and json_error() is 0, the strbuf
** holds one complete JSON text. */
int json_error(const json_writer *w);

/* Appends the n bytes at z to pOut escaped as the inside of a JSON string
** (no quotes): for callers that build strings another way. */
void json_string_escape(strbuf *pOut, const char *z, size_t n);

#endif /* STARQ_JSON_H */
