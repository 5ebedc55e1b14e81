/*
** tests/mock/link-mock.c — the driver's linker in the mock driver library
** (cuda-mock.c says what the mock is for): cuLinkCreate, cuLinkAddData,
** cuLinkComplete, cuLinkDestroy, as the linked fast tier calls them
** (runtime/cuda-link.c).
**
** The mock's "CUBINs" are shared objects that already hold the whole
** device library (nvrtc-mock.c), so linking only checks what the real
** linker would refuse and unwraps: a link takes exactly one library image
** (MOCK_LIB_MAGIC) and one relocatable program (MOCK_RDC_MAGIC ahead of
** its shared object) and completes to that shared object, which the link
** state owns until cuLinkDestroy. Anything else added is an invalid image;
** a completion without both inputs is CUDA_ERROR_INVALID_VALUE, which a
** real link with an unresolved function would fail with too (as
** CUDA_ERROR_NOT_FOUND or similar). starq_cuda_mock_links() counts the
** completed links and the states not destroyed.
*/
#include <stdlib.h>
#include <string.h>

#include "mockInt.h"

CUDA_API_DRIVER_FUNCTIONS(MOCK_PROTO)

struct CUlinkState_st {
  int nLib;                /* library images added */
  unsigned char *pProg;    /* the relocatable program's shared object; owned */
  size_t nProg;
  int nProgAdded;
};

static pthread_mutex_t linkMutex = PTHREAD_MUTEX_INITIALIZER;
static int nLinked, nLive;

CUresult cuLinkCreate(unsigned int nOpt, CUjit_option *aOpt, void **apVal, CUlinkState *pState) {
  (void)aOpt, (void)apVal;
  if (mock__lost()) return CUDA_ERROR_ILLEGAL_ADDRESS;
  if (nOpt > 0 && (aOpt == NULL || apVal == NULL)) return CUDA_ERROR_INVALID_VALUE;
  if ((*pState = calloc(1, sizeof(**pState))) == NULL) return CUDA_ERROR_OUT_OF_MEMORY;
  pthread_mutex_lock(&linkMutex);
  nLive++;
  pthread_mutex_unlock(&linkMutex);
  return CUDA_SUCCESS;
}

CUresult cuLinkAddData(CUlinkState h, CUjitInputType eType, void *pData, size_t n,
                       const char *zName, unsigned int nOpt, CUjit_option *aOpt, void **apVal) {
  const unsigned char *a = pData;
  size_t nMagic = sizeof(MOCK_RDC_MAGIC);
  (void)zName, (void)aOpt, (void)apVal;
  if (h == NULL || pData == NULL || nOpt != 0) return CUDA_ERROR_INVALID_VALUE;
  if (eType != CU_JIT_INPUT_CUBIN) return CUDA_ERROR_INVALID_IMAGE;
  if (n == sizeof(MOCK_LIB_MAGIC) && memcmp(a, MOCK_LIB_MAGIC, n) == 0) {
    h->nLib++;
    return CUDA_SUCCESS;
  }
  if (n <= nMagic || memcmp(a, MOCK_RDC_MAGIC, nMagic) != 0) return CUDA_ERROR_INVALID_IMAGE;
  free(h->pProg);
  h->nProg = n - nMagic;
  if ((h->pProg = malloc(h->nProg)) == NULL) return CUDA_ERROR_OUT_OF_MEMORY;
  memcpy(h->pProg, a + nMagic, h->nProg);
  h->nProgAdded++;
  return CUDA_SUCCESS;
}

CUresult cuLinkComplete(CUlinkState h, void **ppOut, size_t *pnOut) {
  if (h == NULL) return CUDA_ERROR_INVALID_VALUE;
  if (h->nLib != 1 || h->nProgAdded != 1) return CUDA_ERROR_INVALID_VALUE;
  *ppOut = h->pProg;
  *pnOut = h->nProg;
  pthread_mutex_lock(&linkMutex);
  nLinked++;
  pthread_mutex_unlock(&linkMutex);
  return CUDA_SUCCESS;
}

CUresult cuLinkDestroy(CUlinkState h) {
  if (h == NULL) return CUDA_ERROR_INVALID_VALUE;
  free(h->pProg);
  free(h);
  pthread_mutex_lock(&linkMutex);
  nLive--;
  pthread_mutex_unlock(&linkMutex);
  return CUDA_SUCCESS;
}

/* Links completed so far, and link states not destroyed. */
void starq_cuda_mock_links(int *pnLinked, int *pnLive);
void starq_cuda_mock_links(int *pnLinked, int *pnLive) {
  pthread_mutex_lock(&linkMutex);
  *pnLinked = nLinked;
  *pnLive = nLive;
  pthread_mutex_unlock(&linkMutex);
}
