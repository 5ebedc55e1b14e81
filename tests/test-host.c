/*
** tests/test-host.c — the host executor (host/host.h) on its own: plans
** built by hand over VALUES, each answer compared with PostgreSQL 15
** (tests/pgref.h) running the same query over the same VALUES lists.
** Two relations with NULL keys and duplicate keys on both sides:
**
**   l(k integer, a text)    r(k integer, b text)
**
** and every operator over them: expressions with three-valued logic,
** aggregation, hash joins of every kind, sort with PostgreSQL's NULL
** order, window functions, set operations; plus the run's errors.
*/
#include <stdlib.h>
#include <string.h>

#include "../host/host.h"
#include "../parser/ast.h"
#include "pgref.h"
#include "refdb.h"
#include "test.h"

#define HT_L "(VALUES (1,'x'),(2,'y'),(2,NULL),(NULL,'z'),(3,'x'),(NULL,NULL),(5,'w')) l(k,a)"
#define HT_R "(VALUES (2,'p'),(2,'q'),(3,NULL),(NULL,'r'),(4,'s'),(NULL,'t')) r(k,b)"

static const char *const ht_aL[][2] = {{"1", "x"}, {"2", "y"}, {"2", NULL}, {NULL, "z"},
                                       {"3", "x"}, {NULL, NULL}, {"5", "w"}};
static const char *const ht_aR[][2] = {{"2", "p"}, {"2", "q"}, {"3", NULL},
                                       {NULL, "r"}, {"4", "s"}, {NULL, "t"}};

static const coltype ht_tInt = {COLTYPE_INTEGER, 0, 0, 0};
static const coltype ht_tBig = {COLTYPE_BIGINT, 0, 0, 0};
static const coltype ht_tText = {COLTYPE_TEXT, 0, 0, 0};
static const coltype ht_tBool = {COLTYPE_BOOLEAN, 0, 0, 0};

/* What a test's plan is built in. */
typedef struct ht ht;
struct ht {
  arena a;
  int nNode;
};

static void *ht_new(ht *h, size_t n) {
  void *p = arena_alloc(&h->a, n);
  ASSERT(p != NULL);
  memset(p, 0, n);
  return p;
}

static host_node *ht_node(ht *h, host_node_kind e, int nCol, const coltype *aType) {
  host_node *n = ht_new(h, sizeof(host_node));
  n->eKind = e;
  n->iId = h->nNode++;
  n->nCol = nCol;
  n->nLimit = -1;
  n->aType = ht_new(h, sizeof(coltype) * (size_t)nCol);
  memcpy(n->aType, aType, sizeof(coltype) * (size_t)nCol);
  return n;
}

static host_expr *ht_col(ht *h, int iCol, coltype t) {
  host_expr *e = ht_new(h, sizeof(host_expr));
  e->eKind = HX_COL;
  e->iCol = iCol;
  e->type = t;
  return e;
}

static host_expr *ht_int(ht *h, int64_t v) {
  host_expr *e = ht_new(h, sizeof(host_expr));
  e->eKind = HX_CONST;
  e->type = ht_tInt;
  e->v = datum_int(COLTYPE_INTEGER, v);
  return e;
}

static host_expr *ht_text(ht *h, const char *z) {
  host_expr *e = ht_new(h, sizeof(host_expr));
  e->eKind = HX_CONST;
  e->type = ht_tText;
  e->v = z != NULL ? datum_text(COLTYPE_TEXT, z, (uint32_t)strlen(z)) : datum_null(COLTYPE_TEXT);
  e->v.type = ht_tText;
  return e;
}

/* An operator node of kind e over args (nArg of them), eOp its sql_op. */
static host_expr *ht_op(ht *h, host_expr_kind e, int eOp, coltype t, int nArg, host_expr *a0,
                        host_expr *a1, host_expr *a2) {
  host_expr *x = ht_new(h, sizeof(host_expr));
  host_expr *av[3] = {a0, a1, a2};
  x->eKind = e;
  x->eOp = eOp;
  x->type = t;
  x->nArg = nArg;
  x->apArg = ht_new(h, sizeof(host_expr *) * 3);
  for (int i = 0; i < nArg; i++) x->apArg[i] = av[i];
  return x;
}

