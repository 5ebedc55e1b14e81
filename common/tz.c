/*
** common/tz.c — time zones (tz.h): TZif files of the system's zoneinfo,
** POSIX TZ rules, a cache of both, and PostgreSQL's fixed abbreviations.
**
** A TZif file (RFC 8536) is a table of transitions, each an instant and
** the local time type (offset, DST flag, abbreviation) from then on;
** versions 2 and 3 repeat the table with 64-bit instants and end with a
** POSIX TZ string that rules every instant after the last transition
** (Debian's files are "fat", but the string is what covers 2038 on). We
** read the 64-bit table when there is one. Before the first transition
** the first type that is not DST holds (the zone's local mean time).
**
** It knows nothing of SQL types: datetime.c turns instants and offsets
** into PostgreSQL's fields and decides what to do in a gap or an overlap.
**
** INTERFACE ROUTINES
**   tz_zone_find, tz_zone_fixed, tz_zone_name, tz_zone_at,
**   tz_zone_next_boundary, tz_abbrev_lookup
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>
#include <unistd.h>

#include "datetime.h"
#include "fsdir.h"
#include "tz.h"

#define TZ_DIR "/usr/share/zoneinfo"

/* One local time type. */
typedef struct tz_type tz_type;
struct tz_type {
  int32_t gmtoff;          /* seconds east of UTC */
  int isdst;
  const char *zAbbrev;     /* into the zone's zAbbrevs */
};

/* When a POSIX rule changes: day kind 'J' (1..365, no Feb 29), 'D' (0..365)
** or 'M' (month.week.weekday, week 5 the last), at iSecs local time. */
typedef struct tz_when tz_when;
struct tz_when {
  char eKind;
  int iDay, iWeek, iMonth;
  int32_t iSecs;
};

/* A POSIX TZ rule: standard time, and if bDst a daylight time between
** two moments of each year. */
typedef struct tz_posix tz_posix;
struct tz_posix {
  int bValid;
  int32_t stdoff, dstoff;  /* seconds east */
  char zStd[16], zDst[16];
  int bDst;
  tz_when start, end;
};

struct tz_zone {
  char *zName;             /* as found by; owned */
  char *zCanonical;        /* the zoneinfo file's own spelling, or zName; owned */
  int nTrans;
  int64_t *aTrans;         /* transition instants, ascending; owned */
  unsigned char *aiType;   /* the type from each transition on; owned */
  int nType;
  tz_type *aType;          /* owned */
  char *zAbbrevs;          /* the types' abbreviations, NUL-separated; owned */
  int iFirstType;          /* the type before the first transition */
  tz_posix rule;           /* after the last transition (or always) */
  tz_zone *pNext;          /* the cache's list */
};

static pthread_mutex_t tz_mutex = PTHREAD_MUTEX_INITIALIZER;
static tz_zone *tz_pCache;

/* ---- POSIX TZ strings ----------------------------------------------------- */

/* Reads a zone abbreviation: anything up to a digit, a sign or a comma
** (tzcode's getzname; PostgreSQL accepts "PM-12:45" as a zone named PM), or
** <...>. Returns the text after it, or NULL if it is empty. */
static const char *tz_posix_name(const char *z, char *zOut, size_t nOut) {
  size_t n = 0;
  if (*z == '<') {
    z++;
    while (*z && *z != '>') {
      if (n + 1 < nOut) zOut[n++] = *z;
      z++;
    }
    if (*z != '>' || n == 0) return NULL;
    z++;
  } else {
    while (*z && !(*z >= '0' && *z <= '9') && *z != ',' && *z != '-' && *z != '+') {
      if (n + 1 < nOut) zOut[n++] = *z;
      z++;
    }
    if (n == 0) return NULL;
  }
  zOut[n] = 0;
  return z;
}

