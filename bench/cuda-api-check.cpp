/*
** bench/cuda-api-check.cpp — proof that runtime/cuda-api.h, written by
** hand, agrees with the real cuda.h and nvrtc.h. Built and run on the GPU
** machine by `bench/device.sh api-check` (the build machine has no CUDA
** headers); C++17 only for its type traits: starq itself is C.
**
** At compile time, for every entry of cuda-api.h's tables:
**   - each enum value and flag equals the header's (results, device and
**     function attributes, host-register and stream flags);
**   - each function pointer type has the real function's argument layout:
**     as many parameters, and each one (and the return value) of the same
**     size and class — integer or enum, floating point, pointer (compared
**     through the pointee), struct handle. Signedness and enum-versus-int
**     do not change how x86-64 passes a value, so they are not compared.
** At run time:
**   - each symbol name is what cuda.h maps the function's name to (the
**     _v2 names), and dlsym finds it in libcuda.so.1 / libnvrtc.
** Prints one line per failure and "cuda-api-check: ok" at the end, or
** exits 1.
*/
#include <cuda.h>
#include <dlfcn.h>
#include <nvrtc.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <type_traits>

/* cuda.h's flags are macros: keep their values, then make room for ours. */
constexpr long long real_CU_MEMHOSTREGISTER_PORTABLE = CU_MEMHOSTREGISTER_PORTABLE;
constexpr long long real_CU_MEMHOSTREGISTER_DEVICEMAP = CU_MEMHOSTREGISTER_DEVICEMAP;
constexpr long long real_CU_MEMHOSTREGISTER_READ_ONLY = CU_MEMHOSTREGISTER_READ_ONLY;
#undef CU_MEMHOSTREGISTER_PORTABLE
#undef CU_MEMHOSTREGISTER_DEVICEMAP
#undef CU_MEMHOSTREGISTER_READ_ONLY

namespace sq {
#include "../runtime/cuda-api.h"
}

/* ---- values ---------------------------------------------------------------- */

