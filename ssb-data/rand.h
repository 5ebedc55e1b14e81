/*
** ssb-data/rand.h — counter-based random streams.
**
** dbgen keeps one sequential LCG per column, which forces one thread to
** generate a table front to back. Here each column has a stream key derived
** from the seed, and the value for row i is a hash of (key + i): SplitMix64's
** own state sequence read at position i, so any row can be drawn alone, by
** any thread, in any order, with the same result. Streams are named below;
** a stream is never shared between two columns.
*/
#ifndef STARQ_SSB_RAND_H
#define STARQ_SSB_RAND_H

#include <stdint.h>

/* One stream per random column. Numbers are part of the output format:
** reordering them changes every file for a given seed. */
#define SSB_STREAMS(X)                                                      \
  X(C_ADDR_LEN) X(C_ADDR) X(C_NATION) X(C_CITY) X(C_PHONE) X(C_SEGMENT)       \
  X(S_ADDR_LEN) X(S_ADDR) X(S_NATION) X(S_CITY) X(S_PHONE)                    \
  X(P_NAME) X(P_MFGR) X(P_CATEGORY) X(P_BRAND) X(P_TYPE) X(P_SIZE)            \
  X(P_CONTAINER)                                                              \
  X(O_LINES) X(O_CUSTKEY) X(O_DATE) X(O_PRIORITY)                             \
  X(L_PARTKEY) X(L_SUPPKEY) X(L_QUANTITY) X(L_DISCOUNT) X(L_TAX)              \
  X(L_COMMIT) X(L_SHIPMODE)

#define SSB_STREAM_ENUM(name) SSB_S_##name,
typedef enum ssb_stream { SSB_STREAMS(SSB_STREAM_ENUM) SSB_STREAM_COUNT } ssb_stream;

/* The keys of every stream for one seed. */
typedef struct ssb_rand ssb_rand;
struct ssb_rand {
  uint64_t aKey[SSB_STREAM_COUNT];
};

#define SSB_GOLDEN 0x9e3779b97f4a7c15ULL

/* SplitMix64's output function (Stafford's mix 13). */
static inline uint64_t ssb_mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static inline void ssb_rand_init(ssb_rand *r, uint64_t iSeed) {
  for (int i = 0; i < SSB_STREAM_COUNT; i++) {
    r->aKey[i] = ssb_mix64(ssb_mix64(iSeed + SSB_GOLDEN) ^ ((uint64_t)i + 1) * 0xd1b54a32d192ed03ULL);
  }
}

/* Returns 64 random bits: draw number i of stream e. */
static inline uint64_t ssb_rand_bits(const ssb_rand *r, ssb_stream e, uint64_t i) {
  return ssb_mix64(r->aKey[e] + i * SSB_GOLDEN);
}

/* Maps 64 random bits onto lo..hi inclusive (multiply-shift: the bias is
** below 2^-40 for every range the generator uses). */
static inline int64_t ssb_rand_scale(uint64_t h, int64_t lo, int64_t hi) {
  return lo + (int64_t)(((unsigned __int128)h * (uint64_t)(hi - lo + 1)) >> 64);
}

/* Returns a uniform integer in lo..hi: draw number i of stream e. */
static inline int64_t ssb_rand_int(const ssb_rand *r, ssb_stream e, uint64_t i,
                                   int64_t lo, int64_t hi) {
  return ssb_rand_scale(ssb_rand_bits(r, e, i), lo, hi);
}

#endif /* STARQ_SSB_RAND_H */
