/*
** runtime/colmem.c — the column cache of runtime/colmem.h: mapping,
** pinning within the pinned budget, the device-resident copies and their
** eviction, and forgetting what a rebuilt context invalidated.
**
** Resident copies are decoded. A FOR-bitpacked value file
** (storage/colfor.c) is copied to the device decoded — the type's width a
** row, as a plain file's payload — and counted against the device budget
** at that size: in
** device memory (~3 TB/s) reading 4 plain bytes a row is cheaper than the
** SCAN's decode (a dependent directory load, then the packed words and
** 64-bit shifts per item), which made resident SSB at SF 20 1.3-2x slower
** per query (bench/RESULTS.md). Pinned and streamed columns stay packed:
** there the bytes crossing PCIe are what costs. The decode runs on the
** GPU (colmem-decode.c): the packed payload is copied to a scratch buffer
** and a kernel writes the plain values with the SCAN's own decoder, so a
** load costs about the packed copy. Should that fail (short of a lost
** device), the host decodes it (colmem__decode_host) with store_for_get,
** the reference decoder — about 3 ns a row (~0.4 s for a 120M-row column
** at SF 20).
**
** Loading a column (the copy, or the decode) runs outside the mutex: the
** first queries of a cold server, each loading its own columns, would
** otherwise queue behind one another's copies, and a query whose columns
** are resident already would wait for a stranger's. The column is marked
** loading (colmem_col.bLoading) and held by the loader meanwhile, with its
** bytes reserved in the budget; a query that wants the same column waits
** for that load (cvLoad) rather than copying it a second time, and
** neither eviction nor the dropping of old generations touches a column
** being loaded or held. Device memory an eviction frees is freed after
** the mutex is released too (cuMemFree may wait for the device).
**
** Directory copies. A packed column read from host memory (pinned or
** streamed) keeps its block directory — 16 bytes a 128-row block, 1/8 of
** a byte a row — in device memory when the device budget has free room
** for it: every packed value's decode reads its block's entry before its
** words, so the first of those two dependent reads becomes a device-memory
** one (~0.5 us) instead of a second PCIe round trip (1-2 us), and the
** entries stop crossing PCIe. The copy is counted in the device budget but
** takes only free room: a resident copy that needs room drops unheld
** directories first, and a column that becomes resident drops its own
** (its plain copy needs none); nEvict counts resident copies only. It is
** made outside the mutex as a resident copy is (bLoading), and whatever
** the session's starq.resident says: like a dimension's lookup it is an
** index of what streams, not the column.
**
** INTERFACE ROUTINES
**   colmem_open, colmem_close
**   colmem_acquire, colmem_hold, colmem_release, colmem_evict_all
**   colmem_stats_get, colmem_table_bytes, colmem_tables_get
**   colmem__pin_file   one file pinned (colmem-preload.c, at start)
**   colmem__warm_*     the warm-up's calls (colmem-warm.c)
*/
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/log.h"
#include "../common/timer.h"
#include "colmem.h"
#include "colmemInt.h"

/* Device copies are allocated in these units, so the budget counts what
** the allocator really takes. */
#define COLMEM_DEV_ALIGN 512

struct colmem_col {
  char *zPath;             /* the file; the key; owned */
  int64_t iTable, iGen;    /* whose generation it is */
  store_map m;             /* the mapping; owned */
  uint64_t nReg;           /* bytes a pin registers: whole pages of the mapping */
  int bPinned;             /* within the budget, until closed */
  int bPinnedTemp;         /* over the budget, while nRef > 0 */
  unsigned iPinEpoch;      /* the context the registration belongs to */
  cuda_ptr iPinDev;        /* where the device sees m.pMap (CUDA) */
  int bRefused;            /* the driver would not pin it (in iRefusedEpoch):
                           ** not asked again by every query */
  unsigned iRefusedEpoch;
  cuda_ptr iDev;           /* the resident copy, or 0: plain values even
                           ** when the file is FOR-bitpacked */
  uint64_t nDev;           /* its bytes as counted against the budget */
  unsigned iDevEpoch;
  cuda_ptr iDir;           /* a packed column not resident: its directory
                           ** copied to the device, or 0 */
  uint64_t nDir;           /* its bytes as counted against the budget */
  unsigned iDirEpoch;
  uint64_t nScanned;       /* bytes read through this column by queries,
                           ** counted at its copy's size (colmem_dev_bytes:
                           ** decoded values), so that how well
                           ** its file packs does not make it look colder
                           ** to the eviction */
  int bLoading;            /* a query is copying it (or its directory) to
                           ** the device, outside the mutex (and holds it
                           ** meanwhile) */
  int nRef;                /* queries holding it (a loader included) */
  colmem_col *pNext;
};

