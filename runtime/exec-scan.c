/*
** runtime/exec-scan.c — the SCAN launch: the whole fact table at once, or
** stride by stride (DESIGN decision 7).
**
** The SCAN kernel reads its fact columns from the pointers in its
** argument block, over the rows its row count says, and keeps nothing
** between launches but what it accumulates in the group table or the
** output; so a stride is the same kernel launched with every fact
** pointer moved to the stride's first row and the row count cut to the
** stride's. A column pinned whole or resident moves by an offset; a
** streamed one points into a pinned stride buffer its rows were copied
** to. Two buffer sets alternate: while the kernel reads stride k from one,
** the copier threads fill the other with stride k+1. Launches are queued
** on the query's stream (exec-queue.c), so before the copy of stride k+1
** starts into the set stride k-1 was read from, the query waits for its
** stream: kernel k-1 is done then, and kernel k runs while the copy does.
**
** Strides are a whole number of 4096 rows, so every validity bitmap
** starts a stride on a byte (and 64-bit word) boundary, and every
** FOR-bitpacked column (storage/colfor.c) on a block boundary (4096 is 32
** blocks of 128 rows). Such a column is two fields, its block directory
** (COLUMN) and its packed words (PACKED); a stride of it is the span of
** both for the stride's blocks: moved by their offsets when pinned whole,
** or copied as two pieces into one buffer, directory first. The kernel
** takes word offsets relative to the stride's first block
** (codegen/device.cuh, sq_for_block), so both ways read the same. Its third
** field, PLAIN, is 0 then; a FOR column whose resident copy is plain
** (colmem_ref.bPlain: never streamed) is the other way round: PLAIN moves
** by the stride's plain offset, COLUMN and PACKED are 0. A FOR column
** whose directory has a device copy (colmem_ref.iDirAddr) has COLUMN moved
** by the stride's directory offset in that copy, streamed or not; the
** stride buffers still take the directory first, so the words' offset in
** them does not depend on it.
**
** A run that streams its rows (exec_chunks) scans in strides even when
** every column is addressable whole — a stride is then offsets only — and
** takes each stride's rows before launching the next, so its output
** buffers hold one chunk, not the table's worth of rows.
*/
#include <stdlib.h>
#include <string.h>

#include "../common/timer.h"
#include "execInt.h"
#include "scan-share.h"

#define EXEC_STRIDE_ALIGN 4096

/* One field the strides move: a fact COLUMN or VALID. */
typedef struct exec_sfield exec_sfield;
struct exec_sfield {
  int iField;
  const colmem_ref *pRef;
  int iBuf;                /* streamed: its first buffer (of two); else -1 */
  int bPacked;             /* the PACKED field of a FOR column: shares its
                           ** COLUMN's buffers, after the directory */
  int bPlain;              /* the PLAIN field of a FOR column: set only
                           ** when its copy is plain (pRef->bPlain) */
};

typedef struct exec_strides exec_strides;
struct exec_strides {
  exec_backend *pB;
  const cg_program *g;
  int nField;              /* fact COLUMN and VALID fields */
  exec_sfield *aField;
  int iRowsField;          /* the fact NROW field */
  int nStream;             /* of them streamed */
  uint64_t nRow;           /* the table's */
  uint64_t nStrideRow;
  stride_buf *aBuf;        /* 2 per streamed field: set 0, then set 1 */
  stride_copy copy;
};

int exec__packed_column(const cg_program *g, int iPart) {
  const cg_field *f = &g->aField[iPart];
  for (int i = 0; i < g->nField; i++) {
    const cg_field *c = &g->aField[i];
    if (c->eKind == CG_FIELD_COLUMN && c->iSource == f->iSource && c->iColumn == f->iColumn) return i;
  }
  return -1;
}

uint64_t exec__packed_addr(const cg_program *g, const colmem_ref *aRef, int iPacked) {
  int i = exec__packed_column(g, iPacked);
  if (i < 0 || aRef[i].pCol == NULL || aRef[i].iAddr == 0 || aRef[i].bPlain) return 0;
  return aRef[i].iAddr + aRef[i].nForDir;
}

