/*
** catalog/calib.c — calibration constants: what a calibration run measured
** on one device, kept as rows (device, name, value, measured_at) of the
** calibration table. This file stores named numbers faithfully and refuses
** ones no model could use (NaN, infinities, empty names); what each name
** means, its range and its default belong to planner/model.c.
**
** A device's constants are written together and replace each other as a
** set: a calibration run measures everything it knows of at once, so the
** rows of one device always come from one run and share one measured_at.
**
** INTERFACE ROUTINES
**   cat_calib_set, cat_calib_get, cat_calib_find, cat_calib_free
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalogInt.h"

/* "YYYY-MM-DDTHH:MM:SSZ" and its terminator. */
#define CALIB_TIME_SIZE 21

/* Checks the arguments of cat_calib_set() before anything is written.
** Quadratic in n for the duplicate test; a device has a few dozen
** constants. Returns 0, or -1 with zErr set. */
static int calib_check(const char *zDevice, int n, const char *const *azName,
                       const double *aValue, char *zErr, size_t nErr) {
  if (zDevice == NULL || zDevice[0] == 0) {
    snprintf(zErr, nErr, "a calibration needs a device name");
    return -1;
  }
  if (n < 0 || (n > 0 && (azName == NULL || aValue == NULL))) {
    snprintf(zErr, nErr, "calibration of \"%s\": %d constants without names or values",
             zDevice, n);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    if (azName[i] == NULL || azName[i][0] == 0) {
      snprintf(zErr, nErr, "calibration of \"%s\": constant %d has no name", zDevice, i);
      return -1;
    }
    if (!isfinite(aValue[i])) {
      snprintf(zErr, nErr, "calibration of \"%s\": \"%s\" is %s, not a finite number",
               zDevice, azName[i], isnan(aValue[i]) ? "NaN" : "infinite");
      return -1;
    }
    for (int j = 0; j < i; j++) {
      if (strcmp(azName[i], azName[j]) == 0) {
        snprintf(zErr, nErr, "calibration of \"%s\": \"%s\" is given twice", zDevice,
                 azName[i]);
        return -1;
      }
    }
  }
  return 0;
}

/* Writes the current UTC time as "YYYY-MM-DDTHH:MM:SSZ" into z. Returns 0,
** or -1 with zErr set if the clock cannot be read. */
static int calib_now(char *z, size_t n, char *zErr, size_t nErr) {
  time_t t = time(NULL);
  struct tm tm;
  if (t == (time_t)-1 || gmtime_r(&t, &tm) == NULL ||
      strftime(z, n, "%Y-%m-%dT%H:%M:%SZ", &tm) != CALIB_TIME_SIZE - 1) {
    snprintf(zErr, nErr, "calibration: the time of day cannot be read");
    return -1;
  }
  return 0;
}

int cat_calib_set(cat *pCat, const char *zDevice, int n, const char *const *azName,
                  const double *aValue, char *zErr, size_t nErr) {
  sqlite3_stmt *pDel = NULL, *pIns = NULL;
  char zNow[CALIB_TIME_SIZE];

  if (calib_check(zDevice, n, azName, aValue, zErr, nErr) != 0) return -1;
  if (calib_now(zNow, sizeof(zNow), zErr, nErr) != 0) return -1;
  if (cat__begin_write(pCat, zErr, nErr) != 0) return -1;
  if (cat__prepare_text(pCat, "DELETE FROM calibration WHERE device = ?1", zDevice, &pDel,
                        zErr, nErr) != 0 ||
      cat__step(pCat, pDel, zErr, nErr) < 0) {
    goto out_rollback;
  }
  if (cat__prepare(pCat,
                   "INSERT INTO calibration(device, name, value, measured_at)"
                   " VALUES (?1, ?2, ?3, ?4)",
                   &pIns, zErr, nErr) != 0) {
    goto out_rollback;
  }
  for (int i = 0; i < n; i++) {
    int rc = SQLITE_OK;
    cat__bind_text(pIns, 1, zDevice, &rc);
    cat__bind_text(pIns, 2, azName[i], &rc);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(pIns, 3, aValue[i]);
    cat__bind_text(pIns, 4, zNow, &rc);
    if (cat__run_bound(pCat, pIns, rc, zErr, nErr) != 0) goto out_rollback;
  }
  sqlite3_finalize(pIns);
  sqlite3_finalize(pDel);
  pIns = pDel = NULL;
  if (cat__commit(pCat, zErr, nErr) != 0) goto out_rollback;
  return 0;
out_rollback:
  sqlite3_finalize(pIns);
  sqlite3_finalize(pDel);
  cat__rollback(pCat);
  return -1;
}

/* ---- reading -------------------------------------------------------------- */

void cat_calib_free(cat_calib *p) {
  if (p == NULL) return;
  for (int i = 0; i < p->n; i++) free(p->azName[i]);
  free(p->azName);
  free(p->aValue);
  free(p->zMeasuredAt);
  free(p->zDevice);
  free(p);
}

