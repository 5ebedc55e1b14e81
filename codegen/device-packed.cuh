/*
** codegen/device-packed.cuh — the device library's reads of packed
** columns: the FOR-bitpacked decode (sq_for_block and the tile loads over
** it) and the staging of a streamed tile's packed words through shared memory
** (sq_stage_for_*). Embedded after codegen/device.cuh as one text
** (codegen_device_library, the Makefile), so it uses that file's tiles,
** SQ_FN / SQ_BODY and register conventions and adds nothing they need.
*/
/* ---- FOR-bitpacked columns (storage/colfor.c) -------------------------------
** A column of 128-row blocks: dir holds per block its reference (the
** minimum) and its word offset | bit width << 56 | runs << 63; packed
** holds the blocks' 32-bit words, row j of a block at bits [j*w, j*w + w).
** A block of runs starts with 4 words of run-start bits (row j starts a
** run where bit j is set) and packs one value a run: row j's is that of
** run rank(j) - 1, rank(j) the set bits at or below j. dir and packed
** point at the block of the view's row 0 (a stride's first block, or the
** column's): offsets are made relative to that block's own. dir is
** 16-byte aligned wherever a kernel reads it (a payload starts at byte 64
** of a page-aligned mapping; a stride buffer and a device allocation
** start aligned; entries are 16 bytes), so an entry is one load.
**
** Access pattern on the GPU: a warp's SQ_ITEMS items are the 128 rows of
** one block (sq_item), so the warp reads one directory entry a tile (the
** same 16 bytes in every lane: one broadcast, one sector — loading it in
** one lane and shuffling it to the others would move the same bytes with
** more instructions), takes one side of the runs branch, and reads the
** block's words: lane l the words of its rows 4l .. 4l+3, bits [4*w*l,
** 4*w*(l+1)), one or two words an item, neighbours of the next lane's —
** so each item's load spans the block's 4w words (16w bytes, whole
** sectors), and the four together read exactly the packed bytes, the
** later ones from sectors the first brought into L1. In a block of runs
** the lanes read the run-start words up to their last item's and the
** value words of their runs. On the CPU (one thread a block) the same
** code walks the rows in order.
**
** Latency: read from host memory by zero-copy every load is a PCIe round
** trip (1-2 us), and a packed value needs its directory entry before its
** words (a block of runs also its run-start words before its value
** words). So sq_for_block decodes all of a thread's items in phases, the
** loads of each phase in flight together: the entry, then (runs only) the
** run-start words, then every item's words, then the arithmetic — two
** round trips a tile for a column (three for a block of runs), where
** decoding item after item took two or three per item. It is out of line,
** one function for every packed column of a query (NVRTC compiles it once
** rather than SQ_ITEMS times per column), called once per column a tile:
** tens of cycles against microseconds of loads. */
#define SQ_FOR_SHIFT 7
#define SQ_FOR_OFF_MASK 0x00ffffffffffffffull
#define SQ_FOR_RUN_WORDS 4

/* One directory entry, loaded whole. */
typedef struct sq_for_dirent sq_for_dirent;
struct __align__(16) sq_for_dirent {
  unsigned long long ref;   /* the block's least value */
  unsigned long long meta;  /* word offset | width << 56 | runs << 63 */
};

/* SQ_ITEMS values of one thread, returned by value (in registers: a
** pointer to the caller's array would put it in local memory). */
typedef struct sq_vec sq_vec;
struct sq_vec {
  long long v[SQ_ITEMS];
};

