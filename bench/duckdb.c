/*
** bench/duckdb.c — the same SQL on DuckDB, the CPU engine starq's issues
** measure themselves against ("at least 20x faster than DuckDB on 16
** cores").
**
** DuckDB is not a build dependency: its shared library is opened at run
** time (dlopen) from the path given, so the benchmark builds on any
** machine and the GPU machine needs only libduckdb.so beside the pack
** (bench/device.sh packs the one from DuckDB's npm package). The few C API
** entry points used are declared here; their result struct is passed by
** pointer only, so its size is all this file assumes (DuckDB's is 48
** bytes, the buffer below is larger).
**
**   duckdb --lib PATH --tbl DIR [--threads N] [--reps R] FILE.sql ...
**
** Loads the five SSB tables from DIR's dbgen-format .tbl files into an
** in-memory database (the definitions from ssb-data/schema.c, so both
** engines see the same names and types), then runs each file's one
** statement R times after a warm-up run and prints its median and best
** milliseconds and its row count. Loading shows each table's time.
*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../catalog/catalog.h"
#include "../common/coltype.h"
#include "../common/fsdir.h"
#include "../common/strbuf.h"
#include "../common/timer.h"
#include "../ssb-data/schema.h"

#define DUCK_REPS_MAX 1000

/* DuckDB's handles are pointers to one-pointer structs; its result is a
** struct filled in place. */
typedef void *duck_db;
typedef void *duck_conn;
typedef struct duck_result duck_result;
struct duck_result {
  _Alignas(16) unsigned char a[256];
};

typedef struct duck_api duck_api;
struct duck_api {
  void *pLib;
  int (*xOpen)(const char *zPath, duck_db *pDb);
  void (*xClose)(duck_db *pDb);
  int (*xConnect)(duck_db db, duck_conn *pConn);
  void (*xDisconnect)(duck_conn *pConn);
  int (*xQuery)(duck_conn conn, const char *zSql, duck_result *pRes);
  const char *(*xResultError)(duck_result *pRes);
  uint64_t (*xRowCount)(duck_result *pRes);
  void (*xDestroyResult)(duck_result *pRes);
};

static int duck_api_load(duck_api *p, const char *zLib) {
  struct { const char *zName; void **pp; } a[] = {
    {"duckdb_open", (void **)&p->xOpen},
    {"duckdb_close", (void **)&p->xClose},
    {"duckdb_connect", (void **)&p->xConnect},
    {"duckdb_disconnect", (void **)&p->xDisconnect},
    {"duckdb_query", (void **)&p->xQuery},
    {"duckdb_result_error", (void **)&p->xResultError},
    {"duckdb_row_count", (void **)&p->xRowCount},
    {"duckdb_destroy_result", (void **)&p->xDestroyResult},
  };
  p->pLib = dlopen(zLib, RTLD_NOW | RTLD_LOCAL);
  if (p->pLib == NULL) {
    fprintf(stderr, "duckdb: %s\n", dlerror());
    return -1;
  }
  for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
    *a[i].pp = dlsym(p->pLib, a[i].zName);
    if (*a[i].pp == NULL) {
      fprintf(stderr, "duckdb: %s has no %s\n", zLib, a[i].zName);
      return -1;
    }
  }
  return 0;
}

/* Runs zSql; on success returns 0 and its row count in *pnRow. */
static int duck_run(duck_api *p, duck_conn c, const char *zSql, uint64_t *pnRow) {
  duck_result r;
  int rc;
  memset(&r, 0, sizeof(r));
  rc = p->xQuery(c, zSql, &r);
  if (rc != 0) {
    const char *z = p->xResultError(&r);
    fprintf(stderr, "duckdb: %s\n  in: %.200s\n", z ? z : "error", zSql);
  } else if (pnRow) {
    *pnRow = p->xRowCount(&r);
  }
  p->xDestroyResult(&r);
  return rc == 0 ? 0 : -1;
}

/* CREATE TABLE for t and the INSERT that reads its .tbl file: dbgen ends
** every line with '|', read as one more column that is dropped, and writes
** dates as yyyymmdd. */
static int duck_table_sql(const cat_table *t, const char *zTbl, strbuf *pCreate,
                          strbuf *pLoad) {
  strbuf_printf(pCreate, "CREATE TABLE \"%s\" (", t->zName);
  strbuf_puts(pLoad, "INSERT INTO \"");
  strbuf_puts(pLoad, t->zName);
  strbuf_puts(pLoad, "\" SELECT ");
  for (int i = 0; i < t->nCol; i++) {
    strbuf_printf(pLoad, "%s\"%s\"", i ? ", " : "", t->aCol[i].zName);
  }
  strbuf_printf(pLoad, " FROM read_csv('%s/%s.tbl', delim = '|', header = false, "
                "auto_detect = false, dateformat = '%%Y%%m%%d', columns = {",
                zTbl, t->zName);
  for (int i = 0; i < t->nCol; i++) {
    char zType[64];
    coltype_format(t->aCol[i].type, zType, sizeof(zType));
    strbuf_printf(pCreate, "%s\"%s\" %s NOT NULL", i ? ", " : "", t->aCol[i].zName, zType);
    strbuf_printf(pLoad, "'%s': '%s', ", t->aCol[i].zName, zType);
  }
  strbuf_puts(pCreate, ")");
  strbuf_puts(pLoad, "'dbgen_end': 'VARCHAR'})");
  return strbuf_error(pCreate) || strbuf_error(pLoad) ? -1 : 0;
}

