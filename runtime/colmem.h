/*
** runtime/colmem.h — where each column file's bytes are when kernels read
** them (DESIGN decision 7). One colmem per backend, shared by every query
** on it; a column is mapped once and stays in one of three places:
**
**   MAPPED    mapped pageable memory only: a SCAN streams it through the
**             pinned stride buffers of runtime/stride.h
**   PINNED    mapped and pinned whole (cuMemHostRegister of the file's
**             pages): kernels read it in place by zero-copy, and a stride
**             of it is an offset
**   RESIDENT  a copy in device memory (the device-resident cache): kernels
**             read device pointers. A FOR-bitpacked file is decoded on
**             its way there (colmem.c says why), and its bytes count at
**             the copy's size everywhere (budget, eviction, colmem_stats,
**             /status)
**
** Pinned budget: columns are pinned while the bytes pinned stay within
** it — all of them at start (colmem_preload, smallest tables first, so the
** dimensions always are), or at first use. Past it, a fact column read by
** a SCAN stays MAPPED and streams; a column that kernels read at random (a
** BUILD's dimension, a gather by row index) must be addressable whole, so
** it is pinned for as long as queries hold it and unpinned after.
**
** Device-resident cache: under its own byte budget. A column is copied to
** the device when a query that allows it (exec_options) reads it and it
** fits — outside the mutex, other queries asking for the same column
** waiting for that one copy; past the budget, resident columns no query
** holds are evicted in
** order of fewest bytes scanned through them, but only ones scanned less
** than the newcomer, so a cold column never pushes out a hot one. Device
** out of memory makes the copy give up: the column is read from the host.
** A FOR-bitpacked column scanned from host memory may keep its block
** directory in device memory under the same budget (colmem.c says why):
** colmem_ref.iDirAddr. On the CPU backend nothing is resident and pinning
** only counts bytes
** (the memory is already the kernels'): a budget of 0 makes scans stream,
** which is how the stride path is tested without a GPU.
**
** A context rebuilt after a GPU fault (cuda_device_recover) invalidates
** every registration and device copy: entries remember the epoch they
** were made in and are redone, never freed, when it has moved on.
**
** Generations: entries are keyed by the file's path, which names the
** table's generation; entries of a generation no longer current are
** dropped when no query holds them.
**
** Threads: every call may come from any thread (one mutex).
*/
#ifndef STARQ_COLMEM_H
#define STARQ_COLMEM_H

#include <stdint.h>

#include "../catalog/catalog.h"
#include "../common/sqlerr.h"
#include "cuda.h"

typedef struct colmem colmem;
typedef struct colmem_col colmem_col;

/* Budgets; a negative field takes its default. */
typedef struct colmem_options colmem_options;
struct colmem_options {
  int64_t nPinned;         /* bytes of column files pinned whole (half the
                           ** host's memory); 0 streams every fact column */
  int64_t nDevice;         /* bytes of device memory for resident columns
                           ** (60% of the device's memory); 0 keeps none */
};

typedef enum colmem_place {
  COLMEM_MAPPED = 0,
  COLMEM_PINNED,
  COLMEM_RESIDENT
} colmem_place;

/* How a query reads a column. */
typedef enum colmem_use {
  COLMEM_USE_SCAN = 0,     /* in row order by a SCAN: may stream */
  COLMEM_USE_WHOLE         /* at random (BUILD, gathers): addressable whole */
} colmem_use;

/* A column a query holds, from colmem_acquire() to colmem_release(). */
typedef struct colmem_ref colmem_ref;
struct colmem_ref {
  colmem_col *pCol;        /* NULL: nothing held */
  colmem_place ePlace;
  uint64_t iAddr;          /* where kernels read the payload whole; 0 if MAPPED */
  const void *pHost;       /* the payload in host memory */
  uint64_t nByte;          /* payload bytes */
  uint32_t nWidth;         /* bytes per value; 0 for a validity bitmap */
  int bPinnedNow;          /* pinned for this query only (over the budget) */
  store_enc eEnc;          /* FOR: the payload is a block directory of
                           ** nForDir bytes, then packed words (store.h) */
  uint64_t nForDir;
  uint64_t nRow;           /* rows (values or validity bits) */
  int bPlain;              /* RESIDENT copy of a FOR file, decoded: iAddr
                           ** points at nRow values nWidth bytes wide, not
                           ** at the payload (pHost, nByte, eEnc and
                           ** nForDir still describe the file's) */
  uint64_t iDirAddr;       /* a FOR file scanned from host memory (PINNED or
                           ** MAPPED): its directory's copy in device
                           ** memory (the payload's first nForDir bytes),
                           ** where kernels read it; 0: none, they read the
                           ** host's */
};

