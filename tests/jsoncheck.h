/*
** tests/jsoncheck.h — a strict JSON validator for tests: RFC 8259's
** grammar, whole text, with strings checked to be well-formed UTF-8 and
** free of raw control bytes. Written apart from common/json.c so that it
** checks the writer rather than agreeing with it.
*/
#ifndef STARQ_TEST_JSONCHECK_H
#define STARQ_TEST_JSONCHECK_H

#include <stddef.h>

/* Returns 0 if the n bytes at z are exactly one JSON value (with optional
** whitespace around it), else -1 with where and why in zErr. */
int jsoncheck(const char *z, size_t n, char *zErr, size_t nErr);

/* Finds the value of "key" at depth 1 of the object z and copies its raw
** text (a number, true, a quoted string as written) into zOut. Returns 0,
** or -1 if there is no such key. For spot checks after jsoncheck(). */
int jsoncheck_member(const char *z, const char *zKey, char *zOut, size_t nOut);

#endif /* STARQ_TEST_JSONCHECK_H */
