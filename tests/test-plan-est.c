/*
** tests/test-plan-est.c — the planner's estimates: predicates on
** dictionary columns resolved into code sets (every form codeset.c
** handles, in three-valued logic), numeric selectivities from statistics
** (dates in days, out-of-range equalities), and the cost model's origin.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test-plan.h"
#include "test.h"

/* Plans SELECT count(*) FROM zTable WHERE zWhere and returns its one fact
** predicate (the plan stays alive in *t). */
static const plan_pred *estt_pred(cat *pCat, const char *zTable, const char *zWhere,
                                  plantest *t) {
  char zSql[512];
  snprintf(zSql, sizeof(zSql), "SELECT count(*) FROM %s WHERE %s", zTable, zWhere);
  plantest_plan(pCat, zSql, t);
  if (t->rc != 0) FAIL("%s: %s", zSql, t->e.zMsg);
  ASSERT_EQ(t->p.nFactPred, 1);
  return &t->p.aFactPred[0];
}

/* Dictionary predicates: codes that pass, as a range or a bitmap. The
** region dictionary is AFRICA, AMERICA, ASIA, EUROPE, MIDDLE EAST. */
TEST_IMPL(plan_codeset_forms) {
  static const struct {
    const char *zWhere;
    int nPass;
    int bRange;
    int iLo;
  } aCase[] = {
    {"s_region = 'ASIA'", 1, 1, 2},
    {"s_region <> 'ASIA'", 4, 0, 0},
    {"NOT (s_region = 'ASIA')", 4, 0, 0},
    {"s_region < 'ASIA'", 2, 1, 0},
    {"'ASIA' <= s_region", 3, 1, 2},
    {"s_region BETWEEN 'AM' AND 'EUROPE'", 3, 1, 1},
    {"s_region NOT BETWEEN 'AM' AND 'EUROPE'", 2, 0, 0},
    {"s_region IN ('EUROPE', 'AFRICA', 'NOWHERE')", 2, 0, 0},
    {"s_region NOT IN ('EUROPE', 'AFRICA')", 3, 0, 0},
    {"s_region NOT IN ('EUROPE', NULL)", 0, 1, 0},          /* NULL: never true */
    {"s_region IN ('EUROPE', NULL)", 1, 1, 3},
    {"s_region = NULL", 0, 1, 0},
    {"s_region LIKE 'A%'", 3, 1, 0},
    {"s_region LIKE '%A'", 3, 1, 0},
    {"s_region LIKE '_SIA'", 1, 1, 2},
    {"s_region LIKE '%%E%A%'", 2, 0, 0},                      /* AMERICA, MIDDLE EAST */
    {"s_region NOT LIKE '%I%'", 1, 1, 3},                      /* EUROPE */
    {"s_region = 'ASIA' OR s_region = 'EUROPE'", 2, 1, 2},
    {"(s_region >= 'AMERICA' AND s_region < 'EUROPE') OR s_region = 'ASIA'", 2, 1, 1},
    {"s_region LIKE 'MIDDLE\\_EAST'", 0, 1, 0},
    {"s_region LIKE 'MIDDLE EAST'", 1, 1, 4},
  };
  cat *pCat = plantest_open();
  for (size_t i = 0; i < sizeof(aCase) / sizeof(aCase[0]); i++) {
    plantest t;
    const plan_pred *q = estt_pred(pCat, "supplier", aCase[i].zWhere, &t);
    if (q->pCodes == NULL) FAIL("%s: no code set", aCase[i].zWhere);
    if ((int)q->pCodes->nPass != aCase[i].nPass || q->pCodes->bRange != aCase[i].bRange ||
        (aCase[i].bRange && aCase[i].nPass > 0 && (int)q->pCodes->iLo != aCase[i].iLo)) {
      FAIL("%s: %d codes pass (range %d from %u), want %d (range %d from %d)", aCase[i].zWhere,
           (int)q->pCodes->nPass, q->pCodes->bRange, q->pCodes->iLo, aCase[i].nPass,
           aCase[i].bRange, aCase[i].iLo);
    }
    ASSERT_EQ(q->pCodes->nCode, 5);
    ASSERT_EQ(q->eEst, PLAN_EST_DICT);
    if (aCase[i].nPass == 0) ASSERT(q->rSel == 0);
    if (aCase[i].nPass == 5) ASSERT(q->rSel == 1);
    plantest_done(&t);
  }
  /* A predicate over two string columns is no code set: estimated. */
  {
    plantest t;
    const plan_pred *q = estt_pred(pCat, "supplier", "s_region = s_nation", &t);
    ASSERT(q->pCodes == NULL);
    ASSERT_EQ(q->eEst, PLAN_EST_DEFAULT);
    plantest_done(&t);
  }
  cat_close(pCat);
  return 0;
}

