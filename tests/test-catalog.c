/*
** tests/test-catalog.c — table definitions in the catalog (catalog/):
** create and read back every type and key, names that ignore case, every
** validation message, drop, and opening what is or is not a catalog.
** Generations and statistics are in test-catalog-gen.c.
*/
#include <sys/stat.h>
#include <unistd.h>

#include "../catalog/catalog.h"
#include "test.h"

static coltype ty(coltype_id e, int nLength, int nPrecision, int nScale) {
  coltype t = {e, nLength, nPrecision, nScale};
  return t;
}

static const coltype T_INT = {COLTYPE_INTEGER, 0, 0, 0};
static const coltype T_BIGINT = {COLTYPE_BIGINT, 0, 0, 0};
static const coltype T_TEXT = {COLTYPE_TEXT, 0, 0, 0};

/* Asserts that SQLite finds the catalog sound by its own constraints. */
static void catalog_assert_sound(const char *zPath) {
  ASSERT_EQ(test_sql_int(zPath, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
  ASSERT_EQ(test_sql_int(zPath, "SELECT count(*) FROM pragma_integrity_check WHERE"
                                " integrity_check <> 'ok'"), 0);
}

/* Asserts that two definitions say the same thing. */
static void table_assert_same(const cat_table *a, const cat_table *b) {
  ASSERT_STR_EQ(a->zName, b->zName);
  ASSERT_EQ(a->iId, b->iId);
  ASSERT_EQ(a->nCol, b->nCol);
  for (int i = 0; i < a->nCol; i++) {
    ASSERT_STR_EQ(a->aCol[i].zName, b->aCol[i].zName);
    ASSERT_EQ(a->aCol[i].type.eId, b->aCol[i].type.eId);
    ASSERT_EQ(a->aCol[i].type.nLength, b->aCol[i].type.nLength);
    ASSERT_EQ(a->aCol[i].type.nPrecision, b->aCol[i].type.nPrecision);
    ASSERT_EQ(a->aCol[i].type.nScale, b->aCol[i].type.nScale);
    ASSERT_EQ(a->aCol[i].bNotNull, b->aCol[i].bNotNull);
  }
  ASSERT_EQ(a->nPkey, b->nPkey);
  for (int i = 0; i < a->nPkey; i++) ASSERT_EQ(a->aiPkey[i], b->aiPkey[i]);
  ASSERT_EQ(a->nFkey, b->nFkey);
  for (int i = 0; i < a->nFkey; i++) {
    const cat_fkey *f = &a->aFkey[i], *g = &b->aFkey[i];
    ASSERT_EQ(f->nCol, g->nCol);
    ASSERT_STR_EQ(f->zRefTable, g->zRefTable);
    for (int j = 0; j < f->nCol; j++) {
      ASSERT_EQ(f->aiCol[j], g->aiCol[j]);
      ASSERT_EQ(f->aiRefCol[j], g->aiRefCol[j]);
      ASSERT_STR_EQ(f->azRefCol[j], g->azRefCol[j]);
    }
  }
  ASSERT_EQ(a->iGen, b->iGen);
  ASSERT_EQ(a->nRow, b->nRow);
  ASSERT((a->zLocation == NULL) == (b->zLocation == NULL));
}

/* Creates customer(c_custkey INTEGER primary key, c_name VARCHAR(25)). */
static cat_table *customer_create(cat *pCat) {
  static const char *const azPkey[] = {"c_custkey"};
  char zErr[256];
  cat_table *t = cat_table_new("customer");
  ASSERT(t != NULL);
  CALL_OK(cat_table_add_column(t, "c_custkey", T_INT, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "c_name", ty(COLTYPE_VARCHAR, 25, 0, 0), 1, zErr,
                              sizeof(zErr)));
  CALL_OK(cat_table_set_pkey(t, 1, azPkey, zErr, sizeof(zErr)));
  CALL_OK(cat_table_create(pCat, t, zErr, sizeof(zErr)));
  return t;
}

/* Returns how many tables the catalog lists. */
static int table_count(cat *pCat) {
  char zErr[256], **az;
  int n;
  CALL_OK(cat_table_names(pCat, &az, &n, zErr, sizeof(zErr)));
  for (int i = 0; i < n; i++) free(az[i]);
  free(az);
  return n;
}

TEST_IMPL(cat_create_get) {
  static const char *const azPkey[] = {"k1", "k2"};
  static const char *const azFk[] = {"ck1", "ck2"}, *const azRef[] = {"K1", "K2"};
  static const char *const azSelf[] = {"parent"}, *const azSelfRef[] = {"id"};
  static const char *const azSelfPk[] = {"id"};
  char zErr[512];
  cat *pCat;
  cat_table *t, *c, *s, *g;

  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  ASSERT_STR_EQ(cat_data_dir(pCat), "data");

  /* Every type, with and without NOT NULL; k1 becomes NOT NULL as a key. */
  t = cat_table_new("everything");
  CALL_OK(cat_table_add_column(t, "k1", T_INT, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "k2", T_BIGINT, 1, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "s", ty(COLTYPE_SMALLINT, 0, 0, 0), 1, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "d", ty(COLTYPE_DOUBLE, 0, 0, 0), 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "m", ty(COLTYPE_DECIMAL, 0, 15, 2), 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "m0", ty(COLTYPE_DECIMAL, 0, 18, 0), 1, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "dt", ty(COLTYPE_DATE, 0, 0, 0), 1, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "c", ty(COLTYPE_CHAR, 10, 0, 0), 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "v", ty(COLTYPE_VARCHAR, 10485760, 0, 0), 0, zErr,
                              sizeof(zErr)));
  CALL_OK(cat_table_add_column(t, "x", T_TEXT, 0, zErr, sizeof(zErr)));
  ASSERT_EQ(t->aCol[0].bNotNull, 0);
  CALL_OK(cat_table_set_pkey(t, 2, azPkey, zErr, sizeof(zErr)));
  ASSERT_EQ(t->aCol[0].bNotNull, 1);
  ASSERT_EQ(t->iId, 0);
  CALL_OK(cat_table_create(pCat, t, zErr, sizeof(zErr)));
  ASSERT_GT(t->iId, 0);
  ASSERT_EQ(t->iGen, 0);
  ASSERT(t->zLocation == NULL);

  /* A composite foreign key, referenced columns named in another case. */
  c = cat_table_new("child");
  CALL_OK(cat_table_add_column(c, "payload", T_TEXT, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(c, "ck1", T_INT, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(c, "ck2", T_BIGINT, 1, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_fkey(c, 2, azFk, "EVERYTHING", azRef, zErr, sizeof(zErr)));
  ASSERT_EQ(c->aFkey[0].aiRefCol[0], -1);
  CALL_OK(cat_table_create(pCat, c, zErr, sizeof(zErr)));
  ASSERT_GT(c->iId, t->iId);
  ASSERT_EQ(c->aFkey[0].aiCol[0], 1);
  ASSERT_EQ(c->aFkey[0].aiCol[1], 2);
  ASSERT_EQ(c->aFkey[0].aiRefCol[0], 0);
  ASSERT_EQ(c->aFkey[0].aiRefCol[1], 1);

  /* A table that references itself. */
  s = cat_table_new("tree");
  CALL_OK(cat_table_add_column(s, "id", T_INT, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_column(s, "parent", T_INT, 0, zErr, sizeof(zErr)));
  CALL_OK(cat_table_set_pkey(s, 1, azSelfPk, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_fkey(s, 1, azSelf, "Tree", azSelfRef, zErr, sizeof(zErr)));
  CALL_OK(cat_table_create(pCat, s, zErr, sizeof(zErr)));
  ASSERT_EQ(s->aFkey[0].aiRefCol[0], 0);

  for (int bReopen = 0; bReopen < 2; bReopen++) {
    if (bReopen) {
      cat_close(pCat);
      CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
    }
    CALL_OK(cat_table_get(pCat, "everything", &g, zErr, sizeof(zErr)));
    table_assert_same(t, g);
    ASSERT_EQ(g->aCol[0].bNotNull, 1);       /* the key made it NOT NULL */
    ASSERT_EQ(g->aCol[3].bNotNull, 0);
    ASSERT_EQ(g->aCol[4].type.nPrecision, 15);
    ASSERT_EQ(g->aCol[4].type.nScale, 2);
    ASSERT_EQ(g->aCol[7].type.nLength, 10);
    ASSERT_EQ(g->aCol[8].type.nLength, 10485760);
    cat_table_free(g);

    CALL_OK(cat_table_get(pCat, "child", &g, zErr, sizeof(zErr)));
    /* As stored: the referenced table's and columns' own spelling. */
    ASSERT_STR_EQ(g->aFkey[0].zRefTable, "everything");
    ASSERT_STR_EQ(g->aFkey[0].azRefCol[0], "k1");
    ASSERT_STR_EQ(g->aFkey[0].azRefCol[1], "k2");
    ASSERT_EQ(g->aFkey[0].aiRefCol[1], 1);
    ASSERT_EQ(g->aCol[1].bNotNull, 0);       /* a foreign key may be NULL */
    ASSERT_EQ(g->nPkey, 0);
    ASSERT_EQ(g->iId, c->iId);
    cat_table_free(g);

    CALL_OK(cat_table_get(pCat, "tree", &g, zErr, sizeof(zErr)));
    ASSERT_STR_EQ(g->aFkey[0].zRefTable, "tree");
    ASSERT_EQ(g->aFkey[0].aiCol[0], 1);
    ASSERT_EQ(g->aFkey[0].aiRefCol[0], 0);
    cat_table_free(g);
  }
  catalog_assert_sound("data/catalog.db");
  ASSERT_EQ(test_sql_int("data/catalog.db", "SELECT count(*) FROM fkey_columns"), 3);
  cat_table_free(t);
  cat_table_free(c);
  cat_table_free(s);
  cat_close(pCat);
  return 0;
}

TEST_IMPL(cat_names) {
  static const char *const azPkey[] = {"ID"};
  char zErr[512], **az;
  int n;
  cat *pCat;
  cat_table *t, *g;

  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  CALL_OK(cat_table_names(pCat, &az, &n, zErr, sizeof(zErr)));
  ASSERT_EQ(n, 0);
  free(az);

  t = cat_table_new("Customer");
  CALL_OK(cat_table_add_column(t, "Id", T_INT, 0, zErr, sizeof(zErr)));
  CALL_ERR(cat_table_add_column(t, "ID", T_INT, 0, zErr, sizeof(zErr)),
          "column \"ID\" is defined twice");
  CALL_OK(cat_table_set_pkey(t, 1, azPkey, zErr, sizeof(zErr)));
  ASSERT_EQ(cat_table_column(t, "iD"), 0);
  ASSERT_EQ(cat_table_column(t, "nope"), -1);
  CALL_OK(cat_table_create(pCat, t, zErr, sizeof(zErr)));
  cat_table_free(t);

  CALL_OK(cat_table_get(pCat, "CUSTOMER", &g, zErr, sizeof(zErr)));
  ASSERT_STR_EQ(g->zName, "Customer");
  ASSERT_STR_EQ(g->aCol[0].zName, "Id");
  cat_table_free(g);
  CALL_ERR(cat_table_get(pCat, "customers", &g, zErr, sizeof(zErr)),
          "no table named \"customers\"");
  ASSERT(g == NULL);

  t = cat_table_new("cUSTOMER");
  CALL_OK(cat_table_add_column(t, "x", T_INT, 0, zErr, sizeof(zErr)));
  CALL_ERR(cat_table_create(pCat, t, zErr, sizeof(zErr)), "table \"cUSTOMER\" already exists");
  cat_table_free(t);

  /* Creation order, kept across a drop and a reopen. */
  for (int i = 0; i < 3; i++) {
    const char *azName[] = {"b_second", "a_third", "c_fourth"};
    t = cat_table_new(azName[i]);
    CALL_OK(cat_table_add_column(t, "x", T_INT, 0, zErr, sizeof(zErr)));
    CALL_OK(cat_table_create(pCat, t, zErr, sizeof(zErr)));
    cat_table_free(t);
  }
  CALL_OK(cat_table_drop(pCat, "A_THIRD", zErr, sizeof(zErr)));
  cat_close(pCat);
  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  CALL_OK(cat_table_names(pCat, &az, &n, zErr, sizeof(zErr)));
  ASSERT_EQ(n, 3);
  ASSERT_STR_EQ(az[0], "Customer");
  ASSERT_STR_EQ(az[1], "b_second");
  ASSERT_STR_EQ(az[2], "c_fourth");
  for (int i = 0; i < n; i++) free(az[i]);
  free(az);
  cat_close(pCat);
  return 0;
}

TEST_IMPL(cat_errors) {
  static const char *const azA[] = {"a"}, *const azZz[] = {"zz"}, *const azAa[] = {"a", "A"};
  static const char *const azEmpty[] = {""}, *const azCust[] = {"c_custkey"};
  char zErr[512];
  cat *pCat;
  cat_table *t, *cust;

  /* ---- the builders ---- */
  t = cat_table_new("t");
  CALL_ERR(cat_table_add_column(t, "", T_INT, 0, zErr, sizeof(zErr)), "a column needs a name");
  CALL_ERR(cat_table_add_column(t, NULL, T_INT, 0, zErr, sizeof(zErr)), "a column needs a name");
  CALL_OK(cat_table_add_column(t, "a", T_INT, 0, zErr, sizeof(zErr)));
  CALL_ERR(cat_table_add_column(t, "a", T_TEXT, 0, zErr, sizeof(zErr)),
          "column \"a\" is defined twice");
  CALL_ERR(cat_table_add_column(t, "m", ty(COLTYPE_DECIMAL, 0, 19, 2), 0, zErr, sizeof(zErr)),
          "column \"m\": DECIMAL precision 19 is out of range 1..18");
  CALL_ERR(cat_table_add_column(t, "m", ty(COLTYPE_DECIMAL, 0, 5, 6), 0, zErr, sizeof(zErr)),
          "column \"m\": DECIMAL scale 6 is out of range 0..5");
  CALL_ERR(cat_table_add_column(t, "v", ty(COLTYPE_VARCHAR, 0, 0, 0), 0, zErr, sizeof(zErr)),
          "column \"v\": VARCHAR length 0 is out of range 1..10485760");
  CALL_ERR(cat_table_add_column(t, "c", ty(COLTYPE_CHAR, 10485761, 0, 0), 0, zErr,
                               sizeof(zErr)),
          "column \"c\": CHAR length 10485761 is out of range 1..10485760");
  CALL_ERR(cat_table_add_column(t, "z", ty(42, 0, 0, 0), 0, zErr, sizeof(zErr)),
          "column \"z\": unknown type number 42");
  CALL_ERR(cat_table_add_column(t, "i", ty(COLTYPE_INTEGER, 4, 0, 0), 0, zErr, sizeof(zErr)),
          "column \"i\": only CHAR and VARCHAR take a length");
  ASSERT_EQ(t->nCol, 1);

  CALL_ERR(cat_table_set_pkey(t, 0, azA, zErr, sizeof(zErr)),
          "a primary key needs at least one column");
  CALL_ERR(cat_table_set_pkey(t, 1, azZz, zErr, sizeof(zErr)),
          "primary key column \"zz\" is not a column of table \"t\"");
  CALL_ERR(cat_table_set_pkey(t, 2, azAa, zErr, sizeof(zErr)),
          "column \"a\" appears twice in the primary key");
  ASSERT_EQ(t->nPkey, 0);
  ASSERT_EQ(t->aCol[0].bNotNull, 0);
  CALL_OK(cat_table_set_pkey(t, 1, azA, zErr, sizeof(zErr)));
  CALL_ERR(cat_table_set_pkey(t, 1, azA, zErr, sizeof(zErr)),
          "table \"t\" already has a primary key");

  CALL_ERR(cat_table_add_fkey(t, 0, azA, "u", azA, zErr, sizeof(zErr)),
          "a foreign key needs at least one column");
  CALL_ERR(cat_table_add_fkey(t, 1, azZz, "u", azA, zErr, sizeof(zErr)),
          "foreign key column \"zz\" is not a column of table \"t\"");
  CALL_ERR(cat_table_add_fkey(t, 2, azAa, "u", azAa, zErr, sizeof(zErr)),
          "column \"a\" appears twice in the foreign key");
  CALL_ERR(cat_table_add_fkey(t, 1, azA, "", azA, zErr, sizeof(zErr)),
          "a foreign key needs a referenced table");
  CALL_ERR(cat_table_add_fkey(t, 1, azA, "u", azEmpty, zErr, sizeof(zErr)),
          "a foreign key's referenced column needs a name");
  ASSERT_EQ(t->nFkey, 0);
  cat_table_free(t);

  /* ---- creating, against the catalog ---- */
  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  cust = customer_create(pCat);
  ASSERT_EQ(cust->iId, 1);
  CALL_ERR(cat_table_create(pCat, cust, zErr, sizeof(zErr)),
          "table \"customer\" was already created (id 1)");

  t = cat_table_new("");
  CALL_OK(cat_table_add_column(t, "a", T_INT, 0, zErr, sizeof(zErr)));
  CALL_ERR(cat_table_create(pCat, t, zErr, sizeof(zErr)), "a table needs a name");
  cat_table_free(t);

  t = cat_table_new("empty");
  CALL_ERR(cat_table_create(pCat, t, zErr, sizeof(zErr)), "table \"empty\" has no columns");
  cat_table_free(t);

  t = cat_table_new("customer");
  CALL_OK(cat_table_add_column(t, "a", T_INT, 0, zErr, sizeof(zErr)));
  CALL_ERR(cat_table_create(pCat, t, zErr, sizeof(zErr)), "table \"customer\" already exists");
  cat_table_free(t);

  /* A definition filled in by hand is checked as the builders check. */
  t = cat_table_new("byhand");
  CALL_OK(cat_table_add_column(t, "a", T_INT, 0, zErr, sizeof(zErr)));
  t->aCol[0].type.eId = 99;
  CALL_ERR(cat_table_create(pCat, t, zErr, sizeof(zErr)), "column \"a\": unknown type number 99");
  t->aCol[0].type.eId = COLTYPE_INTEGER;
  CALL_OK(cat_table_set_pkey(t, 1, azA, zErr, sizeof(zErr)));
  t->aiPkey[0] = 5;
  CALL_ERR(cat_table_create(pCat, t, zErr, sizeof(zErr)),
          "primary key of table \"byhand\" names column 5, which does not exist");
  cat_table_free(t);

  /* Foreign keys: each way one can be wrong. */
  {
    static const char *const azLo[] = {"lo_custkey"}, *const azName[] = {"c_name"};
    static const char *const azNoCol[] = {"c_nokey"}, *const azX[] = {"x"};
    static const char *const azXy[] = {"x", "y"}, *const azB[] = {"b"};
    static const char *const azBa[] = {"b", "a"}, *const azAb[] = {"a", "b"};
    struct {
      int nCol;
      const char *const *azCol;
      const char *zRef;
      const char *const *azRef;
      const char *zWant;
    } aCase[] = {
        {1, azLo, "custmer", azCust,
         "foreign key (lo_custkey) references table \"custmer\", which does not exist"},
        {1, azX, "nopk", azA, "foreign key (x) references nopk, which has no primary key"},
        {1, azLo, "customer", azNoCol,
         "foreign key (lo_custkey) references customer (c_nokey), which has no column c_nokey"},
        {1, azLo, "customer", azName,
         "foreign key (lo_custkey) references customer (c_name), which is not its primary key "
         "(c_custkey)"},
        {1, azX, "comp", azA,
         "foreign key (x) references comp (a), which is not its primary key (a, b)"},
        {2, azXy, "comp", azBa,
         "foreign key (x, y) references comp (b, a), which is not its primary key (a, b)"},
        {1, azLo, "Customer", azCust,
         "foreign key (lo_custkey) references Customer (c_custkey), but lo_custkey is BIGINT "
         "and c_custkey is INTEGER"},
        {1, azX, "self", azB,
         "foreign key (x) references self (b), which is not its primary key (a)"},
        {2, azXy, "comp", azAb,
         "foreign key (x, y) references comp (a, b), but y is INTEGER and b is DECIMAL(15,2)"},
    };
    cat_table *pNopk = cat_table_new("nopk"), *pComp = cat_table_new("comp");
    CALL_OK(cat_table_add_column(pNopk, "a", T_INT, 0, zErr, sizeof(zErr)));
    CALL_OK(cat_table_create(pCat, pNopk, zErr, sizeof(zErr)));
    CALL_OK(cat_table_add_column(pComp, "a", T_INT, 0, zErr, sizeof(zErr)));
    CALL_OK(cat_table_add_column(pComp, "b", ty(COLTYPE_DECIMAL, 0, 15, 2), 0, zErr,
                                sizeof(zErr)));
    CALL_OK(cat_table_set_pkey(pComp, 2, azAb, zErr, sizeof(zErr)));
    CALL_OK(cat_table_create(pCat, pComp, zErr, sizeof(zErr)));
    cat_table_free(pNopk);
    cat_table_free(pComp);

    for (size_t i = 0; i < sizeof(aCase) / sizeof(aCase[0]); i++) {
      int n = table_count(pCat);
      t = cat_table_new(strcmp(aCase[i].zRef, "self") == 0 ? "self" : "fact");
      CALL_OK(cat_table_add_column(t, "a", T_INT, 0, zErr, sizeof(zErr)));
      CALL_OK(cat_table_add_column(t, "b", T_INT, 0, zErr, sizeof(zErr)));
      CALL_OK(cat_table_add_column(t, "lo_custkey", T_BIGINT, 0, zErr, sizeof(zErr)));
      CALL_OK(cat_table_add_column(t, "x", T_INT, 0, zErr, sizeof(zErr)));
      CALL_OK(cat_table_add_column(t, "y", T_INT, 0, zErr, sizeof(zErr)));
      CALL_OK(cat_table_set_pkey(t, 1, azA, zErr, sizeof(zErr)));
      CALL_OK(cat_table_add_fkey(t, aCase[i].nCol, aCase[i].azCol, aCase[i].zRef,
                                aCase[i].azRef, zErr, sizeof(zErr)));
      CALL_ERR(cat_table_create(pCat, t, zErr, sizeof(zErr)), aCase[i].zWant);
      ASSERT_EQ(t->iId, 0);
      ASSERT_EQ(t->aFkey[0].aiRefCol[0], -1);
      ASSERT_EQ(table_count(pCat), n);
      cat_table_free(t);
    }
  }
  cat_table_free(cust);
  cat_close(pCat);
  return 0;
}

TEST_IMPL(cat_drop) {
  static const char *const azLo[] = {"lo_custkey"}, *const azCust[] = {"c_custkey"};
  char zErr[512];
  struct stat st;
  cat *pCat;
  cat_table *cust, *lo, *g;
  int64_t iGen;
  col_stats aStats[2];

  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  cust = customer_create(pCat);
  lo = cat_table_new("lineorder");
  CALL_OK(cat_table_add_column(lo, "lo_custkey", T_INT, 1, zErr, sizeof(zErr)));
  CALL_OK(cat_table_add_fkey(lo, 1, azLo, "customer", azCust, zErr, sizeof(zErr)));
  CALL_OK(cat_table_create(pCat, lo, zErr, sizeof(zErr)));

  CALL_ERR(cat_table_drop(pCat, "CUSTOMER", zErr, sizeof(zErr)),
          "cannot drop table \"CUSTOMER\": table \"lineorder\" has a foreign key to it");
  CALL_OK(cat_table_get(pCat, "customer", &g, zErr, sizeof(zErr)));
  cat_table_free(g);
  CALL_ERR(cat_table_drop(pCat, "supplier", zErr, sizeof(zErr)), "no table named \"supplier\"");

  /* The table's files go with it. */
  CALL_OK(cat_gen_begin(pCat, lo, &iGen, zErr, sizeof(zErr)));
  ASSERT_EQ(stats_init(&aStats[0], T_INT), 0);
  CALL_OK(cat_gen_commit(pCat, lo, iGen, 0, aStats, zErr, sizeof(zErr)));
  stats_free(&aStats[0]);
  ASSERT_EQ(stat("data/t2/g1", &st), 0);
  CALL_OK(cat_table_drop(pCat, "lineorder", zErr, sizeof(zErr)));
  ASSERT(!test_file_exists("data/t2"));
  CALL_ERR(cat_table_get(pCat, "lineorder", &g, zErr, sizeof(zErr)),
          "no table named \"lineorder\"");
  CALL_ERR(cat_stats_get(pCat, lo->iId, 0, &aStats[1], zErr, sizeof(zErr)),
          "table id 2 has no column 0");
  stats_free(&aStats[1]);

  /* Unreferenced now; and its id is never handed out again. */
  CALL_OK(cat_table_drop(pCat, "customer", zErr, sizeof(zErr)));
  ASSERT_EQ(table_count(pCat), 0);
  cat_table_free(cust);
  cust = customer_create(pCat);
  ASSERT_EQ(cust->iId, 3);
  cat_close(pCat);
  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  CALL_OK(cat_table_drop(pCat, "customer", zErr, sizeof(zErr)));
  cat_table_free(cust);
  cust = customer_create(pCat);
  ASSERT_EQ(cust->iId, 4);
  catalog_assert_sound("data/catalog.db");
  /* Nothing of the dropped tables is left in the catalog. */
  ASSERT_EQ(test_sql_int("data/catalog.db", "SELECT count(*) FROM columns"), 2);
  ASSERT_EQ(test_sql_int("data/catalog.db", "SELECT count(*) FROM fkeys"), 0);
  ASSERT_EQ(test_sql_int("data/catalog.db", "SELECT count(*) FROM column_stats"), 0);

  cat_table_free(cust);
  cat_table_free(lo);
  cat_close(pCat);
  return 0;
}

/* ---- what is and is not a catalog --------------------------------------- */

static void file_write(const char *zPath, const void *a, size_t n) {
  FILE *f = fopen(zPath, "wb");
  ASSERT(f != NULL);
  ASSERT_EQ(fwrite(a, 1, n, f), n);
  ASSERT_EQ(fclose(f), 0);
}

TEST_IMPL(cat_migrate_fresh) {
  char zErr[512];
  cat *pCat;
  cat_table *t;

  /* A directory that does not exist yet, parents included. */
  CALL_OK(cat_open(&pCat, "a/b/data", zErr, sizeof(zErr)));
  cat_close(pCat);
  ASSERT(test_file_exists("a/b/data/catalog.db"));
  ASSERT_EQ(test_sql_int("a/b/data/catalog.db", "PRAGMA user_version"), CAT_SCHEMA_VERSION);
  ASSERT_EQ(test_sql_int("a/b/data/catalog.db", "PRAGMA application_id"), 0x53545251);
  ASSERT_EQ(test_sql_int("a/b/data/catalog.db",
                         "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN"
                         " ('tables', 'columns', 'pkey_columns', 'fkeys', 'fkey_columns',"
                         " 'column_stats')"),
            6);
  ASSERT_EQ(test_sql_int("a/b/data/catalog.db", "SELECT count(*) FROM sqlite_master WHERE"
                                                " name = 'calibration'"),
            0);
  ASSERT_EQ(test_sql_int("a/b/data/catalog.db",
                         "SELECT count(*) FROM pragma_journal_mode WHERE journal_mode = 'wal'"),
            1);

  /* Reopening an up-to-date catalog changes nothing. */
  CALL_OK(cat_open(&pCat, "a/b/data", zErr, sizeof(zErr)));
  t = customer_create(pCat);
  cat_table_free(t);
  cat_close(pCat);
  CALL_OK(cat_open(&pCat, "a/b/data", zErr, sizeof(zErr)));
  ASSERT_EQ(table_count(pCat), 1);
  cat_close(pCat);
  ASSERT_EQ(test_sql_int("a/b/data/catalog.db", "PRAGMA user_version"), CAT_SCHEMA_VERSION);

  /* An empty file is an empty database: it becomes a catalog. */
  ASSERT_EQ(mkdir("empty", 0777), 0);
  file_write("empty/catalog.db", "", 0);
  CALL_OK(cat_open(&pCat, "empty", zErr, sizeof(zErr)));
  ASSERT_EQ(table_count(pCat), 0);
  cat_close(pCat);
  ASSERT_EQ(test_sql_int("empty/catalog.db", "PRAGMA user_version"), CAT_SCHEMA_VERSION);

  /* A data directory that is a file is refused. */
  file_write("plainfile", "x", 1);
  ASSERT_NE(cat_open(&pCat, "plainfile", zErr, sizeof(zErr)), 0);
  ASSERT(pCat == NULL);
  ASSERT(strstr(zErr, "plainfile") != NULL);
  return 0;
}

TEST_IMPL(cat_migrate_newer) {
  char zErr[512], zSql[64], zWant[256];
  cat *pCat;

  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  cat_close(pCat);
  snprintf(zSql, sizeof(zSql), "PRAGMA user_version = %d", CAT_SCHEMA_VERSION + 1);
  test_sql_exec("data/catalog.db", zSql);
  snprintf(zWant, sizeof(zWant),
           "catalog data/catalog.db has schema version %d, newer than version %d that this "
           "build of starq reads; use a newer starq",
           CAT_SCHEMA_VERSION + 1, CAT_SCHEMA_VERSION);
  CALL_ERR(cat_open(&pCat, "data", zErr, sizeof(zErr)), zWant);
  ASSERT(pCat == NULL);
  ASSERT_EQ(test_sql_int("data/catalog.db", "PRAGMA user_version"), CAT_SCHEMA_VERSION + 1);
  return 0;
}

/* ---- upgrading older catalogs -------------------------------------------- */

/* The calibration table as schema versions 2 and 3 had it. */
#define CAT_V3_CALIBRATION                                                          \
  "CREATE TABLE calibration(device TEXT NOT NULL CHECK (device <> ''),"           \
  " name TEXT NOT NULL CHECK (name <> ''), value REAL NOT NULL CHECK (abs(value) < 9e999)," \
  " measured_at TEXT NOT NULL, PRIMARY KEY (device, name)) STRICT;"

/* Counts the objects of the catalog at data/ named zName. */
static int64_t migrate_objects(const char *zName) {
  char zSql[128];
  snprintf(zSql, sizeof(zSql), "SELECT count(*) FROM sqlite_master WHERE name = '%s'", zName);
  return test_sql_int("data/catalog.db", zSql);
}

/* Makes data/ a catalog at this version holding customer, and returns
** its definition (the caller frees it). */
static cat_table *migrate_setup(void) {
  char zErr[512];
  cat *pCat;
  cat_table *t;
  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  t = customer_create(pCat);
  cat_close(pCat);
  return t;
}

/* Opens data/, which must upgrade to CAT_SCHEMA_VERSION keeping customer
** as it was (want) and leaving no calibration table. */
static void migrate_check(const cat_table *want) {
  char zErr[512];
  cat *pCat;
  cat_table *t;
  CALL_OK(cat_open(&pCat, "data", zErr, sizeof(zErr)));
  CALL_OK(cat_table_get(pCat, "customer", &t, zErr, sizeof(zErr)));
  table_assert_same(t, want);
  cat_table_free(t);
  ASSERT_EQ(table_count(pCat), 1);
  cat_close(pCat);
  ASSERT_EQ(test_sql_int("data/catalog.db", "PRAGMA user_version"), CAT_SCHEMA_VERSION);
  ASSERT_EQ(migrate_objects("calibration"), 0);
  ASSERT_EQ(test_sql_int("data/catalog.db", "SELECT count(*) FROM pragma_table_info('column_stats')"
                                            " WHERE name = 'run_count'"),
            1);
  catalog_assert_sound("data/catalog.db");
}

/* A version-1 catalog (no calibration table, no run counts) upgrades
** through every step in one transaction: when a step fails (here on an
** object in the way of 1 -> 2), it stays at version 1 with nothing
** changed; with the obstacle gone it upgrades. */
TEST_IMPL(cat_migrate_v1) {
  static const char zMakeV1[] = "ALTER TABLE column_stats DROP COLUMN run_count;"
                                " PRAGMA user_version = 1";
  char zErr[512];
  cat *pCat;
  cat_table *t = migrate_setup();

  test_sql_exec("data/catalog.db", zMakeV1);
  migrate_check(t);

  test_sql_exec("data/catalog.db", zMakeV1);
  test_sql_exec("data/catalog.db", "CREATE VIEW calibration AS SELECT 1 AS x");
  ASSERT_NE(cat_open(&pCat, "data", zErr, sizeof(zErr)), 0);
  ASSERT(pCat == NULL);
  if (strstr(zErr, "calibration already exists") == NULL) FAIL("unexpected: %s", zErr);
  ASSERT_EQ(test_sql_int("data/catalog.db", "PRAGMA user_version"), 1);
  ASSERT_EQ(migrate_objects("calibration"), 1);
  ASSERT_EQ(test_sql_int("data/catalog.db", "SELECT count(*) FROM pragma_table_info('column_stats')"
                                            " WHERE name = 'run_count'"),
            0);
  test_sql_exec("data/catalog.db", "DROP VIEW calibration");
  migrate_check(t);
  cat_table_free(t);
  return 0;
}

/* The previous version, 3, had a calibration table; opening drops it and
** the rows it held, and keeps everything else. A step that fails (an
** object named calibration that is not a table) leaves version 3. */
TEST_IMPL(cat_migrate_v3) {
  char zErr[512];
  cat *pCat;
  cat_table *t = migrate_setup();

  test_sql_exec("data/catalog.db", CAT_V3_CALIBRATION
                " INSERT INTO calibration VALUES ('cpu', 'pred.rate.2', 0.5,"
                " '2026-11-22T10:00:00Z'); PRAGMA user_version = 3");
  ASSERT_EQ(test_sql_int("data/catalog.db", "SELECT count(*) FROM calibration"), 1);
  migrate_check(t);

  test_sql_exec("data/catalog.db", "CREATE VIEW calibration AS SELECT 1 AS x;"
                                   " PRAGMA user_version = 3");
  ASSERT_NE(cat_open(&pCat, "data", zErr, sizeof(zErr)), 0);
  ASSERT(pCat == NULL);
  if (strstr(zErr, "DROP VIEW") == NULL) FAIL("unexpected: %s", zErr);
  ASSERT_EQ(test_sql_int("data/catalog.db", "PRAGMA user_version"), 3);
  test_sql_exec("data/catalog.db", "DROP VIEW calibration");
  migrate_check(t);
  cat_table_free(t);
  return 0;
}

TEST_IMPL(cat_not_sqlite) {
  static const char zText[] = "c_custkey|c_name\n1|Customer#000000001\n";
  char zErr[512], aJunk[8192];
  size_t n;
  char *z;
  cat *pCat;

  ASSERT_EQ(mkdir("data", 0777), 0);
  file_write("data/catalog.db", zText, sizeof(zText) - 1);
  CALL_ERR(cat_open(&pCat, "data", zErr, sizeof(zErr)),
          "catalog data/catalog.db is not a starq catalog: file is not a database");
  ASSERT(pCat == NULL);
  z = test_file_read("data/catalog.db", &n);
  ASSERT_EQ(n, sizeof(zText) - 1);
  ASSERT(memcmp(z, zText, n) == 0);
  free(z);
  ASSERT(!test_file_exists("data/catalog.db-wal"));

  /* Bigger than a page, so SQLite reads a whole header's worth. */
  for (size_t i = 0; i < sizeof(aJunk); i++) aJunk[i] = (char)(i * 131 + 7);
  file_write("data/catalog.db", aJunk, sizeof(aJunk));
  CALL_ERR(cat_open(&pCat, "data", zErr, sizeof(zErr)),
          "catalog data/catalog.db is not a starq catalog: file is not a database");
  z = test_file_read("data/catalog.db", &n);
  ASSERT_EQ(n, sizeof(aJunk));
  ASSERT(memcmp(z, aJunk, n) == 0);
  free(z);
  return 0;
}

TEST_IMPL(cat_foreign_sqlite) {
  char zErr[512];
  cat *pCat;

  ASSERT_EQ(mkdir("data", 0777), 0);
  test_sql_exec("data/catalog.db", "CREATE TABLE tables(x); INSERT INTO tables VALUES (42)");
  CALL_ERR(cat_open(&pCat, "data", zErr, sizeof(zErr)),
          "catalog data/catalog.db is not a starq catalog: it is a SQLite database of another "
          "application (application_id 0, user_version 0, 1 schema objects)");
  ASSERT(pCat == NULL);
  ASSERT_EQ(test_sql_int("data/catalog.db", "SELECT x FROM tables"), 42);
  ASSERT_EQ(test_sql_int("data/catalog.db", "SELECT count(*) FROM sqlite_master"), 1);
  ASSERT_EQ(test_sql_int("data/catalog.db",
                         "SELECT count(*) FROM pragma_journal_mode WHERE journal_mode = 'delete'"),
            1);

  /* A version number alone does not make a starq catalog. */
  test_sql_exec("data/catalog.db", "PRAGMA user_version = 1");
  CALL_ERR(cat_open(&pCat, "data", zErr, sizeof(zErr)),
          "catalog data/catalog.db is not a starq catalog: it is a SQLite database of another "
          "application (application_id 0, user_version 1, 1 schema objects)");
  ASSERT_EQ(test_sql_int("data/catalog.db", "PRAGMA user_version"), 1);
  return 0;
}
