/*
** clients/cli/meta.c — the backslash commands: their arguments read the
** way psql reads them, a table from name to handler, and \?.
**
** A meta-command runs from its backslash to the end of the line or to the
** next unquoted backslash (so "\x \timing" runs two); \copy takes the
** rest of the line whole. An argument is a word; '...' quotes one
** (with '' for a quote), and "..." is kept with its quotes, for \d to
** tell an exact name from one to fold to lower case.
**
** What a command asks of the main loop (quit, send or discard the
** statement collected so far) is its sq_meta return value; how its
** failure counts (ON_ERROR_STOP) is the loop's business.
**
** INTERFACE ROUTINES
**   sq_meta_run    run the meta-command at a backslash of a line
**   sq_meta_help   \?
*/
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

/* Arguments a meta-command may have. */
#define META_ARG_MAX 16

/* A meta-command's handler: azArg[0..nArg) are its arguments, zRest the
** rest of its line (for the whole-line commands). */
typedef sq_meta (*meta_fn)(sq_session *s, int nArg, char **azArg, const char *zRest);

/* One meta-command. */
typedef struct meta_cmd meta_cmd;
struct meta_cmd {
  const char *zName;         /* without the backslash */
  meta_fn xRun;
  int bWholeLine;            /* takes the rest of the line as it is */
};

void sq_meta_help(FILE *out) {
  fputs("General\n"
        "  \\q                     quit starq\n"
        "  \\?                     this help\n"
        "  \\g                     send the statement typed so far (as ';' does)\n"
        "  \\r                     discard the statement typed so far\n"
        "\n"
        "starq\n"
        "  \\explain [on|off]      after each SELECT, show its plan (EXPLAIN VERBOSE) and\n"
        "                         the server's figures: total, compile (cached or not),\n"
        "                         each kernel's time, bytes scanned and their floors\n"
        "  \\status                the server's state: backend and device, memory,\n"
        "                         tables, sessions, queries, kernel cache\n"
        "\n"
        "Informational\n"
        "  \\d [NAME]              describe a table (columns, foreign keys); no NAME: \\dt\n"
        "  \\dt [PATTERN]          list tables (* and ? are wildcards)\n"
        "  \\conninfo              where starq is connected\n"
        "\n"
        "Input/Output\n"
        "  \\copy ...              COPY with a file of this machine: \\copy t from 'f.csv'\n"
        "                         with (format csv); from stdin reads the script\n"
        "  \\echo [TEXT]           print TEXT\n"
        "  \\i FILE                run the commands of a file\n"
        "  \\ir FILE               the same, FILE relative to the script being run\n"
        "  \\o [FILE]              send query results to FILE (no FILE: back to stdout)\n"
        "\n"
        "Formatting\n"
        "  \\timing [on|off]       show how long each statement takes\n"
        "  \\x [on|off|auto]       expanded output: one line per column (auto: when a\n"
        "                         table is wider than the terminal)\n"
        "\n"
        "Variables\n"
        "  \\set [NAME [VALUE]]    set a variable, or list them (ON_ERROR_STOP=on: a\n"
        "                         script stops at its first error, exit code 3)\n"
        "  \\unset NAME            unset a variable\n",
        out);
}

/* Reads a psql on/off argument into *pb for \zCmd; no argument toggles.
** Returns 0, or -1 (reported). */
static int meta_toggle(sq_session *s, const char *zCmd, int nArg, char **azArg, int *pb) {
  int b;
  if (nArg == 0) {
    *pb = !*pb;
    return 0;
  }
  if (sq_bool_parse(azArg[0], &b) != 0) {
    sq_report(s, "unrecognized value \"%s\" for \"\\%s\": Boolean expected", azArg[0], zCmd);
    return -1;
  }
  *pb = b;
  return 0;
}

/* Prints a meta-command's confirmation on stdout, unless -q. */
static void meta_say(sq_session *s, const char *zText) {
  if (!s->bQuiet) {
    puts(zText);
    fflush(stdout);
  }
}

