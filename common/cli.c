/*
** common/cli.c — the command-line helpers of cli.h.
*/
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

int cli_usage_error(const cli_prog *p, const char *zFmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: ", p->zName);
  va_start(ap, zFmt);
  vfprintf(stderr, zFmt, ap);
  va_end(ap);
  fprintf(stderr, "\n\n%s", p->zUsage);
  return 2;
}

int cli_parse_double(const char *z, double *pr) {
  char *zEnd;
  errno = 0;
  *pr = strtod(z, &zEnd);
  return (zEnd == z || *zEnd != 0 || errno != 0 || !isfinite(*pr)) ? -1 : 0;
}

int cli_parse_u64(const char *z, uint64_t *pv) {
  char *zEnd;
  if (*z < '0' || *z > '9') return -1;   /* strtoull takes "-1" and " 1" */
  errno = 0;
  *pv = strtoull(z, &zEnd, 10);
  return (*zEnd != 0 || errno != 0) ? -1 : 0;
}

int cli_parse_range(const char *z, uint64_t lo, uint64_t hi, uint64_t *pv) {
  return cli_parse_u64(z, pv) == 0 && *pv >= lo && *pv <= hi ? 0 : -1;
}
