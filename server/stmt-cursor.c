/*
** server/stmt-cursor.c — SQL cursors: DECLARE ... CURSOR, FETCH, MOVE and
** CLOSE, as PostgreSQL 15 runs them (psycopg's named cursors, psql's
** FETCH_COUNT, JDBC drivers that page through DECLARE).
**
** A cursor is a query's rows and a position, kept by the connection
** (stmt_cursors, shared with the connection's jobs under a mutex: one job
** runs at a time, but a job's thread may outlive its connection). DECLARE
** runs the query whole through the executor and keeps its result; FETCH
** hands the session a view of some of those rows, in the order the
** direction reads them, and moves the position; MOVE only moves it.
** Positions are PostgreSQL's: 0 before the first row, 1..N on a row, N+1
** after the last; FETCH FORWARD n returns the rows after the position and
** leaves it on the last returned (N+1 past the end), BACKWARD the rows
** before it, in reverse; ABSOLUTE and RELATIVE move to one row and return
** it if it exists. A NO SCROLL cursor refuses to move backward (55000),
** as PostgreSQL does; any other may (its rows are all kept).
**
** Transactions: a cursor without HOLD needs a transaction block (25P01)
** and ends with it; a WITH HOLD cursor outlives its COMMIT, and is dropped
** by the ROLLBACK of the block that declared it (stmt_cursors_txn_end).
**
** Not yet: DECLARE BINARY (0A000). The rows are kept whole, not
** streamed: a cursor over a large result holds it.
**
** INTERFACE ROUTINES
**   stmt_cursors_new / _ref / _unref   a connection's cursors
**   stmt_cursors_txn_end               COMMIT or ROLLBACK ends cursors
**   stmt_declare, stmt_fetch, stmt_close   the statements (executor thread)
**   stmt_cursor_describe               a cursor's columns (FETCH's; a
**                                      Describe of it as a portal)
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "stmt.h"

typedef struct stmt_cursor stmt_cursor;
struct stmt_cursor {
  char *zName;             /* owned */
  exec_result *pRes;       /* the query's rows; owned, unchanged once declared */
  int64_t iPos;            /* 0 .. nRow + 1 */
  int bHold;               /* WITH HOLD: outlives COMMIT */
  int bNoScroll;           /* NO SCROLL: forward only */
  int bInBlock;            /* declared in the transaction block still open */
  int nRef;                /* the list's, and each FETCH's rows in flight */
  stmt_cursor *pNext;
};

struct stmt_cursors {
  pthread_mutex_t mu;      /* the list, positions, reference counts */
  int nRef;
  stmt_cursor *pList;
};

stmt_cursors *stmt_cursors_new(void) {
  stmt_cursors *p = calloc(1, sizeof(*p));
  if (p == NULL) return NULL;
  pthread_mutex_init(&p->mu, NULL);
  p->nRef = 1;
  return p;
}

stmt_cursors *stmt_cursors_ref(stmt_cursors *p) {
  pthread_mutex_lock(&p->mu);
  p->nRef++;
  pthread_mutex_unlock(&p->mu);
  return p;
}

/* Drops one reference to cursor k (mu held). */
static void cursor_unref(stmt_cursor *k) {
  if (--k->nRef > 0) return;
  exec_result_free(k->pRes);
  free(k->pRes);
  free(k->zName);
  free(k);
}

/* Unlinks every cursor xDrop chooses (mu held). */
static void cursors_drop(stmt_cursors *p, int (*xDrop)(const stmt_cursor *)) {
  stmt_cursor **pp = &p->pList;
  while (*pp != NULL) {
    stmt_cursor *k = *pp;
    if (xDrop(k)) {
      *pp = k->pNext;
      cursor_unref(k);
    } else {
      pp = &k->pNext;
    }
  }
}

static int cursor_any(const stmt_cursor *k) { return k != NULL; }
static int cursor_uncommitted(const stmt_cursor *k) { return !k->bHold || k->bInBlock; }
static int cursor_unheld(const stmt_cursor *k) { return !k->bHold; }

void stmt_cursors_unref(stmt_cursors *p) {
  int n;
  if (p == NULL) return;
  pthread_mutex_lock(&p->mu);
  n = --p->nRef;
  if (n == 0) cursors_drop(p, cursor_any);
  pthread_mutex_unlock(&p->mu);
  if (n > 0) return;
  pthread_mutex_destroy(&p->mu);
  free(p);
}

void stmt_cursors_txn_end(stmt_cursors *p, int bCommit) {
  if (p == NULL) return;
  pthread_mutex_lock(&p->mu);
  cursors_drop(p, bCommit ? cursor_unheld : cursor_uncommitted);
  for (stmt_cursor *k = p->pList; k != NULL; k = k->pNext) k->bInBlock = 0;
  pthread_mutex_unlock(&p->mu);
}

/* The cursor named zName (mu held), or NULL. */
static stmt_cursor *cursor_find(stmt_cursors *p, const char *zName) {
  for (stmt_cursor *k = p->pList; k != NULL; k = k->pNext) {
    if (strcmp(k->zName, zName) == 0) return k;
  }
  return NULL;
}

