/*
** codegen/device.cuh — the device-function library every generated query
** is compiled with (embedded in the binary; codegen puts it before the
** query's kernels). One verb per function, in the manner of Crystal's
** block-wide primitives: load a tile, test a code set, probe a lookup,
** update an aggregate, reduce a block, report an error. Its reads of
** packed columns are codegen/device-packed.cuh, embedded right after this
** file as one text.
**
** Tiles: a block works on tiles of blockDim.x * SQ_ITEMS rows; thread t
** takes the SQ_ITEMS consecutive rows from t * SQ_ITEMS on (sq_item), so
** warp g takes rows [g * 32 * SQ_ITEMS, (g + 1) * 32 * SQ_ITEMS): one
** 128-row block of a packed column (one directory entry a warp,
** sq_for_block), and a thread loads its items of a plain column in one
** vector load (sq_vec_read: 16 bytes a lane, 512 a warp instruction for
** an int). Items live in
** register arrays (int for columns of 32 bits or fewer, long long for
** wider ones, double for DOUBLE) with a flag per item: 1 while the row is
** still in the query. Loads take the flags: a row that failed an earlier
** `&&` group is not read.
**
** Dialect: the common subset of C11 and CUDA C++ (runtime/README.md): no
** templates, no references, no designated initialisers, explicit casts.
** The same text runs on the GPU and, through runtime/cpu-shim.h, on the
** CPU with one thread per block, so nothing here may assume a block or
** warp size.
*/
#define SQ_ITEMS 4

/* How the functions below are declared: SQ_FN, inline in every kernel
** that calls it; SQ_FN_OUTLINE, a function of its own (a large one called
** from several places); SQ_BODY holds the body. */
#define SQ_FN __device__ __forceinline__
#define SQ_FN_OUTLINE __device__ __noinline__
#define SQ_BODY(...) __VA_ARGS__

/* Which of a packed column's two loads a module holds (codegen/emit.c
** cg__load): both, chosen at run time by its PLAIN field (SQ_PATH_ANY, the
** default; the CPU backend's); only the plain one (every packed column the
** run reads is resident) or only the decode (none is): the CUDA backend
** compiles a module per path, its text defining SQ_PATH, because the other
** side's code makes ptxas spill in the SCANs bound to 32 registers
** (runtime/README.md, "Modules and their caches"). */
#define SQ_PATH_ANY 0
#define SQ_PATH_PLAIN 1
#define SQ_PATH_PACKED 2
#ifndef SQ_PATH
#define SQ_PATH SQ_PATH_ANY
#endif

/* Errors a kernel reports; the first one wins (sq_raise). */
#define SQ_ERR_OVERFLOW 1       /* 22003: a value out of its type's range */
#define SQ_ERR_DIV_ZERO 2       /* 22012 */
#define SQ_ERR_GROUPS_FULL 3    /* the group table overflowed: grow and rerun */
#define SQ_ERR_SQRT_NEG 4       /* 2201F: the square root of a negative number */
#define SQ_ERR_POW_ZERO 5       /* 2201F: zero raised to a negative power */
#define SQ_ERR_POW_COMPLEX 6    /* 2201F: a negative number to a non-integer power */
#define SQ_ERR_FLOAT_OVERFLOW 7   /* 22003: a double's result overflowed */
#define SQ_ERR_FLOAT_UNDERFLOW 8  /* 22003: ... underflowed to zero */

/* A hash-table lookup slot: the key, and the row index + 1 (0: empty). */
typedef struct sq_hslot sq_hslot;
struct sq_hslot {
  long long key;
  unsigned long long row;
};

SQ_FN void sq_raise(unsigned *err, unsigned code) SQ_BODY({
  atomicCAS(err, 0u, code);
})

/* ---- tiles -------------------------------------------------------------------- */

/* Brings a warp's threads back together at the top of each tile. A `&&`
** group's `continue` lets the threads whose items all failed go on to the
** next tile while the rest finish this one; without a barrier the
** compiler need not rejoin them, and a warp split that way runs every
** later tile twice, each half issuing its own loads (H100, SF 100 Q3.3's
** resident SCAN, a module of one path: the tile loop's head issued 11.6 M
** times for 4.7 M warp-tiles, 2.2x the instructions, 1.34x the DRAM bytes,
** 4.5 against 1.5 ms). Every thread of a block runs every tile (the loop
** bound is the block's), so the whole warp reaches it. */
__device__ __forceinline__ void sq_tile_converge(void) {
  __syncwarp();
}

/* Rows of the tile starting at row base of an n-row column, for this block. */
SQ_FN int sq_tile_rows(long long base, long long n) SQ_BODY({
  long long r = n - base, t = (long long)blockDim.x * SQ_ITEMS;
  return (int)(r < t ? r : t);
})

