/*
** tests/mock/nvrtc-mock.c — the NVRTC half of the mock driver library
** (cuda-mock.c says what the mock is for): "compiling" a CUDA source is
** compiling it with cc as the CPU backend does (STARQ_CPU defined, so
** runtime/cpu-shim.h maps CUDA onto one thread per block), the shared
** object's bytes are the "CUBIN", cc's diagnostics are the log, and each
** name expression gets a lowered name mangled as NVRTC would
** (_Z<len><name>...), which the mock's cuModuleGetFunction insists on.
** Only the options starq must pass are accepted (sm_90, --device-int128).
*/
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mockInt.h"

CUDA_API_NVRTC_FUNCTIONS(MOCK_PROTO)

struct _nvrtcProgram {
  char *zSrc;
  int nName;
  char *azName[64];
  char *azLowered[64];
  char *zLog;
  unsigned char *pImage;
  size_t nImage;
};

static pthread_mutex_t nvrtcMutex = PTHREAD_MUTEX_INITIALIZER;
static int nCompile;

int mock__compiles(void) {
  int n;
  pthread_mutex_lock(&nvrtcMutex);
  n = nCompile;
  pthread_mutex_unlock(&nvrtcMutex);
  return n;
}

nvrtcResult nvrtcVersion(int *pMajor, int *pMinor) {
  *pMajor = 13;
  *pMinor = 0;
  return NVRTC_SUCCESS;
}
const char *nvrtcGetErrorString(nvrtcResult e) {
  return e == NVRTC_ERROR_COMPILATION ? "NVRTC_ERROR_COMPILATION" : "NVRTC_ERROR (mock)";
}
nvrtcResult nvrtcGetNumSupportedArchs(int *n) { *n = 3; return NVRTC_SUCCESS; }
nvrtcResult nvrtcGetSupportedArchs(int *a) {
  a[0] = 80;
  a[1] = 89;
  a[2] = 90;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcCreateProgram(nvrtcProgram *pp, const char *zSrc, const char *zName, int nHeader,
                               const char *const *azHeader, const char *const *azInclude) {
  (void)zName, (void)azHeader, (void)azInclude;
  if (nHeader != 0) return NVRTC_ERROR_INVALID_INPUT;
  *pp = calloc(1, sizeof(**pp));
  (*pp)->zSrc = strdup(zSrc);
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcDestroyProgram(nvrtcProgram *pp) {
  nvrtcProgram p = *pp;
  for (int i = 0; i < p->nName; i++) {
    free(p->azName[i]);
    free(p->azLowered[i]);
  }
  free(p->zSrc);
  free(p->zLog);
  free(p->pImage);
  free(p);
  *pp = NULL;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcAddNameExpression(nvrtcProgram p, const char *const z) {
  if (p->pImage != NULL) return NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
  if (p->nName == 64) return NVRTC_ERROR_OUT_OF_MEMORY;
  p->azName[p->nName++] = strdup(z);
  return NVRTC_SUCCESS;
}

/* Reads a whole file into *pp. Returns its size, or -1. */
static long mock_slurp(const char *zPath, unsigned char **pp) {
  FILE *f = fopen(zPath, "rb");
  long n;
  if (f == NULL) return -1;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  *pp = malloc((size_t)n + 1);
  if (fread(*pp, 1, (size_t)n, f) != (size_t)n) n = -1;
  (*pp)[n < 0 ? 0 : n] = 0;
  fclose(f);
  return n;
}

nvrtcResult nvrtcCompileProgram(nvrtcProgram p, int nOpt, const char *const *azOpt) {
  char zDir[] = "/tmp/starq-nvrtc-mock-XXXXXX", zCmd[1024], zPath[256];
  int bArch = 0, bInt128 = 0, rc;
  FILE *f;
  long n;
  for (int i = 0; i < nOpt; i++) {
    if (strncmp(azOpt[i], "--gpu-architecture=sm_90", 24) == 0) bArch = 1;
    if (strcmp(azOpt[i], "--device-int128") == 0) bInt128 = 1;
  }
  if (!bArch || !bInt128) return NVRTC_ERROR_INVALID_OPTION;
  if (mkdtemp(zDir) == NULL) return NVRTC_ERROR_INTERNAL_ERROR;
  snprintf(zPath, sizeof(zPath), "%s/query.c", zDir);
  if ((f = fopen(zPath, "w")) == NULL) return NVRTC_ERROR_INTERNAL_ERROR;
  fprintf(f, "#define STARQ_CPU 1\n%s", p->zSrc);
  fclose(f);
  snprintf(zCmd, sizeof(zCmd), "cc -std=c11 -O1 -fPIC -shared -fvisibility=hidden -fno-math-errno "
           "-Wl,-z,defs -o %s/query.so %s/query.c -lm >%s/log 2>&1", zDir, zDir, zDir);
  rc = system(zCmd);
  pthread_mutex_lock(&nvrtcMutex);
  nCompile++;
  pthread_mutex_unlock(&nvrtcMutex);
  snprintf(zPath, sizeof(zPath), "%s/log", zDir);
  mock_slurp(zPath, (unsigned char **)&p->zLog);
  unlink(zPath);
  snprintf(zPath, sizeof(zPath), "%s/query.so", zDir);
  n = rc == 0 ? mock_slurp(zPath, &p->pImage) : -1;
  unlink(zPath);
  snprintf(zPath, sizeof(zPath), "%s/query.c", zDir);
  unlink(zPath);
  rmdir(zDir);
  if (n <= 0) return NVRTC_ERROR_COMPILATION;
  p->nImage = (size_t)n;
  for (int i = 0; i < p->nName; i++) {
    char z[300];
    snprintf(z, sizeof(z), "_Z%zu%s6q_args", strlen(p->azName[i]), p->azName[i]);
    p->azLowered[i] = strdup(z);
  }
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram p, size_t *pn) {
  *pn = p->zLog != NULL ? strlen(p->zLog) + 1 : 1;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetProgramLog(nvrtcProgram p, char *z) {
  strcpy(z, p->zLog != NULL ? p->zLog : "");
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetCUBINSize(nvrtcProgram p, size_t *pn) {
  if (p->pImage == NULL) return NVRTC_ERROR_INVALID_PROGRAM;
  *pn = p->nImage;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetCUBIN(nvrtcProgram p, char *z) {
  if (p->pImage == NULL) return NVRTC_ERROR_INVALID_PROGRAM;
  memcpy(z, p->pImage, p->nImage);
  return NVRTC_SUCCESS;
}

/* PTX is never asked for of an sm_90 device. */
nvrtcResult nvrtcGetPTXSize(nvrtcProgram p, size_t *pn) {
  (void)p, (void)pn;
  return NVRTC_ERROR_INVALID_PROGRAM;
}

nvrtcResult nvrtcGetPTX(nvrtcProgram p, char *z) {
  (void)p, (void)z;
  return NVRTC_ERROR_INVALID_PROGRAM;
}

nvrtcResult nvrtcGetLoweredName(nvrtcProgram p, const char *const zExpr, const char **pz) {
  if (p->pImage == NULL) return NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
  for (int i = 0; i < p->nName; i++) {
    if (strcmp(p->azName[i], zExpr) == 0) {
      *pz = p->azLowered[i];
      return NVRTC_SUCCESS;
    }
  }
  return NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
}
