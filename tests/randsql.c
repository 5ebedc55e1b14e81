/*
** tests/randsql.c — the random star query generator's vocabulary: the
** random streams, the SSB schema as the generator sees it, the values
** literals are picked from, predicates, and FROM / WHERE with their joins.
** randsql-select.c builds whole queries from these (randsql.h says what
** they look like and what they avoid).
**
** Literals: mostly values the column holds (from SQLite's copy of the
** data), sometimes values it does not (a number in its range, a string
** just after one of its strings), so that predicates pass some rows,
** none, or all. Arithmetic stays far from INTEGER's range and divides by
** nonzero constants only: SQLite would widen an overflow to REAL and give
** NULL for a division by zero, where PostgreSQL raises.
*/
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randsqlInt.h"

#define RQ_MAX_VALUES 4096       /* distinct values kept per column */
#define RQ_MAX_CONJ 6

/* ---- the random streams --------------------------------------------------------- */

uint64_t randsql__next(rq_rng *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int randsql__below(rq_rng *r, int n) { return (int)(randsql__next(r) % (uint64_t)n); }

int randsql__chance(rq_rng *r, int nPercent) { return randsql__below(r, 100) < nPercent; }

/* ---- the schema ------------------------------------------------------------------- */

static const char *const rq_azTable[RQ_NTABLE] = {"lineorder", "date", "customer", "supplier",
                                                  "part", "date"};
static const char *const rq_azAlias[RQ_NTABLE] = {"lo", "d", "c", "s", "p", "cd"};
static const char *const rq_azPkey[RQ_NTABLE] = {NULL, "d_datekey", "c_custkey", "s_suppkey",
                                                 "p_partkey", "d_datekey"};

/* The date table's columns, for each of its two FROM items. */
#define RQ_DATE_COLUMNS(T)                                                   \
  {"d_datekey", T, RQ_DAY, RQ_PRED | RQ_KEY | RQ_MINMAX | RQ_OUT},           \
  {"d_year", T, RQ_INT, RQ_PRED | RQ_KEY | RQ_SUM | RQ_OUT},                 \
  {"d_yearmonthnum", T, RQ_INT, RQ_PRED | RQ_KEY},                           \
  {"d_yearmonth", T, RQ_STR, RQ_PRED | RQ_KEY | RQ_OUT},                     \
  {"d_month", T, RQ_STR, RQ_PRED | RQ_KEY},                                  \
  {"d_dayofweek", T, RQ_STR, RQ_PRED | RQ_KEY},                              \
  {"d_monthnuminyear", T, RQ_INT, RQ_PRED | RQ_KEY | RQ_SUM},                \
  {"d_weeknuminyear", T, RQ_INT, RQ_PRED | RQ_KEY},                          \
  {"d_sellingseason", T, RQ_STR, RQ_PRED | RQ_KEY | RQ_OUT},                 \
  {"d_holidayfl", T, RQ_INT, RQ_PRED | RQ_KEY | RQ_SUM}

const rq_col randsql__aCol[] = {
  {"lo_orderkey", RQ_FACT, RQ_INT, RQ_PRED | RQ_KEY | RQ_MINMAX | RQ_OUT},
  {"lo_linenumber", RQ_FACT, RQ_INT, RQ_PRED | RQ_KEY | RQ_SUM | RQ_OUT},
  {"lo_custkey", RQ_FACT, RQ_INT, RQ_PRED | RQ_KEY | RQ_OUT},
  {"lo_partkey", RQ_FACT, RQ_INT, RQ_PRED | RQ_KEY},
  {"lo_suppkey", RQ_FACT, RQ_INT, RQ_PRED | RQ_KEY},
  {"lo_orderdate", RQ_FACT, RQ_DAY, RQ_PRED | RQ_KEY | RQ_MINMAX | RQ_OUT},
  {"lo_commitdate", RQ_FACT, RQ_DAY, RQ_PRED | RQ_KEY | RQ_MINMAX | RQ_OUT},
  {"lo_orderpriority", RQ_FACT, RQ_STR, RQ_PRED | RQ_KEY | RQ_OUT},
  {"lo_shippriority", RQ_FACT, RQ_INT, RQ_PRED | RQ_KEY},
  {"lo_quantity", RQ_FACT, RQ_INT, RQ_PRED | RQ_KEY | RQ_SUM | RQ_OUT},
  {"lo_extendedprice", RQ_FACT, RQ_INT, RQ_PRED | RQ_SUM | RQ_OUT},
  {"lo_ordtotalprice", RQ_FACT, RQ_INT, RQ_PRED | RQ_SUM},
  {"lo_discount", RQ_FACT, RQ_INT, RQ_PRED | RQ_KEY | RQ_SUM | RQ_OUT},
  {"lo_revenue", RQ_FACT, RQ_INT, RQ_PRED | RQ_KEY | RQ_SUM | RQ_OUT},
  {"lo_supplycost", RQ_FACT, RQ_INT, RQ_PRED | RQ_SUM | RQ_OUT},
  {"lo_tax", RQ_FACT, RQ_INT, RQ_PRED | RQ_KEY | RQ_SUM | RQ_OUT},
  {"lo_shipmode", RQ_FACT, RQ_STR, RQ_PRED | RQ_KEY | RQ_OUT},
  {"lo_revenue - lo_supplycost", RQ_FACT, RQ_INT, RQ_PRED | RQ_SUM | RQ_OUT},
  {"lo_extendedprice * lo_discount", RQ_FACT, RQ_INT, RQ_PRED | RQ_SUM | RQ_OUT},
  {"lo_quantity * lo_tax + lo_discount", RQ_FACT, RQ_INT, RQ_PRED | RQ_SUM},
  {"lo_extendedprice - lo_revenue", RQ_FACT, RQ_INT, RQ_SUM | RQ_OUT},
  {"lo_ordtotalprice / 100", RQ_FACT, RQ_INT, RQ_PRED | RQ_SUM},
  {"lo_revenue % 1000", RQ_FACT, RQ_INT, RQ_PRED | RQ_SUM},
  {"-lo_tax", RQ_FACT, RQ_INT, RQ_SUM},
  RQ_DATE_COLUMNS(RQ_DATE),
  RQ_DATE_COLUMNS(RQ_CDATE),
  {"c_custkey", RQ_CUST, RQ_INT, RQ_PRED | RQ_KEY},
  {"c_city", RQ_CUST, RQ_STR, RQ_PRED | RQ_KEY | RQ_OUT},
  {"c_nation", RQ_CUST, RQ_STR, RQ_PRED | RQ_KEY | RQ_OUT},
  {"c_region", RQ_CUST, RQ_STR, RQ_PRED | RQ_KEY | RQ_OUT},
  {"c_mktsegment", RQ_CUST, RQ_STR, RQ_PRED | RQ_KEY},
  {"s_suppkey", RQ_SUPP, RQ_INT, RQ_PRED | RQ_KEY},
  {"s_city", RQ_SUPP, RQ_STR, RQ_PRED | RQ_KEY},
  {"s_nation", RQ_SUPP, RQ_STR, RQ_PRED | RQ_KEY | RQ_OUT},
  {"s_region", RQ_SUPP, RQ_STR, RQ_PRED | RQ_KEY | RQ_OUT},
  {"p_partkey", RQ_PART, RQ_INT, RQ_PRED | RQ_KEY},
  {"p_mfgr", RQ_PART, RQ_STR, RQ_PRED | RQ_KEY},
  {"p_category", RQ_PART, RQ_STR, RQ_PRED | RQ_KEY | RQ_OUT},
  {"p_brand1", RQ_PART, RQ_STR, RQ_PRED | RQ_KEY | RQ_OUT},
  {"p_color", RQ_PART, RQ_STR, RQ_PRED | RQ_KEY},
  {"p_size", RQ_PART, RQ_INT, RQ_PRED | RQ_KEY | RQ_SUM | RQ_OUT},
  {"p_container", RQ_PART, RQ_STR, RQ_PRED | RQ_KEY},
};
const int randsql__nCol = (int)(sizeof(randsql__aCol) / sizeof(randsql__aCol[0]));

const char *const randsql__azCmp[6] = {"=", "<>", "<", "<=", ">", ">="};

/* ---- the values ------------------------------------------------------------------- */

/* One integer from SQLite into *pv. Returns 0, or -1 with zErr set. */
static int rq_sql_int(sqlite3 *db, const char *zSql, int64_t *pv, char *zErr, size_t nErr) {
  sqlite3_stmt *st;
  int rc = -1;
  if (sqlite3_prepare_v2(db, zSql, -1, &st, NULL) != SQLITE_OK) {
    snprintf(zErr, nErr, "%s: %s", zSql, sqlite3_errmsg(db));
    return -1;
  }
  if (sqlite3_step(st) == SQLITE_ROW) {
    *pv = sqlite3_column_int64(st, 0);
    rc = 0;
  } else {
    snprintf(zErr, nErr, "%s: %s", zSql, sqlite3_errmsg(db));
  }
  sqlite3_finalize(st);
  return rc;
}

/* The distinct values of c (up to RQ_MAX_VALUES) into v, as text. */
static int rq_vals_list(sqlite3 *db, const rq_col *c, rq_vals *v, char *zErr, size_t nErr) {
  char zSql[256];
  sqlite3_stmt *st;
  int rc;
  snprintf(zSql, sizeof(zSql), "SELECT DISTINCT %s FROM \"%s\" WHERE %s IS NOT NULL ORDER BY 1"
           " LIMIT %d", c->zName, rq_azTable[c->iTable], c->zName, RQ_MAX_VALUES);
  v->azVal = calloc(RQ_MAX_VALUES, sizeof(char *));
  if (v->azVal == NULL || sqlite3_prepare_v2(db, zSql, -1, &st, NULL) != SQLITE_OK) {
    snprintf(zErr, nErr, "%s: %s", zSql, v->azVal == NULL ? "out of memory" : sqlite3_errmsg(db));
    return -1;
  }
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char *z = (const char *)sqlite3_column_text(st, 0);
    if ((v->azVal[v->nVal] = strdup(z != NULL ? z : "")) == NULL) break;
    v->nVal++;
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE || v->nVal == 0) {
    snprintf(zErr, nErr, "%s: %s", zSql, rc != SQLITE_DONE ? "failed" : "no values");
    return -1;
  }
  return 0;
}