/* Row of item k of this thread in its tile: thread t takes rows t *
** SQ_ITEMS + k, so the items of a thread are SQ_ITEMS consecutive rows
** (sq_item_step() apart: 1) in one 128-row block (a tile starts at a
** multiple of blockDim.x * SQ_ITEMS). Lane l of warp g once took rows g *
** 128 + k * 32 + l (one element a lane a load instruction): with 1- and
** 2-byte values that left too few bytes in flight to reach HBM bandwidth
** (bench/RESULTS.md, issue 10), where one vector load a thread moves 4 to
** 16 bytes a lane. */
SQ_FN int sq_item_shift(void) SQ_BODY({ return 0; })
SQ_FN int sq_item_step(void) SQ_BODY({ return 1 << sq_item_shift(); })
SQ_FN int sq_item(int k) SQ_BODY({ return (int)threadIdx.x * SQ_ITEMS + (k << sq_item_shift()); })

SQ_FN void sq_flags_init(int *flag, int n) SQ_BODY({
  for (int k = 0; k < SQ_ITEMS; k++) flag[k] = sq_item(k) < n;
})

SQ_FN int sq_any(const int *flag) SQ_BODY({
  int r = 0;
  for (int k = 0; k < SQ_ITEMS; k++) r |= flag[k];
  return r;
})

/* ---- vector loads of a thread's items -------------------------------------------
** A thread's SQ_ITEMS rows of a column of b-byte values are SQ_ITEMS * b
** consecutive bytes: 4 (u8), 8 (u16, short), 16 (int) or 32 (8-byte
** types: two 16-byte loads), read whole by sq_vec_read when
** sq_vec_ok says the load may: the thread's last row is below the tile's
** n rows, any of its items is flagged, and the column's pointer is
** aligned to the load (min(16, SQ_ITEMS * b) bytes; the thread's first
** row is a multiple of SQ_ITEMS rows from it). Device allocations and
** stride buffers start aligned and a pinned payload starts at byte 64 of
** a page-aligned mapping, so only a view starting at an odd row, or the
** column's last tile, falls back to loading the flagged items one by one.
** The vector read keeps every item, flagged or not: an unflagged item
** holds its row's real value, which nothing reads (every use of an item
** is behind its flag). Its bytes share a 32-byte sector with a flagged
** item's, so DRAM moves the same sectors as item by item; and with no
** select on the loaded words a kernel's next load issues before this one
** returns (H100, Q1.1's SCAN: a select after each load made the first
** group's two loads two round trips, and a warp whose threads differed
** in their last flag ran both the vector and the item-by-item reads). A
** thread with no item flagged reads nothing: loads after a failed `&&`
** still skip the sectors of rows out of the query. On the CPU (STARQ_CPU)
** the bytes are copied: the same items, without C's aliasing rules
** against reading a short through an unsigned. */
typedef struct sq_vraw sq_vraw;
struct sq_vraw {
  unsigned w[2 * SQ_ITEMS];   /* the bytes as little-endian words */
};

__device__ __forceinline__ int sq_vec_ok(const void *p, int b, int n, const int *flag) {
  unsigned long long a = (unsigned long long)(b * SQ_ITEMS < 16 ? b * SQ_ITEMS : 16);
  return sq_item(SQ_ITEMS - 1) < n && sq_any(flag) && ((unsigned long long)p & (a - 1ull)) == 0ull;
}

/* The nb bytes at p (4, 8, 16 or 32; aligned to min(nb, 16)). */
__device__ __forceinline__ sq_vraw sq_vec_read(const void *p, int nb) {
  sq_vraw r;
#ifdef STARQ_CPU
  __builtin_memcpy(r.w, p, (unsigned long)nb);
#else
  if (nb >= 16) {
    uint4 x = ((const uint4 *)p)[0];
    r.w[0] = x.x, r.w[1] = x.y, r.w[2] = x.z, r.w[3] = x.w;
    if (nb == 32) {
      x = ((const uint4 *)p)[1];
      r.w[4] = x.x, r.w[5] = x.y, r.w[6] = x.z, r.w[7] = x.w;
    }
  } else if (nb == 8) {
    uint2 x = *(const uint2 *)p;
    r.w[0] = x.x, r.w[1] = x.y;
  } else {
    r.w[0] = *(const unsigned *)p;
  }
#endif
  return r;
}

/* The bits of item k of b bytes (1, 2, 4 or 8) in r. */
__device__ __forceinline__ unsigned long long sq_vec_item(sq_vraw r, int k, int b) {
  if (b == 1) return (r.w[0] >> (8 * k)) & 0xffu;
  if (b == 2) return (r.w[k >> 1] >> (16 * (k & 1))) & 0xffffu;
  if (b == 4) return r.w[k];
  return (unsigned long long)r.w[2 * k] | (unsigned long long)r.w[2 * k + 1] << 32;
}

