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
** sq_for_block runs the same arithmetic; the exec tests compare it with
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
  if (store_for_write("f.col", STORE_ENC_FOR, t, aPlain, n, 0, zErr, sizeof(zErr)) != 0) {
    FAIL("write: %s", zErr);
  }
  if (store_map_open(&m, "f.col", STORE_VALUES, t, zErr, sizeof(zErr)) != 0) FAIL("map: %s", zErr);
  ASSERT_EQ(m.eEnc, STORE_ENC_FOR);
  ASSERT_EQ(m.nRow, n);
  ASSERT_EQ(m.nPayload, store_for_size(STORE_ENC_FOR, t, aPlain, n));
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
    wFile = STORE_FOR_WIDTH(le_get((const unsigned char *)m.aData + b * STORE_FOR_DIR_BYTES + 8, 8));
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

/* Writes a plain file of n 4-byte values a of type eType. */
static void for_test_plain_of(const char *zPath, coltype_id eType, const int32_t *a, uint64_t n) {
  store_file f;
  coltype t;
  char zErr[256];
  memset(&t, 0, sizeof(t));
  t.eId = eType;
  if (store_file_create(&f, zPath, STORE_VALUES, t, zErr, sizeof(zErr)) != 0 ||
      store_file_append(&f, a, n, zErr, sizeof(zErr)) != 0 ||
      store_file_seal(&f, n, n * 4, 0, zErr, sizeof(zErr)) != 0) {
    FAIL("%s", zErr);
  }
}

static void for_test_plain(const char *zPath, const int32_t *a, uint64_t n) {
  for_test_plain_of(zPath, COLTYPE_INTEGER, a, n);
}

TEST_IMPL(store_for_choice) {
  enum { N = 5000 };
  int32_t a[N];
  uint64_t seed = 99;
  char zErr[256];
  store_map m;
  store_enc eEnc;
  /* Full-range random values: packing saves nothing, the file stays plain. */
  for (int i = 0; i < N; i++) a[i] = (int32_t)(uint32_t)for_test_rand(&seed);
  for_test_plain("r.col", a, N);
  CALL_OK(store_for_compress("r.col", 0, &eEnc, zErr, sizeof(zErr)));
  ASSERT_EQ(eEnc, STORE_ENC_PLAIN);
  CALL_OK(store_map_open(&m, "r.col", STORE_VALUES, COLTYPE_INTEGER, zErr, sizeof(zErr)));
  ASSERT_EQ(m.eEnc, STORE_ENC_PLAIN);
  store_map_close(&m);
  /* Small values (lo_discount's 0..10): packed, and read back the same. */
  for (int i = 0; i < N; i++) a[i] = (int32_t)(for_test_rand(&seed) % 11);
  for_test_plain("d.col", a, N);
  CALL_OK(store_for_compress("d.col", 0, &eEnc, zErr, sizeof(zErr)));
  ASSERT_EQ(eEnc, STORE_ENC_FOR);
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
  if (store_for_write("c.col", STORE_ENC_FOR, COLTYPE_INTEGER, a, 300, 0, zErr, sizeof(zErr)) != 0) {
    FAIL("%s", zErr);
  }
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
  for_test_patch("c.col", 40, 7, 4);
  ASSERT_STR_EQ(for_test_map_err("c.col"), "c.col: unknown encoding 7 of a values file");
  /* Day slots on a column that is not a DATE. */
  for_test_good();
  for_test_patch("c.col", 40, STORE_ENC_FOR_DATE, 4);
  ASSERT_STR_EQ(for_test_map_err("c.col"),
                "c.col: INTEGER values cannot be stored as day slots (FOR-date)");

  /* A directory shorter than the rows need. */
  for_test_good();
  for_test_patch("c.col", 24, 100000, 8);
  ASSERT(strcmp(for_test_map_err("c.col"), "ok") != 0);
  return 0;
}

/* ---- runs and day slots (the second round) ----------------------------------- */

/* Days in month m of year y, by the Gregorian rule: the reference the
** day slots are checked against, written apart from colfor.c's. */
static int for_test_mdays(int y, int m) {
  static const int aDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int bLeap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return aDays[m - 1] + (m == 2 && bLeap);
}

/* Every date from y0-01-01 to y1-12-31 as yyyymmdd into a malloc'd array;
** *pn gets how many. */
static int32_t *for_test_calendar(int y0, int y1, uint64_t *pn) {
  uint64_t n = 0, nAlloc = (uint64_t)(y1 - y0 + 1) * 366;
  int32_t *a = malloc(sizeof(int32_t) * (size_t)nAlloc);
  ASSERT(a != NULL);
  for (int y = y0; y <= y1; y++) {
    for (int m = 1; m <= 12; m++) {
      for (int d = 1; d <= for_test_mdays(y, m); d++) a[n++] = y * 10000 + m * 100 + d;
    }
  }
  *pn = n;
  return a;
}