/* Reads [+-]hh[:mm[:ss]] (hours up to 167, as TZif v3 allows) into
** seconds. Returns the text after it, or NULL. */
static const char *tz_posix_secs(const char *z, int32_t *pSecs) {
  int bNeg = 0, aPart[3] = {0, 0, 0}, i = 0;
  if (*z == '+' || *z == '-') bNeg = *z++ == '-';
  for (;;) {
    int nDigit = 0, v = 0;
    while (*z >= '0' && *z <= '9' && nDigit < 3) {
      v = v * 10 + (*z++ - '0');
      nDigit++;
    }
    if (nDigit == 0) return NULL;
    aPart[i++] = v;
    if (i == 3 || *z != ':') break;
    z++;
  }
  if (aPart[0] > 167 || aPart[1] > 59 || aPart[2] > 59) return NULL;
  *pSecs = (aPart[0] * 3600 + aPart[1] * 60 + aPart[2]) * (bNeg ? -1 : 1);
  return z;
}

/* Reads one ",date[/time]" of a rule. */
static const char *tz_posix_when(const char *z, tz_when *w) {
  char *zEnd;
  if (*z != ',') return NULL;
  z++;
  w->iSecs = 7200;                           /* 02:00 by default */
  if (*z == 'J') {
    w->eKind = 'J';
    w->iDay = (int)strtol(z + 1, &zEnd, 10);
    if (zEnd == z + 1 || w->iDay < 1 || w->iDay > 365) return NULL;
  } else if (*z == 'M') {
    w->eKind = 'M';
    w->iMonth = (int)strtol(z + 1, &zEnd, 10);
    if (zEnd == z + 1 || *zEnd != '.') return NULL;
    z = zEnd + 1;
    w->iWeek = (int)strtol(z, &zEnd, 10);
    if (zEnd == z || *zEnd != '.') return NULL;
    z = zEnd + 1;
    w->iDay = (int)strtol(z, &zEnd, 10);
    if (zEnd == z || w->iMonth < 1 || w->iMonth > 12 || w->iWeek < 1 || w->iWeek > 5 ||
        w->iDay < 0 || w->iDay > 6) {
      return NULL;
    }
  } else {
    w->eKind = 'D';
    w->iDay = (int)strtol(z, &zEnd, 10);
    if (zEnd == z || w->iDay < 0 || w->iDay > 365) return NULL;
  }
  z = zEnd;
  if (*z == '/') {
    z = tz_posix_secs(z + 1, &w->iSecs);
    if (z == NULL) return NULL;
  }
  return z;
}

/* Parses a whole POSIX TZ string ("EST5EDT,M3.2.0,M11.1.0"). POSIX
** offsets are west of UTC; they are stored east. Returns 0 or -1. */
static int tz_posix_parse(const char *z, tz_posix *p) {
  int32_t iOff;
  memset(p, 0, sizeof(*p));
  z = tz_posix_name(z, p->zStd, sizeof(p->zStd));
  if (z == NULL || (z = tz_posix_secs(z, &iOff)) == NULL) return -1;
  p->stdoff = -iOff;
  if (*z) {
    z = tz_posix_name(z, p->zDst, sizeof(p->zDst));
    if (z == NULL) return -1;
    p->bDst = 1;
    p->dstoff = p->stdoff + 3600;
    if (*z && *z != ',') {
      if ((z = tz_posix_secs(z, &iOff)) == NULL) return -1;
      p->dstoff = -iOff;
    }
    if (*z == 0) {
      /* No rule: the US rule, as tzcode's default. */
      z = ",M3.2.0,M11.1.0";
    }
    if ((z = tz_posix_when(z, &p->start)) == NULL || (z = tz_posix_when(z, &p->end)) == NULL) {
      return -1;
    }
  }
  if (*z) return -1;
  p->bValid = 1;
  return 0;
}

/* The instant (UTC) at which w happens in year y, given the offset in
** force just before it. */
static int64_t tz_when_instant(const tz_when *w, int y, int32_t iOffBefore) {
  int64_t jd;
  if (w->eKind == 'J') {
    jd = dt_date2j(y, 1, 1) + w->iDay - 1;
    if (dt_is_leap(y) && w->iDay >= 60) jd++;  /* Feb 29 is never counted */
  } else if (w->eKind == 'D') {
    jd = dt_date2j(y, 1, 1) + w->iDay;
  } else {
    int64_t jdFirst = dt_date2j(y, w->iMonth, 1);
    int iDow = (int)((jdFirst + 1) % 7);     /* 0 = Sunday */
    int d = 1 + (w->iDay - iDow + 7) % 7 + (w->iWeek - 1) * 7;
    while (d > dt_days_in_month(y, w->iMonth)) d -= 7;
    jd = jdFirst + d - 1;
  }
  return (jd - DT_UNIX_EPOCH_JD) * DT_SECS_PER_DAY + w->iSecs - iOffBefore;
}