/* An item's bits as its column's type: integers by conversion (two's
** complement on both backends), a double by its bits. */
__device__ __forceinline__ short sq_bits_i16(unsigned long long x) { return (short)x; }
__device__ __forceinline__ int sq_bits_i32(unsigned long long x) { return (int)x; }
__device__ __forceinline__ unsigned sq_bits_u32(unsigned long long x) { return (unsigned)x; }
__device__ __forceinline__ long long sq_bits_i64(unsigned long long x) { return (long long)x; }
__device__ __forceinline__ double sq_bits_f64(unsigned long long x) {
#ifdef STARQ_CPU
  double d;
  __builtin_memcpy(&d, &x, sizeof(d));
  return d;
#else
  return __longlong_as_double((long long)x);
#endif
}

/* Loads the flagged items of a tile (p points at the tile's first row). */
#define SQ_DEFINE_LOAD(name, T, R, bits)                                     \
  SQ_FN void name(const T *p, int n, const int *flag, R *v) SQ_BODY({         \
    if (sq_vec_ok(p, (int)sizeof(T), n, flag)) {                             \
      sq_vraw x = sq_vec_read(p + sq_item(0), (int)sizeof(T) * SQ_ITEMS);    \
      for (int k = 0; k < SQ_ITEMS; k++) v[k] = (R)bits(sq_vec_item(x, k, (int)sizeof(T))); \
    } else {                                                                 \
      for (int k = 0; k < SQ_ITEMS; k++) v[k] = flag[k] ? (R)p[sq_item(k)] : (R)0; \
    }                                                                        \
  })
SQ_DEFINE_LOAD(sq_load_i16, short, int, sq_bits_i16)
SQ_DEFINE_LOAD(sq_load_i32, int, int, sq_bits_i32)
SQ_DEFINE_LOAD(sq_load_u32, unsigned, unsigned, sq_bits_u32)
SQ_DEFINE_LOAD(sq_load_i64, long long, long long, sq_bits_i64)
SQ_DEFINE_LOAD(sq_load_f64, double, double, sq_bits_f64)

/* Loads validity bits (bit i of word i/64 set: row i is not NULL) of the
** tile starting at row base. A thread's rows start at a multiple of
** SQ_ITEMS (base is one), so its bits are in one word: one load, none
** when no item is flagged. */
SQ_FN void sq_load_valid(const unsigned long long *bits, long long base, const int *flag,
                         int *ok) SQ_BODY({
  long long i = base + sq_item(0);
  unsigned long long w = sq_any(flag) ? bits[i >> 6] >> (i & 63) : 0ull;
  for (int k = 0; k < SQ_ITEMS; k++) ok[k] = flag[k] ? (int)((w >> k) & 1ull) : 0;
})

/* Gathers a dimension column at row index row[k] - 1 for flagged items. */
#define SQ_DEFINE_GATHER(name, T, R)                                         \
  SQ_FN void name(const T *p, const unsigned *row, const int *flag, R *v) SQ_BODY({ \
    for (int k = 0; k < SQ_ITEMS; k++) v[k] = flag[k] ? (R)p[row[k] - 1] : (R)0; \
  })
SQ_DEFINE_GATHER(sq_gather_i16, short, int)
SQ_DEFINE_GATHER(sq_gather_i32, int, int)
SQ_DEFINE_GATHER(sq_gather_u32, unsigned, unsigned)
SQ_DEFINE_GATHER(sq_gather_i64, long long, long long)
SQ_DEFINE_GATHER(sq_gather_f64, double, double)

SQ_FN void sq_gather_valid(const unsigned long long *bits, const unsigned *row,
                                                const int *flag, int *ok) SQ_BODY({
  for (int k = 0; k < SQ_ITEMS; k++) {
    long long i = (long long)row[k] - 1;
    ok[k] = flag[k] ? (int)((bits[i >> 6] >> (i & 63)) & 1ull) : 0;
  }
})

/* ---- code sets (string predicates, resolved by the planner) ------------------ */

SQ_FN int sq_codes_in(const unsigned long long *bits, long long code) SQ_BODY({
  return (int)((bits[code >> 6] >> (code & 63)) & 1ull);
})

