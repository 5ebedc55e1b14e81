/*
** planner/bind_time.c — timestamp and timestamptz literals, and dates in
** the spellings the fast reader of bind_lit.c leaves: a string read as
** one of these types by PostgreSQL's own input functions
** (common/datetime-parse.c: '1998-01-01 00:00:00', ISO 8601 with T and a
** zone, month names, epoch, infinity).
**
** A timestamp literal is rewritten as a SQL_EXPR_DATE node of type
** TIMESTAMP or TIMESTAMPTZ (in castType too, which binding again reads)
** whose text is the canonical spelling
** (timestamptz's in UTC with its offset), so that it binds again to the
** same value and the loader's value_parse() reads it as codegen needs.
** A timestamptz written without a zone is read in the session's TimeZone
** (bind_zone_set: a setting of the binding thread, as the engine binds a
** statement on one thread from start to end). Words relative to now ('now',
** 'today', 'yesterday', 'tomorrow') are refused (0A000): a literal is
** read once when a statement is prepared, and a kept statement would
** keep that day. They are found by reading the text at two instants.
**
** INTERFACE ROUTINES
**   bind_zone_set         the session's TimeZone, for timestamptz literals
**   bind__timestamp_set   a string as a timestamp or timestamptz literal
**   bind__date_general    a string as a date by date_in's rules
**   bind__time_func       extract, date_part, date_trunc of a timestamp
**   bind__time_make       make_date, make_timestamp, to_date, to_timestamp
**                         of constants, folded into a literal
**   bind_time_tod         the kernels' time-of-day field or truncation a
**                         call is (hour, minute, second, epoch, ...)
*/
#include <stdio.h>
#include <string.h>

#include "../common/datetime.h"
#include "../common/tz.h"
#include "bindInt.h"

static _Thread_local const tz_zone *bind_zone;

void bind_zone_set(const tz_zone *pZone) { bind_zone = pZone; }

/* Two instants a day and a second apart, for telling a text that names
** a fixed time from one relative to now. */
#define BIND_NOW_A 0
#define BIND_NOW_B (INT64_C(86401) * 1000000)

static int bind_relative(bind_ctx *p, const sql_expr *e, const char *zText) {
  sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                "a date or time relative to now (\"%s\") is not supported yet", zText);
  return -1;
}

/* Reads zText as a timestamp (bZone: timestamptz) at "now" tNow. */
static int bind_ts_parse(const char *zText, int bZone, int64_t tNow, int64_t *pTs, sql_error *pErr) {
  dt_session ses = {bind_zone, DT_ORDER_MDY, tNow};
  sql_error_clear(pErr);
  return bZone ? dt_timestamptz_parse(zText, strlen(zText), &ses, pTs, pErr)
               : dt_timestamp_parse(zText, strlen(zText), &ses, pTs, pErr);
}

int bind__timestamp_set(bind_ctx *p, sql_expr *e, coltype t) {
  const char *zText = e->zText != NULL ? e->zText : "";
  char z[DT_TEXT_MAX];
  int64_t ts, ts2;
  int bZone = t.eId == COLTYPE_TIMESTAMPTZ;
  sql_error err;
  if (bind_ts_parse(zText, bZone, BIND_NOW_A, &ts, &err) != 0) {
    sql_error_set(p->pErr, err.zState, e->iOffset, "%s", err.zMsg);
    return -1;
  }
  if (bind_ts_parse(zText, bZone, BIND_NOW_B, &ts2, &err) != 0 || ts2 != ts) {
    return bind_relative(p, e, zText);
  }
  if (ts == INT64_MIN || ts == INT64_MAX) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "infinite timestamps are not supported yet");
    return -1;
  }
  if (bZone) dt_timestamptz_format(ts, tz_zone_fixed(0), z, sizeof(z));
  else dt_timestamp_format(ts, z, sizeof(z));
  if ((e->zText = bind__strdup(p, z)) == NULL) return -1;
  e->eKind = SQL_EXPR_DATE;
  memset(&e->b.type, 0, sizeof(e->b.type));
  e->b.type.eId = t.eId;
  e->b.type.nScale = COLTYPE_TIME_PRECISION_MAX;
  e->castType = e->b.type;               /* what bind__date reads again */
  return 0;
}

