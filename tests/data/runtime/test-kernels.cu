/*
** tests/data/runtime/test-kernels.cu — kernels for tests/test-runtime-cpu.c,
** written in the dialect of generated code (runtime/README.md): one text
** that the CPU backend compiles with cc and that NVRTC would compile for
** the GPU. Each kernel takes one struct by value and is correct for any
** block and warp size. The argument structs are repeated in the test,
** which checks their sizes through t_bits.
*/

/* ---- t_atomics: every atomic CUDA has, on each of its types ---- */

/* Slots of each array, as the test numbers them. */
struct t_atomic_args {
  const int32_t *aIn;           /* nIn values */
  int64_t nIn;
  int *aI;                      /* 9 slots */
  unsigned int *aU;             /* 9 slots */
  long long *aLL;               /* 2 slots */
  unsigned long long *aULL;     /* 11 slots */
  float *aF;                    /* 2 slots */
  double *aD;                   /* 2 slots */
};

__global__ void t_atomics(const struct t_atomic_args a) {
  int64_t i;
  for (i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.nIn;
       i += (int64_t)gridDim.x * blockDim.x) {
    int v = __ldg(&a.aIn[i]);
    unsigned int u = (unsigned int)v;
    unsigned int uh = u * 2654435761u;
    long long ll = (long long)v * 1000003ll;
    unsigned long long ull = (unsigned long long)u * 0x9E3779B97F4A7C15ull;
    int oldI, seenI;
    unsigned int oldU, seenU;
    unsigned long long oldL, seenL;

    atomicAdd(&a.aI[0], v);
    atomicAdd(&a.aU[0], u);
    atomicAdd(&a.aULL[0], ull);
    atomicAdd(&a.aF[0], (float)(v & 15));
    atomicAdd(&a.aD[0], (double)(v & 0xffff));
    atomicSub(&a.aI[1], v & 7);
    atomicSub(&a.aU[1], u & 7u);
    atomicMin(&a.aI[2], v);
    atomicMax(&a.aI[3], v);
    atomicMin(&a.aU[2], uh);
    atomicMax(&a.aU[3], uh);
    atomicMin(&a.aLL[0], ll);
    atomicMax(&a.aLL[1], ll);
    atomicMin(&a.aULL[1], ull);
    atomicMax(&a.aULL[2], ull);
    atomicOr(&a.aI[4], 1 << (v & 30));
    atomicAnd(&a.aI[5], v | 0x0ff00ff0);
    atomicXor(&a.aI[6], v);
    atomicOr(&a.aU[4], 1u << (u & 31u));
    atomicAnd(&a.aU[5], uh | 0x00ff00ffu);
    atomicXor(&a.aU[6], uh);
    atomicOr(&a.aULL[3], 1ull << (u & 63u));
    atomicAnd(&a.aULL[4], ull | 0x00ff00ff00ff00ffull);
    atomicXor(&a.aULL[5], ull);

    /* Every value written comes back once as the old value of a later
    ** exchange, or is the one left at the end: the old values plus the
    ** last equal the first plus all written. */
    atomicAdd(&a.aULL[6], (unsigned long long)(unsigned int)atomicExch(&a.aI[7], v & 0xffff));
    atomicAdd(&a.aULL[7], (unsigned long long)atomicExch(&a.aU[7], u & 0xffffu));
    atomicAdd(&a.aULL[8], atomicExch(&a.aULL[9], ull >> 8));
    atomicAdd(&a.aD[1], (double)atomicExch(&a.aF[1], (float)(v & 255)));

    /* Additions made of compare-and-swap loops, starting from a guess. */
    seenI = 0;
    do {
      oldI = seenI;
      seenI = atomicCAS(&a.aI[8], oldI, oldI + (v & 3));
    } while (seenI != oldI);
    seenU = 0u;
    do {
      oldU = seenU;
      seenU = atomicCAS(&a.aU[8], oldU, oldU + (u & 5u));
    } while (seenU != oldU);
    seenL = 0ull;
    do {
      oldL = seenL;
      seenL = atomicCAS(&a.aULL[10], oldL, oldL + (ull >> 40));
    } while (seenL != oldL);
  }
}
STARQ_CPU_ENTRY(t_atomics, struct t_atomic_args)

