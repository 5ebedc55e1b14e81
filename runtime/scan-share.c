/*
** runtime/scan-share.c — shared circular scans of streamed fact columns
** (runtime/scan-share.h says what they are). This file owns the scans'
** buffers, their copies and the step every attached query takes; the
** kernels over each stride are the queries' own (exec-scan.c).
**
** Strides are numbered by a sequence number t that only grows: stride t
** is the table's stride t % nStride, in buffer set t % 2. A scan's t is
** the stride its attached queries read now. When the last of them has
** arrived (its kernels over t finished), the boundary is crossed: queries
** that waited are admitted at t + 1 when the copy of t + 1 (started a
** boundary ago) holds their columns — else at the next boundary, whose
** copy will — and set t % 2, read by no one now, starts taking t + 2.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "execInt.h"
#include "scan-share.h"

#define SHARE_NONE UINT64_MAX

/* Where the kernels over a set read it: not decided yet, being copied to
** the device, copied there, or from the pinned buffers by zero-copy. */
enum { SHARE_STAGE_NONE = 0, SHARE_STAGE_BUSY, SHARE_STAGE_DEVICE, SHARE_STAGE_HOST };

/* Bytes of a column file that a set holds. */
typedef struct share_span share_span;
struct share_span {
  const char *p;
  uint64_t n;
};

struct scan_share_scan {
  scan_share_scan *pNext;  /* the registry's list of running scans */
  stride_pool *pPool;
  colmem *pMem;
  int nCol;                /* grows while the scan runs (share_widen) */
  colmem_ref aRef[SCAN_SHARE_COL_MAX];   /* the scan's own holds */
  stride_buf *aBuf;        /* 2 per column, room for SCAN_SHARE_COL_MAX (it
                           ** never moves: members point into it); taken
                           ** from pPool */
  uint64_t *anByte;        /* 2 per column: bytes the set's copy put in aBuf */
  uint64_t mInPlace;       /* CUDA: columns pinned whole, which go to the
                           ** device straight from their pages (no copy
                           ** into aBuf unless the stage fails) */
  share_span aSpan[2 * SCAN_SHARE_COL_MAX][2];   /* an in-place column's set:
                           ** its directory (or values), then its words */
  cuda_device *pDev;       /* CUDA: the device; NULL on the CPU */
  unsigned iEpoch;         /* the context aDev and pStream belong to */
  cuda_ptr *aDev;          /* CUDA: 2 per column (room for all), device
                           ** copies of the sets (the stage), or NULL:
                           ** kernels read aBuf */
  int nDevCol;             /* columns [0, nDevCol) have both of aDev */
  cuda_stream *pStream;    /* CUDA: the stage copies' stream */
  bufcache *pBufs;         /* CUDA: where aDev comes from and goes back to */
  size_t nDevCap;          /* the size class of each of aDev */
  int bDevTried;           /* the stage was made, or could not be */
  int aStage[2];           /* SHARE_STAGE_*: where kernels read each set */
  stride_copy aCopy[2];    /* the copy into each set */
  uint64_t aLoaded[2];     /* the stride each set holds or takes (SHARE_NONE) */
  uint64_t amCopied[2];    /* the columns that copy includes */
  uint64_t nRow, nStrideRow, nStride;
  uint64_t t;              /* the stride being read */
  int nActive;             /* attached queries */
  int nArrived;            /* of them, done with stride t and staying */
  int nRead;               /* queries that read stride t */
  int nReader;             /* queries attached when stride t began: those
                           ** that read it, but for the ones that leave */
  int bBroken;             /* a copy could not start: no boundary is
                           ** crossed again, every query leaves */
  scan_share_member *pMember;   /* attached and waiting queries */
  pthread_cond_t cv;       /* a boundary was crossed */
};

struct scan_share {
  pthread_mutex_t mu;      /* guards everything below and every scan's
                           ** fields but aBuf, aRef and the copies' pieces */
  scan_share_scan *pList;
  scan_share_stats st;
};

