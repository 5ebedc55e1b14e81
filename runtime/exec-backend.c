/*
** runtime/exec-backend.c — the executor's backends: making and closing
** them, and the few operations exec.c runs a program through — buffers,
** columns, modules and launches — each done one way on the CPU and one
** way on CUDA. Everything that differs between the two is in this file.
**
** CPU: buffers are calloc'd host memory, columns are read where they are
** mapped, modules are compiled by cc (cpu.h; which module a run takes is
** exec-module.c's), and a launch runs EXEC_CPU_BLOCKS_PER_THREAD blocks
** per pool thread at most.
**
** CUDA: buffers are device memory (cuMemAlloc, kept between queries by
** the buffer cache), cleared, copied and read on the query's stream
** (exec-queue.c), modules are compiled by NVRTC (cuda.h), kernels are
** queued on that stream, and the grid follows the kind of kernel:
**   SCAN         blockDim: the planner's group.nThread for an aggregate,
**                else 256 (for a stride: a smaller power of two when
**                registers let an SM hold more threads that way); gridDim:
**                per SM, the blocks it can hold at once
**                (cuOccupancyMaxActiveBlocksPerMultiprocessor) — at least
**                4 over a whole table, exactly that one wave for a stride —
**                fewer if the table has fewer tiles (a grid-stride loop
**                covers the rest);
**   BUILD        256 threads, one tile (256 x SQ_ITEMS rows) per block;
**   INIT, FINAL  256 threads, one slot per thread;
**   VALUES       one block of one warp.
** A block never has more threads than the kernel's registers allow
** (cuFuncGetAttribute).
**
** Both: columns are the column cache's (colmem.h) and stride buffers the
** stride pool's (stride.h), made here with the backend.
**
** INTERFACE ROUTINES
**   exec_backend_cpu, exec_backend_cuda, exec_backend_close, exec_backend_describe
**   exec__buf_alloc, exec__buf_free, exec__buf_zero, exec__buf_write, exec__buf_read
**   exec__launch, exec__cuda_error
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/timer.h"
#include "execInt.h"
#include "scan-share.h"

/* Blocks per launch on the CPU: enough per thread that a slow block does
** not leave the others idle, few enough that the block loop is cheap. */
#define EXEC_CPU_BLOCKS_PER_THREAD 16

/* Items per thread of a tile (SQ_ITEMS of codegen/device.cuh). */
#define EXEC_ITEMS 4

/* CUDA grid: threads per block unless the planner says otherwise, and the
** fewest SCAN blocks per SM. */
#define EXEC_CUDA_THREADS 256
#define EXEC_CUDA_SCAN_BLOCKS_PER_SM 4
#define EXEC_CUDA_MAX_BLOCKS 0x7fffffffu

/* Device buffers kept for later queries, at most. */
#define EXEC_CUDA_BUFS_KEPT ((uint64_t)1 << 30)

/* ---- making backends ------------------------------------------------------- */

int exec_backend_cpu(exec_backend *pB, int nThread, const cpu_options *pOpt, char *zErr,
                     size_t nErr) {
  memset(pB, 0, sizeof(*pB));
  pB->eKind = EXEC_BACKEND_CPU;
  pB->zName = "cpu";
  if (pOpt != NULL) pB->opt = *pOpt;
  if (cpu_pool_create(nThread, &pB->pPool, zErr, nErr) != 0 ||
      compileq_open(&pB->pCompiler, zErr, nErr) != 0 ||
      exec_backend_configure(pB, NULL, NULL, zErr, nErr) != 0) {
    exec_backend_close(pB);
    return -1;
  }
  exec__generic_prepare(pB);
  return 0;
}

int exec_backend_cuda(exec_backend *pB, const cuda_options *pOpt, char *zErr, size_t nErr) {
  memset(pB, 0, sizeof(*pB));
  pB->eKind = EXEC_BACKEND_CUDA;
  pB->zName = "cuda";
  if (cuda_device_open(pOpt, &pB->pCuda, zErr, nErr) != 0) return -1;
  if (bufcache_open(pB->pCuda, EXEC_CUDA_BUFS_KEPT, &pB->pBufs, zErr, nErr) != 0 ||
      exec__streams_open(pB, zErr, nErr) != 0 ||
      exec_backend_configure(pB, NULL, NULL, zErr, nErr) != 0) {
    exec_backend_close(pB);
    return -1;
  }
  exec__generic_prepare(pB);
  return 0;
}

