/*
** tests/randsql-select.c — whole random queries: the select list (group
** keys, aggregates, expressions over them; or plain columns), GROUP BY,
** HAVING, ORDER BY and LIMIT, around the FROM and WHERE of randsql.c.
**
** Aggregates take fact columns and expressions (a dimension's numbers one
** time in seven), CASE over fact predicates, COUNT of any column, and
** string values over string keys (upper, lower, substr, replace, ||). The
** order is total only when ORDER BY names every group key (then LIMIT may
** follow); other orders are compared as sets.
*/
#include <stdio.h>
#include <string.h>

#include "randsqlInt.h"

#define RQ_MAX_ITEM 12
#define RQ_MAX_KEY 4

typedef struct rq_item rq_item;
struct rq_item {
  char z[320];             /* the expression as written */
  int iKey;                /* the group key it is, or -1 */
  int bAlias;              /* written AS v<ordinal> */
};

typedef struct rq_select rq_select;
struct rq_select {
  int nItem;
  rq_item aItem[RQ_MAX_ITEM];
  int nKey;
  int aiKeyCol[RQ_MAX_KEY];
  int nBits;               /* of the combined group code */
};

/* Adds an item (there is room: at most 4 keys and 4 aggregates, or 5 columns). */
static void rq_item_add(rq_select *q, const strbuf *s, int iKey) {
  rq_item *it;
  if (q->nItem == RQ_MAX_ITEM) return;
  it = &q->aItem[q->nItem++];
  snprintf(it->z, sizeof(it->z), "%s", strbuf_str(s));
  it->iKey = iKey;
  it->bAlias = 0;
}

/* Appends "CASE WHEN <fact predicate> THEN x [ELSE y] END" over numbers. */
static void rq_case(rq_gen *g, strbuf *s) {
  strbuf_puts(s, "CASE WHEN ");
  randsql__pred(g, randsql__pick(g, 1u << RQ_FACT, RQ_PRED, RQ_INT), 0, s);
  strbuf_puts(s, " THEN ");
  randsql__ref(g, randsql__pick(g, 1u << RQ_FACT, RQ_SUM, RQ_INT), s);
  if (randsql__chance(&g->shape, 60)) {
    strbuf_puts(s, " ELSE ");
    if (randsql__chance(&g->shape, 50)) strbuf_puts(s, "0");
    else randsql__ref(g, randsql__pick(g, 1u << RQ_FACT, RQ_SUM, RQ_INT), s);
  }
  strbuf_puts(s, " END");
}

/* What an aggregate's value allows around it. */
typedef enum rq_num { RQ_NUM_DATE = 0, RQ_NUM_INT, RQ_NUM_FLOAT } rq_num;

/* Appends an aggregate call and says what its value is. */
static rq_num rq_agg(rq_gen *g, strbuf *s) {
  static const char *const azFunc[] = {"count", "count", "sum", "min", "max", "avg"};
  int f = randsql__below(&g->shape, 6), iCol;
  unsigned mFrom = randsql__chance(&g->shape, 85) ? 1u << RQ_FACT : g->mTable;
  if (f == 0 && randsql__chance(&g->shape, 70)) {
    strbuf_puts(s, "count(*)");
    return RQ_NUM_INT;
  }
  strbuf_printf(s, "%s(", azFunc[f]);
  if (randsql__chance(&g->shape, 15)) {
    rq_case(g, s);
    strbuf_puts(s, ")");
    return f == 5 ? RQ_NUM_FLOAT : RQ_NUM_INT;
  }
  if (f == 2 || f == 5) iCol = randsql__pick(g, mFrom, RQ_SUM, RQ_INT);
  else if (f <= 1 && randsql__chance(&g->shape, 30)) iCol = randsql__pick(g, g->mTable, RQ_KEY, 0);
  else if (randsql__chance(&g->shape, 20)) iCol = randsql__pick(g, 1u << RQ_FACT, RQ_MINMAX, RQ_DAY);
  else iCol = randsql__pick(g, mFrom, RQ_SUM, RQ_INT);
  if (iCol < 0) iCol = randsql__pick(g, 1u << RQ_FACT, RQ_SUM, RQ_INT);
  randsql__ref(g, iCol, s);
  strbuf_puts(s, ")");
  if (f == 5) return RQ_NUM_FLOAT;
  return f <= 2 || randsql__aCol[iCol].eType == RQ_INT ? RQ_NUM_INT : RQ_NUM_DATE;
}