int scan_share_open(scan_share **pp) {
  scan_share *p = calloc(1, sizeof(*p));
  *pp = NULL;
  if (p == NULL) return -1;
  if (pthread_mutex_init(&p->mu, NULL) != 0) {
    free(p);
    return -1;
  }
  *pp = p;
  return 0;
}

void scan_share_close(scan_share *p) {
  if (p == NULL) return;
  pthread_mutex_destroy(&p->mu);
  free(p);
}

void scan_share_stats_get(scan_share *p, scan_share_stats *pStats) {
  pthread_mutex_lock(&p->mu);
  *pStats = p->st;
  pthread_mutex_unlock(&p->mu);
}

int scan_share_enter(scan_share *p) {
  int n;
  pthread_mutex_lock(&p->mu);
  n = p->st.nScanning++;
  pthread_mutex_unlock(&p->mu);
  return n;
}

void scan_share_exit(scan_share *p) {
  pthread_mutex_lock(&p->mu);
  p->st.nScanning--;
  pthread_mutex_unlock(&p->mu);
}

/* ---- copies ------------------------------------------------------------------ */

/* The columns of the queries that will read stride t (sequence number):
** the attached ones whose round goes past it, and the waiting ones. */
static uint64_t share_wanted(const scan_share_scan *s, uint64_t t) {
  uint64_t m = 0;
  for (const scan_share_member *x = s->pMember; x != NULL; x = x->pNext) {
    if (!x->bAdmitted || x->tEnd > t) m |= x->mCol;
  }
  return m;
}

/* Starts the copy of stride t (sequence number) into set t % 2 of the
** columns that will be read (the mutex held; nobody reads that set: its
** last copy is waited for, which takes no time but where every query
** left without reading it). Returns 0, or -1 when memory runs out. */
static int share_copy_start(scan_share *p, scan_share_scan *s, uint64_t t) {
  int j = (int)(t % 2);
  uint64_t iRow = (t % s->nStride) * s->nStrideRow, n = s->nRow - iRow, m = share_wanted(s, t);
  stride_copy *c = &s->aCopy[j];
  if (n > s->nStrideRow) n = s->nStrideRow;
  stride_copy_wait(s->pPool, c);
  stride_copy_reset(c);
  s->aLoaded[j] = t;
  s->amCopied[j] = m;
  s->aStage[j] = SHARE_STAGE_NONE;
  for (int i = 0; i < s->nCol; i++) {
    const colmem_ref *r = &s->aRef[i];
    share_span *a = s->aSpan[2 * i + j];
    uint64_t iOff;
    if (!(m & ((uint64_t)1 << i))) continue;
    a[0].n = exec__stride_span(r, 0, iRow, n, &iOff);
    a[0].p = (const char *)r->pHost + iOff;
    a[1].n = 0;
    if (store_enc_packed(r->eEnc)) {                 /* the words follow their directory */
      a[1].n = exec__stride_span(r, 1, iRow, n, &iOff);
      a[1].p = (const char *)r->pHost + iOff;
    }
    s->anByte[2 * i + j] = a[0].n + a[1].n;
    if (s->mInPlace & ((uint64_t)1 << i)) continue;
    for (int k = 0; k < 2; k++) {
      char *pDst = (char *)s->aBuf[2 * i + j].pHost + (k ? a[0].n : 0);
      if (a[k].n > 0 && stride_copy_add(c, pDst, a[k].p, a[k].n) != 0) goto out_nomem;
    }
  }
  stride_copy_start(s->pPool, c);
  p->st.nStrideCopied++;
  return 0;
out_nomem:
  stride_copy_reset(c);
  s->aLoaded[j] = SHARE_NONE;
  s->amCopied[j] = 0;
  return -1;
}

/* Gives the stage's device buffers back to the backend's cache and ends
** its stream (the driver's side only in the context they were made in). */
static void share_device_free(scan_share_scan *s) {
  for (int i = 0; s->aDev != NULL && i < 2 * SCAN_SHARE_COL_MAX; i++) {
    if (s->aDev[i] != 0) bufcache_free(s->pBufs, s->aDev[i], s->nDevCap, s->iEpoch);
  }
  /* cuda_stream_destroy frees only the host side of a stale stream. */
  if (s->pStream != NULL) cuda_stream_destroy(s->pDev, s->pStream);
  free(s->aDev);
  s->aDev = NULL;
  s->pStream = NULL;
  s->nDevCol = 0;
}

