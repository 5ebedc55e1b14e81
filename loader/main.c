/*
** loader/main.c — starq-load, loading text files into a data directory.
**
**   starq-load --data-dir DIR [options] TABLE FILE
**   starq-load --data-dir DIR --ssb TBLDIR [options]
**
** Exit codes: 0 loaded, 1 the load failed (the table is as it was),
** 2 bad usage.
*/
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/cli.h"
#include "../common/progress.h"
#include "../ssb-data/schema.h"
#include "load.h"
#include "sink.h"

static const char main_zUsage[] =
  "usage: starq-load --data-dir DIR [options] TABLE FILE\n"
  "       starq-load --data-dir DIR --ssb TBLDIR [options]\n"
  "\n"
  "Loads a text file into a table of a starq data directory. The load is\n"
  "atomic: if it fails or is interrupted, the table keeps its old data.\n"
  "\n"
  "  --data-dir DIR    the data directory (created if missing)\n"
  "  --format FMT      tbl (dbgen: '|' after every field) or csv;\n"
  "                    default: csv for a .csv file, else tbl\n"
  "  --delimiter C     csv: field delimiter (default ',')\n"
  "  --quote C         csv: quote character (default '\"')\n"
  "  --header          csv: the first line is a header, skipped\n"
  "  --null TEXT       unquoted text that means NULL (csv default: an\n"
  "                    empty unquoted field; tbl default: none)\n"
  "  --append          add the rows to the table (default: replace its rows)\n"
  "  --ssb TBLDIR      create the SSB tables if missing and load\n"
  "                    TBLDIR/{date,supplier,customer,part,lineorder}.tbl\n"
  "  --compress auto|off  FOR-bitpack a fact table's integer columns where\n"
  "                    that saves an eighth of their bytes (auto, the\n"
  "                    default), or keep every column plain (off)\n"
  "  --threads N       parsing threads, 1 to 256 (default: all cores)\n"
  "  -q, --quiet       no progress line and no summary\n"
  "  --help            this text\n";

static const cli_prog main_prog = {"starq-load", main_zUsage};

static void main_report(const char *zTable, const load_report *r) {
  char zLoaded[32], zTable2[32];
  printf("starq-load: %s: %s rows from %.1f MB in %.2f s (%.0f MB/s); the table has %s rows\n",
         zTable, progress_count(zLoaded, sizeof(zLoaded), r->nRowLoaded),
         (double)r->nByte / 1e6, r->rSeconds,
         (double)r->nByte / 1e6 / (r->rSeconds > 0 ? r->rSeconds : 1e-9),
         progress_count(zTable2, sizeof(zTable2), r->nRowTable));
}

/* Loads one file; prints the summary or the error. Returns 0 or 1. */
static int main_load(cat *pCat, const char *zTable, const char *zFile,
                     const load_options *pOpt) {
  load_report rep;
  char zErr[1024];
  if (load_file(pCat, zTable, zFile, pOpt, &rep, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "starq-load: %s\n", zErr);
    return 1;
  }
  if (!pOpt->bQuiet) main_report(zTable, &rep);
  return 0;
}

static int main_load_ssb(cat *pCat, const char *zDir, const load_options *pOpt) {
  char zErr[1024];
  if (ssb_schema_create(pCat, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "starq-load: %s\n", zErr);
    return 1;
  }
  for (int i = 0; i < SSB_TABLE_COUNT; i++) {
    char zFile[4096];
    snprintf(zFile, sizeof(zFile), "%s/%s.tbl", zDir, ssb_table_name(i));
    if (main_load(pCat, ssb_table_name(i), zFile, pOpt) != 0) return 1;
  }
  return 0;
}

/* Reads a one-character option value; returns -1 unless it is one byte. */
static int main_char(const char *z) {
  return strlen(z) == 1 ? (unsigned char)z[0] : -1;
}

