/*
** tests/test-cuda-mock.c — the helpers of test-cuda-mock.h.
*/
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strbuf.h"
#include "test-cuda-mock.h"
#include "test.h"

typedef void (*mock_four_fn)(int *, int *, int *, int *);
typedef void (*mock_fault_fn)(int);

/* Returns the address of zSym in the loaded mock. */
static void *mocktest_sym(const char *zSym) {
  void *h = dlopen(test_bin(MOCK_LIB), RTLD_NOW | RTLD_NOLOAD);
  void *p;
  if (h == NULL) FAIL("the mock driver is not loaded");
  p = dlsym(h, zSym);
  if (p == NULL) FAIL("the mock driver has no %s", zSym);
  dlclose(h);                 /* NOLOAD took a reference of its own */
  return p;
}

mock_stats mocktest_stats(void) {
  mock_stats s;
  void *p = mocktest_sym("starq_cuda_mock_stats");
  mock_four_fn x;
  memcpy(&x, &p, sizeof(p));
  x(&s.nAlloc, &s.nRegister, &s.nCompile, &s.nLaunch);
  p = mocktest_sym("starq_cuda_mock_live");
  memcpy(&x, &p, sizeof(p));
  x(&s.nModule, &s.nStream, &s.nPinned, &s.nContextEnded);
  return s;
}

mock_nvrtc mocktest_nvrtc(void) {
  typedef void (*nvrtc_fn)(int *, int *, int *, int *);
  mock_nvrtc s;
  void *p = mocktest_sym("starq_cuda_mock_nvrtc");
  nvrtc_fn x;
  memcpy(&x, &p, sizeof(p));
  x(&s.nProgram, &s.nBackground, &s.nCc, &s.nMaxAtOnce);
  return s;
}

void mocktest_nvrtc_paths(int *pnPlain, int *pnPacked) {
  typedef void (*paths_fn)(int *, int *);
  void *p = mocktest_sym("starq_cuda_mock_nvrtc_paths");
  paths_fn x;
  memcpy(&x, &p, sizeof(p));
  x(pnPlain, pnPacked);
}

void mocktest_nvrtc_gate(int bClosed) {
  void *p = mocktest_sym("starq_cuda_mock_nvrtc_gate");
  mock_fault_fn x;
  memcpy(&x, &p, sizeof(p));
  x(bClosed);
}

void mocktest_fault_launch(int n) {
  void *p = mocktest_sym("starq_cuda_mock_fault_launch");
  mock_fault_fn x;
  memcpy(&x, &p, sizeof(p));
  x(n);
}

void mocktest_copy_gate(int bClosed) {
  void *p = mocktest_sym("starq_cuda_mock_copy_gate");
  mock_fault_fn x;
  memcpy(&x, &p, sizeof(p));
  x(bClosed);
}

/* Calls the mock's counter zSym, an int (void) function. */
static int mocktest_count(const char *zSym) {
  typedef int (*count_fn)(void);
  void *p = mocktest_sym(zSym);
  count_fn x;
  memcpy(&x, &p, sizeof(p));
  return x();
}

int mocktest_copies_waiting(void) {
  return mocktest_count("starq_cuda_mock_copies_waiting");
}

int mocktest_stream_syncs(void) {
  return mocktest_count("starq_cuda_mock_stream_syncs");
}

void mocktest_other_user(int bRetain) {
  typedef int (*retain_fn)(void **, int);
  typedef int (*release_fn)(int);
  void *p, *pCtx;
  if (bRetain) {
    retain_fn x;
    p = mocktest_sym("cuDevicePrimaryCtxRetain");
    memcpy(&x, &p, sizeof(p));
    ASSERT_EQ(x(&pCtx, 0), 0);
  } else {
    release_fn x;
    p = mocktest_sym("cuDevicePrimaryCtxRelease_v2");
    memcpy(&x, &p, sizeof(p));
    ASSERT_EQ(x(0), 0);
  }
}

/* The path is copied since test_bin's buffer is static. */
cuda_options mocktest_options(const char *zCacheDir) {
  static char zLib[4096];
  cuda_options o;
  snprintf(zLib, sizeof(zLib), "%s", test_bin(MOCK_LIB));
  memset(&o, 0, sizeof(o));
  o.zLibCuda = zLib;
  o.zLibNvrtc = zLib;
  o.zCacheDir = zCacheDir;
  return o;
}

char *mocktest_kernel_source(void) {
  static const char zKernel[] =
      "struct t_add_args {\n"
      "  unsigned long long *pSum;\n"
      "  int64_t n;\n"
      "  unsigned long long v;\n"
      "};\n"
      "__global__ void t_add(const struct t_add_args a) {\n"
      "  int64_t i;\n"
      "  for (i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.n;\n"
      "       i += (int64_t)gridDim.x * blockDim.x) {\n"
      "    atomicAdd(a.pSum, a.v);\n"
      "  }\n"
      "}\n"
      "STARQ_CPU_ENTRY(t_add, struct t_add_args)\n";
  char *z = strdup(zKernel);
  ASSERT(z != NULL);
  return z;
}

char *mocktest_module_source(int nKernel, int iBad) {
  strbuf b;
  char *z;
  strbuf_init(&b);
  strbuf_printf(&b, "struct t_add_args {\n  unsigned long long *pSum;\n  int64_t n;\n"
                "  unsigned long long v;\n};\n");
  for (int i = 0; i < nKernel; i++) {
    strbuf_printf(&b, "__global__ void t_k%d(const struct t_add_args a) {\n"
                  "  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.n;\n"
                  "       i += (int64_t)gridDim.x * blockDim.x) {\n"
                  "    atomicAdd(a.pSum, %dull * a.v);\n"
                  "  }\n%s"
                  "}\n"
                  "STARQ_CPU_ENTRY(t_k%d, struct t_add_args)\n",
                  i, i + 1, i == iBad ? "  this is not C;\n" : "", i);
  }
  ASSERT(!strbuf_error(&b));
  z = strdup(strbuf_str(&b));
  ASSERT(z != NULL);
  strbuf_free(&b);
  return z;
}

cuda_load_options mocktest_load(const char *zSrc, int nKernel) {
  static const char *const azKernel[8] = {"t_k0", "t_k1", "t_k2", "t_k3",
                                          "t_k4", "t_k5", "t_k6", "t_k7"};
  cuda_load_options lo;
  ASSERT(nKernel <= 8);
  memset(&lo, 0, sizeof(lo));
  lo.zSource = zSrc;
  lo.nKernel = nKernel;
  lo.azKernel = azKernel;
  return lo;
}

uint64_t mocktest_add_run(cuda_device *d, cuda_module *m, const char *zName, int64_t n,
                          uint64_t v) {
  cuda_kernel *k;
  cuda_ptr p;
  uint64_t x = 0;
  mocktest_add_args a = {0, n, v};
  char zErr[1024];
  (void)cuda_device_use_begin(d);
  CALL_OK(cuda_module_kernel(m, zName, &k, zErr, sizeof(zErr)));
  CALL_OK(cuda_mem_alloc(d, sizeof(x), &p, zErr, sizeof(zErr)));
  a.pSum = p;
  CALL_OK(cuda_mem_zero(d, p, sizeof(x), zErr, sizeof(zErr)));
  CALL_OK(cuda_kernel_launch(d, k, 4, 32, 0, &a, sizeof(a), zErr, sizeof(zErr)));
  CALL_OK(cuda_mem_read(d, &x, p, sizeof(x), zErr, sizeof(zErr)));
  cuda_mem_free(d, p);
  cuda_device_use_end(d);
  return x;
}
