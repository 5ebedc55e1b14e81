/*
** loader/sink.c — batches to a committed generation (see sink.h).
**
** Per column the sink holds the file being written, the in-memory validity
** bitmap of a nullable column (written at commit: batches do not end on
** 64-row boundaries), the statistics so far, and for strings the column's
** dictionary and the occurrence count of each provisional code.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sink.h"

#define SINK_REMAP_BLOCK (1u << 20)     /* codes per read when remapping */

typedef struct sink_col sink_col;
struct sink_col {
  store_file f;            /* values, or provisional codes for strings */
  int bOpen;               /* f is open (created, not sealed or aborted) */
  int bString;
  int bNullable;
  uint64_t *aValid;        /* nullable: one bit per row so far; owned */
  size_t nValidWord;       /* words allocated in aValid */
  col_stats stats;         /* non-strings: merged batch statistics */
  int64_t nNull;           /* strings: NULL rows so far */
  store_strset strs;       /* strings: the column's dictionary */
  uint64_t *aFreq;         /* strings: rows per provisional code; owned */
  size_t nFreqAlloc;
  uint32_t *aMap;          /* strings, scratch: batch code -> provisional */
  size_t nMapAlloc;
  uint32_t *aCode;         /* strings, scratch: a batch's provisional codes */
  size_t nCodeAlloc;
};

struct load_sink {
  cat *pCat;
  cat_table *t;            /* borrowed */
  int64_t iGen;            /* the generation being written */
  int64_t nRow;            /* rows so far, old ones included on append */
  sink_col *aCol;          /* t->nCol; owned */
  load_compress eCompress; /* FOR-bitpack a fact table's integer columns */
};

/* Grows *pa to hold at least n elements of size sz (zeroing new ones). */
static int sink_grow(void **pa, size_t *pnAlloc, size_t n, size_t sz) {
  size_t nNew;
  char *a;
  if (n <= *pnAlloc) return 0;
  nNew = *pnAlloc ? *pnAlloc : 1024;
  while (nNew < n) nNew *= 2;
  a = realloc(*pa, nNew * sz);
  if (a == NULL) return -1;
  memset(a + *pnAlloc * sz, 0, (nNew - *pnAlloc) * sz);
  *pa = a;
  *pnAlloc = nNew;
  return 0;
}

static int sink_oom(char *zErr, size_t nErr) {
  snprintf(zErr, nErr, "out of memory");
  return -1;
}

/* Returns word i of a batch's validity bitmap aSrc of n bits: NULL means
** every row is present; bits past n read as 0. */
static uint64_t sink_valid_word(const uint64_t *aSrc, uint64_t n, uint64_t i) {
  uint64_t nLeft = n - i * 64;
  uint64_t w = aSrc != NULL ? aSrc[i] : ~0ull;
  return nLeft >= 64 ? w : w & ((1ull << nLeft) - 1);
}

/* Appends n validity bits from aSrc (NULL = all present) at bit nDst of
** c->aValid, a word at a time: batches rarely start on a word boundary,
** so each source word is split across two destination words. */
static int sink_valid_append(sink_col *c, uint64_t nDst, const uint64_t *aSrc,
                             uint64_t n) {
  unsigned iShift = (unsigned)(nDst % 64);
  uint64_t *aDst;
  if (sink_grow((void **)&c->aValid, &c->nValidWord, (size_t)((nDst + n + 63) / 64) + 1,
                sizeof(uint64_t)) != 0) {
    return -1;
  }
  aDst = c->aValid + nDst / 64;
  for (uint64_t i = 0; i < (n + 63) / 64; i++) {
    uint64_t w = sink_valid_word(aSrc, n, i);
    aDst[i] |= w << iShift;
    if (iShift != 0) aDst[i + 1] |= w >> (64 - iShift);
  }
  return 0;
}

static int sink_is_null(const uint64_t *aValid, uint64_t i) {
  return aValid != NULL && !((aValid[i / 64] >> (i % 64)) & 1);
}

/* ---- opening: a fresh generation, or a copy of the current one ---------- */

