/*
** tests/mock/nvrtc-mock.c — the NVRTC half of the mock driver library
** (cuda-mock.c says what the mock is for): "compiling" a CUDA source is
** compiling it with cc as the CPU backend does (STARQ_CPU defined, so
** runtime/cpu-shim.h maps CUDA onto one thread per block), the shared
** object's bytes are the "CUBIN", cc's diagnostics are the log, and each
** name expression gets a lowered name mangled as NVRTC would
** (_Z<len><name>...), which the mock's cuModuleGetFunction insists on.
** Only the options starq passes are accepted (sm_90, --std=c++17,
** -default-device, --device-int128, -minimal; anything else is
** NVRTC_ERROR_INVALID_OPTION). A text of one path (it starts `#define
** SQ_PATH n`: only the plain side or only the decode of its packed loads)
** is compiled as it is: its kernels really lack the other side, and a run
** that needs it faults.
**
** Each source text is compiled by cc once (programs of the same text —
** two threads missing on one key, a test's processes — share it: they
** wait for one another's cc). starq_cuda_mock_nvrtc() counts the
** programs, those compiled by a thread of lower priority than the
** process's main thread (the background compiler, runtime/compileq.h:
** nice +10), the cc runs and the most programs seen compiling at once;
** starq_cuda_mock_nvrtc_gate(1) holds every background compile at its
** start until starq_cuda_mock_nvrtc_gate(0), so a test can have a
** background compile finish when it wants while foreground compiles go
** on. STARQ_CUDA_MOCK_COMPILE_MS makes each of the first
** STARQ_CUDA_MOCK_SLOW_COMPILES foreground compiles (every one, unset)
** take that much longer, as NVRTC does with a large module, and
** uninterruptibly, as NVRTC is.
*/
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/syscall.h>
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

/* A source compiled once for all its programs: its hash and length, and
** the shared object or the log. bDone is 0 while a thread runs cc. */
typedef struct mock_built mock_built;
struct mock_built {
  uint64_t h;
  size_t nSrc;
  int bDone, bOk;
  unsigned char *pImage;
  size_t nImage;
  char *zLog;
  mock_built *pNext;
};

/* Sources kept, at most (a test's query shapes). */
#define MOCK_BUILT_MAX 64

static pthread_mutex_t nvrtcMutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nvrtcCond = PTHREAD_COND_INITIALIZER;
static int nCompile, nBackground, nCc, nBuilt, nInFlight, nInFlightMax, bGate, nForeground;
static int anPath[3];          /* programs compiled per SQ_PATH (0: none) */
static mock_built *pBuilt;     /* most recent first */

int mock__compiles(void) {
  int n;
  pthread_mutex_lock(&nvrtcMutex);
  n = nCompile;
  pthread_mutex_unlock(&nvrtcMutex);
  return n;
}

/* Programs compiled, of them by the background compiler, cc runs, and
** the most programs in nvrtcCompileProgram at once, so far. */
void starq_cuda_mock_nvrtc(int *pnProgram, int *pnBackground, int *pnCc, int *pnMaxAtOnce);
void starq_cuda_mock_nvrtc(int *pnProgram, int *pnBackground, int *pnCc, int *pnMaxAtOnce) {
  pthread_mutex_lock(&nvrtcMutex);
  *pnProgram = nCompile;
  *pnBackground = nBackground;
  *pnCc = nCc;
  *pnMaxAtOnce = nInFlightMax;
  pthread_mutex_unlock(&nvrtcMutex);
}

/* Programs compiled so far of a text that defines SQ_PATH 1 (plain side
** only) and 2 (decode only). */
void starq_cuda_mock_nvrtc_paths(int *pnPlain, int *pnPacked);
void starq_cuda_mock_nvrtc_paths(int *pnPlain, int *pnPacked) {
  pthread_mutex_lock(&nvrtcMutex);
  *pnPlain = anPath[1];
  *pnPacked = anPath[2];
  pthread_mutex_unlock(&nvrtcMutex);
}