uint64_t exec__plain_addr(const cg_program *g, const colmem_ref *aRef, int iPlain) {
  int i = exec__packed_column(g, iPlain);
  if (i < 0 || aRef[i].pCol == NULL || !aRef[i].bPlain) return 0;
  return aRef[i].iAddr;
}

uint64_t exec__stride_span(const colmem_ref *c, int bPacked, uint64_t iRow, uint64_t n,
                           uint64_t *piOff) {
  uint64_t w = c->nWidth;
  uint64_t nOff, nEnd, nAll = c->bPlain ? c->nRow * w : c->nByte;
  if (store_enc_packed(c->eEnc) && !c->bPlain) {
    uint64_t iDir, nDir, iData, nData;
    store_for_span(c->pHost, c->nRow, iRow, n, &iDir, &nDir, &iData, &nData);
    *piOff = bPacked ? iData : iDir;
    return bPacked ? nData : nDir;
  }
  nOff = w ? iRow * w : iRow / 8;
  nEnd = w ? (iRow + n) * w : (iRow + n + 7) / 8;
  if (nEnd > nAll) nEnd = nAll;
  *piOff = nOff;
  return nEnd > nOff ? nEnd - nOff : 0;
}

/* Bytes of a FOR column's directory span for rows [iRow, iRow + n): where
** its words start in a stride buffer. */
static uint64_t exec_stride_dir_bytes(const colmem_ref *c, uint64_t iRow, uint64_t n) {
  uint64_t iOff;
  return exec__stride_span(c, 0, iRow, n, &iOff);
}

/* Collects the fact fields; returns the number streamed, or -1 (memory).
** bPinned: columns pinned whole stream too (a shared scan's). */
static int exec_strides_init(exec_strides *s, const cg_program *g, const colmem_ref *aRef,
                             int bPinned) {
  s->aField = calloc((size_t)g->nField + 1, sizeof(exec_sfield));
  if (s->aField == NULL) return -1;
  s->iRowsField = -1;
  for (int i = 0; i < g->nField; i++) {
    const cg_field *f = &g->aField[i];
    if (f->iSource != g->iFact) continue;
    if (f->eKind == CG_FIELD_NROW) s->iRowsField = i;
    if (f->eKind == CG_FIELD_PACKED) continue;           /* after its COLUMN, below */
    if ((f->eKind != CG_FIELD_COLUMN && f->eKind != CG_FIELD_VALID) || aRef[i].pCol == NULL) continue;
    s->aField[s->nField].iField = i;
    s->aField[s->nField].pRef = &aRef[i];
    s->aField[s->nField].iBuf = -1;
    if (aRef[i].ePlace == COLMEM_MAPPED || (bPinned && aRef[i].ePlace == COLMEM_PINNED)) {
      s->aField[s->nField].iBuf = 2 * s->nStream++;
    }
    s->nField++;
  }
  /* Each PACKED and PLAIN field follows its COLUMN: same reference, same
  ** buffers. */
  for (int i = 0, n = s->nField; i < g->nField; i++) {
    const cg_field *f = &g->aField[i];
    int iCol;
    if ((f->eKind != CG_FIELD_PACKED && f->eKind != CG_FIELD_PLAIN) || f->iSource != g->iFact) continue;
    if ((iCol = exec__packed_column(g, i)) < 0 || aRef[iCol].pCol == NULL) continue;
    for (int j = 0; j < n; j++) {
      if (s->aField[j].iField != iCol) continue;
      s->aField[s->nField] = s->aField[j];
      s->aField[s->nField].iField = i;
      s->aField[s->nField].bPacked = f->eKind == CG_FIELD_PACKED;
      s->aField[s->nField].bPlain = f->eKind == CG_FIELD_PLAIN;
      s->nField++;
    }
  }
  return s->nStream;
}

