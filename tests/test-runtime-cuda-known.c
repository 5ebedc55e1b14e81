/*
** tests/test-runtime-cuda-known.c — cuda_module_load_known, on the mock
** driver (tests/mock/): a caller that hashed its source once (codegen's
** cg_program.hSrc) gets the very module a load of the text would, found
** on later runs without the text being hashed; the keys it remembers per
** source hash never serve another source, another compile mode or
** another path; and after a context rebuild (every module forgotten) it
** loads the module again instead of trusting what it remembered. A load
** of one path compiles a text that defines SQ_PATH, at every tier: a
** module per path (runtime/cuda-module.c), unless $STARQ_PATH_MODULES=0.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/cuda.h"
#include "test-cuda-mock.h"
#include "test.h"

extern const char runtime_cpu_shim[];

/* The module of a source hash and options is the module of its text:
** found again from memory, never handed to another source, mode or
** path, and loaded afresh after a rebuild forgot it. */
TEST_IMPL(runtime_cuda_known) {
  cuda_options o = mocktest_options("cudacache");
  cuda_load_options lo = {1, CUDA_COMPILE_OPTIMIZED, CUDA_PATH_ANY, 0};
  /* The mock's sources carry the shim: what a caller hands over is the
  ** rest, as codegen's program is. */
  char *zA = mocktest_split_source(2, -1, -1), *zB = mocktest_split_source(3, -1, -1);
  const char *zBodyA = zA + strlen(runtime_cpu_shim) + 1, *zBodyB = zB + strlen(runtime_cpu_shim) + 1;
  const char *azKernel[3] = {"t_k0", "t_k1", "t_k2"};
  hash128 hA = hash128_of(zBodyA, strlen(zBodyA), 0), hB = hash128_of(zBodyB, strlen(zBodyB), 0);
  char zErr[4096];
  cuda_device *d;
  cuda_module *mA, *mB, *mFast, *m;
  cuda_source e;
  unsigned iEpoch;

  setenv("STARQ_PATH_MODULES", "0", 1);    /* one module of both paths */
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  unsetenv("STARQ_PATH_MODULES");
  /* The text's own load first: the known load must find that module. */
  CALL_OK(cuda_module_load(d, zA, 2, azKernel, &lo, &mA, &e, zErr, sizeof(zErr)));
  CALL_OK(cuda_module_load_known(d, hA, zBodyA, 2, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT(m == mA);
  ASSERT_EQ(e, CUDA_SOURCE_MEMORY);
  cuda_module_release(m);
  /* Remembered now: again the same, from memory. */
  CALL_OK(cuda_module_load_known(d, hA, zBodyA, 2, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT(m == mA);
  ASSERT_EQ(e, CUDA_SOURCE_MEMORY);
  cuda_module_release(m);

  /* Another source is another module, with its own kernels. */
  CALL_OK(cuda_module_load_known(d, hB, zBodyB, 3, azKernel, &lo, &mB, &e, zErr, sizeof(zErr)));
  ASSERT(mB != mA);
  ASSERT_EQ(mocktest_add_run(d, mB, "t_k2", 10, 1), (uint64_t)30);
  CALL_OK(cuda_module_load_known(d, hB, zBodyB, 3, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT(m == mB);
  cuda_module_release(m);
  CALL_OK(cuda_module_load_known(d, hA, zBodyA, 2, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT(m == mA);
  ASSERT(cuda_module_kernel(m, "t_k2", &(cuda_kernel *){NULL}, zErr, sizeof(zErr)) != 0);
  cuda_module_release(m);

  /* A fast-tier load of the same source is not the optimized module's key:
  ** its own module, of the fast tier. */
  lo.eMode = CUDA_COMPILE_FAST;
  CALL_OK(cuda_module_load_known(d, hA, zBodyA, 2, azKernel, &lo, &mFast, &e, zErr, sizeof(zErr)));
  ASSERT(mFast != mA);
  ASSERT_EQ(cuda_module_info_get(mFast)->eTier, CUDA_TIER_FAST);
  ASSERT_EQ(mocktest_add_run(d, mFast, "t_k1", 10, 1), (uint64_t)20);
  cuda_module_release(mFast);
  /* A tiered load of one path runs the optimized module of both (with
  ** $STARQ_PATH_MODULES=0; the module per path of the default is
  ** runtime_cuda_known_paths'). */
  lo.eMode = CUDA_COMPILE_TIERED;
  lo.ePath = CUDA_PATH_PLAIN;
  CALL_OK(cuda_module_load_known(d, hA, zBodyA, 2, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT(m == mA);
  cuda_module_release(m);
  lo.eMode = CUDA_COMPILE_OPTIMIZED;
  lo.ePath = CUDA_PATH_ANY;
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
    CALL_OK(cuda_module_load_known(d, hA, zBodyA, 2, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
    CALL_OK(cuda_module_kernel(m, "t_k0", &k, zErr, sizeof(zErr)));
    (void)cuda_device_use_begin(d);
    ASSERT(cuda_kernel_launch(d, k, 1, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)) != 0);
    cuda_device_use_end(d);
    cuda_module_release(m);
  }
  ASSERT(cuda_device_lost(d));
  CALL_OK(cuda_device_recover(d, iEpoch, zErr, sizeof(zErr)));
  CALL_OK(cuda_module_load_known(d, hA, zBodyA, 2, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
  ASSERT(e != CUDA_SOURCE_MEMORY);
  ASSERT_EQ(mocktest_add_run(d, m, "t_k1", 10, 1), (uint64_t)20);
  cuda_module_release(m);
  CALL_OK(cuda_module_load_known(d, hA, zBodyA, 2, azKernel, &lo, &m, &e, zErr, sizeof(zErr)));
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

/* By default each path's module holds only that path's side, optimized
** as well as fast, and is found again by loads of its path alone; a run of
** both paths keeps the module that holds both. With $STARQ_PATH_MODULES=0
** an optimized load of one path gets the module of both. */
TEST_IMPL(runtime_cuda_known_paths) {
  static const cuda_path aePath[] = {CUDA_PATH_ANY, CUDA_PATH_PLAIN, CUDA_PATH_PACKED};
  static const cuda_compile_mode aeMode[] = {CUDA_COMPILE_OPTIMIZED, CUDA_COMPILE_FAST};
  cuda_options o = mocktest_options("cudacache");
  const char *azKernel[1] = {"t_path"};
  hash128 h = hash128_of(known_zPathBody, strlen(known_zPathBody), 0);
  cuda_module *am[2][3];
  char zErr[4096];
  cuda_device *d;
  cuda_source e;
  {
    cuda_load_options lo = {0, CUDA_COMPILE_OPTIMIZED, CUDA_PATH_PLAIN, 0};
    cuda_module *m;
    setenv("STARQ_PATH_MODULES", "0", 1);
    CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
    unsetenv("STARQ_PATH_MODULES");
    CALL_OK(cuda_module_load_known(d, h, known_zPathBody, 1, azKernel, &lo, &m, &e, zErr,
                                   sizeof(zErr)));
    ASSERT_EQ(mocktest_add_run(d, m, "t_path", 1, 1), (uint64_t)10);
    cuda_module_release(m);
    cuda_device_close(d);
  }
  CALL_OK(cuda_device_open(&o, &d, zErr, sizeof(zErr)));
  for (int iMode = 0; iMode < 2; iMode++) {
    for (int i = 0; i < 3; i++) {
      cuda_load_options lo = {0, aeMode[iMode], aePath[i], 0};
      cuda_module *m;
      CALL_OK(cuda_module_load_known(d, h, known_zPathBody, 1, azKernel, &lo, &am[iMode][i], &e,
                                     zErr, sizeof(zErr)));
      ASSERT(e != CUDA_SOURCE_MEMORY);    /* the disk holds both paths' from above */
      ASSERT_EQ(mocktest_add_run(d, am[iMode][i], "t_path", 1, 1), (uint64_t)(10 + aePath[i]));
      for (int j = 0; j < i; j++) ASSERT(am[iMode][i] != am[iMode][j]);
      CALL_OK(cuda_module_load_known(d, h, known_zPathBody, 1, azKernel, &lo, &m, &e, zErr,
                                     sizeof(zErr)));
      if (aeMode[iMode] == CUDA_COMPILE_OPTIMIZED) {
        ASSERT(m == am[iMode][i]);
        ASSERT_EQ(e, CUDA_SOURCE_MEMORY);
      }
      cuda_module_release(m);
    }
  }
  for (int iMode = 0; iMode < 2; iMode++) {
    for (int i = 0; i < 3; i++) cuda_module_release(am[iMode][i]);
  }
  cuda_device_close(d);
  return 0;
}