/* Appends constant zName = v to p, growing its arrays by doubling (*pnAlloc
** is their capacity). Returns 0, or -1 if memory ran out. */
static int calib_push(cat_calib *p, int *pnAlloc, const char *zName, double v) {
  if (p->n == *pnAlloc) {
    int nNew = *pnAlloc ? 2 * *pnAlloc : 32;
    char **az = realloc(p->azName, (size_t)nNew * sizeof(*az));
    double *a;
    if (az == NULL) return -1;
    p->azName = az;
    a = realloc(p->aValue, (size_t)nNew * sizeof(*a));
    if (a == NULL) return -1;
    p->aValue = a;
    *pnAlloc = nNew;
  }
  if ((p->azName[p->n] = strdup(zName)) == NULL) return -1;
  p->aValue[p->n++] = v;
  return 0;
}

cat_calib *cat__calib_clone(const cat_calib *p) {
  cat_calib *q = calloc(1, sizeof(*q));
  int nAlloc = 0;
  if (q == NULL) return NULL;
  if ((q->zDevice = strdup(p->zDevice)) == NULL ||
      (p->zMeasuredAt != NULL && (q->zMeasuredAt = strdup(p->zMeasuredAt)) == NULL)) {
    goto out_free;
  }
  for (int i = 0; i < p->n; i++) {
    if (calib_push(q, &nAlloc, p->azName[i], p->aValue[i]) != 0) goto out_free;
  }
  return q;
out_free:
  cat_calib_free(q);
  return NULL;
}

/* Reads the calibration of zDevice from SQLite into *pp: a cat_calib
** with n == 0 when the device has none. Returns 0, or -1 with zErr set
** and *pp NULL. */
static int calib_read(cat *pCat, const char *zDevice, cat_calib **pp, char *zErr, size_t nErr) {
  /* BINARY order is strcmp() order, which cat_calib_find() searches by. */
  static const char zSql[] =
      "SELECT name, value, measured_at FROM calibration WHERE device = ?1 ORDER BY name";
  sqlite3_stmt *pStmt;
  cat_calib *p;
  int r, nAlloc = 0;

  *pp = NULL;
  if ((p = calloc(1, sizeof(*p))) == NULL || (p->zDevice = strdup(zDevice)) == NULL) {
    free(p);
    return cat__oom(zErr, nErr);
  }
  if (cat__prepare_text(pCat, zSql, zDevice, &pStmt, zErr, nErr) != 0) goto out_free;
  while ((r = cat__step(pCat, pStmt, zErr, nErr)) == SQLITE_ROW) {
    const char *zAt = cat__column_text(pStmt, 2);
    if (calib_push(p, &nAlloc, cat__column_text(pStmt, 0), sqlite3_column_double(pStmt, 1)) != 0) {
      cat__oom(zErr, nErr);
      goto out_finalize;
    }
    /* One run writes one time; should rows ever differ, the latest is
    ** when the set was last touched. */
    if (p->zMeasuredAt == NULL || strcmp(zAt, p->zMeasuredAt) > 0) {
      free(p->zMeasuredAt);
      if ((p->zMeasuredAt = strdup(zAt)) == NULL) {
        cat__oom(zErr, nErr);
        goto out_finalize;
      }
    }
  }
  if (r < 0) goto out_finalize;
  sqlite3_finalize(pStmt);
  *pp = p;
  return 0;
out_finalize:
  sqlite3_finalize(pStmt);
out_free:
  cat_calib_free(p);
  return -1;
}

int cat_calib_get(cat *pCat, const char *zDevice, cat_calib **pp, char *zErr, size_t nErr) {
  const cat_calib *pCached;
  cat_calib *p;
  *pp = NULL;
  if (zDevice == NULL || zDevice[0] == 0) {
    snprintf(zErr, nErr, "a calibration needs a device name");
    return -1;
  }
  if (cat__cache_check(pCat, zErr, nErr) != 0) return -1;
  if ((pCached = cat__calib_cache_find(pCat, zDevice)) == NULL) {
    if (calib_read(pCat, zDevice, &p, zErr, nErr) != 0) return -1;
    if (!cat__calib_cache_put(pCat, p)) {
      /* Not kept (inside a transaction, or out of memory): handed over. */
      if (p->n == 0) {
        cat_calib_free(p);
        return 0;
      }
      *pp = p;
      return 0;
    }
    pCached = p;
  }
  if (pCached->n == 0) return 0;
  if ((*pp = cat__calib_clone(pCached)) == NULL) return cat__oom(zErr, nErr);
  return 0;
}

/* bsearch() comparison of a name with an element of azName. */
static int calib_name_cmp(const void *pKey, const void *pElem) {
  return strcmp((const char *)pKey, *(char *const *)pElem);
}

const double *cat_calib_find(const cat_calib *p, const char *zName) {
  char **pHit;
  if (p == NULL || p->n == 0) return NULL;
  pHit = bsearch(zName, p->azName, (size_t)p->n, sizeof(p->azName[0]), calib_name_cmp);
  return pHit != NULL ? &p->aValue[pHit - p->azName] : NULL;
}