/* Makes the stage on the device the first time a stride is to be read by
** two queries (a lone query never needs it): a stream, and room for a
** device buffer for each stride buffer (share_device_grow makes them).
** The mutex is held: this is once a scan. */
static void share_device_new(scan_share_scan *s) {
  char zErr[256];
  s->bDevTried = 1;
  s->iEpoch = cuda_device_epoch(s->pDev);
  if (cuda_stream_create(s->pDev, &s->pStream, zErr, sizeof(zErr)) != 0) {
    s->pStream = NULL;
    return;
  }
  if ((s->aDev = calloc(2 * SCAN_SHARE_COL_MAX, sizeof(cuda_ptr))) == NULL) share_device_free(s);
}

/* Gives every column of the scan its two device buffers, from the
** backend's cache of device buffers (freeing device memory waits for the
** device); columns added since (share_widen) get theirs here. Returns 0,
** or -1 when device memory is short: kernels then read the pinned
** buffers. The mutex is held. */
static int share_device_grow(scan_share_scan *s) {
  char zErr[256];
  if (s->aDev == NULL) return -1;
  for (; s->nDevCol < s->nCol; s->nDevCol++) {
    for (int k = 2 * s->nDevCol; k < 2 * s->nDevCol + 2; k++) {
      if (s->aDev[k] == 0 && bufcache_alloc(s->pBufs, stride_pool_buf_bytes(s->pPool), &s->aDev[k],
                                            &s->nDevCap, zErr, sizeof(zErr)) != 0) {
        s->aDev[k] = 0;
        return -1;
      }
    }
  }
  return 0;
}

/* Copies set j, holding stride t, to the device: the columns in mCopied
** of the first nCol (no mutex held; the caller has claimed it). Returns
** SHARE_STAGE_DEVICE, or HOST when a copy failed: kernels then read the
** pinned buffers, as a lone scan's do. */
static int share_stage_copy(scan_share_scan *s, int j, int nCol, uint64_t mCopied) {
  char zErr[256];
  stride_copy_wait(s->pPool, &s->aCopy[j]);
  for (int i = 0; i < nCol; i++) {
    const share_span *a = s->aSpan[2 * i + j];
    int bInPlace = (s->mInPlace & ((uint64_t)1 << i)) != 0, rc = 0;
    if (!(mCopied & ((uint64_t)1 << i))) continue;
    if (!bInPlace) {
      rc = cuda_mem_write_async(s->pDev, s->pStream, s->aDev[2 * i + j], s->aBuf[2 * i + j].pHost,
                                s->anByte[2 * i + j], zErr, sizeof(zErr));
    }
    for (int k = 0; bInPlace && k < 2 && rc == 0; k++) {
      if (a[k].n == 0) continue;
      rc = cuda_mem_write_async(s->pDev, s->pStream, s->aDev[2 * i + j] + (k ? a[0].n : 0),
                                a[k].p, a[k].n, zErr, sizeof(zErr));
    }
    if (rc != 0) {
      cuda_stream_sync(s->pDev, s->pStream, zErr, sizeof(zErr));
      return SHARE_STAGE_HOST;
    }
  }
  return cuda_stream_sync(s->pDev, s->pStream, zErr, sizeof(zErr)) == 0 ? SHARE_STAGE_DEVICE
                                                                       : SHARE_STAGE_HOST;
}

/* Copies set j's in-place columns of mInPlace into the pinned buffers,
** where kernels read them when the stage could not be made (no mutex
** held; the caller has claimed the set). */
static void share_stage_host(scan_share_scan *s, int j, int nCol, uint64_t mInPlace) {
  for (int i = 0; i < nCol; i++) {
    const share_span *a = s->aSpan[2 * i + j];
    if (!(mInPlace & ((uint64_t)1 << i))) continue;
    for (int k = 0; k < 2; k++) {
      if (a[k].n > 0) memcpy((char *)s->aBuf[2 * i + j].pHost + (k ? a[0].n : 0), a[k].p, a[k].n);
    }
  }
}

