/*
** storage/store.h — the column store's files: how a column is laid out on
** disk, written, and mapped back into memory.
**
** A table's data is a directory of files, one set per column (the catalog
** names the directory; see catalog/catalog.h). Every file starts with the
** same 64-byte header and its payload starts at byte 64, so a mapped
** payload is 64-byte aligned (the mapping itself is page-aligned) and can
** be registered as pinned host memory whole.
**
**   header (little-endian)
**     0  char[8]  magic "STARQCOL"
**     8  u32      format version (STORE_VERSION)
**    12  u32      kind: STORE_VALUES, STORE_VALIDITY or STORE_DICT
**    16  u32      coltype_id of the values (0 for validity and dict)
**    20  u32      width of one value in bytes (0 for validity and dict)
**    24  u64      nRow: values, validity bits, or dictionary strings
**    32  u64      payload bytes that follow the header
**    40  u32      encoding of a VALUES file: STORE_ENC_PLAIN (0),
**                 STORE_ENC_FOR (1) or STORE_ENC_FOR_DATE (2, DATE only);
**                 0 for validity and dict (version 2; version 1 files had
**                 zero here and are read as plain; version 3 added blocks
**                 of runs and STORE_ENC_FOR_DATE)
**    44  ...      zero up to byte 64
**
**   payloads
**     VALUES    plain: nRow fixed-width values (coltype.h gives the widths)
**               FOR-bitpacked (colfor.c): nBlock = ceil(nRow / 128)
**               directory entries of 16 bytes — i64 reference (the block's
**               minimum), u64 word offset | bit width << 56 | runs << 63
**               — then the packed 32-bit words of every block back to
**               back; a block of runs starts with 4 words of run-start
**               bits and packs one value a run. FOR_DATE packs each
**               yyyymmdd as its day slot (colfor.c) instead
**     VALIDITY  ceil(nRow / 64) u64 words; bit i%64 of word i/64 set =
**               row i is not NULL. Only nullable columns have one.
**     DICT      u64 offsets[nRow + 1] into the text that follows, then the
**               strings back to back (no terminators), sorted by memcmp
**               order with no duplicates, so code order is string order.
**
** Files are written once and never changed: a load writes a new
** generation of the table's files and the catalog switches to it.
**
** INTERFACE ROUTINES
**   store_file_create   create a file to fill (by row offset or append)
**   store_file_write_at write rows at a row offset (thread-safe: pwrite)
**   store_file_append   write rows after the last ones appended
**   store_file_seal     write the header, truncate, fsync, close
**   store_file_abort    close and remove
**   store_map_open      map a file read-only and check its header
**   store_map_close
**   store_file_info     a file's encoding and payload bytes, from its header
**   store_dict_open     map a dictionary
**   store_dict_share / _unshare  one mapped once per process (dictcache.c)
**   store_dict_ref_add   another reference to a shared one
**   store_dict_str      the string of a code
**   store_dict_find     the code of a string
**   store_dict_lower_bound  the first code whose string is >= a string
**   store_dict_write    write a dictionary from sorted distinct strings
**   store_strset_*      build a dictionary: intern, sort, remap (strset.c)
**   store_for_*         FOR-bitpacked value files (colfor.c)
*/
#ifndef STARQ_STORE_H
#define STARQ_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "../common/coltype.h"

#define STORE_MAGIC "STARQCOL"
#define STORE_VERSION 3          /* 2: the encoding word at byte 40; 3: blocks
                                 ** of runs, STORE_ENC_FOR_DATE */
#define STORE_VERSION_MIN 1      /* version 1 files are plain and still read */
#define STORE_HEADER_SIZE 64

/* How a VALUES file holds its values (header byte 40). */
typedef enum store_enc {
  STORE_ENC_PLAIN = 0,     /* nRow fixed-width values */
  STORE_ENC_FOR = 1,       /* frame of reference + bit-packing per block */
  STORE_ENC_FOR_DATE = 2   /* the same over day slots of DATE values */
} store_enc;

/* 1 if a VALUES file of encoding e is FOR-bitpacked (a block directory,
** then packed words), whatever its values are before packing. */
static inline int store_enc_packed(store_enc e) {
  return e == STORE_ENC_FOR || e == STORE_ENC_FOR_DATE;
}

