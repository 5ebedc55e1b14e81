/*
** ssb-data/schema.c — the SSB schema as starq stores it: five tables,
** every column NOT NULL (dbgen never writes a NULL), primary keys, and the
** foreign keys from lineorder to each dimension that let the planner see
** the star.
**
** Types follow the SSB spec, with three choices of our own: money stays in
** integer cents as dbgen writes it (so sums match published answers),
** d_datekey and the lineorder dates are DATE (stored as int32 yyyymmdd
** either way), and lo_orderkey is BIGINT because it passes 2^31 above
** SF 357.
*/
#include <stdio.h>

#include "schema.h"

typedef struct schema_col schema_col;
struct schema_col {
  const char *zName;
  const char *zType;       /* as coltype_parse() reads it */
};

typedef struct schema_fkey schema_fkey;
struct schema_fkey {
  const char *zCol;
  const char *zRefTable;
  const char *zRefCol;
};

typedef struct schema_table schema_table;
struct schema_table {
  const char *zName;
  const schema_col *aCol;
  int nCol;
  const char *azPkey[2];   /* NULL-terminated */
  const schema_fkey *aFkey;
  int nFkey;
};

static const schema_col schema_aDate[] = {
  {"d_datekey", "DATE"}, {"d_date", "VARCHAR(18)"}, {"d_dayofweek", "VARCHAR(9)"},
  {"d_month", "VARCHAR(9)"}, {"d_year", "INTEGER"}, {"d_yearmonthnum", "INTEGER"},
  {"d_yearmonth", "CHAR(7)"}, {"d_daynuminweek", "INTEGER"},
  {"d_daynuminmonth", "INTEGER"}, {"d_daynuminyear", "INTEGER"},
  {"d_monthnuminyear", "INTEGER"}, {"d_weeknuminyear", "INTEGER"},
  {"d_sellingseason", "VARCHAR(12)"}, {"d_lastdayinweekfl", "SMALLINT"},
  {"d_lastdayinmonthfl", "SMALLINT"}, {"d_holidayfl", "SMALLINT"},
  {"d_weekdayfl", "SMALLINT"},
};

static const schema_col schema_aSupplier[] = {
  {"s_suppkey", "INTEGER"}, {"s_name", "VARCHAR(25)"}, {"s_address", "VARCHAR(25)"},
  {"s_city", "CHAR(10)"}, {"s_nation", "VARCHAR(15)"}, {"s_region", "VARCHAR(12)"},
  {"s_phone", "CHAR(15)"},
};

static const schema_col schema_aCustomer[] = {
  {"c_custkey", "INTEGER"}, {"c_name", "VARCHAR(25)"}, {"c_address", "VARCHAR(25)"},
  {"c_city", "CHAR(10)"}, {"c_nation", "VARCHAR(15)"}, {"c_region", "VARCHAR(12)"},
  {"c_phone", "CHAR(15)"}, {"c_mktsegment", "VARCHAR(10)"},
};

static const schema_col schema_aPart[] = {
  {"p_partkey", "INTEGER"}, {"p_name", "VARCHAR(22)"}, {"p_mfgr", "CHAR(6)"},
  {"p_category", "CHAR(7)"}, {"p_brand1", "VARCHAR(9)"}, {"p_color", "VARCHAR(11)"},
  {"p_type", "VARCHAR(25)"}, {"p_size", "INTEGER"}, {"p_container", "VARCHAR(10)"},
};

static const schema_col schema_aLineorder[] = {
  {"lo_orderkey", "BIGINT"}, {"lo_linenumber", "INTEGER"}, {"lo_custkey", "INTEGER"},
  {"lo_partkey", "INTEGER"}, {"lo_suppkey", "INTEGER"}, {"lo_orderdate", "DATE"},
  {"lo_orderpriority", "VARCHAR(15)"}, {"lo_shippriority", "INTEGER"},
  {"lo_quantity", "INTEGER"}, {"lo_extendedprice", "INTEGER"},
  {"lo_ordtotalprice", "INTEGER"}, {"lo_discount", "INTEGER"},
  {"lo_revenue", "INTEGER"}, {"lo_supplycost", "INTEGER"}, {"lo_tax", "INTEGER"},
  {"lo_commitdate", "DATE"}, {"lo_shipmode", "VARCHAR(10)"},
};

static const schema_fkey schema_aLineorderFkey[] = {
  {"lo_custkey", "customer", "c_custkey"},
  {"lo_partkey", "part", "p_partkey"},
  {"lo_suppkey", "supplier", "s_suppkey"},
  {"lo_orderdate", "date", "d_datekey"},
  {"lo_commitdate", "date", "d_datekey"},
};

#define SCHEMA_N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* In ssb_table_name() order: dimensions before the fact that references them. */
static const schema_table schema_aTable[SSB_TABLE_COUNT] = {
  {"date", schema_aDate, SCHEMA_N(schema_aDate), {"d_datekey", NULL}, NULL, 0},
  {"supplier", schema_aSupplier, SCHEMA_N(schema_aSupplier), {"s_suppkey", NULL}, NULL, 0},
  {"customer", schema_aCustomer, SCHEMA_N(schema_aCustomer), {"c_custkey", NULL}, NULL, 0},
  {"part", schema_aPart, SCHEMA_N(schema_aPart), {"p_partkey", NULL}, NULL, 0},
  {"lineorder", schema_aLineorder, SCHEMA_N(schema_aLineorder),
   {"lo_orderkey", "lo_linenumber"}, schema_aLineorderFkey, SCHEMA_N(schema_aLineorderFkey)},
};

/* Builds the definition of one table. Returns NULL with zErr set. */
static cat_table *schema_table_build(const schema_table *p, char *zErr, size_t nErr) {
  cat_table *t = cat_table_new(p->zName);
  int nPkey = p->azPkey[1] != NULL ? 2 : 1;
  if (t == NULL) {
    snprintf(zErr, nErr, "out of memory");
    return NULL;
  }
  for (int i = 0; i < p->nCol; i++) {
    coltype type;
    if (coltype_parse(p->aCol[i].zType, &type, zErr, nErr) != 0 ||
        cat_table_add_column(t, p->aCol[i].zName, type, 1, zErr, nErr) != 0) {
      goto out_free;
    }
  }
  if (cat_table_set_pkey(t, nPkey, p->azPkey, zErr, nErr) != 0) goto out_free;
  for (int i = 0; i < p->nFkey; i++) {
    const schema_fkey *f = &p->aFkey[i];
    if (cat_table_add_fkey(t, 1, &f->zCol, f->zRefTable, &f->zRefCol, zErr, nErr) != 0) {
      goto out_free;
    }
  }
  return t;
out_free:
  cat_table_free(t);
  return NULL;
}

int ssb_schema_create(cat *pCat, char *zErr, size_t nErr) {
  for (int i = 0; i < SSB_TABLE_COUNT; i++) {
    cat_table *t = NULL;
    char zIgnore[256];
    if (cat_table_get(pCat, schema_aTable[i].zName, &t, zIgnore, sizeof(zIgnore)) == 0) {
      cat_table_free(t);     /* there already: keep it and its data */
      continue;
    }
    t = schema_table_build(&schema_aTable[i], zErr, nErr);
    if (t == NULL) return -1;
    if (cat_table_create(pCat, t, zErr, nErr) != 0) {
      cat_table_free(t);
      return -1;
    }
    cat_table_free(t);
  }
  return 0;
}