/* The values of items k = 0.. at rows j0 + k * step of a block whose
** entry is d and whose words start at q, for the items whose bit is set in
** m (0 for the others): reference plus delta, before any cut to the
** column's type. m is not 0. Inlined into its two callers, which read q
** from host or device memory (sq_for_block) or from a tile's words staged
** in shared memory (sq_stage_block). */
SQ_FN sq_vec sq_for_words(sq_for_dirent d, const unsigned *q, unsigned j0, int step,
                          unsigned m) SQ_BODY({
  unsigned w = (unsigned)(d.meta >> 56) & 0x7fu, j[SQ_ITEMS], x0[SQ_ITEMS], x1[SQ_ITEMS];
  sq_vec r;
  for (int k = 0; k < SQ_ITEMS; k++) j[k] = j0 + (unsigned)(k * step);
  if (w != 0u && (d.meta >> 63)) {
    /* Runs: the run-start words up to the last item's, then each row's
    ** run (rank - 1) is its index among the packed values. */
    unsigned c = (j[0] + (unsigned)((31 - __clz((int)m)) * step)) >> 5, a0, a1, a2, a3;
    a0 = q[0];
    a1 = c >= 1u ? q[1] : 0u;
    a2 = c >= 2u ? q[2] : 0u;
    a3 = c >= 3u ? q[3] : 0u;
    for (int k = 0; k < SQ_ITEMS; k++) {
      unsigned ck = j[k] >> 5, lo = 0xffffffffu >> (31u - (j[k] & 31u));
      unsigned n = (unsigned)__popc(ck == 0u ? a0 & lo : a0);
      n += ck >= 1u ? (unsigned)__popc(ck == 1u ? a1 & lo : a1) : 0u;
      n += ck >= 2u ? (unsigned)__popc(ck == 2u ? a2 & lo : a2) : 0u;
      n += ck >= 3u ? (unsigned)__popc(a3 & lo) : 0u;
      j[k] = n - 1u;
    }
    q += SQ_FOR_RUN_WORDS;
  }
  /* Every item's first two words (w <= 32 never needs a third); j[k]
  ** becomes the row's first bit. A block of width 0 has no words. */
  for (int k = 0; k < SQ_ITEMS; k++) {
    unsigned b = j[k] * w, s = b & 31u;
    int f = ((m >> k) & 1u) && w != 0u;
    x0[k] = f ? q[b >> 5] : 0u;
    x1[k] = f && s + w > 32u ? q[(b >> 5) + 1u] : 0u;
    j[k] = b;
  }
  for (int k = 0; k < SQ_ITEMS; k++) {
    unsigned s = j[k] & 31u;
    unsigned long long x = (unsigned long long)x0[k] >> s;
    if (s + w > 32u) x |= (unsigned long long)x1[k] << (32u - s);
    /* A row wider than 32 bits may reach a third word: fetched here, one
    ** more round trip, only for such blocks. */
    if (((m >> k) & 1u) && s + w > 64u) x |= (unsigned long long)q[(j[k] >> 5) + 2u] << (64u - s);
    if (w < 64u) x &= (1ull << w) - 1ull;
    r.v[k] = (m >> k) & 1u ? (long long)(d.ref + x) : 0;
  }
  return r;
})

/* The values of rows row0 + k * step of the view for the items k whose bit
** is set in m (0 for the others), all of which lie in row0's 128-row block
** (a thread's tile items, or one row with step 0), read from dir and
** packed. m is not 0. */
SQ_FN_OUTLINE sq_vec sq_for_block(const unsigned long long *dir, const unsigned *packed,
                                  long long row0, int step, unsigned m) SQ_BODY({
  sq_for_dirent d = ((const sq_for_dirent *)dir)[row0 >> SQ_FOR_SHIFT];
  unsigned long long off0 = dir[1] & SQ_FOR_OFF_MASK;
  const unsigned *q = packed + ((d.meta & SQ_FOR_OFF_MASK) - off0);
  return sq_for_words(d, q, (unsigned)(row0 & ((1 << SQ_FOR_SHIFT) - 1)), step, m);
})

/* The yyyymmdd of day slot s = y * 372 + m * 31 + d (0 for 0) of a
** FOR-date column: two divisions by constants, which are multiplies, in
** 32 bits, and a select rather than a branch. storage/colfor.c's
** store_for_day_ymd is the same arithmetic. */
SQ_FN long long sq_day_ymd(long long s) SQ_BODY({
  unsigned u = (unsigned)s, t = u - 32u, y = t / 372u, r = t - y * 372u, m = r / 31u;
  unsigned ymd = y * 10000u + m * 100u + (r - m * 31u) + 101u;
  return (long long)(int)(u == 0u ? 0u : ymd);
})