struct colmem {
  cuda_device *pDev;       /* NULL: the CPU backend */
  pthread_mutex_t mu;      /* guards everything below */
  pthread_cond_t cvLoad;   /* broadcast when a load ends */
  uint64_t nPinnedBudget, nDevBudget;
  uint64_t nPinned, nResident;   /* nResident: loads in progress included */
  colmem_col *pList;
  int nCol;
  uint64_t nHit, nLoad, nEvict, nLoadWait;
  colmem_warm *pWarm;      /* the background warm-up, or NULL */
  int nQueryLoad;          /* queries in colmem_load: the warm-up waits for
                           ** them to end before its next file ... */
  double tQueryLoad;       /* ... and for a quiet moment after the last one
                           ** (timer_now()), since a query acquires its
                           ** columns one after another */
};

/* How long no query may have copied a column before the warm-up copies
** its next file: longer than the gap between one query's acquisitions. */
#define COLMEM_WARM_QUIET_SECONDS 0.005

/* Device copies an eviction took from the cache, freed once the mutex is
** released. */
#define COLMEM_FREES_MAX 16
typedef struct colmem_frees colmem_frees;
struct colmem_frees {
  int n;
  cuda_ptr a[COLMEM_FREES_MAX];
};

static unsigned colmem_epoch(const colmem *cm) {
  return cm->pDev != NULL ? cuda_device_epoch(cm->pDev) : 0;
}

static uint64_t colmem_host_bytes(void) {
  long nPage = sysconf(_SC_PHYS_PAGES), nSize = sysconf(_SC_PAGESIZE);
  return nPage > 0 && nSize > 0 ? (uint64_t)nPage * (uint64_t)nSize : (uint64_t)8 << 30;
}

