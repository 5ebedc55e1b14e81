/*
** bench/fault-check.c — what the CUDA driver lets a process do after a
** kernel fault (an illegal address), one way per run:
**   fault-check reset     cuDevicePrimaryCtxReset, release, retain again
**   fault-check reset1    cuDevicePrimaryCtxReset, retain again (no release)
**   fault-check create    a new context with cuCtxCreate
** Each prints every call's result and whether memory and a launch work
** after. Built and run on the GPU machine: bench/device.sh fault-check.
*/
#include <cuda.h>
#include <stdio.h>
#include <string.h>

static const char zPtx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry bad(.param .u64 p) {\n"
    "  .reg .u64 %rd<2>;\n  .reg .u32 %r<2>;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 1;\n  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";

static int say(const char *zWhat, CUresult rc) {
  const char *z = "?";
  cuGetErrorName(rc, &z);
  printf("  %-34s %s\n", zWhat, z);
  return rc != CUDA_SUCCESS;
}

/* Loads the kernel and runs it at address p; returns the sync's result. */
static CUresult launch(unsigned long long p) {
  CUmodule m;
  CUfunction f;
  void *args[] = {&p};
  CUresult rc;
  if ((rc = cuModuleLoadData(&m, zPtx)) != CUDA_SUCCESS) return rc;
  if ((rc = cuModuleGetFunction(&f, m, "bad")) != CUDA_SUCCESS) return rc;
  if ((rc = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL)) != CUDA_SUCCESS) return rc;
  return cuCtxSynchronize();
}

int main(int argc, char **argv) {
  const char *zWay = argc > 1 ? argv[1] : "reset";
  CUdevice dev;
  CUcontext ctx, ctx2;
  CUdeviceptr x;
  printf("%s:\n", zWay);
  say("cuInit", cuInit(0));
  say("cuDeviceGet", cuDeviceGet(&dev, 0));
  say("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&ctx, dev));
  say("cuCtxSetCurrent", cuCtxSetCurrent(ctx));
  say("cuMemAlloc (before)", cuMemAlloc(&x, 1 << 20));
  say("launch at a good address", launch(x));
  say("launch at address 16", launch(16));
  say("cuMemAlloc (lost)", cuMemAlloc(&x, 1 << 20));
  if (strcmp(zWay, "create") == 0) {
    say("cuCtxCreate", cuCtxCreate(&ctx2, NULL, 0, dev));
  } else {
    say("cuDevicePrimaryCtxReset", cuDevicePrimaryCtxReset(dev));
    if (strcmp(zWay, "reset") == 0) say("cuDevicePrimaryCtxRelease", cuDevicePrimaryCtxRelease(dev));
    say("cuCtxSetCurrent(NULL)", cuCtxSetCurrent(NULL));
    say("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&ctx2, dev));
    say("cuCtxSetCurrent", cuCtxSetCurrent(ctx2));
  }
  say("cuMemAlloc (after)", cuMemAlloc(&x, 1 << 20));
  say("launch at a good address (after)", launch(x));
  return 0;
}