static int rq_vals_read(sqlite3 *db, const rq_col *c, rq_vals *v, char *zErr, size_t nErr) {
  const char *zT = rq_azTable[c->iTable];
  char zSql[256];
  int64_t nDistinct;
  if (c->eType == RQ_INT) {
    snprintf(zSql, sizeof(zSql), "SELECT min(%s) FROM \"%s\"", c->zName, zT);
    if (rq_sql_int(db, zSql, &v->iMin, zErr, nErr) != 0) return -1;
    snprintf(zSql, sizeof(zSql), "SELECT max(%s) FROM \"%s\"", c->zName, zT);
    if (rq_sql_int(db, zSql, &v->iMax, zErr, nErr) != 0) return -1;
    snprintf(zSql, sizeof(zSql), "SELECT count(DISTINCT %s) FROM \"%s\"", c->zName, zT);
    if (rq_sql_int(db, zSql, &nDistinct, zErr, nErr) != 0) return -1;
    if (nDistinct > RQ_MAX_VALUES) return 0;        /* the range will do */
  }
  return rq_vals_list(db, c, v, zErr, nErr);
}

int randsql_open(sqlite3 *db, randsql **pp, char *zErr, size_t nErr) {
  randsql *p = calloc(1, sizeof(*p));
  *pp = NULL;
  if (p == NULL || (p->aVals = calloc((size_t)randsql__nCol, sizeof(rq_vals))) == NULL) {
    free(p);
    snprintf(zErr, nErr, "out of memory");
    return -1;
  }
  for (int i = 0; i < randsql__nCol; i++) {
    if (rq_vals_read(db, &randsql__aCol[i], &p->aVals[i], zErr, nErr) != 0) {
      randsql_free(p);
      return -1;
    }
  }
  *pp = p;
  return 0;
}

