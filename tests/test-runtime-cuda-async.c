/*
** tests/test-runtime-cuda-async.c — the CUDA backend's streams, launches
** that return before the kernel ends, kernel attributes and occupancy,
** pinned host memory and memory figures, on the mock driver
** (tests/mock/cuda-mock.c; CI has no GPU). The mock runs queued work only
** when the stream is waited for (tests/mock/stream-mock.c), so what is
** checked here is the host side and the order: what reaches the driver,
** on which stream, with which arguments, and what comes back when.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/cuda.h"
#include "test-cuda-mock.h"
#include "test.h"

/* Opens the mock device and loads t_add; *pk is the kernel. */
static cuda_device *asynctest_open(cuda_module **ppMod, cuda_kernel **pk) {
  cuda_options o = mocktest_options("cudacache");
  const char *azKernel[] = {"t_add"};
  char zErr[4096], *zSrc = mocktest_kernel_source();
  cuda_device *d;
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  cuda_load_options lo = {.zSource = zSrc, .nKernel = 1, .azKernel = azKernel};
  CALL_OK(cuda_module_load(d, &lo, ppMod, NULL, zErr, sizeof(zErr)));
  CALL_OK(cuda_module_kernel(*ppMod, "t_add", pk, zErr, sizeof(zErr)));
  free(zSrc);
  return d;
}

