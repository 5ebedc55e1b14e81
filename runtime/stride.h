/*
** runtime/stride.h — the pool of pinned stride buffers and the threads
** that fill them (DESIGN decision 7; paper 003 §2.1, paper 002's 3-stage
** pipeline).
**
** A fact column that is not pinned whole (runtime/colmem.h: MAPPED) is
** read by a SCAN one stride at a time: while the GPU reads stride k of
** every such column by zero-copy from one set of pinned buffers, copier
** threads copy stride k+1 from the pageable mapping into the other set.
** Buffers have one fixed size (STRIDE_BYTES, 32 MiB, unless configured),
** are pinned once (malloc + cuMemHostRegister) when first needed, and are
** reused by every query; a query takes what it needs and waits when
** others hold them. A copy is cut into pieces that any copier thread —
** and the waiting caller itself — takes, so several cores share the
** memory bandwidth a stride needs.
**
** Threads: every call may come from any thread.
*/
#ifndef STARQ_STRIDE_H
#define STARQ_STRIDE_H

#include <stddef.h>
#include <stdint.h>

#include "../common/sqlerr.h"
#include "cuda.h"

#define STRIDE_BYTES ((int64_t)32 << 20)

typedef struct stride_pool stride_pool;

/* A negative field takes its default. */
typedef struct stride_options stride_options;
struct stride_options {
  int64_t nBufByte;        /* bytes per buffer (STRIDE_BYTES); a multiple of 4096 */
  int nBufMax;             /* buffers at most (64) */
  int nThread;             /* copier threads (half the CPUs, at most 8) */
};

typedef struct stride_buf stride_buf;
struct stride_buf {
  void *pHost;             /* where the host writes */
  uint64_t iAddr;          /* where kernels read it */
  int iSlot;               /* the pool's; -1: not taken */
};

/* One copy of the host's: n bytes from src to dst. */
typedef struct stride_piece stride_piece;
struct stride_piece {
  void *pDst;
  const void *pSrc;
  size_t n;
};

/* A set of copies in flight, from stride_copy_start() to stride_copy_wait().
** Owned by the caller (a stack variable); the pool links it while queued. */
typedef struct stride_copy stride_copy;
struct stride_copy {
  stride_piece *aPiece;    /* the pieces, cut to at most 1 MiB; owned */
  int nPiece, nAlloc;
  int iNext;               /* next piece to take; guarded by the pool's mutex */
  int nDone;               /* pieces finished; same */
  stride_copy *pNext;      /* the pool's queue; same */
};

/* Makes the pool of device pDev (NULL: the CPU backend, where buffers are
** plain memory). Returns 0, or -1 with zErr. */
int stride_pool_open(cuda_device *pDev, const stride_options *pOpt, stride_pool **pp,
                     char *zErr, size_t nErr);

/* Stops the copier threads and frees the buffers; none may be taken.
** NULL is a no-op. */
void stride_pool_close(stride_pool *p);

/* Bytes of one buffer. */
uint64_t stride_pool_buf_bytes(const stride_pool *p);

/* The most buffers one query can take. */
int stride_pool_buf_max(const stride_pool *p);

/* Takes n buffers into a, waiting while other queries hold them. Returns
** 0, or -1 with *pErr: 53200 when n is more than the pool has or pinning
** fails for lack of memory, XX000 for other device errors. */
int stride_pool_take(stride_pool *p, int n, stride_buf *a, sql_error *pErr);

/* The same without waiting: returns 1, nothing taken, when fewer than n
** are free now. */
int stride_pool_take_now(stride_pool *p, int n, stride_buf *a, sql_error *pErr);

/* Gives back what stride_pool_take() gave. */
void stride_pool_give(stride_pool *p, int n, stride_buf *a);

/* Adds the copy of n bytes from src to dst to c (c zeroed first). Returns
** 0, or -1 when memory runs out. */
int stride_copy_add(stride_copy *c, void *pDst, const void *pSrc, size_t n);

/* Starts c's copies on the copier threads. */
void stride_copy_start(stride_pool *p, stride_copy *c);

/* Takes a share of c's pieces and returns when every one is done; c may
** then be filled and started again. */
void stride_copy_wait(stride_pool *p, stride_copy *c);

/* Empties c for its next use; stride_copy_free() frees its pieces. */
void stride_copy_reset(stride_copy *c);
void stride_copy_free(stride_copy *c);

#endif /* STARQ_STRIDE_H */
