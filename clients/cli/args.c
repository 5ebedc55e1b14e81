/*
** clients/cli/args.c — starq's command line, which is psql's, and the
** variables that -v and \set set.
**
** Flags are read with getopt_long, so they may come in any order, mixed
** with the optional DBNAME and USERNAME arguments as psql takes them. A bad
** flag is the client's own fatal error: the caller prints the message with
** a hint and exits 1, as psql does (not 2, the exit code of bad usage of
** the other starq programs and of common/cli.h: for a psql-like client 2
** means the connection failed).
**
** Variables are name/value strings. Names are letters, digits and
** underscores. The ones starq acts on are booleans (ON_ERROR_STOP, QUIET)
** and take what psql's take: on/off, true/false, yes/no, 1/0, any prefix
** of those words that is not ambiguous, in any case.
**
** INTERFACE ROUTINES
**   sq_args_parse / sq_args_free   the command line
**   sq_args_usage                  --help
**   sq_vars_set / sq_vars_unset / sq_vars_get / sq_vars_free   variables
**   sq_vars_bool                   a variable read as a boolean
**   sq_bool_parse                  psql's booleans
*/
#define _GNU_SOURCE
#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

void sq_args_usage(FILE *out) {
  fputs("starq is the interactive terminal of the starq server, psql's twin.\n"
        "\n"
        "Usage:\n"
        "  starq [OPTION]... [DBNAME [USERNAME]]\n"
        "\n"
        "General options:\n"
        "  -c, --command=COMMAND    run one command (SQL or a meta-command) and exit;\n"
        "                           may be given several times, run in order\n"
        "  -d, --dbname=DBNAME      database name or connection string (default: starq)\n"
        "  -f, --file=FILENAME      run the commands of a file (- for stdin) and exit\n"
        "  -v, --set=, --variable=NAME=VALUE\n"
        "                           set a variable (ON_ERROR_STOP=1: stop a script at\n"
        "                           its first error, exit code 3)\n"
        "  -X, --no-psqlrc          accepted for psql's sake (starq reads no rc file)\n"
        "  -n, --no-readline        no line editing or history at a terminal\n"
        "  -V, --version            print the version and exit\n"
        "  -?, --help               print this help and exit\n"
        "\n"
        "Output options:\n"
        "  -A, --no-align           unaligned output\n"
        "      --csv                CSV output\n"
        "  -F, --field-separator=STRING\n"
        "                           field separator of unaligned output (default \"|\")\n"
        "  -R, --record-separator=STRING\n"
        "                           record separator of unaligned output (default newline)\n"
        "  -o, --output=FILENAME    write query results to a file\n"
        "  -q, --quiet              no messages, only query output\n"
        "  -t, --tuples-only        rows only: no header, no footer\n"
        "  -x, --expanded           expanded output (\\x)\n"
        "\n"
        "Connection options:\n"
        "  -h, --host=HOSTNAME      server host (default: PGHOST, else 127.0.0.1)\n"
        "  -p, --port=PORT          server port (default: PGPORT, else 5433)\n"
        "  -U, --username=USERNAME  user name (default: PGUSER, else starq)\n"
        "  -w, --no-password        never prompt for a password\n"
        "  -W, --password           prompt for a password before connecting\n"
        "\n"
        "Inside starq, type \\? for the meta-commands, \\q to quit.\n"
        "Exit codes: 0 ok, 1 a fatal error of starq (bad flag, missing file), 2 the\n"
        "connection failed or was lost, 3 a script stopped by ON_ERROR_STOP.\n",
        out);
}

/* Returns 1 if z is a valid variable name. */
static int args_var_name_ok(const char *z) {
  if (*z == 0) return 0;
  for (; *z; z++) {
    if (!isalnum((unsigned char)*z) && *z != '_') return 0;
  }
  return 1;
}

/* Parses z as psql parses a boolean: on/off, true/false, yes/no, 1/0, or
** an unambiguous prefix of one (case ignored). Returns 0 with *pb, or -1. */
int sq_bool_parse(const char *z, int *pb) {
  static const struct {
    const char *zWord;
    size_t nMin;             /* shortest prefix that is unambiguous */
    int b;
  } aWord[] = {{"true", 1, 1}, {"false", 1, 0}, {"yes", 1, 1}, {"no", 1, 0},
               {"on", 2, 1}, {"off", 2, 0}, {"1", 1, 1}, {"0", 1, 0}};
  size_t n = strlen(z);
  for (size_t i = 0; n > 0 && i < sizeof(aWord) / sizeof(aWord[0]); i++) {
    if (n >= aWord[i].nMin && n <= strlen(aWord[i].zWord) &&
        strncasecmp(z, aWord[i].zWord, n) == 0) {
      *pb = aWord[i].b;
      return 0;
    }
  }
  return -1;
}