void randsql_free(randsql *p) {
  if (p == NULL) return;
  for (int i = 0; p->aVals != NULL && i < randsql__nCol; i++) {
    for (int j = 0; j < p->aVals[i].nVal; j++) free(p->aVals[i].azVal[j]);
    free(p->aVals[i].azVal);
  }
  free(p->aVals);
  free(p);
}

/* ---- columns and literals --------------------------------------------------------- */

int randsql__pick(rq_gen *g, unsigned mTable, unsigned mUse, rq_type eType) {
  int aCand[256], n = 0;
  for (int i = 0; i < randsql__nCol && n < 256; i++) {
    const rq_col *c = &randsql__aCol[i];
    if ((mTable >> c->iTable & 1) && (c->mUse & mUse) == mUse && (eType == 0 || c->eType == eType)) {
      aCand[n++] = i;
    }
  }
  return n > 0 ? aCand[randsql__below(&g->shape, n)] : -1;
}

int randsql__is_pkey(int iCol) {
  const rq_col *c = &randsql__aCol[iCol];
  return c->iTable != RQ_FACT && strcmp(c->zName, rq_azPkey[c->iTable]) == 0;
}

/* With both dates in FROM, a date column must say which one it reads. */
static int rq_must_qualify(const rq_gen *g, int iTable) {
  unsigned mDates = 1u << RQ_DATE | 1u << RQ_CDATE;
  return (iTable == RQ_DATE || iTable == RQ_CDATE) && (g->mTable & mDates) == mDates;
}