/* A VALUES node of (integer, text) rows. */
static host_node *ht_values(ht *h, const char *const (*aRow)[2], int nRow) {
  coltype aType[2] = {ht_tInt, ht_tText};
  host_node *n = ht_node(h, HN_VALUES, 2, aType);
  n->nRow = nRow;
  n->apExpr = ht_new(h, sizeof(host_expr *) * (size_t)(2 * nRow));
  for (int i = 0; i < nRow; i++) {
    host_expr *k = ht_int(h, aRow[i][0] != NULL ? atoll(aRow[i][0]) : 0);
    if (aRow[i][0] == NULL) k->v = datum_null(COLTYPE_INTEGER);
    k->v.type = ht_tInt;
    n->apExpr[2 * i] = k;
    n->apExpr[2 * i + 1] = ht_text(h, aRow[i][1]);
  }
  return n;
}

static host_node *ht_l(ht *h) { return ht_values(h, ht_aL, 7); }
static host_node *ht_r(ht *h) { return ht_values(h, ht_aR, 6); }

/* Runs plan root into a refdb_result (values as PostgreSQL's text). */
static refdb_result *ht_run(ht *h, host_node *pRoot, sql_error *pErr, int *pRc) {
  host_plan p;
  host_config cfg;
  host_rel rel;
  host_node_stats aStats[64];
  refdb_result *r;
  strbuf s;
  memset(&p, 0, sizeof(p));
  memset(&cfg, 0, sizeof(cfg));
  p.pRoot = pRoot;
  p.nNode = h->nNode;
  ASSERT(h->nNode <= 64);
  *pRc = host_run(&p, &cfg, &h->a, &rel, aStats, pErr);
  if (*pRc != 0) return NULL;
  ASSERT_EQ(aStats[pRoot->iId].nRow, rel.nRow);
  r = refdb_result_new(rel.nCol);
  ASSERT(r != NULL);
  strbuf_init(&s);
  for (int64_t i = 0; i < rel.nRow; i++) {
    for (int c = 0; c < rel.nCol; c++) {
      const datum *d = &rel.apRow[i][c];
      if (d->bNull) {
        ASSERT(refdb_result_add_cell(r, NULL, 0) == 0);
        continue;
      }
      strbuf_reset(&s);
      host_datum_text(d, &s);
      ASSERT(refdb_result_add_cell(r, strbuf_str(&s), (int)s.n) == 0);
    }
  }
  strbuf_free(&s);
  return r;
}

/* Runs root and PostgreSQL's zSql; fails unless they agree. */
static void ht_check(pgref *pg, ht *h, host_node *pRoot, const char *zSql, int bOrdered) {
  pgref_result *pWant;
  refdb_result *pGot;
  sql_error e;
  char zErr[1024], zDiff[2048];
  int rc;
  CALL_OK(pgref_query(pg, zSql, &pWant, zErr, sizeof(zErr)));
  pGot = ht_run(h, pRoot, &e, &rc);
  if (rc != 0) FAIL("host_run for %s: %s %s", zSql, e.zState, e.zMsg);
  if (refdb_result_compare(pWant->pRows, pGot, bOrdered, zDiff, sizeof(zDiff)) != 0) {
    FAIL("PostgreSQL and the host executor differ on %s\n%s", zSql, zDiff);
  }
  pgref_result_free(pWant);
  refdb_result_free(pGot);
}

