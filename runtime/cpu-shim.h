/*
** runtime/cpu-shim.h — the prelude of every generated kernel source: the
** few names both backends need, and, where STARQ_CPU is defined, the CUDA
** built-ins mapped onto one thread per block for the system C compiler.
**
** The CPU backend (runtime/cpu.c) compiles "#define STARQ_CPU 1", this
** text and the generated source as one C11 translation unit with `cc`, and
** runs each block of a launch as one call on a worker thread. With one
** thread per block, blockDim and threadIdx are constants, __syncthreads()
** has nothing to wait for, and a warp is one lane wide, so the warp
** helpers return the calling lane's own value (DESIGN decision 3). The
** generated code must therefore be correct for any block and warp size.
**
** Without STARQ_CPU (NVRTC) it defines only what CUDA lacks: fixed-width
** integer typedefs (NVRTC has no <stdint.h>), STARQ_DYN_SHARED and
** STARQ_CPU_ENTRY. The text is embedded in the binary at build time
** (build/gen/runtime/cpu-shim.c); nothing reads this file at run time.
**
** Every name of its own begins with starq__, which generated code must not
** use. The dialect the generated source may use is in runtime/README.md.
*/
#ifndef STARQ_CPU_SHIM_H
#define STARQ_CPU_SHIM_H

/* ---- both backends ------------------------------------------------------ */

/* CUDA's own widths: int64_t is long long on both sides, so the atomics'
** overloads (CUDA has them for long long, not long) match one to one. */
#if defined(STARQ_CPU) || defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
#else
#include <stdint.h>
#endif
#ifndef INT32_MIN
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295u
#define INT64_MIN (-9223372036854775807ll - 1)
#define INT64_MAX 9223372036854775807ll
#define UINT64_MAX 18446744073709551615ull
#endif

#ifndef STARQ_CPU

/* The dynamic shared memory of a launch, as an array of TYPE. */
#define STARQ_DYN_SHARED(type, name) extern __shared__ type name[]
/* Only the CPU needs an entry point per kernel. */
#define STARQ_CPU_ENTRY(kernel, argtype)

#else /* STARQ_CPU: the rest of the file */

#include <math.h>
#include <stdbool.h>

/* ---- qualifiers ---------------------------------------------------------- */

/* Kernels and device functions stay inside the module: only the entry
** points below are exported (the module is built -fvisibility=hidden). */
#define STARQ__EXPORT __attribute__((visibility("default")))
#define __global__
#define __device__ static
#define __host__
#define __constant__ static
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ restrict
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __grid_constant__
/* One worker thread runs one block at a time, so a thread-local static is
** exactly one block's shared memory. Like CUDA's, it is not cleared
** between blocks: a kernel initialises what it reads. */
#define __shared__ static _Thread_local

/* ---- the grid ------------------------------------------------------------ */

typedef struct uint3 uint3;
struct uint3 {
  unsigned int x, y, z;
};

/* CUDA's 16-byte vector, for the device library's 16-byte loads. */
typedef struct uint4 uint4;
struct __attribute__((aligned(16))) uint4 {
  unsigned int x, y, z, w;
};

static const uint3 threadIdx = {0, 0, 0};
static const uint3 blockDim = {1, 1, 1};
#define warpSize 1

/* Set by starq_cpu__block_set() before each block; read-only to kernels,
** as CUDA's are, through the macros. */
static _Thread_local uint3 starq__blockIdx;
static _Thread_local uint3 starq__gridDim = {1, 1, 1};
static _Thread_local void *starq__pDynShared;
#define blockIdx (*(const uint3 *)&starq__blockIdx)
#define gridDim (*(const uint3 *)&starq__gridDim)

/* The dynamic shared memory of the running block: the worker's buffer of
** the size the launch gave. The extern declaration is never used; it
** makes one name declared with two types an error here too, as NVRTC
** rejects two `extern __shared__` arrays of one name and different types
** in a module. */
#define STARQ_DYN_SHARED(type, name)                                         \
  extern type starq__dyn_##name[];                                           \
  type *const name = (type *)starq__pDynShared

/* Called by the worker (runtime/cpu-pool.c) before each block it runs. */
STARQ__EXPORT void starq_cpu__block_set(unsigned int iBlock, unsigned int nBlock,
                                        void *pDynShared);
STARQ__EXPORT void starq_cpu__block_set(unsigned int iBlock, unsigned int nBlock,
                                        void *pDynShared) {
  starq__blockIdx.x = iBlock;
  starq__gridDim.x = nBlock;
  starq__pDynShared = pDynShared;
}