/* Writes the n DATE values a as eEnc, maps the file and checks every row
** and the decoded copy against a. Returns the payload bytes. */
static uint64_t for_test_date_roundtrip(store_enc eEnc, const int32_t *a, uint64_t n) {
  char zErr[256];
  store_map m;
  uint64_t nPayload;
  if (store_for_write("t.col", eEnc, COLTYPE_DATE, a, n, 0, zErr, sizeof(zErr)) != 0) {
    FAIL("write: %s", zErr);
  }
  CALL_OK(store_map_open(&m, "t.col", STORE_VALUES, COLTYPE_DATE, zErr, sizeof(zErr)));
  ASSERT_EQ(m.eEnc, eEnc);
  ASSERT_EQ(m.nPayload, store_for_size(eEnc, COLTYPE_DATE, a, n));
  for (uint64_t i = 0; i < n; i++) {
    if (store_for_get(&m, i) != a[i]) {
      FAIL("row %llu: %lld, expected %d", (unsigned long long)i, (long long)store_for_get(&m, i),
           a[i]);
    }
  }
  CALL_OK(store_map_decode(&m, zErr, sizeof(zErr)));
  ASSERT(memcmp(m.aData, a, (size_t)n * 4) == 0);
  nPayload = m.nPayload;
  store_map_close(&m);
  return nPayload;
}

/* Day slots round trip for every date of the type's range (0001-01-01 to
** 9999-12-31, so every leap day and month end), with NULLs (0) among
** them; SSB's seven years shuffled pack in 12 bits a row where yyyymmdd
** takes 16. */
TEST_IMPL(store_for_dates) {
  uint64_t n, nSsb, seed = 7;
  int32_t *a = for_test_calendar(1, 9999, &n), *b;
  static const int32_t aEdge[] = {19000101, 19000228, 19000301, 20000229, 19960229, 24000229,
                                  99991231, 10101, 0, 19981231, 19920101, 0};
  ASSERT_EQ(n, 3652059);                         /* the days of 0001..9999 */
  ASSERT_EQ(a[n - 1], 99991231);
  for (uint64_t i = 0; i < n; i += 997) a[i] = 0;  /* NULLs' zeros in some blocks */
  for_test_date_roundtrip(STORE_ENC_FOR_DATE, a, n);
  for_test_date_roundtrip(STORE_ENC_FOR_DATE, aEdge, sizeof(aEdge) / sizeof(aEdge[0]));
  ASSERT_EQ(store_for_day_ymd(0), 0);
  free(a);

  b = for_test_calendar(1992, 1998, &nSsb);
  ASSERT_EQ(nSsb, 2557);
  a = malloc(sizeof(int32_t) * 6000);
  ASSERT(a != NULL);
  for (int i = 0; i < 6000; i++) a[i] = b[for_test_rand(&seed) % nSsb];
  /* At most 12 bits a row (seven years are 2,604 slots), against at least
  ** 16 as yyyymmdd (19981231 - 19920101 = 61,130); 47 blocks. */
  ASSERT_LE(for_test_date_roundtrip(STORE_ENC_FOR_DATE, a, 6000), 47 * 16 + 47 * 128 * 12 / 8);
  ASSERT_GE(for_test_date_roundtrip(STORE_ENC_FOR, a, 6000), 47 * 16 + 46 * 128 * 16 / 8);
  free(a);
  free(b);
  return 0;
}

/* Compresses the plain DATE file of the n values a and checks the
** encoding chosen and the values read back. */
static void for_test_date_choice(const int32_t *a, uint64_t n, store_enc eWant) {
  char zErr[256];
  store_map m;
  store_enc e;
  for_test_plain_of("c.col", COLTYPE_DATE, a, n);
  CALL_OK(store_for_compress("c.col", 0, &e, zErr, sizeof(zErr)));
  ASSERT_EQ(e, eWant);
  CALL_OK(store_map_open(&m, "c.col", STORE_VALUES, COLTYPE_DATE, zErr, sizeof(zErr)));
  ASSERT_EQ(m.eEnc, eWant);
  for (uint64_t i = 0; i < n; i++) ASSERT_EQ(store_for_get(&m, i), a[i]);
  store_map_close(&m);
}