/* What the cache holds, for EXPLAIN, /status and benchmarks. */
typedef struct colmem_stats colmem_stats;
struct colmem_stats {
  int nCol;                /* columns mapped */
  uint64_t nPinned, nPinnedBudget;
  uint64_t nResident, nResidentBudget;
  uint64_t nHit;           /* acquisitions served from device memory */
  uint64_t nLoad;          /* columns copied to device memory */
  uint64_t nEvict;         /* columns evicted from it */
  uint64_t nLoadWait;      /* acquisitions that waited for another query's
                           ** copy of the same column rather than copy it */
  int eWarm;               /* COLMEM_WARM_*: the background warm-up */
  uint64_t nWarmDone, nWarmTotal;   /* its bytes of files done, of all */
};

/* The background warm-up of the device-resident cache (colmem-warm.c). */
enum { COLMEM_WARM_NONE = 0, COLMEM_WARM_RUNNING, COLMEM_WARM_DONE };
typedef struct colmem_warm colmem_warm;
typedef void (*colmem_warm_fn)(void *pArg);

/* Makes the colmem of a backend: pDev is the CUDA device, NULL on the CPU.
** Returns 0, or -1 with zErr. */
int colmem_open(cuda_device *pDev, const colmem_options *pOpt, colmem **pp, char *zErr,
                size_t nErr);

/* Frees everything; no column may be held. NULL is a no-op. */
void colmem_close(colmem *cm);

/* Maps and pins the columns of every table of pCat within the pinned
** budget, smallest tables first, showing progress on a terminal unless
** bQuiet. Returns the bytes pinned, or -1 with zErr. */
int64_t colmem_preload(colmem *cm, cat *pCat, int bQuiet, char *zErr, size_t nErr);

/* Starts copying the columns of every table of pCat to device memory in
** the background, smallest files first, within the free room of the
** device budget (evicting nothing); xDone(pArg), if not NULL, is called
** on that thread when it has gone through them all (not when stopped).
** Nothing to do on the CPU backend or with a device budget of 0. The
** warm-up stops with colmem_close. Returns 0, or -1 with zErr. */
int colmem_warm_start(colmem *cm, cat *pCat, colmem_warm_fn xDone, void *pArg, char *zErr,
                      size_t nErr);

/* Holds column iCol (its values, or its validity bitmap when eKind is
** STORE_VALIDITY) of the current generation of table t for one query,
** mapping, pinning or copying it to the device as the budgets allow.
** bResident: the query may read it from device memory. Returns 0 with
** *pRef set, or -1 with *pErr: 58030 when the file cannot be mapped,
** 53200 when pinning fails for lack of memory, XX000 for other failures. */
int colmem_acquire(colmem *cm, cat *pCat, const cat_table *t, int iCol, store_kind eKind,
                   colmem_use eUse, int bResident, colmem_ref *pRef, sql_error *pErr);

/* Takes one more hold on what pRef holds, for a copy of *pRef that is
** released on its own (a shared scan's, runtime/scan-share.h). */
void colmem_hold(colmem *cm, const colmem_ref *pRef);

/* Gives back what colmem_acquire() held; pRef->pCol NULL is a no-op. */
void colmem_release(colmem *cm, colmem_ref *pRef);

/* Drops every device copy no query holds (device memory is short).
** Returns the bytes freed. */
uint64_t colmem_evict_all(colmem *cm);

void colmem_stats_get(colmem *cm, colmem_stats *p);

/* Sets *pnPinned and *pnResident to the bytes of table iTable's columns
** pinned in host memory and resident in device memory now (/status). */
void colmem_table_bytes(colmem *cm, int64_t iTable, uint64_t *pnPinned, uint64_t *pnResident);

/* One table's bytes in the cache. */
typedef struct colmem_table_use colmem_table_use;
struct colmem_table_use {
  int64_t iTable;          /* the catalog's table id */
  uint64_t nPinned;        /* bytes pinned in host memory */
  uint64_t nResident;      /* bytes resident in device memory */
};

/* Fills a[0..nMax) with the tables that have a column mapped, in no
** particular order, and returns how many it wrote; tables past nMax are
** left out. */
int colmem_tables_get(colmem *cm, colmem_table_use *a, int nMax);

/* colmem-decode.c, for colmem.c: decodes the packed VALUES column m into
** device memory at xOut with a kernel: m->nRow values of m->nWidth bytes.
** Returns 0, or -1 with zErr (the caller then decodes on the host, unless
** the device is lost). */
int colmem__decode_device(cuda_device *d, const store_map *m, cuda_ptr xOut, char *zErr,
                          size_t nErr);

/* colmem-decode.c: the same as colmem__decode_device, decoded on the host
** and copied (the fallback). Same returns. */
int colmem__decode_host(cuda_device *d, const store_map *m, cuda_ptr xOut, char *zErr,
                        size_t nErr);

#endif /* STARQ_COLMEM_H */
