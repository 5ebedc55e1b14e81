/*
** planner/groupby.h — the group-by strategy: how a query's GROUP BY is
** aggregated on the GPU (paper 003, Karnagel et al., ADMS 2015; paper 000
** §2 for dense codes). Pure: no catalog, no I/O, no allocation. The
** planner says what it knows (key domains from catalog statistics, the
** estimated group and row counts, the bytes of aggregate state); this
** module answers with a groupby_plan that codegen implements and EXPLAIN
** prints.
**
** Strategies, first that applies wins:
**   SCALAR  no GROUP BY: each thread folds its rows in registers, a
**           block-wide reduction, then one atomic per block.
**   DENSE   a result array indexed by the combined code
**             i = sum over keys k of (code_k - aMin[k]) * aStride[k]
**           (mixed radix, the last key varies fastest: aStride[nKey-1] is
**           1). No hashing and no EMPTY marker; it cannot overflow.
**           Chosen when the array fits in L2 and lands in memory at least
**           as fast as the hash table for the estimated groups would (see
**           groupby_plan_choose).
**   HASH    open addressing with linear probing (paper 003 §2.2) over
**           the same combined code, which is the slot's key (4 bytes when
**           every code fits below the EMPTY marker 0xFFFFFFFF, else 8),
**           hashed with Murmur3's finalizer (§3 Region II). Placed
**           thread-private, in shared memory or in global memory (§5.1),
**           sized and gridded by §4's rules. On overflow the kernel sets a
**           trap flag; the runtime calls groupby_plan_grow() and reruns.
**
** Slots: HASH slots are [key][padding][state], DENSE slots are [state];
** the state starts at iStateOffset, aligned to the input's nStateAlign,
** and a slot's size is a multiple of its widest member, so an array of
** slots keeps every field aligned. INIT writes EMPTY into every key and
** the aggregates' initial values into every state.
**
** Copies: thread-private tables have one copy per thread (in global
** memory: there are too many for shared memory, §5.1), shared tables one
** per block; both are merged into one global result before FINALIZER.
**
** Hot groups (paper 000 §3): a DENSE table in shared memory may give the
** most frequent groups replicas — extra slots of the same group in the
** block's table, taken by thread index, so that threads of a warp (and of
** nearby warps) updating one heavy hitter write different addresses in
** different banks instead of serializing on one. Chosen from the
** planner's code frequencies (groupby_input.aHot) when a group's share of
** the rows makes it collide within a warp, under GROUPBY_SHARED_STATIC_MAX
** bytes of shared memory; the replicas are folded and merged with the
** table at block end.
**
** INTERFACE ROUTINES
**   groupby_device_default  the H100 facts the rules are computed from
**   groupby_plan_choose     a query's strategy, table and grid
**   groupby_slots_next      the table size after one overflow, or 0
**   groupby_plan_grow       a HASH plan after an overflow, for the rerun
**   groupby_plan_replicate  replicas of hot groups in a shared table (groupby_hot.c)
**   groupby_hot_add         a frequent code into the input's hot list
**   groupby_plan_explain    the decision as one EXPLAIN line
**   groupby_kind_name, groupby_place_name
*/
#ifndef STARQ_GROUPBY_H
#define STARQ_GROUPBY_H

#include <stddef.h>
#include <stdint.h>

#define GROUPBY_MAX_KEY 16               /* GROUP BY columns in one query */
#define GROUPBY_MAX_HOT 32               /* replicated hot groups in one table */

/* The shared memory a kernel declares statically: CUDA's limit without
** the per-kernel opt-in (48 KiB). Codegen builds a shared-memory table only
** when the plan's nSharedByte fits it (a larger one stays in global
** memory), and replicas of hot groups are budgeted against it. */
#define GROUPBY_SHARED_STATIC_MAX (48u * 1024u)

