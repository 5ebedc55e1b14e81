/*
** tests/test-store-for.c — FOR-bitpacked value files (storage/colfor.c):
** round trips at every bit width with random and edge values (the type's
** least and greatest, negatives, all-equal blocks, a last partial block),
** the choice to stay plain when packing does not pay, and files whose
** directory or words are corrupt, refused by store_map_open with a message
** and never read past.
**
** The reference is the plain array each file was written from; the
** decoder under test is store_for_get and store_map_decode (the kernels'
** sq_for_get runs the same arithmetic; the exec tests compare it with
** SQLite on FOR-bitpacked SSB data).
*/
#include <fcntl.h>
#include <unistd.h>

#include "../common/le.h"
#include "../storage/store.h"
#include "test.h"

/* A xorshift generator: reproducible values without libc's rand(). */
static uint64_t for_test_rand(uint64_t *p) {
  uint64_t x = *p;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *p = x;
}

/* Writes a[0..n) (8-byte values, stored at width nByte of type t) as a
** FOR file, maps it, and checks every row and the directory's widths
** against the widest delta of each block. */
static void for_test_roundtrip(coltype_id t, unsigned nByte, const int64_t *a, uint64_t n) {
  unsigned char *aPlain = malloc((size_t)n * nByte + 1);
  char zErr[256];
  store_map m;
  ASSERT(aPlain != NULL);
  for (uint64_t i = 0; i < n; i++) {
    if (nByte == 2) { int16_t v = (int16_t)a[i]; memcpy(aPlain + i * 2, &v, 2); }
    else if (nByte == 4) { int32_t v = (int32_t)a[i]; memcpy(aPlain + i * 4, &v, 4); }
    else memcpy(aPlain + i * 8, &a[i], 8);
  }
  if (store_for_write("f.col", t, aPlain, n, 0, zErr, sizeof(zErr)) != 0) FAIL("write: %s", zErr);
  if (store_map_open(&m, "f.col", STORE_VALUES, t, zErr, sizeof(zErr)) != 0) FAIL("map: %s", zErr);
  ASSERT_EQ(m.eEnc, STORE_ENC_FOR);
  ASSERT_EQ(m.nRow, n);
  ASSERT_EQ(m.nPayload, store_for_size(t, aPlain, n));
  for (uint64_t i = 0; i < n; i++) {
    if (store_for_get(&m, i) != a[i]) {
      FAIL("row %llu: %lld, expected %lld", (unsigned long long)i, (long long)store_for_get(&m, i),
           (long long)a[i]);
    }
  }
  for (uint64_t b = 0; b * STORE_FOR_BLOCK < n; b++) {
    uint64_t r;
    int64_t mn = a[b * STORE_FOR_BLOCK], mx = mn;
    unsigned w = 0, wFile;
    for (uint64_t i = b * STORE_FOR_BLOCK; i < n && i < (b + 1) * STORE_FOR_BLOCK; i++) {
      if (a[i] < mn) mn = a[i];
      if (a[i] > mx) mx = a[i];
    }
    for (r = (uint64_t)mx - (uint64_t)mn; r != 0; r >>= 1) w++;
    wFile = (unsigned)(le_get((const unsigned char *)m.aData + b * STORE_FOR_DIR_BYTES + 8, 8) >> 56);
    ASSERT_EQ(wFile, w);
    ASSERT_EQ((int64_t)le_get((const unsigned char *)m.aData + b * STORE_FOR_DIR_BYTES, 8), mn);
  }
  /* The plain view the loader and the reference database read. */
  if (store_map_decode(&m, zErr, sizeof(zErr)) != 0) FAIL("decode: %s", zErr);
  ASSERT(memcmp(m.aData, aPlain, (size_t)n * nByte) == 0);
  store_map_close(&m);
  free(aPlain);
}

