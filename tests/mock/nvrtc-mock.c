/*
** tests/mock/nvrtc-mock.c — the NVRTC half of the mock driver library
** (cuda-mock.c says what the mock is for): "compiling" a CUDA source is
** compiling it with cc as the CPU backend does (STARQ_CPU defined, so
** runtime/cpu-shim.h maps CUDA onto one thread per block), the shared
** object's bytes are the "CUBIN", cc's diagnostics are the log, and each
** name expression gets a lowered name mangled as NVRTC would
** (_Z<len><name>...), which the mock's cuModuleGetFunction insists on.
** Only the options starq must pass are accepted (sm_90, --device-int128),
** and of the rest only the fast tier's --Ofast-compile=<level> and
** --split-compile=0, a -DSQ_KERNELS=<mask>, a -DSQ_PATH=<1|2> and
** --time=<file> (ignored) are known (anything else is
** NVRTC_ERROR_INVALID_OPTION). A program of one path (SQ_PATH: only the
** plain side or only the decode of its packed loads) is compiled with it:
** its kernels really lack the other side, and a run that needs it faults.
**
** Relocatable code (-rdc=true, the linked fast tier: runtime/cuda-link.c)
** comes with -DSQ_LIB_MODE: =2 is the device library, which the mock does
** not compile (the CPU shim compiles every body into every module) and
** whose "CUBIN" is MOCK_LIB_MAGIC; =1 is a program against its
** declarations, compiled as any other (cc sees the whole library) but
** handed back behind MOCK_RDC_MAGIC, which cuModuleLoadData refuses: only
** the mock's linker (cuda-mock.c) takes it off. So a fast tier that
** forgets to link fails to load, and starq_cuda_mock_nvrtc_rdc() counts
** the library's compiles and the relocatable programs.
**
** A module compiled as several programs (-DSQ_KERNELS=<the bits of its
** kernels>) is one source compiled several times, at two tiers: cc would
** run a dozen times per
** query shape. So the mock compiles each source text once, whole (the CPU
** backend's way), and hands the same shared object to every program of
** it — programs run on several threads at once, and wait for one
** another's cc. What a program alone would have contained is still
** checked, since that is codegen's contract with the runtime: with
** SQ_KERNELS defined the preprocessed text (cc -E) must define the CPU
** entries of its name expressions' kernels and of no other, else the
** compile fails with that in the log. starq_cuda_mock_nvrtc() counts the
** programs, those of the fast tier, the cc runs and the most programs
** seen compiling at once; starq_cuda_mock_nvrtc_gate(1) holds every
** optimized (not --Ofast-compile=...) compile at its start until
** starq_cuda_mock_nvrtc_gate(0), so a test can have a background compile
** finish when it wants.
*/
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
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
  int iPath;               /* SQ_PATH it was compiled with (0: none) */
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
static int nCompile, nFast, nCc, nBuilt, nInFlight, nInFlightMax, bGate;
static int anPath[3];          /* programs compiled per SQ_PATH (0: none) */
static int nLibCompile, nRdc;  /* SQ_LIB_MODE=2 programs, =1 programs */
static int nWarm;              /* programs of no kernel (NVRTC's warm-up) */
static int bFailWarm;          /* such programs fail to compile */
static mock_built *pBuilt;     /* most recent first */

int mock__compiles(void) {
  int n;
  pthread_mutex_lock(&nvrtcMutex);
  n = nCompile;
  pthread_mutex_unlock(&nvrtcMutex);
  return n;
}

/* Programs compiled, of them at the fast tier, cc runs, and the most
** programs in nvrtcCompileProgram at once, so far. */
void starq_cuda_mock_nvrtc(int *pnProgram, int *pnFast, int *pnCc, int *pnMaxAtOnce);
void starq_cuda_mock_nvrtc(int *pnProgram, int *pnFast, int *pnCc, int *pnMaxAtOnce) {
  pthread_mutex_lock(&nvrtcMutex);
  *pnProgram = nCompile;
  *pnFast = nFast;
  *pnCc = nCc;
  *pnMaxAtOnce = nInFlightMax;
  pthread_mutex_unlock(&nvrtcMutex);
}