void randsql__ref(rq_gen *g, int iCol, strbuf *s) {
  const rq_col *c = &randsql__aCol[iCol];
  if (strchr(c->zName, ' ') != NULL || c->zName[0] == '-') {
    strbuf_printf(s, "(%s)", c->zName);
  } else if (rq_must_qualify(g, c->iTable) || (g->eNames > 0 && randsql__chance(&g->shape, 60))) {
    strbuf_printf(s, "%s.%s", g->eNames == 1 ? rq_azTable[c->iTable] : rq_azAlias[c->iTable],
                  c->zName);
  } else {
    strbuf_puts(s, c->zName);
  }
}

/* Appends a string as an SQL literal (quotes doubled). */
static void rq_quote(const char *z, strbuf *s) {
  strbuf_puts(s, "'");
  for (; *z; z++) strbuf_append(s, z, 1 + (*z == '\''));
  strbuf_puts(s, "'");
}

int64_t randsql__lit(rq_gen *g, int iCol, strbuf *s) {
  const rq_col *c = &randsql__aCol[iCol];
  const rq_vals *v = &g->aVals[iCol];
  int i;
  if (c->eType == RQ_INT && (v->nVal == 0 || randsql__chance(&g->lit, 15))) {
    uint64_t nSpan = (uint64_t)(v->iMax - v->iMin) + 1;
    int64_t x = v->iMin + (int64_t)(randsql__next(&g->lit) % nSpan);
    strbuf_printf(s, "%lld", (long long)x);
    return x;
  }
  i = randsql__below(&g->lit, v->nVal);
  if (c->eType == RQ_INT) {
    strbuf_puts(s, v->azVal[i]);
    return strtoll(v->azVal[i], NULL, 10);
  }
  if (c->eType == RQ_DAY) {
    strbuf_printf(s, "DATE '%s'", v->azVal[i]);
    return i;
  }
  if (randsql__chance(&g->lit, 10)) {          /* a string just after this one */
    char zMiss[160];
    snprintf(zMiss, sizeof(zMiss), "%sx", v->azVal[i]);
    rq_quote(zMiss, s);
    return 2 * (int64_t)i + 1;
  }
  rq_quote(v->azVal[i], s);
  return 2 * (int64_t)i;
}

