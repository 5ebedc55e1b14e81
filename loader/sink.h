/*
** loader/sink.h — where batches become a table's new generation of column
** files: values appended in row order, string codes merged into each
** column's dictionary, statistics accumulated, and at the end one commit
** (catalog/catalog.h, cat_gen_commit) that makes it all current at once.
**
** A sink serves one load of one table. Batches arrive through
** load_sink_put() one at a time, in row order (the ordered pipeline,
** common/pipeline.h, guarantees both). Until load_sink_commit() returns
** success the table is unchanged; load_sink_abort(), an error, or a crash
** leave the previous generation current and this one is removed (at once,
** or by the next cat_open()).
**
** Strings: each batch brings codes into its own small dictionary. The sink
** interns those strings into the column's dictionary in first-seen order
** ("provisional" codes) and writes provisional codes; the commit sorts the
** dictionary and rewrites the codes file once if the order changed. An
** append starts the dictionary with the table's sorted one, so old codes
** are provisional codes too, and stay valid when no new string sorts
** between old ones.
*/
#ifndef STARQ_LOAD_SINK_H
#define STARQ_LOAD_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "../catalog/catalog.h"
#include "../storage/stats.h"
#include "batch.h"

typedef struct load_sink load_sink;

/* Opens a sink for a new generation of t (which the sink borrows until
** commit or abort). With bAppend the generation starts with t's current
** rows; without, it replaces them. Returns 0 and sets *pp, or -1. */
int load_sink_open(load_sink **pp, cat *pCat, cat_table *t, int bAppend,
                   char *zErr, size_t nErr);

/* Fills aStats (t->nCol entries, set up here with stats_init; the caller
** frees them with stats_free) with the statistics of b's non-string
** columns. Touches nothing shared, so producers call it in parallel. */
int load_batch_stats(const load_batch *b, col_stats *aStats);

/* Appends batch b, whose non-string statistics are aStats (from
** load_batch_stats, computed by the producer: hashing every value into a
** HyperLogLog is the costliest part and must not run in the ordered,
** one-at-a-time section). */
int load_sink_put(load_sink *s, const load_batch *b, const col_stats *aStats,
                  char *zErr, size_t nErr);

/* Seals the generation and commits it with its statistics. Frees s either
** way; on error the table is as before. *pnRow gets the table's row count. */
int load_sink_commit(load_sink *s, int64_t *pnRow, char *zErr, size_t nErr);

/* Drops the generation and frees s. */
void load_sink_abort(load_sink *s);

/* How a sink stores integer-like columns of a fact table (one with a
** foreign key): LOAD_COMPRESS_AUTO rewrites each as FOR-bitpacked
** (storage/colfor.c) at commit when that saves an eighth of its bytes;
** LOAD_COMPRESS_OFF keeps every column plain. Dimension tables always stay
** plain: probes and gathers read them at random, and they are small. */
typedef enum load_compress {
  LOAD_COMPRESS_AUTO = 0,
  LOAD_COMPRESS_OFF = 1
} load_compress;

/* Sets how s stores its columns (LOAD_COMPRESS_AUTO unless called). */
void load_sink_set_compress(load_sink *s, load_compress eMode);

/* Parses "auto" or "off" into *pe; returns 0, or -1 for anything else. */
int load_compress_parse(const char *z, load_compress *pe);

#endif /* STARQ_LOAD_SINK_H */