/* The exported entry of KERNEL, which takes one ARGTYPE by value: the
** launcher passes a pointer to the argument block. And the block's size,
** which a driver knows from the compiled kernel: the tests' mock
** (tests/mock) copies that many bytes when a launch is queued. */
#define STARQ_CPU_ENTRY(kernel, argtype)                                     \
  STARQ__EXPORT void kernel##__entry(const void *pArgs);                     \
  STARQ__EXPORT void kernel##__entry(const void *pArgs) {                    \
    kernel(*(const argtype *)pArgs);                                         \
  }                                                                          \
  STARQ__EXPORT extern const unsigned long kernel##__argsize;                \
  const unsigned long kernel##__argsize = sizeof(argtype);

/* ---- barriers and fences --------------------------------------------------- */

/* A block is one thread: nothing to wait for. */
#define __syncthreads() ((void)0)
#define __syncthreads_count(p) ((p) != 0)
#define __syncthreads_and(p) ((p) != 0)
#define __syncthreads_or(p) ((p) != 0)
#define __syncwarp(...) ((void)0)
#define __threadfence() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define __threadfence_block() __atomic_signal_fence(__ATOMIC_SEQ_CST)

/* ---- warps of one lane ------------------------------------------------------ */

#define __activemask() 1u
#define __ballot_sync(mask, p) ((void)(mask), (p) ? 1u : 0u)
#define __any_sync(mask, p) ((void)(mask), (p) != 0)
#define __all_sync(mask, p) ((void)(mask), (p) != 0)
/* Every source lane is the calling lane (lane numbers are taken modulo
** the width, and a shift past the edge returns one's own value). */
#define __shfl_sync(mask, var, ...) ((void)(mask), (var))
#define __shfl_up_sync(mask, var, ...) ((void)(mask), (var))
#define __shfl_down_sync(mask, var, ...) ((void)(mask), (var))
#define __shfl_xor_sync(mask, var, ...) ((void)(mask), (var))

/* ---- bits ---------------------------------------------------------------- */

static inline int __popc(unsigned int x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned int)x); }
static inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll((unsigned long long)x);
}
static inline unsigned int __brev(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}

/* Bit casts go through memcpy, the one way C allows. */
static inline int __float_as_int(float x) {
  int r;
  __builtin_memcpy(&r, &x, sizeof(r));
  return r;
}
static inline unsigned int __float_as_uint(float x) {
  unsigned int r;
  __builtin_memcpy(&r, &x, sizeof(r));
  return r;
}
static inline float __int_as_float(int x) {
  float r;
  __builtin_memcpy(&r, &x, sizeof(r));
  return r;
}
static inline float __uint_as_float(unsigned int x) {
  float r;
  __builtin_memcpy(&r, &x, sizeof(r));
  return r;
}
static inline long long __double_as_longlong(double x) {
  long long r;
  __builtin_memcpy(&r, &x, sizeof(r));
  return r;
}
static inline double __longlong_as_double(long long x) {
  double r;
  __builtin_memcpy(&r, &x, sizeof(r));
  return r;
}

#define __ldg(p) (*(p))

/* ---- atomics ---------------------------------------------------------------- */

/* CUDA's atomics are overloaded on the pointer type and relaxed. C has no
** overloading, so each name is a _Generic over exactly the pointer types
** CUDA has it for: any other type fails to compile here as it would under
** NVRTC. Each returns the old value. */
#define STARQ__RLX __ATOMIC_RELAXED

#define STARQ__ATOMIC_OP(name, op, T)                                        \
  static inline T starq__##name(T *p, T v) { return __atomic_##op(p, v, STARQ__RLX); }
STARQ__ATOMIC_OP(add_i, fetch_add, int)
STARQ__ATOMIC_OP(add_u, fetch_add, unsigned int)
STARQ__ATOMIC_OP(add_ull, fetch_add, unsigned long long)
STARQ__ATOMIC_OP(sub_i, fetch_sub, int)
STARQ__ATOMIC_OP(sub_u, fetch_sub, unsigned int)
STARQ__ATOMIC_OP(or_i, fetch_or, int)
STARQ__ATOMIC_OP(or_u, fetch_or, unsigned int)
STARQ__ATOMIC_OP(or_ull, fetch_or, unsigned long long)
STARQ__ATOMIC_OP(and_i, fetch_and, int)
STARQ__ATOMIC_OP(and_u, fetch_and, unsigned int)
STARQ__ATOMIC_OP(and_ull, fetch_and, unsigned long long)
STARQ__ATOMIC_OP(xor_i, fetch_xor, int)
STARQ__ATOMIC_OP(xor_u, fetch_xor, unsigned int)
STARQ__ATOMIC_OP(xor_ull, fetch_xor, unsigned long long)
STARQ__ATOMIC_OP(exch_i, exchange_n, int)
STARQ__ATOMIC_OP(exch_u, exchange_n, unsigned int)
STARQ__ATOMIC_OP(exch_ull, exchange_n, unsigned long long)