/* Copies the current generation's column iCol into the new one: values
** (codes keep their meaning, see below), validity bits and statistics. */
static int sink_col_copy_old(load_sink *s, int iCol, char *zErr, size_t nErr) {
  sink_col *c = &s->aCol[iCol];
  const cat_table *t = s->t;
  char zPath[4096];
  store_map m;
  col_stats old;
  int rc = -1;

  cat_file_path(s->pCat, t, t->iGen, iCol, STORE_VALUES, zPath, sizeof(zPath));
  if (store_map_open(&m, zPath, STORE_VALUES, t->aCol[iCol].type.eId, zErr, nErr) != 0) return -1;
  if (m.nRow != (uint64_t)t->nRow) {
    snprintf(zErr, nErr, "%s holds %llu rows, the catalog says %lld", zPath,
             (unsigned long long)m.nRow, (long long)t->nRow);
    goto out_unmap;
  }
  /* A FOR-bitpacked column is appended as plain values, and the commit
  ** packs the whole column again. */
  if (store_map_decode(&m, zErr, nErr) != 0 ||
      store_file_append(&c->f, m.aData, m.nRow, zErr, nErr) != 0) {
    goto out_unmap;
  }

  if (c->bNullable) {
    store_map v;
    cat_file_path(s->pCat, t, t->iGen, iCol, STORE_VALIDITY, zPath, sizeof(zPath));
    if (store_map_open(&v, zPath, STORE_VALIDITY, 0, zErr, nErr) != 0) goto out_unmap;
    rc = sink_valid_append(c, 0, v.aData, v.nRow);
    store_map_close(&v);
    if (rc != 0) {
      sink_oom(zErr, nErr);
      goto out_unmap;
    }
    rc = -1;
  }

  if (cat_stats_get(s->pCat, t->iId, iCol, &old, zErr, nErr) != 0) goto out_unmap;
  if (c->bString) {
    /* Seeding the dictionary with the old one in code order makes every
    ** old code its own provisional code. */
    store_dict d;
    cat_file_path(s->pCat, t, t->iGen, iCol, STORE_DICT, zPath, sizeof(zPath));
    if (store_dict_open(&d, zPath, zErr, nErr) != 0) goto out_stats;
    for (uint64_t i = 0; i < d.n; i++) {
      size_t n;
      const char *z = store_dict_str(&d, i, &n);
      uint32_t iCode;
      if (store_strset_add(&c->strs, z, n, &iCode) != 0) {
        store_dict_close(&d);
        sink_oom(zErr, nErr);
        goto out_stats;
      }
    }
    store_dict_close(&d);
    if (sink_grow((void **)&c->aFreq, &c->nFreqAlloc, c->strs.n, sizeof(uint64_t)) != 0) {
      sink_oom(zErr, nErr);
      goto out_stats;
    }
    for (uint64_t i = 0; i < old.nFreq && i < c->strs.n; i++) c->aFreq[i] = old.aFreq[i];
    c->nNull = old.nNull;
    c->stats.nRun = old.nRun;   /* the new rows' runs add to these */
  } else if (stats_merge(&c->stats, &old) != 0) {
    sink_oom(zErr, nErr);
    goto out_stats;
  }
  rc = 0;
out_stats:
  stats_free(&old);
out_unmap:
  store_map_close(&m);
  return rc;
}

static void sink_free(load_sink *s) {
  if (s->aCol != NULL) {
    for (int i = 0; i < s->t->nCol; i++) {
      sink_col *c = &s->aCol[i];
      if (c->bOpen) store_file_abort(&c->f);
      stats_free(&c->stats);
      store_strset_free(&c->strs);
      free(c->aValid);
      free(c->aFreq);
      free(c->aMap);
      free(c->aCode);
    }
  }
  free(s->aCol);
  free(s);
}