/* Returns 1 if the variable zName holds a true boolean. (Booleans are
** checked when set, so anything else is false.) */
int sq_vars_bool(const sq_vars *p, const char *zName) {
  const char *z = sq_vars_get(p, zName);
  int b = 0;
  return z != NULL && sq_bool_parse(z, &b) == 0 && b;
}

const char *sq_vars_get(const sq_vars *p, const char *zName) {
  for (int i = 0; i < p->n; i++) {
    if (strcmp(p->a[i].zName, zName) == 0) return p->a[i].zValue;
  }
  return NULL;
}

/* Sets zName to zValue. Returns 0, or -1 with the message in zErr for a
** bad name, a value the variable cannot take, or no memory. */
int sq_vars_set(sq_vars *p, const char *zName, const char *zValue, char *zErr, size_t nErr) {
  int b;
  char *zN, *zV;
  sq_var *aNew;
  if (!args_var_name_ok(zName)) {
    snprintf(zErr, nErr, "invalid variable name: \"%s\"", zName);
    return -1;
  }
  if ((strcmp(zName, "ON_ERROR_STOP") == 0 || strcmp(zName, "QUIET") == 0) &&
      sq_bool_parse(zValue, &b) != 0) {
    snprintf(zErr, nErr, "unrecognized value \"%s\" for \"%s\": Boolean expected", zValue, zName);
    return -1;
  }
  snprintf(zErr, nErr, "out of memory");
  zV = strdup(zValue);
  if (zV == NULL) return -1;
  for (int i = 0; i < p->n; i++) {
    if (strcmp(p->a[i].zName, zName) == 0) {
      free(p->a[i].zValue);
      p->a[i].zValue = zV;
      return 0;
    }
  }
  zN = strdup(zName);
  aNew = realloc(p->a, sizeof(sq_var) * (size_t)(p->n + 1));
  if (zN == NULL || aNew == NULL) {
    free(zN);
    free(zV);
    if (aNew != NULL) p->a = aNew;
    return -1;
  }
  p->a = aNew;
  p->a[p->n].zName = zN;
  p->a[p->n].zValue = zV;
  p->n++;
  return 0;
}

/* Removes zName. Returns 0, or -1 with the message in zErr for a bad
** name. */
int sq_vars_unset(sq_vars *p, const char *zName, char *zErr, size_t nErr) {
  if (!args_var_name_ok(zName)) {
    snprintf(zErr, nErr, "invalid variable name: \"%s\"", zName);
    return -1;
  }
  for (int i = 0; i < p->n; i++) {
    if (strcmp(p->a[i].zName, zName) == 0) {
      free(p->a[i].zName);
      free(p->a[i].zValue);
      p->a[i] = p->a[--p->n];
      break;
    }
  }
  return 0;
}

void sq_vars_free(sq_vars *p) {
  for (int i = 0; i < p->n; i++) {
    free(p->a[i].zName);
    free(p->a[i].zValue);
  }
  free(p->a);
  p->a = NULL;
  p->n = 0;
}

/* -v NAME=VALUE (NAME alone unsets). Returns 0, or -1 after printing
** why, as psql prints it (no usage hint follows). */
static int args_var(sq_args *p, const char *zArg) {
  const char *zEq = strchr(zArg, '=');
  char zName[256], zErr[512];
  int rc;
  if (zEq == NULL) {
    rc = sq_vars_unset(&p->vars, zArg, zErr, sizeof(zErr));
  } else if ((size_t)(zEq - zArg) >= sizeof(zName)) {
    snprintf(zErr, sizeof(zErr), "invalid variable name: \"%.*s\"", (int)(zEq - zArg), zArg);
    rc = -1;
  } else {
    memcpy(zName, zArg, (size_t)(zEq - zArg));
    zName[zEq - zArg] = 0;
    rc = sq_vars_set(&p->vars, zName, zEq + 1, zErr, sizeof(zErr));
  }
  if (rc != 0) fprintf(stderr, "starq: error: %s\n", zErr);
  return rc;
}

/* Adds a -c or -f to the list. Returns 0, or -1 if out of memory. */
static int args_action(sq_args *p, int bFile, const char *zArg) {
  sq_action *aNew = realloc(p->aAction, sizeof(sq_action) * (size_t)(p->nAction + 1));
  if (aNew == NULL) return -1;
  p->aAction = aNew;
  p->aAction[p->nAction].bFile = bFile;
  p->aAction[p->nAction].zArg = zArg;
  p->nAction++;
  return 0;
}

/* Copies a separator flag's value; it must fit. */
static int args_sep(char *zOut, size_t nOut, const char *zArg, char *zErr, size_t nErr) {
  if (strlen(zArg) >= nOut) {
    snprintf(zErr, nErr, "separator \"%s\" is too long (at most %zu bytes)", zArg, nOut - 1);
    return -1;
  }
  memcpy(zOut, zArg, strlen(zArg) + 1);
  return 0;
}