/* Rows per stride: as many as the widest streamed column fits in a buffer,
** a multiple of EXEC_STRIDE_ALIGN. A FOR column's stride holds at most its
** plain width a row plus its directory (16 bytes a 128-row block): counted
** as one byte more a row. Returns 0, with 53200 on pErr, when a buffer
** holds fewer than EXEC_STRIDE_ALIGN rows of that column. */
static uint64_t exec_stride_rows(const exec_strides *s, sql_error *pErr) {
  uint64_t nBuf = stride_pool_buf_bytes(s->pB->pStride), nWide = 1, n;
  for (int i = 0; i < s->nField; i++) {
    const colmem_ref *c = s->aField[i].pRef;
    uint64_t w = c->nWidth + store_enc_packed(c->eEnc);
    if (s->aField[i].iBuf >= 0 && w > nWide) nWide = w;
  }
  n = nBuf / nWide / EXEC_STRIDE_ALIGN * EXEC_STRIDE_ALIGN;
  if (n == 0) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1,
                  "stride buffers of %llu bytes hold fewer than the %d rows of a stride of a "
                  "column of %llu bytes a row: %llu bytes at least", (unsigned long long)nBuf,
                  EXEC_STRIDE_ALIGN, (unsigned long long)nWide,
                  (unsigned long long)(nWide * EXEC_STRIDE_ALIGN));
  }
  return n;
}

/* Queues the copies of stride k of every streamed column into set k % 2. */
static int exec_stride_copy(exec_strides *s, uint64_t k) {
  uint64_t iRow = k * s->nStrideRow, n = s->nRow - iRow;
  if (n > s->nStrideRow) n = s->nStrideRow;
  stride_copy_reset(&s->copy);
  for (int i = 0; i < s->nField; i++) {
    const exec_sfield *f = &s->aField[i];
    uint64_t iOff, nByte, iAt = 0;
    if (f->iBuf < 0 || f->bPlain) continue;            /* PLAIN: 0 when streamed */
    nByte = exec__stride_span(f->pRef, f->bPacked, iRow, n, &iOff);
    if (f->bPacked) iAt = exec_stride_dir_bytes(f->pRef, iRow, n);     /* after the directory */
    if (stride_copy_add(&s->copy, (char *)s->aBuf[f->iBuf + (int)(k % 2)].pHost + iAt,
                        (const char *)f->pRef->pHost + iOff, nByte) != 0) {
      return -1;
    }
  }
  if (s->nStream > 0) stride_copy_start(s->pB->pStride, &s->copy);
  return 0;
}

/* Points aArg's fact fields at stride k of the table, its streamed
** columns in buffer set iSet. */
static void exec_stride_args(const exec_strides *s, uint64_t k, int iSet, uint64_t *aArg) {
  uint64_t iRow = k * s->nStrideRow, n = s->nRow - iRow;
  if (n > s->nStrideRow) n = s->nStrideRow;
  for (int i = 0; i < s->nField; i++) {
    const exec_sfield *f = &s->aField[i];
    uint64_t iOff, iAt = 0;
    if (store_enc_packed(f->pRef->eEnc) && f->pRef->bPlain != f->bPlain) {
      aArg[f->iField] = 0;                               /* the form not read */
      continue;
    }
    exec__stride_span(f->pRef, f->bPacked, iRow, n, &iOff);
    if (f->bPacked && f->iBuf >= 0) iAt = exec_stride_dir_bytes(f->pRef, iRow, n);
    if (!f->bPacked && f->pRef->iDirAddr != 0) {
      aArg[f->iField] = f->pRef->iDirAddr + iOff;        /* the directory's device copy */
      continue;
    }
    aArg[f->iField] = f->iBuf >= 0 ? s->aBuf[f->iBuf + iSet].iAddr + iAt
                                    : f->pRef->iAddr + iOff;
  }
  aArg[s->iRowsField] = n;
}

/* Bytes of the query's streamed columns: what a stride copy moves for it. */
static uint64_t exec_strides_bytes(const exec_strides *s) {
  uint64_t n = 0;
  for (int i = 0; i < s->nField; i++) {
    const exec_sfield *f = &s->aField[i];
    if (f->iBuf >= 0 && !f->bPacked && !f->bPlain) n += f->pRef->nByte;
  }
  return n;
}

