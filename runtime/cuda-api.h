/*
** runtime/cuda-api.h — the part of the CUDA driver API (cuda.h) and of
** NVRTC (nvrtc.h) that starq calls, written out by hand.
**
** Why by hand: DESIGN decision 3 wants one binary that runs with or
** without a GPU, so libcuda.so.1 and libnvrtc are opened with dlopen at
** run time (runtime/cuda-lib.c) and nothing links against them; and the
** build machine has no CUDA headers. What is declared here is therefore
** only data: types, enum values, and a table of the functions as pointer
** types, with the symbol each one is looked up under.
**
** Names are NVIDIA's own, so the backend reads like any CUDA program. Each
** value and signature is checked against the real headers on a GPU
** machine by bench/cuda-api-check.cpp (`bench/device.sh api-check`), which
** includes this file in a namespace beside cuda.h and nvrtc.h and
** static_asserts every constant and every function's argument layout.
** Change a line here and run that check.
**
** Symbol names: where cuda.h maps a function to a versioned symbol
** (`#define cuMemAlloc cuMemAlloc_v2`), the table names that symbol, since
** dlsym sees symbols, not macros. The plain names are the CUDA 3.x ABI.
** The stream-ordered calls (cuStreamSynchronize, cuLaunchKernel,
** cuMemsetD8Async, ...) have _ptsz/_ptds twins that cuda.h picks only under
** CUDA_API_PER_THREAD_DEFAULT_STREAM; starq wants the legacy default
** stream (a NULL CUstream) to be the one stream all threads share, so the
** table names the plain symbols.
**
** Include nothing but <stddef.h> here: the check includes this file inside
** a C++ namespace.
*/
#ifndef STARQ_CUDA_API_H
#define STARQ_CUDA_API_H

#include <stddef.h>

/* ---- driver API types (cuda.h) ------------------------------------------ */

typedef unsigned long long CUdeviceptr;  /* 64-bit platforms only */
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

/* The results starq looks at; any other value is reported by name through
** cuGetErrorName. X(name, value) */
#define CUDA_API_RESULTS(X)                                                  \
  X(CUDA_SUCCESS, 0)                                                         \
  X(CUDA_ERROR_INVALID_VALUE, 1)                                             \
  X(CUDA_ERROR_OUT_OF_MEMORY, 2)                                             \
  X(CUDA_ERROR_NOT_INITIALIZED, 3)                                           \
  X(CUDA_ERROR_DEINITIALIZED, 4)                                             \
  X(CUDA_ERROR_NO_DEVICE, 100)                                               \
  X(CUDA_ERROR_INVALID_DEVICE, 101)                                          \
  X(CUDA_ERROR_INVALID_IMAGE, 200)                                           \
  X(CUDA_ERROR_NO_BINARY_FOR_GPU, 209)                                       \
  X(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, 222)                                 \
  X(CUDA_ERROR_NOT_FOUND, 500)                                               \
  X(CUDA_ERROR_NOT_READY, 600)                                               \
  X(CUDA_ERROR_ILLEGAL_ADDRESS, 700)                                         \
  X(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, 701)                                 \
  X(CUDA_ERROR_LAUNCH_TIMEOUT, 702)                                          \
  X(CUDA_ERROR_ASSERT, 710)                                                  \
  X(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, 712)                          \
  X(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, 713)                              \
  X(CUDA_ERROR_HARDWARE_STACK_ERROR, 714)                                    \
  X(CUDA_ERROR_ILLEGAL_INSTRUCTION, 715)                                     \
  X(CUDA_ERROR_MISALIGNED_ADDRESS, 716)                                      \
  X(CUDA_ERROR_INVALID_ADDRESS_SPACE, 717)                                   \
  X(CUDA_ERROR_INVALID_PC, 718)                                              \
  X(CUDA_ERROR_LAUNCH_FAILED, 719)                                           \
  X(CUDA_ERROR_NOT_SUPPORTED, 801)

#define CUDA_API_ENUM_ITEM(name, value) name = value,
typedef enum cudaError_enum { CUDA_API_RESULTS(CUDA_API_ENUM_ITEM) } CUresult;

