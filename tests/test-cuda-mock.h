/*
** tests/test-cuda-mock.h — what the CUDA backend's tests share about the
** mock driver (tests/mock/cuda-mock.c): options that name it, its
** counters and fault injection (found with dlsym in the loaded mock), and
** a small kernel module in the dialect of generated code.
*/
#ifndef STARQ_TEST_CUDA_MOCK_H
#define STARQ_TEST_CUDA_MOCK_H

#include <stdint.h>

#include "../runtime/cuda.h"

#define MOCK_LIB "libstarq-cuda-mock.so"

/* The mock's counters. */
typedef struct mock_stats mock_stats;
struct mock_stats {
  int nAlloc, nRegister;   /* live device buffers, host registrations */
  int nCompile, nLaunch;   /* "NVRTC" compiles and launches so far */
  int nModule, nStream;    /* live modules and streams */
  int nPinned;             /* live cuMemHostAlloc buffers */
  int nContextEnded;       /* contexts reset or released for good */
};

/* Reads the counters; fails the test unless the mock is loaded. */
mock_stats mocktest_stats(void);

/* The mock NVRTC's counters (tests/mock/nvrtc-mock.c). */
typedef struct mock_nvrtc mock_nvrtc;
struct mock_nvrtc {
  int nProgram;            /* nvrtcCompileProgram calls */
  int nBackground;         /* of them by the background compiler (a thread
                           ** of lower priority than the process's main) */
  int nCc;                 /* sources compiled by cc (once per text) */
  int nMaxAtOnce;          /* most programs compiling at once so far */
};
mock_nvrtc mocktest_nvrtc(void);

/* Programs the mock NVRTC compiled so far of a text that defines SQ_PATH
** 1 (the plain side of packed loads only) and 2 (the decode only). */
void mocktest_nvrtc_paths(int *pnPlain, int *pnPacked);

/* Closes (1) or opens (0) the mock's gate in front of background
** compiles: while closed they wait at their start; the foreground's pass. */
void mocktest_nvrtc_gate(int bClosed);

/* Makes the nth launch from now (1: the next) fault with
** CUDA_ERROR_ILLEGAL_ADDRESS, losing the context until it is reset. */
void mocktest_fault_launch(int n);

/* Closes (bClosed) or opens the mock's gate: while it is closed every
** cuMemcpyHtoD waits, as a long copy would. mocktest_copies_waiting():
** how many wait at it now. */
void mocktest_copy_gate(int bClosed);
int mocktest_copies_waiting(void);

/* cuStreamSynchronize calls on streams so far (the host's waits for a
** query's work; the legacy stream's are not counted). */
int mocktest_stream_syncs(void);

/* Retains (bRetain) or releases the mock's primary context behind the
** backend's back, as another CUDA user in the process would. */
void mocktest_other_user(int bRetain);

/* Options naming the mock for both libraries, the CUBIN cache in
** zCacheDir. */
cuda_options mocktest_options(const char *zCacheDir);

/* The source of a module with one kernel, t_add: every one of the
** grid's threads adds v to *pSum while its index is below n — a result
** that says whether each launch ran, with which arguments. malloc'd;
** every load puts runtime/cpu-shim.h in front of it. */
char *mocktest_kernel_source(void);

/* The source of a module of nKernel kernels t_k0, t_k1, ...: t_ki adds
** (i + 1) * v per thread below n, with t_add's arguments. iBad >= 0:
** kernel iBad's body does not compile. malloc'd, without the shim. */
char *mocktest_module_source(int nKernel, int iBad);

/* The load options of source zSrc's nKernel kernels t_k0 ... (names
** static: at most 8), waited for, both paths. */
cuda_load_options mocktest_load(const char *zSrc, int nKernel);

/* t_add's argument block, as the kernel declares it. */
typedef struct mocktest_add_args mocktest_add_args;
struct mocktest_add_args {
  cuda_ptr pSum;           /* unsigned long long *, in device memory */
  int64_t n;
  uint64_t v;
};

/* Runs kernel zName of m (mocktest_split_source's t_ki) on 4 blocks of 32
** threads, every thread below n adding its share of v (t_ki: (i + 1) * v).
** Returns the sum. */
uint64_t mocktest_add_run(cuda_device *d, cuda_module *m, const char *zName, int64_t n,
                          uint64_t v);

#endif /* STARQ_TEST_CUDA_MOCK_H */
