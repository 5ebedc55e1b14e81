/*
** clients/bench/args.c — starq-bench's command line and the query files it
** names. Flags are checked here, whole values only ("--reps 2x" is
** refused), and combinations that mean nothing (--duration without
** --clients) are refused before anything connects. The queries are read
** here too, so that a missing file is reported before the server is
** touched.
**
** INTERFACE ROUTINES
**   bench_args_parse, bench_args_free     argv to bench_args
**   bench_queries_load, bench_queries_free   the SQL files to run
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/cli.h"
#include "bench.h"

static const char args_zUsage[] =
    "usage: starq-bench [options] [FILE.sql | DIR ...]\n"
    "\n"
    "Runs SQL files against a running starqd and reports their times beside\n"
    "the physical floors (fact bytes over the server's PCIe and device-memory\n"
    "bandwidth). Default queries: the 13 SSB queries in ssb-data/queries.\n"
    "\n"
    "Connection (as psql; PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD apply):\n"
    "  -h, --host HOST       server host (default 127.0.0.1)\n"
    "  -p, --port PORT       server port (default 5433)\n"
    "  -U, --username USER   user (default starq)\n"
    "  -d, --dbname DB       database (default starq)\n"
    "  --session SQL         run SQL on every connection first (repeatable),\n"
    "                        e.g. --session \"SET starq.resident = off\"\n"
    "\n"
    "Runs:\n"
    "  --queries DIR         the *.sql files of DIR, when no FILE or DIR is given\n"
    "  --warmup N            untimed runs of each query first (default 1)\n"
    "  --reps N              timed runs of each query (default 5); with\n"
    "                        --clients, rounds of the whole set per client\n"
    "  --clients C           a concurrent mix: C connections, each running the\n"
    "                        set in its own shuffled order; reports throughput\n"
    "                        and latency percentiles\n"
    "  --duration S          with --clients: run for S seconds, not --reps rounds\n"
    "  --seed N              with --clients: the shuffles' seed (default 1)\n"
    "\n"
    "Results:\n"
    "  --verify DIR          compare each result with DIR/NAME.out; a difference\n"
    "                        fails the run (exit 1) naming the query and row\n"
    "  --write-expected DIR  write each query's result to DIR/NAME.out\n"
    "\n"
    "Output:\n"
    "  --format FMT          table (default: aligned Markdown), csv or json\n"
    "  --svg FILE            also draw the per-query times and floors as SVG\n"
    "  -q, --quiet           no progress on stderr\n"
    "  --help                this text\n"
    "\n"
    "Exit codes: 0 all ran, 1 bad usage, a failed query or a wrong answer,\n"
    "2 the server could not be reached.\n";

static const cli_prog args_prog = {"starq-bench", args_zUsage};

enum {
  ARGS_QUERIES = 256,
  ARGS_WARMUP,
  ARGS_REPS,
  ARGS_CLIENTS,
  ARGS_DURATION,
  ARGS_SEED,
  ARGS_SESSION,
  ARGS_FORMAT,
  ARGS_SVG,
  ARGS_VERIFY,
  ARGS_WRITE_EXPECTED,
  ARGS_HELP,
};

static const struct option args_aOpt[] = {
    {"host", required_argument, NULL, 'h'},
    {"port", required_argument, NULL, 'p'},
    {"username", required_argument, NULL, 'U'},
    {"dbname", required_argument, NULL, 'd'},
    {"quiet", no_argument, NULL, 'q'},
    {"queries", required_argument, NULL, ARGS_QUERIES},
    {"warmup", required_argument, NULL, ARGS_WARMUP},
    {"reps", required_argument, NULL, ARGS_REPS},
    {"clients", required_argument, NULL, ARGS_CLIENTS},
    {"duration", required_argument, NULL, ARGS_DURATION},
    {"seed", required_argument, NULL, ARGS_SEED},
    {"session", required_argument, NULL, ARGS_SESSION},
    {"format", required_argument, NULL, ARGS_FORMAT},
    {"svg", required_argument, NULL, ARGS_SVG},
    {"verify", required_argument, NULL, ARGS_VERIFY},
    {"write-expected", required_argument, NULL, ARGS_WRITE_EXPECTED},
    {"help", no_argument, NULL, ARGS_HELP},
    {NULL, 0, NULL, 0},
};

/* Prints the usage error and returns -1, the parser's failure. */
#define ARGS_FAIL(...) (cli_usage_error(&args_prog, __VA_ARGS__), -1)

