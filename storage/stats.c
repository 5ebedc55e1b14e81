/*
** storage/stats.c — per-column statistics (stats.h): counts, min and max,
** a HyperLogLog sketch of the distinct values, and per-code frequencies of
** dictionary columns.
**
** The loader feeds one col_stats per column per batch and merges them; the
** catalog stores the result. What this file decides:
**
**   - Values are read at the width of their type: SMALLINT int16, INTEGER
**     and DATE int32, BIGINT and DECIMAL int64 (min/max in .i); DOUBLE as
**     IEEE-754 (min/max in .r). String columns go through stats_add_codes()
**     instead; stats_add_values() on a string column adds nothing.
**   - NaN is a value, not a NULL: it counts in nRow and in the distinct
**     count (every NaN bit pattern is one value, as PostgreSQL has NaN =
**     NaN), but it never becomes min or max, because an ordered range with
**     a NaN end would make every range estimate meaningless. A column whose
**     only non-NULL values are NaN therefore has bMinMax = 0 although
**     nNull < nRow.
**   - -0.0 and 0.0 are one value: they hash alike, and whichever is seen
**     first stands for both in min/max (they compare equal).
**   - HyperLogLog: 2^14 one-byte registers, indexed by the top 14 bits of a
**     64-bit hash; a register keeps the largest rank (leading zeros + 1 of
**     the remaining 50 bits). The estimate is the standard one of Flajolet
**     et al. with linear counting below 2.5 m; a 64-bit hash needs no
**     large-range correction.
**
** INTERFACE ROUTINES
**   stats_init / stats_free
**   stats_add_values   non-string values with a validity bitmap
**   stats_add_codes    dictionary codes with a validity bitmap
**   stats_freq_resize  grow the per-code counts
**   stats_merge        fold one col_stats into another
**   stats_finish       set nDistinct
**   stats_hash64, stats_hll_add, stats_hll_estimate
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* Rank of an all-zero 50-bit remainder: one more than its width. */
#define STATS_HLL_RANK_MAX (64 - STATS_HLL_BITS + 1)

/* ---- HyperLogLog --------------------------------------------------------- */

/* The splitmix64 step: add the golden-ratio increment (so 0 does not hash
** to 0), then the finaliser of Stafford's variant 13, a bijection whose
** output bits each depend on every input bit. */
uint64_t stats_hash64(uint64_t v) {
  v += 0x9e3779b97f4a7c15ull;
  v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ull;
  v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
  return v ^ (v >> 31);
}

void stats_hll_add(uint8_t *aHll, uint64_t h) {
  uint32_t i = (uint32_t)(h >> (64 - STATS_HLL_BITS));
  uint64_t w = h << STATS_HLL_BITS;
  uint8_t r = w == 0 ? STATS_HLL_RANK_MAX : (uint8_t)(__builtin_clzll(w) + 1);
  if (r > STATS_HLL_RANK_MAX) r = STATS_HLL_RANK_MAX;
  if (r > aHll[i]) aHll[i] = r;
}

double stats_hll_estimate(const uint8_t *aHll) {
  const double m = (double)STATS_HLL_SIZE;
  const double alpha = 0.7213 / (1.0 + 1.079 / m);
  double sum = 0.0, e;
  uint32_t nZero = 0;

  for (uint32_t i = 0; i < STATS_HLL_SIZE; i++) {
    /* Registers cannot exceed 51 (stats_hll_add caps them), but a stored
    ** sketch read back from the catalog might be damaged: clamp. */
    int r = aHll[i] > STATS_HLL_RANK_MAX ? STATS_HLL_RANK_MAX : aHll[i];
    sum += ldexp(1.0, -r);
    nZero += aHll[i] == 0;
  }
  e = alpha * m * m / sum;
  if (e <= 2.5 * m && nZero > 0) e = m * log(m / (double)nZero);
  return e;
}

/* ---- set-up -------------------------------------------------------------- */

int stats_init(col_stats *s, coltype t) {
  memset(s, 0, sizeof(*s));
  s->type = t;
  if (!coltype_is_string(t)) {
    s->aHll = calloc(STATS_HLL_SIZE, 1);
    if (s->aHll == NULL) return -1;
  }
  return 0;
}

void stats_free(col_stats *s) {
  free(s->aHll);
  free(s->aFreq);
  s->aHll = NULL;
  s->aFreq = NULL;
  s->nFreq = 0;
}

int stats_freq_resize(col_stats *s, uint64_t n) {
  uint64_t *a;
  if (n <= s->nFreq) return 0;
  if (n > SIZE_MAX / sizeof(uint64_t)) return -1;
  a = realloc(s->aFreq, (size_t)n * sizeof(uint64_t));
  if (a == NULL) return -1;
  memset(a + s->nFreq, 0, (size_t)(n - s->nFreq) * sizeof(uint64_t));
  s->aFreq = a;
  s->nFreq = n;
  return 0;
}