/* The year (UTC) of instant t. */
static int tz_year_of(int64_t t) {
  int64_t days = t >= 0 ? t / DT_SECS_PER_DAY : -((-t + DT_SECS_PER_DAY - 1) / DT_SECS_PER_DAY);
  int y, m, d;
  dt_j2date(days + DT_UNIX_EPOCH_JD, &y, &m, &d);
  return y;
}

/* The rule's changes around year y, in order: instants and whether DST
** holds from each on. Returns how many (6). */
static int tz_posix_changes(const tz_posix *p, int y, int64_t *aT, int *abDst) {
  int n = 0;
  for (int yy = y - 1; yy <= y + 1; yy++) {
    int64_t tStart = tz_when_instant(&p->start, yy, p->stdoff);
    int64_t tEnd = tz_when_instant(&p->end, yy, p->dstoff);
    /* Southern zones end DST before they start it in a year. */
    if (tStart <= tEnd) {
      aT[n] = tStart, abDst[n++] = 1;
      aT[n] = tEnd, abDst[n++] = 0;
    } else {
      aT[n] = tEnd, abDst[n++] = 0;
      aT[n] = tStart, abDst[n++] = 1;
    }
  }
  return n;
}

/* The rule's state at t. */
static void tz_posix_at(const tz_posix *p, int64_t t, int *pGmtoff, int *pIsDst,
                        const char **pzAbbrev) {
  int64_t aT[6];
  int abDst[6], n, bDst = 0;
  if (p->bDst) {
    n = tz_posix_changes(p, tz_year_of(t), aT, abDst);
    for (int i = 0; i < n && aT[i] <= t; i++) bDst = abDst[i];
  }
  *pGmtoff = bDst ? p->dstoff : p->stdoff;
  *pIsDst = bDst;
  *pzAbbrev = bDst ? p->zDst : p->zStd;
}

/* The rule's first change after t. Returns 1 with it, or 0 (no DST). */
static int tz_posix_next(const tz_posix *p, int64_t t, int64_t *pBoundary, int *pAfter) {
  int64_t aT[6];
  int abDst[6], n;
  if (!p->bDst) return 0;
  n = tz_posix_changes(p, tz_year_of(t), aT, abDst);
  for (int i = 0; i < n; i++) {
    if (aT[i] > t) {
      *pBoundary = aT[i];
      *pAfter = abDst[i] ? p->dstoff : p->stdoff;
      return 1;
    }
  }
  return 0;
}

/* ---- TZif files ------------------------------------------------------------- */

static uint32_t tz_be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int64_t tz_be64(const unsigned char *p) {
  return (int64_t)((uint64_t)tz_be32(p) << 32 | tz_be32(p + 4));
}

