/*
** tests/test-hash128.c — common/hash128.c is MurmurHash3_x64_128: SMHasher's
** verification value (hashes of 256 keys of growing length under changing
** seeds, hashed again) and a few known digests.
*/
#include "../common/hash128.h"
#include "test.h"

TEST_IMPL(hash128_murmur3) {
  unsigned char aKey[256], aHashes[16 * 256], aFinal[16];
  char zHex[33];
  hash128 h;

  for (int i = 0; i < 256; i++) {
    aKey[i] = (unsigned char)i;
    h = hash128_of(aKey, (size_t)i, (uint32_t)(256 - i));
    for (int j = 0; j < 8; j++) {
      aHashes[16 * i + j] = (unsigned char)(h.h1 >> (8 * j));
      aHashes[16 * i + 8 + j] = (unsigned char)(h.h2 >> (8 * j));
    }
  }
  h = hash128_of(aHashes, sizeof(aHashes), 0);
  for (int j = 0; j < 8; j++) aFinal[j] = (unsigned char)(h.h1 >> (8 * j));
  ASSERT_EQ((uint32_t)aFinal[0] | (uint32_t)aFinal[1] << 8 | (uint32_t)aFinal[2] << 16 |
                (uint32_t)aFinal[3] << 24,
            0x6384BA69u);

  hash128_hex(hash128_of("hello", 5, 0), zHex);
  ASSERT_STR_EQ(zHex, "cbd8a7b341bd9b025b1e906a48ae1d19");
  hash128_hex(hash128_of("", 0, 0), zHex);
  ASSERT_STR_EQ(zHex, "00000000000000000000000000000000");
  /* Every tail length, and the seed, change the digest. */
  ASSERT(hash128_of("abcdefghijklmnopq", 17, 0).h1 != hash128_of("abcdefghijklmnop", 16, 0).h1);
  ASSERT(hash128_of("abc", 3, 1).h2 != hash128_of("abc", 3, 0).h2);
  return 0;
}
