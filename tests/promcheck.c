/*
** tests/promcheck.c — the exposition-format checker of promcheck.h.
**
** It reads the text one line at a time, keeping the family whose block it
** is in and, for a histogram, the state of the label set whose buckets it
** is reading. Series are remembered (as text) to catch duplicates.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "promcheck.h"

#define PC_MAX_FAMILY 128
#define PC_MAX_SERIES 4096

typedef struct pc pc;
struct pc {
  char azFamily[PC_MAX_FAMILY][128];   /* families seen, in order */
  char azType[PC_MAX_FAMILY][16];
  int abHelp[PC_MAX_FAMILY];
  int abSamples[PC_MAX_FAMILY];        /* its block of samples has started */
  int nFamily;
  int iCur;                            /* the family whose block this is, or -1 */
  char **azSeries;                     /* name{labels} seen; owned */
  int nSeries;
  /* The histogram label set being read (labels without le). */
  char zHistLabels[1024];
  double lastLe;
  double lastCount;
  int bHistOpen;                       /* buckets read, +Inf not yet */
  double infCount;                     /* the +Inf bucket of the current set */
  int bHaveInf;
  int iLine;
  char *zErr;
  size_t nErr;
};

static int pc_fail(pc *p, const char *zWhy, const char *zLine) {
  snprintf(p->zErr, p->nErr, "line %d: %s: %.200s", p->iLine, zWhy, zLine);
  return -1;
}

static int pc_name_ok(const char *z, size_t n, int bLabel) {
  if (n == 0) return 0;
  for (size_t i = 0; i < n; i++) {
    char c = z[i];
    int bAlpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!bAlpha && !(c == ':' && !bLabel) && !(c >= '0' && c <= '9' && i > 0)) return 0;
  }
  return 1;
}

static int pc_family_find(pc *p, const char *zName) {
  for (int i = 0; i < p->nFamily; i++) {
    if (strcmp(p->azFamily[i], zName) == 0) return i;
  }
  return -1;
}

/* Parses a value: a float, +Inf, -Inf or NaN, the whole of z. */
static int pc_value(const char *z, double *pv) {
  char *zEnd;
  if (strcmp(z, "+Inf") == 0) { *pv = INFINITY; return 0; }
  if (strcmp(z, "-Inf") == 0) { *pv = -INFINITY; return 0; }
  if (strcmp(z, "NaN") == 0) { *pv = NAN; return 0; }
  if (*z == 0 || strchr("+-.0123456789", *z) == NULL) return -1;
  *pv = strtod(z, &zEnd);
  return *zEnd == 0 && isfinite(*pv) ? 0 : -1;
}

/* "# HELP name text" or "# TYPE name type". */
static int pc_comment(pc *p, const char *zLine) {
  char zName[128], zRest[256];
  int bHelp = strncmp(zLine, "# HELP ", 7) == 0, bType = strncmp(zLine, "# TYPE ", 7) == 0;
  const char *z = zLine + 7;
  size_t n = strcspn(z, " ");
  int i;
  if (!bHelp && !bType) return 0;   /* any other comment is allowed */
  if (n >= sizeof(zName) || z[n] != ' ' || !pc_name_ok(z, n, 0)) return pc_fail(p, "bad name in comment", zLine);
  memcpy(zName, z, n);
  zName[n] = 0;
  snprintf(zRest, sizeof(zRest), "%s", z + n + 1);
  i = pc_family_find(p, zName);
  if (i < 0) {
    if (p->nFamily == PC_MAX_FAMILY) return pc_fail(p, "too many families", zLine);
    i = p->nFamily++;
    snprintf(p->azFamily[i], sizeof(p->azFamily[i]), "%s", zName);
  } else if (p->abSamples[i]) {
    return pc_fail(p, "HELP or TYPE after the family's samples", zLine);
  }
  if (p->iCur >= 0 && p->iCur != i && p->bHistOpen) return pc_fail(p, "histogram without +Inf", zLine);
  if (p->iCur != i) p->bHaveInf = 0;   /* a new family: no label set read yet */
  p->iCur = i;
  if (bHelp) {
    if (p->abHelp[i]++) return pc_fail(p, "second HELP", zLine);
    for (const char *q = zRest; *q; q++) {
      if (*q == '\\' && q[1] != '\\' && q[1] != 'n') return pc_fail(p, "bad escape in HELP", zLine);
      if (*q == '\\') q++;
    }
    return 0;
  }
  if (p->azType[i][0] != 0) return pc_fail(p, "second TYPE", zLine);
  if (strcmp(zRest, "counter") && strcmp(zRest, "gauge") && strcmp(zRest, "histogram") &&
      strcmp(zRest, "summary") && strcmp(zRest, "untyped")) {
    return pc_fail(p, "bad TYPE", zLine);
  }
  snprintf(p->azType[i], sizeof(p->azType[i]), "%s", zRest);
  return 0;
}