static int exec_strides_run(exec_strides *s, exec_queue *q, exec_module *pMod, const cg_kernel *k,
                            const uint64_t *aArg0, const _Atomic int *pbCancel,
                            const exec_chunks *pChunk, exec_result *pRes, sql_error *pErr) {
  const cg_program *g = s->g;
  uint64_t nStride = (s->nRow + s->nStrideRow - 1) / s->nStrideRow;
  uint64_t *aArg = malloc((size_t)cg_program_arg_words(g) * 8 + 8);
  int rc = 0;
  if (aArg == NULL || exec_stride_copy(s, 0) != 0) {
    free(aArg);
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while streaming");
    return -1;
  }
  memcpy(aArg, aArg0, (size_t)cg_program_arg_words(g) * 8);
  for (uint64_t i = 0; i < nStride && rc == 0; i++) {
    double t0 = timer_now();
    /* A cancelled statement stops here, between strides, not at the end
    ** of its table. */
    if (pbCancel != NULL && *pbCancel) {
      sql_error_set(pErr, "57014", -1, "canceling statement due to user request");
      rc = -1;
      break;
    }
    if (s->nStream > 0) stride_copy_wait(s->pB->pStride, &s->copy);  /* stride i is in its buffers */
    pRes->rStreamWaitSeconds += timer_now() - t0;
    /* Kernel i-1 read the set stride i+1 is about to be copied into. */
    if (i > 0 && (rc = exec__queue_wait(s->pB, q, pErr)) != 0) break;
    if (i + 1 < nStride && exec_stride_copy(s, i + 1) != 0) {
      sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while streaming");
      rc = -1;
      break;
    }
    exec_stride_args(s, i, (int)(i % 2), aArg);
    rc = exec__launch(s->pB, q, pMod, g, k, aArg[s->iRowsField], aArg,
                      (size_t)cg_program_arg_words(g) * 8,
                      pErr);
    pRes->nStride++;
    /* A streamed run takes each chunk's rows before the next is launched
    ** (the buffers this one read stay put until then). */
    if (rc == 0 && pChunk != NULL && (rc = pChunk->xDone(pChunk->pArg)) == 1) {
      rc = 0;
      break;
    }
  }
  /* Never leave a copy running, or a kernel reading, in buffers about to
  ** be given back: wait for the queue whatever failed (a failed launch
  ** leaves the kernels before it queued; a failed wait is waited for
  ** again), its error the query's only when nothing else failed first. */
  if (s->nStream > 0) stride_copy_wait(s->pB->pStride, &s->copy);
  {
    sql_error eWait;
    int rcWait = exec__queue_wait(s->pB, q, rc == 0 ? pErr : &eWait);
    if (rc == 0) rc = rcWait;
  }
  pRes->nStreamBytes += exec_strides_bytes(s);
  free(aArg);
  return rc;
}

/* Fills w with s's streamed columns, each once. Returns 0, or -1 when
** they are more than a shared scan takes. */
static int exec_share_want(exec_backend *pB, const exec_strides *s, const colmem_ref **apRef,
                           scan_share_want *w) {
  memset(w, 0, sizeof(*w));
  w->pMem = pB->pMem;
  w->pPool = pB->pStride;
  w->pDev = pB->eKind == EXEC_BACKEND_CUDA ? pB->pCuda : NULL;
  w->pBufs = pB->pBufs;
  w->apRef = apRef;
  w->nRow = s->nRow;
  w->nStrideRow = s->nStrideRow;
  for (int i = 0; i < s->nField; i++) {
    const exec_sfield *f = &s->aField[i];
    int j = 0;
    if (f->iBuf < 0 || f->bPacked || f->bPlain) continue;
    while (j < w->nCol && apRef[j]->pCol != f->pRef->pCol) j++;
    if (j < w->nCol) continue;
    if (w->nCol == SCAN_SHARE_COL_MAX) return -1;
    apRef[w->nCol++] = f->pRef;
  }
  return 0;
}

