/*
** common/cli.h — what every starq command line shares: the usage error
** (message, then the usage text, exit code 2) and strict parsing of
** numeric flag values, so "--threads 2x", "--threads -1" and
** "--threads ' 2'" are refused the same way by every program.
*/
#ifndef STARQ_CLI_H
#define STARQ_CLI_H

#include <stdint.h>

/* A program's name and usage text, both static. */
typedef struct cli_prog cli_prog;
struct cli_prog {
  const char *zName;
  const char *zUsage;
};

/* Prints "NAME: <message>", a blank line and the usage to stderr.
** Returns 2, the exit code of bad usage. */
int cli_usage_error(const cli_prog *p, const char *zFmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Parses all of z as a finite number. Returns 0, or -1. */
int cli_parse_double(const char *z, double *pr);

/* Parses all of z as decimal digits (no sign, no blanks) fitting 64 bits.
** Returns 0, or -1. */
int cli_parse_u64(const char *z, uint64_t *pv);

/* cli_parse_u64, then a range check: lo <= value <= hi. */
int cli_parse_range(const char *z, uint64_t lo, uint64_t hi, uint64_t *pv);

#endif /* STARQ_CLI_H */