/* Reads argv into *p (zeroed here). Returns 0, or -1 with the message in
** zErr ("" when it was printed already: a bad variable). p must be freed
** with sq_args_free either way. */
int sq_args_parse(sq_args *p, int argc, char **argv, char *zErr, size_t nErr) {
  enum { ARGS_CSV = 1000 };
  static const struct option aLong[] = {
    {"command", required_argument, NULL, 'c'},
    {"dbname", required_argument, NULL, 'd'},
    {"file", required_argument, NULL, 'f'},
    {"set", required_argument, NULL, 'v'},
    {"variable", required_argument, NULL, 'v'},
    {"no-psqlrc", no_argument, NULL, 'X'},
    {"no-readline", no_argument, NULL, 'n'},
    {"version", no_argument, NULL, 'V'},
    {"help", no_argument, NULL, '?'},
    {"no-align", no_argument, NULL, 'A'},
    {"csv", no_argument, NULL, ARGS_CSV},
    {"field-separator", required_argument, NULL, 'F'},
    {"record-separator", required_argument, NULL, 'R'},
    {"output", required_argument, NULL, 'o'},
    {"quiet", no_argument, NULL, 'q'},
    {"tuples-only", no_argument, NULL, 't'},
    {"expanded", no_argument, NULL, 'x'},
    {"host", required_argument, NULL, 'h'},
    {"port", required_argument, NULL, 'p'},
    {"username", required_argument, NULL, 'U'},
    {"no-password", no_argument, NULL, 'w'},
    {"password", no_argument, NULL, 'W'},
    {NULL, 0, NULL, 0},
  };
  int c, iLong;
  memset(p, 0, sizeof(*p));
  p->popt.eFormat = SQ_FORMAT_ALIGNED;
  snprintf(p->popt.zFieldSep, sizeof(p->popt.zFieldSep), "|");
  snprintf(p->popt.zRecordSep, sizeof(p->popt.zRecordSep), "\n");
  zErr[0] = 0;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":c:d:f:v:XnV?AF:R:o:qtxh:p:U:wW", aLong, &iLong)) != -1) {
    switch (c) {
      case 'c': if (args_action(p, 0, optarg) != 0) goto out_oom; break;
      case 'f': if (args_action(p, 1, optarg) != 0) goto out_oom; break;
      case 'd': p->zDb = optarg; break;
      case 'v': if (args_var(p, optarg) != 0) return -1; break;
      case 'X': break;
      case 'n': p->bNoReadline = 1; break;
      case 'V': p->bVersion = 1; break;
      case '?':
        if (optopt != 0 && optopt != '?') {
          snprintf(zErr, nErr, "invalid option -- '%c'", optopt);
          return -1;
        }
        if (optopt == 0 && argv[optind - 1] != NULL && strcmp(argv[optind - 1], "-?") != 0 &&
            strcmp(argv[optind - 1], "--help") != 0) {
          snprintf(zErr, nErr, "unrecognized option '%s'", argv[optind - 1]);
          return -1;
        }
        p->bHelp = 1;
        break;
      case ':':
        if (optopt != 0) snprintf(zErr, nErr, "option requires an argument -- '%c'", optopt);
        else snprintf(zErr, nErr, "option '%s' requires an argument", argv[optind - 1]);
        return -1;
      case 'A': p->popt.eFormat = SQ_FORMAT_UNALIGNED; break;
      case ARGS_CSV: p->popt.eFormat = SQ_FORMAT_CSV; break;
      case 'F':
        if (args_sep(p->popt.zFieldSep, sizeof(p->popt.zFieldSep), optarg, zErr, nErr) != 0) {
          return -1;
        }
        break;
      case 'R':
        if (args_sep(p->popt.zRecordSep, sizeof(p->popt.zRecordSep), optarg, zErr, nErr) != 0) {
          return -1;
        }
        break;
      case 'o': p->zOutput = optarg; break;
      case 'q': p->bQuiet = 1; break;
      case 't': p->popt.bTuplesOnly = 1; break;
      case 'x': p->popt.bExpanded = 1; break;
      case 'h': p->zHost = optarg; break;
      case 'p': p->zPort = optarg; break;
      case 'U': p->zUser = optarg; break;
      case 'w': p->bNoPassword = 1; break;
      case 'W': p->bForcePassword = 1; break;
      default:
        snprintf(zErr, nErr, "invalid option -- '%c'", c);
        return -1;
    }
  }
  /* psql's positional arguments: DBNAME, then USERNAME; more are ignored
  ** with a warning. */
  for (; optind < argc; optind++) {
    if (p->zDb == NULL) p->zDb = argv[optind];
    else if (p->zUser == NULL) p->zUser = argv[optind];
    else fprintf(stderr, "starq: warning: extra command-line argument \"%s\" ignored\n",
                 argv[optind]);
  }
  return 0;
out_oom:
  snprintf(zErr, nErr, "out of memory");
  return -1;
}

void sq_args_free(sq_args *p) {
  free(p->aAction);
  p->aAction = NULL;
  sq_vars_free(&p->vars);
}