int bind__date_general(bind_ctx *p, const sql_expr *e, const char *zText, int *pYmd) {
  dt_session ses = {NULL, DT_ORDER_MDY, BIND_NOW_A};
  int32_t iDay, iDay2;
  int y, m, d;
  sql_error err;
  sql_error_clear(&err);
  if (dt_date_parse(zText, strlen(zText), &ses, &iDay, &err) != 0) {
    sql_error_set(p->pErr, err.zState, e->iOffset, "%s", err.zMsg);
    return -1;
  }
  ses.tNow = BIND_NOW_B;
  if (dt_date_parse(zText, strlen(zText), &ses, &iDay2, &err) != 0 || iDay2 != iDay) {
    return bind_relative(p, e, zText);
  }
  dt_date_to_ymd(iDay, &y, &m, &d);
  if (iDay == DT_DATE_NOBEGIN || iDay == DT_DATE_NOEND || y < 1 || y > 9999) {
    /* a DATE holds yyyymmdd: no BC dates, no infinities */
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "dates outside 0001-01-01 .. 9999-12-31 are not supported yet: \"%s\"", zText);
    return -1;
  }
  *pYmd = y * 10000 + m * 100 + d;
  return 0;
}

/* ---- date functions of a timestamp -------------------------------------------- */

int bind_time_unit_daily(const char *zUnit, int bTrunc) {
  /* A field of the day has one value at a day's first and last instant,
  ** on days that start a week, a month, a year and a leap day. */
  static const int64_t aDay[] = {0, 59, 60, 366, -1, 8825, -730119};
  const int64_t nDayUs = INT64_C(86400000000);
  sql_error err;
  for (size_t i = 0; i < sizeof(aDay) / sizeof(aDay[0]); i++) {
    int64_t t0 = aDay[i] * nDayUs, t1 = t0 + nDayUs - 1;
    sql_error_clear(&err);
    if (bTrunc) {
      int64_t r0, r1;
      if (dt_trunc(DT_TYPE_TIMESTAMP, zUnit, &t0, NULL, &r0, &err) != 0 ||
          dt_trunc(DT_TYPE_TIMESTAMP, zUnit, &t1, NULL, &r1, &err) != 0 || r0 != r1) {
        return 0;
      }
    } else {
      double r0, r1;
      int bNull0, bNull1;
      if (dt_date_part(DT_TYPE_TIMESTAMP, zUnit, &t0, NULL, &r0, &bNull0, &err) != 0 ||
          dt_date_part(DT_TYPE_TIMESTAMP, zUnit, &t1, NULL, &r1, &bNull1, &err) != 0 ||
          bNull0 || bNull1 || r0 != r1) {
        return 0;
      }
    }
  }
  return 1;
}

