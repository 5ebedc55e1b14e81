/*
** tests/test-coltype.c — type names, widths and limits (common/coltype.c).
*/
#include "../common/coltype.h"
#include "test.h"

/* Parses z and returns its canonical spelling, or "error: ..." */
static const char *coltype_roundtrip(const char *z) {
  static char zOut[128];
  char zErr[128];
  coltype t;
  if (coltype_parse(z, &t, zErr, sizeof(zErr)) != 0) {
    snprintf(zOut, sizeof(zOut), "error: %s", zErr);
    return zOut;
  }
  return coltype_format(t, zOut, sizeof(zOut));
}

TEST_IMPL(coltype_names) {
  ASSERT_STR_EQ(coltype_roundtrip("int"), "INTEGER");
  ASSERT_STR_EQ(coltype_roundtrip("INT4"), "INTEGER");
  ASSERT_STR_EQ(coltype_roundtrip("smallint"), "SMALLINT");
  ASSERT_STR_EQ(coltype_roundtrip("int8"), "BIGINT");
  ASSERT_STR_EQ(coltype_roundtrip("double precision"), "DOUBLE PRECISION");
  ASSERT_STR_EQ(coltype_roundtrip("float8"), "DOUBLE PRECISION");
  ASSERT_STR_EQ(coltype_roundtrip("numeric( 15 , 2 )"), "DECIMAL(15,2)");
  ASSERT_STR_EQ(coltype_roundtrip("decimal(7)"), "DECIMAL(7,0)");
  ASSERT_STR_EQ(coltype_roundtrip("decimal"), "DECIMAL(18,0)");
  ASSERT_STR_EQ(coltype_roundtrip("date"), "DATE");
  ASSERT_STR_EQ(coltype_roundtrip("char(10)"), "CHAR(10)");
  ASSERT_STR_EQ(coltype_roundtrip("character"), "CHAR(1)");
  ASSERT_STR_EQ(coltype_roundtrip("character varying(25)"), "VARCHAR(25)");
  ASSERT_STR_EQ(coltype_roundtrip("varchar(25)"), "VARCHAR(25)");
  ASSERT_STR_EQ(coltype_roundtrip("TEXT"), "TEXT");

  ASSERT_STR_EQ(coltype_roundtrip("decimal(19,2)"), "error: DECIMAL precision 19 is out of range 1..18");
  ASSERT_STR_EQ(coltype_roundtrip("decimal(5,6)"), "error: DECIMAL scale 6 is out of range 0..5");
  ASSERT_STR_EQ(coltype_roundtrip("char(0)"), "error: CHAR length 0 is out of range 1..10485760");
  ASSERT_STR_EQ(coltype_roundtrip("varchar"), "error: malformed type \"varchar\"");
  ASSERT_STR_EQ(coltype_roundtrip("varchar(10"), "error: malformed type \"varchar(10\"");
  ASSERT_STR_EQ(coltype_roundtrip("integer x"), "error: malformed type \"integer x\"");
  ASSERT_STR_EQ(coltype_roundtrip("intx"), "error: unknown type \"intx\"");
  ASSERT_STR_EQ(coltype_roundtrip(""), "error: unknown type \"\"");

  {
    coltype t = {COLTYPE_DECIMAL, 0, 10, 2};
    ASSERT_EQ(coltype_width(t), 8);
    t.eId = COLTYPE_SMALLINT;
    t.nPrecision = t.nScale = 0;
    ASSERT_EQ(coltype_width(t), 2);
    t.eId = COLTYPE_VARCHAR;
    t.nLength = 5;
    ASSERT_EQ(coltype_width(t), 4);
    ASSERT(coltype_is_string(t));
    t.eId = 42;
    ASSERT_EQ(coltype_width(t), 0);
  }
  return 0;
}
