/*
** runtime/cuda.h — the CUDA backend: generated kernel source compiled by
** NVRTC for the GPU in hand, loaded through the driver API, and run on
** device 0's primary context (DESIGN decisions 1 and 3).
**
** Nothing links against CUDA: cuda_device_open() dlopens libcuda.so.1 and
** libnvrtc and resolves the functions of runtime/cuda-api.h, so a machine
** without a GPU or driver runs the same binary and gets a clear error here
** (the caller then uses the CPU backend, runtime/cpu.h).
**
** A module is one generated source with every kernel of a query in it. Its
** CUBIN is compiled for the device's own architecture (sm_XY from the
** compute capability) with `--std=c++17 -default-device --device-int128`,
** and cached twice: in memory, per device, keyed by the hash of the source,
** the architecture, the driver and NVRTC versions and the kernel names
** (a second query of the same shape reuses the loaded module); and on disk
** (cuda-cache.c), so a new process skips NVRTC. Kernels are C++ functions
** to NVRTC, so their names are mangled: the caller names them, the module
** asks NVRTC for each lowered name and stores it beside the CUBIN.
**
** Memory: device buffers (cuda_mem_*) are addressed by CUdeviceptr values
** (cuda_ptr). Host memory the kernels read in place — the mapped column
** files — is registered as pinned, device-mapped and, where the device
** supports it, read-only (cuda_host_register), and read over PCIe by
** zero-copy.
**
** Lifetimes: a device outlives its modules and buffers; cuda_device_close()
** unloads every module still cached (none may be in use) and must come
** after every buffer is freed and every registration undone. A module
** reference from cuda_module_load() is given back with
** cuda_module_release(); the module itself stays in the in-memory cache
** until the device is closed (or evicted when unused, above
** CUDA_MODULES_MAX). A kernel belongs to its module.
**
** Threads: every call may come from any thread (each makes the primary
** context current on its thread first); the module cache is guarded by a
** mutex. Launches go to the legacy default stream and are synchronous:
** cuda_kernel_launch() returns when the kernel has finished.
**
** Errors: each call returns 0, or a negative code with a message in the
** caller's zErr naming the call that failed and CUDA's own name for the
** error: CUDA_ENOMEM when device memory ran out, -1 otherwise. A fault in
** a kernel (an illegal address, a trap) destroys the CUDA context: every
** later call fails too. The device then says so (cuda_device_lost), and
** the only way back is to close it — after freeing what was allocated on
** it — and open a new one, which makes a fresh primary context. Rebuilding
** in place is not done yet.
*/
#ifndef STARQ_CUDA_H
#define STARQ_CUDA_H

#include <stddef.h>
#include <stdint.h>

typedef struct cuda_device cuda_device;
typedef struct cuda_module cuda_module;
typedef struct cuda_kernel cuda_kernel;

/* A device address (CUdeviceptr). */
typedef uint64_t cuda_ptr;

/* The error code for "out of device memory"; all other errors are -1. */
#define CUDA_ENOMEM (-2)

/* Modules kept loaded per device; past this, unused ones are unloaded,
** least recently used first. */
#define CUDA_MODULES_MAX 256

/* How cuda_device_open() finds its libraries and cache. A NULL pointer
** (for the struct or a field) takes the default. */
typedef struct cuda_options cuda_options;
struct cuda_options {
  const char *zLibCuda;    /* NULL: $STARQ_LIBCUDA, else "libcuda.so.1" */
  const char *zLibNvrtc;   /* NULL: $STARQ_LIBNVRTC, else the first of
                           ** libnvrtc.so, .so.13, .so.12, .so.11.2 that
                           ** dlopen finds, then the same names under
                           ** $CUDA_HOME/lib64 and /usr/local/cuda/lib64 */
  const char *zCacheDir;   /* NULL: $XDG_CACHE_HOME/starq/cuda, else
                           ** $HOME/.cache/starq/cuda; made if missing */
  int iDevice;             /* device ordinal (0) */
};

/* What the device is, for EXPLAIN, the planner and the logs. */
typedef struct cuda_device_info cuda_device_info;
struct cuda_device_info {
  char zName[256];         /* "NVIDIA H100 80GB HBM3" */
  int iMajor, iMinor;      /* compute capability */
  char zArch[32];          /* what NVRTC compiles for: "sm_90", or
                           ** "compute_XY" (PTX) for a GPU newer than NVRTC */
  int nSm;                 /* multiprocessors */
  int nThreadPerBlock;     /* most threads in a block */
  int nThreadPerSm;        /* most resident threads per multiprocessor */
  int nL2;                 /* L2 cache bytes */
  uint64_t nGlobal;        /* device memory bytes */
  int bHostRegister;       /* cuMemHostRegister works on this device */
  int bReadOnlyRegister;   /* ... with CU_MEMHOSTREGISTER_READ_ONLY */
  int iDriver;             /* cuDriverGetVersion: 13000 for 13.0 */
  int iNvrtcMajor, iNvrtcMinor;
  char zLibCuda[512];      /* the libraries opened */
  char zLibNvrtc[512];
};