static int duck_load_ssb(duck_api *p, duck_conn c, const char *zTbl) {
  static const char *const azTable[] = {"date", "supplier", "customer", "part", "lineorder"};
  char zDir[PATH_MAX];
  char zErr[256];
  cat *pCat = NULL;
  int rc = -1;
  snprintf(zDir, sizeof(zDir), "/tmp/starq-duckdb-schema.%d", (int)getpid());
  if (cat_open(&pCat, zDir, zErr, sizeof(zErr)) != 0 ||
      ssb_schema_create(pCat, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "duckdb: the SSB schema: %s\n", zErr);
    goto out;
  }
  for (size_t i = 0; i < sizeof(azTable) / sizeof(azTable[0]); i++) {
    cat_table *t = NULL;
    strbuf create, load;
    uint64_t nRow = 0;
    double t0 = timer_now();
    int rcTable;
    if (cat_table_get(pCat, azTable[i], &t, zErr, sizeof(zErr)) != 0) {
      fprintf(stderr, "duckdb: %s\n", zErr);
      goto out;
    }
    strbuf_init(&create);
    strbuf_init(&load);
    rcTable = duck_table_sql(t, zTbl, &create, &load);
    if (rcTable == 0) rcTable = duck_run(p, c, strbuf_str(&create), NULL);
    if (rcTable == 0) rcTable = duck_run(p, c, strbuf_str(&load), &nRow);
    strbuf_free(&create);
    strbuf_free(&load);
    cat_table_free(t);
    if (rcTable != 0) goto out;
    fprintf(stderr, "duckdb: loaded %s in %.1f s\n", azTable[i], timer_now() - t0);
  }
  rc = 0;
out:
  cat_close(pCat);
  fsdir_remove(zDir);
  return rc;
}

static int duck_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Runs the statement in zPath once to warm up, then nRep times; prints
** one line: the file's name, median and best ms, rows. */
static int duck_bench_file(duck_api *p, duck_conn c, const char *zPath, int nRep) {
  double aMs[DUCK_REPS_MAX];
  uint64_t nRow = 0;
  char *zSql = NULL;
  size_t nSql = 0;
  FILE *f = fopen(zPath, "r");
  const char *zName = strrchr(zPath, '/');
  if (f == NULL) {
    fprintf(stderr, "duckdb: cannot open %s\n", zPath);
    return -1;
  }
  if (getdelim(&zSql, &nSql, '\0', f) < 0) {
    fprintf(stderr, "duckdb: cannot read %s\n", zPath);
    fclose(f);
    free(zSql);
    return -1;
  }
  fclose(f);
  zName = zName ? zName + 1 : zPath;
  if (duck_run(p, c, zSql, &nRow) != 0) {
    printf("%-24s error\n", zName);
    free(zSql);
    return -1;
  }
  for (int i = 0; i < nRep; i++) {
    double t0 = timer_now();
    if (duck_run(p, c, zSql, NULL) != 0) {
      free(zSql);
      return -1;
    }
    aMs[i] = (timer_now() - t0) * 1e3;
  }
  qsort(aMs, (size_t)nRep, sizeof(aMs[0]), duck_cmp);
  printf("%-24s %10.2f %10.2f %8llu\n", zName, aMs[nRep / 2], aMs[0],
         (unsigned long long)nRow);
  fflush(stdout);
  free(zSql);
  return 0;
}

static void duck_usage(void) {
  fprintf(stderr, "usage: duckdb --lib PATH --tbl DIR [--threads N] [--reps R] FILE.sql ...\n");
}

int main(int argc, char **argv) {
  const char *zLib = NULL, *zTbl = NULL;
  int nThread = 16, nRep = 5, iArg = 1, nFail = 0;
  duck_api api;
  duck_db db = NULL;
  duck_conn conn = NULL;
  char zSet[64];
  for (; iArg < argc && strncmp(argv[iArg], "--", 2) == 0; iArg += 2) {
    const char *zOpt = argv[iArg], *zVal = iArg + 1 < argc ? argv[iArg + 1] : NULL;
    if (zVal == NULL) break;
    if (strcmp(zOpt, "--lib") == 0) zLib = zVal;
    else if (strcmp(zOpt, "--tbl") == 0) zTbl = zVal;
    else if (strcmp(zOpt, "--threads") == 0) nThread = atoi(zVal);
    else if (strcmp(zOpt, "--reps") == 0) nRep = atoi(zVal);
    else break;
  }
  if (zLib == NULL || zTbl == NULL || iArg >= argc || nThread < 1 || nRep < 1 ||
      nRep > DUCK_REPS_MAX || strncmp(argv[iArg], "--", 2) == 0) {
    duck_usage();
    return 2;
  }
  memset(&api, 0, sizeof(api));
  if (duck_api_load(&api, zLib) != 0) return 1;
  if (api.xOpen(NULL, &db) != 0 || api.xConnect(db, &conn) != 0) {
    fprintf(stderr, "duckdb: cannot open an in-memory database\n");
    return 1;
  }
  snprintf(zSet, sizeof(zSet), "SET threads = %d", nThread);
  if (duck_run(&api, conn, zSet, NULL) != 0 || duck_load_ssb(&api, conn, zTbl) != 0) {
    nFail = 1;
    goto out;
  }
  printf("DuckDB, %d threads, median of %d runs after a warm-up\n", nThread, nRep);
  printf("%-24s %10s %10s %8s\n", "query", "median ms", "best ms", "rows");
  for (; iArg < argc; iArg++) {
    if (duck_bench_file(&api, conn, argv[iArg], nRep) != 0) nFail++;
  }
out:
  api.xDisconnect(&conn);
  api.xClose(&db);
  return nFail ? 1 : 0;
}
