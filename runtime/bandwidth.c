/*
** runtime/bandwidth.c — what the backend's memory can be read at, measured
** here and now: the zero-copy (PCIe) bandwidth of pinned host memory and
** the device-memory bandwidth. They are the floors every scan is compared
** with — a query's fact bytes ÷ bandwidth — in the server's /status, in
** SHOW starq.last_query and in the benchmarks, so all of them compare with
** the same machine on the same day rather than with a datasheet.
**
** One read kernel (16-byte loads, a grid-stride loop unrolled by four, a
** result that depends on every load so none is dropped) reads a buffer of
** nByte bytes: first malloc'd and registered with the driver (zero-copy,
** as pinned columns are read), then copied to device memory. Each is run
** with several grid sizes, a few times each, and the best is kept: the
** floor is what the hardware can do, not what one launch happened to get.
** nByte should dwarf the L2 cache (50 MB on the H100) or the device figure
** measures the cache.
**
** The CPU backend has no such floors here: 0 means unknown.
**
** INTERFACE ROUTINES
**   exec_backend_bandwidth   measure both bandwidths
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/timer.h"
#include "exec.h"

static const char bandwidth_zKernel[] =
    "struct __align__(16) bw_v4 { unsigned x, y, z, w; };\n"
    "struct bw_args { const struct bw_v4 *p; unsigned long long n; unsigned long long *out; };\n"
    "__global__ void bw_read(const struct bw_args a) {\n"
    "  unsigned x = 0;\n"
    "  unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;\n"
    "  unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;\n"
    "  for (; i + 3 * step < a.n; i += 4 * step) {\n"
    "    struct bw_v4 v0 = a.p[i], v1 = a.p[i + step], v2 = a.p[i + 2 * step], v3 = a.p[i + 3 * step];\n"
    "    x ^= v0.x ^ v1.y ^ v2.z ^ v3.w;\n"
    "  }\n"
    "  for (; i < a.n; i += step) x ^= a.p[i].x;\n"
    "  if (x == 0x9e3779b9u) atomicAdd(a.out, 1ull);   /* keeps the loads */\n"
    "}\n"
    "STARQ_CPU_ENTRY(bw_read, struct bw_args)\n";

/* The kernel's argument block, as the device sees it. */
typedef struct bandwidth_args bandwidth_args;
struct bandwidth_args {
  uint64_t p, n, out;
};

/* Best bandwidth (bytes/s) of reading n bytes at device address x, over
** grids of 2 to 16 blocks of 512 threads per SM. Returns 0 with *pr, or
** -1 with zErr. */
static int bandwidth_best(cuda_device *d, const cuda_kernel *k, cuda_ptr x, uint64_t n,
                          cuda_ptr xOut, double *pr, char *zErr, size_t nErr) {
  static const int aPerSm[] = {2, 4, 8, 16};
  const cuda_device_info *pInfo = cuda_device_info_get(d);
  bandwidth_args a = {x, n / 16, xOut};
  *pr = 0;
  for (size_t c = 0; c < sizeof(aPerSm) / sizeof(aPerSm[0]); c++) {
    for (int r = 0; r < 3; r++) {
      double t0 = timer_now(), t;
      if (cuda_kernel_launch(d, k, (unsigned)(pInfo->nSm * aPerSm[c]), 512, 0, &a, sizeof(a), zErr,
                             nErr) != 0) {
        return -1;
      }
      t = timer_now() - t0;
      if (t > 0 && (double)n / t > *pr) *pr = (double)n / t;
    }
  }
  return 0;
}

int exec_backend_bandwidth(exec_backend *pB, uint64_t nByte, exec_bandwidth *p, char *zErr,
                           size_t nErr) {
  static const char *const azKernel[] = {"bw_read"};
  cuda_load_options lo = {.zSource = bandwidth_zKernel, .nKernel = 1, .azKernel = azKernel};
  cuda_device *d = pB->pCuda;
  cuda_module *m = NULL;
  cuda_kernel *k;
  cuda_ptr xDev = 0, xOut = 0, xHost = 0;
  void *pHost = NULL;
  int rc = -1;
  memset(p, 0, sizeof(*p));
  if (pB->eKind != EXEC_BACKEND_CUDA || nByte == 0) return 0;
  nByte = (nByte + 4095) & ~(uint64_t)4095;
  if (cuda_module_load(d, &lo, &m, NULL, zErr, nErr) != 0) return -1;
  if (cuda_module_kernel(m, "bw_read", &k, zErr, nErr) != 0) goto out;
  if (posix_memalign(&pHost, 4096, nByte) != 0) {
    pHost = NULL;
    snprintf(zErr, nErr, "out of memory: %llu bytes to measure bandwidth with",
             (unsigned long long)nByte);
    goto out;
  }
  memset(pHost, 1, nByte);
  if (cuda_mem_alloc(d, 8, &xOut, zErr, nErr) != 0 ||
      cuda_host_register(d, pHost, nByte, &xHost, zErr, nErr) != 0 ||
      bandwidth_best(d, k, xHost, nByte, xOut, &p->rZeroCopy, zErr, nErr) != 0 ||
      cuda_mem_alloc(d, nByte, &xDev, zErr, nErr) != 0 ||
      cuda_mem_write(d, xDev, pHost, nByte, zErr, nErr) != 0 ||
      bandwidth_best(d, k, xDev, nByte, xOut, &p->rDevice, zErr, nErr) != 0) {
    memset(p, 0, sizeof(*p));
    goto out;
  }
  rc = 0;
out:
  if (xHost != 0) cuda_host_unregister(d, pHost);
  cuda_mem_free(d, xDev);
  cuda_mem_free(d, xOut);
  free(pHost);
  cuda_module_release(m);
  return rc;
}