/* Closes (1) or opens (0) the gate in front of background compiles. */
void starq_cuda_mock_nvrtc_gate(int bClosed);
void starq_cuda_mock_nvrtc_gate(int bClosed) {
  pthread_mutex_lock(&nvrtcMutex);
  bGate = bClosed;
  pthread_cond_broadcast(&nvrtcCond);
  pthread_mutex_unlock(&nvrtcMutex);
}

static void mock_built_free(mock_built *b) {
  free(b->pImage);
  free(b->zLog);
  free(b);
}

/* At unload: what the sanitizer's leak check would report otherwise. */
__attribute__((destructor)) static void mock_built_free_all(void) {
  while (pBuilt != NULL) {
    mock_built *b = pBuilt;
    pBuilt = b->pNext;
    mock_built_free(b);
  }
}

static uint64_t mock_hash(const char *z, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)z[i]) * 1099511628211ull;
  return h;
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

/* Where a compile's files go: a directory made in the current one, the
** test's scratch directory, which the runner removes after the test; a
** compile cut short by a killed process leaves nothing in /tmp. */
#define MOCK_DIR_TEMPLATE "starq-nvrtc-mock-XXXXXX"

/* Writes zSrc, with STARQ_CPU defined, to <zDir>/query.c. Returns 0 or -1. */
static int mock_source_write(const char *zDir, const char *zSrc) {
  char zPath[256];
  FILE *f;
  snprintf(zPath, sizeof(zPath), "%s/query.c", zDir);
  if ((f = fopen(zPath, "w")) == NULL) return -1;
  fprintf(f, "#define STARQ_CPU 1\n%s", zSrc);
  return fclose(f) == 0 ? 0 : -1;
}

/* Compiles zSrc with cc into b (image, or log). */
static void mock_cc(const char *zSrc, mock_built *b) {
  char zDir[] = MOCK_DIR_TEMPLATE, zCmd[1024], zPath[256];
  long n = -1;
  int rc;
  if (mkdtemp(zDir) == NULL) return;
  if (mock_source_write(zDir, zSrc) == 0) {
    snprintf(zCmd, sizeof(zCmd), "cc -std=c11 -O1 -fPIC -shared -fvisibility=hidden "
             "-fno-math-errno -Wl,-z,defs -o %s/query.so %s/query.c -lm >%s/log 2>&1", zDir, zDir,
             zDir);
    rc = system(zCmd);
    snprintf(zPath, sizeof(zPath), "%s/log", zDir);
    mock_slurp(zPath, (unsigned char **)&b->zLog);
    unlink(zPath);
    snprintf(zPath, sizeof(zPath), "%s/query.so", zDir);
    n = rc == 0 ? mock_slurp(zPath, &b->pImage) : -1;
    unlink(zPath);
  }
  snprintf(zPath, sizeof(zPath), "%s/query.c", zDir);
  unlink(zPath);
  rmdir(zDir);
  b->bOk = n > 0;
  b->nImage = n > 0 ? (size_t)n : 0;
}

/* Copies b's image into p, or its log when it failed. Returns 1 if it
** compiled. Called with nvrtcMutex held (another thread may evict b). */
static int mock_built_take(const mock_built *b, nvrtcProgram p) {
  if (!b->bOk) {
    p->zLog = b->zLog != NULL ? strdup(b->zLog) : NULL;
    return 0;
  }
  if ((p->pImage = malloc(b->nImage)) == NULL) abort();
  memcpy(p->pImage, b->pImage, b->nImage);
  p->nImage = b->nImage;
  return 1;
}

