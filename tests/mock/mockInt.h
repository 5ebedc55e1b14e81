/*
** tests/mock/mockInt.h — what the parts of the mock driver library share
** (cuda-mock.c, the driver: contexts, memory, modules, launches;
** stream-mock.c, streams, events and the work queued on them;
** nvrtc-mock.c, NVRTC): the API's types, the symbols the driver's
** versioned names map to, the driver's state that the stream half checks
** work against, and the compile count that the statistics report.
*/
#ifndef STARQ_MOCK_INT_H
#define STARQ_MOCK_INT_H

#include <pthread.h>

/* The versioned symbols, as cuda.h maps them: each function is defined
** under the name dlsym looks up. */
#define cuDeviceTotalMem cuDeviceTotalMem_v2
#define cuDevicePrimaryCtxRelease cuDevicePrimaryCtxRelease_v2
#define cuDevicePrimaryCtxReset cuDevicePrimaryCtxReset_v2
#define cuStreamDestroy cuStreamDestroy_v2
#define cuMemcpyDtoHAsync cuMemcpyDtoHAsync_v2
#define cuMemcpyHtoDAsync cuMemcpyHtoDAsync_v2
#define cuEventDestroy cuEventDestroy_v2
#define cuEventElapsedTime cuEventElapsedTime_v2
#define cuMemGetInfo cuMemGetInfo_v2
#define cuMemAlloc cuMemAlloc_v2
#define cuMemFree cuMemFree_v2
#define cuMemsetD8 cuMemsetD8_v2
#define cuMemcpyHtoD cuMemcpyHtoD_v2
#define cuMemcpyDtoH cuMemcpyDtoH_v2
#define cuMemHostRegister cuMemHostRegister_v2
#define cuMemHostGetDevicePointer cuMemHostGetDevicePointer_v2

#include "../../runtime/cuda-api.h"

/* Declares a function of a cuda-api.h table under its name (the driver
** maps versioned names to their symbols above). */
#define MOCK_PROTO(ret, name, sym, params, req) ret name params;

/* The exported test hooks, found with dlsym. */
void starq_cuda_mock_stats(int *pnAlloc, int *pnRegister, int *pnCompile, int *pnLaunch);
void starq_cuda_mock_live(int *pnModule, int *pnStream, int *pnPinned, int *pnContextEnded);
void starq_cuda_mock_fault_launch(int n);
void starq_cuda_mock_copy_gate(int bClosed);
int starq_cuda_mock_copies_waiting(void);
int starq_cuda_mock_stream_syncs(void);

/* Returns how many programs nvrtcCompileProgram has compiled. */
int mock__compiles(void);

/* ---- cuda-mock.c, for stream-mock.c ---- */

/* Guards the driver's state, the streams' queues and the lists of live
** streams and events. */
extern pthread_mutex_t mock__mu;

/* Aborts the test: the backend broke a rule of the driver API. */
void mock__abort(const char *zWhy, const void *p, size_t n);

/* 1 while the context is lost: every call fails, queued work is dropped. */
int mock__lost(void);

/* A kernel faulted: the context is lost (and, under
** STARQ_CUDA_MOCK_STICKY, no context can be made again). */
void mock__fault(void);

/* Sleeps n milliseconds (none for n <= 0), through signals. */
void mock__sleep_ms(int n);

/* Aborts unless [x, x+n) lies in one live device allocation. */
void mock__check_dev(CUdeviceptr x, size_t n, const char *zCall);

/* Aborts unless f's module is live in this context. Called with mock__mu
** held; it is released before aborting. */
void mock__check_func(CUfunction f, const char *zCall);

/* 1 if [p, p+n) lies in pinned host memory: a cuMemHostAlloc buffer or a
** registered range, which asynchronous copies read or write when they run
** rather than at the call. */
int mock__host_pinned(const void *p, size_t n);

/* The bytes of f's argument block (its module's <kernel>__argsize). */
size_t mock__func_args(CUfunction f);

/* Runs nBlock blocks of f, one after another, on the calling thread. */
void mock__run_kernel(CUfunction f, unsigned nBlock, const void *pArgs);

/* ---- stream-mock.c, for cuda-mock.c ---- */

/* Aborts unless s is the legacy stream (NULL) or a live stream of this
** context. Called with mock__mu held; it is released before aborting. */
void mock__check_stream(CUstream s, const char *zCall);

/* Queues a launch of f on s (the argument block copied now, as the driver
** does); bFault: it loses the context when it runs. */
CUresult mock__queue_launch(CUstream s, CUfunction f, unsigned nBlock, const void *pArgs,
                            int bFault);

/* The context ends: every stream and event goes, queued work unrun.
** Called with mock__mu held. */
void mock__streams_end(void);

/* Live streams. Called with mock__mu held. */
int mock__streams_live(void);

#endif /* STARQ_MOCK_INT_H */