void exec_backend_close(exec_backend *pB) {
  /* The background compiler first: its jobs use the backend's options. */
  compileq_close(pB->pCompiler);
  /* Columns and stride buffers are unpinned while the device is open. */
  scan_share_close(pB->pShare);
  colmem_close(pB->pMem);
  stride_pool_close(pB->pStride);
  bufcache_close(pB->pBufs);
  exec__streams_close(pB);
  cpu_pool_destroy(pB->pPool);
  cuda_device_close(pB->pCuda);
  pB->pCompiler = NULL;
  pB->pBufs = NULL;
  pB->pMem = NULL;
  pB->pStride = NULL;
  pB->pShare = NULL;
  pB->pPool = NULL;
  pB->pCuda = NULL;
}

int exec_backend_configure(exec_backend *pB, const colmem_options *pMem,
                           const stride_options *pStride, char *zErr, size_t nErr) {
  scan_share_close(pB->pShare);
  colmem_close(pB->pMem);
  stride_pool_close(pB->pStride);
  if (pB->pBufs != NULL) bufcache_trim(pB->pBufs);
  pB->pMem = NULL;
  pB->pStride = NULL;
  pB->pShare = NULL;
  if (scan_share_open(&pB->pShare) != 0) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  if (colmem_open(pB->pCuda, pMem, &pB->pMem, zErr, nErr) != 0) return -1;
  return stride_pool_open(pB->pCuda, pStride, &pB->pStride, zErr, nErr);
}

int64_t exec_backend_preload(exec_backend *pB, cat *pCat, int bQuiet, char *zErr, size_t nErr) {
  return colmem_preload(pB->pMem, pCat, bQuiet, zErr, nErr);
}

void exec_backend_traits_get(const exec_backend *pB, exec_backend_traits *p) {
  colmem_stats st;
  memset(p, 0, sizeof(*p));
  if (pB == NULL || pB->eKind != EXEC_BACKEND_CUDA || pB->pCuda == NULL) {
    snprintf(p->zDevice, sizeof(p->zDevice), "cpu");
    return;
  }
  snprintf(p->zDevice, sizeof(p->zDevice), "%s/%s", cuda_device_info_get(pB->pCuda)->zName,
           cuda_device_info_get(pB->pCuda)->zArch);
  if (pB->pMem != NULL) {
    colmem_stats_get(pB->pMem, &st);
    p->bResidentCache = st.nResidentBudget > 0;
  }
}

int exec_backend_lost(const exec_backend *pB) {
  return pB->eKind == EXEC_BACKEND_CUDA && pB->pCuda != NULL && cuda_device_lost(pB->pCuda);
}

void exec_backend_describe(const exec_backend *pB, strbuf *s) {
  strbuf_puts(s, pB != NULL && pB->zName != NULL ? pB->zName : "cpu");
  if (pB == NULL) return;
  if (pB->eKind == EXEC_BACKEND_CUDA && pB->pCuda != NULL) {
    const cuda_device_info *d = cuda_device_info_get(pB->pCuda);
    strbuf_printf(s, " (%s, %s, %d SMs, %.1f GiB; kernels compiled by NVRTC %d.%d, driver %d.%d;"
                  " columns read from pinned host memory by zero-copy)", d->zName, d->zArch,
                  d->nSm, (double)d->nGlobal / (1u << 30), d->iNvrtcMajor, d->iNvrtcMinor,
                  d->iDriver / 1000, d->iDriver % 1000 / 10);
  } else if (pB->pPool != NULL) {
    strbuf_printf(s, " (kernels compiled by the system C compiler, %d threads, one thread per "
                  "block)", cpu_pool_threads(pB->pPool));
  }
}

/* ---- buffers --------------------------------------------------------------- */

int exec__cuda_error(int rc, const char *zErr, sql_error *pErr) {
  if (rc == CUDA_ENOMEM) {
    sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of GPU memory: %s", zErr);
  } else {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "CUDA: %s", zErr);
  }
  return -1;
}

/* Allocates device memory for p, making room when it runs out. */
static int exec_cuda_alloc(exec_backend *pB, size_t n, exec_buf *p, sql_error *pErr) {
  char zErr[512];
  cuda_ptr x = 0;
  int rc = bufcache_alloc(pB->pBufs, n, &x, &p->nCap, zErr, sizeof(zErr));
  if (rc == CUDA_ENOMEM) {
    uint64_t nFreed = bufcache_trim(pB->pBufs) + colmem_evict_all(pB->pMem);
    rc = bufcache_alloc(pB->pBufs, n, &x, &p->nCap, zErr, sizeof(zErr));
    if (rc == CUDA_ENOMEM) {
      sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1,
                    "out of GPU memory: the query needs a buffer of %zu bytes (%llu bytes of cached"
                    " buffers and resident columns were freed first): %s", n,
                    (unsigned long long)nFreed, zErr);
      return -1;
    }
  }
  if (rc != 0) return exec__cuda_error(rc, zErr, pErr);
  p->iAddr = x;
  p->n = n;
  p->iEpoch = cuda_device_epoch(pB->pCuda);
  return 0;
}