/* ---- adding values ------------------------------------------------------- */

void stats_add_runs(col_stats *s, const void *aValue, size_t w, const uint64_t *aValid,
                    uint64_t nRow) {
  const unsigned char *p = aValue;
  int bNull = s->bLastNull;
  uint64_t u = s->uLast;
  int64_t n = 0;
  for (uint64_t i = 0; i < nRow; i++) {
    int bN = aValid != NULL && !((aValid[i >> 6] >> (i & 63)) & 1);
    uint64_t x = 0;
    if (!bN) memcpy(&x, p + i * w, w);
    if ((i == 0 && !s->bEdge) || bN != bNull || (!bN && x != u)) n++;
    if (i == 0 && !s->bEdge) {
      s->bFirstNull = bN;
      s->uFirst = x;
    }
    bNull = bN;
    u = x;
  }
  if (nRow == 0) return;
  if (s->nRun >= 0) s->nRun += n;
  s->bEdge = 1;
  s->bLastNull = bNull;
  s->uLast = u;
}

/* Returns whether row i is present under validity bitmap aValid. */
static inline int stats_valid(const uint64_t *aValid, uint64_t i) {
  return aValid == NULL || ((aValid[i >> 6] >> (i & 63)) & 1);
}

/* Adds a run of nRow values, nNull of them NULL, whose non-NULL values
** span lo..hi, to the counts and the integer min and max. */
static void stats_fold_range(col_stats *s, uint64_t nRow, int64_t nNull, int64_t lo,
                             int64_t hi) {
  s->nRow += (int64_t)nRow;
  s->nNull += nNull;
  if ((int64_t)nRow > nNull) {
    if (!s->bMinMax || lo < s->min.i) s->min.i = lo;
    if (!s->bMinMax || hi > s->max.i) s->max.i = hi;
    s->bMinMax = 1;
  }
}

/* The loop over one integer-like width: T is the stored type. Loads go
** through memcpy so an unaligned batch buffer is not undefined behaviour;
** the compiler turns them into plain loads. */
#define STATS_ADD_INTEGERS(T)                                                \
  do {                                                                       \
    const unsigned char *p = aValue;                                         \
    for (uint64_t i = 0; i < nRow; i++) {                                    \
      T x;                                                                   \
      int64_t v;                                                             \
      if (!stats_valid(aValid, i)) {                                         \
        nNull++;                                                             \
        continue;                                                            \
      }                                                                      \
      memcpy(&x, p + i * sizeof(T), sizeof(T));                              \
      v = (int64_t)x;                                                        \
      if (v < lo) lo = v;                                                    \
      if (v > hi) hi = v;                                                    \
      stats_hll_add(s->aHll, stats_hash64((uint64_t)v));                     \
    }                                                                        \
  } while (0)

static void stats_add_integers(col_stats *s, const void *aValue,
                               const uint64_t *aValid, uint64_t nRow) {
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  int64_t nNull = 0;
  switch (s->type.eId) {
    case COLTYPE_SMALLINT: STATS_ADD_INTEGERS(int16_t); break;
    case COLTYPE_INTEGER:
    case COLTYPE_DATE: STATS_ADD_INTEGERS(int32_t); break;
    default: STATS_ADD_INTEGERS(int64_t); break;    /* BIGINT, DECIMAL, timestamps */
  }
  stats_fold_range(s, nRow, nNull, lo, hi);
}

static void stats_add_doubles(col_stats *s, const void *aValue,
                              const uint64_t *aValid, uint64_t nRow) {
  const unsigned char *p = aValue;
  double lo = INFINITY, hi = -INFINITY;
  int bSeen = 0;
  int64_t nNull = 0;
  for (uint64_t i = 0; i < nRow; i++) {
    double x;
    uint64_t bits;
    if (!stats_valid(aValid, i)) {
      nNull++;
      continue;
    }
    memcpy(&x, p + i * 8, 8);
    if (isnan(x)) {
      x = NAN;               /* one NaN for the sketch, whatever its payload */
    } else {
      if (x == 0.0) x = 0.0; /* -0.0 hashes as 0.0 */
      if (!bSeen || x < lo) lo = x;
      if (!bSeen || x > hi) hi = x;
      bSeen = 1;
    }
    memcpy(&bits, &x, 8);
    stats_hll_add(s->aHll, stats_hash64(bits));
  }
  s->nRow += (int64_t)nRow;
  s->nNull += nNull;
  if (bSeen) {
    if (!s->bMinMax || lo < s->min.r) s->min.r = lo;
    if (!s->bMinMax || hi > s->max.r) s->max.r = hi;
    s->bMinMax = 1;
  }
}