/* Launches on a stream: arguments are taken at the call (the block is
** changed and reused between launches), work runs in stream order, a
** read into pinned memory sees every kernel before it; the synchronous
** launch still works beside streams; stale and missing streams fail. */
TEST_IMPL(runtime_cuda_async) {
  cuda_module *m;
  cuda_kernel *k;
  cuda_device *d = asynctest_open(&m, &k);
  cuda_stream *s, *s2;
  cuda_ptr pSum;
  uint64_t *pHost;
  mocktest_add_args a;
  mock_stats st;
  char zErr[1024];
  int nLaunch0 = mocktest_stats().nLaunch;
  unsigned iEpoch = cuda_device_use_begin(d);

  ASSERT_EQ(iEpoch, 1);
  CALL_OK(cuda_stream_create(d, &s, zErr, sizeof(zErr)));
  CALL_OK(cuda_stream_create(d, &s2, zErr, sizeof(zErr)));
  ASSERT_EQ(mocktest_stats().nStream, 2);
  CALL_OK(cuda_mem_alloc(d, sizeof(uint64_t), &pSum, zErr, sizeof(zErr)));
  CALL_OK(cuda_host_alloc(d, sizeof(uint64_t), (void **)&pHost, zErr, sizeof(zErr)));

  /* Cleared, then 1000 x 1, then 10 x 1000 from the same block reused. */
  CALL_OK(cuda_mem_zero_async(d, s, pSum, sizeof(uint64_t), zErr, sizeof(zErr)));
  a.pSum = pSum;
  a.n = 1000;
  a.v = 1;
  CALL_OK(cuda_kernel_launch_async(d, s, k, 7, 64, 0, &a, sizeof(a), zErr, sizeof(zErr)));
  a.n = 10;
  a.v = 1000;
  CALL_OK(cuda_kernel_launch_async(d, s, k, 3, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)));
  memset(&a, 0xff, sizeof(a));
  *pHost = 0;
  CALL_OK(cuda_mem_read_async(d, s, pHost, pSum, sizeof(uint64_t), zErr, sizeof(zErr)));
  CALL_OK(cuda_stream_sync(d, s, zErr, sizeof(zErr)));
  ASSERT_EQ(*pHost, 11000);
  ASSERT_EQ(mocktest_stats().nLaunch, nLaunch0 + 2);

  /* Not before the wait: a pinned read lands when the stream runs, and
  ** timing marks are there only after it; a write from pageable memory
  ** is staged at the call, so the source may change at once. */
  {
    uint64_t v = 7;
    double r = -1;
    CALL_OK(cuda_stream_mark(d, s, 0, zErr, sizeof(zErr)));
    CALL_OK(cuda_mem_write_async(d, s, pSum, &v, sizeof(v), zErr, sizeof(zErr)));
    v = 8;
    a.pSum = pSum;
    a.n = 1;
    a.v = 5;
    CALL_OK(cuda_kernel_launch_async(d, s, k, 1, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)));
    CALL_OK(cuda_stream_mark(d, s, 1, zErr, sizeof(zErr)));
    *pHost = 0;
    CALL_OK(cuda_mem_read_async(d, s, pHost, pSum, sizeof(uint64_t), zErr, sizeof(zErr)));
    ASSERT_EQ(*pHost, 0);
    ASSERT(cuda_stream_mark_seconds(d, s, 0, 1, &r, zErr, sizeof(zErr)) != 0);
    ASSERT(strstr(zErr, "CUDA_ERROR_NOT_READY") != NULL);
    CALL_OK(cuda_stream_sync(d, s, zErr, sizeof(zErr)));
    ASSERT_EQ(*pHost, 12);
    CALL_OK(cuda_stream_mark_seconds(d, s, 0, 1, &r, zErr, sizeof(zErr)));
    ASSERT(r >= 0 && r < 60);
    CALL_ERR(cuda_stream_mark_seconds(d, s, 0, 2, &r, zErr, sizeof(zErr)),
             "timing marks 0 and 2: only 2 set");
    CALL_ERR(cuda_stream_mark(d, s, CUDA_STREAM_MARKS_MAX, zErr, sizeof(zErr)),
             "timing mark 256: a stream has marks 0 to 255");
    CALL_OK(cuda_mem_zero_async(d, s, pSum, sizeof(uint64_t), zErr, sizeof(zErr)));
    CALL_OK(cuda_stream_sync(d, s, zErr, sizeof(zErr)));
    a.n = 1000;
    a.v = 11;
    CALL_OK(cuda_kernel_launch_async(d, s, k, 7, 64, 0, &a, sizeof(a), zErr, sizeof(zErr)));
    CALL_OK(cuda_stream_sync(d, s, zErr, sizeof(zErr)));
    CALL_OK(cuda_mem_read_async(d, s, pHost, pSum, sizeof(uint64_t), zErr, sizeof(zErr)));
    CALL_OK(cuda_stream_sync(d, s, zErr, sizeof(zErr)));
    ASSERT_EQ(*pHost, 11000);
  }

  /* The synchronous path beside it: legacy stream, complete on return. */
  a.pSum = pSum;
  a.n = 5;
  a.v = 2;
  CALL_OK(cuda_kernel_launch(d, k, 1, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)));
  CALL_OK(cuda_mem_read(d, pHost, pSum, sizeof(uint64_t), zErr, sizeof(zErr)));
  ASSERT_EQ(*pHost, 11010);
  ASSERT_EQ(mocktest_stats().nLaunch, nLaunch0 + 5);

  /* An empty launch, and no stream, are refused before the driver. */
  CALL_ERR(cuda_kernel_launch_async(d, s2, k, 0, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)),
           "kernel t_add: an empty launch (0 blocks of 32 threads, 24 argument bytes)");
  CALL_ERR(cuda_kernel_launch_async(d, NULL, k, 1, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)),
           "cuLaunchKernel: no stream");
  CALL_ERR(cuda_stream_sync(d, NULL, zErr, sizeof(zErr)), "cuStreamSynchronize: no stream");
  CALL_OK(cuda_mem_zero_async(d, s2, pSum, 0, zErr, sizeof(zErr)));   /* nothing to do */

  cuda_stream_destroy(d, s);
  cuda_stream_destroy(d, s2);
  cuda_stream_destroy(d, NULL);
  cuda_host_free(d, pHost);
  cuda_host_free(d, NULL);
  cuda_mem_free(d, pSum);
  cuda_device_use_end(d);
  st = mocktest_stats();
  ASSERT_EQ(st.nStream, 0);
  ASSERT_EQ(st.nPinned, 0);
  ASSERT_EQ(st.nAlloc, 0);
  cuda_module_release(m);
  cuda_device_close(d);
  ASSERT_EQ(mocktest_stats().nModule, 0);
  return 0;
}