/* Fills z from TZif bytes a[0..n). Returns 0, or -1 if they are not one. */
static int tz_tzif_read(tz_zone *z, const unsigned char *a, size_t n) {
  const unsigned char *p = a;
  uint32_t aCnt[6];
  size_t nTime = 4, nData;
  int iVersion;
  for (int iPass = 0; iPass < 2; iPass++) {
    if ((size_t)(p - a) + 44 > n || memcmp(p, "TZif", 4) != 0) return -1;
    iVersion = p[4];
    for (int i = 0; i < 6; i++) aCnt[i] = tz_be32(p + 20 + 4 * i);
    /* isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt */
    nData = aCnt[3] * nTime + aCnt[3] + aCnt[4] * 6 + aCnt[5] + aCnt[2] * (nTime + 4) +
            aCnt[1] + aCnt[0];
    if ((size_t)(p - a) + 44 + nData > n) return -1;
    if (iPass == 0 && iVersion >= '2') {     /* skip to the 64-bit table */
      p += 44 + nData;
      nTime = 8;
      continue;
    }
    break;
  }
  if (aCnt[4] == 0 || aCnt[4] > 256 || aCnt[3] > 100000) return -1;
  p += 44;
  z->nTrans = (int)aCnt[3];
  z->nType = (int)aCnt[4];
  z->aTrans = malloc(sizeof(int64_t) * (aCnt[3] + 1));
  z->aiType = malloc(aCnt[3] + 1);
  z->aType = malloc(sizeof(tz_type) * aCnt[4]);
  z->zAbbrevs = malloc(aCnt[5] + 1);
  if (!z->aTrans || !z->aiType || !z->aType || !z->zAbbrevs) return -1;
  for (uint32_t i = 0; i < aCnt[3]; i++) {
    z->aTrans[i] = nTime == 8 ? tz_be64(p) : (int32_t)tz_be32(p);
    p += nTime;
  }
  for (uint32_t i = 0; i < aCnt[3]; i++) {
    z->aiType[i] = *p++;
    if (z->aiType[i] >= aCnt[4]) return -1;
  }
  {
    const unsigned char *pTypes = p;
    p += aCnt[4] * 6;
    memcpy(z->zAbbrevs, p, aCnt[5]);
    z->zAbbrevs[aCnt[5]] = 0;
    for (uint32_t i = 0; i < aCnt[4]; i++) {
      const unsigned char *t = pTypes + 6 * i;
      z->aType[i].gmtoff = (int32_t)tz_be32(t);
      z->aType[i].isdst = t[4] != 0;
      z->aType[i].zAbbrev = z->zAbbrevs + (t[5] < aCnt[5] ? t[5] : aCnt[5]);
    }
    p += aCnt[5] + aCnt[2] * (nTime + 4) + aCnt[1] + aCnt[0];
  }
  z->iFirstType = 0;
  for (int i = 0; i < z->nType; i++) {
    if (!z->aType[i].isdst) {
      z->iFirstType = i;
      break;
    }
  }
  /* The footer: "\n<POSIX TZ>\n". */
  if (nTime == 8 && (size_t)(p - a) < n && *p == '\n') {
    const unsigned char *e = memchr(p + 1, '\n', n - (size_t)(p - a) - 1);
    if (e != NULL && e > p + 1 && (size_t)(e - p) < 256) {
      char zRule[256];
      memcpy(zRule, p + 1, (size_t)(e - p - 1));
      zRule[e - p - 1] = 0;
      tz_posix_parse(zRule, &z->rule);         /* a bad footer: no rule */
    }
  }
  return 0;
}

/* Finds file zName under the zoneinfo directory, each component matched
** case-insensitively when it is not there as written. Writes the path to
** zPath. Returns 0 or -1. */
/* A zone is a readable regular file: "America" or "." name directories. */
static int tz_path_is_file(const char *zPath) {
  struct stat st;
  return access(zPath, R_OK) == 0 && stat(zPath, &st) == 0 && S_ISREG(st.st_mode);
}

static int tz_path_find(const char *zName, char *zPath, size_t nPath) {
  char zCopy[256], *zPart, *zSave = NULL;
  size_t nUsed;
  if (strlen(zName) >= sizeof(zCopy) || zName[0] == '/' || zName[0] == 0 ||
      strstr(zName, "..") != NULL) {
    return -1;
  }
  snprintf(zPath, nPath, "%s/%s", TZ_DIR, zName);
  if (tz_path_is_file(zPath)) return 0;
  snprintf(zCopy, sizeof(zCopy), "%s", zName);
  nUsed = (size_t)snprintf(zPath, nPath, "%s", TZ_DIR);
  for (zPart = strtok_r(zCopy, "/", &zSave); zPart; zPart = strtok_r(NULL, "/", &zSave)) {
    DIR *d = opendir(zPath);
    struct dirent *e;
    int bFound = 0;
    if (d == NULL) return -1;
    while ((e = readdir(d)) != NULL) {
      if (strcasecmp(e->d_name, zPart) == 0) {
        nUsed += (size_t)snprintf(zPath + nUsed, nPath - nUsed, "/%s", e->d_name);
        bFound = 1;
        break;
      }
    }
    closedir(d);
    if (!bFound || nUsed >= nPath) return -1;
  }
  return tz_path_is_file(zPath) ? 0 : -1;
}

