/*
** runtime/scan-share.h — shared circular scans of streamed fact columns
** (issue 28; the work sharing of CJOIN and QPipe, and PostgreSQL's
** synchronized sequential scans, taken to the stride buffers of
** runtime/stride.h).
**
** Without sharing, every query that streams a fact table copies each of
** its strides into stride buffers of its own: 64 queries at once move 64
** times the bytes over PCIe. A shared scan copies each stride once into
** one set of buffers, and every query attached to it runs its own SCAN
** kernel over those buffers. The scan is circular: it goes round the
** table for as long as queries are attached; a newcomer is admitted at the
** next stride boundary and leaves after it has read every stride once
** (wrapping round to where it joined), so its answer is the one it gets
** alone (a SCAN keeps nothing between strides but what it accumulates,
** in any order of strides).
**
** The attached queries go in step: stride t is read by each of them, and
** once all have read it (their kernels finished), the set of buffers it
** was in takes stride t + 2 while they read t + 1 from the other set —
** the two-set pipeline of a lone scan (exec-scan.c), with one copy for
** all. A query needing a column the scan does not have widens it: the
** scan takes stride buffers for the column and copies it from the next
** stride on, the query is admitted at the first boundary whose stride
** holds all of its columns and wraps round to it. That serves every
** statement streaming a table with one pass over the union of their
** columns; waiting for the next pass instead would move no fewer bytes
** (a stride's copy holds only the columns of the queries that will read
** that stride) and would cost the newcomer up to a round. Only when no
** buffers are free at once does the query start a scan of its own;
** columns no attached query reads are not copied. A query that is cancelled or
** fails leaves at the boundary it is at, the others go on; the last to
** leave ends the scan and gives its buffers back.
**
** On CUDA a kernel reads a pinned buffer by zero-copy, over PCIe: each
** attached query's kernel would move the stride again. So a stride that
** two queries or more will read is copied once more, by DMA into the
** scan's device buffers (on the scan's stream, while the kernels of the
** stride before run), and their kernels read device memory.
**
** A lone query makes a scan others may join and runs it the same way as
** a scan of its own: one step per stride, zero-copy reads, no other waits.
**
** Columns pinned whole (within the pinned budget) are read in place by a
** lone statement; on CUDA, one that starts while another statement scans
** (scan_share_enter) streams them through a shared scan too, so that 64
** clients do not move 64 times the bytes over PCIe (exec-scan.c).
**
** Threads: every call may come from any thread (one mutex for all scans
** of a backend, held for bookkeeping only, never across a copy or a
** kernel).
**
** INTERFACE ROUTINES
**   scan_share_open     the registry of a backend's scans
**   scan_share_close
**   scan_share_stats_get   counters for /status and benchmarks
**   scan_share_enter    a statement scans: are others scanning too?
**   scan_share_exit
**   scan_share_attach   join a scan of these columns, or start one
**   scan_share_next     wait until the next stride is in its buffers
**   scan_share_prefetch copy the stride after it to the device
**   scan_share_arrive   this query has read the stride
**   scan_share_leave    stop before the scan has gone round
*/
#ifndef STARQ_SCAN_SHARE_H
#define STARQ_SCAN_SHARE_H

#include <stdint.h>

#include "../common/sqlerr.h"
#include "bufcache.h"
#include "colmem.h"
#include "cuda.h"
#include "stride.h"

/* Columns one scan streams at most (a SSB fact pass reads 6). */
#define SCAN_SHARE_COL_MAX 64

typedef struct scan_share scan_share;
typedef struct scan_share_scan scan_share_scan;

/* Counters since the registry was made; all monotonic. */
typedef struct scan_share_stats scan_share_stats;
struct scan_share_stats {
  uint64_t nScan;          /* scans started */
  uint64_t nAttach;        /* queries that joined a scan already going */
  uint64_t nWiden;         /* of them, the ones that added columns to it */
  uint64_t nStrideCopied;  /* strides copied into stride buffers */
  uint64_t nStrideShared;  /* of them, read by two queries or more */
  uint64_t nStrideRead;    /* stride reads by queries (kernels launched) */
  uint64_t nStrideStaged;  /* strides copied to device memory once for the
                           ** queries reading them (CUDA) */
  int nRunning;            /* scans going now */
  int nScanning;           /* statements between scan_share_enter and exit */
};