int main(int argc, char **argv) {
  static const struct option aOpt[] = {
    {"data-dir", required_argument, NULL, 'D'},
    {"format", required_argument, NULL, 'f'},
    {"delimiter", required_argument, NULL, 'd'},
    {"quote", required_argument, NULL, 'Q'},
    {"header", no_argument, NULL, 'H'},
    {"null", required_argument, NULL, 'n'},
    {"append", no_argument, NULL, 'a'},
    {"ssb", required_argument, NULL, 's'},
    {"threads", required_argument, NULL, 't'},
    {"compress", required_argument, NULL, 'c'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
  };
  const char *zDataDir = NULL, *zSsb = NULL, *zFormat = NULL;
  int cDelim = -1, cQuote = -1, bHeader = 0, bAppend = 0, bQuiet = 0, nThread = 0;
  const char *zNull = NULL;
  load_options opt;
  load_compress eCompress = LOAD_COMPRESS_AUTO;
  cat *pCat;
  char zErr[1024];
  uint64_t v;
  int c, rc;

  while ((c = getopt_long(argc, argv, ":q", aOpt, NULL)) != -1) {
    switch (c) {
      case 'D': zDataDir = optarg; break;
      case 'f':
        if (strcmp(optarg, "tbl") != 0 && strcmp(optarg, "csv") != 0) {
          return cli_usage_error(&main_prog,
                                 "unknown --format \"%s\" (expected tbl or csv)", optarg);
        }
        zFormat = optarg;
        break;
      case 'd':
        if ((cDelim = main_char(optarg)) < 0 || cDelim == '\n' || cDelim == '\r') {
          return cli_usage_error(&main_prog,
                                 "--delimiter must be one character, not \"%s\"", optarg);
        }
        break;
      case 'Q':
        if ((cQuote = main_char(optarg)) < 0 || cQuote == '\n' || cQuote == '\r') {
          return cli_usage_error(&main_prog, "--quote must be one character, not \"%s\"", optarg);
        }
        break;
      case 'H': bHeader = 1; break;
      case 'n': zNull = optarg; break;
      case 'a': bAppend = 1; break;
      case 's': zSsb = optarg; break;
      case 't':
        if (cli_parse_range(optarg, 1, 256, &v) != 0) {
          return cli_usage_error(&main_prog,
                                 "--threads must be a whole number from 1 to 256, not \"%s\"", optarg);
        }
        nThread = (int)v;
        break;
      case 'c':
        if (load_compress_parse(optarg, &eCompress) != 0) {
          return cli_usage_error(&main_prog, "unknown --compress \"%s\" (expected auto or off)",
                                 optarg);
        }
        break;
      case 'q': bQuiet = 1; break;
      case 'h': fputs(main_zUsage, stdout); return 0;
      case ':': return cli_usage_error(&main_prog, "%s needs a value", argv[optind - 1]);
      default: return cli_usage_error(&main_prog, "unknown option \"%s\"", argv[optind - 1]);
    }
  }
  if (zDataDir == NULL) return cli_usage_error(&main_prog, "%s", "--data-dir is required");
  if (zSsb != NULL && optind < argc) {
    return cli_usage_error(&main_prog, "unexpected argument \"%s\" with --ssb", argv[optind]);
  }
  if (zSsb == NULL && argc - optind != 2) {
    return cli_usage_error(&main_prog, "%s", "give a TABLE and a FILE (or --ssb TBLDIR)");
  }
  if (zFormat == NULL) {
    const char *zFile = zSsb ? "" : argv[optind + 1];
    size_t n = strlen(zFile);
    zFormat = n >= 4 && strcmp(zFile + n - 4, ".csv") == 0 ? "csv" : "tbl";
  }
  load_options_default(&opt, strcmp(zFormat, "csv") == 0 ? LOAD_CSV : LOAD_TBL);
  if (opt.text.eFormat == LOAD_TBL && (cDelim >= 0 || cQuote >= 0 || bHeader)) {
    return cli_usage_error(&main_prog, "%s", "--delimiter, --quote and --header are for csv");
  }
  if (cDelim >= 0) opt.text.cDelim = (char)cDelim;
  if (cQuote >= 0) opt.text.cQuote = (char)cQuote;
  if (opt.text.cDelim == opt.text.cQuote) {
    return cli_usage_error(&main_prog, "%s", "the delimiter and the quote must differ");
  }
  opt.text.bHeader = bHeader;
  opt.text.zNull = zNull;
  opt.bAppend = bAppend;
  opt.nThread = nThread;
  opt.bQuiet = bQuiet;
  opt.bNoCompress = eCompress == LOAD_COMPRESS_OFF;

  if (cat_open(&pCat, zDataDir, zErr, sizeof(zErr)) != 0) {
    fprintf(stderr, "starq-load: %s\n", zErr);
    return 1;
  }
  rc = zSsb ? main_load_ssb(pCat, zSsb, &opt)
            : main_load(pCat, argv[optind], argv[optind + 1], &opt);
  cat_close(pCat);
  return rc;
}
