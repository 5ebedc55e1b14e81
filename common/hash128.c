/*
** common/hash128.c — MurmurHash3_x64_128 (hash128.h), written from the
** algorithm's public description by Austin Appleby. Blocks are read with
** memcpy as little-endian words, so the input needs no alignment; on a
** big-endian host the result would differ from the reference, which is
** fine for a cache key that never leaves the machine.
*/
#include <stdio.h>
#include <string.h>

#include "hash128.h"

static uint64_t hash128__rotl(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}

/* The finaliser: forces every input bit to affect every output bit. */
uint64_t hash128_fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

static const uint64_t c1 = 0x87c37b91114253d5ull;
static const uint64_t c2 = 0x4cf5ad432745937full;

hash128 hash128_of(const void *p, size_t n, uint32_t seed) {
  const uint8_t *a = p;
  size_t nBlock = n / 16;
  uint64_t h1 = seed, h2 = seed, k1 = 0, k2 = 0;
  const uint8_t *tail = a + nBlock * 16;
  hash128 h;

  for (size_t i = 0; i < nBlock; i++) {
    memcpy(&k1, a + i * 16, 8);
    memcpy(&k2, a + i * 16 + 8, 8);
    k1 *= c1;
    k1 = hash128__rotl(k1, 31);
    k1 *= c2;
    h1 ^= k1;
    h1 = hash128__rotl(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52dce729;
    k2 *= c2;
    k2 = hash128__rotl(k2, 33);
    k2 *= c1;
    h2 ^= k2;
    h2 = hash128__rotl(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495ab5;
  }

  /* The last 0..15 bytes: bytes 8..15 into k2, 0..7 into k1. */
  k1 = k2 = 0;
  for (size_t i = n & 15; i > 8; i--) k2 |= (uint64_t)tail[i - 1] << (8 * (i - 9));
  if ((n & 15) > 8) {
    k2 *= c2;
    k2 = hash128__rotl(k2, 33);
    k2 *= c1;
    h2 ^= k2;
  }
  for (size_t i = (n & 15) > 8 ? 8 : (n & 15); i > 0; i--) {
    k1 |= (uint64_t)tail[i - 1] << (8 * (i - 1));
  }
  if ((n & 15) > 0) {
    k1 *= c1;
    k1 = hash128__rotl(k1, 31);
    k1 *= c2;
    h1 ^= k1;
  }

  h1 ^= (uint64_t)n;
  h2 ^= (uint64_t)n;
  h1 += h2;
  h2 += h1;
  h1 = hash128_fmix64(h1);
  h2 = hash128_fmix64(h2);
  h1 += h2;
  h2 += h1;
  h.h1 = h1;
  h.h2 = h2;
  return h;
}

void hash128_hex(hash128 h, char z[33]) {
  snprintf(z, 33, "%016llx%016llx", (unsigned long long)h.h1, (unsigned long long)h.h2);
}
