/*
** engine/zone.c — timestamptz results in the session's TimeZone. The
** kernels hand back a timestamptz as its UTC microseconds, and
** exec_result_text() prints it in UTC; in any other zone the engine
** rewrites such a column as the text PostgreSQL prints ("2024-03-31
** 03:00:00+02"), which the result carries as strings (exec_column's
** aStrOff, kept across the device worker's wire), so the server prints
** and converts it (binary format) without knowing the zone.
**
** INTERFACE ROUTINES
**   engine__setting        the request's value of a session setting
**   engine__zone           the request's TimeZone
**   engine__result_zone    a result's timestamptz columns in the zone
*/
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/datetime.h"
#include "../common/tz.h"
#include "engineInt.h"

const char *engine__setting(const engine_request *q, const char *zName) {
  size_t i = 0;
  while (q->pSettings != NULL && i < q->nSettings) {
    const char *zKey = q->pSettings + i;
    const char *zVal = zKey + strlen(zKey) + 1;
    if ((size_t)(zVal - q->pSettings) >= q->nSettings) break;
    if (strcasecmp(zKey, zName) == 0) return zVal;
    i = (size_t)(zVal - q->pSettings) + strlen(zVal) + 1;
  }
  return NULL;
}

const tz_zone *engine__zone(const engine_request *q) {
  const char *zZone = engine__setting(q, "timezone");
  const tz_zone *pZone;
  sql_error e;
  sql_error_clear(&e);
  if (zZone == NULL || tz_zone_find(zZone, &pZone, &e) != 0) return tz_zone_fixed(0);
  return pZone;   /* SET checked the name: UTC above only if memory ran out */
}

/* Rewrites column c (nRow values of microseconds) as text in zone pZone.
** Returns 0, or -1 if memory ran out (c unchanged). */
static int zone_column(exec_column *c, int64_t nRow, const tz_zone *pZone) {
  uint64_t *aOff = malloc(((size_t)nRow + 1) * sizeof(uint64_t));
  char *zStr = malloc((size_t)nRow * DT_TEXT_MAX + 1);
  uint64_t n = 0;
  if (aOff == NULL || zStr == NULL) {
    free(aOff);
    free(zStr);
    return -1;
  }
  for (int64_t i = 0; i < nRow; i++) {
    aOff[i] = n;
    if (!c->aNull[i]) n += (uint64_t)dt_timestamptz_format(c->aInt[i], pZone, zStr + n, DT_TEXT_MAX);
    c->aInt[i] = i;
  }
  aOff[nRow] = n;
  c->aStrOff = aOff;
  c->zStr = zStr;
  c->nStr = (uint64_t)nRow;
  return 0;
}

int engine__result_zone(exec_result *r, const engine_request *q, sql_error *pErr) {
  const char *zZone = engine__setting(q, "timezone");
  const tz_zone *pZone;
  sql_error e;
  int bAny = 0;
  for (int i = 0; i < r->nCol; i++) {
    const exec_column *c = &r->aCol[i];
    if (c->type.eId == COLTYPE_TIMESTAMPTZ && !c->bFloat && c->aStrOff == NULL) bAny = 1;
  }
  if (!bAny || zZone == NULL || strcasecmp(zZone, "UTC") == 0) return 0;
  sql_error_clear(&e);
  if (tz_zone_find(zZone, &pZone, &e) != 0) return 0;   /* SET checked it: UTC then */
  for (int i = 0; i < r->nCol; i++) {
    exec_column *c = &r->aCol[i];
    if (c->type.eId != COLTYPE_TIMESTAMPTZ || c->bFloat || c->aStrOff != NULL) continue;
    if (zone_column(c, r->nRow, pZone) != 0) {
      sql_error_set(pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory building the result");
      return -1;
    }
  }
  return 0;
}
