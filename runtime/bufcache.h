/*
** runtime/bufcache.h — device memory for one query's buffers (lookups,
** group tables, outputs), kept for the next query instead of freed.
**
** A query allocates and frees a dozen buffers; cuMemAlloc of a large one
** and cuMemFree (which waits for the device) cost tens to hundreds of
** microseconds each, more than a resident SSB kernel at SF 1. Freed
** buffers go to a free list by power-of-two size class and the next
** request of that class takes one back, up to a byte limit on what is
** kept. A context rebuilt after a fault (cuda_device_recover) took the
** memory with it: buffers of an older epoch are forgotten, never freed.
**
** Threads: every call may come from any thread (one mutex).
*/
#ifndef STARQ_BUFCACHE_H
#define STARQ_BUFCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "cuda.h"

typedef struct bufcache bufcache;

/* Makes the cache of device d, keeping at most nKeep bytes of free
** buffers. Returns 0, or -1 with zErr. */
int bufcache_open(cuda_device *d, uint64_t nKeep, bufcache **pp, char *zErr, size_t nErr);

/* Frees every kept buffer. NULL is a no-op. */
void bufcache_close(bufcache *c);

/* Gives a buffer of at least n bytes (*pnCap: its size class), not
** cleared. Returns 0, CUDA_ENOMEM, or -1 with zErr. */
int bufcache_alloc(bufcache *c, size_t n, cuda_ptr *p, size_t *pnCap, char *zErr, size_t nErr);

/* Takes back a buffer bufcache_alloc() gave in context iEpoch (p 0 is a
** no-op; a buffer of an older context is forgotten). */
void bufcache_free(bufcache *c, cuda_ptr p, size_t nCap, unsigned iEpoch);

/* Frees every kept buffer (device memory is short). Returns the bytes. */
uint64_t bufcache_trim(bufcache *c);

#endif /* STARQ_BUFCACHE_H */