int load_sink_open(load_sink **pp, cat *pCat, cat_table *t, int bAppend,
                   char *zErr, size_t nErr) {
  load_sink *s = calloc(1, sizeof(*s));
  if (s == NULL) return sink_oom(zErr, nErr);
  s->pCat = pCat;
  s->t = t;
  s->aCol = calloc((size_t)t->nCol, sizeof(*s->aCol));
  if (s->aCol == NULL) {
    free(s);
    return sink_oom(zErr, nErr);
  }
  if (cat_gen_begin(pCat, t, &s->iGen, zErr, nErr) != 0) {
    free(s->aCol);
    free(s);
    return -1;
  }
  for (int i = 0; i < t->nCol; i++) {
    sink_col *c = &s->aCol[i];
    char zPath[4096];
    c->bString = coltype_is_string(t->aCol[i].type);
    c->bNullable = !t->aCol[i].bNotNull;
    store_strset_init(&c->strs);
    if (stats_init(&c->stats, t->aCol[i].type) != 0) {
      sink_oom(zErr, nErr);
      goto out_abort;
    }
    if (cat_file_path(pCat, t, s->iGen, i, STORE_VALUES, zPath, sizeof(zPath)) == NULL) {
      snprintf(zErr, nErr, "data directory path too long");
      goto out_abort;
    }
    if (store_file_create(&c->f, zPath, STORE_VALUES, t->aCol[i].type, zErr, nErr) != 0) {
      goto out_abort;
    }
    c->bOpen = 1;
  }
  if (bAppend && t->iGen != 0) {
    for (int i = 0; i < t->nCol; i++) {
      if (sink_col_copy_old(s, i, zErr, nErr) != 0) goto out_abort;
    }
    s->nRow = t->nRow;
  }
  *pp = s;
  return 0;
out_abort:
  load_sink_abort(s);
  return -1;
}

/* ---- batches ------------------------------------------------------------ */

int load_batch_stats(const load_batch *b, col_stats *aStats) {
  for (int i = 0; i < b->nCol; i++) {
    if (stats_init(&aStats[i], b->aCol[i].type) != 0) {
      for (int j = 0; j < i; j++) stats_free(&aStats[j]);
      return -1;
    }
    if (!coltype_is_string(b->aCol[i].type)) {
      stats_add_values(&aStats[i], b->aCol[i].aValue, b->aCol[i].aValid, (uint64_t)b->nRow);
    }
  }
  return 0;
}

/* Appends a batch's string column: its strings join the column's
** dictionary, and its rows are written as provisional codes. */
static int sink_put_strings(sink_col *c, const load_col *bc, int64_t nRow,
                            char *zErr, size_t nErr) {
  const uint32_t *aBatchCode = bc->aValue;
  if (sink_grow((void **)&c->aMap, &c->nMapAlloc, bc->strs.n, sizeof(uint32_t)) != 0 ||
      sink_grow((void **)&c->aCode, &c->nCodeAlloc, (size_t)nRow, sizeof(uint32_t)) != 0) {
    return sink_oom(zErr, nErr);
  }
  for (uint32_t i = 0; i < bc->strs.n; i++) {
    size_t n;
    const char *z = store_strset_str(&bc->strs, i, &n);
    if (store_strset_add(&c->strs, z, n, &c->aMap[i]) != 0) return sink_oom(zErr, nErr);
  }
  if (sink_grow((void **)&c->aFreq, &c->nFreqAlloc, c->strs.n, sizeof(uint64_t)) != 0) {
    return sink_oom(zErr, nErr);
  }
  for (int64_t r = 0; r < nRow; r++) {
    if (sink_is_null(bc->aValid, (uint64_t)r)) {
      c->aCode[r] = 0;       /* any code will do under a NULL */
      c->nNull++;
    } else {
      uint32_t p = c->aMap[aBatchCode[r]];
      c->aCode[r] = p;
      c->aFreq[p]++;
    }
  }
  stats_add_runs(&c->stats, c->aCode, sizeof(uint32_t), bc->aValid, (uint64_t)nRow);
  return store_file_append(&c->f, c->aCode, (uint64_t)nRow, zErr, nErr);
}