/* l JOIN r ON l.k = r.k of kind e. */
static host_node *ht_join(ht *h, host_join_kind e) {
  coltype aType[4] = {ht_tInt, ht_tText, ht_tInt, ht_tText};
  int bHalf = e == HOST_JOIN_SEMI || e == HOST_JOIN_ANTI;
  host_node *n = ht_node(h, HN_JOIN, bHalf ? 2 : 4, aType);
  n->pLeft = ht_l(h);
  n->pRight = ht_r(h);
  n->eJoin = e;
  n->nKey = 1;
  n->apLeftKey = ht_new(h, sizeof(host_expr *));
  n->apRightKey = ht_new(h, sizeof(host_expr *));
  n->apLeftKey[0] = ht_col(h, 0, ht_tInt);
  n->apRightKey[0] = ht_col(h, 0, ht_tInt);
  return n;
}

static void ht_joins(pgref *pg) {
  static const struct {
    host_join_kind e;
    const char *zSql;
  } aJoin[] = {
      {HOST_JOIN_INNER, "SELECT * FROM " HT_L " JOIN " HT_R " ON l.k = r.k"},
      {HOST_JOIN_LEFT, "SELECT * FROM " HT_L " LEFT JOIN " HT_R " ON l.k = r.k"},
      {HOST_JOIN_RIGHT, "SELECT * FROM " HT_L " RIGHT JOIN " HT_R " ON l.k = r.k"},
      {HOST_JOIN_FULL, "SELECT * FROM " HT_L " FULL JOIN " HT_R " ON l.k = r.k"},
      {HOST_JOIN_SEMI, "SELECT * FROM " HT_L " WHERE EXISTS (SELECT 1 FROM " HT_R " WHERE r.k = l.k)"},
      {HOST_JOIN_ANTI,
       "SELECT * FROM " HT_L " WHERE NOT EXISTS (SELECT 1 FROM " HT_R " WHERE r.k = l.k)"},
  };
  for (size_t i = 0; i < sizeof(aJoin) / sizeof(aJoin[0]); i++) {
    ht h;
    memset(&h, 0, sizeof(h));
    arena_init(&h.a);
    ht_check(pg, &h, ht_join(&h, aJoin[i].e), aJoin[i].zSql, 0);
    arena_free(&h.a);
  }
  /* A condition beyond the keys: a left join keeps the left row when it fails. */
  {
    ht h;
    host_node *n;
    memset(&h, 0, sizeof(h));
    arena_init(&h.a);
    n = ht_join(&h, HOST_JOIN_LEFT);
    n->pPred = ht_op(&h, HX_CMP, SQL_OP_NE, ht_tBool, 2, ht_col(&h, 3, ht_tText), ht_text(&h, "p"), NULL);
    ht_check(pg, &h, n, "SELECT * FROM " HT_L " LEFT JOIN " HT_R " ON l.k = r.k AND r.b <> 'p'", 0);
    arena_free(&h.a);
  }
}

