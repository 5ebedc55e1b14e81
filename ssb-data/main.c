/*
** ssb-data/main.c — starq-gen, the SSB data generator's command line.
**
**   starq-gen --sf SF --out DIR [--format tbl|store] [--threads N]
**             [--seed N] [--quiet]
**
** Exit codes: 0 done, 1 the generation failed (nothing half-written is left
** under a final name), 2 bad usage.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/progress.h"
#include "../common/timer.h"
#include "ssb.h"
#include "writer.h"

#define MAIN_THREAD_MAX 1024

static const char main_zUsage[] =
  "usage: starq-gen --sf SF --out DIR [options]\n"
  "\n"
  "Generates Star Schema Benchmark data: date, supplier, customer, part\n"
  "and lineorder.\n"
  "\n"
  "  --sf SF         scale factor, 0.01 to 100000 (SF 1 = 6M lineorder rows)\n"
  "  --out DIR       output directory, created if missing\n"
  "  --format FMT    tbl: dbgen-format .tbl files (the default)\n"
  "                  store: straight into the column store; DIR is then a\n"
  "                  data directory, the SSB tables are created there if\n"
  "                  missing and their data replaced\n"
  "  --threads N     worker threads, 1 to 1024 (default: all cores)\n"
  "  --seed N        random seed, 0 to 2^64-1 (default 1); the same SF and\n"
  "                  seed give byte-identical files for any --threads\n"
  "  -q, --quiet     no progress line and no summary\n"
  "  --help          this text\n";

/* Prints "starq-gen: <message>" and the usage to stderr; returns 2. */
static int main_usage_error(const char *zFmt, const char *zArg) {
  fprintf(stderr, "starq-gen: ");
  fprintf(stderr, zFmt, zArg);
  fprintf(stderr, "\n\n%s", main_zUsage);
  return 2;
}

/* Parses all of z as a number; returns 0 on success. */
static int main_parse_double(const char *z, double *pr) {
  char *zEnd;
  errno = 0;
  *pr = strtod(z, &zEnd);
  return (zEnd == z || *zEnd != 0 || errno != 0 || !isfinite(*pr)) ? -1 : 0;
}

static int main_parse_u64(const char *z, uint64_t *pv) {
  char *zEnd;
  if (*z < '0' || *z > '9') return -1;   /* strtoull accepts "-1" and " 1" */
  errno = 0;
  *pv = strtoull(z, &zEnd, 10);
  return (*zEnd != 0 || errno != 0) ? -1 : 0;
}

static void main_report(const ssb_scale *s, uint64_t iSeed, int nThread,
                        const ssb_report *r, double t) {
  char z[32];
  printf("starq-gen: SF %g, seed %llu, %d thread%s:", s->rSf,
         (unsigned long long)iSeed, nThread, nThread == 1 ? "" : "s");
  for (int i = 0; i < SSB_TABLE_COUNT; i++) {
    printf(" %s %s%s", ssb_table_name(i), progress_count(z, sizeof(z), r->aRow[i]),
           i + 1 < SSB_TABLE_COUNT ? "," : "");
  }
  printf(" rows; %.1f MB in %.2f s (%.0f MB/s)\n", (double)r->nByte / 1e6, t,
         (double)r->nByte / 1e6 / (t > 0 ? t : 1e-9));
}

int main(int argc, char **argv) {
  static const struct option aOpt[] = {
    {"sf", required_argument, NULL, 's'},
    {"out", required_argument, NULL, 'o'},
    {"format", required_argument, NULL, 'f'},
    {"threads", required_argument, NULL, 't'},
    {"seed", required_argument, NULL, 'S'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
  };
  ssb_options opt = {NULL, 0, 0};
  double rSf = 0;
  int bSf = 0, bStore = 0;
  uint64_t iSeed = 1, v;
  ssb_scale scale;
  ssb_gen *g;
  ssb_report rep;
  char zErr[512];
  double t0;
  int c;

  while ((c = getopt_long(argc, argv, ":q", aOpt, NULL)) != -1) {
    switch (c) {
      case 's':
        if (main_parse_double(optarg, &rSf) != 0 || ssb_scale_init(&scale, rSf) != 0) {
          return main_usage_error("--sf must be a number from 0.01 to 100000, not \"%s\"", optarg);
        }
        bSf = 1;
        break;
      case 'o':
        opt.zOutDir = optarg;
        break;
      case 'f':
        if (strcmp(optarg, "tbl") == 0) {
          bStore = 0;
        } else if (strcmp(optarg, "store") == 0) {
          bStore = 1;
        } else {
          return main_usage_error("unknown --format \"%s\" (expected tbl or store)", optarg);
        }
        break;
      case 't':
        if (main_parse_u64(optarg, &v) != 0 || v < 1 || v > MAIN_THREAD_MAX) {
          return main_usage_error("--threads must be a whole number from 1 to 1024, not \"%s\"", optarg);
        }
        opt.nThread = (int)v;
        break;
      case 'S':
        if (main_parse_u64(optarg, &iSeed) != 0) {
          return main_usage_error("--seed must be a whole number from 0 to 2^64-1, not \"%s\"", optarg);
        }
        break;
      case 'q':
        opt.bQuiet = 1;
        break;
      case 'h':
        fputs(main_zUsage, stdout);
        return 0;
      case ':':
        return main_usage_error("%s needs a value", argv[optind - 1]);
      default:
        return main_usage_error("unknown option \"%s\"", argv[optind - 1]);
    }
  }
  if (optind < argc) return main_usage_error("unexpected argument \"%s\"", argv[optind]);
  if (!bSf) return main_usage_error("%s", "--sf is required");
  if (opt.zOutDir == NULL) return main_usage_error("%s", "--out is required");
  if (opt.nThread == 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    opt.nThread = n < 1 ? 1 : n > MAIN_THREAD_MAX ? MAIN_THREAD_MAX : (int)n;
  }

  g = malloc(sizeof(*g));
  if (g == NULL) {
    fprintf(stderr, "starq-gen: out of memory\n");
    return 1;
  }
  ssb_gen_init(g, &scale, iSeed);
  ssb_cleanup_on_signal();
  t0 = timer_now();
  if ((bStore ? ssb_generate_store(g, &opt, &rep, zErr, sizeof(zErr))
              : ssb_generate(g, &opt, &rep, zErr, sizeof(zErr))) != 0) {
    fprintf(stderr, "starq-gen: %s\n", zErr);
    free(g);
    return 1;
  }
  if (!opt.bQuiet) main_report(&scale, iSeed, opt.nThread, &rep, timer_now() - t0);
  free(g);
  return 0;
}
