/*
** tests/devkernel.c — devkernel_load (devkernel.h).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../codegen/codegen.h"
#include "devkernel.h"

static const char devkernel_zPre[] =
    "static uint3 t_sim_tid, t_sim_bdim;\n"
    "#define threadIdx t_sim_tid\n"
    "#define blockDim t_sim_bdim\n";

int devkernel_load(const char *zKernel, const char *zName, cpu_module **ppMod,
                   cpu_kernel **ppKernel, char *zErr, size_t nErr) {
  cpu_options opt = {.zCacheDir = "cache"};
  size_t nSrc = strlen(devkernel_zPre) + strlen(codegen_device_library) + strlen(zKernel) + 1;
  char *zSrc = malloc(nSrc);
  int rc;
  *ppMod = NULL;
  if (zSrc == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  snprintf(zSrc, nSrc, "%s%s%s", devkernel_zPre, codegen_device_library, zKernel);
  rc = cpu_module_load(zSrc, &opt, ppMod, zErr, nErr);
  free(zSrc);
  if (rc != 0) return -1;
  if (cpu_module_kernel(*ppMod, zName, ppKernel, zErr, nErr) != 0) {
    cpu_module_free(*ppMod);
    *ppMod = NULL;
    return -1;
  }
  return 0;
}