/* 1 if x is one of the n sorted values v (an IN list of constants, a
** kernel argument: one shape whatever its length). */
SQ_FN int sq_in_sorted(const long long *v, long long n, long long x) SQ_BODY({
  long long lo = 0, hi = n - 1;
  while (lo <= hi) {
    long long mid = lo + (hi - lo) / 2;
    if (v[mid] == x) return 1;
    if (v[mid] < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
})

/* Entry i of a value map of n entries (planner/valmap.c: a date function
** per day); a day outside it (statistics that do not hold the row) is
** 22003 rather than a read past the map. */
SQ_FN long long sq_map_at(const long long *map, long long n, long long i, unsigned *err) SQ_BODY({
  if (i < 0 || i >= n) {
    sq_raise(err, SQ_ERR_OVERFLOW);
    return 0;
  }
  return map[i];
})

/* ---- lookups: BUILD inserts, SCAN probes --------------------------------------- */

/* The slot of a yyyymmdd key in a date offset map starting at year y0,
** or -1. In 32 bits, where dividing by a constant is a multiply: 64-bit
** division is a long emulated sequence, paid for every probed row. */
SQ_FN long long sq_date_slot(long long ymd, long long y0) SQ_BODY({
  unsigned u = (unsigned)ymd, d = u % 100u, m = u / 100u % 100u;
  if (ymd < 0 || ymd > 0x7fffffffLL || d < 1u || d > 31u || m < 1u || m > 12u) return -1;
  return ((long long)(u / 10000u) - y0) * 372 + (long long)m * 31 + (long long)d - 32;
})

/* Murmur3's 64-bit finaliser: every key bit reaches every slot bit. */
SQ_FN unsigned long long sq_hash(unsigned long long x) SQ_BODY({
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
})

/* Inserts key -> row1 (row index + 1) into a table of mask + 1 slots,
** half full at most by the planner's sizing, so an empty slot exists. */
SQ_FN void sq_hash_insert(sq_hslot *t, unsigned long long mask, long long key,
                                               unsigned long long row1) SQ_BODY({
  unsigned long long s = sq_hash((unsigned long long)key) & mask;
  while (atomicCAS(&t[s].row, 0ull, row1) != 0ull) s = (s + 1) & mask;
  t[s].key = key;
})

/* Row index + 1 of key, or 0. */
SQ_FN unsigned sq_hash_find(const sq_hslot *t, unsigned long long mask,
                                                 long long key) SQ_BODY({
  unsigned long long s = sq_hash((unsigned long long)key) & mask;
  for (;;) {
    unsigned long long r = t[s].row;
    if (r == 0) return 0;
    if (t[s].key == key) return (unsigned)r;
    s = (s + 1) & mask;
  }
})

/* Whether keys of 32 bits (bSigned: int, else unsigned) may be probed in
** 32-bit arithmetic against slots kmin .. kmin + nslot - 1: (unsigned)key
** - (unsigned)kmin wraps, and a wrapped difference lands below nslot only
** when the slots reach past the keys' largest value, which this rules out.
** A uniform test (kernel arguments); the 32-bit probe is a subtract and
** one compare, the 64-bit one a sign extension and three (H100 SASS of
** Q1.1's SCAN: 12 instructions an item, against 5). */
__device__ __forceinline__ int sq_slots_32(long long kmin, long long nslot, int bSigned) {
  long long lo = bSigned ? -2147483648LL : 0LL, hi = bSigned ? 2147483647LL : 4294967295LL;
  return kmin >= lo && kmin <= hi && nslot >= 0 && nslot <= hi - kmin + 1;
}

/* Probes flagged items; clears the flag of a key with no row. The key
** array has its column's register type (codegen's cg__reg_type): SFX i32
** (int: SMALLINT, INTEGER, DATE), u32 (unsigned: dictionary codes), i64
** (long long). */
#define SQ_DEFINE_PROBE(sfx, K, N32)                                         \
  SQ_FN void sq_probe_array_##sfx(const unsigned *lut, long long kmin,       \
                                  long long nslot, const K *key,             \
                                  int *flag, unsigned *row) SQ_BODY({        \
    if (N32 && sq_slots_32(kmin, nslot, (K)-1 < (K)0)) {                     \
      unsigned m = (unsigned)kmin, ns = (unsigned)nslot;                     \
      for (int k = 0; k < SQ_ITEMS; k++) {                                   \
        unsigned s = (unsigned)key[k] - m;                                   \
        row[k] = flag[k] && s < ns ? lut[s] : 0u;                            \
        flag[k] = row[k] != 0u;                                              \
      }                                                                      \
      return;                                                                \
    }                                                                        \
    for (int k = 0; k < SQ_ITEMS; k++) {                                     \
      long long s = (long long)key[k] - kmin;                                \
      row[k] = flag[k] && s >= 0 && s < nslot ? lut[s] : 0u;                 \
      flag[k] = row[k] != 0u;                                                \
    }                                                                        \
  })                                                                         \
  SQ_FN void sq_probe_hash_##sfx(const sq_hslot *t, unsigned long long mask, \
                                                      const K *key, int *flag, unsigned *row) SQ_BODY({  \
    for (int k = 0; k < SQ_ITEMS; k++) {                                     \
      row[k] = flag[k] ? sq_hash_find(t, mask, (long long)key[k]) : 0u;      \
      flag[k] = row[k] != 0u;                                                \
    }                                                                        \
  })
SQ_DEFINE_PROBE(i32, int, 1)
SQ_DEFINE_PROBE(u32, unsigned, 1)
SQ_DEFINE_PROBE(i64, long long, 0)

/* Semi-join bits (planner/plan.h): bit s of a dimension's bitset is set by
** its BUILD iff slot s holds a row that passes the dimension's filters. */
SQ_FN void sq_bits_set(unsigned *bits, long long s) SQ_BODY({
  atomicOr(&bits[s >> 5], 1u << (s & 31));
})

