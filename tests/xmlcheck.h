/*
** tests/xmlcheck.h — a strict XML 1.0 well-formedness check for tests
** (starq-bench's SVG charts): one root element, every tag closed in
** order, attributes quoted and not repeated, '&' only in a known entity or
** a character reference, '<' never in text or attribute values, no
** control characters, valid UTF-8. No DTD (a DOCTYPE is refused), no
** namespaces checked. Written apart from what it checks, so it does not
** share that code's mistakes.
*/
#ifndef STARQ_TEST_XMLCHECK_H
#define STARQ_TEST_XMLCHECK_H

#include <stddef.h>

/* Returns 0 if the n bytes at z are one well-formed XML document, else -1
** with where and why in zErr ("at byte 17: </g> closes <text>"). */
int xmlcheck(const char *z, size_t n, char *zErr, size_t nErr);

#endif /* STARQ_TEST_XMLCHECK_H */