void stmt_declare(stmt_job *j, const sql_stmt *pStmt) {
  stmt_cursors *p = j->pCursors;
  stmt_cursor *k;
  exec_result *r;
  sql_error e;
  int bHold = (pStmt->mCursor & SQL_CURSOR_HOLD) != 0;
  if (p == NULL) {
    stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return;
  }
  if (pStmt->mCursor & SQL_CURSOR_BINARY) {
    stmt_job_error(j, SQLSTATE_FEATURE_NOT_SUPPORTED, pStmt->iOffset,
                   "DECLARE BINARY CURSOR is not supported yet");
    return;
  }
  if (!bHold && j->cTxn != 'T') {
    stmt_job_error(j, "25P01", -1, "DECLARE CURSOR can only be used in transaction blocks");
    return;
  }
  pthread_mutex_lock(&p->mu);
  k = cursor_find(p, pStmt->zName);
  pthread_mutex_unlock(&p->mu);
  if (k != NULL) {
    stmt_job_error(j, "42P03", -1, "cursor \"%s\" already exists", pStmt->zName);
    return;
  }
  if ((r = calloc(1, sizeof(*r))) == NULL || (k = calloc(1, sizeof(*k))) == NULL ||
      (k->zName = strdup(pStmt->zName)) == NULL) {
    free(r);
    free(k);
    stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return;
  }
  sql_error_clear(&e);
  if (stmt_select_run(j, pStmt, r, &e) != 0) {
    stmt_job_error_sql(j, &e);
    exec_result_free(r);
    free(r);
    free(k->zName);
    free(k);
    return;
  }
  k->pRes = r;
  k->bHold = bHold;
  k->bNoScroll = (pStmt->mCursor & SQL_CURSOR_NO_SCROLL) != 0;
  k->bInBlock = j->cTxn == 'T';
  k->nRef = 1;
  pthread_mutex_lock(&p->mu);
  if (cursor_find(p, pStmt->zName) != NULL) {       /* declared meanwhile: cannot be, one job */
    cursor_unref(k);
    k = NULL;
  } else {
    k->pNext = p->pList;
    p->pList = k;
  }
  pthread_mutex_unlock(&p->mu);
  if (k == NULL) {
    stmt_job_error(j, "42P03", -1, "cursor \"%s\" already exists", pStmt->zName);
    return;
  }
  stmt_job_command(j, "DECLARE CURSOR");
}

/* ---- FETCH's rows ------------------------------------------------------------ */

/* Rows of a cursor: n of them from iFirst, stepping by iStep (+1, -1). */
typedef struct cursor_rows cursor_rows;
struct cursor_rows {
  stmt_cursors *pCursors;  /* a reference: the lock of the cursor's count */
  stmt_cursor *pCursor;    /* a reference */
  int64_t iFirst, n;
  int iStep;
};

static int64_t cursor_rows_count(void *pArg) { return ((cursor_rows *)pArg)->n; }

static int cursor_rows_value(void *pArg, int64_t iRow, int iCol, strbuf *pOut) {
  cursor_rows *v = pArg;
  const exec_result *r = v->pCursor->pRes;
  int64_t i = v->iFirst + iRow * v->iStep;
  if (iRow < 0 || iRow >= v->n || iCol < 0 || iCol >= r->nCol || i < 0 || i >= r->nRow) return -1;
  return exec_result_text(r, i, iCol, pOut) ? 1 : 0;
}

static void cursor_rows_free(void *pArg) {
  cursor_rows *v = pArg;
  pthread_mutex_lock(&v->pCursors->mu);
  cursor_unref(v->pCursor);
  pthread_mutex_unlock(&v->pCursors->mu);
  stmt_cursors_unref(v->pCursors);
  free(v);
}

static const pg_result_ops cursor_rows_ops = {cursor_rows_count, cursor_rows_value,
                                              cursor_rows_free, NULL};

/* Works out where FETCH pStmt takes cursor k (N rows) from position p:
** the rows it returns — *pn of them from row *piFirst (1-based) by
** *piStep — and the new position *pp. Returns 0, or -1 when it would move
** backward and k is NO SCROLL. */
static int cursor_move(const stmt_cursor *k, const sql_stmt *pStmt, int64_t *pp, int64_t *piFirst,
                       int64_t *pn, int *piStep) {
  int64_t N = k->pRes->nRow, p = *pp, c = pStmt->nFetch, t;
  *pn = 0;
  *piFirst = 1;
  *piStep = 1;
  if (pStmt->eFetch == SQL_FETCH_FORWARD || pStmt->eFetch == SQL_FETCH_BACKWARD) {
    int bBack = (pStmt->eFetch == SQL_FETCH_BACKWARD) != (c < 0);
    int64_t m = pStmt->bFetchAll ? INT64_MAX : c < 0 ? -c : c;
    if (m == 0) {                                    /* FETCH 0: the current row */
      if (p >= 1 && p <= N) *pn = 1, *piFirst = p;
      return 0;
    }
    if (bBack && k->bNoScroll) return -1;
    if (!bBack) {
      int64_t iLast = p >= N ? N : (m > N - p ? N : p + m);
      if (p < N) *pn = iLast - p, *piFirst = p + 1;
      *pp = (p >= N || m > N - p) ? N + 1 : p + m;
    } else {
      int64_t iLast = p <= 1 ? 1 : (m >= p - 1 ? 1 : p - m);
      if (p > 1) *pn = p - iLast, *piFirst = p - 1, *piStep = -1;
      *pp = (p <= 1 || m >= p) ? 0 : p - m;
    }
    return 0;
  }
  /* ABSOLUTE and RELATIVE: one row, or none. */
  t = pStmt->eFetch == SQL_FETCH_ABSOLUTE ? (c >= 0 ? c : N + 1 + c) : p + c;
  if (t < 0) t = 0;
  if (t > N + 1) t = N + 1;
  if (t < p && k->bNoScroll) return -1;
  *pp = t;
  if (t >= 1 && t <= N) *pn = 1, *piFirst = t;
  return 0;
}

