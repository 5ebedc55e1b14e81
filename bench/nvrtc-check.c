/*
** bench/nvrtc-check.c — compiles generated query sources with NVRTC for
** the GPU it runs on, as the CUDA backend will: proof that the text codegen
** writes for the CPU is valid CUDA too. Built and run on the GPU machine
** by `bench/device.sh nvrtc-check DIR` (it needs nvrtc.h and cuda.h).
**
**   nvrtc-check FILE.cu ...     prints, per file, ok and the compile time
**                               or the NVRTC log; exits 1 if any failed
**
** The first NVRTC compile in a process pays for NVRTC's own start-up: an
** empty kernel is compiled first and its time printed as "start-up", so
** the files' times are each one's own. NVRTC_EXTRA (options separated by
** spaces) is appended to the backend's options, to measure what an option
** such as -Ofast-compile=max or -split-compile=0 does to the time.
** Every source gets a global of its own appended, so each compile is a
** real one (see below).
*/
#include <cuda.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static char *slurp(const char *zPath) {
  FILE *f = fopen(zPath, "rb");
  long n;
  char *z;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  z = malloc((size_t)n + 1);
  if (z != NULL && fread(z, 1, (size_t)n, f) == (size_t)n) z[n] = 0;
  else {
    free(z);
    z = NULL;
  }
  fclose(f);
  return z;
}

int main(int argc, char **argv) {
  CUdevice dev;
  int major = 0, minor = 0, nFail = 0, nOpt = 0;
  char zArch[64], *zExtra = NULL;
  const char *azOpt[16];
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
      cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) != CUDA_SUCCESS ||
      cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) != CUDA_SUCCESS) {
    fprintf(stderr, "nvrtc-check: no CUDA device\n");
    return 1;
  }
  snprintf(zArch, sizeof(zArch), "--gpu-architecture=sm_%d%d", major, minor);
  /* --device-int128: the library's checked multiply and DECIMAL division
  ** use __int128, which NVRTC enables only on request. */
  azOpt[nOpt++] = zArch;
  azOpt[nOpt++] = "--std=c++17";
  azOpt[nOpt++] = "-default-device";
  azOpt[nOpt++] = "--device-int128";
  if (getenv("NVRTC_EXTRA") != NULL && (zExtra = strdup(getenv("NVRTC_EXTRA"))) != NULL) {
    for (char *z = strtok(zExtra, " "); z != NULL && nOpt < 16; z = strtok(NULL, " ")) azOpt[nOpt++] = z;
  }
  {
    nvrtcProgram prog;
    double t0 = now();
    if (nvrtcCreateProgram(&prog, "__global__ void k(int *p) { *p = 1; }\n", "warm.cu", 0, NULL,
                           NULL) != NVRTC_SUCCESS ||
        nvrtcCompileProgram(prog, nOpt, azOpt) != NVRTC_SUCCESS) {
      printf("start-up: an empty kernel does not compile with these options\n");
      return 1;
    }
    printf("start-up: %.1f ms (options:", (now() - t0) * 1e3);
    for (int k = 0; k < nOpt; k++) printf(" %s", azOpt[k]);
    printf(")\n");
    nvrtcDestroyProgram(&prog);
  }
  for (int i = 1; i < argc; i++) {
    char *zSrc = slurp(argv[i]);
    nvrtcProgram prog;
    size_t nLog = 0, nCubin = 0;
    double t0 = now();
    nvrtcResult rc;
    if (zSrc == NULL) {
      printf("%s: cannot read\n", argv[i]);
      nFail++;
      continue;
    }
    /* A global no kernel reads, different in every run: the PTX differs,
    ** so no cache below NVRTC (the driver's or ptxas's) can answer for a
    ** compile done before. Without it a second run of the same source
    ** measured 16-34 ms where the first took 530. */
    {
      size_t nSrc = strlen(zSrc);
      char *z = realloc(zSrc, nSrc + 96);
      if (z == NULL) {
        free(zSrc);
        nFail++;
        continue;
      }
      zSrc = z;
      snprintf(zSrc + nSrc, 96, "\n__device__ unsigned starq_nonce_%ld_%d = %d;\n",
               (long)getpid(), i, (int)(now() * 1e6) & 0xffff);
    }
    if (nvrtcCreateProgram(&prog, zSrc, argv[i], 0, NULL, NULL) != NVRTC_SUCCESS) {
      printf("%s: nvrtcCreateProgram failed\n", argv[i]);
      nFail++;
      free(zSrc);
      continue;
    }
    /* NVRTC_NAMES: kernel names added as name expressions, as the backend
    ** does (it looks the kernels up by their lowered names). */
    if (getenv("NVRTC_NAMES") != NULL) {
      char *zNames = strdup(getenv("NVRTC_NAMES"));
      for (char *z = zNames ? strtok(zNames, " ") : NULL; z != NULL; z = strtok(NULL, " ")) {
        if (strstr(zSrc, z) != NULL) nvrtcAddNameExpression(prog, z);
      }
      free(zNames);
    }
    rc = nvrtcCompileProgram(prog, nOpt, azOpt);
    nvrtcGetCUBINSize(prog, &nCubin);
    if (rc != NVRTC_SUCCESS) {
      char *zLog;
      nvrtcGetProgramLogSize(prog, &nLog);
      zLog = malloc(nLog + 1);
      if (zLog != NULL && nvrtcGetProgramLog(prog, zLog) == NVRTC_SUCCESS) {
        printf("%s: FAILED (%s)\n%.4000s\n", argv[i], nvrtcGetErrorString(rc), zLog);
      }
      free(zLog);
      nFail++;
    } else {
      printf("%s: ok, %s, %.1f ms, cubin %zu bytes\n", argv[i], zArch + 19, (now() - t0) * 1e3,
             nCubin);
    }
    nvrtcDestroyProgram(&prog);
    free(zSrc);
  }
  free(zExtra);
  return nFail ? 1 : 0;
}