/* Parses an integer flag value in [lo, hi] into *pi. Returns 0, or -1
** having said why. */
static int args_int(const char *zFlag, const char *z, uint64_t lo, uint64_t hi, int *pi) {
  uint64_t v;
  if (cli_parse_range(z, lo, hi, &v) != 0) {
    return ARGS_FAIL("%s: expected an integer from %llu to %llu, not \"%s\"", zFlag, (unsigned long long)lo,
                     (unsigned long long)hi, z);
  }
  *pi = (int)v;
  return 0;
}

/* Appends z to the growable array *pa of *pn strings. Returns 0, or -1
** if memory ran out. */
static int args_push(const char ***pa, int *pn, const char *z) {
  const char **a = realloc(*pa, (size_t)(*pn + 1) * sizeof(*a));
  if (a == NULL) return -1;
  a[(*pn)++] = z;
  *pa = a;
  return 0;
}

/* Handles one option c with value z. Returns 0, 1 for --help, or -1. */
static int args_one(bench_args *p, int c, const char *z) {
  int v;
  switch (c) {
    case 'h': p->zHost = z; break;
    case 'p':
      if (args_int("--port", z, 1, 65535, &v) != 0) return -1;
      p->zPort = z;
      break;
    case 'U': p->zUser = z; break;
    case 'd': p->zDb = z; break;
    case 'q': p->bQuiet = 1; break;
    case ARGS_QUERIES: p->zQueries = z; break;
    case ARGS_WARMUP: return args_int("--warmup", z, 0, 1000000, &p->nWarmup);
    case ARGS_REPS: return args_int("--reps", z, 1, 1000000, &p->nReps);
    case ARGS_CLIENTS: return args_int("--clients", z, 1, 1024, &p->nClients);
    case ARGS_DURATION:
      if (cli_parse_double(z, &p->rDuration) != 0 || p->rDuration <= 0 || p->rDuration > 86400 * 7) {
        return ARGS_FAIL("--duration: expected seconds, more than 0 and at most a week, not \"%s\"", z);
      }
      break;
    case ARGS_SEED:
      if (cli_parse_u64(z, &p->iSeed) != 0) return ARGS_FAIL("--seed: expected an integer, not \"%s\"", z);
      break;
    case ARGS_SESSION:
      if (args_push(&p->azSession, &p->nSession, z) != 0) return ARGS_FAIL("out of memory");
      break;
    case ARGS_FORMAT:
      if (strcmp(z, "table") == 0) p->eFormat = BENCH_FORMAT_TABLE;
      else if (strcmp(z, "csv") == 0) p->eFormat = BENCH_FORMAT_CSV;
      else if (strcmp(z, "json") == 0) p->eFormat = BENCH_FORMAT_JSON;
      else return ARGS_FAIL("--format: expected table, csv or json, not \"%s\"", z);
      break;
    case ARGS_SVG: p->zSvg = z; break;
    case ARGS_VERIFY: p->zVerify = z; break;
    case ARGS_WRITE_EXPECTED: p->zWriteExpected = z; break;
    case ARGS_HELP: fputs(args_zUsage, stdout); return 1;
    default: return ARGS_FAIL("unexpected option");
  }
  return 0;
}

