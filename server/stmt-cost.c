/*
** server/stmt-cost.c — the expected cost of a statement text (stmt-cost.h).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/hash128.h"
#include "stmt-cost.h"

/* The weight of the newest run in a mean: a shape whose data changed is
** judged by its new runs within a few of them. */
#define STMT_COST_ALPHA 0.5

typedef struct cost_slot cost_slot;
struct cost_slot {
  uint64_t h;              /* the text's hash; 0: empty */
  double rMean;            /* seconds */
};

struct stmt_cost {
  int nSlot;
  cost_slot *a;
  double rAll;             /* the mean over every run ... */
  int bAll;                /* ... once there has been one */
};

static uint64_t cost_hash(const char *zSql) {
  hash128 h = hash128_of(zSql, strlen(zSql), 0x5354);
  return h.h1 != 0 ? h.h1 : 1;
}

stmt_cost *stmt_cost_new(int nSlot) {
  stmt_cost *p = calloc(1, sizeof(*p));
  if (p == NULL || nSlot < 1 || (p->a = calloc((size_t)nSlot, sizeof(*p->a))) == NULL) {
    free(p);
    return NULL;
  }
  p->nSlot = nSlot;
  return p;
}

void stmt_cost_free(stmt_cost *p) {
  if (p == NULL) return;
  free(p->a);
  free(p);
}

double stmt_cost_guess(const stmt_cost *p, const char *zSql) {
  uint64_t h = cost_hash(zSql);
  const cost_slot *s = &p->a[h % (uint64_t)p->nSlot];
  return s->h == h ? s->rMean : p->rAll;
}

void stmt_cost_learn(stmt_cost *p, const char *zSql, double rSeconds) {
  uint64_t h = cost_hash(zSql);
  cost_slot *s = &p->a[h % (uint64_t)p->nSlot];
  if (rSeconds < 0) rSeconds = 0;
  if (s->h == h) {
    s->rMean += STMT_COST_ALPHA * (rSeconds - s->rMean);
  } else {
    s->h = h;
    s->rMean = rSeconds;
  }
  p->rAll = p->bAll ? p->rAll + STMT_COST_ALPHA * (rSeconds - p->rAll) : rSeconds;
  p->bAll = 1;
}