int colmem_open(cuda_device *pDev, const colmem_options *pOpt, colmem **pp, char *zErr,
                size_t nErr) {
  colmem *cm = calloc(1, sizeof(*cm));
  *pp = NULL;
  if (cm == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  cm->pDev = pDev;
  cm->nPinnedBudget = pOpt != NULL && pOpt->nPinned >= 0 ? (uint64_t)pOpt->nPinned
                                                         : colmem_host_bytes() / 2;
  if (pOpt != NULL && pOpt->nDevice >= 0) {
    cm->nDevBudget = (uint64_t)pOpt->nDevice;
  } else if (pDev != NULL) {
    cm->nDevBudget = cuda_device_info_get(pDev)->nGlobal / 10 * 6;
  }
  if (pDev == NULL) cm->nDevBudget = 0;
  if (pthread_mutex_init(&cm->mu, NULL) != 0) {
    free(cm);
    snprintf(zErr, nErr, "pthread_mutex_init failed");
    return -1;
  }
  if (pthread_cond_init(&cm->cvLoad, NULL) != 0) {
    pthread_mutex_destroy(&cm->mu);
    free(cm);
    snprintf(zErr, nErr, "pthread_cond_init failed");
    return -1;
  }
  *pp = cm;
  return 0;
}

/* ---- one column's states --------------------------------------------------- */

static int colmem_pin_valid(const colmem *cm, const colmem_col *c) {
  return (c->bPinned || c->bPinnedTemp) && (cm->pDev == NULL || c->iPinEpoch == colmem_epoch(cm));
}

static int colmem_dev_valid(const colmem *cm, const colmem_col *c) {
  return c->iDev != 0 && c->iDevEpoch == colmem_epoch(cm);
}

static int colmem_dir_valid(const colmem *cm, const colmem_col *c) {
  return c->iDir != 0 && c->iDirEpoch == colmem_epoch(cm);
}

/* Registers c's pages with the device (nothing to do on the CPU). A
** refusal that is not for memory (a file system whose pages cannot be
** pinned) is remembered for the context's life, so the scans that stream
** the column instead do not pay for a failing registration each time.
** Returns 0, CUDA_ENOMEM or -1 with zErr. */
static int colmem_register(colmem *cm, colmem_col *c, char *zErr, size_t nErr) {
  int rc;
  if (cm->pDev == NULL) return 0;
  if (c->bRefused && c->iRefusedEpoch == colmem_epoch(cm)) {
    snprintf(zErr, nErr, "the driver refused to pin %s before", c->zPath);
    return -1;
  }
  rc = cuda_host_register(cm->pDev, c->m.pMap, c->nReg, &c->iPinDev, zErr, nErr);
  if (rc == 0) {
    c->iPinEpoch = colmem_epoch(cm);
  } else if (rc != CUDA_ENOMEM && !cuda_device_lost(cm->pDev)) {
    c->bRefused = 1;
    c->iRefusedEpoch = colmem_epoch(cm);
  }
  return rc;
}

static void colmem_unregister(colmem *cm, colmem_col *c) {
  if (cm->pDev != NULL && colmem_pin_valid(cm, c)) cuda_host_unregister(cm->pDev, c->m.pMap);
  if (c->bPinned) cm->nPinned -= c->nReg;
  c->bPinned = c->bPinnedTemp = 0;
  c->iPinDev = 0;
}

/* Drops the device copy *px of *pn budget bytes (a column's resident copy
** or its directory's). Only a copy of the current context (bValid) is
** freed: a rebuild took the others along. With pFrees (the mutex held),
** the memory is freed by colmem_frees_run() after the mutex is released;
** without, now. */
static void colmem_copy_drop(colmem *cm, cuda_ptr *px, uint64_t *pn, int bValid,
                             colmem_frees *pFrees) {
  if (*px == 0) return;
  if (bValid) {
    if (pFrees != NULL && pFrees->n < COLMEM_FREES_MAX) pFrees->a[pFrees->n++] = *px;
    else cuda_mem_free(cm->pDev, *px);
  }
  cm->nResident -= *pn;
  *px = 0;
  *pn = 0;
}

/* Drops c's resident copy / its directory copy (colmem_copy_drop). */
static void colmem_dev_free(colmem *cm, colmem_col *c, colmem_frees *pFrees) {
  colmem_copy_drop(cm, &c->iDev, &c->nDev, colmem_dev_valid(cm, c), pFrees);
}

static void colmem_dir_free(colmem *cm, colmem_col *c, colmem_frees *pFrees) {
  colmem_copy_drop(cm, &c->iDir, &c->nDir, colmem_dir_valid(cm, c), pFrees);
}

/* Forgets registrations and copies of an older context: the rebuild took
** them with it, so nothing is freed, only the counts. */
static void colmem_col_refresh(colmem *cm, colmem_col *c) {
  if ((c->bPinned || c->bPinnedTemp) && !colmem_pin_valid(cm, c)) {
    if (c->bPinned) cm->nPinned -= c->nReg;
    c->bPinned = c->bPinnedTemp = 0;
    c->iPinDev = 0;
  }
  if (!colmem_dev_valid(cm, c)) colmem_dev_free(cm, c, NULL);   /* frees nothing: stale */
  if (!colmem_dir_valid(cm, c)) colmem_dir_free(cm, c, NULL);
}

/* Frees the device copies colmem_dev_free() set aside (no mutex held). */
static void colmem_frees_run(colmem *cm, colmem_frees *pFrees) {
  for (int i = 0; i < pFrees->n; i++) cuda_mem_free(cm->pDev, pFrees->a[i]);
  pFrees->n = 0;
}

/* Ends one hold of c (a query's, or a loader's). Called with the mutex
** held. */
static void colmem_unhold(colmem *cm, colmem_col *c) {
  if (--c->nRef == 0 && c->bPinnedTemp) colmem_unregister(cm, c);
}

static void colmem_col_free(colmem *cm, colmem_col *c) {
  colmem_dir_free(cm, c, NULL);
  colmem_dev_free(cm, c, NULL);
  colmem_unregister(cm, c);
  store_map_close(&c->m);
  free(c->zPath);
  free(c);
}

/* Pins c within the budget if it fits. Returns 1 pinned, 0 not (over the
** budget, or the driver refused: zWhy says why), -1 for a lost device. */
static int colmem_pin(colmem *cm, colmem_col *c, char *zWhy, size_t nWhy) {
  int rc;
  if (colmem_pin_valid(cm, c)) return 1;
  if (cm->nPinned + c->nReg > cm->nPinnedBudget) {
    snprintf(zWhy, nWhy, "over the pinned budget");
    return 0;
  }
  if ((rc = colmem_register(cm, c, zWhy, nWhy)) != 0) {
    return cm->pDev != NULL && cuda_device_lost(cm->pDev) ? -1 : 0;
  }
  c->bPinned = 1;
  cm->nPinned += c->nReg;
  return 1;
}

/* ---- the resident cache ------------------------------------------------------ */

/* Makes room for nNeed more bytes of a resident copy: drops the directory
** copies no query holds (small, and made again where there is room), then
** evicts unheld resident columns scanned less than nScore, fewest bytes
** scanned first, their memory set aside in pFrees. Returns 1 if they fit. */
static int colmem_make_room(colmem *cm, uint64_t nNeed, uint64_t nScore, colmem_frees *pFrees) {
  for (colmem_col *c = cm->pList; c != NULL && cm->nResident + nNeed > cm->nDevBudget; c = c->pNext) {
    if (c->nRef == 0) colmem_dir_free(cm, c, pFrees);
  }
  while (cm->nResident + nNeed > cm->nDevBudget) {
    colmem_col *pVictim = NULL;
    for (colmem_col *c = cm->pList; c != NULL; c = c->pNext) {
      if (c->iDev == 0 || c->nRef > 0 || c->nScanned >= nScore) continue;
      if (pVictim == NULL || c->nScanned < pVictim->nScanned) pVictim = c;
    }
    if (pVictim == NULL) return 0;
    colmem_dev_free(cm, pVictim, pFrees);
    cm->nEvict++;
  }
  return 1;
}

/* 1 if c's resident copy is its values decoded (the file is FOR-bitpacked). */
static int colmem_dev_plain(const colmem_col *c) {
  return c->m.eKind == STORE_VALUES && store_enc_packed(c->m.eEnc);
}

/* Bytes of c's resident copy: decoded values, else the payload. */
static uint64_t colmem_dev_bytes(const colmem_col *c) {
  return colmem_dev_plain(c) ? c->m.nRow * c->m.nWidth : c->m.nPayload;
}

/* Allocates nNeed bytes of device memory and copies c there (decoded
** when FOR-bitpacked). Called without the mutex. Returns 0 with *px, or
** -1 with zErr. */
static int colmem_copy(colmem *cm, colmem_col *c, uint64_t nNeed, cuda_ptr *px, char *zErr,
                       size_t nErr) {
  cuda_ptr x;
  int rc;
  if (cuda_mem_alloc(cm->pDev, nNeed, &x, zErr, nErr) != 0) return -1;
  if (colmem_dev_plain(c)) {
    /* On the GPU first: the packed bytes cross PCIe and a kernel decodes
    ** them (colmem-decode.c); the host decode stays as the fallback. */
    rc = colmem__decode_device(cm->pDev, &c->m, x, zErr, nErr);
    if (rc < 0 && !cuda_device_lost(cm->pDev)) {
      log_printf(LOG_LEVEL_WARN, "colmem: %s decoded on the host: %s", c->zPath, zErr);
      rc = colmem__decode_host(cm->pDev, &c->m, x, zErr, nErr);
    }
  } else {
    rc = cuda_mem_write(cm->pDev, x, c->m.aData, c->m.nPayload, zErr, nErr);
  }
  if (rc != 0) {
    cuda_mem_free(cm->pDev, x);
    return -1;
  }
  *px = x;
  return 0;
}

/* Copies c's directory (the payload's first nForDir bytes) to nNeed bytes
** of new device memory, as colmem_copy() copies its values. */
static int colmem_dir_copy(colmem *cm, colmem_col *c, uint64_t nNeed, cuda_ptr *px, char *zErr,
                           size_t nErr) {
  if (cuda_mem_alloc(cm->pDev, nNeed, px, zErr, nErr) != 0) return -1;
  if (cuda_mem_write(cm->pDev, *px, c->m.aData, c->m.nForDir, zErr, nErr) != 0) {
    cuda_mem_free(cm->pDev, *px);
    return -1;
  }
  return 0;
}

/* Waits (the mutex held) until no query is loading c. */
static void colmem_load_wait(colmem *cm, colmem_col *c) {
  if (!c->bLoading) return;
  cm->nLoadWait++;
  c->nRef++;                  /* the mutex is let go: nothing may drop c */
  while (c->bLoading) pthread_cond_wait(&cm->cvLoad, &cm->mu);
  colmem_unhold(cm, c);
}

/* Frees pFrees' memory outside the mutex (held on entry and on return),
** c held meanwhile: its caller has not taken its own hold yet, and a
** query of a newer generation would drop an unheld c (colmem_drop_stale). */
static void colmem_frees_run_held(colmem *cm, colmem_col *c, colmem_frees *pFrees) {
  if (pFrees->n == 0) return;
  c->nRef++;
  pthread_mutex_unlock(&cm->mu);
  colmem_frees_run(cm, pFrees);
  pthread_mutex_lock(&cm->mu);
  colmem_unhold(cm, c);
}

/* Runs xCopy (colmem_copy or colmem_dir_copy) for nNeed bytes of c
** outside the mutex, which is held on entry and on return: the bytes
** reserved in the budget, c held and marked loading meanwhile, so others
** wait for this copy and nothing frees the column or its mapping; then
** pFrees' memory is freed too. Returns 0 with *px and *piEpoch (the
** context the copy belongs to), or -1 with zErr and the reservation
** undone. */
typedef int (*colmem_copy_fn)(colmem *, colmem_col *, uint64_t, cuda_ptr *, char *, size_t);
static int colmem_copy_unlocked(colmem *cm, colmem_col *c, uint64_t nNeed, colmem_copy_fn xCopy,
                                colmem_frees *pFrees, cuda_ptr *px, unsigned *piEpoch,
                                char *zErr, size_t nErr) {
  int rc;
  c->bLoading = 1;
  c->nRef++;
  cm->nResident += nNeed;
  *piEpoch = colmem_epoch(cm);
  pthread_mutex_unlock(&cm->mu);
  colmem_frees_run(cm, pFrees);
  rc = xCopy(cm, c, nNeed, px, zErr, nErr);
  pthread_mutex_lock(&cm->mu);
  c->bLoading = 0;
  colmem_unhold(cm, c);
  pthread_cond_broadcast(&cm->cvLoad);
  if (rc != 0) cm->nResident -= nNeed;
  return rc;
}

/* Copies c to device memory (decoded when FOR-bitpacked) if the budget
** (after evictions) and the device allow (bForce: whatever the budget
** says). Called with the mutex held, which it releases during the copy;
** when another query is loading c already, waits for that load instead.
** Returns 2 already resident, 1 copied now, 0 not (out of room or device
** memory: read it from the host), -1 with zErr when the device is lost. */
static int colmem_load(colmem *cm, colmem_col *c, int bForce, char *zErr, size_t nErr) {
  uint64_t nNeed = (colmem_dev_bytes(c) + COLMEM_DEV_ALIGN - 1) / COLMEM_DEV_ALIGN * COLMEM_DEV_ALIGN;
  colmem_frees frees = {0};
  cuda_ptr x = 0;
  unsigned iEpoch;
  int rc;
  colmem_load_wait(cm, c);
  if (colmem_dev_valid(cm, c)) return 2;
  if (cm->pDev == NULL) return 0;
  if (!bForce && (nNeed > cm->nDevBudget || !colmem_make_room(cm, nNeed, c->nScanned, &frees))) {
    colmem_frees_run_held(cm, c, &frees);
    return 0;
  }
  if ((rc = colmem_copy_unlocked(cm, c, nNeed, colmem_copy, &frees, &x, &iEpoch, zErr, nErr)) != 0) {
    return cuda_device_lost(cm->pDev) ? -1 : 0;
  }
  c->iDev = x;
  c->nDev = nNeed;
  c->iDevEpoch = iEpoch;
  cm->nLoad++;
  /* The plain copy needs no directory; but a query that holds c streamed
  ** may read this one (its colmem_ref.iDirAddr) until its hold ends, so a
  ** held one stays until colmem_make_room drops it unheld. */
  if (c->nRef == 0) colmem_dir_free(cm, c, NULL);
  return 1;
}

/* Copies packed column c's directory to device memory if it fits in the
** budget's free room (it evicts nothing: resident copies are worth more a
** byte, and make room by dropping directories) and the device allows.
** Called with the mutex held, which it releases during the copy, as
** colmem_load() does. Returns 2 already there, 1 copied now, 0 not (no
** device, not packed, no room or device memory), -1 with zErr when the
** device is lost. */
static int colmem_dir_load(colmem *cm, colmem_col *c, char *zErr, size_t nErr) {
  uint64_t nNeed = (c->m.nForDir + COLMEM_DEV_ALIGN - 1) / COLMEM_DEV_ALIGN * COLMEM_DEV_ALIGN;
  colmem_frees frees = {0};
  cuda_ptr x = 0;
  unsigned iEpoch;
  colmem_load_wait(cm, c);
  if (colmem_dir_valid(cm, c)) return 2;
  if (cm->pDev == NULL || !colmem_dev_plain(c) || c->m.nForDir == 0) return 0;
  if (cm->nResident + nNeed > cm->nDevBudget) return 0;
  if (colmem_copy_unlocked(cm, c, nNeed, colmem_dir_copy, &frees, &x, &iEpoch, zErr, nErr) != 0) {
    return cuda_device_lost(cm->pDev) ? -1 : 0;
  }
  c->iDir = x;
  c->nDir = nNeed;
  c->iDirEpoch = iEpoch;
  return 1;
}

/* ---- finding and mapping ------------------------------------------------------ */

/* Drops unheld entries of table iTable's other generations. */
static void colmem_drop_stale(colmem *cm, int64_t iTable, int64_t iGen) {
  for (colmem_col **pp = &cm->pList; *pp != NULL;) {
    colmem_col *c = *pp;
    if (c->iTable == iTable && c->iGen != iGen && c->nRef == 0) {
      *pp = c->pNext;
      cm->nCol--;
      colmem_col_free(cm, c);
    } else {
      pp = &c->pNext;
    }
  }
}

/* Finds or maps the entry of zPath. Returns it, or NULL with zErr. */
static colmem_col *colmem_find(colmem *cm, const cat_table *t, const char *zPath, store_kind eKind,
                               char *zErr, size_t nErr) {
  size_t nPage = (size_t)sysconf(_SC_PAGESIZE);
  colmem_col *c;
  for (c = cm->pList; c != NULL; c = c->pNext) {
    if (strcmp(c->zPath, zPath) == 0) return c;
  }
  colmem_drop_stale(cm, t->iId, t->iGen);
  if ((c = calloc(1, sizeof(*c))) == NULL || (c->zPath = strdup(zPath)) == NULL) {
    free(c);
    snprintf(zErr, nErr, "out of memory");
    return NULL;
  }
  if (store_map_open(&c->m, zPath, eKind, 0, zErr, nErr) != 0) {
    free(c->zPath);
    free(c);
    return NULL;
  }
  /* Whole pages: a mapping is page-aligned and its last page is mapped
  ** to its end (the bytes past the file read as zero). */
  c->nReg = (c->m.nMap + nPage - 1) / nPage * nPage;
  c->iTable = t->iId;
  c->iGen = t->iGen;
  c->pNext = cm->pList;
  cm->pList = c;
  cm->nCol++;
  return c;
}

static uint64_t colmem_pin_addr(const colmem *cm, const colmem_col *c) {
  size_t nOff = (size_t)((const char *)c->m.aData - (const char *)c->m.pMap);
  return cm->pDev == NULL ? (uint64_t)(uintptr_t)c->m.aData : c->iPinDev + nOff;
}

/* Sets *pErr from a failure of the device or of pinning (CUDA_ENOMEM). */
static int colmem_fail(colmem *cm, int rc, const colmem_col *c, const char *zErr,
                       sql_error *pErr) {
  if (rc == CUDA_ENOMEM) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory pinning %s: %s", c->zPath, zErr);
  } else if (cm->pDev != NULL && cuda_device_lost(cm->pDev)) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "CUDA: %s", zErr);
  } else {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "cannot make %s readable by the GPU: %s",
                  c->zPath, zErr);
  }
  return -1;
}