static void tz_zone_free(tz_zone *z) {
  free(z->zName);
  free(z->zCanonical);
  free(z->aTrans);
  free(z->aiType);
  free(z->aType);
  free(z->zAbbrevs);
  free(z);
}

/* Loads zone zName (not cached). Returns NULL if there is none. */
static tz_zone *tz_zone_load(const char *zName) {
  char zPath[512];
  tz_zone *z = calloc(1, sizeof(*z));
  if (z == NULL) return NULL;
  z->zName = strdup(zName);
  if (z->zName == NULL) goto out_free;
  if (tz_path_find(zName, zPath, sizeof(zPath)) == 0) {
    size_t n;
    unsigned char *a = (unsigned char *)fsdir_read_file(zPath, &n);
    z->zCanonical = strdup(zPath + strlen(TZ_DIR) + 1);
    if (z->zCanonical == NULL) {
      free(a);
      goto out_free;
    }
    if (a != NULL) {
      int rc = tz_tzif_read(z, a, n);
      free(a);
      if (rc == 0) return z;
    }
    goto out_free;
  }
  {
    /* PostgreSQL reads a POSIX TZ string in upper case. */
    char zUpper[256];
    size_t i;
    for (i = 0; zName[i] && i + 1 < sizeof(zUpper); i++) {
      zUpper[i] = zName[i] >= 'a' && zName[i] <= 'z' ? (char)(zName[i] - 32) : zName[i];
    }
    zUpper[i] = 0;
    if (zName[i] == 0 && zUpper[0] != ':' && tz_posix_parse(zUpper, &z->rule) == 0) return z;
  }
out_free:
  tz_zone_free(z);
  return NULL;
}

int tz_zone_find(const char *zName, const tz_zone **pp, sql_error *pErr) {
  tz_zone *z;
  pthread_mutex_lock(&tz_mutex);
  for (z = tz_pCache; z != NULL; z = z->pNext) {
    if (strcmp(z->zName, zName) == 0) break;
  }
  if (z == NULL && (z = tz_zone_load(zName)) != NULL) {
    z->pNext = tz_pCache;
    tz_pCache = z;
  }
  pthread_mutex_unlock(&tz_mutex);
  if (z == NULL) {
    sql_error_set(pErr, SQLSTATE_INVALID_PARAMETER, -1, "time zone \"%s\" not recognized", zName);
    return -1;
  }
  *pp = z;
  return 0;
}

const tz_zone *tz_zone_fixed(int iGmtoff) {
  char zName[32];
  tz_zone *z;
  snprintf(zName, sizeof(zName), "<fixed %d>", iGmtoff);
  pthread_mutex_lock(&tz_mutex);
  for (z = tz_pCache; z != NULL; z = z->pNext) {
    if (strcmp(z->zName, zName) == 0) break;
  }
  if (z == NULL && (z = calloc(1, sizeof(*z))) != NULL) {
    z->zName = strdup(zName);
    if (z->zName == NULL) {
      free(z);
      z = NULL;
    } else {
      z->rule.bValid = 1;
      z->rule.stdoff = iGmtoff;
      z->pNext = tz_pCache;
      tz_pCache = z;
    }
  }
  pthread_mutex_unlock(&tz_mutex);
  return z;
}

const char *tz_zone_name(const tz_zone *p) {
  return p->zName;
}

const char *tz_zone_canonical(const tz_zone *p) {
  return p->zCanonical != NULL ? p->zCanonical : p->zName;
}