/* Programs compiled so far with -DSQ_PATH=1 (plain side only) and =2
** (decode only). */
void starq_cuda_mock_nvrtc_paths(int *pnPlain, int *pnPacked);
void starq_cuda_mock_nvrtc_paths(int *pnPlain, int *pnPacked) {
  pthread_mutex_lock(&nvrtcMutex);
  *pnPlain = anPath[1];
  *pnPacked = anPath[2];
  pthread_mutex_unlock(&nvrtcMutex);
}

/* Compiles of the device library (-DSQ_LIB_MODE=2) and relocatable
** programs against it (-DSQ_LIB_MODE=1), so far. */
void starq_cuda_mock_nvrtc_rdc(int *pnLib, int *pnRdc);
void starq_cuda_mock_nvrtc_rdc(int *pnLib, int *pnRdc) {
  pthread_mutex_lock(&nvrtcMutex);
  *pnLib = nLibCompile;
  *pnRdc = nRdc;
  pthread_mutex_unlock(&nvrtcMutex);
}

/* Programs of no kernel and no library compiled so far: the backend's
** warm-up of NVRTC (runtime/cuda-link.c), not counted as compiles. */
void starq_cuda_mock_nvrtc_warm(int *pnWarm);
void starq_cuda_mock_nvrtc_warm(int *pnWarm) {
  pthread_mutex_lock(&nvrtcMutex);
  *pnWarm = nWarm;
  pthread_mutex_unlock(&nvrtcMutex);
}

/* Makes (1) or stops making (0) every warm-up's compile fail. */
void starq_cuda_mock_nvrtc_fail_warm(int bFail);
void starq_cuda_mock_nvrtc_fail_warm(int bFail) {
  pthread_mutex_lock(&nvrtcMutex);
  bFailWarm = bFail;
  pthread_mutex_unlock(&nvrtcMutex);
}

/* Closes (1) or opens (0) the gate in front of optimized compiles. */
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