/* Decides where kernels read set j, which takes stride t (the copy of t
** started), and returns it: on the device when the scan has one there and
** two queries or more will read it — one transfer over PCIe for all —
** or when it holds columns pinned whole (copied straight from their
** pages), else from the pinned buffers (a lone query reads as it does
** alone). The first to ask copies it; the others wait for that copy. */
static int share_stage(scan_share *p, scan_share_scan *s, int j, uint64_t t) {
  int e, nReader = 0;
  pthread_mutex_lock(&p->mu);
  while (s->aLoaded[j] == t && s->aStage[j] == SHARE_STAGE_BUSY) pthread_cond_wait(&s->cv, &p->mu);
  if (s->aLoaded[j] != t) {
    pthread_mutex_unlock(&p->mu);
    return SHARE_STAGE_HOST;
  }
  if (s->aStage[j] == SHARE_STAGE_NONE) {
    uint64_t mInPlace = s->amCopied[j] & s->mInPlace;
    int bDev, bWant;
    for (const scan_share_member *x = s->pMember; x != NULL; x = x->pNext) nReader++;
    bWant = nReader > 1 || mInPlace != 0;
    if (bWant && s->pDev != NULL && s->pBufs != NULL && !s->bDevTried) share_device_new(s);
    bDev = bWant && s->aDev != NULL && share_device_grow(s) == 0;
    s->aStage[j] = bDev || mInPlace != 0 ? SHARE_STAGE_BUSY : SHARE_STAGE_HOST;
    if (s->aStage[j] == SHARE_STAGE_BUSY) {
      int nCol = s->nCol;
      uint64_t mCopied = s->amCopied[j];
      pthread_mutex_unlock(&p->mu);
      e = bDev ? share_stage_copy(s, j, nCol, mCopied) : SHARE_STAGE_HOST;
      if (e == SHARE_STAGE_HOST) share_stage_host(s, j, nCol, mInPlace);
      pthread_mutex_lock(&p->mu);
      s->aStage[j] = e;
      if (e == SHARE_STAGE_DEVICE) p->st.nStrideStaged++;
      pthread_cond_broadcast(&s->cv);
    }
  }
  e = s->aStage[j];
  pthread_mutex_unlock(&p->mu);
  return e;
}

/* ---- boundaries -------------------------------------------------------------- */

/* Crosses the boundary after stride s->t if everyone attached has read
** it (the mutex held): admits the waiting queries whose columns the copy
** of the next stride holds, and starts the copy of the one after. Returns
** 1 when the scan has ended (nobody attached or waiting); the caller then
** unlinks and frees it. */
static int share_boundary(scan_share *p, scan_share_scan *s) {
  uint64_t t1 = s->t + 1, mWait = 0;
  int j1 = (int)(t1 % 2), bNext = 0;
  if (s->pMember == NULL) return 1;
  if (s->bBroken || (s->nActive > 0 && s->nArrived < s->nActive)) return 0;
  if (s->nRead > 1) p->st.nStrideShared++;
  s->nArrived = 0;
  s->nRead = 0;
  s->t = t1;
  for (scan_share_member *x = s->pMember; x != NULL; x = x->pNext) {
    if (!x->bAdmitted) mWait |= x->mCol;
  }
  /* Set t1 % 2 took t1 a boundary ago if someone was to read it; with
  ** nobody attached, it takes it again for whoever waits. */
  if (s->aLoaded[j1] == t1 && s->nActive == 0 && (mWait & ~s->amCopied[j1]) != 0) {
    s->aLoaded[j1] = SHARE_NONE;
  }
  if (s->aLoaded[j1] != t1 && share_copy_start(p, s, t1) != 0) goto out_broken;
  for (scan_share_member *x = s->pMember; x != NULL; x = x->pNext) {
    if (x->bAdmitted || (x->mCol & ~s->amCopied[j1]) != 0) continue;   /* with t1 + 1 */
    x->bAdmitted = 1;
    x->t = t1;
    x->tEnd = t1 + s->nStride;
    s->nActive++;
  }
  s->nReader = s->nActive;
  /* Set t % 2 is free: it takes t1 + 1 if anyone will read it. */
  for (scan_share_member *x = s->pMember; x != NULL && !bNext; x = x->pNext) {
    bNext = !x->bAdmitted || x->tEnd > t1 + 1;
  }
  if (bNext && share_copy_start(p, s, t1 + 1) != 0) goto out_broken;
  pthread_cond_broadcast(&s->cv);
  return 0;
out_broken:
  s->bBroken = 1;
  pthread_cond_broadcast(&s->cv);
  return 0;
}

