/*
** runtime/execInt.h — what exec.c hands result.c.
*/
#ifndef STARQ_EXEC_INT_H
#define STARQ_EXEC_INT_H

#include "exec.h"

/* Builds *pRes from the nRow raw output rows (apOut[i]: 8-byte values of
** output i, apNull[i] its NULL flags): sorts by g's ORDER BY, applies
** OFFSET and LIMIT, drops hidden columns, maps dictionaries of string
** columns. Returns 0, or -1 with *pErr set. */
int exec__result_build(cat *pCat, const plan *p, const cg_program *g, const void *const *apOut,
                       const uint8_t *const *apNull, uint64_t nRow, exec_result *pRes,
                       sql_error *pErr);

#endif /* STARQ_EXEC_INT_H */