/* Points s's buffers at the shared scan's: each streamed field at its
** column's pair; aDev (2 per streamed field) the same where kernels read
** a set from the scan's device copy. */
static void exec_share_bufs(exec_strides *s, const scan_share_want *w, const scan_share_member *m,
                            stride_buf *aDev) {
  s->nStrideRow = m->nStrideRow;
  for (int i = 0; i < s->nField; i++) {
    const exec_sfield *f = &s->aField[i];
    int j = 0;
    if (f->iBuf < 0 || f->bPacked || f->bPlain) continue;
    while (w->apRef[j]->pCol != f->pRef->pCol) j++;
    for (int k = 0; k < 2; k++) {
      s->aBuf[f->iBuf + k] = m->aBuf[2 * m->aiCol[j] + k];
      aDev[f->iBuf + k] = s->aBuf[f->iBuf + k];
      if (m->aDev != NULL) aDev[f->iBuf + k].iAddr = m->aDev[2 * m->aiCol[j] + k];
    }
  }
}

/* The strides of a shared scan (runtime/scan-share.h): attached to one
** going, or to one this query starts, it reads every stride once, in the
** scan's order, each after its copy into the scan's buffers. */
static int exec_strides_shared(exec_strides *s, const scan_share_want *w, exec_queue *q,
                               exec_module *pMod, const cg_kernel *k, const uint64_t *aArg0,
                               const _Atomic int *pbCancel, exec_result *pRes, sql_error *pErr) {
  const cg_program *g = s->g;
  scan_share *pShare = s->pB->pShare;
  scan_share_member m;
  uint64_t *aArg = malloc((size_t)cg_program_arg_words(g) * 8 + 8), iStride;
  stride_buf *aHost = s->aBuf, *aDev = calloc((size_t)(2 * s->nStream), sizeof(stride_buf));
  int rc = 0, iSet, bDevice, bQueued = 0;
  if (aArg == NULL || aDev == NULL) {
    free(aArg);
    free(aDev);
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while streaming");
    return -1;
  }
  memcpy(aArg, aArg0, (size_t)cg_program_arg_words(g) * 8);
  if (scan_share_attach(pShare, w, &m, pErr) != 0) {
    free(aArg);
    free(aDev);
    return -1;
  }
  exec_share_bufs(s, w, &m, aDev);
  for (;;) {
    double t0 = timer_now();
    int r;
    /* A cancelled statement leaves at the boundary; the others go on. */
    if (pbCancel != NULL && *pbCancel) {
      sql_error_set(pErr, "57014", -1, "canceling statement due to user request");
      rc = -1;
      break;
    }
    if ((r = scan_share_next(pShare, &m, &iStride, &iSet, &bDevice)) != 0) {
      if (r < 0) {
        sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while streaming");
        rc = -1;
      }
      break;
    }
    pRes->rStreamWaitSeconds += timer_now() - t0;
    if (bDevice) exec_share_bufs(s, w, &m, aDev);      /* m.aDev is set */
    s->aBuf = bDevice ? aDev : aHost;
    exec_stride_args(s, iStride, iSet, aArg);
    s->aBuf = aHost;
    bQueued = 1;
    rc = exec__launch(s->pB, q, pMod, g, k, aArg[s->iRowsField], aArg,
                      (size_t)cg_program_arg_words(g) * 8, pErr);
    pRes->nStride++;
    if (rc == 0) scan_share_prefetch(pShare, &m);         /* under the kernel */
    /* The stride's buffers are the scan's until every query has read them. */
    if (rc == 0) rc = exec__queue_wait(s->pB, q, pErr);
    bQueued = rc != 0;
    if (rc != 0) break;
    scan_share_arrive(pShare, &m);
  }
  if (bQueued) {
    sql_error eWait;
    exec__queue_wait(s->pB, q, &eWait);          /* nothing of it reads them now */
  }
  scan_share_leave(pShare, &m);
  pRes->nStreamBytes += exec_strides_bytes(s);
  if (m.nWithMax > pRes->nShareWith) pRes->nShareWith = m.nWithMax;
  pRes->nShareStride += (int)m.nStrideShared;
  free(aArg);
  free(aDev);
  return rc;
}

