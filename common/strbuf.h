/*
** common/strbuf.h — a growable NUL-terminated string, appended to with
** printf-style calls: what EXPLAIN text and generated kernel source are
** written into.
**
** Errors are sticky, as in SQLite's StrAccum: once an allocation fails
** every later append does nothing and strbuf_error() says so, so a long
** run of appends needs one check at the end rather than one per call.
*/
#ifndef STARQ_STRBUF_H
#define STARQ_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf strbuf;
struct strbuf {
  char *z;                 /* the text, NUL-terminated when n > 0 or nAlloc > 0; owned */
  size_t n;                /* bytes, without the NUL */
  size_t nAlloc;
  int bOom;                /* an allocation failed; appends are ignored */
};

void strbuf_init(strbuf *s);
void strbuf_free(strbuf *s);

/* Empties s, keeping its memory and clearing an error. */
void strbuf_reset(strbuf *s);

void strbuf_append(strbuf *s, const char *z, size_t n);
void strbuf_puts(strbuf *s, const char *z);
void strbuf_printf(strbuf *s, const char *zFmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vprintf(strbuf *s, const char *zFmt, va_list ap);

/* Appends the shortest decimal text that reads back as the same double,
** in plain notation for exponents -4..14 ("0.1", "2.5", "50700000000",
** "0.0001") and scientific past them ("1e-05", "1e+15"), as PostgreSQL
** prints float8: for v finite only, since each format spells NaN and the
** infinities its own way. */
void strbuf_double(strbuf *s, double v);

/* Appends n copies of byte c (indentation). */
void strbuf_repeat(strbuf *s, char c, size_t n);

/* Returns 1 if an append failed. */
static inline int strbuf_error(const strbuf *s) { return s->bOom; }

/* The text so far: never NULL ("" when empty). */
const char *strbuf_str(const strbuf *s);

/* Hands the text over (the caller frees it; NULL after an error) and
** leaves s empty. */
char *strbuf_take(strbuf *s);

#endif /* STARQ_STRBUF_H */
