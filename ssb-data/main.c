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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/cli.h"
#include "../common/progress.h"
#include "../common/timer.h"
#include "ssb.h"
#include "writer.h"
#include "../loader/sink.h"

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
  "  --compress auto|off  store: FOR-bitpack lineorder's integer columns\n"
  "                  where that saves an eighth of their bytes (auto, the\n"
  "                  default), or keep every column plain (off)\n"
  "  --threads N     worker threads, 1 to 1024 (default: all cores)\n"
  "  --seed N        random seed, 0 to 2^64-1 (default 1); the same SF and\n"
  "                  seed give byte-identical files for any --threads\n"
  "  -q, --quiet     no progress line and no summary\n"
  "  --help          this text\n";

static const cli_prog main_prog = {"starq-gen", main_zUsage};

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
    {"compress", required_argument, NULL, 'c'},
    {"seed", required_argument, NULL, 'S'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
  };
  ssb_options opt = {NULL, 0, 0, 0};
  load_compress eCompress;
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
        if (cli_parse_double(optarg, &rSf) != 0 || ssb_scale_init(&scale, rSf) != 0) {
          return cli_usage_error(&main_prog,
                                 "--sf must be a number from 0.01 to 100000, not \"%s\"", optarg);
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
          return cli_usage_error(&main_prog,
                                 "unknown --format \"%s\" (expected tbl or store)", optarg);
        }
        break;
      case 't':
        if (cli_parse_range(optarg, 1, MAIN_THREAD_MAX, &v) != 0) {
          return cli_usage_error(&main_prog,
                                 "--threads must be a whole number from 1 to 1024, not \"%s\"", optarg);
        }
        opt.nThread = (int)v;
        break;
      case 'c':
        if (load_compress_parse(optarg, &eCompress) != 0) {
          return cli_usage_error(&main_prog, "unknown --compress \"%s\" (expected auto or off)",
                                 optarg);
        }
        opt.bNoCompress = eCompress == LOAD_COMPRESS_OFF;
        break;
      case 'S':
        if (cli_parse_u64(optarg, &iSeed) != 0) {
          return cli_usage_error(&main_prog,
                                 "--seed must be a whole number from 0 to 2^64-1, not \"%s\"", optarg);
        }
        break;
      case 'q':
        opt.bQuiet = 1;
        break;
      case 'h':
        fputs(main_zUsage, stdout);
        return 0;
      case ':':
        return cli_usage_error(&main_prog, "%s needs a value", argv[optind - 1]);
      default:
        return cli_usage_error(&main_prog, "unknown option \"%s\"", argv[optind - 1]);
    }
  }
  if (optind < argc) return cli_usage_error(&main_prog, "unexpected argument \"%s\"", argv[optind]);
  if (!bSf) return cli_usage_error(&main_prog, "%s", "--sf is required");
  if (opt.zOutDir == NULL) return cli_usage_error(&main_prog, "%s", "--out is required");
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