/* Floating point, min and max: a compare-and-swap loop. The generic
** __atomic_compare_exchange compares bit patterns, so a NaN ends the loop
** too. */
#define STARQ__ATOMIC_CAS_LOOP(name, T, expr)                                \
  static inline T starq__##name(T *p, T v) {                                 \
    T old, nv;                                                               \
    __atomic_load(p, &old, STARQ__RLX);                                      \
    do {                                                                     \
      nv = (expr);                                                           \
    } while (!__atomic_compare_exchange(p, &old, &nv, 1, STARQ__RLX, STARQ__RLX)); \
    return old;                                                              \
  }
STARQ__ATOMIC_CAS_LOOP(add_f, float, old + v)
STARQ__ATOMIC_CAS_LOOP(add_d, double, old + v)
STARQ__ATOMIC_CAS_LOOP(min_i, int, v < old ? v : old)
STARQ__ATOMIC_CAS_LOOP(min_u, unsigned int, v < old ? v : old)
STARQ__ATOMIC_CAS_LOOP(min_ll, long long, v < old ? v : old)
STARQ__ATOMIC_CAS_LOOP(min_ull, unsigned long long, v < old ? v : old)
STARQ__ATOMIC_CAS_LOOP(max_i, int, v > old ? v : old)
STARQ__ATOMIC_CAS_LOOP(max_u, unsigned int, v > old ? v : old)
STARQ__ATOMIC_CAS_LOOP(max_ll, long long, v > old ? v : old)
STARQ__ATOMIC_CAS_LOOP(max_ull, unsigned long long, v > old ? v : old)

static inline float starq__exch_f(float *p, float v) {
  float old;
  __atomic_exchange(p, &v, &old, STARQ__RLX);
  return old;
}

#define STARQ__ATOMIC_CAS(name, T)                                           \
  static inline T starq__##name(T *p, T cmp, T v) {                          \
    __atomic_compare_exchange_n(p, &cmp, v, 0, STARQ__RLX, STARQ__RLX);      \
    return cmp;                                                              \
  }
STARQ__ATOMIC_CAS(cas_i, int)
STARQ__ATOMIC_CAS(cas_u, unsigned int)
STARQ__ATOMIC_CAS(cas_ull, unsigned long long)

#define atomicAdd(p, v)                                                      \
  _Generic((p), int *: starq__add_i, unsigned int *: starq__add_u,           \
           unsigned long long *: starq__add_ull, float *: starq__add_f,      \
           double *: starq__add_d)((p), (v))
#define atomicSub(p, v)                                                      \
  _Generic((p), int *: starq__sub_i, unsigned int *: starq__sub_u)((p), (v))
#define atomicMin(p, v)                                                      \
  _Generic((p), int *: starq__min_i, unsigned int *: starq__min_u,           \
           long long *: starq__min_ll, unsigned long long *: starq__min_ull)((p), (v))
#define atomicMax(p, v)                                                      \
  _Generic((p), int *: starq__max_i, unsigned int *: starq__max_u,           \
           long long *: starq__max_ll, unsigned long long *: starq__max_ull)((p), (v))
#define atomicExch(p, v)                                                     \
  _Generic((p), int *: starq__exch_i, unsigned int *: starq__exch_u,         \
           unsigned long long *: starq__exch_ull, float *: starq__exch_f)((p), (v))
#define atomicCAS(p, cmp, v)                                                 \
  _Generic((p), int *: starq__cas_i, unsigned int *: starq__cas_u,           \
           unsigned long long *: starq__cas_ull)((p), (cmp), (v))
#define atomicOr(p, v)                                                       \
  _Generic((p), int *: starq__or_i, unsigned int *: starq__or_u,             \
           unsigned long long *: starq__or_ull)((p), (v))
#define atomicAnd(p, v)                                                      \
  _Generic((p), int *: starq__and_i, unsigned int *: starq__and_u,           \
           unsigned long long *: starq__and_ull)((p), (v))
#define atomicXor(p, v)                                                      \
  _Generic((p), int *: starq__xor_i, unsigned int *: starq__xor_u,           \
           unsigned long long *: starq__xor_ull)((p), (v))

#endif /* STARQ_CPU */
#endif /* STARQ_CPU_SHIM_H */