/* FOR-bitpacked blocks: rows per block, directory entry bytes, the mask
** of a directory entry's word offset, its width (bits 56..62) and its
** flag of a block of runs (bit 63), and the run-start words such a block
** begins with (one bit a row). */
#define STORE_FOR_BLOCK 128
#define STORE_FOR_DIR_BYTES 16
#define STORE_FOR_OFF_MASK ((UINT64_C(1) << 56) - 1)
#define STORE_FOR_WIDTH(x) ((unsigned)((x) >> 56) & 0x7fu)
#define STORE_FOR_RUNS (UINT64_C(1) << 63)
#define STORE_FOR_RUN_WORDS (STORE_FOR_BLOCK / 32)

typedef enum store_kind {
  STORE_VALUES = 1,
  STORE_VALIDITY = 2,
  STORE_DICT = 3,
} store_kind;

/* ---- writing --------------------------------------------------------------
** A file being written. Owned by its creator; fields are read-only outside
** store/. One thread creates and seals; any number may call
** store_file_write_at() in between, for disjoint rows. */
typedef struct store_file store_file;
struct store_file {
  int fd;                  /* open until sealed or aborted; -1 after */
  char *zPath;             /* owned */
  store_kind eKind;
  coltype_id eType;
  uint32_t nWidth;         /* bytes per row (VALUES); 0 otherwise */
  uint64_t nAppended;      /* rows written by store_file_append() */
  store_enc eEnc;          /* packed (FOR, FOR_DATE): rows are bytes, set by
                           ** colfor.c */
};

/* Creates zPath (truncating any file there) for values of type t (t is
** ignored for STORE_VALIDITY and STORE_DICT, whose headers record type 0).
** Returns 0, or -1 with zErr set. */
int store_file_create(store_file *f, const char *zPath, store_kind eKind,
                      coltype t, char *zErr, size_t nErr);

/* Writes nRow values (nRow * width bytes from a) starting at row iRow.
** For VALIDITY files, iRow and nRow count u64 words, not bits; for DICT
** files they count bytes of payload. */
int store_file_write_at(store_file *f, uint64_t iRow, const void *a,
                        uint64_t nRow, char *zErr, size_t nErr);

/* Writes nRow values after the ones appended before. */
int store_file_append(store_file *f, const void *a, uint64_t nRow,
                      char *zErr, size_t nErr);

/* Finishes the file as holding nRow rows (bits for VALIDITY) and nPayload
** payload bytes: writes the header, truncates to header + nPayload, fsyncs
** when bSync, and closes. Returns 0, or -1 with zErr set (the file is then
** closed but left in place; the caller removes the generation). Either
** way f holds nothing afterwards (zPath is freed), so a later
** store_file_abort() does nothing. nRow and nPayload must agree (nRow *
** width; ceil(nRow / 64) * 8 for VALIDITY; at least (nRow + 1) * 8 for
** DICT), else the seal fails rather than write a file no one can map. */
int store_file_seal(store_file *f, uint64_t nRow, uint64_t nPayload, int bSync,
                    char *zErr, size_t nErr);

/* Closes and removes the file. Safe after a seal (it then does nothing:
** a failed seal leaves the removal to the caller, as said above). */
void store_file_abort(store_file *f);

/* ---- reading ------------------------------------------------------------- */
typedef struct store_map store_map;
struct store_map {
  void *pMap;              /* the whole file, read-only; owned */
  size_t nMap;             /* bytes mapped */
  const void *aData;       /* the payload: pMap + 64, 64-byte aligned */
  uint64_t nRow;           /* from the header */
  uint64_t nPayload;       /* from the header */
  uint32_t nWidth;         /* from the header */
  coltype_id eType;        /* from the header */
  store_kind eKind;        /* from the header */
  store_enc eEnc;          /* from the header (PLAIN for non-VALUES) */
  uint64_t nForDir;        /* FOR: directory bytes (nBlock * 16) */
  void *pPlain;            /* store_map_decode()'s values; owned */
};

/* Maps zPath read-only and checks its header: the magic, the version, that
** the kind is eKind, that the type is eType (unless eType is 0) and that
** the file is exactly header + payload long and the payload matches nRow
** and the width. Errors name the file and what is wrong with it ("holds
** 100 rows but is 460 bytes long"). Returns 0, or -1 with zErr set. An
** empty payload maps fine (aData then points at the header's end). */
int store_map_open(store_map *m, const char *zPath, store_kind eKind,
                   coltype_id eType, char *zErr, size_t nErr);