/* The writer takes day slots where they are smaller, FOR over yyyymmdd
** where they are not (dates of one month: the same bits either way), and
** never for a DATE column holding something that is not a date. */
TEST_IMPL(store_for_date_choice) {
  enum { N = 3000 };
  int32_t a[N];
  uint64_t nCal, seed = 11;
  int32_t *aCal = for_test_calendar(1992, 1998, &nCal);
  char zErr[256];
  /* SSB's order dates, with NULLs: day slots. */
  for (int i = 0; i < N; i++) a[i] = i % 50 == 3 ? 0 : aCal[for_test_rand(&seed) % nCal];
  for_test_date_choice(a, N, STORE_ENC_FOR_DATE);
  /* February 2020 only: slots save nothing, the file stays FOR. */
  for (int i = 0; i < N; i++) a[i] = 20200201 + (int32_t)(for_test_rand(&seed) % 29);
  for_test_date_choice(a, N, STORE_ENC_FOR);
  ASSERT_EQ(store_for_size(STORE_ENC_FOR_DATE, COLTYPE_DATE, a, N),
            store_for_size(STORE_ENC_FOR, COLTYPE_DATE, a, N));
  /* A month 13 (no loader writes one; the writer must not lose it). */
  for (int i = 0; i < N; i++) a[i] = aCal[for_test_rand(&seed) % nCal];
  a[1234] = 19921301;
  ASSERT_EQ(store_for_size(STORE_ENC_FOR_DATE, COLTYPE_DATE, a, N), UINT64_MAX);
  ASSERT_EQ(store_for_write("x.col", STORE_ENC_FOR_DATE, COLTYPE_DATE, a, N, 0, zErr, sizeof(zErr)),
            -1);
  ASSERT_STR_EQ(zErr, "x.col: row 1234 holds 19921301, neither a date (yyyymmdd) nor 0");
  ASSERT_EQ(access("x.col", F_OK), -1);
  for_test_date_choice(a, N, STORE_ENC_FOR);
  /* Day slots are for DATE columns only. */
  ASSERT_EQ(store_for_size(STORE_ENC_FOR_DATE, COLTYPE_INTEGER, a, N), UINT64_MAX);
  ASSERT_EQ(store_for_write("x.col", STORE_ENC_FOR_DATE, COLTYPE_INTEGER, a, N, 0, zErr,
                            sizeof(zErr)), -1);
  {
    char zWant[128];
    snprintf(zWant, sizeof(zWant), "x.col: values of type %d cannot be stored as FOR-date",
             (int)COLTYPE_INTEGER);
    ASSERT_STR_EQ(zErr, zWant);
  }
  ASSERT_EQ(access("x.col", F_OK), -1);
  /* Nor is plain an encoding store_for_write packs. */
  ASSERT_EQ(store_for_size(STORE_ENC_PLAIN, COLTYPE_INTEGER, a, N), UINT64_MAX);
  ASSERT_EQ(store_for_write("x.col", STORE_ENC_PLAIN, COLTYPE_INTEGER, a, N, 0, zErr,
                            sizeof(zErr)), -1);
  ASSERT_EQ(access("x.col", F_OK), -1);
  free(aCal);
  return 0;
}

/* Checks that the run-start bits of every block of runs of the mapped m
** are the rows where a[] (n values) changes, block by block. Returns the
** blocks of runs. */
static int for_test_run_bits(const store_map *m, const int64_t *a, uint64_t n) {
  const unsigned char *p = m->aData;
  int nRuns = 0;
  for (uint64_t b = 0; b * STORE_FOR_BLOCK < n; b++) {
    uint64_t x = le_get(p + b * STORE_FOR_DIR_BYTES + 8, 8);
    const unsigned char *aw = p + m->nForDir + (x & STORE_FOR_OFF_MASK) * 4;
    if ((x & STORE_FOR_RUNS) == 0) continue;
    nRuns++;
    for (uint64_t j = 0; j < STORE_FOR_BLOCK; j++) {
      uint64_t i = b * STORE_FOR_BLOCK + j;
      int bStart = i < n && (j == 0 || a[i] != a[i - 1]);
      ASSERT_EQ((int)((le_get(aw + j / 32 * 4, 4) >> (j % 32)) & 1), bStart);
    }
  }
  return nRuns;
}