/* WHERE over l: three-valued logic decides which rows pass. */
static void ht_filters(pgref *pg) {
  ht h;
  memset(&h, 0, sizeof(h));
  arena_init(&h.a);
  {
    /* k > 1 OR a IS NULL */
    host_node *n = ht_node(&h, HN_FILTER, 2, (coltype[]){ht_tInt, ht_tText});
    host_expr *pIsNull = ht_op(&h, HX_IS_NULL, 0, ht_tBool, 1, ht_col(&h, 1, ht_tText), NULL, NULL);
    n->pLeft = ht_l(&h);
    n->pPred = ht_op(&h, HX_OR, 0, ht_tBool, 2,
                     ht_op(&h, HX_CMP, SQL_OP_GT, ht_tBool, 2, ht_col(&h, 0, ht_tInt), ht_int(&h, 1), NULL),
                     pIsNull, NULL);
    ht_check(pg, &h, n, "SELECT * FROM " HT_L " WHERE k > 1 OR a IS NULL", 0);
  }
  {
    /* NOT (k = 2 AND a = 'y'): NULL where either side is NULL and the other not false */
    host_node *n = ht_node(&h, HN_FILTER, 2, (coltype[]){ht_tInt, ht_tText});
    host_expr *pAnd = ht_op(&h, HX_AND, 0, ht_tBool, 2,
                            ht_op(&h, HX_CMP, SQL_OP_EQ, ht_tBool, 2, ht_col(&h, 0, ht_tInt), ht_int(&h, 2), NULL),
                            ht_op(&h, HX_CMP, SQL_OP_EQ, ht_tBool, 2, ht_col(&h, 1, ht_tText), ht_text(&h, "y"), NULL),
                            NULL);
    n->pLeft = ht_l(&h);
    n->pPred = ht_op(&h, HX_NOT, 0, ht_tBool, 1, pAnd, NULL, NULL);
    ht_check(pg, &h, n, "SELECT * FROM " HT_L " WHERE NOT (k = 2 AND a = 'y')", 0);
  }
  {
    /* The truth values themselves, as a projection: a IN ('x', NULL) and
    ** a NOT IN ('x', NULL) are NULL or true / NULL or false. */
    coltype aType[3] = {ht_tInt, ht_tBool, ht_tBool};
    host_node *n = ht_node(&h, HN_PROJECT, 3, aType);
    host_expr *pIn = ht_op(&h, HX_IN_LIST, 0, ht_tBool, 3, ht_col(&h, 1, ht_tText), ht_text(&h, "x"),
                           ht_text(&h, NULL));
    host_expr *pNotIn = ht_op(&h, HX_IN_LIST, 0, ht_tBool, 3, ht_col(&h, 1, ht_tText), ht_text(&h, "x"),
                              ht_text(&h, NULL));
    pNotIn->bNot = 1;
    n->pLeft = ht_l(&h);
    n->nExpr = 3;
    n->apExpr = ht_new(&h, sizeof(host_expr *) * 3);
    n->apExpr[0] = ht_col(&h, 0, ht_tInt);
    n->apExpr[1] = pIn;
    n->apExpr[2] = pNotIn;
    ht_check(pg, &h, n, "SELECT k, a IN ('x', NULL), a NOT IN ('x', NULL) FROM " HT_L, 0);
  }
  {
    /* CASE WHEN k > 2 THEN 'big' WHEN k IS NULL THEN NULL ELSE a END */
    coltype aType[1] = {ht_tText};
    host_node *n = ht_node(&h, HN_PROJECT, 1, aType);
    host_expr *c = ht_new(&h, sizeof(host_expr));
    c->eKind = HX_CASE;
    c->type = ht_tText;
    c->nArg = 5;
    c->apArg = ht_new(&h, sizeof(host_expr *) * 5);
    c->apArg[0] = ht_op(&h, HX_CMP, SQL_OP_GT, ht_tBool, 2, ht_col(&h, 0, ht_tInt), ht_int(&h, 2), NULL);
    c->apArg[1] = ht_text(&h, "big");
    c->apArg[2] = ht_op(&h, HX_IS_NULL, 0, ht_tBool, 1, ht_col(&h, 0, ht_tInt), NULL, NULL);
    c->apArg[3] = ht_text(&h, NULL);
    c->apArg[4] = ht_col(&h, 1, ht_tText);
    n->pLeft = ht_l(&h);
    n->nExpr = 1;
    n->apExpr = ht_new(&h, sizeof(host_expr *));
    n->apExpr[0] = c;
    ht_check(pg, &h, n,
             "SELECT CASE WHEN k > 2 THEN 'big' WHEN k IS NULL THEN NULL ELSE a END FROM " HT_L, 0);
  }
  arena_free(&h.a);
}

