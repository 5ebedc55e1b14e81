/*
** bench/probe-floor.c — how fast random probes into a lookup of a given
** size can go on this GPU: the second floor of a star join.
**
** A resident SSB query's bytes-touched floor counts its fact columns
** (bytes ÷ device-memory bandwidth). A query that probes a dimension for
** every fact row also moves one 32-byte sector per probe through L1 or
** L2, at random: Q3.1 at SF 100 probes an 800 KB supplier lookup 600 M
** times and a 12 MB customer lookup 120 M times. Those sectors are bytes
** touched too, and their rate is not the device-memory bandwidth but the
** cache's random-access rate, which depends on the lookup's size. This
** program measures that rate for lookups of the sizes SSB's dimensions
** have (4-byte row indexes, as codegen/device.cuh's sq_probe_array_* read
** them), so a query's probe floor is probes ÷ rate.
**
** The kernel: every thread makes PF_ITEMS independent probes per round at
** indexes from a multiplicative hash of (thread, round) — no input
** stream, so the figure is the probes alone — and folds what it read
** into a value that decides one atomic, so no load is dropped. Grids of
** 2..16 blocks of 256 per SM, three runs each, the best kept (as
** runtime/bandwidth.c measures its floors).
**
**   probe-floor [--probes N] [SIZE ...]   sizes like 160K, 2400K, 12M
**
** Prints, per size, probes/s and the sector bytes/s they move, and for a
** lookup small enough the rate from a copy in the block's shared memory.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/timer.h"
#include "../runtime/cuda.h"

#define PF_ITEMS 8
/* Lookups up to this size are probed from shared memory too (dynamic
** shared memory past 48 KB needs an opt-in this program does not make). */
#define PF_SHARED_MAX (48u * 1024u)

/* The slot of probe k of round r of thread t: a multiplicative hash's high
** 32 bits scaled to [0, nSlot) by a multiply (a 64-bit modulo here cost
** more than the probe: the first version of this program measured its
** division, ~216 G probes/s, not the cache). */
static const char pf_zKernel[] =
    "struct pf_args { const unsigned *lut; unsigned long long nSlot, nRound; "
    "unsigned long long *out; };\n"
    "__device__ __forceinline__ unsigned pf_slot(unsigned long long t, int k, unsigned long long r,\n"
    "                                            unsigned long long nSlot) {\n"
    "  unsigned long long h = (t * 8 + k + r * 0x9e3779b97f4a7c15ull) * 0xff51afd7ed558ccdull;\n"
    "  return (unsigned)(((h >> 32) * nSlot) >> 32);\n"
    "}\n"
    "__device__ __forceinline__ unsigned pf_rounds(const unsigned *lut, const struct pf_args *a) {\n"
    "  unsigned x = 0;\n"
    "  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;\n"
    "  for (unsigned long long r = 0; r < a->nRound; r++) {\n"
    "    unsigned v[8];\n"
    "    for (int k = 0; k < 8; k++) v[k] = lut[pf_slot(t, k, r, a->nSlot)];\n"
    "    for (int k = 0; k < 8; k++) x += v[k];\n"
    "  }\n"
    "  return x;\n"
    "}\n"
    "__global__ void pf_probe(const struct pf_args a) {\n"
    "  if (pf_rounds(a.lut, &a) == 0x9e3779b9u) atomicAdd(a.out, 1ull);   /* keeps the loads */\n"
    "}\n"
    "STARQ_CPU_ENTRY(pf_probe, struct pf_args)\n"
    "/* The lookup copied into the block's shared memory first, as a SCAN\n"
    "** would stage a small bitset. */\n"
    "__global__ void pf_probe_shared(const struct pf_args a) {\n"
    "  STARQ_DYN_SHARED(unsigned, pf_sh);\n"
    "  for (unsigned long long i = threadIdx.x; i < a.nSlot; i += blockDim.x) pf_sh[i] = a.lut[i];\n"
    "  __syncthreads();\n"
    "  if (pf_rounds(pf_sh, &a) == 0x9e3779b9u) atomicAdd(a.out, 1ull);\n"
    "}\n"
    "STARQ_CPU_ENTRY(pf_probe_shared, struct pf_args)\n";

typedef struct pf_args pf_args;
struct pf_args {
  uint64_t lut, nSlot, nRound, out;
};

static uint64_t pf_size(const char *z) {
  char *zEnd;
  double r = strtod(z, &zEnd);
  if (*zEnd == 'K' || *zEnd == 'k') r *= 1000;
  else if (*zEnd == 'M' || *zEnd == 'm') r *= 1000 * 1000;
  else if (*zEnd == 'G' || *zEnd == 'g') r *= 1000 * 1000 * 1000;
  else if (*zEnd != 0) return 0;
  return r >= 4 ? (uint64_t)r : 0;
}