void store_map_close(store_map *m);

/* Reads only the header of zPath: *peEnc gets its encoding and *pnPayload
** its payload bytes (what reading the column moves), for the planner,
** which costs a scan before any file is mapped. Checks the magic and the
** version, nothing else (store_map_open() checks the rest when the file is
** read). Returns 0, or -1 with zErr set. */
int store_file_info(const char *zPath, store_enc *peEnc, uint64_t *pnPayload, char *zErr,
                    size_t nErr);

/* ---- FOR-bitpacked value files (colfor.c) ---------------------------------
** Integer-like columns (SMALLINT, INTEGER, DATE, BIGINT, DECIMAL) may be
** stored as blocks of STORE_FOR_BLOCK rows, each its minimum and the
** deltas from it in the fewest bits that hold the block's range (or, for
** a block of runs of equal values, one delta a run). A block is located
** in O(1) by its directory entry, so any row is. STORE_ENC_FOR_DATE packs
** a DATE column's day slots rather than its yyyymmdd numbers. */

/* 1 if columns of type t may be FOR-encoded. */
int store_for_type_ok(coltype_id t);

/* The payload bytes of nRow plain values a of type t encoded as eEnc
** (STORE_ENC_FOR, or STORE_ENC_FOR_DATE for a DATE column): the trial
** encoding, directory plus packed words. UINT64_MAX if eEnc cannot hold
** them (a DATE value that is neither 0 nor a date, or the wrong type). */
uint64_t store_for_size(store_enc eEnc, coltype_id t, const void *a, uint64_t nRow);

/* Writes nRow plain values a of type t as a file of encoding eEnc
** (STORE_ENC_FOR or STORE_ENC_FOR_DATE) at zPath. Returns 0, or -1 with
** zErr set and no file left at zPath. */
int store_for_write(const char *zPath, store_enc eEnc, coltype_id t, const void *a, uint64_t nRow,
                    int bSync, char *zErr, size_t nErr);

/* Rewrites the plain values file zPath as FOR-bitpacked when the type
** allows and it saves at least an eighth of the bytes (through a
** temporary file renamed over it, so zPath is always whole); a DATE
** column as STORE_ENC_FOR_DATE where that is smaller than STORE_ENC_FOR.
** *peEnc gets the encoding the file has afterwards. Returns 0, or -1 with
** zErr set. */
int store_for_compress(const char *zPath, int bSync, store_enc *peEnc, char *zErr, size_t nErr);

/* The yyyymmdd of day slot s (colfor.c: y * 372 + m * 31 + d, 0 for 0),
** in 32-bit arithmetic as the kernels' sq_day_ymd does it. */
int32_t store_for_day_ymd(uint32_t s);

/* The day slot of DATE value v (store_for_day_ymd's inverse; 0 for 0), or
** -1 when v is neither 0 nor a date FOR_DATE can hold. */
int64_t store_for_day_slot(int64_t v);

/* The name of encoding e for EXPLAIN and messages ("plain", "FOR",
** "FOR-date"), or "unknown". */
const char *store_enc_name(store_enc e);

/* Value of row i (< nRow) of a mapped FOR-bitpacked file as its type
** holds it: cut to the type's width and sign-extended, as a plain file's
** value would be (a FOR_DATE file's day slot turned back into yyyymmdd). */
int64_t store_for_get(const store_map *m, uint64_t i);

/* Where the rows [iRow, iRow + n) of a FOR payload of nRow rows lie, iRow a
** multiple of STORE_FOR_BLOCK: directory bytes at *piDir (*pnDir long) and
** packed words at *piData (*pnData long), offsets into the payload. */
void store_for_span(const void *aPayload, uint64_t nRow, uint64_t iRow, uint64_t n,
                    uint64_t *piDir, uint64_t *pnDir, uint64_t *piData, uint64_t *pnData);

/* Makes m->aData point at plain values: a FOR file's rows are decoded
** into memory m owns (a plain map is left as it is), for readers that
** index values directly. Returns 0, or -1 with zErr set. */
int store_map_decode(store_map *m, char *zErr, size_t nErr);

