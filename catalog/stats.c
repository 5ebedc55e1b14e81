/*
** catalog/stats.c — column statistics (storage/stats.h) to and from rows
** of column_stats. What the numbers mean and how they are computed is
** storage/stats.c's business; this file only stores them faithfully.
**
**   min_value, max_value  INTEGER for integer-like types and string codes,
**                         REAL for DOUBLE, NULL while no value was seen
**                         (a NaN min or max, which SQLite stores as NULL,
**                         reads back as NaN since has_minmax says 1)
**   hll                   the STATS_HLL_SIZE HyperLogLog registers, kept so
**                         that a load which appends can merge into them;
**                         non-string columns only
**   freq                  string columns: nFreq counts, little-endian u64
**                         each, in code order
**   run_count             nRun; NULL when unknown (-1)
**
** INTERFACE ROUTINES
**   cat_stats_get
**   cat__stats_insert (catalogInt.h)
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalogInt.h"

const char cat__zStatsInsert[] =
    "INSERT INTO column_stats(table_id, ordinal, row_count, null_count, has_minmax,"
    " min_value, max_value, distinct_count, exact, hll, freq, run_count)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";

/* Binds min or max v of a column of type t. */
static void stats_bind_bound(sqlite3_stmt *pStmt, int iParam, coltype t, const col_stats *s,
                             int bMax, int *pRc) {
  if (*pRc != SQLITE_OK) return;
  if (!s->bMinMax) {
    *pRc = sqlite3_bind_null(pStmt, iParam);
  } else if (t.eId == COLTYPE_DOUBLE) {
    *pRc = sqlite3_bind_double(pStmt, iParam, bMax ? s->max.r : s->min.r);
  } else {
    *pRc = sqlite3_bind_int64(pStmt, iParam, (sqlite3_int64)(bMax ? s->max.i : s->min.i));
  }
}

/* Binds the frequencies of a string column as little-endian u64s. The
** buffer passes to SQLite, which frees it (also when the bind fails). */
static void stats_bind_freq(sqlite3_stmt *pStmt, int iParam, const col_stats *s, int *pRc) {
  unsigned char *a;
  if (*pRc != SQLITE_OK) return;
  if (s->nFreq == 0) {
    *pRc = sqlite3_bind_zeroblob(pStmt, iParam, 0);
    return;
  }
  if (s->nFreq > SIZE_MAX / 8 || (a = malloc((size_t)s->nFreq * 8)) == NULL) {
    *pRc = SQLITE_NOMEM;
    return;
  }
  for (uint64_t i = 0; i < s->nFreq; i++) {
    for (int b = 0; b < 8; b++) a[i * 8 + (uint64_t)b] = (unsigned char)(s->aFreq[i] >> (8 * b));
  }
  *pRc = sqlite3_bind_blob64(pStmt, iParam, a, (sqlite3_uint64)s->nFreq * 8, free);
}

int cat__stats_insert(cat *pCat, sqlite3_stmt *pIns, int64_t iTable, int iCol,
                      const col_stats *s, char *zErr, size_t nErr) {
  int rc = SQLITE_OK, bString = coltype_is_string(s->type);

  cat__bind_int64(pIns, 1, iTable, &rc);
  cat__bind_int64(pIns, 2, iCol, &rc);
  cat__bind_int64(pIns, 3, s->nRow, &rc);
  cat__bind_int64(pIns, 4, s->nNull, &rc);
  cat__bind_int64(pIns, 5, s->bMinMax != 0, &rc);
  stats_bind_bound(pIns, 6, s->type, s, 0, &rc);
  stats_bind_bound(pIns, 7, s->type, s, 1, &rc);
  cat__bind_int64(pIns, 8, s->nDistinct, &rc);
  cat__bind_int64(pIns, 9, s->bExact != 0, &rc);
  if (!bString && s->aHll != NULL) {
    /* STATIC: s outlives the statement's use of it (reset below). */
    if (rc == SQLITE_OK) rc = sqlite3_bind_blob(pIns, 10, s->aHll, STATS_HLL_SIZE, SQLITE_STATIC);
  } else {
    cat__bind_null(pIns, 10, &rc);
  }
  if (bString) {
    stats_bind_freq(pIns, 11, s, &rc);
  } else {
    cat__bind_null(pIns, 11, &rc);
  }
  if (s->nRun >= 0 && s->nRun <= s->nRow) {
    cat__bind_int64(pIns, 12, s->nRun, &rc);
  } else {
    cat__bind_null(pIns, 12, &rc);
  }
  return cat__run_bound(pCat, pIns, rc, zErr, nErr);
}