/* Appends an expression over aggregates: arithmetic with a nonzero
** constant or, for integers, another count (no date arithmetic, no
** division by an aggregate). */
static void rq_agg_expr(rq_gen *g, strbuf *s) {
  static const char *const azOp[] = {" + ", " - ", " * ", " / ", " % "};
  rq_num e = rq_agg(g, s);
  int eOp;
  if (e == RQ_NUM_DATE) return;
  eOp = randsql__below(&g->shape, e == RQ_NUM_INT ? 5 : 4);
  strbuf_puts(s, azOp[eOp]);
  if (eOp <= 1 && e == RQ_NUM_INT && randsql__chance(&g->shape, 50)) {
    strbuf_puts(s, "count(*)");
  } else {
    strbuf_printf(s, "%d", 1 + randsql__below(&g->lit, 9));
  }
}

/* yyyymmdd of a date literal's text. */
static int64_t rq_ymd(const char *z) {
  int y = 0, m = 0, d = 0;
  sscanf(z, "%d-%d-%d", &y, &m, &d);
  return (int64_t)y * 10000 + m * 100 + d;
}

/* Bits of the code a group key takes in starq's combined group code (its
** value less the column's minimum, or its dictionary code; one more for
** NULL). */
static int rq_key_bits(const rq_gen *g, int iCol) {
  const rq_vals *v = &g->aVals[iCol];
  uint64_t nDomain = 2, nBits = 0;
  switch (randsql__aCol[iCol].eType) {
    case RQ_INT: nDomain += (uint64_t)(v->iMax - v->iMin); break;
    case RQ_DAY: nDomain += (uint64_t)(rq_ymd(v->azVal[v->nVal - 1]) - rq_ymd(v->azVal[0])); break;
    default: nDomain += (uint64_t)v->nVal; break;
  }
  while (nDomain > 1) {
    nBits++;
    nDomain = (nDomain + 1) / 2;
  }
  return (int)nBits;
}

/* Picks the group keys (distinct columns) into q, their combined code no
** wider than 60 bits: starq refuses wider ones (0A000). */
static void rq_keys(rq_gen *g, rq_select *q) {
  static const int aWeight[] = {20, 30, 25, 15, 10};
  int r = randsql__below(&g->shape, 100), nWant = 0;
  while (r >= aWeight[nWant]) r -= aWeight[nWant++];
  q->nKey = 0;
  q->nBits = 0;
  for (int i = 0; i < nWant * 3 && q->nKey < nWant; i++) {
    int iCol = randsql__pick(g, g->mTable, RQ_KEY, 0), bDup = 0;
    for (int j = 0; j < q->nKey; j++) bDup |= q->aiKeyCol[j] == iCol;
    if (bDup || q->nBits + rq_key_bits(g, iCol) > 60) continue;
    q->nBits += rq_key_bits(g, iCol);
    q->aiKeyCol[q->nKey++] = iCol;
  }
}

static void rq_shuffle_items(rq_gen *g, rq_select *q) {
  for (int i = q->nItem - 1; i > 0; i--) {
    int j = randsql__below(&g->shape, i + 1);
    rq_item x = q->aItem[i];
    q->aItem[i] = q->aItem[j];
    q->aItem[j] = x;
  }
  for (int i = 0; i < q->nItem; i++) q->aItem[i].bAlias = randsql__chance(&g->shape, 25);
}