/* ---- t_shared: shared-memory histograms, ballots, a warp reduction ---- */

struct t_shared_args {
  const int32_t *aIn;           /* nIn values */
  int64_t nIn;
  unsigned long long *aHist;    /* 64 bins of v & 63, via __shared__ */
  unsigned long long *aDynSum;  /* nDynBin sums of v & 255 by v mod nDynBin,
                                ** via dynamic shared memory */
  int nDynBin;
  unsigned long long *pOdd;     /* odd values, via ballot and popc */
  unsigned long long *pSum;     /* sum of v & 255, via a warp reduction */
  unsigned long long *pBlocks;  /* blocks run */
};

__global__ void t_shared(const struct t_shared_args a) {
  __shared__ unsigned long long aBin[64];
  STARQ_DYN_SHARED(unsigned long long, aDyn);
  int64_t nStride = (int64_t)gridDim.x * blockDim.x;
  /* Every thread runs the same number of rounds, so whole warps vote. */
  int64_t nRound = (a.nIn + nStride - 1) / nStride * nStride;
  unsigned long long sum = 0;
  int64_t i;
  int j, off;

  for (j = threadIdx.x; j < 64; j += blockDim.x) aBin[j] = 0;
  for (j = threadIdx.x; j < a.nDynBin; j += blockDim.x) aDyn[j] = 0;
  __syncthreads();
  for (i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nRound; i += nStride) {
    bool bIn = i < a.nIn;
    int v = bIn ? a.aIn[i] : 0;
    unsigned int mOdd = __ballot_sync(0xffffffffu, bIn && (v & 1) != 0);
    if (threadIdx.x % warpSize == 0) atomicAdd(a.pOdd, (unsigned long long)__popc(mOdd));
    if (bIn) {
      atomicAdd(&aBin[v & 63], 1ull);
      atomicAdd(&aDyn[(unsigned int)v % (unsigned int)a.nDynBin], (unsigned long long)(v & 255));
      sum += (unsigned long long)(v & 255);
    }
  }
  for (off = warpSize / 2; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off);
  if (threadIdx.x % warpSize == 0) atomicAdd(a.pSum, sum);
  __syncthreads();
  for (j = threadIdx.x; j < 64; j += blockDim.x) {
    if (aBin[j] != 0) atomicAdd(&a.aHist[j], aBin[j]);
  }
  for (j = threadIdx.x; j < a.nDynBin; j += blockDim.x) {
    if (aDyn[j] != 0) atomicAdd(&a.aDynSum[j], aDyn[j]);
  }
  if (threadIdx.x == 0) atomicAdd(a.pBlocks, 1ull);
}
STARQ_CPU_ENTRY(t_shared, struct t_shared_args)

/* ---- t_grid: what each block sees of the grid ---- */

struct t_grid_args {
  unsigned int *aRuns;          /* per block: times it ran */
  unsigned int *aGridDim;       /* per block: gridDim.x it saw */
  unsigned int *aShape;         /* blockDim.x, warpSize, threadIdx.x,
                                ** blockIdx.y, blockIdx.z, gridDim.y, gridDim.z */
};

__global__ void t_grid(const struct t_grid_args a) {
  if (threadIdx.x != 0) return;
  atomicAdd(&a.aRuns[blockIdx.x], 1u);
  a.aGridDim[blockIdx.x] = gridDim.x;
  if (blockIdx.x == 0) {
    a.aShape[0] = blockDim.x;
    a.aShape[1] = (unsigned int)warpSize;
    a.aShape[2] = threadIdx.x;
    a.aShape[3] = blockIdx.y;
    a.aShape[4] = blockIdx.z;
    a.aShape[5] = gridDim.y;
    a.aShape[6] = gridDim.z;
  }
}
STARQ_CPU_ENTRY(t_grid, struct t_grid_args)

/* ---- t_bits: the bit, cast and warp helpers on known values ---- */

struct t_bits_args {
  long long *aOut;              /* 40 results */
};