int bind__time_func(bind_ctx *p, sql_expr *e, sql_expr **a, int n) {
  static const coltype tDouble = {COLTYPE_DOUBLE, 0, 0, 0};
  coltype tNum = {COLTYPE_DECIMAL, 0, COLTYPE_DECIMAL_PRECISION_MAX, 0};
  int bTrunc = strcmp(e->zName, "date_trunc") == 0, bNull;
  int64_t t0 = 0, r;
  coltype_id eArg;
  numeric v;
  double x;
  sql_error err;
  if (n == 2 && bind__is_unknown(a[0]) && a[0]->eKind == SQL_EXPR_STRING) {
    a[0]->b.type = (coltype){COLTYPE_TEXT, 0, 0, 0};
  }
  if (n == 2 && bind__is_unknown(a[1]) && a[1]->eKind == SQL_EXPR_STRING && bTrunc) {
    /* date_trunc('day', '...'): PostgreSQL picks timestamptz */
    if (bind__literal_coerce(p, a[1], (coltype){COLTYPE_TIMESTAMPTZ, 0, 0, 6}) != 0) return -1;
  }
  eArg = a[1 % (n > 0 ? n : 1)]->b.type.eId;
  if (n != 2 || !coltype_is_string(a[0]->b.type) ||
      (eArg != COLTYPE_TIMESTAMP && eArg != COLTYPE_TIMESTAMPTZ && eArg != COLTYPE_DATE)) {
    return bind__no_function(p, e, a, n);
  }
  if (a[0]->eKind != SQL_EXPR_STRING) {
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, a[0]->iOffset,
                  "%s with a unit other than a literal is not supported yet", e->zName);
    return -1;
  }
  if (eArg != COLTYPE_TIMESTAMP) {
    /* timestamptz's fields are the session zone's, and date_trunc of a
    ** date is of a timestamptz: the planner does not know the zone */
    sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, e->iOffset,
                  "%s of %s is not supported yet", e->zName,
                  eArg == COLTYPE_DATE ? "a date" : "timestamp with time zone");
    return -1;
  }
  sql_error_clear(&err);
  if (bTrunc ? dt_trunc(DT_TYPE_TIMESTAMP, a[0]->zText, &t0, NULL, &r, &err) != 0
             : e->zName[0] == 'e'
                   ? dt_extract(DT_TYPE_TIMESTAMP, a[0]->zText, &t0, NULL, &v, &bNull, &err) != 0
                   : dt_date_part(DT_TYPE_TIMESTAMP, a[0]->zText, &t0, NULL, &x, &bNull, &err) != 0) {
    sql_error_set(p->pErr, err.zState, -1, "%s", err.zMsg);   /* PostgreSQL says where not */
    return -1;
  }
  if (!bind_time_unit_daily(a[0]->zText, bTrunc)) {
    /* of the time of day: the kernels compute it (sq_ts_tod) */
    int k = bind_time_tod_kind(a[0]->zText, bTrunc);
    if (k == 0) {
      sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, a[0]->iOffset,
                    "%s('%s', timestamp) is not supported yet", e->zName, a[0]->zText);
      return -1;
    }
    tNum.nScale = bind_time_tod_scale(k);
  }
  e->b.type = bTrunc ? a[1]->b.type : e->zName[0] == 'e' ? tNum : tDouble;
  return 0;
}

/* ---- make_date, make_timestamp, to_date, to_timestamp of constants -------------- */

/* 1 if e is a constant the binder evaluates: a number (with its sign), a
** string, NULL. */
static int bind_time_is_const(const sql_expr *e) {
  while (e->eKind == SQL_EXPR_UNARY && e->eOp == SQL_OP_NEG && e->pLeft != NULL) e = e->pLeft;
  return e->eKind == SQL_EXPR_INTEGER || e->eKind == SQL_EXPR_DECIMAL ||
         e->eKind == SQL_EXPR_STRING || e->eKind == SQL_EXPR_NULL;
}

/* The result type of constructor zName, or 0 if it is none. */
static coltype_id bind_time_make_type(const char *zName) {
  if (strcmp(zName, "make_date") == 0 || strcmp(zName, "to_date") == 0) return COLTYPE_DATE;
  if (strcmp(zName, "make_timestamp") == 0) return COLTYPE_TIMESTAMP;
  if (strcmp(zName, "to_timestamp") == 0) return COLTYPE_TIMESTAMPTZ;
  return 0;
}

int bind__time_make_name(const char *zName) { return bind_time_make_type(zName) != 0; }

/* Reads constant a as an int (*pv) or double (*pr); 0 if it is NULL. */
static int bind_time_num(bind_ctx *p, const sql_expr *a, int bDouble, int64_t *pv, double *pr) {
  if (a->eKind == SQL_EXPR_NULL) return 0;
  if (bDouble) {
    if (!bind__const_double(a, pr)) return -1;
    return 1;
  }
  return bind__const_int(p, a, pv);
}