int bench_args_parse(bench_args *p, int argc, char **argv, int *pbExit) {
  int c, rc;
  memset(p, 0, sizeof(*p));
  p->nWarmup = 1;
  p->nReps = 5;
  p->iSeed = 1;
  *pbExit = 0;
  opterr = 0;   /* the messages are ours, in the house style */
  optind = 1;
  while ((c = getopt_long(argc, argv, ":h:p:U:d:q", args_aOpt, NULL)) != -1) {
    if (c == '?') {
      if (optopt != 0) return ARGS_FAIL("unknown flag \"-%c\"", optopt);
      return ARGS_FAIL("unknown flag \"%s\"", argv[optind - 1]);
    }
    if (c == ':') return ARGS_FAIL("%s needs a value", argv[optind - 1]);
    rc = args_one(p, c, optarg);
    if (rc == 1) *pbExit = 1;
    if (rc != 0) return rc;
  }
  for (int i = optind; i < argc; i++) {
    if (args_push(&p->azInput, &p->nInput, argv[i]) != 0) return ARGS_FAIL("out of memory");
  }
  if (p->rDuration > 0 && p->nClients == 0) return ARGS_FAIL("--duration needs --clients");
  if (p->nClients > 0 && p->zSvg != NULL) {
    return ARGS_FAIL("--svg charts the single-client run; leave out --clients");
  }
  if (p->nClients > 0 && p->zWriteExpected != NULL) {
    return ARGS_FAIL("--write-expected writes from the single-client run; leave out --clients");
  }
  if (p->zQueries != NULL && p->nInput > 0) return ARGS_FAIL("--queries and query files: give one or the other");
  return 0;
}

void bench_args_free(bench_args *p) {
  free(p->azSession);
  free(p->azInput);
  p->azSession = NULL;
  p->azInput = NULL;
}

/* ---- query files ---------------------------------------------------------- */

/* Reads the file zPath whole into *pz (malloc'd, NUL-terminated). Returns
** 0, or -1 with zErr. */
static int args_file_read(const char *zPath, char **pz, char *zErr, size_t nErr) {
  FILE *f = fopen(zPath, "rb");
  strbuf s;
  char aBuf[8192];
  size_t n;
  if (f == NULL) {
    snprintf(zErr, nErr, "cannot open %s: %s", zPath, strerror(errno));
    return -1;
  }
  strbuf_init(&s);
  while ((n = fread(aBuf, 1, sizeof(aBuf), f)) > 0) strbuf_append(&s, aBuf, n);
  if (ferror(f) || strbuf_error(&s)) {
    snprintf(zErr, nErr, "cannot read %s: %s", zPath, ferror(f) ? strerror(errno) : "out of memory");
    fclose(f);
    strbuf_free(&s);
    return -1;
  }
  fclose(f);
  if (memchr(strbuf_str(&s), 0, s.n) != NULL) {
    snprintf(zErr, nErr, "%s: not SQL text (it holds a NUL byte)", zPath);
    strbuf_free(&s);
    return -1;
  }
  *pz = strbuf_take(&s);
  if (*pz == NULL) *pz = strdup("");
  return *pz != NULL ? 0 : (snprintf(zErr, nErr, "out of memory"), -1);
}

/* The growing list of queries while they are collected. */
typedef struct args_list args_list;
struct args_list {
  bench_query *a;
  int n, nAlloc;
};