/* How cuda_module_load() found its module. */
typedef enum cuda_source {
  CUDA_SOURCE_MEMORY = 1,  /* already loaded in this process */
  CUDA_SOURCE_DISK,        /* the CUBIN came from the on-disk cache */
  CUDA_SOURCE_NVRTC        /* compiled now */
} cuda_source;

typedef struct cuda_module_info cuda_module_info;
struct cuda_module_info {
  cuda_source eSource;     /* of the load that made the module */
  double rCompileSeconds;  /* in NVRTC; 0 unless eSource is NVRTC */
  double rLoadSeconds;     /* all of the first cuda_module_load(), compile included */
  size_t nImage;           /* bytes of CUBIN (or PTX) */
  char zMiss[64];          /* why the disk cache missed, or "" */
  char zHash[33];          /* the cache key, 32 hex digits */
};

/* Opens the libraries, initialises the driver and retains the primary
** context of device pOpt->iDevice. Returns 0 with *pp set, or -1 with
** zErr saying what is missing ("libcuda.so.1 could not be opened: ...",
** "no CUDA device", an NVRTC that cannot be found). */
int cuda_device_open(const cuda_options *pOpt, cuda_device **pp, char *zErr, size_t nErr);

/* Unloads the cached modules and releases the primary context. NULL is a
** no-op. */
void cuda_device_close(cuda_device *p);

const cuda_device_info *cuda_device_info_get(const cuda_device *p);

/* Returns 1 once a kernel fault has destroyed the device's context (every
** call now fails: close the device and open a new one), else 0. */
int cuda_device_lost(const cuda_device *p);

/* Returns the number of the device's context: it changes when a context
** is rebuilt, invalidating every pointer and registration made before. */
unsigned cuda_device_epoch(const cuda_device *p);

/* Finds or compiles the module of zSource (the whole text NVRTC compiles)
** with the nKernel kernels azKernel (plain names of __global__ functions).
** On success *pp is a reference for cuda_module_release() and *peSource
** (if not NULL) says where this call found it: MEMORY for every load after
** the first in a process. A compile error returns -1 with NVRTC's log in
** zErr. */
int cuda_module_load(cuda_device *d, const char *zSource, int nKernel, const char *const *azKernel,
                     cuda_module **pp, cuda_source *peSource, char *zErr, size_t nErr);

/* Returns how the module was made (by its first load) and what that cost. */
const cuda_module_info *cuda_module_info_get(const cuda_module *p);

/* Drops a reference; the module stays cached. NULL is a no-op. */
void cuda_module_release(cuda_module *p);

/* Sets *pp to kernel zName of the module (one of the names it was loaded
** with). Returns -1 if there is none. */
int cuda_module_kernel(cuda_module *p, const char *zName, cuda_kernel **pp, char *zErr,
                       size_t nErr);

/* Returns the most threads a block of k may have (its registers decide). */
int cuda_kernel_max_threads(const cuda_kernel *k);

/* Runs k on nBlock blocks of nThread threads with nDynShared bytes of
** dynamic shared memory; pArgs points at the kernel's one by-value
** argument struct (nArgs bytes). Returns when the kernel has finished:
** 0, or -1 with the launch or execution error (a fault also marks the
** device lost). */
int cuda_kernel_launch(cuda_device *d, const cuda_kernel *k, unsigned nBlock, unsigned nThread,
                       unsigned nDynShared, const void *pArgs, size_t nArgs, char *zErr,
                       size_t nErr);

/* Allocates n bytes of device memory (n 0 allocates 1), not cleared.
** Returns 0, CUDA_ENOMEM, or -1. */
int cuda_mem_alloc(cuda_device *d, size_t n, cuda_ptr *p, char *zErr, size_t nErr);

/* Frees p (0 is a no-op). Errors are ignored: there is nothing a caller
** could do about them. */
void cuda_mem_free(cuda_device *d, cuda_ptr p);

/* Sets n bytes at p to zero; copies n bytes to device memory; copies n
** bytes from device memory. Each is synchronous. Return 0 or -1. */
int cuda_mem_zero(cuda_device *d, cuda_ptr p, size_t n, char *zErr, size_t nErr);
int cuda_mem_write(cuda_device *d, cuda_ptr dst, const void *src, size_t n, char *zErr,
                   size_t nErr);
int cuda_mem_read(cuda_device *d, void *dst, cuda_ptr src, size_t n, char *zErr, size_t nErr);

/* Pins the n host bytes at p (page-aligned, as a mapping is) and maps them
** into the device's address space, read-only where the device supports
** that; *pDev is where kernels find them. The pages must stay mapped until
** cuda_host_unregister(). Returns 0, CUDA_ENOMEM, or -1 (some kernels and
** file systems refuse to pin file-backed pages: the caller may copy
** instead). */
int cuda_host_register(cuda_device *d, void *p, size_t n, cuda_ptr *pDev, char *zErr,
                       size_t nErr);

/* Undoes cuda_host_register() of p. Errors are ignored. */
void cuda_host_unregister(cuda_device *d, void *p);

#endif /* STARQ_CUDA_H */
