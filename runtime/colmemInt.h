/*
** runtime/colmemInt.h — what the column cache's own files share beyond
** runtime/colmem.h (colmem.c owns the cache; colmem-preload.c fills it at
** start).
*/
#ifndef STARQ_COLMEM_INT_H
#define STARQ_COLMEM_INT_H

#include <stdatomic.h>

#include "colmem.h"

/* Pins file zPath (kind eKind of table t) under the cache's lock: found or
** added, brought to t's generation, pinned within the budget. Returns 0
** with *pnPinned the cache's pinned bytes after it, or -1 with zErr. */
int colmem__pin_file(colmem *cm, const cat_table *t, const char *zPath, store_kind eKind,
                     uint64_t *pnPinned, char *zErr, size_t nErr);

/* colmem-warm.c's calls into the cache (colmem.c): whether a warm-up can
** do anything (a device and a device budget); hands the running warm-up
** to the cache, which stops it on close (-1: one is there already);
** copies file zPath of table t to device memory if the free room allows
** (1 copied, 0 not or there already, -1 with zErr: the file or the
** device failed). */
int colmem__warm_wanted(colmem *cm);
/* Waits until no query has been copying a column to the device for a
** moment (or *pbStop): a first query after a start shares the link with
** the one warm-up file in flight when it began, at most. */
void colmem__warm_yield(colmem *cm, atomic_int *pbStop);
int colmem__warm_set(colmem *cm, colmem_warm *w);
int colmem__warm_file(colmem *cm, const cat_table *t, const char *zPath, store_kind eKind,
                      char *zErr, size_t nErr);

/* colmem-warm.c's, for colmem.c: stop (between two files) and free a
** warm-up (NULL: nothing); its progress into *p. */
void colmem__warm_stop(colmem_warm *w);
void colmem__warm_stats(colmem_warm *w, colmem_stats *p);

#endif