SQ_FN int sq_bits_test(const unsigned *bits, long long s, long long nslot) SQ_BODY({
  return s >= 0 && s < nslot && ((bits[s >> 5] >> (s & 31)) & 1u);
})

SQ_FN int sq_bits_test32(const unsigned *bits, unsigned s, unsigned nslot) SQ_BODY({
  return s < nslot && ((bits[s >> 5] >> (s & 31)) & 1u);
})

/* sq_probe_bits_SFX clears the flag of an item whose key (slot key - kmin)
** has no passing row; sq_row_array_SFX then gives the flagged items that
** passed it their row index + 1: key - kmin + 1 when the keys are dense
** and the BUILD found none out of place (moved 0), else the slot's.
** sq_dense_check_SFX is the BUILD's test: it sets *moved when a flagged
** row's key is not its row index + kmin. */
#define SQ_DEFINE_BITS(sfx, K, N32)                                          \
  SQ_FN void sq_probe_bits_##sfx(const unsigned *bits, long long kmin,       \
                                 long long nslot, const K *key, int *flag) SQ_BODY({ \
    if (N32 && sq_slots_32(kmin, nslot, (K)-1 < (K)0)) {                     \
      unsigned m = (unsigned)kmin, ns = (unsigned)nslot;                     \
      for (int k = 0; k < SQ_ITEMS; k++) flag[k] = flag[k] && sq_bits_test32(bits, (unsigned)key[k] - m, ns); \
    } else {                                                                 \
      for (int k = 0; k < SQ_ITEMS; k++) flag[k] = flag[k] && sq_bits_test(bits, (long long)key[k] - kmin, nslot); \
    }                                                                        \
  })                                                                         \
  SQ_FN void sq_row_array_##sfx(const unsigned *lut, long long kmin,         \
                                unsigned moved, const K *key,                \
                                const int *flag, unsigned *row) SQ_BODY({    \
    for (int k = 0; k < SQ_ITEMS; k++) {                                     \
      if (N32) {                                                             \
        /* a flagged item passed the bits: 0 <= key - kmin < nslot, so its   \
        ** low 32 bits are the slot */                                       \
        unsigned s = (unsigned)key[k] - (unsigned)kmin;                      \
        row[k] = !flag[k] ? 0u : moved ? lut[s] : s + 1u;                    \
      } else {                                                               \
        long long s = (long long)key[k] - kmin;                              \
        row[k] = !flag[k] ? 0u : moved ? lut[s] : (unsigned)(s + 1);         \
      }                                                                      \
    }                                                                        \
  })                                                                         \
  SQ_FN void sq_dense_check_##sfx(const K *key, long long base,              \
                                  long long kmin, const int *flag,           \
                                  unsigned *moved) SQ_BODY({                 \
    for (int k = 0; k < SQ_ITEMS; k++) {                                     \
      if (flag[k] && (long long)key[k] - kmin != base + sq_item(k)) atomicExch(moved, 1u); \
    }                                                                        \
  })
SQ_DEFINE_BITS(i32, int, 1)
SQ_DEFINE_BITS(u32, unsigned, 1)
SQ_DEFINE_BITS(i64, long long, 0)

/* Copies a dimension's semi-join bits (n words) into this block's shared
** memory before its first tile, so that the SCAN probes them there: a
** warp's 32 random probes of a bitset in L1 cost a sector each, several
** times a probe from shared memory (bench/probe-floor, H100: 760-1,120
** against 2,650 G probes/s). Every thread of the block calls it. */
SQ_FN void sq_bits_stage(unsigned *dst, const unsigned *src, long long n) SQ_BODY({
  for (long long i = threadIdx.x; i < n; i += blockDim.x) dst[i] = src[i];
  __syncthreads();
})

/* A date key is always a DATE column: int. */
SQ_FN void sq_probe_date(const unsigned *lut, long long y0, long long nslot,
                                              const int *key, int *flag, unsigned *row) SQ_BODY({
  for (int k = 0; k < SQ_ITEMS; k++) {
    long long s = sq_date_slot(key[k], y0);
    int ok = flag[k] && s >= 0 && s < nslot;
    row[k] = ok ? lut[s] : 0u;
    flag[k] = row[k] != 0u;
  }
})

/* ---- checked arithmetic (PostgreSQL raises 22003, never wraps) ------------------ */

SQ_FN long long sq_add(long long x, long long y, unsigned *err) SQ_BODY({
  long long r = (long long)((unsigned long long)x + (unsigned long long)y);
  if (((x ^ r) & (y ^ r)) < 0) sq_raise(err, SQ_ERR_OVERFLOW);
  return r;
})

