/*
** storage/stats.h — per-column statistics, as the planner reads them from
** the catalog: row count, NULL count, min and max, distinct count (exact
** for dictionary columns, a HyperLogLog estimate otherwise) and, for
** dictionary columns, how often each code occurs, so the selectivity of a
** string predicate is an exact sum over a code range.
**
** A loader keeps one col_stats per column per batch, then merges them in
** batch order; a load that appends merges the table's previous statistics
** in too (that is why the HyperLogLog registers are kept, not just the
** estimate).
*/
#ifndef STARQ_STATS_H
#define STARQ_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "../common/coltype.h"

#define STATS_HLL_BITS 14                   /* 16,384 registers: ~0.8% error */
#define STATS_HLL_SIZE (1u << STATS_HLL_BITS)

/* The statistics of one column. For integer-like types (SMALLINT, INTEGER,
** BIGINT, DECIMAL as its scaled integer, DATE as yyyymmdd) min and max are
** in .i; for DOUBLE in .r; for strings they are codes in .i (always 0 and
** n-1 of the dictionary once final). */
typedef struct col_stats col_stats;
struct col_stats {
  coltype type;
  int64_t nRow;            /* values, NULLs included */
  int64_t nNull;
  int bMinMax;             /* min and max hold a value (a non-NULL was seen) */
  union { int64_t i; double r; } min, max;
  int64_t nDistinct;       /* distinct non-NULL values */
  int bExact;              /* nDistinct is exact (dictionary columns) */
  uint8_t *aHll;           /* STATS_HLL_SIZE registers, owned; NULL for strings */
  uint64_t *aFreq;         /* strings: occurrences of each code, owned */
  uint64_t nFreq;          /* entries in aFreq (the dictionary size) */
  /* Runs of equal adjacent rows in storage order (a NULL equals a NULL):
  ** rows / nRun is how many consecutive rows share a value, which tells
  ** the planner how clustered the rows that pass a filter on it are (SSB's
  ** lineorder keeps an order's ~4 lines together: one date, one customer).
  ** -1: unknown (statistics stored before it was kept). The edges let
  ** batches merge in order: a run that spans two batches counts once. */
  int64_t nRun;
  int bEdge;               /* uFirst and uLast hold rows */
  int bFirstNull, bLastNull;
  uint64_t uFirst, uLast;  /* first and last row's stored bits */
};

/* Sets up empty statistics for a column of type t. Returns 0, or -1 if
** memory ran out. */
int stats_init(col_stats *s, coltype t);
void stats_free(col_stats *s);

/* Adds nRow values of a non-string column (aValue as stored: width of the
** type) with validity bitmap aValid (NULL = none is NULL; else bit i set =
** row i present). Updates nRow, nNull, min, max, the runs and the
** HyperLogLog.
** DOUBLE: a NaN is a value (counted in nRow and once in the distinct
** count, whatever its bits) but never min or max, so a column of only
** NaNs and NULLs has bMinMax 0 with nNull < nRow; -0.0 and 0.0 are one
** value. On a string column (use stats_add_codes) it adds nothing. */
void stats_add_values(col_stats *s, const void *aValue, const uint64_t *aValid,
                      uint64_t nRow);

/* Adds nRow string codes (final codes, < nFreq after stats_freq_resize())
** with validity aValid: counts rows, NULLs, runs and per-code occurrences,
** and keeps the least and greatest code seen in min.i and max.i. */
void stats_add_codes(col_stats *s, const uint32_t *aCode, const uint64_t *aValid,
                     uint64_t nRow);

/* Counts the runs (nRun) of nRow w-byte values (w <= 8; their bits are
** compared: -0.0 and 0.0 are two runs, a statistic can afford it) that
** follow the rows added so far. stats_add_values and stats_add_codes call
** it; a loader that writes provisional string codes (a bijection with the
** final ones) calls it on those. */
void stats_add_runs(col_stats *s, const void *aValue, size_t w, const uint64_t *aValid,
                    uint64_t nRow);

/* Grows aFreq to n entries, new ones zero. Returns 0 or -1. */
int stats_freq_resize(col_stats *s, uint64_t n);

/* Merges src into dst (same type), src's rows coming after dst's in
** storage order. For strings, both aFreq arrays must be over the same,
** final codes. Returns 0, or -1 if the types differ or memory ran out.
** dst's nDistinct is then stale: call stats_finish(). */
int stats_merge(col_stats *dst, const col_stats *src);

/* Sets nDistinct: the HyperLogLog estimate for non-strings, the number of
** codes that occur for strings (exact). Call once all values are in. */
void stats_finish(col_stats *s);

/* HyperLogLog on its own, for tests and for the catalog to rebuild an
** estimate from stored registers. */
uint64_t stats_hash64(uint64_t v);
void stats_hll_add(uint8_t *aHll, uint64_t h);
double stats_hll_estimate(const uint8_t *aHll);

#endif /* STARQ_STATS_H */