/* Best probes/s over the grids, for a lookup of nSlot slots at xLut. */
static int pf_best(cuda_device *d, const cuda_kernel *k, cuda_ptr xLut, uint64_t nSlot,
                   unsigned nShared, uint64_t nProbe, cuda_ptr xOut, double *pr, char *zErr,
                   size_t nErr) {
  static const int aPerSm[] = {2, 4, 8, 16};
  const cuda_device_info *pInfo = cuda_device_info_get(d);
  *pr = 0;
  for (size_t c = 0; c < sizeof(aPerSm) / sizeof(aPerSm[0]); c++) {
    uint64_t nThread = (uint64_t)pInfo->nSm * (uint64_t)aPerSm[c] * 256;
    pf_args a = {xLut, nSlot, nProbe / (nThread * PF_ITEMS) + 1, xOut};
    double rProbe = (double)(a.nRound * nThread * PF_ITEMS);
    for (int r = 0; r < 3; r++) {
      double t0 = timer_now(), t;
      if (cuda_kernel_launch(d, k, (unsigned)(pInfo->nSm * aPerSm[c]), 256, nShared, &a, sizeof(a),
                             zErr, nErr) != 0) {
        return -1;
      }
      t = timer_now() - t0;
      if (t > 0 && rProbe / t > *pr) *pr = rProbe / t;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  static const char *const azDefault[] = {"5K", "25K", "40K", "160K", "800K", "2400K", "4M", "12M", "48M",
                                          "400M"};
  static const char *const azKernel[] = {"pf_probe", "pf_probe_shared"};
  cuda_load_options lo = {.zSource = pf_zKernel, .nKernel = 2, .azKernel = azKernel};
  const char *const *azSize = azDefault;
  int nSize = (int)(sizeof(azDefault) / sizeof(azDefault[0])), rc = 1;
  uint64_t nProbe = 1ull << 30;
  char zErr[1024];
  cuda_device *d = NULL;
  cuda_module *m = NULL;
  cuda_kernel *k, *kShared;
  cuda_ptr xOut = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--probes") == 0 && i + 1 < argc) {
      nProbe = strtoull(argv[++i], NULL, 10);
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: probe-floor [--probes N] [SIZE ...]\n");
      return 2;
    } else {
      azSize = (const char *const *)&argv[i];
      nSize = argc - i;
      break;
    }
  }
  if (cuda_device_open(NULL, &d, zErr, sizeof(zErr)) != 0 ||
      cuda_module_load(d, &lo, &m, NULL, zErr, sizeof(zErr)) != 0 ||
      cuda_module_kernel(m, "pf_probe", &k, zErr, sizeof(zErr)) != 0 ||
      cuda_module_kernel(m, "pf_probe_shared", &kShared, zErr, sizeof(zErr)) != 0 ||
      cuda_mem_alloc(d, 8, &xOut, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "probe-floor: %s\n", zErr);
    goto out;
  }
  printf("%s, %llu random 4-byte probes per size (one 32-byte sector each)\n\n",
         cuda_device_info_get(d)->zName, (unsigned long long)nProbe);
  printf("| lookup bytes | probes/s (G) | sector GB/s | ms per G probes | in shared memory: probes/s (G) |\n");
  printf("|---:|---:|---:|---:|---:|\n");
  for (int i = 0; i < nSize; i++) {
    uint64_t nByte = pf_size(azSize[i]), nSlot = nByte / 4;
    cuda_ptr xLut = 0;
    double r, rShared = 0;
    if (nByte == 0) {
      fprintf(stderr, "probe-floor: bad size %s\n", azSize[i]);
      goto out;
    }
    if (cuda_mem_alloc(d, nSlot * 4, &xLut, zErr, sizeof(zErr)) != 0 ||
        cuda_mem_zero(d, xLut, nSlot * 4, zErr, sizeof(zErr)) != 0 ||
        pf_best(d, k, xLut, nSlot, 0, nProbe, xOut, &r, zErr, sizeof(zErr)) != 0 ||
        (nByte <= PF_SHARED_MAX &&
         pf_best(d, kShared, xLut, nSlot, (unsigned)(nSlot * 4), nProbe, xOut, &rShared, zErr,
                 sizeof(zErr)) != 0)) {
      cuda_mem_free(d, xLut);
      fprintf(stderr, "probe-floor: %s\n", zErr);
      goto out;
    }
    cuda_mem_free(d, xLut);
    printf("| %s | %.1f | %.0f | %.2f |", azSize[i], r / 1e9, r * 32 / 1e9, 1e9 / r * 1e3);
    if (rShared > 0) printf(" %.1f |\n", rShared / 1e9);
    else printf(" - |\n");
    fflush(stdout);
  }
  rc = 0;
out:
  cuda_mem_free(d, xOut);
  cuda_module_release(m);
  cuda_device_close(d);
  return rc;
}