int bind__time_make(bind_ctx *p, sql_expr *e, sql_expr **a, int n) {
  coltype_id eType = bind_time_make_type(e->zName);
  int bText = e->zName[0] == 't', bNull = 0, nWant;
  int64_t iv[5] = {0, 0, 0, 0, 0}, ts = 0;
  int32_t iDay = 0;
  double rSec = 0;
  char z[DT_TEXT_MAX];
  sql_error err;
  nWant = eType == COLTYPE_TIMESTAMP ? 6 : eType == COLTYPE_DATE && !bText ? 3 : bText && n == 1 ? 1 : 2;
  if (n != nWant) return bind__no_function(p, e, a, n);
  for (int i = 0; i < n; i++) {
    if (!bind_time_is_const(a[i])) {
      sql_error_set(p->pErr, SQLSTATE_FEATURE_NOT_SUPPORTED, a[i]->iOffset,
                    "%s of values other than constants is not supported yet", e->zName);
      return -1;
    }
    if (a[i]->eKind == SQL_EXPR_NULL) bNull = 1;
  }
  sql_error_clear(&err);
  if (!bNull && bText && n == 2) {
    if (a[0]->eKind != SQL_EXPR_STRING || a[1]->eKind != SQL_EXPR_STRING) {
      return bind__no_function(p, e, a, n);
    }
    if (eType == COLTYPE_DATE ? dt_to_date_fmt(a[0]->zText, a[1]->zText, &iDay, &err) != 0
                              : dt_to_timestamp_fmt(a[0]->zText, a[1]->zText, bind_zone, &ts, &err) != 0) {
      sql_error_set(p->pErr, err.zState, -1, "%s", err.zMsg);   /* as a call: no position */
      return -1;
    }
  } else if (!bNull) {
    for (int i = 0; i < n; i++) {
      int bDouble = (eType == COLTYPE_TIMESTAMP && i == 5) || (bText && n == 1);
      int rc = bind_time_num(p, a[i], bDouble, bDouble ? NULL : &iv[i], bDouble ? &rSec : NULL);
      if (rc < 0) {
        if (p->pErr->zState[0] == 0) return bind__no_function(p, e, a, n);
        return -1;
      }
      if (!bDouble && (iv[i] < INT32_MIN || iv[i] > INT32_MAX)) {
        sql_error_set(p->pErr, SQLSTATE_NUMERIC_OUT_OF_RANGE, a[i]->iOffset, "integer out of range");
        return -1;
      }
    }
    if ((eType == COLTYPE_DATE && dt_make_date((int)iv[0], (int)iv[1], (int)iv[2], &iDay, &err) != 0) ||
        (eType == COLTYPE_TIMESTAMP &&
         dt_make_timestamp((int)iv[0], (int)iv[1], (int)iv[2], (int)iv[3], (int)iv[4], rSec, &ts, &err) != 0) ||
        (eType == COLTYPE_TIMESTAMPTZ && dt_to_timestamp_epoch(rSec, &ts, &err) != 0)) {
      sql_error_set(p->pErr, err.zState, -1, "%s", err.zMsg);   /* as a call: no position */
      return -1;
    }
  }
  /* The call becomes the literal of its value. */
  e->pList = NULL;
  memset(&e->b.type, 0, sizeof(e->b.type));
  memset(&e->castType, 0, sizeof(e->castType));
  if (bNull) {
    e->eKind = SQL_EXPR_NULL;
    e->b.type.eId = eType;
    if (eType != COLTYPE_DATE) e->b.type.nScale = COLTYPE_TIME_PRECISION_MAX;
    return 0;
  }
  if (eType == COLTYPE_DATE) dt_date_format(iDay, z, sizeof(z));
  else if (eType == COLTYPE_TIMESTAMP) dt_timestamp_format(ts, z, sizeof(z));
  else dt_timestamptz_format(ts, tz_zone_fixed(0), z, sizeof(z));
  e->eKind = SQL_EXPR_STRING;
  if ((e->zText = bind__strdup(p, z)) == NULL) return -1;
  return bind__literal_coerce(p, e, (coltype){eType, 0, 0, eType == COLTYPE_DATE ? 0 : 6});
}