/* colmem_load for a query: counted in nQueryLoad meanwhile, so that the
** warm-up leaves the link to the query's copies (colmem__warm_yield). */
static int colmem_query_load(colmem *cm, colmem_col *c, int bForce, char *zErr, size_t nErr) {
  int rc;
  cm->nQueryLoad++;
  rc = colmem_load(cm, c, bForce, zErr, nErr);
  cm->tQueryLoad = timer_now();
  if (--cm->nQueryLoad == 0) pthread_cond_broadcast(&cm->cvLoad);
  return rc;
}

/* Decides where c is read from for one query (the mutex held). */
static int colmem_place_col(colmem *cm, colmem_col *c, colmem_use eUse, int bResident,
                            colmem_ref *pRef, sql_error *pErr) {
  char zErr[512] = "";
  int rc;
  colmem_col_refresh(cm, c);
  c->nScanned += colmem_dev_bytes(c);
  if (bResident && (rc = colmem_query_load(cm, c, 0, zErr, sizeof(zErr))) != 0) {
    if (rc < 0) return colmem_fail(cm, -1, c, zErr, pErr);
    if (rc == 2) cm->nHit++;
    pRef->ePlace = COLMEM_RESIDENT;
    pRef->iAddr = c->iDev;
    return 0;
  }
  if ((rc = colmem_pin(cm, c, zErr, sizeof(zErr))) < 0) return colmem_fail(cm, -1, c, zErr, pErr);
  if (rc == 0 && eUse == COLMEM_USE_WHOLE) {
    /* Read at random, so it cannot stream: pinned while held, or copied
    ** to the device when the driver will not pin its pages. */
    if (!c->bPinnedTemp && (rc = colmem_register(cm, c, zErr, sizeof(zErr))) != 0) {
      if (rc == CUDA_ENOMEM || cuda_device_lost(cm->pDev)) return colmem_fail(cm, rc, c, zErr, pErr);
      if ((rc = colmem_query_load(cm, c, 1, zErr, sizeof(zErr))) <= 0) {
        return colmem_fail(cm, rc < 0 ? -1 : CUDA_ENOMEM, c, zErr, pErr);
      }
      pRef->ePlace = COLMEM_RESIDENT;
      pRef->iAddr = c->iDev;
      return 0;
    }
    c->bPinnedTemp = 1;
    pRef->bPinnedNow = 1;
    rc = 1;
  }
  pRef->ePlace = rc == 1 ? COLMEM_PINNED : COLMEM_MAPPED;
  pRef->iAddr = rc == 1 ? colmem_pin_addr(cm, c) : 0;
  /* Scanned packed from host memory: its directory from device memory. */
  if (eUse == COLMEM_USE_SCAN && (rc = colmem_dir_load(cm, c, zErr, sizeof(zErr))) < 0) {
    return colmem_fail(cm, -1, c, zErr, pErr);
  }
  pRef->iDirAddr = colmem_dir_valid(cm, c) ? c->iDir : 0;
  return 0;
}

