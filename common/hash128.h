/*
** common/hash128.h — a 128-bit non-cryptographic hash (MurmurHash3,
** x64_128 variant) for content-addressed caches: compiled kernel modules
** are stored under the hash of their source, compiler and flags.
**
** Not for anything an adversary chooses to collide: it is fast and well
** mixed, not secure.
*/
#ifndef STARQ_HASH128_H
#define STARQ_HASH128_H

#include <stddef.h>
#include <stdint.h>

typedef struct hash128 hash128;
struct hash128 {
  uint64_t h1, h2;         /* MurmurHash3_x64_128's two output words */
};

/* Returns MurmurHash3_x64_128 of p[0..n) with the given seed. */
hash128 hash128_of(const void *p, size_t n, uint32_t seed);

/* MurmurHash3's 64-bit finaliser: every bit of k affects every bit of
** the result (hash tables keyed by integers mix their keys with it). */
uint64_t hash128_fmix64(uint64_t k);

/* Writes h as 32 lowercase hex digits and a NUL into z[33]. */
void hash128_hex(hash128 h, char z[33]);

#endif /* STARQ_HASH128_H */