/* Device attributes starq reads (cuDeviceGetAttribute). */
#define CUDA_API_DEVICE_ATTRIBUTES(X)                                        \
  X(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1)                            \
  X(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 16)                            \
  X(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 19)                             \
  X(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 38)                                   \
  X(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 39)                  \
  X(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 41)                              \
  X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 75)                        \
  X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 76)                        \
  X(CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED, 99)                         \
  X(CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED, 113)

typedef enum CUdevice_attribute_enum {
  CUDA_API_DEVICE_ATTRIBUTES(CUDA_API_ENUM_ITEM)
} CUdevice_attribute;

/* Function attributes starq reads (cuFuncGetAttribute). */
#define CUDA_API_FUNCTION_ATTRIBUTES(X)                                      \
  X(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0)                              \
  X(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, 1)                                  \
  X(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, 3)                                   \
  X(CU_FUNC_ATTRIBUTE_NUM_REGS, 4)

typedef enum CUfunction_attribute_enum {
  CUDA_API_FUNCTION_ATTRIBUTES(CUDA_API_ENUM_ITEM)
} CUfunction_attribute;

/* cuMemHostRegister flags (macros in cuda.h too). */
#define CUDA_API_HOSTREGISTER_FLAGS(X)                                       \
  X(CU_MEMHOSTREGISTER_PORTABLE, 0x01)                                       \
  X(CU_MEMHOSTREGISTER_DEVICEMAP, 0x02)                                      \
  X(CU_MEMHOSTREGISTER_READ_ONLY, 0x08)

#define CU_MEMHOSTREGISTER_PORTABLE 0x01
#define CU_MEMHOSTREGISTER_DEVICEMAP 0x02
#define CU_MEMHOSTREGISTER_READ_ONLY 0x08

/* cuStreamCreate flags (an enum in cuda.h). */
#define CUDA_API_STREAM_FLAGS(X)                                             \
  X(CU_STREAM_DEFAULT, 0x0)                                                  \
  X(CU_STREAM_NON_BLOCKING, 0x1)

typedef enum CUstream_flags_enum { CUDA_API_STREAM_FLAGS(CUDA_API_ENUM_ITEM) } CUstream_flags;

/* cuEventCreate flags (an enum in cuda.h). */
#define CUDA_API_EVENT_FLAGS(X)                                              \
  X(CU_EVENT_DEFAULT, 0x0)                                                   \
  X(CU_EVENT_DISABLE_TIMING, 0x2)

typedef enum CUevent_flags_enum { CUDA_API_EVENT_FLAGS(CUDA_API_ENUM_ITEM) } CUevent_flags;

/* ---- NVRTC types (nvrtc.h) ------------------------------------------------ */

typedef struct _nvrtcProgram *nvrtcProgram;

#define CUDA_API_NVRTC_RESULTS(X)                                            \
  X(NVRTC_SUCCESS, 0)                                                        \
  X(NVRTC_ERROR_OUT_OF_MEMORY, 1)                                            \
  X(NVRTC_ERROR_PROGRAM_CREATION_FAILURE, 2)                                 \
  X(NVRTC_ERROR_INVALID_INPUT, 3)                                            \
  X(NVRTC_ERROR_INVALID_PROGRAM, 4)                                          \
  X(NVRTC_ERROR_INVALID_OPTION, 5)                                           \
  X(NVRTC_ERROR_COMPILATION, 6)                                              \
  X(NVRTC_ERROR_BUILTIN_OPERATION_FAILURE, 7)                                \
  X(NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION, 8)                    \
  X(NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION, 9)                      \
  X(NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID, 10)                               \
  X(NVRTC_ERROR_INTERNAL_ERROR, 11)

typedef enum { CUDA_API_NVRTC_RESULTS(CUDA_API_ENUM_ITEM) } nvrtcResult;

/* ---- the functions --------------------------------------------------------- */