int colmem_acquire(colmem *cm, cat *pCat, const cat_table *t, int iCol, store_kind eKind,
                   colmem_use eUse, int bResident, colmem_ref *pRef, sql_error *pErr) {
  char zPath[4096], zErr[512];
  colmem_col *c;
  memset(pRef, 0, sizeof(*pRef));
  if (cat_file_path(pCat, t, t->iGen, iCol, eKind, zPath, sizeof(zPath)) == NULL) {
    sql_error_set(pErr, SQLSTATE_IO_ERROR, -1, "column \"%s\".\"%s\": path too long", t->zName,
                  t->aCol[iCol].zName);
    return -1;
  }
  pthread_mutex_lock(&cm->mu);
  if ((c = colmem_find(cm, t, zPath, eKind, zErr, sizeof(zErr))) == NULL) {
    pthread_mutex_unlock(&cm->mu);
    sql_error_set(pErr, SQLSTATE_IO_ERROR, -1, "column \"%s\".\"%s\": %s", t->zName,
                  t->aCol[iCol].zName, zErr);
    return -1;
  }
  if (colmem_place_col(cm, c, eUse, bResident, pRef, pErr) != 0) {
    pthread_mutex_unlock(&cm->mu);
    return -1;
  }
  c->nRef++;
  pthread_mutex_unlock(&cm->mu);
  pRef->pCol = c;
  pRef->pHost = c->m.aData;
  pRef->nByte = c->m.nPayload;
  pRef->nWidth = eKind == STORE_VALIDITY ? 0 : c->m.nWidth;
  pRef->eEnc = c->m.eEnc;
  pRef->nForDir = c->m.nForDir;
  pRef->nRow = c->m.nRow;
  pRef->bPlain = pRef->ePlace == COLMEM_RESIDENT && colmem_dev_plain(c);
  return 0;
}