/* A decoded value as its column's C type holds it, sign-extended back, as
** the plain loads read it: a corrupt block whose reference plus delta
** passes the type's range still yields a value of the type. */
SQ_FN long long sq_as_i16(long long x) SQ_BODY({ return (long long)(short)x; })
SQ_FN long long sq_as_i32(long long x) SQ_BODY({ return (long long)(int)x; })
SQ_FN long long sq_as_i64(long long x) SQ_BODY({ return x; })

/* Bit k set where item k is flagged. */
__device__ __forceinline__ unsigned sq_flag_mask(const int *flag) {
  unsigned m = 0u;
  for (int k = 0; k < SQ_ITEMS; k++) m |= (flag[k] ? 1u : 0u) << k;
  return m;
}

/* sq_load_for_SFX loads the flagged items of the tile starting at row base
** of the view into the same register array as sq_load_i32, so the kernel
** goes on unchanged (a full tile and the guarded tail are the same loop:
** the flags say): one sq_for_block call, none when no item is flagged.
** sq_gather_for_SFX gathers at row index row[k] - 1, rows in any blocks:
** one call a flagged item (gathers read dimension columns, which are
** packed only on the CPU backend's host copies). SFX: i16, i32, i64 by the
** column's width, date for a FOR-date column (day slots back into
** yyyymmdd); R is the items' register type (codegen's cg__reg_type). */
#define SQ_DEFINE_FOR(sfx, conv, R)                                          \
  SQ_FN void sq_load_for_##sfx(const unsigned long long *dir,          \
                                                    const unsigned *packed, long long base, \
                                                    const int *flag, R *v) SQ_BODY({        \
    unsigned m = sq_flag_mask(flag);                                         \
    for (int k = 0; k < SQ_ITEMS; k++) v[k] = (R)0;                          \
    if (m != 0u) {                                                           \
      sq_vec x = sq_for_block(dir, packed, base + sq_item(0), sq_item_step(), m); \
      for (int k = 0; k < SQ_ITEMS; k++) v[k] = (R)conv(x.v[k]);             \
    }                                                                        \
  })                                                                          \
  SQ_FN void sq_gather_for_##sfx(const unsigned long long *dir,        \
                                                      const unsigned *packed,               \
                                                      const unsigned *row, const int *flag, \
                                                      R *v) SQ_BODY({                               \
    for (int k = 0; k < SQ_ITEMS; k++) {                                     \
      v[k] = flag[k] ? (R)conv(sq_for_block(dir, packed, (long long)row[k] - 1, 0, 1u).v[0]) : (R)0; \
    }                                                                        \
  })
SQ_DEFINE_FOR(i16, sq_as_i16, int)
SQ_DEFINE_FOR(i32, sq_as_i32, int)
SQ_DEFINE_FOR(i64, sq_as_i64, long long)
SQ_DEFINE_FOR(date, sq_day_ymd, int)

/* The flagged items of a packed column's tile as long long whatever its
** type, day slots back into yyyymmdd when bDate (a FOR-date column): for
** code that writes a column out, as the resident copy's decode does. */
SQ_FN void sq_load_for_any(const unsigned long long *dir, const unsigned *packed,
                                                long long base, int bDate, const int *flag,
                                                long long *v) SQ_BODY({
  int d[SQ_ITEMS];
  if (!bDate) {
    sq_load_for_i64(dir, packed, base, flag, v);
    return;
  }
  sq_load_for_date(dir, packed, base, flag, d);
  for (int k = 0; k < SQ_ITEMS; k++) v[k] = d[k];
})