/* The attributes read at load, and occupancy that is positive and obeys
** the limits: never more threads than a multiprocessor runs, fewer blocks
** with more shared memory, none past the kernel's thread limit — and kept
** with the kernel once asked. Memory figures follow allocations. */
TEST_IMPL(runtime_cuda_occupancy) {
  cuda_module *m;
  cuda_kernel *k;
  cuda_device *d = asynctest_open(&m, &k);
  const cuda_device_info *pInfo = cuda_device_info_get(d);
  cuda_kernel_attrs at;
  int n256, n128, n128Shared, nOver, nTooBig, n256Kept;
  uint64_t nFree, nTotal, nFree2, nTotal2;
  cuda_ptr p;
  char zErr[1024];

  cuda_kernel_attrs_get(k, &at);
  ASSERT_EQ(at.nReg, 80);                     /* the mock's kernel (cuda-mock.c) */
  ASSERT_EQ(at.nSharedStatic, 2048);
  ASSERT_EQ(at.nLocal, 0);
  ASSERT_EQ(at.nMaxThread, 768);
  ASSERT_EQ(cuda_kernel_max_threads(k), 768);

  CALL_OK(cuda_kernel_occupancy(d, k, 256, 0, &n256, zErr, sizeof(zErr)));
  n256Kept = n256;
  CALL_OK(cuda_kernel_occupancy(d, k, 128, 0, &n128, zErr, sizeof(zErr)));
  CALL_OK(cuda_kernel_occupancy(d, k, 128, 48 << 10, &n128Shared, zErr, sizeof(zErr)));
  CALL_OK(cuda_kernel_occupancy(d, k, 1024, 0, &nOver, zErr, sizeof(zErr)));
  CALL_OK(cuda_kernel_occupancy(d, k, 32, 1 << 20, &nTooBig, zErr, sizeof(zErr)));
  ASSERT_GT(n256, 0);
  ASSERT_LE(n256 * 256, pInfo->nThreadPerSm);
  ASSERT_LE(n256 * 256 * at.nReg, 65536);     /* registers bound it here */
  ASSERT_GE(n128, n256);
  ASSERT_GT(n128Shared, 0);
  ASSERT_LT(n128Shared, n128);                /* shared memory bounds it */
  ASSERT_EQ(nOver, 0);                        /* past the kernel's 768 threads */
  ASSERT_EQ(nTooBig, 0);
  CALL_ERR(cuda_kernel_occupancy(d, k, 0, 0, &n256, zErr, sizeof(zErr)),
           "kernel t_add: occupancy of blocks of 0 threads");

  CALL_OK(cuda_mem_info(d, &nFree, &nTotal, zErr, sizeof(zErr)));
  ASSERT_EQ(nTotal, pInfo->nGlobal);
  ASSERT_LE(nFree, nTotal);
  CALL_OK(cuda_mem_alloc(d, 3 << 20, &p, zErr, sizeof(zErr)));
  CALL_OK(cuda_mem_info(d, &nFree2, &nTotal2, zErr, sizeof(zErr)));
  ASSERT_EQ(nTotal2, nTotal);
  ASSERT_EQ(nFree2, nFree - (3 << 20));
  cuda_mem_free(d, p);
  CALL_OK(cuda_mem_info(d, &nFree2, &nTotal2, zErr, sizeof(zErr)));
  ASSERT_EQ(nFree2, nFree);

  /* Kept with the kernel: asked again, the answer comes without the
  ** driver — here a lost context, which answers nothing new. */
  {
    mocktest_add_args a = {0, 0, 0};          /* no thread touches pSum */
    int n = -1;
    mocktest_fault_launch(1);
    ASSERT(cuda_kernel_launch(d, k, 1, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)) != 0);
    ASSERT(cuda_device_lost(d));
    CALL_OK(cuda_kernel_occupancy(d, k, 256, 0, &n, zErr, sizeof(zErr)));
    ASSERT_EQ(n, n256Kept);
    ASSERT(cuda_kernel_occupancy(d, k, 64, 0, &n, zErr, sizeof(zErr)) != 0);
    ASSERT(cuda_kernel_occupancy(d, k, 128, 48 << 10, &n, zErr, sizeof(zErr)) != 0);
  }

  cuda_module_release(m);
  CALL_OK(cuda_device_recover(d, 1, zErr, sizeof(zErr)));
  cuda_device_close(d);
  return 0;
}