void colmem_hold(colmem *cm, const colmem_ref *pRef) {
  if (pRef->pCol == NULL) return;
  pthread_mutex_lock(&cm->mu);
  pRef->pCol->nRef++;
  pthread_mutex_unlock(&cm->mu);
}

void colmem_release(colmem *cm, colmem_ref *pRef) {
  colmem_col *c = pRef->pCol;
  if (c == NULL) return;
  pthread_mutex_lock(&cm->mu);
  colmem_unhold(cm, c);
  pthread_mutex_unlock(&cm->mu);
  memset(pRef, 0, sizeof(*pRef));
}

uint64_t colmem_evict_all(colmem *cm) {
  uint64_t n0, n = 0;
  do {
    colmem_frees frees = {0};
    pthread_mutex_lock(&cm->mu);
    n0 = cm->nResident;
    for (colmem_col *c = cm->pList; c != NULL && frees.n + 2 <= COLMEM_FREES_MAX; c = c->pNext) {
      if (c->nRef > 0) continue;
      colmem_dir_free(cm, c, &frees);
      if (c->iDev != 0) {
        colmem_dev_free(cm, c, &frees);
        cm->nEvict++;
      }
    }
    n0 -= cm->nResident;
    pthread_mutex_unlock(&cm->mu);
    colmem_frees_run(cm, &frees);
    n += n0;
  } while (n0 > 0);
  return n;
}