/* Reads the SQL file zPath and appends it to pL. Returns 0, or -1 with
** zErr. */
static int args_query_add(args_list *pL, const char *zPath, char *zErr, size_t nErr) {
  const char *zBase = strrchr(zPath, '/');
  size_t nBase;
  bench_query *q;
  zBase = zBase != NULL ? zBase + 1 : zPath;
  nBase = strlen(zBase);
  if (nBase > 4 && strcmp(zBase + nBase - 4, ".sql") == 0) nBase -= 4;
  for (int i = 0; i < pL->n; i++) {
    if (strlen(pL->a[i].zName) == nBase && memcmp(pL->a[i].zName, zBase, nBase) == 0) {
      snprintf(zErr, nErr, "two queries named %.*s: %s and %s", (int)nBase, zBase, pL->a[i].zPath, zPath);
      return -1;
    }
  }
  if (pL->n == pL->nAlloc) {
    int nNew = pL->nAlloc ? 2 * pL->nAlloc : 16;
    bench_query *a = realloc(pL->a, (size_t)nNew * sizeof(*a));
    if (a == NULL) {
      snprintf(zErr, nErr, "out of memory");
      return -1;
    }
    pL->a = a;
    pL->nAlloc = nNew;
  }
  q = &pL->a[pL->n];
  memset(q, 0, sizeof(*q));
  q->zName = strndup(zBase, nBase);
  q->zPath = strdup(zPath);
  if (q->zName == NULL || q->zPath == NULL) {
    free(q->zName);
    free(q->zPath);
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  if (args_file_read(zPath, &q->zSql, zErr, nErr) != 0) {
    free(q->zName);
    free(q->zPath);
    return -1;
  }
  q->bOrdered = bench_sql_ordered(q->zSql);
  pL->n++;
  return 0;
}

/* Keeps the directory entries named *.sql. */
static int args_is_sql(const struct dirent *e) {
  size_t n = strlen(e->d_name);
  return n > 4 && e->d_name[0] != '.' && strcmp(e->d_name + n - 4, ".sql") == 0;
}

/* Appends every *.sql of the directory zDir, by name. Returns 0, or -1
** with zErr. */
static int args_dir_add(args_list *pL, const char *zDir, char *zErr, size_t nErr) {
  struct dirent **aE;
  int nE = scandir(zDir, &aE, args_is_sql, alphasort), rc = 0;
  if (nE < 0) {
    snprintf(zErr, nErr, "cannot read %s: %s", zDir, strerror(errno));
    return -1;
  }
  if (nE == 0) {
    snprintf(zErr, nErr, "%s holds no .sql files", zDir);
    rc = -1;
  }
  for (int i = 0; i < nE; i++) {
    char zPath[4096];
    if (rc == 0) {
      if ((size_t)snprintf(zPath, sizeof(zPath), "%s/%s", zDir, aE[i]->d_name) >= sizeof(zPath)) {
        snprintf(zErr, nErr, "%s/%s: path too long", zDir, aE[i]->d_name);
        rc = -1;
      } else {
        rc = args_query_add(pL, zPath, zErr, nErr);
      }
    }
    free(aE[i]);
  }
  free(aE);
  return rc;
}

/* Appends zPath: a directory's *.sql, or the file itself. Returns 0, or -1
** with zErr. */
static int args_input_add(args_list *pL, const char *zPath, char *zErr, size_t nErr) {
  struct stat st;
  if (stat(zPath, &st) != 0) {
    snprintf(zErr, nErr, "cannot open %s: %s", zPath, strerror(errno));
    return -1;
  }
  return S_ISDIR(st.st_mode) ? args_dir_add(pL, zPath, zErr, nErr) : args_query_add(pL, zPath, zErr, nErr);
}

/* Finds the SSB queries: ssb-data/queries beside the folder of the
** executable (bin/starq-bench in a built tree), else below the current
** directory. Writes the path to z. Returns 0, or -1. */
static int args_default_dir(char *z, size_t n) {
  char zExe[4096];
  struct stat st;
  ssize_t nExe = readlink("/proc/self/exe", zExe, sizeof(zExe) - 1);
  if (nExe > 0) {
    zExe[nExe] = 0;
    /* dirname() may write into its argument: exe -> bin -> the tree */
    snprintf(z, n, "%s/ssb-data/queries", dirname(dirname(zExe)));
    if (stat(z, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
  }
  snprintf(z, n, "ssb-data/queries");
  return stat(z, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

int bench_queries_load(const bench_args *p, bench_query **paQ, int *pnQ, char *zErr, size_t nErr) {
  args_list l = {NULL, 0, 0};
  int rc = 0;
  if (p->nInput > 0) {
    for (int i = 0; rc == 0 && i < p->nInput; i++) rc = args_input_add(&l, p->azInput[i], zErr, nErr);
  } else if (p->zQueries != NULL) {
    rc = args_dir_add(&l, p->zQueries, zErr, nErr);
  } else {
    char zDir[4200];
    if (args_default_dir(zDir, sizeof(zDir)) != 0) {
      snprintf(zErr, nErr,
               "no queries given, and ssb-data/queries is neither beside the program nor here "
               "(name SQL files or use --queries DIR)");
      rc = -1;
    } else {
      rc = args_dir_add(&l, zDir, zErr, nErr);
    }
  }
  if (rc != 0) {
    bench_queries_free(l.a, l.n);
    return -1;
  }
  *paQ = l.a;
  *pnQ = l.n;
  return 0;
}

void bench_queries_free(bench_query *aQ, int nQ) {
  for (int i = 0; i < nQ; i++) {
    free(aQ[i].zName);
    free(aQ[i].zPath);
    free(aQ[i].zSql);
    bench_answer_free(aQ[i].pExpect);
  }
  free(aQ);
}