/* GROUP BY k: count(*), count(a), sum(k), min(a), max(a); and over no group. */
static void ht_aggs(pgref *pg) {
  static const host_agg_func aFunc[] = {HOST_AGG_COUNT_STAR, HOST_AGG_COUNT, HOST_AGG_SUM,
                                        HOST_AGG_MIN, HOST_AGG_MAX};
  for (int bGroup = 0; bGroup < 2; bGroup++) {
    ht h;
    coltype aType[6] = {ht_tInt, ht_tBig, ht_tBig, ht_tBig, ht_tText, ht_tText};
    host_node *n;
    memset(&h, 0, sizeof(h));
    arena_init(&h.a);
    n = ht_node(&h, HN_AGG, bGroup ? 6 : 5, bGroup ? aType : aType + 1);
    n->pLeft = ht_l(&h);
    if (bGroup) {
      n->nKey = 1;
      n->apKey = ht_new(&h, sizeof(host_expr *));
      n->apKey[0] = ht_col(&h, 0, ht_tInt);
    }
    n->nAgg = 5;
    n->aAgg = ht_new(&h, sizeof(host_agg) * 5);
    for (int i = 0; i < 5; i++) {
      host_agg *a = &n->aAgg[i];
      a->eFunc = aFunc[i];
      a->type = aType[1 + i];
      a->nArg = i == 0 ? 0 : 1;
      a->apArg[0] = i == 2 ? ht_col(&h, 0, ht_tInt) : ht_col(&h, 1, ht_tText);
    }
    ht_check(pg, &h, n,
             bGroup ? "SELECT k, count(*), count(a), sum(k), min(a), max(a) FROM " HT_L " GROUP BY k"
                    : "SELECT count(*), count(a), sum(k), min(a), max(a) FROM " HT_L,
             0);
    arena_free(&h.a);
  }
}

/* ORDER BY k [DESC] [NULLS FIRST|LAST], a: PostgreSQL's NULL order. */
static void ht_sorts(pgref *pg) {
  static const struct {
    int bDesc, eNulls;     /* eNulls: 0 default, 1 first, 2 last */
    const char *zOrder;
  } aSort[] = {
      {0, 0, "k, a"}, {1, 0, "k DESC, a DESC"}, {0, 1, "k NULLS FIRST, a NULLS FIRST"},
      {1, 2, "k DESC NULLS LAST, a DESC NULLS LAST"},
  };
  for (size_t i = 0; i < sizeof(aSort) / sizeof(aSort[0]); i++) {
    ht h;
    host_node *n;
    char zSql[512];
    memset(&h, 0, sizeof(h));
    arena_init(&h.a);
    n = ht_node(&h, HN_SORT, 2, (coltype[]){ht_tInt, ht_tText});
    n->pLeft = ht_l(&h);
    n->nSort = 2;
    n->aSort = ht_new(&h, sizeof(host_sort) * 2);
    for (int k = 0; k < 2; k++) {
      n->aSort[k].pExpr = ht_col(&h, k, k == 0 ? ht_tInt : ht_tText);
      n->aSort[k].bDesc = (unsigned)aSort[i].bDesc;
      n->aSort[k].bNullsFirst = aSort[i].eNulls == 0 ? (unsigned)aSort[i].bDesc : aSort[i].eNulls == 1;
    }
    snprintf(zSql, sizeof(zSql), "SELECT * FROM " HT_L " ORDER BY %s", aSort[i].zOrder);
    ht_check(pg, &h, n, zSql, 1);
    /* LIMIT 3 OFFSET 2 over the sorted rows. */
    {
      host_node *pLim = ht_node(&h, HN_LIMIT, 2, n->aType);
      pLim->pLeft = n;
      pLim->nLimit = 3;
      pLim->nOffset = 2;
      snprintf(zSql, sizeof(zSql), "SELECT * FROM " HT_L " ORDER BY %s LIMIT 3 OFFSET 2",
               aSort[i].zOrder);
      ht_check(pg, &h, pLim, zSql, 1);
    }
    arena_free(&h.a);
  }
}

