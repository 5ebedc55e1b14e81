/*
** common/le.h — little-endian integers in byte buffers, for file headers
** and trailers that must read the same on any host (column files, the
** module caches). Byte by byte, so alignment never matters.
*/
#ifndef STARQ_LE_H
#define STARQ_LE_H

#include <stdint.h>

/* Writes the low nByte bytes of v at p, least significant first. */
static inline void le_put(unsigned char *p, uint64_t v, int nByte) {
  for (int i = 0; i < nByte; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* Reads nByte bytes at p, least significant first. */
static inline uint64_t le_get(const unsigned char *p, int nByte) {
  uint64_t v = 0;
  for (int i = 0; i < nByte; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

#endif /* STARQ_LE_H */