/* Runs like a lineorder's order columns (1 to 7 equal rows, crossing
** block boundaries, a last partial block) at each width, BIGINT and
** SMALLINT too: blocks of runs where they are smaller, every row back,
** and strides over them (store_for_span) that end where the next block
** starts. */
TEST_IMPL(store_for_runs) {
  static const struct { coltype_id t; unsigned nByte; int64_t lo; uint64_t nRange; } aCase[] = {
    {COLTYPE_INTEGER, 4, 1, 30000}, {COLTYPE_BIGINT, 8, -5000000000ll, 1ull << 40},
    {COLTYPE_SMALLINT, 2, -32768, 65535}, {COLTYPE_INTEGER, 4, 7, 2},
  };
  enum { N = 128 * 40 + 77 };
  int64_t *a = malloc(sizeof(int64_t) * N);
  uint64_t seed = 5;
  char zErr[256];
  ASSERT(a != NULL);
  for (size_t c = 0; c < sizeof(aCase) / sizeof(aCase[0]); c++) {
    store_map m;
    uint64_t nEnd = 0;
    for (uint64_t i = 0; i < N;) {
      int64_t v = aCase[c].lo + (int64_t)(for_test_rand(&seed) % aCase[c].nRange);
      for (uint64_t k = 1 + for_test_rand(&seed) % 7; k > 0 && i < N; k--) a[i++] = v;
    }
    for_test_roundtrip(aCase[c].t, aCase[c].nByte, a, N);
    /* for_test_roundtrip wrote f.col from a. */
    CALL_OK(store_map_open(&m, "f.col", STORE_VALUES, aCase[c].t, zErr, sizeof(zErr)));
    if (aCase[c].nRange > 2) ASSERT_GT(for_test_run_bits(&m, a, N), 30);
    else ASSERT_EQ(for_test_run_bits(&m, a, N), 0);    /* 1-bit rows are smaller than runs */
    for (uint64_t i = 0; i < N; i += STORE_FOR_BLOCK * 3) {
      uint64_t iDir, nDir, iData, nData;
      store_for_span(m.aData, N, i, STORE_FOR_BLOCK * 3, &iDir, &nDir, &iData, &nData);
      ASSERT_EQ(iData, m.nForDir + nEnd);
      nEnd += nData;
    }
    ASSERT_EQ(m.nForDir + nEnd, m.nPayload);
    store_map_close(&m);
  }
  free(a);
  return 0;
}

/* A FOR file of 300 rows in runs of 4: 3 blocks of runs, the first two of
** 8-bit values (12 words each: 4 of run starts, 8 of 32 values), the last
** of 44 rows (11 runs of 6 bits: 7 words from word 24); or with nRow 257,
** whose last block is one row (width 0, no words). */
static void for_test_runs_file(uint64_t nRow) {
  int32_t a[300];
  char zErr[256];
  for (int i = 0; i < 300; i++) a[i] = i / 4 * 5 % 256;
  if (store_for_write("c.col", STORE_ENC_FOR, COLTYPE_INTEGER, a, nRow, 0, zErr,
                      sizeof(zErr)) != 0) {
    FAIL("%s", zErr);
  }
}

/* Blocks of runs whose bits are wrong: refused when mapped. */
TEST_IMPL(store_for_runs_corrupt) {
  enum { DIR = 64 + 3 * 16 };                    /* the words of 300 rows start here */
  for_test_runs_file(300);
  ASSERT_STR_EQ(for_test_map_err("c.col"), "ok");

  /* Row 0 of block 0 does not start a run. */
  for_test_patch("c.col", DIR, 0x11111110u, 4);
  ASSERT_STR_EQ(for_test_map_err("c.col"),
                "c.col: block 0 of runs does not start a run at its first row (corrupt "
                "FOR-bitpacked file)");

  /* A run starting past the 44 rows of the last block. */
  for_test_runs_file(300);
  for_test_patch("c.col", DIR + 24 * 4 + 4, 0x00040000u | 0x111u, 4);
  ASSERT_STR_EQ(for_test_map_err("c.col"),
                "c.col: block 2 of 44 rows starts a run at row 50 (corrupt FOR-bitpacked file)");

  /* One more run in block 0: its values reach into block 1's words. */
  for_test_runs_file(300);
  for_test_patch("c.col", DIR, 0x11111113u, 4);
  ASSERT_STR_EQ(for_test_map_err("c.col"),
                "c.col: block 1 starts at word 12, expected 13 (corrupt FOR-bitpacked file)");

  /* The runs flag on a last block that has no words for its run starts. */
  for_test_runs_file(257);
  for_test_patch("c.col", 64 + 2 * 16 + 8, STORE_FOR_RUNS | 24, 8);
  ASSERT_STR_EQ(for_test_map_err("c.col"),
                "c.col: block 2 of runs starts at word 24 of 24 (corrupt FOR-bitpacked file)");
  return 0;
}