/* The index of the last transition at or before t, or -1. */
static int tz_trans_index(const tz_zone *p, int64_t t) {
  int lo = 0, hi = p->nTrans;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (p->aTrans[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

void tz_zone_at(const tz_zone *p, int64_t t, int *pGmtoff, int *pIsDst, const char **pzAbbrev) {
  int i;
  if (p->rule.bValid && (p->nTrans == 0 || t >= p->aTrans[p->nTrans - 1])) {
    tz_posix_at(&p->rule, t, pGmtoff, pIsDst, pzAbbrev);
    if ((*pzAbbrev)[0] == 0) *pzAbbrev = NULL;   /* a fixed offset */
    return;
  }
  if (p->nType == 0) {
    *pGmtoff = 0;
    *pIsDst = 0;
    *pzAbbrev = "UTC";
    return;
  }
  i = tz_trans_index(p, t);
  i = i < 0 ? p->iFirstType : p->aiType[i];
  *pGmtoff = p->aType[i].gmtoff;
  *pIsDst = p->aType[i].isdst;
  *pzAbbrev = p->aType[i].zAbbrev;
}

int tz_zone_next_boundary(const tz_zone *p, int64_t t, int64_t *pBoundary, int *pBefore,
                          int *pAfter) {
  int isdst, iAfterDst;
  const char *z;
  tz_zone_at(p, t, pBefore, &isdst, &z);
  /* The table: the first transition after t that changes anything. */
  if (p->nTrans > 0 && t < p->aTrans[p->nTrans - 1]) {
    for (int i = tz_trans_index(p, t) + 1; i < p->nTrans; i++) {
      const tz_type *ty = &p->aType[p->aiType[i]];
      if (ty->gmtoff != *pBefore || ty->isdst != isdst) {
        *pBoundary = p->aTrans[i];
        *pAfter = ty->gmtoff;
        return 1;
      }
    }
  }
  /* Past the table: the rule's next change (the last transition itself
  ** if the rule's state differs from the table's last type). */
  if (!p->rule.bValid) return 0;
  if (p->nTrans > 0 && t < p->aTrans[p->nTrans - 1]) {
    int64_t tLast = p->aTrans[p->nTrans - 1];
    tz_posix_at(&p->rule, tLast, pAfter, &iAfterDst, &z);
    if (*pAfter != *pBefore || iAfterDst != isdst) {
      *pBoundary = tLast;
      return 1;
    }
    t = tLast;
  }
  return tz_posix_next(&p->rule, t, pBoundary, pAfter);
}

/* ---- abbreviations ---------------------------------------------------------- */

/* PostgreSQL's Default set (timezonesets/Default), the fixed-offset entries:
** name (lower case), seconds east, DST. Looked up only by input parsing. */
static const struct tz_abbrev {
  const char *zName;
  int32_t gmtoff;
  int isdst;
} tz_aAbbrev[] = {
    {"acdt", 37800, 1}, {"acsst", 37800, 1}, {"acst", 34200, 0}, {"act", -18000, 0},
    {"acwst", 31500, 0}, {"adt", -10800, 1}, {"aedt", 39600, 1}, {"aesst", 39600, 1},
    {"aest", 36000, 0}, {"aft", 16200, 0}, {"akdt", -28800, 1}, {"akst", -32400, 0},
    {"almst", 25200, 1}, {"almt", 21600, 0}, {"amt", -14400, 0}, {"ast", -14400, 0},
    {"awsst", 32400, 1}, {"awst", 28800, 0}, {"azost", 0, 1}, {"azot", -3600, 0},
    {"bdst", 7200, 1}, {"bdt", 21600, 0}, {"bnt", 28800, 0}, {"bort", 28800, 0},
    {"bot", -14400, 0}, {"bra", -10800, 0}, {"brst", -7200, 1}, {"brt", -10800, 0},
    {"bst", 3600, 1}, {"btt", 21600, 0}, {"cadt", 37800, 1}, {"cast", 34200, 0},
    {"cct", 28800, 0}, {"cdt", -18000, 1}, {"cest", 7200, 1}, {"cet", 3600, 0},
    {"cetdst", 7200, 1}, {"chadt", 49500, 1}, {"chast", 45900, 0}, {"chut", 36000, 0},
    {"clst", -10800, 1}, {"cot", -18000, 0}, {"cst", -21600, 0}, {"cxt", 25200, 0},
    {"ddut", 36000, 0}, {"eat", 10800, 0}, {"edt", -14400, 1}, {"eest", 10800, 1},
    {"eet", 7200, 0}, {"eetdst", 10800, 1}, {"egst", 0, 1}, {"egt", -3600, 0},
    {"est", -18000, 0}, {"fet", 10800, 0}, {"fjst", 46800, 1}, {"fjt", 43200, 0},
    {"fnst", -3600, 1}, {"fnt", -7200, 0}, {"galt", -21600, 0}, {"gamt", -32400, 0},
    {"gft", -10800, 0}, {"gilt", 43200, 0}, {"gmt", 0, 0}, {"hkt", 28800, 0},
    {"hst", -36000, 0}, {"ict", 25200, 0}, {"idt", 10800, 1}, {"irt", 12600, 0},
    {"ist", 7200, 0}, {"jayt", 32400, 0}, {"jst", 32400, 0}, {"kdt", 36000, 1},
    {"kgst", 21600, 1}, {"kst", 32400, 0}, {"lhst", 37800, 0}, {"ligt", 36000, 0},
    {"mart", -34200, 0}, {"mdt", -21600, 1}, {"mest", 7200, 1}, {"mesz", 7200, 1},
    {"met", 3600, 0}, {"metdst", 7200, 1}, {"mez", 3600, 0}, {"mht", 43200, 0},
    {"mmt", 23400, 0}, {"mpt", 36000, 0}, {"msd", 14400, 1}, {"mst", -25200, 0},
    {"must", 18000, 1}, {"mut", 14400, 0}, {"mvt", 18000, 0}, {"myt", 28800, 0},
    {"ndt", -9000, 1}, {"nft", -12600, 0}, {"npt", 20700, 0}, {"nst", -12600, 0},
    {"nzdt", 46800, 1}, {"nzst", 43200, 0}, {"nzt", 43200, 0}, {"pdt", -25200, 1},
    {"pet", -18000, 0}, {"pgt", 36000, 0}, {"pht", 28800, 0}, {"pkst", 21600, 1},
    {"pkt", 18000, 0}, {"pmdt", -7200, 1}, {"pmst", -10800, 0}, {"pont", 39600, 0},
    {"pst", -28800, 0}, {"pwt", 32400, 0}, {"pyst", -10800, 1}, {"ret", 14400, 0},
    {"sadt", 37800, 1}, {"sast", 7200, 0}, {"sct", 14400, 0}, {"taht", -36000, 0},
    {"tft", 18000, 0}, {"tjt", 18000, 0}, {"tot", 46800, 0}, {"trut", 36000, 0},
    {"tvt", 43200, 0}, {"uct", 0, 0}, {"ulast", 32400, 1}, {"ut", 0, 0}, {"utc", 0, 0},
    {"uyst", -7200, 1}, {"uyt", -10800, 0}, {"uzst", 21600, 1}, {"uzt", 18000, 0},
    {"vut", 39600, 0}, {"wadt", 28800, 1}, {"wakt", 43200, 0}, {"wast", 25200, 0},
    {"wat", 3600, 0}, {"wdt", 32400, 1}, {"wet", 0, 0}, {"wetdst", 3600, 1},
    {"wft", 43200, 0}, {"wgst", -7200, 1}, {"wgt", -10800, 0}, {"xjt", 21600, 0},
    {"yapt", 36000, 0}, {"yekst", 21600, 1}, {"z", 0, 0}, {"zulu", 0, 0},
};

int tz_abbrev_lookup(const char *zLower, int *pGmtoff, int *pIsDst) {
  for (size_t i = 0; i < sizeof(tz_aAbbrev) / sizeof(tz_aAbbrev[0]); i++) {
    if (strcmp(zLower, tz_aAbbrev[i].zName) == 0) {
      *pGmtoff = tz_aAbbrev[i].gmtoff;
      *pIsDst = tz_aAbbrev[i].isdst;
      return 1;
    }
  }
  return 0;
}
