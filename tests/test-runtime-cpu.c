/*
** tests/test-runtime-cpu.c — the CPU backend runs kernels as CUDA would:
** the kernels of tests/data/runtime/test-kernels.cu (every atomic on every
** type, __shared__ and dynamic shared memory, grid-stride loops, ballots, a
** warp reduction, the bit helpers) over a million values with several grid
** and pool sizes, each result compared with a plain C loop; every block
** runs exactly once; shared memory is private to a block; launches from
** several threads at once. The cache and the errors are in
** test-runtime-cache.c.
*/
#include <limits.h>
#include <pthread.h>
#include <unistd.h>

#include "../runtime/cpu.h"
#include "test-runtime.h"
#include "test.h"

/* The argument structs of test-kernels.cu, field for field; t_bits
** reports the kernel side's sizes. */
struct t_atomic_args {
  const int32_t *aIn;
  int64_t nIn;
  int *aI;
  unsigned int *aU;
  long long *aLL;
  unsigned long long *aULL;
  float *aF;
  double *aD;
};

struct t_shared_args {
  const int32_t *aIn;
  int64_t nIn;
  unsigned long long *aHist;
  unsigned long long *aDynSum;
  int nDynBin;
  unsigned long long *pOdd;
  unsigned long long *pSum;
  unsigned long long *pBlocks;
};

struct t_grid_args {
  unsigned int *aRuns;
  unsigned int *aGridDim;
  unsigned int *aShape;
};

struct t_bits_args {
  long long *aOut;
};

struct t_private_args {
  int64_t nDynWord;
  int nRound;
  unsigned long long *pBad;
};

#define RT_N 1000000

cpu_module *rt_kernels_load(void) {
  cpu_options opt = {.zCacheDir = "cache"};
  char zErr[4096], *zSrc = test_file_read(test_src("tests/data/runtime/test-kernels.cu"), NULL);
  cpu_module *pMod;
  CALL_OK(cpu_module_load(zSrc, &opt, &pMod, zErr, sizeof(zErr)));
  free(zSrc);
  return pMod;
}

cpu_kernel *rt_kernel(cpu_module *pMod, const char *zName) {
  char zErr[512];
  cpu_kernel *k;
  CALL_OK(cpu_module_kernel(pMod, zName, &k, zErr, sizeof(zErr)));
  return k;
}

void rt_launch(cpu_pool *pPool, cpu_kernel *k, unsigned nBlock, size_t nDyn, const void *pArgs) {
  char zErr[512];
  CALL_OK(cpu_kernel_launch(pPool, k, nBlock, nDyn, pArgs, zErr, sizeof(zErr)));
}

cpu_pool *rt_pool(int nThread) {
  char zErr[512];
  cpu_pool *p;
  CALL_OK(cpu_pool_create(nThread, &p, zErr, sizeof(zErr)));
  return p;
}

/* A million values over the whole int32 range, the same every run. */
static int32_t *rt_input(void) {
  int32_t *a = malloc(RT_N * sizeof(*a));
  uint64_t x = 0x853c49e6748fea9bull;
  ASSERT(a != NULL);
  for (int i = 0; i < RT_N; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    a[i] = (int32_t)(uint32_t)(x >> 32);
  }
  return a;
}

/* ---- t_atomics ---------------------------------------------------------- */

typedef struct rt_atomic_slots rt_atomic_slots;
struct rt_atomic_slots {
  int aI[9];
  unsigned int aU[9];
  long long aLL[2];
  unsigned long long aULL[11];
  float aF[2];
  double aD[2];
};

static void rt_atomic_init(rt_atomic_slots *s) {
  memset(s, 0, sizeof(*s));
  s->aI[1] = 1000;
  s->aI[2] = INT_MAX;
  s->aI[3] = INT_MIN;
  s->aI[5] = -1;
  s->aI[7] = 5;
  s->aU[2] = UINT_MAX;
  s->aU[5] = UINT_MAX;
  s->aU[7] = 3;
  s->aLL[0] = LLONG_MAX;
  s->aLL[1] = LLONG_MIN;
  s->aULL[1] = ULLONG_MAX;
  s->aULL[4] = ULLONG_MAX;
  s->aULL[9] = 11;
  s->aF[1] = 0.5f;
}