/* ---- predicates --------------------------------------------------------------------- */

/* Appends "lo AND hi", two literals of iCol, mostly in order. */
static void rq_range(rq_gen *g, int iCol, strbuf *s) {
  strbuf a, b;
  int64_t ka, kb;
  strbuf_init(&a);
  strbuf_init(&b);
  ka = randsql__lit(g, iCol, &a);
  kb = randsql__lit(g, iCol, &b);
  if ((ka > kb) != randsql__chance(&g->lit, 10)) {
    strbuf_printf(s, "%s AND %s", strbuf_str(&b), strbuf_str(&a));
  } else {
    strbuf_printf(s, "%s AND %s", strbuf_str(&a), strbuf_str(&b));
  }
  strbuf_free(&a);
  strbuf_free(&b);
}

/* Appends a LIKE pattern matching a prefix of one of iCol's strings (or,
** sometimes, one with a '_' for a character inside it). */
static void rq_like(rq_gen *g, int iCol, strbuf *s) {
  const rq_vals *v = &g->aVals[iCol];
  const char *z = v->azVal[randsql__below(&g->lit, v->nVal)];
  int n = (int)strlen(z), nKeep = n > 1 ? 1 + randsql__below(&g->lit, n - 1) : n;
  char zPat[160];
  int j = 0;
  for (int i = 0; i < nKeep && j < (int)sizeof(zPat) - 4; i++) {
    if (z[i] == '%' || z[i] == '_' || z[i] == '\\') zPat[j++] = '\\';
    zPat[j++] = i > 0 && i == nKeep / 2 && randsql__chance(&g->lit, 20) ? '_' : z[i];
  }
  zPat[j++] = '%';
  zPat[j] = 0;
  rq_quote(zPat, s);
}

/* Appends one predicate on column iCol (bCodes: on a string column, only
** forms the planner can turn into a code set, for use inside AND / OR). */
void randsql__pred(rq_gen *g, int iCol, int bCodes, strbuf *s) {
  const rq_col *c = &randsql__aCol[iCol];
  int eForm = randsql__below(&g->shape, 20);
  const char *zNot = randsql__chance(&g->shape, 20) ? "NOT " : "";
  randsql__ref(g, iCol, s);
  if (eForm < 8) {
    /* strings compare by code only when the other side is a literal */
    strbuf_printf(s, " %s ", randsql__azCmp[randsql__below(&g->shape, 6)]);
    randsql__lit(g, iCol, s);
  } else if (eForm < 11) {
    strbuf_printf(s, " %sBETWEEN ", zNot);
    rq_range(g, iCol, s);
  } else if (eForm < 15) {
    int n = 1 + randsql__below(&g->shape, 4);
    strbuf_printf(s, " %sIN (", zNot);
    for (int i = 0; i < n; i++) {
      if (i > 0) strbuf_puts(s, ", ");
      randsql__lit(g, iCol, s);
    }
    strbuf_puts(s, ")");
  } else if (eForm < 18 && c->eType == RQ_STR) {
    strbuf_printf(s, " %sLIKE ", zNot);
    rq_like(g, iCol, s);
  } else if (c->eType == RQ_STR && bCodes) {
    strbuf_printf(s, " %s ", randsql__azCmp[randsql__below(&g->shape, 6)]);
    randsql__lit(g, iCol, s);
  } else if (eForm == 18 || c->eType == RQ_STR) {
    strbuf_printf(s, " IS %sNULL", zNot);
  } else {
    /* another column of the same table and type */
    int j = randsql__pick(g, 1u << c->iTable, RQ_PRED, c->eType);
    strbuf_printf(s, " %s ", randsql__azCmp[randsql__below(&g->shape, 6)]);
    randsql__ref(g, j, s);
  }
}

