/*
** tests/test-store-dict.c — sorted dictionaries (storage/dict.c) and the
** string set that builds them (storage/strset.c): lookups, the byte order,
** the checks on input and on mapped files, interning, growth and the sort
** remap.
*/
#include <fcntl.h>
#include <unistd.h>

#include "../storage/store.h"
#include "test.h"

/* Writes a dictionary of the NUL-terminated strings az[0..n). */
static int dict_test_write(const char *zPath, const char *const *az, uint64_t n,
                           char *zErr, size_t nErr) {
  uint32_t anLen[64];
  ASSERT(n <= 64);
  for (uint64_t i = 0; i < n; i++) anLen[i] = (uint32_t)strlen(az[i]);
  return store_dict_write(zPath, n, az, anLen, 0, zErr, nErr);
}

static int64_t dict_test_find(const store_dict *d, const char *z) {
  return store_dict_find(d, z, strlen(z));
}

static uint64_t dict_test_lb(const store_dict *d, const char *z) {
  return store_dict_lower_bound(d, z, strlen(z));
}

TEST_IMPL(store_dict) {
  /* Sorted in memcmp order: the empty string first, a prefix before its
  ** extensions, upper case before lower, bytes >= 0x80 after ASCII. */
  static const char *const az[] = {"", "A", "AB", "ABC", "ABD", "B", "a", "ab",
                                   "~", "\x80", "\xc3\xa9", "\xff", "\xff\xff"};
  const uint64_t n = sizeof(az) / sizeof(az[0]);
  char zErr[256];
  store_dict d;

  if (dict_test_write("d.dict", az, n, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  if (store_dict_open(&d, "d.dict", zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(d.n, n);
  ASSERT_EQ(d.m.eKind, STORE_DICT);
  ASSERT_EQ((uintptr_t)d.aOff % 64, 0);
  for (uint64_t i = 0; i < n; i++) {
    size_t nStr;
    const char *z = store_dict_str(&d, i, &nStr);
    ASSERT_EQ(nStr, strlen(az[i]));
    ASSERT(memcmp(z, az[i], nStr) == 0);
    ASSERT_EQ(dict_test_find(&d, az[i]), (int64_t)i);
    ASSERT_EQ(dict_test_lb(&d, az[i]), i);
  }
  /* Strings that are not there: find says -1, lower_bound the next code. */
  ASSERT_EQ(dict_test_find(&d, "AA"), -1);
  ASSERT_EQ(dict_test_lb(&d, "AA"), 2);         /* "A" < "AA" < "AB" */
  ASSERT_EQ(dict_test_lb(&d, "ABCD"), 4);       /* past "ABC", before "ABD" */
  ASSERT_EQ(dict_test_find(&d, "ABCD"), -1);
  ASSERT_EQ(dict_test_lb(&d, "Z"), 6);          /* between "B" and "a" */
  ASSERT_EQ(dict_test_lb(&d, "b"), 8);          /* after "ab", before "~" */
  ASSERT_EQ(dict_test_lb(&d, "\x7f"), 9);       /* after "~", before "\x80" */
  ASSERT_EQ(dict_test_lb(&d, "\xc3"), 10);      /* a prefix of "\xc3\xa9" */
  ASSERT_EQ(dict_test_lb(&d, "\xff\xff\xff"), n);
  ASSERT_EQ(dict_test_find(&d, "\xff\xff\xff"), -1);
  /* A string with an embedded NUL is just bytes. */
  ASSERT_EQ(store_dict_find(&d, "A\0", 2), -1);
  ASSERT_EQ(store_dict_lower_bound(&d, "A\0", 2), 2);
  store_dict_close(&d);
  ASSERT(d.m.pMap == NULL);

  /* The empty dictionary. */
  if (dict_test_write("e.dict", az, 0, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  if (store_dict_open(&d, "e.dict", zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(d.n, 0);
  ASSERT_EQ(d.m.nPayload, 8);
  ASSERT_EQ(dict_test_find(&d, ""), -1);
  ASSERT_EQ(dict_test_lb(&d, ""), 0);
  ASSERT_EQ(dict_test_lb(&d, "x"), 0);
  store_dict_close(&d);

  /* A dictionary of just the empty string. */
  if (dict_test_write("one.dict", az, 1, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  if (store_dict_open(&d, "one.dict", zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(d.n, 1);
  ASSERT_EQ(dict_test_find(&d, ""), 0);
  ASSERT_EQ(dict_test_lb(&d, "a"), 1);
  store_dict_close(&d);
  return 0;
}

/* Overwrites n bytes of zPath at iOff. */
static void dict_test_patch(const char *zPath, long iOff, const void *p, size_t n) {
  int fd = open(zPath, O_WRONLY);
  ASSERT(fd >= 0);
  ASSERT_EQ(pwrite(fd, p, n, iOff), (ssize_t)n);
  ASSERT_EQ(close(fd), 0);
}

TEST_IMPL(store_dict_bad) {
  static const char *const azDup[] = {"a", "b", "b", "c"};
  static const char *const azUnsorted[] = {"a", "c", "b"};
  static const char *const azPrefix[] = {"ab", "a"};
  static const char *const azHigh[] = {"\x80", "z"};
  static const char *const azGood[] = {"apple", "berry", "cherry"};
  char zErr[256];
  store_dict d;
  uint64_t v;

  ASSERT_EQ(dict_test_write("x.dict", azDup, 4, zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "write x.dict: dictionary string 2 repeats string 1 "
                "(the strings must be sorted and distinct)");
  ASSERT(!test_file_exists("x.dict"));
  ASSERT_EQ(dict_test_write("x.dict", azUnsorted, 3, zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "write x.dict: dictionary string 2 sorts before string 1 "
                "(the strings must be sorted and distinct)");
  ASSERT(!test_file_exists("x.dict"));
  ASSERT_EQ(dict_test_write("x.dict", azPrefix, 2, zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "write x.dict: dictionary string 1 sorts before string 0 "
                "(the strings must be sorted and distinct)");
  /* A signed-char comparison would put 0x80 first; memcmp order does not. */
  ASSERT_EQ(dict_test_write("x.dict", azHigh, 2, zErr, sizeof(zErr)), -1);
  ASSERT(!test_file_exists("x.dict"));
  ASSERT_EQ(dict_test_write("x.dict", azGood, 3, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(dict_test_write("no/dir/x.dict", azGood, 3, zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "open no/dir/x.dict: No such file or directory");

  /* Hand-corrupted files. Layout: header (64), 4 offsets (32), then
  ** "appleberrycherry" at byte 96. Swap the first letters of "apple" and
  ** "berry": the strings are then out of order. */
  if (dict_test_write("c.dict", azGood, 3, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(store_dict_open(&d, "c.dict", zErr, sizeof(zErr)), 0);
  store_dict_close(&d);
  dict_test_patch("c.dict", 96, "b", 1);
  dict_test_patch("c.dict", 101, "a", 1);
  ASSERT_EQ(store_dict_open(&d, "c.dict", zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "c.dict: string 1 does not sort after string 0 "
                "(the dictionary must be sorted and distinct)");
  ASSERT(d.m.pMap == NULL);

  /* A duplicate: "a", "b", "c" with the "c" overwritten by "b". */
  {
    static const char *const azAbc[] = {"a", "b", "c"};
    if (dict_test_write("abc.dict", azAbc, 3, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
    dict_test_patch("abc.dict", 98, "b", 1);
    ASSERT_EQ(store_dict_open(&d, "abc.dict", zErr, sizeof(zErr)), -1);
    ASSERT_STR_EQ(zErr, "abc.dict: string 2 does not sort after string 1 "
                  "(the dictionary must be sorted and distinct)");
  }

  /* Offsets (at 64: 0, 5, 10, 16) out of order, past the text, not
  ** starting at 0, not ending at the text's end. */
  if (dict_test_write("c.dict", azGood, 3, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  v = 4;
  dict_test_patch("c.dict", 80, &v, 8);
  ASSERT_EQ(store_dict_open(&d, "c.dict", zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "c.dict: offset 2 (4) is out of order or past the 16 bytes of text");
  v = 17;
  dict_test_patch("c.dict", 80, &v, 8);
  ASSERT_EQ(store_dict_open(&d, "c.dict", zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "c.dict: offset 2 (17) is out of order or past the 16 bytes of text");
  v = 10;
  dict_test_patch("c.dict", 80, &v, 8);
  ASSERT_EQ(store_dict_open(&d, "c.dict", zErr, sizeof(zErr)), 0);   /* repaired */
  store_dict_close(&d);
  v = 15;
  dict_test_patch("c.dict", 88, &v, 8);
  ASSERT_EQ(store_dict_open(&d, "c.dict", zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "c.dict: the strings end at byte 15 of 16 bytes of text");
  v = 1;
  dict_test_patch("c.dict", 64, &v, 8);
  ASSERT_EQ(store_dict_open(&d, "c.dict", zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "c.dict: the first offset is 1, not 0");

  /* Too few payload bytes for the offsets the header promises. */
  if (dict_test_write("c.dict", azGood, 3, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  v = 20;
  dict_test_patch("c.dict", 24, &v, 8);
  ASSERT_EQ(store_dict_open(&d, "c.dict", zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "c.dict: holds 20 rows but its header gives 48 payload bytes");

  /* A values file is not a dictionary; a missing file says so. */
  {
    store_file f;
    coltype t = {COLTYPE_INTEGER, 0, 0, 0};
    ASSERT_EQ(store_file_create(&f, "v.col", STORE_VALUES, t, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(store_file_seal(&f, 0, 0, 0, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(store_dict_open(&d, "v.col", zErr, sizeof(zErr)), -1);
    ASSERT_STR_EQ(zErr, "v.col: is a values file, expected a dictionary file");
  }
  ASSERT_EQ(store_dict_open(&d, "none.dict", zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "open none.dict: No such file or directory");
  return 0;
}

/* Shared dictionaries (storage/dictcache.c): one mapping per file for
** the whole process, found again while the path names the same file; a
** file put in its place is another dictionary, and a reference to the
** old one still reads the old strings. */
TEST_IMPL(store_dict_shared) {
  static const char *const azOld[] = {"apple", "berry", "cherry"};
  static const char *const azNew[] = {"kiwi", "lemon", "mango", "melon"};
  const store_dict *pA, *pB, *pC;
  store_dict_ref *rA, *rB, *rC;
  char zErr[256];
  size_t n;
  if (dict_test_write("s.dict", azOld, 3, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(store_dict_share("s.dict", &pA, &rA, zErr, sizeof(zErr)), 0);
  ASSERT_EQ(store_dict_share("s.dict", &pB, &rB, zErr, sizeof(zErr)), 0);
  ASSERT(pA == pB && rA == rB);               /* one mapping, two references */
  ASSERT_EQ(pA->n, 3);
  ASSERT_EQ(memcmp(store_dict_str(pA, 1, &n), "berry", 5), 0);
  store_dict_unshare(rB);

  /* Another file in its place (a new inode, as a load or a regenerated
  ** data directory makes): the next share maps it; the held one stays. */
  if (dict_test_write("s2.dict", azNew, 4, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(rename("s2.dict", "s.dict"), 0);
  ASSERT_EQ(store_dict_share("s.dict", &pC, &rC, zErr, sizeof(zErr)), 0);
  ASSERT(pC != pA);
  ASSERT_EQ(pC->n, 4);
  ASSERT_EQ(memcmp(store_dict_str(pC, 2, &n), "mango", 5), 0);
  ASSERT_EQ(pA->n, 3);
  ASSERT_EQ(memcmp(store_dict_str(pA, 2, &n), "cherry", 6), 0);
  store_dict_unshare(rA);
  store_dict_unshare(rC);

  /* Let go of, it stays open for the next query. */
  ASSERT_EQ(store_dict_share("s.dict", &pB, &rB, zErr, sizeof(zErr)), 0);
  ASSERT(pB == pC);
  store_dict_unshare(rB);

  /* Errors are store_dict_open's. */
  ASSERT_EQ(store_dict_share("none.dict", &pB, &rB, zErr, sizeof(zErr)), -1);
  ASSERT_STR_EQ(zErr, "open none.dict: No such file or directory");
  ASSERT(pB == NULL && rB == NULL);
  store_dict_unshare(NULL);
  return 0;
}

/* ---- string sets ------------------------------------------------------------ */

TEST_IMPL(store_strset_dedup) {
  store_strset s;
  uint32_t c;
  size_t n;
  const char *z;

  store_strset_init(&s);
  ASSERT_EQ(s.n, 0);
  ASSERT_EQ(store_strset_add(&s, "beta", 4, &c), 0);
  ASSERT_EQ(c, 0);
  ASSERT_EQ(store_strset_add(&s, "alpha", 5, &c), 0);
  ASSERT_EQ(c, 1);
  ASSERT_EQ(store_strset_add(&s, "", 0, &c), 0);
  ASSERT_EQ(c, 2);
  ASSERT_EQ(store_strset_add(&s, "beta", 4, &c), 0);
  ASSERT_EQ(c, 0);
  ASSERT_EQ(store_strset_add(&s, "bet", 3, &c), 0);      /* a prefix is another string */
  ASSERT_EQ(c, 3);
  ASSERT_EQ(store_strset_add(&s, "beta\0", 5, &c), 0);   /* so is an extension by NUL */
  ASSERT_EQ(c, 4);
  ASSERT_EQ(store_strset_add(&s, NULL, 0, &c), 0);
  ASSERT_EQ(c, 2);                                        /* the empty string again */
  ASSERT_EQ(s.n, 5);
  z = store_strset_str(&s, 1, &n);
  ASSERT_EQ(n, 5);
  ASSERT(memcmp(z, "alpha", 5) == 0);
  z = store_strset_str(&s, 4, &n);
  ASSERT_EQ(n, 5);
  ASSERT(memcmp(z, "beta\0", 5) == 0);

  /* Cleared, the set starts over at code 0 with the same memory. */
  store_strset_clear(&s);
  ASSERT_EQ(s.n, 0);
  ASSERT_EQ(store_strset_add(&s, "alpha", 5, &c), 0);
  ASSERT_EQ(c, 0);
  ASSERT_EQ(store_strset_add(&s, "beta", 4, &c), 0);
  ASSERT_EQ(c, 1);
  ASSERT_EQ(s.n, 2);
  store_strset_free(&s);
  ASSERT(s.aSlot == NULL);

  /* An empty set sorts and writes an empty dictionary. */
  {
    char zErr[256];
    uint32_t *aRemap;
    store_dict d;
    store_strset_init(&s);
    aRemap = store_strset_sort(&s);
    ASSERT(aRemap != NULL);
    ASSERT_EQ(store_strset_write(&s, aRemap, "e.dict", 0, zErr, sizeof(zErr)), 0);
    ASSERT_EQ(store_dict_open(&d, "e.dict", zErr, sizeof(zErr)), 0);
    ASSERT_EQ(d.n, 0);
    store_dict_close(&d);
    free(aRemap);
    store_strset_free(&s);
  }
  return 0;
}

/* String i of the growth and sort tests: a mix of lengths 0..40, shared
** 8-byte prefixes (so the sort's prefix keys tie) and high bytes. */
static size_t strset_test_str(uint64_t i, char *z) {
  uint64_t x = i * 0x9e3779b97f4a7c15ull;
  size_t n = 0;
  switch (i % 4) {
    case 0: n = (size_t)snprintf(z, 64, "%" PRIu64, i); break;
    case 1: n = (size_t)snprintf(z, 64, "customer#%09" PRIu64, i); break;
    case 2: n = (size_t)snprintf(z, 64, "\xc3\xa9t\xc3\xa9%" PRIu64 "x", i); break;
    case 3:
      n = (size_t)(x >> 59);                             /* 0..31 random bytes */
      for (size_t k = 0; k < n; k++) z[k] = (char)(x >> (8 * (k % 8)) ^ (uint64_t)k * 31);
      break;
  }
  return n;
}

/* The string the growth test adds at step i: every fifth step repeats an
** earlier step's string, the others are string i. */
static uint64_t strset_test_pick(uint64_t i) {
  uint64_t k;
  if (i % 5 != 4) return i;
  k = ((i * 0x9e3779b97f4a7c15ull) >> 20) % i;
  return k % 5 == 4 ? k - 1 : k;         /* a step that added its own string */
}

/* The order store.h promises, for qsort. */
typedef struct strset_test_ent strset_test_ent;
struct strset_test_ent {
  const char *z;
  size_t n;
  uint32_t iCode;
};

static int strset_test_cmp(const void *pa, const void *pb) {
  const strset_test_ent *a = pa, *b = pb;
  size_t n = a->n < b->n ? a->n : b->n;
  int c = n ? memcmp(a->z, b->z, n) : 0;
  if (c != 0) return c;
  return (a->n > b->n) - (a->n < b->n);
}

/* Checks aRemap, from store_strset_sort(s), against qsort of the same
** strings: the string of rank r in qsort's order has code aRemap = r. */
static void strset_test_check_sort(const store_strset *s, const uint32_t *aRemap) {
  strset_test_ent *a = malloc((size_t)s->n * sizeof(*a) + 1);
  ASSERT(a != NULL);
  for (uint32_t c = 0; c < s->n; c++) {
    a[c].z = store_strset_str(s, c, &a[c].n);
    a[c].iCode = c;
  }
  qsort(a, s->n, sizeof(*a), strset_test_cmp);
  for (uint32_t r = 0; r < s->n; r++) {
    if (r > 0) ASSERT_LT(strset_test_cmp(&a[r - 1], &a[r]), 0);   /* distinct */
    ASSERT_EQ(aRemap[a[r].iCode], r);
  }
  free(a);
}

TEST_IMPL(store_strset_sort) {
  const uint64_t nAdd = 400000;          /* a fifth repeats: ~320k distinct */
  store_strset s;
  uint32_t *aRemap, *aSeen;
  uint32_t nGrowth = 0, nSlotPrev = 0;
  char zErr[256];
  store_dict d;

  store_strset_init(&s);
  aSeen = malloc(nAdd * sizeof(uint32_t));
  ASSERT(aSeen != NULL);
  for (uint64_t i = 0; i < nAdd; i++) {
    char z[64];
    uint64_t k = strset_test_pick(i);
    size_t n = strset_test_str(k, z), nGot;
    uint32_t c, nBefore = s.n;
    const char *zGot;
    ASSERT_EQ(store_strset_add(&s, z, n, &c), 0);
    if (k != i) {
      ASSERT_EQ(c, aSeen[k]);
      ASSERT_EQ(s.n, nBefore);
    } else if (k % 4 != 3) {
      /* Only the random strings of style 3 can repeat by chance. */
      ASSERT_EQ(c, nBefore);
      ASSERT_EQ(s.n, nBefore + 1);
    }
    zGot = store_strset_str(&s, c, &nGot);
    ASSERT_EQ(nGot, n);
    ASSERT(n == 0 || memcmp(zGot, z, n) == 0);
    aSeen[i] = c;
    if (s.nSlot != nSlotPrev) nGrowth++;
    nSlotPrev = s.nSlot;
    ASSERT_LE((uint64_t)s.n * 2, s.nSlot);
  }
  ASSERT_GE(nGrowth, 5);
  ASSERT_GT(s.n, 250000);
  /* Adding everything again changes nothing. */
  for (uint64_t i = 0; i < nAdd; i += 97) {
    char z[64];
    size_t n = strset_test_str(strset_test_pick(i), z);
    uint32_t c, nBefore = s.n;
    ASSERT_EQ(store_strset_add(&s, z, n, &c), 0);
    ASSERT_EQ(c, aSeen[i]);
    ASSERT_EQ(s.n, nBefore);
  }

  /* The remap against qsort of the same strings. */
  aRemap = store_strset_sort(&s);
  ASSERT(aRemap != NULL);
  strset_test_check_sort(&s, aRemap);

  /* Written out, code remap[c] of the dictionary is string c of the set. */
  if (store_strset_write(&s, aRemap, "s.dict", 1, zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  if (store_dict_open(&d, "s.dict", zErr, sizeof(zErr)) != 0) FAIL("%s", zErr);
  ASSERT_EQ(d.n, s.n);
  for (uint32_t c = 0; c < s.n; c++) {
    size_t n1, n2;
    const char *z1 = store_strset_str(&s, c, &n1);
    const char *z2 = store_dict_str(&d, aRemap[c], &n2);
    ASSERT_EQ(n1, n2);
    ASSERT(n1 == 0 || memcmp(z1, z2, n1) == 0);
    if (c % 101 == 0) ASSERT_EQ(store_dict_find(&d, z1, n1), aRemap[c]);
  }
  store_dict_close(&d);

  /* A remap that is not a permutation is refused. */
  if (s.n >= 2) {
    uint32_t r0 = aRemap[0];
    aRemap[0] = aRemap[1];
    ASSERT_EQ(store_strset_write(&s, aRemap, "bad.dict", 0, zErr, sizeof(zErr)), -1);
    ASSERT(strstr(zErr, "the remap is not a permutation") != NULL);
    ASSERT(!test_file_exists("bad.dict"));
    aRemap[0] = r0;
  }
  free(aRemap);
  free(aSeen);
  store_strset_free(&s);

  /* Strings that all share a long prefix, some ending right at it, many
  ** agreeing for 8 more bytes: the sort's keys start after the common
  ** prefix, and ties there must go to the full text. */
  store_strset_init(&s);
  for (uint32_t i = 0; i < 20000; i++) {
    char z[96];
    uint32_t c;
    int n;
    switch (i % 5) {
      case 0: n = snprintf(z, sizeof(z), "Customer#common-part:"); break;
      case 1: n = snprintf(z, sizeof(z), "Customer#common-part:%u", i * 2654435761u); break;
      case 2: n = snprintf(z, sizeof(z), "Customer#common-part:12345678%u", i); break;
      case 3: n = snprintf(z, sizeof(z), "Customer#common-part:12345678%c", (char)(i % 256)); break;
      default: n = snprintf(z, sizeof(z), "Customer#common-part:\xff%u", i); break;
    }
    ASSERT_EQ(store_strset_add(&s, z, (size_t)n, &c), 0);
  }
  ASSERT_GT(s.n, 10000);
  aRemap = store_strset_sort(&s);
  ASSERT(aRemap != NULL);
  strset_test_check_sort(&s, aRemap);
  free(aRemap);
  store_strset_free(&s);
  return 0;
}