__global__ void t_bits(const struct t_bits_args a) {
  long long *o = a.aOut;
  bool b = true;
  unsigned int mAll;
  int bAny, bAll;

  /* The whole of warp 0 votes; lane 0 writes. */
  if (blockIdx.x != 0 || threadIdx.x >= warpSize) return;
  mAll = __ballot_sync(0xffffffffu, 1);
  bAny = __any_sync(0xffffffffu, threadIdx.x == 0);
  bAll = __all_sync(0xffffffffu, threadIdx.x == 0);
  if (threadIdx.x != 0) return;
  o[0] = __popc(0u);
  o[1] = __popc(0xffffffffu);
  o[2] = __popcll(0xffffffffffffffffull);
  o[3] = __popcll(0x8000000000000001ull);
  o[4] = __ffs(0);
  o[5] = __ffs(8);
  o[6] = __ffs((int)0x80000000u);
  o[7] = __ffsll(1ll << 40);
  o[8] = __clz(0);
  o[9] = __clz(1);
  o[10] = __clz(-1);
  o[11] = __clzll(1ll);
  o[12] = __clzll(0ll);
  o[13] = __float_as_int(1.0f);
  o[14] = (long long)(__int_as_float(0x40490fdb) * 1000000.0f);
  o[15] = __double_as_longlong(1.0);
  o[16] = (long long)__longlong_as_double(0x4000000000000000ll);
  o[17] = __brev(1u);
  o[18] = __brev(0x12345678u);
  o[19] = __shfl_sync(0xffffffffu, 42, 0);
  o[20] = __shfl_xor_sync(0xffffffffu, 7, 1);
  o[21] = __shfl_up_sync(0xffffffffu, 9, 1);
  o[22] = __popc(mAll);
  o[23] = bAny;
  o[24] = bAll;
  o[25] = sizeof(struct t_atomic_args);
  o[26] = sizeof(struct t_shared_args);
  o[27] = sizeof(int64_t) * 100 + sizeof(uint64_t) * 10 + sizeof(int32_t);
  o[28] = INT64_MAX + INT64_MIN;
  o[29] = (long long)UINT32_MAX;
  o[30] = b ? 1 : 0;
  o[31] = (long long)sqrt(16.0) + (long long)floorf(2.5f);
  o[32] = __float_as_uint(-0.0f);
  o[33] = (long long)(__uint_as_float(0x3f000000u) * 4.0f);
  o[34] = sizeof(uint8_t) + sizeof(int16_t) * 10;
  o[35] = __syncthreads_count(1);
  o[36] = INT32_MIN;
  __threadfence();
  __syncwarp();
}
STARQ_CPU_ENTRY(t_bits, struct t_bits_args)

/* ---- t_private: shared memory belongs to one block at a time ---- */

struct t_private_args {
  int64_t nDynWord;             /* words of dynamic shared memory */
  int nRound;                   /* times each block writes and checks */
  unsigned long long *pBad;     /* words that read back wrong */
};

__global__ void t_private(const struct t_private_args a) {
  __shared__ unsigned int aFixed[4096];
  STARQ_DYN_SHARED(unsigned int, aWord);
  unsigned long long nBad = 0;
  int64_t j;
  int r;

  for (r = 0; r < a.nRound; r++) {
    unsigned int seed = blockIdx.x * 2654435761u + (unsigned int)r;
    for (j = threadIdx.x; j < a.nDynWord; j += blockDim.x) aWord[j] = seed + (unsigned int)j;
    for (j = threadIdx.x; j < 4096; j += blockDim.x) aFixed[j] = seed ^ (unsigned int)j;
    __syncthreads();
    for (j = threadIdx.x; j < a.nDynWord; j += blockDim.x) nBad += aWord[j] != seed + (unsigned int)j;
    for (j = threadIdx.x; j < 4096; j += blockDim.x) nBad += aFixed[j] != (seed ^ (unsigned int)j);
    __syncthreads();
  }
  if (nBad != 0) atomicAdd(a.pBad, nBad);
}
STARQ_CPU_ENTRY(t_private, struct t_private_args)