/* exec__scan's work; bPinned: columns pinned whole are streamed through
** a shared scan as columns past the pinned budget are. */
static int exec_scan_run(exec_backend *pB, exec_queue *q, exec_module *pMod, const cg_program *g,
                         const cg_kernel *k, const uint64_t *aArg, const colmem_ref *aRef,
                         const _Atomic int *pbCancel, int bShare, int bPinned,
                         const exec_chunks *pChunk, exec_result *pRes, sql_error *pErr) {
  const colmem_ref *apShare[SCAN_SHARE_COL_MAX];
  scan_share_want w;
  exec_strides s;
  int rc, nBuf;
  memset(&s, 0, sizeof(s));
  s.pB = pB;
  s.g = g;
  s.nRow = (uint64_t)g->apTable[g->iFact]->nRow;
  if ((rc = exec_strides_init(&s, g, aRef, bPinned)) < 0) {
    free(s.aField);
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while running the query");
    return -1;
  }
  if ((rc == 0 && pChunk == NULL) || s.iRowsField < 0 || s.nRow == 0) {
    free(s.aField);
    pRes->nStride++;
    rc = exec__launch(pB, q, pMod, g, k, s.nRow, aArg, (size_t)cg_program_arg_words(g) * 8,
                      pErr);
    if (rc == 0 && pChunk != NULL && pChunk->xDone(pChunk->pArg) < 0) rc = -1;
    return rc;
  }
  nBuf = 2 * s.nStream;
  if (s.nStream == 0) {
    s.nStrideRow = pChunk->nRow;                        /* chunks: offsets only */
  } else if ((s.nStrideRow = exec_stride_rows(&s, pErr)) == 0) {
    free(s.aField);
    return -1;
  } else if (pChunk != NULL && pChunk->nRow < s.nStrideRow) {
    s.nStrideRow = pChunk->nRow;
  }
  if ((s.aBuf = calloc((size_t)nBuf + 1, sizeof(stride_buf))) == NULL) {
    free(s.aField);
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while running the query");
    return -1;
  }
  for (int i = 0; i < nBuf; i++) s.aBuf[i].iSlot = -1;
  /* A streamed result's chunks stop and start its scan: it reads alone. */
  if (bShare && pChunk == NULL && pB->pShare != NULL && exec_share_want(pB, &s, apShare, &w) == 0) {
    rc = exec_strides_shared(&s, &w, q, pMod, k, aArg, pbCancel, pRes, pErr);
    free(s.aBuf);
    free(s.aField);
    return rc;
  }
  rc = nBuf > 0 ? stride_pool_take(pB->pStride, nBuf, s.aBuf, pErr) : 0;
  if (rc == 0) {
    rc = exec_strides_run(&s, q, pMod, k, aArg, pbCancel, pChunk, pRes, pErr);   /* waited for */
    if (nBuf > 0) stride_pool_give(pB->pStride, nBuf, s.aBuf);
  }
  stride_copy_free(&s.copy);
  free(s.aBuf);
  free(s.aField);
  return rc;
}

/* On CUDA a kernel reads a column pinned whole in place, over PCIe: 64
** statements at once move its bytes 64 times. So a statement that starts
** while another scans (scan_share_enter) streams its pinned columns
** through a shared scan, which copies each stride to the device once for
** all; a statement alone reads in place, as it always did (one client is
** not slowed by sharing). On the CPU backend there is no link to spare. */
int exec__scan(exec_backend *pB, exec_queue *q, exec_module *pMod, const cg_program *g,
               const cg_kernel *k, const uint64_t *aArg,
               const colmem_ref *aRef, const _Atomic int *pbCancel, int bShare,
               const exec_chunks *pChunk, exec_result *pRes, sql_error *pErr) {
  int rc, bPinned = 0, bCount = bShare && pChunk == NULL && pB->pShare != NULL &&
                                  pB->eKind == EXEC_BACKEND_CUDA;
  if (bCount) bPinned = scan_share_enter(pB->pShare) > 0;
  rc = exec_scan_run(pB, q, pMod, g, k, aArg, aRef, pbCancel, bShare, bPinned, pChunk, pRes, pErr);
  if (bCount) scan_share_exit(pB->pShare);
  return rc;
}
