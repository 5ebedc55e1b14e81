/*
** runtime/colmemInt.h — what the column cache's own files share beyond
** runtime/colmem.h (colmem.c owns the cache; colmem-preload.c fills it at
** start).
*/
#ifndef STARQ_COLMEM_INT_H
#define STARQ_COLMEM_INT_H

#include "colmem.h"

/* Pins file zPath (kind eKind of table t) under the cache's lock: found or
** added, brought to t's generation, pinned within the budget. Returns 0
** with *pnPinned the cache's pinned bytes after it, or -1 with zErr. */
int colmem__pin_file(colmem *cm, const cat_table *t, const char *zPath, store_kind eKind,
                     uint64_t *pnPinned, char *zErr, size_t nErr);

#endif