/* Appends one conjunct of WHERE over the tables of g and returns the
** tables it reads. A disjunction reads one string column (the planner
** makes it one code set) or numeric columns of any tables (a residual when
** they are of several). */
static unsigned rq_conjunct(rq_gen *g, strbuf *s) {
  int eForm = randsql__below(&g->shape, 100);
  int iCol = randsql__pick(g, g->mTable, RQ_PRED, 0);
  unsigned m = 1u << randsql__aCol[iCol].iTable;
  if (eForm < 65) {
    randsql__pred(g, iCol, 0, s);
  } else if (eForm < 75) {
    strbuf_puts(s, "NOT (");
    randsql__pred(g, iCol, 0, s);
    strbuf_puts(s, ")");
  } else if (randsql__aCol[iCol].eType == RQ_STR) {
    int n = 2 + randsql__below(&g->shape, 2);
    strbuf_puts(s, "(");
    for (int i = 0; i < n; i++) {
      strbuf_puts(s, i == 0 ? "" : i == 2 && randsql__chance(&g->shape, 50) ? " AND " : " OR ");
      randsql__pred(g, iCol, 1, s);
    }
    strbuf_puts(s, ")");
  } else {
    int n = 2 + randsql__below(&g->shape, 2);
    strbuf_puts(s, "(");
    for (int i = 0; i < n; i++) {
      rq_type eType = randsql__chance(&g->shape, 70) ? RQ_INT : RQ_DAY;
      int j = i == 0 ? iCol : randsql__pick(g, g->mTable, RQ_PRED, eType);
      int bAnd = i == 1 && n == 3 && randsql__chance(&g->shape, 50);
      strbuf_puts(s, i == 0 ? "" : bAnd ? " AND " : " OR ");
      randsql__pred(g, j, 0, s);
      m |= 1u << randsql__aCol[j].iTable;
    }
    strbuf_puts(s, ")");
  }
  return m;
}

/* ---- FROM and WHERE ------------------------------------------------------------- */

/* The conjuncts of WHERE before they are placed, each with its tables. */
typedef struct rq_where rq_where;
struct rq_where {
  int n;
  strbuf aText[RQ_MAX_CONJ];
  unsigned amTable[RQ_MAX_CONJ];
  int abPlaced[RQ_MAX_CONJ];
};

/* Appends "fk = pk" (either way round) joining dimension d. */
static void rq_join_eq(rq_gen *g, int d, strbuf *s) {
  const char *zFk = g->azFk[d];
  const char *zQf = g->eNames == 0 ? "" : g->eNames == 1 ? "lineorder." : "lo.";
  const char *zQp = g->eNames == 0 ? "" : g->eNames == 1 ? rq_azTable[d] : rq_azAlias[d];
  const char *zDot = g->eNames == 0 ? "" : ".";
  if (randsql__chance(&g->shape, 50)) {
    strbuf_printf(s, "%s%s = %s%s%s", zQf, zFk, zQp, zDot, rq_azPkey[d]);
  } else {
    strbuf_printf(s, "%s%s%s = %s%s", zQp, zDot, rq_azPkey[d], zQf, zFk);
  }
}

static void rq_table(rq_gen *g, int t, strbuf *s) {
  strbuf_puts(s, rq_azTable[t]);
  if (g->eNames == 2) {
    strbuf_printf(s, randsql__chance(&g->shape, 50) ? " AS %s" : " %s", rq_azAlias[t]);
  }
}