int load_sink_put(load_sink *s, const load_batch *b, const col_stats *aStats,
                  char *zErr, size_t nErr) {
  int rc = 0;

  if (b->nRow == 0) return 0;
  for (int i = 0; i < s->t->nCol && rc == 0; i++) {
    sink_col *c = &s->aCol[i];
    const load_col *bc = &b->aCol[i];
    if (!c->bNullable && bc->aValid != NULL) {
      for (int64_t r = 0; r < b->nRow; r++) {
        if (sink_is_null(bc->aValid, (uint64_t)r)) {
          snprintf(zErr, nErr, "column %s is NOT NULL, but a row has no value",
                   s->t->aCol[i].zName);
          rc = -1;
          break;
        }
      }
      if (rc != 0) break;
    }
    if (c->bNullable && sink_valid_append(c, (uint64_t)s->nRow, bc->aValid, (uint64_t)b->nRow) != 0) {
      rc = sink_oom(zErr, nErr);
    } else if (c->bString) {
      rc = sink_put_strings(c, bc, b->nRow, zErr, nErr);
    } else if (store_file_append(&c->f, bc->aValue, (uint64_t)b->nRow, zErr, nErr) != 0) {
      rc = -1;
    } else if (stats_merge(&c->stats, &aStats[i]) != 0) {
      rc = sink_oom(zErr, nErr);
    }
  }
  if (rc == 0) s->nRow += b->nRow;
  return rc;
}

/* ---- commit ---------------------------------------------------------------- */

/* Rewrites the provisional codes in c's file as final codes. Reads back
** what was just written (it is in the page cache) a block at a time. */
static int sink_codes_remap(sink_col *c, const uint32_t *aRemap, uint64_t nRow,
                            char *zErr, size_t nErr) {
  uint32_t *aBuf = malloc(SINK_REMAP_BLOCK * sizeof(uint32_t));
  int fd = open(c->f.zPath, O_RDONLY | O_CLOEXEC);
  int rc = -1;

  if (aBuf == NULL) {
    sink_oom(zErr, nErr);
    goto out;
  }
  if (fd < 0) {
    snprintf(zErr, nErr, "open %s: %s", c->f.zPath, strerror(errno));
    goto out;
  }
  for (uint64_t i = 0; i < nRow; i += SINK_REMAP_BLOCK) {
    uint64_t n = nRow - i < SINK_REMAP_BLOCK ? nRow - i : SINK_REMAP_BLOCK;
    size_t nByte = (size_t)n * sizeof(uint32_t), nDone = 0;
    off_t iOff = (off_t)(STORE_HEADER_SIZE + i * sizeof(uint32_t));
    while (nDone < nByte) {
      ssize_t k = pread(fd, (char *)aBuf + nDone, nByte - nDone, iOff + (off_t)nDone);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) {
        snprintf(zErr, nErr, "read %s: %s", c->f.zPath, k < 0 ? strerror(errno) : "short file");
        goto out;
      }
      nDone += (size_t)k;
    }
    for (uint64_t j = 0; j < n; j++) aBuf[j] = aRemap[aBuf[j]];
    if (store_file_write_at(&c->f, i, aBuf, n, zErr, nErr) != 0) goto out;
  }
  rc = 0;
out:
  if (fd >= 0) close(fd);
  free(aBuf);
  return rc;
}

/* Sorts a string column's dictionary, writes it, fixes the codes, and
** puts the final per-code counts into c->stats. */
static int sink_col_finish_strings(load_sink *s, int iCol, char *zErr, size_t nErr) {
  sink_col *c = &s->aCol[iCol];
  uint32_t *aRemap = store_strset_sort(&c->strs);
  char zPath[4096];
  int bIdentity = 1, rc = -1;

  if (aRemap == NULL) return sink_oom(zErr, nErr);
  for (uint32_t i = 0; i < c->strs.n && bIdentity; i++) bIdentity = aRemap[i] == i;
  if (!bIdentity && sink_codes_remap(c, aRemap, (uint64_t)s->nRow, zErr, nErr) != 0) goto out;
  cat_file_path(s->pCat, s->t, s->iGen, iCol, STORE_DICT, zPath, sizeof(zPath));
  if (store_strset_write(&c->strs, aRemap, zPath, 1, zErr, nErr) != 0) goto out;
  if (stats_freq_resize(&c->stats, c->strs.n) != 0) {
    sink_oom(zErr, nErr);
    goto out;
  }
  for (uint32_t i = 0; i < c->strs.n; i++) c->stats.aFreq[aRemap[i]] = c->aFreq[i];
  c->stats.nRow = s->nRow;
  c->stats.nNull = c->nNull;
  c->stats.bMinMax = c->strs.n > 0;
  c->stats.min.i = 0;
  c->stats.max.i = c->strs.n > 0 ? (int64_t)c->strs.n - 1 : 0;
  rc = 0;
out:
  free(aRemap);
  return rc;
}