/* The device facts the rules read. groupby_device_default() gives an
** H100 SXM's; the CUDA backend may fill one from cuDeviceGetAttribute()
** instead. nTlbReach cannot be queried: it is paper 003's measured
** figure (§3 Region V, the 2 GB TLB limit of Kaldewey et al.), kept until
** someone measures an H100. All sizes are bytes. planner/model.c names
** each field and checks its range: a new field needs its row in model.c's
** table. */
typedef struct groupby_device groupby_device;
struct groupby_device {
  int nSm;                 /* streaming multiprocessors (132) */
  int nThreadPerSm;        /* resident threads per SM (2048) */
  int nThreadPerBlock;     /* most threads in one block (1024) */
  int nBlockPerSm;         /* resident blocks per SM (32) */
  uint64_t nSharedPerSm;   /* shared memory per SM (228 KiB) */
  uint64_t nSharedPerBlock;/* most one block may ask for, opt-in (227 KiB) */
  uint64_t nSharedReserved;/* shared memory the system keeps per block (1 KiB) */
  uint64_t nL2;            /* L2 cache (50 MiB) */
  uint64_t nCacheLine;     /* L2 line (128) */
  uint64_t nGlobal;        /* device memory (80 GiB) */
  uint64_t nTlbReach;      /* table size where TLB misses set in (2 GiB) */
};

/* One GROUP BY key as the planner sees it. Codes are what the scan kernel
** reads: dictionary codes for strings (aMin 0, nDomain the dictionary
** size), the value itself for integer keys such as d_year (iMin the
** column's min, nDomain max-min+1 from catalog statistics, which are exact
** for min and max). A nullable key counts one more code for NULL. */
typedef struct groupby_key groupby_key;
struct groupby_key {
  int64_t iMin;            /* smallest code */
  uint64_t nDomain;        /* codes iMin .. iMin+nDomain-1; 0 = unknown */
};

/* A frequent combined code and its share of the rows (0..1], from the
** catalog's code frequencies (paper 000 §3's "popular values"). */
typedef struct groupby_hot groupby_hot;
struct groupby_hot {
  uint64_t iCode;          /* combined code (already less aMin) */
  double rShare;           /* fraction of the rows reaching aggregation */
};

/* What the planner hands in. nGroupEst and nRowEst are estimates (from
** distinct counts and selectivities); 0 or less means unknown. aHot lists
** the most frequent combined codes, most frequent first, when the
** planner knows them (nHot 0: no frequencies, no replication). */
typedef struct groupby_input groupby_input;
struct groupby_input {
  int nKey;                         /* 0: scalar aggregate */
  groupby_key aKey[GROUPBY_MAX_KEY];/* in GROUP BY order */
  int nStateByte;                   /* aggregate state per group, all aggregates */
  int nStateAlign;                  /* widest state member: 1, 2, 4 or 8 */
  double nGroupEst;                 /* estimated groups; <= 0: product of domains */
  double nRowEst;                   /* estimated rows reaching the aggregation */
  int nHot;                         /* entries of aHot */
  groupby_hot aHot[GROUPBY_MAX_HOT];/* most frequent codes, descending share */
};

typedef enum groupby_kind {
  GROUPBY_SCALAR = 0,
  GROUPBY_DENSE,
  GROUPBY_HASH
} groupby_kind;

/* Where the table lives, fastest first (the order is compared). */
typedef enum groupby_place {
  GROUPBY_PLACE_THREAD = 0,        /* one copy per thread (global memory, §5.1) */
  GROUPBY_PLACE_SHARED,            /* one copy per block, in shared memory */
  GROUPBY_PLACE_GLOBAL             /* one table shared by all threads */
} groupby_place;