/* Window functions over l, PARTITION BY k ORDER BY a. */
static void ht_windows(pgref *pg) {
  static const struct {
    host_win_func e;
    coltype_id eType;
    const char *zSql;
  } aWin[] = {
      {HOST_WIN_ROW_NUMBER, COLTYPE_BIGINT, "row_number()"},
      {HOST_WIN_RANK, COLTYPE_BIGINT, "rank()"},
      {HOST_WIN_DENSE_RANK, COLTYPE_BIGINT, "dense_rank()"},
      {HOST_WIN_LAG, COLTYPE_TEXT, "lag(a)"},
      {HOST_WIN_LEAD, COLTYPE_TEXT, "lead(a)"},
      {HOST_WIN_FIRST_VALUE, COLTYPE_TEXT, "first_value(a)"},
      {HOST_WIN_LAST_VALUE, COLTYPE_TEXT, "last_value(a)"},
      {HOST_WIN_AGG, COLTYPE_BIGINT, "count(a)"},
  };
  for (int bPart = 0; bPart < 2; bPart++) {
    for (size_t i = 0; i < sizeof(aWin) / sizeof(aWin[0]); i++) {
      ht h;
      host_node *n;
      host_win *w;
      char zSql[512];
      coltype aType[3] = {ht_tInt, ht_tText, {aWin[i].eType, 0, 0, 0}};
      memset(&h, 0, sizeof(h));
      arena_init(&h.a);
      n = ht_node(&h, HN_WINDOW, 3, aType);
      n->pLeft = ht_l(&h);
      if (bPart) {
        n->nKey = 1;
        n->apKey = ht_new(&h, sizeof(host_expr *));
        n->apKey[0] = ht_col(&h, 0, ht_tInt);
      }
      n->nSort = 1;
      n->aSort = ht_new(&h, sizeof(host_sort));
      n->aSort[0].pExpr = ht_col(&h, 1, ht_tText);
      n->nWin = 1;
      n->aWin = w = ht_new(&h, sizeof(host_win));
      w->eFunc = aWin[i].e;
      w->type = aType[2];
      w->eUnit = HOST_FRAME_RANGE;
      w->eStart = HOST_BOUND_UNBOUNDED_PRECEDING;
      w->eEnd = HOST_BOUND_CURRENT_ROW;
      if (aWin[i].e != HOST_WIN_ROW_NUMBER && aWin[i].e != HOST_WIN_RANK &&
          aWin[i].e != HOST_WIN_DENSE_RANK) {
        w->nArg = 1;
        w->apArg[0] = ht_col(&h, 1, ht_tText);
      }
      if (aWin[i].e == HOST_WIN_AGG) {
        w->agg.eFunc = HOST_AGG_COUNT;
        w->agg.nArg = 1;
        w->agg.apArg[0] = ht_col(&h, 1, ht_tText);
        w->agg.type = ht_tBig;
      }
      snprintf(zSql, sizeof(zSql), "SELECT k, a, %s OVER (%sORDER BY a) FROM " HT_L, aWin[i].zSql,
               bPart ? "PARTITION BY k " : "");
      /* row_number and lag/lead depend on the order of peers (the two
      ** NULL a's of l differ in k): checked per partition only. */
      if (!bPart && (aWin[i].e == HOST_WIN_ROW_NUMBER || aWin[i].e == HOST_WIN_LAG ||
                     aWin[i].e == HOST_WIN_LEAD)) {
        arena_free(&h.a);
        continue;
      }
      ht_check(pg, &h, n, zSql, 0);
      arena_free(&h.a);
    }
  }
}