/* X(ret, name, symbol, (parameters), required): required 0 marks a
** function starq can do without (it was added after the oldest library
** starq accepts); its pointer is NULL when the library lacks it. */
#define CUDA_API_DRIVER_FUNCTIONS(X)                                         \
  X(CUresult, cuInit, "cuInit", (unsigned int Flags), 1)                     \
  X(CUresult, cuDriverGetVersion, "cuDriverGetVersion", (int *driverVersion), 1) \
  X(CUresult, cuGetErrorName, "cuGetErrorName", (CUresult error, const char **pStr), 1) \
  X(CUresult, cuGetErrorString, "cuGetErrorString", (CUresult error, const char **pStr), 1) \
  X(CUresult, cuDeviceGet, "cuDeviceGet", (CUdevice *device, int ordinal), 1) \
  X(CUresult, cuDeviceGetCount, "cuDeviceGetCount", (int *count), 1)         \
  X(CUresult, cuDeviceGetName, "cuDeviceGetName", (char *name, int len, CUdevice dev), 1) \
  X(CUresult, cuDeviceGetAttribute, "cuDeviceGetAttribute",                  \
    (int *pi, CUdevice_attribute attrib, CUdevice dev), 1)                   \
  X(CUresult, cuDeviceTotalMem, "cuDeviceTotalMem_v2", (size_t *bytes, CUdevice dev), 1) \
  X(CUresult, cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",          \
    (CUcontext *pctx, CUdevice dev), 1)                                      \
  X(CUresult, cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (CUdevice dev), 1) \
  X(CUresult, cuDevicePrimaryCtxReset, "cuDevicePrimaryCtxReset_v2", (CUdevice dev), 1) \
  X(CUresult, cuCtxSetCurrent, "cuCtxSetCurrent", (CUcontext ctx), 1)        \
  X(CUresult, cuCtxSynchronize, "cuCtxSynchronize", (void), 1)               \
  X(CUresult, cuModuleLoadData, "cuModuleLoadData", (CUmodule *module, const void *image), 1) \
  X(CUresult, cuModuleUnload, "cuModuleUnload", (CUmodule hmod), 1)          \
  X(CUresult, cuModuleGetFunction, "cuModuleGetFunction",                    \
    (CUfunction *hfunc, CUmodule hmod, const char *name), 1)                 \
  X(CUresult, cuFuncGetAttribute, "cuFuncGetAttribute",                      \
    (int *pi, CUfunction_attribute attrib, CUfunction hfunc), 1)             \
  X(CUresult, cuLaunchKernel, "cuLaunchKernel",                              \
    (CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, \
     unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, \
     unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra), 1) \
  X(CUresult, cuOccupancyMaxActiveBlocksPerMultiprocessor,                   \
    "cuOccupancyMaxActiveBlocksPerMultiprocessor",                           \
    (int *numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize), 1) \
  X(CUresult, cuStreamCreate, "cuStreamCreate", (CUstream *phStream, unsigned int Flags), 1) \
  X(CUresult, cuStreamDestroy, "cuStreamDestroy_v2", (CUstream hStream), 1)  \
  X(CUresult, cuStreamSynchronize, "cuStreamSynchronize", (CUstream hStream), 1) \
  X(CUresult, cuMemGetInfo, "cuMemGetInfo_v2", (size_t *free, size_t *total), 1) \
  X(CUresult, cuMemAlloc, "cuMemAlloc_v2", (CUdeviceptr *dptr, size_t bytesize), 1) \
  X(CUresult, cuMemFree, "cuMemFree_v2", (CUdeviceptr dptr), 1)              \
  X(CUresult, cuMemsetD8, "cuMemsetD8_v2",                                   \
    (CUdeviceptr dstDevice, unsigned char uc, size_t N), 1)                  \
  X(CUresult, cuMemcpyHtoD, "cuMemcpyHtoD_v2",                               \
    (CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount), 1)       \
  X(CUresult, cuMemcpyDtoH, "cuMemcpyDtoH_v2",                               \
    (void *dstHost, CUdeviceptr srcDevice, size_t ByteCount), 1)             \
  X(CUresult, cuMemsetD8Async, "cuMemsetD8Async",                            \
    (CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream), 1) \
  X(CUresult, cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2",                     \
    (void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream), 1) \
  X(CUresult, cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2",                     \
    (CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream), 1) \
  X(CUresult, cuEventCreate, "cuEventCreate", (CUevent *phEvent, unsigned int Flags), 1) \
  X(CUresult, cuEventDestroy, "cuEventDestroy_v2", (CUevent hEvent), 1)      \
  X(CUresult, cuEventRecord, "cuEventRecord", (CUevent hEvent, CUstream hStream), 1) \
  X(CUresult, cuEventElapsedTime, "cuEventElapsedTime_v2",                   \
    (float *pMilliseconds, CUevent hStart, CUevent hEnd), 0)                 \
  X(CUresult, cuMemHostAlloc, "cuMemHostAlloc", (void **pp, size_t bytesize, unsigned int Flags), 1) \
  X(CUresult, cuMemFreeHost, "cuMemFreeHost", (void *p), 1)                  \
  X(CUresult, cuMemHostRegister, "cuMemHostRegister_v2",                     \
    (void *p, size_t bytesize, unsigned int Flags), 1)                       \
  X(CUresult, cuMemHostUnregister, "cuMemHostUnregister", (void *p), 1)      \
  X(CUresult, cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2",     \
    (CUdeviceptr *pdptr, void *p, unsigned int Flags), 1)