/* ---- time-of-day functions of a timestamp (the kernels' sq_ts_tod) -------------- */

/* The kernels' value of kind k (BIND_TOD_*) at ts: codegen/device.cuh's
** sq_ts_tod, which bind_time_tod_kind holds against common/'s answers. */
static int64_t bind_tod_eval(int k, int64_t ts) {
  static const int64_t aUnit[] = {INT64_C(3600000000), 60000000, 1000000, 1000, 1};
  int64_t m;
  switch (k) {
    case BIND_TOD_HOUR: m = INT64_C(86400000000); break;
    case BIND_TOD_MINUTE: m = INT64_C(3600000000); break;
    case BIND_TOD_EPOCH: return ts + INT64_C(946684800000000);
    case BIND_TOD_SECOND: case BIND_TOD_MILLI: case BIND_TOD_MICRO: m = 60000000; break;
    default: m = aUnit[k - BIND_TOD_TRUNC_HOUR]; break;
  }
  m = ((ts % m) + m) % m;
  if (k >= BIND_TOD_TRUNC_HOUR) return ts - m;
  return k == BIND_TOD_HOUR ? m / INT64_C(3600000000) : k == BIND_TOD_MINUTE ? m / 60000000 : m;
}

int bind_time_tod_scale(int k) {
  return k == BIND_TOD_SECOND || k == BIND_TOD_EPOCH ? 6 : k == BIND_TOD_MILLI ? 3 : 0;
}

int bind_time_tod_kind(const char *zUnit, int bTrunc) {
  /* 13:47:25.123456 of 2000-01-01, the instant before it, 01:02:03.000004
  ** of 2024-02-29, and an afternoon four hundred days before 2000 */
  static const int64_t aTs[] = {INT64_C(49645123456), -1, INT64_C(762483723000004),
                                INT64_C(-34559999987655)};
  int kFirst = bTrunc ? BIND_TOD_TRUNC_HOUR : BIND_TOD_HOUR;
  int kLast = bTrunc ? BIND_TOD_TRUNC_MICRO : BIND_TOD_EPOCH;
  sql_error err;
  for (int k = kFirst; k <= kLast; k++) {
    int bSame = 1;
    for (size_t i = 0; bSame && i < sizeof(aTs) / sizeof(aTs[0]); i++) {
      int64_t r;
      sql_error_clear(&err);
      if (bTrunc) {
        bSame = dt_trunc(DT_TYPE_TIMESTAMP, zUnit, &aTs[i], NULL, &r, &err) == 0 &&
                r == bind_tod_eval(k, aTs[i]);
      } else {
        numeric v, w = numeric_from_int64(bind_tod_eval(k, aTs[i]));
        int bNull;
        w.scale = bind_time_tod_scale(k);
        bSame = dt_extract(DT_TYPE_TIMESTAMP, zUnit, &aTs[i], NULL, &v, &bNull, &err) == 0 &&
                !bNull && v.scale == w.scale && numeric_cmp(&v, &w) == 0;
      }
    }
    if (bSame) return k;
  }
  return 0;
}

int bind_time_tod(const sql_expr *e) {
  const sql_expr *a0, *a1;
  int bTrunc;
  if (e->eKind != SQL_EXPR_FUNC || e->zName == NULL || e->pList == NULL || e->pList->n != 2) return 0;
  bTrunc = strcmp(e->zName, "date_trunc") == 0;
  if (!bTrunc && strcmp(e->zName, "extract") != 0 && strcmp(e->zName, "date_part") != 0) return 0;
  a0 = e->pList->a[0].pExpr;
  a1 = e->pList->a[1].pExpr;
  if (a0->eKind != SQL_EXPR_STRING || a1->b.type.eId != COLTYPE_TIMESTAMP ||
      bind_time_unit_daily(a0->zText, bTrunc)) {
    return 0;
  }
  return bind_time_tod_kind(a0->zText, bTrunc);
}