/* Every width of a type: block b holds deltas below 2^w, with one row at
** exactly 2^w - 1 so the width is w, around a reference near the type's
** middle, least or greatest. */
static void for_test_widths(coltype_id t, unsigned nByte) {
  unsigned nBit = 8 * nByte;
  uint64_t seed = 0x1234567u + nByte, n = (uint64_t)(nBit + 1) * STORE_FOR_BLOCK + 37;
  int64_t *a = malloc(sizeof(int64_t) * (size_t)n), tmin, tmax;
  ASSERT(a != NULL);
  tmax = nByte == 8 ? INT64_MAX : (int64_t)((UINT64_C(1) << (nBit - 1)) - 1);
  tmin = -tmax - 1;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t b = i / STORE_FOR_BLOCK, j = i % STORE_FOR_BLOCK;
    unsigned w = (unsigned)(b % (nBit + 1));
    uint64_t mask = w == 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1;
    uint64_t d = j == 5 ? mask : j == 9 ? 0 : for_test_rand(&seed) & mask;
    /* Reference: the type's least (deltas up from it), or below its middle. */
    int64_t ref = b % 2 ? tmin : (w >= nBit ? tmin : -(int64_t)(mask / 2) - 3);
    a[i] = (int64_t)((uint64_t)ref + d);
    if (a[i] > tmax || a[i] < tmin) a[i] = tmin;   /* never: kept for safety of the test */
  }
  a[n - 1] = tmax;                                  /* the last, partial block: the full range */
  a[n - 2] = tmin;
  for_test_roundtrip(t, nByte, a, n);
  /* One row, and one block of equal values (width 0). */
  for_test_roundtrip(t, nByte, a + n - 1, 1);
  for (uint64_t i = 0; i < STORE_FOR_BLOCK; i++) a[i] = -7;
  for_test_roundtrip(t, nByte, a, STORE_FOR_BLOCK);
  free(a);
}

TEST_IMPL(store_for_roundtrip) {
  for_test_widths(COLTYPE_INTEGER, 4);
  for_test_widths(COLTYPE_DATE, 4);
  for_test_widths(COLTYPE_SMALLINT, 2);
  for_test_widths(COLTYPE_BIGINT, 8);
  for_test_widths(COLTYPE_DECIMAL, 8);
  return 0;
}

/* Writes a plain INTEGER file of n values v(i). */
static void for_test_plain(const char *zPath, const int32_t *a, uint64_t n) {
  store_file f;
  coltype t;
  char zErr[256];
  memset(&t, 0, sizeof(t));
  t.eId = COLTYPE_INTEGER;
  if (store_file_create(&f, zPath, STORE_VALUES, t, zErr, sizeof(zErr)) != 0 ||
      store_file_append(&f, a, n, zErr, sizeof(zErr)) != 0 ||
      store_file_seal(&f, n, n * 4, 0, zErr, sizeof(zErr)) != 0) {
    FAIL("%s", zErr);
  }
}

TEST_IMPL(store_for_choice) {
  enum { N = 5000 };
  int32_t a[N];
  uint64_t seed = 99;
  char zErr[256];
  store_map m;
  int bDone;
  /* Full-range random values: packing saves nothing, the file stays plain. */
  for (int i = 0; i < N; i++) a[i] = (int32_t)(uint32_t)for_test_rand(&seed);
  for_test_plain("r.col", a, N);
  CALL_OK(store_for_compress("r.col", 0, &bDone, zErr, sizeof(zErr)));
  ASSERT_EQ(bDone, 0);
  CALL_OK(store_map_open(&m, "r.col", STORE_VALUES, COLTYPE_INTEGER, zErr, sizeof(zErr)));
  ASSERT_EQ(m.eEnc, STORE_ENC_PLAIN);
  store_map_close(&m);
  /* Small values (lo_discount's 0..10): packed, and read back the same. */
  for (int i = 0; i < N; i++) a[i] = (int32_t)(for_test_rand(&seed) % 11);
  for_test_plain("d.col", a, N);
  CALL_OK(store_for_compress("d.col", 0, &bDone, zErr, sizeof(zErr)));
  ASSERT_EQ(bDone, 1);
  CALL_OK(store_map_open(&m, "d.col", STORE_VALUES, COLTYPE_INTEGER, zErr, sizeof(zErr)));
  ASSERT_EQ(m.eEnc, STORE_ENC_FOR);
  ASSERT(m.nPayload < N * 4 / 6);
  for (int i = 0; i < N; i++) ASSERT_EQ(store_for_get(&m, (uint64_t)i), a[i]);
  store_map_close(&m);
  return 0;
}