static sq_meta meta_quit(sq_session *s, int nArg, char **azArg, const char *zRest) {
  (void)s, (void)nArg, (void)azArg, (void)zRest;
  return SQ_META_QUIT;
}

static sq_meta meta_help(sq_session *s, int nArg, char **azArg, const char *zRest) {
  (void)nArg, (void)azArg, (void)zRest;
  sq_meta_help(s->pOut);
  fflush(s->pOut);
  return SQ_META_OK;
}

static sq_meta meta_send(sq_session *s, int nArg, char **azArg, const char *zRest) {
  (void)s, (void)nArg, (void)azArg, (void)zRest;
  return SQ_META_SEND;
}

static sq_meta meta_reset(sq_session *s, int nArg, char **azArg, const char *zRest) {
  (void)nArg, (void)azArg, (void)zRest;
  if (s->bInteractive) meta_say(s, "Query buffer reset (cleared).");
  return SQ_META_RESET;
}

static sq_meta meta_timing(sq_session *s, int nArg, char **azArg, const char *zRest) {
  (void)zRest;
  if (meta_toggle(s, "timing", nArg, azArg, &s->bTiming) != 0) return SQ_META_ERROR;
  meta_say(s, s->bTiming ? "Timing is on." : "Timing is off.");
  return SQ_META_OK;
}

/* \x [on|off|auto]: psql's words, its error too. */
static sq_meta meta_expanded(sq_session *s, int nArg, char **azArg, const char *zRest) {
  int b;
  (void)zRest;
  if (nArg == 0) {
    s->popt.bExpanded = !s->popt.bExpanded;
  } else if (strcasecmp(azArg[0], "auto") == 0) {
    s->popt.bExpanded = SQ_EXPANDED_AUTO;
  } else if (sq_bool_parse(azArg[0], &b) == 0) {
    s->popt.bExpanded = b;
  } else {
    sq_report(s, "unrecognized value \"%s\" for \"expanded\"\nAvailable values are: on, off, auto.",
              azArg[0]);
    return SQ_META_ERROR;
  }
  meta_say(s, s->popt.bExpanded == SQ_EXPANDED_AUTO ? "Expanded display is used automatically."
              : s->popt.bExpanded                    ? "Expanded display is on."
                                                     : "Expanded display is off.");
  return SQ_META_OK;
}

static sq_meta meta_explain(sq_session *s, int nArg, char **azArg, const char *zRest) {
  (void)zRest;
  if (meta_toggle(s, "explain", nArg, azArg, &s->bExplain) != 0) return SQ_META_ERROR;
  meta_say(s, s->bExplain ? "Explain mode is on: each SELECT is followed by its plan and figures."
                          : "Explain mode is off.");
  return SQ_META_OK;
}

static sq_meta meta_status(sq_session *s, int nArg, char **azArg, const char *zRest) {
  (void)nArg, (void)azArg, (void)zRest;
  return sq_status_print(s);
}

static sq_meta meta_conninfo(sq_session *s, int nArg, char **azArg, const char *zRest) {
  (void)nArg, (void)azArg, (void)zRest;
  sq_conninfo_print(s);
  return SQ_META_OK;
}

static sq_meta meta_list(sq_session *s, int nArg, char **azArg, const char *zRest) {
  (void)zRest;
  return sq_describe_tables(s, nArg > 0 ? azArg[0] : NULL);
}

static sq_meta meta_describe(sq_session *s, int nArg, char **azArg, const char *zRest) {
  sq_meta e = SQ_META_OK;
  (void)zRest;
  if (nArg == 0) return sq_describe_tables(s, NULL);
  for (int i = 0; i < nArg && e == SQ_META_OK; i++) e = sq_describe_table(s, azArg[i]);
  return e;
}

static sq_meta meta_include(sq_session *s, int nArg, char **azArg, const char *zRest) {
  (void)zRest;
  if (nArg == 0) {
    sq_report(s, "\\i: missing required argument");
    return SQ_META_ERROR;
  }
  return sq_loop_file(s, azArg[0]) == SQ_EXIT_OK ? SQ_META_OK : SQ_META_ERROR;
}