/* What t_atomics leaves in the slots, computed one value at a time. The
** exchange slots hold sums that the check adds the last value to. */
static void rt_atomic_expect(rt_atomic_slots *s, const int32_t *aIn) {
  uint32_t sumI = 0, subI;
  rt_atomic_init(s);
  subI = (uint32_t)s->aI[1];
  for (int i = 0; i < RT_N; i++) {
    int v = aIn[i];
    unsigned int u = (unsigned int)v, uh = u * 2654435761u;
    long long ll = (long long)v * 1000003ll;
    unsigned long long ull = (unsigned long long)u * 0x9E3779B97F4A7C15ull;
    sumI += u;
    subI -= (uint32_t)(v & 7);
    s->aU[0] += u;
    s->aULL[0] += ull;
    s->aF[0] += (float)(v & 15);
    s->aD[0] += (double)(v & 0xffff);
    s->aU[1] -= u & 7u;
    s->aI[2] = v < s->aI[2] ? v : s->aI[2];
    s->aI[3] = v > s->aI[3] ? v : s->aI[3];
    s->aU[2] = uh < s->aU[2] ? uh : s->aU[2];
    s->aU[3] = uh > s->aU[3] ? uh : s->aU[3];
    s->aLL[0] = ll < s->aLL[0] ? ll : s->aLL[0];
    s->aLL[1] = ll > s->aLL[1] ? ll : s->aLL[1];
    s->aULL[1] = ull < s->aULL[1] ? ull : s->aULL[1];
    s->aULL[2] = ull > s->aULL[2] ? ull : s->aULL[2];
    s->aI[4] |= 1 << (v & 30);
    s->aI[5] &= v | 0x0ff00ff0;
    s->aI[6] ^= v;
    s->aU[4] |= 1u << (u & 31u);
    s->aU[5] &= uh | 0x00ff00ffu;
    s->aU[6] ^= uh;
    s->aULL[3] |= 1ull << (u & 63u);
    s->aULL[4] &= ull | 0x00ff00ff00ff00ffull;
    s->aULL[5] ^= ull;
    s->aULL[6] += (unsigned long long)(v & 0xffff);
    s->aULL[7] += u & 0xffffu;
    s->aULL[8] += ull >> 8;
    s->aD[1] += (double)(v & 255);
    s->aI[8] += v & 3;
    s->aU[8] += u & 5u;
    s->aULL[10] += ull >> 40;
  }
  s->aI[0] = (int)sumI;
  s->aI[1] = (int)subI;
}

static void rt_atomic_check(const rt_atomic_slots *got, const rt_atomic_slots *want) {
  static const int aPlainI[] = {0, 1, 2, 3, 4, 5, 6, 8};
  for (size_t i = 0; i < sizeof(aPlainI) / sizeof(aPlainI[0]); i++) {
    ASSERT_EQ(got->aI[aPlainI[i]], want->aI[aPlainI[i]]);
  }
  for (int i = 0; i <= 8; i++) {
    if (i != 7) ASSERT_EQ(got->aU[i], want->aU[i]);
  }
  ASSERT_EQ(got->aLL[0], want->aLL[0]);
  ASSERT_EQ(got->aLL[1], want->aLL[1]);
  for (int i = 0; i <= 10; i++) {
    if (i < 6 || i == 10) ASSERT(got->aULL[i] == want->aULL[i]);
  }
  ASSERT(got->aF[0] == want->aF[0]);
  ASSERT(got->aD[0] == want->aD[0]);
  /* Exchanges: returned old values plus the last equal first plus all. */
  ASSERT(got->aULL[6] + (unsigned long long)(unsigned int)got->aI[7] == 5 + want->aULL[6]);
  ASSERT(got->aULL[7] + got->aU[7] == 3 + want->aULL[7]);
  ASSERT(got->aULL[8] + got->aULL[9] == 11 + want->aULL[8]);
  ASSERT(got->aD[1] + (double)got->aF[1] == 0.5 + want->aD[1]);
}

TEST_IMPL(runtime_cpu_atomics) {
  static const int aThread[] = {1, 3};
  static const unsigned aBlock[] = {1, 7, 1000};
  int32_t *aIn = rt_input();
  cpu_module *pMod = rt_kernels_load();
  cpu_kernel *k = rt_kernel(pMod, "t_atomics");
  rt_atomic_slots want, got;

  rt_atomic_expect(&want, aIn);
  for (size_t t = 0; t < sizeof(aThread) / sizeof(aThread[0]); t++) {
    cpu_pool *pPool = rt_pool(aThread[t]);
    for (size_t b = 0; b < sizeof(aBlock) / sizeof(aBlock[0]); b++) {
      struct t_atomic_args a = {aIn, RT_N, got.aI, got.aU, got.aLL, got.aULL, got.aF, got.aD};
      rt_atomic_init(&got);
      rt_launch(pPool, k, aBlock[b], 0, &a);
      rt_atomic_check(&got, &want);
    }
    cpu_pool_destroy(pPool);
  }
  cpu_module_free(pMod);
  free(aIn);
  return 0;
}

/* ---- t_shared ------------------------------------------------------------ */

#define RT_DYN_BIN 37