static int sink_col_seal(load_sink *s, int iCol, char *zErr, size_t nErr) {
  sink_col *c = &s->aCol[iCol];
  uint64_t nRow = (uint64_t)s->nRow;

  if (c->bString && sink_col_finish_strings(s, iCol, zErr, nErr) != 0) return -1;
  if (c->bNullable) {
    store_file v;
    char zPath[4096];
    uint64_t nWord = (nRow + 63) / 64;
    if (sink_grow((void **)&c->aValid, &c->nValidWord, (size_t)nWord, sizeof(uint64_t)) != 0) {
      return sink_oom(zErr, nErr);
    }
    cat_file_path(s->pCat, s->t, s->iGen, iCol, STORE_VALIDITY, zPath, sizeof(zPath));
    if (store_file_create(&v, zPath, STORE_VALIDITY, s->t->aCol[iCol].type, zErr, nErr) != 0) {
      return -1;
    }
    if (store_file_write_at(&v, 0, c->aValid, nWord, zErr, nErr) != 0 ||
        store_file_seal(&v, nRow, nWord * 8, 1, zErr, nErr) != 0) {
      store_file_abort(&v);
      return -1;
    }
  }
  c->bOpen = 0;
  if (store_file_seal(&c->f, nRow, nRow * (uint64_t)coltype_width(s->t->aCol[iCol].type), 1,
                      zErr, nErr) != 0) {
    return -1;
  }
  if (s->eCompress == LOAD_COMPRESS_AUTO && s->t->nFkey > 0 &&
      store_for_type_ok(s->t->aCol[iCol].type.eId)) {
    char zPath[4096];
    store_enc eEnc;
    cat_file_path(s->pCat, s->t, s->iGen, iCol, STORE_VALUES, zPath, sizeof(zPath));
    if (store_for_compress(zPath, 1, &eEnc, zErr, nErr) != 0) return -1;
  }
  stats_finish(&c->stats);
  return 0;
}

void load_sink_set_compress(load_sink *s, load_compress eMode) {
  s->eCompress = eMode;
}

int load_compress_parse(const char *z, load_compress *pe) {
  if (strcmp(z, "auto") == 0) *pe = LOAD_COMPRESS_AUTO;
  else if (strcmp(z, "off") == 0) *pe = LOAD_COMPRESS_OFF;
  else return -1;
  return 0;
}

int load_sink_commit(load_sink *s, int64_t *pnRow, char *zErr, size_t nErr) {
  col_stats *aStats = calloc((size_t)s->t->nCol, sizeof(*aStats));
  int rc = -1;

  if (aStats == NULL) {
    sink_oom(zErr, nErr);
    goto out_abort;
  }
  for (int i = 0; i < s->t->nCol; i++) {
    if (sink_col_seal(s, i, zErr, nErr) != 0) goto out_abort;
    aStats[i] = s->aCol[i].stats;     /* a shallow view; the sink owns it */
  }
  if (cat_gen_commit(s->pCat, s->t, s->iGen, s->nRow, aStats, zErr, nErr) != 0) goto out_abort;
  *pnRow = s->nRow;
  rc = 0;
  free(aStats);
  sink_free(s);
  return rc;
out_abort:
  free(aStats);
  load_sink_abort(s);
  return rc;
}

void load_sink_abort(load_sink *s) {
  cat *pCat = s->pCat;
  cat_table *t = s->t;
  int64_t iGen = s->iGen;
  sink_free(s);
  cat_gen_abort(pCat, t, iGen);
}