/* Adds a column of the table whose primary key iKeyCol is, ungrouped: it
** depends on the key (PostgreSQL allows it; starq carries it as one more
** key, so it must fit the group code too). */
static void rq_dependent(rq_gen *g, rq_select *q, int iKeyCol, strbuf *s) {
  int iCol = randsql__pick(g, 1u << randsql__aCol[iKeyCol].iTable, RQ_KEY, 0);
  for (int j = 0; j < q->nKey; j++) {
    if (q->aiKeyCol[j] == iCol) return;
  }
  if (iCol == iKeyCol || q->nBits + rq_key_bits(g, iCol) > 60) return;
  q->nBits += rq_key_bits(g, iCol);
  strbuf_reset(s);
  randsql__ref(g, iCol, s);
  rq_item_add(q, s, -1);
}

/* Adds a string value over the query's string keys: a function of one
** (upper, lower, substr, replace, ||) or the || of two of few values each,
** which starq computes once per dictionary code (planner/strval.c). */
static void rq_str_item(rq_gen *g, rq_select *q, strbuf *s) {
  int aStr[RQ_MAX_KEY], n = 0, a, b;
  for (int k = 0; k < q->nKey; k++) {
    if (randsql__aCol[q->aiKeyCol[k]].eType == RQ_STR) aStr[n++] = q->aiKeyCol[k];
  }
  if (n == 0) return;
  a = aStr[randsql__below(&g->shape, n)];
  b = aStr[randsql__below(&g->shape, n)];
  strbuf_reset(s);
  switch (randsql__below(&g->shape, 5)) {
    case 0: strbuf_puts(s, "upper("); randsql__ref(g, a, s); strbuf_puts(s, ")"); break;
    case 1: strbuf_puts(s, "lower("); randsql__ref(g, a, s); strbuf_puts(s, ")"); break;
    case 2:
      strbuf_puts(s, "substr(");
      randsql__ref(g, a, s);
      strbuf_printf(s, ", %d, %d)", 1 + randsql__below(&g->lit, 3), 1 + randsql__below(&g->lit, 5));
      break;
    case 3: strbuf_puts(s, "replace("); randsql__ref(g, a, s); strbuf_puts(s, ", 'A', 'a')"); break;
    default:
      randsql__ref(g, a, s);
      strbuf_puts(s, " || '/'");
      if (a != b && (int64_t)g->aVals[a].nVal * g->aVals[b].nVal <= 100000) {
        strbuf_puts(s, " || ");
        randsql__ref(g, b, s);
      }
      break;
  }
  rq_item_add(q, s, -1);
}

/* The select list of an aggregate query: some keys, aggregates, and
** expressions over them. bAll: every key (SELECT DISTINCT). */
static void rq_agg_items(rq_gen *g, rq_select *q, int nAgg, int bAll) {
  strbuf s;
  strbuf_init(&s);
  q->nItem = 0;
  for (int k = 0; k < q->nKey; k++) {
    if (!bAll && !randsql__chance(&g->shape, 80)) continue;
    strbuf_reset(&s);
    randsql__ref(g, q->aiKeyCol[k], &s);
    rq_item_add(q, &s, k);
    if (!bAll && randsql__is_pkey(q->aiKeyCol[k]) && randsql__chance(&g->shape, 40)) {
      rq_dependent(g, q, q->aiKeyCol[k], &s);
    }
  }
  if (randsql__chance(&g->shape, 30)) rq_str_item(g, q, &s);
  for (int i = 0; i < nAgg; i++) {
    strbuf_reset(&s);
    if (randsql__chance(&g->shape, 20)) rq_agg_expr(g, &s);
    else rq_agg(g, &s);
    rq_item_add(q, &s, -1);
  }
  strbuf_free(&s);
  rq_shuffle_items(g, q);
}

static void rq_items_write(const rq_select *q, strbuf *s) {
  for (int i = 0; i < q->nItem; i++) {
    strbuf_printf(s, "%s%s", i > 0 ? ", " : " ", q->aItem[i].z);
    if (q->aItem[i].bAlias) strbuf_printf(s, " AS v%d", i + 1);
  }
}