void stmt_fetch(stmt_job *j, const sql_stmt *pStmt) {
  stmt_cursors *p = j->pCursors;
  stmt_cursor *k;
  cursor_rows *v;
  int64_t iPos, iFirst, n;
  int iStep, rc;
  if (p == NULL || (v = calloc(1, sizeof(*v))) == NULL) {
    stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return;
  }
  pthread_mutex_lock(&p->mu);
  if ((k = cursor_find(p, pStmt->zName)) == NULL) {
    pthread_mutex_unlock(&p->mu);
    free(v);
    stmt_job_error(j, "34000", -1, "cursor \"%s\" does not exist", pStmt->zName);
    return;
  }
  iPos = k->iPos;
  if ((rc = cursor_move(k, pStmt, &iPos, &iFirst, &n, &iStep)) == 0) {
    k->iPos = iPos;
    k->nRef++;
  }
  pthread_mutex_unlock(&p->mu);
  if (rc != 0) {
    free(v);
    stmt_job_error(j, "55000", -1, "cursor can only scan forward");
    snprintf(j->zDetail, sizeof(j->zDetail), "Declare it with SCROLL option to enable backward scan.");
    j->out.error.zHint = j->zDetail;
    return;
  }
  if (pStmt->bMove) {
    free(v);
    pthread_mutex_lock(&p->mu);
    cursor_unref(k);
    pthread_mutex_unlock(&p->mu);
    snprintf(j->zTag, sizeof(j->zTag), "MOVE %lld", (long long)n);
    j->out.eKind = PG_OUTCOME_COMMAND;
    j->out.zTag = j->zTag;
    return;
  }
  v->pCursors = stmt_cursors_ref(p);
  v->pCursor = k;
  v->iFirst = iFirst - 1;
  v->n = n;
  v->iStep = iStep;
  snprintf(j->zTag, sizeof(j->zTag), "FETCH");
  j->out.zTag = j->zTag;
  j->out.bTagCount = 1;
  stmt_result_rows(j, k->pRes, &cursor_rows_ops, v);
}

int stmt_cursor_describe(stmt_job *j, const char *zName, int bPortal) {
  stmt_cursors *p = j->pCursors;
  stmt_cursor *k;
  cursor_rows *v;
  if (p == NULL || (v = calloc(1, sizeof(*v))) == NULL) {
    stmt_job_error(j, SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return -1;
  }
  pthread_mutex_lock(&p->mu);
  if ((k = cursor_find(p, zName)) != NULL) k->nRef++;
  pthread_mutex_unlock(&p->mu);
  if (k == NULL) {
    free(v);
    stmt_job_error(j, "34000", -1, "%s \"%s\" does not exist", bPortal ? "portal" : "cursor",
                   zName);
    return -1;
  }
  v->pCursors = stmt_cursors_ref(p);
  v->pCursor = k;
  stmt_result_rows(j, k->pRes, &cursor_rows_ops, v);   /* no rows: its columns */
  return 0;
}

void stmt_close(stmt_job *j, const sql_stmt *pStmt) {
  stmt_cursors *p = j->pCursors;
  int bFound = pStmt->zName == NULL;
  if (p != NULL) {
    pthread_mutex_lock(&p->mu);
    if (pStmt->zName == NULL) {
      cursors_drop(p, cursor_any);
    } else {
      for (stmt_cursor **pp = &p->pList; *pp != NULL; pp = &(*pp)->pNext) {
        stmt_cursor *k = *pp;
        if (strcmp(k->zName, pStmt->zName) != 0) continue;
        *pp = k->pNext;
        cursor_unref(k);
        bFound = 1;
        break;
      }
    }
    pthread_mutex_unlock(&p->mu);
  }
  if (!bFound) {
    stmt_job_error(j, "34000", -1, "cursor \"%s\" does not exist", pStmt->zName);
    return;
  }
  stmt_job_command(j, pStmt->zName == NULL ? "CLOSE CURSOR ALL" : "CLOSE CURSOR");
}