/* Gives p the build of zSrc, compiling it unless a thread did or does.
** Returns 1 if it compiled. */
static int mock_build(const char *zSrc, nvrtcProgram p) {
  size_t nSrc = strlen(zSrc);
  uint64_t h = mock_hash(zSrc, nSrc);
  mock_built *b, **pp;
  pthread_mutex_lock(&nvrtcMutex);
  for (;;) {
    for (b = pBuilt; b != NULL; b = b->pNext) {
      if (b->h == h && b->nSrc == nSrc) break;
    }
    if (b == NULL || b->bDone) break;
    pthread_cond_wait(&nvrtcCond, &nvrtcMutex);   /* another thread's cc */
  }
  if (b != NULL) {
    int bOk = mock_built_take(b, p);
    pthread_mutex_unlock(&nvrtcMutex);
    return bOk;
  }
  if ((b = calloc(1, sizeof(*b))) == NULL) abort();
  b->h = h;
  b->nSrc = nSrc;
  b->pNext = pBuilt;
  pBuilt = b;
  nCc++;
  if (++nBuilt > MOCK_BUILT_MAX) {
    /* The oldest finished one goes (programs of it may still be reading:
    ** only one of a test's earlier shapes, long done). */
    for (pp = &pBuilt; (*pp)->pNext != NULL; pp = &(*pp)->pNext) {
    }
    if ((*pp)->bDone) {
      mock_built_free(*pp);
      *pp = NULL;
      nBuilt--;
    }
  }
  pthread_mutex_unlock(&nvrtcMutex);
  mock_cc(zSrc, b);
  pthread_mutex_lock(&nvrtcMutex);
  b->bDone = 1;
  pthread_cond_broadcast(&nvrtcCond);
  {
    int bOk = mock_built_take(b, p);
    pthread_mutex_unlock(&nvrtcMutex);
    return bOk;
  }
}

/* 1 if the calling thread runs at a lower priority than the process's
** main thread: the background compiler's. */
static int mock_background(void) {
  return getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid)) > getpriority(PRIO_PROCESS, (id_t)getpid());
}

static nvrtcResult mock_compile(nvrtcProgram p, int nOpt, const char *const *azOpt,
                                int bBackground);

nvrtcResult nvrtcCompileProgram(nvrtcProgram p, int nOpt, const char *const *azOpt) {
  nvrtcResult rc;
  int bBackground = mock_background();
  pthread_mutex_lock(&nvrtcMutex);
  while (bGate && bBackground) pthread_cond_wait(&nvrtcCond, &nvrtcMutex);
  if (++nInFlight > nInFlightMax) nInFlightMax = nInFlight;
  pthread_mutex_unlock(&nvrtcMutex);
  rc = mock_compile(p, nOpt, azOpt, bBackground);
  pthread_mutex_lock(&nvrtcMutex);
  nInFlight--;
  pthread_mutex_unlock(&nvrtcMutex);
  return rc;
}

/* The value of environment variable z, or iDefault when it is unset. */
static int mock_getenv_int(const char *z, int iDefault) {
  const char *v = getenv(z);
  return v != NULL && v[0] != 0 ? atoi(v) : iDefault;
}

/* nvrtcCompileProgram's work; bBackground: the background compiler's. */
static nvrtcResult mock_compile(nvrtcProgram p, int nOpt, const char *const *azOpt,
                                int bBackground) {
  int bArch = 0, bInt128 = 0, iPath = 0, bSlow = 0;
  for (int i = 0; i < nOpt; i++) {
    if (strncmp(azOpt[i], "--gpu-architecture=sm_90", 24) == 0) bArch = 1;
    else if (strcmp(azOpt[i], "--device-int128") == 0) bInt128 = 1;
    else if (strcmp(azOpt[i], "--std=c++17") != 0 && strcmp(azOpt[i], "-default-device") != 0 &&
             strcmp(azOpt[i], "-minimal") != 0) {
      return NVRTC_ERROR_INVALID_OPTION;
    }
  }
  if (!bArch || !bInt128) return NVRTC_ERROR_INVALID_OPTION;
  if (p->nName == 0) return NVRTC_ERROR_INVALID_INPUT;   /* a kernel at least */
  if (strncmp(p->zSrc, "#define SQ_PATH 1\n", 18) == 0) iPath = 1;
  if (strncmp(p->zSrc, "#define SQ_PATH 2\n", 18) == 0) iPath = 2;
  pthread_mutex_lock(&nvrtcMutex);
  nCompile++;
  nBackground += bBackground;
  anPath[iPath]++;
  if (!bBackground) bSlow = ++nForeground <= mock_getenv_int("STARQ_CUDA_MOCK_SLOW_COMPILES", INT32_MAX);
  pthread_mutex_unlock(&nvrtcMutex);
  if (bSlow) mock__sleep_ms(mock_getenv_int("STARQ_CUDA_MOCK_COMPILE_MS", 0));
  if (!mock_build(p->zSrc, p)) return NVRTC_ERROR_COMPILATION;
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