#define CHECK_ENUM(name, value)                                                    \
  static_assert((long long)sq::name == (long long)::name && (long long)sq::name == value, \
                "cuda-api.h: " #name " differs from the CUDA headers");
CUDA_API_RESULTS(CHECK_ENUM)
CUDA_API_DEVICE_ATTRIBUTES(CHECK_ENUM)
CUDA_API_FUNCTION_ATTRIBUTES(CHECK_ENUM)
CUDA_API_STREAM_FLAGS(CHECK_ENUM)
CUDA_API_EVENT_FLAGS(CHECK_ENUM)
CUDA_API_NVRTC_RESULTS(CHECK_ENUM)

#define CHECK_FLAG(name, value)                                                    \
  static_assert(real_##name == name && name == value, "cuda-api.h: " #name " differs");
CUDA_API_HOSTREGISTER_FLAGS(CHECK_FLAG)

static_assert(sizeof(sq::CUdeviceptr) == sizeof(::CUdeviceptr), "CUdeviceptr");
static_assert(sizeof(sq::CUdevice) == sizeof(::CUdevice), "CUdevice");
static_assert(sizeof(sq::CUresult) == sizeof(::CUresult), "CUresult");
static_assert(sizeof(sq::nvrtcResult) == sizeof(::nvrtcResult), "nvrtcResult");
static_assert(sizeof(sq::CUdevice_attribute) == sizeof(::CUdevice_attribute), "CUdevice_attribute");
static_assert(sizeof(sq::CUfunction_attribute) == sizeof(::CUfunction_attribute), "CUfunction_attribute");
static_assert(sizeof(sq::CUstream_flags) == sizeof(::CUstream_flags), "CUstream_flags");
static_assert(sizeof(sq::CUstream) == sizeof(::CUstream), "CUstream");
static_assert(sizeof(sq::CUevent_flags) == sizeof(::CUevent_flags), "CUevent_flags");
static_assert(sizeof(sq::CUevent) == sizeof(::CUevent), "CUevent");

/* The table names the legacy-default-stream symbols (cuda-api.h): built
** with per-thread default streams, cuda.h would name the _ptsz twins and
** every symbol check below would fail for the wrong reason. */
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
#error "build cuda-api-check without CUDA_API_PER_THREAD_DEFAULT_STREAM"
#endif

/* ---- signatures ------------------------------------------------------------ */

template <class A, class B> constexpr bool abi_same();

template <class A, class B> constexpr bool pointee_same() {
  using a = std::remove_cv_t<A>;
  using b = std::remove_cv_t<B>;
  if constexpr (std::is_void_v<a> || std::is_void_v<b>) {
    return std::is_void_v<a> && std::is_void_v<b>;
  } else if constexpr (std::is_class_v<a> || std::is_class_v<b>) {
    return std::is_class_v<a> && std::is_class_v<b>;   /* opaque handles: incomplete */
  } else {
    return abi_same<a, b>();
  }
}

template <class A, class B> constexpr bool abi_same() {
  if constexpr (std::is_pointer_v<A> || std::is_pointer_v<B>) {
    if constexpr (std::is_pointer_v<A> && std::is_pointer_v<B>) {
      return pointee_same<std::remove_pointer_t<A>, std::remove_pointer_t<B>>();
    } else {
      return false;
    }
  } else if constexpr (std::is_void_v<A> || std::is_void_v<B>) {
    return std::is_void_v<A> && std::is_void_v<B>;
  } else {
    return sizeof(A) == sizeof(B) && std::is_floating_point_v<A> == std::is_floating_point_v<B> &&
           (std::is_integral_v<A> || std::is_enum_v<A>) == (std::is_integral_v<B> || std::is_enum_v<B>);
  }
}

template <class... T> struct pack {};

template <class P, class Q> struct params_same : std::false_type {};
template <class... A, class... B> struct params_same<pack<A...>, pack<B...>> {
  static constexpr bool value = [] {
    if constexpr (sizeof...(A) == sizeof...(B)) {
      return (true && ... && abi_same<A, B>());
    } else {
      return false;
    }
  }();
};

template <class F, class G> struct sig_same : std::false_type {};
template <class R, class... A, class S, class... B> struct sig_same<R (*)(A...), S (*)(B...)> {
  static constexpr bool value = abi_same<R, S>() && params_same<pack<A...>, pack<B...>>::value;
};

/* `name` is expanded where it is not pasted: &::cuMemAlloc is
** &::cuMemAlloc_v2, the function cuda.h means. */
#define CHECK_SIG(ret, name, sym, params, req)                                     \
  static_assert(sig_same<sq::name##_fn, decltype(&::name)>::value,                 \
                "cuda-api.h: the signature of " sym " differs from the CUDA headers");
CUDA_API_DRIVER_FUNCTIONS(CHECK_SIG)
CUDA_API_NVRTC_FUNCTIONS(CHECK_SIG)

/* ---- symbols --------------------------------------------------------------- */

#define STR2(x) #x
#define XSTR(x) STR2(x)

static int nFail;

#define NAME(ret, name, sym, params, req) sym,
static const char *const azDriver[] = {CUDA_API_DRIVER_FUNCTIONS(NAME)};
static const char *const azNvrtc[] = {CUDA_API_NVRTC_FUNCTIONS(NAME)};

static void check_symbol(void *h, const char *zLib, const char *zOurs, const char *zHeader) {
  if (strcmp(zOurs, zHeader) != 0) {
    printf("symbol: cuda-api.h looks up %s, cuda.h calls it %s\n", zOurs, zHeader);
    nFail++;
  }
  if (h != NULL && dlsym(h, zOurs) == NULL) {
    printf("symbol: %s is not in %s\n", zOurs, zLib);
    nFail++;
  }
}

int main(void) {
  void *hCuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  void *hNvrtc = dlopen("libnvrtc.so", RTLD_NOW | RTLD_LOCAL);
  int v = 0, major = 0, minor = 0;
  if (hCuda == NULL) printf("dlopen libcuda.so.1: %s\n", dlerror()), nFail++;
  if (hNvrtc == NULL) printf("dlopen libnvrtc.so: %s\n", dlerror()), nFail++;
#define CHECK_SYM_CUDA(ret, name, sym, params, req) check_symbol(hCuda, "libcuda.so.1", sym, XSTR(name));
#define CHECK_SYM_NVRTC(ret, name, sym, params, req) check_symbol(hNvrtc, "libnvrtc.so", sym, XSTR(name));
  CUDA_API_DRIVER_FUNCTIONS(CHECK_SYM_CUDA)
  CUDA_API_NVRTC_FUNCTIONS(CHECK_SYM_NVRTC)
  cuDriverGetVersion(&v);
  nvrtcVersion(&major, &minor);
  printf("cuda-api-check: headers CUDA_VERSION %d, driver %d, NVRTC %d.%d: %zu driver and %zu NVRTC "
         "functions, %s\n", CUDA_VERSION, v, major, minor, sizeof(azDriver) / sizeof(azDriver[0]),
         sizeof(azNvrtc) / sizeof(azNvrtc[0]), nFail ? "FAILED" : "ok");
  return nFail ? 1 : 0;
}