/* Unlinks s from the registry (the mutex held). */
static void share_unlink(scan_share *p, scan_share_scan *s) {
  for (scan_share_scan **pp = &p->pList; *pp != NULL; pp = &(*pp)->pNext) {
    if (*pp == s) {
      *pp = s->pNext;
      p->st.nRunning--;
      return;
    }
  }
}

/* Frees an ended scan (unlinked, the mutex not held): its copies finish
** before its buffers go back. */
static void share_free(scan_share_scan *s) {
  for (int j = 0; j < 2; j++) {
    stride_copy_wait(s->pPool, &s->aCopy[j]);
    stride_copy_free(&s->aCopy[j]);
  }
  if (s->aBuf != NULL) stride_pool_give(s->pPool, 2 * s->nCol, s->aBuf);
  share_device_free(s);
  for (int i = 0; i < s->nCol; i++) colmem_release(s->pMem, &s->aRef[i]);
  pthread_cond_destroy(&s->cv);
  free(s->aBuf);
  free(s->anByte);
  free(s);
}

/* Detaches m (the mutex held); bArrived: m is counted in s->nArrived.
** Returns the scan to free, or NULL. */
static scan_share_scan *share_detach(scan_share *p, scan_share_member *m, int bArrived) {
  scan_share_scan *s = m->pScan;
  for (scan_share_member **pp = &s->pMember; *pp != NULL; pp = &(*pp)->pNext) {
    if (*pp == m) {
      *pp = m->pNext;
      break;
    }
  }
  if (m->bAdmitted) s->nActive--;
  /* Left after arriving at a boundary not yet crossed: its arrival goes
  ** too, or the boundary would be crossed before the others arrive. */
  if (bArrived) s->nArrived--;
  m->pScan = NULL;
  if (share_boundary(p, s)) {
    share_unlink(p, s);
    return s;
  }
  return NULL;
}

/* ---- attaching ------------------------------------------------------------------ */

/* The column of s that is r's, or -1. */
static int share_col_find(const scan_share_scan *s, const colmem_ref *r) {
  for (int i = 0; i < s->nCol; i++) {
    if (s->aRef[i].pCol == r->pCol) return i;
  }
  return -1;
}

/* Adds column r to s, with a hold of the scan's own on it. */
static void share_col_add(scan_share_scan *s, const colmem_ref *r) {
  s->aRef[s->nCol] = *r;
  colmem_hold(s->pMem, &s->aRef[s->nCol]);
  if (s->pDev != NULL && r->ePlace == COLMEM_PINNED) s->mInPlace |= (uint64_t)1 << s->nCol;
  s->nCol++;
}

/* Maps pWant's columns onto s's into m; returns 0, or -1 when s lacks one. */
static int share_map(const scan_share_scan *s, const scan_share_want *pWant, scan_share_member *m) {
  m->mCol = 0;
  for (int i = 0; i < pWant->nCol; i++) {
    int k = share_col_find(s, pWant->apRef[i]);
    if (k < 0) return -1;
    m->aiCol[i] = k;
    m->mCol |= (uint64_t)1 << k;
  }
  return s->nRow == pWant->nRow ? 0 : -1;
}