/* Reads "{a="x",b="y"}" at *pz into zOut without any le label (whose
** value goes to zLe). Returns 0 or -1. */
static int pc_labels(pc *p, const char **pz, char *zOut, size_t nOut, char *zLe, size_t nLe,
                     const char *zLine) {
  const char *z = *pz;
  size_t nO = 0;
  zOut[0] = zLe[0] = 0;
  if (*z != '{') return 0;
  z++;
  while (*z != '}') {
    size_t n = strcspn(z, "=");
    char zVal[512];
    size_t nV = 0;
    int bLe;
    if (!pc_name_ok(z, n, 1) || z[n] != '=' || z[n + 1] != '"') return pc_fail(p, "bad label", zLine);
    bLe = n == 2 && memcmp(z, "le", 2) == 0;
    if (!bLe) nO += (size_t)snprintf(zOut + nO, nOut - nO, "%.*s=", (int)n, z);
    z += n + 2;
    while (*z != '"') {
      if (*z == 0 || *z == '\n') return pc_fail(p, "unterminated label value", zLine);
      if (*z == '\\') {
        if (z[1] != '\\' && z[1] != '"' && z[1] != 'n') return pc_fail(p, "bad escape in label value", zLine);
        if (nV < sizeof(zVal) - 1) zVal[nV++] = *z;
        z++;
      }
      if (nV < sizeof(zVal) - 1) zVal[nV++] = *z;
      z++;
    }
    zVal[nV] = 0;
    z++;
    if (bLe) snprintf(zLe, nLe, "%s", zVal);
    else nO += (size_t)snprintf(zOut + nO, nOut - nO, "\"%s\",", zVal);
    if (nO >= nOut) return pc_fail(p, "labels too long", zLine);
    if (*z == ',') z++;
    else if (*z != '}') return pc_fail(p, "',' or '}' expected", zLine);
  }
  *pz = z + 1;
  return 0;
}

/* Closes the histogram label set being read, if any. */
static int pc_hist_close(pc *p, const char *zLine) {
  if (p->bHistOpen) return pc_fail(p, "histogram buckets without le=\"+Inf\"", zLine);
  return 0;
}

static int pc_histogram(pc *p, const char *zSuffix, const char *zLabels, const char *zLe, double v,
                        const char *zLine) {
  if (strcmp(zSuffix, "_bucket") == 0) {
    double le;
    if (zLe[0] == 0 || pc_value(zLe, &le) != 0) return pc_fail(p, "bucket without a valid le", zLine);
    if (!p->bHistOpen) {
      if (p->bHaveInf && strcmp(zLabels, p->zHistLabels) == 0) return pc_fail(p, "buckets again", zLine);
      snprintf(p->zHistLabels, sizeof(p->zHistLabels), "%s", zLabels);
      p->bHistOpen = 1;
      p->bHaveInf = 0;
      p->lastLe = -INFINITY;
      p->lastCount = 0;
    } else if (strcmp(zLabels, p->zHistLabels) != 0) {
      return pc_fail(p, "a label set's buckets interleaved with another's", zLine);
    }
    if (!(le > p->lastLe)) return pc_fail(p, "le not increasing", zLine);
    if (v < p->lastCount) return pc_fail(p, "bucket counts fall", zLine);
    p->lastLe = le;
    p->lastCount = v;
    if (isinf(le)) {
      p->bHistOpen = 0;
      p->bHaveInf = 1;
      p->infCount = v;
    }
    return 0;
  }
  if (zLe[0] != 0) return pc_fail(p, "le on a _sum or _count", zLine);
  if (p->bHistOpen || !p->bHaveInf || strcmp(zLabels, p->zHistLabels) != 0) {
    return pc_fail(p, "_sum or _count before the label set's +Inf bucket", zLine);
  }
  if (strcmp(zSuffix, "_count") == 0 && v != p->infCount) {
    return pc_fail(p, "_count differs from the +Inf bucket", zLine);
  }
  return 0;
}