/* \ir FILE: FILE relative to the directory of the script being run. */
static sq_meta meta_include_rel(sq_session *s, int nArg, char **azArg, const char *zRest) {
  const char *zSlash;
  char *zPath = NULL;
  sq_meta e;
  if (nArg == 0 || azArg[0][0] == '/' || s->zInputName == NULL ||
      (zSlash = strrchr(s->zInputName, '/')) == NULL) {
    return meta_include(s, nArg, azArg, zRest);
  }
  if (asprintf(&zPath, "%.*s/%s", (int)(zSlash - s->zInputName), s->zInputName, azArg[0]) < 0) {
    sq_report(s, "out of memory");
    return SQ_META_ERROR;
  }
  e = sq_loop_file(s, zPath) == SQ_EXIT_OK ? SQ_META_OK : SQ_META_ERROR;
  free(zPath);
  return e;
}

static sq_meta meta_output(sq_session *s, int nArg, char **azArg, const char *zRest) {
  (void)zRest;
  return sq_output_set(s, nArg > 0 ? azArg[0] : NULL) == 0 ? SQ_META_OK : SQ_META_ERROR;
}

static sq_meta meta_copy(sq_session *s, int nArg, char **azArg, const char *zRest) {
  (void)nArg, (void)azArg;
  return sq_copy_meta(s, zRest) == 0 ? SQ_META_OK : SQ_META_ERROR;
}

/* \echo: the arguments, one space between them. */
static sq_meta meta_echo(sq_session *s, int nArg, char **azArg, const char *zRest) {
  (void)s, (void)zRest;
  for (int i = 0; i < nArg; i++) printf("%s%s", i ? " " : "", azArg[i]);
  putchar('\n');
  fflush(stdout);
  return SQ_META_OK;
}

/* \set lists the variables; \set NAME VALUE... sets NAME to the values
** joined. */
static sq_meta meta_set(sq_session *s, int nArg, char **azArg, const char *zRest) {
  strbuf v;
  char zErr[512];
  int rc;
  (void)zRest;
  if (nArg == 0) {
    for (int i = 0; i < s->vars.n; i++) {
      printf("%s = '%s'\n", s->vars.a[i].zName, s->vars.a[i].zValue);
    }
    return SQ_META_OK;
  }
  strbuf_init(&v);
  for (int i = 1; i < nArg; i++) strbuf_puts(&v, azArg[i]);
  snprintf(zErr, sizeof(zErr), "out of memory");
  rc = strbuf_error(&v) ? -1 : sq_vars_set(&s->vars, azArg[0], strbuf_str(&v), zErr, sizeof(zErr));
  strbuf_free(&v);
  if (rc != 0) sq_report(s, "%s", zErr);
  return rc == 0 ? SQ_META_OK : SQ_META_ERROR;
}

static sq_meta meta_unset(sq_session *s, int nArg, char **azArg, const char *zRest) {
  char zErr[512];
  (void)zRest;
  if (nArg == 0) {
    sq_report(s, "\\unset: missing required argument");
    return SQ_META_ERROR;
  }
  if (sq_vars_unset(&s->vars, azArg[0], zErr, sizeof(zErr)) != 0) {
    sq_report(s, "%s", zErr);
    return SQ_META_ERROR;
  }
  return SQ_META_OK;
}

static const meta_cmd meta_aCmd[] = {
  {"q", meta_quit, 0},           {"quit", meta_quit, 0},       {"?", meta_help, 0},
  {"g", meta_send, 0},           {"r", meta_reset, 0},         {"reset", meta_reset, 0},
  {"timing", meta_timing, 0},    {"x", meta_expanded, 0},      {"explain", meta_explain, 0},
  {"status", meta_status, 0},    {"conninfo", meta_conninfo, 0}, {"dt", meta_list, 0},
  {"dt+", meta_list, 0},         {"d", meta_describe, 0},      {"d+", meta_describe, 0},
  {"i", meta_include, 0},        {"include", meta_include, 0}, {"ir", meta_include_rel, 0},
  {"o", meta_output, 0},         {"out", meta_output, 0},      {"copy", meta_copy, 1},
  {"echo", meta_echo, 0},        {"set", meta_set, 0},         {"unset", meta_unset, 0},
};

