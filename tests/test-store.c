/*
** tests/test-store.c — column files and validity bitmaps (storage/colfile.c):
** every type through write_at/append/seal/map, the 64-byte payload
** alignment, and each way a file's header can be wrong.
*/
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include "../storage/store.h"
#include "test.h"

static coltype store_test_type(coltype_id e) {
  coltype t;
  memset(&t, 0, sizeof(t));
  t.eId = e;
  if (e == COLTYPE_DECIMAL) {
    t.nPrecision = 15;
    t.nScale = 2;
  } else if (e == COLTYPE_CHAR || e == COLTYPE_VARCHAR) {
    t.nLength = 10;
  }
  return t;
}

/* Fills a with n values of width w whose bytes depend on the row, so a
** row written to the wrong place shows. */
static void store_test_fill(unsigned char *a, uint64_t n, int w, unsigned seed) {
  for (uint64_t i = 0; i < n; i++) {
    uint64_t v = (i + seed) * 0x9e3779b97f4a7c15ull;
    memcpy(a + i * (uint64_t)w, &v, (size_t)w);
  }
}

/* Writes zPath as a VALUES file of type t holding a[0..n), by append in
** uneven pieces (bAppend) or by write_at in chunks from last to first, and
** seals it. */
static void store_test_write(const char *zPath, coltype t, const unsigned char *a,
                             uint64_t n, int bAppend) {
  store_file f;
  char zErr[256];
  int w = coltype_width(t);
  if (store_file_create(&f, zPath, STORE_VALUES, t, zErr, sizeof(zErr)) != 0) {
    FAIL("%s", zErr);
  }
  if (bAppend) {
    /* Append in uneven pieces: 1 row, then 7, then the rest. */
    uint64_t i = 0, aStep[2] = {1, 7};
    for (int k = 0; i < n; k++) {
      uint64_t m = k < 2 ? aStep[k] : n - i;
      if (m > n - i) m = n - i;
      ASSERT_EQ(store_file_append(&f, a + i * (uint64_t)w, m, zErr, sizeof(zErr)), 0);
      i += m;
      ASSERT_EQ(f.nAppended, i);
    }
  } else {
    /* Chunks of 1000 rows written last to first. */
    uint64_t nChunk = (n + 999) / 1000;
    for (uint64_t k = nChunk; k-- > 0;) {
      uint64_t i = k * 1000, m = n - i < 1000 ? n - i : 1000;
      ASSERT_EQ(store_file_write_at(&f, i, a + i * (uint64_t)w, m, zErr, sizeof(zErr)), 0);
    }
  }
  if (store_file_seal(&f, n, n * (uint64_t)w, 1, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(f.fd, -1);
  ASSERT(f.zPath == NULL);
}

TEST_IMPL(store_roundtrip) {
  static const coltype_id aType[] = {COLTYPE_SMALLINT, COLTYPE_INTEGER, COLTYPE_BIGINT,
                                     COLTYPE_DOUBLE, COLTYPE_DECIMAL, COLTYPE_DATE,
                                     COLTYPE_CHAR, COLTYPE_VARCHAR, COLTYPE_TEXT};
  static const uint64_t anRow[] = {0, 1, 63, 1000, 1001, 600000};
  char zErr[256];

  for (size_t it = 0; it < sizeof(aType) / sizeof(aType[0]); it++) {
    coltype t = store_test_type(aType[it]);
    int w = coltype_width(t);
    for (size_t ir = 0; ir < sizeof(anRow) / sizeof(anRow[0]); ir++) {
      for (int bAppend = 0; bAppend < 2; bAppend++) {
        uint64_t n = anRow[ir];
        unsigned char *a = malloc(n * (uint64_t)w + 1);
        store_map m;
        char zPath[64];
        size_t nFile;
        char *zFile;

        ASSERT(a != NULL);
        snprintf(zPath, sizeof(zPath), "t%d-%d-%d.col", (int)aType[it], (int)n, bAppend);
        store_test_fill(a, n, w, (unsigned)it);
        store_test_write(zPath, t, a, n, bAppend);

        zFile = test_file_read(zPath, &nFile);
        ASSERT_EQ(nFile, STORE_HEADER_SIZE + n * (uint64_t)w);
        ASSERT(memcmp(zFile, "STARQCOL", 8) == 0);
        ASSERT_EQ((unsigned char)zFile[8], STORE_VERSION);
        ASSERT_EQ((unsigned char)zFile[12], STORE_VALUES);
        ASSERT_EQ((unsigned char)zFile[16], aType[it]);
        ASSERT_EQ((unsigned char)zFile[20], w);
        free(zFile);

        if (store_map_open(&m, zPath, STORE_VALUES, aType[it], zErr, sizeof(zErr)) != 0) {
          FAIL("%s", zErr);
        }
        ASSERT_EQ(m.nRow, n);
        ASSERT_EQ(m.nPayload, n * (uint64_t)w);
        ASSERT_EQ(m.nWidth, w);
        ASSERT_EQ(m.eType, aType[it]);
        ASSERT_EQ(m.eKind, STORE_VALUES);
        ASSERT_EQ(m.nMap, STORE_HEADER_SIZE + n * (uint64_t)w);
        ASSERT_EQ((uintptr_t)m.aData % 64, 0);
        ASSERT((const char *)m.aData == (const char *)m.pMap + STORE_HEADER_SIZE);
        ASSERT(n == 0 || memcmp(m.aData, a, n * (uint64_t)w) == 0);
        store_map_close(&m);
        ASSERT(m.pMap == NULL);

        /* Type 0 accepts any type. */
        ASSERT_EQ(store_map_open(&m, zPath, STORE_VALUES, 0, zErr, sizeof(zErr)), 0);
        ASSERT_EQ(m.eType, aType[it]);
        store_map_close(&m);
        free(a);
      }
    }
  }
  return 0;
}

/* ---- write_at from several threads ---------------------------------------- */

typedef struct store_test_writer store_test_writer;
struct store_test_writer {
  store_file *f;
  const int64_t *a;
  uint64_t n;
  int iThread, nThread;
  int rc;
};

static void *store_test_writer_main(void *pArg) {
  store_test_writer *w = pArg;
  char zErr[256];
  /* Rows interleave between threads in chunks of 4096. */
  for (uint64_t i = (uint64_t)w->iThread * 4096; i < w->n; i += (uint64_t)w->nThread * 4096) {
    uint64_t m = w->n - i < 4096 ? w->n - i : 4096;
    if (store_file_write_at(w->f, i, w->a + i, m, zErr, sizeof(zErr)) != 0) w->rc = -1;
  }
  return NULL;
}

TEST_IMPL(store_write_threads) {
  enum { N_THREAD = 4 };
  const uint64_t n = 1000003;
  int64_t *a = malloc(n * 8);
  store_test_writer aw[N_THREAD];
  pthread_t at[N_THREAD];
  store_file f;
  store_map m;
  char zErr[256];

  ASSERT(a != NULL);
  for (uint64_t i = 0; i < n; i++) a[i] = (int64_t)(i * 7919) - 500000;
  ASSERT_EQ(store_file_create(&f, "big.col", STORE_VALUES, store_test_type(COLTYPE_BIGINT),
                              zErr, sizeof(zErr)), 0);
  for (int i = 0; i < N_THREAD; i++) {
    aw[i] = (store_test_writer){&f, a, n, i, N_THREAD, 0};
    ASSERT_EQ(pthread_create(&at[i], NULL, store_test_writer_main, &aw[i]), 0);
  }
  for (int i = 0; i < N_THREAD; i++) {
    ASSERT_EQ(pthread_join(at[i], NULL), 0);
    ASSERT_EQ(aw[i].rc, 0);
  }
  ASSERT_EQ(store_file_seal(&f, n, n * 8, 0, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(store_map_open(&m, "big.col", STORE_VALUES, COLTYPE_BIGINT, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(m.nRow, n);
  ASSERT(memcmp(m.aData, a, n * 8) == 0);
  store_map_close(&m);
  free(a);
  return 0;
}

/* ---- validity bitmaps ------------------------------------------------------ */

TEST_IMPL(store_validity) {
  static const uint64_t anBit[] = {0, 1, 63, 64, 65, 1000, 100000};
  char zErr[256];

  for (size_t k = 0; k < sizeof(anBit) / sizeof(anBit[0]); k++) {
    uint64_t nBit = anBit[k], nWord = (nBit + 63) / 64;
    uint64_t *a = calloc(nWord + 1, 8);
    coltype tIgnored = store_test_type(COLTYPE_DOUBLE);
    store_file f;
    store_map m;

    ASSERT(a != NULL);
    /* Every third row NULL. */
    for (uint64_t i = 0; i < nBit; i++) {
      if (i % 3 != 0) a[i / 64] |= 1ull << (i % 64);
    }
    ASSERT_EQ(store_file_create(&f, "v.null", STORE_VALIDITY, tIgnored, zErr, sizeof(zErr)), 0);
    if (nWord > 1) {
      ASSERT_EQ(store_file_write_at(&f, 1, a + 1, nWord - 1, zErr, sizeof(zErr)), 0);
      ASSERT_EQ(store_file_write_at(&f, 0, a, 1, zErr, sizeof(zErr)), 0);
    } else {
      ASSERT_EQ(store_file_append(&f, a, nWord, zErr, sizeof(zErr)), 0);
    }
    ASSERT_EQ(store_file_seal(&f, nBit, nWord * 8, 0, zErr, sizeof(zErr)), 0);

    if (store_map_open(&m, "v.null", STORE_VALIDITY, 0, zErr, sizeof(zErr)) != 0) {
      FAIL("%s", zErr);
    }
    ASSERT_EQ(m.nRow, nBit);
    ASSERT_EQ(m.nPayload, nWord * 8);
    ASSERT_EQ(m.eType, 0);
    ASSERT_EQ(m.nWidth, 0);
    ASSERT_EQ((uintptr_t)m.aData % 64, 0);
    for (uint64_t i = 0; i < nBit; i++) {
      const uint64_t *aw = m.aData;
      ASSERT_EQ((aw[i / 64] >> (i % 64)) & 1, i % 3 != 0);
    }
    store_map_close(&m);

    /* A values map of it is refused by kind. */
    ASSERT_EQ(store_map_open(&m, "v.null", STORE_VALUES, 0, zErr, sizeof(zErr)), -1);
    ASSERT_STR_EQ(zErr, "v.null: is a validity file, expected a values file");
    free(a);
  }
  return 0;
}

/* ---- sealing and aborting ---------------------------------------------------- */

TEST_IMPL(store_seal_abort) {
  char zErr[256];
  store_file f;
  int32_t a[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  store_map m;

  /* Abort removes the file, whatever was written. */
  ASSERT_EQ(store_file_create(&f, "a.col", STORE_VALUES, store_test_type(COLTYPE_INTEGER),
                              zErr, sizeof(zErr)), 0);
  ASSERT(test_file_exists("a.col"));
  ASSERT_EQ(store_file_append(&f, a, 10, zErr, sizeof(zErr)), 0);
  store_file_abort(&f);
  ASSERT(!test_file_exists("a.col"));
  ASSERT_EQ(f.fd, -1);
  ASSERT(f.zPath == NULL);
  store_file_abort(&f);                  /* twice is harmless */

  /* A seal whose rows and payload disagree fails and leaves an unmappable
  ** file for the caller to remove; abort afterwards is a no-op. */
  ASSERT_EQ(store_file_create(&f, "b.col", STORE_VALUES, store_test_type(COLTYPE_INTEGER),
                              zErr, sizeof(zErr)), 0);
  ASSERT_EQ(store_file_append(&f, a, 10, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(store_file_seal(&f, 10, 41, 0, zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "seal b.col: 10 values rows cannot take 41 payload bytes");
  ASSERT_EQ(f.fd, -1);
  store_file_abort(&f);
  ASSERT(test_file_exists("b.col"));
  ASSERT_EQ(store_map_open(&m, "b.col", STORE_VALUES, 0, zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "b.col: not a starq column file");

  /* Sealing fewer rows than were written truncates to the sealed ones;
  ** sealing more extends with zeros. */
  ASSERT_EQ(store_file_create(&f, "c.col", STORE_VALUES, store_test_type(COLTYPE_INTEGER),
                              zErr, sizeof(zErr)), 0);
  ASSERT_EQ(store_file_append(&f, a, 10, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(store_file_seal(&f, 4, 16, 0, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(store_map_open(&m, "c.col", STORE_VALUES, COLTYPE_INTEGER, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(m.nRow, 4);
  ASSERT_EQ(((const int32_t *)m.aData)[3], 4);
  store_map_close(&m);

  ASSERT_EQ(store_file_create(&f, "d.col", STORE_VALUES, store_test_type(COLTYPE_INTEGER),
                              zErr, sizeof(zErr)), 0);
  ASSERT_EQ(store_file_append(&f, a, 2, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(store_file_seal(&f, 5, 20, 0, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(store_map_open(&m, "d.col", STORE_VALUES, COLTYPE_INTEGER, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(((const int32_t *)m.aData)[1], 2);
  ASSERT_EQ(((const int32_t *)m.aData)[4], 0);
  store_map_close(&m);

  /* Create errors name the call and the file. */
  ASSERT_EQ(store_file_create(&f, "no/such/dir/x.col", STORE_VALUES,
                              store_test_type(COLTYPE_INTEGER), zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "open no/such/dir/x.col: No such file or directory");
  ASSERT_EQ(store_file_create(&f, "e.col", STORE_VALUES, store_test_type((coltype_id)99),
                              zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "create e.col: unknown column type 99");
  ASSERT(!test_file_exists("e.col"));
  ASSERT_EQ(store_file_create(&f, "e.col", (store_kind)7, store_test_type(COLTYPE_INTEGER),
                              zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "create e.col: unknown file kind 7");
  return 0;
}

/* ---- header validation ------------------------------------------------------ */

/* Writes a fresh INTEGER file of 100 rows at zPath. */
static void store_test_good(const char *zPath) {
  int32_t a[100];
  for (int i = 0; i < 100; i++) a[i] = i * 3;
  store_test_write(zPath, store_test_type(COLTYPE_INTEGER), (const unsigned char *)a, 100, 1);
}

/* Overwrites n bytes of zPath at iOff. */
static void store_test_patch(const char *zPath, long iOff, const void *p, size_t n) {
  int fd = open(zPath, O_WRONLY);
  ASSERT(fd >= 0);
  ASSERT_EQ(pwrite(fd, p, n, iOff), (ssize_t)n);
  ASSERT_EQ(close(fd), 0);
}

static void store_test_patch32(const char *zPath, long iOff, uint32_t v) {
  unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                        (unsigned char)(v >> 24)};
  store_test_patch(zPath, iOff, b, 4);
}

/* Maps zPath as an INTEGER values file and returns the error, or "ok". */
static const char *store_test_map_err(const char *zPath, store_kind eKind, coltype_id eType) {
  static char zErr[256];
  store_map m;
  if (store_map_open(&m, zPath, eKind, eType, zErr, sizeof(zErr)) == 0) {
    store_map_close(&m);
    return "ok";
  }
  ASSERT(m.pMap == NULL);
  return zErr;
}

TEST_IMPL(store_header_errors) {
  int fd;

  store_test_good("f.col");
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, COLTYPE_INTEGER), "ok");

  ASSERT_STR_EQ(store_test_map_err("none.col", STORE_VALUES, COLTYPE_INTEGER),
                "open none.col: No such file or directory");
  ASSERT_STR_EQ(store_test_map_err(".", STORE_VALUES, COLTYPE_INTEGER),
                ".: not a regular file");

  store_test_patch("f.col", 3, "X", 1);
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, COLTYPE_INTEGER),
                "f.col: not a starq column file");

  store_test_good("f.col");
  store_test_patch32("f.col", 8, STORE_VERSION + 1);
  {
    char zWant[128];
    snprintf(zWant, sizeof(zWant), "f.col: format version %d, this build reads versions 1 to %d",
             STORE_VERSION + 1, STORE_VERSION);
    ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, COLTYPE_INTEGER), zWant);
  }
  /* Version 2 files (FOR without runs or day slots) are still read. */
  store_test_good("f.col");
  store_test_patch32("f.col", 8, 2);
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, COLTYPE_INTEGER), "ok");

  /* Version 1 files (no encoding word) are still read, as plain. */
  store_test_good("f.col");
  store_test_patch32("f.col", 8, 1);
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, COLTYPE_INTEGER), "ok");

  store_test_good("f.col");
  store_test_patch32("f.col", 40, 7);
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, COLTYPE_INTEGER),
                "f.col: unknown encoding 7 of a values file");

  store_test_good("f.col");
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_DICT, 0),
                "f.col: is a values file, expected a dictionary file");
  store_test_patch32("f.col", 12, 9);
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, COLTYPE_INTEGER),
                "f.col: unknown file kind 9, expected a values file");

  store_test_good("f.col");
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, COLTYPE_DATE),
                "f.col: holds INTEGER values, expected DATE");
  store_test_patch32("f.col", 16, 42);
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, 0),
                "f.col: unknown column type 42");
  store_test_patch32("f.col", 16, COLTYPE_BIGINT);
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, 0),
                "f.col: BIGINT values are 8 bytes wide, the header says 4");

  store_test_good("f.col");
  store_test_patch("f.col", 50, "\1", 1);
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, COLTYPE_INTEGER),
                "f.col: header byte 50 is not zero");

  store_test_good("f.col");
  store_test_patch32("f.col", 32, 401);
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, COLTYPE_INTEGER),
                "f.col: holds 100 rows but its header gives 401 payload bytes");

  /* Extra bytes, then a truncated payload, then a truncated header. */
  store_test_good("f.col");
  store_test_patch("f.col", 464, "junk", 4);
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, COLTYPE_INTEGER),
                "f.col: holds 100 rows but is 468 bytes long (expected 464)");
  ASSERT_EQ(truncate("f.col", 460), 0);
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, COLTYPE_INTEGER),
                "f.col: holds 100 rows but is 460 bytes long (expected 464)");
  ASSERT_EQ(truncate("f.col", 63), 0);
  ASSERT_STR_EQ(store_test_map_err("f.col", STORE_VALUES, COLTYPE_INTEGER),
                "f.col: is 63 bytes long, shorter than the 64-byte header "
                "(truncated, or not a starq column file)");
  fd = open("empty.col", O_WRONLY | O_CREAT, 0644);
  ASSERT(fd >= 0);
  close(fd);
  ASSERT_STR_EQ(store_test_map_err("empty.col", STORE_VALUES, COLTYPE_INTEGER),
                "empty.col: is 0 bytes long, shorter than the 64-byte header "
                "(truncated, or not a starq column file)");

  /* A validity file must say type 0 and width 0. */
  {
    store_file f;
    char zErr[256];
    uint64_t w = 5;
    ASSERT_EQ(store_file_create(&f, "v.null", STORE_VALIDITY, store_test_type(COLTYPE_INTEGER),
                                zErr, sizeof(zErr)), 0);
    ASSERT_EQ(store_file_append(&f, &w, 1, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(store_file_seal(&f, 3, 8, 0, zErr, sizeof(zErr)), 0);
    ASSERT_STR_EQ(store_test_map_err("v.null", STORE_VALIDITY, 0), "ok");
    store_test_patch32("v.null", 16, COLTYPE_INTEGER);
    ASSERT_STR_EQ(store_test_map_err("v.null", STORE_VALIDITY, 0),
                  "v.null: a validity file with type 2 and width 0 (both must be 0)");
    store_test_patch32("v.null", 16, 0);
    store_test_patch32("v.null", 24, 65);
    ASSERT_STR_EQ(store_test_map_err("v.null", STORE_VALIDITY, 0),
                  "v.null: holds 65 rows but its header gives 8 payload bytes");
  }
  return 0;
}
