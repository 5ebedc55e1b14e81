/*
** tests/test-runtime-cuda-known.c — loads with a source hash
** (cuda_load_options.hSource), on the mock driver (tests/mock/): a caller
** that hashed its source once (codegen's cg_program.hSrc) gets the very
** module a load without the hash would, found on later runs without the
** text being hashed; the key it remembers per source hash never serves
** another source or another path; and after a context rebuild (every
** module forgotten) it loads the module again instead of trusting what it
** remembered. A load of one path compiles a text that defines SQ_PATH: a
** module per path (runtime/cuda-module.c).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/cuda.h"
#include "test-cuda-mock.h"
#include "test.h"

/* The module of a source hash and path is the module of its text: found
** again from memory, never handed to another source or path, and loaded
** afresh after a rebuild forgot it. */
TEST_IMPL(runtime_cuda_known) {
  cuda_options o = mocktest_options("cudacache");
  char *zA = mocktest_module_source(2, -1), *zB = mocktest_module_source(3, -1);
  cuda_load_options la = mocktest_load(zA, 2), lb = mocktest_load(zB, 3), lka, lkb;
  char zErr[4096];
  cuda_device *d;
  cuda_module *mA, *mB, *m;
  cuda_source e;
  unsigned iEpoch;

  lka = la;
  lka.hSource = hash128_of(zA, strlen(zA), 0);
  lkb = lb;
  lkb.hSource = hash128_of(zB, strlen(zB), 0);
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  /* The text's own load first: the hashed load must find that module. */
  CALL_OK(cuda_module_load(d, &la, &mA, &e, zErr, sizeof(zErr)));
  CALL_OK(cuda_module_load(d, &lka, &m, &e, zErr, sizeof(zErr)));
  ASSERT(m == mA);
  ASSERT_EQ(e, CUDA_SOURCE_MEMORY);
  cuda_module_release(m);
  /* Remembered now: again the same, from memory. */
  CALL_OK(cuda_module_load(d, &lka, &m, &e, zErr, sizeof(zErr)));
  ASSERT(m == mA);
  ASSERT_EQ(e, CUDA_SOURCE_MEMORY);
  cuda_module_release(m);

  /* Another source is another module, with its own kernels. */
  CALL_OK(cuda_module_load(d, &lkb, &mB, &e, zErr, sizeof(zErr)));
  ASSERT(mB != mA);
  ASSERT_EQ(mocktest_add_run(d, mB, "t_k2", 10, 1), (uint64_t)30);
  CALL_OK(cuda_module_load(d, &lkb, &m, &e, zErr, sizeof(zErr)));
  ASSERT(m == mB);
  cuda_module_release(m);
  CALL_OK(cuda_module_load(d, &lka, &m, &e, zErr, sizeof(zErr)));
  ASSERT(m == mA);
  ASSERT(cuda_module_kernel(m, "t_k2", &(cuda_kernel *){NULL}, zErr, sizeof(zErr)) != 0);
  cuda_module_release(m);

  /* A load of one path is not the module of both: its own. */
  lka.ePath = CUDA_PATH_PLAIN;
  CALL_OK(cuda_module_load(d, &lka, &m, &e, zErr, sizeof(zErr)));
  ASSERT(m != mA);
  ASSERT_EQ(mocktest_add_run(d, m, "t_k1", 10, 1), (uint64_t)20);
  cuda_module_release(m);
  lka.ePath = CUDA_PATH_ANY;
  cuda_module_release(mA);
  cuda_module_release(mB);

  /* A rebuild forgets every module: the remembered key leads to a new
  ** load (from the disk cache), whose kernels run. */
  iEpoch = cuda_device_use_begin(d);
  cuda_device_use_end(d);
  mocktest_fault_launch(1);
  {
    cuda_kernel *k;
    mocktest_add_args a = {0, 10, 1};
    CALL_OK(cuda_module_load(d, &lka, &m, &e, zErr, sizeof(zErr)));
    CALL_OK(cuda_module_kernel(m, "t_k0", &k, zErr, sizeof(zErr)));
    (void)cuda_device_use_begin(d);
    ASSERT(cuda_kernel_launch(d, k, 1, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)) != 0);
    cuda_device_use_end(d);
    cuda_module_release(m);
  }
  ASSERT(cuda_device_lost(d));
  CALL_OK(cuda_device_recover(d, iEpoch, zErr, sizeof(zErr)));
  CALL_OK(cuda_module_load(d, &lka, &m, &e, zErr, sizeof(zErr)));
  ASSERT(e != CUDA_SOURCE_MEMORY);
  ASSERT_EQ(mocktest_add_run(d, m, "t_k1", 10, 1), (uint64_t)20);
  cuda_module_release(m);
  CALL_OK(cuda_module_load(d, &lka, &m, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, CUDA_SOURCE_MEMORY);
  cuda_module_release(m);

  cuda_device_close(d);
  free(zA);
  free(zB);
  return 0;
}

/* A kernel that stores the SQ_PATH it was compiled with (0: undefined, the
** module of both paths) + 10, with t_add's arguments. */
static const char known_zPathBody[] =
    "struct t_add_args {\n  unsigned long long *pSum;\n  int64_t n;\n  unsigned long long v;\n};\n"
    "#ifndef SQ_PATH\n#define SQ_PATH 0\n#endif\n"
    "__global__ void t_path(const struct t_add_args a) {\n"
    "  if (blockIdx.x == 0 && threadIdx.x == 0) *a.pSum = 10ull + SQ_PATH;\n"
    "}\n"
    "STARQ_CPU_ENTRY(t_path, struct t_add_args)\n";

/* Each path's module holds only that path's side, and is found again by
** loads of its path alone; a run of both paths keeps the module that
** holds both. The mock counts the texts of each path it compiled. */
TEST_IMPL(runtime_cuda_known_paths) {
  static const cuda_path aePath[] = {CUDA_PATH_ANY, CUDA_PATH_PLAIN, CUDA_PATH_PACKED};
  static const char *const azKernel[1] = {"t_path"};
  cuda_options o = mocktest_options("cudacache");
  cuda_module *am[3];
  char zErr[4096];
  cuda_device *d;
  cuda_source e;
  int nPlain0, nPacked0, nPlain, nPacked;

  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  mocktest_nvrtc_paths(&nPlain0, &nPacked0);
  for (int i = 0; i < 3; i++) {
    cuda_load_options lo = {.zSource = known_zPathBody, .nKernel = 1, .azKernel = azKernel,
                            .ePath = aePath[i]};
    cuda_module *m;
    lo.hSource = hash128_of(known_zPathBody, strlen(known_zPathBody), 0);
    CALL_OK(cuda_module_load(d, &lo, &am[i], &e, zErr, sizeof(zErr)));
    ASSERT_EQ(e, CUDA_SOURCE_NVRTC);
    ASSERT_EQ(mocktest_add_run(d, am[i], "t_path", 1, 1), (uint64_t)(10 + aePath[i]));
    for (int j = 0; j < i; j++) ASSERT(am[i] != am[j]);
    CALL_OK(cuda_module_load(d, &lo, &m, &e, zErr, sizeof(zErr)));
    ASSERT(m == am[i]);
    ASSERT_EQ(e, CUDA_SOURCE_MEMORY);
    cuda_module_release(m);
  }
  mocktest_nvrtc_paths(&nPlain, &nPacked);
  ASSERT_EQ(nPlain - nPlain0, 1);
  ASSERT_EQ(nPacked - nPacked0, 1);
  for (int i = 0; i < 3; i++) cuda_module_release(am[i]);
  cuda_device_close(d);
  return 0;
}