/* ---- reading -------------------------------------------------------------- */

/* The columns of the statement cat_stats_get() reads. */
enum {
  STATS_TYPE_ID, STATS_TYPE_LENGTH, STATS_TYPE_PRECISION, STATS_TYPE_SCALE,
  STATS_PRESENT, STATS_ROW_COUNT, STATS_NULL_COUNT, STATS_HAS_MINMAX, STATS_MIN, STATS_MAX,
  STATS_DISTINCT, STATS_EXACT, STATS_HLL, STATS_FREQ, STATS_RUN_COUNT
};

/* Reads min or max from result column iCol into *pv. Returns 0, or -1 if
** its storage class does not fit the type. */
static int stats_read_bound(sqlite3_stmt *pStmt, int iCol, coltype t, int64_t *pi, double *pr) {
  int eType = sqlite3_column_type(pStmt, iCol);
  if (t.eId == COLTYPE_DOUBLE) {
    if (eType == SQLITE_NULL) {
      *pr = NAN;
    } else if (eType == SQLITE_FLOAT) {
      *pr = sqlite3_column_double(pStmt, iCol);
    } else {
      return -1;
    }
    return 0;
  }
  if (eType != SQLITE_INTEGER) return -1;
  *pi = (int64_t)sqlite3_column_int64(pStmt, iCol);
  return 0;
}

/* Fills s (initialised for its type) from the row pStmt stands on.
** Returns 0, -1 with zWhy saying what does not fit, or -2 if memory ran
** out. */
static int stats_decode(sqlite3_stmt *pStmt, col_stats *s, char *zWhy, size_t nWhy) {
  int bString = coltype_is_string(s->type);

  s->nRow = sqlite3_column_int64(pStmt, STATS_ROW_COUNT);
  s->nNull = sqlite3_column_int64(pStmt, STATS_NULL_COUNT);
  s->bMinMax = sqlite3_column_int(pStmt, STATS_HAS_MINMAX);
  s->nDistinct = sqlite3_column_int64(pStmt, STATS_DISTINCT);
  s->bExact = sqlite3_column_int(pStmt, STATS_EXACT);
  /* No edges are stored: a load that appends adds its runs to these. */
  s->nRun = sqlite3_column_type(pStmt, STATS_RUN_COUNT) == SQLITE_NULL
                ? -1 : sqlite3_column_int64(pStmt, STATS_RUN_COUNT);
  if (s->bMinMax) {
    if (stats_read_bound(pStmt, STATS_MIN, s->type, &s->min.i, &s->min.r) != 0 ||
        stats_read_bound(pStmt, STATS_MAX, s->type, &s->max.i, &s->max.r) != 0) {
      snprintf(zWhy, nWhy, "min or max is not of the column's type");
      return -1;
    }
  }

  if (!bString && sqlite3_column_type(pStmt, STATS_HLL) != SQLITE_NULL) {
    const void *a = sqlite3_column_blob(pStmt, STATS_HLL);
    int n = sqlite3_column_bytes(pStmt, STATS_HLL);
    if (n != (int)STATS_HLL_SIZE || a == NULL || s->aHll == NULL) {
      snprintf(zWhy, nWhy, "HyperLogLog registers are %d bytes, not %u", n,
               (unsigned)STATS_HLL_SIZE);
      return -1;
    }
    memcpy(s->aHll, a, STATS_HLL_SIZE);
  }

  if (bString && sqlite3_column_type(pStmt, STATS_FREQ) != SQLITE_NULL) {
    const unsigned char *a = sqlite3_column_blob(pStmt, STATS_FREQ);
    int n = sqlite3_column_bytes(pStmt, STATS_FREQ);
    uint64_t nFreq = (uint64_t)n / 8;
    if (n % 8 != 0 || (n > 0 && a == NULL)) {
      snprintf(zWhy, nWhy, "frequencies are %d bytes, not a multiple of 8", n);
      return -1;
    }
    if (nFreq > 0 && stats_freq_resize(s, nFreq) != 0) return -2;
    for (uint64_t i = 0; i < nFreq; i++) {
      uint64_t v = 0;
      for (int b = 7; b >= 0; b--) v = (v << 8) | a[i * 8 + (uint64_t)b];
      s->aFreq[i] = v;
    }
  }
  return 0;
}