/* ---- a tile's packed words staged in shared memory -----------------------------
** Read from host memory by zero-copy, sq_load_for_SFX moves a column's
** words in reads of 4w bytes a warp item (40 B at w = 10): PCIe moves such
** small reads at 28-37 GB/s where whole 128-byte lines reach 51
** (bench/RESULTS.md, issue 10). A tile's blocks are consecutive in the
** words (offsets increase), so its words are one span: sq_stage_for_SFX
** copies that span into shared memory with 16-byte loads (512 contiguous
** bytes a warp instruction, whole lines), then decodes from there with the
** same arithmetic (sq_for_words). The directory entries of the tile go the
** same way, one coalesced read, rather than one broadcast read a warp.
**
** Every thread of the block must call it, with the same arguments, at a
** point all of them reach: it synchronises the block. Codegen uses it for
** the columns of the SCAN's first condition group, which every thread
** loads before any `&&`, and of a later group where the optimizer's
** estimates say most sectors hold a row that reaches it; the `&&` before
** such a group is then block-wide (__syncthreads_or). A sparse group keeps
** the direct decode, which reads only the sectors of rows still flagged
** (codegen/scan.c, scan_stage_groups). Where the span does not fit (a
** block of more than SQ_STAGE_BLOCKS packed blocks, words wider than the
** buffer holds) or cannot be known without reading its run words (the
** view's last block, of runs) the tile is read the direct way: the test
** reads only values every thread has, so every thread takes the same way.
**
** The span is copied from its first word to its last and no further: the
** 16-byte loads cover the 16-byte chunks wholly inside it and 4-byte loads
** the words of a partial chunk at either end, so nothing past a stride
** buffer or mapping is read. It is correct for any block size; on the CPU
** backend (one thread a block: a tile of SQ_ITEMS rows would stage its
** whole 128-row block) the runtime turns it off (the g_stage field), and
** the tests run it through the mock driver and tests/test-for-decode.c. */
#define SQ_STAGE_BLOCKS 32      /* a 1024-thread tile's blocks */
#define SQ_STAGE_WORDS 4224     /* 32 blocks of 32-bit deltas (4,096), run words, alignment */

typedef struct sq_stage_buf sq_stage_buf;
struct __align__(16) sq_stage_buf {
  unsigned aWord[SQ_STAGE_WORDS];          /* from the 16-byte chunk of the span's first word */
  sq_for_dirent aDir[SQ_STAGE_BLOCKS + 1]; /* the tile's entries, then the next block's */
  sq_for_dirent dir0;                      /* the view's first: offsets are relative to it */
};

/* The first and last 128-row block of the tile at row base of an nrow-row
** view, and how many blocks that is. */
__device__ __forceinline__ long long sq_stage_blocks(long long base, long long nrow, long long *pb0) {
  *pb0 = base >> SQ_FOR_SHIFT;
  return ((base + sq_tile_rows(base, nrow) - 1) >> SQ_FOR_SHIFT) - *pb0 + 1;
}

/* Step 1 (every thread; then __syncthreads): the tile's directory entries
** and the one after (where the view has it), and the view's first. */
__device__ __forceinline__ void sq_stage_dir(const unsigned long long *dir, long long base,
                                             long long nrow, sq_stage_buf *st) {
  const sq_for_dirent *e = (const sq_for_dirent *)dir;
  long long b0, nb = sq_stage_blocks(base, nrow, &b0);
  long long nView = (nrow + (1 << SQ_FOR_SHIFT) - 1) >> SQ_FOR_SHIFT;
  if (nb > SQ_STAGE_BLOCKS) return;
  for (long long t = threadIdx.x; t <= nb + 1; t += blockDim.x) {
    if (t == nb + 1) st->dir0 = e[0];
    else if (b0 + t < nView) st->aDir[t] = e[b0 + t];
  }
}