void colmem_stats_get(colmem *cm, colmem_stats *p) {
  pthread_mutex_lock(&cm->mu);
  p->nCol = cm->nCol;
  p->nPinned = cm->nPinned;
  p->nPinnedBudget = cm->nPinnedBudget;
  p->nResident = cm->nResident;
  p->nResidentBudget = cm->nDevBudget;
  p->nHit = cm->nHit;
  p->nLoad = cm->nLoad;
  p->nEvict = cm->nEvict;
  p->nLoadWait = cm->nLoadWait;
  colmem__warm_stats(cm->pWarm, p);
  pthread_mutex_unlock(&cm->mu);
}

void colmem_table_bytes(colmem *cm, int64_t iTable, uint64_t *pnPinned, uint64_t *pnResident) {
  uint64_t nPin = 0, nDev = 0;
  pthread_mutex_lock(&cm->mu);
  for (colmem_col *c = cm->pList; c != NULL; c = c->pNext) {
    if (c->iTable != iTable) continue;
    if (c->bPinned || c->bPinnedTemp) nPin += c->nReg;
    nDev += c->nDev + c->nDir;
  }
  pthread_mutex_unlock(&cm->mu);
  *pnPinned = nPin;
  *pnResident = nDev;
}

int colmem_tables_get(colmem *cm, colmem_table_use *a, int nMax) {
  int n = 0;
  pthread_mutex_lock(&cm->mu);
  for (colmem_col *c = cm->pList; c != NULL; c = c->pNext) {
    int i = 0;
    while (i < n && a[i].iTable != c->iTable) i++;
    if (i == n) {
      if (n == nMax) continue;   /* past the caller's room: left out */
      a[n].iTable = c->iTable;
      a[n].nPinned = a[n].nResident = 0;
      n++;
    }
    if (c->bPinned || c->bPinnedTemp) a[i].nPinned += c->nReg;
    a[i].nResident += c->nDev + c->nDir;
  }
  pthread_mutex_unlock(&cm->mu);
  return n;
}