/* ---- dictionaries -------------------------------------------------------- */
typedef struct store_dict store_dict;
struct store_dict {
  store_map m;             /* the mapped file */
  uint64_t n;              /* strings */
  const uint64_t *aOff;    /* n + 1 offsets into zText */
  const char *zText;       /* the strings back to back */
};

/* Maps a dictionary and checks it: header, offsets non-decreasing and
** within the text, strings strictly increasing. Returns 0 or -1. */
int store_dict_open(store_dict *d, const char *zPath, char *zErr, size_t nErr);
void store_dict_close(store_dict *d);

/* A dictionary opened once for the whole process and shared
** (dictcache.c). Sets *ppDict to the dictionary of zPath — the one already
** open when the path names the same file as when it was opened (device,
** inode, size, modification time), else opened and checked now — and
** *ppRef to a reference that keeps it mapped until store_dict_unshare.
** Thread-safe. Returns 0, or -1 with zErr (store_dict_open's). */
typedef struct store_dict_ref store_dict_ref;
int store_dict_share(const char *zPath, const store_dict **ppDict, store_dict_ref **ppRef,
                     char *zErr, size_t nErr);
void store_dict_unshare(store_dict_ref *p);
/* Takes another reference on a shared dictionary (for a second result
** that prints the same codes). Returns p. */
store_dict_ref *store_dict_ref_add(store_dict_ref *p);

/* Returns the string of code iCode (< d->n); *pn gets its length. The
** string is not NUL-terminated. */
static inline const char *store_dict_str(const store_dict *d, uint64_t iCode,
                                         size_t *pn) {
  *pn = (size_t)(d->aOff[iCode + 1] - d->aOff[iCode]);
  return d->zText + d->aOff[iCode];
}

/* Returns the code of z[0..n), or -1 if the dictionary lacks it. */
int64_t store_dict_find(const store_dict *d, const char *z, size_t n);

/* Returns the first code whose string is >= z[0..n) in memcmp order (a
** shorter string that is a prefix sorts first), or d->n if none is. */
uint64_t store_dict_lower_bound(const store_dict *d, const char *z, size_t n);

/* Writes a dictionary of n strings az[i] of length anLen[i], which must be
** sorted and distinct (checked: an unsorted input is an error). */
int store_dict_write(const char *zPath, uint64_t n, const char *const *az,
                     const uint32_t *anLen, int bSync, char *zErr, size_t nErr);

/* ---- building dictionaries ----------------------------------------------
** A string set interns strings in first-seen order, giving each a
** provisional code 0, 1, 2, ...; store_strset_sort() then computes the
** sorted order and the remap from provisional to final (sorted) codes.
** Owned by one thread at a time. */
typedef struct store_strset store_strset;
struct store_strset {
  char *zText;             /* strings back to back; owned */
  size_t nText, nTextAlloc;
  uint64_t *aOff;          /* n + 1 offsets into zText; owned */
  uint32_t n, nAlloc;      /* strings interned */
  uint32_t *aSlot;         /* hash table: 0 = empty, else code + 1; owned */
  uint32_t nSlot;          /* a power of two, kept at most half full */
};

void store_strset_init(store_strset *s);
void store_strset_free(store_strset *s);

/* Empties the set (n = 0) but keeps its memory, for the next batch. */
void store_strset_clear(store_strset *s);

/* Interns z[0..n) and sets *piCode to its provisional code (the existing
** one if it was there). Returns 0, or -1 if memory ran out. */
int store_strset_add(store_strset *s, const char *z, size_t n, uint32_t *piCode);

/* Returns string iCode of the set and its length in *pn. */
static inline const char *store_strset_str(const store_strset *s, uint32_t iCode,
                                           size_t *pn) {
  *pn = (size_t)(s->aOff[iCode + 1] - s->aOff[iCode]);
  return s->zText + s->aOff[iCode];
}

/* Sorts the set: returns a malloc'd array mapping each provisional code to
** its final code (rank in memcmp order), or NULL if memory ran out. The
** set itself is unchanged. */
uint32_t *store_strset_sort(const store_strset *s);

/* Writes the set as a dictionary file in sorted order, given the remap
** that store_strset_sort() returned. */
int store_strset_write(const store_strset *s, const uint32_t *aRemap,
                       const char *zPath, int bSync, char *zErr, size_t nErr);

#endif /* STARQ_STORE_H */