TEST_IMPL(runtime_cpu_shared) {
  static const int aThread[] = {1, 2, 4};
  static const unsigned aBlock[] = {1, 2, 13, 640};
  int32_t *aIn = rt_input();
  cpu_module *pMod = rt_kernels_load();
  cpu_kernel *k = rt_kernel(pMod, "t_shared");
  unsigned long long aHistWant[64] = {0}, aDynWant[RT_DYN_BIN] = {0}, nOdd = 0, nSum = 0;

  for (int i = 0; i < RT_N; i++) {
    int v = aIn[i];
    aHistWant[v & 63]++;
    aDynWant[(unsigned int)v % RT_DYN_BIN] += (unsigned long long)(v & 255);
    nOdd += (v & 1) != 0;
    nSum += (unsigned long long)(v & 255);
  }
  for (size_t t = 0; t < sizeof(aThread) / sizeof(aThread[0]); t++) {
    cpu_pool *pPool = rt_pool(aThread[t]);
    ASSERT_EQ(cpu_pool_threads(pPool), aThread[t]);
    for (size_t b = 0; b < sizeof(aBlock) / sizeof(aBlock[0]); b++) {
      unsigned long long aHist[64] = {0}, aDyn[RT_DYN_BIN] = {0}, nOddGot = 0, nSumGot = 0;
      unsigned long long nBlockGot = 0;
      struct t_shared_args a = {aIn, RT_N, aHist, aDyn, RT_DYN_BIN, &nOddGot, &nSumGot,
                                &nBlockGot};
      rt_launch(pPool, k, aBlock[b], RT_DYN_BIN * sizeof(unsigned long long), &a);
      for (int i = 0; i < 64; i++) ASSERT(aHist[i] == aHistWant[i]);
      for (int i = 0; i < RT_DYN_BIN; i++) ASSERT(aDyn[i] == aDynWant[i]);
      ASSERT(nOddGot == nOdd);
      ASSERT(nSumGot == nSum);
      ASSERT_EQ(nBlockGot, aBlock[b]);
    }
    cpu_pool_destroy(pPool);
  }
  cpu_module_free(pMod);
  free(aIn);
  return 0;
}

/* ---- t_grid and t_bits ------------------------------------------------------ */

static unsigned int rt_brev(unsigned int x) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}

TEST_IMPL(runtime_cpu_builtins) {
  static const unsigned aBlock[] = {1, 2, 1000, 4099};
  cpu_module *pMod = rt_kernels_load();
  cpu_pool *pPool = rt_pool(0);
  long long aOut[40];
  struct t_bits_args bits = {aOut};
  const long long aWant[37] = {
    0, 32, 64, 2, 0, 4, 32, 41, 32, 31, 0, 63, 64, 0x3f800000, 3141592,
    0x3ff0000000000000ll, 2, 0x80000000ll, (long long)rt_brev(0x12345678u), 42, 7, 9,
    1 /* one lane votes */, 1, 1 /* all of one lane */,
    (long long)sizeof(struct t_atomic_args), (long long)sizeof(struct t_shared_args),
    884, -1, 4294967295ll, 1, 6, 0x80000000ll, 2, 21, 1, -2147483648ll,
  };

  ASSERT_GE(cpu_pool_threads(pPool), 1);
  for (size_t b = 0; b < sizeof(aBlock) / sizeof(aBlock[0]); b++) {
    unsigned n = aBlock[b];
    unsigned int *aRuns = calloc(n, sizeof(*aRuns)), *aGrid = calloc(n, sizeof(*aGrid));
    unsigned int aShape[7];
    struct t_grid_args a = {aRuns, aGrid, aShape};
    memset(aShape, 0xff, sizeof(aShape));
    rt_launch(pPool, rt_kernel(pMod, "t_grid"), n, 0, &a);
    for (unsigned i = 0; i < n; i++) {
      ASSERT_EQ(aRuns[i], 1);
      ASSERT_EQ(aGrid[i], n);
    }
    ASSERT_EQ(aShape[0], 1);   /* blockDim.x */
    ASSERT_EQ(aShape[1], 1);   /* warpSize */
    ASSERT_EQ(aShape[2], 0);   /* threadIdx.x */
    ASSERT_EQ(aShape[3], 0);   /* blockIdx.y */
    ASSERT_EQ(aShape[4], 0);   /* blockIdx.z */
    ASSERT_EQ(aShape[5], 1);   /* gridDim.y */
    ASSERT_EQ(aShape[6], 1);   /* gridDim.z */
    free(aRuns);
    free(aGrid);
  }

  memset(aOut, 0x55, sizeof(aOut));
  rt_launch(pPool, rt_kernel(pMod, "t_bits"), 3, 0, &bits);
  for (int i = 0; i < 37; i++) {
    if (aOut[i] != aWant[i]) FAIL("t_bits o[%d] = %lld, want %lld", i, aOut[i], aWant[i]);
  }
  ASSERT(aOut[37] == 0x5555555555555555ll);   /* nothing past the end */
  cpu_pool_destroy(pPool);
  cpu_module_free(pMod);
  return 0;
}