/* The decision. All fields are read-only results; the struct is plain
** data, owned by whoever declared it, and may be copied. Fields marked
** DENSE/HASH are zero for the other kinds. */
typedef struct groupby_plan groupby_plan;
struct groupby_plan {
  groupby_kind eKind;
  groupby_place ePlace;             /* DENSE/HASH; SCALAR keeps THREAD (registers) */
  int nKey;
  int64_t aMin[GROUPBY_MAX_KEY];    /* DENSE/HASH: subtracted from each code */
  uint64_t aDomain[GROUPBY_MAX_KEY];/* DENSE/HASH: codes per key */
  uint64_t aStride[GROUPBY_MAX_KEY];/* DENSE/HASH: mixed-radix weight per key */
  uint64_t nCode;                   /* product of domains (combined codes) */
  uint64_t nSlot;                   /* DENSE: nCode; HASH: power of two; SCALAR: 1 */
  int nKeyByte;                     /* HASH: 4 or 8; else 0 */
  uint64_t iEmpty;                  /* HASH: key of an empty slot (all ones) */
  int iStateOffset;                 /* state's offset in a slot */
  int nSlotByte;                    /* bytes per slot */
  double rFill;                     /* HASH: fill factor the size was chosen for */
  double nGroup;                    /* groups the plan was sized for */
  uint64_t nTableByte;              /* one copy: nSlot * nSlotByte */
  uint64_t nCopy;                   /* copies: threads, blocks, or 1 */
  int nBlockPerSm;                  /* grid: nBlock = nSm * nBlockPerSm */
  int nBlock;                       /* grid: blocks */
  int nThread;                      /* grid: threads per block */
  uint64_t nSharedByte;             /* shared memory per block */
  /* DENSE in shared memory only: hot groups with replicas (paper 000 §3).
  ** The block's table has nShSlot slots: slot c for each code c, then the
  ** replicas of hot group i at aHotBase[i] .. aHotBase[i]+aHotReplica[i]-1
  ** (the group's own slot c is then unused). A replicated table also
  ** keeps a map of 4 bytes per code, counted in nSharedByte. */
  int nHot;                         /* 0: a plain table */
  uint64_t aHotCode[GROUPBY_MAX_HOT];/* the hot groups' combined codes */
  int aHotReplica[GROUPBY_MAX_HOT]; /* replicas of each: a power of two, 2.. */
  uint64_t aHotBase[GROUPBY_MAX_HOT];/* slot of each one's first replica */
  double aHotShare[GROUPBY_MAX_HOT];/* its share of the rows, for EXPLAIN */
  uint64_t nShSlot;                 /* slots of the block's table */
};

/* Returns the H100 SXM facts listed in groupby_device. */
groupby_device groupby_device_default(void);

/* Chooses the strategy for pIn on pDev into *pOut. Returns 0, or -1 with
** a message in zErr (nErr bytes) when the input is malformed (nKey out of
** range, a state size that is not positive, an alignment that is not a
** power of two up to 8) or when no supported strategy exists: a key of
** unknown domain, or combined codes beyond 64 bits (paper 003 §2.2: such
** keys need bucket latching, which starq does not generate). */
int groupby_plan_choose(const groupby_input *pIn, const groupby_device *pDev,
                        groupby_plan *pOut, char *zErr, size_t nErr);

/* The most slots a HASH table may have: 2^32 (slot indexes are 32-bit in
** the kernels), and a table of nSlotByte-byte slots must fit in half of
** device memory; the other half is for streamed strides, cached columns
** and dimension tables (paper 003 §1 assumes the table fits the device). */
#define GROUPBY_MAX_SLOTS (1ull << 32)

/* Returns the table size after an overflow of an nSlot-slot table:
** 2 * nSlot (paper 003 §2.2, "double the size of the hash table and
** simply rerun"), or 0 when that would pass the maximum above. */
uint64_t groupby_slots_next(uint64_t nSlot, int nSlotByte, const groupby_device *pDev);

/* Turns a HASH plan whose table overflowed into the plan for the rerun:
** twice the slots, then placement and grid again from the new size (a
** thread-private table goes to shared memory, since more than its few
** groups exist; a shared one that no longer fits goes global). Returns 0,
** or -1 (plan unchanged) for DENSE and SCALAR plans, which cannot
** overflow, and when groupby_slots_next() refuses. */
int groupby_plan_grow(groupby_plan *p, const groupby_device *pDev);

/* Gives a DENSE plan placed in shared memory replicas of the hot groups
** of pIn, by the rule in groupby.c (groupby_plan_choose calls it); with
** bForce, every listed group whose replicas fit the budget, whatever its
** share (the benchmark's forced mode). Returns the number of hot groups
** (0: the plan is unchanged, as it is when it has replicas already). */
int groupby_plan_replicate(groupby_plan *p, const groupby_device *pDev,
                           const groupby_input *pIn, int bForce);

/* Adds code iCode with share rShare of the rows to pIn's hot list, which
** stays in descending share and keeps the GROUPBY_MAX_HOT most frequent;
** a share of 0 or less, or one below every share of a full list, is not
** kept. */
void groupby_hot_add(groupby_input *pIn, uint64_t iCode, double rShare);

/* Writes the decision as one line into z (n bytes, always terminated),
** e.g. "hash in shared memory: 4096 slots × 16 B (fill 0.5), 132×2
** blocks × 1024 threads". Returns what snprintf returns. */
int groupby_plan_explain(const groupby_plan *p, char *z, size_t n);

const char *groupby_kind_name(groupby_kind e);
const char *groupby_place_name(groupby_place e);

#endif /* STARQ_GROUPBY_H */