int cat_stats_get(cat *pCat, int64_t iTable, int iCol, col_stats *s,
                  char *zErr, size_t nErr) {
  static const char zSql[] =
      "SELECT c.type_id, c.type_length, c.type_precision, c.type_scale,"
      " s.table_id IS NOT NULL, s.row_count, s.null_count, s.has_minmax, s.min_value,"
      " s.max_value, s.distinct_count, s.exact, s.hll, s.freq, s.run_count"
      " FROM columns c LEFT JOIN column_stats s"
      " ON s.table_id = c.table_id AND s.ordinal = c.ordinal"
      " WHERE c.table_id = ?1 AND c.ordinal = ?2";
  sqlite3_stmt *pStmt;
  coltype type;
  char zWhy[128];
  int r, rc = SQLITE_OK;

  /* Safe for stats_free() whatever happens below. */
  memset(s, 0, sizeof(*s));
  if (cat__cache_check(pCat, zErr, nErr) != 0) return -1;
  if ((r = cat__stats_cache_get(pCat, iTable, iCol, s)) != 0) {
    return r > 0 ? 0 : cat__oom(zErr, nErr);
  }
  if (cat__prepare(pCat, zSql, &pStmt, zErr, nErr) != 0) return -1;
  cat__bind_int64(pStmt, 1, iTable, &rc);
  cat__bind_int64(pStmt, 2, iCol, &rc);
  if (rc != SQLITE_OK) {
    cat__error(pCat, "bind", zErr, nErr);
    goto out_finalize;
  }
  if ((r = cat__step(pCat, pStmt, zErr, nErr)) < 0) goto out_finalize;
  if (r == SQLITE_DONE) {
    snprintf(zErr, nErr, "table id %lld has no column %d", (long long)iTable, iCol);
    goto out_finalize;
  }
  type.eId = (coltype_id)sqlite3_column_int(pStmt, STATS_TYPE_ID);
  type.nLength = sqlite3_column_int(pStmt, STATS_TYPE_LENGTH);
  type.nPrecision = sqlite3_column_int(pStmt, STATS_TYPE_PRECISION);
  type.nScale = sqlite3_column_int(pStmt, STATS_TYPE_SCALE);
  if (stats_init(s, type) != 0) {
    cat__oom(zErr, nErr);
    goto out_free;
  }
  /* No row: the table has no data yet, and empty statistics say so. */
  if (sqlite3_column_int(pStmt, STATS_PRESENT) &&
      (r = stats_decode(pStmt, s, zWhy, sizeof(zWhy))) != 0) {
    if (r == -2) {
      cat__oom(zErr, nErr);
    } else {
      snprintf(zErr, nErr,
               "catalog %s is damaged: statistics of column %d of table id %lld: %s",
               pCat->zDbPath, iCol, (long long)iTable, zWhy);
    }
    goto out_free;
  }
  sqlite3_finalize(pStmt);
  cat__stats_cache_put(pCat, iTable, iCol, s);
  return 0;
out_free:
  stats_free(s);
out_finalize:
  sqlite3_finalize(pStmt);
  return -1;
}