/* Step 2 (every thread; then __syncthreads): copies the tile's words into
** st->aWord. Returns where the tile's first word lies in it (0 to 3: the
** copy keeps the words' 16-byte alignment), the same in every thread, or
** -1 when the tile is to be read directly. */
__device__ __forceinline__ int sq_stage_words(const unsigned *packed, long long base, long long nrow,
                                              sq_stage_buf *st) {
  long long b0, nb = sq_stage_blocks(base, nrow, &b0), nw;
  long long nView = (nrow + (1 << SQ_FOR_SHIFT) - 1) >> SQ_FOR_SHIFT;
  unsigned long long off0, s, e;
  int h;
  if (nb > SQ_STAGE_BLOCKS) return -1;
  off0 = st->dir0.meta & SQ_FOR_OFF_MASK;
  s = (st->aDir[0].meta & SQ_FOR_OFF_MASK) - off0;
  if (b0 + nb < nView) {
    e = (st->aDir[nb].meta & SQ_FOR_OFF_MASK) - off0;
  } else {
    /* The view's last block: ceil(rows * w / 32) words, unless runs. */
    unsigned long long m = st->aDir[nb - 1].meta;
    unsigned w = (unsigned)(m >> 56) & 0x7fu;
    if (w != 0u && (m >> 63)) return -1;
    e = (m & SQ_FOR_OFF_MASK) - off0 +
        ((unsigned long long)(nrow - ((b0 + nb - 1) << SQ_FOR_SHIFT)) * w + 31u) / 32u;
  }
  h = (int)(((unsigned long long)(packed + s) >> 2) & 3u);
  if (e < s || e - s + (unsigned long long)h > SQ_STAGE_WORDS) return -1;
  nw = (long long)(e - s);
  for (long long c = threadIdx.x; c < (h + nw + 3) >> 2; c += blockDim.x) {
    long long i0 = 4 * c - h;
    if (i0 >= 0 && i0 + 4 <= nw) {
      *(uint4 *)&st->aWord[4 * c] = *(const uint4 *)(packed + s + i0);
    } else {
      for (int k = 0; k < 4; k++) {
        if (i0 + k >= 0 && i0 + k < nw) st->aWord[4 * c + k] = packed[s + i0 + k];
      }
    }
  }
  return h;
}

/* Step 3: sq_for_block's values, from the staged words (h: what step 2
** returned) of the tile at row base. Out of line, as sq_for_block. */
SQ_FN_OUTLINE sq_vec sq_stage_block(const sq_stage_buf *st, int h, long long base, long long row0,
                                    int step, unsigned m) SQ_BODY({
  sq_for_dirent d = st->aDir[(row0 >> SQ_FOR_SHIFT) - (base >> SQ_FOR_SHIFT)];
  const unsigned *q = st->aWord + h + ((d.meta & SQ_FOR_OFF_MASK) - (st->aDir[0].meta & SQ_FOR_OFF_MASK));
  return sq_for_words(d, q, (unsigned)(row0 & ((1 << SQ_FOR_SHIFT) - 1)), step, m);
})

/* sq_stage_load_SFX: step 3 into the registers sq_load_for_SFX fills;
** sq_stage_for_SFX: the three steps and their barriers, or the direct
** load where step 2 says so; a last barrier before the buffer is reused. */
#define SQ_DEFINE_STAGE(sfx, conv, R)                                        \
  __device__ __forceinline__ void sq_stage_load_##sfx(const sq_stage_buf *st, int h,        \
                                                      long long base, const int *flag,      \
                                                      R *v) {                               \
    unsigned m = sq_flag_mask(flag);                                         \
    for (int k = 0; k < SQ_ITEMS; k++) v[k] = (R)0;                          \
    if (m != 0u) {                                                           \
      sq_vec x = sq_stage_block(st, h, base, base + sq_item(0), sq_item_step(), m); \
      for (int k = 0; k < SQ_ITEMS; k++) v[k] = (R)conv(x.v[k]);             \
    }                                                                        \
  }                                                                          \
  __device__ __forceinline__ void sq_stage_for_##sfx(const unsigned long long *dir,         \
                                                     const unsigned *packed, long long base,\
                                                     long long nrow, sq_stage_buf *st,      \
                                                     const int *flag, R *v) {               \
    int h;                                                                   \
    sq_stage_dir(dir, base, nrow, st);                                       \
    __syncthreads();                                                         \
    h = sq_stage_words(packed, base, nrow, st);                              \
    __syncthreads();                                                         \
    if (h >= 0) sq_stage_load_##sfx(st, h, base, flag, v);                   \
    else sq_load_for_##sfx(dir, packed, base, flag, v);                      \
    __syncthreads();                                                         \
  }
SQ_DEFINE_STAGE(i16, sq_as_i16, int)
SQ_DEFINE_STAGE(i32, sq_as_i32, int)
SQ_DEFINE_STAGE(i64, sq_as_i64, long long)
SQ_DEFINE_STAGE(date, sq_day_ymd, int)