/* The tables of g in a random order, lineorder first or second. */
static int rq_table_order(rq_gen *g, int *aOrder) {
  int n = 0;
  for (int t = RQ_DATE; t < RQ_NTABLE; t++) {
    if (g->mTable >> t & 1) aOrder[n++] = t;
  }
  for (int i = n - 1; i > 0; i--) {
    int j = randsql__below(&g->shape, i + 1), x = aOrder[i];
    aOrder[i] = aOrder[j];
    aOrder[j] = x;
  }
  memmove(aOrder + 1, aOrder, sizeof(int) * (size_t)n);
  aOrder[0] = RQ_FACT;
  if (n > 0 && randsql__chance(&g->shape, 25)) {      /* a dimension first, then lineorder */
    aOrder[0] = aOrder[1];
    aOrder[1] = RQ_FACT;
  }
  return n + 1;
}

/* Appends the conjuncts not placed yet, joined by AND. */
static void rq_where_rest(rq_where *w, int bFirst, strbuf *s) {
  for (int i = 0; i < w->n; i++) {
    if (w->abPlaced[i]) continue;
    strbuf_printf(s, "%s%s", bFirst ? " WHERE " : " AND ", strbuf_str(&w->aText[i]));
    bFirst = 0;
  }
}

/* FROM a, b, ... WHERE joins AND conjuncts. */
static void rq_from_commas(rq_gen *g, rq_where *w, strbuf *s) {
  int aOrder[RQ_NTABLE], n = rq_table_order(g, aOrder), bFirst = 1;
  strbuf_puts(s, " FROM ");
  for (int i = 0; i < n; i++) {
    if (i > 0) strbuf_puts(s, ", ");
    rq_table(g, aOrder[i], s);
  }
  for (int i = 0; i < n; i++) {
    if (aOrder[i] == RQ_FACT) continue;
    strbuf_puts(s, bFirst ? " WHERE " : " AND ");
    rq_join_eq(g, aOrder[i], s);
    bFirst = 0;
  }
  rq_where_rest(w, bFirst, s);
}

/* FROM a JOIN b ON ... JOIN c ON ..., with some conjuncts moved into the
** ON of the last table they read (inner joins: the same rows). */
static void rq_from_joins(rq_gen *g, rq_where *w, strbuf *s) {
  int aOrder[RQ_NTABLE], n = rq_table_order(g, aOrder);
  unsigned mScope = 1u << aOrder[0];
  strbuf_puts(s, " FROM ");
  rq_table(g, aOrder[0], s);
  for (int i = 1; i < n; i++) {
    int d = aOrder[i] == RQ_FACT ? aOrder[0] : aOrder[i];
    mScope |= 1u << aOrder[i];
    strbuf_puts(s, " JOIN ");
    rq_table(g, aOrder[i], s);
    strbuf_puts(s, " ON ");
    rq_join_eq(g, d, s);
    for (int j = 0; j < w->n; j++) {
      if (w->abPlaced[j] || (w->amTable[j] & ~mScope) != 0 || !(w->amTable[j] >> aOrder[i] & 1) ||
          !randsql__chance(&g->shape, 50)) {
        continue;
      }
      strbuf_printf(s, " AND %s", strbuf_str(&w->aText[j]));
      w->abPlaced[j] = 1;
    }
  }
  rq_where_rest(w, 1, s);
}

void randsql__from_where(rq_gen *g, int nConj, const char *zExtra, strbuf *s) {
  rq_where w;
  memset(&w, 0, sizeof(w));
  for (w.n = 0; w.n < nConj + (zExtra != NULL) && w.n < RQ_MAX_CONJ; w.n++) {
    strbuf_init(&w.aText[w.n]);
    if (w.n < nConj) {
      w.amTable[w.n] = rq_conjunct(g, &w.aText[w.n]);
    } else {
      strbuf_puts(&w.aText[w.n], zExtra);
      w.amTable[w.n] = 1u << RQ_FACT;
    }
  }
  if (randsql__chance(&g->shape, 50)) rq_from_joins(g, &w, s);
  else rq_from_commas(g, &w, s);
  for (int i = 0; i < w.n; i++) strbuf_free(&w.aText[i]);
}