void stats_add_values(col_stats *s, const void *aValue, const uint64_t *aValid,
                      uint64_t nRow) {
  if (s->aHll == NULL || nRow == 0) return;
  if (coltype_width(s->type) >= 1 && coltype_width(s->type) <= 8) {
    stats_add_runs(s, aValue, (size_t)coltype_width(s->type), aValid, nRow);
  }
  switch (s->type.eId) {
    case COLTYPE_DOUBLE: stats_add_doubles(s, aValue, aValid, nRow); break;
    case COLTYPE_SMALLINT:
    case COLTYPE_INTEGER:
    case COLTYPE_DATE:
    case COLTYPE_BIGINT:
    case COLTYPE_DECIMAL:
    case COLTYPE_TIMESTAMP:
    case COLTYPE_TIMESTAMPTZ: stats_add_integers(s, aValue, aValid, nRow); break;
    default: break;          /* strings, or no type: nothing to read */
  }
}

void stats_add_codes(col_stats *s, const uint32_t *aCode, const uint64_t *aValid,
                     uint64_t nRow) {
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  int64_t nNull = 0;
  stats_add_runs(s, aCode, sizeof(uint32_t), aValid, nRow);
  for (uint64_t i = 0; i < nRow; i++) {
    uint32_t c;
    if (!stats_valid(aValid, i)) {
      nNull++;
      continue;
    }
    c = aCode[i];
    /* Codes are to be < nFreq (stats.h). One that is not is a caller's
    ** bug; growing beats writing out of bounds, and if even that fails the
    ** row still counts, only its frequency is lost. */
    if (c >= s->nFreq) (void)stats_freq_resize(s, (uint64_t)c + 1);
    if (c < s->nFreq) s->aFreq[c]++;
    if (c < lo) lo = c;
    if (c > hi) hi = c;
  }
  stats_fold_range(s, nRow, nNull, lo, hi);
}

/* ---- merging and finishing ----------------------------------------------- */

int stats_merge(col_stats *dst, const col_stats *src) {
  int bString = coltype_is_string(dst->type);

  if (dst->type.eId != src->type.eId) return -1;
  if (src->nFreq > dst->nFreq && stats_freq_resize(dst, src->nFreq) != 0) return -1;
  if (src->aHll != NULL && dst->aHll == NULL) {
    dst->aHll = calloc(STATS_HLL_SIZE, 1);
    if (dst->aHll == NULL) return -1;
  }

  /* Runs: one that crosses from dst's last row into src's first counts
  ** once; an unknown count on either side leaves the total unknown. */
  if (dst->nRun < 0 || src->nRun < 0) {
    dst->nRun = -1;
  } else {
    int bJoin = dst->bEdge && src->bEdge && dst->bLastNull == src->bFirstNull &&
                (dst->bLastNull || dst->uLast == src->uFirst);
    dst->nRun += src->nRun - (bJoin ? 1 : 0);
  }
  if (src->bEdge) {
    if (!dst->bEdge) {
      dst->bFirstNull = src->bFirstNull;
      dst->uFirst = src->uFirst;
    }
    dst->bEdge = 1;
    dst->bLastNull = src->bLastNull;
    dst->uLast = src->uLast;
  }
  dst->nRow += src->nRow;
  dst->nNull += src->nNull;
  if (src->bMinMax) {
    if (dst->type.eId == COLTYPE_DOUBLE) {
      if (!dst->bMinMax || src->min.r < dst->min.r) dst->min.r = src->min.r;
      if (!dst->bMinMax || src->max.r > dst->max.r) dst->max.r = src->max.r;
    } else {
      if (!dst->bMinMax || src->min.i < dst->min.i) dst->min.i = src->min.i;
      if (!dst->bMinMax || src->max.i > dst->max.i) dst->max.i = src->max.i;
    }
    dst->bMinMax = 1;
  }
  if (src->aHll != NULL) {
    for (uint32_t i = 0; i < STATS_HLL_SIZE; i++) {
      if (src->aHll[i] > dst->aHll[i]) dst->aHll[i] = src->aHll[i];
    }
  }
  for (uint64_t i = 0; i < src->nFreq; i++) dst->aFreq[i] += src->aFreq[i];

  /* Whatever nDistinct said is stale now; stats_finish() recomputes it. */
  dst->nDistinct = 0;
  dst->bExact = bString;
  return 0;
}

void stats_finish(col_stats *s) {
  int64_t nValue = s->nRow - s->nNull;
  if (coltype_is_string(s->type)) {
    int64_t n = 0;
    for (uint64_t i = 0; i < s->nFreq; i++) n += s->aFreq[i] != 0;
    s->nDistinct = n;
    s->bExact = 1;
    return;
  }
  s->bExact = 0;
  if (s->aHll == NULL || nValue <= 0) {
    s->nDistinct = 0;
    return;
  }
  s->nDistinct = llround(stats_hll_estimate(s->aHll));
  /* The sketch can overshoot a small count; it cannot be more than the
  ** values there are, nor less than one when there is any. */
  if (s->nDistinct > nValue) s->nDistinct = nValue;
  if (s->nDistinct < 1) s->nDistinct = 1;
}