/* ---- t_private: shared memory is the block's own --------------------------- */

TEST_IMPL(runtime_cpu_shared_private) {
  static const int64_t aDynWord[] = {1 << 18, 0, 1 << 20, 1000};
  cpu_module *pMod = rt_kernels_load();
  cpu_kernel *k = rt_kernel(pMod, "t_private");
  cpu_pool *pPool = rt_pool(3);

  /* Many blocks on three threads, each writing its pattern over the whole
  ** buffer and reading it back: a buffer or an array shared by two
  ** threads shows as wrong words. Sizes grow, vanish and shrink. */
  for (size_t i = 0; i < sizeof(aDynWord) / sizeof(aDynWord[0]); i++) {
    unsigned long long nBad = 0;
    struct t_private_args a = {aDynWord[i], 3, &nBad};
    rt_launch(pPool, k, 48, (size_t)aDynWord[i] * sizeof(unsigned int), &a);
    ASSERT(nBad == 0);
  }
  cpu_pool_destroy(pPool);
  cpu_module_free(pMod);
  return 0;
}

/* ---- launches from several threads on one pool ------------------------------- */

#define RT_LAUNCHERS 4
#define RT_LAUNCHES 50
#define RT_LAUNCH_BLOCKS 97

typedef struct rt_launcher rt_launcher;
struct rt_launcher {
  cpu_pool *pPool;
  cpu_kernel *k;
  unsigned int aRuns[RT_LAUNCH_BLOCKS];
  unsigned int aGrid[RT_LAUNCH_BLOCKS];
  unsigned int aShape[7];
};

static void *rt_launcher_main(void *pArg) {
  rt_launcher *l = pArg;
  struct t_grid_args a = {l->aRuns, l->aGrid, l->aShape};
  for (int i = 0; i < RT_LAUNCHES; i++) rt_launch(l->pPool, l->k, RT_LAUNCH_BLOCKS, 64, &a);
  return NULL;
}

TEST_IMPL(runtime_cpu_launch_threads) {
  static rt_launcher aL[RT_LAUNCHERS];
  cpu_module *pMod = rt_kernels_load();
  cpu_kernel *k = rt_kernel(pMod, "t_grid");
  cpu_pool *pPool = rt_pool(3);
  pthread_t aThread[RT_LAUNCHERS];
  char zErr[256];

  for (int i = 0; i < RT_LAUNCHERS; i++) {
    aL[i].pPool = pPool;
    aL[i].k = k;
    ASSERT_EQ(pthread_create(&aThread[i], NULL, rt_launcher_main, &aL[i]), 0);
  }
  for (int i = 0; i < RT_LAUNCHERS; i++) ASSERT_EQ(pthread_join(aThread[i], NULL), 0);
  for (int i = 0; i < RT_LAUNCHERS; i++) {
    for (int j = 0; j < RT_LAUNCH_BLOCKS; j++) {
      ASSERT_EQ(aL[i].aRuns[j], RT_LAUNCHES);
      ASSERT_EQ(aL[i].aGrid[j], RT_LAUNCH_BLOCKS);
    }
  }

  /* A grid CUDA would refuse is refused, and the pool goes on. */
  CALL_ERR(cpu_kernel_launch(pPool, k, 0, 0, &aL[0], zErr, sizeof(zErr)),
           "kernel t_grid: a grid takes 1 to 2147483647 blocks, not 0");
  CALL_ERR(cpu_kernel_launch(pPool, k, 0x80000000u, 0, &aL[0], zErr, sizeof(zErr)),
           "kernel t_grid: a grid takes 1 to 2147483647 blocks, not 2147483648");
  CALL_ERR(cpu_kernel_launch(pPool, k, 1, (size_t)-1, &aL[0], zErr, sizeof(zErr)),
           "out of memory for 18446744073709551615 bytes of dynamic shared memory per thread");
  rt_launcher_main(&aL[0]);
  ASSERT_EQ(aL[0].aRuns[0], 2 * RT_LAUNCHES);

  CALL_ERR(cpu_pool_create(-1, &pPool, zErr, sizeof(zErr)),
           "a CPU pool takes 1 to 1024 threads, not -1");
  CALL_ERR(cpu_pool_create(1025, &pPool, zErr, sizeof(zErr)),
           "a CPU pool takes 1 to 1024 threads, not 1025");
  cpu_pool_destroy(aL[0].pPool);
  cpu_pool_destroy(NULL);
  cpu_module_free(pMod);
  cpu_module_free(NULL);
  return 0;
}