/* What one query asks of a scan: its streamed columns. aRef[i] are the
** query's references (it holds them for as long as it is attached); the
** scan takes a hold of its own on each (colmem) for its whole life. */
typedef struct scan_share_want scan_share_want;
struct scan_share_want {
  colmem *pMem;
  stride_pool *pPool;
  cuda_device *pDev;       /* CUDA: the device; NULL on the CPU */
  bufcache *pBufs;         /* CUDA: the backend's kept device buffers */
  int nCol;
  const colmem_ref *const *apRef; /* nCol distinct columns (pCol) */
  uint64_t nRow;           /* the table's rows */
  uint64_t nStrideRow;     /* rows a stride, when this query starts the scan */
};

/* One query's place in a scan, from scan_share_attach() to the
** scan_share_arrive() of its last stride or scan_share_leave(). Owned by
** the query (a stack variable); the scan links it while it waits to be
** admitted. Public, read-only: */
typedef struct scan_share_member scan_share_member;
struct scan_share_member {
  scan_share_scan *pScan;  /* NULL: not attached */
  uint64_t nStrideRow;     /* the scan's rows a stride */
  uint64_t nStride;        /* strides in a round */
  const stride_buf *aBuf;  /* the scan's: column i's set j is aBuf[2 * i + j] */
  const cuda_ptr *aDev;    /* the same in device memory, once a stride was
                           ** read there (scan_share_next), or NULL */
  int aiCol[SCAN_SHARE_COL_MAX];  /* want's column i is the scan's aiCol[i] */
  int bJoined;             /* joined a scan already going */
  int nWithMax;            /* the most other queries attached at a stride it read */
  uint64_t nStrideShared;  /* strides it read with other queries attached */
  /* private */
  uint64_t mCol;           /* the scan's columns it reads */
  uint64_t t, tEnd;        /* next stride (sequence number), and its end */
  int bAdmitted;
  scan_share_member *pNext;   /* the scan's pending list */
};

/* Makes an empty registry. Returns 0, or -1 (memory). */
int scan_share_open(scan_share **pp);

/* Frees the registry; no scan may be running. NULL is a no-op. */
void scan_share_close(scan_share *p);

void scan_share_stats_get(scan_share *p, scan_share_stats *pStats);

/* Counts a statement that scans a fact table now, shared or alone, until
** scan_share_exit; returns how many others do. */
int scan_share_enter(scan_share *p);
void scan_share_exit(scan_share *p);

/* Attaches m to a running scan whose columns include every one of pWant,
** waiting for its next stride boundary, or starts a scan of pWant's
** columns (taking its stride buffers: it may wait for them as
** stride_pool_take does). Returns 0 with m attached, or -1 with *pErr
** (53200: no buffers or memory). */
int scan_share_attach(scan_share *p, const scan_share_want *pWant, scan_share_member *m,
                      sql_error *pErr);

/* Waits until m's next stride is in the buffers and sets *piStride (the
** stride of the table, 0 .. nStride - 1), *piSet (its buffers' set, 0
** or 1) and *pbDevice (kernels read the set from aDev, else from aBuf).
** Returns 0, 1 when m has read every stride (m is detached), or
** -1 when the scan could not copy (memory): m must leave. */
int scan_share_next(scan_share *p, scan_share_member *m, uint64_t *piStride, int *piSet,
                    int *pbDevice);

/* While m's kernels read its stride: copies the next stride to the
** device if it is to be read there (CUDA), so that the copy over PCIe
** runs under the kernels. */
void scan_share_prefetch(scan_share *p, scan_share_member *m);

/* Says m's kernels over its current stride have finished (their reads of
** the buffers included). After its last stride, m is detached. */
void scan_share_arrive(scan_share *p, scan_share_member *m);

/* Detaches m before it has read every stride (a cancel, an error), with
** nothing of its reading the buffers any more. A detached m is a no-op. */
void scan_share_leave(scan_share *p, scan_share_member *m);

#endif /* STARQ_SCAN_SHARE_H */