/* Reads one argument at z[*pi] into a malloc'd *pz. Returns 1 if there
** was one, 0 at the end of the command (end of line or a backslash), -1
** for an unterminated quote or no memory. */
static int meta_arg(const char *z, size_t *pi, char **pz) {
  size_t i = *pi;
  strbuf a;
  while (isspace((unsigned char)z[i])) i++;
  *pi = i;
  if (z[i] == 0 || z[i] == '\\') return 0;
  strbuf_init(&a);
  while (z[i] != 0 && !isspace((unsigned char)z[i]) && z[i] != '\\') {
    if (z[i] == '\'') {
      for (i++;; i++) {
        if (z[i] == 0) goto out_unterminated;
        if (z[i] == '\'') {
          if (z[i + 1] != '\'') break;
          i++;
        }
        strbuf_append(&a, z + i, 1);
      }
      i++;
    } else if (z[i] == '"') {
      size_t iStart = i;
      for (i++; z[i] != '"'; i++) {
        if (z[i] == 0) goto out_unterminated;
      }
      i++;
      strbuf_append(&a, z + iStart, i - iStart);
    } else {
      strbuf_append(&a, z + i, 1);
      i++;
    }
  }
  *pi = i;
  if (strbuf_error(&a)) {
    strbuf_free(&a);
    return -1;
  }
  *pz = strbuf_take(&a);
  return *pz != NULL ? 1 : -1;
out_unterminated:
  strbuf_free(&a);
  *pi = i;
  return -1;
}

/* Runs the meta-command whose backslash is at zLine[*piPos]; *piPos is
** left after it (at the next command's backslash, or the line's end). */
sq_meta sq_meta_run(sq_session *s, const char *zLine, size_t *piPos) {
  size_t i = *piPos + 1, iName = i;
  char zName[32], *azArg[META_ARG_MAX];
  const meta_cmd *pCmd = NULL;
  int nArg = 0;
  sq_meta e;
  if (isalpha((unsigned char)zLine[i])) {
    while (isalnum((unsigned char)zLine[i]) || zLine[i] == '_' || zLine[i] == '+') i++;
  } else if (zLine[i] != 0) {
    i++;
  }
  snprintf(zName, sizeof(zName), "%.*s", (int)(i - iName), zLine + iName);
  for (size_t k = 0; k < sizeof(meta_aCmd) / sizeof(meta_aCmd[0]); k++) {
    if (strcmp(meta_aCmd[k].zName, zName) == 0) pCmd = &meta_aCmd[k];
  }
  if (pCmd == NULL) {
    /* The rest of the line belongs to the unknown command. */
    *piPos = strlen(zLine);
    sq_report(s, "invalid command \\%s", zName);
    if (s->bInteractive) fputs("Try \\? for help.\n", stderr);
    return SQ_META_ERROR;
  }
  if (pCmd->bWholeLine) {
    const char *zRest = zLine + i;
    while (isspace((unsigned char)*zRest)) zRest++;
    *piPos = strlen(zLine);
    return pCmd->xRun(s, 0, azArg, zRest);
  }
  for (;;) {
    char *z = NULL;
    int rc = meta_arg(zLine, &i, &z);
    if (rc == 0) break;
    if (rc < 0 || nArg == META_ARG_MAX) {
      free(z);
      for (int k = 0; k < nArg; k++) free(azArg[k]);
      *piPos = strlen(zLine);
      sq_report(s, "\\%s: %s", zName, rc < 0 ? "unterminated quoted string" : "too many arguments");
      return SQ_META_ERROR;
    }
    azArg[nArg++] = z;
  }
  /* "\\" separates a meta-command from SQL text on the same line. */
  if (zLine[i] == '\\' && zLine[i + 1] == '\\') i += 2;
  *piPos = i;
  e = pCmd->xRun(s, nArg, azArg, "");
  for (int k = 0; k < nArg; k++) free(azArg[k]);
  return e;
}
