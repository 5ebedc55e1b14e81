/*
** server/status-recent.c — the ring of recently finished queries (status.h):
** executor threads add to it as queries end, and GET /status copies the
** newest out.
**
** A mutex guards the ring. An add copies one entry of about half a
** kilobyte under it and a copy takes at most the ring's capacity, which
** is nothing beside a query's cost, so a lock-free ring would buy no
** speed and cost a torn-read protocol.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

struct status_recent {
  pthread_mutex_t mutex;        /* guards everything below */
  status_query *aEntry;         /* nCapacity slots; owned */
  int nCapacity;
  int iNext;                    /* the slot the next add writes */
  int nUsed;                    /* slots holding an entry */
  uint64_t iSeq;                /* the last sequence number given */
};

const char *query_outcome_name(query_outcome e) {
  switch (e) {
    case QUERY_OK: return "ok";
    case QUERY_CANCELLED: return "cancelled";
    case QUERY_TIMEOUT: return "timeout";
    case QUERY_DISCONNECTED: return "disconnected";
    default: return "error";
  }
}

int status_recent_new(status_recent **pp, int nCapacity) {
  status_recent *p = calloc(1, sizeof(*p));
  *pp = NULL;
  if (nCapacity <= 0) nCapacity = STATUS_RECENT_DEFAULT;
  if (p == NULL) return -1;
  p->aEntry = calloc((size_t)nCapacity, sizeof(p->aEntry[0]));
  if (p->aEntry == NULL || pthread_mutex_init(&p->mutex, NULL) != 0) {
    free(p->aEntry);
    free(p);
    return -1;
  }
  p->nCapacity = nCapacity;
  *pp = p;
  return 0;
}

void status_recent_free(status_recent *p) {
  if (p == NULL) return;
  pthread_mutex_destroy(&p->mutex);
  free(p->aEntry);
  free(p);
}

/* Copies zSql into e->zSql, cutting it before a UTF-8 lead byte when it
** does not fit, so a character is never split (bytes that are not UTF-8
** at all are the JSON writer's to replace). */
static void status__sql_copy(status_query *e, const char *zSql) {
  size_t n = zSql != NULL ? strlen(zSql) : 0;
  e->bTruncated = 0;
  if (n >= STATUS_SQL_MAX) {
    n = STATUS_SQL_MAX - 1;
    /* Back up over continuation bytes (10xxxxxx) to the start of the
    ** character that would be split; at most 3. */
    for (int i = 0; i < 3 && n > 0 && ((unsigned char)zSql[n] & 0xc0) == 0x80; i++) n--;
    e->bTruncated = 1;
  }
  if (n > 0) memcpy(e->zSql, zSql, n);
  e->zSql[n] = 0;
}

void status_recent_add(status_recent *p, const char *zSql, double tStart, double secDuration,
                       int64_t nRows, int64_t nBytesScanned, query_outcome eOutcome) {
  status_query e;
  status__sql_copy(&e, zSql);
  e.tStart = tStart;
  e.secDuration = secDuration;
  e.nRows = nRows;
  e.nBytesScanned = nBytesScanned;
  e.eOutcome = eOutcome;
  pthread_mutex_lock(&p->mutex);
  e.iSeq = ++p->iSeq;
  p->aEntry[p->iNext] = e;
  p->iNext = (p->iNext + 1) % p->nCapacity;
  if (p->nUsed < p->nCapacity) p->nUsed++;
  pthread_mutex_unlock(&p->mutex);
}

int status_recent_copy(status_recent *p, status_query *a, int nMax) {
  int n;
  pthread_mutex_lock(&p->mutex);
  n = nMax < p->nUsed ? nMax : p->nUsed;
  for (int i = 0; i < n; i++) {
    int iSlot = (p->iNext - 1 - i + p->nCapacity) % p->nCapacity;
    a[i] = p->aEntry[iSlot];
  }
  pthread_mutex_unlock(&p->mutex);
  return n < 0 ? 0 : n;
}