/* Compiles zSrc with cc, whole or with zDefine (NULL: none), into b
** (image, or log). */
static void mock_cc(const char *zSrc, const char *zDefine, mock_built *b) {
  char zDir[] = MOCK_DIR_TEMPLATE, zCmd[1024], zPath[256];
  long n = -1;
  int rc;
  if (mkdtemp(zDir) == NULL) return;
  if (mock_source_write(zDir, zSrc) == 0) {
    snprintf(zCmd, sizeof(zCmd), "cc -std=c11 -O1 -fPIC -shared -fvisibility=hidden "
             "-fno-math-errno -Wl,-z,defs %s -o %s/query.so %s/query.c -lm >%s/log 2>&1",
             zDefine != NULL ? zDefine : "", zDir, zDir, zDir);
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

/* Gives p the build of zSrc with SQ_PATH iPath (0: undefined), compiling
** it unless a thread did or does. Returns 1 if it compiled. */
static int mock_build(const char *zSrc, int iPath, nvrtcProgram p) {
  static const char *const azPathDefine[] = {NULL, "-DSQ_PATH=1", "-DSQ_PATH=2"};
  size_t nSrc = strlen(zSrc);
  uint64_t h = mock_hash(zSrc, nSrc);
  mock_built *b, **pp;
  pthread_mutex_lock(&nvrtcMutex);
  for (;;) {
    for (b = pBuilt; b != NULL; b = b->pNext) {
      if (b->h == h && b->nSrc == nSrc && b->iPath == iPath) break;
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
  b->iPath = iPath;
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
  mock_cc(zSrc, azPathDefine[iPath], b);
  pthread_mutex_lock(&nvrtcMutex);
  b->bDone = 1;
  pthread_cond_broadcast(&nvrtcCond);
  {
    int bOk = mock_built_take(b, p);
    pthread_mutex_unlock(&nvrtcMutex);
    return bOk;
  }
}

/* Checks that zSrc with zDefine (-DSQ_KERNELS=<mask>) defines the CPU
** entries of p's name expressions' kernels and of no other kernel.
** Returns NULL, or the log (malloc'd). */
static char *mock_split_check(const char *zSrc, const char *zDefine, nvrtcProgram p) {
  char zDir[] = MOCK_DIR_TEMPLATE, zCmd[1024], zPath[256], zWant[300];
  unsigned char *zOut = NULL;
  char *zLog = NULL, *z;
  int nEntry = 0, iMissing = -1;
  if (mkdtemp(zDir) == NULL) return strdup("mkdtemp failed");
  if (mock_source_write(zDir, zSrc) == 0) {
    snprintf(zCmd, sizeof(zCmd), "cc -std=c11 -E -P %s -o %s/query.i %s/query.c >/dev/null 2>&1",
             zDefine, zDir, zDir);
    if (system(zCmd) == 0) {
      snprintf(zPath, sizeof(zPath), "%s/query.i", zDir);
      if (mock_slurp(zPath, &zOut) < 0) zOut = NULL;
      unlink(zPath);
    }
  }
  snprintf(zPath, sizeof(zPath), "%s/query.c", zDir);
  unlink(zPath);
  rmdir(zDir);
  if (zOut == NULL) return strdup("query.c: cc -E failed");
  for (z = (char *)zOut; (z = strstr(z, "__entry(const void *pArgs) {")) != NULL; z++) nEntry++;
  for (int i = 0; i < p->nName && iMissing < 0; i++) {
    snprintf(zWant, sizeof(zWant), " %s__entry(const void *pArgs) {", p->azName[i]);
    if (strstr((char *)zOut, zWant) == NULL) iMissing = i;
  }
  free(zOut);
  if (nEntry == p->nName && iMissing < 0) return NULL;
  if ((zLog = malloc(512)) == NULL) abort();
  snprintf(zLog, 512, "query.c: error (mock): with %s the program defines %d kernels%s%s; it "
           "must define its %d alone\n", zDefine, nEntry, iMissing >= 0 ? ", not " : "",
           iMissing >= 0 ? p->azName[iMissing] : "", p->nName);
  return zLog;
}

static nvrtcResult mock_compile(nvrtcProgram p, int nOpt, const char *const *azOpt);

nvrtcResult nvrtcCompileProgram(nvrtcProgram p, int nOpt, const char *const *azOpt) {
  nvrtcResult rc;
  int bFastOpt = 0;
  for (int i = 0; i < nOpt; i++) bFastOpt |= strncmp(azOpt[i], "--Ofast-compile=", 16) == 0;
  pthread_mutex_lock(&nvrtcMutex);
  while (bGate && !bFastOpt) pthread_cond_wait(&nvrtcCond, &nvrtcMutex);
  if (++nInFlight > nInFlightMax) nInFlightMax = nInFlight;
  pthread_mutex_unlock(&nvrtcMutex);
  rc = mock_compile(p, nOpt, azOpt);
  pthread_mutex_lock(&nvrtcMutex);
  nInFlight--;
  pthread_mutex_unlock(&nvrtcMutex);
  return rc;
}

/* nvrtcCompileProgram's work. */
static nvrtcResult mock_compile(nvrtcProgram p, int nOpt, const char *const *azOpt) {
  const char *zDefine = NULL;
  int bArch = 0, bInt128 = 0, bFastOpt = 0, iPath = 0, bRdc = 0, iLibMode = 0, bRegs = 0;
  int bSplitOpt = 0;
  for (int i = 0; i < nOpt; i++) {
    if (strncmp(azOpt[i], "--gpu-architecture=sm_90", 24) == 0) bArch = 1;
    else if (strcmp(azOpt[i], "-rdc=true") == 0) bRdc = 1;
    else if (strcmp(azOpt[i], "-DSQ_LIB_MODE=1") == 0) iLibMode = 1;
    else if (strcmp(azOpt[i], "-DSQ_LIB_MODE=2") == 0) iLibMode = 2;
    else if (strcmp(azOpt[i], "--device-int128") == 0) bInt128 = 1;
    else if (strncmp(azOpt[i], "--Ofast-compile=", 16) == 0) bFastOpt = 1;
    else if (strncmp(azOpt[i], "-DSQ_KERNELS=", 13) == 0) zDefine = azOpt[i];
    else if (strncmp(azOpt[i], "--time=", 7) == 0) continue;
    else if (strcmp(azOpt[i], "--split-compile=0") == 0) bSplitOpt = 1;
    else if (strcmp(azOpt[i], "-DSQ_PATH=1") == 0) iPath = 1;
    else if (strcmp(azOpt[i], "-DSQ_PATH=2") == 0) iPath = 2;
    else if (strcmp(azOpt[i], "--maxrregcount=32") == 0) bRegs = 1;
    else if (strcmp(azOpt[i], "--std=c++17") != 0 && strcmp(azOpt[i], "-default-device") != 0 &&
             strcmp(azOpt[i], "-minimal") != 0) {
      return NVRTC_ERROR_INVALID_OPTION;
    }
  }
  if (!bArch || !bInt128) return NVRTC_ERROR_INVALID_OPTION;
  /* NVRTC's own threads: the fast tier's option, not the optimized's. */
  if (bSplitOpt && !bFastOpt) return NVRTC_ERROR_INVALID_OPTION;
  /* Either both or neither; declarations are linked only at the fast tier. */
  if (bRdc != (iLibMode != 0) || (iLibMode == 1 && !bFastOpt)) return NVRTC_ERROR_INVALID_OPTION;
  /* Relocatable code, and only it, is capped at the 32 registers of a
  ** resident SCAN's launch bounds: the real linker refuses a kernel
  ** calling a function that needs more (runtime/cuda-compile.c). */
  if (bRegs != bRdc) return NVRTC_ERROR_INVALID_OPTION;
  if (iLibMode == 2 || p->nName == 0) {
    /* The library, or a warm-up (nothing to run): nothing is built, and
    ** the "image" is the library's mark. */
    if (iLibMode == 2 && (p->nName != 0 || strstr(p->zSrc, "sq_for_block") == NULL)) {
      return NVRTC_ERROR_INVALID_INPUT;
    }
    int bFail;
    pthread_mutex_lock(&nvrtcMutex);
    if (iLibMode == 2) nLibCompile++;
    else nWarm++;
    bFail = iLibMode != 2 && bFailWarm;
    pthread_mutex_unlock(&nvrtcMutex);
    if (bFail) return NVRTC_ERROR_COMPILATION;
    if ((p->pImage = malloc(sizeof(MOCK_LIB_MAGIC))) == NULL) abort();
    memcpy(p->pImage, MOCK_LIB_MAGIC, sizeof(MOCK_LIB_MAGIC));
    p->nImage = sizeof(MOCK_LIB_MAGIC);
    return NVRTC_SUCCESS;
  }
  pthread_mutex_lock(&nvrtcMutex);
  nCompile++;
  nFast += bFastOpt;
  anPath[iPath]++;
  nRdc += iLibMode == 1;
  pthread_mutex_unlock(&nvrtcMutex);
  if (!mock_build(p->zSrc, iPath, p)) {
    /* The text does not compile whole; one kernel's program of it may
    ** still, as under NVRTC: that program alone, then (errors are rare). */
    mock_built one;
    char zDefines[64];
    if (zDefine == NULL) return NVRTC_ERROR_COMPILATION;
    free(p->zLog);
    p->zLog = NULL;
    memset(&one, 0, sizeof(one));
    snprintf(zDefines, sizeof(zDefines), "%s -DSQ_PATH=%d", zDefine, iPath);
    mock_cc(p->zSrc, zDefines, &one);
    pthread_mutex_lock(&nvrtcMutex);
    nCc++;
    (void)mock_built_take(&one, p);
    pthread_mutex_unlock(&nvrtcMutex);
    free(one.pImage);
    free(one.zLog);
    if (!one.bOk) return NVRTC_ERROR_COMPILATION;
  }
  if (zDefine != NULL) {
    if (p->nName < 1) return NVRTC_ERROR_INVALID_INPUT;   /* a kernel at least */
    if ((p->zLog = mock_split_check(p->zSrc, zDefine, p)) != NULL) {
      free(p->pImage);
      p->pImage = NULL;
      return NVRTC_ERROR_COMPILATION;
    }
  }
  for (int i = 0; i < p->nName; i++) {
    char z[300];
    snprintf(z, sizeof(z), "_Z%zu%s6q_args", strlen(p->azName[i]), p->azName[i]);
    p->azLowered[i] = strdup(z);
  }
  if (iLibMode == 1) {
    /* Relocatable: loadable only once linked. */
    unsigned char *a = malloc(sizeof(MOCK_RDC_MAGIC) + p->nImage);
    if (a == NULL) abort();
    memcpy(a, MOCK_RDC_MAGIC, sizeof(MOCK_RDC_MAGIC));
    memcpy(a + sizeof(MOCK_RDC_MAGIC), p->pImage, p->nImage);
    free(p->pImage);
    p->pImage = a;
    p->nImage += sizeof(MOCK_RDC_MAGIC);
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
