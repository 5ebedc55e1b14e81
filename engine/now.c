/*
** engine/now.c — now(), current_timestamp, transaction_timestamp(),
** statement_timestamp(), localtimestamp and current_date: one value per
** statement, the instant the engine prepares it, in the session's
** TimeZone. Each call is replaced in the parse tree, before binding, by a
** literal of its type (bind_time.c's form: a DATE node, with castType
** TIMESTAMPTZ or TIMESTAMP for those, and canonical text), so the kernels
** read it as any
** literal: a kernel parameter, the compiled kernels shared with the same
** statement run at another time. A statement that holds one is never kept
** in the statement cache (its next run needs its own instant).
**
** INTERFACE ROUTINES (engineInt.h)
**   engine__now_apply   the calls in a SELECT (its subqueries, CTEs and
**                       set operands too) replaced
*/
#include <string.h>
#include <time.h>

#include "../common/datetime.h"
#include "../common/tz.h"
#include "engineInt.h"

/* Seconds from 1970-01-01 to 2000-01-01. */
#define NOW_UNIX_2000 INT64_C(946684800)

typedef struct now_walk now_walk;
struct now_walk {
  int64_t tNow;            /* microseconds since 2000-01-01 UTC */
  const tz_zone *pZone;    /* the session's TimeZone */
  arena *pA;
  int bUsed;               /* a call was replaced */
  sql_error *pErr;
};

/* The type call e gives: TIMESTAMPTZ, TIMESTAMP or DATE, or 0 if e is no
** such call (current_timestamp(p), which rounds, stays for the binder). */
static coltype_id now_kind(const sql_expr *e) {
  int n = e->pList != NULL ? e->pList->n : 0;
  const char *z = e->zName;
  if (e->eKind != SQL_EXPR_FUNC || z == NULL || n != 0 || e->pWin != NULL || e->bStar ||
      (e->zSchema != NULL && strcmp(e->zSchema, "pg_catalog") != 0)) {
    return 0;
  }
  if (strcmp(z, "now") == 0 || strcmp(z, "current_timestamp") == 0 ||
      strcmp(z, "transaction_timestamp") == 0 || strcmp(z, "statement_timestamp") == 0) {
    return COLTYPE_TIMESTAMPTZ;
  }
  if (strcmp(z, "localtimestamp") == 0) return COLTYPE_TIMESTAMP;
  if (strcmp(z, "current_date") == 0) return COLTYPE_DATE;
  return 0;
}

/* Makes call e the literal of type eType at w's instant. */
static int now_literal(now_walk *w, sql_expr *e, coltype_id eType) {
  char z[DT_TEXT_MAX];
  int64_t ts;
  int32_t iDay;
  if (eType == COLTYPE_TIMESTAMPTZ) {
    dt_timestamptz_format(w->tNow, tz_zone_fixed(0), z, sizeof(z));
  } else if (dt_timestamptz_to_timestamp(w->tNow, w->pZone, &ts) != DT_OK ||
             (eType == COLTYPE_DATE && dt_timestamp_to_date(ts, &iDay) != DT_OK)) {
    sql_error_set(w->pErr, SQLSTATE_INVALID_DATETIME, e->iOffset, "timestamp out of range");
    return -1;
  } else if (eType == COLTYPE_TIMESTAMP) {
    dt_timestamp_format(ts, z, sizeof(z));
  } else {
    dt_date_format(iDay, z, sizeof(z));
  }
  if ((e->zText = arena_strndup(w->pA, z, strlen(z))) == NULL) {
    sql_error_set(w->pErr, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory for now()");
    return -1;
  }
  e->eKind = SQL_EXPR_DATE;
  e->pList = NULL;
  memset(&e->castType, 0, sizeof(e->castType));
  if (eType != COLTYPE_DATE) {
    e->castType.eId = eType;
    e->castType.nScale = COLTYPE_TIME_PRECISION_MAX;
  }
  w->bUsed = 1;
  return 0;
}

static int now_select(now_walk *w, sql_select *p);

static int now_expr(now_walk *w, sql_expr *e);

static int now_list(now_walk *w, sql_expr_list *p) {
  for (int i = 0; p != NULL && i < p->n; i++) {
    if (now_expr(w, p->a[i].pExpr) != 0) return -1;
  }
  return 0;
}

/* Trees are at most SQL_DEPTH_MAX deep (the parser's limit): this may
** recurse. */
static int now_expr(now_walk *w, sql_expr *e) {
  coltype_id eType;
  if (e == NULL) return 0;
  if ((eType = now_kind(e)) != 0) return now_literal(w, e, eType);
  if (now_expr(w, e->pLeft) != 0 || now_expr(w, e->pRight) != 0 || now_list(w, e->pList) != 0 ||
      now_expr(w, e->pFilter) != 0) {
    return -1;
  }
  return e->pSelect != NULL ? now_select(w, e->pSelect) : 0;
}

static int now_from(now_walk *w, sql_src_list *p) {
  for (int i = 0; p != NULL && i < p->n; i++) {
    sql_src_item *s = &p->a[i];
    if (now_expr(w, s->pOn) != 0 || now_expr(w, s->pFunc) != 0 || now_from(w, s->pNested) != 0 ||
        (s->pSelect != NULL && now_select(w, s->pSelect) != 0)) {
      return -1;
    }
  }
  return 0;
}

static int now_select(now_walk *w, sql_select *p) {
  if (p == NULL) return 0;
  for (int i = 0; p->pWith != NULL && i < p->pWith->nCte; i++) {
    if (now_select(w, p->pWith->aCte[i].pSelect) != 0) return -1;
  }
  if (now_select(w, p->pLeft) != 0 || now_select(w, p->pRight) != 0 ||
      now_list(w, p->pItems) != 0 || now_list(w, p->pValues) != 0 || now_from(w, p->pFrom) != 0 ||
      now_expr(w, p->pWhere) != 0 || now_list(w, p->pGroupBy) != 0 ||
      now_expr(w, p->pHaving) != 0 || now_list(w, p->pOrderBy) != 0 ||
      now_expr(w, p->pLimit) != 0 || now_expr(w, p->pOffset) != 0) {
    return -1;
  }
  return 0;
}

int engine__now_apply(sql_select *pSelect, const engine_request *pReq, arena *pA, int *pbUsed,
                      sql_error *pErr) {
  struct timespec ts;
  now_walk w;
  memset(&w, 0, sizeof(w));
  w.pA = pA;
  w.pErr = pErr;
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0) {
    sql_error_set(pErr, SQLSTATE_INTERNAL_ERROR, -1, "clock_gettime(CLOCK_REALTIME) failed");
    return -1;
  }
  w.tNow = ((int64_t)ts.tv_sec - NOW_UNIX_2000) * 1000000 + ts.tv_nsec / 1000;
  w.pZone = engine__zone(pReq);
  if (now_select(&w, pSelect) != 0) return -1;
  *pbUsed = w.bUsed;
  return 0;
}