#define CUDA_API_NVRTC_FUNCTIONS(X)                                          \
  X(nvrtcResult, nvrtcVersion, "nvrtcVersion", (int *major, int *minor), 1)  \
  X(const char *, nvrtcGetErrorString, "nvrtcGetErrorString", (nvrtcResult result), 1) \
  X(nvrtcResult, nvrtcCreateProgram, "nvrtcCreateProgram",                   \
    (nvrtcProgram *prog, const char *src, const char *name, int numHeaders,  \
     const char *const *headers, const char *const *includeNames), 1)        \
  X(nvrtcResult, nvrtcDestroyProgram, "nvrtcDestroyProgram", (nvrtcProgram *prog), 1) \
  X(nvrtcResult, nvrtcCompileProgram, "nvrtcCompileProgram",                 \
    (nvrtcProgram prog, int numOptions, const char *const *options), 1)      \
  X(nvrtcResult, nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize",           \
    (nvrtcProgram prog, size_t *logSizeRet), 1)                              \
  X(nvrtcResult, nvrtcGetProgramLog, "nvrtcGetProgramLog", (nvrtcProgram prog, char *log), 1) \
  X(nvrtcResult, nvrtcGetPTXSize, "nvrtcGetPTXSize", (nvrtcProgram prog, size_t *ptxSizeRet), 1) \
  X(nvrtcResult, nvrtcGetPTX, "nvrtcGetPTX", (nvrtcProgram prog, char *ptx), 1) \
  X(nvrtcResult, nvrtcAddNameExpression, "nvrtcAddNameExpression",           \
    (nvrtcProgram prog, const char *const name_expression), 1)               \
  X(nvrtcResult, nvrtcGetLoweredName, "nvrtcGetLoweredName",                 \
    (nvrtcProgram prog, const char *const name_expression, const char **lowered_name), 1) \
  X(nvrtcResult, nvrtcGetCUBINSize, "nvrtcGetCUBINSize",                     \
    (nvrtcProgram prog, size_t *cubinSizeRet), 0)                            \
  X(nvrtcResult, nvrtcGetCUBIN, "nvrtcGetCUBIN", (nvrtcProgram prog, char *cubin), 0) \
  X(nvrtcResult, nvrtcGetNumSupportedArchs, "nvrtcGetNumSupportedArchs", (int *numArchs), 0) \
  X(nvrtcResult, nvrtcGetSupportedArchs, "nvrtcGetSupportedArchs", (int *supportedArchs), 0)

/* One pointer type per function: cuInit_fn, nvrtcVersion_fn, ... */
#define CUDA_API_FN_TYPE(ret, name, sym, params, req) typedef ret(*name##_fn) params;
CUDA_API_DRIVER_FUNCTIONS(CUDA_API_FN_TYPE)
CUDA_API_NVRTC_FUNCTIONS(CUDA_API_FN_TYPE)

#endif /* STARQ_CUDA_API_H */