/* l's rows op r's, with and without ALL: NULLs are equal here. */
static void ht_setops(pgref *pg) {
  static const struct {
    host_setop_kind e;
    int bAll;
    const char *zOp;
  } aOp[] = {
      {HOST_SETOP_UNION, 0, "UNION"},         {HOST_SETOP_UNION, 1, "UNION ALL"},
      {HOST_SETOP_INTERSECT, 0, "INTERSECT"}, {HOST_SETOP_INTERSECT, 1, "INTERSECT ALL"},
      {HOST_SETOP_EXCEPT, 0, "EXCEPT"},       {HOST_SETOP_EXCEPT, 1, "EXCEPT ALL"},
  };
  /* Only k: duplicates and NULLs on both sides. */
  for (size_t i = 0; i < sizeof(aOp) / sizeof(aOp[0]); i++) {
    for (int bSwap = 0; bSwap < 2; bSwap++) {
      ht h;
      host_node *n, *pl, *pr;
      char zSql[1024];
      memset(&h, 0, sizeof(h));
      arena_init(&h.a);
      pl = ht_node(&h, HN_PROJECT, 1, &ht_tInt);
      pr = ht_node(&h, HN_PROJECT, 1, &ht_tInt);
      pl->pLeft = bSwap ? ht_r(&h) : ht_l(&h);
      pr->pLeft = bSwap ? ht_l(&h) : ht_r(&h);
      pl->nExpr = pr->nExpr = 1;
      pl->apExpr = ht_new(&h, sizeof(host_expr *));
      pr->apExpr = ht_new(&h, sizeof(host_expr *));
      pl->apExpr[0] = pr->apExpr[0] = ht_col(&h, 0, ht_tInt);
      n = ht_node(&h, HN_SETOP, 1, &ht_tInt);
      n->pLeft = pl;
      n->pRight = pr;
      n->eSetOp = aOp[i].e;
      n->bAll = (unsigned)aOp[i].bAll;
      snprintf(zSql, sizeof(zSql), "SELECT k FROM %s %s SELECT k FROM %s", bSwap ? HT_R : HT_L,
               aOp[i].zOp, bSwap ? HT_L : HT_R);
      ht_check(pg, &h, n, zSql, 0);
      arena_free(&h.a);
    }
  }
}

/* Errors of evaluation: 22012, 22003, each with PostgreSQL's words. */
static void ht_errors(pgref *pg) {
  static const struct {
    int eOp;
    int64_t a, b;
    const char *zSql;
  } aErr[] = {
      {SQL_OP_DIV, 1, 0, "SELECT 1 / 0"},
      {SQL_OP_MUL, 2147483647, 2, "SELECT 2147483647 * 2"},
      {SQL_OP_MOD, 5, 0, "SELECT 5 % 0"},
  };
  for (size_t i = 0; i < sizeof(aErr) / sizeof(aErr[0]); i++) {
    ht h;
    host_node *v;
    sql_error e;
    char zErr[512];
    int rc;
    refdb_result *r;
    memset(&h, 0, sizeof(h));
    arena_init(&h.a);
    v = ht_node(&h, HN_VALUES, 1, &ht_tInt);
    v->nRow = 1;
    v->apExpr = ht_new(&h, sizeof(host_expr *));
    v->apExpr[0] = ht_op(&h, HX_ARITH, aErr[i].eOp, ht_tInt, 2, ht_int(&h, aErr[i].a),
                         ht_int(&h, aErr[i].b), NULL);
    ASSERT(pgref_exec(pg, aErr[i].zSql, zErr, sizeof(zErr)) != 0);
    r = ht_run(&h, v, &e, &rc);
    ASSERT(r == NULL && rc != 0);
    if (strncmp(zErr, e.zState, 5) != 0 || strcmp(e.zMsg, zErr + 7) != 0) {
      FAIL("%s: %s %s, PostgreSQL: %s", aErr[i].zSql, e.zState, e.zMsg, zErr);
    }
    arena_free(&h.a);
  }
}

TEST_IMPL(host_pg) {
  pgref *pg;
  char zErr[2048];
  CALL_OK(pgref_start(&pg, "pg", zErr, sizeof(zErr)));
  ht_joins(pg);
  ht_filters(pg);
  ht_aggs(pg);
  ht_sorts(pg);
  ht_windows(pg);
  ht_setops(pg);
  ht_errors(pg);
  pgref_stop(pg);
  return 0;
}