/* Maps zPath and returns the error, or "ok". */
static const char *for_test_map_err(const char *zPath) {
  static char zErr[256];
  store_map m;
  if (store_map_open(&m, zPath, STORE_VALUES, COLTYPE_INTEGER, zErr, sizeof(zErr)) == 0) {
    store_map_close(&m);
    return "ok";
  }
  return zErr;
}

static void for_test_patch(const char *zPath, long iOff, uint64_t v, int nByte) {
  unsigned char b[8];
  int fd = open(zPath, O_WRONLY);
  ASSERT(fd >= 0);
  le_put(b, v, nByte);
  ASSERT_EQ(pwrite(fd, b, (size_t)nByte, iOff), (ssize_t)nByte);
  ASSERT_EQ(close(fd), 0);
}

/* A good FOR file of 300 rows (3 blocks, widths 4): directory at 64. */
static void for_test_good(void) {
  int32_t a[300];
  char zErr[256];
  for (int i = 0; i < 300; i++) a[i] = i % 11;
  if (store_for_write("c.col", COLTYPE_INTEGER, a, 300, 0, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
}

TEST_IMPL(store_for_corrupt) {
  for_test_good();
  ASSERT_STR_EQ(for_test_map_err("c.col"), "ok");

  /* Truncated: the header's payload and the file's length disagree. */
  ASSERT_EQ(truncate("c.col", 64 + 48 + 8), 0);
  ASSERT(strstr(for_test_map_err("c.col"), "bytes long") != NULL);

  /* A block width past the 32 bits of an INTEGER. */
  for_test_good();
  for_test_patch("c.col", 64 + 16 + 8, (uint64_t)33 << 56 | 16, 8);
  ASSERT_STR_EQ(for_test_map_err("c.col"),
                "c.col: block 1 has bit width 33, more than the 32 bits of its values (corrupt "
                "FOR-bitpacked file)");

  /* An offset past the end (block 2 pointing far away). */
  for_test_good();
  for_test_patch("c.col", 64 + 32 + 8, (uint64_t)4 << 56 | 1000000, 8);
  ASSERT_STR_EQ(for_test_map_err("c.col"),
                "c.col: block 2 starts at word 1000000, expected 32 (corrupt FOR-bitpacked file)");

  /* Widths that need more words than the payload holds. */
  for_test_good();
  for_test_patch("c.col", 64 + 32 + 8, (uint64_t)30 << 56 | 32, 8);
  ASSERT(strstr(for_test_map_err("c.col"), "its blocks hold") != NULL);

  /* A FOR encoding on a type that cannot have it, and an unknown one. */
  for_test_good();
  for_test_patch("c.col", 16, COLTYPE_DOUBLE, 4);
  for_test_patch("c.col", 20, 8, 4);
  ASSERT(strstr(for_test_map_err("c.col"), "cannot be FOR-bitpacked") != NULL ||
         strstr(for_test_map_err("c.col"), "holds") != NULL);
  for_test_good();
  for_test_patch("c.col", 40, 2, 4);
  ASSERT_STR_EQ(for_test_map_err("c.col"), "c.col: unknown encoding 2 of a values file");

  /* A directory shorter than the rows need. */
  for_test_good();
  for_test_patch("c.col", 24, 100000, 8);
  ASSERT(strcmp(for_test_map_err("c.col"), "ok") != 0);
  return 0;
}