int exec__buf_alloc(exec_backend *pB, exec_queue *q, size_t n, exec_buf *p, sql_error *pErr) {
  memset(p, 0, sizeof(*p));
  if (pB->eKind == EXEC_BACKEND_CPU) {
    if ((p->pHost = calloc(n ? n : 1, 1)) == NULL) {
      sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory while running the query");
      return -1;
    }
    p->iAddr = (uint64_t)(uintptr_t)p->pHost;
    p->n = n;
    return 0;
  }
  if (exec_cuda_alloc(pB, n, p, pErr) != 0) return -1;
  if (exec__buf_zero(pB, q, p, pErr) != 0) {
    exec__buf_free(pB, p);
    return -1;
  }
  return 0;
}

void exec__buf_free(exec_backend *pB, exec_buf *p) {
  if (pB->eKind == EXEC_BACKEND_CPU) free(p->pHost);
  else bufcache_free(pB->pBufs, p->iAddr, p->nCap, p->iEpoch);
  memset(p, 0, sizeof(*p));
}

int exec__buf_zero(exec_backend *pB, exec_queue *q, const exec_buf *p, sql_error *pErr) {
  char zErr[512];
  int rc;
  if (pB->eKind == EXEC_BACKEND_CPU) {
    memset(p->pHost, 0, p->n);
    return 0;
  }
  rc = cuda_mem_zero_async(pB->pCuda, exec__queue_stream(q), p->iAddr, p->n, zErr, sizeof(zErr));
  return rc != 0 ? exec__cuda_error(rc, zErr, pErr) : 0;
}

int exec__buf_write(exec_backend *pB, exec_queue *q, const exec_buf *p, const void *src, size_t n,
                    sql_error *pErr) {
  char zErr[512];
  int rc;
  if (pB->eKind == EXEC_BACKEND_CPU) {
    memcpy(p->pHost, src, n);
    return 0;
  }
  rc = cuda_mem_write_async(pB->pCuda, exec__queue_stream(q), p->iAddr, src, n, zErr, sizeof(zErr));
  return rc != 0 ? exec__cuda_error(rc, zErr, pErr) : 0;
}

int exec__buf_read(exec_backend *pB, exec_queue *q, const exec_buf *p, void *dst, size_t n,
                   sql_error *pErr) {
  if (pB->eKind == EXEC_BACKEND_CPU) {
    memcpy(dst, p->pHost, n);
    return 0;
  }
  return exec__queue_read(pB, q, dst, p->iAddr, n, pErr);
}

/* ---- launches ------------------------------------------------------------------ */

/* Blocks of nThread threads of k that one SM holds at once (0: none fit). */
static int exec_cuda_blocks_per_sm(exec_backend *pB, const cuda_kernel *pK, unsigned nThread) {
  char zErr[256];
  int n = 0;
  if (cuda_kernel_occupancy(pB->pCuda, pK, nThread, 0, &n, zErr, sizeof(zErr)) != 0) {
    const cuda_device_info *d = cuda_device_info_get(pB->pCuda);
    n = d->nThreadPerSm / (int)nThread;      /* the driver would not say: threads decide */
  }
  return n;
}

/* The block size for a stride's SCAN: the planner's, unless registers let
** an SM hold more threads in smaller blocks. The kernel is correct for any
** block size (a shared-memory group table is per block, its replicas
** chosen by lane), and the occupancy asked for counts its static shared
** memory. */
static unsigned exec_cuda_stride_threads(exec_backend *pB, const cuda_kernel *pK, unsigned nPlanned) {
  unsigned nBest = nPlanned;
  int nBestResident = exec_cuda_blocks_per_sm(pB, pK, nPlanned) * (int)nPlanned;
  for (unsigned n = nPlanned / 2; n >= 128; n /= 2) {
    int nResident = exec_cuda_blocks_per_sm(pB, pK, n) * (int)n;
    if (nResident > nBestResident) {
      nBest = n;
      nBestResident = nResident;
    }
  }
  return nBest;
}