/* ---- HAVING, ORDER BY, LIMIT ---------------------------------------------------- */

/* Appends one condition of HAVING: an aggregate against a constant of its
** scale, or a numeric group key against one of its values. */
static void rq_having_term(rq_gen *g, const rq_select *q, strbuf *s) {
  static const char *const azFunc[] = {"sum", "min", "max", "avg"};
  int iKey = randsql__below(&g->shape, q->nKey + 1), iCol, f;
  if (iKey < q->nKey && randsql__aCol[q->aiKeyCol[iKey]].eType == RQ_INT) {
    randsql__ref(g, q->aiKeyCol[iKey], s);
    strbuf_printf(s, " %s ", randsql__azCmp[randsql__below(&g->shape, 6)]);
    randsql__lit(g, q->aiKeyCol[iKey], s);
    return;
  }
  if (randsql__chance(&g->shape, 35)) {
    strbuf_printf(s, "count(*) %s %d", randsql__azCmp[2 + randsql__below(&g->shape, 4)],
                  randsql__below(&g->lit, 60));
    return;
  }
  f = randsql__below(&g->shape, 4);
  iCol = randsql__pick(g, 1u << RQ_FACT, RQ_SUM, RQ_INT);
  strbuf_printf(s, "%s(", azFunc[f]);
  randsql__ref(g, iCol, s);
  strbuf_printf(s, ") %s ", randsql__azCmp[2 + randsql__below(&g->shape, 4)]);
  if (f == 0) {
    /* a sum against a multiple of a value, written as one literal: the
    ** product of two INTEGER literals may pass INTEGER's range (22003) */
    strbuf tmp;
    int64_t v;
    strbuf_init(&tmp);
    v = randsql__lit(g, iCol, &tmp);
    strbuf_free(&tmp);
    strbuf_printf(s, "%lld", (long long)v * (1 + randsql__below(&g->lit, 40)));
  } else {
    randsql__lit(g, iCol, s);
  }
}

static void rq_having(rq_gen *g, const rq_select *q, strbuf *s) {
  int n = 1 + randsql__below(&g->shape, 2);
  strbuf_puts(s, " HAVING ");
  for (int i = 0; i < n; i++) {
    if (i > 0) strbuf_puts(s, randsql__chance(&g->shape, 50) ? " AND " : " OR ");
    rq_having_term(g, q, s);
  }
}

/* Appends item i as an ORDER BY term: its text, its ordinal or its alias. */
static void rq_order_item(rq_gen *g, const rq_select *q, int i, strbuf *s) {
  int r = randsql__below(&g->shape, 10);
  if (r < 3) strbuf_printf(s, "%d", i + 1);
  else if (r < 6 && q->aItem[i].bAlias) strbuf_printf(s, "v%d", i + 1);
  else strbuf_puts(s, q->aItem[i].z);
}

static void rq_order_dir(rq_gen *g, strbuf *s) {
  if (randsql__chance(&g->shape, 40)) {
    strbuf_puts(s, randsql__chance(&g->shape, 50) ? " DESC" : " ASC");
  }
  if (randsql__chance(&g->shape, 10)) {
    strbuf_puts(s, randsql__chance(&g->shape, 50) ? " NULLS FIRST" : " NULLS LAST");
  }
}

/* Appends group key k as an ORDER BY term: as its select item if it is
** one, else by name. */
static void rq_order_key(rq_gen *g, const rq_select *q, int k, strbuf *s) {
  for (int i = 0; i < q->nItem; i++) {
    if (q->aItem[i].iKey == k) {
      rq_order_item(g, q, i, s);
      return;
    }
  }
  randsql__ref(g, q->aiKeyCol[k], s);
}