SQ_FN long long sq_sub(long long x, long long y, unsigned *err) SQ_BODY({
  long long r = (long long)((unsigned long long)x - (unsigned long long)y);
  if (((x ^ y) & (x ^ r)) < 0) sq_raise(err, SQ_ERR_OVERFLOW);
  return r;
})

SQ_FN long long sq_mul(long long x, long long y, unsigned *err) SQ_BODY({
  __int128 r = (__int128)x * (__int128)y;
  if (r > (__int128)INT64_MAX || r < (__int128)INT64_MIN) sq_raise(err, SQ_ERR_OVERFLOW);
  return (long long)r;
})

SQ_FN long long sq_div(long long x, long long y, unsigned *err) SQ_BODY({
  if (y == 0) {
    sq_raise(err, SQ_ERR_DIV_ZERO);
    return 0;
  }
  if (x == INT64_MIN && y == -1) {
    sq_raise(err, SQ_ERR_OVERFLOW);
    return 0;
  }
  return x / y;
})

SQ_FN long long sq_mod(long long x, long long y, unsigned *err) SQ_BODY({
  if (y == 0) {
    sq_raise(err, SQ_ERR_DIV_ZERO);
    return 0;
  }
  return y == -1 ? 0 : x % y;
})

SQ_FN double sq_fdiv(double x, double y, unsigned *err) SQ_BODY({
  if (y == 0.0) {
    sq_raise(err, SQ_ERR_DIV_ZERO);
    return 0.0;
  }
  return x / y;
})

/* v, checked against [lo, hi] (the result type's range). */
SQ_FN long long sq_range(long long v, long long lo, long long hi, unsigned *err) SQ_BODY({
  if (v < lo || v > hi) sq_raise(err, SQ_ERR_OVERFLOW);
  return v;
})

/* x * 10^n for rescaling DECIMALs, checked. */
SQ_FN long long sq_scale(long long x, int n, unsigned *err) SQ_BODY({
  for (int i = 0; i < n; i++) x = sq_mul(x, 10, err);
  return x;
})

/* x * 10^n in 128 bits, unchecked: an 18-digit value times 10^18 still
** fits, so DECIMALs of different scales compare without overflow. */
SQ_FN __int128 sq_widen(long long x, int n) SQ_BODY({
  __int128 r = x;
  for (int i = 0; i < n; i++) r *= 10;
  return r;
})

/* sqrt(float8), as PostgreSQL's dsqrt: 2201F below zero. */
SQ_FN double sq_fsqrt(double x, unsigned *err) SQ_BODY({
  if (x < 0.0) {
    sq_raise(err, SQ_ERR_SQRT_NEG);
    return 0.0;
  }
  return sqrt(x);
})

/* power(float8, float8), as PostgreSQL's dpow: C99's pow has its NaN and
** infinity cases; what PostgreSQL adds are its errors, 2201F for zero to
** a negative power and a negative number to a fractional one, 22003 for
** a finite pair whose result overflows or underflows. */
SQ_FN double sq_fpow(double x, double y, unsigned *err) SQ_BODY({
  double r;
  if (isnan(x) || isnan(y)) return pow(x, y);
  if (x == 0.0 && y < 0.0) {
    sq_raise(err, SQ_ERR_POW_ZERO);
    return 0.0;
  }
  if (x < 0.0 && floor(y) != y) {
    sq_raise(err, SQ_ERR_POW_COMPLEX);
    return 0.0;
  }
  r = pow(x, y);
  if (isfinite(x) && isfinite(y) && isinf(r)) sq_raise(err, SQ_ERR_FLOAT_OVERFLOW);
  if (isfinite(x) && isfinite(y) && r == 0.0 && x != 0.0) sq_raise(err, SQ_ERR_FLOAT_UNDERFLOW);
  return r;
})

/* DOUBLE to integer: round half to even, as PostgreSQL's float8 -> int8. */
SQ_FN long long sq_f2i(double x, unsigned *err) SQ_BODY({
  double r = rint(x);
  if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0)) {
    sq_raise(err, SQ_ERR_OVERFLOW);
    return 0;
  }
  return (long long)r;
})

/* DECIMAL with n fraction digits to integer: round half away from zero,
** as PostgreSQL's numeric -> int. */
SQ_FN long long sq_unscale_round(long long x, int n) SQ_BODY({
  long long p = 1;
  for (int i = 0; i < n; i++) p *= 10;
  long long q = x / p, r = x % p;
  if (2 * (r < 0 ? -r : r) >= p) q += x < 0 ? -1 : 1;
  return q;
})

/* ---- aggregates ------------------------------------------------------------------- */

SQ_FN void sq_atomic_add(long long *p, long long v) SQ_BODY({
  atomicAdd((unsigned long long *)p, (unsigned long long)v);
})