/* Numbers: uniform between the exact min and max, in days for dates. */
TEST_IMPL(plan_estimate_numbers) {
  static const struct {
    const char *zTable, *zWhere;
    double rWant, rTol;
    plan_est eEst;
  } aCase[] = {
    {"lineorder", "lo_quantity < 25", 24.0 / 50, 0.001, PLAN_EST_RANGE},
    {"lineorder", "lo_quantity <= 25", 25.0 / 50, 0.001, PLAN_EST_RANGE},
    {"lineorder", "25 > lo_quantity", 24.0 / 50, 0.001, PLAN_EST_RANGE},
    {"lineorder", "lo_quantity >= 51", 0, 0, PLAN_EST_RANGE},
    {"lineorder", "lo_quantity = 99", 0, 0, PLAN_EST_DISTINCT},
    {"lineorder", "lo_quantity = 7", 1.0 / 50, 0.002, PLAN_EST_DISTINCT},
    {"lineorder", "lo_discount BETWEEN 1 AND 3", 3.0 / 11, 0.001, PLAN_EST_RANGE},
    {"lineorder", "lo_discount IN (1, 2, 99)", 2.0 / 11, 0.01, PLAN_EST_DISTINCT},
    {"lineorder", "NOT (lo_quantity < 25 AND lo_discount = 2)", 1 - 24.0 / 50 / 11, 0.002,
     PLAN_EST_COMBINED},
    /* 1993 is 365 of the date table's 2557 days (1992-01-01 .. 1998-12-31) */
    {"date", "d_datekey BETWEEN DATE '1993-01-01' AND DATE '1993-12-31'", 365.0 / 2557, 0.001,
     PLAN_EST_RANGE},
    {"date", "d_datekey < '1992-02-01'", 31.0 / 2557, 0.001, PLAN_EST_RANGE},
    {"lineorder", "lo_quantity IS NULL", 0, 0, PLAN_EST_NULLS},
  };
  cat *pCat = plantest_open();
  for (size_t i = 0; i < sizeof(aCase) / sizeof(aCase[0]); i++) {
    plantest t;
    const plan_pred *q = estt_pred(pCat, aCase[i].zTable, aCase[i].zWhere, &t);
    if (fabs(q->rSel - aCase[i].rWant) > aCase[i].rTol || q->eEst != aCase[i].eEst) {
      FAIL("%s: sel %g (how %d), want %g (how %d)", aCase[i].zWhere, q->rSel, q->eEst,
           aCase[i].rWant, aCase[i].eEst);
    }
    plantest_done(&t);
  }
  cat_close(pCat);
  return 0;
}

/* The model a caller gives reaches the plan and EXPLAIN and changes the
** cost model's figures; one with a constant out of range is refused. */
TEST_IMPL(plan_given_model) {
  cat *pCat = plantest_open();
  planner_model m;
  char zErr[512];
  plantest t, u;
  char *zSql = plantest_ssb("q1.1");
  CALL_OK(planner_model_default("test-gpu", &m, zErr, sizeof(zErr)));
  m.pred.rScanBw /= 4;

  plantest_plan(pCat, zSql, &t);                 /* defaults */
  ASSERT_EQ(t.rc, 0);
  ASSERT(strstr(strbuf_str(&t.explain), "cost model: defaults (H100 SXM) for \"default\"") != NULL);
  plantest_plan_model(pCat, zSql, &m, &u);
  ASSERT_EQ(u.rc, 0);
  ASSERT(u.p.model.pred.rScanBw == m.pred.rScanBw);
  ASSERT(strstr(strbuf_str(&u.explain), "cost model: defaults (H100 SXM) for \"test-gpu\"") != NULL);
  ASSERT(u.p.rScanCost > t.p.rScanCost);
  plantest_done(&u);

  m.pred.rScanBw = 0;
  plantest_plan_model(pCat, zSql, &m, &u);
  ASSERT_EQ(u.rc, -1);
  ASSERT_STR_EQ(u.e.zState, "XX000");
  ASSERT_STR_EQ(u.e.zMsg, "cost model for \"test-gpu\": \"pred.scan_bw\" is 0; it must be > 0");
  plantest_done(&u);
  plantest_done(&t);
  free(zSql);
  cat_close(pCat);
  return 0;
}

/* A resident plan prices a packed fact column at its resident copy's
** bytes a row (the plain copy: the type's width, what the SCAN's load
** reads there), a streamed one at its stored bytes: Q1.1's lo_discount,
** lo_quantity, lo_orderdate and lo_extendedprice 4 bytes each; the
** scan's bytes are the four copies'. */
TEST_IMPL(plan_resident_plain_bytes) {
  cat *pCat = plantest_open();
  planner_model m;
  char zErr[512];
  plantest u;
  sql_script s;
  char *zSql = plantest_ssb("q1.1");
  const plan_source *src;
  CALL_OK(planner_model_default("test-gpu", &m, zErr, sizeof(zErr)));
  m.bResident = 1;
  memset(&u, 0, sizeof(u));
  arena_init(&u.a);
  strbuf_init(&u.explain);
  ASSERT_EQ(sql_parse(zSql, &u.a, &s, &u.e), 0);
  ASSERT_EQ(bind_select(pCat, s.apStmt[0]->pSelect, &u.a, &u.b, &u.e), 0);
  ASSERT_EQ(plan_build(pCat, &u.b, &m, &u.a, &u.p, &u.e), 0);
  src = &u.p.aSource[u.p.iFact];
  for (int i = 0; i < src->pTable->nCol; i++) {
    const char *z = src->pTable->aCol[i].zName;
    if (strcmp(z, "lo_discount") != 0 && strcmp(z, "lo_quantity") != 0 &&
        strcmp(z, "lo_orderdate") != 0 && strcmp(z, "lo_extendedprice") != 0) {
      continue;
    }
    ASSERT(store_enc_packed((store_enc)src->aEnc[i]));
    ASSERT_EQ(plan__col_row_bytes(&u.p, u.p.iFact, i), 4);
  }
  ASSERT_EQ(u.p.nScanByte, (uint64_t)src->pTable->nRow * 4 * 4);
  for (int k = 0; k < u.p.nCond; k++) {
    if (u.p.aCond[k].bProbe) ASSERT_EQ(u.p.aCond[k].nByte, 4);   /* lo_orderdate */
  }
  plantest_done(&u);
  free(zSql);
  cat_close(pCat);
  return 0;
}
