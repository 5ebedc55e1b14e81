/*
** tests/test-exec-random.c — a randomized differential test: star queries
** from the generator of randsql.h, each run by starq and by SQLite on SSB
** at SF 0.01 (exectest_check), compared in order where the order is
** total and as sets elsewhere.
**
** CI runs RANDSQL_DEFAULT_QUERIES queries of a fixed seed; consecutive
** queries share their form (randsql.h), so most reuse a compiled module.
** Still, compiling some 150 modules with cc makes it the suite's longest
** test, about 90 s under ASan on an idle 2-core machine (the runner
** starts it first).
**
**   STARQ_RANDOM_QUERIES=N   run N queries instead
**   STARQ_RANDOM_SEED=S      start from seed S
**   STARQ_RANDOM_SF=X        generate SSB at scale X instead of 0.01
**   STARQ_RANDOM_LOG=FILE    write each query, its row count and time to
**                            FILE (the runner keeps a test's own output
**                            only when it fails)
**
** A failure names the seed and the query's index before the SQL; the
** same seed with a count past that index runs it again.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/timer.h"
#include "randsql.h"
#include "test-exec.h"
#include "test.h"

#define RANDSQL_DEFAULT_QUERIES 300
#define RANDSQL_DEFAULT_SEED 20240917ull

static uint64_t rt_env(const char *zName, uint64_t iDefault) {
  const char *z = getenv(zName);
  return z != NULL && *z ? strtoull(z, NULL, 0) : iDefault;
}

TEST_IMPL(exec_random) {
  uint64_t seed = rt_env("STARQ_RANDOM_SEED", RANDSQL_DEFAULT_SEED);
  int nQuery = (int)rt_env("STARQ_RANDOM_QUERIES", RANDSQL_DEFAULT_QUERIES), nNonEmpty = 0;
  const char *zLog = getenv("STARQ_RANDOM_LOG"), *zSf = getenv("STARQ_RANDOM_SF");
  FILE *pLog = NULL;
  exectest t;
  randsql *pGen;
  strbuf sql;
  char zLabel[128], zErr[512];
  exectest_open(&t, zSf != NULL && *zSf ? zSf : "0.01");
  if (randsql_open(refdb_sqlite(t.pRef), &pGen, zErr, sizeof(zErr)) != 0) FAIL("randsql: %s", zErr);
  if (zLog != NULL && *zLog && (pLog = fopen(zLog, "w")) == NULL) FAIL("cannot write %s", zLog);
  strbuf_init(&sql);
  for (int i = 0; i < nQuery; i++) {
    double t0 = timer_now();
    int bOrdered;
    int64_t nRow;
    strbuf_reset(&sql);
    bOrdered = randsql_query(pGen, seed, i, &sql);
    ASSERT(!strbuf_error(&sql));
    snprintf(zLabel, sizeof(zLabel), "STARQ_RANDOM_SEED=%llu, query %d", (unsigned long long)seed, i);
    t.zLabel = zLabel;
    nRow = exectest_check(&t, strbuf_str(&sql), bOrdered);
    nNonEmpty += nRow > 0;
    if (pLog != NULL) {
      fprintf(pLog, "%d (%lld rows, %.2f s): %s\n", i, (long long)nRow, timer_now() - t0,
              strbuf_str(&sql));
    }
  }
  if (pLog != NULL) {
    fprintf(pLog, "%d queries from seed %llu, %d with rows\n", nQuery, (unsigned long long)seed,
            nNonEmpty);
    ASSERT(fclose(pLog) == 0);
  }
  /* the literals are the data's own: most queries must find rows */
  ASSERT_GE(nNonEmpty * 2, nQuery);
  strbuf_free(&sql);
  randsql_free(pGen);
  exectest_close(&t);
  return 0;
}