/* An add that may overflow a BIGINT: a compare-and-swap loop that checks. */
SQ_FN void sq_atomic_add_checked(long long *p, long long v, unsigned *err) SQ_BODY({
  unsigned long long *q = (unsigned long long *)p;
  unsigned long long old = *q, seen;
  for (;;) {
    long long r = (long long)(old + (unsigned long long)v);
    if ((((long long)old ^ r) & (v ^ r)) < 0) {
      sq_raise(err, SQ_ERR_OVERFLOW);
      return;
    }
    seen = atomicCAS(q, old, (unsigned long long)r);
    if (seen == old) return;
    old = seen;
  }
})

SQ_FN void sq_atomic_fadd(double *p, double v) SQ_BODY({ atomicAdd(p, v); })

SQ_FN void sq_atomic_min(long long *p, long long v) SQ_BODY({ atomicMin(p, v); })
SQ_FN void sq_atomic_max(long long *p, long long v) SQ_BODY({ atomicMax(p, v); })

SQ_FN void sq_atomic_fmin(double *p, double v) SQ_BODY({
  unsigned long long *q = (unsigned long long *)p;
  unsigned long long old = *q, seen;
  while (v < __longlong_as_double((long long)old)) {
    seen = atomicCAS(q, old, (unsigned long long)__double_as_longlong(v));
    if (seen == old) return;
    old = seen;
  }
})

SQ_FN void sq_atomic_fmax(double *p, double v) SQ_BODY({
  unsigned long long *q = (unsigned long long *)p;
  unsigned long long old = *q, seen;
  while (v > __longlong_as_double((long long)old)) {
    seen = atomicCAS(q, old, (unsigned long long)__double_as_longlong(v));
    if (seen == old) return;
    old = seen;
  }
})

/* The group-table slot of a combined code: open addressing, linear
** probing, claimed by compare-and-swap on the key. Returns -1 (and raises
** SQ_ERR_GROUPS_FULL, so the runtime grows the table and reruns) when every
** slot is taken. keys holds mask + 1 keys, EMPTY (all ones) when free. */
SQ_FN long long sq_group_slot(unsigned long long *keys, unsigned long long mask,
                                                   unsigned long long code, unsigned *err) SQ_BODY({
  unsigned long long s = sq_hash(code) & mask;
  for (unsigned long long n = 0; n <= mask; n++) {
    unsigned long long k = keys[s];
    if (k == code) return (long long)s;
    if (k == ~0ull) {
      k = atomicCAS(&keys[s], ~0ull, code);
      if (k == ~0ull || k == code) return (long long)s;
    }
    s = (s + 1) & mask;
  }
  sq_raise(err, SQ_ERR_GROUPS_FULL);
  return -1;
})

/* ---- group tables in a block's shared memory (papers 003 §5.1, 000 §3) ---------
** A DENSE group table the planner placed in shared memory is one per block:
** the SCAN initialises it, updates it with shared-memory atomics, and
** merges it into the global table at block end. Its state words are
** stored word-major (word w of slot s at w * nSlot + s), so the replicas
** of one group, which are consecutive slots, are consecutive 8-byte words:
** lanes of a warp updating different replicas hit different banks.
**
** Hot groups have replicas (paper 000 §3): map[code] holds the slot of
** the code's first replica in its low 16 bits and replicas - 1 (a power of
** two less one; 0 for a group without replicas) in its high 16 bits. */

/* Fills map for nCode codes: every code its own single slot. All threads
** of the block call it; __syncthreads() before reading the map. */
SQ_FN void sq_gt_map_init(unsigned *map, long long nCode) SQ_BODY({
  for (long long i = threadIdx.x; i < nCode; i += blockDim.x) map[i] = (unsigned)i;
})

/* Gives hot group code nRep replicas from slot base (thread 0 writes;
** call after sq_gt_map_init and a __syncthreads()). */
SQ_FN void sq_gt_map_hot(unsigned *map, long long nCode, long long code,
                                              unsigned base, unsigned nRep) SQ_BODY({
  if (threadIdx.x == 0 && code >= 0 && code < nCode) map[code] = base | (nRep - 1u) << 16;
})

/* The slot this thread updates for code: its replica by thread index, so
** the lanes of a warp and the warps of a window spread over the replicas.
** The block index rotates the choice; on the GPU that changes nothing, and
** on the CPU (one thread a block) it makes blocks use different replicas. */
SQ_FN int sq_gt_slot(const unsigned *map, unsigned long long code) SQ_BODY({
  unsigned m = map[code];
  return (int)(m & 0xffffu) + (int)((threadIdx.x + blockIdx.x) & (m >> 16));
})

/* The slot holding code's first replica: where the fold leaves the group. */
SQ_FN int sq_gt_home(const unsigned *map, unsigned long long code) SQ_BODY({
  return (int)(map[code] & 0xffffu);
})

/* ---- block reductions (scalar aggregates: one atomic per block) ---------------- */