void colmem_close(colmem *cm) {
  if (cm == NULL) return;
  /* First: the warm-up copies into the cache until it is joined. */
  colmem__warm_stop(cm->pWarm);
  while (cm->pList != NULL) {
    colmem_col *c = cm->pList;
    cm->pList = c->pNext;
    colmem_col_free(cm, c);
  }
  pthread_cond_destroy(&cm->cvLoad);
  pthread_mutex_destroy(&cm->mu);
  free(cm);
}

/* ---- preloading ---------------------------------------------------------------- */

int colmem__pin_file(colmem *cm, const cat_table *t, const char *zPath, store_kind eKind,
                     uint64_t *pnPinned, char *zErr, size_t nErr) {
  char zWhy[512];
  colmem_col *c;
  pthread_mutex_lock(&cm->mu);
  c = colmem_find(cm, t, zPath, eKind, zErr, nErr);
  if (c != NULL) colmem_col_refresh(cm, c);
  if (c == NULL || colmem_pin(cm, c, zWhy, sizeof(zWhy)) < 0) {
    if (c != NULL) snprintf(zErr, nErr, "pinning %s: %s", zPath, zWhy);
    pthread_mutex_unlock(&cm->mu);
    return -1;
  }
  *pnPinned = cm->nPinned;
  pthread_mutex_unlock(&cm->mu);
  return 0;
}

/* ---- the warm-up (colmem-warm.c) ------------------------------------------------ */

int colmem__warm_wanted(colmem *cm) {
  return cm->pDev != NULL && cm->nDevBudget > 0;
}

int colmem__warm_set(colmem *cm, colmem_warm *w) {
  int rc = -1;
  pthread_mutex_lock(&cm->mu);
  if (cm->pWarm == NULL) {
    cm->pWarm = w;
    rc = 0;
  }
  pthread_mutex_unlock(&cm->mu);
  return rc;
}

void colmem__warm_yield(colmem *cm, atomic_int *pbStop) {
  pthread_mutex_lock(&cm->mu);
  while ((cm->nQueryLoad > 0 || timer_now() - cm->tQueryLoad < COLMEM_WARM_QUIET_SECONDS) &&
         !atomic_load(pbStop)) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += (long)(COLMEM_WARM_QUIET_SECONDS * 1e9);
    if (ts.tv_nsec >= 1000000000L) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&cm->cvLoad, &cm->mu, &ts);
  }
  pthread_mutex_unlock(&cm->mu);
}

int colmem__warm_file(colmem *cm, const cat_table *t, const char *zPath, store_kind eKind,
                      char *zErr, size_t nErr) {
  colmem_col *c;
  int rc;
  pthread_mutex_lock(&cm->mu);
  if ((c = colmem_find(cm, t, zPath, eKind, zErr, nErr)) == NULL) {
    pthread_mutex_unlock(&cm->mu);
    return -1;
  }
  colmem_col_refresh(cm, c);
  /* Scanned by no one yet (nScanned 0): colmem_make_room evicts nothing
  ** for it. */
  rc = colmem_load(cm, c, 0, zErr, nErr);
  pthread_mutex_unlock(&cm->mu);
  return rc < 0 ? -1 : rc == 1;
}