/* Widens running scan s by the columns of pWant it lacks, so that the
** statement joins this pass rather than starting one of its own: the
** columns are read from the next copy on (the statement is admitted at
** the boundary whose stride holds them, and wraps round to it). Only a
** scan of the same table (a column in common) whose strides hold
** pWant's widest column, with room and stride buffers free now: taking
** buffers never waits here (the scan holds some, and a wait for more
** could hold up every other statement's attach). The mutex is held.
** Returns 0 (then share_map(s, pWant) holds), or 1: s cannot take them. */
static int share_widen(scan_share *p, scan_share_scan *s, const scan_share_want *pWant) {
  stride_buf aNew[2 * SCAN_SHARE_COL_MAX];
  sql_error e;
  int nMissing = 0, nCommon = 0;
  if (s->bBroken || s->nRow != pWant->nRow || pWant->nStrideRow < s->nStrideRow) return 1;
  for (int i = 0; i < pWant->nCol; i++) {
    if (share_col_find(s, pWant->apRef[i]) < 0) nMissing++;
    else nCommon++;
  }
  if (nCommon == 0 || nMissing == 0 || s->nCol + nMissing > SCAN_SHARE_COL_MAX) return 1;
  for (int i = 0; i < 2 * nMissing; i++) aNew[i].iSlot = -1;
  if (stride_pool_take_now(s->pPool, 2 * nMissing, aNew, &e) != 0) return 1;
  for (int i = 0, k = 0; i < pWant->nCol; i++) {
    if (share_col_find(s, pWant->apRef[i]) >= 0) continue;
    s->aBuf[2 * s->nCol] = aNew[k++];
    s->aBuf[2 * s->nCol + 1] = aNew[k++];
    share_col_add(s, pWant->apRef[i]);
  }
  p->st.nWiden++;
  return 0;
}

/* Links m to s, waiting to be admitted (the mutex held). */
static void share_link(scan_share_scan *s, scan_share_member *m) {
  m->pScan = s;
  m->nStrideRow = s->nStrideRow;
  m->nStride = s->nStride;
  m->aBuf = s->aBuf;
  m->pNext = s->pMember;
  s->pMember = m;
}

/* Makes a scan of pWant's columns, its buffers taken (the mutex not
** held). Returns it, or NULL with *pErr. */
static scan_share_scan *share_scan_new(const scan_share_want *pWant, sql_error *pErr) {
  scan_share_scan *s = calloc(1, sizeof(*s));
  if (s == NULL || pthread_cond_init(&s->cv, NULL) != 0) {
    free(s);
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while streaming");
    return NULL;
  }
  s->pPool = pWant->pPool;
  s->pMem = pWant->pMem;
  s->pDev = pWant->pDev;
  s->pBufs = pWant->pBufs;
  s->nRow = pWant->nRow;
  s->nStrideRow = pWant->nStrideRow;
  s->nStride = (s->nRow + s->nStrideRow - 1) / s->nStrideRow;
  s->aLoaded[0] = s->aLoaded[1] = SHARE_NONE;
  s->t = SHARE_NONE;                               /* the first boundary makes it 0 */
  for (int i = 0; i < pWant->nCol; i++) share_col_add(s, pWant->apRef[i]);
  s->anByte = calloc(2 * SCAN_SHARE_COL_MAX, sizeof(uint64_t));
  if ((s->aBuf = calloc(2 * SCAN_SHARE_COL_MAX, sizeof(stride_buf))) == NULL || s->anByte == NULL) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while streaming");
    share_free(s);
    return NULL;
  }
  for (int i = 0; i < 2 * SCAN_SHARE_COL_MAX; i++) s->aBuf[i].iSlot = -1;
  if (stride_pool_take(s->pPool, 2 * s->nCol, s->aBuf, pErr) != 0) {
    free(s->aBuf);
    s->aBuf = NULL;
    share_free(s);
    return NULL;
  }
  return s;
}