/* Sum of v over the block, valid in thread 0. Every thread must call it. */
SQ_FN long long sq_block_sum(long long v) SQ_BODY({
  __shared__ long long part[32];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  int lane = (int)threadIdx.x % warpSize, w = (int)threadIdx.x / warpSize;
  int nw = ((int)blockDim.x + warpSize - 1) / warpSize;
  if (lane == 0) part[w] = v;
  __syncthreads();
  v = (int)threadIdx.x < nw ? part[threadIdx.x] : 0;
  if (w == 0) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  }
  __syncthreads();
  return v;
})

SQ_FN double sq_block_fsum(double v) SQ_BODY({
  __shared__ double fpart[32];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  int lane = (int)threadIdx.x % warpSize, w = (int)threadIdx.x / warpSize;
  int nw = ((int)blockDim.x + warpSize - 1) / warpSize;
  if (lane == 0) fpart[w] = v;
  __syncthreads();
  v = (int)threadIdx.x < nw ? fpart[threadIdx.x] : 0.0;
  if (w == 0) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  }
  __syncthreads();
  return v;
})

/* ---- DECIMAL division and dates ------------------------------------------------- */

/* x / y of DECIMALs, scaled by 10^n first, rounded half away from zero (as
** PostgreSQL's numeric division rounds its last digit). */
SQ_FN long long sq_ddiv(long long x, long long y, int n, unsigned *err) SQ_BODY({
  __int128 num = x, q, r;
  if (y == 0) {
    sq_raise(err, SQ_ERR_DIV_ZERO);
    return 0;
  }
  for (int i = 0; i < n; i++) num *= 10;
  q = num / y;
  r = num % y;
  if (2 * (r < 0 ? -r : r) >= (__int128)(y < 0 ? -y : y)) q += (num < 0) != (y < 0) ? -1 : 1;
  if (q > (__int128)INT64_MAX || q < (__int128)INT64_MIN) sq_raise(err, SQ_ERR_OVERFLOW);
  return (long long)q;
})

/* Days since 1970-01-01 of a yyyymmdd, and back (H. Hinnant's algorithms). */
/* Days since 1970-01-01 of a timestamp (microseconds since 2000-01-01),
** rounded down: a value map's index of a TIMESTAMP column. */
SQ_FN long long sq_ts_days(long long ts) SQ_BODY({
  long long q = ts / 86400000000LL;
  if (ts % 86400000000LL < 0) q -= 1;
  return q + 10957;
})

/* x mod m, in [0, m): the part of a timestamp since its last whole unit. */
SQ_FN long long sq_ts_floormod(long long ts, long long m) SQ_BODY({
  long long r = ts % m;
  return r < 0 ? r + m : r;
})

/* A time-of-day field or truncation of a timestamp (planner/bind.h
** BIND_TOD_*): hour, minute; the microseconds of the minute (second,
** milliseconds, microseconds: their NUMERIC's digits); epoch's
** microseconds; date_trunc by hour .. microseconds. */
SQ_FN long long sq_ts_tod(long long ts, int k) SQ_BODY({
  switch (k) {
    case 1: return sq_ts_floormod(ts, 86400000000LL) / 3600000000LL;
    case 2: return sq_ts_floormod(ts, 3600000000LL) / 60000000LL;
    case 3: case 4: case 5: return sq_ts_floormod(ts, 60000000LL);
    case 6: return ts + 946684800000000LL;
    case 7: return ts - sq_ts_floormod(ts, 3600000000LL);
    case 8: return ts - sq_ts_floormod(ts, 60000000LL);
    case 9: return ts - sq_ts_floormod(ts, 1000000LL);
    case 10: return ts - sq_ts_floormod(ts, 1000LL);
    default: return ts;
  }
})

/* date_part's double of the same field, computed as PostgreSQL does. */
SQ_FN double sq_ts_tod_f64(long long ts, int k) SQ_BODY({
  long long us = sq_ts_floormod(ts, 60000000LL);
  long long sec = us / 1000000LL, usec = us % 1000000LL;
  switch (k) {
    case 3: return (double)sec + (double)usec / 1000000.0;
    case 4: return (double)sec * 1000.0 + (double)usec / 1000.0;
    case 6: return (double)(ts + 946684800000000LL) / 1000000.0;
    default: return (double)sq_ts_tod(ts, k);
  }
})

SQ_FN long long sq_days(long long ymd) SQ_BODY({
  long long y = ymd / 10000, m = ymd / 100 % 100, d = ymd % 100;
  y -= m <= 2;
  long long era = (y >= 0 ? y : y - 399) / 400;
  long long yoe = y - era * 400;
  long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
})

SQ_FN long long sq_ymd(long long z) SQ_BODY({
  z += 719468;
  long long era = (z >= 0 ? z : z - 146096) / 146097;
  long long doe = z - era * 146097;
  long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  long long mp = (5 * doy + 2) / 153;
  long long d = doy - (153 * mp + 2) / 5 + 1;
  long long m = mp < 10 ? mp + 3 : mp - 9;
  long long y = yoe + era * 400 + (m <= 2);
  return y * 10000 + m * 100 + d;
})