static int pc_sample(pc *p, const char *zLine) {
  size_t n = strcspn(zLine, "{ ");
  char zName[128], zLabels[1024], zLe[64], zSeries[1300], zVal[64];
  const char *z = zLine + n, *zFam, *zSuffix = "";
  double v;
  if (n >= sizeof(zName) || !pc_name_ok(zLine, n, 0)) return pc_fail(p, "bad metric name", zLine);
  memcpy(zName, zLine, n);
  zName[n] = 0;
  if (pc_labels(p, &z, zLabels, sizeof(zLabels), zLe, sizeof(zLe), zLine) != 0) return -1;
  if (*z != ' ') return pc_fail(p, "space expected before the value", zLine);
  z++;
  n = strcspn(z, " ");
  if (n >= sizeof(zVal)) return pc_fail(p, "value too long", zLine);
  memcpy(zVal, z, n);
  zVal[n] = 0;
  if (pc_value(zVal, &v) != 0) return pc_fail(p, "bad value", zLine);
  if (p->iCur < 0) return pc_fail(p, "a sample before any TYPE", zLine);
  zFam = p->azFamily[p->iCur];
  if (strcmp(p->azType[p->iCur], "histogram") == 0) {
    size_t nF = strlen(zFam);
    if (strncmp(zName, zFam, nF) != 0) return pc_fail(p, "sample outside its family's block", zLine);
    zSuffix = zName + nF;
    if (strcmp(zSuffix, "_bucket") && strcmp(zSuffix, "_sum") && strcmp(zSuffix, "_count")) {
      return pc_fail(p, "bad histogram sample name", zLine);
    }
    if (pc_histogram(p, zSuffix, zLabels, zLe, v, zLine) != 0) return -1;
  } else {
    if (strcmp(zName, zFam) != 0) return pc_fail(p, "sample outside its family's block", zLine);
    if (zLe[0] != 0 && strcmp(p->azType[p->iCur], "summary") != 0) {
      /* le is an ordinary label outside histograms: put it back. */
      snprintf(zLabels + strlen(zLabels), sizeof(zLabels) - strlen(zLabels), "le=\"%s\",", zLe);
    }
    if (strcmp(p->azType[p->iCur], "counter") == 0 && !(v >= 0)) return pc_fail(p, "negative counter", zLine);
  }
  p->abSamples[p->iCur] = 1;
  snprintf(zSeries, sizeof(zSeries), "%s{%s%s%s}", zName, zLabels, zLe[0] ? "le=" : "", zLe);
  for (int i = 0; i < p->nSeries; i++) {
    if (strcmp(p->azSeries[i], zSeries) == 0) return pc_fail(p, "duplicate series", zLine);
  }
  if (p->nSeries == PC_MAX_SERIES) return pc_fail(p, "too many series", zLine);
  p->azSeries[p->nSeries++] = strdup(zSeries);
  return 0;
}

int promcheck(const char *zText, int *pnFamily, int *pnSample, char *zErr, size_t nErr) {
  pc *p = calloc(1, sizeof(*p));
  const char *z = zText;
  int rc = 0;
  char zLine[4096];
  p->azSeries = calloc(PC_MAX_SERIES, sizeof(char *));
  p->iCur = -1;
  p->zErr = zErr;
  p->nErr = nErr;
  if (*z == 0) rc = pc_fail(p, "empty exposition", "");
  while (rc == 0 && *z != 0) {
    const char *zNl = strchr(z, '\n');
    size_t n;
    p->iLine++;
    if (zNl == NULL) {
      rc = pc_fail(p, "last line without a newline", z);
      break;
    }
    n = (size_t)(zNl - z);
    if (n >= sizeof(zLine)) {
      rc = pc_fail(p, "line too long", "");
      break;
    }
    memcpy(zLine, z, n);
    zLine[n] = 0;
    z = zNl + 1;
    if (n == 0) {
      rc = pc_fail(p, "empty line", "");
    } else if (zLine[0] == '#') {
      rc = pc_comment(p, zLine);
    } else {
      rc = pc_sample(p, zLine);
    }
  }
  if (rc == 0) rc = pc_hist_close(p, "(end)");
  for (int i = 0; rc == 0 && i < p->nFamily; i++) {
    if (p->azType[i][0] == 0 || !p->abHelp[i]) rc = pc_fail(p, "family without HELP or TYPE", p->azFamily[i]);
  }
  if (pnFamily != NULL) *pnFamily = p->nFamily;
  if (pnSample != NULL) *pnSample = p->nSeries;
  for (int i = 0; i < p->nSeries; i++) free(p->azSeries[i]);
  free(p->azSeries);
  free(p);
  return rc;
}

int promcheck_value(const char *zText, const char *zSeries, double *pv) {
  size_t n = strlen(zSeries);
  for (const char *z = zText; z != NULL && *z != 0;) {
    if (strncmp(z, zSeries, n) == 0 && z[n] == ' ') {
      char zVal[64];
      size_t nV = strcspn(z + n + 1, " \n");
      if (nV >= sizeof(zVal)) return -1;
      memcpy(zVal, z + n + 1, nV);
      zVal[nV] = 0;
      return pc_value(zVal, pv);
    }
    z = strchr(z, '\n');
    if (z != NULL) z++;
  }
  return -1;
}