/* Blocks and threads of a CUDA launch of k (see the file's comment). */
static void exec_cuda_grid(exec_backend *pB, const cg_program *g, const cg_kernel *k,
                           const cuda_kernel *pK, uint64_t nWork, unsigned *pnBlock,
                           unsigned *pnThread) {
  const cuda_device_info *d = cuda_device_info_get(pB->pCuda);
  uint64_t nThread = EXEC_CUDA_THREADS, nPer, nBlock;
  int nMax = cuda_kernel_max_threads(pK), bStride;
  if (k->eKind == CG_KERNEL_SCAN && g->nScanThread > 0) nThread = (uint64_t)g->nScanThread;
  if (k->eKind == CG_KERNEL_VALUES) nThread = 32;
  if (nMax > 0 && nThread > (uint64_t)nMax) nThread = (uint64_t)nMax / 32 * 32;
  if (nThread == 0) nThread = 32;
  bStride = k->eKind == CG_KERNEL_SCAN && g->iFact >= 0 &&
            nWork < (uint64_t)g->apTable[g->iFact]->nRow;
  if (bStride) nThread = exec_cuda_stride_threads(pB, pK, (unsigned)nThread);
  switch (k->eKind) {
    case CG_KERNEL_INIT:
    case CG_KERNEL_FINAL: nPer = nThread; break;
    case CG_KERNEL_VALUES: nPer = nWork ? nWork : 1; break;
    default: nPer = nThread * EXEC_ITEMS; break;
  }
  nBlock = (nWork + nPer - 1) / nPer;
  /* A SCAN loops over its tiles. Over a whole table: the planner's block
  ** size, at least one full wave of the blocks an SM can hold (occupancy)
  ** and at least EXEC_CUDA_SCAN_BLOCKS_PER_SM — measured on the H100, the
  ** planner's 1024-thread blocks four to an SM beat one wave of
  ** occupancy-sized smaller blocks by 15 % on zero-copy scans and 2 % on
  ** resident ones. Over one 32 MiB stride the opposite held (SF 100:
  ** 1.42-1.71x the floor against 1.17-1.46x): a second wave is a tail in
  ** every stride, so a stride gets exactly one wave (bench/RESULTS.md). */
  if (k->eKind == CG_KERNEL_SCAN) {
    int nPerSm = exec_cuda_blocks_per_sm(pB, pK, (unsigned)nThread);
    uint64_t nWave;
    if (nPerSm < 1) nPerSm = 1;
    if (!bStride && nPerSm < EXEC_CUDA_SCAN_BLOCKS_PER_SM) nPerSm = EXEC_CUDA_SCAN_BLOCKS_PER_SM;
    nWave = (uint64_t)d->nSm * (uint64_t)nPerSm;
    if (nBlock > nWave) nBlock = nWave;
  }
  if (nBlock > EXEC_CUDA_MAX_BLOCKS) nBlock = EXEC_CUDA_MAX_BLOCKS;
  if (nBlock == 0) nBlock = 1;
  *pnBlock = (unsigned)nBlock;
  *pnThread = (unsigned)nThread;
}

int exec__launch(exec_backend *pB, exec_queue *q, exec_module *pMod, const cg_program *g,
                 const cg_kernel *k, uint64_t nWork, const void *pArgs, size_t nArgs,
                 sql_error *pErr) {
  const char *zFn = pMod->zEntry != NULL ? pMod->zEntry : k->zName;
  char zErr[2048];
  if (pB->eKind == EXEC_BACKEND_CPU) {
    cpu_kernel *pK;
    uint64_t nBlock = (nWork + EXEC_ITEMS - 1) / EXEC_ITEMS;
    uint64_t nMax = (uint64_t)cpu_pool_threads(pB->pPool) * EXEC_CPU_BLOCKS_PER_THREAD;
    if (nBlock > nMax) nBlock = nMax;
    if (nBlock == 0) nBlock = 1;
    int rc = cpu_module_kernel(pMod->pCpu, zFn, &pK, zErr, sizeof(zErr));
    if (rc == 0) {
      rc = cpu_kernel_launch_cancel(pB->pPool, pK, (unsigned)nBlock, 0, pArgs, q->pbCancel, zErr,
                                    sizeof(zErr));
    }
    if (rc == CPU_STOPPED) {
      /* Blocks were skipped: what the kernel wrote is not a result. */
      sql_error_set(pErr, "57014", -1, "canceling statement due to user request");
      return -1;
    }
    if (rc != 0) {
      sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "kernel %s: %s", k->zName, zErr);
      return -1;
    }
  } else {
    cuda_kernel *pK;
    unsigned nBlock, nThread;
    if (cuda_module_kernel(pMod->pCuda, zFn, &pK, zErr, sizeof(zErr)) != 0) {
      sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "%s", zErr);
      return -1;
    }
    exec_cuda_grid(pB, g, k, pK, nWork, &nBlock, &nThread);
    if (cuda_kernel_launch_async(pB->pCuda, exec__queue_stream(q), pK, nBlock, nThread, 0, pArgs,
                                 nArgs, zErr, sizeof(zErr)) != 0) {
      return exec__cuda_error(-1, zErr, pErr);
    }
  }
  return 0;
}