/* ORDER BY for an aggregate query: some items or aggregates (selected or
** not), then, for a total order, every group key. Returns 1 if the order
** is total (a scalar aggregate has one row). */
static int rq_order_groups(rq_gen *g, const rq_select *q, int bDistinct, strbuf *s) {
  int r = randsql__below(&g->shape, 100), aPerm[RQ_MAX_KEY], nTerm = 0;
  if (q->nKey == 0) return 1;
  if (r >= 80) return 0;
  strbuf_puts(s, " ORDER BY ");
  if (r >= 55 || randsql__chance(&g->shape, 30)) {     /* some items first */
    int n = 1 + (r >= 55 ? randsql__below(&g->shape, 2) : 0);
    for (int j = 0; j < n; j++) {
      strbuf_puts(s, nTerm++ > 0 ? ", " : "");
      if (!bDistinct && randsql__chance(&g->shape, 25)) rq_agg(g, s);   /* not selected */
      else rq_order_item(g, q, randsql__below(&g->shape, q->nItem), s);
      rq_order_dir(g, s);
    }
  }
  if (r >= 55) return 0;
  for (int k = 0; k < q->nKey; k++) aPerm[k] = k;
  for (int k = q->nKey - 1; k > 0; k--) {
    int j = randsql__below(&g->shape, k + 1), x = aPerm[k];
    aPerm[k] = aPerm[j];
    aPerm[j] = x;
  }
  for (int k = 0; k < q->nKey; k++) {
    strbuf_puts(s, nTerm++ > 0 ? ", " : "");
    rq_order_key(g, q, aPerm[k], s);
    rq_order_dir(g, s);
  }
  return 1;
}

static void rq_limit(rq_gen *g, int nMax, strbuf *s) {
  strbuf_printf(s, " LIMIT %d", 1 + randsql__below(&g->lit, nMax));
  if (randsql__chance(&g->shape, 25)) strbuf_printf(s, " OFFSET %d", randsql__below(&g->lit, 8));
}

/* ---- whole queries -------------------------------------------------------------- */

/* The number of conjuncts WHERE gets besides the joins. */
static int rq_nconj(rq_gen *g) { return randsql__below(&g->shape, 5); }

/* SELECT ... GROUP BY ... [HAVING] [ORDER BY] [LIMIT]. Returns bOrdered. */
static int rq_query_groups(rq_gen *g, strbuf *s) {
  rq_select q;
  int nAgg, bDistinct, bTotal;
  strbuf tail;
  rq_keys(g, &q);
  nAgg = q.nKey > 0 ? randsql__below(&g->shape, 5) : 1 + randsql__below(&g->shape, 4);
  bDistinct = nAgg == 0 && randsql__chance(&g->shape, 40);
  rq_agg_items(g, &q, nAgg, bDistinct);
  strbuf_init(&tail);
  if (q.nItem == 0) {
    strbuf_puts(&tail, "count(*)");
    rq_item_add(&q, &tail, -1);
    strbuf_reset(&tail);
  }
  strbuf_puts(s, bDistinct ? "SELECT DISTINCT" : "SELECT");
  rq_items_write(&q, s);
  randsql__from_where(g, rq_nconj(g), NULL, s);
  for (int k = 0; k < q.nKey && !bDistinct; k++) {
    strbuf_puts(s, k == 0 ? " GROUP BY " : ", ");
    randsql__ref(g, q.aiKeyCol[k], s);
  }
  if (!bDistinct && randsql__chance(&g->shape, 25)) rq_having(g, &q, s);
  bTotal = rq_order_groups(g, &q, bDistinct, &tail);
  strbuf_puts(s, strbuf_str(&tail));
  strbuf_free(&tail);
  if (bTotal && q.nKey > 0 && randsql__chance(&g->shape, 40)) rq_limit(g, 20, s);
  return bTotal;
}