int scan_share_attach(scan_share *p, const scan_share_want *pWant, scan_share_member *m,
                      sql_error *pErr) {
  scan_share_scan *s, *pFree = NULL;
  memset(m, 0, sizeof(*m));
  if (pWant->nCol > SCAN_SHARE_COL_MAX) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "a scan streams %d columns at most",
                  SCAN_SHARE_COL_MAX);
    return -1;
  }
  pthread_mutex_lock(&p->mu);
  for (s = p->pList; s != NULL; s = s->pNext) {
    if (!s->bBroken && share_map(s, pWant, m) == 0) break;
  }
  for (scan_share_scan *x = p->pList; s == NULL && x != NULL; x = x->pNext) {
    if (share_widen(p, x, pWant) == 0 && share_map(x, pWant, m) == 0) s = x;
  }
  if (s != NULL) {
    m->bJoined = 1;
    p->st.nAttach++;
    share_link(s, m);
    /* Nobody attached crosses the next boundary: it is crossed now. */
    if (s->nActive == 0) share_boundary(p, s);
  } else {
    /* A new scan: its first boundary is crossed at once. */
    pthread_mutex_unlock(&p->mu);
    if ((s = share_scan_new(pWant, pErr)) == NULL) return -1;
    m->mCol = 0;
    for (int i = 0; i < pWant->nCol; i++) {
      m->aiCol[i] = i;
      m->mCol |= (uint64_t)1 << i;
    }
    pthread_mutex_lock(&p->mu);
    s->pNext = p->pList;
    p->pList = s;
    p->st.nScan++;
    p->st.nRunning++;
    share_link(s, m);
    share_boundary(p, s);
  }
  while (!m->bAdmitted && !s->bBroken) pthread_cond_wait(&s->cv, &p->mu);
  if (!m->bAdmitted) pFree = share_detach(p, m, 0);
  pthread_mutex_unlock(&p->mu);
  if (pFree != NULL) share_free(pFree);
  if (m->pScan != NULL) return 0;
  sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while streaming");
  return -1;
}

/* ---- stepping ------------------------------------------------------------------- */

int scan_share_next(scan_share *p, scan_share_member *m, uint64_t *piStride, int *piSet,
                    int *pbDevice) {
  scan_share_scan *s = m->pScan;
  int nWith;
  if (s == NULL) return 1;
  pthread_mutex_lock(&p->mu);
  while (s->t != m->t && !s->bBroken) pthread_cond_wait(&s->cv, &p->mu);
  nWith = s->nReader - 1;
  if (s->t != m->t) nWith = -1;                    /* broken */
  pthread_mutex_unlock(&p->mu);
  if (nWith < 0) return -1;
  if (nWith > m->nWithMax) m->nWithMax = nWith;
  if (nWith > 0) m->nStrideShared++;
  /* Nobody restarts this copy before m has arrived. */
  stride_copy_wait(s->pPool, &s->aCopy[m->t % 2]);
  *pbDevice = share_stage(p, s, (int)(m->t % 2), m->t) == SHARE_STAGE_DEVICE;
  if (*pbDevice) m->aDev = s->aDev;                /* made before it was first read */
  *piStride = m->t % s->nStride;
  *piSet = (int)(m->t % 2);
  return 0;
}

void scan_share_prefetch(scan_share *p, scan_share_member *m) {
  scan_share_scan *s = m->pScan;
  uint64_t t = m->t + 1;
  if (s == NULL || s->pDev == NULL) return;
  share_stage(p, s, (int)(t % 2), t);
}

void scan_share_arrive(scan_share *p, scan_share_member *m) {
  scan_share_scan *s = m->pScan, *pFree = NULL;
  if (s == NULL) return;
  pthread_mutex_lock(&p->mu);
  s->nRead++;
  p->st.nStrideRead++;
  if (++m->t == m->tEnd) {
    pFree = share_detach(p, m, 0);
  } else {
    s->nArrived++;
    share_boundary(p, s);                          /* m is attached: it goes on */
  }
  pthread_mutex_unlock(&p->mu);
  if (pFree != NULL) share_free(pFree);
}

void scan_share_leave(scan_share *p, scan_share_member *m) {
  scan_share_scan *pFree = NULL;
  if (m->pScan == NULL) return;
  pthread_mutex_lock(&p->mu);
  pFree = share_detach(p, m, m->bAdmitted && m->t == m->pScan->t + 1);
  pthread_mutex_unlock(&p->mu);
  if (pFree != NULL) share_free(pFree);
}