/* The ORDER BY of plain rows: some items, then the fact table's primary
** key (lo_orderkey, lo_linenumber: the first two columns of the schema). */
static void rq_order_rows(rq_gen *g, const rq_select *q, strbuf *s) {
  strbuf_puts(s, " ORDER BY ");
  for (int i = randsql__below(&g->shape, 3); i > 0; i--) {
    rq_order_item(g, q, randsql__below(&g->shape, q->nItem), s);
    rq_order_dir(g, s);
    strbuf_puts(s, ", ");
  }
  randsql__ref(g, 0, s);
  rq_order_dir(g, s);
  strbuf_puts(s, ", ");
  randsql__ref(g, 1, s);
  rq_order_dir(g, s);
}

/* SELECT columns ...: plain rows, either in a total order under a LIMIT,
** or, from a few hundred orders, in no order. */
static int rq_query_rows(rq_gen *g, strbuf *s) {
  rq_select q;
  strbuf e;
  int n = 1 + randsql__below(&g->shape, 5), bOrdered = randsql__chance(&g->shape, 70);
  memset(&q, 0, sizeof(q));
  strbuf_init(&e);
  for (int i = 0; i < n; i++) {
    strbuf_reset(&e);
    if (randsql__chance(&g->shape, 15)) rq_case(g, &e);
    else randsql__ref(g, randsql__pick(g, g->mTable, RQ_OUT, 0), &e);
    rq_item_add(&q, &e, -1);
  }
  rq_shuffle_items(g, &q);
  strbuf_puts(s, "SELECT");
  rq_items_write(&q, s);
  strbuf_reset(&e);
  if (!bOrdered) {
    randsql__ref(g, 0, &e);
    strbuf_printf(&e, " <= %d", 1 + randsql__below(&g->lit, 400));
  }
  randsql__from_where(g, rq_nconj(g), bOrdered ? NULL : strbuf_str(&e), s);
  strbuf_free(&e);
  if (bOrdered) {
    rq_order_rows(g, &q, s);
    rq_limit(g, 40, s);
  }
  return bOrdered;
}

/* The FROM items of a query, and how each dimension is joined: by its
** foreign key, or now and then by another integer column of lineorder
** (a join the catalog does not declare; the dimension's key is still its
** primary key). */
static void rq_tables(rq_gen *g) {
  static const char *const azOther[] = {"lo_custkey", "lo_partkey", "lo_suppkey", "lo_quantity",
                                        "lo_linenumber", "lo_discount", "lo_tax"};
  static const char *const azFk[RQ_NTABLE] = {NULL, "lo_orderdate", "lo_custkey", "lo_suppkey",
                                              "lo_partkey", "lo_commitdate"};
  unsigned mDates = 1u << RQ_DATE | 1u << RQ_CDATE;
  g->mTable = 1u << RQ_FACT;
  for (int t = RQ_DATE; t < RQ_NTABLE; t++) {
    if (randsql__chance(&g->shape, t == RQ_CDATE ? 12 : 45)) g->mTable |= 1u << t;
    g->azFk[t] = azFk[t];
    if (t >= RQ_CUST && t <= RQ_PART && randsql__chance(&g->shape, 8)) {
      g->azFk[t] = azOther[randsql__below(&g->shape, 7)];
    }
  }
  if (!(g->mTable >> RQ_CDATE & 1) && randsql__chance(&g->shape, 20)) g->azFk[RQ_DATE] = azFk[RQ_CDATE];
  g->eNames = randsql__below(&g->shape, 3);
  if ((g->mTable & mDates) == mDates) g->eNames = 2;      /* date twice: aliases */
}

int randsql_query(const randsql *p, uint64_t seed, int iQuery, strbuf *s) {
  rq_gen g;
  memset(&g, 0, sizeof(g));
  g.shape.s = seed * 0x100000001b3ull + (uint64_t)(iQuery / RANDSQL_VARIANTS);
  randsql__next(&g.shape);
  g.lit.s = ~seed * 0xff51afd7ed558ccdull + (uint64_t)iQuery;
  randsql__next(&g.lit);
  g.aVals = p->aVals;
  rq_tables(&g);
  if (randsql__chance(&g.shape, 10)) return rq_query_rows(&g, s);
  return rq_query_groups(&g, s);
}
